/// \file
/// device_stencil_steps's 3D sweep for star stencils with StencilSweepCompute::vectors: the register
/// sweep (stencil_sweep_registers.cuh) with each thread holding V = 16 / sizeof(T) consecutive x of
/// its run of rows, so shared memory moves 16 bytes at a time and x neighbours come by shuffles.
//
// A plane row's RegionX / V lanes lie side by side in one warp. A point's x neighbours past its
// lane's V values come from the lanes beside (shuffles; the row's first and last lanes get halo
// values, never kept); its y neighbours inside the run from registers, beyond the run from the
// level's ring (16-byte loads); along z from registers, as in the register sweep (same rings, same
// lag of R planes per step, one barrier per sweep step). Each level's plane goes to its ring by
// 16-byte stores, for the runs above and below.
//
// Outside the array, fills give points the fill as they are computed. Clamp and reflect give the R
// columns each side nearest the array the values of the columns they map to (lanes of the same row,
// before the values are kept), and compute the rows within the depth's reach of the array where
// they map to: their y neighbours are read at the mapped row, their x and z neighbours are their
// own (the whole row holds the mapped row's values). Farther points are computed from whatever lies
// there and never read by a point that is kept.
#pragma once

#include "../../block/thread_group.cuh"  // shuffle_lanes
#include "../../core/vector_type.cuh"    // detail::VectorOf
#include "stencil_steps_stream.cuh"      // steps_map_edge_columns
#include "stencil_sweep_registers.cuh"   // rings, loader, windows along z, for_each_sweep_step

