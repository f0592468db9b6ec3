// smemtile/device/transpose.cuh: device_transpose, a host function that transposes matrices.
//
//   smemtile::LaunchStatus s = smemtile::device_transpose(d_in, d_out, rows, cols, stream);
//   if (!s) std::fprintf(stderr, "%s\n", s.message.c_str());
//
// `in` is rows x cols row-major (rows `ld_in` elements apart), `out` becomes cols x rows row-major
// (rows `ld_out` apart); a batch of matrices `stride_in` / `stride_out` elements apart is
// transposed by one launch. Elements of 1, 2, 4, 8 or 16 bytes, any trivially copyable type
// (char, half, float, double, float4, double2, ...). In-place transposes are not supported: `in`
// and `out` must not overlap. Asynchronous on `stream`: the status covers the arguments and the
// launch, not the kernel's completion.
//
// Each block transposes one tile through shared memory. Where the output's rows allow 16-byte
// stores (pointer, pitch and batch stride multiples of 16 bytes), the tile is a TransposeTile: loaded
// in 16-byte chunks where the input allows (element by element otherwise) and stored by
// copy_tile_to_global_transposed in register blocks of 16-byte columns (block/transpose.cuh). Where
// it does not, and for all 8- and 16-byte elements, the tile is tall and padded and both sides move
// element by element, coalesced: a warp's stores then cover consecutive elements of one output row
// rather than every fourth, in runs that start on the row's 32-byte sectors where the rows do not
// (block/copy.cuh, store_elements_sector_runs); bytes take a WordTransposeTile instead: 4 x 4 byte
// blocks whose words each warp realigns. 1- and 2-byte rows that are not 4-byte aligned are loaded
// as realigned words. Bytes and halves whose output rows are not 16-byte aligned take realigned_rows
// where a matrix has a tile's rows (496 bytes, 248 halves): tall tiles whose rows are staged at
// their own 16-byte phase and realigned in registers, every global access an aligned 16-byte chunk
// (kernels/transpose_realigned.cuh).
// Every tile is conflict-free for its accesses (checked at compile time).
// Narrow and small shapes take the record algorithms instead (select_transpose_algorithm,
// tuning/transpose_selection.cuh): N x k with k <= 32 (narrow_rows), k x N (narrow_cols) and matrices
// of up to 64 x 64 (small_batch, several whole matrices per block): a block moves runs of whole
// records through a RecordTile (block/interleave.cuh), the contiguous side in 16-byte accesses.
//
// This file is the entry (API, argument checks); dispatch/transpose_dispatch.cuh picks the policy
// and launches; kernels/transpose_kernel.cuh is the kernel; tuning/transpose_policy.cuh holds the
// tile shapes and blocks per multiprocessor, tuning/transpose_selection.cuh the selector.
#pragma once

#include <cuda_runtime.h>

#include <climits>      // INT_MAX
#include <string>
#include <type_traits>  // std::is_trivially_copyable

#include "dispatch/transpose_dispatch.cuh"  // dispatch_transpose, launch_transpose
#include "launch.cuh"                      // LaunchStatus
#include "tuning/transpose_policy.cuh"     // the policies
#include "tuning/transpose_selection.cuh"  // select_transpose_algorithm

