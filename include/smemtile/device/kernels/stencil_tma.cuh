/// \file
/// device_stencil's TMA loads: one barrier per ring slot, one thread issuing each tile's (plane's)
/// box, and the boundary policy written afterwards into the tiles that reach outside the array
/// (TMA fills with zeros only).
#pragma once

#include "../../block/tma_copy.cuh"     // init_tma_barriers, issue_tma_box, wait_tma_parity
#include "../../core/boundary.cuh"      // boundary_source
#include "../../core/coord.cuh"         // Coord
#include "../../core/global_view.cuh"   // global_pointer
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

// Whether the region of a halo tile at `origin` (interior origin) reaches outside the array.
template <class Layout, class Global>
SMEMTILE_DEVICE bool reaches_outside(const Global& global, Coord origin) {
  constexpr Coord reach = layout_reach(Layout{});
  return origin.row - reach.row < 0 || origin.col - reach.col < 0 ||
         origin.row + Layout::rows() + reach.row > static_cast<int>(global.extent(0)) ||
         origin.col + Layout::cols() + reach.col > static_cast<int>(global.extent(1));
}

// After a TMA load (zeros outside the array), writes what `boundary` says into the elements of the
// halo tile at `origin` that lie outside `global` (a plane), or into all of them (`whole`: a plane
// outside the volume under a fill policy). The tile then holds exactly what copy_global_to_tile
// would have loaded. Only tiles reaching outside the array pay for it.
template <int Threads, class T, class Layout, class Global, class Boundary>
SMEMTILE_DEVICE void write_boundary(TileRef<T, Layout> tile, const Global& global, Coord origin,
                                    const Boundary& boundary, bool whole) {
  constexpr Coord reach = layout_reach(Layout{});
  constexpr int region_cols = Layout::cols() + 2 * reach.col;
  constexpr int count = (Layout::rows() + 2 * reach.row) * region_cols;
  const int rows = static_cast<int>(global.extent(0)), cols = static_cast<int>(global.extent(1));
  for (int k = static_cast<int>(threadIdx.x); k < count; k += Threads) {
    const Coord at = Coord{k / region_cols, k % region_cols} - reach;
    const Coord g = origin + at;
    if (!whole && g.row >= 0 && g.row < rows && g.col >= 0 && g.col < cols) continue;
    if constexpr (Boundary::maps_index) {
      const Coord source = boundary_source<Boundary>(g, rows, cols);
      tile(at.row, at.col) = *global_pointer(global, source.row, source.col);
    } else {
      tile(at.row, at.col) = boundary.template value<T>();
    }
  }
}

#endif  // __CUDACC__

}  // namespace detail
}  // namespace smemtile
