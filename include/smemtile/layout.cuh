// smemtile/layout.cuh: layouts, the one place where (row, col) becomes an element offset.
//
// A layout maps a logical (row, col) of a Rows x Cols tile to the offset of that element in the
// tile's storage (in elements), and says how many elements of storage it needs. Tiles, views,
// thread maps and the bank model all call these functions; nothing else in smemtile computes an
// offset. Static layouts carry their shape in the type (every member function is static
// constexpr, the object is empty); runtime layouts carry it as data. Both have the same interface:
//   rows(), cols(), storage_size(), offset(row, col)
// and every function is constexpr __host__ __device__, so layouts are tested on the host.
// Each layout also states two facts as static members:
//   is_static           its shape is in its type, so it can back a StaticTile;
//   base_alignment      the byte alignment the tile's first element needs for the layout's
//                       promises (bank behaviour) to hold; 1 where the element's own suffices.
#pragma once

#include "config.cuh"  // SMEMTILE_HOST_DEVICE, SMEMTILE_CHECK

namespace smemtile {

// A logical position in a tile.
struct Coord {
  int row;
  int col;
};

// The k-th position of a row-major traversal of a tile with `cols` columns. Unsigned arithmetic:
// this is what hand-written kernels do with threadIdx, and it compiles to the same instructions.
SMEMTILE_HOST_DEVICE constexpr Coord row_major_coord(unsigned linear, unsigned cols) {
  return Coord{static_cast<int>(linear / cols), static_cast<int>(linear % cols)};
}

// The k-th position of a column-major traversal of a tile with `rows` rows.
SMEMTILE_HOST_DEVICE constexpr Coord col_major_coord(unsigned linear, unsigned rows) {
  return Coord{static_cast<int>(linear % rows), static_cast<int>(linear / rows)};
}

// Row-major storage with `Pad` unused elements after each row: the seeds' tile[Rows][Cols + Pad].
template <int Rows, int Cols, int Pad = 0>
struct PaddedLayout {
  static_assert(Rows > 0, "smemtile: a tile needs at least one row (Rows must be > 0)");
  static_assert(Cols > 0, "smemtile: a tile needs at least one column (Cols must be > 0)");
  static_assert(Pad >= 0, "smemtile: the padding after each row cannot be negative (Pad must be >= 0)");
  static_assert(static_cast<long long>(Rows) * (Cols + Pad) < (1LL << 31),
                "smemtile: tile storage does not fit in a 32-bit element offset");

  static constexpr bool is_static = true;
  static constexpr int base_alignment = 1;

  SMEMTILE_HOST_DEVICE static constexpr int rows() { return Rows; }
  SMEMTILE_HOST_DEVICE static constexpr int cols() { return Cols; }
  SMEMTILE_HOST_DEVICE static constexpr int pad() { return Pad; }
  // Elements from the start of one row to the start of the next.
  SMEMTILE_HOST_DEVICE static constexpr int row_stride() { return Cols + Pad; }
  SMEMTILE_HOST_DEVICE static constexpr int storage_size() { return Rows * (Cols + Pad); }
  SMEMTILE_HOST_DEVICE static constexpr int offset(int row, int col) { return row * (Cols + Pad) + col; }
};

// PaddedLayout with its shape known only at run time (DynamicTile, thread blocks).
struct RuntimePaddedLayout {
  int rows_;
  int cols_;
  int pad_;

  static constexpr bool is_static = false;
  static constexpr int base_alignment = 1;

