// smemtile/core/arena.cuh: carving a kernel's dynamic shared memory into typed arrays, tiles and objects,
// with the launch's byte count computed from the same description.
//
// Write the carving once, as a function of an Arena:
//
//   struct Carved { smemtile::RuntimeTile<float> tile; BlockReduce::TempStorage* reduce; };
//   SMEMTILE_HOST_DEVICE Carved carve(smemtile::Arena& arena, int rows, int cols) {
//     return {arena.tile<float>(rows, cols, 1), arena.object<BlockReduce::TempStorage>()};
//   }
//   // host:   the bytes (and checks) for the launch, from a counting arena
//   smemtile::SharedMemoryPlan plan = smemtile::plan_shared_memory(carve, rows, cols);
//   smemtile::launch_with_plan(kernel, grid, block, plan, stream, rows, cols);   // device/launch.cuh
//   // device: the same function, run on the kernel's dynamic shared memory
//   Carved s = smemtile::carve_dynamic_shared_memory(carve, rows, cols);
//
// Both sides run the same code through the same Arena class, so they cannot disagree. Regions are
// handed out in call order, each at the smallest offset after the previous one that is aligned for
// its type (or to a larger power of two you ask for, up to 1024 bytes), so the total is minimal for
// the order given. Put the regions in a braced initializer ({a, b, c}) or in separate statements:
// C++ fixes the order of those, but not of function arguments.
//
// The carving core is constexpr and compiles without nvcc (tested on the host). Carved memory is
// not initialized and no constructor runs: arrays, tiles and objects must be trivially copyable.
// In debug builds (SMEMTILE_BOUNDS_CHECKS) the device arena traps when the carving needs more bytes
// than the launch gave, printing the requested and available bytes; the counting arena never traps
// and records the first invalid argument in the plan instead, for the host to report.
#pragma once

#include <cstddef>      // std::size_t
#include <cstdint>      // std::uintptr_t
#include <type_traits>  // std::is_trivially_copyable, std::enable_if_t, std::is_class

#include "../config.cuh"    // SMEMTILE_HOST_DEVICE, SMEMTILE_DEVICE, SMEMTILE_CHECK
#include "layout.cuh"        // RuntimePaddedLayout, RuntimeLinearLayout
#include "shared_address.cuh"  // shared_window_address
#include "runtime_tile.cuh"  // RuntimeTile, RuntimeTile1D, tile_shape_error
#include "tile_ref.cuh"      // TileRef

namespace smemtile {

/// The largest alignment a region can ask for: 1024 bytes, what Hopper's 128-byte TMA swizzle needs
/// of a tile's first byte; nothing in shared memory needs more.
inline constexpr std::size_t max_carve_alignment = 1024;

/// The alignment of the start of dynamic shared memory that smemtile relies on. CUDA aligns it to 16
/// bytes; larger alignments are made on the device at run time, and their cost (at most alignment
/// minus 16 bytes) is included in SharedMemoryPlan::launch_bytes().
inline constexpr std::size_t dynamic_shared_base_alignment = 16;

/// The most bytes a carving may span (2 GiB): far above any device's shared memory (227 KB on an
/// H100), it keeps every size and offset computation far from std::size_t overflow.
inline constexpr std::size_t max_carve_bytes = std::size_t(1) << 31;

/// Whether `n` is a power of two (0 is not).
SMEMTILE_HOST_DEVICE constexpr bool is_power_of_two(std::size_t n) { return n != 0 && (n & (n - 1)) == 0; }

/// The smallest multiple of `alignment` (a power of two) that is >= n.
SMEMTILE_HOST_DEVICE constexpr std::size_t align_up(std::size_t n, std::size_t alignment) {
  return (n + alignment - 1) & ~(alignment - 1);
}

/// A compile-time alignment request, checked where it is written: `arena.array<float>(64, align_to<128>)`.
/// `Bytes` must be a power of two no larger than max_carve_alignment.
template <std::size_t Bytes>
struct AlignTo {
  static_assert(is_power_of_two(Bytes), "smemtile: a carve alignment must be a power of two");
  static_assert(Bytes <= max_carve_alignment, "smemtile: a carve alignment cannot exceed 1024 bytes");
  static constexpr std::size_t value = Bytes;  ///< the requested alignment, in bytes
};
/// A compile-time alignment of `Bytes` bytes, to pass where a carve takes an alignment:
/// `arena.tile<float>(rows, cols, 1, align_to<128>)`.
template <std::size_t Bytes>
inline constexpr AlignTo<Bytes> align_to{};

/// One carved region: `bytes` bytes at `offset` from the arena's base, aligned to `alignment`.
struct CarvedRegion {
  std::size_t offset;  ///< where the region starts, in bytes from the arena's base
  std::size_t bytes;  ///< the region's size in bytes
  std::size_t alignment;  ///< the alignment its offset was rounded up to (requested or the type's, the larger)
};

/// The carving arithmetic, the one place where an offset is chosen: a region of `bytes` bytes placed
/// after `used` bytes starts at the first multiple of `alignment` at or after `used`.
SMEMTILE_HOST_DEVICE constexpr CarvedRegion place_region(std::size_t used, std::size_t bytes, std::size_t alignment) {
  return CarvedRegion{align_up(used, alignment), bytes, alignment};
}

/// What a carving description needs, as counted on the host (plan_shared_memory): the bytes and
/// base alignment to launch with, or the first invalid request it made.
struct SharedMemoryPlan {
  std::size_t carved_bytes = 0;    ///< end of the last region, counted from a base aligned to base_alignment
  std::size_t base_alignment = 1;  ///< the largest alignment any region asked for
  int regions = 0;                 ///< how many regions were carved
  const char* error = nullptr;     ///< what the first invalid request did wrong (nullptr: none)
  long long error_value = 0;       ///< the value that made that request invalid

