// GPU tests of the seed kernels of examples/seeds (the very kernels the example runs): each
// smemtile kernel, and its hand-written textbook twin, writes the permutation the seed's index
// formulas give. The twin passing too shows that the expected permutation is the textbook's.
#include <string>
#include <vector>

#include "gpu_test.cuh"
#include "seeds/all_cases.cuh"

namespace {

using namespace smemtile_test;

// Runs `kernel` as the case says on a poisoned buffer and returns what it wrote.
std::vector<int> run(const SeedCase& c, SeedKernel kernel) {
  DeviceBuffer<int> out(c.threads());
  out.poison();
  kernel<<<1, c.block>>>(out.get());
  REQUIRE_LAUNCH_OK();
  return out.download();
}

// Index of the first element that differs, or -1 (a whole 1024-int vector is no useful message).
long first_mismatch(const std::vector<int>& result, const std::vector<int>& expected) {
  if (result.size() != expected.size()) return 0;
  for (std::size_t i = 0; i < result.size(); ++i)
    if (result[i] != expected[i]) return static_cast<long>(i);
  return -1;
}

std::string describe(const SeedCase& c) {
  return std::string(c.group) + "/" + c.name + " on " + layout_text(c.tile);
}

}  // namespace

TEST_CASE("every smemtile seed kernel writes the permutation of its textbook kernel") {
  const std::vector<SeedCase> cases = all_seed_cases();
  REQUIRE_FALSE(cases.empty());
  for (const SeedCase& c : cases) {
    INFO(describe(c));
    CHECK(first_mismatch(run(c, c.lib_kernel), c.expected_output()) == -1);
  }
}

TEST_CASE("every textbook seed kernel writes the permutation the case table expects") {
  for (const SeedCase& c : all_seed_cases()) {
    INFO(describe(c));
    CHECK(first_mismatch(run(c, c.raw_kernel), c.expected_output()) == -1);
  }
}
