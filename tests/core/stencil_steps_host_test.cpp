// Host tests of device_stencil_steps's policy layer (device/tuning/stencil_steps_policy.cuh),
// compiled by the C++ compiler:
//  - stencil_steps_passes: for every step count 0..300 and depth 1..16, as few passes as the depth
//    allows, each of at most `depth` steps, differing by at most one, summing to the steps;
//  - the default policies for every rank, element size, radius and shape: a tile left inside the
//    halo, x halos of whole 16-byte vectors holding whole runs, regions that fit a block's shared
//    memory, the window's registers within bounds, runs that fill warps or divide them;
//  - the selector: 1D and 2D fused where the regions fit and the traffic model gains, 3D 7-point
//    stencils swept (two blocks' planes fit an SM),
//    nothing fused where a GPU's blocks lack the shared memory.
#include <smemtile/smemtile.cuh>

#include "catch.hpp"

namespace {

using smemtile::StencilShape;

template <int Rank, int E, int R, StencilShape S>
void check_default() {
  using P = typename smemtile::DefaultStencilStepsPolicy<Rank, E, R, S>::type;
  INFO("rank " << Rank << " element bytes " << E << " radius " << R << (S == StencilShape::box ? " box" : " star"));
  (void)smemtile::StencilStepsPolicyCheck<P, E, R, S>::ok;  // the static_asserts
  constexpr auto g = smemtile::stencil_steps_geometry<P>(E, R);
  CHECK(P::depth >= 2);
  CHECK(g.halo_x >= P::depth * R);
  CHECK(g.halo_x * E % 16 == 0);
  CHECK(g.halo_x % P::vector == 0);
  CHECK(g.halo_a == (Rank >= 2 ? P::depth * R : 0));
  CHECK(g.halo_y == (Rank == 3 ? P::depth * R : 0));
  CHECK(g.tile_a > 0);
  CHECK(g.tile_y > 0);
  CHECK(g.tile_x > 0);
  CHECK(smemtile::stencil_steps_shared_bytes<P>(E) <= smemtile::max_shared_bytes_per_block);
  CHECK(P::vector * E <= 16);
  if (P::compute == smemtile::StencilStepsCompute::window)
    CHECK(smemtile::stencil_steps_window_registers(Rank, E, R, S, P::vector) <= 52);
  const auto choice = smemtile::stencil_steps_choice<Rank, E, R, S>(227 * 1024);
  if (Rank == 3) {  // the sweep for 7-point stencils of 4- and 8-byte elements where its planes fit
    using Sweep = typename smemtile::DefaultStencilSweepPolicy<E, R, S>::type;
    const long long planes = smemtile::stencil_sweep_shared_bytes<Sweep>(E, R);
    const bool seven_point = S == StencilShape::star && R == 1 && (E == 4 || E == 8);
    CHECK(choice.fused == seven_point);
    if (seven_point) {
      CHECK(planes * 2 + 2048 <= 228 * 1024);  // two blocks per multiprocessor (1 KB each for the driver)
      CHECK_FALSE(smemtile::stencil_steps_choice<Rank, E, R, S>(planes - 1).fused);
    }
  } else {
    CHECK(choice.fused == (smemtile::stencil_steps_traffic_gain<P>(E, R) >= smemtile::stencil_steps_min_gain));
    CHECK_FALSE(smemtile::stencil_steps_choice<Rank, E, R, S>(smemtile::stencil_steps_shared_bytes<P>(E) - 1).fused);
  }
}

template <int Rank, int E>
void check_radii() {
  check_default<Rank, E, 1, StencilShape::star>();
  check_default<Rank, E, 1, StencilShape::box>();
  check_default<Rank, E, 2, StencilShape::star>();
  check_default<Rank, E, 2, StencilShape::box>();
  check_default<Rank, E, 3, StencilShape::star>();
  check_default<Rank, E, 3, StencilShape::box>();
  check_default<Rank, E, 4, StencilShape::star>();
  check_default<Rank, E, 4, StencilShape::box>();
}

}  // namespace

