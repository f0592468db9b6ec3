/// \file
/// Block-level moves of runs: `runs` runs of n elements, `ld` apart in global memory, each element
/// put to or got from a caller's function (a shared-memory layout, a conversion). The block's threads
/// take consecutive elements: 16 bytes at a time on each run's 16-byte aligned interior where every
/// run has the same 16-byte phase and the elements are aligned to their size (decided once per call),
/// element by element on the heads and tails and otherwise. The chunk forms build or take a 16-byte
/// chunk of G runs at once. Used by the record regroup (block/interleave.cuh) and device_transpose's
/// record algorithms; no function here synchronizes the block.
#pragma once

#include "../config.cuh"              // SMEMTILE_DEVICE
#include "../core/record_layout.cuh"  // FastDivmod

namespace smemtile {

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

// The heads and tails of runs_vectorizable runs (elements t < head and t >= head + vectors V of
// each run): dst[c * ld + t] = get(c, t).
template <int V, class U, class Get, class Block>
SMEMTILE_DEVICE void store_run_edges(U* dst, long long ld, int runs, int n, int head, int vectors, Get get, Block block) {
  const int edge = n - vectors * V;
  if (edge == 0) return;
  const FastDivmod by_edge(static_cast<unsigned>(edge));
  for (unsigned q = block.rank(); q < static_cast<unsigned>(runs) * static_cast<unsigned>(edge); q += block.size()) {
    unsigned e = 0;
    const unsigned c = by_edge.divmod(q, e);
    const int t = static_cast<int>(e) < head ? static_cast<int>(e) : static_cast<int>(e) + vectors * V;
    dst[c * ld + t] = get(static_cast<int>(c), t);
  }
}

// Runs that take no 16-byte accesses: dst[c * ld + t] = get(c, t) element by element.
template <class U, class Get, class Block>
SMEMTILE_DEVICE void store_run_elements(U* dst, long long ld, int runs, int n, Get get, Block block) {
  const FastDivmod by_n(static_cast<unsigned>(n));
  for (unsigned q = block.rank(); q < static_cast<unsigned>(runs) * static_cast<unsigned>(n); q += block.size()) {
    unsigned t = 0;
    const unsigned c = by_n.divmod(q, t);
    dst[c * ld + t] = get(static_cast<int>(c), static_cast<int>(t));
  }
}

// load_runs' counterparts of the two above: put(c, t, src[c * ld + t]).
template <int V, class T, class Put, class Block>
SMEMTILE_DEVICE void load_run_edges(const T* src, long long ld, int runs, int n, int head, int vectors, Put put, Block block) {
  const int edge = n - vectors * V;
  if (edge == 0) return;
  const FastDivmod by_edge(static_cast<unsigned>(edge));
  for (unsigned q = block.rank(); q < static_cast<unsigned>(runs) * static_cast<unsigned>(edge); q += block.size()) {
    unsigned e = 0;
    const unsigned c = by_edge.divmod(q, e);
    const int t = static_cast<int>(e) < head ? static_cast<int>(e) : static_cast<int>(e) + vectors * V;
    put(static_cast<int>(c), t, src[c * ld + t]);
  }
}
template <class T, class Put, class Block>
SMEMTILE_DEVICE void load_run_elements(const T* src, long long ld, int runs, int n, Put put, Block block) {
  const FastDivmod by_n(static_cast<unsigned>(n));
  for (unsigned q = block.rank(); q < static_cast<unsigned>(runs) * static_cast<unsigned>(n); q += block.size()) {
    unsigned t = 0;
    const unsigned c = by_n.divmod(q, t);
    put(static_cast<int>(c), static_cast<int>(t), src[c * ld + t]);
  }
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

/// store_runs by 16-byte chunks of G runs at once: where runs_vectorizable, each item (group g,
/// chunk start t0) gets the chunks of runs g G .. g G + G - 1 at t0 from get_chunks(g, t0, uint4
/// (&)[G]) and stores those of runs < runs; heads, tails and unvectorizable runs take get(c, t).
/// A chunk built whole (one division per item, words and byte permutes) is what keeps 1- and
/// 2-byte runs from costing an index computation and a shared access per element.
template <int G, class U, class GetChunks, class Get, class Block>
SMEMTILE_DEVICE void store_run_chunks(U* dst, long long ld, int runs, int n, GetChunks get_chunks, Get get, Block block) {
  constexpr int V = detail::run_vector_elems<U>;
  if (!detail::runs_vectorizable<U>(dst, ld, runs, n)) {
    detail::store_run_elements(dst, ld, runs, n, get, block);
    return;
  }
  const int head = detail::run_head<U>(dst, n);
  const int vectors = (n - head) / V;
  const unsigned groups = static_cast<unsigned>((runs + G - 1) / G);
  const FastDivmod by_vectors(static_cast<unsigned>(vectors));
  for (unsigned q = block.rank(); q < groups * static_cast<unsigned>(vectors); q += block.size()) {
    unsigned v = 0;
    const unsigned g = by_vectors.divmod(q, v);
    const int t0 = head + static_cast<int>(v) * V;
    uint4 chunk[G];
    get_chunks(static_cast<int>(g), t0, chunk);
#pragma unroll
    for (int i = 0; i < G; ++i)
      if (G == 1 || static_cast<int>(g) * G + i < runs)
        *reinterpret_cast<uint4*>(dst + (static_cast<long long>(g) * G + i) * ld + t0) = chunk[i];
  }
  detail::store_run_edges<V>(dst, ld, runs, n, head, vectors, get, block);
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

/// load_runs by 16-byte chunks of G runs at once (store_run_chunks' inverse): put_chunks(g, t0,
/// const uint4 (&)[G]) takes the chunks of runs g G .. g G + G - 1 at t0 (zero past the last run);
/// heads, tails and unvectorizable runs go to put(c, t, value). Reads nothing outside the runs.
template <int G, class T, class PutChunks, class Put, class Block>
SMEMTILE_DEVICE void load_run_chunks(const T* src, long long ld, int runs, int n, PutChunks put_chunks, Put put, Block block) {
  constexpr int V = detail::run_vector_elems<T>;
  if (!detail::runs_vectorizable<T>(src, ld, runs, n)) {
    detail::load_run_elements(src, ld, runs, n, put, block);
    return;
  }
  const int head = detail::run_head<T>(src, n);
  const int vectors = (n - head) / V;
  const unsigned groups = static_cast<unsigned>((runs + G - 1) / G);
  const FastDivmod by_vectors(static_cast<unsigned>(vectors));
  for (unsigned q = block.rank(); q < groups * static_cast<unsigned>(vectors); q += block.size()) {
    unsigned v = 0;
    const unsigned g = by_vectors.divmod(q, v);
    const int t0 = head + static_cast<int>(v) * V;
    uint4 chunk[G];
#pragma unroll
    for (int i = 0; i < G; ++i)
      chunk[i] = G == 1 || static_cast<int>(g) * G + i < runs
                     ? *reinterpret_cast<const uint4*>(src + (static_cast<long long>(g) * G + i) * ld + t0)
                     : uint4{0u, 0u, 0u, 0u};
    put_chunks(static_cast<int>(g), t0, static_cast<const uint4(&)[G]>(chunk));
  }
  detail::load_run_edges<V>(src, ld, runs, n, head, vectors, put, block);
}

#endif  // __CUDACC__

}  // namespace smemtile
