// smemtile_async_pipeline: row sums of a 1000 x 10000 matrix (pitch 10004), each block walking
// its strip of rows tile by tile with cp.async double buffering (pipeline_kernels.cuh); checks the
// result against the host and prints one line.
//
// Exit status: 0 when the result is correct, or when there is no GPU (said plainly); 1 otherwise.
#include <cstdio>
#include <vector>

#include "../common/cuda_check.cuh"
#include "pipeline_kernels.cuh"
#include "reference.cuh"

int main() {
  int devices = 0;
  const cudaError_t status = cudaGetDeviceCount(&devices);
  if (status != cudaSuccess || devices == 0) {
    std::printf("smemtile_async_pipeline: no CUDA device (%s); nothing run.\n",
                status != cudaSuccess ? cudaGetErrorString(status) : "device count is 0");
    return 0;
  }
  const int rows = 1000, cols = 10000, pitch = 10004;  // the last tile of each strip is partial
  const float scale = 0.5f;
  const std::vector<float> host = pipeline::example_matrix(rows, pitch);
  const std::vector<float> expected = pipeline::reference_row_sums(host, rows, cols, pitch, scale);

  float* d_in = nullptr;
  float* d_out = nullptr;
  CUDA_CHECK(cudaMalloc(&d_in, host.size() * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&d_out, rows * sizeof(float)));
  CUDA_CHECK(cudaMemcpy(d_in, host.data(), host.size() * sizeof(float), cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemset(d_out, 0xFF, rows * sizeof(float)));  // NaNs: a row not written fails

  const auto in = smemtile::make_global_matrix(static_cast<const float*>(d_in), rows, cols, pitch);
  const int blocks = (rows + pipeline::tile_rows - 1) / pipeline::tile_rows;
  pipeline::row_sums_async<<<blocks, pipeline::threads>>>(in, scale, d_out);
  CUDA_CHECK_LAUNCH();

  std::vector<float> result(rows);
  CUDA_CHECK(cudaMemcpy(result.data(), d_out, rows * sizeof(float), cudaMemcpyDeviceToHost));
  int wrong = 0;
  for (int r = 0; r < rows; ++r) wrong += result[r] == expected[r] ? 0 : 1;
  std::printf("smemtile_async_pipeline: %d x %d row sums, %d-column tiles double-buffered with cp.async: %s "
              "(%d of %d rows wrong)\n",
              rows, cols, pipeline::tile_cols, wrong == 0 ? "correct" : "WRONG", wrong, rows);
  CUDA_CHECK(cudaFree(d_in));
  CUDA_CHECK(cudaFree(d_out));
  return wrong == 0 ? 0 : 1;
}
