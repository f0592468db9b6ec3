// smemtile/core/runtime_tile.cuh: RuntimeTile, a tile whose rows, columns and padding are run-time
// values, over any memory (usually carved from dynamic shared memory by an Arena, arena.cuh).
//
//   smemtile::RuntimeTile<int> tile = arena.tile<int>(blockDim.y, blockDim.x, 1);
//   tile(threadIdx.y, threadIdx.x) = v;        // the same accessors as StaticTile
//   out[rank] = tile.col_major(rank);
//
// A RuntimeTile is a TileRef over a RuntimePaddedLayout: a pointer plus (rows, cols, pad). Every
// accessor comes from TileAccess (tile_ref.cuh), exactly as for StaticTile; only the layout differs.
#pragma once

#include "../config.cuh"  // SMEMTILE_HOST_DEVICE, SMEMTILE_CHECK
#include "layout.cuh"     // RuntimePaddedLayout, RuntimeLinearLayout
#include "tile_ref.cuh"   // TileRef (and through it every accessor)

namespace smemtile {

/// rows x cols elements of T, row-major, `pad` unused elements after each row, shape known at run time.
template <class T>
using RuntimeTile = TileRef<T, RuntimePaddedLayout>;

/// `size` elements of T accessed as t(i), size known at run time.
template <class T>
using RuntimeTile1D = TileRef<T, RuntimeLinearLayout>;

/// Why (rows, cols, pad) cannot describe a tile, or nullptr when it can. Offsets are ints (as in
/// every layout), so the storage, padding included, must stay below 2^31 elements.
SMEMTILE_HOST_DEVICE constexpr const char* tile_shape_error(int rows, int cols, int pad) {
  if (rows < 1) return "a tile needs at least one row (rows must be >= 1)";
  if (cols < 1) return "a tile needs at least one column (cols must be >= 1)";
  if (pad < 0) return "the padding after each row cannot be negative (pad must be >= 0)";
  if (static_cast<long long>(rows) * (static_cast<long long>(cols) + pad) >= (1LL << 31))
    return "tile storage rows * (cols + pad) does not fit in a 32-bit element offset";
  return nullptr;
}

/// A RuntimeTile over memory you provide (at least rows * (cols + pad) elements, aligned for T).
/// The shape is checked in debug builds.
template <class T>
SMEMTILE_HOST_DEVICE constexpr RuntimeTile<T> make_runtime_tile(T* data, int rows, int cols, int pad = 0) {
  SMEMTILE_CHECK(tile_shape_error(rows, cols, pad) == nullptr,
                 "make_runtime_tile: invalid tile shape (rows >= 1, cols >= 1, pad >= 0, storage < 2^31)", rows,
                 cols, pad, 0);
  return RuntimeTile<T>{data, RuntimePaddedLayout{rows, cols, pad}};
}

/// A RuntimeTile1D of `size` elements over memory you provide.
template <class T>
SMEMTILE_HOST_DEVICE constexpr RuntimeTile1D<T> make_runtime_tile_1d(T* data, int size) {
  SMEMTILE_CHECK(size >= 1, "make_runtime_tile_1d: a 1D tile needs at least one element", size, 0, 0, 0);
  return RuntimeTile1D<T>{data, RuntimeLinearLayout{size}};
}

}  // namespace smemtile
