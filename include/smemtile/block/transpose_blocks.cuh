/// \file
/// The pieces of block/transpose.cuh's transposed copies: the V x V block pattern of a
/// TransposeTile and the word blocks of a WordTransposeTile (host-testable, with their bank
/// proofs), and the device code that moves them (register blocks transposed in registers, byte
/// permutes for 1- and 2-byte elements, realigned word stores).
#pragma once

#include <cstring>      // std::memcpy (register reinterpretation, folded by the compiler)
#include <type_traits>  // std::remove_const_t, std::conditional_t

#include "../config.cuh"                  // SMEMTILE_DEVICE, SMEMTILE_HOST_DEVICE
#include "../core/banks.cuh"              // bank_cost, WarpAccess
#include "../core/boundary.cuh"           // boundary::Zero, boundary_source
#include "../core/coord.cuh"              // Coord
#include "../core/global_view.cuh"        // global_pointer
#include "../core/transpose_layout.cuh"   // TransposeLayout, WordTransposeLayout
#include "../core/tile_ref.cuh"           // TileRef, tile_ref
#include "copy.cuh"                       // detail helpers (region_inside, the copy)
#include "thread_group.cuh"               // ThreadBlock

namespace smemtile {

// ---- the block pattern (host-testable) ----------------------------------------------------------

/// Where block `index` of a transpose pattern sits: rows block_rows * k ... and the unit (chunk or
/// word) m of a TransposeLayout tile with `unit_cols` units across.
/// Blocks go eight down first (k % 8), then across, then the next eight down, so that the eight
/// blocks of a phase read eight different chunk slots and consecutive lanes write consecutive
/// units of one global row.
struct TransposeBlock {
  int k;  ///< block row: tile rows block_rows * k ... block_rows * (k + 1) - 1
  int m;  ///< unit column: tile columns block_cols * m ... block_cols * (m + 1) - 1
};

/// The index-th block of the pattern.
SMEMTILE_HOST_DEVICE constexpr TransposeBlock transpose_block(int index, int unit_cols) {
  const int rest = index / 8;
  return TransposeBlock{(rest / unit_cols) * 8 + index % 8, rest % unit_cols};
}

/// The shared-memory access of warp `warp` reading (or writing) row j of its blocks of a
/// TransposeLayout tile, one unit (16 bytes, or a 4-byte word for 1- and 2-byte elements) per lane.
template <int Rows, int Cols, int ElemBytes>
SMEMTILE_HOST_DEVICE constexpr WarpAccess transpose_block_access(TransposeLayout<Rows, Cols, ElemBytes> layout,
                                                                 int warp, int j, AccessOp op) {
  using Layout = TransposeLayout<Rows, Cols, ElemBytes>;
  constexpr int BR = Layout::block_rows, BC = Layout::block_cols;
  constexpr int blocks = (Rows / BR) * (Cols / BC);
  WarpAccess access{{}, 0u, BC * ElemBytes, op};
  for (int lane = 0; lane < warp_lanes; ++lane) {
    const int index = warp * warp_lanes + lane;
    if (index >= blocks) break;
    const TransposeBlock b = transpose_block(index, Cols / BC);
    access.byte_address[lane] = static_cast<unsigned>(layout.offset(BR * b.k + j, BC * b.m) * ElemBytes);
    access.active_mask |= 1u << lane;
  }
  return access;
}

/// Whether reading (and writing) a TransposeLayout tile in register blocks is conflict-free.
template <int Rows, int Cols, int ElemBytes>
SMEMTILE_HOST_DEVICE constexpr bool transpose_blocks_conflict_free(TransposeLayout<Rows, Cols, ElemBytes> layout) {
  using Layout = TransposeLayout<Rows, Cols, ElemBytes>;
  constexpr int blocks = (Rows / Layout::block_rows) * (Cols / Layout::block_cols);
  for (int warp = 0; warp * warp_lanes < blocks; ++warp)
    for (int j = 0; j < Layout::block_rows; ++j)
      if (bank_cost(transpose_block_access(layout, warp, j, AccessOp::load)).conflicts != 0) return false;
  return true;
}

/// The shared-memory access of a warp reading word row j of its blocks of a WordTransposeLayout
/// tile: lane l reads the word of word column m in tile row word_elems * (32 * q + l) + j.
template <int Rows, int Cols, int ElemBytes>
SMEMTILE_HOST_DEVICE constexpr WarpAccess word_block_access(WordTransposeLayout<Rows, Cols, ElemBytes> layout, int q,
                                                            int m, int j) {
  constexpr int V = WordTransposeLayout<Rows, Cols, ElemBytes>::word_elems;
  WarpAccess access{{}, 0xffffffffu, 4, AccessOp::load};
  for (int lane = 0; lane < warp_lanes; ++lane)
    access.byte_address[lane] = static_cast<unsigned>(layout.offset(V * (warp_lanes * q + lane) + j, V * m) * ElemBytes);
  return access;
}

/// Whether reading a WordTransposeLayout tile in word blocks, one per lane down a column, is
/// conflict-free (every word column m, every group q of 32 blocks, every word row j).
template <int Rows, int Cols, int ElemBytes>
SMEMTILE_HOST_DEVICE constexpr bool word_blocks_conflict_free(WordTransposeLayout<Rows, Cols, ElemBytes> layout) {
  constexpr int V = WordTransposeLayout<Rows, Cols, ElemBytes>::word_elems;
  for (int q = 0; q < Rows / (V * warp_lanes); ++q)
    for (int m = 0; m < Cols / V; ++m)
      for (int j = 0; j < V; ++j)
        if (bank_cost(word_block_access(layout, q, m, j)).conflicts != 0) return false;
  return true;
}

#if defined(__CUDACC__)

/// A square of 4-byte words of 1-byte (4 x 4) or 2-byte (2 x 2) elements transposed in registers
/// by byte permutes: element j of out[a] is element a of in[j] (elements in little-endian order
/// within a word). `in` and `out` must not alias.
template <int ElemBytes>
SMEMTILE_DEVICE void transpose_word_square(const unsigned (&in)[4 / ElemBytes], unsigned (&out)[4 / ElemBytes]) {
  static_assert(ElemBytes == 1 || ElemBytes == 2, "smemtile::transpose_word_square: words of bytes or halves");
  if constexpr (ElemBytes == 1) {
    const unsigned t0 = __byte_perm(in[0], in[1], 0x5140), t1 = __byte_perm(in[0], in[1], 0x7362);
    const unsigned t2 = __byte_perm(in[2], in[3], 0x5140), t3 = __byte_perm(in[2], in[3], 0x7362);
    out[0] = __byte_perm(t0, t2, 0x5410);
    out[1] = __byte_perm(t0, t2, 0x7632);
    out[2] = __byte_perm(t1, t3, 0x5410);
    out[3] = __byte_perm(t1, t3, 0x7632);
  } else {
    out[0] = __byte_perm(in[0], in[1], 0x5410);
    out[1] = __byte_perm(in[0], in[1], 0x7632);
  }
}

namespace detail {

template <class Layout>
struct IsTransposeLayout : std::false_type {};
template <class Layout>
struct IsWordTransposeLayout : std::false_type {};
template <int R, int C, int E>
struct IsWordTransposeLayout<WordTransposeLayout<R, C, E>> : std::true_type {};
template <int R, int C, int E>
struct IsTransposeLayout<TransposeLayout<R, C, E>> : std::true_type {};

// A block of BR x BC elements of T in registers, in two forms: by rows (BR units of BC elements,
// as the tile holds them: 16-byte chunks, or 4-byte words of 1- and 2-byte elements) and by
// columns (BC 16-byte chunks of BR elements, as the transposed global array holds them).
template <class T, int BR, int BC>
struct RegisterBlock {
  using RowUnit = typename VectorOf<BC * static_cast<int>(sizeof(T))>::type;
  static_assert(BR * sizeof(T) == 16, "a block's columns are 16-byte chunks");

