/// \file
/// device_stencil's star strips (StencilCompute::star_strips): a thread computes 16 bytes of
/// consecutive points of a row from 16-byte shared loads and stores them with one 16-byte store.
#pragma once

#include <cstring>      // std::memcpy (register reinterpretation)

#include "../../block/stencil.cuh"        // stencil_offset_allowed
#include "../../block/thread_group.cuh"   // shuffle_lanes
#include "../tuning/stencil_policy.cuh"   // stencil_strip_side
#include "stencil_common.cuh"             // element, stencil_point

namespace smemtile {
namespace detail {

#if defined(__CUDACC__)

// The values a strip's row holds on each side of its Strip (16 / sizeof(T)) points
// (stencil_strip_side, the tuning's one definition).
template <class T>
SMEMTILE_HOST_DEVICE constexpr int strip_side(int radius) {
  return stencil_strip_side(static_cast<int>(sizeof(T)), radius);
}

// The Strip (16 / sizeof(T)) elements of a 16-byte aligned run of a plane's row, into registers.
template <class T, class Layout, int Strip>
SMEMTILE_DEVICE void load_strip(TileRef<T, Layout> plane, int row, int col, T* values) {
  static_assert(Strip * sizeof(T) == 16, "a strip is one 16-byte vector");
  const uint4 v = *reinterpret_cast<const uint4*>(plane.data() + Layout{}.offset(row, col));
  std::memcpy(values, &v, sizeof(v));
}

// Stores the Strip results of a strip at `first`, column `col` of a row of `cols`: one 16-byte
// store where the strip lies inside the row and its address is aligned, else element by element
// those inside. (The 2D and 3D strips' one store.)
template <class T, int Strip>
SMEMTILE_DEVICE void store_strip(T* first, int col, int cols, const T* results) {
  if (col + Strip <= cols && reinterpret_cast<unsigned long long>(first) % 16 == 0) {
    uint4 v;
    std::memcpy(&v, results, sizeof(v));
    *reinterpret_cast<uint4*>(first) = v;
  } else {
#pragma unroll
    for (int i = 0; i < Strip; ++i)
      if (col + i < cols) first[i] = results[i];
  }
}

// The same at out(row, col ...) of a 2D array; nothing where the row lies outside it.
template <class T, int Strip, class Out>
SMEMTILE_DEVICE void store_strip(Out& out, int row, int col, const T* results) {
  if (row >= static_cast<int>(out.extent(0))) return;
  store_strip<T, Strip>(&element(out, row, col), col, static_cast<int>(out.extent(1)), results);
}

// The neighbourhood of point `s` of a strip of consecutive points of one row of a 2D star
// stencil, all in registers: `row` the strip's row with `Side` values on each side, `window` the
// strip's columns in rows dy = -Radius ... Radius (a star reads nothing else).
template <int Radius, class T, int Strip, int Side>
struct StarStripNeighborhood2D {
  const T* row;     // Strip + 2 Side values: the strip's first point at [Side]
  const T* window;  // 2 Radius + 1 rows of Strip values, dy = -Radius first
  int s;            // the point's position in the strip

  SMEMTILE_DEVICE T center() const { return row[Side + s]; }
  SMEMTILE_DEVICE T operator()(int dy, int dx) const {
    SMEMTILE_CHECK(stencil_offset_allowed(StencilShape::star, Radius, 0, dy, dx),
                   "stencil: offset (dz, dy, dx) beyond the radius, or off the axes of a star stencil", 0, dy, dx,
                   Radius);
    return dy == 0 ? row[Side + s + dx] : window[(Radius + dy) * Strip + s];
  }
};

// 2D star stencils whose tile rows give every lane whole 16-byte strips (Strip = 16 / sizeof(T)
// points): warp w computes rows w * Rows / warps ..., lane l the strips starting at columns (l + 32 i)
// Strip, reading the tile in 16-byte vectors rather than one element per neighbour per point:
// down its rows a window of 2 Radius + 1 strips (one new vector per row). The row's Radius values
// on either side are the neighbouring lanes' (shuffles); the first and last lanes read theirs.
// Results go out as 16-byte stores. Floats, 5-point stencil: per 4 points one vector load (4
// wavefronts) and two one-lane loads, against 5 to 20 scalar loads; one store against 4.
// (Loading the sides as vectors would not do: the compiler narrows a vector of which one element
// is used to a load of every fourth word, 4 wavefronts for 128 bytes.)
template <class Policy, int Radius, class T, class Layout, class Op, class Out>
SMEMTILE_DEVICE void star_strips_2d(TileRef<T, Layout> tile, Coord origin, Op& op, Out& out) {
  constexpr int Rows = Policy::rows, Cols = Policy::cols, warps = Policy::warps;
  constexpr int strip = 16 / static_cast<int>(sizeof(T));
  constexpr int side = strip_side<T>(Radius);
  static_assert(Cols % (32 * strip) == 0 && Rows % warps == 0, "whole strips for every lane, Rows / warps rows per warp");
  const int lane = static_cast<int>(threadIdx.x) % 32, first_row = static_cast<int>(threadIdx.x) / 32 * (Rows / warps);
#pragma unroll
  for (int i = 0; i < Cols / (32 * strip); ++i) {
    const int col = (lane + 32 * i) * strip;
    T window[2 * Radius + 1][strip];  // rows r - Radius ... r + Radius of the strip computed
#pragma unroll
    for (int d = 1; d <= 2 * Radius; ++d) load_strip<T, Layout, strip>(tile, first_row - Radius - 1 + d, col, window[d]);
#pragma unroll
    for (int j = 0; j < Rows / warps; ++j) {
      const int r = first_row + j;
#pragma unroll
      for (int d = 0; d < 2 * Radius; ++d)
#pragma unroll
        for (int e = 0; e < strip; ++e) window[d][e] = window[d + 1][e];
      load_strip<T, Layout, strip>(tile, r + Radius, col, window[2 * Radius]);
      T row[strip + 2 * side];  // row[side + e]: column col + e, for -Radius <= e < strip + Radius
#pragma unroll
      for (int e = 0; e < strip; ++e) row[side + e] = window[Radius][e];
#pragma unroll
      for (int d = 1; d <= Radius; ++d) {
        // Column col - d is element (strip - d) mod strip of the strip `lanes` to the left; col +
        // strip - 1 + d element (d - 1) mod strip of the one `lanes` to the right.
        const int lanes = (d + strip - 1) / strip, left_e = lanes * strip - d, right_e = d - 1 - (lanes - 1) * strip;
        T left = shuffle_lanes<true>(0xffffffffu, window[Radius][left_e], lanes);
        T right = shuffle_lanes<false>(0xffffffffu, window[Radius][right_e], lanes);
        if (lane < lanes) left = tile(r, col - d);
        if (lane >= 32 - lanes) right = tile(r, col + strip - 1 + d);
        row[side - d] = left;
        row[side + strip - 1 + d] = right;
      }
      T results[strip];
#pragma unroll
      for (int e = 0; e < strip; ++e)
        results[e] = static_cast<T>(op(StarStripNeighborhood2D<Radius, T, strip, side>{row, &window[0][0], e}));
      store_strip<T, strip>(out, origin.row + r, origin.col + col, results);
    }
  }
}

#endif  // __CUDACC__

}  // namespace detail
}  // namespace smemtile
