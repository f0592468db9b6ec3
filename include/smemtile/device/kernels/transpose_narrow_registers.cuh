/// \file
/// device_transpose's narrow register kernels (narrow_rows_registers: N x K -> K x N, records to
/// channels; narrow_cols_registers: K x N -> N x K), K a compile-time extent up to
/// transpose_register_narrow_max. A block takes a run of records: the flat side (the records, one
/// contiguous run) moves through shared memory in coalesced 16-byte chunks (record_chunk_slot's
/// conflict-free staging), each thread regroups 16 bytes' worth of records in registers
/// (split_records / merge_records), and the channel side moves straight between registers and
/// global memory, 16 bytes per thread and channel, consecutive threads on consecutive records.
/// The records must be 16-byte aligned (the selector sends only such calls here); channel rows may
/// start anywhere (element-aligned): each 16-byte aligned window of a row is then assembled from two
/// chunks by funnel shifts. A run's last block, shorter than a full one, moves element by element.
#pragma once

#include "../../block/async_copy.cuh"     // async_copy_commit, async_copy_wait_all
#include "../../block/realign.cuh"        // bytes_across
#include "../../block/record_registers.cuh" // split_records, merge_records, stage_chunk_async, store_chunk
#include "../../block/thread_group.cuh"     // FixedThreadBlock
#include "../../core/record_layout.cuh"     // record_chunk_slot
#include "../tuning/transpose_policy.cuh"   // TransposeAlgorithm, TransposePolicy, NarrowRegisterShape

