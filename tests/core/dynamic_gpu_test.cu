// GPU tests of RuntimeTile, the arena over dynamic shared memory and the launch helper.
// The seed and carving kernels are the examples' own (examples/dynamic/*_kernels.cuh).
#include <smemtile/smemtile.cuh>

#include <sys/wait.h>  // WIFEXITED, WEXITSTATUS (the overflow test's child process)

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include "carving_kernels.cuh"
#include "dynamic_seed_kernels.cuh"
#include "gpu_test.cuh"

namespace {

using smemtile_test::DeviceBuffer;

// ---- a list of regions of assorted types and alignments, carved by one description ---------------

constexpr int max_regions = 8;
enum RegionKind : int { kChar, kShort, kFloat, kDouble, kFloat4, kIntTile, kReduceStorage, kind_count };

struct RegionList {
  int count;
  int kind[max_regions];
  unsigned elements[max_regions];   // arrays: element count; tiles: rows = elements % 13 + 1, cols = elements / 13 + 1
  unsigned alignment[max_regions];  // requested alignment (power of two <= 1024)
};

struct RegionPointers {
  unsigned char* at[max_regions];
};

SMEMTILE_HOST_DEVICE int tile_rows(unsigned elements) { return static_cast<int>(elements % 13 + 1); }
SMEMTILE_HOST_DEVICE int tile_cols(unsigned elements) { return static_cast<int>(elements / 13 + 1); }
constexpr int tile_pad = 1;

// Bytes of region i, from the list alone (so the kernel knows how much to fill).
SMEMTILE_HOST_DEVICE std::size_t region_bytes(const RegionList& list, int i) {
  const std::size_t n = list.elements[i];
  switch (list.kind[i]) {
    case kChar: return n;
    case kShort: return n * sizeof(short);
    case kFloat: return n * sizeof(float);
    case kDouble: return n * sizeof(double);
    case kFloat4: return n * sizeof(float4);
    case kIntTile:
      return static_cast<std::size_t>(tile_rows(list.elements[i])) * (tile_cols(list.elements[i]) + tile_pad) * sizeof(int);
    default: return sizeof(carving::BlockReduce::TempStorage);
  }
}

// The alignment region i must have: what was asked, or its type's if that is larger.
std::size_t region_alignment(const RegionList& list, int i) {
  std::size_t type_alignment = 1;
  switch (list.kind[i]) {
    case kChar: type_alignment = 1; break;
    case kShort: type_alignment = alignof(short); break;
    case kFloat: case kIntTile: type_alignment = 4; break;
    case kDouble: type_alignment = 8; break;
    case kFloat4: type_alignment = alignof(float4); break;
    default: type_alignment = alignof(carving::BlockReduce::TempStorage); break;
  }
  return std::max<std::size_t>(type_alignment, list.alignment[i]);
}

template <class T>
SMEMTILE_HOST_DEVICE unsigned char* bytes_of(T* p) {
  return reinterpret_cast<unsigned char*>(p);
}

SMEMTILE_HOST_DEVICE RegionPointers carve_region_list(smemtile::Arena& arena, RegionList list) {
  RegionPointers p{};
  for (int i = 0; i < list.count; ++i) {
    const unsigned n = list.elements[i], a = list.alignment[i];
    switch (list.kind[i]) {
      case kChar: p.at[i] = bytes_of(arena.array<char>(n, a)); break;
      case kShort: p.at[i] = bytes_of(arena.array<short>(n, a)); break;
      case kFloat: p.at[i] = bytes_of(arena.array<float>(n, a)); break;
      case kDouble: p.at[i] = bytes_of(arena.array<double>(n, a)); break;
      case kFloat4: p.at[i] = bytes_of(arena.array<float4>(n, a)); break;
      case kIntTile: p.at[i] = bytes_of(arena.tile<int>(tile_rows(n), tile_cols(n), tile_pad, a).data()); break;
      default: p.at[i] = bytes_of(arena.object<carving::BlockReduce::TempStorage>(a)); break;
    }
  }
  return p;
}

SMEMTILE_HOST_DEVICE unsigned char region_pattern(int i) { return static_cast<unsigned char>((i + 1) * 0x1F); }

// What the kernel reports besides its mismatch count.
struct RegionReport {
  unsigned long long shared_address[max_regions];   // __cvta_generic_to_shared of each region
  unsigned long long generic_address[max_regions];  // the pointer itself
  unsigned long long dynamic_start;                 // shared address where dynamic memory begins
  unsigned dynamic_size;                            // %dynamic_smem_size
  unsigned mismatches;                              // bytes that did not hold their region's pattern
};

// Every thread fills its share of every region with the region's byte pattern; after a barrier
// every byte is checked. Overlapping regions would overwrite each other's patterns.
__global__ void fill_and_check_regions(RegionList list, RegionReport* report) {
  RegionPointers p = smemtile::carve_dynamic_shared_memory(carve_region_list, list);
  if (threadIdx.x == 0) {
    for (int i = 0; i < list.count; ++i) {
      report->shared_address[i] = static_cast<unsigned long long>(__cvta_generic_to_shared(p.at[i]));
      report->generic_address[i] = reinterpret_cast<std::uintptr_t>(p.at[i]);
    }
    report->dynamic_start =
        static_cast<unsigned long long>(__cvta_generic_to_shared(smemtile::detail::dynamic_shared_memory_start()));
    report->dynamic_size = smemtile::dynamic_shared_memory_size();
    report->mismatches = 0;
  }
  for (int i = 0; i < list.count; ++i) {
    const std::size_t bytes = region_bytes(list, i);
    for (std::size_t b = threadIdx.x; b < bytes; b += blockDim.x) p.at[i][b] = region_pattern(i);
  }
  __syncthreads();
  unsigned wrong = 0;
  for (int i = 0; i < list.count; ++i) {
    const std::size_t bytes = region_bytes(list, i);
    for (std::size_t b = threadIdx.x; b < bytes; b += blockDim.x) wrong += p.at[i][b] != region_pattern(i);
  }
  if (wrong != 0) atomicAdd(&report->mismatches, wrong);
}

// Launches fill_and_check_regions for `list` and checks everything the arena promises.
void check_region_list(const RegionList& list, const char* what) {
  std::string description = std::string(what) + ":";
  for (int i = 0; i < list.count; ++i)
    description += " [kind " + std::to_string(list.kind[i]) + ", elements " + std::to_string(list.elements[i]) +
                   ", alignment " + std::to_string(list.alignment[i]) + "]";
  INFO(description);
  const smemtile::SharedMemoryPlan plan = smemtile::plan_shared_memory(carve_region_list, list);
  REQUIRE(plan.ok());

  // The offsets the host side hands out, on a host base aligned to exactly the plan's alignment.
  static std::vector<unsigned char> host_memory(2 * 1024 * 1024 + 4096);
  const std::uintptr_t raw = reinterpret_cast<std::uintptr_t>(host_memory.data());
  unsigned char* host_base = host_memory.data() + (smemtile::align_up(raw, 1024) - raw) +
                             (plan.base_alignment < 1024 ? plan.base_alignment : 0);
  REQUIRE(plan.carved_bytes <= 2 * 1024 * 1024);
  smemtile::Arena host_arena = smemtile::Arena::over(host_base, plan.carved_bytes);
  const RegionPointers on_host = carve_region_list(host_arena, list);
  REQUIRE(host_arena.plan().ok());

  DeviceBuffer<RegionReport> report(1);
  report.poison();
  const smemtile::LaunchStatus status =
      smemtile::launch_with_plan(fill_and_check_regions, dim3(1), dim3(256), plan, nullptr, list, report.get());
  INFO(status.message);
  REQUIRE_CUDA(status.error);
  REQUIRE_LAUNCH_OK();
  const RegionReport r = report.download()[0];

  CHECK(r.mismatches == 0u);                            // no region overlapped another
  CHECK(r.dynamic_size == plan.launch_bytes());         // the device reads what the launch gave
  CHECK(r.dynamic_start % smemtile::dynamic_shared_base_alignment == 0);
  for (int i = 0; i < list.count; ++i) {
    INFO("region " << i);
    const std::size_t alignment = region_alignment(list, i);
    CHECK(r.shared_address[i] % alignment == 0);   // the promised alignment, in shared memory ...
    CHECK(r.generic_address[i] % alignment == 0);  // ... and as a pointer
    // Within the launch's dynamic shared memory.
    CHECK(r.shared_address[i] >= r.dynamic_start);
    CHECK(r.shared_address[i] + region_bytes(list, i) <= r.dynamic_start + r.dynamic_size);
    // The same offsets, relative to the first region, as the host side hands out.
    CHECK(r.shared_address[i] - r.shared_address[0] ==
          static_cast<unsigned long long>(on_host.at[i] - on_host.at[0]));
  }
}

RegionList random_region_list(std::mt19937& engine) {
  const unsigned alignments[] = {1, 1, 1, 2, 4, 8, 16, 16, 32, 64, 128, 128, 256, 512, 1024};
  std::uniform_int_distribution<int> count(1, max_regions), kind(0, kind_count - 1), pick(0, 14);
  std::uniform_int_distribution<unsigned> elements(0, 700);
  RegionList list{};
  list.count = count(engine);
  for (int i = 0; i < list.count; ++i) {
    list.kind[i] = kind(engine);
    list.elements[i] = elements(engine);
    list.alignment[i] = alignments[pick(engine)];
  }
  return list;
}

// ---- a tile above 48 KB -------------------------------------------------------------------------

struct BigTileShape {
  int rows;
  int cols;
  int pad;
};

struct BigTileCarving {
  smemtile::RuntimeTile<int> tile;
  float* scratch;  // 1024-aligned, after the tile: the base must be moved, and the plan pays for it
};

SMEMTILE_HOST_DEVICE BigTileCarving carve_big_tile(smemtile::Arena& arena, BigTileShape shape) {
  BigTileCarving carved{};
  carved.tile = arena.tile<int>(shape.rows, shape.cols, shape.pad);
  carved.scratch = arena.array<float>(256, smemtile::align_to<1024>);
  return carved;
}

// out (cols x rows) = transpose of in (rows x cols), staged through a tile in dynamic shared memory;
// scratch[j] = j is written and read back through out_scratch.
__global__ void transpose_through_big_tile(const int* in, int* out, float* out_scratch, BigTileShape shape) {
  BigTileCarving s = smemtile::carve_dynamic_shared_memory(carve_big_tile, shape);
  const unsigned threads = blockDim.x * blockDim.y, rank = smemtile::thread_rank();
  const unsigned n = static_cast<unsigned>(shape.rows * shape.cols);
  for (unsigned k = rank; k < n; k += threads) s.tile.row_major(k) = in[k];
  for (unsigned j = rank; j < 256; j += threads) s.scratch[j] = static_cast<float>(j);
  __syncthreads();
  for (unsigned k = rank; k < n; k += threads) out[k] = s.tile.col_major(k);
  for (unsigned j = rank; j < 256; j += threads) out_scratch[j] = s.scratch[j];
}

int device_optin_limit() {
  int device = 0, limit = 0;
  REQUIRE_CUDA(cudaGetDevice(&device));
  REQUIRE_CUDA(cudaDeviceGetAttribute(&limit, cudaDevAttrMaxSharedMemoryPerBlockOptin, device));
  return limit;
}

}  // namespace

