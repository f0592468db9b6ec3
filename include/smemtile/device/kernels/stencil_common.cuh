/// \file
/// What device_stencil's kernels share: global element addresses, the
/// ring of tiles in dynamic shared memory, and the mapping of threads to points.
#pragma once

#include <cuda/std/mdspan>

#include "../../config.cuh"             // SMEMTILE_DEVICE
#include "../../core/arena.cuh"         // detail::dynamic_shared_memory_start
#include "../../core/coord.cuh"         // Coord
#include "../../core/global_view.cuh"   // GlobalArray
#include "../../core/tile_ref.cuh"      // TileRef

namespace smemtile {
namespace detail {

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

#if defined(__CUDACC__)

// The ring of tiles (or planes) of a 2D or 3D stencil in dynamic shared memory: slot i starts at
// i * slot_bytes from a 128-byte aligned base (TMA writes there).
template <class T, class Layout>
struct TileRing {
  static constexpr int slot_bytes = (Layout::storage_size() * static_cast<int>(sizeof(T)) + 127) / 128 * 128;
  unsigned char* base;
  SMEMTILE_DEVICE TileRef<T, Layout> operator[](int slot) const {
    return TileRef<T, Layout>{reinterpret_cast<T*>(base + slot * slot_bytes), Layout{}};
  }
};

// The block's dynamic shared memory (core/arena.cuh's one extern __shared__ array), aligned up to
// 128 bytes (the launch adds 128 bytes for it).
SMEMTILE_DEVICE unsigned char* aligned_dynamic_shared() {
  unsigned char* const start = dynamic_shared_memory_start();
  // The intrinsic, not shared_window_address: through the function nvcc 13.0 scheduled 18 of the
  // cp.async 3D kernels differently (same instructions); docs/tuning.md, "SASS guard".
  const unsigned misalignment = static_cast<unsigned>(__cvta_generic_to_shared(start)) & 127u;
  return start + ((128u - misalignment) & 127u);
}

// Point (j, i) of this thread in a tile of Rows rows (j < Rows / warps, i < cols / 32): Rows / warps
// consecutive rows per thread (neighbouring points share their reads along y), columns 32 apart (a
// warp reads and writes whole rows). The 2D and 3D kernels' one mapping of threads to points;
// Policy::warps (StencilTiledPolicy) is the one warp count.
template <class Policy, int Rows>
SMEMTILE_DEVICE Coord stencil_point(int j, int i) {
  static_assert(Rows % Policy::warps == 0, "Rows / warps rows per warp");
  return Coord{static_cast<int>(threadIdx.x) / 32 * (Rows / Policy::warps) + j, static_cast<int>(threadIdx.x) % 32 + 32 * i};
}

#endif  // __CUDACC__

}  // namespace detail
}  // namespace smemtile
