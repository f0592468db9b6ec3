// GPU tests of device_stencil_steps's 2D register stream (StencilStepsStreamPolicy, passed by the
// caller): random extents around the stream's strips and chunks (one strip, a few, a partial last
// one; arrays too small for it, which run the standard regions), random pitches and base offsets
// (rows on and off 16 bytes: vector and element loads), random step counts (passes of fewer steps
// than the depth pass the last ones through), every boundary policy, star and box, radii 1 to 3,
// float, double, int and __half; each result equal bit for bit to as many device_stencil calls,
// nothing outside the arrays written (stencil_steps_gpu_common.cuh); separable ops, whose rings hold
// the rows' partials. The selector's own choice of the stream on arrays that fill the GPU is checked
// too.
#include <cuda_fp16.h>

#include "stencil_steps_gpu_common.cuh"

namespace {

using namespace steps_test;
constexpr StencilShape star = StencilShape::star;
constexpr StencilShape box = StencilShape::box;

// `cases` random geometries sized around Policy's strips (width x 2 depth R rows) and its fit.
template <class Policy, int R, StencilShape S, int P, class T, bool Separable = false>
void check_stream(int cases, unsigned seed) {
  constexpr int width = smemtile::stencil_steps_stream_width(Policy::columns, Policy::depth, R);
  std::mt19937 rng(seed);
  for (int i = 0; i < cases; ++i) {
    Geometry g = random_geometry(rng, 2, i, 2 * Policy::depth * R + 5, width, R, false, 16);
    if (i % 3 == 1) {  // several strips and chunks: the inner tasks' path
      g = with_layout(rng, 2, 1, uniform(rng, 4 * Policy::depth * R, 700),
                      uniform(rng, 2 * width + 2 * Policy::depth * R + 1, 5 * width + 40));
    }
    if (i % 2 == 0) {  // both arrays' rows on 16 bytes: vector loads and stores
      const auto round16 = [](long long n) { return static_cast<int>((n + 15) / 16 * 16); };
      g.in_offset = g.out_offset = 0;
      g.in_pitch = round16(g.cols * static_cast<long long>(sizeof(T))) / static_cast<int>(sizeof(T));
      g.out_pitch = g.in_pitch + 16 * uniform(rng, 0, 1);
      g.in_slice = static_cast<long long>(g.rows) * g.in_pitch;
      g.out_slice = static_cast<long long>(g.rows) * g.out_pitch;
    }
    const int steps = random_steps(rng, i, Policy::depth);
    if constexpr (Separable) check_steps_with<2, R, S, P, T, Policy>(g, steps, random_separable_mean<T, R>(rng), rng);
    else check_steps<2, R, S, P, T, Policy>(g, steps, rng);
  }
}

using Float8 = smemtile::StencilStepsStreamPolicy<8, 4, 1>;  // the float star default
// Boxes, radius-2 stars: three rows ahead on vector rows, one on element rows (the box default's way).
using Float4 = smemtile::StencilStepsStreamPolicy<4, 4, 3, 64, 4, 4, 1>;
using Double4 = smemtile::StencilStepsStreamPolicy<4, 4, 0, 64, 4, 3>;        // no row ahead
using Double6 = smemtile::StencilStepsStreamPolicy<6, 2, 1, 64, 4, 4, 0>;     // the double default, then none
using Narrow = smemtile::StencilStepsStreamPolicy<3, 1, 1, 16, 2, 2>;  // one value per lane, odd depth

}  // namespace

TEST_CASE("device_stencil_steps 2D stream, 5-point floats, every boundary policy") {
  check_stream<Float8, 1, star, kZero, float>(12, 101);
  check_stream<Float8, 1, star, kClamp, float>(12, 102);
  check_stream<Float8, 1, star, kPeriodic, float>(12, 103);
  check_stream<Float8, 1, star, kReflect, float>(12, 104);
  check_stream<Float8, 1, star, kConstant, float>(9, 105);
}

TEST_CASE("device_stencil_steps 2D stream, boxes, wide stars and other shapes of policy") {
  check_stream<Float4, 1, box, kClamp, float>(9, 111);
  check_stream<Float4, 1, box, kReflect, float>(9, 112);
  check_stream<Float4, 1, box, kZero, float>(6, 113);
  check_stream<Float4, 2, star, kReflect, float>(9, 114);
  check_stream<Float4, 2, star, kPeriodic, float>(6, 115);
  check_stream<Float4, 2, box, kConstant, float>(6, 116);
  check_stream<smemtile::StencilStepsStreamPolicy<4, 4, 2, 8>, 3, star, kClamp, float>(6, 117);
  check_stream<Narrow, 1, star, kReflect, float>(9, 118);
  check_stream<Narrow, 1, box, kPeriodic, float>(6, 119);
}

