// GPU tests of device_stencil_steps (device/stencil_steps.cuh) beyond the 2D defaults:
//  - 1D arrays (the selector's policy) and 3D arrays through a caller's policy (the selector runs 3D
//    as single steps; the fused 3D kernel is reachable only so): random shapes, pitches, steps,
//    policies, star and box; a 2D caller's policy in the points scheme and one walking single
//    points; each equal bit for bit to as many device_stencil calls;
//  - invalid calls (negative steps, overlapping or mismatched buffers: cudaErrorInvalidValue and a
//    message, nothing swapped or launched) and steps = 0 (success, nothing changed);
//  - stream capture: 20 fused steps of a 2D heat equation captured into a CUDA graph as the first
//    call of its instantiation, replayed, equal bit for bit to the same call made eagerly.
#include "stencil_steps_gpu_common.cuh"

namespace {

using namespace steps_test;
constexpr StencilShape star = StencilShape::star;
constexpr StencilShape box = StencilShape::box;
using smemtile::StencilStepsCompute;
using smemtile::StencilStepsPolicy;

template <int Rank, int R, StencilShape S, int P, class T, class Policy>
void check_with(int cases, unsigned seed) {
  constexpr auto g = smemtile::stencil_steps_geometry<Policy>(static_cast<int>(sizeof(T)), R);
  check_random_steps<Rank, R, S, P, T, Policy>(cases, Policy::depth, Rank == 3 ? g.tile_y : g.tile_a, g.tile_x, seed);
}

template <int Rank, int R, StencilShape S, class T>
using Default = typename smemtile::DefaultStencilStepsPolicy<Rank, static_cast<int>(sizeof(T)), R, S>::type;

struct Heat {
  template <class N>
  __device__ float operator()(const N& n) const {
    return n(0, 0) + 0.2f * (n(-1, 0) + n(1, 0) + n(0, -1) + n(0, 1) - 4.0f * n(0, 0));
  }
};

// Halves accumulated in float: a 3D 7-point heat step.
struct HalfHeat3 {
  template <class N>
  __device__ float operator()(const N& n) const {
    const float c = __half2float(n(0, 0, 0));
    return c + 0.1f * (__half2float(n(-1, 0, 0)) + __half2float(n(1, 0, 0)) + __half2float(n(0, -1, 0)) +
                       __half2float(n(0, 1, 0)) + __half2float(n(0, 0, -1)) + __half2float(n(0, 0, 1)) - 6.0f * c);
  }
};

template <int D, int Y, int X, int Chunk, int Threads>
using RegisterSweep =
    smemtile::StencilSweepPolicy<D, Y, X, Chunk, Threads, 1, smemtile::StencilSweepCompute::registers>;

template <int D, int Y, int X, int Chunk, int Threads>
using VectorSweep = smemtile::StencilSweepPolicy<D, Y, X, Chunk, Threads, 1, smemtile::StencilSweepCompute::vectors>;

}  // namespace

TEST_CASE("device_stencil_steps 1D") {
  check_random_steps<1, 1, star, kReflect, float>(10, Default<1, 1, star, float>::depth, 1, 1008, 31);
  check_random_steps<1, 4, box, kPeriodic, double>(8, Default<1, 4, box, double>::depth, 1, 1008, 32);
  check_random_steps<1, 2, star, kClamp, int>(8, Default<1, 2, star, int>::depth, 1, 1008, 33);
}

TEST_CASE("device_stencil_steps 3D through a caller's policy") {
  check_with<3, 1, star, kClamp, float, Default<3, 1, star, float>>(10, 41);
  check_with<3, 1, box, kZero, float, Default<3, 1, box, float>>(8, 42);
  check_with<3, 1, star, kReflect, double, Default<3, 1, star, double>>(8, 43);
  check_with<3, 2, star, kPeriodic, float, StencilStepsPolicy<3, 2, 16, 16, 32, StencilStepsCompute::window, 2>>(8, 44);
  check_with<3, 1, box, kConstant, float, StencilStepsPolicy<3, 2, 8, 8, 32, StencilStepsCompute::points>>(8, 45);
}

