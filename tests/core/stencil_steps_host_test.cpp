// Host tests of device_stencil_steps's policy layer (device/tuning/stencil_steps_policy.cuh),
// compiled by the C++ compiler:
//  - stencil_steps_passes: for every step count 0..300 and depth 1..16, as few passes as the depth
//    allows, each of at most `depth` steps, differing by at most one, summing to the steps;
//  - the default policies for every rank, element size, radius and shape: a tile left inside the
//    halo, x halos of whole 16-byte vectors holding whole runs, regions that fit a block's shared
//    memory, the window's registers within bounds, runs that fill warps or divide them;
//  - the selector: 1D and 2D fused where the regions fit and the traffic model gains, 3D 7-point
//    stencils swept (two blocks' planes fit an SM),
//    nothing fused where a GPU's blocks lack the shared memory;
//  - the 2D register stream: every row of every strip in exactly one task of its plan, band after
//    band (random shapes), one wave where the rows allow, the loop's inner part free of edge work,
//    the default policies' checks, fit and selection.
#include <smemtile/smemtile.cuh>

#include <array>
#include <cmath>
#include <random>
#include <vector>

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
      // its blocks per multiprocessor fit (1 KB each for the driver)
      CHECK((planes + 1024) * Sweep::min_blocks <= 228 * 1024);
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
  using Float = smemtile::DefaultStencilSweepPolicy<4, 1, StencilShape::star>::type;  // 58 x 24 tiles, 64 planes
  using Double = smemtile::DefaultStencilSweepPolicy<8, 1, StencilShape::star>::type;  // 26 x 26 tiles
  constexpr auto fg = smemtile::stencil_steps_geometry<smemtile::detail::SweepPlanePolicy<Float>>(4, 1);
  CHECK(fg.tile_a == Float::region_y - 2 * Float::depth);
  CHECK(smemtile::stencil_sweep_blocks<Float>(4, 1, 512, 512, 512) ==
        (512 + fg.tile_x - 1) / fg.tile_x * ((512 + fg.tile_a - 1) / fg.tile_a) * (512 / 64));
  CHECK(smemtile::stencil_sweep_blocks<Float>(4, 1, 1, 1, 1) == 1);
  CHECK(smemtile::stencil_sweep_blocks<Float>(4, 1, 65, fg.tile_a + 1, fg.tile_x) == 2 * 2 * 1);
  // The measured volumes: 512^3 and 503 x 517 x 499 sweep on an H100 (132 multiprocessors, two
  // blocks each) and on 108; 128^3 floats do not, nor 256^3 floats (220 blocks) on 132.
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
    // (on 108, 256^3 floats are two waves, the second of 4 blocks: 51% busy, a tie at the H100's gain)
    if (sms == 132) CHECK_FALSE(fills(DF{}, 4, 256, 256, 256));
    CHECK_FALSE(fills(DD{}, 8, 40, 40, 40));
  }
  // 256^3 doubles: 440 blocks of 64 planes on 264 slots, 83% busy; the plan's 770 of 37 planes
  // keep 90% (below), so a gain of 1.10 with full waves would lose, 1.11 win; the default's sweeps
  // (H100, 64 steps: 1.65 / 1.34 against single steps' 0.86 under zero / clamp; H200 1.25 / 1.01
  // against 0.85, planned 1.32 / 1.10).
  CHECK(smemtile::stencil_sweep_blocks<Double>(8, 1, 256, 256, 256) == 440);
  CHECK_FALSE(smemtile::stencil_sweep_fills<Double>(8, 1, 256, 256, 256, 132, 1.10));
  CHECK(smemtile::stencil_sweep_fills<Double>(8, 1, 256, 256, 256, 132, 1.11));
  using DD = smemtile::DefaultStencilSweepPolicy<8, 1, StencilShape::star>;
  CHECK(smemtile::stencil_sweep_fills<Double>(8, 1, 256, 256, 256, 132, DD::gain_over_single_rewrites));
  // Fill policies and periodic may sweep on less than a wave (whole_wave false): 256^3 floats, 220
  // blocks on 264 slots, sweep on an H100 (probe, zero: 0.98 against single steps' 0.82), clamp and
  // reflect not (0.63 against 0.82); 128^3 (36 blocks) never.
  using DF = smemtile::DefaultStencilSweepPolicy<4, 1, StencilShape::star>;
  CHECK(smemtile::stencil_sweep_blocks<Float>(4, 1, 256, 256, 256) == 220);
  CHECK(smemtile::stencil_sweep_fills<Float>(4, 1, 256, 256, 256, 132, DF::gain_over_single, false));
  CHECK_FALSE(smemtile::stencil_sweep_fills<Float>(4, 1, 256, 256, 256, 132, DF::gain_over_single_rewrites, true));
  CHECK_FALSE(smemtile::stencil_sweep_fills<Float>(4, 1, 128, 128, 128, 132, DF::gain_over_single, false));
  // Too few blocks for one wave never sweeps with whole_wave, whatever the gain; a full last wave
  // needs gain >= 1.
  const long long blocks = smemtile::stencil_sweep_blocks<Float>(4, 1, 256, 256, 256);
  const int exact = static_cast<int>(blocks / Float::min_blocks);
  CHECK(smemtile::stencil_sweep_fills<Float>(4, 1, 256, 256, 256, exact, 1.0));
  CHECK_FALSE(smemtile::stencil_sweep_fills<Float>(4, 1, 256, 256, 256, exact, 0.99));
  CHECK_FALSE(smemtile::stencil_sweep_fills<Float>(4, 1, 256, 256, 256, exact + 1, 100.0));
  CHECK(smemtile::stencil_sweep_fills<Float>(4, 1, 256, 256, 256, exact + 1, 100.0, false));
}

