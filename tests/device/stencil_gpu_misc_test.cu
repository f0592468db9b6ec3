// GPU tests around device_stencil (device/stencil.cuh) and the halo loads it is built on
// (compiled with --extended-lambda):
//  - invalid calls (different extents, in and out overlapping, null pointers with elements, a
//    non-unit x stride, a 3D array of more than 65535 tiles along y or z, TMA forced on a 3D
//    periodic plane of more than 2^31 elements) return cudaErrorInvalidValue with a message and
//    launch nothing (out stays poison, no error pending);
//    empty arrays (null pointers included) return success and write nothing;
//  - a __device__ lambda as the op (1D, and 2D with a capture);
//  - a caller's policy (device_stencil's policy overload) computes what the selected policy does;
//  - block level: copy_global_to_tile into a StaticHaloTile<float, 8, 32, 2, 4> at origins straddling
//    every edge and corner of random pitched arrays (also inside and wholly outside), with every
//    policy; each block dumps every interior and halo element to a poisoned buffer, compared with
//    the host's own boundary code.
#include "stencil_gpu_common.cuh"

#include <cstdint>
#include <cstring>
#include <string>

// ---- a __device__ lambda as the op ------------------------------------------------------------------
// (Outside the anonymous namespace, in named functions: the enclosing function of an extended lambda
// must be named and addressable.)
namespace stencil_misc {
using namespace stencil_test;

std::vector<float> lambda_stencil_1d(const std::vector<float>& in, smemtile::LaunchStatus& status) {
  const int n = static_cast<int>(in.size());
  DeviceBuffer<float> d_in(in.size()), d_out(in.size() + 4);
  d_in.upload(in);
  d_out.poison();
  const auto op = [] __device__(const auto& nb) { return nb(-1) + nb(0) + nb(1); };
  status = smemtile::device_stencil<1, StencilShape::star>(smemtile::make_global_vector<const float>(d_in.get(), n),
                                                           smemtile::make_global_vector(d_out.get(), n),
                                                           smemtile::boundary::Clamp{}, op);
  REQUIRE_CUDA(cudaDeviceSynchronize());
  return d_out.download();
}

std::vector<float> lambda_stencil_2d(const std::vector<float>& in, int rows, int cols, float w,
                                     smemtile::LaunchStatus& status) {
  DeviceBuffer<float> d_in(in.size()), d_out(in.size());
  d_in.upload(in);
  d_out.poison();
  const auto op = [w] __device__(const auto& nb) {
    return w * (nb(0, -1) + nb(0, 1)) + (nb(-1, 0) + nb(1, 0)) + nb(0, 0);
  };
  status = smemtile::device_stencil<1, StencilShape::star>(
      smemtile::make_global_matrix<const float>(d_in.get(), rows, cols), smemtile::make_global_matrix(d_out.get(), rows, cols),
      smemtile::boundary::Periodic{}, op);
  REQUIRE_CUDA(cudaDeviceSynchronize());
  return d_out.download();
}

// ---- block level: the halo load of a StaticHaloTile --------------------------------------------------------
// (The kernel is outside the anonymous namespace: in this file, compiled with --extended-lambda,
// nvcc's host stub for a kernel in an anonymous namespace fails to compile, "reference to
// '_GLOBAL__N_...' is ambiguous", libcu++ having an anonymous namespace of its own.)

constexpr int tile_rows = 8, tile_cols = 32, halo_rows = 2, halo_cols = 4;
constexpr int dump_rows = tile_rows + 2 * halo_rows, dump_cols = tile_cols + 2 * halo_cols;
constexpr int dump_size = dump_rows * dump_cols;
using HaloTile = smemtile::StaticHaloTile<float, tile_rows, tile_cols, halo_rows, halo_cols>;

// Block b loads the tile at origins[b] and dumps element (r, c), r in [-2, 10), c in [-4, 36), to
// out[b * dump_size + (r + 2) * dump_cols + (c + 4)].
template <class Policy>
__global__ void halo_dump_kernel(smemtile::GlobalMatrix<const float> in, const smemtile::Coord* origins, float* out,
                                 Policy policy) {
  __shared__ HaloTile tile;
  smemtile::copy_global_to_tile(in, origins[blockIdx.x], tile, policy);
  __syncthreads();
  float* dump = out + static_cast<std::size_t>(blockIdx.x) * dump_size;
  for (int k = static_cast<int>(threadIdx.x); k < dump_size; k += static_cast<int>(blockDim.x))
    dump[k] = tile(k / dump_cols - halo_rows, k % dump_cols - halo_cols);
}


// ---- a caller's policy ---------------------------------------------------------------------------------

// 2D 5-point clamp sum of floats (additions only, the same order whatever the policy) with Policy
// (or the selection where it is void).
template <class Policy>
std::vector<float> policy_stencil_2d(const std::vector<float>& in, int rows, int cols, smemtile::LaunchStatus& status) {
  DeviceBuffer<float> d_in(in.size()), d_out(in.size());
  d_in.upload(in);
  d_out.poison();
  const auto source = smemtile::make_global_matrix<const float>(d_in.get(), rows, cols);
  const auto target = smemtile::make_global_matrix(d_out.get(), rows, cols);
  const auto op = [] __device__(const auto& nb) { return nb(0, -1) + nb(0, 1) + nb(-1, 0) + nb(1, 0) + nb(0, 0); };
  if constexpr (std::is_void<Policy>::value)
    status = smemtile::device_stencil<1, StencilShape::star>(source, target, smemtile::boundary::Clamp{}, op);
  else
    status = smemtile::device_stencil<1, StencilShape::star>(Policy{}, source, target, smemtile::boundary::Clamp{}, op);
  REQUIRE_CUDA(cudaDeviceSynchronize());
  return d_out.download();
}

// Small cp.async tiles without strips: a policy no GPU selects.
using SmallTilesPolicy = smemtile::StencilTiledPolicy<2, smemtile::StencilLoader::cp_async,
                                                      smemtile::StencilCompute::points, 16, 64, 4, 2, 3, 4>;
}  // namespace stencil_misc

