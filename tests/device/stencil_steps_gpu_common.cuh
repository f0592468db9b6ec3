// Shared by the device_stencil_steps GPU tests: an averaging op (random positive weights summing to
// one, or an integer mean: values stay bounded over many steps), and one checked call: `steps`
// steps through device_stencil_steps (the selector's policy or the caller's) against `steps`
// device_stencil calls ping-ponging the same two layouts, equal bit for bit, with the arrays'
// padding (pitches, offsets, guard) untouched.
#pragma once

#include <cuda_fp16.h>

#include <cstring>

#include "stencil_gpu_common.cuh"

namespace steps_test {

using namespace stencil_test;

// out = sum w[k] n(offset k) / sum w (integers: integer division), accumulated in Acc<T>.
template <class T, int Rank, int R, StencilShape S>
struct MeanOp {
  static constexpr int count = smemtile::stencil_points(S, R, Rank);
  Acc<T> w[count];
  Acc<T> total;

  template <class N>
  __device__ Acc<T> operator()(const N& n) const {
    return weighted_sum<T, Rank, R, S>(n, w) / total;
  }
};

template <class T, int Rank, int R, StencilShape S>
MeanOp<T, Rank, R, S> random_mean_op(std::mt19937& rng) {
  MeanOp<T, Rank, R, S> op{};
  op.total = 0;
  for (int k = 0; k < op.count; ++k) {
    op.w[k] = static_cast<Acc<T>>(uniform(rng, 1, 3));
    op.total += op.w[k];
  }
  return op;
}

// A separable mean (SeparableStencilOp): random positive weights along x and y, summed in T (ints:
// integer division by the total), so that the 2D stream's rings can hold the rows' partials; in 3D
// (random_separable_mean3) the planes' partials weighted along z too, divided by their total.
template <class T, int R>
struct SeparableMeanOp : smemtile::SeparableStencilOp<SeparableMeanOp<T, R>> {
  T wx[2 * R + 1], wy[2 * R + 1], wz[2 * R + 1];
  T total, total_z;
  template <class Row>
  __device__ T across(const Row& row) const {
    T sum = T(0);
    for (int d = -R; d <= R; ++d) sum += wx[d + R] * row(d);
    return sum;
  }
  template <class Rows>
  __device__ T down(const Rows& rows) const {
    T sum = T(0);
    for (int d = -R; d <= R; ++d) sum += wy[d + R] * rows(d);
    return sum / total;
  }
  template <class Planes>
  __device__ T through(const Planes& planes) const {
    T sum = T(0);
    for (int d = -R; d <= R; ++d) sum += wz[d + R] * planes(d);
    return sum / total_z;
  }
};

template <class T, int R>
SeparableMeanOp<T, R> random_separable_mean(std::mt19937& rng) {
  SeparableMeanOp<T, R> op{};
  T x = 0, y = 0;
  for (int d = 0; d <= 2 * R; ++d) {
    op.wx[d] = static_cast<T>(uniform(rng, 1, 3));
    op.wy[d] = static_cast<T>(uniform(rng, 1, 3));
    x += op.wx[d];
    y += op.wy[d];
  }
  op.total = x * y;
  return op;
}

template <class T, int R>
SeparableMeanOp<T, R> random_separable_mean3(std::mt19937& rng) {
  SeparableMeanOp<T, R> op = random_separable_mean<T, R>(rng);
  op.total_z = 0;
  for (int d = 0; d <= 2 * R; ++d) {
    op.wz[d] = static_cast<T>(uniform(rng, 1, 3));
    op.total_z += op.wz[d];
  }
  return op;
}

// An element as a number to print.
template <class T>
double printable(T v) {
  if constexpr (std::is_same<T, __half>::value) return static_cast<double>(__half2float(v));
  else return static_cast<double>(v);
}

// Steps a case takes: 1, 2, the depth, the depth + 1, two passes and one more, or random.
inline int random_steps(std::mt19937& rng, int i, int depth) {
  switch (i % 6) {
    case 0: return 1 + uniform(rng, 0, 1);
    case 1: return depth;
    case 2: return depth + 1;
    case 3: return 2 * depth + 1;
    default: return uniform(rng, 2, 3 * depth + 2);
  }
}

// Index of element (z, y, x) of buffer `which` (0: the in geometry, 1: the out geometry).
inline long long buffer_index(const Geometry& g, int which, int z, int y, int x) {
  return which == 0 ? g.in_index(z, y, x) : g.out_index(z, y, x);
}

// `steps` fused steps of `op` (Policy void: the selector's) against as many device_stencil calls.
template <int Rank, int R, StencilShape S, int P, class T, class Policy = void, class Op>
void check_steps_with(const Geometry& g, int steps, const Op& op, std::mt19937& rng) {
  INFO(g.describe() << "; steps " << steps << "; policy " << policy_name(P));
  const std::size_t totals[2] = {static_cast<std::size_t>(g.in_offset + g.in_span()),
                                 static_cast<std::size_t>(g.out_offset + g.out_span() + g.guard)};
  const std::vector<T> start = random_inputs<T>(totals[0], rng);
  DeviceBuffer<T> fused0(totals[0]), fused1(totals[1]), ref0(totals[0]), ref1(totals[1]);
  fused0.upload(start);
  ref0.upload(start);
  fused1.poison();
  ref1.poison();
  auto fused = smemtile::make_stencil_buffers(global_array<Rank>(fused0.get(), g, true),
                                              global_array<Rank>(fused1.get(), g, false));
  auto ref = smemtile::make_stencil_buffers(global_array<Rank>(ref0.get(), g, true),
                                            global_array<Rank>(ref1.get(), g, false));  // stepped by hand
  smemtile::LaunchStatus status;
  if constexpr (std::is_void<Policy>::value)
    status = smemtile::device_stencil_steps<R, S>(fused, steps, make_policy<P, T>(), op);
  else
    status = smemtile::device_stencil_steps<R, S>(Policy{}, fused, steps, make_policy<P, T>(), op);
  INFO("status: " << status.message);
  REQUIRE(status.error == cudaSuccess);
  for (int k = 0; k < steps; ++k) {
    const auto in = ref.current();
    const smemtile::GlobalArray<const T, Rank> in_view(in.data_handle(), in.mapping());
    REQUIRE(smemtile::device_stencil<R, S>(in_view, ref.alternate(), make_policy<P, T>(), op).error == cudaSuccess);
    ref.selector ^= 1;
  }
  REQUIRE_CUDA(cudaDeviceSynchronize());
  const std::vector<T> got[2] = {fused0.download(), fused1.download()};
  const std::vector<T> want[2] = {ref0.download(), ref1.download()};
  long long wrong = 0;
  for (int z = 0; z < g.depth; ++z)
    for (int y = 0; y < g.rows; ++y)
      for (int x = 0; x < g.cols; ++x) {
        const T a = got[fused.selector][buffer_index(g, fused.selector, z, y, x)];
        const T b = want[ref.selector][buffer_index(g, ref.selector, z, y, x)];
        if (std::memcmp(&a, &b, sizeof(T)) != 0) {
          if (wrong < 5)
            UNSCOPED_INFO("(" << z << ", " << y << ", " << x << "): fused " << printable(a) << ", single steps "
                                << printable(b));
          ++wrong;
        }
      }
  CHECK(wrong == 0);
  // Outside the arrays: buffer 0 keeps its initial contents, buffer 1 its poison.
  for (int which = 0; which < 2; ++which) {
    std::vector<char> inside(totals[which], 0);
    for (int z = 0; z < g.depth; ++z)
      for (int y = 0; y < g.rows; ++y)
        for (int x = 0; x < g.cols; ++x) inside[static_cast<std::size_t>(buffer_index(g, which, z, y, x))] = 1;
    long long touched = 0;
    for (std::size_t k = 0; k < totals[which]; ++k)
      if (!inside[k] && (which == 0 ? std::memcmp(&got[0][k], &start[k], sizeof(T)) != 0 : !is_poison(got[1][k])))
        ++touched;
    INFO("buffer " << which);
    CHECK(touched == 0);
  }
}

// The same with a random MeanOp.
template <int Rank, int R, StencilShape S, int P, class T, class Policy = void>
void check_steps(const Geometry& g, int steps, std::mt19937& rng) {
  check_steps_with<Rank, R, S, P, T, Policy>(g, steps, random_mean_op<T, Rank, R, S>(rng), rng);
}

// `cases` random geometries (tiles of the default single-step policies' sizes, and of Policy's
// tile if given), each with random steps.
template <int Rank, int R, StencilShape S, int P, class T, class Policy = void>
void check_random_steps(int cases, int depth, int tile_rows, int tile_cols, unsigned seed) {
  std::mt19937 rng(seed);
  for (int i = 0; i < cases; ++i) {
    const Geometry g = random_geometry(rng, Rank, i, tile_rows, tile_cols, R, Rank == 3 && S == StencilShape::box && R > 1, 16);
    check_steps<Rank, R, S, P, T, Policy>(g, random_steps(rng, i, depth), rng);
  }
}

}  // namespace steps_test
