// smemtile/device/stencil.cuh: device_stencil, a host function that applies a stencil to a 1D, 2D
// or 3D array.
//
//   struct Heat {  // out = in + 0.1 * (5-point Laplacian)
//     template <class N> __device__ float operator()(const N& n) const {
//       return n(0, 0) + 0.1f * (n(-1, 0) + n(1, 0) + n(0, -1) + n(0, 1) - 4.0f * n(0, 0));
//     }
//   };
//   auto in = smemtile::make_global_matrix<const float>(d_in, rows, cols);
//   auto out = smemtile::make_global_matrix(d_out, rows, cols);
//   smemtile::LaunchStatus s = smemtile::device_stencil<1, smemtile::StencilShape::star>(
//       in, out, smemtile::boundary::clamp, Heat{}, stream);
//
// out(p) = op(n) for every point p, where n(dx), n(dy, dx) or n(dz, dy, dx) reads `in` at p plus
// that offset (|offset| <= Radius; a star op reads along the axes only, which debug builds check),
// and positions outside the array read what the boundary policy says. `op` is a function object
// with a __device__ call operator taking the neighbourhood (a template, or `auto` in a __device__
// lambda compiled with --extended-lambda). Arrays are cuda::std::mdspans whose last index is
// fastest (unit stride), of elements of 1 to 8 bytes; `in` and `out` must not overlap.
//
// How: 1D arrays: each block loads a halo tile (its interior plus Radius around it, 16-byte rows where
// the addresses allow) with one copy_global_to_tile, whose boundary policy fills the halo outside
// the array, and computes its points from shared memory. 2D arrays: a grid of about as many blocks
// as fit on the GPU at once, each taking tiles in turn through a ring of halo tiles in dynamic
// shared memory: the next tiles are loading while the current one is computed. 3D arrays are
// swept along z: a ring of xy planes, 2 Radius + 1 for the stencil and more loading ahead, so each
// input element is read from DRAM about once (the 2.5D scheme). On sm_90 and later, where the
// array's address and pitches allow (tma_map_error), one thread loads each tile or plane with one
// TMA copy and the policy's values are written into the few tiles that reach outside the array
// (none under boundary::zero: TMA's fill is zero); elsewhere every thread starts its cp.async
// copies. Why: per point, a stencil does a few additions; what limits it is keeping enough loads in
// flight and spending few instructions and memory requests on moving data, which TMA, the ring and
// TMA boxes whose rows start on 128-byte lines (StencilTileShape::halo_bytes) serve.
#pragma once

#include <cuda_runtime.h>

#include <climits>      // INT_MAX
#include <cstring>      // std::memcpy (register reinterpretation)
#include <string>
#include <type_traits>  // std::is_trivially_copyable, std::remove_const_t, std::conditional_t

#include "../arch/tma.cuh"            // make_tma_map_2d/3d, tma_load_2d/3d (sm_90+)
#include "../arch/mbarrier.cuh"       // the TMA copies' barriers
#include "../block/async_copy.cuh"    // copy_global_to_tile_async, async_copy_commit/wait
#include "../block/copy.cuh"          // copy_global_to_tile, fill_tile
#include "../block/stencil.cuh"       // StencilShape, neighborhood, Neighborhood3D
#include "../block/thread_group.cuh"  // FixedThreadBlock
#include "../core/boundary.cuh"       // the policies
#include "../core/global_view.cuh"    // GlobalArray, plane
#include "../core/halo_layout.cuh"    // HaloLayout
#include "../core/static_tile.cuh"    // StaticHaloTile1D
#include "../core/tile_ref.cuh"       // TileRef
#include "../core/thread_map.cuh"     // block_tile_origin_1d
#include "launch.cuh"                 // LaunchStatus

