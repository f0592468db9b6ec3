// GPU tests of the transposes: device_transpose (device/transpose.cuh) and the block-level
// transposed copies (block/transpose.cuh).
//
// device_transpose: random cases (seed printed with INFO) for elements of 1, 2, 4, 8 and 16 bytes,
// including types aligned to less than their size (a struct of four floats, of two floats): shapes
// 1..4100 on each side (mostly small and medium; 1 x n, n x 1, tall and skinny, sizes just off the
// tile multiples, a few large), pitches equal to the row, padded, odd or 16-byte multiples, batches
// of 1..8 matrices with strides of one span or more (gaps), base pointers moved by 0..3 elements
// (and by whole words for under-aligned types). The output allocation (guard regions before and
// after, pitch padding, gaps between matrices) is poisoned; afterwards every destination element
// must equal the host's transpose and every other byte must still be the poison; the input must be
// unchanged. Input allocations are exactly sized, so compute-sanitizer's memcheck sees over-reads.
// Empty calls succeed and write nothing; invalid ones return cudaErrorInvalidValue with a message
// and launch nothing.
//
// Block level: copy_global_to_tile + copy_tile_to_global_transposed and copy_global_to_tile_transposed
// + copy_tile_to_global, on TransposeTiles (4- and 1-byte), a padded StaticTile (the element path)
// and a TransposeLayout tile carved from dynamic shared memory, with FixedThreadBlock<256> and
// ThreadBlock, at random origins inside, straddling and outside the arrays.
#include <smemtile/smemtile.cuh>

#include <cuda_fp16.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <random>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

#include "gpu_test.cuh"

namespace {

using smemtile::Coord;
using smemtile_test::DeviceBuffer;
using smemtile_test::poison_byte;

using Bytes = std::vector<unsigned char>;

// 16 bytes aligned to 4, and 8 bytes aligned to 4: device_transpose accepts them at any 4-byte
// aligned address.
struct FourFloats {
  float a, b, c, d;
};
struct TwoFloats {
  float a, b;
};
static_assert(sizeof(FourFloats) == 16 && alignof(FourFloats) == 4, "a 16-byte element aligned to 4");
static_assert(sizeof(TwoFloats) == 8 && alignof(TwoFloats) == 4, "an 8-byte element aligned to 4");
static_assert(sizeof(__half) == 2 && sizeof(float4) == 16 && alignof(float4) == 16, "element sizes");

int uniform(std::mt19937& rng, int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); }

// n elements of elem_bytes random bytes; no element is all zero or all poison (byte 0 is neither),
// so that an element the kernel failed to write, or wrote as a boundary zero, is always seen.
Bytes random_elements(std::size_t n, int elem_bytes, std::mt19937& rng) {
  Bytes bytes(n * static_cast<std::size_t>(elem_bytes));
  std::uniform_int_distribution<int> byte(0, 255);
  for (auto& b : bytes) b = static_cast<unsigned char>(byte(rng));
  for (std::size_t i = 0; i < n; ++i) {
    unsigned char& first = bytes[i * static_cast<std::size_t>(elem_bytes)];
    if (first == 0 || first == poison_byte) first = 0x5A;
  }
  return bytes;
}

// A pitch for rows of `width` elements: equal, a multiple of 128 bytes, padded, or odd.
int random_pitch(std::mt19937& rng, int width, int elem_bytes) {
  const int kind = uniform(rng, 0, 9);
  if (kind < 3) return width;
  if (kind < 5) {
    const int line = std::max(1, 128 / elem_bytes);
    return (width + line - 1) / line * line + line * uniform(rng, 0, 1);
  }
  if (kind < 8) return width + uniform(rng, 1, 40);
  const int pitch = width + uniform(rng, 1, 40);
  return pitch % 2 == 1 ? pitch : pitch + 1;
}

// ---- device_transpose against the host --------------------------------------------------------------

struct TransposeCase {
  int rows, cols, ld_in, ld_out, batch;
  long long stride_in, stride_out;
  std::size_t in_pre, out_pre, out_post;  // bytes before the first input / output element, after the last output
  bool simple;                            // the dense single-matrix overload
};

std::string describe(const TransposeCase& c) {
  std::ostringstream s;
  s << (c.simple ? "device_transpose(in, out, rows, cols)" : "device_transpose(pitched, batched)") << ": rows "
    << c.rows << ", cols " << c.cols << ", ld_in " << c.ld_in << ", ld_out " << c.ld_out << ", batch " << c.batch
    << ", stride_in " << c.stride_in << ", stride_out " << c.stride_out << ", in at +" << c.in_pre << " bytes, out at +"
    << c.out_pre << " bytes";
  return s.str();
}

