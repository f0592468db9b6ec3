// Shared by the stencil GPU tests: the ops (random coefficients held in the op object), random
// array geometries (extents, pitches, base offsets, guard elements), and one checked
// device_stencil call against a host reference computed in double precision (exactly for int),
// with its own boundary code (not the library's map_index).
#pragma once

#include <smemtile/smemtile.cuh>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <random>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

#include "gpu_test.cuh"

namespace stencil_test {

using smemtile::StencilShape;
using smemtile_test::DeviceBuffer;
using smemtile_test::poison_byte;

// ---- policies ------------------------------------------------------------------------------------------

enum PolicyKind { kZero, kConstant, kClamp, kPeriodic, kReflect };

inline const char* policy_name(int p) {
  static const char* const names[] = {"zero", "constant", "clamp", "periodic", "reflect"};
  return names[p];
}

// The value the constant policy fills with (exact in every element type).
template <class T>
constexpr T fill_value() {
  if constexpr (std::is_integral<T>::value) return T(7);
  else return T(2.75);
}

template <int P, class T>
auto make_policy() {
  if constexpr (P == kZero) return smemtile::boundary::Zero{};
  else if constexpr (P == kConstant) return smemtile::boundary::constant(fill_value<T>());
  else if constexpr (P == kClamp) return smemtile::boundary::Clamp{};
  else if constexpr (P == kPeriodic) return smemtile::boundary::Periodic{};
  else return smemtile::boundary::Reflect{};
}

// Where index i of an axis of n elements reads under an index policy, written independently of
// boundary.cuh (reflect: mirror about the edge elements, repeatedly; n == 1 -> 0).
inline int reference_index(int policy, int i, int n) {
  if (i >= 0 && i < n) return i;
  switch (policy) {
    case kClamp: return i < 0 ? 0 : n - 1;
    case kPeriodic: return ((i % n) + n) % n;
    default: {
      if (n == 1) return 0;
      while (i < 0 || i >= n) {
        if (i < 0) i = -i;
        if (i >= n) i = 2 * (n - 1) - i;
      }
      return i;
    }
  }
}

// ---- the op: sum of c[k] * n(offset k), accumulated in double (exactly in int for int) -----------

struct Offset {
  int dz, dy, dx;
};

// Offset k of a stencil's points: box: x fastest over [-R, R]^Rank; star: the centre, then for
// each axis (x, y, z) the offsets -R..-1, 1..R.
template <int Rank, int R, StencilShape S>
__host__ __device__ constexpr Offset offset_of(int k) {
  if constexpr (S == StencilShape::box) {
    constexpr int w = 2 * R + 1;
    const int dx = k % w - R;
    k /= w;
    const int dy = Rank >= 2 ? k % w - R : 0;
    k /= w;
    const int dz = Rank >= 3 ? k % w - R : 0;
    return Offset{dz, dy, dx};
  } else {
    if (k == 0) return Offset{0, 0, 0};
    const int axis = (k - 1) / (2 * R), j = (k - 1) % (2 * R);
    const int d = j < R ? j - R : j - R + 1;
    return Offset{axis == 2 ? d : 0, axis == 1 ? d : 0, axis == 0 ? d : 0};
  }
}

template <class T>
using Acc = std::conditional_t<std::is_integral<T>::value, int, double>;

// sum over the stencil's points of c[k] * n(offset k), in Acc<T> (each term converted first).
template <class T, int Rank, int R, StencilShape S, class N, class C>
__device__ Acc<T> weighted_sum(const N& n, const C* c) {
  Acc<T> sum = 0;
  constexpr int count = smemtile::stencil_points(S, R, Rank);
  for (int k = 0; k < count; ++k) {
    const Offset o = offset_of<Rank, R, S>(k);
    Acc<T> v;
    if constexpr (Rank == 1) v = static_cast<Acc<T>>(n(o.dx));
    else if constexpr (Rank == 2) v = static_cast<Acc<T>>(n(o.dy, o.dx));
    else v = static_cast<Acc<T>>(n(o.dz, o.dy, o.dx));
    sum += static_cast<Acc<T>>(c[k]) * v;
  }
  return sum;
}

// Trivially copyable, coefficients in the object (passed as a kernel parameter): at most
// 729 floats (box, rank 3, radius 4) = 2916 bytes.
template <class T, int Rank, int R, StencilShape S>
struct CoefOp {
  static constexpr int count = smemtile::stencil_points(S, R, Rank);
  T c[count];

