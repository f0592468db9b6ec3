// GPU tests: 2D device_stencil through each forced loader path (StencilForcedLoader) equals the
// selected path bit for bit (stencil_gpu_paths_common.cuh says how). Star and box, radii 1 to 4
// (one boundary policy each, every policy for radius 1), random shapes.
#include "stencil_gpu_paths_common.cuh"

namespace {

using namespace stencil_paths;
constexpr StencilShape star = StencilShape::star;
constexpr StencilShape box = StencilShape::box;
constexpr int cases = 6;

TEST_CASE("device_stencil 2D: cp.async forced equals TMA, star radii 1 to 4") {
  STENCIL_TEST_SEEDED_RNG(rng);
  forced_paths_radius<2, 1, star, kClamp>(cases, rng);
  forced_paths_radius<2, 2, star, kPeriodic>(cases, rng);
  forced_paths_radius<2, 3, star, kReflect>(cases, rng);
  forced_paths_radius<2, 4, star, kConstant>(cases, rng);
}

TEST_CASE("device_stencil 2D: cp.async forced equals TMA, box radii 1 to 4") {
  STENCIL_TEST_SEEDED_RNG(rng);
  forced_paths_radius<2, 1, box, kPeriodic>(cases, rng);
  forced_paths_radius<2, 2, box, kClamp>(cases, rng);
  forced_paths_radius<2, 3, box, kZero>(cases, rng);
  forced_paths_radius<2, 4, box, kReflect>(cases, rng);
}

}  // namespace
