// examples/seeds/predicted_conflicts.cuh: the bank conflicts smemtile's model (banks.cuh) predicts
// for a seed case's store and load, from the tile, block and traversals its SeedCase records.
#pragma once

#include <smemtile/core/conflict_free_tiles.cuh>

#include "seed_case.cuh"

struct PredictedConflicts {
  smemtile::BankCost store;
  smemtile::BankCost load;
};

// Warp `warp` of the block walking the tile as `t` says (seed_case.cuh defines the mappings).
inline smemtile::WarpAccess seed_warp_access(const SeedCase& c, Traversal t, int warp, smemtile::AccessOp op) {
  const smemtile::RuntimePaddedLayout layout{c.tile.rows, c.tile.cols, c.tile.pad};
  const smemtile::BlockShape block{static_cast<int>(c.block.x), static_cast<int>(c.block.y)};
  const int bytes = c.tile.element_bytes;
  switch (t) {
    case Traversal::row: return smemtile::block_access(layout, bytes, block, smemtile::BlockMapping::thread_coord, warp, op);
    case Traversal::column:
      return smemtile::block_access(layout, bytes, block, smemtile::BlockMapping::swapped_coord, warp, op);
    case Traversal::row_major_rank: return smemtile::traversal_access(layout, bytes, smemtile::Traversal::row, warp, op);
    case Traversal::col_major_rank:
      return smemtile::traversal_access(layout, bytes, smemtile::Traversal::column, warp, op);
    case Traversal::transposed_rank:
      return smemtile::block_access(layout, bytes, block, smemtile::BlockMapping::transposed_rank, warp, op);
  }
  return smemtile::WarpAccess{{}, 0u, bytes, op};
}

// Summed over every warp of the block: what ncu's l1tex__data_bank_conflicts_* would report.
inline PredictedConflicts predicted_conflicts(const SeedCase& c) {
  PredictedConflicts p{{0, 0, 0, 0}, {0, 0, 0, 0}};
  const int warps = static_cast<int>((c.threads() + 31) / 32);
  for (int w = 0; w < warps; ++w) {
    p.store = p.store + smemtile::bank_cost(seed_warp_access(c, c.store, w, smemtile::AccessOp::store));
    p.load = p.load + smemtile::bank_cost(seed_warp_access(c, c.load, w, smemtile::AccessOp::load));
  }
  return p;
}
