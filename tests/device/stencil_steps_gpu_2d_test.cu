// GPU tests of device_stencil_steps (device/stencil_steps.cuh) on 2D arrays with the selector's
// policy: random extents, pitches and base offsets, random step counts (1, 2, the fused depth, the
// depth + 1, several passes), every boundary policy, star and box, radii 1 to 4, float, double,
// int, uint8_t, uint16_t, long long and __half (a 5-point heat step and a 3x3 blur accumulated in
// float); each result equal bit for bit to as many device_stencil calls, nothing outside the arrays
// written (stencil_steps_gpu_common.cuh).
#include <cuda_fp16.h>

#include <cstdint>

#include "stencil_steps_gpu_common.cuh"

namespace {

using namespace steps_test;
constexpr StencilShape star = StencilShape::star;
constexpr StencilShape box = StencilShape::box;

template <int R, StencilShape S, class T>
constexpr int depth_of() {
  return smemtile::DefaultStencilStepsPolicy<2, static_cast<int>(sizeof(T)), R, S>::type::depth;
}

template <int R, StencilShape S, int P, class T>
void check_2d(int cases, unsigned seed) {
  using Policy = typename smemtile::DefaultStencilStepsPolicy<2, static_cast<int>(sizeof(T)), R, S>::type;
  constexpr auto g = smemtile::stencil_steps_geometry<Policy>(static_cast<int>(sizeof(T)), R);
  check_random_steps<2, R, S, P, T>(cases, depth_of<R, S, T>(), g.tile_a, g.tile_x, seed);
}

// Halves accumulated in float: a 5-point heat step and a 3x3 blur.
struct HalfHeat {
  template <class N>
  __device__ float operator()(const N& n) const {
    const float c = __half2float(n(0, 0));
    return c + 0.2f * (__half2float(n(-1, 0)) + __half2float(n(1, 0)) + __half2float(n(0, -1)) +
                       __half2float(n(0, 1)) - 4.0f * c);
  }
};
struct HalfBlur {
  template <class N>
  __device__ float operator()(const N& n) const {
    float sum = 0.0f;
    for (int dy = -1; dy <= 1; ++dy)
      for (int dx = -1; dx <= 1; ++dx) sum += __half2float(n(dy, dx)) * ((dy == 0 ? 2 : 1) * (dx == 0 ? 2 : 1));
    return sum * 0.0625f;
  }
};

template <int R, StencilShape S, int P, class Op>
void check_half(int cases, unsigned seed) {
  using Policy = typename smemtile::DefaultStencilStepsPolicy<2, 2, R, S>::type;
  constexpr auto g = smemtile::stencil_steps_geometry<Policy>(2, R);
  std::mt19937 rng(seed);
  for (int i = 0; i < cases; ++i) {
    const Geometry geometry = random_geometry(rng, 2, i, g.tile_a, g.tile_x, R, false, 16);
    check_steps_with<2, R, S, P, __half>(geometry, random_steps(rng, i, Policy::depth), Op{}, rng);
  }
}

}  // namespace

TEST_CASE("device_stencil_steps 2D 5-point float, every boundary policy") {
  check_2d<1, star, kZero, float>(12, 1);
  check_2d<1, star, kClamp, float>(12, 2);
  check_2d<1, star, kPeriodic, float>(12, 3);
  check_2d<1, star, kReflect, float>(12, 4);
  check_2d<1, star, kConstant, float>(8, 5);
}

TEST_CASE("device_stencil_steps 2D boxes and wide stars") {
  check_2d<1, box, kClamp, float>(10, 11);
  check_2d<2, box, kReflect, double>(8, 12);
  check_2d<3, star, kClamp, float>(8, 13);
  check_2d<4, box, kPeriodic, float>(6, 14);
}

TEST_CASE("device_stencil_steps 2D doubles, integers and bytes") {
  check_2d<1, star, kClamp, double>(10, 21);
  check_2d<2, star, kZero, int>(8, 22);
  check_2d<1, box, kReflect, std::uint8_t>(8, 23);
  check_2d<4, star, kConstant, std::uint16_t>(6, 24);
  check_2d<1, star, kPeriodic, long long>(6, 25);
}

TEST_CASE("device_stencil_steps 2D halves accumulated in float") {
  check_half<1, star, kClamp, HalfHeat>(8, 26);
  check_half<1, box, kReflect, HalfBlur>(8, 27);
}
