// stencil_steps_bench: time-stepped stencils (issue 26), smemtile::device_stencil_steps against the
// library's single-step call looped, a naive loop, and cudaMemcpy device-to-device of one step's
// bytes, all measured in the same run (NVBench).
//
// Benchmarks (the states' names add the Case, Boundary and Steps axes):
//   cudaMemcpy            cudaMemcpyAsync device-to-device of the array: one step's ceiling (one read
//                         and one write of every byte)
//   smemtile_steps        device_stencil_steps<R, Shape>(buffers, Steps, boundary, op): the selector's
//                         policy (2D: fused passes; 3D 7-point and 27-point box (a separable
//                         op): the z sweeps; see docs/stencil-steps.md);
//                         Steps 1, 2, 4, 8, 16, 64
//   smemtile_steps_3d_fused  3D only: device_stencil_steps with the default 3D fused policy passed by
//                         the caller (what the selector declines)
//   smemtile_steps_3d_sweep  3D only: device_stencil_steps with a StencilSweepPolicy passed by the
//                         caller (Sweep: which of four, SweepVariant; stars: 1 is the selector's
//                         register sweep, 0 the planes scheme's); Steps 8, 64
//   single_step_loop      Steps device_stencil calls, ping-ponging two arrays (Steps 1: the
//                         baseline of smemtile_steps at 1; 8)
//   naive_loop            Steps launches of a kernel reading every neighbour from global memory, one
//                         point per thread, the boundary by index mapping or a test (Steps 8)
// Per-step throughput: GlobalMem BW counts one read and one write of the array per step, so its
// ratio to cudaMemcpy's is the multiple of the copy speed per step (the issue's figure).
// Every smemtile_steps state first checks its result against the same number of device_stencil
// calls, bit for bit, on the device; a difference ends the program with "WRONG OUTPUT".
#include <nvbench/nvbench.cuh>

#include <smemtile/smemtile.cuh>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <type_traits>
#include <vector>

#define SMEMTILE_BENCH_NAME "stencil_steps_bench"
#include "bench_common.cuh"
#include "stencil_ops.cuh"  // value_of, SeparableBlur9, SeparableBox27, Heat7

namespace {

using smemtile::StencilShape;

struct Heat5 {  // 2D heat step, 5 points
  template <class N>
  __device__ auto operator()(const N& n) const {
    using V = value_of<N>;
    return n(0, 0) + V(0.2) * (n(-1, 0) + n(1, 0) + n(0, -1) + n(0, 1) - V(4) * n(0, 0));
  }
};

enum Mode { kZero, kClamp };
const std::vector<std::string> kBoundaries = {"zero", "clamp"};

// ---- the naive loop's kernel: neighbours from global memory --------------------------------------------
template <class T, int Rank>
struct GlobalN {
  static constexpr int rank = Rank;  // it takes n(dy, dx) and n(dz, dy, dx): a SeparableStencilOp asks
  const T* a;
  int nz, ny, nx, z, y, x, mode;
  __device__ T at(int dz, int dy, int dx) const {
    int zz = z + dz, yy = y + dy, xx = x + dx;
    const bool inside = zz >= 0 && zz < nz && yy >= 0 && yy < ny && xx >= 0 && xx < nx;
    if (!inside && mode == kZero) return T(0);
    zz = zz < 0 ? 0 : zz >= nz ? nz - 1 : zz;
    yy = yy < 0 ? 0 : yy >= ny ? ny - 1 : yy;
    xx = xx < 0 ? 0 : xx >= nx ? nx - 1 : xx;
    return a[(static_cast<long long>(zz) * ny + yy) * nx + xx];
  }
  __device__ T operator()(int dy, int dx) const { return at(0, dy, dx); }
  __device__ T operator()(int dz, int dy, int dx) const { return at(dz, dy, dx); }
  __device__ T center() const { return at(0, 0, 0); }
};
template <class T, int Rank, class Op>
__global__ void naive_step(const T* in, T* out, int nz, int ny, int nx, int mode, Op op) {
  const int x = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x), y = static_cast<int>(blockIdx.y);
  const int z = static_cast<int>(blockIdx.z);
  if (x >= nx) return;
  out[(static_cast<long long>(z) * ny + y) * nx + x] = static_cast<T>(op(GlobalN<T, Rank>{in, nz, ny, nx, z, y, x, mode}));
}

// An element's bits (floats compared as their representation: NaN equals NaN of the same bits).
template <class T>
__device__ unsigned long long bits_of(T v) {
  unsigned long long bits = 0;
  __builtin_memcpy(&bits, &v, sizeof(T));
  return bits;
}

