// tests/device/stencil_sass_kernels.cu: device_stencil's 2D and 3D kernels instantiated for the
// stencil SASS test (CMakeLists.txt), which requires the instructions named there.
#include <smemtile/smemtile.cuh>

#include "stencil_ops.cuh"  // Blur9, Box27, SeparableBox27, Heat7 (bench/: the ops the stencil benchmarks run)

using namespace smemtile;

// A radius-4 star (eighth-order second differences) and a 5- / 7-point Laplacian, floats.
struct Star4 {
  template <class N>
  __device__ float operator()(const N& n) const {
    float sum = -8.5f * n(0, 0, 0);
#pragma unroll
    for (int k = 1; k <= 4; ++k)
      sum += (1.0f / k) * ((n(-k, 0, 0) + n(k, 0, 0)) + (n(0, -k, 0) + n(0, k, 0)) + (n(0, 0, -k) + n(0, 0, k)));
    return sum;
  }
};
struct Laplace5 {
  template <class N>
  __device__ float operator()(const N& n) const {
    return n(-1, 0) + n(1, 0) + n(0, -1) + n(0, 1) - 4.0f * n(0, 0);
  }
};


// 3x3 box blur of bytes, the sum in float.
struct ByteBlur9 {
  template <class N>
  __device__ unsigned char operator()(const N& n) const {
    float sum = 0.0f;
#pragma unroll
    for (int dy = -1; dy <= 1; ++dy)
#pragma unroll
      for (int dx = -1; dx <= 1; ++dx) sum += static_cast<float>(n(dy, dx));
    return static_cast<unsigned char>((static_cast<int>(sum) + 4) / 9);
  }
};

// The same blur as a separable op summed in int (the strips keep each row's sum in registers).
struct RowSumBlur9 : SeparableStencilOp<RowSumBlur9> {
  template <class Row>
  __device__ int across(const Row& row) const {
    return static_cast<int>(row(-1)) + static_cast<int>(row(0)) + static_cast<int>(row(1));
  }
  template <class Rows>
  __device__ unsigned char down(const Rows& rows) const {
    return static_cast<unsigned char>((rows(-1) + rows(0) + rows(1) + 4) / 9);
  }
};

// Separate names for the same op, so that the test tells the kernels apart by name.
struct Blur9Box : Blur9 {};
struct Star4Tma : Star4 {};
struct Star4CpAsync : Star4 {};