namespace smemtile {

/// The shape of one device_transpose call: in is rows x cols (ld_in apart), out is cols x rows
/// (ld_out apart), batch matrices stride_in / stride_out elements apart.
struct TransposeShape {
  long long rows;        ///< rows of each input matrix
  long long cols;        ///< columns of each input matrix
  long long ld_in;       ///< elements from one input row to the next (>= cols)
  long long ld_out;      ///< elements from one output row to the next (>= rows)
  long long batch;       ///< number of matrices
  long long stride_in;   ///< elements from one input matrix to the next
  long long stride_out;  ///< elements from one output matrix to the next
};

/// Elements from the first to one past the last element a matrix of `rows` rows of `cols`, `ld`
/// apart, touches (0 for an empty one).
SMEMTILE_HOST_DEVICE constexpr long long matrix_span(long long rows, long long cols, long long ld) {
  return rows == 0 || cols == 0 ? 0 : (rows - 1) * ld + cols;
}

/// Why device_transpose cannot run on these arguments, or nullptr when it can. `in` and `out` are
/// the addresses (as integers, so that this is testable on the host); element size and alignment
/// in bytes. An empty transpose (rows, cols or batch 0) is valid whatever the pointers are.
SMEMTILE_HOST_DEVICE constexpr const char* transpose_argument_error(unsigned long long in, unsigned long long out,
                                                                    TransposeShape s, int elem_bytes,
                                                                    int elem_alignment) {
  if (s.rows < 0 || s.cols < 0) return "rows and cols must not be negative";
  if (s.batch < 0) return "the batch count must not be negative";
  if (s.rows > INT_MAX || s.cols > INT_MAX) return "rows and cols must fit in an int";
  if (s.rows == 0 || s.cols == 0 || s.batch == 0) return nullptr;  // nothing to do
  if (in == 0 || out == 0) return "in and out must not be null";
  if (in % elem_alignment != 0 || out % elem_alignment != 0)
    return "in and out must be aligned for the element type";
  if (s.ld_in < s.cols) return "ld_in (the input's pitch, in elements) is smaller than a row (cols)";
  if (s.ld_out < s.rows) return "ld_out (the output's pitch, in elements) is smaller than an output row (rows)";
  if (s.ld_in > INT_MAX || s.ld_out > INT_MAX) return "pitches must fit in an int";
  const long long span_in = matrix_span(s.rows, s.cols, s.ld_in);
  const long long span_out = matrix_span(s.cols, s.rows, s.ld_out);
  // The batch's outputs one after another, or interleaved: matrix b's rows at b * stride_out within
  // each row pitch (a rank-3 permutation [A, B, C] -> [C, B, A] is a batch over B of A x C matrices
  // whose outputs interleave: stride_out A, ld_out B * A).
  const bool interleaved = s.stride_out >= s.rows && (s.batch - 1) * s.stride_out + s.rows <= s.ld_out;
  if (s.batch > 1 && s.stride_out < span_out && !interleaved)
    return "stride_out is smaller than one output matrix and the outputs do not interleave within ld_out: "
           "the batch's outputs would overlap";
  if (s.batch > 1 && s.stride_in < 0) return "stride_in must not be negative";
  const long long last_in = (s.batch - 1) * s.stride_in + span_in;  // elements, from in
  const long long last_out = (s.batch - 1) * s.stride_out + span_out;
  const unsigned long long in_end = in + static_cast<unsigned long long>(last_in) * elem_bytes;
  const unsigned long long out_end = out + static_cast<unsigned long long>(last_out) * elem_bytes;
  if (in < out_end && out < in_end)
    return "in and out overlap: an in-place transpose is not supported (use a separate output)";
  return nullptr;
}

#if defined(__CUDACC__)

namespace detail {
// Why device_transpose refuses these arguments, or nullptr.
template <class T>
const char* transpose_call_error(const T* in, T* out, int rows, int cols, int ld_in, int ld_out, int batch,
                                 long long stride_in, long long stride_out) {
  static_assert(std::is_trivially_copyable<T>::value, "smemtile::device_transpose: T must be trivially copyable");
  static_assert(sizeof(T) == 1 || sizeof(T) == 2 || sizeof(T) == 4 || sizeof(T) == 8 || sizeof(T) == 16,
                "smemtile::device_transpose: elements of 1, 2, 4, 8 or 16 bytes only");
  const TransposeShape shape{rows, cols, ld_in, ld_out, batch, stride_in, stride_out};
  return transpose_argument_error(reinterpret_cast<unsigned long long>(in), reinterpret_cast<unsigned long long>(out),
                                  shape, static_cast<int>(sizeof(T)), static_cast<int>(alignof(T)));
}
}  // namespace detail

/// Transposes `batch` matrices: out_b(c, r) = in_b(r, c), in_b at in + b * stride_in (rows x cols,
/// rows ld_in apart), out_b at out + b * stride_out (cols x rows, rows ld_out apart). Pitches and
/// strides are in elements. The outputs of a batch may follow one another (stride_out at least a
/// matrix) or interleave within each output row (stride_out at least rows, (batch - 1) stride_out +
/// rows at most ld_out). Invalid arguments (null, negative sizes, pitches below a row, in and
/// out overlapping, outputs of a batch overlapping, misaligned pointers) return a status with
/// cudaErrorInvalidValue and a message; empty transposes return success without a launch.
template <class T>
LaunchStatus device_transpose(const T* in, T* out, int rows, int cols, int ld_in, int ld_out, int batch,
                              long long stride_in, long long stride_out, cudaStream_t stream = 0) {
  if (const char* why = detail::transpose_call_error(in, out, rows, cols, ld_in, ld_out, batch, stride_in, stride_out))
    return detail::failed_launch(cudaErrorInvalidValue, std::string("smemtile::device_transpose: ") + why);
  if (rows == 0 || cols == 0 || batch == 0) return LaunchStatus{};

  using Bits = detail::ElementBits<static_cast<int>(sizeof(T)), static_cast<int>(alignof(T))>;
  return detail::dispatch_transpose(reinterpret_cast<const Bits*>(in), reinterpret_cast<Bits*>(out), rows, cols,
                                    ld_in, ld_out, batch, stride_in, stride_out, stream);
}

/// The same with the caller's policy (a TransposePolicy, tuning/transpose_policy.cuh) instead of
/// the selection: `device_transpose(TransposePolicy<...>{}, in, out, rows, cols, ...)`. A
/// register_blocks policy fails with cudaErrorInvalidValue where the output's rows are not 16-byte
/// aligned (pointer, ld_out and stride_out).
template <class Policy, class T, class = std::enable_if_t<IsTransposePolicy<Policy>::value>>
LaunchStatus device_transpose(Policy, const T* in, T* out, int rows, int cols, int ld_in, int ld_out, int batch,
                              long long stride_in, long long stride_out, cudaStream_t stream = 0) {
  if (const char* why = detail::transpose_call_error(in, out, rows, cols, ld_in, ld_out, batch, stride_in, stride_out))
    return detail::failed_launch(cudaErrorInvalidValue, std::string("smemtile::device_transpose: ") + why);
  if (rows == 0 || cols == 0 || batch == 0) return LaunchStatus{};
  if (Policy::algorithm == TransposeAlgorithm::register_blocks &&
      !detail::rows_16_byte_aligned(out, ld_out, stride_out, batch, static_cast<int>(sizeof(T))))
    return detail::failed_launch(cudaErrorInvalidValue,
                                 "smemtile::device_transpose: a register_blocks policy needs the output's rows "
                                 "16-byte aligned (pointer, ld_out and stride_out)");
  using Bits = detail::ElementBits<static_cast<int>(sizeof(T)), static_cast<int>(alignof(T))>;
  return detail::launch_transpose<Policy>(reinterpret_cast<const Bits*>(in), reinterpret_cast<Bits*>(out), rows,
                                          cols, ld_in, ld_out, batch, stride_in, stride_out, stream);
}

/// One dense matrix with the caller's policy.
template <class Policy, class T, class = std::enable_if_t<IsTransposePolicy<Policy>::value>>
LaunchStatus device_transpose(Policy policy, const T* in, T* out, int rows, int cols, cudaStream_t stream = 0) {
  return device_transpose(policy, in, out, rows, cols, cols, rows, 1, 0, 0, stream);
}

/// Transposes one dense matrix: out (cols x rows) = in (rows x cols) transposed.
template <class T>
LaunchStatus device_transpose(const T* in, T* out, int rows, int cols, cudaStream_t stream = 0) {
  return device_transpose(in, out, rows, cols, cols, rows, 1, 0, 0, stream);
}

#endif  // __CUDACC__

}  // namespace smemtile
