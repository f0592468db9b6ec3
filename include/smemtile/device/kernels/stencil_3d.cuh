/// \file
/// device_stencil's 3D kernel: each block sweeps one xy tile along z through a ring of planes in
/// shared memory (2 Radius + 1 for the stencil, more loading ahead), so each input element is read
/// from DRAM about once (the 2.5D scheme). Three compute schemes (StencilCompute), one per function.
#pragma once

#include <type_traits>  // std::remove_cv_t
#include <utility>      // std::declval

#include "../../block/async_copy.cuh"     // copy_global_to_tile_async, async_copy_commit/wait
#include "../../block/copy.cuh"           // fill_tile
#include "../../block/stencil.cuh"        // Neighborhood3D, stencil_offset_allowed
#include "../../block/thread_group.cuh"   // FixedThreadBlock
#include "../../core/global_view.cuh"     // plane
#include "../../core/halo_layout.cuh"     // HaloLayout
#include "../../core/row_class_layout.cuh"  // RowClassHaloLayout, row_phase
#include "../tuning/stencil_policy.cuh"   // StencilLoader, StencilCompute, stencil_ring_slots
#include "stencil_common.cuh"             // TileRing, element, stencil_point
#include "stencil_strips.cuh"             // load_strip, store_strip, strip_side
#include "stencil_tma.cuh"                // start_tma, wait_tma_slot, EdgeCells

namespace smemtile {
namespace detail {

#if defined(__CUDACC__)

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
// The planes of one block's sweep along z: sweep plane k is plane first - Radius + k.
template <int Radius, class Boundary>
struct SweepChunk {
  int first;  // the chunk's first plane
  int depth;  // the volume's planes

  // The plane a load reads for sweep plane k: itself, or under an index policy the plane it maps to.
  SMEMTILE_DEVICE int source(int k) const {
    const int z = first - Radius + k;
    if constexpr (Boundary::maps_index) return z >= 0 && z < depth ? z : boundary_source_index<Boundary>(z, depth);
    else return z;
  }
};

// A sweep's ring of planes: sweep plane k in slot k % Slots (TileRing), with its layout: the static
// one, or by row classes (RowClassHaloLayout) the 16-byte phase of its interior row 0, which is row
// source * rows + origin.row of the volume's rows (planes dense: one array of rows).
template <int Slots, class T, class Layout, class Chunk>
struct SweepRing : TileRing<T, Layout> {
  Chunk chunk;
  int origin_phase = 0;  // row classes: the phase of plane 0's row origin.row
  int plane_phase = 0;   // row classes: the bytes from a plane to the next, mod 16
  int pitch_phase = 0;   // row classes: the bytes from a row to the next, mod 16

