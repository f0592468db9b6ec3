// smemtile/arch/global_store.cuh: a 16-byte store to global memory that stays one instruction.
//
//   smemtile::arch::store_global_16(p, chunk);  // *p = chunk, one st.global.v4 (p 16-byte aligned)
//
// nvcc stores a uint4 as one STG.128 only where its four words already sit in four consecutive
// registers; a chunk assembled from other registers (a regroup in registers) may be stored as four
// 4-byte STGs instead, four times the store instructions and L2 requests. The inline PTX makes the
// compiler gather the words into a register quad (moves) and issue one 16-byte store.
#pragma once

#include "../config.cuh"  // SMEMTILE_DEVICE

namespace smemtile {
namespace arch {

#if defined(__CUDACC__)

/// *p = v in one 16-byte store; p must be a 16-byte aligned global address.
SMEMTILE_DEVICE void store_global_16(void* p, const uint4& v) {
#if defined(__CUDA_ARCH__)
  asm volatile("st.global.v4.b32 [%0], {%1, %2, %3, %4};\n" ::"l"(p), "r"(v.x), "r"(v.y), "r"(v.z), "r"(v.w)
               : "memory");
#else
  *static_cast<uint4*>(p) = v;
#endif
}

#endif  // __CUDACC__

}  // namespace arch
}  // namespace smemtile
