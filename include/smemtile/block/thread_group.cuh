// smemtile/block/thread_group.cuh: which threads share a block-level helper's work.
//
// Block-level helpers (copies, transposes, halo fills) take a thread group: every thread of the
// group calls the helper with the same arguments, and each moves its share. The group's rank()
// decides the share: consecutive ranks take consecutive elements, so consecutive lanes of a warp
// touch consecutive addresses (coalesced global accesses, conflict-free shared ones).
//   ThreadBlock           the whole block (the default), its size read from blockDim at run time
//   FixedThreadBlock<N>   the whole block, known to have N threads: the work per thread is then a
//                         compile-time count, loops unroll and loads are issued back to back;
//                         FixedThreadBlock<X, Y> also knows the shape (X x Y), so ranks fold back to
//                         threadIdx.x / .y as in a hand-written kernel
//   Warp                  the 32 lanes of the calling warp (all must call)
// Helpers never synchronize; group.sync() is the barrier to call before another thread of the
// group reads what a helper wrote.
#pragma once

#include <type_traits>  // std::conditional_t

#include "../config.cuh"  // SMEMTILE_DEVICE, SMEMTILE_CHECK

namespace smemtile {

#if defined(__CUDACC__)

namespace detail {
/// The thread's rank in a 3D block: (threadIdx.z * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x.
SMEMTILE_DEVICE unsigned linear_thread_rank() {
  return (threadIdx.z * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x;
}

// `value` (1 to 8 bytes, trivially copyable) moved through `shuffle` as one 32- or 64-bit word: the
// shuffles' one reinterpretation.
template <class T, class Shuffle>
SMEMTILE_DEVICE T shuffle_as_word(T value, Shuffle shuffle) {
  using Word = std::conditional_t<sizeof(T) == 8, unsigned long long, unsigned>;
  Word word = 0;
  __builtin_memcpy(&word, &value, sizeof(T));
  word = shuffle(word);
  __builtin_memcpy(&value, &word, sizeof(T));
  return value;
}
}  // namespace detail

/// `value` of the lane `delta` below (Up) or above this one among `lanes` (a shuffle's mask: every
/// lane in it calls with the same mask and delta), for values of 1 to 8 bytes of any trivially
/// copyable type, moved as one 32- or 64-bit word; lanes with no such lane get their own back.
/// `width` (a power of two up to 32) splits the warp into groups shuffling apart, as the intrinsics'.
template <bool Up, class T>
SMEMTILE_DEVICE T shuffle_lanes(unsigned lanes, T value, int delta, int width = 32) {
  static_assert(sizeof(T) <= 8, "smemtile::shuffle_lanes: values of 1 to 8 bytes");
  return detail::shuffle_as_word(value, [&](auto word) {
    return Up ? __shfl_up_sync(lanes, word, delta, width) : __shfl_down_sync(lanes, word, delta, width);
  });
}

/// `value` of lane `source` (0..31) among `lanes` (a shuffle's mask), for values of 1 to 8 bytes of
/// any trivially copyable type, moved as one 32- or 64-bit word.
template <class T>
SMEMTILE_DEVICE T shuffle_from(unsigned lanes, T value, int source) {
  static_assert(sizeof(T) <= 8, "smemtile::shuffle_from: values of 1 to 8 bytes");
  return detail::shuffle_as_word(value, [&](auto word) { return __shfl_sync(lanes, word, source); });
}

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

/// Every thread of a block of exactly `Threads` threads, of any shape (checked in debug builds).
/// FixedThreadBlock<X, Y> (and <X, Y, Z>) is a block of that shape: its rank is threadIdx.y * X +
/// threadIdx.x with X known, so a copy's split of the rank into a tile row and column folds back
/// to threadIdx.y and threadIdx.x (what a hand-written kernel indexes with).
template <int X, int Y = 0, int Z = 0>
struct FixedThreadBlock {
  static_assert(X > 0 && Y >= 0 && Z >= 0 && (Z == 0 || Y > 0),
                "smemtile::FixedThreadBlock<X, Y, Z>: positive sizes (Y and Z may be left out)");
  static_assert(static_cast<long long>(X) * (Y > 0 ? Y : 1) * (Z > 0 ? Z : 1) <= 1024,
                "smemtile::FixedThreadBlock: a block has 1 to 1024 threads");
  static constexpr bool shaped = Y > 0;  ///< whether the block's shape (not only its size) is known
  /// The size, known at compile time.
  static constexpr int static_size = X * (Y > 0 ? Y : 1) * (Z > 0 ? Z : 1);
  /// This thread's rank in the block.
  SMEMTILE_DEVICE unsigned rank() const {
    if constexpr (shaped) {
      SMEMTILE_CHECK(blockDim.x == X && blockDim.y == Y && blockDim.z == (Z > 0 ? Z : 1),
                     "FixedThreadBlock<X, Y, Z>: the block does not have that shape (values: X, blockDim.x, .y, .z)",
                     X, blockDim.x, blockDim.y, blockDim.z);
      // The shape is the caller's word (checked above in debug builds): let the compiler use it.
      __builtin_assume(threadIdx.x < static_cast<unsigned>(X));
      __builtin_assume(threadIdx.y < static_cast<unsigned>(Y));
      if constexpr (Z > 1) {
        __builtin_assume(threadIdx.z < static_cast<unsigned>(Z));
        return (threadIdx.z * Y + threadIdx.y) * X + threadIdx.x;
      } else {
        return threadIdx.y * X + threadIdx.x;
      }
    } else {
      SMEMTILE_CHECK(blockDim.x * blockDim.y * blockDim.z == X,
                     "FixedThreadBlock<N>: the block does not have N threads (values: N, blockDim.x, .y, .z)", X,
                     blockDim.x, blockDim.y, blockDim.z);
      return detail::linear_thread_rank();
    }
  }
  /// Threads in the block.
  SMEMTILE_DEVICE static constexpr unsigned size() { return static_size; }
  /// __syncthreads().
  SMEMTILE_DEVICE void sync() const { __syncthreads(); }
  /// (rank / PerRow, rank % PerRow): for a shaped block whose rows are whole multiples of PerRow,
  /// taken from threadIdx directly (no division, as a hand-written kernel has it).
  template <int PerRow>
  SMEMTILE_DEVICE void split_rank(int& row, int& col) const {
    if constexpr (shaped && Z <= 1 && X % PerRow == 0) {
      (void)rank();  // the debug check of the shape
      if constexpr (PerRow == X) {
        row = static_cast<int>(threadIdx.y), col = static_cast<int>(threadIdx.x);
      } else {
        row = static_cast<int>(threadIdx.y * (X / PerRow) + threadIdx.x / PerRow);
        col = static_cast<int>(threadIdx.x % PerRow);
      }
    } else {
      const unsigned r = rank();
      row = static_cast<int>(r / PerRow), col = static_cast<int>(r % PerRow);
    }
  }
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
