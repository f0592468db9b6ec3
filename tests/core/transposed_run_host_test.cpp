// Host tests for core/transposed_run.cuh (the index math of small_batch_staged), compiled by the C++
// compiler (no nvcc):
//  - TransposedRunGeometry::source, TransposedRunCursor and TransposedRunPiece give the same input
//    element as the definition (matrix m, output row j, column i -> m rows cols + i cols + j) for
//    every output element of runs of every shape up to 64 x 64 (pieces from every start);
//  - FastDivmod::div_small is exact below 2^31;
//  - the gather's bank cost (transposed_run_piece_access, the bank model): at least 10 bytes per
//    wavefront on 33 x 31 and 31 x 33 for every element size.
#include <smemtile/smemtile.cuh>

#include <random>

#include "catch.hpp"

namespace {

int definition(int rows, int cols, int o) {
  const int m = o / (rows * cols), rem = o % (rows * cols), j = rem / rows, i = rem % rows;
  return m * rows * cols + i * cols + j;
}

}  // namespace

TEST_CASE("transposed run: source, cursor and pieces agree with the definition", "[transpose][batch][layout]") {
  for (int rows = 1; rows <= 64; rows += rows < 9 ? 1 : 7)
    for (int cols = 1; cols <= 64; cols += cols < 9 ? 1 : 5) {
      INFO("rows " << rows << ", cols " << cols);
      const smemtile::TransposedRunGeometry g(rows, cols);
      const int n = 3 * rows * cols;
      smemtile::TransposedRunCursor at(g, 0);
      bool ok = true;
      for (int o = 0; o < n; ++o, at.next()) ok = ok && at.source == definition(rows, cols, o) && g.source(o) == at.source;
      CHECK(ok);
      for (int p : {2, 4, 8, 16}) {  // pieces of p elements from every start, where rows >= p
        if (rows < p) continue;
        bool pieces_ok = true;
        for (int o = 0; o + p <= n; ++o) {
          const smemtile::TransposedRunPiece piece(g, o);
          for (int e = 0; e < p; ++e) pieces_ok = pieces_ok && piece.source(e) == definition(rows, cols, o + e);
        }
        CHECK(pieces_ok);
      }
    }
}

TEST_CASE("FastDivmod::div_small is exact below 2^31", "[batch][layout]") {
  std::mt19937 rng(31);
  std::uniform_int_distribution<unsigned> dividend(0u, 0x7fffffffu), divisor(1u, 1u << 20);
  for (int t = 0; t < 200000; ++t) {
    const unsigned d = t < 4096 ? static_cast<unsigned>(t + 1) : divisor(rng);
    const unsigned n = t % 7 == 0 ? 0x7fffffffu - static_cast<unsigned>(t) : dividend(rng);
    const smemtile::FastDivmod by(d);
    unsigned rem = 0;
    const unsigned q = by.divmod_small(n, rem);
    if (q != n / d || rem != n % d) FAIL("n " << n << ", d " << d << ": " << q << " r " << rem);
  }
}

// Shared-memory bytes a warp's gather reads per wavefront, averaged over the element steps of the
// pieces of 60 warps from the start of a run (input columns end inside a warp's pieces: rows < 256).
double gather_bytes_per_wavefront(int rows, int cols, int elem_bytes) {
  const smemtile::TransposedRunGeometry g(rows, cols);
  const int w = smemtile::transposed_run_piece_bytes(elem_bytes), per_piece = w / elem_bytes;
  long long wavefronts = 0, bytes = 0;
  for (int first = 0; first < 60 * 32; first += 32)
    for (int e = 0; e < per_piece; ++e) {
      wavefronts += smemtile::bank_cost(smemtile::transposed_run_piece_access(g, elem_bytes, w, first, e)).wavefronts;
      bytes += 32LL * elem_bytes;
    }
  return static_cast<double>(bytes) / static_cast<double>(wavefronts);
}

TEST_CASE("transposed run: the gather reads at least 10 bytes per wavefront on the issue's 33 x 31 shapes",
          "[transpose][batch][banks]") {
  // At copy speed an H200 multiprocessor moves ~9.2 bytes per clock each way; shared memory serves one
  // wavefront per clock. The pieces' widths (transposed_run_piece_bytes) keep the gather above that
  // for 33 x 31 and 31 x 33 (odd cols); even cols with many factors of two (48, 64) are slower.
  for (int e : {1, 2, 4, 8, 16}) {
    INFO("element bytes " << e);
    CHECK(gather_bytes_per_wavefront(33, 31, e) >= 10.0);
    CHECK(gather_bytes_per_wavefront(31, 33, e) >= 10.0);
  }
  CHECK(gather_bytes_per_wavefront(17, 64, 1) < 10.0);  // the known slow case: 64 columns of bytes
}
