// smemtile/smemtile.cuh: the umbrella header; include this to get all of smemtile.
#pragma once

#include "config.cuh"       // version, SMEMTILE_HOST_DEVICE, SMEMTILE_CHECK
#include "layout.cuh"       // Coord, PaddedLayout, RuntimePaddedLayout, TransposedLayout
#include "tile_ref.cuh"     // TileAccess (shared accessors), TileRef
#include "static_tile.cuh"  // StaticTile, BasicStaticTile
#include "thread_map.cuh"   // thread_coord, thread_rank, transposed_thread_coord
