// smemtile/core/thread_map.cuh: where a thread of the block sits, as a tile coordinate.
//
// The block is treated as a tile of threads (blockDim.y rows x blockDim.x columns, row-major); the
// arithmetic comes from coord.cuh and layout.cuh. Only threadIdx.x and threadIdx.y are read: these
// are for 2D (or 1D) blocks.
#pragma once

#include "../config.cuh"  // SMEMTILE_DEVICE
#include "coord.cuh"      // Coord, row_major_coord
#include "layout.cuh"     // RuntimePaddedLayout

namespace smemtile {

#if defined(__CUDACC__)

/// The layout of the block's threads: blockDim.y rows of blockDim.x threads.
SMEMTILE_DEVICE RuntimePaddedLayout thread_block_layout() {
  return RuntimePaddedLayout{static_cast<int>(blockDim.y), static_cast<int>(blockDim.x), 0};
}

/// (threadIdx.y, threadIdx.x): the thread's row and column in the block.
SMEMTILE_DEVICE Coord thread_coord() { return Coord{static_cast<int>(threadIdx.y), static_cast<int>(threadIdx.x)}; }

/// The thread's position in a row-major walk of the block: threadIdx.y * blockDim.x + threadIdx.x.
/// Consecutive ranks are consecutive lanes of a warp.
SMEMTILE_DEVICE unsigned thread_rank() {
  return static_cast<unsigned>(thread_block_layout().offset(static_cast<int>(threadIdx.y), static_cast<int>(threadIdx.x)));
}

/// The thread's (row, col) when the block's threads are re-arranged row-major into the swapped
/// shape, blockDim.x rows of blockDim.y columns: (rank / blockDim.y, rank % blockDim.y). With a
/// rectangular block, `tile.transposed()(thread_coord_in_swapped_block())` makes consecutive lanes
/// walk down the columns of a blockDim.y x blockDim.x tile, the read side of a transpose.
SMEMTILE_DEVICE Coord thread_coord_in_swapped_block() { return row_major_coord(thread_rank(), blockDim.y); }

/// Where this block's tile starts in a global array cut into tiles of `tile_shape`, block (x, y)
/// taking tile column x and tile row y: (blockIdx.y * tile_shape.row, blockIdx.x * tile_shape.col).
SMEMTILE_DEVICE Coord block_tile_origin(Coord tile_shape) {
  return Coord{static_cast<int>(blockIdx.y) * tile_shape.row, static_cast<int>(blockIdx.x) * tile_shape.col};
}

/// Where this block's 1D tile of `tile_size` elements starts: blockIdx.x * tile_size.
SMEMTILE_DEVICE int block_tile_origin_1d(int tile_size) { return static_cast<int>(blockIdx.x) * tile_size; }

#endif  // __CUDACC__

}  // namespace smemtile
