// examples/seeds/seed_case.cuh: one seed kernel as data: what it runs, on which tile, how it walks
// the tile, and what it must write.
//
// The tile and the two traversals are recorded as data (not only as code in the kernel) so that
// tools can reason about a case without running it, e.g. a bank-conflict model predicting the
// conflicts of its store and its load from (tile, block, traversal).
#pragma once

#include <cuda_runtime.h>  // dim3

#include <string>
#include <vector>

// How the threads of the block walk the tile in one shared-memory access. For the thread
// (tx, ty) = (threadIdx.x, threadIdx.y) of a block (BX, BY), rank = ty * BX + tx, a tile of
// `rows` x `cols` logical elements, the element accessed is tile(row, col) with (row, col) =
enum class Traversal {
  row,              // (ty, tx): tile(thread_coord()); a warp walks along a row
  column,           // (tx, ty): tile.transposed()(thread_coord()); a warp walks down a column
  row_major_rank,   // (rank / cols, rank % cols): tile.row_major(rank)
  col_major_rank,   // (rank % rows, rank / rows): tile.col_major(rank)
  transposed_rank,  // (rank % BY, rank / BY): tile.transposed()(thread_coord_in_swapped_block())
};

inline const char* traversal_name(Traversal t) {
  switch (t) {
    case Traversal::row: return "row";
    case Traversal::column: return "column";
    case Traversal::row_major_rank: return "row_major(rank)";
    case Traversal::col_major_rank: return "col_major(rank)";
    case Traversal::transposed_rank: return "transposed(rank)";
  }
  return "?";
}

// The tile a kernel declares: `element`[rows][cols + pad], element_bytes per element.
struct SeedTile {
  const char* element;
  int element_bytes;
  int rows;
  int cols;
  int pad;
};

// Reads the shape from the StaticTile type the library kernel declares, so the description cannot
// drift from the kernel.
template <class Tile>
SeedTile describe_tile(const char* element_name) {
  using L = typename Tile::layout_type;
  return SeedTile{element_name, static_cast<int>(sizeof(typename Tile::value_type)), L::rows(), L::cols(), L::pad()};
}

// "int[16][32+2]" for a padded tile, "int[32][16]" without padding: the seeds' declaration.
inline std::string layout_text(const SeedTile& tile) {
  std::string text = std::string(tile.element) + "[" + std::to_string(tile.rows) + "][" + std::to_string(tile.cols);
  if (tile.pad != 0) text += "+" + std::to_string(tile.pad);
  return text + "]";
}

using SeedKernel = void (*)(int* out);

// One seed kernel: launched as kernel<<<1, block>>>(out) with out holding block.x * block.y ints.
struct SeedCase {
  const char* name;        // the seed's kernel name, e.g. "setRowReadColPad"
  const char* group;       // "square" or "rect"
  SeedTile tile;           // the shared tile it declares
  dim3 block;              // the block it is written for (one block, grid (1, 1))
  Traversal store;         // how the block writes the tile
  Traversal load;          // how the block reads it back
  SeedKernel lib_kernel;   // written with smemtile (lib_seed_kernels.cuh)
  SeedKernel raw_kernel;   // the textbook's hand-indexed twin (raw_seed_kernels.cuh)
  // out[idx] the kernel must write, computed on the host from the seed's own index formulas
  // (independently of smemtile).
  int (*expected)(unsigned idx, dim3 block);
  // (room for more columns, e.g. predicted bank conflicts of store and load, computed from
  //  tile, block, store and load above)

  unsigned threads() const { return block.x * block.y; }
  std::vector<int> expected_output() const {
    std::vector<int> out(threads());
    for (unsigned idx = 0; idx < threads(); ++idx) out[idx] = expected(idx, block);
    return out;
  }
};
