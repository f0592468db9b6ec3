// host_cost_bench: host time per call of smemtile::device_stencil (1D, 2D, 3D) and
// smemtile::device_transpose on small arrays, against an empty kernel launch (issue 22, item 6:
// at most twice an empty launch). A plain timed loop (no NVBench: what is measured is the host).
//
// Two measurements per call, each the median of 7 repetitions, in microseconds per call:
//   queued   2000 calls back to back on one stream, no waiting (the issue's measurement): the host
//            time of the loop / 2000. Where a kernel takes longer on the GPU than a call takes on
//            the host, the launch queue fills and the host waits for the GPU: this is then the
//            kernel's GPU time, not host cost.
//   host     200 calls while the GPU is held by a kernel spinning on a flag in mapped host memory
//            (released after the loop; it gives up after 2 s so nothing can hang): the launches
//            only queue, so this is the host work per call alone.
// and each one's ratio to the empty launch's. The first call of each is made before timing (it
// sets kernel attributes and encodes the first TMA map). The 2D and 3D stencils alternate two
// buffers (a time loop's ping-pong); "encode 3D map" times arch::make_tma_map_3d itself, the
// driver's cuTensorMapEncodeTiled that device_stencil does once per array and caches.
// Prints the GPU's name first. Run: ./host_cost_bench
#include <smemtile/smemtile.cuh>

#define SMEMTILE_BENCH_NAME "host_cost_bench"
#include "bench_common.cuh"  // CUDA_CHECK
#include "stencil_ops.cuh"   // Heat7

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string>
#include <vector>


namespace {

__global__ void empty_kernel() {}

// Holds the GPU until *flag is set by the host (or about 2 s have passed).
__global__ void hold_gpu(volatile int* flag) {
  const long long start = clock64();
  while (*flag == 0 && clock64() - start < 4'000'000'000LL) {
  }
}

struct Heat2D {  // 5-point heat step
  template <class N>
  __device__ float operator()(const N& n) const {
    return n(0, 0) + 0.1f * (n(-1, 0) + n(1, 0) + n(0, -1) + n(0, 1) - 4.0f * n(0, 0));
  }
};
struct Sum3 {
  template <class N>
  __device__ float operator()(const N& n) const {
    return n(-1) + n(0) + n(1);
  }
};

using Clock = std::chrono::steady_clock;

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

// Host microseconds per call of `call(i)`, `calls` times back to back (median of 7).
double queued_us(const std::function<void(int)>& call, int calls, cudaStream_t stream) {
  std::vector<double> reps;
  for (int r = 0; r < 7; ++r) {
    CUDA_CHECK(cudaStreamSynchronize(stream));
    const auto t0 = Clock::now();
    for (int i = 0; i < calls; ++i) call(i);
    const auto t1 = Clock::now();
    reps.push_back(std::chrono::duration<double, std::micro>(t1 - t0).count() / calls);
  }
  CUDA_CHECK(cudaStreamSynchronize(stream));
  return median(reps);
}

// The same with the GPU held, so that no launch waits for the queue (median of 7).
double host_us(const std::function<void(int)>& call, int calls, cudaStream_t stream, int* flag_host, int* flag_dev) {
  std::vector<double> reps;
  for (int r = 0; r < 7; ++r) {
    CUDA_CHECK(cudaStreamSynchronize(stream));
    *reinterpret_cast<volatile int*>(flag_host) = 0;
    hold_gpu<<<1, 1, 0, stream>>>(flag_dev);
    const auto t0 = Clock::now();
    for (int i = 0; i < calls; ++i) call(i);
    const auto t1 = Clock::now();
    *reinterpret_cast<volatile int*>(flag_host) = 1;
    reps.push_back(std::chrono::duration<double, std::micro>(t1 - t0).count() / calls);
  }
  CUDA_CHECK(cudaStreamSynchronize(stream));
  return median(reps);
}

void require(const smemtile::LaunchStatus& s, const char* what) {
  if (!s) {
    std::fprintf(stderr, "host_cost_bench: %s: %s\n", what, s.message.c_str());
    std::exit(EXIT_FAILURE);
  }
}

}  // namespace

