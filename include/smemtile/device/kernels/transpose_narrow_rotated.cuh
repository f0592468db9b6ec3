/// \file
/// device_transpose's rotated-record kernels, for an odd K of 1- to 8-byte elements
/// (narrow_rotated_extent): narrow_cols_rotated (K x N -> N x K) and narrow_rows_rotated (N x K ->
/// K x N). A block takes a run of 16 / E records a thread, staged flat in shared memory as they
/// lie in the records' array; thread t holds its records of each channel as one 16-byte chunk of P
/// units and moves them between that chunk and the stage in rotated order (rotated_record_word:
/// distinct banks per warp access for any odd K). A unit is a record of 4- or 8-byte elements, or
/// 4 / E records of 1- or 2-byte ones packed to K words (packed_record_element): a chunk's word then
/// holds one channel of the 4 / E records, a stage word elements of up to 4 / E channels, and byte
/// permutes move elements between the two. Both global sides move in coalesced 16-byte accesses;
/// every thread loads all its K chunks before it stages any. Records 16-byte aligned; channel rows
/// may be off 16 bytes where splitting and where merging 4- and 8-byte elements (narrow_rotated_apply):
/// aligned windows at the row's shift for 4- and 8-byte elements aligned to their size, else chunks
/// shifted across lanes (splitting) or element loads (merging). A run's last, shorter block moves
/// element by element and is its matrix's first block, so that it starts early.
#pragma once

#include "../../block/interleave.cuh"        // chunk_word
#include "../../block/record_registers.cuh"  // store_chunk
#include "../../block/thread_group.cuh"      // FixedThreadBlock
#include "../../core/record_layout.cuh"      // rotated_record, rotated_record_access, rotated_record_word
#include "../tuning/transpose_policy.cuh"    // TransposeAlgorithm, narrow_rotated_extent, rotated_split_windows
#include "transpose_narrow_groups.cuh"       // load_elements, store_channel_chunk_shifted
#include "transpose_narrow_registers.cuh"    // move_records_by_element
#include "transpose_narrow_words.cuh"        // ChannelWord

