// examples/seeds/lib_seed_kernels.cuh: the seeds' statically declared kernels written with smemtile.
//
// Each lib_<group>_<name> does what the textbook's <name> does (raw twin: raw_seed_kernels.cuh),
// without hand-written index math: the tile's type says its shape and padding, and the accessor
// says how the block walks it. Kernel definitions: include this header in one .cu per program.
#pragma once

#include <smemtile/smemtile.cuh>

#include "seed_dims.cuh"

// The tiles the seeds declare, named so that the case tables (and later the bank model) can read
// their shape from the very type the kernels use.
namespace seed_tiles {
using namespace seed_dims;
using Square = smemtile::StaticTile<int, square_bdim, square_bdim>;                        // int[32][32]
using SquarePad = smemtile::StaticTile<int, square_bdim, square_bdim, square_ipad>;        // int[32][32+1]
using RectRowMajor = smemtile::StaticTile<int, rect_bdimy, rect_bdimx>;                    // int[16][32]
using RectColMajor = smemtile::StaticTile<int, rect_bdimx, rect_bdimy>;                    // int[32][16]
using RectPad1 = smemtile::StaticTile<int, rect_bdimy, rect_bdimx, rect_ipad1>;            // int[16][32+1]
using RectPad2 = smemtile::StaticTile<int, rect_bdimy, rect_bdimx, rect_ipad2>;            // int[16][32+2]
}  // namespace seed_tiles

// ---- square: block dim3(32, 32) ------------------------------------------------------------------

// Store and load along rows: a warp touches one row, 32 different banks.
__global__ void lib_square_setRowReadRow(int* out) {
  __shared__ seed_tiles::Square tile;
  const unsigned idx = smemtile::thread_rank();
  tile(smemtile::thread_coord()) = idx;
  __syncthreads();
  out[idx] = tile(smemtile::thread_coord());
}

// Store and load along columns (tile[threadIdx.x][threadIdx.y]): the transposed view swaps roles.
__global__ void lib_square_setColReadCol(int* out) {
  __shared__ seed_tiles::Square tile;
  const unsigned idx = smemtile::thread_rank();
  tile.transposed()(smemtile::thread_coord()) = idx;
  __syncthreads();
  out[idx] = tile.transposed()(smemtile::thread_coord());
}

// Store by rows, load by columns: out is the transpose of the thread ranks.
__global__ void lib_square_setRowReadCol(int* out) {
  __shared__ seed_tiles::Square tile;
  const unsigned idx = smemtile::thread_rank();
  tile(smemtile::thread_coord()) = idx;
  __syncthreads();
  out[idx] = tile.transposed()(smemtile::thread_coord());
}

// As setRowReadCol, with one element of padding per row (the type says so; the code does not).
__global__ void lib_square_setRowReadColPad(int* out) {
  __shared__ seed_tiles::SquarePad tile;
  const unsigned idx = smemtile::thread_rank();
  tile(smemtile::thread_coord()) = idx;
  __syncthreads();
  out[idx] = tile.transposed()(smemtile::thread_coord());
}

// ---- rectangular: block dim3(32, 16) -------------------------------------------------------------

__global__ void lib_rect_setRowReadRow(int* out) {
  __shared__ seed_tiles::RectRowMajor tile;
  const unsigned idx = smemtile::thread_rank();
  tile(smemtile::thread_coord()) = idx;
  __syncthreads();
  out[idx] = tile(smemtile::thread_coord());
}

// The seed's (idx / blockDim.x, idx % blockDim.x) is the idx-th element of a row-major walk.
__global__ void lib_rect_setRowReadRow2(int* out) {
  __shared__ seed_tiles::RectRowMajor tile;
  const unsigned idx = smemtile::thread_rank();
  tile.row_major(idx) = idx;
  __syncthreads();
  out[idx] = tile.row_major(idx);
}

// int[32][16] indexed [threadIdx.x][threadIdx.y]: the transposed view of a 32x16 tile.
__global__ void lib_rect_setColReadCol(int* out) {
  __shared__ seed_tiles::RectColMajor tile;
  const unsigned idx = smemtile::thread_rank();
  tile.transposed()(smemtile::thread_coord()) = idx;
  __syncthreads();
  out[idx] = tile.transposed()(smemtile::thread_coord());
}

// The seed's tile[idx % blockDim.y][idx / blockDim.y] on int[16][32] is the idx-th element of a
// column-major walk (the tile has blockDim.y rows).
__global__ void lib_rect_setColReadCol2(int* out) {
  __shared__ seed_tiles::RectRowMajor tile;
  const unsigned idx = smemtile::thread_rank();
  tile.col_major(idx) = idx;
  __syncthreads();
  out[idx] = tile.col_major(idx);
}

// Store by rows; load tile[icol][irow] with (irow, icol) = (idx / blockDim.y, idx % blockDim.y),
// i.e. the transposed view at the thread's transposed coordinate.
__global__ void lib_rect_setRowReadCol(int* out) {
  __shared__ seed_tiles::RectRowMajor tile;
  const unsigned idx = smemtile::thread_rank();
  tile(smemtile::thread_coord()) = idx;
  __syncthreads();
  out[idx] = tile.transposed()(smemtile::thread_coord_in_swapped_block());
}

__global__ void lib_rect_setRowReadColPad1(int* out) {
  __shared__ seed_tiles::RectPad1 tile;
  const unsigned idx = smemtile::thread_rank();
  tile(smemtile::thread_coord()) = idx;
  __syncthreads();
  out[idx] = tile.transposed()(smemtile::thread_coord_in_swapped_block());
}

__global__ void lib_rect_setRowReadColPad2(int* out) {
  __shared__ seed_tiles::RectPad2 tile;
  const unsigned idx = smemtile::thread_rank();
  tile(smemtile::thread_coord()) = idx;
  __syncthreads();
  out[idx] = tile.transposed()(smemtile::thread_coord_in_swapped_block());
}
