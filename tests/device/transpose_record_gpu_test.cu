// GPU tests of device_transpose's record algorithms (narrow_rows, narrow_cols, small_batch; issue 21),
// the register and staged small-batch algorithms (small_batch_registers, small_batch_staged), the
// rotated algorithms (narrow_rows_rotated, narrow_cols_rotated)
// and of the block-level de-interleave they are built on (block/interleave.cuh).
//
// device_transpose against a host reference on random cases (seed printed with INFO), for elements
// of 1, 2, 4, 8 and 16 bytes and an 8-byte element aligned to 4:
//  - narrow sides: k x N and N x k for k in 1..40 (so both sides of transpose_narrow_max), N mostly
//    up to 5000, a few up to 10^6; pitches equal to the row or odd; batches of 1..3 with gaps;
//  - small matrices: rows and cols in 1..80, batches of 1..300, contiguous (stride = rows x cols,
//    pitch = row) or strided (odd pitches, gaps between matrices);
//  - base pointers moved by 0..15 bytes in whole elements (elements stay aligned to their size;
//    the under-aligned 8-byte type moves by 4 bytes).
// The output allocation (a guard region before and after, pitch padding, gaps) is poisoned; every
// destination element must equal the host's transpose and every other byte must keep the poison.
// Input allocations are exactly sized (compute-sanitizer sees over-reads).
//
// Block level: HWC byte images de-interleaved and converted to CHW float planes in one pass
// (load_records + store_channels with a conversion), and CHW bytes interleaved back to HWC
// (load_channels + store_records), for 1..8 channels, odd pixel counts and misaligned planes.
#include <smemtile/smemtile.cuh>

#include <algorithm>
#include <cstddef>  // std::nullptr_t
#include <cstdint>
#include <cstring>
#include <random>
#include <sstream>
#include <string>
#include <type_traits>  // std::is_null_pointer
#include <vector>

#include "gpu_test.cuh"

namespace {

using smemtile::TransposeAlgorithm;
using smemtile_test::DeviceBuffer;
using smemtile_test::poison_byte;
using Bytes = std::vector<unsigned char>;

struct TwoFloats {  // 8 bytes aligned to 4
  float a, b;
};
struct FourFloats {  // 16 bytes aligned to 4
  float a, b, c, d;
};

int uniform(std::mt19937& rng, int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); }

struct Case {
  int rows, cols, ld_in, ld_out, batch;
  long long stride_in, stride_out;
  int in_shift, out_shift;  // bytes the base pointers are moved by
};

std::string describe(const Case& c, TransposeAlgorithm a) {
  std::ostringstream s;
  s << "rows " << c.rows << ", cols " << c.cols << ", ld_in " << c.ld_in << ", ld_out " << c.ld_out << ", batch "
    << c.batch << ", stride_in " << c.stride_in << ", stride_out " << c.stride_out << ", in +" << c.in_shift
    << " bytes, out +" << c.out_shift << " bytes, algorithm " << static_cast<int>(a);
  return s.str();
}

long long span(long long rows, long long cols, long long ld) { return rows == 0 ? 0 : (rows - 1) * ld + cols; }

// A narrow case: k x N or N x k, k in 1..40.
Case narrow_case(std::mt19937& rng, int elem_bytes, int elem_align) {
  Case c{};
  const int k = uniform(rng, 1, 40);
  const int kind = uniform(rng, 0, 99);
  const long long max_elements = (48LL << 20) / elem_bytes;  // keeps the large ones under 48 MB
  int n = kind < 3 ? uniform(rng, 100000, 1000000) : kind < 30 ? uniform(rng, 65, 5000) : uniform(rng, 33, 700);
  n = static_cast<int>(std::min<long long>(n, max_elements / k));
  const bool tall = uniform(rng, 0, 1) == 0;  // N x k (narrow_rows) or k x N (narrow_cols)
  c.rows = tall ? n : k;
  c.cols = tall ? k : n;
  c.ld_in = uniform(rng, 0, 2) == 0 ? c.cols + uniform(rng, 1, 9) : c.cols;
  c.ld_out = uniform(rng, 0, 2) == 0 ? c.rows + uniform(rng, 1, 9) : c.rows;
  c.batch = uniform(rng, 0, 4) == 0 && n < 100000 ? uniform(rng, 2, 3) : 1;
  c.stride_in = span(c.rows, c.cols, c.ld_in) + (uniform(rng, 0, 1) ? uniform(rng, 0, 7) : 0);
  c.stride_out = span(c.cols, c.rows, c.ld_out) + (uniform(rng, 0, 1) ? uniform(rng, 0, 7) : 0);
  const int steps = std::max(1, 16 / elem_align);
  c.in_shift = uniform(rng, 0, steps - 1) * elem_align;
  c.out_shift = uniform(rng, 0, steps - 1) * elem_align;
  if (elem_bytes > elem_align) {  // under-aligned: whole elements or a word off
    c.in_shift %= 2 * elem_align;
    c.out_shift %= 2 * elem_align;
  }
  return c;
}

// A batch of small matrices: rows and cols in 1..80, contiguous or strided.
Case batch_case(std::mt19937& rng, int elem_bytes, int elem_align) {
  Case c{};
  c.rows = uniform(rng, 0, 3) == 0 ? uniform(rng, 1, 80) : uniform(rng, 1, 40);
  c.cols = uniform(rng, 0, 3) == 0 ? uniform(rng, 1, 80) : uniform(rng, 1, 40);
  c.batch = uniform(rng, 0, 9) == 0 ? 1 : uniform(rng, 2, 300);
  const bool contiguous = uniform(rng, 0, 1) == 0;
  c.ld_in = contiguous || uniform(rng, 0, 1) ? c.cols : c.cols + uniform(rng, 1, 5);
  c.ld_out = contiguous || uniform(rng, 0, 1) ? c.rows : c.rows + uniform(rng, 1, 5) | 1;
  c.stride_in = span(c.rows, c.cols, c.ld_in) + (contiguous ? 0 : uniform(rng, 0, 9));
  c.stride_out = span(c.cols, c.rows, c.ld_out) + (contiguous ? 0 : uniform(rng, 0, 9));
  if (c.batch == 1 && uniform(rng, 0, 1)) c.stride_in = c.stride_out = 0;
  const int steps = std::max(1, 16 / elem_align);
  c.in_shift = uniform(rng, 0, steps - 1) * elem_align;
  c.out_shift = uniform(rng, 0, steps - 1) * elem_align;
  (void)elem_bytes;
  return c;
}

