// smemtile_carving: several regions carved from one dynamic shared memory block.
//
// 1. The programming guide's short[128], float[64], int[256] (and, to show why alignment matters,
//    short[127] first: the guide's pointer casts would put the floats at byte 254).
// 2. A 16x16 RuntimeTile (padded) beside a cub::BlockReduce<float, 256>::TempStorage: the block
//    transposes its input through the tile and sums it with BlockReduce; both results are checked.
// Exit status 0: all correct (or no GPU, said so); 1: a wrong value or a CUDA error.
#include <cmath>
#include <cstdio>
#include <vector>

#include "../common/cuda_check.cuh"  // CUDA_CHECK, CUDA_CHECK_LAUNCH
#include "carving_kernels.cuh"

namespace {

// Prints where each of the guide's arrays goes, as the arena places them on the host (Arena::over
// on a 1024-aligned host buffer: the same code the kernel runs) and as the guide's casts would.
void print_guide_plan(carving::GuideCounts counts) {
  alignas(1024) static unsigned char host_buffer[8192];
  smemtile::Arena arena = smemtile::Arena::over(host_buffer, sizeof host_buffer);
  const carving::GuideArrays a = carving::carve_guide_arrays(arena, counts);
  const auto at = [](const void* p) { return static_cast<long>(static_cast<const unsigned char*>(p) - host_buffer); };
  const long guide_floats = static_cast<long>(counts.shorts * sizeof(short));
  const long guide_ints = guide_floats + static_cast<long>(counts.floats * sizeof(float));
  std::printf("short[%d] float[%d] int[%d]: arena offsets %ld, %ld, %ld (guide's casts: 0, %ld%s, %ld%s); "
              "%zu bytes\n",
              counts.shorts, counts.floats, counts.ints, at(a.array0), at(a.array1), at(a.array2), guide_floats,
              guide_floats % alignof(float) ? " MISALIGNED" : "", guide_ints,
              guide_ints % alignof(int) ? " MISALIGNED" : "",
              smemtile::plan_shared_memory(carving::carve_guide_arrays, counts).launch_bytes());
}

int run_guide_arrays(carving::GuideCounts counts) {
  std::vector<short> shorts(counts.shorts);
  std::vector<float> floats(counts.floats);
  std::vector<int> ints(counts.ints);
  for (int i = 0; i < counts.shorts; ++i) shorts[i] = static_cast<short>(1000 + 7 * i);
  for (int i = 0; i < counts.floats; ++i) floats[i] = static_cast<float>(100000 + 13 * i);
  for (int i = 0; i < counts.ints; ++i) ints[i] = 3000000 + 17 * i;
  short* d_shorts;
  float* d_floats;
  int *d_ints, *d_out;
  CUDA_CHECK(cudaMalloc(&d_shorts, shorts.size() * sizeof(short)));
  CUDA_CHECK(cudaMalloc(&d_floats, floats.size() * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&d_ints, ints.size() * sizeof(int)));
  CUDA_CHECK(cudaMalloc(&d_out, carving::guide_block_threads * sizeof(int)));
  CUDA_CHECK(cudaMemcpy(d_shorts, shorts.data(), shorts.size() * sizeof(short), cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemcpy(d_floats, floats.data(), floats.size() * sizeof(float), cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemcpy(d_ints, ints.data(), ints.size() * sizeof(int), cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemset(d_out, 0xA5, carving::guide_block_threads * sizeof(int)));

  const smemtile::SharedMemoryPlan plan = smemtile::plan_shared_memory(carving::carve_guide_arrays, counts);
  const smemtile::LaunchStatus status =
      smemtile::launch_with_plan(carving::use_guide_arrays, dim3(1), dim3(carving::guide_block_threads), plan,
                                 nullptr, d_shorts, d_floats, d_ints, d_out, counts);
  if (!status) {
    std::fprintf(stderr, "%s\n", status.message.c_str());
    return 1;
  }
  CUDA_CHECK_LAUNCH();
  std::vector<int> out(carving::guide_block_threads);
  CUDA_CHECK(cudaMemcpy(out.data(), d_out, out.size() * sizeof(int), cudaMemcpyDeviceToHost));
  int wrong = 0;
  for (int t = 0; t < carving::guide_block_threads; ++t)
    if (out[t] != carving::expected_guide_output(t, shorts.data(), floats.data(), ints.data(), counts)) ++wrong;
  std::printf("  kernel using the three arrays: %s\n", wrong == 0 ? "ok" : "WRONG");
  CUDA_CHECK(cudaFree(d_shorts));
  CUDA_CHECK(cudaFree(d_floats));
  CUDA_CHECK(cudaFree(d_ints));
  CUDA_CHECK(cudaFree(d_out));
  return wrong;
}

int run_tile_and_reduce() {
  const carving::StagingShape shape{16, 16, 1};
  const int n = shape.rows * shape.cols;
  std::vector<float> in(n);
  double expected_sum = 0;
  for (int i = 0; i < n; ++i) {
    in[i] = static_cast<float>((i * 37) % 101);  // small integers: the float sum is exact in any order
    expected_sum += in[i];
  }
  float *d_in, *d_transposed, *d_sum;
  CUDA_CHECK(cudaMalloc(&d_in, n * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&d_transposed, n * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&d_sum, sizeof(float)));
  CUDA_CHECK(cudaMemcpy(d_in, in.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemset(d_transposed, 0xA5, n * sizeof(float)));
  CUDA_CHECK(cudaMemset(d_sum, 0xA5, sizeof(float)));

  const smemtile::SharedMemoryPlan plan = smemtile::plan_shared_memory(carving::carve_tile_and_reduce, shape);
  std::printf("tile float[16][16 + 1] + BlockReduce<float, 256>::TempStorage (%zu bytes, align %zu): %zu bytes\n",
              sizeof(carving::BlockReduce::TempStorage), alignof(carving::BlockReduce::TempStorage),
              plan.launch_bytes());
  const smemtile::LaunchStatus status =
      smemtile::launch_with_plan(carving::transpose_and_sum, dim3(1), dim3(carving::reduce_block_threads), plan,
                                 nullptr, d_in, d_transposed, d_sum, shape);
  if (!status) {
    std::fprintf(stderr, "%s\n", status.message.c_str());
    return 1;
  }
  CUDA_CHECK_LAUNCH();
  std::vector<float> transposed(n);
  float sum = 0;
  CUDA_CHECK(cudaMemcpy(transposed.data(), d_transposed, n * sizeof(float), cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaMemcpy(&sum, d_sum, sizeof(float), cudaMemcpyDeviceToHost));
  int wrong = 0;
  for (int k = 0; k < n; ++k)  // element k of a column-major walk: (k % rows, k / rows)
    if (transposed[k] != in[(k % shape.rows) * shape.cols + k / shape.rows]) ++wrong;
  std::printf("  transpose through the tile: %s; BlockReduce sum %.1f (expected %.1f): %s\n",
              wrong == 0 ? "ok" : "WRONG", sum, expected_sum, sum == expected_sum ? "ok" : "WRONG");
  if (sum != expected_sum) ++wrong;
  CUDA_CHECK(cudaFree(d_in));
  CUDA_CHECK(cudaFree(d_transposed));
  CUDA_CHECK(cudaFree(d_sum));
  return wrong;
}

}  // namespace

int main() {
  print_guide_plan({128, 64, 256});
  print_guide_plan({127, 64, 256});
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    std::printf("smemtile_carving: no CUDA device found; the kernels were not run (not a failure).\n");
    return 0;
  }
  int wrong = run_guide_arrays({128, 64, 256});
  wrong += run_guide_arrays({127, 64, 256});
  wrong += run_tile_and_reduce();
  if (wrong != 0) {
    std::printf("FAILED\n");
    return 1;
  }
  std::printf("all carved regions hold what was written to them\n");
  return 0;
}
