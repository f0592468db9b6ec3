// examples/async/reference.cuh: the host side of the row-sum examples: data and the reference.
#pragma once

#include <vector>

namespace pipeline {

// Small integer values, so that every float sum is exact and results compare with ==.
inline std::vector<float> example_matrix(int rows, int pitch) {
  std::vector<float> m(static_cast<size_t>(rows) * pitch);
  for (size_t i = 0; i < m.size(); ++i) m[i] = static_cast<float>(static_cast<int>((i * 2654435761u) % 201u) - 100);
  return m;
}

inline std::vector<float> reference_row_sums(const std::vector<float>& m, int rows, int cols, int pitch, float scale) {
  std::vector<float> out(rows);
  for (int r = 0; r < rows; ++r) {
    double sum = 0;
    for (int c = 0; c < cols; ++c) sum += m[static_cast<size_t>(r) * pitch + c];
    out[r] = scale * static_cast<float>(sum);
  }
  return out;
}

}  // namespace pipeline
