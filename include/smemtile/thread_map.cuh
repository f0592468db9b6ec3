// smemtile/thread_map.cuh: where a thread of the block sits, as a tile coordinate.
//
// These are the mappings the seed kernels compute by hand. The block is treated as a tile of
// threads (blockDim.y rows x blockDim.x columns, row-major); the arithmetic comes from layout.cuh.
// Only threadIdx.x and threadIdx.y are read: these are for 2D (or 1D) blocks.
#pragma once

#include "config.cuh"  // SMEMTILE_DEVICE
#include "layout.cuh"  // Coord, RuntimePaddedLayout, row_major_coord

namespace smemtile {

#if defined(__CUDACC__)

// The layout of the block's threads: blockDim.y rows of blockDim.x threads.
SMEMTILE_DEVICE RuntimePaddedLayout thread_block_layout() {
  return RuntimePaddedLayout{static_cast<int>(blockDim.y), static_cast<int>(blockDim.x), 0};
}

// (threadIdx.y, threadIdx.x): the thread's row and column in the block.
SMEMTILE_DEVICE Coord thread_coord() { return Coord{static_cast<int>(threadIdx.y), static_cast<int>(threadIdx.x)}; }

// The thread's position in a row-major walk of the block: threadIdx.y * blockDim.x + threadIdx.x.
// Consecutive ranks are consecutive lanes of a warp.
SMEMTILE_DEVICE unsigned thread_rank() {
  return static_cast<unsigned>(thread_block_layout().offset(static_cast<int>(threadIdx.y), static_cast<int>(threadIdx.x)));
}

// The thread's (row, col) when the block's threads are laid out row-major over the transposed
// shape, blockDim.x rows of blockDim.y: (rank / blockDim.y, rank % blockDim.y). Reading
// tile.transposed()(transposed_thread_coord()) walks a blockDim.y x blockDim.x tile by columns.
SMEMTILE_DEVICE Coord transposed_thread_coord() { return row_major_coord(thread_rank(), blockDim.y); }

#endif  // __CUDACC__

}  // namespace smemtile
