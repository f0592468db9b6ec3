// Host tests for the copy capability, compiled by the C++ compiler (no nvcc): Coord arithmetic,
// windows and halo views (layouts and tiles over host memory), the boundary policies' index maps,
// and the compile-time facts of a copy: which vector widths a layout allows, which storage element
// each lane of each warp touches, and the bank cost of those accesses.
#include <smemtile/block/copy.cuh>  // layout_allows_vector, copy_warp_access, copy_bank_cost, copy_conflict_free
#include <smemtile/core/boundary.cuh>
#include <smemtile/core/conflict_free_tiles.cuh>  // auto_pad_v, SwizzledLayout
#include <smemtile/core/coord.cuh>
#include <smemtile/core/layout.cuh>
#include <smemtile/core/runtime_tile.cuh>
#include <smemtile/core/static_tile.cuh>

#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include "catch.hpp"

using smemtile::Coord;

namespace {

// ---- references written independently of the library -------------------------------------------

int ref_clamp(int i, int n) { return std::min(std::max(i, 0), n - 1); }
int ref_periodic(int i, int n) {
  while (i < 0) i += n;
  while (i >= n) i -= n;
  return i;
}
// NumPy's "reflect": mirror about the edge elements (not repeated) until inside.
int ref_reflect(int i, int n) {
  if (n == 1) return 0;
  while (i < 0 || i >= n) i = i < 0 ? -i : 2 * (n - 1) - i;
  return i;
}

bool contains_message(const char* error, const char* part) {
  return error != nullptr && std::string(error).find(part) != std::string::npos;
}

}  // namespace

// ---- Coord --------------------------------------------------------------------------------------

TEST_CASE("Coord arithmetic and comparison are component-wise", "[copy][coord]") {
  constexpr Coord a{3, -2}, b{-5, 7};
  static_assert((a + b).row == -2 && (a + b).col == 5, "constexpr +");
  static_assert((a - b).row == 8 && (a - b).col == -9, "constexpr -");
  static_assert(a == Coord{3, -2} && a != b && !(a != Coord{3, -2}), "constexpr == and !=");
  for (int r = -4; r <= 4; ++r)
    for (int c = -4; c <= 4; ++c)
      for (int dr = -3; dr <= 3; ++dr)
        for (int dc = -3; dc <= 3; ++dc) {
          const Coord p{r, c}, d{dr, dc};
          CHECK((p + d).row == r + dr);
          CHECK((p + d).col == c + dc);
          CHECK((p - d).row == r - dr);
          CHECK((p - d).col == c - dc);
          Coord q = p;
          Coord& q_ref = (q += d);
          CHECK(&q_ref == &q);
          CHECK((q.row == r + dr && q.col == c + dc));
          Coord& q_ref2 = (q -= d);
          CHECK(&q_ref2 == &q);
          CHECK(q == p);
          CHECK((p == d) == (r == dr && c == dc));
          CHECK((p != d) == !(r == dr && c == dc));
          CHECK((p + d) - d == p);
        }
  // Only one component differing is enough for !=.
  CHECK(Coord{1, 2} != Coord{1, 3});
  CHECK(Coord{1, 2} != Coord{0, 2});
  CHECK_FALSE(Coord{1, 2} == Coord{2, 1});
}

// ---- windows and halo views: layouts --------------------------------------------------------------

TEST_CASE("WindowLayout offsets are inner offsets at origin + (row col) over the whole reach", "[copy][window]") {
  using Inner = smemtile::PaddedLayout<7, 9, 2>;  // stride 11
  for (int orow = 0; orow < 7; ++orow)
    for (int ocol = 0; ocol < 9; ++ocol)
      for (int hr = 0; hr <= 2; ++hr)
        for (int hc = 0; hc <= 2; ++hc) {
          const smemtile::WindowLayout<Inner> w{Inner{}, Coord{orow, ocol}, 2, 3, Coord{hr, hc}};
          CHECK(w.rows() == 2);
          CHECK(w.cols() == 3);
          CHECK(w.row_stride() == 11);
          CHECK(w.storage_size() == 7 * 11);
          CHECK(smemtile::layout_reach(w) == Coord{hr, hc});
          for (int r = -hr - 2; r < 2 + hr + 2; ++r)
            for (int c = -hc - 2; c < 3 + hc + 2; ++c) {
              INFO("origin (" << orow << ", " << ocol << "), reach (" << hr << ", " << hc << "), at (" << r << ", "
                              << c << ")");
              CHECK(w.offset(r, c) == (orow + r) * 11 + (ocol + c));
              CHECK(w.offset(r, c) == Inner::offset(orow + r, ocol + c));
              const bool inside = r >= -hr && r < 2 + hr && c >= -hc && c < 3 + hc;
              CHECK(smemtile::layout_contains(w, r, c) == inside);
              CHECK(w.contains(r, c) == inside);
            }
        }
  // The plain layouts: [0, rows) x [0, cols), reach (0, 0).
  for (int r = -2; r < 10; ++r)
    for (int c = -2; c < 12; ++c) CHECK(smemtile::layout_contains(Inner{}, r, c) == (r >= 0 && r < 7 && c >= 0 && c < 9));
  CHECK(smemtile::layout_reach(Inner{}) == Coord{0, 0});
  CHECK(smemtile::layout_reach(smemtile::RuntimePaddedLayout{3, 4, 1}) == Coord{0, 0});
  CHECK(smemtile::layout_reach(smemtile::LinearLayout<5>{}) == Coord{0, 0});
  // A window over a window: offsets compose.
  const smemtile::WindowLayout<Inner> outer{Inner{}, Coord{1, 2}, 5, 6, Coord{0, 0}};
  const smemtile::WindowLayout<smemtile::WindowLayout<Inner>> nested{outer, Coord{2, 1}, 2, 2, Coord{1, 1}};
  CHECK(nested.offset(-1, -1) == Inner::offset(1 + 2 - 1, 2 + 1 - 1));
  CHECK(nested.offset(2, 2) == Inner::offset(1 + 2 + 2, 2 + 1 + 2));
}

