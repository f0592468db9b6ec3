// examples/seeds/all_cases.cuh: every statically declared seed kernel, square group then
// rectangular group. Defines kernels: include in one .cu per program.
#pragma once

#include <vector>

#include "rect_cases.cuh"
#include "square_cases.cuh"

inline std::vector<SeedCase> all_seed_cases() {
  std::vector<SeedCase> cases = square_cases();
  for (const SeedCase& c : rect_cases()) cases.push_back(c);
  return cases;
}