namespace smemtile {

namespace detail {

#if defined(__CUDACC__)

// The thread layout of a vector sweep: V elements (16 bytes) per lane, Width lanes per plane row,
// Run rows per thread.
template <class Policy, class T>
struct SweepVectorShape {
  static constexpr int V = 16 / static_cast<int>(sizeof(T)), X = Policy::region_x, Width = X / V;
  static constexpr int Run = Policy::region_y * Width / Policy::threads, RV = Run * V;
  static_assert(sizeof(T) == 4 || sizeof(T) == 8,
                "StencilSweepCompute::vectors: 4- and 8-byte elements (use StencilSweepCompute::registers)");
  static_assert(Width <= 32 && 32 % Width == 0,
                "StencilSweepCompute::vectors: a plane row is 1 to 32 lanes of 16 bytes (RegionX x sizeof(T) = 16 ... 512 "
                "bytes, a power of two)");
  static_assert(Policy::region_y * Width % Policy::threads == 0 && Run >= 1,
                "StencilSweepCompute::vectors: every thread holds a whole run of rows (RegionY x RegionX / V a multiple "
                "of Threads)");
  static_assert(RV <= 32, "StencilSweepCompute::vectors: a thread holds at most 32 points of a plane (a bit each)");
};

// V elements (16 bytes) from or to shared memory at p, 16-byte aligned.
template <int V, class T>
SMEMTILE_DEVICE void sweep_vector_load(const T* p, T (&e)[V]) {
  static_assert(V * sizeof(T) == 16, "sweep_vector_load: 16 bytes");
  using Word = typename VectorOf<16>::type;
  const Word w = *reinterpret_cast<const Word*>(p);
  __builtin_memcpy(e, &w, 16);
}
template <int V, class T>
SMEMTILE_DEVICE void sweep_vector_store(T* p, const T* e) {
  using Word = typename VectorOf<16>::type;
  Word w;
  __builtin_memcpy(&w, e, 16);
  *reinterpret_cast<Word*>(p) = w;
}

// Point (j, v) of a thread's run at plane p (row j, value v of its lane): z neighbours from the window
// ([slot of R + dz][j V + v]), x neighbours from the window's centre plane and `sides` (row j's R
// values left of the lane's, then R right), y neighbours from the centre plane inside the run and
// `ends` beyond it (rows -R ... -1 of the run, then Run ... Run + R - 1). Mapped: every y neighbour
// from `ends`, rows dy = -R ... R of the row that row j maps to.
template <int Radius, StencilShape Shape, class T, int V, int Run, int Phase, bool Mapped>
struct SweepVectorNeighborhood
    : StepsNeighborhoodCalls<3, Radius, Shape, SweepVectorNeighborhood<Radius, Shape, T, V, Run, Phase, Mapped>> {
  const T (*window)[Run * V];
  const T* sides;
  const T (*ends)[V];
  int j, v;
  SMEMTILE_DEVICE T at(int dz, int dy, int dx) const {
    this->check(dz, dy, dx);
    const T* const centre = window[sweep_slot<Radius, Phase>(Radius)];
    if (dz != 0) return window[sweep_slot<Radius, Phase>(Radius + dz)][j * V + v];
    if (dx != 0) {
      const int c = v + dx;
      return c >= 0 && c < V ? centre[j * V + c] : sides[c < 0 ? Radius + c : Radius + c - V];
    }
    if (dy == 0) return centre[j * V + v];
    if (Mapped) return ends[Radius + dy][v];
    const int r = j + dy;
    return r >= 0 && r < Run ? centre[r * V + v] : ends[r < 0 ? Radius + r : Radius + r - Run][v];
  }
};

// Where a thread computes: column x (its first) of rows y_first ... y_first + Run - 1 of the region,
// whose first element is (y0, x0) in an ny x nx plane; `mapped` the rows (a bit each) computed at
// the region row the table `rows` gives (clamp, reflect), `outside` the points (bit j V + v) outside
// the array (fills); edge_x: the region reaches outside along x (clamp, reflect map its columns).
struct SweepVectorPlace {
  int x, y_first, y0, x0, nx;
  unsigned mapped, outside;
  bool edge_x;
  const int* rows;
};

template <class Boundary, int V, int Run>
SMEMTILE_DEVICE SweepVectorPlace sweep_vector_place(const int* rows, int y0, int x0, int y_first, int x, int ny, int nx,
                                                    int region_x, int reach) {
  SweepVectorPlace place{x, y_first, y0, x0, nx, 0u, 0u, x0 < 0 || x0 + region_x > nx, rows};
#pragma unroll
  for (int j = 0; j < Run; ++j) {
    const int row = y0 + y_first + j;
    const bool row_outside = row < 0 || row >= ny;
    if constexpr (steps_rewrite_outside<Boundary>) {
      if (row_outside && stencil_sweep_near(row, ny, reach)) place.mapped |= 1u << j;
    } else if constexpr (!Boundary::maps_index) {
#pragma unroll
      for (int v = 0; v < V; ++v)
        if (row_outside || x0 + x + v < 0 || x0 + x + v >= nx) place.outside |= 1u << (j * V + v);
    }
  }
  return place;
}

// The R values each side of each run row's V (centre plane of `window`), from the lanes beside.
template <int Radius, int V, int Run, int Width, class T>
SMEMTILE_DEVICE void sweep_vector_sides(const T* centre, T (&sides)[Run][2 * Radius]) {
  static_assert(Radius <= V, "StencilSweepCompute::vectors: a radius of at most 16 bytes' worth of elements");
#pragma unroll
  for (int j = 0; j < Run; ++j)
#pragma unroll
    for (int d = 1; d <= Radius; ++d) {
      sides[j][Radius - d] = shuffle_lanes<true>(0xffffffffu, centre[j * V + V - d], 1, Width);
      sides[j][Radius + d - 1] = shuffle_lanes<false>(0xffffffffu, centre[j * V + d - 1], 1, Width);
    }
}

// The run's values at a plane from the step before: `window` (this thread's points along z),
// `plane` the step before's plane in shared memory (region row 0, column 0).
template <int Radius, StencilShape Shape, class T, int X, int Width, int Run, int Phase, bool Edge, class Boundary,
          class Op>
SMEMTILE_DEVICE void sweep_vector_points(const T (&window)[2 * Radius + 1][Run * (X / Width)], const T* plane,
                                         const SweepVectorPlace& place, const Op& op, T (&values)[Run * (X / Width)]) {
  constexpr int V = X / Width;
  T sides[Run][2 * Radius], ends[2 * Radius][V];
  sweep_vector_sides<Radius, V, Run, Width>(window[sweep_slot<Radius, Phase>(Radius)], sides);
  const T* const column = plane + place.x;
#pragma unroll
  for (int i = 0; i < Radius; ++i) {
    sweep_vector_load<V>(column + (place.y_first - Radius + i) * X, ends[i]);
    sweep_vector_load<V>(column + (place.y_first + Run + i) * X, ends[Radius + i]);
  }
#pragma unroll
  for (int j = 0; j < Run; ++j) {
    if (Edge && steps_rewrite_outside<Boundary> && (place.mapped >> j & 1u)) {
      T mapped[2 * Radius + 1][V];
      const int row = place.rows[place.y_first + j] - place.y0;
#pragma unroll
      for (int dy = -Radius; dy <= Radius; ++dy) sweep_vector_load<V>(column + (row + dy) * X, mapped[Radius + dy]);
#pragma unroll
      for (int v = 0; v < V; ++v)
        values[j * V + v] = static_cast<T>(
            op(SweepVectorNeighborhood<Radius, Shape, T, V, Run, Phase, true>{{}, window, sides[j], mapped, j, v}));
    } else {
#pragma unroll
      for (int v = 0; v < V; ++v)
        values[j * V + v] = static_cast<T>(
            op(SweepVectorNeighborhood<Radius, Shape, T, V, Run, Phase, false>{{}, window, sides[j], ends, j, v}));
    }
  }
}

// The run's values at plane p of a step, outside the array made what single steps read there (the
// fill; clamp and reflect: the R columns each side nearest the array). Where the window reaches
// outside the volume along z (not periodic), those planes are first overwritten in place.
template <int Radius, StencilShape Shape, class T, int X, int Width, int Run, bool Periodic, int Phase, bool Edge,
          class Op, class Boundary>
SMEMTILE_DEVICE void sweep_vector_plane(T (&window)[2 * Radius + 1][Run * (X / Width)], const T* plane,
                                        const SweepVectorPlace& place, int p, int nz, const Op& op,
                                        const Boundary& boundary, T (&values)[Run * (X / Width)]) {
  constexpr int V = X / Width;
  if constexpr (!Periodic) {
    if (p - Radius < 0 || p + Radius >= nz)
      sweep_window_edges<Radius, Phase, T, Run * V, Boundary>(window, p, nz, sweep_fill<T>(boundary));
  }
  sweep_vector_points<Radius, Shape, T, X, Width, Run, Phase, Edge, Boundary>(window, plane, place, op, values);
  if constexpr (Edge && !Boundary::maps_index) {
    if (place.outside != 0u)
#pragma unroll
      for (int e = 0; e < Run * V; ++e)
        if (place.outside >> e & 1u) values[e] = boundary.template value<T>();
  } else if constexpr (Edge && steps_rewrite_outside<Boundary>) {
    if (place.edge_x)
#pragma unroll
      for (int j = 0; j < Run; ++j) {
        T row[V];
#pragma unroll
        for (int v = 0; v < V; ++v) row[v] = values[j * V + v];
        steps_map_edge_columns<V, Radius, Width, T, Boundary>(place.x0, place.nx, row);
#pragma unroll
        for (int v = 0; v < V; ++v) values[j * V + v] = row[v];
      }
  }
}

// Where the last step's runs go: `first` this thread's first point in plane 0 of `data`; the rows of
// its run inside the block's tile and the array (a bit each), its lane's columns there (a bit each);
// whole: all V columns, at 16-byte aligned addresses in every row and plane (one store a row).
template <class T, int V>
struct SweepVectorStores {
  T* data;
  long long first, row_pitch, plane_pitch;
  unsigned rows, columns;
  bool whole;
  template <int RV>
  SMEMTILE_DEVICE void store(const T (&values)[RV], int p) const {
    T* to = data + (first + static_cast<long long>(p) * plane_pitch);
    __builtin_assume(__isGlobal(to));  // (else, through this struct, nvcc stores by generic ST)
#pragma unroll
    for (int j = 0; j < RV / V; ++j, to += row_pitch) {
      if (!(rows >> j & 1u)) continue;
      if (whole) {
        sweep_vector_store<V>(to, values + j * V);
      } else {
#pragma unroll
        for (int v = 0; v < V; ++v)
          if (columns >> v & 1u) to[v] = values[j * V + v];
      }
    }
  }
};

template <class Policy, int Radius, class T, int V, int Run>
SMEMTILE_DEVICE SweepVectorStores<T, V> sweep_vector_stores(const GlobalArray<T, 3>& out, int y0, int x0, int y_first,
                                                            int x) {
  constexpr StencilStepsGeometry g = stencil_steps_geometry<SweepPlanePolicy<Policy>>(static_cast<int>(sizeof(T)), Radius);
  const long long first = static_cast<long long>(y0 + y_first) * out.stride(1) + x0 + x;
  SweepVectorStores<T, V> s{out.data_handle(), first, out.stride(1), out.stride(0), 0u, 0u, false};
#pragma unroll
  for (int v = 0; v < V; ++v)
    if (x + v >= g.halo_x && x + v < g.halo_x + g.tile_x && x0 + x + v < static_cast<int>(out.extent(2)))
      s.columns |= 1u << v;
  if (s.columns == 0u) return s;
#pragma unroll
  for (int j = 0; j < Run; ++j) {
    const int y = y_first + j;
    if (y >= g.halo_a && y < g.halo_a + g.tile_a && y0 + y < static_cast<int>(out.extent(1))) s.rows |= 1u << j;
  }
  const long long bytes = static_cast<long long>(sizeof(T));
  s.whole = s.columns == (1u << V) - 1u && reinterpret_cast<unsigned long long>(out.data_handle() + first) % 16 == 0 &&
            out.stride(1) * bytes % 16 == 0 && out.stride(0) * bytes % 16 == 0;
  return s;
}

// Sweep step q's fused steps 1 ... `steps`, each on its plane q - 1 - k R where `needed`: from the
// step before's window into this step's window and ring (the last step: into the array).
template <class Policy, int Radius, StencilShape Shape, bool Periodic, int Phase, bool Edge, class T, int Width, int D,
          int RV, class Rings, class Needed, class Op, class Boundary>
SMEMTILE_DEVICE void sweep_vector_steps(T (&windows)[D][2 * Radius + 1][RV], const Rings& ring, int q, int steps,
                                        const Needed& needed, const SweepVectorPlace& place, int nz,
                                        const SweepVectorStores<T, Policy::region_x / Width>& stores, const Op& op,
                                        const Boundary& boundary) {
  constexpr int X = Policy::region_x, V = X / Width, Run = RV / V;
#pragma unroll
  for (int k = 1; k <= D; ++k) {
    if (k > steps) break;
    const int p = q - 1 - k * Radius;
    if (!needed(k, p)) continue;
    T values[RV];
    sweep_vector_plane<Radius, Shape, T, X, Width, Run, Periodic, Phase, Edge>(windows[k - 1], ring(k - 1, p), place, p,
                                                                              nz, op, boundary, values);
    if (k == steps) {
      stores.store(values, p);
    } else {
      T* const to = ring(k, p) + place.y_first * X + place.x;
#pragma unroll
      for (int j = 0; j < Run; ++j) sweep_vector_store<V>(to + j * X, values + j * V);
#pragma unroll
      for (int e = 0; e < RV; ++e) windows[k < D ? k : D - 1][sweep_slot<Radius, Phase>(2 * Radius)][e] = values[e];
    }
  }
}

template <class Policy, int Radius, StencilShape Shape, class T, class Boundary, class Op>
__global__ void __launch_bounds__(Policy::threads, Policy::min_blocks)
    stencil_sweep_vectors_kernel(GlobalArray<const T, 3> in, GlobalArray<T, 3> out, Boundary boundary, Op op, int steps,
                                 int chunk) {
  static_assert(Shape == StencilShape::star, "stencil sweep vectors: star stencils only (a box reads other columns along z)");
  using Layout = SweepVectorShape<Policy, T>;
  constexpr int X = Policy::region_x, V = Layout::V, Width = Layout::Width, Run = Layout::Run, D = Policy::depth;
  constexpr StencilStepsGeometry g = stencil_steps_geometry<SweepPlanePolicy<Policy>>(static_cast<int>(sizeof(T)), Radius);
  constexpr bool periodic = steps_compute_outside<Boundary>;
  using Rings = SweepRegisterRings<Policy, Radius, T>;
  const Rings ring{reinterpret_cast<T*>(aligned_dynamic_shared() + 128) + Radius * X};
  const int nz = static_cast<int>(in.extent(0)), ny = static_cast<int>(in.extent(1)), nx = static_cast<int>(in.extent(2));
  const int y0 = static_cast<int>(blockIdx.y) * g.tile_a - g.halo_a, x0 = static_cast<int>(blockIdx.x) * g.tile_x - g.halo_x;
  const int z_first = static_cast<int>(blockIdx.z) * chunk;  // (chunk: stencil_sweep_plan)
  const int z_last = z_first + chunk < nz ? z_first + chunk : nz;  // one past
  const int x = static_cast<int>(threadIdx.x) % Width * V, y_first = static_cast<int>(threadIdx.x) / Width * Run;
  const auto stores = sweep_vector_stores<Policy, Radius, T, V, Run>(out, y0, x0, y_first, x);
  // Step k (0: the input) needs planes [z_first - (steps - k) R, z_last - 1 + (steps - k) R].
  const auto needed = [&](int k, int p) {
    const int low = z_first - (steps - k) * Radius, high = z_last - 1 + (steps - k) * Radius;
    return p >= (periodic || low > 0 ? low : 0) && p <= (periodic || high < nz - 1 ? high : nz - 1);
  };
  int* const tables = reinterpret_cast<int*>(ring.base - Radius * X + Rings::planes * Rings::stride);
  const StepsTile tile{y0, 0, x0, ny, 1, nx};  // the plane's region
  const auto loader = sweep_plane_loader<Policy, Radius, T, Boundary>(in, tile, tables);
  const SweepVectorPlace place =
      sweep_vector_place<Boundary, V, Run>(loader.rows, y0, x0, y_first, x, ny, nx, X, D * Radius);
  __syncthreads();  // the tables
  const auto load = [&](int q) {  // input plane q as one cp.async group (empty where not needed)
    if (needed(0, q)) loader.load(sweep_input_plane<Boundary>(q, nz), ring(0, q), boundary);
    async_copy_commit();
  };
  constexpr int ahead = stencil_sweep_prefetch;
  const int q_first = z_first - steps * Radius;
  for (int q = q_first; q < q_first + ahead - 1; ++q) load(q);
  // Blocks reaching outside the array (but periodic's, which compute there like anywhere) run the
  // loop's edge copy; the others a copy holding no edge work.
  const auto sweep = [&](auto edge_constant) {
    constexpr bool edge = decltype(edge_constant)::value;
    T windows[D][2 * Radius + 1][Run * V];  // [k][slot of Radius + dz][j V + v]
    const auto sweep_step = [&](auto phase_constant, int q) {
      constexpr int phase = decltype(phase_constant)::value;
      load(q + ahead - 1);
      const T* const from = ring(0, q - 1) + y_first * X + x;
#pragma unroll
      for (int j = 0; j < Run; ++j) {
        T row[V];
        sweep_vector_load<V>(from + j * X, row);
#pragma unroll
        for (int v = 0; v < V; ++v) windows[0][sweep_slot<Radius, phase>(2 * Radius)][j * V + v] = row[v];
      }
      sweep_vector_steps<Policy, Radius, Shape, periodic, phase, edge, T, Width>(windows, ring, q, steps, needed, place,
                                                                                nz, stores, op, boundary);
      advance_sweep_windows<D, Radius, T, Run * V>(windows);
      async_copy_wait<ahead - 1>();  // plane q has landed
      __syncthreads();
    };
    // (Windows move down their registers after each step: rotating them, as the register sweep does,
    // unrolls the loop by three, which outgrows the instruction cache: docs/stencil-steps.md.)
    for_each_sweep_step<1>(q_first, z_last + steps * Radius, sweep_step);
  };
  if (!periodic && steps_region_reaches_outside<SweepPlanePolicy<Policy>>(tile)) {
    sweep(std::true_type());
  } else {
    sweep(std::false_type());
  }
}

#endif  // __CUDACC__

}  // namespace detail
}  // namespace smemtile
