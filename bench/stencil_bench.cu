// stencil_bench: stencils on large 1D, 2D and 3D arrays, smemtile::device_stencil against cudaMemcpy
// device-to-device of the same bytes and hand-written peers, all measured in the same run (NVBench).
//
// Benchmarks (NVBench names; the states' names add the Case axis):
//   cudaMemcpy          cudaMemcpyAsync device-to-device of the array: the ceiling (one read and one
//                       write of every byte, as a stencil needs at least)
//   smemtile_stencil    smemtile::device_stencil<R, Shape>(in, out, boundary, op); axes Boundary
//                       {zero, clamp, periodic} and Path {selected: what device_stencil chooses (TMA on
//                       sm_90 and later where TMA can describe the array; the sweep first for
//                       separable boxes of doubles; else TMA by row classes
//                       where stencil_row_classes_selected, else the 2D stream where
//                       stencil_stream_selected, else cp.async), cp.async and stream: forced with
//                       StencilForcedLoader} (skipped for 1D, which has one path, stream for 3D, and
//                       where the selected path is the forced one already)
//   naive_global        one thread per point, every neighbour read from global memory (through L1
//                       and L2) with a bounds test (zero outside) or an index mapping (clamp,
//                       periodic): axis Boundary; blocks of 256 (1D) or 32 x 8 threads
//   smem_halo           the textbook shared-memory halo tile, one point per thread: 1D: 256 + 2R
//                       elements, the first R threads loading the halos; 2D: a (8 + 2R) x (32 + 2R)
//                       tile loaded by a block-strided loop; 3D: the same 2D tile of plane z per block
//                       (grid.z = depth) and the z neighbours read from global memory
//   hand_2_5d           3D only: the hand-written 2.5D sweep (Micikevicius): 32 x 8 threads, each
//                       owning one (y, x) column of a chunk of 64 planes, the current xy plane in
//                       shared memory (halo rows and columns loaded by the edge threads), the R planes
//                       behind and in front in registers, one new plane read per step
// Cases (the Case axis): 1D 3-point sum (int, float) on 2^28 elements; 2D 5-point Laplacian and
// 9-point box (3x3 Gaussian blur), float and double, 8192 x 8192; 3D 7-point Laplacian, float and
// double, 512^3; 3D radius-4 star (eighth-order second derivative summed over the axes), float,
// 512^3 and 376^3; 3D 27-point box (mean), float, 512^3 and 384^3, and double as a SeparableStencilOp
// (rows, then rows' sums, then planes' sums: the single-step sweep), 512^3 and 509 x 511 x 513 (no
// hand-written 3D peers: they read z neighbours on the axis only); odd shapes (rows, and planes, not multiples of 16 bytes: no TMA) of the 2D and
// 3D cases: 8191 x 8193 and 509 x 511 x 513 (radius-4 star: float only). Narrow elements, where
// the op accumulates in a wider type than the element: 2D 3x3 box blur of bytes (uint8_t: a
// SeparableStencilOp, rows of 3 summed in int, then 3 rows, divided by 9 rounding halves up) and 2D 5-point heat
// step of halves (__half: computed in float, rounded to a half once), 16384 x 16384 and the odd
// 16383 x 16385. smem_halo, hand_2_5d and cudaMemcpy have no Boundary axis: zero outside the
// array. The reference follows the state's boundary policy.
// GB/s counts one read and one write of the array (what cudaMemcpy moves for the same bytes).
// Inputs: pseudo-random (ints in [1, 2^20], bytes any value, halves, floats and doubles in [1, 2)).
// Every state poisons its output (all bits set: NaN, -1 for ints, 255 for bytes, a valid byte),
// runs its implementation once, and compares every element on the device with a reference computed
// by a simple kernel in double precision: ints and bytes exactly, halves within 2e-3, floats within
// 1e-5 and doubles within 1e-12 of (sum of |coefficients|) x max |input| (the implementations may
// add in different orders and contract to FMAs differently). A wrong element ends the program with
// "WRONG OUTPUT from ...": no number is reported for a wrong kernel.
#include <cuda_fp16.h>
#include <nvbench/nvbench.cuh>

#include <smemtile/smemtile.cuh>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <type_traits>
#include <vector>

#define SMEMTILE_BENCH_NAME "stencil_bench"
#include "bench_common.cuh"
#include "stencil_ops.cuh"  // value_of, Blur9, Box27

