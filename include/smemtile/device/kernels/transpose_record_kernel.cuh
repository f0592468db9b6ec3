/// \file
/// device_transpose's record kernels (narrow_rows, narrow_cols, small_batch): each block moves a
/// run of whole short records through a RecordTile (block/interleave.cuh). One flat grid
/// (blockIdx.x), one division per block to find its matrix and run.
#pragma once

#include "../../block/interleave.cuh"      // RecordTile, load_records, store_channels, ...
#include "../../block/thread_group.cuh"    // FixedThreadBlock
#include "../../core/record_layout.cuh"    // record_capacity, FastDivmod
#include "../tuning/transpose_policy.cuh"  // TransposeAlgorithm, TransposePolicy

namespace smemtile {

/// Records (or, for small_batch, matrices) one block of a record policy with a tile of `capacity`
/// elements takes, for in = rows x cols of elem_bytes; 0 when not even one fits. Staged narrow
/// records (narrow_records_staged): narrow_staged_records, a power of two.
SMEMTILE_HOST_DEVICE constexpr int transpose_records_per_block(TransposeAlgorithm algorithm, int capacity, int rows,
                                                               int cols, int elem_bytes) {
  const bool staged = narrow_records_staged(elem_bytes);
  if (algorithm == TransposeAlgorithm::narrow_rows)
    return staged ? narrow_staged_records(capacity, cols) : record_capacity(capacity, cols, elem_bytes);
  if (algorithm == TransposeAlgorithm::narrow_cols)
    return staged ? narrow_staged_records(capacity, rows) : record_capacity(capacity, rows, elem_bytes);
  return record_capacity(capacity, cols, elem_bytes, false) / rows;  // small_batch: whole matrices
}

#if defined(__CUDACC__)

namespace detail {

// Walks a small_batch tile in output order g = m rc + j rows + i (matrix m, output row j = input
// column j, element i = input row i), giving the tile offset of input row m rows + i, column j:
// divisions only at the start, then an add (and a skew word every record_skew_group rows) per
// element, the offset recomputed once per output row.
template <int E>
struct TransposedRecordCursor {
  static constexpr int group = record_skew_group(E);  // rows per skew step (0: no skew)
  int rows, cols, P;
  int i, j, row;  // row = m rows + i
  int offset;
  SMEMTILE_DEVICE TransposedRecordCursor(unsigned g0, const FastDivmod& by_matrix, const FastDivmod& by_rows, int P_)
      : rows(static_cast<int>(by_rows.divisor)), cols(static_cast<int>(by_matrix.divisor / by_rows.divisor)), P(P_) {
    unsigned rem = 0, ii = 0;
    const unsigned m = by_matrix.divmod(g0, rem);
    j = static_cast<int>(by_rows.divmod(rem, ii));
    i = static_cast<int>(ii);
    row = static_cast<int>(m) * rows + i;
    offset = record_offset(row, j, P, E);
  }
  SMEMTILE_DEVICE void next() {
    ++row;
    if (++i < rows) {
      offset += P;
      if constexpr (group != 0)
        if (row % group == 0) offset += E >= 4 ? 1 : 4 / E;
      return;
    }
    i = 0;
    row -= rows;
    if (++j == cols) {  // the next matrix
      j = 0;
      row += rows;
    }
    offset = record_offset(row, j, P, E);
  }
};

// The record side of a staged block (below): its elements q < elements (record r = q / k, element
// c = q mod k) between global records `pitch` apart (Global: const Bits to load) and the tile
// (record r at r P). One loop for contiguous records (pitch == k: consecutive q, consecutive
// addresses), one for others. Signed counters: the compiler then strength-reduces the addresses.
template <bool Load, class Global, class Bits, class Block>
SMEMTILE_DEVICE void staged_record_side(Global* __restrict__ records, long long pitch, int elements,
                                        const FastDivmod& by_k, int P, Bits* __restrict__ tile, Block block) {
  const int threads = static_cast<int>(block.size());
  if (pitch == static_cast<long long>(by_k.divisor)) {
    for (int q = static_cast<int>(block.rank()); q < elements; q += threads) {
      unsigned c = 0;
      const int r = static_cast<int>(by_k.divmod(static_cast<unsigned>(q), c));
      if constexpr (Load) tile[r * P + static_cast<int>(c)] = records[q];
      else records[q] = tile[r * P + static_cast<int>(c)];
    }
  } else {
    for (int q = static_cast<int>(block.rank()); q < elements; q += threads) {
      unsigned c = 0;
      const int r = static_cast<int>(by_k.divmod(static_cast<unsigned>(q), c));
      const long long g = r * pitch + c;
      if constexpr (Load) tile[r * P + static_cast<int>(c)] = records[g];
      else records[g] = tile[r * P + static_cast<int>(c)];
    }
  }
}

// The channel side of a staged block: elements r < count of channels c < k (per_block records,
// a power of two) between global channel rows `pitch` apart and the tile (element c of record r
// at r P + c). Where each thread takes at least 8 channels of one r (per_block at most the block's
// threads), it keeps r and steps through them (the addresses strength-reduced, the loop unrolled);
// otherwise the block walks q = c per_block + r (a shift and a mask per element), which keeps the
// few elements of each thread in flight together.
template <bool Load, class Global, class Bits, class Block>
SMEMTILE_DEVICE void staged_channel_side(Global* __restrict__ channels, long long pitch, int k, int count,
                                         int per_block, Bits* __restrict__ tile, int P, Block block) {
  const int threads = static_cast<int>(block.size()), rank = static_cast<int>(block.rank());
  const auto move = [&](int c, int r) {
    if constexpr (Load) tile[r * P + c] = channels[c * pitch + r];
    else channels[c * pitch + r] = tile[r * P + c];
  };
  if (per_block <= threads && k >= 8 * (threads / per_block)) {
    const int r = rank & (per_block - 1), step = threads / per_block;
    if (r < count)
      for (int c = rank / per_block; c < k; c += step) move(c, r);
  } else {
    const int log_n = __ffs(per_block) - 1, elements = k << log_n;
    for (int q = rank; q < elements; q += threads) {
      const int c = q >> log_n, r = q & (per_block - 1);
      if (r < count) move(c, r);
    }
  }
}

// A block of the narrow record algorithms staging records (narrow_records_staged): `count` of
// `per_block` records (a power of two) starting at record `first`, staged narrow_staged_pitch(k)
// apart. The channel side walks channel by channel, the record side element by element (one
// division by k, by_k's multiply-high); every access is one element, so consecutive threads make
// contiguous runs.
template <bool Split, class Bits, class Block>
SMEMTILE_DEVICE void narrow_staged_records_block(const Bits* src, Bits* dst, long long ld_in, long long ld_out, int first,
                                                 int count, int per_block, const FastDivmod& by_k, Bits* tile,
                                                 Block block) {
  const int k = static_cast<int>(by_k.divisor), P = narrow_staged_pitch(k), record_elements = k * count;
  if constexpr (Split) {  // records in: rows x k -> k x rows
    staged_record_side<true>(src + first * ld_in, ld_in, record_elements, by_k, P, tile, block);
    __syncthreads();
    staged_channel_side<false>(dst + first, ld_out, k, count, per_block, tile, P, block);
  } else {  // channels in: k x cols -> cols x k
    staged_channel_side<true>(src + first, ld_in, k, count, per_block, tile, P, block);
    __syncthreads();
    staged_record_side<false>(dst + first * ld_out, ld_out, record_elements, by_k, P, tile, block);
  }
}

// A block of the narrow record algorithms: its `per_block` records of matrix blockIdx.x /
// blocks_per_matrix, rows x k -> k x rows (narrow_rows) or k x cols -> cols x k (narrow_cols).
// by_k divides by k (staged records).
template <class Policy, class Bits, class Tile>
SMEMTILE_DEVICE void narrow_records_block(const Bits* in, Bits* out, int rows, int cols, int ld_in, int ld_out,
                                          long long stride_in, long long stride_out, int per_block,
                                          int blocks_per_matrix, const FastDivmod& by_k, Tile& tile) {
  const FixedThreadBlock<Policy::threads> block{};
  const unsigned matrix = blockIdx.x / static_cast<unsigned>(blocks_per_matrix);
  const int first = static_cast<int>(blockIdx.x - matrix * static_cast<unsigned>(blocks_per_matrix)) * per_block;
  const Bits* src = in + matrix * stride_in;
  Bits* dst = out + matrix * stride_out;
  constexpr bool split = Policy::algorithm == TransposeAlgorithm::narrow_rows;
  const int records = split ? rows : cols;
  const int count = records - first < per_block ? records - first : per_block;
  if constexpr (narrow_records_staged(static_cast<int>(sizeof(Bits)))) {
    narrow_staged_records_block<split>(src, dst, ld_in, ld_out, first, count, per_block, by_k, tile.data, block);
  } else if constexpr (split) {  // rows x k -> k x rows
    load_records(src + static_cast<long long>(first) * ld_in, ld_in, count, cols, tile.data, block);
    __syncthreads();
    store_channels(tile.data, count, cols, dst + first, ld_out, block);
  } else {  // narrow_cols: k x cols -> cols x k
    load_channels(src + first, ld_in, count, rows, tile.data, block);
    __syncthreads();
    store_records(tile.data, count, rows, dst + static_cast<long long>(first) * ld_out, ld_out, block);
  }
}

// One block: `per_block` records (narrow) or matrices (small_batch) of one matrix; blocks of a
// matrix are consecutive in blockIdx.x (`blocks_per_matrix` of them; 1 for small_batch).
template <class Policy, class Bits>
__global__ void __launch_bounds__(Policy::threads, Policy::min_blocks)
    transpose_record_kernel(const Bits* in, Bits* out, int rows, int cols, int ld_in, int ld_out, int batch,
                            long long stride_in, long long stride_out, int per_block, int blocks_per_matrix,
                            FastDivmod by_k) {
  using Block = FixedThreadBlock<Policy::threads>;
  __shared__ RecordTile<Bits, Policy::rows * Policy::cols> tile;
  const Block block{};
  if constexpr (Policy::algorithm == TransposeAlgorithm::small_batch) {
    const long long m0 = static_cast<long long>(blockIdx.x) * per_block;
    const int count = static_cast<int>(batch - m0 < per_block ? batch - m0 : per_block);  // matrices
    constexpr int E = static_cast<int>(sizeof(Bits));
    const int P = record_pitch(cols, E);
    const int rc = rows * cols;
    const Bits* src = in + m0 * stride_in;
    Bits* dst = out + m0 * stride_out;
    if (ld_in == cols && (count == 1 || stride_in == rc)) {
      load_records(src, cols, count * rows, cols, tile.data, block);  // one flat run
    } else {  // strided: element by element, consecutive threads along rows
      const FastDivmod by_cols(static_cast<unsigned>(cols)), by_rows(static_cast<unsigned>(rows));
      for (unsigned q = block.rank(); q < static_cast<unsigned>(count * rc); q += block.size()) {
        unsigned j = 0, i = 0;
        const unsigned v = by_cols.divmod(q, j);
        const unsigned m = by_rows.divmod(v, i);
        tile.data[record_offset(static_cast<int>(v), static_cast<int>(j), P, E)] = src[m * stride_in + static_cast<long long>(i) * ld_in + j];
      }
    }
    __syncthreads();
    const FastDivmod by_matrix(static_cast<unsigned>(rc)), by_rows(static_cast<unsigned>(rows));
    auto element = [&](unsigned g, unsigned& m, unsigned& j, unsigned& i) {  // output element g of the block
      unsigned rem = 0;
      m = by_matrix.divmod(g, rem);
      j = by_rows.divmod(rem, i);
      return tile.data[record_offset(static_cast<int>(m * rows + i), static_cast<int>(j), P, E)];
    };
    if (ld_out == rows && (count == 1 || stride_out == rc)) {  // one flat run, built 16 bytes at a time
      store_run_chunks<1>(dst, 0, 1, count * rc, [&](int, int g0, uint4 (&chunk)[1]) {
        alignas(16) Bits buffer[16 / E];
        TransposedRecordCursor<E> at(static_cast<unsigned>(g0), by_matrix, by_rows, P);
#pragma unroll
        for (int e = 0; e < 16 / E; ++e, at.next()) buffer[e] = tile.data[at.offset];
        chunk[0] = *reinterpret_cast<const uint4*>(buffer);
      }, [&](int, int g) {
        unsigned m = 0, j = 0, i = 0;
        return element(static_cast<unsigned>(g), m, j, i);
      }, block);
    } else {
      for (unsigned g = block.rank(); g < static_cast<unsigned>(count * rc); g += block.size()) {
        unsigned m = 0, j = 0, i = 0;
        const Bits value = element(g, m, j, i);
        dst[m * stride_out + static_cast<long long>(j) * ld_out + i] = value;
      }
    }
  } else {
    narrow_records_block<Policy>(in, out, rows, cols, ld_in, ld_out, stride_in, stride_out, per_block,
                                 blocks_per_matrix, by_k, tile);
  }
}

}  // namespace detail

#endif  // __CUDACC__

}  // namespace smemtile
