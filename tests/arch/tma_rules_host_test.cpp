// Host tests of TMA's tensor-map rules (arch/tma.cuh: tma_map_error) and of the TMA tile type
// (block/tma_copy.cuh: TmaLayout, TmaTile). Plain C++: no CUDA compiler is involved; the rules are
// constexpr, so most checks are also static_asserts.
#include <smemtile/smemtile.cuh>

#include <cstdint>
#include <cstring>
#include <string>

#include "catch.hpp"

namespace {

using smemtile::arch::tma_map_error;

// A valid float case: 16-byte aligned address, 100 x 100 with pitch 100 (400 bytes), box 32 x 64.
constexpr unsigned long long good = 0x7f0000001000ull;

static_assert(tma_map_error(good, 100, 100, 100, 1, 4, 32, 64) == nullptr, "a valid float map");
static_assert(tma_map_error(good, 1, 1, 4, 1, 4, 1, 4) == nullptr, "a 1 x 1 array, box 1 x 4 floats (16 bytes)");
static_assert(tma_map_error(good + 8, 100, 100, 100, 1, 4, 32, 64) != nullptr, "address not 16-byte aligned");
static_assert(tma_map_error(good, 100, 100, 101, 1, 4, 32, 64) != nullptr, "pitch of 404 bytes");
static_assert(tma_map_error(good, 100, 100, 100, 1, 4, 32, 3) != nullptr, "box row of 12 bytes");
static_assert(tma_map_error(good, 100, 100, 100, 1, 4, 257, 4) != nullptr, "257 box rows");
static_assert(tma_map_error(good, 100, 100, 100, 2, 4, 32, 64) != nullptr, "column stride 2");
static_assert(smemtile::TmaLayout<32, 64>::base_alignment == 128, "TMA tiles are 128-byte aligned");

std::string error_of(unsigned long long address, long long rows, long long cols, long long pitch, long long col_stride,
                     int elem_bytes, int box_rows, int box_cols) {
  const char* e = tma_map_error(address, rows, cols, pitch, col_stride, elem_bytes, box_rows, box_cols);
  return e == nullptr ? std::string() : std::string(e);
}

bool mentions(const std::string& message, const char* word) { return message.find(word) != std::string::npos; }

}  // namespace

TEST_CASE("tma_map_error accepts what TMA can load", "[tma]") {
  for (int elem : {1, 2, 4, 8, 16}) {
    INFO("element bytes " << elem);
    const int min_cols = 16 / elem > 0 ? 16 / elem : 1;  // the narrowest box row: 16 bytes
    CHECK(error_of(good, 1000, 1000, 1008, 1, elem, 1, min_cols).empty());
    CHECK(error_of(good, 7, 3, 16 / elem > 0 ? 16 : 1, 1, elem, 256, min_cols).empty());
    CHECK(error_of(good, 5, 5, 64, 1, elem, 8, 8 * min_cols).empty());
  }
  CHECK(error_of(good, 1, 1, 4, 1, 4, 256, 256).empty());       // 256 x 256 floats: the largest box
  CHECK(error_of(good, 1, 1, 2, 1, 8, 16, 2).empty());          // doubles: 2 per 16 bytes
  CHECK(error_of(good, 1, 1, 1, 1, 16, 4, 128).empty());        // 16-byte elements: 128 per row (256 halves)
  CHECK(error_of(good, 1LL << 32, 16, 16, 1, 1, 1, 16).empty()); // 2^32 rows
}