namespace smemtile {

#if defined(__CUDACC__)

namespace detail {

// The piece of a unit one element position occupies (rotated_unit_word_bytes): a word for 1- to
// 4-byte elements, two for 8-byte ones (transpose_narrow_words.cuh's ChannelWord).
template <int E>
using RotatedWord = ChannelWord<rotated_unit_word_bytes(E)>;

// Unit m (0 .. P - 1, fixed per lane) of a channel chunk: selects, so that the chunk stays in registers.
template <int E>
SMEMTILE_DEVICE RotatedWord<E> chunk_unit(const uint4& chunk, int m) {
  if constexpr (E <= 4) return chunk_word(chunk, m);
  else return m == 0 ? make_uint2(chunk.x, chunk.y) : make_uint2(chunk.z, chunk.w);
}

// A channel chunk of P units, unit m's being units[m].
template <int E, int P>
SMEMTILE_DEVICE uint4 unit_chunk(const RotatedWord<E> (&units)[P]) {
  if constexpr (E <= 4) return uint4{units[0], units[1], units[2], units[3]};
  else return uint4{units[0].x, units[0].y, units[1].x, units[1].y};
}

// The word (E < 4) whose element e is element at[e] of from[e], by byte permutes (at[] known at
// compile time once unrolled); for 4- and 8-byte elements, from[0].
template <int E, int Q>
SMEMTILE_DEVICE RotatedWord<E> gather_elements(const RotatedWord<E> (&from)[Q], const int (&at)[Q]) {
  if constexpr (E == 2) {
    return __byte_perm(from[0], from[1], (2 * at[0]) | (2 * at[0] + 1) << 4 | (4 + 2 * at[1]) << 8 | (5 + 2 * at[1]) << 12);
  } else if constexpr (E == 1) {
    const unsigned low = __byte_perm(from[0], from[1], at[0] | (4 + at[1]) << 4);
    const unsigned high = __byte_perm(from[2], from[3], at[2] | (4 + at[3]) << 4);
    return __byte_perm(low, high, 0x5410);
  } else {
    return from[0];
  }
}

// Whether a row off 16 bytes moves in aligned windows of whole elements (load_row_window,
// store_row_window): 4- and 8-byte elements aligned to their size, so that the row's phase is whole
// elements; 1- and 2-byte ones (packed records) and 8-byte ones aligned to 4 shuffle or load by element.
template <class Bits>
inline constexpr bool whole_element_windows = sizeof(Bits) >= 4 && alignof(Bits) == sizeof(Bits);

// Bytes a pointer lies past a 16-byte boundary.
template <class Bits>
SMEMTILE_DEVICE int phase_16(const Bits* at) {
  return static_cast<int>(reinterpret_cast<unsigned long long>(at) & 15u);
}

// Thread t's aligned window of a channel row p bytes off 16 (`row`: the block's first record of it;
// the window 16 t bytes past the row's aligned start), loaded: one 16-byte load; thread 0's window,
// which wraps (shifted_window_unit), element by element from the row's first 16 - p bytes and the
// p bytes past the block's T chunks, nothing outside the block's records read.
template <int T, class Bits>
SMEMTILE_DEVICE uint4 load_row_window(const Bits* row, int t) {
  constexpr int E = static_cast<int>(sizeof(Bits)), P = 16 / E;
  const int p = phase_16(row);
  const auto* aligned = reinterpret_cast<const unsigned char*>(row) - p;
  if (t != 0 || p == 0) return *reinterpret_cast<const uint4*>(aligned + 16 * t);
  Bits e[P];
#pragma unroll
  for (int m = 0; m < P; ++m) e[m] = *reinterpret_cast<const Bits*>(aligned + m * E + (m * E < p ? 16 * T : 0));
  uint4 chunk;
  memcpy(&chunk, e, 16);
  return chunk;
}

// load_row_window's mirror: thread t's window stored with one 16-byte store; thread 0's in its two
// pieces (store_chunk_suffix, store_chunk_prefix).
template <int T, class Bits>
SMEMTILE_DEVICE void store_row_window(Bits* row, const uint4& chunk, int t) {
  const int p = phase_16(row);
  auto* aligned = reinterpret_cast<unsigned char*>(row) - p;
  if (t != 0 || p == 0) {
    store_chunk(aligned + 16 * t, chunk);
    return;
  }
  store_chunk_suffix(aligned, chunk, 16 - p);
  store_chunk_prefix(aligned + 16 * T, chunk, p);
}

// narrow_cols_rotated, a full block: K channel rows (the block's first record of row c at src + c
// ld; off 16 bytes: 4- and 8-byte elements only, by windows or element loads) to its records at dst (K T
// chunks). Unit word w's element e is packed record element w Q + e: channel (w Q + e) % K of record
// (w Q + e) / K.
template <int K, int T, bool ChannelsAligned, class Bits>
SMEMTILE_DEVICE void merge_block_rotated(const Bits* src, long long ld, Bits* dst, uint4* stage) {
  constexpr int E = static_cast<int>(sizeof(Bits)), P = 16 / rotated_unit_word_bytes(E), Q = rotated_records_per_unit(E);
  const int t = static_cast<int>(threadIdx.x);
  uint4 chunks[K];
#pragma unroll
  for (int c = 0; c < K; ++c) {
    const Bits* at = src + c * ld + 16 / E * t;
    if constexpr (ChannelsAligned) chunks[c] = *reinterpret_cast<const uint4*>(at);
    else if constexpr (whole_element_windows<Bits>) chunks[c] = load_row_window<T>(src + c * ld, t);
    else chunks[c] = load_elements(at);
  }
  auto* units = reinterpret_cast<RotatedWord<E>*>(stage);
#pragma unroll
  for (int w = 0; w < K; ++w) {
    constexpr bool windows = !ChannelsAligned && whole_element_windows<Bits>;  // then w is the channel
    const int shift = windows ? phase_16(src + w * ld) / E : 0;
#pragma unroll
    for (int i = 0; i < P; ++i) {
      RotatedWord<E> from[Q];
      int at[Q];
#pragma unroll
      for (int e = 0; e < Q; ++e) {
        from[e] = chunk_unit<E>(chunks[(w * Q + e) % K], rotated_record(i, t, P));
        at[e] = (w * Q + e) / K;
      }
      const int word = windows ? shifted_window_unit(P * t + rotated_record(i, t, P), shift, P * T) * K + w
                               : rotated_record_word(t, i, w, K, P);
      units[word] = gather_elements<E>(from, at);
    }
  }
  __syncthreads();
  uint4* flat = reinterpret_cast<uint4*>(dst);
#pragma unroll
  for (int j = 0; j < K; ++j) store_chunk(flat + j * T + t, stage[j * T + t]);
}

// Thread t's channel chunk c from the records' stage (units of E-byte elements, K words or
// elements each): its P units gathered in rotated order, then put in record order by selects on the
// lane's rotation, as chunk_unit's. Channel c of record q of a unit is its packed record element q K + c.
template <int K, int T, int E, bool Shifted = false>
SMEMTILE_DEVICE uint4 gather_channel_chunk(const RotatedWord<E>* units, int t, int c, int shift = 0) {
  constexpr int P = 16 / rotated_unit_word_bytes(E), Q = rotated_records_per_unit(E);
  RotatedWord<E> gathered[P], ordered[P];  // gathered[i]: unit P t + rotated_record(i, t, P)
#pragma unroll
  for (int i = 0; i < P; ++i) {
    RotatedWord<E> from[Q];
    int at[Q];
#pragma unroll
    for (int q = 0; q < Q; ++q) {
      const int element = packed_record_element(q, c, K);
      from[q] = units[Shifted ? shifted_window_unit(P * t + rotated_record(i, t, P), shift, P * T) * K + element / Q
                              : rotated_record_word(t, i, element / Q, K, P)];
      at[q] = element % Q;
    }
    gathered[i] = gather_elements<E>(from, at);
  }
#pragma unroll
  for (int m = 0; m < P; ++m) {
    const int i = rotated_record_access(m, t, P);
    ordered[m] = gathered[0];
#pragma unroll
    for (int j = 1; j < P; ++j) ordered[m] = i == j ? gathered[j] : ordered[m];
  }
  return unit_chunk<E>(ordered);
}

// narrow_rows_rotated, a full block: its records at src (K T chunks) to K channel rows (the block's
// first record of row c at dst + c ld). Rows off 16 bytes: every chunk gathered (aligned windows, or
// chunks then shifted across lanes) before the first is stored, so that no stage read waits behind a
// row's shuffles and edge stores.
template <int K, int T, bool ChannelsAligned, class Bits>
SMEMTILE_DEVICE void split_block_rotated(const Bits* src, Bits* dst, long long ld, uint4* stage) {
  constexpr int E = static_cast<int>(sizeof(Bits));
  const int t = static_cast<int>(threadIdx.x);
  const uint4* flat = reinterpret_cast<const uint4*>(src);
  uint4 chunks[K];
#pragma unroll
  for (int j = 0; j < K; ++j) chunks[j] = flat[j * T + t];
#pragma unroll
  for (int j = 0; j < K; ++j) stage[j * T + t] = chunks[j];
  __syncthreads();
  const auto* units = reinterpret_cast<const RotatedWord<E>*>(stage);
  Bits* first = dst + 16 / E * t;
  if constexpr (ChannelsAligned) {
#pragma unroll
    for (int c = 0; c < K; ++c) store_chunk(first + c * ld, gather_channel_chunk<K, T, E>(units, t, c));
  } else if constexpr (whole_element_windows<Bits> && rotated_split_windows(K, E)) {  // aligned windows from the stage
#pragma unroll
    for (int c = 0; c < K; ++c) chunks[c] = gather_channel_chunk<K, T, E, true>(units, t, c, phase_16(dst + c * ld) / E);
#pragma unroll
    for (int c = 0; c < K; ++c) store_row_window<T>(dst + c * ld, chunks[c], t);
  } else {
#pragma unroll
    for (int c = 0; c < K; ++c) chunks[c] = gather_channel_chunk<K, T, E>(units, t, c);
#pragma unroll
    for (int c = 0; c < K; ++c) store_channel_chunk_shifted(first + c * ld, chunks[c]);
  }
}

template <class Policy, class Bits>
__global__ void __launch_bounds__(Policy::threads, Policy::min_blocks)
    transpose_narrow_rotated_kernel(const Bits* in, Bits* out, int extent, long long ld_channels, long long stride_in,
                                    long long stride_out, int runs, bool channels_aligned) {
  constexpr bool split = Policy::algorithm == TransposeAlgorithm::narrow_rows_rotated;
  constexpr int E = static_cast<int>(sizeof(Bits)), K = split ? Policy::cols : Policy::rows, T = Policy::threads;
  constexpr int Records = T * (16 / E);
  static_assert(E == 1 || E == 2 || E == 4 || E == 8, "the rotated algorithms: 1- to 8-byte elements");
  static_assert(is_rotated_transpose(Policy::algorithm) && (split ? Policy::rows : Policy::cols) == Records,
                "the rotated algorithms: 16 bytes' worth of records a thread");
  static_assert(rotated_records_conflict_free(K, E),
                "the rotated algorithms: rotated_record_word must be conflict-free for K");
  static_assert(E < 4 || shifted_windows_conflict_free(K, E, T),
                "the rotated algorithms: the shifted windows must be conflict-free for K");
  __shared__ uint4 stage[K * T];
  const int matrix = static_cast<int>(blockIdx.x) / runs;
  const int run = static_cast<int>(blockIdx.x) - matrix * runs;
  const int first = (run == 0 ? runs - 1 : run - 1) * Records;  // the short last run first
  const int count = extent - first < Records ? extent - first : Records;
  const Bits* src = in + matrix * stride_in + (split ? static_cast<long long>(first) * K : first);
  Bits* dst = out + matrix * stride_out + (split ? first : static_cast<long long>(first) * K);
  if (count < Records) move_records_by_element<K>(src, dst, count, ld_channels, split, FixedThreadBlock<T>{});
  else if constexpr (split) {
    if (channels_aligned) split_block_rotated<K, T, true>(src, dst, ld_channels, stage);
    else split_block_rotated<K, T, false>(src, dst, ld_channels, stage);
  } else if constexpr (E >= 4) {
    if (channels_aligned) merge_block_rotated<K, T, true>(src, ld_channels, dst, stage);
    else merge_block_rotated<K, T, false>(src, ld_channels, dst, stage);
  } else {
    merge_block_rotated<K, T, true>(src, ld_channels, dst, stage);  // narrow_rotated_apply: aligned rows
  }
}

}  // namespace detail

#endif  // __CUDACC__

}  // namespace smemtile
