// transpose_bench: out (cols x rows) = in (rows x cols) transposed, for 1- to 16-byte elements,
// smemtile::device_transpose against cudaMemcpy device-to-device of the same bytes, cuBLAS geam,
// the course's textbook kernel and a strong hand-written kernel, all measured in the same run (NVBench).
//
// Benchmarks (NVBench names; the states' names add the axes):
//   cudaMemcpy              cudaMemcpyAsync device-to-device of the same bytes (all matrices): the ceiling
//   smemtile_transpose      smemtile::device_transpose (the batched overload for a batch: one launch)
//   cublas_geam             C = 1 * op(A)^T + 0 * B: cublasSgeam (4 bytes), cublasDgeam (8 bytes),
//                           cublasZgeam (16 bytes); no cuBLAS peer for 1- and 2-byte elements (skipped).
//                           cuBLAS has no batched geam: a batch is one call per matrix, all inside the
//                           timed region.
//   cublas_cgeam            cublasCgeam on the 8-byte elements read as cuComplex (8 bytes only)
//   course_transpose        the textbook kernel: __shared__ T tile[32][33], blocks of 32 x 8 threads,
//                           one element per access (a batch: grid.z)
//   handwritten_transpose   the best kernel written here without the library: 16 KB tiles, four
//                           16-byte loads in flight per thread, an XOR swizzle of 16-byte chunks that
//                           keeps both shared-memory sides conflict-free, register blocks transposed
//                           in registers (1- and 2-byte elements packed in words with __byte_perm) and
//                           16-byte stores; element by element where rows are not 16-byte aligned or
//                           a tile crosses the edge (a batch: grid.z)
//   smemtile_records_batch  the batch shapes through small_batch (the record algorithm) forced by its
//                           policy: what they ran before small_batch_registers, in the same run
//   smemtile_staged_batch   the batch shapes through small_batch_staged forced by its policy (what
//                           dense batches that are not whole register tiles take)
// Issue 21's shapes, as their own benchmarks (same generators, names ending in "_narrow_batch"):
// k x 2^24 and 2^24 x k for k in {2, 3, 4, 8} (the narrow-side algorithms) and the batches 2^20 x 8x8,
// 2^20 x 16x16, 2^16 x 32x32, 2^16 x 33x31, 2^14 x 64x64 (small_batch_registers; 33x31: small_batch_staged),
// and 2^20 x 5x7, 327680 x 12x10, 2^14 x 63x57 (small_batch_staged where not whole tiles), for every element size
// where the array is at least 32 MiB (smaller states are skipped), against cudaMemcpy of the same bytes.
// Axes: T (U8, U16, F32, F64, C128 = cuDoubleComplex: 1, 2, 4, 8, 16 bytes), Shape (rows x cols of
// the input; "64x1024x1024" is a batch of 64 matrices of 1024 x 1024, dense, one after the other).
// Inputs: pseudo-random words, every byte non-zero, every 4-byte word a normal finite float (so
// every 8-byte word is a normal finite double and geam's 1 * a + 0 * b is exact, bit for bit).
// Every state poisons the output (out(c, r) = ~in(r, c)), runs its implementation once, compares
// every element with the input on the device and exits with a message on any difference: no number
// is reported for a wrong kernel. GB/s counts bytes read plus bytes written.
#include <nvbench/nvbench.cuh>

#include <smemtile/smemtile.cuh>

#include <cuComplex.h>
#if SMEMTILE_BENCH_HAVE_CUBLAS
#include <cublas_v2.h>
#endif

#include <cstdio>
#include <cstdlib>
#include <string>

#define SMEMTILE_BENCH_NAME "transpose_bench"
#include "bench_common.cuh"

