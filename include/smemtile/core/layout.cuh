// smemtile/core/layout.cuh: layouts, the one place where (row, col) becomes an element offset.
//
// A layout maps a logical (row, col) of a tile to the offset of that element in the tile's storage
// (in elements), and says how many elements of storage it needs. Tiles, views, copies, thread maps
// and the bank model all call these functions; nothing else in smemtile computes an offset. Static
// layouts carry their shape in the type (every member function is static constexpr, the object is
// empty); run-time layouts carry it as data. All have the same interface:
//   rows(), cols(), storage_size(), offset(row, col)
// and every function is constexpr __host__ __device__, so layouts are tested on the host.
// Each layout also states facts as static members:
//   is_static         its shape is in its type, so it can back a StaticTile;
//   rank              1 for a one-dimensional tile (one row, accessed as t(i)), else 2;
//   vector_bytes      the widest access (a power of two <= 16 bytes) that the layout keeps whole:
//                     every aligned group of that many bytes of a row is stored contiguously
//                     and as aligned (copies then move it as one vector; 0 when even a single
//                     element's neighbours are apart, as in a transposed view); row_stride() is
//                     the distance between the starts of consecutive rows;
//   base_alignment    the byte alignment the tile's first element needs for the layout's
//                     promises (bank behaviour) to hold; 1 where the element's own suffices.
// The XOR-swizzled layout is in swizzled_layout.cuh.
#pragma once

#include "../config.cuh"  // SMEMTILE_HOST_DEVICE
#include "coord.cuh"      // Coord

namespace smemtile {

namespace detail {
SMEMTILE_HOST_DEVICE constexpr int gcd(int a, int b) { return b == 0 ? a : gcd(b, a % b); }
SMEMTILE_HOST_DEVICE constexpr int lcm(int a, int b) { return a / gcd(a, b) * b; }
/// Rows after which rows of `row_bytes` bytes land on the same banks again (a wavefront's 128 bytes).
SMEMTILE_HOST_DEVICE constexpr int rows_per_bank_period(int row_bytes) { return 128 / gcd(128, row_bytes); }
}  // namespace detail

/// Row-major storage with `Pad` unused elements after each row: the same storage as
/// `T tile[Rows][Cols + Pad]`.
template <int Rows, int Cols, int Pad = 0>
struct PaddedLayout {
  static_assert(Rows > 0, "smemtile: a tile needs at least one row (Rows must be > 0)");
  static_assert(Cols > 0, "smemtile: a tile needs at least one column (Cols must be > 0)");
  static_assert(Pad >= 0, "smemtile: the padding after each row cannot be negative (Pad must be >= 0)");
  static_assert(static_cast<long long>(Rows) * (Cols + Pad) < (1LL << 31),
                "smemtile: tile storage does not fit in a 32-bit element offset");

  static constexpr bool is_static = true;        ///< the shape is in the type
  static constexpr int rank = 2;                 ///< accessed as t(row, col)
  static constexpr int vector_bytes = 16;        ///< a row's elements are consecutive
  static constexpr int base_alignment = 1;       ///< no alignment beyond the element's

  /// Number of rows.
  SMEMTILE_HOST_DEVICE static constexpr int rows() { return Rows; }
  /// Number of columns (padding excluded).
  SMEMTILE_HOST_DEVICE static constexpr int cols() { return Cols; }
  /// Unused elements after each row.
  SMEMTILE_HOST_DEVICE static constexpr int pad() { return Pad; }
  /// Elements from the start of one row to the start of the next.
  SMEMTILE_HOST_DEVICE static constexpr int row_stride() { return Cols + Pad; }
  /// Elements of storage, padding included.
  SMEMTILE_HOST_DEVICE static constexpr int storage_size() { return Rows * (Cols + Pad); }
  /// Storage offset of element (row, col).
  SMEMTILE_HOST_DEVICE static constexpr int offset(int row, int col) { return row * (Cols + Pad) + col; }
  /// After how many rows the bank pattern repeats (every address moved by a multiple of 128 bytes).
  SMEMTILE_HOST_DEVICE static constexpr int bank_period_rows(int elem_bytes) {
    return detail::rows_per_bank_period((Cols + Pad) * elem_bytes);
  }
};

/// The shape part shared by the XOR-swizzled layouts (SwizzledLayout, TransposeLayout,
/// WordTransposeLayout): Rows rows of Cols elements with no padding, whose swizzle assumes that
/// the tile starts where bank 0 does. Each adds vector_bytes and offset().
template <int Rows, int Cols>
struct UnpaddedSwizzledShape {
  static_assert(Rows > 0, "smemtile: a tile needs at least one row (Rows must be > 0)");
  static_assert(static_cast<long long>(Rows) * Cols < (1LL << 31),
                "smemtile: tile storage does not fit in a 32-bit element offset");

  static constexpr bool is_static = true;     ///< the shape is in the type
  static constexpr int rank = 2;              ///< accessed as t(row, col)
  static constexpr int base_alignment = 128;  ///< the swizzles assume lines start at bank 0

