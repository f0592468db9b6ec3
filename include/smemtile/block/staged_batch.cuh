/// \file
/// Block-level transposes of a run of whole small matrices of any shape and alignment: the run is
/// staged flat in shared memory with its 16-byte phase kept (every whole 16-byte chunk by one
/// cp.async, all in flight at once), and its transpose leaves as one flat run of output pieces
/// gathered from the stage (core/transposed_run.cuh). What device_transpose's small_batch_staged
/// algorithm is built of, public so that a kernel can fuse it with its own work.
///
/// \code
///   __shared__ uint4 stage[32768 / 16 + 1];                  // a run of up to 32 KB, any phase
///   const smemtile::TransposedRunGeometry g(33, 31);         // on the host, passed in
///   const float* staged = smemtile::stage_run_async(in, count * g.matrix(), stage, block);
///   smemtile::async_copy_commit();
///   smemtile::async_copy_wait_all();
///   block.sync();
///   smemtile::store_transposed_run<16>(staged, count, g, out, block);  // 16-byte pieces
/// \endcode
///
/// No function here synchronizes the block.
#pragma once

#include "../config.cuh"               // SMEMTILE_DEVICE
#include "../core/transposed_run.cuh"  // TransposedRunGeometry, TransposedRunCursor
#include "../core/vector_type.cuh"     // detail::VectorOf
#include "record_registers.cuh"        // stage_chunk_async

