// smemtile/block/tile_copy.cuh: a copy planned once and repeated in a loop (a k-loop's tiles).
//
//   __shared__ smemtile::StaticTile<float, 128, 8> a[2];        // two stages
//   const smemtile::FixedThreadBlock<256> block;
//   auto load_a = smemtile::make_tile_copy(A, {row0, 0}, a[0], smemtile::boundary::inside, block,
//                                          smemtile::Coord{0, 8});   // the step along k
//   for (int k = 0; k < K; k += 8) {
//     load_a.load(a[stage]);   // or load_async(a[stage]) for cp.async
//     load_a.advance();        // origin += step: one pointer increment
//     ...
//   }
//
// Everything a thread needs for its share (its first unit's global address, the vector width, its
// units' places in the tile) is worked out when the plan is made; each load then moves its units
// from that address, and advance() adds the step's offset to it. The width is the one the types
// decide (copy.cuh: the widest that gives every thread the same number of units, where the view's
// type guarantees it; make_aligned_matrix); where they do not, the plan tests the array's address
// and pitch once, and each load only the origin's column. A region reaching outside the array
// (unless boundary::inside says it cannot) is tested with one uniform comparison per load and then
// copied by the general copy with the boundary policy. Any tile of the same layout may be loaded
// (stages of a pipeline), and stores work the same way for tiles without a halo.
#pragma once

#include <type_traits>  // std::remove_const_t, std::is_same

#include "../config.cuh"         // SMEMTILE_DEVICE, SMEMTILE_CHECK
#include "../core/boundary.cuh"  // boundary policies, detail::AssumesInside
#include "../core/coord.cuh"     // Coord
#include "../core/tile_ref.cuh"  // tile_ref
#include "async_copy.cuh"        // AsyncMove
#include "copy.cuh"              // detail::copy, the unit walk's widths
#include "thread_group.cuh"      // FixedThreadBlock, Warp

namespace smemtile {

#if defined(__CUDACC__)

/// A planned copy between a rank-2 mdspan and tiles of one static layout (make_tile_copy).
template <class Layout, class Global, class Boundary, class Group>
class TileCopy {
 public:
  using element_type = std::remove_const_t<typename Global::element_type>;  ///< what moves

 private:
  using Element = element_type;
  static_assert(Layout::is_static,
                "smemtile::TileCopy: a planned copy needs a tile whose shape is in its type (StaticTile and kin); "
                "use copy_global_to_tile for run-time tiles");
  static_assert(Group::static_size > 0,
                "smemtile::TileCopy: a planned copy needs a group of known size (FixedThreadBlock<N> or Warp), "
                "so that each thread's share is fixed");
  static_assert(Global::rank() == 2, "smemtile::TileCopy: the global array is a rank-2 mdspan");
  static constexpr int elem = static_cast<int>(sizeof(Element));
  static constexpr Layout layout{};
  static constexpr Coord reach = layout_reach(layout);
  static constexpr int region_rows = layout.rows() + 2 * reach.row;
  static constexpr int region_cols = layout.cols() + 2 * reach.col;
  // The width: from the types where they decide it, else the group's preferred width, tested once.
  static constexpr int known_bytes = detail::known_unit_bytes<true, Element, Global, Layout, Group>();
  static constexpr int bytes = known_bytes > 0 ? known_bytes
                                               : detail::width_for_group<true, Element, Layout>(
                                                     detail::static_unit_bytes<true, Element, 16, Layout>(),
                                                     Group::static_size);
  static constexpr int per_unit = bytes / elem;
  static constexpr int units_per_row = region_cols / per_unit;
  static constexpr int units = region_rows * units_per_row;
  static constexpr int per_thread = (units + Group::static_size - 1) / Group::static_size;
  static constexpr bool exact = units % Group::static_size == 0;
  // A thread's units lie in one column, rows_step rows apart, where the group is whole rows' units.
  static constexpr bool one_column = Group::static_size % units_per_row == 0;
  static constexpr int rows_step = one_column ? Group::static_size / units_per_row : 0;
  static constexpr bool stores = reach.row == 0 && reach.col == 0;

