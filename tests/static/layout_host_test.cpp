// Host tests of the layouts behind StaticTile (pure C++: no CUDA compiler involved).
#include <smemtile/layout.cuh>

#include "catch.hpp"

TEST_CASE("padded layout offsets match a raw T[Rows][Cols + Pad] array") {
  using L = smemtile::PaddedLayout<16, 32, 2>;
  static_assert(L::storage_size() == 16 * 34, "storage");
  static_assert(L::offset(3, 5) == 3 * 34 + 5, "offset");
  int raw[16][34];
  for (int r = 0; r < 16; ++r)
    for (int c = 0; c < 32; ++c) REQUIRE(&raw[r][c] - &raw[0][0] == L::offset(r, c));
}
