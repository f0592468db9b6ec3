// smemtile/device/stencil.cuh: device_stencil, a host function that applies a stencil to a 1D, 2D
// or 3D array.
//
//   struct Heat {  // out = in + 0.1 * (5-point Laplacian)
//     template <class N> __device__ float operator()(const N& n) const {
//       return n(0, 0) + 0.1f * (n(-1, 0) + n(1, 0) + n(0, -1) + n(0, 1) - 4.0f * n(0, 0));
//     }
//   };
//   auto in = smemtile::make_global_matrix<const float>(d_in, rows, cols);
//   auto out = smemtile::make_global_matrix(d_out, rows, cols);
//   smemtile::LaunchStatus s = smemtile::device_stencil<1, smemtile::StencilShape::star>(
//       in, out, smemtile::boundary::clamp, Heat{}, stream);
//
// out(p) = op(n) for every point p, where n(dx), n(dy, dx) or n(dz, dy, dx) reads `in` at p plus
// that offset (|offset| <= Radius; a star op reads along the axes only, which debug builds check),
// and positions outside the array read what the boundary policy says. `op` is a function object
// with a __device__ call operator taking the neighbourhood (a template, or `auto` in a __device__
// lambda compiled with --extended-lambda). Arrays are cuda::std::mdspans whose last index is
// fastest (unit stride), of elements of 1 to 8 bytes; `in` and `out` must not overlap.//
// A policy (device/tuning/stencil_policy.cuh) says how: 1D arrays: each block loads a halo tile
// (its interior plus Radius around it) with one copy_global_to_tile, whose boundary policy fills
// the halo outside the array, and computes its points from shared memory. 2D arrays: a grid of
// about as many blocks as fit on the GPU at once, each taking tiles in turn through a ring of halo
// tiles in dynamic shared memory: the next tiles are loading while the current one is computed.
// 3D arrays are swept along z: a ring of xy planes, 2 Radius + 1 for the stencil and more loading
// ahead, so each input element is read from DRAM about once (the 2.5D scheme). On sm_90 and later,
// where the array's address and pitches allow (tma_map_error), one thread loads each tile or plane
// with one TMA copy and the policy's values are written into the few tiles that reach outside the
// array (none under boundary::zero: TMA's fill is zero); elsewhere 2D stencils that the stream
// suits (stencil_stream_selected) stream strips of columns down the rows in registers, with no
// tiles, and the others have every thread start its cp.async copies. Why: per point, a stencil does a few additions; what limits it is keeping enough loads in
// flight and spending few instructions and memory requests on moving data.
//
// Layout of this part of the library: this file is the entry (API, argument checks);
// dispatch/stencil_dispatch.cuh maps device limits to a policy and launches; kernels/stencil_*.cuh
// are the kernels, one function per compute scheme; tuning/stencil_policy.cuh holds every tuning
// number and path choice.
#pragma once

#include <cuda_runtime.h>

#include <climits>      // INT_MAX
#include <string>
#include <type_traits>  // std::is_trivially_copyable, std::enable_if_t

#include "../block/stencil.cuh"            // StencilShape, neighborhood, Neighborhood3D
#include "../core/boundary.cuh"            // the policies
#include "../core/global_view.cuh"         // GlobalArray
#include "dispatch/stencil_dispatch.cuh"   // dispatch_stencil, dispatch_stencil_with
#include "launch.cuh"                      // LaunchStatus
#include "tuning/stencil_policy.cuh"       // the policies, stencil_candidates

