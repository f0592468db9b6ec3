// tests/block/copy_sass_kernels.cu: copies whose addresses allow 16-byte units, compiled to
// SASS by the copy_sass test, which requires the vector instructions named in CMakeLists.txt.
#include <smemtile/smemtile.cuh>

using namespace smemtile;

// A 32 x 64 float tile: rows of 256 bytes, 16-byte units on both sides.
__global__ void load_store_floats(GlobalMatrix<const float> in, GlobalMatrix<float> out) {
  __shared__ StaticTile<float, 32, 64> tile;
  const Coord origin = block_tile_origin({32, 64});
  copy_global_to_tile(in, origin, tile, boundary::zero, FixedThreadBlock<256>{});
  __syncthreads();
  copy_tile_to_global(tile, out, origin, FixedThreadBlock<256>{});
}

// 1-byte elements move 16 at a time.
__global__ void load_store_bytes(GlobalMatrix<const unsigned char> in, GlobalMatrix<unsigned char> out) {
  __shared__ StaticTile<unsigned char, 16, 128> tile;
  const Coord origin = block_tile_origin({16, 128});
  copy_global_to_tile(in, origin, tile);
  __syncthreads();
  copy_tile_to_global(tile, out, origin);
}

// A run-time tile carved from dynamic shared memory, a warp per tile.
SMEMTILE_HOST_DEVICE RuntimeTile<double> carve_doubles(Arena& arena, int rows, int cols) {
  return arena.tile<double>(rows, cols, 0, align_to<16>);
}
__global__ void load_store_runtime_doubles(GlobalMatrix<const double> in, GlobalMatrix<double> out, int rows,
                                           int cols) {
  RuntimeTile<double> tile = carve_dynamic_shared_memory(carve_doubles, rows, cols);
  const Coord origin = block_tile_origin({rows, cols});
  copy_global_to_tile(in, origin, tile, boundary::zero, Warp{});
  __syncwarp();
  copy_tile_to_global(tile, out, origin, Warp{});
}