namespace {

using namespace stencil_test;
using stencil_misc::lambda_stencil_1d;
using stencil_misc::lambda_stencil_2d;
using stencil_misc::dump_cols;
using stencil_misc::dump_size;
using stencil_misc::halo_cols;
using stencil_misc::halo_dump_kernel;
using stencil_misc::halo_rows;
using stencil_misc::tile_cols;
using stencil_misc::tile_rows;

constexpr StencilShape star = StencilShape::star;

bool contains(const std::string& s, const char* part) { return s.find(part) != std::string::npos; }

template <class T>
bool all_poison(const std::vector<T>& v) {
  for (const T& x : v)
    if (!is_poison(x)) return false;
  return true;
}

// A refused call: cudaErrorInvalidValue, a message naming the function and `part`, nothing launched.
void check_refused(const smemtile::LaunchStatus& status, const char* part) {
  INFO("status: " << cudaGetErrorName(status.error) << " " << status.message);
  CHECK(!status);
  CHECK(status.error == cudaErrorInvalidValue);
  CHECK(contains(status.message, "smemtile::device_stencil"));
  CHECK(contains(status.message, part));
  REQUIRE_CUDA(cudaGetLastError());
  REQUIRE_CUDA(cudaDeviceSynchronize());
}

void check_nothing_launched(const smemtile::LaunchStatus& status) {
  INFO("status: " << cudaGetErrorName(status.error) << " " << status.message);
  CHECK(status);
  CHECK(status.error == cudaSuccess);
  CHECK(status.message.empty());
  REQUIRE_CUDA(cudaGetLastError());
  REQUIRE_CUDA(cudaDeviceSynchronize());
}

using Op1 = CoefOp<float, 1, 1, star>;
using Op2 = CoefOp<float, 2, 1, star>;
using Op3 = CoefOp<float, 3, 1, star>;
// (Policy objects made here: the library's namespace-scope constants are __device__ in the device pass.)
constexpr smemtile::boundary::Zero zero{};

template <std::size_t Rank>
using StridedMapping = typename cuda::std::layout_stride::template mapping<cuda::std::dextents<int, Rank>>;

TEST_CASE("device_stencil refuses different extents") {
  std::mt19937 rng(1);
  DeviceBuffer<float> a(64 * 64), b(64 * 65);
  a.upload(random_inputs<float>(a.size(), rng));
  b.poison();
  check_refused(smemtile::device_stencil<1, star>(smemtile::make_global_vector<const float>(a.get(), 100),
                                                  smemtile::make_global_vector(b.get(), 101), zero,
                                                  random_op<float, 1, 1, star>(rng)),
                "same extents");
  check_refused(smemtile::device_stencil<1, star>(smemtile::make_global_matrix<const float>(a.get(), 64, 64),
                                                  smemtile::make_global_matrix(b.get(), 64, 65), zero,
                                                  random_op<float, 2, 1, star>(rng)),
                "same extents");
  check_refused(smemtile::device_stencil<1, star>(smemtile::make_global_volume<const float>(a.get(), 4, 8, 8),
                                                  smemtile::make_global_volume(b.get(), 5, 8, 8), zero,
                                                  random_op<float, 3, 1, star>(rng)),
                "same extents");
  CHECK(all_poison(b.download()));
}

TEST_CASE("device_stencil refuses overlapping in and out") {
  std::mt19937 rng(2);
  DeviceBuffer<float> buf(4096);
  buf.poison();
  float* p = buf.get();
  const Op1 op1 = random_op<float, 1, 1, star>(rng);
  const Op2 op2 = random_op<float, 2, 1, star>(rng);
  const Op3 op3 = random_op<float, 3, 1, star>(rng);
  // The same array (in place).
  check_refused(smemtile::device_stencil<1, star>(smemtile::make_global_vector<const float>(p, 1000),
                                                  smemtile::make_global_vector(p, 1000), zero, op1),
                "overlap");
  // out starting inside in, in starting inside out.
  check_refused(smemtile::device_stencil<1, star>(smemtile::make_global_vector<const float>(p, 1000),
                                                  smemtile::make_global_vector(p + 999, 1000), zero, op1),
                "overlap");
  check_refused(smemtile::device_stencil<1, star>(smemtile::make_global_vector<const float>(p + 500, 1000),
                                                  smemtile::make_global_vector(p, 1000), zero, op1),
                "overlap");
  // 2D pitched: out's first row inside in's last row.
  check_refused(smemtile::device_stencil<1, star>(smemtile::make_global_matrix<const float>(p, 10, 20, 32),
                                                  smemtile::make_global_matrix(p + 9 * 32 + 19, 10, 20, 32), zero, op2),
                "overlap");
  // 3D: out's last plane over in's first.
  check_refused(smemtile::device_stencil<1, star>(smemtile::make_global_volume<const float>(p + 1000, 4, 8, 8),
                                                  smemtile::make_global_volume(p + 1000 - 3 * 64, 4, 8, 8), zero, op3),
                "overlap");
  CHECK(all_poison(buf.download()));
  // Touching arrays do not overlap: accepted.
  DeviceBuffer<float> touching(2000);
  touching.upload(random_inputs<float>(2000, rng));
  const smemtile::LaunchStatus ok = smemtile::device_stencil<1, star>(
      smemtile::make_global_vector<const float>(touching.get(), 1000), smemtile::make_global_vector(touching.get() + 1000, 1000),
      zero, op1);
  INFO(ok.message);
  CHECK(ok);
  REQUIRE_CUDA(cudaDeviceSynchronize());
}

TEST_CASE("device_stencil refuses null pointers with elements") {
  std::mt19937 rng(3);
  DeviceBuffer<float> b(256);
  b.poison();
  check_refused(smemtile::device_stencil<1, star>(smemtile::make_global_vector<const float>(nullptr, 10),
                                                  smemtile::make_global_vector(b.get(), 10), zero,
                                                  random_op<float, 1, 1, star>(rng)),
                "null");
  check_refused(smemtile::device_stencil<1, star>(smemtile::make_global_matrix<const float>(b.get(), 4, 4),
                                                  smemtile::make_global_matrix<float>(nullptr, 4, 4), zero,
                                                  random_op<float, 2, 1, star>(rng)),
                "null");
  check_refused(smemtile::device_stencil<1, star>(smemtile::make_global_volume<const float>(nullptr, 1, 1, 1),
                                                  smemtile::make_global_volume<float>(nullptr, 1, 1, 1), zero,
                                                  random_op<float, 3, 1, star>(rng)),
                "null");
  CHECK(all_poison(b.download()));
}

TEST_CASE("device_stencil refuses a non-unit x stride") {
  std::mt19937 rng(4);
  const int rows = 20, cols = 30;
  DeviceBuffer<float> a(rows * cols * 2), b(rows * cols * 2);
  a.upload(random_inputs<float>(a.size(), rng));
  b.poison();
  const auto op2 = random_op<float, 2, 1, star>(rng);
  const smemtile::GlobalArray<const float, 2> in_strided(
      a.get(), StridedMapping<2>(cuda::std::dextents<int, 2>(rows, cols), cuda::std::array<int, 2>{2 * cols, 2}));
  const smemtile::GlobalArray<float, 2> out_strided(
      b.get(), StridedMapping<2>(cuda::std::dextents<int, 2>(rows, cols), cuda::std::array<int, 2>{2 * cols, 2}));
  REQUIRE(in_strided.stride(1) == 2);
  check_refused(smemtile::device_stencil<1, star>(in_strided, smemtile::make_global_matrix(b.get(), rows, cols), zero, op2),
                "stride 1");
  check_refused(smemtile::device_stencil<1, star>(smemtile::make_global_matrix<const float>(a.get(), rows, cols),
                                                  out_strided, zero, op2),
                "stride 1");
  const smemtile::GlobalArray<const float, 1> in_1d(
      a.get(), StridedMapping<1>(cuda::std::dextents<int, 1>(100), cuda::std::array<int, 1>{2}));
  check_refused(smemtile::device_stencil<1, star>(in_1d, smemtile::make_global_vector(b.get(), 100), zero,
                                                  random_op<float, 1, 1, star>(rng)),
                "stride 1");
  CHECK(all_poison(b.download()));
}

TEST_CASE("device_stencil refuses 3D arrays of more than 65535 tiles along y or z") {
  std::mt19937 rng(5);
  const auto op3 = random_op<float, 3, 1, star>(rng);
  // 16-row tiles along y (4-byte elements): 65537 of them.
  const int rows = 65536 * 16 + 1;
  DeviceBuffer<float> a(rows), b(rows);
  a.upload(random_inputs<float>(a.size(), rng));
  b.poison();
  check_refused(smemtile::device_stencil<1, star>(smemtile::make_global_volume<const float>(a.get(), 1, rows, 1),
                                                  smemtile::make_global_volume(b.get(), 1, rows, 1), zero, op3),
                "65535");
  CHECK(all_poison(b.download()));
  // 64-plane chunks along z: 65536 of them.
  const int depth = 65535 * 64 + 1;
  DeviceBuffer<float> c(depth), d(depth);
  c.upload(random_inputs<float>(c.size(), rng));
  d.poison();
  check_refused(smemtile::device_stencil<1, star>(smemtile::make_global_volume<const float>(c.get(), depth, 1, 1),
                                                  smemtile::make_global_volume(d.get(), depth, 1, 1), zero, op3),
                "65535");
  CHECK(all_poison(d.download()));
}

// A 3D TMA sweep under periodic keeps its edge cells' sources as 32-bit offsets within a plane
// (stencil_plane_offsets_fit). The refusal comes before any map or launch: the addresses, never
// allocated, are never read.
TEST_CASE("device_stencil forced to TMA refuses 3D periodic planes spanning more than 2^31 elements") {
  int device = 0, major = 0;
  REQUIRE_CUDA(cudaGetDevice(&device));
  REQUIRE_CUDA(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device));
  if (major < 9) return;  // no TMA: refused for that (stencil_gpu_paths_3d)
  std::mt19937 rng(7);
  // One plane of 40000 rows 60000 elements apart: its last element 2.4 x 10^9 past its first.
  const cuda::std::dextents<int, 3> extents(1, 40000, 16);
  const cuda::std::array<int, 3> strides{60000, 60000, 1};
  const smemtile::GlobalArray<const float, 3> in(reinterpret_cast<const float*>(std::uintptr_t{1} << 44),
                                                 StridedMapping<3>(extents, strides));
  const smemtile::GlobalArray<float, 3> out(reinterpret_cast<float*>(std::uintptr_t{1} << 45),
                                           StridedMapping<3>(extents, strides));
  constexpr smemtile::boundary::Periodic periodic{};
  check_refused(smemtile::device_stencil<1, star>(smemtile::StencilForcedLoader<smemtile::StencilLoader::tma>{}, in,
                                                  out, periodic, random_op<float, 3, 1, star>(rng)),
                "2^31");
}

