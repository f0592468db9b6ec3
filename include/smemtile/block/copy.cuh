// smemtile/block/copy.cuh: cooperative copies between global memory and a tile.
//
//   __shared__ smemtile::StaticTile<float, 32, 64> tile;
//   auto in = smemtile::make_global_matrix(d_in, rows, cols);
//   const smemtile::Coord origin{int(blockIdx.y) * 32, int(blockIdx.x) * 64};
//   smemtile::copy_global_to_tile(in, origin, tile);   // tile(r, c) = in(origin + (r, c)), 0 outside
//   __syncthreads();                                   // copies never synchronize: the caller does
//   ... compute on the tile ...
//   __syncthreads();
//   smemtile::copy_tile_to_global(tile, out, origin);  // elements outside `out` are not written
//
// Every thread of the group (the whole block by default; see thread_group.cuh) calls the copy with
// the same arguments. The tile may sit anywhere over the global array, partly or wholly outside it:
// elements outside are never read or written; when loading, the tile gets what the boundary policy
// says (boundary.cuh: zero, a constant, or clamp / periodic / reflect, which read the element they
// stand for). A halo view (tile.interior(halo)) is filled halo included, its interior's (0, 0) at
// `origin`; storing one writes its interior.
//
// How the work is shared: the region is cut into units of one vector (16, 8, 4, 2 or 1 bytes; one
// element at least); consecutive ranks take consecutive units of a row, so global accesses are
// coalesced and shared ones walk the tile's rows. The widest vector is used whose alignment the
// addresses allow (global base, pitch, origin, and the tile's rows), narrower ones otherwise, one
// element at a time for a region that reaches outside the array. For tiles whose layout is known
// at compile time, a static_assert proves with the bank model (banks.cuh) that every width the copy
// may use is free of bank conflicts on the shared side.
#pragma once

#include <cuda/std/mdspan>  // cuda::std::mdspan
#include <type_traits>      // std::remove_const_t, std::is_trivially_copyable

#include "../config.cuh"         // SMEMTILE_DEVICE, SMEMTILE_HOST_DEVICE, SMEMTILE_CHECK
#include "../core/banks.cuh"     // bank_cost, WarpAccess
#include "../core/boundary.cuh"  // boundary::Zero and the other policies
#include "../core/coord.cuh"     // Coord, row_major_coord
#include "../core/halo_layout.cuh"  // HaloLayout (its reach and bank period)
#include "../core/layout.cuh"    // layout_reach, PaddedLayout, LinearLayout
#include "../core/swizzled_layout.cuh"   // SwizzledLayout (its bank period)
#include "../core/transpose_layout.cuh"  // TransposeLayout, WordTransposeLayout (their bank periods)
#include "../core/vector_type.cuh"  // detail::VectorOf
#include "../core/global_view.cuh"  // GlobalMatrix, make_global_matrix (what callers pass), global_pointer
#include "../core/tile_ref.cuh"  // TileRef, tile_ref
#include "copy_plan.cuh"        // widths and bank costs known at compile time
#include "copy_units.cuh"       // the unit walks
#include "thread_group.cuh"      // ThreadBlock, FixedThreadBlock, Warp

