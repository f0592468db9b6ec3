/// \file
/// device_transpose's dispatch: the policy for the element size and the output's alignment (or the
/// caller's), then one launch.
#pragma once

#include <cuda_runtime.h>

#include <string>
#include <type_traits>  // std::conditional_t

#include "../kernels/transpose_kernel.cuh"   // transpose_kernel, transpose_grid
#include "../kernels/transpose_record_kernel.cuh"  // transpose_record_kernel (narrow sides, small batches)
#include "../kernels/transpose_narrow_registers.cuh"  // transpose_narrow_registers_kernel
#include "../kernels/transpose_narrow_rotated.cuh"    // transpose_narrow_rotated_kernel
#include "../kernels/transpose_batch_registers.cuh"   // transpose_batch_registers_kernel
#include "../kernels/transpose_batch_staged.cuh"      // transpose_batch_staged_kernel
#include "../kernels/transpose_realigned.cuh"         // transpose_realigned_kernel
#include "../launch.cuh"                     // LaunchStatus, failed_launch
#include "../tuning/transpose_policy.cuh"    // the policies
#include "../tuning/transpose_selection.cuh" // select_transpose_algorithm, rows_16_byte_aligned

namespace smemtile {

#if defined(__CUDACC__)

namespace detail {

// Whether every row of every matrix of `p` (pitch `ld`, batch stride `stride`, in elements of
// `elem_bytes`) starts on a 16-byte boundary.
inline bool rows_16_byte_aligned(const void* p, long long ld, long long stride, int batch, int elem_bytes) {
  return smemtile::rows_16_byte_aligned(reinterpret_cast<unsigned long long>(p), ld, stride, batch, elem_bytes);
}

// What the selection sees of a call (select_transpose_algorithm and the policies' *_apply).
template <class Bits>
TransposeSelectionInput selection_input(const Bits* in, const Bits* out, int rows, int cols, int ld_in, int ld_out,
                                        int batch, long long stride_in, long long stride_out) {
  return TransposeSelectionInput{rows, cols, batch, static_cast<int>(sizeof(Bits)), ld_in, ld_out, stride_in, stride_out,
                                 reinterpret_cast<unsigned long long>(in), reinterpret_cast<unsigned long long>(out)};
}

// The flat grid of a batch algorithm whose blocks take as many whole matrices as `stage_bytes`
// holds: (blocks, matrices per block).
inline void stage_grid(int stage_bytes, int rows, int cols, int elem_bytes, int batch, long long* blocks,
                       int* per_block) {
  *per_block = stage_bytes / (rows * cols * elem_bytes);
  *blocks = (batch + static_cast<long long>(*per_block) - 1) / *per_block;
}

// Launches transpose_record_kernel with a record Policy: one block per run of records (narrow) or
// per group of whole matrices (small_batch), one flat grid.
template <class Policy, class Bits>
LaunchStatus launch_transpose_records(const Bits* in, Bits* out, int rows, int cols, int ld_in, int ld_out, int batch,
                                      long long stride_in, long long stride_out, cudaStream_t stream) {
  static_assert(TransposePolicyCheck<Policy, static_cast<int>(sizeof(Bits))>::ok, "");
  constexpr int E = static_cast<int>(sizeof(Bits));
  const int per_block = transpose_records_per_block(Policy::algorithm, Policy::rows * Policy::cols, rows, cols, E);
  if (per_block < 1)
    return failed_launch(cudaErrorInvalidValue, "smemtile::device_transpose: the policy's record tile does not hold "
                                                "one record (narrow) or one matrix (small_batch) of this shape");
  const long long runs = Policy::algorithm == TransposeAlgorithm::small_batch ? 1
                         : Policy::algorithm == TransposeAlgorithm::narrow_rows
                             ? (rows + per_block - 1) / per_block
                             : (cols + per_block - 1) / per_block;
  const long long blocks = Policy::algorithm == TransposeAlgorithm::small_batch
                               ? (batch + per_block - 1) / per_block
                               : runs * batch;
  if (blocks > 2147483647LL)
    return failed_launch(cudaErrorInvalidValue, "smemtile::device_transpose: more record blocks than one grid holds");
  // The narrow extent's divisor, made here: on the device its 64-bit division would cost every block.
  const FastDivmod by_k(static_cast<unsigned>(Policy::algorithm == TransposeAlgorithm::narrow_rows ? cols : rows));
  transpose_record_kernel<Policy><<<static_cast<unsigned>(blocks), Policy::threads, 0, stream>>>(
      in, out, rows, cols, ld_in, ld_out, batch, stride_in, stride_out, per_block, static_cast<int>(runs), by_k);
  return launched_status(LaunchStatus{}, "smemtile::device_transpose");
}

// Launches transpose_narrow_registers_kernel with a narrow register Policy: one block per run of
// records and matrix, one flat grid. Refuses shapes the policy cannot move (the narrow extent not
// its K, records not contiguous or not 16-byte aligned).
template <class Policy, class Bits>
LaunchStatus launch_transpose_narrow_registers(const Bits* in, Bits* out, int rows, int cols, int ld_in, int ld_out,
                                               int batch, long long stride_in, long long stride_out,
                                               cudaStream_t stream) {
  constexpr int E = static_cast<int>(sizeof(Bits));
  static_assert(TransposePolicyCheck<Policy, E>::ok, "");
  using Shape = NarrowRegisterShape<Policy, E>;
  const TransposeSelectionInput shape = selection_input(in, out, rows, cols, ld_in, ld_out, batch, stride_in, stride_out);
  if ((Shape::split ? cols : rows) != Shape::k || !narrow_registers_apply(shape, Shape::split, 1))
    return failed_launch(cudaErrorInvalidValue,
                         "smemtile::device_transpose: a narrow register policy needs the narrow extent equal to its K, "
                         "the records contiguous (pitch K), their pointer and batch stride 16-byte aligned, at most "
                         "INT_MAX - 16 of them, and for K above 8 (channel groups) the channel rows 16-byte aligned");
  const int n = Shape::split ? rows : cols;
  const long long runs = (n + Shape::records - 1) / Shape::records;
  if (runs * batch > 2147483647LL)
    return failed_launch(cudaErrorInvalidValue, "smemtile::device_transpose: more record blocks than one grid holds");
  const bool channels_aligned = Shape::split ? rows_16_byte_aligned(out, ld_out, stride_out, batch, E)
                                             : rows_16_byte_aligned(in, ld_in, stride_in, batch, E);
  transpose_narrow_registers_kernel<Policy><<<static_cast<unsigned>(runs * batch), Policy::threads, 0, stream>>>(
      in, out, n, ld_in, ld_out, stride_in, stride_out, static_cast<int>(runs), channels_aligned);
  return launched_status(LaunchStatus{}, "smemtile::device_transpose");
}

// Launches transpose_narrow_rotated_kernel with a rotated Policy: one block per run of records and
// matrix, one flat grid. Refuses shapes the policy cannot move (narrow_rotated_apply with K its
// narrow extent).
template <class Policy, class Bits>
LaunchStatus launch_transpose_narrow_rotated(const Bits* in, Bits* out, int rows, int cols, int ld_in, int ld_out,
                                             int batch, long long stride_in, long long stride_out,
                                             cudaStream_t stream) {
  static_assert(TransposePolicyCheck<Policy, static_cast<int>(sizeof(Bits))>::ok, "");
  constexpr bool split = Policy::algorithm == TransposeAlgorithm::narrow_rows_rotated;
  const TransposeSelectionInput shape = selection_input(in, out, rows, cols, ld_in, ld_out, batch, stride_in, stride_out);
  if ((split ? cols != Policy::cols : rows != Policy::rows) || !narrow_rotated_apply(shape, split, 1))
    return failed_launch(cudaErrorInvalidValue,
                         "smemtile::device_transpose: a rotated policy needs the narrow extent equal to its K, the "
                         "records contiguous (pitch K) with their pointer and batch stride 16-byte aligned, at most "
                         "INT_MAX - 16 of them, and where merging 1- or 2-byte elements the channel rows 16-byte aligned");
  const int n = split ? rows : cols;
  constexpr long long records = Policy::threads * (16 / static_cast<int>(sizeof(Bits)));
  const long long runs = (n + records - 1) / records;
  if (runs * batch > 2147483647LL)
    return failed_launch(cudaErrorInvalidValue, "smemtile::device_transpose: more record blocks than one grid holds");
  const bool channels_aligned = channel_rows_aligned_to(shape, split, 16);
  transpose_narrow_rotated_kernel<Policy><<<static_cast<unsigned>(runs * batch), Policy::threads, 0, stream>>>(
      in, out, n, split ? ld_out : ld_in, stride_in, stride_out, static_cast<int>(runs), channels_aligned);
  return launched_status(LaunchStatus{}, "smemtile::device_transpose");
}

// Launches transpose_batch_registers_kernel with a small_batch_registers Policy: one block per
// group of whole matrices (as many as its stage holds), one flat grid. Refuses batches the policy
// cannot move (small_batch_registers_apply).
template <class Policy, class Bits>
LaunchStatus launch_transpose_batch_registers(const Bits* in, Bits* out, int rows, int cols, int ld_in, int ld_out,
                                              int batch, long long stride_in, long long stride_out,
                                              cudaStream_t stream) {
  constexpr int E = static_cast<int>(sizeof(Bits)), stage_bytes = Policy::rows * Policy::cols * E;
  static_assert(TransposePolicyCheck<Policy, E>::ok, "");
  const TransposeSelectionInput shape = selection_input(in, out, rows, cols, ld_in, ld_out, batch, stride_in, stride_out);
  if (!small_batch_registers_apply(shape, stage_bytes))
    return failed_launch(cudaErrorInvalidValue,
                         "smemtile::device_transpose: a small_batch_registers policy needs rows and cols multiples of "
                         "its tile side (8 for 1- and 2-byte elements, 4 for 4-byte, 2 for 8-byte), a matrix within "
                         "its stage, dense contiguous matrices and 16-byte aligned pointers");
  long long blocks = 0;
  int per_block = 0;
  stage_grid(stage_bytes, rows, cols, E, batch, &blocks, &per_block);
  transpose_batch_registers_kernel<Policy><<<static_cast<unsigned>(blocks), Policy::threads, 0, stream>>>(
      in, out, batch, per_block, batch_tile_geometry<E>(rows, cols));
  return launched_status(LaunchStatus{}, "smemtile::device_transpose");
}

// Launches transpose_batch_staged_kernel with a small_batch_staged Policy: one block per group of
// whole matrices (as many as its stage holds), one flat grid. Refuses batches the policy cannot move
// (small_batch_staged_apply).
template <class Policy, class Bits>
LaunchStatus launch_transpose_batch_staged(const Bits* in, Bits* out, int rows, int cols, int ld_in, int ld_out,
                                           int batch, long long stride_in, long long stride_out, cudaStream_t stream) {
  constexpr int E = static_cast<int>(sizeof(Bits)), stage_bytes = Policy::rows * Policy::cols * E;
  static_assert(TransposePolicyCheck<Policy, E>::ok, "");
  const TransposeSelectionInput shape = selection_input(in, out, rows, cols, ld_in, ld_out, batch, stride_in, stride_out);
  if (!small_batch_staged_apply(shape, stage_bytes))
    return failed_launch(cudaErrorInvalidValue,
                         "smemtile::device_transpose: a small_batch_staged policy needs a matrix within its stage, "
                         "dense contiguous matrices (pitches the rows, batch strides a matrix) and the output aligned "
                         "to the element's size");
  long long blocks = 0;
  int per_block = 0;
  stage_grid(stage_bytes, rows, cols, E, batch, &blocks, &per_block);
  transpose_batch_staged_kernel<Policy><<<static_cast<unsigned>(blocks), Policy::threads, 0, stream>>>(
      in, out, batch, per_block, TransposedRunGeometry(rows, cols));
  return launched_status(LaunchStatus{}, "smemtile::device_transpose");
}

// Launches transpose_realigned_kernel with a realigned_rows Policy on the device `limits` describe:
// one tall tile per block and matrix, its stage in dynamic shared memory (the limit raised once per
// device; an error where the device gives a block less).
template <class Policy, class Bits>
LaunchStatus launch_transpose_realigned(const DeviceLimits& limits, const Bits* in, Bits* out, int rows, int cols,
                                        int ld_in, int ld_out, int batch, long long stride_in, long long stride_out,
                                        cudaStream_t stream) {
  constexpr int E = static_cast<int>(sizeof(Bits));
  static_assert(TransposePolicyCheck<Policy, E>::ok, "");
  static_assert(alignof(Bits) == E, "smemtile::device_transpose: realigned_rows needs elements aligned to their size "
                                    "(its chunk boundaries must fall between elements)");
  using Shape = RealignedRowsShape<E, Policy::cols / 8>;
  constexpr auto kernel = transpose_realigned_kernel<Policy, Bits>;
  const int tiles_across = (cols + Shape::cols - 1) / Shape::cols;
  const int tiles_down = (rows + Shape::owned_rows - 1) / Shape::owned_rows;
  const TransposeGrid grid = transpose_grid(tiles_down, tiles_across, batch);
  if (grid.x == 0)
    return failed_launch(cudaErrorInvalidValue, "smemtile::device_transpose: more tile columns x matrices than "
                                                "one grid holds (65535^2)");
  const LaunchStatus ready = raise_dynamic_shared<kernel>(limits, Shape::stage_bytes, "smemtile::device_transpose");
  if (!ready) return ready;
  kernel<<<dim3(grid.x, grid.y, grid.z), Policy::threads, Shape::stage_bytes, stream>>>(
      in, out, rows, cols, ld_in, ld_out, batch, stride_in, stride_out, grid, tiles_across);
  return launched_status(LaunchStatus{}, "smemtile::device_transpose");
}

// The same on the current device (a caller's policy).
template <class Policy, class Bits>
LaunchStatus launch_transpose_realigned(const Bits* in, Bits* out, int rows, int cols, int ld_in, int ld_out, int batch,
                                        long long stride_in, long long stride_out, cudaStream_t stream) {
  DeviceLimits limits;
  const LaunchStatus queried = device_limits(&limits, "smemtile::device_transpose");
  if (!queried) return queried;
  return launch_transpose_realigned<Policy>(limits, in, out, rows, cols, ld_in, ld_out, batch, stride_in, stride_out,
                                            stream);
}

// Launches transpose_kernel with Policy: one block per tile and matrix. (The kernel uses static
// shared memory only: no attribute to set, no device limit to ask.)
template <class Policy, class Bits>
LaunchStatus launch_transpose(const Bits* in, Bits* out, int rows, int cols, int ld_in, int ld_out, int batch,
                              long long stride_in, long long stride_out, cudaStream_t stream) {
  if constexpr (is_record_transpose(Policy::algorithm)) {
    return launch_transpose_records<Policy>(in, out, rows, cols, ld_in, ld_out, batch, stride_in, stride_out, stream);
  } else if constexpr (Policy::algorithm == TransposeAlgorithm::small_batch_registers) {
    return launch_transpose_batch_registers<Policy>(in, out, rows, cols, ld_in, ld_out, batch, stride_in, stride_out,
                                                    stream);
  } else if constexpr (Policy::algorithm == TransposeAlgorithm::small_batch_staged) {
    return launch_transpose_batch_staged<Policy>(in, out, rows, cols, ld_in, ld_out, batch, stride_in, stride_out,
                                                 stream);
  } else if constexpr (is_narrow_register_transpose(Policy::algorithm)) {
    return launch_transpose_narrow_registers<Policy>(in, out, rows, cols, ld_in, ld_out, batch, stride_in, stride_out,
                                                     stream);
  } else if constexpr (Policy::algorithm == TransposeAlgorithm::realigned_rows) {
    return launch_transpose_realigned<Policy>(in, out, rows, cols, ld_in, ld_out, batch, stride_in, stride_out, stream);
  } else if constexpr (is_rotated_transpose(Policy::algorithm)) {
    return launch_transpose_narrow_rotated<Policy>(in, out, rows, cols, ld_in, ld_out, batch, stride_in, stride_out,
                                                   stream);
  } else {
  static_assert(TransposePolicyCheck<Policy, static_cast<int>(sizeof(Bits))>::ok, "");
  const int tiles_across = (cols + Policy::cols - 1) / Policy::cols;
  const int tiles_down = (rows + Policy::rows - 1) / Policy::rows;
  const TransposeGrid grid = transpose_grid(tiles_down, tiles_across, batch, Policy::columns_together);
  if (grid.x == 0)
    return failed_launch(cudaErrorInvalidValue, "smemtile::device_transpose: more tile columns x matrices than "
                                                "one grid holds (65535^2)");
  transpose_kernel<Policy><<<dim3(grid.x, grid.y, grid.z), Policy::threads, 0, stream>>>(
      in, out, rows, cols, ld_in, ld_out, batch, stride_in, stride_out, grid, tiles_across);
  return launched_status(LaunchStatus{}, "smemtile::device_transpose");
  }
}

// The default policy of a narrow Algorithm whose extent is a compile-time K (the narrow register
// algorithms: narrow_register_extent; the rotated ones: narrow_rotated_extent) for the call's K,
// launched: one kernel per K the algorithm takes, none for the others.
template <TransposeAlgorithm Algorithm, int K = 1, class Bits>
LaunchStatus dispatch_narrow_extent(int k, const Bits* in, Bits* out, int rows, int cols, int ld_in, int ld_out,
                                    int batch, long long stride_in, long long stride_out, cudaStream_t stream) {
  constexpr int E = static_cast<int>(sizeof(Bits));
  constexpr bool rotated = is_rotated_transpose(Algorithm);
  if constexpr (rotated ? narrow_rotated_extent(E, K) : narrow_register_extent(E, K)) {
    using Default = std::conditional_t<rotated, DefaultNarrowRotatedPolicy<E, Algorithm, K>,
                                       DefaultNarrowRegisterPolicy<E, Algorithm, K>>;
    if (k == K)
      return launch_transpose<typename Default::type>(in, out, rows, cols, ld_in, ld_out, batch, stride_in, stride_out,
                                                      stream);
  }
  if constexpr (K < transpose_register_group_max) {  // (transpose_rotated_max is below it)
    return dispatch_narrow_extent<Algorithm, K + 1>(k, in, out, rows, cols, ld_in, ld_out, batch, stride_in,
                                                    stride_out, stream);
  } else {
    return failed_launch(cudaErrorInvalidValue, "smemtile::device_transpose: no narrow kernel for this extent");
  }
}

// The large tiles: the register blocks where `algorithm` names them (elements of up to 4 bytes),
// else the word blocks for bytes and the padded tiles for the other sizes.
template <class Bits>
LaunchStatus launch_large_tiles(TransposeAlgorithm algorithm, const Bits* in, Bits* out, int rows, int cols, int ld_in,
                                int ld_out, int batch, long long stride_in, long long stride_out, cudaStream_t stream) {
  constexpr int E = static_cast<int>(sizeof(Bits));
  if constexpr (E <= 4) {
    if (algorithm == TransposeAlgorithm::register_blocks)
      return launch_transpose<typename DefaultTransposePolicy<E, TransposeAlgorithm::register_blocks>::type>(
          in, out, rows, cols, ld_in, ld_out, batch, stride_in, stride_out, stream);
  }
  using Other = typename DefaultTransposePolicy<E, E == 1 ? TransposeAlgorithm::word_blocks
                                                          : TransposeAlgorithm::padded_elements>::type;
  return launch_transpose<Other>(in, out, rows, cols, ld_in, ld_out, batch, stride_in, stride_out, stream);
}

// The selected policy (select_transpose_algorithm) launched.
template <class Bits>
LaunchStatus dispatch_transpose(const Bits* in, Bits* out, int rows, int cols, int ld_in, int ld_out, int batch,
                                long long stride_in, long long stride_out, cudaStream_t stream) {
  constexpr int E = static_cast<int>(sizeof(Bits));
  const TransposeAlgorithm algorithm =
      select_transpose_algorithm(selection_input(in, out, rows, cols, ld_in, ld_out, batch, stride_in, stride_out));
  switch (algorithm) {
    case TransposeAlgorithm::small_batch:
      return launch_transpose<typename DefaultTransposePolicy<E, TransposeAlgorithm::small_batch>::type>(
          in, out, rows, cols, ld_in, ld_out, batch, stride_in, stride_out, stream);
    case TransposeAlgorithm::small_batch_registers:
      if constexpr (E <= 8)
        return launch_transpose<typename DefaultTransposePolicy<E, TransposeAlgorithm::small_batch_registers>::type>(
            in, out, rows, cols, ld_in, ld_out, batch, stride_in, stride_out, stream);
      break;
    case TransposeAlgorithm::small_batch_staged:
      return launch_transpose<typename DefaultTransposePolicy<E, TransposeAlgorithm::small_batch_staged>::type>(
          in, out, rows, cols, ld_in, ld_out, batch, stride_in, stride_out, stream);
    case TransposeAlgorithm::narrow_rows:
      return launch_transpose<typename DefaultTransposePolicy<E, TransposeAlgorithm::narrow_rows>::type>(
          in, out, rows, cols, ld_in, ld_out, batch, stride_in, stride_out, stream);
    case TransposeAlgorithm::narrow_cols:
      return launch_transpose<typename DefaultTransposePolicy<E, TransposeAlgorithm::narrow_cols>::type>(
          in, out, rows, cols, ld_in, ld_out, batch, stride_in, stride_out, stream);
    case TransposeAlgorithm::narrow_rows_registers:
      if constexpr (E <= 8)
        return dispatch_narrow_extent<TransposeAlgorithm::narrow_rows_registers>(
            cols, in, out, rows, cols, ld_in, ld_out, batch, stride_in, stride_out, stream);
      break;
    case TransposeAlgorithm::narrow_cols_registers:
      if constexpr (E <= 8)
        return dispatch_narrow_extent<TransposeAlgorithm::narrow_cols_registers>(
            rows, in, out, rows, cols, ld_in, ld_out, batch, stride_in, stride_out, stream);
      break;
    case TransposeAlgorithm::narrow_rows_rotated:
      if constexpr (E <= 8)
        return dispatch_narrow_extent<TransposeAlgorithm::narrow_rows_rotated>(
            cols, in, out, rows, cols, ld_in, ld_out, batch, stride_in, stride_out, stream);
      break;
    case TransposeAlgorithm::narrow_cols_rotated:
      if constexpr (E <= 8)
        return dispatch_narrow_extent<TransposeAlgorithm::narrow_cols_rotated>(
            rows, in, out, rows, cols, ld_in, ld_out, batch, stride_in, stride_out, stream);
      break;
    case TransposeAlgorithm::realigned_rows:  // where the device gives a block the stage (Turing: 64 KB); else the tiles below
      if constexpr (E <= 2 && alignof(Bits) == E) {
        using Policy = typename DefaultTransposePolicy<E, TransposeAlgorithm::realigned_rows>::type;
        DeviceLimits limits;
        if (device_limits(&limits, "smemtile::device_transpose") &&
            limits.shared_per_block_optin >= RealignedRowsShape<E, Policy::cols / 8>::stage_bytes)
          return launch_transpose_realigned<Policy>(limits, in, out, rows, cols, ld_in, ld_out, batch, stride_in,
                                                    stride_out, stream);
      }
      break;
    default:
      break;
  }
  // realigned_rows where the device cannot run it: the large tiles the output's alignment allows
  const TransposeAlgorithm large =
      algorithm == TransposeAlgorithm::realigned_rows
          ? select_transpose_algorithm(E, rows_16_byte_aligned(out, ld_out, stride_out, batch, E))
          : algorithm;
  return launch_large_tiles(large, in, out, rows, cols, ld_in, ld_out, batch, stride_in, stride_out, stream);
}

}  // namespace detail

#endif  // __CUDACC__

}  // namespace smemtile
