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
// fastest (unit stride), of elements of 1 to 8 bytes; `in` and `out` must not overlap.
//
// How: each block loads a halo tile (its interior plus Radius around it, 16-byte rows where the
// addresses allow) with one copy_global_to_tile, whose boundary policy fills the halo outside the
// array, and computes its points from shared memory. 3D arrays are swept along z: a ring of
// 2 Radius + 1 xy planes in shared memory, one new plane loaded per step, so each input element
// is read from DRAM about once (the 2.5D scheme).
#pragma once

#include <cuda_runtime.h>

#include <climits>      // INT_MAX
#include <string>
#include <type_traits>  // std::is_trivially_copyable, std::remove_const_t

#include "../block/copy.cuh"          // copy_global_to_tile, fill_tile
#include "../block/stencil.cuh"       // StencilShape, neighborhood, Neighborhood3D
#include "../block/thread_group.cuh"  // FixedThreadBlock
#include "../core/boundary.cuh"       // the policies
#include "../core/global_view.cuh"    // GlobalArray, plane
#include "../core/halo_layout.cuh"    // HaloLayout
#include "../core/static_tile.cuh"    // StaticHaloTile, StaticHaloTile1D
#include "../core/thread_map.cuh"     // block_tile_origin
#include "launch.cuh"                 // LaunchStatus