  SMEMTILE_HOST_DEVICE constexpr int rows() const { return rows_; }
  SMEMTILE_HOST_DEVICE constexpr int cols() const { return cols_; }
  SMEMTILE_HOST_DEVICE constexpr int pad() const { return pad_; }
  SMEMTILE_HOST_DEVICE constexpr int row_stride() const { return cols_ + pad_; }
  SMEMTILE_HOST_DEVICE constexpr int storage_size() const { return rows_ * (cols_ + pad_); }
  SMEMTILE_HOST_DEVICE constexpr int offset(int row, int col) const { return row * (cols_ + pad_) + col; }
};

// XOR-swizzled row-major storage without padding, for ElemBytes of 4, 8 or 16: each row is cut
// into 128-byte lines (V = 128 / ElemBytes elements, one per bank group), and inside a line the
// element's position is XORed with a function of the row, so that the elements of one column sit
// in different banks while each row still fills whole lines. Column traversal by a warp touches
// 32 (4-byte), 16 per half-warp (8-byte) or 8 per quarter-warp (16-byte) consecutive rows, whose
// XOR masks are all distinct; row traversal only permutes elements inside a line. Rows shorter
// than a warp's column run are spread with a multiplier (V / Rows), hence Rows must be a power of
// two or a multiple of V. The promise holds only if the tile starts on a 128-byte boundary
// (base_alignment), where bank 0 begins.
template <int Rows, int Cols, int ElemBytes>
struct SwizzledLayout {
  static_assert(ElemBytes == 4 || ElemBytes == 8 || ElemBytes == 16,
                "smemtile::SwizzledLayout: the XOR swizzle is defined for 4-, 8- and 16-byte elements only "
                "(use a padded tile, e.g. AutoPaddedTile, for 1- and 2-byte elements)");
  static constexpr int line_elems = 128 / ElemBytes;  // V: elements in one 128-byte line (all 32 banks)
  static_assert(Rows > 0, "smemtile: a tile needs at least one row (Rows must be > 0)");
  static_assert(Cols > 0 && Cols % line_elems == 0,
                "smemtile::SwizzledLayout: Cols must be a multiple of the swizzle width, 128 / ElemBytes "
                "elements (32 for 4-byte, 16 for 8-byte, 8 for 16-byte elements)");
  static_assert(Rows % line_elems == 0 || (Rows < line_elems && (Rows & (Rows - 1)) == 0),
                "smemtile::SwizzledLayout: Rows must be a power of two below 128 / ElemBytes or a multiple of "
                "it, otherwise a warp's column run wraps onto XOR masks it already used");
  static_assert(static_cast<long long>(Rows) * Cols < (1LL << 31),
                "smemtile: tile storage does not fit in a 32-bit element offset");

  static constexpr bool is_static = true;
  static constexpr int base_alignment = 128;
  // Row r XORs its in-line position with (r * row_spread) % V: distinct for V consecutive rows, and
  // for tiles of fewer rows the columns a warp reads next (col + 1, ...) fill the gaps.
  static constexpr int row_spread = Rows < line_elems ? line_elems / Rows : 1;

  SMEMTILE_HOST_DEVICE static constexpr int rows() { return Rows; }
  SMEMTILE_HOST_DEVICE static constexpr int cols() { return Cols; }
  SMEMTILE_HOST_DEVICE static constexpr int storage_size() { return Rows * Cols; }
  SMEMTILE_HOST_DEVICE static constexpr int offset(int row, int col) {
    return row * Cols + (col & ~(line_elems - 1)) + ((col & (line_elems - 1)) ^ ((row * row_spread) & (line_elems - 1)));
  }
};

// The transpose of another layout: element (row, col) of the view is element (col, row) of the
// underlying tile. This is the column-major accessor of a tile: same storage, swapped roles.
template <class Layout>
struct TransposedLayout {
  Layout inner;

  static constexpr bool is_static = Layout::is_static;
  static constexpr int base_alignment = Layout::base_alignment;

  SMEMTILE_HOST_DEVICE constexpr int rows() const { return inner.cols(); }
  SMEMTILE_HOST_DEVICE constexpr int cols() const { return inner.rows(); }
  SMEMTILE_HOST_DEVICE constexpr int storage_size() const { return inner.storage_size(); }
  SMEMTILE_HOST_DEVICE constexpr int offset(int row, int col) const { return inner.offset(col, row); }
};

// Transposing twice gives back the original layout, not a doubly wrapped one.
template <class Layout>
SMEMTILE_HOST_DEVICE constexpr TransposedLayout<Layout> transpose(const Layout& layout) {
  return TransposedLayout<Layout>{layout};
}
template <class Layout>
SMEMTILE_HOST_DEVICE constexpr Layout transpose(const TransposedLayout<Layout>& layout) {
  return layout.inner;
}

}  // namespace smemtile
