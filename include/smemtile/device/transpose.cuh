// smemtile/device/transpose.cuh: device_transpose, a host function that transposes matrices.
//
//   smemtile::LaunchStatus s = smemtile::device_transpose(d_in, d_out, rows, cols, stream);
//   if (!s) std::fprintf(stderr, "%s\n", s.message.c_str());
//
// `in` is rows x cols row-major (rows `ld_in` elements apart), `out` becomes cols x rows row-major
// (rows `ld_out` apart); a batch of matrices `stride_in` / `stride_out` elements apart is
// transposed by one launch. Elements of 1, 2, 4, 8 or 16 bytes, any trivially copyable type
// (char, half, float, double, float4, double2, ...). In-place transposes are not supported: `in`
// and `out` must not overlap. Asynchronous on `stream`: the status covers the arguments and the
// launch, not the kernel's completion.
//
// Each block transposes one tile through shared memory. Where the output's rows allow 16-byte
// stores (pointer, pitch and batch stride multiples of 16 bytes), the tile is a TransposeTile: loaded
// in 16-byte chunks where the input allows (element by element otherwise) and stored by
// copy_tile_to_global_transposed in register blocks of 16-byte columns (block/transpose.cuh). Where
// it does not, and for all 8- and 16-byte elements, the tile is tall and padded and both sides move
// element by element, coalesced: a warp's stores then cover consecutive elements of one output row
// rather than every fourth (bytes take a WordTransposeTile instead: 4 x 4 byte blocks whose words
// each warp realigns). 1- and 2-byte rows that are not 4-byte aligned are loaded as realigned words.
// Every tile is conflict-free for its accesses (checked at compile time).
#pragma once

#include <cuda_runtime.h>

#include <climits>      // INT_MAX
#include <string>
#include <type_traits>  // std::is_trivially_copyable

#include "../block/copy.cuh"                // detail::copy, SyncMove, SyncMoveFetch256
#include "../block/thread_group.cuh"        // FixedThreadBlock
#include "../block/transpose.cuh"           // copy_tile_to_global_transposed
#include "../core/conflict_free_tiles.cuh"  // TransposeTile
#include "../core/global_view.cuh"          // make_global_matrix
#include "../core/static_tile.cuh"          // StaticTile (the padded tile)
#include "launch.cuh"                       // LaunchStatus

