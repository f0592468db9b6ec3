// smemtile/block/stencil.cuh: what one point of a stencil sees, read from a halo tile.
//
//   __shared__ smemtile::StaticHaloTile<float, 8, 32, 1> t;           // interior 8 x 32, halo 1
//   smemtile::copy_global_to_tile(in, origin, t, smemtile::boundary::clamp);
//   __syncthreads();
//   const auto n = smemtile::neighborhood<1, smemtile::StencilShape::star>(t, smemtile::thread_coord());
//   float laplacian = n(-1, 0) + n(1, 0) + n(0, -1) + n(0, 1) - 4 * n(0, 0);
//
// A neighborhood reads the tile at offsets from its point: n(dx) in 1D, n(dy, dx) in 2D and
// n(dz, dy, dx) in 3D, each offset at most Radius. Debug builds check that, and that a star
// stencil's op reads along the axes only (one offset non-zero). The kernel body says what a point
// computes; the tile's halo, filled by a copy with a boundary policy, makes every neighbour
// available without any "is my neighbour in the tile?" test.
#pragma once

#include "../config.cuh"         // SMEMTILE_DEVICE, SMEMTILE_HOST_DEVICE, SMEMTILE_CHECK
#include "../core/coord.cuh"     // Coord
#include "../core/tile_ref.cuh"  // TileRef, tile_ref

#include <type_traits>  // std::is_base_of
#include <utility>      // std::declval

namespace smemtile {

/// Which neighbours a stencil reads: along the axes only (star: 2 d R + 1 points) or the whole
/// (2R + 1)^d box.
enum class StencilShape { star, box };

/// Whether an offset may be read by a stencil of this radius and shape.
SMEMTILE_HOST_DEVICE constexpr bool stencil_offset_allowed(StencilShape shape, int radius, int dz, int dy, int dx) {
  const auto magnitude = [](int v) { return v < 0 ? -v : v; };
  if (magnitude(dz) > radius || magnitude(dy) > radius || magnitude(dx) > radius) return false;
  if (shape == StencilShape::box) return true;
  return (dz != 0) + (dy != 0) + (dx != 0) <= 1;
}

/// The points a stencil reads, as many as in its shape: 2 d R + 1 (star) or (2R + 1)^d (box).
SMEMTILE_HOST_DEVICE constexpr int stencil_points(StencilShape shape, int radius, int rank) {
  if (shape == StencilShape::star) return 2 * rank * radius + 1;
  int points = 1;
  for (int d = 0; d < rank; ++d) points *= 2 * radius + 1;
  return points;
}

#if defined(__CUDACC__)

/// The neighbourhood of one point of a 1D or 2D halo tile (see neighborhood()).
template <int Radius, StencilShape Shape, class Tile>
struct Neighborhood {
  Tile tile;  ///< the tile (a TileRef whose halo holds the neighbours)
  Coord at;   ///< the point, in the tile's interior coordinates

  /// The value at the point itself.
  SMEMTILE_DEVICE decltype(auto) center() const { return tile(at.row, at.col); }
  /// The neighbour dx to the right (1D tiles).
  SMEMTILE_DEVICE decltype(auto) operator()(int dx) const { return (*this)(0, dx); }
  /// The neighbour dy down and dx to the right.
  SMEMTILE_DEVICE decltype(auto) operator()(int dy, int dx) const {
    SMEMTILE_CHECK(stencil_offset_allowed(Shape, Radius, 0, dy, dx),
                   "stencil: offset (dz, dy, dx) beyond the radius, or off the axes of a star stencil", 0, dy, dx,
                   Radius);
    return tile(at.row + dy, at.col + dx);
  }
};

/// The neighbourhood of point `at` of `tile` (a halo tile or view: StaticHaloTile, a tile's
/// interior(), any TileRef that can be indexed Radius beyond the point).
template <int Radius, StencilShape Shape, class Tile>
SMEMTILE_DEVICE auto neighborhood(Tile&& tile, Coord at) {
  static_assert(Radius > 0, "smemtile stencil: the radius must be at least 1");
  auto view = tile_ref(tile);
  return Neighborhood<Radius, Shape, decltype(view)>{view, at};
}

/// The neighbourhood of element `at` of a 1D halo tile.
template <int Radius, StencilShape Shape, class Tile>
SMEMTILE_DEVICE auto neighborhood(Tile&& tile, int at) {
  return neighborhood<Radius, Shape>(tile, Coord{0, at});
}

/// The neighbourhood of one point of a 3D stencil whose planes z - Radius ... z + Radius are 2D
/// halo tiles of one layout, kept in a ring (the 2.5D scheme: each plane is loaded once as the
/// sweep moves along z). plane_offset[Radius + dz] is where plane z + dz starts, in elements
/// from `first`.
template <int Radius, StencilShape Shape, class T, class Layout>
struct Neighborhood3D {
  T* first;                             ///< the ring's first plane
  Layout layout;                        ///< every plane's layout
  int plane_offset[2 * Radius + 1];     ///< where plane z + dz starts, index Radius + dz
  Coord at;                             ///< the point, in the planes' interior coordinates

