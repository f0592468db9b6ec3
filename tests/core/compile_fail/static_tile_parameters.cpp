// Compiled (not run) by the compile-fail tests: declares one StaticTile whose parameters come from
// the command line, -DTILE_T=int -DTILE_ROWS=.. -DTILE_COLS=.. -DTILE_PAD=.. . Each invalid set
// must stop compilation with smemtile's message; its nearest valid set must compile, which proves
// that the failure comes from the parameter and not from the snippet.
#include <smemtile/core/static_tile.cuh>

using Tile = smemtile::StaticTile<TILE_T, TILE_ROWS, TILE_COLS, TILE_PAD>;

// Needs the complete type, so every static_assert of the tile and its layout is evaluated.
static_assert(sizeof(Tile) > 0, "instantiate the tile");
