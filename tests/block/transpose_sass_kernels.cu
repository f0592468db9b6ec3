// tests/block/transpose_sass_kernels.cu: block-level transposes compiled to SASS by the
// transpose SASS test, which requires the instructions named in CMakeLists.txt (and no generic
// LD/ST: shared data stays in the shared window).
#include <smemtile/smemtile.cuh>

using namespace smemtile;

// Register blocks of floats: 16-byte loads and chunk stores into the tile, 16-byte block reads,
// 16-byte column stores.
__global__ void transpose_blocks_floats(GlobalMatrix<const float> in, GlobalMatrix<float> out) {
  __shared__ TransposeTile<float, 64, 64> tile;
  const Coord origin = block_tile_origin({64, 64});
  copy_global_to_tile(in, origin, tile, boundary::zero, FixedThreadBlock<256>{});
  __syncthreads();
  copy_tile_to_global_transposed(tile, out, origin.transposed(), FixedThreadBlock<256>{});
}

// Bytes to rows of any alignment: realigned word loads, word stores into the tile, word-block
// reads, words joined across lanes (SHFL) and stored as words.
__global__ void transpose_words_static(GlobalMatrix<const unsigned char> in, GlobalMatrix<unsigned char> out) {
  __shared__ WordTransposeTile<unsigned char, 128, 128> tile;
  const Coord origin = block_tile_origin({128, 128});
  copy_global_to_tile(in, origin, tile, boundary::zero, FixedThreadBlock<256>{});
  __syncthreads();
  copy_tile_to_global_transposed(tile, out, origin.transposed(), FixedThreadBlock<256>{});
}

// The same tile carved from dynamic shared memory.
SMEMTILE_HOST_DEVICE TileRef<unsigned char, WordTransposeLayout<128, 128, 1>> carve_words(Arena& arena) {
  return arena.tile<unsigned char>(WordTransposeLayout<128, 128, 1>{});
}
__global__ void transpose_words_carved(GlobalMatrix<const unsigned char> in, GlobalMatrix<unsigned char> out) {
  const TileRef<unsigned char, WordTransposeLayout<128, 128, 1>> tile = carve_dynamic_shared_memory(carve_words);
  const Coord origin = block_tile_origin({128, 128});
  copy_global_to_tile(in, origin, tile, boundary::zero, FixedThreadBlock<256>{});
  __syncthreads();
  copy_tile_to_global_transposed(tile, out, origin.transposed(), FixedThreadBlock<256>{});
}

// device_transpose's kernel for bytes to 16-byte aligned rows: register blocks whose rows are one
// 128-byte line, loaded with L2 fetching 256 bytes (the next tile column's line too).
namespace smemtile::detail {
using ByteBits = ElementBits<1, 1>;
using BytePolicy = DefaultTransposePolicy<1, TransposeAlgorithm::register_blocks>::type;
template __global__ void transpose_kernel<BytePolicy, ByteBits>(
    const ByteBits*, ByteBits*, int, int, int, int, int, long long, long long, TransposeGrid, int);
}  // namespace smemtile::detail

// A padded tile of floats stored to rows of any alignment (device_transpose at odd shapes, through
// the plain copies): element loads and stores on both sides, the stores in sector runs where the
// rows do not start on 32-byte sectors; shared data in the shared window all the while.
__global__ void transpose_padded_floats(GlobalMatrix<const float> in, GlobalMatrix<float> out) {
  __shared__ StaticTile<float, 128, 32, 1> tile;
  const Coord origin = block_tile_origin({128, 32});
  copy_global_to_tile(in, origin, tile, boundary::zero, FixedThreadBlock<256>{});
  __syncthreads();
  copy_tile_to_global_transposed(tile, out, origin.transposed(), FixedThreadBlock<256>{});
}