TEST_CASE("device_stencil_steps 3D through the selector (volumes this small: single steps) and its sweep policy") {
  check_random_steps<3, 1, star, kClamp, float>(10, 3, 26, 56, 81);
  check_random_steps<3, 1, star, kZero, double>(8, 2, 16, 60, 82);
  check_random_steps<3, 1, box, kConstant, float>(4, 3, 26, 56, 85);
  // The policy the selector sweeps larger volumes with, passed by the caller.
  using FloatSweep = typename smemtile::DefaultStencilSweepPolicy<4, 1, star>::type;
  using DoubleSweep = typename smemtile::DefaultStencilSweepPolicy<8, 1, star>::type;
  check_random_steps<3, 1, star, kClamp, float, FloatSweep>(10, 3, 26, 56, 86);
  check_random_steps<3, 1, star, kPeriodic, float, FloatSweep>(8, 3, 26, 56, 83);
  check_random_steps<3, 1, star, kZero, double, DoubleSweep>(8, 2, 16, 60, 87);
  check_random_steps<3, 1, star, kReflect, double, DoubleSweep>(8, 2, 16, 60, 84);
}

TEST_CASE("device_stencil_steps 3D sweeps: blocks inside the volume's rows and columns (16-byte plane loads)") {
  // Planes wide enough for interior blocks; a third of the layouts are 16-byte aligned (the wide loads).
  using smemtile::StencilSweepPolicy;
  std::mt19937 rng(91);
  for (int i = 0; i < 6; ++i) {
    const Geometry g = with_layout(rng, 3, 9 + i, 70 + 7 * i, 130 + 11 * i);
    check_steps<3, 1, star, kClamp, float, StencilSweepPolicy<3, 16, 32, 8>>(g, 2 + i % 2, rng);
    check_steps<3, 1, star, kPeriodic, double, StencilSweepPolicy<2, 16, 32, 8>>(g, 2, rng);
    check_steps<3, 1, star, kClamp, float, RegisterSweep<3, 16, 32, 8, 256>>(g, 2 + i % 2, rng);
    check_steps<3, 1, star, kZero, double, RegisterSweep<2, 16, 32, 8, 256>>(g, 2, rng);
  }
}

TEST_CASE("device_stencil_steps 3D sweeps along z (StencilSweepPolicy)") {
  using smemtile::StencilSweepPolicy;
  check_random_steps<3, 1, star, kClamp, float, StencilSweepPolicy<4, 24, 64, 16>>(10, 4, 16, 56, 71);
  check_random_steps<3, 1, star, kReflect, float, StencilSweepPolicy<3, 16, 64, 8>>(10, 3, 10, 56, 72);
  check_random_steps<3, 1, star, kPeriodic, float, StencilSweepPolicy<4, 24, 64, 16>>(10, 4, 16, 56, 73);
  check_random_steps<3, 1, box, kZero, float, StencilSweepPolicy<2, 16, 64, 8>>(8, 2, 12, 56, 74);
  check_random_steps<3, 2, star, kConstant, double, StencilSweepPolicy<2, 24, 32, 8>>(8, 2, 16, 24, 75);
  // 128 and 512 threads (runs of 8 and 6 rows), radius 3, integers
  check_random_steps<3, 1, box, kPeriodic, float, StencilSweepPolicy<3, 32, 32, 8, 128, 1>>(8, 3, 26, 24, 76);
  check_random_steps<3, 3, star, kReflect, int, StencilSweepPolicy<2, 24, 64, 4, 512, 1>>(6, 2, 12, 52, 77);
}

