/// \file
/// device_stencil_steps's 3D sweep for star stencils with StencilSweepCompute::registers: as
/// stencil_sweep.cuh, but each thread keeps the values of its points along z in registers for every
/// fused step, so a step reads only x and y neighbours from shared memory. Boxes whose op is a
/// SeparableStencilOp keep their points' plane partials instead (sweep_box_steps, below).
//
// Thread t owns column t % X of a run of Run rows at every step, so the 2R + 1 planes around a
// point, at the step before, are values this thread computed (or, step 1, read from the input).
// Step k computes plane p_k = q - 1 - k R at sweep step q: step k - 1 computed p_k + R earlier in
// the same sweep step (registers), and p_k's x and y neighbours were written to shared memory R
// sweep steps ago. Input planes load by cp.async stencil_sweep_prefetch planes ahead (plane q has
// landed by the end of step q); step 1 reads plane q - 1's run into registers. One barrier per
// sweep step.
//
// Along z, outside the volume, nothing is computed (but periodic, where an outside plane is an
// image computed like any other from wrapped input): a fill policy's neighbour is the fill, an
// index policy's the plane it maps to, which lies within R of the point and so in the registers.
// Outside the array in x and y, fill policies (zero, constant) give the thread's own points there
// the fill as they are computed; index policies (clamp, reflect) compute them where they map to
// (SweepRunPlace), so they hold that point's value with no rewrite and no second barrier.
#pragma once

#include "stencil_strips.cuh"  // StripRow, separable_row_t (separable boxes)
#include "stencil_sweep.cuh"   // StencilSweepPolicy, SweepPlanePolicy, StepsTile

