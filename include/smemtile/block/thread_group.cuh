// smemtile/block/thread_group.cuh: which threads share a block-level helper's work.
//
// Block-level helpers (copies, transposes, halo fills) take a thread group: every thread of the
// group calls the helper with the same arguments, and each moves its share. The group's rank()
// decides the share: consecutive ranks take consecutive elements, so consecutive lanes of a warp
// touch consecutive addresses (coalesced global accesses, conflict-free shared ones).
//   ThreadBlock           the whole block (the default), its size read from blockDim at run time
//   FixedThreadBlock<N>   the whole block, known to have N threads: the work per thread is then a
//                         compile-time count, loops unroll and loads are issued back to back
//   Warp                  the 32 lanes of the calling warp (all must call)
// Helpers never synchronize; group.sync() is the barrier to call before another thread of the
// group reads what a helper wrote.
#pragma once

#include "../config.cuh"  // SMEMTILE_DEVICE, SMEMTILE_CHECK

namespace smemtile {

#if defined(__CUDACC__)

namespace detail {
/// The thread's rank in a 3D block: (threadIdx.z * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x.
SMEMTILE_DEVICE unsigned linear_thread_rank() {
  return (threadIdx.z * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x;
}
}  // namespace detail

/// Every thread of the block; the block's size is read from blockDim.
struct ThreadBlock {
  static constexpr int static_size = 0;  ///< 0: the size is known only at run time
  /// This thread's rank in the block.
  SMEMTILE_DEVICE unsigned rank() const { return detail::linear_thread_rank(); }
  /// Threads in the block.
  SMEMTILE_DEVICE unsigned size() const { return blockDim.x * blockDim.y * blockDim.z; }
  /// __syncthreads().
  SMEMTILE_DEVICE void sync() const { __syncthreads(); }
};

/// Every thread of a block of exactly `Threads` threads (checked in debug builds).
template <int Threads>
struct FixedThreadBlock {
  static_assert(Threads > 0 && Threads <= 1024, "smemtile::FixedThreadBlock: a block has 1 to 1024 threads");
  static constexpr int static_size = Threads;  ///< the size, known at compile time
  /// This thread's rank in the block.
  SMEMTILE_DEVICE unsigned rank() const {
    SMEMTILE_CHECK(blockDim.x * blockDim.y * blockDim.z == Threads,
                   "FixedThreadBlock<N>: the block does not have N threads (values: N, blockDim.x, .y, .z)", Threads,
                   blockDim.x, blockDim.y, blockDim.z);
    return detail::linear_thread_rank();
  }
  /// Threads in the block: Threads.
  SMEMTILE_DEVICE static constexpr unsigned size() { return Threads; }
  /// __syncthreads().
  SMEMTILE_DEVICE void sync() const { __syncthreads(); }
};

/// The 32 lanes of the calling warp (the block's size must be a multiple of 32).
struct Warp {
  static constexpr int static_size = 32;  ///< a warp's lanes
  /// This thread's lane.
  SMEMTILE_DEVICE unsigned rank() const { return detail::linear_thread_rank() % 32u; }
  /// Lanes in a warp: 32.
  SMEMTILE_DEVICE static constexpr unsigned size() { return 32; }
  /// __syncwarp().
  SMEMTILE_DEVICE void sync() const { __syncwarp(); }
};

#endif  // __CUDACC__

}  // namespace smemtile