// word_misalign: move the pointers by whole alignof(T) words inside an element too (under-aligned
// types), 0: never, 1: sometimes, 2: always (at least one of in and out off the element size).
TransposeCase random_transpose_case(std::mt19937& rng, int elem_bytes, int elem_align, int word_misalign) {
  TransposeCase c{};
  const long long max_matrix_bytes = 6LL << 20;
  const int kind = uniform(rng, 0, 99);
  if (kind < 35) {  // small: often below a tile, below 32, below a 16-byte chunk
    c.rows = uniform(rng, 1, 70);
    c.cols = uniform(rng, 1, 70);
  } else if (kind < 60) {  // medium
    c.rows = uniform(rng, 1, 300);
    c.cols = uniform(rng, 1, 300);
  } else if (kind < 67) {  // 1 x n
    c.rows = 1;
    c.cols = uniform(rng, 0, 3) == 0 ? 4100 : uniform(rng, 1, 4100);
  } else if (kind < 74) {  // n x 1
    c.rows = uniform(rng, 0, 3) == 0 ? 4100 : uniform(rng, 1, 4100);
    c.cols = 1;
  } else if (kind < 83) {  // tall and skinny, or short and wide
    c.rows = uniform(rng, 300, 4100);
    c.cols = uniform(rng, 2, 40);
    if (uniform(rng, 0, 1) == 1) std::swap(c.rows, c.cols);
  } else if (kind < 96) {  // just off the tile multiples (tiles are 32, 64 or 128 elements)
    c.rows = std::max(1, 32 * uniform(rng, 1, 12) + uniform(rng, -3, 3));
    c.cols = std::max(1, 32 * uniform(rng, 1, 12) + uniform(rng, -3, 3));
  } else {  // large: up to 4100 on a side, a few MB
    c.rows = uniform(rng, 1000, 4100);
    const long long most_cols = std::max(1LL, max_matrix_bytes / elem_bytes / c.rows);
    c.cols = static_cast<int>(std::min<long long>(uniform(rng, 1000, 4100), most_cols));
    if (uniform(rng, 0, 1) == 1) std::swap(c.rows, c.cols);
  }
  c.simple = uniform(rng, 0, 4) == 0;
  if (c.simple) {
    c.ld_in = c.cols;
    c.ld_out = c.rows;
    c.batch = 1;
    c.stride_in = c.stride_out = 0;
  } else {
    c.ld_in = random_pitch(rng, c.cols, elem_bytes);
    c.ld_out = random_pitch(rng, c.rows, elem_bytes);
    const long long span_in = smemtile::matrix_span(c.rows, c.cols, c.ld_in);
    const long long span_out = smemtile::matrix_span(c.cols, c.rows, c.ld_out);
    c.batch = uniform(rng, 0, 1) == 0 ? 1 : uniform(rng, 2, 8);
    const long long per_matrix = std::max(span_in, span_out) * elem_bytes;
    while (c.batch > 1 && c.batch * per_matrix > 2 * max_matrix_bytes) --c.batch;
    c.stride_in = span_in + (uniform(rng, 0, 1) == 0 ? 0 : uniform(rng, 1, 50));
    c.stride_out = span_out + (uniform(rng, 0, 1) == 0 ? 0 : uniform(rng, 1, 50));
    if (c.batch == 1 && uniform(rng, 0, 1) == 0) c.stride_in = c.stride_out = 0;  // unused for one matrix
  }
  const int words_per_elem = elem_bytes / elem_align;
  std::size_t in_word = 0, out_word = 0;
  if (words_per_elem > 1 && word_misalign > 0) {
    if (word_misalign == 2 || uniform(rng, 0, 1) == 0) {
      in_word = static_cast<std::size_t>(uniform(rng, 0, words_per_elem - 1) * elem_align);
      out_word = static_cast<std::size_t>(uniform(rng, 0, words_per_elem - 1) * elem_align);
      if (word_misalign == 2 && in_word == 0 && out_word == 0) in_word = static_cast<std::size_t>(elem_align);
    }
  }
  const std::size_t E = static_cast<std::size_t>(elem_bytes);
  // 0..3 elements off the allocation's (256-byte aligned) start, 0 half the time (16-byte aligned paths).
  auto element_offset = [&]() { return static_cast<std::size_t>(uniform(rng, 0, 1) == 0 ? 0 : uniform(rng, 1, 3)); };
  c.in_pre = element_offset() * E + in_word;
  c.out_pre = 16 * E + element_offset() * E + out_word;  // after a guard of 16 elements
  c.out_post = 16 * E + static_cast<std::size_t>(uniform(rng, 0, 3)) * E;
  return c;
}

// Where byte `i` of the output allocation lies, for a failure message.
std::string locate_output_byte(const TransposeCase& c, int elem_bytes, std::size_t i) {
  std::ostringstream s;
  s << "byte " << i << " of the output allocation: ";
  if (i < c.out_pre) {
    s << "in the guard before the output";
    return s.str();
  }
  const long long e = static_cast<long long>((i - c.out_pre) / static_cast<std::size_t>(elem_bytes));
  const long long b = c.batch > 1 && c.stride_out > 0 ? e / c.stride_out : 0;
  const long long within = e - b * c.stride_out;
  const long long row = within / c.ld_out, col = within % c.ld_out;
  s << "output element " << e << " = matrix " << b << ", row " << row << ", column " << col;
  if (b < c.batch && row < c.cols && col < c.rows)
    s << " (a destination element: in(" << col << ", " << row << ") of matrix " << b << ")";
  else
    s << " (not a destination element: must stay poison)";
  return s.str();
}

// Policy void: the selection; else device_transpose(Policy{}, ...).
template <class T, class Policy = void>
void check_transpose_case(const TransposeCase& c, std::mt19937& rng) {
  constexpr int E = static_cast<int>(sizeof(T));
  const std::size_t Eu = sizeof(T);
  INFO(describe(c));
  const long long span_in = smemtile::matrix_span(c.rows, c.cols, c.ld_in);
  const long long span_out = smemtile::matrix_span(c.cols, c.rows, c.ld_out);
  const long long total_in = (c.batch - 1) * c.stride_in + span_in;
  const long long total_out = (c.batch - 1) * c.stride_out + span_out;
  // The input allocation: exactly the bytes before the pointer and the elements up to the last one read.
  Bytes in_host = random_elements(static_cast<std::size_t>(total_in) + (c.in_pre + Eu - 1) / Eu, E, rng);
  in_host.resize(c.in_pre + static_cast<std::size_t>(total_in) * Eu);
  const std::size_t out_bytes = c.out_pre + static_cast<std::size_t>(total_out) * Eu + c.out_post;

  DeviceBuffer<unsigned char> d_in(in_host.size());
  d_in.upload(in_host);
  DeviceBuffer<unsigned char> d_out(out_bytes);
  d_out.poison();
  const T* in = reinterpret_cast<const T*>(d_in.get() + c.in_pre);
  T* out = reinterpret_cast<T*>(d_out.get() + c.out_pre);
  smemtile::LaunchStatus status;
  if constexpr (std::is_void<Policy>::value)
    status = c.simple ? smemtile::device_transpose(in, out, c.rows, c.cols)
                      : smemtile::device_transpose(in, out, c.rows, c.cols, c.ld_in, c.ld_out, c.batch, c.stride_in,
                                                   c.stride_out);
  else
    status = smemtile::device_transpose(Policy{}, in, out, c.rows, c.cols, c.ld_in, c.ld_out, c.batch, c.stride_in,
                                        c.stride_out);
  INFO("status: " << cudaGetErrorName(status.error) << " " << status.message);
  REQUIRE(status.error == cudaSuccess);
  REQUIRE(status.message.empty());
  REQUIRE_CUDA(cudaDeviceSynchronize());

  Bytes expected(out_bytes, poison_byte);
  for (long long b = 0; b < c.batch; ++b)
    for (long long r = 0; r < c.rows; ++r)
      for (long long col = 0; col < c.cols; ++col) {
        const std::size_t from = c.in_pre + static_cast<std::size_t>(b * c.stride_in + r * c.ld_in + col) * Eu;
        const std::size_t to = c.out_pre + static_cast<std::size_t>(b * c.stride_out + col * c.ld_out + r) * Eu;
        std::memcpy(&expected[to], &in_host[from], Eu);
      }
  const Bytes got = d_out.download();
  if (got != expected) {
    std::size_t first = 0, differing = 0;
    for (std::size_t i = got.size(); i-- > 0;)
      if (got[i] != expected[i]) {
        first = i;
        ++differing;
      }
    INFO(differing << " bytes differ; the first: " << locate_output_byte(c, E, first) << ": expected 0x" << std::hex
                   << int(expected[first]) << ", got 0x" << int(got[first]));
    FAIL("the output allocation differs from the host's transpose (poison outside the destination)");
  }
  const Bytes in_after = d_in.download();
  REQUIRE(in_after == in_host);  // the input is read only
}