TEST_CASE("window_error accepts inside windows and names straddling or outside ones", "[copy][window]") {
  const smemtile::PaddedLayout<6, 8, 1> inner{};
  // Inside, touching every edge, the whole tile.
  CHECK(smemtile::window_error(inner, Coord{0, 0}, 6, 8, Coord{0, 0}) == nullptr);
  CHECK(smemtile::window_error(inner, Coord{2, 3}, 4, 5, Coord{0, 0}) == nullptr);
  CHECK(smemtile::window_error(inner, Coord{5, 7}, 1, 1, Coord{0, 0}) == nullptr);
  CHECK(smemtile::window_error(inner, Coord{1, 1}, 4, 6, Coord{1, 1}) == nullptr);  // halo view of the whole tile
  CHECK(smemtile::window_error(inner, Coord{2, 3}, 2, 2, Coord{2, 3}) == nullptr);
  // Every window position and size, against the definition (start and end inside).
  for (int orow = -3; orow <= 8; ++orow)
    for (int ocol = -3; ocol <= 10; ++ocol)
      for (int rows = 1; rows <= 7; ++rows)
        for (int cols = 1; cols <= 9; ++cols)
          for (int hr = 0; hr <= 2; ++hr)
            for (int hc = 0; hc <= 2; ++hc) {
              const bool fits = orow - hr >= 0 && ocol - hc >= 0 && orow + rows + hr <= 6 && ocol + cols + hc <= 8;
              const char* error = smemtile::window_error(inner, Coord{orow, ocol}, rows, cols, Coord{hr, hc});
              INFO("origin (" << orow << ", " << ocol << "), " << rows << " x " << cols << ", reach (" << hr << ", "
                              << hc << ")");
              CHECK((error == nullptr) == fits);
              if (!fits) {
                const bool starts_inside = orow - hr >= 0 && ocol - hc >= 0 && orow - hr < 6 && ocol - hc < 8;
                CHECK(contains_message(error, starts_inside ? "ends outside" : "starts outside"));
              }
            }
  // Straddling each edge, and wholly outside.
  CHECK(contains_message(smemtile::window_error(inner, Coord{-1, 0}, 2, 2, Coord{0, 0}), "starts outside"));
  CHECK(contains_message(smemtile::window_error(inner, Coord{0, -1}, 2, 2, Coord{0, 0}), "starts outside"));
  CHECK(contains_message(smemtile::window_error(inner, Coord{5, 0}, 2, 2, Coord{0, 0}), "ends outside"));
  CHECK(contains_message(smemtile::window_error(inner, Coord{0, 7}, 2, 2, Coord{0, 0}), "ends outside"));
  CHECK(contains_message(smemtile::window_error(inner, Coord{10, 10}, 2, 2, Coord{0, 0}), "starts outside"));
  CHECK(contains_message(smemtile::window_error(inner, Coord{-5, -5}, 2, 2, Coord{0, 0}), "starts outside"));
  // A halo reaching past the tile although the interior is inside.
  CHECK(contains_message(smemtile::window_error(inner, Coord{0, 1}, 2, 2, Coord{1, 0}), "starts outside"));
  CHECK(contains_message(smemtile::window_error(inner, Coord{4, 1}, 1, 2, Coord{2, 0}), "ends outside"));
  // Invalid arguments.
  CHECK(contains_message(smemtile::window_error(inner, Coord{0, 0}, -1, 2, Coord{0, 0}), "negative number"));
  CHECK(contains_message(smemtile::window_error(inner, Coord{0, 0}, 2, -1, Coord{0, 0}), "negative number"));
  CHECK(contains_message(smemtile::window_error(inner, Coord{0, 0}, 2, 2, Coord{-1, 0}), "cannot be negative"));
  // An empty window touches nothing, wherever it is.
  CHECK(smemtile::window_error(inner, Coord{40, -40}, 0, 3, Coord{0, 0}) == nullptr);
  CHECK(smemtile::window_error(inner, Coord{40, -40}, 3, 0, Coord{0, 0}) == nullptr);
}

// ---- windows and halo views: tiles over host memory ----------------------------------------------

TEST_CASE("StaticTile on the host: window() and interior() address the expected storage", "[copy][window]") {
  smemtile::StaticTile<int, 7, 9, 2> tile;  // int[7][11]
  for (int i = 0; i < 7 * 11; ++i) tile.storage_[i] = 1000 + i;
  for (int r = 0; r < 7; ++r)
    for (int c = 0; c < 9; ++c) CHECK(&tile(r, c) == &tile.storage_[r * 11 + c]);

  // Every window that fits.
  for (int orow = 0; orow < 7; ++orow)
    for (int ocol = 0; ocol < 9; ++ocol)
      for (int rows = 1; orow + rows <= 7; ++rows)
        for (int cols = 1; ocol + cols <= 9; ++cols) {
          auto w = tile.window(Coord{orow, ocol}, rows, cols);
          REQUIRE(w.rows() == rows);
          REQUIRE(w.cols() == cols);
          for (int r = 0; r < rows; ++r)
            for (int c = 0; c < cols; ++c) {
              INFO("window at (" << orow << ", " << ocol << ") " << rows << " x " << cols << ", (" << r << ", " << c
                                 << ")");
              REQUIRE(&w(r, c) == &tile.storage_[(orow + r) * 11 + ocol + c]);
              REQUIRE(w(r, c) == 1000 + (orow + r) * 11 + ocol + c);
              REQUIRE(&w(Coord{r, c}) == &w(r, c));
            }
        }

  // Every halo: the interior is rows - 2 hr x cols - 2 hc, (0, 0) at (hr, hc), (-hr, -hc) at (0, 0).
  for (int hr = 0; 2 * hr < 7; ++hr)
    for (int hc = 0; 2 * hc < 9; ++hc) {
      auto v = tile.interior(Coord{hr, hc});
      REQUIRE(v.rows() == 7 - 2 * hr);
      REQUIRE(v.cols() == 9 - 2 * hc);
      REQUIRE(smemtile::layout_reach(v.layout()) == Coord{hr, hc});
      for (int r = -hr; r < v.rows() + hr; ++r)
        for (int c = -hc; c < v.cols() + hc; ++c) {
          INFO("halo (" << hr << ", " << hc << "), view element (" << r << ", " << c << ")");
          REQUIRE(&v(r, c) == &tile.storage_[(r + hr) * 11 + (c + hc)]);
        }
      // The corners of the halo are the tile's corners.
      CHECK(&v(-hr, -hc) == &tile(0, 0));
      CHECK(&v(v.rows() + hr - 1, v.cols() + hc - 1) == &tile(6, 8));
      // Writing through the view writes the tile.
      v(0, 0) = -7;
      CHECK(tile(hr, hc) == -7);
      tile(hr, hc) = 1000 + hr * 11 + hc;
    }

  // Through a const tile: read-only views of the same storage.
  const auto& ctile = tile;
  auto cv = ctile.interior(Coord{1, 2});
  static_assert(std::is_const<std::remove_reference_t<decltype(cv(0, 0))>>::value, "read-only through a const tile");
  CHECK(&cv(-1, -2) == &tile.storage_[0]);
  CHECK(cv(0, 0) == 1000 + 1 * 11 + 2);
}

