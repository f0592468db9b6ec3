/// \file
/// Warp-level pieces for data whose 16-byte phase is not the one it must have: reading words of a
/// row staged at any byte offset, 16 bytes from any offset of two chunks, and turning a warp's
/// consecutive 16-byte pieces of one row into the aligned 16-byte chunks of that row. What device_transpose's realigned_rows algorithm is built of
/// (core/realigned_layout.cuh), public so that a kernel can fuse them with its own work.
///
/// \code
///   unsigned words[2];
///   smemtile::load_shifted_words(staged_row, phase + 8 * warp, words);  // 8 bytes from any offset
///   ...
///   const int d = smemtile::bytes_to_chunk_boundary(address_of_lane0_piece);
///   const uint4 chunk = smemtile::chunk_from_next_lane(piece, d);       // every lane, same d
///   if (lane < 31) smemtile::store_chunk(lane0_piece + d + 16 * lane, chunk);
/// \endcode
#pragma once

#include <type_traits>  // std::integral_constant

#include "../config.cuh"                // SMEMTILE_DEVICE
#include "../core/realigned_layout.cuh"  // bytes_to_chunk_boundary, chunk_prefix_piece, chunk_suffix_piece
#include "../core/vector_type.cuh"       // detail::VectorOf

namespace smemtile {

#if defined(__CUDACC__)

/// Words 4-byte words holding bytes [offset, offset + 4 Words) of `row` (shared memory, 8-byte
/// aligned; readable up to the 8-byte boundary after those bytes): Words / 2 + 1 8-byte loads and a
/// funnel shift per word. Lanes sharing offset % 8 share the shift (no divergence either way).
template <int Words>
SMEMTILE_DEVICE void load_shifted_words(const unsigned char* row, int offset, unsigned (&words)[Words]) {
  static_assert(Words >= 2 && Words % 2 == 0, "smemtile::load_shifted_words: an even number of words");
  const uint2* aligned = reinterpret_cast<const uint2*>(row + (offset & ~7));
  unsigned loaded[Words + 2];
#pragma unroll
  for (int m = 0; m <= Words / 2; ++m) {
    const uint2 pair = aligned[m];
    loaded[2 * m] = pair.x;
    loaded[2 * m + 1] = pair.y;
  }
  const bool high = (offset & 4) != 0;
  const int shift = 8 * (offset & 3);
#pragma unroll
  for (int m = 0; m < Words; ++m)
    words[m] = __funnelshift_r(high ? loaded[m + 1] : loaded[m], high ? loaded[m + 2] : loaded[m + 1], shift);
}

/// Bytes [start, start + 16) of the 32 bytes lo || hi (start in 0..15), by funnel shifts. Lanes
/// sharing `start` share the switch's case (no divergence where it is warp-uniform).
SMEMTILE_DEVICE uint4 bytes_across(const uint4& lo, const uint4& hi, int start) {
  const unsigned w[8] = {lo.x, lo.y, lo.z, lo.w, hi.x, hi.y, hi.z, hi.w};
  const unsigned shift = 8u * static_cast<unsigned>(start & 3);
  const auto from = [&](auto j) {
    constexpr int J = decltype(j)::value;
    return uint4{__funnelshift_r(w[J], w[J + 1], shift), __funnelshift_r(w[J + 1], w[J + 2], shift),
                 __funnelshift_r(w[J + 2], w[J + 3], shift), __funnelshift_r(w[J + 3], w[J + 4], shift)};
  };
  switch (start >> 2) {
    case 0: return from(std::integral_constant<int, 0>{});
    case 1: return from(std::integral_constant<int, 1>{});
    case 2: return from(std::integral_constant<int, 2>{});
    default: return from(std::integral_constant<int, 3>{});
  }
}

/// bytes_across by selects instead of a switch: branch-free, so that unrolled code calling it with
/// a different `start` each time (rows at their own phases) keeps its loads hoisted and overlapped.
SMEMTILE_DEVICE uint4 bytes_across_selected(const uint4& lo, const uint4& hi, int start) {
  const unsigned w[8] = {lo.x, lo.y, lo.z, lo.w, hi.x, hi.y, hi.z, hi.w};
  const bool one = (start & 4) != 0, two = (start & 8) != 0;  // start / 4 = 2 two + one words
  unsigned by_one[7], by_words[5];
#pragma unroll
  for (int j = 0; j < 7; ++j) by_one[j] = one ? w[j + 1] : w[j];
#pragma unroll
  for (int j = 0; j < 5; ++j) by_words[j] = two ? by_one[j + 2] : by_one[j];
  const unsigned shift = 8u * static_cast<unsigned>(start & 3);
  return uint4{__funnelshift_r(by_words[0], by_words[1], shift), __funnelshift_r(by_words[1], by_words[2], shift),
               __funnelshift_r(by_words[2], by_words[3], shift), __funnelshift_r(by_words[3], by_words[4], shift)};
}

/// The 16 bytes that start `d` (0..15) bytes into this lane's 16 bytes `own`: own's bytes d..15,
/// then the next lane's bytes 0..d-1 (lane 31's are undefined). When the 32 lanes hold consecutive
/// pieces of a row and the row's first aligned chunk starts d bytes into lane 0's piece, each lane
/// gets one aligned chunk of the row. Every lane of the warp must call it, with the same d.
SMEMTILE_DEVICE uint4 chunk_from_next_lane(const unsigned (&own)[4], int d) {
  const uint4 mine = make_uint4(own[0], own[1], own[2], own[3]);
  const uint4 next = make_uint4(__shfl_down_sync(0xffffffffu, own[0], 1), __shfl_down_sync(0xffffffffu, own[1], 1),
                                __shfl_down_sync(0xffffffffu, own[2], 1), __shfl_down_sync(0xffffffffu, own[3], 1));
  return bytes_across(mine, next, d);
}

/// The chunk ending `d` (0..15) bytes into this lane's 16 bytes `own`: its last d bytes are own's
/// first d (the rest zero). Where an output row starts d bytes before its first chunk boundary, the
/// lane holding the row's first bytes stores them with store_chunk_suffix(row + d - 16, chunk_before(own, d), d).
SMEMTILE_DEVICE uint4 chunk_before(const unsigned (&own)[4], int d) {
  return bytes_across(make_uint4(0u, 0u, 0u, 0u), make_uint4(own[0], own[1], own[2], own[3]), d);
}

/// Bytes [offset, offset + Size) of `value` (Size 8, 4, 2 or 1; offset in 0..15, a multiple of
/// Size) stored at chunk + offset with one aligned store (`chunk`: a 16-byte aligned chunk of
/// global or shared memory); nothing else written. The pieces store_chunk_prefix and
/// store_chunk_suffix are made of.
template <int Size>
SMEMTILE_DEVICE void store_chunk_piece(unsigned char* chunk, const uint4& value, int offset) {
  const unsigned long long half = offset < 8 ? (static_cast<unsigned long long>(value.y) << 32 | value.x)
                                             : (static_cast<unsigned long long>(value.w) << 32 | value.z);
  const unsigned long long bits = half >> (8 * (offset & 7));
  if constexpr (Size == 8) {
    *reinterpret_cast<unsigned long long*>(chunk + offset) = bits;
  } else {
    using Word = typename detail::VectorOf<Size>::type;
    *reinterpret_cast<Word*>(chunk + offset) = static_cast<Word>(bits);
  }
}

/// Bytes [0, n) (n < 16) of `value` stored to the 16-byte aligned chunk at `chunk` (global or shared
/// memory) in at most four aligned stores (8, 4, 2, 1 bytes: the bits of n); nothing else written.
SMEMTILE_DEVICE void store_chunk_prefix(unsigned char* chunk, const uint4& value, int n) {
  if (n & 8) store_chunk_piece<8>(chunk, value, chunk_prefix_piece(n, 8));
  if (n & 4) store_chunk_piece<4>(chunk, value, chunk_prefix_piece(n, 4));
  if (n & 2) store_chunk_piece<2>(chunk, value, chunk_prefix_piece(n, 2));
  if (n & 1) store_chunk_piece<1>(chunk, value, chunk_prefix_piece(n, 1));
}

/// Bytes [16 - n, 16) (n < 16) of `value` stored to the aligned chunk at `chunk` the same way.
SMEMTILE_DEVICE void store_chunk_suffix(unsigned char* chunk, const uint4& value, int n) {
  if (n & 8) store_chunk_piece<8>(chunk, value, chunk_suffix_piece(n, 8));
  if (n & 4) store_chunk_piece<4>(chunk, value, chunk_suffix_piece(n, 4));
  if (n & 2) store_chunk_piece<2>(chunk, value, chunk_suffix_piece(n, 2));
  if (n & 1) store_chunk_piece<1>(chunk, value, chunk_suffix_piece(n, 1));
}

#endif  // __CUDACC__

}  // namespace smemtile
