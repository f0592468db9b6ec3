// Compile-fail snippet (tests/device/CMakeLists.txt): a fused-steps policy breaking an invariant stops
// compilation with the static_assert beside the policy (device/tuning/stencil_steps_policy.cuh).
//   SMEMTILE_STEPS_CASE 0  a 2D region of 16 rows for 8 steps of radius 1 (halo 8 on each side):
//                          "enlarge the region or lower the depth"
//   SMEMTILE_STEPS_CASE 1  a region 100 wide (a warp computes 32 consecutive x):
//                          "make RegionX a multiple of 32"
//   SMEMTILE_STEPS_CASE 2  runs of 4 points in the points scheme: "points take Vector 1"
//   SMEMTILE_STEPS_CASE 3  one step per pass: "a pass fuses at least 2 steps"
//   SMEMTILE_STEPS_CASE 4  a valid caller's policy: accepted (the control)
//   SMEMTILE_STEPS_CASE 5  a 2D window of 64-wide rows in runs of 4 (16 lines: a warp would walk two
//                          segments of rows): "a multiple of 32"
//   SMEMTILE_STEPS_CASE 6  a stream of one column per lane for radius 2: "at least the radius"
//   SMEMTILE_STEPS_CASE 7  a stream of 3 steps on 4 columns per lane: "a multiple of Columns"
//   SMEMTILE_STEPS_CASE 8  a stream of 3 columns per lane: "is 1, 2, 4 or 8"
//   SMEMTILE_STEPS_CASE 9  a valid stream policy: accepted (the control)
#include <smemtile/smemtile.cuh>

using namespace smemtile;

#if SMEMTILE_STEPS_CASE == 0
using P = StencilStepsPolicy<2, 8, 16, 1, 128, StencilStepsCompute::window, 4>;
#elif SMEMTILE_STEPS_CASE == 1
using P = StencilStepsPolicy<2, 4, 64, 1, 100, StencilStepsCompute::window, 1>;
#elif SMEMTILE_STEPS_CASE == 2
using P = StencilStepsPolicy<2, 4, 64, 1, 128, StencilStepsCompute::points, 4>;
#elif SMEMTILE_STEPS_CASE == 3
using P = StencilStepsPolicy<2, 1, 64, 1, 128, StencilStepsCompute::window, 4>;
#elif SMEMTILE_STEPS_CASE == 5
using P = StencilStepsPolicy<2, 4, 64, 1, 64, StencilStepsCompute::window, 4>;
#else
using P = StencilStepsPolicy<2, 4, 64, 1, 128, StencilStepsCompute::window, 4>;
#endif

static_assert(StencilStepsPolicyCheck<P, 4, 1, StencilShape::star>::ok, "");

#if SMEMTILE_STEPS_CASE >= 6
#if SMEMTILE_STEPS_CASE == 6
using Stream = StencilStepsStreamPolicy<4, 1, 3>;
constexpr int stream_radius = 2;
#elif SMEMTILE_STEPS_CASE == 7
using Stream = StencilStepsStreamPolicy<3, 4, 3>;
constexpr int stream_radius = 1;
#elif SMEMTILE_STEPS_CASE == 8
using Stream = StencilStepsStreamPolicy<4, 3, 3>;
constexpr int stream_radius = 1;
#else
using Stream = StencilStepsStreamPolicy<8, 4, 3>;
constexpr int stream_radius = 1;
#endif
static_assert(StencilStepsStreamPolicyCheck<Stream, stream_radius>::ok, "");
#endif

int main() { return 0; }