template <class T>
void run_random_transposes(int cases, int word_misalign) {
  const unsigned seed = smemtile_test::fresh_seed();
  INFO("seed " << seed);
  std::mt19937 rng(seed);
  for (int i = 0; i < cases; ++i) {
    INFO("case " << i);
    const TransposeCase c =
        random_transpose_case(rng, static_cast<int>(sizeof(T)), static_cast<int>(alignof(T)), word_misalign);
    check_transpose_case<T>(c, rng);
  }
}

// [A, B, C] -> [C, B, A] (out[c][b][a] = in[a][b][c]) as one call: a batch over B of A x C matrices,
// in at b * C (pitch B * C), out at b * A (pitch B * A), so the outputs interleave within each row.
template <class T>
void run_rank3_permutations(int cases) {
  const unsigned seed = smemtile_test::fresh_seed();
  INFO("seed " << seed);
  std::mt19937 rng(seed);
  for (int i = 0; i < cases; ++i) {
    const int kind = i % 4;  // small matrices, narrow sides (A or C up to 32), larger ones
    TransposeCase c{};
    const int a = kind == 0 ? uniform(rng, 1, 40) : kind == 1 ? uniform(rng, 1, 8) : uniform(rng, 33, 300);
    const int cc = kind == 0 ? uniform(rng, 1, 40) : kind == 2 ? uniform(rng, 1, 8) : uniform(rng, 33, 300);
    const int b = uniform(rng, 1, kind == 3 ? 12 : 60);
    c.rows = a;
    c.cols = cc;
    c.ld_in = b * cc;
    c.ld_out = b * a;
    c.batch = b;
    c.stride_in = cc;
    c.stride_out = a;
    c.in_pre = 0;
    c.out_pre = 16 * sizeof(T);
    c.out_post = 16 * sizeof(T);
    c.simple = false;
    INFO("case " << i << ": [A, B, C] = [" << a << ", " << b << ", " << cc << "]");
    check_transpose_case<T>(c, rng);
  }
}

}  // namespace

TEST_CASE("device_transpose: 1-byte elements (unsigned char) on random shapes and pitches and batches", "[transpose][device]") {
  run_random_transposes<unsigned char>(220, 0);
}

TEST_CASE("device_transpose: 2-byte elements (__half) on random shapes and pitches and batches", "[transpose][device]") {
  run_random_transposes<__half>(110, 0);
}

TEST_CASE("device_transpose: 2-byte elements (unsigned short) on random shapes and pitches and batches",
          "[transpose][device]") {
  run_random_transposes<unsigned short>(110, 0);
}

TEST_CASE("device_transpose: 4-byte elements (float) on random shapes and pitches and batches", "[transpose][device]") {
  run_random_transposes<float>(200, 0);
}

TEST_CASE("device_transpose: 8-byte elements (double) on random shapes and pitches and batches", "[transpose][device]") {
  run_random_transposes<double>(180, 0);
}

TEST_CASE("device_transpose: 16-byte elements (float4) on random shapes and pitches and batches", "[transpose][device]") {
  run_random_transposes<float4>(150, 0);
}

TEST_CASE("device_transpose: 16-byte elements aligned to 4 (struct of four floats) with pointers off by whole elements",
          "[transpose][device]") {
  run_random_transposes<FourFloats>(100, 0);
}

// alignof(FourFloats) is 4, so device_transpose accepts (and must handle) pointers that are 4-byte
// but not 16-byte aligned.
TEST_CASE("device_transpose: 16-byte elements aligned to 4 (struct of four floats) with pointers only 4-byte aligned",
          "[transpose][device]") {
  run_random_transposes<FourFloats>(100, 2);
}

TEST_CASE("device_transpose: 8-byte elements aligned to 4 (struct of two floats) with pointers often only 4-byte aligned",
          "[transpose][device]") {
  run_random_transposes<TwoFloats>(100, 1);
}

TEST_CASE("device_transpose: every tile edge at once in one 4100 x 4100 matrix of bytes", "[transpose][device]") {
  std::mt19937 rng(smemtile_test::fresh_seed());
  TransposeCase c{4100, 4100, 4100 + 3, 4100 + 1, 1, 0, 0, 1, 16 + 2, 16, false};
  check_transpose_case<unsigned char>(c, rng);
}

TEST_CASE("device_transpose: folded grids (over 65535 matrices, over 65535 tile columns) cover every element",
          "[transpose][device]") {
  std::mt19937 rng(smemtile_test::fresh_seed());
  // These shapes are narrow or small (the selection takes the record algorithms since issue 21):
  // each runs with the large-tile policy the selection took before, forced, and selected.
  using A = smemtile::TransposeAlgorithm;
  // 70001 matrices of 3 x 5 floats, strides with a gap: grid y and z count tile columns x matrices.
  const TransposeCase floats{3, 5, 6, 4, 70001, 20, 23, 4, 16 * 4, 16 * 4, false};
  check_transpose_case<float, smemtile::DefaultTransposePolicy<4, A::padded_elements>::type>(floats, rng);
  check_transpose_case<float>(floats, rng);
  // 66000 matrices of 3 x 130 halves (two tile columns and part of a third, taken two at a time).
  const TransposeCase halves{3, 130, 130, 3, 66000, 390, 392, 2, 16 * 2, 16 * 2, false};
  check_transpose_case<unsigned short, smemtile::DefaultTransposePolicy<2, A::padded_elements>::type>(halves, rng);
  check_transpose_case<unsigned short>(halves, rng);
  // 65537 matrices of 2 x 2 bytes, dense.
  const TransposeCase bytes{2, 2, 2, 2, 65537, 4, 4, 0, 16, 16, false};
  check_transpose_case<unsigned char, smemtile::DefaultTransposePolicy<1, A::word_blocks>::type>(bytes, rng);
  check_transpose_case<unsigned char>(bytes, rng);
  // One row of 65536 * 32 + 7 16-byte elements: 65537 tile columns of the padded tile (32 wide).
  const TransposeCase row{1, 65536 * 32 + 7, 65536 * 32 + 7, 1, 1, 0, 0, 0, 16 * 16, 16 * 16, false};
  check_transpose_case<float4, smemtile::DefaultTransposePolicy<16, A::padded_elements>::type>(row, rng);
  check_transpose_case<float4>(row, rng);
}