namespace smemtile {

/// The tiles device_stencil uses for elements of ElemBytes bytes and a stencil of Radius: the
/// interior a block computes, the halo columns it loads, and how many tiles or planes load ahead
/// of the one being computed. Measured on an H200 (docs/benchmarks.md).
/// Large: the larger tiles device_stencil uses where TMA loads them and a block may have the shared
/// memory they need (sm_90: 227 KB; not sm_86/89/120's 99 KB): fewer of the points a block reads
/// are halo, and the rows TMA loads start on 128-byte lines. The cp.async kernels keep the default
/// tiles (their copies need the registers).
template <int ElemBytes, int Radius, bool Large = false>
struct StencilTileShape {
  /// Whether these are the large tiles.
  static constexpr bool large = Large;
  /// Bytes the halo columns on each side are a multiple of. Default: 16, so that the rows a block
  /// loads start aligned where the array's do. Large: 128 (64 for bytes, whose boxes would
  /// otherwise pass TMA's 256 columns), so that a TMA box's rows start on a 128-byte line: TMA
  /// then reads whole lines. A box starting 16 bytes before a line took 3.4 times the L2 requests;
  /// on an H200, 5-point stencils at 8192^2 ran at 93% of cudaMemcpy rather than 86% (floats) and
  /// 95% rather than 88% (doubles), 7-point ones at 512^3 90% rather than 83% and 91% rather than
  /// 85%, though 1.5 times the columns load.
  static constexpr int halo_bytes = !Large ? 16 : ElemBytes == 1 ? 64 : 128;
  /// Columns of halo on each side: Radius rounded up to a multiple of halo_bytes / ElemBytes.
  static constexpr int halo_cols =
      (Radius + halo_bytes / ElemBytes - 1) / (halo_bytes / ElemBytes) * (halo_bytes / ElemBytes);
  /// Bytes of the TMA elements the tensor maps describe rows in: large tiles of floats are 256
  /// columns wide, 320 with their halo, which TMA's 256 elements per box row allow only as pairs
  /// (the array's rows must then have an even number of floats; else the default tiles load).
  static constexpr int tma_unit_bytes = Large && ElemBytes == 4 ? 8 : ElemBytes;
  /// 1D: elements per block (16 per thread: 4 16-byte loads each in flight for floats). On an H200,
  /// 3-point sums on 2^28 ints or floats: 97% of cudaMemcpy against 94% with 2048.
  static constexpr int interior_1d = 4096;
  /// 2D: rows per tile. Large: 32 rows of 1 KB for floats and doubles, 64 x 128 elements for
  /// narrower ones. 5-point stencils at 8192^2 on an H200, probes against cudaMemcpy: floats 94%
  /// with 32 x 256 (93% with 64 x 128), doubles 94-95% with 32 x 128.
  static constexpr int rows_2d = Large && ElemBytes <= 2 ? 64 : 32;
  /// 2D: columns per tile.
  static constexpr int cols_2d = Large && ElemBytes == 4 ? 256 : Large || ElemBytes <= 4 ? 128 : 64;
  /// 2D: tiles loading while one is computed. (Large tiles on an H200: two or three loading ahead
  /// ran at 90-92% of cudaMemcpy against 94-95% with one, and so did rings one slot shorter with
  /// a second barrier per step, for two blocks per multiprocessor: more in flight was slower.)
  static constexpr int stages_2d = 1;
  /// 3D, radius 1, large: plane tiles of 32 rows of 1 KB (32 x 256 floats, 32 x 128 doubles;
  /// narrower elements 32 x 128) rather than 16 x 64 elements, so that fewer of the points a block
  /// reads are halo. 7-point stencils at 512^3 on an H200, probes against cudaMemcpy: floats 93%
  /// (90% with 32 x 128), doubles 91%.
  static constexpr bool wide_3d = Large && Radius == 1;
  /// 3D: rows of each xy plane. (Radius 4 with 32 x 64 planes, which read 1.41 points per point
  /// computed rather than 1.69 but leave room for two blocks per multiprocessor rather than three:
  /// 69.8% of cudaMemcpy against 73.0% at 512^3 on an H200, 57.9% against 66.4% at 376^3.)
  static constexpr int rows_3d = wide_3d ? 32 : 16;
  /// 3D: columns of each xy plane.
  static constexpr int cols_3d = wide_3d && ElemBytes == 4 ? 256 : wide_3d ? 128 : 64;
  /// 3D: planes per block along z. Radius 3 and more: shorter chunks, more blocks for GPUs to
  /// balance (radius-4 star at 376^3 on an H200: 66% of cudaMemcpy against 64% with 64 planes).
  static constexpr int planes_3d = Radius >= 3 ? 48 : 64;
  /// 3D: planes loading beyond the 2 Radius + 1 the stencil reads.
  static constexpr int stages_3d = wide_3d ? 1 : 2;
  /// 3D: blocks per multiprocessor asked of the register allocator for the TMA kernels (a star
  /// keeps (2 Radius + 1) values per point in registers; the wide tiles have 16 points per thread,
  /// 32 for floats, whose ring leaves room for one block anyway).
  static constexpr int min_blocks_3d(bool star) {
    return wide_3d ? (ElemBytes == 4 ? 1 : 2) : Radius <= 2 ? 4 : star ? 3 : 2;
  }
  /// Whether the large 3D tiles differ from the default ones (only then is a kernel built for them).
  static constexpr bool large_3d_differs = Radius == 1;
  /// Tiles in the 2D ring: the one computed, those loading, and one being released.
  static constexpr int ring_2d = stages_2d + 2;
  /// Planes in the 3D ring of a box stencil: the 2 Radius + 1 read, stages_3d loading, one released.
  static constexpr int ring_3d = 2 * Radius + 2 + stages_3d;
  /// 3D star stencils keep the values along z in registers and read only the centre plane and the
  /// newest one from shared memory, so more planes load ahead in a smaller ring.
  /// (Wide floats and doubles: one; 91% of cudaMemcpy against 88% with two for doubles.)
  static constexpr int stages_3d_star = wide_3d && ElemBytes >= 4 ? 1 : stages_3d + 1;
  /// Planes in the 3D ring of a star stencil: Radius + 1 from the centre to the newest, the stages,
  /// one released.
  static constexpr int ring_3d_star = Radius + 2 + stages_3d_star;
  /// Bytes of one ring slot: a tile with its halo, rounded up to 128 bytes (TMA's alignment).
  static constexpr long long slot_bytes(int rows, int cols) {
    return (static_cast<long long>(rows + 2 * Radius) * (cols + 2 * halo_cols) * ElemBytes + 127) / 128 * 128;
  }
  /// Dynamic shared memory of a 2D block (128 more for aligning the ring).
  static constexpr long long shared_bytes_2d = ring_2d * slot_bytes(rows_2d, cols_2d) + 128;
  /// Dynamic shared memory of a 3D block (box stencils).
  static constexpr long long shared_bytes_3d = ring_3d * slot_bytes(rows_3d, cols_3d) + 128;
  /// Dynamic shared memory of a 3D block (star stencils).
  static constexpr long long shared_bytes_3d_star = ring_3d_star * slot_bytes(rows_3d, cols_3d) + 128;
};

/// The most shared memory one block can have on any GPU smemtile targets (sm_90: 227 KB).
inline constexpr long long max_shared_bytes_per_block = 227 * 1024;

/// Why device_stencil cannot run on arrays of these extents, strides and addresses (as integers),
/// or nullptr when it can. Extents and strides are given for `rank` dimensions, x (the last) fastest.
SMEMTILE_HOST_DEVICE constexpr const char* stencil_argument_error(int rank, const long long* in_extents,
                                                                  const long long* out_extents,
                                                                  const long long* in_strides,
                                                                  const long long* out_strides,
                                                                  unsigned long long in, unsigned long long out,
                                                                  int elem_bytes) {
  long long elements = 1;
  for (int d = 0; d < rank; ++d) {
    if (in_extents[d] != out_extents[d]) return "in and out must have the same extents";
    if (in_extents[d] < 0) return "extents must not be negative";
    if (in_extents[d] > INT_MAX || in_strides[d] > INT_MAX || out_strides[d] > INT_MAX)
      return "extents and strides must fit in an int";
    elements *= in_extents[d];
  }
  if (elements == 0) return nullptr;  // nothing to do
  if (in == 0 || out == 0) return "in and out must not be null";
  if (in_strides[rank - 1] != 1 || out_strides[rank - 1] != 1)
    return "the last (x) dimension must be contiguous (stride 1) in both in and out";
  long long in_span = 1, out_span = 1;  // elements from the first to one past the last
  for (int d = 0; d < rank; ++d) {
    if (in_strides[d] < 0 || out_strides[d] < 0) return "strides must not be negative";
    in_span += (in_extents[d] - 1) * in_strides[d];
    out_span += (out_extents[d] - 1) * out_strides[d];
  }
  const unsigned long long in_end = in + static_cast<unsigned long long>(in_span) * elem_bytes;
  const unsigned long long out_end = out + static_cast<unsigned long long>(out_span) * elem_bytes;
  if (in < out_end && out < in_end) return "in and out overlap: the stencil is not computed in place (use two arrays)";
  return nullptr;
}

#if defined(__CUDACC__)

namespace detail {

inline constexpr int stencil_threads = 256;  // every stencil block: 256 threads along x
// 1D: at least 4 blocks per multiprocessor (<= 64 registers per thread): the edge paths of the copies
// would otherwise set the whole kernel's register count.
inline constexpr int stencil_min_blocks = 4;
using StencilBlock = FixedThreadBlock<stencil_threads>;

// Any mdspan of rank 1 to 3 as a GlobalArray (layout_stride, int extents and strides).
template <class T, class Extents, class Layout, class Accessor>
SMEMTILE_HOST_DEVICE GlobalArray<T, Extents::rank()> as_global_array(const cuda::std::mdspan<T, Extents, Layout, Accessor>& m) {
  constexpr std::size_t rank = Extents::rank();
  using Mapping = typename cuda::std::layout_stride::template mapping<cuda::std::dextents<int, rank>>;
  cuda::std::array<int, rank> extents{}, strides{};
  for (std::size_t d = 0; d < rank; ++d) {
    extents[d] = static_cast<int>(m.extent(d));
    strides[d] = static_cast<int>(m.stride(d));
  }
  return GlobalArray<T, rank>(m.data_handle(), Mapping(cuda::std::dextents<int, rank>(extents), strides));
}

// Element (i...) of a global array with 64-bit offset arithmetic.
template <class Array>
SMEMTILE_DEVICE auto& element(const Array& a, int x) {
  return a.data_handle()[x];
}
template <class Array>
SMEMTILE_DEVICE auto& element(const Array& a, int y, int x) {
  return a.data_handle()[static_cast<long long>(y) * a.stride(0) + x];
}
template <class Array>
SMEMTILE_DEVICE auto& element(const Array& a, int z, int y, int x) {
  return a.data_handle()[static_cast<long long>(z) * a.stride(0) + static_cast<long long>(y) * a.stride(1) + x];
}

template <int Radius, StencilShape Shape, class T, class Boundary, class Op>
__global__ void __launch_bounds__(stencil_threads, stencil_min_blocks)
    stencil_1d_kernel(GlobalArray<const T, 1> in, GlobalArray<T, 1> out, Boundary boundary, Op op) {
  using Shape_ = StencilTileShape<static_cast<int>(sizeof(T)), Radius>;
  constexpr int size = Shape_::interior_1d;
  __shared__ StaticHaloTile1D<T, size, Shape_::halo_cols> tile;
  const int origin = block_tile_origin_1d(size);
  copy_global_to_tile(in, origin, tile, boundary, StencilBlock{});
  __syncthreads();
  const int n = static_cast<int>(out.extent(0));
#pragma unroll
  for (int j = 0; j < size / stencil_threads; ++j) {
    const int i = static_cast<int>(threadIdx.x) + j * stencil_threads;
    if (origin + i < n) element(out, origin + i) = static_cast<T>(op(neighborhood<Radius, Shape>(tile, i)));
  }
}

// The ring of tiles (or planes) of a 2D or 3D stencil in dynamic shared memory: slot i starts at
// i * slot_bytes from a 128-byte aligned base (TMA writes there).
template <class T, class Layout>
struct TileRing {
  static constexpr int slot_bytes = (Layout::storage_size() * static_cast<int>(sizeof(T)) + 127) / 128 * 128;
  unsigned char* base;
  SMEMTILE_DEVICE TileRef<T, Layout> operator[](int slot) const {
    return TileRef<T, Layout>{reinterpret_cast<T*>(base + slot * slot_bytes), Layout{}};
  }
};

// The block's dynamic shared memory, aligned up to 128 bytes (the launch adds 128 bytes for it).
SMEMTILE_DEVICE unsigned char* aligned_dynamic_shared() {
  extern __shared__ __align__(16) unsigned char stencil_shared[];
  const unsigned misalignment = static_cast<unsigned>(__cvta_generic_to_shared(stencil_shared)) & 127u;
  return stencil_shared + ((128u - misalignment) & 127u);
}

// TMA: one barrier per ring slot, initialized by thread 0 (then the block synchronizes).
template <int Slots>
SMEMTILE_DEVICE void init_slot_barriers(unsigned long long (&landed)[Slots]) {
#if SMEMTILE_HAS_TMA
  if (threadIdx.x == 0) {
    for (int s = 0; s < Slots; ++s) arch::mbarrier_init(&landed[s], 1);
    arch::fence_mbarrier_init();
  }
#endif
  __syncthreads();
}

// TMA: thread 0 starts loading the box whose first element is `first` (row, col; and `plane` of a
// 3D map, which may lie outside the volume) into `slot_data`, completing on `landed`. The map
// counts columns in TMA elements of UnitBytes (StencilTileShape::tma_unit_bytes).
template <class T, class Layout, bool Volume, int UnitBytes = static_cast<int>(sizeof(T))>
SMEMTILE_DEVICE void start_tma(const CUtensorMap& map, unsigned long long& landed, T* slot_data, int plane, Coord first) {
  static_assert(UnitBytes % sizeof(T) == 0, "a TMA element holds whole elements");
  first.col /= UnitBytes / static_cast<int>(sizeof(T));  // boxes start on whole TMA elements
#if SMEMTILE_HAS_TMA
  if (threadIdx.x == 0) {
    arch::fence_proxy_async_shared();  // the ring slot's earlier reads come before the copy's writes
    arch::mbarrier_arrive_expect_tx(&landed, static_cast<unsigned>(Layout::storage_size() * sizeof(T)));
    if constexpr (Volume) arch::tma_load_3d(slot_data, &map, &landed, plane, first.row, first.col);
    else arch::tma_load_2d(slot_data, &map, &landed, first.row, first.col);
  }
#else
  (void)map, (void)landed, (void)slot_data, (void)plane, (void)first;
  __trap();  // the host launches TMA kernels on sm_90 and later only
#endif
}

SMEMTILE_DEVICE void wait_tma_slot(unsigned long long& landed, unsigned parity) {
#if SMEMTILE_HAS_TMA
  arch::mbarrier_wait_parity(&landed, parity);
#else
  (void)landed, (void)parity;
#endif
}

// Whether the region of a halo tile at `origin` (interior origin) reaches outside the array.
template <class Layout, class Global>
SMEMTILE_DEVICE bool reaches_outside(const Global& global, Coord origin) {
  constexpr Coord reach = layout_reach(Layout{});
  return origin.row - reach.row < 0 || origin.col - reach.col < 0 ||
         origin.row + Layout::rows() + reach.row > static_cast<int>(global.extent(0)) ||
         origin.col + Layout::cols() + reach.col > static_cast<int>(global.extent(1));
}

// After a TMA load (zeros outside the array), writes what `boundary` says into the elements of the
// halo tile at `origin` that lie outside `global` (a plane), or into all of them (`whole`: a plane
// outside the volume under a fill policy). The tile then holds exactly what copy_global_to_tile
// would have loaded. Only tiles reaching outside the array pay for it.
template <class T, class Layout, class Global, class Boundary>
SMEMTILE_DEVICE void write_boundary(TileRef<T, Layout> tile, const Global& global, Coord origin,
                                    const Boundary& boundary, bool whole) {
  constexpr Coord reach = layout_reach(Layout{});
  constexpr int region_cols = Layout::cols() + 2 * reach.col;
  constexpr int count = (Layout::rows() + 2 * reach.row) * region_cols;
  const int rows = static_cast<int>(global.extent(0)), cols = static_cast<int>(global.extent(1));
  for (int k = static_cast<int>(threadIdx.x); k < count; k += stencil_threads) {
    const Coord at = Coord{k / region_cols, k % region_cols} - reach;
    const Coord g = origin + at;
    if (!whole && g.row >= 0 && g.row < rows && g.col >= 0 && g.col < cols) continue;
    if constexpr (Boundary::maps_index) {
      tile(at.row, at.col) = *global_pointer(global, Boundary::map_index(g.row, rows), Boundary::map_index(g.col, cols));
    } else {
      tile(at.row, at.col) = boundary.template value<T>();
    }
  }
}

// Point (j, i) of this thread in a tile of Rows rows (j < Rows / 8, i < cols / 32): Rows / 8
// consecutive rows per thread (neighbouring points share their reads along y), columns 32 apart (a
// warp reads and writes whole rows). The 2D and 3D kernels' one mapping of threads to points.
template <int Rows>
SMEMTILE_DEVICE Coord stencil_point(int j, int i) {
  static_assert(stencil_threads == 256 && Rows % 8 == 0, "eight warps, Rows / 8 rows each");
  return Coord{static_cast<int>(threadIdx.x) / 32 * (Rows / 8) + j, static_cast<int>(threadIdx.x) % 32 + 32 * i};
}

// The values a strip's row holds on each side of its Strip (16 / sizeof(T)) points: Radius rounded
// up to whole 16-byte strips, so that the row loads as whole vectors (star_strips_2d, and the 3D
// strips of stencil_3d_kernel).
template <class T>
SMEMTILE_HOST_DEVICE constexpr int strip_side(int radius) {
  constexpr int strip = 16 / static_cast<int>(sizeof(T));
  return (radius + strip - 1) / strip * strip;
}

// The Strip (16 / sizeof(T)) elements of a 16-byte aligned run of a plane's row, into registers.
template <class T, class Layout, int Strip>
SMEMTILE_DEVICE void load_strip(TileRef<T, Layout> plane, int row, int col, T* values) {
  static_assert(Strip * sizeof(T) == 16, "a strip is one 16-byte vector");
  const uint4 v = *reinterpret_cast<const uint4*>(plane.data() + Layout{}.offset(row, col));
  std::memcpy(values, &v, sizeof(v));
}

// The value of `value` in the lane `lanes` below (Up) or above this one in the warp (all 32 lanes
// take part); lanes with none get their own value back. Any 4- or 8-byte T.
template <bool Up, class T>
SMEMTILE_DEVICE T shuffle_lanes(T value, int lanes) {
  static_assert(sizeof(T) == 4 || sizeof(T) == 8, "4- or 8-byte values");
  using Bits = std::conditional_t<sizeof(T) == 4, unsigned, unsigned long long>;
  Bits bits;
  std::memcpy(&bits, &value, sizeof(T));
  bits = Up ? __shfl_up_sync(0xffffffffu, bits, static_cast<unsigned>(lanes))
            : __shfl_down_sync(0xffffffffu, bits, static_cast<unsigned>(lanes));
  std::memcpy(&value, &bits, sizeof(T));
  return value;
}

// Stores the Strip results of a strip at `first`, column `col` of a row of `cols`: one 16-byte
// store where the strip lies inside the row and its address is aligned, else element by element
// those inside. (The 2D and 3D strips' one store.)
template <class T, int Strip>
SMEMTILE_DEVICE void store_strip(T* first, int col, int cols, const T* results) {
  if (col + Strip <= cols && reinterpret_cast<unsigned long long>(first) % 16 == 0) {
    uint4 v;
    std::memcpy(&v, results, sizeof(v));
    *reinterpret_cast<uint4*>(first) = v;
  } else {
#pragma unroll
    for (int i = 0; i < Strip; ++i)
      if (col + i < cols) first[i] = results[i];
  }
}

// The same at out(row, col ...) of a 2D array; nothing where the row lies outside it.
template <class T, int Strip, class Out>
SMEMTILE_DEVICE void store_strip(Out& out, int row, int col, const T* results) {
  if (row >= static_cast<int>(out.extent(0))) return;
  store_strip<T, Strip>(&element(out, row, col), col, static_cast<int>(out.extent(1)), results);
}

// The neighbourhood of point `s` of a strip of consecutive points of one row of a 2D star
// stencil, all in registers: `row` the strip's row with `Side` values on each side, `window` the
// strip's columns in rows dy = -Radius ... Radius (a star reads nothing else).
template <int Radius, class T, int Strip, int Side>
struct StarStripNeighborhood2D {
  const T* row;     // Strip + 2 Side values: the strip's first point at [Side]
  const T* window;  // 2 Radius + 1 rows of Strip values, dy = -Radius first
  int s;            // the point's position in the strip