// Differences between two arrays, bit for bit.
template <class T>
__global__ void count_different(const T* a, const T* b, long long n, unsigned long long* count, unsigned long long* first) {
  for (long long i = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x; i < n; i += gridDim.x * static_cast<long long>(blockDim.x))
    if (bits_of(a[i]) != bits_of(b[i])) {
      atomicAdd(count, 1ull);
      atomicMin(first, static_cast<unsigned long long>(i));
    }
}
template <class T>
__global__ void fill_random(T* a, long long n, unsigned seed) {
  for (long long i = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x; i < n; i += gridDim.x * static_cast<long long>(blockDim.x))
    a[i] = static_cast<T>(1.0 + (random_word(i, seed) >> 8) * (1.0 / (1 << 24)));
}

// ---- cases ---------------------------------------------------------------------------------------------
const std::vector<std::string> kCases = {"2D-5pt-F32-8192^2",  "2D-5pt-F32-8191x8193", "2D-9pt-F32-8192^2",
                                         "2D-9pt-F32-8191x8193", "2D-5pt-F64-8192^2", "2D-5pt-F64-8191x8193",
                                         "3D-7pt-F32-512^3",   "3D-7pt-F32-503x517x499", "3D-7pt-F64-512^3",
                                         "3D-27pt-F32-384^3", "3D-7pt-F32-256^3", "3D-7pt-F32-128^3",
                                         "3D-7pt-F64-256^3"};

enum Impl { kSteps, kSteps3dFused, kSteps3dSweep, kSingle, kNaive, kMemcpy };

// The sweep policies the benchmark races, by element size and shape: star stencils the selector's
// register sweep (1) beside the planes scheme's former default (0) and two more register shapes
// (floats: 3 is the selector's policy for rows off 16 bytes, DefaultStencilSweepPolicy's
// unaligned_type; doubles: 3 is the selector's policy at depth 2); boxes (a separable op) the selector's register sweep
// of plane partials (1) and three shapes of the planes scheme (90-220 KB).
constexpr auto kRegisters = smemtile::StencilSweepCompute::registers;
template <int ElemBytes, int Variant, StencilShape S>
struct SweepVariant;
template <> struct SweepVariant<4, 0, StencilShape::star> { using type = smemtile::StencilSweepPolicy<3, 32, 64, 64>; };
template <> struct SweepVariant<4, 1, StencilShape::star> { using type = smemtile::DefaultStencilSweepPolicy<4, 1, StencilShape::star>::type; };
template <> struct SweepVariant<4, 2, StencilShape::star> { using type = smemtile::StencilSweepPolicy<4, 64, 64, 64, 512, 1, kRegisters>; };
template <> struct SweepVariant<4, 3, StencilShape::star> { using type = smemtile::DefaultStencilSweepPolicy<4, 1, StencilShape::star>::unaligned_type; };
template <> struct SweepVariant<8, 0, StencilShape::star> { using type = smemtile::StencilSweepPolicy<2, 20, 64, 64>; };
template <> struct SweepVariant<8, 1, StencilShape::star> { using type = smemtile::DefaultStencilSweepPolicy<8, 1, StencilShape::star>::type; };
template <> struct SweepVariant<8, 2, StencilShape::star> { using type = smemtile::StencilSweepPolicy<2, 32, 64, 64, 512, 1, kRegisters>; };
template <> struct SweepVariant<8, 3, StencilShape::star> { using type = smemtile::StencilSweepPolicy<2, 32, 32, 64, 256, 2, kRegisters>; };
template <> struct SweepVariant<4, 0, StencilShape::box> { using type = smemtile::StencilSweepPolicy<4, 24, 64, 64>; };
template <> struct SweepVariant<4, 1, StencilShape::box> { using type = smemtile::DefaultStencilSweepPolicy<4, 1, StencilShape::box, true>::type; };
template <> struct SweepVariant<4, 2, StencilShape::box> { using type = smemtile::StencilSweepPolicy<4, 48, 64, 64, 512, 1>; };
template <> struct SweepVariant<4, 3, StencilShape::box> { using type = smemtile::StencilSweepPolicy<3, 64, 64, 64, 512, 1>; };

