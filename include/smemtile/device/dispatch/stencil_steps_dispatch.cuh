/// \file
/// device_stencil_steps's dispatch: the passes of a call (stencil_steps_passes), each one launch of
/// the fused kernel, or of device_stencil's single step where a pass has one step or the selector
/// (stencil_steps_choice) finds fusing no gain on this GPU and stencil.
#pragma once

#include <cuda_runtime.h>

#include <climits>  // INT_MAX
#include <string>
#include <type_traits>  // std::is_void

#include "../../core/global_view.cuh"        // GlobalArray
#include "../kernels/stencil_steps.cuh"      // stencil_steps_kernel
#include "../kernels/stencil_steps_stream.cuh"  // stencil_steps_stream_kernel
#include "../launch.cuh"                     // LaunchStatus, DeviceLimits, device_limits, raise_dynamic_shared
#include "../tuning/stencil_steps_policy.cuh"  // the policies and the selector
#include "stencil_dispatch.cuh"              // dispatch_stencil (single steps), resident_blocks
#include "stencil_sweep_launch.cuh"          // launch_stencil_sweep

namespace smemtile {

/// Two arrays of one shape for a stencil's steps (as CUB's DoubleBuffer): current() holds the
/// field, alternate() is written, and each pass through memory swaps them (selector).
template <class T, std::size_t Rank>
struct StencilBuffers {
  GlobalArray<T, Rank> arrays[2];  ///< the two arrays
  int selector = 0;                ///< which of them is current
  /// The array holding the field.
  GlobalArray<T, Rank> current() const { return arrays[selector]; }
  /// The other array.
  GlobalArray<T, Rank> alternate() const { return arrays[selector ^ 1]; }
};

namespace detail {

#if defined(__CUDACC__)

inline constexpr const char* stencil_steps_who = "smemtile::device_stencil_steps";

// The read-only view of a buffer.
template <class T, class Extents>
cuda::std::mdspan<const T, Extents, cuda::std::layout_stride> as_const_array(
    const cuda::std::mdspan<T, Extents, cuda::std::layout_stride>& a) {
  return cuda::std::mdspan<const T, Extents, cuda::std::layout_stride>(a.data_handle(), a.mapping());
}

// The most steps a pass fuses: the policy's depth, or 1 (void: single steps).
template <class Policy>
struct PassDepth {
  static constexpr int value = Policy::depth;
};
template <>
struct PassDepth<void> {
  static constexpr int value = 1;
};

// One pass of `steps` (2 ... Policy::depth) fused steps from `in` to `out`.
template <class Policy, int Radius, StencilShape Shape, class T, std::size_t Rank, class Boundary, class Op>
LaunchStatus launch_stencil_steps(const DeviceLimits& device, GlobalArray<const T, Rank> in, GlobalArray<T, Rank> out,
                                  Boundary boundary, Op op, int steps, cudaStream_t stream) {
  static_assert(StencilStepsPolicyCheck<Policy, static_cast<int>(sizeof(T)), Radius, Shape>::ok, "");
  static_assert(Policy::rank == static_cast<int>(Rank), "smemtile::device_stencil_steps: the policy's rank is not the array's");
  constexpr StencilStepsGeometry g = stencil_steps_geometry<Policy>(static_cast<int>(sizeof(T)), Radius);
  constexpr long long shared = stencil_steps_shared_bytes<Policy>(static_cast<int>(sizeof(T)));
  const auto tiles = [](long long n, int per_tile) { return (n + per_tile - 1) / per_tile; };
  const long long across = tiles(in.extent(Rank - 1), g.tile_x);
  const long long down = Rank >= 2 ? tiles(in.extent(0), g.tile_a) : 1;
  const long long deep = Rank == 3 ? tiles(in.extent(1), g.tile_y) : 1;
  return launch_3d_grid<stencil_steps_kernel<Policy, Radius, Shape, T, Rank, Boundary, Op>>(
      device, across, down, deep, Policy::threads, shared, stencil_steps_who, stream, in, out, boundary, op, steps);
}

// One pass of a 2D stream's kernel (Policy::depth steps): as many blocks as are resident at once,
// taking the tasks of stencil_steps_stream_plan in turn.
template <class Policy, int Radius, StencilShape Shape, bool Vector, class T, class Boundary, class Op>
LaunchStatus launch_steps_stream_kernel(const DeviceLimits& device, GlobalArray<const T, 2> in, GlobalArray<T, 2> out,
                                        Boundary boundary, Op op, cudaStream_t stream) {
  constexpr auto kernel = stencil_steps_stream_kernel<Policy, Radius, Shape, Vector, T, Boundary, Op>;
  constexpr long long shared =
      steps_rewrite_outside<Boundary> ? steps_stream_edge_rows_bytes<Policy, Radius>(static_cast<int>(sizeof(T))) : 0;
  long long resident = 0;
  const LaunchStatus ready = resident_blocks<kernel, Policy>(device, shared, stencil_steps_who, &resident);
  if (!ready) return ready;
  const int side_split = stencil_steps_stream_side_split(steps_rewrite_outside<Boundary>);
  const StencilStepsStreamPlan plan = stencil_steps_stream_plan(
      in.extent(0), in.extent(1), stencil_steps_stream_width(Policy::columns, Policy::depth, Radius),
      Policy::depth * Radius, side_split, Policy::rows, resident * Policy::warps);
  const long long wanted = (plan.tasks + Policy::warps - 1) / Policy::warps;
  kernel<<<static_cast<unsigned>(wanted < resident ? wanted : resident), Policy::threads, static_cast<size_t>(shared),
           stream>>>(in, out, boundary, op, plan);
  return LaunchStatus{};
}

// One pass of Policy::depth fused steps of a 2D stream from `in` to `out`: by vector loads and
// stores where both arrays' rows allow them.
template <class Policy, int Radius, StencilShape Shape, class T, class Boundary, class Op>
LaunchStatus launch_stencil_steps_stream(const DeviceLimits& device, GlobalArray<const T, 2> in, GlobalArray<T, 2> out,
                                         Boundary boundary, Op op, cudaStream_t stream) {
  static_assert(StencilStepsStreamPolicyCheck<Policy, Radius>::ok, "");
  constexpr long long unit = Policy::columns * sizeof(T) < 16 ? Policy::columns * sizeof(T) : 16;
  const auto rows_allow = [&](const auto& a) {
    return reinterpret_cast<unsigned long long>(a.data_handle()) % unit == 0 &&
           static_cast<long long>(a.stride(0)) * static_cast<long long>(sizeof(T)) % unit == 0;
  };
  if (rows_allow(in) && rows_allow(out))
    return launch_steps_stream_kernel<Policy, Radius, Shape, true>(device, in, out, boundary, op, stream);
  return launch_steps_stream_kernel<Policy, Radius, Shape, false>(device, in, out, boundary, op, stream);
}

// (below) `steps` steps in passes of at most Policy::depth.
template <class Policy, int Radius, StencilShape Shape, class T, std::size_t Rank, class Boundary, class Op>
LaunchStatus run_stencil_passes(const DeviceLimits& device, StencilBuffers<T, Rank>& buffers, int steps,
                                Boundary boundary, Op op, cudaStream_t stream);

// A 2D stream's steps: passes of Policy::depth steps, then the rest (fewer than the depth) as the
// standard regions' passes (or one single step), so the stream's kernel is compiled for one step
// count. Arrays too small for the stream (stencil_steps_stream_fits) take the standard regions.
template <class Policy, int Radius, StencilShape Shape, class T, class Boundary, class Op>
LaunchStatus run_stencil_stream_passes(const DeviceLimits& device, StencilBuffers<T, 2>& buffers, int steps,
                                       Boundary boundary, Op op, cudaStream_t stream) {
  using Standard = typename DefaultStencilStepsPolicy<2, static_cast<int>(sizeof(T)), Radius, Shape>::type;
  const auto a = buffers.current();
  if (!stencil_steps_stream_fits(a.extent(0), a.extent(1), Policy::columns, Policy::depth, Radius))
    return run_stencil_passes<Standard, Radius, Shape>(device, buffers, steps, boundary, op, stream);
  for (int p = 0; p < steps / Policy::depth; ++p) {
    const LaunchStatus launched = launched_status(
        launch_stencil_steps_stream<Policy, Radius, Shape, T>(device, as_const_array(buffers.current()),
                                                              buffers.alternate(), boundary, op, stream),
        stencil_steps_who);
    if (!launched) return launched;
    buffers.selector ^= 1;
  }
  if (steps % Policy::depth == 0) return LaunchStatus{};
  return run_stencil_passes<Standard, Radius, Shape>(device, buffers, steps % Policy::depth, boundary, op, stream);
}

// `steps` steps in passes of at most Policy::depth (Policy void: one step per pass), swapping
// `buffers` after each pass that launched.
template <class Policy, int Radius, StencilShape Shape, class T, std::size_t Rank, class Boundary, class Op>
LaunchStatus run_stencil_passes(const DeviceLimits& device, StencilBuffers<T, Rank>& buffers, int steps,
                                Boundary boundary, Op op, cudaStream_t stream) {
  if constexpr (IsStencilStepsStreamPolicy<Policy>::value) {
    static_assert(Rank == 2, "smemtile::device_stencil_steps: StencilStepsStreamPolicy streams 2D arrays");
    if constexpr (Rank == 2)
      return run_stencil_stream_passes<Policy, Radius, Shape>(device, buffers, steps, boundary, op, stream);
    else
      return LaunchStatus{};
  } else {
    const StencilStepsPasses passes = stencil_steps_passes(steps, PassDepth<Policy>::value);
    for (int p = 0; p < passes.passes; ++p) {
      const int fused = passes.steps_of(p);
      LaunchStatus launched;
      if constexpr (!std::is_void<Policy>::value) {
        if (fused > 1) {
          if constexpr (IsStencilSweepPolicy<Policy>::value)
            launched = launch_stencil_sweep<Policy, Radius, Shape, T>(device, as_const_array(buffers.current()),
                                                                      buffers.alternate(), boundary, op, fused,
                                                                      stencil_steps_who, stream);
          else
            launched = launch_stencil_steps<Policy, Radius, Shape, T, Rank>(device, as_const_array(buffers.current()),
                                                                            buffers.alternate(), boundary, op, fused, stream);
        }
      }
      if (fused == 1)
        launched = dispatch_stencil<Radius, Shape, T, Rank>(as_const_array(buffers.current()), buffers.alternate(),
                                                            boundary, op, stream);
      launched = launched_status(launched, stencil_steps_who);
      if (!launched) return launched;
      buffers.selector ^= 1;
    }
    return LaunchStatus{};
  }
}

// The default 3D sweep where the selector chooses one and it is expected to beat single steps
// (stencil_sweep_fills; clamp and reflect only on a whole wave of blocks): DefaultStencilSweepPolicy's
// type where both arrays' rows are 16-byte aligned, else its unaligned_type where it fits (under
// clamp first clamp_type, by its own gain, or clamp_unaligned_type, where its blocks fill the GPU);
// the gain over single steps scaled by the bandwidth where single steps load by TMA, as measured
// where they cannot, times the share of it that `steps` keep in passes of the policy's depth.
// `launched` tells whether it ran.
template <int Radius, StencilShape Shape, class T, class Boundary, class Op>
LaunchStatus run_default_sweep(const DeviceLimits& device, StencilBuffers<T, 3>& buffers, int steps, Boundary boundary,
                               Op op, cudaStream_t stream, bool* launched) {
  constexpr int bytes = static_cast<int>(sizeof(T));
  using Default = DefaultStencilSweepPolicy<bytes, Radius, Shape, is_separable_stencil_op<Op>>;
  using Sweep = typename Default::type;
  using Unaligned = typename Default::unaligned_type;
  constexpr bool clamp = std::is_same<Boundary, boundary::Clamp>::value;
  using ClampSweep = std::conditional_t<clamp, typename Default::clamp_type, Sweep>;
  using ClampUnaligned = std::conditional_t<clamp, typename Default::clamp_unaligned_type, Unaligned>;
  const auto a = buffers.current(), b = buffers.alternate();  // single steps read both in turn
  const auto rows_16 = [&](const GlobalArray<T, 3>& x) {
    return stencil_rows_16_aligned(reinterpret_cast<unsigned long long>(x.data_handle()),
                                   static_cast<long long>(x.stride(0)) * bytes, static_cast<long long>(x.stride(1)) * bytes);
  };
  const bool aligned = rows_16(a) && rows_16(b), tma = aligned && stencil_gpu_has_tma(device.cc_major);
  constexpr bool rewrites = steps_rewrite_outside<Boundary>;
  const auto gain_of = [&](double measured, double unaligned) {
    return tma ? stencil_sweep_gain(measured, Default::reference_bandwidth, device.memory_bandwidth) : unaligned;
  };
  const double gain = rewrites
                          ? gain_of(Default::gain_over_single_rewrites, Default::gain_over_unaligned_single_rewrites)
                          : gain_of(Default::gain_over_single, Default::gain_over_unaligned_single);
  const auto fills = [&](auto policy, double policy_gain) {  // (short passes gain less: stencil_sweep_passes_share)
    using Policy = decltype(policy);
    return stencil_sweep_fills<Policy>(bytes, Radius, a.extent(0), a.extent(1), a.extent(2), device.multiprocessors,
                                       policy_gain * stencil_sweep_passes_share(steps, Policy::depth), rewrites);
  };
  const auto fits = [&](auto policy) {
    return device.shared_per_block_optin >= stencil_sweep_shared_bytes<decltype(policy)>(bytes, Radius);
  };
  const auto run = [&](auto policy) {
    *launched = true;
    return run_stencil_passes<decltype(policy), Radius, Shape>(device, buffers, steps, boundary, op, stream);
  };
  *launched = false;
  if constexpr (!std::is_same<ClampUnaligned, Unaligned>::value) {  // (where its blocks fill the GPU)
    if (!aligned && fits(ClampUnaligned{}) && fills(ClampUnaligned{}, gain)) return run(ClampUnaligned{});
  }
  if constexpr (!std::is_same<Unaligned, Sweep>::value) {
    if (!aligned && fits(Unaligned{})) return fills(Unaligned{}, gain) ? run(Unaligned{}) : LaunchStatus{};
  }
  if constexpr (!std::is_same<ClampSweep, Sweep>::value) {
    const double clamp_gain = gain_of(Default::gain_over_single_clamp, Default::gain_over_unaligned_single_rewrites);
    if (aligned && fits(ClampSweep{}) && fills(ClampSweep{}, clamp_gain)) return run(ClampSweep{});
  }
  return fills(Sweep{}, gain) ? run(Sweep{}) : LaunchStatus{};
}

// The selector's kind of a boundary policy.
template <class Boundary>
constexpr StencilStepsStreamBoundary stencil_steps_stream_boundary() {
  if constexpr (!Boundary::maps_index) return StencilStepsStreamBoundary::fill;
  else if constexpr (std::is_same<Boundary, boundary::Periodic>::value) return StencilStepsStreamBoundary::periodic;
  else if constexpr (std::is_same<Boundary, boundary::Clamp>::value) return StencilStepsStreamBoundary::clamp;
  else return StencilStepsStreamBoundary::reflect;
}

// Whether the selector may stream a stencil on some rows (so the default's kernel is built only
// where it can run).
template <int ElemBytes, int Radius, StencilShape Shape, class Boundary, bool PartialRings>
inline constexpr bool stencil_steps_stream_candidate =
    stencil_steps_stream_selected(ElemBytes, Radius, Shape, stencil_steps_stream_boundary<Boundary>(), true,
                                  PartialRings) ||
    stencil_steps_stream_selected(ElemBytes, Radius, Shape, stencil_steps_stream_boundary<Boundary>(), false,
                                  PartialRings);

// The default: the selector's policy for this GPU, or single steps where fusing gains nothing.
template <int Radius, StencilShape Shape, class T, std::size_t Rank, class Boundary, class Op>
LaunchStatus dispatch_stencil_steps(StencilBuffers<T, Rank>& buffers, int steps, Boundary boundary, Op op,
                                    cudaStream_t stream) {
  static_assert(separable_op_fits<Shape, static_cast<int>(Rank), Op>());
  constexpr int rank = static_cast<int>(Rank), bytes = static_cast<int>(sizeof(T));
  DeviceLimits device;
  const LaunchStatus queried = device_limits(&device, stencil_steps_who);
  if (!queried) return queried;
  constexpr bool separable = is_separable_stencil_op<Op>;
  const StencilStepsChoice choice =
      stencil_steps_choice<rank, bytes, Radius, Shape, separable>(device.shared_per_block_optin);
  using Standard = typename DefaultStencilStepsPolicy<rank, bytes, Radius, Shape>::type;
  constexpr bool partial_rings = StepsStreamRing<Op, T, Radius, Shape>::partials;
  if constexpr (Rank == 2 && stencil_steps_stream_candidate<bytes, Radius, Shape, Boundary, partial_rings>) {
    using Stream = typename DefaultStencilStepsStreamPolicy<bytes, Radius, Shape>::type;
    const auto a = buffers.current(), b = buffers.alternate();
    const auto rows_16 = [&](const GlobalArray<T, 2>& x) {
      return stencil_rows_16_aligned(reinterpret_cast<unsigned long long>(x.data_handle()), 0,
                                     static_cast<long long>(x.stride(0)) * bytes);
    };
    constexpr StencilStepsStreamBoundary kind = stencil_steps_stream_boundary<Boundary>();
    if (choice.fused && stencil_steps_stream_selected(bytes, Radius, Shape, kind, rows_16(a) && rows_16(b), partial_rings) &&
        stencil_steps_stream_fills<Stream, Radius>(a.extent(0), a.extent(1), device.multiprocessors))
      return run_stencil_passes<Stream, Radius, Shape>(device, buffers, steps, boundary, op, stream);
  }
  if constexpr (Rank <= 2) {
    if (choice.fused) return run_stencil_passes<Standard, Radius, Shape>(device, buffers, steps, boundary, op, stream);
  } else if constexpr (stencil_sweep_selected<bytes, Radius, Shape, separable>) {  // (no sweep kernel built for the others)
    if (choice.fused) {
      bool launched = false;
      const LaunchStatus s = run_default_sweep<Radius, Shape>(device, buffers, steps, boundary, op, stream, &launched);
      if (launched) return s;
    }
  }
  return run_stencil_passes<void, Radius, Shape>(device, buffers, steps, boundary, op, stream);
}

#endif  // __CUDACC__

}  // namespace detail
}  // namespace smemtile
