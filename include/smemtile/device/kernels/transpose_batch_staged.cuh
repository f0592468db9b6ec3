/// \file
/// device_transpose's small_batch_staged kernel: each block takes `per_block` whole matrices of a
/// dense batch (one flat run in, one flat run out, any shape, any alignment of the elements), stages
/// its run with cp.async (every load of the block in flight at once) and stores the transposed run
/// in pieces gathered from the stage (block/staged_batch.cuh).
#pragma once

#include "../../block/async_copy.cuh"      // async_copy_commit, async_copy_wait_all
#include "../../block/staged_batch.cuh"    // stage_run_async, store_transposed_run
#include "../../block/thread_group.cuh"    // FixedThreadBlock
#include "../../core/transposed_run.cuh"   // TransposedRunGeometry, transposed_run_piece_bytes
#include "../tuning/transpose_policy.cuh"  // TransposePolicy

namespace smemtile {

#if defined(__CUDACC__)

namespace detail {

// One block: matrices blockIdx.x per_block .. + per_block - 1 (fewer in the last block) of g's
// shape, staged in Rows x Cols elements (and the run's 16-byte phase).
template <class Policy, class Bits>
__global__ void __launch_bounds__(Policy::threads, Policy::min_blocks)
    transpose_batch_staged_kernel(const Bits* in, Bits* out, int batch, int per_block, TransposedRunGeometry g) {
  constexpr int E = static_cast<int>(sizeof(Bits));
  __shared__ uint4 stage[staged_run_bytes(Policy::rows * Policy::cols * E) / 16];
  const FixedThreadBlock<Policy::threads> block{};
  const int m0 = static_cast<int>(blockIdx.x) * per_block;
  const int count = batch - m0 < per_block ? batch - m0 : per_block;
  const long long first = static_cast<long long>(m0) * g.matrix();  // elements before the block's run
  const Bits* staged = stage_run_async(in + first, count * g.matrix(), stage, block);
  async_copy_commit();
  async_copy_wait_all();
  block.sync();
  store_transposed_run<transposed_run_piece_bytes(E)>(staged, count, g, out + first, block);
}

}  // namespace detail

#endif  // __CUDACC__

}  // namespace smemtile
