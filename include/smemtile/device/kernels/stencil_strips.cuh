/// \file
/// device_stencil's strips (StencilCompute::star_strips, box_strips): a thread computes a run of up
/// to 16 bytes of consecutive points of a row from vector shared loads and stores them with one
/// vector store.
#pragma once

#include <cstring>      // std::memcpy (register reinterpretation)
#include <type_traits>  // std::remove_cv_t
#include <utility>      // std::declval

#include "../../block/stencil.cuh"        // stencil_offset_allowed
#include "../../block/realign.cuh"        // bytes_across, bytes_across_selected
#include "../../block/thread_group.cuh"   // shuffle_lanes
#include "../../core/row_class_layout.cuh"  // RowClassHaloLayout
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

// The vector of Bytes (1 to 16) bytes a strip moves with one access.
template <int Bytes> struct StripVector;
template <> struct StripVector<1> { using type = unsigned char; };
template <> struct StripVector<2> { using type = unsigned short; };
template <> struct StripVector<4> { using type = unsigned; };
template <> struct StripVector<8> { using type = uint2; };
template <> struct StripVector<16> { using type = uint4; };
template <class T, int Strip>
using strip_vector_t = typename StripVector<Strip * static_cast<int>(sizeof(T))>::type;

// Whether a layout shifts its rows (RowClassHaloLayout): readers add shift(row) to aligned_offset.
template <class Layout>
inline constexpr bool shifts_rows = false;
template <int R, int C, int Re, int H, int E, bool Q>
inline constexpr bool shifts_rows<RowClassHaloLayout<R, C, Re, H, E, Q>> = true;

// The Strip elements of an aligned run of a plane's row (Strip * sizeof(T) bytes), into registers.
// A shifted row's 16 bytes straddle two aligned vectors: both are read and the run taken from them
// (the shift is the row's, the same for a warp's lanes, which read one row).
template <class T, class Layout, int Strip>
SMEMTILE_DEVICE void load_strip(TileRef<T, Layout> plane, int row, int col, T* values) {
  using V = strip_vector_t<T, Strip>;
  if constexpr (!shifts_rows<Layout>) {
    const V v = *reinterpret_cast<const V*>(plane.data() + Layout{}.offset(row, col));
    std::memcpy(values, &v, sizeof(v));
  } else if constexpr (sizeof(V) == 16) {
    const uint4* const aligned = reinterpret_cast<const uint4*>(plane.data() + Layout::aligned_offset(row, col));
    const int start = plane.layout().shift(row) * static_cast<int>(sizeof(T));
    const uint4 v = sizeof(T) <= 2 ? bytes_across_selected(aligned[0], aligned[1], start)
                                   : bytes_across(aligned[0], aligned[1], start);  // whole words: moves only
    std::memcpy(values, &v, sizeof(v));
  } else {
#pragma unroll
    for (int i = 0; i < Strip; ++i) values[i] = plane(row, col + i);
  }
}