// (Explicit pitches where an extent is 0: layout_stride wants strides of at least 1.)
TEST_CASE("device_stencil on empty arrays succeeds and writes nothing") {
  std::mt19937 rng(6);
  DeviceBuffer<float> a(256), b(256);
  a.upload(random_inputs<float>(a.size(), rng));
  b.poison();
  const auto op1 = random_op<float, 1, 1, star>(rng);
  const auto op2 = random_op<float, 2, 1, star>(rng);
  const auto op3 = random_op<float, 3, 1, star>(rng);
  check_nothing_launched(smemtile::device_stencil<1, star>(smemtile::make_global_vector<const float>(nullptr, 0),
                                                           smemtile::make_global_vector<float>(nullptr, 0), zero, op1));
  check_nothing_launched(smemtile::device_stencil<1, star>(smemtile::make_global_vector<const float>(a.get(), 0),
                                                           smemtile::make_global_vector(b.get(), 0), zero, op1));
  check_nothing_launched(smemtile::device_stencil<1, star>(smemtile::make_global_matrix<const float>(a.get(), 0, 16),
                                                           smemtile::make_global_matrix(b.get(), 0, 16), zero, op2));
  check_nothing_launched(smemtile::device_stencil<1, star>(smemtile::make_global_matrix<const float>(nullptr, 16, 0, 1),
                                                           smemtile::make_global_matrix<float>(nullptr, 16, 0, 1), zero, op2));
  check_nothing_launched(smemtile::device_stencil<1, star>(smemtile::make_global_volume<const float>(a.get(), 3, 0, 5, 5, 5),
                                                           smemtile::make_global_volume(b.get(), 3, 0, 5, 5, 5), zero, op3));
  check_nothing_launched(smemtile::device_stencil<1, star>(smemtile::make_global_volume<const float>(nullptr, 0, 0, 0, 1, 1),
                                                           smemtile::make_global_volume<float>(nullptr, 0, 0, 0, 1, 1), zero, op3));
  CHECK(all_poison(b.download()));
}