namespace smemtile {

/// The tiles device_stencil uses for elements of ElemBytes bytes and a stencil of Radius: the
/// interior a block computes and the halo columns it loads (Radius rounded up to whole 16-byte
/// vectors, so that the rows it loads start aligned where the array's do).
template <int ElemBytes, int Radius>
struct StencilTileShape {
  /// Columns of halo on each side: Radius rounded up to a multiple of 16 / ElemBytes.
  static constexpr int halo_cols = (Radius + 16 / ElemBytes - 1) / (16 / ElemBytes) * (16 / ElemBytes);
  /// 1D: elements per block (8 per thread).
  static constexpr int interior_1d = 2048;
  /// 2D: rows per block.
  static constexpr int rows_2d = 32;
  /// 2D: columns per block.
  static constexpr int cols_2d = ElemBytes <= 4 ? 64 : 32;
  /// 3D: rows of each xy plane.
  static constexpr int rows_3d = ElemBytes <= 4 ? 16 : 8;
  /// 3D: columns of each xy plane.
  static constexpr int cols_3d = 32;
  /// 3D: planes per block along z.
  static constexpr int planes_3d = 64;
};

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

inline constexpr int stencil_threads = 256;  // 32 x 8
// At least 4 blocks per multiprocessor (<= 64 registers per thread): the edge paths of the copies
// would otherwise set the whole kernel's register count.
inline constexpr int stencil_min_blocks = 4;
using StencilBlock = FixedThreadBlock<stencil_threads>;

// Any mdspan of rank 1 to 3 as a GlobalArray (layout_stride, int extents and strides).
template <class T, class Extents, class Layout, class Accessor>
SMEMTILE_HOST_DEVICE GlobalArray<T, Extents::rank()> as_global_array(const cuda::std::mdspan<T, Extents, Layout, Accessor>& m) {
  constexpr std::size_t rank = Extents::rank();
  using Mapping = typename cuda::std::layout_stride::template mapping<cuda::std::dextents<int, rank>>;
  cuda::std::array<int, rank> extents{}, strides{};
  for (std::size_t d = 0; d < rank; ++d) {
    extents[d] = static_cast<int>(m.extent(d));
    strides[d] = static_cast<int>(m.stride(d));
  }
  return GlobalArray<T, rank>(m.data_handle(), Mapping(cuda::std::dextents<int, rank>(extents), strides));
}

// Element (i...) of a global array with 64-bit offset arithmetic.
template <class Array>
SMEMTILE_DEVICE auto& element(const Array& a, int x) {
  return a.data_handle()[x];
}
template <class Array>
SMEMTILE_DEVICE auto& element(const Array& a, int y, int x) {
  return a.data_handle()[static_cast<long long>(y) * a.stride(0) + x];
}
template <class Array>
SMEMTILE_DEVICE auto& element(const Array& a, int z, int y, int x) {
  return a.data_handle()[static_cast<long long>(z) * a.stride(0) + static_cast<long long>(y) * a.stride(1) + x];
}

template <int Radius, StencilShape Shape, class T, class Boundary, class Op>
__global__ void __launch_bounds__(stencil_threads, stencil_min_blocks)
    stencil_1d_kernel(GlobalArray<const T, 1> in, GlobalArray<T, 1> out, Boundary boundary, Op op) {
  using Shape_ = StencilTileShape<static_cast<int>(sizeof(T)), Radius>;
  constexpr int size = Shape_::interior_1d;
  __shared__ StaticHaloTile1D<T, size, Shape_::halo_cols> tile;
  const int origin = block_tile_origin_1d(size);
  copy_global_to_tile(in, origin, tile, boundary, StencilBlock{});
  __syncthreads();
  const int n = static_cast<int>(out.extent(0));
#pragma unroll
  for (int j = 0; j < size / stencil_threads; ++j) {
    const int i = static_cast<int>(threadIdx.x) + j * stencil_threads;
    if (origin + i < n) element(out, origin + i) = static_cast<T>(op(neighborhood<Radius, Shape>(tile, i)));
  }
}

template <int Radius, StencilShape Shape, class T, class Boundary, class Op>
__global__ void __launch_bounds__(stencil_threads, stencil_min_blocks)
    stencil_2d_kernel(GlobalArray<const T, 2> in, GlobalArray<T, 2> out, Boundary boundary, Op op, int tiles_down) {
  using Shape_ = StencilTileShape<static_cast<int>(sizeof(T)), Radius>;
  constexpr int rows = Shape_::rows_2d, cols = Shape_::cols_2d;
  __shared__ StaticHaloTile<T, rows, cols, Radius, Shape_::halo_cols> tile;
  const int out_rows = static_cast<int>(out.extent(0)), out_cols = static_cast<int>(out.extent(1));
  for (int tile_row = static_cast<int>(blockIdx.y); tile_row < tiles_down; tile_row += static_cast<int>(gridDim.y)) {
    const Coord origin{tile_row * rows, static_cast<int>(blockIdx.x) * cols};
    copy_global_to_tile(in, origin, tile, boundary, StencilBlock{});
    __syncthreads();
#pragma unroll
    for (int j = 0; j < rows / 8; ++j)
#pragma unroll
      for (int i = 0; i < cols / 32; ++i) {
        const Coord at{static_cast<int>(threadIdx.y) + 8 * j, static_cast<int>(threadIdx.x) + 32 * i};
        const Coord g = origin + at;
        if (g.row < out_rows && g.col < out_cols)
          element(out, g.row, g.col) = static_cast<T>(op(neighborhood<Radius, Shape>(tile, at)));
      }
    __syncthreads();  // the next tile reuses the shared memory
  }
}

template <int Radius, StencilShape Shape, class T, class Boundary, class Op>
__global__ void __launch_bounds__(stencil_threads, stencil_min_blocks)
    stencil_3d_kernel(GlobalArray<const T, 3> in, GlobalArray<T, 3> out, Boundary boundary, Op op) {
  using Shape_ = StencilTileShape<static_cast<int>(sizeof(T)), Radius>;
  constexpr int rows = Shape_::rows_3d, cols = Shape_::cols_3d, ring = 2 * Radius + 1;
  using Layout = HaloLayout<rows, cols, Radius, Shape_::halo_cols>;
  static_assert(sizeof(T) * Layout::storage_size() * ring <= max_static_shared_bytes,
                "smemtile::device_stencil: the 3D ring of 2 Radius + 1 planes exceeds 48 KB of shared memory "
                "for this radius and element size (3D supports radius 4 for 8-byte elements)");
  __shared__ BasicStaticTile<T, Layout> planes[ring];
  const int depth = static_cast<int>(out.extent(0));
  const int out_rows = static_cast<int>(out.extent(1)), out_cols = static_cast<int>(out.extent(2));
  const Coord origin = block_tile_origin({rows, cols});
  const int z_begin = static_cast<int>(blockIdx.z) * Shape_::planes_3d;
  const int z_end = z_begin + Shape_::planes_3d < depth ? z_begin + Shape_::planes_3d : depth;
  const auto slot = [](int z) { return ((z % ring) + ring) % ring; };
  // Plane z of the input (xy halo included) into its ring slot; planes outside the array come from
  // the boundary policy: the plane it maps to, or its fill value.
  const auto load = [&](int z) {
    auto& target = planes[slot(z)];
    if (z >= 0 && z < depth) {
      copy_global_to_tile(plane(in, z), origin, target, boundary, StencilBlock{});
    } else if constexpr (Boundary::maps_index) {
      copy_global_to_tile(plane(in, Boundary::map_index(z, depth)), origin, target, boundary, StencilBlock{});
    } else {
      fill_tile(target, boundary.template value<T>(), StencilBlock{});
    }
  };
  for (int z = z_begin - Radius; z < z_begin + Radius; ++z) load(z);
  for (int z = z_begin; z < z_end; ++z) {
    load(z + Radius);
    __syncthreads();
    Neighborhood3D<Radius, Shape, T, Layout> n{planes[0].data(), Layout{}, {}, Coord{0, 0}};
#pragma unroll
    for (int dz = -Radius; dz <= Radius; ++dz) n.plane_offset[Radius + dz] = slot(z + dz) * Layout::storage_size();
#pragma unroll
    for (int j = 0; j < rows / 8; ++j) {
      n.at = Coord{static_cast<int>(threadIdx.y) + 8 * j, static_cast<int>(threadIdx.x)};
      const Coord g = origin + n.at;
      if (g.row < out_rows && g.col < out_cols) element(out, z, g.row, g.col) = static_cast<T>(op(n));
    }
    __syncthreads();  // the next step overwrites the oldest plane
  }
}

inline LaunchStatus stencil_status(cudaError_t error, std::string message) {
  LaunchStatus status;
  status.error = error;
  status.message = std::move(message);
  return status;
}

}  // namespace detail

