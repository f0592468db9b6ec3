// bench/pairs/pairs_common.cuh: what every kernel pair of issue 25 shares (no NVBench, no Catch2:
// the GPU test tests/pairs, the SASS check and bench/pairs_bench.cu all include the pair headers).
//
// A pair header bench/pairs/<name>.cuh defines, in namespace pairs::<name>:
//   hand_<name>  the kernel written by hand, as an expert writes it (raw pointers, __shared__ arrays)
//   lib_<name>   the same algorithm written with smemtile's public API as README.md shows it, with the
//                same parameter list (it wraps the raw pointers in smemtile views inside)
//   kernel(Impl) the one or the other (same function type), launch(...) a launch of it
//   reference    the result computed on the host (same arithmetic order: the hand and library kernels
//                agree bit for bit, and with the reference up to the tolerance the header gives)
//   Instance     one problem: host input (pseudo-random, from a seed), device buffers, reset (poison
//                the outputs), run(Impl), download, reference; the test and the benchmark drive it.
#pragma once

#include <cuda_runtime.h>

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <string>
#include <vector>

namespace pairs {

/// Which kernel of a pair.
enum class Impl { hand, lib };
inline const char* impl_name(Impl impl) { return impl == Impl::hand ? "hand" : "lib"; }

/// The byte every output is filled with before a run (0xA5A5A5A5: no small value, no index).
constexpr unsigned char poison_byte = 0xA5;

// ---- host input --------------------------------------------------------------------------------

inline std::uint32_t hash32(std::uint32_t x) {  // lowbias32
  x ^= x >> 16;
  x *= 0x7feb352dU;
  x ^= x >> 15;
  x *= 0x846ca68bU;
  x ^= x >> 16;
  return x;
}

/// n floats k / 2^23 in [-1, 1) (exact, never -0, never denormal products), from a seed.
inline std::vector<float> random_floats(std::size_t n, unsigned seed) {
  std::vector<float> v(n);
  const std::uint32_t s = hash32(seed ^ 0x9e3779b9U);
  for (std::size_t i = 0; i < n; ++i) {
    const std::uint32_t h = hash32(static_cast<std::uint32_t>(i) ^ hash32(s + static_cast<std::uint32_t>(i >> 32)));
    const int k = static_cast<int>(h >> 8) - (1 << 23);  // [-2^23, 2^23)
    v[i] = static_cast<float>(k) * (1.0f / 8388608.0f);
  }
  return v;
}

/// n pseudo-random bytes from a seed.
inline std::vector<unsigned char> random_bytes(std::size_t n, unsigned seed) {
  std::vector<unsigned char> v(n);
  const std::uint32_t s = hash32(seed ^ 0x85ebca6bU);
  for (std::size_t i = 0; i < n; ++i)
    v[i] = static_cast<unsigned char>(hash32(static_cast<std::uint32_t>(i) ^ s) >> 24);
  return v;
}

// ---- device memory -------------------------------------------------------------------------------

/// A device array of T, freed on destruction; every call returns CUDA's status (the caller checks).
template <class T>
class DeviceArray {
 public:
  DeviceArray() = default;
  ~DeviceArray() {
    if (ptr_) cudaFree(ptr_);
  }
  DeviceArray(const DeviceArray&) = delete;
  DeviceArray& operator=(const DeviceArray&) = delete;

  cudaError_t allocate(std::size_t n) {
    if (ptr_) cudaFree(ptr_);
    ptr_ = nullptr;
    n_ = n;
    return cudaMalloc(&ptr_, bytes());
  }
  cudaError_t upload(const std::vector<T>& host) {
    if (host.size() != n_) return cudaErrorInvalidValue;
    return cudaMemcpy(ptr_, host.data(), bytes(), cudaMemcpyHostToDevice);
  }
  cudaError_t download(std::vector<T>& host) const {
    host.resize(n_);
    return cudaMemcpy(host.data(), ptr_, bytes(), cudaMemcpyDeviceToHost);
  }
  cudaError_t poison() { return cudaMemset(ptr_, poison_byte, bytes()); }

  T* get() const { return ptr_; }
  std::size_t size() const { return n_; }
  std::size_t bytes() const { return n_ * sizeof(T); }

 private:
  T* ptr_ = nullptr;
  std::size_t n_ = 0;
};

/// First error of a sequence of CUDA calls (the later ones are still made).
inline cudaError_t first_error(std::initializer_list<cudaError_t> statuses) {
  for (cudaError_t s : statuses)
    if (s != cudaSuccess) return s;
  return cudaSuccess;
}

/// After a <<<>>> launch: the launch's status (configuration errors; not the kernel's completion).
inline cudaError_t launch_status() { return cudaGetLastError(); }

}  // namespace pairs
