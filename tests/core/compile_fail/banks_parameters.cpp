// Misuses that must not compile, one per SMEMTILE_COMPILE_ERROR_CASE value; CTest checks that the
// compiler rejects each with smemtile's message (tests/core/CMakeLists.txt).
#include <smemtile/core/conflict_free_tiles.cuh>

#if SMEMTILE_COMPILE_ERROR_CASE == 1
// A warp reading two 16-int rows: no padding keeps both rows and columns conflict-free.
smemtile::AutoPaddedTile<int, 32, 16> tile;
#elif SMEMTILE_COMPILE_ERROR_CASE == 2
// 48 floats per row is not a whole number of 128-byte lines.
smemtile::SwizzledTile<float, 32, 48> tile;
#elif SMEMTILE_COMPILE_ERROR_CASE == 3
// The swizzle is defined for 4-, 8- and 16-byte elements.
smemtile::SwizzledTile<short, 32, 64> tile;
#elif SMEMTILE_COMPILE_ERROR_CASE == 4
// 24 rows of 4-byte elements: a warp's column run would reuse XOR masks.
smemtile::SwizzledTile<int, 24, 32> tile;
#else
int tile;  // the control case compiles
#endif

int main() { return sizeof(tile) == 0; }