// A case for the narrow register algorithms: K in 1..8, or one time in five a channel group (K in
// 9..32 a multiple of 16 / elem_bytes), the records contiguous and 16-byte aligned, N from one
// block's run to a few runs (often not a whole number of them, so the last block of a run moves
// element by element), sometimes up to 10^6; channel rows aligned (pitch a multiple of 16 bytes) or
// not (any pitch from N, the channel pointer moved by whole elements; channel groups of 1- and
// 2-byte elements need them aligned); batches of 1..3.
Case register_case(std::mt19937& rng, int elem_bytes, int elem_align) {
  Case c{};
  const int vector = 16 / elem_bytes;
  const bool group = uniform(rng, 0, 4) == 0;
  int k = group ? vector * uniform(rng, smemtile::transpose_register_narrow_max / vector + 1,
                                   smemtile::transpose_register_group_max / vector)
                : uniform(rng, 1, smemtile::transpose_register_narrow_max);
  if (group && uniform(rng, 0, 1) == 0) {  // channel words instead, where the element size has them
    std::vector<int> words;
    for (int w = smemtile::transpose_register_narrow_max + 1; w <= smemtile::transpose_register_group_max; ++w)
      if (smemtile::narrow_register_word_bytes(elem_bytes, w, true) != 0) words.push_back(w);
    if (!words.empty()) k = words[static_cast<std::size_t>(uniform(rng, 0, static_cast<int>(words.size()) - 1))];
  }
  const bool tall = uniform(rng, 0, 1) == 0;  // N x K (records in) or K x N (records out)
  const bool word = smemtile::narrow_register_word_bytes(elem_bytes, k, tall) != 0;
  const int records = smemtile::narrow_register_records(elem_bytes, k, tall);
  const long long max_elements = (48LL << 20) / elem_bytes;
  int n = uniform(rng, 0, 9) == 0 ? uniform(rng, 100000, 1000000) : uniform(rng, records, 3 * records + 100);
  if (uniform(rng, 0, 3) == 0) n = (n + vector - 1) / vector * vector;
  n = static_cast<int>(std::max<long long>(records, std::min<long long>(n, max_elements / k)));
  // merging channel groups of 1- and 2-byte elements reads 16-byte aligned rows only (channel
  // words read rows at any phase)
  const bool aligned = (group && !word && elem_bytes <= 2 && !tall) || uniform(rng, 0, 1) == 0;
  const long long ld_channels = aligned ? (n + vector - 1) / vector * vector + vector * uniform(rng, 0, 2)
                                        : n + uniform(rng, 0, 1) * uniform(rng, 1, 9);
  c.rows = tall ? n : k;
  c.cols = tall ? k : n;
  c.ld_in = tall ? k : static_cast<int>(ld_channels);
  c.ld_out = tall ? static_cast<int>(ld_channels) : k;
  c.batch = uniform(rng, 0, 3) == 0 && n < 100000 ? uniform(rng, 2, 3) : 1;
  const auto records_stride = [&](long long elements) {  // 16-byte aligned
    return (elements + vector - 1) / vector * vector + vector * uniform(rng, 0, 1);
  };
  const auto channels_stride = [&](long long elements) {
    return aligned ? records_stride(elements) : elements + uniform(rng, 0, 5);
  };
  c.stride_in = tall ? records_stride(span(c.rows, c.cols, c.ld_in)) : channels_stride(span(c.rows, c.cols, c.ld_in));
  c.stride_out = tall ? channels_stride(span(c.cols, c.rows, c.ld_out)) : records_stride(span(c.cols, c.rows, c.ld_out));
  const int channel_shift = aligned ? 16 * uniform(rng, 0, 1) : uniform(rng, 0, std::max(1, 16 / elem_align) - 1) * elem_align;
  c.in_shift = tall ? 16 * uniform(rng, 0, 1) : channel_shift;
  c.out_shift = tall ? channel_shift : 16 * uniform(rng, 0, 1);
  return c;
}

// A batch for small_batch_registers: rows and cols multiples of the register tile's side (up to 64),
// dense and contiguous, from 16-byte aligned pointers, 1 to 3 blocks' worth of matrices and a few
// more (the last block short). One case in four is spoiled so that it must not take the tiles: a
// pointer off 16 bytes by whole elements, a gap between matrices, or an output pitch past the row.
struct TileBatchCase {
  Case c;
  int expect;  // the algorithm it must take (small_batch_registers, small_batch_staged, small_batch), -1: not a small matrix
};
TileBatchCase tile_batch_case(std::mt19937& rng, int elem_bytes, int elem_align) {
  Case c{};
  const int t = smemtile::batch_tile_side(elem_bytes == 16 ? 8 : elem_bytes);
  c.rows = t * uniform(rng, 1, 64 / t);
  c.cols = t * uniform(rng, 1, 64 / t);
  const int per_block = std::max(1, smemtile::transpose_record_tile_bytes / (c.rows * c.cols * elem_bytes));
  c.batch = uniform(rng, 0, 4) == 0 ? uniform(rng, 1, 3) : uniform(rng, 1, 3 * per_block + 7);
  c.ld_in = c.cols;
  c.ld_out = c.rows;
  c.stride_in = c.stride_out = static_cast<long long>(c.rows) * c.cols;
  c.in_shift = 16 * uniform(rng, 0, 1);
  c.out_shift = 16 * uniform(rng, 0, 1);
  const int spoil = uniform(rng, 0, 3) == 0 ? uniform(rng, 1, 3) : 0;
  if (spoil == 1 && elem_align < 16)  // whole elements (or words, under-aligned) off 16 bytes
    (uniform(rng, 0, 1) ? c.in_shift : c.out_shift) += elem_align * uniform(rng, 1, std::max(1, 16 / elem_align - 1));
  if (spoil == 2 && c.batch > 1) c.stride_in += uniform(rng, 1, 9);
  if (spoil == 3) {
    c.ld_out += uniform(rng, 1, 5);
    c.stride_out = span(c.cols, c.rows, c.ld_out);
  }
  const bool spoiled = (c.in_shift | c.out_shift) % 16 != 0 || c.stride_in != static_cast<long long>(c.rows) * c.cols ||
                       c.ld_out != c.rows;
  if (elem_bytes <= 8 && !spoiled) return {c, static_cast<int>(TransposeAlgorithm::small_batch_registers)};
  // dense (only a pointer moved) with the output aligned to the element's size: the staged batch,
  // except 8-byte elements in rows of a multiple of 32 (small_batch_staged_slower)
  const bool dense = c.stride_in == static_cast<long long>(c.rows) * c.cols && c.ld_out == c.rows;
  if (dense && c.out_shift % elem_bytes == 0 && c.rows * c.cols * elem_bytes <= smemtile::transpose_record_tile_bytes &&
      !(elem_bytes == 8 && c.cols % 32 == 0))
    return {c, static_cast<int>(TransposeAlgorithm::small_batch_staged)};
  // 64 x 64 doubles (spoiled) do not fit a record tile: the large tiles, not asserted
  const bool record_tile = smemtile::small_matrix_fits(c.rows, c.cols, elem_bytes);
  return {c, record_tile ? static_cast<int>(TransposeAlgorithm::small_batch) : -1};
}

