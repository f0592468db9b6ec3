// examples/seeds/square_cases.cuh: the square group (seed 001, 5.2.1): tiles of 32x32 ints,
// block dim3(32, 32). Defines kernels (through the kernel headers): include in one .cu per program.
#pragma once

#include <vector>

#include "lib_seed_kernels.cuh"
#include "raw_seed_kernels.cuh"
#include "seed_case.cuh"

namespace square_expected {

// Each thread reads back the element it wrote, its own idx = threadIdx.y * blockDim.x + threadIdx.x.
inline int own_index(unsigned idx, dim3) { return static_cast<int>(idx); }

// The thread (tx, ty) reads tile[tx][ty], which the thread (tx', ty') = (ty, tx) wrote with its
// idx' = ty' * blockDim.x + tx' = tx * blockDim.x + ty.
inline int transposed_index(unsigned idx, dim3 block) {
  const unsigned tx = idx % block.x, ty = idx / block.x;
  return static_cast<int>(tx * block.x + ty);
}

}  // namespace square_expected

inline std::vector<SeedCase> square_cases() {
  using namespace seed_tiles;
  const dim3 block(seed_dims::square_bdim, seed_dims::square_bdim);
  return {
      {"setRowReadRow", "square", describe_tile<Square>("int"), block, Traversal::row, Traversal::row,
       lib_square_setRowReadRow, raw_square_setRowReadRow, square_expected::own_index},
      {"setColReadCol", "square", describe_tile<Square>("int"), block, Traversal::column, Traversal::column,
       lib_square_setColReadCol, raw_square_setColReadCol, square_expected::own_index},
      {"setRowReadCol", "square", describe_tile<Square>("int"), block, Traversal::row, Traversal::column,
       lib_square_setRowReadCol, raw_square_setRowReadCol, square_expected::transposed_index},
      {"setRowReadColPad", "square", describe_tile<SquarePad>("int"), block, Traversal::row, Traversal::column,
       lib_square_setRowReadColPad, raw_square_setRowReadColPad, square_expected::transposed_index},
  };
}
