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
/// or one channel's run) moves as block/runs.cuh's runs: 16-byte accesses on its 16-byte aligned
/// interior, element by element on the head and tail, whatever the pointer's alignment. No function here synchronizes the block: call block.sync() between
/// a load and a store of the same tile, and before reusing it.
#pragma once

#include "../config.cuh"                // SMEMTILE_DEVICE
#include <type_traits>  // std::is_same

#include "../core/record_layout.cuh"    // record_pitch, record_capacity, FastDivmod
#include "runs.cuh"                     // load_runs, store_runs, load_run_chunks, store_run_chunks

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

// Transposes L x L elements of E bytes (L = 4 / E) held in L words: element e of word i becomes
// element i of word e (its own inverse). Byte permutes, no shared-memory round trip.
template <int E>
SMEMTILE_DEVICE void transpose_words(unsigned (&w)[4 / E]) {
  if constexpr (E == 1) {
    const unsigned lo01 = __byte_perm(w[0], w[1], 0x5140), hi01 = __byte_perm(w[0], w[1], 0x7362);
    const unsigned lo23 = __byte_perm(w[2], w[3], 0x5140), hi23 = __byte_perm(w[2], w[3], 0x7362);
    w[0] = __byte_perm(lo01, lo23, 0x5410);
    w[1] = __byte_perm(lo01, lo23, 0x7632);
    w[2] = __byte_perm(hi01, hi23, 0x5410);
    w[3] = __byte_perm(hi01, hi23, 0x7632);
  } else if constexpr (E == 2) {
    const unsigned lo = __byte_perm(w[0], w[1], 0x5410), hi = __byte_perm(w[0], w[1], 0x7632);
    w[0] = lo;
    w[1] = hi;
  }
}

// Word b (a constant after unrolling) of a 16-byte chunk.
SMEMTILE_DEVICE unsigned chunk_word(const uint4& v, int b) { return b == 0 ? v.x : b == 1 ? v.y : b == 2 ? v.z : v.w; }

// Walks a record layout (k elements of E bytes, pitch P) in flat order f = r k + c from f0: one
// division at the start, then an add and a compare per element, so that a 16-byte chunk of a
// contiguous run of records costs no division per element.
template <int E>
struct RecordCursor {
  static constexpr int V = record_skew_group(E);      // records per skew step (0: no skew)
  static constexpr int unit = E >= 4 ? 1 : 4 / E;     // elements of one skew step
  int offset;  // record_offset(r, c, P, E)
  int c;       // element of the record
  int group;   // r % V
  int k;       // elements per record
  int step;    // from past a record's last element to the next record's first: P - k
  SMEMTILE_DEVICE RecordCursor(unsigned f0, const FastDivmod& by_k, int P) : k(static_cast<int>(by_k.divisor)), step(P - k) {
    unsigned rem = 0;
    const int r = static_cast<int>(by_k.divmod(f0, rem));
    c = static_cast<int>(rem);
    group = V != 0 ? r % V : 0;
    offset = record_offset(r, c, P, E);
  }
  SMEMTILE_DEVICE void next() {
    ++offset;
    if (++c == k) {
      c = 0;
      offset += step;
      if constexpr (V != 0) {
        if (++group == V) {
          group = 0;
          offset += unit;  // the skew step
        }
      }
    }
  }
};

}  // namespace detail

/// Loads `count` records of k elements (record r at src + r * pitch) into `tile` (shared memory,
/// at least count * record_pitch(k, sizeof(T)) elements). With pitch == k the records are one
/// contiguous run, read with 16-byte loads on its aligned interior. Does not synchronize.
template <class T, class Block>
SMEMTILE_DEVICE void load_records(const T* src, long long pitch, int count, int k, T* tile, Block block) {
  constexpr int E = static_cast<int>(sizeof(T));
  const int P = record_pitch(k, E);
  if (pitch == k) {
    const FastDivmod by_k(static_cast<unsigned>(k));
    auto put = [&](int, int f, const T& v) {
      unsigned c = 0;
      const unsigned r = by_k.divmod(static_cast<unsigned>(f), c);
      tile[record_offset(static_cast<int>(r), static_cast<int>(c), P, E)] = v;
    };
    if constexpr (E <= 4) {  // a chunk's elements walked from one division
      load_run_chunks<1>(src, 0, 1, count * k, [&](int, int f0, const uint4 (&chunk)[1]) {
        alignas(16) T buffer[16 / E];
        *reinterpret_cast<uint4*>(buffer) = chunk[0];
        detail::RecordCursor<E> at(static_cast<unsigned>(f0), by_k, P);
#pragma unroll
        for (int e = 0; e < 16 / E; ++e, at.next()) tile[at.offset] = buffer[e];
      }, put, block);
    } else {
      load_runs(src, 0, 1, count * k, put, block);
    }
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
    auto get = [&](int, int f) {
      unsigned c = 0;
      const unsigned r = by_k.divmod(static_cast<unsigned>(f), c);
      return tile[record_offset(static_cast<int>(r), static_cast<int>(c), P, E)];
    };
    if constexpr (E <= 4) {
      store_run_chunks<1>(dst, 0, 1, count * k, [&](int, int f0, uint4 (&chunk)[1]) {
        alignas(16) T buffer[16 / E];
        detail::RecordCursor<E> at(static_cast<unsigned>(f0), by_k, P);
#pragma unroll
        for (int e = 0; e < 16 / E; ++e, at.next()) buffer[e] = tile[at.offset];
        chunk[0] = *reinterpret_cast<const uint4*>(buffer);
      }, get, block);
    } else {
      store_runs(dst, 0, 1, count * k, get, block);
    }
  } else {
    store_runs(dst, pitch, count, k, [&](int r, int c) { return tile[record_offset(static_cast<int>(r), static_cast<int>(c), P, E)]; }, block);
  }
}

