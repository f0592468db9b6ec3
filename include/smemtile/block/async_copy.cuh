// smemtile/block/async_copy.cuh: the cooperative global -> tile copy, asynchronous (cp.async).
//
//   __shared__ smemtile::StaticTile<float, 32, 64> tile[2];
//   smemtile::copy_global_to_tile_async(in, origin_of(0), tile[0]);   // stage 0 in flight
//   smemtile::async_copy_commit();
//   for (int k = 0; k < n; ++k) {
//     if (k + 1 < n) smemtile::copy_global_to_tile_async(in, origin_of(k + 1), tile[(k + 1) % 2]);
//     smemtile::async_copy_commit();            // (an empty group on the last step keeps the count)
//     smemtile::async_copy_wait<1>();           // all but the newest group have landed: tile k
//     __syncthreads();                          // ... for every thread
//     compute(tile[k % 2]);
//     __syncthreads();                          // tile k % 2 is free again for step k + 2
//   }
//
// copy_global_to_tile_async has exactly copy_global_to_tile's semantics (block/copy.cuh): the same
// region (a halo view halo included), the same boundary policies, the same work distribution and
// vector widths, and the same compile-time bank-conflict check. Only the completion differs: the
// tile holds the data after async_copy_commit(), async_copy_wait<N>() (arch/cp_async.cuh) and a
// group.sync(), and the source must stay unchanged until then.
//
// What is asynchronous: every unit of 4, 8 or 16 bytes (cp.async needs one of these sizes) of a
// region inside the array, and, in a region reaching outside, every element of 4, 8 or 16 bytes:
// inside ones and those an index policy (clamp, periodic, reflect) maps inside are copied from the
// element they stand for; outside ones under boundary::zero get the hardware's zero fill (a
// cp.async that reads 0 bytes). Written synchronously, with the same result: elements outside
// under boundary::constant (a plain shared store of the value), and everything moved in 1- or
// 2-byte units (a region whose addresses allow nothing wider, or elements of 1 or 2 bytes). Below
// sm_80 the whole copy is synchronous (arch/cp_async.cuh's fallback); the API stays the same.
// (An element type whose alignment is below its size, such as struct { float x, y; }, is moved
// asynchronously only in units whose addresses were checked to be aligned, else synchronously.)
#pragma once

#include <cuda/std/mdspan>  // cuda::std::mdspan
#include <type_traits>      // std::remove_const_t

#include "../arch/cp_async.cuh"  // arch::cp_async, async_copy_commit, async_copy_wait
#include "../config.cuh"         // SMEMTILE_DEVICE
#include "../core/boundary.cuh"  // boundary::Zero
#include "../core/coord.cuh"     // Coord
#include "../core/tile_ref.cuh"  // tile_ref
#include "copy.cuh"              // detail::copy (the one copy), detail::as_matrix
#include "thread_group.cuh"      // ThreadBlock

namespace smemtile {

#if defined(__CUDACC__)

/// The cp.async mover (copy_units.cuh says what a mover is), which copy_global_to_tile_async and
/// TileCopy's asynchronous loads use: 4-, 8- and 16-byte units of Element are started with
/// cp.async, complete after the caller's async_copy_commit / async_copy_wait and a group.sync(),
/// and the other widths move synchronously. Units wider than an element had their addresses
/// checked by the copy; a unit of one element is aligned as the element type is, so it goes
/// asynchronously only when that alignment is its size (a struct of two floats, 8 bytes aligned
/// to 4, is copied synchronously).
template <class Element>
struct AsyncMove {
  /// Whether Bytes-wide units of Element are started with cp.async.
  template <int Bytes>
  static constexpr bool asynchronous =
      (Bytes == 4 || Bytes == 8 || Bytes == 16) &&
      (Bytes > static_cast<int>(sizeof(Element)) || static_cast<int>(alignof(Element)) >= Bytes);
  static constexpr bool fetch_256 = false;  ///< the widths it cannot start load as plain loads

  /// Starts copying Bytes bytes from global `src` to shared `dst` (both Bytes-aligned).
  template <int Bytes, class E>
  static SMEMTILE_DEVICE void start(E* dst, const E* src) {
    arch::cp_async<Bytes>(dst, src, Bytes);
  }
  /// Starts zero-filling Bytes bytes at shared `dst`; `valid_src` is any valid global address
  /// (cp.async reads 0 bytes of it).
  template <int Bytes, class E>
  static SMEMTILE_DEVICE void start_zero(E* dst, const E* valid_src) {
    arch::cp_async<Bytes>(dst, valid_src, 0u);
  }
};

/// Starts loading the tile from `global` asynchronously: when complete, tile(r, c) =
/// global(origin.row + r, origin.col + c), and what `boundary` says where that lies outside the
/// array; a halo view is filled halo included (exactly copy_global_to_tile's result). Every thread
/// of `group` calls it with the same arguments. Completion: each thread calls async_copy_commit()
/// and async_copy_wait<N>() (arch/cp_async.cuh), then the group synchronizes (group.sync()) before
/// any thread reads the tile. Does not synchronize; the tile must not be read or written, nor the
/// source changed, until then. Below sm_80 it loads synchronously.
template <class Global, class Tile, class Boundary = boundary::Zero, class Group = ThreadBlock>
SMEMTILE_DEVICE void copy_global_to_tile_async(const Global& global, Coord origin, Tile&& tile, Boundary boundary = {},
                                               Group group = {}) {
  using Element = std::remove_const_t<typename decltype(tile_ref(tile))::element_type>;
  detail::copy<true, AsyncMove<Element>>(global, origin, tile_ref(tile), boundary, group);
}

/// The 1D form: tile(i) = global(origin + i) for a 1D tile (or its halo view) and a rank-1 mdspan,
/// asynchronously (as above).
template <class T, class Extents, class Layout, class Accessor, class Tile, class Boundary = boundary::Zero,
          class Group = ThreadBlock>
SMEMTILE_DEVICE void copy_global_to_tile_async(const cuda::std::mdspan<T, Extents, Layout, Accessor>& global,
                                               int origin, Tile&& tile, Boundary boundary = {}, Group group = {}) {
  static_assert(Extents::rank() == 1, "smemtile: an int origin goes with a rank-1 mdspan; use a Coord for 2D");
  using Element = std::remove_const_t<typename decltype(tile_ref(tile))::element_type>;
  detail::copy<true, AsyncMove<Element>>(detail::as_matrix(global), Coord{0, origin}, tile_ref(tile), boundary, group);
}

#endif  // __CUDACC__

}  // namespace smemtile
