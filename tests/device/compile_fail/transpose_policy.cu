// Compile-fail snippet (tests/device/CMakeLists.txt): a narrow register transpose policy breaking an
// invariant stops compilation with the static_assert beside it (device/kernels/
// transpose_narrow_registers.cuh, device/tuning/transpose_policy.cuh).
//   SMEMTILE_TRANSPOSE_CASE 0  a valid caller's policy: accepted (the control)
//   SMEMTILE_TRANSPOSE_CASE 1  records of 9 floats (over 8, not whole 16-byte chunks):
//                              "must be a multiple of 16 / element bytes"
//   SMEMTILE_TRANSPOSE_CASE 2  1000 records per block (not whole 16-byte chunks per thread):
//                              "must be a multiple of threads x 16 / element bytes"
//   SMEMTILE_TRANSPOSE_CASE 3  16-byte elements: "move 1- to 8-byte elements"
//   SMEMTILE_TRANSPOSE_CASE 4  realigned_rows of 8-byte elements: "moves 1-, 2- and 4-byte elements"
//   SMEMTILE_TRANSPOSE_CASE 5  realigned_rows with 256 threads for 128 columns: "4 x Cols threads"
//   SMEMTILE_TRANSPOSE_CASE 6  realigned_rows of floats in 16 warps (a 512-byte row is 33 chunks):
//                              "must fit one warp's lanes"
//   SMEMTILE_TRANSPOSE_CASE 7  a realigned_rows caller's policy (8 warps of bytes): accepted
//   SMEMTILE_TRANSPOSE_CASE 8  the default channel-group policy for 12 floats: accepted
//   SMEMTILE_TRANSPOSE_CASE 9  records of 40 floats (whole chunks, over transpose_register_group_max):
//                              "must be 1..transpose_register_group_max"
//   SMEMTILE_TRANSPOSE_CASE 10 narrow_cols_rotated with K = 10 (the rotation is conflict-free for odd K
//                              only): "an odd K of 9..transpose_rotated_max"
//   SMEMTILE_TRANSPOSE_CASE 11 the default narrow_rows_rotated policy for 31 floats: accepted
#include <smemtile/smemtile.cuh>

using namespace smemtile;

constexpr TransposeAlgorithm split = TransposeAlgorithm::narrow_rows_registers;
#if SMEMTILE_TRANSPOSE_CASE == 1
using P = TransposePolicy<split, 1024, 9, 0, 2, false>;
constexpr int elem_bytes = 4;
#elif SMEMTILE_TRANSPOSE_CASE == 2
using P = TransposePolicy<split, 1000, 3, 0, 2, false>;
constexpr int elem_bytes = 4;
#elif SMEMTILE_TRANSPOSE_CASE == 3
using P = TransposePolicy<split, 256, 3, 0, 2, false>;
constexpr int elem_bytes = 16;
#elif SMEMTILE_TRANSPOSE_CASE == 4
using P = TransposePolicy<TransposeAlgorithm::realigned_rows, 64, 64, 0, 2, false, 256>;
constexpr int elem_bytes = 8;
#elif SMEMTILE_TRANSPOSE_CASE == 5
using P = TransposePolicy<TransposeAlgorithm::realigned_rows, 512, 128, 0, 2, true, 256>;
constexpr int elem_bytes = 1;
#elif SMEMTILE_TRANSPOSE_CASE == 6
using P = TransposePolicy<TransposeAlgorithm::realigned_rows, 128, 128, 0, 2, true, 512>;
constexpr int elem_bytes = 4;
#elif SMEMTILE_TRANSPOSE_CASE == 7
using P = TransposePolicy<TransposeAlgorithm::realigned_rows, 512, 64, 0, 3, true, 256>;
constexpr int elem_bytes = 1;
#elif SMEMTILE_TRANSPOSE_CASE == 8
using P = DefaultNarrowRegisterPolicy<4, TransposeAlgorithm::narrow_rows_registers, 12>::type;
constexpr int elem_bytes = 4;
#elif SMEMTILE_TRANSPOSE_CASE == 9
using P = TransposePolicy<split, 1024, 40, 0, 2, false>;
constexpr int elem_bytes = 4;
#elif SMEMTILE_TRANSPOSE_CASE == 10
using P = TransposePolicy<TransposeAlgorithm::narrow_cols_rotated, 10, 512, 0, 1, false, 128>;
constexpr int elem_bytes = 4;
#elif SMEMTILE_TRANSPOSE_CASE == 11
using P = DefaultNarrowRotatedPolicy<4, TransposeAlgorithm::narrow_rows_rotated, 31>::type;
constexpr int elem_bytes = 4;
#else
using P = DefaultNarrowRegisterPolicy<2, TransposeAlgorithm::narrow_cols_registers, 5>::type;
constexpr int elem_bytes = 2;
#endif

static_assert(TransposePolicyCheck<P, elem_bytes>::ok, "");
#if SMEMTILE_TRANSPOSE_CASE < 3 || SMEMTILE_TRANSPOSE_CASE == 8 || SMEMTILE_TRANSPOSE_CASE == 9  // narrow register cases
static_assert(detail::NarrowRegisterShape<P, elem_bytes>::records > 0, "");
#endif

int main() { return 0; }
