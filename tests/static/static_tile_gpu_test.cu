// GPU tests of StaticTile.
#include <smemtile/smemtile.cuh>

#include "gpu_test.cuh"

namespace {
__global__ void copy_through_tile(const int* in, int* out) {
  __shared__ smemtile::StaticTile<int, 16, 32, 1> tile;
  const unsigned rank = smemtile::thread_rank();
  tile(smemtile::thread_coord()) = in[rank];
  __syncthreads();
  out[rank] = tile.col_major(rank);
}
}  // namespace

TEST_CASE("a 16x32 tile read back column-major is the transpose") {
  using namespace smemtile_test;
  const unsigned seed = fresh_seed();
  INFO("seed " << seed);
  const auto input = random_values<int>(16 * 32, seed);
  DeviceBuffer<int> in(input.size()), out(input.size());
  in.upload(input);
  out.poison();
  copy_through_tile<<<1, dim3(32, 16)>>>(in.get(), out.get());
  REQUIRE_LAUNCH_OK();
  const auto result = out.download();
  for (unsigned k = 0; k < 16 * 32; ++k) REQUIRE(result[k] == input[(k % 16) * 32 + k / 16]);
}