TEST_CASE("stencil_sweep_blocks and stencil_sweep_fills: a sweep only where its blocks fill the GPU") {
  using Float = smemtile::DefaultStencilSweepPolicy<4, 1, StencilShape::star>::type;  // 26 x 56 tiles, 64 planes
  using Double = smemtile::DefaultStencilSweepPolicy<8, 1, StencilShape::star>::type;  // 16 x 60 tiles
  constexpr auto fg = smemtile::stencil_steps_geometry<smemtile::detail::SweepPlanePolicy<Float>>(4, 1);
  CHECK(fg.tile_a == Float::region_y - 2 * Float::depth);
  CHECK(smemtile::stencil_sweep_blocks<Float>(4, 1, 512, 512, 512) ==
        (512 + fg.tile_x - 1) / fg.tile_x * ((512 + fg.tile_a - 1) / fg.tile_a) * (512 / 64));
  CHECK(smemtile::stencil_sweep_blocks<Float>(4, 1, 1, 1, 1) == 1);
  CHECK(smemtile::stencil_sweep_blocks<Float>(4, 1, 65, fg.tile_a + 1, fg.tile_x) == 2 * 2 * 1);
  // The measured volumes: 512^3 and 503 x 517 x 499 sweep on an H100 (132 multiprocessors, two
  // blocks each) and on 108; 128^3 does not; a 256^3 double sweep (320 blocks on 264 slots) measured
  // slower than single steps (0.76 against 0.88) and does not either.
  for (int sms : {108, 132}) {
    const auto fills = [&](auto policy, int e, long long d, long long r, long long c) {
      using P = decltype(policy);
      return smemtile::stencil_sweep_fills<typename P::type>(e, 1, d, r, c, sms, P::gain_over_single);
    };
    using DF = smemtile::DefaultStencilSweepPolicy<4, 1, StencilShape::star>;
    using DD = smemtile::DefaultStencilSweepPolicy<8, 1, StencilShape::star>;
    CHECK(fills(DF{}, 4, 512, 512, 512));
    CHECK(fills(DF{}, 4, 503, 517, 499));
    CHECK(fills(DD{}, 8, 512, 512, 512));
    CHECK_FALSE(fills(DF{}, 4, 128, 128, 128));
    CHECK_FALSE(fills(DF{}, 4, 256, 256, 256));
    CHECK_FALSE(fills(DD{}, 8, 40, 40, 40));
  }
  CHECK_FALSE(smemtile::stencil_sweep_fills<Double>(8, 1, 256, 256, 256, 132, 1.35));
  // Too few blocks for one wave never sweeps, whatever the gain; a full last wave needs gain >= 1.
  const long long blocks = smemtile::stencil_sweep_blocks<Float>(4, 1, 256, 256, 256);
  const int exact = static_cast<int>(blocks / Float::min_blocks);
  CHECK(smemtile::stencil_sweep_fills<Float>(4, 1, 256, 256, 256, exact, 1.0));
  CHECK_FALSE(smemtile::stencil_sweep_fills<Float>(4, 1, 256, 256, 256, exact, 0.99));
  CHECK_FALSE(smemtile::stencil_sweep_fills<Float>(4, 1, 256, 256, 256, exact + 1, 100.0));
}

TEST_CASE("stencil_sweep_gain: the sweep's gain over single steps scales with the memory's bandwidth") {
  using DF = smemtile::DefaultStencilSweepPolicy<4, 1, StencilShape::star>;
  using DD = smemtile::DefaultStencilSweepPolicy<8, 1, StencilShape::star>;
  constexpr double h100 = DF::reference_bandwidth;                // HBM3, 2619 MHz, 5120 bits
  constexpr double h200 = 2.0 * 3201e6 * 6144.0 / 8.0;            // HBM3e, 3201 MHz, 6144 bits
  CHECK(h100 == Approx(3.352e12).epsilon(1e-3));
  CHECK(smemtile::stencil_sweep_gain(1.19, h100, 0.0) == 1.19);  // bandwidth not reported: as measured
  CHECK(smemtile::stencil_sweep_gain(1.19, h100, h100) == Approx(1.19));
  CHECK(smemtile::stencil_sweep_gain(1.19, h100, 2 * h100) == Approx(0.595));
  const auto sweeps = [](auto policy, int e, long long n, double bandwidth) {
    using P = decltype(policy);
    return smemtile::stencil_sweep_fills<typename P::type>(
        e, 1, n, n, n, 132, smemtile::stencil_sweep_gain(P::gain_over_single, P::reference_bandwidth, bandwidth));
  };
  // Measured at 512^3, 7 points, x the copy per step (docs/stencil-steps.md, stencil-steps-h200.md):
  // H100 sweep 0.96 / 1.22 against single steps 0.92 / 0.93 (floats / doubles): sweeps; H200 0.67 /
  // 0.90 against 0.93 / 0.93: single steps.
  CHECK(sweeps(DF{}, 4, 512, h100));
  CHECK(sweeps(DD{}, 8, 512, h100));
  CHECK_FALSE(sweeps(DF{}, 4, 512, h200));
  CHECK_FALSE(sweeps(DD{}, 8, 512, h200));
  CHECK(sweeps(DF{}, 4, 512, 0.0));  // not reported: the H100's choice
}