// A dense batch for small_batch_staged: rows and cols in 1..64 (a third of them under 8, the
// gather's cursor path), 1 to 3 blocks' worth of matrices and a few more, base pointers moved by
// whole elements (the output's by whole elements of its size). Whole register tiles from 16-byte
// aligned pointers take small_batch_registers instead (asserted too).
TileBatchCase staged_batch_case(std::mt19937& rng, int elem_bytes, int elem_align) {
  Case c{};
  c.rows = uniform(rng, 0, 2) == 0 ? uniform(rng, 1, 7) : uniform(rng, 1, 64);
  c.cols = uniform(rng, 0, 2) == 0 ? uniform(rng, 1, 7) : uniform(rng, 1, 64);
  while (c.rows * c.cols * elem_bytes > smemtile::transpose_record_tile_bytes) c.cols = (c.cols + 1) / 2;
  const int per_block = smemtile::transpose_record_tile_bytes / (c.rows * c.cols * elem_bytes);
  c.batch = uniform(rng, 0, 4) == 0 ? uniform(rng, 1, 3) : uniform(rng, 1, 3 * per_block + 7);
  c.ld_in = c.cols;
  c.ld_out = c.rows;
  c.stride_in = c.stride_out = static_cast<long long>(c.rows) * c.cols;
  c.in_shift = uniform(rng, 0, std::max(1, 16 / elem_align) - 1) * elem_align;
  c.out_shift = uniform(rng, 0, std::max(1, 16 / elem_bytes) - 1) * elem_bytes;
  const bool tiles = elem_bytes <= 8 && smemtile::batch_tiles_fit(c.rows, c.cols, elem_bytes) &&
                     (c.in_shift | c.out_shift) % 16 == 0;
  if (tiles) return {c, static_cast<int>(TransposeAlgorithm::small_batch_registers)};
  if (elem_bytes == 8 && c.cols % 32 == 0)  // small_batch_staged_slower: small_batch, or the large tiles (not asserted)
    return {c, smemtile::small_matrix_fits(c.rows, c.cols, 8) ? static_cast<int>(TransposeAlgorithm::small_batch) : -1};
  return {c, static_cast<int>(TransposeAlgorithm::small_batch_staged)};
}

// One case against the host: random input, the output allocation poisoned (guards, pitch padding,
// gaps) and compared byte for byte. The selection transposes it, or `launch(src, dst)` (a caller's
// policy) where given; `registers` / `expect`: the selection must reach those algorithms.
template <class T, class Launch = std::nullptr_t>
void run_case(const Case& c, std::mt19937& rng, bool registers = false, int expect = -1, Launch launch = nullptr) {
  constexpr int E = sizeof(T);
  const long long in_elems = (c.batch - 1) * c.stride_in + span(c.rows, c.cols, c.ld_in);
  const long long out_elems = (c.batch - 1) * c.stride_out + span(c.cols, c.rows, c.ld_out);
  const std::size_t guard = 64;
  const std::size_t in_bytes = c.in_shift + in_elems * E;
  const std::size_t out_bytes = guard + c.out_shift + out_elems * E + guard;
  Bytes in(in_bytes);
  std::uniform_int_distribution<int> byte(0, 255);
  for (auto& b : in) b = static_cast<unsigned char>(byte(rng));
  for (long long i = 0; i < in_elems; ++i) {  // no element is all poison
    unsigned char& first = in[c.in_shift + i * E];
    if (first == poison_byte) first = 0x5A;
  }
  DeviceBuffer<unsigned char> d_in(in_bytes), d_out(out_bytes);
  d_in.upload(in);
  d_out.poison();
  const T* src = reinterpret_cast<const T*>(d_in.get() + c.in_shift);
  T* dst = reinterpret_cast<T*>(d_out.get() + guard + c.out_shift);
  const TransposeAlgorithm algorithm = smemtile::select_transpose_algorithm(smemtile::TransposeSelectionInput{
      c.rows, c.cols, c.batch, E, c.ld_in, c.ld_out, c.stride_in, c.stride_out,
      reinterpret_cast<unsigned long long>(src), reinterpret_cast<unsigned long long>(dst)});
  INFO(describe(c, algorithm) << ", element " << E << " bytes aligned to " << alignof(T));
  if (registers)  // the case must reach the algorithm it was built for
    REQUIRE((algorithm == TransposeAlgorithm::narrow_rows_registers ||
             algorithm == TransposeAlgorithm::narrow_cols_registers));
  if (expect >= 0) REQUIRE(static_cast<int>(algorithm) == expect);
  smemtile::LaunchStatus status;
  if constexpr (std::is_null_pointer<Launch>::value)
    status = smemtile::device_transpose(src, dst, c.rows, c.cols, c.ld_in, c.ld_out, c.batch, c.stride_in, c.stride_out);
  else
    status = launch(src, dst);
  INFO(status.message);
  REQUIRE(status.error == cudaSuccess);
  REQUIRE_CUDA(cudaDeviceSynchronize());
  const Bytes out = d_out.download();
  Bytes expected(out_bytes, poison_byte);
  for (long long b = 0; b < c.batch; ++b)
    for (long long r = 0; r < c.rows; ++r)
      for (long long col = 0; col < c.cols; ++col)
        std::memcpy(&expected[guard + c.out_shift + (b * c.stride_out + col * c.ld_out + r) * E],
                    &in[c.in_shift + (b * c.stride_in + r * c.ld_in + col) * E], E);
  const auto mismatch = std::mismatch(expected.begin(), expected.end(), out.begin());
  if (mismatch.first != expected.end()) {
    const long long at = mismatch.first - expected.begin();
    INFO("first wrong byte at offset " << at << " of the output allocation (destination starts at "
                                        << guard + c.out_shift << "): expected " << int(*mismatch.first) << ", got "
                                        << int(*mismatch.second));
    FAIL("output differs from the host transpose");
  }
}

template <class T>
void run_random(int narrow_cases, int batch_cases) {
  const unsigned seed = smemtile_test::fresh_seed();
  INFO("seed " << seed);
  std::mt19937 rng(seed);
  for (int i = 0; i < narrow_cases; ++i) run_case<T>(narrow_case(rng, sizeof(T), alignof(T)), rng);
  for (int i = 0; i < batch_cases; ++i) run_case<T>(batch_case(rng, sizeof(T), alignof(T)), rng);
}

// A channel-group case: K x N or N x K, channel rows of pitch ld; a batch with 16-byte gaps between
// matrices on both sides (the records' span n K is whole chunks; the channels' rounded up to them).
Case group_case(int k, int n, int ld, bool tall, int batch, int vector) {
  Case c{tall ? n : k, tall ? k : n, tall ? k : ld, tall ? ld : k, batch, 0, 0, 0, 0};
  if (batch > 1) {
    const long long records = static_cast<long long>(n) * k + vector;
    const long long channels = (span(k, n, ld) + vector - 1) / vector * vector + vector;
    c.stride_in = tall ? records : channels;
    c.stride_out = tall ? channels : records;
  }
  return c;
}

