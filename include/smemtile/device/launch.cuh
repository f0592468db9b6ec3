// smemtile/device/launch.cuh: launching a kernel with the dynamic shared memory its carving needs (host).
//
//   const smemtile::SharedMemoryPlan plan = smemtile::plan_shared_memory(carve, params);  // arena.cuh
//   smemtile::LaunchStatus status = smemtile::launch_with_plan(kernel, grid, block, plan, stream, out, params);
//   if (!status) std::fprintf(stderr, "%s\n", status.message.c_str());
//
// Device limits (shared memory per block, multiprocessors, compute capability) are asked once per
// device and kept (device_limits); a kernel's attributes are asked and raised once per device and
// kernel. So a launch costs cudaGetDevice and the launch, nothing more, and is legal inside stream
// capture. device_transpose and device_stencil use the same preparation.
//
// prepare_launch checks the plan, checks that the kernel's static plus dynamic shared memory fits
// the device's opt-in limit per block (cudaDevAttrMaxSharedMemoryPerBlockOptin, 227 KB on an H100),
// and raises the kernel's cudaFuncAttributeMaxDynamicSharedMemorySize when the request is above the
// kernel's current limit (48 KB minus its static shared memory by default). It never lowers the
// limit (another launch may need it) and never exits: every problem comes back as a LaunchStatus
// with a CUDA error code and a message saying what was asked for and what the device allows.
#pragma once

#include <cuda_runtime.h>

#include <atomic>
#include <cstddef>  // std::size_t
#include <map>
#include <mutex>
#include <string>
#include <utility>  // std::forward, std::pair

#include "../core/arena.cuh"  // SharedMemoryPlan

namespace smemtile {

/// The outcome of preparing or launching: error == cudaSuccess, or a CUDA error and why.
struct LaunchStatus {
  cudaError_t error = cudaSuccess;  ///< cudaSuccess, or what went wrong
  std::size_t dynamic_bytes = 0;  ///< the dynamic shared memory the launch gets (the plan's launch_bytes)
  std::string message;            ///< empty on success

