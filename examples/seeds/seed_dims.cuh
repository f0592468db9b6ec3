// examples/seeds/seed_dims.cuh: the seeds' #define constants, as typed constants.
//
// The textbook programs (seeds 000/001) are separate files, each with its own BDIMX, BDIMY and
// IPAD macros. Here both groups live in one program, so each group gets its own names.
#pragma once

namespace seed_dims {

// Square group: block dim3(32, 32), tiles int[32][32] and int[32][32 + 1].
constexpr int square_bdim = 32;
constexpr int square_ipad = 1;

// Rectangular group: block dim3(BDIMX, BDIMY) = dim3(32, 16), tiles int[16][32], int[32][16]
// and the padded int[16][32 + IPAD] for IPAD 1 and 2.
constexpr int rect_bdimx = 32;
constexpr int rect_bdimy = 16;
constexpr int rect_ipad1 = 1;
constexpr int rect_ipad2 = 2;

}  // namespace seed_dims