TEST_CASE("stencil_sweep_plan: chunks of z that fill the GPU's waves, never longer than the reference") {
  using smemtile::StencilSweepPlan;
  using DF = smemtile::DefaultStencilSweepPolicy<4, 1, StencilShape::star>;
  using DD = smemtile::DefaultStencilSweepPolicy<8, 1, StencilShape::star>;
  using Fixed = smemtile::StencilSweepPolicy<3, 64, 32, 40, 256, 2, smemtile::StencilSweepCompute::registers>;
  STATIC_REQUIRE(DF::type::chunk == 0);  // every default plans its chunks
  STATIC_REQUIRE(DF::clamp_type::chunk == 0 && DF::unaligned_type::chunk == 0 && DD::type::chunk == 0);
  constexpr int ref = smemtile::stencil_sweep_reference_chunk;
  // The measured volumes (H200, 64 steps; docs/stencil-steps.md, "Planned chunks"), 264 slots.
  const auto plan = [](auto policy, int e, long long d, long long r, long long c, long long slots = 264) {
    return smemtile::stencil_sweep_plan<decltype(policy)>(e, 1, d, r, c, slots);
  };
  const StencilSweepPlan f192 = plan(DF::type{}, 4, 192, 192, 192), d256 = plan(DD::type{}, 8, 256, 256, 256);
  const StencilSweepPlan f384 = plan(DF::type{}, 4, 384, 384, 384), f512 = plan(DF::type{}, 4, 512, 512, 512);
  CHECK((f192.chunk == 24 && f192.blocks == 256));  // 0.64 -> 1.05 x the copy per step
  CHECK((d256.chunk == 37 && d256.blocks == 770));  // 1.19 -> 1.32
  CHECK((f384.chunk == 55 && f384.blocks == 784));  // 1.11 -> 1.17
  CHECK((f512.chunk == ref && f512.blocks == 1584 && f512.share == Approx(1.0)));  // full waves: unchanged
  CHECK(plan(DD::type{}, 8, 512, 512, 512).chunk == ref);
  CHECK(d256.share == Approx(110 * 256.0 / 64 * 70 / 264 / (3 * 43)));
  // Waves of the last, shorter chunk's blocks last as long as it: 250 x 340 x 260 floats, 66 tiles,
  // chunks of 64 planes: a wave of the first four chunks (70 planes swept) and one of the last
  // (4 + 6); full waves: 260 / 64 x 70 planes over 66 tiles on 264 slots.
  const StencilSweepPlan f260 = smemtile::stencil_sweep_plan_of<DF::type>(ref, 4, 1, 260, 340, 260, 264);
  CHECK(f260.blocks == 330);
  CHECK(f260.share == Approx(66 * 260.0 / 64 * 70 / 264 / (70 + 10)));
  CHECK(smemtile::stencil_sweep_plan_of<DF::type>(ref, 4, 1, 256, 340, 260, 264).share == Approx(1.0));
  CHECK(smemtile::stencil_sweep_plan_of<DF::type>(ref, 4, 1, 256, 340, 260, 0).share == 0.0);
  // Empty volumes: no blocks, no share, no division by their zero tiles.
  for (const auto& e : {std::array<long long, 3>{0, 40, 40}, {40, 0, 40}, {40, 40, 0}}) {
    const StencilSweepPlan z = plan(DF::type{}, 4, e[0], e[1], e[2]);
    CHECK((z.blocks == 0 && z.share == 0.0));
  }
  // A caller's chunk is kept; a volume shorter than it is one chunk.
  CHECK(plan(Fixed{}, 4, 192, 192, 192).chunk == 40);
  CHECK(plan(Fixed{}, 4, 30, 192, 192).chunk == 30);
  CHECK(plan(DF::type{}, 4, 10, 192, 192).chunk == 10);
  // Random volumes and GPUs: the plan is never expected slower than the reference chunks, never
  // longer, never shorter than stencil_sweep_min_chunk (or the volume), and its blocks cover the
  // volume's tiles and chunks.
  std::mt19937 rng(26);
  for (int i = 0; i < 20000; ++i) {
    const long long d = 1 + rng() % 1200, r = 1 + rng() % 1200, c = 1 + rng() % 1200, slots = 1 + rng() % 600;
    const StencilSweepPlan p = plan(DF::clamp_type{}, 4, d, r, c, slots);
    const StencilSweepPlan q = smemtile::stencil_sweep_plan_of<DF::clamp_type>(ref < d ? ref : static_cast<int>(d), 4,
                                                                               1, d, r, c, slots);
    CHECK(p.share >= q.share);
    CHECK(p.chunk <= (ref < d ? ref : d));
    CHECK(p.chunk >= (smemtile::stencil_sweep_min_chunk < d ? smemtile::stencil_sweep_min_chunk : d));
    CHECK(p.blocks == q.blocks / ((d + q.chunk - 1) / q.chunk) * ((d + p.chunk - 1) / p.chunk));
    if (p.chunk != q.chunk) CHECK(p.share >= q.share * smemtile::stencil_sweep_plan_margin);
  }
}

