/// \file
/// copy_global_to_tile_with<Mover>: copy_global_to_tile with the way each unit moves named by the
/// caller (SyncMove, SyncMoveFetch256; block/copy.cuh), for kernels that tune their loads
/// (device_transpose's 256-byte L2 fetches).
#pragma once

#include "../core/boundary.cuh"   // boundary::Zero
#include "../core/coord.cuh"      // Coord
#include "../core/tile_ref.cuh"   // tile_ref
#include "copy.cuh"               // detail::copy, SyncMove, SyncMoveFetch256
#include "thread_group.cuh"       // ThreadBlock

namespace smemtile {

#if defined(__CUDACC__)

/// Loads the tile from `global` as copy_global_to_tile does, each unit moved by Mover (SyncMove:
/// plain loads; SyncMoveFetch256: loads asking L2 for 256 bytes). Every thread of `group` calls it
/// with the same arguments; it does not synchronize.
template <class Mover, class Global, class Tile, class Boundary = boundary::Zero, class Group = ThreadBlock>
SMEMTILE_DEVICE void copy_global_to_tile_with(const Global& global, Coord origin, Tile&& tile, Boundary boundary = {},
                                              Group group = {}) {
  constexpr bool to_tile = true;  // detail::copy's direction: global -> tile
  detail::copy<to_tile, Mover>(global, origin, tile_ref(tile), boundary, group);
}

#endif  // __CUDACC__

}  // namespace smemtile
