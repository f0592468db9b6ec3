/// \file
/// The unit walks of block/copy.cuh (device code): how a group's threads share a region that lies
/// inside the array, in vectors, realigned words or elements (sector runs for odd pitches), each
/// thread's loads of a batch issued before its stores.
#pragma once

#include <type_traits>  // std::remove_const_t, std::conditional_t

#include "../arch/global_load.cuh"   // load_global_fetch_256 (SyncMoveFetch256)
#include "../config.cuh"             // SMEMTILE_DEVICE, SMEMTILE_CHECK
#include "../core/coord.cuh"         // Coord, row_major_coord
#include "../core/global_view.cuh"   // global_pointer
#include "../core/shared_address.cuh"  // shared_window_address
#include "../core/tile_ref.cuh"      // TileRef
#include "../core/vector_type.cuh"   // detail::VectorOf
#include "copy_plan.cuh"             // layout_allows_vector (the layout's widths)

namespace smemtile {

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
  const unsigned tile_first = shared_window_address(tile_data + layout.offset(region.first.row, region.first.col));
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
  if (shared_window_address(tile_data + layout.offset(region.first.row, region.first.col)) % 4 != 0) return false;
  const auto address = [](const auto* p) { return reinterpret_cast<unsigned long long>(p); };
  const unsigned long long first = address(global.data_handle());
  const unsigned long long end = address(global_pointer(global, static_cast<int>(global.extent(0)) - 1, 0)) +
                                 static_cast<unsigned long long>(global.extent(1)) * sizeof(T);
  const unsigned long long lowest = address(global_pointer(global, global_first.row, global_first.col));
  const unsigned long long highest = address(global_pointer(global, global_first.row + region.rows - 1,
                                                            global_first.col + region.cols - 4 / static_cast<int>(sizeof(T))));
  return (lowest & ~3ull) >= first && (highest & ~3ull) + 8 <= end;
}

}  // namespace detail

// How a load moves its units into the tile (a copy's Mover). A mover for which
// asynchronous<Bytes> is true starts Bytes-wide unit copies with start<Bytes>(shared dst, global
// src) and zero-fills with start_zero<Bytes>(dst, any valid global address); the other widths (and
// every store to global memory) take the synchronous code. fetch_256: whether the synchronous
// code's loads ask L2 for the 256 bytes around each (arch::load_global_fetch_256). AsyncMove
// (async_copy.cuh) is the cp.async mover.

/// The synchronous mover: every unit moved by ordinary loads and stores (what
/// copy_global_to_tile does). Pass it to copy_global_to_tile_with (copy_with.cuh).
struct SyncMove {
  template <int Bytes>
  static constexpr bool asynchronous = false;  ///< no width is started asynchronously
  static constexpr bool fetch_256 = false;     ///< plain loads
};
/// SyncMove whose 4- to 16-byte loads ask L2 to fetch the 256 bytes around each: for tiles whose
/// rows are one 128-byte line, so that the line the neighbouring block reads next is already on
/// its way (device_transpose's tiles of bytes and halves). Only the prefetch differs; the data
/// moved is SyncMove's.
struct SyncMoveFetch256 : SyncMove {
  static constexpr bool fetch_256 = true;  ///< loads ask L2 for 256 bytes
};

namespace detail {

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

// copy_units's asynchronous form: each unit is one copy started by this thread, nothing held in
// registers (unit_at(unit) -> Coord, tile_unit(at), global_unit(at): copy_units's addressing).
template <int Bytes, class Mover, class Element, class Layout, class Group, class UnitAt, class TileUnit, class GlobalUnit>
SMEMTILE_DEVICE void copy_units_async(const Group& group, int units, const UnitAt& unit_at, const TileUnit& tile_unit,
                                      const GlobalUnit& global_unit) {
  if constexpr (LayoutIsStatic<Layout>::value && Group::static_size > 0) {
    constexpr Layout layout{};
    constexpr Coord reach = layout_reach(layout);  // loads fill a halo too
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
}

// copy_units with a static layout and group: a compile-time count per thread, the loads of a batch
// (up to 16 registers per thread) issued before its first store, so that several are in flight
// without crowding the registers of narrow fallback widths.
template <bool ToTile, int Bytes, class Mover, bool Realign, bool ElementRowSteps, class Vector, class Element,
          class Layout, class Group, class Global, class UnitInRows, class TileUnit, class GlobalUnit>
SMEMTILE_DEVICE void copy_units_static(const Global& global, const Group& group, CopyRegion region,
                                       const UnitInRows& unit_in_rows, const TileUnit& tile_unit,
                                       const GlobalUnit& global_unit) {
  constexpr int per_unit = Bytes / static_cast<int>(sizeof(Element));
  constexpr Layout layout{};
  constexpr Coord reach = ToTile ? layout_reach(layout) : Coord{0, 0};  // loads fill a halo too
  constexpr int static_units_per_row = (layout.cols() + 2 * reach.col) * static_cast<int>(sizeof(Element)) / Bytes;
  constexpr int static_units = (layout.rows() + 2 * reach.row) * static_units_per_row;
  constexpr int per_thread = (static_units + Group::static_size - 1) / Group::static_size;
  SMEMTILE_CHECK(region.cols == (layout.cols() + 2 * reach.col) && region.rows == layout.rows() + 2 * reach.row,
                 "smemtile copy: a static tile's copy moves its whole region (rows, cols)", region.rows, region.cols,
                 0, 0);
  (void)region;
  const auto static_unit_at = [&](int unit) { return unit_in_rows(unit, static_units_per_row); };
  // Where the group's size is a whole number of rows' units, a thread's units lie in one column,
  // rows_step rows apart: each one's global address is the first's plus k row steps, so the
  // 64-bit row arithmetic is done once per thread rather than once per unit. Vector units and
  // realigned words only, unless the caller stated the region inside (ElementRowSteps): element
  // units addressed so measured slower in the transposes' padded tiles (docs/tuning.md, "copy_units").
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
    // multiply for 8-byte units: tests/block/transpose_pairs.cu).
    if constexpr (per_unit > 1 || Realign)
      return global.data_handle() + static_cast<long long>(global_first.row + at.row) * global.stride(0) +
             (global_first.col + at.col);
    else return global_pointer(global, global_first.row + at.row, global_first.col + at.col);
  };
  const auto tile_unit = [&](Coord at) {
    return tile.data() + tile.layout().offset(region.first.row + at.row, region.first.col + at.col);
  };
  if constexpr (ToTile && Mover::template asynchronous<Bytes>) {
    copy_units_async<Bytes, Mover, Element, Layout>(group, units, unit_at, tile_unit, global_unit);
  } else if constexpr (LayoutIsStatic<Layout>::value && Group::static_size > 0) {
    copy_units_static<ToTile, Bytes, Mover, Realign, ElementRowSteps, Vector, Element, Layout>(
        global, group, region, unit_in_rows, tile_unit, global_unit);
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
}  // namespace detail

#endif  // __CUDACC__

}  // namespace smemtile