// device_transpose's record kernels (issue 21): bytes, on the record path, move the contiguous side of
// global memory in 16-byte accesses (element accesses only on heads and tails) and keep shared data in
// the shared window; floats and 16-byte elements, staged (narrow_records_staged), one access per element
// everywhere, unspilled at the 8 blocks they ask for; small_batch of floats as bytes' narrow kernels.
namespace smemtile::detail {
using ByteBits = ElementBits<1, 1>;
using FloatBits = ElementBits<4, 4>;
using ChunkBits = ElementBits<16, 16>;
template __global__ void transpose_record_kernel<DefaultTransposePolicy<1, TransposeAlgorithm::narrow_rows>::type, ByteBits>(
    const ByteBits*, ByteBits*, int, int, int, int, int, long long, long long, int, int, FastDivmod);
template __global__ void transpose_record_kernel<DefaultTransposePolicy<1, TransposeAlgorithm::narrow_cols>::type, ByteBits>(
    const ByteBits*, ByteBits*, int, int, int, int, int, long long, long long, int, int, FastDivmod);
template __global__ void transpose_record_kernel<DefaultTransposePolicy<4, TransposeAlgorithm::narrow_rows>::type, FloatBits>(
    const FloatBits*, FloatBits*, int, int, int, int, int, long long, long long, int, int, FastDivmod);
template __global__ void transpose_record_kernel<DefaultTransposePolicy<4, TransposeAlgorithm::narrow_cols>::type, FloatBits>(
    const FloatBits*, FloatBits*, int, int, int, int, int, long long, long long, int, int, FastDivmod);
template __global__ void transpose_record_kernel<DefaultTransposePolicy<4, TransposeAlgorithm::small_batch>::type, FloatBits>(
    const FloatBits*, FloatBits*, int, int, int, int, int, long long, long long, int, int, FastDivmod);
template __global__ void transpose_record_kernel<DefaultTransposePolicy<16, TransposeAlgorithm::narrow_rows>::type, ChunkBits>(
    const ChunkBits*, ChunkBits*, int, int, int, int, int, long long, long long, int, int, FastDivmod);
template __global__ void transpose_record_kernel<DefaultTransposePolicy<16, TransposeAlgorithm::narrow_cols>::type, ChunkBits>(
    const ChunkBits*, ChunkBits*, int, int, int, int, int, long long, long long, int, int, FastDivmod);

// The narrow register kernels: bytes, 3 channels split (cp.async 16-byte staging, 16-byte shared
// reads, regrouped chunks stored as single 16-byte stores), halves, 8 channels merged (16-byte
// channel loads, 16-byte shared stores and reads, 16-byte stores of the records).
using ByteBits = ElementBits<1, 1>;
using HalfBits = ElementBits<2, 2>;
template __global__ void transpose_narrow_registers_kernel<
    DefaultNarrowRegisterPolicy<1, TransposeAlgorithm::narrow_rows_registers, 3>::type, ByteBits>(
    const ByteBits*, ByteBits*, int, int, int, long long, long long, int, bool);
template __global__ void transpose_narrow_registers_kernel<
    DefaultNarrowRegisterPolicy<2, TransposeAlgorithm::narrow_cols_registers, 8>::type, HalfBits>(
    const HalfBits*, HalfBits*, int, int, int, long long, long long, int, bool);

// Channel groups and channel words (K above 8): floats, 12 channels merged by groups (16-byte channel
// loads, element loads where the rows are off 16 bytes, 16-byte shared stores and reads, 16-byte
// record stores); bytes, 16 channels split by groups (16-byte cp.async staging and reads, 16-byte
// channel stores, windows shifted across lanes for rows off 16 bytes); bytes, 12 channels split by
// 4-byte words (16-byte cp.async and reads, 4-byte channel stores); halves, 10 channels merged by
// 8-byte words (8-byte channel loads, 16-byte shared stores and reads, 16-byte record stores).
using FloatBits = ElementBits<4, 4>;
template __global__ void transpose_narrow_registers_kernel<
    DefaultNarrowRegisterPolicy<4, TransposeAlgorithm::narrow_cols_registers, 12>::type, FloatBits>(
    const FloatBits*, FloatBits*, int, int, int, long long, long long, int, bool);
template __global__ void transpose_narrow_registers_kernel<
    DefaultNarrowRegisterPolicy<1, TransposeAlgorithm::narrow_rows_registers, 16>::type, ByteBits>(
    const ByteBits*, ByteBits*, int, int, int, long long, long long, int, bool);
template __global__ void transpose_narrow_registers_kernel<
    DefaultNarrowRegisterPolicy<1, TransposeAlgorithm::narrow_rows_registers, 12>::type, ByteBits>(
    const ByteBits*, ByteBits*, int, int, int, long long, long long, int, bool);
template __global__ void transpose_narrow_registers_kernel<
    DefaultNarrowRegisterPolicy<2, TransposeAlgorithm::narrow_cols_registers, 10>::type, HalfBits>(
    const HalfBits*, HalfBits*, int, int, int, long long, long long, int, bool);

// small_batch_staged, floats and bytes: whole chunks staged by 16-byte cp.async, the partial chunks at
// a run's ends by read-only global loads and shared stores, the stage gathered from the shared window
// and the pieces stored whole (16 bytes for floats, 8 for bytes).
template __global__ void transpose_batch_staged_kernel<DefaultTransposePolicy<4, TransposeAlgorithm::small_batch_staged>::type, FloatBits>(
    const FloatBits*, FloatBits*, int, int, TransposedRunGeometry);
template __global__ void transpose_batch_staged_kernel<DefaultTransposePolicy<1, TransposeAlgorithm::small_batch_staged>::type, ByteBits>(
    const ByteBits*, ByteBits*, int, int, TransposedRunGeometry);

// realigned_rows, bytes and halves: rows staged by 16-byte cp.async (the chunks reaching outside the
// matrix by read-only loads), read back 8 bytes at a time from the shared window, output chunks
// completed by shuffles and stored 16 bytes at a time (edge rows element by element).
template __global__ void transpose_realigned_kernel<DefaultTransposePolicy<1, TransposeAlgorithm::realigned_rows>::type, ByteBits>(
    const ByteBits*, ByteBits*, int, int, int, int, int, long long, long long, TransposeGrid, int);
template __global__ void transpose_realigned_kernel<DefaultTransposePolicy<2, TransposeAlgorithm::realigned_rows>::type, HalfBits>(
    const HalfBits*, HalfBits*, int, int, int, int, int, long long, long long, TransposeGrid, int);

// The rotated algorithms, 9 floats: channel chunks by 16-byte loads and stores, the stage's rotated
// side in 4-byte accesses, its flat side in 16-byte ones; nothing in local memory (the rotation's
// selects keep each chunk in registers), also on the paths for channel rows off 16 bytes (aligned
// windows both ways, thread 0's by elements; no shuffles).
template __global__ void transpose_narrow_rotated_kernel<
    DefaultNarrowRotatedPolicy<4, TransposeAlgorithm::narrow_cols_rotated, 9>::type, FloatBits>(
    const FloatBits*, FloatBits*, int, long long, long long, long long, int, bool);
template __global__ void transpose_narrow_rotated_kernel<
    DefaultNarrowRotatedPolicy<4, TransposeAlgorithm::narrow_rows_rotated, 9>::type, FloatBits>(
    const FloatBits*, FloatBits*, int, long long, long long, long long, int, bool);

// 21 floats split into rows off 16 bytes: aligned chunks shifted across lanes (rotated_split_windows).
template __global__ void transpose_narrow_rotated_kernel<
    DefaultNarrowRotatedPolicy<4, TransposeAlgorithm::narrow_rows_rotated, 21>::type, FloatBits>(
    const FloatBits*, FloatBits*, int, long long, long long, long long, int, bool);

// 9 bytes and 31 halves: records packed a word, the same accesses and byte permutes (PRMT) between
// channel words and packed words; still nothing in local memory at 31 halves' registers.
template __global__ void transpose_narrow_rotated_kernel<
    DefaultNarrowRotatedPolicy<1, TransposeAlgorithm::narrow_cols_rotated, 9>::type, ByteBits>(
    const ByteBits*, ByteBits*, int, long long, long long, long long, int, bool);
template __global__ void transpose_narrow_rotated_kernel<
    DefaultNarrowRotatedPolicy<1, TransposeAlgorithm::narrow_rows_rotated, 9>::type, ByteBits>(
    const ByteBits*, ByteBits*, int, long long, long long, long long, int, bool);
template __global__ void transpose_narrow_rotated_kernel<
    DefaultNarrowRotatedPolicy<2, TransposeAlgorithm::narrow_rows_rotated, 31>::type, HalfBits>(
    const HalfBits*, HalfBits*, int, long long, long long, long long, int, bool);
}  // namespace smemtile::detail
