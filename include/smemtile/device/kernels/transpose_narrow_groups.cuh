/// \file
/// The narrow register kernels' channel groups: records of K elements above
/// transpose_register_narrow_max, K a multiple of V = 16 / sizeof(Bits). A record is then K / V
/// whole chunks, its chunk g holding channels g V .. g V + V - 1, so a segment's V records and V of
/// its channels are one V x V element transpose (split_group / merge_group):
/// a thread holds 2 V chunks however large K is. A block's units of work are (segment, group)
/// pairs, consecutive lanes on consecutive segments of one group, so that each channel access of a
/// warp is 512 contiguous bytes: 16-byte accesses where the channel rows are 16-byte aligned; else
/// aligned windows shifted across lanes (splitting) or element loads (merging, 4- and 8-byte
/// elements: narrow_registers_apply); the flat side is staged through record_chunk_slot's segment
/// XOR, conflict-free for these K (NarrowRegisterShape's static_assert).
#pragma once

#include "../../block/async_copy.cuh"       // async_copy_commit, async_copy_wait_all
#include "../../block/realign.cuh"          // chunk_from_next_lane, chunk_before, store_chunk_prefix / _suffix
#include "../../block/record_registers.cuh" // split_records, merge_records, stage_chunk_async, store_chunk
#include "../../core/record_layout.cuh"     // record_chunk_slot

