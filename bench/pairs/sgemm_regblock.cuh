// bench/pairs/sgemm_regblock.cuh: the register-blocked SGEMM C = alpha * A * B + beta * C (floats,
// row-major B and C; M, N multiples of 128, K a multiple of 8): a 128 x 128 block tile, BK = 8, 256
// threads, 8 x 8 outputs per thread. Two pairs:
//   sgemm_regblock         A row-major (M x K): its tile is stored k-major, As[BK][BM], by a transposed
//                          load (hand: one float4 global load per thread, four scalar shared stores)
//   sgemm_regblock_kmajor  A given k-major (A^T, K x M row-major): both tiles are straight copies
// Bs[BK][BN] is a straight float4 copy; each k step reads the thread's 8 A values and 8 B values
// (hand: two float4 shared loads each) and does 64 fmaf; the epilogue C = fmaf(alpha, acc, beta * C)
// (hand: float4). Every element: acc = fmaf(A(r, k), B(k, c), acc) for k ascending, then the
// epilogue, in both kernels and the host reference.
#pragma once

#include <smemtile/smemtile.cuh>

#include <string>
#include <vector>

#include "pairs_common.cuh"

namespace pairs {
namespace sgemm_regblock {

constexpr int BM = 128, BN = 128, BK = 8, TM = 8, TN = 8, threads = 256;

// ---- by hand ----------------------------------------------------------------------------------------

// AKMajor: A points at A^T (K x M row-major).
template <bool AKMajor>
__device__ __forceinline__ void hand_body(const float* __restrict__ A, const float* __restrict__ B,
                                          float* __restrict__ C, int M, int N, int K, float alpha, float beta) {
  __shared__ __align__(16) float As[BK][BM];
  __shared__ __align__(16) float Bs[BK][BN];
  const int tid = threadIdx.x;
  const int bm = blockIdx.y * BM, bn = blockIdx.x * BN;
  const int thread_row = tid / (BN / TN), thread_col = tid % (BN / TN);  // 16 x 16 threads
  // Loads: one float4 per thread and tile.
  const int a_row = tid / (BK / 4), a_col = tid % (BK / 4) * 4;     // row-major A: 128 rows of 2 float4
  const int s_row = tid / (BM / 4), s_col = tid % (BM / 4) * 4;     // 8 rows of 32 float4 (B, A^T)
  float acc[TM][TN] = {};
  float reg_m[TM], reg_n[TN];
  for (int k0 = 0; k0 < K; k0 += BK) {
    if (AKMajor) {
      *reinterpret_cast<float4*>(&As[s_row][s_col]) =
          *reinterpret_cast<const float4*>(&A[static_cast<long long>(k0 + s_row) * M + bm + s_col]);
    } else {
      const float4 a = *reinterpret_cast<const float4*>(&A[static_cast<long long>(bm + a_row) * K + k0 + a_col]);
      As[a_col + 0][a_row] = a.x;
      As[a_col + 1][a_row] = a.y;
      As[a_col + 2][a_row] = a.z;
      As[a_col + 3][a_row] = a.w;
    }
    *reinterpret_cast<float4*>(&Bs[s_row][s_col]) =
        *reinterpret_cast<const float4*>(&B[static_cast<long long>(k0 + s_row) * N + bn + s_col]);
    __syncthreads();
#pragma unroll
    for (int k = 0; k < BK; ++k) {
#pragma unroll
      for (int i = 0; i < TM; i += 4) {
        const float4 v = *reinterpret_cast<const float4*>(&As[k][thread_row * TM + i]);
        reg_m[i] = v.x, reg_m[i + 1] = v.y, reg_m[i + 2] = v.z, reg_m[i + 3] = v.w;
      }
#pragma unroll
      for (int j = 0; j < TN; j += 4) {
        const float4 v = *reinterpret_cast<const float4*>(&Bs[k][thread_col * TN + j]);
        reg_n[j] = v.x, reg_n[j + 1] = v.y, reg_n[j + 2] = v.z, reg_n[j + 3] = v.w;
      }
#pragma unroll
      for (int i = 0; i < TM; ++i)
#pragma unroll
        for (int j = 0; j < TN; ++j) acc[i][j] = fmaf(reg_m[i], reg_n[j], acc[i][j]);
    }
    __syncthreads();
  }
#pragma unroll
  for (int i = 0; i < TM; ++i) {
#pragma unroll
    for (int j = 0; j < TN; j += 4) {
      float4* p = reinterpret_cast<float4*>(&C[static_cast<long long>(bm + thread_row * TM + i) * N + bn +
                                               thread_col * TN + j]);
      float4 c = *p;
      c.x = fmaf(alpha, acc[i][j + 0], beta * c.x);
      c.y = fmaf(alpha, acc[i][j + 1], beta * c.y);
      c.z = fmaf(alpha, acc[i][j + 2], beta * c.z);
      c.w = fmaf(alpha, acc[i][j + 3], beta * c.w);
      *p = c;
    }
  }
}

__global__ void __launch_bounds__(threads) hand_sgemm_regblock(const float* A, const float* B, float* C, int M, int N,
                                                               int K, float alpha, float beta) {
  hand_body<false>(A, B, C, M, N, K, alpha, beta);
}
__global__ void __launch_bounds__(threads) hand_sgemm_regblock_kmajor(const float* A, const float* B, float* C, int M,
                                                                      int N, int K, float alpha, float beta) {
  hand_body<true>(A, B, C, M, N, K, alpha, beta);
}

// ---- with smemtile (the README's lean form) ----------------------------------------------

template <bool AKMajor>
__device__ __forceinline__ void lib_body(const float* A, const float* B, float* C, int M, int N, int K, float alpha,
                                         float beta) {
  const smemtile::FixedThreadBlock<threads> block;
  // As(k, m): k-major. Loaded transposed from a row-major A, a TransposedLoadTile (rows padded by 4
  // floats) keeps the transposed stores conflict-free and the fragment reads 16-byte; from A^T a
  // plain tile is a straight copy.
  using ATile = std::conditional_t<AKMajor, smemtile::StaticTile<float, BK, BM>, smemtile::TransposedLoadTile<float, BK, BM>>;
  __shared__ ATile As;
  __shared__ smemtile::StaticTile<float, BK, BN> Bs;
  // The matrices' rows are 16-byte aligned (sizes multiples of 128 and 8, cudaMalloc'd).
  const auto a = AKMajor ? smemtile::make_aligned_matrix<16>(A, K, M) : smemtile::make_aligned_matrix<16>(A, M, K);
  const auto b = smemtile::make_aligned_matrix<16>(B, K, N);
  const auto c = smemtile::make_aligned_matrix<16>(C, M, N);
  const smemtile::Coord origin = smemtile::block_tile_origin({BM, BN});
  const int thread_row = threadIdx.x / (BN / TN), thread_col = threadIdx.x % (BN / TN);
  float acc[TM][TN] = {};
  const auto multiply_tiles = [&] {
#pragma unroll
    for (int k = 0; k < BK; ++k) {
      const auto reg_m = smemtile::load_fragment<TM>(As, k, thread_row * TM);
      const auto reg_n = smemtile::load_fragment<TN>(Bs, k, thread_col * TN);
#pragma unroll
      for (int i = 0; i < TM; ++i)
#pragma unroll
        for (int j = 0; j < TN; ++j) acc[i][j] = fmaf(reg_m[i], reg_n[j], acc[i][j]);
    }
  };
  // Copies planned before the k-loop: each advances by BK rows with one pointer increment.
  auto load_b = smemtile::make_tile_copy(b, {0, origin.col}, Bs, smemtile::boundary::inside, block, smemtile::Coord{BK, 0});
  if constexpr (AKMajor) {
    auto load_a = smemtile::make_tile_copy(a, {0, origin.row}, As, smemtile::boundary::inside, block, smemtile::Coord{BK, 0});
    for (int k0 = 0; k0 < K; k0 += BK) {
      load_a.load(As);
      load_b.load(Bs);
      load_a.advance();
      load_b.advance();
      __syncthreads();
      multiply_tiles();
      __syncthreads();
    }
  } else {
    for (int k0 = 0; k0 < K; k0 += BK) {
      smemtile::copy_global_to_tile_transposed(a, {origin.row, k0}, As, smemtile::boundary::inside, block);
      load_b.load(Bs);
      load_b.advance();
      __syncthreads();
      multiply_tiles();
      __syncthreads();
    }
  }
#pragma unroll
  for (int i = 0; i < TM; ++i)
#pragma unroll
    for (int j = 0; j < TN; j += 4) {
      const int row = origin.row + thread_row * TM + i, col = origin.col + thread_col * TN + j;
      auto out = smemtile::load_fragment<4>(c, row, col);
#pragma unroll
      for (int e = 0; e < 4; ++e) out[e] = fmaf(alpha, acc[i][j + e], beta * out[e]);
      smemtile::store_fragment(c, row, col, out);
    }
}

__global__ void __launch_bounds__(threads) lib_sgemm_regblock(const float* A, const float* B, float* C, int M, int N,
                                                              int K, float alpha, float beta) {
  lib_body<false>(A, B, C, M, N, K, alpha, beta);
}
__global__ void __launch_bounds__(threads) lib_sgemm_regblock_kmajor(const float* A, const float* B, float* C, int M,
                                                                     int N, int K, float alpha, float beta) {
  lib_body<true>(A, B, C, M, N, K, alpha, beta);
}

// ---- host -------------------------------------------------------------------------------------------

using Kernel = void (*)(const float*, const float*, float*, int, int, int, float, float);

template <bool AKMajor>
Kernel kernel(Impl impl) {
  if (AKMajor) return impl == Impl::hand ? hand_sgemm_regblock_kmajor : lib_sgemm_regblock_kmajor;
  return impl == Impl::hand ? hand_sgemm_regblock : lib_sgemm_regblock;
}

/// C = alpha * A * B + beta * C; A is M x K row-major, or (AKMajor) A^T: K x M row-major.
template <bool AKMajor>
cudaError_t launch(Impl impl, const float* A, const float* B, float* C, int M, int N, int K, float alpha, float beta,
                   cudaStream_t stream = 0) {
  if (M % BM || N % BN || K % BK) return cudaErrorInvalidValue;
  if (M == 0 || N == 0) return cudaSuccess;
  kernel<AKMajor>(impl)<<<dim3(N / BN, M / BM), threads, 0, stream>>>(A, B, C, M, N, K, alpha, beta);
  return launch_status();
}

/// The kernels' arithmetic on the host (A row-major M x K here, whatever the kernel was given).
inline std::vector<float> reference(const std::vector<float>& A, const std::vector<float>& B,
                                    const std::vector<float>& C0, int M, int N, int K, float alpha, float beta) {
  std::vector<float> C(C0);
  std::vector<float> row(N);
  for (int r = 0; r < M; ++r) {
    std::fill(row.begin(), row.end(), 0.0f);
    for (int k = 0; k < K; ++k) {
      const float a = A[static_cast<std::size_t>(r) * K + k];
      const float* b = &B[static_cast<std::size_t>(k) * N];
      for (int c = 0; c < N; ++c) row[c] = std::fmaf(a, b[c], row[c]);
    }
    for (int c = 0; c < N; ++c) {
      float& out = C[static_cast<std::size_t>(r) * N + c];
      out = std::fmaf(alpha, row[c], beta * out);
    }
  }
  return C;
}

template <bool AKMajor>
struct Instance {
  using Output = float;
  int M, N, K;
  float alpha = 1.25f, beta = -0.5f;
  std::vector<float> A, B, C0;  // A row-major M x K
  DeviceArray<float> dA, dB, dC;

