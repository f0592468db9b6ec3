/// \file
/// device_stencil's dispatch: device limits -> policy -> launch. The default policies are tried in
/// the order stencil_candidates gives (a TMA policy only where TMA can describe the array, the sweep
/// where its planes fit and its grid's limits allow); a policy the caller passes runs as given or
/// fails with a message.
#pragma once

#include <cuda_runtime.h>

#include <atomic>
#include <climits>  // INT_MAX
#include <string>

#include "../../block/tma_copy.cuh"         // make_tma_map_2d/3d, TmaMapResult
#include "../../core/global_view.cuh"       // GlobalArray
#include "../kernels/stencil_1d.cuh"        // stencil_1d_kernel
#include "../kernels/stencil_2d.cuh"        // stencil_2d_kernel
#include "../kernels/stencil_3d.cuh"        // stencil_3d_kernel
#include "../kernels/stencil_stream.cuh"    // stencil_stream_kernel
#include "../launch.cuh"                    // LaunchStatus, DeviceLimits, device_limits, raise_dynamic_shared
#include "../tuning/stencil_policy.cuh"     // the policies and the selector
#include "../tuning/stencil_steps_policy.cuh"  // StencilSweepPolicy (StencilLoader::sweep)
#include "stencil_sweep_launch.cuh"          // launch_stencil_sweep, stencil_sweep_launch_error

namespace smemtile {
namespace detail {

#if defined(__CUDACC__)

inline constexpr const char* stencil_who = "smemtile::device_stencil";

// What a tensor map of one policy's boxes depends on: the array's address, extents and strides.
struct StencilMapKey {
  const void* data = nullptr;
  long long extents[3] = {};
  long long strides[3] = {};
  bool operator==(const StencilMapKey& o) const {
    for (int d = 0; d < 3; ++d)
      if (extents[d] != o.extents[d] || strides[d] != o.strides[d]) return false;
    return data == o.data;
  }
};

// The last few tensor maps (Maps: one CUtensorMap, or a row-classes set) one thread made for one
// instantiation (a policy's boxes): a time loop ping-ponging two buffers finds both here. A map is
// a pure function of its key (the driver only encodes what it is given; no device, context or
// allocation state), so a hit is what the driver would return again; a freed and reallocated array
// at the same address gets the same map.
inline constexpr int stencil_map_cache_entries = 4;
template <class Maps>
struct StencilMapCache {
  struct Entry {
    StencilMapKey key;
    Maps maps;
  };
  Entry entries[stencil_map_cache_entries];
  int filled = 0;  // entries in use
  int next = 0;    // the one replaced next (round robin)