  template <class N>
  __device__ Acc<T> operator()(const N& n) const {
    return weighted_sum<T, Rank, R, S>(n, c);
  }
};

// Random coefficients: +-k/64, k in 1..128 (exact in float), or +-1..3 for int; none is zero, so
// every offset the op reads shows in the result.
template <class T, int Rank, int R, StencilShape S>
CoefOp<T, Rank, R, S> random_op(std::mt19937& rng) {
  static_assert(std::is_trivially_copyable<CoefOp<T, Rank, R, S>>::value, "a trivially copyable op");
  static_assert(sizeof(CoefOp<T, Rank, R, S>) <= 3000, "the op fits in the kernel parameters");
  CoefOp<T, Rank, R, S> op{};
  for (int k = 0; k < op.count; ++k) {
    const int sign = std::uniform_int_distribution<int>(0, 1)(rng) ? 1 : -1;
    if constexpr (std::is_integral<T>::value) op.c[k] = static_cast<T>(sign * std::uniform_int_distribution<int>(1, 3)(rng));
    else op.c[k] = static_cast<T>(sign * std::uniform_int_distribution<int>(1, 128)(rng) / 64.0);
  }
  return op;
}

// A separable box op (smemtile::SeparableStencilOp) of run-time weights along x, y and z, summed in
// Acc<T> (exactly for int); c[k] (k as offset_of numbers the box's points) are the weights'
// products, so that check_stencil's reference applies to it as to a CoefOp.
template <class T, int Rank, int R>
struct SeparableCoefOp : smemtile::SeparableStencilOp<SeparableCoefOp<T, Rank, R>> {
  static constexpr int count = smemtile::stencil_points(StencilShape::box, R, Rank);
  T w[3][2 * R + 1];  // along x, y, z
  T c[count];

  template <class Line>
  __device__ Acc<T> weighted(const Line& line, int axis) const {
    Acc<T> sum = 0;
    for (int d = -R; d <= R; ++d) sum += static_cast<Acc<T>>(w[axis][d + R]) * static_cast<Acc<T>>(line(d));
    return sum;
  }
  template <class Row>
  __device__ Acc<T> across(const Row& row) const { return weighted(row, 0); }
  template <class Rows>
  __device__ Acc<T> down(const Rows& rows) const { return weighted(rows, 1); }
  template <class Planes>
  __device__ Acc<T> through(const Planes& planes) const { return weighted(planes, 2); }
};

// Random weights: +-1..3 for int, +-k/8 (k in 1..8) otherwise, so that their products are exact.
template <class T, int Rank, int R>
SeparableCoefOp<T, Rank, R> random_separable_op(std::mt19937& rng) {
  SeparableCoefOp<T, Rank, R> op{};
  for (auto& axis : op.w)
    for (T& weight : axis) {
      const int sign = std::uniform_int_distribution<int>(0, 1)(rng) ? 1 : -1;
      if constexpr (std::is_integral<T>::value) weight = static_cast<T>(sign * std::uniform_int_distribution<int>(1, 3)(rng));
      else weight = static_cast<T>(sign * std::uniform_int_distribution<int>(1, 8)(rng) / 8.0);
    }
  for (int k = 0; k < op.count; ++k) {
    const Offset o = offset_of<Rank, R, StencilShape::box>(k);
    op.c[k] = static_cast<T>(op.w[0][o.dx + R] * (Rank >= 2 ? op.w[1][o.dy + R] : T(1)) * (Rank >= 3 ? op.w[2][o.dz + R] : T(1)));
  }
  return op;
}

// ---- geometry --------------------------------------------------------------------------------------------

inline int uniform(std::mt19937& rng, int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); }

