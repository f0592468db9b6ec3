/// \file
/// device_stencil's TMA loads: one barrier per ring slot, one thread issuing each tile's (plane's)
/// box, and the boundary policy written afterwards into the cells a tile at an edge reads outside
/// the array (TMA fills with zeros only).
#pragma once

#include "../../block/tma_copy.cuh"     // init_tma_barriers, issue_tma_box, wait_tma_parity
#include "../../core/boundary.cuh"      // boundary_source, boundary_reads_near_edge
#include "../../core/coord.cuh"         // Coord
#include "../../core/halo_layout.cuh"   // halo_frame_outside
#include "../../core/layout.cuh"        // layout_reach
#include "../../core/tile_ref.cuh"      // TileRef
#include "../tuning/stencil_policy.cuh"  // StencilLoader

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

// The tensor maps of an array's row classes (core/row_class_layout.cuh): map c reads the rows y
// with y mod Classes == c, from the 16-byte boundary at or before row c's first element.
template <int Classes>
struct RowClassTensorMaps {
  CUtensorMap map[Classes];
};

// TMA by row classes: the tile's boxes, one per class, into `slot_data` (a RowClassHaloLayout's
// storage), completing on `landed`. `first_row` is the array row of the tile's storage row 0 (in a
// 3D sweep, the row of the volume's rows: plane * rows + row), `first_class` that row's class
// (first_row mod Classes: a constant in 2D, whose tiles start on a multiple of Classes rows less the
// reach), `col` the array column of storage column 0. Storage region j takes the rows of array
// class (first_class + j) mod Classes. Lane 0 of warp w issues boxes w, w + Warps, ...: one thread
// issuing all sixteen boxes of a byte tile held its warp, and at the next barrier the block, for as
// long as the others computed. Thread 0 announces the whole tile's bytes first; a box may land
// before (the barrier's transaction count goes below zero for a while; its phase waits for thread
// 0's arrival). The map counts columns in TMA elements of UnitBytes.
template <class T, class Layout, int UnitBytes, int Warps>
SMEMTILE_DEVICE void start_tma_row_classes(const RowClassTensorMaps<Layout::classes>& maps, unsigned long long& landed,
                                           T* slot_data, int first_row, int first_class, int col) {
  constexpr int classes = Layout::classes;
  SMEMTILE_CHECK(first_class >= 0 && first_class < classes && (first_row - first_class) % classes == 0,
                 "stencil: a row-classes tile at row (row, class, -, -)", first_row, first_class, 0, 0);
#if SMEMTILE_HAS_TMA
  if (threadIdx.x % 32 != 0) return;
  const int warp = static_cast<int>(threadIdx.x) / 32;
  arch::fence_proxy_async_shared();  // earlier generic accesses to the slot come before the copies
  if (warp == 0) arch::mbarrier_arrive_expect_tx(&landed, static_cast<unsigned>(Layout::box_bytes()));
  const int unit_col = col / (UnitBytes / static_cast<int>(sizeof(T)));
#pragma unroll
  for (int j = 0; j < classes; ++j) {
    const int c = (first_class + j) % classes;  // array class of storage region j
    if (j % Warps == warp)
      arch::tma_load_2d(slot_data + Layout::class_start(j), &maps.map[c], &landed, (first_row + j - c) / classes, unit_col);
  }
#else
  (void)maps, (void)landed, (void)slot_data, (void)first_row, (void)first_class, (void)col;
  __trap();
#endif
}

// Whether a TMA map of Policy's units reads past the array's rows of `cols` elements (rows that are
// not whole units: the dispatch's map ends at the unit holding the last element), so that under
// boundary::zero too the cells outside must be written (EdgeCells): the map does not fill them.
template <class Policy, class T>
SMEMTILE_DEVICE bool stencil_map_padded(long long cols) {
  return Policy::tma_unit_bytes > static_cast<int>(sizeof(T)) &&
         cols * static_cast<long long>(sizeof(T)) % Policy::tma_unit_bytes != 0;
}

