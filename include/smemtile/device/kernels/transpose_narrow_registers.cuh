/// \file
/// device_transpose's narrow register kernels (narrow_rows_registers: N x K -> K x N, records to
/// channels; narrow_cols_registers: K x N -> N x K), K a compile-time extent up to
/// transpose_register_narrow_max (above it, channel groups and channel words:
/// transpose_narrow_groups.cuh, transpose_narrow_words.cuh). A block takes a run of records: the
/// flat side (the records, one contiguous run) moves through shared memory in coalesced 16-byte chunks (record_chunk_slot's
/// conflict-free staging), each thread regroups 16 bytes' worth of records in registers
/// (split_records / merge_records), and the channel side moves straight between registers and
/// global memory, 16 bytes per thread and channel, consecutive threads on consecutive records.
/// The records must be 16-byte aligned (the selector sends only such calls here); channel rows may
/// start anywhere (element-aligned): each 16-byte aligned window of a row is then assembled from two
/// chunks by funnel shifts (merging: every window loaded before any is shifted; splitting: a block
/// writes the windows that start among its records), and only the run's first and last blocks test
/// a window against the row's ends. A run's last block, shorter than a full one, moves element by
/// element, and is its matrix's first block so that it starts early.
#pragma once

#include "../../block/async_copy.cuh"     // async_copy_commit, async_copy_wait_all
#include "../../block/realign.cuh"        // bytes_across
#include "../../block/record_registers.cuh" // split_records, merge_records, stage_chunk_async, store_chunk
#include "../../block/thread_group.cuh"     // FixedThreadBlock
#include "../../core/record_layout.cuh"     // record_chunk_slot, narrow_block_interior, narrow_split_window_whole
#include "transpose_narrow_groups.cuh"       // move_block_groups
#include "transpose_narrow_words.cuh"        // split_block_words, merge_block_words
#include "../tuning/transpose_policy.cuh"   // TransposeAlgorithm, TransposePolicy, NarrowRegisterShape

