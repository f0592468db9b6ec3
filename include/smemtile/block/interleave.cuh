/// \file
/// Block-level de-interleave and interleave of runs of short records (k elements each, k small):
/// the regroup behind device_transpose's narrow-side and small-batch algorithms, public so that a
/// kernel can fuse it with its own work (e.g. HWC bytes to CHW float planes in one pass).
///
/// \code
///   __shared__ smemtile::RecordTile<unsigned char, 8192> tile;             // 8 KB
///   const int count = min(tile.max_records(3), pixels - first);            // records this block takes
///   smemtile::load_records(hwc + 3 * first, 3, count, 3, tile.data, block); // 16-byte loads
///   block.sync();
///   smemtile::store_channels(tile.data, count, 3, chw + first, pixels, block, ToFloat{});
/// \endcode
///
/// The shared layout is core/record_layout.cuh's: record r, element c at record_offset(r, c, pitch, E),
/// with which the strided side's 16-byte paths (each lane taking 16 bytes' worth of consecutive
/// records) are conflict-free (proved at compile time by the bank model). The contiguous side of global memory (a run of whole records,
/// or one channel's run) moves in 16-byte accesses on its 16-byte aligned interior and element by
/// element on the head and tail, whatever the pointer's alignment (elements must be aligned to
/// their size for the vector path; otherwise the whole run goes element by element: decided once
/// per call, not per element). No function here synchronizes the block: call block.sync() between
/// a load and a store of the same tile, and before reusing it.
#pragma once

#include "../config.cuh"                // SMEMTILE_DEVICE
#include "../core/record_layout.cuh"    // record_pitch, record_capacity, FastDivmod

