// smemtile_stencil_heat_steps: the 2D heat equation on a plate whose top edge is hot, N steps with
// device_stencil_steps (README, "Time steps").
//   - the plate: 1024 x 1536 floats at 0, its top row at 1; insulated edges (boundary::clamp: no heat
//     crosses them); each step moves 0.2 of the 4-neighbour Laplacian (stable: 0.2 < 0.25);
//   - 4000 steps in one call: several steps per trip through memory, the two buffers swapped per
//     pass (buffers.current() names the result); checked bit for bit against 4000 device_stencil
//     calls, then written as heat.pgm (8-bit grey, white hot) in the working directory;
//   - the per-step speed against the steps per call (1 ... 64), as a multiple of cudaMemcpy of the
//     plate, printed and written as heat_speed.svg beside the image.
// Exit status 0: the fused steps equal the single steps (or no GPU, said so); 1: otherwise.
#include <smemtile/smemtile.cuh>

#include <cstdio>
#include <cstring>
#include <vector>

#include "../common/cuda_check.cuh"  // CUDA_CHECK, example_has_gpu

namespace {

struct Heat {  // out = in + 0.2 * (5-point Laplacian)
  template <class N>
  __device__ float operator()(const N& n) const {
    return n(0, 0) + 0.2f * (n(-1, 0) + n(1, 0) + n(0, -1) + n(0, 1) - 4.0f * n(0, 0));
  }
};

constexpr int rows = 1024, cols = 1536;

void write_pgm(const char* path, const std::vector<float>& field) {
  FILE* f = std::fopen(path, "wb");
  if (!f) return;
  std::fprintf(f, "P5\n%d %d\n255\n", cols, rows);
  std::vector<unsigned char> grey(field.size());
  for (std::size_t i = 0; i < field.size(); ++i) {
    const float v = field[i] < 0 ? 0 : field[i] > 1 ? 1 : field[i];
    grey[i] = static_cast<unsigned char>(v * 255.0f + 0.5f);
  }
  std::fwrite(grey.data(), 1, grey.size(), f);
  std::fclose(f);
}

void write_speed_svg(const char* path, const int* steps, const double* speed, int n, const char* gpu) {
  FILE* f = std::fopen(path, "w");
  if (!f) return;
  double top = 1;
  for (int i = 0; i < n; ++i) top = speed[i] > top ? speed[i] : top;
  std::fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"520\" height=\"300\" font-family=\"sans-serif\" font-size=\"11\">\n");
  std::fprintf(f, "<text x=\"40\" y=\"18\" font-size=\"13\">2D heat, %dx%d floats, per step x cudaMemcpy (%s)</text>\n", rows, cols, gpu);
  for (int i = 0; i < n; ++i) {
    const double h = speed[i] / top * 220, x = 50 + i * 75;
    std::fprintf(f, "<rect x=\"%.0f\" y=\"%.1f\" width=\"50\" height=\"%.1f\" fill=\"#1f77b4\"/>\n", x, 260 - h, h);
    std::fprintf(f, "<text x=\"%.0f\" y=\"%.1f\" text-anchor=\"middle\">%.2fx</text>\n", x + 25, 255 - h, speed[i]);
    std::fprintf(f, "<text x=\"%.0f\" y=\"278\" text-anchor=\"middle\">%d</text>\n", x + 25, steps[i]);
  }
  std::fprintf(f, "<text x=\"260\" y=\"296\" text-anchor=\"middle\">steps per device_stencil_steps call</text>\n</svg>\n");
  std::fclose(f);
}

// Milliseconds per call of f, over `calls` calls after one warm-up.
template <class F>
float time_calls(F f, int calls) {
  cudaEvent_t start, stop;
  CUDA_CHECK(cudaEventCreate(&start));
  CUDA_CHECK(cudaEventCreate(&stop));
  f();
  CUDA_CHECK(cudaEventRecord(start));
  for (int i = 0; i < calls; ++i) f();
  CUDA_CHECK(cudaEventRecord(stop));
  CUDA_CHECK(cudaEventSynchronize(stop));
  float ms = 0;
  CUDA_CHECK(cudaEventElapsedTime(&ms, start, stop));
  cudaEventDestroy(start);
  cudaEventDestroy(stop);
  return ms / calls;
}

}  // namespace

