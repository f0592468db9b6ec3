/// \file
/// The narrow register kernels' channel words: records of K elements above
/// transpose_register_narrow_max that are not whole 16-byte chunks, with a word of W = 4 or 8 bytes
/// (narrow_register_word_bytes) such that R = W / sizeof(Bits) records are C = K W / 16 whole chunks.
/// A thread takes R records and the W-byte piece of each channel that holds them, regrouped in
/// registers (C chunks each way: K R elements permuted at compile time), so the channel side moves
/// in W-byte accesses, coalesced across the warp (lane l on bytes W l .. W l + W - 1 of a row), and
/// the record side is staged through record_chunk_slot with C chunks a segment, so that it moves in
/// coalesced 16-byte accesses. Channel rows aligned to W (narrow_registers_apply).
#pragma once

#include <type_traits>  // std::conditional_t

#include "../../block/async_copy.cuh"       // async_copy_commit, async_copy_wait_all
#include "../../block/record_registers.cuh" // detail::permute_elements, stage_chunk_async, store_chunk
#include "../../core/record_layout.cuh"     // record_chunk_slot

namespace smemtile {

#if defined(__CUDACC__)

namespace detail {

// Channel c's W-byte word among the C chunks of a thread's channel words (c = 0 .. K - 1, in order).
template <int W>
using ChannelWord = std::conditional_t<W == 4, unsigned, uint2>;

template <int W, int C>
SMEMTILE_DEVICE ChannelWord<W> channel_word(const uint4 (&chunks)[C], int c) {
  const uint4& chunk = chunks[c * W / 16];
  if constexpr (W == 4) {
    const int i = c % 4;
    return i == 0 ? chunk.x : i == 1 ? chunk.y : i == 2 ? chunk.z : chunk.w;
  } else {
    return c % 2 == 0 ? make_uint2(chunk.x, chunk.y) : make_uint2(chunk.z, chunk.w);
  }
}

template <int W, int C>
SMEMTILE_DEVICE void set_channel_word(uint4 (&chunks)[C], int c, const ChannelWord<W>& word) {
  uint4& chunk = chunks[c * W / 16];
  if constexpr (W == 4) {
    const int i = c % 4;
    (i == 0 ? chunk.x : i == 1 ? chunk.y : i == 2 ? chunk.z : chunk.w) = word;
  } else if (c % 2 == 0) {
    chunk.x = word.x, chunk.y = word.y;
  } else {
    chunk.z = word.x, chunk.w = word.y;
  }
}

// narrow_rows_registers by channel words: a full block's records (at src, 16-byte aligned) to K
// channel rows (aligned to W, pitch ld).
template <class Shape, int T, class Bits>
SMEMTILE_DEVICE void split_block_words(const Bits* src, Bits* dst, long long ld, uint4* stage) {
  constexpr int K = Shape::k, E = static_cast<int>(sizeof(Bits)), W = Shape::word_bytes, R = W / E;
  constexpr int C = Shape::word_chunks;
  const int t = static_cast<int>(threadIdx.x);
  const uint4* flat = reinterpret_cast<const uint4*>(src);
#pragma unroll
  for (int j = 0; j < C; ++j) stage_chunk_async(&stage[record_chunk_slot(j * T + t, C)], flat + j * T + t);
  async_copy_commit();
  async_copy_wait_all();
  __syncthreads();
  uint4 records[C], channels[C];
#pragma unroll
  for (int j = 0; j < C; ++j) records[j] = stage[record_chunk_slot(t * C + j, C)];
  // channel c's word: elements c R .. c R + R - 1, record r's element c each
  permute_elements<E, C>(records, channels, [](int o) { return o % R * K + o / R; });
#pragma unroll
  for (int c = 0; c < K; ++c)
    *reinterpret_cast<ChannelWord<W>*>(dst + c * ld + t * R) = channel_word<W>(channels, c);
}

// narrow_cols_registers by channel words: K channel rows (aligned to W, pitch ld; the block's first
// record at src) to a full block's records (at dst, 16-byte aligned).
template <class Shape, int T, class Bits>
SMEMTILE_DEVICE void merge_block_words(const Bits* src, Bits* dst, long long ld, uint4* stage) {
  constexpr int K = Shape::k, E = static_cast<int>(sizeof(Bits)), W = Shape::word_bytes, R = W / E;
  constexpr int C = Shape::word_chunks;
  const int t = static_cast<int>(threadIdx.x);
  uint4 channels[C], records[C];
#pragma unroll
  for (int c = 0; c < K; ++c)
    set_channel_word<W>(channels, c, *reinterpret_cast<const ChannelWord<W>*>(src + c * ld + t * R));
  permute_elements<E, C>(channels, records, [](int f) { return f % K * R + f / K; });
#pragma unroll
  for (int j = 0; j < C; ++j) stage[record_chunk_slot(t * C + j, C)] = records[j];
  __syncthreads();
  uint4* flat = reinterpret_cast<uint4*>(dst);
#pragma unroll
  for (int j = 0; j < C; ++j) store_chunk(flat + j * T + t, stage[record_chunk_slot(j * T + t, C)]);
}

}  // namespace detail

#endif  // __CUDACC__

}  // namespace smemtile
