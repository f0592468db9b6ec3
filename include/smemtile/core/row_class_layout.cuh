// smemtile/core/row_class_layout.cuh: a halo tile loaded by TMA from an array whose rows are off 16
// bytes (a pitch that is not a multiple of 16 bytes, or a base that is not 16-byte aligned).
//
// TMA needs 16-byte aligned rows. In an array of pitch P bytes, rows y and y + 16 / E (E-byte
// elements) start at the same 16-byte phase, so the rows of one "class" y mod (16 / E) form an
// array TMA can describe: its first row's address rounded down to 16 bytes, a pitch of 16 / E rows
// (16 P / E bytes, a multiple of 16), its row data starting `shift` elements in. A tile loads as one
// box per class: class j of the tile's storage rows (rows j, j + 16 / E, ...) is stored densely in
// its own 128-byte aligned region, and every row's data sits `shift(row)` elements right of where a
// HaloLayout would put it. Readers add the shift (offset() does); vector readers take
// aligned_offset() and shift() apart. With EqualClasses every region holds as many rows as the
// largest class, so that any array class may land in any region: a 3D sweep's planes, whose rows
// are the rows of one array (dense planes), start at a class that changes from plane to plane.
#pragma once

#include "../config.cuh"  // SMEMTILE_HOST_DEVICE
#include "coord.cuh"      // Coord

namespace smemtile {

namespace detail {
// Storage rows of class j (rows j, j + classes, ...) among `rows` storage rows.
SMEMTILE_HOST_DEVICE constexpr int row_class_rows(int rows, int classes, int j) {
  return (rows - j + classes - 1) / classes;
}
// Where class j's region starts, in elements: the regions before it, each rounded up to
// `align_elems` (128 bytes, TMA's destination alignment); `equal`: every region as large as the first.
SMEMTILE_HOST_DEVICE constexpr int row_class_start(int rows, int row_stride, int classes, int align_elems, int j,
                                                   bool equal = false) {
  int start = 0;
  for (int i = 0; i < j; ++i)
    start += (row_class_rows(rows, classes, equal ? 0 : i) * row_stride + align_elems - 1) / align_elems * align_elems;
  return start;
}
// Columns added to each storage row so that a row shifted by up to 16 / E - 1 elements still holds
// the `reach` columns right of the interior: one 16-byte vector where the halo columns do not.
SMEMTILE_HOST_DEVICE constexpr int row_class_extra_cols(int elem_bytes, int halo_cols, int reach) {
  return 16 / elem_bytes - 1 > halo_cols - reach ? 16 / elem_bytes : 0;
}
}  // namespace detail

/// The 16-byte phase (0 ... 15) of row `row` of an array whose row 0 is at phase `first` and whose
/// pitch is `pitch_phase` mod 16 bytes; `row` may be negative (rows above the array).
SMEMTILE_HOST_DEVICE constexpr int row_phase(int first, int pitch_phase, int row) {
  return static_cast<int>((static_cast<unsigned>(first) + static_cast<unsigned>(row) * static_cast<unsigned>(pitch_phase)) & 15u);
}

/// Rows x Cols interior, Reach rows and columns of halo read around it, HaloCols columns stored on
/// each side (HaloCols * ElemBytes a multiple of 16), for ElemBytes-byte elements stored by row
/// class (see the file comment); EqualClasses: regions of equal rows (any class in any region). Run-time
/// state: the 16-byte phase of interior row 0 (`first_phase`, in bytes) and the pitch mod 16 bytes
/// (`pitch_phase`).
template <int Rows, int Cols, int Reach, int HaloCols, int ElemBytes, bool EqualClasses = false>
struct RowClassHaloLayout {
  static_assert(ElemBytes == 1 || ElemBytes == 2 || ElemBytes == 4 || ElemBytes == 8,
                "smemtile::RowClassHaloLayout: elements of 1, 2, 4 or 8 bytes (16-byte elements are always aligned)");
  static_assert(HaloCols >= Reach && HaloCols * ElemBytes % 16 == 0,
                "smemtile::RowClassHaloLayout: halo columns hold the reach, in whole 16-byte vectors");
  static constexpr int classes = 16 / ElemBytes;            ///< row classes: rows this far apart share a phase
  static constexpr int storage_rows = Rows + 2 * Reach;     ///< rows stored, halo included
  static constexpr int extra_cols = detail::row_class_extra_cols(ElemBytes, HaloCols, Reach);  ///< room for the shift
  static constexpr int align_elems = 128 / ElemBytes;       ///< a class region's alignment (TMA), in elements
  static_assert(Rows % classes == 0,
                "smemtile::RowClassHaloLayout: tile rows a multiple of 16 / ElemBytes, so that every tile's "
                "storage row j holds the same class of array rows");
  static constexpr bool equal_classes = EqualClasses;  ///< every region holds class_rows(0) rows

