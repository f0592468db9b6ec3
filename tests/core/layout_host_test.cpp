// Host tests of the layouts behind StaticTile (plain C++: no CUDA compiler involved). Every offset
// is compared with what the compiler itself computes for the raw array the seeds declare.
#include <smemtile/core/layout.cuh>

#include <cstddef>
#include <set>
#include <type_traits>
#include <utility>

#include "catch.hpp"

namespace {

using smemtile::Coord;

// Shapes the tests walk: square, the seeds' rectangles, non-powers of two, a single row/column.
struct Shape {
  int rows;
  int cols;
};
constexpr Shape shapes[] = {{32, 32}, {16, 32}, {32, 16}, {7, 13}, {33, 5}, {1, 1}, {1, 9}, {9, 1}, {3, 31}};

// Byte offset of raw[r][c] in `T raw[Rows][Cols + Pad]`, as the compiler lays the array out.
template <class T, int Rows, int Cols, int Pad>
std::ptrdiff_t raw_byte_offset(int r, int c) {
  static T raw[Rows][Cols + Pad];
  return reinterpret_cast<const char*>(&raw[r][c]) - reinterpret_cast<const char*>(&raw[0][0]);
}

template <class T, int Rows, int Cols, int Pad>
void require_offsets_of_raw_array() {
  using L = smemtile::PaddedLayout<Rows, Cols, Pad>;
  INFO("T of " << sizeof(T) << " bytes, tile [" << Rows << "][" << Cols << "+" << Pad << "]");
  REQUIRE(L::rows() == Rows);
  REQUIRE(L::cols() == Cols);
  REQUIRE(L::row_stride() == Cols + Pad);
  REQUIRE(static_cast<std::size_t>(L::storage_size()) * sizeof(T) == sizeof(T[Rows][Cols + Pad]));
  for (int r = 0; r < Rows; ++r)
    for (int c = 0; c < Cols; ++c)
      REQUIRE(static_cast<std::ptrdiff_t>(L::offset(r, c) * sizeof(T)) == raw_byte_offset<T, Rows, Cols, Pad>(r, c));
}

struct alignas(16) V16 {
  int x, y, z, w;
};

}  // namespace

TEST_CASE("padded layout offsets are those of a raw T[Rows][Cols + Pad] array") {
  require_offsets_of_raw_array<int, 32, 32, 0>();
  require_offsets_of_raw_array<int, 32, 32, 1>();
  require_offsets_of_raw_array<int, 16, 32, 1>();
  require_offsets_of_raw_array<int, 16, 32, 2>();
  require_offsets_of_raw_array<int, 32, 16, 0>();
  require_offsets_of_raw_array<char, 7, 13, 3>();
  require_offsets_of_raw_array<short, 33, 5, 2>();
  require_offsets_of_raw_array<double, 5, 33, 1>();
  require_offsets_of_raw_array<V16, 9, 7, 3>();
  require_offsets_of_raw_array<int, 1, 1, 0>();
  require_offsets_of_raw_array<int, 1, 17, 5>();
  require_offsets_of_raw_array<int, 17, 1, 0>();
}

TEST_CASE("padded layout arithmetic is usable in constant expressions") {
  using L = smemtile::PaddedLayout<16, 32, 2>;
  static_assert(L::storage_size() == 16 * 34, "16 rows of 32 + 2 elements");
  static_assert(L::offset(15, 31) == 15 * 34 + 31, "last element");
  static_assert(smemtile::PaddedLayout<7, 13>::storage_size() == 91, "no padding by default");
  static_assert(smemtile::row_major_coord(40, 13).row == 3 && smemtile::row_major_coord(40, 13).col == 1, "");
  static_assert(smemtile::col_major_coord(40, 7).row == 5 && smemtile::col_major_coord(40, 7).col == 5, "");
  SUCCEED("checked at compile time");
}

