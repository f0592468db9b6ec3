/// \file
/// The narrow register kernels' channel words: records of K elements above
/// transpose_register_narrow_max that are not whole 16-byte chunks, with a word of W = 4 or 8 bytes
/// (narrow_register_word_bytes) such that R = W / sizeof(Bits) records are C = K W / 16 whole chunks.
/// A thread takes R records and the W-byte piece of each channel that holds them, regrouped in
/// registers (C chunks each way: K R elements permuted at compile time), so the channel side moves
/// in W-byte accesses, coalesced across the warp (lane l on bytes W l .. W l + W - 1 of a row), and
/// the record side is staged through record_chunk_slot with C chunks a segment, so that it moves in
/// coalesced 16-byte accesses. A channel row may start at any byte of its word (its phase, the same
/// for every block of the row): a lane then moves the aligned words its piece straddles, the second
/// one from the next lane (shuffles), and only a warp's last lane reaches past its own bytes.
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

template <int W>
SMEMTILE_DEVICE ChannelWord<W> next_lane_word(const ChannelWord<W>& word) {
  if constexpr (W == 4) return __shfl_down_sync(~0u, word, 1);
  else return make_uint2(__shfl_down_sync(~0u, word.x, 1), __shfl_down_sync(~0u, word.y, 1));
}

// Bytes [p, p + W) of the 2 W bytes lo || hi (p in 0..W-1), by funnel shifts.
template <int W>
SMEMTILE_DEVICE ChannelWord<W> word_across(const ChannelWord<W>& lo, const ChannelWord<W>& hi, int p) {
  if constexpr (W == 4) {
    return __funnelshift_r(lo, hi, 8u * static_cast<unsigned>(p));
  } else {
    const bool high = p >= 4;  // __funnelshift_r takes the shift modulo 32: 8 (p - 4) for the high half
    const unsigned a = high ? lo.y : lo.x, b = high ? hi.x : lo.y, c = high ? hi.y : hi.x;
    const unsigned shift = 8u * static_cast<unsigned>(p);
    return make_uint2(__funnelshift_r(a, b, shift), __funnelshift_r(b, c, shift));
  }
}

template <int W>
SMEMTILE_DEVICE unsigned long long word_bits(const ChannelWord<W>& word) {
  if constexpr (W == 4) return word;
  else return static_cast<unsigned long long>(word.y) << 32 | word.x;
}

// The aligned W-byte word at `word`, its bytes outside [lo, hi) zero: one load where it lies
// inside, else byte by byte (a row's ends only).
template <int W>
SMEMTILE_DEVICE ChannelWord<W> load_word_within(const unsigned char* word, const unsigned char* lo,
                                                const unsigned char* hi) {
  if (word >= lo && word + W <= hi) return *reinterpret_cast<const ChannelWord<W>*>(word);
  unsigned long long bits = 0;
#pragma unroll 1  // rare: kept short, away from the interior's code
  for (int b = 0; b < W; ++b)
    if (word + b >= lo && word + b < hi) bits |= static_cast<unsigned long long>(word[b]) << (8 * b);
  ChannelWord<W> value;
  if constexpr (W == 4) value = static_cast<unsigned>(bits);
  else value = make_uint2(static_cast<unsigned>(bits), static_cast<unsigned>(bits >> 32));
  return value;
}

// Bytes [from, to) of the aligned W-byte word at `word` from `value` (laid out as that word), in
// aligned pieces of 1, 2 and 4 bytes; nothing else written.
template <int W>
SMEMTILE_DEVICE void store_word_bytes(unsigned char* word, const ChannelWord<W>& value, int from, int to) {
  const unsigned long long bits = word_bits<W>(value);
#pragma unroll 1  // two threads a block, at a row's phase
  for (int at = from; at < to;) {
    const unsigned long long piece = bits >> (8 * at);
    if ((at & 3) == 0 && to - at >= 4) {
      *reinterpret_cast<unsigned*>(word + at) = static_cast<unsigned>(piece), at += 4;
    } else if ((at & 1) == 0 && to - at >= 2) {
      *reinterpret_cast<unsigned short*>(word + at) = static_cast<unsigned short>(piece), at += 2;
    } else {
      word[at] = static_cast<unsigned char>(piece), at += 1;
    }
  }
}

