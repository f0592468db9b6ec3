// smemtile/core/global_view.cuh: arrays in global memory, described with cuda::std::mdspan.
//
//   auto in  = smemtile::make_global_matrix(d_in, rows, cols);          // pitch = cols
//   auto out = smemtile::make_global_matrix(d_out, rows, cols, pitch);  // rows of `pitch` elements
//   in(r, c) == d_in[r * cols + c]
//
// smemtile does not invent a view type for global memory: copies, transposes and stencils take any
// cuda::std::mdspan of rank 1, 2 or 3, whose last index is normally the fastest. The block-level
// copies and transposes accept any strides, and use vector accesses only where the last stride is 1;
// device_stencil requires it (and says so). The aliases below are row-major with a pitch
// (layout_stride), indexed by int; use your own mdspans freely.
#pragma once

#include <cuda/std/mdspan>  // cuda::std::mdspan, dextents, layout_stride, layout_right

#include "../config.cuh"  // SMEMTILE_HOST_DEVICE, SMEMTILE_CHECK

namespace smemtile {

/// A strided array of `Rank` dimensions in global memory (x, the last index, fastest).
template <class T, std::size_t Rank>
using GlobalArray = cuda::std::mdspan<T, cuda::std::dextents<int, Rank>, cuda::std::layout_stride>;

/// A 1D array in global memory: v(i).
template <class T>
using GlobalVector = GlobalArray<T, 1>;
/// A row-major matrix with a pitch in global memory: m(row, col) at data[row * pitch + col].
template <class T>
using GlobalMatrix = GlobalArray<T, 2>;
/// A row-major volume with pitches in global memory: v(z, row, col) at data[z * slice_pitch + row * pitch + col].
template <class T>
using GlobalVolume = GlobalArray<T, 3>;

/// `size` elements at `data`.
template <class T>
SMEMTILE_HOST_DEVICE GlobalVector<T> make_global_vector(T* data, int size) {
  using Mapping = typename cuda::std::layout_stride::template mapping<cuda::std::dextents<int, 1>>;
  return GlobalVector<T>(data, Mapping(cuda::std::dextents<int, 1>(size), cuda::std::array<int, 1>{1}));
}

/// A rows x cols row-major matrix at `data` whose rows start `pitch` elements apart (pitch >= cols).
template <class T>
SMEMTILE_HOST_DEVICE GlobalMatrix<T> make_global_matrix(T* data, int rows, int cols, int pitch) {
  SMEMTILE_CHECK(pitch >= cols, "make_global_matrix: the pitch must be at least the row (values: pitch, cols)",
                 pitch, cols, 0, 0);
  using Mapping = typename cuda::std::layout_stride::template mapping<cuda::std::dextents<int, 2>>;
  return GlobalMatrix<T>(data, Mapping(cuda::std::dextents<int, 2>(rows, cols), cuda::std::array<int, 2>{pitch, 1}));
}
/// A dense rows x cols row-major matrix at `data`.
template <class T>
SMEMTILE_HOST_DEVICE GlobalMatrix<T> make_global_matrix(T* data, int rows, int cols) {
  return make_global_matrix(data, rows, cols, cols);
}

/// A depth x rows x cols row-major volume at `data`: rows `pitch` elements apart, planes
/// `slice_pitch` elements apart (pitch >= cols, slice_pitch >= rows * pitch).
template <class T>
SMEMTILE_HOST_DEVICE GlobalVolume<T> make_global_volume(T* data, int depth, int rows, int cols, int pitch,
                                                        int slice_pitch) {
  SMEMTILE_CHECK(pitch >= cols && static_cast<long long>(slice_pitch) >= static_cast<long long>(rows) * pitch,
                 "make_global_volume: pitches too small (values: pitch, cols, slice_pitch, rows)", pitch, cols,
                 slice_pitch, rows);
  using Mapping = typename cuda::std::layout_stride::template mapping<cuda::std::dextents<int, 3>>;
  return GlobalVolume<T>(data, Mapping(cuda::std::dextents<int, 3>(depth, rows, cols),
                                       cuda::std::array<int, 3>{slice_pitch, pitch, 1}));
}
/// A dense depth x rows x cols row-major volume at `data`.
template <class T>
SMEMTILE_HOST_DEVICE GlobalVolume<T> make_global_volume(T* data, int depth, int rows, int cols) {
  return make_global_volume(data, depth, rows, cols, cols, rows * cols);
}

/// Plane `z` of a volume, as a matrix (for copying 2D tiles out of 3D arrays).
template <class T, class Extents, class Layout, class Accessor>
SMEMTILE_HOST_DEVICE GlobalMatrix<typename Accessor::element_type> plane(
    const cuda::std::mdspan<T, Extents, Layout, Accessor>& volume, int z) {
  static_assert(Extents::rank() == 3, "smemtile::plane takes a rank-3 mdspan (depth, rows, cols)");
  SMEMTILE_CHECK(z >= 0 && z < static_cast<int>(volume.extent(0)), "plane: z outside the volume (values: z, depth)",
                 z, volume.extent(0), 0, 0);
  using Mapping = typename cuda::std::layout_stride::template mapping<cuda::std::dextents<int, 2>>;
  return GlobalMatrix<typename Accessor::element_type>(
      volume.data_handle() + static_cast<long long>(z) * volume.stride(0),
      Mapping(cuda::std::dextents<int, 2>(static_cast<int>(volume.extent(1)), static_cast<int>(volume.extent(2))),
              cuda::std::array<int, 2>{static_cast<int>(volume.stride(1)), static_cast<int>(volume.stride(2))}));
}

}  // namespace smemtile
