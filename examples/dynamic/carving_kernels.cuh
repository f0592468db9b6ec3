// examples/dynamic/carving_kernels.cuh: several things carved from one dynamic shared memory block.
//
// 1. The CUDA programming guide's example: the equivalent of
//      short array0[128]; float array1[64]; int array2[256];
//    in dynamic shared memory. The guide casts pointers (`(float*)&array0[128]`), which is only
//    correct because 128 shorts happen to end on a 4-byte boundary; the arena aligns every array
//    for its type whatever the counts are, and counts the bytes for the launch.
// 2. A RuntimeTile and a cub::BlockReduce<float, 256>::TempStorage side by side, both used: the
//    block stages its input in the tile, reads it back transposed, and sums it with BlockReduce.
// Shared by the example program and the GPU tests.
#pragma once

#include <cub/block/block_reduce.cuh>

#include <smemtile/smemtile.cuh>

namespace carving {

// ---- 1. the programming guide's three arrays -----------------------------------------------------

// Element counts of the guide's arrays (run-time values, so any counts can be tried).
struct GuideCounts {
  int shorts;  // 128 in the guide
  int floats;  // 64
  int ints;    // 256
};

struct GuideArrays {
  short* array0;
  float* array1;
  int* array2;
};

// In this order, each aligned for its type. Braced initialization runs left to right.
SMEMTILE_HOST_DEVICE GuideArrays carve_guide_arrays(smemtile::Arena& arena, GuideCounts counts) {
  return GuideArrays{arena.array<short>(static_cast<std::size_t>(counts.shorts)),
                     arena.array<float>(static_cast<std::size_t>(counts.floats)),
                     arena.array<int>(static_cast<std::size_t>(counts.ints))};
}

// Block of 256 threads, one block. in_* hold counts.* elements; out has 256 ints:
// out[t] = array2[255 - t] + array0[t % shorts] + int(array1[t % floats]), every array read after a
// block-wide fill, so a region overlapping another would show up as a wrong sum.
inline constexpr int guide_block_threads = 256;

__global__ void use_guide_arrays(const short* in_shorts, const float* in_floats, const int* in_ints, int* out,
                                 GuideCounts counts) {
  GuideArrays s = smemtile::carve_dynamic_shared_memory(carve_guide_arrays, counts);
  const int t = static_cast<int>(threadIdx.x);
  for (int i = t; i < counts.shorts; i += blockDim.x) s.array0[i] = in_shorts[i];
  for (int i = t; i < counts.floats; i += blockDim.x) s.array1[i] = in_floats[i];
  for (int i = t; i < counts.ints; i += blockDim.x) s.array2[i] = in_ints[i];
  __syncthreads();
  out[t] = s.array2[(counts.ints - 1 - t % counts.ints)] + s.array0[t % counts.shorts] +
           static_cast<int>(s.array1[t % counts.floats]);
}

inline int expected_guide_output(int t, const short* in_shorts, const float* in_floats, const int* in_ints,
                                 GuideCounts counts) {
  return in_ints[counts.ints - 1 - t % counts.ints] + in_shorts[t % counts.shorts] +
         static_cast<int>(in_floats[t % counts.floats]);
}

// ---- 2. a tile and a CUB TempStorage side by side --------------------------------------------------

inline constexpr int reduce_block_threads = 256;
using BlockReduce = cub::BlockReduce<float, reduce_block_threads>;

struct TileAndReduce {
  smemtile::RuntimeTile<float> tile;
  BlockReduce::TempStorage* reduce_storage;
};

// rows * cols must be 256, one element per thread; pad as you like.
struct StagingShape {
  int rows;
  int cols;
  int pad;
};

SMEMTILE_HOST_DEVICE TileAndReduce carve_tile_and_reduce(smemtile::Arena& arena, StagingShape shape) {
  TileAndReduce carved{};
  carved.tile = arena.tile<float>(shape.rows, shape.cols, shape.pad);
  carved.reduce_storage = arena.object<BlockReduce::TempStorage>();
  return carved;
}

// One block of 256 threads (1D, as BlockReduce<float, 256> expects). Writes the transpose of `in`
// (rows x cols, row-major) to transposed_out (cols x rows) and the sum of `in` to *sum_out.
__global__ void transpose_and_sum(const float* in, float* transposed_out, float* sum_out, StagingShape shape) {
  TileAndReduce s = smemtile::carve_dynamic_shared_memory(carve_tile_and_reduce, shape);
  SMEMTILE_CHECK(shape.rows * shape.cols == reduce_block_threads && blockDim.x == reduce_block_threads,
                 "transpose_and_sum: one element per thread of a 1D block of 256 (values: rows, cols, blockDim.x, 0)",
                 shape.rows, shape.cols, blockDim.x, 0);
  const unsigned rank = threadIdx.x;
  s.tile.row_major(rank) = in[rank];
  __syncthreads();
  const float value = s.tile.col_major(rank);  // column-major walk = row-major walk of the transpose
  transposed_out[rank] = value;
  const float sum = BlockReduce(*s.reduce_storage).Sum(value);
  if (rank == 0) *sum_out = sum;
}

}  // namespace carving