  /// Whether every request was valid (error is null), so the plan can be launched with.
  SMEMTILE_HOST_DEVICE constexpr bool ok() const { return error == nullptr; }

  /// The dynamic shared memory to launch with: the carved bytes, plus room to move the base up to
  /// base_alignment when that exceeds the 16 bytes CUDA guarantees for the start of dynamic memory.
  SMEMTILE_HOST_DEVICE constexpr std::size_t launch_bytes() const {
    return carved_bytes +
           (base_alignment > dynamic_shared_base_alignment ? base_alignment - dynamic_shared_base_alignment : 0);
  }
};

/// Hands out consecutive, aligned regions of a block of memory, or only counts them.
///  - Arena::counting(): no memory; every request is checked and counted, pointers are null. The
///    base is taken to be aligned to whatever the regions ask for (recorded in the plan).
///  - Arena::over(base, capacity): real pointers into [base, base + capacity). The base's own
///    alignment bounds what regions can ask for.
///  - Arena::dynamic_shared(alignment) (device): over the kernel's dynamic shared memory, its base
///    moved up to `alignment`; normally created for you by carve_dynamic_shared_memory.
class Arena {
 public:
  /// An arena without memory that checks and counts every request (its pointers are null); its
  /// plan() is what plan_shared_memory returns.
  SMEMTILE_HOST_DEVICE static constexpr Arena counting() { return Arena(Mode::counting, nullptr, max_carve_bytes, 1, 0); }

  /// An arena over `capacity` bytes at `base` (host or device memory). Regions may ask for at most
  /// the alignment of `base` itself (capped at 1024). `base` must not be null (null means counting).
  /// A request that does not fit or is invalid returns a null pointer and is recorded in plan().
  SMEMTILE_HOST_DEVICE static Arena over(void* base, std::size_t capacity) {
    SMEMTILE_CHECK(base != nullptr, "Arena::over: the base must not be null (use Arena::counting to count)",
                   capacity, 0, 0, 0);
    return Arena(Mode::checked, static_cast<unsigned char*>(base), capacity,
                 address_alignment(reinterpret_cast<std::uintptr_t>(base)), 0);
  }

#if defined(__CUDACC__)
  /// An arena over this launch's dynamic shared memory, whose base is moved up to `base_alignment`
  /// (a power of two <= 1024). Its capacity is what the launch actually gave (%dynamic_smem_size).
  /// It trusts the host's plan: launch_with_plan checked the same carving (its arguments, and the
  /// bytes against the launch) before the kernel ran, so in release builds it checks nothing and
  /// every region is base + offset (which keeps accesses in the shared window, LDS/STS). Debug
  /// builds (SMEMTILE_BOUNDS_CHECKS) check every request and trap on overflow with the byte counts.
  SMEMTILE_DEVICE static Arena dynamic_shared(std::size_t base_alignment);
#endif

