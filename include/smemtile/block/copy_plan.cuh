/// \file
/// What a copy between global memory and a tile will do, known at compile time and tested on the
/// host: which vector widths a layout keeps whole, the width the types decide (the view's
/// guaranteed alignment, the group's size), and the bank cost of every shared-memory request.
/// block/copy.cuh is the copy itself; block/copy_units.cuh its unit walks.
#pragma once

#include <cstddef>      // std::size_t
#include <type_traits>  // std::false_type

#include "../config.cuh"                 // SMEMTILE_HOST_DEVICE
#include "../core/banks.cuh"             // bank_cost, WarpAccess
#include "../core/coord.cuh"             // Coord, row_major_coord
#include "../core/global_view.cuh"       // guaranteed_row_alignment
#include "../core/halo_layout.cuh"       // HaloLayout (its reach and bank period)
#include "../core/layout.cuh"            // layout_reach, PaddedLayout, LinearLayout
#include "../core/swizzled_layout.cuh"   // SwizzledLayout (its bank period)
#include "../core/transpose_layout.cuh"  // TransposeLayout, WordTransposeLayout (their bank periods)

namespace smemtile {

// ---- compile-time facts about a copy (host-testable) --------------------------------------------

namespace detail {

// After how many rows a layout's bank pattern repeats: its bank_period_rows() where it has one
// (moving down that many rows moves every address by a multiple of 128 bytes and leaves any
// swizzle mask unchanged), else 0 (not known: every warp is evaluated).
template <class Layout, class = void>
struct HasBankPeriod : std::false_type {};
template <class Layout>
struct HasBankPeriod<Layout, decltype(void(Layout::bank_period_rows(1)))> : std::true_type {};
template <class Layout>
SMEMTILE_HOST_DEVICE constexpr int bank_period_rows(const Layout& layout, int elem_bytes) {
  if constexpr (HasBankPeriod<Layout>::value) return layout.bank_period_rows(elem_bytes);
  else return 0;
}

}  // namespace detail

/// Whether a copy into or out of a tile with `layout` may move `vector_bytes` at a time on the
/// shared side, as far as the layout alone decides (the tile's address is checked at run time).
template <class Layout>
SMEMTILE_HOST_DEVICE constexpr bool layout_allows_vector(const Layout& layout, int elem_bytes, int vector_bytes) {
  if (vector_bytes == elem_bytes) return true;
  if constexpr (Layout::vector_bytes == 0) {
    return false;
  } else {
    if (vector_bytes < elem_bytes || vector_bytes % elem_bytes != 0 || vector_bytes > Layout::vector_bytes) return false;
    const Coord reach = layout_reach(layout);
    const int region_cols = layout.cols() + 2 * reach.col;
    return (layout.row_stride() * elem_bytes) % vector_bytes == 0 && (region_cols * elem_bytes) % vector_bytes == 0;
  }
}

namespace detail {

// The widest unit (bytes) that a copy of a static layout may use with global rows aligned to
// `Aligned` bytes: the layout keeps it whole, and the region's rows, and its first column relative
// to the origin, are whole units. 0 where the types decide nothing (a run-time layout, or Aligned
// below the element: a view without a unit stride in its type).
template <bool ToTile, class Element, int Aligned, class Layout>
SMEMTILE_HOST_DEVICE constexpr int static_unit_bytes() {
  constexpr int elem = static_cast<int>(sizeof(Element));
  constexpr int aligned = Aligned;
  if constexpr (!Layout::is_static || aligned < elem) {
    return 0;
  } else {
    constexpr Layout layout{};
    constexpr Coord reach = ToTile ? layout_reach(layout) : Coord{0, 0};
    constexpr int row_bytes = (layout.cols() + 2 * reach.col) * elem;
    // The region's first element in the tile: a halo tile's storage start when loading, its
    // interior's (0, 0) when storing (a StaticHaloTile<float, 16, 32, 1, 1> stores its interior
    // from element 35 of its storage: 4-byte aligned only, whatever its 136-byte rows allow).
    constexpr int first_byte = layout.offset(-reach.row, -reach.col) * elem;
    for (int bytes = 16; bytes > elem; bytes /= 2)
      if (bytes <= aligned && layout_allows_vector(layout, elem, bytes) && row_bytes % bytes == 0 &&
          (reach.col * elem) % bytes == 0 && first_byte % bytes == 0)
        return bytes;
    return elem;
  }
}

// The width of a copy decided by the types alone: the width the group would take (width_for_group
// of the widest the layout allows) where the view's type guarantees it (static_unit_bytes with the
// view's row alignment), so that no run-time test could choose better; else 0 (the widths are
// tried at run time, copy_inside).
// Of the widths up to `widest`, a group of GroupSize threads (0: unknown) takes the widest that
// gives every thread the same number of units (no thread idles, no predicate), else `widest`.
template <bool ToTile, class Element, class Layout>
SMEMTILE_HOST_DEVICE constexpr int width_for_group(int widest, int group_size) {
  constexpr Layout layout{};
  constexpr Coord reach = ToTile ? layout_reach(layout) : Coord{0, 0};
  constexpr int region_bytes = (layout.rows() + 2 * reach.row) * (layout.cols() + 2 * reach.col) *
                               static_cast<int>(sizeof(Element));
  if (group_size <= 0) return widest;
  for (int bytes = widest; bytes >= static_cast<int>(sizeof(Element)); bytes /= 2)
    if ((region_bytes / bytes) % group_size == 0) return bytes;
  return widest;
}

template <bool ToTile, class Element, class Global, class Layout, class Group>
SMEMTILE_HOST_DEVICE constexpr int known_unit_bytes() {
  constexpr int known = static_unit_bytes<ToTile, Element, static_cast<int>(guaranteed_row_alignment<Global>()), Layout>();
  if constexpr (known > 0) {
    constexpr int best = width_for_group<ToTile, Element, Layout>(static_unit_bytes<ToTile, Element, 16, Layout>(),
                                                                  Group::static_size);
    return best <= known ? best : 0;
  } else {
    return 0;
  }
}

}  // namespace detail

/// The shared-side access of warp `warp` of a copy of `layout` in units of `vector_bytes`: lane t
/// takes unit 32 * warp + t of a row-major walk over the copied region (halo included).
template <class Layout>
SMEMTILE_HOST_DEVICE constexpr WarpAccess copy_warp_access(const Layout& layout, int elem_bytes, int vector_bytes,
                                                           int warp, AccessOp op) {
  WarpAccess access{{}, 0u, vector_bytes, op};
  const Coord reach = layout_reach(layout);
  const int rows = layout.rows() + 2 * reach.row;
  const int units_per_row = (layout.cols() + 2 * reach.col) * elem_bytes / vector_bytes;
  const int elems_per_unit = vector_bytes / elem_bytes;
  for (int lane = 0; lane < warp_lanes; ++lane) {
    const int unit = warp * warp_lanes + lane;
    if (unit >= rows * units_per_row) break;
    const Coord at = row_major_coord(static_cast<unsigned>(unit), static_cast<unsigned>(units_per_row));
    const int offset = layout.offset(at.row - reach.row, at.col * elems_per_unit - reach.col);
    access.byte_address[lane] = static_cast<unsigned>(offset) * static_cast<unsigned>(elem_bytes);
    access.active_mask |= 1u << lane;
  }
  return access;
}

/// The bank cost of every shared-side request of such a copy (all warps; a group whose size is a
/// multiple of 32 issues exactly these requests, in some order).
template <class Layout>
SMEMTILE_HOST_DEVICE constexpr BankCost copy_bank_cost(const Layout& layout, int elem_bytes, int vector_bytes,
                                                       AccessOp op = AccessOp::store) {
  const Coord reach = layout_reach(layout);
  const int units_per_row = (layout.cols() + 2 * reach.col) * elem_bytes / vector_bytes;
  const int units = (layout.rows() + 2 * reach.row) * units_per_row;
  const int full_warps = units / warp_lanes;
  // Warps whose units are bank_period_rows rows apart make the same request moved by a multiple of
  // 128 bytes, so they cost the same: only the first `period` warps are evaluated (which keeps the
  // compile-time check of large tiles within the compiler's constexpr budget), each counted as often
  // as it recurs.
  const int period_rows = detail::bank_period_rows(layout, elem_bytes);
  const int period = period_rows > 0 ? detail::lcm(warp_lanes, units_per_row * period_rows) / warp_lanes : 0;
  BankCost total{0, 0, 0, 0};
  if (period > 0 && period < full_warps) {
    for (int warp = 0; warp < period; ++warp) {
      const BankCost cost = bank_cost(copy_warp_access(layout, elem_bytes, vector_bytes, warp, op));
      const int times = full_warps / period + (warp < full_warps % period ? 1 : 0);
      total = total + BankCost{cost.wavefronts * times, cost.ideal_wavefronts * times, cost.conflicts * times,
                               cost.requests * times};
    }
  } else {
    for (int warp = 0; warp < full_warps; ++warp)
      total = total + bank_cost(copy_warp_access(layout, elem_bytes, vector_bytes, warp, op));
  }
  if (units % warp_lanes != 0)  // the last, partly filled warp
    total = total + bank_cost(copy_warp_access(layout, elem_bytes, vector_bytes, full_warps, op));
  return total;
}

/// Whether every width a copy of `layout` may use (16 bytes down to one element, where the layout
/// allows it) is conflict-free. Stores are counted: a copy's lanes never share an address, so its
/// loads cost the same.
template <class Layout>
SMEMTILE_HOST_DEVICE constexpr bool copy_conflict_free(const Layout& layout, int elem_bytes) {
  for (int bytes = 16; bytes >= elem_bytes; bytes /= 2) {
    if (!layout_allows_vector(layout, elem_bytes, bytes)) continue;
    if (copy_bank_cost(layout, elem_bytes, bytes, AccessOp::store).conflicts != 0) return false;
  }
  return true;
}

}  // namespace smemtile