TEST_CASE("device_stencil_steps 3D register sweeps (StencilSweepCompute::registers)") {
  // Every policy kind (fills, index policies, periodic), radii 1-3, runs of 3 to 8 rows, floats,
  // doubles, integers; tile sizes from each policy's geometry (random_geometry sizes around them).
  check_random_steps<3, 1, star, kZero, float, RegisterSweep<3, 32, 64, 8, 256>>(10, 3, 26, 56, 101);
  check_random_steps<3, 1, star, kConstant, float, RegisterSweep<4, 32, 32, 6, 256>>(8, 4, 24, 24, 102);
  check_random_steps<3, 1, star, kReflect, float, RegisterSweep<3, 16, 64, 8, 256>>(10, 3, 10, 56, 103);
  check_random_steps<3, 2, star, kClamp, double, RegisterSweep<2, 24, 32, 8, 256>>(8, 2, 16, 24, 104);
  check_random_steps<3, 3, star, kPeriodic, int, RegisterSweep<2, 24, 64, 5, 512>>(6, 2, 12, 48, 105);
  // The selector's register sweeps for floats and doubles.
  using FloatSweep = typename smemtile::DefaultStencilSweepPolicy<4, 1, star>::type;
  using DoubleSweep = typename smemtile::DefaultStencilSweepPolicy<8, 1, star>::type;
  STATIC_REQUIRE(FloatSweep::compute == smemtile::StencilSweepCompute::registers);
  check_random_steps<3, 1, star, kReflect, float, FloatSweep>(6, 3, 58, 24, 106);
  check_random_steps<3, 1, star, kClamp, double, DoubleSweep>(6, 2, 28, 28, 107);
  // Its policy for rows off 16 bytes: one block of 512 threads on 64 x 64 planes.
  using FloatUnaligned = typename smemtile::DefaultStencilSweepPolicy<4, 1, star>::unaligned_type;
  STATIC_REQUIRE(!std::is_same<FloatUnaligned, FloatSweep>::value);
  check_random_steps<3, 1, star, kClamp, float, FloatUnaligned>(5, 3, 58, 56, 109);
  check_random_steps<3, 1, star, kPeriodic, float, FloatUnaligned>(4, 3, 58, 56, 110);
  // Halves: the generic tile copy at the array's edges and for rows off 16 bytes.
  std::mt19937 rng(108);
  for (int i = 0; i < 6; ++i) {
    const Geometry g = random_geometry(rng, 3, i, 12, 48, 1, false, 16);
    check_steps_with<3, 1, star, kClamp, __half, RegisterSweep<2, 16, 64, 8, 256>>(g, random_steps(rng, i, 2),
                                                                                 HalfHeat3{}, rng);
  }
}

// `cases` random geometries around Policy's tile, each with random steps of a random SeparableMeanOp3.
template <int R, int P, class T, class Policy>
void check_separable_boxes(int cases, unsigned seed) {
  constexpr auto g = smemtile::stencil_steps_geometry<smemtile::detail::SweepPlanePolicy<Policy>>(static_cast<int>(sizeof(T)), R);
  std::mt19937 rng(seed);
  for (int i = 0; i < cases; ++i) {
    const Geometry geometry = random_geometry(rng, 3, i, g.tile_a, g.tile_x, R, R > 1, 16);
    check_steps_with<3, R, box, P, T, Policy>(geometry, random_steps(rng, i, Policy::depth),
                                              random_separable_mean3<T, R>(rng), rng);
  }
}

TEST_CASE("device_stencil_steps 3D register sweeps of separable boxes (plane partials)") {
  // Every policy kind, radii 1-2, floats, doubles and integers, runs of 4 to 8 rows; random shapes,
  // pitches and steps, each equal bit for bit to single steps of the same op.
  check_separable_boxes<1, kZero, float, RegisterSweep<3, 32, 64, 8, 256>>(8, 141);
  check_separable_boxes<1, kClamp, float, RegisterSweep<3, 32, 64, 8, 256>>(8, 142);
  check_separable_boxes<1, kReflect, float, RegisterSweep<3, 64, 32, 8, 256>>(6, 143);
  check_separable_boxes<1, kPeriodic, double, RegisterSweep<2, 32, 32, 6, 256>>(6, 144);
  check_separable_boxes<1, kConstant, float, RegisterSweep<4, 32, 32, 6, 256>>(5, 145);
  check_separable_boxes<2, kClamp, float, RegisterSweep<2, 32, 64, 8, 256>>(5, 146);
  check_separable_boxes<2, kZero, int, RegisterSweep<2, 16, 64, 5, 256>>(5, 147);
  // The selector's policies, forced on small volumes and through it where it sweeps (256^3 floats
  // under zero, 256 x 250 x 252 doubles under clamp: a wave of blocks and more on 132 multiprocessors).
  using Float = typename smemtile::DefaultStencilSweepPolicy<4, 1, box, true>::type;
  using Double = typename smemtile::DefaultStencilSweepPolicy<8, 1, box, true>::type;
  check_separable_boxes<1, kReflect, float, Float>(4, 148);
  check_separable_boxes<1, kClamp, double, Double>(4, 149);
  std::mt19937 rng(150);
  Geometry g{3, 256, 256, 256, 256, 256LL * 256, 256, 256LL * 256, 0, 0, 64};
  check_steps_with<3, 1, box, kZero, float>(g, 6, random_separable_mean3<float, 1>(rng), rng);
  g = Geometry{3, 256, 250, 252, 254, 254LL * 250, 256, 256LL * 251, 0, 2, 64};
  check_steps_with<3, 1, box, kClamp, double>(g, 5, random_separable_mean3<double, 1>(rng), rng);
}