namespace smemtile {

/// The shape of one device_transpose call: in is rows x cols (ld_in apart), out is cols x rows
/// (ld_out apart), batch matrices stride_in / stride_out elements apart.
struct TransposeShape {
  long long rows;        ///< rows of each input matrix
  long long cols;        ///< columns of each input matrix
  long long ld_in;       ///< elements from one input row to the next (>= cols)
  long long ld_out;      ///< elements from one output row to the next (>= rows)
  long long batch;       ///< number of matrices
  long long stride_in;   ///< elements from one input matrix to the next
  long long stride_out;  ///< elements from one output matrix to the next
};

/// Elements from the first to one past the last element a matrix of `rows` rows of `cols`, `ld`
/// apart, touches (0 for an empty one).
SMEMTILE_HOST_DEVICE constexpr long long matrix_span(long long rows, long long cols, long long ld) {
  return rows == 0 || cols == 0 ? 0 : (rows - 1) * ld + cols;
}

/// Why device_transpose cannot run on these arguments, or nullptr when it can. `in` and `out` are
/// the addresses (as integers, so that this is testable on the host); element size and alignment
/// in bytes. An empty transpose (rows, cols or batch 0) is valid whatever the pointers are.
SMEMTILE_HOST_DEVICE constexpr const char* transpose_argument_error(unsigned long long in, unsigned long long out,
                                                                    TransposeShape s, int elem_bytes,
                                                                    int elem_alignment) {
  if (s.rows < 0 || s.cols < 0) return "rows and cols must not be negative";
  if (s.batch < 0) return "the batch count must not be negative";
  if (s.rows > INT_MAX || s.cols > INT_MAX) return "rows and cols must fit in an int";
  if (s.rows == 0 || s.cols == 0 || s.batch == 0) return nullptr;  // nothing to do
  if (in == 0 || out == 0) return "in and out must not be null";
  if (in % elem_alignment != 0 || out % elem_alignment != 0)
    return "in and out must be aligned for the element type";
  if (s.ld_in < s.cols) return "ld_in (the input's pitch, in elements) is smaller than a row (cols)";
  if (s.ld_out < s.rows) return "ld_out (the output's pitch, in elements) is smaller than an output row (rows)";
  if (s.ld_in > INT_MAX || s.ld_out > INT_MAX) return "pitches must fit in an int";
  const long long span_in = matrix_span(s.rows, s.cols, s.ld_in);
  const long long span_out = matrix_span(s.cols, s.rows, s.ld_out);
  if (s.batch > 1 && s.stride_out < span_out)
    return "stride_out is smaller than one output matrix: the batch's outputs would overlap";
  if (s.batch > 1 && s.stride_in < 0) return "stride_in must not be negative";
  const long long last_in = (s.batch - 1) * s.stride_in + span_in;  // elements, from in
  const long long last_out = (s.batch - 1) * s.stride_out + span_out;
  const unsigned long long in_end = in + static_cast<unsigned long long>(last_in) * elem_bytes;
  const unsigned long long out_end = out + static_cast<unsigned long long>(last_out) * elem_bytes;
  if (in < out_end && out < in_end)
    return "in and out overlap: an in-place transpose is not supported (use a separate output)";
  return nullptr;
}

/// The register-block tile (TransposeTile) device_transpose uses for 1-, 2- and 4-byte elements
/// where the output's rows take 16-byte stores (256 threads per block). 8- and 16-byte elements
/// use TransposeElementTileShape's padded tiles, which measured faster.
template <int ElemBytes>
struct TransposeTileShape;
/// 1-byte elements: 128 x 128 (16 x 4 byte blocks, one per thread).
template <> struct TransposeTileShape<1> {
  static constexpr int rows = 128;  ///< tile rows
  static constexpr int cols = 128;  ///< tile columns
};
/// 2-byte elements: 128 x 64 (8 x 2 blocks of halves, two per thread).
template <> struct TransposeTileShape<2> {
  static constexpr int rows = 128;  ///< tile rows
  static constexpr int cols = 64;   ///< tile columns
};
/// 4-byte elements: 64 x 64 (one 4 x 4 block per thread).
template <> struct TransposeTileShape<4> {
  static constexpr int rows = 64;  ///< tile rows
  static constexpr int cols = 64;  ///< tile columns
};
/// The tile (WordTransposeTile) device_transpose uses for 1-byte elements where the output's rows
/// cannot take 16-byte stores (odd pitches, say): 32 blocks of 4 rows, one per lane, by 128
/// columns; loaded in realigned 4-byte words, stored in 4 x 4 byte blocks realigned across lanes
/// (block/transpose.cuh), a quarter of the accesses of moving bytes one by one.
template <int ElemBytes>
struct TransposeWordTileShape {
  static_assert(ElemBytes == 1 || ElemBytes == 2, "smemtile::TransposeWordTileShape: elements of 1 or 2 bytes");
  static constexpr int rows = 128 / ElemBytes;  ///< tile rows
  static constexpr int cols = 128;              ///< tile columns
};

/// The padded tile device_transpose uses for 8- and 16-byte elements, and for 2- and 4-byte
/// elements where the output's rows cannot take 16-byte stores (odd pitches, say): rows x cols
/// elements of ElemBytes bytes plus `pad` unused elements after each row, so that a warp walking a
/// row or a column touches every bank once. Tall tiles: each output row gets `rows` consecutive
/// elements from one block (128 to 1024 bytes), so fewer of its 32-byte sectors are written partly
/// by two blocks. Measured on an H200 (% of cudaMemcpy in one run), at 8191 x 8193 against tiles of
/// 32 to 256 rows and 16 to 128 columns: 1 byte 50, 2 bytes 68, 4 bytes 86, 8 bytes 90, 16 bytes
/// 89 (64 x 64 tiles: 43, 55, 66, 83, 85). At 8192 x 8192 the 8- and 16-byte tiles beat the
/// register-block TransposeTiles (97 against 95, 92 against 92) and at 65536 x 1024 too (95
/// against 92, 94 against 92); for 4-byte elements they were even (94 against 93, 91 against 92).
template <int ElemBytes>
struct TransposeElementTileShape {
  static_assert(ElemBytes == 1 || ElemBytes == 2 || ElemBytes == 4 || ElemBytes == 8 || ElemBytes == 16,
                "smemtile::TransposeElementTileShape: elements of 1, 2, 4, 8 or 16 bytes");
  static constexpr int rows = ElemBytes == 16 ? 64 : 128;                             ///< tile rows
  static constexpr int cols = ElemBytes == 1 ? 128 : ElemBytes == 2 ? 64 : 32;        ///< tile columns
  /// Padding after each row: one 4-byte word for 1- and 2-byte elements, one element otherwise.
  static constexpr int pad = ElemBytes >= 4 ? 1 : 4 / ElemBytes;
};

namespace detail {

// Where the t-th tile of a tiles_down x tiles_across grid goes when tiles are taken `group_rows`
// tile rows at a time, down the group first: the blocks running at once then cover a band of
// nearby rows of `in` and of `out` both, instead of whole input rows and scattered output rows
// (the ordering GPU matrix kernels use for L2 and DRAM locality).
SMEMTILE_HOST_DEVICE constexpr Coord grouped_tile(int t, int tiles_down, int tiles_across, int group_rows) {
  const int per_group = group_rows * tiles_across;
  const int group = t / per_group;
  const int first_row = group * group_rows;
  const int rows_here = tiles_down - first_row < group_rows ? tiles_down - first_row : group_rows;
  const int within = t - group * per_group;
  return Coord{first_row + within % rows_here, within / rows_here};
}

}  // namespace detail

#if defined(__CUDACC__)

namespace detail {

inline constexpr int transpose_threads = 256;

// Blocks per multiprocessor asked of the register allocator (__launch_bounds__), per tile: more
// blocks in flight hide more of DRAM's latency, as long as the fast path keeps its values in
// registers (the edge paths may then take longer, not the interior). Against 4 blocks (64
// registers), NVBench, % of cudaMemcpy (H200 / H100): register-block byte tiles with 6 (40
// registers) 90.2 -> 93.4 / 91.8 -> 93.8 at 65536 x 1024, 92.7 -> 93.5 / 94.0 -> 94.3 at 8192^2 (8
// blocks spilled: half the speed); padded tiles at 8191 x 8193: halves with 5 65.6 -> 68.5 / 76.8 ->
// 74.0, floats with 6 82.0 -> 85.3 / 87.1 -> 85.3, 8-byte elements with 5 89.7 -> 91.6 / 91.3 ->
// 91.7 (6 spilled: -10%). Kept at 4: word tiles of bytes (6: 54.9 -> 53.0 / 60.4 -> 55.8), the
// register-block tiles of halves and floats (5 or 6 lost 0.5% in probes), 16-byte elements (not
// measured).
template <class Tile, int ElemBytes>
constexpr int transpose_min_blocks() {
  using Layout = typename std::remove_reference_t<Tile>::layout_type;
  if constexpr (IsTransposeLayout<Layout>::value) return ElemBytes == 1 ? 6 : 4;
  else if constexpr (IsWordTransposeLayout<Layout>::value) return 4;
  else return ElemBytes == 2 || ElemBytes == 8 ? 5 : ElemBytes == 4 ? 6 : 4;  // padded element tiles
}

// The bits of an element: one kernel per (size, alignment), whatever the type, held in the widest
// words its alignment allows (so that moving one is one or a few register moves, not byte packing).
template <int Align>
using AlignedWord = std::conditional_t<Align >= 8, unsigned long long,
                                       std::conditional_t<Align >= 4, unsigned, std::conditional_t<Align >= 2, unsigned short, unsigned char>>>;
template <int Size, int Align>
struct alignas(Align) ElementBits {
  AlignedWord<(Align < Size ? Align : Size)> words[Size / sizeof(AlignedWord<(Align < Size ? Align : Size)>)];
};

// One tile per block: blockIdx.x is the tile (grouped_tile's order), blockIdx.y + blockIdx.z *
// gridDim.y the matrix of the batch. No loop: a loop around the tile let the compiler hoist the
// tile's shared addresses out of it and spill them (measured: 76% of cudaMemcpy for bytes at
// 8192 x 8192 against 93% without the loop, on an H200).
template <class Tile, class Bits>
__global__ void __launch_bounds__(transpose_threads, (transpose_min_blocks<Tile, static_cast<int>(sizeof(Bits))>()))
    transpose_kernel(const Bits* in, Bits* out, int rows, int cols, int ld_in, int ld_out, int batch,
                     long long stride_in, long long stride_out, int tiles_down, int tiles_across, int group_rows) {
  using Block = FixedThreadBlock<transpose_threads>;
  __shared__ Tile tile;
  const long long matrix = blockIdx.y + static_cast<long long>(blockIdx.z) * gridDim.y;
  if (matrix >= batch) return;
  const auto source = make_global_matrix(in + matrix * stride_in, rows, cols, ld_in);
  const auto target = make_global_matrix(out + matrix * stride_out, cols, rows, ld_out);
  const Coord tile_at = grouped_tile(static_cast<int>(blockIdx.x), tiles_down, tiles_across, group_rows);
  constexpr auto layout = Tile::layout();
  const Coord origin{tile_at.row * layout.rows(), tile_at.col * layout.cols()};
  // Tiles of bytes and halves, whose rows are one 128-byte line: the loads ask L2 for 256 bytes,
  // the other half being the next tile's, which a block running beside this one reads. On an H200,
  // % of cudaMemcpy against without: bytes 8192^2 92.5 / 91, 65536 x 1024 92 / 90, 8192 x 8193
  // 68 / 66.5 (8191 x 8193 51 / 51); halves 8192^2 94.8 / 92.4, 8192 x 8193 75 / 71. Tiles of
  // 256-byte rows, and the padded float tiles of 128-byte rows, lost 0.5-1.5% with it.
  constexpr bool fetch_256 = sizeof(Bits) <= 2 && layout.cols() * static_cast<int>(sizeof(Bits)) <= 128;
  copy<true, std::conditional_t<fetch_256, SyncMoveFetch256, SyncMove>>(source, origin, tile_ref(tile),
                                                                         boundary::Zero{}, Block{});
  __syncthreads();
  copy_tile_to_global_transposed(tile, target, origin.transposed(), Block{});
}

// Tile rows per group (grouped_tile). On an H200 the choice moved large transposes by at most
// 1-2% (groups of 1 to 64 tried); 64 was as good as any and best on odd shapes. (A persistent,
// cp.async double-buffered variant of this kernel was measured too and lost: 85-91% of cudaMemcpy
// against 95-96% for 4- and 8-byte elements at 8192 x 8192.)
inline constexpr int transpose_group_rows = 64;

// Whether every row of every matrix of `p` (pitch `ld`, batch stride `stride`, in elements of
// `elem_bytes`) starts on a 16-byte boundary.
inline bool rows_16_byte_aligned(const void* p, long long ld, long long stride, int batch, int elem_bytes) {
  return reinterpret_cast<unsigned long long>(p) % 16 == 0 && (ld * elem_bytes) % 16 == 0 &&
         (batch <= 1 || (stride * elem_bytes) % 16 == 0);
}

// The tile for outputs whose rows cannot take 16-byte stores (and for all 8- and 16-byte elements):
// word blocks for 1-byte elements, the padded element tile otherwise. (Word blocks of 2-byte
// elements measured slower than the padded tile on an H200: 63% of cudaMemcpy against 69% at
// 8191 x 8193; for bytes they were faster, 56% against 54%, and 64% against 55% at 8193 x 8192.)
template <class Bits, int E = static_cast<int>(sizeof(Bits))>
struct UnalignedTransposeTile {
  using Shape = TransposeElementTileShape<E>;
  using type = StaticTile<Bits, Shape::rows, Shape::cols, Shape::pad>;
};
template <class Bits>
struct UnalignedTransposeTile<Bits, 1> {
  using type = WordTransposeTile<Bits, TransposeWordTileShape<1>::rows, TransposeWordTileShape<1>::cols>;
};

// Launches transpose_kernel with Tile: one block per tile and matrix.
template <class Tile, class Bits>
LaunchStatus launch_transpose(const Bits* in, Bits* out, int rows, int cols, int ld_in, int ld_out, int batch,
                              long long stride_in, long long stride_out, cudaStream_t stream) {
  constexpr auto layout = Tile::layout();
  const int tiles_across = (cols + layout.cols() - 1) / layout.cols();
  const int tiles_down = (rows + layout.rows() - 1) / layout.rows();
  const long long tiles = static_cast<long long>(tiles_across) * tiles_down;
  if (tiles > INT_MAX)
    return failed_launch(cudaErrorInvalidValue, "smemtile::device_transpose: the matrix has more than 2^31 - 1 "
                                                   "tiles, more than one grid holds");
  constexpr int max_grid_y = 65535;
  const int grid_y = batch < max_grid_y ? batch : max_grid_y;
  const dim3 grid(static_cast<unsigned>(tiles), static_cast<unsigned>(grid_y),
                  static_cast<unsigned>((batch + grid_y - 1) / grid_y));
  transpose_kernel<Tile><<<grid, transpose_threads, 0, stream>>>(in, out, rows, cols, ld_in, ld_out, batch, stride_in,
                                                                 stride_out, tiles_down, tiles_across,
                                                                 transpose_group_rows);
  const cudaError_t error = cudaGetLastError();
  if (error != cudaSuccess)
    return failed_launch(error, std::string("smemtile::device_transpose: launch failed: ") + cudaGetErrorString(error));
  return LaunchStatus{};
}

}  // namespace detail

/// Transposes `batch` matrices: out_b(c, r) = in_b(r, c), in_b at in + b * stride_in (rows x cols,
/// rows ld_in apart), out_b at out + b * stride_out (cols x rows, rows ld_out apart). Pitches and
/// strides are in elements. Invalid arguments (null, negative sizes, pitches below a row, in and
/// out overlapping, outputs of a batch overlapping, misaligned pointers) return a status with
/// cudaErrorInvalidValue and a message; empty transposes return success without a launch.
template <class T>
LaunchStatus device_transpose(const T* in, T* out, int rows, int cols, int ld_in, int ld_out, int batch,
                              long long stride_in, long long stride_out, cudaStream_t stream = 0) {
  static_assert(std::is_trivially_copyable<T>::value, "smemtile::device_transpose: T must be trivially copyable");
  static_assert(sizeof(T) == 1 || sizeof(T) == 2 || sizeof(T) == 4 || sizeof(T) == 8 || sizeof(T) == 16,
                "smemtile::device_transpose: elements of 1, 2, 4, 8 or 16 bytes only");
  const TransposeShape shape{rows, cols, ld_in, ld_out, batch, stride_in, stride_out};
  if (const char* why = transpose_argument_error(reinterpret_cast<unsigned long long>(in),
                                                 reinterpret_cast<unsigned long long>(out), shape,
                                                 static_cast<int>(sizeof(T)), static_cast<int>(alignof(T))))
    return detail::failed_launch(cudaErrorInvalidValue, std::string("smemtile::device_transpose: ") + why);
  if (rows == 0 || cols == 0 || batch == 0) return LaunchStatus{};

  constexpr int E = static_cast<int>(sizeof(T));
  using Bits = detail::ElementBits<E, static_cast<int>(alignof(T))>;
  const Bits* in_bits = reinterpret_cast<const Bits*>(in);
  Bits* out_bits = reinterpret_cast<Bits*>(out);
  using UnalignedTile = typename detail::UnalignedTransposeTile<Bits>::type;
  if constexpr (E <= 4) {
    // Register blocks of 16-byte columns pay off where the output takes 16-byte stores.
    using VectorTile = TransposeTile<Bits, TransposeTileShape<E>::rows, TransposeTileShape<E>::cols>;
    if (detail::rows_16_byte_aligned(out, ld_out, stride_out, batch, E))
      return detail::launch_transpose<VectorTile>(in_bits, out_bits, rows, cols, ld_in, ld_out, batch, stride_in,
                                                  stride_out, stream);
  }
  return detail::launch_transpose<UnalignedTile>(in_bits, out_bits, rows, cols, ld_in, ld_out, batch, stride_in,
                                                 stride_out, stream);
}

/// Transposes one dense matrix: out (cols x rows) = in (rows x cols) transposed.
template <class T>
LaunchStatus device_transpose(const T* in, T* out, int rows, int cols, cudaStream_t stream = 0) {
  return device_transpose(in, out, rows, cols, cols, rows, 1, 0, 0, stream);
}

#endif  // __CUDACC__

}  // namespace smemtile