TEST_CASE("setRowReadColDyn and setRowReadColDynPad give the seeds' permutation, with the seeds' bytes") {
  struct Case {
    int rows, cols, pad;
  };
  const Case cases[] = {{32, 32, 0}, {32, 32, 1}, {16, 32, 0}, {16, 32, 1}, {16, 32, 2}};
  for (const Case& c : cases) {
    INFO("block " << c.cols << "x" << c.rows << ", IPAD " << c.pad);
    const int n = c.rows * c.cols;
    DeviceBuffer<int> out(static_cast<std::size_t>(n));
    out.poison();
    smemtile::LaunchStatus status;
    if (c.pad == 0) {
      const dynamic_seeds::TileExtent extent{c.rows, c.cols};
      status = smemtile::launch_with_plan(dynamic_seeds::setRowReadColDyn, dim3(1), dim3(c.cols, c.rows),
                                          smemtile::plan_shared_memory(dynamic_seeds::carve_seed_tile, extent),
                                          nullptr, out.get(), extent);
    } else {
      const dynamic_seeds::PaddedTileShape shape{c.rows, c.cols, c.pad};
      status = smemtile::launch_with_plan(dynamic_seeds::setRowReadColDynPad, dim3(1), dim3(c.cols, c.rows),
                                          smemtile::plan_shared_memory(dynamic_seeds::carve_padded_seed_tile, shape),
                                          nullptr, out.get(), shape);
    }
    INFO(status.message);
    REQUIRE_CUDA(status.error);
    REQUIRE_LAUNCH_OK();
    // The textbook's launch: (BDIMX + IPAD) * BDIMY * sizeof(int).
    REQUIRE(status.dynamic_bytes == static_cast<std::size_t>(c.cols + c.pad) * c.rows * sizeof(int));
    const std::vector<int> result = out.download();
    for (int k = 0; k < n; ++k) {
      INFO("k " << k);
      REQUIRE(result[k] == dynamic_seeds::expected_row_write_col_read(static_cast<unsigned>(k), c.rows, c.cols));
    }
  }
}

