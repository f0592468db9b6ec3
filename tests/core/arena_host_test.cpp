// Host tests of the carving arithmetic (arena.cuh), RuntimeTile (dynamic_tile.cuh) and the launch
// helper's decisions (launch.cuh). Plain C++: no CUDA compiler is involved.
//
// Real (non-counting) arenas are exercised here over host memory, including requests that must
// fail; with the debug check on, a failing real arena would trap the test program instead of
// recording its error, so this file turns the checks off (the device-side trap is tested on the GPU).
#define SMEMTILE_BOUNDS_CHECKS 0
#include <smemtile/smemtile.cuh>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "catch.hpp"

namespace {

using smemtile::Arena;
using smemtile::CarvedRegion;
using smemtile::SharedMemoryPlan;

struct alignas(16) Vec16 {  // a float4-like vector type
  float x, y, z, w;
};
struct alignas(128) Line128 {  // something that wants a whole 128-byte line
  unsigned char bytes[200];
};
struct Odd {  // a TempStorage-like blob: odd size, alignment of its widest member
  double d;
  char c[5];
};

// ---- constexpr: the plan of the programming guide's arrays is a compile-time constant ------------

constexpr auto carve_guide = [](Arena& arena) {
  struct {
    short* a0;
    float* a1;
    int* a2;
  } arrays{arena.array<short>(128), arena.array<float>(64), arena.array<int>(256)};
  return arrays;
};
constexpr SharedMemoryPlan guide_plan = smemtile::plan_shared_memory(carve_guide);
static_assert(guide_plan.ok(), "the guide's carving is valid");
static_assert(guide_plan.carved_bytes == 128 * 2 + 64 * 4 + 256 * 4, "no gaps: 1536 bytes");
static_assert(guide_plan.launch_bytes() == 1536, "4-byte alignment needs no base slack");
static_assert(guide_plan.regions == 3 && guide_plan.base_alignment == 4, "three regions, int/float alignment");

static_assert(std::is_same<smemtile::RuntimeTile<int>, smemtile::TileRef<int, smemtile::RuntimePaddedLayout>>::value,
              "RuntimeTile is a TileRef over the run-time padded layout");
static_assert(std::is_base_of<smemtile::TileAccess<smemtile::RuntimeTile<int>, int>, smemtile::RuntimeTile<int>>::value,
              "RuntimeTile's accessors are TileAccess's, the same code as StaticTile's");
static_assert(std::is_trivially_copyable<smemtile::RuntimeTile<float>>::value, "a tile is passed by value");

// ---- random carving sequences -------------------------------------------------------------------

enum class Kind { Char, Short, Int, Double, Vec16, Line128, Odd, Tile, TileOfDouble };

struct Request {
  Kind kind;
  std::size_t count;      // arrays
  std::size_t alignment;  // 0: the type's own (default argument)
  bool compile_time;      // pass the alignment as align_to<N> (when it is one of 16, 128, 1024)
  int rows, cols, pad;    // tiles
};

struct Carved {
  std::vector<CarvedRegion> regions;
  std::vector<unsigned char*> pointers;
  std::vector<std::size_t> type_alignment;  // alignof of what was carved
  std::vector<std::size_t> expected_bytes;  // count * sizeof, computed independently
};

template <class T>
T* carve_array(Arena& arena, const Request& r) {
  if (r.alignment == 0) return arena.array<T>(r.count);
  if (r.compile_time && r.alignment == 16) return arena.array<T>(r.count, smemtile::align_to<16>);
  if (r.compile_time && r.alignment == 128) return arena.array<T>(r.count, smemtile::align_to<128>);
  if (r.compile_time && r.alignment == 1024) return arena.array<T>(r.count, smemtile::align_to<1024>);
  return arena.array<T>(r.count, r.alignment);
}

template <class T>
void note(Carved& out, Arena& arena, T* pointer, std::size_t bytes) {
  out.regions.push_back(arena.last_region());
  out.pointers.push_back(reinterpret_cast<unsigned char*>(pointer));
  out.type_alignment.push_back(alignof(T));
  out.expected_bytes.push_back(bytes);
}

// The description under test: one function, run by a counting arena and by real ones.
Carved carve_requests(Arena& arena, const std::vector<Request>& requests) {
  Carved out;
  for (const Request& r : requests) {
    switch (r.kind) {
      case Kind::Char: note(out, arena, carve_array<char>(arena, r), r.count); break;
      case Kind::Short: note(out, arena, carve_array<short>(arena, r), r.count * 2); break;
      case Kind::Int: note(out, arena, carve_array<int>(arena, r), r.count * 4); break;
      case Kind::Double: note(out, arena, carve_array<double>(arena, r), r.count * 8); break;
      case Kind::Vec16: note(out, arena, carve_array<Vec16>(arena, r), r.count * 16); break;
      case Kind::Line128: note(out, arena, carve_array<Line128>(arena, r), r.count * sizeof(Line128)); break;
      case Kind::Odd:
        note(out, arena, r.alignment == 0 ? arena.object<Odd>() : arena.object<Odd>(r.alignment), sizeof(Odd));
        break;
      case Kind::Tile: {
        smemtile::RuntimeTile<int> t = arena.tile<int>(r.rows, r.cols, r.pad, r.alignment == 0 ? 1 : r.alignment);
        note(out, arena, t.data(), static_cast<std::size_t>(r.rows) * (r.cols + r.pad) * sizeof(int));
        break;
      }
      case Kind::TileOfDouble: {
        smemtile::RuntimeTile<double> t =
            r.compile_time ? arena.tile<double>(r.rows, r.cols, r.pad, smemtile::align_to<128>)
                           : arena.tile<double>(r.rows, r.cols, r.pad);
        note(out, arena, t.data(), static_cast<std::size_t>(r.rows) * (r.cols + r.pad) * sizeof(double));
        break;
      }
    }
  }
  return out;
}

std::vector<Request> random_requests(std::mt19937& engine) {
  const std::size_t alignments[] = {0, 0, 0, 1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024};
  std::uniform_int_distribution<int> kinds(0, 8), lengths(1, 12), counts(0, 300), pick(0, 13), coin(0, 1),
      dims(1, 40), pads(0, 3);
  std::vector<Request> requests(static_cast<std::size_t>(lengths(engine)));
  for (Request& r : requests) {
    r.kind = static_cast<Kind>(kinds(engine));
    r.count = static_cast<std::size_t>(counts(engine));
    r.alignment = alignments[pick(engine)];
    r.compile_time = coin(engine) == 1;
    r.rows = dims(engine);
    r.cols = dims(engine);
    r.pad = pads(engine);
    if (r.kind == Kind::TileOfDouble) r.alignment = r.compile_time ? 128 : 0;  // align_to<128> or the default
  }
  return requests;
}

// Room for the largest random plan (12 regions of up to 300 * 256 bytes), plus 2 KB of slack so
// that a base can be placed at any alignment from 1 to 1024.
struct alignas(1024) HostMemory {
  unsigned char bytes[1024 * 1024 + 2048];
};

}  // namespace

