// GPU tests of device_stencil (device/stencil.cuh) on 3D arrays: the sweep along z over a ring of
// 2 Radius + 1 planes, planes outside the volume coming from the boundary policy, blocks of 64
// planes along z.
//
// As in stencil_gpu_test.cu (stencil_gpu_common.cuh does the checking): random extents (1 x 1 x 1,
// 1 x 1 x n, n x 1 x 1, 1 x n x 1, smaller than the halo, depths just past one chunk of planes,
// below one tile, a little above, random up to 40^3; up to 20^3 for box stencils of radius 3 and
// 4), random pitches and slice pitches (gaps between planes), base offsets of 0..3 elements, poisoned
// outputs (offset, padding, gaps and guard stay poison), every element against the host reference.
//
// Coverage: every policy with star radius 1 on float; radii 1..4 with star and box on float with
// reflect (box radius 4 reads 729 points); box radius 1 with constant and periodic; double (star
// radius 4 included: the ring of 9 planes of 8-byte elements just fits 48 KB) and int for a few
// combinations; volumes of 130 x 70 x 90 crossing three chunks of planes (64, or 48 from radius 3);
// separable ops (SeparableStencilOp) on the box strips and the other paths, and separable boxes of
// doubles by the single-step sweep (StencilLoader::sweep), forced and selected, and the sweep forced
// on stars, floats and plain boxes; volumes of 2^26 points and more whose last large plane column
// is ragged (the selection's two launches: stencil_tail_cols), and smaller ones on the large planes.
#include "stencil_gpu_common.cuh"