  // ---- carving -----------------------------------------------------------------------------------
  /// `count` elements of T, aligned to max(alignment, alignof(T)). Uninitialized.
  template <class T>
  SMEMTILE_HOST_DEVICE constexpr T* array(std::size_t count, std::size_t alignment = alignof(T)) {
    static_assert(std::is_trivially_copyable<T>::value,
                  "smemtile: carved arrays are not constructed; the element type must be trivially copyable");
    note_alignment(alignment, alignof(T));
    if (count > max_carve_bytes / sizeof(T)) {
      if (fail("array: element count too large (count * sizeof(T) must stay below 2 GiB)", static_cast<long long>(count)))
        return nullptr;
    }
    return pointer_at<T>(take(bytes_of<T>(count), alignment, alignof(T), sizeof(T)));
  }
  /// array(count, alignment) with the alignment given at compile time: `array<float>(n, align_to<128>)`.
  template <class T, std::size_t Align>
  SMEMTILE_HOST_DEVICE constexpr T* array(std::size_t count, AlignTo<Align>) {
    return array<T>(count, Align);
  }

  /// One T (a CUB TempStorage, a struct of flags, ...), aligned to max(alignment, alignof(T)).
  /// Uninitialized: the pointer is for placement or for types that need no construction.
  template <class T>
  SMEMTILE_HOST_DEVICE constexpr T* object(std::size_t alignment = alignof(T)) {
    static_assert(std::is_trivially_copyable<T>::value,
                  "smemtile: carved objects are not constructed; the type must be trivially copyable");
    return pointer_at<T>(take(bytes_of<T>(1), alignment, alignof(T), sizeof(T)));
  }
  /// object(alignment) with the alignment given at compile time: `object<Flags>(align_to<16>)`.
  template <class T, std::size_t Align>
  SMEMTILE_HOST_DEVICE constexpr T* object(AlignTo<Align>) {
    return object<T>(Align);
  }

  /// A rows x cols RuntimeTile with `pad` unused elements after each row, aligned to
  /// max(alignment, alignof(T)). Uninitialized.
  template <class T>
  SMEMTILE_HOST_DEVICE constexpr RuntimeTile<T> tile(int rows, int cols, int pad = 0, std::size_t alignment = 1) {
    note_alignment(alignment, alignof(T));
    if (const char* why = tile_shape_error(rows, cols, pad)) {
      if (fail(why, rows < 1 ? rows : cols < 1 ? cols : pad < 0 ? pad : static_cast<long long>(rows) * (cols + pad)))
        return RuntimeTile<T>{nullptr, RuntimePaddedLayout{rows, cols, pad}};
    }
    return tile<T>(RuntimePaddedLayout{rows, cols, pad}, alignment);
  }
  /// tile(rows, cols, pad, alignment) with the alignment given at compile time:
  /// `tile<float>(rows, cols, 1, align_to<128>)`.
  template <class T, std::size_t Align>
  SMEMTILE_HOST_DEVICE constexpr RuntimeTile<T> tile(int rows, int cols, int pad, AlignTo<Align>) {
    return tile<T>(rows, cols, pad, Align);
  }

  /// A 1D tile of `size` elements, accessed as t(i), aligned to max(alignment, alignof(T)). Uninitialized.
  template <class T>
  SMEMTILE_HOST_DEVICE constexpr RuntimeTile1D<T> tile_1d(int size, std::size_t alignment = 1) {
    note_alignment(alignment, alignof(T));
    if (size < 1) {
      if (fail("a 1D tile needs at least one element (size must be >= 1)", size))
        return RuntimeTile1D<T>{nullptr, RuntimeLinearLayout{size}};
    }
    return tile<T>(RuntimeLinearLayout{size}, alignment);
  }