TEST_CASE("stencil_sweep_gain: the sweep's gain over single steps scales with the memory's bandwidth") {
  using DF = smemtile::DefaultStencilSweepPolicy<4, 1, StencilShape::star>;
  using DD = smemtile::DefaultStencilSweepPolicy<8, 1, StencilShape::star>;
  constexpr double h100 = DF::reference_bandwidth;                // HBM3, 2619 MHz, 5120 bits
  constexpr double h200 = 2.0 * 3201e6 * 6016.0 / 8.0;  // as an H200 reports it: 3201 MHz, 6016 bits
  CHECK(h100 == Approx(3.352e12).epsilon(1e-3));
  CHECK(smemtile::stencil_sweep_gain(1.19, h100, 0.0) == 1.19);  // bandwidth not reported: as measured
  CHECK(smemtile::stencil_sweep_gain(1.19, h100, h100) == Approx(1.19));
  CHECK(smemtile::stencil_sweep_gain(1.19, h100, 2 * h100) == Approx(0.595));
  // (rewrites: the gain of clamp and reflect)
  const auto sweeps = [](auto policy, int e, long long n, double bandwidth, bool rewrites = false) {
    using P = decltype(policy);
    const double gain = rewrites ? P::gain_over_single_rewrites : P::gain_over_single;
    return smemtile::stencil_sweep_fills<typename P::type>(
        e, 1, n, n, n, 132, smemtile::stencil_sweep_gain(gain, P::reference_bandwidth, bandwidth));
  };
  // Measured at 512^3, 7 points, zero, 64 steps, x the copy per step (the register sweeps;
  // docs/stencil-steps.md): H100 sweep 1.81 / 2.02 against single steps 0.91 / 0.93 (floats /
  // doubles), H200 1.30 / 1.49 against 0.94 / 0.93: sweeps on both.
  CHECK(sweeps(DF{}, 4, 512, h100));
  CHECK(sweeps(DD{}, 8, 512, h100));
  CHECK(sweeps(DF{}, 4, 512, h200));
  CHECK(sweeps(DD{}, 8, 512, h200));
  CHECK(sweeps(DF{}, 4, 512, 0.0));  // not reported: the H100's choice
  CHECK_FALSE(sweeps(DF{}, 4, 512, 2 * h200));  // twice the H200's bandwidth: single steps
  // Clamp (a second barrier per sweep step): floats 1.40 against 0.93 on the H100 (sweeps), 1.01
  // against 0.92 on the H200 (sweeps: the gain is within 10% of 1); doubles 1.85 against 0.93 on the
  // H100, 1.32 against 0.93 on the H200: sweeps.
  CHECK(sweeps(DF{}, 4, 512, h100, true));
  CHECK(sweeps(DF{}, 4, 512, h200, true));
  CHECK(smemtile::stencil_sweep_gain(DF::gain_over_single_rewrites, h100, h200) == Approx(1.05).epsilon(0.05));
  CHECK_FALSE(sweeps(DF{}, 4, 512, 1.2 * h200, true));
  CHECK(sweeps(DD{}, 8, 512, h100, true));
  CHECK(sweeps(DD{}, 8, 512, h200, true));
  // The vector sweep under float clamp has a gain of its own (docs/stencil-steps.md, "Planned
  // chunks"): 448^3 on the H200 sweeps (1.11 against single steps' 0.82), which the register
  // sweep's gain would leave to single steps; doubles keep theirs.
  STATIC_REQUIRE(DF::gain_over_single_clamp == 1.59);
  STATIC_REQUIRE(DD::gain_over_single_clamp == DD::gain_over_single_rewrites);
  const auto clamp_sweeps = [&](double gain, long long n) {
    return smemtile::stencil_sweep_fills<DF::clamp_type>(4, 1, n, n, n, 132,
                                                         smemtile::stencil_sweep_gain(gain, h100, h200), true);
  };
  CHECK(clamp_sweeps(DF::gain_over_single_clamp, 448));
  CHECK_FALSE(clamp_sweeps(DF::gain_over_single_rewrites, 448));
  CHECK_FALSE(clamp_sweeps(DF::gain_over_single_clamp, 256));  // less than a wave (0.62 swept, 0.86 single)
}

TEST_CASE("stencil sweep: 7-point floats under clamp take the vector sweep, the others keep theirs") {
  using smemtile::StencilSweepCompute;
  using DF = smemtile::DefaultStencilSweepPolicy<4, 1, StencilShape::star>;
  using DD = smemtile::DefaultStencilSweepPolicy<8, 1, StencilShape::star>;
  // 512^3 and 503 x 517 x 499 floats, 64 steps (docs/stencil-steps.md, "Vector sweeps"): faster under
  // clamp on both GPUs, not under reflect, nor for doubles.
  STATIC_REQUIRE(DF::clamp_type::compute == StencilSweepCompute::vectors);
  STATIC_REQUIRE(DF::clamp_unaligned_type::compute == StencilSweepCompute::vectors);
  STATIC_REQUIRE(DF::clamp_type::region_y == 64 && DF::clamp_type::region_x == 32);
  STATIC_REQUIRE(DF::clamp_unaligned_type::region_y == 32 && DF::clamp_unaligned_type::region_x == 64);
  STATIC_REQUIRE(DF::type::compute == StencilSweepCompute::registers);
  STATIC_REQUIRE(std::is_same<DD::clamp_type, DD::type>::value);
  STATIC_REQUIRE(std::is_same<DD::clamp_unaligned_type, DD::unaligned_type>::value);
  using Radius2 = smemtile::DefaultStencilSweepPolicy<4, 2, StencilShape::star>;
  STATIC_REQUIRE(std::is_same<Radius2::clamp_type, Radius2::type>::value);
  // Same regions as the register default on 16-byte rows (1584 blocks, six waves of 264 at 512^3);
  // rows off 16 bytes fill two blocks per multiprocessor where the register policy fills one.
  CHECK(smemtile::stencil_sweep_blocks<DF::clamp_type>(4, 1, 512, 512, 512) ==
        smemtile::stencil_sweep_blocks<DF::type>(4, 1, 512, 512, 512));
  CHECK(smemtile::stencil_sweep_blocks<DF::clamp_unaligned_type>(4, 1, 503, 517, 499) == 1440);
  CHECK(smemtile::stencil_sweep_fills<DF::clamp_unaligned_type>(4, 1, 503, 517, 499, 132,
                                                                DF::gain_over_unaligned_single_rewrites));
  CHECK(smemtile::stencil_sweep_shared_bytes<DF::clamp_unaligned_type>(4, 1) <= 99 * 1024);
}

