// smemtile/core/shared_address.cuh: the 32-bit shared-window address of a shared-memory object.
//
// Bank rules, alignment checks, and the PTX of cp.async, mbarrier and TMA all speak of this
// address, not of the generic pointer: the one place it is computed.
#pragma once

#include "../config.cuh"  // SMEMTILE_DEVICE

namespace smemtile {

#if defined(__CUDACC__)

/// The 32-bit shared-window address of `p`, which must point into shared memory.
template <class T>
SMEMTILE_DEVICE unsigned shared_window_address(const T* p) {
  return static_cast<unsigned>(__cvta_generic_to_shared(p));
}

#endif  // __CUDACC__

}  // namespace smemtile