namespace detail {

// store_channels for T of 1, 2 or 4 bytes, unconverted: one item is L = 4 / E channels (one word
// of each record) by V = 16 / E records; it reads V words (conflict-free: lanes are V records
// apart, record_layout_conflict_free), transposes them in registers and writes L 16-byte chunks.
template <class T, class Block>
SMEMTILE_DEVICE void store_channel_words(const T* tile, int count, int k, T* dst, long long ld, Block block) {
  constexpr int E = static_cast<int>(sizeof(T)), L = 4 / E, V = 16 / E;
  const int P = record_pitch(k, E), pw = P / L;  // words per record
  const unsigned* words = reinterpret_cast<const unsigned*>(tile);
  store_run_chunks<L>(dst, ld, k, count, [&](int g, int t0, uint4 (&chunk)[L]) {
    const unsigned* w0 = words + t0 * pw + t0 / V + g;  // word g of record t0
    const int wrap = V - t0 % V;                         // records from t0 to the next skew word
    unsigned out[L][4];
#pragma unroll
    for (int b = 0; b < 4; ++b) {  // word b of each chunk: records t0 + b L .. t0 + b L + L - 1
      unsigned w[L];
#pragma unroll
      for (int i = 0; i < L; ++i) w[i] = w0[(b * L + i) * pw + (b * L + i >= wrap)];
      transpose_words<E>(w);
#pragma unroll
      for (int i = 0; i < L; ++i) out[i][b] = w[i];
    }
#pragma unroll
    for (int i = 0; i < L; ++i) chunk[i] = uint4{out[i][0], out[i][1], out[i][2], out[i][3]};
  }, [&](int c, int r) { return tile[record_offset(r, c, P, E)]; }, block);
}

// load_channels for T of 1, 2 or 4 bytes: the inverse of store_channel_words (channels past k
// land in the records' padding).
template <class T, class Block>
SMEMTILE_DEVICE void load_channel_words(const T* src, long long ld, int count, int k, T* tile, Block block) {
  constexpr int E = static_cast<int>(sizeof(T)), L = 4 / E, V = 16 / E;
  const int P = record_pitch(k, E), pw = P / L;
  unsigned* words = reinterpret_cast<unsigned*>(tile);
  load_run_chunks<L>(src, ld, k, count, [&](int g, int t0, const uint4 (&chunk)[L]) {
    unsigned* w0 = words + t0 * pw + t0 / V + g;
    const int wrap = V - t0 % V;
#pragma unroll
    for (int b = 0; b < 4; ++b) {
      unsigned w[L];
#pragma unroll
      for (int i = 0; i < L; ++i) w[i] = chunk_word(chunk[i], b);
      transpose_words<E>(w);
#pragma unroll
      for (int i = 0; i < L; ++i) w0[(b * L + i) * pw + (b * L + i >= wrap)] = w[i];
    }
  }, [&](int c, int r, const T& v) { tile[record_offset(r, c, P, E)] = v; }, block);
}

}  // namespace detail

/// De-interleaves: element c of record r of `tile` (count records of k elements) goes, converted,
/// to dst[c * ld + r]; each channel's run of `count` outputs is written with 16-byte stores on its
/// aligned interior (where ld keeps the channels' runs in the same 16-byte phase). Reads the tile
/// down its columns, conflict-free. Does not synchronize.
template <class T, class U, class Block, class Convert = NoConversion>
SMEMTILE_DEVICE void store_channels(const T* tile, int count, int k, U* dst, long long ld, Block block,
                                    Convert convert = {}) {
  constexpr int E = static_cast<int>(sizeof(T));
  if constexpr (E <= 4 && std::is_same<T, U>::value && std::is_same<Convert, NoConversion>::value) {
    detail::store_channel_words(tile, count, k, dst, ld, block);
  } else {
    const int P = record_pitch(k, E);
    store_runs(dst, ld, k, count, [&](int c, int r) { return static_cast<U>(convert(tile[record_offset(r, c, P, E)])); }, block);
  }
}

/// Interleaves: src[c * ld + r] (channel c < k, r < count) becomes element c of record r of `tile`;
/// each channel's run is read with 16-byte loads on its aligned interior. Does not synchronize.
template <class T, class Block>
SMEMTILE_DEVICE void load_channels(const T* src, long long ld, int count, int k, T* tile, Block block) {
  constexpr int E = static_cast<int>(sizeof(T));
  if constexpr (E <= 4) {
    detail::load_channel_words(src, ld, count, k, tile, block);
  } else {
    const int P = record_pitch(k, E);
    load_runs(src, ld, k, count, [&](int c, int r, const T& v) { tile[record_offset(static_cast<int>(r), static_cast<int>(c), P, E)] = v; }, block);
  }
}

#endif  // __CUDACC__

}  // namespace smemtile
