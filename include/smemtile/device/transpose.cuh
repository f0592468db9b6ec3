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
// rather than every fourth, in runs that start on the row's 32-byte sectors where the rows do not
// (block/copy.cuh, store_elements_sector_runs); bytes take a WordTransposeTile instead: 4 x 4 byte
// blocks whose words each warp realigns. 1- and 2-byte rows that are not 4-byte aligned are loaded
// as realigned words.
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

/// The grid of one device_transpose launch: blockIdx.x counts tile rows, so the hardware, which
/// starts blocks x first, takes the tiles down whole columns of tiles (`together` columns side by
/// side). The blocks running at once then read a few tile columns of `in` and write a few whole rows
/// of `out`. Measured on an H200 (% of cudaMemcpy) against the earlier groups of 64 tile rows:
/// floats 8192^2 94.3 -> 97.2, 65536 x 1024 93.3 -> 96.2; 16-byte elements 8191 x 8193 90.0 ->
/// 93.0, 65536 x 1024 94.3 -> 96.1; 8-byte elements 65536 x 1024 95.6 -> 97.1. Tiles whose rows
/// are one 128-byte line (bytes, halves) load with a 256-byte L2 fetch whose other half is the next
/// tile column's: they go down two columns together, else that half is fetched long before it is
/// read. blockIdx.y is the column (pair) and blockIdx.z the matrix of a batch, unless either
/// exceeds `max_grid_yz`: then (`folded`) y and z together count column (pair)s x matrices.
struct TransposeGrid {
  unsigned x = 0;       ///< gridDim.x: tile rows x columns taken together
  unsigned y = 0;       ///< gridDim.y: tile column groups (or, folded, the first factor of groups x matrices)
  unsigned z = 0;       ///< gridDim.z: matrices (or, folded, the second factor)
  bool folded = false;  ///< y and z count column groups x matrices together
};

/// The grid for tiles_down x tiles_across tiles of `batch` matrices, `together` tile columns side by
/// side, or x == 0 when no grid holds them (over 2^31 - 1 blocks down, or over max_grid_yz^2 column
/// groups x matrices).
SMEMTILE_HOST_DEVICE constexpr TransposeGrid transpose_grid(long long tiles_down, long long tiles_across,
                                                            long long batch, int together = 1,
                                                            long long max_grid_yz = 65535) {
  if (tiles_down < 1 || tiles_across < 1 || batch < 1 || together < 1 || tiles_down * together > 2147483647LL)
    return TransposeGrid{};
  const unsigned x = static_cast<unsigned>(tiles_down * together);
  const long long groups = (tiles_across + together - 1) / together;
  if (groups <= max_grid_yz && batch <= max_grid_yz)
    return TransposeGrid{x, static_cast<unsigned>(groups), static_cast<unsigned>(batch), false};
  const long long columns = groups * batch;  // both < 2^31: no overflow
  if (columns > max_grid_yz * max_grid_yz) return TransposeGrid{};
  const long long y = columns < max_grid_yz ? columns : max_grid_yz;
  return TransposeGrid{x, static_cast<unsigned>(y), static_cast<unsigned>((columns + y - 1) / y), true};
}

/// Which tile of which matrix block (x, y, z) of a transpose_grid() transposes; matrix is -1 for
/// the blocks that have none (past the last matrix of a folded grid, past the last tile column).
struct TransposeBlockTile {
  Coord tile;  ///< tile row and column
  int matrix;  ///< matrix of the batch, or -1
};

/// The tile of block (x, y, z) of `grid` (made with the same Together), whose matrices are
/// tiles_across tile columns wide.
template <int Together = 1>
SMEMTILE_HOST_DEVICE constexpr TransposeBlockTile transpose_block_tile(TransposeGrid grid, unsigned x, unsigned y,
                                                                       unsigned z, int tiles_across, int batch) {
  unsigned group = y, matrix = z;
  if (grid.folded) {
    const unsigned groups = (static_cast<unsigned>(tiles_across) + Together - 1) / Together;
    const unsigned index = y + z * grid.y;  // < max_grid_yz^2 <= 2^32
    matrix = index / groups;
    group = index - matrix * groups;
  }
  const int col = static_cast<int>(group * Together + x % Together);
  const bool exists = matrix < static_cast<unsigned>(batch) && col < tiles_across;
  return TransposeBlockTile{Coord{static_cast<int>(x / Together), col}, exists ? static_cast<int>(matrix) : -1};
}

}  // namespace detail

#if defined(__CUDACC__)

