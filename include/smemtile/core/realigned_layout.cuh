/// \file
/// The geometry of a realigned-rows transpose tile (TransposeAlgorithm::realigned_rows), for rows
/// that start anywhere in a 16-byte chunk (odd pitches of 1- and 2-byte elements).
///
/// A tile is `stage_rows` input rows by `cols` columns. Each input row is staged as the aligned
/// 16-byte chunks that cover it, at its own phase within the first chunk, so every global load is
/// one aligned 16-byte chunk. Lane l of warp w reads columns 8w .. 8w + 7 of the `lane_rows` rows
/// l * lane_rows .. + lane_rows - 1: after a register transpose it holds, for each of its 8
/// columns, the 16 bytes of that output row behind those input rows. A warp's 32 lanes hold 512
/// consecutive bytes of each of its output rows; an output row's 16-byte phase is the same for every
/// lane, so each lane completes its chunk with the next lane's leading bytes and stores one aligned
/// 16-byte chunk. The last lane has no next lane: a tile writes `owned_rows` (31 lanes' worth) and the
/// next tile down starts there, re-reading the last lane's rows.
#pragma once

#include "../config.cuh"  // SMEMTILE_HOST_DEVICE
#include "banks.cuh"      // WarpAccess, bank_cost, BankCost

namespace smemtile {

/// Rows a warp stages per pass for rows of `chunks` chunks (a lane per chunk, whole rows per warp),
/// lowered until a pass of `warps` warps is a whole number of `lane_rows` groups (so each lane keeps
/// one row within its group from pass to pass); 0 when no count works.
SMEMTILE_HOST_DEVICE constexpr int realigned_rows_per_pass(int chunks, int warps, int lane_rows) {
  for (int rows = 32 / chunks; rows > 0; --rows)
    if ((warps * rows) % lane_rows == 0) return rows;
  return 0;
}

/// The tile of a realigned-rows transpose of ElemBytes-byte elements by Warps warps.
template <int ElemBytes, int Warps>
struct RealignedRowsShape {
  static_assert(ElemBytes == 1 || ElemBytes == 2 || ElemBytes == 4,
                "smemtile::RealignedRowsShape: elements of 1, 2 or 4 bytes");
  static_assert(Warps >= 1 && Warps <= 32, "smemtile::RealignedRowsShape: 1 to 32 warps");
  static constexpr int elem_bytes = ElemBytes;       ///< bytes per element
  static constexpr int lane_rows = 16 / ElemBytes;   ///< input rows behind one lane's 16-byte output chunk
  static constexpr int stage_rows = 32 * lane_rows;  ///< rows staged: one output chunk per lane
  static constexpr int owned_rows = 31 * lane_rows;  ///< rows a tile writes (the last lane only completes the one before)
  static constexpr int cols = 8 * Warps;             ///< tile columns: 8 per warp, one output row each
  static constexpr int lane_bytes = 8 * ElemBytes;   ///< bytes of a row one lane reads
  static constexpr int lane_words = lane_bytes / 4;  ///< the same in 4-byte words
  static constexpr int chunks = cols * ElemBytes / 16 + 1;  ///< aligned 16-byte chunks covering a tile row at any phase
  /// Bytes per staged row: an odd number of 16-byte granules, so that the 32 lanes reading row i of
  /// their groups (32 consecutive staged rows) spread over the 8 granule positions of the banks.
  static constexpr int row_bytes = (chunks | 1) * 16;
  static constexpr int stage_bytes = stage_rows * row_bytes;  ///< shared memory of one tile
  static constexpr int threads = 32 * Warps;                  ///< threads per block
  static constexpr int rows_per_pass = realigned_rows_per_pass(chunks, Warps, lane_rows);  ///< rows a warp stages per pass
  static constexpr int pass_rows = Warps * rows_per_pass;     ///< rows the block stages per pass
  static constexpr int passes = rows_per_pass > 0 ? (stage_rows + pass_rows - 1) / pass_rows : 0;  ///< passes per tile
  static_assert(chunks <= 32, "smemtile::RealignedRowsShape: a tile row's chunks must fit one warp's lanes; fewer warps");
  static_assert(rows_per_pass > 0, "smemtile::RealignedRowsShape: no number of rows per pass keeps the lanes' row "
                                   "groups; use a power-of-two number of warps");