  /// A tile over any layout (layout.cuh), aligned to max(alignment, alignof(T), layout's base_alignment).
  /// Uninitialized.
  template <class T, class Layout, class = std::enable_if_t<std::is_class<Layout>::value>>
  SMEMTILE_HOST_DEVICE constexpr TileRef<T, Layout> tile(const Layout& layout, std::size_t alignment = 1) {
    static_assert(std::is_trivially_copyable<T>::value,
                  "smemtile: carved tiles are not constructed; the element type must be trivially copyable");
    note_alignment(alignment, larger(alignof(T), static_cast<std::size_t>(Layout::base_alignment)));
    const long long elements = layout.storage_size();
    if (elements < 0 || static_cast<unsigned long long>(elements) > max_carve_bytes / sizeof(T)) {
      if (fail("tile: layout storage size negative or too large (must stay below 2 GiB)", elements))
        return TileRef<T, Layout>{nullptr, layout};
    }
    const std::size_t storage = static_cast<std::size_t>(elements);
    const std::size_t minimum = larger(alignof(T), static_cast<std::size_t>(Layout::base_alignment));
    return TileRef<T, Layout>{pointer_at<T>(take(bytes_of<T>(storage), alignment, minimum, sizeof(T))), layout};
  }

  // ---- what has been carved ----------------------------------------------------------------------
  /// Whether this arena only counts (Arena::counting): its pointers are null.
  SMEMTILE_HOST_DEVICE constexpr bool is_counting() const { return mode_ == Mode::counting; }
  /// Bytes used from the base, alignment gaps included.
  SMEMTILE_HOST_DEVICE constexpr std::size_t used() const { return used_; }
  /// Bytes from the base to the end of the memory (counting: max_carve_bytes).
  SMEMTILE_HOST_DEVICE constexpr std::size_t capacity() const { return capacity_; }
  /// The alignment the base provides (counting: the largest asked for so far).
  SMEMTILE_HOST_DEVICE constexpr std::size_t base_alignment() const { return base_alignment_; }
  /// The most recent region (offset from the base); {0, 0, 1} before the first.
  SMEMTILE_HOST_DEVICE constexpr CarvedRegion last_region() const { return last_; }
  /// What has been carved so far, as a SharedMemoryPlan: bytes used, base alignment, region count
  /// and the first invalid request.
  SMEMTILE_HOST_DEVICE constexpr SharedMemoryPlan plan() const {
    SharedMemoryPlan result;
    result.carved_bytes = used_;
    result.base_alignment = base_alignment_;
    result.regions = regions_;
    result.error = error_;
    result.error_value = error_value_;
    return result;
  }

 private:
  // counting: no memory, only counts; checked: real memory, a failed request returns null (host
  // code, Arena::over); trusted: real memory that the host's plan already checked (dynamic shared
  // memory), checked on the device only in debug builds. A constant per arena, so that after
  // inlining the modes not taken cost nothing.
  enum class Mode { counting, checked, trusted };

  SMEMTILE_HOST_DEVICE constexpr Arena(Mode mode, unsigned char* base, std::size_t capacity,
                                       std::size_t base_alignment, std::size_t launch_offset)
      : mode_(mode), base_(base), capacity_(capacity), base_alignment_(base_alignment), launch_offset_(launch_offset) {}

  SMEMTILE_HOST_DEVICE static constexpr std::size_t larger(std::size_t a, std::size_t b) { return a > b ? a : b; }
  // The largest power of two (<= 1024) dividing an address.
  SMEMTILE_HOST_DEVICE static constexpr std::size_t address_alignment(std::uintptr_t address) {
    const std::uintptr_t lowest_set_bit = address & (~address + 1);  // 0 for address 0
    return (lowest_set_bit == 0 || lowest_set_bit > max_carve_alignment) ? max_carve_alignment
                                                                          : static_cast<std::size_t>(lowest_set_bit);
  }

  // An invalid request: records the first error; a real arena also fails the debug-mode check (the
  // counting arena never traps: it reports through the plan, and the host turns that into an error
  // message). Returns whether the request must be refused: always, except in a trusted arena, which
  // goes on as the host's plan (checked before the launch) says it may.
  SMEMTILE_HOST_DEVICE constexpr bool fail(const char* why, long long value) {
    if (error_ == nullptr) {
      error_ = why;
      error_value_ = value;
    }
    if (!is_counting()) SMEMTILE_CHECK(false, why, value, used_, capacity_, base_alignment_);
    return mode_ != Mode::trusted;
  }