TEST_CASE("stencil sweep: boxes of a separable op sweep their plane partials where the volume fills the GPU") {
  using smemtile::StencilSweepCompute;
  using BF = smemtile::DefaultStencilSweepPolicy<4, 1, StencilShape::box, true>;
  using BD = smemtile::DefaultStencilSweepPolicy<8, 1, StencilShape::box, true>;
  STATIC_REQUIRE(BF::type::compute == StencilSweepCompute::registers);
  STATIC_REQUIRE(BF::type::depth == 3 && BF::type::region_y == 32 && BF::type::region_x == 64);
  STATIC_REQUIRE(BD::type::depth == 2 && BD::type::region_y == 32 && BD::type::region_x == 32);
  STATIC_REQUIRE(std::is_same<BF::clamp_type, BF::type>::value && std::is_same<BF::unaligned_type, BF::type>::value);
  // Other boxes keep single steps; separable boxes are swept at radius 1 of 4- and 8-byte elements.
  STATIC_REQUIRE(!smemtile::stencil_sweep_selected<4, 1, StencilShape::box>);
  STATIC_REQUIRE(smemtile::stencil_sweep_selected<4, 1, StencilShape::box, true>);
  STATIC_REQUIRE(smemtile::stencil_sweep_selected<8, 1, StencilShape::box, true>);
  STATIC_REQUIRE(!smemtile::stencil_sweep_selected<4, 2, StencilShape::box, true>);
  STATIC_REQUIRE(!smemtile::stencil_sweep_selected<2, 1, StencilShape::box, true>);
  CHECK(smemtile::stencil_steps_choice<3, 4, 1, StencilShape::box, true>(227 * 1024).fused);
  CHECK_FALSE(smemtile::stencil_steps_choice<3, 4, 1, StencilShape::box>(227 * 1024).fused);
  // The H200's measurements (docs/stencil-steps.md, "Separable boxes"), scaled to its bandwidth.
  const double h200 = 4.8e12;
  const auto sweeps = [&](auto d, int bytes, double gain, long long n, bool whole_wave) {
    using D = decltype(d);
    return smemtile::stencil_sweep_fills<typename D::type>(bytes, 1, n, n, n, 132,
                                                           smemtile::stencil_sweep_gain(gain, D::reference_bandwidth, h200),
                                                           whole_wave);
  };
  for (long long n : {256, 384, 512}) CHECK(sweeps(BF{}, 4, BF::gain_over_single, n, false));  // zero 0.86-1.03 against 0.78-0.80
  CHECK_FALSE(sweeps(BF{}, 4, BF::gain_over_single, 192, false));  // 0.73 swept against 0.86
  CHECK_FALSE(sweeps(BF{}, 4, BF::gain_over_single_rewrites, 512, true));  // clamp 0.80 against 0.81
  for (long long n : {256, 384, 512}) CHECK(sweeps(BD{}, 8, BD::gain_over_single_rewrites, n, true));  // 0.69-1.02 against 0.47-0.51
  // Rows off 16 bytes (503 x 517 x 499 floats: zero 1.08 against 0.66, clamp 0.90 against 0.67).
  CHECK(smemtile::stencil_sweep_fills<BF::type>(4, 1, 503, 517, 499, 132, BF::gain_over_unaligned_single_rewrites));
}

