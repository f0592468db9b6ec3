// smemtile/core/transpose_layout.cuh: a layout for tiles that are written by rows and read by small
// square blocks, as a transpose through shared memory does.
//
// Each row is cut into 16-byte chunks, and chunk positions inside each 128-byte line are XORed with
// the row's block-row index, so that
//   - a warp writing a row in 16-byte chunks (or narrower pieces) touches every bank once, and
//   - eight consecutive blocks of block_rows rows read down one chunk column land in eight
//     different chunk slots, so reading a block per thread (16-byte pieces of its rows for 4-, 8-,
//     16-byte elements, 4-byte words for 1- and 2-byte ones) is conflict-free too.
// block/transpose.cuh reads it that way; the bank model checks both patterns at compile time.
//
// WordTransposeLayout is the same idea at 4-byte granularity, for 1- and 2-byte elements going to
// rows that are not 16-byte aligned: a warp reads blocks of 4 (bytes) or 2 (halves) rows by one
// 4-byte word, one block per lane down a column, and realigns the words it stores with its
// neighbours' (block/transpose.cuh).
#pragma once

#include "../config.cuh"  // SMEMTILE_HOST_DEVICE
#include "layout.cuh"     // UnpaddedSwizzledShape

namespace smemtile {

/// Rows x Cols elements of ElemBytes bytes, row-major, 16-byte chunks XOR-swizzled by block row.
/// A transpose reads it in blocks of block_rows x block_cols elements, one per thread: block_rows
/// rows (the elements of one 16-byte chunk of the transposed output, 16 / ElemBytes) of one
/// 16-byte chunk (4-, 8- and 16-byte elements) or one 4-byte word (1- and 2-byte elements).
template <int Rows, int Cols, int ElemBytes>
struct TransposeLayout : UnpaddedSwizzledShape<Rows, Cols> {
  static_assert(ElemBytes == 1 || ElemBytes == 2 || ElemBytes == 4 || ElemBytes == 8 || ElemBytes == 16,
                "smemtile::TransposeLayout: elements of 1, 2, 4, 8 or 16 bytes");
  /// Elements in one 16-byte chunk.
  static constexpr int chunk_elems = 16 / ElemBytes;
  /// Rows of the block of elements one thread transposes in registers.
  static constexpr int block_rows = 16 / ElemBytes;
  /// Columns of that block: a 16-byte chunk, or a 4-byte word of 1- and 2-byte elements.
  static constexpr int block_cols = ElemBytes >= 4 ? 16 / ElemBytes : 4 / ElemBytes;
  static_assert(Cols > 0 && (Cols * ElemBytes) % 128 == 0,
                "smemtile::TransposeLayout: a row must be a whole number of 128-byte lines (Cols * sizeof(T) "
                "a multiple of 128), so that the chunk swizzle stays inside the row");
  static_assert(Rows > 0 && Rows % (8 * block_rows) == 0,
                "smemtile::TransposeLayout: Rows must be a multiple of 8 blocks of block_rows rows (128 / sizeof(T)), "
                "so that eight consecutive blocks read down a column fill the eight chunk slots of a line");

  static constexpr int vector_bytes = 16;     ///< 16-byte chunks stay whole

  /// Storage offset of (row, col): its chunk's position in the line XOR (row / block_rows) % 8.
  /// Written as one XOR of col with row's bits block_rows ... 8 block_rows - 1 (chunk_elems ==
  /// block_rows, a power of two): the same offset, with no divisions for the compiler to undo (as
  /// chunk arithmetic on signed ints, it cost 3 more instructions per access than a hand-written
  /// swizzle: tests/block/transpose_pairs.cu).
  SMEMTILE_HOST_DEVICE static constexpr int offset(int row, int col) {
    static_assert(chunk_elems == block_rows, "the swizzle's bits are the chunk's");
    return row * Cols + (col ^ (row & (7 * chunk_elems)));
  }
  /// Rows are whole lines and the mask repeats after 8 blocks: so does the bank pattern.
  SMEMTILE_HOST_DEVICE static constexpr int bank_period_rows(int) { return 8 * block_rows; }
};

/// Rows x Cols elements of 1 or 2 bytes, row-major, in 4-byte words XOR-swizzled by word row: word
/// w of row r sits at word w ^ ((r / word_elems) % 32) of its 32-word group. A warp writing a row
/// in words, or reading one word of 32 consecutive blocks of word_elems rows (one block per lane),
/// touches every bank once.
template <int Rows, int Cols, int ElemBytes>
struct WordTransposeLayout : UnpaddedSwizzledShape<Rows, Cols> {
  static_assert(ElemBytes == 1 || ElemBytes == 2, "smemtile::WordTransposeLayout: elements of 1 or 2 bytes");
  /// Elements in one 4-byte word: the rows (and columns) of a register block.
  static constexpr int word_elems = 4 / ElemBytes;
  static_assert(Cols > 0 && (Cols * ElemBytes) % 128 == 0,
                "smemtile::WordTransposeLayout: a row must be a whole number of 128-byte lines (Cols * sizeof(T) a "
                "multiple of 128), so that the word swizzle stays inside the row");
  static_assert(Rows > 0 && Rows % (32 * word_elems) == 0,
                "smemtile::WordTransposeLayout: Rows must be a multiple of 32 blocks of 4 / sizeof(T) rows (one per "
                "lane of a warp)");

  static constexpr int vector_bytes = 4;      ///< 4-byte words stay whole

  /// Storage offset of (row, col): its word's position XOR (row / word_elems) % 32, written as
  /// one XOR of col with row's bits word_elems ... 32 word_elems - 1 (as TransposeLayout's).
  SMEMTILE_HOST_DEVICE static constexpr int offset(int row, int col) {
    return row * Cols + (col ^ (row & (31 * word_elems)));
  }
  /// Rows are whole lines and the mask repeats after 32 blocks: so does the bank pattern.
  SMEMTILE_HOST_DEVICE static constexpr int bank_period_rows(int) { return 32 * word_elems; }
};

}  // namespace smemtile
