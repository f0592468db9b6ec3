// examples/seeds/seed_kernels_pairs.cu: every statically declared seed kernel twice, hand-written
// (raw_*) and with smemtile (lib_*), and nothing else: compile it on its own to PTX or a cubin to
// compare each pair, e.g.
//   nvcc -std=c++17 -O3 -DNDEBUG -arch=sm_90 -I include -ptx examples/seeds/seed_kernels_pairs.cu
// smemtile's accessors must cost nothing: each lib_* needs no more instructions than its raw_*.
#include "lib_seed_kernels.cuh"
#include "raw_seed_kernels.cuh"
