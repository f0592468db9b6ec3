/// \file
/// The launch of a 3D sweep (StencilSweepPolicy): device_stencil_steps's passes, and device_stencil's
/// single steps by StencilLoader::sweep.
#pragma once

#include <cuda_runtime.h>

#include "../../core/global_view.cuh"              // GlobalArray
#include "../kernels/stencil_sweep.cuh"            // stencil_sweep_kernel
#include "../kernels/stencil_sweep_registers.cuh"  // stencil_sweep_registers_kernel
#include "../kernels/stencil_sweep_vectors.cuh"    // stencil_sweep_vectors_kernel
#include "../launch.cuh"                           // LaunchStatus, DeviceLimits, launch_3d_grid
#include "../tuning/stencil_steps_policy.cuh"      // StencilSweepPolicy, stencil_sweep_plan

namespace smemtile {
namespace detail {

#if defined(__CUDACC__)

// The grid of a sweep with Policy over `in` on `device`: xy tiles across and down, chunks along z.
template <class Policy, int Radius, class T>
struct StencilSweepGrid {
  long long across, down, chunks;
  int chunk;
  static StencilSweepGrid of(const DeviceLimits& device, const GlobalArray<const T, 3>& in) {
    using Plane = SweepPlanePolicy<Policy>;
    constexpr StencilStepsGeometry g = stencil_steps_geometry<Plane>(static_cast<int>(sizeof(T)), Radius);
    const auto tiles = [](long long n, int per_tile) { return (n + per_tile - 1) / per_tile; };
    const StencilSweepPlan plan =
        stencil_sweep_plan<Policy>(static_cast<int>(sizeof(T)), Radius, in.extent(0), in.extent(1), in.extent(2),
                                   static_cast<long long>(device.multiprocessors) * Policy::min_blocks);
    return StencilSweepGrid{tiles(in.extent(2), g.tile_x), tiles(in.extent(1), g.tile_a), tiles(in.extent(0), plan.chunk),
                            plan.chunk};
  }
};

// Why a sweep with Policy cannot run over `in` on `device` (its planes' shared memory, the grid's
// limits), or nullptr.
template <class Policy, int Radius, class T>
const char* stencil_sweep_launch_error(const DeviceLimits& device, const GlobalArray<const T, 3>& in) {
  if (device.shared_per_block_optin < stencil_sweep_shared_bytes<Policy>(static_cast<int>(sizeof(T)), Radius))
    return "the sweep's planes need more shared memory than a block of this GPU may have";
  const StencilSweepGrid<Policy, Radius, T> grid = StencilSweepGrid<Policy, Radius, T>::of(device, in);
  if (grid.down > 65535 || grid.chunks > 65535) return "the sweep's grid has more than 65535 tiles along y or z";
  return nullptr;
}

// One pass of `steps` (1 ... Policy::depth) steps of a 3D sweep from `in` to `out`; `who`
// names the caller in errors.
template <class Policy, int Radius, StencilShape Shape, class T, class Boundary, class Op>
LaunchStatus launch_stencil_sweep(const DeviceLimits& device, GlobalArray<const T, 3> in, GlobalArray<T, 3> out,
                                  Boundary boundary, Op op, int steps, const char* who, cudaStream_t stream) {
  using Plane = SweepPlanePolicy<Policy>;
  constexpr StencilStepsGeometry g = stencil_steps_geometry<Plane>(static_cast<int>(sizeof(T)), Radius);
  static_assert(g.tile_a > 0 && g.tile_x > 0,
                "smemtile: the sweep's plane is no wider than its halo (depth x radius on each side, x rounded up "
                "to 16 bytes): enlarge RegionY and RegionX or lower the depth");
  constexpr long long shared = stencil_sweep_shared_bytes<Policy>(static_cast<int>(sizeof(T)), Radius);
  static_assert(shared <= max_shared_bytes_per_block,
                "smemtile: this sweep's planes need more shared memory than any GPU has");
  if constexpr (Policy::compute != StencilSweepCompute::planes) {
    static_assert(Shape == StencilShape::star ||
                      (Policy::compute == StencilSweepCompute::registers && is_separable_stencil_op<Op>),
                  "smemtile: StencilSweepCompute::registers sweeps star stencils and boxes whose op is a "
                  "SeparableStencilOp, ::vectors star stencils only (a box reads other columns along z); use "
                  "StencilSweepCompute::planes");
  }
  const StencilSweepGrid<Policy, Radius, T> grid = StencilSweepGrid<Policy, Radius, T>::of(device, in);
  if constexpr (Policy::compute == StencilSweepCompute::vectors) {
    return launch_3d_grid<stencil_sweep_vectors_kernel<Policy, Radius, Shape, T, Boundary, Op>>(
        device, grid.across, grid.down, grid.chunks, Policy::threads, shared, who, stream, in, out, boundary, op, steps,
        grid.chunk);
  } else if constexpr (Policy::compute == StencilSweepCompute::registers) {
    return launch_3d_grid<stencil_sweep_registers_kernel<Policy, Radius, Shape, T, Boundary, Op>>(
        device, grid.across, grid.down, grid.chunks, Policy::threads, shared, who, stream, in, out, boundary, op, steps,
        grid.chunk);
  } else {
    return launch_3d_grid<stencil_sweep_kernel<Policy, Radius, Shape, T, Boundary, Op>>(
        device, grid.across, grid.down, grid.chunks, Policy::threads, shared, who, stream, in, out, boundary, op, steps,
        grid.chunk);
  }
}

#endif  // __CUDACC__

}  // namespace detail
}  // namespace smemtile
