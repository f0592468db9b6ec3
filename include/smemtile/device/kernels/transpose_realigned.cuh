/// \file
/// device_transpose's realigned_rows kernel (core/realigned_layout.cuh): one tall tile per block
/// for 1-, 2- and 4-byte elements whose rows are not 16-byte aligned. Every global access is one aligned
/// 16-byte chunk whatever the pitches: input rows are staged as the chunks that cover them (cp.async)
/// and read back shifted by their phase, transposed in registers, and each output row is stored in
/// the aligned chunks its lanes complete with shuffles (block/realign.cuh). Tiles at the matrix's
/// edges check every access.
#pragma once

#include "../../block/async_copy.cuh"        // async_copy_commit, async_copy_wait_all
#include "../../block/realign.cuh"           // load_shifted_words, chunk_from_next_lane
#include "../../block/record_registers.cuh"  // stage_chunk_async (with an L2 prefetch size), store_chunk
#include "../../block/transpose_blocks.cuh"  // transpose_word_square
#include "../../core/arena.cuh"              // detail::dynamic_shared_memory_start
#include "../../core/realigned_layout.cuh"   // RealignedRowsShape, bytes_to_chunk_boundary
#include "../tuning/transpose_policy.cuh"    // TransposePolicy, realigned_rows_shape
#include "transpose_kernel.cuh"              // TransposeGrid, transpose_block_tile

