// Host tests for the stencil capability, compiled by the C++ compiler (no nvcc):
//  - HaloLayout (core/halo_layout.cuh) for 2D and rank-1 shapes: offsets against the documented
//    formula, contains() exactly on the interior widened by the halo, reach(), row_stride(),
//    storage_size(), and every interior and halo position owning its own storage slot inside the
//    storage; StaticHaloTile / StaticHaloTile1D accessors reach the halo at those slots;
//  - stencil_offset_allowed and stencil_points (block/stencil.cuh) for star and box, radii 1..4,
//    ranks 1..3, against an enumeration of the offsets;
//  - the stencil policies and their selector (device/tuning/stencil_policy.cuh): halo columns, ring
//    slots, the rings' shared memory, compute schemes, which policies a GPU tries, the planes a 3D
//    periodic TMA sweep takes (stencil_plane_offsets_fit), a caller's policy;
//  - stencil_argument_error (device/stencil.cuh): which argument sets device_stencil refuses and why;
//  - the index policies' map_index (core/boundary.cuh) within Radius of both edges of small arrays.
#include <smemtile/smemtile.cuh>

#include <algorithm>
#include <climits>
#include <random>
#include <set>
#include <utility>
#include <string>
#include <vector>

#include "catch.hpp"

using smemtile::HaloLayout;
using smemtile::StencilShape;