  SMEMTILE_DEVICE T center() const { return row[Side + s]; }
  SMEMTILE_DEVICE T operator()(int dy, int dx) const {
    SMEMTILE_CHECK(stencil_offset_allowed(StencilShape::star, Radius, 0, dy, dx),
                   "stencil: offset (dz, dy, dx) beyond the radius, or off the axes of a star stencil", 0, dy, dx,
                   Radius);
    return dy == 0 ? row[Side + s + dx] : window[(Radius + dy) * Strip + s];
  }
};

// 2D star stencils whose tile rows give every lane whole 16-byte strips (Strip = 16 / sizeof(T)
// points): warp w computes rows w * Rows / 8 ..., lane l the strips starting at columns (l + 32 i)
// Strip, reading the tile in 16-byte vectors rather than one element per neighbour per point:
// down its rows a window of 2 Radius + 1 strips (one new vector per row). The row's Radius values
// on either side are the neighbouring lanes' (shuffles); the first and last lanes read theirs.
// Results go out as 16-byte stores. Floats, 5-point stencil: per 4 points one vector load (4
// wavefronts) and two one-lane loads, against 5 to 20 scalar loads; one store against 4.
// (Loading the sides as vectors would not do: the compiler narrows a vector of which one element
// is used to a load of every fourth word, 4 wavefronts for 128 bytes.)
template <int Radius, int Rows, int Cols, class T, class Layout, class Op, class Out>
SMEMTILE_DEVICE void star_strips_2d(TileRef<T, Layout> tile, Coord origin, Op& op, Out& out) {
  constexpr int strip = 16 / static_cast<int>(sizeof(T));
  constexpr int side = strip_side<T>(Radius);
  static_assert(Cols % (32 * strip) == 0 && Rows % 8 == 0, "whole strips for every lane, Rows / 8 rows per warp");
  const int lane = static_cast<int>(threadIdx.x) % 32, first_row = static_cast<int>(threadIdx.x) / 32 * (Rows / 8);
#pragma unroll
  for (int i = 0; i < Cols / (32 * strip); ++i) {
    const int col = (lane + 32 * i) * strip;
    T window[2 * Radius + 1][strip];  // rows r - Radius ... r + Radius of the strip computed
#pragma unroll
    for (int d = 1; d <= 2 * Radius; ++d) load_strip<T, Layout, strip>(tile, first_row - Radius - 1 + d, col, window[d]);
#pragma unroll
    for (int j = 0; j < Rows / 8; ++j) {
      const int r = first_row + j;
#pragma unroll
      for (int d = 0; d < 2 * Radius; ++d)
#pragma unroll
        for (int e = 0; e < strip; ++e) window[d][e] = window[d + 1][e];
      load_strip<T, Layout, strip>(tile, r + Radius, col, window[2 * Radius]);
      T row[strip + 2 * side];  // row[side + e]: column col + e, for -Radius <= e < strip + Radius
#pragma unroll
      for (int e = 0; e < strip; ++e) row[side + e] = window[Radius][e];
#pragma unroll
      for (int d = 1; d <= Radius; ++d) {
        // Column col - d is element (strip - d) mod strip of the strip `lanes` to the left; col +
        // strip - 1 + d element (d - 1) mod strip of the one `lanes` to the right.
        const int lanes = (d + strip - 1) / strip, left_e = lanes * strip - d, right_e = d - 1 - (lanes - 1) * strip;
        T left = shuffle_lanes<true>(window[Radius][left_e], lanes);
        T right = shuffle_lanes<false>(window[Radius][right_e], lanes);
        if (lane < lanes) left = tile(r, col - d);
        if (lane >= 32 - lanes) right = tile(r, col + strip - 1 + d);
        row[side - d] = left;
        row[side + strip - 1 + d] = right;
      }
      T results[strip];
#pragma unroll
      for (int e = 0; e < strip; ++e)
        results[e] = static_cast<T>(op(StarStripNeighborhood2D<Radius, T, strip, side>{row, &window[0][0], e}));
      store_strip<T, strip>(out, origin.row + r, origin.col + col, results);
    }
  }
}

// 2D: tiles in row-major order, tile t at (t / tiles_across, t % tiles_across); block b computes
// tiles b, b + gridDim.x, ... through a ring of stages_2d + 2 slots: stages_2d tiles load while one
// is computed, and the slot written next was last read two steps ago (one barrier per step).
template <int Radius, StencilShape Shape, class T, class Boundary, class Op, bool UseTma, bool Large>
__global__ void __launch_bounds__(stencil_threads, 2)
    stencil_2d_kernel(const __grid_constant__ CUtensorMap map, GlobalArray<const T, 2> in, GlobalArray<T, 2> out,
                      Boundary boundary, Op op, int tiles_across, int tiles) {
  using Shape_ = StencilTileShape<static_cast<int>(sizeof(T)), Radius, Large>;
  constexpr int rows = Shape_::rows_2d, cols = Shape_::cols_2d, stages = Shape_::stages_2d, slots = Shape_::ring_2d;
  using Layout = HaloLayout<rows, cols, Radius, Shape_::halo_cols>;
  // Star stencils of floats: star_strips_2d (5-point stencils at 8192^2 on an H200, large tiles:
  // 94% of cudaMemcpy against 93%; doubles: 94% against 95% without strips).
  constexpr bool strips = Shape == StencilShape::star && sizeof(T) == 4 && cols % 128 == 0;
  const TileRing<T, Layout> ring{aligned_dynamic_shared()};
  __shared__ unsigned long long landed[slots];  // TMA: one barrier per slot
  if constexpr (UseTma) init_slot_barriers(landed);
  const auto origin_of = [&](int t) { return Coord{t / tiles_across * rows, t % tiles_across * cols}; };
  const auto start = [&](int t, int slot) {
    if constexpr (UseTma) {
      start_tma<T, Layout, false, Shape_::tma_unit_bytes>(map, landed[slot], ring[slot].data(), 0,
                                                          origin_of(t) - layout_reach(Layout{}));
    } else {
      copy_global_to_tile_async(in, origin_of(t), ring[slot], boundary, StencilBlock{});
      async_copy_commit();
    }
  };
  const int step = static_cast<int>(gridDim.x);
  int t = static_cast<int>(blockIdx.x);
#pragma unroll
  for (int s = 0; s < stages; ++s) {
    if (t + s * step < tiles) start(t + s * step, s);
    else if constexpr (!UseTma) async_copy_commit();  // cp.async counts groups: keep one per stage
  }
  const int out_rows = static_cast<int>(out.extent(0)), out_cols = static_cast<int>(out.extent(1));
  // Step k computes tile t in slot k % slots (its barrier's phase: (k / slots) % 2) and starts
  // loading the tile `stages` steps ahead into slot (k + stages) % slots, as the 3D sweep does.
  for (int k = 0; t < tiles; t += step, ++k) {
    const int slot = k % slots;
    if (t + stages * step < tiles) start(t + stages * step, (k + stages) % slots);
    else if constexpr (!UseTma) async_copy_commit();
    if constexpr (UseTma) wait_tma_slot(landed[slot], static_cast<unsigned>(k / slots) & 1u);
    else async_copy_wait<stages>();  // all but the newest `stages` groups: tile t
    __syncthreads();
    const Coord origin = origin_of(t);
    const TileRef<T, Layout> tile = ring[slot];
    if constexpr (UseTma && !Boundary::is_zero) {
      if (reaches_outside<Layout>(in, origin)) {  // the same for the whole block
        write_boundary(tile, in, origin, boundary, false);
        __syncthreads();
      }
    }
    if constexpr (strips) {
      star_strips_2d<Radius, rows, cols>(tile, origin, op, out);
    } else {
#pragma unroll
      for (int j = 0; j < rows / 8; ++j)
#pragma unroll
        for (int i = 0; i < cols / 32; ++i) {
          const Coord at = stencil_point<rows>(j, i);
          const Coord g = origin + at;
          if (g.row < out_rows && g.col < out_cols)
            element(out, g.row, g.col) = static_cast<T>(op(neighborhood<Radius, Shape>(tile, at)));
        }
    }
  }
}

// What the 3D star neighbourhoods share: the point's values along z, in registers (column[Radius +
// dz] is its value in plane z + dz), and the check that an offset lies on the axes within Radius.
template <int Radius, class T>
struct StarZColumn {
  const T* column;  // the point's 2 Radius + 1 values along z

