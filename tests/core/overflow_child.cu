// A child program for dynamic_gpu's overflow test: runs the seed's setRowReadColDynPad (32x16,
// IPAD 2: 2176 bytes of tile) with bounds checks on, given either the bytes its plan asks for
// ("fits") or only 2048 ("overflow", the unpadded seed's formula). With too few bytes the arena's
// debug check must print the requested and available bytes and trap the kernel.
// Exit status: 0 the kernel completed, 1 it failed (message on stdout/stderr), 2 bad usage,
// 77 no CUDA device.
#define SMEMTILE_BOUNDS_CHECKS 1  // the overflow check is a debug-mode check: force it on here
#include <cstdio>
#include <cstring>

#include "dynamic_seed_kernels.cuh"

int main(int argc, char** argv) {
  if (argc != 2 || (std::strcmp(argv[1], "fits") != 0 && std::strcmp(argv[1], "overflow") != 0)) {
    std::fprintf(stderr, "usage: %s fits|overflow\n", argv[0]);
    return 2;
  }
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) return 77;

  const dynamic_seeds::PaddedTileShape shape{16, 32, 2};
  const smemtile::SharedMemoryPlan plan = smemtile::plan_shared_memory(dynamic_seeds::carve_padded_seed_tile, shape);
  const std::size_t bytes = std::strcmp(argv[1], "fits") == 0 ? plan.launch_bytes() : 16 * 32 * sizeof(int);
  std::printf("launching setRowReadColDynPad with %zu bytes (the carving needs %zu)\n", bytes, plan.launch_bytes());
  std::fflush(stdout);

  int* out = nullptr;
  if (cudaMalloc(&out, 16 * 32 * sizeof(int)) != cudaSuccess) return 1;
  // A raw launch on purpose: launch_with_plan would never give too few bytes.
  dynamic_seeds::setRowReadColDynPad<<<1, dim3(32, 16), bytes>>>(out, shape);
  cudaError_t status = cudaGetLastError();
  if (status == cudaSuccess) status = cudaDeviceSynchronize();
  std::fflush(stdout);
  if (status != cudaSuccess) {
    std::printf("kernel failed: %s: %s\n", cudaGetErrorName(status), cudaGetErrorString(status));
    return 1;
  }
  std::printf("kernel completed\n");
  return 0;
}
