// Host tests for core/batch_layout.cuh (the staged layout of small_batch_registers), compiled by the
// C++ compiler (no nvcc):
//  - batch_stage_slot is a bijection onto the stage's units for every shape the register tiles take
//    (rows and cols multiples of the tile side up to 64, 1- to 8-byte elements, 1 matrix up to a
//    full 32 KB stage), and stays inside the stage;
//  - the data movement of block/batch_tiles.cuh emulated with the geometry's own index math (flat
//    chunks into the input layout, T x T tiles read down their columns, written transposed into the
//    output layout, flat chunks out) is the transpose of every matrix;
//  - the bank model finds the four accesses conflict-free where rows and cols are powers of two
//    (1-byte elements: 2-way where a row or an output row is one 8-byte unit), and at most 4-way for
//    any shape;
//  - small_batch_registers_apply / small_batch_staged_apply / select_transpose_algorithm: which calls
//    take the register tiles, which the staged run (any shape, any input alignment).
#include <smemtile/smemtile.cuh>

#include <algorithm>
#include <cstring>
#include <vector>

#include "catch.hpp"

namespace {

constexpr int kStage = 32 * 1024;

// Stage bytes of `count` rows x cols matrices of E, emulated: in (flat) -> stage (input layout) ->
// tiles -> stage (output layout) -> out (flat), as block/batch_tiles.cuh moves them.
template <int E>
std::vector<unsigned char> emulate(const std::vector<unsigned char>& in, int rows, int cols, int count) {
  const auto g = smemtile::batch_tile_geometry<E>(rows, cols);
  constexpr int U = smemtile::batch_unit_bytes(E), T = smemtile::batch_tile_side(E);
  const int units = count * rows * cols * E / U, a = cols / T, b = rows / T;
  std::vector<unsigned char> stage(kStage), out(in.size());
  for (int v = 0; v < units; ++v) std::memcpy(&stage[g.in_slot(v) * U], &in[v * U], U);
  std::vector<unsigned char> tiles(static_cast<std::size_t>(units) * U);  // every thread's registers
  for (int s = 0; s < count * a * b; ++s) {
    const int beta = s / a, tj = s % a;
    unsigned char tile[T][U];
    for (int k = 0; k < T; ++k) std::memcpy(tile[k], &stage[g.in_slot((beta * T + k) * a + tj) * U], U);
    for (int c = 0; c < T; ++c)  // output row c of the tile: element k = tile row k, element c
      for (int k = 0; k < T; ++k) std::memcpy(&tiles[(s * T + c) * U + k * E], &tile[k][c * E], E);
  }
  std::fill(stage.begin(), stage.end(), 0);
  for (int s = 0; s < count * a * b; ++s) {
    const int beta = s / a, tj = s % a, m = beta / b, ti = beta % b;
    for (int c = 0; c < T; ++c)
      std::memcpy(&stage[g.out_slot(((m * a + tj) * T + c) * b + ti) * U], &tiles[(s * T + c) * U], U);
  }
  for (int v = 0; v < units; ++v) std::memcpy(&out[v * U], &stage[g.out_slot(v) * U], U);
  return out;
}

template <int E>
void check_shapes() {
  constexpr int T = smemtile::batch_tile_side(E);
  for (int rows = T; rows <= 64; rows += T)
    for (int cols = T; cols <= 64; cols += T) {
      const int per_block = kStage / (rows * cols * E);
      if (per_block == 0) continue;
      INFO("E " << E << ", " << rows << " x " << cols);
      const auto g = smemtile::batch_tile_geometry<E>(rows, cols);
      constexpr int U = smemtile::batch_unit_bytes(E);
      const int units = per_block * rows * cols * E / U;
      std::vector<int> seen_in(kStage / U, 0), seen_out(kStage / U, 0);
      bool bijective = true;
      for (int v = 0; v < units; ++v) {
        const int si = g.in_slot(v), so = g.out_slot(v);
        REQUIRE((si >= 0 && si < kStage / U && so >= 0 && so < kStage / U));
        bijective = bijective && seen_in[si]++ == 0 && seen_out[so]++ == 0;
      }
      CHECK(bijective);
      for (int count : {1, per_block / 2 + 1, per_block}) {
        std::vector<unsigned char> in(static_cast<std::size_t>(count) * rows * cols * E);
        for (std::size_t i = 0; i < in.size(); ++i) in[i] = static_cast<unsigned char>(i * 131 + i / 251);
        const auto out = emulate<E>(in, rows, cols, count);
        bool same = true;
        for (int m = 0; m < count && same; ++m)
          for (int r = 0; r < rows; ++r)
            for (int c = 0; c < cols; ++c)
              same = same && std::memcmp(&out[((m * cols + c) * rows + r) * E], &in[((m * rows + r) * cols + c) * E], E) == 0;
        CHECK(same);
      }
    }
}

bool power_of_two(int x) { return (x & (x - 1)) == 0; }

template <int E>
void check_banks() {
  constexpr int T = smemtile::batch_tile_side(E), U = smemtile::batch_unit_bytes(E);
  for (int rows = T; rows <= 64; rows += T)
    for (int cols = T; cols <= 64; cols += T) {
      const int per_block = kStage / (rows * cols * E);
      if (per_block == 0) continue;
      INFO("E " << E << ", " << rows << " x " << cols);
      const auto c = smemtile::batch_stage_costs(smemtile::batch_tile_geometry<E>(rows, cols), per_block);
      CHECK(c.flat_in.conflicts == 0);  // a 128-byte group's XOR is one constant
      CHECK(c.flat_out.conflicts == 0);
      const smemtile::BankCost tiles = c.tile_in + c.tile_out;
      if (power_of_two(rows) && power_of_two(cols)) {
        // 8-byte units whose row (or output row) is one unit: a phase's 16 lanes are 16 row blocks
        // apart and the XOR, over whole 16-byte chunks, has only 8 values for them
        const bool one_unit = U == 8 && (cols == T || rows == T);
        CHECK(tiles.wavefronts <= (one_unit ? 2 : 1) * tiles.ideal_wavefronts);
      } else {
        CHECK(tiles.wavefronts <= 4 * tiles.ideal_wavefronts);
      }
    }
}

}  // namespace

