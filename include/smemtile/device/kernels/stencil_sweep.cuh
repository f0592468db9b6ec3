/// \file
/// device_stencil_steps's 3D temporal sweep (StencilSweepPolicy): each block streams an xy tile
/// along a chunk of z, keeping for every fused step (level) a ring of planes in shared memory, so z
/// carries no halo beyond the chunk's (docs/stencil-steps.md, "The 3D sweep along z").
//
// At sweep step q, level k computes plane q - k (R + 1): it reads level k - 1's planes up to
// q - (k - 1)(R + 1) - 1, all written at step q - 1 or before, so a step is one barrier (two for
// blocks whose region reaches outside in x or y: the band of each plane is rewritten before the
// next step reads it). Level 0 loads plane q (cp.async, landing by the end of the step). Planes
// outside the volume are looked up, never computed: a fill plane (zero, constant), the ring's plane
// they map to (clamp, reflect; always still in the ring), or, periodic, computed like any other
// from wrapped input planes.
#pragma once

#include "../tuning/stencil_steps_policy.cuh"  // StencilSweepPolicy, its planes
#include "stencil_steps.cuh"  // load copies, write_steps_band, StepsTile, element

namespace smemtile {

namespace detail {

#if defined(__CUDACC__)

// Point (y, x) of a plane at level k from the 2 R + 1 planes around it (pointers, block-uniform).
template <int Radius, StencilShape Shape, class T, int X>
struct SweepNeighborhood : StepsNeighborhoodCalls<3, Radius, Shape, SweepNeighborhood<Radius, Shape, T, X>> {
  const T* const* planes;  // [Radius + dz]
  int point;               // y * X + x
  SMEMTILE_DEVICE T at(int dz, int dy, int dx) const {
    this->check(dz, dy, dx);
    return planes[Radius + dz][point + dy * X + dx];
  }
};

// Level k's plane from level k - 1's 2 R + 1 `planes`, the points within `margin` of the tile:
// thread t takes column t % X of a run of `run` rows, (t / X) run ... + run - 1, computing every
// row of the run (a neighbour row read once serves three points; the R rows beyond the plane are
// padding) and storing those inside, `store(y, x, value)`.
template <class Policy, int Radius, StencilShape Shape, class T, class Op, class Store>
SMEMTILE_DEVICE void sweep_level(const T* const (&planes)[2 * Radius + 1], int margin, const Op& op,
                                 const Store& store) {
  constexpr StencilStepsGeometry g = stencil_steps_geometry<SweepPlanePolicy<Policy>>(static_cast<int>(sizeof(T)), Radius);
  constexpr int X = Policy::region_x, run = Policy::region_y * X / Policy::threads;
  const int x = static_cast<int>(threadIdx.x) % X, y_first = static_cast<int>(threadIdx.x) / X * run;
  const int y_low = g.halo_a - margin, y_high = g.halo_a + g.tile_a + margin;
  if (x < g.halo_x - margin || x >= g.halo_x + g.tile_x + margin || y_first + run <= y_low || y_first >= y_high)
    return;
  T values[run];
#pragma unroll
  for (int j = 0; j < run; ++j)
    values[j] = static_cast<T>(op(SweepNeighborhood<Radius, Shape, T, X>{{}, planes, (y_first + j) * X + x}));
#pragma unroll
  for (int j = 0; j < run; ++j)
    if (y_first + j >= y_low && y_first + j < y_high) store(y_first + j, x, values[j]);
}

// The plane a fill policy (zero, constant) stands for outside the volume in z.
template <class Policy, class T, class Boundary>
SMEMTILE_DEVICE void fill_sweep_plane(T* fill, const Boundary& boundary) {
  for (int i = static_cast<int>(threadIdx.x); i < Policy::region_y * Policy::region_x; i += Policy::threads)
    fill[i] = boundary.template value<T>();
}

// The bands of the planes computed at sweep step q below the last level, rewritten before the next
// step reads them (blocks whose region reaches outside the array in x or y).
template <class Plane, int Radius, class Needed, class Ring, class Boundary>
SMEMTILE_DEVICE void rewrite_sweep_bands(int q, int steps, const Needed& needed, const Ring& ring,
                                         const StepsTile& plane_tile, const Boundary& boundary) {
  for (int k = 1; k < steps; ++k) {
    const int p = q - k * (Radius + 1);
    if (needed(k, p)) write_steps_band<Plane, Radius>(ring(k, p), plane_tile, (steps - k) * Radius, boundary);
  }
}

template <class Policy, int Radius, StencilShape Shape, class T, class Boundary, class Op>
__global__ void __launch_bounds__(Policy::threads, Policy::min_blocks)
    stencil_sweep_kernel(GlobalArray<const T, 3> in, GlobalArray<T, 3> out, Boundary boundary, Op op, int steps,
                         int chunk) {
  using Plane = SweepPlanePolicy<Policy>;
  constexpr StencilStepsGeometry g = stencil_steps_geometry<Plane>(static_cast<int>(sizeof(T)), Radius);
  constexpr int X = Policy::region_x, slots = 2 * Radius + 2;
  constexpr int plane_elems = stencil_sweep_plane_stride<Policy>(Radius);
  constexpr bool periodic = steps_compute_outside<Boundary>;
  T* const base = reinterpret_cast<T*>(aligned_dynamic_shared()) + Radius * X;  // past plane 0's padding
  T* const fill = base + Policy::depth * slots * plane_elems;
  const int nz = static_cast<int>(in.extent(0)), ny = static_cast<int>(in.extent(1)), nx = static_cast<int>(in.extent(2));
  const int y0 = static_cast<int>(blockIdx.y) * g.tile_a - g.halo_a, x0 = static_cast<int>(blockIdx.x) * g.tile_x - g.halo_x;
  const int z_first = static_cast<int>(blockIdx.z) * chunk;  // (chunk: stencil_sweep_plan)
  const int z_last = z_first + chunk < nz ? z_first + chunk : nz;  // one past
  const auto slot_of = [](int p) { return ((p % slots) + slots) % slots; };
  const auto ring = [&](int k, int p) { return base + (k * slots + slot_of(p)) * plane_elems; };
  const auto inside = [&](int p) { return p >= 0 && p < nz; };
  // Level k's plane p as a later level reads it.
  const auto lookup = [&](int k, int p) -> const T* {
    if (periodic || inside(p)) return ring(k, p);
    if constexpr (Boundary::maps_index) return ring(k, boundary_source_index<Boundary>(p, nz));
    return fill;
  };
  if constexpr (!Boundary::maps_index) fill_sweep_plane<Policy>(fill, boundary);
  const StepsTile plane_tile{y0, 0, x0, ny, 1, nx};
  const bool band = !periodic && steps_region_reaches_outside<Plane>(plane_tile);
  using Layout = HaloLayout<g.tile_a, g.tile_x, g.halo_a, g.halo_x>;
  // Level k (0 ... steps) needs planes [z_first - (steps - k) R, z_last - 1 + (steps - k) R].
  const auto needed = [&](int k, int p) {
    return p >= z_first - (steps - k) * Radius && p <= z_last - 1 + (steps - k) * Radius && (periodic || inside(p));
  };
  const int q_first = z_first - steps * Radius, q_last = z_last - 1 + steps * (Radius + 1);
  for (int q = q_first; q <= q_last; ++q) {
    if (needed(0, q)) {
      int z = q;  // outside the volume only when periodic
      if constexpr (Boundary::maps_index) z = inside(q) ? q : boundary_source_index<Boundary>(q, nz);
      copy_global_to_tile_async(plane(in, z), Coord{y0 + g.halo_a, x0 + g.halo_x}, TileRef<T, Layout>{ring(0, q), Layout{}},
                                boundary, FixedThreadBlock<Policy::threads>{});
    }
    async_copy_commit();
    for (int k = 1; k <= steps; ++k) {
      const int p = q - k * (Radius + 1);
      if (!needed(k, p) || (k == steps && (p < z_first || p >= z_last))) continue;
      const T* planes[2 * Radius + 1];
#pragma unroll
      for (int dz = -Radius; dz <= Radius; ++dz) planes[Radius + dz] = lookup(k - 1, p + dz);
      if (k < steps) {
        T* const to = ring(k, p);
        sweep_level<Policy, Radius, Shape, T>(planes, (steps - k) * Radius, op,
                                              [&](int y, int x, T value) { to[y * X + x] = value; });
      } else {
        sweep_level<Policy, Radius, Shape, T>(planes, 0, op, [&](int y, int x, T value) {
          if (y0 + y < ny && x0 + x < nx) element(out, p, y0 + y, x0 + x) = value;
        });
      }
    }
    async_copy_wait<0>();
    __syncthreads();
    if (band) {
      rewrite_sweep_bands<Plane, Radius>(q, steps, needed, ring, plane_tile, boundary);
      __syncthreads();
    }
  }
}

#endif  // __CUDACC__

}  // namespace detail
}  // namespace smemtile