 public:
  /// Plans the copy of the tile region at `origin` (its halo around it); `step` is what advance()
  /// adds to the origin.
  SMEMTILE_DEVICE TileCopy(const Global& global, Coord origin, Boundary boundary, Group group, Coord step)
      : global_(global), boundary_(boundary), group_(group), origin_(origin), step_(step) {
    detail::check_global_view(global);
    const int rank = static_cast<int>(group.rank());
    first_ = Coord{rank / units_per_row, (rank % units_per_row) * per_unit};
    pitch_ = static_cast<long long>(global.stride(0));
    unit_ = global.data_handle() + (origin.row - reach.row + first_.row) * pitch_ +
            (origin.col - reach.col + first_.col);
    step_offset_ = step.row * pitch_ + step.col;
    // The planned walk steps along a row by one element (a view whose columns are not contiguous,
    // a layout_stride one, takes the general copy on every load, even for units of one element).
    vectors_fit_ = known_bytes > 0 ||
                   (global.stride(1) == 1 &&
                    (per_unit == 1 || (reinterpret_cast<unsigned long long>(global.data_handle()) % bytes == 0 &&
                                       (pitch_ * elem) % bytes == 0)));
  }

  /// The origin the next load or store moves (the interior's (0, 0) for a halo tile).
  SMEMTILE_DEVICE Coord origin() const { return origin_; }
  /// Moves the origin by the plan's step.
  SMEMTILE_DEVICE void advance() {
    origin_ = origin_ + step_;
    unit_ += step_offset_;
  }
  /// Moves the origin by `step`.
  SMEMTILE_DEVICE void advance(Coord step) {
    origin_ = origin_ + step;
    unit_ += step.row * pitch_ + step.col;
  }

  /// tile = the region at origin() (halo included), as copy_global_to_tile. Does not synchronize.
  template <class Tile>
  SMEMTILE_DEVICE void load(Tile&& tile) const {
    move<true, SyncMove>(tile_ref(tile));
  }
  /// The same with cp.async (sm_80+; commit and wait as for copy_global_to_tile_async).
  template <class Tile>
  SMEMTILE_DEVICE void load_async(Tile&& tile) const {
    move<true, AsyncMove<Element>>(tile_ref(tile));
  }
  /// The region at origin() = tile (tiles without a halo), as copy_tile_to_global.
  template <class Tile>
  SMEMTILE_DEVICE void store(Tile&& tile) const {
    static_assert(stores, "smemtile::TileCopy::store: a halo tile's plan covers its halo; store its interior "
                          "with copy_tile_to_global");
    move<false, SyncMove>(tile_ref(tile));
  }

 private:
  template <bool ToTile, class Mover, class T, class L>
  SMEMTILE_DEVICE void move(TileRef<T, L> tile) const {
    static_assert(std::is_same<L, Layout>::value, "smemtile::TileCopy: the tile's layout is not the planned one");
    const Coord first = origin_ - reach;
    bool fast = vectors_fit_;
    if constexpr (detail::AssumesInside<Boundary>::value) {
      SMEMTILE_CHECK(detail::region_inside(global_, first, region_rows, region_cols),
                     "smemtile TileCopy with boundary::inside: the region reaches outside the array (values: first "
                     "row, first column, rows, columns)", first.row, first.col, region_rows, region_cols);
      // With an aligned view and boundary::inside the first column is the caller's word (as for
      // copy_global_to_tile); otherwise it is tested.
      if constexpr (known_bytes > 0 && per_unit > 1) {
        SMEMTILE_CHECK(first.col % per_unit == 0,
                       "smemtile TileCopy with an aligned view: the region's first column (origin - halo) is not "
                       "aligned to the copy's vector (values: first column, elements per vector)",
                       first.col, per_unit, 0, 0);
      } else if constexpr (per_unit > 1) {
        fast = fast && first.col % per_unit == 0;
      }
    } else {
      // Not stated inside: the column is tested as copy_global_to_tile tests it (an aligned view at
      // an origin off the vector grid took misaligned vectors here).
      if constexpr (per_unit > 1) fast = fast && first.col % per_unit == 0;
      fast = fast && detail::region_inside(global_, first, region_rows, region_cols);
    }
    if (fast) {
      move_units<ToTile, Mover>(tile);
    } else if constexpr (ToTile) {
      detail::copy<true, Mover>(global_, origin_, tile, boundary_, group_);
    } else {
      detail::copy<false, Mover>(global_, origin_, tile, boundary::Zero{}, group_);
    }
  }

