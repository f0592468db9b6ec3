/// \file
/// device_stencil_steps's 2D register stream (StencilStepsStreamPolicy): each warp streams a strip
/// of columns down a chunk of rows and applies Depth steps on the way, every step's last 2 R + 1
/// rows in registers. No barrier; shared memory only for clamp's and reflect's edge rows.
//
// Lane l holds V = Policy::columns consecutive x of a row, so a warp holds 32 V columns, of which
// Depth x R on each side are halo: each step loses R valid columns at each end of the strip, and a
// strip keeps its 32 V - 2 Depth R middle columns. x neighbours past a lane's V values come from the
// lanes beside by shuffles. A chunk of rows carries Depth x R rows of halo at each end too.
// At iteration i the warp loads row i of the chunk (Ahead rows ahead, ScalarAhead where rows load
// element by element, in a queue) and step s computes its row i - s R from step s - 1's rows
// i - s R - R ... i - s R + R, all in registers; the loop is unrolled by the rings' size 2R + 1, so
// every ring slot is a compile-time index and the rings move no registers. Tasks at the array's
// sides run the loop's edge copy; the others run it only for the iterations that reach the array's
// top or bottom, and the rows between in a copy holding no edge work (the compiler would otherwise
// predicate that work into every step).
//
// Points outside the array (edge copies only) hold, at every step, what single steps' boundary
// gives there: periodic computes them like any other (they load the rows and columns they wrap
// to); fills give them the fill; clamp and reflect give the R columns nearest each side the values
// of the columns they map to (other lanes), and read the R rows beyond the top and bottom as the
// rows they map to (saved in shared memory when computed). Farther points are computed from
// whatever lies there and never read by a point that is kept.
#pragma once

#include "../../block/stencil.cuh"        // StencilShape, stencil_offset_allowed
#include "../../block/thread_group.cuh"   // shuffle_lanes, shuffle_from
#include "../../core/boundary.cuh"        // boundary_source_index
#include "../../core/global_view.cuh"     // GlobalArray
#include "../../core/vector_type.cuh"     // detail::VectorOf
#include "../tuning/stencil_steps_policy.cuh"  // StencilStepsStreamPolicy
#include "stencil_steps.cuh"              // steps_rewrite_outside
#include "stencil_strips.cuh"             // StripRow, StripPartials, separable_row_t (separable ops)

#include <type_traits>  // std::conditional_t, std::is_trivially_copyable

namespace smemtile {
namespace detail {

#if defined(__CUDACC__)

// The neighbourhood of value v of a step's centre row: `window` the 2R + 1 rows (dy = -R ... R) of
// V values, `wide` rows with R values on each side (a star reads only the centre row's sides).
template <int Radius, StencilShape Shape, class T, int V>
struct StepsStreamNeighborhood {
  static constexpr int wide_rows = Shape == StencilShape::box ? 2 * Radius + 1 : 1;
  const T (&window)[2 * Radius + 1][V];
  const T (&wide)[wide_rows][V + 2 * Radius];
  int v;