  /// The value at the point itself.
  SMEMTILE_DEVICE T center() const { return (*this)(0, 0, 0); }
  /// The neighbour dz planes on, dy down and dx to the right.
  SMEMTILE_DEVICE T operator()(int dz, int dy, int dx) const {
    SMEMTILE_CHECK(stencil_offset_allowed(Shape, Radius, dz, dy, dx),
                   "stencil: offset (dz, dy, dx) beyond the radius, or off the axes of a star stencil", dz, dy, dx,
                   Radius);
    const TileRef<T, Layout> plane{first + plane_offset[Radius + dz], layout};
    return plane(at.row + dy, at.col + dx);
  }
};

namespace detail {
// How a SeparableStencilOp reads a neighbourhood N: n(dz, dy, dx) (3) or n(dy, dx) (2). Its `rank`
// where it says (one that takes both forms must), else the one form it takes.
template <class N, class = void>
struct TakesTwoOffsets : std::false_type {};
template <class N>
struct TakesTwoOffsets<N, std::void_t<decltype(std::declval<const N&>()(0, 0))>> : std::true_type {};
template <class N, class = void>
struct TakesThreeOffsets : std::false_type {};
template <class N>
struct TakesThreeOffsets<N, std::void_t<decltype(std::declval<const N&>()(0, 0, 0))>> : std::true_type {};
template <class N, class = void>
struct NeighborhoodRank {
  static_assert(TakesTwoOffsets<N>::value != TakesThreeOffsets<N>::value,
                "smemtile: a neighbourhood that a SeparableStencilOp reads takes n(dy, dx) or n(dz, dy, dx); one that "
                "takes both says which: static constexpr int rank = 2 (or 3)");
  static constexpr int value = TakesThreeOffsets<N>::value ? 3 : 2;
};
template <class N>
struct NeighborhoodRank<N, std::void_t<decltype(N::rank)>> {
  static constexpr int value = N::rank;
};
struct SeparableStencilOpBase {};  // what is_separable_stencil_op looks for (ops derived from one too)
}  // namespace detail

// A separable op, e.g. the mean of the 3 x 3 box of bytes (a 3D one adds through(planes)):
//
//   struct Blur3x3 : smemtile::SeparableStencilOp<Blur3x3> {
//     template <class Row> __device__ int across(const Row& row) const {       // row(dx), |dx| <= R
//       return row(-1) + row(0) + row(1);
//     }
//     template <class Rows> __device__ std::uint8_t down(const Rows& rows) const {  // rows(dy): across()
//       return static_cast<std::uint8_t>((rows(-1) + rows(0) + rows(1) + 4) / 9);
//     }
//   };

/// Base of a box stencil op written in passes (CRTP), so that a kernel can reduce each row (and,
/// in 3D, each plane) of the box once for every point that reads it, instead of once per point.
/// `Derived` has `across(row)`, a row's partial (of any type) from its values `row(dx)`, |dx| <=
/// Radius, and `down(rows)`, from the partials `rows(dy)` of the rows dy = -Radius ... Radius: the
/// result in 2D, a plane's partial in 3D, where `through(planes)` gives the result from the
/// partials `planes(dz)`. Accumulate in a wider type than the element there. Every path of
/// device_stencil and device_stencil_steps computes exactly that (this base's call operator
/// evaluates it on any neighbourhood); the 2D box strips keep the rows' partials in registers, the
/// 3D box strips the planes'. Box stencils of rank 2 and 3 only (checked at compile time).
template <class Derived>
struct SeparableStencilOp : detail::SeparableStencilOpBase {
  /// down() of the across() partials of n's rows (2D); through() of the planes' down() (3D).
  template <class N>
  SMEMTILE_DEVICE auto operator()(const N& n) const {
    const Derived& op = static_cast<const Derived&>(*this);
    if constexpr (detail::NeighborhoodRank<N>::value == 3) return op.through(PlanePartials<N>{op, n});
    else return op.down(RowPartials<N>{op, n, 0});
  }

 private:
  template <class N>
  struct Row {  // row dy (of plane dz in 3D) of a neighbourhood, read at dx
    const N& n;
    int dz, dy;
    SMEMTILE_DEVICE decltype(auto) operator()(int dx) const {
      if constexpr (detail::NeighborhoodRank<N>::value == 3) return n(dz, dy, dx);
      else return n(dy, dx);
    }
  };
  template <class N>
  struct RowPartials {  // across() of row dy (of plane dz)
    const Derived& op;
    const N& n;
    int dz;
    SMEMTILE_DEVICE auto operator()(int dy) const { return op.across(Row<N>{n, dz, dy}); }
  };
  template <class N>
  struct PlanePartials {  // down() of plane dz
    const Derived& op;
    const N& n;
    SMEMTILE_DEVICE auto operator()(int dz) const { return op.down(RowPartials<N>{op, n, dz}); }
  };
};

/// Whether Op is a separable stencil op (derives from a SeparableStencilOp, directly or through
/// another separable op).
template <class Op>
inline constexpr bool is_separable_stencil_op = std::is_base_of<detail::SeparableStencilOpBase, Op>::value;

namespace detail {
// The device functions' compile-time check of a separable op's stencil.
template <StencilShape Shape, int Rank, class Op>
constexpr bool separable_op_fits() {
  static_assert(!is_separable_stencil_op<Op> || (Shape == StencilShape::box && Rank >= 2),
                "smemtile: a SeparableStencilOp is the op of a 2D or 3D box stencil (StencilShape::box, rank 2 or 3)");
  return true;
}
}  // namespace detail

#endif  // __CUDACC__

}  // namespace smemtile