TEST_CASE("tma_map_error names each broken rule", "[tma]") {
  CHECK(mentions(error_of(0, 10, 10, 12, 1, 4, 4, 4), "null"));
  for (unsigned long long misalign : {1ull, 2ull, 4ull, 8ull, 12ull})
    CHECK(mentions(error_of(good + misalign, 10, 10, 12, 1, 4, 4, 4), "16-byte aligned"));
  CHECK(mentions(error_of(good, 10, 10, 10, 1, 4, 4, 4), "pitch in bytes"));    // 40 bytes
  CHECK(mentions(error_of(good, 10, 10, 13, 1, 4, 4, 4), "pitch in bytes"));    // 52 bytes
  CHECK(mentions(error_of(good, 10, 10, 9, 1, 4, 4, 4), "smaller than"));       // pitch < cols
  CHECK(mentions(error_of(good, 10, 10, 12, 1, 4, 4, 2), "multiple of 16 bytes"));  // 8-byte box row
  CHECK(mentions(error_of(good, 10, 10, 12, 1, 1, 4, 24), "multiple of 16 bytes")); // 24-byte box row
  CHECK(mentions(error_of(good, 10, 10, 12, 1, 4, 257, 4), "256 rows"));
  CHECK(mentions(error_of(good, 10, 10, 12, 1, 1, 4, 272), "256 elements"));
  CHECK(mentions(error_of(good, 10, 10, 12, 1, 16, 4, 129), "256 elements"));   // 258 halves
  CHECK(mentions(error_of(good, 10, 10, 12, 1, 4, 0, 4), "at least one row"));
  CHECK(mentions(error_of(good, 0, 10, 12, 1, 4, 4, 4), "at least one row"));
  CHECK(mentions(error_of(good, 10, 0, 12, 1, 4, 4, 4), "at least one row"));
  CHECK(mentions(error_of(good, 10, 10, 12, 3, 4, 4, 4), "contiguous"));
  CHECK(mentions(error_of(good, 10, 10, 12, 1, 3, 4, 4), "1, 2, 4, 8 or 16"));
  CHECK(mentions(error_of(good, 10, 10, 1LL << 38, 1, 4, 4, 4), "below 2^40"));
  CHECK(mentions(error_of(good, (1LL << 32) + 1, 16, 16, 1, 1, 1, 16), "2^32"));
}

TEST_CASE("tma_map_error: rows described in wider TMA elements (unit_bytes)", "[tma]") {
  // Floats as 8-byte units: a box row of 320 floats (160 units) fits, as 4-byte ones it does not.
  CHECK(tma_map_error(good, 64, 1024, 1024, 1, 4, 34, 320, 8) == nullptr);
  CHECK(mentions(tma_map_error(good, 64, 1024, 1024, 1, 4, 34, 320, 4), "256 elements"));
  CHECK(mentions(tma_map_error(good, 64, 1024, 1024, 1, 4, 34, 520, 8), "256 elements"));
  // The rows must be whole units: 1023 floats are not whole 8-byte units.
  CHECK(mentions(tma_map_error(good, 64, 1023, 1024, 1, 4, 34, 320, 8), "whole TMA elements"));
  CHECK(tma_map_error(good, 64, 1022, 1024, 1, 4, 34, 320, 8) == nullptr);
  // A unit no wider than 8 bytes and no narrower than the element (16-byte elements: 8).
  CHECK(mentions(tma_map_error(good, 64, 64, 64, 1, 8, 4, 16, 4), "no narrower"));
  CHECK(mentions(tma_map_error(good, 64, 64, 64, 1, 4, 4, 16, 16), "no narrower"));
  CHECK(mentions(tma_map_error(good, 64, 64, 64, 1, 4, 4, 16, 3), "no narrower"));
  CHECK(tma_map_error(good, 64, 64, 64, 1, 16, 4, 16, 8) == nullptr);
  CHECK(smemtile::arch::tma_unit_bytes(16) == 8);
  CHECK(smemtile::arch::tma_unit_bytes(4) == 4);
  CHECK(smemtile::arch::tma_unit_bytes(2, 8) == 8);
  // 3D maps take the same unit rules.
  CHECK(smemtile::arch::tma_map_error_3d(good, 8, 64, 1024, 64 * 1024, 1024, 1, 4, 34, 320, 8) == nullptr);
  CHECK(mentions(smemtile::arch::tma_map_error_3d(good, 8, 64, 1023, 64 * 1024, 1024, 1, 4, 34, 320, 8),
                 "whole TMA elements"));
}

