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
// (ElementStores: the tile goes out element by element, for pads whose row copies would conflict.)
template <class T, int R, int C, int Threads, class Boundary, bool ElementStores>
__global__ void transposed_load(const T* in, T* out, int m, int k) {
  __shared__ TransposedLoadTile<T, R, C> tile;  // R along k, C along m
  const FixedThreadBlock<Threads> block;
  const Coord origin{int(blockIdx.y) * C, int(blockIdx.x) * R};  // in (m, k)
  // An AlignedMatrix only where the rows are 16-byte aligned (its promise); a GlobalMatrix else.
  if ((static_cast<long long>(k) * sizeof(T)) % 16 == 0)
    copy_global_to_tile_transposed(make_aligned_matrix<16>(in, m, k), origin, tile, Boundary{}, block);
  else
    copy_global_to_tile_transposed(make_global_matrix(in, m, k), origin, tile, Boundary{}, block);
  __syncthreads();
  if constexpr (ElementStores) {
    for (int e = threadIdx.x; e < R * C; e += Threads) {
      const int r = e / C, c = e % C;
      if (origin.col + r < k && origin.row + c < m) out[static_cast<std::size_t>(origin.col + r) * m + origin.row + c] = tile(r, c);
    }
  } else {
    copy_tile_to_global(tile, make_global_matrix(out, k, m), origin.transposed(), block);
  }
}

template <class T, int R, int C, int Threads, class Boundary, bool ElementStores = false>
void check_transposed_load(int m, int k) {
  const unsigned seed = fresh_seed();
  INFO("seed " << seed << " elem " << sizeof(T) << " tile " << R << "x" << C << " m " << m << " k " << k);
  DeviceBuffer<T> in(static_cast<std::size_t>(m) * k), out(in.size());
  const auto host = random_values<T>(in.size(), seed);
  in.upload(host);
  out.poison();
  transposed_load<T, R, C, Threads, Boundary, ElementStores>
      <<<dim3((k + R - 1) / R, (m + C - 1) / C), Threads>>>(in.get(), out.get(), m, k);
  REQUIRE_LAUNCH_OK();
  const auto got = out.download();
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < k; ++j)
      REQUIRE(same_bytes(got[static_cast<std::size_t>(j) * m + i], host[static_cast<std::size_t>(i) * k + j]));
}


// ---- inputs the first tests did not reach (review of issue 25) ------------------------------------

// A halo tile loaded through an aligned view (clamp: inside tiles take the known width, edge
// tiles the element path), its whole storage dumped, its interior stored back stated inside.
template <int R, int C, int H, int Threads>
__global__ void halo_round_trip(const float* in, float* dump, float* out, int rows, int cols) {
  __shared__ StaticHaloTile<float, R, C, H, H> tile;
  const FixedThreadBlock<Threads> block;
  const Coord origin{int(blockIdx.y) * R, int(blockIdx.x) * C};
  copy_global_to_tile(make_aligned_matrix<16>(in, rows, cols), origin, tile, boundary::clamp, block);
  __syncthreads();
  constexpr int W = C + 2 * H, Hh = R + 2 * H;
  float* mine = dump + (static_cast<std::size_t>(blockIdx.y) * gridDim.x + blockIdx.x) * (Hh * W);
  for (int k = threadIdx.x; k < Hh * W; k += Threads) mine[k] = tile(k / W - H, k % W - H);
  copy_tile_to_global(tile, make_aligned_matrix<16>(out, rows, cols), origin, boundary::inside, block);
}

