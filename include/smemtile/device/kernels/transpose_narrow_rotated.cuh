/// \file
/// device_transpose's rotated-record kernels, for an odd K of 4-byte elements
/// (narrow_rotated_extent): narrow_cols_rotated (K x N -> N x K) and narrow_rows_rotated (N x K ->
/// K x N). A block takes a run of 4 x threads records, staged flat in shared memory as they lie in
/// the records' array; thread t holds records 4t .. 4t + 3 of each channel as one 16-byte chunk and
/// moves its words between that chunk and the stage in rotated order (rotated_record_word: 32 banks
/// per warp access for any odd K). Both global sides move in coalesced 16-byte accesses; every
/// thread loads all its K chunks before it stages any. Channel rows and records 16-byte aligned
/// (narrow_rotated_apply). A run's last, shorter block moves element by element and is its
/// matrix's first block, so that it starts early.
#pragma once

#include "../../block/interleave.cuh"        // chunk_word
#include "../../block/record_registers.cuh"  // store_chunk
#include "../../block/thread_group.cuh"      // FixedThreadBlock
#include "../../core/record_layout.cuh"      // rotated_record, rotated_record_access, rotated_record_word
#include "../tuning/transpose_policy.cuh"    // TransposeAlgorithm, narrow_rotated_extent
#include "transpose_narrow_registers.cuh"    // move_records_by_element

namespace smemtile {

#if defined(__CUDACC__)

namespace detail {

// narrow_cols_rotated, a full block: K channel rows (the block's first record of row c at src + c
// ld) to its records at dst (K T chunks). chunk_word's selects (on the rotation, fixed per lane)
// keep a chunk in registers.
template <int K, int T, class Bits>
SMEMTILE_DEVICE void merge_block_rotated(const Bits* src, long long ld, Bits* dst, uint4* stage) {
  const int t = static_cast<int>(threadIdx.x);
  uint4 chunks[K];
#pragma unroll
  for (int c = 0; c < K; ++c) chunks[c] = reinterpret_cast<const uint4*>(src + c * ld)[t];
  unsigned* words = reinterpret_cast<unsigned*>(stage);
#pragma unroll
  for (int c = 0; c < K; ++c)
#pragma unroll
    for (int i = 0; i < 4; ++i) words[rotated_record_word(t, i, c, K)] = chunk_word(chunks[c], rotated_record(i, t));
  __syncthreads();
  uint4* flat = reinterpret_cast<uint4*>(dst);
#pragma unroll
  for (int j = 0; j < K; ++j) store_chunk(flat + j * T + t, stage[j * T + t]);
}

// narrow_rows_rotated, a full block: its records at src (K T chunks) to K channel rows (the block's
// first record of row c at dst + c ld).
template <int K, int T, class Bits>
SMEMTILE_DEVICE void split_block_rotated(const Bits* src, Bits* dst, long long ld, uint4* stage) {
  const int t = static_cast<int>(threadIdx.x);
  const uint4* flat = reinterpret_cast<const uint4*>(src);
  uint4 chunks[K];
#pragma unroll
  for (int j = 0; j < K; ++j) chunks[j] = flat[j * T + t];
#pragma unroll
  for (int j = 0; j < K; ++j) stage[j * T + t] = chunks[j];
  __syncthreads();
  const unsigned* words = reinterpret_cast<const unsigned*>(stage);
#pragma unroll
  for (int c = 0; c < K; ++c) {
    uint4 gathered;  // word i: record 4t + rotated_record(i, t)
    gathered.x = words[rotated_record_word(t, 0, c, K)];
    gathered.y = words[rotated_record_word(t, 1, c, K)];
    gathered.z = words[rotated_record_word(t, 2, c, K)];
    gathered.w = words[rotated_record_word(t, 3, c, K)];
    const uint4 chunk{chunk_word(gathered, rotated_record_access(0, t)),
                      chunk_word(gathered, rotated_record_access(1, t)),
                      chunk_word(gathered, rotated_record_access(2, t)),
                      chunk_word(gathered, rotated_record_access(3, t))};
    store_chunk(dst + c * ld + 4 * t, chunk);
  }
}

template <class Policy, class Bits>
__global__ void __launch_bounds__(Policy::threads, Policy::min_blocks)
    transpose_narrow_rotated_kernel(const Bits* in, Bits* out, int extent, long long ld_channels, long long stride_in,
                                    long long stride_out, int runs) {
  constexpr bool split = Policy::algorithm == TransposeAlgorithm::narrow_rows_rotated;
  constexpr int K = split ? Policy::cols : Policy::rows, T = Policy::threads, Records = 4 * T;
  static_assert(is_rotated_transpose(Policy::algorithm) && (split ? Policy::rows : Policy::cols) == Records,
                "the rotated algorithms: 4 records a thread");
  static_assert(sizeof(Bits) == 4, "the rotated algorithms: 4-byte elements (one stage word each)");
  static_assert(rotated_records_conflict_free(K),
                "the rotated algorithms: rotated_record_word must be conflict-free for K");
  __shared__ uint4 stage[K * T];
  const int matrix = static_cast<int>(blockIdx.x) / runs;
  const int run = static_cast<int>(blockIdx.x) - matrix * runs;
  const int first = (run == 0 ? runs - 1 : run - 1) * Records;  // the short last run first
  const int count = extent - first < Records ? extent - first : Records;
  const Bits* src = in + matrix * stride_in + (split ? static_cast<long long>(first) * K : first);
  Bits* dst = out + matrix * stride_out + (split ? first : static_cast<long long>(first) * K);
  if (count < Records) move_records_by_element<K>(src, dst, count, ld_channels, split, FixedThreadBlock<T>{});
  else if constexpr (split) split_block_rotated<K, T>(src, dst, ld_channels, stage);
  else merge_block_rotated<K, T>(src, ld_channels, dst, stage);
}

}  // namespace detail

#endif  // __CUDACC__

}  // namespace smemtile