namespace smemtile {

#if defined(__CUDACC__)

namespace detail {


// Whether Bytes-wide units are possible at all: a static layout decides at compile time (widths it
// rules out are not instantiated: their per-thread unit count could be zero); a run-time layout at
// run time (vector_fits).
template <class Layout, int Elem, int Bytes>
SMEMTILE_HOST_DEVICE constexpr bool width_possible() {
  if constexpr (Layout::is_static) return layout_allows_vector(Layout{}, Elem, Bytes);
  else return true;
}

// Tries Bytes-wide units, then narrower ones down to one element.
template <bool ToTile, int Bytes, class Mover, class Group, class T, class Layout, class Global>
SMEMTILE_DEVICE void copy_inside(const Global& global, Coord global_first, TileRef<T, Layout> tile, CopyRegion region,
                                 Group group) {
  constexpr int elem = static_cast<int>(sizeof(std::remove_const_t<T>));
  if constexpr (Bytes > elem) {
    if constexpr (width_possible<Layout, elem, Bytes>()) {
      if (vector_fits<Bytes>(global, global_first, tile.data(), tile.layout(), region)) {
        copy_units<ToTile, Bytes, Mover>(global, global_first, tile, region, group);
        return;
      }
      // Loads of 1- and 2-byte elements from rows that are not 4-byte aligned: aligned words, shifted.
      if constexpr (Bytes == 4 && ToTile && !Mover::template asynchronous<4>) {
        if (words_realignable(global, global_first, tile.data(), tile.layout(), region)) {
          copy_units<ToTile, 4, Mover, true>(global, global_first, tile, region, group);
          return;
        }
      }
    }
    copy_inside<ToTile, Bytes / 2, Mover>(global, global_first, tile, region, group);
  } else {
    if constexpr (!ToTile && (elem == 2 || elem == 4 || elem == 8) && LayoutIsStatic<Layout>::value &&
                  Group::static_size > 0 && Group::static_size % warp_lanes == 0 && Layout{}.cols() > warp_lanes) {
      if (sector_runs_pay<T>(global, global_first, region)) {
        store_elements_sector_runs(global, global_first, tile, region, group);
        return;
      }
    }
    copy_units<ToTile, elem, Mover>(global, global_first, tile, region, group);
  }
}

// One element at a time, each checked against the array (a region reaching outside it).
template <bool ToTile, class Mover, class Group, class T, class Layout, class Global, class Boundary>
SMEMTILE_DEVICE void copy_elements_checked(const Global& global, Coord global_first, TileRef<T, Layout> tile,
                                           CopyRegion region, const Boundary& boundary, Group group) {
  using Element = std::remove_const_t<T>;
  const int rows = static_cast<int>(global.extent(0));
  const int cols = static_cast<int>(global.extent(1));
  const int count = region.rows * region.cols;
  const int step = static_cast<int>(group.size());
  for (int k = static_cast<int>(group.rank()); k < count; k += step) {
    const Coord at = row_major_coord(static_cast<unsigned>(k), static_cast<unsigned>(region.cols));
    Coord g = global_first + at;
    Element* shared = const_cast<Element*>(tile.data() + tile.layout().offset(region.first.row + at.row,
                                                                             region.first.col + at.col));
    const bool inside = g.row >= 0 && g.row < rows && g.col >= 0 && g.col < cols;
    if constexpr (ToTile && Mover::template asynchronous<static_cast<int>(sizeof(Element))>) {
      constexpr int elem = static_cast<int>(sizeof(Element));
      if constexpr (Boundary::maps_index) {
        // The element it stands for, copied asynchronously like any other.
        g = boundary_source<Boundary>(g, rows, cols);
        Mover::template start<elem>(shared, global_pointer(global, g.row, g.col));
      } else if (inside) {
        Mover::template start<elem>(shared, global_pointer(global, g.row, g.col));
      } else if (Boundary::is_zero && rows > 0 && cols > 0) {
        // Hardware zero fill: reads nothing; the source named is the nearest element (a valid address).
        const Coord nearest = boundary_source<boundary::Clamp>(g, rows, cols);
        Mover::template start_zero<elem>(shared, global_pointer(global, nearest.row, nearest.col));
      } else {
        *shared = boundary.template value<Element>();
      }
    } else if constexpr (ToTile) {
      if constexpr (Boundary::maps_index) {
        g = boundary_source<Boundary>(g, rows, cols);
        *shared = *global_pointer(global, g.row, g.col);
      } else {
        *shared = inside ? static_cast<Element>(*global_pointer(global, g.row, g.col))
                         : boundary.template value<Element>();
      }
    } else {
      if (inside) *const_cast<Element*>(global_pointer(global, g.row, g.col)) = *shared;
    }
  }
}

// A copy whose width is known at compile time (known_unit_bytes): the region's first column and
// the tile's first unit must be aligned to it, which debug builds check.
template <bool ToTile, int Bytes, class Mover, bool ElementRowSteps, class Group, class T, class Layout, class Global>
SMEMTILE_DEVICE void copy_known_width(const Global& global, Coord global_first, TileRef<T, Layout> tile,
                                      CopyRegion region, Group group) {
  using Element = std::remove_const_t<T>;
  SMEMTILE_CHECK((static_cast<long long>(global_first.col) * static_cast<long long>(sizeof(Element))) % Bytes == 0 &&
                     shared_window_address(tile.data() + tile.layout().offset(region.first.row, region.first.col)) % Bytes == 0,
                 "smemtile copy: with an aligned view the region's first column (origin - halo) and the tile must be "
                 "aligned to the copy's vector width (values: first column, element bytes, vector bytes)",
                 global_first.col, sizeof(Element), Bytes, 0);
  if constexpr (!ToTile && Bytes == static_cast<int>(sizeof(Element)) && (Bytes == 2 || Bytes == 4 || Bytes == 8) &&
                Group::static_size > 0 && Group::static_size % warp_lanes == 0 && Layout{}.cols() > warp_lanes) {
    if (sector_runs_pay<Element>(global, global_first, region)) {
      store_elements_sector_runs(global, global_first, tile, region, group);
      return;
    }
  }
  copy_units<ToTile, Bytes, Mover, false, ElementRowSteps>(global, global_first, tile, region, group);
}

// A raw pointer where an mdspan belongs: one error that says what to pass instead.
template <class Global>
SMEMTILE_HOST_DEVICE constexpr bool is_raw_pointer() {
  return std::is_pointer<std::remove_cv_t<std::remove_reference_t<Global>>>::value;
}
template <class Global>
SMEMTILE_DEVICE void reject_raw_pointer() {
  static_assert(!is_raw_pointer<Global>(),
                "smemtile copy: the global array is an mdspan (make_global_matrix(ptr, rows, cols) or "
                "make_aligned_matrix<16>(...)), not a raw pointer");
}

template <class Global>
SMEMTILE_DEVICE void check_global_view(const Global& global) {
  static_assert(Global::rank() == 2, "smemtile copies take a rank-2 mdspan here (use plane() for a volume)");
  SMEMTILE_CHECK(global.data_handle() != nullptr || global.extent(0) == 0 || global.extent(1) == 0,
                 "smemtile copy: the global array's pointer is null (values: rows, cols)", global.extent(0),
                 global.extent(1), 0, 0);
}

// The one copy: global region at origin - reach <-> the tile's region (halo included when loading).
// CheckBanks: prove the shared side conflict-free at compile time (static layouts). Only the
// transposes' fallback for misaligned 1- and 2-byte rows turns it off, accepting conflicts there to
// keep the global stores contiguous (block/transpose.cuh says why).
template <bool ToTile, class Mover = SyncMove, bool CheckBanks = true, class Group, class T, class Layout,
          class Global, class Boundary>
SMEMTILE_DEVICE void copy(const Global& global, Coord origin, TileRef<T, Layout> tile, const Boundary& boundary,
                          Group group) {
  using Element = std::remove_const_t<T>;
  static_assert(std::is_trivially_copyable<Element>::value, "smemtile copies move trivially copyable elements");
  static_assert(sizeof(Element) == 1 || sizeof(Element) == 2 || sizeof(Element) == 4 || sizeof(Element) == 8 ||
                    sizeof(Element) == 16,
                "smemtile copies move elements of 1, 2, 4, 8 or 16 bytes");
  static_assert(std::is_same<Element, std::remove_const_t<typename Global::element_type>>::value,
                "smemtile copy: the tile's and the global array's element types differ");
  static_assert(!ToTile || !std::is_const<T>::value, "smemtile copy_global_to_tile: the tile is read-only (const)");
  static_assert(ToTile || !std::is_const<typename Global::element_type>::value,
                "smemtile copy_tile_to_global: the global array is read-only (const)");
  if constexpr (Layout::is_static && CheckBanks) {
    static_assert(copy_conflict_free(Layout{}, static_cast<int>(sizeof(Element))),
                  "smemtile copy: with this tile layout the copy's shared-memory accesses would have bank "
                  "conflicts (a warp's units wrap onto banks already used); pad the rows differently, use an "
                  "AutoPaddedTile or a SwizzledTile");
  }
  check_global_view(global);
  const Coord reach = ToTile ? layout_reach(tile.layout()) : Coord{0, 0};
  const CopyRegion region{Coord{0, 0} - reach, tile.rows() + 2 * reach.row, tile.cols() + 2 * reach.col};
  const Coord global_first = origin - reach;
  constexpr int known_bytes = known_unit_bytes<ToTile, Element, Global, Layout, Group>();
  constexpr int known_units = known_bytes / static_cast<int>(sizeof(Element));
  if constexpr (AssumesInside<Boundary>::value) {
    // The caller's word: the region is inside and, with an aligned view, starts on a whole unit.
    SMEMTILE_CHECK(region_inside(global, global_first, region.rows, region.cols),
                   "smemtile copy with boundary::inside: the region reaches outside the array (values: first row, "
                   "first column, rows, columns)",
                   global_first.row, global_first.col, region.rows, region.cols);
    // Element units step by rows too here: the caller's loop, not the transposes' odd shapes.
    if constexpr (known_bytes > 0) copy_known_width<ToTile, known_bytes, Mover, true>(global, global_first, tile, region, group);
    else copy_inside<ToTile, 16, Mover>(global, global_first, tile, region, group);
  } else if (region_inside(global, global_first, region.rows, region.cols)) {
    if constexpr (known_bytes > 0) {
      if (known_units == 1 || global_first.col % known_units == 0)
        copy_known_width<ToTile, known_bytes, Mover, false>(global, global_first, tile, region, group);
      else copy_inside<ToTile, 16, Mover>(global, global_first, tile, region, group);
    } else {
      copy_inside<ToTile, 16, Mover>(global, global_first, tile, region, group);
    }
  } else {
    copy_elements_checked<ToTile, Mover>(global, global_first, tile, region, boundary, group);
  }
}

}  // namespace detail

/// Sets every element the tile (or view) can index, a halo view's halo included, to `value`. Every
/// thread of `group` calls it with the same arguments; it does not synchronize.
template <class Tile, class Value, class Group = ThreadBlock>
SMEMTILE_DEVICE void fill_tile(Tile&& tile, const Value& value, Group group = {}) {
  auto view = tile_ref(tile);
  using Element = std::remove_const_t<typename decltype(view)::element_type>;
  static_assert(!std::is_const<typename decltype(view)::element_type>::value, "smemtile fill_tile: the tile is read-only");
  using Layout = typename decltype(view)::layout_type;
  const Coord reach = layout_reach(view.layout());
  const int rows = view.rows() + 2 * reach.row, cols = view.cols() + 2 * reach.col;
  if constexpr (Layout::is_static && Group::static_size > 0) {
    // A compile-time count per thread: unrolled, no loop test (a 256-bin histogram's clear is one
    // store per thread of 256).
    constexpr Layout layout{};
    constexpr Coord static_reach = layout_reach(layout);
    constexpr int static_cols = layout.cols() + 2 * static_reach.col;
    constexpr int count = (layout.rows() + 2 * static_reach.row) * static_cols;
    constexpr int per_thread = (count + Group::static_size - 1) / Group::static_size;
    const int rank = static_cast<int>(group.rank());
#pragma unroll
    for (int i = 0; i < per_thread; ++i) {
      const int k = rank + i * Group::static_size;
      if (count % Group::static_size != 0 && k >= count) break;
      const Coord at = row_major_coord(static_cast<unsigned>(k), static_cast<unsigned>(static_cols)) - static_reach;
      view.data()[layout.offset(at.row, at.col)] = static_cast<Element>(value);
    }
  } else {
    const int step = static_cast<int>(group.size());
    for (int k = static_cast<int>(group.rank()); k < rows * cols; k += step) {
      const Coord at = row_major_coord(static_cast<unsigned>(k), static_cast<unsigned>(cols)) - reach;
      view.data()[view.layout().offset(at.row, at.col)] = static_cast<Element>(value);
    }
  }
}

/// Loads the tile from `global` (a rank-2 mdspan, or rank 1 for a 1D tile): tile(r, c) =
/// global(origin.row + r, origin.col + c), and what `boundary` says where that lies outside the
/// array. A halo view is filled halo included. Every thread of `group` calls it with the same
/// arguments. Does not synchronize: call group.sync() (__syncthreads()) before reading the tile.
template <class Global, class Tile, class Boundary = boundary::Zero, class Group = ThreadBlock>
SMEMTILE_DEVICE void copy_global_to_tile(const Global& global, Coord origin, Tile&& tile, Boundary boundary = {},
                                         Group group = {}) {
  if constexpr (detail::is_raw_pointer<Global>()) detail::reject_raw_pointer<Global>();
  else detail::copy<true>(global, origin, tile_ref(tile), boundary, group);
}

/// The 1D form: tile(i) = global(origin + i) for a 1D tile (or its halo view) and a rank-1 mdspan.
template <class T, class Extents, class Layout, class Accessor, class Tile, class Boundary = boundary::Zero,
          class Group = ThreadBlock>
SMEMTILE_DEVICE void copy_global_to_tile(const cuda::std::mdspan<T, Extents, Layout, Accessor>& global, int origin,
                                         Tile&& tile, Boundary boundary = {}, Group group = {}) {
  static_assert(Extents::rank() == 1, "smemtile: an int origin goes with a rank-1 mdspan; use a Coord for 2D");
  detail::copy<true>(detail::as_matrix(global), Coord{0, origin}, tile_ref(tile), boundary, group);
}

/// Stores the tile into `global`: global(origin.row + r, origin.col + c) = tile(r, c) for every
/// element of the tile (a halo view's interior) that lies inside the array; nothing else is written.
/// Every thread of `group` calls it with the same arguments. Does not synchronize: the tile must be
/// complete (group.sync() after the last write to it) before the call.
template <class Tile, class Global, class Group = ThreadBlock,
          class = std::enable_if_t<!detail::AssumesInside<Group>::value>>
SMEMTILE_DEVICE void copy_tile_to_global(Tile&& tile, const Global& global, Coord origin, Group group = {}) {
  if constexpr (detail::is_raw_pointer<Global>()) detail::reject_raw_pointer<Global>();
  else detail::copy<false>(global, origin, tile_ref(tile), boundary::Zero{}, group);
}

/// The same, the caller stating that the tile lies wholly inside the array (boundary::inside):
/// nothing is tested at run time in release builds; debug builds check it.
template <class Tile, class Global, class Group = ThreadBlock>
SMEMTILE_DEVICE void copy_tile_to_global(Tile&& tile, const Global& global, Coord origin, boundary::Inside inside,
                                         Group group = {}) {
  if constexpr (detail::is_raw_pointer<Global>()) detail::reject_raw_pointer<Global>();
  else detail::copy<false>(global, origin, tile_ref(tile), inside, group);
}

/// The 1D form: global(origin + i) = tile(i).
template <class Tile, class T, class Extents, class Layout, class Accessor, class Group = ThreadBlock,
          class = std::enable_if_t<!detail::AssumesInside<Group>::value>>
SMEMTILE_DEVICE void copy_tile_to_global(Tile&& tile, const cuda::std::mdspan<T, Extents, Layout, Accessor>& global,
                                         int origin, Group group = {}) {
  static_assert(Extents::rank() == 1, "smemtile: an int origin goes with a rank-1 mdspan; use a Coord for 2D");
  detail::copy<false>(detail::as_matrix(global), Coord{0, origin}, tile_ref(tile), boundary::Zero{}, group);
}

/// The 1D form, the tile wholly inside the array (boundary::inside).
template <class Tile, class T, class Extents, class Layout, class Accessor, class Group = ThreadBlock>
SMEMTILE_DEVICE void copy_tile_to_global(Tile&& tile, const cuda::std::mdspan<T, Extents, Layout, Accessor>& global,
                                         int origin, boundary::Inside inside, Group group = {}) {
  static_assert(Extents::rank() == 1, "smemtile: an int origin goes with a rank-1 mdspan; use a Coord for 2D");
  detail::copy<false>(detail::as_matrix(global), Coord{0, origin}, tile_ref(tile), inside, group);
}

#endif  // __CUDACC__

}  // namespace smemtile