  Instance(int m, int n, int k, unsigned seed)
      : M(m), N(n), K(k),
        A(random_floats(static_cast<std::size_t>(m) * k, seed)),
        B(random_floats(static_cast<std::size_t>(k) * n, seed + 1)),
        C0(random_floats(static_cast<std::size_t>(m) * n, seed + 2)) {}
  static std::string name() { return AKMajor ? "sgemm_regblock_kmajor" : "sgemm_regblock"; }
  std::string shape() const { return std::to_string(M) + "x" + std::to_string(N) + "x" + std::to_string(K); }
  const void* kernel_address(Impl impl) const { return reinterpret_cast<const void*>(kernel<AKMajor>(impl)); }
  cudaError_t setup() {
    std::vector<float> a = A;
    if (AKMajor)  // the kernel takes A^T
      for (int r = 0; r < M; ++r)
        for (int k = 0; k < K; ++k) a[static_cast<std::size_t>(k) * M + r] = A[static_cast<std::size_t>(r) * K + k];
    return first_error({dA.allocate(A.size()), dB.allocate(B.size()), dC.allocate(C0.size()), dA.upload(a),
                        dB.upload(B)});
  }
  cudaError_t reset() { return dC.upload(C0); }  // C is read: the output starts as C0
  cudaError_t run(Impl impl, cudaStream_t stream = 0) {
    return launch<AKMajor>(impl, dA.get(), dB.get(), dC.get(), M, N, K, alpha, beta, stream);
  }
  cudaError_t output(std::vector<float>& out) const { return dC.download(out); }
  std::vector<float> reference() const { return sgemm_regblock::reference(A, B, C0, M, N, K, alpha, beta); }
  double tolerance() const { return 1e-5 * K; }
  double flops() const { return 2.0 * M * N * K; }
  double bytes() const { return 4.0 * (static_cast<double>(M) * K + static_cast<double>(K) * N + 2.0 * M * N); }
};

}  // namespace sgemm_regblock
}  // namespace pairs