TEST_CASE("arithmetic core: powers of two and rounding up") {
  STATIC_REQUIRE(smemtile::is_power_of_two(1) && smemtile::is_power_of_two(1024));
  STATIC_REQUIRE(!smemtile::is_power_of_two(0) && !smemtile::is_power_of_two(3) && !smemtile::is_power_of_two(1536));
  STATIC_REQUIRE(smemtile::align_up(0, 128) == 0);
  STATIC_REQUIRE(smemtile::align_up(1, 128) == 128);
  STATIC_REQUIRE(smemtile::align_up(128, 128) == 128);
  STATIC_REQUIRE(smemtile::align_up(254, 4) == 256);
  STATIC_REQUIRE(smemtile::place_region(254, 256, 4).offset == 256);
  STATIC_REQUIRE(smemtile::align_to<128>.value == 128);
}

TEST_CASE("random carving plans: aligned, disjoint, minimal, and identical on every arena") {
  const unsigned seed = std::random_device{}();
  INFO("seed " << seed);
  std::mt19937 engine(seed);
  static HostMemory memory;
  for (int trial = 0; trial < 2000; ++trial) {
    const std::vector<Request> requests = random_requests(engine);
    INFO("trial " << trial << ", " << requests.size() << " regions");

    Arena counting = Arena::counting();
    const Carved counted = carve_requests(counting, requests);
    const SharedMemoryPlan plan = counting.plan();
    REQUIRE(plan.ok());
    REQUIRE(plan.regions == static_cast<int>(requests.size()));
    for (unsigned char* p : counted.pointers) REQUIRE(p == nullptr);  // counting hands out no memory

    std::size_t previous_end = 0, largest_alignment = 1;
    for (std::size_t i = 0; i < requests.size(); ++i) {
      const CarvedRegion& region = counted.regions[i];
      INFO("region " << i << ": offset " << region.offset << ", bytes " << region.bytes << ", alignment "
                     << region.alignment);
      const std::size_t asked = requests[i].alignment;
      REQUIRE(region.bytes == counted.expected_bytes[i]);
      REQUIRE(smemtile::is_power_of_two(region.alignment));
      REQUIRE(region.alignment >= counted.type_alignment[i]);  // never below the type's own
      REQUIRE(region.alignment >= asked);                      // never below what was asked
      REQUIRE((region.alignment == counted.type_alignment[i] || region.alignment == asked));  // nothing gratuitous
      REQUIRE(region.offset % region.alignment == 0);                                         // aligned
      REQUIRE(region.offset >= previous_end);                                                 // no overlap
      REQUIRE(region.offset - previous_end < region.alignment);  // minimal: no aligned offset was skipped
      previous_end = region.offset + region.bytes;
      largest_alignment = std::max(largest_alignment, region.alignment);
    }
    REQUIRE(plan.carved_bytes == previous_end);  // the total is the last end: nothing after it
    REQUIRE(plan.base_alignment == largest_alignment);
    REQUIRE(plan.launch_bytes() == plan.carved_bytes + (largest_alignment > 16 ? largest_alignment - 16 : 0));
    if (plan.carved_bytes > sizeof(memory.bytes) - 1024) continue;  // (rare) too big for the host buffer

    // The device arena's base is aligned to exactly plan.base_alignment (or more): place a real
    // arena's base at exactly that alignment and with exactly the carved bytes. It must hand out
    // the counted offsets, use every byte, and record no error.
    unsigned char* base = memory.bytes + (largest_alignment < 1024 ? largest_alignment : 0);
    Arena real = Arena::over(base, plan.carved_bytes);
    REQUIRE(real.base_alignment() == largest_alignment);
    const Carved placed = carve_requests(real, requests);
    REQUIRE(real.plan().ok());
    REQUIRE(real.used() == plan.carved_bytes);
    for (std::size_t i = 0; i < requests.size(); ++i) {
      REQUIRE(placed.pointers[i] == base + counted.regions[i].offset);
      REQUIRE(reinterpret_cast<std::uintptr_t>(placed.pointers[i]) % counted.regions[i].alignment == 0);
    }

    // The slack in launch_bytes covers every start CUDA may give dynamic memory (any multiple of
    // 16 below 1024): moving the base up to the plan's alignment never costs more than the slack.
    for (std::size_t start = 0; start < 1024; start += 16)
      REQUIRE(smemtile::align_up(start, largest_alignment) - start + plan.carved_bytes <= plan.launch_bytes());

    // One byte short: the real arena reports an overflow instead of handing out memory past its end.
    if (plan.carved_bytes > 0) {
      Arena short_by_one = Arena::over(base, plan.carved_bytes - 1);
      (void)carve_requests(short_by_one, requests);
      REQUIRE_FALSE(short_by_one.plan().ok());
      REQUIRE(std::string(short_by_one.plan().error) == "dynamic shared memory overflow");
    }
    // A base less aligned than the plan needs is refused, not silently misaligned.
    if (largest_alignment > 1) {
      Arena misaligned = Arena::over(base + largest_alignment / 2, plan.carved_bytes + largest_alignment);
      (void)carve_requests(misaligned, requests);
      REQUIRE_FALSE(misaligned.plan().ok());
    }
  }
}

