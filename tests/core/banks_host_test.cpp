// Host tests of the bank model (banks.cuh), the swizzled layout and automatic padding: plain C++.
#include <smemtile/core/conflict_free_tiles.cuh>

#include <algorithm>
#include <map>
#include <numeric>
#include <random>
#include <set>

#include "catch.hpp"

using namespace smemtile;

namespace {

// A second, deliberately naive implementation of the documented rule (std::set per bank), to
// cross-check the constexpr model on many accesses. Phase sizes come from the rules under test.
BankCost reference_cost(const WarpAccess& access, const BankRules& rules) {
  const int phase = phase_lanes(access, rules);
  BankCost cost{0, 0, 0, access.active_mask ? 1 : 0};
  for (int first = 0; first < 32; first += phase) {
    std::map<unsigned, std::set<unsigned>> words_of_bank;
    for (int lane = first; lane < first + phase; ++lane) {
      if (!((access.active_mask >> lane) & 1u)) continue;
      const unsigned begin = access.byte_address[lane];
      for (unsigned byte = begin; byte < begin + unsigned(access.width_bytes); ++byte)
        words_of_bank[(byte / 4) % 32].insert(byte / 4);
    }
    std::size_t worst = 0;
    for (const auto& bank : words_of_bank) worst = std::max(worst, bank.second.size());
    cost.wavefronts += int(worst);
    cost.ideal_wavefronts += worst > 0 ? 1 : 0;
  }
  cost.conflicts = cost.wavefronts - cost.ideal_wavefronts;
  return cost;
}

constexpr WarpAccess strided_words(int width_bytes, unsigned stride_elems, AccessOp op = AccessOp::load) {
  WarpAccess access{{}, 0xffffffffu, width_bytes, op};
  for (int lane = 0; lane < 32; ++lane) access.byte_address[lane] = unsigned(lane) * stride_elems * unsigned(width_bytes);
  return access;
}

}  // namespace

// ---- the seeds' kernels -------------------------------------------------------------------------

TEST_CASE("seed setColReadCol on a 32x32 int tile: 32-way, 992 conflicts over 32 loads") {
  constexpr auto cost = block_cost(PaddedLayout<32, 32, 0>{}, 4, BlockShape{32, 32}, BlockMapping::swapped_coord);
  static_assert(cost.requests == 32 && cost.wavefronts == 32 * 32 && cost.conflicts == 992, "DESIGN.md's H100 number");
  constexpr auto first_warp = bank_cost(block_access(PaddedLayout<32, 32, 0>{}, 4, BlockShape{32, 32},
                                                     BlockMapping::swapped_coord));
  STATIC_REQUIRE(first_warp.degree() == 32);
  // Writing rows (setRowReadRow) of the same tile is conflict-free.
  STATIC_REQUIRE(block_cost(PaddedLayout<32, 32, 0>{}, 4, BlockShape{32, 32}, BlockMapping::thread_coord,
                            AccessOp::store).conflicts == 0);
}

TEST_CASE("seed setRowReadColPad on 32x32 int: padding 1 removes every conflict") {
  STATIC_REQUIRE(block_cost(PaddedLayout<32, 32, 1>{}, 4, BlockShape{32, 32}, BlockMapping::transposed_rank).conflicts == 0);
  STATIC_REQUIRE(block_cost(PaddedLayout<32, 32, 0>{}, 4, BlockShape{32, 32}, BlockMapping::transposed_rank).conflicts ==
                 992);
}

