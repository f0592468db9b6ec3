// GPU tests of device_stencil_steps (device/stencil_steps.cuh) on 2D arrays with the selector's
// policy: random extents, pitches and base offsets, random step counts (1, 2, the fused depth, the
// depth + 1, several passes), every boundary policy, star and box, radii 1 to 4, float, double,
// int and uint8_t; each result equal bit for bit to as many device_stencil calls, nothing outside
// the arrays written (stencil_steps_gpu_common.cuh).
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
}
