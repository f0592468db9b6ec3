// smemtile_transpose_layouts: the everyday transposes, each one device_transpose call, checked
// element by element on the host:
//
//   1. a batch of HWC images of bytes (height x width pixels of 3 channels) to CHW planes and back:
//      each image is a (height * width) x 3 matrix, the batch `images` matrices apart;
//   2. a point cloud of N points of 3 floats (array of structs) to three arrays x, y, z: one
//      N x 3 -> 3 x N transpose whose output rows are the three arrays, `capacity` elements apart;
//   3. a rank-3 permutation [A, B, C] -> [C, B, A] (out[c][b][a] = in[a][b][c]): a batch over B of
//      A x C matrices, in at b * C with pitch B * C, out at b * A with pitch B * A (the outputs
//      interleave within each output row).
//
// Exit status 0: all correct (or no GPU, said so); 1: a wrong element, a refused call or a CUDA error.
#include <smemtile/smemtile.cuh>

#include <cstdio>
#include <random>
#include <vector>

#include "../common/cuda_check.cuh"  // CUDA_CHECK, example_has_gpu

namespace {

// A device copy of `host`, and room for `n` elements of output (poisoned).
template <class T>
T* to_device(const std::vector<T>& host) {
  T* d = nullptr;
  CUDA_CHECK(cudaMalloc(&d, host.size() * sizeof(T)));
  CUDA_CHECK(cudaMemcpy(d, host.data(), host.size() * sizeof(T), cudaMemcpyHostToDevice));
  return d;
}
template <class T>
T* device_output(std::size_t n) {
  T* d = nullptr;
  CUDA_CHECK(cudaMalloc(&d, n * sizeof(T)));
  CUDA_CHECK(cudaMemset(d, 0xA5, n * sizeof(T)));
  return d;
}
template <class T>
std::vector<T> to_host(const T* d, std::size_t n) {
  std::vector<T> host(n);
  CUDA_CHECK(cudaDeviceSynchronize());
  CUDA_CHECK(cudaMemcpy(host.data(), d, n * sizeof(T), cudaMemcpyDeviceToHost));
  return host;
}
bool launched(const smemtile::LaunchStatus& s, const char* what) {
  if (!s) std::printf("%s: %s\n", what, s.message.c_str());
  return static_cast<bool>(s);
}

// 1. HWC -> CHW -> HWC for a batch of images.
bool images(int count, int height, int width) {
  const int pixels = height * width, channels = 3;
  std::vector<unsigned char> hwc(static_cast<std::size_t>(count) * pixels * channels);
  std::mt19937 rng(1);
  for (unsigned char& v : hwc) v = static_cast<unsigned char>(rng());
  unsigned char* d_hwc = to_device(hwc);
  unsigned char* d_chw = device_output<unsigned char>(hwc.size());
  unsigned char* d_back = device_output<unsigned char>(hwc.size());
  const long long image = static_cast<long long>(pixels) * channels;  // elements from one image to the next
  bool ok = launched(smemtile::device_transpose(d_hwc, d_chw, pixels, channels, channels, pixels, count, image, image),
                     "HWC -> CHW") &&
            launched(smemtile::device_transpose(d_chw, d_back, channels, pixels, pixels, channels, count, image, image),
                     "CHW -> HWC");
  if (ok) {
    const std::vector<unsigned char> chw = to_host(d_chw, hwc.size()), back = to_host(d_back, hwc.size());
    for (int i = 0; i < count && ok; ++i)
      for (int p = 0; p < pixels && ok; ++p)
        for (int c = 0; c < channels && ok; ++c) {
          const std::size_t from = (static_cast<std::size_t>(i) * pixels + p) * channels + c;
          ok = chw[static_cast<std::size_t>(i) * image + static_cast<std::size_t>(c) * pixels + p] == hwc[from] &&
               back[from] == hwc[from];
          if (!ok) std::printf("images: WRONG at image %d, pixel %d, channel %d\n", i, p, c);
        }
  }
  if (ok) std::printf("%d HWC images of %d x %d bytes -> CHW -> HWC: correct\n", count, height, width);
  CUDA_CHECK(cudaFree(d_hwc));
  CUDA_CHECK(cudaFree(d_chw));
  CUDA_CHECK(cudaFree(d_back));
  return ok;
}

// 2. N points of (x, y, z) to three arrays of `capacity` floats each (x at 0, y at capacity, z at
// 2 capacity).
bool point_cloud(int points, int capacity) {
  std::vector<float> xyz(static_cast<std::size_t>(points) * 3);
  std::mt19937 rng(2);
  std::uniform_real_distribution<float> coordinate(-100.0f, 100.0f);
  for (float& v : xyz) v = coordinate(rng);
  float* d_xyz = to_device(xyz);
  float* d_planes = device_output<float>(3 * static_cast<std::size_t>(capacity));
  bool ok = launched(smemtile::device_transpose(d_xyz, d_planes, points, 3, 3, capacity, 1, 0, 0), "points -> x, y, z");
  if (ok) {
    const std::vector<float> planes = to_host(d_planes, 3 * static_cast<std::size_t>(capacity));
    for (int p = 0; p < points && ok; ++p)
      for (int axis = 0; axis < 3 && ok; ++axis) {
        ok = planes[static_cast<std::size_t>(axis) * capacity + p] == xyz[static_cast<std::size_t>(p) * 3 + axis];
        if (!ok) std::printf("point cloud: WRONG at point %d, axis %d\n", p, axis);
      }
  }
  if (ok) std::printf("%d points of 3 floats -> arrays x, y, z (%d apart): correct\n", points, capacity);
  CUDA_CHECK(cudaFree(d_xyz));
  CUDA_CHECK(cudaFree(d_planes));
  return ok;
}

// 3. [A, B, C] -> [C, B, A].
bool permutation(int a, int b, int c) {
  const std::size_t n = static_cast<std::size_t>(a) * b * c;
  std::vector<double> in(n);
  for (std::size_t i = 0; i < n; ++i) in[i] = static_cast<double>(i);
  double* d_in = to_device(in);
  double* d_out = device_output<double>(n);
  bool ok = launched(smemtile::device_transpose(d_in, d_out, a, c, b * c, b * a, b, c, a), "[A, B, C] -> [C, B, A]");
  if (ok) {
    const std::vector<double> out = to_host(d_out, n);
    for (int i = 0; i < a && ok; ++i)
      for (int j = 0; j < b && ok; ++j)
        for (int k = 0; k < c && ok; ++k) {
          ok = out[(static_cast<std::size_t>(k) * b + j) * a + i] == in[(static_cast<std::size_t>(i) * b + j) * c + k];
          if (!ok) std::printf("permutation: WRONG at in[%d][%d][%d]\n", i, j, k);
        }
  }
  if (ok) std::printf("[%d, %d, %d] doubles -> [%d, %d, %d]: correct\n", a, b, c, c, b, a);
  CUDA_CHECK(cudaFree(d_in));
  CUDA_CHECK(cudaFree(d_out));
  return ok;
}

}  // namespace

int main() {
  if (!example_has_gpu("smemtile_transpose_layouts")) return 0;
  bool ok = images(16, 480, 640);
  ok = point_cloud(1000003, 1000064) && ok;
  ok = permutation(37, 50, 129) && ok;
  ok = permutation(5, 300, 7) && ok;
  return ok ? 0 : 1;
}
