/// \file
/// device_transpose's tuning: the algorithms (TransposeAlgorithm), their tile shapes, the policy
/// type (tile, threads, blocks per multiprocessor, L2 fetch size) and each algorithm's default
/// policy; the selector is tuning/transpose_selection.cuh.
//
// device_transpose(in, out, ...) runs the policy select_transpose_algorithm and
// DefaultTransposePolicy give for the call;
// device_transpose(policy, in, out, ...) runs the caller's. The measurements behind the numbers:
// docs/tuning.md.
#pragma once

#include <type_traits>  // std::false_type

#include "../../config.cuh"                 // SMEMTILE_HOST_DEVICE
#include "../../core/realigned_layout.cuh"  // RealignedRowsShape
#include "../../core/record_layout.cuh"     // record_pitch, record_capacity

namespace smemtile {

/// How device_transpose moves a tile through shared memory.
enum class TransposeAlgorithm {
  register_blocks,  ///< TransposeTile: 16-byte columns stored as register blocks (1-, 2-, 4-byte elements; output rows 16-byte aligned)
  word_blocks,      ///< WordTransposeTile: 4 x 4 byte blocks realigned across lanes (1- and 2-byte elements)
  padded_elements,  ///< a padded StaticTile: both sides element by element, coalesced (any element size)
  narrow_rows,      ///< N x k -> k x N (k = cols small): runs of whole records de-interleaved (block/interleave.cuh)
  narrow_cols,      ///< k x N -> N x k (k = rows small): k channel runs interleaved into records
  small_batch,      ///< several whole small matrices per block, flat 16-byte streams where the batch is contiguous
  narrow_rows_registers,  ///< N x K -> K x N, K a compile-time Cols (narrow_register_extent): records split in registers
  narrow_cols_registers,  ///< K x N -> N x K, K a compile-time Rows: channels merged into records in registers
  small_batch_registers,  ///< several whole small matrices per block, staged whole, transposed in T x T register tiles
  small_batch_staged,     ///< several whole small matrices of any shape per block, staged flat, output pieces gathered
  realigned_rows,         ///< tall tiles of rows at any 16-byte phase (1- and 2-byte elements): aligned 16-byte accesses on both sides, realigned in registers
  narrow_cols_rotated,    ///< K x N -> N x K, K an odd compile-time Rows (narrow_rotated_extent): channel chunks scattered into the records' stage in rotated order
  narrow_rows_rotated     ///< N x K -> K x N, K an odd compile-time Cols: the records staged flat, channel chunks gathered in rotated order
};

/// The narrow side's largest extent: a matrix with cols (rows) up to this takes narrow_rows
/// (narrow_cols) where it is not a small matrix. 32: the 64 x 64-class tiles waste half or more of
/// what they move below it (not yet measured where the break-even is; docs/tuning.md).
inline constexpr int transpose_narrow_max = 32;
/// A small matrix: rows and cols both up to this (and the matrix fits a block's record tile) takes
/// small_batch.
inline constexpr int transpose_small_max = 64;
/// The narrow side's largest extent for the register algorithms (narrow_rows_registers,
/// narrow_cols_registers) with any K: one kernel per extent 1..8 and element size; each thread holds
/// 16 x extent bytes twice in registers.
inline constexpr int transpose_register_narrow_max = 8;
/// The largest extent of the register algorithms' channel groups: above
/// transpose_register_narrow_max, K a multiple of V = 16 / element bytes, a thread regroups V
/// channels at a time (2 V chunks in registers; narrow_register_extent).
inline constexpr int transpose_register_group_max = 32;
/// Shared memory of one block of the record algorithms (narrow_rows, narrow_cols, small_batch).
inline constexpr int transpose_record_tile_bytes = 32 * 1024;

/// Whether an algorithm is one of the record algorithms (a RecordTile of Rows x Cols elements:
/// capacity only, no tile shape).
SMEMTILE_HOST_DEVICE constexpr bool is_record_transpose(TransposeAlgorithm a) {
  return a == TransposeAlgorithm::narrow_rows || a == TransposeAlgorithm::narrow_cols ||
         a == TransposeAlgorithm::small_batch;
}

/// The largest odd extent of the rotated-record algorithms (1- to 8-byte elements: K = 9, 11, .. 31,
/// the narrow side's odd K above the register algorithms'). H200, 2^22 records, % of cudaMemcpy,
/// rotated / the record algorithms: bytes merging 91.2-98.5 / 48-54, splitting 92.7-101.6 / 53-60;
/// halves 95.0-99.3 / 61-65, 92.5-97.9 / 66-69; floats 86.7-97.7 / 63-68, 94.0-97.1 / 76-84;
/// doubles 93.5-98.0 / 73-84, 90.1-95.5 / 80-86 (docs/tuning.md, "Rotated records").
inline constexpr int transpose_rotated_max = 31;

/// Whether the rotated-record algorithms take records of k elements of elem_bytes: 1- to 8-byte
/// elements (1- and 2-byte ones packed 4 / elem_bytes records to k words, rotated_records_per_unit),
/// odd k above transpose_register_narrow_max up to transpose_rotated_max (rotated_record_word's bank
/// proof needs k odd; even k take channel groups or words where they apply, else the records).
SMEMTILE_HOST_DEVICE constexpr bool narrow_rotated_extent(int elem_bytes, int k) {
  return (elem_bytes == 1 || elem_bytes == 2 || elem_bytes == 4 || elem_bytes == 8) && k % 2 == 1 &&
         k > transpose_register_narrow_max &&
         k <= transpose_rotated_max;
}

/// Whether narrow_rows_rotated stores channel rows off 16 bytes in aligned windows gathered from the
/// stage at the row's shift (4- and 8-byte elements aligned to their size), rather than shifting
/// aligned chunks across lanes. H200, N = 2^22 + 1, % of cudaMemcpy, windows / shifted: floats
/// K = 21 83.4 / 87.2, 25 76.6 / 80.7, 27 78.6 / 74.5; doubles K = 25 89.3 / 79.6, 31 87.4 / 84.3;
/// within 2 points elsewhere (docs/tuning.md, "Rotated records").
SMEMTILE_HOST_DEVICE constexpr bool rotated_split_windows(int k, int elem_bytes) {
  return !(elem_bytes == 4 && k > 15 && k <= 25);
}

/// Whether an algorithm is one of the rotated-record algorithms (narrow_rows_rotated,
/// narrow_cols_rotated).
SMEMTILE_HOST_DEVICE constexpr bool is_rotated_transpose(TransposeAlgorithm a) {
  return a == TransposeAlgorithm::narrow_rows_rotated || a == TransposeAlgorithm::narrow_cols_rotated;
}

/// Whether an algorithm is one of the narrow register algorithms (Rows x Cols: records per block x
/// the record's extent, or the extent x records).
SMEMTILE_HOST_DEVICE constexpr bool is_narrow_register_transpose(TransposeAlgorithm a) {
  return a == TransposeAlgorithm::narrow_rows_registers || a == TransposeAlgorithm::narrow_cols_registers;
}

/// The register-block tile (TransposeTile) device_transpose uses for 1-, 2- and 4-byte elements
/// where the output's rows take 16-byte stores (256 threads per block). 8- and 16-byte elements
/// use TransposeElementTileShape's padded tiles (docs/tuning.md, "transpose tiles").
template <int ElemBytes>
struct TransposeTileShape;
/// 1-byte elements: 128 x 128 (16 x 4 byte blocks, one per thread).
template <> struct TransposeTileShape<1> {
  static constexpr int rows = 128;  ///< tile rows
  static constexpr int cols = 128;  ///< tile columns
};
/// 2-byte elements: 128 x 64 (8 x 2 blocks of halves, two per thread).
template <> struct TransposeTileShape<2> {
  static constexpr int rows = 128;  ///< tile rows
  static constexpr int cols = 64;   ///< tile columns
};
/// 4-byte elements: 64 x 64 (one 4 x 4 block per thread).
template <> struct TransposeTileShape<4> {
  static constexpr int rows = 64;  ///< tile rows
  static constexpr int cols = 64;  ///< tile columns
};
/// The tile (WordTransposeTile) device_transpose uses for 1-byte elements where the output's rows
/// cannot take 16-byte stores (odd pitches, say): 32 blocks of 4 rows, one per lane, by 128
/// columns; loaded in realigned 4-byte words, stored in 4 x 4 byte blocks realigned across lanes
/// (block/transpose.cuh), a quarter of the accesses of moving bytes one by one.
template <int ElemBytes>
struct TransposeWordTileShape {
  static_assert(ElemBytes == 1 || ElemBytes == 2, "smemtile::TransposeWordTileShape: elements of 1 or 2 bytes");
  static constexpr int rows = 128 / ElemBytes;  ///< tile rows
  static constexpr int cols = 128;              ///< tile columns
};

/// The padded tile device_transpose uses for 8- and 16-byte elements, and for 2- and 4-byte
/// elements where the output's rows cannot take 16-byte stores (odd pitches, say): rows x cols
/// elements of ElemBytes bytes plus `pad` unused elements after each row, so that a warp walking a
/// row or a column touches every bank once. Tall tiles: each output row gets `rows` consecutive
/// elements from one block (128 to 1024 bytes), so fewer of its 32-byte sectors are written partly
/// by two blocks (docs/tuning.md, "transpose tiles").
template <int ElemBytes>
struct TransposeElementTileShape {
  static_assert(ElemBytes == 1 || ElemBytes == 2 || ElemBytes == 4 || ElemBytes == 8 || ElemBytes == 16,
                "smemtile::TransposeElementTileShape: elements of 1, 2, 4, 8 or 16 bytes");
  static constexpr int rows = ElemBytes == 16 ? 64 : 128;                             ///< tile rows
  static constexpr int cols = ElemBytes == 1 ? 128 : ElemBytes == 2 ? 64 : 32;        ///< tile columns
  /// Padding after each row: one 4-byte word for 1- and 2-byte elements, one element otherwise.
  static constexpr int pad = ElemBytes >= 4 ? 1 : 4 / ElemBytes;
};

/// A transpose policy: Algorithm over tiles of Rows x Cols elements (Pad elements after each row
/// of a padded tile), Threads threads per block, MinBlocks blocks per multiprocessor asked of the
/// register allocator (__launch_bounds__); Fetch256: loads ask L2 for 256 bytes and two tile columns
/// go down together, the other half of each fetch being the next column's (realigned_rows: its
/// stage's cp.async ask L2 for 256 bytes, the tiles still going down one column at a time).
template <TransposeAlgorithm Algorithm, int Rows, int Cols, int Pad, int MinBlocks, bool Fetch256, int Threads = 256>
struct TransposePolicy {
  static constexpr TransposeAlgorithm algorithm = Algorithm;  ///< the algorithm
  static constexpr int rows = Rows;                           ///< tile rows
  static constexpr int cols = Cols;                           ///< tile columns
  static constexpr int pad = Pad;                             ///< padding after each row (padded tiles)
  static constexpr int min_blocks = MinBlocks;                ///< __launch_bounds__ blocks per multiprocessor
  static constexpr bool fetch_256 = Fetch256;                 ///< 256-byte L2 fetches, two tile columns together
  static constexpr int columns_together =
      Fetch256 && Algorithm != TransposeAlgorithm::realigned_rows ? 2 : 1;  ///< tile columns going down side by side
  static constexpr int threads = Threads;                     ///< threads per block
  static_assert(Rows > 0 && Cols > 0, "TransposePolicy: tiles of at least one row and column");
  static_assert(Algorithm == TransposeAlgorithm::realigned_rows        ? Threads == 4 * Cols
                : Algorithm == TransposeAlgorithm::narrow_cols_rotated ? Cols % Threads == 0 && Threads % 32 == 0
                : Algorithm == TransposeAlgorithm::narrow_rows_rotated ? Rows % Threads == 0 && Threads % 32 == 0
                                                                       : Threads == 256,
                "TransposePolicy: the transpose kernels are written for 256 threads (FixedThreadBlock<256>); "
                "change them with this value (realigned_rows: 4 x Cols threads, a warp per 8 columns; "
                "the rotated algorithms: whole warps, records (Cols of narrow_cols_rotated, Rows of narrow_rows_rotated) a "
                "multiple of Threads)");
  static_assert(MinBlocks >= 1, "TransposePolicy: at least one block per multiprocessor");
  static_assert(Algorithm == TransposeAlgorithm::padded_elements || Pad == 0,
                "TransposePolicy: only padded_elements tiles take a Pad (the others are swizzled)");
};

/// Whether P is a TransposePolicy.
template <class P>
struct IsTransposePolicy : std::false_type {};
/// A TransposePolicy is one.
template <TransposeAlgorithm A, int R, int C, int P, int M, bool F, int T>
struct IsTransposePolicy<TransposePolicy<A, R, C, P, M, F, T>> : std::true_type {};

namespace detail {
// A realigned_rows policy's tile (RealignedRowsShape), instantiated so that its invariants (a row's
// chunks within one warp's lanes, rows per pass) stop compilation at the policy check.
template <bool Realigned, int ElemBytes, int Warps>
struct RealignedShapeCheck {
  static constexpr bool ok = true;
};
template <int ElemBytes, int Warps>
struct RealignedShapeCheck<true, ElemBytes, Warps> {
  static constexpr bool ok = RealignedRowsShape<ElemBytes, Warps>::threads > 0;
};
}  // namespace detail

/// The invariants a transpose policy must satisfy for elements of ElemBytes bytes.
template <class Policy, int ElemBytes>
struct TransposePolicyCheck {
  static_assert(IsTransposePolicy<Policy>::value, "smemtile::device_transpose: the policy must be a TransposePolicy");
  static_assert(Policy::algorithm != TransposeAlgorithm::register_blocks || ElemBytes <= 4,
                "transpose policy: register_blocks moves 1-, 2- and 4-byte elements; use padded_elements");
  static_assert(Policy::algorithm != TransposeAlgorithm::word_blocks || ElemBytes <= 2,
                "transpose policy: word_blocks moves 1- and 2-byte elements; use padded_elements");
  static_assert(!Policy::fetch_256 || Policy::algorithm == TransposeAlgorithm::realigned_rows ||
                    Policy::cols * ElemBytes <= 128,
                "transpose policy: Fetch256 pays only where a tile row is at most 128 bytes (the other half of "
                "the 256-byte fetch is the next tile column's)");
  static_assert(!is_record_transpose(Policy::algorithm) || Policy::rows * Policy::cols * ElemBytes <= 48 * 1024,
                "transpose policy: a record algorithm's tile (Rows x Cols elements) must fit 48 KB of static shared "
                "memory; lower Rows");
  static_assert(!is_record_transpose(Policy::algorithm) ||
                    record_capacity(Policy::rows * Policy::cols, transpose_narrow_max, ElemBytes) >= 16,
                "transpose policy: a record algorithm's tile (Rows x Cols elements) must hold at least 16 records "
                "of transpose_narrow_max elements; raise Rows");
  static_assert(!is_record_transpose(Policy::algorithm) || (Policy::pad == 0 && !Policy::fetch_256),
                "transpose policy: record algorithms take no Pad and no Fetch256");
  static_assert(!is_record_transpose(Policy::algorithm) || Policy::threads % 32 == 0,
                "transpose policy: record algorithms need whole warps");
  static_assert(!is_narrow_register_transpose(Policy::algorithm) || (Policy::pad == 0 && !Policy::fetch_256),
                "transpose policy: narrow register algorithms take no Pad and no Fetch256");
  static_assert(!is_narrow_register_transpose(Policy::algorithm) || ElemBytes <= 8,
                "transpose policy: narrow register algorithms move 1- to 8-byte elements (use narrow_rows / "
                "narrow_cols for 16-byte ones)");
  static_assert(Policy::algorithm != TransposeAlgorithm::small_batch_registers ||
                    (ElemBytes <= 8 && Policy::pad == 0 && !Policy::fetch_256),
                "transpose policy: small_batch_registers moves 1- to 8-byte elements (use small_batch for 16-byte "
                "ones) and takes no Pad and no Fetch256");
  static_assert(Policy::algorithm != TransposeAlgorithm::small_batch_registers ||
                    (Policy::rows * Policy::cols * ElemBytes % 128 == 0 &&
                     Policy::rows * Policy::cols * ElemBytes <= 48 * 1024),
                "transpose policy: small_batch_registers stages Rows x Cols elements: whole 128-byte groups (the "
                "stage's swizzle), at most 48 KB of static shared memory");
  static_assert(Policy::algorithm != TransposeAlgorithm::small_batch_staged ||
                    (Policy::pad == 0 && !Policy::fetch_256 && Policy::rows * Policy::cols * ElemBytes <= 48 * 1024 - 16),
                "transpose policy: small_batch_staged stages Rows x Cols elements and the run's 16-byte phase in at "
                "most 48 KB of static shared memory, and takes no Pad and no Fetch256");
  static_assert(Policy::algorithm != TransposeAlgorithm::realigned_rows ||
                    (ElemBytes <= 4 && Policy::rows == 512 / ElemBytes && Policy::cols % 8 == 0 && Policy::pad == 0),
                "transpose policy: realigned_rows moves 1-, 2- and 4-byte elements in tiles of 512 / ElemBytes rows "
                "(32 lanes of 16 output bytes) and a multiple of 8 columns (8 per warp), no Pad");
  static_assert(!is_rotated_transpose(Policy::algorithm) ||
                    (narrow_rotated_extent(ElemBytes, Policy::algorithm == TransposeAlgorithm::narrow_cols_rotated
                                                          ? Policy::rows
                                                          : Policy::cols) &&
                     Policy::pad == 0 && !Policy::fetch_256 && Policy::rows * Policy::cols * ElemBytes <= 48 * 1024),
                "transpose policy: the rotated algorithms move 1- to 8-byte elements, the narrow extent (Rows of "
                "narrow_cols_rotated, Cols of narrow_rows_rotated) an odd K of 9..transpose_rotated_max "
                "(narrow_rotated_extent), the stage (Rows x Cols elements) within 48 KB of static shared memory, no "
                "Pad and no Fetch256");
  static_assert(!is_rotated_transpose(Policy::algorithm) || ElemBytes > 16 ||
                    (Policy::algorithm == TransposeAlgorithm::narrow_cols_rotated ? Policy::cols : Policy::rows) ==
                        Policy::threads * (16 / ElemBytes),
                "transpose policy: the rotated algorithms take 16 / element bytes records a thread (records = "
                "Threads x 16 / element bytes)");
  static_assert(detail::RealignedShapeCheck<Policy::algorithm == TransposeAlgorithm::realigned_rows &&
                                                (ElemBytes == 1 || ElemBytes == 2 || ElemBytes == 4) &&
                                                Policy::cols % 8 == 0 && Policy::cols >= 8,
                                            ElemBytes, Policy::cols / 8>::ok,
                "");
  static constexpr bool ok = true;  ///< instantiating the check passed
};

/// The channel pieces (bytes) of the narrow register algorithms' channel words for records of k
/// elements of elem_bytes (`split`: narrow_rows_registers, else narrow_cols_registers), or 0 where
/// they do not apply: k above transpose_register_narrow_max whose record is not whole 16-byte chunks
/// (no channel groups), elements of at most 4 bytes, and a word of W = 4 or 8 bytes such that W /
/// elem_bytes records are whole chunks (k W a multiple of 16) of at most 12 chunks (256 threads'
/// worth staged in 48 KB). W = 4 where it serves, but merging the 5-chunk k = 20 of bytes and
/// halves takes 8 (H200, 20 x 4194304 / 20 x 4194301, % of cudaMemcpy, W = 4 -> 8: bytes 83.9 ->
/// 93.3 / 76.3 -> 87.4, halves 85.6 -> 95.7 / 81.1 -> 92.3; splitting them with 8 lost up to 7
/// points). A thread then takes W / elem_bytes records and a W-byte piece of each channel
/// (docs/tuning.md, "Channel words").
SMEMTILE_HOST_DEVICE constexpr int narrow_register_word_bytes(int elem_bytes, int k, bool split) {
  if (k <= transpose_register_narrow_max || k > transpose_register_group_max || elem_bytes > 4 ||
      (k * elem_bytes) % 16 == 0)
    return 0;
  if (elem_bytes < 4 && (k * 4) % 16 == 0 && (split || k * 4 / 16 != 5)) return 4;
  return (k * 8) % 16 == 0 && k * 8 / 16 <= 12 ? 8 : 0;
}

/// Whether the narrow register algorithms take records of k elements of elem_bytes (1 to 8): any k
/// up to transpose_register_narrow_max, above it up to transpose_register_group_max where the record
/// is whole 16-byte chunks (k a multiple of 16 / elem_bytes: channel groups) or channel words apply
/// (narrow_register_word_bytes).
SMEMTILE_HOST_DEVICE constexpr bool narrow_register_extent(int elem_bytes, int k) {
  return elem_bytes >= 1 && elem_bytes <= 8 && 16 % elem_bytes == 0 && k >= 1 &&
         (k <= transpose_register_narrow_max || (k <= transpose_register_group_max && (k * elem_bytes) % 16 == 0) ||
          narrow_register_word_bytes(elem_bytes, k, true) != 0);
}

/// Records per block of the default narrow register policies for K-element records of
/// elem_bytes: 256 threads x 16 bytes' worth each, four times over for K = 1, twice for K = 2 (16
/// to 32 KB staged); channel groups (K > 8) 128 segments of 16 / elem_bytes records up to K = 24, 64
/// above (at most 48 KB staged; H200, 2^22 records, the prototype of these shapes at 92-98% of
/// cudaMemcpy against the record algorithms' 52-82%, docs/tuning.md); channel words one word's
/// records per thread.
SMEMTILE_HOST_DEVICE constexpr int narrow_register_records(int elem_bytes, int k, bool split) {
  const int word = narrow_register_word_bytes(elem_bytes, k, split);
  if (word != 0) return 256 * (word / elem_bytes);
  if (k > transpose_register_narrow_max) return (k <= 24 ? 128 : 64) * (16 / elem_bytes);
  return 256 * (16 / elem_bytes) * (k <= 2 ? 4 / k : 1);
}

/// Whether narrow_cols_registers takes the second window of an unaligned channel chunk from the
/// next lane (shuffles) rather than loading it again: halves the windows' L2 reads, at about 14
/// more registers, which costs k <= 6 a block per multiprocessor. H200, k x (2^24 - 3), % of
/// cudaMemcpy, loads / shuffles, one run: k = 8 bytes 89.7 / 97.2, floats 86.7 / 95.9; k = 7 floats
/// 89.7 / 95.4; k = 6 bytes 100.7 / 88.5, floats 92.9 / 88.3 (docs/tuning.md, "narrow register algorithms").
SMEMTILE_HOST_DEVICE constexpr bool narrow_register_shuffled_windows(int k) { return k >= 7; }

/// The warps of the default realigned_rows tile: 16 (tiles of 128 columns, 512 threads) for 1- and
/// 2-byte elements, 8 for 4-byte ones (a 512-byte row would need 33 lanes' chunks). H100 / H200, one
/// run each, % of cudaMemcpy at 8191 x 8193 against 8 warps: bytes 88.4 / 79.7 against 84.9 / 77.3,
/// halves 91.9 / 87.3 against 89.7 / 85.5 (docs/tuning.md, "realigned rows").
SMEMTILE_HOST_DEVICE constexpr int transpose_realigned_warps(int elem_bytes) { return elem_bytes >= 4 ? 8 : 16; }

/// The default policy of an algorithm for elements of ElemBytes bytes: the shapes above; blocks per
/// multiprocessor and the 256-byte fetches as measured (docs/tuning.md, "transpose blocks per
/// multiprocessor").
template <int ElemBytes, TransposeAlgorithm Algorithm>
struct DefaultTransposePolicy;
/// Register blocks: TransposeTileShape; 5 blocks per multiprocessor for bytes, else 4.
template <int ElemBytes>
struct DefaultTransposePolicy<ElemBytes, TransposeAlgorithm::register_blocks> {
  /// the policy
  using type = TransposePolicy<TransposeAlgorithm::register_blocks, TransposeTileShape<ElemBytes>::rows,
                               TransposeTileShape<ElemBytes>::cols, 0, ElemBytes == 1 ? 5 : 4,
                               ElemBytes <= 2 && TransposeTileShape<ElemBytes>::cols * ElemBytes <= 128>;
};
/// Word blocks: TransposeWordTileShape, 4 blocks per multiprocessor.
template <int ElemBytes>
struct DefaultTransposePolicy<ElemBytes, TransposeAlgorithm::word_blocks> {
  /// the policy
  using type = TransposePolicy<TransposeAlgorithm::word_blocks, TransposeWordTileShape<ElemBytes>::rows,
                               TransposeWordTileShape<ElemBytes>::cols, 0, 4,
                               ElemBytes <= 2 && TransposeWordTileShape<ElemBytes>::cols * ElemBytes <= 128>;
};
/// Padded element tiles: TransposeElementTileShape; 5 blocks per multiprocessor for 2- and 8-byte
/// elements, 6 for 4-byte ones, else 4.
template <int ElemBytes>
struct DefaultTransposePolicy<ElemBytes, TransposeAlgorithm::padded_elements> {
  using Shape = TransposeElementTileShape<ElemBytes>;  ///< the tile shape
  /// the policy
  using type = TransposePolicy<TransposeAlgorithm::padded_elements, Shape::rows, Shape::cols, Shape::pad,
                               ElemBytes == 2 || ElemBytes == 8 ? 5 : ElemBytes == 4 ? 6 : 4,
                               ElemBytes <= 2 && Shape::cols * ElemBytes <= 128>;
};

/// Whether narrow_rows / narrow_cols stage records of elem_bytes one element per access (staged
/// records: narrow_staged_records a block at an odd pitch, the channel side walked by channel, the
/// record side by a multiply-high) rather than by the record path's 16-byte runs: 4- and 16-byte
/// elements, which it moved faster wherever the record path is selected (H200, % of cudaMemcpy,
/// merging / splitting, record path -> staged; docs/tuning.md, "Staged records"): floats 26 x 2^21
/// 63.6 / 77.8 -> 90.7 / 89.4, 30 x 2^21 66.4 / 82.4 -> 86.4 / 85.4; 16-byte elements 83-88 -> 93-100
/// for every k. Bytes and halves keep the record path (bytes 26 x 2^22 51.8 / 55.9 against staged
/// 39.9-44.4; halves 26 x 2^22 64.2 / 68.7 against 41.0-71.6 by how the channel side was walked).
SMEMTILE_HOST_DEVICE constexpr bool narrow_records_staged(int elem_bytes) { return elem_bytes == 4 || elem_bytes == 16; }

/// The largest record tile of which 8 blocks fit a multiprocessor's 228 KB with their reserved
/// kilobyte each: staged records' tiles up to it ask for 8 blocks (RecordTransposePolicy).
inline constexpr int narrow_staged_tile_bytes_max = 27 * 1024;

/// The record tile narrow_rows / narrow_cols take: transpose_record_tile_bytes, but where they stage
/// records (narrow_records_staged) 22 KB for 16-byte elements (1408 chunks: 128 records of up to 11
/// at an odd pitch) and narrow_staged_tile_bytes_max for floats (256 records of up to 27), so that 8
/// blocks fit.
SMEMTILE_HOST_DEVICE constexpr int narrow_record_tile_bytes(int elem_bytes) {
  return elem_bytes == 16                     ? 22 * 1024
         : narrow_records_staged(elem_bytes) ? narrow_staged_tile_bytes_max
                                             : transpose_record_tile_bytes;
}

/// A record algorithm's policy (narrow_rows, narrow_cols, small_batch) with a RecordTile of TileBytes
/// (rows of 32 elements, as many as TileBytes holds), 256 threads, 4 blocks per multiprocessor asked
/// of the register allocator (not yet measured), more for narrow records where measured: 8 for
/// staged ones whose tiles let 8 fit (narrow_records_staged, narrow_staged_tile_bytes_max): each
/// thread keeps an element or two in flight, so their speed is the resident threads' (16-byte elements at 48
/// registers, 5 blocks: H200, 2^24 chunks of 12 x N -> N x 12, 92.8% of cudaMemcpy against 96.7 at
/// 32 registers); 7 for halves on the record path's 32 KB tiles (32 registers, no spills; 6 blocks
/// fit by shared memory against 4 at their 54-64 registers: H200, merging / splitting, 26 x 2^22
/// 64.4 / 68.6 -> 72.5 / 69.7, 30 x 2^22 63.9 / 68.1 -> 71.8 / 69.5, merging 9 to 32 x (2^22 - 3)
/// 42.4-45.2 -> 49.7-52.0; bytes the same way lost up to 2 points splitting, floats were staged).
template <int ElemBytes, TransposeAlgorithm Algorithm, int TileBytes>
struct RecordTransposePolicy {
  static_assert(is_record_transpose(Algorithm), "smemtile::RecordTransposePolicy: a record algorithm");
  static constexpr bool narrow = Algorithm != TransposeAlgorithm::small_batch;  ///< narrow_rows / narrow_cols
  static constexpr int min_blocks = narrow && narrow_records_staged(ElemBytes) &&
                                            TileBytes <= narrow_staged_tile_bytes_max
                                        ? 8
                                    : narrow && ElemBytes == 2 && TileBytes == transpose_record_tile_bytes
                                        ? 7
                                        : 4;  ///< __launch_bounds__ blocks per multiprocessor
  /// the policy
  using type = TransposePolicy<Algorithm, TileBytes / ElemBytes / 32, 32, 0, min_blocks, false>;
};
/// The record algorithms' default: a record tile of transpose_record_tile_bytes.
template <int ElemBytes, TransposeAlgorithm Algorithm>
struct DefaultRecordTransposePolicy : RecordTransposePolicy<ElemBytes, Algorithm, transpose_record_tile_bytes> {};

/// The pitch (elements) of staged records of k elements (narrow_records_staged): k made odd, so
/// that the channel side's lanes, a pitch apart, meet distinct banks (words for floats, 16-byte
/// groups for 16-byte elements). No skew, unlike record_offset's.
SMEMTILE_HOST_DEVICE constexpr int narrow_staged_pitch(int k) { return k | 1; }

/// The most records one block of narrow_rows / narrow_cols stages (narrow_records_staged).
inline constexpr int narrow_staged_records_max = 512;

/// Records of k elements one block of narrow_rows / narrow_cols stages (narrow_records_staged) from a
/// record tile of `capacity` elements: the largest power of two up to narrow_staged_records_max that
/// the tile holds at narrow_staged_pitch(k), or 0. 16-byte elements on the 22 KB tile: 512 records for
/// k = 1, 256 to k = 5, 128 to 11, 64 to 21, 32 above. Small stages (many blocks resident) win and
/// larger ones lose (H200, 2^24 chunks, merging / splitting, % of cudaMemcpy; docs/tuning.md,
/// "Staged records"): k = 1 at 128 / 256 / 512 / 1024 records 82 / 97 / 99 / 95-97, k = 2 at 128 /
/// 256 / 512 97 / 99 / 96-97, k = 12 at 32 / 64 / 128 93-94 / 97 / 92-93, k = 24 95-97 / 91-92 /
/// 90-91. Floats at k = 26, 128 / 256 / 512 records: 89.1 / 87.1, 91.5 / 86.6, 81.0 / 78.3.
SMEMTILE_HOST_DEVICE constexpr int narrow_staged_records(int capacity, int k) {
  if (k < 1) return 0;
  const int fit = capacity / narrow_staged_pitch(k);
  int records = 1;
  while (records * 2 <= fit && records * 2 <= narrow_staged_records_max) records *= 2;
  return fit >= 1 ? records : 0;
}

/// narrow_rows' default policy: the record tile narrow_record_tile_bytes gives.
template <int ElemBytes>
struct DefaultTransposePolicy<ElemBytes, TransposeAlgorithm::narrow_rows>
    : RecordTransposePolicy<ElemBytes, TransposeAlgorithm::narrow_rows, narrow_record_tile_bytes(ElemBytes)> {};
/// narrow_cols' default policy: the record tile narrow_record_tile_bytes gives.
template <int ElemBytes>
struct DefaultTransposePolicy<ElemBytes, TransposeAlgorithm::narrow_cols>
    : RecordTransposePolicy<ElemBytes, TransposeAlgorithm::narrow_cols, narrow_record_tile_bytes(ElemBytes)> {};
/// small_batch's default policy.
template <int ElemBytes>
struct DefaultTransposePolicy<ElemBytes, TransposeAlgorithm::small_batch>
    : DefaultRecordTransposePolicy<ElemBytes, TransposeAlgorithm::small_batch> {};

/// small_batch_registers' default policy: a stage of transpose_record_tile_bytes (Rows x Cols = 32 KB /
/// ElemBytes elements), 256 threads, 4 blocks per multiprocessor asked of the register allocator, 3
/// for 2-byte elements (whose 8 x 8 tiles held across the barrier spilled at 64 registers;
/// docs/tuning.md, "small batches in register tiles").
template <int ElemBytes>
struct DefaultTransposePolicy<ElemBytes, TransposeAlgorithm::small_batch_registers> {
  /// the policy
  using type = TransposePolicy<TransposeAlgorithm::small_batch_registers, transpose_record_tile_bytes / ElemBytes / 32,
                               32, 0, ElemBytes == 2 ? 3 : 4, false>;
};

/// small_batch_staged's default policy: a stage of transpose_record_tile_bytes (Rows x Cols = 32 KB /
/// ElemBytes elements), 256 threads, 5 blocks per multiprocessor asked of the register allocator
/// (up to 48 registers; 160 KB of loads in flight per multiprocessor; 6 blocks, at 40 registers,
/// not measured).
template <int ElemBytes>
struct DefaultTransposePolicy<ElemBytes, TransposeAlgorithm::small_batch_staged> {
  /// the policy
  using type = TransposePolicy<TransposeAlgorithm::small_batch_staged, transpose_record_tile_bytes / ElemBytes / 32, 32,
                               0, 5, false>;
};

/// realigned_rows' default policy: tiles of 512 / ElemBytes rows by 8 x transpose_realigned_warps
/// columns, 2 blocks per multiprocessor for bytes and halves (64 registers; the stage is 73.7 KB for
/// bytes, 69.6 KB for halves, so two fit), 4 for floats (8 warps, a 34.8 KB stage), the stage's loads
/// asking L2 for 256 bytes (H100 / H200, one run each, % of
/// cudaMemcpy at 8191 x 8193 against no hint: bytes 93.0 / 81.2 against 88.8 / 79.3, halves 94.4 /
/// 88.1 against 91.6 / 86.8; docs/tuning.md, "realigned rows").
template <int ElemBytes>
struct DefaultTransposePolicy<ElemBytes, TransposeAlgorithm::realigned_rows> {
  static constexpr int warps = transpose_realigned_warps(ElemBytes);  ///< warps per block
  /// the policy
  using type = TransposePolicy<TransposeAlgorithm::realigned_rows, 512 / ElemBytes, 8 * warps, 0, ElemBytes >= 4 ? 4 : 2,
                               true, 32 * warps>;
};

/// The narrow register algorithms' default policy for K-element records of ElemBytes:
/// narrow_register_records records per block, 256 threads, 2 blocks per multiprocessor asked of the
/// register allocator (a thread holds 2 K 16-byte chunks).
template <int ElemBytes, TransposeAlgorithm Algorithm, int K>
struct DefaultNarrowRegisterPolicy {
  static_assert(is_narrow_register_transpose(Algorithm), "smemtile::DefaultNarrowRegisterPolicy: a narrow register algorithm");
  static constexpr bool split = Algorithm == TransposeAlgorithm::narrow_rows_registers;  ///< N x K -> K x N
  static constexpr int records = narrow_register_records(ElemBytes, K, split);  ///< records per block
  /// the policy
  using type = TransposePolicy<Algorithm, split ? records : K, split ? K : records, 0, 2, false>;
};

/// Threads per block of the rotated algorithms' default policies for records of k elements: 128 (a
/// stage of K x 2 KB) up to K = 21, 64 above (K KB).
SMEMTILE_HOST_DEVICE constexpr int narrow_rotated_threads(long long k) { return k <= 21 ? 128 : 64; }

/// Records per block of the rotated algorithms' default policies: narrow_rotated_threads x 16 /
/// elem_bytes.
SMEMTILE_HOST_DEVICE constexpr int narrow_rotated_records(long long k, int elem_bytes) {
  return narrow_rotated_threads(k) * (16 / elem_bytes);
}

/// A rotated algorithm's default policy for K-element records of ElemBytes: narrow_rotated_records
/// records per block (Cols of narrow_cols_rotated, Rows of narrow_rows_rotated), no register bound
/// asked (loading all K chunks first keeps K 16-byte loads in flight per thread).
template <int ElemBytes, TransposeAlgorithm Algorithm, int K>
struct DefaultNarrowRotatedPolicy {
  static_assert(is_rotated_transpose(Algorithm), "smemtile::DefaultNarrowRotatedPolicy: a rotated algorithm");
  static constexpr int records = narrow_rotated_records(K, ElemBytes);           ///< records per block
  static constexpr bool split = Algorithm == TransposeAlgorithm::narrow_rows_rotated;  ///< N x K -> K x N
  /// the policy
  using type =
      TransposePolicy<Algorithm, split ? records : K, split ? K : records, 0, 1, false, narrow_rotated_threads(K)>;
};

namespace detail {
// The compile-time shape of a narrow register policy for elements of E bytes, and the invariants
// the policy must satisfy (the kernel instantiates it with the policy it runs).
template <class Policy, int E>
struct NarrowRegisterShape {
  static constexpr bool split = Policy::algorithm == TransposeAlgorithm::narrow_rows_registers;
  static constexpr int k = split ? Policy::cols : Policy::rows;        // elements per record
  static constexpr int records = split ? Policy::rows : Policy::cols;  // records per block
  static constexpr int per_chunk = 16 / E;                             // records per thread and item
  static constexpr int segments = records / per_chunk;                 // 16 bytes' worth of records
  static constexpr int word_bytes = narrow_register_word_bytes(E, k, split);  // channel words' W, or 0
  static constexpr bool words = word_bytes != 0;                       // W / E records a thread
  static constexpr bool grouped = k > transpose_register_narrow_max && !words;  // channel groups of per_chunk
  static constexpr int per_word = words ? word_bytes / E : 1;          // records a thread (channel words)
  static constexpr int word_chunks = words ? k * word_bytes / 16 : 1;  // their chunks
  static constexpr int items = records / (Policy::threads * per_chunk);
  static constexpr int chunks = records * k / per_chunk;  // 16-byte chunks of the flat side
  /// where split_block stages the segment after its block's (for windows of unaligned channel
  /// rows), past both the staged records and the staged channels (k rows of chunks / k + 1 slots);
  /// channel groups take aligned channel rows only
  static constexpr int stage_k = words ? word_chunks : k;  // chunks a thread's records take in the stage (its segment)
  static constexpr int next_slot = grouped || words || record_chunk_slots(chunks, k) > chunks + k
                                       ? record_chunk_slots(chunks, stage_k)
                                       : chunks + k;
  static constexpr int slots = next_slot + (grouped || words ? 0 : k);
  static_assert(E <= 8, "narrow register policies: elements of 1 to 8 bytes (16-byte ones move as records already)");
  static_assert(k >= 1 && k <= transpose_register_group_max,
                "narrow register policies: the narrow extent (Cols of narrow_rows_registers, Rows of "
                "narrow_cols_registers) must be 1..transpose_register_group_max");
  static_assert(narrow_register_extent(E, k),
                "narrow register policies: a narrow extent above transpose_register_narrow_max must be a multiple "
                "of 16 / element bytes (whole channel groups) or take channel words (narrow_register_word_bytes)");
  static_assert(!words || records == Policy::threads * per_word,
                "narrow register policies: channel words take threads x W / element bytes records per block");
  static_assert(words || (grouped ? segments % 32 == 0 && records % per_chunk == 0
                                  : records % (Policy::threads * per_chunk) == 0),
                "narrow register policies: records per block (Rows of narrow_rows_registers, Cols of "
                "narrow_cols_registers) must be a multiple of threads x 16 / element bytes (channel groups: of "
                "32 x 16 / element bytes)");
  static_assert(slots * 16 <= 48 * 1024, "narrow register policies: the staged records must fit 48 KB; fewer records");
  static_assert(!(grouped || words) ||
                    (record_chunk_conflict_free(stage_k) && record_chunk_slots_one_to_one(chunks, stage_k)),
                "narrow register policies: record_chunk_slot must stage channel groups one to one and without "
                "bank conflicts");
};
}  // namespace detail

}  // namespace smemtile