  // count elements of T in bytes. A trusted arena (the device's) computes in 32 bits, as
  // hand-written kernels do: the host plan proved every offset fits (max_carve_bytes is 2^31).
  template <class T>
  SMEMTILE_HOST_DEVICE constexpr std::size_t bytes_of(std::size_t count) const {
    if (mode_ == Mode::trusted) return static_cast<unsigned>(count) * static_cast<unsigned>(sizeof(T));
    return count * sizeof(T);
  }

  // A counting arena records every region's alignment first, whether or not the request turns out
  // valid: the base alignment then depends only on the (usually compile-time) alignments, never on
  // run-time sizes, so the device's counting pass folds to a constant.
  SMEMTILE_HOST_DEVICE constexpr void note_alignment(std::size_t requested, std::size_t minimum) {
    if (mode_ == Mode::counting && is_power_of_two(requested) && requested <= max_carve_alignment)
      base_alignment_ = larger(base_alignment_, larger(requested, minimum));
  }

  static constexpr std::size_t no_region = ~std::size_t(0);

  // The address of the region at `offset`: null when counting or when a checked carve failed; a
  // trusted arena never fails, so its pointer is never a choice between null and the region, which
  // would make it a generic pointer (LD/ST) instead of a shared one (LDS/STS). (No cast is evaluated
  // when counting, so counting stays usable in constant expressions.)
  template <class T>
  SMEMTILE_HOST_DEVICE constexpr T* pointer_at(std::size_t offset) const {
    if (mode_ == Mode::counting) return nullptr;
    if (mode_ == Mode::trusted) return reinterpret_cast<T*>(base_ + offset);
    return offset == no_region ? nullptr : reinterpret_cast<T*>(base_ + offset);
  }

  // The one carve: checks the requested alignment, raises it to what the type needs (`minimum`),
  // places the region with place_region and returns its offset from the base (no_region on error).
  SMEMTILE_HOST_DEVICE constexpr std::size_t take(std::size_t bytes, std::size_t requested_alignment,
                                                  std::size_t minimum_alignment, std::size_t element_bytes) {
    if (!is_power_of_two(requested_alignment) || requested_alignment > max_carve_alignment) {
      if (fail("carve alignment must be a power of two no larger than 1024 bytes",
               static_cast<long long>(requested_alignment)))
        return no_region;
    }
    const std::size_t alignment = larger(requested_alignment, minimum_alignment);
    if (is_counting()) {
      base_alignment_ = larger(base_alignment_, alignment);
    } else if (alignment > base_alignment_) {
      if (fail("carve alignment exceeds the alignment of the arena's base", static_cast<long long>(alignment)))
        return no_region;
    }
    if (mode_ == Mode::trusted) {
      // 32-bit arithmetic (see bytes_of); the same placement as place_region.
      // used_ is known to be a multiple of used_alignment_ (a compile-time fact after inlining when
      // the element sizes are), so a region needing no more starts right there, with no rounding.
      const unsigned mask = static_cast<unsigned>(alignment) - 1u;
      const unsigned offset = alignment <= used_alignment_ ? static_cast<unsigned>(used_)
                                                           : (static_cast<unsigned>(used_) + mask) & ~mask;
      // The next offset is a multiple of this alignment and of the element size's lowest power of two.
      const std::size_t granule = element_bytes & (~element_bytes + 1);
      used_alignment_ = alignment < granule ? alignment : granule;
      SMEMTILE_CHECK(offset + bytes <= capacity_,
                     "dynamic shared memory overflow: the carving needs more than the launch gave "
                     "(values: requested bytes, available bytes, this region's offset, its size)",
                     launch_offset_ + offset + bytes, launch_offset_ + capacity_, launch_offset_ + offset, bytes);
      used_ = offset + static_cast<unsigned>(bytes);
      last_ = CarvedRegion{offset, bytes, alignment};
      ++regions_;
      return offset;
    }
    const CarvedRegion region = place_region(used_, bytes, alignment);
    if (region.offset + region.bytes > capacity_) {
      if (is_counting()) {
        fail("carving exceeds the counting arena's capacity (2 GiB, more than any device's shared memory)",
             static_cast<long long>(region.offset + region.bytes));
        return no_region;
      }
      // The launch gave less dynamic shared memory than the carving needs. Both byte counts are
      // from the start of the launch's dynamic shared memory (the number passed at launch).
      SMEMTILE_CHECK(false,
                     "dynamic shared memory overflow: the carving needs more than the launch gave "
                     "(values: requested bytes, available bytes, this region's offset, its size)",
                     launch_offset_ + region.offset + region.bytes, launch_offset_ + capacity_,
                     launch_offset_ + region.offset, region.bytes);
      if (error_ == nullptr) {
        error_ = "dynamic shared memory overflow";
        error_value_ = static_cast<long long>(launch_offset_ + region.offset + region.bytes);
      }
      return no_region;
    }
    used_ = region.offset + region.bytes;
    last_ = region;
    ++regions_;
    return region.offset;
  }

