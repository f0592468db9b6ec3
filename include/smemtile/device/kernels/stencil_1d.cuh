/// \file
/// device_stencil's 1D kernel: one halo tile per block, loaded with copy_global_to_tile (whose
/// boundary policy fills the halo outside the array), its points computed from shared memory.
#pragma once

#include "../../block/copy.cuh"         // copy_global_to_tile
#include "../../block/stencil.cuh"      // neighborhood
#include "../../block/thread_group.cuh" // FixedThreadBlock
#include "../../core/static_tile.cuh"   // StaticHaloTile1D
#include "../../core/thread_map.cuh"    // block_tile_origin_1d
#include "stencil_common.cuh"           // element

namespace smemtile {
namespace detail {

#if defined(__CUDACC__)

// Policy: a Stencil1DPolicy (tuning/stencil_policy.cuh).
template <class Policy, int Radius, StencilShape Shape, class T, class Boundary, class Op>
__global__ void __launch_bounds__(Policy::threads, Policy::min_blocks)
    stencil_1d_kernel(GlobalArray<const T, 1> in, GlobalArray<T, 1> out, Boundary boundary, Op op) {
  constexpr int size = Policy::interior, threads = Policy::threads;
  __shared__ StaticHaloTile1D<T, size, Policy::halo_cols> tile;
  const int origin = block_tile_origin_1d(size);
  copy_global_to_tile(in, origin, tile, boundary, FixedThreadBlock<threads>{});
  __syncthreads();
  const int n = static_cast<int>(out.extent(0));
#pragma unroll
  for (int j = 0; j < size / threads; ++j) {
    const int i = static_cast<int>(threadIdx.x) + j * threads;
    if (origin + i < n) element(out, origin + i) = static_cast<T>(op(neighborhood<Radius, Shape>(tile, i)));
  }
}

#endif  // __CUDACC__

}  // namespace detail
}  // namespace smemtile