  // Rows to columns: cols[i] holds column i (elements of rows 0 ... BR - 1).
  SMEMTILE_DEVICE static void rows_to_columns(const RowUnit (&rows)[BR], uint4 (&cols)[BC]) {
    if constexpr (sizeof(T) <= 2) {  // 16 rows of 4 bytes or 8 rows of 2 halves: four squares of words
      constexpr int V = 4 / static_cast<int>(sizeof(T));
      unsigned out[BC][4];
#pragma unroll
      for (int g = 0; g < 4; ++g) {
        unsigned square_in[V], square_out[V];
#pragma unroll
        for (int j = 0; j < V; ++j) square_in[j] = rows[V * g + j];
        transpose_word_square<static_cast<int>(sizeof(T))>(square_in, square_out);
#pragma unroll
        for (int i = 0; i < BC; ++i) out[i][g] = square_out[i];
      }
#pragma unroll
      for (int i = 0; i < BC; ++i) cols[i] = make_uint4(out[i][0], out[i][1], out[i][2], out[i][3]);
    } else {  // whole elements: only the registers' roles change
      T in[BR][BC], out[BC][BR];
      std::memcpy(in, rows, sizeof(in));
#pragma unroll
      for (int i = 0; i < BC; ++i)
#pragma unroll
        for (int j = 0; j < BR; ++j) out[i][j] = in[j][i];
      std::memcpy(cols, out, sizeof(out));
    }
  }