  /// True on success (error == cudaSuccess): `if (!status) report(status.message);`.
  explicit operator bool() const { return error == cudaSuccess; }
};

namespace detail {
// A failed LaunchStatus: `error` and why (device_transpose's and device_stencil's refusals).
inline LaunchStatus failed_launch(cudaError_t error, std::string message) {
  LaunchStatus status;
  status.error = error;
  status.message = std::move(message);
  return status;
}

// `launched`'s failure, or else the status of the launch it made (cudaGetLastError), said as `who`
// (the device functions' one check after launching).
inline LaunchStatus launched_status(LaunchStatus launched, const char* who) {
  if (!launched) return launched;
  const cudaError_t error = cudaGetLastError();
  if (error != cudaSuccess) return failed_launch(error, std::string(who) + ": launch failed: " + cudaGetErrorString(error));
  return LaunchStatus{};
}
}  // namespace detail

/// What a launch needs to know of a device, asked once per device (device_limits).
struct DeviceLimits {
  int device = 0;                         ///< the device ordinal
  int cc_major = 0;                       ///< compute capability, major (9 on an H100)
  int cc_minor = 0;                       ///< compute capability, minor
  long long shared_per_block_optin = 0;   ///< cudaDevAttrMaxSharedMemoryPerBlockOptin (227 KB on an H100)
  int multiprocessors = 0;                ///< cudaDevAttrMultiProcessorCount
  double memory_bandwidth = 0;            ///< peak DRAM bytes per second (0: not reported)
};

namespace detail {
// Devices whose limits and kernel attributes are cached (ordinals above it are asked every time).
inline constexpr int cached_devices = 64;

inline cudaError_t query_device_limits(int device, DeviceLimits* limits) {
  limits->device = device;
  int shared = 0;
  cudaError_t error = cudaDeviceGetAttribute(&limits->cc_major, cudaDevAttrComputeCapabilityMajor, device);
  if (error == cudaSuccess) error = cudaDeviceGetAttribute(&limits->cc_minor, cudaDevAttrComputeCapabilityMinor, device);
  if (error == cudaSuccess) error = cudaDeviceGetAttribute(&shared, cudaDevAttrMaxSharedMemoryPerBlockOptin, device);
  if (error == cudaSuccess)
    error = cudaDeviceGetAttribute(&limits->multiprocessors, cudaDevAttrMultiProcessorCount, device);
  limits->shared_per_block_optin = shared;
  // Peak DRAM bandwidth, two transfers per memory clock (kHz) over the bus (bits); a GPU that
  // reports neither leaves it 0 (the selectors then use their measured defaults unscaled).
  if (error == cudaSuccess) {
    int clock_khz = 0, bus_bits = 0;
    if (cudaDeviceGetAttribute(&clock_khz, cudaDevAttrMemoryClockRate, device) == cudaSuccess &&
        cudaDeviceGetAttribute(&bus_bits, cudaDevAttrGlobalMemoryBusWidth, device) == cudaSuccess)
      limits->memory_bandwidth = 2.0 * 1000.0 * static_cast<double>(clock_khz) * static_cast<double>(bus_bits) / 8.0;
    else
      (void)cudaGetLastError();  // not reported by this driver: not the caller's error
  }
  return error;
}

// One cache entry per device: filled once under the mutex, then read without it.
struct DeviceLimitsCache {
  std::atomic<bool> ready[cached_devices];
  DeviceLimits limits[cached_devices];
  std::mutex fill;
};
inline DeviceLimitsCache& device_limits_cache() {
  static DeviceLimitsCache cache;  // zero-initialized: no entry ready
  return cache;
}
}  // namespace detail

/// The current device's limits: asked with cudaDeviceGetAttribute the first time for each device,
/// then from a cache (thread-safe). `who` starts the message of a failure.
inline LaunchStatus device_limits(DeviceLimits* limits, const char* who = "smemtile") {
  int device = 0;
  cudaError_t error = cudaGetDevice(&device);
  if (error == cudaSuccess && device >= 0 && device < detail::cached_devices) {
    detail::DeviceLimitsCache& cache = detail::device_limits_cache();
    if (!cache.ready[device].load(std::memory_order_acquire)) {
      const std::lock_guard<std::mutex> lock(cache.fill);
      if (!cache.ready[device].load(std::memory_order_relaxed)) {
        error = detail::query_device_limits(device, &cache.limits[device]);
        if (error == cudaSuccess) cache.ready[device].store(true, std::memory_order_release);
      }
    }
    if (error == cudaSuccess) *limits = cache.limits[device];
  } else if (error == cudaSuccess) {
    error = detail::query_device_limits(device, limits);
  }
  if (error != cudaSuccess) return detail::failed_launch(error, std::string(who) + ": " + cudaGetErrorString(error));
  return LaunchStatus{};
}

namespace detail {
// Lets Kernel (a __global__ function known at compile time) use `bytes` of dynamic shared memory on
// `device`: cudaFuncSetAttribute the first time per device and kernel and whenever more is asked,
// nothing afterwards. An error when the device offers fewer bytes per block.
template <auto Kernel>
LaunchStatus raise_dynamic_shared(const DeviceLimits& device, long long bytes, const char* who) {
  if (bytes > device.shared_per_block_optin)
    return failed_launch(cudaErrorInvalidConfiguration,
                         std::string(who) + ": this kernel needs " + std::to_string(bytes) +
                             " bytes of shared memory per block; this GPU allows " +
                             std::to_string(device.shared_per_block_optin));
  static std::atomic<long long> raised[cached_devices];  // zero-initialized: nothing raised yet
  const bool cached = device.device >= 0 && device.device < cached_devices;
  if (cached && raised[device.device].load(std::memory_order_acquire) >= bytes) return LaunchStatus{};
  const cudaError_t error = cudaFuncSetAttribute(Kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(bytes));
  if (error != cudaSuccess) return failed_launch(error, std::string(who) + ": " + cudaGetErrorString(error));
  if (cached) {
    long long seen = raised[device.device].load(std::memory_order_relaxed);
    while (seen < bytes && !raised[device.device].compare_exchange_weak(seen, bytes)) {
    }
  }
  return LaunchStatus{};
}

#if defined(__CUDACC__)
// Kernel on a grid of across x down x deep blocks of `threads` threads with `shared` bytes of
// dynamic shared memory (raised first, raise_dynamic_shared), args passed through; refuses grids
// beyond CUDA's (x up to 2^31 - 1, y and z up to 65535) with `who` in the message. Does not check
// the launch (launched_status does, after).
template <auto Kernel, class... Args>
LaunchStatus launch_3d_grid(const DeviceLimits& device, long long across, long long down, long long deep,
                            int threads, long long shared, const char* who, cudaStream_t stream, Args&&... args) {
  if (across > 2147483647LL || down > 65535 || deep > 65535)
    return failed_launch(cudaErrorInvalidValue, std::string(who) + ": more than 65535 tiles along y or z");
  const LaunchStatus ready = raise_dynamic_shared<Kernel>(device, shared, who);
  if (!ready) return ready;
  Kernel<<<dim3(static_cast<unsigned>(across), static_cast<unsigned>(down), static_cast<unsigned>(deep)), threads,
           static_cast<size_t>(shared), stream>>>(std::forward<Args>(args)...);
  return LaunchStatus{};
}
#endif  // __CUDACC__

// What prepare_launch keeps of a kernel on a device: its static shared memory and the dynamic
// shared memory it was last allowed (cudaFuncGetAttributes once, cudaFuncSetAttribute when raised).
struct KernelSharedState {
  std::size_t static_bytes = 0;
  std::size_t max_dynamic_bytes = 0;
};
struct KernelSharedCache {
  std::mutex lock;
  std::map<std::pair<const void*, int>, KernelSharedState> kernels;
};
inline KernelSharedCache& kernel_shared_cache() {
  static KernelSharedCache cache;
  return cache;
}
}  // namespace detail

/// Why a kernel with `static_bytes` of static shared memory cannot be given `dynamic_bytes` of dynamic
/// shared memory on a device allowing `per_block_limit` bytes per block (opt-in), or "" if it can.
/// `device` is only named in the message.
inline std::string shared_memory_limit_error(std::size_t dynamic_bytes, std::size_t static_bytes,
                                             std::size_t per_block_limit, int device) {
  if (dynamic_bytes + static_bytes <= per_block_limit) return std::string();
  return "smemtile: the kernel needs " + std::to_string(dynamic_bytes) + " bytes of dynamic shared memory (+ " +
         std::to_string(static_bytes) + " static = " + std::to_string(dynamic_bytes + static_bytes) +
         " bytes per block), but device " + std::to_string(device) + " allows at most " +
         std::to_string(per_block_limit) +
         " bytes per block (cudaDevAttrMaxSharedMemoryPerBlockOptin); carve less per block";
}

/// The message for a plan whose description made an invalid request, or "" for a valid plan.
inline std::string plan_error(const SharedMemoryPlan& plan) {
  if (plan.ok()) return std::string();
  return std::string("smemtile: invalid shared memory carving: ") + plan.error + " (value " +
         std::to_string(plan.error_value) + ")";
}

/// Makes `kernel` launchable with plan.launch_bytes() of dynamic shared memory on the current
/// device; on success status.dynamic_bytes is the third <<<>>> argument to use. Fails (without
/// launching anything) on an invalid plan or when the bytes exceed what the device allows per block.
template <class Kernel>
LaunchStatus prepare_launch(Kernel* kernel, const SharedMemoryPlan& plan) {
  LaunchStatus status;
  status.dynamic_bytes = plan.launch_bytes();
  auto failed = [&status](cudaError_t error, std::string message) {
    status.error = error;
    status.message = std::move(message);
    return status;
  };
  if (!plan.ok()) return failed(cudaErrorInvalidValue, plan_error(plan));

  const void* function = reinterpret_cast<const void*>(kernel);
  DeviceLimits limits;
  const LaunchStatus queried = device_limits(&limits, "smemtile: querying the device failed");
  if (!queried) return failed(queried.error, queried.message);
  detail::KernelSharedCache& cache = detail::kernel_shared_cache();
  const std::lock_guard<std::mutex> lock(cache.lock);
  const auto key = std::make_pair(function, limits.device);
  auto known = cache.kernels.find(key);
  if (known == cache.kernels.end()) {
    cudaFuncAttributes attributes{};
    const cudaError_t error = cudaFuncGetAttributes(&attributes, function);
    if (error != cudaSuccess)
      return failed(error, std::string("smemtile: cudaFuncGetAttributes failed (is this a __global__ function?): ") +
                               cudaGetErrorString(error));
    known = cache.kernels
                .emplace(key, detail::KernelSharedState{attributes.sharedSizeBytes,
                                                        static_cast<std::size_t>(attributes.maxDynamicSharedSizeBytes)})
                .first;
  }
  detail::KernelSharedState& kernel_state = known->second;

  const std::string too_big =
      shared_memory_limit_error(status.dynamic_bytes, kernel_state.static_bytes,
                                static_cast<std::size_t>(limits.shared_per_block_optin), limits.device);
  if (!too_big.empty()) return failed(cudaErrorInvalidValue, too_big);

  if (status.dynamic_bytes > kernel_state.max_dynamic_bytes) {
    const cudaError_t error = cudaFuncSetAttribute(function, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                                   static_cast<int>(status.dynamic_bytes));
    if (error != cudaSuccess)
      return failed(error, "smemtile: raising cudaFuncAttributeMaxDynamicSharedMemorySize to " +
                               std::to_string(status.dynamic_bytes) + " bytes failed: " + cudaGetErrorString(error));
    kernel_state.max_dynamic_bytes = status.dynamic_bytes;
  }
  return status;
}

#if defined(__CUDACC__)
/// prepare_launch, then kernel<<<grid, block, plan.launch_bytes(), stream>>>(args...). Does not wait
/// for the kernel: the status covers the preparation and the launch itself (cudaGetLastError).
template <class... Params, class... Args>
LaunchStatus launch_with_plan(void (*kernel)(Params...), dim3 grid, dim3 block, const SharedMemoryPlan& plan,
                              cudaStream_t stream, Args&&... args) {
  LaunchStatus status = prepare_launch(kernel, plan);
  if (!status) return status;
  kernel<<<grid, block, status.dynamic_bytes, stream>>>(std::forward<Args>(args)...);
  const cudaError_t error = cudaGetLastError();
  if (error != cudaSuccess) {
    status.error = error;
    status.message = "smemtile: launching with " + std::to_string(status.dynamic_bytes) +
                     " bytes of dynamic shared memory failed: " + cudaGetErrorString(error);
  }
  return status;
}
#endif  // __CUDACC__

}  // namespace smemtile