namespace smemtile::detail {
template <StencilLoader L>
using Star3DPolicy = typename DefaultStencilPolicy<3, 4, 4, StencilShape::star, L>::type;
using Star2DLarge = DefaultStencilPolicy<2, 4, 1, StencilShape::star, StencilLoader::tma, StencilTiles::large>::type;
using Box3D = DefaultStencilPolicy<3, 4, 1, StencilShape::box, StencilLoader::tma>::type;
static_assert(Box3D::compute == StencilCompute::box_strips, "the default 3D float box of radius 1 takes box strips");
// 3D radius-4 star, TMA, default tiles: the strips (16-byte shared loads and global stores).
template __global__ void stencil_3d_kernel<Star3DPolicy<StencilLoader::tma>, 4, StencilShape::star, float, boundary::Zero, Star4Tma>(
    const __grid_constant__ CUtensorMap, GlobalArray<const float, 3>, GlobalArray<float, 3>, boundary::Zero, Star4Tma, int, int);
// The same with cp.async (GPUs without TMA, arrays TMA cannot read).
template __global__ void stencil_3d_kernel<Star3DPolicy<StencilLoader::cp_async>, 4, StencilShape::star, float, boundary::Zero, Star4CpAsync>(
    const __grid_constant__ CUtensorMap, GlobalArray<const float, 3>, GlobalArray<float, 3>, boundary::Zero, Star4CpAsync, int, int);
// 2D 5-point, TMA, large tiles: the float strips.
template __global__ void stencil_2d_kernel<Star2DLarge, 1, StencilShape::star, float, boundary::Clamp, Laplace5>(
    const __grid_constant__ CUtensorMap, GlobalArray<const float, 2>, GlobalArray<float, 2>, boundary::Clamp, Laplace5, int, int);
// 2D 9-point box of floats and 3x3 blur of bytes, TMA, large tiles, clamp: the 2D box strips
// (16-byte shared loads and global stores; bytes' 48 x 512 tiles give each lane 16 bytes), the
// byte blur also as a separable op.
using Box2DLarge = DefaultStencilPolicy<2, 4, 1, StencilShape::box, StencilLoader::tma, StencilTiles::large>::type;
using ByteBox2DLarge = DefaultStencilPolicy<2, 1, 1, StencilShape::box, StencilLoader::tma, StencilTiles::large>::type;
static_assert(Box2DLarge::compute == StencilCompute::box_strips && ByteBox2DLarge::compute == StencilCompute::box_strips,
              "2D boxes of radius 1 take box strips");
template __global__ void stencil_2d_kernel<Box2DLarge, 1, StencilShape::box, float, boundary::Clamp, Blur9Box>(
    const __grid_constant__ CUtensorMap, GlobalArray<const float, 2>, GlobalArray<float, 2>, boundary::Clamp, Blur9Box, int, int);
template __global__ void stencil_2d_kernel<ByteBox2DLarge, 1, StencilShape::box, unsigned char, boundary::Clamp, ByteBlur9>(
    const __grid_constant__ CUtensorMap, GlobalArray<const unsigned char, 2>, GlobalArray<unsigned char, 2>, boundary::Clamp,
    ByteBlur9, int, int);
template __global__ void stencil_2d_kernel<ByteBox2DLarge, 1, StencilShape::box, unsigned char, boundary::Clamp, RowSumBlur9>(
    const __grid_constant__ CUtensorMap, GlobalArray<const unsigned char, 2>, GlobalArray<unsigned char, 2>, boundary::Clamp,
    RowSumBlur9, int, int);
// The same blur and a 5-point float star by row classes (rows off 16 bytes), under zero: one TMA
// box per class, 16-byte shared loads (two per shifted run), no local memory; bytes leave in 16-byte
// stores completed by shuffles, floats in 8-byte pieces where their rows are off 16 bytes.
struct RowsBlur9 : RowSumBlur9 {};
struct RowsLaplace5 : Laplace5 {};
using ByteRows2D = DefaultStencilPolicy<2, 1, 1, StencilShape::box, StencilLoader::tma_row_classes, StencilTiles::large>::type;
using StarRows2D = DefaultStencilPolicy<2, 4, 1, StencilShape::star, StencilLoader::tma_row_classes, StencilTiles::large>::type;
template __global__ void stencil_2d_kernel<ByteRows2D, 1, StencilShape::box, unsigned char, boundary::Zero, RowsBlur9>(
    const __grid_constant__ RowClassTensorMaps<16>, GlobalArray<const unsigned char, 2>, GlobalArray<unsigned char, 2>,
    boundary::Zero, RowsBlur9, int, int);
template __global__ void stencil_2d_kernel<StarRows2D, 1, StencilShape::star, float, boundary::Zero, RowsLaplace5>(
    const __grid_constant__ RowClassTensorMaps<4>, GlobalArray<const float, 2>, GlobalArray<float, 2>, boundary::Zero,
    RowsLaplace5, int, int);
// 3D 27-point box, TMA, clamp: the box strips (16-byte shared loads and global stores) and the
// cells outside the array copied within shared memory (EdgeCells).
template __global__ void stencil_3d_kernel<Box3D, 1, StencilShape::box, float, boundary::Clamp, Box27>(
    const __grid_constant__ CUtensorMap, GlobalArray<const float, 3>, GlobalArray<float, 3>, boundary::Clamp, Box27, int, int);
// 3D by row classes (volumes whose rows are off 16 bytes), under clamp: a 7-point float star on the
// large planes (star columns: one 2D TMA box per class, element stores) and the 27-point box strips
// (16-byte shared loads, two per shifted run; 8-byte stores off 16 bytes); no local memory.
struct RowsHeat7 : Heat7 {};
struct RowsBox27 : Box27 {};
using Star3DRows = DefaultStencilPolicy<3, 4, 1, StencilShape::star, StencilLoader::tma_row_classes, StencilTiles::large>::type;
using Box3DRows = DefaultStencilPolicy<3, 4, 1, StencilShape::box, StencilLoader::tma_row_classes>::type;
template __global__ void stencil_3d_kernel<Star3DRows, 1, StencilShape::star, float, boundary::Clamp, RowsHeat7>(
    const __grid_constant__ RowClassTensorMaps<4>, GlobalArray<const float, 3>, GlobalArray<float, 3>, boundary::Clamp,
    RowsHeat7, int, int);
template __global__ void stencil_3d_kernel<Box3DRows, 1, StencilShape::box, float, boundary::Clamp, RowsBox27>(
    const __grid_constant__ RowClassTensorMaps<4>, GlobalArray<const float, 3>, GlobalArray<float, 3>, boundary::Clamp,
    RowsBox27, int, int);
}  // namespace smemtile::detail

