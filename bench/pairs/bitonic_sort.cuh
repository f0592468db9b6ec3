// bench/pairs/bitonic_sort.cuh: every 1024-element segment of a float array sorted ascending by a
// bitonic network in shared memory, one block of 512 threads per segment, each thread doing one
// compare-exchange per step (the CUDA samples' sortingNetworks form), the 55 steps unrolled. n a multiple of 1024. Both
// kernels run the same network, so they agree bit for bit; the host reference is std::sort (the
// inputs have no NaN and no -0, so equal keys are equal bits).
#pragma once

#include <smemtile/smemtile.cuh>

#include <algorithm>
#include <string>
#include <vector>

#include "pairs_common.cuh"

namespace pairs {
namespace bitonic_sort {

constexpr int segment = 1024, threads = 512;

__global__ void __launch_bounds__(threads) hand_bitonic_sort(const float* in, float* out, int n) {
  __shared__ float s[segment];
  const int t = threadIdx.x;
  const long long base = static_cast<long long>(blockIdx.x) * segment;
  s[t] = in[base + t];
  s[t + threads] = in[base + t + threads];
  __syncthreads();
#pragma unroll
  for (int size = 2; size <= segment; size <<= 1) {
#pragma unroll
    for (int stride = size / 2; stride > 0; stride >>= 1) {
      const int pos = 2 * t - (t & (stride - 1));
      const bool ascending = (pos & size) == 0;
      const float a = s[pos], b = s[pos + stride];
      if ((a > b) == ascending) {
        s[pos] = b;
        s[pos + stride] = a;
      }
      __syncthreads();
    }
  }
  out[base + t] = s[t];
  out[base + t + threads] = s[t + threads];
}

__global__ void __launch_bounds__(threads) lib_bitonic_sort(const float* in, float* out, int n) {
  const smemtile::FixedThreadBlock<threads> block;
  __shared__ smemtile::StaticTile1D<float, segment> s;
  // cudaMalloc'd arrays, n a multiple of the segment: aligned, and every segment inside.
  const auto input = smemtile::make_aligned_vector<16>(in, n);
  const auto output = smemtile::make_aligned_vector<16>(out, n);
  const int origin = smemtile::block_tile_origin_1d(segment);
  smemtile::copy_global_to_tile(input, origin, s, smemtile::boundary::inside, block);
  __syncthreads();
  const int t = threadIdx.x;
#pragma unroll
  for (int size = 2; size <= segment; size <<= 1) {
#pragma unroll
    for (int stride = size / 2; stride > 0; stride >>= 1) {
      const int pos = 2 * t - (t & (stride - 1));
      const bool ascending = (pos & size) == 0;
      const float a = s(pos), b = s(pos + stride);
      if ((a > b) == ascending) {
        s(pos) = b;
        s(pos + stride) = a;
      }
      __syncthreads();
    }
  }
  smemtile::copy_tile_to_global(s, output, origin, smemtile::boundary::inside, block);
}

using Kernel = void (*)(const float*, float*, int);

inline Kernel kernel(Impl impl) { return impl == Impl::hand ? hand_bitonic_sort : lib_bitonic_sort; }

inline cudaError_t launch(Impl impl, const float* in, float* out, int n, cudaStream_t stream = 0) {
  if (n % segment) return cudaErrorInvalidValue;
  if (n == 0) return cudaSuccess;
  kernel(impl)<<<n / segment, threads, 0, stream>>>(in, out, n);
  return launch_status();
}

inline std::vector<float> reference(const std::vector<float>& in) {
  std::vector<float> out(in);
  for (std::size_t i = 0; i < out.size(); i += segment) std::sort(out.begin() + i, out.begin() + i + segment);
  return out;
}

struct Instance {
  using Output = float;
  int n;
  std::vector<float> in;
  DeviceArray<float> d_in, d_out;

  Instance(int n_, unsigned seed) : n(n_), in(random_floats(n_, seed)) {}
  static std::string name() { return "bitonic_sort"; }
  std::string shape() const { return std::to_string(n); }
  const void* kernel_address(Impl impl) const { return reinterpret_cast<const void*>(kernel(impl)); }
  cudaError_t setup() { return first_error({d_in.allocate(n), d_out.allocate(n), d_in.upload(in)}); }
  cudaError_t reset() { return d_out.poison(); }
  cudaError_t run(Impl impl, cudaStream_t stream = 0) { return launch(impl, d_in.get(), d_out.get(), n, stream); }
  cudaError_t output(std::vector<float>& out) const { return d_out.download(out); }
  std::vector<float> reference() const { return bitonic_sort::reference(in); }
  double tolerance() const { return 0.0; }
  double bytes() const { return 8.0 * n; }
};

}  // namespace bitonic_sort
}  // namespace pairs