  /// Number of rows.
  SMEMTILE_HOST_DEVICE static constexpr int rows() { return Rows; }
  /// Number of columns.
  SMEMTILE_HOST_DEVICE static constexpr int cols() { return Cols; }
  /// Elements from the start of one row to the start of the next.
  SMEMTILE_HOST_DEVICE static constexpr int row_stride() { return Cols; }
  /// Elements of storage (no padding).
  SMEMTILE_HOST_DEVICE static constexpr int storage_size() { return Rows * Cols; }
};

/// PaddedLayout with its shape known only at run time (RuntimeTile, thread blocks).
struct RuntimePaddedLayout {
  int rows_;  ///< number of rows
  int cols_;  ///< number of columns
  int pad_;   ///< unused elements after each row

  static constexpr bool is_static = false;       ///< the shape is data
  static constexpr int rank = 2;                 ///< accessed as t(row, col)
  static constexpr int vector_bytes = 16;        ///< a row's elements are consecutive
  static constexpr int base_alignment = 1;       ///< no alignment beyond the element's

  /// Number of rows.
  SMEMTILE_HOST_DEVICE constexpr int rows() const { return rows_; }
  /// Number of columns (padding excluded).
  SMEMTILE_HOST_DEVICE constexpr int cols() const { return cols_; }
  /// Unused elements after each row.
  SMEMTILE_HOST_DEVICE constexpr int pad() const { return pad_; }
  /// Elements from the start of one row to the start of the next.
  SMEMTILE_HOST_DEVICE constexpr int row_stride() const { return cols_ + pad_; }
  /// Elements of storage, padding included.
  SMEMTILE_HOST_DEVICE constexpr int storage_size() const { return rows_ * (cols_ + pad_); }
  /// Storage offset of element (row, col).
  SMEMTILE_HOST_DEVICE constexpr int offset(int row, int col) const { return row * (cols_ + pad_) + col; }
};

/// A one-dimensional tile of `Size` elements: one row, accessed as t(i).
template <int Size>
struct LinearLayout {
  static_assert(Size > 0, "smemtile: a 1D tile needs at least one element (Size must be > 0)");

  static constexpr bool is_static = true;        ///< the size is in the type
  static constexpr int rank = 1;                 ///< accessed as t(i)
  static constexpr int vector_bytes = 16;        ///< the elements are consecutive
  static constexpr int base_alignment = 1;       ///< no alignment beyond the element's

  /// Always 1.
  SMEMTILE_HOST_DEVICE static constexpr int rows() { return 1; }
  /// Number of elements.
  SMEMTILE_HOST_DEVICE static constexpr int cols() { return Size; }
  /// Equal to the size (there is one row).
  SMEMTILE_HOST_DEVICE static constexpr int row_stride() { return Size; }
  /// Number of elements.
  SMEMTILE_HOST_DEVICE static constexpr int storage_size() { return Size; }
  /// Storage offset of element (0, col): col.
  SMEMTILE_HOST_DEVICE static constexpr int offset(int row, int col) { return row * Size + col; }
  /// One row: the bank pattern repeats after every row.
  SMEMTILE_HOST_DEVICE static constexpr int bank_period_rows(int) { return 1; }
};

/// LinearLayout with its size known only at run time.
struct RuntimeLinearLayout {
  int size_;  ///< number of elements

  static constexpr bool is_static = false;       ///< the size is data
  static constexpr int rank = 1;                 ///< accessed as t(i)
  static constexpr int vector_bytes = 16;        ///< the elements are consecutive
  static constexpr int base_alignment = 1;       ///< no alignment beyond the element's

  /// Always 1.
  SMEMTILE_HOST_DEVICE constexpr int rows() const { return 1; }
  /// Number of elements.
  SMEMTILE_HOST_DEVICE constexpr int cols() const { return size_; }
  /// Equal to the size (there is one row).
  SMEMTILE_HOST_DEVICE constexpr int row_stride() const { return size_; }
  /// Number of elements.
  SMEMTILE_HOST_DEVICE constexpr int storage_size() const { return size_; }
  /// Storage offset of element (0, col): col.
  SMEMTILE_HOST_DEVICE constexpr int offset(int row, int col) const { return row * size_ + col; }
};

/// The transpose of another layout: element (row, col) of the view is element (col, row) of the
/// underlying tile. This is the column-major accessor of a tile: same storage, swapped roles.
template <class Layout>
struct SwappedAxesLayout {
  Layout inner;  ///< the layout of the tile being viewed

  static constexpr bool is_static = Layout::is_static;            ///< as the inner layout
  static constexpr int rank = 2;                                  ///< accessed as t(row, col)
  static constexpr int vector_bytes = 0;                          ///< a row is an inner column
  static constexpr int base_alignment = Layout::base_alignment;   ///< as the inner layout

