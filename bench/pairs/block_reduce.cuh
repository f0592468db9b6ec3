// bench/pairs/block_reduce.cuh: the sum of n floats to one partial sum per block (n a multiple of
// 2048): blocks of 256 threads, each thread adding 8 elements 256 apart (coalesced), then a tree
// reduction in shared memory down to 64 values and a warp-shuffle tail; thread 0 writes the block's
// partial. Every partial: the same additions in the same order in both kernels and the host reference.
#pragma once

#include <smemtile/smemtile.cuh>

#include <string>
#include <vector>

#include "pairs_common.cuh"

namespace pairs {
namespace block_reduce {

constexpr int threads = 256, per_thread = 8, per_block = threads * per_thread;

__device__ __forceinline__ float warp_sum(float v) {
#pragma unroll
  for (int offset = 16; offset > 0; offset >>= 1) v += __shfl_down_sync(0xffffffffu, v, offset);
  return v;
}

__global__ void __launch_bounds__(threads) hand_block_reduce(const float* in, float* partials, int n) {
  __shared__ float s[threads];
  const int t = threadIdx.x;
  const float* src = in + static_cast<long long>(blockIdx.x) * per_block + t;
  float sum = 0.0f;
#pragma unroll
  for (int i = 0; i < per_thread; ++i) sum += src[i * threads];
  s[t] = sum;
  __syncthreads();
#pragma unroll
  for (int half = threads / 2; half > 32; half >>= 1) {
    if (t < half) s[t] += s[t + half];
    __syncthreads();
  }
  if (t < 32) {
    const float v = warp_sum(s[t] + s[t + 32]);
    if (t == 0) partials[blockIdx.x] = v;
  }
}

__global__ void __launch_bounds__(threads) lib_block_reduce(const float* in, float* partials, int n) {
  __shared__ smemtile::StaticTile1D<float, threads> s;
  const auto input = smemtile::make_global_vector(in, n);
  const auto output = smemtile::make_global_vector(partials, n / per_block);
  const int t = threadIdx.x;
  const int first = blockIdx.x * per_block + t;
  float sum = 0.0f;
#pragma unroll
  for (int i = 0; i < per_thread; ++i) sum += input(first + i * threads);
  s(t) = sum;
  __syncthreads();
#pragma unroll
  for (int half = threads / 2; half > 32; half >>= 1) {
    if (t < half) s(t) += s(t + half);
    __syncthreads();
  }
  if (t < 32) {
    const float v = warp_sum(s(t) + s(t + 32));
    if (t == 0) output(blockIdx.x) = v;
  }
}

using Kernel = void (*)(const float*, float*, int);

inline Kernel kernel(Impl impl) { return impl == Impl::hand ? hand_block_reduce : lib_block_reduce; }

/// partials[b] = the sum of in[b * 2048, (b + 1) * 2048), b < n / 2048.
inline cudaError_t launch(Impl impl, const float* in, float* partials, int n, cudaStream_t stream = 0) {
  if (n % per_block) return cudaErrorInvalidValue;
  if (n == 0) return cudaSuccess;
  kernel(impl)<<<n / per_block, threads, 0, stream>>>(in, partials, n);
  return launch_status();
}

/// The kernels' order of additions on the host.
inline std::vector<float> reference(const std::vector<float>& in) {
  const int blocks = static_cast<int>(in.size() / per_block);
  std::vector<float> partials(blocks);
  float s[threads];
  for (int b = 0; b < blocks; ++b) {
    const float* src = &in[static_cast<std::size_t>(b) * per_block];
    for (int t = 0; t < threads; ++t) {
      float sum = 0.0f;
      for (int i = 0; i < per_thread; ++i) sum += src[t + i * threads];
      s[t] = sum;
    }
    for (int half = threads / 2; half > 32; half >>= 1)
      for (int t = 0; t < half; ++t) s[t] += s[t + half];
    float v[32];
    for (int t = 0; t < 32; ++t) v[t] = s[t] + s[t + 32];
    for (int offset = 16; offset > 0; offset >>= 1)
      for (int t = 0; t + offset < 32; ++t) v[t] += v[t + offset];  // lanes read before they are written
    partials[b] = v[0];
  }
  return partials;
}

struct Instance {
  using Output = float;
  int n;
  std::vector<float> in;
  DeviceArray<float> d_in, d_partials;

  Instance(int n_, unsigned seed) : n(n_), in(random_floats(n_, seed)) {}
  static std::string name() { return "block_reduce"; }
  std::string shape() const { return std::to_string(n); }
  const void* kernel_address(Impl impl) const { return reinterpret_cast<const void*>(kernel(impl)); }
  cudaError_t setup() {
    return first_error({d_in.allocate(n), d_partials.allocate(n / per_block), d_in.upload(in)});
  }
  cudaError_t reset() { return d_partials.poison(); }
  cudaError_t run(Impl impl, cudaStream_t stream = 0) {
    return launch(impl, d_in.get(), d_partials.get(), n, stream);
  }
  cudaError_t output(std::vector<float>& out) const { return d_partials.download(out); }
  std::vector<float> reference() const { return block_reduce::reference(in); }
  double tolerance() const { return 1e-4; }
  double bytes() const { return 4.0 * n; }
};

}  // namespace block_reduce
}  // namespace pairs
