/// \file
/// The staged layout of a run of whole small matrices (a batch, rows x cols each, contiguous) that
/// is transposed in square register tiles: device_transpose's small_batch_registers algorithm and
/// the block-level helpers of block/batch_tiles.cuh.
///
/// A block stages its run of matrices flat, in units of 16 bytes (8 for 1-byte elements): input
/// row i of the run is `a` units (a = cols / T for tiles of T x T elements, T = unit bytes /
/// element bytes). A thread takes one T x T tile: T units, one per input row, down a column, which
/// it transposes in registers into T units of the output rows; the transposed run is staged the same
/// way (b = rows / T units per output row) and leaves flat. Unit v of a stage sits at slot
/// batch_stage_slot(v): v with its bank bits XORed by a function of the rows it lies in, so that the
/// flat 16-byte accesses (each lane a consecutive chunk) and the tiles' column accesses (each lane a
/// consecutive tile) reach distinct banks. batch_stage_costs() measures both with the bank model;
/// every shape whose rows and cols are powers of two is conflict-free for 2- to 8-byte elements
/// (1-byte elements, in 8-byte units: 2-way on the tile side where an input or output row is one
/// unit, 8 columns or 8 rows), and the XOR is a bijection on every 128-byte group of units whatever
/// the shape.
#pragma once

#include "../config.cuh"       // SMEMTILE_HOST_DEVICE
#include "banks.cuh"           // WarpAccess, bank_cost
#include "record_layout.cuh"   // FastDivmod