TEST_CASE("seed rectangular 16x32 int tile read by column: 16-way, IPAD 1 gives 2-way, IPAD 2 none") {
  const BlockShape block{32, 16};
  constexpr auto none = bank_cost(block_access(PaddedLayout<16, 32, 0>{}, 4, BlockShape{32, 16}, BlockMapping::transposed_rank));
  constexpr auto pad1 = bank_cost(block_access(PaddedLayout<16, 32, 1>{}, 4, BlockShape{32, 16}, BlockMapping::transposed_rank));
  constexpr auto pad2 = bank_cost(block_access(PaddedLayout<16, 32, 2>{}, 4, BlockShape{32, 16}, BlockMapping::transposed_rank));
  STATIC_REQUIRE(none.degree() == 16);
  STATIC_REQUIRE(pad1.degree() == 2);
  STATIC_REQUIRE(pad2.degree() == 1);
  CHECK(block_cost(PaddedLayout<16, 32, 0>{}, 4, block, BlockMapping::transposed_rank).conflicts == 16 * 15);
  CHECK(block_cost(PaddedLayout<16, 32, 1>{}, 4, block, BlockMapping::transposed_rank).conflicts == 16 * 1);
  // setColReadCol on tile[32][16] (tile(tx, ty) with a 32x16 block): 16-way as well.
  CHECK(bank_cost(block_access(PaddedLayout<32, 16, 0>{}, 4, block, BlockMapping::swapped_coord)).degree() == 16);
}

TEST_CASE("the seeds' transposed-rank mapping is the column traversal of the tile") {
  const PaddedLayout<16, 32, 0> layout{};
  for (int warp = 0; warp < 16; ++warp) {
    const auto a = block_access(layout, 4, BlockShape{32, 16}, BlockMapping::transposed_rank, warp);
    const auto b = traversal_access(layout, 4, Traversal::column, warp);
    REQUIRE(a.active_mask == b.active_mask);
    for (int lane = 0; lane < 32; ++lane) REQUIRE(a.byte_address[lane] == b.byte_address[lane]);
  }
}

// ---- the rule itself ----------------------------------------------------------------------------

TEST_CASE("4-byte strided access: the conflict degree is gcd(stride, 32)") {
  for (unsigned stride = 1; stride <= 64; ++stride) {
    INFO("stride " << stride);
    const auto cost = bank_cost(strided_words(4, stride));
    REQUIRE(cost.ideal_wavefronts == 1);
    REQUIRE(cost.wavefronts == int(std::gcd(stride, 32u)));
  }
}

TEST_CASE("8- and 16-byte strided access: half-warps and quarter-warps are served separately") {
  for (unsigned stride = 1; stride <= 32; ++stride) {
    INFO("stride " << stride);
    const auto eight = bank_cost(strided_words(8, stride));
    REQUIRE(eight.ideal_wavefronts == 2);
    REQUIRE(eight.wavefronts == 2 * int(std::gcd(stride, 16u)));
    const auto sixteen = bank_cost(strided_words(16, stride));
    REQUIRE(sixteen.ideal_wavefronts == 4);
    REQUIRE(sixteen.wavefronts == 4 * int(std::gcd(stride, 8u)));
  }
}

TEST_CASE("bytes of one word never conflict and a word read by many lanes is broadcast") {
  STATIC_REQUIRE(bank_cost(strided_words(1, 1)).wavefronts == 1);  // 32 chars in 8 words
  STATIC_REQUIRE(bank_cost(strided_words(2, 1)).wavefronts == 1);  // 32 shorts in 16 words
  STATIC_REQUIRE(bank_cost(strided_words(4, 0)).wavefronts == 1);  // everyone reads word 0
  // Two words of bank 0 (0 and 32), each read by 16 lanes: 2 wavefronts, not 32.
  WarpAccess two_words{{}, 0xffffffffu, 4, AccessOp::load};
  for (int lane = 0; lane < 32; ++lane) two_words.byte_address[lane] = (lane % 2) * 128u;
  CHECK(bank_cost(two_words).wavefronts == 2);
  CHECK(lane_conflict_degree(two_words, 5) == 2);
}

