// smemtile_transpose: transposes matrices with smemtile and checks every element.
//
//   smemtile_transpose                      the course's kernel and device_transpose for every
//                                           element size on a few odd shapes (the default check)
//   smemtile_transpose ROWS COLS [TYPE]     device_transpose of one ROWS x COLS matrix, TYPE one of
//                                           u8, f16, f32 (default), f64, f32x4; prints its time
// Exit status 0: all correct (or no GPU, said so); 1: a wrong element, a bad argument or a CUDA error.
#include <cuda_fp16.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "../common/cuda_check.cuh"  // CUDA_CHECK, CUDA_CHECK_LAUNCH, example_has_gpu
#include "course_transpose.cuh"

namespace {

// Random bytes as elements: every bit pattern is a valid element for a transpose.
template <class T>
std::vector<T> random_elements(std::size_t n, unsigned seed) {
  std::vector<unsigned char> bytes(n * sizeof(T));
  std::mt19937 engine(seed);
  for (unsigned char& b : bytes) b = static_cast<unsigned char>(engine());
  std::vector<T> values(n);
  std::memcpy(values.data(), bytes.data(), bytes.size());
  return values;
}

// Transposes a rows x cols T matrix on the device (the course kernel when `course`), checks every
// element, prints one line; `timed` adds the kernel's time and bandwidth (bytes read + written).
template <class T>
bool run(const char* type, int rows, int cols, bool course, bool timed) {
  const std::size_t n = std::size_t(rows) * cols, bytes = n * sizeof(T);
  const std::vector<T> in = random_elements<T>(n, static_cast<unsigned>(rows * 31 + cols));
  T *d_in = nullptr, *d_out = nullptr;
  CUDA_CHECK(cudaMalloc(&d_in, bytes));
  CUDA_CHECK(cudaMalloc(&d_out, bytes));
  CUDA_CHECK(cudaMemcpy(d_in, in.data(), bytes, cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemset(d_out, 0xA5, bytes));
  cudaEvent_t start, stop;
  CUDA_CHECK(cudaEventCreate(&start));
  CUDA_CHECK(cudaEventCreate(&stop));
  CUDA_CHECK(cudaEventRecord(start));
  if constexpr (std::is_same<T, float>::value) {
    if (course) {
      const dim3 grid((cols + course::tile_dim - 1) / course::tile_dim, (rows + course::tile_dim - 1) / course::tile_dim);
      course::transpose<<<grid, dim3(course::tile_dim, course::block_rows)>>>(
          smemtile::make_global_matrix<const float>(d_in, rows, cols), smemtile::make_global_matrix(d_out, cols, rows));
    }
  }
  if (!course) {
    const smemtile::LaunchStatus status = smemtile::device_transpose(d_in, d_out, rows, cols);
    if (!status) {
      std::printf("%s\n", status.message.c_str());
      return false;
    }
  }
  CUDA_CHECK(cudaEventRecord(stop));
  CUDA_CHECK_LAUNCH();
  float ms = 0;
  CUDA_CHECK(cudaEventElapsedTime(&ms, start, stop));
  std::vector<T> out(n);
  CUDA_CHECK(cudaMemcpy(out.data(), d_out, bytes, cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaFree(d_in));
  CUDA_CHECK(cudaFree(d_out));
  CUDA_CHECK(cudaEventDestroy(start));
  CUDA_CHECK(cudaEventDestroy(stop));
  for (int r = 0; r < rows; ++r)
    for (int c = 0; c < cols; ++c)
      if (std::memcmp(&out[std::size_t(c) * rows + r], &in[std::size_t(r) * cols + c], sizeof(T)) != 0) {
        std::printf("%-6s %6d x %-6d %-18s WRONG at in(%d, %d)\n", type, rows, cols,
                    course ? "course kernel" : "device_transpose", r, c);
        return false;
      }
  std::printf("%-6s %6d x %-6d %-18s correct", type, rows, cols, course ? "course kernel" : "device_transpose");
  if (timed) std::printf("  %.3f ms, %.1f GB/s (first call)", ms, 2.0 * bytes / (ms * 1e6));
  std::printf("\n");
  return true;
}

bool run_type(const std::string& type, int rows, int cols, bool timed) {
  if (type == "u8") return run<unsigned char>("u8", rows, cols, false, timed);
  if (type == "f16") return run<__half>("f16", rows, cols, false, timed);
  if (type == "f32") return run<float>("f32", rows, cols, false, timed);
  if (type == "f64") return run<double>("f64", rows, cols, false, timed);
  if (type == "f32x4") return run<float4>("f32x4", rows, cols, false, timed);
  std::printf("unknown type %s (u8, f16, f32, f64, f32x4)\n", type.c_str());
  return false;
}

}  // namespace

int main(int argc, char** argv) {
  if (!example_has_gpu("smemtile_transpose")) return 0;
  if (argc >= 3) {
    const int rows = std::atoi(argv[1]), cols = std::atoi(argv[2]);
    return run_type(argc >= 4 ? argv[3] : "f32", rows, cols, true) ? 0 : 1;
  }
  bool ok = true;
  ok = run<float>("f32", 1000, 777, true, false) && ok;
  ok = run<float>("f32", 4096, 4096, true, true) && ok;
  for (const char* type : {"u8", "f16", "f32", "f64", "f32x4"}) {
    for (const auto& shape : {std::pair<int, int>{1, 1}, {31, 33}, {1000, 777}, {1024, 1024}, {4099, 17}, {3, 5000}})
      ok = run_type(type, shape.first, shape.second, false) && ok;
  }
  return ok ? 0 : 1;
}