  SMEMTILE_DEVICE T center() const { return window[Radius][v]; }
  SMEMTILE_DEVICE T operator()(int dy, int dx) const {
    SMEMTILE_CHECK(stencil_offset_allowed(Shape, Radius, 0, dy, dx),
                   "stencil: offset (dz, dy, dx) beyond the radius, or off the axes of a star stencil", 0, dy, dx,
                   Radius);
    return dx == 0 ? window[Radius + dy][v] : wide[wide_rows == 1 ? 0 : Radius + dy][Radius + v + dx];
  }
};

// V consecutive elements at `p`: as 16-byte (or V x sizeof(T)) loads where Vector says the address
// allows, else one by one.
template <int V, bool Vector, class T>
SMEMTILE_DEVICE void steps_stream_load(const T* p, T (&e)[V]) {
  constexpr int bytes = V * static_cast<int>(sizeof(T)), unit = bytes < 16 ? bytes : 16;
  if constexpr (Vector) {
    using Word = typename VectorOf<unit>::type;
#pragma unroll
    for (int c = 0; c < bytes / unit; ++c) {
      const Word w = __ldg(reinterpret_cast<const Word*>(p) + c);
      __builtin_memcpy(reinterpret_cast<char*>(e) + c * unit, &w, unit);
    }
  } else {
#pragma unroll
    for (int v = 0; v < V; ++v) e[v] = p[v];
  }
}
template <int V, bool Vector, class T>
SMEMTILE_DEVICE void steps_stream_store(T* p, const T (&e)[V]) {
  constexpr int bytes = V * static_cast<int>(sizeof(T)), unit = bytes < 16 ? bytes : 16;
  if constexpr (Vector) {
    using Word = typename VectorOf<unit>::type;
#pragma unroll
    for (int c = 0; c < bytes / unit; ++c) {
      Word w;
      __builtin_memcpy(&w, reinterpret_cast<const char*>(e) + c * unit, unit);
      reinterpret_cast<Word*>(p)[c] = w;
    }
  } else {
#pragma unroll
    for (int v = 0; v < V; ++v) p[v] = e[v];
  }
}

// Value v of this lane's columns (from xs0) of an edge task: its column as loaded (the policy's
// mapping) and whether it lies inside the array. Computed where used: edge tasks keep no tables,
// so the inner tasks' registers are all the loop's.
template <class Boundary>
SMEMTILE_DEVICE int steps_stream_source_column(int x, int nx) {
  if constexpr (Boundary::maps_index) return x >= 0 && x < nx ? x : boundary_source_index<Boundary>(x, nx);
  else return x;
}

// The unsigned integer of an element's size, to move elements by masks.
template <std::size_t Bytes> struct StepsStreamBits;
template <> struct StepsStreamBits<1> { using type = unsigned char; };
template <> struct StepsStreamBits<2> { using type = unsigned short; };
template <> struct StepsStreamBits<4> { using type = unsigned; };
template <> struct StepsStreamBits<8> { using type = unsigned long long; };

// For clamp and reflect: the R columns each side of the array nearest it given the values of the
// columns they map to, in lanes of the same row: Width lanes hold a row's Width x V columns from xs0
// (every lane of the warp takes part in the shuffles; xs0 and nx the same across each row's lanes).
template <int V, int Radius, int Width, class T, class Boundary>
SMEMTILE_DEVICE void steps_map_edge_columns(int xs0, int nx, T (&res)[V]) {
  static_assert(Width >= 1 && Width <= 32 && 32 % Width == 0, "steps_map_edge_columns: rows of 1, 2, 4 ... 32 lanes");
  const int lane = static_cast<int>(threadIdx.x % Width), first = static_cast<int>(threadIdx.x % 32) - lane;
  using Bits = typename StepsStreamBits<sizeof(T)>::type;
  Bits bits[V];
#pragma unroll
  for (int v = 0; v < V; ++v) __builtin_memcpy(&bits[v], &res[v], sizeof(T));
#pragma unroll
  for (int f = 0; f < 2 * Radius; ++f) {  // columns -R ... -1, then nx ... nx + R - 1
    const int x = f < Radius ? f - Radius : nx + f - Radius;
    const int src = boundary_source_index<Boundary>(x, nx) - xs0, dst = x - xs0;
    const bool active = dst >= 0 && dst < Width * V && src >= 0 && src < Width * V;  // the same for the whole row
    // Masks, not selects by index: those the compiler turns into a local array indexed at run time.
    Bits pick = 0;
#pragma unroll
    for (int v = 0; v < V; ++v) pick |= bits[v] & (v == src % V ? ~Bits{0} : Bits{0});
    const Bits got = shuffle_from(0xffffffffu, pick, first + (active ? src / V : 0));
#pragma unroll
    for (int v = 0; v < V; ++v) {
      const Bits mask = active && lane == dst / V && v == dst % V ? ~Bits{0} : Bits{0};
      bits[v] = (bits[v] & ~mask) | (got & mask);
    }
  }
#pragma unroll
  for (int v = 0; v < V; ++v) __builtin_memcpy(&res[v], &bits[v], sizeof(T));
}

// One step's row r (of the array) of this lane's values, outside the array made what single steps
// read there: the fill (rows and, in strips at the array's sides, columns), or (clamp, reflect; strips
// at the sides) for the R columns each side nearest the array, the value of the column it maps to (in
// another lane; every lane of the warp takes part in the shuffles).
template <int V, int Radius, bool EdgeX, class T, class Boundary>
SMEMTILE_DEVICE void steps_stream_fix_outside(int xs0, int nx, int r, int ny, const Boundary& boundary, T (&res)[V]) {
  if constexpr (!Boundary::maps_index) {
    const int lane = static_cast<int>(threadIdx.x % 32);
    const T fill = boundary.template value<T>();
    const bool row_outside = r < 0 || r >= ny;
#pragma unroll
    for (int v = 0; v < V; ++v) {
      const int x = xs0 + lane * V + v;
      res[v] = row_outside || (EdgeX && (x < 0 || x >= nx)) ? fill : res[v];
    }
  } else if constexpr (steps_rewrite_outside<Boundary>) {
    // (rows: steps_stream_save_edge_rows)
    if constexpr (EdgeX) steps_map_edge_columns<V, Radius, 32, T, Boundary>(xs0, nx, res);
  }
}

// A row of this lane's V values with the R values each side from the lanes beside (lanes 0 and 31
// get the far end of the warp: halo, never kept).
template <int Radius, int V, class T>
SMEMTILE_DEVICE void steps_stream_wide_row(const T (&row)[V], T (&wide)[V + 2 * Radius]) {
#pragma unroll
  for (int v = 0; v < V; ++v) wide[Radius + v] = row[v];
#pragma unroll
  for (int d = 1; d <= Radius; ++d) {
    wide[Radius - d] = shuffle_lanes<true>(0xffffffffu, row[V - d], 1);
    wide[Radius + V - 1 + d] = shuffle_lanes<false>(0xffffffffu, row[d - 1], 1);
  }
}

// Step s's row into `res` from the window of step s - 1 around it: the centre row's (boxes: every
// row's) R values each side from the lanes beside, then the op for each of the V values.
template <int Radius, StencilShape Shape, class T, int V, class Op>
SMEMTILE_DEVICE void steps_stream_apply(const T (&window)[2 * Radius + 1][V], Op& op, T (&res)[V]) {
  using Neighborhood = StepsStreamNeighborhood<Radius, Shape, T, V>;
  T wide[Neighborhood::wide_rows][V + 2 * Radius];
#pragma unroll
  for (int w = 0; w < Neighborhood::wide_rows; ++w)
    steps_stream_wide_row<Radius>(window[Neighborhood::wide_rows == 1 ? Radius : w], wide[w]);
#pragma unroll
  for (int v = 0; v < V; ++v) res[v] = static_cast<T>(op(Neighborhood{window, wide, v}));
}

// What the rings of a box stencil's steps hold: rows of values, or for a SeparableStencilOp whose
// across() partial has the element's size, each row's partials (across() of its values), made once
// when the row is loaded or computed: a step's row is then down() of three rings' rows, with no
// shuffles. (Partials of another size take the value rings: the edge rows' shared memory is sized
// by the element.)
template <class Op, class T, int Radius, StencilShape Shape, class = void>
struct StepsStreamRing {
  using type = T;
  static constexpr bool partials = false;
};
// Whether partials of type P fit rings of T. A host compilation pass sees a __device__ across()'s
// deduced return type as void: it takes them as fitting (the host's dispatch then selects the stream as
// the device pass does for ops whose across() returns the element's type; another type only runs
// the value rings where the partials' would have been chosen).
template <class P, class T>
constexpr bool steps_stream_partials_fit() {
  if constexpr (std::is_void<P>::value) return true;
  else return sizeof(P) == sizeof(T) && std::is_trivially_copyable<P>::value;
}
template <class Op, class T, int Radius>
struct StepsStreamRing<Op, T, Radius, StencilShape::box, std::enable_if_t<is_separable_stencil_op<std::remove_cv_t<Op>>>> {
  using Partial = separable_row_t<Op, T, Radius>;
  static constexpr bool partials = steps_stream_partials_fit<Partial, T>();
  using type = std::conditional_t<partials && !std::is_void<Partial>::value, Partial, T>;
};

// The across() partials of a row of this lane's V values (its R values each side from the lanes
// beside, as steps_stream_apply takes them).
template <int Radius, int V, class T, class Op, class P>
SMEMTILE_DEVICE void steps_stream_partials(const T (&row)[V], const Op& op, P (&partials)[V]) {
  T wide[V + 2 * Radius];
  steps_stream_wide_row<Radius>(row, wide);
#pragma unroll
  for (int v = 0; v < V; ++v) partials[v] = op.across(StripRow<Radius, T>{wide + v});
}

// A step's row from the partials of the 2R + 1 rows around it: down() for each of the V values.
template <int Radius, int V, class T, class Op, class P>
SMEMTILE_DEVICE void steps_stream_down(const P (&window)[2 * Radius + 1][V], const Op& op, T (&res)[V]) {
#pragma unroll
  for (int v = 0; v < V; ++v) res[v] = static_cast<T>(op.down(StripPartials<Radius, P, V>{window, v}));
}

// a mod n for the ring slots (a may be negative).
SMEMTILE_HOST_DEVICE constexpr int steps_stream_slot(int a, int n) { return (a % n + n) % n; }

// The rows a clamp or reflect step reads outside the array, kept per warp in shared memory: for
// step s (1 ... Depth - 1) and outside row -d (slot d - 1) or ny - 1 + d (slot R + d - 1), the values
// of the row it maps to, saved when the step computes that row and read in place of the ring's row.
// Only the saves and reads of edge tasks touch them, and they move `res` and `window`, never the
// rings (a branch reading the rings makes the compiler keep them in local memory too).
template <class Policy, int Radius>
SMEMTILE_HOST_DEVICE constexpr int steps_stream_step_edge_rows() {  // elements of one step's, per warp
  return 2 * Radius * 32 * Policy::columns;
}
template <class Policy, int Radius>
SMEMTILE_HOST_DEVICE constexpr long long steps_stream_edge_rows_bytes(int elem_bytes) {
  return static_cast<long long>(Policy::warps) * (Policy::depth - 1) * steps_stream_step_edge_rows<Policy, Radius>() *
         elem_bytes;
}

// This warp's edge rows (clamp, reflect) of step s (1 ... Depth - 1).
template <class Policy, int Radius, class T>
SMEMTILE_DEVICE T* steps_stream_edge_rows(int s) {
  constexpr int step_rows = steps_stream_step_edge_rows<Policy, Radius>();
  return reinterpret_cast<T*>(aligned_dynamic_shared()) + (threadIdx.x / 32 * (Policy::depth - 1) + s - 1) * step_rows;
}

// Step s's row r into the edge rows of outside rows mapping to it (clamp, reflect; edge tasks).
template <int V, int Radius, class T, class Boundary>
SMEMTILE_DEVICE void steps_stream_save_edge_rows(T* rows, int r, int ny, const T (&res)[V]) {
  const int lane = static_cast<int>(threadIdx.x % 32);
#pragma unroll
  for (int d = 1; d <= Radius; ++d) {
    if (boundary_source_index<Boundary>(-d, ny) == r) steps_stream_store<V, false>(rows + ((d - 1) * 32 + lane) * V, res);
    if (boundary_source_index<Boundary>(ny - 1 + d, ny) == r)
      steps_stream_store<V, false>(rows + ((Radius + d - 1) * 32 + lane) * V, res);
  }
}

// The window of a row r that step s computes: its rows outside the array replaced by the rows they
// map to at step s - 1 (`rows`: that step's edge rows).
template <int V, int Radius, class T>
SMEMTILE_DEVICE void steps_stream_read_edge_rows(const T* rows, int r, int ny, T (&window)[2 * Radius + 1][V]) {
  const int lane = static_cast<int>(threadIdx.x % 32);
#pragma unroll
  for (int dy = -Radius; dy <= Radius; ++dy) {
    const int y = r + dy;
    if (y < 0 && y >= -Radius) steps_stream_load<V, false>(rows + ((-y - 1) * 32 + lane) * V, window[Radius + dy]);
    if (y >= ny && y < ny + Radius)
      steps_stream_load<V, false>(rows + ((Radius + y - ny) * 32 + lane) * V, window[Radius + dy]);
  }
}

// Row y of the array into this lane's V values at x: the row mapped (or filled) by the policy in
// tasks reaching outside along y, every column in tasks reaching outside along x.
template <int V, bool Vector, bool EdgeX, bool EdgeY, class T, class Boundary>
SMEMTILE_DEVICE void steps_stream_load_row(const GlobalArray<const T, 2>& in, int y, int x, const Boundary& boundary,
                                           T (&e)[V]) {
  const int ny = static_cast<int>(in.extent(0)), nx = static_cast<int>(in.extent(1));
  T fill{};
  if (EdgeY && (y < 0 || y >= ny)) {
    if constexpr (!Boundary::maps_index) {
      fill = boundary.template value<T>();
#pragma unroll
      for (int v = 0; v < V; ++v) e[v] = fill;
      return;
    } else {
      y = boundary_source_index<Boundary>(y, ny);
    }
  }
  const T* const row = in.data_handle() + static_cast<long long>(y) * in.stride(0);
  if constexpr (!EdgeX) {
    steps_stream_load<V, Vector>(row + x, e);
  } else {
    if constexpr (!Boundary::maps_index) fill = boundary.template value<T>();
#pragma unroll
    for (int v = 0; v < V; ++v) {
      const bool inside = x + v >= 0 && x + v < nx;
      e[v] = Boundary::maps_index || inside ? row[steps_stream_source_column<Boundary>(x + v, nx)] : fill;
    }
  }
}

// Row r (step K) of this lane's values into the array, where the strip keeps them.
template <int V, bool Vector, class T>
SMEMTILE_DEVICE void steps_stream_store_row(const GlobalArray<T, 2>& out, int r, int x, const T (&res)[V]) {
  const int nx = static_cast<int>(out.extent(1));
  T* const to = out.data_handle() + static_cast<long long>(r) * out.stride(0) + x;
  if (x + V <= nx) {
    steps_stream_store<V, Vector>(to, res);
  } else {
#pragma unroll
    for (int v = 0; v < V; ++v)
      if (x + v < nx) to[v] = res[v];
  }
}

// The rows a kernel loads ahead: the policy's Ahead where rows load as vectors, ScalarAhead where
// they load element by element.
template <class Policy, bool Vector>
inline constexpr int steps_stream_ahead = Vector ? Policy::ahead : Policy::scalar_ahead;

// A task's registers: the loaded rows' ring, the rows loading and the rings of steps 1 ... K - 1
// (values, or partials: StepsStreamRing).
template <class T, class Ring, int V, int Radius, int Ahead, int Depth>
struct StepsStreamRings {
  Ring l0[2 * Radius + 1][V];
  T ahead[Ahead > 0 ? Ahead : 1][V];
  Ring lv[Depth - 1][2 * Radius + 1][V];
};

// What a task's loop reads besides its rings: the arrays and boundary (the kernel's parameters, read
// where used), this lane's first column x, the first row the task loads (top) and how many, and
// whether this lane's columns are kept. The rest is recomputed where used (the strip's first
// column, the edge rows), so the inner copy of the loop keeps no register for it.
template <class T, class Boundary>
struct StepsStreamTaskView {
  const GlobalArray<const T, 2>& in;
  const GlobalArray<T, 2>& out;
  const Boundary& boundary;
  int x, top, loads;
  bool store_lane;
  SMEMTILE_DEVICE int ny() const { return static_cast<int>(in.extent(0)); }
  SMEMTILE_DEVICE int nx() const { return static_cast<int>(in.extent(1)); }
  template <int V>
  SMEMTILE_DEVICE int strip_begin() const { return x - static_cast<int>(threadIdx.x % 32) * V; }
};

// Iteration i of a task (p = i mod 2R + 1): row i leaves the queue of rows loading, row i + A joins
// it; step s computes its row top + i - s R from step s - 1's ring, and the last step stores it.
template <class Policy, int Radius, StencilShape Shape, bool Vector, bool EdgeX, bool EdgeY, class T, class Boundary,
          class Op, class Rings>
SMEMTILE_DEVICE void steps_stream_iteration(const StepsStreamTaskView<T, Boundary>& task, Rings& g, Op& op, int p,
                                            int i) {
  constexpr int V = Policy::columns, A = steps_stream_ahead<Policy, Vector>, K = Policy::depth, R = Radius;
  constexpr int KR = K * R, W = 2 * R + 1;
  constexpr bool rewrites = steps_rewrite_outside<Boundary>;
  using Ring = StepsStreamRing<Op, T, Radius, Shape>;
  using P = typename Ring::type;
  const int ny = task.ny();
  if constexpr (A == 0) {
    if constexpr (Ring::partials) {
      T loaded[V] = {};
      if (i < task.loads) steps_stream_load_row<V, Vector, EdgeX, EdgeY>(task.in, task.top + i, task.x, task.boundary, loaded);
      steps_stream_partials<Radius>(loaded, op, g.l0[p]);
    } else if (i < task.loads) {
      steps_stream_load_row<V, Vector, EdgeX, EdgeY>(task.in, task.top + i, task.x, task.boundary, g.l0[p]);
    }
  } else {
    if constexpr (Ring::partials) {
      steps_stream_partials<Radius>(g.ahead[0], op, g.l0[p]);
    } else {
#pragma unroll
      for (int v = 0; v < V; ++v) g.l0[p][v] = g.ahead[0][v];
    }
#pragma unroll
    for (int k = 0; k + 1 < A; ++k)
#pragma unroll
      for (int v = 0; v < V; ++v) g.ahead[k][v] = g.ahead[k + 1][v];
    if (i + A < task.loads)
      steps_stream_load_row<V, Vector, EdgeX, EdgeY>(task.in, task.top + i + A, task.x, task.boundary, g.ahead[A - 1]);
  }
#pragma unroll
  for (int s = 1; s <= K; ++s) {
    const int r = task.top + i - s * R;  // the array row step s computes
    P window[W][V];
    T res[V];
#pragma unroll
    for (int k = 0; k < W * V; ++k)
      window[k / V][k % V] = s == 1 ? g.l0[steps_stream_slot(p - s * R + k / V - R, W)][k % V]
                                    : g.lv[s - 2][steps_stream_slot(p - s * R + k / V - R, W)][k % V];
    if constexpr (EdgeY && rewrites) {
      if (s > 1 && (r < R || r >= ny - R))
        steps_stream_read_edge_rows<V, Radius>(steps_stream_edge_rows<Policy, Radius, P>(s - 1), r, ny, window);
    }
    if constexpr (Ring::partials) steps_stream_down<Radius>(window, op, res);
    else steps_stream_apply<Radius, Shape>(window, op, res);
    if (s < K) {
      if constexpr (EdgeX || EdgeY) {
        steps_stream_fix_outside<V, Radius, EdgeX>(task.template strip_begin<V>(), task.nx(), r, ny, task.boundary, res);
      }
      P kept[V];  // what the ring keeps of the row: its values, or their partials
      if constexpr (Ring::partials) {
        steps_stream_partials<Radius>(res, op, kept);
      } else {
#pragma unroll
        for (int v = 0; v < V; ++v) kept[v] = res[v];
      }
      if constexpr (EdgeY && rewrites) {
        if (r <= R || r >= ny - 1 - R)
          steps_stream_save_edge_rows<V, Radius, P, Boundary>(steps_stream_edge_rows<Policy, Radius, P>(s), r, ny, kept);
      }
#pragma unroll
      for (int v = 0; v < V; ++v) g.lv[s - 1][steps_stream_slot(p - s * R, W)][v] = kept[v];
    } else if (task.store_lane && i >= 2 * KR && i < task.loads) {
      steps_stream_store_row<V, Vector>(task.out, r, task.x, res);
    }
  }
}

// Iterations begin ... end - 1 of a task (multiples of 2R + 1, so every ring slot is a constant).
template <class Policy, int Radius, StencilShape Shape, bool Vector, bool EdgeX, bool EdgeY, class T, class Boundary,
          class Op, class Rings>
SMEMTILE_DEVICE void steps_stream_iterations(const StepsStreamTaskView<T, Boundary>& task, Rings& g, Op& op, int begin,
                                             int end) {
  constexpr int W = 2 * Radius + 1;
  for (int i0 = begin; i0 < end; i0 += W) {
#pragma unroll
    for (int p = 0; p < W; ++p)
      steps_stream_iteration<Policy, Radius, Shape, Vector, EdgeX, EdgeY>(task, g, op, p, i0 + p);
  }
}

// One warp task: rows y0 ... y1 - 1 of the strip whose lanes load columns xs0 ... xs0 + 32 V - 1,
// Depth steps. Strips at the array's sides (EdgeX) run the loop's edge copy throughout; the others
// only the iterations that reach the top or bottom (stencil_steps_stream_parts), so the rows
// between run a copy holding no edge work (the compiler would otherwise predicate that work into
// every step).
template <class Policy, int Radius, StencilShape Shape, bool Vector, bool EdgeX, class T, class Boundary, class Op>
SMEMTILE_DEVICE void steps_stream_task(const GlobalArray<const T, 2>& in, const GlobalArray<T, 2>& out, int xs0, int y0,
                                       int y1, const Boundary& boundary, Op& op) {
  constexpr int V = Policy::columns, A = steps_stream_ahead<Policy, Vector>, K = Policy::depth, R = Radius;
  constexpr int KR = K * R, W = 2 * R + 1;
  const int lane = static_cast<int>(threadIdx.x % 32);
  const StepsStreamTaskView<T, Boundary> task{in, out, boundary, xs0 + lane * V, y0 - KR, y1 - y0 + 2 * KR,
                                              lane * V >= KR && lane * V < 32 * V - KR};  // whole lanes kept
  using Ring = typename StepsStreamRing<Op, T, Radius, Shape>::type;
  StepsStreamRings<T, Ring, V, R, A, K> g;
#pragma unroll
  for (int k = 0; k < W * V; ++k) g.l0[k / V][k % V] = Ring{};
#pragma unroll
  for (int k = 0; k < (K - 1) * W * V; ++k) g.lv[k / (W * V)][k / V % W][k % V] = Ring{};
#pragma unroll
  for (int a = 0; a < A; ++a)
    if (a < task.loads) steps_stream_load_row<V, Vector, EdgeX, true>(in, task.top + a, task.x, boundary, g.ahead[a]);
  if constexpr (EdgeX) {
    steps_stream_iterations<Policy, Radius, Shape, Vector, true, true>(task, g, op, 0, task.loads);
  } else {
    const StencilStepsStreamParts parts = stencil_steps_stream_parts(y0, y1, task.ny(), K, R, A, W);
    steps_stream_iterations<Policy, Radius, Shape, Vector, false, true>(task, g, op, 0, parts.head);
    steps_stream_iterations<Policy, Radius, Shape, Vector, false, false>(task, g, op, parts.head, parts.tail);
    steps_stream_iterations<Policy, Radius, Shape, Vector, false, true>(task, g, op, parts.tail, task.loads);
  }
}

// Warp tasks in turn (stencil_steps_stream_task_at): band after band, neighbouring warps on
// neighbouring strips of the same rows.
template <class Policy, int Radius, StencilShape Shape, bool Vector, class T, class Boundary, class Op>
__global__ void __launch_bounds__(Policy::threads, Policy::min_blocks)
    stencil_steps_stream_kernel(GlobalArray<const T, 2> in, GlobalArray<T, 2> out, Boundary boundary, Op op,
                                StencilStepsStreamPlan plan) {
  constexpr int KR = Policy::depth * Radius, span = 32 * Policy::columns;
  const int ny = static_cast<int>(in.extent(0)), nx = static_cast<int>(in.extent(1));
  const long long stride = static_cast<long long>(gridDim.x) * Policy::warps;
  for (long long t = static_cast<long long>(blockIdx.x) * Policy::warps + threadIdx.x / 32; t < plan.tasks;
       t += stride) {
    const StencilStepsStreamTask task = stencil_steps_stream_task_at(plan, t, ny);
    if (task.y0 >= task.y1) continue;
    const int xs0 = task.strip * (span - 2 * KR) - KR;
    if (xs0 < 0 || xs0 + span > nx)
      steps_stream_task<Policy, Radius, Shape, Vector, true, T>(in, out, xs0, task.y0, task.y1, boundary, op);
    else
      steps_stream_task<Policy, Radius, Shape, Vector, false, T>(in, out, xs0, task.y0, task.y1, boundary, op);
  }
}

#endif  // __CUDACC__

}  // namespace detail
}  // namespace smemtile
