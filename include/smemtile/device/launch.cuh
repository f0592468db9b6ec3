// smemtile/device/launch.cuh: launching a kernel with the dynamic shared memory its carving needs (host).
//
//   const smemtile::SharedMemoryPlan plan = smemtile::plan_shared_memory(carve, params);  // arena.cuh
//   smemtile::LaunchStatus status = smemtile::launch_with_plan(kernel, grid, block, plan, stream, out, params);
//   if (!status) std::fprintf(stderr, "%s\n", status.message.c_str());
//
// prepare_launch checks the plan, checks that the kernel's static plus dynamic shared memory fits
// the device's opt-in limit per block (cudaDevAttrMaxSharedMemoryPerBlockOptin, 227 KB on an H100),
// and raises the kernel's cudaFuncAttributeMaxDynamicSharedMemorySize when the request is above the
// kernel's current limit (48 KB minus its static shared memory by default). It never lowers the
// limit (another launch may need it) and never exits: every problem comes back as a LaunchStatus
// with a CUDA error code and a message saying what was asked for and what the device allows.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>  // std::size_t
#include <string>
#include <utility>  // std::forward

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
  int device = 0;
  cudaError_t error = cudaGetDevice(&device);
  if (error != cudaSuccess)
    return failed(error, std::string("smemtile: cudaGetDevice failed: ") + cudaGetErrorString(error));
  int per_block_limit = 0;
  error = cudaDeviceGetAttribute(&per_block_limit, cudaDevAttrMaxSharedMemoryPerBlockOptin, device);
  if (error != cudaSuccess)
    return failed(error, std::string("smemtile: querying cudaDevAttrMaxSharedMemoryPerBlockOptin failed: ") +
                             cudaGetErrorString(error));
  cudaFuncAttributes attributes{};
  error = cudaFuncGetAttributes(&attributes, function);
  if (error != cudaSuccess)
    return failed(error, std::string("smemtile: cudaFuncGetAttributes failed (is this a __global__ function?): ") +
                             cudaGetErrorString(error));

  const std::string too_big = shared_memory_limit_error(status.dynamic_bytes, attributes.sharedSizeBytes,
                                                        static_cast<std::size_t>(per_block_limit), device);
  if (!too_big.empty()) return failed(cudaErrorInvalidValue, too_big);

  if (status.dynamic_bytes > static_cast<std::size_t>(attributes.maxDynamicSharedSizeBytes)) {
    error = cudaFuncSetAttribute(function, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                 static_cast<int>(status.dynamic_bytes));
    if (error != cudaSuccess)
      return failed(error, "smemtile: raising cudaFuncAttributeMaxDynamicSharedMemorySize to " +
                               std::to_string(status.dynamic_bytes) + " bytes failed: " + cudaGetErrorString(error));
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
