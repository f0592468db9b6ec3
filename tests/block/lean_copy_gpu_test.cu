// GPU tests of the lean forms (issue: tiles in users' own kernels): boundary::inside with aligned and
// plain views, planned copies (TileCopy) advancing along a k-loop with sync and cp.async moves and
// two stages, register fragments between tiles and global memory, and transposed vector loads into
// TransposedLoadTiles. Random data, outputs poisoned, every element compared with the host.
#include <smemtile/smemtile.cuh>

#include <cstdint>
#include <vector>

#include "gpu_test.cuh"

using namespace smemtile;
using namespace smemtile_test;

namespace {

struct alignas(16) Quad {
  unsigned w[4];
};

// out = in, tile by tile, both copies stated inside.
template <class T, int R, int C, int Threads, bool Aligned>
__global__ void round_trip_inside(const T* in, T* out, int rows, int cols, int pitch) {
  __shared__ StaticTile<T, R, C> tile;
  const FixedThreadBlock<Threads> block;
  const Coord origin{int(blockIdx.y) * R, int(blockIdx.x) * C};
  if constexpr (Aligned) {
    copy_global_to_tile(make_aligned_matrix<16>(in, rows, cols, pitch), origin, tile, boundary::inside, block);
    __syncthreads();
    copy_tile_to_global(tile, make_aligned_matrix<16>(out, rows, cols, pitch), origin, boundary::inside, block);
  } else {
    copy_global_to_tile(make_global_matrix(in, rows, cols, pitch), origin, tile, boundary::inside, block);
    __syncthreads();
    copy_tile_to_global(tile, make_global_matrix(out, rows, cols, pitch), origin, boundary::inside, block);
  }
}

template <class T, int R, int C, int Threads, bool Aligned>
void check_round_trip(int tiles_down, int tiles_across, int pitch_extra) {
  const int rows = tiles_down * R, cols = tiles_across * C;
  const int pitch = cols + pitch_extra;
  const unsigned seed = fresh_seed();
  INFO("seed " << seed << " elem " << sizeof(T) << " tile " << R << "x" << C << " threads " << Threads
               << " rows " << rows << " cols " << cols << " pitch " << pitch << " aligned " << Aligned);
  DeviceBuffer<T> in(static_cast<std::size_t>(rows) * pitch), out(static_cast<std::size_t>(rows) * pitch);
  const auto host = random_values<T>(in.size(), seed);
  in.upload(host);
  out.poison();
  round_trip_inside<T, R, C, Threads, Aligned><<<dim3(tiles_across, tiles_down), Threads>>>(in.get(), out.get(), rows,
                                                                                            cols, pitch);
  REQUIRE_LAUNCH_OK();
  const auto got = out.download();
  std::vector<unsigned char> poison(sizeof(T), poison_byte);
  for (int r = 0; r < rows; ++r)
    for (int c = 0; c < pitch; ++c) {
      const std::size_t i = static_cast<std::size_t>(r) * pitch + c;
      if (c < cols) REQUIRE(same_bytes(got[i], host[i]));
      else REQUIRE(std::memcmp(&got[i], poison.data(), sizeof(T)) == 0);  // the pitch's gap: untouched
    }
}

// Sum over k of the R x C tiles at (blockIdx.y * R, k * C), loaded by a plan, into out's tile.
template <class T, int R, int C, int Threads, class Boundary, bool Async>
__global__ void k_loop_sum(const T* in, T* out, int rows, int cols, int out_cols) {
  __shared__ StaticTile<T, R, C> stages[2];
  __shared__ StaticTile<T, R, C> sum;
  const FixedThreadBlock<Threads> block;
  const auto A = make_global_matrix(in, rows, cols);
  auto plan = make_tile_copy(A, Coord{int(blockIdx.y) * R, 0}, stages[0], Boundary{}, block, Coord{0, C});
  for (int k = threadIdx.x; k < R * C; k += Threads) sum.row_major(k) = T(0);
  int stage = 0;
  for (int k0 = 0; k0 < cols; k0 += C) {
    if constexpr (Async) {
      plan.load_async(stages[stage]);
      async_copy_commit();
      async_copy_wait<0>();
    } else {
      plan.load(stages[stage]);
    }
    plan.advance();
    __syncthreads();
    for (int k = threadIdx.x; k < R * C; k += Threads) sum.row_major(k) += stages[stage].row_major(k);
    __syncthreads();
    stage ^= 1;
  }
  auto store = make_tile_copy(make_global_matrix(out, gridDim.y * R, out_cols), Coord{int(blockIdx.y) * R, 0}, sum,
                              Boundary{}, block);
  store.store(sum);
}

template <class T, int R, int C, int Threads, class Boundary, bool Async>
void check_k_loop(int tiles_down, int cols) {
  const int rows = tiles_down * R;
  const unsigned seed = fresh_seed();
  INFO("seed " << seed << " elem " << sizeof(T) << " tile " << R << "x" << C << " rows " << rows << " cols " << cols
               << " async " << Async);
  std::mt19937 rng(seed);
  std::vector<T> host(static_cast<std::size_t>(rows) * cols);
  for (auto& v : host) v = static_cast<T>(rng() % 100);
  DeviceBuffer<T> in(host.size()), out(static_cast<std::size_t>(rows) * C);
  in.upload(host);
  out.poison();
  k_loop_sum<T, R, C, Threads, Boundary, Async><<<dim3(1, tiles_down), Threads>>>(in.get(), out.get(), rows, cols, C);
  REQUIRE_LAUNCH_OK();
  const auto got = out.download();
  for (int r = 0; r < rows; ++r)
    for (int c = 0; c < C; ++c) {
      T expect = 0;
      for (int k0 = 0; k0 < cols; k0 += C)
        if (k0 + c < cols) expect += host[static_cast<std::size_t>(r) * cols + k0 + c];
      REQUIRE(got[static_cast<std::size_t>(r) * C + c] == expect);
    }
}

// Each thread moves N-element fragments: global -> registers -> tile -> registers -> global.
template <class T, int R, int C, int N>
__global__ void fragments(const T* in, T* out, int rows, int cols) {
  __shared__ StaticTile<T, R, C> tile;
  const auto A = make_aligned_matrix<16>(in, rows, cols);
  const auto B = make_aligned_matrix<16>(out, rows, cols);
  const Coord origin{int(blockIdx.y) * R, int(blockIdx.x) * C};
  for (int f = threadIdx.x; f < R * C / N; f += blockDim.x) {
    const int r = f / (C / N), c = (f % (C / N)) * N;
    store_fragment(tile, r, c, load_fragment<N>(A, origin.row + r, origin.col + c));
  }
  __syncthreads();
  for (int f = threadIdx.x; f < R * C / N; f += blockDim.x) {
    const int r = f / (C / N), c = (f % (C / N)) * N;
    store_fragment(B, origin.row + r, origin.col + c, load_fragment<N>(tile, r, c));
  }
}

template <class T, int R, int C, int N>
void check_fragments(int tiles_down, int tiles_across) {
  const int rows = tiles_down * R, cols = tiles_across * C;
  const unsigned seed = fresh_seed();
  INFO("seed " << seed << " elem " << sizeof(T) << " N " << N);
  DeviceBuffer<T> in(static_cast<std::size_t>(rows) * cols), out(in.size());
  const auto host = random_values<T>(in.size(), seed);
  in.upload(host);
  out.poison();
  fragments<T, R, C, N><<<dim3(tiles_across, tiles_down), 128>>>(in.get(), out.get(), rows, cols);
  REQUIRE_LAUNCH_OK();
  const auto got = out.download();
  for (std::size_t i = 0; i < host.size(); ++i) REQUIRE(same_bytes(got[i], host[i]));
}

// out (K x M) = in (M x K) transposed, through a k-major tile loaded transposed.
template <class T, int R, int C, int Threads, class Boundary>
__global__ void transposed_load(const T* in, T* out, int m, int k) {
  __shared__ TransposedLoadTile<T, R, C> tile;  // R along k, C along m
  const FixedThreadBlock<Threads> block;
  const Coord origin{int(blockIdx.y) * C, int(blockIdx.x) * R};  // in (m, k)
  copy_global_to_tile_transposed(make_aligned_matrix<16>(in, m, k), origin, tile, Boundary{}, block);
  __syncthreads();
  copy_tile_to_global(tile, make_global_matrix(out, k, m), origin.transposed(), block);
}

template <class T, int R, int C, int Threads, class Boundary>
void check_transposed_load(int m, int k) {
  const unsigned seed = fresh_seed();
  INFO("seed " << seed << " elem " << sizeof(T) << " tile " << R << "x" << C << " m " << m << " k " << k);
  DeviceBuffer<T> in(static_cast<std::size_t>(m) * k), out(in.size());
  const auto host = random_values<T>(in.size(), seed);
  in.upload(host);
  out.poison();
  transposed_load<T, R, C, Threads, Boundary>
      <<<dim3((k + R - 1) / R, (m + C - 1) / C), Threads>>>(in.get(), out.get(), m, k);
  REQUIRE_LAUNCH_OK();
  const auto got = out.download();
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < k; ++j)
      REQUIRE(same_bytes(got[static_cast<std::size_t>(j) * m + i], host[static_cast<std::size_t>(i) * k + j]));
}

}  // namespace