  SMEMTILE_DEVICE TileRef<T, Layout> plane(int k) const {
    if constexpr (shifts_rows<Layout>)
      return TileRef<T, Layout>{(*this)[k % Slots].data(),
                                Layout{row_phase(origin_phase, plane_phase, chunk.source(k)), pitch_phase}};
    else
      return (*this)[k % Slots];
  }
};

// StencilCompute::points (boxes): plane z from the 2 Radius + 1 planes k - 2 Radius ... k.
template <class Policy, int Radius, StencilShape Shape, int Slots, class T, class Layout, class Op, class Out>
SMEMTILE_DEVICE void sweep_points(TileRing<T, Layout> ring, int k, Coord origin, int z, Op& op, Out& out, int out_rows,
                                  int out_cols) {
  if (k < 2 * Radius) return;
  constexpr int slot_elems = TileRing<T, Layout>::slot_bytes / static_cast<int>(sizeof(T));
  Neighborhood3D<Radius, Shape, T, Layout> n{reinterpret_cast<T*>(ring.base), Layout{}, {}, Coord{0, 0}};
#pragma unroll
  for (int dz = 0; dz <= 2 * Radius; ++dz) n.plane_offset[dz] = (k - 2 * Radius + dz) % Slots * slot_elems;
#pragma unroll
  for (int j = 0; j < Policy::rows / Policy::warps; ++j)
#pragma unroll
    for (int i = 0; i < Policy::cols / 32; ++i) {
      n.at = stencil_point<Policy, Policy::rows>(j, i);
      const Coord g = origin + n.at;
      if (g.row < out_rows && g.col < out_cols) element(out, z, g.row, g.col) = static_cast<T>(op(n));
    }
}

// StencilCompute::star_columns: plane k's values pushed into each point's column, then plane z
// from the columns and the centre plane k - Radius. SkipOutside: points outside the array push
// zero instead of reading plane k, whose cells outside may be being written meanwhile (a TMA
// plane's policy values, written after the step's barrier: stencil_3d_kernel).
template <class Policy, int Radius, int Slots, bool SkipOutside, class T, class Layout, class Chunk, class Column, class Op,
          class Out>
SMEMTILE_DEVICE void sweep_star_columns(Column& column, SweepRing<Slots, T, Layout, Chunk> ring, int k, Coord origin, int z,
                                        Op& op, Out& out, int out_rows, int out_cols) {
  constexpr int rows = Policy::rows, warps = Policy::warps;
  const TileRef<T, Layout> newest = ring.plane(k);
#pragma unroll
  for (int j = 0; j < rows / warps; ++j)
#pragma unroll
    for (int i = 0; i < Policy::cols / 32; ++i) {
#pragma unroll
      for (int dz = 0; dz < 2 * Radius; ++dz) column[j][i][dz] = column[j][i][dz + 1];
      const Coord p = stencil_point<Policy, rows>(j, i);
      if constexpr (SkipOutside)
        column[j][i][2 * Radius] =
            origin.row + p.row < out_rows && origin.col + p.col < out_cols ? newest(p.row, p.col) : T{};
      else
        column[j][i][2 * Radius] = newest(p.row, p.col);
    }
  if (k < 2 * Radius) return;
  const TileRef<T, Layout> centre = ring.plane(k - Radius);
#pragma unroll
  for (int j = 0; j < rows / warps; ++j)
#pragma unroll
    for (int i = 0; i < Policy::cols / 32; ++i) {
      const StarColumnNeighborhood<Radius, T, Layout> n{{column[j][i]}, centre, stencil_point<Policy, rows>(j, i)};
      const Coord g = origin + stencil_point<Policy, rows>(j, i);
      if (g.row < out_rows && g.col < out_cols) element(out, z, g.row, g.col) = static_cast<T>(op(n));
    }
}

// The first point of this thread's strip of Strip points in a plane of the 3D strip schemes
// (star_strips, box_strips): warps take 32 / (cols / Strip) rows each, lanes strips along a row
// (StencilPolicyCheck asserts that the lanes cover whole rows).
template <class Policy, int Strip>
SMEMTILE_DEVICE Coord strip_position() {
  constexpr int per_row = Policy::cols / Strip;
  const int t = static_cast<int>(threadIdx.x);
  return Coord{t / 32 * (32 / per_row) + t % 32 / per_row, t % per_row * Strip};
}

// StencilCompute::star_strips: each thread a strip of Strip (16 / sizeof(T)) consecutive points
// of a row (warps take 32 / (cols / Strip) rows each, lanes strips along a row): plane k's values
// pushed into the strip's columns, then plane z from the columns and 16-byte reads of the centre
// plane k - Radius: `row`, the strip's row with strip_side values on each side, and `up_down`, its
// columns in the Radius rows above and below. The register arrays come from the kernel: declared
// in this function, they were assigned registers in another order (docs/tuning.md, "SASS guard").
template <class Policy, int Radius, int Slots, class T, class Layout, class Chunk, int Strip, int RowValues, class Op,
          class Out>
SMEMTILE_DEVICE void sweep_star_strips(T (&column)[Strip][2 * Radius + 1], T (&newest)[Strip], T (&row)[RowValues],
                                       T (&up_down)[2 * Radius][Strip], T (&result)[Strip],
                                       SweepRing<Slots, T, Layout, Chunk> ring, int k, Coord origin, int z, Op& op,
                                       Out& out, int out_rows, int out_cols) {
  constexpr int side = strip_side<T>(Radius);
  static_assert(Strip * sizeof(T) == 16 && RowValues == Strip + 2 * side, "a strip and its row");
  const Coord at = strip_position<Policy, Strip>();
  load_strip<T, Layout, Strip>(ring.plane(k), at.row, at.col, newest);
#pragma unroll
  for (int i = 0; i < Strip; ++i) {
#pragma unroll
    for (int dz = 0; dz < 2 * Radius; ++dz) column[i][dz] = column[i][dz + 1];
    column[i][2 * Radius] = newest[i];
  }
  if (k < 2 * Radius) return;
  const TileRef<T, Layout> centre = ring.plane(k - Radius);
#pragma unroll
  for (int q = 0; q < RowValues / Strip; ++q)
    load_strip<T, Layout, Strip>(centre, at.row, at.col - side + q * Strip, row + q * Strip);
#pragma unroll
  for (int d = 1; d <= Radius; ++d) {
    load_strip<T, Layout, Strip>(centre, at.row - d, at.col, up_down[Radius - d]);
    load_strip<T, Layout, Strip>(centre, at.row + d, at.col, up_down[Radius + d - 1]);
  }
  const Coord g = origin + at;
#pragma unroll
  for (int i = 0; i < Strip; ++i) {
    const StarStripNeighborhood<Radius, T, Strip, side> n{{column[i]}, row, &up_down[0][0], i};
    result[i] = static_cast<T>(op(n));
  }
  if (g.row < out_rows) store_strip<T, Strip>(&element(out, z, g.row, g.col), g.col, out_cols, result);
}

// The neighbourhood of point `s` of a box strip: the 3 x 3 x (Strip + 2) values around the strip
// in registers (window[1 + dz][1 + dy][1 + s + dx]); a radius-1 box reads nothing else.
template <class T, int Strip>
struct BoxStripNeighborhood {
  const T (*window)[3][Strip + 2];
  int s;  // the point's position in the strip

