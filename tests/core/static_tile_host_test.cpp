// Host tests of StaticTile (plain C++: the header compiles without nvcc). A StaticTile must be
// exactly the raw array the seeds declare: same size, same alignment, same element addresses.
#include <smemtile/core/static_tile.cuh>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <type_traits>

#include "catch.hpp"

namespace {

struct alignas(16) V16 {  // a 16-byte element like int4
  int x, y, z, w;
};

// sizeof, alignment and triviality of StaticTile<T, Rows, Cols, Pad> against T[Rows][Cols + Pad].
template <class T, int Rows, int Cols, int Pad>
constexpr bool is_raw_array_equivalent() {
  using Tile = smemtile::StaticTile<T, Rows, Cols, Pad>;
  static_assert(sizeof(Tile) == static_cast<std::size_t>(Rows) * (Cols + Pad) * sizeof(T),
                "a StaticTile is exactly its storage");
  static_assert(sizeof(Tile) == sizeof(T[Rows][Cols + Pad]), "the size of the seeds' raw array");
  // Aligned like its element, or to 16 bytes when the storage is whole 16-byte vectors (copies move
  // those with 16-byte accesses); sizeof is the storage either way.
  constexpr std::size_t storage_bytes = static_cast<std::size_t>(Rows) * (Cols + Pad) * sizeof(T);
  static_assert(alignof(Tile) == (storage_bytes % 16 == 0 && alignof(T) < 16 ? 16 : alignof(T)),
                "aligned like its element, or to 16 bytes for whole vectors");
  static_assert(std::is_trivially_default_constructible<Tile>::value, "declarable __shared__");
  static_assert(std::is_trivially_copyable<Tile>::value, "no hidden state");
  static_assert(std::is_standard_layout<Tile>::value, "storage first, nothing else");
  return true;
}

static_assert(is_raw_array_equivalent<char, 7, 13, 0>(), "");
static_assert(is_raw_array_equivalent<char, 33, 5, 3>(), "");
static_assert(is_raw_array_equivalent<unsigned char, 1, 1, 0>(), "");
static_assert(is_raw_array_equivalent<short, 32, 32, 1>(), "");
static_assert(is_raw_array_equivalent<std::uint16_t, 7, 13, 2>(), "");
static_assert(is_raw_array_equivalent<int, 32, 32, 0>(), "");
static_assert(is_raw_array_equivalent<int, 32, 32, 1>(), "");
static_assert(is_raw_array_equivalent<int, 16, 32, 2>(), "");
static_assert(is_raw_array_equivalent<float, 32, 16, 0>(), "");
static_assert(is_raw_array_equivalent<double, 33, 5, 1>(), "");
static_assert(is_raw_array_equivalent<double, 32, 32, 3>(), "");
static_assert(is_raw_array_equivalent<V16, 7, 13, 1>(), "");
static_assert(is_raw_array_equivalent<V16, 32, 16, 2>(), "");
// The largest tile that fits the 48 KB static limit exactly.
static_assert(is_raw_array_equivalent<int, 96, 128, 0>(), "");
static_assert(sizeof(smemtile::StaticTile<int, 96, 128>) == smemtile::max_static_shared_bytes, "");

// Element addresses of a tile object against those of the raw array, through every accessor.
template <class T, int Rows, int Cols, int Pad>
void require_accessors_address_raw_elements() {
  using Tile = smemtile::StaticTile<T, Rows, Cols, Pad>;
  INFO("T of " << sizeof(T) << " bytes, tile [" << Rows << "][" << Cols << "+" << Pad << "]");
  // Heap objects: the largest shapes would be heavy on the stack.
  auto tile = std::make_unique<Tile>();
  auto raw = std::make_unique<T[][Cols + Pad]>(Rows);
  const auto* tile_base = reinterpret_cast<const char*>(tile->data());
  const auto* raw_base = reinterpret_cast<const char*>(&raw[0][0]);
  auto tile_bytes = [&](const T& element) { return reinterpret_cast<const char*>(&element) - tile_base; };
  auto raw_bytes = [&](int r, int c) { return reinterpret_cast<const char*>(&raw[r][c]) - raw_base; };

  REQUIRE(reinterpret_cast<const void*>(tile.get()) == tile->data());  // storage comes first
  REQUIRE(tile->rows() == Rows);
  REQUIRE(tile->cols() == Cols);
  REQUIRE(tile->size() == Rows * Cols);
  auto view = tile->transposed();
  REQUIRE(view.rows() == Cols);
  REQUIRE(view.cols() == Rows);
  const Tile& const_tile = *tile;

  unsigned k = 0;  // position in a row-major walk
  for (int r = 0; r < Rows; ++r) {
    for (int c = 0; c < Cols; ++c, ++k) {
      REQUIRE(tile_bytes((*tile)(r, c)) == raw_bytes(r, c));
      REQUIRE(tile_bytes((*tile)(smemtile::Coord{r, c})) == raw_bytes(r, c));
      REQUIRE(tile_bytes(const_tile(r, c)) == raw_bytes(r, c));
      REQUIRE(tile_bytes(view(c, r)) == raw_bytes(r, c));
      REQUIRE(tile_bytes(tile->ref()(r, c)) == raw_bytes(r, c));
      REQUIRE(tile_bytes(tile->row_major(k)) == raw_bytes(r, c));
      REQUIRE(tile_bytes(view.col_major(k)) == raw_bytes(r, c));  // column-major of the transpose
    }
  }
  k = 0;  // position in a column-major walk
  for (int c = 0; c < Cols; ++c)
    for (int r = 0; r < Rows; ++r, ++k) {
      REQUIRE(tile_bytes(tile->col_major(k)) == raw_bytes(r, c));
      REQUIRE(tile_bytes(const_tile.col_major(k)) == raw_bytes(r, c));
    }
}

}  // namespace