/// Applies a stencil of `Radius` and `Shape` to `in`, writing `out` (same extents, rank 1, 2 or 3,
/// x fastest): out(p) = op(neighbourhood of p in `in`), `boundary` deciding what positions outside
/// `in` hold. Asynchronous on `stream`; the status covers the arguments and the launch. Invalid
/// arguments (different extents, null, overlapping arrays, a non-unit x stride) return
/// cudaErrorInvalidValue and a message; empty arrays return success without a launch.
template <int Radius, StencilShape Shape, class T, class Extents, class LayoutIn, class AccessorIn, class LayoutOut,
          class AccessorOut, class Boundary, class Op>
LaunchStatus device_stencil(cuda::std::mdspan<const T, Extents, LayoutIn, AccessorIn> in,
                            cuda::std::mdspan<T, Extents, LayoutOut, AccessorOut> out, Boundary boundary, Op op,
                            cudaStream_t stream = 0) {
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
  if (const char* why = stencil_argument_error(rank, in_extents, out_extents, in_strides, out_strides,
                                               reinterpret_cast<unsigned long long>(in.data_handle()),
                                               reinterpret_cast<unsigned long long>(out.data_handle()),
                                               static_cast<int>(sizeof(T))))
    return detail::stencil_status(cudaErrorInvalidValue, std::string("smemtile::device_stencil: ") + why);
  if (in.size() == 0) return LaunchStatus{};

  using Shape_ = StencilTileShape<static_cast<int>(sizeof(T)), Radius>;
  const auto source = detail::as_global_array(in);
  const auto target = detail::as_global_array(out);
  const auto blocks = [](long long n, int per_block) { return static_cast<unsigned>((n + per_block - 1) / per_block); };
  if constexpr (rank == 1) {
    detail::stencil_1d_kernel<Radius, Shape, T><<<blocks(in_extents[0], Shape_::interior_1d), detail::stencil_threads, 0,
                                                  stream>>>(source, target, boundary, op);
  } else if constexpr (rank == 2) {
    const unsigned down = blocks(in_extents[0], Shape_::rows_2d);
    detail::stencil_2d_kernel<Radius, Shape, T><<<dim3(blocks(in_extents[1], Shape_::cols_2d), down < 65535 ? down : 65535),
                                                  dim3(32, 8), 0, stream>>>(source, target, boundary, op,
                                                                            static_cast<int>(down));
  } else {
    const unsigned down = blocks(in_extents[1], Shape_::rows_3d);
    const unsigned chunks = blocks(in_extents[0], Shape_::planes_3d);
    if (down > 65535 || chunks > 65535)
      return detail::stencil_status(cudaErrorInvalidValue,
                                    "smemtile::device_stencil: a 3D array of more than 65535 tiles along y or z");
    detail::stencil_3d_kernel<Radius, Shape, T><<<dim3(blocks(in_extents[2], Shape_::cols_3d), down, chunks), dim3(32, 8),
                                                  0, stream>>>(source, target, boundary, op);
  }
  const cudaError_t error = cudaGetLastError();
  if (error != cudaSuccess)
    return detail::stencil_status(error, std::string("smemtile::device_stencil: launch failed: ") +
                                             cudaGetErrorString(error));
  return LaunchStatus{};
}

#endif  // __CUDACC__

}  // namespace smemtile
