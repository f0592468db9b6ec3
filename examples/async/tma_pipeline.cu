// smemtile_tma_pipeline: the same row sums as smemtile_async_pipeline, each stage loaded by one
// TMA copy (sm_90 and later): a tensor map made on the host, two buffers, two mbarriers.
// Prints one line; on a GPU below sm_90 it says so and runs nothing.
//
// Exit status: 0 when the result is correct, or when there is no GPU or no TMA (said plainly);
// 1 otherwise.
#include <cstdio>
#include <vector>

#include "../common/cuda_check.cuh"
#include "pipeline_kernels.cuh"
#include "reference.cuh"

int main() {
  int devices = 0;
  const cudaError_t status = cudaGetDeviceCount(&devices);
  if (status != cudaSuccess || devices == 0) {
    std::printf("smemtile_tma_pipeline: no CUDA device (%s); nothing run.\n",
                status != cudaSuccess ? cudaGetErrorString(status) : "device count is 0");
    return 0;
  }
  int device = 0, major = 0, minor = 0;
  CUDA_CHECK(cudaGetDevice(&device));
  CUDA_CHECK(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device));
  CUDA_CHECK(cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, device));
  if (major < 9) {
    std::printf("smemtile_tma_pipeline: skipped: TMA needs sm_90 or later, this device is sm_%d%d.\n", major, minor);
    return 0;
  }
  const int rows = 1000, cols = 10000, pitch = 10004;  // pitch * 4 bytes = 40016, a multiple of 16
  const float scale = 0.5f;
  const std::vector<float> host = pipeline::example_matrix(rows, pitch);
  const std::vector<float> expected = pipeline::reference_row_sums(host, rows, cols, pitch, scale);

  float* d_in = nullptr;
  float* d_out = nullptr;
  CUDA_CHECK(cudaMalloc(&d_in, host.size() * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&d_out, rows * sizeof(float)));
  CUDA_CHECK(cudaMemcpy(d_in, host.data(), host.size() * sizeof(float), cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemset(d_out, 0xFF, rows * sizeof(float)));

  const smemtile::TmaMapResult map =
      smemtile::make_tma_map<pipeline::TmaTile>(smemtile::make_global_matrix(static_cast<const float*>(d_in), rows,
                                                                              cols, pitch));
  if (!map) {
    std::printf("smemtile_tma_pipeline: no tensor map: %s (driver status %d)\n", map.error, map.driver_status);
    return 1;
  }
  const int blocks = (rows + pipeline::tile_rows - 1) / pipeline::tile_rows;
  pipeline::row_sums_tma<<<blocks, pipeline::threads>>>(map.map, rows, cols, scale, d_out);
  CUDA_CHECK_LAUNCH();

  std::vector<float> result(rows);
  CUDA_CHECK(cudaMemcpy(result.data(), d_out, rows * sizeof(float), cudaMemcpyDeviceToHost));
  int wrong = 0;
  for (int r = 0; r < rows; ++r) wrong += result[r] == expected[r] ? 0 : 1;
  std::printf("smemtile_tma_pipeline: %d x %d row sums, %d x %d tiles double-buffered with TMA: %s "
              "(%d of %d rows wrong)\n",
              rows, cols, pipeline::tile_rows, pipeline::tile_cols, wrong == 0 ? "correct" : "WRONG", wrong, rows);
  CUDA_CHECK(cudaFree(d_in));
  CUDA_CHECK(cudaFree(d_out));
  return wrong == 0 ? 0 : 1;
}