TEST_CASE("carved regions have their alignment, stay inside the launch and never overlap") {
  SECTION("hand-picked lists") {
    // The guide's three arrays with an odd short count, then a 1024-aligned float array.
    check_region_list(RegionList{4, {kShort, kFloat, kChar, kFloat}, {127, 64, 3, 5}, {1, 1, 1, 1024}},
                      "guide-like, then 1024");
    // A tile beside a CUB TempStorage beside float4s, each at 16/128/1024.
    check_region_list(RegionList{5, {kChar, kIntTile, kReduceStorage, kFloat4, kDouble}, {1, 100, 0, 3, 7},
                                 {1, 16, 128, 1024, 16}},
                      "tile, TempStorage, float4");
    check_region_list(RegionList{3, {kChar, kChar, kChar}, {1, 1, 1}, {1024, 1024, 1024}}, "three 1024-aligned bytes");
    check_region_list(RegionList{2, {kDouble, kChar}, {0, 0}, {8, 1}}, "empty regions");
  }
  SECTION("random lists") {
    const unsigned seed = smemtile_test::fresh_seed();
    INFO("seed " << seed);
    std::mt19937 engine(seed);
    for (int trial = 0; trial < 150; ++trial) {
      INFO("trial " << trial);
      check_region_list(random_region_list(engine), "random");
    }
  }
}