template <int Rank, int R, StencilShape S, class T, class Op>
void run(nvbench::state& state, Impl impl, int nz, int ny, int nx) {
  print_device_once();
  const long long n = static_cast<long long>(nz) * ny * nx;
  T* a = device_alloc<T>(n);
  T* b = device_alloc<T>(n);
  T* c = device_alloc<T>(n);
  T* d = device_alloc<T>(n);
  fill_random<<<1024, 256>>>(a, n, 7);
  CUDA_CHECK_LAUNCH();
  const int steps = impl == kMemcpy ? 1 : static_cast<int>(state.get_int64("Steps"));
  const int mode = impl == kMemcpy ? kZero : (state.get_string("Boundary") == "zero" ? kZero : kClamp);
  const auto view = [&](T* p) {
    if constexpr (Rank == 2) return smemtile::make_global_matrix(p, ny, nx);
    else return smemtile::make_global_volume(p, nz, ny, nx);
  };
  using Fused3d = typename smemtile::DefaultStencilStepsPolicy<3, static_cast<int>(sizeof(T)), R, S>::type;
  const auto call = [&](auto& buffers, cudaStream_t stream, auto boundary) {
    smemtile::LaunchStatus s;
    if constexpr (Rank == 3) {
      if (impl == kSteps3dFused) s = smemtile::device_stencil_steps<R, S>(Fused3d{}, buffers, steps, boundary, Op{}, stream);
      else if (impl == kSteps3dSweep) {
        constexpr int E = static_cast<int>(sizeof(T));
        const auto variant = state.get_int64("Sweep");
        if (variant == 0) s = smemtile::device_stencil_steps<R, S>(typename SweepVariant<E, 0, S>::type{}, buffers, steps, boundary, Op{}, stream);
        else if (variant == 1) s = smemtile::device_stencil_steps<R, S>(typename SweepVariant<E, 1, S>::type{}, buffers, steps, boundary, Op{}, stream);
        else if (variant == 2) s = smemtile::device_stencil_steps<R, S>(typename SweepVariant<E, 2, S>::type{}, buffers, steps, boundary, Op{}, stream);
        else s = smemtile::device_stencil_steps<R, S>(typename SweepVariant<E, 3, S>::type{}, buffers, steps, boundary, Op{}, stream);
      } else s = smemtile::device_stencil_steps<R, S>(buffers, steps, boundary, Op{}, stream);
    } else {
      s = smemtile::device_stencil_steps<R, S>(buffers, steps, boundary, Op{}, stream);
    }
    if (!s) {
      std::fprintf(stderr, "stencil_steps_bench: %s\n", s.message.c_str());
      std::exit(EXIT_FAILURE);
    }
  };
  const auto with_boundary = [&](auto&& f) {
    if (mode == kZero) f(smemtile::boundary::zero);
    else f(smemtile::boundary::clamp);
  };
  auto buffers = smemtile::make_stencil_buffers(view(a), view(b));
  if (impl == kSteps || impl == kSteps3dFused || impl == kSteps3dSweep) {  // check against as many single steps, bit for bit
    CUDA_CHECK(cudaMemcpy(c, a, n * sizeof(T), cudaMemcpyDeviceToDevice));
    auto reference = smemtile::make_stencil_buffers(view(c), view(d));
    with_boundary([&](auto boundary) {
      call(buffers, 0, boundary);
      for (int k = 0; k < steps; ++k) {
        const auto in = reference.current();
        smemtile::device_stencil<R, S>(smemtile::GlobalArray<const T, Rank>(in.data_handle(), in.mapping()),
                                       reference.alternate(), boundary, Op{});
        reference.selector ^= 1;
      }
    });
    CUDA_CHECK_LAUNCH();
    const T* got = buffers.current().data_handle();
    const T* want = reference.current().data_handle();
    const Mismatches m = count_on_device([&](unsigned long long* count, unsigned long long* first) {
      count_different<<<1024, 256>>>(got, want, n, count, first);
    });
    if (m.count != 0) {
      std::fprintf(stderr, "stencil_steps_bench: WRONG OUTPUT from device_stencil_steps (%s, %d steps): %llu elements differ, first %llu\n",
                   state.get_string("Case").c_str(), steps, m.count, m.first);
      std::exit(EXIT_FAILURE);
    }
  }
  state.add_element_count(n * steps);
  state.add_global_memory_reads<T>(n * steps);
  state.add_global_memory_writes<T>(n * steps);
  state.exec(nvbench::exec_tag::sync, [&](nvbench::launch& launch) {
    const cudaStream_t stream = launch.get_stream();
    if (impl == kMemcpy) {
      CUDA_CHECK(cudaMemcpyAsync(b, a, n * sizeof(T), cudaMemcpyDeviceToDevice, stream));
    } else if (impl == kNaive) {
      T* in = a;
      T* out = b;
      for (int k = 0; k < steps; ++k) {
        naive_step<T, Rank><<<dim3((nx + 255) / 256, ny, nz), 256, 0, stream>>>(in, out, nz, ny, nx, mode, Op{});
        std::swap(in, out);
      }
    } else if (impl == kSingle) {
      with_boundary([&](auto boundary) {
        for (int k = 0; k < steps; ++k) {
          const auto in = buffers.current();
          smemtile::device_stencil<R, S>(smemtile::GlobalArray<const T, Rank>(in.data_handle(), in.mapping()),
                                         buffers.alternate(), boundary, Op{}, stream);
          buffers.selector ^= 1;
        }
      });
    } else {
      with_boundary([&](auto boundary) { call(buffers, stream, boundary); });
    }
  });
  cudaFree(a);
  cudaFree(b);
  cudaFree(c);
  cudaFree(d);
}