namespace smemtile {

namespace detail {

#if defined(__CUDACC__)

// A window's plane p + dz (i = Radius + dz, 0 ... 2R) lives in slot (i + Phase) % (2R + 1): a sweep
// step moves every plane one slot down by advancing the phase, which the unrolled sweep loop knows at
// compile time, instead of moving the registers.
template <int Radius, int Phase>
SMEMTILE_HOST_DEVICE constexpr int sweep_slot(int i) {
  return (i + Phase) % (2 * Radius + 1);
}

// Point j of a thread's run at plane p: its column's planes p - R ... p + R at the step before in
// registers (window), its x and y neighbours in plane p (row: the point in shared memory). With
// Shared, all of its x and y neighbours come from shared memory (`row` is then the point that a
// point outside the array maps to, whose y neighbours the run's registers do not hold).
template <int Radius, StencilShape Shape, class T, int X, int Run, int Phase, bool Shared = false>
struct SweepRegisterNeighborhood
    : StepsNeighborhoodCalls<3, Radius, Shape, SweepRegisterNeighborhood<Radius, Shape, T, X, Run, Phase, Shared>> {
  const T (*window)[Run];  // [slot of Radius + dz][j]
  const T* row;            // the point in plane p
  int j;                   // its place in the run
  SMEMTILE_DEVICE T at(int dz, int dy, int dx) const {
    this->check(dz, dy, dx);
    const bool in_run = Shared ? dy == 0 : j + dy >= 0 && j + dy < Run;
    if (dz != 0 || (dx == 0 && in_run)) return window[sweep_slot<Radius, Phase>(Radius + dz)][j + dy];
    return row[dy * X + dx];
  }
};

// Where a thread computes in the planes' regions: column `column` of the rows y_first ... y_first +
// Run - 1, but the rows marked in `mapped` (a bit each) at the region rows the block's table `rows`
// gives (array rows; minus y0). Index policies (clamp, reflect) compute a point outside the array
// where it maps to: it then holds that point's value at every step, as the policy says, with no
// rewrite after the step (and no second barrier).
struct SweepRunPlace {
  int column, y_first;
  unsigned mapped;
  const int* rows;
  int y0;
};

// The place of the run whose first point is region point (y_first, x), the region's first element
// (y0, x0) in an ny x nx plane: points within `reach` of the array on both axes (the only ones a kept
// point reads) where Boundary maps them, the others where they are.
template <class Boundary, int Run>
SMEMTILE_DEVICE SweepRunPlace sweep_run_place(const int* rows, int y0, int x0, int y_first, int x, int ny, int nx,
                                              int reach) {
  SweepRunPlace place{x, y_first, 0u, rows, y0};
  if constexpr (steps_rewrite_outside<Boundary>) {
    const int column = x0 + x;
    if (!stencil_sweep_near(column, nx, reach)) return place;
    if (column < 0 || column >= nx) place.column = boundary_source_index<Boundary>(column, nx) - x0;
#pragma unroll
    for (int j = 0; j < Run; ++j) {
      const int row = y0 + y_first + j;
      if ((row < 0 || row >= ny) && stencil_sweep_near(row, ny, reach)) place.mapped |= 1u << j;
    }
  }
  return place;
}

// The run's values at plane p of a step from the step before: window [Radius + dz][j] (this thread's
// column), `column` the thread's column in plane p (its row 0), `place` where each point lies.
template <int Radius, StencilShape Shape, class T, int X, int Run, int Phase, class Op>
SMEMTILE_DEVICE void sweep_register_points(const T (&window)[2 * Radius + 1][Run], const T* column,
                                           const SweepRunPlace& place, const Op& op, T (&values)[Run]) {
  if (place.mapped == 0u) {
    const T* const plane = column + place.y_first * X;
#pragma unroll
    for (int j = 0; j < Run; ++j)
      values[j] = static_cast<T>(op(SweepRegisterNeighborhood<Radius, Shape, T, X, Run, Phase>{{}, window, plane + j * X, j}));
    return;
  }
#pragma unroll
  for (int j = 0; j < Run; ++j) {
    const int row = place.mapped >> j & 1u ? place.rows[place.y_first + j] - place.y0 : place.y_first + j;
    values[j] = static_cast<T>(op(SweepRegisterNeighborhood<Radius, Shape, T, X, Run, Phase, true>{{}, window, column + row * X, j}));
  }
}

// What a fill policy's plane outside the volume holds (index policies: unused).
template <class T, class Boundary>
SMEMTILE_DEVICE T sweep_fill(const Boundary& boundary) {
  if constexpr (Boundary::maps_index) return T{};
  else return boundary.template value<T>();
}

// Where the window of plane p reaches outside the volume along z (not periodic): those planes'
// entries as the policy gives them (`fill`, or the plane they map to, which is within R of p).
// Entries are values, or a separable box's plane partials (the fill plane's partial).
template <int Radius, int Phase, class T, int Run, class Boundary>
SMEMTILE_DEVICE void sweep_window_edges(T (&window)[2 * Radius + 1][Run], int p, int nz, const T& fill) {
#pragma unroll
  for (int dz = -Radius; dz <= Radius; ++dz) {
    if (p + dz >= 0 && p + dz < nz) continue;
    if constexpr (Boundary::maps_index) {
      const int offset = boundary_source_index<Boundary>(p + dz, nz) - p;
      SMEMTILE_CHECK(offset >= -Radius && offset <= Radius, "stencil sweep: a plane maps beyond the radius", p + dz, nz, offset, Radius);
#pragma unroll
      for (int o = -Radius; o <= Radius; ++o)
        if (o == offset)
#pragma unroll
          for (int j = 0; j < Run; ++j)
            window[sweep_slot<Radius, Phase>(Radius + dz)][j] = window[sweep_slot<Radius, Phase>(Radius + o)][j];
    } else {
#pragma unroll
      for (int j = 0; j < Run; ++j) window[sweep_slot<Radius, Phase>(Radius + dz)][j] = fill;
    }
  }
}

// The run's values at plane p of a step from `window` (the step before). Where the window reaches
// outside the volume (not periodic), those planes are first overwritten in place: no later plane
// reads them (the oldest leaves the window next, the newest was never computed).
template <int Radius, StencilShape Shape, class T, int X, int Run, bool Periodic, int Phase, class Op, class Boundary>
SMEMTILE_DEVICE void sweep_register_plane(T (&window)[2 * Radius + 1][Run], const T* column, const SweepRunPlace& place,
                                          int p, int nz, const Op& op, const Boundary& boundary, T (&values)[Run]) {
  if constexpr (!Periodic) {
    if (p - Radius < 0 || p + Radius >= nz)
      sweep_window_edges<Radius, Phase, T, Run, Boundary>(window, p, nz, sweep_fill<T>(boundary));
  }
  sweep_register_points<Radius, Shape, T, X, Run, Phase>(window, column, place, op, values);
}

// Fill policies: the fill for a run's points outside the array (`outside`, a bit each).
template <class T, int Run, class Boundary>
SMEMTILE_DEVICE void sweep_fill_outside(T (&values)[Run], unsigned outside, const Boundary& boundary) {
  if constexpr (!Boundary::maps_index) {
    if (outside != 0u)
#pragma unroll
      for (int j = 0; j < Run; ++j)
        if (outside >> j & 1u) values[j] = boundary.template value<T>();
  }
}

// Where the last step's runs go: this thread's rows of the block's tile that lie inside the array
// (a bit each; none where its column does not) and its first row's offset in plane 0 of `out`, set
// once per block.
template <class T>
struct SweepRunStores {
  T* data;
  long long first, row_pitch, plane_pitch;
  unsigned rows;
  template <int Run>
  SMEMTILE_DEVICE void store(const T (&values)[Run], int p) const {
    T* to = data + (first + static_cast<long long>(p) * plane_pitch);
    __builtin_assume(__isGlobal(to));  // (else, through this struct, nvcc stores by generic ST)
#pragma unroll
    for (int j = 0; j < Run; ++j, to += row_pitch)
      if (rows >> j & 1u) *to = values[j];
  }
};

template <class Policy, int Radius, class T, int Run>
SMEMTILE_DEVICE SweepRunStores<T> sweep_run_stores(const GlobalArray<T, 3>& out, int y0, int x0, int y_first, int x) {
  constexpr StencilStepsGeometry g = stencil_steps_geometry<SweepPlanePolicy<Policy>>(static_cast<int>(sizeof(T)), Radius);
  SweepRunStores<T> s{out.data_handle(), static_cast<long long>(y0 + y_first) * out.stride(1) + x0 + x, out.stride(1),
                      out.stride(0), 0u};
  if (x < g.halo_x || x >= g.halo_x + g.tile_x || x0 + x >= static_cast<int>(out.extent(2))) return s;
#pragma unroll
  for (int j = 0; j < Run; ++j) {
    const int y = y_first + j;
    if (y >= g.halo_a && y < g.halo_a + g.tile_a && y0 + y < static_cast<int>(out.extent(1))) s.rows |= 1u << j;
  }
  return s;
}

// The shared planes of a register sweep: the input's ring (level 0) and one ring per step below the
// last, each plane (RegionY + 2R) x RegionX with R padding rows either side.
template <class Policy, int Radius, class T>
struct SweepRegisterRings {
  static constexpr int input_slots = stencil_sweep_prefetch + Radius + 1, level_slots = Radius + 1;
  static constexpr int planes = input_slots + (Policy::depth - 1) * level_slots;
  static constexpr int stride = stencil_sweep_plane_stride<Policy>(Radius);
  static constexpr int bias = 1 << 20;  // planes start no lower than -(Depth R + prefetch): slots of p + bias
  T* base;                              // input plane 0's row 0
  SMEMTILE_DEVICE T* operator()(int level, int p) const {
    const unsigned q = static_cast<unsigned>(p + bias);
    const int slot = level == 0 ? static_cast<int>(q % input_slots)
                                : input_slots + (level - 1) * level_slots + static_cast<int>(q % level_slots);
    return base + slot * stride;
  }
};

// Shift every step's window one plane along z (the newest slot is written next sweep step).
template <int Depth, int Radius, class T, int Run>
SMEMTILE_DEVICE void advance_sweep_windows(T (&windows)[Depth][2 * Radius + 1][Run]) {
#pragma unroll
  for (int k = 0; k < Depth; ++k)
#pragma unroll
    for (int i = 0; i < 2 * Radius; ++i)
#pragma unroll
      for (int j = 0; j < Run; ++j) windows[k][i][j] = windows[k][i + 1][j];
}

// The rows of a run whose first point is (y, x) in the array that lie outside it but within `reach`
// of it on both axes, a bit each.
template <int Run>
SMEMTILE_DEVICE unsigned sweep_outside_rows(int y, int x, int ny, int nx, int reach) {
  unsigned rows = 0;
#pragma unroll
  for (int j = 0; j < Run; ++j)
    if ((x < 0 || x >= nx || y + j < 0 || y + j >= ny) && stencil_sweep_near(x, nx, reach) &&
        stencil_sweep_near(y + j, ny, reach))
      rows |= 1u << j;
  return rows;
}

// How a block copies a plane's region by cp.async units of Unit elements, Threads at a time: thread t
// copies the units t, t + Threads, ..., so its units lie at fixed offsets from its first (t Unit
// elements into the region) and one pass of the block covers RowsPerPass rows.
template <class Policy, int Unit>
struct SweepUnits {
  static constexpr int per_row = Policy::region_x / Unit, rows_per_pass = Policy::threads / per_row;
  static constexpr int passes = (Policy::region_y + rows_per_pass - 1) / rows_per_pass;
  static constexpr bool whole = Policy::region_y % rows_per_pass == 0;  // every thread copies `passes` units
  static_assert(Policy::region_x % Unit == 0 && Policy::threads % per_row == 0,
                "SweepUnits: a region row is whole units and a block copies whole rows at a time");
};

// A plane's region that lies inside the array in x and y, by cp.async units of Unit elements (16
// bytes where rows and the region's start are 16-byte aligned, else one element): no boundary to
// apply, so this thread's units lie at fixed offsets from `from` and `to`, its first unit in the
// array's plane and in shared memory (the generic tile copy recomputes them every plane).
template <class Policy, class T, int Unit>
SMEMTILE_DEVICE void load_sweep_plane_inside(const T* from, long long row_pitch, T* to) {
  using Units = SweepUnits<Policy, Unit>;
  constexpr int X = Policy::region_x;
  const long long pass_pitch = Units::rows_per_pass * row_pitch;
#pragma unroll
  for (int u = 0; u < Units::passes; ++u)
    if (Units::whole || static_cast<int>(threadIdx.x) / Units::per_row + u * Units::rows_per_pass < Policy::region_y)
      arch::cp_async<Unit * static_cast<int>(sizeof(T))>(to + u * Units::rows_per_pass * X, from + u * pass_pitch);
}

// A plane's region reaching outside the array in x or y, element by element: this thread's
// elements (first at `to`) lie in one column, `column` of the array (the policy's mapping; -1 where
// a fill policy fills), and rows[0], rows[RowsPerPass], ... (the block's table of source rows from
// this thread's first). A fill element is a cp.async reading no bytes (zeros) under boundary::zero,
// else a store of the policy's value (ordered before its readers by the same barrier).
template <class Policy, class T, class Boundary>
SMEMTILE_DEVICE void load_sweep_plane_mapped(const T* plane, int row_pitch, const int* rows, int column, T* to,
                                             const Boundary& boundary) {
  using Units = SweepUnits<Policy, 1>;
  static_assert(Units::whole, "load_sweep_plane_mapped: RegionY is a multiple of Threads / RegionX");
  constexpr bool stores_fill = !Boundary::maps_index && !Boundary::is_zero;
  const T* const first = plane + (column < 0 ? 0 : column);
#pragma unroll
  for (int u = 0; u < Units::passes; ++u) {
    const int row = rows[u * Units::rows_per_pass];
    const bool fill = (row | column) < 0;
    T* const element = to + u * Units::rows_per_pass * Policy::region_x;
    if constexpr (stores_fill) {
      if (fill) {
        *element = boundary.template value<T>();
        continue;
      }
    }
    arch::cp_async<static_cast<int>(sizeof(T))>(element,
                                                first + static_cast<unsigned long long>(fill ? 0u : static_cast<unsigned>(row)) *
                                                            static_cast<unsigned>(row_pitch),
                                                fill ? 0u : static_cast<unsigned>(sizeof(T)));
  }
}

// Whether a register sweep loads the planes of blocks at the array's edges through tables (every
// policy: cp.async units, elements of 4 bytes or more); where it does, the generic tile copy is not
// compiled into the kernel.
template <class T>
inline constexpr bool sweep_tables_load = sizeof(T) >= 4;

// The array index a region index i of an axis of n holds under Boundary: i inside, else the
// policy's mapping (-1: a fill).
template <class Boundary>
SMEMTILE_DEVICE int sweep_table_source(int i, int n) {
  if (i >= 0 && i < n) return i;
  if constexpr (Boundary::maps_index) return boundary_source_index<Boundary>(i, n);
  return -1;
}

// The tables of a block reaching outside the array: for each region row and column, the array row
// and column it holds. Followed by a barrier before use.
template <class Policy, class Boundary>
SMEMTILE_DEVICE void build_sweep_tables(int* rows, int* columns, int y0, int x0, int ny, int nx) {
  for (int i = static_cast<int>(threadIdx.x); i < Policy::region_y + Policy::region_x; i += Policy::threads) {
    if (i < Policy::region_y) rows[i] = sweep_table_source<Boundary>(y0 + i, ny);
    else columns[i - Policy::region_y] = sweep_table_source<Boundary>(x0 + i - Policy::region_y, nx);
  }
}

// How a register sweep block loads input planes: by fixed units inside the array, through tables at
// its edges, or (elements under 4 bytes) by the generic tile copy.
template <class Policy, int Radius, class T, class Boundary>
struct SweepPlaneLoader {
  const GlobalArray<const T, 3>* in;
  const T* corner;       // units: this thread's first in plane 0; tables: plane 0's first element
  const int* rows;       // the tables (edges)
  const int* columns;
  int y0, x0;            // the region's first element in a plane
  int to;                // this thread's first unit or element in a plane's region
  int column;            // tables: the array column of this thread's elements
  int how;               // 0: generic, 1: 16-byte units, 2: element units, 3: tables
  SMEMTILE_DEVICE void load(int z, T* plane_to, const Boundary& boundary) const {
    const T* const plane = corner + static_cast<long long>(z) * in->stride(0);
    if (how == 1) load_sweep_plane_inside<Policy, T, 16 / sizeof(T)>(plane, in->stride(1), plane_to + to);
    if constexpr (sizeof(T) >= 4) {
      if (how == 2) load_sweep_plane_inside<Policy, T, 1>(plane, in->stride(1), plane_to + to);
    }
    if constexpr (sweep_tables_load<T>) {
      if (how == 3)
        load_sweep_plane_mapped<Policy, T>(plane, in->stride(1), rows + to / Policy::region_x, column, plane_to + to,
                                           boundary);
    } else if (how == 0) {
      constexpr StencilStepsGeometry g = stencil_steps_geometry<SweepPlanePolicy<Policy>>(static_cast<int>(sizeof(T)), Radius);
      using Layout = HaloLayout<g.tile_a, g.tile_x, g.halo_a, g.halo_x>;
      copy_global_to_tile_async(smemtile::plane(*in, z), Coord{y0 + g.halo_a, x0 + g.halo_x}, TileRef<T, Layout>{plane_to, Layout{}},
                                boundary, FixedThreadBlock<Policy::threads>{});
    }
  }
};

// The loader of a block whose plane region is `tile` (StepsTile{y0, 0, x0, ny, 1, nx}); `tables` has
// room for RegionY + RegionX ints, built here where the region reaches outside the array (the
// caller's first barrier orders them before the first load; index policies' mapped rows
// (SweepRunPlace) read them too).
template <class Policy, int Radius, class T, class Boundary>
SMEMTILE_DEVICE SweepPlaneLoader<Policy, Radius, T, Boundary> sweep_plane_loader(const GlobalArray<const T, 3>& in,
                                                                                 const StepsTile& tile, int* tables) {
  const int y0 = tile.a, x0 = tile.x, ny = tile.na, nx = tile.nx, t = static_cast<int>(threadIdx.x);
  SweepPlaneLoader<Policy, Radius, T, Boundary> l{&in, in.data_handle(), tables, tables + Policy::region_y, y0, x0, t, 0, 0};
  if (!steps_region_reaches_outside<SweepPlanePolicy<Policy>>(tile)) {
    const T* const corner = in.data_handle() + static_cast<long long>(y0) * in.stride(1) + x0;
    const bool vectors = reinterpret_cast<unsigned long long>(corner) % 16 == 0 &&
                         (in.stride(1) * sizeof(T)) % 16 == 0 && (in.stride(0) * sizeof(T)) % 16 == 0;
    l.how = vectors ? 1 : sizeof(T) >= 4 ? 2 : 0;
    const int unit = l.how == 1 ? static_cast<int>(16 / sizeof(T)) : 1;
    l.to = t * unit;  // row t Unit / X, column t Unit % X
    l.corner = corner + static_cast<long long>(l.to / Policy::region_x) * in.stride(1) + l.to % Policy::region_x;
  } else {
    build_sweep_tables<Policy, Boundary>(tables, tables + Policy::region_y, y0, x0, ny, nx);
    l.how = sweep_tables_load<T> ? 3 : 0;
    l.column = sweep_table_source<Boundary>(x0 + t % Policy::region_x, nx);
  }
  return l;
}

// The input plane that plane q of a sweep reads: q, or (periodic, which computes the planes outside
// the volume) the plane it wraps to.
template <class Boundary>
SMEMTILE_DEVICE int sweep_input_plane(int q, int nz) {
  if constexpr (steps_compute_outside<Boundary>) return boundary_source_index<Boundary>(q, nz);
  return q;
}

// Sweep step q's fused steps 1 ... `steps`, each on its plane q - 1 - k R where `needed`: from the
// step before's window into this step's window and ring (the last step: into the array). The
// thread's run starts at (y_first, x) in the region and is computed at `place`; `outside` marks its
// rows outside the array under fill policies.
template <class Policy, int Radius, StencilShape Shape, bool Periodic, int Phase, class T, int D, int Run, class Rings,
          class Needed, class Op, class Boundary>
SMEMTILE_DEVICE void sweep_register_steps(T (&windows)[D][2 * Radius + 1][Run], const Rings& ring, int q, int steps,
                                          const Needed& needed, const SweepRunPlace& place, int x, int nz,
                                          unsigned outside, const SweepRunStores<T>& stores, const Op& op,
                                          const Boundary& boundary) {
  const int y_first = place.y_first;
  constexpr int X = Policy::region_x;
#pragma unroll
  for (int k = 1; k <= D; ++k) {
    if (k > steps) break;
    const int p = q - 1 - k * Radius;
    if (!needed(k, p)) continue;
    T values[Run];
    sweep_register_plane<Radius, Shape, T, X, Run, Periodic, Phase>(windows[k - 1], ring(k - 1, p) + place.column, place,
                                                                    p, nz, op, boundary, values);
    sweep_fill_outside(values, outside, boundary);
    if (k == steps) {
      stores.store(values, p);
    } else {
      T* const to = ring(k, p) + y_first * X + x;
#pragma unroll
      for (int j = 0; j < Run; ++j) {
        to[j * X] = values[j];
        windows[k < D ? k : D - 1][sweep_slot<Radius, Phase>(2 * Radius)][j] = values[j];
      }
    }
  }
}

// ---- Separable boxes (a SeparableStencilOp): a thread's window along z holds its points' plane
// partials, down() of the across() of a plane's rows, so each plane of each step is reduced once
// for the 2R + 1 points along z that read it. Step k computes plane p_k = q - k (R + 1) at sweep
// step q: it first reduces step k - 1's plane p_k + R (written, or for the input landed, by sweep
// step q - 1) into its window, then gives through() of planes p_k - R ... p_k + R.

// Partials d = -Radius ... Radius of a point at first[Radius + d]: a run's rows' across() for down().
template <int Radius, class P>
struct SweepPartials {
  const P* first;
  SMEMTILE_DEVICE P operator()(int d) const {
    SMEMTILE_CHECK(d >= -Radius && d <= Radius, "stencil sweep: down() read (d, -, -, radius) beyond the radius", d,
                   0, 0, Radius);
    return first[Radius + d];
  }
};

// Point j's plane partials dz = -Radius ... Radius in a window whose plane p + dz lives in slot
// sweep_slot<Radius, Phase>(Radius + dz), for through().
template <int Radius, int Phase, class P, int Run>
struct SweepWindowPartials {
  const P (*window)[Run];
  int j;
  SMEMTILE_DEVICE P operator()(int dz) const {
    SMEMTILE_CHECK(dz >= -Radius && dz <= Radius, "stencil sweep: through() read (dz, -, -, radius) beyond the radius",
                   dz, 0, 0, Radius);
    return window[sweep_slot<Radius, Phase>(Radius + dz)][j];
  }
};

// What a sweep's window holds: values (star stencils) or a separable box's plane partials.
template <bool Box, class Op, class T, int Radius>
struct SweepWindowEntry {
  using type = T;
};
template <class Op, class T, int Radius>
struct SweepWindowEntry<true, Op, T, Radius> {
  using type = decltype(std::declval<const Op&>().down(SweepPartials<Radius, separable_row_t<Op, T, Radius>>{nullptr}));
};

// The plane partials of a thread's run in a plane, `column` the thread's column there (row 0) and
// `place` where each point lies: the run's rows share their rows' across(), Run + 2R of them; runs
// with points mapped elsewhere (index policies) reduce each point's rows at its place.
template <int Radius, class T, int X, int Run, class Op, class P>
SMEMTILE_DEVICE void sweep_box_partials(const T* column, const SweepRunPlace& place, const Op& op, P (&partials)[Run]) {
  using Row = separable_row_t<Op, T, Radius>;
  if (place.mapped == 0u) {
    const T* const first = column + (place.y_first - Radius) * X - Radius;
    Row rows[Run + 2 * Radius];
#pragma unroll
    for (int i = 0; i < Run + 2 * Radius; ++i) rows[i] = op.across(StripRow<Radius, T>{first + i * X});
#pragma unroll
    for (int j = 0; j < Run; ++j) partials[j] = op.down(SweepPartials<Radius, Row>{rows + j});
    return;
  }
#pragma unroll
  for (int j = 0; j < Run; ++j) {
    const int row = place.mapped >> j & 1u ? place.rows[place.y_first + j] - place.y0 : place.y_first + j;
    Row rows[2 * Radius + 1];
#pragma unroll
    for (int d = 0; d <= 2 * Radius; ++d)
      rows[d] = op.across(StripRow<Radius, T>{column + (row - Radius + d) * X - Radius});
    partials[j] = op.down(SweepPartials<Radius, Row>{rows});
  }
}

// The plane partial of a fill policy's plane outside the volume (index policies: unused).
template <int Radius, class P, class T, class Op, class Boundary>
SMEMTILE_DEVICE P sweep_box_fill(const Op& op, const Boundary& boundary) {
  if constexpr (Boundary::maps_index) {
    return P{};
  } else {
    using Row = separable_row_t<Op, T, Radius>;
    T values[2 * Radius + 1];
    Row rows[2 * Radius + 1];
#pragma unroll
    for (int d = 0; d <= 2 * Radius; ++d) values[d] = boundary.template value<T>();
#pragma unroll
    for (int d = 0; d <= 2 * Radius; ++d) rows[d] = op.across(StripRow<Radius, T>{values});
    return op.down(SweepPartials<Radius, Row>{rows});
  }
}

// sweep_register_steps for a separable box: step k reduces step k - 1's plane p + R into
// windows[k - 1], then computes plane p = q - k (R + 1) from its partials.
template <class Policy, int Radius, bool Periodic, int Phase, class T, class P, int D, int Run, class Rings,
          class Needed, class Op, class Boundary>
SMEMTILE_DEVICE void sweep_box_steps(P (&windows)[D][2 * Radius + 1][Run], const Rings& ring, int q, int steps,
                                     const Needed& needed, const SweepRunPlace& place, int x, int nz, unsigned outside,
                                     const SweepRunStores<T>& stores, const Op& op, const Boundary& boundary,
                                     const P& fill) {
  constexpr int X = Policy::region_x;
#pragma unroll
  for (int k = 1; k <= D; ++k) {
    if (k > steps) break;
    const int p = q - k * (Radius + 1);
    P (&window)[2 * Radius + 1][Run] = windows[k - 1];
    if (needed(k - 1, p + Radius))
      sweep_box_partials<Radius, T, X, Run>(ring(k - 1, p + Radius) + place.column, place, op,
                                            window[sweep_slot<Radius, Phase>(2 * Radius)]);
    if (!needed(k, p)) continue;
    if constexpr (!Periodic) {
      if (p - Radius < 0 || p + Radius >= nz)
        sweep_window_edges<Radius, Phase, P, Run, Boundary>(window, p, nz, fill);
    }
    T values[Run];
#pragma unroll
    for (int j = 0; j < Run; ++j)
      values[j] = static_cast<T>(op.through(SweepWindowPartials<Radius, Phase, P, Run>{window, j}));
    sweep_fill_outside(values, outside, boundary);
    if (k == steps) {
      stores.store(values, p);
    } else {
      T* const to = ring(k, p) + place.y_first * X + x;
#pragma unroll
      for (int j = 0; j < Run; ++j) to[j * X] = values[j];
    }
  }
}

// f(integral_constant<int, 0>), f(... 1>), ... in turn while f returns true.
template <class F, int... Phases>
SMEMTILE_DEVICE void for_each_phase(std::integer_sequence<int, Phases...>, const F& f) {
  (void)(f(std::integral_constant<int, Phases>{}) && ...);
}

// step(phase, q) for q = first ... last: the loop unrolled by Period, the phase (q - first) % Period
// a compile-time constant. Each phase's q is opaque to the compiler, which otherwise hoists the next
// phase's work into this one and runs out of registers.
template <int Period, class Step>
SMEMTILE_DEVICE void for_each_sweep_step(int first, int last, const Step& step) {
  for (int q = first; q <= last; q += Period)
    for_each_phase(std::make_integer_sequence<int, Period>{}, [&](auto phase) {
      int q_phase = q + decltype(phase)::value;
      if (q_phase > last) return false;
      asm volatile("" : "+r"(q_phase));
      step(phase, q_phase);
      return true;
    });
}

template <class Policy, int Radius, StencilShape Shape, class T, class Boundary, class Op>
__global__ void __launch_bounds__(Policy::threads, Policy::min_blocks)
    stencil_sweep_registers_kernel(GlobalArray<const T, 3> in, GlobalArray<T, 3> out, Boundary boundary, Op op,
                                   int steps, int chunk) {
  constexpr bool box = Shape == StencilShape::box;
  static_assert(!box || is_separable_stencil_op<Op>,
                "stencil sweep registers: star stencils, or boxes whose op is a SeparableStencilOp (other boxes read "
                "other columns along z)");
  using Plane = SweepPlanePolicy<Policy>;
  constexpr StencilStepsGeometry g = stencil_steps_geometry<Plane>(static_cast<int>(sizeof(T)), Radius);
  constexpr int X = Policy::region_x, Run = Policy::region_y * X / Policy::threads, D = Policy::depth;
  static_assert(Run <= 32, "stencil sweep registers: a thread's run is at most 32 rows (a bit each)");
  constexpr bool periodic = steps_compute_outside<Boundary>;
  const SweepRegisterRings<Policy, Radius, T> ring{reinterpret_cast<T*>(aligned_dynamic_shared() + 128) + Radius * X};
  const int nz = static_cast<int>(in.extent(0)), ny = static_cast<int>(in.extent(1)), nx = static_cast<int>(in.extent(2));
  const int y0 = static_cast<int>(blockIdx.y) * g.tile_a - g.halo_a, x0 = static_cast<int>(blockIdx.x) * g.tile_x - g.halo_x;
  const int z_first = static_cast<int>(blockIdx.z) * chunk;  // (chunk: stencil_sweep_plan)
  const int z_last = z_first + chunk < nz ? z_first + chunk : nz;  // one past
  const int x = static_cast<int>(threadIdx.x) % X, y_first = static_cast<int>(threadIdx.x) / X * Run;
  const SweepRunStores<T> stores = sweep_run_stores<Policy, Radius, T, Run>(out, y0, x0, y_first, x);
  const StepsTile plane_tile{y0, 0, x0, ny, 1, nx};
  // Fills give this thread's points outside the array the fill as they are computed.
  const unsigned outside = Boundary::maps_index ? 0u : sweep_outside_rows<Run>(y0 + y_first, x0 + x, ny, nx, 1 << 30);
  // Step k (0: the input) needs planes [z_first - (steps - k) R, z_last - 1 + (steps - k) R].
  // (For the last step, the chunk's planes.)
  const auto needed = [&](int k, int p) {
    const int low = z_first - (steps - k) * Radius, high = z_last - 1 + (steps - k) * Radius;
    return p >= (periodic || low > 0 ? low : 0) && p <= (periodic || high < nz - 1 ? high : nz - 1);
  };
  int* const tables = reinterpret_cast<int*>(ring.base - Radius * X + SweepRegisterRings<Policy, Radius, T>::planes *
                                                                          SweepRegisterRings<Policy, Radius, T>::stride);
  const auto loader = sweep_plane_loader<Policy, Radius, T, Boundary>(in, plane_tile, tables);
  // (Index policies map only points within the depth's reach of the array: farther ones may map
  // outside the region.)
  const SweepRunPlace place = sweep_run_place<Boundary, Run>(loader.rows, y0, x0, y_first, x, ny, nx, D * Radius);
  __syncthreads();  // the tables
  // Input plane q as one cp.async group (empty where not needed, so that groups count planes).
  const auto load = [&](int q) {
    if (needed(0, q)) loader.load(sweep_input_plane<Boundary>(q, nz), ring(0, q), boundary);
    async_copy_commit();
  };
  constexpr int ahead = stencil_sweep_prefetch;
  const int q_first = z_first - steps * Radius;
  for (int q = q_first; q < q_first + ahead - 1; ++q) load(q);
  // [k][slot of Radius + dz][j]: step k's values of plane p_(k+1) + dz (boxes: their partials)
  using Entry = typename SweepWindowEntry<box, Op, T, Radius>::type;
  Entry windows[D][2 * Radius + 1][Run];
  const Entry fill = [&] {
    if constexpr (box) return sweep_box_fill<Radius, Entry, T>(op, boundary);
    else return Entry{};
  }();
  // Sweep step q in window phase Phase (constexpr): the rotation's period where the loop is unrolled
  // by it (radius 1), else 0 with the planes moved down the registers after each step. (Boxes under
  // clamp and reflect move them: unrolled by three, their loop outgrows the instruction cache.)
  constexpr int period = Radius == 1 && !(box && steps_rewrite_outside<Boundary>) ? 2 * Radius + 1 : 1;
  const auto sweep_step = [&](auto phase_constant, int q) {
    constexpr int phase = decltype(phase_constant)::value;
    load(q + ahead - 1);
    if constexpr (box) {
      sweep_box_steps<Policy, Radius, periodic, phase, T>(windows, ring, q, steps, needed, place, x, nz, outside, stores,
                                                          op, boundary, fill);
    } else {
#pragma unroll
      for (int j = 0; j < Run; ++j)
        windows[0][sweep_slot<Radius, phase>(2 * Radius)][j] = ring(0, q - 1)[(y_first + j) * X + x];
      sweep_register_steps<Policy, Radius, Shape, periodic, phase>(windows, ring, q, steps, needed, place, x, nz,
                                                                  outside, stores, op, boundary);
    }
    if constexpr (period == 1) advance_sweep_windows<D, Radius, Entry, Run>(windows);
    async_copy_wait<ahead - 1>();  // plane q has landed
    __syncthreads();
  };
  // The last step computes plane z_last - 1 at sweep step z_last + steps R (boxes: z_last - 1 + steps (R + 1)).
  const int q_last = box ? z_last - 1 + steps * (Radius + 1) : z_last + steps * Radius;
  for_each_sweep_step<period>(q_first, q_last, sweep_step);
}

#endif  // __CUDACC__

}  // namespace detail
}  // namespace smemtile