// Channel c's piece of thread t, for each channel: row c's block starts at src + c ld, any
// element-aligned address (the phase p_c = its byte within the word). Lane l loads the aligned word
// l of the block's run and takes the next one from lane l + 1; a warp's last lane loads its own.
// Checked (the run's first block, or a block without R records after it): the words that may reach
// outside the row ([src_rows + c ld, + extent)) are read byte by byte where they do.
template <bool Checked, class Shape, int T, class Bits>
SMEMTILE_DEVICE void load_channel_words(const Bits* src, const Bits* src_rows, int extent, long long ld,
                                        unsigned (&words)[4 * Shape::word_chunks]) {
  constexpr int K = Shape::k, W = Shape::word_bytes;
  const int t = static_cast<int>(threadIdx.x), lane = t & 31;
  ChannelWord<W> lo[K], hi[K];
  int phase[K];
#pragma unroll
  for (int c = 0; c < K; ++c) {
    const auto* at = reinterpret_cast<const unsigned char*>(src + c * ld);
    phase[c] = static_cast<int>(reinterpret_cast<unsigned long long>(at) & (W - 1));
    const unsigned char* word = at - phase[c] + t * W;
    const auto* row = reinterpret_cast<const unsigned char*>(src_rows + c * ld);
    const unsigned char* row_end = row + static_cast<long long>(extent) * sizeof(Bits);
    lo[c] = Checked && t == 0 && phase[c] != 0 ? load_word_within<W>(word, row, row_end)
                                               : *reinterpret_cast<const ChannelWord<W>*>(word);
    hi[c] = ChannelWord<W>{};
    if (lane == 31 && phase[c] != 0)
      hi[c] = Checked ? load_word_within<W>(word + W, row, row_end) : *reinterpret_cast<const ChannelWord<W>*>(word + W);
  }
#pragma unroll
  for (int c = 0; c < K; ++c) {
    if (phase[c] != 0) {  // block-uniform
      const ChannelWord<W> next = next_lane_word<W>(lo[c]);
      if (lane != 31) hi[c] = next;
      lo[c] = word_across<W>(lo[c], hi[c], phase[c]);
    }
    set_channel_word<W>(words, c, lo[c]);
  }
}

// Channel c's piece of thread t, for each channel, to row c (the block's part of it at dst + c ld,
// any element-aligned address). At a phase p, lane l stores the aligned word its piece ends in: its
// last p bytes and the first W - p of the next lane's piece (a warp's last lane takes that from the
// next warp's first, through `stage`). The block's first and last threads store their piece's ends
// in pieces: the neighbouring blocks' threads store the other bytes of those words.
template <class Shape, int T, class Bits>
SMEMTILE_DEVICE void store_channel_words(const unsigned (&words)[4 * Shape::word_chunks], Bits* dst, long long ld,
                                         uint4* stage) {
  constexpr int K = Shape::k, W = Shape::word_bytes, Warps = T / 32;
  const int t = static_cast<int>(threadIdx.x), lane = t & 31, warp = t / 32;
  bool aligned = true;
#pragma unroll
  for (int c = 0; c < K; ++c) aligned &= (reinterpret_cast<unsigned long long>(dst + c * ld) & (W - 1)) == 0;
  if (aligned) {  // block-uniform
#pragma unroll
    for (int c = 0; c < K; ++c)
      *reinterpret_cast<ChannelWord<W>*>(dst + c * ld + t * Shape::per_word) = channel_word<W>(words, c);
    return;
  }
  auto* edges = reinterpret_cast<ChannelWord<W>*>(stage);  // channel c, warp w's first piece: c Warps + w
  static_assert(K * Warps * W <= Shape::slots * 16, "narrow register words: the warps' edges fit the stage");
  __syncthreads();  // every thread has read its records from the stage
  if (lane == 0)
#pragma unroll
    for (int c = 0; c < K; ++c) edges[c * Warps + warp] = channel_word<W>(words, c);
  __syncthreads();
#pragma unroll
  for (int c = 0; c < K; ++c) {
    auto* at = reinterpret_cast<unsigned char*>(dst + c * ld);
    const int p = static_cast<int>(reinterpret_cast<unsigned long long>(at) & (W - 1));
    const ChannelWord<W> own = channel_word<W>(words, c);
    unsigned char* word = at - p + t * W;  // the aligned word the piece starts in
    if (p == 0) {
      *reinterpret_cast<ChannelWord<W>*>(word) = own;
      continue;
    }
    ChannelWord<W> next = next_lane_word<W>(own);
    if (lane == 31 && warp + 1 < Warps) next = edges[c * Warps + warp + 1];
    if (t == 0) store_word_bytes<W>(word, word_across<W>(ChannelWord<W>{}, own, W - p), p, W);
    if (t == T - 1) store_word_bytes<W>(word + W, word_across<W>(own, ChannelWord<W>{}, W - p), 0, p);
    else *reinterpret_cast<ChannelWord<W>*>(word + W) = word_across<W>(own, next, W - p);
  }
}

// narrow_rows_registers by channel words: a full block's records (at src, 16-byte aligned) to K
// channel rows (element-aligned, pitch ld).
template <class Shape, int T, class Bits>
SMEMTILE_DEVICE void split_block_words(const Bits* src, Bits* dst, long long ld, uint4* stage) {
  constexpr int K = Shape::k, E = static_cast<int>(sizeof(Bits)), R = Shape::per_word;
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
  store_channel_words<Shape, T>(words, dst, ld, stage);
}

// narrow_cols_registers by channel words: K channel rows (element-aligned, pitch ld; the block's
// first record at src, the rows' first at src_rows, `extent` records a row) to a full block's
// records (at dst, 16-byte aligned). `interior`: narrow_block_interior with R records a segment.
template <class Shape, int T, class Bits>
SMEMTILE_DEVICE void merge_block_words(const Bits* src, const Bits* src_rows, int extent, Bits* dst, long long ld,
                                       bool interior, uint4* stage) {
  constexpr int K = Shape::k, E = static_cast<int>(sizeof(Bits)), R = Shape::per_word;
  constexpr int C = Shape::word_chunks;
  const int t = static_cast<int>(threadIdx.x);
  unsigned words[4 * C];
  if (interior) load_channel_words<false, Shape, T>(src, src_rows, extent, ld, words);
  else load_channel_words<true, Shape, T>(src, src_rows, extent, ld, words);
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
