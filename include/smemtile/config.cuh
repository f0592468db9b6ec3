// smemtile/config.cuh: version, host/device macros and the assertion hook.
//
// Everything in smemtile that is arithmetic (layouts, bank model, carving plans) is marked
// SMEMTILE_HOST_DEVICE and constexpr, so that the same code runs in kernels and in host tests
// compiled by a plain C++17 compiler (where the CUDA qualifiers expand to nothing).
#pragma once

#define SMEMTILE_VERSION_MAJOR 0
#define SMEMTILE_VERSION_MINOR 1
#define SMEMTILE_VERSION_PATCH 0

#if defined(__CUDACC__)
#define SMEMTILE_HOST_DEVICE __host__ __device__ __forceinline__
#define SMEMTILE_DEVICE __device__ __forceinline__
#else
#define SMEMTILE_HOST_DEVICE inline
#define SMEMTILE_DEVICE inline
#endif

// Device-side bounds checks: on by default in debug builds (NDEBUG not defined), off in release
// builds, where accessors compile to exactly the raw-array code. Define SMEMTILE_BOUNDS_CHECKS to
// 0 or 1 before including smemtile to choose explicitly.
#ifndef SMEMTILE_BOUNDS_CHECKS
#if defined(NDEBUG)
#define SMEMTILE_BOUNDS_CHECKS 0
#else
#define SMEMTILE_BOUNDS_CHECKS 1
#endif
#endif

#include <cstdio>  // printf, for the assertion message on host and device

namespace smemtile {
namespace detail {

// Reports a failed check and stops: on the device the kernel traps (the launch fails with
// cudaErrorLaunchFailure / an illegal instruction, which the host sees), on the host it aborts.
// Not constexpr-evaluable on purpose: a failed check inside a constant expression is a compile error.
#if defined(__CUDACC__)
__host__ __device__ inline void assertion_failed(const char* what, const char* file, int line, long long a,
                                                 long long b, long long c, long long d)
#else
inline void assertion_failed(const char* what, const char* file, int line, long long a, long long b, long long c,
                             long long d)
#endif
{
  printf("smemtile: %s:%d: %s (values: %lld, %lld, %lld, %lld)\n", file, line, what, a, b, c, d);
#if defined(__CUDA_ARCH__)
  __trap();
#else
  __builtin_trap();
#endif
}

}  // namespace detail
}  // namespace smemtile

// SMEMTILE_CHECK(cond, message, a, b, c, d): a debug-mode check with four integers to print.
#if SMEMTILE_BOUNDS_CHECKS
#define SMEMTILE_CHECK(cond, message, a, b, c, d)                                                         \
  ((cond) ? (void)0                                                                                      \
          : ::smemtile::detail::assertion_failed(message, __FILE__, __LINE__, (long long)(a), (long long)(b), \
                                                 (long long)(c), (long long)(d)))
#else
#define SMEMTILE_CHECK(cond, message, a, b, c, d) ((void)0)
#endif