namespace {

// ---- shapes ---------------------------------------------------------------------------------------

// 10000x10000 and 1008x65536: aligned rows whose sizes the register tiles do not divide.
const std::vector<std::string> kShapes = {"8192x8192",  "8191x8193", "10000x10000", "1008x65536", "65536x1024",
                                          "1024x65536", "1024x1024", "64x1024x1024"};

const std::vector<std::string> kNarrowBatchShapes = {
    "2x16777216", "3x16777216", "4x16777216", "8x16777216", "16777216x2",   "16777216x3",     "16777216x4",
    "16777216x8", "1048576x8x8", "1048576x16x16", "65536x32x32", "65536x33x31", "16384x64x64",
    // N not a multiple of 16 bytes' worth of elements: channel rows off 16 bytes (outside the issue's matrix)
    "3x16777213", "16777213x3", "8x16777213", "16777213x8",
    // batches of matrices that are not whole register tiles for some element sizes (small_batch_staged)
    "1048576x5x7", "327680x12x10", "16384x63x57",
    // narrow sides above 8: channel groups where k is a multiple of 16 / element bytes, channel words
    // for other even k of 1- to 4-byte elements, else the record algorithms; 2^22 + 1: channel rows
    // off 16 bytes
    "10x4194304", "4194304x10", "12x4194304", "4194304x12", "16x4194304", "4194304x16", "24x2097152", "2097152x24", "32x2097152", "2097152x32",
    "12x4194301", "4194301x12",
    // odd k from 9 to 31: the rotated algorithms, rows aligned and off 16 bytes (2^22 + 1)
    "9x4194304", "4194304x9", "21x4194304", "4194304x21", "31x2097152", "2097152x31", "9x4194305", "4194305x9",
    "25x4194305", "4194305x25"};

// Issue 21's batch shapes alone (the record algorithm's comparison).
const std::vector<std::string> kBatchShapes = {"1048576x8x8", "1048576x16x16", "65536x32x32", "65536x33x31",
                                               "16384x64x64", "1048576x5x7", "327680x12x10", "16384x63x57"};

struct Shape {
  int rows = 0;
  int cols = 0;
  int batch = 1;
  long long elems() const { return static_cast<long long>(rows) * cols; }  // of one matrix
  long long total() const { return elems() * batch; }
};

// "RxC" or "BxRxC" (a batch of B dense matrices).
Shape parse_shape(const std::string& text) {
  Shape s;
  int a = 0, b = 0, c = 0;
  char tail = 0;
  const int n = std::sscanf(text.c_str(), "%dx%dx%d%c", &a, &b, &c, &tail);
  if (n == 3 && a > 0 && b > 0 && c > 0) {
    s.batch = a;
    s.rows = b;
    s.cols = c;
  } else if (n == 2 && a > 0 && b > 0) {
    s.rows = a;
    s.cols = b;
  } else {
    std::fprintf(stderr, "transpose_bench: Shape must be RxC or BxRxC (positive), not '%s'\n", text.c_str());
    std::exit(EXIT_FAILURE);
  }
  return s;
}

// ---- data: non-zero pseudo-random input, poisoned output, on-device comparison --------------------

// Every byte non-zero; every word a normal finite float (exponent neither 0 nor 255), hence every
// 8-byte word a normal finite double: geam's arithmetic (1 * a + 0 * b) returns a bit for bit.
__global__ void fill_random(unsigned* words, long long count, unsigned seed) {
  for (long long i = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x; i < count;
       i += static_cast<long long>(gridDim.x) * blockDim.x) {
    unsigned w = random_word(i, seed);
    for (int byte = 0; byte < 4; ++byte)
      if (((w >> (8 * byte)) & 0xffu) == 0) w |= 0x5au << (8 * byte);
    const unsigned exponent = (w >> 23) & 0xffu;
    if (exponent == 0 || exponent == 0xffu) w ^= 0x40000000u;  // 0 -> 128, 255 -> 127; byte 3 stays non-zero
    words[i] = w;
  }
}

template <int E>
struct BitsOf;
template <> struct BitsOf<1> { using type = unsigned char; };
template <> struct BitsOf<2> { using type = unsigned short; };
template <> struct BitsOf<4> { using type = unsigned; };
template <> struct BitsOf<8> { using type = unsigned long long; };
template <> struct BitsOf<16> { using type = uint4; };

template <class W>
__device__ W flipped(W v) { return static_cast<W>(~v); }
__device__ uint4 flipped(uint4 v) { return make_uint4(~v.x, ~v.y, ~v.z, ~v.w); }
template <class W>
__device__ bool same(W a, W b) { return a == b; }
__device__ bool same(uint4 a, uint4 b) { return a.x == b.x && a.y == b.y && a.z == b.z && a.w == b.w; }

// Output element o (batch-major, then output row c, then output column r) and its input element.
struct Pair {
  long long out;
  long long in;
};
__device__ Pair element_pair(long long o, int rows, int cols) {
  const long long per = static_cast<long long>(rows) * cols;
  const long long b = o / per, rest = o % per;
  const long long c = rest / rows, r = rest % rows;
  return Pair{o, b * per + r * cols + c};
}

// out(c, r) = ~in(r, c): an element the implementation does not write cannot match.
template <int E>
__global__ void poison(const void* in, void* out, int rows, int cols, long long total) {
  using W = typename BitsOf<E>::type;
  const W* src = static_cast<const W*>(in);
  W* dst = static_cast<W*>(out);
  for (long long o = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x; o < total;
       o += static_cast<long long>(gridDim.x) * blockDim.x) {
    const Pair p = element_pair(o, rows, cols);
    dst[p.out] = flipped(src[p.in]);
  }
}

template <int E>
__global__ void count_mismatches(const void* in, const void* out, int rows, int cols, long long total,
                                 unsigned long long* mismatches, unsigned long long* first) {
  using W = typename BitsOf<E>::type;
  const W* src = static_cast<const W*>(in);
  const W* dst = static_cast<const W*>(out);
  for (long long o = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x; o < total;
       o += static_cast<long long>(gridDim.x) * blockDim.x) {
    const Pair p = element_pair(o, rows, cols);
    if (!same(dst[p.out], src[p.in])) {
      atomicAdd(mismatches, 1ull);
      atomicMin(first, static_cast<unsigned long long>(o));
    }
  }
}

constexpr int kHelperBlocks = 2048;

/// The input (filled) and output of one state: batch dense rows x cols matrices of E-byte elements.
// Whole 16-byte words for the filler: the bytes of one side of `s`, rounded up.
inline size_t whole_words_bytes(Shape s, int element_bytes) {
  return static_cast<size_t>((s.total() * element_bytes + 15) / 16 * 16);
}

/// The input (filled) and output of one state: batch dense rows x cols matrices of E-byte elements.
template <int E>
struct Buffers : BufferPair {
  Shape shape;
  long long bytes = 0;  // of all matrices, one side

