// smemtile/core/tile_ref.cuh: the accessors every tile shares, and TileRef, the one view type.
//
// Element access is written once, in TileAccess, over "a pointer and a layout". StaticTile owns its
// storage and has an empty, compile-time layout; TileRef holds a pointer and a layout value. They
// differ in the layout, never in accessor code. TileRef is also the type a __device__ helper takes:
// a StaticTile's ref(), a tile carved from dynamic shared memory, a window and a halo view are all
// TileRefs (tile_ref(x) turns any of them into one). Accessors never synchronize the block.
#pragma once

#include <type_traits>  // std::remove_pointer_t, std::remove_reference_t

#include "../config.cuh"  // SMEMTILE_HOST_DEVICE, SMEMTILE_CHECK
#include "coord.cuh"      // Coord, row_major_coord, col_major_coord
#include "layout.cuh"     // transposed_layout, WindowLayout, layout_contains, window_error

namespace smemtile {

template <class T, class Layout>
struct TileRef;

/// CRTP base holding every accessor. Derived provides data() (a T*) and layout() (see layout.cuh).
template <class Derived, class T>
struct TileAccess {
  using value_type = T;  ///< the element type

  /// Rows of the tile (of the interior, for a halo view).
  SMEMTILE_HOST_DEVICE constexpr int rows() const { return self().layout().rows(); }
  /// Columns of the tile (of the interior, for a halo view).
  SMEMTILE_HOST_DEVICE constexpr int cols() const { return self().layout().cols(); }
  /// Number of logical elements, rows() * cols() (padding and halo excluded).
  SMEMTILE_HOST_DEVICE constexpr int size() const { return rows() * cols(); }

  /// Element (row, col) in logical row-major coordinates. Bounds-checked in debug builds.
  /// Through a const tile: a const StaticTile owns its storage, so its elements are const; a
  /// TileRef is a view, like std::span, so a const view still writes.
  SMEMTILE_HOST_DEVICE T& operator()(int row, int col) { return self().data()[checked_offset(row, col)]; }
  /// Element (row, col) through a const tile (see above).
  SMEMTILE_HOST_DEVICE decltype(auto) operator()(int row, int col) const {
    return self().data()[checked_offset(row, col)];
  }
  /// Element at `at`.
  SMEMTILE_HOST_DEVICE T& operator()(Coord at) { return (*this)(at.row, at.col); }
  /// Element at `at`, through a const tile.
  SMEMTILE_HOST_DEVICE decltype(auto) operator()(Coord at) const { return (*this)(at.row, at.col); }

  /// Element i of a one-dimensional tile (StaticTile1D, RuntimeTile1D, their halo views).
  template <class D = Derived>
  SMEMTILE_HOST_DEVICE T& operator()(int i) {
    static_assert(std::remove_reference_t<decltype(std::declval<D&>().layout())>::rank == 1,
                  "smemtile: t(i) indexes one-dimensional tiles only; use t(row, col) on a 2D tile");
    return (*this)(0, i);
  }
  /// Element i of a one-dimensional tile, through a const tile.
  template <class D = Derived>
  SMEMTILE_HOST_DEVICE decltype(auto) operator()(int i) const {
    static_assert(std::remove_reference_t<decltype(std::declval<const D&>().layout())>::rank == 1,
                  "smemtile: t(i) indexes one-dimensional tiles only; use t(row, col) on a 2D tile");
    return (*this)(0, i);
  }

  /// The k-th element of a row-major walk: (k / cols, k % cols).
  SMEMTILE_HOST_DEVICE T& row_major(int k) { return (*this)(row_major_coord(unsigned(k), unsigned(cols()))); }
  /// The k-th element of a row-major walk, through a const tile.
  SMEMTILE_HOST_DEVICE decltype(auto) row_major(int k) const {
    return (*this)(row_major_coord(unsigned(k), unsigned(cols())));
  }
  /// The k-th element of a column-major walk: (k % rows, k / rows).
  SMEMTILE_HOST_DEVICE T& col_major(int k) { return (*this)(col_major_coord(unsigned(k), unsigned(rows()))); }
  /// The k-th element of a column-major walk, through a const tile.
  SMEMTILE_HOST_DEVICE decltype(auto) col_major(int k) const {
    return (*this)(col_major_coord(unsigned(k), unsigned(rows())));
  }

  /// A cols() x rows() view of the same storage whose (row, col) is this tile's (col, row).
  SMEMTILE_HOST_DEVICE auto transposed() { return view_of(self(), transposed_layout(self().layout())); }
  /// The transposed view, through a const tile.
  SMEMTILE_HOST_DEVICE auto transposed() const { return view_of(self(), transposed_layout(self().layout())); }

  /// A view of this tile: the type helpers take (see tile_ref()).
  SMEMTILE_HOST_DEVICE auto ref() { return view_of(self(), self().layout()); }
  /// A view of this tile, through a const tile (read-only for a StaticTile).
  SMEMTILE_HOST_DEVICE auto ref() const { return view_of(self(), self().layout()); }

