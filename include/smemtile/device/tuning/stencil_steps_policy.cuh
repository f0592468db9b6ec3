/// \file
/// device_stencil_steps's tuning: how many steps one pass through memory fuses (the depth), the
/// region of the array a block keeps in shared memory for them, how its points are computed, and
/// the selector that picks one for a GPU and a stencil.
//
// A pass: each block loads a region (its output tile plus depth x radius around it on every axis
// the stencil reads along) with the boundary policy, applies up to `depth` steps in shared memory,
// each on a region one radius narrower per side than the last, and writes its tile. The halo work
// is redundant between neighbouring blocks; what it buys is one read and one write of the array
// per `depth` steps. 3D sweeps (StencilSweepPolicy) instead stream a tile along z with a ring of
// planes per step, paying the halo in x and y only. The measurements behind the numbers:
// docs/stencil-steps.md.
#pragma once

#include <type_traits>  // std::conditional_t

#include "../../block/stencil.cuh"  // StencilShape
#include "stencil_policy.cuh"       // max_shared_bytes_per_block

namespace smemtile {

/// How a fused-steps block computes a point of a step.
enum class StencilStepsCompute {
  points,  ///< each point reads its neighbours from shared memory
  window   ///< a thread walks a line along the slowest axis, its neighbours' values along that
           ///< axis kept in registers (box: the whole (2R + 1)^rank window; star: the line's
           ///< values plus the centre slice's arms), so each step of the walk loads one new slice
};

/// A fused-steps policy: Depth steps per pass; a region of RegionA x RegionY x RegionX elements
/// per block in shared memory (twice: the step read and the step written), along the slowest axis
/// (rank 2: rows; rank 3: planes; rank 1: 1), rows of a plane (rank 3; else 1) and x; each line
/// a thread walks is a run of Vector consecutive points along x (read and written as one vector;
/// window only); Threads threads, MinBlocks blocks per multiprocessor asked of the register
/// allocator.
template <int Rank, int Depth, int RegionA, int RegionY, int RegionX, StencilStepsCompute Compute, int Vector = 1,
          int Threads = 256, int MinBlocks = 1>
struct StencilStepsPolicy {
  static constexpr int rank = Rank;                       ///< array rank
  static constexpr int depth = Depth;                     ///< steps one pass fuses at most
  static constexpr int region_a = RegionA;                ///< region extent along the slowest axis
  static constexpr int region_y = RegionY;                ///< region rows of a plane (rank 3)
  static constexpr int region_x = RegionX;                ///< region extent along x
  static constexpr StencilStepsCompute compute = Compute; ///< how points are computed
  static constexpr int vector = Vector;                   ///< consecutive x per line
  static constexpr int threads = Threads;                 ///< threads per block
  static constexpr int min_blocks = MinBlocks;            ///< __launch_bounds__ blocks per multiprocessor
  static_assert(Rank >= 1 && Rank <= 3, "StencilStepsPolicy: rank 1, 2 or 3");
  static_assert(Depth >= 1, "StencilStepsPolicy: a pass takes at least one step");
  static_assert(Rank >= 2 || RegionA == 1, "StencilStepsPolicy: a 1D region is one row: RegionA must be 1");
  static_assert(Rank == 3 || RegionY == 1, "StencilStepsPolicy: RegionY (rows of a plane) is for 3D; leave it 1");
  static_assert(RegionX % 32 == 0, "StencilStepsPolicy: a warp computes 32 consecutive x: make RegionX a multiple of 32");
  static_assert(Threads % 32 == 0 && Threads > 0 && Threads <= 1024,
                "StencilStepsPolicy: Threads must be whole warps, at most 1024");
  static_assert(Vector == 1 || Vector == 2 || Vector == 4 || Vector == 8 || Vector == 16,
                "StencilStepsPolicy: Vector (points per line along x) is 1, 2, 4, 8 or 16");
  static_assert(Vector == 1 || Compute == StencilStepsCompute::window,
                "StencilStepsPolicy: runs of several points (Vector > 1) are a window scheme; points take Vector 1");
  static_assert(RegionX % Vector == 0, "StencilStepsPolicy: RegionX must be a multiple of Vector");
  static_assert((RegionX / Vector) % 32 == 0 || 32 % (RegionX / Vector) == 0,
                "StencilStepsPolicy: a region row's RegionX / Vector lines must fill whole warps or divide one (the "
                "window passes row values between lanes)");
  static_assert((RegionY * RegionX / Vector) % Threads == 0 || Threads % (RegionY * RegionX / Vector) == 0,
                "StencilStepsPolicy: a plane's RegionY * RegionX / Vector lines must be a multiple or a divisor of "
                "Threads (each thread takes whole lines along the slowest axis)");
  static_assert(Compute != StencilStepsCompute::window || (RegionY * RegionX / Vector) % 32 == 0,
                "StencilStepsPolicy: the window passes values between the lanes of a warp, which must walk the same "
                "slices: make RegionY * RegionX / Vector (the lines of a plane) a multiple of 32");
  static_assert(Rank >= 2 || Compute == StencilStepsCompute::points,
                "StencilStepsPolicy: 1D regions compute points (there is no slower axis to walk)");
};

/// Whether P is a StencilStepsPolicy.
template <class P>
struct IsStencilStepsPolicy : std::false_type {};
/// A StencilStepsPolicy is one.
template <int R, int D, int A, int Y, int X, StencilStepsCompute C, int V, int T, int M>
struct IsStencilStepsPolicy<StencilStepsPolicy<R, D, A, Y, X, C, V, T, M>> : std::true_type {};

/// Halo and output tile of a fused-steps region, per axis (a: slowest, y: rows of a 3D plane, x).
struct StencilStepsGeometry {
  int halo_a;  ///< halo elements on each side along the slowest axis
  int halo_y;  ///< halo elements on each side along y (3D)
  int halo_x;  ///< halo elements on each side along x
  int tile_a;  ///< the output tile along the slowest axis: the region less its halo
  int tile_y;  ///< the output tile along y (3D)
  int tile_x;  ///< the output tile along x
};

/// The halo is depth x radius on each axis the stencil reads along; along x it is rounded up to
/// whole 16-byte vectors so that region rows load as vectors wherever the array's rows are aligned.
template <class Policy>
SMEMTILE_HOST_DEVICE constexpr StencilStepsGeometry stencil_steps_geometry(int elem_bytes, int radius) {
  const int reach = Policy::depth * radius;
  const int unit = 16 / elem_bytes;
  const int halo_a = Policy::rank >= 2 ? reach : 0, halo_y = Policy::rank == 3 ? reach : 0;
  const int halo_x = (reach + unit - 1) / unit * unit;
  return StencilStepsGeometry{halo_a, halo_y, halo_x, Policy::region_a - 2 * halo_a, Policy::region_y - 2 * halo_y,
                              Policy::region_x - 2 * halo_x};
}

/// Elements of one region buffer.
template <class Policy>
SMEMTILE_HOST_DEVICE constexpr long long stencil_steps_region_elements() {
  return static_cast<long long>(Policy::region_a) * Policy::region_y * Policy::region_x;
}

/// Dynamic shared memory of a block: two region buffers (the step read, the step written), 128
/// bytes before, between and after them (runs rounded out along x read there) and 128 for aligning.
template <class Policy>
SMEMTILE_HOST_DEVICE constexpr long long stencil_steps_shared_bytes(int elem_bytes) {
  return 2 * stencil_steps_region_elements<Policy>() * elem_bytes + 4 * 128;
}

/// The invariants a policy must satisfy for a stencil of Radius on elements of ElemBytes bytes.
template <class Policy, int ElemBytes, int Radius, StencilShape Shape>
struct StencilStepsPolicyCheck {
  static_assert(IsStencilStepsPolicy<Policy>::value,
                "smemtile::device_stencil_steps: the policy must be a StencilStepsPolicy");
  static_assert(Policy::depth >= 2, "StencilStepsPolicy: a pass fuses at least 2 steps (one step is device_stencil's)");
  static constexpr StencilStepsGeometry g = stencil_steps_geometry<Policy>(ElemBytes, Radius);  ///< halo and tile
  static_assert(g.tile_a > 0 && g.tile_y > 0 && g.tile_x > 0,
                "smemtile::device_stencil_steps: the region is no wider than its halo (depth x radius on each "
                "side, x rounded up to 16 bytes): enlarge the region or lower the depth");
  static_assert(Policy::vector * ElemBytes <= 16,
                "smemtile::device_stencil_steps: a run of Vector points is one access of at most 16 bytes");
  static_assert(g.halo_x % Policy::vector == 0,
                "smemtile::device_stencil_steps: the x halo (16 bytes' worth) must hold whole runs of Vector points");
  static_assert(stencil_steps_shared_bytes<Policy>(ElemBytes) <= max_shared_bytes_per_block,
                "smemtile::device_stencil_steps: two regions of this policy need more shared memory per block than "
                "any GPU has: a smaller region");
  static constexpr bool ok = true;  ///< instantiating the check passed
};

/// 32-bit registers a window of runs of `vector` points holds (StencilStepsCompute::window): boxes
/// (2R + 1)^(rank - 1) rows of vector + 2R values; stars the run's 2R + 1 values along the slowest
/// axis, its 2R + 1 rows (3D) and its row of vector + 2R.
SMEMTILE_HOST_DEVICE constexpr int stencil_steps_window_registers(int rank, int elem_bytes, int radius,
                                                                  StencilShape shape, int vector) {
  const int w = 2 * radius + 1, per = elem_bytes == 8 ? 2 : 1;
  const int values = shape == StencilShape::box ? (rank == 3 ? w * w : w) * (vector + 2 * radius)
                                                : w * vector * (rank == 3 ? 2 : 1) + vector + 2 * radius;
  return values * per;
}

/// The default fused-steps policies (docs/stencil-steps.md; H100, 2D float 5-point, 64 steps: 64 x 128
/// regions at depth 8 and 3 blocks 3.42x the copy, 96 x 128 at 2 blocks 3.18x: docs/tuning.md). 1D and 2D: a halo of about 8
/// elements (depth = max(2, 8 / radius); 4 for doubles); 2D regions of 64 rows of 512 bytes (32
/// rows of 1 KB for doubles), three blocks per multiprocessor. 3D: the halo is paid on three axes,
/// so depth 3 at radius 1 and 2 beyond, regions of up to 96 KB (one block); the selector does not
/// take them (they lose to single steps on an H100) but a caller may.
template <int Rank, int ElemBytes, int Radius, StencilShape Shape>
struct DefaultStencilStepsPolicy {
  static constexpr int budget = Rank == 3 ? (Radius == 1 ? 3 : 2) : ElemBytes == 8 ? 4 : 8;  ///< halo elements
  static constexpr int depth = budget / Radius >= 2 ? budget / Radius : 2;               ///< steps per pass
  static constexpr int region_x = Rank == 1   ? (ElemBytes == 8 ? 1024 : 4096 / ElemBytes)
                                  : Rank == 2 ? (ElemBytes <= 2 ? 256 : 128)
                                              : (ElemBytes == 8 ? 32 : ElemBytes == 4 ? 64 : 128);  ///< x
  static constexpr int region_a = (Rank == 1   ? 1
                                   : Rank == 2 ? (ElemBytes == 8 ? 32 : 64)
                                               : (Radius <= 2 ? 24 : 18));  ///< slowest axis
  static constexpr int region_y = Rank == 3 ? (Radius <= 2 ? 16 : 24) : 1;             ///< plane rows
  static constexpr int widest = ElemBytes == 8 ? 2 : 4;  ///< points per line along x, at most
  /// points per line along x: the widest run whose window fits the registers
  static constexpr int vector = Rank == 1                                                              ? 1
                                : stencil_steps_window_registers(Rank, ElemBytes, Radius, Shape, widest) <= 48 ? widest
                                : stencil_steps_window_registers(Rank, ElemBytes, Radius, Shape, 2) <= 48      ? 2
                                                                                                                : 1;
  static constexpr bool window =
      Rank >= 2 && stencil_steps_window_registers(Rank, ElemBytes, Radius, Shape, vector) <= 52;  ///< it fits
  /// the policy
  using type = StencilStepsPolicy<Rank, depth, region_a, region_y, region_x,
                                  window ? StencilStepsCompute::window : StencilStepsCompute::points, vector, 256,
                                  Rank == 3 ? 1 : Rank == 2 ? 3 : 2>;
};

/// How a 3D sweep (StencilSweepPolicy) keeps the planes of each fused step.
enum class StencilSweepCompute {
  planes,    ///< a ring of 2R + 2 planes per step in shared memory; every neighbour read from it (any shape)
  registers,  ///< star stencils: each thread keeps its points' values along z in registers, per step,
              ///< so shared memory holds only the plane whose x and y neighbours the next step reads;
              ///< boxes whose op is a SeparableStencilOp: its points' plane partials (each plane reduced once)
  vectors     ///< as registers, each thread holding 16 bytes of consecutive x per row (4- and 8-byte
              ///< elements): x neighbours by shuffles, shared memory moved 16 bytes at a time
};

/// 3D fused-steps policy sweeping z: Depth steps per pass; planes of RegionY x RegionX elements
/// (an xy tile and Depth x R around it); Chunk output planes per block along z, or 0: as many as
/// keep the GPU's waves of blocks fullest (stencil_sweep_plan); Threads threads; MinBlocks blocks
/// per multiprocessor asked of the register allocator; Compute how each step's planes are kept.
template <int Depth, int RegionY, int RegionX, int Chunk, int Threads = 256, int MinBlocks = 2,
          StencilSweepCompute Compute = StencilSweepCompute::planes>
struct StencilSweepPolicy {
  static constexpr int rank = 3;                                   ///< 3D only
  static constexpr StencilLoader loader = StencilLoader::sweep;    ///< as a device_stencil policy: one step
  static constexpr int depth = Depth;                              ///< steps one pass fuses at most
  static constexpr int region_y = RegionY;                         ///< plane rows
  static constexpr int region_x = RegionX;                         ///< plane columns
  static constexpr int chunk = Chunk;                              ///< output planes per block (0: planned)
  static constexpr int threads = Threads;                          ///< threads per block
  static constexpr int min_blocks = MinBlocks;                     ///< __launch_bounds__
  static constexpr StencilSweepCompute compute = Compute;          ///< how the planes are kept
  static_assert(Depth >= 1, "StencilSweepPolicy: a pass takes at least one step (device_stencil_steps: two; one is "
                            "device_stencil's single step, StencilLoader::sweep)");
  static_assert(RegionX % 32 == 0, "StencilSweepPolicy: make RegionX a multiple of 32");
  static_assert(Chunk >= 0, "StencilSweepPolicy: Chunk is planes per block, or 0 for the launch to choose them");
  static_assert(Threads % RegionX == 0 && RegionY % (Threads / RegionX) == 0,
                "StencilSweepPolicy: the block covers whole rows of a plane at a time (Threads a multiple of RegionX, "
                "RegionY a multiple of Threads / RegionX), so each thread's points lie at fixed offsets");
};

/// Whether index i of an axis of n elements lies within `reach` of the array (inside included). A
/// register sweep under clamp or reflect computes the points outside the array that are near it on
/// both axes where they map to, reach being the pass's depth x R: no point the pass keeps reads a
/// farther one, and a farther one may map outside the block's region.
SMEMTILE_HOST_DEVICE constexpr bool stencil_sweep_near(int i, int n, int reach) { return i >= -reach && i < n + reach; }

/// Whether P is a StencilSweepPolicy.
template <class P>
struct IsStencilSweepPolicy : std::false_type {};
/// A StencilSweepPolicy is one.
template <int D, int Y, int X, int C, int T, int M, StencilSweepCompute S>
struct IsStencilSweepPolicy<StencilSweepPolicy<D, Y, X, C, T, M, S>> : std::true_type {};

/// Input planes a register sweep keeps in flight: a sweep step takes less than a load's latency, so
/// each block loads this many planes ahead.
inline constexpr int stencil_sweep_prefetch = 3;

/// Planes of shared memory a sweep needs. planes: a ring of 2R + 2 per level below Depth and one
/// fill plane. registers: the input's ring holds the planes in flight, the one read into registers
/// and the R before it whose x and y neighbours step 1 reads; each later level's ring the plane
/// written and the R before it that the next level reads.
template <class Policy>
SMEMTILE_HOST_DEVICE constexpr int stencil_sweep_planes(int radius) {
  if (Policy::compute != StencilSweepCompute::planes)
    return stencil_sweep_prefetch + radius + 1 + (Policy::depth - 1) * (radius + 1);
  return Policy::depth * (2 * radius + 2) + 1;
}
/// Elements between a sweep's planes: RegionY rows and R rows either side that are read, never
/// used (a thread computes its whole run of rows; rows outside a level's region are not stored).
template <class Policy>
SMEMTILE_HOST_DEVICE constexpr int stencil_sweep_plane_stride(int radius) {
  return (Policy::region_y + 2 * radius) * Policy::region_x;
}
/// Dynamic shared memory of a sweep block: the planes; 128 bytes for aligning them; registers: 128
/// before and after them that the x neighbours of the first and last padding rows fall in, and the
/// tables of source rows and columns of blocks at the array's edges (an int per region row and column).
template <class Policy>
SMEMTILE_HOST_DEVICE constexpr long long stencil_sweep_shared_bytes(int elem_bytes, int radius) {
  const long long planes = static_cast<long long>(stencil_sweep_planes<Policy>(radius)) *
                           stencil_sweep_plane_stride<Policy>(radius) * elem_bytes;
  if (Policy::compute != StencilSweepCompute::planes)
    return planes + 384 + 4LL * (Policy::region_y + Policy::region_x);
  return planes + 128;
}

namespace detail {
// A sweep's plane as a 2D fused-steps region: its halo and tile (stencil_steps_geometry), its band.
template <class Policy>
using SweepPlanePolicy = StencilStepsPolicy<2, Policy::depth, Policy::region_y, 1, Policy::region_x,
                                            StencilStepsCompute::points, 1, Policy::threads, 1>;
}  // namespace detail

/// The chunk the sweeps' gains over single steps were measured with (DefaultStencilSweepPolicy), the
/// reference of stencil_sweep_plan's share.
inline constexpr int stencil_sweep_reference_chunk = 64;
/// The shortest chunk a plan takes: a block also sweeps Depth x R planes each side of its chunk.
inline constexpr int stencil_sweep_min_chunk = 16;
/// How much faster than the reference chunks a plan's shorter chunks must be expected to run (its
/// model of waves and halo planes overestimated the measured gains by up to 9 points).
inline constexpr double stencil_sweep_plan_margin = 1.05;

/// How a sweep splits a volume: `chunk` output planes per block along z, `blocks` blocks, and `share`
/// its expected speed against full waves of blocks of stencil_sweep_reference_chunk planes (what
/// the gains were measured on).
struct StencilSweepPlan {
  int chunk;         ///< output planes per block
  long long blocks;  ///< xy tiles x chunks
  double share;      ///< expected speed against full waves of reference chunks
};

/// The plan of a sweep with `chunk` planes per block over a depth x rows x cols volume on `slots`
/// resident blocks (multiprocessors x Policy::min_blocks). A block sweeps its chunk and Depth x R
/// planes each side; blocks start in order, the last chunk's (which may be shorter) last, and a
/// wave lasts as long as its longest block: the share is the time full waves of reference chunks
/// would take over that.
template <class Policy>
SMEMTILE_HOST_DEVICE constexpr StencilSweepPlan stencil_sweep_plan_of(int chunk, int elem_bytes, int radius,
                                                                      long long depth, long long rows, long long cols,
                                                                      long long slots) {
  const StencilStepsGeometry g = stencil_steps_geometry<detail::SweepPlanePolicy<Policy>>(elem_bytes, radius);
  const long long tiles = (cols + g.tile_x - 1) / g.tile_x * ((rows + g.tile_a - 1) / g.tile_a);
  const long long chunks = (depth + chunk - 1) / chunk, blocks = tiles * chunks;
  if (blocks < 1 || slots < 1) return StencilSweepPlan{chunk, blocks, 0.0};  // (an empty volume too)
  const double halo = 2.0 * Policy::depth * radius, reference = stencil_sweep_reference_chunk;
  const long long waves = (blocks + slots - 1) / slots, full_waves = (tiles * (chunks - 1) + slots - 1) / slots;
  const double last = static_cast<double>(depth - (chunks - 1) * chunk);
  const double time =
      static_cast<double>(full_waves) * (chunk + halo) + static_cast<double>(waves - full_waves) * (last + halo);
  const double ideal = static_cast<double>(tiles) * static_cast<double>(depth) / reference * (reference + halo) /
                       static_cast<double>(slots);
  return StencilSweepPlan{chunk, blocks, ideal / time};
}

/// The plan a sweep launches with: Policy::chunk where it is not 0; else chunks of
/// stencil_sweep_reference_chunk planes, unless, for some count of waves, the most chunks of equal
/// length (at least stencil_sweep_min_chunk planes) that many waves hold are more blocks than the
/// reference's and expected stencil_sweep_plan_margin faster. Longer chunks than the reference
/// ran slower than the model expects (H200, 64 steps, x the copy per step: 512^3 floats 1.29 at 64
/// planes, 1.17 at 128; 384^3 doubles 1.43 at 64, 1.22 at 384), as did as many chunks made equal
/// (300^3 doubles 1.39 at 64, 1.36 at 60); more, shorter ones that fill the waves ran faster
/// (192^3 floats 0.66 -> 1.09 at 24 planes, 256^3 doubles 1.28 -> 1.41 at 37, 384^3 floats 1.14
/// -> 1.20 at 55; docs/stencil-steps.md, "Planned chunks"). Counts of waves up to one past the
/// reference's, or 4 (64 at most): a few candidates a call.
template <class Policy>
SMEMTILE_HOST_DEVICE constexpr StencilSweepPlan stencil_sweep_plan(int elem_bytes, int radius, long long depth,
                                                                   long long rows, long long cols, long long slots) {
  constexpr long long reference = stencil_sweep_reference_chunk;
  const long long fixed = Policy::chunk != 0 ? Policy::chunk : reference;
  const StencilSweepPlan standard = stencil_sweep_plan_of<Policy>(
      static_cast<int>(fixed < depth || depth < 1 ? fixed : depth), elem_bytes, radius, depth, rows, cols, slots);
  if (Policy::chunk != 0 || standard.blocks < 1 || slots < 1) return standard;
  const long long tiles = standard.blocks / ((depth + standard.chunk - 1) / standard.chunk);
  const long long reference_waves = (standard.blocks + slots - 1) / slots;
  const long long most_waves = reference_waves + 1 > 4 ? reference_waves + 1 : 4;
  StencilSweepPlan best = standard;
  for (long long waves = 1; waves <= most_waves && waves <= 64; ++waves) {
    const long long chunks = waves * slots / tiles;  // the most whole chunks' blocks these waves hold
    if (chunks < 1) continue;
    long long chunk = (depth + chunks - 1) / chunks;
    if (chunk < stencil_sweep_min_chunk) chunk = stencil_sweep_min_chunk < depth ? stencil_sweep_min_chunk : depth;
    if ((depth + chunk - 1) / chunk <= (depth + standard.chunk - 1) / standard.chunk) continue;  // more blocks only
    const StencilSweepPlan p =
        stencil_sweep_plan_of<Policy>(static_cast<int>(chunk), elem_bytes, radius, depth, rows, cols, slots);
    if (p.share > best.share) best = p;
  }
  return best.share >= standard.share * stencil_sweep_plan_margin ? best : standard;
}

/// Blocks of a sweep over a depth x rows x cols volume in chunks of Policy::chunk planes (of
/// stencil_sweep_reference_chunk where it is 0): xy tiles times chunks of z. A launch's own count
/// is its plan's (stencil_sweep_plan).
template <class Policy>
SMEMTILE_HOST_DEVICE constexpr long long stencil_sweep_blocks(int elem_bytes, int radius, long long depth,
                                                              long long rows, long long cols) {
  const int chunk = Policy::chunk != 0 ? Policy::chunk : stencil_sweep_reference_chunk;
  return stencil_sweep_plan_of<Policy>(chunk, elem_bytes, radius, depth, rows, cols, 1).blocks;
}

/// Whether a sweep with Policy over the volume is expected to beat single steps on
/// `multiprocessors`: the gain over single steps on full waves of reference chunks
/// (`gain_over_single`), times its plan's share (stencil_sweep_plan), is at least 1; with
/// `whole_wave`, the volume must also hold a wave of reference chunks (every multiprocessor's
/// Policy::min_blocks slots). (A 256^3 double sweep of the planes scheme, depth 2: 320 blocks on
/// 264 slots, 61% busy, measured 0.76x the copy per step against single steps' 0.88x.)
/// The dispatch asks clamp and reflect for a whole wave: on volumes smaller than that most blocks
/// reach outside the array and compute their outside points where they map to, which the gain,
/// measured at 512^3, does not hold (256^3 floats, H100, 64 steps: clamp 0.83 swept against 0.87
/// as single steps, where zero sweeps at 1.19 against 0.87; NVBench at a8ff44b).
template <class Policy>
SMEMTILE_HOST_DEVICE constexpr bool stencil_sweep_fills(int elem_bytes, int radius, long long depth, long long rows,
                                                        long long cols, int multiprocessors, double gain_over_single,
                                                        bool whole_wave = true) {
  const long long slots = static_cast<long long>(multiprocessors) * Policy::min_blocks;
  const StencilSweepPlan plan = stencil_sweep_plan<Policy>(elem_bytes, radius, depth, rows, cols, slots);
  const long long reference_blocks = stencil_sweep_blocks<Policy>(elem_bytes, radius, depth, rows, cols);
  return (reference_blocks >= slots || !whole_wave) && plan.share * gain_over_single >= 1.0;
}

/// The default 3D sweep: star stencils keep their z neighbours in registers
/// (StencilSweepCompute::registers; docs/stencil-steps.md, "Register sweeps"), floats on 64 x 32
/// planes, doubles on 32 x 32, both at depth 3, two blocks of 256 threads (runs of 8 and 4 rows);
/// every default plans its chunks (Chunk 0: stencil_sweep_plan). Measured at 512^3, chunks of 64,
/// 64 steps, x the copy per step (NVBench, zero / clamp): H100 floats 1.81 / 1.40 against single
/// steps' 0.91 / 0.93, doubles 2.02 / 1.85 against 0.93 / 0.93 (depth 2: 1.52 /
/// 1.48); H200 floats 1.30 / 1.01 against 0.94 / 0.92, doubles 1.49 / 1.32 (depth 2: 1.43 / 1.34)
/// against 0.93 / 0.93.
/// gain_over_single: the sweep over single steps with every wave full, H100, 512^3, zero's (fill
/// policies and periodic write no band; periodic measured at or above zero), divided by the wave
/// share there (floats 1584 blocks on 264 slots, 1.0; doubles 3520 on 264, 0.952);
/// gain_over_single_rewrites the same for clamp (and reflect), whose edge blocks compute their points
/// outside the array where those map to (measured before a8ff44b, when they rewrote them after a
/// second barrier: a lower bound). `reference_bandwidth`: the H100's peak DRAM bandwidth
/// at that measurement (HBM3: 2619 MHz, 5120 bits), which stencil_sweep_gain scales the gains by.
/// unaligned_type: the sweep where rows are not 16-byte aligned (its planes load by 4-byte units):
/// floats on 64 x 64 planes, one block of 512 threads. Floats at 503 x 517 x 499, 64 steps (zero /
/// clamp): H100 1.84 / 1.48 against the aligned policy's 1.33 / 1.20, H200 1.37 / 1.08 against 1.23
/// / 1.06; doubles keep `type` (not measured).
/// gain_over_unaligned_single(_rewrites): unaligned_type over single steps there (which cannot load
/// by TMA): floats at 503 x 517 x 499, the lower of the H100's and the H200's (zero 1.84 against
/// 0.57, 1.37 against 0.53; clamp 1.48 against 0.74, 1.08 against 0.62), over the wave share there
/// (648 blocks on 132 slots, 0.982); not scaled by the bandwidth, as single steps there are not
/// memory-bound. Doubles: the figures the floats' depth-3 `type` measured there before the phase
/// rotation (zero 1.10 against 0.56 and 0.85 against 0.55; clamp 0.96 against 0.73 and 0.74 against
/// 0.65; wave share 0.955), a lower bound.
template <int ElemBytes, int Radius, StencilShape Shape, bool Separable = false>
struct DefaultStencilSweepPolicy {
  /// the policy (boxes, which only a caller sweeps: the planes scheme's, floats depth 3 on 32 x 64
  /// planes, doubles depth 2 on 20 x 64, two blocks of 256 threads)
  using type = std::conditional_t<
      Shape == StencilShape::star,
      StencilSweepPolicy<3, ElemBytes == 8 ? 32 : 64, 32, 0, 256, 2, StencilSweepCompute::registers>,
      StencilSweepPolicy<ElemBytes == 8 ? 2 : 3, ElemBytes == 8 ? 20 : 32, 64, 0>>;
  /// the policy where rows are not 16-byte aligned (above)
  using unaligned_type =
      std::conditional_t<Shape == StencilShape::star && ElemBytes == 4,
                         StencilSweepPolicy<3, 64, 64, 0, 512, 1, StencilSweepCompute::registers>, type>;
  /// the policy under clamp: 7-point stencils of 4-byte elements hold 16 bytes of x per thread
  /// (StencilSweepCompute::vectors; floats at 512^3, 64 steps, x the copy per step, probe: H100 1.48 against
  /// type's 1.26, H200 1.07 against 0.92); it ties under zero and periodic and loses under reflect and for
  /// doubles (docs/stencil-steps.md, "Vector sweeps")
  using clamp_type = std::conditional_t<ElemBytes == 4 && Radius == 1 && Shape == StencilShape::star,
                                        StencilSweepPolicy<3, 64, 32, 0, 256, 2, StencilSweepCompute::vectors>, type>;
  /// the policy under clamp where rows are not 16-byte aligned: the same on 32 x 64 planes (floats at 503 x 517 x
  /// 499: H100 1.48 against unaligned_type's 1.34, H200 1.16 against 0.97)
  using clamp_unaligned_type =
      std::conditional_t<ElemBytes == 4 && Radius == 1 && Shape == StencilShape::star,
                         StencilSweepPolicy<3, 32, 64, 0, 256, 2, StencilSweepCompute::vectors>, unaligned_type>;
  /// device_stencil's single step by this sweep (StencilLoader::sweep; not selected for stars: forced
  /// only): one level, on 32 x 64 planes (floats) or 32 x 32 (doubles), the fastest depth-1 shapes of
  /// the one-step probe (docs/tuning.md, "3D separable boxes by the sweep"); boxes of other ops keep `type`
  using single_type = std::conditional_t<Shape == StencilShape::star,
                                         StencilSweepPolicy<1, 32, ElemBytes == 8 ? 32 : 64, 0, 256, 2,
                                                            StencilSweepCompute::registers>,
                                         type>;
  static constexpr double gain_over_single = ElemBytes == 8 ? 2.28 : 1.99;                  ///< measured, above
  static constexpr double gain_over_single_rewrites = ElemBytes == 8 ? 2.09 : 1.51;         ///< measured, above
  /// clamp_type's gain under clamp, where it is not `type`: floats on the vector sweep at 512^3, 64
  /// steps, over single steps (H100 1.48 against 0.93, 1.59; H200 1.07 against 0.91, 1.69 at the
  /// H100's bandwidth; the lower); else gain_over_single_rewrites
  static constexpr double gain_over_single_clamp =
      std::is_same<clamp_type, type>::value ? gain_over_single_rewrites : 1.59;
  static constexpr double reference_bandwidth = 2.0 * 2619e6 * 5120.0 / 8.0;                ///< bytes/s, above
  static constexpr double gain_over_unaligned_single = ElemBytes == 8 ? 1.62 : 2.63;        ///< measured, above
  static constexpr double gain_over_unaligned_single_rewrites = ElemBytes == 8 ? 1.19 : 1.77;  ///< measured, above
};

/// The default 3D sweep of a box whose op is a SeparableStencilOp: the register sweep of plane
/// partials (StencilSweepCompute::registers; docs/stencil-steps.md, "Separable boxes"), floats at
/// depth 3 on 32 x 64 planes, doubles at depth 2 on 32 x 32, two blocks of 256 threads (runs of 8
/// and 4 rows), on 16-byte rows and off them. The 27-point mean as a separable op, 64 steps, x the
/// copy per step, NVIDIA H200 (probe; over single steps of the same op, which load by TMA):
/// floats 384^3 / 512^3 zero 1.01 / 1.03 against 0.80 / 0.78, periodic 1.06 / 1.09 against 0.67 /
/// 0.68, clamp 0.80 / 0.78 against 0.80 / 0.81, reflect 0.82 / 0.87 against 0.81 / 0.78; doubles
/// zero 1.20 / 1.22 against 0.52 / 0.52, clamp 1.01 / 1.03 against 0.51 / 0.51 (single steps of
/// doubles now run by this sweep at one step, StencilLoader::sweep: 512^3 zero 0.75, clamp 0.71,
/// probe `.probe/sweep2`, the gains below are over those). Rows off 16 bytes
/// (503 x 517 x 499 floats): zero 1.08 against 0.66, clamp 0.90 against 0.67.
/// Smaller float volumes gain less than the plan's share predicts (zero: 256^3 0.86 against 0.78 at
/// a share of 0.91, 192^3 0.73 against 0.86 at 0.85), so the floats' gain over single steps is 1.15,
/// between what sweeps 256^3 and what sweeps 192^3; the others the lower of the two volumes' above.
/// All at the H100's bandwidth (x 4.8 / 3.35, as stencil_sweep_gain scales them back; the H100 was
/// not measured); off 16 bytes as measured (floats; doubles: their aligned figures, unscaled, a lower
/// bound).
template <int ElemBytes, int Radius>
struct DefaultStencilSweepPolicy<ElemBytes, Radius, StencilShape::box, true> {
  /// the policy (above)
  using type = StencilSweepPolicy<ElemBytes == 8 ? 2 : 3, 32, ElemBytes == 8 ? 32 : 64, 0, 256, 2,
                                  StencilSweepCompute::registers>;
  using unaligned_type = type;        ///< the same where rows are off 16 bytes
  using clamp_type = type;            ///< the same under clamp
  using clamp_unaligned_type = type;  ///< and there off 16 bytes
  /// device_stencil's single step by this sweep (StencilLoader::sweep): one level on 32 x 32 planes
  /// (doubles; floats 32 x 64), two blocks of 256 threads. Doubles at 512^3 / 256^3, x the copy, zero /
  /// clamp (probe `.probe/sweep3`, H200): radius 1 0.75 / 0.72 and 0.82 / 0.64 against `type`'s 0.75 /
  /// 0.71 and 0.78 / 0.54 at one step; radius 2 0.60 / 0.55 and 0.52 / 0.39 against 0.40 / 0.39 and
  /// 0.38 / 0.29 (its second level's registers)
  using single_type = StencilSweepPolicy<1, 32, ElemBytes == 8 ? 32 : 64, 0, 256, 2, StencilSweepCompute::registers>;
  /// bytes/s: the H100's, as the star's (stencil_sweep_gain scales the gains by it)
  static constexpr double reference_bandwidth =
      DefaultStencilSweepPolicy<ElemBytes, Radius, StencilShape::star>::reference_bandwidth;
  /// an H200 gain (4.8 TB/s peak) at the H100's bandwidth
  static constexpr double to_reference = 4.8e12 / reference_bandwidth;
  /// over single steps under fills and periodic (above)
  static constexpr double gain_over_single = (ElemBytes == 8 ? 1.20 / 0.75 : 1.15) * to_reference;
  /// over single steps under clamp and reflect (above)
  static constexpr double gain_over_single_rewrites = (ElemBytes == 8 ? 1.01 / 0.71 : 0.78 / 0.81) * to_reference;
  static constexpr double gain_over_single_clamp = gain_over_single_rewrites;  ///< clamp_type's: type's
  /// over single steps where rows are off 16 bytes, under fills and periodic (above)
  static constexpr double gain_over_unaligned_single = ElemBytes == 8 ? 1.20 / 0.52 : 1.08 / 0.66;
  /// the same under clamp and reflect
  static constexpr double gain_over_unaligned_single_rewrites = ElemBytes == 8 ? 1.01 / 0.51 : 0.90 / 0.67;
};

/// A sweep policy is a device_stencil policy too: device_stencil runs one pass of one step
/// (StencilLoader::sweep).
template <int D, int Y, int X, int C, int T, int M, StencilSweepCompute S>
struct IsStencilPolicy<StencilSweepPolicy<D, Y, X, C, T, M, S>> : std::true_type {};

/// The invariants of a sweep policy as device_stencil's (its planes must fit some GPU; the kernels
/// check the shape against the scheme and the op).
template <int D, int Y, int X, int C, int T, int M, StencilSweepCompute S, int ElemBytes, int Radius, StencilShape Shape>
struct StencilPolicyCheck<StencilSweepPolicy<D, Y, X, C, T, M, S>, ElemBytes, Radius, Shape> {
  static_assert(ElemBytes == 4 || ElemBytes == 8, "smemtile::device_stencil: the sweep takes 4- and 8-byte elements");
  static_assert(stencil_sweep_shared_bytes<StencilSweepPolicy<D, Y, X, C, T, M, S>>(ElemBytes, Radius) <=
                    max_shared_bytes_per_block,
                "smemtile::device_stencil: this sweep's planes need more shared memory than any GPU has");
  static constexpr bool ok = true;  ///< instantiating the check passed
};

/// The sweep's single step (StencilLoader::sweep): DefaultStencilSweepPolicy's single_type (the tiles do
/// not apply).
template <int ElemBytes, int Radius, StencilShape Shape, StencilTiles Tiles, bool Separable>
struct DefaultStencilPolicy<3, ElemBytes, Radius, Shape, StencilLoader::sweep, Tiles, Separable> {
  /// the policy
  using type = typename DefaultStencilSweepPolicy<ElemBytes, Radius, Shape, Separable>::single_type;
};

/// Whether an array's address and its plane and row pitches (`pitch_bytes`; 2D: plane 0) are multiples of 16
/// bytes: the rule of TMA's tensor maps, and where a sweep loads its planes by 16-byte units.
SMEMTILE_HOST_DEVICE constexpr bool stencil_rows_16_aligned(unsigned long long address, long long plane_pitch_bytes,
                                                            long long row_pitch_bytes) {
  return address % 16 == 0 && plane_pitch_bytes % 16 == 0 && row_pitch_bytes % 16 == 0;
}

/// Whether single steps of a 3D array can load by TMA: a GPU with it, and the array's rows 16-byte
/// aligned (stencil_rows_16_aligned).
SMEMTILE_HOST_DEVICE constexpr bool stencil_rows_tma_aligned(int cc_major, unsigned long long address,
                                                             long long plane_pitch_bytes, long long row_pitch_bytes) {
  return stencil_gpu_has_tma(cc_major) && stencil_rows_16_aligned(address, plane_pitch_bytes, row_pitch_bytes);
}

/// The sweep's gain over single steps on a GPU of peak DRAM bandwidth `bandwidth` (bytes/s; 0: not
/// known, the gain as measured): a sweep step runs at a rate its multiprocessors set, single steps at
/// the memory's, so the gain scales with reference_bandwidth / bandwidth. (NVIDIA H100 and H200, the
/// same 132 multiprocessors: 7-point sweeps at 512^3 ran at 2.86 and 2.78 TB/s-equivalent per step
/// for floats, 3.63 and 3.74 for doubles, while single steps ran at 0.92x their copies of 2.98 and
/// 4.15 TB/s: on the H200 the float sweep ran at 0.72x single steps; docs/stencil-steps-h200.md.)
SMEMTILE_HOST_DEVICE constexpr double stencil_sweep_gain(double gain_over_single, double reference_bandwidth,
                                                          double bandwidth) {
  return bandwidth > 0 ? gain_over_single * reference_bandwidth / bandwidth : gain_over_single;
}

/// The 3D stencils the selector sweeps (where the planes fit): those measured faster swept than as
/// single steps, 7-point stars and 27-point boxes whose op is a SeparableStencilOp, of 4- and 8-byte
/// elements (boxes of other ops measured slower swept).
template <int ElemBytes, int Radius, StencilShape Shape, bool Separable = false>
inline constexpr bool stencil_sweep_selected =
    (Shape == StencilShape::star || Separable) && Radius == 1 && (ElemBytes == 4 || ElemBytes == 8);

/// 2D fused-steps policy streaming strips down the rows with every step's rows in registers
/// (kernels/stencil_steps_stream.cuh; no shared memory): Depth steps per pass at most; Columns
/// consecutive x per lane (a warp's strip is 32 x Columns columns, Depth x Radius of them halo on
/// each side); Ahead rows loading ahead of the one in use; Rows the fewest output rows of a warp's
/// task (stencil_steps_stream_plan balances tasks over the resident warps); Warps per block;
/// MinBlocks blocks per multiprocessor asked of the register allocator; ScalarAhead the rows loading
/// ahead in the kernel for rows that load element by element (rows off the lane's vector of
/// Columns elements, at most 16 bytes): that kernel holds more registers per row in flight.
template <int Depth, int Columns, int Ahead, int Rows = 64, int Warps = 4, int MinBlocks = 4, int ScalarAhead = Ahead>
struct StencilStepsStreamPolicy {
  static constexpr int rank = 2;                ///< 2D only
  static constexpr int depth = Depth;           ///< steps one pass fuses at most
  static constexpr int columns = Columns;       ///< consecutive x per lane
  static constexpr int ahead = Ahead;           ///< rows loading ahead (vector loads)
  static constexpr int scalar_ahead = ScalarAhead;  ///< rows loading ahead (element loads)
  static constexpr int rows = Rows;             ///< output rows per task, at least
  static constexpr int warps = Warps;           ///< warps per block
  static constexpr int threads = 32 * Warps;    ///< threads per block
  static constexpr int min_blocks = MinBlocks;  ///< __launch_bounds__ blocks per multiprocessor
  static_assert(Depth >= 2, "StencilStepsStreamPolicy: a pass fuses at least 2 steps");
  static_assert(Columns == 1 || Columns == 2 || Columns == 4 || Columns == 8,
                "StencilStepsStreamPolicy: Columns (x per lane) is 1, 2, 4 or 8");
  static_assert(Ahead >= 0 && Ahead <= 8, "StencilStepsStreamPolicy: Ahead is 0 to 8 rows");
  static_assert(ScalarAhead >= 0 && ScalarAhead <= 8, "StencilStepsStreamPolicy: ScalarAhead is 0 to 8 rows");
  static_assert(Rows >= 1, "StencilStepsStreamPolicy: at least one row per task");
  static_assert(Warps >= 1 && Warps <= 32, "StencilStepsStreamPolicy: 1 to 32 warps per block");
  static_assert(MinBlocks >= 1, "StencilStepsStreamPolicy: MinBlocks is at least 1");
};

/// Whether P is a StencilStepsStreamPolicy.
template <class P>
struct IsStencilStepsStreamPolicy : std::false_type {};
/// (specialization)
template <int D, int C, int A, int R, int W, int M, int S>
struct IsStencilStepsStreamPolicy<StencilStepsStreamPolicy<D, C, A, R, W, M, S>> : std::true_type {};

/// The columns a strip keeps: 32 x columns less the halo of depth x radius on each side.
SMEMTILE_HOST_DEVICE constexpr int stencil_steps_stream_width(int columns, int depth, int radius) {
  return 32 * columns - 2 * depth * radius;
}

/// The compile-time checks of a stream policy for a stencil of Radius (any shape, any element).
template <class Policy, int Radius>
struct StencilStepsStreamPolicyCheck {
  static_assert(Radius >= 1 && Radius <= 16, "smemtile::device_stencil_steps: radius 1 to 16");
  static_assert(Policy::columns >= Radius,
                "StencilStepsStreamPolicy: Columns must be at least the radius (a lane's x neighbours come from the "
                "lanes beside it)");
  static_assert(Policy::depth * Radius % Policy::columns == 0,
                "StencilStepsStreamPolicy: Depth x Radius must be a multiple of Columns (a strip keeps whole lanes)");
  static_assert(3 * Policy::depth * Radius < 32 * Policy::columns,
                "StencilStepsStreamPolicy: Depth x Radius must be below a third of the strip's 32 x Columns columns "
                "(the halo would leave too few of them)");
  static constexpr bool ok = true;  ///< instantiating the check passed
};

/// Whether an ny x nx array can take a stream of this depth, radius and columns: at least one whole
/// strip and 2 x depth x radius rows (so the R rows and columns outside that clamp and reflect
/// rewrite map into the strip and the rings).
SMEMTILE_HOST_DEVICE constexpr bool stencil_steps_stream_fits(long long ny, long long nx, int columns, int depth,
                                                            int radius) {
  return nx >= 32LL * columns && ny >= 2LL * depth * radius && nx <= 2147483647LL - 64LL * columns &&
         ny <= 2147483647LL - 4LL * depth * radius;
}

/// How the stream splits an ny x nx array into warp tasks: bands of `rows` rows, each band one task
/// per inner strip and `side_split` tasks per side strip (their rows split: a side strip's row
/// costs more, its columns outside are fixed after each step). Tasks go band after band, strips in
/// order within a band, so the warps of a block take neighbouring strips of the same rows (their
/// shared columns and sectors are read and written together).
struct StencilStepsStreamPlan {
  int strips = 0;      ///< strips across (stencil_steps_stream_width columns each)
  int rows = 0;        ///< rows per band
  int side_split = 1;  ///< tasks per side strip and band
  long long tasks = 0; ///< bands x tasks_per_band()
  /// Side strips: strip 0 and, if there are two or more, the last.
  SMEMTILE_HOST_DEVICE constexpr int side_strips() const { return strips >= 2 ? 2 : 1; }
  /// Tasks of one band.
  SMEMTILE_HOST_DEVICE constexpr long long tasks_per_band() const {
    return static_cast<long long>(strips - side_strips()) + static_cast<long long>(side_strips()) * side_split;
  }
};

/// A task: its strip and rows y0 ... y1 - 1 (none where y0 >= y1: a band with fewer rows than
/// side_split).
struct StencilStepsStreamTask {
  int strip = 0;  ///< strip index (0 ... strips - 1)
  int y0 = 0;     ///< first row
  int y1 = 0;     ///< one past the last row
};

/// Task t of `plan` on an array of ny rows: band t / tasks_per_band; within it strip 0's side_split
/// tasks, the inner strips, the last strip's.
SMEMTILE_HOST_DEVICE constexpr StencilStepsStreamTask stencil_steps_stream_task_at(const StencilStepsStreamPlan& plan,
                                                                                  long long t, long long ny) {
  const long long per_band = plan.tasks_per_band(), band = t / per_band, u = t % per_band;
  const long long y0 = band * plan.rows, y1 = y0 + plan.rows < ny ? y0 + plan.rows : ny, k = plan.side_split;
  StencilStepsStreamTask task{};
  long long part = -1;  // which of a side strip's tasks
  if (u < k) {
    part = u;
  } else if (plan.strips >= 2 && u >= per_band - k) {
    task.strip = plan.strips - 1;
    part = u - (per_band - k);
  } else {
    task.strip = static_cast<int>(u - k + 1);
  }
  task.y0 = static_cast<int>(part < 0 ? y0 : y0 + (y1 - y0) * part / k);
  task.y1 = static_cast<int>(part < 0 ? y1 : y0 + (y1 - y0) * (part + 1) / k);
  return task;
}

/// The tasks for `resident` warps at once: of the band heights that fill whole waves of tasks (at
/// least `min_rows` rows each), the one that loads the fewest rows per warp, each inner task
/// loading its rows and `halo` more at each end.
SMEMTILE_HOST_DEVICE constexpr StencilStepsStreamPlan stencil_steps_stream_plan(long long ny, long long nx, int width,
                                                                               int halo, int side_split, int min_rows,
                                                                               long long resident) {
  StencilStepsStreamPlan best{};
  if (ny < 1 || nx < 1 || width < 1 || side_split < 1 || min_rows < 1 || resident < 1) return best;
  StencilStepsStreamPlan plan{static_cast<int>((nx + width - 1) / width), 0, side_split, 0};
  const long long per_band = plan.tasks_per_band();
  long long best_cost = -1;
  for (long long waves = 1; waves <= 64; ++waves) {
    long long bands = waves * resident / per_band;
    bands = bands < 1 ? 1 : bands > ny ? ny : bands;
    long long rows = (ny + bands - 1) / bands;
    rows = rows < min_rows ? (min_rows < ny ? min_rows : ny) : rows;
    plan.rows = static_cast<int>(rows);
    plan.tasks = (ny + rows - 1) / rows * per_band;
    const long long cost = (plan.tasks + resident - 1) / resident * (rows + 2LL * halo);
    if (best_cost < 0 || cost < best_cost) {
      best_cost = cost;
      best = plan;
    }
  }
  return best;
}

/// Tasks per side strip and band (StencilStepsStreamPlan::side_split): a side strip's row costs
/// the stream more than an inner one's: its loads map columns, and its columns outside are fixed
/// after each step (clamp and reflect: by shuffles).
SMEMTILE_HOST_DEVICE constexpr int stencil_steps_stream_side_split(bool rewrites_outside) {
  return rewrites_outside ? 6 : 2;
}

/// The parts of a task's row loop: iterations below `head` and from `tail` on run the loop's edge
/// copy, those between the inner one (stencil_steps_stream_parts).
struct StencilStepsStreamParts {
  int head = 0;  ///< the first iteration the inner copy runs (a multiple of unroll)
  int tail = 0;  ///< the first iteration after it (a multiple of unroll, >= head)
};

/// The parts of the row loop (iterations 0 ... loads - 1, parts starting at multiples of `unroll`)
/// of a task of rows y0 ... y1 - 1 whose rows reach outside the array or within reach of it. The
/// task loads row top + i (top = y0 - depth x radius) at iteration i, `ahead` rows before it
/// computes with it; step s computes row top + i - s x radius and (below depth) saves it to or
/// fixes it by the edge rows, which read rows within the radius of the array's ends.
SMEMTILE_HOST_DEVICE constexpr StencilStepsStreamParts stencil_steps_stream_parts(int y0, int y1, int ny, int depth,
                                                                                 int radius, int ahead, int unroll) {
  const int kr = depth * radius, top = y0 - kr, loads = y1 - y0 + 2 * kr;
  const int end = (loads + unroll - 1) / unroll * unroll;
  // Top: loads of rows < 0 (i < -top - ahead), edge-row reads of rows < radius at step depth
  // (i < radius + kr - top) and saves and fills of rows <= radius before it.
  const int head_need = (2 * depth + 1) * radius - y0;
  int head = head_need <= 0 ? 0 : (head_need + unroll - 1) / unroll * unroll;
  head = head < end ? head : end;
  // Bottom: loads of rows >= ny (i >= ny - top - ahead), saves of rows >= ny - 1 - radius at step 1
  // (i >= ny - 1 - top) and the reads and fills after them.
  const int tail_need = ny - top - (ahead > 1 ? ahead : 1);
  int tail = tail_need < 0 ? 0 : tail_need / unroll * unroll;
  tail = tail < head ? head : tail > end ? end : tail;
  return StencilStepsStreamParts{head, tail};
}

/// How a boundary policy meets the stream's selector: fills (zero, constant; and inside), periodic
/// (points outside computed like any other), clamp, reflect (points outside fixed after each step).
enum class StencilStepsStreamBoundary { fill, periodic, clamp, reflect };

/// The 2D stencils the selector streams (where the array fills the GPU, stencil_steps_stream_fills):
/// those the default stream ran faster than the standard regions on both an H100 and an H200
/// (docs/stencil-steps.md, 8192^2 / 8191 x 8193, 64 steps, H100 stream against regions):
/// - 5-point floats under fills, periodic and clamp (clamp 4.91 / 4.94 against 3.72 / 3.27);
/// - radius-1 float boxes under fills and clamp (clamp 3.16 / 3.33 against 2.79 / 2.60);
/// - radius-2 float stars under fills (2.78 / 2.71 against 2.51 / 2.09) and periodic on rows off
///   16 bytes (2.55 against 2.09; on 16-byte rows 2.58 against 2.56);
/// - 5-point doubles under every policy (clamp 3.52 / 3.85 against 3.05 / 2.47, reflect 3.62 / 3.85
///   against 3.12 / 2.47; H200 reflect 2.66 / 3.08 against 2.19 / 1.82).
/// Float reflect keeps the standard regions (5-point, 3.38 / 3.37 at best against 3.66 / 3.22).
/// `partial_rings`: the op is separable and the stream's rings hold its partials (StepsStreamRing);
/// radius-1 float boxes then stream under periodic and reflect too (H200, the 3x3 Gaussian, 64
/// steps: periodic 3.42 / 3.46 against the regions' 2.40 / 2.15, reflect 2.56 / 2.59 against 2.23
/// / 2.05; not measured on an H100).
SMEMTILE_HOST_DEVICE constexpr bool stencil_steps_stream_selected(int elem_bytes, int radius, StencilShape shape,
                                                                  StencilStepsStreamBoundary boundary,
                                                                  bool rows_16_aligned, bool partial_rings = false) {
  using B = StencilStepsStreamBoundary;
  const bool star = shape == StencilShape::star;
  const bool float5 = elem_bytes == 4 && radius == 1 && star, double5 = elem_bytes == 8 && radius == 1 && star;
  const bool float9 = elem_bytes == 4 && radius == 1 && !star, float_r2 = elem_bytes == 4 && radius == 2 && star;
  switch (boundary) {
    case B::fill: return float5 || float9 || float_r2 || double5;
    case B::periodic: return float5 || double5 || (float_r2 && !rows_16_aligned) || (float9 && partial_rings);
    case B::clamp: return float5 || float9 || double5;
    case B::reflect: return double5 || (float9 && partial_rings);
    default: return false;
  }
}

/// The default stream policy of a stencil (stencil_steps_stream_selected says which take it), from
/// races at 8192^2 / 8191 x 8193, 64 steps (docs/stencil-steps.md):
/// - float stars 8 / R steps on 4 columns per lane, one row ahead (5-point clamp, H100 4.91 / 4.94
///   against 4.83 / 3.20 with three, H200 3.84 / 3.85 against 3.78 / 2.55);
/// - boxes 8 steps at 3 blocks per SM, three rows ahead on vector rows and one on element rows
///   (zero, H100 3.49 / 3.70 against 3.33 / 2.95 the other way round; H200 2.49 / 2.73 against
///   2.40 / 2.14);
/// - doubles 6 steps on 2 columns, one row ahead at 4 blocks per SM (clamp, H100 3.52 / 3.85
///   against 2.90 / 3.29 with three rows at 3 blocks).
template <int ElemBytes, int Radius, StencilShape Shape>
struct DefaultStencilStepsStreamPolicy {
  /// steps per pass: doubles 6, floats 8 / R
  static constexpr int depth = ElemBytes == 8 ? 6 : (8 / Radius >= 2 ? 8 / Radius : 2);
  static constexpr bool box = Shape == StencilShape::box;  ///< boxes: 3 rows of shuffles per step
  /// the policy
  using type = StencilStepsStreamPolicy<depth, ElemBytes == 8 ? 2 : 4, box ? 3 : 1, 64, 4, box ? 3 : 4, 1>;
};

/// Whether the default stream takes an ny x nx array on a GPU of `multiprocessors`: it fits
/// (stencil_steps_stream_fits) and its tasks of Policy::rows rows fill the warps that Policy::min_blocks
/// blocks per multiprocessor hold (smaller arrays keep more blocks busy as the standard regions).
template <class Policy, int Radius>
SMEMTILE_HOST_DEVICE constexpr bool stencil_steps_stream_fills(long long ny, long long nx, int multiprocessors) {
  if (!stencil_steps_stream_fits(ny, nx, Policy::columns, Policy::depth, Radius)) return false;
  const long long width = stencil_steps_stream_width(Policy::columns, Policy::depth, Radius);
  const long long tasks = (nx + width - 1) / width * ((ny + Policy::rows - 1) / Policy::rows);
  return tasks >= static_cast<long long>(multiprocessors) * Policy::min_blocks * Policy::warps;
}

/// What a pass of a policy is expected to gain over single steps, from the bytes each moves: a
/// single step reads and writes the array (2); a pass reads the regions (region / tile times the
/// array) and writes it once, for `depth` steps. Below 1 a policy loses to single steps.
template <class Policy>
SMEMTILE_HOST_DEVICE constexpr double stencil_steps_traffic_gain(int elem_bytes, int radius) {
  const StencilStepsGeometry g = stencil_steps_geometry<Policy>(elem_bytes, radius);
  if (g.tile_a <= 0 || g.tile_y <= 0 || g.tile_x <= 0) return 0;
  const double region = static_cast<double>(stencil_steps_region_elements<Policy>());
  const double tile = static_cast<double>(g.tile_a) * g.tile_y * g.tile_x;
  return 2.0 * Policy::depth / (region / tile + 1.0);
}

/// Default policies expected to gain less than this over single steps are not taken: the steps
/// then run one device_stencil call each.
inline constexpr double stencil_steps_min_gain = 1.25;

/// The selector's choice: fuse steps with the default policy, or run single steps.
struct StencilStepsChoice {
  bool fused = false;  ///< fuse (else one device_stencil call per step)
};

/// The choice for a stencil of Rank, Radius and Shape on elements of ElemBytes bytes, on a GPU whose
/// blocks may opt in to `shared_per_block` bytes of dynamic shared memory: 1D and 2D fused with the
/// standard regions where they fit and are expected to gain at least stencil_steps_min_gain
/// (stencil_steps_traffic_gain); 3D stencils of stencil_sweep_selected (`Separable`: the op is a
/// SeparableStencilOp) the default sweep where its planes fit, other 3D stencils single steps
/// (docs/stencil-steps.md: other boxes and the overlapped 3D regions measured slower than single steps).
template <int Rank, int ElemBytes, int Radius, StencilShape Shape, bool Separable = false>
SMEMTILE_HOST_DEVICE constexpr StencilStepsChoice stencil_steps_choice(long long shared_per_block) {
  using Standard = typename DefaultStencilStepsPolicy<Rank, ElemBytes, Radius, Shape>::type;
  StencilStepsChoice c{};
  if (Rank == 3) {
    using Sweep = typename DefaultStencilSweepPolicy<ElemBytes, Radius, Shape, Separable>::type;
    c.fused = stencil_sweep_selected<ElemBytes, Radius, Shape, Separable> &&
              shared_per_block >= stencil_sweep_shared_bytes<Sweep>(ElemBytes, Radius);
    return c;
  }
  if (shared_per_block >= stencil_steps_shared_bytes<Standard>(ElemBytes)) {
    c.fused = stencil_steps_traffic_gain<Standard>(ElemBytes, Radius) >= stencil_steps_min_gain;
  }
  return c;
}

/// How `steps` steps split into passes of at most `depth` steps: as few passes as the depth
/// allows, their steps as equal as they can be (the first `longer` passes take one more).
struct StencilStepsPasses {
  int passes = 0;  ///< passes through memory
  int steps = 0;   ///< steps of each pass after the first `longer`
  int longer = 0;  ///< passes that take steps + 1
  /// Steps of pass p.
  SMEMTILE_HOST_DEVICE constexpr int steps_of(int p) const { return p < longer ? steps + 1 : steps; }
};

/// The passes of `steps` steps at `depth` steps per pass at most (steps >= 0, depth >= 1).
SMEMTILE_HOST_DEVICE constexpr StencilStepsPasses stencil_steps_passes(long long steps, int depth) {
  StencilStepsPasses p{};
  if (steps <= 0 || depth < 1) return p;
  p.passes = static_cast<int>((steps + depth - 1) / depth);
  p.steps = static_cast<int>(steps / p.passes);
  p.longer = static_cast<int>(steps % p.passes);
  return p;
}

/// What a sweep pass pays besides its steps, in steps: its input and output planes, the z halo and
/// the pipeline's fill. Measured on 512^3 floats at depth 3: a pass of 2 steps ran at 0.87-0.88 of a
/// full pass's per-step speed on the H100 and the H200 (clamp: 1.18 against 1.35, 0.83 against 0.94),
/// which is 2 (a + 3) / (3 (a + 2)) for a = 1.2.
inline constexpr double stencil_sweep_pass_overhead = 1.2;

/// The share of a sweep's gain at full depth (its gain_over_single) that `steps` steps keep when
/// they run as stencil_steps_passes(steps, depth): (steps / depth)(a + depth) / (passes a + steps).
/// 1 when every pass is full; 0.875 for 2 or 4 steps at depth 3.
SMEMTILE_HOST_DEVICE constexpr double stencil_sweep_passes_share(long long steps, int depth) {
  const StencilStepsPasses p = stencil_steps_passes(steps, depth);
  if (p.passes < 1) return 0.0;
  const double a = stencil_sweep_pass_overhead, n = static_cast<double>(steps);
  return n / depth * (a + depth) / (p.passes * a + n);
}

}  // namespace smemtile