// The channel groups (K 9..32 where a record is whole 16-byte chunks) in both directions, each
// asserting its algorithm: channel rows aligned with N two full blocks and a short one, exactly one
// block, and five segments short of three (the middle one with a segment of poisoned pitch
// padding), and a batch of 2; then channel rows off 16 bytes (a pitch of N + 1, N one record past
// two blocks; the channel pointer moved by alignof(T)), which splitting writes in shifted windows
// and merging reads element by element for 4- and 8-byte elements (1- and 2-byte ones: narrow_cols).
template <class T>
void run_register_groups(std::mt19937& rng) {
  constexpr int E = sizeof(T), V = 16 / E;
  for (int k = smemtile::transpose_register_narrow_max + 1; k <= smemtile::transpose_register_group_max; ++k) {
    if (!smemtile::narrow_register_extent(E, k)) continue;
    for (int tall = 0; tall < 2; ++tall) {
      const int records = smemtile::narrow_register_records(E, k, tall);
      const int registers = static_cast<int>(tall ? TransposeAlgorithm::narrow_rows_registers
                                                  : TransposeAlgorithm::narrow_cols_registers);
      const int records_algorithm =
          static_cast<int>(tall ? TransposeAlgorithm::narrow_rows : TransposeAlgorithm::narrow_cols);
      // merging reads them for 4-8 bytes only; channel words take rows at any phase of their word
      const int word = smemtile::narrow_register_word_bytes(E, k, tall);
      const auto expect = [&](long long, int) {
        return word != 0 || E >= 4 || tall ? registers : records_algorithm;
      };
      const int runs[] = {2 * records + V, records, 3 * records - 5 * V};
      for (int i = 0; i < 3; ++i)
        run_case<T>(group_case(k, runs[i], runs[i] + (i == 1 ? V : 0), tall, 1, V), rng, false, registers);
      run_case<T>(group_case(k, records + V, records + 2 * V, tall, 2, V), rng, false, registers);
      const int n = 2 * records + 1;
      run_case<T>(group_case(k, n, n + 1, tall, 1, V), rng, false, expect(n + 1, 0));
      Case shifted = group_case(k, n, n + V - 1, tall, 1, V);  // aligned pitch (n + V - 1 = 2 records + V)
      (tall ? shifted.out_shift : shifted.in_shift) = static_cast<int>(alignof(T));
      run_case<T>(shifted, rng, false, expect(n + V - 1, static_cast<int>(alignof(T))));
    }
  }
}

// Channel words (narrow_register_word_bytes: K above 8, 1- to 4-byte elements) with channel rows at
// every phase of their word, in both directions, each asserting the register algorithm: one full
// block with the channel pointer moved by each whole alignof(T) inside the word; a tight odd pitch
// (each row at its own phase, the last row ending at the allocation's end) with runs ending at a
// full block, one record after it and one record short of a word after it; a batch of 2 whose
// channel stride is odd (the second matrix at another phase).
template <class T>
void run_register_words(std::mt19937& rng) {
  constexpr int E = sizeof(T), V = 16 / E;
  for (int k = smemtile::transpose_register_narrow_max + 1; k <= smemtile::transpose_register_group_max; ++k) {
    if (smemtile::narrow_register_word_bytes(E, k, true) == 0) continue;
    for (int tall = 0; tall < 2; ++tall) {
      const int word = smemtile::narrow_register_word_bytes(E, k, tall);
      const int records = smemtile::narrow_register_records(E, k, tall), per_word = word / E;
      INFO("k " << k << (tall ? " split" : " merge") << ", word " << word << " bytes");
      const int registers = static_cast<int>(tall ? TransposeAlgorithm::narrow_rows_registers
                                                  : TransposeAlgorithm::narrow_cols_registers);
      for (int shift = static_cast<int>(alignof(T)); shift < word; shift += static_cast<int>(alignof(T))) {
        Case moved = group_case(k, records, records, tall, 1, V);
        (tall ? moved.out_shift : moved.in_shift) = shift;
        run_case<T>(moved, rng, false, registers);
      }
      for (const int n : {2 * records + 1, 2 * records + per_word - 1, 3 * records + per_word + 1})
        run_case<T>(group_case(k, n, n, tall, 1, V), rng, false, registers);
      Case batch = group_case(k, records + V, records + V + 1, tall, 2, V);
      (tall ? batch.stride_out : batch.stride_in) += 1;
      run_case<T>(batch, rng, false, registers);
    }
  }
}

// The narrow register algorithms: every K in 1..8 in both directions once, the channel groups
// (run_register_groups), the channel words (run_register_words), then random register cases.
template <class T>
void run_registers(int cases) {
  const unsigned seed = smemtile_test::fresh_seed();
  INFO("seed " << seed);
  std::mt19937 rng(seed);
  constexpr int E = sizeof(T);
  for (int k = 1; k <= smemtile::transpose_register_narrow_max; ++k)
    for (int tall = 0; tall < 2; ++tall) {
      for (int odd = 0; odd < 2; ++odd) {  // channel rows 16-byte aligned, then not
        const int n = 2 * smemtile::narrow_register_records(E, k, tall) + 16 / E + odd;  // two full blocks and a short one
        Case c{tall ? n : k, tall ? k : n, tall ? k : n, tall ? n : k, 1, 0, 0, 0, 0};
        // channel rows off 16 bytes by a part of an element where T is under-aligned (elements then
        // straddle the rows' 16-byte windows)
        if (odd == 1 && alignof(T) < sizeof(T)) (tall ? c.out_shift : c.in_shift) = static_cast<int>(alignof(T));
        run_case<T>(c, rng, true);
      }
      // channel rows off 16 bytes (a pitch of n + 1, padding poisoned) where the run ends at a full
      // block, one record after it, and less than a 16-byte segment after it: the last full block
      // then has no next segment to complete its last window from
      const int records = smemtile::narrow_register_records(E, k, tall);
      for (const int n : {2 * records, 2 * records + 1, 2 * records + 16 / E - 1}) {
        const int ld = n + 1;
        Case c{tall ? n : k, tall ? k : n, tall ? k : ld, tall ? ld : k, 1, 0, 0, 0, 0};
        run_case<T>(c, rng, true);
      }
    }
  run_register_groups<T>(rng);
  if constexpr (E <= 4) run_register_words<T>(rng);
  for (int i = 0; i < cases; ++i) run_case<T>(register_case(rng, E, alignof(T)), rng, true);
}