namespace smemtile {

/// Bytes of one staged unit (one tile row) for elements of elem_bytes: 16, or 8 for 1-byte
/// elements (8 x 8 byte tiles: 16 x 16 would be 64 registers of tile per thread).
SMEMTILE_HOST_DEVICE constexpr int batch_unit_bytes(int elem_bytes) { return elem_bytes == 1 ? 8 : 16; }

/// The side T of a register tile (T x T elements): 8 for 1- and 2-byte elements, 4 for 4-byte ones,
/// 2 for 8-byte ones.
SMEMTILE_HOST_DEVICE constexpr int batch_tile_side(int elem_bytes) { return batch_unit_bytes(elem_bytes) / elem_bytes; }

/// Where unit v (unit_bytes each) of a stage sits: v with its bank bits (the bits below 128 bytes,
/// whole 16-byte chunks kept) XORed by `mult` x (the first unit of v's 128-byte group / `span`), the
/// span being a row block's units (T rows) or 128 bytes' worth where a row block is smaller. A
/// bijection within each 128-byte group.
SMEMTILE_HOST_DEVICE constexpr int batch_stage_slot(int v, const FastDivmod& by_span, int mult, int unit_bytes) {
  const int group = 128 / unit_bytes;                 // units per 128 bytes: 8 or 16
  const int mask = unit_bytes == 16 ? 7 : 14;         // 8-byte units move in pairs (whole chunks)
  const int first = v & ~(group - 1);                 // the 128-byte group's first unit
  return v ^ ((static_cast<int>(by_span.div(static_cast<unsigned>(first))) * mult) & mask);
}

/// The shape of a batch of rows x cols matrices of ElemBytes-byte elements (rows and cols multiples
/// of batch_tile_side) for the register tiles, with its divisions prepared (on the host, once per
/// call).
template <int ElemBytes>
struct BatchTileGeometry {
  static constexpr int elem_bytes = ElemBytes;                     ///< bytes per element
  static constexpr int unit_bytes = batch_unit_bytes(ElemBytes);   ///< bytes per unit (tile row)
  static constexpr int side = batch_tile_side(ElemBytes);          ///< T: tiles of T x T elements
  int rows;                ///< rows of each input matrix
  int cols;                ///< cols of each input matrix
  FastDivmod by_a;         ///< tiles across an input row: a = cols / T (units per input row)
  FastDivmod by_b;         ///< tiles across an output row: b = rows / T (units per output row)
  FastDivmod by_in_span;   ///< the input stage's XOR span: T input rows (cols units), at least 128 bytes
  FastDivmod by_out_span;  ///< the output stage's: T output rows (rows units), at least 128 bytes
  int out_mult;            ///< the output stage's XOR multiplier
  /// Tiles of one matrix.
  SMEMTILE_HOST_DEVICE constexpr int tiles_per_matrix() const {
    return static_cast<int>(by_a.divisor * by_b.divisor);
  }
  /// 16-byte chunks of one matrix.
  SMEMTILE_HOST_DEVICE constexpr int matrix_chunks() const { return rows * cols * ElemBytes / 16; }
  /// Input unit of row k of tile tj of row block beta (T input rows): what the tile's thread reads.
  SMEMTILE_HOST_DEVICE constexpr int tile_in_unit(int beta, int tj, int k) const {
    return (beta * side + k) * static_cast<int>(by_a.divisor) + tj;
  }
  /// Output unit of row c of the transpose of matrix m's tile (ti, tj) (row block ti, tile tj along
  /// the input rows): what the tile's thread writes.
  SMEMTILE_HOST_DEVICE constexpr int tile_out_unit(int m, int ti, int tj, int c) const {
    return ((m * static_cast<int>(by_a.divisor) + tj) * side + c) * static_cast<int>(by_b.divisor) + ti;
  }
  /// Slot of input unit v: the tiles' column access has lanes a tile apart along the row, then a
  /// row block apart, so a row block's XOR steps by a (over its units' bank bits).
  SMEMTILE_HOST_DEVICE constexpr int in_slot(int v) const {
    return batch_stage_slot(v, by_in_span, static_cast<int>(by_a.divisor), unit_bytes);
  }
  /// Slot of output unit v: lanes a row block apart first (one per input column tile), then a unit
  /// apart along the output row: the XOR steps by out_mult, past the units the lanes take along it.
  SMEMTILE_HOST_DEVICE constexpr int out_slot(int v) const {
    return batch_stage_slot(v, by_out_span, out_mult, unit_bytes);
  }
};

/// Whether rows x cols matrices of elem_bytes take register tiles: elements of 1 to 8 bytes, rows
/// and cols positive multiples of batch_tile_side.
SMEMTILE_HOST_DEVICE constexpr bool batch_tiles_fit(long long rows, long long cols, int elem_bytes) {
  if (elem_bytes != 1 && elem_bytes != 2 && elem_bytes != 4 && elem_bytes != 8) return false;
  const int t = batch_tile_side(elem_bytes);
  return rows > 0 && cols > 0 && rows % t == 0 && cols % t == 0;
}

/// The geometry of rows x cols matrices of ElemBytes-byte elements (batch_tiles_fit must hold).
template <int ElemBytes>
SMEMTILE_HOST_DEVICE constexpr BatchTileGeometry<ElemBytes> batch_tile_geometry(int rows, int cols) {
  constexpr int unit = batch_unit_bytes(ElemBytes), t = batch_tile_side(ElemBytes);
  const int a = cols / t, b = rows / t, group = 128 / unit;
  const int along = group / a < b ? group / a : b;  // units along an output row that one phase's lanes take
  return BatchTileGeometry<ElemBytes>{rows,
                                      cols,
                                      FastDivmod(static_cast<unsigned>(a)),
                                      FastDivmod(static_cast<unsigned>(b)),
                                      FastDivmod(static_cast<unsigned>(cols > group ? cols : group)),
                                      FastDivmod(static_cast<unsigned>(rows > group ? rows : group)),
                                      along > 1 ? along : 1};
}

/// The bank model's cost of a block's four accesses to its staged matrices, summed over every
/// warp (conflicts == 0: conflict-free).
struct BatchStageCosts {
  BankCost flat_in;    ///< lane l writes input chunk l (cp.async, 16 bytes)
  BankCost tile_in;    ///< lane l reads row k of tile l (a unit)
  BankCost tile_out;   ///< lane l writes row k of tile l's transpose (a unit)
  BankCost flat_out;   ///< lane l reads output chunk l (16 bytes)
};

/// The four accesses' cost for `matrices` matrices of geometry g.
template <int ElemBytes>
SMEMTILE_HOST_DEVICE constexpr BatchStageCosts batch_stage_costs(const BatchTileGeometry<ElemBytes>& g, int matrices) {
  BatchStageCosts c{};
  constexpr int per_chunk = 16 / BatchTileGeometry<ElemBytes>::unit_bytes;
  const int chunks = matrices * g.matrix_chunks();
  for (int q0 = 0; q0 < chunks; q0 += warp_lanes) {
    WarpAccess in{{}, 0u, 16, AccessOp::store}, out{{}, 0u, 16, AccessOp::load};
    for (int lane = 0; lane < warp_lanes && q0 + lane < chunks; ++lane) {
      in.byte_address[lane] = static_cast<unsigned>(g.in_slot((q0 + lane) * per_chunk) * g.unit_bytes);
      out.byte_address[lane] = static_cast<unsigned>(g.out_slot((q0 + lane) * per_chunk) * g.unit_bytes);
      in.active_mask |= 1u << lane;
    }
    out.active_mask = in.active_mask;
    c.flat_in = c.flat_in + bank_cost(in);
    c.flat_out = c.flat_out + bank_cost(out);
  }
  const int a = static_cast<int>(g.by_a.divisor), b = static_cast<int>(g.by_b.divisor);
  const int tiles = matrices * a * b;
  for (int s0 = 0; s0 < tiles; s0 += warp_lanes)
    for (int k = 0; k < g.side; ++k) {
      WarpAccess in{{}, 0u, g.unit_bytes, AccessOp::load}, out{{}, 0u, g.unit_bytes, AccessOp::store};
      for (int lane = 0; lane < warp_lanes && s0 + lane < tiles; ++lane) {
        const int s = s0 + lane, beta = s / a, tj = s % a, m = beta / b, ti = beta % b;
        in.byte_address[lane] = static_cast<unsigned>(g.in_slot(g.tile_in_unit(beta, tj, k)) * g.unit_bytes);
        out.byte_address[lane] = static_cast<unsigned>(g.out_slot(g.tile_out_unit(m, ti, tj, k)) * g.unit_bytes);
        in.active_mask |= 1u << lane;
      }
      out.active_mask = in.active_mask;
      c.tile_in = c.tile_in + bank_cost(in);
      c.tile_out = c.tile_out + bank_cost(out);
    }
  return c;
}

/// Whether batch_stage_costs finds all four accesses conflict-free.
template <int ElemBytes>
SMEMTILE_HOST_DEVICE constexpr bool batch_stage_conflict_free(const BatchTileGeometry<ElemBytes>& g, int matrices) {
  const BatchStageCosts c = batch_stage_costs(g, matrices);
  return c.flat_in.conflicts == 0 && c.tile_in.conflicts == 0 && c.tile_out.conflicts == 0 && c.flat_out.conflicts == 0;
}

// One power-of-two shape per element size at compile time (the host tests take every shape); in the
// host pass only: FastDivmod's device path (__umulhi) is not constexpr.
#if !defined(__CUDA_ARCH__)
static_assert(batch_stage_conflict_free(batch_tile_geometry<1>(16, 32), 4) &&
                  batch_stage_conflict_free(batch_tile_geometry<2>(32, 16), 4) &&
                  batch_stage_conflict_free(batch_tile_geometry<4>(8, 16), 8) &&
                  batch_stage_conflict_free(batch_tile_geometry<8>(16, 4), 8),
              "batch layout: the staged small matrices' flat and tile accesses must reach distinct banks; change "
              "batch_stage_slot or the XOR multipliers of batch_tile_geometry");
#endif

}  // namespace smemtile