TEST_CASE("the guide's three arrays and a tile beside a CUB TempStorage hold what the kernels wrote") {
  const unsigned seed = smemtile_test::fresh_seed();
  INFO("seed " << seed);
  std::mt19937 engine(seed);

  SECTION("short[n], float[64], int[256] for n = 128 (the guide) and odd n") {
    for (const int shorts : {128, 127, 1, 255}) {
      INFO("shorts " << shorts);
      const carving::GuideCounts counts{shorts, 64, 256};
      std::vector<short> in_shorts(static_cast<std::size_t>(shorts));
      std::vector<float> in_floats(64);
      std::vector<int> in_ints(256);
      std::uniform_int_distribution<int> small(-30000, 30000), large(-1000000, 1000000);
      for (short& v : in_shorts) v = static_cast<short>(small(engine));
      for (float& v : in_floats) v = static_cast<float>(small(engine));  // integers: exact as float and back
      for (int& v : in_ints) v = large(engine);
      DeviceBuffer<short> d_shorts(in_shorts.size());
      DeviceBuffer<float> d_floats(in_floats.size());
      DeviceBuffer<int> d_ints(in_ints.size()), d_out(carving::guide_block_threads);
      d_shorts.upload(in_shorts);
      d_floats.upload(in_floats);
      d_ints.upload(in_ints);
      d_out.poison();
      const smemtile::LaunchStatus status = smemtile::launch_with_plan(
          carving::use_guide_arrays, dim3(1), dim3(carving::guide_block_threads),
          smemtile::plan_shared_memory(carving::carve_guide_arrays, counts), nullptr, d_shorts.get(), d_floats.get(),
          d_ints.get(), d_out.get(), counts);
      INFO(status.message);
      REQUIRE_CUDA(status.error);
      REQUIRE_LAUNCH_OK();
      const std::vector<int> out = d_out.download();
      for (int t = 0; t < carving::guide_block_threads; ++t) {
        INFO("thread " << t);
        REQUIRE(out[t] == carving::expected_guide_output(t, in_shorts.data(), in_floats.data(), in_ints.data(), counts));
      }
    }
  }

  SECTION("RuntimeTile + cub::BlockReduce<float, 256>::TempStorage") {
    for (const carving::StagingShape shape : {carving::StagingShape{16, 16, 1}, carving::StagingShape{8, 32, 0},
                                              carving::StagingShape{32, 8, 3}}) {
      INFO("tile " << shape.rows << "x" << shape.cols << " pad " << shape.pad);
      const int n = shape.rows * shape.cols;
      std::vector<float> in(static_cast<std::size_t>(n));
      std::uniform_int_distribution<int> values(-1000, 1000);  // integers: the sum is exact in any order
      double expected_sum = 0;
      for (float& v : in) {
        v = static_cast<float>(values(engine));
        expected_sum += v;
      }
      DeviceBuffer<float> d_in(in.size()), d_transposed(in.size()), d_sum(1);
      d_in.upload(in);
      d_transposed.poison();
      d_sum.poison();
      const smemtile::SharedMemoryPlan plan = smemtile::plan_shared_memory(carving::carve_tile_and_reduce, shape);
      REQUIRE(plan.regions == 2);
      const smemtile::LaunchStatus status =
          smemtile::launch_with_plan(carving::transpose_and_sum, dim3(1), dim3(carving::reduce_block_threads), plan,
                                     nullptr, d_in.get(), d_transposed.get(), d_sum.get(), shape);
      INFO(status.message);
      REQUIRE_CUDA(status.error);
      REQUIRE_LAUNCH_OK();
      const std::vector<float> transposed = d_transposed.download();
      for (int k = 0; k < n; ++k) {
        INFO("k " << k);
        REQUIRE(transposed[k] == in[(k % shape.rows) * shape.cols + k / shape.rows]);
      }
      REQUIRE(d_sum.download()[0] == static_cast<float>(expected_sum));
    }
  }
}