TEST_CASE("the guide's arrays are aligned for their types whatever the counts") {
  auto carve = [](Arena& arena, int shorts) {
    struct {
      short* a0;
      float* a1;
      int* a2;
    } arrays{arena.array<short>(static_cast<std::size_t>(shorts)), arena.array<float>(64), arena.array<int>(256)};
    return arrays;
  };
  alignas(1024) static unsigned char memory[4096];
  Arena arena = Arena::over(memory, sizeof memory);
  const auto arrays = carve(arena, 127);  // the guide's casts would put the floats at byte 254
  REQUIRE(reinterpret_cast<unsigned char*>(arrays.a1) - memory == 256);
  REQUIRE(reinterpret_cast<unsigned char*>(arrays.a2) - memory == 512);
  REQUIRE(smemtile::plan_shared_memory(carve, 127).carved_bytes == 512 + 1024);
}

TEST_CASE("explicit alignments: 16, 128 and 1024 bytes, compile-time or run-time") {
  auto carve = [](Arena& arena) {
    struct {
      char* c;
      float* f128;
      int* i1024;
      Vec16* v;
      double* d16;
    } r{arena.array<char>(3), arena.array<float>(5, smemtile::align_to<128>), arena.array<int>(1, 1024),
        arena.array<Vec16>(2), arena.array<double>(1, smemtile::align_to<16>)};
    return r;
  };
  const SharedMemoryPlan plan = smemtile::plan_shared_memory(carve);
  REQUIRE(plan.ok());
  REQUIRE(plan.base_alignment == 1024);
  // char[3] at 0, float[5] at 128, int at 1024, Vec16[2] at 1040, double at 1072; end 1080.
  REQUIRE(plan.carved_bytes == 1080);
  REQUIRE(plan.launch_bytes() == 1080 + 1024 - 16);
  static HostMemory memory;
  Arena arena = Arena::over(memory.bytes, sizeof memory.bytes);
  const auto r = carve(arena);
  REQUIRE(reinterpret_cast<unsigned char*>(r.f128) - memory.bytes == 128);
  REQUIRE(reinterpret_cast<unsigned char*>(r.i1024) - memory.bytes == 1024);
  REQUIRE(reinterpret_cast<unsigned char*>(r.v) - memory.bytes == 1040);
  REQUIRE(reinterpret_cast<unsigned char*>(r.d16) - memory.bytes == 1072);
}