namespace smemtile {

#if defined(__CUDACC__)

namespace detail {

// The staged chunk of segment s's record v, group g (Groups chunks a record).
template <int K, int Groups>
SMEMTILE_DEVICE int group_chunk_slot(int s, int v, int g) {
  return record_chunk_slot(s * K + v * Groups + g, K);
}

// V records x V channels regrouped: bytes (V = 16) as two halves of 8 channels, each a record's 8
// bytes (merge_records<Bits, 8>: chunk i holds records 2 i and 2 i + 1), so that one half's input is
// dead before the other's output is built; the halves' chunks pair up by register renames. (The
// bytes kernels still sit at the 128-register cap of 2 blocks per multiprocessor, 8-16 bytes spilled.)
template <class Bits, int V>
SMEMTILE_DEVICE void merge_group(const uint4 (&channels)[V], uint4 (&records)[V]) {
  if constexpr (V == 16) {
    uint4 first[8], second[8], lo[8], hi[8];
#pragma unroll
    for (int c = 0; c < 8; ++c) first[c] = channels[c], second[c] = channels[8 + c];
    merge_records<Bits, 8>(first, lo);
    merge_records<Bits, 8>(second, hi);
#pragma unroll
    for (int v = 0; v < 16; ++v)
      records[v] = v % 2 == 0 ? uint4{lo[v / 2].x, lo[v / 2].y, hi[v / 2].x, hi[v / 2].y}
                              : uint4{lo[v / 2].z, lo[v / 2].w, hi[v / 2].z, hi[v / 2].w};
  } else {
    merge_records<Bits, V>(channels, records);
  }
}

// merge_group's inverse.
template <class Bits, int V>
SMEMTILE_DEVICE void split_group(const uint4 (&records)[V], uint4 (&channels)[V]) {
  if constexpr (V == 16) {
    uint4 lo[8], hi[8], first[8], second[8];
#pragma unroll
    for (int i = 0; i < 8; ++i) {
      lo[i] = uint4{records[2 * i].x, records[2 * i].y, records[2 * i + 1].x, records[2 * i + 1].y};
      hi[i] = uint4{records[2 * i].z, records[2 * i].w, records[2 * i + 1].z, records[2 * i + 1].w};
    }
    split_records<Bits, 8>(lo, first);
    split_records<Bits, 8>(hi, second);
#pragma unroll
    for (int c = 0; c < 8; ++c) channels[c] = first[c], channels[8 + c] = second[c];
  } else {
    split_records<Bits, V>(records, channels);
  }
}

// A channel chunk from a row that is not 16-byte aligned (merging; 4- and 8-byte elements only,
// narrow_registers_apply): element by element, still coalesced across the warp (lane l on bytes
// 16 l .. 16 l + 15 of the group's run).
template <class Bits>
SMEMTILE_DEVICE uint4 load_elements(const Bits* at) {
  constexpr int V = 16 / static_cast<int>(sizeof(Bits));
  Bits e[V];
#pragma unroll
  for (int i = 0; i < V; ++i) e[i] = at[i];
  uint4 chunk;
  memcpy(&chunk, e, 16);
  return chunk;
}

// A channel chunk to a row that may be off 16 bytes (splitting), at `at` p bytes past a 16-byte
// boundary (the same p for the whole warp: one row, lanes on consecutive chunks): each lane stores
// the aligned window that starts d = 16 - p bytes into its chunk, completed from the next lane's;
// the warp's last lane only its own p bytes of it, and its first lane also its own first d bytes
// (the window before, which the previous warp's last lane completes). Element stores instead ran
// at 68-73% of cudaMemcpy (H100, floats, k = 12..32). Every lane of the warp calls it.
template <class Bits>
SMEMTILE_DEVICE void store_channel_chunk_shifted(Bits* at, const uint4& chunk) {
  auto* bytes = reinterpret_cast<unsigned char*>(at);
  const int p = static_cast<int>(reinterpret_cast<unsigned long long>(bytes) & 15u), d = 16 - p;
  if (p == 0) {  // an aligned row among unaligned ones
    store_chunk(bytes, chunk);
    return;
  }
  const unsigned own[4] = {chunk.x, chunk.y, chunk.z, chunk.w};
  const int lane = static_cast<int>(threadIdx.x) & 31;
  const uint4 window = chunk_from_next_lane(own, d);
  if (lane == 0) store_chunk_suffix(bytes - p, chunk_before(own, d), d);
  if (lane < 31) store_chunk(bytes + d, window);
  else store_chunk_prefix(bytes + d, window, p);
}

// narrow_rows_registers by channel groups: a full block's records (at src, 16-byte aligned) to K
// channel rows (16-byte aligned, pitch ld).
template <bool ChannelsAligned, class Shape, int T, class Bits>
SMEMTILE_DEVICE void split_block_groups(const Bits* src, Bits* dst, long long ld, uint4* stage) {
  constexpr int K = Shape::k, V = Shape::per_chunk, Groups = K / V, S = Shape::segments;
  const int t = static_cast<int>(threadIdx.x);
  const uint4* flat = reinterpret_cast<const uint4*>(src);
#pragma unroll 4
  for (int q = t; q < Shape::chunks; q += T) stage_chunk_async(&stage[record_chunk_slot(q, K)], flat + q);
  async_copy_commit();
  async_copy_wait_all();
  __syncthreads();
#pragma unroll 1
  for (int w = t; w < S * Groups; w += T) {
    const int s = w % S, g = w / S;
    uint4 records[V], channels[V];
#pragma unroll
    for (int v = 0; v < V; ++v) records[v] = stage[group_chunk_slot<K, Groups>(s, v, g)];
    split_group<Bits, V>(records, channels);
#pragma unroll
    for (int c = 0; c < V; ++c) {
      Bits* at = dst + (g * V + c) * ld + s * V;
      if constexpr (ChannelsAligned) store_chunk(at, channels[c]);
      else store_channel_chunk_shifted(at, channels[c]);
    }
  }
}

// narrow_cols_registers by channel groups: K channel rows (16-byte aligned, pitch ld; the block's
// first record at src) to a full block's records (at dst, 16-byte aligned).
template <bool ChannelsAligned, class Shape, int T, class Bits>
SMEMTILE_DEVICE void merge_block_groups(const Bits* src, Bits* dst, long long ld, uint4* stage) {
  constexpr int K = Shape::k, V = Shape::per_chunk, Groups = K / V, S = Shape::segments;
  const int t = static_cast<int>(threadIdx.x);
#pragma unroll 1
  for (int w = t; w < S * Groups; w += T) {
    const int s = w % S, g = w / S;
    uint4 channels[V], records[V];
#pragma unroll
    for (int c = 0; c < V; ++c) {
      const Bits* at = src + (g * V + c) * ld + s * V;
      channels[c] = ChannelsAligned ? *reinterpret_cast<const uint4*>(at) : load_elements(at);
    }
    merge_group<Bits, V>(channels, records);
#pragma unroll
    for (int v = 0; v < V; ++v) stage[group_chunk_slot<K, Groups>(s, v, g)] = records[v];
  }
  __syncthreads();
  uint4* flat = reinterpret_cast<uint4*>(dst);
#pragma unroll 4
  for (int q = t; q < Shape::chunks; q += T) flat[q] = stage[record_chunk_slot(q, K)];
}

// A full block by channel groups, either direction; merging reads channel rows off 16 bytes only
// for 4- and 8-byte elements (narrow_registers_apply: smaller ones would load 8 or 16 pieces a chunk).
template <class Shape, int T, class Bits>
SMEMTILE_DEVICE void move_block_groups(const Bits* src, Bits* dst, long long ld, bool channels_aligned, uint4* stage) {
  if constexpr (Shape::split) {
    if (channels_aligned) split_block_groups<true, Shape, T>(src, dst, ld, stage);
    else split_block_groups<false, Shape, T>(src, dst, ld, stage);
  } else {
    if constexpr (sizeof(Bits) >= 4) {
      if (!channels_aligned) {
        merge_block_groups<false, Shape, T>(src, dst, ld, stage);
        return;
      }
    }
    merge_block_groups<true, Shape, T>(src, dst, ld, stage);
  }
}

}  // namespace detail

#endif  // __CUDACC__

}  // namespace smemtile