  Mode mode_ = Mode::counting;
  unsigned char* base_ = nullptr;
  std::size_t capacity_ = 0;
  std::size_t base_alignment_ = 1;
  std::size_t launch_offset_ = 0;  // bytes between the memory's true start and base_ (for messages)
  std::size_t used_ = 0;
  std::size_t used_alignment_ = max_carve_alignment;  // used_ (0 at first) is a multiple of this
  CarvedRegion last_{0, 0, 1};
  int regions_ = 0;
  const char* error_ = nullptr;
  long long error_value_ = 0;
};

/// Runs a carving description on a counting arena: the bytes to launch with, the base alignment,
/// and the first invalid request if any. `carve(arena, args...)` must only carve (no other effects):
/// it also runs on the device, where its result is used.
template <class Carve, class... Args>
SMEMTILE_HOST_DEVICE constexpr SharedMemoryPlan plan_shared_memory(Carve&& carve, const Args&... args) {
  Arena arena = Arena::counting();
  (void)carve(arena, args...);
  return arena.plan();
}

#if defined(__CUDACC__)

namespace detail {

// The start of the kernel's dynamic shared memory (every extern __shared__ array of a kernel
// starts there). Declared 16-byte aligned, which CUDA provides: __align__ on an extern __shared__
// declaration is not reliably honoured (NVIDIA/cccl#5122), so larger alignments are made at run
// time by Arena::dynamic_shared and paid for in SharedMemoryPlan::launch_bytes().
SMEMTILE_DEVICE unsigned char* dynamic_shared_memory_start() {
  extern __shared__ __align__(16) unsigned char smemtile_dynamic_shared_memory[];
  return smemtile_dynamic_shared_memory;
}

}  // namespace detail

/// The dynamic shared memory this launch was given, in bytes (the third <<<>>> argument), read from
/// the PTX special register %dynamic_smem_size.
SMEMTILE_DEVICE unsigned dynamic_shared_memory_size() {
  unsigned bytes;
  asm("mov.u32 %0, %%dynamic_smem_size;" : "=r"(bytes));  // not volatile: unused, it costs nothing
  return bytes;
}

SMEMTILE_DEVICE Arena Arena::dynamic_shared(std::size_t base_alignment) {
  SMEMTILE_CHECK(is_power_of_two(base_alignment) && base_alignment <= max_carve_alignment,
                 "Arena::dynamic_shared: base alignment must be a power of two no larger than 1024", base_alignment,
                 0, 0, 0);
  unsigned char* const start = detail::dynamic_shared_memory_start();
  const std::size_t size = dynamic_shared_memory_size();
  if (base_alignment <= dynamic_shared_base_alignment)  // what CUDA guarantees: nothing to do at run time
    return Arena(Mode::trusted, start, size, dynamic_shared_base_alignment, 0);
  // Alignment is measured on the shared-window address, the one bank and TMA rules are about.
  const std::size_t start_address = static_cast<std::size_t>(shared_window_address(start));
  const std::size_t shift = align_up(start_address, base_alignment) - start_address;
  return Arena(Mode::trusted, start + shift, size > shift ? size - shift : 0, base_alignment, shift);
}

/// Runs a carving description on this launch's dynamic shared memory and returns what it returns.
/// A counting pass first finds the base alignment the regions need (plain arithmetic that folds to
/// a constant when the alignments are compile-time), exactly as plan_shared_memory did on the host.
template <class Carve, class... Args>
SMEMTILE_DEVICE auto carve_dynamic_shared_memory(Carve&& carve, const Args&... args) {
  const SharedMemoryPlan plan = plan_shared_memory(carve, args...);
  Arena arena = Arena::dynamic_shared(plan.base_alignment);
  return carve(arena, args...);
}

#endif  // __CUDACC__

}  // namespace smemtile
