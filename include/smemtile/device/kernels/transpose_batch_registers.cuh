/// \file
/// device_transpose's small_batch_registers kernel: each block takes `per_block` whole matrices of
/// a contiguous batch (one flat run in, one flat run out, 16-byte aligned), stages them with cp.async
/// (every load of the block in flight at once), transposes them in T x T register tiles (one tile
/// row per shared access) and stores the transposed run in 16-byte chunks (block/batch_tiles.cuh).
#pragma once

#include "../../block/async_copy.cuh"    // async_copy_commit, async_copy_wait_all
#include "../../block/batch_tiles.cuh"   // stage_matrix_batch_async, read_batch_tiles, ...
#include "../../block/thread_group.cuh"  // FixedThreadBlock
#include "../../core/batch_layout.cuh"   // BatchTileGeometry
#include "../tuning/transpose_policy.cuh"  // TransposePolicy

namespace smemtile {

#if defined(__CUDACC__)

namespace detail {

// One block: matrices blockIdx.x per_block .. + per_block - 1 (fewer in the last block) of rows x
// cols each (g), staged in a shared run of Rows x Cols elements: loaded, transposed tile by tile
// into the same run, stored.
template <class Policy, class Bits>
__global__ void __launch_bounds__(Policy::threads, Policy::min_blocks)
    transpose_batch_registers_kernel(const Bits* in, Bits* out, int batch, int per_block, BatchTileGeometryOf<Bits> g) {
  constexpr int stage_bytes = Policy::rows * Policy::cols * static_cast<int>(sizeof(Bits));
  using Block = FixedThreadBlock<Policy::threads>;
  __shared__ uint4 stage[stage_bytes / 16];
  const Block block{};
  const int m0 = static_cast<int>(blockIdx.x) * per_block;
  const int count = batch - m0 < per_block ? batch - m0 : per_block;
  const long long first = static_cast<long long>(m0) * g.rows * g.cols;  // elements before the block's run
  stage_matrix_batch_async(in + first, count, g, stage, block);
  async_copy_commit();
  async_copy_wait_all();
  block.sync();
  BatchTiles<Bits, stage_bytes, Policy::threads> tiles;
  read_batch_tiles(stage, count, g, tiles, block);
  block.sync();  // every tile read before any is written over
  write_batch_tiles(tiles, count, g, stage, block);
  block.sync();
  store_matrix_batch(stage, count, g, out + first, block);
}

}  // namespace detail

#endif  // __CUDACC__

}  // namespace smemtile