template <int R, int C, int H, int Threads>
void check_halo_round_trip(int tiles_down, int tiles_across) {
  const int rows = tiles_down * R, cols = tiles_across * C;
  constexpr int W = C + 2 * H, Hh = R + 2 * H;
  const unsigned seed = fresh_seed();
  INFO("seed " << seed << " halo tile " << R << "x" << C << " halo " << H << " threads " << Threads);
  DeviceBuffer<float> in(static_cast<std::size_t>(rows) * cols), out(in.size()),
      dump(static_cast<std::size_t>(tiles_down) * tiles_across * Hh * W);
  const auto host = random_values<float>(in.size(), seed);
  in.upload(host);
  out.poison();
  dump.poison();
  halo_round_trip<R, C, H, Threads><<<dim3(tiles_across, tiles_down), Threads>>>(in.get(), dump.get(), out.get(), rows, cols);
  REQUIRE_LAUNCH_OK();
  const auto got = out.download();
  for (std::size_t i = 0; i < host.size(); ++i) REQUIRE(same_bytes(got[i], host[i]));
  const auto dumped = dump.download();
  for (int ty = 0; ty < tiles_down; ++ty)
    for (int tx = 0; tx < tiles_across; ++tx)
      for (int k = 0; k < Hh * W; ++k) {
        const int r = boundary::Clamp::map_index(ty * R + k / W - H, rows);
        const int c = boundary::Clamp::map_index(tx * C + k % W - H, cols);
        REQUIRE(same_bytes(dumped[(static_cast<std::size_t>(ty) * tiles_across + tx) * Hh * W + k],
                           host[static_cast<std::size_t>(r) * cols + c]));
      }
}

// A 1D halo tile per warp (the block is one warp) through aligned vectors: load with zeros outside,
// dump, store the interior.
template <int N, int H>
__global__ void halo_1d_warp(const float* in, float* dump, float* out, int n) {
  __shared__ StaticHaloTile1D<float, N, H> tile;
  const int origin = int(blockIdx.x) * N;
  copy_global_to_tile(make_aligned_vector<16>(in, n), origin, tile, boundary::zero, Warp{});
  __syncwarp();
  for (int i = threadIdx.x; i < N + 2 * H; i += 32) dump[blockIdx.x * (N + 2 * H) + i] = tile(i - H);
  copy_tile_to_global(tile, make_aligned_vector<16>(out, n), origin, Warp{});
}

template <int N, int H>
void check_halo_1d_warp(int tiles) {
  const int n = tiles * N;
  const unsigned seed = fresh_seed();
  INFO("seed " << seed << " 1D halo tile " << N << " halo " << H);
  DeviceBuffer<float> in(n), out(n), dump(static_cast<std::size_t>(tiles) * (N + 2 * H));
  const auto host = random_values<float>(in.size(), seed);
  in.upload(host);
  out.poison();
  dump.poison();
  halo_1d_warp<N, H><<<tiles, 32>>>(in.get(), dump.get(), out.get(), n);
  REQUIRE_LAUNCH_OK();
  const auto got = out.download();
  for (int i = 0; i < n; ++i) REQUIRE(same_bytes(got[i], host[i]));
  const auto dumped = dump.download();
  for (int t = 0; t < tiles; ++t)
    for (int i = 0; i < N + 2 * H; ++i) {
      const int g = t * N + i - H;
      REQUIRE(same_bytes(dumped[static_cast<std::size_t>(t) * (N + 2 * H) + i], g >= 0 && g < n ? host[g] : 0.f));
    }
}

// Round trips with shaped blocks whose rows are not whole rows of the tile's units, or that have
// more threads than the tile has units.
template <class T, int R, int C, int X, int Y>
__global__ void round_trip_shaped(const T* in, T* out, int rows, int cols) {
  __shared__ StaticTile<T, R, C> tile;
  const FixedThreadBlock<X, Y> block;
  const Coord origin{int(blockIdx.y) * R, int(blockIdx.x) * C};
  copy_global_to_tile(make_aligned_matrix<16>(in, rows, cols), origin, tile, boundary::inside, block);
  __syncthreads();
  copy_tile_to_global(tile, make_aligned_matrix<16>(out, rows, cols), origin, boundary::inside, block);
}

template <class T, int R, int C, int X, int Y>
void check_round_trip_shaped(int tiles_down, int tiles_across) {
  const int rows = tiles_down * R, cols = tiles_across * C;
  const unsigned seed = fresh_seed();
  INFO("seed " << seed << " elem " << sizeof(T) << " tile " << R << "x" << C << " block " << X << "x" << Y);
  DeviceBuffer<T> in(static_cast<std::size_t>(rows) * cols), out(in.size());
  const auto host = random_values<T>(in.size(), seed);
  in.upload(host);
  out.poison();
  round_trip_shaped<T, R, C, X, Y><<<dim3(tiles_across, tiles_down), dim3(X, Y)>>>(in.get(), out.get(), rows, cols);
  REQUIRE_LAUNCH_OK();
  const auto got = out.download();
  for (std::size_t i = 0; i < host.size(); ++i) REQUIRE(same_bytes(got[i], host[i]));
}