// An array of extents (depth, rows, cols) (rank 1: 1 x 1 x n, rank 2: 1 x rows x cols), in and out
// each with its own pitches and base offset (elements before the first one in its allocation); out
// also has `guard` elements after its last one.
struct Geometry {
  int rank;
  int depth, rows, cols;
  long long in_pitch, in_slice, out_pitch, out_slice;
  long long in_offset, out_offset, guard;

  long long in_span() const { return (depth - 1) * in_slice + (rows - 1) * in_pitch + cols; }
  long long out_span() const { return (depth - 1) * out_slice + (rows - 1) * out_pitch + cols; }
  long long in_index(int z, int y, int x) const { return in_offset + z * in_slice + y * in_pitch + x; }
  long long out_index(int z, int y, int x) const { return out_offset + z * out_slice + y * out_pitch + x; }
  long long points() const { return static_cast<long long>(depth) * rows * cols; }

  std::string describe() const {
    std::ostringstream s;
    s << "rank " << rank << " extents ";
    if (rank == 3) s << depth << " x ";
    if (rank >= 2) s << rows << " x ";
    s << cols << "; in: pitch " << in_pitch << " slice " << in_slice << " offset " << in_offset << "; out: pitch "
      << out_pitch << " slice " << out_slice << " offset " << out_offset << " guard " << guard;
    return s.str();
  }
};

inline int random_pitch(std::mt19937& rng, int cols) {
  const int kind = uniform(rng, 0, 9);
  if (kind < 4) return cols;
  if (kind < 8) return cols + uniform(rng, 1, 17);
  return (cols + 31) / 32 * 32 + 32 * uniform(rng, 0, 1);
}

// Random pitches and offsets for the given extents (dense, offset 0 about a third of the time).
inline Geometry with_layout(std::mt19937& rng, int rank, int depth, int rows, int cols) {
  Geometry g{};
  g.rank = rank;
  g.depth = depth;
  g.rows = rows;
  g.cols = cols;
  g.in_pitch = rank >= 2 ? random_pitch(rng, cols) : cols;
  g.out_pitch = rank >= 2 ? random_pitch(rng, cols) : cols;
  g.in_slice = rows * g.in_pitch + (rank == 3 && uniform(rng, 0, 1) ? uniform(rng, 1, 40) : 0);
  g.out_slice = rows * g.out_pitch + (rank == 3 && uniform(rng, 0, 1) ? uniform(rng, 1, 40) : 0);
  g.in_offset = uniform(rng, 0, 2) == 0 ? 0 : uniform(rng, 0, 3);
  g.out_offset = uniform(rng, 0, 2) == 0 ? 0 : uniform(rng, 0, 3);
  g.guard = uniform(rng, 0, 8);
  if (rank >= 2 && uniform(rng, 0, 2) == 0) {
    // Addresses and pitches that are multiples of 16 bytes for every element size, as TMA needs
    // (device_stencil then loads with TMA on sm_90 and later, with cp.async otherwise).
    const auto round16 = [](long long n) { return (n + 15) / 16 * 16; };
    g.in_offset = 0;
    g.in_pitch = static_cast<int>(round16(cols + 16 * uniform(rng, 0, 1)));
    g.in_slice = round16(rows * static_cast<long long>(g.in_pitch) + 16 * uniform(rng, 0, 1));
  }
  return g;
}

