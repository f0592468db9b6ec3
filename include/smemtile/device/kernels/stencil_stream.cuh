/// \file
/// device_stencil's 2D stream (StencilLoader::stream, StencilStreamPolicy): each warp streams a
/// strip of columns down the rows with the rows in registers. No shared memory and no barrier.
//
// Lane l of a warp holds columns x0 + l + 32 v (v < V) of each row, so every load and store of a
// row is 32 consecutive elements: coalesced whatever the row's alignment. The warp keeps a ring of
// S = 2 Radius + 1 + Ahead rows: the window a point reads and Ahead rows loading. A row's x
// neighbours come from the lanes beside (shuffles); one more register per row, `beyond`, holds the
// Radius columns past each side of the strip (lanes 0 ... R - 1: right of it; 32 - R ... 31: left of
// it), so the lanes at the strip's ends read them as if they were one more value before and after.
// The boundary policy applies to the row and column indices loaded: a row outside maps (or fills)
// once per row, columns once per strip; strips away from the edges test nothing.
#pragma once

#include "../../block/stencil.cuh"        // StencilShape, stencil_offset_allowed
#include "../../block/thread_group.cuh"   // shuffle_from
#include "../../core/boundary.cuh"        // map_index
#include "../../core/global_view.cuh"     // GlobalArray
#include "../../core/vector_type.cuh"     // detail::VectorOf
#include "../tuning/stencil_policy.cuh"   // StencilStreamPolicy
#include "stencil_common.cuh"             // element

namespace smemtile {
namespace detail {

#if defined(__CUDACC__)

// *p through the read-only data path (`in` and `out` never overlap: device_stencil refuses it).
template <class T>
SMEMTILE_DEVICE T load_stream_value(const T* p) {
  using Word = typename VectorOf<static_cast<int>(sizeof(T))>::type;
  const Word word = __ldg(reinterpret_cast<const Word*>(p));
  T value;
  __builtin_memcpy(&value, &word, sizeof(T));
  return value;
}

// The values `dx` (0 < |dx| <= Radius) columns right of this lane's V values `e` of a row, `beyond`
// the row's columns past the strip (see above): V + 1 shuffles, all from lane (lane + dx) % 32.
template <int V, class T>
SMEMTILE_DEVICE void stream_shifted_row(const T (&e)[V], T beyond, int dx, T (&shifted)[V]) {
  const int lane = static_cast<int>(threadIdx.x % 32);
  const int source = (lane + dx) & 31;
  T row[V + 2];  // beyond, e[0] ... e[V - 1], beyond: the row as the lanes hold it, with both ends
  row[0] = row[V + 1] = beyond;
#pragma unroll
  for (int v = 0; v < V; ++v) row[v + 1] = e[v];
  T moved[V + 1];  // dx < 0: moved[j] from row[j] (value j - 1); dx > 0: from row[j + 1] (value j)
#pragma unroll
  for (int j = 0; j <= V; ++j) moved[j] = shuffle_from(0xffffffffu, row[dx < 0 ? j : j + 1], source);
  const bool wraps = dx < 0 ? lane + dx < 0 : lane + dx >= 32;  // the neighbour is the next (previous) value's
#pragma unroll
  for (int v = 0; v < V; ++v) shifted[v] = dx < 0 ? (wraps ? moved[v] : moved[v + 1]) : (wraps ? moved[v + 1] : moved[v]);
}

// Index 0 ... 2R - 1 of the shifted copies for dx = -R ... -1, 1 ... R.
SMEMTILE_HOST_DEVICE constexpr int stream_shift_index(int dx, int radius) { return dx < 0 ? dx + radius : dx + radius - 1; }
SMEMTILE_HOST_DEVICE constexpr int stream_shift_dx(int index, int radius) { return index < radius ? index - radius : index - radius + 1; }

// The neighbourhood of value v of the row in ring slot `centre`: rows [slot][v], their shifted
// copies [slot][stream_shift_index(dx)][v] (computed for the rows a stencil of this shape reads).
template <int Radius, StencilShape Shape, class T, int V, int Slots>
struct StreamNeighborhood2D {
  const T (*rows)[V];
  const T (*shifted)[2 * Radius][V];
  int centre;
  int v;