  SMEMTILE_DEVICE T center() const { return window[1][1][1 + s]; }
  SMEMTILE_DEVICE T operator()(int dz, int dy, int dx) const {
    SMEMTILE_CHECK(stencil_offset_allowed(StencilShape::box, 1, dz, dy, dx),
                   "stencil: offset (dz, dy, dx) beyond the radius", dz, dy, dx, 1);
    return window[1 + dz][1 + dy][1 + s + dx];
  }
};

// StencilCompute::box_strips (3D boxes of radius 1, 4-byte elements): each thread a strip of Strip
// consecutive points of a row (the star strips' mapping); the window of the 3 x 3 x (Strip + 2)
// values around it moves along z in registers: plane k's three rows pushed in at step k (a 16-byte
// read and two single values each), then plane z computed from the window: each value is read
// from shared memory once per strip instead of once per point that needs it.
// Row at.row - 1 + dy of a plane around a box strip: its Strip values and one on each side.
template <int Strip, class T, class Layout>
SMEMTILE_DEVICE void load_box_strip_row(TileRef<T, Layout> plane, Coord at, int dy, T (&row)[Strip + 2]) {
  load_strip<T, Layout, Strip>(plane, at.row - 1 + dy, at.col, &row[1]);
  row[0] = plane(at.row - 1 + dy, at.col - 1);
  row[Strip + 1] = plane(at.row - 1 + dy, at.col + Strip);
}

template <class Policy, int Slots, int Strip, class T, class Layout, class Chunk, class Op, class Out>
SMEMTILE_DEVICE void sweep_box_strips(T (&window)[3][3][Strip + 2], SweepRing<Slots, T, Layout, Chunk> ring, int k,
                                      Coord origin, int z, Op& op, Out& out, int out_rows, int out_cols) {
  static_assert(Strip * sizeof(T) == 16, "a strip is one 16-byte vector");
  const Coord at = strip_position<Policy, Strip>();
  const TileRef<T, Layout> newest = ring.plane(k);
#pragma unroll
  for (int dy = 0; dy < 3; ++dy) {
#pragma unroll
    for (int x = 0; x < Strip + 2; ++x) {
      window[0][dy][x] = window[1][dy][x];
      window[1][dy][x] = window[2][dy][x];
    }
    load_box_strip_row<Strip>(newest, at, dy, window[2][dy]);
  }
  if (k < 2) return;
  T result[Strip];
#pragma unroll
  for (int s = 0; s < Strip; ++s) result[s] = static_cast<T>(op(BoxStripNeighborhood<T, Strip>{window, s}));
  const Coord g = origin + at;
  if (g.row < out_rows) store_strip<T, Strip>(&element(out, z, g.row, g.col), g.col, out_cols, result);
}

// The window of the 3D box strips: the 3 x 3 x (Strip + 2) values around the strip, or for a
// SeparableStencilOp the 3 planes' partials (down() of the across() of their rows) of its points.
template <bool Separable, class Op, class T, int Strip, int Width>
struct BoxStripWindow {
  using type = T[3][3][Width];
};
template <class Op, class T, int Strip, int Width>
struct BoxStripWindow<true, Op, T, Strip, Width> {
  using Row = separable_row_t<Op, T, 1>;                                                              // across()
  using Plane = decltype(std::declval<const Op&>().down(StripPartials<1, Row, Strip>{nullptr, 0}));  // down()
  using type = Plane[3][Strip];
};

// box_strips for a SeparableStencilOp: plane k's three rows are read as in sweep_box_strips, each
// reduced by across(), the three by down(), and the plane's partials pushed into the window; the
// point is through() of the window's three planes.
template <class Policy, int Slots, int Strip, class P, class T, class Layout, class Chunk, class Op, class Out>
SMEMTILE_DEVICE void sweep_separable_box_strips(P (&window)[3][Strip], SweepRing<Slots, T, Layout, Chunk> ring, int k,
                                                Coord origin, int z, const Op& op, Out& out, int out_rows, int out_cols) {
  const Coord at = strip_position<Policy, Strip>();
  const TileRef<T, Layout> newest = ring.plane(k);
  using Row = typename BoxStripWindow<true, Op, T, Strip, Strip + 2>::Row;
  Row rows[3][Strip];
#pragma unroll
  for (int dy = 0; dy < 3; ++dy) {
    T row[Strip + 2];
    load_box_strip_row<Strip>(newest, at, dy, row);
#pragma unroll
    for (int e = 0; e < Strip; ++e) rows[dy][e] = op.across(StripRow<1, T>{row + e});
  }
#pragma unroll
  for (int e = 0; e < Strip; ++e) {
    window[0][e] = window[1][e];
    window[1][e] = window[2][e];
    window[2][e] = op.down(StripPartials<1, Row, Strip>{rows, e});
  }
  if (k < 2) return;
  T result[Strip];
#pragma unroll
  for (int s = 0; s < Strip; ++s) result[s] = static_cast<T>(op.through(StripPartials<1, P, Strip>{window, s}));
  const Coord g = origin + at;
  if (g.row < out_rows) store_strip<T, Strip>(&element(out, z, g.row, g.col), g.col, out_cols, result);
}

// The 3D kernel's plane layout: a HaloLayout, or where planes load by row classes a
// RowClassHaloLayout of equal regions (the class of a plane's first row changes from plane to plane).
template <class Policy, int Radius, class T>
using StencilPlaneLayout3D = std::conditional_t<
    Policy::loader == StencilLoader::tma_row_classes,
    RowClassHaloLayout<Policy::rows, Policy::cols, Radius, Policy::halo_cols, static_cast<int>(sizeof(T)), true>,
    HaloLayout<Policy::rows, Policy::cols, Radius, Policy::halo_cols>>;

// What the 3D kernel's tensor-map parameter is: one map (TMA; unused by cp.async) or one per row
// class of the volume's rows.
template <class Policy, class T>
using StencilMaps3D = std::conditional_t<Policy::loader == StencilLoader::tma_row_classes,
                                         RowClassTensorMaps<(sizeof(T) < 16 ? 16 / static_cast<int>(sizeof(T)) : 1)>,
                                         CUtensorMap>;

// Starts loading sweep plane k into ring slot k % Slots (cp.async: one commit group). By row
// classes, the plane's rows are rows source * rows + row of the volume's rows.
template <class Policy, int Slots, class T, class Layout, class Maps, class Boundary, class Chunk>
SMEMTILE_DEVICE void start_sweep_plane(const Maps& map, unsigned long long (&landed)[Slots], TileRing<T, Layout> ring,
                                       const GlobalArray<const T, 3>& in, const Boundary& boundary, Coord origin,
                                       const Chunk& chunk, int k) {
  const int z = chunk.source(k);
  if constexpr (Policy::loader == StencilLoader::tma_row_classes) {
    // Outside the volume its rows are zeros or another plane's: SweepEdges patches or fills them.
    constexpr int classes = Layout::classes, reach = layout_reach(Layout{}).row;
    const int first_row = z * static_cast<int>(in.extent(1)) + origin.row - reach;
    start_tma_row_classes<T, Layout, Policy::tma_unit_bytes, Policy::warps>(
        map, landed[k % Slots], ring[k % Slots].data(), first_row, (first_row % classes + classes) % classes,
        origin.col - Policy::halo_cols);
  } else if constexpr (Policy::loader == StencilLoader::tma) {
    // A plane outside the volume under a fill policy arrives as zeros (SweepEdges fills it).
    start_tma<T, Layout, true, Policy::tma_unit_bytes>(map, landed[k % Slots], ring[k % Slots].data(), z,
                                                       origin - layout_reach(Layout{}));
  } else {
    if (z >= 0 && z < chunk.depth) {
      copy_global_to_tile_async(plane(in, z), origin, ring[k % Slots], boundary, FixedThreadBlock<Policy::threads>{});
    } else if constexpr (!Boundary::maps_index) {
      fill_tile(ring[k % Slots], boundary.template value<T>(), FixedThreadBlock<Policy::threads>{});
    }
    async_copy_commit();
  }
}

// TMA's plane k landed (this thread waited for it): its cells outside the array (`edge`), or under
// a fill policy the whole plane where it lies outside the volume (not under zero, where TMA's zeros
// are the values, but by row classes, whose rows there may be another plane's). Returns whether it
// filled a whole plane (the same for the whole block).
template <class Policy, int Radius, int Slots, class T, class Layout, class Chunk, class Edge, class Boundary>
SMEMTILE_DEVICE bool patch_plane(SweepRing<Slots, T, Layout, Chunk> ring, const Edge& edge, const Boundary& boundary,
                                 Coord origin, int rows, int cols, int k) {
  const TileRef<T, Layout> plane_k = ring.plane(k);
  if constexpr (!Boundary::maps_index && (!Boundary::is_zero || shifts_rows<Layout>)) {
    if (ring.chunk.source(k) < 0 || ring.chunk.source(k) >= ring.chunk.depth) {
      fill_plane_region<Policy::threads, Radius>(plane_k, origin, rows, cols, boundary);
      return true;
    }
  }
  if (edge.any) edge.write(plane_k.data(), plane_k.layout());
  return false;
}

// TMA under a policy other than zero, by row classes under every policy (a class's rows beyond the
// array hold other rows' values, not zeros), and under zero where the map reads past rows that are
// not whole TMA units (stencil_map_padded): the policy's values in a sweep's planes. Every plane
// of the block's tile has the same EdgeCells (periodic's values loaded a step ahead; by row classes
// as offset codes, each plane's phase applied when written); a fill policy's planes outside the
// volume are filled whole (patch_plane). Each thread writes plane k between its wait for the plane
// and the step's barrier (before_barrier), except under star columns (`late`), which read plane
// k's edge cells first as the centre plane, Radius steps and so at least one barrier later: they
// write after the barrier (after_barrier), overlapping the compute, and their push skips points
// outside (a whole plane filled takes a barrier of its own); under zero (by row classes, or a map
// read past its rows) they write before it, so that zero's push tests nothing per point. Without a
// patch every call is empty.
template <class Policy, int Radius, int Slots, class T, class Layout, class Boundary>
struct SweepEdges {
  static constexpr bool row_classes = Policy::loader == StencilLoader::tma_row_classes;
  static constexpr bool active = stencil_edges_may_patch<Policy, T, Boundary>;
  static constexpr bool late = Policy::compute == StencilCompute::star_columns && !Boundary::is_zero;
  using Chunk = SweepChunk<Radius, Boundary>;
  const GlobalArray<const T, 3>& in;
  const Boundary& boundary;
  const Chunk& chunk;
  Coord origin;
  int rows, cols, planes;  // plane extents; sweep planes of the chunk
  EdgeCells<Policy::threads, Radius, T, Layout, Boundary, row_classes> edge;

