/// \file
/// device_transpose's selector: which algorithm (tuning/transpose_policy.cuh) a call runs, from its
/// shape, element size, pitches, batch strides and pointers' alignment; constexpr, so that the host
/// tests run it. The measurements behind the thresholds: docs/tuning.md.
#pragma once

#include <climits>                          // INT_MAX

#include "../../config.cuh"                 // SMEMTILE_HOST_DEVICE
#include "../../core/batch_layout.cuh"      // batch_tiles_fit
#include "../../core/record_layout.cuh"     // record_capacity
#include "transpose_policy.cuh"             // TransposeAlgorithm, the tile shapes, narrow_register_records

namespace smemtile {

/// The algorithm device_transpose selects for elements of `elem_bytes` bytes: register blocks where
/// the output's rows take 16-byte stores (pointer, pitch and batch stride multiples of 16 bytes) and
/// the elements are at most 4 bytes; else word blocks for bytes and padded element tiles otherwise
/// (docs/tuning.md, "transpose tiles").
SMEMTILE_HOST_DEVICE constexpr TransposeAlgorithm select_transpose_algorithm(int elem_bytes,
                                                                              bool out_rows_16_byte_aligned) {
  return elem_bytes <= 4 && out_rows_16_byte_aligned ? TransposeAlgorithm::register_blocks
         : elem_bytes == 1                           ? TransposeAlgorithm::word_blocks
                                                     : TransposeAlgorithm::padded_elements;
}

/// What select_transpose_algorithm sees of one device_transpose call: the shape (in is rows x cols,
/// batch matrices), the element size, pitches and batch strides (elements) and the pointers'
/// addresses (as integers, so that the selection runs on the host).
struct TransposeSelectionInput {
  long long rows;                  ///< rows of each input matrix
  long long cols;                  ///< columns of each input matrix
  long long batch;                 ///< matrices
  int elem_bytes;                  ///< bytes per element
  long long ld_in;                 ///< input pitch
  long long ld_out;                ///< output pitch
  long long stride_in;             ///< input batch stride
  long long stride_out;            ///< output batch stride
  unsigned long long in_address;   ///< in, as an integer
  unsigned long long out_address;  ///< out, as an integer
};

/// Whether a small matrix (rows x cols of elem_bytes) fits one block of small_batch.
SMEMTILE_HOST_DEVICE constexpr bool small_matrix_fits(long long rows, long long cols, int elem_bytes) {
  return rows <= transpose_small_max && cols <= transpose_small_max &&
         record_capacity(transpose_record_tile_bytes / elem_bytes, static_cast<int>(cols), elem_bytes, false) >= rows;
}

/// Whether one side's rows all start on a boundary of `bytes`: the pointer, the pitch and, for a
/// batch, the stride (elements of elem_bytes).
SMEMTILE_HOST_DEVICE constexpr bool rows_aligned_to(int bytes, unsigned long long address, long long ld, long long stride,
                                                    long long batch, int elem_bytes) {
  return address % static_cast<unsigned long long>(bytes) == 0 && (ld * elem_bytes) % bytes == 0 &&
         (batch <= 1 || (stride * elem_bytes) % bytes == 0);
}

/// Whether one side's rows all start on a 16-byte boundary (rows_aligned_to).
SMEMTILE_HOST_DEVICE constexpr bool rows_16_byte_aligned(unsigned long long address, long long ld, long long stride,
                                                         long long batch, int elem_bytes) {
  return rows_aligned_to(16, address, ld, stride, batch, elem_bytes);
}

/// Whether the channel rows of a narrow call (`split`: the output's, else the input's) all start on
/// a boundary of `bytes`.
SMEMTILE_HOST_DEVICE constexpr bool channel_rows_aligned_to(const TransposeSelectionInput& in, bool split, int bytes) {
  return split ? rows_aligned_to(bytes, in.out_address, in.ld_out, in.stride_out, in.batch, in.elem_bytes)
               : rows_aligned_to(bytes, in.in_address, in.ld_in, in.stride_in, in.batch, in.elem_bytes);
}

/// The records' side of a narrow call (`split`: in is N x K, records in; else in is K x N, records
/// out) as the narrow register and rotated algorithms need it: one contiguous run per matrix (pitch
/// K) whose pointer and batch stride are 16-byte aligned, so that a block's records are whole 16-byte
/// chunks, and N from `records_per_block` (one full block) to INT_MAX - 16 (the kernels look a
/// segment past a block in int arithmetic).
SMEMTILE_HOST_DEVICE constexpr bool narrow_records_whole_chunks(const TransposeSelectionInput& in, bool split,
                                                                long long records_per_block) {
  const long long k = split ? in.cols : in.rows, n = split ? in.rows : in.cols;
  const long long ld_flat = split ? in.ld_in : in.ld_out;
  const long long stride_flat = split ? in.stride_in : in.stride_out;
  const unsigned long long flat = split ? in.in_address : in.out_address;
  return ld_flat == k && flat % 16 == 0 && (in.batch <= 1 || (stride_flat * in.elem_bytes) % 16 == 0) &&
         n >= records_per_block && n <= INT_MAX - 16;
}

/// Whether a call can take a narrow register algorithm (`split`: narrow_rows_registers, in is N x
/// K; else narrow_cols_registers, in is K x N): elements of at most 8 bytes, K a narrow register
/// extent (narrow_register_extent), the records one contiguous run per matrix (their pitch is K)
/// with their pointer and batch stride 16-byte aligned, and N at least `records_per_block` (one full
/// block; a run's last, shorter block moves element by element) and at most INT_MAX - 16 (the
/// kernels look a segment past a block in int arithmetic). Up to transpose_register_narrow_max the
/// channel rows may start anywhere (aligned ones move in 16-byte accesses directly, others through
/// aligned windows); channel groups (larger K, whole chunks) write rows off 16 bytes in aligned
/// windows shifted across lanes, and read them element by element, which merging takes for 4- and
/// 8-byte elements only (1- and 2-byte ones take narrow_cols); channel words (narrow_register_word_bytes)
/// take channel rows at any phase of their word (aligned words funnel-shifted across lanes).
SMEMTILE_HOST_DEVICE constexpr bool narrow_registers_apply(const TransposeSelectionInput& in, bool split,
                                                           long long records_per_block) {
  const long long k = split ? in.cols : in.rows;
  if (k > transpose_register_group_max || !narrow_register_extent(in.elem_bytes, static_cast<int>(k))) return false;
  const int word = narrow_register_word_bytes(in.elem_bytes, static_cast<int>(k), split);
  const bool channels_ok = k <= transpose_register_narrow_max || word != 0 ||
                           channel_rows_aligned_to(in, split, 16) || split || in.elem_bytes >= 4;
  return channels_ok && narrow_records_whole_chunks(in, split, records_per_block);
}

/// Whether a call can take a rotated algorithm (`split`: narrow_rows_rotated, in is N x K; else
/// narrow_cols_rotated, in is K x N): K a narrow_rotated_extent, the records one contiguous run per
/// matrix (pitch K) with their pointer and batch stride 16-byte aligned, N at least
/// `records_per_block` (one full block; a run's last, shorter block moves element by element) and at
/// most INT_MAX - 16, and the channel rows 16-byte aligned where merging 1- or 2-byte elements (rows
/// off 16 bytes are written in aligned windows, and read in aligned windows or element by element,
/// which for smaller elements would be 8 or 16 loads a chunk).
SMEMTILE_HOST_DEVICE constexpr bool narrow_rotated_apply(const TransposeSelectionInput& in, bool split,
                                                         long long records_per_block) {
  const long long k = split ? in.cols : in.rows;
  const bool channels_ok = split || in.elem_bytes >= 4 || channel_rows_aligned_to(in, split, 16);
  return k <= transpose_rotated_max && narrow_rotated_extent(in.elem_bytes, static_cast<int>(k)) && channels_ok &&
         narrow_records_whole_chunks(in, split, records_per_block);
}

/// Whether device_transpose's selection takes a rotated algorithm that narrow_rotated_apply allows
/// (`split` as there): channel rows 16-byte aligned, or off 16 bytes where that was measured faster
/// than the record algorithms (docs/tuning.md, "Rotated records"): splitting every element size but
/// floats from K = 29 (a window's stage reads of K words at 64 threads a block), merging every size
/// narrow_rotated_apply allows (4- and 8-byte elements, in aligned windows).
SMEMTILE_HOST_DEVICE constexpr bool narrow_rotated_selected(const TransposeSelectionInput& in, bool split) {
  const long long k = split ? in.cols : in.rows;
  if (!narrow_rotated_apply(in, split, narrow_rotated_records(k, in.elem_bytes))) return false;
  if (channel_rows_aligned_to(in, split, 16)) return true;
  return !split || in.elem_bytes != 4 || k <= 27;
}

/// Whether a call of small matrices can take small_batch_registers with a stage of `stage_bytes`:
/// rows and cols multiples of the register tile's side (batch_tiles_fit: 8 for 1- and 2-byte
/// elements, 4 for 4-byte, 2 for 8-byte ones), a matrix fitting the stage, and the batch one flat
/// run on each side (pitches the rows, strides a matrix) from 16-byte aligned pointers, so that
/// every global access is a whole 16-byte chunk.
SMEMTILE_HOST_DEVICE constexpr bool small_batch_registers_apply(const TransposeSelectionInput& in, int stage_bytes) {
  const long long matrix = in.rows * in.cols;
  return batch_tiles_fit(in.rows, in.cols, in.elem_bytes) && matrix * in.elem_bytes <= stage_bytes &&
         in.ld_in == in.cols && in.ld_out == in.rows &&
         (in.batch <= 1 || (in.stride_in == matrix && in.stride_out == matrix)) && in.in_address % 16 == 0 &&
         in.out_address % 16 == 0;
}

/// Whether a call of small matrices can take small_batch_staged with a stage of `stage_bytes`: a
/// matrix fitting the stage, the batch one flat run on each side (pitches the rows, strides a
/// matrix), and the output aligned to the element's size (its pieces hold whole elements). Any
/// shape, any input alignment.
SMEMTILE_HOST_DEVICE constexpr bool small_batch_staged_apply(const TransposeSelectionInput& in, int stage_bytes) {
  const long long matrix = in.rows * in.cols;
  return matrix >= 1 && matrix * in.elem_bytes <= stage_bytes && in.ld_in == in.cols && in.ld_out == in.rows &&
         (in.batch <= 1 || (in.stride_in == matrix && in.stride_out == matrix)) &&
         in.out_address % static_cast<unsigned long long>(in.elem_bytes) == 0;
}

/// Where small_batch_staged measured slower than what the call took before it: 8-byte elements in
/// rows of a multiple of 32 (every lane of the gather on one bank group; H200, one run, 2^16 x 32x32
/// doubles off 16 bytes: 71.7% of cudaMemcpy against small_batch's 77.1%; 64 x 64: 71.5% against
/// the padded tiles' 84.3% in an earlier run).
SMEMTILE_HOST_DEVICE constexpr bool small_batch_staged_slower(const TransposeSelectionInput& in) {
  return in.elem_bytes == 8 && in.cols % 32 == 0;
}

/// Whether realigned_rows can serve a call: 1- and 2-byte elements (4-byte ones won and lost against
/// the padded tiles by shape: H200 8191 x 8193 90.9 against 87.9%, 65536 x 1023 74.7 against 82.0%; a
/// caller's policy can take it) and at least one tile's rows (the tiles are 496 / elem_bytes rows
/// tall; shorter matrices would stage mostly nothing).
SMEMTILE_HOST_DEVICE constexpr bool realigned_rows_apply(long long rows, int elem_bytes) {
  return elem_bytes <= 2 && rows >= 31 * 16 / elem_bytes;
}

/// Whether a call takes realigned_rows where realigned_rows_apply: where the output's rows are not
/// 16-byte aligned (the register blocks need them), or where the register blocks' tiles (128 x 128
/// bytes, 128 x 64 halves) do not divide the matrix: their output rows then start and end inside 32-byte
/// sectors shared with the next tile's, and their edge tiles move element by element. The input's
/// alignment does not change the choice. H100 bytes 10000^2: 70.4 -> 92.9% of cudaMemcpy, 8192^2
/// 95.3 against 90.9 (docs/tuning.md, "realigned rows", both GPUs).
SMEMTILE_HOST_DEVICE constexpr bool realigned_rows_selected(const TransposeSelectionInput& in, bool out_aligned) {
  const int tile_rows = in.elem_bytes == 1 ? TransposeTileShape<1>::rows : TransposeTileShape<2>::rows;
  const int tile_cols = in.elem_bytes == 1 ? TransposeTileShape<1>::cols : TransposeTileShape<2>::cols;
  return realigned_rows_apply(in.rows, in.elem_bytes) &&
         (!out_aligned || in.rows % tile_rows != 0 || in.cols % tile_cols != 0);
}

/// The algorithm device_transpose runs for a call: for small matrices (rows and cols up to
/// transpose_small_max) small_batch_registers where small_batch_registers_apply (a stage of
/// transpose_record_tile_bytes: 64 x 64 doubles too), else small_batch_staged where
/// small_batch_staged_apply (a dense batch) and not small_batch_staged_slower, else small_batch where a matrix fits its record
/// tile (small_matrix_fits); else narrow_rows_registers / narrow_cols_registers where
/// narrow_registers_apply (K up to 8, or channel groups up to 32); else narrow_rows_rotated /
/// narrow_cols_rotated where narrow_rotated_selected (odd K of 1- to 8-byte elements); else narrow_rows where
/// cols is at most transpose_narrow_max
/// (N x k -> k x N), narrow_cols where rows is (k x N -> N x k); else realigned_rows where
/// realigned_rows_selected (output rows not 16-byte aligned, or sizes the register tiles do not divide);
/// else the large-tile selection above (by the element size and that alignment). The record algorithms take any pitch and any (element-aligned) pointer: pitches,
/// strides and alignment decide within them, per block, whether accesses are 16 bytes wide.
SMEMTILE_HOST_DEVICE constexpr TransposeAlgorithm select_transpose_algorithm(const TransposeSelectionInput& in) {
  if (in.rows <= transpose_small_max && in.cols <= transpose_small_max &&
      small_batch_registers_apply(in, transpose_record_tile_bytes))
    return TransposeAlgorithm::small_batch_registers;
  if (in.rows <= transpose_small_max && in.cols <= transpose_small_max &&
      small_batch_staged_apply(in, transpose_record_tile_bytes) && !small_batch_staged_slower(in))
    return TransposeAlgorithm::small_batch_staged;
  if (small_matrix_fits(in.rows, in.cols, in.elem_bytes)) return TransposeAlgorithm::small_batch;
  if (in.elem_bytes <= 8 && in.cols <= transpose_register_group_max &&
      narrow_registers_apply(in, true, narrow_register_records(in.elem_bytes, static_cast<int>(in.cols), true)))
    return TransposeAlgorithm::narrow_rows_registers;
  if (in.elem_bytes <= 8 && in.rows <= transpose_register_group_max &&
      narrow_registers_apply(in, false, narrow_register_records(in.elem_bytes, static_cast<int>(in.rows), false)))
    return TransposeAlgorithm::narrow_cols_registers;
  if (narrow_rotated_selected(in, true)) return TransposeAlgorithm::narrow_rows_rotated;
  if (narrow_rotated_selected(in, false)) return TransposeAlgorithm::narrow_cols_rotated;
  if (in.cols <= transpose_narrow_max) return TransposeAlgorithm::narrow_rows;
  if (in.rows <= transpose_narrow_max) return TransposeAlgorithm::narrow_cols;
  const bool out_aligned = rows_16_byte_aligned(in.out_address, in.ld_out, in.stride_out, in.batch, in.elem_bytes);
  if (realigned_rows_selected(in, out_aligned)) return TransposeAlgorithm::realigned_rows;
  return select_transpose_algorithm(in.elem_bytes, out_aligned);
}

}  // namespace smemtile