// Stores the Strip results of a strip at `first`, column `col` of a row of `cols`: one vector
// store where the strip lies inside the row and its address is aligned, else element by element
// those inside. (The 2D and 3D strips' one store.)
template <class T, int Strip>
SMEMTILE_DEVICE void store_strip(T* first, int col, int cols, const T* results) {
  using V = strip_vector_t<T, Strip>;
  const unsigned long long address = reinterpret_cast<unsigned long long>(first);
  if (col + Strip <= cols && address % sizeof(V) == 0) {
    V v;
    std::memcpy(&v, results, sizeof(v));
    *reinterpret_cast<V*>(first) = v;
  } else if (sizeof(V) == 16 && sizeof(T) == 4 && col + Strip <= cols) {  // 4 floats off 16 bytes: 8-byte pieces
    unsigned w[4];
    std::memcpy(w, results, sizeof(w));
    if (address % 8 == 0) {
      reinterpret_cast<uint2*>(first)[0] = make_uint2(w[0], w[1]);
      reinterpret_cast<uint2*>(first)[1] = make_uint2(w[2], w[3]);
    } else {
      reinterpret_cast<unsigned*>(first)[0] = w[0];
      *reinterpret_cast<uint2*>(first + 1) = make_uint2(w[1], w[2]);
      reinterpret_cast<unsigned*>(first)[3] = w[3];
    }
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

// The same for a warp's 32 consecutive strips of one row (lane l's at warp_col + l * Strip). 1- and
// 2-byte elements in 16-byte strips leave in aligned 16-byte stores whatever the row's phase: where
// the warp's columns lie inside the row and it is off 16 bytes, each lane completes the aligned
// chunk that starts in its strip with the next lane's leading bytes (four shuffles), and the pieces
// at the warp's two ends go byte by byte from 16 lanes. Wider elements store their strip in the widest
// aligned pieces instead (store_strip): their shuffles would cost one per point.
template <class T, int Strip, class Out>
SMEMTILE_DEVICE void store_strip_row(Out& out, int row, int col, int warp_col, const T* results) {
  if constexpr (sizeof(T) <= 2 && Strip * sizeof(T) == 16) {
    if (row < static_cast<int>(out.extent(0)) && warp_col + 32 * Strip <= static_cast<int>(out.extent(1))) {
      unsigned char* const piece = reinterpret_cast<unsigned char*>(&element(out, row, col));
      const int phase = static_cast<int>(reinterpret_cast<unsigned long long>(&element(out, row, warp_col)) & 15u);
      unsigned own[4];
      std::memcpy(own, results, sizeof(own));
      const uint4 mine = make_uint4(own[0], own[1], own[2], own[3]);
      if (phase == 0) {
        *reinterpret_cast<uint4*>(piece) = mine;
        return;
      }
      const int d = 16 - phase;  // bytes from each lane's strip to the next chunk boundary
      const int lane = static_cast<int>(threadIdx.x % 32);
      const uint4 next = make_uint4(__shfl_down_sync(0xffffffffu, own[0], 1), __shfl_down_sync(0xffffffffu, own[1], 1),
                                    __shfl_down_sync(0xffffffffu, own[2], 1), __shfl_down_sync(0xffffffffu, own[3], 1));
      const uint4 chunk = bytes_across_selected(mine, next, d);
      if (lane < 31) *reinterpret_cast<uint4*>(piece + d) = chunk;
      // The warp's end pieces, lane 0's first d bytes and lane 31's last 16 - d, are 16 bytes
      // together: lane k < 16 stores byte k of them (a few warp instructions, not two lanes'
      // branches through pieces of 8, 4, 2 and 1 bytes).
      const int k = lane & 15, from = k < d ? 0 : 31;
      unsigned end[4];
#pragma unroll
      for (int w = 0; w < 4; ++w) end[w] = __shfl_sync(0xffffffffu, own[w], from);
      const unsigned word = k < 8 ? (k < 4 ? end[0] : end[1]) : (k < 12 ? end[2] : end[3]);
      if (lane < 16) piece[16 * (from - lane) + k] = static_cast<unsigned char>(word >> (8 * (k & 3)));
      return;
    }
  }
  (void)warp_col;
  store_strip<T, Strip>(out, row, col, results);
}

// The neighbourhood of point `s` of a 2D strip, all in registers: `window` holds the rows dy =
// -Radius ... Radius, Width (Strip + 2 Radius) values each, the strip's first point at [Radius]
// (a star's rows other than the centre hold the strip's columns only).
template <int Radius, StencilShape Shape, class T, int Width>
struct StripNeighborhood2D {
  const T* window;  // (2 Radius + 1) x Width
  int s;            // the point's position in the strip

  SMEMTILE_DEVICE T center() const { return window[Radius * Width + Radius + s]; }
  SMEMTILE_DEVICE T operator()(int dy, int dx) const {
    SMEMTILE_CHECK(stencil_offset_allowed(Shape, Radius, 0, dy, dx),
                   "stencil: offset (dz, dy, dx) beyond the radius, or off the axes of a star stencil", 0, dy, dx,
                   Radius);
    return window[(Radius + dy) * Width + Radius + s + dx];
  }
};

// The Radius values on each side of a strip's row (row[Radius ... Radius + Strip - 1] loaded): the
// neighbouring lanes' (shuffles), the first and last lanes' from the tile's row r.
template <int Radius, int Strip, class T, class Layout>
SMEMTILE_DEVICE void strip_sides(TileRef<T, Layout> tile, int r, int col, int lane, T (&row)[Strip + 2 * Radius]) {
#pragma unroll
  for (int d = 1; d <= Radius; ++d) {
    // Column col - d is element (Strip - d) mod Strip of the strip `lanes` to the left; col +
    // Strip - 1 + d element (d - 1) mod Strip of the one `lanes` to the right.
    const int lanes = (d + Strip - 1) / Strip, left_e = lanes * Strip - d, right_e = d - 1 - (lanes - 1) * Strip;
    T left = shuffle_lanes<true>(0xffffffffu, row[Radius + left_e], lanes);
    T right = shuffle_lanes<false>(0xffffffffu, row[Radius + right_e], lanes);
    if (lane < lanes) left = tile(r, col - d);
    if (lane >= 32 - lanes) right = tile(r, col + Strip - 1 + d);
    row[Radius - d] = left;
    row[Radius + Strip - 1 + d] = right;
  }
}

// A separable op's view of a strip's row around point `s` (across()), and of the window's partials
// of point `s` (down()).
template <int Radius, class T>
struct StripRow {
  const T* row;  // the point's value at [Radius]
  SMEMTILE_DEVICE T operator()(int dx) const {
    SMEMTILE_CHECK(dx >= -Radius && dx <= Radius, "stencil: across() read (dy, dx, -, radius) beyond the radius", 0, dx,
                   0, Radius);
    return row[Radius + dx];
  }
};
// The type of a separable op's across() partial of a row of T.
template <class Op, class T, int Radius>
using separable_row_t = decltype(std::declval<const Op&>().across(StripRow<Radius, T>{nullptr}));

template <int Radius, class P, int Strip>
struct StripPartials {
  const P (*partials)[Strip];  // rows (planes) d = -Radius ... Radius
  int s;
  SMEMTILE_DEVICE P operator()(int d) const {
    SMEMTILE_CHECK(d >= -Radius && d <= Radius, "stencil: down() or through() read (d, -, -, radius) beyond the radius",
                   d, 0, 0, Radius);
    return partials[Radius + d][s];
  }
};

// The across() partials of the strip's points on tile row r.
template <int Radius, int Strip, class T, class Layout, class Op, class P>
SMEMTILE_DEVICE void strip_row_partials(TileRef<T, Layout> tile, int r, int col, int lane, const Op& op, P (&partials)[Strip]) {
  T row[Strip + 2 * Radius];
  load_strip<T, Layout, Strip>(tile, r, col, &row[Radius]);
  strip_sides<Radius, Strip>(tile, r, col, lane, row);
#pragma unroll
  for (int e = 0; e < Strip; ++e) partials[e] = op.across(StripRow<Radius, T>{row + e});
}

// box_strips for a SeparableStencilOp: as strips_2d, with each row's across() partials in the
// window instead of its values, so a row is reduced once for the 2 Radius + 1 points above and
// below it.
template <class Policy, int Radius, class T, class Layout, class Op, class Out>
SMEMTILE_DEVICE void separable_strips_2d(TileRef<T, Layout> tile, Coord origin, const Op& op, Out& out) {
  constexpr int Rows = Policy::rows, Cols = Policy::cols, warps = Policy::warps;
  constexpr int strip = stencil_strip_points(static_cast<int>(sizeof(T)), Cols);
  using P = separable_row_t<Op, T, Radius>;
  const int lane = static_cast<int>(threadIdx.x) % 32, first_row = static_cast<int>(threadIdx.x) / 32 * (Rows / warps);
#pragma unroll
  for (int i = 0; i < Cols / (32 * strip); ++i) {
    const int col = (lane + 32 * i) * strip;
    P window[2 * Radius + 1][strip];  // partials of rows r - Radius ... r + Radius
#pragma unroll
    for (int d = 1; d <= 2 * Radius; ++d) strip_row_partials<Radius, strip>(tile, first_row - Radius - 1 + d, col, lane, op, window[d]);
#pragma unroll
    for (int j = 0; j < Rows / warps; ++j) {
      const int r = first_row + j;
#pragma unroll
      for (int d = 0; d < 2 * Radius; ++d)
#pragma unroll
        for (int e = 0; e < strip; ++e) window[d][e] = window[d + 1][e];
      strip_row_partials<Radius, strip>(tile, r + Radius, col, lane, op, window[2 * Radius]);
      T results[strip];
#pragma unroll
      for (int e = 0; e < strip; ++e) results[e] = static_cast<T>(op.down(StripPartials<Radius, P, strip>{window, e}));
      store_strip_row<T, strip>(out, origin.row + r, origin.col + col, origin.col + 32 * i * strip, results);
    }
  }
}

// 2D stencils by strips (StencilCompute::star_strips, box_strips): warp w computes rows w * Rows /
// warps ..., lane l the strips of Strip (stencil_strip_points) points starting at columns (l + 32
// i) Strip, down its rows with a window of 2 Radius + 1 rows in registers: per row one vector
// load and the sides from the neighbouring lanes (a box's every row as it enters the window, a
// star's centre row), against one scalar load per neighbour per point; one vector store. The
// whole window stays in registers so that an op's conversions of a value (bytes to float, say)
// are made once per value, not once per neighbour.
template <class Policy, int Radius, StencilShape Shape, class T, class Layout, class Op, class Out>
SMEMTILE_DEVICE void strips_2d(TileRef<T, Layout> tile, Coord origin, Op& op, Out& out) {
  constexpr int Rows = Policy::rows, Cols = Policy::cols, warps = Policy::warps;
  constexpr int strip = stencil_strip_points(static_cast<int>(sizeof(T)), Cols);
  constexpr int width = strip + 2 * Radius;
  constexpr bool box = Shape == StencilShape::box;
  static_assert(Cols % (32 * strip) == 0 && Rows % warps == 0, "whole strips for every lane, Rows / warps rows per warp");
  const int lane = static_cast<int>(threadIdx.x) % 32, first_row = static_cast<int>(threadIdx.x) / 32 * (Rows / warps);
#pragma unroll
  for (int i = 0; i < Cols / (32 * strip); ++i) {
    const int col = (lane + 32 * i) * strip;
    T window[2 * Radius + 1][width];  // rows r - Radius ... r + Radius around the strip computed
#pragma unroll
    for (int d = 1; d <= 2 * Radius; ++d) {
      load_strip<T, Layout, strip>(tile, first_row - Radius - 1 + d, col, &window[d][Radius]);
      if constexpr (box) strip_sides<Radius, strip>(tile, first_row - Radius - 1 + d, col, lane, window[d]);
    }
#pragma unroll
    for (int j = 0; j < Rows / warps; ++j) {
      const int r = first_row + j;
#pragma unroll
      for (int d = 0; d < 2 * Radius; ++d)  // a star's rows have sides only while they are the centre
#pragma unroll
        for (int e = box ? 0 : Radius; e < (box ? width : Radius + strip); ++e) window[d][e] = window[d + 1][e];
      load_strip<T, Layout, strip>(tile, r + Radius, col, &window[2 * Radius][Radius]);
      if constexpr (box) strip_sides<Radius, strip>(tile, r + Radius, col, lane, window[2 * Radius]);
      else strip_sides<Radius, strip>(tile, r, col, lane, window[Radius]);
      T results[strip];
#pragma unroll
      for (int e = 0; e < strip; ++e)
        results[e] = static_cast<T>(op(StripNeighborhood2D<Radius, Shape, T, width>{&window[0][0], e}));
      store_strip_row<T, strip>(out, origin.row + r, origin.col + col, origin.col + 32 * i * strip, results);
    }
  }
}

#endif  // __CUDACC__

}  // namespace detail
}  // namespace smemtile