  const Maps* find(const StencilMapKey& key) const {
    for (int e = 0; e < filled; ++e)
      if (entries[e].key == key) return &entries[e].maps;
    return nullptr;
  }
  void keep(const StencilMapKey& key, const Maps& maps) {
    entries[next] = Entry{key, maps};
    next = (next + 1) % stencil_map_cache_entries;
    if (filled < stencil_map_cache_entries) ++filled;
  }
};

// The key of a GlobalArray's maps: its address, extents and strides.
template <class Array>
StencilMapKey stencil_map_key(const Array& in) {
  StencilMapKey key;
  key.data = in.data_handle();
  for (std::size_t d = 0; d < Array::rank(); ++d) {
    key.extents[d] = in.extent(d);
    key.strides[d] = in.stride(d);
  }
  return key;
}

// The tensor map of Policy's boxes (a tile or plane with its halo) for `in` (rank 2 or 3): encoded
// by the driver (cuTensorMapEncodeTiled, about a microsecond of host time) the first time this
// thread asks for these arguments, then from a per-thread cache of the last few.
template <class Policy, int Radius, class T, std::size_t Rank>
TmaMapResult stencil_tma_map(const GlobalArray<const T, Rank>& in) {
  constexpr int E = static_cast<int>(sizeof(T));
  constexpr int box_rows = Policy::rows + 2 * Radius, box_cols = Policy::cols + 2 * Policy::halo_cols;
  const StencilMapKey key = stencil_map_key(in);
  thread_local StencilMapCache<CUtensorMap> cache;
  if (const CUtensorMap* hit = cache.find(key)) {
    TmaMapResult found{};
    found.map = *hit;
    return found;
  }
  // Rows of whole elements but not of whole TMA units (an odd number of floats in 8-byte units) are
  // read to the end of the unit holding their last element: inside the pitch (a multiple of 16
  // bytes, as TMA needs), and for the last row inside the 16 bytes holding its last element. The
  // kernels write the policy's values over the cells past the array (stencil_map_padded).
  const long long unit_elems = Policy::tma_unit_bytes / E, cols = in.extent(Rank - 1);
  const long long map_cols = (cols + unit_elems - 1) / unit_elems * unit_elems;
  TmaMapResult made;
  if constexpr (Rank == 2)
    made = smemtile::make_tma_map_2d(in.data_handle(), in.extent(0), map_cols, in.stride(0), in.stride(1), E,
                                     box_rows, box_cols, Policy::tma_unit_bytes);
  else
    made = smemtile::make_tma_map_3d(in.data_handle(), in.extent(0), in.extent(1), map_cols, in.stride(0),
                                     in.stride(1), in.stride(2), E, box_rows, box_cols, Policy::tma_unit_bytes);
  if (made) cache.keep(key, made.map);  // failures (tma_map_error's arithmetic, or the driver's refusal) are not kept
  return made;
}

// The row classes' tensor maps of Policy's tiles (core/row_class_layout.cuh) for a 2D array, or for
// a 3D array whose planes are dense (its rows one array of depth * rows rows): map c starts at the
// 16-byte boundary at or before row c's first element, takes every Classes-th row (a pitch of
// Classes rows: a multiple of 16 bytes) and as many columns as reach the row's end in whole TMA
// units (reading at most to the end of the 16 bytes holding the array's last element); cached like
// stencil_tma_map. nullptr, or why the array cannot be read so. (Columns are contiguous:
// device_stencil's argument check, stencil_argument_error, refused others before any dispatch.)
template <class Policy, int Radius, class T, std::size_t Rank>
const char* stencil_row_class_maps(const GlobalArray<const T, Rank>& in, RowClassTensorMaps<16 / sizeof(T)>* maps) {
  using Layout = std::conditional_t<Rank == 2, StencilTileLayout2D<Policy, Radius, T>, StencilPlaneLayout3D<Policy, Radius, T>>;
  constexpr int E = static_cast<int>(sizeof(T)), classes = Layout::classes, unit_elems = Policy::tma_unit_bytes / E;
  const StencilMapKey key = stencil_map_key(in);
  thread_local StencilMapCache<RowClassTensorMaps<classes>> cache;
  if (const RowClassTensorMaps<classes>* hit = cache.find(key)) {
    *maps = *hit;
    return nullptr;
  }
  constexpr int last = static_cast<int>(Rank) - 1;
  const long long cols = in.extent(last), pitch = in.stride(last - 1);
  long long rows = in.extent(last - 1);
  if constexpr (Rank == 3) {
    if (in.stride(0) != in.extent(1) * pitch)
      return "row classes read a volume's planes as one array of rows: stride(0) must be extent(1) * stride(1)";
    if ((in.extent(0) + Radius + 1) * rows + Policy::rows > INT_MAX)
      return "row classes index a volume's rows in int: depth * rows must stay below 2^31 - 1";
    rows *= in.extent(0);
  }
  if (rows < classes) return "row classes need at least 16 bytes' worth of rows (16 / sizeof(T))";
  if (pitch < cols) return "the array's pitch (stride of its rows) is smaller than its number of columns";
  for (int c = 0; c < classes; ++c) {
    const unsigned long long first = reinterpret_cast<unsigned long long>(in.data_handle() + c * pitch);
    const long long shift = static_cast<long long>(first & 15u) / E;
    const long long map_cols = (shift + cols + unit_elems - 1) / unit_elems * unit_elems;
    const TmaMapResult made = smemtile::make_tma_map_2d(
        reinterpret_cast<const void*>(first & ~15ull), (rows - c + classes - 1) / classes, map_cols, classes * pitch, 1, E,
        Layout::class_rows((c + Radius) % classes), Layout::row_stride(), Policy::tma_unit_bytes);
    if (!made) return made.error;
    maps->map[c] = made.map;
  }
  cache.keep(key, *maps);
  return nullptr;
}

// 1D: one block per Policy::interior points.
template <class Policy, int Radius, StencilShape Shape, class T, class Boundary, class Op>
LaunchStatus launch_stencil_1d(GlobalArray<const T, 1> in, GlobalArray<T, 1> out, Boundary boundary, Op op,
                               cudaStream_t stream) {
  const auto blocks = static_cast<unsigned>((static_cast<long long>(in.extent(0)) + Policy::interior - 1) / Policy::interior);
  stencil_1d_kernel<Policy, Radius, Shape, T><<<blocks, Policy::threads, 0, stream>>>(in, out, boundary, op);
  return LaunchStatus{};
}

// Blocks of Kernel (Policy::threads threads, `bytes` of dynamic shared memory, raised first:
// raise_dynamic_shared) that fit on `device` at once; the blocks per multiprocessor are asked once
// per device and kernel. `who` names the caller in errors.
template <auto Kernel, class Policy>
LaunchStatus resident_blocks(const DeviceLimits& device, long long bytes, const char* who, long long* resident) {
  const LaunchStatus ready = raise_dynamic_shared<Kernel>(device, bytes, who);
  if (!ready) return ready;
  static std::atomic<int> known[cached_devices];  // zero-initialized: not asked yet
  const bool cached = device.device >= 0 && device.device < cached_devices;
  int per_multiprocessor = cached ? known[device.device].load(std::memory_order_relaxed) : 0;
  if (per_multiprocessor == 0) {
    const cudaError_t error = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_multiprocessor, Kernel, Policy::threads,
                                                                            static_cast<size_t>(bytes));
    if (error != cudaSuccess) return failed_launch(error, std::string(who) + ": " + cudaGetErrorString(error));
    per_multiprocessor = per_multiprocessor < 1 ? 1 : per_multiprocessor;
    if (cached) known[device.device].store(per_multiprocessor, std::memory_order_relaxed);
  }
  *resident = static_cast<long long>(per_multiprocessor) * device.multiprocessors;
  return LaunchStatus{};
}

// 2D: about as many blocks as fit at once, each taking tiles in turn.
template <class Policy, int Radius, StencilShape Shape, class T, class Boundary, class Op>
LaunchStatus launch_stencil_2d(const DeviceLimits& device, const StencilMaps2D<Policy, T>& map, GlobalArray<const T, 2> in,
                               GlobalArray<T, 2> out, Boundary boundary, Op op, cudaStream_t stream) {
  constexpr long long shared = stencil_shared_bytes<Policy>(static_cast<int>(sizeof(T)), Radius);
  const long long across = (static_cast<long long>(in.extent(1)) + Policy::cols - 1) / Policy::cols;
  const long long tiles = across * ((static_cast<long long>(in.extent(0)) + Policy::rows - 1) / Policy::rows);
  if (tiles > INT_MAX) return failed_launch(cudaErrorInvalidValue, "smemtile::device_stencil: more than 2^31 - 1 tiles");
  constexpr auto kernel = stencil_2d_kernel<Policy, Radius, Shape, T, Boundary, Op>;
  long long resident = 0;
  const LaunchStatus ready = resident_blocks<kernel, Policy>(device, shared, stencil_who, &resident);
  if (!ready) return ready;
  kernel<<<static_cast<unsigned>(tiles < resident ? tiles : resident), Policy::threads, static_cast<size_t>(shared),
           stream>>>(map, in, out, boundary, op, static_cast<int>(across), static_cast<int>(tiles));
  return LaunchStatus{};
}

// Why the 2D stream cannot take arrays of these extents (its strips' column and row indices, with
// the columns beyond them, must fit in an int), or nullptr.
template <class Policy, int Radius>
const char* stencil_stream_extent_error(long long rows, long long cols) {
  if (cols > INT_MAX - Policy::cols - 32 - Radius || rows > INT_MAX - Policy::rows - Radius)
    return "the stream's strips index rows and columns in int: the array is too close to 2^31 - 1 along an axis";
  return nullptr;
}

// 2D stream: one warp per strip task (StencilStreamPolicy), tasks in turn where there are more
// than blocks.
template <class Policy, int Radius, StencilShape Shape, class T, class Boundary, class Op>
LaunchStatus launch_stencil_stream(GlobalArray<const T, 2> in, GlobalArray<T, 2> out, Boundary boundary, Op op,
                                   cudaStream_t stream) {
  const long long strips = (static_cast<long long>(in.extent(1)) + Policy::cols - 1) / Policy::cols;
  const long long tasks = strips * ((static_cast<long long>(in.extent(0)) + Policy::rows - 1) / Policy::rows);
  const long long blocks = (tasks + Policy::warps - 1) / Policy::warps;
  stencil_stream_kernel<Policy, Radius, Shape, T><<<static_cast<unsigned>(blocks < INT_MAX ? blocks : INT_MAX),
                                                    Policy::threads, 0, stream>>>(in, out, boundary, op,
                                                                                  static_cast<int>(strips), tasks);
  return LaunchStatus{};
}

// 3D: one block per xy tile and chunk of planes (stencil_chunk_planes: at most Policy::planes,
// balanced over the blocks resident at once), over columns first_col ... end_col - 1 (end_col < 0:
// to the last; the halo beyond them is read from the array, its edges are the array's).
template <class Policy, int Radius, StencilShape Shape, class T, class Boundary, class Op>
LaunchStatus launch_stencil_3d(const DeviceLimits& device, const StencilMaps3D<Policy, T>& map, GlobalArray<const T, 3> in,
                               GlobalArray<T, 3> out, Boundary boundary, Op op, cudaStream_t stream,
                               long long first_col = 0, long long end_col = -1) {
  constexpr long long shared = stencil_shared_bytes<Policy>(static_cast<int>(sizeof(T)), Radius);
  constexpr auto kernel = stencil_3d_kernel<Policy, Radius, Shape, T, Boundary, Op>;
  const auto blocks = [](long long n, int per_block) { return (n + per_block - 1) / per_block; };
  const long long last = end_col < 0 ? in.extent(2) : end_col;
  const long long across = blocks(last - first_col, Policy::cols), down = blocks(in.extent(1), Policy::rows);
  long long resident = 0;
  const LaunchStatus ready = resident_blocks<kernel, Policy>(device, shared, stencil_who, &resident);
  if (!ready) return ready;
  const int chunk = stencil_chunk_planes(in.extent(0), across * down, resident, Policy::planes, Radius);
  return launch_3d_grid<kernel>(device, across, down, blocks(in.extent(0), chunk), Policy::threads, shared,
                                stencil_who, stream, map, in, out, boundary, op, chunk, static_cast<int>(first_col));
}

// The tensor maps Policy's kernels load `in` with: TMA's map of its boxes, the row classes' maps,
// nothing for the other loaders; false where TMA cannot read the array, or in 3D under periodic
// the edges of its planes (stencil_plane_offsets_fit), with *why saying why.
template <class Policy, int Radius, class T, std::size_t Rank, class Boundary>
bool stencil_maps(const GlobalArray<const T, Rank>& in, Boundary,
                  std::conditional_t<Rank == 2, StencilMaps2D<Policy, T>, StencilMaps3D<Policy, T>>* maps, const char** why) {
  constexpr bool tma = Policy::loader == StencilLoader::tma, row_classes = Policy::loader == StencilLoader::tma_row_classes;
  if constexpr (tma || row_classes) {
    if constexpr (Rank == 3 && edge_source<Boundary> == EdgeSource::far) {
      if (!stencil_plane_offsets_fit(in.extent(1), in.extent(2), in.stride(1))) {
        *why = "periodic edges are read by 32-bit offsets within a plane, and a plane spans more than 2^31 elements";
        return false;
      }
    }
  }
  if constexpr (row_classes) {
    static_assert(sizeof(T) <= 8, "smemtile::device_stencil: tma_row_classes loads elements of up to 8 bytes");
    return !(*why = stencil_row_class_maps<Policy, Radius, T, Rank>(in, maps));
  } else if constexpr (tma) {
    const TmaMapResult made = stencil_tma_map<Policy, Radius, T, Rank>(in);
    if (!made) *why = made.error;
    else *maps = made.map;
    return static_cast<bool>(made);
  }
  return true;
}

// Launches with Policy; false (nothing launched) where it loads with TMA and TMA cannot describe
// `in`, or the edges of its planes under periodic cannot be read (stencil_maps; then *why says why).
template <class Policy, int Radius, StencilShape Shape, class T, std::size_t Rank, class Boundary, class Op>
bool try_stencil_policy(const DeviceLimits& device, GlobalArray<const T, Rank> in, GlobalArray<T, Rank> out,
                        Boundary boundary, Op op, cudaStream_t stream, LaunchStatus* launched, const char** why) {
  static_assert(StencilPolicyCheck<Policy, static_cast<int>(sizeof(T)), Radius, Shape>::ok, "");
  static_assert(Policy::rank == static_cast<int>(Rank), "smemtile::device_stencil: the policy's rank is not the array's");
  if constexpr (Rank == 1) {
    *launched = launch_stencil_1d<Policy, Radius, Shape>(in, out, boundary, op, stream);
    return true;
  } else if constexpr (Policy::loader == StencilLoader::sweep) {
    if constexpr (Rank == 3) {
      if ((*why = stencil_sweep_launch_error<Policy, Radius, T>(device, in))) return false;
      *launched = launch_stencil_sweep<Policy, Radius, Shape, T>(device, in, out, boundary, op, 1, stencil_who, stream);
    }
    return true;
  } else if constexpr (Policy::loader == StencilLoader::stream) {
    if ((*why = stencil_stream_extent_error<Policy, Radius>(in.extent(0), in.extent(1)))) return false;
    *launched = launch_stencil_stream<Policy, Radius, Shape>(in, out, boundary, op, stream);
    return true;
  } else {
    std::conditional_t<Rank == 2, StencilMaps2D<Policy, T>, StencilMaps3D<Policy, T>> maps{};
    if (!stencil_maps<Policy, Radius, T, Rank>(in, boundary, &maps, why)) return false;
    if constexpr (Rank == 2) *launched = launch_stencil_2d<Policy, Radius, Shape>(device, maps, in, out, boundary, op, stream);
    else *launched = launch_stencil_3d<Policy, Radius, Shape>(device, maps, in, out, boundary, op, stream);
    return true;
  }
}

// The selection's 3D large planes: where their last tile column would be mostly empty
// (stencil_tail_cols), the columns of whole large planes are launched with Policy and the rest with
// Tail (the same loader's standard planes), reading the halo across the seam from the array; else,
// or where Tail cannot read the array, Policy over the whole array (try_stencil_policy).
template <class Policy, class Tail, int Radius, StencilShape Shape, class T, class Boundary, class Op>
bool try_stencil_large_planes(const DeviceLimits& device, GlobalArray<const T, 3> in, GlobalArray<T, 3> out,
                              Boundary boundary, Op op, cudaStream_t stream, LaunchStatus* launched, const char** why) {
  static_assert(Tail::loader == Policy::loader && Tail::cols < Policy::cols, "the tail's planes are narrower, same loader");
  const long long tail = stencil_tail_cols(in.extent(2), Policy::cols, static_cast<int>(sizeof(T)));
  StencilMaps3D<Policy, T> maps{};
  StencilMaps3D<Tail, T> tail_maps{};
  const char* tail_why = nullptr;
  if (tail == 0 || !stencil_maps<Tail, Radius, T, 3>(in, boundary, &tail_maps, &tail_why))
    return try_stencil_policy<Policy, Radius, Shape, T, 3>(device, in, out, boundary, op, stream, launched, why);
  if (!stencil_maps<Policy, Radius, T, 3>(in, boundary, &maps, why)) return false;
  const long long seam = in.extent(2) - tail;
  *launched = launch_stencil_3d<Policy, Radius, Shape>(device, maps, in, out, boundary, op, stream, 0, seam);
  if (*launched) *launched = launch_stencil_3d<Tail, Radius, Shape>(device, tail_maps, in, out, boundary, op, stream, seam);
  return true;
}

// The default policy of a loader and tiles for this stencil.
template <int Rank, int Radius, StencilShape Shape, class T, StencilLoader Loader,
          StencilTiles Tiles = StencilTiles::standard, class Op = void>
using DefaultStencilPolicyOf = typename DefaultStencilPolicy<Rank, static_cast<int>(sizeof(T)), Radius, Shape, Loader,
                                                             Tiles, is_separable_stencil_op<Op>>::type;

// The default policies, best first (stencil_candidates): the first that can run is launched.
template <int Radius, StencilShape Shape, class T, std::size_t Rank, class Boundary, class Op>
LaunchStatus dispatch_stencil(GlobalArray<const T, Rank> in, GlobalArray<T, Rank> out, Boundary boundary, Op op,
                              cudaStream_t stream) {
  static_assert(separable_op_fits<Shape, static_cast<int>(Rank), Op>());
  constexpr int rank = static_cast<int>(Rank);
  LaunchStatus launched;
  const char* why = nullptr;
  if constexpr (Rank == 1) {
    using Policy = DefaultStencilPolicyOf<1, Radius, Shape, T, StencilLoader::sync>;
    try_stencil_policy<Policy, Radius, Shape, T, Rank>(DeviceLimits{}, in, out, boundary, op, stream, &launched, &why);
    return launched;
  } else {
    DeviceLimits device;
    const LaunchStatus queried = device_limits(&device, stencil_who);
    if (!queried) return queried;
    long long points = 1;
    for (int d = 0; d < rank; ++d) points *= static_cast<long long>(in.extent(d));
    constexpr bool separable = is_separable_stencil_op<Op>;
    const StencilCandidates candidates = stencil_candidates<rank, static_cast<int>(sizeof(T)), Radius, Shape, separable>(
        StencilTarget{device.cc_major, device.shared_per_block_optin, points, static_cast<long long>(in.extent(rank - 1))});
    for (int c = 0; c < candidates.count; ++c) {
      const StencilChoice choice = candidates.choice[c];
      bool ran = false;
      if (choice.loader == StencilLoader::sweep) {
        if constexpr (stencil_sweep_single_selected(rank, static_cast<int>(sizeof(T)), Radius, Shape, separable)) {
          using Policy = DefaultStencilPolicyOf<rank, Radius, Shape, T, StencilLoader::sweep, StencilTiles::standard, Op>;
          ran = try_stencil_policy<Policy, Radius, Shape, T, Rank>(device, in, out, boundary, op, stream, &launched, &why);
        }
      } else if (choice.loader == StencilLoader::cp_async) {
        using Policy = DefaultStencilPolicyOf<rank, Radius, Shape, T, StencilLoader::cp_async>;
        ran = try_stencil_policy<Policy, Radius, Shape, T, Rank>(device, in, out, boundary, op, stream, &launched, &why);
      } else if (choice.loader == StencilLoader::stream) {
        if constexpr (stencil_stream_selected(rank, static_cast<int>(sizeof(T)), Radius, Shape)) {
          using Policy = DefaultStencilPolicyOf<rank, Radius, Shape, T, StencilLoader::stream>;
          ran = try_stencil_policy<Policy, Radius, Shape, T, Rank>(device, in, out, boundary, op, stream, &launched, &why);
        }
      } else if (choice.loader == StencilLoader::tma_row_classes) {
        if constexpr (stencil_row_classes_selected<rank, static_cast<int>(sizeof(T)), Radius, Shape>) {
          // The stencil's row-classes tiles, or in 3D the standard planes (stencil_row_classes_tiles_for).
          constexpr StencilTiles tiles = stencil_row_classes_tiles<rank, static_cast<int>(sizeof(T)), Radius, Shape>;
          if (choice.tiles == tiles) {
            using Policy = DefaultStencilPolicyOf<rank, Radius, Shape, T, StencilLoader::tma_row_classes, tiles, Op>;
            if constexpr (rank == 3 && tiles == StencilTiles::large) {
              using Tail = DefaultStencilPolicyOf<rank, Radius, Shape, T, StencilLoader::tma_row_classes, StencilTiles::standard, Op>;
              ran = try_stencil_large_planes<Policy, Tail, Radius, Shape, T>(device, in, out, boundary, op, stream, &launched, &why);
            } else {
              ran = try_stencil_policy<Policy, Radius, Shape, T, Rank>(device, in, out, boundary, op, stream, &launched, &why);
            }
          } else if constexpr (rank == 3 && tiles != StencilTiles::standard) {
            using Policy = DefaultStencilPolicyOf<rank, Radius, Shape, T, StencilLoader::tma_row_classes, StencilTiles::standard, Op>;
            ran = try_stencil_policy<Policy, Radius, Shape, T, Rank>(device, in, out, boundary, op, stream, &launched, &why);
          }
        }
      } else if (choice.tiles == StencilTiles::standard) {
        using Policy = DefaultStencilPolicyOf<rank, Radius, Shape, T, StencilLoader::tma>;
        ran = try_stencil_policy<Policy, Radius, Shape, T, Rank>(device, in, out, boundary, op, stream, &launched, &why);
      } else if (choice.tiles == StencilTiles::long_rows) {
        if constexpr (stencil_long_rows_selected<rank, static_cast<int>(sizeof(T)), Radius, Shape>) {
          using Policy = DefaultStencilPolicyOf<rank, Radius, Shape, T, StencilLoader::tma, StencilTiles::long_rows>;
          ran = try_stencil_policy<Policy, Radius, Shape, T, Rank>(device, in, out, boundary, op, stream, &launched, &why);
        }
      } else if constexpr (stencil_large_tiles_selected<rank, Radius, Shape>) {
        using Policy = DefaultStencilPolicyOf<rank, Radius, Shape, T, StencilLoader::tma, StencilTiles::large, Op>;
        if constexpr (rank == 3) {
          using Tail = DefaultStencilPolicyOf<rank, Radius, Shape, T, StencilLoader::tma, StencilTiles::standard, Op>;
          ran = try_stencil_large_planes<Policy, Tail, Radius, Shape, T>(device, in, out, boundary, op, stream, &launched, &why);
        } else {
          ran = try_stencil_policy<Policy, Radius, Shape, T, Rank>(device, in, out, boundary, op, stream, &launched, &why);
        }
      }
      if (ran) return launched;
    }
    return failed_launch(cudaErrorInvalidValue, std::string(stencil_who) + ": no policy can run");  // not reached
  }
}

// The caller's Policy, or a status saying why it cannot run here.
template <class Policy, int Radius, StencilShape Shape, class T, std::size_t Rank, class Boundary, class Op>
LaunchStatus dispatch_stencil_with(GlobalArray<const T, Rank> in, GlobalArray<T, Rank> out, Boundary boundary, Op op,
                                   cudaStream_t stream) {
  static_assert(separable_op_fits<Shape, static_cast<int>(Rank), Op>());
  DeviceLimits device;
  if constexpr (Rank > 1) {
    const LaunchStatus queried = device_limits(&device, stencil_who);
    if (!queried) return queried;
    if ((Policy::loader == StencilLoader::tma || Policy::loader == StencilLoader::tma_row_classes) &&
        !stencil_gpu_has_tma(device.cc_major))
      return failed_launch(cudaErrorInvalidValue,
                           std::string(stencil_who) + ": the policy loads with TMA, which needs sm_90 or later");
  }
  LaunchStatus launched;
  const char* why = nullptr;
  if (!try_stencil_policy<Policy, Radius, Shape, T, Rank>(device, in, out, boundary, op, stream, &launched, &why))
    return failed_launch(cudaErrorInvalidValue,
                         std::string(stencil_who) +
                             (Policy::loader == StencilLoader::tma || Policy::loader == StencilLoader::tma_row_classes
                                  ? ": the policy loads with TMA, which cannot read this array: "
                                                                   : ": the policy cannot take this array: ") +
                             why);
  return launched;
}

#endif  // __CUDACC__

}  // namespace detail
}  // namespace smemtile