// ---- the lambdas ----------------------------------------------------------------------------------------

TEST_CASE("device_stencil with a __device__ lambda as the op") {
  STENCIL_TEST_SEEDED_RNG(rng);
  for (const int n : {1, 2, 3, 255, 2048, 2049, 5000 + uniform(rng, 0, 100)}) {
    INFO("1D: n " << n);
    const std::vector<float> in = random_inputs<float>(static_cast<std::size_t>(n), rng);
    smemtile::LaunchStatus status;
    const std::vector<float> out = lambda_stencil_1d(in, status);
    INFO("status: " << status.message);
    REQUIRE(status);
    int wrong = 0;
    for (int i = 0; i < n; ++i) {
      const float left = in[static_cast<std::size_t>(std::max(i - 1, 0))];
      const float right = in[static_cast<std::size_t>(std::min(i + 1, n - 1))];
      const float expected = (left + in[static_cast<std::size_t>(i)]) + right;  // the lambda's order, in float
      const float got = out[static_cast<std::size_t>(i)];
      if (is_poison(got) || std::fabs(got - expected) > 1e-6f * (std::fabs(left) + std::fabs(in[i]) + std::fabs(right)))
        ++wrong;
    }
    CHECK(wrong == 0);
    for (std::size_t k = static_cast<std::size_t>(n); k < out.size(); ++k) CHECK(is_poison(out[k]));
  }
  for (int c = 0; c < 6; ++c) {
    const int rows = c == 0 ? 1 : uniform(rng, 1, 100), cols = c == 1 ? 1 : uniform(rng, 1, 150);
    const float w = static_cast<float>(uniform(rng, -64, 64)) / 16.0f;
    INFO("2D: " << rows << " x " << cols << " w " << w);
    const std::vector<float> in = random_inputs<float>(static_cast<std::size_t>(rows) * cols, rng);
    smemtile::LaunchStatus status;
    const std::vector<float> out = lambda_stencil_2d(in, rows, cols, w, status);
    INFO("status: " << status.message);
    REQUIRE(status);
    const auto at = [&](int r, int col) {
      return static_cast<double>(in[static_cast<std::size_t>(reference_index(kPeriodic, r, rows) * cols +
                                                             reference_index(kPeriodic, col, cols))]);
    };
    int wrong = 0;
    for (int r = 0; r < rows; ++r)
      for (int col = 0; col < cols; ++col) {
        const double terms[] = {w * at(r, col - 1), w * at(r, col + 1), at(r - 1, col), at(r + 1, col), at(r, col)};
        double sum = 0, magnitude = 0;
        for (const double t : terms) {
          sum += t;
          magnitude += std::fabs(t);
        }
        const float got = out[static_cast<std::size_t>(r) * cols + col];
        if (is_poison(got) || std::fabs(static_cast<double>(got) - sum) > 1e-5 * magnitude) ++wrong;
      }
    CHECK(wrong == 0);
  }
}