TEST_CASE("stencil sweep: rows off 16 bytes sweep on both GPUs (single steps cannot load by TMA)") {
  using DF = smemtile::DefaultStencilSweepPolicy<4, 1, StencilShape::star>;
  using DD = smemtile::DefaultStencilSweepPolicy<8, 1, StencilShape::star>;
  // 503 x 517 x 499 floats, 7 points (docs/stencil-steps.md, stencil-steps-h200.md): sweeps 0.97 / 0.97
  // against single steps 0.57 / 0.73 on an H100 (zero / clamp), 0.70 / 0.69 against 0.52 / 0.62 on an H200
  CHECK(smemtile::stencil_sweep_fills<DF::type>(4, 1, 503, 517, 499, 132, DF::gain_over_unaligned_single));
  CHECK_FALSE(smemtile::stencil_rows_tma_aligned(9, 0x10000, 517LL * 499 * 4, 499LL * 4));
  CHECK(smemtile::stencil_rows_tma_aligned(9, 0x10000, 512LL * 512 * 4, 512LL * 4));
  CHECK_FALSE(smemtile::stencil_rows_tma_aligned(9, 0x10004, 512LL * 512 * 4, 512LL * 4));  // address
  CHECK_FALSE(smemtile::stencil_rows_tma_aligned(8, 0x10000, 512LL * 512 * 4, 512LL * 4));  // no TMA (sm_89)
  // the blocks must still fill the GPU with a good share of their waves: 256^3 doubles (320 blocks on
  // 264 slots, 61% busy) stay single steps
  CHECK_FALSE(smemtile::stencil_sweep_fills<DD::type>(8, 1, 255, 255, 255, 132, DD::gain_over_unaligned_single));
}

TEST_CASE("stencil_sweep_wave_share: blocks over the slots of their waves") {
  CHECK(smemtile::stencil_sweep_wave_share(264, 264) == 1.0);
  CHECK(smemtile::stencil_sweep_wave_share(320, 264) == Approx(320.0 / 528.0));
  CHECK(smemtile::stencil_sweep_wave_share(1, 264) == Approx(1.0 / 264.0));
  CHECK(smemtile::stencil_sweep_wave_share(0, 264) == 0.0);
  CHECK(smemtile::stencil_sweep_wave_share(10, 0) == 0.0);
}

TEST_CASE("stencil_steps_passes splits steps into as few, as equal passes as the depth allows") {
  for (int depth = 1; depth <= 16; ++depth)
    for (int steps = 0; steps <= 300; ++steps) {
      const smemtile::StencilStepsPasses p = smemtile::stencil_steps_passes(steps, depth);
      INFO("steps " << steps << " depth " << depth);
      REQUIRE(p.passes == (steps + depth - 1) / depth);
      int total = 0, most = 0, least = depth + 1;
      for (int k = 0; k < p.passes; ++k) {
        total += p.steps_of(k);
        most = std::max(most, p.steps_of(k));
        least = std::min(least, p.steps_of(k));
      }
      CHECK(total == steps);
      if (steps > 0) {
        CHECK(most <= depth);
        CHECK(least >= 1);
        CHECK(most - least <= 1);
      }
    }
  CHECK(smemtile::stencil_steps_passes(-3, 8).passes == 0);
}

TEST_CASE("the default fused-steps policies keep their invariants, and the selector fuses 1D and 2D only") {
  check_radii<1, 1>();
  check_radii<1, 4>();
  check_radii<1, 8>();
  check_radii<2, 1>();
  check_radii<2, 2>();
  check_radii<2, 4>();
  check_radii<2, 8>();
  check_radii<3, 2>();
  check_radii<3, 4>();
  check_radii<3, 8>();
  // The 2D float 5-point default: 8 steps per pass on 64 x 128 regions, runs of 4 floats.
  using P = smemtile::DefaultStencilStepsPolicy<2, 4, 1, StencilShape::star>::type;
  CHECK(P::depth == 8);
  CHECK(P::region_a == 64);
  CHECK(P::region_x == 128);
  CHECK(P::vector == 4);
  CHECK(smemtile::stencil_steps_choice<2, 4, 1, StencilShape::star>(227 * 1024).fused);
  CHECK_FALSE(smemtile::stencil_steps_choice<2, 4, 1, StencilShape::star>(48 * 1024).fused);
}