TEST_CASE("RuntimeTile from make_runtime_tile: window() and interior() address the expected storage", "[copy][window]") {
  for (int rows = 1; rows <= 9; ++rows)
    for (int cols = 1; cols <= 11; cols += 2)
      for (int pad = 0; pad <= 3; ++pad) {
        std::vector<long> storage(static_cast<std::size_t>(rows) * (cols + pad));
        for (std::size_t i = 0; i < storage.size(); ++i) storage[i] = static_cast<long>(i);
        const smemtile::RuntimeTile<long> tile = smemtile::make_runtime_tile(storage.data(), rows, cols, pad);
        REQUIRE(tile.rows() == rows);
        REQUIRE(tile.cols() == cols);
        const int stride = cols + pad;
        for (int hr = 0; 2 * hr < rows; ++hr)
          for (int hc = 0; 2 * hc < cols; ++hc) {
            auto v = tile.interior(Coord{hr, hc});
            REQUIRE(v.rows() == rows - 2 * hr);
            REQUIRE(v.cols() == cols - 2 * hc);
            for (int r = -hr; r < v.rows() + hr; ++r)
              for (int c = -hc; c < v.cols() + hc; ++c) {
                INFO(rows << " x " << cols << " pad " << pad << ", halo (" << hr << ", " << hc << "), (" << r << ", "
                          << c << ")");
                REQUIRE(&v(r, c) == &storage[static_cast<std::size_t>((r + hr) * stride + c + hc)]);
              }
          }
        for (int orow = 0; orow < rows; orow += 2)
          for (int ocol = 0; ocol < cols; ocol += 3) {
            auto w = tile.window(Coord{orow, ocol}, rows - orow, cols - ocol);
            for (int r = 0; r < w.rows(); ++r)
              for (int c = 0; c < w.cols(); ++c)
                REQUIRE(&w(r, c) == &storage[static_cast<std::size_t>((orow + r) * stride + ocol + c)]);
          }
      }
}

TEST_CASE("1D tiles: t(i) and the halo view from t(-h) to t(n + h - 1)", "[copy][window]") {
  smemtile::StaticTile1D<int, 12> tile;
  for (int i = 0; i < 12; ++i) tile.storage_[i] = 50 + i;
  CHECK(tile.rows() == 1);
  CHECK(tile.cols() == 12);
  for (int i = 0; i < 12; ++i) CHECK(&tile(i) == &tile.storage_[i]);
  for (int h = 0; 2 * h < 12; ++h) {
    auto v = tile.interior(Coord{0, h});
    REQUIRE(v.rows() == 1);
    REQUIRE(v.cols() == 12 - 2 * h);
    REQUIRE(smemtile::layout_reach(v.layout()) == Coord{0, h});
    for (int i = -h; i < v.cols() + h; ++i) {
      INFO("halo " << h << ", i = " << i);
      REQUIRE(&v(i) == &tile.storage_[i + h]);
      REQUIRE(v(i) == 50 + i + h);
    }
    if (h > 0) {
      CHECK(&v(-1) == &tile.storage_[h - 1]);
      CHECK(&v(v.cols()) == &tile.storage_[v.cols() + h]);
    }
  }

  std::vector<double> storage(17);
  for (int n = 1; n <= 17; ++n) {
    const smemtile::RuntimeTile1D<double> t = smemtile::make_runtime_tile_1d(storage.data(), n);
    REQUIRE(t.cols() == n);
    for (int i = 0; i < n; ++i) REQUIRE(&t(i) == &storage[static_cast<std::size_t>(i)]);
    for (int h = 0; 2 * h < n; ++h) {
      auto v = t.interior(Coord{0, h});
      REQUIRE(v.cols() == n - 2 * h);
      for (int i = -h; i < v.cols() + h; ++i) REQUIRE(&v(i) == &storage[static_cast<std::size_t>(i + h)]);
    }
  }
}

// ---- boundary policies ----------------------------------------------------------------------------

TEST_CASE("Clamp Periodic and Reflect map every index from -3n-5 to 4n+5 as the references do", "[copy][boundary]") {
  using namespace smemtile::boundary;
  for (int n = 1; n <= 12; ++n)
    for (int i = -3 * n - 5; i <= 4 * n + 5; ++i) {
      INFO("n = " << n << ", i = " << i);
      REQUIRE(Clamp::map_index(i, n) == ref_clamp(i, n));
      REQUIRE(Periodic::map_index(i, n) == ref_periodic(i, n));
      REQUIRE(Reflect::map_index(i, n) == ref_reflect(i, n));
      // Inside, every policy is the identity.
      if (i >= 0 && i < n) {
        REQUIRE(Clamp::map_index(i, n) == i);
        REQUIRE(Periodic::map_index(i, n) == i);
        REQUIRE(Reflect::map_index(i, n) == i);
      }
    }
  // NumPy: np.pad(np.arange(4), 3, mode) at positions -3 .. 6.
  const int reflect4[] = {3, 2, 1, 0, 1, 2, 3, 2, 1, 0};
  const int wrap4[] = {1, 2, 3, 0, 1, 2, 3, 0, 1, 2};
  const int edge4[] = {0, 0, 0, 0, 1, 2, 3, 3, 3, 3};
  for (int i = -3; i <= 6; ++i) {
    CHECK(Reflect::map_index(i, 4) == reflect4[i + 3]);
    CHECK(Periodic::map_index(i, 4) == wrap4[i + 3]);
    CHECK(Clamp::map_index(i, 4) == edge4[i + 3]);
  }
  // The documented edge cases, at compile time.
  static_assert(Reflect::map_index(-1, 5) == 1 && Reflect::map_index(5, 5) == 3, "-1 -> 1, n -> n - 2");
  static_assert(Reflect::map_index(-7, 1) == 0 && Reflect::map_index(9, 1) == 0, "n == 1 -> 0");
  static_assert(Reflect::map_index(-1, 2) == 1 && Reflect::map_index(2, 2) == 0 && Reflect::map_index(3, 2) == 1,
                "n == 2 alternates");
  static_assert(Periodic::map_index(-1, 5) == 4 && Periodic::map_index(5, 5) == 0, "wrap");
  static_assert(Clamp::map_index(-2, 5) == 0 && Clamp::map_index(6, 5) == 4, "replicate");
  static_assert(Clamp::maps_index && Periodic::maps_index && Reflect::maps_index, "index policies");
  static_assert(!Zero::maps_index && !Constant<int>::maps_index, "fill policies");
  static_assert(Zero::is_zero && !Constant<int>::is_zero && !Clamp::is_zero, "only Zero is known to be zero");
}