// Whether a kernel of Policy may have to write the policy's values into a TMA tile's cells outside
// the array (EdgeCells): under a policy other than zero, by row classes under every policy (their
// rows beyond the array are other rows), and under zero in TMA units wider than the elements
// (stencil_map_padded). The 2D and 3D kernels keep EdgeCells only then.
template <class Policy, class T, class Boundary>
inline constexpr bool stencil_edges_may_patch =
    (Policy::loader == StencilLoader::tma &&
     (!Boundary::is_zero || Policy::tma_unit_bytes > static_cast<int>(sizeof(T)))) ||
    Policy::loader == StencilLoader::tma_row_classes;

// Whether they must for an array of rows of `cols` elements (uniform: planned only then).
template <class Policy, class T, class Boundary>
SMEMTILE_DEVICE bool stencil_edges_patched(long long cols) {
  return !Boundary::is_zero || Policy::loader == StencilLoader::tma_row_classes || stencil_map_padded<Policy, T>(cols);
}

// After a TMA load of a plane outside the volume under a fill policy (zeros), the policy's value
// into the whole region a stencil of Radius reads around the tile at `origin` of the rows x cols
// planes (halo_frame_outside with `whole`).
template <int Threads, int Radius, class T, class Layout, class Boundary>
SMEMTILE_DEVICE void fill_plane_region(TileRef<T, Layout> tile, Coord origin, int rows, int cols, const Boundary& boundary) {
  static_assert(!Boundary::maps_index, "a plane outside the volume is filled under fill policies only");
  const HaloFrameOutside frame = halo_frame_outside(origin, Coord{Layout::rows(), Layout::cols()}, Radius, rows, cols, true);
  for (int k = static_cast<int>(threadIdx.x); k < frame.cells(); k += Threads) {
    const Coord at = frame.cell(k);
    tile(at.row, at.col) = boundary.template value<T>();
  }
}

// Where the values of a tile's cells outside the array come from under a boundary policy: its
// fill value, a cell the tile holds (clamp, reflect: halo_frame_outside's sources lie within the
// radius of the tile's interior, host-tested), or the far side of the array (periodic).
enum class EdgeSource { fill, tile, far };
template <class Boundary>
inline constexpr EdgeSource edge_source = !Boundary::maps_index                   ? EdgeSource::fill
                                          : boundary_reads_near_edge<Boundary> ? EdgeSource::tile
                                                                               : EdgeSource::far;

// One thread's share of the cells of a halo tile at an edge (halo_frame_outside: thread t takes
// cells t, t + Threads, ...), with their storage offsets and sources (edge_source), worked out
// once per tile (once per block for a 3D sweep, whose planes share the tile's position). Periodic
// values are loaded a step before their tile lands (plan loads the first plane's, fetch a later
// plane's), so that writing the cells (write) waits for no load. After a TMA load (zeros outside
// the array) write gives the tile what the boundary says. Only what the policy needs is kept, in
// registers, for the whole sweep: a far source shares its cell's int with the tile's sources.
// Coded (a RowClassHaloLayout whose planes differ in phase: a 3D sweep by row classes): the
// offsets are kept as the layout's offset codes, and write() takes the plane's layout to decode them.
template <int Threads, int Radius, class T, class Layout, class Boundary, bool Coded = false>
struct EdgeCells {
  static constexpr EdgeSource kind = edge_source<Boundary>;
  static constexpr int per_thread =
      (2 * Radius * (Layout::cols() + 2 * Radius) + 2 * Radius * Layout::rows() + Threads - 1) / Threads;
  static constexpr int far_cells = kind == EdgeSource::far ? per_thread : 1;
  static_assert(Radius <= layout_reach(Layout{}).row && Radius <= layout_reach(Layout{}).col,
                "the tile's halo holds the stencil's reach");
  int count = 0;                                          // this thread's cells; far: the tile's (has)
  bool any = false;                                       // the tile has cells outside (block-uniform)
  int at[per_thread];                                     // the cell's storage offset
  int source[kind == EdgeSource::fill ? 1 : per_thread];  // its source's storage offset, or far_code
  T value[far_cells];                                     // far: the fetched values
  T fill;                                                 // fill: the policy's value

