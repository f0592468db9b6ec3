/// \file
/// device_stencil's tuning: the policies (tile shapes, threads, stages, loader, compute scheme,
/// blocks per multiprocessor) and the selector that picks one for a GPU and a stencil.
//
// A policy is a type; device_stencil<Radius, Shape>(policy, in, out, boundary, op) runs with the
// given one, device_stencil<Radius, Shape>(in, out, boundary, op) with the first of
// stencil_candidates() the GPU and the array allow. Every invariant a policy must satisfy is a
// static_assert below (in the policy, or in StencilPolicyCheck where it depends on the stencil).
// The measurements behind the numbers: docs/tuning.md.
#pragma once

#include <type_traits>  // std::false_type

#include "../../block/stencil.cuh"  // StencilShape
#include "../../core/row_class_layout.cuh"  // detail::row_class_start (the row classes' slots)

namespace smemtile {

/// How a stencil block moves its tiles from global memory into shared memory.
enum class StencilLoader {
  tma,       ///< one TMA copy per tile or plane (sm_90 and later), the boundary written afterwards
  tma_row_classes,  ///< rows off 16 bytes: one TMA copy per class of rows sharing a 16-byte phase
                    ///< (core/row_class_layout.cuh), the rows' shifts added by the readers; 3D:
                    ///< dense planes (a volume's rows are one array), strip and column schemes
  cp_async,  ///< every thread starts cp.async copies (sm_80 and later; synchronous before)
  sync,      ///< every thread loads and stores (copy_global_to_tile)
  stream,    ///< 2D: each warp streams a strip of columns down the rows in registers (no shared
             ///< memory; plain loads, so any pitch and alignment on any GPU): StencilStreamPolicy
  sweep      ///< 3D: one pass of device_stencil_steps's register sweep (a StencilSweepPolicy,
             ///< tuning/stencil_steps_policy.cuh) at one step: boxes whose op is a SeparableStencilOp
             ///< reduce each plane once into partials kept along z in registers (cp.async, any pitch)
};

/// How a stencil block computes its points from the tiles in shared memory.
enum class StencilCompute {
  points,        ///< each point reads its neighbours from shared memory
  star_columns,  ///< 3D stars: each point's values along z stay in registers; x and y from the plane
  star_strips,   ///< stars: a thread computes strips of up to 16 bytes of a row from vector reads
  box_strips     ///< boxes: 2D, a strip's window of rows in registers down the tile; 3D (radius 1, 4-byte
                 ///< elements), its 3 x 3 x (strip + 2) values in registers along z
};

/// The tiles of the default policies: the standard ones, or larger ones where TMA loads them and
/// a block may have 227 KB of shared memory (docs/tuning.md: "large stencil tiles"); long_rows: 2D
/// halves in rows of 1 KB (32 x 512) for large arrays (stencil_long_rows_for), else the large tiles.
enum class StencilTiles { standard, large, long_rows };

/// 1D policy: blocks of Threads threads each load Interior points plus HaloCols on each side
/// (one copy_global_to_tile) and compute them; MinBlocks blocks per multiprocessor are asked of
/// the register allocator (__launch_bounds__).
template <int Interior, int HaloCols, int Threads = 256, int MinBlocks = 4>
struct Stencil1DPolicy {
  static constexpr int rank = 1;                                  ///< array rank
  static constexpr StencilLoader loader = StencilLoader::sync;    ///< loads with copy_global_to_tile
  static constexpr StencilCompute compute = StencilCompute::points;  ///< points from shared memory
  static constexpr int threads = Threads;                          ///< threads per block
  static constexpr int min_blocks = MinBlocks;                     ///< __launch_bounds__ blocks per SM
  static constexpr int interior = Interior;                        ///< points a block computes
  static constexpr int halo_cols = HaloCols;                       ///< halo points on each side
  static constexpr int warps = Threads / 32;                       ///< warps per block
  static constexpr int rows = 1;                                   ///< one row of points
  static constexpr int cols = Interior;                            ///< the points of that row
  static constexpr int tma_unit_bytes = 1;                         ///< (no TMA)
  static_assert(Threads > 0 && Threads % 32 == 0 && Threads <= 1024,
                "Stencil1DPolicy: Threads must be whole warps, at most 1024");
  static_assert(Interior > 0 && Interior % Threads == 0,
                "Stencil1DPolicy: every thread computes Interior / Threads points: make Interior a multiple of Threads");
};

/// 2D and 3D policies: tiles (or xy planes) of Rows x Cols points plus HaloCols columns on each
/// side, loaded by Loader with Stages tiles (planes) loading ahead of the one computed; Planes per
/// block along z (3D); TMA boxes described in TmaUnitBytes-byte elements; Threads threads, each
/// warp computing Rows / warps whole rows 32 points at a time; MinBlocks for __launch_bounds__.
template <int Rank, StencilLoader Loader, StencilCompute Compute, int Rows, int Cols, int HaloCols, int Stages,
          int MinBlocks, int TmaUnitBytes, int Planes = 1, int Threads = 256>
struct StencilTiledPolicy {
  static constexpr int rank = Rank;                   ///< array rank (2 or 3)
  static constexpr StencilLoader loader = Loader;     ///< how tiles load
  static constexpr StencilCompute compute = Compute;  ///< how points are computed
  static constexpr int threads = Threads;             ///< threads per block
  static constexpr int warps = Threads / 32;          ///< warps per block: each computes rows / warps rows
  static constexpr int min_blocks = MinBlocks;        ///< __launch_bounds__ blocks per multiprocessor
  static constexpr int rows = Rows;                   ///< interior rows of a tile (plane)
  static constexpr int cols = Cols;                   ///< interior columns of a tile (plane)
  static constexpr int halo_cols = HaloCols;          ///< halo columns on each side
  static constexpr int stages = Stages;               ///< tiles (planes) loading ahead of the one computed
  static constexpr int tma_unit_bytes = TmaUnitBytes; ///< bytes of the TMA elements a box row counts
  static constexpr int planes = Planes;               ///< 3D: planes per block along z
  static_assert(Rank == 2 || Rank == 3, "StencilTiledPolicy: rank 2 or 3 (1D arrays take a Stencil1DPolicy)");
  static_assert(Loader != StencilLoader::sync, "StencilTiledPolicy: the 2D and 3D kernels load with tma or cp_async");
  static_assert(Loader != StencilLoader::sweep,
                "StencilTiledPolicy: StencilLoader::sweep is a StencilSweepPolicy's (3D arrays; tuning/stencil_steps_policy.cuh)");
  static_assert(Loader != StencilLoader::tma_row_classes || Rank == 2 || Compute != StencilCompute::points,
                "StencilTiledPolicy: 3D planes by tma_row_classes are computed by star_columns, star_strips or "
                "box_strips (the points scheme reads every plane through one static layout)");
  static_assert(Threads == 256,
                "StencilTiledPolicy: the 2D and 3D kernels are written for 8 warps (256 threads); their thread "
                "mappings (stencil_point, the strips) take the warp count from here, so change it with them");
  static_assert(Rows > 0 && Rows % warps == 0,
                "StencilTiledPolicy: each warp computes Rows / warps rows: make Rows a multiple of Threads / 32");
  static_assert(Cols > 0 && Cols % 32 == 0,
                "StencilTiledPolicy: a warp computes rows 32 columns at a time (stencil_point): make Cols a multiple "
                "of 32 (other columns would be left unwritten)");
  static_assert(Stages >= 1, "StencilTiledPolicy: at least one tile (plane) loads ahead");
  static_assert(Rank == 3 || Compute != StencilCompute::star_columns,
                "StencilTiledPolicy: star_columns is a 3D scheme (columns along z); 2D stars take points or star_strips");
  static_assert(Rank == 3 || Planes == 1, "StencilTiledPolicy: Planes is for 3D policies; leave it 1 in 2D");
  static_assert(Planes >= 1, "StencilTiledPolicy: at least one plane per block");
  static_assert(TmaUnitBytes == 1 || TmaUnitBytes == 2 || TmaUnitBytes == 4 || TmaUnitBytes == 8,
                "StencilTiledPolicy: TMA elements of 1, 2, 4 or 8 bytes");
};

/// 2D stream policy (StencilLoader::stream): warp w of the grid takes a strip of 32 Columns columns
/// (lane l: columns l, l + 32, ...) and Rows rows, and streams down them with the rows in
/// registers: the 2 Radius + 1 rows a point reads and Ahead rows loading. x neighbours come from
/// the neighbouring lanes (shuffles), the Radius columns beyond the strip from one more load per
/// row. No shared memory and no barrier: every load is an ordinary one, at any alignment, so
/// arrays TMA cannot describe and GPUs without TMA take it (docs/tuning.md, "2D stream").
template <int Columns, int Ahead, int Rows = 64, int Warps = 4, int MinBlocks = 4>
struct StencilStreamPolicy {
  static constexpr int rank = 2;                                     ///< 2D arrays only
  static constexpr StencilLoader loader = StencilLoader::stream;     ///< rows straight into registers
  static constexpr StencilCompute compute = StencilCompute::points;  ///< each point from its values
  static constexpr int columns = Columns;      ///< values of a row per lane
  static constexpr int ahead = Ahead;          ///< rows loading ahead of the window
  static constexpr int rows = Rows;            ///< rows a warp streams (its strip's height)
  static constexpr int cols = 32 * Columns;    ///< columns of a warp's strip
  static constexpr int warps = Warps;          ///< warps per block (each its own strip)
  static constexpr int threads = 32 * Warps;   ///< threads per block
  static constexpr int min_blocks = MinBlocks; ///< __launch_bounds__ blocks per multiprocessor
  static_assert(Columns >= 1 && Columns <= 16, "StencilStreamPolicy: 1 to 16 values of a row per lane");
  static_assert(Ahead >= 1 && Ahead <= 8, "StencilStreamPolicy: 1 to 8 rows loading ahead");
  static_assert(Rows >= 1, "StencilStreamPolicy: a warp streams at least one row");
  static_assert(Warps >= 1 && Warps <= 32, "StencilStreamPolicy: 1 to 32 warps per block");
  static_assert(MinBlocks >= 1, "StencilStreamPolicy: at least one block per multiprocessor");
};

/// A forced path: passed where a policy goes, `device_stencil<R, S>(StencilForcedLoader<
/// StencilLoader::cp_async>{}, in, out, boundary, op)` runs the default policy of that loader and
/// those tiles for this stencil (DefaultStencilPolicy of the array's rank, the element size, R and
/// S) instead of the one the GPU and the array select: the cp.async path on an H100 or H200, say,
/// to measure it or to compare it with TMA. Forcing tma fails with cudaErrorInvalidValue and a
/// message where the GPU has no TMA (before sm_90), TMA cannot describe the array
/// (arch::tma_map_error: pitches not multiples of 16 bytes, ...) or a 3D periodic array's planes
/// span more than 2^31 elements (stencil_plane_offsets_fit). 1D arrays have one path (sync):
/// the tag then runs it whatever it names.
template <StencilLoader Loader, StencilTiles Tiles = StencilTiles::standard>
struct StencilForcedLoader {
  static constexpr StencilLoader loader = Loader;  ///< the loader forced
  static constexpr StencilTiles tiles = Tiles;     ///< the tiles forced
};

/// Whether P is one of the stencil policies above.
template <class P>
struct IsStencilPolicy : std::false_type {};
/// A 1D policy is a stencil policy.
template <int I, int H, int T, int M>
struct IsStencilPolicy<Stencil1DPolicy<I, H, T, M>> : std::true_type {};
/// A 2D or 3D policy is a stencil policy.
template <int R, StencilLoader L, StencilCompute C, int Ro, int Co, int H, int S, int M, int U, int P, int T>
struct IsStencilPolicy<StencilTiledPolicy<R, L, C, Ro, Co, H, S, M, U, P, T>> : std::true_type {};
/// A 2D stream policy is a stencil policy.
template <int C, int A, int Ro, int W, int M>
struct IsStencilPolicy<StencilStreamPolicy<C, A, Ro, W, M>> : std::true_type {};

/// The values a star strip holds on each side of its 16 / ElemBytes points: Radius rounded up to
/// whole 16-byte strips, so that the row loads as whole vectors.
SMEMTILE_HOST_DEVICE constexpr int stencil_strip_side(int elem_bytes, int radius) {
  return (radius + 16 / elem_bytes - 1) / (16 / elem_bytes) * (16 / elem_bytes);
}

/// Points of a 2D strip (StencilCompute::star_strips, box_strips): 16 bytes of a row where the
/// tile's columns give every lane whole 16-byte strips, else the widest power of two of them that
/// does (tiles of 128 bytes: 4 bytes a lane; one shared load of 4, 8 or 16 bytes per row).
SMEMTILE_HOST_DEVICE constexpr int stencil_strip_points(int elem_bytes, int cols) {
  int points = 16 / elem_bytes;
  while (points > 1 && (cols / 32) % points != 0) points /= 2;
  return points;
}

/// Slots in a policy's ring of tiles (planes): 2D the one computed, the stages loading, one being
/// released; 3D boxes the 2 Radius + 1 planes read plus those (box strips, whose values along z
/// stay in registers, only the newest); 3D stars (values along z in registers) Radius + 1 planes
/// from the centre to the newest plus those.
template <class Policy>
SMEMTILE_HOST_DEVICE constexpr int stencil_ring_slots(int radius) {
  return Policy::rank == 2 || Policy::compute == StencilCompute::box_strips ? Policy::stages + 2
         : Policy::compute == StencilCompute::points                       ? 2 * radius + 2 + Policy::stages
                                                                           : radius + 2 + Policy::stages;
}

/// Bytes of one ring slot: a tile with its halo, rounded up to 128 bytes (TMA's alignment).
template <class Policy>
SMEMTILE_HOST_DEVICE constexpr long long stencil_slot_bytes(int elem_bytes, int radius) {
  if (Policy::loader == StencilLoader::tma_row_classes && elem_bytes < 16) {  // RowClassHaloLayout's regions
    const int stride = Policy::cols + 2 * Policy::halo_cols + detail::row_class_extra_cols(elem_bytes, Policy::halo_cols, radius);
    return (static_cast<long long>(detail::row_class_start(Policy::rows + 2 * radius, stride, 16 / elem_bytes,
                                                           128 / elem_bytes, 16 / elem_bytes, Policy::rank == 3)) *
                elem_bytes + 127) / 128 * 128;
  }
  return (static_cast<long long>(Policy::rows + 2 * radius) * (Policy::cols + 2 * Policy::halo_cols) * elem_bytes +
          127) / 128 * 128;
}

/// Dynamic shared memory of a block of a 2D or 3D policy (128 more for aligning the ring; 1D
/// policies use static shared memory only: 0).
template <class Policy>
SMEMTILE_HOST_DEVICE constexpr long long stencil_shared_bytes(int elem_bytes, int radius) {
  if constexpr (Policy::rank == 1) return 0;
  else return stencil_ring_slots<Policy>(radius) * stencil_slot_bytes<Policy>(elem_bytes, radius) + 128;
}

/// The most shared memory one block can have on any GPU smemtile targets (sm_90: 227 KB).
inline constexpr long long max_shared_bytes_per_block = 227 * 1024;

/// The invariants a policy must satisfy for a stencil of Radius and Shape on elements of ElemBytes
/// bytes (device_stencil instantiates it with the policy it runs).
template <class Policy, int ElemBytes, int Radius, StencilShape Shape>
struct StencilPolicyCheck {
  static_assert(IsStencilPolicy<Policy>::value,
                "smemtile::device_stencil: the policy must be a Stencil1DPolicy or a StencilTiledPolicy");
  static_assert(Policy::halo_cols >= Radius, "stencil policy: HaloCols must be at least the radius");
  static_assert(Policy::halo_cols * ElemBytes % 16 == 0,
                "stencil policy: halo rows must be whole 16-byte vectors (HaloCols * element bytes % 16 == 0)");
  static_assert(Policy::rank == 1 || Policy::tma_unit_bytes % ElemBytes == 0,
                "stencil policy: a TMA element (TmaUnitBytes) holds whole elements");
  static_assert(Policy::loader != StencilLoader::tma_row_classes ||
                    (ElemBytes <= 8 && Policy::rows % (16 / (ElemBytes <= 8 ? ElemBytes : 8)) == 0),
                "stencil policy: tma_row_classes takes elements of up to 8 bytes (16-byte ones are aligned) and "
                "tile rows a multiple of 16 / ElemBytes (each tile's storage row j then holds one class of rows)");
  static_assert(Policy::compute == StencilCompute::points || Policy::compute == StencilCompute::box_strips ||
                    Shape == StencilShape::star,
                "stencil policy: star_columns and star_strips compute star stencils only; box stencils take points "
                "or box_strips");
  static_assert(Policy::compute != StencilCompute::box_strips ||
                    (Shape == StencilShape::box && (Policy::rank == 2 || (Radius == 1 && ElemBytes == 4))),
                "stencil policy: box_strips computes box stencils: 2D any, 3D radius 1 on 4-byte elements; others "
                "take points");
  static constexpr int strip = 16 / ElemBytes;  ///< points of one 16-byte strip
  static_assert(Policy::compute != StencilCompute::star_strips || Policy::rank == 2 ||
                    (ElemBytes == 4 && Policy::cols % strip == 0),
                "stencil policy: 3D star_strips are written for 4-byte elements, Cols a multiple of 4");
  static constexpr bool strips_3d = Policy::rank == 3 && (Policy::compute == StencilCompute::star_strips ||
                                                          Policy::compute == StencilCompute::box_strips);  ///< 3D strips
  static_assert(!strips_3d || (Policy::cols % strip == 0 && 32 % (Policy::cols / strip) == 0 &&
                               Policy::rows == Policy::warps * (32 / (Policy::cols / strip))),
                "stencil policy: 3D star_strips and box_strips map a warp's 32 lanes onto whole rows of strips: "
                "Cols / 4 must divide 32 and Rows be warps * 32 / (Cols / 4)");
  static_assert(stencil_shared_bytes<Policy>(ElemBytes, Radius) <= max_shared_bytes_per_block,
                "smemtile::device_stencil: this policy's ring needs more shared memory per block than any GPU has "
                "(fewer stages, smaller tiles; radius 4 and below fit for every element size with the defaults)");
  static constexpr bool ok = true;  ///< instantiating the check passed
};

/// The invariants of a stream policy for a stencil of Radius and Shape (2D, any element size): the
/// Radius columns beyond a strip are held by Radius lanes on each side of one register.
template <int C, int A, int Ro, int W, int M, int ElemBytes, int Radius, StencilShape Shape>
struct StencilPolicyCheck<StencilStreamPolicy<C, A, Ro, W, M>, ElemBytes, Radius, Shape> {
  static_assert(StencilStreamPolicy<C, A, Ro, W, M>::threads > 0, "");  // the policy's own static_asserts
  static_assert(2 * Radius <= 32, "stencil stream policy: radii up to 16 (a lane per column beyond the strip)");
  static constexpr bool ok = true;  ///< instantiating the check passed
};

/// The default policies, as selected by stencil_candidates (docs/tuning.md, "stencil policies");
/// `Separable`: the op is a SeparableStencilOp (its strips keep partials, not values).
template <int Rank, int ElemBytes, int Radius, StencilShape Shape, StencilLoader Loader,
          StencilTiles Tiles = StencilTiles::standard, bool Separable = false>
struct DefaultStencilPolicy;

/// 1D: 4096 points per block (16 per thread), 4 blocks per multiprocessor (docs/tuning.md).
template <int ElemBytes, int Radius, StencilShape Shape, StencilLoader Loader, StencilTiles Tiles, bool Separable>
struct DefaultStencilPolicy<1, ElemBytes, Radius, Shape, Loader, Tiles, Separable> {
  /// the policy
  using type = Stencil1DPolicy<4096, (Radius + 16 / ElemBytes - 1) / (16 / ElemBytes) * (16 / ElemBytes)>;
};

namespace detail {
// Halo columns: Radius rounded up to a multiple of halo_bytes (16: rows start aligned where the
// array's do; large: 128, 64 for bytes, so TMA boxes start on 128-byte lines; docs/tuning.md).
SMEMTILE_HOST_DEVICE constexpr int stencil_halo_cols(int elem_bytes, int radius, StencilTiles tiles) {
  const int unit = (tiles == StencilTiles::standard ? 16 : elem_bytes == 1 ? 64 : 128) / elem_bytes;
  return (radius + unit - 1) / unit * unit;
}
}  // namespace detail

/// 2D: 32 x 128 tiles (64 columns for 8-byte elements); large: 32 rows of 1 KB (256 floats, 128
/// doubles), 32 x 512 bytes (16-byte strips; 48 rows at radius 1, and at radius 2 for separable
/// ops, so a strip's window is filled for 6 rows, not 4), 64 x 128 halves (long_rows: 32 x 512), floats, bytes
/// and long rows of halves described to TMA in 8-byte units; one tile loading ahead; strips for stars of elements up to 4 bytes and boxes up to radius 2, radius 4 for
/// elements up to 4 bytes (bytes: on TMA tiles, the cp.async copy of bytes leaving them too few
/// registers), else points (docs/tuning.md, "2D strips").
template <int ElemBytes, int Radius, StencilShape Shape, StencilLoader Loader, StencilTiles Tiles, bool Separable>
struct DefaultStencilPolicy<2, ElemBytes, Radius, Shape, Loader, Tiles, Separable> {
  static constexpr bool large = Tiles != StencilTiles::standard;                   ///< the large tiles
  static constexpr bool long_rows = Tiles == StencilTiles::long_rows && ElemBytes == 2;  ///< halves' 1 KB rows
  static constexpr int cols = large && ElemBytes == 4            ? 256
                              : (large && ElemBytes == 1) || long_rows ? 512
                              : large || ElemBytes <= 4          ? 128
                                                                 : 64;  ///< columns
  static constexpr bool wide_units = large && (ElemBytes == 4 || ElemBytes == 1 || long_rows);  ///< TMA in 8-byte units
  static constexpr bool star = Shape == StencilShape::star;    ///< a star stencil
  static constexpr bool box_strips = (Radius <= 2 || (Radius <= 4 && ElemBytes <= 4)) &&
                                     (ElemBytes >= 2 || Loader != StencilLoader::cp_async);  ///< a box's strips
  static constexpr bool strips = star ? ElemBytes <= 4 : box_strips;                  ///< strips
  static constexpr int rows = large && ElemBytes == 2 && !long_rows                       ? 64
                              : large && ElemBytes == 1 && (Radius == 1 || (Separable && Radius == 2)) ? 48
                                                                                                        : 32;  ///< rows
  /// the policy
  using type = StencilTiledPolicy<2, Loader,
                                  !strips ? StencilCompute::points
                                  : star  ? StencilCompute::star_strips
                                          : StencilCompute::box_strips,
                                  rows, cols,
                                  detail::stencil_halo_cols(ElemBytes, Radius, Tiles), 1, 2,
                                  wide_units ? 8 : ElemBytes>;
};

/// 2D stream (StencilLoader::stream): a row's values per lane and rows ahead by element size,
/// radius and shape, chosen so that a lane's rows fit its registers at four blocks of 128 threads
/// per multiprocessor without spilling (docs/tuning.md, "2D stream"): stars keep shifted copies of
/// the centre row only, boxes of every row of the window.
SMEMTILE_HOST_DEVICE constexpr int stencil_stream_columns(int elem_bytes, int radius, StencilShape shape) {
  if (elem_bytes <= 2) return 4;  // bytes and halves: wider rows spill (docs/tuning.md, "2D stream")
  const int bytes = shape == StencilShape::star ? (radius == 1 ? 32 : radius == 2 ? 16 : 8) : (radius == 1 ? 16 : 4);
  const int columns = bytes / elem_bytes;
  return columns < 1 ? 1 : columns > 16 ? 16 : columns;  // StencilStreamPolicy's 1 to 16
}
/// Rows loading ahead of a stream's window (docs/tuning.md, "2D stream").
SMEMTILE_HOST_DEVICE constexpr int stencil_stream_ahead(int elem_bytes, int radius, StencilShape shape) {
  return shape == StencilShape::star && radius == 1 && elem_bytes == 4 ? 1 : elem_bytes == 4 && radius <= 2 ? 3 : 2;
}
/// 2D stream: the shape stencil_stream_columns and stencil_stream_ahead give (the tiles do not apply).
template <int ElemBytes, int Radius, StencilShape Shape, StencilTiles Tiles, bool Separable>
struct DefaultStencilPolicy<2, ElemBytes, Radius, Shape, StencilLoader::stream, Tiles, Separable> {
  /// the policy
  using type = StencilStreamPolicy<stencil_stream_columns(ElemBytes, Radius, Shape),
                                   stencil_stream_ahead(ElemBytes, Radius, Shape)>;
};

/// 3D: 16 x 64 planes, 64 planes per block (48 from radius 3), two planes loading ahead (three
/// for stars); large, radius 1: 32 rows of 1 KB (32 x 128 for narrower elements), one ahead. Stars
/// of 4-byte elements from radius 2 compute strips, boxes of radius 1 box strips; blocks per
/// multiprocessor per tile and shape (docs/tuning.md).
template <int ElemBytes, int Radius, StencilShape Shape, StencilLoader Loader, StencilTiles Tiles, bool Separable>
struct DefaultStencilPolicy<3, ElemBytes, Radius, Shape, Loader, Tiles, Separable> {
  static_assert(Loader != StencilLoader::stream, "smemtile stencil: the stream loader is for 2D arrays");
  static_assert(Tiles != StencilTiles::long_rows, "smemtile stencil: the long rows are 2D tiles (of halves)");
  static constexpr bool star = Shape == StencilShape::star;                   ///< a star stencil
  static constexpr bool wide = Tiles == StencilTiles::large && Radius == 1;    ///< the wide planes
  static constexpr int rows = wide ? 32 : 16;                                  ///< plane rows
  static constexpr int cols = wide && ElemBytes == 4 ? 256 : wide ? 128 : 64;  ///< plane columns
  static constexpr int box_stages = wide ? 1 : 2;                              ///< planes ahead (box)
  static constexpr int stages = !star ? box_stages : wide && ElemBytes >= 4 ? 1 : box_stages + 1;  ///< ahead
  static constexpr bool strips_fit = !wide && ElemBytes == 4 && cols % 4 == 0 && 32 % (cols / 4) == 0 &&
                                     rows == 8 * (32 / (cols / 4));                     ///< whole strips per warp
  static constexpr bool strips = star && Radius >= 2 && strips_fit;                     ///< star strips
  static constexpr bool box_strips = !star && Radius == 1 && strips_fit;                ///< box strips
  static constexpr bool row_classes = Loader == StencilLoader::tma_row_classes;  ///< shifted rows: more registers
  static constexpr int min_blocks = Loader == StencilLoader::cp_async ? 2
                                    : wide                       ? (ElemBytes == 4 || row_classes ? 1 : 2)
                                    : box_strips                 ? 3
                                    : Radius <= 2                ? 4
                                    : star                       ? (row_classes || ElemBytes == 8 ? 2 : 3)
                                                                 : 2;  ///< __launch_bounds__
  /// the policy
  using type = StencilTiledPolicy<3, Loader,
                                  box_strips ? StencilCompute::box_strips
                                  : !star    ? StencilCompute::points
                                  : strips   ? StencilCompute::star_strips
                                             : StencilCompute::star_columns,
                                  rows, cols, detail::stencil_halo_cols(ElemBytes, Radius, Tiles), stages, min_blocks,
                                  Tiles == StencilTiles::large && ElemBytes == 4 ? 8 : ElemBytes,
                                  Radius >= 3 ? 48 : 64>;
};

/// Whether the large tiles of a stencil of Rank and Radius differ from the standard ones (2D always,
/// 3D radius 1 only: wider radii keep the standard planes); only then is a kernel built for them.
template <int Rank, int Radius>
inline constexpr bool stencil_large_tiles_differ = Rank == 2 || Radius == 1;

/// Whether the selection may take the large tiles: where they differ, except for 3D boxes (their
/// 2 Radius + 1 large planes leave one block per multiprocessor, slower than the standard planes).
template <int Rank, int Radius, StencilShape Shape>
inline constexpr bool stencil_large_tiles_selected =
    stencil_large_tiles_differ<Rank, Radius> && (Rank == 2 || Shape == StencilShape::star);

/// Planes per block of a 3D sweep of `depth` planes over `tiles` xy tiles, `resident` blocks at a
/// time on the GPU, when the sweep fills at least one wave: the policy's `planes` at most, fewer
/// where that fills the last wave of blocks better. Of the lengths from `planes` down to half of
/// it, the one with the highest share of block slots used over whole waves times the share of
/// loaded planes computed (each chunk reads 2 Radius planes beyond it); ties keep the longer chunk
/// (docs/tuning.md, "3D chunks").
SMEMTILE_HOST_DEVICE constexpr int stencil_chunk_planes_balanced(long long depth, long long tiles, long long resident,
                                                                 int planes, int radius) {
  int best = planes;
  double best_score = -1;
  for (int c = planes; c >= (planes + 1) / 2; --c) {
    const long long blocks = (depth + c - 1) / c * tiles;
    const long long waves = (blocks + resident - 1) / resident;
    const double score = static_cast<double>(blocks) / static_cast<double>(waves * resident) *
                         static_cast<double>(c) / static_cast<double>(c + 2 * radius);
    if (score > best_score * (1 + 1e-9)) {
      best = c;
      best_score = score;
    }
  }
  return best;
}

/// The shortest chunk stencil_chunk_planes cuts to fill a GPU: an eighth of the policy's planes,
/// and at least the 2 Radius planes every chunk loads beyond it.
SMEMTILE_HOST_DEVICE constexpr int stencil_chunk_min(int planes, int radius) {
  return (planes + 7) / 8 > 2 * radius ? (planes + 7) / 8 : 2 * radius;
}

/// Planes per block of a 3D sweep (device_stencil's chunks along z). A volume whose chunks of
/// stencil_chunk_planes_balanced leave part of the only wave idle is cut into as many equal chunks
/// as one wave holds, each at least stencil_chunk_min planes: a small volume then spreads over the
/// multiprocessors instead of a few blocks sweeping long chunks (docs/tuning.md, "3D chunks").
SMEMTILE_HOST_DEVICE constexpr int stencil_chunk_planes(long long depth, long long tiles, long long resident, int planes,
                                                        int radius) {
  if (depth <= 0 || tiles <= 0 || resident <= 0) return planes;
  const int balanced = stencil_chunk_planes_balanced(depth, tiles, resident, planes, radius);
  const long long chunks = (depth + balanced - 1) / balanced;
  if (chunks * tiles >= resident) return balanced;
  const int least = stencil_chunk_min(planes, radius);
  const long long fit = resident / tiles;                     // chunks per tile one wave holds
  const long long most = (depth + least - 1) / least;         // chunks of at least `least` planes
  const long long wanted = fit < most ? fit : most;
  if (wanted < chunks) return balanced;
  const long long even = (depth + wanted - 1) / wanted;       // equal chunks, the last one shorter by < 1
  return static_cast<int>(even < balanced ? even : balanced);
}

/// Whether a GPU of compute capability `cc_major`.x has TMA (sm_90 and later).
SMEMTILE_HOST_DEVICE constexpr bool stencil_gpu_has_tma(int cc_major) { return cc_major >= 9; }

/// Whether the selection takes the 2D stream after TMA, before cp.async, where it was measured
/// ahead of cp.async's tiles (docs/tuning.md, "2D stream"): 1- and 2-byte elements up to radius 2
/// (cp.async moves their rows off 4 bytes element by element, synchronously); 4-byte elements,
/// stars of radius 1 and 2 and boxes of radius 1; 8-byte elements, stars of radius 1 (their wider
/// stencils shuffle two words per value and lose to the tiles). Other stencils may force it
/// (StencilForcedLoader).
SMEMTILE_HOST_DEVICE constexpr bool stencil_stream_selected(int rank, int elem_bytes, int radius, StencilShape shape) {
  if (rank != 2) return false;
  if (elem_bytes <= 2) return radius <= 2;
  if (elem_bytes == 4) return shape == StencilShape::star ? radius <= 2 : radius == 1;
  return elem_bytes == 8 && shape == StencilShape::star && radius == 1;
}

/// What the selector knows of the GPU and the call.
struct StencilTarget {
  int cc_major = 0;                  ///< compute capability, major (9 for sm_90)
  long long shared_per_block = 0;    ///< the most dynamic shared memory a block may opt in to
  long long points = 0;              ///< elements of the array (0: not known, taken as large)
  long long cols = 0;                ///< its columns, the last extent (0: not known)
};

/// 3D arrays below this many points take the standard TMA planes rather than the large ones, and
/// so do 2D boxes of 4-byte elements (docs/tuning.md, "stencil policies by size and boundary").
inline constexpr long long stencil_large_planes_min_points = 1LL << 26;

/// The same for 3D arrays of 8-byte elements, whose large planes (32 x 128, two blocks per
/// multiprocessor) ran faster from 224^3 on (docs/tuning.md, "large planes below 2^26 points").
inline constexpr long long stencil_large_planes_min_points_8_bytes = 1LL << 23;

/// 3D arrays of 4-byte elements from this many points take the large planes already where their
/// columns fill them (stencil_large_planes_filled; docs/tuning.md, "large planes below 2^26 points").
inline constexpr long long stencil_large_planes_min_points_filled = 3LL << 22;

/// Whether `cols` columns fill planes `plane_cols` wide: whole planes, the last at least 7/8 full.
SMEMTILE_HOST_DEVICE constexpr bool stencil_large_planes_filled(long long cols, int plane_cols) {
  const long long rest = plane_cols > 0 ? cols % plane_cols : 1;
  return cols >= plane_cols && (rest == 0 || 8 * rest >= 7LL * plane_cols);
}

/// Whether the selection may take the large tiles for a call on `gpu` (stencil_large_tiles_selected
/// says whether it may for the stencil): 3D arrays and 2D boxes of 4-byte elements up to radius 2
/// from stencil_large_planes_min_points points (3D 8-byte elements from
/// stencil_large_planes_min_points_8_bytes, 3D 4-byte elements whose columns fill the planes from
/// stencil_large_planes_min_points_filled; smaller ones ran faster on the standard tiles), wider
/// boxes of 4-byte elements never; other 2D stencils at every size.
template <int Rank, int ElemBytes, StencilShape Shape, int Radius = 1>
SMEMTILE_HOST_DEVICE constexpr bool stencil_large_tiles_for(const StencilTarget& gpu) {
  const long long least = Rank == 3 && ElemBytes == 8 ? stencil_large_planes_min_points_8_bytes
                                                      : stencil_large_planes_min_points;
  const bool large_array = gpu.points == 0 || gpu.points >= least;
  if constexpr (Rank == 3 && ElemBytes == 4) {
    constexpr int plane_cols = DefaultStencilPolicy<3, 4, 1, StencilShape::star, StencilLoader::tma, StencilTiles::large>::type::cols;
    return large_array || (gpu.points >= stencil_large_planes_min_points_filled &&
                           stencil_large_planes_filled(gpu.cols, plane_cols));
  }
  if (Rank == 3) return large_array;
  if (Shape == StencilShape::box && ElemBytes == 4) return Radius <= 2 && large_array;
  return true;
}

/// 2D arrays of halves from this many points take rows of 1 KB (StencilTiles::long_rows), smaller
/// ones 64 x 128 (docs/tuning.md, "2D tiles").
inline constexpr long long stencil_long_rows_min_points = 3LL << 25;

/// Whether the selection takes the long rows (StencilTiles::long_rows) for a stencil: 2D halves,
/// stars up to radius 2 and the 3 x 3 box, where they were measured. H200, % of cudaMemcpy, 64 x 128
/// -> 32 x 512, zero / clamp: 5-point 16384^2 83.9 -> 95.0 / 90.3 -> 94.1, 8192 x 12288 85.5 ->
/// 96.4 / 93.9 -> 93.9; at 4000 x 6016 they lost (93.2 -> 88.7 / 89.6 -> 83.2).
template <int Rank, int ElemBytes, int Radius, StencilShape Shape>
inline constexpr bool stencil_long_rows_selected =
    Rank == 2 && ElemBytes == 2 && (Shape == StencilShape::star ? Radius <= 2 : Radius == 1);

/// Whether a call on `gpu` takes the long rows where the stencil may (stencil_long_rows_selected).
SMEMTILE_HOST_DEVICE constexpr bool stencil_long_rows_for(const StencilTarget& gpu) {
  return gpu.points == 0 || gpu.points >= stencil_long_rows_min_points;
}

/// Columns of a 3D array `cols` wide that the selection's large planes (`large_cols` wide) leave to
/// a second launch on the standard planes, 0 for none: for 4-byte elements, the columns past the
/// last whole large plane where they fill at most half of one. Such a last tile column costs its
/// blocks (one per multiprocessor) nearly a whole plane's sweep each for a few columns' work; the
/// narrower planes of doubles lose less there and lost to the second launch (docs/tuning.md,
/// "ragged last tile columns").
SMEMTILE_HOST_DEVICE constexpr long long stencil_tail_cols(long long cols, int large_cols, int elem_bytes) {
  const long long rest = large_cols > 0 ? cols % large_cols : 0;
  return elem_bytes == 4 && cols > large_cols && rest > 0 && 2 * rest <= large_cols ? rest : 0;
}

/// 3D volumes below this many points keep the tiled paths rather than the single-step sweep
/// (stencil_sweep_single_selected): a sweep block loads its chunk and the planes around it, and
/// smaller volumes give too few blocks (docs/tuning.md, "3D separable boxes by the sweep").
inline constexpr long long stencil_sweep_single_min_points = 1LL << 20;

/// From this many points the single-step sweep is tried before TMA, below it after TMA (so where
/// TMA cannot read the array): radius-1 boxes of doubles at 128^3 ran slower swept than by TMA
/// under clamp, from 160^3 faster under every policy; radius 2 faster from 128^3 (docs/tuning.md).
SMEMTILE_HOST_DEVICE constexpr long long stencil_sweep_single_first_points(int radius) {
  return radius == 1 ? 3LL << 20 : 1LL << 20;
}

/// Whether the selection may compute a single step by the register sweep (StencilLoader::sweep):
/// 3D boxes of radius 1 and 2 of 8-byte elements whose op is a SeparableStencilOp (`separable`).
/// The tiled paths compute such a box point by point from shared memory, (2R + 1)^3 loads of 8
/// bytes per point; the sweep reduces each plane once into partials kept along z in registers.
/// Floats keep their box strips, which keep partials too and ran faster than the sweep.
SMEMTILE_HOST_DEVICE constexpr bool stencil_sweep_single_selected(int rank, int elem_bytes, int radius,
                                                                  StencilShape shape, bool separable) {
  return rank == 3 && elem_bytes == 8 && (radius == 1 || radius == 2) && shape == StencilShape::box && separable;
}

/// One default policy: its loader and tiles.
struct StencilChoice {
  StencilLoader loader;  ///< the loader (its default policy: DefaultStencilPolicy)
  StencilTiles tiles;    ///< standard or large
};

/// The default policies device_stencil tries, best first; a TMA one is taken where TMA can
/// describe the array (arch::tma_map_error) and, in 3D under periodic, stencil_plane_offsets_fit,
/// else the next.
struct StencilCandidates {
  StencilChoice choice[7];  ///< the policies, best first
  int count = 0;            ///< how many
};

/// The tiles a stencil loads by row classes (StencilLoader::tma_row_classes): those its TMA path
/// takes on large arrays (long rows of halves, else the large tiles where the stencil takes them,
/// else the standard ones); one kernel per stencil, whatever the array's size.
template <int Rank, int ElemBytes, int Radius, StencilShape Shape>
inline constexpr StencilTiles stencil_row_classes_tiles = stencil_long_rows_selected<Rank, ElemBytes, Radius, Shape> ? StencilTiles::long_rows
                                                          : stencil_large_tiles_selected<Rank, Radius, Shape> &&
                                                                    stencil_large_tiles_for<Rank, ElemBytes, Shape, Radius>(StencilTarget{})
                                                              ? StencilTiles::large
                                                              : StencilTiles::standard;

/// Whether the selection takes TMA by row classes where TMA cannot read the array whole (rows off 16
/// bytes), before the 2D stream, where it was measured ahead of the stream and cp.async
/// (docs/tuning.md, "rows off 16 bytes by row classes"): 2D radius-1 stencils of 4- and 8-byte
/// elements, byte boxes, halves from radius 3 (not wider 4- and 8-byte stencils, whose shifted
/// strips ran at half cp.async's speed, nor byte stars and halves up to radius 2, faster on the
/// stream); 3D (dense planes) stars of doubles, radius-1 stars of floats (star columns) and radius-1
/// boxes of floats (box strips); not the float star strips of radius 2 to 4 (shifted 16-byte reads
/// of a dozen rows a plane: slower than cp.async) nor the points of wider boxes and boxes of doubles.
template <int Rank, int ElemBytes, int Radius, StencilShape Shape>
inline constexpr bool stencil_row_classes_selected =
    Rank == 2 ? (ElemBytes == 1 && Shape == StencilShape::box) || (ElemBytes == 2 && Radius >= 3) ||
                    ((ElemBytes == 4 || ElemBytes == 8) && Radius == 1)
              : Rank == 3 && (Shape == StencilShape::star ? ElemBytes == 8 || (ElemBytes == 4 && Radius == 1)
                                                          : ElemBytes == 4 && Radius == 1);

/// The tiles a call on `gpu` loads by row classes: stencil_row_classes_tiles, but in 3D the standard
/// planes where the TMA path takes them too (stencil_large_tiles_for: smaller volumes).
template <int Rank, int ElemBytes, int Radius, StencilShape Shape>
SMEMTILE_HOST_DEVICE constexpr StencilTiles stencil_row_classes_tiles_for(const StencilTarget& gpu) {
  return Rank == 3 && !stencil_large_tiles_for<Rank, ElemBytes, Shape, Radius>(gpu)
             ? StencilTiles::standard
             : stencil_row_classes_tiles<Rank, ElemBytes, Radius, Shape>;
}

/// Dynamic shared memory of a stencil's row-classes policy with `tiles` (0: the selection takes
/// none: stencil_row_classes_selected).
template <int Rank, int ElemBytes, int Radius, StencilShape Shape>
SMEMTILE_HOST_DEVICE constexpr long long stencil_row_classes_shared(
    StencilTiles tiles = stencil_row_classes_tiles<Rank, ElemBytes, Radius, Shape>) {
  constexpr StencilLoader rows = StencilLoader::tma_row_classes;
  if constexpr (stencil_row_classes_selected<Rank, ElemBytes, Radius, Shape>)
    return tiles == StencilTiles::standard
               ? stencil_shared_bytes<typename DefaultStencilPolicy<Rank, ElemBytes, Radius, Shape, rows>::type>(ElemBytes, Radius)
               : stencil_shared_bytes<typename DefaultStencilPolicy<Rank, ElemBytes, Radius, Shape, rows,
                                                                    stencil_row_classes_tiles<Rank, ElemBytes, Radius, Shape>>::type>(
                     ElemBytes, Radius);
  else
    return 0;
}

/// The candidates for a stencil of Rank, Radius and Shape on elements of ElemBytes bytes on `gpu`:
/// 1D: sync. 2D and 3D: TMA with the long rows where stencil_long_rows_selected and
/// stencil_long_rows_for; TMA with the large tiles where the GPU has TMA (sm_90 and later), the
/// shared memory for them, they differ (3D: radius 1 only), in 3D the stencil is a star, and the
/// call takes them (stencil_large_tiles_for: the array's size); TMA with the standard tiles; in 2D,
/// TMA by row classes where stencil_row_classes_selected (arrays whose rows are off 16 bytes; the
/// tiles of stencil_row_classes_tiles, where the shared memory suffices); the 2D stream where
/// stencil_stream_selected; cp.async with the standard tiles (docs/tuning.md, "stencil policies by
/// size and boundary"). The single-step sweep where stencil_sweep_single_selected (`Separable`: the
/// op is a SeparableStencilOp), the GPU has cp.async (sm_80 and later) and the volume has at least
/// stencil_sweep_single_min_points points: first from stencil_sweep_single_first_points (or where
/// the size is not known), else right after TMA's standard tiles (the dispatch checks that its
/// planes fit).
template <int Rank, int ElemBytes, int Radius, StencilShape Shape, bool Separable = false>
SMEMTILE_HOST_DEVICE constexpr StencilCandidates stencil_candidates(StencilTarget gpu) {
  StencilCandidates c{};
  if (Rank == 1) {
    c.choice[c.count++] = StencilChoice{StencilLoader::sync, StencilTiles::standard};
    return c;
  }
  const bool sweep = stencil_sweep_single_selected(Rank, ElemBytes, Radius, Shape, Separable) && gpu.cc_major >= 8 &&
                     (gpu.points == 0 || gpu.points >= stencil_sweep_single_min_points);
  const bool sweep_first = sweep && (gpu.points == 0 || gpu.points >= stencil_sweep_single_first_points(Radius));
  if (sweep_first) c.choice[c.count++] = StencilChoice{StencilLoader::sweep, StencilTiles::standard};
  using Large = typename DefaultStencilPolicy<Rank, ElemBytes, Radius, Shape, StencilLoader::tma,
                                              StencilTiles::large>::type;
  const bool tma = stencil_gpu_has_tma(gpu.cc_major);
  using LongRows = typename DefaultStencilPolicy<Rank, ElemBytes, Radius, Shape, StencilLoader::tma,
                                                 Rank == 2 ? StencilTiles::long_rows : StencilTiles::large>::type;
  if (stencil_long_rows_selected<Rank, ElemBytes, Radius, Shape> && tma && stencil_long_rows_for(gpu) &&
      gpu.shared_per_block >= stencil_shared_bytes<LongRows>(ElemBytes, Radius))
    c.choice[c.count++] = StencilChoice{StencilLoader::tma, StencilTiles::long_rows};
  if (stencil_large_tiles_selected<Rank, Radius, Shape> && tma && stencil_large_tiles_for<Rank, ElemBytes, Shape, Radius>(gpu) &&
      gpu.shared_per_block >= stencil_shared_bytes<Large>(ElemBytes, Radius))
    c.choice[c.count++] = StencilChoice{StencilLoader::tma, StencilTiles::large};
  if (tma) c.choice[c.count++] = StencilChoice{StencilLoader::tma, StencilTiles::standard};
  if (sweep && !sweep_first) c.choice[c.count++] = StencilChoice{StencilLoader::sweep, StencilTiles::standard};
  // Rows off 16 bytes (TMA cannot describe the array whole): stencil_row_classes_tiles_for by row classes.
  const StencilTiles row_tiles = stencil_row_classes_tiles_for<Rank, ElemBytes, Radius, Shape>(gpu);
  if (tma && stencil_row_classes_selected<Rank, ElemBytes, Radius, Shape> &&
      gpu.shared_per_block >= stencil_row_classes_shared<Rank, ElemBytes, Radius, Shape>(row_tiles))
    c.choice[c.count++] = StencilChoice{StencilLoader::tma_row_classes, row_tiles};
  if (stencil_stream_selected(Rank, ElemBytes, Radius, Shape))
    c.choice[c.count++] = StencilChoice{StencilLoader::stream, StencilTiles::standard};
  c.choice[c.count++] = StencilChoice{StencilLoader::cp_async, StencilTiles::standard};
  return c;
}

/// Whether a 3D TMA sweep under periodic can read the far side of planes of rows x cols elements,
/// rows `pitch` apart: to spare registers, each thread keeps the plane offsets of its edge cells'
/// sources in 32 bits, so every element of a plane must lie within 2^31 - 1 of its first. Larger
/// planes (8 GB of floats) take the next candidate, cp.async.
SMEMTILE_HOST_DEVICE constexpr bool stencil_plane_offsets_fit(long long rows, long long cols, long long pitch) {
  return (rows - 1) * pitch + (cols - 1) <= (1LL << 31) - 1;
}

}  // namespace smemtile