  SMEMTILE_DEVICE T center() const { return column[Radius]; }
  // Whether the column holds offset (dz, dy, dx) (off the centre plane, or the point itself);
  // debug builds check that the offset is one a star of Radius may read.
  SMEMTILE_DEVICE bool in_column(int dz, int dy, int dx) const {
    SMEMTILE_CHECK(stencil_offset_allowed(StencilShape::star, Radius, dz, dy, dx),
                   "stencil: offset (dz, dy, dx) beyond the radius, or off the axes of a star stencil", dz, dy, dx,
                   Radius);
    return dz != 0 || (dy == 0 && dx == 0);
  }
};

// The neighbourhood of a point of a 3D star stencil: along z from its column (StarZColumn), along
// x and y (and only those: a star reads the axes) from plane z in shared memory.
template <int Radius, class T, class Layout>
struct StarColumnNeighborhood : StarZColumn<Radius, T> {
  TileRef<T, Layout> plane;  // plane z
  Coord at;                  // the point, in the plane's interior coordinates

  SMEMTILE_DEVICE T operator()(int dz, int dy, int dx) const {
    if (this->in_column(dz, dy, dx)) return this->column[Radius + dz];
    return plane(at.row + dy, at.col + dx);
  }
};

// The neighbourhood of point `s` of a strip of consecutive points of one row, all in registers:
// along z its column (StarZColumn), `row` the strip's row with `Side` values on each side,
// `up_down` the strip's columns in the rows dy = -Radius ... -1, 1 ... Radius (a star stencil
// reads nothing else).
template <int Radius, class T, int Strip, int Side>
struct StarStripNeighborhood : StarZColumn<Radius, T> {
  const T* row;      // Strip + 2 Side values: the strip's first point at [Side]
  const T* up_down;  // 2 Radius rows of Strip values, dy = -Radius first
  int s;             // the point's position in the strip