namespace smemtile {

#if defined(__CUDACC__)

namespace detail {

// A short run (count < the policy's records): out's channel c, record r = in's record r, element c.
// Each thread keeps eight loads in flight before its stores: a run's last block moves up to
// K x records elements, and one load at a time would make it the grid's longest block.
template <int K, class Bits, class Block>
SMEMTILE_DEVICE void move_records_by_element(const Bits* in, Bits* out, int count, long long ld_channels, bool split,
                                             Block block) {
  constexpr int Batch = 8;
  const int total = count * K, step = static_cast<int>(block.size());
  for (int base = static_cast<int>(block.rank()); base < total; base += Batch * step) {
    Bits values[Batch];
#pragma unroll
    for (int b = 0; b < Batch; ++b) {
      const int i = base + b * step, r = i / K, c = i - r * K;
      if (i < total) values[b] = split ? in[i] : in[c * ld_channels + r];
    }
#pragma unroll
    for (int b = 0; b < Batch; ++b) {
      const int i = base + b * step, r = i / K, c = i - r * K;
      if (i >= total) break;
      if (split) out[c * ld_channels + r] = values[b];
      else out[i] = values[b];
    }
  }
}

// The 16-byte aligned global window at `window`, its bytes outside [lo, hi) left zero: one load
// where it lies inside, else byte by byte (a channel row's ends only).
SMEMTILE_DEVICE uint4 load_window(const unsigned char* window, const unsigned char* lo, const unsigned char* hi) {
  if (window >= lo && window + 16 <= hi) return *reinterpret_cast<const uint4*>(window);
  unsigned words[4];
#pragma unroll
  for (int i = 0; i < 4; ++i) {
    words[i] = 0;
#pragma unroll 1  // rare: kept short, away from the interior blocks' code
    for (int b = 0; b < 4; ++b) {
      const unsigned char* at = window + 4 * i + b;
      if (at >= lo && at < hi) words[i] |= static_cast<unsigned>(*at) << (8 * b);
    }
  }
  return uint4{words[0], words[1], words[2], words[3]};
}

// The channel chunks of a thread's segments t + u T (records of the block (t + u T) V ..
// (t + u T) V + V - 1; channels[u][c]) from K channel rows (row c's first record of the block at
// src + c ld, any element-aligned address), the block's windows all inside the rows (an interior
// block: not the run's first, and one segment more after it). Every window is loaded before any is
// shifted: bytes_across branches on the phase, and loads behind a branch would wait for the
// channel before them. Shuffled: a lane takes its second window from the next lane (one load a
// window instead of two; the warp's last lane loads its own).
template <int Items, int K, int T, bool Shuffled, class Bits>
SMEMTILE_DEVICE void load_channel_chunks(const Bits* src, long long ld, int t, uint4 (&channels)[Items][K]) {
  uint4 lo[Items][K], hi[Items][K];
  int phase[K];
#pragma unroll
  for (int c = 0; c < K; ++c) {
    const auto* at = reinterpret_cast<const unsigned char*>(src + c * ld);
    phase[c] = static_cast<int>(reinterpret_cast<unsigned long long>(at) & 15u);
    const uint4* window = reinterpret_cast<const uint4*>(at - phase[c]) + t;
#pragma unroll
    for (int u = 0; u < Items; ++u) {
      lo[u][c] = window[u * T];
      hi[u][c] = uint4{};  // then a guarded load: a select between a load and lo ran 5-20% slower
      if ((!Shuffled || (t & 31) == 31) && phase[c] != 0) hi[u][c] = window[u * T + 1];
      // whole 16-byte loads: left to itself the compiler moves them into bytes_across's cases as
      // narrower loads
      asm("" : "+r"(lo[u][c].x), "+r"(lo[u][c].y), "+r"(lo[u][c].z), "+r"(lo[u][c].w), "+r"(hi[u][c].x),
          "+r"(hi[u][c].y), "+r"(hi[u][c].z), "+r"(hi[u][c].w));
    }
  }
  if constexpr (Shuffled) {  // a lane's second window is the next lane's first
#pragma unroll
    for (int u = 0; u < Items; ++u)
#pragma unroll
      for (int c = 0; c < K; ++c) {
        const uint4 next{__shfl_down_sync(~0u, lo[u][c].x, 1), __shfl_down_sync(~0u, lo[u][c].y, 1),
                         __shfl_down_sync(~0u, lo[u][c].z, 1), __shfl_down_sync(~0u, lo[u][c].w, 1)};
        if ((t & 31) != 31) hi[u][c] = next;
      }
  }
#pragma unroll
  for (int u = 0; u < Items; ++u)
#pragma unroll
    for (int c = 0; c < K; ++c) channels[u][c] = phase[c] == 0 ? lo[u][c] : bytes_across(lo[u][c], hi[u][c], phase[c]);
}

// The same for one channel of any block: windows reaching outside the row are read byte by byte.
// Channel chunk s (records s V .. s V + V - 1 of the block) of a channel whose first record sits at
// `at` (any element-aligned address; the row spans [row, row_end)).
SMEMTILE_DEVICE uint4 load_channel_chunk(const unsigned char* at, int s, const unsigned char* row,
                                         const unsigned char* row_end) {
  const int a = static_cast<int>(reinterpret_cast<unsigned long long>(at) & 15u);
  if (a == 0) return *reinterpret_cast<const uint4*>(at + 16 * s);
  const unsigned char* window = at - a + 16 * s;
  return bytes_across(load_window(window, row, row_end), load_window(window + 16, row, row_end), a);
}

// split, some channel rows not 16-byte aligned: a block writes, in each channel row, the aligned
// windows that start among its own records' bytes, d = (16 - the row's phase) % 16 bytes in. The
// last window reaches d bytes into the next block's records, so the block splits one segment more
// (`next`, staged after the records) when the run has it; without it the last window goes out as
// its own bytes only. The run's first block also writes the row's head (its first d bytes). No
// window is written twice and none reaches outside the row, so pitches' padding stays untouched.
template <class Shape, int T, class Bits>
SMEMTILE_DEVICE void store_channels_unaligned(const uint4 (&channels)[Shape::items][Shape::k], uint4* stage, Bits* dst,
                                              long long ld, bool first_block, bool has_next) {
  constexpr int K = Shape::k, W = Shape::chunks / K;  // a channel's chunks; slot c (W + 1) + W: the next segment's
  const int t = static_cast<int>(threadIdx.x);
  __syncthreads();  // every thread has read its records from the stage
#pragma unroll
  for (int u = 0; u < Shape::items; ++u)
#pragma unroll
    for (int c = 0; c < K; ++c) stage[c * (W + 1) + u * T + t] = channels[u][c];
  if (has_next && t == T - 1) {
    uint4 records[K], next[K];
#pragma unroll
    for (int i = 0; i < K; ++i) records[i] = stage[Shape::next_slot + i];
    split_records<Bits, K>(records, next);
#pragma unroll
    for (int c = 0; c < K; ++c) stage[c * (W + 1) + W] = next[c];
  }
  __syncthreads();
#pragma unroll 1
  for (int c = 0; c < K; ++c) {
    auto* row = reinterpret_cast<unsigned char*>(dst + c * ld);
    const int phase = static_cast<int>(reinterpret_cast<unsigned long long>(row) & 15u), d = (16 - phase) & 15;
    const uint4* chunks = stage + c * (W + 1);
    if (first_block && d != 0 && t == 0) store_chunk_suffix(row - phase, bytes_across(chunks[0], chunks[0], d), d);
#pragma unroll
    for (int u = 0; u < Shape::items; ++u) {
      const int j = u * T + t;  // window j: bytes [d + 16 j, d + 16 j + 16) of the block's run
      const uint4 window = bytes_across(chunks[j], chunks[j + 1], d);
      if (narrow_split_window_whole(j, W, d, has_next)) store_chunk(row + d + 16 * j, window);
      else store_chunk_prefix(row + d + 16 * j, window, 16 - d);
    }
  }
}

// narrow_rows_registers: a full block's records (at src, 16-byte aligned) to K channel rows;
// `first_block` and `has_next` as store_channels_unaligned takes them.
template <class Shape, int T, class Bits>
SMEMTILE_DEVICE void split_block(const Bits* src, Bits* dst, long long ld, bool channels_aligned, bool first_block,
                                 bool has_next, uint4* stage) {
  constexpr int K = Shape::k, V = Shape::per_chunk;
  const int t = static_cast<int>(threadIdx.x);
  const uint4* flat = reinterpret_cast<const uint4*>(src);
#pragma unroll
  for (int j = 0; j < Shape::chunks / T; ++j) {
    const int q = j * T + t;
    stage_chunk_async(&stage[record_chunk_slot(q, K)], flat + q);
  }
  if (!channels_aligned && has_next && t < K) stage_chunk_async(&stage[Shape::next_slot + t], flat + Shape::chunks + t);
  async_copy_commit();
  async_copy_wait_all();
  __syncthreads();
  uint4 channels[Shape::items][K];
#pragma unroll
  for (int u = 0; u < Shape::items; ++u) {
    const int s = u * T + t;  // the thread's segment: records s V .. s V + V - 1
    uint4 records[K];
#pragma unroll
    for (int i = 0; i < K; ++i) records[i] = stage[record_chunk_slot(s * K + i, K)];
    split_records<Bits, K>(records, channels[u]);
  }
  if (channels_aligned) {
#pragma unroll
    for (int u = 0; u < Shape::items; ++u)
#pragma unroll
      for (int c = 0; c < K; ++c) store_chunk(dst + c * ld + (u * T + t) * V, channels[u][c]);
  } else {
    store_channels_unaligned<Shape, T>(channels, stage, dst, ld, first_block, has_next);
  }
}

// How merge_segments reads a block's channel rows: all 16-byte aligned (one load a chunk), some not
// with every window inside the rows, or some not at the run's first or last block (windows may
// reach outside the rows).
enum class ChannelReads { aligned, interior, checked };

// narrow_cols_registers, a block's segments: K channel rows (the block's first record of row c at
// src + c ld; a row spans `extent` elements from src_rows + c ld) merged into records and staged.
template <ChannelReads Reads, class Shape, int T, class Bits>
SMEMTILE_DEVICE void merge_segments(const Bits* src, const Bits* src_rows, int extent, long long ld, uint4* stage) {
  constexpr int K = Shape::k, E = static_cast<int>(sizeof(Bits)), Items = Shape::items;
  const int t = static_cast<int>(threadIdx.x);
  uint4 channels[Items][K];
  if constexpr (Reads == ChannelReads::interior) {
    load_channel_chunks<Items, K, T, narrow_register_shuffled_windows(K)>(src, ld, t, channels);
  } else {
#pragma unroll
    for (int u = 0; u < Items; ++u)
#pragma unroll
      for (int c = 0; c < K; ++c) {
        const auto* at = reinterpret_cast<const unsigned char*>(src + c * ld);
        const auto* row = reinterpret_cast<const unsigned char*>(src_rows + c * ld);
        channels[u][c] = Reads == ChannelReads::aligned
                             ? reinterpret_cast<const uint4*>(at)[u * T + t]
                             : load_channel_chunk(at, u * T + t, row, row + static_cast<long long>(extent) * E);
      }
  }
#pragma unroll
  for (int u = 0; u < Items; ++u) {
    const int s = u * T + t;
    uint4 records[K];
    merge_records<Bits, K>(channels[u], records);
#pragma unroll
    for (int i = 0; i < K; ++i) stage[record_chunk_slot(s * K + i, K)] = records[i];
  }
}

// narrow_cols_registers: K channel rows to a full block's records (at dst, 16-byte aligned). An
// `interior` block (all its windows inside the rows) reads them without bounds tests.
template <class Shape, int T, class Bits>
SMEMTILE_DEVICE void merge_block(const Bits* src, const Bits* src_rows, int extent, Bits* dst, long long ld,
                                 bool channels_aligned, bool interior, uint4* stage) {
  constexpr int K = Shape::k;
  const int t = static_cast<int>(threadIdx.x);
  if (channels_aligned) merge_segments<ChannelReads::aligned, Shape, T>(src, src_rows, extent, ld, stage);
  else if (interior) merge_segments<ChannelReads::interior, Shape, T>(src, src_rows, extent, ld, stage);
  else merge_segments<ChannelReads::checked, Shape, T>(src, src_rows, extent, ld, stage);
  __syncthreads();
  uint4* flat = reinterpret_cast<uint4*>(dst);
#pragma unroll
  for (int j = 0; j < Shape::chunks / T; ++j) {
    const int q = j * T + t;
    flat[q] = stage[record_chunk_slot(q, K)];
  }
}

template <class Policy, class Bits>
__global__ void __launch_bounds__(Policy::threads, Policy::min_blocks)
    transpose_narrow_registers_kernel(const Bits* in, Bits* out, int extent, int ld_in, int ld_out,
                                      long long stride_in, long long stride_out, int runs, bool channels_aligned) {
  using Shape = NarrowRegisterShape<Policy, static_cast<int>(sizeof(Bits))>;
  constexpr int K = Shape::k, T = Policy::threads;
  __shared__ uint4 stage[Shape::slots];
  const int matrix = static_cast<int>(blockIdx.x) / runs;
  // a matrix's first block takes its last run, the short one that moves element by element, so
  // that it starts with the first wave instead of ending the grid
  const int run = static_cast<int>(blockIdx.x) - matrix * runs;
  const int first = (run == 0 ? runs - 1 : run - 1) * Shape::records;
  const int count = extent - first < Shape::records ? extent - first : Shape::records;
  const Bits* src = in + matrix * stride_in + (Shape::split ? static_cast<long long>(first) * K : first);
  Bits* dst = out + matrix * stride_out + (Shape::split ? first : static_cast<long long>(first) * K);
  const long long ld_channels = Shape::split ? ld_out : ld_in;
  if (count < Shape::records) {
    move_records_by_element<K>(src, dst, count, ld_channels, Shape::split, FixedThreadBlock<T>{});
  } else if constexpr (Shape::words) {  // channel rows at any phase of the word
    if constexpr (Shape::split) split_block_words<Shape, T>(src, dst, ld_channels, stage);
    else merge_block_words<Shape, T>(src, in + matrix * stride_in, extent, dst, ld_channels,
                                     narrow_block_interior(first, Shape::records, Shape::per_word, extent), stage);
  } else if constexpr (Shape::grouped) {
    move_block_groups<Shape, T>(src, dst, ld_channels, channels_aligned, stage);
  } else if constexpr (Shape::split) {
    split_block<Shape, T>(src, dst, ld_channels, channels_aligned, first == 0,
                          narrow_block_has_next(first, Shape::records, Shape::per_chunk, extent), stage);
  } else {
    merge_block<Shape, T>(src, in + matrix * stride_in, extent, dst, ld_channels, channels_aligned,
                          narrow_block_interior(first, Shape::records, Shape::per_chunk, extent), stage);
  }
}

}  // namespace detail

#endif  // __CUDACC__

}  // namespace smemtile
