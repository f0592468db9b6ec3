// GPU tests of device_stencil and device_transpose as applications use them:
//  - stream capture: ten steps of a 2D heat equation (two buffers ping-ponged, boundary::clamp) and
//    a device_transpose captured into a CUDA graph (cudaStreamCaptureModeGlobal), replayed, equal
//    bit for bit to the same calls made eagerly; the same for a 3D step. The captured calls are the
//    first calls of their instantiations in this program (this file's first test case, ops of its
//    own): whatever a first call does on the host (kernel attributes, occupancy, the TMA map, the
//    driver entry point) is legal inside capture.
//  - ops carrying their coefficients: a 7 x 7 filter as a member array (passed by value as a kernel
//    parameter) and one holding a pointer to coefficients in device memory, against a host reference.
//  - bytes and halves with a float accumulator: a 3x3 box blur and a 5x5 Gaussian of uint8_t, a
//    5-point heat step of __half, against host references, exactly.
// Every op here is __host__ __device__ and computes with explicitly rounded operations (fmaf, integer
// rounding, __float2half_rn): the host reference runs the same op on a host neighbourhood, so the
// results are equal bit for bit. (#pragma nv_exec_check_disable: the ops and the host neighbourhoods
// are __host__ __device__ templates instantiated on the host with host-only callees.)
#include <cuda_fp16.h>

#include <cstdint>
#include <cstring>

#include "stencil_gpu_common.cuh"

