// smemtile/core/swizzled_layout.cuh: an XOR-swizzled row-major layout, conflict-free by rows and by
// columns without padding (for 4-, 8- and 16-byte elements).
#pragma once

#include "../config.cuh"  // SMEMTILE_HOST_DEVICE
#include "layout.cuh"     // UnpaddedSwizzledShape

namespace smemtile {

/// XOR-swizzled row-major storage without padding, for ElemBytes of 4, 8 or 16: each row is cut
/// into 128-byte lines (V = 128 / ElemBytes elements, one per bank group), and inside a line the
/// element's position is XORed with a function of the row, so that the elements of one column sit
/// in different banks while each row still fills whole lines. Column traversal by a warp touches
/// 32 (4-byte), 16 per half-warp (8-byte) or 8 per quarter-warp (16-byte) consecutive rows, whose
/// XOR masks are all distinct; row traversal only permutes elements inside a line. Rows shorter
/// than a warp's column run are spread with a multiplier (V / Rows), hence Rows must be a power of
/// two or a multiple of V. The promise holds only if the tile starts on a 128-byte boundary
/// (base_alignment), where bank 0 begins.
template <int Rows, int Cols, int ElemBytes>
struct SwizzledLayout : UnpaddedSwizzledShape<Rows, Cols> {
  static_assert(ElemBytes == 4 || ElemBytes == 8 || ElemBytes == 16,
                "smemtile::SwizzledLayout: the XOR swizzle is defined for 4-, 8- and 16-byte elements only "
                "(use a padded tile, e.g. AutoPaddedTile, for 1- and 2-byte elements)");
  /// V: elements in one 128-byte line (all 32 banks).
  static constexpr int line_elems = 128 / ElemBytes;
  static_assert(Rows > 0, "smemtile: a tile needs at least one row (Rows must be > 0)");
  static_assert(Cols > 0 && Cols % line_elems == 0,
                "smemtile::SwizzledLayout: Cols must be a multiple of the swizzle width, 128 / ElemBytes "
                "elements (32 for 4-byte, 16 for 8-byte, 8 for 16-byte elements)");
  static_assert(Rows % line_elems == 0 || (Rows < line_elems && (Rows & (Rows - 1)) == 0),
                "smemtile::SwizzledLayout: Rows must be a power of two below 128 / ElemBytes or a multiple of "
                "it, otherwise a warp's column run wraps onto XOR masks it already used");

  static constexpr int vector_bytes = ElemBytes;         ///< elements are permuted inside each line
  /// Row r XORs its in-line position with (r * row_spread) % V: distinct for V consecutive rows, and
  /// for tiles of fewer rows the columns a warp reads next (col + 1, ...) fill the gaps.
  static constexpr int row_spread = Rows < line_elems ? line_elems / Rows : 1;

  /// Storage offset of element (row, col): the column's position inside its line XOR the row's mask.
  SMEMTILE_HOST_DEVICE static constexpr int offset(int row, int col) {
    return row * Cols + (col & ~(line_elems - 1)) + ((col & (line_elems - 1)) ^ ((row * row_spread) & (line_elems - 1)));
  }
  /// Rows are whole lines and the XOR mask repeats after line_elems rows: so does the bank pattern.
  SMEMTILE_HOST_DEVICE static constexpr int bank_period_rows(int) { return line_elems; }
};

}  // namespace smemtile
