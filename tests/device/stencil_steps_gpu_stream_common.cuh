// The 2D register stream's GPU tests, shared by their three translation units (one would take
// minutes to compile): check_stream and the forced policies.
#pragma once
#include <cuda_fp16.h>

#include "stencil_steps_gpu_common.cuh"

namespace {

using namespace steps_test;
constexpr StencilShape star = StencilShape::star;
constexpr StencilShape box = StencilShape::box;

// `cases` random geometries sized around Policy's strips (width x 2 depth R rows) and its fit.
template <class Policy, int R, StencilShape S, int P, class T, bool Separable = false>
void check_stream(int cases, unsigned seed) {
  constexpr int width = smemtile::stencil_steps_stream_width(Policy::columns, Policy::depth, R);
  std::mt19937 rng(seed);
  for (int i = 0; i < cases; ++i) {
    Geometry g = random_geometry(rng, 2, i, 2 * Policy::depth * R + 5, width, R, false, 16);
    if (i % 3 == 1) {  // several strips and chunks: the inner tasks' path
      g = with_layout(rng, 2, 1, uniform(rng, 4 * Policy::depth * R, 700),
                      uniform(rng, 2 * width + 2 * Policy::depth * R + 1, 5 * width + 40));
    }
    if (i % 2 == 0) {  // both arrays' rows on 16 bytes: vector loads and stores
      const auto round16 = [](long long n) { return static_cast<int>((n + 15) / 16 * 16); };
      g.in_offset = g.out_offset = 0;
      g.in_pitch = round16(g.cols * static_cast<long long>(sizeof(T))) / static_cast<int>(sizeof(T));
      g.out_pitch = g.in_pitch + 16 * uniform(rng, 0, 1);
      g.in_slice = static_cast<long long>(g.rows) * g.in_pitch;
      g.out_slice = static_cast<long long>(g.rows) * g.out_pitch;
    }
    const int steps = random_steps(rng, i, Policy::depth);
    if constexpr (Separable) check_steps_with<2, R, S, P, T, Policy>(g, steps, random_separable_mean<T, R>(rng), rng);
    else check_steps<2, R, S, P, T, Policy>(g, steps, rng);
  }
}

using Float8 = smemtile::StencilStepsStreamPolicy<8, 4, 1>;  // the float star default
// Boxes, radius-2 stars: three rows ahead on vector rows, one on element rows (the box default's way).
using Float4 = smemtile::StencilStepsStreamPolicy<4, 4, 3, 64, 4, 4, 1>;
using Double4 = smemtile::StencilStepsStreamPolicy<4, 4, 0, 64, 4, 3>;        // no row ahead
using Double6 = smemtile::StencilStepsStreamPolicy<6, 2, 1, 64, 4, 4, 0>;     // the double default, then none
using Narrow = smemtile::StencilStepsStreamPolicy<3, 1, 1, 16, 2, 2>;  // one value per lane, odd depth

}  // namespace