// The rotated algorithms (odd K 9..transpose_rotated_max of 1- to 8-byte elements) in both directions,
// each asserting the algorithm it reaches: N two full blocks and a short one (a padded, aligned
// channel pitch), exactly one block, one record short of it (the records then), a batch with
// 16-byte gaps, a random N up to 10^6 now and then; channel rows off 16 bytes (a pitch of N + 1, a
// batch at pitch N, the channel pointer moved by the element's alignment), which merging 1- and 2-byte
// elements leaves to the records; and records off 16 bytes, which must not take them.
template <class T>
void run_rotated(std::mt19937& rng) {
  static_assert(sizeof(T) <= 8, "the rotated algorithms move 1- to 8-byte elements");
  constexpr int V = 16 / sizeof(T);
  for (int k = smemtile::transpose_register_narrow_max + 1; k <= smemtile::transpose_rotated_max; k += 2)
    for (int tall = 0; tall < 2; ++tall) {
      const int rotated =
          static_cast<int>(tall ? TransposeAlgorithm::narrow_rows_rotated : TransposeAlgorithm::narrow_cols_rotated);
      const int records_algorithm =
          static_cast<int>(tall ? TransposeAlgorithm::narrow_rows : TransposeAlgorithm::narrow_cols);
      const int records = smemtile::narrow_rotated_records(k, sizeof(T));
      const int n = 2 * records + V * uniform(rng, 0, 40) + uniform(rng, 1, V - 1);
      const int ld = (n + V - 1) / V * V + V * uniform(rng, 0, 2);
      run_case<T>(group_case(k, n, ld, tall, 1, V), rng, false, rotated);
      run_case<T>(group_case(k, records, records, tall, 1, V), rng, false, rotated);
      run_case<T>(group_case(k, records - 1, records, tall, 1, V), rng, false, records_algorithm);
      run_case<T>(group_case(k, records + 2 * V, records + 2 * V, tall, 2, V), rng, false, rotated);
      if (uniform(rng, 0, 3) == 0) {
        const int large = uniform(rng, 100000, 1000000) / V * V;
        run_case<T>(group_case(k, large, large, tall, 1, V), rng, false, rotated);
      }
      // channel rows off 16 bytes: splitting in aligned or shifted windows, merging 4- and 8-byte
      // elements in aligned windows or by element loads, where the selection takes them (faster than
      // the records: floats split up to K = 27 and merge always, doubles always; bytes and halves
      // split always, never merge)
      constexpr int E = sizeof(T);
      const bool off_taken = tall ? E != 4 || k <= 27 : E >= 4;
      const int off_rows = off_taken ? rotated : records_algorithm;
      run_case<T>(group_case(k, n, n + 1, tall, 1, V), rng, false, (n + 1) % V == 0 ? rotated : off_rows);
      const int whole = n / V * V;  // a batch whose records stay aligned, channel pitch off 16 bytes
      run_case<T>(group_case(k, whole, whole + 1, tall, 2, V), rng, false, off_rows);
      Case moved = group_case(k, n, ld, tall, 1, V);
      (tall ? moved.out_shift : moved.in_shift) = static_cast<int>(alignof(T));  // the channel rows
      run_case<T>(moved, rng, false, off_rows);
      moved = group_case(k, n, ld, tall, 1, V);
      (tall ? moved.in_shift : moved.out_shift) = static_cast<int>(alignof(T));  // the records
      run_case<T>(moved, rng, false, records_algorithm);
    }
}

// small_batch_registers: the issue's batch shapes at a few blocks' worth, then random tile batches
// (and spoiled ones, which must take small_batch_staged where still dense, else small_batch), each
// asserting the algorithm it reaches.
template <class T>
void run_tile_batches(int cases) {
  const unsigned seed = smemtile_test::fresh_seed();
  INFO("seed " << seed);
  std::mt19937 rng(seed);
  constexpr int E = sizeof(T);
  const int tiles =
      static_cast<int>(E <= 8 ? TransposeAlgorithm::small_batch_registers : TransposeAlgorithm::small_batch_staged);
  for (int n : {8, 16, 32, 64}) {
    if (n * n * E > smemtile::transpose_record_tile_bytes) continue;  // 64 x 64 of 16 bytes: not small
    const int matrices = std::max(3, 3 * smemtile::transpose_record_tile_bytes / (n * n * E) + 5);
    const long long rc = static_cast<long long>(n) * n;
    run_case<T>(Case{n, n, n, n, matrices, rc, rc, 0, 0}, rng, false, tiles);
  }
  for (int i = 0; i < cases; ++i) {
    const TileBatchCase t = tile_batch_case(rng, E, alignof(T));
    run_case<T>(t.c, rng, false, t.expect);
  }
}

// small_batch_staged: the issue's 33 x 31 batch at a few blocks' worth from every 16-byte phase of
// the input, then random dense batches (staged_batch_case), each asserting the algorithm it reaches.
template <class T>
void run_staged_batches(int cases) {
  const unsigned seed = smemtile_test::fresh_seed();
  INFO("seed " << seed);
  std::mt19937 rng(seed);
  constexpr int E = sizeof(T);
  const int staged = static_cast<int>(TransposeAlgorithm::small_batch_staged);
  const int matrices = 3 * smemtile::transpose_record_tile_bytes / (33 * 31 * E) + 5;
  for (int shift = 0; shift < 16; shift += static_cast<int>(alignof(T)))
    run_case<T>(Case{33, 31, 31, 33, matrices, 33 * 31, 33 * 31, shift, (16 - shift) % 16 / E * E}, rng, false, staged);
  for (int i = 0; i < cases; ++i) {
    const TileBatchCase t = staged_batch_case(rng, E, alignof(T));
    run_case<T>(t.c, rng, false, t.expect);
  }
}

// Every k in 1..40 in both directions once, for one element size (N odd and over a block's run).
template <class T>
void run_every_k() {
  std::mt19937 rng(21);
  for (int k = 1; k <= 40; ++k)
    for (int tall = 0; tall < 2; ++tall) {
      const int n = 3001;
      Case c{tall ? n : k, tall ? k : n, 0, 0, 1, 0, 0, 0, 0};
      c.ld_in = c.cols;
      c.ld_out = c.rows;
      run_case<T>(c, rng);
    }
}

}  // namespace

TEST_CASE("device_transpose records: 1-byte elements, narrow sides and small batches", "[transpose][device][records]") {
  run_every_k<unsigned char>();
  run_random<unsigned char>(260, 160);
}
TEST_CASE("device_transpose records: 2-byte elements, narrow sides and small batches", "[transpose][device][records]") {
  run_every_k<unsigned short>();
  run_random<unsigned short>(260, 160);
}
TEST_CASE("device_transpose records: 4-byte elements, narrow sides and small batches", "[transpose][device][records]") {
  run_every_k<float>();
  run_random<float>(260, 160);
}
TEST_CASE("device_transpose records: 8-byte elements, narrow sides and small batches", "[transpose][device][records]") {
  run_every_k<double>();
  run_random<double>(200, 120);
}
TEST_CASE("device_transpose records: 8-byte elements aligned to 4 (struct of two floats)", "[transpose][device][records]") {
  run_random<TwoFloats>(100, 60);
}
TEST_CASE("device_transpose records: 16-byte elements, narrow sides and small batches", "[transpose][device][records]") {
  run_every_k<float4>();
  run_random<float4>(200, 120);
}
TEST_CASE("device_transpose records: 16-byte elements aligned to 4 (struct of four floats)", "[transpose][device][records]") {
  run_every_k<FourFloats>();
  run_random<FourFloats>(100, 40);
}

