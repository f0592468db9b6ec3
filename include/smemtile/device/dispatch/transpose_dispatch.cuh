/// \file
/// device_transpose's dispatch: the policy for the element size and the output's alignment (or the
/// caller's), then one launch.
#pragma once

#include <cuda_runtime.h>

#include <string>

#include "../kernels/transpose_kernel.cuh"   // transpose_kernel, transpose_grid
#include "../launch.cuh"                     // LaunchStatus, failed_launch
#include "../tuning/transpose_policy.cuh"    // the policies and the selector

namespace smemtile {

#if defined(__CUDACC__)

namespace detail {

// Whether every row of every matrix of `p` (pitch `ld`, batch stride `stride`, in elements of
// `elem_bytes`) starts on a 16-byte boundary.
inline bool rows_16_byte_aligned(const void* p, long long ld, long long stride, int batch, int elem_bytes) {
  return reinterpret_cast<unsigned long long>(p) % 16 == 0 && (ld * elem_bytes) % 16 == 0 &&
         (batch <= 1 || (stride * elem_bytes) % 16 == 0);
}

// Launches transpose_kernel with Policy: one block per tile and matrix. (The kernel uses static
// shared memory only: no attribute to set, no device limit to ask.)
template <class Policy, class Bits>
LaunchStatus launch_transpose(const Bits* in, Bits* out, int rows, int cols, int ld_in, int ld_out, int batch,
                              long long stride_in, long long stride_out, cudaStream_t stream) {
  static_assert(TransposePolicyCheck<Policy, static_cast<int>(sizeof(Bits))>::ok, "");
  const int tiles_across = (cols + Policy::cols - 1) / Policy::cols;
  const int tiles_down = (rows + Policy::rows - 1) / Policy::rows;
  const TransposeGrid grid = transpose_grid(tiles_down, tiles_across, batch, Policy::columns_together);
  if (grid.x == 0)
    return failed_launch(cudaErrorInvalidValue, "smemtile::device_transpose: more tile columns x matrices than "
                                                "one grid holds (65535^2)");
  transpose_kernel<Policy><<<dim3(grid.x, grid.y, grid.z), Policy::threads, 0, stream>>>(
      in, out, rows, cols, ld_in, ld_out, batch, stride_in, stride_out, grid, tiles_across);
  const cudaError_t error = cudaGetLastError();
  if (error != cudaSuccess)
    return failed_launch(error, std::string("smemtile::device_transpose: launch failed: ") + cudaGetErrorString(error));
  return LaunchStatus{};
}

// The selected policy (select_transpose_algorithm) launched.
template <class Bits>
LaunchStatus dispatch_transpose(const Bits* in, Bits* out, int rows, int cols, int ld_in, int ld_out, int batch,
                                long long stride_in, long long stride_out, cudaStream_t stream) {
  constexpr int E = static_cast<int>(sizeof(Bits));
  const TransposeAlgorithm algorithm =
      select_transpose_algorithm(E, rows_16_byte_aligned(out, ld_out, stride_out, batch, E));
  if constexpr (E <= 4) {
    if (algorithm == TransposeAlgorithm::register_blocks)
      return launch_transpose<typename DefaultTransposePolicy<E, TransposeAlgorithm::register_blocks>::type>(
          in, out, rows, cols, ld_in, ld_out, batch, stride_in, stride_out, stream);
  }
  if constexpr (E == 1) {
    return launch_transpose<typename DefaultTransposePolicy<E, TransposeAlgorithm::word_blocks>::type>(
        in, out, rows, cols, ld_in, ld_out, batch, stride_in, stride_out, stream);
  } else {
    return launch_transpose<typename DefaultTransposePolicy<E, TransposeAlgorithm::padded_elements>::type>(
        in, out, rows, cols, ld_in, ld_out, batch, stride_in, stride_out, stream);
  }
}

}  // namespace detail

#endif  // __CUDACC__

}  // namespace smemtile
