// smemtile_stencil_runtime_coefficients: device_stencil with coefficients known only at run time, and
// on bytes with a float accumulator (README, "Stencils").
//   - a 7 x 7 filter carried by the op as a member array: the op is copied into the kernel's
//     parameters at each call (here 196 bytes; kernel parameters hold 32 KB from CUDA 12.1 on sm_70+),
//     so each call may carry other coefficients;
//   - the same filter read through a pointer to device memory held by the op: for coefficients
//     too large for the parameters, or shared with other kernels;
//   - a 3x3 box blur of an 8-bit image: the op reads uint8_t, sums in float and returns the rounded
//     byte itself (device_stencil stores what the op returns with static_cast<T>).
// Each result is checked against a host computation of the same op (exact: the ops round
// explicitly). Exit status 0: all correct (or no GPU, said so); 1: a wrong value or an error.
#include <smemtile/smemtile.cuh>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <random>
#include <vector>

#include "../common/cuda_check.cuh"  // CUDA_CHECK, example_has_gpu

namespace stencil_usage {

// out(y, x) = sum over the 7 x 7 window of w[dy + 3][dx + 3] * in(y + dy, x + dx).
struct Filter7x7 {
  float w[7][7];  // the coefficients travel with the op
#pragma nv_exec_check_disable
  template <class N>
  __host__ __device__ float operator()(const N& n) const {
    float sum = 0.0f;
    for (int dy = -3; dy <= 3; ++dy)
      for (int dx = -3; dx <= 3; ++dx) sum = fmaf(w[dy + 3][dx + 3], n(dy, dx), sum);
    return sum;
  }
};

// The same through a pointer: the op holds the address of 49 coefficients in device memory.
struct PointerFilter7x7 {
  const float* w;
#pragma nv_exec_check_disable
  template <class N>
  __host__ __device__ float operator()(const N& n) const {
    float sum = 0.0f;
    for (int dy = -3; dy <= 3; ++dy)
      for (int dx = -3; dx <= 3; ++dx) sum = fmaf(w[(dy + 3) * 7 + dx + 3], n(dy, dx), sum);
    return sum;
  }
};

// 3x3 box blur of bytes: accumulated in float (exact for sums of bytes), divided by 9 rounding
// halves up, returned as a byte.
struct BoxBlur {
#pragma nv_exec_check_disable
  template <class N>
  __host__ __device__ std::uint8_t operator()(const N& n) const {
    float sum = 0.0f;
    for (int dy = -1; dy <= 1; ++dy)
      for (int dx = -1; dx <= 1; ++dx) sum += static_cast<float>(n(dy, dx));
    return static_cast<std::uint8_t>((static_cast<int>(sum) + 4) / 9);
  }
};

// The host's neighbourhood, clamped at the edges (boundary::clamp).
template <class T>
struct HostClamped {
  const T* a;
  int rows, cols, y, x;
#pragma nv_exec_check_disable
  __host__ __device__ T operator()(int dy, int dx) const {
    const int yy = y + dy < 0 ? 0 : y + dy >= rows ? rows - 1 : y + dy;
    const int xx = x + dx < 0 ? 0 : x + dx >= cols ? cols - 1 : x + dx;
    return a[static_cast<std::size_t>(yy) * cols + xx];
  }
};

template <class T, class Op>
bool check(const char* what, const std::vector<T>& in, const std::vector<T>& got, int rows, int cols, const Op& op) {
  for (int y = 0; y < rows; ++y)
    for (int x = 0; x < cols; ++x) {
      const T want = op(HostClamped<T>{in.data(), rows, cols, y, x});
      const T have = got[static_cast<std::size_t>(y) * cols + x];
      if (std::memcmp(&want, &have, sizeof(T)) != 0) {
        std::printf("%-44s WRONG at (%d, %d): %g, expected %g\n", what, y, x, static_cast<double>(have),
                    static_cast<double>(want));
        return false;
      }
    }
  std::printf("%-44s correct (%d x %d, exact)\n", what, rows, cols);
  return true;
}

bool status_ok(const smemtile::LaunchStatus& status, const char* what) {
  if (status) return true;
  std::printf("%-44s ERROR: %s\n", what, status.message.c_str());
  return false;
}

bool filters(int rows, int cols) {
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> value(-1.0f, 1.0f);
  Filter7x7 filter{};
  for (auto& row : filter.w)
    for (float& c : row) c = value(rng) / 49.0f;
  std::vector<float> in(static_cast<std::size_t>(rows) * cols);
  for (float& v : in) v = value(rng);
  const std::size_t bytes = in.size() * sizeof(float);
  float *d_in = nullptr, *d_out = nullptr, *d_w = nullptr;
  CUDA_CHECK(cudaMalloc(&d_in, bytes));
  CUDA_CHECK(cudaMalloc(&d_out, bytes));
  CUDA_CHECK(cudaMalloc(&d_w, sizeof(filter.w)));
  CUDA_CHECK(cudaMemcpy(d_in, in.data(), bytes, cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemcpy(d_w, filter.w, sizeof(filter.w), cudaMemcpyHostToDevice));
  const auto src = smemtile::make_global_matrix<const float>(d_in, rows, cols);
  const auto dst = smemtile::make_global_matrix(d_out, rows, cols);
  std::vector<float> out(in.size());
  bool ok = true;

  // Radius 3, box: the 7 x 7 window.
  if (!status_ok(smemtile::device_stencil<3, smemtile::StencilShape::box>(src, dst, smemtile::boundary::clamp, filter),
                 "7x7 filter (member array)"))
    return false;
  CUDA_CHECK(cudaMemcpy(out.data(), d_out, bytes, cudaMemcpyDeviceToHost));
  ok = check("7x7 filter (member array)", in, out, rows, cols, filter) && ok;

  CUDA_CHECK(cudaMemset(d_out, 0xFF, bytes));
  if (!status_ok(smemtile::device_stencil<3, smemtile::StencilShape::box>(src, dst, smemtile::boundary::clamp,
                                                                          PointerFilter7x7{d_w}),
                 "7x7 filter (device pointer)"))
    return false;
  CUDA_CHECK(cudaMemcpy(out.data(), d_out, bytes, cudaMemcpyDeviceToHost));
  ok = check("7x7 filter (device pointer)", in, out, rows, cols, filter) && ok;
  CUDA_CHECK(cudaFree(d_in));
  CUDA_CHECK(cudaFree(d_out));
  CUDA_CHECK(cudaFree(d_w));
  return ok;
}

bool blur(int rows, int cols) {
  std::mt19937 rng(8);
  std::vector<std::uint8_t> in(static_cast<std::size_t>(rows) * cols);
  for (auto& v : in) v = static_cast<std::uint8_t>(rng() & 0xFF);
  std::uint8_t *d_in = nullptr, *d_out = nullptr;
  CUDA_CHECK(cudaMalloc(&d_in, in.size()));
  CUDA_CHECK(cudaMalloc(&d_out, in.size()));
  CUDA_CHECK(cudaMemcpy(d_in, in.data(), in.size(), cudaMemcpyHostToDevice));
  if (!status_ok(smemtile::device_stencil<1, smemtile::StencilShape::box>(
                     smemtile::make_global_matrix<const std::uint8_t>(d_in, rows, cols),
                     smemtile::make_global_matrix(d_out, rows, cols), smemtile::boundary::clamp, BoxBlur{}),
                 "3x3 box blur of bytes"))
    return false;
  std::vector<std::uint8_t> out(in.size());
  CUDA_CHECK(cudaMemcpy(out.data(), d_out, out.size(), cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaFree(d_in));
  CUDA_CHECK(cudaFree(d_out));
  return check("3x3 box blur of bytes", in, out, rows, cols, BoxBlur{});
}

}  // namespace stencil_usage

using namespace stencil_usage;

int main() {
  if (!example_has_gpu("smemtile_stencil_runtime_coefficients")) return 0;
  bool ok = true;
  ok = filters(517, 389) && ok;
  ok = filters(64, 64) && ok;
  ok = blur(480, 640) && ok;
  ok = blur(333, 517) && ok;
  std::printf("smemtile_stencil_runtime_coefficients: %s\n", ok ? "all correct" : "WRONG results above");
  return ok ? 0 : 1;
}
