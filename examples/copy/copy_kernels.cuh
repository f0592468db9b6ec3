// examples/copy/copy_kernels.cuh: three kernels whose hand-written versions are mostly index
// arithmetic, written with smemtile's copies, views and mdspans. No global index, bounds test,
// block-strided loop, halo offset or zero fill is left in them: the copies do that.
//   transpose_32x32      the classic coalesced transpose: 32x32 tiles (pad 1), 32x8 blocks, each
//                        thread moving four rows in and four columns out
//   three_point_sum_1d   c[i] = a[i-1] + a[i] + a[i+1] with a one-element halo, the tile carved
//                        from dynamic shared memory (the block size is a run-time value)
//   five_point_2d        out = 4-neighbour sum - 4 * centre on a (by + 2) x (bx + 2) halo tile
// Outside the arrays the inputs count as zero (boundary::zero). Shared by the example program and
// the GPU tests.
#pragma once

#include <smemtile/smemtile.cuh>

namespace copy_examples {

using namespace smemtile;

// ---- transpose ------------------------------------------------------------------------------------

inline constexpr int transpose_tile = 32;
inline constexpr int transpose_block_rows = 8;  // block dim3(32, 8): 256 threads, 4 rows each
using TransposeBlock = FixedThreadBlock<transpose_tile * transpose_block_rows>;

// in: rows x cols, out: cols x rows (row-major). Grid: ceil(cols / 32) x ceil(rows / 32) blocks.
__global__ void transpose_32x32(GlobalMatrix<const float> in, GlobalMatrix<float> out) {
  __shared__ StaticTile<float, transpose_tile, transpose_tile, 1> tile;  // pad 1: columns conflict-free
  const Coord origin = block_tile_origin({transpose_tile, transpose_tile});
  copy_global_to_tile(in, origin, tile, boundary::zero, TransposeBlock{});
  __syncthreads();
  // The transposed view's row r is the tile's column r: written to out's row origin.col + r.
  copy_tile_to_global(tile.transposed(), out, origin.transposed(), TransposeBlock{});
}

// ---- 1D three-point stencil ---------------------------------------------------------------------

// The block's inputs plus one element on each side, and its outputs.
struct ThreePointTiles {
  RuntimeTile1D<float> input;   // blockDim.x + 2 elements
  RuntimeTile1D<float> output;  // blockDim.x elements
};

SMEMTILE_HOST_DEVICE ThreePointTiles carve_three_point(Arena& arena, int block_threads) {
  ThreePointTiles tiles{};
  tiles.input = arena.tile_1d<float>(block_threads + 2);
  tiles.output = arena.tile_1d<float>(block_threads);
  return tiles;
}

// c[i] = a[i-1] + a[i] + a[i+1]. Block: 1D, any size; launch with
// launch_with_plan(three_point_sum_1d, grid, block, plan_shared_memory(carve_three_point, block.x), ...).
__global__ void three_point_sum_1d(GlobalVector<const float> a, GlobalVector<float> c, int block_threads) {
  ThreePointTiles tiles = carve_dynamic_shared_memory(carve_three_point, block_threads);
  auto input = tiles.input.interior({0, 1});  // input(-1) and input(blockDim.x) are the halo
  const int origin = block_tile_origin_1d(block_threads);
  copy_global_to_tile(a, origin, input);
  __syncthreads();
  const int i = static_cast<int>(threadIdx.x);
  tiles.output(i) = input(i - 1) + input(i) + input(i + 1);
  __syncthreads();
  copy_tile_to_global(tiles.output, c, origin);
}

// ---- 2D five-point stencil ----------------------------------------------------------------------

inline constexpr int stencil_bx = 32;
inline constexpr int stencil_by = 8;
using StencilBlock = FixedThreadBlock<stencil_bx * stencil_by>;

// out(y, x) = in(y-1, x) + in(y+1, x) + in(y, x-1) + in(y, x+1) - 4 in(y, x). Block dim3(32, 8).
__global__ void five_point_2d(GlobalMatrix<const float> in, GlobalMatrix<float> out) {
  __shared__ StaticTile<float, stencil_by + 2, stencil_bx + 2> with_halo;
  __shared__ StaticTile<float, stencil_by, stencil_bx> result;
  auto tile = with_halo.interior({1, 1});  // tile(-1, c) is the row above the block's rows
  const Coord origin = block_tile_origin({stencil_by, stencil_bx});
  copy_global_to_tile(in, origin, tile, boundary::zero, StencilBlock{});
  __syncthreads();
  const Coord at = thread_coord();
  const Coord up{-1, 0}, down{1, 0}, left{0, -1}, right{0, 1};
  result(at) = tile(at + up) + tile(at + down) + tile(at + left) + tile(at + right) - 4.0f * tile(at);
  __syncthreads();
  copy_tile_to_global(result, out, origin, StencilBlock{});
}

}  // namespace copy_examples
