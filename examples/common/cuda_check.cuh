// examples/common/cuda_check.cuh: stop an example at the first failed CUDA call.
//
// Examples check every CUDA call; a failure prints where it happened and CUDA's message, and
// exits with status 1 (an example that cannot run must not look like one that passed).
#pragma once

#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>

// CUDA_CHECK(call): `call` must return cudaSuccess, or the program prints file:line and exits 1.
#define CUDA_CHECK(call)                                                                            \
  do {                                                                                              \
    const cudaError_t cuda_check_status_ = (call);                                                  \
    if (cuda_check_status_ != cudaSuccess) {                                                        \
      std::fprintf(stderr, "%s:%d: %s failed: %s (%s)\n", __FILE__, __LINE__, #call,                \
                   cudaGetErrorName(cuda_check_status_), cudaGetErrorString(cuda_check_status_)); \
      std::exit(1);                                                                                 \
    }                                                                                               \
  } while (0)

// CUDA_CHECK_LAUNCH(): after a <<<>>> launch, the launch was accepted and the kernel completed.
#define CUDA_CHECK_LAUNCH()                 \
  do {                                      \
    CUDA_CHECK(cudaGetLastError());         \
    CUDA_CHECK(cudaDeviceSynchronize());    \
  } while (0)