namespace {

bool contains_message(const char* error, const char* part) {
  return error != nullptr && std::string(error).find(part) != std::string::npos;
}

// ---- HaloLayout -------------------------------------------------------------------------------------

template <int R, int C, int HR, int HC, int P = 0, int K = 2>
void check_halo_layout() {
  using Layout = HaloLayout<R, C, HR, HC, P, K>;
  constexpr Layout layout{};
  INFO("HaloLayout<" << R << ", " << C << ", " << HR << ", " << HC << ", " << P << ", " << K << ">");
  static_assert(Layout::is_static && Layout::rank == K, "static, of the given rank");
  static_assert(Layout::rows() == R && Layout::cols() == C, "interior shape");
  static_assert(Layout::reach().row == HR && Layout::reach().col == HC, "reach is the halo");
  static_assert(smemtile::layout_reach(layout).row == HR && smemtile::layout_reach(layout).col == HC, "layout_reach");
  static_assert(Layout::row_stride() == C + 2 * HC + P, "row stride: interior, halo on both sides, pad");
  static_assert(Layout::storage_size() == (R + 2 * HR) * (C + 2 * HC + P), "storage: every storage row");
  static_assert(Layout::offset(-HR, -HC) == 0, "the first halo element is the first storage element");
  static_assert(Layout::offset(0, 0) == HR * (C + 2 * HC + P) + HC, "the interior's (0, 0)");

  std::set<int> slots;
  int out_of_storage = 0, wrong_offset = 0, wrong_contains = 0, free_contains = 0, contained = 0;
  for (int r = -HR - 3; r < R + HR + 3; ++r) {
    for (int c = -HC - 3; c < C + HC + 3; ++c) {
      const bool expected = r >= -HR && r < R + HR && c >= -HC && c < C + HC;
      if (layout.contains(r, c) != expected) ++wrong_contains;
      if (smemtile::layout_contains(layout, r, c) != expected) ++free_contains;
      if (!expected) continue;
      ++contained;
      const int offset = layout.offset(r, c);
      if (offset != (r + HR) * (C + 2 * HC + P) + c + HC) ++wrong_offset;
      if (offset < 0 || offset >= layout.storage_size()) ++out_of_storage;
      slots.insert(offset);
    }
  }
  CHECK(wrong_contains == 0);
  CHECK(free_contains == 0);
  CHECK(wrong_offset == 0);
  CHECK(out_of_storage == 0);
  CHECK(contained == (R + 2 * HR) * (C + 2 * HC));
  CHECK(static_cast<int>(slots.size()) == contained);  // distinct slots
}

TEST_CASE("HaloLayout: offsets contains reach and storage of 2D shapes with distinct slots") {
  check_halo_layout<8, 32, 2, 4>();
  check_halo_layout<1, 1, 1, 1>();
  check_halo_layout<4, 5, 1, 1>();
  check_halo_layout<3, 7, 0, 2>();
  check_halo_layout<2, 3, 3, 0, 1>();
  check_halo_layout<5, 9, 4, 4, 3>();
  check_halo_layout<16, 32, 4, 4>();
  check_halo_layout<32, 64, 3, 4>();
  check_halo_layout<8, 32, 4, 4>();
  check_halo_layout<7, 1, 2, 6, 2>();
}

TEST_CASE("HaloLayout: rank-1 shapes with halo columns only") {
  check_halo_layout<1, 2048, 0, 4, 0, 1>();
  check_halo_layout<1, 2048, 0, 16, 0, 1>();
  check_halo_layout<1, 5, 0, 3, 0, 1>();
  check_halo_layout<1, 1, 0, 1, 0, 1>();
  check_halo_layout<1, 3, 0, 7, 0, 1>();
  check_halo_layout<1, 1, 0, 0, 0, 1>();
}

TEST_CASE("halo_frame_outside: exactly the cells outside the array within radius of a point computed, clamp and reflect sources in the tile") {
  std::mt19937 rng(20261127);
  int checked = 0, nonempty = 0;
  for (int trial = 0; trial < 4000; ++trial) {
    const int radius = 1 + static_cast<int>(rng() % 4);
    const int rows = 1 + static_cast<int>(rng() % (trial % 3 == 0 ? 4 : 70));
    const int cols = 1 + static_cast<int>(rng() % (trial % 5 == 0 ? 4 : 300));
    const smemtile::Coord interior{1 + static_cast<int>(rng() % 34), 1 + static_cast<int>(rng() % 260)};
    const smemtile::Coord origin{static_cast<int>(rng() % rows), static_cast<int>(rng() % cols)};
    const bool whole = rng() % 8 == 0;
    const smemtile::HaloFrameOutside f = smemtile::halo_frame_outside(origin, interior, radius, rows, cols, whole);
    // Brute force: positions within radius (Chebyshev) of an interior point inside the array.
    std::set<std::pair<int, int>> expected;
    const int row_end = std::min(interior.row, rows - origin.row), col_end = std::min(interior.col, cols - origin.col);
    for (int r = -radius; r < row_end + radius; ++r)
      for (int c = -radius; c < col_end + radius; ++c) {
        const int gr = origin.row + r, gc = origin.col + c;
        if (whole || gr < 0 || gr >= rows || gc < 0 || gc >= cols) expected.insert({r, c});
      }
    std::set<std::pair<int, int>> got;
    for (int k = 0; k < f.cells(); ++k) {
      const smemtile::Coord at = f.cell(k);
      REQUIRE(got.insert({at.row, at.col}).second);  // each cell once
    }
    REQUIRE(got == expected);
    // Clamp and reflect read a cell of the tile's own widened region (device_stencil's EdgeCells
    // copies it from shared memory), inside the array.
    const auto held = [&](auto policy) {
      for (const auto& cell : got) {
        const smemtile::Coord from =
            smemtile::boundary_source<decltype(policy)>({origin.row + cell.first, origin.col + cell.second}, rows, cols);
        const smemtile::Coord local = from - origin;
        if (from.row < 0 || from.row >= rows || from.col < 0 || from.col >= cols) return false;
        if (local.row < -radius || local.row >= interior.row + radius || local.col < -radius ||
            local.col >= interior.col + radius)
          return false;
      }
      return true;
    };
    REQUIRE(held(smemtile::boundary::Clamp{}));
    REQUIRE(held(smemtile::boundary::Reflect{}));
    // Edge-proportional: never more than the widened region's perimeter band (unless whole).
    if (!whole) REQUIRE(f.cells() <= 2 * radius * (interior.col + 2 * radius) + 2 * radius * interior.row);
    nonempty += f.cells() > 0;
    ++checked;
  }
  REQUIRE(checked == 4000);
  REQUIRE(nonempty > 1000);
  // A tile well inside reads nothing outside.
  REQUIRE(smemtile::halo_frame_outside({64, 256}, {32, 256}, 1, 8192, 8192, false).cells() == 0);
  // A 512-column plane's right tile: one column outside on each of its 34 rows read.
  REQUIRE(smemtile::halo_frame_outside({32, 256}, {32, 256}, 1, 512, 512, false).cells() == 34);
}

TEST_CASE("StaticHaloTile accessors reach the halo at the layout's slots") {
  smemtile::StaticHaloTile<int, 4, 5, 1, 2> t{};
  using Layout = HaloLayout<4, 5, 1, 2>;
  static_assert(sizeof(t) == sizeof(int) * Layout::storage_size(), "sizeof is the storage");
  CHECK(t.rows() == 4);
  CHECK(t.cols() == 5);
  for (int k = 0; k < Layout::storage_size(); ++k) t.data()[k] = -1;
  for (int r = -1; r < 5; ++r)
    for (int c = -2; c < 7; ++c) t(r, c) = 100 * (r + 1) + (c + 2);
  int mismatches = 0;
  for (int r = -1; r < 5; ++r)
    for (int c = -2; c < 7; ++c)
      if (t.data()[Layout::offset(r, c)] != 100 * (r + 1) + (c + 2)) ++mismatches;
  CHECK(mismatches == 0);
  for (int k = 0; k < Layout::storage_size(); ++k) CHECK(t.data()[k] != -1);  // no pad: every slot is a position

  smemtile::StaticHaloTile1D<float, 6, 3> v{};
  using Layout1 = HaloLayout<1, 6, 0, 3, 0, 1>;
  static_assert(sizeof(v) == sizeof(float) * 12, "6 + 2 * 3 elements");
  for (int i = -3; i < 9; ++i) v(i) = static_cast<float>(i);
  for (int i = -3; i < 9; ++i) {
    CHECK(v.data()[Layout1::offset(0, i)] == static_cast<float>(i));
    CHECK(v.data()[i + 3] == static_cast<float>(i));
  }
}

// ---- stencil_offset_allowed, stencil_points -----------------------------------------------------------

static_assert(smemtile::stencil_points(StencilShape::star, 1, 1) == 3, "3-point");
static_assert(smemtile::stencil_points(StencilShape::star, 1, 2) == 5, "5-point");
static_assert(smemtile::stencil_points(StencilShape::star, 1, 3) == 7, "7-point");
static_assert(smemtile::stencil_points(StencilShape::box, 1, 2) == 9, "9-point");
static_assert(smemtile::stencil_points(StencilShape::box, 1, 3) == 27, "27-point");
static_assert(smemtile::stencil_points(StencilShape::star, 4, 3) == 25, "25-point");
static_assert(smemtile::stencil_points(StencilShape::box, 4, 3) == 729, "9^3");
static_assert(smemtile::stencil_offset_allowed(StencilShape::star, 2, 0, -2, 0), "on an axis");
static_assert(!smemtile::stencil_offset_allowed(StencilShape::star, 2, 0, 1, 1), "off the axes");
static_assert(smemtile::stencil_offset_allowed(StencilShape::box, 2, -2, 1, 2), "in the box");
static_assert(!smemtile::stencil_offset_allowed(StencilShape::box, 2, 0, 0, 3), "beyond the radius");

TEST_CASE("stencil_offset_allowed and stencil_points for star and box of radii 1 to 4 and ranks 1 to 3") {
  for (const StencilShape shape : {StencilShape::star, StencilShape::box}) {
    for (int radius = 1; radius <= 4; ++radius) {
      for (int rank = 1; rank <= 3; ++rank) {
        const bool star = shape == StencilShape::star;
        INFO((star ? "star" : "box") << " radius " << radius << " rank " << rank);
        const int reach = radius + 3;  // look beyond the radius too
        const int zr = rank >= 3 ? reach : 0, yr = rank >= 2 ? reach : 0;
        int allowed = 0, wrong = 0;
        for (int dz = -zr; dz <= zr; ++dz)
          for (int dy = -yr; dy <= yr; ++dy)
            for (int dx = -reach; dx <= reach; ++dx) {
              const int az = dz < 0 ? -dz : dz, ay = dy < 0 ? -dy : dy, ax = dx < 0 ? -dx : dx;
              const bool within = az <= radius && ay <= radius && ax <= radius;
              const int off_axes = (dz != 0) + (dy != 0) + (dx != 0);
              const bool expected = within && (!star || off_axes <= 1);
              const bool got = smemtile::stencil_offset_allowed(shape, radius, dz, dy, dx);
              if (got != expected) ++wrong;
              if (got) ++allowed;
            }
        CHECK(wrong == 0);
        CHECK(allowed == smemtile::stencil_points(shape, radius, rank));
        int expected_points = 1;
        if (star) {
          expected_points = 2 * rank * radius + 1;
        } else {
          for (int d = 0; d < rank; ++d) expected_points *= 2 * radius + 1;
        }
        CHECK(smemtile::stencil_points(shape, radius, rank) == expected_points);
      }
    }
  }
}

// ---- stencil policies (device/tuning/stencil_policy.cuh) ---------------------------------------------

using smemtile::StencilChoice;
using smemtile::StencilCompute;
using smemtile::StencilLoader;
using smemtile::StencilTarget;
using smemtile::StencilTiles;

template <int Rank, int E, int R, StencilShape S, StencilLoader L, StencilTiles Tiles = StencilTiles::standard>
using Policy = typename smemtile::DefaultStencilPolicy<Rank, E, R, S, L, Tiles>::type;

template <int E, int R, StencilTiles Tiles = StencilTiles::standard>
void check_default_policies() {
  constexpr bool large = Tiles == StencilTiles::large;
  using P2 = Policy<2, E, R, StencilShape::box, StencilLoader::tma, Tiles>;
  using P3 = Policy<3, E, R, StencilShape::box, StencilLoader::tma, Tiles>;
  using P3s = Policy<3, E, R, StencilShape::star, StencilLoader::tma, Tiles>;
  INFO("default policies for " << E << "-byte elements, radius " << R << (large ? ", large" : "") << ": halo_cols "
                               << P2::halo_cols);
  // Halo columns: Radius rounded up to whole 16-byte vectors (standard) or to TMA boxes starting on
  // a 128-byte line (large; 64 bytes for 1-byte elements, whose box would pass 256 columns).
  const int per_unit = (!large ? 16 : E == 1 ? 64 : 128) / E;
  CHECK(P2::halo_cols >= R);
  CHECK(P2::halo_cols % per_unit == 0);
  CHECK(P2::halo_cols - R < per_unit);  // the smallest such multiple
  CHECK(P3::halo_cols == P2::halo_cols);
  // Each ring slot holds one tile with its halo, 128-byte aligned (TMA writes there); the 3D ring
  // of planes fits in the shared memory of one block up to radius 4 for every element size.
  using Plane = HaloLayout<P3::rows, P3::cols, R, P3::halo_cols>;
  const long long slot = smemtile::stencil_slot_bytes<P3>(E, R);
  CHECK(slot % 128 == 0);
  CHECK(slot >= static_cast<long long>(E) * Plane::storage_size());
  CHECK(slot < static_cast<long long>(E) * Plane::storage_size() + 128);
  // Box strips (3D boxes of radius 1 on 4-byte elements) keep the values along z in registers:
  // only the newest plane is read, as in 2D.
  if (P3::compute == smemtile::StencilCompute::box_strips) CHECK(smemtile::stencil_ring_slots<P3>(R) == P3::stages + 2);
  else CHECK(smemtile::stencil_ring_slots<P3>(R) == 2 * R + 2 + P3::stages);
  CHECK(smemtile::stencil_ring_slots<P3s>(R) == R + 2 + P3s::stages);
  CHECK(smemtile::stencil_ring_slots<P2>(R) == P2::stages + 2);
  CHECK(P3s::stages >= P3::stages);  // stars keep values along z in registers: more planes load ahead
  CHECK(smemtile::stencil_shared_bytes<P2>(E, R) <= smemtile::max_shared_bytes_per_block);
  if (R <= 4) CHECK(smemtile::stencil_shared_bytes<P3>(E, R) <= smemtile::max_shared_bytes_per_block);
  if (R <= 4) CHECK(smemtile::stencil_shared_bytes<P3s>(E, R) <= smemtile::max_shared_bytes_per_block);
  // A TMA box row is at most 256 TMA elements (of tma_unit_bytes) and a multiple of 16 bytes; it
  // starts on whole TMA elements.
  CHECK(P2::tma_unit_bytes % E == 0);
  CHECK(P2::tma_unit_bytes <= 8);
  CHECK((P2::cols + 2 * P2::halo_cols) * E <= 256 * P2::tma_unit_bytes);
  CHECK((P3::cols + 2 * P3::halo_cols) * E <= 256 * P3::tma_unit_bytes);
  CHECK((P2::cols + 2 * P2::halo_cols) * E % 16 == 0);
  CHECK((P3::cols + 2 * P3::halo_cols) * E % 16 == 0);
  CHECK(P2::halo_cols * E % P2::tma_unit_bytes == 0);
  CHECK(P2::cols * E % P2::tma_unit_bytes == 0);
  CHECK(P3::cols * E % P3::tma_unit_bytes == 0);
  CHECK(smemtile::arch::tma_map_error(16, 1024, 1024, 1024, 1, E, P2::rows + 2 * R, P2::cols + 2 * P2::halo_cols,
                                      P2::tma_unit_bytes) == nullptr);
  // The invariants the policies' static_asserts state hold for the defaults.
  CHECK(smemtile::StencilPolicyCheck<P2, E, R, StencilShape::box>::ok);
  CHECK(smemtile::StencilPolicyCheck<P3, E, R, StencilShape::box>::ok);
  CHECK(smemtile::StencilPolicyCheck<P3s, E, R, StencilShape::star>::ok);
  // The cp.async policies have the same tiles (only the TMA ones may be large).
  using C2 = Policy<2, E, R, StencilShape::box, StencilLoader::cp_async>;
  if (!large) CHECK((C2::rows == P2::rows && C2::cols == P2::cols && C2::halo_cols == P2::halo_cols));
}

TEST_CASE("stencil policies: 2D large tiles of bytes are 48 rows of 512 at radius 1 (separable ops: 2), else 32, in 8-byte TMA units (16-byte strips)") {
  using B2L = Policy<2, 1, 1, StencilShape::box, StencilLoader::tma, StencilTiles::large>;
  CHECK(B2L::rows == 48);
  CHECK(Policy<2, 1, 1, StencilShape::star, StencilLoader::tma, StencilTiles::large>::rows == 48);
  CHECK(Policy<2, 1, 2, StencilShape::box, StencilLoader::tma, StencilTiles::large>::rows == 32);
  using SeparableR2 = smemtile::DefaultStencilPolicy<2, 1, 2, StencilShape::box, StencilLoader::tma, StencilTiles::large,
                                                     true>::type;
  CHECK(SeparableR2::rows == 48);  // a separable op's strips keep partials: 48 rows at radius 2 too
  CHECK(2 * smemtile::stencil_shared_bytes<SeparableR2>(1, 2) <= 227 * 1024);
  CHECK(B2L::rows % B2L::warps == 0);  // whole rows per warp for the strips
  CHECK(2 * smemtile::stencil_shared_bytes<B2L>(1, 1) <= 227 * 1024);  // two blocks per multiprocessor on sm_90
  CHECK(B2L::cols == 512);
  CHECK(B2L::tma_unit_bytes == 8);
  CHECK(smemtile::stencil_strip_points(1, B2L::cols) == 16);
  using H2L = Policy<2, 2, 1, StencilShape::star, StencilLoader::tma, StencilTiles::large>;
  CHECK((H2L::rows == 64 && H2L::cols == 128 && H2L::tma_unit_bytes == 2));
}

TEST_CASE("stencil policies: the large tiles are larger where they differ, the same where they do not") {
  using F1 = Policy<3, 4, 1, StencilShape::star, StencilLoader::tma>;
  using F1L = Policy<3, 4, 1, StencilShape::star, StencilLoader::tma, StencilTiles::large>;
  using F2 = Policy<2, 4, 1, StencilShape::star, StencilLoader::tma>;
  using F2L = Policy<2, 4, 1, StencilShape::star, StencilLoader::tma, StencilTiles::large>;
  CHECK(F2L::rows * F2L::cols > F2::rows * F2::cols);
  CHECK(F1L::rows * F1L::cols > F1::rows * F1::cols);
  // Radius 1, floats, large: the ring of 32 x 256 planes, one loading ahead (4 planes), rows loaded
  // from a 128-byte line before the tile to one after it, described to TMA in 8-byte units.
  CHECK(smemtile::stencil_ring_slots<F1L>(1) == 4);
  CHECK(smemtile::stencil_slot_bytes<F1L>(4, 1) == 34 * (256 + 64) * 4);
  CHECK(smemtile::stencil_shared_bytes<F1L>(4, 1) == 4 * smemtile::stencil_slot_bytes<F1L>(4, 1) + 128);
  CHECK(F1L::tma_unit_bytes == 8);
  CHECK(F1::tma_unit_bytes == 4);
  using F4 = Policy<3, 4, 4, StencilShape::star, StencilLoader::tma>;
  using F4L = Policy<3, 4, 4, StencilShape::star, StencilLoader::tma, StencilTiles::large>;
  CHECK(F4L::rows == F4::rows);
  CHECK(F4L::cols == F4::cols);
  CHECK(F4L::stages == F4::stages);
  CHECK(Policy<2, 4, 4, StencilShape::star, StencilLoader::tma, StencilTiles::large>::cols > Policy<2, 4, 4, StencilShape::star, StencilLoader::tma>::cols);
}

TEST_CASE("stencil policies: halo columns are whole 16-byte vectors and the rings fit in one block's shared memory") {
  check_default_policies<1, 1>();
  check_default_policies<1, 4>();
  check_default_policies<2, 1>();
  check_default_policies<2, 4>();
  check_default_policies<2, 8>();
  check_default_policies<4, 1>();
  check_default_policies<4, 3>();
  check_default_policies<4, 4>();
  check_default_policies<4, 5>();
  check_default_policies<8, 1>();
  check_default_policies<8, 2>();
  check_default_policies<8, 3>();
  check_default_policies<8, 4>();
  // The large tiles (TMA and 227 KB of shared memory per block) keep the same rules.
  check_default_policies<1, 1, StencilTiles::large>();
  check_default_policies<2, 4, StencilTiles::large>();
  check_default_policies<4, 1, StencilTiles::large>();
  check_default_policies<4, 4, StencilTiles::large>();
  check_default_policies<8, 1, StencilTiles::large>();
  check_default_policies<8, 4, StencilTiles::large>();
  static_assert(Policy<2, 4, 1, StencilShape::star, StencilLoader::tma>::halo_cols == 4, "one float4");
  static_assert(Policy<2, 8, 3, StencilShape::star, StencilLoader::tma>::halo_cols == 4, "two double2");
  static_assert(Policy<2, 1, 1, StencilShape::star, StencilLoader::tma>::halo_cols == 16, "one 16-byte vector of bytes");
  static_assert(Policy<1, 4, 1, StencilShape::star, StencilLoader::sync>::interior % 256 == 0, "16 points per thread");
}

TEST_CASE("stencil_strip_points: 16 bytes a lane where the columns allow, else the widest power of two") {
  using smemtile::stencil_strip_points;
  CHECK(stencil_strip_points(4, 128) == 4);
  CHECK(stencil_strip_points(4, 256) == 4);
  CHECK(stencil_strip_points(8, 64) == 2);
  CHECK(stencil_strip_points(1, 128) == 4);   // 128 bytes a row: 4 a lane
  CHECK(stencil_strip_points(1, 512) == 16);
  CHECK(stencil_strip_points(2, 128) == 4);
  CHECK(stencil_strip_points(2, 96) == 1);    // 3 columns a lane: single points
  CHECK(stencil_strip_points(1, 32 * 6) == 2);
  for (int e : {1, 2, 4, 8, 16})
    for (int cols = 32; cols <= 1024; cols += 32) {
      const int p = stencil_strip_points(e, cols);
      CHECK(p >= 1);
      CHECK(p * e <= 16);
      CHECK((cols / 32) % p == 0);                         // whole strips for every lane
      CHECK(((cols / 32) % (2 * p) != 0 || 2 * p * e > 16));  // the widest that does
    }
}

TEST_CASE("stencil policies: the compute scheme follows the shape and the element size") {
  // 2D: strips for stars of elements up to 4 bytes and boxes up to radius 2 (bytes on TMA tiles
  // only); doubles' stars and wider boxes take points.
  CHECK(Policy<2, 4, 1, StencilShape::star, StencilLoader::tma>::compute == StencilCompute::star_strips);
  CHECK(Policy<2, 1, 4, StencilShape::star, StencilLoader::cp_async>::compute == StencilCompute::star_strips);
  CHECK(Policy<2, 2, 1, StencilShape::star, StencilLoader::tma, StencilTiles::large>::compute ==
        StencilCompute::star_strips);
  CHECK(Policy<2, 8, 1, StencilShape::star, StencilLoader::tma>::compute == StencilCompute::points);
  CHECK(Policy<2, 4, 1, StencilShape::box, StencilLoader::tma>::compute == StencilCompute::box_strips);
  CHECK(Policy<2, 8, 2, StencilShape::box, StencilLoader::cp_async>::compute == StencilCompute::box_strips);
  CHECK(Policy<2, 1, 2, StencilShape::box, StencilLoader::tma>::compute == StencilCompute::box_strips);
  CHECK(Policy<2, 1, 1, StencilShape::box, StencilLoader::cp_async>::compute == StencilCompute::points);
  CHECK(Policy<2, 4, 4, StencilShape::box, StencilLoader::tma>::compute == StencilCompute::box_strips);
  CHECK(Policy<2, 2, 3, StencilShape::box, StencilLoader::cp_async>::compute == StencilCompute::box_strips);
  CHECK(Policy<2, 8, 3, StencilShape::box, StencilLoader::tma>::compute == StencilCompute::points);
  CHECK(Policy<2, 4, 5, StencilShape::box, StencilLoader::tma>::compute == StencilCompute::points);
  CHECK(Policy<3, 4, 1, StencilShape::star, StencilLoader::tma>::compute == StencilCompute::star_columns);
  CHECK(Policy<3, 4, 4, StencilShape::star, StencilLoader::tma>::compute == StencilCompute::star_strips);
  CHECK(Policy<3, 4, 4, StencilShape::star, StencilLoader::tma, StencilTiles::large>::compute ==
        StencilCompute::star_strips);  // radius 4: the large planes are the standard ones
  CHECK(Policy<3, 4, 1, StencilShape::star, StencilLoader::tma, StencilTiles::large>::compute ==
        StencilCompute::star_columns);
  CHECK(Policy<3, 8, 4, StencilShape::star, StencilLoader::tma>::compute == StencilCompute::star_columns);
  CHECK(Policy<3, 4, 2, StencilShape::box, StencilLoader::tma>::compute == StencilCompute::points);
  // 3D boxes of radius 1 on 4-byte elements: box strips (standard planes; the large ones take points).
  CHECK(Policy<3, 4, 1, StencilShape::box, StencilLoader::tma>::compute == StencilCompute::box_strips);
  CHECK(Policy<3, 4, 1, StencilShape::box, StencilLoader::cp_async>::compute == StencilCompute::box_strips);
  CHECK(Policy<3, 4, 1, StencilShape::box, StencilLoader::tma, StencilTiles::large>::compute == StencilCompute::points);
  CHECK(Policy<3, 8, 1, StencilShape::box, StencilLoader::tma>::compute == StencilCompute::points);
  CHECK(Policy<3, 4, 1, StencilShape::box, StencilLoader::tma>::min_blocks == 3);
  // Blocks per multiprocessor: cp.async 2; TMA by tiles, radius and shape.
  CHECK(Policy<3, 4, 4, StencilShape::star, StencilLoader::cp_async>::min_blocks == 2);
  CHECK(Policy<3, 4, 4, StencilShape::star, StencilLoader::tma>::min_blocks == 3);
  CHECK(Policy<3, 4, 4, StencilShape::box, StencilLoader::tma>::min_blocks == 2);
  CHECK(Policy<3, 4, 2, StencilShape::box, StencilLoader::tma>::min_blocks == 4);
  CHECK(Policy<3, 4, 1, StencilShape::star, StencilLoader::tma, StencilTiles::large>::min_blocks == 1);
  CHECK(Policy<3, 8, 1, StencilShape::star, StencilLoader::tma, StencilTiles::large>::min_blocks == 2);
  CHECK(Policy<3, 4, 3, StencilShape::star, StencilLoader::tma>::planes == 48);
  CHECK(Policy<3, 4, 2, StencilShape::star, StencilLoader::tma>::planes == 64);
}

namespace {
using Choices = std::vector<std::pair<StencilLoader, StencilTiles>>;
// The candidates' loaders and tiles, best first.
Choices list(const smemtile::StencilCandidates& c) {
  Choices out;
  for (int i = 0; i < c.count; ++i) out.emplace_back(c.choice[i].loader, c.choice[i].tiles);
  return out;
}
template <int Rank, int E, int R, StencilShape S>
Choices candidates(int cc_major, long long shared) {
  return list(smemtile::stencil_candidates<Rank, E, R, S>(StencilTarget{cc_major, shared}));
}
constexpr auto tma_large = std::make_pair(StencilLoader::tma, StencilTiles::large);
constexpr auto tma = std::make_pair(StencilLoader::tma, StencilTiles::standard);
constexpr auto cp_async = std::make_pair(StencilLoader::cp_async, StencilTiles::standard);
constexpr auto stream = std::make_pair(StencilLoader::stream, StencilTiles::standard);
constexpr auto sync = std::make_pair(StencilLoader::sync, StencilTiles::standard);
constexpr auto rows_large = std::make_pair(StencilLoader::tma_row_classes, StencilTiles::large);
constexpr auto rows_standard = std::make_pair(StencilLoader::tma_row_classes, StencilTiles::standard);
}  // namespace

TEST_CASE("stencil_chunk_planes: 3D chunks that fill the last wave of blocks") {
  using smemtile::stencil_chunk_planes;
  // 27-point box 384^3, 16 x 64 planes (6 x 24 tiles), 3 blocks on 132 multiprocessors: 64 planes
  // give 864 blocks, 2.2 waves of 396 (73% of the slots); 38 give 1584, 4 whole waves.
  CHECK(stencil_chunk_planes(384, 6 * 24, 3 * 132, 64, 1) == 38);
  // 7-point 512^3 on 32 x 256 planes (2 x 16 tiles), one block each: 256 blocks, 1.94 waves: kept.
  CHECK(stencil_chunk_planes(512, 2 * 16, 132, 64, 1) == 64);
  // Nothing known: the policy's planes.
  CHECK(stencil_chunk_planes(512, 0, 132, 64, 1) == 64);
  CHECK(stencil_chunk_planes(512, 32, 0, 64, 1) == 64);
  std::mt19937 rng(7);
  for (int trial = 0; trial < 2000; ++trial) {
    const long long depth = 1 + rng() % 2000, tiles = 1 + rng() % 3000, resident = 1 + rng() % 1000;
    const int planes = 1 + static_cast<int>(rng() % 96), radius = 1 + static_cast<int>(rng() % 4);
    const int b = smemtile::stencil_chunk_planes_balanced(depth, tiles, resident, planes, radius);
    REQUIRE(b <= planes);
    REQUIRE(b >= (planes + 1) / 2);
    const auto score = [&](int k) {
      const long long blocks = (depth + k - 1) / k * tiles, waves = (blocks + resident - 1) / resident;
      return static_cast<double>(blocks) / static_cast<double>(waves * resident) * k / (k + 2.0 * radius);
    };
    REQUIRE(score(b) >= score(planes) * (1 - 1e-12));
    // Below one wave, shorter equal chunks: never more blocks than a wave, never shorter than the
    // least chunk, never longer than the balanced one.
    const int c = stencil_chunk_planes(depth, tiles, resident, planes, radius);
    const auto blocks = [&](int k) { return (depth + k - 1) / k * tiles; };
    REQUIRE(c <= b);
    if (blocks(b) >= resident) REQUIRE(c == b);
    if (c < b) {
      REQUIRE(blocks(c) <= resident);
      REQUIRE(blocks(c) >= blocks(b));
      // Shorter than the least chunk only as the same chunks as the balanced ones, made equal.
      if (blocks(c) > blocks(b)) REQUIRE(c >= std::min(b, smemtile::stencil_chunk_min(planes, radius)));
    }
  }
}

TEST_CASE("stencil_chunk_planes: small volumes spread over one wave") {
  using smemtile::stencil_chunk_planes;
  // 7-point 32^3 on 16 x 64 planes (2 tiles), 4 blocks on each of 132 multiprocessors: one chunk of
  // 32 planes per tile would leave 526 of 528 slots idle; chunks of 8 (the least, 64 / 8) give 8.
  CHECK(stencil_chunk_planes(32, 2, 528, 64, 1) == 8);
  // 128^3: 16 tiles, 33 chunks each would fit a wave; 16 of the least length 8.
  CHECK(stencil_chunk_planes(128, 16, 528, 64, 1) == 8);
  // 256^3: 64 tiles, a wave holds 8 chunks each: 8 of 32 planes instead of 4 of 64.
  CHECK(stencil_chunk_planes(256, 64, 528, 64, 1) == 32);
  // Radius 4: chunks at least 2 Radius = 8 planes (64 / 8 is 8 too); radius 4 on 48 planes: 8.
  CHECK(stencil_chunk_planes(64, 4, 396, 48, 4) == 8);
  // A wave already full: the balanced choice (384^3 box above).
  CHECK(stencil_chunk_planes(384, 6 * 24, 3 * 132, 64, 1) ==
        smemtile::stencil_chunk_planes_balanced(384, 6 * 24, 3 * 132, 64, 1));
  // One tile, depth below the least chunk: one chunk, the whole depth.
  CHECK(stencil_chunk_planes(5, 1, 528, 64, 1) == 5);
}

TEST_CASE("stencil_tail_cols: float volumes whose last large plane column is at most half full") {
  using smemtile::stencil_tail_cols;
  // 32 x 256 float planes: 513 columns leave 1 to the standard planes, 640 leave 128 (half a plane).
  CHECK(stencil_tail_cols(513, 256, 4) == 1);
  CHECK(stencil_tail_cols(640, 256, 4) == 128);
  CHECK(stencil_tail_cols(1040, 256, 4) == 16);
  // More than half full, whole planes, or a single plane: one launch.
  CHECK(stencil_tail_cols(641, 256, 4) == 0);
  CHECK(stencil_tail_cols(512, 256, 4) == 0);
  CHECK(stencil_tail_cols(200, 256, 4) == 0);
  CHECK(stencil_tail_cols(256, 256, 4) == 0);
  // Doubles (32 x 128 planes) and other elements: never.
  CHECK(stencil_tail_cols(513, 128, 8) == 0);
  CHECK(stencil_tail_cols(513, 128, 2) == 0);
  CHECK(stencil_tail_cols(513, 0, 4) == 0);
  for (long long cols = 1; cols < 2000; ++cols) {
    const long long tail = stencil_tail_cols(cols, 256, 4);
    REQUIRE(tail >= 0);
    REQUIRE(tail <= 128);
    if (tail > 0) REQUIRE((cols - tail) % 256 == 0);
    if (tail > 0) REQUIRE(cols - tail >= 256);
  }
}

TEST_CASE("stencil_candidates: the single-step sweep for separable boxes of doubles") {
  const long long h100 = 227 * 1024;
  const auto sweep = std::make_pair(StencilLoader::sweep, StencilTiles::standard);
  const long long least = smemtile::stencil_sweep_single_min_points;
  const long long first = smemtile::stencil_sweep_single_first_points(1);
  using smemtile::stencil_candidates;
  // Radius-1 boxes of 8-byte elements whose op is separable, on sm_80 and later: the sweep first from
  // stencil_sweep_single_first_points points (or an unknown size), after TMA's tiles from
  // stencil_sweep_single_min_points, not below.
  CHECK(list(stencil_candidates<3, 8, 1, StencilShape::box, true>(StencilTarget{9, h100, first})) ==
        Choices{sweep, tma, cp_async});
  CHECK(list(stencil_candidates<3, 8, 1, StencilShape::box, true>(StencilTarget{9, h100})) == Choices{sweep, tma, cp_async});
  CHECK(list(stencil_candidates<3, 8, 1, StencilShape::box, true>(StencilTarget{9, h100, first - 1})) ==
        Choices{tma, sweep, cp_async});
  CHECK(list(stencil_candidates<3, 8, 1, StencilShape::box, true>(StencilTarget{9, h100, least})) ==
        Choices{tma, sweep, cp_async});
  CHECK(list(stencil_candidates<3, 8, 1, StencilShape::box, true>(StencilTarget{9, h100, least - 1})) ==
        Choices{tma, cp_async});
  CHECK(list(stencil_candidates<3, 8, 1, StencilShape::box, true>(StencilTarget{8, 163 * 1024, first})) ==
        Choices{sweep, cp_async});
  CHECK(list(stencil_candidates<3, 8, 1, StencilShape::box, true>(StencilTarget{8, 163 * 1024, least})) ==
        Choices{sweep, cp_async});
  // Radius 2: first from stencil_sweep_single_min_points.
  CHECK(smemtile::stencil_sweep_single_first_points(2) == least);
  CHECK(list(stencil_candidates<3, 8, 2, StencilShape::box, true>(StencilTarget{9, h100, least})) ==
        Choices{sweep, tma, cp_async});
  // GPUs without cp.async, other ops, element sizes, radii, shapes and ranks: no sweep.
  CHECK(list(stencil_candidates<3, 8, 1, StencilShape::box, true>(StencilTarget{7, 64 * 1024, first})) ==
        Choices{cp_async});
  CHECK(list(stencil_candidates<3, 8, 1, StencilShape::box, false>(StencilTarget{9, h100, first})) ==
        Choices{tma, cp_async});
  CHECK(list(stencil_candidates<3, 4, 1, StencilShape::box, true>(StencilTarget{9, h100, first})) ==
        Choices{tma, rows_standard, cp_async});
  CHECK(list(stencil_candidates<3, 8, 3, StencilShape::box, true>(StencilTarget{9, h100, first})) ==
        Choices{tma, cp_async});
  CHECK(list(stencil_candidates<3, 8, 1, StencilShape::star, true>(StencilTarget{9, h100, first}))[0] != sweep);
  CHECK(list(stencil_candidates<2, 8, 1, StencilShape::box, true>(StencilTarget{9, h100, first}))[0] != sweep);
  STATIC_REQUIRE(smemtile::stencil_sweep_single_selected(3, 8, 1, StencilShape::box, true));
  STATIC_REQUIRE_FALSE(smemtile::stencil_sweep_single_selected(3, 8, 1, StencilShape::box, false));
  // The forced sweep's policy is DefaultStencilSweepPolicy's single_type (one home for its shape): one level.
  using Single = smemtile::DefaultStencilPolicy<3, 8, 1, StencilShape::box, StencilLoader::sweep, StencilTiles::standard,
                                                true>::type;
  STATIC_REQUIRE(std::is_same<Single, smemtile::DefaultStencilSweepPolicy<8, 1, StencilShape::box, true>::single_type>::value);
  STATIC_REQUIRE(Single::depth == 1);
  STATIC_REQUIRE(smemtile::IsStencilPolicy<Single>::value);
  STATIC_REQUIRE(smemtile::IsStencilPolicy<smemtile::DefaultStencilSweepPolicy<8, 1, StencilShape::box, true>::type>::value);
}

TEST_CASE("stencil_candidates: the policies tried for a GPU, best first") {
  const long long h100 = 227 * 1024, ada = 99 * 1024;
  // sm_90 with 227 KB: the large TMA tiles, then the standard TMA tiles, then (2D, where selected)
  // TMA by row classes and the stream, then cp.async.
  CHECK(candidates<2, 4, 1, StencilShape::star>(9, h100) == Choices{tma_large, tma, rows_large, stream, cp_async});
  CHECK(candidates<2, 8, 4, StencilShape::box>(9, h100) == Choices{tma_large, tma, cp_async});  // row classes: radius 1
  CHECK(candidates<3, 4, 1, StencilShape::star>(9, h100) == Choices{tma_large, tma, rows_large, cp_async});
  // 3D boxes keep the standard planes; boxes of doubles (points) load no row classes.
  CHECK(candidates<3, 8, 1, StencilShape::box>(10, h100) == Choices{tma, cp_async});
  CHECK(candidates<3, 4, 1, StencilShape::box>(9, h100) == Choices{tma, rows_standard, cp_async});
  // 3D beyond radius 1: the large planes are the standard ones, not tried twice.
  // Row classes in 3D: stars of doubles, radius-1 stars and boxes of floats (not the float star strips).
  CHECK(candidates<3, 4, 4, StencilShape::star>(9, h100) == Choices{tma, cp_async});
  CHECK(candidates<3, 8, 2, StencilShape::star>(9, h100) == Choices{tma, rows_standard, cp_async});
  CHECK(candidates<3, 2, 1, StencilShape::star>(9, h100) == Choices{tma_large, tma, cp_async});
  // Every boundary policy takes the same candidates (TMA tiles at an edge get the policy's values
  // after they land: halo_frame_outside's cells only). Periodic alone reads the far side of the
  // array, fetched a step ahead (EdgeCells).
  CHECK_FALSE(smemtile::boundary_reads_near_edge<smemtile::boundary::Periodic>);
  CHECK(smemtile::boundary_reads_near_edge<smemtile::boundary::Clamp>);
  CHECK(smemtile::boundary_reads_near_edge<smemtile::boundary::Reflect>);
  CHECK(smemtile::boundary_reads_near_edge<smemtile::boundary::Zero>);
  CHECK(smemtile::boundary_reads_near_edge<smemtile::boundary::Constant<float>>);
  // 3D arrays below 2^26 points: the standard TMA planes first; at and above it the large ones; 2D keeps them.
  CHECK(list(smemtile::stencil_candidates<3, 4, 1, StencilShape::star>(StencilTarget{9, h100, 256LL * 256 * 256})) ==
        Choices{tma, rows_standard, cp_async});
  CHECK(list(smemtile::stencil_candidates<3, 4, 1, StencilShape::star>(StencilTarget{9, h100, 1LL << 26})) ==
        Choices{tma_large, tma, rows_large, cp_async});
  CHECK(list(smemtile::stencil_candidates<2, 4, 1, StencilShape::star>(StencilTarget{9, h100, 64 * 64})) ==
        Choices{tma_large, tma, rows_large, stream, cp_async});
  // 2D boxes of 4-byte elements: the large tiles on arrays of at least 2^26 points, whatever the
  // boundary policy; smaller arrays take the standard tiles. Boxes of other sizes and stars keep
  // the large tiles.
  const auto target = [&](long long points) { return StencilTarget{9, h100, points}; };
  const long long big = 1LL << 26;
  // Row classes take one set of tiles per stencil (stencil_row_classes_tiles), whatever the size.
  CHECK(list(smemtile::stencil_candidates<2, 4, 1, StencilShape::box>(target(big))) ==
        Choices{tma_large, tma, rows_large, stream, cp_async});
  CHECK(list(smemtile::stencil_candidates<2, 4, 1, StencilShape::box>(target(big - 1))) ==
        Choices{tma, rows_large, stream, cp_async});
  CHECK(list(smemtile::stencil_candidates<2, 4, 2, StencilShape::box>(target(big))) == Choices{tma_large, tma, cp_async});
  CHECK(list(smemtile::stencil_candidates<2, 4, 2, StencilShape::box>(target(4096))) == Choices{tma, cp_async});
  // Wider boxes of 4-byte elements keep the standard tiles at every size (and no row classes).
  CHECK(list(smemtile::stencil_candidates<2, 4, 3, StencilShape::box>(target(big))) == Choices{tma, cp_async});
  CHECK(list(smemtile::stencil_candidates<2, 4, 4, StencilShape::box>(StencilTarget{9, h100})) == Choices{tma, cp_async});
  CHECK(list(smemtile::stencil_candidates<2, 2, 3, StencilShape::box>(target(big))) ==
        Choices{tma_large, tma, rows_large, cp_async});
  CHECK(list(smemtile::stencil_candidates<2, 8, 1, StencilShape::box>(target(4096))) ==
        Choices{tma_large, tma, rows_large, cp_async});
  CHECK(list(smemtile::stencil_candidates<2, 1, 1, StencilShape::box>(target(4096))) ==
        Choices{tma_large, tma, rows_large, stream, cp_async});
  CHECK(list(smemtile::stencil_candidates<2, 2, 3, StencilShape::star>(target(4096))) ==
        Choices{tma_large, tma, rows_large, cp_async});
  CHECK(list(smemtile::stencil_candidates<2, 4, 1, StencilShape::star>(target(4096))) ==
        Choices{tma_large, tma, rows_large, stream, cp_async});
  // Halves up to radius 2 and radius-2 stars of floats: the stream ran faster than row classes.
  CHECK(list(smemtile::stencil_candidates<2, 4, 2, StencilShape::star>(target(4096))) ==
        Choices{tma_large, tma, stream, cp_async});
  // 2D halves: rows of 1 KB from stencil_long_rows_min_points (stars up to radius 2, the 3 x 3
  // box), then 64 x 128; below it 64 x 128 first; other sizes, radii and ranks never.
  const long long longer = smemtile::stencil_long_rows_min_points;
  const auto long_rows = std::make_pair(StencilLoader::tma, StencilTiles::long_rows);
  CHECK(list(smemtile::stencil_candidates<2, 2, 1, StencilShape::star>(target(longer))) ==
        Choices{long_rows, tma_large, tma, stream, cp_async});
  CHECK(list(smemtile::stencil_candidates<2, 2, 1, StencilShape::star>(target(longer - 1))) ==
        Choices{tma_large, tma, stream, cp_async});
  CHECK(list(smemtile::stencil_candidates<2, 2, 2, StencilShape::star>(StencilTarget{9, h100})) ==
        Choices{long_rows, tma_large, tma, stream, cp_async});  // nothing known: long rows
  CHECK(list(smemtile::stencil_candidates<2, 2, 1, StencilShape::box>(target(longer))).front() == long_rows);
  CHECK(list(smemtile::stencil_candidates<2, 2, 2, StencilShape::box>(target(longer))).front() == tma_large);
  CHECK(list(smemtile::stencil_candidates<2, 2, 3, StencilShape::star>(target(longer))).front() == tma_large);
  CHECK(list(smemtile::stencil_candidates<2, 1, 1, StencilShape::star>(target(longer))).front() == tma_large);
  CHECK(list(smemtile::stencil_candidates<2, 4, 1, StencilShape::star>(target(longer))).front() == tma_large);
  CHECK(candidates<2, 2, 1, StencilShape::star>(12, ada).front() == tma);  // no room for them
  CHECK(candidates<2, 2, 1, StencilShape::star>(8, 163 * 1024).front() == stream);  // no TMA
  using HalfLong = Policy<2, 2, 1, StencilShape::star, StencilLoader::tma, StencilTiles::long_rows>;
  CHECK(HalfLong::rows == 32);
  CHECK(HalfLong::cols == 512);
  CHECK(HalfLong::tma_unit_bytes == 8);  // 1 KB rows: 128 TMA units of 8 bytes (at most 256 a box)
  CHECK(Policy<2, 2, 1, StencilShape::star, StencilLoader::tma, StencilTiles::large>::cols == 128);
  CHECK(Policy<2, 4, 1, StencilShape::star, StencilLoader::tma, StencilTiles::long_rows>::cols ==
        Policy<2, 4, 1, StencilShape::star, StencilLoader::tma, StencilTiles::large>::cols);  // others: the large tiles
  CHECK(smemtile::stencil_large_tiles_for<2, 4, StencilShape::box>(StencilTarget{9, h100}));  // nothing known: large
  CHECK_FALSE(smemtile::stencil_large_tiles_for<3, 4, StencilShape::star>(target(big - 1)));
  CHECK(smemtile::stencil_large_tiles_for<3, 4, StencilShape::star>(target(big)));
  // 3D floats from 3 x 2^22 points where the columns fill the 256-column planes (whole, or the last
  // at least 7/8 full), else from 2^26; the columns unknown (0): from 2^26.
  const auto volume = [&](long long points, long long cols) { return StencilTarget{9, h100, points, cols}; };
  CHECK(smemtile::stencil_large_planes_filled(512, 256));
  CHECK(smemtile::stencil_large_planes_filled(1000, 256));  // 232 of 256
  CHECK(smemtile::stencil_large_planes_filled(480, 256));   // 224 of 256
  CHECK_FALSE(smemtile::stencil_large_planes_filled(479, 256));
  CHECK_FALSE(smemtile::stencil_large_planes_filled(224, 256));  // not one whole plane
  CHECK_FALSE(smemtile::stencil_large_planes_filled(300, 256));
  CHECK(smemtile::stencil_large_tiles_for<3, 4, StencilShape::star>(volume(3LL << 22, 256)));
  CHECK_FALSE(smemtile::stencil_large_tiles_for<3, 4, StencilShape::star>(volume((3LL << 22) - 1, 256)));
  CHECK_FALSE(smemtile::stencil_large_tiles_for<3, 4, StencilShape::star>(volume(64LL * 256 * 256, 256)));
  CHECK_FALSE(smemtile::stencil_large_tiles_for<3, 4, StencilShape::star>(volume(300LL * 300 * 300, 300)));
  CHECK_FALSE(smemtile::stencil_large_tiles_for<3, 4, StencilShape::star>(volume(1LL << 25, 0)));
  CHECK(smemtile::stencil_large_tiles_for<3, 4, StencilShape::star>(volume(100LL * 500 * 1000, 1000)));
  CHECK(list(smemtile::stencil_candidates<3, 4, 1, StencilShape::star>(volume(128LL * 512 * 512, 512))).front() == tma_large);
  CHECK(list(smemtile::stencil_candidates<3, 4, 1, StencilShape::star>(volume(384LL * 384 * 384, 384))).front() == tma);
  CHECK(smemtile::stencil_row_classes_tiles_for<3, 4, 1, StencilShape::star>(volume(100LL * 500 * 1000, 1000)) ==
        smemtile::StencilTiles::large);
  CHECK(smemtile::stencil_row_classes_tiles_for<3, 4, 1, StencilShape::star>(volume(383LL * 385 * 387, 387)) ==
        smemtile::StencilTiles::standard);
  // 3D doubles from 2^23 points (224^3 is 11.2 M), 2D doubles at every size.
  CHECK_FALSE(smemtile::stencil_large_tiles_for<3, 8, StencilShape::star>(target((1LL << 23) - 1)));
  CHECK(smemtile::stencil_large_tiles_for<3, 8, StencilShape::star>(target(1LL << 23)));
  CHECK(smemtile::stencil_large_tiles_for<2, 8, StencilShape::star>(target(1000)));
  CHECK(list(smemtile::stencil_candidates<3, 8, 1, StencilShape::star>(target(224LL * 224 * 224))).front() == tma_large);
  CHECK(list(smemtile::stencil_candidates<3, 8, 1, StencilShape::star>(target(192LL * 192 * 192))).front() == tma);
  // A TMA GPU without the shared memory for the large tiles (sm_120's 99 KB).
  CHECK(candidates<2, 4, 1, StencilShape::star>(12, ada) == Choices{tma, stream, cp_async});
  CHECK(candidates<3, 4, 1, StencilShape::star>(12, ada) == Choices{tma, cp_async});
  CHECK(candidates<3, 8, 4, StencilShape::star>(12, ada) == Choices{tma, cp_async});  // 128 KB of row classes
  // No TMA (sm_80, sm_86, sm_89): the 2D stream where selected, cp.async.
  CHECK(candidates<2, 4, 1, StencilShape::star>(8, 163 * 1024) == Choices{stream, cp_async});
  CHECK(candidates<2, 8, 1, StencilShape::star>(8, 163 * 1024) == Choices{stream, cp_async});
  CHECK(candidates<2, 8, 1, StencilShape::box>(8, 163 * 1024) == Choices{cp_async});
  CHECK(candidates<3, 8, 2, StencilShape::box>(8, ada) == Choices{cp_async});
  // 1D: one synchronous copy per block, whatever the GPU.
  CHECK(candidates<1, 4, 1, StencilShape::star>(9, h100) == Choices{sync});
  CHECK(candidates<1, 1, 8, StencilShape::box>(7, 48 * 1024) == Choices{sync});
  // The threshold is the large policy's own shared memory.
  using L = Policy<2, 4, 1, StencilShape::star, StencilLoader::tma, StencilTiles::large>;
  const long long need = smemtile::stencil_shared_bytes<L>(4, 1);
  CHECK(candidates<2, 4, 1, StencilShape::star>(9, need) == Choices{tma_large, tma, rows_large, stream, cp_async});
  CHECK(candidates<2, 4, 1, StencilShape::star>(9, need - 1) == Choices{tma, stream, cp_async});
}

TEST_CASE("stencil_stream_selected: the 2D stream before cp.async where it was measured ahead") {
  using smemtile::stencil_stream_selected;
  for (int e : {1, 2, 4, 8})
    for (int r = 1; r <= 8; ++r)
      for (StencilShape s : {StencilShape::star, StencilShape::box}) {
        INFO(e << "-byte elements, radius " << r << (s == StencilShape::star ? " star" : " box"));
        const bool expected = e <= 2   ? r <= 2
                              : e == 4 ? (s == StencilShape::star ? r <= 2 : r == 1)
                                       : e == 8 && s == StencilShape::star && r == 1;
        CHECK(stencil_stream_selected(2, e, r, s) == expected);
        CHECK_FALSE(stencil_stream_selected(1, e, r, s));
        CHECK_FALSE(stencil_stream_selected(3, e, r, s));
        // Every default stream policy passes its checks, holds at least one value per lane and
        // loads at least one row ahead.
        CHECK(smemtile::stencil_stream_columns(e, r, s) >= 1);
        CHECK(smemtile::stencil_stream_columns(e, r, s) <= 16);  // StencilStreamPolicy's bound
        CHECK(smemtile::stencil_stream_ahead(e, r, s) >= 1);
      }
  // The measured shapes (docs/tuning.md, "2D stream"): 32 bytes of a row per lane for stars of
  // radius 1, 16 for radius 2 and boxes of radius 1; floats' 5-point stars one row ahead.
  CHECK(Policy<2, 4, 1, StencilShape::star, StencilLoader::stream>::columns == 8);
  CHECK(Policy<2, 4, 1, StencilShape::star, StencilLoader::stream>::ahead == 1);
  CHECK(Policy<2, 8, 1, StencilShape::star, StencilLoader::stream>::columns == 4);
  CHECK(Policy<2, 4, 1, StencilShape::box, StencilLoader::stream>::columns == 4);
  CHECK(Policy<2, 4, 1, StencilShape::box, StencilLoader::stream>::ahead == 3);
  CHECK(Policy<2, 4, 2, StencilShape::star, StencilLoader::stream>::columns == 4);
  CHECK(smemtile::StencilPolicyCheck<Policy<2, 4, 4, StencilShape::box, StencilLoader::stream>, 4, 4, StencilShape::box>::ok);
  CHECK(smemtile::IsStencilPolicy<Policy<2, 1, 1, StencilShape::star, StencilLoader::stream>>::value);
  // Bytes and halves: 4 values a lane (wider rows spilled; a forced stream of bytes' 5-point star,
  // 32 a lane, failed to compile before the policy's bound of 16).
  CHECK(Policy<2, 1, 1, StencilShape::star, StencilLoader::stream>::columns == 4);
  CHECK(Policy<2, 2, 2, StencilShape::box, StencilLoader::stream>::columns == 4);
  CHECK(Policy<2, 1, 1, StencilShape::box, StencilLoader::stream>::ahead == 2);
}

TEST_CASE("stencil_plane_offsets_fit: 3D periodic TMA sweeps take planes whose elements lie within 2^31 - 1 of the first") {
  using smemtile::stencil_plane_offsets_fit;
  CHECK(stencil_plane_offsets_fit(512, 512, 512));
  CHECK(stencil_plane_offsets_fit(1, 1, 1));
  // The last element at offset 2^31 - 1 exactly ((32768 - 1) x 65536 + 65535), and at 2^31.
  CHECK(stencil_plane_offsets_fit(32768, 65536, 65536));
  CHECK_FALSE(stencil_plane_offsets_fit(32769, 1, 65536));
  // The pitch counts, not the row's elements.
  CHECK(stencil_plane_offsets_fit(40000, 16, 50000));
  CHECK_FALSE(stencil_plane_offsets_fit(40000, 16, 60000));
  // device_stencil's largest extents and strides (INT_MAX) do not overflow the test.
  CHECK(stencil_plane_offsets_fit(1, INT_MAX, INT_MAX));
  CHECK_FALSE(stencil_plane_offsets_fit(INT_MAX, INT_MAX, INT_MAX));
  static_assert(stencil_plane_offsets_fit(2048, 2048, 2048), "constexpr");
}

// A caller's policy: smaller cp.async tiles, star strips off. It passes the same checks and is a
// policy device_stencil's overload takes instead of the selection.
using MyPolicy = smemtile::StencilTiledPolicy<2, StencilLoader::cp_async, StencilCompute::points, 16, 64, 4, 2, 3, 4>;
static_assert(smemtile::IsStencilPolicy<MyPolicy>::value, "a user policy is a stencil policy");
static_assert(smemtile::StencilPolicyCheck<MyPolicy, 4, 1, StencilShape::star>::ok, "and satisfies the invariants");
static_assert(!smemtile::IsStencilPolicy<smemtile::boundary::Zero>::value, "a boundary policy is not one");

TEST_CASE("stencil policies: a caller's policy is what runs") {
  CHECK(smemtile::stencil_ring_slots<MyPolicy>(1) == 4);
  CHECK(smemtile::stencil_shared_bytes<MyPolicy>(4, 1) == 4 * ((18 * 72 * 4 + 127) / 128 * 128) + 128);
  CHECK(MyPolicy::warps == 8);
}

// ---- stencil_argument_error ---------------------------------------------------------------------------

struct Args {
  int rank;
  long long in_extents[3], out_extents[3], in_strides[3], out_strides[3];
  unsigned long long in, out;
  int elem_bytes;
  const char* error() const {
    return smemtile::stencil_argument_error(rank, in_extents, out_extents, in_strides, out_strides, in, out,
                                            elem_bytes);
  }
};

// Dense arrays (or pitched, with `pitch`) of the given extents at in / out.
Args make_args(int rank, std::vector<long long> extents, unsigned long long in, unsigned long long out,
               int elem_bytes = 4, long long pitch = 0) {
  Args a{};
  a.rank = rank;
  a.in = in;
  a.out = out;
  a.elem_bytes = elem_bytes;
  long long stride = 1;
  for (int d = rank - 1; d >= 0; --d) {
    a.in_extents[d] = a.out_extents[d] = extents[static_cast<std::size_t>(d)];
    a.in_strides[d] = a.out_strides[d] = stride;
    stride *= (d == rank - 1 && pitch > 0) ? pitch : extents[static_cast<std::size_t>(d)];
  }
  return a;
}

constexpr unsigned long long base = 0x7f0000000000ull;

TEST_CASE("stencil_argument_error: valid arrays of every rank") {
  CHECK(make_args(1, {100}, base, base + 4096).error() == nullptr);
  CHECK(make_args(2, {30, 40}, base, base + 65536).error() == nullptr);
  CHECK(make_args(2, {30, 40}, base + 4, base + 65536 + 12, 4, 45).error() == nullptr);  // pitched, misaligned
  CHECK(make_args(3, {5, 6, 7}, base, base + 65536, 8).error() == nullptr);
  CHECK(make_args(1, {1}, base, base + 8, 8).error() == nullptr);
  // out below in
  CHECK(make_args(2, {3, 4}, base + 4096, base).error() == nullptr);
}

TEST_CASE("stencil_argument_error: empty arrays are valid even with null pointers") {
  CHECK(make_args(1, {0}, 0, 0).error() == nullptr);
  CHECK(make_args(2, {0, 7}, 0, 0).error() == nullptr);
  CHECK(make_args(2, {7, 0}, 0, base).error() == nullptr);
  CHECK(make_args(3, {3, 0, 5}, base, 0).error() == nullptr);
  CHECK(make_args(3, {0, 0, 0}, base, base).error() == nullptr);  // even the same pointer: nothing is written
  Args strided = make_args(2, {0, 9}, 0, 0);
  strided.in_strides[1] = 2;  // nothing is read either
  CHECK(strided.error() == nullptr);
}

TEST_CASE("stencil_argument_error: different extents") {
  Args a = make_args(2, {30, 40}, base, base + 65536);
  a.out_extents[1] = 41;
  CHECK(contains_message(a.error(), "same extents"));
  Args b = make_args(3, {5, 6, 7}, base, base + 65536);
  b.out_extents[0] = 4;
  CHECK(contains_message(b.error(), "same extents"));
  Args c = make_args(1, {0}, 0, 0);
  c.out_extents[0] = 3;  // one of them empty
  CHECK(contains_message(c.error(), "same extents"));
}

TEST_CASE("stencil_argument_error: null pointers with elements") {
  CHECK(contains_message(make_args(1, {10}, 0, base).error(), "null"));
  CHECK(contains_message(make_args(2, {3, 4}, base, 0).error(), "null"));
  CHECK(contains_message(make_args(3, {1, 1, 1}, 0, 0).error(), "null"));
}

TEST_CASE("stencil_argument_error: non-unit x stride") {
  Args a = make_args(2, {30, 40}, base, base + 65536, 4, 80);
  a.in_strides[1] = 2;
  CHECK(contains_message(a.error(), "stride 1"));
  Args b = make_args(1, {30}, base, base + 65536);
  b.out_strides[0] = 2;
  CHECK(contains_message(b.error(), "stride 1"));
  Args c = make_args(3, {2, 3, 4}, base, base + 65536);
  c.in_strides[2] = 0;
  CHECK(contains_message(c.error(), "stride 1"));
}

TEST_CASE("stencil_argument_error: negative and too large extents and strides") {
  Args a = make_args(2, {3, 4}, base, base + 4096);
  a.in_extents[0] = a.out_extents[0] = -3;
  CHECK(contains_message(a.error(), "negative"));
  Args b = make_args(1, {1}, base, base + 4096);
  b.in_extents[0] = b.out_extents[0] = 3000000000LL;
  CHECK(contains_message(b.error(), "fit in an int"));
  Args c = make_args(2, {3, 4}, base, base + 4096);
  c.in_strides[0] = -4;
  CHECK(contains_message(c.error(), "negative"));
}

TEST_CASE("stencil_argument_error: overlapping in and out") {
  // Same pointer.
  CHECK(contains_message(make_args(1, {100}, base, base).error(), "overlap"));
  CHECK(contains_message(make_args(3, {2, 3, 4}, base, base, 8).error(), "overlap"));
  // out starts inside in, and in starts inside out.
  CHECK(contains_message(make_args(1, {100}, base, base + 4 * 50).error(), "overlap"));
  CHECK(contains_message(make_args(1, {100}, base + 4 * 99, base).error(), "overlap"));
  // Only the last element of one and the first of the other (1D, 8-byte elements).
  CHECK(contains_message(make_args(1, {10}, base, base + 8 * 9, 8).error(), "overlap"));
  // Overlapping by one byte (misaligned pointer).
  CHECK(contains_message(make_args(1, {10}, base, base + 4 * 10 - 1).error(), "overlap"));
  // 2D pitched: rows of 4 elements, pitch 10, 3 rows: the span is 2 * 10 + 4 = 24 elements.
  CHECK(contains_message(make_args(2, {3, 4}, base, base + 4 * 23, 4, 10).error(), "overlap"));
  CHECK(contains_message(make_args(2, {3, 4}, base + 4 * 23, base, 4, 10).error(), "overlap"));
  // 3D: out starting in in's last plane
  CHECK(contains_message(make_args(3, {4, 5, 6}, base, base + 4 * (3 * 30 + 7)).error(), "overlap"));
}

TEST_CASE("stencil_argument_error: touching but not overlapping arrays are accepted") {
  CHECK(make_args(1, {100}, base, base + 4 * 100).error() == nullptr);
  CHECK(make_args(1, {100}, base + 4 * 100, base).error() == nullptr);
  CHECK(make_args(1, {10}, base, base + 8 * 10, 8).error() == nullptr);
  // 2D pitched: the span ends after the last row's last element, not after its pitch.
  CHECK(make_args(2, {3, 4}, base, base + 4 * 24, 4, 10).error() == nullptr);
  CHECK(make_args(2, {3, 4}, base + 4 * 24, base, 4, 10).error() == nullptr);
  CHECK(make_args(3, {4, 5, 6}, base, base + 4 * 120).error() == nullptr);
  CHECK(make_args(3, {4, 5, 6}, base + 4 * 120, base).error() == nullptr);
}

// ---- the index policies near the edges ------------------------------------------------------------------

template <class Policy>
void check_index_policy(const char* name) {
  static_assert(Policy::maps_index && !Policy::is_zero, "an index policy");
  int outside = 0, moved_inside = 0;
  for (int radius = 1; radius <= 16; ++radius) {  // radii 1..4, and the halo columns of small elements
    for (int n = 1; n <= 9; ++n) {
      for (int i = -radius; i < n + radius; ++i) {
        const int m = Policy::map_index(i, n);
        if (m < 0 || m >= n) {
          ++outside;
          UNSCOPED_INFO(name << ": map_index(" << i << ", " << n << ") = " << m);
        }
        if (i >= 0 && i < n && m != i) ++moved_inside;
      }
    }
  }
  CHECK(outside == 0);
  CHECK(moved_inside == 0);
}

TEST_CASE("index policies map every position within Radius of the edges of arrays of 1 to 9 elements inside") {
  check_index_policy<smemtile::boundary::Clamp>("clamp");
  check_index_policy<smemtile::boundary::Periodic>("periodic");
  check_index_policy<smemtile::boundary::Reflect>("reflect");
  // Spot values of the documented mappings.
  static_assert(smemtile::boundary::Reflect::map_index(-1, 5) == 1 && smemtile::boundary::Reflect::map_index(5, 5) == 3,
                "reflect: -1 -> 1, n -> n - 2");
  static_assert(smemtile::boundary::Reflect::map_index(-4, 2) == 0 && smemtile::boundary::Reflect::map_index(-3, 2) == 1,
                "reflect folds repeatedly");
  static_assert(smemtile::boundary::Periodic::map_index(-1, 3) == 2 && smemtile::boundary::Periodic::map_index(7, 3) == 1,
                "periodic wraps");
  static_assert(smemtile::boundary::Clamp::map_index(-4, 3) == 0 && smemtile::boundary::Clamp::map_index(9, 3) == 2,
                "clamp");
}

// boundary_source / boundary_source_index: the element an index policy reads, the library's one
// application of map_index: the position itself inside, the element it stands for outside.
template <class Policy>
void check_boundary_source(const char* name) {
  int wrong = 0;
  for (int n = 1; n <= 9; ++n) {
    for (int i = -20; i < n + 20; ++i) {
      const int expected = i >= 0 && i < n ? i : Policy::map_index(i, n);
      const int index = smemtile::boundary_source_index<Policy>(i, n);
      if (index != expected || index != Policy::map_index(i, n) || index < 0 || index >= n) {
        ++wrong;
        UNSCOPED_INFO(name << ": boundary_source_index(" << i << ", " << n << ") = " << index);
      }
      for (int cols = 1; cols <= 4; ++cols) {
        for (int j = -5; j < cols + 5; ++j) {
          const smemtile::Coord s = smemtile::boundary_source<Policy>(smemtile::Coord{i, j}, n, cols);
          if (s.row != Policy::map_index(i, n) || s.col != Policy::map_index(j, cols)) {
            ++wrong;
            UNSCOPED_INFO(name << ": boundary_source({" << i << ", " << j << "}, " << n << ", " << cols << ") = {" << s.row
                               << ", " << s.col << "}");
          }
          if (i >= 0 && i < n && j >= 0 && j < cols && s != smemtile::Coord{i, j}) ++wrong;  // inside: itself
        }
      }
    }
  }
  CHECK(wrong == 0);
}

TEST_CASE("boundary_source and boundary_source_index give the element each index policy reads, n = 1 included") {
  using smemtile::Coord;
  using smemtile::boundary_source;
  using smemtile::boundary_source_index;
  namespace b = smemtile::boundary;
  check_boundary_source<b::Clamp>("clamp");
  check_boundary_source<b::Periodic>("periodic");
  check_boundary_source<b::Reflect>("reflect");
  // Spot values, at compile time: inside unchanged, outside mapped, n = 1 maps everything to 0.
  static_assert(boundary_source_index<b::Clamp>(2, 5) == 2 && boundary_source_index<b::Clamp>(-3, 5) == 0 &&
                    boundary_source_index<b::Clamp>(7, 5) == 4 && boundary_source_index<b::Clamp>(-1, 1) == 0 &&
                    boundary_source_index<b::Clamp>(1, 1) == 0,
                "clamp");
  static_assert(boundary_source_index<b::Periodic>(2, 5) == 2 && boundary_source_index<b::Periodic>(-1, 5) == 4 &&
                    boundary_source_index<b::Periodic>(11, 5) == 1 && boundary_source_index<b::Periodic>(-3, 1) == 0 &&
                    boundary_source_index<b::Periodic>(2, 1) == 0,
                "periodic");
  static_assert(boundary_source_index<b::Reflect>(2, 5) == 2 && boundary_source_index<b::Reflect>(-1, 5) == 1 &&
                    boundary_source_index<b::Reflect>(5, 5) == 3 && boundary_source_index<b::Reflect>(-4, 1) == 0 &&
                    boundary_source_index<b::Reflect>(3, 1) == 0 && boundary_source_index<b::Reflect>(0, 1) == 0,
                "reflect");
  static_assert(boundary_source<b::Clamp>(Coord{-2, 9}, 4, 6) == Coord{0, 5}, "clamp, both outside");
  static_assert(boundary_source<b::Periodic>(Coord{-1, 3}, 4, 6) == Coord{3, 3}, "periodic, row outside");
  static_assert(boundary_source<b::Reflect>(Coord{2, -2}, 4, 6) == Coord{2, 2}, "reflect, column outside");
  static_assert(boundary_source<b::Reflect>(Coord{1, 4}, 4, 6) == Coord{1, 4}, "inside: itself");
  static_assert(boundary_source<b::Reflect>(Coord{-5, 7}, 1, 1) == Coord{0, 0}, "1 x 1: everything is (0, 0)");
}

}  // namespace

