// copy_bench: a global -> tile -> global round trip of a large array, tile by tile, against
// cudaMemcpy device-to-device of the same bytes, measured in the same run (NVBench).
//
// Benchmarks (NVBench names; the states' names add the axes):
//   cudaMemcpy            cudaMemcpyAsync device-to-device of the whole buffer: the ceiling
//   smemtile_round_trip   each block loads a StaticTile with copy_global_to_tile, __syncthreads(),
//                         stores it with copy_tile_to_global to the output (FixedThreadBlock<256>:
//                         every thread issues all its 16-byte loads before its first store)
//   raw_round_trip        the same round trip through shared memory written by hand: raw indexing,
//                         uint4 loads and stores, all loads first (the best without the library)
// Axes: T (U8, I16, F32, F64, B16: element sizes 1, 2, 4, 8, 16 bytes), Loads (16-byte loads in
// flight per thread: 4 -> tiles of 32 rows, 8 -> 64 rows, of 512 bytes), MiB (bytes per buffer;
// the array is MiB * 64 rows of 16384 bytes, the same bytes for every element size).
// Every state checks its kernel's output once against the input (the output poisoned first) and
// exits with a message if it is wrong. Target: >= 97% of cudaMemcpy for 4- and 16-byte elements.
#include <nvbench/nvbench.cuh>

#include <smemtile/smemtile.cuh>

#include <cstdio>
#include <cstdlib>
#include <string>

#define SMEMTILE_BENCH_NAME "copy_bench"
#include "bench_common.cuh"

namespace {

/// A 16-byte element that is not a CUDA vector type.
struct alignas(16) Bytes16 {
  unsigned word[4];
};

constexpr int kThreads = 256;              // threads per block, both round-trip kernels
constexpr int kTileBytesWide = 512;        // a tile row: one warp's 32 16-byte units, contiguous
constexpr long long kRowBytes = 16384;     // a row of the global array
constexpr int kUnitsPerTileRow = kTileBytesWide / 16;

// ---- data: non-zero pseudo-random input, poisoned output, on-device comparison ------------------

__global__ void fill_random(unsigned* words, long long count, unsigned seed) {
  for (long long i = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x; i < count;
       i += static_cast<long long>(gridDim.x) * blockDim.x) {
    const unsigned w = random_word(i, seed);
    words[i] = w != 0 ? w : 0x9e3779b9U;
  }
}

// out = ~in everywhere: a word the kernel under test does not write cannot match.
__global__ void poison(const unsigned* in, unsigned* out, long long count) {
  for (long long i = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x; i < count;
       i += static_cast<long long>(gridDim.x) * blockDim.x)
    out[i] = ~in[i];
}

__global__ void count_mismatches(const unsigned* in, const unsigned* out, long long count,
                                 unsigned long long* mismatches, unsigned long long* first) {
  for (long long i = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x; i < count;
       i += static_cast<long long>(gridDim.x) * blockDim.x) {
    if (in[i] != out[i]) {
      atomicAdd(mismatches, 1ull);
      atomicMin(first, static_cast<unsigned long long>(i));
    }
  }
}

constexpr int kHelperBlocks = 1024;

/// Two device buffers of `bytes` each: `in` filled with non-zero pseudo-random words.
struct Buffers : BufferPair {
  long long bytes = 0;

  explicit Buffers(long long n) : BufferPair(static_cast<size_t>(n)), bytes(n) {
    fill_random<<<kHelperBlocks, kHelperThreads>>>(static_cast<unsigned*>(in), words(), 0x5eed1234U);
    CUDA_CHECK_LAUNCH();
  }

  long long words() const { return bytes / 4; }

  void poison_output() {
    poison<<<kHelperBlocks, kHelperThreads>>>(static_cast<const unsigned*>(in), static_cast<unsigned*>(out), words());
    CUDA_CHECK_LAUNCH();
  }