  // Columns to rows, the inverse (a square of words is its own inverse).
  SMEMTILE_DEVICE static void columns_to_rows(const uint4 (&cols)[BC], RowUnit (&rows)[BR]) {
    if constexpr (sizeof(T) <= 2) {
      constexpr int V = 4 / static_cast<int>(sizeof(T));
      unsigned in[BC][4];
      std::memcpy(in, cols, sizeof(in));
#pragma unroll
      for (int g = 0; g < 4; ++g) {
        unsigned square_in[V], square_out[V];
#pragma unroll
        for (int i = 0; i < V; ++i) square_in[i] = in[i][g];
        transpose_word_square<static_cast<int>(sizeof(T))>(square_in, square_out);
#pragma unroll
        for (int j = 0; j < V; ++j) rows[V * g + j] = square_out[j];
      }
    } else {
      T in[BC][BR], out[BR][BC];
      std::memcpy(in, cols, sizeof(in));
#pragma unroll
      for (int j = 0; j < BR; ++j)
#pragma unroll
        for (int i = 0; i < BC; ++i) out[j][i] = in[i][j];
      std::memcpy(rows, out, sizeof(out));
    }
  }
};

// Runs body(block) for every block of the pattern this thread owns (all of them unrolled when the
// group's size is known at compile time).
template <int Blocks, class Group, class Body>
SMEMTILE_DEVICE void for_each_transpose_block(Group group, Body body) {
  if constexpr (Group::static_size > 0) {
    constexpr int per_thread = (Blocks + Group::static_size - 1) / Group::static_size;
    const int rank = static_cast<int>(group.rank());
#pragma unroll
    for (int i = 0; i < per_thread; ++i) {
      const int index = rank + i * Group::static_size;
      if (Blocks % Group::static_size == 0 || index < Blocks) body(index);
    }
  } else {
    const int step = static_cast<int>(group.size());
    for (int index = static_cast<int>(group.rank()); index < Blocks; index += step) body(index);
  }
}

// Whether V-element units of `global` at rows first.row .. first.row + rows - 1, starting at
// column first.col, can be accessed as whole aligned units.
template <int UnitBytes, class Global>
SMEMTILE_DEVICE bool units_aligned(const Global& global, Coord first) {
  using Element = std::remove_const_t<typename Global::element_type>;
  return global.stride(1) == 1 && (static_cast<long long>(global.stride(0)) * sizeof(Element)) % UnitBytes == 0 &&
         reinterpret_cast<unsigned long long>(global_pointer(global, first.row, first.col)) % UnitBytes == 0;
}

template <class T, class Layout, class Global, class Group>
SMEMTILE_DEVICE void tile_to_global_transposed_blocks(TileRef<T, Layout> tile, const Global& global, Coord origin,
                                                      Group group) {
  using Element = std::remove_const_t<T>;
  constexpr Layout layout{};
  constexpr int BR = Layout::block_rows, BC = Layout::block_cols;
  constexpr int rows = layout.rows(), cols = layout.cols();
  using Block = RegisterBlock<Element, BR, BC>;
  using RowUnit = typename Block::RowUnit;
  // The region of `global` written: cols() rows of rows() elements at origin.
  const bool inside = region_inside(global, origin, cols, rows);
  const bool whole_chunks = inside && units_aligned<16>(global, origin);
  const int global_rows = static_cast<int>(global.extent(0)), global_cols = static_cast<int>(global.extent(1));
  for_each_transpose_block<(rows / BR) * (cols / BC)>(group, [&](int index) {
    const TransposeBlock b = transpose_block(index, cols / BC);
    RowUnit in[BR];
#pragma unroll
    for (int j = 0; j < BR; ++j)
      in[j] = *reinterpret_cast<const RowUnit*>(tile.data() + layout.offset(BR * b.k + j, BC * b.m));
    uint4 out[BC];  // out[i]: tile column BC*m + i, tile rows BR*k ...: a global row's 16 bytes
    Block::rows_to_columns(in, out);
    const Coord first = origin + Coord{BC * b.m, BR * b.k};
    if (whole_chunks) {
#pragma unroll
      for (int i = 0; i < BC; ++i)
        *reinterpret_cast<uint4*>(const_cast<Element*>(global_pointer(global, first.row + i, first.col))) = out[i];
    } else {
      Element values[BC][BR];
      std::memcpy(values, out, sizeof(values));
      // Inside but not aligned for whole chunks: element by element, no bounds tests. (Not for 1- and
      // 2-byte elements, which copy_tile_to_global_transposed sends to the transposed walk then.)
      if (sizeof(Element) >= 4 && inside) {
        const long long step = global.stride(1);  // columns may be strided: a view with stride(1) != 1 lands here
#pragma unroll
        for (int i = 0; i < BC; ++i) {
          Element* row = const_cast<Element*>(global_pointer(global, first.row + i, first.col));
#pragma unroll
          for (int j = 0; j < BR; ++j) row[j * step] = values[i][j];
        }
      } else {
#pragma unroll
        for (int i = 0; i < BC; ++i)
#pragma unroll
          for (int j = 0; j < BR; ++j) {
            const Coord g = first + Coord{i, j};
            if (g.row >= 0 && g.row < global_rows && g.col >= 0 && g.col < global_cols)
              *const_cast<Element*>(global_pointer(global, g.row, g.col)) = values[i][j];
          }
      }
    }
  });
}

template <class T, class Layout, class Global, class Boundary, class Group>
SMEMTILE_DEVICE void global_to_tile_transposed_blocks(const Global& global, Coord origin, TileRef<T, Layout> tile,
                                                      const Boundary& boundary, Group group) {
  using Element = std::remove_const_t<T>;
  constexpr Layout layout{};
  constexpr int BR = Layout::block_rows, BC = Layout::block_cols;
  constexpr int rows = layout.rows(), cols = layout.cols();
  using Block = RegisterBlock<Element, BR, BC>;
  using RowUnit = typename Block::RowUnit;
  const bool inside = region_inside(global, origin, cols, rows);
  const bool whole_chunks = inside && units_aligned<16>(global, origin);
  const int global_rows = static_cast<int>(global.extent(0)), global_cols = static_cast<int>(global.extent(1));
  for_each_transpose_block<(rows / BR) * (cols / BC)>(group, [&](int index) {
    const TransposeBlock b = transpose_block(index, cols / BC);
    const Coord first = origin + Coord{BC * b.m, BR * b.k};  // global rows: tile columns BC*m ...
    uint4 in[BC];
    if (whole_chunks) {
#pragma unroll
      for (int i = 0; i < BC; ++i) in[i] = *reinterpret_cast<const uint4*>(global_pointer(global, first.row + i, first.col));
    } else {
      Element values[BC][BR];
#pragma unroll
      for (int i = 0; i < BC; ++i)
#pragma unroll
        for (int j = 0; j < BR; ++j) {
          Coord g = first + Coord{i, j};
          if (inside) {
            values[i][j] = *global_pointer(global, g.row, g.col);
          } else if constexpr (Boundary::maps_index) {
            g = boundary_source<Boundary>(g, global_rows, global_cols);
            values[i][j] = *global_pointer(global, g.row, g.col);
          } else {
            const bool in_array = g.row >= 0 && g.row < global_rows && g.col >= 0 && g.col < global_cols;
            values[i][j] = in_array ? static_cast<Element>(*global_pointer(global, g.row, g.col))
                                    : boundary.template value<Element>();
          }
        }
      std::memcpy(in, values, sizeof(values));
    }
    RowUnit out[BR];  // out[j]: tile row BR*k + j
    Block::columns_to_rows(in, out);
#pragma unroll
    for (int j = 0; j < BR; ++j)
      *reinterpret_cast<RowUnit*>(tile.data() + layout.offset(BR * b.k + j, BC * b.m)) = out[j];
  });
}

// Stores 128 consecutive bytes of a global row that starts at `segment` (any alignment), lane l of
// the warp holding bytes 4 l ... 4 l + 3 in `word`: each lane stores the aligned word that ends in
// its bytes, joined with the previous lane's (a warp shuffle), and lanes 0 and 31 the bytes of the
// partial words at the two ends, so that only the segment's bytes are written. Every lane of the
// warp calls it with the same segment.
SMEMTILE_DEVICE void store_segment_words(unsigned char* segment, unsigned word, int lane) {
  const unsigned previous = __shfl_up_sync(0xffffffffu, word, 1);
  const unsigned shift = static_cast<unsigned>(reinterpret_cast<unsigned long long>(segment) & 3u);
  // The aligned word at segment - shift + 4 lane: the previous lane's last `shift` bytes, then this
  // lane's first 4 - shift (all of its own when shift is 0). Lane 0's would start before the segment.
  if (lane > 0 || shift == 0)
    *reinterpret_cast<unsigned*>(segment - shift + 4 * lane) = __funnelshift_l(previous, word, 8 * shift);
  if (shift != 0 && (lane == 0 || lane == warp_lanes - 1)) {
    // The partial words at the ends: lane 0's first 4 - shift bytes, lane 31's last `shift`.
#pragma unroll
    for (unsigned b = 0; b < 4; ++b)
      if ((lane == 0) == (b < 4 - shift)) segment[4 * lane + b] = static_cast<unsigned char>(word >> (8 * b));
  }
}

// Stores the elements of `word` (lane l's, in a segment of a global row as store_segment_words
// takes it) whose columns, first_col + word_elems l ..., lie in [0, cols) of the row at `row`
// (column 0): one element at a time, for the segments that reach past the array's edges.
template <class Element>
SMEMTILE_DEVICE void store_word_elements_inside(Element* row, int first_col, int cols, unsigned word, int lane) {
  constexpr int V = 4 / static_cast<int>(sizeof(Element));
#pragma unroll
  for (int k = 0; k < V; ++k) {
    const int col = first_col + V * lane + k;
    if (col >= 0 && col < cols) {
      const auto bits = static_cast<std::conditional_t<V == 4, unsigned char, unsigned short>>(word >> (32 / V * k));
      std::memcpy(row + col, &bits, sizeof(Element));
    }
  }
}

// A WordTransposeLayout tile stored transposed into `global` (unit x stride): each warp takes word
// columns m (and groups q of 32 blocks down); lane l reads the block of word_elems rows from row
// word_elems * (32 q + l), transposes it in registers, and the warp stores each of its columns as
// 128 consecutive bytes of one global row (store_segment_words). Checked (a region reaching outside
// the array): rows outside it are skipped, and segments reaching past its columns store their
// elements inside one by one; the shared side is read the same conflict-free way.
template <bool Checked, class T, class Layout, class Global, class Group>
SMEMTILE_DEVICE void tile_to_global_transposed_words(TileRef<T, Layout> tile, const Global& global, Coord origin,
                                                     Group group) {
  using Element = std::remove_const_t<T>;
  constexpr Layout layout{};
  constexpr int V = Layout::word_elems;
  constexpr int warps = Group::static_size / warp_lanes;
  constexpr int groups = layout.cols() / V;                     // word columns
  constexpr int tasks = layout.rows() / (V * warp_lanes) * groups;  // (q, m) pairs
  constexpr int per_warp = (tasks + warps - 1) / warps;
  const int rank = static_cast<int>(group.rank());
  const int lane = rank % warp_lanes, warp = rank / warp_lanes;
#pragma unroll
  for (int i = 0; i < per_warp; ++i) {
    const int task = warp + i * warps;
    if (tasks % warps != 0 && task >= tasks) break;  // the same for the whole warp
    const int q = task / groups, m = task % groups;
    unsigned in[V], out[V];
#pragma unroll
    for (int j = 0; j < V; ++j)
      in[j] = *reinterpret_cast<const unsigned*>(tile.data() + layout.offset(V * (warp_lanes * q + lane) + j, V * m));
    transpose_word_square<static_cast<int>(sizeof(Element))>(in, out);
#pragma unroll
    for (int a = 0; a < V; ++a) {
      // Tile column V m + a is global row origin.row + V m + a, from column origin.col + 32 V q.
      const int global_row = origin.row + V * m + a, first_col = origin.col + warp_lanes * V * q;
      if constexpr (Checked) {
        const int cols = static_cast<int>(global.extent(1));
        if (global_row < 0 || global_row >= static_cast<int>(global.extent(0))) continue;  // the whole warp
        if (first_col < 0 || first_col + warp_lanes * V > cols) {
          store_word_elements_inside(const_cast<Element*>(global_pointer(global, global_row, 0)), first_col, cols, out[a],
                                     lane);
          continue;
        }
      }
      Element* row = const_cast<Element*>(global_pointer(global, global_row, first_col));
      store_segment_words(reinterpret_cast<unsigned char*>(row), out[a], lane);
    }
  }
}

// Compile-time checks of a WordTransposeLayout tile of Element.
template <class Layout, class Element>
struct WordBlocksChecked {
  static_assert(sizeof(Element) * Layout::word_elems == 4, "smemtile transpose: the tile's element size differs");
  static_assert(word_blocks_conflict_free(Layout{}),
                "smemtile transpose: the bank model finds conflicts in this WordTransposeLayout's block pattern");
  static constexpr bool value = true;
};

// Compile-time checks of a TransposeLayout tile of Element (a type, so device code can name it).
template <class Layout, class Element>
struct TransposeBlocksChecked {
  static_assert(sizeof(Element) * Layout::block_rows == 16, "smemtile transpose: the tile's element size differs");
  static_assert(transpose_blocks_conflict_free(Layout{}),
                "smemtile transpose: the bank model finds conflicts in this TransposeLayout's block pattern");
  static constexpr bool value = true;
};

}  // namespace detail

#endif  // __CUDACC__

}  // namespace smemtile
