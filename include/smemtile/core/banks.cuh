/// \file
/// The shared-memory bank model: what a warp's access to a tile costs, computed at compile time.
///
/// \code
///   using namespace smemtile;
///   constexpr auto cost = traversal_cost(PaddedLayout<32, 32, 0>{}, 4, Traversal::column);
///   static_assert(cost.conflicts == 992, "32 warps, each 32-way");
/// \endcode
///
/// Tiles whose layout the model makes conflict-free (AutoPaddedTile, SwizzledTile) are in
/// conflict_free_tiles.cuh.
///
/// The model. Shared memory has 32 banks of 4 bytes; the bank of a byte address is (address / 4) % 32.
/// One warp-wide shared-memory instruction is served in "phases" of consecutive lanes: 32 lanes for
/// 1-, 2- and 4-byte accesses, 16 (half-warps) for 8-byte and 8 (quarter-warps) for 16-byte ones,
/// since one wavefront moves at most 128 bytes. A phase costs as many wavefronts as its most loaded
/// bank has distinct 32-bit words (a word wanted by several lanes is read once: broadcast, and the
/// bytes of one word never conflict). The request costs the sum over its phases; the ideal is the
/// number of phases with an active lane (1, 2 or 4 for a full warp); conflicts are the difference,
/// which is what Nsight Compute's `l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_{ld,st}.sum` adds
/// up over instructions. Phase sizes and the lane-pair merging of loads are data (BankRules), so
/// hardware measurements (scripts/bank_validation) can adjust them without touching the algorithm.
///
/// Addresses are byte offsets from a 128-byte aligned base (where bank 0 starts); the access
/// patterns build them from a layout (layout.cuh), so the model sees exactly the offsets the tiles use.
#pragma once

#include "../config.cuh"  // SMEMTILE_HOST_DEVICE
#include "coord.cuh"      // Coord, row_major_coord, col_major_coord
#include "layout.cuh"     // PaddedLayout, RuntimePaddedLayout

namespace smemtile {

/// Threads in a warp.
inline constexpr int warp_lanes = 32;
/// Shared-memory banks.
inline constexpr int bank_count = 32;
/// Bytes per bank: consecutive 4-byte words sit in consecutive banks.
inline constexpr int bank_width_bytes = 4;
/// Bytes one wavefront moves: the bank pattern repeats every 128 bytes.
inline constexpr int wavefront_bytes = bank_count * bank_width_bytes;

/// Whether a warp's access reads or writes shared memory.
enum class AccessOp {
  load,  ///< a read
  store  ///< a write
};

/// One warp-wide shared-memory instruction: a byte address per lane, which lanes take part, and
/// the width of each lane's access (1, 2, 4, 8 or 16 bytes, addresses aligned to it).
struct WarpAccess {
  unsigned byte_address[warp_lanes];  ///< byte offset each lane accesses, from a 128-byte aligned base
  unsigned active_mask;               ///< bit `lane` set when that lane takes part
  int width_bytes;                    ///< bytes each lane accesses: 1, 2, 4, 8 or 16
  AccessOp op;                        ///< read or write

  /// Whether `lane` takes part in the access.
  SMEMTILE_HOST_DEVICE constexpr bool active(int lane) const { return ((active_mask >> lane) & 1u) != 0; }
};

/// What a request (or a sum of requests) costs. conflicts == wavefronts - ideal_wavefronts.
struct BankCost {
  int wavefronts;        ///< wavefronts the hardware needs (each moves at most one word per bank)
  int ideal_wavefronts;  ///< wavefronts without any conflict: one per phase with an active lane
  int conflicts;         ///< the extra wavefronts: wavefronts - ideal_wavefronts
  int requests;          ///< instructions summed (1 for one warp access with an active lane, 0 without)