  SMEMTILE_DEVICE T operator()(int dz, int dy, int dx) const {
    if (this->in_column(dz, dy, dx)) return this->column[Radius + dz];
    if (dy == 0) return row[Side + s + dx];
    return up_down[(dy < 0 ? Radius + dy : Radius + dy - 1) * Strip + s];
  }
};

// 3D: block (x, y, z) computes the xy tile (y, x) of planes z * planes_3d ... (a chunk), sweeping
// along z through a ring of planes in shared memory: sweep plane k (z = first - Radius + k) lives in
// slot k % ring and is loaded `ahead` steps before it is needed. Step k waits for plane k; from
// k = 2 Radius on it computes plane z = first + k - 2 Radius. A box stencil reads planes k - 2 Radius
// ... k; a star keeps each point's values along z in registers (plane k's pushed in at step k) and
// reads only the centre plane k - Radius, so its ring is shorter. The slot a step loads into was
// last read two steps before (one barrier per step).
// Blocks per multiprocessor asked of the register allocator: the cp.async path's copies need more
// registers (fewer blocks) to run without spilling.
template <int Radius, StencilShape Shape, class T, class Boundary, class Op, bool UseTma, bool Large>
__global__ void __launch_bounds__(stencil_threads,
                                  !UseTma ? 2
                                          : StencilTileShape<static_cast<int>(sizeof(T)), Radius, Large>::min_blocks_3d(
                                                Shape == StencilShape::star))
    stencil_3d_kernel(const __grid_constant__ CUtensorMap map, GlobalArray<const T, 3> in, GlobalArray<T, 3> out,
                      Boundary boundary, Op op) {
  using Shape_ = StencilTileShape<static_cast<int>(sizeof(T)), Radius, Large>;
  constexpr bool star = Shape == StencilShape::star;
  constexpr int rows = Shape_::rows_3d, cols = Shape_::cols_3d;
  constexpr int ahead = star ? Shape_::stages_3d_star : Shape_::stages_3d;
  constexpr int slots = star ? Shape_::ring_3d_star : Shape_::ring_3d;
  using Layout = HaloLayout<rows, cols, Radius, Shape_::halo_cols>;
  const TileRing<T, Layout> ring{aligned_dynamic_shared()};
  __shared__ unsigned long long landed[slots];
  if constexpr (UseTma) init_slot_barriers(landed);
  const int depth = static_cast<int>(out.extent(0));
  const int out_rows = static_cast<int>(out.extent(1)), out_cols = static_cast<int>(out.extent(2));
  const Coord origin{static_cast<int>(blockIdx.y) * rows, static_cast<int>(blockIdx.x) * cols};
  const int z_first = static_cast<int>(blockIdx.z) * Shape_::planes_3d;
  const int z_last = z_first + Shape_::planes_3d < depth ? z_first + Shape_::planes_3d : depth;  // one past
  const int planes = z_last - z_first + 2 * Radius;
  // The plane a load reads for sweep plane k: itself, or under an index policy the plane it maps to.
  const auto source_of = [&](int k) {
    const int z = z_first - Radius + k;
    if constexpr (Boundary::maps_index) return z >= 0 && z < depth ? z : Boundary::map_index(z, depth);
    else return z;
  };
  const auto start = [&](int k) {
    const int z = source_of(k);
    if constexpr (UseTma) {
      // A plane outside the volume under a fill policy arrives as zeros (write_boundary fills it).
      start_tma<T, Layout, true, Shape_::tma_unit_bytes>(map, landed[k % slots], ring[k % slots].data(), z,
                                                         origin - layout_reach(Layout{}));
    } else {
      if (z >= 0 && z < depth) {
        copy_global_to_tile_async(plane(in, z), origin, ring[k % slots], boundary, StencilBlock{});
      } else if constexpr (!Boundary::maps_index) {
        fill_tile(ring[k % slots], boundary.template value<T>(), StencilBlock{});
      }
      async_copy_commit();
    }
  };
  // TMA under a policy other than zero: the policy's values into sweep plane k (all threads; the
  // condition is the same for the whole block). Returns whether anything was written.
  const auto write_policy = [&](int k) {
    if constexpr (UseTma && !Boundary::is_zero) {
      const int z = source_of(k);
      const bool whole = z < 0 || z >= depth;  // a fill policy's plane outside the volume
      const int loaded = whole ? 0 : z;
      if (whole || reaches_outside<Layout>(plane(in, loaded), origin)) {
        write_boundary(ring[k % slots], plane(in, loaded), origin, boundary, whole);
        return true;
      }
    }
    (void)k;
    return false;
  };
  for (int k = 0; k < ahead; ++k) {
    if (k < planes) start(k);
    else if constexpr (!UseTma) async_copy_commit();  // cp.async counts groups: one per plane
  }
  const auto point = [](int j, int i) { return stencil_point<rows>(j, i); };
  // Star stencils of 4-byte elements from radius 2 on, default tiles: each thread computes one strip
  // of 4 consecutive points of a row and reads the plane in 16-byte vectors (3 for the row, one per
  // row above and below) rather than one element per neighbour per point: a third of the shared
  // loads, which bound these stencils.
  constexpr int strip = 16 / static_cast<int>(sizeof(T));
  constexpr bool strips = star && sizeof(T) == 4 && Radius >= 2 && !Shape_::wide_3d && cols % strip == 0 &&
                          32 % (cols / strip) == 0 && rows == 8 * (32 / (cols / strip));
  constexpr int side = strip_side<T>(Radius);
  // Star stencils: column[j][i][Radius + dz] is point (j, i)'s value in plane z + dz (strips: j = 0,
  // i the point's position in the strip).
  T column[star ? (strips ? 1 : rows / 8) : 1][star ? (strips ? strip : cols / 32) : 1][2 * Radius + 1] = {};
  for (int k = 0; k < planes; ++k) {
    if (k + ahead < planes) start(k + ahead);
    else if constexpr (!UseTma) async_copy_commit();
    if constexpr (UseTma) wait_tma_slot(landed[k % slots], (k / slots) & 1u);
    else async_copy_wait<ahead>();  // all but the newest `ahead` groups: plane k
    __syncthreads();
    if (write_policy(k)) __syncthreads();
    const int z = z_first + k - 2 * Radius;  // the plane computed at this step, from k = 2 Radius on
    if constexpr (strips) {
      // This thread's strip: warps take 32 / (cols / strip) rows each, lanes strips along a row.
      constexpr int per_row = cols / strip;
      const Coord strip_at{static_cast<int>(threadIdx.x) / 32 * (32 / per_row) + static_cast<int>(threadIdx.x) % 32 / per_row,
                           static_cast<int>(threadIdx.x) % per_row * strip};
      T newest[strip];
      load_strip<T, Layout, strip>(ring[k % slots], strip_at.row, strip_at.col, newest);
#pragma unroll
      for (int i = 0; i < strip; ++i) {
#pragma unroll
        for (int dz = 0; dz < 2 * Radius; ++dz) column[0][i][dz] = column[0][i][dz + 1];
        column[0][i][2 * Radius] = newest[i];
      }
      if (k < 2 * Radius) continue;
      const TileRef<T, Layout> centre = ring[(k - Radius) % slots];
      T row[strip + 2 * side], up_down[2 * Radius][strip];
#pragma unroll
      for (int q = 0; q < (strip + 2 * side) / strip; ++q)
        load_strip<T, Layout, strip>(centre, strip_at.row, strip_at.col - side + q * strip, row + q * strip);
#pragma unroll
      for (int d = 1; d <= Radius; ++d) {
        load_strip<T, Layout, strip>(centre, strip_at.row - d, strip_at.col, up_down[Radius - d]);
        load_strip<T, Layout, strip>(centre, strip_at.row + d, strip_at.col, up_down[Radius + d - 1]);
      }
      const Coord g = origin + strip_at;
      T result[strip];
#pragma unroll
      for (int i = 0; i < strip; ++i) {
        const StarStripNeighborhood<Radius, T, strip, side> n{{column[0][i]}, row, &up_down[0][0], i};
        result[i] = static_cast<T>(op(n));
      }
      if (g.row < out_rows) store_strip<T, strip>(&element(out, z, g.row, g.col), g.col, out_cols, result);
    } else if constexpr (star) {
      const TileRef<T, Layout> newest = ring[k % slots];
#pragma unroll
      for (int j = 0; j < rows / 8; ++j)
#pragma unroll
        for (int i = 0; i < cols / 32; ++i) {
#pragma unroll
          for (int dz = 0; dz < 2 * Radius; ++dz) column[j][i][dz] = column[j][i][dz + 1];
          column[j][i][2 * Radius] = newest(point(j, i).row, point(j, i).col);
        }
      if (k < 2 * Radius) continue;
      const TileRef<T, Layout> centre = ring[(k - Radius) % slots];
#pragma unroll
      for (int j = 0; j < rows / 8; ++j)
#pragma unroll
        for (int i = 0; i < cols / 32; ++i) {
          const StarColumnNeighborhood<Radius, T, Layout> n{{column[j][i]}, centre, point(j, i)};
          const Coord g = origin + point(j, i);
          if (g.row < out_rows && g.col < out_cols) element(out, z, g.row, g.col) = static_cast<T>(op(n));
        }
    } else {
      if (k < 2 * Radius) continue;
      constexpr int slot_elems = TileRing<T, Layout>::slot_bytes / static_cast<int>(sizeof(T));
      Neighborhood3D<Radius, Shape, T, Layout> n{reinterpret_cast<T*>(ring.base), Layout{}, {}, Coord{0, 0}};
#pragma unroll
      for (int dz = 0; dz <= 2 * Radius; ++dz) n.plane_offset[dz] = (k - 2 * Radius + dz) % slots * slot_elems;
#pragma unroll
      for (int j = 0; j < rows / 8; ++j)
#pragma unroll
        for (int i = 0; i < cols / 32; ++i) {
          n.at = point(j, i);
          const Coord g = origin + n.at;
          if (g.row < out_rows && g.col < out_cols) element(out, z, g.row, g.col) = static_cast<T>(op(n));
        }
    }
  }
}

// What device_stencil needs to know of the current device, asked once per call.
struct StencilDevice {
  long long shared_per_block = 0;  // the most dynamic shared memory a block may opt in to
  int multiprocessors = 0;
  bool tma = false;                // sm_90 and later
};

inline LaunchStatus query_stencil_device(StencilDevice* device) {
  int id = 0, major = 0, shared = 0;
  cudaError_t error = cudaGetDevice(&id);
  if (error == cudaSuccess) error = cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, id);
  if (error == cudaSuccess) error = cudaDeviceGetAttribute(&shared, cudaDevAttrMaxSharedMemoryPerBlockOptin, id);
  if (error == cudaSuccess) error = cudaDeviceGetAttribute(&device->multiprocessors, cudaDevAttrMultiProcessorCount, id);
  if (error != cudaSuccess)
    return failed_launch(error, std::string("smemtile::device_stencil: ") + cudaGetErrorString(error));
  device->shared_per_block = shared;
  device->tma = major >= 9;
  return LaunchStatus{};
}

// Lets `kernel` use `bytes` of dynamic shared memory; an error when the device offers fewer bytes
// per block.
template <class Kernel>
LaunchStatus prepare_stencil_kernel(Kernel kernel, long long bytes, const StencilDevice& device) {
  if (bytes > device.shared_per_block)
    return failed_launch(cudaErrorInvalidConfiguration,
                          "smemtile::device_stencil: this radius and element size need " + std::to_string(bytes) +
                              " bytes of shared memory per block; this GPU allows " +
                              std::to_string(device.shared_per_block));
  const cudaError_t error = cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(bytes));
  if (error != cudaSuccess)
    return failed_launch(error, std::string("smemtile::device_stencil: ") + cudaGetErrorString(error));
  return LaunchStatus{};
}

