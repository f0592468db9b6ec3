// examples/seeds/rect_cases.cuh: the rectangular group (seeds 000/001, 5.2.2): BDIMX 32, BDIMY 16,
// block dim3(32, 16), padded tiles for IPAD 1 and 2. Defines kernels (through the kernel headers):
// include in one .cu per program.
#pragma once

#include <vector>

#include "lib_seed_kernels.cuh"
#include "raw_seed_kernels.cuh"
#include "seed_case.cuh"

namespace rect_expected {

// Each thread reads back the element it wrote, its own idx = threadIdx.y * blockDim.x + threadIdx.x.
inline int own_index(unsigned idx, dim3) { return static_cast<int>(idx); }

// The thread with idx reads tile[icol][irow] of int[BDIMY][BDIMX(+IPAD)], (irow, icol) =
// (idx / blockDim.y, idx % blockDim.y); the thread (tx', ty') = (irow, icol) wrote it, with its
// idx' = ty' * blockDim.x + tx' = icol * blockDim.x + irow.
inline int transposed_index(unsigned idx, dim3 block) {
  const unsigned irow = idx / block.y, icol = idx % block.y;
  return static_cast<int>(icol * block.x + irow);
}

}  // namespace rect_expected

inline std::vector<SeedCase> rect_cases() {
  using namespace seed_tiles;
  const dim3 block(seed_dims::rect_bdimx, seed_dims::rect_bdimy);
  return {
      {"setRowReadRow", "rect", describe_tile<RectRowMajor>("int"), block, Traversal::row, Traversal::row,
       lib_rect_setRowReadRow, raw_rect_setRowReadRow, rect_expected::own_index},
      {"setRowReadRow2", "rect", describe_tile<RectRowMajor>("int"), block, Traversal::row_major_rank,
       Traversal::row_major_rank, lib_rect_setRowReadRow2, raw_rect_setRowReadRow2, rect_expected::own_index},
      {"setColReadCol", "rect", describe_tile<RectColMajor>("int"), block, Traversal::column, Traversal::column,
       lib_rect_setColReadCol, raw_rect_setColReadCol, rect_expected::own_index},
      {"setColReadCol2", "rect", describe_tile<RectRowMajor>("int"), block, Traversal::col_major_rank,
       Traversal::col_major_rank, lib_rect_setColReadCol2, raw_rect_setColReadCol2, rect_expected::own_index},
      {"setRowReadCol", "rect", describe_tile<RectRowMajor>("int"), block, Traversal::row, Traversal::transposed_rank,
       lib_rect_setRowReadCol, raw_rect_setRowReadCol, rect_expected::transposed_index},
      {"setRowReadColPad", "rect", describe_tile<RectPad1>("int"), block, Traversal::row, Traversal::transposed_rank,
       lib_rect_setRowReadColPad1, raw_rect_setRowReadColPad1, rect_expected::transposed_index},
      {"setRowReadColPad", "rect", describe_tile<RectPad2>("int"), block, Traversal::row, Traversal::transposed_rank,
       lib_rect_setRowReadColPad2, raw_rect_setRowReadColPad2, rect_expected::transposed_index},
  };
}
