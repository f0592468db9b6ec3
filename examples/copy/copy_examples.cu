// smemtile_copy_examples: the coalesced transpose, the 1D three-point sum and the 2D five-point
// stencil of copy_kernels.cuh on odd-sized random inputs, each checked element by element against
// a host computation. Exit status 0: all correct (or no GPU, said so); 1: a wrong value or error.
#include <cstdio>
#include <random>
#include <vector>

#include "../common/cuda_check.cuh"  // CUDA_CHECK, CUDA_CHECK_LAUNCH, example_has_gpu
#include "copy_kernels.cuh"

namespace {

std::vector<float> random_floats(std::size_t n, unsigned seed) {
  std::mt19937 engine(seed);
  std::uniform_real_distribution<float> value(-1.0f, 1.0f);
  std::vector<float> v(n);
  for (float& x : v) x = value(engine);
  return v;
}

// A device copy of `host` and a device buffer of `out_count` floats poisoned with NaN bits.
struct Buffers {
  float* in = nullptr;
  float* out = nullptr;
  Buffers(const std::vector<float>& host, std::size_t out_count) {
    CUDA_CHECK(cudaMalloc(&in, host.size() * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&out, out_count * sizeof(float)));
    CUDA_CHECK(cudaMemcpy(in, host.data(), host.size() * sizeof(float), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemset(out, 0xFF, out_count * sizeof(float)));
  }
  ~Buffers() {
    cudaFree(in);
    cudaFree(out);
  }
  std::vector<float> result(std::size_t count) const {
    std::vector<float> host(count);
    CUDA_CHECK(cudaMemcpy(host.data(), out, count * sizeof(float), cudaMemcpyDeviceToHost));
    return host;
  }
};

// Every element equal (the kernels add the same floats in the same order as the host).
bool same(const std::vector<float>& got, const std::vector<float>& want, const char* what) {
  for (std::size_t i = 0; i < want.size(); ++i) {
    if (!(got[i] == want[i])) {
      std::printf("%-26s WRONG at %zu: %g, expected %g\n", what, i, got[i], want[i]);
      return false;
    }
  }
  std::printf("%-26s correct (%zu elements)\n", what, want.size());
  return true;
}

bool transpose(int rows, int cols) {
  const std::vector<float> in = random_floats(std::size_t(rows) * cols, 1);
  std::vector<float> want(in.size());
  for (int r = 0; r < rows; ++r)
    for (int c = 0; c < cols; ++c) want[std::size_t(c) * rows + r] = in[std::size_t(r) * cols + c];
  Buffers b(in, in.size());
  const int t = copy_examples::transpose_tile;
  const dim3 grid((cols + t - 1) / t, (rows + t - 1) / t), block(t, copy_examples::transpose_block_rows);
  copy_examples::transpose_32x32<<<grid, block>>>(smemtile::make_global_matrix<const float>(b.in, rows, cols),
                                                  smemtile::make_global_matrix(b.out, cols, rows));
  CUDA_CHECK_LAUNCH();
  return same(b.result(in.size()), want, "transpose 32x32 (32x8)");
}

bool three_point(int n, int block_threads) {
  const std::vector<float> a = random_floats(std::size_t(n), 2);
  std::vector<float> want(a.size());
  for (int i = 0; i < n; ++i) want[i] = (i > 0 ? a[i - 1] : 0.0f) + a[i] + (i + 1 < n ? a[i + 1] : 0.0f);
  Buffers b(a, a.size());
  const smemtile::SharedMemoryPlan plan =
      smemtile::plan_shared_memory(copy_examples::carve_three_point, block_threads);
  const smemtile::LaunchStatus status = smemtile::launch_with_plan(
      copy_examples::three_point_sum_1d, dim3((n + block_threads - 1) / block_threads), dim3(block_threads), plan,
      nullptr, smemtile::make_global_vector<const float>(b.in, n), smemtile::make_global_vector(b.out, n),
      block_threads);
  if (!status) {
    std::printf("three-point sum: %s\n", status.message.c_str());
    return false;
  }
  CUDA_CHECK_LAUNCH();
  return same(b.result(a.size()), want, "three-point sum 1D");
}

bool five_point(int rows, int cols) {
  const std::vector<float> in = random_floats(std::size_t(rows) * cols, 3);
  const auto at = [&](int r, int c) {
    return (r < 0 || r >= rows || c < 0 || c >= cols) ? 0.0f : in[std::size_t(r) * cols + c];
  };
  std::vector<float> want(in.size());
  for (int r = 0; r < rows; ++r)
    for (int c = 0; c < cols; ++c)
      want[std::size_t(r) * cols + c] = at(r - 1, c) + at(r + 1, c) + at(r, c - 1) + at(r, c + 1) - 4.0f * at(r, c);
  Buffers b(in, in.size());
  const dim3 block(copy_examples::stencil_bx, copy_examples::stencil_by);
  const dim3 grid((cols + block.x - 1) / block.x, (rows + block.y - 1) / block.y);
  copy_examples::five_point_2d<<<grid, block>>>(smemtile::make_global_matrix<const float>(b.in, rows, cols),
                                                smemtile::make_global_matrix(b.out, rows, cols));
  CUDA_CHECK_LAUNCH();
  return same(b.result(in.size()), want, "five-point stencil 2D");
}

}  // namespace

int main() {
  if (!example_has_gpu("smemtile_copy_examples")) return 0;
  bool ok = true;
  ok = transpose(1000, 777) && ok;
  ok = transpose(31, 4099) && ok;
  ok = three_point(1000003, 256) && ok;
  ok = three_point(777, 96) && ok;
  ok = five_point(1031, 999) && ok;
  return ok ? 0 : 1;
}
