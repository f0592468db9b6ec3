// Shared by stencil_gpu_paths_2d_test.cu and stencil_gpu_paths_3d_test.cu: the forced loader paths
// (StencilForcedLoader) of device_stencil compute bit for bit what the selected path computes.
//
// On random shapes whose pitches TMA can describe (dense rows of a multiple of 4 floats, or a pitch
// a few 16-byte vectors wider; cudaMalloc'd bases), with a random op of the common header (float
// coefficients k / 64, accumulated in double) on integer inputs in [-1000, 1000] (every product and
// partial sum is exact, so no order of additions or contraction to FMAs can change a bit), three calls on the same input: the default selection (on
// sm_90 and later TMA, the large tiles where they differ), StencilForcedLoader<tma> (the standard
// tiles; on GPUs without TMA it must fail with cudaErrorInvalidValue instead), StencilForcedLoader<cp_async>
// and, where they differ, the large tiles forced (rows of an odd number of floats included). Their outputs (the whole allocation, pitch padding poisoned) must be
// equal byte for byte, and every output element must have been written.
#pragma once

#include "stencil_gpu_common.cuh"

namespace stencil_paths {

using namespace stencil_test;
using smemtile::StencilForcedLoader;
using smemtile::StencilLoader;

inline bool gpu_has_tma() {
  int device = 0, major = 0;
  REQUIRE_CUDA(cudaGetDevice(&device));
  REQUIRE_CUDA(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device));
  return major >= 9;
}

// `cases` random shapes (rank 2: rows x cols up to 300 x 300; rank 3: up to 70 x 40 x 140, 20^3 for
// boxes of radius 3 and 4), policy P, one random op.
template <int Rank, int R, StencilShape S, int P>
void forced_paths_agree(int cases, std::mt19937& rng) {
  const auto op = random_op<float, Rank, R, S>(rng);
  const bool tma = gpu_has_tma();
  const bool big_box = Rank == 3 && S == StencilShape::box && R >= 3;
  INFO("device_stencil<" << R << ", " << (S == StencilShape::star ? "star" : "box") << "> rank " << Rank
                         << " float, policy " << policy_name(P));
  for (int c = 0; c < cases; ++c) {
    const int depth = Rank == 2 ? 1 : uniform(rng, 1, big_box ? 20 : 70);
    const int rows = uniform(rng, 1, Rank == 2 ? 300 : big_box ? 20 : 40);
    const int cols = uniform(rng, 1, Rank == 2 ? 300 : big_box ? 20 : 140);
    const int pitch = (cols + 3) / 4 * 4 + 4 * uniform(rng, 0, 2);  // rows of whole 16-byte vectors
    const long long slice = static_cast<long long>(rows) * pitch + 4 * uniform(rng, 0, 1);
    INFO("case " << c << ": " << depth << " x " << rows << " x " << cols << ", pitch " << pitch << ", slice " << slice);
    const std::size_t total = static_cast<std::size_t>(slice * depth);
    DeviceBuffer<float> d_in(total), d_out(total);
    std::vector<float> in(total);  // integers: every product and sum exact in the op's double
    for (float& v : in) v = static_cast<float>(uniform(rng, -1000, 1000));
    d_in.upload(in);
    const auto make_in = [&] {
      if constexpr (Rank == 2) return smemtile::make_global_matrix<const float>(d_in.get(), rows, cols, pitch);
      else return smemtile::make_global_volume<const float>(d_in.get(), depth, rows, cols, pitch, slice);
    };
    const auto make_out = [&] {
      if constexpr (Rank == 2) return smemtile::make_global_matrix(d_out.get(), rows, cols, pitch);
      else return smemtile::make_global_volume(d_out.get(), depth, rows, cols, pitch, slice);
    };
    const auto boundary = make_policy<P, float>();

    d_out.poison();
    smemtile::LaunchStatus status = smemtile::device_stencil<R, S>(make_in(), make_out(), boundary, op);
    INFO("selected: " << status.message);
    REQUIRE(status.error == cudaSuccess);
    REQUIRE_CUDA(cudaDeviceSynchronize());
    const std::vector<float> selected = d_out.download();

    d_out.poison();
    status = smemtile::device_stencil<R, S>(StencilForcedLoader<StencilLoader::cp_async>{}, make_in(), make_out(),
                                            boundary, op);
    INFO("cp.async forced: " << status.message);
    REQUIRE(status.error == cudaSuccess);
    REQUIRE_CUDA(cudaDeviceSynchronize());
    const std::vector<float> cp_async = d_out.download();

    d_out.poison();
    status = smemtile::device_stencil<R, S>(StencilForcedLoader<StencilLoader::tma>{}, make_in(), make_out(), boundary,
                                            op);
    INFO("TMA forced: " << status.message);
    if (!tma) {  // no TMA before sm_90: a clear refusal, nothing launched
      REQUIRE(status.error == cudaErrorInvalidValue);
      CHECK(std::memcmp(selected.data(), cp_async.data(), total * sizeof(float)) == 0);
      continue;
    }
    REQUIRE(status.error == cudaSuccess);
    REQUIRE_CUDA(cudaDeviceSynchronize());
    const std::vector<float> forced_tma = d_out.download();

    // The large tiles forced (where they differ: 2D, and 3D radius 1), whose float rows TMA reads
    // in 8-byte units: an odd number of columns reads one past the row, written by the policy.
    if constexpr (smemtile::stencil_large_tiles_differ<Rank, R>) {
      d_out.poison();
      status = smemtile::device_stencil<R, S>(StencilForcedLoader<StencilLoader::tma, smemtile::StencilTiles::large>{},
                                              make_in(), make_out(), boundary, op);
      INFO("TMA large forced: " << status.message);
      REQUIRE(status.error == cudaSuccess);
      REQUIRE_CUDA(cudaDeviceSynchronize());
      CHECK(std::memcmp(d_out.download().data(), cp_async.data(), total * sizeof(float)) == 0);
    }

    long long unwritten = 0;
    for (int z = 0; z < depth; ++z)
      for (int y = 0; y < rows; ++y)
        for (int x = 0; x < cols; ++x)
          unwritten += is_poison(cp_async[static_cast<std::size_t>(z * slice + static_cast<long long>(y) * pitch + x)]);
    CHECK(unwritten == 0);
    CHECK(std::memcmp(selected.data(), cp_async.data(), total * sizeof(float)) == 0);
    CHECK(std::memcmp(forced_tma.data(), cp_async.data(), total * sizeof(float)) == 0);
  }
}

// Radius R of shape S with one policy, P0, and (radius 1 only) every other policy too.
template <int Rank, int R, StencilShape S, int P0>
void forced_paths_radius(int cases, std::mt19937& rng) {
  forced_paths_agree<Rank, R, S, P0>(cases, rng);
  if constexpr (R == 1) {
    if (P0 != kZero) forced_paths_agree<Rank, R, S, kZero>(cases, rng);
    if (P0 != kConstant) forced_paths_agree<Rank, R, S, kConstant>(cases, rng);
    if (P0 != kClamp) forced_paths_agree<Rank, R, S, kClamp>(cases, rng);
    if (P0 != kPeriodic) forced_paths_agree<Rank, R, S, kPeriodic>(cases, rng);
    if (P0 != kReflect) forced_paths_agree<Rank, R, S, kReflect>(cases, rng);
  }
}

}  // namespace stencil_paths