TEST_CASE("Zero and Constant give their values converted to the element type", "[copy][boundary]") {
  using namespace smemtile::boundary;
  CHECK(zero.value<int>() == 0);
  CHECK(zero.value<float>() == 0.0f);
  CHECK(zero.value<double>() == 0.0);
  CHECK(zero.value<unsigned char>() == 0);
  struct alignas(16) Vec16 {
    int x, y, z, w;
  };
  const Vec16 z = zero.value<Vec16>();
  const Vec16 all_zero{0, 0, 0, 0};
  CHECK(std::memcmp(&z, &all_zero, sizeof(Vec16)) == 0);
  CHECK(constant(7).value<int>() == 7);
  CHECK(constant(7).value<float>() == 7.0f);
  CHECK(constant(2.75).value<int>() == 2);
  CHECK(constant(-1.5f).value<double>() == -1.5);
  CHECK(constant(300).value<unsigned char>() == static_cast<unsigned char>(300));
  const Vec16 v = constant(Vec16{1, 2, 3, 4}).value<Vec16>();
  CHECK((v.x == 1 && v.y == 2 && v.z == 3 && v.w == 4));
  static_assert(constant(5).value<long>() == 5L, "constexpr");
  static_assert(Zero{}.value<int>() == 0, "constexpr");
  // The namespace-scope objects are of the policy types.
  static_assert(std::is_same<std::remove_const_t<decltype(clamp)>, Clamp>::value, "clamp");
  static_assert(std::is_same<std::remove_const_t<decltype(periodic)>, Periodic>::value, "periodic");
  static_assert(std::is_same<std::remove_const_t<decltype(reflect)>, Reflect>::value, "reflect");
}

// ---- how a copy shares its work: vector widths and each lane's unit --------------------------------

namespace {

// The layouts the distribution tests walk: a padded tile (rows x cols, pad) or its halo view.
struct Shape {
  int rows, cols, pad, hr, hc;
};

std::vector<Shape> distribution_shapes() {
  std::vector<Shape> shapes;
  const int row_counts[] = {1, 2, 3, 5, 8, 9, 16, 33};
  const int col_counts[] = {1, 2, 3, 4, 5, 7, 8, 13, 16, 24, 31, 32, 33, 64, 100};
  const Coord halos[] = {{0, 0}, {1, 1}, {2, 0}, {0, 3}, {1, 2}};
  for (int rows : row_counts)
    for (int cols : col_counts)
      for (int pad = 0; pad <= 3; ++pad)
        for (Coord h : halos)
          if (2 * h.row < rows && 2 * h.col < cols) shapes.push_back(Shape{rows, cols, pad, h.row, h.col});
  return shapes;
}

// Checks copy_warp_access over every warp against the row-major walk of the region, computed from
// the padded formula (storage row * (cols + pad) + storage col) rather than through the layout.
template <class Layout>
void check_distribution(const Layout& layout, const Shape& s, int elem, int vec) {
  // The region a load copies is the whole tile (the halo view's interior plus its halo).
  const int region_rows = s.rows, region_cols = s.cols;
  const int units_per_row = region_cols * elem / vec;
  const int units = region_rows * units_per_row;
  const int per_unit = vec / elem;
  REQUIRE(units_per_row * vec == region_cols * elem);  // allowed widths cover rows exactly
  for (int warp = 0; warp * 32 < units + 32; ++warp) {
    const smemtile::WarpAccess access =
        smemtile::copy_warp_access(layout, elem, vec, warp, smemtile::AccessOp::load);
    REQUIRE(access.width_bytes == vec);
    REQUIRE(access.op == smemtile::AccessOp::load);
    for (int lane = 0; lane < 32; ++lane) {
      const int unit = 32 * warp + lane;
      INFO("warp " << warp << ", lane " << lane << ", unit " << unit);
      REQUIRE(access.active(lane) == (unit < units));
      if (unit >= units) continue;
      const int storage_row = unit / units_per_row, storage_col = unit % units_per_row * per_unit;
      const unsigned expected = static_cast<unsigned>((storage_row * (s.cols + s.pad) + storage_col) * elem);
      REQUIRE(access.byte_address[lane] == expected);
      // The same element through the view's own coordinates.
      REQUIRE(access.byte_address[lane] ==
              static_cast<unsigned>(layout.offset(storage_row - s.hr, storage_col - s.hc) * elem));
    }
  }
}

bool reference_allows_vector(const Shape& s, int elem, int vec) {
  if (vec == elem) return true;
  if (vec < elem || vec % elem != 0) return false;
  return ((s.cols + s.pad) * elem) % vec == 0 && (s.cols * elem) % vec == 0;  // region: the whole tile
}

}  // namespace

