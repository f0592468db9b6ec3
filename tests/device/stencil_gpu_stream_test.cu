// GPU tests: device_stencil's 2D stream (StencilLoader::stream, StencilStreamPolicy) forced on
// random shapes at random pitches and base offsets (rows at any alignment), every boundary policy:
// each output element against the host reference, the rest of out's allocation against the poison
// (stencil_gpu_common.cuh's check_stencil). Widths around the strips' (32 x columns: interior
// strips test nothing, the first and last map their columns), heights around the warps' runs of
// rows; radii 1 to 4, star and box; floats, doubles and ints; small policies with many strips. 1- and
// 2-byte elements, which the host reference cannot check exactly, against the cp.async tiles bit for bit,
// forced through the stream and on the selected path (TMA's large tiles where the input allows, TMA
// by row classes where its rows are off 16 bytes); TMA by row classes forced, every element size.
#include <algorithm>  // std::max
#include <cstring>
#include <type_traits>  // std::is_same

#include "stencil_gpu_common.cuh"

namespace stencil_stream_test {
// A separable box op (SeparableStencilOp) with run-time integer weights along x and y, summed in
// A: down() of across() partials (outside the anonymous namespace: a kernel template argument).
template <class T, class A, int R>
struct SeparableWeights : smemtile::SeparableStencilOp<SeparableWeights<T, A, R>> {
  A wx[2 * R + 1], wy[2 * R + 1];
  template <class Row>
  __device__ A across(const Row& row) const {
    A sum = A(0);
    for (int dx = -R; dx <= R; ++dx) sum += wx[dx + R] * static_cast<A>(row(dx));
    return sum;
  }
  template <class Partials>
  __device__ T down(const Partials& partials) const {
    A sum = A(0);
    for (int dy = -R; dy <= R; ++dy) sum += wy[dy + R] * partials(dy);
    return static_cast<T>(sum);
  }
};

}  // namespace stencil_stream_test