// realigned_rows (odd pitches of bytes and halves, tiles of 496 / 248 rows): random shapes around
// the tiles (one tile down or several, the last one short, edge tile columns), odd and padded
// pitches, pointers off by 1..15 bytes, batches with gaps; each through the default policy forced
// (any shape, so the checked edge paths too), an 8-warp policy, and the selection (which for floats
// takes the padded tiles: their realigned_rows is a caller's policy).
template <class T>
void run_realigned_transposes(int cases) {
  constexpr int E = static_cast<int>(sizeof(T));
  using A = smemtile::TransposeAlgorithm;
  using Default = typename smemtile::DefaultTransposePolicy<E, A::realigned_rows>::type;
  using Narrow = smemtile::TransposePolicy<A::realigned_rows, 512 / E, 64, 0, 3, false, 256>;
  const unsigned seed = smemtile_test::fresh_seed();
  INFO("seed " << seed);
  std::mt19937 rng(seed);
  const int tile = 31 * 16 / E;  // rows a tile writes
  for (int i = 0; i < cases; ++i) {
    INFO("case " << i);
    TransposeCase c{};
    const int kind = i % 4;
    c.rows = kind == 0 ? uniform(rng, 1, 2 * tile) : kind == 1 ? tile * uniform(rng, 1, 4) + uniform(rng, -17, 17)
                                                                : uniform(rng, tile, 3000 / E);
    c.rows = std::max(1, c.rows);
    c.cols = kind == 3 ? uniform(rng, 1, 40) : uniform(rng, 33, 700 / E);
    c.ld_in = c.cols + (uniform(rng, 0, 2) == 0 ? 0 : uniform(rng, 1, 37));
    c.ld_out = c.rows + (uniform(rng, 0, 3) == 0 ? 0 : uniform(rng, 1, 37));
    const long long span_in = smemtile::matrix_span(c.rows, c.cols, c.ld_in);
    const long long span_out = smemtile::matrix_span(c.cols, c.rows, c.ld_out);
    c.batch = uniform(rng, 0, 2) == 0 ? uniform(rng, 2, 3) : 1;
    c.stride_in = span_in + uniform(rng, 0, 9);
    c.stride_out = span_out + uniform(rng, 0, 9);
    c.in_pre = static_cast<std::size_t>(uniform(rng, 0, 15 / E) * E);
    c.out_pre = static_cast<std::size_t>((16 + uniform(rng, 0, 15 / E)) * E);
    c.out_post = static_cast<std::size_t>(16 * E);
    c.simple = false;
    check_transpose_case<T, Default>(c, rng);
    if (i % 3 == 0) check_transpose_case<T, Narrow>(c, rng);
    check_transpose_case<T>(c, rng);
  }
}

TEST_CASE("device_transpose: realigned_rows moves bytes at any pitch and phase", "[transpose][device][realigned]") {
  run_realigned_transposes<unsigned char>(60);
}

TEST_CASE("device_transpose: realigned_rows moves halves at any pitch and phase", "[transpose][device][realigned]") {
  run_realigned_transposes<__half>(60);
}

TEST_CASE("device_transpose: realigned_rows moves floats through a caller's policy", "[transpose][device][realigned]") {
  run_realigned_transposes<float>(24);
}

TEST_CASE("device_transpose: the issue's odd shape (8191 x 8193) of bytes and halves, selected", "[transpose][device][realigned]") {
  std::mt19937 rng(smemtile_test::fresh_seed());
  const TransposeCase c{8191, 8193, 8193, 8191, 1, 0, 0, 0, 16 * 2, 16 * 2, false};
  check_transpose_case<unsigned char>(c, rng);
  check_transpose_case<unsigned short>(c, rng);
}

// Output rows aligned, sizes the register blocks' tiles do not divide (columns here), the input's
// rows aligned or at any phase: the selection takes realigned_rows (tuning/transpose_selection.cuh);
// every output row starts on a chunk boundary.
TEST_CASE("device_transpose: realigned_rows selected where the register tiles do not divide an aligned matrix",
          "[transpose][device][realigned]") {
  std::mt19937 rng(smemtile_test::fresh_seed());
  for (int i = 0; i < 8; ++i) {
    INFO("case " << i);
    const int rows = 16 * uniform(rng, 31, 200), cols = 128 * uniform(rng, 1, 12) + uniform(rng, 1, 127);
    const int ld_in = i % 2 ? cols + uniform(rng, 0, 5) : 16 * ((cols + 15) / 16), batch = i % 4 == 3 ? 2 : 1;
    const long long span_out = static_cast<long long>(cols) * rows;
    const TransposeCase c{rows, cols, ld_in, rows, batch, static_cast<long long>(rows) * ld_in + uniform(rng, 0, 9),
                          span_out, static_cast<std::size_t>(i % 2 ? uniform(rng, 0, 15) * 2 : 0), 32, 32, false};
    check_transpose_case<unsigned char>(c, rng);
    check_transpose_case<unsigned short>(c, rng);
  }
}

// ---- empty and invalid calls --------------------------------------------------------------------------

TEST_CASE("device_transpose: a caller's policy transposes (and register blocks refuse unaligned rows)",
          "[transpose][device][policy]") {
  const int rows = 130, cols = 77;
  const unsigned seed = smemtile_test::fresh_seed();
  INFO("seed " << seed);
  const std::vector<float> values = smemtile_test::random_values<float>(static_cast<std::size_t>(rows) * cols, seed);
  DeviceBuffer<float> in(values.size()), out(values.size() + 4);
  in.upload(values);
  out.poison();
  using Padded64 = smemtile::TransposePolicy<smemtile::TransposeAlgorithm::padded_elements, 64, 64, 1, 3, false>;
  const smemtile::LaunchStatus s = smemtile::device_transpose(Padded64{}, in.get(), out.get(), rows, cols);
  INFO(s.message);
  REQUIRE(s);
  REQUIRE_CUDA(cudaDeviceSynchronize());
  const std::vector<float> got = out.download();
  int wrong = 0;
  for (int r = 0; r < rows; ++r)
    for (int c = 0; c < cols; ++c) wrong += std::memcmp(&got[static_cast<std::size_t>(c) * rows + r], &values[static_cast<std::size_t>(r) * cols + c], sizeof(float)) != 0;
  CHECK(wrong == 0);
  // Register blocks need 16-byte aligned output rows: ld_out 131 floats is not.
  using Blocks = smemtile::DefaultTransposePolicy<4, smemtile::TransposeAlgorithm::register_blocks>::type;
  const smemtile::LaunchStatus refused = smemtile::device_transpose(Blocks{}, in.get(), out.get(), 2, 3, 3, 131, 1, 0, 0);
  CHECK(refused.error == cudaErrorInvalidValue);
  CHECK(refused.message.find("16-byte") != std::string::npos);
}