TEST_CASE("device_transpose small_batch_registers: every element size, dense batches of whole tiles and spoiled ones",
          "[transpose][device][records][batch]") {
  run_tile_batches<unsigned char>(120);
  run_tile_batches<unsigned short>(120);
  run_tile_batches<float>(120);
  run_tile_batches<double>(100);
  run_tile_batches<TwoFloats>(60);
  run_tile_batches<float4>(40);
}

TEST_CASE("device_transpose small_batch_staged: every element size, dense batches of any shape and alignment",
          "[transpose][device][records][batch]") {
  run_staged_batches<unsigned char>(150);
  run_staged_batches<unsigned short>(150);
  run_staged_batches<float>(150);
  run_staged_batches<double>(120);
  run_staged_batches<TwoFloats>(80);
  run_staged_batches<float4>(80);
}

// A caller's policy on one dense case, checked as run_case checks the selection's.
template <class T, class Launch>
void run_policy_case(const Case& c, Launch launch) {
  std::mt19937 rng(smemtile_test::fresh_seed());
  run_case<T>(c, rng, false, -1, launch);
}

TEST_CASE("device_transpose small_batch_staged: a caller's policy refuses a batch it cannot move",
          "[transpose][device][records][batch]") {
  using Staged = smemtile::DefaultTransposePolicy<2, TransposeAlgorithm::small_batch_staged>::type;  // 32 KB
  DeviceBuffer<unsigned short> in(33 * 31 * 100 + 8), out(33 * 31 * 100 + 8);
  const auto refused = [](smemtile::LaunchStatus s) {
    INFO(s.message);
    return s.error == cudaErrorInvalidValue && s.message.find("small_batch_staged policy") != std::string::npos;
  };
  run_policy_case<unsigned short>(Case{33, 31, 31, 33, 100, 1023, 1023, 2, 6}, [](const unsigned short* i, unsigned short* o) {
    return smemtile::device_transpose(Staged{}, i, o, 33, 31, 31, 33, 100, 1023, 1023);
  });
  CHECK(refused(smemtile::device_transpose(Staged{}, in.get(), out.get(), 33, 31, 31, 33, 10, 1030, 1023)));  // a gap
  CHECK(refused(smemtile::device_transpose(Staged{}, in.get(), out.get(), 33, 31, 32, 33, 10, 1056, 1023)));  // pitch
  CHECK(refused(smemtile::device_transpose(Staged{}, in.get(), out.get(), 8, 4096, 4096, 8, 1, 0, 0)));  // 64 KB
  REQUIRE_CUDA(cudaGetLastError());
}

TEST_CASE("device_transpose small_batch_registers: a caller's policy refuses a batch it cannot move",
          "[transpose][device][records][batch]") {
  using Tiles = smemtile::TransposePolicy<TransposeAlgorithm::small_batch_registers, 64, 64, 0, 6, false>;  // 16 KB
  DeviceBuffer<unsigned short> in(16 * 16 * 100 + 16), out(16 * 16 * 100 + 16);
  const auto refused = [](smemtile::LaunchStatus s) {
    INFO(s.message);
    return s.error == cudaErrorInvalidValue && s.message.find("small_batch_registers policy") != std::string::npos;
  };
  run_policy_case<unsigned short>(Case{16, 16, 16, 16, 100, 256, 256, 0, 16}, [](const unsigned short* i, unsigned short* o) {
    return smemtile::device_transpose(Tiles{}, i, o, 16, 16, 16, 16, 100, 256, 256);
  });
  CHECK(refused(smemtile::device_transpose(Tiles{}, in.get(), out.get(), 12, 16, 16, 12, 10, 192, 192)));  // 12 rows
  CHECK(refused(smemtile::device_transpose(Tiles{}, in.get() + 1, out.get(), 16, 16, 16, 16, 10, 256, 256)));
  CHECK(refused(smemtile::device_transpose(Tiles{}, in.get(), out.get(), 16, 16, 16, 16, 10, 260, 256)));  // a gap
  REQUIRE_CUDA(cudaGetLastError());
}

TEST_CASE("device_transpose narrow register algorithms: every element size, K 1..8, channel groups and words, both ways",
          "[transpose][device][records]") {
  run_registers<unsigned char>(60);
  run_registers<unsigned short>(60);
  run_registers<float>(60);
  run_registers<double>(50);
  run_registers<TwoFloats>(60);
}

TEST_CASE("device_transpose narrow register algorithms: a caller's policy runs, and refuses a shape it cannot move",
          "[transpose][device][records]") {
  using Split3 = smemtile::DefaultNarrowRegisterPolicy<4, TransposeAlgorithm::narrow_rows_registers, 3>::type;
  DeviceBuffer<float> in(5000 * 4 + 8), out(5000 * 4 + 8);  // every call below stays inside both
  run_policy_case<float>(Case{5000, 3, 3, 5000, 1, 0, 0, 0, 0}, [](const float* i, float* o) {  // N < a block
    return smemtile::device_transpose(Split3{}, i, o, 5000, 3);
  });
  const auto refused = [&](smemtile::LaunchStatus s) {
    INFO(s.message);
    return s.error == cudaErrorInvalidValue && s.message.find("narrow register policy") != std::string::npos;
  };
  CHECK(refused(smemtile::device_transpose(Split3{}, in.get(), out.get(), 5000, 4)));             // K is 3
  run_policy_case<float>(Case{4999, 3, 3, 4999, 1, 0, 0, 0, 0}, [](const float* i, float* o) {  // rows off 16 bytes
    return smemtile::device_transpose(Split3{}, i, o, 4999, 3);
  });
  CHECK(refused(smemtile::device_transpose(Split3{}, in.get() + 1, out.get(), 5000, 3)));         // in misaligned
  CHECK(refused(smemtile::device_transpose(Split3{}, in.get(), out.get(), 100, 3, 4, 100, 1, 0, 0)));  // pitch 4
  REQUIRE_CUDA(cudaGetLastError());
}

TEST_CASE("device_transpose rotated algorithms: odd K 9..31 of 1- to 8-byte elements, both ways",
          "[transpose][device][records]") {
  const unsigned seed = smemtile_test::fresh_seed();
  INFO("seed " << seed);
  std::mt19937 rng(seed);
  run_rotated<std::uint8_t>(rng);   // 4 records packed a word
  run_rotated<std::uint16_t>(rng);  // 2 records
  run_rotated<float>(rng);
  run_rotated<int>(rng);
  run_rotated<double>(rng);
  run_rotated<TwoFloats>(rng);  // 8 bytes aligned to 4: off 16 bytes by a word
}

