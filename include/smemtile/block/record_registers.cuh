/// \file
/// Thread-level regroup of short records in registers: one thread holds 16 bytes' worth of records
/// (V = 16 / sizeof(T) records of K elements, K 16-byte chunks) and splits them into K channel
/// chunks (chunk c: element c of each of the V records), or merges K channel chunks back into
/// records. No shared memory and no index arithmetic at run time: every move is a register rename
/// (4- to 8-byte elements) or a byte permute (1- and 2-byte elements), fixed at compile time.
/// device_transpose's narrow register algorithms are built on it; a kernel can fuse it with its
/// own work (e.g. split RGB bytes and convert them to float planes).
///
/// \code
///   uint4 pixels[3];                                      // 16 RGB pixels, 48 bytes
///   ...load them (16-byte aligned)...
///   uint4 planes[3];
///   smemtile::split_records<unsigned char, 3>(pixels, planes);  // planes[0]: the 16 R bytes, ...
/// \endcode
#pragma once

#include "../arch/cp_async.cuh"      // cp_async (staging a chunk)
#include "../arch/global_store.cuh"  // store_global_16
#include "../config.cuh"             // SMEMTILE_DEVICE

namespace smemtile {

#if defined(__CUDACC__)

namespace detail {

// Word w of a 16-byte chunk array, and the reverse.
template <int K>
SMEMTILE_DEVICE void chunks_to_words(const uint4 (&c)[K], unsigned (&w)[4 * K]) {
#pragma unroll
  for (int i = 0; i < K; ++i) {
    w[4 * i] = c[i].x;
    w[4 * i + 1] = c[i].y;
    w[4 * i + 2] = c[i].z;
    w[4 * i + 3] = c[i].w;
  }
}
template <int K>
SMEMTILE_DEVICE void words_to_chunks(const unsigned (&w)[4 * K], uint4 (&c)[K]) {
#pragma unroll
  for (int i = 0; i < K; ++i) c[i] = uint4{w[4 * i], w[4 * i + 1], w[4 * i + 2], w[4 * i + 3]};
}

// A word of E-byte elements (E = 1 or 2) gathered from elements `at(j)` (compile-time after
// unrolling) of the words `in`: one byte permute where they lie in one word or two neighbouring
// ones, else two permutes of pairs and one to join them.
template <int E, int N, class At>
SMEMTILE_DEVICE unsigned gather_word(const unsigned (&in)[N], At at) {
  if constexpr (E == 2) {
    const int a = at(0), b = at(1);
    const unsigned sel = static_cast<unsigned>((2 * (a & 1)) | ((2 * (a & 1) + 1) << 4) | ((4 + 2 * (b & 1)) << 8) |
                                               ((5 + 2 * (b & 1)) << 12));
    return __byte_perm(in[a >> 1], in[b >> 1], sel);
  } else {
    const int i0 = at(0), i1 = at(1), i2 = at(2), i3 = at(3);
    const int lo_word = min(min(i0, i1), min(i2, i3)) >> 2, hi_word = max(max(i0, i1), max(i2, i3)) >> 2;
    if (hi_word - lo_word <= 1) {
      const int base = 4 * lo_word;
      const unsigned sel = static_cast<unsigned>((i0 - base) | ((i1 - base) << 4) | ((i2 - base) << 8) | ((i3 - base) << 12));
      return __byte_perm(in[lo_word], in[hi_word], sel);
    }
    const unsigned lo = __byte_perm(in[i0 >> 2], in[i1 >> 2], static_cast<unsigned>((i0 & 3) | ((4 + (i1 & 3)) << 4)));
    const unsigned hi =
        __byte_perm(in[i2 >> 2], in[i3 >> 2], static_cast<unsigned>(((i2 & 3) << 8) | ((4 + (i3 & 3)) << 12)));
    return __byte_perm(lo, hi, 0x7610u);
  }
}

// out element o = in element source(o), for the 16 K bytes of K chunks of E-byte elements.
template <int E, int K, class Source>
SMEMTILE_DEVICE void permute_elements(const uint4 (&in)[K], uint4 (&out)[K], Source source) {
  unsigned a[4 * K], b[4 * K];
  chunks_to_words<K>(in, a);
  if constexpr (E >= 4) {
    constexpr int W = E / 4;  // words per element
#pragma unroll
    for (int o = 0; o < 4 * K / W; ++o)
#pragma unroll
      for (int h = 0; h < W; ++h) b[o * W + h] = a[source(o) * W + h];
  } else {
    constexpr int L = 4 / E;  // elements per word
#pragma unroll
    for (int w = 0; w < 4 * K; ++w) b[w] = gather_word<E>(a, [&](int j) { return source(w * L + j); });
  }
  words_to_chunks<K>(b, out);
}

// What split_records and merge_records take: elements of 1, 2, 4 or 8 bytes, records of K >= 1.
template <class T, int K>
struct RecordRegroup {
  static constexpr int E = static_cast<int>(sizeof(T));  // element bytes
  static constexpr int V = 16 / E;                       // records per 16 bytes
  static_assert(E == 1 || E == 2 || E == 4 || E == 8,
                "smemtile::split_records / merge_records: elements of 1, 2, 4 or 8 bytes");
  static_assert(K >= 1, "smemtile::split_records / merge_records: records of at least one element");
};

}  // namespace detail

/// Splits the V = 16 / sizeof(T) records of K elements held in `records` (record r, element c at
/// element r K + c of the K chunks) into K channel chunks: element r of channels[c] is element c of
/// record r. T: 1, 2, 4 or 8 bytes.
template <class T, int K>
SMEMTILE_DEVICE void split_records(const uint4 (&records)[K], uint4 (&channels)[K]) {
  using R = detail::RecordRegroup<T, K>;
  detail::permute_elements<R::E, K>(records, channels, [](int o) { return o % R::V * K + o / R::V; });
}

/// Merges K channel chunks (element r of channels[c] is element c of record r) into the V =
/// 16 / sizeof(T) records of K elements they hold (record r, element c at element r K + c of
/// `records`): split_records' inverse.
template <class T, int K>
SMEMTILE_DEVICE void merge_records(const uint4 (&channels)[K], uint4 (&records)[K]) {
  using R = detail::RecordRegroup<T, K>;
  detail::permute_elements<R::E, K>(channels, records, [](int f) { return f % K * R::V + f / K; });
}

/// Starts copying one 16-byte chunk (both addresses 16-byte aligned) from global memory to shared
/// memory: cp.async on sm_80 and later, a plain copy before; complete it with async_copy_commit and
/// async_copy_wait / async_copy_wait_all. How a run of records is staged for the regroup above.
/// L2Prefetch (64, 128 or 256) asks L2 to fetch that many bytes around the chunk (arch::cp_async):
/// for chunks whose neighbours other warps or blocks read soon.
template <int L2Prefetch = 0>
SMEMTILE_DEVICE void stage_chunk_async(uint4* shared_dst, const uint4* global_src) {
  arch::cp_async<16, L2Prefetch>(shared_dst, global_src);
}

/// Stores a chunk built in registers (by split_records, say) to 16-byte aligned global memory as one
/// 16-byte store, whichever registers its words sit in (arch::store_global_16).
SMEMTILE_DEVICE void store_chunk(void* global_dst, const uint4& chunk) { arch::store_global_16(global_dst, chunk); }

#endif  // __CUDACC__

}  // namespace smemtile