namespace {

using namespace stencil_test;
constexpr StencilShape star = StencilShape::star;
constexpr StencilShape box = StencilShape::box;
constexpr int cases = 14;

TEST_CASE("device_stencil 3D float: every policy with a star of radius 1") {
  STENCIL_TEST_SEEDED_RNG(rng);
  random_stencils_every_policy<3, 1, star, float>(cases, rng);
}

TEST_CASE("device_stencil 3D float: radii 1 to 4 with star and box and reflect") {
  STENCIL_TEST_SEEDED_RNG(rng);
  random_stencils_radii_reflect<3, float>(cases, rng);
}

TEST_CASE("device_stencil 3D float: box of radius 1 with constant and periodic") {
  STENCIL_TEST_SEEDED_RNG(rng);
  random_stencils<3, 1, box, kConstant, float>(cases, rng);
  random_stencils<3, 1, box, kPeriodic, float>(cases, rng);
}

TEST_CASE("device_stencil 3D double and int") {
  STENCIL_TEST_SEEDED_RNG(rng);
  random_stencils<3, 4, star, kReflect, double>(cases, rng);
  random_stencils<3, 2, box, kZero, double>(cases, rng);
  random_stencils<3, 1, star, kClamp, double>(cases, rng);
  random_stencils<3, 1, box, kPeriodic, int>(cases, rng);
  random_stencils<3, 2, star, kZero, int>(cases, rng);
}

// Separable ops (across, down, through): the box strips keep the planes' partials (radius 1, 4-byte
// elements), the other paths evaluate them point by point; a dense volume so that TMA reads it.
TEST_CASE("device_stencil 3D: separable ops on the box strips and the other paths") {
  STENCIL_TEST_SEEDED_RNG(rng);
  using CpAsync = smemtile::StencilForcedLoader<smemtile::StencilLoader::cp_async>;
  random_stencils_with<3, 1, box, kClamp, float>(random_separable_op<float, 3, 1>(rng), cases, rng);
  random_stencils_with<3, 1, box, kPeriodic, int>(random_separable_op<int, 3, 1>(rng), cases, rng);
  random_stencils_with<3, 1, box, kZero, float>(random_separable_op<float, 3, 1>(rng), 8, rng, CpAsync{});
  random_stencils_with<3, 2, box, kReflect, float>(random_separable_op<float, 3, 2>(rng), 8, rng);
  Geometry dense = with_layout(rng, 3, 67, 33, 516);
  dense.in_pitch = dense.out_pitch = 516;
  dense.in_slice = dense.out_slice = 33LL * 516;
  dense.in_offset = dense.out_offset = 0;
  check_stencil<3, 1, box, kConstant, float>(dense, random_separable_op<float, 3, 1>(rng), rng);
}

// Separable boxes of doubles by one pass of the register sweep (StencilLoader::sweep): forced on
// random volumes (the degenerate ones too) under every policy, radius 1 and 2, and selected
// (stencil_candidates) on volumes around stencil_sweep_single_min_points and
// stencil_sweep_single_first_points, at random pitches and offsets (TMA's when they allow it).
TEST_CASE("device_stencil 3D: separable boxes of doubles by the single-step sweep") {
  STENCIL_TEST_SEEDED_RNG(rng);
  using Sweep = smemtile::StencilForcedLoader<smemtile::StencilLoader::sweep>;
  const auto op = random_separable_op<double, 3, 1>(rng);
  random_stencils_with<3, 1, box, kZero, double>(op, cases, rng, Sweep{});
  random_stencils_with<3, 1, box, kConstant, double>(op, cases, rng, Sweep{});
  random_stencils_with<3, 1, box, kClamp, double>(op, cases, rng, Sweep{});
  random_stencils_with<3, 1, box, kPeriodic, double>(op, cases, rng, Sweep{});
  random_stencils_with<3, 1, box, kReflect, double>(op, cases, rng, Sweep{});
  const auto op2 = random_separable_op<double, 3, 2>(rng);
  random_stencils_with<3, 2, box, kZero, double>(op2, 8, rng, Sweep{});
  random_stencils_with<3, 2, box, kClamp, double>(op2, 8, rng, Sweep{});
  random_stencils_with<3, 2, box, kPeriodic, double>(op2, 8, rng, Sweep{});
  random_stencils_with<3, 2, box, kReflect, double>(op2, 8, rng, Sweep{});
  STATIC_REQUIRE(150LL * 151 * 149 >= smemtile::stencil_sweep_single_first_points(1));
  STATIC_REQUIRE(130LL * 129 * 131 >= smemtile::stencil_sweep_single_min_points);
  STATIC_REQUIRE(101LL * 103 * 105 >= smemtile::stencil_sweep_single_first_points(2));
  check_stencil<3, 1, box, kClamp, double>(with_layout(rng, 3, 150, 151, 149), op, rng);
  check_stencil<3, 1, box, kPeriodic, double>(with_layout(rng, 3, 130, 129, 131), op, rng);
  check_stencil<3, 1, box, kConstant, double>(with_layout(rng, 3, 64, 257, 130), op, rng);
  check_stencil<3, 1, box, kReflect, double>(with_layout(rng, 3, 200, 67, 161), op, rng);
  check_stencil<3, 2, box, kZero, double>(with_layout(rng, 3, 101, 103, 105), op2, rng);
  check_stencil<3, 2, box, kReflect, double>(with_layout(rng, 3, 105, 101, 103), op2, rng);
}

// The sweep forced where it is not selected (DefaultStencilSweepPolicy's single_type): stars of
// floats and doubles (one level), a separable box of floats (one level), a box of a plain op (the
// planes scheme at one step).
TEST_CASE("device_stencil 3D: the single-step sweep forced on stars, floats and plain boxes") {
  STENCIL_TEST_SEEDED_RNG(rng);
  using Sweep = smemtile::StencilForcedLoader<smemtile::StencilLoader::sweep>;
  random_stencils_with<3, 1, star, kClamp, float>(random_op<float, 3, 1, star>(rng), 8, rng, Sweep{});
  random_stencils_with<3, 1, star, kPeriodic, double>(random_op<double, 3, 1, star>(rng), 8, rng, Sweep{});
  random_stencils_with<3, 1, box, kZero, float>(random_separable_op<float, 3, 1>(rng), 8, rng, Sweep{});
  random_stencils_with<3, 1, box, kReflect, double>(random_op<double, 3, 1, box>(rng), 8, rng, Sweep{});
}

TEST_CASE("device_stencil 3D: volumes crossing several chunks of planes") {
  STENCIL_TEST_SEEDED_RNG(rng);
  fixed_stencil<3, 4, star, kReflect, float>(130, 70, 90, false, rng);
  fixed_stencil<3, 1, box, kPeriodic, float>(130, 70, 90, false, rng);
  fixed_stencil<3, 1, star, kConstant, float>(129, 17, 33, false, rng);
  fixed_stencil<3, 4, star, kReflect, double>(131, 9, 40, false, rng);
  // Dense planes of 36 x 516 floats (even rows of 16-byte multiples): the large 32 x 256 planes in
  // 8-byte TMA units, three tiles across (the last 4 columns wide), two chunks of planes.
  fixed_stencil<3, 1, star, kZero, float>(70, 36, 516, true, rng);
  fixed_stencil<3, 1, box, kClamp, float>(67, 33, 516, true, rng);
}

TEST_CASE("device_stencil 3D: large planes with a ragged last column, the rest on standard planes") {
  STENCIL_TEST_SEEDED_RNG(rng);
  // From 2^26 points float stars of radius 1 take the large planes (256 columns); the columns past
  // the last whole one go to a second launch on the standard planes, whose halo reads the first
  // launch's columns. Dense volumes: TMA where rows are whole 16 bytes, else row classes. Doubles
  // (128 columns) are not split: checked on one such volume.
  static_assert(smemtile::stencil_tail_cols(1028, 256, 4) == 4 && smemtile::stencil_tail_cols(1025, 256, 4) == 1 &&
                    smemtile::stencil_tail_cols(1152, 256, 4) == 128 && smemtile::stencil_tail_cols(1025, 128, 8) == 0,
                "these volumes are split, the doubles not");
  fixed_stencil<3, 1, star, kZero, float>(64, 1024, 1028, true, rng);      // TMA, 4 columns left
  fixed_stencil<3, 1, star, kPeriodic, float>(64, 1025, 1025, true, rng);  // row classes, 1 column left
  fixed_stencil<3, 1, star, kClamp, float>(64, 1000, 1152, true, rng);     // TMA, 128 columns left
  fixed_stencil<3, 1, star, kReflect, float>(64, 1024, 1025, true, rng);   // row classes, 1 column left
  fixed_stencil<3, 1, star, kConstant, float>(60, 1100, 1027, true, rng);  // row classes, 3 columns left
  fixed_stencil<3, 1, star, kClamp, double>(64, 1024, 1025, true, rng);    // row classes, not split
}

TEST_CASE("device_stencil 3D: large planes below 2^26 points, few tiles in short chunks") {
  STENCIL_TEST_SEEDED_RNG(rng);
  // Floats whose columns fill the 256-column planes from 3 x 2^22 points, doubles from 2^23: 32 or
  // 64 tiles, so the depth is cut into chunks of a few planes to fill one wave.
  static_assert(smemtile::stencil_large_planes_filled(512, 256) && smemtile::stencil_large_planes_filled(1001, 256),
                "these columns fill the large planes");
  fixed_stencil<3, 1, star, kClamp, float>(48, 512, 512, true, rng);       // TMA, 12.6 M points
  fixed_stencil<3, 1, star, kPeriodic, float>(26, 499, 1001, true, rng);   // row classes, 12.97 M points
  fixed_stencil<3, 1, star, kZero, double>(40, 480, 512, true, rng);       // TMA, 9.8 M points
}

}  // namespace
