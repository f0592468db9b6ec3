// smemtile/arch/global_load.cuh: loads from global memory that tell L2 how much to fetch (sm_80 and
// later).
//
//   const uint4 v = smemtile::arch::load_global_fetch_256(p);  // *p; L2 fetches the 256 bytes around it
//
// An ordinary load whose line misses in L2 has L2 fetch that line from DRAM. With the .L2::256B
// qualifier L2 fetches the aligned 256 bytes that hold it: useful where the other half is read soon
// by someone else, as when blocks load tiles whose rows are one 128-byte line and the block beside
// reads the next line (device_transpose's tiles of bytes and halves; docs/tuning.md). It is
// only a hint: nothing outside the 256 bytes is read, and the value is the ordinary load's. Below
// sm_80 (and in the host pass) it is an ordinary load.
#pragma once

#include <cstring>  // std::memcpy (register reinterpretation)

#include "../config.cuh"  // SMEMTILE_DEVICE

namespace smemtile {
namespace arch {

#if defined(__CUDACC__)

/// *p, a 4-, 8- or 16-byte value in global memory (aligned to its size), with L2 fetching the 256
/// bytes around it from DRAM where it misses (ld.global.L2::256B). Other sizes: an ordinary load.
template <class V>
SMEMTILE_DEVICE V load_global_fetch_256(const V* p) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  if constexpr (sizeof(V) == 16) {
    uint4 u;
    asm volatile("ld.global.L2::256B.v4.u32 {%0, %1, %2, %3}, [%4];\n"
                 : "=r"(u.x), "=r"(u.y), "=r"(u.z), "=r"(u.w)
                 : "l"(p)
                 : "memory");
    V v;
    std::memcpy(&v, &u, sizeof(v));
    return v;
  } else if constexpr (sizeof(V) == 8) {
    uint2 u;
    asm volatile("ld.global.L2::256B.v2.u32 {%0, %1}, [%2];\n" : "=r"(u.x), "=r"(u.y) : "l"(p) : "memory");
    V v;
    std::memcpy(&v, &u, sizeof(v));
    return v;
  } else if constexpr (sizeof(V) == 4) {
    unsigned u;
    asm volatile("ld.global.L2::256B.u32 %0, [%1];\n" : "=r"(u) : "l"(p) : "memory");
    V v;
    std::memcpy(&v, &u, sizeof(v));
    return v;
  } else {
    return *p;
  }
#else
  return *p;
#endif
}

#endif  // __CUDACC__

}  // namespace arch
}  // namespace smemtile
