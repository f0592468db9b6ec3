// GPU tests of device_stencil (device/stencil.cuh) on 1D and 2D arrays.
//
// Each call: random extents (1, 1 x n, n x 1, smaller than the halo, one tile, a little above one
// tile, odd sizes, near multiples of the tile, random), random pitches (dense, padded, whole
// 128-byte lines) and base offsets of 0..3 elements for in and out (separate allocations), random
// inputs (pitch padding included), out's allocation poisoned; a random op (coefficients held in the
// op object) for each (radius, shape, policy, element type). Afterwards every output element must
// match a host reference computed in double precision (relative 1e-5 of sum |c x| for float,
// 1e-12 for double; exact for int), every other element of out's allocation (offset, pitch padding,
// guard) must still be poison, and the input must be unchanged.
//
// Coverage (a union, not the full product): every policy with star radius 1 on float; radii 1..4
// with star and box on float with reflect; box radius 2 with zero and periodic; double and int for
// a few (shape, radius, policy) combinations; a 2D array of more than 65535 tile rows (the grid's
// y loop); a caller's strips policies of 1, 2 and 4 points a lane.
#include "stencil_gpu_common.cuh"

namespace {

using namespace stencil_test;
constexpr StencilShape star = StencilShape::star;
constexpr StencilShape box = StencilShape::box;
constexpr int cases = 24;

TEST_CASE("device_stencil 1D float: every policy with a star of radius 1") {
  STENCIL_TEST_SEEDED_RNG(rng);
  random_stencils_every_policy<1, 1, star, float>(cases, rng);
}

TEST_CASE("device_stencil 1D float: radii 1 to 4 with star and box and reflect") {
  STENCIL_TEST_SEEDED_RNG(rng);
  random_stencils_radii_reflect<1, float>(cases, rng);
}

TEST_CASE("device_stencil 1D double and int") {
  STENCIL_TEST_SEEDED_RNG(rng);
  random_stencils<1, 3, star, kPeriodic, double>(cases, rng);
  random_stencils<1, 4, box, kClamp, int>(cases, rng);
}

TEST_CASE("device_stencil 2D float: every policy with a star of radius 1") {
  STENCIL_TEST_SEEDED_RNG(rng);
  random_stencils_every_policy<2, 1, star, float>(cases, rng);
}

TEST_CASE("device_stencil 2D float: radii 1 to 4 with star and box and reflect") {
  STENCIL_TEST_SEEDED_RNG(rng);
  random_stencils_radii_reflect<2, float>(cases, rng);
}

TEST_CASE("device_stencil 2D float: box of radius 2 with zero and periodic") {
  STENCIL_TEST_SEEDED_RNG(rng);
  random_stencils<2, 2, box, kZero, float>(cases, rng);
  random_stencils<2, 2, box, kPeriodic, float>(cases, rng);
}

TEST_CASE("device_stencil 2D: separable ops (across, down) against the weighted-sum reference") {
  STENCIL_TEST_SEEDED_RNG(rng);
  random_stencils_with<2, 1, box, kReflect, float>(random_separable_op<float, 2, 1>(rng), cases, rng);
  random_stencils_with<2, 2, box, kClamp, int>(random_separable_op<int, 2, 2>(rng), cases, rng);
}

TEST_CASE("device_stencil 2D double and int") {
  STENCIL_TEST_SEEDED_RNG(rng);
  random_stencils<2, 2, box, kClamp, double>(cases, rng);
  random_stencils<2, 1, star, kConstant, double>(cases, rng);
  random_stencils<2, 4, star, kReflect, double>(cases, rng);
  random_stencils<2, 2, star, kReflect, int>(cases, rng);
  random_stencils<2, 3, box, kConstant, int>(cases, rng);
  random_stencils<2, 1, star, kPeriodic, int>(cases, rng);
}

// A caller's 2D policy computing by strips (StencilCompute::star_strips, box_strips) on random
// geometries against the host reference: strips of 1, 2 and 4 points a lane (stencil_strip_points
// of the policy's Cols), radii beyond a strip (the sides from lanes further away).
template <int R, StencilShape S, int P, class T, class Policy>
void caller_strips(int cases, std::mt19937& rng) {
  const auto op = random_op<T, 2, R, S>(rng);
  INFO("caller's strips: radius " << R << (S == star ? " star" : " box") << ", " << sizeof(T) << "-byte elements, "
                                  << Policy::rows << " x " << Policy::cols << " tiles, policy " << policy_name(P));
  for (int i = 0; i < cases; ++i) {
    INFO("case " << i);
    check_stencil<2, R, S, P, T>(random_geometry(rng, 2, i, Policy::rows, Policy::cols, R, false, 1), op, rng, Policy{});
  }
}

TEST_CASE("device_stencil 2D: a caller's strips policies of 1, 2 and 4 points a lane") {
  STENCIL_TEST_SEEDED_RNG(rng);
  using smemtile::StencilTiledPolicy;
  using smemtile::StencilLoader;
  constexpr auto strips_star = smemtile::StencilCompute::star_strips;
  constexpr auto strips_box = smemtile::StencilCompute::box_strips;
  // 96 columns: 3 a lane, strips of one point; 64: two; 192 floats: two; 128 floats: four.
  caller_strips<3, star, kReflect, float, StencilTiledPolicy<2, StencilLoader::cp_async, strips_star, 16, 96, 4, 1, 2, 4>>(8, rng);
  caller_strips<2, box, kPeriodic, float, StencilTiledPolicy<2, StencilLoader::cp_async, strips_box, 16, 64, 4, 1, 2, 4>>(8, rng);
  caller_strips<1, box, kClamp, int, StencilTiledPolicy<2, StencilLoader::cp_async, strips_box, 8, 192, 4, 2, 2, 4>>(8, rng);
  caller_strips<4, box, kZero, float, StencilTiledPolicy<2, StencilLoader::cp_async, strips_box, 32, 128, 4, 1, 1, 4>>(6, rng);
  // Doubles, two a lane: radius 3 and 4 read past the neighbouring lane.
  caller_strips<3, box, kConstant, double, StencilTiledPolicy<2, StencilLoader::cp_async, strips_box, 16, 64, 4, 1, 2, 8>>(8, rng);
  caller_strips<4, star, kClamp, double, StencilTiledPolicy<2, StencilLoader::cp_async, strips_star, 32, 64, 4, 1, 2, 8>>(8, rng);
}

TEST_CASE("device_stencil 2D float: more than 65535 tile rows") {
  STENCIL_TEST_SEEDED_RNG(rng);
  // 32-row tiles: 65539 of them, more than a grid's y dimension; the kernel loops over the rest.
  fixed_stencil<2, 1, star, kClamp, float>(1, 65535 * 32 + 100, 1, true, rng);
  fixed_stencil<2, 1, star, kReflect, float>(1, 65535 * 32 + 33, 3, true, rng);
}

TEST_CASE("device_stencil 2D: the large tiles over many tiles per block") {
  STENCIL_TEST_SEEDED_RNG(rng);
  // Dense rows of 1028 floats (16-byte multiples, an even count: TMA in 8-byte units, 32 x 256
  // tiles, the last one 4 columns wide) and 4001 rows: 630 tiles, several per block, so each
  // block's ring of slots wraps around; the first and last columns of tiles reach outside.
  fixed_stencil<2, 1, star, kZero, float>(1, 4001, 1028, true, rng);
  fixed_stencil<2, 2, star, kPeriodic, float>(1, 3001, 1028, true, rng);
  fixed_stencil<2, 1, box, kReflect, float>(1, 2999, 1028, true, rng);
  fixed_stencil<2, 1, star, kClamp, double>(1, 3001, 1026, true, rng);
  // An odd number of floats per row: the large tiles' 8-byte TMA units do not fit, so the default
  // tiles load (random pitch and offset).
  fixed_stencil<2, 1, star, kConstant, float>(1, 2001, 1027, false, rng);
}

}  // namespace
