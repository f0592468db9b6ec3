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
/// elements takes, for in = rows x cols of elem_bytes; 0 when not even one fits. Narrow records of
/// 16-byte elements: narrow_chunk_records (a power of two).
SMEMTILE_HOST_DEVICE constexpr int transpose_records_per_block(TransposeAlgorithm algorithm, int capacity, int rows,
                                                               int cols, int elem_bytes) {
  if (algorithm == TransposeAlgorithm::narrow_rows)
    return elem_bytes == 16 ? narrow_chunk_records(capacity, cols) : record_capacity(capacity, cols, elem_bytes);
  if (algorithm == TransposeAlgorithm::narrow_cols)
    return elem_bytes == 16 ? narrow_chunk_records(capacity, rows) : record_capacity(capacity, rows, elem_bytes);
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

// A block of the narrow record algorithms for 16-byte elements: `count` of `per_block` records
// (a power of two) starting at record `first`, staged at record_pitch (odd: the channel side's
// lanes, a pitch apart, meet distinct 16-byte bank groups). The channel side walks channel by
// channel (a shift and a mask per chunk), the record side chunk by chunk (one division by k, by_k's
// multiply-high); every access is one element, so consecutive threads make contiguous runs.
template <bool Split, class Bits, class Block>
SMEMTILE_DEVICE void narrow_chunk_records_block(const Bits* src, Bits* dst, long long ld_in, long long ld_out, int first,
                                                int count, int per_block, const FastDivmod& by_k, Bits* tile,
                                                Block block) {
  const int k = static_cast<int>(by_k.divisor), P = record_pitch(k, 16);
  const int log_n = __ffs(per_block) - 1;
  const unsigned record_side = static_cast<unsigned>(k * count), channel_side = static_cast<unsigned>(k) << log_n;
  if constexpr (Split) {  // records in: rows x k -> k x rows
    for (unsigned q = block.rank(); q < record_side; q += block.size()) {
      unsigned c = 0;
      const int r = static_cast<int>(by_k.divmod(q, c));
      tile[r * P + static_cast<int>(c)] = src[(first + r) * ld_in + c];
    }
  } else {  // channels in: k x cols -> cols x k
    for (unsigned q = block.rank(); q < channel_side; q += block.size()) {
      const int c = static_cast<int>(q >> log_n), r = static_cast<int>(q & (per_block - 1));
      if (r < count) tile[r * P + c] = src[c * ld_in + first + r];
    }
  }
  __syncthreads();
  if constexpr (Split) {
    for (unsigned q = block.rank(); q < channel_side; q += block.size()) {
      const int c = static_cast<int>(q >> log_n), r = static_cast<int>(q & (per_block - 1));
      if (r < count) dst[c * ld_out + first + r] = tile[r * P + c];
    }
  } else {
    for (unsigned q = block.rank(); q < record_side; q += block.size()) {
      unsigned c = 0;
      const int r = static_cast<int>(by_k.divmod(q, c));
      dst[(first + r) * ld_out + c] = tile[r * P + static_cast<int>(c)];
    }
  }
}

// A block of the narrow record algorithms: its `per_block` records of matrix blockIdx.x /
// blocks_per_matrix, rows x k -> k x rows (narrow_rows) or k x cols -> cols x k (narrow_cols).
// by_k divides by k (16-byte elements).
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
  if constexpr (sizeof(Bits) == 16) {
    const int n = split ? rows : cols;
    const int count = n - first < per_block ? n - first : per_block;
    narrow_chunk_records_block<split>(src, dst, ld_in, ld_out, first, count, per_block, by_k, tile.data, block);
  } else if constexpr (split) {  // rows x k -> k x rows
    const int count = rows - first < per_block ? rows - first : per_block;
    load_records(src + static_cast<long long>(first) * ld_in, ld_in, count, cols, tile.data, block);
    __syncthreads();
    store_channels(tile.data, count, cols, dst + first, ld_out, block);
  } else {  // narrow_cols: k x cols -> cols x k
    const int count = cols - first < per_block ? cols - first : per_block;
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