// Origins along one axis of n elements for a region of `interior` plus `halo` on each side:
// class 0 straddles the low edge, 1 the high edge, 2 lies inside (when it fits), 3 wholly outside.
int origin_along(std::mt19937& rng, int cls, int n, int interior, int halo) {
  switch (cls) {
    case 0: return uniform(rng, -interior - halo + 1, halo - 1);         // first - halo < 0 < last + halo
    case 1: return uniform(rng, n - interior - halo + 1, n + halo - 1);  // crosses n
    case 2:
      if (n >= interior + 2 * halo) return uniform(rng, halo, n - interior - halo);
      return uniform(rng, -halo, n);
    default: return uniform(rng, 0, 1) ? -interior - halo - uniform(rng, 0, 20) : n + halo + uniform(rng, 0, 20);
  }
}

template <int P>
void check_halo_loads(int rows, int cols, std::mt19937& rng) {
  const auto policy = make_policy<P, float>();
  const int pitch = random_pitch(rng, cols);
  const int offset = uniform(rng, 0, 1) ? 0 : uniform(rng, 1, 3);
  INFO("policy " << policy_name(P) << " array " << rows << " x " << cols << " pitch " << pitch << " offset " << offset);
  const std::size_t in_total = static_cast<std::size_t>(offset) + static_cast<std::size_t>(rows - 1) * pitch + cols;
  const std::vector<float> in = random_inputs<float>(in_total, rng);
  // Every combination of row and column class (corners, edges, inside, outside), twice; origins
  // sometimes on 4-element columns, so that the 16-byte path runs where the region lies inside.
  std::vector<smemtile::Coord> origins;
  for (int rep = 0; rep < 2; ++rep)
    for (int rc = 0; rc < 4; ++rc)
      for (int cc = 0; cc < 4; ++cc) {
        smemtile::Coord o{origin_along(rng, rc, rows, tile_rows, halo_rows),
                          origin_along(rng, cc, cols, tile_cols, halo_cols)};
        if (rep == 1 && cc == 2) o.col = std::max(halo_cols, o.col / 4 * 4);
        origins.push_back(o);
      }
  const int blocks = static_cast<int>(origins.size());
  DeviceBuffer<float> d_in(in_total), d_out(static_cast<std::size_t>(blocks) * dump_size + 16);
  DeviceBuffer<smemtile::Coord> d_origins(origins.size());
  d_in.upload(in);
  d_origins.upload(origins);
  d_out.poison();
  halo_dump_kernel<<<blocks, 192>>>(smemtile::make_global_matrix<const float>(d_in.get() + offset, rows, cols, pitch),
                                    d_origins.get(), d_out.get(), policy);
  REQUIRE_LAUNCH_OK();
  const std::vector<float> out = d_out.download();
  const float fill = P == kConstant ? fill_value<float>() : 0.0f;
  for (int b = 0; b < blocks; ++b) {
    const smemtile::Coord o = origins[static_cast<std::size_t>(b)];
    int wrong = 0;
    for (int k = 0; k < dump_size; ++k) {
      const int gr = o.row + k / dump_cols - halo_rows, gc = o.col + k % dump_cols - halo_cols;
      const bool inside = gr >= 0 && gr < rows && gc >= 0 && gc < cols;
      float expected;
      if (!inside && (P == kZero || P == kConstant)) {
        expected = fill;
      } else {
        expected = in[static_cast<std::size_t>(offset) +
                      static_cast<std::size_t>(reference_index(P, gr, rows)) * pitch + reference_index(P, gc, cols)];
      }
      const float got = out[static_cast<std::size_t>(b) * dump_size + k];
      if (!smemtile_test::same_bytes(got, expected)) {
        if (wrong < 3)
          UNSCOPED_INFO("origin (" << o.row << ", " << o.col << ") tile(" << k / dump_cols - halo_rows << ", "
                                   << k % dump_cols - halo_cols << ") = " << got << ", expected " << expected);
        ++wrong;
      }
    }
    CHECK(wrong == 0);
  }
  for (std::size_t k = static_cast<std::size_t>(blocks) * dump_size; k < out.size(); ++k) CHECK(is_poison(out[k]));
}