TEST_CASE("device_transpose rotated algorithms: a caller's policy runs, and refuses a shape it cannot move",
          "[transpose][device][records]") {
  using Merge9 = smemtile::DefaultNarrowRotatedPolicy<4, TransposeAlgorithm::narrow_cols_rotated, 9>::type;
  using Split9 = smemtile::DefaultNarrowRotatedPolicy<4, TransposeAlgorithm::narrow_rows_rotated, 9>::type;
  DeviceBuffer<float> in(2000 * 10 + 8), out(2000 * 10 + 8);  // every call below stays inside both
  run_policy_case<float>(Case{9, 1999, 2000, 9, 1, 0, 0, 0, 0}, [](const float* i, float* o) {  // 3 blocks and a short one
    return smemtile::device_transpose(Merge9{}, i, o, 9, 1999, 2000, 9, 1, 0, 0);
  });
  run_policy_case<float>(Case{1999, 9, 9, 2000, 1, 0, 0, 0, 0}, [](const float* i, float* o) {
    return smemtile::device_transpose(Split9{}, i, o, 1999, 9, 9, 2000, 1, 0, 0);
  });
  const auto refused = [&](smemtile::LaunchStatus s) {
    INFO(s.message);
    return s.error == cudaErrorInvalidValue && s.message.find("rotated policy") != std::string::npos;
  };
  CHECK(refused(smemtile::device_transpose(Merge9{}, in.get(), out.get(), 11, 1000, 1000, 11, 1, 0, 0)));     // K is 9
  // channel rows off 16 bytes: merged by element loads, split in shifted windows, also where the
  // selection leaves them to the records (31 floats)
  run_policy_case<float>(Case{9, 1999, 2001, 9, 1, 0, 0, 0, 0}, [](const float* i, float* o) {
    return smemtile::device_transpose(Merge9{}, i, o, 9, 1999, 2001, 9, 1, 0, 0);
  });
  using Split31 = smemtile::DefaultNarrowRotatedPolicy<4, TransposeAlgorithm::narrow_rows_rotated, 31>::type;
  run_policy_case<float>(Case{1999, 31, 31, 2001, 1, 0, 0, 0, 0}, [](const float* i, float* o) {
    return smemtile::device_transpose(Split31{}, i, o, 1999, 31, 31, 2001, 1, 0, 0);
  });
  CHECK(refused(smemtile::device_transpose(Merge9{}, in.get(), out.get() + 1, 9, 1000, 1000, 9, 1, 0, 0)));   // records off 16
  CHECK(refused(smemtile::device_transpose(Split9{}, in.get(), out.get(), 1000, 9, 10, 1000, 1, 0, 0)));      // records' pitch 10
  using MergeBytes9 = smemtile::DefaultNarrowRotatedPolicy<1, TransposeAlgorithm::narrow_cols_rotated, 9>::type;
  DeviceBuffer<unsigned char> bytes_in(4000 * 10 + 32), bytes_out(4000 * 10 + 32);
  CHECK(refused(smemtile::device_transpose(MergeBytes9{}, bytes_in.get(), bytes_out.get(), 9, 4000, 4001, 9, 1, 0, 0)));  // bytes' channel rows off 16
  CHECK(refused(smemtile::device_transpose(MergeBytes9{}, bytes_in.get() + 1, bytes_out.get(), 9, 4000, 4000, 9, 1, 0, 0)));
  CHECK_FALSE(refused(smemtile::device_transpose(MergeBytes9{}, bytes_in.get(), bytes_out.get(), 9, 4000, 4000, 9, 1, 0, 0)));  // the control
  REQUIRE_CUDA(cudaDeviceSynchronize());
}

TEST_CASE("device_transpose records: a caller's record policy runs, and refuses a shape its tile cannot hold",
          "[transpose][device][records]") {
  using Narrow = smemtile::DefaultTransposePolicy<4, TransposeAlgorithm::narrow_rows>::type;
  using Small = smemtile::DefaultTransposePolicy<16, TransposeAlgorithm::small_batch>::type;
  run_policy_case<float>(Case{100, 3, 3, 100, 1, 0, 0, 0, 0}, [](const float* i, float* o) {
    return smemtile::device_transpose(Narrow{}, i, o, 100, 3);
  });
  // 16-byte records staged by a caller's smaller tile (576 chunks: 64 records of 7, 16 of 32), pitches
  // and a batch, against the host
  using Small16 = smemtile::RecordTransposePolicy<16, TransposeAlgorithm::narrow_cols, 9 * 1024>::type;
  using Small16Rows = smemtile::RecordTransposePolicy<16, TransposeAlgorithm::narrow_rows, 9 * 1024>::type;
  for (const int k : {7, 32}) {
    const int n = 1000;
    run_policy_case<float4>(Case{k, n, n + 3, k + 1, 2, k * (n + 3) + 5, n * (k + 1) + 2, 0, 0},
                            [k](const float4* i, float4* o) {
                              return smemtile::device_transpose(Small16{}, i, o, k, 1000, 1003, k + 1, 2,
                                                                k * 1003 + 5, 1000 * (k + 1) + 2);
                            });
    run_policy_case<float4>(Case{n, k, k + 2, n + 1, 2, n * (k + 2) + 1, k * (n + 1) + 3, 0, 0},
                            [k](const float4* i, float4* o) {
                              return smemtile::device_transpose(Small16Rows{}, i, o, 1000, k, k + 2, 1001, 2,
                                                                1000 * (k + 2) + 1, k * 1001 + 3);
                            });
  }
  DeviceBuffer<float4> in4(80 * 80), out4(80 * 80);
  const smemtile::LaunchStatus s = smemtile::device_transpose(Small{}, in4.get(), out4.get(), 80, 80);
  CHECK(s.error == cudaErrorInvalidValue);  // 80 x 81 x 16 bytes > 32 KB
}

// ---- block level: HWC bytes -> CHW floats in one pass, and CHW bytes -> HWC ----------------------

namespace {

struct ToUnitFloat {
  __device__ float operator()(unsigned char v) const { return static_cast<float>(v) * (1.0f / 255.0f); }
};

// Image blockIdx.y, pixels from blockIdx.x * (records per block).
__global__ void hwc_to_chw_float(const unsigned char* hwc, float* chw, int pixels, int channels,
                                 long long image_bytes, long long plane_stride, long long image_floats) {
  __shared__ smemtile::RecordTile<unsigned char, 8192> tile;
  const smemtile::FixedThreadBlock<256> block{};
  const int per_block = tile.max_records(channels);
  const int first = static_cast<int>(blockIdx.x) * per_block;
  if (first >= pixels) return;
  const int count = min(per_block, pixels - first);
  const unsigned char* src = hwc + blockIdx.y * image_bytes + static_cast<long long>(first) * channels;
  smemtile::load_records(src, channels, count, channels, tile.data, block);
  block.sync();
  smemtile::store_channels(tile.data, count, channels, chw + blockIdx.y * image_floats + first, plane_stride, block,
                           ToUnitFloat{});
}

__global__ void chw_to_hwc_bytes(const unsigned char* chw, unsigned char* hwc, int pixels, int channels,
                                 long long plane_stride) {
  __shared__ smemtile::RecordTile<unsigned char, 4096> tile;
  const smemtile::FixedThreadBlock<128> block{};
  const int per_block = tile.max_records(channels);
  const int first = static_cast<int>(blockIdx.x) * per_block;
  if (first >= pixels) return;
  const int count = min(per_block, pixels - first);
  smemtile::load_channels(chw + first, plane_stride, count, channels, tile.data, block);
  block.sync();
  smemtile::store_records(tile.data, count, channels, hwc + static_cast<long long>(first) * channels, channels, block);
}

}  // namespace