TEST_CASE("batch layout: bijective stage slots, and the emulated block moves transpose every matrix",
          "[transpose][batch]") {
  check_shapes<1>();
  check_shapes<2>();
  check_shapes<4>();
  check_shapes<8>();
}

TEST_CASE("batch layout: the bank model finds power-of-two shapes conflict-free", "[transpose][batch][banks]") {
  check_banks<1>();
  check_banks<2>();
  check_banks<4>();
  check_banks<8>();
}

TEST_CASE("batch layout: the tile side and which shapes take register tiles", "[transpose][batch]") {
  CHECK(smemtile::batch_tile_side(1) == 8);
  CHECK(smemtile::batch_tile_side(2) == 8);
  CHECK(smemtile::batch_tile_side(4) == 4);
  CHECK(smemtile::batch_tile_side(8) == 2);
  CHECK(smemtile::batch_tiles_fit(8, 8, 1));
  CHECK(smemtile::batch_tiles_fit(64, 40, 2));
  CHECK_FALSE(smemtile::batch_tiles_fit(33, 31, 4));
  CHECK_FALSE(smemtile::batch_tiles_fit(12, 8, 1));  // 12 rows: not whole 8 x 8 byte tiles
  CHECK(smemtile::batch_tiles_fit(12, 8, 4));
  CHECK(smemtile::batch_tiles_fit(6, 2, 8));
  CHECK_FALSE(smemtile::batch_tiles_fit(8, 8, 16));  // 16-byte elements keep small_batch
  CHECK_FALSE(smemtile::batch_tiles_fit(0, 8, 1));
  static_assert(smemtile::batch_tile_geometry<2>(16, 16).matrix_chunks() == 32, "constexpr");
}

