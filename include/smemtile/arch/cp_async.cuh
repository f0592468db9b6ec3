// smemtile/arch/cp_async.cuh: asynchronous global -> shared copies (cp.async, sm_80 and later).
//
//   smemtile::copy_global_to_tile_async(in, origin, tile);   // block/async_copy.cuh: issues cp.async
//   smemtile::async_copy_commit();                          // closes this thread's group of copies
//   smemtile::async_copy_wait<0>();                         // this thread's copies have landed
//   __syncthreads();                                        // ... and now every thread's have
//
// cp.async moves 4, 8 or 16 bytes from global to shared memory without passing through registers;
// the copy completes later. Each thread commits the copies it issued into a group
// (async_copy_commit) and waits until at most N of its groups are still pending
// (async_copy_wait<N>). A wait covers only the calling thread's copies: the group must then
// synchronize (group.sync(), __syncthreads()) before a thread reads what another thread's copies
// wrote. A cp.async may read fewer bytes than it writes (src_bytes < Bytes): the rest of the
// destination is filled with zeros by the hardware, which is how out-of-range elements get zero.
//
// Below sm_80 (and in the host compilation pass) there is no cp.async: cp_async() then moves the
// data synchronously (an ordinary load and store, zeros for the bytes past src_bytes), and
// async_copy_commit / async_copy_wait are no-ops. The results are the same; only the overlap of
// copies and computation is lost. `arch::has_cp_async` says which one a device compilation gets.
#pragma once

#include "../config.cuh"  // SMEMTILE_DEVICE
#include "../core/shared_address.cuh"  // shared_window_address
#include "../core/vector_type.cuh"  // VectorOf (the fallback's register type)

