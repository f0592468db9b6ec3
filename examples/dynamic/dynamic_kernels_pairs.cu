// examples/dynamic/dynamic_kernels_pairs.cu: kernels that carve dynamic shared memory, each twice:
// hand-written with `extern __shared__` and pointer casts (raw_*), and with smemtile's arena
// (lib_*), taking the same arguments. The zero-overhead test (tests/core) compiles this file to
// SASS and checks that each lib_* needs no more instructions than its raw_* twin, and no more
// generic (LD/ST) memory instructions: carved memory must stay in the shared window (LDS/STS).
#include <smemtile/smemtile.cuh>

#include "carving_kernels.cuh"       // carving::GuideCounts, carve_guide_arrays
#include "dynamic_seed_kernels.cuh"  // dynamic_seeds::TileExtent, PaddedTileShape, the carvings

// ---- setRowReadColDyn: a blockDim.y x blockDim.x int tile, written by rows, read by columns ------

__global__ void raw_setRowReadColDyn(int* out, dynamic_seeds::TileExtent extent) {
  extern __shared__ int tile[];
  const unsigned idx = threadIdx.y * blockDim.x + threadIdx.x;
  const unsigned row_idx = threadIdx.y * extent.cols + threadIdx.x;
  const unsigned col_idx = (idx % extent.rows) * extent.cols + idx / extent.rows;
  tile[row_idx] = idx;
  __syncthreads();
  out[idx] = tile[col_idx];
}

__global__ void lib_setRowReadColDyn(int* out, dynamic_seeds::TileExtent extent) {
  smemtile::RuntimeTile<int> tile = smemtile::carve_dynamic_shared_memory(dynamic_seeds::carve_seed_tile, extent);
  const unsigned idx = smemtile::thread_rank();
  tile(smemtile::thread_coord()) = static_cast<int>(idx);
  __syncthreads();
  out[idx] = tile.col_major(idx);
}

// ---- setRowReadColDynPad: the same with `pad` unused ints after each row ------------------------

__global__ void raw_setRowReadColDynPad(int* out, dynamic_seeds::PaddedTileShape shape) {
  extern __shared__ int tile[];
  const unsigned idx = threadIdx.y * blockDim.x + threadIdx.x;
  const unsigned row_idx = threadIdx.y * (shape.cols + shape.pad) + threadIdx.x;
  const unsigned col_idx = (idx % shape.rows) * (shape.cols + shape.pad) + idx / shape.rows;
  tile[row_idx] = idx;
  __syncthreads();
  out[idx] = tile[col_idx];
}

__global__ void lib_setRowReadColDynPad(int* out, dynamic_seeds::PaddedTileShape shape) {
  smemtile::RuntimeTile<int> tile =
      smemtile::carve_dynamic_shared_memory(dynamic_seeds::carve_padded_seed_tile, shape);
  const unsigned idx = smemtile::thread_rank();
  tile(smemtile::thread_coord()) = static_cast<int>(idx);
  __syncthreads();
  out[idx] = tile.col_major(idx);
}

// ---- the programming guide's short[shorts], float[floats], int[ints] ----------------------------

// The guide's casts place each array right after the previous one, which is only correct when the
// counts keep the next array aligned (the guide's 128 shorts do); the raw twin aligns as the arena
// does, so that both compute the same addresses for any counts.
__global__ void raw_guide_arrays(const short* in_shorts, const float* in_floats, const int* in_ints, int* out,
                                 carving::GuideCounts counts) {
  extern __shared__ float array[];
  short* array0 = reinterpret_cast<short*>(array);
  float* array1 = reinterpret_cast<float*>(array0 + ((counts.shorts + 1) & ~1));
  int* array2 = reinterpret_cast<int*>(array1 + counts.floats);
  const int t = static_cast<int>(threadIdx.x);
  for (int i = t; i < counts.shorts; i += blockDim.x) array0[i] = in_shorts[i];
  for (int i = t; i < counts.floats; i += blockDim.x) array1[i] = in_floats[i];
  for (int i = t; i < counts.ints; i += blockDim.x) array2[i] = in_ints[i];
  __syncthreads();
  out[t] = array2[counts.ints - 1 - t % counts.ints] + array0[t % counts.shorts] +
           static_cast<int>(array1[t % counts.floats]);
}

__global__ void lib_guide_arrays(const short* in_shorts, const float* in_floats, const int* in_ints, int* out,
                                 carving::GuideCounts counts) {
  carving::GuideArrays s = smemtile::carve_dynamic_shared_memory(carving::carve_guide_arrays, counts);
  const int t = static_cast<int>(threadIdx.x);
  for (int i = t; i < counts.shorts; i += blockDim.x) s.array0[i] = in_shorts[i];
  for (int i = t; i < counts.floats; i += blockDim.x) s.array1[i] = in_floats[i];
  for (int i = t; i < counts.ints; i += blockDim.x) s.array2[i] = in_ints[i];
  __syncthreads();
  out[t] = s.array2[counts.ints - 1 - t % counts.ints] + s.array0[t % counts.shorts] +
           static_cast<int>(s.array1[t % counts.floats]);
}

// ---- a 128-byte aligned tile (swizzle / TMA alignment): the base is moved at run time ------------

struct AlignedTileShape {
  int rows;
  int cols;
};

SMEMTILE_HOST_DEVICE smemtile::RuntimeTile<float> carve_aligned_tile(smemtile::Arena& arena, AlignedTileShape shape) {
  return arena.tile<float>(shape.rows, shape.cols, 0, smemtile::align_to<128>);
}

__global__ void raw_aligned_tile(const float* in, float* out, AlignedTileShape shape) {
  extern __shared__ __align__(16) unsigned char bytes[];
  const unsigned address = static_cast<unsigned>(__cvta_generic_to_shared(bytes));
  float* tile = reinterpret_cast<float*>(bytes + (((address + 127u) & ~127u) - address));
  const unsigned idx = threadIdx.y * blockDim.x + threadIdx.x;
  tile[threadIdx.y * shape.cols + threadIdx.x] = in[idx];
  __syncthreads();
  out[idx] = tile[(idx % shape.rows) * shape.cols + idx / shape.rows];
}

__global__ void lib_aligned_tile(const float* in, float* out, AlignedTileShape shape) {
  smemtile::RuntimeTile<float> tile = smemtile::carve_dynamic_shared_memory(carve_aligned_tile, shape);
  const unsigned idx = smemtile::thread_rank();
  tile(smemtile::thread_coord()) = in[idx];
  __syncthreads();
  out[idx] = tile.col_major(idx);
}
