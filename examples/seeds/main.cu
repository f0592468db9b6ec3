// smemtile_seeds: runs every statically declared seed kernel (seeds 000/001), written with
// smemtile, and checks each output against the permutation the textbook kernel produces.
//
// Exit status: 0 when every kernel is correct (or when there is no GPU to run them on, which is
// said plainly: the table then shows the tiles and the bank model's predictions, and no result),
// 1 when a kernel is wrong or a CUDA call fails.
#include <cstdio>
#include <string>
#include <vector>

#include "../common/cuda_check.cuh"
#include "all_cases.cuh"
#include "predicted_conflicts.cuh"  // the bank model's store/load conflicts per case

namespace {

// Runs the case's smemtile kernel on a poisoned output buffer; true when every element matches.
bool run_and_check(const SeedCase& c, int* d_out) {
  const std::vector<int> expected = c.expected_output();
  const size_t bytes = expected.size() * sizeof(int);
  // 0xFF: an element the kernel fails to write reads -1, which is no thread index.
  CUDA_CHECK(cudaMemset(d_out, 0xFF, bytes));
  c.lib_kernel<<<1, c.block>>>(d_out);
  CUDA_CHECK_LAUNCH();
  std::vector<int> result(expected.size());
  CUDA_CHECK(cudaMemcpy(result.data(), d_out, bytes, cudaMemcpyDeviceToHost));
  return result == expected;
}

std::string block_text(dim3 block) {
  return "(" + std::to_string(block.x) + "," + std::to_string(block.y) + ")";
}

}  // namespace

int main() {
  int devices = 0;
  const cudaError_t status = cudaGetDeviceCount(&devices);
  const bool have_gpu = status == cudaSuccess && devices > 0;
  if (!have_gpu) {
    std::printf("smemtile_seeds: no CUDA device (%s); no kernel is run, the predictions below need none.\n",
                status != cudaSuccess ? cudaGetErrorString(status) : "device count is 0");
  }

  const std::vector<SeedCase> cases = all_seed_cases();
  unsigned largest = 0;
  for (const SeedCase& c : cases) largest = c.threads() > largest ? c.threads() : largest;
  int* d_out = nullptr;
  if (have_gpu) CUDA_CHECK(cudaMalloc(&d_out, largest * sizeof(int)));

  std::printf("%-26s | %-15s | %-8s | %-14s | %s\n", "kernel", "tile (layout)", "block", "result correct",
              "predicted bank conflicts (store / load, n-way)");
  std::printf("---------------------------+-----------------+----------+----------------+-------------------------\n");
  int wrong = 0;
  for (const SeedCase& c : cases) {
    const char* result = "not run";
    if (have_gpu) {
      const bool correct = run_and_check(c, d_out);
      wrong += correct ? 0 : 1;
      result = correct ? "yes" : "NO";
    }
    const std::string name = std::string(c.group) + "/" + c.name;
    const PredictedConflicts predicted = predicted_conflicts(c);
    std::printf("%-26s | %-15s | %-8s | %-14s | %d / %d (%d-way / %d-way)\n", name.c_str(), layout_text(c.tile).c_str(),
                block_text(c.block).c_str(), result, predicted.store.conflicts, predicted.load.conflicts,
                predicted.store.degree(), predicted.load.degree());
  }
  if (!have_gpu) return 0;
  CUDA_CHECK(cudaFree(d_out));

  if (wrong != 0) {
    std::printf("%d of %zu kernels wrote a wrong permutation\n", wrong, cases.size());
    return 1;
  }
  std::printf("all %zu kernels correct\n", cases.size());
  return 0;
}
