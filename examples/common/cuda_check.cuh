// examples/common/cuda_check.cuh: stop a program at the first failed CUDA call; say which GPU it runs on.
//
// The project's one CUDA-check macro family: the examples, the benchmarks (bench/bench_common.cuh)
// and scripts/bank_validation check every CUDA call with CUDA_CHECK; a failure prints where it
// happened and CUDA's message, and exits with status 1 (a program that cannot run must not look
// like one that passed). The GPU tests' REQUIRE_CUDA (tests/support/gpu_test.cuh) fails the test
// case instead of exiting, with the same message (cuda_failure_message).
#pragma once

#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>
#include <string>

// cuda_failure_message(status, call, file, line): the one wording of a failed CUDA call,
// "<file>:<line>: <call> failed: <error name> (<error string>)".
inline std::string cuda_failure_message(cudaError_t status, const char* call, const char* file, int line) {
  return std::string(file) + ":" + std::to_string(line) + ": " + call + " failed: " +
         cudaGetErrorName(status) + " (" + cudaGetErrorString(status) + ")";
}

// CUDA_CHECK(call): `call` must return cudaSuccess, or the program prints cuda_failure_message
// (file:line, the call, CUDA's error name and message) to stderr and exits 1.
#define CUDA_CHECK(call)                                                                          \
  do {                                                                                            \
    const cudaError_t cuda_check_status_ = (call);                                                \
    if (cuda_check_status_ != cudaSuccess) {                                                      \
      const std::string cuda_check_message_ =                                                     \
          cuda_failure_message(cuda_check_status_, #call, __FILE__, __LINE__);                    \
      std::fprintf(stderr, "%s\n", cuda_check_message_.c_str());                                  \
      std::exit(1);                                                                               \
    }                                                                                             \
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