// small_batch_registers through a caller's policy with a 16 KB stage (not the default 32 KB) and 6
// blocks per multiprocessor: dense batches of whole tiles over several blocks, the last one short,
// output allocations poisoned around the destination.
template <class T>
void run_batch_register_policy(std::mt19937& rng) {
  constexpr int E = static_cast<int>(sizeof(T)), t = smemtile::batch_tile_side(E);
  using Policy =
      smemtile::TransposePolicy<smemtile::TransposeAlgorithm::small_batch_registers, 16384 / E / 32, 32, 0, 6, false>;
  for (int i = 0; i < 12; ++i) {
    TransposeCase c{};
    c.rows = t * uniform(rng, 1, 64 / t);
    c.cols = t * uniform(rng, 1, std::min(64, 16384 / E / c.rows) / t);
    c.ld_in = c.cols;
    c.ld_out = c.rows;
    const int per_block = 16384 / (c.rows * c.cols * E);
    c.batch = uniform(rng, 1, 3 * per_block + 3);
    c.stride_in = c.stride_out = static_cast<long long>(c.rows) * c.cols;
    c.in_pre = 16 * static_cast<std::size_t>(uniform(rng, 0, 1));
    c.out_pre = 16 * static_cast<std::size_t>(uniform(rng, 1, 2));
    c.out_post = 16;
    c.simple = false;
    check_transpose_case<T, Policy>(c, rng);
  }
}

TEST_CASE("device_transpose: a caller's small_batch_registers policy (16 KB stage) transposes dense batches",
          "[transpose][device][policy]") {
  const unsigned seed = smemtile_test::fresh_seed();
  INFO("seed " << seed);
  std::mt19937 rng(seed);
  run_batch_register_policy<unsigned char>(rng);
  run_batch_register_policy<__half>(rng);
  run_batch_register_policy<float>(rng);
  run_batch_register_policy<double>(rng);
}

TEST_CASE("device_transpose: empty transposes succeed and write nothing", "[transpose][device]") {
  const std::size_t n = 1024;
  DeviceBuffer<float> in(n), out(n);
  in.upload(smemtile_test::random_values<float>(n, smemtile_test::fresh_seed()));
  out.poison();
  const std::vector<float> before = out.download();
  auto expect_success = [](const smemtile::LaunchStatus& s) {
    INFO(cudaGetErrorName(s.error) << " " << s.message);
    CHECK(s.error == cudaSuccess);
    CHECK(static_cast<bool>(s));
    CHECK(s.message.empty());
  };
  expect_success(smemtile::device_transpose(in.get(), out.get(), 0, 5));
  expect_success(smemtile::device_transpose(in.get(), out.get(), 5, 0));
  expect_success(smemtile::device_transpose(in.get(), out.get(), 0, 0));
  expect_success(smemtile::device_transpose<float>(nullptr, nullptr, 0, 7));
  expect_success(smemtile::device_transpose<float>(nullptr, nullptr, 7, 0));
  expect_success(smemtile::device_transpose(in.get(), out.get(), 0, 9, 9, 0, 3, 0, 0));
  expect_success(smemtile::device_transpose(in.get(), out.get(), 9, 0, 0, 9, 3, 0, 0));
  expect_success(smemtile::device_transpose(in.get(), out.get(), 8, 8, 8, 8, 0, 64, 64));  // batch 0
  expect_success(smemtile::device_transpose<float>(nullptr, nullptr, 8, 8, 8, 8, 0, 64, 64));
  expect_success(smemtile::device_transpose(in.get(), in.get(), 0, 0));  // in == out, but nothing to do
  REQUIRE_CUDA(cudaDeviceSynchronize());
  REQUIRE_CUDA(cudaGetLastError());
  const std::vector<float> after = out.download();
  CHECK(std::memcmp(before.data(), after.data(), n * sizeof(float)) == 0);
  std::vector<unsigned char> poison(n * sizeof(float), poison_byte);
  CHECK(std::memcmp(after.data(), poison.data(), poison.size()) == 0);
}