// Every policy (zero, constant, clamp, periodic, reflect, in this order) on one array shape.
void check_halo_loads_every_policy(int rows, int cols, std::mt19937& rng) {
  check_halo_loads<kZero>(rows, cols, rng);
  check_halo_loads<kConstant>(rows, cols, rng);
  check_halo_loads<kClamp>(rows, cols, rng);
  check_halo_loads<kPeriodic>(rows, cols, rng);
  check_halo_loads<kReflect>(rows, cols, rng);
}

TEST_CASE("copy_global_to_tile fills a StaticHaloTile halo at every edge and corner with every policy") {
  STENCIL_TEST_SEEDED_RNG(rng);
  const int shapes[][2] = {{1, 1}, {1, 50}, {40, 1}, {3, 5}, {7, 33}, {12, 40}, {13, 41}, {50, 90}};
  for (const auto& s : shapes) {
    check_halo_loads_every_policy(s[0], s[1], rng);
  }
  for (int i = 0; i < 4; ++i) {
    const int rows = uniform(rng, 1, 120), cols = uniform(rng, 1, 200);
    check_halo_loads_every_policy(rows, cols, rng);
  }
}

}  // namespace

TEST_CASE("device_stencil with a caller's policy computes what the selected one does") {
  const unsigned seed = smemtile_test::fresh_seed();
  INFO("seed " << seed);
  const int rows = 77, cols = 301;
  std::mt19937 rng(seed);
  const std::vector<float> in = random_inputs<float>(static_cast<std::size_t>(rows) * cols, rng);  // finite
  smemtile::LaunchStatus selected, given;
  const std::vector<float> expected = stencil_misc::policy_stencil_2d<void>(in, rows, cols, selected);
  const std::vector<float> got = stencil_misc::policy_stencil_2d<stencil_misc::SmallTilesPolicy>(in, rows, cols, given);
  REQUIRE(selected);
  REQUIRE(given);
  REQUIRE(got.size() == expected.size());
  CHECK(std::memcmp(got.data(), expected.data(), got.size() * sizeof(float)) == 0);  // bit for bit
}
