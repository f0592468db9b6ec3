// smemtile/device/stencil_steps.cuh: device_stencil_steps, a host function that applies a stencil
// `steps` times (a time loop: heat and wave equations, Jacobi smoothers, diffusion), several steps
// per trip through memory.
//
//   auto buffers = smemtile::make_stencil_buffers(smemtile::make_global_matrix(d_a, rows, cols),
//                                                 smemtile::make_global_matrix(d_b, rows, cols));
//   // d_a holds the field
//   smemtile::LaunchStatus s = smemtile::device_stencil_steps<1, smemtile::StencilShape::star>(
//       buffers, 100, smemtile::boundary::clamp, Heat{}, stream);
//   // buffers.current() holds the field after 100 steps (d_a or d_b); the other array is scratch
//
// The result is exactly, bit for bit, that of `steps` device_stencil calls with the same op and
// boundary, each reading the last one's output: every point is computed by the same op from the
// same values. A pass (device/tuning/stencil_steps_policy.cuh) loads a region of the array per
// block, applies up to `depth` steps in shared memory and writes its tile, or (2D arrays that fill
// the GPU, StencilStepsStreamPolicy) streams strips down the rows with every step's rows in
// registers: one read and one write of the array per `depth` steps instead of per step. Passes read current() and write alternate(),
// then swap them, so the array holding the field at the call is overwritten from the second pass
// on. A pass of one step is device_stencil's; `steps = 1` is exactly one device_stencil call.
// Nothing is allocated; the call can be captured in a CUDA graph.
#pragma once

#include <cuda_runtime.h>

#include <string>
#include <type_traits>  // std::enable_if_t

#include "../block/stencil.cuh"                 // StencilShape
#include "../core/boundary.cuh"                 // the policies
#include "../core/global_view.cuh"              // GlobalArray
#include "dispatch/stencil_steps_dispatch.cuh"  // StencilBuffers, dispatch_stencil_steps, run_stencil_passes
#include "launch.cuh"                           // LaunchStatus
#include "stencil.cuh"                          // stencil_argument_error
#include "tuning/stencil_steps_policy.cuh"      // the policies and the selector

namespace smemtile {

#if defined(__CUDACC__)

/// The buffers of device_stencil_steps: `current` holds the field, `alternate` (same extents, no
/// overlap; any pitches) is written. Any mdspans of rank 1 to 3 whose x stride is 1.
template <class T, class Extents, class LayoutA, class AccessorA, class LayoutB, class AccessorB>
StencilBuffers<T, Extents::rank()> make_stencil_buffers(cuda::std::mdspan<T, Extents, LayoutA, AccessorA> current,
                                                        cuda::std::mdspan<T, Extents, LayoutB, AccessorB> alternate) {
  return StencilBuffers<T, Extents::rank()>{{detail::as_global_array(current), detail::as_global_array(alternate)}, 0};
}

namespace detail {
// Why device_stencil_steps refuses these buffers and steps (with its name), or an empty string.
template <int Radius, class T, std::size_t Rank, class Boundary>
std::string stencil_steps_call_error(const StencilBuffers<T, Rank>& buffers, int steps) {
  static_assert(!AssumesInside<Boundary>::value,
                "smemtile::device_stencil_steps: boundary::inside states that nothing outside the array is read, "
                "which a stencil's edge points do: choose zero, constant, clamp, periodic or reflect");
  if (steps < 0) return std::string(stencil_steps_who) + ": steps must not be negative";
  const char* why = stencil_call_error<Radius>(as_const_array(buffers.current()), buffers.alternate());
  return why ? std::string(stencil_steps_who) + ": " + why : std::string();
}
}  // namespace detail

/// Applies a stencil of `Radius` and `Shape` `steps` times: step k computes out(p) = op(the
/// neighbourhood of p in step k - 1's output), `boundary` deciding what positions outside hold,
/// as device_stencil does. Starts from buffers.current(); on return (the work queued on `stream`)
/// buffers.current() names the array that will hold the result. Invalid arguments (different
/// extents, overlapping arrays, a non-unit x stride, negative steps) return cudaErrorInvalidValue
/// and a message and swap nothing; steps = 0 and empty arrays return success without a launch.
/// The policy is the selector's (stencil_steps_choice) for this GPU.
template <int Radius, StencilShape Shape, class T, std::size_t Rank, class Boundary, class Op>
LaunchStatus device_stencil_steps(StencilBuffers<T, Rank>& buffers, int steps, Boundary boundary, Op op,
                                  cudaStream_t stream = 0) {
  const std::string why = detail::stencil_steps_call_error<Radius, T, Rank, Boundary>(buffers, steps);
  if (!why.empty()) return detail::failed_launch(cudaErrorInvalidValue, why);
  if (steps == 0 || buffers.current().size() == 0) return LaunchStatus{};
  return detail::dispatch_stencil_steps<Radius, Shape>(buffers, steps, boundary, op, stream);
}

/// The same with the caller's policy, whatever the selector would say: a StencilStepsPolicy of the
/// array's rank, a StencilSweepPolicy (3D) or a StencilStepsStreamPolicy (2D; arrays smaller than
/// one strip or 2 x depth x R rows take the standard regions instead):
/// `device_stencil_steps<1, StencilShape::star>(MyPolicy{}, buffers, steps, boundary::zero, op)`.
/// A policy needing more shared memory than the GPU's blocks may have fails with a message.
template <int Radius, StencilShape Shape, class Policy, class T, std::size_t Rank, class Boundary, class Op,
          class = std::enable_if_t<IsStencilStepsPolicy<Policy>::value || IsStencilSweepPolicy<Policy>::value ||
                                      IsStencilStepsStreamPolicy<Policy>::value>>
LaunchStatus device_stencil_steps(Policy, StencilBuffers<T, Rank>& buffers, int steps, Boundary boundary, Op op,
                                  cudaStream_t stream = 0) {
  static_assert(detail::separable_op_fits<Shape, static_cast<int>(Rank), Op>());
  static_assert(Policy::depth >= 2, "smemtile::device_stencil_steps: a pass fuses at least 2 steps (one step is "
                                    "device_stencil's)");
  const std::string why = detail::stencil_steps_call_error<Radius, T, Rank, Boundary>(buffers, steps);
  if (!why.empty()) return detail::failed_launch(cudaErrorInvalidValue, why);
  if (steps == 0 || buffers.current().size() == 0) return LaunchStatus{};
  DeviceLimits device;
  const LaunchStatus queried = device_limits(&device, detail::stencil_steps_who);
  if (!queried) return queried;
  return detail::run_stencil_passes<Policy, Radius, Shape>(device, buffers, steps, boundary, op, stream);
}

#endif  // __CUDACC__

}  // namespace smemtile