TEST_CASE("device_transpose: invalid arguments return cudaErrorInvalidValue and a message and launch nothing",
          "[transpose][device]") {
  const std::size_t n = 4096;
  DeviceBuffer<float> a(n), b(n);
  const std::vector<float> a_values = smemtile_test::random_values<float>(n, smemtile_test::fresh_seed());
  a.upload(a_values);
  b.poison();
  float* in = a.get();
  float* out = b.get();
  auto expect_invalid = [](const smemtile::LaunchStatus& s, const char* cause) {
    INFO(cudaGetErrorName(s.error) << " " << s.message << " (expected a message mentioning \"" << cause << "\")");
    CHECK(s.error == cudaErrorInvalidValue);
    CHECK_FALSE(static_cast<bool>(s));
    CHECK_FALSE(s.message.empty());
    CHECK(s.message.find("device_transpose") != std::string::npos);
    CHECK(s.message.find(cause) != std::string::npos);
  };
  expect_invalid(smemtile::device_transpose<float>(nullptr, out, 8, 8), "null");
  expect_invalid(smemtile::device_transpose<float>(in, nullptr, 8, 8), "null");
  expect_invalid(smemtile::device_transpose(in, out, -1, 8), "negative");
  expect_invalid(smemtile::device_transpose(in, out, 8, -1), "negative");
  expect_invalid(smemtile::device_transpose(in, out, 8, 8, 8, 8, -1, 64, 64), "negative");
  expect_invalid(smemtile::device_transpose(in, in, 8, 8), "in-place");
  expect_invalid(smemtile::device_transpose(in, in + 10, 8, 8), "overlap");  // out starts inside in
  expect_invalid(smemtile::device_transpose(in + 10, in, 8, 8), "overlap");  // in starts inside out
  expect_invalid(smemtile::device_transpose(in, in + 63, 8, 8), "overlap");  // out's first = in's last
  expect_invalid(smemtile::device_transpose(in, in + 64 * 3 + 60, 8, 8, 8, 8, 4, 64, 64), "overlap");  // batch
  expect_invalid(smemtile::device_transpose(in, out, 8, 8, 7, 8, 1, 0, 0), "ld_in");
  expect_invalid(smemtile::device_transpose(in, out, 8, 8, 8, 7, 1, 0, 0), "ld_out");
  expect_invalid(smemtile::device_transpose(in, out, 8, 8, 8, 8, 2, 64, 63), "stride_out");
  expect_invalid(smemtile::device_transpose(in, out, 8, 8, 8, 8, 2, -64, 64), "stride_in");
  // Pointers not aligned for the element type (an address no T may have: 2 bytes into a float).
  const float* in_misaligned = reinterpret_cast<const float*>(reinterpret_cast<const char*>(in) + 2);
  float* out_misaligned = reinterpret_cast<float*>(reinterpret_cast<char*>(out) + 2);
  expect_invalid(smemtile::device_transpose(in_misaligned, out, 8, 8), "aligned");
  expect_invalid(smemtile::device_transpose(in, out_misaligned, 8, 8), "aligned");
  // Adjacent buffers are fine (a control: the same calls without the overlap run).
  {
    const smemtile::LaunchStatus s = smemtile::device_transpose(in, in + 64, 8, 8);
    INFO(s.message);
    CHECK(s.error == cudaSuccess);
    REQUIRE_CUDA(cudaDeviceSynchronize());
    std::vector<float> expected = a_values;
    for (int r = 0; r < 8; ++r)
      for (int c = 0; c < 8; ++c) expected[64 + c * 8 + r] = a_values[r * 8 + c];
    const std::vector<float> got = a.download();
    CHECK(std::memcmp(got.data(), expected.data(), n * sizeof(float)) == 0);
    a.upload(a_values);
  }
  REQUIRE_CUDA(cudaDeviceSynchronize());
  REQUIRE_CUDA(cudaGetLastError());
  // Nothing ran: out is all poison and in is unchanged (the in-place and overlapping calls wrote there).
  const std::vector<float> out_after = b.download();
  std::vector<unsigned char> poison(n * sizeof(float), poison_byte);
  CHECK(std::memcmp(out_after.data(), poison.data(), poison.size()) == 0);
  const std::vector<float> in_after = a.download();
  CHECK(std::memcmp(in_after.data(), a_values.data(), n * sizeof(float)) == 0);
}

// ---- block level ------------------------------------------------------------------------------------