  SMEMTILE_DEVICE T center() const { return rows[centre][v]; }
  SMEMTILE_DEVICE T operator()(int dy, int dx) const {
    SMEMTILE_CHECK(stencil_offset_allowed(Shape, Radius, 0, dy, dx),
                   "stencil: offset (dz, dy, dx) beyond the radius, or off the axes of a star stencil", 0, dy, dx,
                   Radius);
    const int slot = (centre + dy + Slots) % Slots;
    return dx == 0 ? rows[slot][v] : shifted[slot][stream_shift_index(dx, Radius)][v];
  }
};

// Where a lane of a strip at x0 reads its columns: each value's column and the `beyond` column as
// the boundary maps them, and which lie inside the array (fill policies). Interior strips use none.
template <int V>
struct StreamColumns {
  int col[V];
  int beyond_col;
  bool inside[V];
  bool beyond_inside;
};

// The column this lane's `beyond` value holds (lanes Radius ... 31 - Radius hold none; their
// column is the one left of the strip they would read, never loaded).
template <int V, int Radius>
SMEMTILE_DEVICE int stream_beyond_column(int x0, int lane) {
  return lane < Radius ? x0 + 32 * V + lane : x0 - 32 + lane;
}

template <int V, int Radius, class Boundary>
SMEMTILE_DEVICE StreamColumns<V> stream_columns(int x0, int nx) {
  const int lane = static_cast<int>(threadIdx.x % 32);
  StreamColumns<V> c{};
#pragma unroll
  for (int v = 0; v < V; ++v) {
    const int x = x0 + lane + 32 * v;
    c.inside[v] = x < nx;
    if constexpr (Boundary::maps_index) c.col[v] = Boundary::map_index(x, nx);
    else c.col[v] = x;
  }
  const int x = stream_beyond_column<V, Radius>(x0, lane);
  c.beyond_inside = x >= 0 && x < nx;
  if constexpr (Boundary::maps_index) c.beyond_col = Boundary::map_index(x, nx);
  else c.beyond_col = x;
  return c;
}

// Row y of the strip into e and beyond: the row the boundary maps y to (or its fill), the columns
// `columns` gives (Interior: the strip's own, all inside).
template <int V, int Radius, bool Interior, class T, class Boundary>
SMEMTILE_DEVICE void stream_load_row(const GlobalArray<const T, 2>& in, int y, int x0, const StreamColumns<V>& columns,
                                     const Boundary& boundary, T (&e)[V], T& beyond) {
  const int lane = static_cast<int>(threadIdx.x % 32), ny = static_cast<int>(in.extent(0));
  const bool beyond_lane = lane < Radius || lane >= 32 - Radius;
  T fill{};
  if constexpr (!Boundary::maps_index) {
    fill = boundary.template value<T>();
    if (y < 0 || y >= ny) {
#pragma unroll
      for (int v = 0; v < V; ++v) e[v] = fill;
      beyond = fill;
      return;
    }
  } else {
    y = Boundary::map_index(y, ny);
  }
  const T* const row = in.data_handle() + static_cast<long long>(y) * in.stride(0);
  if constexpr (Interior) {
    const T* const own = row + x0 + lane;
#pragma unroll
    for (int v = 0; v < V; ++v) e[v] = load_stream_value(own + 32 * v);
    beyond = beyond_lane ? load_stream_value(row + stream_beyond_column<V, Radius>(x0, lane)) : fill;
  } else {
    constexpr bool fills = !Boundary::maps_index;
#pragma unroll
    for (int v = 0; v < V; ++v) e[v] = !fills || columns.inside[v] ? load_stream_value(row + columns.col[v]) : fill;
    beyond = beyond_lane && (!fills || columns.beyond_inside) ? load_stream_value(row + columns.beyond_col) : fill;
  }
}

// One strip: rows y0 ... y1 - 1 of columns x0 ... x0 + 32 V - 1 (those inside the array stored).
template <class Policy, int Radius, StencilShape Shape, bool Interior, class T, class Boundary, class Op>
SMEMTILE_DEVICE void stream_strip(const GlobalArray<const T, 2>& in, const GlobalArray<T, 2>& out, int x0, int y0,
                                  int y1, const Boundary& boundary, Op& op) {
  constexpr int V = Policy::columns, R = Radius, S = 2 * Radius + 1 + Policy::ahead;
  constexpr bool box = Shape == StencilShape::box;  // box: every window row shifted; star: the centre row
  const int lane = static_cast<int>(threadIdx.x % 32), nx = static_cast<int>(in.extent(1));
  StreamColumns<V> columns{};
  if constexpr (!Interior) columns = stream_columns<V, Radius, Boundary>(x0, nx);
  T rows[S][V], beyond[S], shifted[S][2 * Radius][V];
  const auto load = [&](int y, int slot) {
    stream_load_row<V, Radius, Interior>(in, y, x0, columns, boundary, rows[slot], beyond[slot]);
  };
  const auto shift = [&](int slot) {
#pragma unroll
    for (int d = 0; d < 2 * Radius; ++d) stream_shifted_row(rows[slot], beyond[slot], stream_shift_dx(d, R), shifted[slot][d]);
  };
#pragma unroll
  for (int s = 0; s < S - 1; ++s) load(y0 - R + s, s);  // rows y0 - R ... y0 + R + Ahead - 1
  if constexpr (box) {
#pragma unroll
    for (int s = 0; s < 2 * Radius; ++s) shift(s);
  }
  T* const first = &element(out, 0, x0) + lane;
  for (int y = y0; y < y1; y += S) {
#pragma unroll
    for (int k = 0; k < S; ++k) {  // row y + k in slot (k + R) % S: every slot index is known here
      if (y + k >= y1) break;
      if (y + k + R + Policy::ahead < y1 + R) load(y + k + R + Policy::ahead, (k + S - 1) % S);
      shift(box ? (k + 2 * R) % S : (k + R) % S);
      T* const row = first + static_cast<long long>(y + k) * out.stride(0);
#pragma unroll
      for (int v = 0; v < V; ++v) {
        const T value = static_cast<T>(op(StreamNeighborhood2D<Radius, Shape, T, V, S>{rows, shifted, (k + R) % S, v}));
        if (Interior || x0 + lane + 32 * v < nx) row[32 * v] = value;
      }
    }
  }
}

// Strip tasks in turn: task t is strip t % strips of rows (t / strips) * Policy::rows ..., one per
// warp, neighbouring warps on neighbouring strips of the same rows.
template <class Policy, int Radius, StencilShape Shape, class T, class Boundary, class Op>
__global__ void __launch_bounds__(Policy::threads, Policy::min_blocks)
    stencil_stream_kernel(GlobalArray<const T, 2> in, GlobalArray<T, 2> out, Boundary boundary, Op op, int strips,
                          long long tasks) {
  const int ny = static_cast<int>(in.extent(0)), nx = static_cast<int>(in.extent(1));
  const long long step = static_cast<long long>(gridDim.x) * Policy::warps;
  for (long long t = static_cast<long long>(blockIdx.x) * Policy::warps + threadIdx.x / 32; t < tasks; t += step) {
    const int x0 = static_cast<int>(t % strips) * Policy::cols, y0 = static_cast<int>(t / strips) * Policy::rows;
    const int y1 = y0 + Policy::rows < ny ? y0 + Policy::rows : ny;
    if (x0 - Radius >= 0 && x0 + Policy::cols + Radius <= nx)
      stream_strip<Policy, Radius, Shape, true>(in, out, x0, y0, y1, boundary, op);
    else
      stream_strip<Policy, Radius, Shape, false>(in, out, x0, y0, y1, boundary, op);
  }
}

#endif  // __CUDACC__

}  // namespace detail
}  // namespace smemtile