int main() {
  if (!example_has_gpu("smemtile_stencil_heat_steps")) return 0;
  cudaDeviceProp prop{};  // its name goes into the plot
  CUDA_CHECK(cudaGetDeviceProperties(&prop, 0));
  std::vector<float> plate(static_cast<std::size_t>(rows) * cols, 0.0f);
  for (int x = 0; x < cols; ++x) plate[x] = 1.0f;  // the hot top edge
  const std::size_t bytes = plate.size() * sizeof(float);
  float *a, *b, *c, *d;
  CUDA_CHECK(cudaMalloc(&a, bytes));
  CUDA_CHECK(cudaMalloc(&b, bytes));
  CUDA_CHECK(cudaMalloc(&c, bytes));
  CUDA_CHECK(cudaMalloc(&d, bytes));
  CUDA_CHECK(cudaMemcpy(a, plate.data(), bytes, cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemcpy(c, plate.data(), bytes, cudaMemcpyHostToDevice));

  // 4000 steps in one call, and the same as 4000 single steps.
  const int steps = 4000;
  auto field = smemtile::make_stencil_buffers(smemtile::make_global_matrix(a, rows, cols),
                                              smemtile::make_global_matrix(b, rows, cols));
  smemtile::LaunchStatus s = smemtile::device_stencil_steps<1, smemtile::StencilShape::star>(
      field, steps, smemtile::boundary::clamp, Heat{});
  if (!s) {
    std::printf("device_stencil_steps failed: %s\n", s.message.c_str());
    return 1;
  }
  auto single = smemtile::make_stencil_buffers(smemtile::make_global_matrix(c, rows, cols),
                                               smemtile::make_global_matrix(d, rows, cols));
  for (int k = 0; k < steps; ++k)
    if (!smemtile::device_stencil_steps<1, smemtile::StencilShape::star>(single, 1, smemtile::boundary::clamp, Heat{})) return 1;
  CUDA_CHECK(cudaDeviceSynchronize());
  std::vector<float> fused_result(plate.size()), single_result(plate.size());
  CUDA_CHECK(cudaMemcpy(fused_result.data(), field.current().data_handle(), bytes, cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaMemcpy(single_result.data(), single.current().data_handle(), bytes, cudaMemcpyDeviceToHost));
  const bool same = std::memcmp(fused_result.data(), single_result.data(), bytes) == 0;
  std::printf("%d steps: fused %s single steps bit for bit; the centre of the plate is at %.4f\n", steps,
              same ? "equal to" : "DIFFERENT FROM", fused_result[static_cast<std::size_t>(rows / 2) * cols + cols / 2]);
  write_pgm("heat.pgm", fused_result);

  // Per-step speed against steps per call, as a multiple of cudaMemcpy of the plate.
  const float copy_ms = time_calls([&] { cudaMemcpyAsync(b, a, bytes, cudaMemcpyDeviceToDevice); }, 50);
  const int per_call[] = {1, 2, 4, 8, 16, 64};
  double speed[6];
  for (int i = 0; i < 6; ++i) {
    const float ms = time_calls([&] {
      smemtile::device_stencil_steps<1, smemtile::StencilShape::star>(field, per_call[i], smemtile::boundary::clamp, Heat{});
    }, 20);
    speed[i] = copy_ms / (ms / per_call[i]);
    std::printf("  %2d steps per call: %7.1f us per step, %.2fx cudaMemcpy\n", per_call[i], ms * 1e3 / per_call[i], speed[i]);
  }
  write_speed_svg("heat_speed.svg", per_call, speed, 6, prop.name);
  std::printf("wrote heat.pgm and heat_speed.svg\n");
  cudaFree(a);
  cudaFree(b);
  cudaFree(c);
  cudaFree(d);
  return same ? 0 : 1;
}
