// GPU tests of AutoPaddedTile and SwizzledTile: they hold the right data for every element size
// and shape. A block writes random input into the tile in row-major order and reads it back in
// column-major order (the access both layouts exist for); every output element is checked.
#include <smemtile/core/conflict_free_tiles.cuh>
#include <smemtile/smemtile.cuh>

#include <cstdint>

#include "gpu_test.cuh"

namespace {

struct alignas(16) Bytes16 {
  std::uint32_t word[4];
};

// out[k] = tile.col_major(k) after tile.row_major(k) = in[k]; flags[0] = 1 if the tile is not on
// its layout's base alignment (the swizzle's bank promise needs 128 bytes).
template <class Tile>
__global__ void transpose_through_tile(const typename Tile::value_type* in, typename Tile::value_type* out,
                                       int* misaligned) {
  __shared__ Tile tile;
  const int n = tile.size();
  for (int k = static_cast<int>(threadIdx.x); k < n; k += static_cast<int>(blockDim.x)) tile.row_major(k) = in[k];
  __syncthreads();
  for (int k = static_cast<int>(threadIdx.x); k < n; k += static_cast<int>(blockDim.x)) out[k] = tile.col_major(k);
  if (threadIdx.x == 0)
    *misaligned = reinterpret_cast<std::uintptr_t>(tile.data()) % Tile::layout_type::base_alignment != 0;
}

template <class Tile>
void check_transpose_through() {
  using namespace smemtile_test;
  using T = typename Tile::value_type;
  const int rows = Tile::layout_type::rows();
  const int cols = Tile::layout_type::cols();
  const unsigned seed = fresh_seed();
  INFO(sizeof(T) << "-byte elements, " << rows << "x" << cols << ", seed " << seed);
  const auto input = random_values<T>(std::size_t(rows) * cols, seed);
  DeviceBuffer<T> in(input.size()), out(input.size());
  DeviceBuffer<int> misaligned(1);
  in.upload(input);
  out.poison();
  misaligned.poison();
  transpose_through_tile<Tile><<<1, 256>>>(in.get(), out.get(), misaligned.get());
  REQUIRE_LAUNCH_OK();
  REQUIRE(misaligned.download()[0] == 0);
  const auto result = out.download();
  for (int k = 0; k < rows * cols; ++k) {
    INFO("k " << k);
    REQUIRE(same_bytes(result[k], input[(k % rows) * cols + k / rows]));
  }
}

template <class T>
void check_auto_padded_shapes() {
  check_transpose_through<smemtile::AutoPaddedTile<T, 32, 32>>();
  check_transpose_through<smemtile::AutoPaddedTile<T, 16, 32>>();
  check_transpose_through<smemtile::AutoPaddedTile<T, 8, 64>>();
}

template <class T>
void check_swizzled_shapes() {
  check_transpose_through<smemtile::SwizzledTile<T, 32, 32>>();
  check_transpose_through<smemtile::SwizzledTile<T, 16, 32>>();
  check_transpose_through<smemtile::SwizzledTile<T, 8, 64>>();
}

}  // namespace

TEST_CASE("auto-padded tiles hold the right data for 1-, 2-, 4-, 8- and 16-byte elements") {
  check_auto_padded_shapes<std::uint8_t>();
  check_auto_padded_shapes<std::uint16_t>();
  check_auto_padded_shapes<std::uint32_t>();
  check_auto_padded_shapes<std::uint64_t>();
  check_auto_padded_shapes<Bytes16>();
}

TEST_CASE("swizzled tiles hold the right data for 4-, 8- and 16-byte elements") {
  check_swizzled_shapes<float>();
  check_swizzled_shapes<double>();
  check_swizzled_shapes<Bytes16>();
}