// Random extents of the given rank for tiles of (planes x) rows x cols elements (the kernel's:
// the default stencil policies), case `i` of a series: the first cases are the degenerate shapes, then sizes
// below one tile, a little above, near multiples of tiles, and random ones. 3D volumes stay small
// (at most 40^3, 20^3 for box stencils of radius 3 and 4, whose host reference is costly).
inline Geometry random_geometry(std::mt19937& rng, int rank, int i, int tile_rows, int tile_cols, int radius,
                                bool big_box, int chunk_planes) {
  if (rank == 1) {
    int n;
    switch (i) {
      case 0: n = 1; break;
      case 1: n = uniform(rng, 2, 2 * radius); break;  // smaller than the halo: folds repeatedly
      case 2: n = tile_cols; break;
      case 3: n = tile_cols + uniform(rng, 1, 9); break;
      default: {
        const int kind = uniform(rng, 0, 9);
        if (kind < 3) n = uniform(rng, 1, 100);
        else if (kind < 5) n = uniform(rng, 1, tile_cols - 1);
        else if (kind < 7) n = tile_cols + uniform(rng, 1, 40);
        else if (kind < 9) n = std::max(1, tile_cols * uniform(rng, 2, 6) + uniform(rng, -3, 3));
        else n = uniform(rng, 1, 30000);
      }
    }
    return with_layout(rng, 1, 1, 1, n);
  }
  if (rank == 2) {
    int r, c;
    switch (i) {
      case 0: r = 1; c = 1; break;
      case 1: r = 1; c = uniform(rng, 2, 300); break;
      case 2: r = uniform(rng, 2, 300); c = 1; break;
      case 3: r = tile_rows; c = tile_cols; break;
      case 4: r = tile_rows + uniform(rng, 1, 5); c = tile_cols + uniform(rng, 1, 5); break;
      case 5: r = uniform(rng, 1, 2 * radius); c = uniform(rng, 1, 2 * radius); break;
      default: {
        const int kind = uniform(rng, 0, 9);
        if (kind < 3) {  // below one tile
          r = uniform(rng, 1, tile_rows - 1);
          c = uniform(rng, 1, tile_cols - 1);
        } else if (kind < 5) {  // a little above one tile
          r = tile_rows + uniform(rng, 1, 8);
          c = tile_cols + uniform(rng, 1, 8);
        } else if (kind < 7) {  // odd sizes
          r = 2 * uniform(rng, 0, 60) + 1;
          c = 2 * uniform(rng, 0, 60) + 1;
        } else if (kind < 9) {  // near multiples of the tile
          r = std::max(1, tile_rows * uniform(rng, 1, 6) + uniform(rng, -2, 2));
          c = std::max(1, tile_cols * uniform(rng, 1, 5) + uniform(rng, -2, 2));
        } else {
          r = uniform(rng, 1, 400);
          c = uniform(rng, 1, 400);
        }
      }
    }
    return with_layout(rng, 2, 1, r, c);
  }
  const int most = big_box ? 20 : 40;
  int d, r, c;
  switch (i) {
    case 0: d = 1; r = 1; c = 1; break;
    case 1: d = 1; r = 1; c = uniform(rng, 2, 70); break;
    case 2: d = uniform(rng, 2, 70); r = 1; c = 1; break;
    case 3: d = 1; r = uniform(rng, 2, 40); c = 1; break;
    case 4: d = uniform(rng, 1, 2 * radius); r = uniform(rng, 1, 2 * radius); c = uniform(rng, 1, 2 * radius); break;
    case 5:  // just past one chunk of planes (the 3D policy's planes), one tile a little above in y and x
      d = chunk_planes + uniform(rng, 1, 4);
      r = tile_rows + uniform(rng, 1, 3);
      c = big_box ? uniform(rng, 1, 8) : tile_cols + uniform(rng, 1, 3);
      break;
    default: {
      const int kind = uniform(rng, 0, 9);
      if (kind < 3) {  // below one tile
        d = uniform(rng, 1, std::min(most, 20));
        r = uniform(rng, 1, tile_rows - 1);
        c = uniform(rng, 1, tile_cols - 1);
      } else if (kind < 5) {  // a little above one tile
        d = uniform(rng, 1, most);
        r = tile_rows + uniform(rng, 1, 4);
        c = tile_cols + uniform(rng, 1, 4);
      } else {
        d = uniform(rng, 1, most);
        r = uniform(rng, 1, most);
        c = uniform(rng, 1, most);
      }
    }
  }
  return with_layout(rng, 3, d, r, c);
}