namespace {

using smemtile::StencilShape;

// x as a V, halves through float both ways (rounded to nearest even), other types by static_cast.
template <class V, class T>
__host__ __device__ V convert_to(T x) {
  if constexpr (std::is_same<T, __half>::value) return static_cast<V>(__half2float(x));
  else if constexpr (std::is_same<V, __half>::value) return __float2half_rn(static_cast<float>(x));
  else return static_cast<V>(x);
}

// The type the byte and half ops compute in: float for the implementations' elements (wider than
// the element), double for the reference's.
template <class V>
using accum_of = std::conditional_t<std::is_same<V, double>::value, double, float>;

// ---- ops: the same functors for every implementation -----------------------------------------------
// `n` is a neighbourhood: n(dx), n(dy, dx) or n(dz, dy, dx), and n.center(). The value type follows
// the neighbourhood (T for the implementations, double for the reference). value_of and Blur9 are
// stencil_ops.cuh's (shared with stencil_steps_bench).

struct Sum3 {  // 1D: a(i-1) + a(i) + a(i+1)
  static constexpr double abs_sum = 3;
  template <class N>
  __device__ auto operator()(const N& n) const {
    return n(-1) + n(0) + n(1);
  }
};

struct Laplace5 {  // 2D 5-point Laplacian
  static constexpr double abs_sum = 8;
  template <class N>
  __device__ auto operator()(const N& n) const {
    using V = value_of<N>;
    return n(-1, 0) + n(0, -1) + n(0, 1) + n(1, 0) - V(4) * n(0, 0);
  }
};

struct Laplace7 {  // 3D 7-point Laplacian
  static constexpr double abs_sum = 12;
  template <class N>
  __device__ auto operator()(const N& n) const {
    using V = value_of<N>;
    return n(-1, 0, 0) + n(1, 0, 0) + n(0, -1, 0) + n(0, 1, 0) + n(0, 0, -1) + n(0, 0, 1) - V(6) * n(0, 0, 0);
  }
};

// 2D 3x3 box blur of bytes: the mean, rounded to an integer (halves up), summed in int. Separable:
// smemtile's strips sum each row's three bytes once for the three points it serves; every
// implementation computes the same integers (the reference too, from doubles).
struct ByteBlur9 : smemtile::SeparableStencilOp<ByteBlur9> {
  static constexpr double abs_sum = 1;
  template <class Row>
  __device__ int across(const Row& row) const {
    return static_cast<int>(row(-1)) + static_cast<int>(row(0)) + static_cast<int>(row(1));
  }
  template <class Rows>
  __device__ int down(const Rows& rows) const {
    return (rows(-1) + rows(0) + rows(1) + 4) / 9;
  }
};

struct HalfHeat5 {  // 2D 5-point heat step of halves, computed in float, rounded to a half once
  static constexpr double abs_sum = 1;  // 0.6 (centre) + 4 x 0.1
  template <class N>
  __device__ auto operator()(const N& n) const {
    using V = value_of<N>;
    using A = accum_of<V>;
    const A c = convert_to<A>(n(0, 0));
    const A sides = (convert_to<A>(n(-1, 0)) + convert_to<A>(n(1, 0))) + (convert_to<A>(n(0, -1)) + convert_to<A>(n(0, 1)));
    return convert_to<V>(c + A(0.1) * (sides - A(4) * c));
  }
};

// Eighth-order central second derivative per axis, summed over x, y, z (grid spacing 1).
__host__ __device__ constexpr double fd8(int k) {
  return k == 0 ? -205.0 / 72.0 : k == 1 ? 8.0 / 5.0 : k == 2 ? -1.0 / 5.0 : k == 3 ? 8.0 / 315.0 : -1.0 / 560.0;
}

struct Star25 {  // 3D radius-4 star, 25 points
  static constexpr double abs_sum = 3 * 205.0 / 72.0 + 6 * (8.0 / 5.0 + 1.0 / 5.0 + 8.0 / 315.0 + 1.0 / 560.0);
  template <class N>
  __device__ auto operator()(const N& n) const {
    using V = value_of<N>;
    V sum = V(3 * fd8(0)) * n(0, 0, 0);
#pragma unroll
    for (int k = 1; k <= 4; ++k)
      sum += V(fd8(k)) * ((n(-k, 0, 0) + n(k, 0, 0)) + (n(0, -k, 0) + n(0, k, 0)) + (n(0, 0, -k) + n(0, 0, k)));
    return sum;
  }
};

// ---- neighbourhoods of the hand-written kernels ----------------------------------------------------

// The boundary policies benchmarked (the Boundary axis): boundary::zero, clamp, periodic.
enum Mode { kZero, kClamp, kPeriodic };
const std::vector<std::string> kBoundaries = {"zero", "clamp", "periodic"};

// Index i of an axis of n elements under a clamp or periodic Mode (inside: i).
template <int M>
__device__ int map_axis(int i, int n) {
  if (i >= 0 && i < n) return i;
  if constexpr (M == kClamp) return i < 0 ? 0 : n - 1;
  else return ((i % n) + n) % n;
}

// Global memory with a bounds test per neighbour (zero outside, or mapped by M), values converted to V
// (convert_to: halves through float).
template <class T, class V = T, int M = kZero>
struct Global1D {
  const T* __restrict__ a;
  int n, i;
  __device__ V operator()(int dx) const {
    const int j = i + dx;
    if constexpr (M != kZero) return convert_to<V>(a[map_axis<M>(j, n)]);
    else return j >= 0 && j < n ? convert_to<V>(a[j]) : V(0);
  }
  __device__ V center() const { return convert_to<V>(a[i]); }
};

template <class T, class V = T, int M = kZero>
struct Global2D {
  const T* __restrict__ a;
  int ny, nx, y, x;
  __device__ V operator()(int dy, int dx) const {
    const int yy = y + dy, xx = x + dx;
    if constexpr (M != kZero)
      return convert_to<V>(a[static_cast<long long>(map_axis<M>(yy, ny)) * nx + map_axis<M>(xx, nx)]);
    else return yy >= 0 && yy < ny && xx >= 0 && xx < nx ? convert_to<V>(a[static_cast<long long>(yy) * nx + xx]) : V(0);
  }
  __device__ V center() const { return (*this)(0, 0); }
};

template <class T, class V = T, int M = kZero>
struct Global3D {
  const T* __restrict__ a;
  int nz, ny, nx, z, y, x;
  __device__ V operator()(int dz, int dy, int dx) const {
    const int zz = z + dz, yy = y + dy, xx = x + dx;
    if constexpr (M != kZero)
      return convert_to<V>(
          a[(static_cast<long long>(map_axis<M>(zz, nz)) * ny + map_axis<M>(yy, ny)) * nx + map_axis<M>(xx, nx)]);
    else return zz >= 0 && zz < nz && yy >= 0 && yy < ny && xx >= 0 && xx < nx
               ? convert_to<V>(a[(static_cast<long long>(zz) * ny + yy) * nx + xx])
               : V(0);
  }
  __device__ V center() const { return (*this)(0, 0, 0); }
};

// Shared memory: p points at the centre, rows `stride` apart.
template <class T>
struct Shared1D {
  const T* p;
  __device__ T operator()(int dx) const { return p[dx]; }
  __device__ T center() const { return p[0]; }
};

template <class T>
struct Shared2D {
  const T* p;
  int stride;
  __device__ T operator()(int dy, int dx) const { return p[dy * stride + dx]; }
  __device__ T center() const { return p[0]; }
};

// 3D, textbook per-plane tile: the xy plane from shared memory, the z neighbours from global memory.
template <class T>
struct PlaneAndGlobal {
  const T* p;  // shared, the centre
  int stride;
  const T* __restrict__ column;  // global, the centre
  long long plane;               // elements per plane
  int z, nz;
  __device__ T operator()(int dz, int dy, int dx) const {
    if (dz == 0) return p[dy * stride + dx];
    const int zz = z + dz;
    return zz >= 0 && zz < nz ? column[dz * plane] : T(0);
  }
  __device__ T center() const { return p[0]; }
};

// 2.5D: the xy plane from shared memory, the z neighbours from registers.
template <int R, class T>
struct PlaneAndRegisters {
  const T* p;
  int stride;
  const T (&behind)[R];   // behind[k]: plane z - 1 - k
  const T (&infront)[R];  // infront[k]: plane z + 1 + k
  __device__ T operator()(int dz, int dy, int dx) const {
    if (dz == 0) return p[dy * stride + dx];
    return dz < 0 ? behind[-dz - 1] : infront[dz - 1];
  }
  __device__ T center() const { return p[0]; }
};

// ---- the hand-written kernels ---------------------------------------------------------------------

constexpr int kThreads1D = 256;
constexpr int kBX = 32, kBY = 8;  // 2D and 3D blocks
constexpr int kPlanesPerBlock = 64;  // hand_2_5d: planes per block along z

template <int M, class T, class Op>
__global__ void __launch_bounds__(kThreads1D) naive_1d(const T* __restrict__ in, T* __restrict__ out, int n, Op op) {
  const int i = static_cast<int>(blockIdx.x) * kThreads1D + static_cast<int>(threadIdx.x);
  if (i < n) out[i] = static_cast<T>(op(Global1D<T, T, M>{in, n, i}));
}

template <int M, class T, class Op>
__global__ void __launch_bounds__(kBX * kBY) naive_2d(const T* __restrict__ in, T* __restrict__ out, int ny, int nx, Op op) {
  const int x = static_cast<int>(blockIdx.x) * kBX + static_cast<int>(threadIdx.x);
  const int y = static_cast<int>(blockIdx.y) * kBY + static_cast<int>(threadIdx.y);
  if (x < nx && y < ny) out[static_cast<long long>(y) * nx + x] = static_cast<T>(op(Global2D<T, T, M>{in, ny, nx, y, x}));
}

template <int M, class T, class Op>
__global__ void __launch_bounds__(kBX * kBY) naive_3d(const T* __restrict__ in, T* __restrict__ out, int nz, int ny, int nx, Op op) {
  const int x = static_cast<int>(blockIdx.x) * kBX + static_cast<int>(threadIdx.x);
  const int y = static_cast<int>(blockIdx.y) * kBY + static_cast<int>(threadIdx.y);
  const int z = static_cast<int>(blockIdx.z);
  if (x < nx && y < ny)
    out[(static_cast<long long>(z) * ny + y) * nx + x] = static_cast<T>(op(Global3D<T, T, M>{in, nz, ny, nx, z, y, x}));
}

template <int R, class T, class Op>
__global__ void __launch_bounds__(kThreads1D) smem_halo_1d(const T* __restrict__ in, T* __restrict__ out, int n, Op op) {
  __shared__ T s[kThreads1D + 2 * R];
  const int t = static_cast<int>(threadIdx.x);
  const int i = static_cast<int>(blockIdx.x) * kThreads1D + t;
  s[t + R] = i < n ? in[i] : T(0);
  if (t < R) {  // the halos: R elements left of the block, R right of it
    const int left = i - R, right = i + kThreads1D;
    s[t] = left >= 0 && left < n ? in[left] : T(0);
    s[t + kThreads1D + R] = right < n ? in[right] : T(0);
  }
  __syncthreads();
  if (i < n) out[i] = static_cast<T>(op(Shared1D<T>{s + t + R}));
}

// The (kBY + 2R) x (kBX + 2R) tile at (y0 - R, x0 - R) of a plane, zero outside: a block-strided loop.
template <int R, class T>
__device__ void load_plane_tile(T* s, const T* __restrict__ plane, int ny, int nx, int y0, int x0) {
  constexpr int W = kBX + 2 * R, H = kBY + 2 * R;
  for (int k = static_cast<int>(threadIdx.y) * kBX + static_cast<int>(threadIdx.x); k < H * W; k += kBX * kBY) {
    const int yy = y0 - R + k / W, xx = x0 - R + k % W;
    s[k] = yy >= 0 && yy < ny && xx >= 0 && xx < nx ? plane[static_cast<long long>(yy) * nx + xx] : T(0);
  }
}

template <int R, class T, class Op>
__global__ void __launch_bounds__(kBX * kBY) smem_halo_2d(const T* __restrict__ in, T* __restrict__ out, int ny, int nx, Op op) {
  constexpr int W = kBX + 2 * R;
  __shared__ T s[(kBY + 2 * R) * W];
  const int x0 = static_cast<int>(blockIdx.x) * kBX, y0 = static_cast<int>(blockIdx.y) * kBY;
  load_plane_tile<R>(s, in, ny, nx, y0, x0);
  __syncthreads();
  const int tx = static_cast<int>(threadIdx.x), ty = static_cast<int>(threadIdx.y);
  const int x = x0 + tx, y = y0 + ty;
  if (x < nx && y < ny)
    out[static_cast<long long>(y) * nx + x] = static_cast<T>(op(Shared2D<T>{s + (ty + R) * W + tx + R, W}));
}

template <int R, class T, class Op>
__global__ void __launch_bounds__(kBX * kBY) smem_halo_3d(const T* __restrict__ in, T* __restrict__ out, int nz, int ny, int nx, Op op) {
  constexpr int W = kBX + 2 * R;
  __shared__ T s[(kBY + 2 * R) * W];
  const int x0 = static_cast<int>(blockIdx.x) * kBX, y0 = static_cast<int>(blockIdx.y) * kBY;
  const int z = static_cast<int>(blockIdx.z);
  const long long plane = static_cast<long long>(ny) * nx;
  load_plane_tile<R>(s, in + z * plane, ny, nx, y0, x0);
  __syncthreads();
  const int tx = static_cast<int>(threadIdx.x), ty = static_cast<int>(threadIdx.y);
  const int x = x0 + tx, y = y0 + ty;
  if (x < nx && y < ny) {
    const long long at = z * plane + static_cast<long long>(y) * nx + x;
    out[at] = static_cast<T>(op(PlaneAndGlobal<T>{s + (ty + R) * W + tx + R, W, in + at, plane, z, nz}));
  }
}

template <int R, class T, class Op>
__global__ void __launch_bounds__(kBX * kBY) hand_2_5d(const T* __restrict__ in, T* __restrict__ out, int nz, int ny, int nx, Op op) {
  constexpr int W = kBX + 2 * R;
  __shared__ T s[(kBY + 2 * R) * W];
  const int tx = static_cast<int>(threadIdx.x), ty = static_cast<int>(threadIdx.y);
  const int x = static_cast<int>(blockIdx.x) * kBX + tx, y = static_cast<int>(blockIdx.y) * kBY + ty;
  const int z0 = static_cast<int>(blockIdx.z) * kPlanesPerBlock;
  const int z1 = z0 + kPlanesPerBlock < nz ? z0 + kPlanesPerBlock : nz;
  const long long plane = static_cast<long long>(ny) * nx;
  const auto at = [&](int zz, int yy, int xx) -> T {
    return zz >= 0 && zz < nz && yy >= 0 && yy < ny && xx >= 0 && xx < nx
               ? in[zz * plane + static_cast<long long>(yy) * nx + xx]
               : T(0);
  };
  T behind[R], infront[R];
  T current = at(z0, y, x);
#pragma unroll
  for (int k = 0; k < R; ++k) {
    behind[k] = at(z0 - 1 - k, y, x);
    infront[k] = at(z0 + 1 + k, y, x);
  }
  T* centre = s + (ty + R) * W + tx + R;
  for (int z = z0; z < z1; ++z) {
    // The xy plane z: every thread its point, the edge threads the halo rows and columns.
    if (ty < R) {
      s[ty * W + tx + R] = at(z, y - R, x);
      s[(ty + kBY + R) * W + tx + R] = at(z, y + kBY, x);
    }
    if (tx < R) {
      s[(ty + R) * W + tx] = at(z, y, x - R);
      s[(ty + R) * W + tx + kBX + R] = at(z, y, x + kBX);
    }
    *centre = current;
    __syncthreads();
    if (x < nx && y < ny)
      out[z * plane + static_cast<long long>(y) * nx + x] =
          static_cast<T>(op(PlaneAndRegisters<R, T>{centre, W, behind, infront}));
    __syncthreads();  // the next plane overwrites the tile
    // Move along z: one new plane read per step, R planes ahead.
#pragma unroll
    for (int k = R - 1; k > 0; --k) behind[k] = behind[k - 1];
    behind[0] = current;
    current = infront[0];
#pragma unroll
    for (int k = 0; k < R - 1; ++k) infront[k] = infront[k + 1];
    infront[R - 1] = at(z + 1 + R, y, x);
  }
}

// ---- data, reference, check -------------------------------------------------------------------------

// Pseudo-random values: ints in [1, 2^20], bytes any value, halves, floats and doubles in [1, 2).
template <class T>
__global__ void fill_random(T* a, long long count, unsigned seed) {
  for (long long i = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x; i < count;
       i += static_cast<long long>(gridDim.x) * blockDim.x) {
    const unsigned h = random_word(i, seed);
    if constexpr (std::is_same<T, float>::value) {
      a[i] = __uint_as_float(0x3f800000u | (h & 0x7fffffu));
    } else if constexpr (std::is_same<T, double>::value) {
      const unsigned long long bits = 0x3ff0000000000000ull | (static_cast<unsigned long long>(h) << 20) |
                                      (hash32(h ^ 0x9e3779b9u) & 0xfffffu);
      a[i] = __longlong_as_double(static_cast<long long>(bits));
    } else if constexpr (std::is_same<T, __half>::value) {
      a[i] = __ushort_as_half(static_cast<unsigned short>(0x3c00u | (h & 0x3ffu)));
    } else if constexpr (sizeof(T) == 1) {
      a[i] = static_cast<T>(h >> 24);
    } else {
      a[i] = static_cast<T>((h & 0xfffffu) + 1u);
    }
  }
}

// The reference: one point per thread (grid-stride), every neighbour from global memory with a
// bounds test, in double precision.
template <int Rank, int M, class T, class Op>
__global__ void reference_kernel(const T* __restrict__ in, double* __restrict__ ref, int nz, int ny, int nx, Op op) {
  const long long count = static_cast<long long>(nz) * ny * nx;
  for (long long i = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x; i < count;
       i += static_cast<long long>(gridDim.x) * blockDim.x) {
    const int x = static_cast<int>(i % nx);
    const int y = static_cast<int>((i / nx) % ny);
    const int z = static_cast<int>(i / (static_cast<long long>(nx) * ny));
    if constexpr (Rank == 1) {
      ref[i] = op(Global1D<T, double, M>{in, nx, x});
    } else if constexpr (Rank == 2) {
      ref[i] = op(Global2D<T, double, M>{in, ny, nx, y, x});
    } else {
      ref[i] = op(Global3D<T, double, M>{in, nz, ny, nx, z, y, x});
    }
  }
}

// Counts elements with !(|out - ref| <= tolerance) (NaN included); the first such index.
template <class T, class Ref>
__global__ void count_wrong(const T* out, const Ref* ref, long long count, double tolerance,
                            unsigned long long* wrong, unsigned long long* first) {
  for (long long i = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x; i < count;
       i += static_cast<long long>(gridDim.x) * blockDim.x) {
    const double got = convert_to<double>(out[i]), want = convert_to<double>(ref[i]);
    if (!(fabs(got - want) <= tolerance)) {
      atomicAdd(wrong, 1ull);
      atomicMin(first, static_cast<unsigned long long>(i));
    }
  }
}

constexpr int kHelperBlocks = 2048;

template <class T, class Ref>
void check(const T* out, const Ref* ref, long long count, double tolerance, const std::string& what) {
  const Mismatches result = count_on_device([&](unsigned long long* wrong, unsigned long long* first) {
    count_wrong<<<kHelperBlocks, kHelperThreads>>>(out, ref, count, tolerance, wrong, first);
  });
  if (result.count != 0) {
    T got{};
    Ref want{};
    CUDA_CHECK(cudaMemcpy(&got, out + result.first, sizeof(T), cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(&want, ref + result.first, sizeof(Ref), cudaMemcpyDeviceToHost));
    std::fprintf(stderr,
                 "stencil_bench: WRONG OUTPUT from %s: %llu of %lld elements differ by more than %.3g, first at "
                 "index %llu: %.17g, expected %.17g\n",
                 what.c_str(), result.count, count, tolerance, result.first, convert_to<double>(got),
                 convert_to<double>(want));
    std::exit(EXIT_FAILURE);
  }
  std::printf("stencil_bench: %s: output checked (%lld elements within %.3g of the reference)\n", what.c_str(), count,
              tolerance);
  std::fflush(stdout);
}

// ---- cases -------------------------------------------------------------------------------------------

enum class Impl { memcpy, smemtile, naive, smem_halo, hand_2_5d };

template <class T_, int Rank_, int Radius_, StencilShape Shape_, class Op_>
struct Case {
  using T = T_;
  using Op = Op_;
  static constexpr int rank = Rank_, radius = Radius_;
  static constexpr StencilShape shape = Shape_;
};

// The Case axis: name -> (case type, extents nz x ny x nx).
const std::vector<std::string> kCases = {
    "1D-3pt-I32-2^28",    "1D-3pt-F32-2^28",   "2D-5pt-F32-8192^2", "2D-5pt-F64-8192^2", "2D-9box-F32-8192^2",
    "2D-9box-F64-8192^2", "3D-7pt-F32-512^3", "3D-7pt-F64-512^3",  "3D-r4-F32-512^3",   "3D-r4-F32-376^3",
    "3D-27box-F32-512^3", "3D-27box-F32-384^3",
    // doubles: the 27-point mean as a SeparableStencilOp (one pass of the register sweep)
    "3D-27box-F64-sep-512^3", "3D-27box-F64-sep-509x511x513",
    // odd shapes: rows (2D) and rows and planes (3D) not multiples of 16 bytes (no TMA), odd extents
    "2D-5pt-F32-8191x8193", "2D-5pt-F64-8191x8193", "2D-9box-F32-8191x8193", "2D-9box-F64-8191x8193",
    "3D-7pt-F32-509x511x513", "3D-7pt-F64-509x511x513", "3D-r4-F32-509x511x513",
    // bytes and halves (the ops compute in float), aligned and odd
    "2D-9box-U8-16384^2", "2D-9box-U8-16383x16385", "2D-5pt-F16-16384^2", "2D-5pt-F16-16383x16385"};

// smemtile's Path axis: the selected path (TMA on sm_90 and later where TMA can describe the
// array), or cp.async or the 2D stream forced (StencilForcedLoader).
const std::vector<std::string> kPaths = {"selected", "cp.async", "stream"};
enum class Path { selected, cp_async, stream };

struct Extents {
  int nz, ny, nx;
  long long count() const { return static_cast<long long>(nz) * ny * nx; }
};

// One state: implementation `impl` of case C under boundary mode M; `path`: smemtile's selected
// path or one forced (StencilForcedLoader).
template <class C, int M>
void run_case(nvbench::state& state, Impl impl, Extents e, Path path) {
  using T = typename C::T;
  using Op = typename C::Op;
  constexpr int R = C::radius;
  const long long count = e.count();
  const std::string what = state.get_benchmark().get_name() + " " + state.get_short_description();
  if (impl == Impl::hand_2_5d && C::rank != 3) {
    state.skip("the 2.5D kernel is for 3D cases");
    return;
  }
  if ((impl == Impl::hand_2_5d || impl == Impl::smem_halo) && C::rank == 3 && C::shape == StencilShape::box) {
    state.skip("the hand-written 3D kernels read z neighbours on the z axis only (stars)");
    return;
  }
  state.add_global_memory_reads<T>(static_cast<size_t>(count));
  state.add_global_memory_writes<T>(static_cast<size_t>(count));
  T* in = device_alloc<T>(count);
  T* out = device_alloc<T>(count);
  fill_random<<<kHelperBlocks, kHelperThreads>>>(in, count, 0x5eed0000u + static_cast<unsigned>(sizeof(T)));
  CUDA_CHECK(cudaGetLastError());
  // Poison: NaN for halves, floats and doubles, -1 for ints; 255 for bytes is a valid value, so an
  // unwritten byte goes unseen only where 255 is expected: cudaMemcpy where the input is 255, never
  // in practice for the box blur (a sum of at least 2291 of at most 2295, about 1e-19 per element).
  CUDA_CHECK(cudaMemset(out, 0xff, static_cast<size_t>(count) * sizeof(T)));

  if (impl == Impl::memcpy) {
    const size_t bytes = static_cast<size_t>(count) * sizeof(T);
    CUDA_CHECK(cudaMemcpy(out, in, bytes, cudaMemcpyDeviceToDevice));
    check(out, in, count, 0.0, what);
    state.exec([&](nvbench::launch& launch) {
      cudaMemcpyAsync(out, in, bytes, cudaMemcpyDeviceToDevice, launch.get_stream());
    });
  } else {
    double* ref = device_alloc<double>(count);
    reference_kernel<C::rank, M, T><<<kHelperBlocks, kHelperThreads>>>(in, ref, e.nz, e.ny, e.nx, Op{});
    CUDA_CHECK(cudaGetLastError());
    // ints and bytes (integral): exact; halves (a few ulps of 2^-10 at [1, 2)), floats and doubles:
    // relative to the largest possible magnitude of a result.
    const double tolerance =
        std::is_integral<T>::value
            ? 0.0
            : (std::is_same<T, __half>::value ? 2e-3 : std::is_same<T, float>::value ? 1e-5 : 1e-12) * Op::abs_sum * 2.0;
    // One launch of the implementation on `stream`.
    const auto launch_impl = [&](cudaStream_t stream) {
      const unsigned gx = static_cast<unsigned>((e.nx + kBX - 1) / kBX), gy = static_cast<unsigned>((e.ny + kBY - 1) / kBY);
      switch (impl) {
        case Impl::smemtile: {
          const auto boundary = [] {
            if constexpr (M == kZero) return smemtile::boundary::Zero{};
            else if constexpr (M == kClamp) return smemtile::boundary::Clamp{};
            else return smemtile::boundary::Periodic{};
          }();
          const auto call = [&](auto src, auto dst) {
            using smemtile::StencilForcedLoader;
            using smemtile::StencilLoader;
            if (path == Path::cp_async)
              return smemtile::device_stencil<R, C::shape>(StencilForcedLoader<StencilLoader::cp_async>{}, src, dst,
                                                           boundary, Op{}, stream);
            if constexpr (C::rank == 2) {
              if (path == Path::stream)
                return smemtile::device_stencil<R, C::shape>(StencilForcedLoader<StencilLoader::stream>{}, src, dst,
                                                             boundary, Op{}, stream);
            }
            return smemtile::device_stencil<R, C::shape>(src, dst, boundary, Op{}, stream);
          };
          smemtile::LaunchStatus status;
          if constexpr (C::rank == 1) {
            status = call(smemtile::make_global_vector<const T>(in, e.nx), smemtile::make_global_vector(out, e.nx));
          } else if constexpr (C::rank == 2) {
            status = call(smemtile::make_global_matrix<const T>(in, e.ny, e.nx), smemtile::make_global_matrix(out, e.ny, e.nx));
          } else {
            status = call(smemtile::make_global_volume<const T>(in, e.nz, e.ny, e.nx),
                          smemtile::make_global_volume(out, e.nz, e.ny, e.nx));
          }
          if (!status) {
            std::fprintf(stderr, "stencil_bench: %s: %s\n", what.c_str(), status.message.c_str());
            std::exit(EXIT_FAILURE);
          }
          break;
        }
        case Impl::naive:
          if constexpr (C::rank == 1)
            naive_1d<M><<<static_cast<unsigned>((e.nx + kThreads1D - 1) / kThreads1D), kThreads1D, 0, stream>>>(in, out, e.nx, Op{});
          else if constexpr (C::rank == 2)
            naive_2d<M><<<dim3(gx, gy), dim3(kBX, kBY), 0, stream>>>(in, out, e.ny, e.nx, Op{});
          else
            naive_3d<M><<<dim3(gx, gy, static_cast<unsigned>(e.nz)), dim3(kBX, kBY), 0, stream>>>(in, out, e.nz, e.ny, e.nx, Op{});
          break;
        case Impl::smem_halo:
          if constexpr (C::rank == 1)
            smem_halo_1d<R><<<static_cast<unsigned>((e.nx + kThreads1D - 1) / kThreads1D), kThreads1D, 0, stream>>>(in, out, e.nx, Op{});
          else if constexpr (C::rank == 2)
            smem_halo_2d<R><<<dim3(gx, gy), dim3(kBX, kBY), 0, stream>>>(in, out, e.ny, e.nx, Op{});
          else
            smem_halo_3d<R><<<dim3(gx, gy, static_cast<unsigned>(e.nz)), dim3(kBX, kBY), 0, stream>>>(in, out, e.nz, e.ny, e.nx, Op{});
          break;
        case Impl::hand_2_5d:
          if constexpr (C::rank == 3)
            hand_2_5d<R><<<dim3(gx, gy, static_cast<unsigned>((e.nz + kPlanesPerBlock - 1) / kPlanesPerBlock)),
                           dim3(kBX, kBY), 0, stream>>>(in, out, e.nz, e.ny, e.nx, Op{});
          break;
        default:
          break;
      }
    };
    launch_impl(0);
    CUDA_CHECK_LAUNCH();
    check(out, ref, count, tolerance, what);
    CUDA_CHECK(cudaFree(ref));  // before timing: the timed runs need only in and out
    state.exec([&](nvbench::launch& launch) { launch_impl(launch.get_stream()); });
  }
  CUDA_CHECK(cudaDeviceSynchronize());
  CUDA_CHECK(cudaFree(in));
  CUDA_CHECK(cudaFree(out));
}

// Case C in the state's boundary mode and path (axes of smemtile_stencil and naive_global only).
template <class C>
void run_mode(nvbench::state& state, Impl impl, Extents e) {
  const bool axes = impl == Impl::smemtile || impl == Impl::naive;
  const std::string b = axes ? state.get_string("Boundary") : std::string("zero");
  const std::string p = impl == Impl::smemtile ? state.get_string("Path") : std::string("selected");
  const Path path = p == "cp.async" ? Path::cp_async : p == "stream" ? Path::stream : Path::selected;
  if (path != Path::selected && C::rank == 1) {
    state.skip("1D stencils have one path (sync loads)");
    return;
  }
  if (path == Path::stream && C::rank != 2) {
    state.skip("the stream is a 2D path");
    return;
  }
  // Rows TMA cannot describe whole select the single-step sweep where stencil_sweep_single_selected
  // (sm_80; the bench's volumes are large enough), else TMA by row classes (sm_90, where
  // stencil_row_classes_selected; the bench's volumes have dense planes), else the stream where
  // stencil_stream_selected, else cp.async.
  using T = typename C::T;
  const bool sweep = smemtile::stencil_sweep_single_selected(C::rank, sizeof(T), C::radius, C::shape,
                                                             smemtile::is_separable_stencil_op<typename C::Op>) &&
                     device_cc_major() >= 8 && e.count() >= smemtile::stencil_sweep_single_min_points;
  const bool unaligned = !sweep && e.nx * static_cast<long long>(sizeof(T)) % 16 != 0;
  const bool row_classes = smemtile::stencil_row_classes_selected<C::rank, sizeof(T), C::radius, C::shape> &&
                           device_cc_major() >= 9 && e.ny >= 16 / static_cast<int>(sizeof(T));
  const bool stream_selected =
      !row_classes && smemtile::stencil_stream_selected(C::rank, sizeof(T), C::radius, C::shape);
  if (unaligned && !row_classes && path != Path::selected && (path == Path::stream) == stream_selected) {
    state.skip("rows of this array are not multiples of 16 bytes: TMA cannot describe it, and the selected path is this one");
    return;
  }
  if (b == "clamp") return run_case<C, kClamp>(state, impl, e, path);
  if (b == "periodic") return run_case<C, kPeriodic>(state, impl, e, path);
  return run_case<C, kZero>(state, impl, e, path);
}

void dispatch(nvbench::state& state, Impl impl) {
  print_device_once();
  const std::string c = state.get_string("Case");
  using S = StencilShape;
  using Sum3I = Case<int, 1, 1, S::star, Sum3>;
  using Sum3F = Case<float, 1, 1, S::star, Sum3>;
  using Lap5F = Case<float, 2, 1, S::star, Laplace5>;
  using Lap5D = Case<double, 2, 1, S::star, Laplace5>;
  using Box9F = Case<float, 2, 1, S::box, Blur9>;
  using Box9D = Case<double, 2, 1, S::box, Blur9>;
  using Lap7F = Case<float, 3, 1, S::star, Laplace7>;
  using Lap7D = Case<double, 3, 1, S::star, Laplace7>;
  using Star25F = Case<float, 3, 4, S::star, Star25>;
  using Box27F = Case<float, 3, 1, S::box, Box27>;
  using SepBox27D = Case<double, 3, 1, S::box, SeparableBox27>;
  using Box9U8 = Case<std::uint8_t, 2, 1, S::box, ByteBlur9>;
  using Heat5H = Case<__half, 2, 1, S::star, HalfHeat5>;
  const Extents square{1, 8192, 8192}, odd2{1, 8191, 8193}, cube{512, 512, 512}, odd3{509, 511, 513};
  const Extents square16k{1, 16384, 16384}, odd16k{1, 16383, 16385};  // bytes and halves
  if (c == "1D-3pt-I32-2^28") return run_mode<Sum3I>(state, impl, {1, 1, 1 << 28});
  if (c == "1D-3pt-F32-2^28") return run_mode<Sum3F>(state, impl, {1, 1, 1 << 28});
  if (c == "2D-5pt-F32-8192^2") return run_mode<Lap5F>(state, impl, square);
  if (c == "2D-5pt-F64-8192^2") return run_mode<Lap5D>(state, impl, square);
  if (c == "2D-9box-F32-8192^2") return run_mode<Box9F>(state, impl, square);
  if (c == "2D-9box-F64-8192^2") return run_mode<Box9D>(state, impl, square);
  if (c == "3D-7pt-F32-512^3") return run_mode<Lap7F>(state, impl, cube);
  if (c == "3D-7pt-F64-512^3") return run_mode<Lap7D>(state, impl, cube);
  if (c == "3D-r4-F32-512^3") return run_mode<Star25F>(state, impl, cube);
  if (c == "3D-r4-F32-376^3") return run_mode<Star25F>(state, impl, {376, 376, 376});
  if (c == "3D-27box-F32-512^3") return run_mode<Box27F>(state, impl, cube);
  if (c == "3D-27box-F32-384^3") return run_mode<Box27F>(state, impl, {384, 384, 384});
  if (c == "3D-27box-F64-sep-512^3") return run_mode<SepBox27D>(state, impl, cube);
  if (c == "3D-27box-F64-sep-509x511x513") return run_mode<SepBox27D>(state, impl, odd3);
  if (c == "2D-5pt-F32-8191x8193") return run_mode<Lap5F>(state, impl, odd2);
  if (c == "2D-5pt-F64-8191x8193") return run_mode<Lap5D>(state, impl, odd2);
  if (c == "2D-9box-F32-8191x8193") return run_mode<Box9F>(state, impl, odd2);
  if (c == "2D-9box-F64-8191x8193") return run_mode<Box9D>(state, impl, odd2);
  if (c == "3D-7pt-F32-509x511x513") return run_mode<Lap7F>(state, impl, odd3);
  if (c == "3D-7pt-F64-509x511x513") return run_mode<Lap7D>(state, impl, odd3);
  if (c == "3D-r4-F32-509x511x513") return run_mode<Star25F>(state, impl, odd3);
  if (c == "2D-9box-U8-16384^2") return run_mode<Box9U8>(state, impl, square16k);
  if (c == "2D-9box-U8-16383x16385") return run_mode<Box9U8>(state, impl, odd16k);
  if (c == "2D-5pt-F16-16384^2") return run_mode<Heat5H>(state, impl, square16k);
  if (c == "2D-5pt-F16-16383x16385") return run_mode<Heat5H>(state, impl, odd16k);
  state.skip("unknown Case (see stencil_bench.cu's kCases)");
}

void bench_memcpy(nvbench::state& state) { dispatch(state, Impl::memcpy); }
void bench_smemtile(nvbench::state& state) { dispatch(state, Impl::smemtile); }
void bench_naive(nvbench::state& state) { dispatch(state, Impl::naive); }
void bench_smem_halo(nvbench::state& state) { dispatch(state, Impl::smem_halo); }
void bench_hand_2_5d(nvbench::state& state) { dispatch(state, Impl::hand_2_5d); }

}  // namespace

NVBENCH_BENCH(bench_memcpy).set_name("cudaMemcpy").add_string_axis("Case", kCases);
NVBENCH_BENCH(bench_smemtile)
    .set_name("smemtile_stencil")
    .add_string_axis("Case", kCases)
    .add_string_axis("Boundary", kBoundaries)
    .add_string_axis("Path", kPaths);
NVBENCH_BENCH(bench_naive).set_name("naive_global").add_string_axis("Case", kCases).add_string_axis("Boundary", kBoundaries);
NVBENCH_BENCH(bench_smem_halo).set_name("smem_halo").add_string_axis("Case", kCases);
NVBENCH_BENCH(bench_hand_2_5d).set_name("hand_2_5d").add_string_axis("Case", kCases);