TEST_CASE("layout_allows_vector needs row stride and region width in whole vectors and contiguous rows",
          "[copy][distribution]") {
  const int elems[] = {1, 2, 4, 8, 16};
  for (const Shape& s : distribution_shapes())
    for (int elem : elems)
      for (int vec = 1; vec <= 16; vec *= 2) {
        INFO(s.rows << " x " << s.cols << " pad " << s.pad << ", halo (" << s.hr << ", " << s.hc << "), element "
                    << elem << " bytes, vector " << vec << " bytes");
        const smemtile::RuntimePaddedLayout tile{s.rows, s.cols, s.pad};
        if (s.hr == 0 && s.hc == 0) CHECK(smemtile::layout_allows_vector(tile, elem, vec) == reference_allows_vector(s, elem, vec));
        const smemtile::WindowLayout<smemtile::RuntimePaddedLayout> halo{tile, Coord{s.hr, s.hc}, s.rows - 2 * s.hr,
                                                                          s.cols - 2 * s.hc, Coord{s.hr, s.hc}};
        CHECK(smemtile::layout_allows_vector(halo, elem, vec) == reference_allows_vector(s, elem, vec));
      }
  // Hand-picked: 32 floats + 1 pad: rows are 132 bytes, so only 4-byte units.
  CHECK(smemtile::layout_allows_vector(smemtile::PaddedLayout<32, 32, 1>{}, 4, 4));
  CHECK_FALSE(smemtile::layout_allows_vector(smemtile::PaddedLayout<32, 32, 1>{}, 4, 8));
  CHECK(smemtile::layout_allows_vector(smemtile::PaddedLayout<32, 32, 4>{}, 4, 16));
  CHECK(smemtile::layout_allows_vector(smemtile::PaddedLayout<32, 32, 2>{}, 4, 8));
  CHECK_FALSE(smemtile::layout_allows_vector(smemtile::PaddedLayout<32, 32, 2>{}, 4, 16));
  // Narrower than the element, or not a multiple of it: never.
  CHECK_FALSE(smemtile::layout_allows_vector(smemtile::PaddedLayout<4, 32, 0>{}, 8, 4));
  // Swizzled and transposed rows are not contiguous: one element at a time.
  CHECK(smemtile::layout_allows_vector(smemtile::SwizzledLayout<32, 32, 4>{}, 4, 4));
  CHECK_FALSE(smemtile::layout_allows_vector(smemtile::SwizzledLayout<32, 32, 4>{}, 4, 8));
  CHECK_FALSE(smemtile::layout_allows_vector(smemtile::SwizzledLayout<32, 32, 4>{}, 4, 16));
  CHECK_FALSE(smemtile::layout_allows_vector(smemtile::transposed_layout(smemtile::PaddedLayout<32, 32, 0>{}), 4, 16));
  // 1D: the size decides.
  CHECK(smemtile::layout_allows_vector(smemtile::LinearLayout<96>{}, 4, 16));
  CHECK_FALSE(smemtile::layout_allows_vector(smemtile::LinearLayout<100>{}, 1, 16));
  CHECK(smemtile::layout_allows_vector(smemtile::LinearLayout<100>{}, 1, 4));
  CHECK(smemtile::layout_allows_vector(smemtile::RuntimeLinearLayout{100}, 2, 8));
}

TEST_CASE("copy_warp_access: lane t of warp w takes the first element of unit 32 w + t of the region",
          "[copy][distribution]") {
  const int elems[] = {1, 2, 4, 8, 16};
  int checked = 0;
  for (const Shape& s : distribution_shapes())
    for (int elem : elems)
      for (int vec = elem; vec <= 16; vec *= 2) {
        if (!reference_allows_vector(s, elem, vec)) continue;
        INFO(s.rows << " x " << s.cols << " pad " << s.pad << ", halo (" << s.hr << ", " << s.hc << "), element "
                    << elem << " bytes, vector " << vec << " bytes");
        const smemtile::RuntimePaddedLayout tile{s.rows, s.cols, s.pad};
        if (s.hr == 0 && s.hc == 0) check_distribution(tile, s, elem, vec);
        const smemtile::WindowLayout<smemtile::RuntimePaddedLayout> halo{tile, Coord{s.hr, s.hc}, s.rows - 2 * s.hr,
                                                                          s.cols - 2 * s.hc, Coord{s.hr, s.hc}};
        check_distribution(halo, s, elem, vec);
        ++checked;
      }
  CHECK(checked > 1000);
  // A static layout gives what the run-time one with the same shape gives.
  for (int warp = 0; warp < 8; ++warp) {
    const auto a = smemtile::copy_warp_access(smemtile::PaddedLayout<16, 24, 3>{}, 2, 2, warp, smemtile::AccessOp::store);
    const auto b =
        smemtile::copy_warp_access(smemtile::RuntimePaddedLayout{16, 24, 3}, 2, 2, warp, smemtile::AccessOp::store);
    CHECK(a.active_mask == b.active_mask);
    CHECK(std::memcmp(a.byte_address, b.byte_address, sizeof(a.byte_address)) == 0);
    CHECK(a.op == smemtile::AccessOp::store);
  }
  // Swizzled: one element per lane, at the swizzled offset of the row-major walk.
  using Swz = smemtile::SwizzledLayout<8, 64, 4>;
  for (int warp = 0; warp < 16; ++warp) {
    const auto a = smemtile::copy_warp_access(Swz{}, 4, 4, warp, smemtile::AccessOp::load);
    for (int lane = 0; lane < 32; ++lane) {
      const int k = 32 * warp + lane;
      CHECK(a.active(lane));
      CHECK(a.byte_address[lane] == static_cast<unsigned>(Swz::offset(k / 64, k % 64) * 4));
    }
  }
  // 1D: a row of n elements.
  const auto one_d = smemtile::copy_warp_access(smemtile::LinearLayout<40>{}, 8, 16, 0, smemtile::AccessOp::load);
  CHECK(one_d.active_mask == 0xFFFFFu);  // 20 units of two doubles
  for (int lane = 0; lane < 20; ++lane) CHECK(one_d.byte_address[lane] == static_cast<unsigned>(lane * 16));
}

// ---- bank costs of the copies ------------------------------------------------------------------------

namespace {
bool same_cost(smemtile::BankCost a, smemtile::BankCost b) {
  return a.wavefronts == b.wavefronts && a.ideal_wavefronts == b.ideal_wavefronts && a.conflicts == b.conflicts &&
         a.requests == b.requests;
}
}  // namespace

