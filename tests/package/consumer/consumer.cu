// A consumer of smemtile: a 32x32 tile transpose written with StaticTile, and its raw twin.
#include <smemtile/smemtile.cuh>

#include <cstdio>

constexpr int kTile = 32;

__global__ void lib_transpose_tile(const float* in, float* out) {
  __shared__ smemtile::StaticTile<float, kTile, kTile, 1> tile;
  const unsigned rank = smemtile::thread_rank();
  tile(smemtile::thread_coord()) = in[rank];
  __syncthreads();
  out[rank] = tile.transposed()(smemtile::thread_coord());
}

__global__ void raw_transpose_tile(const float* in, float* out) {
  __shared__ float tile[kTile][kTile + 1];
  const unsigned rank = threadIdx.y * blockDim.x + threadIdx.x;
  tile[threadIdx.y][threadIdx.x] = in[rank];
  __syncthreads();
  out[rank] = tile[threadIdx.x][threadIdx.y];
}

int main() {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    std::printf("consumer: built against smemtile %d.%d.%d; no CUDA device to run on\n", SMEMTILE_VERSION_MAJOR,
                SMEMTILE_VERSION_MINOR, SMEMTILE_VERSION_PATCH);
    return 0;
  }
  const int n = kTile * kTile;
  float host_in[n], host_out[n];
  for (int i = 0; i < n; ++i) host_in[i] = static_cast<float>(i * 7 % 1009);
  float *in = nullptr, *out = nullptr;
  if (cudaMalloc(&in, sizeof host_in) != cudaSuccess || cudaMalloc(&out, sizeof host_out) != cudaSuccess ||
      cudaMemcpy(in, host_in, sizeof host_in, cudaMemcpyHostToDevice) != cudaSuccess ||
      cudaMemset(out, 0xFF, sizeof host_out) != cudaSuccess) {
    std::printf("consumer: CUDA setup failed\n");
    return 1;
  }
  lib_transpose_tile<<<1, dim3(kTile, kTile)>>>(in, out);
  if (cudaDeviceSynchronize() != cudaSuccess ||
      cudaMemcpy(host_out, out, sizeof host_out, cudaMemcpyDeviceToHost) != cudaSuccess) {
    std::printf("consumer: kernel failed\n");
    return 1;
  }
  for (int r = 0; r < kTile; ++r)
    for (int c = 0; c < kTile; ++c)
      if (host_out[r * kTile + c] != host_in[c * kTile + r]) {
        std::printf("consumer: wrong transpose at (%d, %d)\n", r, c);
        return 1;
      }
  std::printf("consumer: transpose correct\n");
  return 0;
}