TEST_CASE("StaticTile accessors address the elements of the raw array") {
  require_accessors_address_raw_elements<int, 32, 32, 0>();
  require_accessors_address_raw_elements<int, 32, 32, 1>();
  require_accessors_address_raw_elements<int, 16, 32, 2>();
  require_accessors_address_raw_elements<char, 7, 13, 3>();
  require_accessors_address_raw_elements<short, 33, 5, 1>();
  require_accessors_address_raw_elements<double, 13, 7, 2>();
  require_accessors_address_raw_elements<V16, 5, 33, 3>();
  require_accessors_address_raw_elements<int, 1, 1, 0>();
}

TEST_CASE("a 16-byte element keeps its alignment inside a padded tile") {
  using Tile = smemtile::StaticTile<V16, 7, 13, 1>;
  static_assert(alignof(Tile) == 16, "");
  auto tile = std::make_unique<Tile>();
  for (int r = 0; r < 7; ++r)
    for (int c = 0; c < 13; ++c) REQUIRE(reinterpret_cast<std::uintptr_t>(&(*tile)(r, c)) % 16 == 0);
}

TEST_CASE("the transposed view of the transposed view is the tile's own layout") {
  using Tile = smemtile::StaticTile<int, 7, 13, 2>;
  auto tile = std::make_unique<Tile>();
  auto twice = tile->transposed().transposed();
  static_assert(std::is_same<decltype(twice.layout()), const Tile::layout_type&>::value, "no double wrapping");
  for (int r = 0; r < 7; ++r)
    for (int c = 0; c < 13; ++c) REQUIRE(&twice(r, c) == &(*tile)(r, c));
}

TEST_CASE("a const tile's elements are const, a const view (TileRef) still writes its elements") {
  using Tile = smemtile::StaticTile<int, 4, 6, 1>;
  using Ref = smemtile::TileRef<int, smemtile::RuntimePaddedLayout>;
  static_assert(std::is_same<decltype(std::declval<const Tile&>()(0, 0)), const int&>::value, "owning: const");
  static_assert(std::is_same<decltype(std::declval<const Tile&>().col_major(0u)), const int&>::value, "owning");
  static_assert(std::is_same<decltype(std::declval<const Tile&>().transposed()(0, 0)), const int&>::value, "owning");
  static_assert(std::is_same<decltype(std::declval<const Ref&>()(0, 0)), int&>::value, "view: writable");
  static_assert(std::is_same<decltype(std::declval<const Ref&>().row_major(0u)), int&>::value, "view");
  static_assert(std::is_same<decltype(std::declval<const Ref&>().transposed()(0, 0)), int&>::value, "view");

  int storage[4 * 7] = {};
  const Ref view{storage, smemtile::RuntimePaddedLayout{4, 6, 1}};
  view(2, 3) = 42;                 // through a const view
  view.transposed()(5, 1) = 7;     // element (1, 5)
  REQUIRE(storage[2 * 7 + 3] == 42);
  REQUIRE(storage[1 * 7 + 5] == 7);
}