// ---- one checked call --------------------------------------------------------------------------------

template <class T>
std::vector<T> random_inputs(std::size_t n, std::mt19937& rng) {
  std::vector<T> v(n);
  if constexpr (std::is_integral<T>::value) {
    std::uniform_int_distribution<int> d(-1000, 1000);
    for (auto& x : v) x = static_cast<T>(d(rng));
  } else {
    std::uniform_real_distribution<double> d(-1.0, 1.0);
    for (auto& x : v) x = static_cast<T>(d(rng));
  }
  return v;
}

template <class T>
bool is_poison(const T& v) {
  const auto* b = reinterpret_cast<const unsigned char*>(&v);
  for (std::size_t i = 0; i < sizeof(T); ++i)
    if (b[i] != poison_byte) return false;
  return true;
}

template <class T>
constexpr double relative_tolerance() {
  return std::is_same<T, float>::value ? 1e-5 : 1e-12;
}

// The arrays of a geometry as the mdspans device_stencil takes.
template <int Rank, class T>
auto global_array(T* base, const Geometry& g, bool in) {
  T* p = base + (in ? g.in_offset : g.out_offset);
  const int pitch = static_cast<int>(in ? g.in_pitch : g.out_pitch);
  const int slice = static_cast<int>(in ? g.in_slice : g.out_slice);
  if constexpr (Rank == 1) return smemtile::make_global_vector(p, g.cols);
  else if constexpr (Rank == 2) return smemtile::make_global_matrix(p, g.rows, g.cols, pitch);
  else return smemtile::make_global_volume(p, g.depth, g.rows, g.cols, pitch, slice);
}

