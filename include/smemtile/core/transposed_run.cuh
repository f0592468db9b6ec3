/// \file
/// The index math of a run of whole small matrices (rows x cols each, one after another) and of its
/// transpose (cols x rows each, in the same order): output element o of the run, matrix m = o /
/// (rows cols), row j, column i of its transpose, is input element m rows cols + i cols + j.
/// device_transpose's small_batch_staged algorithm and block/staged_batch.cuh gather output pieces
/// from a run staged flat in shared memory with it.
///
/// Bank cost of the gather (transposed_run_piece_access, bank model of banks.cuh): lanes take
/// consecutive output pieces of W bytes, so at one element step the lanes are W cols bytes apart in
/// the stage, except where their pieces cross the end of an input column (every `rows` output
/// elements). For odd cols a warp's reads average 2-3 wavefronts (33 x 31: bytes in 8-byte pieces
/// 2.2, halves and floats in 16-byte pieces 2.1 and 3.1); cols with many factors of two cost more
/// (17 x 64 bytes: 5). tests/core/transposed_run_host_test.cpp measures it.
#pragma once

#include "../config.cuh"      // SMEMTILE_HOST_DEVICE
#include "banks.cuh"          // WarpAccess
#include "record_layout.cuh"  // FastDivmod

namespace smemtile {

/// The shape of a run of rows x cols matrices and its divisions (prepared on the host, once per call).
struct TransposedRunGeometry {
  int rows = 1;          ///< rows of each input matrix (columns of its transpose)
  int cols = 1;          ///< columns of each input matrix (rows of its transpose)
  FastDivmod by_matrix;  ///< elements of one matrix: rows cols
  FastDivmod by_rows;    ///< rows

  TransposedRunGeometry() = default;
  /// The geometry of rows x cols matrices (rows, cols >= 1).
  SMEMTILE_HOST_DEVICE constexpr TransposedRunGeometry(int rows_, int cols_)
      : rows(rows_), cols(cols_), by_matrix(static_cast<unsigned>(rows_ * cols_)), by_rows(static_cast<unsigned>(rows_)) {}
  /// Elements of one matrix.
  SMEMTILE_HOST_DEVICE constexpr int matrix() const { return rows * cols; }
  /// The input element that output element o of the run is.
  SMEMTILE_HOST_DEVICE constexpr int source(int o) const {
    unsigned rem = 0, i = 0;
    const unsigned m = by_matrix.divmod(static_cast<unsigned>(o), rem);
    const unsigned j = by_rows.divmod(rem, i);
    return static_cast<int>(m) * matrix() + static_cast<int>(i) * cols + static_cast<int>(j);
  }
};

/// Walks a run's output in order from output element o: `source` is the input element of the
/// current one; one division pair at the start, then an add and a compare per element.
struct TransposedRunCursor {
  int source;  ///< input element of the current output element
  int i;       ///< its column in its matrix's transpose (the input row)
  int j;       ///< its row in its matrix's transpose (the input column)
  int rows;    ///< rows of each input matrix
  int cols;    ///< columns of each input matrix
  /// At output element o of a run of g's matrices.
  SMEMTILE_HOST_DEVICE constexpr TransposedRunCursor(const TransposedRunGeometry& g, int o)
      : source(0), i(0), j(0), rows(g.rows), cols(g.cols) {
    unsigned rem = 0, ii = 0;
    const unsigned m = g.by_matrix.divmod(static_cast<unsigned>(o), rem);
    j = static_cast<int>(g.by_rows.divmod(rem, ii));
    i = static_cast<int>(ii);
    source = static_cast<int>(m) * g.matrix() + i * cols + j;
  }
  /// The next output element: down the input column, to the next column at its end, to the next
  /// matrix after its last column.
  SMEMTILE_HOST_DEVICE constexpr void next() {
    source += cols;
    if (++i == rows) {
      i = 0;
      source += 1 - rows * cols;       // back to the top, one column on
      if (++j == cols) {
        j = 0;
        source += rows * cols - cols;  // the next matrix's first element
      }
    }
  }
};

/// `count` consecutive output elements from o where the matrices have at least `count` rows, so that
/// they cross at most one end of an input column: element e is input element
/// first + e cols + (e >= wrap ? delta : 0). One division pair, then an add and a select per element
/// (the cursor's compare and branches would double a byte piece's instructions).
struct TransposedRunPiece {
  int first;  ///< input element of output element o
  int wrap;   ///< elements before the input column ends (rows - i)
  int delta;  ///< what the column's end adds: back to the top and one column on, or the next matrix
  int cols;   ///< input columns
  /// At output element o of a run of g's matrices.
  SMEMTILE_HOST_DEVICE constexpr TransposedRunPiece(const TransposedRunGeometry& g, int o)
      : first(0), wrap(0), delta(0), cols(g.cols) {
    unsigned rem = 0, i = 0;  // o < 2^31: a run within one block's shared memory
    const unsigned m = g.by_matrix.divmod_small(static_cast<unsigned>(o), rem);
    const int j = static_cast<int>(g.by_rows.divmod_small(rem, i));
    first = static_cast<int>(m) * g.matrix() + static_cast<int>(i) * cols + j;
    wrap = g.rows - static_cast<int>(i);
    delta = j + 1 == cols ? 1 - cols : 1 - g.matrix();
  }
  /// The input element of output element o + e.
  SMEMTILE_HOST_DEVICE constexpr int source(int e) const { return first + e * cols + (e >= wrap ? delta : 0); }
};

/// Bytes of the output pieces a thread of small_batch_staged builds and stores at once, for
/// elements of elem_bytes: 8 for bytes (half the per-piece work of 4-byte pieces at about the same
/// bank cost), 16 otherwise.
SMEMTILE_HOST_DEVICE constexpr int transposed_run_piece_bytes(int elem_bytes) { return elem_bytes == 1 ? 8 : 16; }

/// One warp's stage reads at element step e of its output pieces (piece_bytes each, lane l on piece
/// first_piece + l, the run staged from byte `shift` of a 16-byte aligned stage), for the bank model.
SMEMTILE_HOST_DEVICE constexpr WarpAccess transposed_run_piece_access(const TransposedRunGeometry& g, int elem_bytes,
                                                                      int piece_bytes, int first_piece, int e,
                                                                      int shift = 0) {
  WarpAccess access{{}, 0u, elem_bytes, AccessOp::load};
  const int per_piece = piece_bytes / elem_bytes;
  for (int lane = 0; lane < warp_lanes; ++lane) {
    const int o = (first_piece + lane) * per_piece + e;
    access.byte_address[lane] = static_cast<unsigned>(shift + g.source(o) * elem_bytes);
    access.active_mask |= 1u << lane;
  }
  return access;
}

}  // namespace smemtile
