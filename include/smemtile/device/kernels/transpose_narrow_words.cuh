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
#include "../../block/record_registers.cuh" // detail::permute_elements, chunks_to_words, stage_chunk_async, store_chunk
#include "../../core/record_layout.cuh"     // record_chunk_slot

namespace smemtile {

#if defined(__CUDACC__)

namespace detail {

// A channel's W-byte piece: one 4-byte word, or two.
template <int W>
using ChannelWord = std::conditional_t<W == 4, unsigned, uint2>;

// Channel c's piece among the words of a thread's channel chunks (channels in order, W / 4 words each).
template <int W, int N>
SMEMTILE_DEVICE ChannelWord<W> channel_word(const unsigned (&words)[N], int c) {
  if constexpr (W == 4) return words[c];
  else return make_uint2(words[2 * c], words[2 * c + 1]);
}
template <int W, int N>
SMEMTILE_DEVICE void set_channel_word(unsigned (&words)[N], int c, const ChannelWord<W>& word) {
  if constexpr (W == 4) words[c] = word;
  else words[2 * c] = word.x, words[2 * c + 1] = word.y;
}

// narrow_rows_registers by channel words: a full block's records (at src, 16-byte aligned) to K
// channel rows (aligned to W, pitch ld).
template <class Shape, int T, class Bits>
SMEMTILE_DEVICE void split_block_words(const Bits* src, Bits* dst, long long ld, uint4* stage) {
  constexpr int K = Shape::k, E = static_cast<int>(sizeof(Bits)), W = Shape::word_bytes, R = Shape::per_word;
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
  unsigned words[4 * C];
  chunks_to_words<C>(channels, words);
#pragma unroll
  for (int c = 0; c < K; ++c) *reinterpret_cast<ChannelWord<W>*>(dst + c * ld + t * R) = channel_word<W>(words, c);
}

// narrow_cols_registers by channel words: K channel rows (aligned to W, pitch ld; the block's first
// record at src) to a full block's records (at dst, 16-byte aligned).
template <class Shape, int T, class Bits>
SMEMTILE_DEVICE void merge_block_words(const Bits* src, Bits* dst, long long ld, uint4* stage) {
  constexpr int K = Shape::k, E = static_cast<int>(sizeof(Bits)), W = Shape::word_bytes, R = Shape::per_word;
  constexpr int C = Shape::word_chunks;
  const int t = static_cast<int>(threadIdx.x);
  unsigned words[4 * C];
#pragma unroll
  for (int c = 0; c < K; ++c) set_channel_word<W>(words, c, *reinterpret_cast<const ChannelWord<W>*>(src + c * ld + t * R));
  uint4 channels[C], records[C];
  words_to_chunks<C>(words, channels);
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