  explicit Buffers(Shape s) : BufferPair(whole_words_bytes(s, E)), shape(s), bytes(s.total() * E) {
    fill_random<<<kHelperBlocks, kHelperThreads>>>(static_cast<unsigned*>(in),
                                                   static_cast<long long>(whole_words_bytes(s, E) / 4), 0x7a05e123U);
    CUDA_CHECK_LAUNCH();
  }

  void poison_output() {
    poison<E><<<kHelperBlocks, kHelperThreads>>>(in, out, shape.rows, shape.cols, shape.total());
    CUDA_CHECK_LAUNCH();
  }

  /// Exits with a message unless out(b, c, r) == in(b, r, c) for every element, byte for byte.
  void check_output(const std::string& what) {
    const Mismatches result = count_on_device([&](unsigned long long* mismatches, unsigned long long* first) {
      count_mismatches<E><<<kHelperBlocks, kHelperThreads>>>(in, out, shape.rows, shape.cols, shape.total(),
                                                             mismatches, first);
    });
    if (result.count != 0) {
      const long long per = shape.elems();
      const long long o = static_cast<long long>(result.first);
      std::fprintf(stderr,
                   "transpose_bench: WRONG OUTPUT from %s: %llu of %lld elements differ, first at matrix %lld, "
                   "output row %lld, column %lld\n",
                   what.c_str(), result.count, shape.total(), o / per, (o % per) / shape.rows, (o % per) % shape.rows);
      std::exit(EXIT_FAILURE);
    }
    std::printf("transpose_bench: %s: output checked (%lld elements of %d bytes)\n", what.c_str(), shape.total(), E);
    std::fflush(stdout);
  }
};

// ---- the textbook kernel (the course's: 32 x 32 tile padded to 33 columns, 32 x 8 threads) --------

constexpr int kCourseTile = 32;
constexpr int kCourseRows = 8;

template <class T>
__global__ void course_transpose(const T* in, T* out, int rows, int cols, long long stride) {
  __shared__ T tile[kCourseTile][kCourseTile + 1];
  in += blockIdx.z * stride;
  out += blockIdx.z * stride;
  int x = blockIdx.x * kCourseTile + threadIdx.x;
  int y = blockIdx.y * kCourseTile + threadIdx.y;
  for (int j = 0; j < kCourseTile; j += kCourseRows)
    if (x < cols && y + j < rows) tile[threadIdx.y + j][threadIdx.x] = in[static_cast<long long>(y + j) * cols + x];
  __syncthreads();
  x = blockIdx.y * kCourseTile + threadIdx.x;  // output column = input row
  y = blockIdx.x * kCourseTile + threadIdx.y;  // output row = input column
  for (int j = 0; j < kCourseTile; j += kCourseRows)
    if (x < rows && y + j < cols) out[static_cast<long long>(y + j) * rows + x] = tile[threadIdx.x][threadIdx.y + j];
}

// ---- the hand-written kernel ----------------------------------------------------------------------
//
// A tile of R x C elements (16 KB, every element size) per block of 256 threads, held in shared
// memory as rows of CQ 16-byte chunks, chunk q of row r at slot q ^ ((r / BR) % 8) (XOR swizzle).
// Load: each thread loads 4 chunks (all in flight), then stores them to their slots: a quarter-warp
// stores 8 consecutive chunks of one row, 8 different slots mod 8: conflict-free.
// Store: each thread takes register blocks of BR rows x AC columns: BR shared-memory reads of one
// unit (a 16-byte chunk, or a 4-byte word for 1- and 2-byte elements) of rows BR*kb .. BR*kb+BR-1,
// transposed in registers into AC 16-byte output chunks (BR elements each). Lanes take consecutive
// kb, so a warp's stores are whole 16-byte chunks, consecutive along output rows, and its reads hit
// different slots (chunk slots: q ^ kb % 8) or banks (words): conflict-free.
namespace hw {

constexpr int kThreads = 256;

template <int E>
struct TileShape;
template <> struct TileShape<1> { static constexpr int R = 128, C = 128; };
template <> struct TileShape<2> { static constexpr int R = 64, C = 128; };
template <> struct TileShape<4> { static constexpr int R = 64, C = 64; };
template <> struct TileShape<8> { static constexpr int R = 32, C = 64; };
template <> struct TileShape<16> { static constexpr int R = 32, C = 32; };

template <int E>
struct Geometry {
  static constexpr int R = TileShape<E>::R, C = TileShape<E>::C;
  static constexpr int U = E <= 2 ? 4 : 16;  // bytes of one shared-memory read of the store phase
  static constexpr int AC = U / E;           // tile columns per read unit = output chunks per block
  static constexpr int BR = 16 / E;          // tile rows per block = elements per output chunk
  static constexpr int CQ = C * E / 16;      // 16-byte chunks per tile row
  static constexpr int KB = R / BR;          // blocks down the tile
  static constexpr int M = C / AC;           // units across the tile
  static constexpr int chunks = R * CQ;
  static constexpr int chunks_per_thread = chunks / kThreads;
  static constexpr int blocks_per_thread = KB * M / kThreads;
  static constexpr int elems_per_thread = R * C / kThreads;
  static_assert(chunks * 16 == 16384, "16 KB tiles");
  static_assert(CQ % 8 == 0, "whole swizzle groups of 8 chunks per row");
  static_assert(KB % 8 == 0, "8 blocks down per quarter-warp / warp pattern");
  static_assert(chunks % kThreads == 0 && (KB * M) % kThreads == 0 && (R * C) % kThreads == 0, "whole work per thread");
};

template <int E>
__device__ __forceinline__ int slot(int row, int q) {  // swizzled chunk index of chunk q of tile row `row`
  return row * Geometry<E>::CQ + (q ^ ((row / Geometry<E>::BR) & 7));
}

template <int E>
__device__ __forceinline__ unsigned char* element_in_tile(uint4* tile, int row, int col) {
  return reinterpret_cast<unsigned char*>(tile + slot<E>(row, col * E / 16)) + (col * E) % 16;
}

// Transposes a block: unit[j] holds tile row BR*kb + j, columns AC*m ...; out[i] becomes the
// 16-byte output chunk of tile column AC*m + i (BR elements, tile rows BR*kb ...).
template <int E>
__device__ __forceinline__ void transpose_block(const unsigned (&unit)[Geometry<E>::BR][Geometry<E>::U / 4],
                                                unsigned (&out)[Geometry<E>::AC][4]) {
  constexpr int BR = Geometry<E>::BR, AC = Geometry<E>::AC;
  if constexpr (E == 1) {  // 16 rows of a word: four 4 x 4 byte transposes
#pragma unroll
    for (int k = 0; k < 4; ++k) {
      const unsigned r0 = unit[4 * k][0], r1 = unit[4 * k + 1][0], r2 = unit[4 * k + 2][0], r3 = unit[4 * k + 3][0];
      const unsigned t0 = __byte_perm(r0, r1, 0x5140), t1 = __byte_perm(r0, r1, 0x7362);
      const unsigned t2 = __byte_perm(r2, r3, 0x5140), t3 = __byte_perm(r2, r3, 0x7362);
      out[0][k] = __byte_perm(t0, t2, 0x5410);
      out[1][k] = __byte_perm(t0, t2, 0x7632);
      out[2][k] = __byte_perm(t1, t3, 0x5410);
      out[3][k] = __byte_perm(t1, t3, 0x7632);
    }
  } else if constexpr (E == 2) {  // 8 rows of a word (2 halves): 2 x 2 half transposes
#pragma unroll
    for (int k = 0; k < 4; ++k) {
      out[0][k] = __byte_perm(unit[2 * k][0], unit[2 * k + 1][0], 0x5410);
      out[1][k] = __byte_perm(unit[2 * k][0], unit[2 * k + 1][0], 0x7632);
    }
  } else {  // whole words move: only the registers' roles change
    constexpr int w = E / 4;  // words per element
#pragma unroll
    for (int i = 0; i < AC; ++i)
#pragma unroll
      for (int j = 0; j < BR; ++j)
#pragma unroll
        for (int k = 0; k < w; ++k) out[i][j * w + k] = unit[j][i * w + k];
  }
}

// Element j (0 .. BR-1) of an output chunk, as E bytes stored at p.
template <int E>
__device__ __forceinline__ void store_element(unsigned char* p, const unsigned (&chunk)[4], int j) {
  if constexpr (E == 1) {
    *p = static_cast<unsigned char>(chunk[j / 4] >> (8 * (j % 4)));
  } else if constexpr (E == 2) {
    *reinterpret_cast<unsigned short*>(p) = static_cast<unsigned short>(chunk[j / 2] >> (16 * (j % 2)));
  } else if constexpr (E == 4) {
    *reinterpret_cast<unsigned*>(p) = chunk[j];
  } else if constexpr (E == 8) {
    *reinterpret_cast<uint2*>(p) = make_uint2(chunk[2 * j], chunk[2 * j + 1]);
  } else {
    *reinterpret_cast<uint4*>(p) = make_uint4(chunk[0], chunk[1], chunk[2], chunk[3]);
  }
}

template <int E>
__device__ __forceinline__ void copy_element(unsigned char* dst, const unsigned char* src) {
  using W = typename BitsOf<E>::type;
  *reinterpret_cast<W*>(dst) = *reinterpret_cast<const W*>(src);
}

// in: batch x rows x cols (row pitch ld_in, matrices stride_in apart), out: batch x cols x rows.
// Pitches and strides in elements; aligned_in / aligned_out: base, pitch and stride all 16-byte
// multiples (whole-tile fast paths). Grid: ceil(cols / C) x ceil(rows / R) x batch.
template <class T>
__global__ void __launch_bounds__(kThreads) handwritten_transpose(const T* __restrict__ in_base, T* __restrict__ out_base,
                                                                  int rows, int cols, long long ld_in, long long ld_out,
                                                                  long long stride_in, long long stride_out,
                                                                  bool aligned_in, bool aligned_out) {
  constexpr int E = static_cast<int>(sizeof(T));
  using G = Geometry<E>;
  __shared__ uint4 tile[G::chunks];
  const int t = static_cast<int>(threadIdx.x);
  const int row0 = static_cast<int>(blockIdx.y) * G::R, col0 = static_cast<int>(blockIdx.x) * G::C;
  const unsigned char* in = reinterpret_cast<const unsigned char*>(in_base + blockIdx.z * stride_in);
  unsigned char* out = reinterpret_cast<unsigned char*>(out_base + blockIdx.z * stride_out);
  const long long pitch_in = ld_in * E, pitch_out = ld_out * E;  // bytes
  const bool inside = row0 + G::R <= rows && col0 + G::C <= cols;

  // Load the tile.
  if (inside && aligned_in) {
    const unsigned char* first = in + row0 * pitch_in + static_cast<long long>(col0) * E;
    uint4 held[G::chunks_per_thread];
#pragma unroll
    for (int i = 0; i < G::chunks_per_thread; ++i) {
      const int c = t + i * kThreads;
      held[i] = *reinterpret_cast<const uint4*>(first + (c / G::CQ) * pitch_in + (c % G::CQ) * 16);
    }
#pragma unroll
    for (int i = 0; i < G::chunks_per_thread; ++i) {
      const int c = t + i * kThreads;
      tile[slot<E>(c / G::CQ, c % G::CQ)] = held[i];
    }
  } else {  // element by element, lanes along rows (coalesced); outside the matrix is never stored
#pragma unroll 8
    for (int i = 0; i < G::elems_per_thread; ++i) {
      const int e = t + i * kThreads;
      const int r = e / G::C, c = e % G::C;
      if (row0 + r < rows && col0 + c < cols)
        copy_element<E>(element_in_tile<E>(tile, r, c), in + (row0 + r) * pitch_in + static_cast<long long>(col0 + c) * E);
    }
  }
  __syncthreads();

  // Store it transposed, in register blocks.
  const bool fast_store = inside && aligned_out;
#pragma unroll
  for (int i = 0; i < G::blocks_per_thread; ++i) {
    const int index = t + i * kThreads;
    const int kb = index % G::KB, m = index / G::KB;
    unsigned unit[G::BR][G::U / 4];
#pragma unroll
    for (int j = 0; j < G::BR; ++j) {
      const int r = G::BR * kb + j;
      if constexpr (G::U == 16) {
        const uint4 v = tile[slot<E>(r, m)];
        unit[j][0] = v.x;
        unit[j][1] = v.y;
        unit[j][2] = v.z;
        unit[j][3] = v.w;
      } else {
        unit[j][0] = reinterpret_cast<const unsigned*>(tile + slot<E>(r, m / 4))[m % 4];
      }
    }
    unsigned chunk[G::AC][4];
    transpose_block<E>(unit, chunk);
    const int out_col = row0 + G::BR * kb;  // first output column of the chunks (an input row)
    if (fast_store) {
#pragma unroll
      for (int a = 0; a < G::AC; ++a) {
        const int out_row = col0 + G::AC * m + a;
        *reinterpret_cast<uint4*>(out + out_row * pitch_out + static_cast<long long>(out_col) * E) =
            make_uint4(chunk[a][0], chunk[a][1], chunk[a][2], chunk[a][3]);
      }
    } else {
#pragma unroll
      for (int a = 0; a < G::AC; ++a) {
        const int out_row = col0 + G::AC * m + a;
        if (out_row >= cols) continue;
#pragma unroll
        for (int j = 0; j < G::BR; ++j)
          if (out_col + j < rows)
            store_element<E>(out + out_row * pitch_out + static_cast<long long>(out_col + j) * E, chunk[a], j);
      }
    }
  }
}

}  // namespace hw

// ---- cuBLAS ---------------------------------------------------------------------------------------

#if SMEMTILE_BENCH_HAVE_CUBLAS
cublasHandle_t cublas_handle() {
  static cublasHandle_t handle = [] {
    cublasHandle_t h = nullptr;
    if (cublasCreate(&h) != CUBLAS_STATUS_SUCCESS) {
      std::fprintf(stderr, "transpose_bench: cublasCreate failed\n");
      std::exit(EXIT_FAILURE);
    }
    return h;
  }();
  return handle;
}

// Row-major in (rows x cols) is column-major A (cols x rows, lda = cols); C = 1 * A^T + 0 * B^T is
// column-major rows x cols (ldc = rows), i.e. row-major out (cols x rows). B = A (op T, ldb = lda):
// a valid operand whether or not cuBLAS reads it when beta is 0 (finite inputs: 0 * b adds nothing).
cublasStatus_t geam(cublasHandle_t h, int rows, int cols, const float* in, float* out) {
  const float one = 1.0f, zero = 0.0f;
  return cublasSgeam(h, CUBLAS_OP_T, CUBLAS_OP_T, rows, cols, &one, in, cols, &zero, in, cols, out, rows);
}
cublasStatus_t geam(cublasHandle_t h, int rows, int cols, const double* in, double* out) {
  const double one = 1.0, zero = 0.0;
  return cublasDgeam(h, CUBLAS_OP_T, CUBLAS_OP_T, rows, cols, &one, in, cols, &zero, in, cols, out, rows);
}
cublasStatus_t geam(cublasHandle_t h, int rows, int cols, const cuComplex* in, cuComplex* out) {
  const cuComplex one = make_cuComplex(1.0f, 0.0f), zero = make_cuComplex(0.0f, 0.0f);
  return cublasCgeam(h, CUBLAS_OP_T, CUBLAS_OP_T, rows, cols, &one, in, cols, &zero, in, cols, out, rows);
}
cublasStatus_t geam(cublasHandle_t h, int rows, int cols, const cuDoubleComplex* in, cuDoubleComplex* out) {
  const cuDoubleComplex one = make_cuDoubleComplex(1.0, 0.0), zero = make_cuDoubleComplex(0.0, 0.0);
  return cublasZgeam(h, CUBLAS_OP_T, CUBLAS_OP_T, rows, cols, &one, in, cols, &zero, in, cols, out, rows);
}
#endif

// ---- the benchmarks -------------------------------------------------------------------------------

template <class T>
Shape state_shape(nvbench::state& state) {
  const Shape s = parse_shape(state.get_string("Shape"));
  state.add_global_memory_reads<T>(static_cast<size_t>(s.total()));
  state.add_global_memory_writes<T>(static_cast<size_t>(s.total()));
  return s;
}

std::string describe(const char* impl, nvbench::state& state) {
  return std::string(impl) + " " + state.get_short_description();
}

// Poisons the output, runs `launch(stream 0)` once, checks it, then times it.
template <int E, class Launch>
void check_and_time(nvbench::state& state, Buffers<E>& buffers, const std::string& what, Launch&& launch) {
  buffers.poison_output();
  launch(cudaStream_t{0});
  CUDA_CHECK_LAUNCH();
  buffers.check_output(what);
  state.exec([&](nvbench::launch& l) { launch(l.get_stream()); });
}

template <class T>
void bench_memcpy(nvbench::state& state, nvbench::type_list<T>) {
  print_device_once();
  const Shape shape = state_shape<T>(state);
  constexpr int E = static_cast<int>(sizeof(T));
  Buffers<E> buffers(shape);
  const size_t bytes = static_cast<size_t>(buffers.bytes);
  CUDA_CHECK(cudaMemcpy(buffers.out, buffers.in, bytes, cudaMemcpyDeviceToDevice));
  CUDA_CHECK(cudaDeviceSynchronize());
  state.exec([&](nvbench::launch& launch) {
    cudaMemcpyAsync(buffers.out, buffers.in, bytes, cudaMemcpyDeviceToDevice, launch.get_stream());
  });
}

template <class T>
void bench_smemtile(nvbench::state& state, nvbench::type_list<T>) {
  print_device_once();
  const Shape s = state_shape<T>(state);
  constexpr int E = static_cast<int>(sizeof(T));
  Buffers<E> buffers(s);
  const T* in = static_cast<const T*>(buffers.in);
  T* out = static_cast<T*>(buffers.out);
  const std::string what = describe("smemtile_transpose", state);
  check_and_time(state, buffers, what, [&](cudaStream_t stream) {
    const smemtile::LaunchStatus status =
        s.batch == 1 ? smemtile::device_transpose(in, out, s.rows, s.cols, stream)
                     : smemtile::device_transpose(in, out, s.rows, s.cols, s.cols, s.rows, s.batch, s.elems(), s.elems(),
                                                  stream);
    if (!status) {
      std::fprintf(stderr, "transpose_bench: %s: %s\n", what.c_str(), status.message.c_str());
      std::exit(EXIT_FAILURE);
    }
  });
}

template <class T>
void bench_course(nvbench::state& state, nvbench::type_list<T>) {
  print_device_once();
  const Shape s = state_shape<T>(state);
  constexpr int E = static_cast<int>(sizeof(T));
  Buffers<E> buffers(s);
  const T* in = static_cast<const T*>(buffers.in);
  T* out = static_cast<T*>(buffers.out);
  const dim3 grid((s.cols + kCourseTile - 1) / kCourseTile, (s.rows + kCourseTile - 1) / kCourseTile, s.batch);
  const dim3 block(kCourseTile, kCourseRows);
  check_and_time(state, buffers, describe("course_transpose", state), [&](cudaStream_t stream) {
    course_transpose<T><<<grid, block, 0, stream>>>(in, out, s.rows, s.cols, s.elems());
  });
}

template <class T>
void bench_handwritten(nvbench::state& state, nvbench::type_list<T>) {
  print_device_once();
  const Shape s = state_shape<T>(state);
  constexpr int E = static_cast<int>(sizeof(T));
  using G = hw::Geometry<E>;
  Buffers<E> buffers(s);
  const T* in = static_cast<const T*>(buffers.in);
  T* out = static_cast<T*>(buffers.out);
  const auto aligned = [](const void* p, long long ld, long long stride, int batch) {
    return reinterpret_cast<unsigned long long>(p) % 16 == 0 && (ld * E) % 16 == 0 && (batch == 1 || (stride * E) % 16 == 0);
  };
  const bool aligned_in = aligned(in, s.cols, s.elems(), s.batch);
  const bool aligned_out = aligned(out, s.rows, s.elems(), s.batch);
  const dim3 grid((s.cols + G::C - 1) / G::C, (s.rows + G::R - 1) / G::R, s.batch);
  check_and_time(state, buffers, describe("handwritten_transpose", state), [&](cudaStream_t stream) {
    hw::handwritten_transpose<T><<<grid, hw::kThreads, 0, stream>>>(in, out, s.rows, s.cols, s.cols, s.rows, s.elems(),
                                                                     s.elems(), aligned_in, aligned_out);
  });
}

// Issue 21's shape matrix starts at 32 MiB: smaller states are skipped.
template <class T>
bool skip_under_32_mib(nvbench::state& state) {
  const Shape s = parse_shape(state.get_string("Shape"));
  if (s.total() * static_cast<long long>(sizeof(T)) >= (32LL << 20)) return false;
  state.skip("the array is under 32 MiB (issue 21's shape matrix)");
  return true;
}

template <class T>
void bench_memcpy_narrow_batch(nvbench::state& state, nvbench::type_list<T> t) {
  if (!skip_under_32_mib<T>(state)) bench_memcpy(state, t);
}

template <class T>
void bench_smemtile_narrow_batch(nvbench::state& state, nvbench::type_list<T> t) {
  if (!skip_under_32_mib<T>(state)) bench_smemtile(state, t);
}

// device_transpose through a caller's policy (PolicyOf<E>::type) on the batch shapes: the shape must
// be one the policy moves (`moves`), else the state is skipped.
template <class T, template <int> class PolicyOf>
void bench_batch_policy(nvbench::state& state, const char* name, bool moves) {
  if (skip_under_32_mib<T>(state)) return;
  if (!moves) {
    state.skip("the policy does not move this shape");
    return;
  }
  print_device_once();
  const Shape s = state_shape<T>(state);
  constexpr int E = static_cast<int>(sizeof(T));
  using Policy = typename PolicyOf<E>::type;
  Buffers<E> buffers(s);
  const T* in = static_cast<const T*>(buffers.in);
  T* out = static_cast<T*>(buffers.out);
  const std::string what = describe(name, state);
  check_and_time(state, buffers, what, [&](cudaStream_t stream) {
    const smemtile::LaunchStatus status = smemtile::device_transpose(Policy{}, in, out, s.rows, s.cols, s.cols, s.rows,
                                                                     s.batch, s.elems(), s.elems(), stream);
    if (!status) {
      std::fprintf(stderr, "transpose_bench: %s: %s\n", what.c_str(), status.message.c_str());
      std::exit(EXIT_FAILURE);
    }
  });
}

template <int E>
struct RecordBatchPolicy {
  using type = typename smemtile::DefaultTransposePolicy<E, smemtile::TransposeAlgorithm::small_batch>::type;
};

// The batch shapes through the record algorithm small_batch (what they took before
// small_batch_registers), for the comparison in one run.
template <class T>
void bench_records_batch(nvbench::state& state, nvbench::type_list<T>) {
  const Shape s = parse_shape(state.get_string("Shape"));
  bench_batch_policy<T, RecordBatchPolicy>(state, "smemtile_records_batch",
                                           smemtile::small_matrix_fits(s.rows, s.cols, static_cast<int>(sizeof(T))));
}

template <int E>
struct StagedBatchPolicy {
  using type = typename smemtile::DefaultTransposePolicy<E, smemtile::TransposeAlgorithm::small_batch_staged>::type;
};

// The batch shapes through small_batch_staged forced by its policy (whole register tiles too), for
// the comparison with small_batch_registers and small_batch in one run.
template <class T>
void bench_staged_batch(nvbench::state& state, nvbench::type_list<T>) {
  const Shape s = parse_shape(state.get_string("Shape"));
  constexpr int E = static_cast<int>(sizeof(T));
  bench_batch_policy<T, StagedBatchPolicy>(state, "smemtile_staged_batch",
                                           static_cast<long long>(s.rows) * s.cols * E <= smemtile::transpose_record_tile_bytes);
}

template <class T, class Blas>
void run_geam(nvbench::state& state, const char* name) {
#if SMEMTILE_BENCH_HAVE_CUBLAS
  print_device_once();
  const Shape s = state_shape<T>(state);
  constexpr int E = static_cast<int>(sizeof(T));
  static_assert(sizeof(Blas) == sizeof(T), "geam on the same bytes");
  Buffers<E> buffers(s);
  const Blas* in = static_cast<const Blas*>(buffers.in);
  Blas* out = static_cast<Blas*>(buffers.out);
  const cublasHandle_t handle = cublas_handle();
  const std::string what = describe(name, state);
  check_and_time(state, buffers, what, [&](cudaStream_t stream) {
    cublasStatus_t status = cublasSetStream(handle, stream);
    for (int b = 0; b < s.batch && status == CUBLAS_STATUS_SUCCESS; ++b)  // no batched geam in cuBLAS
      status = geam(handle, s.rows, s.cols, in + b * s.elems(), out + b * s.elems());
    if (status != CUBLAS_STATUS_SUCCESS) {
      std::fprintf(stderr, "transpose_bench: %s: cuBLAS status %d\n", what.c_str(), static_cast<int>(status));
      std::exit(EXIT_FAILURE);
    }
  });
#else
  (void)name;
  state.skip("built without cuBLAS (CUDA::cublas not found)");
#endif
}

template <class T>
void bench_geam(nvbench::state& state, nvbench::type_list<T>) {
  if constexpr (sizeof(T) == 4) {
    run_geam<T, float>(state, "cublas_geam (Sgeam)");
  } else if constexpr (sizeof(T) == 8) {
    run_geam<T, double>(state, "cublas_geam (Dgeam)");
  } else if constexpr (sizeof(T) == 16) {
    run_geam<T, cuDoubleComplex>(state, "cublas_geam (Zgeam)");
  } else {
    state.skip("no cuBLAS geam for 1- and 2-byte elements");
  }
}

template <class T>
void bench_cgeam(nvbench::state& state, nvbench::type_list<T>) {
  if constexpr (sizeof(T) == 8) {
    run_geam<T, cuComplex>(state, "cublas_cgeam");
  } else {
    state.skip("cublasCgeam (cuComplex) is for 8-byte elements only");
  }
}

}  // namespace