TEST_CASE("invalid requests are reported by the plan with the offending value") {
  struct Case {
    const char* what;
    SharedMemoryPlan plan;
    long long value;
  };
  const Case cases[] = {
      {"alignment 3", smemtile::plan_shared_memory([](Arena& a) { return a.array<int>(4, 3); }), 3},
      {"alignment 2048", smemtile::plan_shared_memory([](Arena& a) { return a.array<int>(4, 2048); }), 2048},
      {"alignment 0", smemtile::plan_shared_memory([](Arena& a) { return a.object<Odd>(0); }), 0},
      {"tile with 0 rows", smemtile::plan_shared_memory([](Arena& a) { return a.tile<int>(0, 32); }), 0},
      {"tile with -5 cols", smemtile::plan_shared_memory([](Arena& a) { return a.tile<int>(4, -5); }), -5},
      {"tile with pad -1", smemtile::plan_shared_memory([](Arena& a) { return a.tile<int>(4, 4, -1); }), -1},
      {"tile of 2^31 elements",
       smemtile::plan_shared_memory([](Arena& a) { return a.tile<char>(1 << 16, 1 << 15); }), 1LL << 31},
      {"array of 2^40 ints", smemtile::plan_shared_memory([](Arena& a) { return a.array<int>(std::size_t(1) << 40); }),
       1LL << 40},
      {"3 GiB in pieces", smemtile::plan_shared_memory([](Arena& a) {
         a.array<char>(std::size_t(1) << 30);
         a.array<char>(std::size_t(1) << 30);
         return a.array<char>(std::size_t(1) << 30);
       }),
       3LL << 30},
  };
  for (const Case& c : cases) {
    INFO(c.what);
    REQUIRE_FALSE(c.plan.ok());
    REQUIRE(c.plan.error != nullptr);
    REQUIRE(c.plan.error_value == c.value);
    const std::string message = smemtile::plan_error(c.plan);
    REQUIRE(message.find("invalid shared memory carving") != std::string::npos);
    REQUIRE(message.find(std::to_string(c.value)) != std::string::npos);
  }
  REQUIRE(smemtile::plan_error(guide_plan).empty());
}

