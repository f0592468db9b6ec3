// smemtile/block/transpose.cuh: moving a tile between shared and global memory transposed.
//
//   __shared__ smemtile::TransposeTile<float, 64, 64> tile;   // layout chosen for this (see below)
//   const smemtile::Coord origin = smemtile::block_tile_origin({64, 64});
//   smemtile::copy_global_to_tile(in, origin, tile, smemtile::boundary::zero, Block{});
//   __syncthreads();
//   smemtile::copy_tile_to_global_transposed(tile, out, origin.transposed(), Block{});
//   // out(origin.col + c, origin.row + r) = tile(r, c)
//
// copy_tile_to_global_transposed(tile, global, origin): global(origin.row + c, origin.col + r) =
// tile(r, c) for every element inside the array. copy_global_to_tile_transposed(global, origin,
// tile, boundary): tile(r, c) = global(origin.row + c, origin.col + r), the boundary policy's value
// outside. Every thread of the group calls them with the same arguments; they never synchronize.
//
// With a TransposeTile (core/transpose_layout.cuh) each thread moves blocks of 16 / sizeof(T) rows:
// it reads one 16-byte chunk (4-, 8-, 16-byte elements) or one 4-byte word (1- and 2-byte elements)
// of each row from the tile, transposes the block in registers (byte permutes for 1- and 2-byte
// elements), and writes each of its columns as one 16-byte chunk of a global row, so the global side
// moves whole 16-byte vectors, coalesced, and the shared side is conflict-free (a static_assert asks
// the bank model). Where the global
// addresses are not aligned for that, or the region reaches outside the array, the same blocks are
// moved element by element on the global side. A WordTransposeTile (1- and 2-byte elements, for
// rows that are not 16-byte aligned) is stored in 4 x 4 byte (2 x 2 half) blocks, one per lane down
// a column, each warp writing 128 consecutive bytes of a row as aligned words joined with its
// neighbour lane's (at the array's edges, the words' elements inside it one by one); it is only
// stored transposed. Other tiles (padded ones, say) go through the
// transposed view, one element at a time, which the bank model must also find conflict-free.
#pragma once

#include <cstring>      // std::memcpy (register reinterpretation, folded by the compiler)
#include <type_traits>  // std::remove_const_t, std::conditional_t

#include "../config.cuh"                  // SMEMTILE_DEVICE, SMEMTILE_HOST_DEVICE
#include "../core/banks.cuh"              // bank_cost, WarpAccess
#include "../core/boundary.cuh"           // boundary::Zero
#include "../core/coord.cuh"              // Coord
#include "../core/transpose_layout.cuh"   // TransposeLayout, WordTransposeLayout
#include "../core/tile_ref.cuh"           // TileRef, tile_ref
#include "copy.cuh"                       // copy_global_to_tile, copy_tile_to_global, detail helpers
#include "transpose_blocks.cuh"           // the block pattern, register blocks and word stores
#include "transposed_load.cuh"            // TransposedLoadTile, the transposed vector load
#include "thread_group.cuh"               // ThreadBlock