// A planned load stepping across a matrix (View 0: aligned, 1: plain, 2: column-major through
// layout_stride), each step's whole tile storage (halo included) dumped; zeros outside.
template <class T, class Tile, int Threads, int View>
__global__ void planned_steps(const T* in, T* dump, int rows, int cols, Coord origin, Coord step, int steps) {
  __shared__ Tile tile;
  using Layout = typename decltype(tile_ref(tile))::layout_type;
  constexpr Layout layout{};
  constexpr Coord reach = layout_reach(layout);
  constexpr int W = layout.cols() + 2 * reach.col, Hh = layout.rows() + 2 * reach.row;
  const FixedThreadBlock<Threads> block;
  const auto run = [&](const auto& global) {
    auto plan = make_tile_copy(global, origin, tile, boundary::zero, block, step);
    for (int s = 0; s < steps; ++s) {
      plan.load(tile);
      plan.advance();
      __syncthreads();
      for (int k = threadIdx.x; k < Hh * W; k += Threads)
        dump[static_cast<std::size_t>(s) * Hh * W + k] = tile(k / W - reach.row, k % W - reach.col);
      __syncthreads();
    }
  };
  if constexpr (View == 0) {
    run(make_aligned_matrix<16>(in, rows, cols));
  } else if constexpr (View == 1) {
    run(make_global_matrix(in, rows, cols));
  } else {
    using Mapping = cuda::std::layout_stride::mapping<cuda::std::dextents<int, 2>>;
    run(GlobalArray<const T, 2>(in, Mapping(cuda::std::dextents<int, 2>(rows, cols), cuda::std::array<int, 2>{1, rows})));
  }
}

template <class T, class Tile, int Threads, int View>
void check_planned_steps(int rows, int cols, Coord origin, Coord step, int steps) {
  using Layout = typename Tile::layout_type;
  constexpr Layout layout{};
  constexpr Coord reach = layout_reach(layout);
  constexpr int W = layout.cols() + 2 * reach.col, Hh = layout.rows() + 2 * reach.row;
  const unsigned seed = fresh_seed();
  INFO("seed " << seed << " elem " << sizeof(T) << " region " << Hh << "x" << W << " view " << View << " origin "
               << origin.row << "," << origin.col << " step " << step.row << "," << step.col);
  DeviceBuffer<T> in(static_cast<std::size_t>(rows) * cols), dump(static_cast<std::size_t>(steps) * Hh * W);
  const auto host = random_values<T>(in.size(), seed);
  in.upload(host);
  dump.poison();
  planned_steps<T, Tile, Threads, View><<<1, Threads>>>(in.get(), dump.get(), rows, cols, origin, step, steps);
  REQUIRE_LAUNCH_OK();
  const auto got = dump.download();
  for (int s = 0; s < steps; ++s)
    for (int k = 0; k < Hh * W; ++k) {
      const int r = origin.row + s * step.row + k / W - reach.row, c = origin.col + s * step.col + k % W - reach.col;
      const bool inside = r >= 0 && r < rows && c >= 0 && c < cols;
      const std::size_t at = View == 2 ? static_cast<std::size_t>(c) * rows + r : static_cast<std::size_t>(r) * cols + c;
      INFO("step " << s << " element " << k);
      REQUIRE(same_bytes(got[static_cast<std::size_t>(s) * Hh * W + k], inside ? host[at] : T{}));
    }
}