TEST_CASE("stencil sweep: rows off 16 bytes sweep on both GPUs (single steps cannot load by TMA)") {
  using DF = smemtile::DefaultStencilSweepPolicy<4, 1, StencilShape::star>;
  using DD = smemtile::DefaultStencilSweepPolicy<8, 1, StencilShape::star>;
  // 503 x 517 x 499 floats, 7 points, 64 steps (docs/stencil-steps.md): the unaligned policy's
  // register sweeps 1.84 / 1.48 against single steps 0.57 / 0.74 on an H100 (zero / clamp), 1.37 /
  // 1.08 against 0.53 / 0.62 on an H200; 648 blocks of one per multiprocessor, 5 waves on 132.
  using FloatUnaligned = DF::unaligned_type;
  STATIC_REQUIRE(FloatUnaligned::region_x == 64);
  STATIC_REQUIRE(FloatUnaligned::compute == smemtile::StencilSweepCompute::registers);
  STATIC_REQUIRE(std::is_same<DD::unaligned_type, DD::type>::value);  // doubles: not measured
  STATIC_REQUIRE(std::is_same<smemtile::DefaultStencilSweepPolicy<4, 1, StencilShape::box>::unaligned_type,
                              smemtile::DefaultStencilSweepPolicy<4, 1, StencilShape::box>::type>::value);
  CHECK(smemtile::stencil_sweep_blocks<FloatUnaligned>(4, 1, 503, 517, 499) == 648);
  CHECK(smemtile::stencil_sweep_fills<FloatUnaligned>(4, 1, 503, 517, 499, 132, DF::gain_over_unaligned_single));
  CHECK(smemtile::stencil_sweep_fills<FloatUnaligned>(4, 1, 503, 517, 499, 132, DF::gain_over_unaligned_single_rewrites));
  // its planes fit an H100's or an A100's blocks (227 and 163 KB), not an sm_86's (99 KB: `type` there)
  CHECK(smemtile::stencil_sweep_shared_bytes<FloatUnaligned>(4, 1) <= 163 * 1024);
  CHECK(smemtile::stencil_sweep_shared_bytes<FloatUnaligned>(4, 1) > 99 * 1024);
  CHECK(smemtile::stencil_sweep_shared_bytes<DF::type>(4, 1) <= 99 * 1024);
  CHECK_FALSE(smemtile::stencil_rows_tma_aligned(9, 0x10000, 517LL * 499 * 4, 499LL * 4));
  CHECK(smemtile::stencil_rows_tma_aligned(9, 0x10000, 512LL * 512 * 4, 512LL * 4));
  CHECK_FALSE(smemtile::stencil_rows_tma_aligned(9, 0x10004, 512LL * 512 * 4, 512LL * 4));  // address
  CHECK_FALSE(smemtile::stencil_rows_tma_aligned(8, 0x10000, 512LL * 512 * 4, 512LL * 4));  // no TMA (sm_89)
  CHECK(smemtile::stencil_rows_16_aligned(0x10000, 512LL * 512 * 4, 512LL * 4));  // (a sweep's 16-byte units: any GPU)
  CHECK_FALSE(smemtile::stencil_rows_16_aligned(0x10000, 512LL * 513 * 4, 513LL * 4));
  // The volumes "device_stencil_steps 3D through the selector on volumes that fill the GPU" sweeps
  // (tests/device/stencil_steps_gpu_misc_test.cu): full waves on 132 multiprocessors.
  constexpr double h200 = 2.0 * 3201e6 * 6016.0 / 8.0;  // (as an H200 reports it)
  // (4 steps under clamp, 5 under zero)
  CHECK(smemtile::stencil_sweep_blocks<FloatUnaligned>(4, 1, 127, 345, 611) == 132);
  CHECK(smemtile::stencil_sweep_fills<FloatUnaligned>(
      4, 1, 127, 345, 611, 132, DF::gain_over_unaligned_single_rewrites * smemtile::stencil_sweep_passes_share(4, 3)));
  CHECK(smemtile::stencil_sweep_blocks<DF::type>(4, 1, 250, 340, 260) == 264);
  CHECK(smemtile::stencil_sweep_fills<DF::type>(
      4, 1, 250, 340, 260, 132,
      smemtile::stencil_sweep_gain(DF::gain_over_single, DF::reference_bandwidth, h200) *
          smemtile::stencil_sweep_passes_share(5, 3)));
  CHECK(smemtile::stencil_sweep_blocks<DD::type>(8, 1, 128, 312, 264) == 264);  // (4 steps under clamp)
  CHECK(smemtile::stencil_sweep_fills<DD::type>(
      8, 1, 128, 312, 264, 132,
      smemtile::stencil_sweep_gain(DD::gain_over_single_rewrites, DD::reference_bandwidth, h200) *
          smemtile::stencil_sweep_passes_share(4, 3)));
  // the blocks must still fill the GPU: 127^3 doubles (125 blocks on 264 slots) stay single steps
  CHECK_FALSE(smemtile::stencil_sweep_fills<DD::type>(8, 1, 127, 127, 127, 132, DD::gain_over_unaligned_single));
}

TEST_CASE("stencil_sweep_passes_share: short passes keep less of a sweep's gain") {
  using smemtile::stencil_sweep_passes_share;
  CHECK(stencil_sweep_passes_share(3, 3) == Approx(1.0));
  CHECK(stencil_sweep_passes_share(6, 3) == Approx(1.0));
  CHECK(stencil_sweep_passes_share(2, 3) == Approx(0.875));  // one pass of 2 (measured 0.87-0.88)
  CHECK(stencil_sweep_passes_share(4, 3) == Approx(0.875));  // passes of 2 and 2
  CHECK(stencil_sweep_passes_share(8, 3) == Approx(8.0 / 3 * 4.2 / (3 * 1.2 + 8)));  // 3, 3 and 2
  CHECK(stencil_sweep_passes_share(64, 3) > 0.99);
  CHECK(stencil_sweep_passes_share(1, 3) < 0.7);
  CHECK(stencil_sweep_passes_share(0, 3) == 0.0);
  CHECK(stencil_sweep_passes_share(5, 2) == Approx(5.0 / 2 * 3.2 / (3 * 1.2 + 5)));  // 2, 2 and 1
  // 512^3 floats under clamp (NVBench, x the copy per step, before the phase rotation): the H200
  // (gain 1.01 at full depth; 1.05 since) swept 2 and 4 steps at 0.83 against single steps' 0.91,
  // and 64 at 0.94 against 0.91; the H100 (1.45; 1.51 since) swept 2 steps at 1.18 against 0.93.
  using DF = smemtile::DefaultStencilSweepPolicy<4, 1, StencilShape::star>;
  constexpr double h200 = 2.0 * 3201e6 * 6016.0 / 8.0;  // (as an H200 reports it)
  const double h200_clamp = smemtile::stencil_sweep_gain(DF::gain_over_single_rewrites, DF::reference_bandwidth, h200);
  const auto sweeps = [](double gain, int steps) {
    return smemtile::stencil_sweep_fills<DF::type>(4, 1, 512, 512, 512, 132, gain * stencil_sweep_passes_share(steps, 3));
  };
  CHECK_FALSE(sweeps(h200_clamp, 2));
  CHECK_FALSE(sweeps(h200_clamp, 4));
  CHECK(sweeps(h200_clamp, 64));
  CHECK(sweeps(DF::gain_over_single_rewrites, 2));
}