TEST_CASE("select_transpose_algorithm: small_batch_registers for dense aligned batches of whole tiles",
          "[transpose][policy][batch]") {
  using A = smemtile::TransposeAlgorithm;
  using smemtile::TransposeSelectionInput;
  const auto dense = [](long long rows, long long cols, long long batch, int e) {
    return TransposeSelectionInput{rows, cols, batch, e, cols, rows, rows * cols, rows * cols, 0x10000, 0x20000};
  };
  const auto select = [](const TransposeSelectionInput& in) { return smemtile::select_transpose_algorithm(in); };
  for (int e : {1, 2, 4, 8, 16}) {
    INFO("element bytes " << e);
    const A tiles = e <= 8 ? A::small_batch_registers : A::small_batch_staged;
    CHECK(select(dense(8, 8, 1 << 20, e)) == tiles);
    CHECK(select(dense(16, 16, 1 << 20, e)) == tiles);
    CHECK(select(dense(32, 32, 1 << 16, e)) == tiles);
    CHECK(select(dense(33, 31, 1 << 16, e)) == A::small_batch_staged);  // not whole tiles: dense, staged flat
    CHECK(select(dense(8, 8, 1, e)) == tiles);
    TransposeSelectionInput in = dense(16, 16, 100, e);
    in.in_address += 8;  // a chunk of the flat run would straddle two: staged with its phase
    CHECK(select(in) == A::small_batch_staged);
    in = dense(16, 16, 100, e);
    in.out_address += 16;
    CHECK(select(in) == tiles);
    in.ld_out += 1;  // not dense
    CHECK(select(in) == A::small_batch);
    in = dense(16, 16, 100, e);
    in.stride_in += 16;  // a gap between matrices
    CHECK(select(in) == A::small_batch);
    in.batch = 1;  // one matrix: no stride to follow
    CHECK(select(in) == tiles);
  }
  // 64 x 64: one matrix fits the 32 KB stage up to 8-byte elements, the record tile only up to
  // 4-byte ones: 64 x 64 doubles take the register tiles dense, the large tiles otherwise
  CHECK(select(dense(64, 64, 1 << 14, 4)) == A::small_batch_registers);
  CHECK(select(dense(64, 64, 1 << 14, 8)) == A::small_batch_registers);
  TransposeSelectionInput gap = dense(64, 64, 3, 8);
  gap.stride_in += 2;
  CHECK(select(gap) == A::padded_elements);
  CHECK(select(dense(72, 8, 5, 4)) == A::narrow_rows);  // 72 rows: not a small matrix (a narrow one)
  CHECK(select(dense(24, 40, 5, 1)) == A::small_batch_registers);
  CHECK(select(dense(12, 40, 5, 1)) == A::small_batch_staged);
  CHECK(select(dense(12, 40, 5, 2)) == A::small_batch_staged);
  CHECK(select(dense(12, 40, 5, 4)) == A::small_batch_registers);
  CHECK(select(dense(6, 10, 5, 8)) == A::small_batch_registers);
  CHECK(select(dense(6, 9, 5, 8)) == A::small_batch_staged);
  CHECK(smemtile::small_batch_registers_apply(dense(64, 64, 3, 8), 32 * 1024));
  CHECK_FALSE(smemtile::small_batch_registers_apply(dense(64, 64, 3, 8), 16 * 1024));  // a matrix over the stage
}

TEST_CASE("small_batch_staged_apply: dense batches of any shape, the output aligned to the element",
          "[transpose][policy][batch]") {
  using smemtile::TransposeSelectionInput;
  const auto dense = [](long long rows, long long cols, long long batch, int e) {
    return TransposeSelectionInput{rows, cols, batch, e, cols, rows, rows * cols, rows * cols, 0x10000, 0x20000};
  };
  const auto apply = [](const TransposeSelectionInput& in) { return smemtile::small_batch_staged_apply(in, 32 * 1024); };
  CHECK(apply(dense(33, 31, 100, 4)));
  CHECK(apply(dense(1, 1, 100, 1)));
  CHECK(apply(dense(64, 64, 100, 8)));         // 32 KB: one matrix per block
  CHECK_FALSE(apply(dense(64, 65, 100, 8)));   // over the stage
  CHECK_FALSE(apply(dense(64, 64, 100, 16)));  // 64 KB
  TransposeSelectionInput in = dense(33, 31, 100, 8);
  in.in_address += 4;  // an 8-byte element aligned to 4: the input is staged in 4-byte words
  CHECK(apply(in));
  in = dense(33, 31, 100, 8);
  in.out_address += 4;  // an output piece would hold half an element
  CHECK_FALSE(apply(in));
  in = dense(33, 31, 100, 2);
  in.stride_out += 1;  // a gap on the output side
  CHECK_FALSE(apply(in));
  in.batch = 1;  // one matrix: strides unused
  CHECK(apply(in));
  in = dense(33, 31, 100, 2);
  in.ld_in = 32;
  CHECK_FALSE(apply(in));
  // doubles in rows of 32 or 64 off 16 bytes: staged measured slower, the earlier algorithms keep them
  const auto select = [](const TransposeSelectionInput& x) { return smemtile::select_transpose_algorithm(x); };
  using A = smemtile::TransposeAlgorithm;
  in = dense(32, 32, 1 << 16, 8);
  in.in_address += 8;
  CHECK(apply(in));
  CHECK(select(in) == A::small_batch);
  in = dense(64, 64, 1 << 14, 8);
  in.out_address += 8;
  CHECK(select(in) == A::padded_elements);  // no record tile holds one
  in = dense(32, 31, 1 << 16, 8);
  in.in_address += 8;
  CHECK(select(in) == A::small_batch_staged);
  in = dense(32, 32, 1 << 16, 4);
  in.in_address += 4;
  CHECK(select(in) == A::small_batch_staged);  // floats: 93.6% staged against 68.5%
}