  SMEMTILE_DEVICE void plan() {
    if constexpr (active) {
      if (stencil_edges_patched<Policy, T, Boundary>(cols)) edge.plan(origin, rows, cols, in.stride(1), boundary, plane_data(0));
    }
  }
  SMEMTILE_DEVICE void fetch(int k) {
    if constexpr (Boundary::maps_index) {
      if (edge.any && k < planes) edge.fetch(plane_data(k));
    }
  }
  // Periodic: the first element of the plane sweep plane k reads (its far sources lie there).
  SMEMTILE_DEVICE const T* plane_data(int k) const {
    if constexpr (edge_source<Boundary> == EdgeSource::far) return &element(in, chunk.source(k), 0, 0);
    else return nullptr;  // the other policies read no plane
  }
  SMEMTILE_DEVICE void before_barrier(SweepRing<Slots, T, Layout, Chunk> ring, int k) {
    if constexpr (active && !late) patch_plane<Policy, Radius, Slots>(ring, edge, boundary, origin, rows, cols, k);
  }
  SMEMTILE_DEVICE void after_barrier(SweepRing<Slots, T, Layout, Chunk> ring, int k) {
    if constexpr (active) {
      if constexpr (late) {
        if (patch_plane<Policy, Radius, Slots>(ring, edge, boundary, origin, rows, cols, k)) __syncthreads();
      }
      fetch(k + 1);  // periodic: plane k's cells are written, their registers free
    }
  }
};

// The sweep ring of the block at `origin`: by row classes with the phases of its planes' rows
// (core/row_class_layout.cuh: the volume's planes are dense, one array of rows `pitch` apart).
template <int Slots, class T, class Layout, class Chunk>
SMEMTILE_DEVICE SweepRing<Slots, T, Layout, Chunk> sweep_ring(const GlobalArray<const T, 3>& in, const Chunk& chunk,
                                                              Coord origin) {
  SweepRing<Slots, T, Layout, Chunk> ring{{aligned_dynamic_shared()}, chunk};
  if constexpr (shifts_rows<Layout>) {
    const auto bytes = [](long long elements) { return static_cast<int>((elements * static_cast<long long>(sizeof(T))) & 15); };
    ring.pitch_phase = bytes(in.stride(1));
    ring.plane_phase = bytes(in.stride(0));
    ring.origin_phase = row_phase(static_cast<int>(reinterpret_cast<unsigned long long>(in.data_handle()) & 15u),
                                  ring.pitch_phase, origin.row);
  }
  return ring;
}

// Block (x, y, z) computes the xy tile (y, x) of planes z * chunk_planes ... (a chunk of at most
// Policy::planes planes: stencil_chunk_planes), its tile columns counted from column first_col
// (a launch may cover the columns right of another's: stencil_tail_cols), sweeping along z:
// sweep plane k is loaded `stages` steps before it is needed; step k waits for plane k and from
// k = 2 Radius on computes plane z = first + k - 2 Radius. A box reads planes k - 2 Radius ... k
// (box strips keep them in registers and read only plane k); a star keeps each point's values
// along z in registers (plane k's pushed in at step k) and reads only the centre plane k - Radius,
// so its ring is shorter. The slot a step loads into was last read two steps before (one barrier
// per step). Policy: a StencilTiledPolicy of rank 3; `map` is TMA's where it loads with TMA (the
// row classes' maps for tma_row_classes).
template <class Policy, int Radius, StencilShape Shape, class T, class Boundary, class Op>
__global__ void __launch_bounds__(Policy::threads, Policy::min_blocks)
    stencil_3d_kernel(const __grid_constant__ StencilMaps3D<Policy, T> map, GlobalArray<const T, 3> in,
                      GlobalArray<T, 3> out, Boundary boundary, Op op, int chunk_planes, int first_col) {
  constexpr bool UseTma = Policy::loader == StencilLoader::tma || Policy::loader == StencilLoader::tma_row_classes;
  constexpr int rows = Policy::rows, cols = Policy::cols, ahead = Policy::stages;
  constexpr int slots = stencil_ring_slots<Policy>(Radius);
  using Layout = StencilPlaneLayout3D<Policy, Radius, T>;
  static_assert(!shifts_rows<Layout> || Policy::compute != StencilCompute::points,
                "stencil 3D by row classes: the points scheme reads planes through one static layout");
  __shared__ unsigned long long landed[slots];
  if constexpr (UseTma) init_slot_barriers(landed);
  const int depth = static_cast<int>(out.extent(0));
  const int out_rows = static_cast<int>(out.extent(1)), out_cols = static_cast<int>(out.extent(2));
  const Coord origin{static_cast<int>(blockIdx.y) * rows, first_col + static_cast<int>(blockIdx.x) * cols};
  const int z_first = static_cast<int>(blockIdx.z) * chunk_planes;
  const int z_last = z_first + chunk_planes < depth ? z_first + chunk_planes : depth;  // one past
  const int planes = z_last - z_first + 2 * Radius;
  const SweepChunk<Radius, Boundary> chunk{z_first, depth};
  const SweepRing<slots, T, Layout, SweepChunk<Radius, Boundary>> ring = sweep_ring<slots, T, Layout>(in, chunk, origin);
  // Lambdas rather than direct calls: called directly, the loads compiled to other schedules
  // (docs/tuning.md, "SASS guard").
  const auto start = [&](int k) { start_sweep_plane<Policy>(map, landed, ring, in, boundary, origin, chunk, k); };
  for (int k = 0; k < ahead; ++k) {
    if (k < planes) start(k);
    else if constexpr (!UseTma) async_copy_commit();  // cp.async counts groups: one per plane
  }
  constexpr bool strips = Policy::compute == StencilCompute::star_strips;
  constexpr bool box_strips = Policy::compute == StencilCompute::box_strips;
  constexpr bool star = strips || Policy::compute == StencilCompute::star_columns;
  using Edges = SweepEdges<Policy, Radius, slots, T, Layout, Boundary>;
  Edges edges{in, boundary, chunk, origin, out_rows, out_cols, planes, {}};
  edges.plan();
  constexpr int strip = 16 / static_cast<int>(sizeof(T));
  constexpr int side = strip_side<T>(Radius);
  // Stars: column[j][i][Radius + dz] is point (j, i)'s value in plane z + dz (strips: j = 0, i the
  // point's position in the strip).
  T column[star ? (strips ? 1 : rows / Policy::warps) : 1][star ? (strips ? strip : cols / 32) : 1][2 * Radius + 1] = {};
  constexpr bool separable = box_strips && is_separable_stencil_op<std::remove_cv_t<Op>>;
  typename BoxStripWindow<separable, Op, T, strip, box_strips ? strip + 2 : 1>::type window = {};  // box strips, along z
  for (int k = 0; k < planes; ++k) {
    if (k + ahead < planes) start(k + ahead);
    else if constexpr (!UseTma) async_copy_commit();
    if constexpr (UseTma) wait_tma_slot(landed[k % slots], (k / slots) & 1u);
    else async_copy_wait<ahead>();  // all but the newest `ahead` groups: plane k
    edges.before_barrier(ring, k);
    __syncthreads();
    edges.after_barrier(ring, k);
    const int z = z_first + k - 2 * Radius;  // the plane computed at this step, from k = 2 Radius on
    if constexpr (strips) {
      T newest[strip], row[strip + 2 * side], up_down[2 * Radius][strip], result[strip];  // sweep_star_strips
      sweep_star_strips<Policy, Radius, slots>(column[0], newest, row, up_down, result, ring, k, origin, z, op, out,
                                               out_rows, out_cols);
    } else if constexpr (separable) {
      sweep_separable_box_strips<Policy, slots, strip>(window, ring, k, origin, z, op, out, out_rows, out_cols);
    } else if constexpr (box_strips) {
      sweep_box_strips<Policy, slots, strip>(window, ring, k, origin, z, op, out, out_rows, out_cols);
    } else if constexpr (star) {
      sweep_star_columns<Policy, Radius, slots, Edges::late>(column, ring, k, origin, z, op, out, out_rows, out_cols);
    } else {
      sweep_points<Policy, Radius, Shape, slots>(ring, k, origin, z, op, out, out_rows, out_cols);
    }
  }
}

#endif  // __CUDACC__

}  // namespace detail
}  // namespace smemtile
