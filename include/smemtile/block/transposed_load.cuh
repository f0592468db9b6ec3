// smemtile/block/transposed_load.cuh: loading a padded tile transposed with vector loads.
//
// copy_global_to_tile_transposed(A, origin, tile) with tile(r, c) = A(origin.row + c, origin.col + r)
// reads each global row (a tile column) in 16-byte vectors and stores their elements one by one
// down the tile's column: a GEMM's k-major A tile from a row-major A. The stores conflict unless
// the tile's rows are padded to suit the warp's pattern; transposed_load_bank_cost() is that
// pattern's cost, and TransposedLoadTile<T, Rows, Cols> the tile with the smallest pad that makes
// it conflict-free while keeping its rows 16-byte aligned (so that load_fragment reads them as
// LDS.128). The width follows the same rule as copy.cuh's (the widest that gives every thread the
// same number of units, where the view's type guarantees it or the addresses allow it).
#pragma once

#include <cstring>  // std::memcpy

#include "../config.cuh"           // SMEMTILE_HOST_DEVICE, SMEMTILE_DEVICE
#include "../core/banks.cuh"       // WarpAccess, bank_cost, BankCost
#include "../core/layout.cuh"      // PaddedLayout, RuntimePaddedLayout
#include "../core/static_tile.cuh"  // StaticTile
#include "copy.cuh"                 // detail:: the copy's widths, region_inside, load_global_unit