TEST_CASE("stencil_sweep_planes: the rings of each sweep scheme") {
  using smemtile::StencilSweepCompute;
  using Planes = smemtile::StencilSweepPolicy<3, 32, 64, 64>;
  using Registers = smemtile::StencilSweepPolicy<3, 32, 64, 64, 512, 1, StencilSweepCompute::registers>;
  // planes: 2R + 2 planes per level below the last and a fill plane
  CHECK(smemtile::stencil_sweep_planes<Planes>(1) == 3 * 4 + 1);
  CHECK(smemtile::stencil_sweep_planes<Planes>(2) == 3 * 6 + 1);
  // registers: the input's planes in flight, the one read into registers and R before it; R + 1 per
  // later level below the last
  CHECK(smemtile::stencil_sweep_planes<Registers>(1) == smemtile::stencil_sweep_prefetch + 2 + 2 * 2);
  CHECK(smemtile::stencil_sweep_planes<Registers>(3) == smemtile::stencil_sweep_prefetch + 4 + 2 * 4);
  // bytes: planes of (RegionY + 2R) rows, alignment and padding, and registers' row and column tables
  CHECK(smemtile::stencil_sweep_shared_bytes<Planes>(4, 1) == 13LL * 34 * 64 * 4 + 128);
  CHECK(smemtile::stencil_sweep_shared_bytes<Registers>(4, 1) == 9LL * 34 * 64 * 4 + 384 + 4 * (32 + 64));
}

namespace {
// Every point a register sweep computes where it maps to under index policy B (outside the array,
// near it on both axes: SweepRunPlace) maps to a point inside the array and inside the block's
// region, on every axis of n elements (the mapping and the region are per axis), so that the
// thread reads that point's neighbours in the region's plane (padded by R rows): brute force over
// the blocks of n = 1 ... 3 tiles + 9.
template <class Policy, class B>
void check_mapped_sources(int elem_bytes, int radius) {
  const smemtile::StencilStepsGeometry g =
      smemtile::stencil_steps_geometry<smemtile::detail::SweepPlanePolicy<Policy>>(elem_bytes, radius);
  const int reach = Policy::depth * radius;
  const auto axis = [&](int region, int halo, int tile) {
    for (int n = 1; n <= 3 * tile + 9; ++n)
      for (int block = 0; block < (n + tile - 1) / tile; ++block) {
        const int start = block * tile - halo;  // the region's first index
        for (int r = 0; r < region; ++r) {
          const int i = start + r;
          if (i >= 0 && i < n) continue;
          if (!smemtile::stencil_sweep_near(i, n, reach)) continue;
          const int source = smemtile::boundary_source_index<B>(i, n);
          INFO("n " << n << ", region start " << start << ", index " << i << ", source " << source);
          CHECK((source >= 0 && source < n));
          CHECK((source >= start && source < start + region));
        }
      }
  };
  axis(Policy::region_y, g.halo_a, g.tile_a);
  axis(Policy::region_x, g.halo_x, g.tile_x);
}
}  // namespace