TEST_CASE("RowClassHaloLayout: every row's class region, shift and columns, for each element size") {
  using smemtile::RowClassHaloLayout;
  const auto check = [](auto layout, int halo_cols, int elem_bytes) {
    using L = decltype(layout);
    const int classes = 16 / elem_bytes;
    INFO(elem_bytes << "-byte elements, " << L::rows() << " x " << L::cols() << ", reach " << L::reach().row);
    // Class regions: 128-byte aligned, one after another, each class_rows x row_stride.
    for (int j = 0; j < classes; ++j) {
      CHECK(L::class_start(j) * elem_bytes % 128 == 0);
      CHECK(L::class_start(j + 1) - L::class_start(j) >= L::class_rows(j) * L::row_stride());
    }
    CHECK(L::storage_size() == L::class_start(classes));
    int rows = 0;
    for (int j = 0; j < classes; ++j) rows += L::class_rows(j);
    CHECK(rows == L::rows() + 2 * L::reach().row);
    CHECK(L::box_bytes() == rows * L::row_stride() * elem_bytes);
    // Storage row s = r + reach is row s / classes of class s % classes (the closed form).
    for (int r = -L::reach().row; r < L::rows() + L::reach().row; ++r) {
      const int s = r + L::reach().row;
      CHECK(L::aligned_offset(r, 0) == L::class_start(s % classes) + s / classes * L::row_stride() + halo_cols);
    }
    // Shifts: rows of a pitch of 16 k + p bytes move by p bytes per row, modulo 16.
    for (int first = 0; first < 16; first += elem_bytes)
      for (int pitch = 0; pitch < 16; pitch += elem_bytes) {
        L l;
        l.first_phase = first;
        l.pitch_phase = pitch;
        for (int r = -L::reach().row; r < L::rows() + L::reach().row; ++r) {
          const int expected = (((first + r * pitch) % 16) + 16) % 16 / elem_bytes;
          CHECK(l.shift(r) == expected);
          CHECK(l.offset(r, 3) == L::aligned_offset(r, 3) + expected);
          // The reach right of the interior stays inside the row at the largest shift.
          CHECK(halo_cols + L::cols() + L::reach().col - 1 + classes - 1 < L::row_stride());
        }
      }
  };
  check(RowClassHaloLayout<48, 512, 1, 64, 1>{}, 64, 1);
  check(RowClassHaloLayout<32, 128, 2, 16, 1>{}, 16, 1);
  check(RowClassHaloLayout<32, 512, 2, 64, 2>{}, 64, 2);
  check(RowClassHaloLayout<64, 128, 3, 8, 2>{}, 8, 2);
  check(RowClassHaloLayout<32, 256, 1, 32, 4>{}, 32, 4);
  check(RowClassHaloLayout<32, 128, 4, 4, 4>{}, 4, 4);
  check(RowClassHaloLayout<32, 128, 1, 16, 8>{}, 16, 8);
  check(RowClassHaloLayout<32, 64, 2, 2, 8>{}, 2, 8);
  // A halo that holds the reach at every shift needs no more columns; one that does not gets one vector.
  CHECK(RowClassHaloLayout<48, 512, 1, 64, 1>::extra_cols == 0);
  CHECK(RowClassHaloLayout<32, 128, 2, 4, 4>::extra_cols == 4);
  CHECK(RowClassHaloLayout<32, 128, 2, 16, 1>::extra_cols == 16);
  CHECK(smemtile::row_phase(13, 1, -2) == 11);
  // Equal regions (3D sweeps): every region holds the largest class's rows, any class in any region.
  using Equal = RowClassHaloLayout<32, 256, 1, 32, 4, true>;
  using Fitted = RowClassHaloLayout<32, 256, 1, 32, 4>;
  for (int j = 0; j < 4; ++j) {
    CHECK(Equal::class_rows(j) == 9);
    CHECK(Equal::class_start(j) == j * 9 * Equal::row_stride());
  }
  CHECK(Fitted::class_rows(3) == 8);
  CHECK(Equal::box_bytes() == 4 * 9 * Equal::row_stride() * 4);
  for (int r = -1; r < 33; ++r) CHECK(Equal::aligned_offset(r, 5) == Equal::class_start((r + 1) % 4) + (r + 1) / 4 * Equal::row_stride() + 32 + 5);
  CHECK(smemtile::stencil_slot_bytes<Policy<3, 4, 1, StencilShape::star, StencilLoader::tma_row_classes, StencilTiles::large>>(4, 1) ==
        Equal::storage_size() * 4);
  // Offset codes: the offset in a tile of any phase, from one code.
  for (int first = 0; first < 16; first += 4)
    for (int pitch = 0; pitch < 16; pitch += 4)
      for (int r = -1; r < 33; ++r) {
        const Equal l{first, pitch};
        CHECK(l.offset_of_code(Equal::offset_code(r, 7)) == l.offset(r, 7));
        CHECK(Equal::offset_code(r, -1) >= 0);
      }
  CHECK(smemtile::row_phase(0, 12, 5) == 12);
}

