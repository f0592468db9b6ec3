// smemtile/block/tma_copy.cuh: loading a tile with one TMA instruction (sm_90 and later).
//
//   // host: a tensor map for `in` and the tile's shape, with a message when TMA cannot read `in`
//   using Tile = smemtile::TmaTile<float, 32, 64>;
//   smemtile::TmaMapResult m = smemtile::make_tma_map<Tile>(smemtile::make_global_matrix(d_in, rows, cols));
//   if (!m) { std::printf("no TMA: %s\n", m.error); ... use copy_global_to_tile_async instead ... }
//   kernel<<<grid, block>>>(m.map, ...);
//
//   __global__ void kernel(const __grid_constant__ CUtensorMap map, ...) {
//     __shared__ Tile tile;
//     __shared__ smemtile::TmaBarrier barrier;
//     smemtile::TmaPhase phase = smemtile::init_tma_barrier(barrier);   // synchronizes the block
//     smemtile::copy_global_to_tile_tma(map, origin, tile, barrier, phase);  // tile(r, c) = in(origin + (r, c))
//     ... read the tile (no further sync needed: every thread waited for the data) ...
//   }
//
// A TmaTile is dense (no padding), row-major and 128-byte aligned, as TMA writes it. Elements the
// box covers outside the array arrive as zeros: TMA knows no other fill, so only boundary::zero is
// accepted (clamp, periodic, reflect and constant: use copy_global_to_tile_async). Halo views are
// not TMA boxes either (a halo tile is a TmaTile whose origin is shifted by the halo).
// One thread of the group (rank 0) issues the copy; every thread waits on the barrier.
//
// Reuse: a TmaBarrier serves one copy at a time; before its next copy (or before the tile is
// loaded again) every thread must have finished waiting and the group must synchronize
// (group.sync()), which reusing the tile needs anyway. Two buffers take two barriers.
// Below sm_90, using any of the device functions here fails to compile (static_assert); the header
// itself compiles for every architecture.
#pragma once

#include <cuda/std/mdspan>  // cuda::std::mdspan
#include <type_traits>      // std::is_same, std::remove_const_t

#include "../arch/mbarrier.cuh"  // arch::mbarrier_*, SMEMTILE_HAS_TMA
#include "../arch/tma.cuh"       // arch::tma_load_2d, arch::make_tma_map_2d/3d, TmaMapResult
#include "../config.cuh"         // SMEMTILE_DEVICE, SMEMTILE_CHECK
#include "../core/boundary.cuh"  // boundary::Zero
#include "../core/coord.cuh"     // Coord
#include "../core/layout.cuh"    // PaddedLayout
#include "../core/static_tile.cuh"  // BasicStaticTile
#include "../core/tile_ref.cuh"  // TileRef, tile_ref
#include "thread_group.cuh"      // ThreadBlock