TEST_CASE("launches above 48 KB work through the helper, up to the device's opt-in limit") {
  const int limit = device_optin_limit();
  INFO("cudaDevAttrMaxSharedMemoryPerBlockOptin = " << limit);
  REQUIRE(limit > 48 * 1024);  // every device smemtile targets (sm_70+) allows more than 48 KB

  SECTION("a 128x128 int tile (66 KB) and a 1024-aligned scratch array") {
    const unsigned seed = smemtile_test::fresh_seed();
    INFO("seed " << seed);
    const BigTileShape shape{128, 128, 1};
    const smemtile::SharedMemoryPlan plan = smemtile::plan_shared_memory(carve_big_tile, shape);
    REQUIRE(plan.launch_bytes() > 48 * 1024);
    REQUIRE(plan.base_alignment == 1024);
    const auto input = smemtile_test::random_values<int>(128 * 128, seed);
    DeviceBuffer<int> in(input.size()), out(input.size());
    DeviceBuffer<float> scratch(256);
    in.upload(input);
    out.poison();
    scratch.poison();
    const smemtile::LaunchStatus status = smemtile::launch_with_plan(
        transpose_through_big_tile, dim3(1), dim3(32, 32), plan, nullptr, in.get(), out.get(), scratch.get(), shape);
    INFO(status.message);
    REQUIRE_CUDA(status.error);
    REQUIRE_LAUNCH_OK();
    cudaFuncAttributes attributes{};
    REQUIRE_CUDA(cudaFuncGetAttributes(&attributes, transpose_through_big_tile));
    CHECK(static_cast<std::size_t>(attributes.maxDynamicSharedSizeBytes) >= plan.launch_bytes());  // raised
    const std::vector<int> result = out.download();
    for (unsigned k = 0; k < 128u * 128u; ++k) {
      INFO("k " << k);
      REQUIRE(result[k] == input[(k % 128) * 128 + k / 128]);
    }
    const std::vector<float> scratch_back = scratch.download();
    for (int j = 0; j < 256; ++j) REQUIRE(scratch_back[j] == static_cast<float>(j));
  }

  SECTION("exactly the opt-in limit, every byte written and checked") {
    check_region_list(RegionList{1, {kChar}, {static_cast<unsigned>(limit)}, {1}}, "opt-in limit");
  }
}