// Runs device_stencil<R, S> with policy P and `op` (after `forced`, a StencilForcedLoader or a
// policy, where given) on random input of geometry g, then checks every output element against the
// host reference and every other element of out's allocation (offset, pitch padding, slice gaps,
// guard) against the poison.
template <int Rank, int R, StencilShape S, int P, class T, class Op, class... Forced>
void check_stencil(const Geometry& g, const Op& op, std::mt19937& rng, Forced... forced) {
  INFO(g.describe());
  const std::size_t in_total = static_cast<std::size_t>(g.in_offset + g.in_span());
  const std::size_t out_total = static_cast<std::size_t>(g.out_offset + g.out_span() + g.guard);
  const std::vector<T> in = random_inputs<T>(in_total, rng);  // pitch padding random too
  DeviceBuffer<T> d_in(in_total), d_out(out_total);
  d_in.upload(in);
  d_out.poison();

  const auto in_view = global_array<Rank>(static_cast<const T*>(d_in.get()), g, true);
  const auto out_view = global_array<Rank>(d_out.get(), g, false);
  const smemtile::LaunchStatus status = smemtile::device_stencil<R, S>(forced..., in_view, out_view, make_policy<P, T>(), op);
  INFO("status: " << status.message);
  REQUIRE(status.error == cudaSuccess);
  REQUIRE_CUDA(cudaDeviceSynchronize());
  const std::vector<T> out = d_out.download();

  // Host reference.
  const T fill = P == kZero ? T(0) : fill_value<T>();
  const bool fills = P == kZero || P == kConstant;
  const auto value_at = [&](int z, int y, int x) -> T {
    const bool inside = z >= 0 && z < g.depth && y >= 0 && y < g.rows && x >= 0 && x < g.cols;
    if (!inside && fills) return fill;
    return in[static_cast<std::size_t>(g.in_index(reference_index(P, z, g.depth), reference_index(P, y, g.rows),
                                                  reference_index(P, x, g.cols)))];
  };
  std::vector<char> is_element(out_total, 0);
  long long wrong = 0;
  for (int z = 0; z < g.depth; ++z)
    for (int y = 0; y < g.rows; ++y)
      for (int x = 0; x < g.cols; ++x) {
        const std::size_t at = static_cast<std::size_t>(g.out_index(z, y, x));
        is_element[at] = 1;
        const T got = out[at];
        bool ok;
        long long exact = 0;
        double sum = 0, magnitude = 0;
        for (int k = 0; k < Op::count; ++k) {
          const Offset o = offset_of<Rank, R, S>(k);
          const T v = value_at(z + o.dz, y + o.dy, x + o.dx);
          if constexpr (std::is_integral<T>::value) {
            exact += static_cast<long long>(op.c[k]) * static_cast<long long>(v);
          } else {
            sum += static_cast<double>(op.c[k]) * static_cast<double>(v);
            magnitude += std::fabs(static_cast<double>(op.c[k]) * static_cast<double>(v));
          }
        }
        if constexpr (std::is_integral<T>::value) {
          ok = static_cast<long long>(got) == exact;
        } else {
          ok = !is_poison(got) && std::isfinite(static_cast<double>(got)) &&
               std::fabs(static_cast<double>(got) - sum) <= relative_tolerance<T>() * magnitude;
        }
        if (!ok) {
          if (wrong < 5)
            UNSCOPED_INFO("out(" << z << ", " << y << ", " << x << ") = " << +got << ", expected "
                                 << (std::is_integral<T>::value ? static_cast<double>(exact) : sum)
                                 << (is_poison(got) ? " (never written: poison)" : ""));
          ++wrong;
        }
      }
  long long clobbered = 0;
  for (std::size_t k = 0; k < out_total; ++k)
    if (!is_element[k] && !is_poison(out[k])) {
      if (clobbered < 3) UNSCOPED_INFO("out's allocation element " << k << " outside the array was written");
      ++clobbered;
    }
  CHECK(wrong == 0);
  CHECK(clobbered == 0);
  // The input is unchanged.
  CHECK(d_in.download() == in);
}

// `cases` random geometries (the first ones degenerate, see random_geometry) for device_stencil<R, S>
// with policy P on elements T, one random op (CoefOp) for all of them.
template <int Rank, int R, StencilShape S, int P, class T, class Op, class... Forced>
void random_stencils_with(const Op& op, int cases, std::mt19937& rng, Forced... forced);

template <int Rank, int R, StencilShape S, int P, class T>
void random_stencils(int cases, std::mt19937& rng) {
  random_stencils_with<Rank, R, S, P, T>(random_op<T, Rank, R, S>(rng), cases, rng);
}

