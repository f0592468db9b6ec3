// smemtile/core/halo_layout.cuh: a tile's interior with a halo around it, shape in the type.
//
//   __shared__ smemtile::StaticHaloTile<float, 8, 32, 1> t;  // 8 x 32 interior, one row/column of halo
//   t(-1, c) is the row above the interior, t(r, 32) the column right of it; t.rows() == 8.
//   smemtile::copy_global_to_tile(in, origin, t, smemtile::boundary::clamp);  // interior and halo
//
// The storage is (Rows + 2 HaloRows) x (Cols + 2 HaloCols + Pad), row-major; (0, 0) is the first
// interior element. Copies into it fill the halo too; copies out of it write the interior.
// A halo wider than the stencil's radius is allowed (and used by device_stencil to keep rows
// 16-byte aligned): it is filled like the rest.
#pragma once

#include "../config.cuh"  // SMEMTILE_HOST_DEVICE
#include "coord.cuh"      // Coord
#include "layout.cuh"     // detail::rows_per_bank_period

namespace smemtile {

/// Rows x Cols interior with HaloRows rows above and below and HaloCols columns left and right,
/// Pad unused elements after each storage row. Rank 1: one row, indexed t(i), halo t(-HaloCols) ...
template <int Rows, int Cols, int HaloRows, int HaloCols, int Pad = 0, int Rank = 2>
struct HaloLayout {
  static_assert(Rows > 0 && Cols > 0, "smemtile::HaloLayout: the interior needs at least one row and one column");
  static_assert(HaloRows >= 0 && HaloCols >= 0 && Pad >= 0, "smemtile::HaloLayout: halo and pad cannot be negative");
  static_assert(Rank == 2 || (Rank == 1 && Rows == 1 && HaloRows == 0),
                "smemtile::HaloLayout: a 1D halo layout has one row and no halo rows");
  static_assert(static_cast<long long>(Rows + 2 * HaloRows) * (Cols + 2 * HaloCols + Pad) < (1LL << 31),
                "smemtile: tile storage does not fit in a 32-bit element offset");

  static constexpr bool is_static = true;  ///< the shape is in the type
  static constexpr int rank = Rank;        ///< 1: t(i); 2: t(row, col)
  static constexpr int vector_bytes = 16;  ///< storage rows are contiguous
  static constexpr int base_alignment = 1; ///< no alignment beyond the element's

  /// Interior rows.
  SMEMTILE_HOST_DEVICE static constexpr int rows() { return Rows; }
  /// Interior columns.
  SMEMTILE_HOST_DEVICE static constexpr int cols() { return Cols; }
  /// The halo: rows above and below, columns left and right.
  SMEMTILE_HOST_DEVICE static constexpr Coord reach() { return Coord{HaloRows, HaloCols}; }
  /// Elements from the start of one storage row to the next.
  SMEMTILE_HOST_DEVICE static constexpr int row_stride() { return Cols + 2 * HaloCols + Pad; }
  /// Elements of storage, halo and padding included.
  SMEMTILE_HOST_DEVICE static constexpr int storage_size() { return (Rows + 2 * HaloRows) * row_stride(); }
  /// Storage offset of (row, col), counted from the interior's first element.
  SMEMTILE_HOST_DEVICE static constexpr int offset(int row, int col) {
    return (row + HaloRows) * row_stride() + col + HaloCols;
  }
  /// After how many rows the bank pattern repeats (every address moved by a multiple of 128 bytes).
  SMEMTILE_HOST_DEVICE static constexpr int bank_period_rows(int elem_bytes) {
    return detail::rows_per_bank_period(row_stride() * elem_bytes);
  }
  /// Whether (row, col) may be accessed: the interior widened by the halo.
  SMEMTILE_HOST_DEVICE static constexpr bool contains(int row, int col) {
    return row >= -HaloRows && row < Rows + HaloRows && col >= -HaloCols && col < Cols + HaloCols;
  }
};

/// layout_contains for a HaloLayout: the interior widened by the halo.
template <int R, int C, int HR, int HC, int P, int K>
SMEMTILE_HOST_DEVICE constexpr bool layout_contains(const HaloLayout<R, C, HR, HC, P, K>& layout, int row, int col) {
  return layout.contains(row, col);
}
/// layout_reach for a HaloLayout: its halo.
template <int R, int C, int HR, int HC, int P, int K>
SMEMTILE_HOST_DEVICE constexpr Coord layout_reach(const HaloLayout<R, C, HR, HC, P, K>&) {
  return Coord{HR, HC};
}

/// The cells of a halo tile that lie outside an array and that a stencil of `radius` reads: the
/// tile's interior (`interior` rows x cols, its first element at `origin`, inside the array)
/// widened by `radius` on every side, clipped to the reach of the interior points inside the
/// array, minus the array. After a load that fills zeros outside (TMA) a boundary policy's values
/// go there: as many cells as the tile's edge outside, not its area. `whole` takes the widened
/// region, inside or not (a plane outside a volume under a fill policy). Tile coordinates: (0, 0)
/// is the interior's first element. Cells go top band, bottom band (whole widened rows), then the
/// side columns of the rows between.
struct HaloFrameOutside {
  int row_first;    ///< first tile row read (-radius)
  int row_in;       ///< first tile row inside the array
  int row_past_in;  ///< first tile row read past the array (row_end where none)
  int row_end;      ///< one past the last tile row read
  int col_first;    ///< first tile column read (-radius)
  int col_in;       ///< first tile column inside the array
  int col_past_in;  ///< first tile column read past the array (col_end where none)
  int col_end;      ///< one past the last tile column read