TEST_CASE("tma_map_error on random arguments agrees with the rules written out", "[tma]") {
  unsigned state = 12345u;
  const auto next = [&state](unsigned n) {
    state = state * 1664525u + 1013904223u;
    return (state >> 8) % n;
  };
  const int sizes[] = {1, 2, 4, 8, 16};
  for (int i = 0; i < 5000; ++i) {
    const int elem = sizes[next(5)];
    const unsigned long long address = 0x10000ull + next(64);
    const long long rows = 1 + next(300), cols = 1 + next(300);
    const long long pitch = cols + next(40);
    const int box_rows = 1 + static_cast<int>(next(300)), box_cols = 1 + static_cast<int>(next(300));
    const int per = elem == 16 ? 2 : 1;
    const bool ok = address % 16 == 0 && (pitch * elem) % 16 == 0 && box_rows <= 256 && box_cols * per <= 256 &&
                    (box_cols * elem) % 16 == 0;
    INFO("address " << address << " rows " << rows << " cols " << cols << " pitch " << pitch << " elem " << elem
                    << " box " << box_rows << " x " << box_cols);
    CHECK(error_of(address, rows, cols, pitch, 1, elem, box_rows, box_cols).empty() == ok);
  }
}

TEST_CASE("TmaTile is a dense, 128-byte aligned StaticTile", "[tma]") {
  using Tile = smemtile::TmaTile<float, 16, 32>;
  STATIC_REQUIRE(sizeof(Tile) == 16 * 32 * sizeof(float));
  STATIC_REQUIRE(alignof(Tile) == 128);
  STATIC_REQUIRE(Tile::layout().offset(3, 5) == 3 * 32 + 5);
  STATIC_REQUIRE(smemtile::TmaLayout<16, 32>::storage_size() == 16 * 32);
  using Small = smemtile::TmaTile<unsigned char, 2, 16>;  // 32 bytes of storage, still 128-aligned
  STATIC_REQUIRE(alignof(Small) == 128);
  STATIC_REQUIRE(sizeof(Small) == 128);  // sizeof is a multiple of alignof: C++ rounds it up
}

// 3D maps (device_stencil's planes): the 2D rules for each plane, plus the plane pitch's.
TEST_CASE("tma_map_error_3d adds the plane pitch's rules to the 2D ones", "[tma]") {
  using smemtile::arch::tma_map_error_3d;
  // 512^3 floats, dense: planes of 512 x 512, boxes of 18 x 72 (a 16 x 64 plane tile with its halo).
  CHECK(tma_map_error_3d(good, 512, 512, 512, 512 * 512, 512, 1, 4, 18, 72) == nullptr);
  // Padded planes (slice gaps) are fine when the plane pitch is a multiple of 16 bytes.
  CHECK(tma_map_error_3d(good, 7, 9, 40, 9 * 40 + 4, 40, 1, 4, 24, 72) == nullptr);
  // A plane pitch of 1096 bytes (274 floats): not a multiple of 16.
  const char* odd = tma_map_error_3d(good, 6, 4, 27, 274, 64, 1, 4, 24, 72);
  REQUIRE(odd != nullptr);
  CHECK(mentions(odd, "plane pitch"));
  // The same pitch in doubles is 2192 bytes: accepted.
  CHECK(tma_map_error_3d(good, 6, 4, 27, 274, 64, 1, 8, 24, 40) == nullptr);
  // Overlapping planes, no planes, and a 2D rule (the row pitch) all refuse.
  CHECK(tma_map_error_3d(good, 6, 4, 27, 64, 64, 1, 4, 24, 72) != nullptr);
  CHECK(tma_map_error_3d(good, 0, 4, 27, 256, 64, 1, 4, 24, 72) != nullptr);
  const char* row = tma_map_error_3d(good, 6, 4, 27, 256, 63, 1, 4, 24, 72);
  REQUIRE(row != nullptr);
  CHECK(mentions(row, "pitch"));
  static_assert(tma_map_error_3d(good, 1, 1, 1, 4, 4, 1, 4, 1, 4) == nullptr, "a 1 x 1 x 1 volume");
}