// device_stencil_steps's 2D float 5-point kernel, the default policy: the window's rows as 16-byte
// shared loads, their sides by shuffles, the region by 16-byte cp.async, the tile by 16-byte stores.
struct StepsLaplace5 : Laplace5 {};
namespace smemtile::detail {
using Steps2D = DefaultStencilStepsPolicy<2, 4, 1, StencilShape::star>::type;
template __global__ void stencil_steps_kernel<Steps2D, 1, StencilShape::star, float, 2, boundary::Zero, StepsLaplace5>(
    GlobalArray<const float, 2>, GlobalArray<float, 2>, boundary::Zero, StepsLaplace5, int);
}  // namespace smemtile::detail

// device_stencil_steps's 3D register sweeps, the selector's policies (floats under zero, doubles
// under clamp): planes by 16-byte cp.async, x and y neighbours from shared memory, the last step's
// runs by global stores.
struct SweepHeat7F : Heat7 {};
struct SweepHeat7D : Heat7 {};
namespace smemtile::detail {
using SweepF = DefaultStencilSweepPolicy<4, 1, StencilShape::star>::type;
using SweepD = DefaultStencilSweepPolicy<8, 1, StencilShape::star>::type;
template __global__ void stencil_sweep_registers_kernel<SweepF, 1, StencilShape::star, float, boundary::Zero, SweepHeat7F>(
    GlobalArray<const float, 3>, GlobalArray<float, 3>, boundary::Zero, SweepHeat7F, int, int);
template __global__ void stencil_sweep_registers_kernel<SweepD, 1, StencilShape::star, double, boundary::Clamp, SweepHeat7D>(
    GlobalArray<const double, 3>, GlobalArray<double, 3>, boundary::Clamp, SweepHeat7D, int, int);
}  // namespace smemtile::detail

// Its register sweep of a separable box's plane partials, the selector's float policy under zero:
// planes by 16-byte cp.async, rows from shared memory, the last step's runs by global stores, no
// local memory.
struct SweepSepBox27F : SeparableBox27 {};
namespace smemtile::detail {
using SweepBoxF = DefaultStencilSweepPolicy<4, 1, StencilShape::box, true>::type;
template __global__ void stencil_sweep_registers_kernel<SweepBoxF, 1, StencilShape::box, float, boundary::Zero,
                                                        SweepSepBox27F>(GlobalArray<const float, 3>,
                                                                        GlobalArray<float, 3>, boundary::Zero,
                                                                        SweepSepBox27F, int, int);
}  // namespace smemtile::detail

// Both under boundary::constant: edge blocks' fills are shared stores through the tables, not the
// generic tile copy (which cost the float kernels 36-48 bytes of spills at the register cap).
struct SweepHeat7K : Heat7 {};
struct SweepSepBox27K : SeparableBox27 {};
namespace smemtile::detail {
template __global__ void stencil_sweep_registers_kernel<SweepF, 1, StencilShape::star, float, boundary::Constant<float>,
                                                        SweepHeat7K>(GlobalArray<const float, 3>, GlobalArray<float, 3>,
                                                                     boundary::Constant<float>, SweepHeat7K, int, int);
template __global__ void stencil_sweep_registers_kernel<SweepBoxF, 1, StencilShape::box, float, boundary::Constant<float>,
                                                        SweepSepBox27K>(GlobalArray<const float, 3>,
                                                                        GlobalArray<float, 3>, boundary::Constant<float>,
                                                                        SweepSepBox27K, int, int);
}  // namespace smemtile::detail

