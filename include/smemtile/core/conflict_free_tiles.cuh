/// \file
/// Tiles whose layout the bank model (banks.cuh) makes conflict-free for warps walking their rows
/// and their columns.
///
/// \code
///   __shared__ smemtile::AutoPaddedTile<double, 32, 32> a;  // the smallest pad that makes rows and columns conflict-free
///   __shared__ smemtile::SwizzledTile<float, 32, 64> b;     // no padding: an XOR swizzle, 128-byte aligned
/// \endcode
#pragma once

#include "../config.cuh"         // SMEMTILE_HOST_DEVICE
#include "banks.cuh"             // bank_cost, traversal_access, Traversal
#include "layout.cuh"            // RuntimePaddedLayout
#include "static_tile.cuh"       // BasicStaticTile, StaticTile
#include "swizzled_layout.cuh"   // SwizzledLayout
#include "transpose_layout.cuh"  // TransposeLayout, WordTransposeLayout

namespace smemtile {

// ---- automatic padding --------------------------------------------------------------------------

namespace detail {
template <class Layout>
SMEMTILE_HOST_DEVICE constexpr bool traversal_conflict_free(const Layout& layout, int elem_bytes, Traversal order) {
  const int warps = ceil_div(layout.rows() * layout.cols(), warp_lanes);
  for (int w = 0; w < warps; ++w)
    if (bank_cost(traversal_access(layout, elem_bytes, order, w)).conflicts != 0) return false;  // stop early
  return true;
}
}  // namespace detail

/// Whether every warp of both a row-major and a column-major walk of the tile is conflict-free
/// (loads and stores follow the same rule for these patterns, which share no addresses).
template <class Layout>
SMEMTILE_HOST_DEVICE constexpr bool rows_and_columns_conflict_free(const Layout& layout, int elem_bytes) {
  return detail::traversal_conflict_free(layout, elem_bytes, Traversal::row) &&
         detail::traversal_conflict_free(layout, elem_bytes, Traversal::column);
}

/// The smallest pad (elements after each row) that makes rows and columns of a rows x cols tile of
/// elem_bytes elements conflict-free, or -1 when none does. Pads p and p + 128 / elem_bytes give
/// the same banks, so searching [0, 128 / elem_bytes) decides the question.
SMEMTILE_HOST_DEVICE constexpr int smallest_conflict_free_pad(int elem_bytes, int rows, int cols) {
  for (int pad = 0; pad < wavefront_bytes / elem_bytes; ++pad)
    if (rows_and_columns_conflict_free(RuntimePaddedLayout{rows, cols, pad}, elem_bytes)) return pad;
  return -1;
}

/// auto_pad<T, Rows, Cols>::value: the smallest conflict-free pad for a Rows x Cols tile of T, or
/// a compile error saying none exists.
template <class T, int Rows, int Cols>
struct auto_pad {
  static_assert(detail::valid_width(static_cast<int>(sizeof(T))),
                "smemtile::auto_pad: the bank model covers elements of 1, 2, 4, 8 or 16 bytes");
  /// Unused elements after each row (see smallest_conflict_free_pad()).
  static constexpr int value = smallest_conflict_free_pad(static_cast<int>(sizeof(T)), Rows, Cols);
  static_assert(value >= 0,
                "smemtile::auto_pad: no padding makes both row and column traversal of this tile "
                "conflict-free (e.g. a warp reading two short rows lands half of the second row on the "
                "first one's banks); choose another shape or a SwizzledTile");
};
/// auto_pad<T, Rows, Cols>::value.
template <class T, int Rows, int Cols>
inline constexpr int auto_pad_v = auto_pad<T, Rows, Cols>::value;

/// A StaticTile with the smallest padding that makes row and column traversal conflict-free.
template <class T, int Rows, int Cols>
using AutoPaddedTile = StaticTile<T, Rows, Cols, auto_pad_v<T, Rows, Cols>>;

/// The padding-free alternative for 4-, 8- and 16-byte elements: an XOR-swizzled tile (see
/// SwizzledLayout in swizzled_layout.cuh), aligned to 128 bytes by BasicStaticTile.
template <class T, int Rows, int Cols>
using SwizzledTile = BasicStaticTile<T, SwizzledLayout<Rows, Cols, static_cast<int>(sizeof(T))>>;

/// A tile for transposes: written by rows in 16-byte chunks, read in V x V blocks, both
/// conflict-free (TransposeLayout; block/transpose.cuh). Rows a multiple of 8 * V, rows of whole
/// 128-byte lines.
template <class T, int Rows, int Cols>
using TransposeTile = BasicStaticTile<T, TransposeLayout<Rows, Cols, static_cast<int>(sizeof(T))>>;

/// A tile for transposing 1- and 2-byte elements to rows that are not 16-byte aligned: written by
/// rows in 4-byte words, read in blocks of 4 / sizeof(T) rows by one word, one block per lane, both
/// conflict-free (WordTransposeLayout; block/transpose.cuh). Rows a multiple of 128 / sizeof(T)
/// (32 blocks), rows of whole 128-byte lines.
template <class T, int Rows, int Cols>
using WordTransposeTile = BasicStaticTile<T, WordTransposeLayout<Rows, Cols, static_cast<int>(sizeof(T))>>;

}  // namespace smemtile
