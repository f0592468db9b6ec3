// smemtile/smemtile.cuh: the umbrella header; include this to get all of smemtile.
#pragma once

#include "config.cuh"       // version, SMEMTILE_HOST_DEVICE, SMEMTILE_CHECK
#include "layout.cuh"       // Coord, PaddedLayout, RuntimePaddedLayout, TransposedLayout
#include "tile_ref.cuh"     // TileAccess (shared accessors), TileRef
#include "static_tile.cuh"  // StaticTile, BasicStaticTile
#include "thread_map.cuh"   // thread_coord, thread_rank, transposed_thread_coord
#include "banks.cuh"        // bank model (bank_cost, traversal_cost), AutoPaddedTile, SwizzledTile
#include "dynamic_tile.cuh" // DynamicTile (run-time shape), make_dynamic_tile
#include "arena.cuh"        // Arena, plan_shared_memory, carve_dynamic_shared_memory, align_to
#include "launch.cuh"       // prepare_launch, launch_with_plan (host: bytes, >48 KB attribute, limits)