// 2D: about as many blocks as fit at once, each taking tiles in turn (map: TMA's, when UseTma).
template <int Radius, StencilShape Shape, bool UseTma, bool Large, class T, class Boundary, class Op>
LaunchStatus launch_stencil_2d(const StencilDevice& device, const CUtensorMap& map, GlobalArray<const T, 2> in,
                               GlobalArray<T, 2> out, Boundary boundary, Op op, cudaStream_t stream) {
  using Tiles = StencilTileShape<static_cast<int>(sizeof(T)), Radius, Large>;
  static_assert(Tiles::shared_bytes_2d <= max_shared_bytes_per_block,
                "smemtile::device_stencil: this radius needs more shared memory per block than any GPU has");
  const long long across = (static_cast<long long>(in.extent(1)) + Tiles::cols_2d - 1) / Tiles::cols_2d;
  const long long tiles = across * ((static_cast<long long>(in.extent(0)) + Tiles::rows_2d - 1) / Tiles::rows_2d);
  if (tiles > INT_MAX) return failed_launch(cudaErrorInvalidValue, "smemtile::device_stencil: more than 2^31 - 1 tiles");
  const auto kernel = stencil_2d_kernel<Radius, Shape, T, Boundary, Op, UseTma, Large>;
  const LaunchStatus ready = prepare_stencil_kernel(kernel, Tiles::shared_bytes_2d, device);
  if (!ready) return ready;
  int per_multiprocessor = 0;
  const cudaError_t error = cudaOccupancyMaxActiveBlocksPerMultiprocessor(
      &per_multiprocessor, kernel, stencil_threads, static_cast<size_t>(Tiles::shared_bytes_2d));
  if (error != cudaSuccess)
    return failed_launch(error, std::string("smemtile::device_stencil: ") + cudaGetErrorString(error));
  const long long resident = static_cast<long long>(per_multiprocessor < 1 ? 1 : per_multiprocessor) *
                             device.multiprocessors;
  kernel<<<static_cast<unsigned>(tiles < resident ? tiles : resident), stencil_threads,
           static_cast<size_t>(Tiles::shared_bytes_2d), stream>>>(map, in, out, boundary, op, static_cast<int>(across),
                                                                  static_cast<int>(tiles));
  return LaunchStatus{};
}

