/// \file
/// device_transpose's narrow register kernels (narrow_rows_registers: N x K -> K x N, records to
/// channels; narrow_cols_registers: K x N -> N x K), K a compile-time extent up to
/// transpose_register_narrow_max. A block takes a run of records: the flat side (the records, one
/// contiguous run) moves through shared memory in coalesced 16-byte chunks (record_chunk_slot's
/// conflict-free staging), each thread regroups 16 bytes' worth of records in registers
/// (split_records / merge_records), and the channel side moves straight between registers and
/// global memory, 16 bytes per thread and channel, consecutive threads on consecutive records.
/// The selector sends only calls whose both sides are 16-byte aligned here; a run's last block,
/// shorter than a full one, moves element by element.
#pragma once

#include "../../arch/cp_async.cuh"          // cp_async, cp_async_commit_group, cp_async_wait_all
#include "../../arch/global_store.cuh"      // store_global_16
#include "../../block/record_registers.cuh" // split_records, merge_records
#include "../../block/thread_group.cuh"     // FixedThreadBlock
#include "../../core/record_layout.cuh"     // record_chunk_slot, record_chunk_slots
#include "../tuning/transpose_policy.cuh"   // TransposeAlgorithm, TransposePolicy

namespace smemtile {

#if defined(__CUDACC__)

namespace detail {

// The compile-time shape of a narrow register policy for elements of E bytes.
template <class Policy, int E>
struct NarrowRegisterShape {
  static constexpr bool split = Policy::algorithm == TransposeAlgorithm::narrow_rows_registers;
  static constexpr int k = split ? Policy::cols : Policy::rows;        // elements per record
  static constexpr int records = split ? Policy::rows : Policy::cols;  // records per block
  static constexpr int per_chunk = 16 / E;                             // records per thread and item
  static constexpr int items = records / (Policy::threads * per_chunk);
  static constexpr int chunks = records * k / per_chunk;  // 16-byte chunks of the flat side
  static constexpr int slots = record_chunk_slots(chunks, k);
  static_assert(E <= 8, "narrow register policies: elements of 1 to 8 bytes (16-byte ones move as records already)");
  static_assert(k >= 1 && k <= transpose_register_narrow_max,
                "narrow register policies: the narrow extent (Cols of narrow_rows_registers, Rows of "
                "narrow_cols_registers) must be 1..transpose_register_narrow_max");
  static_assert(records % (Policy::threads * per_chunk) == 0,
                "narrow register policies: records per block (Rows of narrow_rows_registers, Cols of "
                "narrow_cols_registers) must be a multiple of threads x 16 / element bytes");
  static_assert(slots * 16 <= 48 * 1024, "narrow register policies: the staged records must fit 48 KB; fewer records");
};

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

template <class Policy, class Bits>
__global__ void __launch_bounds__(Policy::threads, Policy::min_blocks)
    transpose_narrow_registers_kernel(const Bits* in, Bits* out, int extent, int ld_in, int ld_out,
                                      long long stride_in, long long stride_out, int runs) {
  constexpr int E = static_cast<int>(sizeof(Bits));
  using Shape = NarrowRegisterShape<Policy, E>;
  constexpr int K = Shape::k, V = Shape::per_chunk, T = Policy::threads;
  __shared__ uint4 stage[Shape::slots];
  const FixedThreadBlock<T> block{};
  const int matrix = static_cast<int>(blockIdx.x) / runs;
  const int first = (static_cast<int>(blockIdx.x) - matrix * runs) * Shape::records;
  const int count = extent - first < Shape::records ? extent - first : Shape::records;
  const Bits* src = in + matrix * stride_in + (Shape::split ? static_cast<long long>(first) * K : first);
  Bits* dst = out + matrix * stride_out + (Shape::split ? first : static_cast<long long>(first) * K);
  const long long ld_channels = Shape::split ? ld_out : ld_in;
  if (count < Shape::records) {
    move_records_by_element<K>(src, dst, count, ld_channels, Shape::split, block);
    return;
  }
  const int t = static_cast<int>(threadIdx.x);
  if constexpr (Shape::split) {
    const uint4* flat = reinterpret_cast<const uint4*>(src);
#pragma unroll
    for (int j = 0; j < Shape::chunks / T; ++j) {
      const int q = j * T + t;
      arch::cp_async<16>(&stage[record_chunk_slot(q, K)], flat + q);
    }
    arch::cp_async_commit_group();
    arch::cp_async_wait_all();
    __syncthreads();
#pragma unroll
    for (int u = 0; u < Shape::items; ++u) {
      const int s = u * T + t;  // the thread's segment: records s V .. s V + V - 1
      uint4 records[K], channels[K];
#pragma unroll
      for (int i = 0; i < K; ++i) records[i] = stage[record_chunk_slot(s * K + i, K)];
      split_records<Bits, K>(records, channels);
#pragma unroll
      for (int c = 0; c < K; ++c) arch::store_global_16(dst + c * ld_channels + s * V, channels[c]);
    }
  } else {
#pragma unroll
    for (int u = 0; u < Shape::items; ++u) {
      const int s = u * T + t;
      uint4 channels[K], records[K];
#pragma unroll
      for (int c = 0; c < K; ++c) channels[c] = *reinterpret_cast<const uint4*>(src + c * ld_channels + s * V);
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
}

}  // namespace detail

#endif  // __CUDACC__

}  // namespace smemtile
