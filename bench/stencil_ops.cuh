// Stencil ops the stencil benchmarks run (bench/stencil_bench.cu, bench/stencil_steps_bench.cu,
// bench/host_cost_bench.cu), and the stencil SASS test compiles (tests/device/stencil_sass_kernels.cu).
// `n` is a neighbourhood: n(dx), n(dy, dx) or n(dz, dy, dx), and n.center(); the value type follows
// it (T for the implementations, double for a host reference). abs_sum: the sum of the weights'
// magnitudes, for an error bound.
#pragma once

#include <smemtile/block/stencil.cuh>  // SeparableStencilOp

#include <type_traits>
#include <utility>

namespace {

template <class N>
using value_of = std::decay_t<decltype(std::declval<const N&>().center())>;

struct Blur9 {  // 2D 3x3 box, Gaussian weights (1 2 1; 2 4 2; 1 2 1) / 16
  static constexpr double abs_sum = 1;
  template <class N>
  __device__ auto operator()(const N& n) const {
    using V = value_of<N>;
    const V top = n(-1, -1) + V(2) * n(-1, 0) + n(-1, 1);
    const V mid = V(2) * n(0, -1) + V(4) * n(0, 0) + V(2) * n(0, 1);
    const V bottom = n(1, -1) + V(2) * n(1, 0) + n(1, 1);
    return (top + mid + bottom) * V(0.0625);
  }
};

// Blur9 written as a SeparableStencilOp: rows (1 2 1), then the rows' sums (1 2 1) / 16. The same
// filter; a kernel that keeps rows' partials (the strips, the fused steps' 2D stream) sums a row
// once for the three points that read it.
struct SeparableBlur9 : smemtile::SeparableStencilOp<SeparableBlur9> {
  static constexpr double abs_sum = 1;
  template <class Row>
  __device__ auto across(const Row& row) const {
    using V = std::decay_t<decltype(row(0))>;
    return row(-1) + V(2) * row(0) + row(1);
  }
  template <class Rows>
  __device__ auto down(const Rows& rows) const {
    using V = std::decay_t<decltype(rows(0))>;
    return (rows(-1) + V(2) * rows(0) + rows(1)) * V(0.0625);
  }
};

struct Box27 {  // 3D 27-point box: the mean of the 3 x 3 x 3 neighbourhood
  static constexpr double abs_sum = 1;
  template <class N>
  __device__ auto operator()(const N& n) const {
    using V = value_of<N>;
    V sum = V(0);
#pragma unroll
    for (int dz = -1; dz <= 1; ++dz)
#pragma unroll
      for (int dy = -1; dy <= 1; ++dy)
#pragma unroll
        for (int dx = -1; dx <= 1; ++dx) sum += n(dz, dy, dx);
    return sum * V(1.0 / 27.0);
  }
};

// Box27 written as a SeparableStencilOp: rows summed, then their sums, then the planes' / 27. The
// same mean (its sums in another order); a kernel that keeps planes' partials (the 3D box strips,
// the fused steps' 3D sweep) reduces a plane once for the three points along z that read it.
struct SeparableBox27 : smemtile::SeparableStencilOp<SeparableBox27> {
  static constexpr double abs_sum = 1;
  template <class Row>
  __device__ auto across(const Row& row) const {
    return row(-1) + row(0) + row(1);
  }
  template <class Rows>
  __device__ auto down(const Rows& rows) const {
    return rows(-1) + rows(0) + rows(1);
  }
  template <class Planes>
  __device__ auto through(const Planes& planes) const {
    using V = std::decay_t<decltype(planes(0))>;
    return (planes(-1) + planes(0) + planes(1)) * V(1.0 / 27.0);
  }
};

struct Heat7 {  // 3D heat step, 7 points
  template <class N>
  __device__ auto operator()(const N& n) const {
    using V = value_of<N>;
    return n(0, 0, 0) + V(0.1) * (n(-1, 0, 0) + n(1, 0, 0) + n(0, -1, 0) + n(0, 1, 0) + n(0, 0, -1) + n(0, 0, 1) -
                                  V(6) * n(0, 0, 0));
  }
};

}  // namespace
