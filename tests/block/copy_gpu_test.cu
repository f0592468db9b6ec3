// GPU tests of the cooperative copies (block/copy.cuh): copy_global_to_tile and copy_tile_to_global.
//
// Every case is random (seed printed with INFO): the global matrix's shape (1..300 x 1..300), its
// pitch (== cols, cols + a little, odd), a base pointer offset of 0..7 elements (misaligned rows),
// the tile (StaticTile shapes and pads the bank model accepts, a RuntimeTile carved from dynamic
// shared memory behind 0..7 leading elements, a SwizzledTile), halo views, the boundary policy, the
// thread group and the origin (inside, straddling every edge and corner, wholly outside).
//  - global -> tile: the kernel loads, synchronizes, and dumps every element the view covers (halo
//    included) through the tile's accessors into a poisoned buffer; the host compares each element
//    with its own reference (its own clamp / wrap / mirror code, not the library's map_index).
//  - tile -> global: the kernel fills the view from a formula of (row, col), synchronizes and stores
//    into a poisoned allocation; every element of the array inside the tile's region must hold the
//    formula, every other byte of the allocation (outside the region, pitch padding, guard elements
//    before and after) must still be the poison.
// Allocations of the global array are often exactly sized (no slack before or after), so that
// compute-sanitizer's memcheck flags a read or write outside the array.
#include <smemtile/smemtile.cuh>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <memory>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "gpu_test.cuh"

namespace {

using smemtile::Coord;
using smemtile_test::DeviceBuffer;
using smemtile_test::poison_byte;
using smemtile_test::same_bytes;

// ---- element types of 1, 2, 4, 8 and 16 bytes ------------------------------------------------------

struct alignas(16) Vec16 {
  int x, y, z, w;
};
__host__ __device__ inline bool operator==(const Vec16& a, const Vec16& b) {
  return a.x == b.x && a.y == b.y && a.z == b.z && a.w == b.w;
}
static_assert(sizeof(Vec16) == 16, "Vec16 is a 16-byte element");

// The value the tile -> global tests store at tile position (row, col): hashed bytes, the first
// byte below 0x80, so that no element is ever all poison bytes (0xA5).
__host__ __device__ inline unsigned hash3(unsigned a, unsigned b, unsigned c) {
  unsigned h = a * 0x9E3779B1u ^ (b + 0x7F4A7C15u) * 0x85EBCA77u ^ (c + 0x165667B1u) * 0xC2B2AE3Du;
  h ^= h >> 15;
  h *= 0x2C1B3C6Du;
  h ^= h >> 12;
  h *= 0x297A2D39u;
  h ^= h >> 15;
  return h;
}
template <class T>
__host__ __device__ T pattern(int row, int col, unsigned salt) {
  T value{};
  unsigned char* bytes = reinterpret_cast<unsigned char*>(&value);
  for (int i = 0; i < static_cast<int>(sizeof(T)); ++i)
    bytes[i] = static_cast<unsigned char>(hash3(static_cast<unsigned>(row), static_cast<unsigned>(col),
                                                salt + 977u * static_cast<unsigned>(i)) >> 8);
  bytes[0] &= 0x7F;
  return value;
}

// Element comparison: bitwise (random bytes may form NaNs), member-wise for the 16-byte struct.
template <class T>
bool equal_elements(const T& a, const T& b) {
  return same_bytes(a, b);
}
bool equal_elements(const Vec16& a, const Vec16& b) { return a == b; }

template <class T>
std::string type_name();
template <> std::string type_name<unsigned char>() { return "unsigned char"; }
template <> std::string type_name<short>() { return "short"; }
template <> std::string type_name<float>() { return "float"; }
template <> std::string type_name<double>() { return "double"; }
template <> std::string type_name<Vec16>() { return "Vec16"; }

// The value boundary::constant fills with (a plain value: no NaN payload questions).
template <class T>
T constant_value(std::mt19937& rng) {
  return static_cast<T>(1 + static_cast<int>(rng() % 100));
}
template <>
Vec16 constant_value<Vec16>(std::mt19937& rng) {
  return Vec16{static_cast<int>(rng()), static_cast<int>(rng()), static_cast<int>(rng()), static_cast<int>(rng())};
}

// ---- boundary policies: ids, host dispatch, and the host's own reference -------------------------

enum PolicyId : int { kZero, kConstant, kClamp, kPeriodic, kReflect, policy_count };
constexpr unsigned all_policies = 0x1F;
const char* const policy_names[] = {"zero", "constant", "clamp", "periodic", "reflect"};

// Calls f(policy object) for policy `id`, instantiating only the policies in Mask.
template <unsigned Mask, class T, class F>
void with_policy(int id, T constant, F&& f) {
  switch (id) {
    case kZero: if constexpr ((Mask & (1u << kZero)) != 0) { f(smemtile::boundary::Zero{}); return; } break;
    case kConstant: if constexpr ((Mask & (1u << kConstant)) != 0) { f(smemtile::boundary::Constant<T>{constant}); return; } break;
    case kClamp: if constexpr ((Mask & (1u << kClamp)) != 0) { f(smemtile::boundary::Clamp{}); return; } break;
    case kPeriodic: if constexpr ((Mask & (1u << kPeriodic)) != 0) { f(smemtile::boundary::Periodic{}); return; } break;
    case kReflect: if constexpr ((Mask & (1u << kReflect)) != 0) { f(smemtile::boundary::Reflect{}); return; } break;
    default: break;
  }
  FAIL("policy " << id << " is not instantiated for this kernel");
}

int random_policy(std::mt19937& rng, unsigned mask) {
  for (;;) {
    const int id = static_cast<int>(rng() % policy_count);
    if ((mask >> id) & 1u) return id;
  }
}

// Index i of an extent-n axis under an index policy, written independently of boundary.cuh.
int reference_index(int policy, int i, int n) {
  switch (policy) {
    case kClamp: return std::min(std::max(i, 0), n - 1);
    case kPeriodic:
      while (i < 0) i += n;
      while (i >= n) i -= n;
      return i;
    default:  // kReflect: mirror about the edge elements until inside
      if (n == 1) return 0;
      while (i < 0 || i >= n) i = i < 0 ? -i : 2 * (n - 1) - i;
      return i;
  }
}

// ---- the global array ----------------------------------------------------------------------------

// A rows x cols matrix with a pitch, `offset` elements into its allocation; `after` elements of
// the allocation follow the last element of the last row.
template <class T>
struct GlobalCase {
  int rows = 1, cols = 1, pitch = 1, offset = 0, after = 0;
  std::vector<T> host;                    // the whole allocation
  std::unique_ptr<DeviceBuffer<T>> device;