  /// Where input row r of the tile is staged: the lane_rows rows of one lane are 32 staged rows
  /// apart, so the 32 lanes reading their i-th rows read 32 consecutive staged rows.
  SMEMTILE_HOST_DEVICE static constexpr int stage_row(int r) { return (r % lane_rows) * 32 + r / lane_rows; }
};

/// The bank cost (core/banks.cuh) of reading one staged tile back: each warp's lane_rows steps of
/// lane_words / 2 + 1 8-byte loads, its 32 lanes on 32 consecutive staged rows at one offset (the
/// cost is the same at every offset and step). Odd granules per row spread the lanes over 8 of the
/// banks' 16-byte positions: two lanes of a half-warp share each, a 2-way conflict.
template <class Shape>
SMEMTILE_HOST_DEVICE constexpr BankCost realigned_read_cost() {
  WarpAccess access{};
  access.active_mask = ~0u;
  access.width_bytes = 8;
  access.op = AccessOp::load;
  for (int lane = 0; lane < warp_lanes; ++lane) access.byte_address[lane] = static_cast<unsigned>(lane * Shape::row_bytes);
  const BankCost one = bank_cost(access);
  const int loads = Shape::threads / warp_lanes * Shape::lane_rows * (Shape::lane_words / 2 + 1);
  return BankCost{one.wavefronts * loads, one.ideal_wavefronts * loads, one.conflicts * loads, loads};
}

/// The bank cost of staging one tile: every chunk of every row by a 16-byte write, lane (row,
/// chunk) of each warp and pass as the kernel assigns them (the chunks a tile's phase skips counted
/// too: an upper bound).
template <class Shape>
SMEMTILE_HOST_DEVICE constexpr BankCost realigned_stage_cost() {
  BankCost total{0, 0, 0, 0};
  for (int warp = 0; warp < Shape::threads / warp_lanes; ++warp)
    for (int pass = 0; pass < Shape::passes; ++pass) {
      WarpAccess access{};
      access.width_bytes = 16;
      access.op = AccessOp::store;
      for (int lane = 0; lane < warp_lanes; ++lane) {
        const int rr = lane / Shape::chunks, k = lane % Shape::chunks;
        const int r = warp * Shape::rows_per_pass + rr + pass * Shape::pass_rows;
        if (rr >= Shape::rows_per_pass || r >= Shape::stage_rows) continue;
        access.byte_address[lane] = static_cast<unsigned>(Shape::stage_row(r) * Shape::row_bytes + 16 * k);
        access.active_mask |= 1u << lane;
      }
      total = total + bank_cost(access);
    }
  return total;
}

/// Where the piece of `size` bytes (8, 4, 2 or 1) of bytes [0, n) of a 16-byte chunk starts, for the
/// sizes whose bit is set in n (at most four pieces, each aligned to its size, together [0, n)).
SMEMTILE_HOST_DEVICE constexpr int chunk_prefix_piece(int n, int size) { return n & ~(2 * size - 1); }

/// The same for bytes [16 - n, 16): the piece of `size` bytes starts here where n has its bit set.
SMEMTILE_HOST_DEVICE constexpr int chunk_suffix_piece(int n, int size) { return 16 - (n & ~(size - 1)); }

/// Bytes from `address` to the next 16-byte boundary (0 when aligned): where an output row's first
/// aligned chunk starts within a lane's 16 bytes.
SMEMTILE_HOST_DEVICE constexpr int bytes_to_chunk_boundary(unsigned long long address) {
  return static_cast<int>((16 - (address & 15)) & 15);
}

/// The first row, counted from the tile's, of the aligned output chunk lane `lane` stores, where the
/// output row's first chunk boundary lies d bytes into lane 0's piece (d a multiple of elem_bytes).
/// Lanes 0..30 of a tile and the next tile's cover consecutive rows; the first tile down also
/// stores rows [0, d / elem_bytes) from lane 0's own piece.
SMEMTILE_HOST_DEVICE constexpr int realigned_chunk_row(int d, int lane, int elem_bytes) {
  return (d + 16 * lane) / elem_bytes;
}

}  // namespace smemtile