// Its vector sweep, the selector's policy for floats under clamp: planes by 16-byte cp.async, 16-byte
// shared loads and stores, x neighbours by shuffles (the edge columns by indexed ones), 16-byte
// global stores.
struct SweepVectorHeat7C : Heat7 {};
namespace smemtile::detail {
using SweepClampF = DefaultStencilSweepPolicy<4, 1, StencilShape::star>::clamp_type;
template __global__ void stencil_sweep_vectors_kernel<SweepClampF, 1, StencilShape::star, float, boundary::Clamp,
                                                      SweepVectorHeat7C>(GlobalArray<const float, 3>, GlobalArray<float, 3>,
                                                                         boundary::Clamp, SweepVectorHeat7C, int, int);
}  // namespace smemtile::detail

// device_stencil's 2D stream (arrays TMA cannot describe), its default policies: read-only loads,
// x neighbours by indexed shuffles, no local memory (a spill would show as LDL / STL).
struct StreamLaplace5F : Laplace5 {};
struct StreamBlur9F {
  template <class N>
  __device__ float operator()(const N& n) const {
    const float top = n(-1, -1) + 2.0f * n(-1, 0) + n(-1, 1), bottom = n(1, -1) + 2.0f * n(1, 0) + n(1, 1);
    return (top + 2.0f * n(0, -1) + 4.0f * n(0, 0) + 2.0f * n(0, 1) + bottom) * 0.0625f;
  }
};
struct StreamLaplace5D {
  template <class N>
  __device__ double operator()(const N& n) const {
    return n(-1, 0) + n(1, 0) + n(0, -1) + n(0, 1) - 4.0 * n(0, 0);
  }
};
namespace smemtile::detail {
template <int E, StencilShape S>
using Stream2D = typename DefaultStencilPolicy<2, E, 1, S, StencilLoader::stream>::type;
template __global__ void stencil_stream_kernel<Stream2D<4, StencilShape::star>, 1, StencilShape::star, float, boundary::Clamp,
                                               StreamLaplace5F>(GlobalArray<const float, 2>, GlobalArray<float, 2>,
                                                                boundary::Clamp, StreamLaplace5F, int, long long);
template __global__ void stencil_stream_kernel<Stream2D<4, StencilShape::box>, 1, StencilShape::box, float, boundary::Zero,
                                               StreamBlur9F>(GlobalArray<const float, 2>, GlobalArray<float, 2>,
                                                             boundary::Zero, StreamBlur9F, int, long long);
template __global__ void stencil_stream_kernel<Stream2D<8, StencilShape::star>, 1, StencilShape::star, double,
                                               boundary::Periodic, StreamLaplace5D>(GlobalArray<const double, 2>,
                                                                                    GlobalArray<double, 2>, boundary::Periodic,
                                                                                    StreamLaplace5D, int, long long);
}  // namespace smemtile::detail

