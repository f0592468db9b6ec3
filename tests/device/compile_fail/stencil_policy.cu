// Compile-fail snippet (tests/device/CMakeLists.txt): a stencil policy breaking an invariant stops
// compilation with the static_assert beside the policy (device/tuning/stencil_policy.cuh).
//   SMEMTILE_STENCIL_CASE 0  a 3D policy of 48 columns (a warp computes 32 columns at a time):
//                            "make Cols a multiple of 32"
//   SMEMTILE_STENCIL_CASE 1  star_strips for a box stencil: "box stencils take points"
//   SMEMTILE_STENCIL_CASE 2  halo columns below the radius: "HaloCols must be at least the radius"
//   SMEMTILE_STENCIL_CASE 3  a valid caller's policy: accepted (the control)
//   SMEMTILE_STENCIL_CASE 4  the stream's default policy for a 3D array: "the stream loader is for 2D arrays"
//   SMEMTILE_STENCIL_CASE 5  a stream policy for radius 17: "radii up to 16"
//   SMEMTILE_STENCIL_CASE 6  a stream policy of no values per lane: "1 to 16 values of a row per lane"
//   SMEMTILE_STENCIL_CASE 7  a valid stream policy of the caller's: accepted (the control)
//   SMEMTILE_STENCIL_CASE 8  device_stencil with a SeparableStencilOp for a star stencil:
//                            "a SeparableStencilOp is the op of a 2D or 3D box stencil"
//   SMEMTILE_STENCIL_CASE 9  a 3D points policy loading by row classes: "3D planes by tma_row_classes are computed by"
//   SMEMTILE_STENCIL_CASE 10 the sweep's default policy for a 2D array: "StencilLoader::sweep is a StencilSweepPolicy's"
//   SMEMTILE_STENCIL_CASE 11 a sweep policy for 2-byte elements: "the sweep takes 4- and 8-byte elements"
#include <smemtile/smemtile.cuh>

using namespace smemtile;

#if SMEMTILE_STENCIL_CASE == 0
using P = StencilTiledPolicy<3, StencilLoader::cp_async, StencilCompute::points, 16, 48, 4, 2, 2, 4, 64>;
constexpr StencilShape shape = StencilShape::box;
constexpr int radius = 1;
#elif SMEMTILE_STENCIL_CASE == 1
using P = StencilTiledPolicy<3, StencilLoader::cp_async, StencilCompute::star_strips, 16, 64, 4, 2, 2, 4, 64>;
constexpr StencilShape shape = StencilShape::box;
constexpr int radius = 2;
#elif SMEMTILE_STENCIL_CASE == 2
using P = StencilTiledPolicy<2, StencilLoader::cp_async, StencilCompute::points, 32, 128, 4, 1, 2, 4>;
constexpr StencilShape shape = StencilShape::box;
constexpr int radius = 5;
#elif SMEMTILE_STENCIL_CASE == 4
using P = DefaultStencilPolicy<3, 4, 1, StencilShape::star, StencilLoader::stream>::type;
constexpr StencilShape shape = StencilShape::star;
constexpr int radius = 1;
#elif SMEMTILE_STENCIL_CASE == 5
using P = StencilStreamPolicy<2, 2>;
constexpr StencilShape shape = StencilShape::star;
constexpr int radius = 17;
#elif SMEMTILE_STENCIL_CASE == 6
using P = StencilStreamPolicy<0, 2>;
constexpr StencilShape shape = StencilShape::star;
constexpr int radius = 1;
#elif SMEMTILE_STENCIL_CASE == 7
using P = StencilStreamPolicy<8, 1, 32, 8, 2>;
constexpr StencilShape shape = StencilShape::box;
constexpr int radius = 2;
#elif SMEMTILE_STENCIL_CASE == 10
using P = DefaultStencilPolicy<2, 8, 1, StencilShape::box, StencilLoader::sweep>::type;
constexpr StencilShape shape = StencilShape::box;
constexpr int radius = 1;
#elif SMEMTILE_STENCIL_CASE == 11
using P = DefaultStencilSweepPolicy<4, 1, StencilShape::star>::type;
static_assert(StencilPolicyCheck<P, 2, 1, StencilShape::star>::ok, "");
constexpr StencilShape shape = StencilShape::star;
constexpr int radius = 1;
#elif SMEMTILE_STENCIL_CASE == 9
using P = StencilTiledPolicy<3, StencilLoader::tma_row_classes, StencilCompute::points, 16, 64, 4, 2, 2, 4, 64>;
constexpr StencilShape shape = StencilShape::star;
constexpr int radius = 1;
#else
#if SMEMTILE_STENCIL_CASE == 8
struct RowsOnce : SeparableStencilOp<RowsOnce> {
  template <class Row> __device__ float across(const Row& row) const { return row(-1) + row(1); }
  template <class Rows> __device__ float down(const Rows& rows) const { return rows(-1) + rows(1); }
};
void separable_star(const float* in, float* out) {
  device_stencil<1, StencilShape::star>(make_global_matrix<const float>(in, 8, 8), make_global_matrix(out, 8, 8),
                                        boundary::zero, RowsOnce{});
}
#endif
using P = StencilTiledPolicy<3, StencilLoader::cp_async, StencilCompute::points, 16, 64, 4, 2, 2, 4, 64>;
constexpr StencilShape shape = StencilShape::box;
constexpr int radius = 1;
#endif

static_assert(StencilPolicyCheck<P, 4, radius, shape>::ok, "");

int main() { return 0; }
