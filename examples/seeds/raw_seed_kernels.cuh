// examples/seeds/raw_seed_kernels.cuh: the seeds' statically declared kernels, as hand-written
// in the textbook (seeds 000/001), with only the macro names changed (see seed_dims.cuh).
//
// They are the reference twins of lib_seed_kernels.cuh: raw_<group>_<name> and lib_<group>_<name>
// do the same thing; the zero-overhead check compares their PTX (seed_kernels_pairs.cu) and the
// GPU tests compare their outputs. Kernel definitions: include this header in one .cu per program.
#pragma once

#include "seed_dims.cuh"

// ---- square: block dim3(32, 32) ------------------------------------------------------------------

__global__ void raw_square_setRowReadRow(int* out) {
  constexpr int BDIMX = seed_dims::square_bdim, BDIMY = seed_dims::square_bdim;
  __shared__ int tile[BDIMY][BDIMX];
  unsigned int idx = threadIdx.y * blockDim.x + threadIdx.x;
  tile[threadIdx.y][threadIdx.x] = idx;
  __syncthreads();
  out[idx] = tile[threadIdx.y][threadIdx.x];
}

__global__ void raw_square_setColReadCol(int* out) {
  constexpr int BDIMX = seed_dims::square_bdim, BDIMY = seed_dims::square_bdim;
  __shared__ int tile[BDIMX][BDIMY];
  unsigned int idx = threadIdx.y * blockDim.x + threadIdx.x;
  tile[threadIdx.x][threadIdx.y] = idx;
  __syncthreads();
  out[idx] = tile[threadIdx.x][threadIdx.y];
}

__global__ void raw_square_setRowReadCol(int* out) {
  constexpr int BDIMX = seed_dims::square_bdim, BDIMY = seed_dims::square_bdim;
  __shared__ int tile[BDIMY][BDIMX];
  unsigned int idx = threadIdx.y * blockDim.x + threadIdx.x;
  tile[threadIdx.y][threadIdx.x] = idx;
  __syncthreads();
  out[idx] = tile[threadIdx.x][threadIdx.y];
}

__global__ void raw_square_setRowReadColPad(int* out) {
  constexpr int BDIMX = seed_dims::square_bdim, BDIMY = seed_dims::square_bdim;
  constexpr int IPAD = seed_dims::square_ipad;
  __shared__ int tile[BDIMY][BDIMX + IPAD];
  unsigned int idx = threadIdx.y * blockDim.x + threadIdx.x;
  tile[threadIdx.y][threadIdx.x] = idx;
  __syncthreads();
  out[idx] = tile[threadIdx.x][threadIdx.y];
}

// ---- rectangular: block dim3(BDIMX, BDIMY) = dim3(32, 16) ---------------------------------------

__global__ void raw_rect_setRowReadRow(int* out) {
  constexpr int BDIMX = seed_dims::rect_bdimx, BDIMY = seed_dims::rect_bdimy;
  __shared__ int tile[BDIMY][BDIMX];
  unsigned int idx = threadIdx.y * blockDim.x + threadIdx.x;
  tile[threadIdx.y][threadIdx.x] = idx;
  __syncthreads();
  out[idx] = tile[threadIdx.y][threadIdx.x];
}

__global__ void raw_rect_setRowReadRow2(int* out) {
  constexpr int BDIMX = seed_dims::rect_bdimx, BDIMY = seed_dims::rect_bdimy;
  __shared__ int tile[BDIMY][BDIMX];
  unsigned int idx = threadIdx.y * blockDim.x + threadIdx.x;
  unsigned int irow = idx / blockDim.x;
  unsigned int icol = idx % blockDim.x;
  tile[irow][icol] = idx;
  __syncthreads();
  out[idx] = tile[irow][icol];
}

__global__ void raw_rect_setColReadCol(int* out) {
  constexpr int BDIMX = seed_dims::rect_bdimx, BDIMY = seed_dims::rect_bdimy;
  __shared__ int tile[BDIMX][BDIMY];
  unsigned int idx = threadIdx.y * blockDim.x + threadIdx.x;
  tile[threadIdx.x][threadIdx.y] = idx;
  __syncthreads();
  out[idx] = tile[threadIdx.x][threadIdx.y];
}

__global__ void raw_rect_setColReadCol2(int* out) {
  constexpr int BDIMX = seed_dims::rect_bdimx, BDIMY = seed_dims::rect_bdimy;
  __shared__ int tile[BDIMY][BDIMX];
  unsigned int idx = threadIdx.y * blockDim.x + threadIdx.x;
  unsigned int irow = idx / blockDim.y;
  unsigned int icol = idx % blockDim.y;
  tile[icol][irow] = idx;
  __syncthreads();
  out[idx] = tile[icol][irow];
}

__global__ void raw_rect_setRowReadCol(int* out) {
  constexpr int BDIMX = seed_dims::rect_bdimx, BDIMY = seed_dims::rect_bdimy;
  __shared__ int tile[BDIMY][BDIMX];
  unsigned int idx = threadIdx.y * blockDim.x + threadIdx.x;
  unsigned int irow = idx / blockDim.y;
  unsigned int icol = idx % blockDim.y;
  tile[threadIdx.y][threadIdx.x] = idx;
  __syncthreads();
  out[idx] = tile[icol][irow];
}

__global__ void raw_rect_setRowReadColPad1(int* out) {
  constexpr int BDIMX = seed_dims::rect_bdimx, BDIMY = seed_dims::rect_bdimy;
  constexpr int IPAD = seed_dims::rect_ipad1;
  __shared__ int tile[BDIMY][BDIMX + IPAD];
  unsigned int idx = threadIdx.y * blockDim.x + threadIdx.x;
  unsigned int irow = idx / blockDim.y;
  unsigned int icol = idx % blockDim.y;
  tile[threadIdx.y][threadIdx.x] = idx;
  __syncthreads();
  out[idx] = tile[icol][irow];
}

__global__ void raw_rect_setRowReadColPad2(int* out) {
  constexpr int BDIMX = seed_dims::rect_bdimx, BDIMY = seed_dims::rect_bdimy;
  constexpr int IPAD = seed_dims::rect_ipad2;
  __shared__ int tile[BDIMY][BDIMX + IPAD];
  unsigned int idx = threadIdx.y * blockDim.x + threadIdx.x;
  unsigned int irow = idx / blockDim.y;
  unsigned int icol = idx % blockDim.y;
  tile[threadIdx.y][threadIdx.x] = idx;
  __syncthreads();
  out[idx] = tile[icol][irow];
}