namespace smemtile {

/// The bank cost of the element stores of a transposed load into `layout` (Rows x Cols) in
/// vector_bytes-wide global units: consecutive lanes take consecutive units of the global region
/// (Cols rows of Rows elements), unit u holding tile elements (c + i, r) for r = u / units_per_row,
/// c = (u % units_per_row) * per_unit.
template <class Layout>
SMEMTILE_HOST_DEVICE constexpr BankCost transposed_load_bank_cost(const Layout& layout, int elem_bytes,
                                                                  int vector_bytes) {
  const int per = vector_bytes / elem_bytes;
  const int units_per_row = layout.rows() / per;
  const int units = layout.cols() * units_per_row;
  BankCost total{0, 0, 0, 0};
  for (int first = 0; first < units; first += warp_lanes) {
    for (int i = 0; i < per; ++i) {
      WarpAccess access{{}, 0u, elem_bytes, AccessOp::store};
      for (int lane = 0; lane < warp_lanes && first + lane < units; ++lane) {
        const int u = first + lane;
        const int r = u / units_per_row, c = (u % units_per_row) * per;
        access.byte_address[lane] = static_cast<unsigned>(layout.offset(c + i, r) * elem_bytes);
        access.active_mask |= 1u << lane;
      }
      total = total + bank_cost(access);
    }
  }
  return total;
}

/// Whether a transposed load into `layout` in the widest vectors a tile column allows (up to 16
/// bytes) is conflict-free. (The width a group takes, copy.cuh's rule, is that one unless the tile
/// is too small to give every thread a vector; the load then checks its own width at compile time.)
template <class Layout>
SMEMTILE_HOST_DEVICE constexpr bool transposed_load_conflict_free(const Layout& layout, int elem_bytes) {
  int bytes = elem_bytes;
  while (bytes < 16 && (layout.rows() * elem_bytes) % (2 * bytes) == 0) bytes *= 2;
  return transposed_load_bank_cost(layout, elem_bytes, bytes).conflicts == 0;
}

/// The smallest pad of a Rows x Cols tile that makes transposed loads conflict-free and keeps its
/// rows 16-byte aligned (where Cols allows); where no pad does both (the stores of a 16 x 64 float
/// tile, say), the smallest that is conflict-free (load_fragment then refuses 16-byte reads and says
/// so); -1 when none is.
SMEMTILE_HOST_DEVICE constexpr int smallest_transposed_load_pad(int elem_bytes, int rows, int cols) {
  const bool aligned_rows = (cols * elem_bytes) % 16 == 0;
  for (int pass = aligned_rows ? 0 : 1; pass < 2; ++pass)
    for (int pad = 0; pad < 2 * wavefront_bytes / elem_bytes; ++pad) {
      if (pass == 0 && (pad * elem_bytes) % 16 != 0) continue;
      if (transposed_load_conflict_free(RuntimePaddedLayout{rows, cols, pad}, elem_bytes)) return pad;
    }
  return -1;
}

/// transposed_load_pad<T, Rows, Cols>::value: smallest_transposed_load_pad, or a compile error.
template <class T, int Rows, int Cols>
struct transposed_load_pad {
  /// The pad.
  static constexpr int value = smallest_transposed_load_pad(static_cast<int>(sizeof(T)), Rows, Cols);
  static_assert(value >= 0, "smemtile::TransposedLoadTile: no pad makes transposed loads into this shape "
                            "conflict-free; choose another shape");
};

/// A tile for loading transposed (a GEMM's k-major A tile): stores of transposed vector loads are
/// conflict-free and its rows stay 16-byte aligned for load_fragment.
template <class T, int Rows, int Cols>
using TransposedLoadTile = StaticTile<T, Rows, Cols, transposed_load_pad<T, Rows, Cols>::value>;

namespace detail {

// The width of a transposed vector load into a static padded layout by a group of static size
// (copy.cuh's rule applied to the global region, Cols rows of Rows elements), or 0 where the vector
// path does not apply (run-time layouts or groups, layouts whose rows are not contiguous, halos,
// groups that are not whole warps, one-element widths).
template <class Element, class Layout, class Group>
SMEMTILE_HOST_DEVICE constexpr int transposed_load_bytes() {
  if constexpr (!Layout::is_static || Layout::vector_bytes == 0 || Group::static_size <= 0) {
    return 0;
  } else {
    constexpr Layout layout{};
    constexpr Coord reach = layout_reach(layout);
    if (reach.row != 0 || reach.col != 0 || Group::static_size % warp_lanes != 0) return 0;
    constexpr int elem = static_cast<int>(sizeof(Element));
    int widest = elem;
    while (widest < 16 && (layout.rows() * elem) % (2 * widest) == 0) widest *= 2;
    const int units_total = layout.rows() * layout.cols() * elem;
    // A narrower width only where its element stores stay conflict-free too: a TransposedLoadTile's
    // pad is chosen for the widest (TransposedLoadTile<float, 4, 128> with 256 threads took 8-byte
    // units, whose stores conflict, and the bank check refused the very tile it proposes).
    for (int bytes = widest; bytes > elem; bytes /= 2)
      if ((units_total / bytes) % Group::static_size == 0 &&
          (bytes == widest || transposed_load_bank_cost(layout, elem, bytes).conflicts == 0))
        return bytes;
    return widest > elem ? widest : 0;
  }
}

}  // namespace detail

#if defined(__CUDACC__)

namespace detail {

// Bytes-wide loads along the global rows, element stores down the tile's columns; the region
// (Cols x Rows at `origin`) lies inside the array and its rows are aligned to Bytes.
template <int Bytes, class Group, class T, class Layout, class Global>
SMEMTILE_DEVICE void global_to_tile_transposed_vectors(const Global& global, Coord origin, TileRef<T, Layout> tile,
                                                       Group group) {
  using Element = std::remove_const_t<T>;
  using Vector = typename VectorOf<Bytes>::type;
  constexpr Layout layout{};
  constexpr int per = Bytes / static_cast<int>(sizeof(Element));
  constexpr int units_per_row = layout.rows() / per;
  constexpr int units = layout.cols() * units_per_row;
  constexpr int per_thread = (units + Group::static_size - 1) / Group::static_size;
  constexpr int batch = per_thread < 64 / Bytes ? per_thread : 64 / Bytes;
  static_assert(transposed_load_bank_cost(layout, static_cast<int>(sizeof(Element)), Bytes).conflicts == 0,
                "smemtile copy_global_to_tile_transposed: the element stores of this tile's transposed vector "
                "loads would have bank conflicts; use smemtile::TransposedLoadTile<T, Rows, Cols> (the smallest "
                "pad that makes them conflict-free and keeps 16-byte fragment reads)");
  const int rank = static_cast<int>(group.rank());
  const Element* base = global.data_handle() + static_cast<long long>(origin.row) * global.stride(0) + origin.col;
  const auto unit_at = [&](int k) {
    const int unit = rank + k * Group::static_size;
    return Coord{unit / units_per_row, (unit % units_per_row) * per};  // global region row, column
  };
  load_then_store<Vector, per_thread, batch, Group::static_size, units>(
      rank,
      [&](int k) {
        const Coord at = unit_at(k);
        return load_global_unit<SyncMove>(
            reinterpret_cast<const Vector*>(base + static_cast<long long>(at.row) * global.stride(0) + at.col));
      },
      [&](int k, const Vector& held) {
        const Coord at = unit_at(k);
        Element elements[per];
        std::memcpy(elements, &held, Bytes);
#pragma unroll
        for (int e = 0; e < per; ++e) tile.data()[layout.offset(at.col + e, at.row)] = elements[e];
      });
}

// Whether the transposed vector load applies to this call: the region is inside (or stated so) and
// the rows and the origin's column are aligned (known from the view's type or tested here).
template <int Bytes, class Element, class Global, class Boundary>
SMEMTILE_DEVICE bool transposed_vectors_fit(const Global& global, Coord origin, int rows, int cols) {
  constexpr int per = Bytes / static_cast<int>(sizeof(Element));
  constexpr bool typed = static_cast<int>(guaranteed_row_alignment<Global>()) >= Bytes;
  bool fit = origin.col % per == 0;
  if constexpr (!typed)
    fit = fit && global.stride(1) == 1 && reinterpret_cast<unsigned long long>(global.data_handle()) % Bytes == 0 &&
          (static_cast<long long>(global.stride(0)) * static_cast<long long>(sizeof(Element))) % Bytes == 0;
  if constexpr (AssumesInside<Boundary>::value) {
    // boundary::inside states where the region lies, not how the array is aligned: only a view
    // whose type guarantees the rows' alignment (make_aligned_matrix) skips the tests, its first
    // column then being the caller's word (as for copy_global_to_tile). A plain view is tested.
    SMEMTILE_CHECK(region_inside(global, origin, rows, cols) && (!typed || fit),
                   "smemtile copy_global_to_tile_transposed with boundary::inside: the region reaches outside the "
                   "array, or (aligned view) its first column is not aligned to the vector (values: origin row, col, "
                   "rows, cols)",
                   origin.row, origin.col, rows, cols);
    return typed || fit;
  } else {
    return fit && region_inside(global, origin, rows, cols);
  }
}

}  // namespace detail

#endif  // __CUDACC__

}  // namespace smemtile
