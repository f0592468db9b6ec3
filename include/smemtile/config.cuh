/// \file
/// Version, host/device macros and the debug-mode check.
///
/// Everything in smemtile that is arithmetic (layouts, bank model, carving plans) is marked
/// SMEMTILE_HOST_DEVICE and constexpr, so that the same code runs in kernels and in host tests
/// compiled by a plain C++17 compiler (where the CUDA qualifiers expand to nothing).
#pragma once

/// smemtile's major version: changes that break code using it (in 0.x: the minor version too).
#define SMEMTILE_VERSION_MAJOR 0
/// smemtile's minor version: additions; in 0.x also changes that may break code using it.
#define SMEMTILE_VERSION_MINOR 1
/// smemtile's patch version: fixes only.
#define SMEMTILE_VERSION_PATCH 0

#if defined(__CUDACC__)
/// Marks a function callable from both host and device code, inlined. Without a CUDA compiler
/// (plain C++ host code, such as host tests) it is just `inline`.
#define SMEMTILE_HOST_DEVICE __host__ __device__ __forceinline__
/// Marks a device-only function, inlined; `inline` without a CUDA compiler.
#define SMEMTILE_DEVICE __device__ __forceinline__
#else
#define SMEMTILE_HOST_DEVICE inline
#define SMEMTILE_DEVICE inline
#endif

#ifndef SMEMTILE_BOUNDS_CHECKS
#if defined(NDEBUG)
#define SMEMTILE_BOUNDS_CHECKS 0
#else
/// 1 when accessors check their indices on the device (printing the values and trapping), 0 when
/// they compile to exactly the raw-array code. Default: 1 in debug builds (NDEBUG not defined), 0
/// in release builds. Define it to 0 or 1 before including smemtile to choose explicitly.
#define SMEMTILE_BOUNDS_CHECKS 1
#endif
#endif

#include <cstdio>  // printf, for the assertion message on host and device

/// smemtile: tiles, views and layouts of shared memory, the bank model, and the carving of dynamic
/// shared memory, for CUDA kernels.
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

#if SMEMTILE_BOUNDS_CHECKS
/// A debug-mode check: when SMEMTILE_BOUNDS_CHECKS is 1 and `cond` is false, prints `message`
/// with the file, the line and the four integers `a`, `b`, `c`, `d`, then traps on the device
/// (the launch fails) or aborts on the host. Expands to nothing when SMEMTILE_BOUNDS_CHECKS is 0.
#define SMEMTILE_CHECK(cond, message, a, b, c, d)                                                         \
  ((cond) ? (void)0                                                                                      \
          : ::smemtile::detail::assertion_failed(message, __FILE__, __LINE__, (long long)(a), (long long)(b), \
                                                 (long long)(c), (long long)(d)))
#else
#define SMEMTILE_CHECK(cond, message, a, b, c, d) ((void)0)
#endif
