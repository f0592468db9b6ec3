// bench/pairs/matmul_tiled.cuh: the CUDA programming guide's shared-memory matrix product
// C = A * B (floats, row-major, A M x K, B K x N), one thread per element of C, blocks of
// TILE x TILE threads, TILE = 16 or 32; M, N multiples of TILE, K a multiple of TILE.
// Each C element: acc = fmaf(A(r, k), B(k, c), acc) for k = 0, 1, ..., K - 1 (both kernels and the
// host reference), so all three agree bit for bit.
#pragma once

#include <smemtile/smemtile.cuh>

#include <string>
#include <vector>

#include "pairs_common.cuh"

namespace pairs {
namespace matmul_tiled {

template <int TILE>
__global__ void __launch_bounds__(TILE * TILE) hand_matmul_tiled(const float* A, const float* B, float* C, int M,
                                                                 int N, int K) {
  __shared__ float As[TILE][TILE];
  __shared__ float Bs[TILE][TILE];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int row = blockIdx.y * TILE + ty, col = blockIdx.x * TILE + tx;
  float acc = 0.0f;
  for (int k0 = 0; k0 < K; k0 += TILE) {
    As[ty][tx] = A[row * K + k0 + tx];
    Bs[ty][tx] = B[(k0 + ty) * N + col];
    __syncthreads();
#pragma unroll
    for (int k = 0; k < TILE; ++k) acc = fmaf(As[ty][k], Bs[k][tx], acc);
    __syncthreads();
  }
  C[row * N + col] = acc;
}

template <int TILE>
__global__ void __launch_bounds__(TILE * TILE) lib_matmul_tiled(const float* A, const float* B, float* C, int M,
                                                                int N, int K) {
  const smemtile::FixedThreadBlock<TILE * TILE> block;
  __shared__ smemtile::StaticTile<float, TILE, TILE> As;
  __shared__ smemtile::StaticTile<float, TILE, TILE> Bs;
  const auto a = smemtile::make_global_matrix(A, M, K);
  const auto b = smemtile::make_global_matrix(B, K, N);
  const auto c = smemtile::make_global_matrix(C, M, N);
  const smemtile::Coord origin = smemtile::block_tile_origin({TILE, TILE});
  const smemtile::Coord at = smemtile::thread_coord();
  float acc = 0.0f;
  for (int k0 = 0; k0 < K; k0 += TILE) {
    // M, N, K are multiples of TILE: every tile lies inside (debug builds check it).
    smemtile::copy_global_to_tile(a, {origin.row, k0}, As, smemtile::boundary::inside, block);
    smemtile::copy_global_to_tile(b, {k0, origin.col}, Bs, smemtile::boundary::inside, block);
    __syncthreads();
#pragma unroll
    for (int k = 0; k < TILE; ++k) acc = fmaf(As(at.row, k), Bs(k, at.col), acc);
    __syncthreads();
  }
  c(origin.row + at.row, origin.col + at.col) = acc;
}

template <int TILE>
using Kernel = void (*)(const float*, const float*, float*, int, int, int);

template <int TILE>
Kernel<TILE> kernel(Impl impl) {
  return impl == Impl::hand ? hand_matmul_tiled<TILE> : lib_matmul_tiled<TILE>;
}

template <int TILE>
cudaError_t launch(Impl impl, const float* A, const float* B, float* C, int M, int N, int K, cudaStream_t stream = 0) {
  if (M % TILE || N % TILE || K % TILE) return cudaErrorInvalidValue;
  if (M == 0 || N == 0) return cudaSuccess;
  kernel<TILE>(impl)<<<dim3(N / TILE, M / TILE), dim3(TILE, TILE), 0, stream>>>(A, B, C, M, N, K);
  return launch_status();
}

/// C = A * B on the host, in the kernels' order (fmaf over k ascending).
inline std::vector<float> reference(const std::vector<float>& A, const std::vector<float>& B, int M, int N, int K) {
  std::vector<float> C(static_cast<std::size_t>(M) * N);
  for (int r = 0; r < M; ++r)
    for (int c = 0; c < N; ++c) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k) acc = std::fmaf(A[static_cast<std::size_t>(r) * K + k], B[static_cast<std::size_t>(k) * N + c], acc);
      C[static_cast<std::size_t>(r) * N + c] = acc;
    }
  return C;
}

/// One product of M x K by K x N.
template <int TILE>
struct Instance {
  using Output = float;
  int M, N, K;
  std::vector<float> A, B;
  DeviceArray<float> dA, dB, dC;

  Instance(int m, int n, int k, unsigned seed)
      : M(m), N(n), K(k),
        A(random_floats(static_cast<std::size_t>(m) * k, seed)),
        B(random_floats(static_cast<std::size_t>(k) * n, seed + 1)) {}
  static std::string name() { return "matmul_tiled<" + std::to_string(TILE) + ">"; }
  std::string shape() const { return std::to_string(M) + "x" + std::to_string(N) + "x" + std::to_string(K); }
  const void* kernel_address(Impl impl) const { return reinterpret_cast<const void*>(kernel<TILE>(impl)); }
  cudaError_t setup() {
    return first_error({dA.allocate(A.size()), dB.allocate(B.size()), dC.allocate(static_cast<std::size_t>(M) * N),
                        dA.upload(A), dB.upload(B)});
  }
  cudaError_t reset() { return dC.poison(); }
  cudaError_t run(Impl impl, cudaStream_t stream = 0) {
    return launch<TILE>(impl, dA.get(), dB.get(), dC.get(), M, N, K, stream);
  }
  cudaError_t output(std::vector<float>& out) const { return dC.download(out); }
  std::vector<float> reference() const { return matmul_tiled::reference(A, B, M, N, K); }
  double tolerance() const { return 1e-5 * K; }  // |products| < 1: the same order gives 0 error
  double flops() const { return 2.0 * M * N * K; }
  double bytes() const { return 4.0 * (static_cast<double>(M) * K + static_cast<double>(K) * N + static_cast<double>(M) * N); }
};

}  // namespace matmul_tiled
}  // namespace pairs