namespace {

enum class Direction {
  store_transposed,  // copy_global_to_tile, then copy_tile_to_global_transposed
  load_transposed    // copy_global_to_tile_transposed, then copy_tile_to_global
};

template <class T>
struct BlockArgs {
  const T* in;
  int in_rows, in_cols, in_pitch;
  Coord in_origin;
  T* out;
  int out_rows, out_cols, out_pitch;
  Coord out_origin;
  int lead;          // bytes carved before a dynamic tile
  int in_step = 1;   // elements from one column to the next (the views' stride(1))
  int out_step = 1;
};

// A rows x cols view of `data`, rows `pitch` and columns `step` elements apart (layout_stride).
template <class T>
__device__ smemtile::GlobalArray<T, 2> strided_matrix(T* data, int rows, int cols, int pitch, int step) {
  using Mapping = typename cuda::std::layout_stride::template mapping<cuda::std::dextents<int, 2>>;
  return smemtile::GlobalArray<T, 2>(data, Mapping(cuda::std::dextents<int, 2>(rows, cols), cuda::std::array<int, 2>{pitch, step}));
}

template <Direction D, class Group, class T, class Tile>
__device__ void block_transpose(Tile&& tile, const BlockArgs<T>& a) {
  const auto in = strided_matrix(a.in, a.in_rows, a.in_cols, a.in_pitch, a.in_step);
  const auto out = strided_matrix(a.out, a.out_rows, a.out_cols, a.out_pitch, a.out_step);
  if constexpr (D == Direction::store_transposed) {
    smemtile::copy_global_to_tile(in, a.in_origin, tile, smemtile::boundary::Zero{}, Group{});
    __syncthreads();
    smemtile::copy_tile_to_global_transposed(tile, out, a.out_origin, Group{});
  } else {
    smemtile::copy_global_to_tile_transposed(in, a.in_origin, tile, smemtile::boundary::Zero{}, Group{});
    __syncthreads();
    smemtile::copy_tile_to_global(tile, out, a.out_origin, Group{});
  }
}

template <class T, class Tile, Direction D, class Group>
__global__ void static_tile_kernel(BlockArgs<T> a) {
  __shared__ Tile tile;
  block_transpose<D, Group>(tile, a);
}

// A tile of a static Layout (TransposeLayout or WordTransposeLayout) carved from dynamic shared
// memory after `lead` bytes.
template <class T, class Layout>
struct CarvedTranspose {
  unsigned char* lead;
  smemtile::TileRef<T, Layout> tile;
};
template <class T, class Layout>
SMEMTILE_HOST_DEVICE CarvedTranspose<T, Layout> carve_transpose_tile(smemtile::Arena& arena, int lead) {
  return {arena.array<unsigned char>(static_cast<std::size_t>(lead)), arena.tile<T>(Layout{})};
}

template <class T, class Layout, Direction D, class Group>
__global__ void dynamic_tile_kernel(BlockArgs<T> a) {
  CarvedTranspose<T, Layout> s = smemtile::carve_dynamic_shared_memory(carve_transpose_tile<T, Layout>, a.lead);
  block_transpose<D, Group>(s.tile, a);
}

// An origin along one axis for a region of `span` elements over `extent`: inside, straddling an
// edge (or the whole array), or wholly outside.
int random_origin(std::mt19937& rng, int extent, int span) {
  const int kind = uniform(rng, 0, 9);
  if (kind < 5 && extent >= span) return uniform(rng, 0, extent - span);
  if (kind < 9) return uniform(rng, -span + 1, extent - 1);
  return uniform(rng, 0, 1) == 0 ? -span - uniform(rng, 0, 5) : extent + uniform(rng, 0, 5);
}

struct MatrixCase {
  int rows, cols, pitch;
  int step = 1;     // elements from one column to the next
  std::size_t pre;  // elements before (0..3 misalignment, plus a guard for outputs)
  Coord origin;
};

// aligned: the region lies inside the array, and the base, pitch and origin column are multiples of 16
// bytes, so that the copies may take their vector and whole-unit paths; otherwise anything goes.
MatrixCase random_matrix(std::mt19937& rng, int region_rows, int region_cols, int elem_bytes, bool aligned,
                         std::size_t guard) {
  MatrixCase m{};
  const int chunk = std::max(1, 16 / elem_bytes);
  m.pre = guard * static_cast<std::size_t>(chunk);
  if (aligned) {
    m.rows = region_rows + uniform(rng, 0, 40);
    m.cols = region_cols + uniform(rng, 0, 40);
    m.pitch = (m.cols + chunk - 1) / chunk * chunk + chunk * uniform(rng, 0, 2);
    m.origin = Coord{uniform(rng, 0, m.rows - region_rows), uniform(rng, 0, m.cols - region_cols) / chunk * chunk};
  } else {
    m.rows = uniform(rng, 1, 2 * region_rows + 20);
    m.cols = uniform(rng, 1, 2 * region_cols + 20);
    m.pitch = random_pitch(rng, m.cols, elem_bytes);
    m.pre += static_cast<std::size_t>(uniform(rng, 0, 3));
    m.origin = Coord{random_origin(rng, m.rows, region_rows), random_origin(rng, m.cols, region_cols)};
  }
  return m;
}

// Columns `step` apart (2 ... max_step): no vector or whole-unit access applies, and every element
// must land where the view's strides say.
void make_strided(std::mt19937& rng, MatrixCase& m, int max_step) {
  m.step = uniform(rng, 2, max_step);
  m.pitch = (m.cols - 1) * m.step + 1 + uniform(rng, 0, 3);
}

// Runs `cases` random block-level transposes of a TileRows x TileCols tile of T; launch(args)
// starts the kernel (one block) and returns the launch's error. max_step > 1: the views' columns
// are strided (stride(1) of 2 ... max_step) in about half the cases, each side on its own.
template <class T, int TileRows, int TileCols, class Launch>
void run_block_cases(Direction d, int cases, Launch launch, int max_step = 1) {
  const unsigned seed = smemtile_test::fresh_seed();
  INFO("seed " << seed << ", direction " << (d == Direction::store_transposed ? "store transposed" : "load transposed"));
  std::mt19937 rng(seed);
  constexpr int E = static_cast<int>(sizeof(T));
  const std::size_t Eu = sizeof(T);
  // The regions of `in` read and of `out` written, as (rows, cols) of those arrays.
  const bool store = d == Direction::store_transposed;
  const int in_region_rows = store ? TileRows : TileCols, in_region_cols = store ? TileCols : TileRows;
  const int out_region_rows = store ? TileCols : TileRows, out_region_cols = store ? TileRows : TileCols;
  for (int i = 0; i < cases; ++i) {
    // Each side aligned and inside (vector and whole-unit paths) or random, independently.
    MatrixCase mi = random_matrix(rng, in_region_rows, in_region_cols, E, uniform(rng, 0, 1) == 0, 0);
    MatrixCase mo = random_matrix(rng, out_region_rows, out_region_cols, E, uniform(rng, 0, 1) == 0, 1);
    if (max_step > 1 && uniform(rng, 0, 1) == 0) make_strided(rng, mi, max_step);
    if (max_step > 1 && uniform(rng, 0, 1) == 0) make_strided(rng, mo, max_step);
    const int lead = uniform(rng, 1, 300);
    INFO("case " << i << ": in " << mi.rows << " x " << mi.cols << " (pitch " << mi.pitch << ", +" << mi.pre
                 << " elements), origin (" << mi.origin.row << ", " << mi.origin.col << "); out " << mo.rows << " x "
                 << mo.cols << " (pitch " << mo.pitch << ", +" << mo.pre << " elements), origin (" << mo.origin.row
                 << ", " << mo.origin.col << "); lead " << lead << "; column steps in " << mi.step << ", out "
                 << mo.step);
    const std::size_t in_elems =
        mi.pre + static_cast<std::size_t>(smemtile::matrix_span(mi.rows, (mi.cols - 1) * mi.step + 1, mi.pitch));
    const std::size_t out_elems = mo.pre + static_cast<std::size_t>(mo.rows) * mo.pitch + 16;
    const Bytes in_host = random_elements(in_elems, E, rng);
    DeviceBuffer<unsigned char> d_in(in_host.size());
    d_in.upload(in_host);
    DeviceBuffer<unsigned char> d_out(out_elems * Eu);
    d_out.poison();
    BlockArgs<T> args{reinterpret_cast<const T*>(d_in.get()) + mi.pre, mi.rows, mi.cols, mi.pitch, mi.origin,
                      reinterpret_cast<T*>(d_out.get()) + mo.pre, mo.rows, mo.cols, mo.pitch, mo.origin, lead,
                      mi.step, mo.step};
    REQUIRE_CUDA(launch(args));
    REQUIRE_LAUNCH_OK();

    // The tile the host expects: tile(r, c) = in(origin + (r, c)) (store) or in(origin + (c, r))
    // (load), zero outside; then written to out(origin + (c, r)) (store) or out(origin + (r, c)).
    Bytes expected(out_elems * Eu, poison_byte);
    const Bytes zero(Eu, 0);
    for (int r = 0; r < TileRows; ++r)
      for (int c = 0; c < TileCols; ++c) {
        const Coord g = mi.origin + (store ? Coord{r, c} : Coord{c, r});
        const bool inside = g.row >= 0 && g.row < mi.rows && g.col >= 0 && g.col < mi.cols;
        const unsigned char* value =
            inside ? &in_host[(mi.pre + static_cast<std::size_t>(g.row) * mi.pitch + static_cast<std::size_t>(g.col) * mi.step) * Eu]
                   : zero.data();
        const Coord o = mo.origin + (store ? Coord{c, r} : Coord{r, c});
        if (o.row >= 0 && o.row < mo.rows && o.col >= 0 && o.col < mo.cols)
          std::memcpy(&expected[(mo.pre + static_cast<std::size_t>(o.row) * mo.pitch + static_cast<std::size_t>(o.col) * mo.step) * Eu],
                      value, Eu);
      }
    const Bytes got = d_out.download();
    if (got != expected) {
      std::size_t first = 0, differing = 0;
      for (std::size_t k = got.size(); k-- > 0;)
        if (got[k] != expected[k]) {
          first = k;
          ++differing;
        }
      const long long e = static_cast<long long>(first / Eu) - static_cast<long long>(mo.pre);
      INFO(differing << " bytes differ; the first in output element " << e << " (row " << (e >= 0 ? e / mo.pitch : -1)
                     << ", column " << (e >= 0 ? e % mo.pitch : -1) << "): expected 0x" << std::hex
                     << int(expected[first]) << ", got 0x" << int(got[first]));
      FAIL("the output allocation differs from the host's reference (poison outside the destination)");
    }
  }
}

// LoadToo: also copy_global_to_tile_transposed (not for WordTransposeTiles, which only store).
template <class T, class Tile, int TileRows, int TileCols, bool LoadToo = true>
void run_static_tile_cases(int cases, int max_step = 1) {
  for (Direction d : {Direction::store_transposed, Direction::load_transposed}) {
    if (!LoadToo && d == Direction::load_transposed) continue;
    {
      INFO("FixedThreadBlock<256>");
      run_block_cases<T, TileRows, TileCols>(d, cases, [d](const BlockArgs<T>& a) {
        if (d == Direction::store_transposed)
          static_tile_kernel<T, Tile, Direction::store_transposed, smemtile::FixedThreadBlock<256>><<<1, 256>>>(a);
        else if constexpr (LoadToo)
          static_tile_kernel<T, Tile, Direction::load_transposed, smemtile::FixedThreadBlock<256>><<<1, 256>>>(a);
        return cudaGetLastError();
      }, max_step);
    }
    {
      INFO("ThreadBlock, 32 x 5 threads");
      run_block_cases<T, TileRows, TileCols>(d, cases, [d](const BlockArgs<T>& a) {
        if (d == Direction::store_transposed)
          static_tile_kernel<T, Tile, Direction::store_transposed, smemtile::ThreadBlock><<<1, dim3(32, 5)>>>(a);
        else if constexpr (LoadToo)
          static_tile_kernel<T, Tile, Direction::load_transposed, smemtile::ThreadBlock><<<1, dim3(32, 5)>>>(a);
        return cudaGetLastError();
      }, max_step);
    }
  }
}

template <class T, class Layout, Direction D, class Group>
cudaError_t launch_dynamic(const BlockArgs<T>& a, dim3 block) {
  const smemtile::SharedMemoryPlan plan = smemtile::plan_shared_memory(carve_transpose_tile<T, Layout>, a.lead);
  const smemtile::LaunchStatus s =
      smemtile::launch_with_plan(dynamic_tile_kernel<T, Layout, D, Group>, dim3(1), block, plan, 0, a);
  if (!s) std::printf("%s\n", s.message.c_str());
  return s.error;
}

}  // namespace