TEST_CASE("copy_bank_cost and copy_conflict_free of padded auto-padded swizzled and 1D layouts",
          "[copy][banks]") {
  using smemtile::BankCost;
  using smemtile::PaddedLayout;
  // 32 x 32 floats, no pad: 16-byte units, a quarter-warp phase moves one 128-byte line: 8 warps x 4
  // phases, one wavefront each. 4-byte units: 32 warps of one line each.
  CHECK(same_cost(smemtile::copy_bank_cost(PaddedLayout<32, 32, 0>{}, 4, 16), BankCost{32, 32, 0, 8}));
  CHECK(same_cost(smemtile::copy_bank_cost(PaddedLayout<32, 32, 0>{}, 4, 8), BankCost{32, 32, 0, 16}));
  CHECK(same_cost(smemtile::copy_bank_cost(PaddedLayout<32, 32, 0>{}, 4, 4), BankCost{32, 32, 0, 32}));
  CHECK(smemtile::copy_conflict_free(PaddedLayout<32, 32, 0>{}, 4));
  // Pad 1: rows of 33 words; a warp is one row, 32 consecutive words.
  CHECK(same_cost(smemtile::copy_bank_cost(PaddedLayout<32, 32, 1>{}, 4, 4), BankCost{32, 32, 0, 32}));
  CHECK(smemtile::copy_conflict_free(PaddedLayout<32, 32, 1>{}, 4));
  // Pad 2: rows of 136 bytes allow 8-byte units; a half-warp phase is one row (128 bytes).
  CHECK(same_cost(smemtile::copy_bank_cost(PaddedLayout<32, 32, 2>{}, 4, 8), BankCost{32, 32, 0, 16}));
  CHECK(smemtile::copy_conflict_free(PaddedLayout<32, 32, 2>{}, 4));
  // The automatic pad for 32 x 32 (rows and columns conflict-free) also makes copies conflict-free.
  CHECK(smemtile::auto_pad_v<float, 32, 32> == 1);
  CHECK(smemtile::copy_conflict_free(PaddedLayout<32, 32, smemtile::auto_pad_v<float, 32, 32>>{}, 4));
  CHECK(smemtile::copy_conflict_free(PaddedLayout<32, 32, smemtile::auto_pad_v<double, 32, 32>>{}, 8));
  // Not for 2- and 1-byte elements: their automatic pads (2 shorts, 4 chars) make rows of 68 and 36
  // bytes, which allow 4-byte units, and a warp of those spans 2 (4) rows: words W..W+15 and
  // W+17..W+32 (W+0..7, W+9..16, W+18..25, W+27..34), so W+32 (and W+33, W+34) share banks with W
  // (W+1, W+2): 2-way, one conflict per warp. The element-wide walk alone would be conflict-free.
  // A copy into an AutoPaddedTile<short or char, 32, 32> therefore does not compile.
  CHECK(smemtile::auto_pad_v<short, 32, 32> == 2);
  CHECK(smemtile::auto_pad_v<char, 32, 32> == 4);
  CHECK(same_cost(smemtile::copy_bank_cost(PaddedLayout<32, 32, 2>{}, 2, 4), BankCost{32, 16, 16, 16}));
  CHECK(same_cost(smemtile::copy_bank_cost(PaddedLayout<32, 32, 2>{}, 2, 2), BankCost{32, 32, 0, 32}));
  CHECK_FALSE(smemtile::copy_conflict_free(PaddedLayout<32, 32, smemtile::auto_pad_v<short, 32, 32>>{}, 2));
  CHECK(same_cost(smemtile::copy_bank_cost(PaddedLayout<32, 32, 4>{}, 1, 4), BankCost{16, 8, 8, 8}));
  CHECK(same_cost(smemtile::copy_bank_cost(PaddedLayout<32, 32, 4>{}, 1, 1), BankCost{32, 32, 0, 32}));
  CHECK_FALSE(smemtile::copy_conflict_free(PaddedLayout<32, 32, smemtile::auto_pad_v<char, 32, 32>>{}, 1));
  // Swizzled: the row-major walk only permutes elements inside each 128-byte line.
  CHECK(same_cost(smemtile::copy_bank_cost(smemtile::SwizzledLayout<32, 32, 4>{}, 4, 4), BankCost{32, 32, 0, 32}));
  CHECK(same_cost(smemtile::copy_bank_cost(smemtile::SwizzledLayout<16, 32, 8>{}, 8, 8), BankCost{32, 32, 0, 16}));
  CHECK(same_cost(smemtile::copy_bank_cost(smemtile::SwizzledLayout<8, 16, 16>{}, 16, 16), BankCost{16, 16, 0, 4}));
  CHECK(smemtile::copy_conflict_free(smemtile::SwizzledLayout<32, 32, 4>{}, 4));
  CHECK(smemtile::copy_conflict_free(smemtile::SwizzledLayout<4, 16, 8>{}, 8));
  CHECK(smemtile::copy_conflict_free(smemtile::SwizzledLayout<8, 16, 16>{}, 16));
  // 1D: 96 floats in 16-byte units = 24 lanes of one warp, 3 quarter-warp phases.
  CHECK(same_cost(smemtile::copy_bank_cost(smemtile::LinearLayout<96>{}, 4, 16), BankCost{3, 3, 0, 1}));
  CHECK(same_cost(smemtile::copy_bank_cost(smemtile::LinearLayout<100>{}, 1, 4), BankCost{1, 1, 0, 1}));
  CHECK(smemtile::copy_conflict_free(smemtile::LinearLayout<1000>{}, 2));
  // Padded tiles every element size accepts (used by the GPU tests).
  for (int elem : {1, 2, 4, 8, 16}) {
    INFO("element " << elem << " bytes");
    CHECK(smemtile::copy_conflict_free(PaddedLayout<8, 32, 0>{}, elem));
    CHECK(smemtile::copy_conflict_free(PaddedLayout<32, 8, 0>{}, elem));
    CHECK(smemtile::copy_conflict_free(PaddedLayout<5, 7, 0>{}, elem));
    CHECK(smemtile::copy_conflict_free(PaddedLayout<8, 32, 1>{}, elem));
    CHECK(smemtile::copy_conflict_free(PaddedLayout<16, 16, 1>{}, elem) == (elem != 4));
  }
  // A halo view counts its halo: 10 x 34 floats, reach (1, 1), is the whole (unpadded) tile.
  const smemtile::WindowLayout<PaddedLayout<10, 34, 0>> halo{{}, Coord{1, 1}, 8, 32, Coord{1, 1}};
  CHECK(same_cost(smemtile::copy_bank_cost(halo, 4, 8), smemtile::copy_bank_cost(PaddedLayout<10, 34, 0>{}, 4, 8)));
  CHECK(smemtile::copy_conflict_free(halo, 4));
}

