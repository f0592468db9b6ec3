// smemtile/core/static_tile.cuh: StaticTile, a compile-time tile that lives in __shared__ memory.
//
//   __shared__ smemtile::StaticTile<int, 32, 32, 1> tile;   // int tile[32][32 + 1]
//   tile(threadIdx.y, threadIdx.x) = v;                      // row-major write
//   __syncthreads();
//   out[i] = tile.transposed()(threadIdx.y, threadIdx.x);    // column-major read
//
// A StaticTile is a trivially default constructible aggregate whose only member is its storage,
// so it can be declared __shared__ (which forbids constructors), sizeof is exactly the storage,
// and its accessors compile to the same instructions as indexing a raw array.
#pragma once

#include <type_traits>  // std::is_trivially_default_constructible

#include "../config.cuh"  // SMEMTILE_HOST_DEVICE
#include "halo_layout.cuh"  // HaloLayout
#include "layout.cuh"     // PaddedLayout, LinearLayout
#include "tile_ref.cuh"   // TileAccess (every accessor, ref(), window(), interior())

namespace smemtile {

/// Static shared memory per block is limited to 48 KB; more needs dynamic shared memory.
inline constexpr unsigned long long max_static_shared_bytes = 48u * 1024u;

namespace detail {
constexpr unsigned long long max_align(unsigned long long a, unsigned long long b) { return a > b ? a : b; }
// A tile whose storage is a whole number of 16-byte vectors is aligned to 16 bytes, so that copies
// can move it with 16-byte accesses; sizeof stays exactly the storage either way.
constexpr unsigned long long tile_alignment(unsigned long long elem_align, unsigned long long layout_align,
                                            unsigned long long storage_bytes) {
  return max_align(max_align(elem_align, layout_align), storage_bytes % 16 == 0 ? 16 : 1);
}
}  // namespace detail

/// A tile whose shape and layout are part of its type. Layout: any layout with is_static (see
/// layout.cuh). Most code uses the StaticTile alias below.
template <class T, class Layout>
struct BasicStaticTile : TileAccess<BasicStaticTile<T, Layout>, T> {
  static_assert(Layout::is_static, "smemtile::BasicStaticTile needs a layout whose shape is in its type");
  static_assert(std::is_trivially_default_constructible<T>::value,
                "smemtile: the element type of a __shared__ tile must be trivially default constructible");
  // (Checked only for a valid shape, so that a bad Rows/Cols reports that alone.)
  static_assert(Layout::storage_size() <= 0 ||
                    sizeof(T) * static_cast<unsigned long long>(Layout::storage_size()) <= max_static_shared_bytes,
                "smemtile: this tile exceeds the 48 KB static shared memory limit; "
                "carve it from dynamic shared memory instead (RuntimeTile)");

  using layout_type = Layout;  ///< the layout

  /// The elements (public so that the tile stays an aggregate; use the accessors).
  alignas(detail::tile_alignment(alignof(T), Layout::base_alignment, sizeof(T) * Layout::storage_size()))
  T storage_[Layout::storage_size()];

  /// The first element of the storage.
  SMEMTILE_HOST_DEVICE T* data() { return storage_; }
  /// The first element of the storage, read-only.
  SMEMTILE_HOST_DEVICE const T* data() const { return storage_; }
  /// The layout (an empty, compile-time object).
  SMEMTILE_HOST_DEVICE static constexpr Layout layout() { return Layout{}; }
};

/// Rows x Cols elements of T, row-major, with Pad unused elements after each row:
/// the same storage as `T tile[Rows][Cols + Pad]`.
template <class T, int Rows, int Cols, int Pad = 0>
using StaticTile = BasicStaticTile<T, PaddedLayout<Rows, Cols, Pad>>;

/// A Rows x Cols interior with a halo of HaloRows rows above and below and HaloCols columns left
/// and right (HaloLayout): t(-1, c) is the row above the interior.
template <class T, int Rows, int Cols, int HaloRows, int HaloCols = HaloRows>
using StaticHaloTile = BasicStaticTile<T, HaloLayout<Rows, Cols, HaloRows, HaloCols>>;

/// A 1D interior of Size elements with Halo elements on each side: t(-1) is left of t(0).
template <class T, int Size, int Halo>
using StaticHaloTile1D = BasicStaticTile<T, HaloLayout<1, Size, 0, Halo, 0, 1>>;

/// Size elements of T in one row, accessed as t(i): the same storage as `T tile[Size]`.
template <class T, int Size>
using StaticTile1D = BasicStaticTile<T, LinearLayout<Size>>;

}  // namespace smemtile