// 3D: one block per xy tile and chunk of planes_3d planes.
template <int Radius, StencilShape Shape, bool UseTma, bool Large, class T, class Boundary, class Op>
LaunchStatus launch_stencil_3d(const StencilDevice& device, const CUtensorMap& map, GlobalArray<const T, 3> in,
                               GlobalArray<T, 3> out, Boundary boundary, Op op, cudaStream_t stream) {
  using Tiles = StencilTileShape<static_cast<int>(sizeof(T)), Radius, Large>;
  constexpr long long shared = Shape == StencilShape::star ? Tiles::shared_bytes_3d_star : Tiles::shared_bytes_3d;
  static_assert(shared <= max_shared_bytes_per_block,
                "smemtile::device_stencil: the 3D ring of planes for this radius and element size needs more "
                "shared memory per block than any GPU has (radius 4 and below fit for every element size)");
  const auto blocks = [](long long n, int per_block) { return (n + per_block - 1) / per_block; };
  const long long across = blocks(in.extent(2), Tiles::cols_3d), down = blocks(in.extent(1), Tiles::rows_3d);
  const long long chunks = blocks(in.extent(0), Tiles::planes_3d);
  if (across > INT_MAX || down > 65535 || chunks > 65535)
    return failed_launch(cudaErrorInvalidValue,
                          "smemtile::device_stencil: a 3D array of more than 65535 tiles along y or z");
  const auto kernel = stencil_3d_kernel<Radius, Shape, T, Boundary, Op, UseTma, Large>;
  const LaunchStatus ready = prepare_stencil_kernel(kernel, shared, device);
  if (!ready) return ready;
  kernel<<<dim3(static_cast<unsigned>(across), static_cast<unsigned>(down), static_cast<unsigned>(chunks)),
           stencil_threads, static_cast<size_t>(shared), stream>>>(map, in, out, boundary, op);
  return LaunchStatus{};
}

}  // namespace detail