TEST_CASE("boundary::inside copies with aligned and plain views, every element size") {
  check_round_trip<std::uint8_t, 16, 128, 128, true>(3, 2, 16);
  check_round_trip<std::uint16_t, 32, 64, 256, true>(2, 3, 8);
  check_round_trip<float, 32, 32, 1024, true>(3, 3, 4);
  check_round_trip<float, 16, 16, 256, false>(4, 3, 1);
  check_round_trip<float, 8, 128, 256, true>(5, 2, 0);
  check_round_trip<double, 16, 32, 128, true>(3, 2, 2);
  check_round_trip<double, 16, 32, 128, false>(3, 2, 1);
  check_round_trip<Quad, 8, 16, 64, true>(2, 3, 1);
  check_round_trip<std::uint8_t, 8, 40, 96, false>(3, 5, 3);
}

TEST_CASE("planned copies advance along a k-loop: sync, cp.async, two stages, edges") {
  check_k_loop<float, 32, 32, 256, boundary::Inside, false>(3, 32 * 5);
  check_k_loop<float, 32, 32, 256, boundary::Inside, true>(2, 32 * 4);
  check_k_loop<int, 8, 64, 128, boundary::Zero, false>(4, 64 * 3 + 17);  // the last tile reaches outside
  check_k_loop<int, 8, 64, 128, boundary::Zero, true>(3, 64 * 2 + 5);
  check_k_loop<double, 16, 16, 64, boundary::Inside, false>(2, 16 * 7);
}

TEST_CASE("register fragments between global memory, registers and tiles") {
  check_fragments<float, 16, 64, 4>(3, 2);
  check_fragments<float, 16, 64, 8>(2, 3);
  check_fragments<std::uint16_t, 8, 128, 8>(3, 2);
  check_fragments<double, 8, 32, 2>(2, 2);
  check_fragments<std::uint8_t, 8, 64, 16>(2, 2);
}

TEST_CASE("transposed vector loads into TransposedLoadTiles, inside and at edges") {
  check_transposed_load<float, 8, 128, 256, boundary::Inside>(128 * 3, 8 * 5);
  check_transposed_load<float, 16, 64, 128, boundary::Inside>(64 * 2, 16 * 3);
  check_transposed_load<double, 8, 64, 128, boundary::Inside>(64 * 3, 8 * 4);
  check_transposed_load<std::uint16_t, 16, 128, 256, boundary::Inside>(128 * 2, 16 * 3);
  check_transposed_load<float, 8, 128, 256, boundary::Zero>(128 * 2 + 37, 8 * 3 + 4);  // edges: element path
}
