// smemtile/core/coord.cuh: Coord, a position in a tile or a matrix, and the linear <-> 2D walks.
#pragma once

#include "../config.cuh"  // SMEMTILE_HOST_DEVICE

namespace smemtile {

/// A logical (row, col) position in a tile or a matrix. Rows go down, columns go right; coordinates
/// may be negative (a halo above or left of a tile's interior).
struct Coord {
  int row;  ///< the row, counted from the tile's (or view's) origin
  int col;  ///< the column, counted from the tile's (or view's) origin

  /// Component-wise sum: the position `other` further down and to the right.
  SMEMTILE_HOST_DEVICE constexpr Coord operator+(Coord other) const { return Coord{row + other.row, col + other.col}; }
  /// Component-wise difference: the offset from `other` to this position.
  SMEMTILE_HOST_DEVICE constexpr Coord operator-(Coord other) const { return Coord{row - other.row, col - other.col}; }
  /// Moves this position by `other`.
  SMEMTILE_HOST_DEVICE constexpr Coord& operator+=(Coord other) { return *this = *this + other; }
  /// Moves this position back by `other`.
  SMEMTILE_HOST_DEVICE constexpr Coord& operator-=(Coord other) { return *this = *this - other; }
  /// The same position with row and column swapped: where (row, col) lands in a transpose.
  SMEMTILE_HOST_DEVICE constexpr Coord transposed() const { return Coord{col, row}; }
  /// Both components equal.
  SMEMTILE_HOST_DEVICE constexpr bool operator==(Coord other) const { return row == other.row && col == other.col; }
  /// Some component differs.
  SMEMTILE_HOST_DEVICE constexpr bool operator!=(Coord other) const { return !(*this == other); }
};

/// The k-th position of a row-major walk over a tile with `cols` columns: (k / cols, k % cols).
/// Unsigned arithmetic: this is what hand-written kernels do with threadIdx, and it compiles to the
/// same instructions (a compile-time `cols` folds to shifts and masks).
SMEMTILE_HOST_DEVICE constexpr Coord row_major_coord(unsigned linear, unsigned cols) {
  return Coord{static_cast<int>(linear / cols), static_cast<int>(linear % cols)};
}

/// The k-th position of a column-major walk over a tile with `rows` rows: (k % rows, k / rows).
SMEMTILE_HOST_DEVICE constexpr Coord col_major_coord(unsigned linear, unsigned rows) {
  return Coord{static_cast<int>(linear % rows), static_cast<int>(linear / rows)};
}

}  // namespace smemtile