  // This thread's units: all loads of a batch (up to 16 registers) before its stores.
  template <bool ToTile, class Mover, class T, class L>
  SMEMTILE_DEVICE void move_units(TileRef<T, L> tile) const {
    using Vector = std::conditional_t<per_unit == 1, Element, typename detail::VectorOf<bytes>::type>;
    constexpr int batch = per_thread < 64 / bytes ? per_thread : (64 / bytes > 0 ? 64 / bytes : 1);
    const int rank = static_cast<int>(group_.rank());
    const auto shared_unit = [&](int k) {
      const Coord at = unit_coord(k, rank);
      return const_cast<Element*>(tile.data()) + layout.offset(at.row - reach.row, at.col - reach.col);
    };
    const auto global_unit = [&](int k) { return const_cast<Element*>(unit_) + unit_offset(k, unit_coord(k, rank)); };
    if constexpr (ToTile && Mover::template asynchronous<bytes>) {
      // Nothing held in registers: each unit is a copy this thread starts.
      detail::load_then_store<int, per_thread, batch, Group::static_size, units>(
          rank, [&](int k) { Mover::template start<bytes>(shared_unit(k), global_unit(k)); return 0; },
          [](int, int) {});
    } else if constexpr (ToTile) {
      detail::load_then_store<Vector, per_thread, batch, Group::static_size, units>(
          rank, [&](int k) { return detail::load_global_unit<Mover>(reinterpret_cast<const Vector*>(global_unit(k))); },
          [&](int k, const Vector& v) { *reinterpret_cast<Vector*>(shared_unit(k)) = v; });
    } else {
      detail::load_then_store<Vector, per_thread, batch, Group::static_size, units>(
          rank, [&](int k) { return *reinterpret_cast<const Vector*>(shared_unit(k)); },
          [&](int k, const Vector& v) { *reinterpret_cast<Vector*>(global_unit(k)) = v; });
    }
  }

  // Unit k of this thread, in region coordinates.
  SMEMTILE_DEVICE Coord unit_coord(int k, int rank) const {
    if constexpr (one_column) return Coord{first_.row + k * rows_step, first_.col};
    const int unit = rank + k * Group::static_size;
    return Coord{unit / units_per_row, (unit % units_per_row) * per_unit};
  }
  // Its global offset from the first unit's.
  SMEMTILE_DEVICE long long unit_offset(int k, Coord at) const {
    if constexpr (one_column) return static_cast<long long>(k * rows_step) * pitch_;
    return static_cast<long long>(at.row - first_.row) * pitch_ + (at.col - first_.col);
  }

  Global global_;
  Boundary boundary_;
  Group group_;
  Coord origin_;
  Coord step_;
  Coord first_;                          // this thread's first unit, in region coordinates
  long long pitch_;                      // elements between rows
  long long step_offset_;                // elements advance() moves
  const Element* unit_;                  // this thread's first unit at origin_
  bool vectors_fit_;                     // the array's address and pitch allow the width
};

/// Plans a copy between `global` and tiles like `tile` at `origin`, advancing by `step`: see the
/// top of this file. Every thread of `group` makes it with the same arguments.
template <class Global, class Tile, class Boundary, class Group>
SMEMTILE_DEVICE auto make_tile_copy(const Global& global, Coord origin, const Tile& tile, Boundary boundary,
                                    Group group, Coord step = Coord{0, 0}) {
  using Layout = typename decltype(tile_ref(tile))::layout_type;
  return TileCopy<Layout, Global, Boundary, Group>(global, origin, boundary, group, step);
}

#endif  // __CUDACC__

}  // namespace smemtile