TEST_CASE("inactive lanes cost nothing") {
  WarpAccess access = strided_words(4, 32);  // 32-way when all are active
  access.active_mask = 0x0000000fu;
  CHECK(bank_cost(access).wavefronts == 4);
  access.active_mask = 0;
  const auto none = bank_cost(access);
  CHECK((none.wavefronts == 0 && none.ideal_wavefronts == 0 && none.requests == 0));
  // A 16-byte access with one quarter-warp active needs one wavefront, not four.
  WarpAccess quarter = strided_words(16, 1);
  quarter.active_mask = 0x0000ff00u;
  CHECK(bank_cost(quarter).wavefronts == 1);
  CHECK(bank_cost(quarter).ideal_wavefronts == 1);
}

TEST_CASE("uniform lane pairs merge phases of 8- and 16-byte loads only when the rules say so") {
  WarpAccess pairs{{}, 0xffffffffu, 16, AccessOp::load};
  for (int lane = 0; lane < 32; ++lane) pairs.byte_address[lane] = unsigned(lane / 2) * 16u;
  const BankRules no_merge{{32, 32, 32, 16, 8}, false, false};
  CHECK(bank_cost(pairs, no_merge).wavefronts == 4);
  const BankRules merge{{32, 32, 32, 16, 8}, true, true};
  CHECK(bank_cost(pairs, merge).wavefronts == 2);
  CHECK(phase_lanes(pairs, merge) == 16);
  pairs.byte_address[7] += 16;  // one lane breaks the pairing
  CHECK(phase_lanes(pairs, merge) == 8);
}

TEST_CASE("the constexpr model agrees with a naive reference on random accesses") {
  std::mt19937 engine(12345);  // fixed: the property is deterministic, the sample just needs variety
  const int widths[] = {1, 2, 4, 8, 16};
  const BankRules rule_sets[] = {hardware_bank_rules(), BankRules{{32, 32, 32, 16, 8}, false, false},
                                 BankRules{{32, 32, 32, 32, 16}, true, true}};
  for (int trial = 0; trial < 3000; ++trial) {
    const int width = widths[trial % 5];
    // Small address ranges force collisions, broadcasts and conflicts.
    const unsigned range_units = 1u + engine() % 96u;
    WarpAccess access{{}, trial % 7 == 0 ? unsigned(engine()) : 0xffffffffu, width,
                      trial % 2 ? AccessOp::load : AccessOp::store};
    for (int lane = 0; lane < 32; ++lane) access.byte_address[lane] = (engine() % range_units) * unsigned(width);
    if (trial % 11 == 0)
      for (int lane = 1; lane < 32; lane += 2) access.byte_address[lane] = access.byte_address[lane - 1];
    for (const auto& rules : rule_sets) {
      const auto model = bank_cost(access, rules);
      const auto reference = reference_cost(access, rules);
      INFO("trial " << trial << " width " << width);
      REQUIRE(model.wavefronts == reference.wavefronts);
      REQUIRE(model.ideal_wavefronts == reference.ideal_wavefronts);
      REQUIRE(model.conflicts == reference.conflicts);
    }
  }
}

TEST_CASE("row traversal across short rows: the second half of the warp lands on the first's banks") {
  // A 32x16 int tile: one warp reads two rows. Padding shifts the second row onto the first's banks.
  CHECK(bank_cost(traversal_access(PaddedLayout<32, 16, 0>{}, 4, Traversal::row)).conflicts == 0);
  CHECK(bank_cost(traversal_access(PaddedLayout<32, 16, 1>{}, 4, Traversal::row)).conflicts == 1);
  CHECK(smallest_conflict_free_pad(4, 32, 16) == -1);
}

// ---- automatic padding --------------------------------------------------------------------------