TEST_CASE("a runtime padded layout computes the offsets of the static one") {
  for (const Shape s : shapes) {
    for (int pad = 0; pad <= 3; ++pad) {
      const smemtile::RuntimePaddedLayout runtime{s.rows, s.cols, pad};
      INFO(s.rows << "x" << s.cols << " pad " << pad);
      REQUIRE(runtime.storage_size() == s.rows * (s.cols + pad));
      // Row r starts one stride after row r - 1; elements of a row are contiguous.
      int expected_offset = 0;
      for (int r = 0; r < s.rows; ++r) {
        for (int c = 0; c < s.cols; ++c) REQUIRE(runtime.offset(r, c) == expected_offset + c);
        expected_offset += s.cols + pad;
      }
    }
  }
}

TEST_CASE("row_major_coord and col_major_coord enumerate a tile in row and column order") {
  for (const Shape s : shapes) {
    INFO(s.rows << "x" << s.cols);
    unsigned k = 0;
    for (int r = 0; r < s.rows; ++r)
      for (int c = 0; c < s.cols; ++c, ++k) {
        const Coord at = smemtile::row_major_coord(k, static_cast<unsigned>(s.cols));
        REQUIRE(at.row == r);
        REQUIRE(at.col == c);
      }
    k = 0;
    for (int c = 0; c < s.cols; ++c)
      for (int r = 0; r < s.rows; ++r, ++k) {
        const Coord at = smemtile::col_major_coord(k, static_cast<unsigned>(s.rows));
        REQUIRE(at.row == r);
        REQUIRE(at.col == c);
      }
  }
}

TEST_CASE("a transposed layout swaps rows and columns over the same storage") {
  using L = smemtile::PaddedLayout<7, 13, 2>;
  constexpr auto t = smemtile::transposed_layout(L{});
  static_assert(t.rows() == 13 && t.cols() == 7, "shape swapped");
  static_assert(t.storage_size() == L::storage_size(), "same storage");
  for (int r = 0; r < t.rows(); ++r)
    for (int c = 0; c < t.cols(); ++c) REQUIRE(t.offset(r, c) == L::offset(c, r));
  // Transposing back gives the original layout type, not a doubly wrapped one.
  static_assert(std::is_same<decltype(smemtile::transposed_layout(t)), L>::value, "transpose is an involution");
  static_assert(smemtile::SwappedAxesLayout<L>::is_static, "a static layout stays static when transposed");
}

// The seeds' setRowReadCol on int[BDIMY][BDIMX + IPAD]: the thread with idx reads
// tile[idx % BDIMY][idx / BDIMY]. The library spells it tile.transposed()(transposed coordinate)
// with the coordinate row_major_coord(idx, BDIMY), or tile.col_major(idx).
template <int BDIMX, int BDIMY, int IPAD>
void require_seed_read_mapping() {
  using L = smemtile::PaddedLayout<BDIMY, BDIMX, IPAD>;
  INFO("block (" << BDIMX << ", " << BDIMY << ") IPAD " << IPAD);
  std::set<int> read_offsets;
  for (unsigned idx = 0; idx < BDIMX * BDIMY; ++idx) {
    const unsigned irow = idx / BDIMY, icol = idx % BDIMY;
    const std::ptrdiff_t raw = raw_byte_offset<int, BDIMY, BDIMX, IPAD>(int(icol), int(irow)) / sizeof(int);
    const Coord transposed_at = smemtile::row_major_coord(idx, BDIMY);
    REQUIRE(smemtile::transposed_layout(L{}).offset(transposed_at.row, transposed_at.col) == raw);
    const Coord col_major_at = smemtile::col_major_coord(idx, BDIMY);
    REQUIRE(L::offset(col_major_at.row, col_major_at.col) == raw);
    read_offsets.insert(static_cast<int>(raw));
  }
  // Every element written by the block is read exactly once: the read is a permutation.
  REQUIRE(read_offsets.size() == static_cast<std::size_t>(BDIMX * BDIMY));
}

TEST_CASE("the seeds' (irow, icol) read is the transposed view at the thread's transposed coordinate") {
  require_seed_read_mapping<32, 16, 0>();
  require_seed_read_mapping<32, 16, 1>();
  require_seed_read_mapping<32, 16, 2>();
  require_seed_read_mapping<32, 32, 1>();
  require_seed_read_mapping<13, 7, 3>();
  require_seed_read_mapping<5, 33, 0>();
}