TEST_CASE("device_stencil_steps 3D vector sweeps (StencilSweepCompute::vectors)") {
  // Every policy kind, radii 1-2 (at most 16 bytes' worth), rows of 8 and 16 lanes, runs of 1 to 4
  // rows, floats, doubles and integers; random shapes, pitches and steps, then layouts wide enough
  // for blocks inside the array (16-byte rows: whole-row stores; a third aligned).
  check_random_steps<3, 1, star, kClamp, float, VectorSweep<3, 64, 32, 8, 256>>(10, 3, 58, 24, 121);
  check_random_steps<3, 1, star, kReflect, float, VectorSweep<3, 32, 64, 8, 256>>(10, 3, 26, 56, 122);
  check_random_steps<3, 1, star, kZero, float, VectorSweep<3, 32, 64, 6, 256>>(8, 3, 26, 56, 123);
  check_random_steps<3, 1, star, kConstant, float, VectorSweep<4, 32, 64, 8, 128>>(8, 4, 24, 56, 124);
  check_random_steps<3, 2, star, kPeriodic, int, VectorSweep<2, 32, 64, 5, 512>>(6, 2, 24, 56, 125);
  check_random_steps<3, 2, star, kClamp, float, VectorSweep<2, 32, 64, 8, 256>>(6, 2, 24, 56, 126);
  check_random_steps<3, 1, star, kClamp, double, VectorSweep<3, 32, 32, 8, 256>>(8, 3, 26, 24, 127);
  check_random_steps<3, 2, star, kReflect, double, VectorSweep<2, 16, 64, 4, 256>>(6, 2, 8, 56, 128);
  std::mt19937 rng(129);
  for (int i = 0; i < 6; ++i) {
    const Geometry g = with_layout(rng, 3, 9 + i, 70 + 7 * i, 130 + 11 * i);
    check_steps<3, 1, star, kClamp, float, VectorSweep<3, 64, 32, 8, 256>>(g, 2 + i % 3, rng);
    check_steps<3, 1, star, kReflect, double, VectorSweep<3, 32, 32, 8, 256>>(g, 3 + i % 2, rng);
    check_steps<3, 1, star, kZero, float, VectorSweep<3, 32, 64, 8, 256>>(g, 3, rng);
  }
}

TEST_CASE("device_stencil_steps 3D through the selector on volumes that fill the GPU") {
  // Full waves on 132 multiprocessors, where the selector sweeps on an H100 and an H200: 127 x 345 x
  // 611 floats with rows off 16 bytes (clamp, 4 steps: its unaligned policy, 132 blocks of 512
  // threads, as the vector sweep's 308 blocks of 256 would leave too much of a second wave idle; 6
  // steps: the vector sweep), then 250 x 340 x 260 with 16-byte rows (its aligned policy, 264 blocks
  // of 256; zero; clamp: the vector sweep's where a sweep is expected to gain), then 128 x 312 x 264
  // doubles (264 blocks of 256; clamp).
  std::mt19937 rng(111);
  Geometry g{3, 127, 345, 611, 611, 611LL * 345, 613, 613LL * 346, 1, 3, 64};
  check_steps<3, 1, star, kClamp, float>(g, 4, rng);
  check_steps<3, 1, star, kClamp, float>(g, 6, rng);
  g = Geometry{3, 250, 340, 260, 264, 264LL * 340, 264, 264LL * 341, 0, 8, 64};
  check_steps<3, 1, star, kZero, float>(g, 5, rng);
  check_steps<3, 1, star, kClamp, float>(g, 5, rng);
  g = Geometry{3, 128, 312, 264, 264, 264LL * 312, 266, 266LL * 313, 0, 4, 64};
  check_steps<3, 1, star, kClamp, double>(g, 4, rng);
}

TEST_CASE("device_stencil_steps 2D caller's policies: points, single-point windows") {
  check_with<2, 1, box, kClamp, float, StencilStepsPolicy<2, 3, 24, 1, 64, StencilStepsCompute::points>>(10, 51);
  check_with<2, 2, star, kReflect, float, StencilStepsPolicy<2, 5, 40, 1, 64, StencilStepsCompute::window, 1>>(10, 52);
  check_with<2, 1, star, kPeriodic, float, StencilStepsPolicy<2, 16, 96, 1, 128, StencilStepsCompute::window, 4, 512, 1>>(6, 53);
}

