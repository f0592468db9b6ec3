// smemtile/block/fragment.cuh: register fragments, N consecutive elements of a tile's row (or of a
// global row) moved as the widest vectors their alignment allows.
//
//   __shared__ smemtile::StaticTile<float, 8, 128, 4> a;             // k-major A tile
//   auto a_frag = smemtile::load_fragment<8>(a, k, 8 * ty);          // two LDS.128
//   auto c = smemtile::load_fragment<4>(C, row, col);                // one LDG.E.128 (C aligned)
//   for (int i = 0; i < 4; ++i) c[i] = alpha * acc[i] + beta * c[i];
//   smemtile::store_fragment(C, row, col, c);                        // one STG.E.128
//
// The width is fixed at compile time from the types: a tile's layout must keep the fragment's
// vectors whole (its vector_bytes and row stride), a global view's type must guarantee the rows'
// alignment (make_aligned_matrix); where they cannot, compilation stops and says what to change.
// The fragment's first column must be a multiple of the vector's elements, which debug builds check
// with the bounds. fragment_bank_cost() gives the bank cost of the pattern a warp's lanes read.
#pragma once

#include <cstring>      // std::memcpy (register reinterpretation, folded by the compiler)
#include <cuda/std/mdspan>  // cuda::std::mdspan
#include <type_traits>  // std::remove_const_t

#include "../config.cuh"             // SMEMTILE_DEVICE, SMEMTILE_HOST_DEVICE, SMEMTILE_CHECK
#include "../core/banks.cuh"         // WarpAccess, bank_cost
#include "../core/coord.cuh"         // Coord
#include "../core/global_view.cuh"   // guaranteed_row_alignment
#include "../core/layout.cuh"        // layout_contains
#include "../core/tile_ref.cuh"      // tile_ref
#include "../core/vector_type.cuh"   // VectorOf