// device_stencil_steps's 2D register stream, the default float policy: 16-byte read-only loads and
// global stores on rows on 16 bytes, x neighbours by shuffles; under clamp the edge rows in shared
// memory (LDS / STS, not generic) and the side columns by indexed shuffles. Not asserted: no local
// memory (at the 128-register cap ptxas spills registers: 56 bytes stored under zero, 240 under clamp).
// The box default's kernel for rows off 16 bytes (its ScalarAhead queue) under clamp: element
// loads and global stores (LDG.E: not the read-only path), the edge rows by LDS / STS. The box
// default with a separable op (rings of partials) under zero on 16-byte rows: 16-byte read-only
// loads and global stores, shuffles, no local memory.
struct StepsStreamHeat5Z : Laplace5 {};
struct StepsStreamHeat5C : Laplace5 {};
struct StepsStreamBlur9C : Blur9 {};
struct StepsStreamSepBlur9Z : SeparableBlur9 {};  // separable: the rings hold the rows' partials
static_assert(is_separable_stencil_op<StepsStreamSepBlur9Z>, "an op derived from a separable op is separable");
namespace smemtile::detail {
using StepsStream = DefaultStencilStepsStreamPolicy<4, 1, StencilShape::star>::type;
using StepsStreamBox = DefaultStencilStepsStreamPolicy<4, 1, StencilShape::box>::type;
static_assert(StepsStreamBox::scalar_ahead != StepsStreamBox::ahead, "the element-row kernel's own queue");
template __global__ void stencil_steps_stream_kernel<StepsStreamBox, 1, StencilShape::box, false, float, boundary::Clamp,
                                                     StepsStreamBlur9C>(GlobalArray<const float, 2>,
                                                                        GlobalArray<float, 2>, boundary::Clamp,
                                                                        StepsStreamBlur9C, StencilStepsStreamPlan);
template __global__ void stencil_steps_stream_kernel<StepsStreamBox, 1, StencilShape::box, true, float, boundary::Zero,
                                                     StepsStreamSepBlur9Z>(GlobalArray<const float, 2>,
                                                                           GlobalArray<float, 2>, boundary::Zero,
                                                                           StepsStreamSepBlur9Z, StencilStepsStreamPlan);
template __global__ void stencil_steps_stream_kernel<StepsStream, 1, StencilShape::star, true, float, boundary::Zero,
                                                     StepsStreamHeat5Z>(GlobalArray<const float, 2>, GlobalArray<float, 2>,
                                                                        boundary::Zero, StepsStreamHeat5Z,
                                                                        StencilStepsStreamPlan);
template __global__ void stencil_steps_stream_kernel<StepsStream, 1, StencilShape::star, true, float, boundary::Clamp,
                                                     StepsStreamHeat5C>(GlobalArray<const float, 2>, GlobalArray<float, 2>,
                                                                        boundary::Clamp, StepsStreamHeat5C,
                                                                        StencilStepsStreamPlan);
}  // namespace smemtile::detail

// device_stencil's single step of a separable box of doubles (StencilLoader::sweep: the register
// sweep at one step), radius 1 under clamp and radius 2 under zero: planes by 16-byte cp.async,
// 8-byte shared loads and stores, 8-byte global stores, no local memory.
struct SweepSepBox27D : SeparableBox27 {};
struct SweepSepBox125D : smemtile::SeparableStencilOp<SweepSepBox125D> {
  template <class Row>
  __device__ double across(const Row& r) const { return r(-2) + r(-1) + r(0) + r(1) + r(2); }
  template <class Rows>
  __device__ double down(const Rows& r) const { return r(-2) + r(-1) + r(0) + r(1) + r(2); }
  template <class Planes>
  __device__ double through(const Planes& p) const { return (p(-2) + p(-1) + p(0) + p(1) + p(2)) * (1.0 / 125.0); }
};
namespace smemtile::detail {
using SingleSweepD = DefaultStencilPolicy<3, 8, 1, StencilShape::box, StencilLoader::sweep, StencilTiles::standard, true>::type;
using SingleSweepD2 = DefaultStencilPolicy<3, 8, 2, StencilShape::box, StencilLoader::sweep, StencilTiles::standard, true>::type;
template __global__ void stencil_sweep_registers_kernel<SingleSweepD, 1, StencilShape::box, double, boundary::Clamp,
                                                        SweepSepBox27D>(GlobalArray<const double, 3>,
                                                                        GlobalArray<double, 3>, boundary::Clamp,
                                                                        SweepSepBox27D, int, int);
template __global__ void stencil_sweep_registers_kernel<SingleSweepD2, 2, StencilShape::box, double, boundary::Zero,
                                                        SweepSepBox125D>(GlobalArray<const double, 3>,
                                                                         GlobalArray<double, 3>, boundary::Zero,
                                                                         SweepSepBox125D, int, int);
}  // namespace smemtile::detail