namespace smemtile {

/// Shared storage for a run of records: Capacity elements of T, 16-byte aligned. Trivially
/// constructible (place it as `__shared__`, or carve Capacity elements from dynamic shared memory
/// and use the functions' pointer forms).
template <class T, int Capacity>
struct alignas(16) RecordTile {
  static_assert(Capacity > 0, "smemtile::RecordTile: a capacity of at least one element");
  static constexpr int capacity = Capacity;  ///< elements
  T data[Capacity];                          ///< the records, record_pitch(k, sizeof(T)) apart
  /// Records of k elements the tile holds (a multiple of 16 where at least 16 fit).
  SMEMTILE_HOST_DEVICE static constexpr int max_records(int k) {
    return record_capacity(Capacity, k, static_cast<int>(sizeof(T)));
  }
};

/// The identity conversion (store_channels' default).
struct NoConversion {
  /// v itself.
  template <class T>
  SMEMTILE_HOST_DEVICE constexpr T operator()(const T& v) const { return v; }
};

#if defined(__CUDACC__)

namespace detail {

template <class T>
inline constexpr int run_vector_elems = sizeof(T) < 16 ? static_cast<int>(16 / sizeof(T)) : 1;

// Whether runs at p, p + ld, ... (elements) can use 16-byte accesses on their interiors with the
// same head: elements aligned to their size and all runs with the same 16-byte phase.
template <class T>
SMEMTILE_DEVICE bool runs_vectorizable(const void* p, long long ld, int runs, int n) {
  constexpr int V = run_vector_elems<T>;
  const auto a = reinterpret_cast<unsigned long long>(p);
  return V > 1 && n >= 2 * V && a % sizeof(T) == 0 && (runs == 1 || (ld * static_cast<long long>(sizeof(T))) % 16 == 0);
}

// Elements before the first 16-byte boundary of a run starting at p (p aligned to sizeof(T)), at most n.
template <class T>
SMEMTILE_DEVICE int run_head(const void* p, int n) {
  const unsigned misalign = static_cast<unsigned>(reinterpret_cast<unsigned long long>(p) % 16u);
  const int head = static_cast<int>(((16u - misalign) % 16u) / sizeof(T));
  return head < n ? head : n;
}

}  // namespace detail

/// For each run c < runs and element t < n: dst[c * ld + t] = get(c, t), the block's threads
/// taking consecutive elements (16-byte stores on the runs' aligned interiors where
/// runs_vectorizable, else element stores). get(c, t) returns a U.
template <class U, class Get, class Block>
SMEMTILE_DEVICE void store_runs(U* dst, long long ld, int runs, int n, Get get, Block block) {
  constexpr int V = detail::run_vector_elems<U>;
  const unsigned threads = block.size();
  const unsigned total = static_cast<unsigned>(runs) * static_cast<unsigned>(n);
  if (detail::runs_vectorizable<U>(dst, ld, runs, n)) {
    const int head = detail::run_head<U>(dst, n);
    const int vectors = (n - head) / V;
    const int edge = n - vectors * V;  // head + tail elements of each run
    const FastDivmod by_vectors(static_cast<unsigned>(vectors));
    for (unsigned q = block.rank(); q < static_cast<unsigned>(runs) * static_cast<unsigned>(vectors); q += threads) {
      unsigned v = 0;
      const unsigned c = by_vectors.divmod(q, v);
      const int t0 = head + static_cast<int>(v) * V;
      alignas(16) U buffer[V];
#pragma unroll
      for (int e = 0; e < V; ++e) buffer[e] = get(static_cast<int>(c), t0 + e);
      *reinterpret_cast<uint4*>(dst + c * ld + t0) = *reinterpret_cast<const uint4*>(buffer);
    }
    if (edge == 0) return;
    const FastDivmod by_edge(static_cast<unsigned>(edge));
    for (unsigned q = block.rank(); q < static_cast<unsigned>(runs) * static_cast<unsigned>(edge); q += threads) {
      unsigned e = 0;
      const unsigned c = by_edge.divmod(q, e);
      const int t = static_cast<int>(e) < head ? static_cast<int>(e) : static_cast<int>(e) + vectors * V;
      dst[c * ld + t] = get(static_cast<int>(c), t);
    }
  } else {
    const FastDivmod by_n(static_cast<unsigned>(n));
    for (unsigned q = block.rank(); q < total; q += threads) {
      unsigned t = 0;
      const unsigned c = by_n.divmod(q, t);
      dst[c * ld + t] = get(static_cast<int>(c), static_cast<int>(t));
    }
  }
}

/// For each run c < runs and element t < n: put(c, t, src[c * ld + t]), the block's threads taking
/// consecutive elements (16-byte loads on the runs' aligned interiors where runs_vectorizable,
/// else element loads). Reads nothing outside the runs.
template <class T, class Put, class Block>
SMEMTILE_DEVICE void load_runs(const T* src, long long ld, int runs, int n, Put put, Block block) {
  constexpr int V = detail::run_vector_elems<T>;
  const unsigned threads = block.size();
  const unsigned total = static_cast<unsigned>(runs) * static_cast<unsigned>(n);
  if (detail::runs_vectorizable<T>(src, ld, runs, n)) {
    const int head = detail::run_head<T>(src, n);
    const int vectors = (n - head) / V;
    const int edge = n - vectors * V;
    const FastDivmod by_vectors(static_cast<unsigned>(vectors));
    for (unsigned q = block.rank(); q < static_cast<unsigned>(runs) * static_cast<unsigned>(vectors); q += threads) {
      unsigned v = 0;
      const unsigned c = by_vectors.divmod(q, v);
      const int t0 = head + static_cast<int>(v) * V;
      alignas(16) T buffer[V];
      *reinterpret_cast<uint4*>(buffer) = *reinterpret_cast<const uint4*>(src + c * ld + t0);
#pragma unroll
      for (int e = 0; e < V; ++e) put(static_cast<int>(c), t0 + e, buffer[e]);
    }
    if (edge == 0) return;
    const FastDivmod by_edge(static_cast<unsigned>(edge));
    for (unsigned q = block.rank(); q < static_cast<unsigned>(runs) * static_cast<unsigned>(edge); q += threads) {
      unsigned e = 0;
      const unsigned c = by_edge.divmod(q, e);
      const int t = static_cast<int>(e) < head ? static_cast<int>(e) : static_cast<int>(e) + vectors * V;
      put(static_cast<int>(c), t, src[c * ld + t]);
    }
  } else {
    const FastDivmod by_n(static_cast<unsigned>(n));
    for (unsigned q = block.rank(); q < total; q += threads) {
      unsigned t = 0;
      const unsigned c = by_n.divmod(q, t);
      put(static_cast<int>(c), static_cast<int>(t), src[c * ld + t]);
    }
  }
}

/// Loads `count` records of k elements (record r at src + r * pitch) into `tile` (shared memory,
/// at least count * record_pitch(k, sizeof(T)) elements). With pitch == k the records are one
/// contiguous run, read with 16-byte loads on its aligned interior. Does not synchronize.
template <class T, class Block>
SMEMTILE_DEVICE void load_records(const T* src, long long pitch, int count, int k, T* tile, Block block) {
  constexpr int E = static_cast<int>(sizeof(T));
  const int P = record_pitch(k, E);
  if (pitch == k) {
    const FastDivmod by_k(static_cast<unsigned>(k));
    load_runs(src, 0, 1, count * k, [&](int, int f, const T& v) {
      unsigned c = 0;
      const unsigned r = by_k.divmod(static_cast<unsigned>(f), c);
      tile[record_offset(static_cast<int>(r), static_cast<int>(c), P, E)] = v;
    }, block);
  } else {
    load_runs(src, pitch, count, k, [&](int r, int c, const T& v) { tile[record_offset(static_cast<int>(r), static_cast<int>(c), P, E)] = v; }, block);
  }
}

/// Stores `count` records of k elements from `tile` to dst (record r at dst + r * pitch): the
/// inverse of load_records. Does not synchronize.
template <class T, class Block>
SMEMTILE_DEVICE void store_records(const T* tile, int count, int k, T* dst, long long pitch, Block block) {
  constexpr int E = static_cast<int>(sizeof(T));
  const int P = record_pitch(k, E);
  if (pitch == k) {
    const FastDivmod by_k(static_cast<unsigned>(k));
    store_runs(dst, 0, 1, count * k, [&](int, int f) {
      unsigned c = 0;
      const unsigned r = by_k.divmod(static_cast<unsigned>(f), c);
      return tile[record_offset(static_cast<int>(r), static_cast<int>(c), P, E)];
    }, block);
  } else {
    store_runs(dst, pitch, count, k, [&](int r, int c) { return tile[record_offset(static_cast<int>(r), static_cast<int>(c), P, E)]; }, block);
  }
}

/// De-interleaves: element c of record r of `tile` (count records of k elements) goes, converted,
/// to dst[c * ld + r]; each channel's run of `count` outputs is written with 16-byte stores on its
/// aligned interior (where ld keeps the channels' runs in the same 16-byte phase). Reads the tile
/// down its columns, conflict-free. Does not synchronize.
template <class T, class U, class Block, class Convert = NoConversion>
SMEMTILE_DEVICE void store_channels(const T* tile, int count, int k, U* dst, long long ld, Block block,
                                    Convert convert = {}) {
  constexpr int E = static_cast<int>(sizeof(T));
  const int P = record_pitch(k, E);
  store_runs(dst, ld, k, count, [&](int c, int r) { return static_cast<U>(convert(tile[record_offset(r, c, P, E)])); }, block);
}

/// Interleaves: src[c * ld + r] (channel c < k, r < count) becomes element c of record r of `tile`;
/// each channel's run is read with 16-byte loads on its aligned interior. Does not synchronize.
template <class T, class Block>
SMEMTILE_DEVICE void load_channels(const T* src, long long ld, int count, int k, T* tile, Block block) {
  constexpr int E = static_cast<int>(sizeof(T));
  const int P = record_pitch(k, E);
  load_runs(src, ld, k, count, [&](int c, int r, const T& v) { tile[record_offset(static_cast<int>(r), static_cast<int>(c), P, E)] = v; }, block);
}

#endif  // __CUDACC__

}  // namespace smemtile
