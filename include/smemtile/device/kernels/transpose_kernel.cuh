/// \file
/// device_transpose's kernel and its grid: one tile per block, tiles taken down whole columns.
#pragma once

#include <type_traits>  // std::conditional_t

#include "../../block/copy_with.cuh"           // copy_global_to_tile_with, SyncMove, SyncMoveFetch256
#include "../../block/thread_group.cuh"        // FixedThreadBlock
#include "../../block/transpose.cuh"           // copy_tile_to_global_transposed
#include "../../core/conflict_free_tiles.cuh"  // TransposeTile, WordTransposeTile
#include "../../core/coord.cuh"                // Coord
#include "../../core/global_view.cuh"          // make_global_matrix
#include "../../core/static_tile.cuh"          // StaticTile (the padded tile)
#include "../tuning/transpose_policy.cuh"      // TransposeAlgorithm, TransposePolicy

namespace smemtile {
namespace detail {

/// The grid of one device_transpose launch: blockIdx.x counts tile rows, so the hardware, which
/// starts blocks x first, takes the tiles down whole columns of tiles (`together` columns side by
/// side). The blocks running at once then read a few tile columns of `in` and write a few whole rows
/// of `out` (docs/tuning.md, "transpose grid order"). Tiles whose rows are one 128-byte line
/// (bytes, halves) load with a 256-byte L2 fetch whose other half is the next tile column's: they
/// go down two columns together, else that half is fetched long before it is read. blockIdx.y is the column (pair) and blockIdx.z the matrix of a batch, unless either
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


/// The shared-memory tile of a transpose policy for elements Bits.
template <class Policy, class Bits, TransposeAlgorithm = Policy::algorithm>
struct TransposePolicyTileOf {
  using type = StaticTile<Bits, Policy::rows, Policy::cols, Policy::pad>;  ///< padded_elements
};
/// register_blocks: a TransposeTile.
template <class Policy, class Bits>
struct TransposePolicyTileOf<Policy, Bits, TransposeAlgorithm::register_blocks> {
  using type = TransposeTile<Bits, Policy::rows, Policy::cols>;  ///< the tile
};
/// word_blocks: a WordTransposeTile.
template <class Policy, class Bits>
struct TransposePolicyTileOf<Policy, Bits, TransposeAlgorithm::word_blocks> {
  using type = WordTransposeTile<Bits, Policy::rows, Policy::cols>;  ///< the tile
};
/// The shared-memory tile of a transpose policy for elements Bits.
template <class Policy, class Bits>
using TransposePolicyTile = typename TransposePolicyTileOf<Policy, Bits>::type;

}  // namespace detail

#if defined(__CUDACC__)

namespace detail {

// The bits of an element: one kernel per (size, alignment), whatever the type, held in the widest
// words its alignment allows (so that moving one is one or a few register moves, not byte packing).
template <int Align>
using AlignedWord = std::conditional_t<Align >= 8, unsigned long long,
                                       std::conditional_t<Align >= 4, unsigned, std::conditional_t<Align >= 2, unsigned short, unsigned char>>>;
template <int Size, int Align>
struct alignas(Align) ElementBits {
  AlignedWord<(Align < Size ? Align : Size)> words[Size / sizeof(AlignedWord<(Align < Size ? Align : Size)>)];
};

// One tile per block, the one transpose_block_tile() names. No loop around the tile (the compiler
// would hoist the tile's shared addresses out of it and spill them) and no division where the grid
// is not folded (docs/tuning.md, "transpose kernel"). Policy: a TransposePolicy.
template <class Policy, class Bits>
__global__ void __launch_bounds__(Policy::threads, Policy::min_blocks)
    transpose_kernel(const Bits* in, Bits* out, int rows, int cols, int ld_in, int ld_out, int batch,
                     long long stride_in, long long stride_out, TransposeGrid grid, int tiles_across) {
  using Block = FixedThreadBlock<Policy::threads>;
  using Tile = TransposePolicyTile<Policy, Bits>;
  __shared__ Tile tile;
  constexpr auto layout = Tile::layout();
  const TransposeBlockTile block = transpose_block_tile<Policy::columns_together>(grid, blockIdx.x, blockIdx.y,
                                                                                  blockIdx.z, tiles_across, batch);
  if (block.matrix < 0) return;
  const long long matrix = block.matrix;
  const auto source = make_global_matrix(in + matrix * stride_in, rows, cols, ld_in);
  const auto target = make_global_matrix(out + matrix * stride_out, cols, rows, ld_out);
  const Coord origin{block.tile.row * layout.rows(), block.tile.col * layout.cols()};
  using Move = std::conditional_t<Policy::fetch_256, SyncMoveFetch256, SyncMove>;
  copy_global_to_tile_with<Move>(source, origin, tile, boundary::Zero{}, Block{});
  __syncthreads();
  copy_tile_to_global_transposed(tile, target, origin.transposed(), Block{});
}

}  // namespace detail

#endif  // __CUDACC__

}  // namespace smemtile
