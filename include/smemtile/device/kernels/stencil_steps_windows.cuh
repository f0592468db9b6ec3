/// \file
/// What device_stencil_steps's kernel (kernels/stencil_steps.cuh) gives an op: the neighbourhoods of
/// its two compute schemes (from shared memory, or from a window of registers), and a block's tile.
//
// The kernel: several steps of a stencil per trip through memory. Each block loads a region (its
// output tile and depth x radius around it) with the boundary policy, applies the steps in shared
// memory between two region buffers, each step on a region one radius narrower per side, and
// writes its tile after the last.
//
// Why the result is exactly that of single steps: every point a block keeps is computed by the
// same op from the same values. Inside the array that holds by induction (a point's neighbours lie
// in the region computed one step before). Outside it, the boundary policy decides: periodic
// arrays are translation-invariant, so a point outside is computed like any other (its
// neighbours, loaded through the policy, are the image's); under the other policies the points
// within a radius of the array are rewritten after each step from the step's own values (clamp,
// reflect: the point they map to, which lies in the region) or the fill (zero, constant). Only
// blocks whose region reaches outside the array pay for that.
#pragma once

#include <type_traits>  // std::is_same

#include "../../block/async_copy.cuh"             // copy_global_to_tile_async, async_copy_commit/wait
#include "../../block/copy.cuh"                   // fill_tile
#include "../../block/stencil.cuh"                // StencilShape, stencil_offset_allowed
#include "../../block/thread_group.cuh"           // FixedThreadBlock
#include "../../core/boundary.cuh"                // boundary::Periodic
#include "../../core/global_view.cuh"             // GlobalArray, plane
#include "../../core/halo_layout.cuh"             // HaloLayout
#include "../../core/tile_ref.cuh"                // TileRef
#include "../tuning/stencil_steps_policy.cuh"     // StencilStepsPolicy, stencil_steps_geometry
#include "stencil_common.cuh"                     // aligned_dynamic_shared, element

namespace smemtile {
namespace detail {

#if defined(__CUDACC__)

// A block's tile: where its region starts in the array (a, y, x; the halo included, so negative at
// the array's start) and the array's extents along the same axes (rank 1: a = y = 0, na = ny = 1;
// rank 2: y = 0, ny = 1).
struct StepsTile {
  int a, y, x;     // the region's first element, in array coordinates
  int na, ny, nx;  // the array's extents
};

// The neighbour (da, dy, dx) of a point as an op asks for it: n(dx) in 1D, n(dy, dx) in 2D (dy along
// the slowest axis a), n(dz, dy, dx) in 3D (dz along a). Debug builds check the offset.
template <int Rank, int Radius, StencilShape Shape, class Derived>
struct StepsNeighborhoodCalls {
  static constexpr int rank = Rank;  ///< how an op reads it (SeparableStencilOp asks)
  SMEMTILE_DEVICE auto operator()(int dx) const { return self().at(0, 0, dx); }
  SMEMTILE_DEVICE auto operator()(int dy, int dx) const {
    static_assert(Rank <= 2, "smemtile stencil: a 3D op reads n(dz, dy, dx)");
    return self().at(Rank == 2 ? dy : 0, 0, dx);
  }
  SMEMTILE_DEVICE auto operator()(int dz, int dy, int dx) const { return self().at(dz, dy, dx); }
  SMEMTILE_DEVICE auto center() const { return self().at(0, 0, 0); }
  SMEMTILE_DEVICE static void check(int da, int dy, int dx) {
    SMEMTILE_CHECK(stencil_offset_allowed(Shape, Radius, Rank >= 2 ? da : 0, Rank == 3 ? dy : 0, dx) &&
                       (Rank >= 2 || da == 0) && (Rank == 3 || dy == 0),
                   "stencil: offset (dz, dy, dx) beyond the radius, or off the axes of a star stencil", da, dy, dx,
                   Radius);
  }

 private:
  SMEMTILE_DEVICE const Derived& self() const { return static_cast<const Derived&>(*this); }
};

// StencilStepsCompute::points: the neighbours from the region buffer in shared memory.
template <int Rank, int Radius, StencilShape Shape, class T, int Slice, int Row>
struct StepsPointNeighborhood
    : StepsNeighborhoodCalls<Rank, Radius, Shape, StepsPointNeighborhood<Rank, Radius, Shape, T, Slice, Row>> {
  const T* point;  // the point in the buffer
  SMEMTILE_DEVICE T at(int da, int dy, int dx) const {
    this->check(da, dy, dx);
    return point[da * Slice + dy * Row + dx];
  }
};

// StencilStepsCompute::window, box stencils: the (2 RA + 1) x (2 RY + 1) x W values around a run of
// points along x, in registers; this is point v of the run (W = run + 2 Radius).
template <int Rank, int Radius, StencilShape Shape, class T, int RA, int RY, int W>
struct StepsBoxWindow
    : StepsNeighborhoodCalls<Rank, Radius, Shape, StepsBoxWindow<Rank, Radius, Shape, T, RA, RY, W>> {
  const T (*values)[2 * RY + 1][W];  // [RA + da][RY + dy][Radius + v + dx]
  int v;                             // the point's place in the run
  SMEMTILE_DEVICE T at(int da, int dy, int dx) const {
    this->check(da, dy, dx);
    return values[RA + da][RY + dy][Radius + v + dx];
  }
};

// StencilStepsCompute::window, star stencils: the run's values along the slowest axis, and the
// centre slice's row around the run and (3D) its columns, in registers (a star reads nothing
// else); this is point v of the run of V.
template <int Rank, int Radius, StencilShape Shape, class T, int RA, int RY, int V>
struct StepsStarWindow
    : StepsNeighborhoodCalls<Rank, Radius, Shape, StepsStarWindow<Rank, Radius, Shape, T, RA, RY, V>> {
  const T (*line)[V];   // [RA + da][v]
  const T (*arm_y)[V];  // [RY + dy][v]
  const T* arm_x;       // [Radius + v + dx]
  int v;                // the point's place in the run
  SMEMTILE_DEVICE T at(int da, int dy, int dx) const {
    this->check(da, dy, dx);
    if (da != 0 || (dy == 0 && dx == 0)) return line[RA + da][v];
    return dy != 0 ? arm_y[RY + dy][v] : arm_x[Radius + v + dx];
  }
};

#endif  // __CUDACC__

}  // namespace detail
}  // namespace smemtile
