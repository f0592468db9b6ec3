// smemtile/tile_ref.cuh: the accessors every tile shares, and TileRef, a (pointer, layout) view.
//
// Element access is written once, in TileAccess, over "a pointer and a layout". StaticTile owns its
// storage and has an empty, compile-time layout; TileRef (and so DynamicTile and the transposed
// view) holds a pointer and a layout value. They differ in the layout, never in accessor code.
// Accessors never synchronize the block.
#pragma once

#include <type_traits>  // std::remove_pointer_t

#include "config.cuh"  // SMEMTILE_HOST_DEVICE, SMEMTILE_CHECK
#include "layout.cuh"  // Coord, row_major_coord, col_major_coord, TransposedLayout

namespace smemtile {

template <class T, class Layout>
struct TileRef;

// CRTP base: Derived provides data() (T*) and layout() (a layout, see layout.cuh).
template <class Derived, class T>
struct TileAccess {
  using value_type = T;

  SMEMTILE_HOST_DEVICE constexpr int rows() const { return self().layout().rows(); }
  SMEMTILE_HOST_DEVICE constexpr int cols() const { return self().layout().cols(); }
  // Number of logical elements (padding excluded).
  SMEMTILE_HOST_DEVICE constexpr int size() const { return rows() * cols(); }

  // Element (row, col) in logical row-major coordinates. Bounds-checked in debug builds.
  // Through a const tile: a const StaticTile owns its storage, so its elements are const; a
  // TileRef (and so a DynamicTile) is a view, like std::span, so a const view still writes.
  SMEMTILE_HOST_DEVICE T& operator()(int row, int col) { return self().data()[checked_offset(row, col)]; }
  SMEMTILE_HOST_DEVICE decltype(auto) operator()(int row, int col) const {
    return self().data()[checked_offset(row, col)];
  }
  SMEMTILE_HOST_DEVICE T& operator()(Coord at) { return (*this)(at.row, at.col); }
  SMEMTILE_HOST_DEVICE decltype(auto) operator()(Coord at) const { return (*this)(at.row, at.col); }

  // The k-th element of a row-major traversal: (k / cols, k % cols).
  SMEMTILE_HOST_DEVICE T& row_major(unsigned k) { return (*this)(row_major_coord(k, unsigned(cols()))); }
  SMEMTILE_HOST_DEVICE decltype(auto) row_major(unsigned k) const {
    return (*this)(row_major_coord(k, unsigned(cols())));
  }
  // The k-th element of a column-major traversal: (k % rows, k / rows).
  SMEMTILE_HOST_DEVICE T& col_major(unsigned k) { return (*this)(col_major_coord(k, unsigned(rows()))); }
  SMEMTILE_HOST_DEVICE decltype(auto) col_major(unsigned k) const {
    return (*this)(col_major_coord(k, unsigned(rows())));
  }

  // A cols() x rows() view of the same storage whose (row, col) is this tile's (col, row).
  SMEMTILE_HOST_DEVICE auto transposed() {
    return TileRef<T, decltype(transpose(self().layout()))>{self().data(), transpose(self().layout())};
  }
  SMEMTILE_HOST_DEVICE auto transposed() const {
    using Element = std::remove_pointer_t<decltype(self().data())>;  // const T for a const StaticTile
    return TileRef<Element, decltype(transpose(self().layout()))>{self().data(), transpose(self().layout())};
  }

 private:
  SMEMTILE_HOST_DEVICE constexpr const Derived& self() const { return static_cast<const Derived&>(*this); }
  SMEMTILE_HOST_DEVICE constexpr Derived& self() { return static_cast<Derived&>(*this); }
  SMEMTILE_HOST_DEVICE constexpr int checked_offset(int row, int col) const {
    SMEMTILE_CHECK(row >= 0 && row < rows() && col >= 0 && col < cols(),
                   "tile index (row, col) out of bounds for a (rows x cols) tile", row, col, rows(), cols());
    return self().layout().offset(row, col);
  }
};

// A non-owning view: a pointer to a tile's first element and its layout. Trivially copyable;
// pass it by value. DynamicTile<T> is a TileRef over a RuntimePaddedLayout.
template <class T, class Layout>
struct TileRef : TileAccess<TileRef<T, Layout>, T> {
  T* data_;
  Layout layout_;

  TileRef() = default;
  SMEMTILE_HOST_DEVICE constexpr TileRef(T* data, Layout layout) : data_(data), layout_(layout) {}

  SMEMTILE_HOST_DEVICE constexpr T* data() const { return data_; }
  SMEMTILE_HOST_DEVICE constexpr const Layout& layout() const { return layout_; }
};

}  // namespace smemtile