TEST_CASE("register sweeps: the outside points computed where they map under clamp and reflect map inside the region") {
  using smemtile::StencilShape;
  using smemtile::StencilSweepCompute;
  using smemtile::StencilSweepPolicy;
  using Float = smemtile::DefaultStencilSweepPolicy<4, 1, StencilShape::star>::type;
  using Double = smemtile::DefaultStencilSweepPolicy<8, 1, StencilShape::star>::type;
  using Radius2 = StencilSweepPolicy<2, 24, 32, 8, 256, 1, StencilSweepCompute::registers>;
  using Radius3 = StencilSweepPolicy<2, 24, 64, 5, 512, 1, StencilSweepCompute::registers>;
  using Narrow = StencilSweepPolicy<3, 16, 64, 8, 256, 1, StencilSweepCompute::registers>;
  check_mapped_sources<Float, smemtile::boundary::Reflect>(4, 1);
  check_mapped_sources<Float, smemtile::boundary::Clamp>(4, 1);
  check_mapped_sources<Double, smemtile::boundary::Reflect>(8, 1);
  check_mapped_sources<Radius2, smemtile::boundary::Reflect>(8, 2);
  check_mapped_sources<Radius3, smemtile::boundary::Reflect>(4, 3);
  check_mapped_sources<Narrow, smemtile::boundary::Reflect>(4, 1);
  check_mapped_sources<Narrow, smemtile::boundary::Clamp>(4, 1);
  // Without the reach limit a far point maps outside the region: reflect, 57 columns, the second
  // block of 64-column regions (starting at 52): column 84 stands for 28.
  CHECK(smemtile::boundary_source_index<smemtile::boundary::Reflect>(84, 57) == 28);
  CHECK_FALSE(smemtile::stencil_sweep_near(84, 57, 3));
  CHECK(smemtile::stencil_sweep_near(59, 57, 3));
  CHECK_FALSE(smemtile::stencil_sweep_near(-4, 57, 3));
  CHECK(smemtile::stencil_sweep_near(-3, 57, 3));
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

namespace {

// Every row and strip of an ny x nx array covered exactly once by the plan's tasks, band after band,
// strips in order within a band; bands of at least min_rows rows (or ny), side strips in side_split
// tasks per band.
void check_stream_plan(long long ny, long long nx, int width, int halo, int side_split, int min_rows,
                       long long resident) {
  INFO(ny << " x " << nx << ", width " << width << ", halo " << halo << ", side split " << side_split
          << ", min rows " << min_rows << ", resident " << resident);
  const smemtile::StencilStepsStreamPlan plan =
      smemtile::stencil_steps_stream_plan(ny, nx, width, halo, side_split, min_rows, resident);
  REQUIRE(plan.strips == (nx + width - 1) / width);
  REQUIRE(plan.rows >= 1);
  REQUIRE(plan.side_split == side_split);
  CHECK(plan.rows >= (min_rows < ny ? min_rows : ny));
  CHECK(plan.tasks == (ny + plan.rows - 1) / plan.rows * plan.tasks_per_band());
  std::vector<int> covered(static_cast<std::size_t>(ny * plan.strips), 0);
  long long out_of_order = 0, side_tasks = 0;
  smemtile::StencilStepsStreamTask last{};
  for (long long t = 0; t < plan.tasks; ++t) {
    const smemtile::StencilStepsStreamTask task = smemtile::stencil_steps_stream_task_at(plan, t, ny);
    REQUIRE(task.strip >= 0);
    REQUIRE(task.strip < plan.strips);
    REQUIRE(task.y0 >= 0);
    REQUIRE(task.y1 <= ny);
    REQUIRE(task.y0 <= task.y1);
    CHECK(task.y0 / plan.rows == t / plan.tasks_per_band());  // its band
    if (t % plan.tasks_per_band() != 0) out_of_order += task.strip < last.strip;
    side_tasks += task.strip == 0 || task.strip == plan.strips - 1;
    last = task;
    for (int y = task.y0; y < task.y1; ++y) ++covered[static_cast<std::size_t>(y * plan.strips + task.strip)];
  }
  CHECK(out_of_order == 0);
  CHECK(side_tasks == (ny + plan.rows - 1) / plan.rows * plan.side_strips() * side_split);
  long long wrong = 0;
  for (int c : covered) wrong += c != 1;
  CHECK(wrong == 0);
}

// The loop's parts (stencil_steps_stream_parts): no iteration of the inner part loads a row outside
// the array, or has a step read, save or fill a row at its ends (the conditions of
// steps_stream_iteration, tried one by one); the parts start at multiples of the unroll.
void check_stream_parts(int y0, int y1, int ny, int depth, int radius, int ahead) {
  INFO("rows " << y0 << " ... " << y1 << " of " << ny << ", depth " << depth << ", radius " << radius << ", ahead "
               << ahead);
  const int unroll = 2 * radius + 1, kr = depth * radius, top = y0 - kr, loads = y1 - y0 + 2 * kr;
  const smemtile::StencilStepsStreamParts parts =
      smemtile::stencil_steps_stream_parts(y0, y1, ny, depth, radius, ahead, unroll);
  REQUIRE(parts.head % unroll == 0);
  REQUIRE(parts.tail % unroll == 0);
  REQUIRE(parts.head >= 0);
  REQUIRE(parts.head <= parts.tail);
  long long edge_work = 0;
  for (int i = parts.head; i < parts.tail && i < loads; ++i) {
    const int load = ahead == 0 ? top + i : top + i + ahead;
    if ((ahead == 0 || i + ahead < loads) && (load < 0 || load >= ny)) ++edge_work;
    for (int s = 1; s <= depth; ++s) {
      const int r = top + i - s * radius;
      if (s > 1 && (r < radius || r >= ny - radius)) ++edge_work;                    // edge-row reads
      if (s < depth && (r < 0 || r >= ny || r <= radius || r >= ny - 1 - radius)) ++edge_work;  // fills, saves
    }
  }
  CHECK(edge_work == 0);
}

}  // namespace

TEST_CASE("stencil_steps_stream_plan: every row of every strip in exactly one task, band after band") {
  std::mt19937 rng(2611);
  check_stream_plan(8192, 8192, 112, 8, 8, 64, 2112);
  check_stream_plan(8191, 8193, 112, 8, 2, 64, 1584);
  check_stream_plan(1, 1, 112, 8, 2, 64, 2112);
  check_stream_plan(5, 300, 120, 4, 8, 64, 7);
  check_stream_plan(300, 113, 112, 8, 3, 64, 100);  // two strips: both sides
  check_stream_plan(3000, 100, 112, 8, 8, 1, 4000);  // one strip
  for (int i = 0; i < 300; ++i) {
    const long long ny = std::uniform_int_distribution<long long>(1, 3000)(rng);
    const long long nx = std::uniform_int_distribution<long long>(1, 3000)(rng);
    const int width = std::uniform_int_distribution<int>(8, 250)(rng);
    check_stream_plan(ny, nx, width, std::uniform_int_distribution<int>(1, 16)(rng),
                      std::uniform_int_distribution<int>(1, 12)(rng), std::uniform_int_distribution<int>(1, 128)(rng),
                      std::uniform_int_distribution<long long>(1, 4000)(rng));
  }
}

TEST_CASE("stencil_steps_stream_plan: arrays that fill the GPU take one wave of tall bands") {
  // 8192^2 floats at depth 8 (112 columns a strip: 74 strips), 132 multiprocessors of 4 blocks of
  // 4 warps: 24 bands of 72 inner tasks and 2 x 8 side tasks fill the 2112 warps once.
  const auto clamp = smemtile::stencil_steps_stream_plan(8192, 8192, 112, 8, 8, 64, 2112);
  CHECK(clamp.tasks == 2112);
  CHECK(clamp.rows == 342);
  const auto zero = smemtile::stencil_steps_stream_plan(8192, 8192, 112, 8, 2, 64, 2112);
  CHECK(zero.tasks <= 2112);
  CHECK(zero.tasks > 0.95 * 2112);
}

TEST_CASE("stencil_steps_stream_parts: the inner part of a task's loop holds no edge work") {
  std::mt19937 rng(2612);
  check_stream_parts(0, 300, 8192, 8, 1, 3);
  check_stream_parts(7900, 8192, 8192, 8, 1, 3);
  check_stream_parts(0, 8192, 8192, 8, 1, 0);
  check_stream_parts(3, 5, 16, 8, 1, 3);
  for (int i = 0; i < 3000; ++i) {
    const int radius = std::uniform_int_distribution<int>(1, 4)(rng);
    const int depth = std::uniform_int_distribution<int>(2, 10)(rng);
    const int ny = std::uniform_int_distribution<int>(2 * depth * radius, 600)(rng);
    const int y0 = std::uniform_int_distribution<int>(0, ny - 1)(rng);
    const int y1 = std::uniform_int_distribution<int>(y0 + 1, ny)(rng);
    check_stream_parts(y0, y1, ny, depth, radius, std::uniform_int_distribution<int>(0, 8)(rng));
  }
}

TEST_CASE("the default stream policies: checks, width, fit and the selector's choice") {
  using smemtile::DefaultStencilStepsStreamPolicy;
  using F5 = DefaultStencilStepsStreamPolicy<4, 1, StencilShape::star>::type;
  using F9 = DefaultStencilStepsStreamPolicy<4, 1, StencilShape::box>::type;
  using F13 = DefaultStencilStepsStreamPolicy<4, 2, StencilShape::star>::type;
  using D5 = DefaultStencilStepsStreamPolicy<8, 1, StencilShape::star>::type;
  (void)smemtile::StencilStepsStreamPolicyCheck<F5, 1>::ok;
  (void)smemtile::StencilStepsStreamPolicyCheck<F9, 1>::ok;
  (void)smemtile::StencilStepsStreamPolicyCheck<F13, 2>::ok;
  (void)smemtile::StencilStepsStreamPolicyCheck<D5, 1>::ok;
  CHECK(F5::depth == 8);
  CHECK(F9::depth == 8);
  CHECK(F13::depth == 4);
  CHECK(D5::depth == 6);
  // Rows ahead: one in stars (registers), boxes three on vector rows and one on element rows.
  CHECK((F5::ahead == 1 && F5::scalar_ahead == 1 && F5::min_blocks == 4));
  CHECK((F9::ahead == 3 && F9::scalar_ahead == 1 && F9::min_blocks == 3));
  CHECK((D5::ahead == 1 && D5::scalar_ahead == 1 && D5::min_blocks == 4 && D5::columns == 2));
  CHECK(smemtile::StencilStepsStreamPolicy<4, 4, 2>::scalar_ahead == 2);  // ScalarAhead defaults to Ahead
  CHECK(smemtile::stencil_steps_stream_width(4, 8, 1) == 112);
  CHECK(smemtile::stencil_steps_stream_width(4, 4, 2) == 112);
  CHECK(smemtile::stencil_steps_stream_width(4, 4, 1) == 120);
  CHECK(smemtile::stencil_steps_stream_width(2, 6, 1) == 52);
  // Fit: a whole strip across and 2 x depth x R rows.
  CHECK(smemtile::stencil_steps_stream_fits(16, 128, 4, 8, 1));
  CHECK_FALSE(smemtile::stencil_steps_stream_fits(15, 128, 4, 8, 1));
  CHECK_FALSE(smemtile::stencil_steps_stream_fits(16, 127, 4, 8, 1));
  // Fills: 8192^2 on 132 multiprocessors; the heat example's 1024 x 1536 plate does not.
  CHECK(smemtile::stencil_steps_stream_fills<F5, 1>(8192, 8192, 132));
  CHECK(smemtile::stencil_steps_stream_fills<D5, 1>(8191, 8193, 132));
  CHECK_FALSE(smemtile::stencil_steps_stream_fills<F5, 1>(1024, 1536, 132));
  // Selected (aligned / odd rows): 5-point floats under fills, periodic and clamp; 5-point doubles
  // under every policy; radius-1 float boxes under fills and clamp (every policy with rings of
  // partials); radius-2 float stars under fills, periodic on odd rows; float reflect never.
  using smemtile::stencil_steps_stream_selected;
  using B = smemtile::StencilStepsStreamBoundary;
  constexpr auto star = StencilShape::star, box = StencilShape::box;
  const auto both = [&](int bytes, int r, StencilShape s, B b) {
    return 2 * stencil_steps_stream_selected(bytes, r, s, b, true) + stencil_steps_stream_selected(bytes, r, s, b, false);
  };
  CHECK(both(4, 1, star, B::fill) == 3);
  CHECK(both(4, 1, star, B::periodic) == 3);
  CHECK(both(4, 1, star, B::clamp) == 3);
  CHECK(both(4, 1, star, B::reflect) == 0);
  CHECK(both(4, 1, box, B::fill) == 3);
  CHECK(both(4, 1, box, B::clamp) == 3);
  CHECK(both(4, 1, box, B::periodic) == 0);
  CHECK(both(4, 1, box, B::reflect) == 0);
  CHECK(both(4, 2, star, B::fill) == 3);
  CHECK(both(4, 2, star, B::periodic) == 1);
  CHECK(both(4, 2, star, B::clamp) == 0);
  CHECK(both(8, 1, star, B::fill) == 3);
  CHECK(both(8, 1, star, B::periodic) == 3);
  CHECK(both(8, 1, star, B::clamp) == 3);
  CHECK(both(8, 1, star, B::reflect) == 3);
  CHECK(both(8, 1, box, B::fill) == 0);
  CHECK(both(4, 3, star, B::fill) == 0);
  CHECK(both(4, 2, box, B::fill) == 0);
  CHECK(both(2, 1, star, B::fill) == 0);
  CHECK(both(8, 2, star, B::fill) == 0);
  // A separable op whose partials the rings hold: radius-1 float boxes stream under every policy;
  // nothing else changes.
  const auto partials = [&](int bytes, int r, StencilShape s, B b) {
    return 2 * stencil_steps_stream_selected(bytes, r, s, b, true, true) +
           stencil_steps_stream_selected(bytes, r, s, b, false, true);
  };
  for (B b : {B::fill, B::periodic, B::clamp, B::reflect}) CHECK(partials(4, 1, box, b) == 3);
  CHECK(partials(4, 2, box, B::periodic) == 0);
  CHECK(partials(8, 1, box, B::reflect) == 0);
  CHECK(partials(4, 1, star, B::reflect) == 0);
}