namespace smemtile {

/// The layout TMA writes: dense row-major Rows x Cols (PaddedLayout<Rows, Cols, 0>) whose first
/// element is 128-byte aligned.
template <int Rows, int Cols>
struct TmaLayout : PaddedLayout<Rows, Cols, 0> {
  static constexpr int base_alignment = 128;  ///< TMA's shared-memory destination alignment
};

/// A tile a TMA load fills: Rows x Cols elements of T, dense, row-major, 128-byte aligned.
/// __shared__-able like every StaticTile; also usable with every other copy.
template <class T, int Rows, int Cols>
using TmaTile = BasicStaticTile<T, TmaLayout<Rows, Cols>>;

#if defined(__CUDACC__)

using arch::TmaMapResult;  ///< a tensor map, or the reason there is none (arch/tma.cuh)

// Tensor maps for arrays described by sizes and strides rather than a TmaTile (device_stencil's
// rings use them; a TmaTile copy takes make_tma_map<Tile>, which checks the tile against the array).
using arch::make_tma_map_2d;  ///< 2D TMA map of box_rows x box_cols boxes, from sizes and strides (arch/tma.cuh)
using arch::make_tma_map_3d;  ///< 3D TMA map of one-plane boxes of a volume, from sizes and strides (arch/tma.cuh)

// The one TMA issue and wait of the library (the tile copies below and device_stencil's rings), on
// raw mbarriers for kernels that keep several in flight (TmaBarrier / TmaPhase wrap one). Below
// sm_90 they compile to nothing (issue traps): hosts launch TMA kernels on sm_90 and later only.

/// Initializes `Count` mbarriers in shared memory, each expecting one arrival (the issuing
/// thread's) per phase. The threads with threadIdx.x == 0 do it, so the block is one-dimensional;
/// it must synchronize before any thread issues or waits on them.
template <int Count>
SMEMTILE_DEVICE void init_tma_barriers(unsigned long long (&barriers)[Count]) {
#if SMEMTILE_HAS_TMA
  if (threadIdx.x == 0) {
    for (int s = 0; s < Count; ++s) arch::mbarrier_init(&barriers[s], 1);
    arch::fence_mbarrier_init();
  }
#else
  (void)barriers;
#endif
}

/// The thread for which `leader` holds starts loading the box at (row, col; plane of a 3D map,
/// Volume) into shared `dst` (128-byte aligned), announcing `bytes` (the whole box's) on
/// `barrier`; one leader per barrier phase. Coordinates count the map's elements and may lie
/// outside the array (TMA fills zeros). Earlier generic accesses to `dst` by this thread are
/// ordered before the copy; other threads' must be synchronized before the call.
template <bool Volume>
SMEMTILE_DEVICE void issue_tma_box(bool leader, const CUtensorMap& map, unsigned long long& barrier, void* dst,
                                   unsigned bytes, int plane, int row, int col) {
#if SMEMTILE_HAS_TMA
  if (leader) {
    arch::fence_proxy_async_shared();  // earlier generic accesses to the destination come before the copy
    arch::mbarrier_arrive_expect_tx(&barrier, bytes);
    if constexpr (Volume) arch::tma_load_3d(dst, &map, &barrier, plane, row, col);
    else arch::tma_load_2d(dst, &map, &barrier, row, col);
  }
#else
  (void)leader, (void)map, (void)barrier, (void)dst, (void)bytes, (void)plane, (void)row, (void)col;
  __trap();
#endif
}

/// Waits until the phase of `barrier` with this parity (0 for its first phase, then alternating)
/// has completed, i.e. its box has landed; then the calling thread may read the box. Every
/// thread that reads the box waits itself.
SMEMTILE_DEVICE void wait_tma_parity(unsigned long long& barrier, unsigned parity) {
#if SMEMTILE_HAS_TMA
  arch::mbarrier_wait_parity(&barrier, parity);
#else
  (void)barrier, (void)parity;
#endif
}

/// Makes (on the host) the tensor map with which copy_global_to_tile_tma loads tiles of type
/// `Tile` (a TmaTile) from `global` (a rank-2 cuda::std::mdspan with stride(1) == 1, such as a
/// GlobalMatrix). On failure the result says why (`error`): TMA needs the array's address 16-byte
/// aligned, its pitch in bytes a multiple of 16, tile rows of a multiple of 16 bytes and at most
/// 256 elements per tile dimension (arch::tma_map_error).
template <class Tile, class T, class Extents, class Layout, class Accessor>
TmaMapResult make_tma_map(const cuda::std::mdspan<T, Extents, Layout, Accessor>& global) {
  static_assert(Extents::rank() == 2, "smemtile::make_tma_map takes a rank-2 mdspan (rows, cols)");
  using TileLayout = typename Tile::layout_type;
  using Element = typename Tile::value_type;
  static_assert(std::is_same<TileLayout, TmaLayout<TileLayout::rows(), TileLayout::cols()>>::value,
                "smemtile::make_tma_map: the tile must be a TmaTile<T, Rows, Cols>");
  static_assert(std::is_same<std::remove_const_t<T>, Element>::value,
                "smemtile::make_tma_map: the tile's and the global array's element types differ");
  return arch::make_tma_map_2d(global.data_handle(), static_cast<long long>(global.extent(0)),
                               static_cast<long long>(global.extent(1)), static_cast<long long>(global.stride(0)),
                               static_cast<long long>(global.stride(1)), static_cast<int>(sizeof(Element)),
                               TileLayout::rows(), TileLayout::cols());
}

/// The mbarrier a TMA copy completes on: 8 bytes of shared memory, trivially constructible
/// (`__shared__ smemtile::TmaBarrier barrier;`). Initialize it with init_tma_barrier.
struct TmaBarrier {
  alignas(8) unsigned long long state_;  ///< the mbarrier word (used only through the functions here)
};

/// A thread's record of which phase of a TmaBarrier it waits for next (its parity). Each thread
/// keeps its own; init_tma_barrier returns it, each completed wait advances it.
struct TmaPhase {
  unsigned parity;  ///< parity of the next phase to wait for (0 after init)
};

/// Initializes `barrier` for TMA copies issued by one thread: rank 0 of `group` initializes it and
/// fences the initialization; then the group synchronizes (group.sync(); this function does).
/// Every thread of the group calls it and keeps the returned phase. sm_90 and later.
template <class Group = ThreadBlock>
SMEMTILE_DEVICE TmaPhase init_tma_barrier(TmaBarrier& barrier, Group group = {}) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 900
  static_assert(arch::detail::dependent_false<Group>,
                "smemtile::init_tma_barrier: TMA needs sm_90 or later; compile for -arch=sm_90 (or newer) or "
                "use copy_global_to_tile_async");
#elif defined(__CUDA_ARCH__)
  if (group.rank() == 0) {
    arch::mbarrier_init(&barrier.state_, 1);
    arch::fence_mbarrier_init();
  }
  group.sync();
#endif
  return TmaPhase{0};
}

