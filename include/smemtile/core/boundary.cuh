// smemtile/core/boundary.cuh: what a tile holds where it reaches outside the global array.
//
//   copy_global_to_tile(in, origin, tile, smemtile::boundary::zero);          // 0 outside
//   copy_global_to_tile(in, origin, tile, smemtile::boundary::constant(1.f)); // 1 outside
//   copy_global_to_tile(in, origin, tile, smemtile::boundary::clamp);         // the nearest edge element
//   copy_global_to_tile(in, origin, tile, smemtile::boundary::inside);        // never outside: no tests
//
// A policy is a type. Fill policies (zero, constant) give a value and read nothing; index policies
// (clamp, periodic, reflect) map an index outside [0, n) to one inside and read that element. Each
// index policy's map_index is constexpr, tested on the host for every edge position, and holds for
// arrays smaller than the distance reached outside (periodic and reflect fold as often as needed).
// boundary_source / boundary_source_index below are the one place an index policy is applied.
#pragma once

#include <type_traits>  // std::is_same

#include "../config.cuh"  // SMEMTILE_HOST_DEVICE
#include "coord.cuh"      // Coord

// A namespace-scope constant usable in host and device code (as libcu++'s _CCCL_GLOBAL_CONSTANT):
// device code cannot use a host constexpr object of class type, so the device pass declares it
// __device__.
#ifndef SMEMTILE_GLOBAL_CONSTANT
#if defined(__CUDA_ARCH__)
#define SMEMTILE_GLOBAL_CONSTANT __device__ constexpr
#else
#define SMEMTILE_GLOBAL_CONSTANT inline constexpr
#endif
#endif

namespace smemtile {
namespace boundary {

/// Outside the array the tile holds T{} (zero for arithmetic types).
struct Zero {
  static constexpr bool maps_index = false;  ///< fills a value, reads nothing outside
  static constexpr bool is_zero = true;      ///< the value is zero (hardware zero-fill may do it)
  /// The value an element outside the array gets.
  template <class T>
  SMEMTILE_HOST_DEVICE constexpr T value() const {
    return T{};
  }
};

/// Outside the array the tile holds a given value.
template <class V>
struct Constant {
  V fill;                                    ///< the value
  static constexpr bool maps_index = false;  ///< fills a value, reads nothing outside
  static constexpr bool is_zero = false;     ///< not known to be zero at compile time
  /// The value an element outside the array gets, converted to T.
  template <class T>
  SMEMTILE_HOST_DEVICE constexpr T value() const {
    return static_cast<T>(fill);
  }
};

/// Outside the array the tile holds the nearest edge element (replicate): -2 -> 0, n + 1 -> n - 1.
struct Clamp {
  static constexpr bool maps_index = true;  ///< reads an element inside instead
  static constexpr bool is_zero = false;    ///< not a fill
  /// The index inside [0, n) that i stands for.
  SMEMTILE_HOST_DEVICE static constexpr int map_index(int i, int n) { return i < 0 ? 0 : i >= n ? n - 1 : i; }
};

/// The array repeats (wrap around): -1 -> n - 1, n -> 0.
struct Periodic {
  static constexpr bool maps_index = true;  ///< reads an element inside instead
  static constexpr bool is_zero = false;    ///< not a fill
  /// The index inside [0, n) that i stands for.
  SMEMTILE_HOST_DEVICE static constexpr int map_index(int i, int n) {
    const int m = i % n;
    return m < 0 ? m + n : m;
  }
};

/// The array is mirrored about its edge elements, which are not repeated (NumPy's "reflect"):
/// -1 -> 1, -2 -> 2, n -> n - 2. An array of one element maps everything to 0.
struct Reflect {
  static constexpr bool maps_index = true;  ///< reads an element inside instead
  static constexpr bool is_zero = false;    ///< not a fill
  /// The index inside [0, n) that i stands for.
  SMEMTILE_HOST_DEVICE static constexpr int map_index(int i, int n) {
    if (n == 1) return 0;
    const int period = 2 * (n - 1);
    int m = i % period;
    if (m < 0) m += period;
    return m < n ? m : period - m;
  }
};

/// No boundary: the caller states that the copied region lies wholly inside the array (a matrix
/// whose sizes are multiples of the tile, say). Copies then test nothing at run time; debug builds
/// check the statement and trap where it is false.
struct Inside {
  static constexpr bool maps_index = false;     ///< nothing outside is ever read
  static constexpr bool is_zero = false;        ///< not a fill
  static constexpr bool assumes_inside = true;  ///< the region lies inside the array
  /// Never used: nothing lies outside.
  template <class T>
  SMEMTILE_HOST_DEVICE constexpr T value() const {
    return T{};
  }
};

/// Zero outside the array.
SMEMTILE_GLOBAL_CONSTANT Zero zero{};
/// The region lies inside the array: no boundary to apply, nothing tested in release builds.
SMEMTILE_GLOBAL_CONSTANT Inside inside{};
/// The nearest edge element outside the array.
SMEMTILE_GLOBAL_CONSTANT Clamp clamp{};
/// The array wraps around.
SMEMTILE_GLOBAL_CONSTANT Periodic periodic{};
/// The array is mirrored about its edge elements.
SMEMTILE_GLOBAL_CONSTANT Reflect reflect{};
/// `value` outside the array.
template <class V>
SMEMTILE_HOST_DEVICE constexpr Constant<V> constant(V value) {
  return Constant<V>{value};
}

}  // namespace boundary

/// Whether a policy's values outside an array lie within a stencil's reach of the edge crossed, so
/// that a halo tile loaded at that edge holds them already: fill policies (nothing to read), clamp
/// and reflect (the tile's own edge); not periodic (the far side of the array) nor an index policy
/// smemtile does not know.
template <class Boundary>
inline constexpr bool boundary_reads_near_edge = !Boundary::maps_index || std::is_same<Boundary, boundary::Clamp>::value ||
                                                 std::is_same<Boundary, boundary::Reflect>::value;

/// The element an index policy (Clamp, Periodic, Reflect) reads for position g of a rows x cols array:
/// g itself inside, else the element g stands for (map_index is the identity inside [0, n), so no test
/// is needed; callers that test first do so only to skip the map's arithmetic).
template <class Boundary>
SMEMTILE_HOST_DEVICE constexpr Coord boundary_source(Coord g, int rows, int cols) {
  static_assert(Boundary::maps_index, "boundary_source needs an index policy (clamp, periodic, reflect)");
  return Coord{Boundary::map_index(g.row, rows), Boundary::map_index(g.col, cols)};
}

/// boundary_source along one axis of n elements (a plane of a volume, say): the index read for i.
template <class Boundary>
SMEMTILE_HOST_DEVICE constexpr int boundary_source_index(int i, int n) {
  static_assert(Boundary::maps_index, "boundary_source_index needs an index policy (clamp, periodic, reflect)");
  return Boundary::map_index(i, n);
}

namespace detail {
/// Whether a boundary policy states that the region lies inside the array (boundary::Inside).
template <class Boundary, class = void>
struct AssumesInside {
  static constexpr bool value = false;
};
template <class Boundary>
struct AssumesInside<Boundary, decltype(void(Boundary::assumes_inside))> {
  static constexpr bool value = Boundary::assumes_inside;
};
}  // namespace detail
}  // namespace smemtile
