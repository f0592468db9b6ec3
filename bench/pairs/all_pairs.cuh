// bench/pairs/all_pairs.cuh: every kernel pair of issue 25 (see pairs_common.cuh for what a pair
// header holds), and PAIRS_FOR_EACH_INSTANCE(X), which names each pair's Instance type once, for
// the test and the benchmark to loop over.
#pragma once

#include "bitonic_sort.cuh"
#include "block_reduce.cuh"
#include "histogram256.cuh"
#include "matmul_tiled.cuh"
#include "separable_conv.cuh"
#include "sgemm_regblock.cuh"
#include "transpose_tiled.cuh"
