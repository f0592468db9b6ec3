// examples/common/cuda_check.cuh: stop an example at the first failed CUDA call; say which GPU it runs on.
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

// example_has_gpu(name): whether there is a CUDA device to run on. Without one the example says so
// ("<name>: no CUDA device here; nothing run") and should return 0 (no GPU is not a failure); with
// one it prints "<name> on <GPU>", so that every result names the GPU it came from.
inline bool example_has_gpu(const char* name) {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    std::printf("%s: no CUDA device here; nothing run\n", name);
    return false;
  }
  cudaDeviceProp properties{};
  CUDA_CHECK(cudaGetDeviceProperties(&properties, 0));
  std::printf("%s on %s\n", name, properties.name);
  return true;
}