  /// The inner layout's columns.
  SMEMTILE_HOST_DEVICE constexpr int rows() const { return inner.cols(); }
  /// The inner layout's rows.
  SMEMTILE_HOST_DEVICE constexpr int cols() const { return inner.rows(); }
  /// The inner layout's storage.
  SMEMTILE_HOST_DEVICE constexpr int storage_size() const { return inner.storage_size(); }
  /// The inner layout's offset of (col, row).
  SMEMTILE_HOST_DEVICE constexpr int offset(int row, int col) const { return inner.offset(col, row); }
};

/// The layout of the transposed view of `layout` (row and column swapped).
template <class Layout>
SMEMTILE_HOST_DEVICE constexpr SwappedAxesLayout<Layout> transposed_layout(const Layout& layout) {
  return SwappedAxesLayout<Layout>{layout};
}
/// Transposing twice gives back the original layout, not a doubly wrapped one.
template <class Layout>
SMEMTILE_HOST_DEVICE constexpr Layout transposed_layout(const SwappedAxesLayout<Layout>& layout) {
  return layout.inner;
}

/// A view of part of another layout whose logical (0, 0) sits at `origin` of the inner layout.
///  - A window: rows x cols elements starting at `origin`, reach (0, 0).
///  - A halo view: the interior of a tile with a halo of `reach.row` rows above and below and
///    `reach.col` columns left and right, so that (-1, c) is the row above the interior.
/// Logical positions range over [-reach.row, rows + reach.row) x [-reach.col, cols + reach.col);
/// debug builds check accesses against that range, which a halo view makes the whole storage.
template <class Inner>
struct WindowLayout {
  Inner inner;   ///< the layout of the tile being viewed
  Coord origin;  ///< inner position of this view's (0, 0)
  int rows_;     ///< rows of the window (the interior, for a halo view)
  int cols_;     ///< columns of the window (the interior, for a halo view)
  Coord reach;   ///< how far outside [0, rows) x [0, cols) the view may be indexed (the halo)

  static constexpr bool is_static = false;                          ///< origin and shape are data
  static constexpr int rank = Inner::rank;                          ///< as the inner layout
  static constexpr int vector_bytes = Inner::vector_bytes;         ///< as the inner layout
  static constexpr int base_alignment = Inner::base_alignment;      ///< as the inner layout

  /// Rows of the window (the interior, for a halo view).
  SMEMTILE_HOST_DEVICE constexpr int rows() const { return rows_; }
  /// Columns of the window (the interior, for a halo view).
  SMEMTILE_HOST_DEVICE constexpr int cols() const { return cols_; }
  /// The inner layout's row stride (for layouts whose rows are contiguous).
  SMEMTILE_HOST_DEVICE constexpr int row_stride() const { return inner.row_stride(); }
  /// The inner layout's storage.
  SMEMTILE_HOST_DEVICE constexpr int storage_size() const { return inner.storage_size(); }
  /// The inner offset of (origin.row + row, origin.col + col).
  SMEMTILE_HOST_DEVICE constexpr int offset(int row, int col) const {
    return inner.offset(origin.row + row, origin.col + col);
  }
  /// Whether (row, col) may be accessed: inside the window widened by its reach.
  SMEMTILE_HOST_DEVICE constexpr bool contains(int row, int col) const {
    return row >= -reach.row && row < rows_ + reach.row && col >= -reach.col && col < cols_ + reach.col;
  }
};

/// Whether (row, col) may be accessed through `layout`: [0, rows) x [0, cols) for every layout but a
/// WindowLayout, which adds its reach. Bounds checks (debug builds) and copies use this.
template <class Layout>
SMEMTILE_HOST_DEVICE constexpr bool layout_contains(const Layout& layout, int row, int col) {
  return row >= 0 && row < layout.rows() && col >= 0 && col < layout.cols();
}
/// The WindowLayout overload: the window widened by its reach.
template <class Inner>
SMEMTILE_HOST_DEVICE constexpr bool layout_contains(const WindowLayout<Inner>& layout, int row, int col) {
  return layout.contains(row, col);
}

/// How far outside [0, rows) x [0, cols) `layout` may be indexed: (0, 0) but for a WindowLayout.
template <class Layout>
SMEMTILE_HOST_DEVICE constexpr Coord layout_reach(const Layout&) {
  return Coord{0, 0};
}
/// The WindowLayout overload: its reach (the halo).
template <class Inner>
SMEMTILE_HOST_DEVICE constexpr Coord layout_reach(const WindowLayout<Inner>& layout) {
  return layout.reach;
}

/// Why a window of `rows` x `cols` at `origin` widened by `reach` does not fit inside `inner`, or
/// nullptr when it does.
template <class Inner>
SMEMTILE_HOST_DEVICE constexpr const char* window_error(const Inner& inner, Coord origin, int rows, int cols,
                                                        Coord reach) {
  if (rows < 0 || cols < 0) return "a window cannot have a negative number of rows or columns";
  if (reach.row < 0 || reach.col < 0) return "a window's reach (halo) cannot be negative";
  if (rows + 2 * reach.row == 0 || cols + 2 * reach.col == 0) return nullptr;  // touches nothing
  if (!layout_contains(inner, origin.row - reach.row, origin.col - reach.col)) return "the window starts outside the tile";
  if (!layout_contains(inner, origin.row + rows + reach.row - 1, origin.col + cols + reach.col - 1))
    return "the window ends outside the tile";
  return nullptr;
}

}  // namespace smemtile
