// bench/pairs/separable_conv.cuh: the two passes of a separable convolution of radius 8 on an
// H x W float image (row-major), edges clamped (the nearest pixel inside stands for one outside):
//   rows pass  out(y, x) = sum_{k=-8..8} c[k + 8] * in(y, clamp(x + k)); blocks of 32 x 8 threads,
//              an output tile of 8 rows x 128 columns (4 per thread), a shared tile of 8 x (128 + 16)
//   cols pass  out(y, x) = sum_{k=-8..8} c[k + 8] * in(clamp(y + k), x); blocks of 32 x 8 threads,
//              an output tile of 32 x 32 (4 rows per thread), a shared tile of (32 + 16) x 32
// (W a multiple of 128 and H of 8 for the rows pass; W and H multiples of 32 for the columns pass.)
// The 17 coefficients come as a kernel parameter (constant bank). Each output: sum = fmaf(c[k + 8],
// pixel, sum) for k = -8 ... 8 in both kernels and the host reference.
#pragma once

#include <smemtile/smemtile.cuh>

#include <algorithm>
#include <string>
#include <vector>

#include "pairs_common.cuh"

namespace pairs {
namespace separable_conv {

constexpr int R = 8;
struct Coefficients {
  float c[2 * R + 1];
};

// rows pass
constexpr int row_tile_rows = 8, row_tile_cols = 128, row_steps = 4;
// cols pass
constexpr int col_tile_rows = 32, col_tile_cols = 32, col_steps = 4;
constexpr int block_x = 32, block_y = 8, threads = block_x * block_y;

__device__ __forceinline__ int clamp_index(int i, int n) { return min(max(i, 0), n - 1); }

// ---- rows pass ----------------------------------------------------------------------------------------

__global__ void __launch_bounds__(threads) hand_separable_conv_rows(const float* in, float* out, int H, int W,
                                                                    Coefficients coef) {
  __shared__ float s[row_tile_rows][row_tile_cols + 2 * R];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int x0 = blockIdx.x * row_tile_cols, y = blockIdx.y * row_tile_rows + ty;
  const float* row = in + static_cast<long long>(y) * W;
  for (int c = tx; c < row_tile_cols + 2 * R; c += block_x) s[ty][c] = row[clamp_index(x0 - R + c, W)];
  __syncthreads();
#pragma unroll
  for (int j = 0; j < row_steps; ++j) {
    const int c = tx + j * block_x;
    float sum = 0.0f;
#pragma unroll
    for (int k = -R; k <= R; ++k) sum = fmaf(coef.c[k + R], s[ty][c + R + k], sum);
    out[static_cast<long long>(y) * W + x0 + c] = sum;
  }
}

__global__ void __launch_bounds__(threads) lib_separable_conv_rows(const float* in, float* out, int H, int W,
                                                                   Coefficients coef) {
  const smemtile::FixedThreadBlock<threads> block;
  __shared__ smemtile::StaticHaloTile<float, row_tile_rows, row_tile_cols, 0, R> tile;  // halo of R columns
  // cudaMalloc'd, W a multiple of the tile: rows 16-byte aligned (the copy then has one vector path).
  const auto input = smemtile::make_aligned_matrix<16>(in, H, W);
  const auto output = smemtile::make_global_matrix(out, H, W);
  const smemtile::Coord origin = smemtile::block_tile_origin({row_tile_rows, row_tile_cols});
  smemtile::copy_global_to_tile(input, origin, tile, smemtile::boundary::clamp, block);
  __syncthreads();
  const smemtile::Coord at = smemtile::thread_coord();
#pragma unroll
  for (int j = 0; j < row_steps; ++j) {
    const int c = at.col + j * block_x;
    float sum = 0.0f;
#pragma unroll
    for (int k = -R; k <= R; ++k) sum = fmaf(coef.c[k + R], tile(at.row, c + k), sum);
    output(origin.row + at.row, origin.col + c) = sum;
  }
}

// ---- columns pass -------------------------------------------------------------------------------------

__global__ void __launch_bounds__(threads) hand_separable_conv_cols(const float* in, float* out, int H, int W,
                                                                    Coefficients coef) {
  __shared__ float s[col_tile_rows + 2 * R][col_tile_cols];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int x = blockIdx.x * col_tile_cols + tx, y0 = blockIdx.y * col_tile_rows;
  for (int r = ty; r < col_tile_rows + 2 * R; r += block_y)
    s[r][tx] = in[static_cast<long long>(clamp_index(y0 - R + r, H)) * W + x];
  __syncthreads();
#pragma unroll
  for (int j = 0; j < col_steps; ++j) {
    const int r = ty + j * block_y;
    float sum = 0.0f;
#pragma unroll
    for (int k = -R; k <= R; ++k) sum = fmaf(coef.c[k + R], s[r + R + k][tx], sum);
    out[static_cast<long long>(y0 + r) * W + x] = sum;
  }
}

__global__ void __launch_bounds__(threads) lib_separable_conv_cols(const float* in, float* out, int H, int W,
                                                                   Coefficients coef) {
  const smemtile::FixedThreadBlock<threads> block;
  __shared__ smemtile::StaticHaloTile<float, col_tile_rows, col_tile_cols, R, 0> tile;  // halo of R rows
  const auto input = smemtile::make_aligned_matrix<16>(in, H, W);
  const auto output = smemtile::make_global_matrix(out, H, W);
  const smemtile::Coord origin = smemtile::block_tile_origin({col_tile_rows, col_tile_cols});
  smemtile::copy_global_to_tile(input, origin, tile, smemtile::boundary::clamp, block);
  __syncthreads();
  const smemtile::Coord at = smemtile::thread_coord();
#pragma unroll
  for (int j = 0; j < col_steps; ++j) {
    const int r = at.row + j * block_y;
    float sum = 0.0f;
#pragma unroll
    for (int k = -R; k <= R; ++k) sum = fmaf(coef.c[k + R], tile(r + k, at.col), sum);
    output(origin.row + r, origin.col + at.col) = sum;
  }
}

// ---- host -------------------------------------------------------------------------------------------

using Kernel = void (*)(const float*, float*, int, int, Coefficients);

/// Columns: false for the rows pass, true for the columns pass.
template <bool Columns>
Kernel kernel(Impl impl) {
  if (Columns) return impl == Impl::hand ? hand_separable_conv_cols : lib_separable_conv_cols;
  return impl == Impl::hand ? hand_separable_conv_rows : lib_separable_conv_rows;
}

template <bool Columns>
cudaError_t launch(Impl impl, const float* in, float* out, int H, int W, const Coefficients& coef,
                   cudaStream_t stream = 0) {
  const int tile_rows = Columns ? col_tile_rows : row_tile_rows, tile_cols = Columns ? col_tile_cols : row_tile_cols;
  if (H % tile_rows || W % tile_cols) return cudaErrorInvalidValue;
  if (H == 0 || W == 0) return cudaSuccess;
  kernel<Columns>(impl)<<<dim3(W / tile_cols, H / tile_rows), dim3(block_x, block_y), 0, stream>>>(in, out, H, W, coef);
  return launch_status();
}

/// A smooth, normalized set of 17 coefficients (a binomial-like bump; exact in float).
inline Coefficients default_coefficients() {
  Coefficients coef{};
  float total = 0.0f;
  for (int k = -R; k <= R; ++k) total += coef.c[k + R] = static_cast<float>((R + 1 - (k < 0 ? -k : k)));
  for (float& c : coef.c) c /= total;
  return coef;
}

template <bool Columns>
std::vector<float> reference(const std::vector<float>& in, int H, int W, const Coefficients& coef) {
  std::vector<float> out(in.size());
  for (int y = 0; y < H; ++y)
    for (int x = 0; x < W; ++x) {
      float sum = 0.0f;
      for (int k = -R; k <= R; ++k) {
        const int yy = Columns ? std::min(std::max(y + k, 0), H - 1) : y;
        const int xx = Columns ? x : std::min(std::max(x + k, 0), W - 1);
        sum = std::fmaf(coef.c[k + R], in[static_cast<std::size_t>(yy) * W + xx], sum);
      }
      out[static_cast<std::size_t>(y) * W + x] = sum;
    }
  return out;
}

template <bool Columns>
struct Instance {
  using Output = float;
  int H, W;
  Coefficients coef = default_coefficients();
  std::vector<float> in;
  DeviceArray<float> d_in, d_out;

  Instance(int h, int w, unsigned seed) : H(h), W(w), in(random_floats(static_cast<std::size_t>(h) * w, seed)) {}
  static std::string name() { return Columns ? "separable_conv_cols" : "separable_conv_rows"; }
  std::string shape() const { return std::to_string(H) + "x" + std::to_string(W); }
  const void* kernel_address(Impl impl) const { return reinterpret_cast<const void*>(kernel<Columns>(impl)); }
  cudaError_t setup() { return first_error({d_in.allocate(in.size()), d_out.allocate(in.size()), d_in.upload(in)}); }
  cudaError_t reset() { return d_out.poison(); }
  cudaError_t run(Impl impl, cudaStream_t stream = 0) {
    return launch<Columns>(impl, d_in.get(), d_out.get(), H, W, coef, stream);
  }
  cudaError_t output(std::vector<float>& out) const { return d_out.download(out); }
  std::vector<float> reference() const { return separable_conv::reference<Columns>(in, H, W, coef); }
  double tolerance() const { return 1e-6; }
  double bytes() const { return 8.0 * H * W; }
};

}  // namespace separable_conv
}  // namespace pairs