  /// A rows x cols view whose (0, 0) is this tile's `origin`. Checked in debug builds to lie inside.
  SMEMTILE_HOST_DEVICE auto window(Coord origin, int rows, int cols) { return window_of(self(), origin, rows, cols, Coord{0, 0}); }
  /// A window, through a const tile.
  SMEMTILE_HOST_DEVICE auto window(Coord origin, int rows, int cols) const { return window_of(self(), origin, rows, cols, Coord{0, 0}); }

  /// The interior of a tile with a halo of `halo.row` rows above and below and `halo.col` columns
  /// left and right: (0, 0) is the first interior element, (-1, c) the row above the interior, and
  /// the view's rows() x cols() is the interior. Debug builds check accesses against the whole tile.
  SMEMTILE_HOST_DEVICE auto interior(Coord halo) { return window_of(self(), halo, rows() - 2 * halo.row, cols() - 2 * halo.col, halo); }
  /// The interior view, through a const tile.
  SMEMTILE_HOST_DEVICE auto interior(Coord halo) const { return window_of(self(), halo, rows() - 2 * halo.row, cols() - 2 * halo.col, halo); }

 private:
  SMEMTILE_HOST_DEVICE constexpr const Derived& self() const { return static_cast<const Derived&>(*this); }
  SMEMTILE_HOST_DEVICE constexpr Derived& self() { return static_cast<Derived&>(*this); }
  // A TileRef over `tile`'s storage: of const T through a const StaticTile.
  template <class Self, class Layout>
  SMEMTILE_HOST_DEVICE static auto view_of(Self& tile, const Layout& layout) {
    using Element = std::remove_pointer_t<decltype(tile.data())>;
    return TileRef<Element, Layout>{tile.data(), layout};
  }
  // A view of rows x cols at origin, which may also be indexed `reach` outside itself.
  template <class Self>
  SMEMTILE_HOST_DEVICE static auto window_of(Self& tile, Coord origin, int rows, int cols, Coord reach) {
    using Layout = std::remove_const_t<std::remove_reference_t<decltype(tile.layout())>>;
    SMEMTILE_CHECK(window_error(tile.layout(), origin, rows, cols, reach) == nullptr,
                   "tile window (origin row, origin col, rows, cols) outside the tile or invalid", origin.row,
                   origin.col, rows, cols);
    return view_of(tile, WindowLayout<Layout>{tile.layout(), origin, rows, cols, reach});
  }
  SMEMTILE_HOST_DEVICE constexpr int checked_offset(int row, int col) const {
    SMEMTILE_CHECK(layout_contains(self().layout(), row, col),
                   "tile index (row, col) out of bounds for a (rows x cols) tile", row, col, rows(), cols());
    return self().layout().offset(row, col);
  }
};

/// A non-owning view: a pointer to a tile's first element and its layout. Trivially copyable;
/// pass it by value. RuntimeTile<T> is a TileRef over a RuntimePaddedLayout.
template <class T, class Layout>
struct TileRef : TileAccess<TileRef<T, Layout>, T> {
  using layout_type = Layout;  ///< the layout
  using element_type = T;      ///< the element type, const for a read-only view

  T* data_;        ///< the first element of the storage
  Layout layout_;  ///< where each element sits

  TileRef() = default;
  /// A view of the storage at `data` arranged by `layout`.
  SMEMTILE_HOST_DEVICE constexpr TileRef(T* data, Layout layout) : data_(data), layout_(layout) {}
  /// A read-only view of a writable one.
  template <class U, class = std::enable_if_t<std::is_same<const U, T>::value>>
  SMEMTILE_HOST_DEVICE constexpr TileRef(const TileRef<U, Layout>& other) : data_(other.data_), layout_(other.layout_) {}

  /// The first element of the storage.
  SMEMTILE_HOST_DEVICE constexpr T* data() const { return data_; }
  /// The layout.
  SMEMTILE_HOST_DEVICE constexpr const Layout& layout() const { return layout_; }
};

/// Any tile as a TileRef: a TileRef stays itself, a StaticTile becomes its ref().
template <class T, class Layout>
SMEMTILE_HOST_DEVICE constexpr TileRef<T, Layout> tile_ref(TileRef<T, Layout> tile) {
  return tile;
}
/// Any tile as a TileRef (a StaticTile or another TileAccess type).
template <class Derived, class T>
SMEMTILE_HOST_DEVICE auto tile_ref(TileAccess<Derived, T>& tile) {
  return tile.ref();
}
/// Any tile as a TileRef, through a const tile.
template <class Derived, class T>
SMEMTILE_HOST_DEVICE auto tile_ref(const TileAccess<Derived, T>& tile) {
  return tile.ref();
}

}  // namespace smemtile