TEST_CASE("block interleave: HWC bytes to CHW float planes in one pass, and CHW bytes back to HWC",
          "[transpose][block][records]") {
  const unsigned seed = smemtile_test::fresh_seed();
  INFO("seed " << seed);
  std::mt19937 rng(seed);
  for (int trial = 0; trial < 60; ++trial) {
    const int channels = uniform(rng, 1, 8);
    const int pixels = uniform(rng, 0, 3) == 0 ? uniform(rng, 20000, 70000) : uniform(rng, 1, 3000);
    const int images = uniform(rng, 1, 3);
    const int in_shift = uniform(rng, 0, 15);                 // bytes
    const long long plane = pixels + uniform(rng, 0, 1) * uniform(rng, 1, 5);  // floats per plane
    const int out_shift = uniform(rng, 0, 3);                 // floats
    INFO("channels " << channels << ", pixels " << pixels << ", images " << images << ", in +" << in_shift
                     << " bytes, planes " << plane << " floats apart, out +" << out_shift << " floats");
    const long long image_bytes = static_cast<long long>(pixels) * channels;
    const long long image_floats = plane * channels;
    Bytes hwc = smemtile_test::random_values<unsigned char>(in_shift + images * image_bytes, seed + trial);
    const std::size_t out_floats = out_shift + images * image_floats + 16;
    DeviceBuffer<unsigned char> d_hwc(hwc.size());
    DeviceBuffer<float> d_chw(out_floats);
    d_hwc.upload(hwc);
    d_chw.poison();
    const int per_block = smemtile::RecordTile<unsigned char, 8192>::max_records(channels);
    hwc_to_chw_float<<<dim3((pixels + per_block - 1) / per_block, images), 256>>>(
        d_hwc.get() + in_shift, d_chw.get() + out_shift, pixels, channels, image_bytes, plane, image_floats);
    REQUIRE_LAUNCH_OK();
    const std::vector<float> chw = d_chw.download();
    float poison;
    std::memset(&poison, poison_byte, sizeof poison);
    std::vector<float> expected(out_floats, poison);
    for (int i = 0; i < images; ++i)
      for (int p = 0; p < pixels; ++p)
        for (int c = 0; c < channels; ++c)
          expected[out_shift + i * image_floats + c * plane + p] =
              static_cast<float>(hwc[in_shift + i * image_bytes + static_cast<long long>(p) * channels + c]) *
              (1.0f / 255.0f);
    REQUIRE(std::memcmp(expected.data(), chw.data(), out_floats * sizeof(float)) == 0);

    // CHW bytes (the first image's planes, `plane` apart) back to HWC.
    Bytes planes(in_shift + plane * channels);
    for (int c = 0; c < channels; ++c)
      for (int p = 0; p < pixels; ++p) planes[in_shift + c * plane + p] = hwc[in_shift + static_cast<long long>(p) * channels + c];
    DeviceBuffer<unsigned char> d_planes(planes.size()), d_back(image_bytes + 32);
    d_planes.upload(planes);
    d_back.poison();
    const int per_block_back = smemtile::RecordTile<unsigned char, 4096>::max_records(channels);
    chw_to_hwc_bytes<<<(pixels + per_block_back - 1) / per_block_back, 128>>>(d_planes.get() + in_shift,
                                                                                d_back.get() + 16, pixels, channels, plane);
    REQUIRE_LAUNCH_OK();
    const Bytes back = d_back.download();
    Bytes expected_back(image_bytes + 32, poison_byte);
    std::memcpy(expected_back.data() + 16, hwc.data() + in_shift, image_bytes);
    REQUIRE(back == expected_back);
  }
}

// ---- thread level: split_records fused with a conversion (16 RGB pixels per thread) ----------------

namespace {

// Thread p takes pixels 16 p .. 16 p + 15 (48 bytes, three aligned chunks), splits them into R, G and
// B chunks in registers, and writes each as 16 floats in [0, 1] to its plane; merge_records puts
// the three chunks back together into `back`, which must equal the input.
__global__ void rgb_to_float_planes(const uint4* rgb, float* planes, long long plane_stride, uint4* back, int groups) {
  const int p = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  if (p >= groups) return;
  uint4 pixels[3] = {rgb[3 * p], rgb[3 * p + 1], rgb[3 * p + 2]};
  uint4 channels[3];
  smemtile::split_records<unsigned char, 3>(pixels, channels);
  for (int c = 0; c < 3; ++c) {
    const unsigned words[4] = {channels[c].x, channels[c].y, channels[c].z, channels[c].w};
    for (int i = 0; i < 16; ++i)
      planes[c * plane_stride + 16LL * p + i] = static_cast<float>((words[i / 4] >> (8 * (i % 4))) & 0xFFu) / 255.0f;
  }
  uint4 again[3];
  smemtile::merge_records<unsigned char, 3>(channels, again);
  for (int i = 0; i < 3; ++i) back[3 * p + i] = again[i];
}

}  // namespace

TEST_CASE("split_records / merge_records: RGB bytes to float planes in registers, and back", "[transpose][block][records]") {
  const int groups = 5000;  // 80000 pixels
  const long long pixels = 16LL * groups, plane = pixels + 3;
  const Bytes rgb = smemtile_test::random_values<unsigned char>(3 * pixels, 2611);
  DeviceBuffer<unsigned char> d_rgb(rgb.size()), d_back(rgb.size());
  DeviceBuffer<float> d_planes(3 * plane);
  d_rgb.upload(rgb);
  d_back.poison();
  d_planes.poison();
  rgb_to_float_planes<<<(groups + 127) / 128, 128>>>(reinterpret_cast<const uint4*>(d_rgb.get()), d_planes.get(),
                                                    plane, reinterpret_cast<uint4*>(d_back.get()), groups);
  REQUIRE_LAUNCH_OK();
  const std::vector<float> planes = d_planes.download();
  for (long long i = 0; i < pixels; ++i)
    for (int c = 0; c < 3; ++c) {
      const float want = static_cast<float>(rgb[3 * i + c]) / 255.0f;
      if (planes[c * plane + i] != want) {
        INFO("pixel " << i << " channel " << c << ": got " << planes[c * plane + i] << ", want " << want);
        FAIL("plane differs");
      }
    }
  float poison;
  std::memset(&poison, poison_byte, sizeof poison);
  for (int c = 0; c < 3; ++c)
    for (long long i = pixels; i < plane; ++i) CHECK(std::memcmp(&planes[c * plane + i], &poison, sizeof poison) == 0);
  REQUIRE(d_back.download() == rgb);
}