namespace smemtile {
namespace arch {

#if defined(__CUDACC__)

/// 1 in device compilation passes for sm_80 and later (real cp.async), 0 elsewhere (fallback).
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
#define SMEMTILE_HAS_CP_ASYNC 1
#else
#define SMEMTILE_HAS_CP_ASYNC 0
#endif

/// Whether this compilation pass issues real cp.async instructions (device code for sm_80 and
/// later); false where cp_async() falls back to a synchronous load and store.
inline constexpr bool has_cp_async = SMEMTILE_HAS_CP_ASYNC != 0;

/// Starts copying `Bytes` (4, 8 or 16) bytes from global memory at `src` to shared memory at `dst`:
/// the first `src_bytes` (0 to Bytes, a multiple of 4) are read from `src`, the rest of `dst` is filled with zeros.
/// Both addresses must be aligned to Bytes; `src` must be a valid global address even when
/// src_bytes is 0 (nothing is read then). 16-byte copies bypass L1 (cp.async.cg), narrower ones
/// are cached in L1 (cp.async.ca, the only variant for them). L2Prefetch (64, 128 or 256; 16-byte
/// copies only) asks L2 to fetch that many bytes around `src` (.L2::NB): for loads whose neighbours
/// in memory are read soon by other warps or blocks. Completes asynchronously: see
/// async_copy_commit / async_copy_wait. Below sm_80: a synchronous copy with the same result.
template <int Bytes, int L2Prefetch = 0>
SMEMTILE_DEVICE void cp_async(void* dst, const void* src, unsigned src_bytes = Bytes) {
  static_assert(Bytes == 4 || Bytes == 8 || Bytes == 16, "smemtile::arch::cp_async moves 4, 8 or 16 bytes");
  static_assert(L2Prefetch == 0 || ((L2Prefetch == 64 || L2Prefetch == 128 || L2Prefetch == 256) && Bytes == 16),
                "smemtile::arch::cp_async: L2Prefetch is 0, or 64, 128 or 256 for 16-byte copies");
#if SMEMTILE_HAS_CP_ASYNC
  const unsigned shared = shared_window_address(dst);
  if constexpr (Bytes == 16 && L2Prefetch == 0) {
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(shared), "l"(src), "r"(src_bytes)
                 : "memory");
  } else if constexpr (L2Prefetch == 64) {
    asm volatile("cp.async.cg.shared.global.L2::64B [%0], [%1], 16, %2;\n" ::"r"(shared), "l"(src), "r"(src_bytes)
                 : "memory");
  } else if constexpr (L2Prefetch == 128) {
    asm volatile("cp.async.cg.shared.global.L2::128B [%0], [%1], 16, %2;\n" ::"r"(shared), "l"(src), "r"(src_bytes)
                 : "memory");
  } else if constexpr (L2Prefetch == 256) {
    asm volatile("cp.async.cg.shared.global.L2::256B [%0], [%1], 16, %2;\n" ::"r"(shared), "l"(src), "r"(src_bytes)
                 : "memory");
  } else {
    asm volatile("cp.async.ca.shared.global [%0], [%1], %2, %3;\n" ::"r"(shared), "l"(src), "n"(Bytes),
                 "r"(src_bytes)
                 : "memory");
  }
#else
  // Synchronous fallback: one vector access when every byte is read, else 4-byte words and zeros.
  using Vector = typename ::smemtile::detail::VectorOf<Bytes>::type;
  if (src_bytes >= static_cast<unsigned>(Bytes)) {
    *static_cast<Vector*>(dst) = *static_cast<const Vector*>(src);
  } else {
    const unsigned* from = static_cast<const unsigned*>(src);
    unsigned* to = static_cast<unsigned*>(dst);
#pragma unroll
    for (int w = 0; w < Bytes / 4; ++w) to[w] = static_cast<unsigned>(4 * w) < src_bytes ? from[w] : 0u;
  }
#endif
}

/// Closes the calling thread's current group of cp.async copies (cp.async.commit_group).
/// A no-op below sm_80.
SMEMTILE_DEVICE void cp_async_commit_group() {
#if SMEMTILE_HAS_CP_ASYNC
  asm volatile("cp.async.commit_group;\n" ::: "memory");
#endif
}

/// Waits until at most `Pending` of the calling thread's committed groups are still in flight
/// (cp.async.wait_group). A no-op below sm_80.
template <int Pending>
SMEMTILE_DEVICE void cp_async_wait_group() {
  static_assert(Pending >= 0 && Pending <= 7, "smemtile: cp.async.wait_group takes 0 to 7 pending groups");
#if SMEMTILE_HAS_CP_ASYNC
  asm volatile("cp.async.wait_group %0;\n" ::"n"(Pending) : "memory");
#endif
}

/// Waits for all of the calling thread's cp.async copies, committed or not (cp.async.wait_all).
/// A no-op below sm_80.
SMEMTILE_DEVICE void cp_async_wait_all() {
#if SMEMTILE_HAS_CP_ASYNC
  asm volatile("cp.async.wait_all;\n" ::: "memory");
#endif
}

#endif  // __CUDACC__

}  // namespace arch

#if defined(__CUDACC__)

/// Commits the asynchronous copies this thread issued since its last commit as one group
/// (for example the copies of one pipeline stage). Every thread of the group calls it.
SMEMTILE_DEVICE void async_copy_commit() { arch::cp_async_commit_group(); }

/// Waits until at most `Pending` of this thread's committed groups are still in flight
/// (async_copy_wait<0>: all committed ones have landed). Covers this thread's copies only: call
/// group.sync() (__syncthreads()) afterwards, before any thread reads the tile.
template <int Pending>
SMEMTILE_DEVICE void async_copy_wait() {
  arch::cp_async_wait_group<Pending>();
}

/// Waits for every asynchronous copy this thread issued, committed or not. As async_copy_wait,
/// call group.sync() afterwards before reading the tile.
SMEMTILE_DEVICE void async_copy_wait_all() { arch::cp_async_wait_all(); }

#endif  // __CUDACC__

}  // namespace smemtile
