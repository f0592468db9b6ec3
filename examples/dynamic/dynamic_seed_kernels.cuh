// examples/dynamic/dynamic_seed_kernels.cuh: the seeds' setRowReadColDyn and setRowReadColDynPad
// (textbook chapter 5.2, square 32x32 and rectangular 32x16 blocks) written with smemtile.
//
// The textbook declares `extern __shared__ int tile[]`, computes row_idx / col_idx by hand (with
// blockDim.x + IPAD for the padded one) and launches with a hand-written byte count. Here the tile
// is a RuntimeTile carved from dynamic shared memory by one description (carve_*_seed_tile) that
// the host also runs to count the launch's bytes; the padding lives in the tile's layout, so the
// padded and unpadded kernels are the same code. Shared by the example program and the GPU tests.
#pragma once

#include <smemtile/smemtile.cuh>

namespace dynamic_seeds {

// The tile of setRowReadColDyn: the block's shape, rows = blockDim.y, cols = blockDim.x.
struct TileExtent {
  int rows;
  int cols;
};

// The tile of setRowReadColDynPad: the block's shape plus IPAD unused elements after each row.
struct PaddedTileShape {
  int rows;
  int cols;
  int pad;
};

// The carving descriptions: run by the host (plan_shared_memory) and by the kernels.
SMEMTILE_HOST_DEVICE smemtile::RuntimeTile<int> carve_seed_tile(smemtile::Arena& arena, TileExtent extent) {
  return arena.tile<int>(extent.rows, extent.cols);
}
SMEMTILE_HOST_DEVICE smemtile::RuntimeTile<int> carve_padded_seed_tile(smemtile::Arena& arena,
                                                                       PaddedTileShape shape) {
  return arena.tile<int>(shape.rows, shape.cols, shape.pad);
}

// What both kernels do: write the thread ranks row by row, read them back column by column.
// out[k] = the k-th element of a column-major walk = (k % rows) * cols + k / rows.
__device__ inline void write_rows_read_columns(smemtile::RuntimeTile<int> tile, int* out) {
  SMEMTILE_CHECK(tile.rows() == static_cast<int>(blockDim.y) && tile.cols() == static_cast<int>(blockDim.x),
                 "the seed tile must have the block's shape (values: tile rows, cols, blockDim.y, blockDim.x)",
                 tile.rows(), tile.cols(), blockDim.y, blockDim.x);
  const unsigned rank = smemtile::thread_rank();
  tile(smemtile::thread_coord()) = static_cast<int>(rank);  // seed: tile[row_idx] = idx
  __syncthreads();
  out[rank] = tile.col_major(rank);  // seed: out[idx] = tile[col_idx]
}

// Launch: block dim3(cols, rows), launch_with_plan(..., plan_shared_memory(carve_seed_tile, extent), ...).
__global__ void setRowReadColDyn(int* out, TileExtent extent) {
  write_rows_read_columns(smemtile::carve_dynamic_shared_memory(carve_seed_tile, extent), out);
}

// Launch: block dim3(cols, rows), plan_shared_memory(carve_padded_seed_tile, shape).
__global__ void setRowReadColDynPad(int* out, PaddedTileShape shape) {
  write_rows_read_columns(smemtile::carve_dynamic_shared_memory(carve_padded_seed_tile, shape), out);
}

// The expected output of both kernels for a rows x cols block (the seeds' permutation).
inline int expected_row_write_col_read(unsigned k, int rows, int cols) {
  return static_cast<int>((k % static_cast<unsigned>(rows)) * static_cast<unsigned>(cols) + k / static_cast<unsigned>(rows));
}

}  // namespace dynamic_seeds