namespace {

using namespace stencil_test;
using smemtile::StencilForcedLoader;
using smemtile::StencilLoader;
using smemtile::StencilStreamPolicy;
constexpr StencilShape star = StencilShape::star;
constexpr StencilShape box = StencilShape::box;

// Extents for a stream whose strips are `strip` columns wide and `run` rows high: degenerate,
// around one and two strips (runs), and random up to 5 strips.
Geometry stream_geometry(std::mt19937& rng, int i, int strip, int run) {
  int r, c;
  switch (i % 6) {
    case 0: r = uniform(rng, 1, 3); c = uniform(rng, 1, 40); break;
    case 1: r = run + uniform(rng, -2, 2); c = strip + uniform(rng, -3, 3); break;
    case 2: r = 2 * run + uniform(rng, -3, 3); c = 2 * strip + uniform(rng, -5, 5); break;
    case 3: r = uniform(rng, 1, 20); c = 3 * strip + uniform(rng, 1, 9); break;
    default: r = uniform(rng, 1, 3 * run); c = uniform(rng, 1, 5 * strip); break;
  }
  return with_layout(rng, 2, 1, r < 1 ? 1 : r, c < 1 ? 1 : c);
}

template <int R, StencilShape S, int P, class T, class Forced = StencilForcedLoader<StencilLoader::stream>>
void stream_cases(int cases, std::mt19937& rng, Forced forced = {}) {
  using Default = typename smemtile::DefaultStencilPolicy<2, static_cast<int>(sizeof(T)), R, S, StencilLoader::stream>::type;
  using Policy = std::conditional_t<smemtile::IsStencilPolicy<Forced>::value, Forced, Default>;
  const int strip = Policy::cols, run = Policy::rows;
  const auto op = random_op<T, 2, R, S>(rng);
  INFO("stream device_stencil<" << R << ", " << (S == star ? "star" : "box") << "> " << sizeof(T)
                                << "-byte elements, policy " << policy_name(P) << ", strips " << strip << " x " << run);
  for (int i = 0; i < cases; ++i) {
    INFO("case " << i);
    check_stencil<2, R, S, P, T>(stream_geometry(rng, i, strip, run), op, rng, forced);
  }
}

TEST_CASE("device_stencil 2D stream: every boundary policy, star and box of radius 1, floats") {
  STENCIL_TEST_SEEDED_RNG(rng);
  stream_cases<1, star, kZero, float>(12, rng);
  stream_cases<1, star, kConstant, float>(12, rng);
  stream_cases<1, star, kClamp, float>(12, rng);
  stream_cases<1, star, kPeriodic, float>(12, rng);
  stream_cases<1, star, kReflect, float>(12, rng);
  stream_cases<1, box, kZero, float>(12, rng);
  stream_cases<1, box, kClamp, float>(12, rng);
  stream_cases<1, box, kPeriodic, float>(12, rng);
  stream_cases<1, box, kReflect, float>(12, rng);
}

TEST_CASE("device_stencil 2D stream: radii 2 to 4, doubles and ints") {
  STENCIL_TEST_SEEDED_RNG(rng);
  stream_cases<2, star, kClamp, float>(12, rng);
  stream_cases<2, star, kPeriodic, double>(12, rng);
  stream_cases<3, star, kReflect, float>(8, rng);
  stream_cases<4, star, kConstant, double>(8, rng);
  stream_cases<2, box, kReflect, float>(8, rng);
  stream_cases<1, star, kZero, double>(12, rng);
  stream_cases<1, box, kConstant, double>(8, rng);
  stream_cases<1, star, kPeriodic, int>(8, rng);
  stream_cases<2, box, kClamp, int>(8, rng);
}

TEST_CASE("device_stencil 2D stream: small policies, many strips and runs per warp") {
  STENCIL_TEST_SEEDED_RNG(rng);
  stream_cases<1, star, kReflect, float>(12, rng, StencilStreamPolicy<1, 1, 5, 2, 1>{});
  stream_cases<2, box, kPeriodic, float>(12, rng, StencilStreamPolicy<3, 2, 7, 3, 1>{});
  stream_cases<1, star, kClamp, double>(12, rng, StencilStreamPolicy<2, 4, 3, 1, 1>{});
  stream_cases<3, star, kZero, int>(12, rng, StencilStreamPolicy<1, 1, 1, 1, 1>{});
}

// The selected path (device_stencil's own choice: TMA's large tiles where the input's rows are
// 16-byte aligned on sm_90, the stream where not), a stand-in for it in stream_equals_tiles.
struct Selected {};

// g's input rows 16-byte aligned and of whole 8-byte units, as a forced TMA path in 8-byte units needs.
template <class T>
void with_tma_input(Geometry& g, std::mt19937& rng) {
  const int per16 = 16 / static_cast<int>(sizeof(T)), per8 = 8 / static_cast<int>(sizeof(T));
  // Half the rows whole 8-byte TMA units; the others end inside one (the map reads to its end).
  if (uniform(rng, 0, 1) == 0) g.cols = std::max(per8, g.cols / per8 * per8);
  g.in_offset = 0;
  g.in_pitch = (g.cols + per16 - 1) / per16 * per16 + per16 * uniform(rng, 0, 1);
  g.in_slice = static_cast<long long>(g.rows) * g.in_pitch;
}

// device_stencil<R, S> on `path` (a forced loader, or Selected) from d_in into d_out, checked and
// synchronized; d_out's whole allocation, downloaded.
template <int R, StencilShape S, int P, class Path, class T, class Op>
std::vector<T> run_path(Path path, DeviceBuffer<T>& d_in, DeviceBuffer<T>& d_out, const Geometry& g, const Op& op) {
  const auto in = global_array<2>(static_cast<const T*>(d_in.get()), g, true);
  const auto out = global_array<2>(d_out.get(), g, false);
  smemtile::LaunchStatus status;
  if constexpr (std::is_same<Path, Selected>::value)
    status = smemtile::device_stencil<R, S>(in, out, make_policy<P, T>(), op);
  else
    status = smemtile::device_stencil<R, S>(path, in, out, make_policy<P, T>(), op);
  INFO("status: " << status.message);
  REQUIRE(status.error == cudaSuccess);
  REQUIRE_CUDA(cudaDeviceSynchronize());
  return d_out.download();
}

// 1- and 2-byte elements: the forced stream (or the Selected path, or another forced path) equals the
// forced cp.async tiles byte for byte over the whole allocation (pitch padding poisoned), with every
// element written (the path run twice over two different poisons: a byte result may equal one of
// them). Extents around `strip` x `run`, at least `min_rows` rows; `tma_input`: the input's rows
// 16-byte aligned and whole 8-byte units, as a forced TMA path in 8-byte units needs.
template <class T, int R, StencilShape S, int P, class Path = StencilForcedLoader<StencilLoader::stream>>
void stream_equals_tiles(int cases, std::mt19937& rng, int strip = 256, int run_rows = 64, bool tma_input = false,
                         int min_rows = 1) {
  const auto op = random_op<T, 2, R, S>(rng);
  INFO((std::is_same<Path, Selected>::value ? "selected" : "forced path") << " against cp.async, " << sizeof(T)
                                                                          << "-byte elements, radius " << R << ", policy "
                                                                          << policy_name(P));
  for (int i = 0; i < cases; ++i) {
    Geometry g = stream_geometry(rng, i, strip, run_rows);
    if (g.rows < min_rows) g = with_layout(rng, 2, 1, min_rows, g.cols);
    if (tma_input) with_tma_input<T>(g, rng);  // the long rows' and bytes' large tiles
    INFO("case " << i << ": " << g.describe());
    const std::size_t in_total = static_cast<std::size_t>(g.in_offset + g.in_span());
    const std::size_t out_total = static_cast<std::size_t>(g.out_offset + g.out_span() + g.guard);
    DeviceBuffer<T> d_in(in_total), d_out(out_total);
    d_in.upload(random_inputs<T>(in_total, rng));
    const auto run = [&](auto forced, int poison) {
      REQUIRE_CUDA(cudaMemset(d_out.get(), poison, out_total * sizeof(T)));
      return run_path<R, S, P>(forced, d_in, d_out, g, op);
    };
    const std::vector<T> stream = run(Path{}, poison_byte);
    const std::vector<T> again = run(Path{}, 0x5a);
    const std::vector<T> tiles = run(StencilForcedLoader<StencilLoader::cp_async>{}, poison_byte);
    long long unwritten = 0;
    for (int y = 0; y < g.rows; ++y)
      for (int x = 0; x < g.cols; ++x) {
        const std::size_t at = static_cast<std::size_t>(g.out_index(0, y, x));
        unwritten += stream[at] != again[at];
      }
    CHECK(unwritten == 0);
    CHECK(std::memcmp(stream.data(), tiles.data(), out_total * sizeof(T)) == 0);
  }
}

TEST_CASE("device_stencil 2D stream: bytes and shorts equal the cp.async tiles") {
  STENCIL_TEST_SEEDED_RNG(rng);
  stream_equals_tiles<signed char, 1, box, kClamp>(10, rng);
  stream_equals_tiles<signed char, 2, star, kPeriodic>(10, rng);
  stream_equals_tiles<short, 1, star, kReflect>(10, rng);
  stream_equals_tiles<short, 1, box, kConstant>(10, rng);
}

// Bytes and shorts on the selected path, extents around the large tiles of bytes (32 x 512, 48 x 512
// at radius 1: the 16-byte strips) and of halves (64 x 128); a third of the inputs 16-byte aligned (TMA on sm_90).
TEST_CASE("device_stencil 2D: bytes and shorts on the selected path equal the cp.async tiles") {
  STENCIL_TEST_SEEDED_RNG(rng);
  stream_equals_tiles<signed char, 1, box, kClamp, Selected>(18, rng, 512, 32);
  stream_equals_tiles<signed char, 1, star, kZero, Selected>(18, rng, 512, 32);
  stream_equals_tiles<signed char, 2, box, kPeriodic, Selected>(12, rng, 512, 32);
  stream_equals_tiles<signed char, 3, star, kReflect, Selected>(12, rng, 512, 32);
  stream_equals_tiles<short, 1, box, kConstant, Selected>(12, rng, 128, 64);
  stream_equals_tiles<short, 2, star, kClamp, Selected>(12, rng, 128, 64);
  using Large = StencilForcedLoader<StencilLoader::tma, smemtile::StencilTiles::large>;  // bytes: 48 x 512 at radius 1
  stream_equals_tiles<signed char, 1, box, kReflect, Large>(8, rng, 512, 48, true);
  stream_equals_tiles<signed char, 1, star, kClamp, Large>(8, rng, 512, 48, true);
  // Under zero too, where rows end inside an 8-byte unit: the cells the map reads past them are zeroed.
  stream_equals_tiles<signed char, 1, box, kZero, Large>(8, rng, 512, 48, true);
  using LongRows = StencilForcedLoader<StencilLoader::tma, smemtile::StencilTiles::long_rows>;
  stream_equals_tiles<short, 1, star, kZero, LongRows>(8, rng, 512, 32, true);
}

// TMA by row classes (StencilLoader::tma_row_classes), forced: rows at every 16-byte phase (random
// pitches and base offsets, a third of them aligned), at least 16 / sizeof(T) rows (what the path
// needs; fewer are refused, below). 4- and 8-byte elements against the host reference
// (check_stencil), every boundary policy; bytes and shorts against the cp.async tiles bit for bit.
template <int R, StencilShape S, int P, class T, smemtile::StencilTiles Tiles>
void row_classes_cases(int cases, std::mt19937& rng) {
  using Forced = StencilForcedLoader<StencilLoader::tma_row_classes, Tiles>;
  using Policy = typename smemtile::DefaultStencilPolicy<2, static_cast<int>(sizeof(T)), R, S, StencilLoader::tma_row_classes, Tiles>::type;
  const auto op = random_op<T, 2, R, S>(rng);
  INFO("row classes device_stencil<" << R << ", " << (S == star ? "star" : "box") << "> " << sizeof(T)
                                     << "-byte elements, policy " << policy_name(P));
  for (int i = 0; i < cases; ++i) {
    INFO("case " << i);
    Geometry g = stream_geometry(rng, i, Policy::cols, Policy::rows);
    g = with_layout(rng, 2, 1, std::max(g.rows, 16 / static_cast<int>(sizeof(T))), g.cols);
    check_stencil<2, R, S, P, T>(g, op, rng, Forced{});
  }
}

// TMA by row classes forced on bytes and shorts: stream_equals_tiles with its tiles' extents.
template <class T, int R, StencilShape S, int P, smemtile::StencilTiles Tiles>
void row_classes_equal_tiles(int cases, std::mt19937& rng) {
  using Policy = typename smemtile::DefaultStencilPolicy<2, static_cast<int>(sizeof(T)), R, S, StencilLoader::tma_row_classes, Tiles>::type;
  stream_equals_tiles<T, R, S, P, StencilForcedLoader<StencilLoader::tma_row_classes, Tiles>>(
      cases, rng, Policy::cols, Policy::rows, false, 16 / static_cast<int>(sizeof(T)));
}

TEST_CASE("device_stencil 2D: TMA by row classes, any pitch and base offset, every element size and policy") {
  STENCIL_TEST_SEEDED_RNG(rng);
  using smemtile::StencilTiles;
  row_classes_cases<1, star, kZero, float, StencilTiles::large>(8, rng);
  row_classes_cases<1, box, kClamp, float, StencilTiles::large>(8, rng);
  row_classes_cases<2, star, kPeriodic, float, StencilTiles::standard>(8, rng);
  row_classes_cases<3, box, kReflect, float, StencilTiles::standard>(6, rng);
  row_classes_cases<1, star, kConstant, double, StencilTiles::large>(8, rng);
  row_classes_cases<1, box, kPeriodic, double, StencilTiles::large>(8, rng);
  row_classes_cases<2, box, kZero, int, StencilTiles::standard>(6, rng);
  row_classes_equal_tiles<signed char, 1, box, kClamp, StencilTiles::large>(10, rng);
  row_classes_equal_tiles<signed char, 1, star, kZero, StencilTiles::large>(10, rng);
  row_classes_equal_tiles<signed char, 2, box, kPeriodic, StencilTiles::standard>(8, rng);
  row_classes_equal_tiles<short, 1, box, kReflect, StencilTiles::long_rows>(8, rng);
  row_classes_equal_tiles<short, 3, star, kConstant, StencilTiles::large>(8, rng);
}

TEST_CASE("device_stencil 2D: TMA by row classes refuses fewer rows than classes, with a message") {
  STENCIL_TEST_SEEDED_RNG(rng);
  DeviceBuffer<signed char> d_in(15 * 40), d_out(15 * 40);
  const auto in = smemtile::make_global_matrix<const signed char>(d_in.get(), 15, 37, 40);
  const auto out = smemtile::make_global_matrix(d_out.get(), 15, 37, 40);
  const smemtile::LaunchStatus status = smemtile::device_stencil<1, star>(
      StencilForcedLoader<StencilLoader::tma_row_classes>{}, in, out, smemtile::boundary::zero, random_op<signed char, 2, 1, star>(rng));
  CHECK(status.error == cudaErrorInvalidValue);
  CHECK(status.message.find("row classes need at least") != std::string::npos);
}

// Separable ops on every path against the host reference of the same across() and down(), exact
// (integer sums; float weights and inputs are small integers, so float sums are exact too), with
// the output allocation's padding and guard untouched. `Paths`: forced loaders, or Selected.
template <class Path>
constexpr bool forces_tma = false;
template <smemtile::StencilTiles Tiles>
constexpr bool forces_tma<StencilForcedLoader<StencilLoader::tma, Tiles>> = true;

template <class T, class A, int R, int P, class... Paths>
void separable_cases(int cases, std::mt19937& rng) {
  stencil_stream_test::SeparableWeights<T, A, R> op{};
  for (int k = 0; k <= 2 * R; ++k) op.wx[k] = static_cast<A>(uniform(rng, 1, 3)), op.wy[k] = static_cast<A>(uniform(rng, -3, 3));
  INFO("separable op, " << sizeof(T) << "-byte elements, radius " << R << ", policy " << policy_name(P));
  for (int i = 0; i < cases; ++i) {
    Geometry g = stream_geometry(rng, i, 512, 48);
    if (i % 2 == 0 || (forces_tma<Paths> || ...)) with_tma_input<T>(g, rng);  // TMA takes them
    INFO("case " << i << ": " << g.describe());
    const std::size_t in_total = static_cast<std::size_t>(g.in_offset + g.in_span());
    const std::size_t out_total = static_cast<std::size_t>(g.out_offset + g.out_span() + g.guard);
    std::vector<T> in = random_inputs<T>(in_total, rng);
    for (auto& v : in) v = static_cast<T>(uniform(rng, -60, 60));  // small integers: float sums stay exact
    DeviceBuffer<T> d_in(in_total), d_out(out_total);
    d_in.upload(in);
    const T fill = P == kZero ? T(0) : fill_value<T>();
    const auto at = [&](int y, int x) {
      if ((P == kZero || P == kConstant) && (y < 0 || y >= g.rows || x < 0 || x >= g.cols)) return fill;
      return in[static_cast<std::size_t>(g.in_index(0, reference_index(P, y, g.rows), reference_index(P, x, g.cols)))];
    };
    const auto run = [&](auto path) {
      d_out.poison();
      std::vector<T> expect = d_out.download();  // the poison, replaced at the points below
      const std::vector<T> got = run_path<R, box, P>(path, d_in, d_out, g, op);
      for (int y = 0; y < g.rows; ++y)
        for (int x = 0; x < g.cols; ++x) {
          A sum = A(0);  // down() of across(), written out on the host
          for (int dy = -R; dy <= R; ++dy) {
            A partial = A(0);
            for (int dx = -R; dx <= R; ++dx) partial += op.wx[dx + R] * static_cast<A>(at(y + dy, x + dx));
            sum += op.wy[dy + R] * partial;
          }
          expect[static_cast<std::size_t>(g.out_index(0, y, x))] = static_cast<T>(sum);
        }
      long long mismatched = 0;  // the whole allocation: results, and the poison elsewhere
      for (std::size_t e = 0; e < got.size(); ++e) mismatched += std::memcmp(&got[e], &expect[e], sizeof(T)) != 0;
      CHECK(mismatched == 0);
    };
    (run(Paths{}), ...);
  }
}

// Separable ops: the 2D strips keep their rows' partials, the other paths evaluate them point by
// point; both are down() of across() (bytes' 48 x 512 large tiles forced on small arrays).
TEST_CASE("device_stencil 2D: separable ops on every path equal their host reference") {
  STENCIL_TEST_SEEDED_RNG(rng);
  using Stream = StencilForcedLoader<StencilLoader::stream>;
  using CpAsync = StencilForcedLoader<StencilLoader::cp_async>;
  using Large = StencilForcedLoader<StencilLoader::tma, smemtile::StencilTiles::large>;
  separable_cases<unsigned char, int, 1, kClamp, Selected, Stream, CpAsync, Large>(8, rng);
  separable_cases<unsigned char, int, 2, kZero, Selected, CpAsync, Large>(6, rng);
  separable_cases<float, float, 1, kPeriodic, Selected, Stream, CpAsync>(6, rng);
  separable_cases<float, float, 3, kReflect, Selected, Large>(6, rng);
  separable_cases<short, int, 1, kConstant, Selected, CpAsync>(6, rng);
}

// Halves' rows of 1 KB (StencilTiles::long_rows, 32 x 512, which the selection takes on large
// arrays), forced on small ones: extents around the tile, every stencil the selection gives them.
TEST_CASE("device_stencil 2D: shorts on the long rows equal the cp.async tiles") {
  STENCIL_TEST_SEEDED_RNG(rng);
  using LongRows = StencilForcedLoader<StencilLoader::tma, smemtile::StencilTiles::long_rows>;
  stream_equals_tiles<short, 1, star, kZero, LongRows>(12, rng, 512, 32, true);
  stream_equals_tiles<short, 1, star, kClamp, LongRows>(12, rng, 512, 32, true);
  stream_equals_tiles<short, 2, star, kPeriodic, LongRows>(12, rng, 512, 32, true);
  stream_equals_tiles<short, 1, box, kReflect, LongRows>(12, rng, 512, 32, true);
  stream_equals_tiles<short, 1, box, kConstant, LongRows>(8, rng, 512, 32, true);
}

}  // namespace