template <class T, int Rows, int Cols>
constexpr bool auto_padded_is_conflict_free() {
  using Layout = typename AutoPaddedTile<T, Rows, Cols>::layout_type;
  constexpr int bytes = int(sizeof(T));
  return traversal_cost(Layout{}, bytes, Traversal::row).conflicts == 0 &&
         traversal_cost(Layout{}, bytes, Traversal::column).conflicts == 0 &&
         traversal_cost(Layout{}, bytes, Traversal::row, AccessOp::store).conflicts == 0 &&
         traversal_cost(Layout{}, bytes, Traversal::column, AccessOp::store).conflicts == 0;
}

struct alignas(16) Vec16 {
  unsigned x, y, z, w;
};

static_assert(auto_padded_is_conflict_free<unsigned char, 32, 32>(), "1-byte 32x32");
static_assert(auto_padded_is_conflict_free<unsigned short, 16, 32>(), "2-byte 16x32");
static_assert(auto_padded_is_conflict_free<int, 32, 32>(), "4-byte 32x32");
static_assert(auto_padded_is_conflict_free<int, 16, 32>(), "4-byte 16x32");
static_assert(auto_padded_is_conflict_free<int, 8, 64>(), "4-byte 8x64");
static_assert(auto_padded_is_conflict_free<double, 32, 32>(), "8-byte 32x32");
static_assert(auto_padded_is_conflict_free<double, 32, 16>(), "8-byte 32x16");
static_assert(auto_padded_is_conflict_free<Vec16, 32, 32>(), "16-byte 32x32");
static_assert(auto_padded_is_conflict_free<Vec16, 64, 8>(), "16-byte 64x8");
static_assert(auto_pad_v<int, 32, 32> == 1, "the seeds' IPAD for 32x32 int");
static_assert(auto_pad_v<int, 16, 32> == 2, "the seeds' IPAD for the rectangular tile");
static_assert(sizeof(AutoPaddedTile<int, 16, 32>) == 16 * 34 * sizeof(int), "a tile is exactly its storage");

TEST_CASE("auto_pad is the smallest conflict-free pad: every smaller pad conflicts") {
  const int widths[] = {1, 2, 4, 8, 16};
  const int shapes[][2] = {{32, 32}, {16, 32}, {32, 16}, {8, 64}, {64, 8}, {24, 40}, {1, 32}, {32, 1}};
  for (int width : widths)
    for (const auto& shape : shapes) {
      const int pad = smallest_conflict_free_pad(width, shape[0], shape[1]);
      INFO(width << "-byte " << shape[0] << "x" << shape[1] << " pad " << pad);
      const int searched = pad < 0 ? 128 / width : pad;
      for (int smaller = 0; smaller < searched; ++smaller) {
        const RuntimePaddedLayout layout{shape[0], shape[1], smaller};
        REQUIRE(traversal_cost(layout, width, Traversal::row).conflicts +
                    traversal_cost(layout, width, Traversal::column).conflicts >
                0);
      }
      if (pad >= 0) {
        const RuntimePaddedLayout layout{shape[0], shape[1], pad};
        REQUIRE(traversal_cost(layout, width, Traversal::row).conflicts == 0);
        REQUIRE(traversal_cost(layout, width, Traversal::column).conflicts == 0);
      }
    }
}

// ---- the swizzled layout ------------------------------------------------------------------------

template <int Rows, int Cols, int Bytes>
constexpr bool swizzled_is_conflict_free() {
  using Layout = SwizzledLayout<Rows, Cols, Bytes>;
  return traversal_cost(Layout{}, Bytes, Traversal::row).conflicts == 0 &&
         traversal_cost(Layout{}, Bytes, Traversal::column).conflicts == 0 &&
         traversal_cost(Layout{}, Bytes, Traversal::column, AccessOp::store).conflicts == 0;
}

