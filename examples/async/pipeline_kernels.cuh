// examples/async/pipeline_kernels.cuh: row sums of a large matrix, one strip of rows per block,
// walked tile by tile with double buffering: the load of tile k + 1 is in flight while the block
// computes on tile k. Two versions of the same kernel: cp.async (sm_80 and later; synchronous
// below) and TMA (sm_90 and later). The GPU tests (tests/block) run these kernels too.
//
//   out[row] = scale * sum over col of in(row, col)
//
// Tiles reaching past the matrix's right or bottom edge are zero-filled by the copies
// (boundary::zero), so they add nothing: the loop needs no edge cases.
#pragma once

#include <smemtile/smemtile.cuh>

namespace pipeline {

constexpr int tile_rows = 32;                    // rows per block (one strip)
constexpr int tile_cols = 64;                    // columns per pipeline stage
constexpr int threads = 256;                     // 8 threads per row
constexpr int threads_per_row = threads / tile_rows;

using Block = smemtile::FixedThreadBlock<threads>;
using Tile = smemtile::StaticTile<float, tile_rows, tile_cols>;
using TmaTile = smemtile::TmaTile<float, tile_rows, tile_cols>;

// This thread's share of row `row` of a tile: columns part, part + 8, ... (consecutive lanes read
// consecutive words: no bank conflicts).
template <class AnyTile>
__device__ float partial_row_sum(const AnyTile& tile, int row, int part) {
  float sum = 0.f;
#pragma unroll
  for (int c = part; c < tile_cols; c += threads_per_row) sum += tile(row, c);
  return sum;
}

// Adds the 8 partial sums of a row (8 consecutive lanes) and writes the result.
__device__ inline void finish_row(float sum, int row, int part, float scale, float* out, int rows) {
#pragma unroll
  for (int offset = threads_per_row / 2; offset > 0; offset /= 2) sum += __shfl_xor_sync(0xffffffffu, sum, offset);
  if (part == 0 && row < rows) out[row] = scale * sum;
}

// cp.async version: grid.x = ceil(rows / tile_rows), block = threads.
__global__ void __launch_bounds__(threads) row_sums_async(smemtile::GlobalMatrix<const float> in, float scale,
                                                          float* out) {
  __shared__ Tile tiles[2];
  const int first_row = static_cast<int>(blockIdx.x) * tile_rows;
  const int stages = (static_cast<int>(in.extent(1)) + tile_cols - 1) / tile_cols;
  const int row = static_cast<int>(threadIdx.x) / threads_per_row;
  const int part = static_cast<int>(threadIdx.x) % threads_per_row;

  smemtile::copy_global_to_tile_async(in, smemtile::Coord{first_row, 0}, tiles[0], smemtile::boundary::zero, Block{});
  smemtile::async_copy_commit();
  float sum = 0.f;
  for (int k = 0; k < stages; ++k) {
    if (k + 1 < stages)  // tile k + 1 into the other buffer, freed by the sync at the end of step k - 1
      smemtile::copy_global_to_tile_async(in, smemtile::Coord{first_row, (k + 1) * tile_cols}, tiles[(k + 1) % 2],
                                          smemtile::boundary::zero, Block{});
    smemtile::async_copy_commit();    // (empty on the last step: the group count stays regular)
    smemtile::async_copy_wait<1>();   // everything but the newest group has landed: tile k
    __syncthreads();                  // ... for every thread's copies
    sum += partial_row_sum(tiles[k % 2], row, part);
    __syncthreads();                  // tile k's buffer may be overwritten from step k + 1 on
  }
  finish_row(sum, first_row + row, part, scale, out, static_cast<int>(in.extent(0)));
}

// TMA version (sm_90 and later): the same loop, one TMA copy per stage, one barrier per buffer.
// `map` comes from smemtile::make_tma_map<TmaTile>(in) on the host.
__global__ void __launch_bounds__(threads) row_sums_tma(const __grid_constant__ CUtensorMap map, int rows, int cols,
                                                        float scale, float* out) {
#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 900
  __shared__ TmaTile tiles[2];
  __shared__ smemtile::TmaBarrier barriers[2];
  smemtile::TmaPhase phases[2] = {smemtile::init_tma_barrier(barriers[0], Block{}),
                                  smemtile::init_tma_barrier(barriers[1], Block{})};
  const int first_row = static_cast<int>(blockIdx.x) * tile_rows;
  const int stages = (cols + tile_cols - 1) / tile_cols;
  const int row = static_cast<int>(threadIdx.x) / threads_per_row;
  const int part = static_cast<int>(threadIdx.x) % threads_per_row;

  smemtile::copy_global_to_tile_tma_async(map, smemtile::Coord{first_row, 0}, tiles[0], barriers[0],
                                          smemtile::boundary::zero, Block{});
  float sum = 0.f;
  for (int k = 0; k < stages; ++k) {
    const int next = (k + 1) % 2;
    if (k + 1 < stages)
      smemtile::copy_global_to_tile_tma_async(map, smemtile::Coord{first_row, (k + 1) * tile_cols}, tiles[next],
                                              barriers[next], smemtile::boundary::zero, Block{});
    smemtile::wait_tma(barriers[k % 2], phases[k % 2]);  // tile k has landed (visible to this thread)
    sum += partial_row_sum(tiles[k % 2], row, part);
    __syncthreads();  // tile k's buffer and barrier may be reused from step k + 1 on
  }
  finish_row(sum, first_row + row, part, scale, out, rows);
#else
  __trap();  // built for an architecture without TMA: the host checks the device before launching
#endif
}

}  // namespace pipeline