TEST_CASE("copy_bank_cost finds the 2-way conflicts of a 64 x 4 tile of floats padded by 1 (by hand)", "[copy][banks]") {
  // Rows of 4 words with one word of padding: lane t takes word 5 (t / 4) + t % 4. Warp 0 covers
  // rows 0..7: words 0-3, 5-8, 10-13, 15-18, 20-23, 25-28, 30-33, 35-38. Words 32, 33, 35, 37 and
  // 38 fall on banks 0, 1, 3, 5 and 6, which words 0, 1, 3, 5 and 6 already use (word 36 would hit
  // bank 4, but 4 is padding): the busiest bank serves 2 words, 2 wavefronts for an ideal 1. Warp
  // w starts 40 w words further, which shifts the banks but not the pattern: 8 warps (64 x 4 units)
  // each cost 2 wavefronts, 1 of them a conflict.
  using L = smemtile::PaddedLayout<64, 4, 1>;
  const smemtile::WarpAccess warp0 = smemtile::copy_warp_access(L{}, 4, 4, 0, smemtile::AccessOp::store);
  const int words[32] = {0, 1, 2, 3, 5, 6, 7, 8, 10, 11, 12, 13, 15, 16, 17, 18,
                         20, 21, 22, 23, 25, 26, 27, 28, 30, 31, 32, 33, 35, 36, 37, 38};
  for (int lane = 0; lane < 32; ++lane) CHECK(warp0.byte_address[lane] == static_cast<unsigned>(words[lane] * 4));
  const smemtile::BankCost one = smemtile::bank_cost(warp0);
  CHECK(one.wavefronts == 2);
  CHECK(one.ideal_wavefronts == 1);
  CHECK(one.conflicts == 1);
  CHECK(one.degree() == 2);
  CHECK(same_cost(smemtile::copy_bank_cost(L{}, 4, 4), smemtile::BankCost{16, 8, 8, 8}));
  CHECK_FALSE(smemtile::copy_conflict_free(L{}, 4));
  // Rows of 20 bytes allow no wider unit, so no other width can save it.
  CHECK_FALSE(smemtile::layout_allows_vector(L{}, 4, 8));
  CHECK_FALSE(smemtile::layout_allows_vector(L{}, 4, 16));
  // 16 x 16 floats with one pad: a warp spans two rows, words 0-15 and 17-32: word 32 on bank 0.
  CHECK(same_cost(smemtile::copy_bank_cost(smemtile::PaddedLayout<16, 16, 1>{}, 4, 4), smemtile::BankCost{16, 8, 8, 8}));
  CHECK_FALSE(smemtile::copy_conflict_free(smemtile::PaddedLayout<16, 16, 1>{}, 4));
  // Without the pad (or with 16 elements of it) the same walk is conflict-free.
  CHECK(smemtile::copy_conflict_free(smemtile::PaddedLayout<64, 4, 0>{}, 4));
  CHECK(same_cost(smemtile::copy_bank_cost(smemtile::PaddedLayout<64, 4, 0>{}, 4, 4), smemtile::BankCost{8, 8, 0, 8}));
}

// ---- the lean forms' compile-time facts -------------------------------------------------------------

#include <smemtile/block/fragment.cuh>
#include <smemtile/block/transposed_load.cuh>

TEST_CASE("layout_pitched: unit last stride, pitches, spans and the alignment a view's type guarantees") {
  using smemtile::layout_pitched;
  using Map2 = layout_pitched<1>::mapping<cuda::std::dextents<int, 2>>;
  const Map2 m(cuda::std::dextents<int, 2>(3, 5), cuda::std::array<int, 1>{7});
  CHECK(m.stride(1) == 1);
  CHECK(m.stride(0) == 7);
  CHECK(m(2, 4) == 18);
  CHECK(m.required_span_size() == 19);
  CHECK(!m.is_exhaustive());
  const Map2 dense(cuda::std::dextents<int, 2>(3, 5));
  CHECK(dense.stride(0) == 5);
  CHECK(dense.is_exhaustive());
  using Map3 = layout_pitched<1>::mapping<cuda::std::dextents<int, 3>>;
  const Map3 v(cuda::std::dextents<int, 3>(2, 3, 4), cuda::std::array<int, 2>{20, 6});
  CHECK(v(1, 2, 3) == 20 + 12 + 3);
  CHECK(v.required_span_size() == 20 + 12 + 4);
  static_assert(smemtile::guaranteed_row_alignment<smemtile::AlignedMatrix<float, 16>>() == 16, "");
  static_assert(smemtile::guaranteed_row_alignment<smemtile::AlignedMatrix<double, 8>>() == 8, "");
  static_assert(smemtile::guaranteed_row_alignment<smemtile::GlobalMatrix<float>>() == 4, "");
  static_assert(smemtile::guaranteed_row_alignment<smemtile::GlobalMatrix<unsigned char>>() == 1, "");
  static_assert(smemtile::guaranteed_row_alignment<smemtile::GlobalArray<float, 2>>() == 0, "");
  static_assert(smemtile::guaranteed_row_alignment<smemtile::AlignedVector<float, 16>>() == 16, "");
}

TEST_CASE("fragments: access widths, the layouts that keep them whole, a warp's bank cost") {
  CHECK(smemtile::fragment_access_bytes(4, 8) == 16);
  CHECK(smemtile::fragment_access_bytes(4, 2) == 8);
  CHECK(smemtile::fragment_access_bytes(4, 3) == 4);
  CHECK(smemtile::fragment_access_bytes(2, 3) == 2);
  CHECK(smemtile::fragment_access_bytes(1, 12) == 4);
  CHECK(smemtile::fragment_access_bytes(16, 1) == 16);
  CHECK(smemtile::layout_allows_fragment(smemtile::PaddedLayout<8, 128, 4>{}, 4, 8));
  CHECK(!smemtile::layout_allows_fragment(smemtile::PaddedLayout<32, 32, 1>{}, 4, 4));
  CHECK(smemtile::layout_allows_fragment(smemtile::PaddedLayout<32, 32, 1>{}, 4, 1));
  // The SGEMM's reads: lane l of a 16 x 16 thread grid reads 4 floats at (k, 8 * (l % 16) + 4 * piece).
  const auto sgemm_b = [](int lane) { return smemtile::Coord{0, 8 * (lane % 16)}; };
  // (16-byte reads 32 bytes apart: each quarter-warp phase of 8 lanes spans 256 bytes, 2-way.)
  CHECK(smemtile::fragment_bank_cost(smemtile::PaddedLayout<8, 128, 0>{}, 4, 8, sgemm_b).conflicts == 8);
  // Lanes reading 4 floats down a 32-float-wide tile's rows (stride 32 words): 8-way per quarter.
  const auto down = [](int lane) { return smemtile::Coord{lane, 0}; };
  CHECK(smemtile::fragment_bank_cost(smemtile::PaddedLayout<32, 32, 0>{}, 4, 4, down).conflicts > 0);
  CHECK(smemtile::fragment_bank_cost(smemtile::PaddedLayout<32, 32, 4>{}, 4, 4, down).conflicts == 0);
}

