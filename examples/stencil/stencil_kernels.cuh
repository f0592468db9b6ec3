// examples/stencil/stencil_kernels.cuh: the lecture's three-point sum three ways, and stencils
// written with smemtile::device_stencil (block/stencil.cuh, device/stencil.cuh). Shared by the
// example program (stencil_examples.cu) and tests.
//
//   sum3_naive        the lecture's first kernel: every thread reads a[i-1], a[i], a[i+1] from
//                     global memory (zero outside the array)
//   sum3_shared       the lecture's shared-memory kernel: one element per thread in s_data, and
//                     the boundary branches for the block's edge threads (they read global memory)
//   sum3_smemtile     the same with smemtile: a StaticHaloTile1D filled halo included by
//                     copy_global_to_tile (boundary::zero), a body with no boundary branch, and an
//                     output tile stored with copy_tile_to_global
//   Sum3              the op for device_stencil<1, StencilShape::star> (the fourth way: no kernel)
//   Heat              one explicit step of the 2D heat equation (5-point Laplacian)
//   Laplace7          the 3D 7-point Laplacian
//   SecondDerivative8 the radius-4 3D star: eighth-order finite-difference d2/dx2 + d2/dy2 + d2/dz2
#pragma once

#include <smemtile/smemtile.cuh>

#include <type_traits>  // std::decay_t

namespace stencil_examples {

using namespace smemtile;

// ---- the lecture's sum3_kernel --------------------------------------------------------------------

inline constexpr int BLOCK_SIZE = 256;  // threads per block, one element each

// (a) naive: three global loads per thread. c[i] = a[i-1] + a[i] + a[i+1], zero outside [0, n).
__global__ void sum3_naive(int* c, const int* a, int n) {
  const int i = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  if (i >= n) return;
  int left, right;
  // load value at i-1
  left = 0;
  if (i > 0) left = a[i - 1];
  // load value at i+1
  right = 0;
  if (i < (n - 1)) right = a[i + 1];
  c[i] = left + a[i] + right;  // sum three values
}

// (b) the lecture's shared-memory version, boundary branches included: the block's first and last
// threads read their outer neighbour from global memory. (The lecture assumes n is a multiple of
// BLOCK_SIZE; the i < n tests make the last block safe.)
__global__ void sum3_shared(int* c, const int* a, int n) {
  __shared__ int s_data[BLOCK_SIZE];
  const int i = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  int left, right;
  s_data[threadIdx.x] = i < n ? a[i] : 0;
  __syncthreads();
  if (i >= n) return;
  // load value at i-1
  left = 0;
  if (i > 0) {
    if (threadIdx.x > 0)
      left = s_data[threadIdx.x - 1];
    else
      left = a[i - 1];
  }
  // load value at i+1
  right = 0;
  if (i < (n - 1)) {
    if (threadIdx.x < (BLOCK_SIZE - 1))
      right = s_data[threadIdx.x + 1];
    else
      right = a[i + 1];
  }
  c[i] = left + s_data[threadIdx.x] + right;  // sum
}

using Sum3Block = FixedThreadBlock<BLOCK_SIZE>;

// (c) smemtile: the halo tile holds t(-4) ... t(BLOCK_SIZE + 3); the copy fills it, zero outside the
// array, so the body has no branch. The output tile is stored with the copy, which writes only
// elements inside the array. Block: BLOCK_SIZE threads.
__global__ void sum3_smemtile(GlobalVector<int> c, GlobalVector<const int> a) {
  // A halo of 4 ints, not 1 (the stencil reads 1): the interior then starts 16 bytes into the
  // tile, as it does in the array, so the copy moves it with 16-byte loads and stores.
  __shared__ StaticHaloTile1D<int, BLOCK_SIZE, 4> t;
  __shared__ StaticTile1D<int, BLOCK_SIZE> result;
  const int origin = block_tile_origin_1d(BLOCK_SIZE);
  copy_global_to_tile(a, origin, t, boundary::zero, Sum3Block{});
  __syncthreads();
  const int i = static_cast<int>(threadIdx.x);
  result(i) = t(i - 1) + t(i) + t(i + 1);
  __syncthreads();
  copy_tile_to_global(result, c, origin, Sum3Block{});
}

// (d) no kernel at all: device_stencil<1, StencilShape::star>(a, c, boundary::zero, Sum3{}).
struct Sum3 {
  template <class N>
  __device__ auto operator()(const N& n) const {
    return n(-1) + n(0) + n(1);
  }
};

// ---- ops for device_stencil -------------------------------------------------------------------------

// One explicit Euler step of du/dt = laplacian(u) with dt / h^2 = alpha (stable for alpha <= 0.25).
struct Heat {
  float alpha;
  template <class N>
  __device__ float operator()(const N& n) const {
    const float u = n(0, 0);
    return u + alpha * (n(-1, 0) + n(0, -1) + n(0, 1) + n(1, 0) - 4.0f * u);
  }
};

// The 7-point Laplacian (grid spacing 1).
struct Laplace7 {
  template <class N>
  __device__ float operator()(const N& n) const {
    return n(-1, 0, 0) + n(1, 0, 0) + n(0, -1, 0) + n(0, 1, 0) + n(0, 0, -1) + n(0, 0, 1) - 6.0f * n(0, 0, 0);
  }
};

// The eighth-order central second derivative, summed over the three axes (grid spacing 1):
// d2u/dx2 ~ c0 u(0) + sum_k ck (u(-k) + u(k)), c0 = -205/72, c1 = 8/5, c2 = -1/5, c3 = 8/315, c4 = -1/560.
SMEMTILE_HOST_DEVICE constexpr double fd8_c(int k) {
  return k == 0 ? -205.0 / 72.0 : k == 1 ? 8.0 / 5.0 : k == 2 ? -1.0 / 5.0 : k == 3 ? 8.0 / 315.0 : -1.0 / 560.0;
}

struct SecondDerivative8 {
  template <class N>
  __device__ float operator()(const N& n) const {
    float sum = static_cast<float>(3.0 * fd8_c(0)) * n(0, 0, 0);
#pragma unroll
    for (int k = 1; k <= 4; ++k)
      sum += static_cast<float>(fd8_c(k)) *
             ((n(-k, 0, 0) + n(k, 0, 0)) + (n(0, -k, 0) + n(0, k, 0)) + (n(0, 0, -k) + n(0, 0, k)));
    return sum;
  }
};

}  // namespace stencil_examples