namespace smemtile {

#if defined(__CUDACC__)

namespace detail {

// The tile's place in its matrix: first input row and column, rows below it, columns right of it.
struct RealignedTile {
  const unsigned char* in_row0;  // input element (r0, c0)
  unsigned char* out_row0;       // output element (c0 + 8 warp, r0): this warp's first output row
  long long in_step, out_step;   // bytes between input rows, between output rows
  unsigned long long lo, hi;     // the input matrix's bytes [lo, hi)
  int rows_left, cols_left;      // rows - r0, cols - c0
  bool first_down;               // r0 == 0: output rows start here (a partial chunk before the first aligned one)
};

// Starts staging the tile's rows: warp w takes rows_per_pass rows per pass, lane (row, chunk) one
// aligned chunk each (L2Prefetch: the cp.async's L2 fetch size, 0 for none); chunks past the tile's
// columns are skipped; Checked: chunks reaching outside the matrix move only their bytes inside it,
// element by element.
template <class Shape, bool Checked, int L2Prefetch>
SMEMTILE_DEVICE void stage_realigned_rows(const RealignedTile& t, unsigned char* stage) {
  constexpr int E = Shape::elem_bytes;
  const int lane = static_cast<int>(threadIdx.x % 32), rr = lane / Shape::chunks, k = lane - rr * Shape::chunks;
  const int first = static_cast<int>(threadIdx.x / 32) * Shape::rows_per_pass + rr;
  const int need = (Checked && t.cols_left < Shape::cols ? t.cols_left : Shape::cols) * E;
  const unsigned char* row = t.in_row0 + first * t.in_step;
  unsigned char* dst = stage + Shape::stage_row(first) * Shape::row_bytes + 16 * k;
#pragma unroll
  for (int pass = 0; pass < Shape::passes; ++pass) {
    const int r = first + pass * Shape::pass_rows;
    if (rr < Shape::rows_per_pass && r < Shape::stage_rows && (!Checked || r < t.rows_left)) {
      const int phase = static_cast<int>(reinterpret_cast<unsigned long long>(row) & 15);
      const unsigned long long chunk = reinterpret_cast<unsigned long long>(row) - phase + 16 * k;
      if (16 * k < phase + need) {
        if (!Checked || (chunk >= t.lo && chunk + 16 <= t.hi)) {
          stage_chunk_async<L2Prefetch>(reinterpret_cast<uint4*>(dst), reinterpret_cast<const uint4*>(chunk));
        } else {
          using Word = typename VectorOf<E>::type;
          for (int b = 0; b < 16; b += E)
            if (chunk + b >= t.lo && chunk + b + E <= t.hi)
              *reinterpret_cast<Word*>(dst + b) = __ldg(reinterpret_cast<const Word*>(chunk + b));
        }
      }
    }
    row += Shape::pass_rows * t.in_step;
    dst += Shape::pass_rows / Shape::lane_rows * Shape::row_bytes;
  }
}

// This lane's block: lane_rows rows (lane * lane_rows + i) of lane_bytes from byte 8E * warp of the
// tile, each shifted by its row's phase (the same in every lane: lanes are 16 bytes of rows apart).
template <class Shape>
SMEMTILE_DEVICE void read_realigned_rows(const unsigned char* stage, const RealignedTile& t,
                                         unsigned (&x)[Shape::lane_rows][Shape::lane_words]) {
  const int lane = static_cast<int>(threadIdx.x % 32), warp = static_cast<int>(threadIdx.x / 32);
  const int phase0 = static_cast<int>(reinterpret_cast<unsigned long long>(t.in_row0) & 15);
  const int phase_step = static_cast<int>(t.in_step & 15);
  const unsigned char* mine = stage + lane * Shape::row_bytes;
#pragma unroll
  for (int i = 0; i < Shape::lane_rows; ++i)
    load_shifted_words(mine + i * 32 * Shape::row_bytes, ((phase0 + i * phase_step) & 15) + Shape::lane_bytes * warp,
                       x[i]);
}

// The block transposed: y[j] = the lane's 16 bytes of output row j (its column 8 warp + j).
template <class Shape>
SMEMTILE_DEVICE void transpose_lane_block(const unsigned (&x)[Shape::lane_rows][Shape::lane_words],
                                          unsigned (&y)[8][4]) {
  constexpr int V = 4 / Shape::elem_bytes;  // elements per word: a square of V x V elements per V words
#pragma unroll
  for (int col_word = 0; col_word < Shape::lane_words; ++col_word)
#pragma unroll
    for (int q = 0; q < 4; ++q) {
      if constexpr (V == 1) {  // 4-byte elements: a word is an element
        y[col_word][q] = x[q][col_word];
      } else {
        unsigned in[V], out[V];
#pragma unroll
        for (int v = 0; v < V; ++v) in[v] = x[V * q + v][col_word];
        transpose_word_square<Shape::elem_bytes>(in, out);
#pragma unroll
        for (int v = 0; v < V; ++v) y[V * col_word + v][q] = out[v];
      }
    }
}

// Stores the warp's 8 output rows: lane l < 31 the aligned chunk d + 16 l bytes into the row's piece
// (d: bytes to its first chunk boundary), and in the first tile down lane 0 also the d bytes before
// it (its own first bytes); Checked: only rows inside the matrix (a last partial chunk in at most four
// aligned pieces).
template <class Shape, bool Checked>
SMEMTILE_DEVICE void store_realigned_rows(const unsigned (&y)[8][4], const RealignedTile& t) {
  constexpr int E = Shape::elem_bytes;
  const int lane = static_cast<int>(threadIdx.x % 32), warp = static_cast<int>(threadIdx.x / 32);
  unsigned char* row = t.out_row0;
#pragma unroll
  for (int j = 0; j < 8; ++j, row += t.out_step) {
    if (Checked && 8 * warp + j >= t.cols_left) break;  // the same in every lane
    const int d = bytes_to_chunk_boundary(reinterpret_cast<unsigned long long>(row));
    const uint4 chunk = chunk_from_next_lane(y[j], d);
    unsigned char* dst = row + d + 16 * lane;
    const int first = realigned_chunk_row(d, lane, E);
    if (lane < 31 && (!Checked || first + 16 / E <= t.rows_left))
      store_chunk(dst, chunk);
    else if (Checked && lane < 31 && first < t.rows_left)
      store_chunk_prefix(dst, chunk, (t.rows_left - first) * E);
    if (t.first_down && lane == 0 && d > 0) {
      const int head = Checked && t.rows_left * E < d ? t.rows_left * E : d;  // bytes before the boundary
      const uint4 before = chunk_before(y[j], d);
      if (head == d)
        store_chunk_suffix(row + d - 16, before, d);
      else  // fewer rows than the head: the first of its elements
        for (int b = 0; b < head; b += E) store_chunk_piece<E>(row + d - 16, before, 16 - d + b);
    }
  }
}

// One tile: staged, read, transposed, stored.
template <class Shape, bool Checked, int L2Prefetch>
SMEMTILE_DEVICE void transpose_realigned_tile(const RealignedTile& t, unsigned char* stage) {
  stage_realigned_rows<Shape, Checked, L2Prefetch>(t, stage);
  async_copy_commit();
  async_copy_wait_all();
  __syncthreads();
  unsigned x[Shape::lane_rows][Shape::lane_words];
  read_realigned_rows<Shape>(stage, t, x);
  unsigned y[8][4];
  transpose_lane_block<Shape>(x, y);
  store_realigned_rows<Shape, Checked>(y, t);
}

// One tile per block, the one transpose_block_tile() names (tiles of owned_rows down, cols across).
// The unchecked path: every staged row and column inside the matrix, every staged chunk inside its
// bytes. Policy: a realigned_rows TransposePolicy.
template <class Policy, class Bits>
__global__ void __launch_bounds__(Policy::threads, Policy::min_blocks)
    transpose_realigned_kernel(const Bits* in, Bits* out, int rows, int cols, int ld_in, int ld_out, int batch,
                               long long stride_in, long long stride_out, TransposeGrid grid, int tiles_across) {
  constexpr int E = static_cast<int>(sizeof(Bits));
  using Shape = RealignedRowsShape<E, Policy::cols / 8>;
  const TransposeBlockTile block = transpose_block_tile<1>(grid, blockIdx.x, blockIdx.y, blockIdx.z, tiles_across, batch);
  if (block.matrix < 0) return;
  const int r0 = block.tile.row * Shape::owned_rows, c0 = block.tile.col * Shape::cols;
  const auto* src = reinterpret_cast<const unsigned char*>(in + block.matrix * stride_in);
  RealignedTile t;
  t.in_step = static_cast<long long>(ld_in) * E;
  t.out_step = static_cast<long long>(ld_out) * E;
  t.in_row0 = src + (static_cast<long long>(r0) * ld_in + c0) * E;
  t.out_row0 = reinterpret_cast<unsigned char*>(out + block.matrix * stride_out) +
               (static_cast<long long>(c0 + 8 * static_cast<int>(threadIdx.x / 32)) * ld_out + r0) * E;
  t.lo = reinterpret_cast<unsigned long long>(src);
  t.hi = t.lo + (static_cast<long long>(rows - 1) * ld_in + cols) * E;
  t.rows_left = rows - r0;
  t.cols_left = cols - c0;
  t.first_down = r0 == 0;
  const unsigned long long first_chunk = reinterpret_cast<unsigned long long>(t.in_row0) & ~15ull;
  const unsigned long long last_end =
      ((reinterpret_cast<unsigned long long>(t.in_row0) + (Shape::stage_rows - 1) * t.in_step) & ~15ull) +
      16 * Shape::chunks;
  const bool inside = t.rows_left >= Shape::stage_rows && t.cols_left >= Shape::cols &&
                      first_chunk >= t.lo && last_end <= t.hi;
  unsigned char* stage = dynamic_shared_memory_start();
  constexpr int prefetch = Policy::fetch_256 ? 256 : 0;
  if (inside)
    transpose_realigned_tile<Shape, false, prefetch>(t, stage);
  else
    transpose_realigned_tile<Shape, true, prefetch>(t, stage);
}

}  // namespace detail

#endif  // __CUDACC__

}  // namespace smemtile
