// Host tests for the transpose capability, compiled by the C++ compiler (no nvcc):
//  - TransposeLayout<R, C, E> (core/transpose_layout.cuh): a bijection onto [0, R*C), 16-byte chunks
//    kept whole, rows kept in their row, and the chunk swizzle itself, written out independently;
//  - the register-block pattern of block/transpose.cuh: transpose_block enumerates every block once,
//    transpose_block_access addresses the expected blocks, and the bank model (and an independent
//    count of the chunk slots / banks a phase touches) finds it conflict-free;
//  - the row-major copy into a TransposeLayout tile is conflict-free for every width it may use;
//  - transpose_argument_error (device/transpose.cuh): which argument sets device_transpose refuses
//    and why.
#include <smemtile/smemtile.cuh>

#include <algorithm>
#include <climits>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "catch.hpp"

using smemtile::TransposeLayout;
using smemtile::TransposeShape;

namespace {

bool contains_message(const char* error, const char* part) {
  return error != nullptr && std::string(error).find(part) != std::string::npos;
}

// ---- TransposeLayout: properties checked element by element ---------------------------------------

// The swizzle as documented, written without the library: 16-byte chunk q of row r sits in chunk
// slot q ^ ((r / BR) % 8) of the row, BR = 16 / E block rows (the XOR only flips the low three bits:
// inside a 128-byte line). A block is BR rows of BC = one chunk (E >= 4) or one 4-byte word.
template <int E>
constexpr int reference_block_rows() {
  return 16 / E;
}
template <int E>
constexpr int reference_block_cols() {
  return E >= 4 ? 16 / E : 4 / E;
}
template <int R, int C, int E>
int reference_offset(int r, int c) {
  const int chunk = 16 / E;
  const int slot = (c / chunk) ^ ((r / reference_block_rows<E>()) % 8);
  return r * C + slot * chunk + c % chunk;
}

template <int R, int C, int E>
void check_transpose_layout() {
  using Layout = TransposeLayout<R, C, E>;
  constexpr Layout layout{};
  INFO("TransposeLayout<" << R << ", " << C << ", " << E << ">");
  static_assert(Layout::is_static && Layout::rank == 2, "a static 2D layout");
  static_assert(Layout::rows() == R && Layout::cols() == C && Layout::row_stride() == C, "shape");
  static_assert(Layout::storage_size() == R * C, "no padding");
  static_assert(Layout::chunk_elems == 16 / E, "elements per 16-byte chunk");
  static_assert(Layout::block_rows == reference_block_rows<E>() && Layout::block_cols == reference_block_cols<E>(),
                "block shape");
  static_assert(Layout::base_alignment == 128 && Layout::vector_bytes == 16, "128-byte lines, 16-byte chunks");
  constexpr int chunk = 16 / E;

  std::vector<int> uses(static_cast<std::size_t>(R) * C, 0);
  int out_of_range = 0, wrong_row = 0, not_reference = 0, split_chunks = 0, misaligned_chunks = 0;
  for (int r = 0; r < R; ++r) {
    for (int c = 0; c < C; ++c) {
      const int offset = layout.offset(r, c);
      if (offset < 0 || offset >= R * C) {
        ++out_of_range;
        continue;
      }
      ++uses[static_cast<std::size_t>(offset)];
      if (offset / C != r) ++wrong_row;
      if (offset != reference_offset<R, C, E>(r, c)) ++not_reference;
    }
    for (int c0 = 0; c0 < C; c0 += chunk) {
      const int first = layout.offset(r, c0);
      if (first % chunk != 0) ++misaligned_chunks;  // chunks start on 16-byte boundaries
      for (int i = 1; i < chunk; ++i)
        if (layout.offset(r, c0 + i) != first + i) ++split_chunks;
    }
  }
  CHECK(out_of_range == 0);
  CHECK(wrong_row == 0);
  CHECK(not_reference == 0);
  CHECK(split_chunks == 0);
  CHECK(misaligned_chunks == 0);
  int unused = 0, reused = 0;
  for (int n : uses) {
    unused += n == 0;
    reused += n > 1;
  }
  CHECK(unused == 0);  // onto: every storage slot holds an element ...
  CHECK(reused == 0);  // ... and only one (one-to-one)
}

// ---- the block pattern ----------------------------------------------------------------------------

// Every (k, m) of the tile's (R / BR) x (C / BC) blocks exactly once, in the documented order: eight
// down (index % 8), then across, then the next eight block rows.
template <int R, int C, int E>
void check_block_enumeration() {
  constexpr int BR = TransposeLayout<R, C, E>::block_rows, BC = TransposeLayout<R, C, E>::block_cols;
  constexpr int down = R / BR, across = C / BC;
  INFO("TransposeLayout<" << R << ", " << C << ", " << E << ">, blocks " << BR << " x " << BC);
  std::vector<int> seen(static_cast<std::size_t>(down) * across, 0);
  int outside = 0, not_documented_order = 0;
  for (int index = 0; index < down * across; ++index) {
    const smemtile::TransposeBlock b = smemtile::transpose_block(index, across);
    if (b.k < 0 || b.k >= down || b.m < 0 || b.m >= across) {
      ++outside;
      continue;
    }
    ++seen[static_cast<std::size_t>(b.k) * across + b.m];
    const int group = index / 8;
    if (b.k != (group / across) * 8 + index % 8 || b.m != group % across) ++not_documented_order;
  }
  CHECK(outside == 0);
  CHECK(not_documented_order == 0);
  int missing = 0, repeated = 0;
  for (int n : seen) {
    missing += n == 0;
    repeated += n > 1;
  }
  CHECK(missing == 0);
  CHECK(repeated == 0);
  // The first blocks, spelled out: eight down the first unit column, then the second unit column.
  for (int i = 0; i < 8; ++i) {
    CHECK(smemtile::transpose_block(i, across).k == i);
    CHECK(smemtile::transpose_block(i, across).m == 0);
    CHECK(smemtile::transpose_block(8 + i, across).k == i);
    CHECK(smemtile::transpose_block(8 + i, across).m == 1 % across);
  }
}

// transpose_block_access of warps 0 and 1: lane l reads unit (BC*m .. BC*m + BC-1) of tile row
// BR*k + j of block 32*warp + l, at that element's layout offset; the phases (eight 16-byte lanes, or
// all 32 lanes for 4-byte words) touch distinct chunk slots / banks, counted without the bank model.
template <int R, int C, int E>
void check_block_access() {
  using Layout = TransposeLayout<R, C, E>;
  constexpr Layout layout{};
  constexpr int BR = Layout::block_rows, BC = Layout::block_cols;
  constexpr int across = C / BC;
  constexpr int blocks = (R / BR) * across;
  constexpr int unit_bytes = BC * E;
  INFO("TransposeLayout<" << R << ", " << C << ", " << E << ">, blocks " << BR << " x " << BC);
  for (int warp = 0; warp < 2; ++warp) {
    for (int j = 0; j < BR; ++j) {
      const smemtile::WarpAccess access =
          smemtile::transpose_block_access(layout, warp, j, smemtile::AccessOp::load);
      CHECK(access.width_bytes == unit_bytes);
      CHECK(access.op == smemtile::AccessOp::load);
      int wrong_address = 0, wrong_activity = 0;
      for (int lane = 0; lane < 32; ++lane) {
        const int index = warp * 32 + lane;
        const bool active = index < blocks;
        if (access.active(lane) != active) ++wrong_activity;
        if (!active) continue;
        const int group = index / 8;
        const int k = (group / across) * 8 + index % 8, m = group % across;
        const unsigned expected = static_cast<unsigned>(reference_offset<R, C, E>(BR * k + j, BC * m) * E);
        if (access.byte_address[lane] != expected) ++wrong_address;
      }
      CHECK(wrong_activity == 0);
      CHECK(wrong_address == 0);
      // Independent bank count: 16-byte units are served eight lanes per phase, which must use the
      // eight distinct 16-byte slots of a 128-byte line; 4-byte words, all 32 lanes, distinct banks.
      const int lanes_per_phase = unit_bytes == 16 ? 8 : 32;
      int clashes = 0;
      for (int phase = 0; phase < 32 / lanes_per_phase; ++phase) {
        std::set<unsigned> slots;
        for (int lane = phase * lanes_per_phase; lane < (phase + 1) * lanes_per_phase; ++lane)
          if (access.active(lane)) slots.insert((access.byte_address[lane] % 128) / unit_bytes);
        int active_lanes = 0;
        for (int lane = phase * lanes_per_phase; lane < (phase + 1) * lanes_per_phase; ++lane)
          active_lanes += access.active(lane);
        if (static_cast<int>(slots.size()) != active_lanes) ++clashes;
      }
      CHECK(clashes == 0);
      CHECK(smemtile::bank_cost(access).conflicts == 0);
    }
  }
}

template <int R, int C, int E>
void check_everything() {
  check_transpose_layout<R, C, E>();
  check_block_enumeration<R, C, E>();
  check_block_access<R, C, E>();
  constexpr TransposeLayout<R, C, E> layout{};
  CHECK(smemtile::transpose_blocks_conflict_free(layout));
  CHECK(smemtile::copy_conflict_free(layout, E));
  // The copy into the tile may use 16-byte units (and every narrower width down to one element).
  CHECK(smemtile::layout_allows_vector(layout, E, 16));
  for (int bytes = 16; bytes >= E; bytes /= 2) {
    INFO("copy width " << bytes << " bytes, TransposeLayout<" << R << ", " << C << ", " << E << ">");
    CHECK(smemtile::copy_bank_cost(layout, E, bytes, smemtile::AccessOp::store).conflicts == 0);
    CHECK(smemtile::copy_bank_cost(layout, E, bytes, smemtile::AccessOp::load).conflicts == 0);
  }
}

// The tiles device_transpose uses, checked at compile time (what block/transpose.cuh asserts).
template <int E>
using ShapeLayout = TransposeLayout<smemtile::TransposeTileShape<E>::rows, smemtile::TransposeTileShape<E>::cols, E>;
static_assert(smemtile::transpose_blocks_conflict_free(ShapeLayout<1>{}), "1-byte tile");
static_assert(smemtile::transpose_blocks_conflict_free(ShapeLayout<2>{}), "2-byte tile");
static_assert(smemtile::transpose_blocks_conflict_free(ShapeLayout<4>{}), "4-byte tile");
static_assert(smemtile::copy_conflict_free(ShapeLayout<1>{}, 1) && smemtile::copy_conflict_free(ShapeLayout<2>{}, 2) &&
                  smemtile::copy_conflict_free(ShapeLayout<4>{}, 4),
              "the copies into device_transpose's tiles");

// The padded tiles device_transpose uses where the output's rows cannot take 16-byte stores: the
// load walks their rows, the store walks their columns (the transposed view), both conflict-free.
template <int E>
using ElementLayout = smemtile::PaddedLayout<smemtile::TransposeElementTileShape<E>::rows,
                                             smemtile::TransposeElementTileShape<E>::cols,
                                             smemtile::TransposeElementTileShape<E>::pad>;
#define SMEMTILE_ELEMENT_TILE_CHECK(E)                                                                    \
  static_assert(smemtile::copy_conflict_free(ElementLayout<E>{}, E), "rows of the " #E "-byte padded tile"); \
  static_assert(smemtile::copy_conflict_free(smemtile::transposed_layout(ElementLayout<E>{}), E),          \
                "columns of the " #E "-byte padded tile")
SMEMTILE_ELEMENT_TILE_CHECK(1);
SMEMTILE_ELEMENT_TILE_CHECK(2);
SMEMTILE_ELEMENT_TILE_CHECK(4);
SMEMTILE_ELEMENT_TILE_CHECK(8);
SMEMTILE_ELEMENT_TILE_CHECK(16);
#undef SMEMTILE_ELEMENT_TILE_CHECK

}  // namespace

// ---- TransposeLayout ------------------------------------------------------------------------------

TEST_CASE("TransposeTileShape: the documented tile per element size", "[transpose][layout]") {
  CHECK(smemtile::TransposeTileShape<1>::rows == 128);
  CHECK(smemtile::TransposeTileShape<1>::cols == 128);
  CHECK(smemtile::TransposeTileShape<2>::rows == 128);
  CHECK(smemtile::TransposeTileShape<2>::cols == 64);
  CHECK(smemtile::TransposeTileShape<4>::rows == 64);
  CHECK(smemtile::TransposeTileShape<4>::cols == 64);
  CHECK(smemtile::TransposeElementTileShape<1>::rows == 128);
  CHECK(smemtile::TransposeElementTileShape<1>::cols == 128);
  CHECK(smemtile::TransposeElementTileShape<2>::rows == 128);
  CHECK(smemtile::TransposeElementTileShape<2>::cols == 64);
  CHECK(smemtile::TransposeElementTileShape<4>::rows == 128);
  CHECK(smemtile::TransposeElementTileShape<4>::cols == 32);
  CHECK(smemtile::TransposeElementTileShape<8>::rows == 128);
  CHECK(smemtile::TransposeElementTileShape<8>::cols == 32);
  CHECK(smemtile::TransposeElementTileShape<16>::rows == 64);
  CHECK(smemtile::TransposeElementTileShape<16>::cols == 32);
}

TEST_CASE("TransposeElementTileShape: padding breaks the column walk's bank pattern, unpadded would conflict",
          "[transpose][layout]") {
  // Without the pad every row starts on bank 0 and a warp reading a column hits one bank (or a few).
  CHECK(smemtile::copy_bank_cost(smemtile::transposed_layout(smemtile::PaddedLayout<64, 64, 0>{}), 4, 4).conflicts > 0);
  CHECK(smemtile::copy_bank_cost(smemtile::transposed_layout(ElementLayout<4>{}), 4, 4).conflicts == 0);
  CHECK(smemtile::copy_bank_cost(smemtile::transposed_layout(smemtile::PaddedLayout<64, 128, 0>{}), 1, 1).conflicts > 0);
  CHECK(smemtile::copy_bank_cost(smemtile::transposed_layout(ElementLayout<1>{}), 1, 1).conflicts == 0);
}

namespace {
// Every block of transpose_grid(down, across, batch, Together, max_yz), in the order the hardware
// starts them (x first): each tile of each matrix exactly once, down Together tile columns at a time.
template <int Together>
void check_transpose_grid(int down, int across, int batch, long long max_yz) {
  INFO(down << " x " << across << " tiles, " << batch << " matrices, " << Together << " columns together, max grid y/z "
            << max_yz);
  const smemtile::detail::TransposeGrid grid = smemtile::detail::transpose_grid(down, across, batch, Together, max_yz);
  const long long groups = (across + Together - 1) / Together;
  if (groups * batch > max_yz * max_yz) {  // more than any grid holds
    CHECK(grid.x == 0);
    return;
  }
  REQUIRE(grid.x == static_cast<unsigned>(down * Together));
  CHECK(grid.folded == (groups > max_yz || batch > max_yz));
  REQUIRE(grid.y >= 1);
  REQUIRE(grid.z >= 1);
  REQUIRE(grid.y <= max_yz);
  REQUIRE(grid.z <= max_yz);
  std::vector<int> seen(static_cast<std::size_t>(down * across * batch), 0);
  for (unsigned z = 0; z < grid.z; ++z)
    for (unsigned y = 0; y < grid.y; ++y)
      for (unsigned x = 0; x < grid.x; ++x) {
        const auto b = smemtile::detail::transpose_block_tile<Together>(grid, x, y, z, across, batch);
        if (b.matrix < 0) continue;  // past the last matrix or tile column
        REQUIRE(b.matrix < batch);
        REQUIRE(b.tile.col >= 0);
        REQUIRE(b.tile.col < across);
        REQUIRE(b.tile.row == static_cast<int>(x) / Together);  // down the column (group)
        CHECK(b.tile.col % Together == static_cast<int>(x) % Together);  // side by side
        ++seen[static_cast<std::size_t>((b.matrix * across + b.tile.col) * down + b.tile.row)];
      }
  for (int n : seen) REQUIRE(n == 1);
}
}  // namespace

TEST_CASE("transpose_grid: every tile of every matrix exactly once, down whole tile columns first",
          "[transpose][arguments]") {
  // max_grid_yz 7 (instead of 65535) folds small grids, so both kinds are checked whole.
  for (long long max_yz : {7LL, 65535LL})
    for (int down : {1, 2, 5, 65})
      for (int across : {1, 3, 7, 8, 15, 20})
        for (int batch : {1, 2, 7, 9}) {
          check_transpose_grid<1>(down, across, batch, max_yz);
          check_transpose_grid<2>(down, across, batch, max_yz);
        }
  // What no grid holds: more tile columns (groups) x matrices than max_grid_yz^2.
  CHECK(smemtile::detail::transpose_grid(1, 50, 1, 1, 7).x == 0);
  CHECK(smemtile::detail::transpose_grid(1, 50, 1, 2, 7).x == 2);  // 25 pairs: folded into 7 x 4
  CHECK(smemtile::detail::transpose_grid(1, 7, 7, 1, 7).x == 1);
  CHECK(smemtile::detail::transpose_grid(1, 1, 65536LL * 65536LL).x == 0);
  CHECK(smemtile::detail::transpose_grid(0, 1, 1).x == 0);
}

// ---- WordTransposeLayout ---------------------------------------------------------------------------

// The word swizzle spelled out independently: word w of row r at word w ^ ((r / V) % 32) of its
// 32-word group.
template <int R, int C, int E>
int word_reference_offset(int r, int c) {
  const int V = 4 / E;
  const int word = c / V, group = word / 32, in_group = word % 32;
  return r * C + (group * 32 + (in_group ^ ((r / V) % 32))) * V + c % V;
}

template <int R, int C, int E>
void check_word_layout() {
  constexpr smemtile::WordTransposeLayout<R, C, E> layout{};
  constexpr int V = 4 / E;
  INFO("WordTransposeLayout<" << R << ", " << C << ", " << E << ">");
  std::vector<int> hits(static_cast<std::size_t>(R * C), 0);
  int wrong = 0, split_words = 0, rows_left = 0;
  for (int r = 0; r < R; ++r)
    for (int c = 0; c < C; ++c) {
      const int o = layout.offset(r, c);
      if (o != word_reference_offset<R, C, E>(r, c)) ++wrong;
      if (o < 0 || o >= R * C) continue;
      ++hits[static_cast<std::size_t>(o)];
      if (o / C != r) ++rows_left;
      if (c % V != 0 && layout.offset(r, c) != layout.offset(r, c - c % V) + c % V) ++split_words;
    }
  CHECK(wrong == 0);
  CHECK(rows_left == 0);    // the swizzle stays inside the row
  CHECK(split_words == 0);  // a word's elements stay together
  CHECK(std::count(hits.begin(), hits.end(), 1) == R * C);  // a bijection
  // A warp's word row of blocks (lane l: rows V l + j) and a warp's row walk in words: conflict-free.
  CHECK(smemtile::word_blocks_conflict_free(layout));
  CHECK(smemtile::copy_conflict_free(layout, E));
  CHECK(smemtile::layout_allows_vector(layout, E, 4));
  CHECK_FALSE(smemtile::layout_allows_vector(layout, E, 8));  // words, not chunks, stay whole
  // Independently: the 32 lanes of a block read fall in 32 distinct banks.
  for (int m = 0; m < C / V; m += 7)
    for (int j = 0; j < V; ++j) {
      const smemtile::WarpAccess access = smemtile::word_block_access(layout, 0, m, j);
      std::set<unsigned> banks;
      for (int lane = 0; lane < 32; ++lane) banks.insert((access.byte_address[lane] / 4) % 32);
      CHECK(banks.size() == 32);
    }
  // Without the swizzle the same reads would conflict: every row starts on bank 0.
  const smemtile::PaddedLayout<R, C, 0> plain{};
  smemtile::WarpAccess access{{}, 0xffffffffu, 4, smemtile::AccessOp::load};
  for (int lane = 0; lane < 32; ++lane) access.byte_address[lane] = static_cast<unsigned>(plain.offset(V * lane, 0) * E);
  CHECK(smemtile::bank_cost(access).conflicts > 0);
}

TEST_CASE("WordTransposeLayout: a bijection keeping rows and words, conflict-free by rows and by word blocks",
          "[transpose][layout]") {
  check_word_layout<128, 128, 1>();  // TransposeWordTileShape<1>
  check_word_layout<64, 128, 2>();   // TransposeWordTileShape<2>
  check_word_layout<256, 256, 1>();
  check_word_layout<128, 64, 2>();
  CHECK(smemtile::TransposeWordTileShape<1>::rows == 128);
  CHECK(smemtile::TransposeWordTileShape<1>::cols == 128);
  CHECK(smemtile::TransposeWordTileShape<2>::rows == 64);
  CHECK(smemtile::TransposeWordTileShape<2>::cols == 128);
}

TEST_CASE("TransposeLayout 1-byte elements: a bijection with whole chunks and rows kept - blocks conflict-free",
          "[transpose][layout]") {
  check_everything<128, 128, 1>();  // TransposeTileShape<1>
  check_everything<128, 256, 1>();  // the smallest height: 8 blocks of 16 rows
  check_everything<256, 128, 1>();
  check_everything<128, 384, 1>();
}

TEST_CASE("TransposeLayout 2-byte elements: a bijection with whole chunks and rows kept - blocks conflict-free",
          "[transpose][layout]") {
  check_everything<128, 64, 2>();  // TransposeTileShape<2>
  check_everything<64, 64, 2>();   // the smallest height: 8 blocks of 8 rows
  check_everything<192, 128, 2>();
  check_everything<64, 192, 2>();
}

TEST_CASE("TransposeLayout 4-byte elements: a bijection with whole chunks and rows kept - blocks conflict-free",
          "[transpose][layout]") {
  check_everything<64, 64, 4>();  // TransposeTileShape<4>
  check_everything<32, 32, 4>();
  check_everything<32, 96, 4>();
  check_everything<96, 64, 4>();
  check_everything<128, 32, 4>();
}

TEST_CASE("TransposeLayout 8-byte elements: a bijection with whole chunks and rows kept - blocks conflict-free",
          "[transpose][layout]") {
  check_everything<64, 32, 8>();  // a block-level tile of doubles (tests, examples)
  check_everything<16, 16, 8>();
  check_everything<48, 16, 8>();
  check_everything<32, 64, 8>();
}

TEST_CASE("TransposeLayout 16-byte elements: a bijection with whole chunks and rows kept - blocks conflict-free",
          "[transpose][layout]") {
  check_everything<32, 32, 16>();  // a block-level tile of 16-byte elements
  check_everything<8, 8, 16>();
  check_everything<24, 16, 16>();
  check_everything<16, 40, 16>();
}

TEST_CASE("TransposeLayout: one spelled-out example of the swizzle (4-byte elements and V = 4)", "[transpose][layout]") {
  using L = TransposeLayout<32, 32, 4>;
  // Rows 0..3 (block row 0): no swizzle.
  CHECK(L::offset(0, 0) == 0);
  CHECK(L::offset(3, 5) == 3 * 32 + 5);
  // Row 4 (block row 1): chunk 0 <-> chunk 1 of each line.
  CHECK(L::offset(4, 0) == 4 * 32 + 4);
  CHECK(L::offset(4, 4) == 4 * 32 + 0);
  CHECK(L::offset(4, 7) == 4 * 32 + 3);
  // Row 29 (block row 7): chunk q -> q ^ 7, inside each 128-byte line (8 chunks of 4 floats).
  CHECK(L::offset(29, 0) == 29 * 32 + 28);
  CHECK(L::offset(29, 31) == 29 * 32 + 3);
}

// ---- transpose_argument_error --------------------------------------------------------------------

namespace {
constexpr unsigned long long kIn = 0x10000, kOut = 0x80000;  // far apart, 256-byte aligned
const char* arg_error(unsigned long long in, unsigned long long out, TransposeShape s, int bytes = 4, int align = 4) {
  return smemtile::transpose_argument_error(in, out, s, bytes, align);
}
// A dense shape with one matrix.
constexpr TransposeShape dense(long long rows, long long cols) { return TransposeShape{rows, cols, cols, rows, 1, 0, 0}; }
}  // namespace

TEST_CASE("matrix_span: from the first to one past the last element touched", "[transpose][arguments]") {
  CHECK(smemtile::matrix_span(0, 5, 7) == 0);
  CHECK(smemtile::matrix_span(5, 0, 7) == 0);
  CHECK(smemtile::matrix_span(1, 5, 7) == 5);
  CHECK(smemtile::matrix_span(3, 5, 7) == 19);
  CHECK(smemtile::matrix_span(3, 5, 5) == 15);
  CHECK(smemtile::matrix_span(4100, 4100, 4101) == 4099LL * 4101 + 4100);
  static_assert(smemtile::matrix_span(2, 3, 4) == 7, "constexpr");
}

TEST_CASE("transpose_argument_error: valid shapes and empty ones whatever the pointers", "[transpose][arguments]") {
  CHECK(arg_error(kIn, kOut, dense(3, 5)) == nullptr);
  CHECK(arg_error(kIn, kOut, dense(1, 1)) == nullptr);
  CHECK(arg_error(kIn, kOut, dense(4100, 1)) == nullptr);
  CHECK(arg_error(kIn, kOut, TransposeShape{3, 5, 9, 4, 1, 0, 0}) == nullptr);  // padded pitches
  // A batch: outputs exactly one matrix span apart, inputs further apart.
  const long long span_out = smemtile::matrix_span(5, 3, 4);  // (5 - 1) * 4 + 3 = 19
  CHECK(span_out == 19);
  CHECK(arg_error(kIn, kOut, TransposeShape{3, 5, 9, 4, 8, 100, span_out}) == nullptr);
  CHECK(arg_error(kIn, kOut, TransposeShape{3, 5, 9, 4, 8, 100, span_out + 13}) == nullptr);
  // One matrix: the strides are not used.
  CHECK(arg_error(kIn, kOut, TransposeShape{3, 5, 5, 3, 1, 0, 0}) == nullptr);
  // Empty transposes, null pointers (and even misaligned or identical ones).
  for (unsigned long long in : {0ULL, kIn, kIn + 1}) {
    for (unsigned long long out : {0ULL, kOut, kOut + 2, in}) {
      INFO("in " << in << ", out " << out);
      CHECK(arg_error(in, out, TransposeShape{0, 5, 5, 0, 1, 0, 0}) == nullptr);
      CHECK(arg_error(in, out, TransposeShape{5, 0, 0, 5, 1, 0, 0}) == nullptr);
      CHECK(arg_error(in, out, TransposeShape{0, 0, 0, 0, 1, 0, 0}) == nullptr);
      CHECK(arg_error(in, out, TransposeShape{5, 7, 7, 5, 0, 0, 0}) == nullptr);
      CHECK(arg_error(in, out, TransposeShape{5, 7, 7, 5, 0, 35, 35}) == nullptr);
    }
  }
  // Element sizes and alignments: a 16-byte element aligned to 4 (struct of four floats) accepts
  // 4-byte aligned addresses; float4 (aligned to 16) does not.
  CHECK(arg_error(kIn + 4, kOut + 12, dense(7, 9), 16, 4) == nullptr);
  CHECK(arg_error(kIn + 16, kOut + 32, dense(7, 9), 16, 16) == nullptr);
  CHECK(arg_error(kIn + 1, kOut + 3, dense(7, 9), 1, 1) == nullptr);
  CHECK(arg_error(kIn + 2, kOut + 6, dense(7, 9), 2, 2) == nullptr);
  CHECK(arg_error(kIn + 8, kOut + 24, dense(7, 9), 8, 8) == nullptr);
}

TEST_CASE("transpose_argument_error: negative sizes and null or misaligned pointers", "[transpose][arguments]") {
  CHECK(contains_message(arg_error(kIn, kOut, TransposeShape{-1, 5, 5, 1, 1, 0, 0}), "negative"));
  CHECK(contains_message(arg_error(kIn, kOut, TransposeShape{5, -1, 1, 5, 1, 0, 0}), "negative"));
  CHECK(contains_message(arg_error(kIn, kOut, TransposeShape{-3, -3, 0, 0, 1, 0, 0}), "negative"));
  CHECK(contains_message(arg_error(kIn, kOut, TransposeShape{5, 5, 5, 5, -1, 25, 25}), "negative"));
  CHECK(contains_message(arg_error(kIn, kOut, TransposeShape{0, 5, 5, 0, -1, 0, 0}), "negative"));  // even if empty
  CHECK(contains_message(arg_error(kIn, kOut, TransposeShape{-1, 0, 0, 0, 1, 0, 0}), "negative"));
  // Null pointers with something to do.
  CHECK(contains_message(arg_error(0, kOut, dense(3, 5)), "null"));
  CHECK(contains_message(arg_error(kIn, 0, dense(3, 5)), "null"));
  CHECK(contains_message(arg_error(0, 0, dense(1, 1)), "null"));
  // Addresses that are not a multiple of the element's alignment.
  CHECK(contains_message(arg_error(kIn + 2, kOut, dense(3, 5), 4, 4), "aligned"));
  CHECK(contains_message(arg_error(kIn, kOut + 1, dense(3, 5), 4, 4), "aligned"));
  CHECK(contains_message(arg_error(kIn + 1, kOut, dense(3, 5), 2, 2), "aligned"));
  CHECK(contains_message(arg_error(kIn + 4, kOut, dense(3, 5), 8, 8), "aligned"));
  CHECK(contains_message(arg_error(kIn, kOut + 8, dense(3, 5), 16, 16), "aligned"));
  CHECK(contains_message(arg_error(kIn + 2, kOut, dense(3, 5), 16, 4), "aligned"));
}

TEST_CASE("transpose_argument_error: pitches below a row and batch outputs overlapping", "[transpose][arguments]") {
  CHECK(contains_message(arg_error(kIn, kOut, TransposeShape{3, 5, 4, 3, 1, 0, 0}), "ld_in"));
  CHECK(contains_message(arg_error(kIn, kOut, TransposeShape{3, 5, 0, 3, 1, 0, 0}), "ld_in"));
  CHECK(contains_message(arg_error(kIn, kOut, TransposeShape{3, 5, 5, 2, 1, 0, 0}), "ld_out"));
  CHECK(contains_message(arg_error(kIn, kOut, TransposeShape{3, 5, 5, -4, 1, 0, 0}), "ld_out"));
  CHECK(arg_error(kIn, kOut, TransposeShape{3, 5, 5, 3, 1, 0, 0}) == nullptr);  // the boundary: equal is fine
  // Batches: stride_out below one output matrix's span (19 elements for 5 x 3, pitch 4).
  CHECK(contains_message(arg_error(kIn, kOut, TransposeShape{3, 5, 5, 4, 2, 15, 18}), "stride_out"));
  CHECK(contains_message(arg_error(kIn, kOut, TransposeShape{3, 5, 5, 4, 8, 15, 0}), "stride_out"));
  CHECK(contains_message(arg_error(kIn, kOut, TransposeShape{3, 5, 5, 4, 3, 15, -19}), "stride_out"));
  CHECK(arg_error(kIn, kOut, TransposeShape{3, 5, 5, 4, 2, 15, 19}) == nullptr);
  CHECK(contains_message(arg_error(kIn, kOut, TransposeShape{3, 5, 5, 4, 2, -15, 19}), "stride_in"));
}

TEST_CASE("transpose_argument_error: a batch's outputs may interleave within each output row", "[transpose][arguments]") {
  // [A, B, C] -> [C, B, A] as a batch over B of A x C matrices: in at b * C (pitch B * C), out at
  // b * A (pitch B * A). Every (A, B, C) up to 9 is accepted; its elements are written once each.
  for (long long a = 1; a <= 9; ++a)
    for (long long b = 1; b <= 9; ++b)
      for (long long c = 1; c <= 9; ++c) {
        INFO("A " << a << " B " << b << " C " << c);
        CHECK(arg_error(kIn, kOut, TransposeShape{a, c, b * c, b * a, b, c, a}) == nullptr);
      }
  // Interleaved rows that would overlap: stride_out below a row, or the last matrix's row past ld_out.
  CHECK(contains_message(arg_error(kIn, kOut, TransposeShape{4, 5, 15, 12, 3, 5, 3}), "interleave"));
  CHECK(contains_message(arg_error(kIn, kOut, TransposeShape{4, 5, 15, 11, 3, 5, 4}), "interleave"));
  CHECK(arg_error(kIn, kOut, TransposeShape{4, 5, 15, 12, 3, 5, 4}) == nullptr);  // rows 0-3, 4-7, 8-11 of 12
  CHECK(arg_error(kIn, kOut, TransposeShape{4, 5, 15, 20, 3, 5, 6}) == nullptr);  // gaps between them
}

TEST_CASE("transpose_argument_error: in and out must not overlap but adjacent buffers are fine",
          "[transpose][arguments]") {
  // 3 x 5 floats, pitch 7: the input spans 2 * 7 + 5 = 19 elements (76 bytes); the output, 5 x 3
  // with pitch 4, spans 4 * 4 + 3 = 19 elements (76 bytes).
  const TransposeShape s{3, 5, 7, 4, 1, 0, 0};
  const unsigned long long in_bytes = 19 * 4, out_bytes = 19 * 4;
  const char* in_place = arg_error(kIn, kIn, s);
  CHECK(contains_message(in_place, "in-place"));
  CHECK(contains_message(in_place, "overlap"));
  CHECK(contains_message(arg_error(kIn, kIn, dense(1, 1)), "in-place"));
  // out starts inside in (its last element), or in starts inside out.
  CHECK(contains_message(arg_error(kIn, kIn + in_bytes - 4, s), "overlap"));
  CHECK(contains_message(arg_error(kIn, kIn + 4, s), "overlap"));
  CHECK(contains_message(arg_error(kOut + out_bytes - 4, kOut, s), "overlap"));
  CHECK(contains_message(arg_error(kOut + 4, kOut, s), "overlap"));
  // Adjacent on either side: the first byte after one buffer is the other's first byte.
  CHECK(arg_error(kIn, kIn + in_bytes, s) == nullptr);
  CHECK(arg_error(kOut + out_bytes, kOut, s) == nullptr);
  // 16-byte elements: the spans are in elements of 16 bytes.
  CHECK(contains_message(arg_error(kIn, kIn + 19 * 16 - 16, s, 16, 16), "overlap"));
  CHECK(arg_error(kIn, kIn + 19 * 16, s, 16, 16) == nullptr);
  // A batch: the overlap is with the last input matrix only.
  const TransposeShape batch{3, 5, 7, 4, 4, 100, 19};
  const unsigned long long batch_in_bytes = (3 * 100 + 19) * 4;  // up to the end of matrix 3
  const unsigned long long batch_out_bytes = (3 * 19 + 19) * 4;
  CHECK(contains_message(arg_error(kIn, kIn + batch_in_bytes - 4, batch), "overlap"));
  CHECK(arg_error(kIn, kIn + batch_in_bytes, batch) == nullptr);
  CHECK(contains_message(arg_error(kIn + batch_out_bytes - 4, kIn, batch), "overlap"));
  CHECK(arg_error(kIn + batch_out_bytes, kIn, batch) == nullptr);
}

TEST_CASE("transpose_argument_error is usable in constant expressions", "[transpose][arguments]") {
  static_assert(smemtile::transpose_argument_error(kIn, kOut, TransposeShape{3, 5, 5, 3, 1, 0, 0}, 4, 4) == nullptr,
                "valid");
  static_assert(smemtile::transpose_argument_error(kIn, kIn, TransposeShape{3, 5, 5, 3, 1, 0, 0}, 4, 4) != nullptr,
                "in-place");
  SUCCEED();
}

// ---- transpose policies (device/tuning/transpose_policy.cuh) ----------------------------------------

TEST_CASE("select_transpose_algorithm: register blocks where the output takes 16-byte stores", "[transpose][policy]") {
  using smemtile::TransposeAlgorithm;
  using smemtile::select_transpose_algorithm;
  for (int e : {1, 2, 4}) CHECK(select_transpose_algorithm(e, true) == TransposeAlgorithm::register_blocks);
  for (int e : {8, 16}) CHECK(select_transpose_algorithm(e, true) == TransposeAlgorithm::padded_elements);
  CHECK(select_transpose_algorithm(1, false) == TransposeAlgorithm::word_blocks);
  for (int e : {2, 4, 8, 16}) CHECK(select_transpose_algorithm(e, false) == TransposeAlgorithm::padded_elements);
}

template <int E, smemtile::TransposeAlgorithm A>
using DefaultTranspose = typename smemtile::DefaultTransposePolicy<E, A>::type;

TEST_CASE("DefaultTransposePolicy: tiles, blocks per multiprocessor and 256-byte fetches", "[transpose][policy]") {
  using A = smemtile::TransposeAlgorithm;
  using B1 = DefaultTranspose<1, A::register_blocks>;
  CHECK((B1::rows == 128 && B1::cols == 128 && B1::min_blocks == 5 && B1::fetch_256 && B1::columns_together == 2));
  using B4 = DefaultTranspose<4, A::register_blocks>;
  CHECK((B4::rows == 64 && B4::cols == 64 && B4::min_blocks == 4 && !B4::fetch_256 && B4::columns_together == 1));
  using W1 = DefaultTranspose<1, A::word_blocks>;
  CHECK((W1::rows == 128 && W1::cols == 128 && W1::min_blocks == 4 && W1::fetch_256));
  using P2 = DefaultTranspose<2, A::padded_elements>;
  CHECK((P2::rows == 128 && P2::cols == 64 && P2::pad == 2 && P2::min_blocks == 5 && P2::fetch_256));
  using P4 = DefaultTranspose<4, A::padded_elements>;
  CHECK((P4::cols == 32 && P4::pad == 1 && P4::min_blocks == 6 && !P4::fetch_256));
  using P8 = DefaultTranspose<8, A::padded_elements>;
  CHECK((P8::min_blocks == 5 && !P8::fetch_256));
  using P16 = DefaultTranspose<16, A::padded_elements>;
  CHECK((P16::rows == 64 && P16::min_blocks == 4));
  CHECK(smemtile::TransposePolicyCheck<B1, 1>::ok);
  CHECK(smemtile::TransposePolicyCheck<W1, 1>::ok);
  CHECK(smemtile::TransposePolicyCheck<P16, 16>::ok);
}

// A caller's policy: padded 64 x 64 tiles of floats, 3 blocks per multiprocessor. device_transpose's
// overload runs it instead of the selection.
using MyTransposePolicy = smemtile::TransposePolicy<smemtile::TransposeAlgorithm::padded_elements, 64, 64, 1, 3, false>;
static_assert(smemtile::IsTransposePolicy<MyTransposePolicy>::value, "a user policy is a transpose policy");
static_assert(smemtile::TransposePolicyCheck<MyTransposePolicy, 4>::ok, "and satisfies the invariants");
static_assert(!smemtile::IsTransposePolicy<int>::value, "an int is not one");

TEST_CASE("TransposePolicy: a caller's policy keeps its numbers", "[transpose][policy]") {
  CHECK(MyTransposePolicy::rows == 64);
  CHECK(MyTransposePolicy::min_blocks == 3);
  CHECK(MyTransposePolicy::columns_together == 1);
}

// ---- issue 21: the record algorithms' selection, layout and division ------------------------------

namespace {
smemtile::TransposeAlgorithm select(long long rows, long long cols, long long batch, int e, unsigned long long out = 0,
                                    long long ld_out = -1) {
  return smemtile::select_transpose_algorithm(smemtile::TransposeSelectionInput{
      rows, cols, batch, e, cols, ld_out < 0 ? rows : ld_out, rows * cols, rows * cols, 0x10000, 0x20000 + out});
}
}  // namespace

TEST_CASE("select_transpose_algorithm: the issue's shape matrix", "[transpose][policy][records]") {
  using A = smemtile::TransposeAlgorithm;
  for (int e : {1, 2, 4, 8, 16}) {
    INFO("element bytes " << e);
    for (int k : {2, 3, 4, 8}) {  // aligned and contiguous: the register algorithms up to 8 bytes
      CHECK(select(k, 1 << 24, 1, e) == (e <= 8 ? A::narrow_cols_registers : A::narrow_cols));  // k x 2^24
      CHECK(select(1 << 24, k, 1, e) == (e <= 8 ? A::narrow_rows_registers : A::narrow_rows));  // 2^24 x k
    }
    for (int k : {9, 12, 16, 24, 31, 32}) {  // channel groups (whole 16-byte chunks) or words, odd K of
      // 1- to 8-byte elements rotated, else records
      const bool groups = e <= 8 && smemtile::narrow_register_extent(e, k);
      const bool rotated = e <= 8 && k % 2 == 1;
      CHECK(select(k, 1 << 24, 1, e) ==
            (groups ? A::narrow_cols_registers : rotated ? A::narrow_cols_rotated : A::narrow_cols));
      CHECK(select(1 << 24, k, 1, e) ==
            (groups ? A::narrow_rows_registers : rotated ? A::narrow_rows_rotated : A::narrow_rows));
    }
    CHECK(select(1 << 20, 8, 8, e) == (e <= 8 ? A::narrow_rows_registers : A::narrow_rows));  // not a small batch
    // dense, aligned batches of whole register tiles take them (1- to 8-byte elements); 33 x 31 is
    // not whole tiles: the staged run (batch_layout_host_test.cpp has the rest of the selection)
    const A tiles = e <= 8 ? A::small_batch_registers : A::small_batch_staged;
    CHECK(select(8, 8, 1 << 20, e) == tiles);
    CHECK(select(16, 16, 1 << 20, e) == tiles);
    CHECK(select(32, 32, 1 << 16, e) == tiles);
    CHECK(select(33, 31, 1 << 16, e) == A::small_batch_staged);
    // 64 x 64: register tiles where one matrix fits their 32 KB stage (1- to 8-byte elements; 16-byte
    // ones do not fit a block's record tile either)
    CHECK(select(64, 64, 1 << 14, e) == (e <= 8 ? A::small_batch_registers : A::padded_elements));
    // the large shapes keep the large-tile algorithms
    const A large = e <= 4 ? A::register_blocks : A::padded_elements;
    CHECK(select(8192, 8192, 1, e) == large);
    CHECK(select(65536, 1024, 1, e) == large);
    CHECK(select(1024, 65536, 1, e) == large);
    CHECK(select(8191, 8193, 1, e) ==
          (e <= 2 ? A::realigned_rows : e >= 8 || (8191 * e) % 16 != 0 ? A::padded_elements : A::register_blocks));
  }
  // the narrow threshold: 32 is narrow, 33 and more take the large tiles; 65 rows are not small.
  // 32 floats are whole chunks: channel groups (any channel rows for 4-byte elements); 32 halves
  // split into rows off 16 bytes, but merge from them only where they are 16-byte aligned
  CHECK(select(100000, 32, 1, 4) == A::narrow_rows_registers);
  CHECK(select(100001, 32, 1, 4) == A::narrow_rows_registers);
  CHECK(select(100001, 32, 1, 2) == A::narrow_rows_registers);
  CHECK(select(100000, 9, 1, 4) == A::narrow_rows_rotated);
  // floats split off 16 bytes: aligned windows but for K 17..25, which shift chunks across lanes
  static_assert(smemtile::rotated_split_windows(15, 4) && !smemtile::rotated_split_windows(17, 4) &&
                !smemtile::rotated_split_windows(25, 4) && smemtile::rotated_split_windows(27, 4) &&
                smemtile::rotated_split_windows(21, 8) && smemtile::rotated_split_windows(21, 2));
  CHECK(select(100000, 9, 1, 2) == A::narrow_rows_rotated);  // halves packed two records a word
  CHECK(select(100001, 9, 1, 2) == A::narrow_rows_rotated);  // channel rows off 16 bytes: shifted windows
  CHECK(select(9, 100001, 1, 2) == A::narrow_cols);          // merging them: the records
  CHECK(select(9, 100001, 1, 4) == A::narrow_cols_rotated);  // but for 4- and 8-byte elements
  // rows off 16 bytes where measured faster than the records: floats split up to K = 27, merge always
  CHECK(select(100001, 27, 1, 4) == A::narrow_rows_rotated);
  CHECK(select(100001, 29, 1, 4) == A::narrow_rows);
  CHECK(select(100000, 29, 1, 4) == A::narrow_rows_rotated);  // aligned rows: every K
  CHECK(select(21, 100001, 1, 4) == A::narrow_cols_rotated);
  CHECK(select(31, 100001, 1, 4) == A::narrow_cols_rotated);
  CHECK(select(31, 100001, 1, 8) == A::narrow_cols_rotated);  // doubles: every K both ways
  CHECK(select(100001, 31, 1, 8) == A::narrow_rows_rotated);
  CHECK(select(100001, 31, 1, 1) == A::narrow_rows_rotated);  // bytes and halves split: every K
  CHECK(select(31, 100001, 1, 1) == A::narrow_cols);
  CHECK(select(100000, 33, 1, 4) == A::register_blocks);
  CHECK(select(32, 100000, 1, 4) == A::narrow_cols_registers);
  CHECK(select(32, 100001, 1, 4) == A::narrow_cols_registers);
  CHECK(select(32, 100001, 1, 2) == A::narrow_cols);
  CHECK(select(33, 100000, 1, 4) == A::padded_elements);  // output rows of 132 bytes: not 16-byte aligned
  CHECK(select(40, 100000, 1, 4) == A::register_blocks);
  CHECK(select(65, 20, 7, 4) == A::narrow_rows);
  CHECK(select(20, 65, 7, 4) == A::narrow_cols);
  CHECK(select(64, 64, 7, 4) == A::small_batch_registers);
  CHECK(select(64, 63, 7, 4) == A::small_batch_staged);
  // alignment matters for the large tiles and for the records of the narrow register algorithms
  CHECK(select(100000, 3, 1, 4, 4) == A::narrow_rows_registers);  // out off 16 bytes
  CHECK(select(100000, 3, 1, 4) == A::narrow_rows_registers);
  CHECK(select(100001, 3, 1, 4) == A::narrow_rows_registers);  // channel rows off 16 bytes: aligned windows
  CHECK(select(100001, 3, 1, 4, 0, 100001) == A::narrow_rows_registers);
  CHECK(select(8192, 8192, 1, 4, 4) == A::padded_elements);
  CHECK(select(8192, 8192, 1, 1, 0, 8193) == A::realigned_rows);
  CHECK(select(8192, 8192, 1, 2, 2) == A::realigned_rows);  // out off 16 bytes
  CHECK(select(8192, 8192, 1, 2) == A::register_blocks);
  // realigned_rows from one tile's rows (496 bytes, 248 halves) down; shorter ones keep the word
  // blocks (bytes) and the padded tiles (halves)
  CHECK(select(496, 8192, 1, 1, 0, 497) == A::realigned_rows);
  CHECK(select(495, 8192, 1, 1, 0, 497) == A::word_blocks);
  CHECK(select(248, 8192, 1, 2, 0, 249) == A::realigned_rows);
  CHECK(select(247, 8192, 1, 2, 0, 249) == A::padded_elements);
  CHECK(select(8191, 8193, 1, 4) == A::padded_elements);  // 4-byte elements keep the padded tiles
  // output rows aligned: realigned_rows where the register blocks' tiles (128 x 128 bytes, 128 x 64
  // halves) do not divide the matrix, whatever the input's alignment; else the register blocks
  const auto aligned_out = [](long long rows, long long cols, int e, long long ld_in, unsigned long long in = 0x10000) {
    return smemtile::select_transpose_algorithm(
        smemtile::TransposeSelectionInput{rows, cols, 1, e, ld_in, rows, 0, 0, in, 0x20000});
  };
  CHECK(aligned_out(8192, 8193, 1, 8193) == A::realigned_rows);
  CHECK(aligned_out(8192, 8192, 1, 8193) == A::register_blocks);  // input off 16 bytes, tiles divide
  CHECK(aligned_out(8192, 8192, 1, 8192, 0x10008) == A::register_blocks);
  CHECK(aligned_out(8192, 8188, 1, 8188) == A::realigned_rows);
  CHECK(aligned_out(8208, 8208, 1, 8208) == A::realigned_rows);  // both sides aligned
  CHECK(aligned_out(8000, 8192, 1, 8192) == A::realigned_rows);  // rows not a multiple of 128
  CHECK(aligned_out(12288, 12288, 1, 12288) == A::register_blocks);
  CHECK(aligned_out(8192, 8000, 2, 8000) == A::register_blocks);  // 125 tiles of 64 halves
  CHECK(aligned_out(8192, 8200, 2, 8200) == A::realigned_rows);
  CHECK(aligned_out(8200, 8192, 2, 8192) == A::realigned_rows);
  CHECK(aligned_out(496, 1000, 1, 1008) == A::realigned_rows);
  CHECK(aligned_out(480, 1000, 1, 1008) == A::register_blocks);  // under one tile's rows
  CHECK(aligned_out(20000, 600, 4, 601) == A::register_blocks);  // 4-byte elements keep the register blocks
}

// Channel groups: K 9..32 where a record is whole 16-byte chunks. Channel rows off 16 bytes: written
// in shifted windows for every element size, read element by element for 4- and 8-byte elements
// only (1- and 2-byte ones then take narrow_cols).
TEST_CASE("select_transpose_algorithm: channel groups (K 9..32, whole 16-byte chunks)", "[transpose][policy][records]") {
  using A = smemtile::TransposeAlgorithm;
  using smemtile::TransposeSelectionInput;
  const long long n = 1 << 22;
  CHECK(select(12, n, 1, 4) == A::narrow_cols_registers);  // 12 floats: three chunks
  CHECK(select(n, 12, 1, 4) == A::narrow_rows_registers);
  CHECK(select(n, 9, 1, 4) == A::narrow_rows_rotated);     // 9 floats: not whole chunks, odd
  CHECK(select(16, n, 1, 1) == A::narrow_cols_registers);  // 16 bytes: one chunk
  CHECK(select(12, n, 1, 1) == A::narrow_cols_registers);  // 12 bytes: channel words (4 records a thread)
  CHECK(select(12, n - 3, 1, 1) == A::narrow_cols_registers);  // channel words at any phase of the word
  CHECK(select(n - 3, 12, 1, 1) == A::narrow_rows_registers);
  CHECK(select(14, n - 3, 1, 2) == A::narrow_cols_registers);
  CHECK(select(n - 3, 10, 1, 4) == A::narrow_rows_registers);
  CHECK(select(11, n, 1, 1) == A::narrow_cols_rotated);    // odd: packed records, rotated
  CHECK(select(11, n + 1, 1, 1) == A::narrow_cols);        // channel rows off 16 bytes: the records
  CHECK(select(n, 24, 1, 2) == A::narrow_rows_registers);
  CHECK(select(n, 10, 1, 8) == A::narrow_rows_registers);
  // the output's channel rows (split) off 16 bytes: pitch, pointer
  CHECK(select(n, 12, 1, 4, 0, n + 1) == A::narrow_rows_registers);
  CHECK(select(n, 12, 1, 4, 4) == A::narrow_rows_registers);
  CHECK(select(n, 10, 1, 8, 8) == A::narrow_rows_registers);
  CHECK(select(n, 16, 1, 2, 0, n + 1) == A::narrow_rows_registers);
  CHECK(select(n, 16, 1, 2, 2) == A::narrow_rows_registers);
  CHECK(select(n, 16, 1, 1, 0, n + 1) == A::narrow_rows_registers);
  // the input's channel rows (merge) off 16 bytes: pointer, pitch
  const auto merge = [&](long long k, int e, long long ld_in, unsigned long long in) {
    return smemtile::select_transpose_algorithm(TransposeSelectionInput{k, n, 1, e, ld_in, k, 0, 0, in, 0x20000});
  };
  CHECK(merge(12, 4, n, 0x10004) == A::narrow_cols_registers);
  CHECK(merge(12, 4, n + 1, 0x10000) == A::narrow_cols_registers);
  CHECK(merge(16, 1, n, 0x10001) == A::narrow_cols);
  CHECK(merge(16, 2, n + 1, 0x10000) == A::narrow_cols);
  CHECK(merge(16, 2, n, 0x10000) == A::narrow_cols_registers);
  // the records (the output here) must stay 16-byte aligned whatever the element size
  CHECK(smemtile::select_transpose_algorithm(TransposeSelectionInput{12, n, 1, 4, n, 12, 0, 0, 0x10000, 0x20004}) ==
        A::narrow_cols);
  // one full block (512 records of 12 floats) and no less
  CHECK(select(512, 12, 1, 4) == A::narrow_rows_registers);
  CHECK(select(511, 12, 1, 4, 0, 512) == A::narrow_rows);  // channel rows aligned, one record short
  // a batch: the channel rows' stride keeps them aligned or (4-byte elements) need not
  CHECK(select(n, 12, 3, 4) == A::narrow_rows_registers);
  const auto batch = [&](long long k, int e, long long stride_out) {
    return smemtile::select_transpose_algorithm(
        TransposeSelectionInput{n, k, 3, e, k, n, n * k, stride_out, 0x10000, 0x20000});
  };
  CHECK(batch(12, 4, n * 12 + 1) == A::narrow_rows_registers);
  CHECK(batch(16, 2, n * 16 + 8) == A::narrow_rows_registers);
  CHECK(batch(16, 2, n * 16 + 1) == A::narrow_rows_registers);  // splitting: any element size
}

TEST_CASE("RealignedRowsShape: the tiles of realigned_rows and their invariants", "[transpose][policy][realigned]") {
  using S1 = smemtile::RealignedRowsShape<1, 16>;
  STATIC_REQUIRE((S1::lane_rows == 16 && S1::stage_rows == 512 && S1::owned_rows == 496 && S1::cols == 128));
  STATIC_REQUIRE((S1::chunks == 9 && S1::row_bytes == 144 && S1::stage_bytes == 73728 && S1::threads == 512));
  STATIC_REQUIRE((S1::rows_per_pass == 3 && S1::pass_rows == 48 && S1::passes == 11));
  using S2 = smemtile::RealignedRowsShape<2, 16>;
  STATIC_REQUIRE((S2::lane_rows == 8 && S2::stage_rows == 256 && S2::owned_rows == 248 && S2::chunks == 17));
  STATIC_REQUIRE((S2::row_bytes == 272 && S2::stage_bytes == 69632 && S2::rows_per_pass == 1 && S2::passes == 16));
  using S8 = smemtile::RealignedRowsShape<1, 8>;  // 6 rows of 5 chunks per warp and pass
  STATIC_REQUIRE((S8::chunks == 5 && S8::row_bytes == 80 && S8::rows_per_pass == 6 && S8::pass_rows == 48));
  STATIC_REQUIRE(smemtile::realigned_rows_per_pass(9, 8, 16) == 2);  // 3 rows x 8 warps is no whole group
  STATIC_REQUIRE(smemtile::realigned_rows_per_pass(3, 1, 16) == 0);
  // the staged rows: a permutation, a lane's rows 32 apart
  std::vector<int> seen(S1::stage_rows, 0);
  for (int r = 0; r < S1::stage_rows; ++r) ++seen[S1::stage_row(r)];
  CHECK(std::count(seen.begin(), seen.end(), 1) == S1::stage_rows);
  CHECK(S1::stage_row(16 * 5 + 3) == 3 * 32 + 5);
  // a staged row is an odd number of granules: 32 consecutive rows start on all 8 granule positions
  for (int bytes : {S1::row_bytes, S2::row_bytes, S8::row_bytes}) {
    std::vector<int> position(8, 0);
    for (int lane = 0; lane < 32; ++lane) ++position[(lane * bytes / 16) % 8];
    CHECK(std::count(position.begin(), position.end(), 4) == 8);
  }
  using P1 = DefaultTranspose<1, smemtile::TransposeAlgorithm::realigned_rows>;
  using P2 = DefaultTranspose<2, smemtile::TransposeAlgorithm::realigned_rows>;
  STATIC_REQUIRE((P1::rows == 512 && P1::cols == 128 && P1::threads == 512 && P1::min_blocks == 2));
  STATIC_REQUIRE((P1::fetch_256 && P1::columns_together == 1));  // the stage's 256-byte L2 fetches; one column down
  STATIC_REQUIRE((P2::rows == 256 && P2::cols == 128 && P2::threads == 512));
  using P4 = DefaultTranspose<4, smemtile::TransposeAlgorithm::realigned_rows>;  // a caller's choice for floats
  STATIC_REQUIRE((P4::rows == 128 && P4::cols == 64 && P4::threads == 256 && P4::min_blocks == 4));
  STATIC_REQUIRE(smemtile::TransposePolicyCheck<P1, 1>::ok && smemtile::TransposePolicyCheck<P2, 2>::ok &&
                 smemtile::TransposePolicyCheck<P4, 4>::ok);
  STATIC_REQUIRE((smemtile::realigned_rows_apply(496, 1) && !smemtile::realigned_rows_apply(495, 1) &&
                  smemtile::realigned_rows_apply(248, 2) && !smemtile::realigned_rows_apply(100000, 4)));
  STATIC_REQUIRE((smemtile::bytes_to_chunk_boundary(0x1000) == 0 && smemtile::bytes_to_chunk_boundary(0x1001) == 15 &&
                  smemtile::bytes_to_chunk_boundary(0x100f) == 1));
}

// The bank model's cost of a tile's shared traffic: reads 2-way (8 granule positions for 16 lanes of
// a half-warp), staging conflict-free for halves; Nsight Compute counted 1.167 M conflicts on the
// H200 over the 1105 tiles of 8191 x 8193 bytes (the probe of this layout, 16 warps), the
// model's reads 1.132 M of them.
TEST_CASE("realigned_read_cost, realigned_stage_cost: the tiles' bank costs", "[transpose][policy][realigned]") {
  using S1 = smemtile::RealignedRowsShape<1, 16>;
  using S2 = smemtile::RealignedRowsShape<2, 16>;
  constexpr auto r1 = smemtile::realigned_read_cost<S1>();
  STATIC_REQUIRE((r1.requests == 512 && r1.ideal_wavefronts == 1024 && r1.conflicts == 1024));
  constexpr auto r2 = smemtile::realigned_read_cost<S2>();
  STATIC_REQUIRE((r2.requests == 384 && r2.conflicts == r2.ideal_wavefronts));
  const auto w1 = smemtile::realigned_stage_cost<S1>();
  CHECK(w1.requests == 171);
  CHECK(w1.conflicts == 320);  // rows 32 staged rows apart share banks where a warp's chunks wrap to the next row
  const auto w2 = smemtile::realigned_stage_cost<S2>();
  CHECK(w2.conflicts == 0);
}

// A partial chunk's bytes (n < 16) go out in at most four aligned pieces: [0, n) and [16 - n, 16), exactly.
TEST_CASE("chunk_prefix_piece, chunk_suffix_piece: aligned pieces cover a chunk's head and tail once",
          "[transpose][policy][realigned]") {
  for (int n = 0; n < 16; ++n)
    for (int suffix = 0; suffix < 2; ++suffix) {
      INFO("n " << n << (suffix ? " suffix" : " prefix"));
      int covered[16] = {};
      for (int size : {8, 4, 2, 1}) {
        if ((n & size) == 0) continue;
        const int at = suffix ? smemtile::chunk_suffix_piece(n, size) : smemtile::chunk_prefix_piece(n, size);
        CHECK(at % size == 0);
        for (int b = at; b < at + size; ++b) ++covered[b];
      }
      for (int b = 0; b < 16; ++b) CHECK(covered[b] == ((suffix ? b >= 16 - n : b < n) ? 1 : 0));
    }
}

// Every output row is written exactly once by the tiles down it: the first tile's head (rows before
// the first chunk boundary) and lanes 0..30 of each tile, whatever the row's phase and length; and
// each lane's chunk lies within the rows its tile staged (its own and the next lane's).
TEST_CASE("realigned_chunk_row: the tiles down an output row write each row once", "[transpose][policy][realigned]") {
  for (int e : {1, 2}) {
    const int lane_rows = 16 / e, owned = 31 * lane_rows, staged = 32 * lane_rows;
    for (int rows : {1, 7, 15, 16, 17, owned - 1, owned, owned + 1, staged, 2 * owned + 3, 5000}) {
      for (int d = 0; d < 16; d += e) {
        INFO("e " << e << " rows " << rows << " d " << d);
        std::vector<int> written(rows, 0);
        const int tiles = (rows + owned - 1) / owned;
        for (int t = 0; t < tiles; ++t) {
          const int r0 = t * owned;
          if (t == 0)
            for (int r = 0; r < d / e && r < rows; ++r) ++written[r];
          for (int lane = 0; lane < 31; ++lane) {
            const int first = smemtile::realigned_chunk_row(d, lane, e);
            CHECK(first + lane_rows <= staged);
            for (int r = r0 + first; r < r0 + first + lane_rows && r < rows; ++r) ++written[r];
          }
        }
        CHECK(std::count(written.begin(), written.end(), 1) == rows);
      }
    }
  }
}

// The narrow register kernels' channel rows off 16 bytes. Splitting: the full blocks of a run (the
// first with the row's head) write every byte of the row before the short block once and never
// reach past the row (its pitch padding is the caller's); the short block, element by element,
// covers the rest. Merging: an interior block's windows (two per segment, from the aligned address
// at or before its first record) lie inside the row. For every row phase, element size and run
// length around the block and segment boundaries.
TEST_CASE("narrow register windows: split blocks write each byte of a row once, merge blocks read inside it",
          "[transpose][policy][records]") {
  for (int e : {1, 2, 4, 8}) {
    const int v = 16 / e;  // records per segment
    for (int records : {v, 2 * v, 8 * v}) {
      const int windows = records * e / 16;
      for (int n = records; n <= 4 * records + 2 * v + 1; ++n)
        for (int phase = 0; phase < 16; ++phase) {
          INFO("e " << e << " records " << records << " n " << n << " phase " << phase);
          const int d = (16 - phase) & 15, bytes = n * e;
          std::vector<int> written(bytes + 32, 0);  // 16 guard bytes either side
          const auto write = [&](int from, int count) {
            for (int b = from; b < from + count; ++b) ++written[b + 16];
          };
          const int full = n / records;
          for (int first = 0; first + records <= n; first += records) {
            const bool has_next = smemtile::narrow_block_has_next(first, records, v, n);
            if (first == 0) write(0, d);
            for (int j = 0; j < windows; ++j)
              write(first * e + d + 16 * j, smemtile::narrow_split_window_whole(j, windows, d, has_next) ? 16 : 16 - d);
            if (smemtile::narrow_block_interior(first, records, v, n)) {
              // the merge reads windows from the aligned address at or before the block's first record
              const int a = (phase + first * e) & 15, lo = first * e - a, hi = lo + 16 * (windows + 1);
              CHECK(lo >= 0);
              CHECK(hi <= bytes);
            }
          }
          const int tail = full * records * e;
          for (int b = -16; b < bytes + 16; ++b) {
            const int w = written[b + 16];
            if (b < 0 || b >= bytes) CHECK(w == 0);      // nothing outside the row
            else if (b < tail) CHECK(w == 1);            // the full blocks: each byte once
            else CHECK(w <= 1);                          // the short block's records (it writes them all)
          }
        }
    }
  }
}

TEST_CASE("narrow_record_tile_bytes: 22 KB for 16-byte elements, 27 KB for staged floats, else 32 KB",
          "[transpose][policy][records]") {
  using smemtile::narrow_record_tile_bytes;
  for (int e : {1, 2, 4, 8, 12, 16}) {
    INFO("e " << e);
    CHECK(smemtile::narrow_records_staged(e) == (e == 4 || e == 16));
    CHECK(narrow_record_tile_bytes(e) == (e == 16 ? 22 * 1024 : e == 4 ? 27 * 1024 : 32 * 1024));
  }
  // The default narrow policies take those tiles in whole 32-element rows and pass the checks; the
  // staged ones ask for 8 blocks per multiprocessor (8 tiles and their reserved kilobytes fit 228 KB).
  using P16 = smemtile::DefaultTransposePolicy<16, smemtile::TransposeAlgorithm::narrow_rows>::type;
  using P4 = smemtile::DefaultTransposePolicy<4, smemtile::TransposeAlgorithm::narrow_cols>::type;
  using P2 = smemtile::DefaultTransposePolicy<2, smemtile::TransposeAlgorithm::narrow_rows>::type;
  using P1 = smemtile::DefaultTransposePolicy<1, smemtile::TransposeAlgorithm::narrow_cols>::type;
  STATIC_REQUIRE(P16::rows * P16::cols * 16 == 22 * 1024);
  STATIC_REQUIRE(P4::rows * P4::cols * 4 == 27 * 1024);
  STATIC_REQUIRE(P2::rows * P2::cols * 2 == 32 * 1024);
  STATIC_REQUIRE(P1::rows * P1::cols == 32 * 1024);
  STATIC_REQUIRE(P16::min_blocks == 8 && P4::min_blocks == 8 && P2::min_blocks == 7 && P1::min_blocks == 4);
  STATIC_REQUIRE(8 * (27 * 1024 + 1024) <= 228 * 1024);
  STATIC_REQUIRE(smemtile::TransposePolicyCheck<P16, 16>::ok && smemtile::TransposePolicyCheck<P4, 4>::ok &&
                 smemtile::TransposePolicyCheck<P2, 2>::ok && smemtile::TransposePolicyCheck<P1, 1>::ok);
  // A caller's larger tile keeps 4 blocks (8 would not fit).
  STATIC_REQUIRE(smemtile::RecordTransposePolicy<4, smemtile::TransposeAlgorithm::narrow_rows, 32 * 1024>::type::min_blocks == 4);
}

TEST_CASE("narrow_staged_records: the largest power of two up to 512 records the tile holds at the odd pitch k | 1",
          "[transpose][policy][records]") {
  using smemtile::narrow_staged_records;
  const auto pitch = [](int k) { return k | 1; };
  // 16-byte elements' tile (1408 chunks): 512 records for k = 1, 256 up to k = 5, 128 up to 11, 64 up to 21, 32 up to 42.
  for (int k = 1; k <= 40; ++k) {
    const int got = narrow_staged_records(1408, k);
    INFO("k " << k);
    CHECK(got == (k == 1 ? 512 : k <= 5 ? 256 : k <= 11 ? 128 : k <= 21 ? 64 : 32));
    CHECK(got * pitch(k) <= 1408);  // fits the tile
    CHECK((got & (got - 1)) == 0);  // a power of two: the kernel's channel side shifts by it
  }
  // Other tiles: never more than the tile holds, never over 512, 0 when not one record fits.
  for (int capacity : {1, 3, 33, 100, 528, 2048, 4096})
    for (int k = 1; k <= 40; ++k) {
      const int got = narrow_staged_records(capacity, k), fit = capacity / pitch(k);
      INFO("capacity " << capacity << " k " << k);
      CHECK(got * pitch(k) <= capacity);
      CHECK(got <= 512);
      CHECK((got == 0) == (fit == 0));
      if (got > 0) CHECK((2 * got > fit || 2 * got > smemtile::narrow_staged_records_max));  // the largest
    }
  CHECK(narrow_staged_records(1408, 0) == 0);
}

namespace {
// N x k -> k x N and k x N -> N x k, dense, both sides 16-byte aligned.
smemtile::TransposeSelectionInput split(long long n, long long k, int e) {
  return smemtile::TransposeSelectionInput{n, k, 1, e, k, n, n * k, n * k, 0x10000, 0x20000};
}
smemtile::TransposeSelectionInput merge(long long n, long long k, int e) {
  return smemtile::TransposeSelectionInput{k, n, 1, e, n, k, n * k, n * k, 0x10000, 0x20000};
}

// Channel groups (k 9..32): taken exactly where a record is whole 16-byte chunks
// (narrow_register_extent); channel rows off 16 bytes (pointer, pitch, batch stride) only for 4-
// and 8-byte elements (element by element), 1- and 2-byte ones then taking the records.
void check_narrow_register_groups() {
  using smemtile::TransposeSelectionInput;
  const auto apply = [](const TransposeSelectionInput& in, bool split_side) {
    return smemtile::narrow_registers_apply(in, split_side, 1);
  };
  for (int e : {1, 2, 4, 8})
    for (int k = smemtile::transpose_register_narrow_max + 1; k <= smemtile::transpose_register_group_max; ++k) {
      INFO("e " << e << " k " << k);
      const int v = 16 / e, records = smemtile::narrow_register_records(e, k, true);
      const bool groups = k * e % 16 == 0, any_channels = e >= 4;  // merging reads rows off 16 bytes
      const int word = smemtile::narrow_register_word_bytes(e, k, true);
      CHECK(smemtile::narrow_register_extent(e, k) == (groups || word != 0));
      if (word != 0) continue;  // check_narrow_register_words
      CHECK(smemtile::narrow_register_records(e, k, false) == records);  // channel groups: both ways alike
      CHECK(records * k * e <= 48 * 1024);  // the staged block fits static shared memory
      CHECK((records / v) % 32 == 0);       // whole warps of segments
      CHECK(smemtile::narrow_registers_apply(split(records, k, e), true, records) == groups);
      CHECK(smemtile::narrow_registers_apply(merge(records, k, e), false, records) == groups);
      if (!groups) continue;
      CHECK_FALSE(smemtile::narrow_registers_apply(split(records - v, k, e), true, records));  // a segment short
      CHECK_FALSE(smemtile::narrow_registers_apply(merge(records - v, k, e), false, records));
      TransposeSelectionInput odd = split(records, k, e);
      odd.out_address += e;  // channel rows off 16 bytes
      odd.ld_out += 1;
      CHECK(apply(odd, true));  // splitting writes rows off 16 bytes for every element size
      odd = split(records, k, e);
      odd.ld_out += 1;  // the pitch alone
      CHECK(apply(odd, true));
      odd = merge(records, k, e);
      odd.in_address += e;
      odd.ld_in += 1;
      CHECK(apply(odd, false) == any_channels);
      odd = merge(records, k, e);
      odd.in_address += e;  // the pointer alone
      CHECK(apply(odd, false) == any_channels);
      odd.out_address += e;  // the records off 16 bytes: never
      CHECK_FALSE(apply(odd, false));
      TransposeSelectionInput batch = split(records, k, e);
      batch.batch = 3;
      CHECK(apply(batch, true));
      batch.stride_out += v;  // a gap of 16 bytes keeps them aligned
      CHECK(apply(batch, true));
      batch.stride_out += 1;  // the second matrix's channel rows off 16 bytes
      CHECK(apply(batch, true));
      batch = merge(records, k, e);
      batch.batch = 3;
      CHECK(apply(batch, false));
      batch.stride_in += 1;
      CHECK(apply(batch, false) == any_channels);
      batch.stride_out += 1;  // the second matrix's records off 16 bytes: never
      CHECK_FALSE(apply(batch, false));
    }
}

// Channel words: K 9..32 that are not whole chunks, for 1- to 4-byte elements, W = 4 where W / E
// records of K are whole chunks, else 8, at most 12 chunks; the channel rows aligned to W.
void check_narrow_register_words() {
  using smemtile::TransposeSelectionInput;
  int taken = 0;
  for (int e : {1, 2, 4, 8, 16})
    for (int k = 1; k <= 40; ++k) {
      INFO("e " << e << " k " << k);
      const int word = smemtile::narrow_register_word_bytes(e, k, true);  // splitting
      const int merge_word = smemtile::narrow_register_word_bytes(e, k, false);
      CHECK((merge_word != 0) == (word != 0));
      const bool expected = k > 8 && k <= 32 && e <= 4 && k * e % 16 != 0 &&
                            ((e < 4 && k * 4 % 16 == 0) || (k % 2 == 0 && k / 2 <= 12));
      CHECK((word != 0) == expected);
      if (word == 0) continue;
      ++taken;
      for (const int w : {word, merge_word}) {
        CHECK((w == 4 || w == 8));
        CHECK(w >= e);
        CHECK(k * w % 16 == 0);  // a thread's records are whole chunks
        CHECK(k * w / 16 <= 12);  // 256 threads' stage within 48 KB
      }
      // 4 where it serves, but 8 (10 chunks) for merging the 5-chunk k = 20 of bytes and halves
      CHECK(word == (e < 4 && k * 4 % 16 == 0 ? 4 : 8));
      CHECK(merge_word == (e < 4 && k * 4 % 16 == 0 && k != 20 ? 4 : 8));
      const int records = smemtile::narrow_register_records(e, k, true);
      const int merge_records = smemtile::narrow_register_records(e, k, false);
      CHECK(records == 256 * word / e);
      CHECK(merge_records == 256 * merge_word / e);
      CHECK(smemtile::narrow_registers_apply(split(records, k, e), true, records));
      CHECK(smemtile::narrow_registers_apply(merge(merge_records, k, e), false, records));
      CHECK_FALSE(smemtile::narrow_registers_apply(split(records - 1, k, e), true, records));
      // channel rows at any phase of the word: pitch, pointer, batch stride (both ways)
      TransposeSelectionInput odd = split(records, k, e);
      odd.ld_out += word / e;  // a pitch still a whole word
      CHECK(smemtile::narrow_registers_apply(odd, true, 1));
      odd.ld_out += 1;
      CHECK(smemtile::narrow_registers_apply(odd, true, 1));
      odd.out_address += e;
      CHECK(smemtile::narrow_registers_apply(odd, true, 1));
      TransposeSelectionInput moved = merge(merge_records, k, e);
      moved.in_address += e;  // the channel pointer off the word
      CHECK(smemtile::narrow_registers_apply(moved, false, 1));
      moved.ld_in += 1;
      CHECK(smemtile::narrow_registers_apply(moved, false, 1));
      TransposeSelectionInput batch = merge(merge_records, k, e);
      batch.batch = 2;
      batch.stride_in += 1;
      CHECK(smemtile::narrow_registers_apply(batch, false, 1));
      // the records must stay whole 16-byte chunks whatever the channel rows do
      TransposeSelectionInput off_records = merge(merge_records, k, e);
      off_records.out_address += e;
      CHECK_FALSE(smemtile::narrow_registers_apply(off_records, false, 1));
      off_records = split(records, k, e);
      off_records.in_address += e;
      CHECK_FALSE(smemtile::narrow_registers_apply(off_records, true, 1));
    }
  CHECK(taken == 19);  // bytes 10 12 14 18 20 22 24 28, halves 10 12 14 18 20 22 28, floats 10 14 18 22
}
}  // namespace

// The rotated algorithms: odd K 9..31 of 1- to 8-byte elements, both directions, channel rows and
// records 16-byte aligned, one full block (128 threads of 16 bytes' worth of records up to K = 21, 64
// above); the rotation's bank proof holds for every odd K and fails for even ones (the check can fail);
// a packed record's elements are its records' elements, each once.
TEST_CASE("narrow_rotated_apply and the rotated stage: odd K of 1- to 8-byte elements", "[transpose][policy][records]") {
  using A = smemtile::TransposeAlgorithm;
  using smemtile::TransposeSelectionInput;
  for (int k = 1; k < 64; ++k) {
    INFO("k " << k);
    for (int e : {1, 2, 4, 8}) CHECK(smemtile::rotated_records_conflict_free(k, e) == (k % 2 == 1));
  }
  for (int e : {4, 8})  // shifted windows (channel rows off 16 bytes): a uniform offset, the wrap whole bank rows
    for (int threads : {64, 128}) {
      const int p = 16 / e;
      for (int k = 9; k <= 31; k += 2) CHECK(smemtile::shifted_windows_conflict_free(k, e, threads));
      CHECK_FALSE(smemtile::shifted_windows_conflict_free(10, e, threads));
      CHECK_FALSE(smemtile::shifted_windows_conflict_free(9, e, threads + 4));  // a wrap off whole bank rows
      for (int shift = 0; shift < p; ++shift) {  // every record one thread's, at its window's address
        std::vector<int> seen(static_cast<std::size_t>(p * threads), 0);
        for (int t = 0; t < threads; ++t)
          for (int m = 0; m < p; ++m) {
            const int unit = smemtile::shifted_window_unit(p * t + m, shift, p * threads);
            REQUIRE((unit >= 0 && unit < p * threads));
            ++seen[static_cast<std::size_t>(unit)];
            // its byte past the row's aligned start (the row `shift` records in): window t, or past
            // the block's end for thread 0's wrapped positions
            const int window_byte = (t == 0 && m < shift ? 16 * threads : 16 * t) + m * e;
            CHECK(window_byte == (unit + shift) * e);
          }
        CHECK(std::count(seen.begin(), seen.end(), 1) == p * threads);
      }
    }
  CHECK(smemtile::rotated_records_per_unit(1) == 4);
  CHECK(smemtile::rotated_records_per_unit(2) == 2);
  CHECK(smemtile::rotated_records_per_unit(4) == 1);
  CHECK(smemtile::rotated_records_per_unit(8) == 1);
  for (int e : {1, 2})
    for (int k = 9; k <= 31; k += 2) {
      const int q_max = smemtile::rotated_records_per_unit(e);
      std::vector<int> seen(static_cast<std::size_t>(q_max * k), 0);
      for (int q = 0; q < q_max; ++q)
        for (int c = 0; c < k; ++c) {
          const int element = smemtile::packed_record_element(q, c, k);
          REQUIRE((element >= 0 && element < q_max * k));
          CHECK(smemtile::packed_record_element(element / k, element % k, k) == element);  // the merge's inverse
          ++seen[static_cast<std::size_t>(element)];
        }
      CHECK(std::count(seen.begin(), seen.end(), 1) == q_max * k);
    }
  for (int p : {2, 4})
    for (int t = 0; t < 64; ++t)
      for (int m = 0; m < p; ++m) {
        const int i = smemtile::rotated_record_access(m, t, p);
        CHECK((i >= 0 && i < p && smemtile::rotated_record(i, t, p) == m));
      }
  for (int e : {1, 2, 4, 8, 16})
    for (int k = 1; k <= 40; ++k) {
      INFO("e " << e << " k " << k);
      const bool expected = e <= 8 && k % 2 == 1 && k >= 9 && k <= 31;
      CHECK(smemtile::narrow_rotated_extent(e, k) == expected);
      if (!expected) {
        CHECK(smemtile::select_transpose_algorithm(merge(1 << 22, k, e)) != A::narrow_cols_rotated);
        CHECK(smemtile::select_transpose_algorithm(split(1 << 22, k, e)) != A::narrow_rows_rotated);
        continue;
      }
      const int records = smemtile::narrow_rotated_records(k, e);
      CHECK(records == (k <= 21 ? 128 : 64) * 16 / e);
      CHECK(records * k * e <= 48 * 1024);  // the stage fits static shared memory
      CHECK(smemtile::select_transpose_algorithm(merge(records, k, e)) == A::narrow_cols_rotated);
      CHECK(smemtile::select_transpose_algorithm(split(records, k, e)) == A::narrow_rows_rotated);
      CHECK(smemtile::select_transpose_algorithm(merge(records - 1, k, e)) == A::narrow_cols);  // under a block
      CHECK(smemtile::select_transpose_algorithm(split(records - 1, k, e)) == A::narrow_rows);
      for (int split_side = 0; split_side < 2; ++split_side) {
        const auto base = [&] { return split_side ? split(4 * records, k, e) : merge(4 * records, k, e); };
        CHECK(smemtile::narrow_rotated_apply(base(), split_side, records));
        TransposeSelectionInput in = base();
        const bool any_channel_rows = split_side || e >= 4;  // split: shifted windows; merge: element loads
        (split_side ? in.out_address : in.in_address) += e;  // channel rows off 16 bytes
        CHECK(smemtile::narrow_rotated_apply(in, split_side, 1) == any_channel_rows);
        in = base();
        (split_side ? in.ld_out : in.ld_in) += 1;  // their pitch
        CHECK(smemtile::narrow_rotated_apply(in, split_side, 1) == any_channel_rows);
        (split_side ? in.ld_out : in.ld_in) += 16 / e - 1;  // a pitch of whole chunks
        CHECK(smemtile::narrow_rotated_apply(in, split_side, 1));
        in = base();
        (split_side ? in.in_address : in.out_address) += 4;  // the records off 16 bytes
        CHECK_FALSE(smemtile::narrow_rotated_apply(in, split_side, 1));
        in = base();
        (split_side ? in.ld_in : in.ld_out) += 1;  // the records not contiguous
        CHECK_FALSE(smemtile::narrow_rotated_apply(in, split_side, 1));
        in = base();
        in.batch = 3;
        CHECK(smemtile::narrow_rotated_apply(in, split_side, 1));
        (split_side ? in.stride_in : in.stride_out) += 1;  // the second matrix's records off 16 bytes
        CHECK_FALSE(smemtile::narrow_rotated_apply(in, split_side, 1));
        in = base();
        in.batch = 3;
        (split_side ? in.stride_out : in.stride_in) += 1;  // the second matrix's channel rows
        CHECK(smemtile::narrow_rotated_apply(in, split_side, 1) == any_channel_rows);
      }
    }
  STATIC_REQUIRE(smemtile::TransposePolicyCheck<
                 smemtile::DefaultNarrowRotatedPolicy<4, A::narrow_cols_rotated, 9>::type, 4>::ok);
  STATIC_REQUIRE(smemtile::TransposePolicyCheck<
                 smemtile::DefaultNarrowRotatedPolicy<4, A::narrow_rows_rotated, 31>::type, 4>::ok);
  STATIC_REQUIRE(smemtile::TransposePolicyCheck<
                 smemtile::DefaultNarrowRotatedPolicy<8, A::narrow_cols_rotated, 21>::type, 8>::ok);
}

TEST_CASE("narrow_registers_apply: contiguous records, both sides 16-byte aligned, one full block", "[transpose][policy][records]") {
  using smemtile::TransposeSelectionInput;
  const auto split = [](long long n, long long k, int e) {  // N x k -> k x N, dense, aligned
    return TransposeSelectionInput{n, k, 1, e, k, n, n * k, n * k, 0x10000, 0x20000};
  };
  for (int e : {1, 2, 4, 8})
    for (int k = 1; k <= smemtile::transpose_register_narrow_max; ++k) {
      INFO("e " << e << " k " << k);
      const int records = smemtile::narrow_register_records(e, k, true);
      CHECK(smemtile::narrow_register_records(e, k, false) == records);
      CHECK(records % (256 * (16 / e)) == 0);
      CHECK(records * k * e <= 32 * 1024);
      CHECK(smemtile::narrow_registers_apply(split(records, k, e), true, records));
      CHECK_FALSE(smemtile::narrow_registers_apply(split(records - 16, k, e), true, records));  // under a block
      TransposeSelectionInput pitched = split(records, k, e);
      pitched.ld_in = k + 1;  // records not contiguous
      CHECK_FALSE(smemtile::narrow_registers_apply(pitched, true, 1));
      TransposeSelectionInput odd_out = split(records, k, e);
      odd_out.out_address += e;  // channel rows off 16 bytes: through aligned windows
      odd_out.ld_out += 1;
      CHECK(smemtile::narrow_registers_apply(odd_out, true, 1));
      TransposeSelectionInput odd_in = split(records, k, e);
      odd_in.in_address += 16;  // still aligned
      CHECK(smemtile::narrow_registers_apply(odd_in, true, 1));
      odd_in.in_address += e;
      CHECK_FALSE(smemtile::narrow_registers_apply(odd_in, true, 1));
      TransposeSelectionInput batch = split(records, k, e);
      batch.batch = 3;
      CHECK(smemtile::narrow_registers_apply(batch, true, 1));
      batch.stride_out += 1;  // the second matrix's channel rows off 16 bytes: fine
      CHECK(smemtile::narrow_registers_apply(batch, true, 1));
      batch.stride_in += 1;  // the second matrix's records off 16 bytes
      CHECK_FALSE(smemtile::narrow_registers_apply(batch, true, 1));
      // k x N -> N x k: the records are the output
      const TransposeSelectionInput merge{k, records, 1, e, records, k, 0, 0, 0x10000, 0x20000};
      CHECK(smemtile::narrow_registers_apply(merge, false, records));
      CHECK_FALSE(smemtile::narrow_registers_apply(merge, true, 1));  // its cols are not k
    }
  check_narrow_register_groups();
  check_narrow_register_words();
  CHECK_FALSE(smemtile::narrow_registers_apply(split(1 << 20, 3, 16), true, 1));  // 16-byte elements: records already
  CHECK_FALSE(smemtile::narrow_registers_apply(split(1 << 20, 9, 4), true, 1));   // over 8, not whole 16-byte chunks
  CHECK(smemtile::narrow_registers_apply(split(1 << 20, 12, 4), true, 1));        // three chunks: a channel group
  CHECK_FALSE(smemtile::narrow_registers_apply(split(1 << 20, 33, 1), true, 1));  // over transpose_register_group_max
  for (int e : {1, 2, 4, 8})  // 40 elements (whole chunks but for bytes): still over the group maximum
    CHECK_FALSE(smemtile::narrow_registers_apply(split(1 << 20, 40, e), true, 1));
  CHECK_FALSE(smemtile::narrow_registers_apply(split(1 << 20, 48, 1), true, 1));
  // The kernels add a segment (up to 16 records) past a block in int arithmetic: N up to INT_MAX - 16.
  const long long largest = INT_MAX - 16LL;
  CHECK(smemtile::narrow_registers_apply(split(largest - largest % 16, 1, 1), true, 1));
  CHECK(smemtile::narrow_registers_apply(split(largest, 1, 1), true, 1));
  CHECK_FALSE(smemtile::narrow_registers_apply(split(largest + 1, 1, 1), true, 1));
  CHECK_FALSE(smemtile::narrow_registers_apply(TransposeSelectionInput{1, INT_MAX, 1, 1, INT_MAX, 1, 0, 0, 0x10000, 0x20000},
                                               false, 1));
}

TEST_CASE("record_chunk_slot: a bijection onto record_chunk_slots slots, conflict-free", "[transpose][records]") {
  for (int k = 1; k <= smemtile::transpose_register_group_max; ++k) {
    CHECK(smemtile::record_chunk_conflict_free(k));
    // the blocks' runs: 256 segments x 2 (k <= 8), 128 and 64 segments x 2 and x 3 (channel groups)
    for (const int chunks : {256 * k * 2, 128 * k * 2, 64 * k * 3}) {
      INFO("k " << k << " chunks " << chunks);
      CHECK(smemtile::record_chunk_slots_one_to_one(chunks, k));
      std::vector<int> seen(static_cast<std::size_t>(smemtile::record_chunk_slots(chunks, k)), 0);
      for (int q = 0; q < chunks; ++q) {
        const int s = smemtile::record_chunk_slot(q, k);
        REQUIRE(s >= 0);
        REQUIRE(s < static_cast<int>(seen.size()));
        CHECK(seen[static_cast<std::size_t>(s)]++ == 0);
      }
    }
  }
  // even k >= 8 XOR by the segment: 16 (and every k up to transpose_register_group_max) is
  // conflict-free, which lets the channel groups stage through record_chunk_slot
  CHECK(smemtile::record_chunk_conflict_free(16));
  for (int q = 0; q < 4096; ++q) {  // k = 8 keeps its rule (a segment is one aligned group of eight)
    INFO("q " << q);
    CHECK(smemtile::record_chunk_slot(q, 8) == (q ^ ((q >> 3) & 7)));
  }
}

TEST_CASE("record_pitch: a whole odd number of words, at least k, and conflict-free columns", "[transpose][records]") {
  for (int e : {1, 2, 4, 8, 16})
    for (int k = 1; k <= 64; ++k) {
      const int p = smemtile::record_pitch(k, e);
      CHECK(p >= k);
      CHECK(((p * e) % 4 == 0 && ((p * e / 4) % 2 == 1 || e >= 8)));
      if (e >= 4) CHECK(p % 2 == 1);
      CHECK(p - k < (e >= 4 ? 2 : 2 * 4 / e));
    }
  static_assert(smemtile::record_layout_conflict_free(4, 64), "pitches stay conflict-free past 32");
  // the element path (lanes on consecutive records, heads, tails and unaligned runs) is not proved:
  // the skew costs it up to 4-way conflicts for 2- and 4-byte elements (docs/tuning.md)
  for (int e : {1, 2, 4, 8, 16}) {
    int worst = 0;
    for (int k = 1; k <= 32; ++k) {
      smemtile::WarpAccess a{{}, 0u, e, smemtile::AccessOp::load};
      for (int lane = 0; lane < 32; ++lane) {
        a.byte_address[lane] = static_cast<unsigned>(smemtile::record_offset(lane, 0, smemtile::record_pitch(k, e), e) * e);
        a.active_mask |= 1u << lane;
      }
      worst = std::max(worst, smemtile::bank_cost(a).degree());
    }
    CHECK(worst <= 4);
  }
  // an even pitch of floats is not: the model sees the 2-way conflict the odd pitch avoids
  smemtile::WarpAccess even = smemtile::record_column_access(1, 4, 0);
  for (int lane = 0; lane < 32; ++lane) even.byte_address[lane] = static_cast<unsigned>(lane * 2 * 4);
  CHECK(smemtile::bank_cost(even).conflicts > 0);
  CHECK(smemtile::record_capacity(8192, 3, 4) == 2512);  // 3 + 1/4 elements a record (the skew)
  CHECK(smemtile::record_capacity(40, 3, 4) == 12);
  CHECK(smemtile::RecordTile<float, 8192>::max_records(2) == 2512);
  CHECK(sizeof(smemtile::RecordTile<unsigned char, 100>) == 112);
}

TEST_CASE("FastDivmod: exact for every divisor the record algorithms use and any 32-bit dividend",
          "[transpose][records]") {
  std::vector<unsigned> dividends{0u, 1u, 2u, 3u, 31u, 32u, 33u, 65535u, 65536u, 1u << 20, 123456789u, 2147483647u,
                                  2147483648u, 4294967294u, 4294967295u};
  for (unsigned d = 1; d <= 70000; d += (d < 5000 ? 1 : 97)) {
    const smemtile::FastDivmod f(d);
    for (unsigned n : dividends) {
      unsigned r = 0;
      const unsigned q = f.divmod(n, r);
      if (q != n / d || r != n % d) FAIL("divisor " << d << ", dividend " << n << ": " << q << " rem " << r);
    }
    for (unsigned n = 0; n < 3 * d + 5; n += 1 + d / 7)
      if (f.div(n) != n / d) FAIL("divisor " << d << ", dividend " << n);
  }
  static_assert(smemtile::FastDivmod(7).div(100) == 14, "constexpr");
}

TEST_CASE("transpose_records_per_block: staged narrow records take narrow_staged_records, others record_capacity",
          "[transpose][policy][records]") {
  using smemtile::TransposeAlgorithm;
  using smemtile::transpose_records_per_block;
  for (int k = 1; k <= 32; ++k)
    for (int e : {1, 2, 4, 8, 16}) {
      INFO("k " << k << " e " << e);
      const int capacity = smemtile::narrow_record_tile_bytes(e) / e;
      const int expected = smemtile::narrow_records_staged(e) ? smemtile::narrow_staged_records(capacity, k)
                                                              : smemtile::record_capacity(capacity, k, e);
      CHECK(transpose_records_per_block(TransposeAlgorithm::narrow_rows, capacity, 1000000, k, e) == expected);
      CHECK(transpose_records_per_block(TransposeAlgorithm::narrow_cols, capacity, k, 1000000, e) == expected);
      CHECK(expected >= 16);  // every k up to transpose_narrow_max fills a block with at least 16 records
    }
}
