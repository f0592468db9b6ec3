// smemtile/arch/mbarrier.cuh: shared-memory transaction barriers (mbarrier), as TMA copies use them
// (sm_90 and later).
//
// An mbarrier is a 64-bit word in shared memory. It completes a phase when the expected number of
// threads have arrived and every byte announced with expect_tx has been delivered by the copies
// that signal it (complete_tx); its phase parity then flips. Waiting names the parity of the phase
// waited for: a thread keeps its own count (0 for the first phase after init, then 1, 0, ...).
//
//   if (rank == 0) { arch::mbarrier_init(&bar, 1); arch::fence_mbarrier_init(); }
//   __syncthreads();
//   if (rank == 0) { arch::mbarrier_arrive_expect_tx(&bar, bytes); /* issue the TMA copy */ }
//   arch::mbarrier_wait_parity(&bar, parity);   // every thread; then parity ^= 1
//
// These wrappers exist for sm_90 and later. Using one in device code for an older architecture
// fails to compile with a static_assert naming the need for sm_90 (they are templates with a
// defaulted parameter only so that the assertion fires where they are used, not where they are
// declared): the header itself compiles for every architecture. block/tma_copy.cuh builds the
// block-level TMA copy on them.
#pragma once

#include "../config.cuh"  // SMEMTILE_DEVICE
#include "../core/shared_address.cuh"  // shared_window_address (what mbarrier and TMA PTX takes)

namespace smemtile {
namespace arch {

namespace detail {
// A false that depends on a template parameter, for static_asserts that fire only when used.
template <class...>
inline constexpr bool dependent_false = false;
}  // namespace detail

#if defined(__CUDACC__)

/// 1 in device compilation passes for sm_90 and later (mbarrier transactions, TMA), 0 elsewhere.
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
#define SMEMTILE_HAS_TMA 1
#else
#define SMEMTILE_HAS_TMA 0
#endif

// Device code below sm_90 that uses an sm_90 wrapper gets this error.
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 900
#define SMEMTILE_DETAIL_REQUIRE_SM90(Dummy)                                                                  \
  static_assert(::smemtile::arch::detail::dependent_false<Dummy>,                                           \
                "smemtile: mbarrier transactions and TMA copies need sm_90 or later (compile for "        \
                "-arch=sm_90 or newer, or use copy_global_to_tile_async / copy_global_to_tile instead)")
#else
#define SMEMTILE_DETAIL_REQUIRE_SM90(Dummy) static_assert(true, "")
#endif

/// Initializes the mbarrier at `bar` (8-byte aligned, shared memory) to expect `arrivals` arrivals
/// per phase; the current phase has parity 0. One thread calls it, followed by
/// fence_mbarrier_init() and a barrier before any thread uses the mbarrier.
template <class Dummy = void>
SMEMTILE_DEVICE void mbarrier_init(unsigned long long* bar, unsigned arrivals) {
  SMEMTILE_DETAIL_REQUIRE_SM90(Dummy);
#if SMEMTILE_HAS_TMA
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;\n" ::"r"(shared_window_address(bar)), "r"(arrivals)
               : "memory");
#endif
}

/// Makes mbarrier initializations of this thread visible to the other threads and to the async
/// proxy (TMA): fence.mbarrier_init.release.cluster, then fence.proxy.async.shared::cta.
template <class Dummy = void>
SMEMTILE_DEVICE void fence_mbarrier_init() {
  SMEMTILE_DETAIL_REQUIRE_SM90(Dummy);
#if SMEMTILE_HAS_TMA
  asm volatile("fence.mbarrier_init.release.cluster;\n" ::: "memory");
  asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");
#endif
}

/// Orders this thread's earlier generic accesses to shared memory before its later async-proxy
/// operations (TMA) on it: fence.proxy.async.shared::cta.
template <class Dummy = void>
SMEMTILE_DEVICE void fence_proxy_async_shared() {
  SMEMTILE_DETAIL_REQUIRE_SM90(Dummy);
#if SMEMTILE_HAS_TMA
  asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");
#endif
}

/// Announces `bytes` more bytes that copies will deliver to the current phase, and arrives once:
/// mbarrier.arrive.expect_tx.shared::cta.b64.
template <class Dummy = void>
SMEMTILE_DEVICE void mbarrier_arrive_expect_tx(unsigned long long* bar, unsigned bytes) {
  SMEMTILE_DETAIL_REQUIRE_SM90(Dummy);
#if SMEMTILE_HAS_TMA
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;\n" ::"r"(shared_window_address(bar)),
               "r"(bytes)
               : "memory");
#endif
}

/// Arrives once on the mbarrier (mbarrier.arrive.shared::cta.b64).
template <class Dummy = void>
SMEMTILE_DEVICE void mbarrier_arrive(unsigned long long* bar) {
  SMEMTILE_DETAIL_REQUIRE_SM90(Dummy);
#if SMEMTILE_HAS_TMA
  asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];\n" ::"r"(shared_window_address(bar)) : "memory");
#endif
}

/// Whether the phase of parity `parity` has completed (mbarrier.try_wait.parity, which may suspend
/// the thread for a while before answering no). Acquire semantics: after a yes, the data the phase
/// delivered is visible to this thread.
template <class Dummy = void>
SMEMTILE_DEVICE bool mbarrier_try_wait_parity(unsigned long long* bar, unsigned parity) {
  SMEMTILE_DETAIL_REQUIRE_SM90(Dummy);
#if SMEMTILE_HAS_TMA
  unsigned done = 0;
  asm volatile(
      "{\n"
      ".reg .pred p;\n"
      "mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\n"
      "selp.u32 %0, 1, 0, p;\n"
      "}\n"
      : "=r"(done)
      : "r"(shared_window_address(bar)), "r"(parity & 1u)
      : "memory");
  return done != 0;
#else
  return true;
#endif
}

/// Waits until the phase of parity `parity` has completed (a try_wait loop).
template <class Dummy = void>
SMEMTILE_DEVICE void mbarrier_wait_parity(unsigned long long* bar, unsigned parity) {
  SMEMTILE_DETAIL_REQUIRE_SM90(Dummy);
#if SMEMTILE_HAS_TMA
  while (!mbarrier_try_wait_parity(bar, parity)) {
  }
#endif
}

#endif  // __CUDACC__

}  // namespace arch
}  // namespace smemtile