/// Starts loading the tile with one TMA copy: tile(r, c) = global(origin.row + r, origin.col + c),
/// zero where that lies outside the array (the origin may lie anywhere, the tile partly or wholly
/// outside, but origin.col * sizeof(T) must be a multiple of 16: other columns make the copy fail
/// with an illegal-instruction error, as measured on an H200; debug builds check it). `map` is the tensor map make_tma_map<Tile> made for the array, received as a
/// `const __grid_constant__ CUtensorMap` kernel parameter. Rank 0 of `group` issues the copy and
/// announces its bytes on `barrier`; the others do nothing. Complete it with wait_tma(barrier,
/// phase) in every thread. The group must be synchronized since the tile and the barrier were last
/// used. Only boundary::zero (TMA's fill) is accepted. sm_90 and later.
template <class Tile, class Boundary = boundary::Zero, class Group = ThreadBlock>
SMEMTILE_DEVICE void copy_global_to_tile_tma_async(const CUtensorMap& map, Coord origin, Tile&& tile,
                                                   TmaBarrier& barrier, Boundary = {}, Group group = {}) {
  auto ref = tile_ref(tile);
  using Ref = decltype(ref);
  using TileLayout = typename Ref::layout_type;
  using Element = std::remove_const_t<typename Ref::element_type>;
  static_assert(std::is_same<TileLayout, TmaLayout<TileLayout::rows(), TileLayout::cols()>>::value,
                "smemtile TMA copy: the tile must be a TmaTile<T, Rows, Cols> (dense, 128-byte aligned); "
                "halo views, windows, padded and swizzled tiles cannot be TMA boxes");
  static_assert(!std::is_const<typename Ref::element_type>::value, "smemtile TMA copy: the tile is read-only (const)");
  static_assert(std::is_same<Boundary, boundary::Zero>::value,
                "smemtile TMA copy: TMA fills elements outside the array with zeros only; use boundary::zero "
                "(or copy_global_to_tile_async for constant, clamp, periodic and reflect)");
  static_assert(arch::tma_map_error(16, 1, TileLayout::cols(), TileLayout::cols(), 1, static_cast<int>(sizeof(Element)),
                                    TileLayout::rows(), TileLayout::cols()) == nullptr,
                "smemtile TMA copy: this tile cannot be a TMA box (rows of a multiple of 16 bytes, at most 256 "
                "elements per dimension, elements of 1, 2, 4, 8 or 16 bytes)");
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 900
  static_assert(arch::detail::dependent_false<Tile>,
                "smemtile::copy_global_to_tile_tma: TMA needs sm_90 or later; compile for -arch=sm_90 (or "
                "newer) or use copy_global_to_tile_async");
#elif defined(__CUDA_ARCH__)
  const bool leader = group.rank() == 0;
  if (leader) {
    SMEMTILE_CHECK(shared_window_address(ref.data()) % 128u == 0,
                   "smemtile TMA copy: the tile is not 128-byte aligned (values: shared address)",
                   shared_window_address(ref.data()), 0, 0, 0);
    SMEMTILE_CHECK((static_cast<long long>(origin.col) * static_cast<long long>(sizeof(Element))) % 16 == 0,
                   "smemtile TMA copy: the box's first column must be at a multiple of 16 bytes (values: "
                   "origin row, origin col, element bytes)",
                   origin.row, origin.col, sizeof(Element), 0);
  }
  constexpr unsigned bytes = static_cast<unsigned>(sizeof(Element)) * TileLayout::rows() * TileLayout::cols();
  issue_tma_box<false>(leader, map, barrier.state_, ref.data(), bytes, 0, origin.row,
                       origin.col * arch::tma_elements_per_element(static_cast<int>(sizeof(Element))));
#endif
}

/// Waits (every thread of the group) until the TMA copy announced on `barrier` has landed, then
/// advances `phase`. Afterwards this thread may read the tile; no further synchronization is
/// needed to read it. sm_90 and later.
template <class Dummy = void>
SMEMTILE_DEVICE void wait_tma(TmaBarrier& barrier, TmaPhase& phase) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 900
  static_assert(arch::detail::dependent_false<Dummy>,
                "smemtile::wait_tma: TMA needs sm_90 or later; compile for -arch=sm_90 (or newer)");
#elif defined(__CUDA_ARCH__)
  wait_tma_parity(barrier.state_, phase.parity);
  phase.parity ^= 1u;
#endif
}

/// Loads the tile with one TMA copy and waits for it: copy_global_to_tile_tma_async, then
/// wait_tma in every thread. Afterwards every thread of the group may read the tile. Before the
/// next use of the tile or the barrier, synchronize the group (group.sync()). sm_90 and later.
template <class Tile, class Boundary = boundary::Zero, class Group = ThreadBlock>
SMEMTILE_DEVICE void copy_global_to_tile_tma(const CUtensorMap& map, Coord origin, Tile&& tile, TmaBarrier& barrier,
                                             TmaPhase& phase, Boundary boundary = {}, Group group = {}) {
  copy_global_to_tile_tma_async(map, origin, tile, barrier, boundary, group);
  wait_tma<Tile>(barrier, phase);
}

#endif  // __CUDACC__

}  // namespace smemtile