static_assert(swizzled_is_conflict_free<32, 32, 4>(), "4-byte 32x32");
static_assert(swizzled_is_conflict_free<16, 32, 4>(), "4-byte 16x32");
static_assert(swizzled_is_conflict_free<8, 64, 4>(), "4-byte 8x64");
static_assert(swizzled_is_conflict_free<64, 32, 4>(), "4-byte 64x32");
static_assert(swizzled_is_conflict_free<32, 32, 8>(), "8-byte 32x32");
static_assert(swizzled_is_conflict_free<8, 16, 8>(), "8-byte 8x16");
static_assert(swizzled_is_conflict_free<48, 16, 8>(), "8-byte 48x16");
static_assert(swizzled_is_conflict_free<32, 32, 16>(), "16-byte 32x32");
static_assert(swizzled_is_conflict_free<4, 8, 16>(), "16-byte 4x8");
static_assert(swizzled_is_conflict_free<24, 16, 16>(), "16-byte 24x16");
static_assert(alignof(SwizzledTile<float, 32, 32>) == 128, "bank 0 must start the tile");
static_assert(sizeof(SwizzledTile<double, 32, 32>) == 32 * 32 * sizeof(double), "no padding");

template <int Rows, int Cols, int Bytes>
void require_bijection() {
  using Layout = SwizzledLayout<Rows, Cols, Bytes>;
  std::vector<int> hits(Layout::storage_size(), 0);
  for (int r = 0; r < Rows; ++r)
    for (int c = 0; c < Cols; ++c) {
      const int offset = Layout::offset(r, c);
      REQUIRE(offset >= 0);
      REQUIRE(offset < Layout::storage_size());
      ++hits[offset];
      // The swizzle only moves elements inside their own 128-byte line of their own row.
      REQUIRE(offset / (128 / Bytes) == (r * Cols + c) / (128 / Bytes));
    }
  REQUIRE(std::all_of(hits.begin(), hits.end(), [](int h) { return h == 1; }));
}

TEST_CASE("the swizzled layout places every element in its own slot, within its row's line") {
  require_bijection<32, 32, 4>();
  require_bijection<8, 64, 4>();
  require_bijection<1, 32, 4>();
  require_bijection<32, 32, 8>();
  require_bijection<48, 16, 8>();
  require_bijection<32, 32, 16>();
  require_bijection<2, 8, 16>();
}

TEST_CASE("without the swizzle the same tiles conflict (the swizzle is doing the work)") {
  CHECK(traversal_cost(PaddedLayout<32, 32, 0>{}, 4, Traversal::column).conflicts > 0);
  CHECK(traversal_cost(PaddedLayout<32, 32, 0>{}, 8, Traversal::column).conflicts > 0);
  CHECK(traversal_cost(PaddedLayout<32, 32, 0>{}, 16, Traversal::column).conflicts > 0);
  CHECK(traversal_cost(transposed_layout(SwizzledLayout<32, 32, 4>{}), 4, Traversal::row).conflicts == 0);
}

TEST_CASE("2D blocks with blockDim.x != 32: warps come from the linear thread id") {
  // Block (16, 64) over a 64x16 int tile, tile(ty, tx): each warp is two 16-thread rows.
  const BlockShape block{16, 64};
  const auto access = block_access(PaddedLayout<64, 16, 0>{}, 4, block, BlockMapping::thread_coord, 3);
  for (int lane = 0; lane < 32; ++lane) {
    const int rank = 3 * 32 + lane, tx = rank % 16, ty = rank / 16;
    REQUIRE(access.byte_address[lane] == unsigned((ty * 16 + tx) * 4));
  }
  CHECK(bank_cost(access).conflicts == 0);
  // One element of padding moves the warp's second row onto bank 0 of its first: 2-way.
  CHECK(bank_cost(block_access(PaddedLayout<64, 16, 1>{}, 4, block, BlockMapping::thread_coord, 3)).degree() == 2);
  // A block of 48 threads: its second warp has 16 active lanes only.
  const auto partial = block_access(PaddedLayout<64, 16, 0>{}, 4, BlockShape{16, 3}, BlockMapping::thread_coord, 1);
  CHECK(partial.active_mask == 0x0000ffffu);
}