TEST_CASE("a carved RuntimeTile indexes like T[rows][cols + pad]") {
  const int rows = 5, cols = 7, pad = 2;
  alignas(1024) static int memory[64];
  Arena arena = Arena::over(memory, sizeof memory);
  (void)arena.array<char>(1);  // the tile is not at the base: it starts at the next int
  smemtile::RuntimeTile<int> tile = arena.tile<int>(rows, cols, pad);
  REQUIRE(tile.data() == memory + 1);
  REQUIRE(arena.used() == sizeof(int) * (1 + rows * (cols + pad)));
  REQUIRE(tile.rows() == rows);
  REQUIRE(tile.cols() == cols);
  REQUIRE(tile.size() == rows * cols);
  int (*raw)[cols + pad] = reinterpret_cast<int (*)[cols + pad]>(memory + 1);
  for (int r = 0; r < rows; ++r)
    for (int c = 0; c < cols; ++c) {
      tile(r, c) = 100 * r + c;
      REQUIRE(&tile(r, c) == &raw[r][c]);
    }
  for (unsigned k = 0; k < static_cast<unsigned>(rows * cols); ++k) {
    REQUIRE(tile.row_major(k) == raw[k / cols][k % cols]);
    REQUIRE(tile.col_major(k) == raw[k % rows][k / rows]);
  }
  auto transposed = tile.transposed();
  REQUIRE(transposed.rows() == cols);
  REQUIRE(&transposed(3, 4) == &raw[4][3]);

  const smemtile::RuntimeTile<int> wrapped = smemtile::make_runtime_tile(memory + 1, rows, cols, pad);
  REQUIRE(&wrapped(4, 6) == &raw[4][6]);
  REQUIRE(smemtile::tile_shape_error(rows, cols, pad) == nullptr);
}

TEST_CASE("launch limits: the request must fit the device's opt-in limit, static memory included") {
  const std::size_t h100_optin = 227 * 1024;  // cudaDevAttrMaxSharedMemoryPerBlockOptin on an H100
  REQUIRE(smemtile::shared_memory_limit_error(h100_optin, 0, h100_optin, 0).empty());
  REQUIRE(smemtile::shared_memory_limit_error(h100_optin - 1024, 1024, h100_optin, 0).empty());
  REQUIRE(smemtile::shared_memory_limit_error(48 * 1024, 0, h100_optin, 0).empty());
  const std::string over = smemtile::shared_memory_limit_error(h100_optin - 1023, 1024, h100_optin, 3);
  INFO(over);
  REQUIRE(over.find(std::to_string(h100_optin - 1023) + " bytes of dynamic") != std::string::npos);
  REQUIRE(over.find("1024 static") != std::string::npos);
  REQUIRE(over.find("device 3 allows at most " + std::to_string(h100_optin)) != std::string::npos);
}

namespace {
// A layout that, like a swizzled one, needs its first element at a 128-byte boundary.
struct LineAlignedLayout {
  static constexpr bool is_static = true;
  static constexpr int base_alignment = 128;
  static constexpr int rows() { return 4; }
  static constexpr int cols() { return 8; }
  static constexpr int storage_size() { return 32; }
  static constexpr int offset(int row, int col) { return row * 8 + col; }
};
}  // namespace

TEST_CASE("tiles over any layout: the layout's base alignment is honoured, bad layouts reported") {
  auto carve = [](Arena& arena) {
    (void)arena.array<char>(1);
    auto padded = arena.tile<float>(smemtile::PaddedLayout<4, 8, 1>{});
    auto line = arena.tile<short>(LineAlignedLayout{});
    struct {
      decltype(padded) p;
      decltype(line) l;
    } r{padded, line};
    return r;
  };
  const SharedMemoryPlan plan = smemtile::plan_shared_memory(carve);
  REQUIRE(plan.ok());
  REQUIRE(plan.base_alignment == 128);
  // char at 0; float[4][8 + 1] at 4..148; the line-aligned short tile at 256..320.
  REQUIRE(plan.carved_bytes == 256 + 32 * sizeof(short));
  alignas(1024) static unsigned char memory[1024];
  Arena arena = Arena::over(memory, sizeof memory);
  const auto r = carve(arena);
  REQUIRE(reinterpret_cast<unsigned char*>(r.p.data()) - memory == 4);
  REQUIRE(reinterpret_cast<unsigned char*>(r.l.data()) - memory == 256);
  REQUIRE(&r.p(3, 7) == reinterpret_cast<float*>(memory + 4) + 3 * 9 + 7);

  const SharedMemoryPlan bad = smemtile::plan_shared_memory(
      [](Arena& a) { return a.tile<int>(smemtile::RuntimePaddedLayout{-2, 4, 0}); });
  REQUIRE_FALSE(bad.ok());
  REQUIRE(bad.error_value == -8);
}