namespace smemtile {

/// Why device_stencil cannot run on arrays of these extents, strides and addresses (as integers),
/// or nullptr when it can. Extents and strides are given for `rank` dimensions, x (the last) fastest.
SMEMTILE_HOST_DEVICE constexpr const char* stencil_argument_error(int rank, const long long* in_extents,
                                                                  const long long* out_extents,
                                                                  const long long* in_strides,
                                                                  const long long* out_strides,
                                                                  unsigned long long in, unsigned long long out,
                                                                  int elem_bytes) {
  long long elements = 1;
  for (int d = 0; d < rank; ++d) {
    if (in_extents[d] != out_extents[d]) return "in and out must have the same extents";
    if (in_extents[d] < 0) return "extents must not be negative";
    if (in_extents[d] > INT_MAX || in_strides[d] > INT_MAX || out_strides[d] > INT_MAX)
      return "extents and strides must fit in an int";
    elements *= in_extents[d];
  }
  if (elements == 0) return nullptr;  // nothing to do
  if (in == 0 || out == 0) return "in and out must not be null";
  if (in_strides[rank - 1] != 1 || out_strides[rank - 1] != 1)
    return "the last (x) dimension must be contiguous (stride 1) in both in and out";
  long long in_span = 1, out_span = 1;  // elements from the first to one past the last
  for (int d = 0; d < rank; ++d) {
    if (in_strides[d] < 0 || out_strides[d] < 0) return "strides must not be negative";
    in_span += (in_extents[d] - 1) * in_strides[d];
    out_span += (out_extents[d] - 1) * out_strides[d];
  }
  const unsigned long long in_end = in + static_cast<unsigned long long>(in_span) * elem_bytes;
  const unsigned long long out_end = out + static_cast<unsigned long long>(out_span) * elem_bytes;
  if (in < out_end && out < in_end) return "in and out overlap: the stencil is not computed in place (use two arrays)";
  return nullptr;
}

#if defined(__CUDACC__)

namespace detail {

// Why device_stencil refuses `in` and `out` (with "smemtile::device_stencil: "), or nullptr.
template <int Radius, class T, class Extents, class LayoutIn, class AccessorIn, class LayoutOut, class AccessorOut>
const char* stencil_call_error(const cuda::std::mdspan<const T, Extents, LayoutIn, AccessorIn>& in,
                               const cuda::std::mdspan<T, Extents, LayoutOut, AccessorOut>& out) {
  static_assert(Radius > 0, "smemtile::device_stencil: the radius must be at least 1 (Radius > 0)");
  static_assert(Radius <= 8, "smemtile::device_stencil: radii up to 8 are supported");
  constexpr int rank = static_cast<int>(Extents::rank());
  static_assert(rank >= 1 && rank <= 3, "smemtile::device_stencil: arrays of rank 1, 2 or 3");
  static_assert(std::is_trivially_copyable<T>::value && (sizeof(T) == 1 || sizeof(T) == 2 || sizeof(T) == 4 || sizeof(T) == 8),
                "smemtile::device_stencil: elements of 1, 2, 4 or 8 bytes");
  long long in_extents[3] = {}, out_extents[3] = {}, in_strides[3] = {}, out_strides[3] = {};
  for (int d = 0; d < rank; ++d) {
    in_extents[d] = static_cast<long long>(in.extent(d));
    out_extents[d] = static_cast<long long>(out.extent(d));
    in_strides[d] = static_cast<long long>(in.stride(d));
    out_strides[d] = static_cast<long long>(out.stride(d));
  }
  return stencil_argument_error(rank, in_extents, out_extents, in_strides, out_strides,
                                reinterpret_cast<unsigned long long>(in.data_handle()),
                                reinterpret_cast<unsigned long long>(out.data_handle()), static_cast<int>(sizeof(T)));
}

}  // namespace detail

/// Applies a stencil of `Radius` and `Shape` to `in`, writing `out` (same extents, rank 1, 2 or 3,
/// x fastest): out(p) = op(neighbourhood of p in `in`), `boundary` deciding what positions outside
/// `in` hold. Asynchronous on `stream`; the status covers the arguments and the launch. Invalid
/// arguments (different extents, null, overlapping arrays, a non-unit x stride) return
/// cudaErrorInvalidValue and a message; empty arrays return success without a launch.
/// The policy is the first of the default ones (stencil_candidates) that can run on this GPU and
/// array.
template <int Radius, StencilShape Shape, class T, class Extents, class LayoutIn, class AccessorIn, class LayoutOut,
          class AccessorOut, class Boundary, class Op>
LaunchStatus device_stencil(cuda::std::mdspan<const T, Extents, LayoutIn, AccessorIn> in,
                            cuda::std::mdspan<T, Extents, LayoutOut, AccessorOut> out, Boundary boundary, Op op,
                            cudaStream_t stream = 0) {
  if (const char* why = detail::stencil_call_error<Radius>(in, out))
    return detail::failed_launch(cudaErrorInvalidValue, std::string("smemtile::device_stencil: ") + why);
  if (in.size() == 0) return LaunchStatus{};
  return detail::launched_status(detail::dispatch_stencil<Radius, Shape, T, Extents::rank()>(
                                     detail::as_global_array(in), detail::as_global_array(out), boundary, op, stream),
                                 detail::stencil_who);
}

/// The same with the caller's policy (a Stencil1DPolicy or StencilTiledPolicy of the array's rank,
/// tuning/stencil_policy.cuh) instead of the selection: `device_stencil<1, StencilShape::star>(
/// MyPolicy{}, in, out, boundary::zero, op)`. A policy that loads with TMA fails with
/// cudaErrorInvalidValue where the GPU has no TMA, TMA cannot describe the array, or (3D, periodic)
/// a plane spans more than 2^31 elements (stencil_plane_offsets_fit).
template <int Radius, StencilShape Shape, class Policy, class T, class Extents, class LayoutIn, class AccessorIn,
          class LayoutOut, class AccessorOut, class Boundary, class Op,
          class = std::enable_if_t<IsStencilPolicy<Policy>::value>>
LaunchStatus device_stencil(Policy, cuda::std::mdspan<const T, Extents, LayoutIn, AccessorIn> in,
                            cuda::std::mdspan<T, Extents, LayoutOut, AccessorOut> out, Boundary boundary, Op op,
                            cudaStream_t stream = 0) {
  if (const char* why = detail::stencil_call_error<Radius>(in, out))
    return detail::failed_launch(cudaErrorInvalidValue, std::string("smemtile::device_stencil: ") + why);
  if (in.size() == 0) return LaunchStatus{};
  return detail::launched_status(detail::dispatch_stencil_with<Policy, Radius, Shape, T, Extents::rank()>(
                                     detail::as_global_array(in), detail::as_global_array(out), boundary, op, stream),
                                 detail::stencil_who);
}

/// The same with a forced path (StencilForcedLoader, tuning/stencil_policy.cuh): the default
/// policy of the given loader and tiles for this stencil, whatever the GPU and the array would
/// select: `device_stencil<1, StencilShape::star>(StencilForcedLoader<StencilLoader::cp_async>{},
/// in, out, boundary::clamp, op)` takes the cp.async path on an H100 too.
template <int Radius, StencilShape Shape, StencilLoader Loader, StencilTiles Tiles, class T, class Extents,
          class LayoutIn, class AccessorIn, class LayoutOut, class AccessorOut, class Boundary, class Op>
LaunchStatus device_stencil(StencilForcedLoader<Loader, Tiles>, cuda::std::mdspan<const T, Extents, LayoutIn, AccessorIn> in,
                            cuda::std::mdspan<T, Extents, LayoutOut, AccessorOut> out, Boundary boundary, Op op,
                            cudaStream_t stream = 0) {
  using Policy = typename DefaultStencilPolicy<static_cast<int>(Extents::rank()), static_cast<int>(sizeof(T)), Radius,
                                               Shape, Loader, Tiles, is_separable_stencil_op<Op>>::type;
  return device_stencil<Radius, Shape>(Policy{}, in, out, boundary, op, stream);
}

#endif  // __CUDACC__

}  // namespace smemtile
