// device_stencil_steps's 2D register stream on separable ops (rings of partials) and the selector's
// stream on arrays that fill the GPU (see stencil_steps_gpu_stream_test.cu).
#include "stencil_steps_gpu_stream_common.cuh"

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
