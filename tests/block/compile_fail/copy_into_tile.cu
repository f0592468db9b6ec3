// Compile-fail snippet (tests/block/CMakeLists.txt): a copy into a static tile whose layout the bank
// model rejects must stop compilation with copy.cuh's "bank conflicts" message.
//   SMEMTILE_COPY_CASE 0  StaticTile<float, 16, 16, 1>: a warp's 32 units span two rows of 17 words,
//                         words 0-15 and 17-32; word 32 shares bank 0 with word 0 (2-way): rejected
//   SMEMTILE_COPY_CASE 1  StaticTile<float, 8, 32, 1>: a warp is one row: accepted (the control)
//   SMEMTILE_COPY_CASE 2  AutoPaddedTile<short, 32, 32> (pad 2, rows of 68 bytes): the copy's 4-byte
//                         units span two rows per warp, words 0-15 and 17-32: rejected, although
//                         the message suggests an AutoPaddedTile (see copy_host_test.cpp)
#include <smemtile/smemtile.cuh>

#if SMEMTILE_COPY_CASE == 0
using T = float;
using Tile = smemtile::StaticTile<float, 16, 16, 1>;
#elif SMEMTILE_COPY_CASE == 2
using T = short;
using Tile = smemtile::AutoPaddedTile<short, 32, 32>;
#else
using T = float;
using Tile = smemtile::StaticTile<float, 8, 32, 1>;
#endif

__global__ void load(const T* in, int rows, int cols) {
  __shared__ Tile tile;
  smemtile::copy_global_to_tile(smemtile::make_global_matrix(in, rows, cols), smemtile::Coord{0, 0}, tile);
}

int main() { return 0; }