  std::size_t allocation() const {
    return static_cast<std::size_t>(offset) + static_cast<std::size_t>(rows - 1) * pitch + cols + after;
  }
  std::size_t index(int row, int col) const { return static_cast<std::size_t>(offset) + std::size_t(row) * pitch + col; }
  T* device_matrix() const { return device->get() + offset; }
  std::string describe() const {
    std::ostringstream s;
    s << "global " << rows << " x " << cols << ", pitch " << pitch << ", base offset " << offset << ", "
      << after << " elements after";
    return s.str();
  }
};

int random_extent(std::mt19937& rng) {
  switch (rng() % 4) {
    case 0: return 1 + static_cast<int>(rng() % 4);  // smaller than most tiles and halos
    case 1: return 1 + static_cast<int>(rng() % 40);
    default: return 1 + static_cast<int>(rng() % 300);
  }
}

// A random shape, pitch and base offset. `aligned`: offset 0 and a pitch of whole 16-byte vectors,
// so that the copies' widest accesses can be used. `exact`: nothing around the array (pitch ==
// cols, no slack), for memcheck.
template <class T>
void random_global_shape(GlobalCase<T>& g, std::mt19937& rng, bool aligned, bool exact, int rows, int cols) {
  g.rows = rows;
  g.cols = cols;
  const int per_vector = std::max(1, 16 / static_cast<int>(sizeof(T)));
  switch (rng() % 3) {
    case 0: g.pitch = g.cols; break;
    case 1: g.pitch = g.cols + 1 + static_cast<int>(rng() % 7); break;
    default: g.pitch = (g.cols + static_cast<int>(rng() % 40)) | 1; break;
  }
  g.offset = static_cast<int>(rng() % 8);
  g.after = rng() % 2 ? 0 : static_cast<int>(rng() % 9);
  if (aligned) {
    g.offset = 0;
    g.pitch = (g.pitch + per_vector - 1) / per_vector * per_vector;
  }
  if (exact) {
    g.offset = 0;
    g.after = 0;
    if (!aligned) g.pitch = g.cols;
  }
}

// Loads: random contents, uploaded.
template <class T>
void make_load_global(GlobalCase<T>& g, unsigned seed) {
  g.host = smemtile_test::random_values<T>(g.allocation(), seed);
  g.device = std::make_unique<DeviceBuffer<T>>(g.allocation());
  g.device->upload(g.host);
}

// Stores: an allocation of poison.
template <class T>
void make_store_global(GlobalCase<T>& g) {
  g.device = std::make_unique<DeviceBuffer<T>>(g.allocation());
  g.device->poison();
}

// The first element (on one axis) of a region of `m` elements over an axis of `n`:
// 0 inside (or covering the axis when m > n), 1 straddling the low edge, 2 the high edge,
// 3 wholly before, 4 wholly after.
int axis_first(std::mt19937& rng, int n, int m, int where) {
  auto uniform = [&](int lo, int hi) { return lo + static_cast<int>(rng() % static_cast<unsigned>(hi - lo + 1)); };
  switch (where) {
    case 0: return m <= n ? uniform(0, n - m) : uniform(n - m, 0);
    case 1: return m >= 2 ? uniform(-m + 1, -1) : -1;
    case 2: return m >= 2 ? uniform(std::max(n - m + 1, -m + 1), n - 1) : n;
    case 3: return uniform(-m - 20, -m);
    default: return uniform(n, n + 20);
  }
}
const char* const where_names[] = {"inside", "straddling low edge", "straddling high edge", "wholly before",
                                   "wholly after"};

// A random origin for a view of interior rows x cols with halo `reach` (so its region starts at
// origin - reach); `aligned` moves the region's first column to a whole 16-byte vector.
template <class T>
Coord random_origin(std::mt19937& rng, const GlobalCase<T>& g, int rows, int cols, Coord reach, bool aligned,
                    std::string& where) {
  int wr = 0, wc = 0;
  if (rng() % 3 != 0) {  // else both inside
    wr = static_cast<int>(rng() % 5);
    wc = static_cast<int>(rng() % 5);
  }
  const int region_rows = rows + 2 * reach.row, region_cols = cols + 2 * reach.col;
  const int first_row = axis_first(rng, g.rows, region_rows, wr);
  int first_col = axis_first(rng, g.cols, region_cols, wc);
  const int per_vector = std::max(1, 16 / static_cast<int>(sizeof(T)));
  if (aligned && wc == 0 && first_col >= 0 && first_col % per_vector != 0) {
    const int down = first_col / per_vector * per_vector;
    first_col = down;
  }
  where = std::string("rows ") + where_names[wr] + ", cols " + where_names[wc];
  return Coord{first_row + reach.row, first_col + reach.col};
}

// ---- kernel arguments and device helpers -----------------------------------------------------------

template <class T>
struct LoadArgs {
  const T* global;   // element (0, 0)
  int rows, cols, pitch;
  Coord origin[4];   // per warp for the Warp group, [0] otherwise
  int halo_view;     // copy into tile.interior({hr, hc}) instead of the tile
  int hr, hc;
  int lead, trows, tcols, tpad;  // the RuntimeTile: leading elements carved before it, its shape
  T* out;            // the dump: each slot's region, row-major, halo included
};

template <class T>
struct StoreArgs {
  T* global[4];      // element (0, 0) of each slot's matrix
  int rows, cols, pitch;
  Coord origin[4];
  int halo_view;
  int hr, hc;
  int lead, trows, tcols, tpad;
  unsigned salt;
};

// Tiles per block: the Warp group gives each warp of a 128-thread block its own tile.
template <class Group>
struct GroupSlots {
  static constexpr int value = 1;
};
template <>
struct GroupSlots<smemtile::Warp> {
  static constexpr int value = 4;
};
template <class Group>
__device__ int slot_of() {
  if constexpr (GroupSlots<Group>::value == 1) {
    return 0;
  } else {
    return static_cast<int>(((threadIdx.z * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x) / 32u);
  }
}

// Load `view` at the slot's origin, sync the group, dump every element the view covers.
template <class T, class View, class Policy, class Group>
__device__ void load_and_dump(const LoadArgs<T>& a, View&& view, const Policy& policy, Group group, int slot) {
  const auto in = smemtile::make_global_matrix(a.global, a.rows, a.cols, a.pitch);
  smemtile::copy_global_to_tile(in, a.origin[slot], view, policy, group);
  group.sync();
  const Coord reach = smemtile::layout_reach(view.layout());
  const int region_cols = view.cols() + 2 * reach.col;
  const int count = (view.rows() + 2 * reach.row) * region_cols;
  T* out = a.out + slot * count;
  for (int k = static_cast<int>(group.rank()); k < count; k += static_cast<int>(group.size()))
    out[k] = view(k / region_cols - reach.row, k % region_cols - reach.col);
}

// Fill every element `view` covers with pattern(row, col), sync, store at the slot's origin.
template <class T, class View, class Group>
__device__ void fill_and_store(const StoreArgs<T>& a, View&& view, Group group, int slot) {
  const Coord reach = smemtile::layout_reach(view.layout());
  const int region_cols = view.cols() + 2 * reach.col;
  const int count = (view.rows() + 2 * reach.row) * region_cols;
  for (int k = static_cast<int>(group.rank()); k < count; k += static_cast<int>(group.size())) {
    const int r = k / region_cols - reach.row, c = k % region_cols - reach.col;
    view(r, c) = pattern<T>(r, c, a.salt + static_cast<unsigned>(slot));
  }
  group.sync();
  const auto out = smemtile::make_global_matrix(a.global[slot], a.rows, a.cols, a.pitch);
  smemtile::copy_tile_to_global(view, out, a.origin[slot], group);
}

template <class T, class Tile, class Group, bool Halo, class Policy>
__global__ void load_static_kernel(LoadArgs<T> a, Policy policy) {
  __shared__ Tile tiles[GroupSlots<Group>::value];
  const int slot = slot_of<Group>();
  if constexpr (Halo) {
    load_and_dump(a, tiles[slot].interior(Coord{a.hr, a.hc}), policy, Group{}, slot);
  } else {
    load_and_dump(a, tiles[slot], policy, Group{}, slot);
  }
}

template <class T, class Tile, class Group, bool Halo>
__global__ void store_static_kernel(StoreArgs<T> a) {
  __shared__ Tile tiles[GroupSlots<Group>::value];
  const int slot = slot_of<Group>();
  if constexpr (Halo) {
    fill_and_store(a, tiles[slot].interior(Coord{a.hr, a.hc}), Group{}, slot);
  } else {
    fill_and_store(a, tiles[slot], Group{}, slot);
  }
}

// The RuntimeTile, carved after `lead` elements (so that its first element may be misaligned for
// vectors).
template <class T>
struct LeadAndTile {
  T* lead;
  smemtile::RuntimeTile<T> tile;
};
template <class T>
SMEMTILE_HOST_DEVICE LeadAndTile<T> carve_lead_and_tile(smemtile::Arena& arena, int lead, int rows, int cols, int pad) {
  return LeadAndTile<T>{arena.array<T>(static_cast<std::size_t>(lead)), arena.tile<T>(rows, cols, pad)};
}

template <class T, class Policy>
__global__ void load_runtime_kernel(LoadArgs<T> a, Policy policy) {
  LeadAndTile<T> s = smemtile::carve_dynamic_shared_memory(carve_lead_and_tile<T>, a.lead, a.trows, a.tcols, a.tpad);
  if (a.halo_view) {
    load_and_dump(a, s.tile.interior(Coord{a.hr, a.hc}), policy, smemtile::ThreadBlock{}, 0);
  } else {
    load_and_dump(a, s.tile, policy, smemtile::ThreadBlock{}, 0);
  }
}

template <class T>
__global__ void store_runtime_kernel(StoreArgs<T> a) {
  LeadAndTile<T> s = smemtile::carve_dynamic_shared_memory(carve_lead_and_tile<T>, a.lead, a.trows, a.tcols, a.tpad);
  if (a.halo_view) {
    fill_and_store(a, s.tile.interior(Coord{a.hr, a.hc}), smemtile::ThreadBlock{}, 0);
  } else {
    fill_and_store(a, s.tile, smemtile::ThreadBlock{}, 0);
  }
}

// 1D: a rank-1 mdspan of a.cols elements, a StaticTile1D<T, N> or its halo view interior({0, hc}),
// an int origin (a.origin[0].col). Dumps t(i) for i in [-hc, N - hc).
template <class T, int N, class Policy>
__global__ void load_1d_kernel(LoadArgs<T> a, Policy policy) {
  __shared__ smemtile::StaticTile1D<T, N> tile;
  const auto in = smemtile::make_global_vector(a.global, a.cols);
  const int rank = static_cast<int>(smemtile::ThreadBlock{}.rank()), step = static_cast<int>(smemtile::ThreadBlock{}.size());
  if (a.halo_view) {
    auto view = tile.interior(Coord{0, a.hc});
    smemtile::copy_global_to_tile(in, a.origin[0].col, view, policy);
    __syncthreads();
    for (int i = rank; i < N; i += step) a.out[i] = view(i - a.hc);
  } else {
    smemtile::copy_global_to_tile(in, a.origin[0].col, tile, policy);
    __syncthreads();
    for (int i = rank; i < N; i += step) a.out[i] = tile(i);
  }
}

template <class T, int N>
__global__ void store_1d_kernel(StoreArgs<T> a) {
  __shared__ smemtile::StaticTile1D<T, N> tile;
  const auto out = smemtile::make_global_vector(a.global[0], a.cols);
  const int rank = static_cast<int>(smemtile::ThreadBlock{}.rank()), step = static_cast<int>(smemtile::ThreadBlock{}.size());
  if (a.halo_view) {
    auto view = tile.interior(Coord{0, a.hc});
    for (int i = rank; i < N; i += step) view(i - a.hc) = pattern<T>(0, i - a.hc, a.salt);
    __syncthreads();
    smemtile::copy_tile_to_global(view, out, a.origin[0].col);
  } else {
    for (int i = rank; i < N; i += step) tile(i) = pattern<T>(0, i, a.salt);
    __syncthreads();
    smemtile::copy_tile_to_global(tile, out, a.origin[0].col);
  }
}

// ---- host: checks --------------------------------------------------------------------------------

// The view a case copies: interior rows x cols, halo `reach`.
struct ViewShape {
  int rows, cols;
  Coord reach;
};

// Compares each slot's dump with the reference: global(origin + (r, c)) inside the array, else
// what the policy says.
template <class T>
void check_load(const GlobalCase<T>& g, ViewShape v, const Coord* origins, int slots, int policy, T constant,
                const std::vector<T>& out) {
  const int region_rows = v.rows + 2 * v.reach.row, region_cols = v.cols + 2 * v.reach.col;
  const int count = region_rows * region_cols;
  REQUIRE(out.size() == static_cast<std::size_t>(count) * slots);
  long long mismatches = 0;
  std::string first;
  for (int slot = 0; slot < slots; ++slot) {
    for (int k = 0; k < count; ++k) {
      const int r = k / region_cols - v.reach.row, c = k % region_cols - v.reach.col;
      int gr = origins[slot].row + r, gc = origins[slot].col + c;
      const bool inside = gr >= 0 && gr < g.rows && gc >= 0 && gc < g.cols;
      T expected{};
      if (inside) {
        expected = g.host[g.index(gr, gc)];
      } else if (policy == kZero) {
        expected = T{};
      } else if (policy == kConstant) {
        expected = constant;
      } else {
        gr = reference_index(policy, gr, g.rows);
        gc = reference_index(policy, gc, g.cols);
        expected = g.host[g.index(gr, gc)];
      }
      if (!equal_elements(expected, out[static_cast<std::size_t>(slot) * count + k])) {
        if (mismatches++ == 0) {
          std::ostringstream s;
          s << "first mismatch: slot " << slot << ", view element (" << r << ", " << c << "), global ("
            << origins[slot].row + r << ", " << origins[slot].col + c << ")"
            << (inside ? " inside" : " outside") << ", read from (" << gr << ", " << gc << ")";
          first = s.str();
        }
      }
    }
  }
  INFO(first);
  REQUIRE(mismatches == 0);
}

// Every element of the allocation: the pattern where the array and the tile's region (interior at
// origin) overlap, the poison everywhere else.
template <class T>
void check_store(const GlobalCase<T>& g, ViewShape v, Coord origin, unsigned salt, const std::vector<T>& all) {
  REQUIRE(all.size() == g.allocation());
  T poison;
  std::memset(&poison, poison_byte, sizeof(T));
  long long mismatches = 0;
  std::string first;
  for (std::size_t e = 0; e < all.size(); ++e) {
    T expected = poison;
    bool written = false;
    int r = -1, c = -1;
    if (e >= static_cast<std::size_t>(g.offset)) {
      const std::size_t rel = e - g.offset;
      r = static_cast<int>(rel / g.pitch);
      c = static_cast<int>(rel % g.pitch);
      const int tr = r - origin.row, tc = c - origin.col;
      if (r < g.rows && c < g.cols && tr >= 0 && tr < v.rows && tc >= 0 && tc < v.cols) {
        expected = pattern<T>(tr, tc, salt);
        written = true;
      }
    }
    if (!equal_elements(expected, all[e])) {
      if (mismatches++ == 0) {
        std::ostringstream s;
        s << "first mismatch: allocation element " << e << " (array row " << r << ", col " << c << "), "
          << (written ? "should hold the tile's value" : "should still be poison");
        first = s.str();
      }
    }
  }
  INFO(first);
  REQUIRE(mismatches == 0);
}

// ---- host: one load case, one store case ------------------------------------------------------------

struct Launch {
  dim3 block;
  std::string describe() const {
    std::ostringstream s;
    s << "block " << block.x << " x " << block.y;
    return s.str();
  }
};

Launch random_thread_block(std::mt19937& rng) {
  switch (rng() % 4) {
    case 0: return Launch{dim3(32)};
    case 1: return Launch{dim3(96)};
    case 2: return Launch{dim3(256)};
    default: return Launch{dim3(32, 8)};
  }
}

// Load into the static tile Tile (or its halo view), group Group, policies Mask; `slots` tiles.
template <class T, class Tile, class Group, bool Halo, unsigned Mask>
void load_static_case(std::mt19937& rng, unsigned seed, Launch launch) {
  constexpr int tile_rows = Tile::layout_type::rows(), tile_cols = Tile::layout_type::cols();
  constexpr int slots = GroupSlots<Group>::value;
  const bool aligned = rng() % 3 == 0, exact = rng() % 2 == 0;
  GlobalCase<T> g;
  random_global_shape(g, rng, aligned, exact, random_extent(rng), random_extent(rng));
  make_load_global(g, seed);
  ViewShape v{tile_rows, tile_cols, Coord{0, 0}};
  if (Halo) {
    v.reach = Coord{static_cast<int>(rng() % ((tile_rows + 1) / 2)), static_cast<int>(rng() % ((tile_cols + 1) / 2))};
    v.rows = tile_rows - 2 * v.reach.row;
    v.cols = tile_cols - 2 * v.reach.col;
  }
  LoadArgs<T> a{};
  std::string where[4];
  for (int s = 0; s < slots; ++s) a.origin[s] = random_origin(rng, g, v.rows, v.cols, v.reach, aligned, where[s]);
  a.global = g.device_matrix();
  a.rows = g.rows;
  a.cols = g.cols;
  a.pitch = g.pitch;
  a.halo_view = Halo;
  a.hr = v.reach.row;
  a.hc = v.reach.col;
  const int policy = random_policy(rng, Mask);
  const T constant = constant_value<T>(rng);
  DeviceBuffer<T> out(static_cast<std::size_t>(slots) * (v.rows + 2 * v.reach.row) * (v.cols + 2 * v.reach.col));
  out.poison();
  a.out = out.get();
  INFO(g.describe() << "; static tile " << tile_rows << " x " << tile_cols << " (pad "
                    << Tile::layout_type::row_stride() - tile_cols << ")"
                    << (Halo ? ", halo view" : "") << " reach (" << v.reach.row << ", " << v.reach.col
                    << "); origin (" << a.origin[0].row << ", " << a.origin[0].col << ") " << where[0]
                    << "; policy " << policy_names[policy] << "; " << launch.describe() << ", " << slots
                    << " tile(s)");
  with_policy<Mask>(policy, constant, [&](auto p) {
    load_static_kernel<T, Tile, Group, Halo><<<1, launch.block>>>(a, p);
  });
  REQUIRE_LAUNCH_OK();
  check_load(g, v, a.origin, slots, policy, constant, out.download());
}

template <class T, class Tile, class Group, bool Halo>
void store_static_case(std::mt19937& rng, Launch launch) {
  constexpr int tile_rows = Tile::layout_type::rows(), tile_cols = Tile::layout_type::cols();
  constexpr int slots = GroupSlots<Group>::value;
  const bool aligned = rng() % 3 == 0, exact = rng() % 4 == 0;
  GlobalCase<T> g[slots];
  const int rows = random_extent(rng), cols = random_extent(rng);
  random_global_shape(g[0], rng, aligned, exact, rows, cols);
  ViewShape v{tile_rows, tile_cols, Coord{0, 0}};
  Coord reach{0, 0};
  if (Halo) {
    reach = Coord{static_cast<int>(rng() % ((tile_rows + 1) / 2)), static_cast<int>(rng() % ((tile_cols + 1) / 2))};
    v.rows = tile_rows - 2 * reach.row;
    v.cols = tile_cols - 2 * reach.col;
  }
  StoreArgs<T> a{};
  std::string where[4];
  for (int s = 0; s < slots; ++s) {
    if (s > 0) g[s] = GlobalCase<T>{g[0].rows, g[0].cols, g[0].pitch, g[0].offset, g[0].after, {}, nullptr};
    make_store_global(g[s]);
    a.global[s] = g[s].device_matrix();
    // The region stored is the interior only: origins are chosen for it (no reach).
    a.origin[s] = random_origin(rng, g[0], v.rows, v.cols, Coord{0, 0}, aligned, where[s]);
  }
  a.rows = g[0].rows;
  a.cols = g[0].cols;
  a.pitch = g[0].pitch;
  a.halo_view = Halo;
  a.hr = reach.row;
  a.hc = reach.col;
  a.salt = static_cast<unsigned>(rng());
  INFO(g[0].describe() << "; static tile " << tile_rows << " x " << tile_cols << " (pad "
                       << Tile::layout_type::row_stride() - tile_cols << ")"
                       << (Halo ? ", halo view" : "") << " reach (" << reach.row << ", " << reach.col
                       << "); origin (" << a.origin[0].row << ", " << a.origin[0].col << ") " << where[0] << "; "
                       << launch.describe() << ", " << slots << " tile(s)");
  store_static_kernel<T, Tile, Group, Halo><<<1, launch.block>>>(a);
  REQUIRE_LAUNCH_OK();
  for (int s = 0; s < slots; ++s) {
    INFO("slot " << s << ", origin (" << a.origin[s].row << ", " << a.origin[s].col << ")");
    check_store(g[s], v, a.origin[s], a.salt + static_cast<unsigned>(s), g[s].device->download());
  }
}

// A random RuntimeTile shape; `aligned` makes its rows and the leading gap whole 16-byte vectors.
template <class T>
void random_runtime_tile(std::mt19937& rng, bool aligned, int& lead, int& rows, int& cols, int& pad) {
  const int per_vector = std::max(1, 16 / static_cast<int>(sizeof(T)));
  rows = 1 + static_cast<int>(rng() % 24);
  cols = 1 + static_cast<int>(rng() % 70);
  pad = static_cast<int>(rng() % 5);
  lead = static_cast<int>(rng() % 8);
  if (aligned) {
    lead = 0;
    cols = (cols + per_vector - 1) / per_vector * per_vector;
    pad = pad / per_vector * per_vector;
  }
}

template <class T>
void load_runtime_case(std::mt19937& rng, unsigned seed, Launch launch) {
  const bool aligned = rng() % 3 == 0, exact = rng() % 2 == 0;
  GlobalCase<T> g;
  random_global_shape(g, rng, aligned, exact, random_extent(rng), random_extent(rng));
  make_load_global(g, seed);
  LoadArgs<T> a{};
  random_runtime_tile<T>(rng, aligned, a.lead, a.trows, a.tcols, a.tpad);
  ViewShape v{a.trows, a.tcols, Coord{0, 0}};
  a.halo_view = rng() % 2;
  if (a.halo_view) {
    v.reach = Coord{static_cast<int>(rng() % ((a.trows + 1) / 2)), static_cast<int>(rng() % ((a.tcols + 1) / 2))};
    v.rows = a.trows - 2 * v.reach.row;
    v.cols = a.tcols - 2 * v.reach.col;
  }
  std::string where;
  a.origin[0] = random_origin(rng, g, v.rows, v.cols, v.reach, aligned, where);
  a.global = g.device_matrix();
  a.rows = g.rows;
  a.cols = g.cols;
  a.pitch = g.pitch;
  a.hr = v.reach.row;
  a.hc = v.reach.col;
  const int policy = random_policy(rng, all_policies);
  const T constant = constant_value<T>(rng);
  DeviceBuffer<T> out(static_cast<std::size_t>(a.trows) * a.tcols);
  out.poison();
  a.out = out.get();
  INFO(g.describe() << "; RuntimeTile " << a.trows << " x " << a.tcols << " pad " << a.tpad << " after " << a.lead
                    << " leading elements" << (a.halo_view ? ", halo view" : "") << " reach (" << v.reach.row
                    << ", " << v.reach.col << "); origin (" << a.origin[0].row << ", " << a.origin[0].col << ") "
                    << where << "; policy " << policy_names[policy] << "; " << launch.describe());
  const smemtile::SharedMemoryPlan plan =
      smemtile::plan_shared_memory(carve_lead_and_tile<T>, a.lead, a.trows, a.tcols, a.tpad);
  with_policy<all_policies>(policy, constant, [&](auto p) {
    const smemtile::LaunchStatus status =
        smemtile::launch_with_plan(load_runtime_kernel<T, decltype(p)>, dim3(1), launch.block, plan, nullptr, a, p);
    INFO(status.message);
    REQUIRE(status.error == cudaSuccess);
  });
  REQUIRE_LAUNCH_OK();
  check_load(g, v, a.origin, 1, policy, constant, out.download());
}

// One RuntimeTile store, shape and placement given (the random cases and the fixed ones below).
template <class T>
void store_runtime(GlobalCase<T>& g, StoreArgs<T> a, Launch launch, const std::string& where) {
  make_store_global(g);
  a.global[0] = g.device_matrix();
  a.rows = g.rows;
  a.cols = g.cols;
  a.pitch = g.pitch;
  const ViewShape v{a.trows - 2 * a.hr, a.tcols - 2 * a.hc, Coord{a.hr, a.hc}};
  INFO(g.describe() << "; RuntimeTile " << a.trows << " x " << a.tcols << " pad " << a.tpad << " after " << a.lead
                    << " leading elements" << (a.halo_view ? ", halo view" : "") << " reach (" << a.hr << ", "
                    << a.hc << "); origin (" << a.origin[0].row << ", " << a.origin[0].col << ") " << where << "; "
                    << launch.describe());
  const smemtile::SharedMemoryPlan plan =
      smemtile::plan_shared_memory(carve_lead_and_tile<T>, a.lead, a.trows, a.tcols, a.tpad);
  const smemtile::LaunchStatus status =
      smemtile::launch_with_plan(store_runtime_kernel<T>, dim3(1), launch.block, plan, nullptr, a);
  INFO(status.message);
  REQUIRE(status.error == cudaSuccess);
  REQUIRE_LAUNCH_OK();
  check_store(g, v, a.origin[0], a.salt, g.device->download());
}

template <class T>
void store_runtime_case(std::mt19937& rng, Launch launch) {
  const bool aligned = rng() % 3 == 0, exact = rng() % 4 == 0;
  GlobalCase<T> g;
  random_global_shape(g, rng, aligned, exact, random_extent(rng), random_extent(rng));
  StoreArgs<T> a{};
  random_runtime_tile<T>(rng, aligned, a.lead, a.trows, a.tcols, a.tpad);
  a.halo_view = rng() % 2;
  if (a.halo_view) {
    a.hr = static_cast<int>(rng() % ((a.trows + 1) / 2));
    a.hc = static_cast<int>(rng() % ((a.tcols + 1) / 2));
  }
  std::string where;
  a.origin[0] = random_origin(rng, g, a.trows - 2 * a.hr, a.tcols - 2 * a.hc, Coord{0, 0}, aligned, where);
  a.salt = static_cast<unsigned>(rng());
  store_runtime(g, a, launch, where);
}

// 1D: StaticTile1D<T, N> over a rank-1 mdspan.
template <class T, int N>
void load_1d_case(std::mt19937& rng, unsigned seed, Launch launch) {
  const bool aligned = rng() % 3 == 0, exact = rng() % 2 == 0;
  GlobalCase<T> g;
  const int n = rng() % 2 ? 1 + static_cast<int>(rng() % 8) : 1 + static_cast<int>(rng() % 1000);
  random_global_shape(g, rng, aligned, exact, 1, n);
  g.pitch = g.cols;  // one row
  make_load_global(g, seed);
  LoadArgs<T> a{};
  ViewShape v{1, N, Coord{0, 0}};
  a.halo_view = rng() % 2;
  if (a.halo_view) {
    v.reach.col = static_cast<int>(rng() % ((N + 1) / 2));
    v.cols = N - 2 * v.reach.col;
  }
  std::string where;
  a.origin[0] = random_origin(rng, g, 1, v.cols, v.reach, aligned, where);
  a.origin[0].row = 0;
  a.global = g.device_matrix();
  a.rows = 1;
  a.cols = g.cols;
  a.pitch = g.pitch;
  a.hc = v.reach.col;
  const int policy = random_policy(rng, all_policies);
  const T constant = constant_value<T>(rng);
  DeviceBuffer<T> out(N);
  out.poison();
  a.out = out.get();
  INFO(g.describe() << "; StaticTile1D<" << N << ">" << (a.halo_view ? ", halo view" : "") << " reach "
                    << v.reach.col << "; origin " << a.origin[0].col << " (" << where << "); policy "
                    << policy_names[policy] << "; " << launch.describe());
  with_policy<all_policies>(policy, constant, [&](auto p) { load_1d_kernel<T, N><<<1, launch.block>>>(a, p); });
  REQUIRE_LAUNCH_OK();
  check_load(g, v, a.origin, 1, policy, constant, out.download());
}

template <class T, int N>
void store_1d_case(std::mt19937& rng, Launch launch) {
  const bool aligned = rng() % 3 == 0, exact = rng() % 2 == 0;
  GlobalCase<T> g;
  const int n = rng() % 2 ? 1 + static_cast<int>(rng() % 8) : 1 + static_cast<int>(rng() % 1000);
  random_global_shape(g, rng, aligned, exact, 1, n);
  g.pitch = g.cols;
  make_store_global(g);
  StoreArgs<T> a{};
  ViewShape v{1, N, Coord{0, 0}};
  a.halo_view = rng() % 2;
  if (a.halo_view) {
    a.hc = static_cast<int>(rng() % ((N + 1) / 2));
    v.cols = N - 2 * a.hc;
  }
  std::string where;
  a.origin[0] = random_origin(rng, g, 1, v.cols, Coord{0, 0}, aligned, where);
  a.origin[0].row = 0;
  a.global[0] = g.device_matrix();
  a.rows = 1;
  a.cols = g.cols;
  a.pitch = g.pitch;
  a.salt = static_cast<unsigned>(rng());
  INFO(g.describe() << "; StaticTile1D<" << N << ">" << (a.halo_view ? ", halo view" : "") << " reach " << a.hc
                    << "; origin " << a.origin[0].col << " (" << where << "); " << launch.describe());
  store_1d_kernel<T, N><<<1, launch.block>>>(a);
  REQUIRE_LAUNCH_OK();
  check_store(g, v, a.origin[0], a.salt, g.device->download());
}

// ---- the tiles each element type is tested with ----------------------------------------------------

// StaticTile shapes the bank model accepts for every element size (copies into them compile).
template <class T> using TileA = smemtile::StaticTile<T, 8, 32, 0>;
template <class T> using TileB = smemtile::StaticTile<T, 32, 8, 0>;
template <class T> using TileC = smemtile::StaticTile<T, 5, 7, 0>;
template <class T> using TileD = smemtile::StaticTile<T, 8, 32, 1>;
// 16 x 16 with one element of padding: 2-way conflicts with 4-byte elements (a warp's two rows
// span 33 words), accepted for the other sizes.
template <class T> using TileE = smemtile::StaticTile<T, 16, 16, 1>;
// Halo views are not static layouts (no compile-time bank check): any shape.
template <class T> using TileH = smemtile::StaticTile<T, 10, 24, 1>;
// 128-byte lines of 4-, 8- and 16-byte elements, 8 rows.
template <class T> using TileS = smemtile::SwizzledTile<T, 8, 256 / static_cast<int>(sizeof(T))>;
// Rows of three warps' elements: with a FixedThreadBlock or a Warp, stores of 2- to 8-byte elements
// into rows that do not start on a 32-byte sector go in sector runs (block/copy.cuh).
template <class T> using TileW = smemtile::StaticTile<T, 4, 96, 0>;

constexpr unsigned zero_and_reflect = (1u << kZero) | (1u << kReflect);
constexpr unsigned constant_and_clamp = (1u << kConstant) | (1u << kClamp);

// Random global -> tile cases with the whole block (ThreadBlock, random block shape).
template <class T>
void random_loads(int cases) {
  const unsigned seed = smemtile_test::fresh_seed();
  INFO("element type " << type_name<T>() << ", seed " << seed);
  std::mt19937 rng(seed);
  using Block = smemtile::ThreadBlock;
  constexpr bool four_byte = sizeof(T) == 4, swizzle = sizeof(T) >= 4;
  for (int i = 0; i < cases; ++i) {
    INFO("case " << i);
    const unsigned case_seed = static_cast<unsigned>(rng());
    const Launch launch = random_thread_block(rng);
    switch (rng() % 10) {
      case 0: load_static_case<T, TileA<T>, Block, false, zero_and_reflect>(rng, case_seed, launch); break;
      case 1: load_static_case<T, TileB<T>, Block, false, constant_and_clamp>(rng, case_seed, launch); break;
      case 2: load_static_case<T, TileC<T>, Block, false, all_policies>(rng, case_seed, launch); break;
      case 3:
        if constexpr (four_byte) load_static_case<T, TileD<T>, Block, false, zero_and_reflect>(rng, case_seed, launch);
        else load_static_case<T, TileE<T>, Block, false, zero_and_reflect>(rng, case_seed, launch);
        break;
      case 4: case 5: load_static_case<T, TileH<T>, Block, true, all_policies>(rng, case_seed, launch); break;
      case 6:
        if constexpr (swizzle) load_static_case<T, TileS<T>, Block, false, zero_and_reflect>(rng, case_seed, launch);
        else load_static_case<T, TileD<T>, Block, false, constant_and_clamp>(rng, case_seed, launch);
        break;
      case 7:
        if constexpr (swizzle) load_static_case<T, TileS<T>, Block, true, constant_and_clamp>(rng, case_seed, launch);
        else load_runtime_case<T>(rng, case_seed, launch);
        break;
      default: load_runtime_case<T>(rng, case_seed, launch); break;
    }
  }
}

// Random tile -> global cases with the whole block.
template <class T>
void random_stores(int cases) {
  const unsigned seed = smemtile_test::fresh_seed();
  INFO("element type " << type_name<T>() << ", seed " << seed);
  std::mt19937 rng(seed);
  using Block = smemtile::ThreadBlock;
  constexpr bool four_byte = sizeof(T) == 4, swizzle = sizeof(T) >= 4;
  for (int i = 0; i < cases; ++i) {
    INFO("case " << i);
    const Launch launch = random_thread_block(rng);
    switch (rng() % 8) {
      case 0: store_static_case<T, TileA<T>, Block, false>(rng, launch); break;
      case 1: store_static_case<T, TileB<T>, Block, false>(rng, launch); break;
      case 2: store_static_case<T, TileC<T>, Block, false>(rng, launch); break;
      case 3:
        if constexpr (four_byte) store_static_case<T, TileD<T>, Block, false>(rng, launch);
        else store_static_case<T, TileE<T>, Block, false>(rng, launch);
        break;
      case 4: store_static_case<T, TileH<T>, Block, true>(rng, launch); break;
      case 5:
        if constexpr (swizzle) store_static_case<T, TileS<T>, Block, false>(rng, launch);
        else store_static_case<T, TileD<T>, Block, false>(rng, launch);
        break;
      default: store_runtime_case<T>(rng, launch); break;
    }
  }
}

// FixedThreadBlock<256> (block 256 or 32 x 8) and Warp (4 warps, a tile each), both directions.
template <class T>
void random_group_copies(int cases) {
  const unsigned seed = smemtile_test::fresh_seed();
  INFO("element type " << type_name<T>() << ", seed " << seed);
  std::mt19937 rng(seed);
  using Fixed = smemtile::FixedThreadBlock<256>;
  using Warp = smemtile::Warp;
  for (int i = 0; i < cases; ++i) {
    INFO("case " << i);
    const unsigned case_seed = static_cast<unsigned>(rng());
    const Launch fixed{rng() % 2 ? dim3(256) : dim3(32, 8)};
    const Launch warps{dim3(128)};
    switch (rng() % 14) {
      case 10: load_static_case<T, TileW<T>, Fixed, false, zero_and_reflect>(rng, case_seed, fixed); break;
      case 11: load_static_case<T, TileW<T>, Warp, false, constant_and_clamp>(rng, case_seed, warps); break;
      case 12: store_static_case<T, TileW<T>, Fixed, false>(rng, fixed); break;
      case 13: store_static_case<T, TileW<T>, Warp, false>(rng, warps); break;
      case 0: load_static_case<T, TileA<T>, Fixed, false, zero_and_reflect>(rng, case_seed, fixed); break;
      case 1: load_static_case<T, TileD<T>, Fixed, false, zero_and_reflect>(rng, case_seed, fixed); break;
      case 2: load_static_case<T, TileH<T>, Fixed, true, constant_and_clamp>(rng, case_seed, fixed); break;
      case 3: load_static_case<T, TileA<T>, Warp, false, zero_and_reflect>(rng, case_seed, warps); break;
      case 4: load_static_case<T, TileC<T>, Warp, false, zero_and_reflect>(rng, case_seed, warps); break;
      case 5: load_static_case<T, TileH<T>, Warp, true, (1u << kPeriodic) | (1u << kConstant)>(rng, case_seed, warps); break;
      case 6: store_static_case<T, TileA<T>, Fixed, false>(rng, fixed); break;
      case 7: store_static_case<T, TileD<T>, Fixed, false>(rng, fixed); break;
      case 8: store_static_case<T, TileA<T>, Warp, false>(rng, warps); break;
      default: store_static_case<T, TileC<T>, Warp, false>(rng, warps); break;
    }
  }
}

template <class T>
void random_1d_copies(int cases) {
  const unsigned seed = smemtile_test::fresh_seed();
  INFO("element type " << type_name<T>() << ", seed " << seed);
  std::mt19937 rng(seed);
  for (int i = 0; i < cases; ++i) {
    INFO("case " << i);
    const unsigned case_seed = static_cast<unsigned>(rng());
    const Launch launch = random_thread_block(rng);
    if (rng() % 2) load_1d_case<T, 67>(rng, case_seed, launch);
    else store_1d_case<T, 67>(rng, launch);
  }
}

}  // namespace

// One test case per element size and direction (not TEMPLATE_TEST_CASE: see CONTRIBUTING-NOTES).
// Cases: 5 x 150 loads, 5 x 80 stores, 5 x 60 group copies, 5 x 40 1D copies = 1650.
TEST_CASE("copy_global_to_tile with 1-byte elements: random arrays origins tiles halo views and policies") { random_loads<unsigned char>(150); }
TEST_CASE("copy_global_to_tile with 2-byte elements: random arrays origins tiles halo views and policies") { random_loads<short>(150); }
TEST_CASE("copy_global_to_tile with 4-byte elements: random arrays origins tiles halo views and policies") { random_loads<float>(150); }
TEST_CASE("copy_global_to_tile with 8-byte elements: random arrays origins tiles halo views and policies") { random_loads<double>(150); }
TEST_CASE("copy_global_to_tile with 16-byte elements: random arrays origins tiles halo views and policies") { random_loads<Vec16>(150); }

TEST_CASE("copy_tile_to_global with 1-byte elements writes the region and no other byte") { random_stores<unsigned char>(80); }
TEST_CASE("copy_tile_to_global with 2-byte elements writes the region and no other byte") { random_stores<short>(80); }
TEST_CASE("copy_tile_to_global with 4-byte elements writes the region and no other byte") { random_stores<float>(80); }
TEST_CASE("copy_tile_to_global with 8-byte elements writes the region and no other byte") { random_stores<double>(80); }
TEST_CASE("copy_tile_to_global with 16-byte elements writes the region and no other byte") { random_stores<Vec16>(80); }

TEST_CASE("copies with FixedThreadBlock of 256 threads and with Warp (a tile per warp) for every element size") {
  random_group_copies<unsigned char>(60);
  random_group_copies<short>(60);
  random_group_copies<float>(60);
  random_group_copies<double>(60);
  random_group_copies<Vec16>(60);
}

TEST_CASE("1D copies: StaticTile1D and its halo view over a rank-1 mdspan with an int origin and every policy") {
  random_1d_copies<unsigned char>(40);
  random_1d_copies<short>(40);
  random_1d_copies<float>(40);
  random_1d_copies<double>(40);
  random_1d_copies<Vec16>(40);
}

// Storing a halo view whose full rows (halo included) are whole 16-byte vectors but whose interior
// is not: 12 floats per row, a halo of 1 or 3 columns, an interior of 10 or 6 floats. With 1 or 3
// leading floats before the RuntimeTile the interior's first element is 16-byte aligned, and so is
// the global side (offset 0, pitch 36, origin column 8): the alignment checks allow 16-byte units,
// but the interior rows are not whole units. Every interior column must still arrive.
TEST_CASE("copy_tile_to_global of a halo view whose interior is not a whole number of vectors") {
  for (int hc : {1, 3}) {
    for (int lead : {0, 1, 2, 3}) {
      INFO("halo columns " << hc << ", leading floats " << lead);
      GlobalCase<float> g;
      g.rows = 20;
      g.cols = 32;
      g.pitch = 36;
      g.offset = 0;
      g.after = 0;
      StoreArgs<float> a{};
      a.lead = lead;
      a.trows = 6;
      a.tcols = 12;
      a.tpad = 0;
      a.halo_view = 1;
      a.hr = 1;
      a.hc = hc;
      a.origin[0] = Coord{3, 8};
      a.salt = 12345u + static_cast<unsigned>(lead);
      store_runtime(g, a, Launch{dim3(64)}, "inside");
    }
  }
}