TEST_CASE("device_stencil_steps refuses invalid calls and does nothing for zero steps") {
  const int rows = 40, cols = 50;
  DeviceBuffer<float> a(rows * cols), b(rows * cols), c(rows * (cols + 3));
  a.poison();
  b.poison();
  const std::vector<float> before = a.download();
  auto buffers = smemtile::make_stencil_buffers(smemtile::make_global_matrix(a.get(), rows, cols),
                                                smemtile::make_global_matrix(b.get(), rows, cols));
  smemtile::LaunchStatus s = smemtile::device_stencil_steps<1, star>(buffers, -1, smemtile::boundary::zero, Heat{});
  CHECK(s.error == cudaErrorInvalidValue);
  CHECK(s.message.find("steps must not be negative") != std::string::npos);
  CHECK(buffers.selector == 0);
  s = smemtile::device_stencil_steps<1, star>(buffers, 0, smemtile::boundary::zero, Heat{});
  CHECK(s.error == cudaSuccess);
  CHECK(buffers.selector == 0);
  auto overlapping = smemtile::make_stencil_buffers(smemtile::make_global_matrix(a.get(), rows, cols),
                                                    smemtile::make_global_matrix(a.get() + 7, rows, cols));
  s = smemtile::device_stencil_steps<1, star>(overlapping, 5, smemtile::boundary::clamp, Heat{});
  CHECK(s.error == cudaErrorInvalidValue);
  CHECK(s.message.find("overlap") != std::string::npos);
  CHECK(overlapping.selector == 0);
  auto mismatched = smemtile::make_stencil_buffers(smemtile::make_global_matrix(a.get(), rows, cols),
                                                   smemtile::make_global_matrix(c.get(), rows, cols + 3));
  s = smemtile::device_stencil_steps<1, star>(mismatched, 5, smemtile::boundary::clamp, Heat{});
  CHECK(s.error == cudaErrorInvalidValue);
  CHECK(s.message.find("same extents") != std::string::npos);
  REQUIRE_CUDA(cudaDeviceSynchronize());
  CHECK(a.download() == before);
}

TEST_CASE("device_stencil_steps inside stream capture replays as the eager call") {
  const int rows = 300, cols = 517, steps = 20;
  std::mt19937 rng(61);
  const std::vector<float> start = random_inputs<float>(static_cast<std::size_t>(rows) * cols, rng);
  DeviceBuffer<float> a(start.size()), b(start.size()), c(start.size()), d(start.size());
  a.upload(start);
  c.upload(start);
  cudaStream_t stream;
  REQUIRE_CUDA(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  auto captured = smemtile::make_stencil_buffers(smemtile::make_global_matrix(a.get(), rows, cols),
                                                 smemtile::make_global_matrix(b.get(), rows, cols));
  cudaGraph_t graph;
  REQUIRE_CUDA(cudaStreamBeginCapture(stream, cudaStreamCaptureModeGlobal));
  const smemtile::LaunchStatus s = smemtile::device_stencil_steps<1, star>(captured, steps, smemtile::boundary::clamp, Heat{}, stream);
  REQUIRE_CUDA(cudaStreamEndCapture(stream, &graph));
  REQUIRE(s.error == cudaSuccess);
  cudaGraphExec_t exec;
  REQUIRE_CUDA(cudaGraphInstantiate(&exec, graph, 0));
  REQUIRE_CUDA(cudaGraphLaunch(exec, stream));
  REQUIRE_CUDA(cudaStreamSynchronize(stream));
  auto eager = smemtile::make_stencil_buffers(smemtile::make_global_matrix(c.get(), rows, cols),
                                              smemtile::make_global_matrix(d.get(), rows, cols));
  REQUIRE(smemtile::device_stencil_steps<1, star>(eager, steps, smemtile::boundary::clamp, Heat{}, stream).error == cudaSuccess);
  REQUIRE_CUDA(cudaStreamSynchronize(stream));
  REQUIRE(captured.selector == eager.selector);
  const std::vector<float> x = (captured.selector ? b : a).download(), y = (eager.selector ? d : c).download();
  CHECK(std::memcmp(x.data(), y.data(), x.size() * sizeof(float)) == 0);
  CHECK(x != start);
  cudaGraphExecDestroy(exec);
  cudaGraphDestroy(graph);
  cudaStreamDestroy(stream);
}