namespace detail {

inline constexpr int transpose_threads = 256;

// Blocks per multiprocessor asked of the register allocator (__launch_bounds__), per tile: more
// blocks in flight hide more of DRAM's latency, as long as the fast path keeps its values in
// registers (the edge paths may then take longer, not the interior). NVBench, % of cudaMemcpy on an
// H200 (H100 where given). Register-block byte tiles, in transpose_grid's column order: 5 blocks
// (48 registers) 94.5 at 8192^2, 92.4 at 65536 x 1024, 95.1 at 1024 x 65536; 4 blocks 92.7, 92.2,
// 93.9; 6 blocks 89.4, 87.7, 90.2 (in the earlier row-group order 6 had been best; 8 spilled: half
// the speed). Padded tiles at 8191 x 8193, against 4 blocks: halves with 5 65.6 -> 68.5 / 76.8 ->
// 74.0, floats with 6 82.0 -> 85.3 / 87.1 -> 85.3, 8-byte elements with 5 89.7 -> 91.6 / 91.3 ->
// 91.7 (6 spilled: -10%). Kept at 4: word tiles of bytes (5 and 6 no better), the register-block
// tiles of halves (5 or 6 within 1% either way) and floats (6 lost 0.5%), 16-byte elements (3, 5
// and 6 within noise at 8192^2).
template <class Tile, int ElemBytes>
constexpr int transpose_min_blocks() {
  using Layout = typename std::remove_reference_t<Tile>::layout_type;
  if constexpr (IsTransposeLayout<Layout>::value) return ElemBytes == 1 ? 5 : 4;
  else if constexpr (IsWordTransposeLayout<Layout>::value) return 4;
  else return ElemBytes == 2 || ElemBytes == 8 ? 5 : ElemBytes == 4 ? 6 : 4;  // padded element tiles
}

// Tiles of bytes and halves, whose rows are one 128-byte line: the loads ask L2 for 256 bytes, the
// other half being the next tile column's, which the block started beside this one reads (two tile
// columns go down together: transpose_grid). On an H200, % of cudaMemcpy against without: bytes
// 8192^2 92.5 / 91, 65536 x 1024 92 / 90, 8192 x 8193 68 / 66.5 (8191 x 8193 51 / 51); halves
// 8192^2 94.8 / 92.4, 8192 x 8193 75 / 71. Tiles of 256-byte rows, and the padded float tiles of
// 128-byte rows, lost 0.5-1.5% with it.
template <class Tile, int ElemBytes>
SMEMTILE_HOST_DEVICE constexpr bool transpose_fetches_256() {
  return ElemBytes <= 2 && Tile::layout().cols() * ElemBytes <= 128;
}

// Tile columns that go down together (transpose_grid's `together`): 2 for the tiles that fetch 256
// bytes, whose other half the column beside reads.
template <class Tile, int ElemBytes>
SMEMTILE_HOST_DEVICE constexpr int transpose_columns_together() {
  return transpose_fetches_256<Tile, ElemBytes>() ? 2 : 1;
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

// One tile per block, the one transpose_block_tile() names. No loop: a loop around the tile let the
// compiler hoist the tile's shared addresses out of it and spill them (measured: 76% of cudaMemcpy
// for bytes at 8192 x 8192 against 93% without the loop, on an H200). No division either where the
// grid is not folded: at 1024 x 1024 the few microseconds a launch takes are mostly latency, and
// the earlier tile order's two divisions sat before the first load.
template <class Tile, class Bits>
__global__ void __launch_bounds__(transpose_threads, (transpose_min_blocks<Tile, static_cast<int>(sizeof(Bits))>()))
    transpose_kernel(const Bits* in, Bits* out, int rows, int cols, int ld_in, int ld_out, int batch,
                     long long stride_in, long long stride_out, TransposeGrid grid, int tiles_across) {
  using Block = FixedThreadBlock<transpose_threads>;
  __shared__ Tile tile;
  constexpr auto layout = Tile::layout();
  constexpr int E = static_cast<int>(sizeof(Bits));
  constexpr bool fetch_256 = transpose_fetches_256<Tile, E>();
  const TransposeBlockTile block = transpose_block_tile<transpose_columns_together<Tile, E>()>(
      grid, blockIdx.x, blockIdx.y, blockIdx.z, tiles_across, batch);
  if (block.matrix < 0) return;
  const long long matrix = block.matrix;
  const auto source = make_global_matrix(in + matrix * stride_in, rows, cols, ld_in);
  const auto target = make_global_matrix(out + matrix * stride_out, cols, rows, ld_out);
  const Coord origin{block.tile.row * layout.rows(), block.tile.col * layout.cols()};
  copy<true, std::conditional_t<fetch_256, SyncMoveFetch256, SyncMove>>(source, origin, tile_ref(tile),
                                                                         boundary::Zero{}, Block{});
  __syncthreads();
  copy_tile_to_global_transposed(tile, target, origin.transposed(), Block{});
}

// (A persistent, cp.async double-buffered variant of this kernel was measured too and lost: 85-91%
// of cudaMemcpy against 95-96% for 4- and 8-byte elements at 8192 x 8192, on an H200.)

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
  constexpr int together = transpose_columns_together<Tile, static_cast<int>(sizeof(Bits))>();
  const TransposeGrid grid = transpose_grid(tiles_down, tiles_across, batch, together);
  if (grid.x == 0)
    return failed_launch(cudaErrorInvalidValue, "smemtile::device_transpose: more tile columns x matrices than "
                                                   "one grid holds (65535^2)");
  transpose_kernel<Tile><<<dim3(grid.x, grid.y, grid.z), transpose_threads, 0, stream>>>(
      in, out, rows, cols, ld_in, ld_out, batch, stride_in, stride_out, grid, tiles_across);
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