// Fragments of swizzled layouts: every fragment start read back, and fragments stored at every
// multiple of N, against the tile filled and read element by element.
template <class T, class Tile, int N>
__global__ void swizzled_fragments(const T* in, T* read, T* written) {
  __shared__ Tile tile, other;
  constexpr int R = Tile::layout_type::rows(), C = Tile::layout_type::cols();
  constexpr int per = fragment_access_bytes(static_cast<int>(sizeof(T)), N) / static_cast<int>(sizeof(T));
  for (int k = threadIdx.x; k < R * C; k += blockDim.x) tile(k / C, k % C) = in[k];
  __syncthreads();
  for (int k = threadIdx.x; k < R * C; k += blockDim.x) {
    const int r = k / C, c = k % C;
    if (c % per != 0 || c + N > C) continue;
    const auto f = load_fragment<N>(tile, r, c);
    for (int i = 0; i < N; ++i) read[static_cast<std::size_t>(k) * N + i] = f[i];
  }
  for (int k = threadIdx.x; k < R * (C / N); k += blockDim.x) {
    const int r = k / (C / N), c = (k % (C / N)) * N;
    Fragment<T, N> f;
    for (int i = 0; i < N; ++i) f[i] = in[r * C + c + i];
    store_fragment(other, r, c, f);
  }
  __syncthreads();
  for (int k = threadIdx.x; k < R * C; k += blockDim.x) written[k] = other(k / C, k % C);
}

template <class T, class Tile, int N>
void check_swizzled_fragments() {
  constexpr int R = Tile::layout_type::rows(), C = Tile::layout_type::cols();
  constexpr int per = fragment_access_bytes(static_cast<int>(sizeof(T)), N) / static_cast<int>(sizeof(T));
  const unsigned seed = fresh_seed();
  INFO("seed " << seed << " elem " << sizeof(T) << " tile " << R << "x" << C << " N " << N);
  DeviceBuffer<T> in(R * C), read(static_cast<std::size_t>(R) * C * N), written(R * C);
  const auto host = random_values<T>(in.size(), seed);
  in.upload(host);
  read.poison();
  written.poison();
  swizzled_fragments<T, Tile, N><<<1, 256>>>(in.get(), read.get(), written.get());
  REQUIRE_LAUNCH_OK();
  const auto got = read.download();
  std::vector<unsigned char> poison(sizeof(T), poison_byte);
  for (int k = 0; k < R * C; ++k) {
    const int c = k % C;
    for (int i = 0; i < N; ++i) {
      const T& g = got[static_cast<std::size_t>(k) * N + i];
      if (c % per == 0 && c + N <= C) REQUIRE(same_bytes(g, host[k + i]));
      else REQUIRE(std::memcmp(&g, poison.data(), sizeof(T)) == 0);
    }
  }
  const auto w = written.download();
  for (int k = 0; k < R * (C / N) * N; ++k) {
    const int r = k / ((C / N) * N), c = k % ((C / N) * N);
    REQUIRE(same_bytes(w[r * C + c], host[r * C + c]));
  }
}

// A transposed load stated inside, through a plain view whose rows are not 16-byte aligned (pitch
// k + 1): the vectors are tested at run time, not assumed.
template <class T, int R, int C, int Threads>
__global__ void transposed_load_plain(const T* in, T* out, int m, int k, int pitch) {
  __shared__ TransposedLoadTile<T, R, C> tile;
  const FixedThreadBlock<Threads> block;
  const Coord origin{int(blockIdx.y) * C, int(blockIdx.x) * R};
  copy_global_to_tile_transposed(make_global_matrix(in, m, k, pitch), origin, tile, boundary::inside, block);
  __syncthreads();
  copy_tile_to_global(tile, make_global_matrix(out, k, m), origin.transposed(), block);
}

template <class T, int R, int C, int Threads>
void check_transposed_load_plain(int m, int k, int pitch) {
  const unsigned seed = fresh_seed();
  INFO("seed " << seed << " elem " << sizeof(T) << " tile " << R << "x" << C << " m " << m << " k " << k << " pitch "
               << pitch);
  DeviceBuffer<T> in(static_cast<std::size_t>(m) * pitch), out(static_cast<std::size_t>(m) * k);
  const auto host = random_values<T>(in.size(), seed);
  in.upload(host);
  out.poison();
  transposed_load_plain<T, R, C, Threads><<<dim3(k / R, m / C), Threads>>>(in.get(), out.get(), m, k, pitch);
  REQUIRE_LAUNCH_OK();
  const auto got = out.download();
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < k; ++j)
      REQUIRE(same_bytes(got[static_cast<std::size_t>(j) * m + i], host[static_cast<std::size_t>(i) * pitch + j]));
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