// Separable ops: the rings hold the rows' across() partials (floats and ints, whose partials have
// the element's size), every boundary policy, radii 1 and 2.
TEST_CASE("device_stencil_steps 2D stream, separable boxes: rings of partials") {
  // The host's dispatch sees the partials' rings too (its compilation pass cannot deduce a __device__
  // across()'s return type), so the selector streams separable float boxes under periodic and reflect.
  STATIC_REQUIRE(smemtile::detail::StepsStreamRing<SeparableMeanOp<float, 1>, float, 1, box>::partials);
  STATIC_REQUIRE(smemtile::detail::StepsStreamRing<SeparableMeanOp<int, 2>, int, 2, box>::partials);
  STATIC_REQUIRE(smemtile::detail::stencil_steps_stream_candidate<4, 1, box, smemtile::boundary::Periodic, true>);
  check_stream<Float4, 1, box, kClamp, float, true>(9, 131);
  check_stream<Float4, 1, box, kReflect, float, true>(9, 132);
  check_stream<Float4, 1, box, kZero, float, true>(6, 133);
  check_stream<Float4, 1, box, kPeriodic, float, true>(6, 134);
  check_stream<Float4, 2, box, kConstant, float, true>(6, 135);
  check_stream<Narrow, 1, box, kReflect, int, true>(6, 136);
}

TEST_CASE("device_stencil_steps 2D stream, doubles, integers and halves") {
  check_stream<Double4, 1, star, kZero, double>(9, 121);
  check_stream<Double6, 1, star, kClamp, double>(9, 122);
  check_stream<Double4, 1, star, kReflect, double>(6, 123);
  check_stream<Float4, 1, star, kPeriodic, int>(6, 124);
  check_stream<smemtile::StencilStepsStreamPolicy<4, 4, 3, 32>, 1, box, kClamp, __half>(6, 125);
}

// Geometry g, with rows on 16 bytes or off them (an offset of one element and odd pitches), checked
// through the selector after asserting that the selector streams it (or not) on this GPU.
template <int R, StencilShape S, int P, class T>
void check_selected(Geometry g, bool aligned, bool streams, int steps, std::mt19937& rng) {
  if (aligned) {
    const auto round16 = [](long long n) { return (n + 15) / 16 * 16; };
    g.in_offset = g.out_offset = 0;
    g.in_pitch = round16(g.cols * static_cast<long long>(sizeof(T))) / static_cast<long long>(sizeof(T));
    g.out_pitch = g.in_pitch;
  } else {
    g.in_offset = 1;
    g.in_pitch = g.cols + 1 + 2 * uniform(rng, 0, 3);
  }
  g.in_slice = static_cast<long long>(g.rows) * g.in_pitch;
  g.out_slice = static_cast<long long>(g.rows) * g.out_pitch;
  int device = 0, multiprocessors = 0;
  REQUIRE(cudaGetDevice(&device) == cudaSuccess);
  REQUIRE(cudaDeviceGetAttribute(&multiprocessors, cudaDevAttrMultiProcessorCount, device) == cudaSuccess);
  using Stream = typename smemtile::DefaultStencilStepsStreamPolicy<static_cast<int>(sizeof(T)), R, S>::type;
  const auto kind = smemtile::detail::stencil_steps_stream_boundary<decltype(make_policy<P, T>())>();
  INFO(g.describe());
  CHECK(smemtile::stencil_steps_stream_selected(static_cast<int>(sizeof(T)), R, S, kind, aligned) == streams);
  CHECK(smemtile::stencil_steps_stream_fills<Stream, R>(g.rows, g.cols, multiprocessors));
  check_steps<2, R, S, P, T>(g, steps, rng);
}

TEST_CASE("device_stencil_steps 2D stream, the selector's choice on arrays that fill the GPU") {
  std::mt19937 rng(131);
  // Large enough for the default stream's tasks to fill any GPU of up to 200 multiprocessors.
  const auto big = [&](int rows, int cols) { return with_layout(rng, 2, 1, rows + uniform(rng, 0, 20), cols); };
  check_selected<1, star, kZero, float>(big(4200, 7000), true, true, 17, rng);
  check_selected<1, star, kPeriodic, float>(big(4200, 7000 + uniform(rng, 0, 20)), false, true, 9, rng);
  check_selected<1, star, kClamp, float>(big(4200, 7000), true, true, 8, rng);
  check_selected<1, star, kClamp, float>(big(4200, 7000), false, true, 8, rng);
  check_selected<1, star, kReflect, float>(big(4200, 7000), true, false, 8, rng);  // the standard regions
  check_selected<1, box, kClamp, float>(big(4200, 7000 + uniform(rng, 0, 20)), false, true, 11, rng);
  check_selected<2, star, kZero, float>(big(4200, 7000 + uniform(rng, 0, 20)), true, true, 10, rng);
  check_selected<1, star, kConstant, double>(big(3000, 6000), false, true, 13, rng);
  check_selected<1, star, kClamp, double>(big(3000, 6000), false, true, 7, rng);
  check_selected<1, star, kClamp, double>(big(3000, 6000), true, true, 12, rng);
  check_selected<1, star, kReflect, double>(big(3000, 6000 + uniform(rng, 0, 20)), false, true, 14, rng);
}