NVBENCH_DECLARE_TYPE_STRINGS(cuDoubleComplex, "C128", "cuDoubleComplex (16 bytes)");

using element_types =
    nvbench::type_list<nvbench::uint8_t, nvbench::uint16_t, nvbench::float32_t, nvbench::float64_t, cuDoubleComplex>;

// Every benchmark: the element types as axis T, the shapes as axis Shape.
#define TRANSPOSE_BENCH_SHAPES(generator, name, shapes)           \
  NVBENCH_BENCH_TYPES(generator, NVBENCH_TYPE_AXES(element_types)) \
      .set_name(name)                                              \
      .set_type_axes_names({"T"})                                  \
      .add_string_axis("Shape", shapes)
#define TRANSPOSE_BENCH(generator, name) TRANSPOSE_BENCH_SHAPES(generator, name, kShapes)

TRANSPOSE_BENCH(bench_memcpy, "cudaMemcpy");
TRANSPOSE_BENCH(bench_smemtile, "smemtile_transpose");
TRANSPOSE_BENCH(bench_geam, "cublas_geam");
TRANSPOSE_BENCH(bench_cgeam, "cublas_cgeam");
TRANSPOSE_BENCH(bench_course, "course_transpose");
TRANSPOSE_BENCH(bench_handwritten, "handwritten_transpose");
TRANSPOSE_BENCH_SHAPES(bench_memcpy_narrow_batch, "cudaMemcpy_narrow_batch", kNarrowBatchShapes);
TRANSPOSE_BENCH_SHAPES(bench_smemtile_narrow_batch, "smemtile_transpose_narrow_batch", kNarrowBatchShapes);
TRANSPOSE_BENCH_SHAPES(bench_records_batch, "smemtile_records_batch", kBatchShapes);
TRANSPOSE_BENCH_SHAPES(bench_staged_batch, "smemtile_staged_batch", kBatchShapes);
