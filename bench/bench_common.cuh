// Shared by the benchmarks (one translation unit each): CUDA error checks (CUDA_CHECK, from
// examples/common/cuda_check.cuh), the GPU's name, the pseudo-random hash of the input fillers,
// device allocations and the on-device mismatch counters.
//
// Each benchmark defines SMEMTILE_BENCH_NAME (its program name, a string literal, the prefix of the
// GPU line) before including this header.
#pragma once

#ifndef SMEMTILE_BENCH_NAME
#error "define SMEMTILE_BENCH_NAME (the program's name) before including bench_common.cuh"
#endif

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdio>
#include <cstdlib>

// The project's CUDA checks (one family for examples, benchmarks and scripts): CUDA_CHECK(call)
// prints file:line, the call and CUDA's message and exits 1; CUDA_CHECK_LAUNCH() after a helper
// kernel's launch: no launch error, and the kernel has finished.
#include "../examples/common/cuda_check.cuh"

namespace {

constexpr int kHelperThreads = 256;  // threads per block of the fill, poison and compare kernels

// The GPU's name, once per process, from cudaGetDeviceProperties (NVBench prints its own too).
void print_device_once() {
  static bool printed = false;
  if (printed) return;
  printed = true;
  int device = 0;
  CUDA_CHECK(cudaGetDevice(&device));
  cudaDeviceProp prop{};
  CUDA_CHECK(cudaGetDeviceProperties(&prop, device));
  std::printf(SMEMTILE_BENCH_NAME ": GPU %d: %s (sm_%d%d, %d SMs, %.1f GiB)\n", device, prop.name, prop.major,
              prop.minor, prop.multiProcessorCount, static_cast<double>(prop.totalGlobalMem) / (1u << 30));
  std::fflush(stdout);
}

// The current GPU's compute capability, major (what device_stencil's selection reads), asked once.
int device_cc_major() {
  static const int major = [] {
    int device = 0, value = 0;
    CUDA_CHECK(cudaGetDevice(&device));
    CUDA_CHECK(cudaDeviceGetAttribute(&value, cudaDevAttrComputeCapabilityMajor, device));
    return value;
  }();
  return major;
}

// ---- data: the fillers' hash ------------------------------------------------------------------------

__device__ unsigned hash32(unsigned x) {  // lowbias32
  x ^= x >> 16;
  x *= 0x7feb352dU;
  x ^= x >> 15;
  x *= 0x846ca68bU;
  x ^= x >> 16;
  return x;
}

// The pseudo-random word of index i for a seed (any value, zero included).
__device__ unsigned random_word(long long i, unsigned seed) {
  return hash32(static_cast<unsigned>(i) ^ hash32(seed + static_cast<unsigned>(i >> 32)));
}

// ---- device memory ------------------------------------------------------------------------------------

template <class T>
T* device_alloc(long long count) {
  T* p = nullptr;
  CUDA_CHECK(cudaMalloc(&p, static_cast<size_t>(count) * sizeof(T)));
  return p;
}

/// Two device allocations of `alloc_bytes` each (an input and an output), freed on destruction.
struct BufferPair {
  void* in = nullptr;
  void* out = nullptr;

  explicit BufferPair(size_t alloc_bytes) {
    CUDA_CHECK(cudaMalloc(&in, alloc_bytes));
    CUDA_CHECK(cudaMalloc(&out, alloc_bytes));
  }
  ~BufferPair() {
    cudaFree(in);
    cudaFree(out);
  }
  BufferPair(const BufferPair&) = delete;
  BufferPair& operator=(const BufferPair&) = delete;
};

/// What a compare kernel counted: how many elements differ and the first index that does (~0 if none).
struct Mismatches {
  unsigned long long count = 0;
  unsigned long long first = 0;
};

/// Runs launch(unsigned long long* count, unsigned long long* first), a compare kernel's launch, on
/// device counters set to {0, ~0}, and returns them.
template <class Launch>
Mismatches count_on_device(Launch&& launch) {
  unsigned long long* counters = device_alloc<unsigned long long>(2);  // [0] count, [1] first index
  const unsigned long long init[2] = {0ull, ~0ull};
  CUDA_CHECK(cudaMemcpy(counters, init, sizeof(init), cudaMemcpyHostToDevice));
  launch(counters, counters + 1);
  CUDA_CHECK(cudaGetLastError());
  unsigned long long result[2] = {0, 0};
  CUDA_CHECK(cudaMemcpy(result, counters, sizeof(result), cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaFree(counters));
  return Mismatches{result[0], result[1]};
}

}  // namespace
