/// \file
/// device_stencil_steps's kernel: the region load, one step's sweep in each compute scheme, the
/// boundary band rewritten between steps, and the kernel that strings them together (why its result
/// is exactly that of single steps: stencil_steps_windows.cuh).
#pragma once

#include "../../core/shared_address.cuh"  // shared_window_address
#include "../../core/vector_type.cuh"  // VectorOf
#include "stencil_steps_windows.cuh"  // StepsTile, the neighbourhoods

namespace smemtile {
namespace detail {

#if defined(__CUDACC__)

// Whether a policy's points outside the array are computed like any other (periodic: the array
// repeats, so a point outside is an image of one inside) rather than rewritten after each step.
template <class Boundary>
inline constexpr bool steps_compute_outside = std::is_same<Boundary, boundary::Periodic>::value;

// Whether a policy's points outside the array copy the points they map to (clamp, reflect): the
// fused steps rewrite them after a second barrier, a register sweep computes them where they map to.
template <class Boundary>
inline constexpr bool steps_rewrite_outside = Boundary::maps_index && !steps_compute_outside<Boundary>;

// This block's tile (blockIdx: x tiles, then slowest-axis tiles, then 3D row tiles).
template <class Policy, int Radius, class T, std::size_t Rank>
SMEMTILE_DEVICE StepsTile steps_tile(const GlobalArray<const T, Rank>& in) {
  constexpr StencilStepsGeometry g = stencil_steps_geometry<Policy>(static_cast<int>(sizeof(T)), Radius);
  StepsTile t{};
  t.x = static_cast<int>(blockIdx.x) * g.tile_x - g.halo_x;
  t.a = static_cast<int>(blockIdx.y) * g.tile_a - g.halo_a;
  t.y = static_cast<int>(blockIdx.z) * g.tile_y - g.halo_y;
  t.nx = static_cast<int>(in.extent(Rank - 1));
  t.na = Rank >= 2 ? static_cast<int>(in.extent(0)) : 1;
  t.ny = Rank == 3 ? static_cast<int>(in.extent(1)) : 1;
  return t;
}

// Whether the region of `t` reaches outside the array (the same for the whole block).
template <class Policy>
SMEMTILE_DEVICE bool steps_region_reaches_outside(const StepsTile& t) {
  return t.a < 0 || t.y < 0 || t.x < 0 || t.a + Policy::region_a > t.na || t.y + Policy::region_y > t.ny ||
         t.x + Policy::region_x > t.nx;
}

// The region of `t` into `buffer` (row-major, x fastest), every element through `boundary`: one
// halo-tile copy (rank 3: one per plane; planes outside the volume map or fill). Committed as one
// cp.async group.
template <class Policy, int Radius, class T, std::size_t Rank, class Boundary>
SMEMTILE_DEVICE void load_steps_region(const GlobalArray<const T, Rank>& in, const StepsTile& t, T* buffer,
                                       Boundary boundary) {
  constexpr StencilStepsGeometry g = stencil_steps_geometry<Policy>(static_cast<int>(sizeof(T)), Radius);
  using Group = FixedThreadBlock<Policy::threads>;
  if constexpr (Rank == 1) {
    using Layout = HaloLayout<1, g.tile_x, 0, g.halo_x, 0, 1>;
    copy_global_to_tile_async(in, t.x + g.halo_x, TileRef<T, Layout>{buffer, Layout{}}, boundary, Group{});
  } else if constexpr (Rank == 2) {
    using Layout = HaloLayout<g.tile_a, g.tile_x, g.halo_a, g.halo_x>;
    copy_global_to_tile_async(in, Coord{t.a + g.halo_a, t.x + g.halo_x}, TileRef<T, Layout>{buffer, Layout{}},
                              boundary, Group{});
  } else {
    using Layout = HaloLayout<g.tile_y, g.tile_x, g.halo_y, g.halo_x>;
    for (int p = 0; p < Policy::region_a; ++p) {
      const TileRef<T, Layout> slice{buffer + p * Policy::region_y * Policy::region_x, Layout{}};
      int z = t.a + p;
      if (z < 0 || z >= t.na) {
        if constexpr (Boundary::maps_index) {
          z = boundary_source_index<Boundary>(z, t.na);
        } else {
          fill_tile(slice, boundary.template value<T>(), Group{});
          continue;
        }
      }
      copy_global_to_tile_async(plane(in, z), Coord{t.y + g.halo_y, t.x + g.halo_x}, slice, boundary, Group{});
    }
  }
  async_copy_commit();
}

// Where each thread's lines lie: a plane's RegionY x RegionX points, Policy::vector consecutive x
// per line, are spread over the threads, each taking whole lines along the slowest axis; where a
// plane has fewer lines than the block threads, lines are split into `segments` along that axis.
template <class Policy>
struct StepsLines {
  static constexpr int cells = Policy::region_y * Policy::region_x / Policy::vector;  // lines of a region
  static constexpr int segments = cells >= Policy::threads ? 1 : Policy::threads / cells;
  static constexpr int per_thread = cells * segments / Policy::threads;
  static constexpr int segment = (Policy::region_a + segments - 1) / segments;  // slices per segment
  static constexpr int slice = Policy::region_y * Policy::region_x;            // elements per slice
};

// V consecutive elements from shared memory at `from` (aligned to V elements) as one access.
template <int V, class T>
SMEMTILE_DEVICE void load_run(const T* from, T* to) {
  if constexpr (V == 1) {
    to[0] = from[0];
  } else {
    using Vector = typename VectorOf<V * static_cast<int>(sizeof(T))>::type;
    const Vector v = *reinterpret_cast<const Vector*>(from);
    __builtin_memcpy(to, &v, sizeof(Vector));
  }
}
template <int V, class T>
SMEMTILE_DEVICE void store_run(T* to, const T* from) {
  if constexpr (V == 1) {
    to[0] = from[0];
  } else {
    using Vector = typename VectorOf<V * static_cast<int>(sizeof(T))>::type;
    Vector v;
    __builtin_memcpy(&v, from, sizeof(Vector));
    *reinterpret_cast<Vector*>(to) = v;
  }
}

// The same into shared memory, as one vector store written out: through a vector type nvcc split
// it into 4-byte stores (4-way bank conflicts for a run of 4 floats).
template <int V, class T>
SMEMTILE_DEVICE void store_run_shared(T* to, const T* from) {
  constexpr int bytes = V * static_cast<int>(sizeof(T));
  if constexpr (bytes != 8 && bytes != 16) {
    store_run<V>(to, from);
  } else {
    unsigned words[bytes / 4] = {};
#pragma unroll
    for (int v = 0; v < V; ++v) {
      if constexpr (sizeof(T) == 8) {
        unsigned long long b;
        __builtin_memcpy(&b, &from[v], 8);
        words[2 * v] = static_cast<unsigned>(b);
        words[2 * v + 1] = static_cast<unsigned>(b >> 32);
      } else {
        unsigned b = 0;
        __builtin_memcpy(&b, &from[v], sizeof(T));
        const int bit = v * static_cast<int>(sizeof(T)) * 8;
        words[bit / 32] |= b << (bit % 32);
      }
    }
    const unsigned address = shared_window_address(to);
    if constexpr (bytes == 16)
      asm volatile("st.shared.v4.b32 [%0], {%1, %2, %3, %4};" ::"r"(address), "r"(words[0]), "r"(words[1]),
                   "r"(words[2]), "r"(words[3])
                   : "memory");
    else
      asm volatile("st.shared.v2.b32 [%0], {%1, %2};" ::"r"(address), "r"(words[0]), "r"(words[1]) : "memory");
  }
}

// The Radius values on each side of a run of V (row[Radius ... Radius + V - 1], at `at` in shared
// memory) into row[0 ... Radius - 1] and row[Radius + V ...]: from the lanes holding the runs
// beside it (consecutive lanes hold consecutive runs of a region row), or from shared memory where
// the row continues in another warp. A lane at a row's start or end gets another row's values:
// they lie outside the region and no point that is kept reads them.
template <int V, int Radius, int RowLanes, class T>
SMEMTILE_DEVICE void fill_sides(unsigned lanes, const T* at, T* row) {
  const int lane = static_cast<int>(threadIdx.x) % 32;
#pragma unroll
  for (int d = 1; d <= Radius; ++d) {
    const int q = (d + V - 1) / V;  // lanes away
    T left = shuffle_lanes<true>(lanes, row[Radius + V * q - d], q);
    T right = shuffle_lanes<false>(lanes, row[Radius + V - 1 - V * q + d], q);
    if constexpr (RowLanes > 32) {  // the row continues in the warps beside this one
      if (lane < q) left = at[-d];
      if (lane >= 32 - q) right = at[V - 1 + d];
    }
    row[Radius - d] = left;
    row[Radius + V - 1 + d] = right;
  }
}

// StencilStepsCompute::points: each point of the line from its neighbours in shared memory.
template <class Policy, int Radius, StencilShape Shape, class T, class Op, class Sink>
SMEMTILE_DEVICE void sweep_steps_points(const T* at, int first, int last, int y, int x, Op& op, Sink& sink) {
  constexpr int S = StepsLines<Policy>::slice, X = Policy::region_x;
  for (int a = first; a < last; ++a) {
    T result[1] = {static_cast<T>(op(StepsPointNeighborhood<Policy::rank, Radius, Shape, T, S, X>{{}, at + a * S}))};
    sink(a, y, x, result);
  }
}

// StencilStepsCompute::window, boxes: the (2 RA + 1) slices of (2 RY + 1) rows of V + 2 Radius
// values around the line's run of V points, moved one slice per step of the walk.
template <class Policy, int Radius, StencilShape Shape, class T, class Op, class Sink>
SMEMTILE_DEVICE void sweep_steps_box(const T* at, int first, int last, int y, int x, Op& op, Sink& sink) {
  constexpr int Rank = Policy::rank, S = StepsLines<Policy>::slice, X = Policy::region_x, V = Policy::vector;
  constexpr int RA = Rank >= 2 ? Radius : 0, RY = Rank == 3 ? Radius : 0, W = V + 2 * Radius;
  const unsigned lanes = __activemask();  // the same lanes walk the same slices
  T w[2 * RA + 1][2 * RY + 1][W];
  const auto load = [&](T (&slot)[2 * RY + 1][W], int a) {
#pragma unroll
    for (int dy = -RY; dy <= RY; ++dy) {
      load_run<V>(at + a * S + dy * X, slot[RY + dy] + Radius);
      fill_sides<V, Radius, X / V>(lanes, at + a * S + dy * X, slot[RY + dy]);
    }
  };
#pragma unroll
  for (int k = 0; k < 2 * RA; ++k) load(w[k + 1], first - RA + k);
#pragma unroll 2
  for (int a = first; a < last; ++a) {
#pragma unroll
    for (int k = 0; k < 2 * RA; ++k)
#pragma unroll
      for (int j = 0; j < (2 * RY + 1) * W; ++j) w[k][j / W][j % W] = w[k + 1][j / W][j % W];
    load(w[2 * RA], a + RA);
    T result[V];
#pragma unroll
    for (int v = 0; v < V; ++v)
      result[v] = static_cast<T>(op(StepsBoxWindow<Rank, Radius, Shape, T, RA, RY, W>{{}, w, v}));
    sink(a, y, x, result);
  }
}

// StencilStepsCompute::window, stars: each of the V points' values along the slowest axis, the
// centre slice's row around the run and (3D) its columns, in registers.
template <class Policy, int Radius, StencilShape Shape, class T, class Op, class Sink>
SMEMTILE_DEVICE void sweep_steps_star(const T* at, int first, int last, int y, int x, Op& op, Sink& sink) {
  constexpr int Rank = Policy::rank, S = StepsLines<Policy>::slice, X = Policy::region_x, V = Policy::vector;
  constexpr int RA = Rank >= 2 ? Radius : 0, RY = Rank == 3 ? Radius : 0;
  const unsigned lanes = __activemask();  // the same lanes walk the same slices
  T line[2 * RA + 1][V], arm_y[2 * RY + 1][V], arm_x[V + 2 * Radius];
#pragma unroll
  for (int k = 0; k < 2 * RA; ++k) load_run<V>(at + (first - RA + k) * S, line[k + 1]);
#pragma unroll 2
  for (int a = first; a < last; ++a) {
#pragma unroll
    for (int k = 0; k < 2 * RA; ++k)
#pragma unroll
      for (int v = 0; v < V; ++v) line[k][v] = line[k + 1][v];
    load_run<V>(at + (a + RA) * S, line[2 * RA]);
#pragma unroll
    for (int v = 0; v < V; ++v) arm_x[Radius + v] = line[RA][v];
    fill_sides<V, Radius, X / V>(lanes, at + a * S, arm_x);
    if constexpr (RY > 0) {
#pragma unroll
      for (int d = 1; d <= Radius; ++d) {
        load_run<V>(at + a * S - d * X, arm_y[RY - d]);
        load_run<V>(at + a * S + d * X, arm_y[RY + d]);
      }
    }
    T result[V];
#pragma unroll
    for (int v = 0; v < V; ++v)
      result[v] = static_cast<T>(op(StepsStarWindow<Rank, Radius, Shape, T, RA, RY, V>{{}, line, arm_y, arm_x, v}));
    sink(a, y, x, result);
  }
}

// One step over the points of the region within `margin` of the tile (on the axes the stencil
// reads along; along x rounded out to whole runs of Policy::vector), read from `src`. Points
// beyond the margin are computed from whatever lies there and never read as neighbours after.
template <class Policy, int Radius, StencilShape Shape, class T, class Op, class Sink>
SMEMTILE_DEVICE void sweep_steps_region(const T* src, int margin, Op& op, Sink& sink) {
  constexpr StencilStepsGeometry g = stencil_steps_geometry<Policy>(static_cast<int>(sizeof(T)), Radius);
  constexpr int V = Policy::vector;
  using Lines = StepsLines<Policy>;
  const int ma = Policy::rank >= 2 ? margin : 0, my = Policy::rank == 3 ? margin : 0;
  const int a_lo = g.halo_a - ma, a_hi = g.halo_a + g.tile_a + ma;
  const int x_lo = (g.halo_x - margin) / V * V, x_hi = g.halo_x + g.tile_x + margin;  // halo_x >= margin
  // Windows pass values between the lanes of a row (fill_sides): all of them walk, those beyond
  // the margin along x computing points nothing reads (the last step's sink skips them).
  constexpr bool whole_rows = Policy::compute == StencilStepsCompute::window;
#pragma unroll
  for (int item = 0; item < Lines::per_thread; ++item) {
    const int i = static_cast<int>(threadIdx.x) + item * Policy::threads;
    const int cell = i % Lines::cells, segment = i / Lines::cells;
    const int y = cell / (Policy::region_x / V), x = cell % (Policy::region_x / V) * V;
    const int first = a_lo > segment * Lines::segment ? a_lo : segment * Lines::segment;
    const int last = a_hi < (segment + 1) * Lines::segment ? a_hi : (segment + 1) * Lines::segment;
    if (y < g.halo_y - my || y >= g.halo_y + g.tile_y + my || first >= last) continue;
    if (!whole_rows && (x < x_lo || x >= x_hi)) continue;
    const T* at = src + y * Policy::region_x + x;
    if constexpr (Policy::compute == StencilStepsCompute::points)
      sweep_steps_points<Policy, Radius, Shape>(at, first, last, y, x, op, sink);
    else if constexpr (Shape == StencilShape::box)
      sweep_steps_box<Policy, Radius, Shape>(at, first, last, y, x, op, sink);
    else
      sweep_steps_star<Policy, Radius, Shape>(at, first, last, y, x, op, sink);
  }
}

// Where a step's runs of points go: the next region buffer, or (the last step) the array, as one
// vector store where the run lies inside and its address allows.
template <class Policy, class T>
struct StepsSharedSink {
  T* buffer;
  template <int V>
  SMEMTILE_DEVICE void operator()(int a, int y, int x, const T (&values)[V]) const {
    store_run_shared<V>(buffer + (a * Policy::region_y + y) * Policy::region_x + x, values);
  }
};
template <class T, std::size_t Rank>
struct StepsGlobalSink {
  GlobalArray<T, Rank> out;
  StepsTile t;
  int halo_x, tile_x;  // the tile's columns in the region
  template <int V>
  SMEMTILE_DEVICE void operator()(int a, int y, int x, const T (&values)[V]) const {
    const int ga = t.a + a, gy = t.y + y, gx = t.x + x;
    if (x < halo_x || x >= halo_x + tile_x || ga >= t.na || gy >= t.ny || gx >= t.nx) return;  // a, y: the tile's
    T* const to = Rank == 1 ? &element(out, gx) : Rank == 2 ? &element(out, ga, gx) : &element(out, ga, gy, gx);
    if (gx + V <= t.nx && reinterpret_cast<unsigned long long>(to) % (V * sizeof(T)) == 0) {
      store_run<V>(to, values);
    } else {
#pragma unroll
      for (int v = 0; v < V; ++v)
        if (gx + v < t.nx) to[v] = values[v];
    }
  }
};

// After a step whose points reach `margin` beyond the tile: the points outside the array within
// Radius of it (the only ones a later step reads) get what the policy says of the step's values:
// the point they map to (clamp, reflect; it lies in the region) or the fill. The points are
// enumerated as slabs, one per axis and side that the region crosses (each point once: a slab
// leaves out what an earlier axis's slabs hold), so the work is proportional to the edge. Whole
// block.
template <class Policy, int Radius, class T, class Boundary>
SMEMTILE_DEVICE void write_steps_band(T* buffer, const StepsTile& t, int margin, Boundary boundary) {
  constexpr StencilStepsGeometry g = stencil_steps_geometry<Policy>(static_cast<int>(sizeof(T)), Radius);
  constexpr int X = Policy::region_x, S = Policy::region_y * X;
  const int ma = Policy::rank >= 2 ? margin : 0, my = Policy::rank == 3 ? margin : 0;
  // Per axis (a, y, x): the step's points, the array, in region coordinates.
  const int lo[3] = {g.halo_a - ma, g.halo_y - my, g.halo_x - margin};
  const int hi[3] = {g.halo_a + g.tile_a + ma, g.halo_y + g.tile_y + my, g.halo_x + g.tile_x + margin};
  const int begin[3] = {-t.a, -t.y, -t.x}, end[3] = {t.na - t.a, t.ny - t.y, t.nx - t.x};
  const auto clip = [](int v, int l, int h) { return v < l ? l : v > h ? h : v; };
#pragma unroll
  for (int axis = 0; axis < 3; ++axis)
#pragma unroll
    for (int side = 0; side < 2; ++side) {
      int first[3], count[3];
#pragma unroll
      for (int k = 0; k < 3; ++k) {
        // This axis: the slab outside the array; earlier axes: inside it; later ones: within Radius.
        const int f = k == axis ? (side == 0 ? begin[k] - Radius : end[k]) : k < axis ? begin[k] : begin[k] - Radius;
        const int l = k == axis ? (side == 0 ? begin[k] : end[k] + Radius) : k < axis ? end[k] : end[k] + Radius;
        first[k] = clip(f, lo[k], hi[k]);
        count[k] = clip(l, lo[k], hi[k]) - first[k];
      }
      const int points = count[0] * count[1] * count[2];
      for (int i = static_cast<int>(threadIdx.x); i < points; i += Policy::threads) {
        const int a = first[0] + i / (count[1] * count[2]), y = first[1] + i / count[2] % count[1];
        const int x = first[2] + i % count[2];
        T& point = buffer[a * S + y * X + x];
        if constexpr (Boundary::maps_index) {
          const int sa = boundary_source_index<Boundary>(t.a + a, t.na) - t.a;
          const int sy = boundary_source_index<Boundary>(t.y + y, t.ny) - t.y;
          point = buffer[sa * S + sy * X + boundary_source_index<Boundary>(t.x + x, t.nx) - t.x];
        } else {
          point = boundary.template value<T>();
        }
      }
    }
}

// `steps` (2 ... Policy::depth) steps of the stencil for one tile per block: the region loads into
// buffer 0, step s reads buffer (s - 1) % 2 and writes buffer s % 2 (the last writes the array),
// one barrier per step (and one more for the band of blocks reaching outside the array).
template <class Policy, int Radius, StencilShape Shape, class T, std::size_t Rank, class Boundary, class Op>
__global__ void __launch_bounds__(Policy::threads, Policy::min_blocks)
    stencil_steps_kernel(GlobalArray<const T, Rank> in, GlobalArray<T, Rank> out, Boundary boundary, Op op,
                         int steps) {
  static_assert(Policy::rank == static_cast<int>(Rank), "smemtile::device_stencil_steps: the policy's rank");
  // Two buffers, each with 128 bytes before and after it that runs rounded out along x may read.
  constexpr int gap = 128 / static_cast<int>(sizeof(T));
  T* const first = reinterpret_cast<T*>(aligned_dynamic_shared()) + gap;
  constexpr int region = static_cast<int>(stencil_steps_region_elements<Policy>());
  const auto buffer = [&](int s) { return first + (s & 1) * (region + gap); };  // (an array would be local memory)
  const StepsTile t = steps_tile<Policy, Radius, T, Rank>(in);
  load_steps_region<Policy, Radius, T, Rank>(in, t, first, boundary);
  async_copy_wait<0>();
  __syncthreads();
  const bool band = !steps_compute_outside<Boundary> && steps_region_reaches_outside<Policy>(t);
  for (int s = 1; s < steps; ++s) {
    StepsSharedSink<Policy, T> sink{buffer(s)};
    sweep_steps_region<Policy, Radius, Shape>(buffer(s - 1), (steps - s) * Radius, op, sink);
    __syncthreads();
    if (band) {
      write_steps_band<Policy, Radius>(buffer(s), t, (steps - s) * Radius, boundary);
      __syncthreads();
    }
  }
  constexpr StencilStepsGeometry g = stencil_steps_geometry<Policy>(static_cast<int>(sizeof(T)), Radius);
  StepsGlobalSink<T, Rank> sink{out, t, g.halo_x, g.tile_x};
  sweep_steps_region<Policy, Radius, Shape>(buffer(steps - 1), 0, op, sink);
}

#endif  // __CUDACC__

}  // namespace detail
}  // namespace smemtile