  // Whether slot i holds one of this thread's cells. Periodic counts the tile's cells, a
  // block-uniform value that takes none of the thread's registers (its values need them); fill and
  // tile count their own (fewer registers there).
  SMEMTILE_DEVICE bool has(int i) const {
    if constexpr (kind == EdgeSource::far) return static_cast<int>(threadIdx.x) + i * Threads < count;
    else return i < count;
  }

  // A far source in source[]: negative, ~ its offset within the plane, which fetch reads in the
  // later planes of a 3D sweep (planes of at most 2^31 elements there: stencil_plane_offsets_fit,
  // checked by the dispatch). plan reads the first plane from the 64-bit offset and keeps its low
  // 31 bits only, so that the code stays negative in larger 2D arrays (which never fetch: the 2D
  // kernel plans every tile).
  SMEMTILE_DEVICE static int far_code(long long offset) { return ~static_cast<int>(offset & 0x7fffffff); }

  // The cells of the tile at `origin` in a rows x cols array (a plane) whose rows are `pitch` apart,
  // stored by `layout` (the tile's, for layouts with run-time state); periodic: with the values of
  // the first plane, at `plane_data`. (Never planned, a tile has no cells: any is false.)
  SMEMTILE_DEVICE void plan(Coord origin, int rows, int cols, long long pitch, const Boundary& boundary,
                            const T* plane_data, const Layout& layout = Layout{}) {
    const HaloFrameOutside frame = halo_frame_outside(origin, Coord{Layout::rows(), Layout::cols()}, Radius, rows, cols, false);
    any = frame.cells() > 0;
    count = kind == EdgeSource::far ? frame.cells() : 0;
    if constexpr (kind == EdgeSource::fill) fill = boundary.template value<T>();
#pragma unroll
    for (int i = 0; i < per_thread; ++i) {
      const int k = static_cast<int>(threadIdx.x) + i * Threads;
      if (k >= frame.cells()) break;
      const Coord cell = frame.cell(k);
      at[i] = offset(layout, cell.row, cell.col);
      if constexpr (kind != EdgeSource::fill) {
        const Coord from = boundary_source<Boundary>(origin + cell, rows, cols), local = from - origin;
        const bool held = Layout::contains(local.row, local.col);
        SMEMTILE_CHECK(kind == EdgeSource::far || held, "stencil: a clamp or reflect source outside the tile",
                       local.row, local.col, origin.row, origin.col);
        source[i] = held ? offset(layout, local.row, local.col) : -1;
        if constexpr (kind == EdgeSource::far) {
          if (!held) {
            const long long offset = static_cast<long long>(from.row) * pitch + from.col;
            value[i] = plane_data[offset];
            source[i] = far_code(offset);
          }
        }
      }
      if constexpr (kind != EdgeSource::far) count = i + 1;
    }
  }

  // Periodic: loads the values of sources the tile does not hold, from the plane at `plane_data`
  // (a later plane of the sweep).
  SMEMTILE_DEVICE void fetch(const T* plane_data) {
    if constexpr (kind == EdgeSource::far) {
#pragma unroll
      for (int i = 0; i < per_thread; ++i)
        if (has(i) && source[i] < 0) value[i] = plane_data[~source[i]];
    }
  }

  // What plan keeps of (row, col): its storage offset, or (Coded) its offset code.
  SMEMTILE_DEVICE static int offset(const Layout& layout, int row, int col) {
    if constexpr (Coded) return Layout::offset_code(row, col);
    else return layout.offset(row, col);
  }

  // The cells into the tile whose storage starts at `data`, after its load landed; Coded: the
  // tile's `layout` decodes the offsets.
  SMEMTILE_DEVICE void write(T* data, const Layout& layout = Layout{}) const {
    const auto place = [&](int kept) {
      if constexpr (Coded) return layout.offset_of_code(kept);
      else return kept;
    };
#pragma unroll
    for (int i = 0; i < per_thread; ++i) {
      if (!has(i)) break;
      if constexpr (kind == EdgeSource::fill) data[place(at[i])] = fill;
      else if constexpr (kind == EdgeSource::tile) data[place(at[i])] = data[place(source[i])];
      else data[place(at[i])] = source[i] >= 0 ? data[place(source[i])] : value[i];
    }
  }
};

#endif  // __CUDACC__

}  // namespace detail
}  // namespace smemtile
