// The README's code examples, compiled with every build: if an API the README shows changes, the
// build breaks here. (Their behaviour is covered by the static, dynamic and banks tests.)
#include <smemtile/smemtile.cuh>

#include <cub/block/block_reduce.cuh>

#include <cstdio>

// README: the opening example.
__global__ void transpose_tile(const float* in, float* out) {
  __shared__ smemtile::StaticTile<float, 32, 32, 1> tile;  // float tile[32][32 + 1]
  const unsigned rank = smemtile::thread_rank();           // threadIdx.y * blockDim.x + threadIdx.x
  tile(smemtile::thread_coord()) = in[rank];               // tile[threadIdx.y][threadIdx.x]
  __syncthreads();
  out[rank] = tile.transposed()(smemtile::thread_coord()); // tile[threadIdx.x][threadIdx.y]
}

// README: RuntimeTile and carving dynamic shared memory.
using BlockReduce = cub::BlockReduce<float, 256>;
struct Carved { smemtile::RuntimeTile<float> tile; BlockReduce::TempStorage* reduce; };

SMEMTILE_HOST_DEVICE Carved carve(smemtile::Arena& arena, int rows, int cols) {
  return {arena.tile<float>(rows, cols, /*pad*/ 1), arena.object<BlockReduce::TempStorage>()};
}

__global__ void kernel(int rows, int cols) {
  Carved s = smemtile::carve_dynamic_shared_memory(carve, rows, cols);
  s.tile(threadIdx.y, threadIdx.x) = 1.0f;  // same accessors as StaticTile
  (void)BlockReduce(*s.reduce).Sum(s.tile(threadIdx.y, threadIdx.x));
}

bool launch_readme_kernel(int rows, int cols, dim3 grid, dim3 block, cudaStream_t stream) {
  smemtile::SharedMemoryPlan plan = smemtile::plan_shared_memory(carve, rows, cols);
  smemtile::LaunchStatus status = smemtile::launch_with_plan(kernel, grid, block, plan, stream, rows, cols);
  if (!status) std::fprintf(stderr, "%s\n", status.message.c_str());  // e.g. over the device's limit
  return static_cast<bool>(status);
}

// README: bank conflicts, known at compile time.
namespace readme_banks {
using namespace smemtile;
static_assert(traversal_cost(PaddedLayout<32, 32, 0>{}, 4, Traversal::column).conflicts == 992);  // 32-way
static_assert(traversal_cost(PaddedLayout<32, 32, 1>{}, 4, Traversal::column).conflicts == 0);
__global__ void declare_tiles(float* out) {
  __shared__ AutoPaddedTile<double, 32, 32> a;  // the smallest pad that makes rows and columns conflict-free
  __shared__ SwizzledTile<float, 32, 64> b;     // no padding: an XOR swizzle (4-, 8-, 16-byte elements)
  a(threadIdx.y, threadIdx.x) = threadIdx.x;
  b(threadIdx.y, threadIdx.x) = threadIdx.y;
  __syncthreads();
  out[smemtile::thread_rank()] = static_cast<float>(a.transposed()(smemtile::thread_coord())) + b(threadIdx.x, threadIdx.y);
}
}  // namespace readme_banks