TEST_CASE("a request above the device's limit is an error with a message, not a crash") {
  const int limit = device_optin_limit();
  const RegionList too_big{1, {kChar}, {static_cast<unsigned>(limit) + 1}, {1}};
  const smemtile::SharedMemoryPlan plan = smemtile::plan_shared_memory(carve_region_list, too_big);
  DeviceBuffer<RegionReport> report(1);
  report.poison();

  const smemtile::LaunchStatus prepared = smemtile::prepare_launch(fill_and_check_regions, plan);
  INFO(prepared.message);
  REQUIRE(prepared.error == cudaErrorInvalidValue);
  REQUIRE_FALSE(static_cast<bool>(prepared));
  CHECK(prepared.message.find(std::to_string(limit + 1) + " bytes of dynamic shared memory") != std::string::npos);
  CHECK(prepared.message.find("allows at most " + std::to_string(limit)) != std::string::npos);

  const smemtile::LaunchStatus launched =
      smemtile::launch_with_plan(fill_and_check_regions, dim3(1), dim3(256), plan, nullptr, too_big, report.get());
  REQUIRE(launched.error == cudaErrorInvalidValue);
  REQUIRE_CUDA(cudaDeviceSynchronize());  // nothing was launched, the context is healthy
  REQUIRE_CUDA(cudaGetLastError());

  // An invalid description (alignment 3) is refused before anything reaches the device.
  const RegionList bad_alignment{1, {kFloat}, {4}, {3}};
  const smemtile::LaunchStatus invalid = smemtile::prepare_launch(
      fill_and_check_regions, smemtile::plan_shared_memory(carve_region_list, bad_alignment));
  INFO(invalid.message);
  REQUIRE(invalid.error == cudaErrorInvalidValue);
  CHECK(invalid.message.find("power of two") != std::string::npos);

  // And a valid launch still works afterwards.
  check_region_list(RegionList{1, {kIntTile}, {40}, {16}}, "after the errors");
}

TEST_CASE("an overflowing carve in a debug build traps with the requested and available bytes", "[death]") {
  // The child (overflow_child.cu, built with SMEMTILE_BOUNDS_CHECKS 1) runs the seed's padded
  // 32x16 kernel, which carves 2176 bytes; "overflow" launches it with 2048.
  const auto run_child = [](const char* mode, std::string& output) {
    const std::string command = std::string("\"") + SMEMTILE_OVERFLOW_CHILD + "\" " + mode + " 2>&1";
    FILE* pipe = popen(command.c_str(), "r");
    REQUIRE(pipe != nullptr);
    char buffer[4096];
    std::size_t n;
    while ((n = std::fread(buffer, 1, sizeof buffer, pipe)) > 0) output.append(buffer, n);
    const int status = pclose(pipe);
    REQUIRE(WIFEXITED(status));  // the child reports the failure itself; it must not crash
    return WEXITSTATUS(status);
  };

  std::string fits_output;
  const int fits = run_child("fits", fits_output);
  INFO("child output (fits):\n" << fits_output.substr(0, 2000));
  REQUIRE(fits == 0);
  REQUIRE(fits_output.find("overflow") == std::string::npos);

  std::string overflow_output;
  const int overflow = run_child("overflow", overflow_output);
  INFO("child output (overflow):\n" << overflow_output.substr(0, 2000));
  REQUIRE(overflow == 1);
  CHECK(overflow_output.find("dynamic shared memory overflow") != std::string::npos);
  CHECK(overflow_output.find("requested bytes, available bytes") != std::string::npos);
  CHECK(overflow_output.find("(values: 2176, 2048,") != std::string::npos);
  CHECK(overflow_output.find("kernel failed") != std::string::npos);
}
