// Compiled (not run) for every GPU generation smemtile supports, by the CTest check
// arch:compile_all_architectures (tests/arch/CMakeLists.txt): one translation unit with the umbrella
// header, so that every header under include/smemtile (core/, arch/, block/, device/) is compiled
// for each architecture as it is added, plus kernels that use the main pieces. Built with bounds
// checks on, so that the checking paths (device printf, trap) are compiled too.
#include <smemtile/smemtile.cuh>

// The examples' kernels, as they are: static tiles (seeds), carving and RuntimeTile (dynamic).
#include "seeds/lib_seed_kernels.cuh"
#include "dynamic/carving_kernels.cuh"
#include "dynamic/dynamic_seed_kernels.cuh"

namespace arch_check {

// StaticTile with padding, transposed reads, a window and a 1D tile.
__global__ void static_tiles(const float* in, float* out) {
  __shared__ smemtile::StaticTile<float, 32, 32, 1> tile;
  __shared__ smemtile::StaticTile1D<float, 32> row_sums;
  const unsigned rank = smemtile::thread_rank();
  tile(smemtile::thread_coord()) = in[rank];
  __syncthreads();
  out[rank] = tile.transposed()(smemtile::thread_coord()) + tile.window({1, 1}, 30, 30)(0, 0);
  if (threadIdx.y == 0) row_sums(static_cast<int>(threadIdx.x)) = tile.row_major(static_cast<int>(rank));
  __syncthreads();
  out[rank] += row_sums(static_cast<int>(threadIdx.y));
}

// The tiles the bank model makes conflict-free, of 8- and 16-byte elements.
__global__ void conflict_free_tiles(const double* in, double* out) {
  __shared__ smemtile::AutoPaddedTile<double, 32, 32> padded;
  __shared__ smemtile::SwizzledTile<float4, 32, 32> swizzled;
  const unsigned rank = smemtile::thread_rank();
  padded(smemtile::thread_coord()) = in[rank];
  swizzled(smemtile::thread_coord()) = make_float4(1.0f, 2.0f, 3.0f, static_cast<float>(in[rank]));
  __syncthreads();
  out[rank] = padded.col_major(static_cast<int>(rank)) + swizzled.transposed()(smemtile::thread_coord()).w;
}

// A RuntimeTile with a halo, and a 1D array, carved from dynamic shared memory.
struct Stencil {
  smemtile::RuntimeTile<float> tile;
  int* counts;
};
SMEMTILE_HOST_DEVICE Stencil carve_stencil(smemtile::Arena& arena, int rows, int cols) {
  return {arena.tile<float>(rows + 2, cols + 2, 1), arena.array<int>(32)};
}
__global__ void runtime_tile_with_halo(const float* in, float* out, int rows, int cols) {
  Stencil s = smemtile::carve_dynamic_shared_memory(carve_stencil, rows, cols);
  auto interior = s.tile.interior({1, 1});
  const smemtile::Coord at = smemtile::thread_coord();
  interior(at) = in[smemtile::thread_rank()];
  if (at.row == 0) interior(-1, at.col) = 0.0f;
  if (threadIdx.x < 32 && threadIdx.y == 0) s.counts[threadIdx.x] = 0;
  __syncthreads();
  out[smemtile::thread_rank()] = interior(at.row - 1, at.col) + interior(at) + static_cast<float>(s.counts[0]);
}

}  // namespace arch_check

// The library's constexpr model must agree on the device side as well.
static_assert(smemtile::traversal_cost(smemtile::PaddedLayout<32, 32, 1>{}, 4, smemtile::Traversal::column).conflicts == 0,
              "a padded column walk is conflict-free");
