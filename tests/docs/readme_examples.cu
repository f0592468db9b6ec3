// The README's code examples, compiled with every build: if an API the README shows changes, the
// build breaks here. (Their behaviour is covered by the static, dynamic and banks tests.)
#include <smemtile/smemtile.cuh>

#include <cub/block/block_reduce.cuh>

#include <cstdint>
#include <cstdio>

// README: the opening example.
__global__ void transpose_tile(const float* in, float* out) {
  __shared__ smemtile::StaticTile<float, 32, 32, 1> tile;  // float tile[32][32 + 1]
  const unsigned rank = smemtile::thread_rank();           // threadIdx.y * blockDim.x + threadIdx.x
  tile(smemtile::thread_coord()) = in[rank];               // tile[threadIdx.y][threadIdx.x]
  __syncthreads();
  out[rank] = tile.transposed()(smemtile::thread_coord()); // tile[threadIdx.x][threadIdx.y]
}

// README: the lean form in a user's hot loop.
template <int TILE>  // C = A * B, M, N, K multiples of TILE; block TILE x TILE
__global__ void matmul(const float* a, const float* b, float* c, int M, int N, int K) {
  using namespace smemtile;
  __shared__ StaticTile<float, TILE, TILE> As, Bs;
  const FixedThreadBlock<TILE * TILE> block;
  const auto A = make_global_matrix(a, M, K), B = make_global_matrix(b, K, N);
  const Coord origin = block_tile_origin({TILE, TILE}), at = thread_coord();
  float acc = 0.0f;
  for (int k0 = 0; k0 < K; k0 += TILE) {
    copy_global_to_tile(A, {origin.row, k0}, As, boundary::inside, block);  // no edge tests
    copy_global_to_tile(B, {k0, origin.col}, Bs, boundary::inside, block);
    __syncthreads();
    for (int k = 0; k < TILE; ++k) acc = fmaf(As(at.row, k), Bs(k, at.col), acc);
    __syncthreads();
  }
  make_global_matrix(c, M, N)(origin.row + at.row, origin.col + at.col) = acc;
}
template __global__ void matmul<32>(const float*, const float*, float*, int, int, int);

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

// README: a carving description written as a __host__ __device__ lambda (needs --extended-lambda).
template <class Carve>
__global__ void reverse(const float* in, float* out, int n, Carve carve) {
  float* staged = smemtile::carve_dynamic_shared_memory(carve, n);
  for (int i = threadIdx.x; i < n; i += blockDim.x) staged[i] = in[i];
  __syncthreads();
  for (int i = threadIdx.x; i < n; i += blockDim.x) out[i] = staged[n - 1 - i];
}
smemtile::LaunchStatus launch_reverse(const float* in, float* out, int n, dim3 grid, dim3 block, cudaStream_t stream) {
  auto carve = [] __host__ __device__(smemtile::Arena& arena, int count) { return arena.array<float>(count); };
  return smemtile::launch_with_plan(reverse<decltype(carve)>, grid, block, smemtile::plan_shared_memory(carve, n),
                                    stream, in, out, n, carve);
}

// README: views, global arrays and copies.
__global__ void five_point(smemtile::GlobalMatrix<const float> in, smemtile::GlobalMatrix<float> out) {
  __shared__ smemtile::StaticTile<float, 8 + 2, 32 + 2> storage;  // a block of 32 x 8 and a halo of 1
  __shared__ smemtile::StaticTile<float, 8, 32> result;
  auto tile = storage.interior({1, 1});
  const smemtile::Coord origin = smemtile::block_tile_origin({8, 32});
  smemtile::copy_global_to_tile(in, origin, tile, smemtile::boundary::clamp);  // halo included
  __syncthreads();  // copies never synchronize
  const smemtile::Coord at = smemtile::thread_coord();
  result(at) = tile(at + smemtile::Coord{-1, 0}) + tile(at + smemtile::Coord{1, 0}) - 2.0f * tile(at);
  __syncthreads();
  smemtile::copy_tile_to_global(result, out, origin);  // elements outside `out` are not written
}

// README: transposes and stencils (host code calling the device-level functions).
struct Heat {  // a function object with a __device__ call operator taking the neighbourhood
  template <class N> __device__ float operator()(const N& n) const {
    return n(0, 0) + 0.1f * (n(-1, 0) + n(1, 0) + n(0, -1) + n(0, 1) - 4.0f * n(0, 0));
  }
};
bool readme_transpose_and_stencil(const float* d_in, float* d_out, int rows, int cols, int ld_in, int ld_out, int batch,
                                  long long stride_in, long long stride_out, cudaStream_t stream) {
  smemtile::LaunchStatus s = smemtile::device_transpose(d_in, d_out, rows, cols, stream);   // any 1-16 byte T
  s = smemtile::device_transpose(d_in, d_out, rows, cols, ld_in, ld_out, batch, stride_in, stride_out, stream);
  if (!s) std::fprintf(stderr, "%s\n", s.message.c_str());  // null, negative, pitch < row, in/out overlap (no in-place) ...
  const int A = rows, B = batch, C = cols;  // README: [A, B, C] -> [C, B, A] as one batched call
  s = smemtile::device_transpose(d_in, d_out, A, C, B * C, B * A, B, C, A);
  smemtile::device_stencil<1, smemtile::StencilShape::star>(
      smemtile::make_global_matrix<const float>(d_in, rows, cols), smemtile::make_global_matrix(d_out, rows, cols),
      smemtile::boundary::clamp, Heat{}, stream);
  return static_cast<bool>(s);
}

// README: separable boxes (the op, called here on a halo tile's neighbourhood).
struct BoxBlur3 : smemtile::SeparableStencilOp<BoxBlur3> {  // 3x3 box blur of bytes, rounding halves up
  template <class Row> __device__ int across(const Row& row) const { return row(-1) + row(0) + row(1); }
  template <class Rows> __device__ std::uint8_t down(const Rows& rows) const {
    return static_cast<std::uint8_t>((rows(-1) + rows(0) + rows(1) + 4) / 9);
  }
};
static_assert(smemtile::is_separable_stencil_op<BoxBlur3>, "BoxBlur3 is separable");
__global__ void readme_separable_blur(std::uint8_t* out) {
  __shared__ smemtile::StaticHaloTile<std::uint8_t, 8, 32, 1> tile;
  const smemtile::Coord at = smemtile::thread_coord();
  tile(at) = static_cast<std::uint8_t>(at.col);
  __syncthreads();
  out[at.row * 32 + at.col] = BoxBlur3{}(smemtile::neighborhood<1, smemtile::StencilShape::box>(tile, at));
}

// README: transposes, the block-level de-interleave (HWC bytes to CHW float planes in one pass).
__global__ void readme_hwc_to_chw(const unsigned char* hwc, float* chw, int pixels) {
  const int first = static_cast<int>(blockIdx.x) * smemtile::RecordTile<unsigned char, 8192>::max_records(3);
  __shared__ smemtile::RecordTile<unsigned char, 8192> tile;
  const smemtile::FixedThreadBlock<256> block{};
  const int count = min(tile.max_records(3), pixels - first);
  smemtile::load_records(hwc + 3LL * first, 3, count, 3, tile.data, block);  // records 3 apart, 16-byte loads
  block.sync();
  smemtile::store_channels(tile.data, count, 3, chw + first, pixels, block,  // plane c at chw + c * pixels
                           [](unsigned char v) { return v / 255.0f; });
}
