// examples/transpose/course_transpose.cuh: the coalesced-access course's shared-memory transpose
// (seed 003) with smemtile's block-level helpers: no global index, no tile index, no bounds test.
//
// The course stages a 32 x 32 tile so that both the reads of `in` and the writes of `out` are
// coalesced, the writes reading the tile down its columns. Here the tile's type (TransposeTile) says
// how it is laid out so that this is conflict-free, copy_global_to_tile reads `in` a row at a time
// in 16-byte chunks, and copy_tile_to_global_transposed writes `out` a row at a time, each thread
// transposing a 4 x 4 block in registers. Edges of any size are handled by the copies.
#pragma once

#include <smemtile/smemtile.cuh>

namespace course {

inline constexpr int tile_dim = 32;    // the course's TILE_DIM
inline constexpr int block_rows = 8;   // and BLOCK_ROWS: blocks of 32 x 8 threads

// in: rows x cols; out: cols x rows. Grid: ceil(cols / 32) x ceil(rows / 32), block dim3(32, 8).
__global__ void transpose(smemtile::GlobalMatrix<const float> in, smemtile::GlobalMatrix<float> out) {
  __shared__ smemtile::TransposeTile<float, tile_dim, tile_dim> tile;
  const smemtile::Coord origin = smemtile::block_tile_origin({tile_dim, tile_dim});
  smemtile::copy_global_to_tile(in, origin, tile);
  __syncthreads();
  smemtile::copy_tile_to_global_transposed(tile, out, origin.transposed());
}

}  // namespace course