  /// Exits with a message unless out == in, byte for byte.
  void check_output(const char* what) {
    const Mismatches result = count_on_device([&](unsigned long long* mismatches, unsigned long long* first) {
      count_mismatches<<<kHelperBlocks, kHelperThreads>>>(static_cast<const unsigned*>(in),
                                                          static_cast<const unsigned*>(out), words(), mismatches, first);
    });
    if (result.count != 0) {
      std::fprintf(stderr, "copy_bench: WRONG OUTPUT from %s: %llu of %lld words differ, first at byte %llu\n", what,
                   result.count, words(), result.first * 4ull);
      std::exit(EXIT_FAILURE);
    }
    std::printf("copy_bench: %s: output checked (%lld bytes equal to the input)\n", what, bytes);
    std::fflush(stdout);
  }
};

// ---- the kernels ---------------------------------------------------------------------------------

/// The library's round trip: one TileRows x 512-byte tile per block.
template <class T, int TileRows>
__global__ void __launch_bounds__(kThreads) smemtile_round_trip(const T* in, T* out, int rows, int cols) {
  constexpr int tile_cols = kTileBytesWide / static_cast<int>(sizeof(T));
  __shared__ smemtile::StaticTile<T, TileRows, tile_cols> tile;
  const smemtile::FixedThreadBlock<kThreads> block;
  const auto src = smemtile::make_global_matrix(in, rows, cols);
  const auto dst = smemtile::make_global_matrix(out, rows, cols);
  const smemtile::Coord origin{static_cast<int>(blockIdx.y) * TileRows, static_cast<int>(blockIdx.x) * tile_cols};
  smemtile::copy_global_to_tile(src, origin, tile, smemtile::boundary::Zero{}, block);
  block.sync();
  smemtile::copy_tile_to_global(tile, dst, origin, block);
}

/// The same round trip by hand: uint4 units, unit u of the tile at row u / 32, column u % 32.
template <int TileRows>
__global__ void __launch_bounds__(kThreads) raw_round_trip(const uint4* __restrict__ in, uint4* __restrict__ out,
                                                           long long pitch_units) {
  constexpr int units = TileRows * kUnitsPerTileRow;
  constexpr int per_thread = units / kThreads;
  static_assert(units % kThreads == 0, "whole units per thread");
  __shared__ uint4 tile[units];
  const long long first = static_cast<long long>(blockIdx.y) * TileRows * pitch_units +
                          static_cast<long long>(blockIdx.x) * kUnitsPerTileRow;
  uint4 held[per_thread];
#pragma unroll
  for (int i = 0; i < per_thread; ++i) {
    const int u = static_cast<int>(threadIdx.x) + i * kThreads;
    held[i] = in[first + (u / kUnitsPerTileRow) * pitch_units + u % kUnitsPerTileRow];
  }
#pragma unroll
  for (int i = 0; i < per_thread; ++i) tile[threadIdx.x + i * kThreads] = held[i];
  __syncthreads();
#pragma unroll
  for (int i = 0; i < per_thread; ++i) held[i] = tile[threadIdx.x + i * kThreads];
#pragma unroll
  for (int i = 0; i < per_thread; ++i) {
    const int u = static_cast<int>(threadIdx.x) + i * kThreads;
    out[first + (u / kUnitsPerTileRow) * pitch_units + u % kUnitsPerTileRow] = held[i];
  }
}

// ---- the benchmarks ------------------------------------------------------------------------------

long long buffer_bytes(nvbench::state& state) {
  const long long mib = state.get_int64("MiB");
  if (mib < 1) {
    std::fprintf(stderr, "copy_bench: MiB must be at least 1\n");
    std::exit(EXIT_FAILURE);
  }
  return mib << 20;  // MiB * 64 rows of 16384 bytes: whole tiles of 32 and 64 rows
}

void cuda_memcpy(nvbench::state& state) {
  print_device_once();
  Buffers buffers(buffer_bytes(state));
  state.add_global_memory_reads<nvbench::uint8_t>(static_cast<size_t>(buffers.bytes));
  state.add_global_memory_writes<nvbench::uint8_t>(static_cast<size_t>(buffers.bytes));

  buffers.poison_output();
  CUDA_CHECK(cudaMemcpy(buffers.out, buffers.in, static_cast<size_t>(buffers.bytes), cudaMemcpyDeviceToDevice));
  buffers.check_output("cudaMemcpy");

  state.exec([&](nvbench::launch& launch) {
    cudaMemcpyAsync(buffers.out, buffers.in, static_cast<size_t>(buffers.bytes), cudaMemcpyDeviceToDevice,
                    launch.get_stream());
  });
}
NVBENCH_BENCH(cuda_memcpy).set_name("cudaMemcpy").add_int64_axis("MiB", {256});

// Launch geometry shared by both round-trip kernels.
struct Grid {
  dim3 blocks;
  int rows;  // of the global array
};

template <int TileRows>
Grid round_trip_grid(long long bytes) {
  const int rows = static_cast<int>(bytes / kRowBytes);
  return Grid{dim3(static_cast<unsigned>(kRowBytes / kTileBytesWide), static_cast<unsigned>(rows / TileRows)), rows};
}

template <class T, int TileRows>
void run_smemtile(nvbench::state& state, Buffers& buffers, const char* what) {
  const Grid grid = round_trip_grid<TileRows>(buffers.bytes);
  const int cols = static_cast<int>(kRowBytes / static_cast<long long>(sizeof(T)));
  const T* in = static_cast<const T*>(buffers.in);
  T* out = static_cast<T*>(buffers.out);
  buffers.poison_output();
  smemtile_round_trip<T, TileRows><<<grid.blocks, kThreads>>>(in, out, grid.rows, cols);
  CUDA_CHECK_LAUNCH();
  buffers.check_output(what);
  state.exec([&](nvbench::launch& launch) {
    smemtile_round_trip<T, TileRows><<<grid.blocks, kThreads, 0, launch.get_stream()>>>(in, out, grid.rows, cols);
  });
}

template <int TileRows>
void run_raw(nvbench::state& state, Buffers& buffers, const char* what) {
  const Grid grid = round_trip_grid<TileRows>(buffers.bytes);
  const auto* in = static_cast<const uint4*>(buffers.in);
  auto* out = static_cast<uint4*>(buffers.out);
  const long long pitch_units = kRowBytes / 16;
  buffers.poison_output();
  raw_round_trip<TileRows><<<grid.blocks, kThreads>>>(in, out, pitch_units);
  CUDA_CHECK_LAUNCH();
  buffers.check_output(what);
  state.exec([&](nvbench::launch& launch) {
    raw_round_trip<TileRows><<<grid.blocks, kThreads, 0, launch.get_stream()>>>(in, out, pitch_units);
  });
}

template <class T>
void bench_round_trip(nvbench::state& state, bool library) {
  print_device_once();
  Buffers buffers(buffer_bytes(state));
  state.add_global_memory_reads<T>(static_cast<size_t>(buffers.bytes) / sizeof(T));
  state.add_global_memory_writes<T>(static_cast<size_t>(buffers.bytes) / sizeof(T));
  const std::string what = std::string(library ? "smemtile_round_trip " : "raw_round_trip ") + state.get_short_description();
  switch (state.get_int64("Loads")) {  // 16-byte loads per thread = TileRows * 32 / 256
    case 4:
      library ? run_smemtile<T, 32>(state, buffers, what.c_str()) : run_raw<32>(state, buffers, what.c_str());
      break;
    case 8:
      library ? run_smemtile<T, 64>(state, buffers, what.c_str()) : run_raw<64>(state, buffers, what.c_str());
      break;
    default:
      state.skip("Loads must be 4 or 8 (tiles of 32 or 64 rows of 512 bytes)");
  }
}

template <class T>
void smemtile_copy(nvbench::state& state, nvbench::type_list<T>) {
  bench_round_trip<T>(state, true);
}

template <class T>
void raw_copy(nvbench::state& state, nvbench::type_list<T>) {
  bench_round_trip<T>(state, false);
}

}  // namespace

NVBENCH_DECLARE_TYPE_STRINGS(Bytes16, "B16", "16-byte struct");

using element_types = nvbench::type_list<nvbench::uint8_t, nvbench::int16_t, nvbench::float32_t, nvbench::float64_t, Bytes16>;

NVBENCH_BENCH_TYPES(smemtile_copy, NVBENCH_TYPE_AXES(element_types))
    .set_name("smemtile_round_trip")
    .set_type_axes_names({"T"})
    .add_int64_axis("Loads", {4, 8})
    .add_int64_axis("MiB", {256});

NVBENCH_BENCH_TYPES(raw_copy, NVBENCH_TYPE_AXES(element_types))
    .set_name("raw_round_trip")
    .set_type_axes_names({"T"})
    .add_int64_axis("Loads", {4, 8})
    .add_int64_axis("MiB", {256});
