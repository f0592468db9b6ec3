/// \file
/// Block-level transposes of a run of whole small matrices (a batch of rows x cols matrices, one
/// after another), staged in shared memory and transposed in square register tiles: what
/// device_transpose's small_batch_registers algorithm is built of, public so that a kernel can fuse
/// it with its own work (convert or scale the tiles in registers, say).
///
/// \code
///   __shared__ uint4 stage[32768 / 16];                   // 32 KB: staged input, then output
///   const auto g = smemtile::batch_tile_geometry<1>(16, 16);  // on the host, passed in
///   smemtile::stage_matrix_batch_async(in, count, g, stage, block);  // cp.async, 16 bytes a lane
///   smemtile::async_copy_commit();
///   smemtile::async_copy_wait_all();
///   block.sync();
///   smemtile::BatchTiles<unsigned char, 32768, 256> tiles;
///   smemtile::read_batch_tiles(stage, count, g, tiles, block);     // T x T tiles, transposed
///   block.sync();
///   smemtile::write_batch_tiles(tiles, count, g, stage, block);
///   block.sync();
///   smemtile::store_matrix_batch(stage, count, g, out, block);     // 16-byte stores
/// \endcode
///
/// The layout is core/batch_layout.cuh's. Global memory moves only as whole 16-byte chunks, each
/// lane a consecutive one: the run's pointers must be 16-byte aligned (a matrix is a whole number of
/// chunks when rows and cols are multiples of the tile side). Each shared access moves a whole tile
/// row (8 or 16 bytes), not an element: for bytes a quarter of the accesses of moving 4-byte words,
/// a sixteenth of moving bytes. No function here synchronizes the block.
#pragma once

#include "../config.cuh"             // SMEMTILE_DEVICE
#include "../core/batch_layout.cuh"  // BatchTileGeometry, batch_tile_side, batch_unit_bytes
#include "interleave.cuh"            // detail::transpose_words
#include "record_registers.cuh"      // stage_chunk_async, store_chunk

