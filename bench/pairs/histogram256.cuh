// bench/pairs/histogram256.cuh: the 256-bin histogram of n bytes (n a multiple of 4, the data 4-byte
// aligned): blocks of 256 threads walk the data as 4-byte words in a grid-stride loop, count each
// byte with atomicAdd into the block's shared sub-histogram, then add it to the global histogram
// with one atomicAdd per bin. The launch clears the global histogram first (cudaMemsetAsync). Counts
// are integers: hand, library and host reference agree exactly.
#pragma once

#include <smemtile/smemtile.cuh>

#include <algorithm>
#include <string>
#include <vector>

#include "pairs_common.cuh"

namespace pairs {
namespace histogram256 {

constexpr int bins = 256, threads = 256, max_blocks = 2048;

__global__ void __launch_bounds__(threads) hand_histogram256(const unsigned char* data, unsigned* hist, int n) {
  __shared__ unsigned s[bins];
  s[threadIdx.x] = 0;
  __syncthreads();
  const unsigned* words = reinterpret_cast<const unsigned*>(data);
  const int count = n / 4;
  for (int i = blockIdx.x * threads + threadIdx.x; i < count; i += gridDim.x * threads) {
    const unsigned w = words[i];
    atomicAdd(&s[w & 0xffu], 1u);
    atomicAdd(&s[(w >> 8) & 0xffu], 1u);
    atomicAdd(&s[(w >> 16) & 0xffu], 1u);
    atomicAdd(&s[w >> 24], 1u);
  }
  __syncthreads();
  atomicAdd(&hist[threadIdx.x], s[threadIdx.x]);
}

__global__ void __launch_bounds__(threads) lib_histogram256(const unsigned char* data, unsigned* hist, int n) {
  using Block = smemtile::FixedThreadBlock<threads>;
  __shared__ smemtile::StaticTile1D<unsigned, bins> s;
  smemtile::fill_tile(s, 0u, Block{});
  __syncthreads();
  const auto words = smemtile::make_global_vector(reinterpret_cast<const unsigned*>(data), n / 4);
  const auto histogram = smemtile::make_global_vector(hist, bins);
  for (int i = blockIdx.x * threads + threadIdx.x; i < static_cast<int>(words.extent(0)); i += gridDim.x * threads) {
    const unsigned w = words(i);
    atomicAdd(&s(w & 0xffu), 1u);
    atomicAdd(&s((w >> 8) & 0xffu), 1u);
    atomicAdd(&s((w >> 16) & 0xffu), 1u);
    atomicAdd(&s(w >> 24), 1u);
  }
  __syncthreads();
  atomicAdd(&histogram(threadIdx.x), s(threadIdx.x));
}

using Kernel = void (*)(const unsigned char*, unsigned*, int);

inline Kernel kernel(Impl impl) { return impl == Impl::hand ? hand_histogram256 : lib_histogram256; }

inline int blocks_for(int n) { return std::max(1, std::min(max_blocks, (n / 4 + threads - 1) / threads)); }

/// hist (256 counters) = the histogram of data[0, n).
inline cudaError_t launch(Impl impl, const unsigned char* data, unsigned* hist, int n, cudaStream_t stream = 0) {
  if (n % 4 || n < 0) return cudaErrorInvalidValue;
  const cudaError_t cleared = cudaMemsetAsync(hist, 0, bins * sizeof(unsigned), stream);
  if (cleared != cudaSuccess) return cleared;
  kernel(impl)<<<blocks_for(n), threads, 0, stream>>>(data, hist, n);
  return launch_status();
}

inline std::vector<unsigned> reference(const std::vector<unsigned char>& data) {
  std::vector<unsigned> hist(bins, 0u);
  for (unsigned char b : data) ++hist[b];
  return hist;
}

struct Instance {
  using Output = unsigned;
  int n;
  std::vector<unsigned char> data;
  DeviceArray<unsigned char> d_data;
  DeviceArray<unsigned> d_hist;

  Instance(int n_, unsigned seed) : n(n_), data(random_bytes(n_, seed)) {}
  static std::string name() { return "histogram256"; }
  std::string shape() const { return std::to_string(n); }
  const void* kernel_address(Impl impl) const { return reinterpret_cast<const void*>(kernel(impl)); }
  cudaError_t setup() { return first_error({d_data.allocate(n), d_hist.allocate(bins), d_data.upload(data)}); }
  cudaError_t reset() { return d_hist.poison(); }  // the launch clears it, as part of the operation
  cudaError_t run(Impl impl, cudaStream_t stream = 0) { return launch(impl, d_data.get(), d_hist.get(), n, stream); }
  cudaError_t output(std::vector<unsigned>& out) const { return d_hist.download(out); }
  std::vector<unsigned> reference() const { return histogram256::reference(data); }
  double tolerance() const { return 0.0; }
  double bytes() const { return static_cast<double>(n); }
};

}  // namespace histogram256
}  // namespace pairs
