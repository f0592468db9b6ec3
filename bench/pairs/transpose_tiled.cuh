// bench/pairs/transpose_tiled.cuh: the classic coalesced transpose out (W x H) = in (H x W)^T of
// floats: 32 x 32 tiles in a padded __shared__ float[32][33], blocks of 32 x 8 threads, each thread
// moving 4 elements in and 4 out (H and W multiples of 32). Exact copies: hand, library and host
// reference agree bit for bit.
#pragma once

#include <smemtile/smemtile.cuh>

#include <string>
#include <vector>

#include "pairs_common.cuh"

namespace pairs {
namespace transpose_tiled {

constexpr int tile = 32, block_rows = 8, threads = tile * block_rows;

__global__ void __launch_bounds__(threads) hand_transpose_tiled(const float* in, float* out, int H, int W) {
  __shared__ float s[tile][tile + 1];
  const int tx = threadIdx.x, ty = threadIdx.y;
  int x = blockIdx.x * tile + tx, y = blockIdx.y * tile + ty;
#pragma unroll
  for (int j = 0; j < tile; j += block_rows) s[ty + j][tx] = in[static_cast<long long>(y + j) * W + x];
  __syncthreads();
  x = blockIdx.y * tile + tx;
  y = blockIdx.x * tile + ty;
#pragma unroll
  for (int j = 0; j < tile; j += block_rows) out[static_cast<long long>(y + j) * H + x] = s[tx][ty + j];
}

__global__ void __launch_bounds__(threads) lib_transpose_tiled(const float* in, float* out, int H, int W) {
  const smemtile::FixedThreadBlock<tile, block_rows> block;  // 32 x 8 threads
  __shared__ smemtile::StaticTile<float, tile, tile, 1> s;
  const auto input = smemtile::make_global_matrix(in, H, W);
  const auto output = smemtile::make_global_matrix(out, W, H);
  const smemtile::Coord origin = smemtile::block_tile_origin({tile, tile});
  // H and W are multiples of the tile: both copies lie inside.
  smemtile::copy_global_to_tile(input, origin, s, smemtile::boundary::inside, block);
  __syncthreads();
  smemtile::copy_tile_to_global_transposed(s, output, origin.transposed(), smemtile::boundary::inside, block);
}

using Kernel = void (*)(const float*, float*, int, int);

inline Kernel kernel(Impl impl) { return impl == Impl::hand ? hand_transpose_tiled : lib_transpose_tiled; }

/// out (W x H) = in (H x W) transposed.
inline cudaError_t launch(Impl impl, const float* in, float* out, int H, int W, cudaStream_t stream = 0) {
  if (H % tile || W % tile) return cudaErrorInvalidValue;
  if (H == 0 || W == 0) return cudaSuccess;
  kernel(impl)<<<dim3(W / tile, H / tile), dim3(tile, block_rows), 0, stream>>>(in, out, H, W);
  return launch_status();
}

inline std::vector<float> reference(const std::vector<float>& in, int H, int W) {
  std::vector<float> out(in.size());
  for (int y = 0; y < H; ++y)
    for (int x = 0; x < W; ++x) out[static_cast<std::size_t>(x) * H + y] = in[static_cast<std::size_t>(y) * W + x];
  return out;
}

struct Instance {
  using Output = float;
  int H, W;
  std::vector<float> in;
  DeviceArray<float> d_in, d_out;

  Instance(int h, int w, unsigned seed) : H(h), W(w), in(random_floats(static_cast<std::size_t>(h) * w, seed)) {}
  static std::string name() { return "transpose_tiled"; }
  std::string shape() const { return std::to_string(H) + "x" + std::to_string(W); }
  const void* kernel_address(Impl impl) const { return reinterpret_cast<const void*>(kernel(impl)); }
  cudaError_t setup() { return first_error({d_in.allocate(in.size()), d_out.allocate(in.size()), d_in.upload(in)}); }
  cudaError_t reset() { return d_out.poison(); }
  cudaError_t run(Impl impl, cudaStream_t stream = 0) { return launch(impl, d_in.get(), d_out.get(), H, W, stream); }
  cudaError_t output(std::vector<float>& out) const { return d_out.download(out); }
  std::vector<float> reference() const { return transpose_tiled::reference(in, H, W); }
  double tolerance() const { return 0.0; }
  double bytes() const { return 8.0 * H * W; }
};

}  // namespace transpose_tiled
}  // namespace pairs
