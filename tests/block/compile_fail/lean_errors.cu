// Compile-fail snippets of the lean copies (tests/block/CMakeLists.txt): each case must stop
// compilation with one static_assert that says what to change; case 0 is the control.
//   0  the lean forms that must compile (aligned views, boundary::inside, a planned copy, fragments,
//      a transposed load into a TransposedLoadTile)
//   1  load_fragment of a transposed view           -> "rows are not contiguous"
//   2  load_fragment<4> of floats, rows of 33       -> "not a whole number of the fragment's vectors"
//   3  copy_global_to_tile from a raw pointer       -> "not a raw pointer"
//   4  store_fragment to a view without alignment  -> "make_aligned_matrix"
//   5  transposed load into a plain 8 x 128 tile    -> "TransposedLoadTile"
//   6  make_tile_copy with a run-time-sized group   -> "group of known size"
#include <smemtile/smemtile.cuh>

using namespace smemtile;

__global__ void lean(const float* a, float* c, int rows, int cols) {
  const FixedThreadBlock<256> block;
#if SMEMTILE_LEAN_CASE == 0
  __shared__ TransposedLoadTile<float, 8, 128> at;
  __shared__ StaticTile<float, 8, 128> b;
  const auto A = make_aligned_matrix<16>(a, rows, cols);
  copy_global_to_tile_transposed(A, Coord{0, 0}, at, boundary::inside, block);
  auto plan = make_tile_copy(A, Coord{0, 0}, b, boundary::inside, block, Coord{8, 0});
  plan.load(b);
  plan.advance();
  const auto f = load_fragment<8>(at, 0, 8 * (threadIdx.x % 16));
  store_fragment(make_aligned_matrix<16>(c, rows, cols), 0, 0, load_fragment<4>(b, 0, 0));
  c[threadIdx.x] = f[0];
#elif SMEMTILE_LEAN_CASE == 1
  __shared__ StaticTile<float, 32, 32> t;
  c[threadIdx.x] = load_fragment<4>(t.transposed(), 0, 0)[0];
#elif SMEMTILE_LEAN_CASE == 2
  __shared__ StaticTile<float, 32, 32, 1> t;
  c[threadIdx.x] = load_fragment<4>(t, 0, 0)[0];
#elif SMEMTILE_LEAN_CASE == 3
  __shared__ StaticTile<float, 32, 32> t;
  copy_global_to_tile(a, Coord{0, 0}, t, boundary::inside, block);
#elif SMEMTILE_LEAN_CASE == 4
  __shared__ StaticTile<float, 32, 32> t;
  store_fragment(make_global_matrix(c, rows, cols), 0, 0, load_fragment<4>(t, 0, 0));
#elif SMEMTILE_LEAN_CASE == 5
  __shared__ StaticTile<float, 8, 128> t;
  copy_global_to_tile_transposed(make_aligned_matrix<16>(a, rows, cols), Coord{0, 0}, t, boundary::inside, block);
#elif SMEMTILE_LEAN_CASE == 6
  __shared__ StaticTile<float, 8, 128> t;
  auto plan = make_tile_copy(make_global_matrix(a, rows, cols), Coord{0, 0}, t, boundary::inside, ThreadBlock{});
  plan.load(t);
#endif
}

int main() { return 0; }
