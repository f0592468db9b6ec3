/// \file
/// device_stencil's TMA loads: one barrier per ring slot, one thread issuing each tile's (plane's)
/// box, and the boundary policy written afterwards into the tiles that reach outside the array
/// (TMA fills with zeros only).
#pragma once

#include "../../block/tma_copy.cuh"     // init_tma_barriers, issue_tma_box, wait_tma_parity
#include "../../core/boundary.cuh"      // boundary_source, boundary_reads_near_edge
#include "../../core/coord.cuh"         // Coord
#include "../../core/global_view.cuh"   // global_pointer
#include "../../core/halo_layout.cuh"   // halo_frame_outside
#include "../../core/layout.cuh"        // layout_reach
#include "../../core/tile_ref.cuh"      // TileRef

namespace smemtile {
namespace detail {

#if defined(__CUDACC__)

// TMA: one barrier per ring slot, initialized by thread 0 (then the block synchronizes).
template <int Slots>
SMEMTILE_DEVICE void init_slot_barriers(unsigned long long (&landed)[Slots]) {
  init_tma_barriers(landed);
  __syncthreads();
}

// TMA: thread 0 starts loading the box whose first element is `first` (row, col; and `plane` of a
// 3D map, which may lie outside the volume) into `slot_data`, completing on `landed`. The map
// counts columns in TMA elements of UnitBytes (the policy's tma_unit_bytes).
template <class T, class Layout, bool Volume, int UnitBytes = static_cast<int>(sizeof(T))>
SMEMTILE_DEVICE void start_tma(const CUtensorMap& map, unsigned long long& landed, T* slot_data, int plane, Coord first) {
  static_assert(UnitBytes % sizeof(T) == 0, "a TMA element holds whole elements");
  first.col /= UnitBytes / static_cast<int>(sizeof(T));  // boxes start on whole TMA elements
  // Thread 0 issues; the ring slot's earlier reads come before the copy's writes (the issue fences).
  issue_tma_box<Volume>(threadIdx.x == 0, map, landed, slot_data,
                        static_cast<unsigned>(Layout::storage_size() * sizeof(T)), plane, first.row, first.col);
}

SMEMTILE_DEVICE void wait_tma_slot(unsigned long long& landed, unsigned parity) { wait_tma_parity(landed, parity); }

// After a TMA load (zeros outside the array), writes what `boundary` says into the cells of the
// halo tile at `origin` that lie outside `global` (a plane) within Radius of a point computed
// (halo_frame_outside: as many as the edge outside, not the tile), or into the whole widened
// region (`whole`: a plane outside the volume under a fill policy). Returns whether it wrote
// anything (the same for the whole block): the caller then synchronizes before reading the tile.
template <int Threads, int Radius, class T, class Layout, class Global, class Boundary>
SMEMTILE_DEVICE bool write_boundary(TileRef<T, Layout> tile, const Global& global, Coord origin,
                                    const Boundary& boundary, bool whole) {
  static_assert(Radius <= layout_reach(Layout{}).row && Radius <= layout_reach(Layout{}).col,
                "the tile's halo holds the stencil's reach");
  const int rows = static_cast<int>(global.extent(0)), cols = static_cast<int>(global.extent(1));
  const HaloFrameOutside frame =
      halo_frame_outside(origin, Coord{Layout::rows(), Layout::cols()}, Radius, rows, cols, whole);
  const int count = frame.cells();
  for (int k = static_cast<int>(threadIdx.x); k < count; k += Threads) {
    const Coord at = frame.cell(k);
    if constexpr (Boundary::maps_index) {
      // Clamp and reflect read a cell the load brought (inside the array: never a cell written
      // here); periodic mostly the far side of the array, from global memory.
      const Coord source = boundary_source<Boundary>(origin + at, rows, cols), local = source - origin;
      tile(at.row, at.col) = Layout::contains(local.row, local.col) ? tile(local.row, local.col)
                                                                    : *global_pointer(global, source.row, source.col);
    } else {
      tile(at.row, at.col) = boundary.template value<T>();
    }
  }
  return count > 0;
}

// A thread's share of the frame of a tile at an edge under a boundary that reads the far side of
// the array (periodic): the values whose sources the tile does not hold are loaded from global
// memory a step before the tile lands (fetch), so that writing them (write) waits for no load.
// Thread t takes frame cells t, t + Threads, ... (at most per_thread of them).
template <int Threads, int Radius, class T, class Layout>
struct FarEdgeValues {
  static constexpr int max_cells = 2 * Radius * (Layout::cols() + 2 * Radius) + 2 * Radius * Layout::rows();
  static constexpr int per_thread = (max_cells + Threads - 1) / Threads;
  T value[per_thread];

  template <class Boundary, class Global>
  SMEMTILE_DEVICE void fetch(const Global& global, Coord origin) {
    const int rows = static_cast<int>(global.extent(0)), cols = static_cast<int>(global.extent(1));
    const HaloFrameOutside frame = halo_frame_outside(origin, Coord{Layout::rows(), Layout::cols()}, Radius, rows, cols, false);
#pragma unroll
    for (int i = 0; i < per_thread; ++i) {
      const int k = static_cast<int>(threadIdx.x) + i * Threads;
      if (k >= frame.cells()) break;
      const Coord source = boundary_source<Boundary>(origin + frame.cell(k), rows, cols), local = source - origin;
      if (!Layout::contains(local.row, local.col)) value[i] = *global_pointer(global, source.row, source.col);
    }
  }

  // The frame of the tile fetched for, after its TMA load landed; whether anything was written.
  template <class Boundary, class Global>
  SMEMTILE_DEVICE bool write(TileRef<T, Layout> tile, const Global& global, Coord origin) const {
    const int rows = static_cast<int>(global.extent(0)), cols = static_cast<int>(global.extent(1));
    const HaloFrameOutside frame = halo_frame_outside(origin, Coord{Layout::rows(), Layout::cols()}, Radius, rows, cols, false);
#pragma unroll
    for (int i = 0; i < per_thread; ++i) {
      const int k = static_cast<int>(threadIdx.x) + i * Threads;
      if (k >= frame.cells()) break;
      const Coord at = frame.cell(k);
      const Coord local = boundary_source<Boundary>(origin + at, rows, cols) - origin;
      tile(at.row, at.col) = Layout::contains(local.row, local.col) ? tile(local.row, local.col) : value[i];
    }
    return frame.cells() > 0;
  }
};


#endif  // __CUDACC__

}  // namespace detail
}  // namespace smemtile
