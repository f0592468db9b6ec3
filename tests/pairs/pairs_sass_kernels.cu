// tests/pairs/pairs_sass_kernels.cu: every kernel pair of bench/pairs (hand_<x> and lib_<x>),
// instantiated for the SASS check (tests/pairs/check_pairs_sass.py, CTest pairs:sass_hot_loops).
// Only compiled, never run.
#include "all_pairs.cuh"

template __global__ void pairs::matmul_tiled::hand_matmul_tiled<16>(const float*, const float*, float*, int, int, int);
template __global__ void pairs::matmul_tiled::lib_matmul_tiled<16>(const float*, const float*, float*, int, int, int);
template __global__ void pairs::matmul_tiled::hand_matmul_tiled<32>(const float*, const float*, float*, int, int, int);
template __global__ void pairs::matmul_tiled::lib_matmul_tiled<32>(const float*, const float*, float*, int, int, int);
