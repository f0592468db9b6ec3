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

#include "../arch/global_load.cuh"  // load_global_fetch_256 (SyncMoveFetch256)
#include "../config.cuh"         // SMEMTILE_DEVICE, SMEMTILE_HOST_DEVICE, SMEMTILE_CHECK
#include "../core/banks.cuh"     // bank_cost, WarpAccess
#include "../core/boundary.cuh"  // boundary::Zero and the other policies
#include "../core/coord.cuh"     // Coord, row_major_coord
#include "../core/halo_layout.cuh"  // HaloLayout (its reach and bank period)
#include "../core/layout.cuh"    // layout_reach, PaddedLayout, LinearLayout
#include "../core/swizzled_layout.cuh"   // SwizzledLayout (its bank period)
#include "../core/transpose_layout.cuh"  // TransposeLayout, WordTransposeLayout (their bank periods)
#include "../core/vector_type.cuh"  // detail::VectorOf
#include "../core/global_view.cuh"  // GlobalMatrix, make_global_matrix (what callers pass)
#include "../core/tile_ref.cuh"  // TileRef, tile_ref
#include "thread_group.cuh"      // ThreadBlock, FixedThreadBlock, Warp

namespace smemtile {

// ---- compile-time facts about a copy (host-testable) --------------------------------------------

namespace detail {

SMEMTILE_HOST_DEVICE constexpr int gcd(int a, int b) { return b == 0 ? a : gcd(b, a % b); }
SMEMTILE_HOST_DEVICE constexpr int lcm(int a, int b) { return a / gcd(a, b) * b; }

// After how many rows a layout's bank pattern repeats: moving down that many rows moves every
// address by a multiple of 128 bytes (and leaves any swizzle mask unchanged). 0: not known.
template <class Layout>
SMEMTILE_HOST_DEVICE constexpr int bank_period_rows(const Layout&, int) {
  return 0;
}
template <int R, int C, int P>
SMEMTILE_HOST_DEVICE constexpr int bank_period_rows(const PaddedLayout<R, C, P>&, int elem_bytes) {
  return wavefront_bytes / gcd(wavefront_bytes, (C + P) * elem_bytes);
}
template <int N>
SMEMTILE_HOST_DEVICE constexpr int bank_period_rows(const LinearLayout<N>&, int) {
  return 1;
}
template <int R, int C, int E>
SMEMTILE_HOST_DEVICE constexpr int bank_period_rows(const SwizzledLayout<R, C, E>&, int) {
  return SwizzledLayout<R, C, E>::line_elems;  // rows are whole lines; the XOR mask repeats after V rows
}
template <int R, int C, int HR, int HC, int P, int K>
SMEMTILE_HOST_DEVICE constexpr int bank_period_rows(const HaloLayout<R, C, HR, HC, P, K>& layout, int elem_bytes) {
  return wavefront_bytes / gcd(wavefront_bytes, layout.row_stride() * elem_bytes);
}
template <int R, int C, int E>
SMEMTILE_HOST_DEVICE constexpr int bank_period_rows(const TransposeLayout<R, C, E>&, int) {
  return 8 * TransposeLayout<R, C, E>::block_rows;  // rows are whole lines; the mask repeats after 8 blocks
}
template <int R, int C, int E>
SMEMTILE_HOST_DEVICE constexpr int bank_period_rows(const WordTransposeLayout<R, C, E>&, int) {
  return 32 * WordTransposeLayout<R, C, E>::word_elems;  // whole lines; the mask repeats after 32 blocks
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

#if defined(__CUDACC__)

namespace detail {

template <class Layout>
struct LayoutIsStatic {
  static constexpr bool value = Layout::is_static;
};

// Whether a group splits its rank itself (FixedThreadBlock: from threadIdx where it knows its shape).
template <class Group, class = void>
struct GroupSplitsRank : std::false_type {};
template <class Group>
struct GroupSplitsRank<Group, decltype(void(&Group::template split_rank<1>))> : std::true_type {};

// The region a copy moves, in tile coordinates: [first.row, first.row + rows) x [first.col, ...).
struct CopyRegion {
  Coord first;
  int rows;
  int cols;
};

// Whether the element type T's region of `global` starting at `at` (rows x cols) lies inside.
template <class Global>
SMEMTILE_DEVICE bool region_inside(const Global& global, Coord at, int rows, int cols) {
  return at.row >= 0 && at.col >= 0 && at.row + rows <= static_cast<int>(global.extent(0)) &&
         at.col + cols <= static_cast<int>(global.extent(1));
}

// Element pointer of (row, col) of a rank-2 mdspan, with 64-bit offset arithmetic.
template <class Global>
SMEMTILE_DEVICE auto global_pointer(const Global& global, int row, int col) {
  return global.data_handle() + static_cast<long long>(row) * global.stride(0) +
         static_cast<long long>(col) * global.stride(1);
}

template <class T>
SMEMTILE_DEVICE unsigned shared_address(const T* p) {
  return static_cast<unsigned>(__cvta_generic_to_shared(p));
}

// Whether Bytes-wide units fit the addresses: global start, pitch, unit stride 1, and the tile's
// first element and row stride (the layout's part was checked at compile time or is checked here),
// and the region's rows are whole units (a store of a halo view moves only its interior, which
// layout_allows_vector, counting the halo, does not see).
template <int Bytes, class T, class Global, class Layout>
SMEMTILE_DEVICE bool vector_fits(const Global& global, Coord global_first, const T* tile_data, const Layout& layout,
                                 CopyRegion region) {
  if (Bytes == static_cast<int>(sizeof(T))) return true;
  if (!layout_allows_vector(layout, static_cast<int>(sizeof(T)), Bytes)) return false;
  if ((region.cols * static_cast<int>(sizeof(T))) % Bytes != 0) return false;
  const auto* g = global_pointer(global, global_first.row, global_first.col);
  const unsigned tile_first = shared_address(tile_data + layout.offset(region.first.row, region.first.col));
  return global.stride(1) == 1 && (static_cast<long long>(global.stride(0)) * sizeof(T)) % Bytes == 0 &&
         reinterpret_cast<unsigned long long>(g) % Bytes == 0 && tile_first % Bytes == 0;
}

// Whether 4-byte units of 1- and 2-byte elements can be loaded realigned (load_realigned_word): the
// tile side takes whole words (as vector_fits asks), the array's rows are contiguous, and the
// aligned words around the region's first and last units lie inside the array (else, near the
// array's first or last bytes, the elements move one by one).
template <class T, class Global, class Layout>
SMEMTILE_DEVICE bool words_realignable(const Global& global, Coord global_first, const T* tile_data,
                                       const Layout& layout, CopyRegion region) {
  if (sizeof(T) > 2 || !layout_allows_vector(layout, static_cast<int>(sizeof(T)), 4)) return false;
  if ((region.cols * static_cast<int>(sizeof(T))) % 4 != 0 || global.stride(1) != 1) return false;
  if (shared_address(tile_data + layout.offset(region.first.row, region.first.col)) % 4 != 0) return false;
  const auto address = [](const auto* p) { return reinterpret_cast<unsigned long long>(p); };
  const unsigned long long first = address(global.data_handle());
  const unsigned long long end = address(global_pointer(global, static_cast<int>(global.extent(0)) - 1, 0)) +
                                 static_cast<unsigned long long>(global.extent(1)) * sizeof(T);
  const unsigned long long lowest = address(global_pointer(global, global_first.row, global_first.col));
  const unsigned long long highest = address(global_pointer(global, global_first.row + region.rows - 1,
                                                            global_first.col + region.cols - 4 / static_cast<int>(sizeof(T))));
  return (lowest & ~3ull) >= first && (highest & ~3ull) + 8 <= end;
}

// How a load moves its units into the tile. SyncMove: ordinary loads and stores (copy_global_to_tile).
// A mover for which asynchronous<Bytes> is true starts Bytes-wide unit copies with
// start<Bytes>(shared dst, global src) and zero-fills with start_zero<Bytes>(dst, any valid global
// address); the other widths (and every store to global memory) take the synchronous code.
// AsyncMove (async_copy.cuh) is the cp.async mover. fetch_256: whether the synchronous code's loads
// ask L2 for the 256 bytes around each (arch::load_global_fetch_256).
struct SyncMove {
  template <int Bytes>
  static constexpr bool asynchronous = false;
  static constexpr bool fetch_256 = false;
};
// SyncMove whose 4- to 16-byte loads have L2 fetch 256 bytes: for tiles whose rows are one 128-byte
// line, the half the block beside reads next (device_transpose's tiles of bytes and halves).
struct SyncMoveFetch256 : SyncMove {
  static constexpr bool fetch_256 = true;
};

// A unit of the global array loaded by the synchronous code, as the mover asks.
template <class Mover, class V>
SMEMTILE_DEVICE V load_global_unit(const V* p) {
  if constexpr (Mover::fetch_256) return arch::load_global_fetch_256(p);
  else return *p;
}

// The 4 bytes at `p`, read as the two aligned 4-byte words holding them (loaded as the mover
// asks), shifted together. Both words must lie inside the array (words_realignable checks it for a
// region).
template <class Mover>
SMEMTILE_DEVICE unsigned load_realigned_word(const void* p) {
  const unsigned char* bytes = static_cast<const unsigned char*>(p);
  const unsigned shift = static_cast<unsigned>(reinterpret_cast<unsigned long long>(bytes) & 3u);
  const unsigned* word = reinterpret_cast<const unsigned*>(bytes - shift);  // pointer arithmetic: stays global
  return __funnelshift_r(load_global_unit<Mover>(word), load_global_unit<Mover>(word + 1), 8 * shift);
}

// A thread's PerThread units of a GroupSize-thread group's Units, in batches of Batch: every
// load of a batch (load(k) -> Vector) before its stores (store(k, value)), so that several are in
// flight. Unit k is the thread's (rank + k * GroupSize)-th; units past Units are skipped.
template <class Vector, int PerThread, int Batch, int GroupSize, int Units, class Load, class Store>
SMEMTILE_DEVICE void load_then_store(int rank, Load load, Store store) {
  constexpr bool all_active = Units % GroupSize == 0 && PerThread % Batch == 0;
#pragma unroll
  for (int first = 0; first < PerThread; first += Batch) {
    Vector held[Batch];
#pragma unroll
    for (int i = 0; i < Batch; ++i)
      if (all_active || (first + i < PerThread && rank + (first + i) * GroupSize < Units)) held[i] = load(first + i);
#pragma unroll
    for (int i = 0; i < Batch; ++i)
      if (all_active || (first + i < PerThread && rank + (first + i) * GroupSize < Units)) store(first + i, held[i]);
  }
}

// The first unit of this thread in a row-major walk over rows of UnitsPerRow units (rank 1: one row).
template <int UnitsPerRow, int PerUnit, int Rank, class Group>
SMEMTILE_DEVICE Coord first_unit_of(const Group& group) {
  if constexpr (Rank == 1) {
    return Coord{0, static_cast<int>(group.rank()) * PerUnit};
  } else if constexpr (GroupSplitsRank<Group>::value) {
    int row = 0, col = 0;
    group.template split_rank<UnitsPerRow>(row, col);
    return Coord{row, col * PerUnit};
  } else {
    const Coord at = row_major_coord(group.rank(), static_cast<unsigned>(UnitsPerRow));
    return Coord{at.row, at.col * PerUnit};
  }
}

// Moves a region that lies wholly inside the global array in Bytes-wide units (fast path).
// ToTile: global -> tile, else tile -> global. Realign (loads of 4-byte units of 1- and 2-byte
// elements from rows that are not 4-byte aligned): each unit is read as the two aligned words
// around it and shifted (load_realigned_word), and stored to the tile as one word, rather than
// moving its elements one by one (bytes: 2 loads and 1 store per 4 bytes instead of 4 and 4).
template <bool ToTile, int Bytes, class Mover, bool Realign = false, bool ElementRowSteps = false, class Group, class T,
          class Layout, class Global>
SMEMTILE_DEVICE void copy_units(const Global& global, Coord global_first, TileRef<T, Layout> tile, CopyRegion region,
                                Group group) {
  static_assert(!Realign || (ToTile && Bytes == 4), "smemtile copy: realigned units are 4-byte loads");
  using Element = std::remove_const_t<T>;
  // A unit of one element moves as the element type itself, so that an element aligned below its
  // size (struct {float x, y;}) is accessed as its alignment allows, not as one 8-byte vector.
  using Vector = std::conditional_t<Bytes == static_cast<int>(sizeof(Element)), Element, typename VectorOf<Bytes>::type>;
  constexpr int per_unit = Bytes / static_cast<int>(sizeof(Element));
  const int units_per_row = region.cols / per_unit;
  const int units = region.rows * units_per_row;
  // Unit `unit` of a row-major walk over rows of `row_units` units (the static path passes a
  // compile-time count, so that the division folds).
  const auto unit_in_rows = [](int unit, int row_units) {
    if constexpr (Layout::rank == 1) return Coord{0, unit * per_unit};  // one row: no division
    Coord at = row_major_coord(static_cast<unsigned>(unit), static_cast<unsigned>(row_units));
    at.col *= per_unit;
    return at;
  };
  const auto unit_at = [&](int unit) { return unit_in_rows(unit, units_per_row); };
  const auto global_unit = [&](Coord at) {
    // Units of several elements only exist where the rows are contiguous (vector_fits and
    // words_realignable check it): no column stride to multiply by (the compiler kept that 64-bit
    // multiply for 8-byte units: tests/transpose/transpose_pairs.cu).
    if constexpr (per_unit > 1 || Realign)
      return global.data_handle() + static_cast<long long>(global_first.row + at.row) * global.stride(0) +
             (global_first.col + at.col);
    else return global_pointer(global, global_first.row + at.row, global_first.col + at.col);
  };
  const auto tile_unit = [&](Coord at) {
    return tile.data() + tile.layout().offset(region.first.row + at.row, region.first.col + at.col);
  };
  constexpr bool all_static = LayoutIsStatic<Layout>::value && Group::static_size > 0;
  if constexpr (ToTile && Mover::template asynchronous<Bytes>) {
    // Asynchronous: each unit is one copy started by this thread; nothing is held in registers.
    if constexpr (all_static) {
      constexpr Layout layout{};
      constexpr Coord reach = ToTile ? layout_reach(layout) : Coord{0, 0};  // loads fill a halo too
      constexpr int static_units =
          (layout.rows() + 2 * reach.row) * ((layout.cols() + 2 * reach.col) * static_cast<int>(sizeof(Element)) / Bytes);
      constexpr int per_thread = (static_units + Group::static_size - 1) / Group::static_size;
      const int rank = static_cast<int>(group.rank());
#pragma unroll
      for (int i = 0; i < per_thread; ++i) {
        const int unit = rank + i * Group::static_size;
        if (static_units % Group::static_size == 0 || unit < static_units) {
          const Coord at = unit_at(unit);
          Mover::template start<Bytes>(const_cast<Element*>(tile_unit(at)), global_unit(at));
        }
      }
    } else {
      const int step = static_cast<int>(group.size());
#pragma unroll 4
      for (int unit = static_cast<int>(group.rank()); unit < units; unit += step) {
        const Coord at = unit_at(unit);
        Mover::template start<Bytes>(const_cast<Element*>(tile_unit(at)), global_unit(at));
      }
    }
  } else if constexpr (all_static) {
    // Compile-time count per thread: issue the loads of a batch (up to 16 registers per thread)
    // before its first store, so that several are in flight without crowding the
    // registers of narrow fallback widths.
    constexpr Layout layout{};
    constexpr Coord reach = ToTile ? layout_reach(layout) : Coord{0, 0};  // loads fill a halo too
    constexpr int static_units_per_row = (layout.cols() + 2 * reach.col) * static_cast<int>(sizeof(Element)) / Bytes;
    constexpr int static_units = (layout.rows() + 2 * reach.row) * static_units_per_row;
    constexpr int per_thread = (static_units + Group::static_size - 1) / Group::static_size;
    SMEMTILE_CHECK(region.cols == (layout.cols() + 2 * reach.col) && region.rows == layout.rows() + 2 * reach.row,
                   "smemtile copy: a static tile's copy moves its whole region (rows, cols)", region.rows, region.cols,
                   0, 0);
    const auto static_unit_at = [&](int unit) { return unit_in_rows(unit, static_units_per_row); };
    // Where the group's size is a whole number of rows' units, a thread's units lie in one column,
    // rows_step rows apart: each one's global address is the first's plus k row steps, so the
    // 64-bit row arithmetic is done once per thread rather than once per unit (the transpose of
    // halves at 8191 x 8193: 2,456 SASS instructions against 2,640). Vector units and realigned
    // words only, unless the caller stated the region inside (ElementRowSteps): element units
    // addressed so measured slower in the transposes' padded tiles (docs/tuning.md, "copy_units").
    constexpr bool one_column =
        Group::static_size % static_units_per_row == 0 && (per_unit > 1 || Realign || ElementRowSteps);
    constexpr int rows_step = one_column ? Group::static_size / static_units_per_row : 0;
    const long long global_step = static_cast<long long>(rows_step) * global.stride(0);
    const Coord first_at = first_unit_of<static_units_per_row, per_unit, Layout::rank>(group);
    const auto* const global_first_unit = global_unit(first_at);
    // Unit k of this thread: in one column, rows_step rows below its first (no division per unit).
    const auto unit_k = [&](int k, int unit) {
      if constexpr (one_column) return Coord{first_at.row + k * rows_step, first_at.col};
      else return static_unit_at(unit);
    };
    const auto global_unit_of = [&](int k, Coord at) {
      if constexpr (one_column) return global_first_unit + k * global_step;
      else return global_unit(at);
    };
    constexpr int max_held = Realign ? 8 : Bytes >= 4 ? 64 / Bytes : 16;  // at most 16 registers (realigned: two words each)
    constexpr int batch = per_thread < max_held ? per_thread : max_held;
    const int rank = static_cast<int>(group.rank());
#pragma unroll
    for (int first = 0; first < per_thread; first += batch) {
      Vector held[batch];
#pragma unroll
      for (int i = 0; i < batch; ++i) {
        const int unit = rank + (first + i) * Group::static_size;
        if ((static_units % Group::static_size == 0 && per_thread % batch == 0) || unit < static_units) {
          const Coord at = unit_k(first + i, unit);
          if constexpr (Realign) held[i] = load_realigned_word<Mover>(global_unit_of(first + i, at));
          else if constexpr (ToTile)
            held[i] = load_global_unit<Mover>(reinterpret_cast<const Vector*>(global_unit_of(first + i, at)));
          else held[i] = *reinterpret_cast<const Vector*>(tile_unit(at));
        }
      }
#pragma unroll
      for (int i = 0; i < batch; ++i) {
        const int unit = rank + (first + i) * Group::static_size;
        if ((static_units % Group::static_size == 0 && per_thread % batch == 0) || unit < static_units) {
          const Coord at = unit_k(first + i, unit);
          if constexpr (ToTile) *reinterpret_cast<Vector*>(tile_unit(at)) = held[i];
          else *reinterpret_cast<Vector*>(const_cast<Element*>(global_unit_of(first + i, at))) = held[i];
        }
      }
    }
  } else {
    const int step = static_cast<int>(group.size());
#pragma unroll 4
    for (int unit = static_cast<int>(group.rank()); unit < units; unit += step) {
      const Coord at = unit_at(unit);
      if constexpr (Realign) *reinterpret_cast<Vector*>(tile_unit(at)) = load_realigned_word<Mover>(global_unit(at));
      else if constexpr (ToTile)
        *reinterpret_cast<Vector*>(tile_unit(at)) = load_global_unit<Mover>(reinterpret_cast<const Vector*>(global_unit(at)));
      else *reinterpret_cast<Vector*>(const_cast<Element*>(global_unit(at))) = *reinterpret_cast<const Vector*>(tile_unit(at));
    }
  }
}

// Whether a region's rows of more than one warp's elements (2- to 8-byte elements) should be stored
// in sector runs (store_elements_sector_runs): its rows are contiguous and do not all start on a
// 32-byte sector. (Rows of up to 32 elements gain nothing: their one run touches the same sectors.)
template <class T, class Global>
SMEMTILE_DEVICE bool sector_runs_pay(const Global& global, Coord global_first, CopyRegion region) {
  if (global.stride(1) != 1 || region.cols <= 32) return false;
  const auto first = reinterpret_cast<unsigned long long>(global_pointer(global, global_first.row, global_first.col));
  return first % 32 != 0 || (region.rows > 1 && (static_cast<long long>(global.stride(0)) * sizeof(T)) % 32 != 0);
}

// Stores element by element into contiguous rows that do not start on 32-byte sectors (odd
// pitches), in runs of 32 elements (one per lane) that do: each warp takes whole rows, and run j of
// a row covers its columns 32 j - shift ... 32 j - shift + 31, `shift` being how many elements of
// the row's first sector lie before the region; lanes outside the region store nothing. A warp's
// store then touches only the sectors it fills (a run of 32 floats: 4 sectors, not 5) and the
// sectors at a row's ends once each: rows of 128 floats take 17 sectors instead of 20, in one run
// more: the transposes' stores at odd shapes are bound by their L2 traffic (docs/tuning.md,
// "sector runs"). Loads do not take it: in the transposes, rows this wide load
// as realigned words or vectors, and its batches of loads spilled registers in their kernels.
template <class Group, class T, class Layout, class Global>
SMEMTILE_DEVICE void store_elements_sector_runs(const Global& global, Coord global_first, TileRef<T, Layout> tile,
                                                CopyRegion region, Group group) {
  using Element = std::remove_const_t<T>;
  static_assert(Group::static_size % warp_lanes == 0, "whole warps");
  constexpr int sector = 32 / static_cast<int>(sizeof(Element));  // elements per sector
  constexpr Layout layout{};
  constexpr int rows = layout.rows(), cols = layout.cols();
  constexpr int runs = (cols + sector - 1 + warp_lanes - 1) / warp_lanes;  // per row
  constexpr int warps = Group::static_size / warp_lanes;
  constexpr int rows_per_warp = (rows + warps - 1) / warps;
  const int rank = static_cast<int>(group.rank());
  const int lane = rank % warp_lanes, warp = rank / warp_lanes;
#pragma unroll
  for (int i = 0; i < rows_per_warp; ++i) {
    const int row = warp + i * warps;
    if (rows % warps != 0 && row >= rows) continue;  // the same for the whole warp
    Element* global_row = const_cast<Element*>(global.data_handle()) +
                          static_cast<long long>(global_first.row + row) * global.stride(0) + global_first.col;
    const int shift = static_cast<int>(reinterpret_cast<unsigned long long>(global_row) % 32) /
                      static_cast<int>(sizeof(Element));
    // The row's shared loads first, then its stores (interleaved, the compiler spilled registers in
    // the transposes' kernels of halves). Each store's 64-bit address is computed apart (constant
    // offsets from one pointer won on an H200 and lost on an H100: docs/tuning.md, "sector runs").
    Element held[runs];
#pragma unroll
    for (int j = 0; j < runs; ++j) {
      const int col = lane - shift + warp_lanes * j;
      if (col >= 0 && col < cols) held[j] = tile.data()[tile.layout().offset(region.first.row + row, region.first.col + col)];
    }
#pragma unroll
    for (int j = 0; j < runs; ++j) {
      const int col = lane - shift + warp_lanes * j;
      if (col >= 0 && col < cols) global_row[col] = held[j];
    }
  }
}

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
        g = Coord{Boundary::map_index(g.row, rows), Boundary::map_index(g.col, cols)};
        Mover::template start<elem>(shared, global_pointer(global, g.row, g.col));
      } else if (inside) {
        Mover::template start<elem>(shared, global_pointer(global, g.row, g.col));
      } else if (Boundary::is_zero && rows > 0 && cols > 0) {
        // Hardware zero fill: reads nothing; the source named is the nearest element (a valid address).
        Mover::template start_zero<elem>(
            shared, global_pointer(global, boundary::Clamp::map_index(g.row, rows), boundary::Clamp::map_index(g.col, cols)));
      } else {
        *shared = boundary.template value<Element>();
      }
    } else if constexpr (ToTile) {
      if constexpr (Boundary::maps_index) {
        g = Coord{Boundary::map_index(g.row, rows), Boundary::map_index(g.col, cols)};
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
                     shared_address(tile.data() + tile.layout().offset(region.first.row, region.first.col)) % Bytes == 0,
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

// A rank-1 mdspan seen as a 1 x n matrix, so that 1D copies share the 2D code: a contiguous one
// (layout_pitched, layout_right) keeps its unit stride and its accessor's alignment in the type,
// any other becomes layout_stride.
template <class T, class Extents, class Layout, class Accessor>
SMEMTILE_DEVICE auto as_matrix(const cuda::std::mdspan<T, Extents, Layout, Accessor>& vector) {
  const int n = static_cast<int>(vector.extent(0));
  if constexpr (std::is_same<Layout, layout_pitched<1>>::value || std::is_same<Layout, cuda::std::layout_right>::value) {
    constexpr int multiple = AccessorAlignment<Accessor>::value > sizeof(T)
                                 ? static_cast<int>(AccessorAlignment<Accessor>::value / sizeof(T)) : 1;
    using Matrix = cuda::std::mdspan<T, cuda::std::dextents<int, 2>, layout_pitched<multiple>, Accessor>;
    const int pitch = (n + multiple - 1) / multiple * multiple;  // one row: any multiple of it will do
    return Matrix(vector.data_handle(), typename Matrix::mapping_type(cuda::std::dextents<int, 2>(1, n),
                                                                      cuda::std::array<int, 1>{pitch}),
                  vector.accessor());
  } else {
    using Mapping = typename cuda::std::layout_stride::template mapping<cuda::std::dextents<int, 2>>;
    const int stride = static_cast<int>(vector.stride(0));
    return cuda::std::mdspan<T, cuda::std::dextents<int, 2>, cuda::std::layout_stride, Accessor>(
        vector.data_handle(), Mapping(cuda::std::dextents<int, 2>(1, n), cuda::std::array<int, 2>{n * stride, stride}),
        vector.accessor());
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
