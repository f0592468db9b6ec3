// smemtile_stencil_examples: the kernels and ops of stencil_kernels.cuh on odd-sized random inputs,
// each checked against a host computation; one line per check.
//   - the lecture's sum3_kernel: naive, shared memory with boundary branches, smemtile halo tile,
//     device_stencil (ints: every element exact)
//   - 2D heat equation, 5-point, boundary::clamp, several steps ping-ponging two buffers
//   - 3D 7-point Laplacian, boundary::periodic
//   - 3D radius-4 star (eighth-order second derivative), boundary::zero
//   (floats: against a double-precision host reference, within a tolerance printed with the check)
// Exit status 0: all correct (or no GPU, said so); 1: a wrong value or an error.
#include <cmath>
#include <cstdio>
#include <random>
#include <utility>
#include <vector>

#include "../common/cuda_check.cuh"  // CUDA_CHECK, CUDA_CHECK_LAUNCH, example_has_gpu
#include "stencil_kernels.cuh"

namespace {

using namespace stencil_examples;

template <class T>
struct DeviceBuffer {
  T* p = nullptr;
  std::size_t n = 0;
  explicit DeviceBuffer(std::size_t count) : n(count) {
    CUDA_CHECK(cudaMalloc(&p, count * sizeof(T)));
    CUDA_CHECK(cudaMemset(p, 0xFF, count * sizeof(T)));  // poison: NaN for floats, -1 for ints
  }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
  ~DeviceBuffer() { cudaFree(p); }
  void upload(const std::vector<T>& host) {
    CUDA_CHECK(cudaMemcpy(p, host.data(), host.size() * sizeof(T), cudaMemcpyHostToDevice));
  }
  void poison() { CUDA_CHECK(cudaMemset(p, 0xFF, n * sizeof(T))); }
  std::vector<T> download() const {
    std::vector<T> host(n);
    CUDA_CHECK(cudaMemcpy(host.data(), p, n * sizeof(T), cudaMemcpyDeviceToHost));
    return host;
  }
};

bool status_ok(const smemtile::LaunchStatus& status, const char* what) {
  if (status) return true;
  std::printf("%-44s ERROR: %s\n", what, status.message.c_str());
  return false;
}

// ---- the lecture's sum3 -----------------------------------------------------------------------------

bool same_ints(const std::vector<int>& got, const std::vector<int>& want, const char* what) {
  for (std::size_t i = 0; i < want.size(); ++i) {
    if (got[i] != want[i]) {
      std::printf("%-44s WRONG at %zu: %d, expected %d\n", what, i, got[i], want[i]);
      return false;
    }
  }
  std::printf("%-44s correct (%zu elements, exact)\n", what, want.size());
  return true;
}

bool sum3(int n) {
  std::mt19937 engine(11u + static_cast<unsigned>(n));
  std::uniform_int_distribution<int> value(-100000, 100000);
  std::vector<int> a(static_cast<std::size_t>(n));
  for (int& x : a) x = value(engine);
  std::vector<int> want(a.size());
  for (int i = 0; i < n; ++i) want[i] = (i > 0 ? a[i - 1] : 0) + a[i] + (i + 1 < n ? a[i + 1] : 0);

  DeviceBuffer<int> in(a.size()), out(a.size());
  in.upload(a);
  const unsigned blocks = static_cast<unsigned>((n + BLOCK_SIZE - 1) / BLOCK_SIZE);
  const auto a_view = smemtile::make_global_vector<const int>(in.p, n);
  const auto c_view = smemtile::make_global_vector(out.p, n);
  char what[96];
  bool ok = true;

  sum3_naive<<<blocks, BLOCK_SIZE>>>(out.p, in.p, n);
  CUDA_CHECK_LAUNCH();
  std::snprintf(what, sizeof(what), "sum3 (a) naive, n = %d", n);
  ok = same_ints(out.download(), want, what) && ok;

  out.poison();
  sum3_shared<<<blocks, BLOCK_SIZE>>>(out.p, in.p, n);
  CUDA_CHECK_LAUNCH();
  std::snprintf(what, sizeof(what), "sum3 (b) shared + boundary branches, n = %d", n);
  ok = same_ints(out.download(), want, what) && ok;

  out.poison();
  sum3_smemtile<<<blocks, BLOCK_SIZE>>>(c_view, a_view);
  CUDA_CHECK_LAUNCH();
  std::snprintf(what, sizeof(what), "sum3 (c) smemtile halo tile, n = %d", n);
  ok = same_ints(out.download(), want, what) && ok;

  out.poison();
  std::snprintf(what, sizeof(what), "sum3 (d) device_stencil<1, star>, n = %d", n);
  if (!status_ok(smemtile::device_stencil<1, smemtile::StencilShape::star>(a_view, c_view, smemtile::boundary::zero,
                                                                            Sum3{}),
                 what))
    return false;
  CUDA_CHECK_LAUNCH();
  ok = same_ints(out.download(), want, what) && ok;
  return ok;
}

// ---- float checks: |got - want| <= tolerance * scale(i) ----------------------------------------------

std::vector<float> random_floats(std::size_t n, unsigned seed) {
  std::mt19937 engine(seed);
  std::uniform_real_distribution<float> value(-1.0f, 1.0f);
  std::vector<float> v(n);
  for (float& x : v) x = value(engine);
  return v;
}

// Every element within tolerance * scale[i] of the reference (scale: the sum of the magnitudes of
// the terms at that point, or 1); also prints ||got - want|| / ||want||.
bool close(const std::vector<float>& got, const std::vector<double>& want, const std::vector<double>& scale,
           double tolerance, const char* what) {
  double diff2 = 0, ref2 = 0, worst = 0;
  for (std::size_t i = 0; i < want.size(); ++i) {
    const double d = std::fabs(static_cast<double>(got[i]) - want[i]);
    const double allowed = tolerance * (scale.empty() ? 1.0 : scale[i]);
    if (!(d <= allowed)) {  // NaN (an element never written) fails too
      std::printf("%-44s WRONG at %zu: %.9g, expected %.9g (allowed error %.3g)\n", what, i, got[i], want[i], allowed);
      return false;
    }
    diff2 += d * d;
    ref2 += want[i] * want[i];
    if (d > worst) worst = d;
  }
  std::printf("%-44s correct (%zu elements; max error %.2e, relative L2 error %.2e)\n", what, want.size(), worst,
              ref2 > 0 ? std::sqrt(diff2 / ref2) : std::sqrt(diff2));
  return true;
}

// 2D heat equation: `steps` explicit steps, boundary::clamp (zero flux), ping-ponging two buffers.
bool heat(int rows, int cols, int steps) {
  const float alpha = 0.2f;
  const std::vector<float> u0 = random_floats(std::size_t(rows) * cols, 21);
  std::vector<double> u(u0.begin(), u0.end()), next(u.size());
  const auto clampi = [](int i, int n) { return i < 0 ? 0 : i >= n ? n - 1 : i; };
  for (int s = 0; s < steps; ++s) {
    for (int r = 0; r < rows; ++r)
      for (int c = 0; c < cols; ++c) {
        const auto at = [&](int rr, int cc) { return u[std::size_t(clampi(rr, rows)) * cols + clampi(cc, cols)]; };
        const double center = at(r, c);
        next[std::size_t(r) * cols + c] =
            center + alpha * (at(r - 1, c) + at(r, c - 1) + at(r, c + 1) + at(r + 1, c) - 4.0 * center);
      }
    std::swap(u, next);
  }
  DeviceBuffer<float> a(u0.size()), b(u0.size());
  a.upload(u0);
  float* from = a.p;
  float* to = b.p;
  char what[96];
  std::snprintf(what, sizeof(what), "heat 2D 5-point clamp, %d steps, %dx%d", steps, rows, cols);
  for (int s = 0; s < steps; ++s) {
    const auto status = smemtile::device_stencil<1, smemtile::StencilShape::star>(
        smemtile::make_global_matrix<const float>(from, rows, cols), smemtile::make_global_matrix(to, rows, cols),
        smemtile::boundary::clamp, Heat{alpha});
    if (!status_ok(status, what)) return false;
    std::swap(from, to);
  }
  CUDA_CHECK_LAUNCH();
  const DeviceBuffer<float>& result = from == a.p ? a : b;  // the last step's output
  return close(result.download(), u, {}, 1e-5, what);
}

// 3D: out = op(in) with a host reference `ref(in, z, y, x, &scale)` in double.
template <int Radius, class Op, class Boundary, class Reference>
bool volume(int depth, int rows, int cols, Op op, Boundary boundary, Reference ref, double tolerance, unsigned seed,
            const char* name) {
  const std::vector<float> in = random_floats(std::size_t(depth) * rows * cols, seed);
  std::vector<double> want(in.size()), scale(in.size());
  for (int z = 0; z < depth; ++z)
    for (int y = 0; y < rows; ++y)
      for (int x = 0; x < cols; ++x) {
        const std::size_t i = (std::size_t(z) * rows + y) * cols + x;
        want[i] = ref(in, z, y, x, &scale[i]);
      }
  DeviceBuffer<float> a(in.size()), b(in.size());
  a.upload(in);
  char what[96];
  std::snprintf(what, sizeof(what), "%s, %dx%dx%d", name, depth, rows, cols);
  const auto status = smemtile::device_stencil<Radius, smemtile::StencilShape::star>(
      smemtile::make_global_volume<const float>(a.p, depth, rows, cols),
      smemtile::make_global_volume(b.p, depth, rows, cols), boundary, op);
  if (!status_ok(status, what)) return false;
  CUDA_CHECK_LAUNCH();
  return close(b.download(), want, scale, tolerance, what);
}

bool laplace7(int depth, int rows, int cols) {
  const auto wrap = [](int i, int n) { return ((i % n) + n) % n; };
  const auto ref = [&](const std::vector<float>& in, int z, int y, int x, double* scale) {
    const auto at = [&](int zz, int yy, int xx) {
      return static_cast<double>(
          in[(std::size_t(wrap(zz, depth)) * rows + wrap(yy, rows)) * cols + wrap(xx, cols)]);
    };
    const double terms[7] = {at(z - 1, y, x), at(z + 1, y, x), at(z, y - 1, x), at(z, y + 1, x),
                             at(z, y, x - 1), at(z, y, x + 1), -6.0 * at(z, y, x)};
    double sum = 0;
    *scale = 0;
    for (double t : terms) {
      sum += t;
      *scale += std::fabs(t);
    }
    return sum;
  };
  return volume<1>(depth, rows, cols, Laplace7{}, smemtile::boundary::periodic, ref, 4e-6, 31,
                   "laplacian 3D 7-point periodic");
}

bool fd8(int depth, int rows, int cols) {
  const auto ref = [&](const std::vector<float>& in, int z, int y, int x, double* scale) {
    const auto at = [&](int zz, int yy, int xx) -> double {
      if (zz < 0 || zz >= depth || yy < 0 || yy >= rows || xx < 0 || xx >= cols) return 0.0;
      return in[(std::size_t(zz) * rows + yy) * cols + xx];
    };
    double sum = 3.0 * fd8_c(0) * at(z, y, x);
    *scale = std::fabs(sum);
    for (int k = 1; k <= 4; ++k) {
      const double pair = at(z - k, y, x) + at(z + k, y, x) + at(z, y - k, x) + at(z, y + k, x) + at(z, y, x - k) +
                          at(z, y, x + k);
      sum += fd8_c(k) * pair;
      *scale += std::fabs(fd8_c(k)) * (std::fabs(at(z - k, y, x)) + std::fabs(at(z + k, y, x)) +
                                        std::fabs(at(z, y - k, x)) + std::fabs(at(z, y + k, x)) +
                                        std::fabs(at(z, y, x - k)) + std::fabs(at(z, y, x + k)));
    }
    return sum;
  };
  return volume<4>(depth, rows, cols, SecondDerivative8{}, smemtile::boundary::zero, ref, 1e-5, 41,
                   "radius-4 star (8th-order d2) 3D zero");
}

}  // namespace

int main() {
  if (!example_has_gpu("smemtile_stencil_examples")) return 0;
  bool ok = true;
  ok = sum3(1000003) && ok;
  ok = sum3(777) && ok;
  ok = heat(517, 389, 6) && ok;
  ok = heat(64, 64, 3) && ok;
  ok = laplace7(67, 45, 70) && ok;
  ok = laplace7(5, 3, 2) && ok;  // smaller than the tiles: the periodic halo wraps several times
  ok = fd8(70, 37, 101) && ok;
  ok = fd8(130, 64, 64) && ok;
  std::printf("smemtile_stencil_examples: %s\n", ok ? "all correct" : "WRONG results above");
  return ok ? 0 : 1;
}