TEST_CASE("halo tiles through aligned views: 2D and 1D, loads with the halo, interior stores") {
  check_halo_round_trip<16, 32, 2, 256>(3, 3);  // interior at byte 296: 8-byte units, not 16
  check_halo_round_trip<8, 32, 1, 128>(3, 2);
  check_halo_1d_warp<64, 1>(5);  // a warp storing from byte 4 of its storage
}

TEST_CASE("shaped blocks: rows not whole rows of units, more threads than units") {
  check_round_trip_shaped<float, 16, 32, 12, 8>(3, 2);  // 12 % 8 units per row: the split falls back
  check_round_trip_shaped<float, 8, 16, 32, 8>(2, 3);   // 32 units, 256 threads
  check_round_trip_shaped<double, 8, 16, 24, 4>(2, 2);
  check_round_trip_shaped<Quad, 4, 8, 8, 8>(2, 2);       // 16-byte elements, 32 units for 64 threads
}

TEST_CASE("planned copies: aligned views off the vector grid, halo tiles, strided views, zero edges") {
  // Aligned view, origin column 1: the plan tests the column (misaligned vectors before).
  check_planned_steps<float, StaticTile<float, 8, 32>, 64, 0>(24, 100, Coord{3, 1}, Coord{0, 32}, 4);
  check_planned_steps<float, StaticTile<float, 8, 32>, 64, 0>(24, 96, Coord{8, 0}, Coord{0, 32}, 4);
  // A halo tile (reach 2 x 4: 16-byte units) stepping past the right edge, zero outside.
  check_planned_steps<float, StaticHaloTile<float, 8, 32, 2, 4>, 128, 0>(20, 72, Coord{4, 4}, Coord{0, 32}, 3);
  check_planned_steps<double, StaticHaloTile<double, 8, 16, 1, 2>, 64, 1>(20, 50, Coord{0, 0}, Coord{5, 16}, 4);
  // Column-major data through layout_stride: one-element units stepping by the view's strides.
  check_planned_steps<float, StaticTile<float, 8, 8>, 64, 2>(40, 30, Coord{2, 3}, Coord{8, 0}, 5);
  check_planned_steps<std::uint16_t, StaticTile<std::uint16_t, 8, 32>, 64, 1>(17, 70, Coord{1, 3}, Coord{0, 32}, 3);
}

TEST_CASE("planned copies with cp.async of 1- and 2-byte elements") {
  check_k_loop<std::uint16_t, 8, 64, 128, boundary::Zero, true>(2, 64 * 2 + 3);
  check_k_loop<std::uint8_t, 16, 64, 64, boundary::Inside, true>(2, 64 * 3);
}

TEST_CASE("fragments of swizzled tiles: pieces through the layout") {
  check_swizzled_fragments<Quad, SwizzledTile<Quad, 8, 8>, 2>();              // 16-byte elements, permuted
  check_swizzled_fragments<double, SwizzledTile<double, 16, 16>, 3>();        // one-element pieces
  check_swizzled_fragments<float, TransposeTile<float, 32, 32>, 3>();         // crossing 16-byte chunks
  check_swizzled_fragments<float, TransposeTile<float, 32, 32>, 8>();         // two chunks
  check_swizzled_fragments<std::uint16_t, TransposeTile<std::uint16_t, 64, 64>, 6>();
}

TEST_CASE("transposed loads: plain views stated inside, narrow groups, halves and bytes") {
  check_transposed_load_plain<float, 8, 128, 256>(128 * 2, 8 * 3, 8 * 3 + 1);  // rows 4-byte aligned only
  check_transposed_load_plain<float, 8, 128, 256>(128, 8 * 2, 8 * 2);         // aligned by chance: vectors
  check_transposed_load<float, 4, 128, 256, boundary::Inside, true>(128 * 2, 4 * 3);  // 8-byte units would conflict
  check_transposed_load<std::uint8_t, 16, 128, 96, boundary::Inside, true>(128 * 2, 16 * 2);  // 96 does not divide
  check_transposed_load<std::uint16_t, 16, 64, 96, boundary::Zero, true>(64 * 2 + 5, 16 * 2 + 2);
  check_transposed_load<float, 4, 128, 256, boundary::Zero, true>(128 + 7, 4 * 3 + 2);  // its edge path compiles
}