TEST_CASE("stencil_row_classes_selected: the stencils row classes were measured ahead of the stream and cp.async") {
  for (int r = 1; r <= 4; ++r) {
    INFO("radius " << r);
    CHECK(smemtile::stencil_row_classes_selected<2, 1, 1, StencilShape::box>);
    CHECK(smemtile::stencil_row_classes_selected<2, 8, 1, StencilShape::star>);
    CHECK(smemtile::stencil_row_classes_selected<3, 8, 1, StencilShape::star>);
    CHECK_FALSE(smemtile::stencil_row_classes_selected<3, 2, 1, StencilShape::star>);
    CHECK_FALSE(smemtile::stencil_row_classes_selected<1, 4, 1, StencilShape::star>);
    CHECK_FALSE(smemtile::stencil_row_classes_selected<2, 16, 1, StencilShape::star>);
  }
  CHECK_FALSE(smemtile::stencil_row_classes_selected<2, 2, 1, StencilShape::star>);
  CHECK_FALSE(smemtile::stencil_row_classes_selected<2, 2, 2, StencilShape::box>);
  CHECK(smemtile::stencil_row_classes_selected<2, 2, 3, StencilShape::star>);
  CHECK_FALSE(smemtile::stencil_row_classes_selected<2, 4, 2, StencilShape::star>);
  // 4- and 8-byte elements: radius 1 only (wider strips by row classes ran at half cp.async's speed);
  // bytes: boxes only (byte stars are faster on the stream).
  CHECK_FALSE(smemtile::stencil_row_classes_selected<2, 4, 2, StencilShape::box>);
  CHECK_FALSE(smemtile::stencil_row_classes_selected<2, 4, 3, StencilShape::star>);
  CHECK_FALSE(smemtile::stencil_row_classes_selected<2, 8, 2, StencilShape::star>);
  CHECK(smemtile::stencil_row_classes_selected<2, 8, 1, StencilShape::box>);
  CHECK(smemtile::stencil_row_classes_selected<2, 1, 2, StencilShape::box>);
  CHECK_FALSE(smemtile::stencil_row_classes_selected<2, 1, 1, StencilShape::star>);
  // 3D boxes: radius 1 of 4-byte elements (box strips); the others compute points.
  CHECK(smemtile::stencil_row_classes_selected<3, 4, 1, StencilShape::box>);
  CHECK_FALSE(smemtile::stencil_row_classes_selected<3, 8, 1, StencilShape::box>);
  CHECK_FALSE(smemtile::stencil_row_classes_selected<3, 4, 2, StencilShape::box>);
  CHECK_FALSE(smemtile::stencil_row_classes_selected<3, 4, 2, StencilShape::star>);  // star strips
  CHECK(smemtile::stencil_row_classes_selected<3, 8, 4, StencilShape::star>);
  CHECK(smemtile::stencil_row_classes_tiles_for<3, 4, 1, StencilShape::star>(StencilTarget{9, 0, 1LL << 20}) ==
        StencilTiles::standard);
  CHECK(smemtile::stencil_row_classes_tiles_for<2, 4, 1, StencilShape::star>(StencilTarget{9, 0, 1LL << 20}) ==
        StencilTiles::large);
  // Their tiles: the TMA path's on large arrays, rows a multiple of 16 / E.
  CHECK(smemtile::stencil_row_classes_tiles<2, 1, 1, StencilShape::box> == StencilTiles::large);
  CHECK(smemtile::stencil_row_classes_tiles<2, 4, 3, StencilShape::box> == StencilTiles::standard);
  CHECK(Policy<2, 1, 1, StencilShape::box, StencilLoader::tma_row_classes, StencilTiles::large>::rows % 16 == 0);
  CHECK(smemtile::stencil_row_classes_tiles<3, 4, 1, StencilShape::star> == StencilTiles::large);
  CHECK(smemtile::stencil_row_classes_tiles<3, 4, 1, StencilShape::box> == StencilTiles::standard);
  CHECK(Policy<3, 4, 1, StencilShape::star, StencilLoader::tma_row_classes, StencilTiles::large>::compute ==
        smemtile::StencilCompute::star_columns);
  CHECK(Policy<3, 4, 4, StencilShape::star, StencilLoader::tma_row_classes, StencilTiles::standard>::compute ==
        smemtile::StencilCompute::star_strips);
  CHECK(smemtile::stencil_row_classes_shared<3, 4, 1, StencilShape::star>() <= smemtile::max_shared_bytes_per_block);
  CHECK(smemtile::stencil_row_classes_shared<3, 2, 1, StencilShape::star>() == 0);
  CHECK(smemtile::stencil_row_classes_shared<2, 2, 1, StencilShape::star>() == 0);
  CHECK(smemtile::stencil_row_classes_shared<2, 1, 1, StencilShape::box>() <= smemtile::max_shared_bytes_per_block);
}