int main() {
  int device = 0;
  CUDA_CHECK(cudaGetDevice(&device));
  cudaDeviceProp prop{};
  CUDA_CHECK(cudaGetDeviceProperties(&prop, device));
  std::printf("host_cost_bench: GPU %d: %s (sm_%d%d)\n", device, prop.name, prop.major, prop.minor);

  cudaStream_t stream;
  CUDA_CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  int* flag_host = nullptr;
  int* flag_dev = nullptr;
  CUDA_CHECK(cudaHostAlloc(&flag_host, sizeof(int), cudaHostAllocMapped));
  CUDA_CHECK(cudaHostGetDevicePointer(&flag_dev, flag_host, 0));

  constexpr int n1 = 4096, n2 = 64, n3 = 32, nt = 64;
  const long long floats = 2LL * n3 * n3 * n3 + 2LL * n2 * n2 + 2LL * n1 + 2LL * nt * nt;
  float* pool = nullptr;
  CUDA_CHECK(cudaMalloc(&pool, static_cast<size_t>(floats) * sizeof(float)));
  CUDA_CHECK(cudaMemset(pool, 0, static_cast<size_t>(floats) * sizeof(float)));
  float* a3[2] = {pool, pool + n3 * n3 * n3};
  float* a2[2] = {a3[1] + n3 * n3 * n3, a3[1] + n3 * n3 * n3 + n2 * n2};
  float* a1[2] = {a2[1] + n2 * n2, a2[1] + n2 * n2 + n1};
  float* at[2] = {a1[1] + n1, a1[1] + n1 + nt * nt};

  using smemtile::StencilShape;
  namespace b = smemtile::boundary;
  struct Row {
    const char* name;
    std::function<void(int)> call;
  };
  const std::vector<Row> rows = {
      {"empty kernel launch", [&](int) { empty_kernel<<<1, 32, 0, stream>>>(); }},
      {"device_stencil 1D 3-point, 4096", [&](int i) {
         require(smemtile::device_stencil<1, StencilShape::star>(smemtile::make_global_vector<const float>(a1[i & 1], n1),
                                                                 smemtile::make_global_vector(a1[~i & 1], n1), b::clamp,
                                                                 Sum3{}, stream),
                 "1D");
       }},
      {"device_stencil 2D 5-point, 64^2", [&](int i) {
         require(smemtile::device_stencil<1, StencilShape::star>(
                     smemtile::make_global_matrix<const float>(a2[i & 1], n2, n2), smemtile::make_global_matrix(a2[~i & 1], n2, n2),
                     b::clamp, Heat2D{}, stream),
                 "2D");
       }},
      {"device_stencil 3D 7-point, 32^3", [&](int i) {
         require(smemtile::device_stencil<1, StencilShape::star>(
                     smemtile::make_global_volume<const float>(a3[i & 1], n3, n3, n3),
                     smemtile::make_global_volume(a3[~i & 1], n3, n3, n3), b::clamp, Heat7{}, stream),
                 "3D");
       }},
      {"device_stencil 3D 7-point, 32^3, cp.async forced", [&](int i) {
         require(smemtile::device_stencil<1, StencilShape::star>(
                     smemtile::StencilForcedLoader<smemtile::StencilLoader::cp_async>{},
                     smemtile::make_global_volume<const float>(a3[i & 1], n3, n3, n3),
                     smemtile::make_global_volume(a3[~i & 1], n3, n3, n3), b::clamp, Heat7{}, stream),
                 "3D cp.async");
       }},
      {"device_transpose float 64^2", [&](int i) {
         require(smemtile::device_transpose(at[i & 1], at[~i & 1], nt, nt, stream), "transpose");
       }},
      {"encode 3D map (cuTensorMapEncodeTiled)", [&](int i) {
         const auto made = smemtile::arch::make_tma_map_3d(a3[i & 1], n3, n3, n3, n3 * n3, n3, 1, 4, 18, 64 + 8, 4);
         if (!made) {
           std::fprintf(stderr, "host_cost_bench: encode: %s\n", made.error);
           std::exit(EXIT_FAILURE);
         }
       }},
  };
  for (const Row& row : rows) {  // first calls: attributes, limits, the first maps
    row.call(0);
    row.call(1);
  }
  CUDA_CHECK(cudaStreamSynchronize(stream));
  CUDA_CHECK(cudaGetLastError());

  std::printf("%-50s %12s %8s %12s %8s\n", "call", "queued us", "x empty", "host us", "x empty");
  double empty_queued = 0, empty_host = 0;
  for (const Row& row : rows) {
    const double q = queued_us(row.call, 2000, stream);
    const double h = host_us(row.call, 200, stream, flag_host, flag_dev);
    if (empty_queued == 0) empty_queued = q, empty_host = h;
    std::printf("%-50s %12.2f %8.2f %12.2f %8.2f\n", row.name, q, q / empty_queued, h, h / empty_host);
  }
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaFree(pool));
  CUDA_CHECK(cudaFreeHost(flag_host));
  CUDA_CHECK(cudaStreamDestroy(stream));
  return 0;
}