namespace smemtile {

/// Bytes of shared memory stage_run_async needs for a run of `run_bytes`: the run and its phase.
SMEMTILE_HOST_DEVICE constexpr int staged_run_bytes(int run_bytes) { return (run_bytes + 15) / 16 * 16 + 16; }

#if defined(__CUDACC__)

namespace detail {

// The widest word an element of T can be moved in on its own alignment (at most 8 bytes).
template <class T>
using StagedWord = typename VectorOf<(alignof(T) < 8 ? static_cast<int>(alignof(T)) : 8)>::type;

// The part of 16-byte chunk q inside stage bytes [begin, end), copied in words of T's alignment:
// read through the read-only path (__ldg, an LDG: a plain dereference of a pointer the compiler
// cannot place compiles to a generic LD), stored to the shared window (STS).
template <class T>
SMEMTILE_DEVICE void stage_partial_chunk(const unsigned char* chunks, unsigned char* stage, int q, int begin, int end) {
  using Word = StagedWord<T>;
  const int from = q * 16 > begin ? q * 16 : begin;
  const int to = q * 16 + 16 < end ? q * 16 + 16 : end;
  for (int b = from; b < to; b += static_cast<int>(sizeof(Word)))
    *reinterpret_cast<Word*>(stage + b) = __ldg(reinterpret_cast<const Word*>(chunks + b));
}

}  // namespace detail

/// Starts copying the flat run src[0, n) into `stage` (shared memory, 16-byte aligned,
/// staged_run_bytes(n sizeof(T)) bytes) keeping its 16-byte phase: element k lands at byte
/// (src's offset in its 16-byte chunk) + k sizeof(T). Each whole 16-byte chunk inside the run moves
/// by one cp.async, consecutive lanes on consecutive chunks; the at most two partial chunks at the
/// ends move in words of T's alignment, reading nothing outside the run. Returns the staged run.
/// Complete it with async_copy_commit, async_copy_wait_all and block.sync().
template <class T, class Block>
SMEMTILE_DEVICE const T* stage_run_async(const T* src, int n, uint4* stage, Block block) {
  const auto address = reinterpret_cast<unsigned long long>(src);
  const int begin = static_cast<int>(address % 16);
  const int end = begin + n * static_cast<int>(sizeof(T));
  const auto* chunks = reinterpret_cast<const unsigned char*>(address - static_cast<unsigned long long>(begin));
  const int total = (end + 15) / 16;
  for (int q = static_cast<int>(block.rank()); q < total; q += static_cast<int>(block.size())) {
    if (q * 16 >= begin && q * 16 + 16 <= end)
      stage_chunk_async(&stage[q], reinterpret_cast<const uint4*>(chunks) + q);
    else
      detail::stage_partial_chunk<T>(chunks, reinterpret_cast<unsigned char*>(stage), q, begin, end);
  }
  return reinterpret_cast<const T*>(reinterpret_cast<const unsigned char*>(stage) + begin);
}

namespace detail {

// Pieces 0 .. pieces - 1 of the block's output, every block.size()-th from rank: piece q is output
// elements head + q P .. + P - 1, gathered with TransposedRunPiece (OneWrap: rows >= P) or
// TransposedRunCursor.
template <int PieceBytes, bool OneWrap, class T, class Block>
SMEMTILE_DEVICE void store_transposed_pieces(const T* staged, const TransposedRunGeometry& g, T* dst, int head,
                                             int pieces, Block block) {
  constexpr int P = PieceBytes / static_cast<int>(sizeof(T));
  for (int q = static_cast<int>(block.rank()); q < pieces; q += static_cast<int>(block.size())) {
    const int o = head + q * P;
    alignas(PieceBytes) T piece[P];
    if constexpr (OneWrap) {
      const TransposedRunPiece at(g, o);
      const T* before = staged + at.first;  // the column the piece starts in
      const T* after = before + at.delta;   // the one it wraps into
#pragma unroll
      for (int e = 0; e < P; ++e) piece[e] = (e >= at.wrap ? after : before)[e * g.cols];
    } else {
      TransposedRunCursor at(g, o);
#pragma unroll
      for (int e = 0; e < P; ++e, at.next()) piece[e] = staged[at.source];
    }
    using Piece = typename VectorOf<PieceBytes>::type;
    *reinterpret_cast<Piece*>(dst + o) = *reinterpret_cast<const Piece*>(piece);
  }
}

}  // namespace detail

/// Stores the transpose of `count` matrices of g's shape staged one after another at `staged`
/// (shared memory) to dst as one flat run (matrix m's transpose at dst + m g.matrix()). Each thread
/// builds PieceBytes-byte pieces of the output (consecutive lanes on consecutive pieces; a division
/// pair per piece, then an add and a select per element where a piece crosses at most one input
/// column's end, rows >= its elements) and stores each with one access; the run's ends that are not
/// whole pieces move element by element. dst must be aligned to sizeof(T).
template <int PieceBytes, class T, class Block>
SMEMTILE_DEVICE void store_transposed_run(const T* staged, int count, const TransposedRunGeometry& g, T* dst,
                                          Block block) {
  constexpr int E = static_cast<int>(sizeof(T)), P = PieceBytes / E;
  static_assert(PieceBytes == 4 || PieceBytes == 8 || PieceBytes == 16,
                "smemtile::store_transposed_run: pieces of 4, 8 or 16 bytes");
  static_assert(PieceBytes % E == 0, "smemtile::store_transposed_run: pieces of whole elements");
  const int n = count * g.matrix();
  const auto address = reinterpret_cast<unsigned long long>(dst);
  const int ahead = static_cast<int>((PieceBytes - address % PieceBytes) % PieceBytes) / E;
  const int head = ahead < n ? ahead : n;
  const int pieces = (n - head) / P;
  if (g.rows >= P)
    detail::store_transposed_pieces<PieceBytes, true>(staged, g, dst, head, pieces, block);
  else
    detail::store_transposed_pieces<PieceBytes, false>(staged, g, dst, head, pieces, block);
  const int edge = n - pieces * P;  // head and tail elements
  for (int e = static_cast<int>(block.rank()); e < edge; e += static_cast<int>(block.size())) {
    const int o = e < head ? e : e + pieces * P;
    dst[o] = staged[g.source(o)];
  }
}

#endif  // __CUDACC__

}  // namespace smemtile