namespace stencil_usage {

using namespace stencil_test;
constexpr StencilShape star = StencilShape::star;
constexpr StencilShape box = StencilShape::box;

// ---- host reference: the op on a host neighbourhood (clamp, zero or periodic) ----------------------------

template <class T>
struct HostN2 {
  const T* a;
  int rows, cols, pitch, y, x, policy;
#pragma nv_exec_check_disable
  __host__ __device__ T operator()(int dy, int dx) const {
    const int yy = y + dy, xx = x + dx;
    if (policy == kZero && (yy < 0 || yy >= rows || xx < 0 || xx >= cols)) return T(0);
    return a[static_cast<std::size_t>(reference_index(policy, yy, rows)) * pitch + reference_index(policy, xx, cols)];
  }
#pragma nv_exec_check_disable
  __host__ __device__ T center() const { return (*this)(0, 0); }
};

template <class T>
struct HostN3 {
  const T* a;
  int depth, rows, cols, z, y, x, policy;
#pragma nv_exec_check_disable
  __host__ __device__ T operator()(int dz, int dy, int dx) const {
    return a[(static_cast<std::size_t>(reference_index(policy, z + dz, depth)) * rows +
              reference_index(policy, y + dy, rows)) * cols + reference_index(policy, x + dx, cols)];
  }
};

// out (rows x cols, pitch) = op over in (same geometry) under `policy`.
template <class T, class Op>
std::vector<T> reference_2d(const std::vector<T>& in, int rows, int cols, int pitch, int policy, const Op& op) {
  std::vector<T> out(in.size());
  for (int y = 0; y < rows; ++y)
    for (int x = 0; x < cols; ++x)
      out[static_cast<std::size_t>(y) * pitch + x] = op(HostN2<T>{in.data(), rows, cols, pitch, y, x, policy});
  return out;
}

template <class T>
bool same_bits_2d(const std::vector<T>& got, const std::vector<T>& want, int rows, int cols, int pitch) {
  long long wrong = 0;
  for (int y = 0; y < rows; ++y)
    for (int x = 0; x < cols; ++x) {
      const std::size_t at = static_cast<std::size_t>(y) * pitch + x;
      if (std::memcmp(&got[at], &want[at], sizeof(T)) != 0) {
        if (wrong < 5) {
          unsigned g = 0, w = 0;
          std::memcpy(&g, &got[at], sizeof(T));
          std::memcpy(&w, &want[at], sizeof(T));
          UNSCOPED_INFO("out(" << y << ", " << x << ") bits 0x" << std::hex << g << ", expected 0x" << w << std::dec);
        }
        ++wrong;
      }
    }
  return wrong == 0;
}

// ---- ops of this file ---------------------------------------------------------------------------------------

struct CaptureHeat2D {  // out = c + 0.1 (5-point Laplacian), one fused multiply-add
#pragma nv_exec_check_disable
  template <class N>
  __host__ __device__ float operator()(const N& n) const {
    const float c = n(0, 0);
    return fmaf(0.1f, ((n(-1, 0) + n(1, 0)) + (n(0, -1) + n(0, 1))) - 4.0f * c, c);
  }
};

struct CaptureHeat3D {
#pragma nv_exec_check_disable
  template <class N>
  __host__ __device__ float operator()(const N& n) const {
    const float c = n(0, 0, 0);
    // The - 6c written as an fmaf too: nvcc would contract it on the device, the host compiler not.
    const float sum = (n(-1, 0, 0) + n(1, 0, 0)) + (n(0, -1, 0) + n(0, 1, 0)) + (n(0, 0, -1) + n(0, 0, 1));
    return fmaf(0.1f, fmaf(-6.0f, c, sum), c);
  }
};

// A 7 x 7 filter carried in the op (196 bytes of kernel parameters).
struct Filter7x7 {
  float w[7][7];
#pragma nv_exec_check_disable
  template <class N>
  __host__ __device__ float operator()(const N& n) const {
    float sum = 0.0f;
    for (int dy = -3; dy <= 3; ++dy)
      for (int dx = -3; dx <= 3; ++dx) sum = fmaf(w[dy + 3][dx + 3], n(dy, dx), sum);
    return sum;
  }
};

// The same filter read through a pointer (device memory on the GPU, host memory for the reference).
struct PointerFilter7x7 {
  const float* w;  // 49 floats, row-major
#pragma nv_exec_check_disable
  template <class N>
  __host__ __device__ float operator()(const N& n) const {
    float sum = 0.0f;
    for (int dy = -3; dy <= 3; ++dy)
      for (int dx = -3; dx <= 3; ++dx) sum = fmaf(w[(dy + 3) * 7 + dx + 3], n(dy, dx), sum);
    return sum;
  }
};

// 3x3 box blur of bytes: the sum in float (exact: at most 9 * 255), divided by 9 rounding halves up.
struct BoxBlur3x3 {
#pragma nv_exec_check_disable
  template <class N>
  __host__ __device__ std::uint8_t operator()(const N& n) const {
    float sum = 0.0f;
    for (int dy = -1; dy <= 1; ++dy)
      for (int dx = -1; dx <= 1; ++dx) sum += static_cast<float>(n(dy, dx));
    return static_cast<std::uint8_t>((static_cast<int>(sum) + 4) / 9);
  }
};

// 5x5 Gaussian of bytes, binomial weights (1 4 6 4 1)^2 / 256: the sum in float (exact: at most
// 256 * 255), divided by 256 rounding halves up.
struct Gauss5x5 {
#pragma nv_exec_check_disable
  template <class N>
  __host__ __device__ std::uint8_t operator()(const N& n) const {
    const float w[5] = {1.0f, 4.0f, 6.0f, 4.0f, 1.0f};
    float sum = 0.0f;
    for (int dy = -2; dy <= 2; ++dy)
      for (int dx = -2; dx <= 2; ++dx) sum += w[dy + 2] * w[dx + 2] * static_cast<float>(n(dy, dx));
    return static_cast<std::uint8_t>((static_cast<int>(sum) + 128) >> 8);
  }
};

// 5-point heat step of halves: read as float, computed in float, rounded to nearest even once.
struct HalfHeat {
#pragma nv_exec_check_disable
  template <class N>
  __host__ __device__ __half operator()(const N& n) const {
    const float c = __half2float(n(0, 0));
    const float sides = (__half2float(n(-1, 0)) + __half2float(n(1, 0))) + (__half2float(n(0, -1)) + __half2float(n(0, 1)));
    return __float2half_rn(fmaf(0.1f, sides - 4.0f * c, c));
  }
};

// ---- stream capture (first: the captured calls are their instantiations' first calls) ---------------------

TEST_CASE("device_stencil and device_transpose inside stream capture replay as eager calls") {
  STENCIL_TEST_SEEDED_RNG(rng);
  constexpr int rows = 300, cols = 520, steps = 10;
  constexpr int depth = 40, plane_rows = 36, plane_cols = 132;
  const std::size_t n2 = static_cast<std::size_t>(rows) * cols, n3 = static_cast<std::size_t>(depth) * plane_rows * plane_cols;
  const std::vector<float> start = random_inputs<float>(n2, rng);
  const std::vector<float> start3 = random_inputs<float>(n3, rng);
  DeviceBuffer<float> a(n2), b(n2), t(n2), v(n3), w(n3);
  cudaStream_t stream;
  REQUIRE_CUDA(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  const auto matrix = [&](float* p) { return smemtile::make_global_matrix(p, rows, cols); };
  const auto cmatrix = [&](const float* p) { return smemtile::make_global_matrix(p, rows, cols); };
  // The work: 10 heat steps a -> b -> a ..., the result (in a) transposed into t; a 3D step v -> w.
  const auto work = [&] {
    for (int s = 0; s < steps; ++s) {
      const float* from = s % 2 == 0 ? a.get() : b.get();
      float* to = s % 2 == 0 ? b.get() : a.get();
      const smemtile::LaunchStatus st =
          smemtile::device_stencil<1, star>(cmatrix(from), matrix(to), smemtile::boundary::Clamp{}, CaptureHeat2D{}, stream);
      INFO("step " << s << ": " << st.message);
      REQUIRE(st.error == cudaSuccess);
    }
    const smemtile::LaunchStatus tr = smemtile::device_transpose(static_cast<const float*>(a.get()), t.get(), rows, cols, stream);
    INFO("transpose: " << tr.message);
    REQUIRE(tr.error == cudaSuccess);
    const smemtile::LaunchStatus s3 = smemtile::device_stencil<1, star>(
        smemtile::make_global_volume<const float>(v.get(), depth, plane_rows, plane_cols),
        smemtile::make_global_volume(w.get(), depth, plane_rows, plane_cols), smemtile::boundary::Clamp{},
        CaptureHeat3D{}, stream);
    INFO("3D step: " << s3.message);
    REQUIRE(s3.error == cudaSuccess);
  };
  const auto reset = [&] {
    a.upload(start);
    b.poison();
    t.poison();
    v.upload(start3);
    w.poison();
  };

  cudaGraph_t graph = nullptr;
  REQUIRE_CUDA(cudaStreamBeginCapture(stream, cudaStreamCaptureModeGlobal));
  work();
  REQUIRE_CUDA(cudaStreamEndCapture(stream, &graph));
  cudaGraphExec_t exec = nullptr;
  REQUIRE_CUDA(cudaGraphInstantiate(&exec, graph, 0));
  reset();
  REQUIRE_CUDA(cudaGraphLaunch(exec, stream));
  REQUIRE_CUDA(cudaStreamSynchronize(stream));
  const std::vector<float> graph_t = t.download(), graph_w = w.download();
  reset();  // replayed again: the same
  REQUIRE_CUDA(cudaGraphLaunch(exec, stream));
  REQUIRE_CUDA(cudaStreamSynchronize(stream));
  CHECK(t.download() == graph_t);

  reset();
  work();
  REQUIRE_CUDA(cudaStreamSynchronize(stream));
  const std::vector<float> eager_t = t.download(), eager_w = w.download();
  CHECK(std::memcmp(graph_t.data(), eager_t.data(), n2 * sizeof(float)) == 0);
  CHECK(std::memcmp(graph_w.data(), eager_w.data(), n3 * sizeof(float)) == 0);

  // And both are the host's ten steps, transposed (the op's arithmetic is explicit), and its 3D step.
  std::vector<float> host = start;
  for (int s = 0; s < steps; ++s) host = reference_2d(host, rows, cols, cols, kClamp, CaptureHeat2D{});
  long long wrong = 0;
  for (int y = 0; y < rows; ++y)
    for (int x = 0; x < cols; ++x)
      wrong += std::memcmp(&eager_t[static_cast<std::size_t>(x) * rows + y], &host[static_cast<std::size_t>(y) * cols + x],
                           sizeof(float)) != 0;
  CHECK(wrong == 0);
  long long wrong3 = 0;
  for (int z = 0; z < depth; ++z)
    for (int y = 0; y < plane_rows; ++y)
      for (int x = 0; x < plane_cols; ++x) {
        const float want = CaptureHeat3D{}(HostN3<float>{start3.data(), depth, plane_rows, plane_cols, z, y, x, kClamp});
        wrong3 += std::memcmp(&eager_w[(static_cast<std::size_t>(z) * plane_rows + y) * plane_cols + x], &want, 4) != 0;
      }
  CHECK(wrong3 == 0);
  REQUIRE_CUDA(cudaGraphExecDestroy(exec));
  REQUIRE_CUDA(cudaGraphDestroy(graph));
  REQUIRE_CUDA(cudaStreamDestroy(stream));
}

// ---- run-time coefficients ----------------------------------------------------------------------------------

TEST_CASE("device_stencil with an op carrying a 7 x 7 filter, as a member and through a device pointer") {
  STENCIL_TEST_SEEDED_RNG(rng);
  Filter7x7 filter{};
  for (auto& row : filter.w)
    for (float& c : row) c = static_cast<float>(uniform(rng, -64, 64)) / 64.0f;
  std::vector<float> weights(49);
  std::memcpy(weights.data(), filter.w, sizeof(filter.w));
  DeviceBuffer<float> d_weights(49);
  d_weights.upload(weights);
  const int shapes[][2] = {{1, 1}, {5, 9}, {77, 130}, {300, 257}};
  for (const auto& shape : shapes) {
    const int rows = shape[0], cols = shape[1];
    const int pitch = cols + uniform(rng, 0, 5);
    INFO(rows << " x " << cols << ", pitch " << pitch);
    const std::size_t n = static_cast<std::size_t>(rows) * pitch;
    const std::vector<float> in = random_inputs<float>(n, rng);
    DeviceBuffer<float> d_in(n), d_out(n);
    d_in.upload(in);
    const auto src = smemtile::make_global_matrix<const float>(d_in.get(), rows, cols, pitch);
    const auto dst = smemtile::make_global_matrix(d_out.get(), rows, cols, pitch);
    const std::vector<float> want = reference_2d(in, rows, cols, pitch, kClamp, filter);

    d_out.poison();
    smemtile::LaunchStatus st = smemtile::device_stencil<3, box>(src, dst, smemtile::boundary::Clamp{}, filter);
    INFO("member: " << st.message);
    REQUIRE(st.error == cudaSuccess);
    REQUIRE_CUDA(cudaDeviceSynchronize());
    CHECK(same_bits_2d(d_out.download(), want, rows, cols, pitch));

    d_out.poison();
    st = smemtile::device_stencil<3, box>(src, dst, smemtile::boundary::Clamp{}, PointerFilter7x7{d_weights.get()});
    INFO("pointer: " << st.message);
    REQUIRE(st.error == cudaSuccess);
    REQUIRE_CUDA(cudaDeviceSynchronize());
    CHECK(same_bits_2d(d_out.download(), want, rows, cols, pitch));
    // The host reference through the pointer op: the same numbers.
    CHECK(same_bits_2d(reference_2d(in, rows, cols, pitch, kClamp, PointerFilter7x7{weights.data()}), want, rows, cols,
                       pitch));
  }
}

// ---- bytes and halves ---------------------------------------------------------------------------------------

template <int R, StencilShape S, class T, class Op>
void check_exact_2d(int rows, int cols, int pitch, int policy_kind, const Op& op, const std::vector<T>& in) {
  INFO(rows << " x " << cols << ", pitch " << pitch << ", policy " << policy_name(policy_kind));
  const std::size_t n = static_cast<std::size_t>(rows) * pitch;
  DeviceBuffer<T> d_in(n), d_out(n);
  d_in.upload(in);
  d_out.poison();
  const auto src = smemtile::make_global_matrix<const T>(d_in.get(), rows, cols, pitch);
  const auto dst = smemtile::make_global_matrix(d_out.get(), rows, cols, pitch);
  smemtile::LaunchStatus st;
  if (policy_kind == kClamp) st = smemtile::device_stencil<R, S>(src, dst, smemtile::boundary::Clamp{}, op);
  else st = smemtile::device_stencil<R, S>(src, dst, smemtile::boundary::Zero{}, op);
  INFO(st.message);
  REQUIRE(st.error == cudaSuccess);
  REQUIRE_CUDA(cudaDeviceSynchronize());
  CHECK(same_bits_2d(d_out.download(), reference_2d(in, rows, cols, pitch, policy_kind, op), rows, cols, pitch));
}

std::vector<std::uint8_t> random_bytes(std::size_t n, std::mt19937& rng) {
  std::vector<std::uint8_t> v(n);
  for (auto& b : v) b = static_cast<std::uint8_t>(uniform(rng, 0, 255));
  return v;
}

TEST_CASE("device_stencil on bytes: 3x3 box blur and 5x5 Gaussian accumulated in float, exact") {
  STENCIL_TEST_SEEDED_RNG(rng);
  // Dense rows of a multiple of 16 bytes (TMA on sm_90), odd ones (cp.async), tiny ones.
  const int shapes[][3] = {{1, 1, 1}, {3, 17, 17}, {64, 256, 256}, {123, 301, 301}, {200, 640, 656}, {257, 1000, 1003}};
  for (const auto& s : shapes) {
    const std::size_t n = static_cast<std::size_t>(s[0]) * s[2];
    check_exact_2d<1, box, std::uint8_t>(s[0], s[1], s[2], kClamp, BoxBlur3x3{}, random_bytes(n, rng));
    check_exact_2d<2, box, std::uint8_t>(s[0], s[1], s[2], kClamp, Gauss5x5{}, random_bytes(n, rng));
  }
}

TEST_CASE("device_stencil on halves: 5-point heat step computed in float, exact") {
  STENCIL_TEST_SEEDED_RNG(rng);
  const int shapes[][3] = {{1, 1, 1}, {7, 9, 9}, {64, 128, 128}, {123, 301, 305}, {300, 520, 520}};
  for (const auto& s : shapes) {
    const std::size_t n = static_cast<std::size_t>(s[0]) * s[2];
    std::vector<__half> in(n);
    for (auto& h : in) h = __float2half_rn(static_cast<float>(uniform(rng, -4096, 4096)) / 1024.0f);
    check_exact_2d<1, star, __half>(s[0], s[1], s[2], kClamp, HalfHeat{}, in);
    check_exact_2d<1, star, __half>(s[0], s[1], s[2], kZero, HalfHeat{}, in);
  }
}

}  // namespace stencil_usage