namespace smemtile {

#if defined(__CUDACC__)

/// Stores `tile` transposed: global(origin.row + c, origin.col + r) = tile(r, c), for the elements
/// inside the array (nothing else is written). Every thread of `group` calls it with the same
/// arguments; it does not synchronize (the tile must be complete: group.sync() before the call).
template <class Tile, class Global, class Group = ThreadBlock,
          class = std::enable_if_t<!detail::AssumesInside<Group>::value>>
SMEMTILE_DEVICE void copy_tile_to_global_transposed(Tile&& tile, const Global& global, Coord origin, Group group = {}) {
  copy_tile_to_global_transposed(tile, global, origin, boundary::Zero{}, group);
}

/// The same, the caller stating with boundary::inside that the transposed region lies wholly inside
/// the array (nothing tested in release builds; debug builds check it). boundary::Zero: as above.
template <class Tile, class Global, class Boundary, class Group>
SMEMTILE_DEVICE auto copy_tile_to_global_transposed(Tile&& tile, const Global& global, Coord origin, Boundary inside,
                                                    Group group)
    -> std::enable_if_t<detail::AssumesInside<Boundary>::value || std::is_same<Boundary, boundary::Zero>::value> {
  auto view = tile_ref(tile);
  using View = decltype(view);
  using Layout = typename View::layout_type;
  using Element = std::remove_const_t<typename View::element_type>;
  static_assert(!std::is_const<typename Global::element_type>::value,
                "smemtile copy_tile_to_global_transposed: the global array is read-only (const)");
  if constexpr (detail::IsTransposeLayout<Layout>::value) {
    static_assert(detail::TransposeBlocksChecked<Layout, Element>::value, "");
    detail::check_global_view(global);
    if constexpr (sizeof(Element) < 4) {
      // Rows of 1- and 2-byte elements that are not 16-byte aligned (odd pitches): a block's column
      // would go out as scattered single elements, partial 32-byte sectors that DRAM must read back
      // (docs/tuning.md, "block-level transposed stores"). Walk the transposed view instead, so a
      // warp stores contiguous elements, and accept the shared-memory conflicts of reading columns.
      const bool inside = detail::region_inside(global, origin, view.cols(), view.rows());
      if (inside && !detail::units_aligned<16>(global, origin)) {
        detail::copy<false, SyncMove, false>(global, origin, view.transposed(), boundary::Zero{}, group);
        return;
      }
    }
    detail::tile_to_global_transposed_blocks(view, global, origin, group);
  } else if constexpr (detail::IsWordTransposeLayout<Layout>::value) {
    static_assert(detail::WordBlocksChecked<Layout, Element>::value, "");
    detail::check_global_view(global);
    if constexpr (Group::static_size > 0 && Group::static_size % warp_lanes == 0) {
      if (global.stride(1) == 1) {
        // Regions reaching outside the array store the same blocks, checked: reading the tile's
        // columns one element at a time would conflict (Nsight Compute: 8% excess wavefronts for the
        // bytes at 8191 x 8193, all on the edge tiles).
        if (detail::region_inside(global, origin, view.cols(), view.rows()))
          detail::tile_to_global_transposed_words<false>(view, global, origin, group);
        else
          detail::tile_to_global_transposed_words<true>(view, global, origin, group);
        return;
      }
    }
    // Groups that are not whole warps, and arrays whose columns are not contiguous: element by
    // element through the transposed view, accepting the conflicts of reading columns.
    detail::copy<false, SyncMove, false>(global, origin, view.transposed(), boundary::Zero{}, group);
  } else {
    detail::copy<false>(global, origin, view.transposed(), inside, group);
  }
}

/// Loads `tile` transposed: tile(r, c) = global(origin.row + c, origin.col + r), and what `boundary`
/// says where that lies outside the array. Every thread of `group` calls it with the same arguments;
/// it does not synchronize (group.sync() before reading the tile).
template <class Global, class Tile, class Boundary = boundary::Zero, class Group = ThreadBlock>
SMEMTILE_DEVICE void copy_global_to_tile_transposed(const Global& global, Coord origin, Tile&& tile,
                                                    Boundary boundary = {}, Group group = {}) {
  auto view = tile_ref(tile);
  using View = decltype(view);
  using Layout = typename View::layout_type;
  using Element = std::remove_const_t<typename View::element_type>;
  static_assert(!std::is_const<typename View::element_type>::value,
                "smemtile copy_global_to_tile_transposed: the tile is read-only (const)");
  static_assert(!detail::IsWordTransposeLayout<Layout>::value,
                "smemtile copy_global_to_tile_transposed: a WordTransposeTile is for storing transposed; load "
                "transposed into a TransposeTile or a padded tile");
  if constexpr (detail::IsTransposeLayout<Layout>::value) {
    static_assert(detail::TransposeBlocksChecked<Layout, Element>::value, "");
    detail::check_global_view(global);
    detail::global_to_tile_transposed_blocks(global, origin, view, boundary, group);
  } else {
    // A static padded tile and a group of whole warps: vectors along the global rows where they fit.
    constexpr int bytes = detail::transposed_load_bytes<Element, Layout, Group>();
    if constexpr (bytes > 0) {
      detail::check_global_view(global);
      const bool fit = detail::transposed_vectors_fit<bytes, Element, Global, Boundary>(global, origin, view.cols(),
                                                                                         view.rows());
      if constexpr (detail::AssumesInside<Boundary>::value &&
                    static_cast<int>(guaranteed_row_alignment<Global>()) >= bytes) {
        (void)fit;  // true: the debug checks are in transposed_vectors_fit
        detail::global_to_tile_transposed_vectors<bytes>(global, origin, view, group);
      } else if (fit) {
        detail::global_to_tile_transposed_vectors<bytes>(global, origin, view, group);
      } else {
        // Edges, and rows the vectors do not fit: element by element down the tile's columns. The
        // bank check is off here as in the transposes' fallbacks: it refused the TransposedLoadTile
        // whose pad suits the vector stores (TransposedLoadTile<float, 4, 128> with boundary::zero).
        detail::copy<true, SyncMove, false>(global, origin, view.transposed(), boundary, group);
      }
    } else {
      copy_global_to_tile(global, origin, view.transposed(), boundary, group);
    }
  }
}

#endif  // __CUDACC__

}  // namespace smemtile