namespace smemtile {

#if defined(__CUDACC__)

namespace detail {

// A short run (count < the policy's records): out's channel c, record r = in's record r, element c.
template <int K, class Bits, class Block>
SMEMTILE_DEVICE void move_records_by_element(const Bits* in, Bits* out, int count, long long ld_channels, bool split,
                                             Block block) {
  for (int i = static_cast<int>(block.rank()); i < count * K; i += static_cast<int>(block.size())) {
    const int r = i / K, c = i - r * K;
    if (split) out[c * ld_channels + r] = in[i];
    else out[i] = in[c * ld_channels + r];
  }
}

// The 16-byte aligned global window at `window`, its bytes outside [lo, hi) left zero: one load
// where it lies inside, else byte by byte (a channel row's ends only).
SMEMTILE_DEVICE uint4 load_window(const unsigned char* window, const unsigned char* lo, const unsigned char* hi) {
  if (window >= lo && window + 16 <= hi) return *reinterpret_cast<const uint4*>(window);
  alignas(16) unsigned char bytes[16];
#pragma unroll
  for (int i = 0; i < 16; ++i) bytes[i] = window + i >= lo && window + i < hi ? window[i] : 0;
  return *reinterpret_cast<const uint4*>(bytes);
}

// Channel chunk s (records s V .. s V + V - 1 of the block) of a channel whose first record sits at
// `at` (any element-aligned address; the row spans [row, row_end)).
SMEMTILE_DEVICE uint4 load_channel_chunk(const unsigned char* at, int s, const unsigned char* row,
                                         const unsigned char* row_end) {
  const int a = static_cast<int>(reinterpret_cast<unsigned long long>(at) & 15u);
  if (a == 0) return *reinterpret_cast<const uint4*>(at + 16 * s);
  const unsigned char* window = at - a + 16 * s;
  return bytes_across(load_window(window, row, row_end), load_window(window + 16, row, row_end), a);
}

// split: the threads' channel chunks (channels[u][c]: item u, channel c) to K channel rows whose
// first record of the block is at dst + c ld, some of them not 16-byte aligned: staged by channel in
// shared memory, then each 16-byte aligned window of a row assembled from two staged chunks; the
// two windows a row shares with the blocks beside go byte by byte.
template <class Shape, int T, class Bits>
SMEMTILE_DEVICE void store_channels_unaligned(const uint4 (&channels)[Shape::items][Shape::k], uint4* stage, Bits* dst,
                                              long long ld) {
  constexpr int K = Shape::k, E = static_cast<int>(sizeof(Bits)), W = Shape::chunks / K;  // chunks per channel
  const int t = static_cast<int>(threadIdx.x);
  __syncthreads();  // every thread has read its records from the stage
#pragma unroll
  for (int u = 0; u < Shape::items; ++u)
#pragma unroll
    for (int c = 0; c < K; ++c) stage[c * W + u * T + t] = channels[u][c];
  __syncthreads();
#pragma unroll 1
  for (int c = 0; c < K; ++c) {
    Bits* row = dst + c * ld;
    const int a = static_cast<int>(reinterpret_cast<unsigned long long>(row) & 15u);
    const uint4* chunks = stage + c * W;
    for (int w = t; w <= W; w += T) {  // window w: bytes [16 w - a, 16 w - a + 16) of the block's run
      if (a != 0 && w > 0 && w < W) {
        store_chunk(reinterpret_cast<unsigned char*>(row) - a + 16 * w, bytes_across(chunks[w - 1], chunks[w], 16 - a));
      } else if (a == 0 && w < W) {
        store_chunk(row + w * (16 / E), chunks[w]);
      } else if (a != 0) {  // a partial window at either end: the block's bytes in it, byte by byte
        // (an element under-aligned for its size may straddle two windows)
        const auto* bytes = reinterpret_cast<const unsigned char*>(chunks);
        auto* row_bytes = reinterpret_cast<unsigned char*>(row);
        const int lo = w == 0 ? 0 : 16 * w - a, hi = w == 0 ? 16 - a : 16 * W;
        for (int b = lo; b < hi; ++b) row_bytes[b] = bytes[b];
      }
    }
  }
}

// narrow_rows_registers: a full block's records (at src, 16-byte aligned) to K channel rows.
template <class Shape, int T, class Bits>
SMEMTILE_DEVICE void split_block(const Bits* src, Bits* dst, long long ld, bool channels_aligned, uint4* stage) {
  constexpr int K = Shape::k, V = Shape::per_chunk;
  const int t = static_cast<int>(threadIdx.x);
  const uint4* flat = reinterpret_cast<const uint4*>(src);
#pragma unroll
  for (int j = 0; j < Shape::chunks / T; ++j) {
    const int q = j * T + t;
    stage_chunk_async(&stage[record_chunk_slot(q, K)], flat + q);
  }
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
    store_channels_unaligned<Shape, T>(channels, stage, dst, ld);
  }
}

// narrow_cols_registers: K channel rows (the block's first record of row c at src + c ld; a row
// spans `extent` elements from src_rows + c ld) to a full block's records (at dst, 16-byte aligned).
template <class Shape, int T, class Bits>
SMEMTILE_DEVICE void merge_block(const Bits* src, const Bits* src_rows, int extent, Bits* dst, long long ld,
                                 uint4* stage) {
  constexpr int K = Shape::k, E = static_cast<int>(sizeof(Bits));
  const int t = static_cast<int>(threadIdx.x);
#pragma unroll
  for (int u = 0; u < Shape::items; ++u) {
    const int s = u * T + t;
    uint4 channels[K], records[K];
#pragma unroll
    for (int c = 0; c < K; ++c) {
      const auto* row = reinterpret_cast<const unsigned char*>(src_rows + c * ld);
      channels[c] = load_channel_chunk(reinterpret_cast<const unsigned char*>(src + c * ld), s, row,
                                       row + static_cast<long long>(extent) * E);
    }
    merge_records<Bits, K>(channels, records);
#pragma unroll
    for (int i = 0; i < K; ++i) stage[record_chunk_slot(s * K + i, K)] = records[i];
  }
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
  const int first = (static_cast<int>(blockIdx.x) - matrix * runs) * Shape::records;
  const int count = extent - first < Shape::records ? extent - first : Shape::records;
  const Bits* src = in + matrix * stride_in + (Shape::split ? static_cast<long long>(first) * K : first);
  Bits* dst = out + matrix * stride_out + (Shape::split ? first : static_cast<long long>(first) * K);
  const long long ld_channels = Shape::split ? ld_out : ld_in;
  if (count < Shape::records) {
    move_records_by_element<K>(src, dst, count, ld_channels, Shape::split, FixedThreadBlock<T>{});
  } else if constexpr (Shape::split) {
    split_block<Shape, T>(src, dst, ld_channels, channels_aligned, stage);
  } else {
    merge_block<Shape, T>(src, in + matrix * stride_in, extent, dst, ld_channels, stage);
  }
}

}  // namespace detail

#endif  // __CUDACC__

}  // namespace smemtile
