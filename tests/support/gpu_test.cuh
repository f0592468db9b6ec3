// Support for GPU tests: checked CUDA calls, device buffers poisoned before every run, random data.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstring>
#include <random>
#include <vector>

#include "catch.hpp"

// cuda_failure_message: the project's one wording of a failed CUDA call (the examples' and the
// benchmarks' CUDA_CHECK prints it and exits; here it is the failing assertion's message).
#include "../../examples/common/cuda_check.cuh"

// Fails the test case (file:line, the call and CUDA's message) unless `call` returns cudaSuccess;
// unlike CUDA_CHECK it does not exit: Catch2 reports the failure and goes on with the next case.
#define REQUIRE_CUDA(call)                                                                  \
  do {                                                                                      \
    const cudaError_t smemtile_status_ = (call);                                            \
    INFO(cuda_failure_message(smemtile_status_, #call, __FILE__, __LINE__));               \
    REQUIRE(smemtile_status_ == cudaSuccess);                                               \
  } while (0)

// After a <<<>>> launch: the launch was accepted and the kernel ran to completion without error.
#define REQUIRE_LAUNCH_OK()                   \
  do {                                        \
    REQUIRE_CUDA(cudaGetLastError());         \
    REQUIRE_CUDA(cudaDeviceSynchronize());    \
  } while (0)

namespace smemtile_test {

// The byte every output buffer is filled with before a kernel runs: an element the kernel failed
// to write keeps it and fails the comparison (0xA5A5A5A5 is no index and no small value).
constexpr unsigned char poison_byte = 0xA5;

// A device array of n T's, freed on scope exit.
template <class T>
class DeviceBuffer {
 public:
  explicit DeviceBuffer(std::size_t n) : n_(n) { REQUIRE_CUDA(cudaMalloc(&ptr_, bytes())); }
  ~DeviceBuffer() { cudaFree(ptr_); }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;

  T* get() const { return ptr_; }
  std::size_t size() const { return n_; }
  std::size_t bytes() const { return n_ * sizeof(T); }

  void poison() { REQUIRE_CUDA(cudaMemset(ptr_, poison_byte, bytes())); }
  void upload(const std::vector<T>& host) {
    REQUIRE(host.size() == n_);
    REQUIRE_CUDA(cudaMemcpy(ptr_, host.data(), bytes(), cudaMemcpyHostToDevice));
  }
  std::vector<T> download() const {
    std::vector<T> host(n_);
    REQUIRE_CUDA(cudaMemcpy(host.data(), ptr_, bytes(), cudaMemcpyDeviceToHost));
    return host;
  }

 private:
  T* ptr_ = nullptr;
  std::size_t n_;
};

// n values of a trivially copyable T with uniformly random bytes (any element size).
template <class T>
std::vector<T> random_values(std::size_t n, unsigned seed) {
  std::vector<T> values(n);
  std::mt19937 engine(seed);
  std::uniform_int_distribution<int> byte(0, 255);
  auto* raw = reinterpret_cast<unsigned char*>(values.data());
  for (std::size_t i = 0; i < n * sizeof(T); ++i) raw[i] = static_cast<unsigned char>(byte(engine));
  return values;
}

// Bitwise equality (random bytes may form NaNs, which == would reject).
template <class T>
bool same_bytes(const T& a, const T& b) {
  return std::memcmp(&a, &b, sizeof(T)) == 0;
}

// A seed that differs per run but is printed on failure, so a failure can be reproduced.
inline unsigned fresh_seed() { return std::random_device{}(); }

}  // namespace smemtile_test