namespace smemtile {

/// N elements of T held in registers (a plain array: index it in unrolled loops).
template <class T, int N>
struct Fragment {
  static_assert(N > 0, "smemtile::Fragment: at least one element");
  T values[N];  ///< the elements
  /// Element i.
  SMEMTILE_HOST_DEVICE constexpr T& operator[](int i) { return values[i]; }
  /// Element i, read-only.
  SMEMTILE_HOST_DEVICE constexpr const T& operator[](int i) const { return values[i]; }
  /// N.
  SMEMTILE_HOST_DEVICE static constexpr int size() { return N; }
};

/// The access width (bytes) that N consecutive elements of elem_bytes move with: the largest power
/// of two up to 16 that divides their bytes.
SMEMTILE_HOST_DEVICE constexpr int fragment_access_bytes(int elem_bytes, int n) {
  int bytes = 16;
  while (bytes > elem_bytes && (n * elem_bytes) % bytes != 0) bytes /= 2;
  return bytes < elem_bytes ? elem_bytes : bytes;
}

/// Whether a layout keeps every N-element fragment starting on a multiple of its vector whole and
/// aligned: its rows hold such vectors together, and its row stride is a whole number of them.
template <class Layout>
SMEMTILE_HOST_DEVICE constexpr bool layout_allows_fragment(const Layout& layout, int elem_bytes, int n) {
  const int bytes = fragment_access_bytes(elem_bytes, n);
  if (bytes == elem_bytes) return Layout::vector_bytes != 0 || n == 1;
  return Layout::vector_bytes >= bytes && (layout.row_stride() * elem_bytes) % bytes == 0;
}

/// The shared-memory bank cost of a warp reading (or writing) N-element fragments of a tile, lane
/// `lane` at `at(lane)` (a constexpr callable returning a Coord): one request per vector of the
/// fragment, summed. static_assert it is conflict-free next to the kernel that uses the pattern.
template <class Layout, class LaneCoord>
SMEMTILE_HOST_DEVICE constexpr BankCost fragment_bank_cost(const Layout& layout, int elem_bytes, int n, LaneCoord at,
                                                           AccessOp op = AccessOp::load) {
  const int bytes = fragment_access_bytes(elem_bytes, n);
  const int per = bytes / elem_bytes;
  BankCost total{0, 0, 0, 0};
  for (int k = 0; k < n / per; ++k) {
    WarpAccess access{{}, 0u, bytes, op};
    for (int lane = 0; lane < warp_lanes; ++lane) {
      const Coord c = at(lane);
      access.byte_address[lane] = static_cast<unsigned>(layout.offset(c.row, c.col + k * per) * elem_bytes);
      access.active_mask |= 1u << lane;
    }
    total = total + bank_cost(access);
  }
  return total;
}

#if defined(__CUDACC__)

namespace detail {

template <class T>
struct IsMdspan : std::false_type {};
template <class T, class E, class L, class A>
struct IsMdspan<cuda::std::mdspan<T, E, L, A>> : std::true_type {};

template <class Layout, class Element, int N>
SMEMTILE_DEVICE void check_fragment_layout() {
  constexpr int elem = static_cast<int>(sizeof(Element));
  static_assert(Layout::vector_bytes != 0 || N == 1,
                "smemtile fragment: this tile's rows are not contiguous (a transposed view): store the tile the "
                "other way round (k-major, copy_global_to_tile_transposed) and read its rows");
  static_assert(Layout::vector_bytes == 0 || Layout::vector_bytes >= fragment_access_bytes(elem, N),
                "smemtile fragment: the layout keeps fewer bytes of a row together than the fragment's vector; "
                "read a shorter fragment or use a padded StaticTile");
  if constexpr (Layout::is_static && Layout::vector_bytes != 0)
    static_assert(layout_allows_fragment(Layout{}, elem, N),
                  "smemtile fragment: the tile's row stride is not a whole number of the fragment's vectors, so "
                  "they cannot all be aligned; pad the rows to a multiple of 16 bytes (e.g. Pad = 4 floats)");
}

// Element pointer and debug checks of a tile fragment.
template <int N, class View>
SMEMTILE_DEVICE auto fragment_pointer(const View& view, int row, int col) {
  using Element = std::remove_const_t<typename View::element_type>;
  constexpr int per = fragment_access_bytes(static_cast<int>(sizeof(Element)), N) / static_cast<int>(sizeof(Element));
  SMEMTILE_CHECK(layout_contains(view.layout(), row, col) && layout_contains(view.layout(), row, col + N - 1) &&
                     col % per == 0,
                 "smemtile fragment: outside the tile, or its first column is not a multiple of its vector "
                 "(values: row, col, N, elements per vector)",
                 row, col, N, per);
  if constexpr (!View::layout_type::is_static)
    SMEMTILE_CHECK(layout_allows_fragment(view.layout(), static_cast<int>(sizeof(Element)), N),
                   "smemtile fragment: the tile's row stride is not a whole number of the fragment's vectors "
                   "(values: row stride, N)", view.layout().row_stride(), N, 0, 0);
  return view.data() + view.layout().offset(row, col);
}

// Where piece k (per elements) of a fragment at (row, col) lies: the first piece is `first`; the
// others go through the layout, since a swizzled layout keeps only its vector_bytes together (a
// SwizzledTile<float4>'s 2-element fragments, a TransposeTile's 3-float ones crossing a 16-byte
// chunk read elements of other columns as first + k * per). For row-contiguous layouts the
// compiler folds the offset to first + k * per.
template <int N, int Per, class View, class Element>
SMEMTILE_DEVICE Element* fragment_piece(const View& view, Element* first, int row, int col, int k) {
  if (N == Per || k == 0) return first;
  return const_cast<Element*>(view.data()) + view.layout().offset(row, col + k * Per);
}

// Moves N elements between `from` and `to` in Bytes-wide vectors whose k-th starts at piece(k).
template <int Bytes, int N, class Element, class Piece>
SMEMTILE_DEVICE void load_pieces(Element (&to)[N], Piece piece) {
  using Vector = typename VectorOf<Bytes>::type;
  constexpr int per = Bytes / static_cast<int>(sizeof(Element));
#pragma unroll
  for (int k = 0; k < N / per; ++k) {
    const Vector v = *reinterpret_cast<const Vector*>(piece(k));
    std::memcpy(&to[k * per], &v, Bytes);
  }
}
template <int Bytes, int N, class Element, class Piece>
SMEMTILE_DEVICE void store_pieces(const Element (&from)[N], Piece piece) {
  using Vector = typename VectorOf<Bytes>::type;
  constexpr int per = Bytes / static_cast<int>(sizeof(Element));
#pragma unroll
  for (int k = 0; k < N / per; ++k) {
    Vector v;
    std::memcpy(&v, &from[k * per], Bytes);
    *reinterpret_cast<Vector*>(piece(k)) = v;
  }
}

template <class Global, int Bytes>
SMEMTILE_DEVICE void check_global_fragment_type() {
  static_assert(Global::rank() == 2, "smemtile fragment: a global fragment is read from a rank-2 mdspan");
  static_assert(guaranteed_row_alignment<Global>() >= static_cast<std::size_t>(Bytes),
                "smemtile fragment: the global view's type does not guarantee the rows' alignment that the "
                "fragment's vectors need; make it with make_aligned_matrix<16>(ptr, rows, cols, pitch)");
}

}  // namespace detail

/// tile(row, col) ... tile(row, col + N - 1) in registers, read as the widest vectors the layout
/// keeps whole (LDS.128 for four floats). col must be a multiple of the vector's elements.
template <int N, class Tile, class = std::enable_if_t<!detail::IsMdspan<Tile>::value>>
SMEMTILE_DEVICE auto load_fragment(const Tile& tile, int row, int col) {
  static_assert(!std::is_pointer<Tile>::value,
                "smemtile load_fragment: pass a tile (StaticTile, TileRef) or an mdspan (make_global_matrix), not a "
                "raw pointer");
  const auto view = tile_ref(tile);
  using View = decltype(view);
  using Element = std::remove_const_t<typename View::element_type>;
  detail::check_fragment_layout<typename View::layout_type, Element, N>();
  constexpr int bytes = fragment_access_bytes(static_cast<int>(sizeof(Element)), N);
  constexpr int per = bytes / static_cast<int>(sizeof(Element));
  const Element* first = detail::fragment_pointer<N>(view, row, col);
  Fragment<Element, N> fragment;
  detail::load_pieces<bytes>(fragment.values, [&](int k) { return detail::fragment_piece<N, per>(view, first, row, col, k); });
  return fragment;
}

/// Writes the fragment to tile(row, col) ... tile(row, col + N - 1), as load_fragment reads it.
template <class Tile, class T, int N, class = std::enable_if_t<!detail::IsMdspan<std::remove_cv_t<std::remove_reference_t<Tile>>>::value>>
SMEMTILE_DEVICE void store_fragment(Tile&& tile, int row, int col, const Fragment<T, N>& fragment) {
  static_assert(!std::is_pointer<std::remove_reference_t<Tile>>::value,
                "smemtile store_fragment: pass a tile (StaticTile, TileRef) or an mdspan (make_global_matrix), not a "
                "raw pointer");
  auto view = tile_ref(tile);
  using View = decltype(view);
  using Element = std::remove_const_t<typename View::element_type>;
  static_assert(!std::is_const<typename View::element_type>::value, "smemtile store_fragment: the tile is read-only");
  static_assert(std::is_same<Element, T>::value, "smemtile store_fragment: the fragment's and the tile's element types differ");
  detail::check_fragment_layout<typename View::layout_type, Element, N>();
  constexpr int bytes = fragment_access_bytes(static_cast<int>(sizeof(Element)), N);
  constexpr int per = bytes / static_cast<int>(sizeof(Element));
  Element* first = const_cast<Element*>(detail::fragment_pointer<N>(view, row, col));
  detail::store_pieces<bytes>(fragment.values, [&](int k) { return detail::fragment_piece<N, per>(view, first, row, col, k); });
}

/// global(row, col) ... global(row, col + N - 1) in registers (a rank-2 mdspan whose type
/// guarantees the rows' alignment: make_aligned_matrix). col must be a multiple of the vector's
/// elements; debug builds check it and the bounds.
template <int N, class T, class Extents, class Layout, class Accessor>
SMEMTILE_DEVICE auto load_fragment(const cuda::std::mdspan<T, Extents, Layout, Accessor>& global, int row, int col) {
  using Global = cuda::std::mdspan<T, Extents, Layout, Accessor>;
  using Element = std::remove_const_t<T>;
  constexpr int bytes = fragment_access_bytes(static_cast<int>(sizeof(Element)), N);
  detail::check_global_fragment_type<Global, bytes>();
  SMEMTILE_CHECK(row >= 0 && row < static_cast<int>(global.extent(0)) && col >= 0 &&
                     col + N <= static_cast<int>(global.extent(1)) && col % (bytes / static_cast<int>(sizeof(Element))) == 0,
                 "smemtile load_fragment: outside the array or not aligned (values: row, col, N, rows)", row, col, N,
                 global.extent(0));
  const Element* first = global.data_handle() + static_cast<long long>(row) * global.stride(0) + col;
  Fragment<Element, N> fragment;
  detail::load_pieces<bytes>(fragment.values, [&](int k) { return first + k * (bytes / static_cast<int>(sizeof(Element))); });
  return fragment;
}

/// Writes the fragment to global(row, col) ... global(row, col + N - 1), as load_fragment reads it.
template <class T, class Extents, class Layout, class Accessor, class U, int N>
SMEMTILE_DEVICE void store_fragment(const cuda::std::mdspan<T, Extents, Layout, Accessor>& global, int row, int col,
                                    const Fragment<U, N>& fragment) {
  using Global = cuda::std::mdspan<T, Extents, Layout, Accessor>;
  using Element = T;
  static_assert(!std::is_const<Element>::value, "smemtile store_fragment: the global array is read-only (const)");
  static_assert(std::is_same<Element, U>::value, "smemtile store_fragment: the fragment's and the array's element types differ");
  constexpr int bytes = fragment_access_bytes(static_cast<int>(sizeof(Element)), N);
  detail::check_global_fragment_type<Global, bytes>();
  SMEMTILE_CHECK(row >= 0 && row < static_cast<int>(global.extent(0)) && col >= 0 &&
                     col + N <= static_cast<int>(global.extent(1)) && col % (bytes / static_cast<int>(sizeof(Element))) == 0,
                 "smemtile store_fragment: outside the array or not aligned (values: row, col, N, rows)", row, col, N,
                 global.extent(0));
  Element* first = global.data_handle() + static_cast<long long>(row) * global.stride(0) + col;
  detail::store_pieces<bytes>(fragment.values, [&](int k) { return first + k * (bytes / static_cast<int>(sizeof(Element))); });
}

#endif  // __CUDACC__

}  // namespace smemtile