TEST_CASE("transposed loads: the bank model finds the SGEMM's k-major A tile's pad") {
  // 8 x 128 floats (BK x BM), 16-byte loads: two lanes per A row store 4 tile rows apart; rows of
  // 128 floats put them on one bank (2-way), rows of 132 on banks 16 apart.
  CHECK(smemtile::transposed_load_bank_cost(smemtile::PaddedLayout<8, 128, 0>{}, 4, 16).conflicts > 0);
  CHECK(smemtile::transposed_load_bank_cost(smemtile::PaddedLayout<8, 128, 4>{}, 4, 16).conflicts == 0);
  CHECK(smemtile::smallest_transposed_load_pad(4, 8, 128) == 4);
  static_assert(smemtile::transposed_load_pad<float, 8, 128>::value == 4, "");
  // No 16-byte-aligned pad makes 16 x 64 floats conflict-free: the smallest unaligned one (2).
  CHECK(smemtile::smallest_transposed_load_pad(4, 16, 64) == 2);
  CHECK(smemtile::transposed_load_bank_cost(smemtile::PaddedLayout<16, 64, 2>{}, 4, 16).conflicts == 0);
  CHECK(smemtile::smallest_transposed_load_pad(8, 8, 64) % 2 == 0);
}

namespace {
struct HostGroup256 {
  static constexpr int static_size = 256;
};
struct HostGroup32 {
  static constexpr int static_size = 32;
};
}  // namespace

TEST_CASE("copy widths from the types: a halo tile's interior start bounds the width of its stores") {
  using smemtile::detail::static_unit_bytes;
  // Loads start at the storage's first element; stores at the interior's (0, 0).
  using Halo2 = smemtile::HaloLayout<16, 32, 2, 2>;  // rows of 36 floats (144 bytes); (0, 0) at byte 296
  static_assert(static_unit_bytes<true, float, 16, Halo2>() == 8, "");
  static_assert(static_unit_bytes<false, float, 16, Halo2>() == 8, "");  // 16 before: misaligned LDS.128
  using Halo1 = smemtile::HaloLayout<16, 32, 1, 1>;  // rows of 136 bytes; (0, 0) at byte 140
  static_assert(static_unit_bytes<true, float, 16, Halo1>() == 4, "");
  static_assert(static_unit_bytes<false, float, 16, Halo1>() == 4, "");  // 8 before
  using Halo4 = smemtile::HaloLayout<8, 32, 1, 4>;  // rows of 160 bytes; (0, 0) at byte 176
  static_assert(static_unit_bytes<false, float, 16, Halo4>() == 16, "");
  using Halo1D = smemtile::HaloLayout<1, 64, 0, 1, 0, 1>;  // 66 floats; interior from byte 4
  static_assert(static_unit_bytes<false, float, 16, Halo1D>() == 4, "");
  static_assert(static_unit_bytes<false, float, 16, smemtile::PaddedLayout<8, 32, 4>>() == 16, "");
  using Aligned = smemtile::AlignedMatrix<float, 16>;
  using Vector = smemtile::AlignedVector<float, 16>;
  // A warp storing the 1D halo tile's interior: element units (it took 8-byte units from byte 4).
  static_assert(smemtile::detail::known_unit_bytes<false, float, Vector, Halo1D, HostGroup32>() == 4, "");
  static_assert(smemtile::detail::known_unit_bytes<false, float, Aligned, Halo2, HostGroup256>() == 8, "");
  static_assert(smemtile::detail::known_unit_bytes<true, float, Aligned, smemtile::PaddedLayout<8, 32>, HostGroup32>() == 16, "");
  // A plain matrix of floats guarantees 4 bytes: no width known unless the group takes elements.
  static_assert(smemtile::detail::known_unit_bytes<true, float, smemtile::GlobalMatrix<float>,
                                                   smemtile::PaddedLayout<8, 32>, HostGroup32>() == 0, "");
  static_assert(smemtile::detail::known_unit_bytes<true, float, smemtile::GlobalMatrix<float>,
                                                   smemtile::PaddedLayout<16, 16>, HostGroup256>() == 4, "");
}

TEST_CASE("transposed loads: a group's narrower width is taken only where its stores stay conflict-free") {
  using smemtile::detail::transposed_load_bytes;
  using smemtile::PaddedLayout;
  // TransposedLoadTile<float, 4, 128>: pad 0, conflict-free in 16-byte units; 256 threads would
  // divide 8-byte units evenly, whose stores conflict (the bank check refused the tile it proposes).
  constexpr int pad_f = smemtile::transposed_load_pad<float, 4, 128>::value;
  static_assert(transposed_load_bytes<float, PaddedLayout<4, 128, pad_f>, HostGroup256>() == 16, "");
  CHECK(smemtile::transposed_load_bank_cost(PaddedLayout<4, 128, pad_f>{}, 4, 8).conflicts > 0);
  constexpr int pad_b = smemtile::transposed_load_pad<unsigned char, 16, 128>::value;
  constexpr int bytes_b = transposed_load_bytes<unsigned char, PaddedLayout<16, 128, pad_b>, HostGroup256>();
  CHECK(smemtile::transposed_load_bank_cost(PaddedLayout<16, 128, pad_b>{}, 1, bytes_b).conflicts == 0);
  // Where the narrower width is conflict-free it is still taken (every thread the same count).
  static_assert(transposed_load_bytes<float, PaddedLayout<8, 128, 4>, HostGroup256>() == 16, "");
}