// The same with a given op (and a forced path or policy, where given).
template <int Rank, int R, StencilShape S, int P, class T, class Op, class... Forced>
void random_stencils_with(const Op& op, int cases, std::mt19937& rng, Forced... forced) {
  // Odd cases take their sizes around the large tiles (used with TMA where a block may have 227 KB
  // of shared memory), even ones around the default tiles.
  constexpr int E = static_cast<int>(sizeof(T));
  using smemtile::StencilLoader;
  using smemtile::StencilTiles;
  using Tiles1 = typename smemtile::DefaultStencilPolicy<1, E, R, S, StencilLoader::sync>::type;
  using Tiles2 = typename smemtile::DefaultStencilPolicy<2, E, R, S, StencilLoader::tma>::type;
  using Large2 = typename smemtile::DefaultStencilPolicy<2, E, R, S, StencilLoader::tma, StencilTiles::large>::type;
  using Tiles3 = typename smemtile::DefaultStencilPolicy<3, E, R, S, StencilLoader::tma>::type;
  using Large3 = typename smemtile::DefaultStencilPolicy<3, E, R, S, StencilLoader::tma, StencilTiles::large>::type;
  const auto tile_rows = [](bool large) {
    return Rank == 1 ? 1 : Rank == 2 ? (large ? Large2::rows : Tiles2::rows) : (large ? Large3::rows : Tiles3::rows);
  };
  const auto tile_cols = [](bool large) {
    return Rank == 1 ? Tiles1::interior : Rank == 2 ? (large ? Large2::cols : Tiles2::cols)
                                                    : (large ? Large3::cols : Tiles3::cols);
  };
  const bool big_box = S == StencilShape::box && R >= 3;
  INFO("device_stencil<" << R << ", " << (S == StencilShape::star ? "star" : "box") << "> rank " << Rank << " "
                         << (std::is_integral<T>::value ? "int" : sizeof(T) == 4 ? "float" : "double") << " policy "
                         << policy_name(P));
  for (int i = 0; i < cases; ++i) {
    INFO("case " << i);
    const bool large = i % 2 == 1;
    const Geometry g = random_geometry(rng, Rank, i, tile_rows(large), tile_cols(large), R, big_box, Tiles3::planes);
    check_stencil<Rank, R, S, P, T>(g, op, rng, forced...);
  }
}

// One given geometry for device_stencil<R, S> with policy P: random pitches and offsets, or dense
// arrays at offset 0 (`dense`, for large ones).
template <int Rank, int R, StencilShape S, int P, class T>
void fixed_stencil(int depth, int rows, int cols, bool dense, std::mt19937& rng) {
  const auto op = random_op<T, Rank, R, S>(rng);
  INFO("device_stencil<" << R << ", " << (S == StencilShape::star ? "star" : "box") << "> rank " << Rank
                         << " policy " << policy_name(P));
  Geometry g = with_layout(rng, Rank, depth, rows, cols);
  if (dense) {
    g.in_pitch = g.out_pitch = cols;
    g.in_slice = g.out_slice = static_cast<long long>(rows) * cols;
    g.in_offset = g.out_offset = 0;
  }
  check_stencil<Rank, R, S, P, T>(g, op, rng);
}

// Every policy (zero, constant, clamp, periodic, reflect, in this order) for random_stencils.
template <int Rank, int R, StencilShape S, class T>
void random_stencils_every_policy(int cases, std::mt19937& rng) {
  random_stencils<Rank, R, S, kZero, T>(cases, rng);
  random_stencils<Rank, R, S, kConstant, T>(cases, rng);
  random_stencils<Rank, R, S, kClamp, T>(cases, rng);
  random_stencils<Rank, R, S, kPeriodic, T>(cases, rng);
  random_stencils<Rank, R, S, kReflect, T>(cases, rng);
}

// Radii 2 to 4 with star and 1 to 4 with box (in this order), policy reflect, for random_stencils.
template <int Rank, class T>
void random_stencils_radii_reflect(int cases, std::mt19937& rng) {
  random_stencils<Rank, 2, StencilShape::star, kReflect, T>(cases, rng);
  random_stencils<Rank, 3, StencilShape::star, kReflect, T>(cases, rng);
  random_stencils<Rank, 4, StencilShape::star, kReflect, T>(cases, rng);
  random_stencils<Rank, 1, StencilShape::box, kReflect, T>(cases, rng);
  random_stencils<Rank, 2, StencilShape::box, kReflect, T>(cases, rng);
  random_stencils<Rank, 3, StencilShape::box, kReflect, T>(cases, rng);
  random_stencils<Rank, 4, StencilShape::box, kReflect, T>(cases, rng);
}

}  // namespace stencil_test

// In a test case: a std::mt19937 `rng` seeded from a fresh seed, the seed reported with any failure.
#define STENCIL_TEST_SEEDED_RNG(rng)                          \
  const unsigned rng##_seed = smemtile_test::fresh_seed();    \
  INFO("seed " << rng##_seed);                                \
  std::mt19937 rng(rng##_seed)