/// Applies a stencil of `Radius` and `Shape` to `in`, writing `out` (same extents, rank 1, 2 or 3,
/// x fastest): out(p) = op(neighbourhood of p in `in`), `boundary` deciding what positions outside
/// `in` hold. Asynchronous on `stream`; the status covers the arguments and the launch. Invalid
/// arguments (different extents, null, overlapping arrays, a non-unit x stride) return
/// cudaErrorInvalidValue and a message; empty arrays return success without a launch.
template <int Radius, StencilShape Shape, class T, class Extents, class LayoutIn, class AccessorIn, class LayoutOut,
          class AccessorOut, class Boundary, class Op>
LaunchStatus device_stencil(cuda::std::mdspan<const T, Extents, LayoutIn, AccessorIn> in,
                            cuda::std::mdspan<T, Extents, LayoutOut, AccessorOut> out, Boundary boundary, Op op,
                            cudaStream_t stream = 0) {
  static_assert(Radius > 0, "smemtile::device_stencil: the radius must be at least 1 (Radius > 0)");
  static_assert(Radius <= 8, "smemtile::device_stencil: radii up to 8 are supported");
  constexpr int rank = static_cast<int>(Extents::rank());
  static_assert(rank >= 1 && rank <= 3, "smemtile::device_stencil: arrays of rank 1, 2 or 3");
  static_assert(std::is_trivially_copyable<T>::value && (sizeof(T) == 1 || sizeof(T) == 2 || sizeof(T) == 4 || sizeof(T) == 8),
                "smemtile::device_stencil: elements of 1, 2, 4 or 8 bytes");
  long long in_extents[3] = {}, out_extents[3] = {}, in_strides[3] = {}, out_strides[3] = {};
  for (int d = 0; d < rank; ++d) {
    in_extents[d] = static_cast<long long>(in.extent(d));
    out_extents[d] = static_cast<long long>(out.extent(d));
    in_strides[d] = static_cast<long long>(in.stride(d));
    out_strides[d] = static_cast<long long>(out.stride(d));
  }
  if (const char* why = stencil_argument_error(rank, in_extents, out_extents, in_strides, out_strides,
                                               reinterpret_cast<unsigned long long>(in.data_handle()),
                                               reinterpret_cast<unsigned long long>(out.data_handle()),
                                               static_cast<int>(sizeof(T))))
    return detail::failed_launch(cudaErrorInvalidValue, std::string("smemtile::device_stencil: ") + why);
  if (in.size() == 0) return LaunchStatus{};

  using Default = StencilTileShape<static_cast<int>(sizeof(T)), Radius>;
  using Large = StencilTileShape<static_cast<int>(sizeof(T)), Radius, true>;
  const auto source = detail::as_global_array(in);
  const auto target = detail::as_global_array(out);
  LaunchStatus launched;
  if constexpr (rank == 1) {
    const auto blocks = static_cast<unsigned>((in_extents[0] + Default::interior_1d - 1) / Default::interior_1d);
    detail::stencil_1d_kernel<Radius, Shape, T><<<blocks, detail::stencil_threads, 0, stream>>>(source, target,
                                                                                               boundary, op);
  } else {
    // TMA with the large tiles where the GPU has TMA and the shared memory for them and the array
    // suits TMA (tma_map_error); TMA with the default tiles; else cp.async.
    detail::StencilDevice device;
    const LaunchStatus queried = detail::query_stencil_device(&device);
    if (!queried) return queried;
    constexpr int E = static_cast<int>(sizeof(T));
    const auto tma_map = [&](auto tiles) {
      using Tiles = decltype(tiles);
      if constexpr (rank == 2)
        return arch::make_tma_map_2d(in.data_handle(), in_extents[0], in_extents[1], in_strides[0], in_strides[1], E,
                                     Tiles::rows_2d + 2 * Radius, Tiles::cols_2d + 2 * Tiles::halo_cols,
                                     Tiles::tma_unit_bytes);
      else
        return arch::make_tma_map_3d(in.data_handle(), in_extents[0], in_extents[1], in_extents[2], in_strides[0],
                                     in_strides[1], in_strides[2], E, Tiles::rows_3d + 2 * Radius,
                                     Tiles::cols_3d + 2 * Tiles::halo_cols, Tiles::tma_unit_bytes);
    };
    const auto launch = [&](auto use_tma, auto large, const CUtensorMap& map) {
      if constexpr (rank == 2)
        return detail::launch_stencil_2d<Radius, Shape, decltype(use_tma)::value, decltype(large)::value>(
            device, map, source, target, boundary, op, stream);
      else
        return detail::launch_stencil_3d<Radius, Shape, decltype(use_tma)::value, decltype(large)::value>(
            device, map, source, target, boundary, op, stream);
    };
    using Yes = std::true_type;
    using No = std::false_type;
    constexpr bool star = Shape == StencilShape::star;
    constexpr long long large_shared =
        rank == 2 ? Large::shared_bytes_2d : star ? Large::shared_bytes_3d_star : Large::shared_bytes_3d;
    constexpr bool large_differs = rank == 2 || Large::large_3d_differs;
    bool done = false;
    if constexpr (large_differs) {
      if (device.tma && device.shared_per_block >= large_shared) {
        const arch::TmaMapResult map = tma_map(Large{});
        if (map) launched = launch(Yes{}, Yes{}, map.map), done = true;
      }
    }
    if (!done && device.tma) {
      const arch::TmaMapResult map = tma_map(Default{});
      if (map) launched = launch(Yes{}, No{}, map.map), done = true;
    }
    if (!done) launched = launch(No{}, No{}, CUtensorMap{});
    if (!launched) return launched;
  }
  const cudaError_t error = cudaGetLastError();
  if (error != cudaSuccess)
    return detail::failed_launch(error, std::string("smemtile::device_stencil: launch failed: ") +
                                             cudaGetErrorString(error));
  return LaunchStatus{};
}

#endif  // __CUDACC__

}  // namespace smemtile