void dispatch(nvbench::state& state, Impl impl) {
  const std::string& c = state.get_string("Case");
  const bool three_d = c.rfind("3D", 0) == 0;
  if ((impl == kSteps3dFused || impl == kSteps3dSweep) && !three_d) {
    state.skip("the 3D fused and sweep policies are for 3D cases");
    return;
  }
  if (c == kCases[0]) run<2, 1, StencilShape::star, float, Heat5>(state, impl, 1, 8192, 8192);
  else if (c == kCases[1]) run<2, 1, StencilShape::star, float, Heat5>(state, impl, 1, 8191, 8193);
  else if (c == kCases[2]) run<2, 1, StencilShape::box, float, SeparableBlur9>(state, impl, 1, 8192, 8192);
  else if (c == kCases[3]) run<2, 1, StencilShape::box, float, SeparableBlur9>(state, impl, 1, 8191, 8193);
  else if (c == kCases[4]) run<2, 1, StencilShape::star, double, Heat5>(state, impl, 1, 8192, 8192);
  else if (c == kCases[5]) run<2, 1, StencilShape::star, double, Heat5>(state, impl, 1, 8191, 8193);
  else if (c == kCases[6]) run<3, 1, StencilShape::star, float, Heat7>(state, impl, 512, 512, 512);
  else if (c == kCases[7]) run<3, 1, StencilShape::star, float, Heat7>(state, impl, 503, 517, 499);
  else if (c == kCases[8]) run<3, 1, StencilShape::star, double, Heat7>(state, impl, 512, 512, 512);
  else if (c == kCases[9]) run<3, 1, StencilShape::box, float, SeparableBox27>(state, impl, 384, 384, 384);
  else if (c == kCases[10]) run<3, 1, StencilShape::star, float, Heat7>(state, impl, 256, 256, 256);
  else if (c == kCases[11]) run<3, 1, StencilShape::star, float, Heat7>(state, impl, 128, 128, 128);
  else run<3, 1, StencilShape::star, double, Heat7>(state, impl, 256, 256, 256);
}

void bench_memcpy(nvbench::state& state) { dispatch(state, kMemcpy); }
void bench_steps(nvbench::state& state) { dispatch(state, kSteps); }
void bench_steps_3d_fused(nvbench::state& state) { dispatch(state, kSteps3dFused); }
void bench_steps_3d_sweep(nvbench::state& state) { dispatch(state, kSteps3dSweep); }
void bench_single(nvbench::state& state) { dispatch(state, kSingle); }
void bench_naive(nvbench::state& state) { dispatch(state, kNaive); }

}  // namespace

NVBENCH_BENCH(bench_memcpy).set_name("cudaMemcpy").add_string_axis("Case", kCases);
NVBENCH_BENCH(bench_steps)
    .set_name("smemtile_steps")
    .add_string_axis("Case", kCases)
    .add_string_axis("Boundary", kBoundaries)
    .add_int64_axis("Steps", {1, 2, 4, 8, 16, 64});
NVBENCH_BENCH(bench_steps_3d_fused)
    .set_name("smemtile_steps_3d_fused")
    .add_string_axis("Case", kCases)
    .add_string_axis("Boundary", kBoundaries)
    .add_int64_axis("Steps", {64});
NVBENCH_BENCH(bench_steps_3d_sweep)
    .set_name("smemtile_steps_3d_sweep")
    .add_string_axis("Case", kCases)
    .add_string_axis("Boundary", kBoundaries)
    .add_int64_axis("Sweep", {0, 1, 2, 3})
    .add_int64_axis("Steps", {8, 64});
NVBENCH_BENCH(bench_single)
    .set_name("single_step_loop")
    .add_string_axis("Case", kCases)
    .add_string_axis("Boundary", kBoundaries)
    .add_int64_axis("Steps", {1, 8});
NVBENCH_BENCH(bench_naive)
    .set_name("naive_loop")
    .add_string_axis("Case", kCases)
    .add_string_axis("Boundary", kBoundaries)
    .add_int64_axis("Steps", {8});