namespace smemtile {

/// The geometry of a batch of matrices of T.
template <class T>
using BatchTileGeometryOf = BatchTileGeometry<static_cast<int>(sizeof(T))>;

/// The transposed tiles one thread holds between read_batch_tiles and write_batch_tiles, for a stage
/// of StageBytes and blocks of Threads threads: `items` tiles of T x T elements of T (T rows of
/// `words` 4-byte words), tile u being the block's tile u Threads + rank.
template <class T, int StageBytes, int Threads>
struct BatchTiles {
  static constexpr int elem_bytes = static_cast<int>(sizeof(T));  ///< bytes per element
  static constexpr int side = batch_tile_side(elem_bytes);         ///< T: the tile is side x side
  static constexpr int words = batch_unit_bytes(elem_bytes) / 4;   ///< 4-byte words per tile row
  static constexpr int tiles = StageBytes / (side * batch_unit_bytes(elem_bytes));  ///< tiles a full stage holds
  static constexpr int items = (tiles + Threads - 1) / Threads;  ///< tiles per thread, at most
  static_assert(elem_bytes == 1 || elem_bytes == 2 || elem_bytes == 4 || elem_bytes == 8,
                "smemtile::BatchTiles: elements of 1, 2, 4 or 8 bytes");
  static_assert(StageBytes % 128 == 0, "smemtile::BatchTiles: a stage of whole 128-byte groups (the swizzle's unit)");
  unsigned w[items][side][words];  ///< tile u, row c (output row c of the tile), word
};

#if defined(__CUDACC__)

namespace detail {

// Transposes a T x T tile of E-byte elements held as T rows of W words: row c of `out`, element k =
// row k of `in`, element c. Bytes and halves by 4 x 4 / 2 x 2 blocks of byte permutes, wider
// elements by renaming registers.
template <int E, int T, int W>
SMEMTILE_DEVICE void transpose_tile_registers(const unsigned (&in)[T][W], unsigned (&out)[T][W]) {
  if constexpr (E <= 2) {
    constexpr int L = 4 / E;  // elements per word: blocks of L x L
#pragma unroll
    for (int bi = 0; bi < W; ++bi)
#pragma unroll
      for (int bj = 0; bj < W; ++bj) {
        unsigned block[L];
#pragma unroll
        for (int r = 0; r < L; ++r) block[r] = in[bi * L + r][bj];
        transpose_words<E>(block);
#pragma unroll
        for (int r = 0; r < L; ++r) out[bj * L + r][bi] = block[r];
      }
  } else {
    constexpr int V = E / 4;  // words per element
#pragma unroll
    for (int c = 0; c < T; ++c)
#pragma unroll
      for (int k = 0; k < T; ++k)
#pragma unroll
        for (int h = 0; h < V; ++h) out[c][k * V + h] = in[k][c * V + h];
  }
}

// One staged unit (W words at unit slot `slot` of `stage`) into registers, and back.
template <int W>
SMEMTILE_DEVICE void load_unit(const uint4* stage, int slot, unsigned (&w)[W]) {
  if constexpr (W == 4) {
    const uint4 v = stage[slot];
    w[0] = v.x, w[1] = v.y, w[2] = v.z, w[3] = v.w;
  } else {
    const uint2 v = reinterpret_cast<const uint2*>(stage)[slot];
    w[0] = v.x, w[1] = v.y;
  }
}
template <int W>
SMEMTILE_DEVICE void store_unit(uint4* stage, int slot, const unsigned (&w)[W]) {
  if constexpr (W == 4) stage[slot] = uint4{w[0], w[1], w[2], w[3]};
  else reinterpret_cast<uint2*>(stage)[slot] = uint2{w[0], w[1]};
}

}  // namespace detail

/// Starts copying `count` whole matrices (a flat run at src, 16-byte aligned; matrix_chunks() chunks
/// each) into `stage` in g's input layout, one cp.async of 16 bytes per chunk, consecutive lanes on
/// consecutive chunks. Complete it with async_copy_commit, async_copy_wait_all and block.sync().
template <class T, class Block>
SMEMTILE_DEVICE void stage_matrix_batch_async(const T* src, int count, const BatchTileGeometryOf<T>& g, uint4* stage,
                                              Block block) {
  constexpr int per_chunk = 16 / batch_unit_bytes(static_cast<int>(sizeof(T)));
  const int chunks = count * g.matrix_chunks();
  const uint4* flat = reinterpret_cast<const uint4*>(src);
  for (int q = static_cast<int>(block.rank()); q < chunks; q += static_cast<int>(block.size()))
    stage_chunk_async(&stage[g.in_slot(q * per_chunk) / per_chunk], flat + q);
}

/// Reads this thread's tiles of the `count` matrices staged in g's input layout and transposes each
/// in registers (tiles.w[u][c]: output row c of tile u Threads + rank). Lanes take consecutive tiles
/// along the input rows, each reading its T rows.
template <class T, int StageBytes, int Threads, class Block>
SMEMTILE_DEVICE void read_batch_tiles(const uint4* stage, int count, const BatchTileGeometryOf<T>& g,
                                      BatchTiles<T, StageBytes, Threads>& tiles, Block block) {
  using Tiles = BatchTiles<T, StageBytes, Threads>;
  constexpr int S = Tiles::side, W = Tiles::words;
  const int total = count * g.tiles_per_matrix();
#pragma unroll
  for (int u = 0; u < Tiles::items; ++u) {
    const int s = u * Threads + static_cast<int>(block.rank());
    if (s >= total) break;
    unsigned tj = 0;
    const int beta = static_cast<int>(g.by_a.divmod(static_cast<unsigned>(s), tj));  // row block
    unsigned rows[S][W];
#pragma unroll
    for (int k = 0; k < S; ++k)
      detail::load_unit<W>(stage, g.in_slot(g.tile_in_unit(beta, static_cast<int>(tj), k)), rows[k]);
    detail::transpose_tile_registers<Tiles::elem_bytes, S, W>(rows, tiles.w[u]);
  }
}

/// Writes the tiles read_batch_tiles transposed into `stage` in g's output layout (call block.sync()
/// between the two when the stage is the same).
template <class T, int StageBytes, int Threads, class Block>
SMEMTILE_DEVICE void write_batch_tiles(const BatchTiles<T, StageBytes, Threads>& tiles, int count,
                                       const BatchTileGeometryOf<T>& g, uint4* stage, Block block) {
  using Tiles = BatchTiles<T, StageBytes, Threads>;
  constexpr int S = Tiles::side, W = Tiles::words;
  const int total = count * g.tiles_per_matrix();
#pragma unroll
  for (int u = 0; u < Tiles::items; ++u) {
    const int s = u * Threads + static_cast<int>(block.rank());
    if (s >= total) break;
    unsigned tj = 0, ti = 0;
    const unsigned beta = g.by_a.divmod(static_cast<unsigned>(s), tj);
    const int m = static_cast<int>(g.by_b.divmod(beta, ti));
#pragma unroll
    for (int c = 0; c < S; ++c)
      detail::store_unit<W>(stage, g.out_slot(g.tile_out_unit(m, static_cast<int>(ti), static_cast<int>(tj), c)),
                            tiles.w[u][c]);
  }
}

/// Stores the `count` transposed matrices staged in g's output layout to dst (a flat run, 16-byte
/// aligned): one 16-byte store per chunk, consecutive lanes on consecutive chunks.
template <class T, class Block>
SMEMTILE_DEVICE void store_matrix_batch(const uint4* stage, int count, const BatchTileGeometryOf<T>& g, T* dst,
                                        Block block) {
  constexpr int per_chunk = 16 / batch_unit_bytes(static_cast<int>(sizeof(T)));
  const int chunks = count * g.matrix_chunks();
  uint4* flat = reinterpret_cast<uint4*>(dst);
  for (int q = static_cast<int>(block.rank()); q < chunks; q += static_cast<int>(block.size()))
    store_chunk(flat + q, stage[g.out_slot(q * per_chunk) / per_chunk]);
}

#endif  // __CUDACC__

}  // namespace smemtile