  /// Width of the rows read.
  SMEMTILE_HOST_DEVICE constexpr int width() const { return col_end - col_first; }
  /// Cells of the top and bottom bands.
  SMEMTILE_HOST_DEVICE constexpr int band_cells() const { return (row_in - row_first + row_end - row_past_in) * width(); }
  /// Outside columns of each row between the bands (left and right).
  SMEMTILE_HOST_DEVICE constexpr int side_cols() const { return col_in - col_first + col_end - col_past_in; }
  /// Cells outside the array.
  SMEMTILE_HOST_DEVICE constexpr int cells() const { return band_cells() + (row_past_in - row_in) * side_cols(); }
  /// Cell k (0 <= k < cells()), in tile coordinates.
  SMEMTILE_HOST_DEVICE constexpr Coord cell(int k) const {
    const int top = (row_in - row_first) * width();
    if (k < top) return Coord{row_first + k / width(), col_first + k % width()};
    if (k < band_cells()) return Coord{row_past_in + (k - top) / width(), col_first + (k - top) % width()};
    const int s = k - band_cells(), left = col_in - col_first, c = s % side_cols();
    return Coord{row_in + s / side_cols(), c < left ? col_first + c : col_past_in + c - left};
  }
};

namespace detail {
// One axis of halo_frame_outside: tile positions read [first, end), inside [in, past_in).
struct FrameAxis {
  int first, in, past_in, end;
};
SMEMTILE_HOST_DEVICE constexpr FrameAxis frame_axis(int origin, int interior, int radius, int n) {
  const int beyond = n - origin;  // the first tile position past the array
  const int end = (interior < beyond ? interior : beyond) + radius;
  const int in = -origin > -radius ? -origin : -radius;
  return FrameAxis{-radius, in, beyond < end ? beyond : end, end};
}
}  // namespace detail

/// The frame of the tile at `origin` (see HaloFrameOutside) in an array of rows x cols.
SMEMTILE_HOST_DEVICE constexpr HaloFrameOutside halo_frame_outside(Coord origin, Coord interior, int radius, int rows,
                                                                 int cols, bool whole) {
  const detail::FrameAxis r = detail::frame_axis(origin.row, interior.row, radius, rows);
  const detail::FrameAxis c = detail::frame_axis(origin.col, interior.col, radius, cols);
  if (whole) return HaloFrameOutside{r.first, r.end, r.end, r.end, c.first, c.end, c.end, c.end};
  return HaloFrameOutside{r.first, r.in, r.past_in, r.end, c.first, c.in, c.past_in, c.end};
}

}  // namespace smemtile