  static constexpr bool is_static = false;  ///< the rows' shifts are data
  static constexpr int rank = 2;            ///< t(row, col)
  static constexpr int vector_bytes = 0;    ///< rows are shifted: no vector is aligned where a copy expects it
  static constexpr int base_alignment = 128;  ///< TMA writes each class region at 128 bytes

  int first_phase = 0;  ///< 16-byte phase of interior row 0's column 0 in the array, in bytes
  int pitch_phase = 0;  ///< the array's pitch mod 16 bytes

  /// Interior rows.
  SMEMTILE_HOST_DEVICE static constexpr int rows() { return Rows; }
  /// Interior columns.
  SMEMTILE_HOST_DEVICE static constexpr int cols() { return Cols; }
  /// The rows and columns read around the interior.
  SMEMTILE_HOST_DEVICE static constexpr Coord reach() { return Coord{Reach, Reach}; }
  /// Elements from one storage row of a class to the next (a TMA box row).
  SMEMTILE_HOST_DEVICE static constexpr int row_stride() { return Cols + 2 * HaloCols + extra_cols; }
  /// Storage rows of class j (its TMA box's rows; EqualClasses: the first class's, for every class).
  SMEMTILE_HOST_DEVICE static constexpr int class_rows(int j) {
    return detail::row_class_rows(storage_rows, classes, EqualClasses ? 0 : j);
  }
  /// Where class j's region starts, in elements (128-byte aligned).
  SMEMTILE_HOST_DEVICE static constexpr int class_start(int j) {
    return detail::row_class_start(storage_rows, row_stride(), classes, align_elems, j, EqualClasses);
  }
  /// Elements of storage, every class region included.
  SMEMTILE_HOST_DEVICE static constexpr int storage_size() { return class_start(classes); }
  /// Bytes every class's box brings (what the tile's TMA barrier expects).
  SMEMTILE_HOST_DEVICE static constexpr int box_bytes() {
    return (EqualClasses ? classes * class_rows(0) : storage_rows) * row_stride() * ElemBytes;
  }
  /// Storage offset of (row, col) before the row's shift (16-byte aligned where col * ElemBytes is):
  /// closed form of class_start (the first storage_rows % classes classes hold one row more), so
  /// that a row known only at run time costs a few integer operations.
  SMEMTILE_HOST_DEVICE static constexpr int aligned_offset(int row, int col) {
    constexpr int longer = EqualClasses ? 0 : storage_rows % classes, big = class_start(1),
                  small = class_start(classes) - class_start(classes - 1);
    const unsigned stored = static_cast<unsigned>(row + Reach);
    const int j = static_cast<int>(stored % classes), in_class = static_cast<int>(stored / classes);
    return j * small + (j < longer ? j : longer) * (big - small) + in_class * row_stride() + HaloCols + col;
  }
  /// How many elements right of aligned_offset row `row`'s data lies.
  SMEMTILE_HOST_DEVICE constexpr int shift(int row) const {
    return row_phase(first_phase, pitch_phase, row) / ElemBytes;
  }
  /// Storage offset of (row, col).
  SMEMTILE_HOST_DEVICE constexpr int offset(int row, int col) const { return aligned_offset(row, col) + shift(row); }
  /// (row, col) as a code that holds for every phase: aligned_offset and the row mod 16 (what the
  /// shift depends on), for cells planned once and written in tiles of several phases (a 3D
  /// sweep's planes); offset_of_code gives the offset in this tile. Non-negative.
  SMEMTILE_HOST_DEVICE static constexpr int offset_code(int row, int col) { return aligned_offset(row, col) * 16 + (row & 15); }
  /// The storage offset of a cell of offset_code `code` in this tile.
  SMEMTILE_HOST_DEVICE constexpr int offset_of_code(int code) const {
    return (code >> 4) + row_phase(first_phase, pitch_phase, code & 15) / ElemBytes;
  }
  /// Whether (row, col) may be accessed: the interior widened by the reach.
  SMEMTILE_HOST_DEVICE static constexpr bool contains(int row, int col) {
    return row >= -Reach && row < Rows + Reach && col >= -Reach && col < Cols + Reach;
  }
};

/// layout_contains for a RowClassHaloLayout: the interior widened by its reach.
template <int R, int C, int Re, int H, int E, bool Q>
SMEMTILE_HOST_DEVICE constexpr bool layout_contains(const RowClassHaloLayout<R, C, Re, H, E, Q>& layout, int row, int col) {
  return layout.contains(row, col);
}
/// layout_reach for a RowClassHaloLayout: its reach.
template <int R, int C, int Re, int H, int E, bool Q>
SMEMTILE_HOST_DEVICE constexpr Coord layout_reach(const RowClassHaloLayout<R, C, Re, H, E, Q>&) {
  return Coord{Re, Re};
}

}  // namespace smemtile