  /// The cost of both requests together: every count added.
  SMEMTILE_HOST_DEVICE constexpr BankCost operator+(const BankCost& other) const {
    return BankCost{wavefronts + other.wavefronts, ideal_wavefronts + other.ideal_wavefronts,
                    conflicts + other.conflicts, requests + other.requests};
  }
  /// The n-way conflict degree of a single request: wavefronts per ideal wavefront, rounded up.
  SMEMTILE_HOST_DEVICE constexpr int degree() const {
    return ideal_wavefronts == 0 ? 0 : (wavefronts + ideal_wavefronts - 1) / ideal_wavefronts;
  }
};

/// The hardware's rules, as data. merge_lane_pairs_*: when every active lane accesses the same
/// address as its neighbour (lane ^ 1, or lane ^ 2), an 8- or 16-byte request is served in phases
/// twice as large (NVIDIA's description of uniform-address 64- and 128-bit loads on Volta and
/// later: the returned registers are packed).
struct BankRules {
  int phase_lanes[5];           ///< lanes served together, for widths of 1, 2, 4, 8 and 16 bytes (index i: 1 << i bytes)
  bool merge_lane_pairs_load;   ///< loads of lane pairs sharing an address get phases twice as large
  bool merge_lane_pairs_store;  ///< stores of lane pairs sharing an address get phases twice as large
};

/// The rules checked against an H100 by scripts/bank_validation (see docs/bank_validation.md).
/// A function, not a variable, so that device code can use it as a default argument.
SMEMTILE_HOST_DEVICE constexpr BankRules hardware_bank_rules() { return BankRules{{32, 32, 32, 16, 8}, true, false}; }

namespace detail {

SMEMTILE_HOST_DEVICE constexpr int width_index(int width_bytes) {
  return width_bytes == 1 ? 0 : width_bytes == 2 ? 1 : width_bytes == 4 ? 2 : width_bytes == 8 ? 3 : 4;
}

SMEMTILE_HOST_DEVICE constexpr bool valid_width(int width_bytes) {
  return width_bytes == 1 || width_bytes == 2 || width_bytes == 4 || width_bytes == 8 || width_bytes == 16;
}

// Every active lane shares its address with its partner lane ^ distance (which must be active).
SMEMTILE_HOST_DEVICE constexpr bool lanes_paired(const WarpAccess& access, int distance) {
  for (int lane = 0; lane < warp_lanes; ++lane) {
    if (!access.active(lane)) continue;
    const int partner = lane ^ distance;
    if (!access.active(partner) || access.byte_address[partner] != access.byte_address[lane]) return false;
  }
  return access.active_mask != 0;
}

// 32-bit words one lane's access touches: the first and how many.
SMEMTILE_HOST_DEVICE constexpr unsigned first_word(const WarpAccess& access, int lane) {
  return access.byte_address[lane] / bank_width_bytes;
}
SMEMTILE_HOST_DEVICE constexpr int words_per_lane(const WarpAccess& access) {
  return access.width_bytes <= bank_width_bytes ? 1 : access.width_bytes / bank_width_bytes;
}

}  // namespace detail

/// Lanes served together in one phase of this request.
SMEMTILE_HOST_DEVICE constexpr int phase_lanes(const WarpAccess& access, BankRules rules = hardware_bank_rules()) {
  int lanes = rules.phase_lanes[detail::width_index(access.width_bytes)];
  const bool merge = access.op == AccessOp::load ? rules.merge_lane_pairs_load : rules.merge_lane_pairs_store;
  if (merge && lanes < warp_lanes && (detail::lanes_paired(access, 1) || detail::lanes_paired(access, 2))) lanes *= 2;
  return lanes;
}

/// Distinct 32-bit words that the active lanes of the phase starting at `phase_first_lane`
/// (`phase_size` lanes) request in `bank`.
SMEMTILE_HOST_DEVICE constexpr int distinct_words_in_bank(const WarpAccess& access, int phase_first_lane,
                                                          int phase_size, int bank) {
  unsigned seen[warp_lanes * 4] = {};  // at most 32 words per phase (128 bytes), 4x for safety
  int count = 0;
  for (int lane = phase_first_lane; lane < phase_first_lane + phase_size; ++lane) {
    if (!access.active(lane)) continue;
    for (int w = 0; w < detail::words_per_lane(access); ++w) {
      const unsigned word = detail::first_word(access, lane) + static_cast<unsigned>(w);
      if (static_cast<int>(word % bank_count) != bank) continue;
      bool repeat = false;
      for (int i = 0; i < count; ++i) repeat = repeat || seen[i] == word;
      if (!repeat) seen[count++] = word;
    }
  }
  return count;
}

/// Wavefronts one phase costs: the largest number of distinct words any bank must deliver.
SMEMTILE_HOST_DEVICE constexpr int phase_wavefronts(const WarpAccess& access, int phase_first_lane, int phase_size) {
  // Gather the phase's distinct words once, then count them per bank.
  unsigned words[warp_lanes * 4] = {};
  int count = 0;
  for (int lane = phase_first_lane; lane < phase_first_lane + phase_size; ++lane) {
    if (!access.active(lane)) continue;
    for (int w = 0; w < detail::words_per_lane(access); ++w) {
      const unsigned word = detail::first_word(access, lane) + static_cast<unsigned>(w);
      bool repeat = false;
      for (int i = 0; i < count; ++i) repeat = repeat || words[i] == word;
      if (!repeat) words[count++] = word;
    }
  }
  int per_bank[bank_count] = {};
  int worst = 0;
  for (int i = 0; i < count; ++i) {
    const int n = ++per_bank[words[i] % bank_count];
    worst = n > worst ? n : worst;
  }
  return worst;
}

/// The cost of one warp-wide request under `rules`.
SMEMTILE_HOST_DEVICE constexpr BankCost bank_cost(const WarpAccess& access, BankRules rules = hardware_bank_rules()) {
  BankCost cost{0, 0, 0, access.active_mask != 0 ? 1 : 0};
  const int size = phase_lanes(access, rules);
  for (int first = 0; first < warp_lanes; first += size) {
    const int wavefronts = phase_wavefronts(access, first, size);
    cost.wavefronts += wavefronts;
    cost.ideal_wavefronts += wavefronts > 0 ? 1 : 0;
  }
  cost.conflicts = cost.wavefronts - cost.ideal_wavefronts;
  return cost;
}

/// How many distinct words share the busiest bank that `lane` touches, within its phase: 1 means
/// the lane is served without conflict, n > 1 that it is part of an n-way conflict.
SMEMTILE_HOST_DEVICE constexpr int lane_conflict_degree(const WarpAccess& access, int lane,
                                                        BankRules rules = hardware_bank_rules()) {
  if (!access.active(lane)) return 0;
  const int size = phase_lanes(access, rules);
  const int first = lane - lane % size;
  int worst = 0;
  for (int w = 0; w < detail::words_per_lane(access); ++w) {
    const int bank = static_cast<int>((detail::first_word(access, lane) + static_cast<unsigned>(w)) % bank_count);
    const int n = distinct_words_in_bank(access, first, size, bank);
    worst = n > worst ? n : worst;
  }
  return worst;
}

// ---- access patterns: which element each lane of a warp touches --------------------------------

/// A warp walking a tile in row-major or column-major order: lane t of warp w touches the k-th
/// element (k = 32 w + t) of the traversal, row_major_coord(k, cols) or col_major_coord(k, rows).
enum class Traversal {
  row,    ///< along the rows: consecutive lanes take consecutive columns
  column  ///< down the columns: consecutive lanes take consecutive rows
};

/// The block shape of a 2D launch: warps are formed from the linear thread id
/// threadIdx.y * dim_x + threadIdx.x, whatever dim_x is.
struct BlockShape {
  int dim_x;  ///< threads per block row (blockDim.x)
  int dim_y;  ///< rows of threads (blockDim.y)
};

/// How a thread (tx, ty) of a 2D block picks its tile element, with rank = ty * dim_x + tx.
enum class BlockMapping {
  thread_coord,     ///< tile(ty, tx): the thread's own position; a warp walks along a row
  swapped_coord,    ///< tile(tx, ty): row and column swapped; a warp walks down a column
  transposed_rank,  ///< tile(rank % dim_y, rank / dim_y): consecutive ranks walk down the columns
                    ///< of a dim_y x dim_x tile, the read side of a transpose through shared memory
};

namespace detail {

template <class Layout>
SMEMTILE_HOST_DEVICE constexpr void set_lane(WarpAccess& access, const Layout& layout, int elem_bytes, int lane,
                                             Coord at) {
  if (at.row < 0 || at.row >= layout.rows() || at.col < 0 || at.col >= layout.cols()) return;  // stays inactive
  access.byte_address[lane] = static_cast<unsigned>(layout.offset(at.row, at.col)) * static_cast<unsigned>(elem_bytes);
  access.active_mask |= 1u << lane;
}

SMEMTILE_HOST_DEVICE constexpr WarpAccess empty_access(int elem_bytes, AccessOp op) {
  return WarpAccess{{}, 0u, elem_bytes, op};
}

SMEMTILE_HOST_DEVICE constexpr int ceil_div(int a, int b) { return (a + b - 1) / b; }

}  // namespace detail

/// Warp `warp` of a row- or column-major walk over the whole tile (inactive lanes past its end).
template <class Layout>
SMEMTILE_HOST_DEVICE constexpr WarpAccess traversal_access(const Layout& layout, int elem_bytes, Traversal order,
                                                           int warp = 0, AccessOp op = AccessOp::load) {
  WarpAccess access = detail::empty_access(elem_bytes, op);
  const unsigned size = static_cast<unsigned>(layout.rows() * layout.cols());
  for (int lane = 0; lane < warp_lanes; ++lane) {
    const unsigned k = static_cast<unsigned>(warp * warp_lanes + lane);
    if (k >= size) continue;
    detail::set_lane(access, layout, elem_bytes, lane,
                     order == Traversal::row ? row_major_coord(k, static_cast<unsigned>(layout.cols()))
                                             : col_major_coord(k, static_cast<unsigned>(layout.rows())));
  }
  return access;
}

/// Lane t of warp w touches the row-major element (32 w + t) * stride, as `shared[stride * tid]`
/// does.
template <class Layout>
SMEMTILE_HOST_DEVICE constexpr WarpAccess strided_access(const Layout& layout, int elem_bytes, int stride, int warp = 0,
                                                         AccessOp op = AccessOp::load) {
  WarpAccess access = detail::empty_access(elem_bytes, op);
  const unsigned size = static_cast<unsigned>(layout.rows() * layout.cols());
  for (int lane = 0; lane < warp_lanes; ++lane) {
    const unsigned k = static_cast<unsigned>(warp * warp_lanes + lane) * static_cast<unsigned>(stride);
    if (k >= size) continue;
    detail::set_lane(access, layout, elem_bytes, lane, row_major_coord(k, static_cast<unsigned>(layout.cols())));
  }
  return access;
}

/// Warp `warp` of a dim_x x dim_y block using `mapping` (threads whose element is outside the tile
/// do not access it).
template <class Layout>
SMEMTILE_HOST_DEVICE constexpr WarpAccess block_access(const Layout& layout, int elem_bytes, BlockShape block,
                                                       BlockMapping mapping, int warp = 0,
                                                       AccessOp op = AccessOp::load) {
  WarpAccess access = detail::empty_access(elem_bytes, op);
  const unsigned threads = static_cast<unsigned>(block.dim_x * block.dim_y);
  for (int lane = 0; lane < warp_lanes; ++lane) {
    const unsigned rank = static_cast<unsigned>(warp * warp_lanes + lane);
    if (rank >= threads) continue;
    const Coord thread = row_major_coord(rank, static_cast<unsigned>(block.dim_x));  // (ty, tx)
    const Coord at = mapping == BlockMapping::thread_coord    ? thread
                     : mapping == BlockMapping::swapped_coord ? Coord{thread.col, thread.row}
                                                              : col_major_coord(rank, static_cast<unsigned>(block.dim_y));
    detail::set_lane(access, layout, elem_bytes, lane, at);
  }
  return access;
}

/// The cost of a whole row- or column-major walk over the tile: the sum over its warps.
template <class Layout>
SMEMTILE_HOST_DEVICE constexpr BankCost traversal_cost(const Layout& layout, int elem_bytes, Traversal order,
                                                       AccessOp op = AccessOp::load,
                                                       BankRules rules = hardware_bank_rules()) {
  BankCost total{0, 0, 0, 0};
  const int warps = detail::ceil_div(layout.rows() * layout.cols(), warp_lanes);
  for (int w = 0; w < warps; ++w) total = total + bank_cost(traversal_access(layout, elem_bytes, order, w, op), rules);
  return total;
}

/// The cost of every warp of a dim_x x dim_y block accessing the tile through `mapping`, summed.
template <class Layout>
SMEMTILE_HOST_DEVICE constexpr BankCost block_cost(const Layout& layout, int elem_bytes, BlockShape block,
                                                   BlockMapping mapping, AccessOp op = AccessOp::load,
                                                   BankRules rules = hardware_bank_rules()) {
  BankCost total{0, 0, 0, 0};
  const int warps = detail::ceil_div(block.dim_x * block.dim_y, warp_lanes);
  for (int w = 0; w < warps; ++w) total = total + bank_cost(block_access(layout, elem_bytes, block, mapping, w, op), rules);
  return total;
}

}  // namespace smemtile
