/// \file
/// device_stencil's 2D kernel: about as many blocks as fit on the GPU at once, each taking tiles in
/// turn through a ring of halo tiles in dynamic shared memory (the next tiles load while the
/// current one is computed).
#pragma once

#include <type_traits>  // std::remove_cv_t, std::conditional_t

#include "../../block/async_copy.cuh"     // copy_global_to_tile_async, async_copy_commit/wait
#include "../../block/stencil.cuh"        // neighborhood
#include "../../block/thread_group.cuh"   // FixedThreadBlock
#include "../../core/halo_layout.cuh"     // HaloLayout
#include "../../core/row_class_layout.cuh"  // RowClassHaloLayout, row_phase
#include "../tuning/stencil_policy.cuh"   // StencilLoader, StencilCompute, stencil_ring_slots
#include "stencil_common.cuh"             // TileRing, element, stencil_point
#include "stencil_strips.cuh"             // strips_2d
#include "stencil_tma.cuh"                // start_tma, wait_tma_slot, EdgeCells

namespace smemtile {
namespace detail {

#if defined(__CUDACC__)

// The points of one tile at `origin`, each from its neighbourhood in the tile (Policy::compute).
template <class Policy, int Radius, StencilShape Shape, class T, class Layout, class Op, class Out>
SMEMTILE_DEVICE void compute_tile_2d(TileRef<T, Layout> tile, Coord origin, Op& op, Out& out, int out_rows,
                                     int out_cols) {
  if constexpr (Policy::compute == StencilCompute::star_strips || Policy::compute == StencilCompute::box_strips) {
    if constexpr (Shape == StencilShape::box && is_separable_stencil_op<std::remove_cv_t<Op>>)
      separable_strips_2d<Policy, Radius>(tile, origin, op, out);
    else
      strips_2d<Policy, Radius, Shape>(tile, origin, op, out);
  } else {
#pragma unroll
    for (int j = 0; j < Policy::rows / Policy::warps; ++j)
#pragma unroll
      for (int i = 0; i < Policy::cols / 32; ++i) {
        const Coord at = stencil_point<Policy, Policy::rows>(j, i);
        const Coord g = origin + at;
        if (g.row < out_rows && g.col < out_cols)
          element(out, g.row, g.col) = static_cast<T>(op(neighborhood<Radius, Shape>(tile, at)));
      }
  }
}

// The 2D kernel's tile layout: a HaloLayout, or a RowClassHaloLayout where tiles load by row classes.
template <class Policy, int Radius, class T>
using StencilTileLayout2D = std::conditional_t<
    Policy::loader == StencilLoader::tma_row_classes,
    RowClassHaloLayout<Policy::rows, Policy::cols, Radius, Policy::halo_cols, static_cast<int>(sizeof(T))>,
    HaloLayout<Policy::rows, Policy::cols, Radius, Policy::halo_cols>>;

// What the 2D kernel's tensor-map parameter is: one map (TMA; unused by cp.async) or one per row class.
template <class Policy, class T>
using StencilMaps2D = std::conditional_t<Policy::loader == StencilLoader::tma_row_classes,
                                         RowClassTensorMaps<(sizeof(T) < 16 ? 16 / static_cast<int>(sizeof(T)) : 1)>,
                                         CUtensorMap>;

// Tiles in row-major order, tile t at (t / tiles_across, t % tiles_across); block b computes tiles
// b, b + gridDim.x, ... through a ring of stages + 2 slots: `stages` tiles load while one is
// computed, and the slot written next was last read two steps ago (one barrier per step).
// Policy: a StencilTiledPolicy of rank 2; `map` is TMA's when it loads with TMA (the row classes'
// maps for tma_row_classes).
template <class Policy, int Radius, StencilShape Shape, class T, class Boundary, class Op>
__global__ void __launch_bounds__(Policy::threads, Policy::min_blocks)
    stencil_2d_kernel(const __grid_constant__ StencilMaps2D<Policy, T> map, GlobalArray<const T, 2> in,
                      GlobalArray<T, 2> out, Boundary boundary, Op op, int tiles_across, int tiles) {
  constexpr bool RowClasses = Policy::loader == StencilLoader::tma_row_classes;
  constexpr bool UseTma = Policy::loader == StencilLoader::tma || RowClasses;
  constexpr int rows = Policy::rows, cols = Policy::cols, stages = Policy::stages;
  constexpr int slots = stencil_ring_slots<Policy>(Radius);
  using Layout = StencilTileLayout2D<Policy, Radius, T>;
  const TileRing<T, Layout> ring{aligned_dynamic_shared()};
  __shared__ unsigned long long landed[slots];  // TMA: one barrier per slot
  if constexpr (UseTma) init_slot_barriers(landed);
  const auto origin_of = [&](int t) { return Coord{t / tiles_across * rows, t % tiles_across * cols}; };
  // The layout of tile t (row classes: its rows' shifts, from the array's 16-byte phases).
  const auto layout_of = [&](int t) {
    if constexpr (RowClasses) {
      const int base = static_cast<int>(reinterpret_cast<unsigned long long>(in.data_handle()) & 15u);
      const int pitch = static_cast<int>((static_cast<unsigned long long>(in.stride(0)) * sizeof(T)) & 15u);
      return Layout{row_phase(base, pitch, origin_of(t).row), pitch};
    } else {
      return Layout{};
    }
  };
  const auto start = [&](int t, int slot) {
    if constexpr (RowClasses) {
      constexpr int classes = Layout::classes, first_class = ((classes - Radius) % classes + classes) % classes;
      start_tma_row_classes<T, Layout, Policy::tma_unit_bytes, Policy::warps>(
          map, landed[slot], ring[slot].data(), origin_of(t).row - Radius, first_class, origin_of(t).col - Policy::halo_cols);
    } else if constexpr (UseTma) {
      start_tma<T, Layout, false, Policy::tma_unit_bytes>(map, landed[slot], ring[slot].data(), 0,
                                                          origin_of(t) - layout_reach(Layout{}));
    } else {
      copy_global_to_tile_async(in, origin_of(t), ring[slot], boundary, FixedThreadBlock<Policy::threads>{});
      async_copy_commit();
    }
  };
  const int step = static_cast<int>(gridDim.x);
  int t = static_cast<int>(blockIdx.x);
  // TMA under a policy other than zero (by row classes, under zero too: a class's map reads the
  // columns left and right of the array's rows; in TMA units wider than the elements, under zero
  // where the rows are not whole units: stencil_map_padded): each tile's EdgeCells are planned
  // (periodic's values loaded) while the block computes the tile before.
  constexpr bool patches = stencil_edges_may_patch<Policy, T, Boundary>;
  const bool needed = stencil_edges_patched<Policy, T, Boundary>(in.extent(1));  // uniform
  EdgeCells<Policy::threads, Radius, T, Layout, Boundary> edge;
  const auto plan_edge = [&](int tile_index) {
    if (needed)
      edge.plan(origin_of(tile_index), static_cast<int>(in.extent(0)), static_cast<int>(in.extent(1)), in.stride(0),
                boundary, in.data_handle(), layout_of(tile_index));
  };
  if constexpr (patches) {
    if (t < tiles) plan_edge(t);
  }
#pragma unroll
  for (int s = 0; s < stages; ++s) {
    if (t + s * step < tiles) start(t + s * step, s);
    else if constexpr (!UseTma) async_copy_commit();  // cp.async counts groups: keep one per stage
  }
  const int out_rows = static_cast<int>(out.extent(0)), out_cols = static_cast<int>(out.extent(1));
  // Step k computes tile t in slot k % slots (its barrier's phase: (k / slots) % 2) and starts
  // loading the tile `stages` steps ahead into slot (k + stages) % slots, as the 3D sweep does.
  for (int k = 0; t < tiles; t += step, ++k) {
    const int slot = k % slots;
    if (t + stages * step < tiles) start(t + stages * step, (k + stages) % slots);
    else if constexpr (!UseTma) async_copy_commit();
    if constexpr (UseTma) wait_tma_slot(landed[slot], static_cast<unsigned>(k / slots) & 1u);
    else async_copy_wait<stages>();  // all but the newest `stages` groups: tile t
    const TileRef<T, Layout> tile{ring[slot].data(), layout_of(t)};
    if constexpr (patches) {  // after this thread's wait, before the barrier every reader passes
      if (edge.any) edge.write(tile.data());
    }
    __syncthreads();
    if constexpr (patches) {  // registers only: overlaps the compute
      if (t + step < tiles) plan_edge(t + step);
    }
    const Coord origin = origin_of(t);
    compute_tile_2d<Policy, Radius, Shape>(tile, origin, op, out, out_rows, out_cols);
  }
}

#endif  // __CUDACC__

}  // namespace detail
}  // namespace smemtile
