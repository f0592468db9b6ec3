// smemtile_dynamic_seeds: the seeds' setRowReadColDyn / setRowReadColDynPad with RuntimeTile.
//
// Square block 32x32 (IPAD 1) and rectangular block 32x16 (IPAD 1 and 2). Each kernel's bytes come
// from its carving description (no hand-written BDIMX * BDIMY * sizeof(int)); the table compares
// them with the textbook's formula, and every output element is checked against the expected
// permutation. Exit status 0: all correct (or no GPU, said so); 1: a mismatch or a CUDA error.
#include <cstdio>
#include <vector>

#include "../common/cuda_check.cuh"  // CUDA_CHECK, CUDA_CHECK_LAUNCH
#include "dynamic_seed_kernels.cuh"

namespace {

struct SeedCase {
  const char* kernel;
  int rows;  // blockDim.y, the textbook's BDIMY
  int cols;  // blockDim.x, BDIMX
  int pad;   // IPAD (0: setRowReadColDyn)
};

// Runs one case; returns the number of wrong elements.
int run_case(const SeedCase& c, int* d_out) {
  const int n = c.rows * c.cols;
  smemtile::SharedMemoryPlan plan;
  if (c.pad == 0)
    plan = smemtile::plan_shared_memory(dynamic_seeds::carve_seed_tile, dynamic_seeds::TileExtent{c.rows, c.cols});
  else
    plan = smemtile::plan_shared_memory(dynamic_seeds::carve_padded_seed_tile,
                                        dynamic_seeds::PaddedTileShape{c.rows, c.cols, c.pad});
  const std::size_t textbook_bytes = static_cast<std::size_t>(c.cols + c.pad) * c.rows * sizeof(int);

  CUDA_CHECK(cudaMemset(d_out, 0xA5, n * sizeof(int)));  // poison: an unwritten element fails
  const dim3 block(c.cols, c.rows);
  smemtile::LaunchStatus status =
      c.pad == 0 ? smemtile::launch_with_plan(dynamic_seeds::setRowReadColDyn, dim3(1), block, plan, nullptr, d_out,
                                              dynamic_seeds::TileExtent{c.rows, c.cols})
                 : smemtile::launch_with_plan(dynamic_seeds::setRowReadColDynPad, dim3(1), block, plan, nullptr, d_out,
                                              dynamic_seeds::PaddedTileShape{c.rows, c.cols, c.pad});
  if (!status) {
    std::fprintf(stderr, "%s\n", status.message.c_str());
    return n;
  }
  CUDA_CHECK_LAUNCH();
  std::vector<int> out(n);
  CUDA_CHECK(cudaMemcpy(out.data(), d_out, n * sizeof(int), cudaMemcpyDeviceToHost));
  int wrong = 0;
  for (int k = 0; k < n; ++k)
    if (out[k] != dynamic_seeds::expected_row_write_col_read(static_cast<unsigned>(k), c.rows, c.cols)) ++wrong;

  std::printf("%-20s  %2dx%-2d  %4d  %10zu  %14zu  %s\n", c.kernel, c.cols, c.rows, c.pad, status.dynamic_bytes,
              textbook_bytes, wrong == 0 ? "ok" : "WRONG");
  if (status.dynamic_bytes != textbook_bytes) {
    std::fprintf(stderr, "  launch bytes %zu differ from the textbook's %zu\n", status.dynamic_bytes, textbook_bytes);
    ++wrong;
  }
  return wrong;
}

}  // namespace

int main() {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    std::printf("smemtile_dynamic_seeds: no CUDA device found; nothing to run (not a failure).\n");
    return 0;
  }
  const SeedCase cases[] = {
      {"setRowReadColDyn", 32, 32, 0},    {"setRowReadColDynPad", 32, 32, 1},  // seed 000: square, IPAD 1
      {"setRowReadColDyn", 16, 32, 0},    {"setRowReadColDynPad", 16, 32, 1},  // seed 001: rect 32x16
      {"setRowReadColDynPad", 16, 32, 2},                                      //           IPAD 2
  };
  int* d_out = nullptr;
  CUDA_CHECK(cudaMalloc(&d_out, 32 * 32 * sizeof(int)));
  std::printf("%-20s  %-5s  %4s  %10s  %14s  %s\n", "kernel", "block", "IPAD", "plan bytes", "textbook bytes",
              "out == expected permutation");
  int wrong = 0;
  for (const SeedCase& c : cases) wrong += run_case(c, d_out);
  CUDA_CHECK(cudaFree(d_out));
  if (wrong != 0) {
    std::printf("FAILED: %d wrong values\n", wrong);
    return 1;
  }
  std::printf("all dynamic seed kernels produce the expected permutation\n");
  return 0;
}