TEST_CASE("block transposes: TransposeTile<float 64 64> (4 x 4 register blocks)", "[transpose][block]") {
  run_static_tile_cases<float, smemtile::TransposeTile<float, 64, 64>, 64, 64>(60);
}

TEST_CASE("block transposes: TransposeTile<unsigned char 128 128> (16 x 4 byte blocks)", "[transpose][block]") {
  run_static_tile_cases<unsigned char, smemtile::TransposeTile<unsigned char, 128, 128>, 128, 128>(60);
}

TEST_CASE("block transposes: WordTransposeTile<unsigned char 128 128> and <unsigned short 64 128> (word blocks, "
          "realigned stores)",
          "[transpose][block]") {
  run_static_tile_cases<unsigned char, smemtile::WordTransposeTile<unsigned char, 128, 128>, 128, 128, false>(60);
  run_static_tile_cases<unsigned short, smemtile::WordTransposeTile<unsigned short, 64, 128>, 64, 128, false>(60);
}

TEST_CASE("block transposes: padded StaticTile<float 32 32 1> (the element path)", "[transpose][block]") {
  run_static_tile_cases<float, smemtile::StaticTile<float, 32, 32, 1>, 32, 32>(60);
}

TEST_CASE("block transposes: global views with strided columns (stride(1) of 2 to 5) through TransposeTiles of "
          "floats and doubles and a padded tile",
          "[transpose][block]") {
  run_static_tile_cases<float, smemtile::TransposeTile<float, 64, 64>, 64, 64>(40, 5);
  run_static_tile_cases<double, smemtile::TransposeTile<double, 64, 32>, 64, 32>(40, 5);
  run_static_tile_cases<float, smemtile::StaticTile<float, 32, 32, 1>, 32, 32>(40, 5);
}

TEST_CASE("block transposes: TransposeLayout<64 32 8> tile of doubles carved from dynamic shared memory",
          "[transpose][block]") {
  using smemtile::FixedThreadBlock;
  using smemtile::ThreadBlock;
  using Layout = smemtile::TransposeLayout<64, 32, 8>;
  for (Direction d : {Direction::store_transposed, Direction::load_transposed}) {
    {
      INFO("FixedThreadBlock<256>");
      run_block_cases<double, 64, 32>(d, 60, [d](const BlockArgs<double>& a) {
        return d == Direction::store_transposed
                   ? launch_dynamic<double, Layout, Direction::store_transposed, FixedThreadBlock<256>>(a, dim3(256))
                   : launch_dynamic<double, Layout, Direction::load_transposed, FixedThreadBlock<256>>(a, dim3(256));
      });
    }
    {
      INFO("ThreadBlock, 128 threads");
      run_block_cases<double, 64, 32>(d, 60, [d](const BlockArgs<double>& a) {
        return d == Direction::store_transposed
                   ? launch_dynamic<double, Layout, Direction::store_transposed, ThreadBlock>(a, dim3(128))
                   : launch_dynamic<double, Layout, Direction::load_transposed, ThreadBlock>(a, dim3(128));
      });
    }
  }
}

TEST_CASE("block transposes: WordTransposeLayout<128 128 1> tile of bytes carved from dynamic shared memory (stores)",
          "[transpose][block]") {
  using Layout = smemtile::WordTransposeLayout<128, 128, 1>;
  {
    INFO("FixedThreadBlock<256>: the word blocks");
    run_block_cases<unsigned char, 128, 128>(Direction::store_transposed, 60, [](const BlockArgs<unsigned char>& a) {
      return launch_dynamic<unsigned char, Layout, Direction::store_transposed, smemtile::FixedThreadBlock<256>>(
          a, dim3(256));
    });
  }
  {
    INFO("ThreadBlock, 96 threads: element by element");
    run_block_cases<unsigned char, 128, 128>(Direction::store_transposed, 60, [](const BlockArgs<unsigned char>& a) {
      return launch_dynamic<unsigned char, Layout, Direction::store_transposed, smemtile::ThreadBlock>(a, dim3(96));
    });
  }
}

TEST_CASE("device_transpose: rank-3 permutations [A, B, C] -> [C, B, A] as batches whose outputs interleave",
          "[transpose][device]") {
  run_rank3_permutations<float>(40);
  run_rank3_permutations<unsigned char>(24);
  run_rank3_permutations<double>(24);
}
