// GPU tests: 3D device_stencil through each forced loader path (StencilForcedLoader) equals the
// selected path bit for bit (stencil_gpu_paths_common.cuh says how). Star and box, radii 1 to 4
// (one boundary policy each, every policy for radius 1), random shapes. TMA by row classes forced
// on volumes whose rows are off 16 bytes (dense planes) against the host reference, every policy;
// planes that are not dense refused with a message, and taken by cp.async where selected.
#include <string>

#include "stencil_gpu_paths_common.cuh"

namespace {

using namespace stencil_paths;
constexpr StencilShape star = StencilShape::star;
constexpr StencilShape box = StencilShape::box;
constexpr int cases = 6;

TEST_CASE("device_stencil 3D: cp.async forced equals TMA, star radii 1 to 4") {
  STENCIL_TEST_SEEDED_RNG(rng);
  forced_paths_radius<3, 1, star, kClamp>(cases, rng);
  forced_paths_radius<3, 2, star, kPeriodic>(cases, rng);
  forced_paths_radius<3, 3, star, kReflect>(cases, rng);
  forced_paths_radius<3, 4, star, kConstant>(cases, rng);
}

TEST_CASE("device_stencil 3D: cp.async forced equals TMA, box radii 1 to 4") {
  STENCIL_TEST_SEEDED_RNG(rng);
  forced_paths_radius<3, 1, box, kPeriodic>(cases, rng);
  forced_paths_radius<3, 2, box, kClamp>(cases, rng);
  forced_paths_radius<3, 3, box, kZero>(cases, rng);
  forced_paths_radius<3, 4, box, kReflect>(cases, rng);
}

// Random volumes with dense planes (slice = rows * pitch) whose rows are at any 16-byte phase (a
// random pitch and base offset; a third at pitch = cols): depth up to 70 (chunks of 64 planes),
// rows around the planes' 16 or 32, columns around 64 and 256; at least 16 / sizeof(T) rows in all.
template <class T>
Geometry row_classes_geometry(std::mt19937& rng, int i) {
  const int depth = i % 4 == 0 ? uniform(rng, 1, 3) : uniform(rng, 1, 70);
  const int rows = i % 3 == 0 ? uniform(rng, 1, 12) : uniform(rng, 1, 80);
  const int cols = i % 5 == 0 ? uniform(rng, 1, 20) : uniform(rng, 1, 600);
  Geometry g = with_layout(rng, 3, depth * rows < 16 / static_cast<int>(sizeof(T)) ? 16 : depth, rows, cols);
  g.in_pitch = uniform(rng, 0, 2) == 0 ? cols : cols + uniform(rng, 0, 9);
  g.in_offset = uniform(rng, 0, 3);
  g.in_slice = rows * g.in_pitch;
  return g;
}

template <int R, StencilShape S, int P, class T, smemtile::StencilTiles Tiles>
void row_classes_3d_cases(int cases, std::mt19937& rng) {
  using Forced = StencilForcedLoader<StencilLoader::tma_row_classes, Tiles>;
  const auto op = random_op<T, 3, R, S>(rng);
  INFO("3D row classes device_stencil<" << R << ", " << (S == star ? "star" : "box") << "> " << sizeof(T)
                                        << "-byte elements, policy " << policy_name(P));
  for (int i = 0; i < cases; ++i) {
    INFO("case " << i);
    check_stencil<3, R, S, P, T>(row_classes_geometry<T>(rng, i), op, rng, Forced{});
  }
}

TEST_CASE("device_stencil 3D: TMA by row classes, rows at any phase, every policy") {
  if (!gpu_has_tma()) {
    WARN("TMA needs sm_90 or later: row classes not run");
    return;
  }
  STENCIL_TEST_SEEDED_RNG(rng);
  using smemtile::StencilTiles;
  row_classes_3d_cases<1, star, kZero, float, StencilTiles::large>(8, rng);       // star columns, 32 x 256
  row_classes_3d_cases<1, star, kClamp, float, StencilTiles::large>(8, rng);
  row_classes_3d_cases<1, star, kPeriodic, float, StencilTiles::standard>(6, rng);
  row_classes_3d_cases<1, star, kConstant, double, StencilTiles::large>(8, rng);  // 32 x 128 doubles
  row_classes_3d_cases<1, star, kReflect, double, StencilTiles::large>(6, rng);
  row_classes_3d_cases<2, star, kPeriodic, float, StencilTiles::standard>(6, rng);  // star strips
  row_classes_3d_cases<4, star, kReflect, float, StencilTiles::standard>(6, rng);
  row_classes_3d_cases<2, star, kClamp, double, StencilTiles::standard>(6, rng);
  row_classes_3d_cases<1, box, kZero, float, StencilTiles::standard>(8, rng);     // box strips
  row_classes_3d_cases<1, box, kPeriodic, float, StencilTiles::standard>(6, rng);
  row_classes_3d_cases<1, box, kClamp, int, StencilTiles::standard>(6, rng);
}

TEST_CASE("device_stencil 3D: planes that are not dense are refused by row classes, and selected elsewhere") {
  if (!gpu_has_tma()) {
    WARN("TMA needs sm_90 or later: row classes not run");
    return;
  }
  STENCIL_TEST_SEEDED_RNG(rng);
  DeviceBuffer<float> d_in(8 * 20 * 40 + 64), d_out(8 * 20 * 40 + 64);
  const auto in = smemtile::make_global_volume<const float>(d_in.get() + 1, 8, 19, 37, 39, 20 * 39);
  const auto out = smemtile::make_global_volume(d_out.get(), 8, 19, 37, 39, 20 * 39);
  const smemtile::LaunchStatus status = smemtile::device_stencil<1, star>(
      StencilForcedLoader<StencilLoader::tma_row_classes>{}, in, out, smemtile::boundary::zero, random_op<float, 3, 1, star>(rng));
  CHECK(status.error == cudaErrorInvalidValue);
  CHECK(status.message.find("stride(0) must be extent(1) * stride(1)") != std::string::npos);
  // The selection goes on to cp.async: planes 20 * 39 + 5 apart, rows off 16 bytes.
  for (int i = 0; i < 4; ++i) {
    Geometry g = with_layout(rng, 3, uniform(rng, 1, 30), uniform(rng, 1, 40), uniform(rng, 1, 300));
    g.in_pitch = g.cols + 1;
    g.in_offset = 1;
    g.in_slice = g.rows * g.in_pitch + 5;
    check_stencil<3, 1, star, kClamp, float>(g, random_op<float, 3, 1, star>(rng), rng);
  }
}

}  // namespace
