/// \file
/// The shared-memory layout of a run of short records (k elements each, k = 1..32 or so): record r,
/// element c at record_offset(r, c) = r * record_pitch(k, E) + c + a skew of one word per 16 bytes'
/// worth of records. The pitch is odd for elements of 4 bytes or more and 4 x odd bytes for 1- and
/// 2-byte elements; with the skew, a warp whose lanes each take the 16 bytes' worth of consecutive
/// records one 16-byte global access covers (the strided side of the de-interleave and interleave)
/// touches 32 distinct banks. record_layout_conflict_free() proves it with the bank model (banks.cuh)
/// for every k and element size; the static_assert below runs it at compile time.
///
/// Also rotated records: the stage order in which threads holding 16 bytes' worth of records each, as
/// a 16-byte chunk per element, meet distinct banks per warp access for any odd k
/// (rotated_record_word).
///
/// Also FastDivmod: a division by a run-time divisor that is a multiply-high, an add and a shift
/// (Granlund-Montgomery), exact for every 32-bit dividend, made once per block.
#pragma once

#include "../config.cuh"  // SMEMTILE_HOST_DEVICE
#include "banks.cuh"      // WarpAccess, bank_cost

namespace smemtile {

/// The pitch (elements from one record to the next) of a record run's shared layout, for records
/// of k elements of elem_bytes bytes: odd for 4- to 16-byte elements, 4/elem_bytes x odd for 1- and
/// 2-byte ones.
SMEMTILE_HOST_DEVICE constexpr int record_pitch(int k, int elem_bytes) {
  const int unit = elem_bytes >= 4 ? 1 : 4 / elem_bytes;  // elements per word (>= 1)
  int words = (k + unit - 1) / unit;                        // words a record needs, at least
  if (words % 2 == 0) ++words;                              // made odd
  return words * unit;
}

/// Records that share one skew step: the records one thread's 16-byte global access covers (16 /
/// elem_bytes), or 0 for 16-byte elements (no skew).
SMEMTILE_HOST_DEVICE constexpr int record_skew_group(int elem_bytes) { return elem_bytes < 16 ? 16 / elem_bytes : 0; }

/// The offset (elements) of element c of record r in a record layout of pitch `pitch`: r * pitch + c,
/// plus one 4-byte word (one element for 8-byte elements) per record_skew_group(elem_bytes) records
/// before r. The skew makes the 16-byte paths conflict-free: lane l of a warp taking records
/// V l .. V l + V - 1 (V = record_skew_group) lands in bank ((V pitch + 1) l + ...) words, an odd
/// multiple of l, where an unskewed layout would put 32 lanes in 8 banks.
SMEMTILE_HOST_DEVICE constexpr int record_offset(int r, int c, int pitch, int elem_bytes) {
  const int group = record_skew_group(elem_bytes);
  const int unit = elem_bytes >= 4 ? 1 : 4 / elem_bytes;
  return r * pitch + c + (group != 0 ? r / group * unit : 0);
}

/// Records of k elements that a shared buffer of `capacity` elements holds in the record layout,
/// rounded down to a multiple of 16 where there are at least 16 and `round` (so that runs of them
/// start on 16-byte boundaries of a 16-byte aligned array).
SMEMTILE_HOST_DEVICE constexpr int record_capacity(int capacity, int k, int elem_bytes, bool round = true) {
  const int pitch = record_pitch(k, elem_bytes);
  const int group = record_skew_group(elem_bytes);
  const int unit = elem_bytes >= 4 ? 1 : 4 / elem_bytes;
  long long records = group != 0 ? static_cast<long long>(capacity) * group / (static_cast<long long>(pitch) * group + unit)
                                  : capacity / pitch;
  while (records > 0 && record_offset(static_cast<int>(records - 1), k - 1, pitch, elem_bytes) >= capacity) --records;
  return round && records >= 16 ? static_cast<int>(records / 16 * 16) : static_cast<int>(records);
}

/// One warp's access to element `c` of a record layout (k, elem_bytes) as the 16-byte paths make it:
/// lane l takes record first + V l + e (V = record_skew_group, e < V the element of its vector), or
/// record first + l for 16-byte elements.
SMEMTILE_HOST_DEVICE constexpr WarpAccess record_column_access(int k, int elem_bytes, int c, int e = 0, int first = 0,
                                                              AccessOp op = AccessOp::load) {
  WarpAccess access{{}, 0u, elem_bytes, op};
  const int pitch = record_pitch(k, elem_bytes);
  const int group = record_skew_group(elem_bytes);
  for (int lane = 0; lane < warp_lanes; ++lane) {
    const int r = first + (group != 0 ? group * lane + e : lane);
    access.byte_address[lane] = static_cast<unsigned>(record_offset(r, c, pitch, elem_bytes) * elem_bytes);
    access.active_mask |= 1u << lane;
  }
  return access;
}

/// Whether the 16-byte paths' column accesses (record_column_access for elements 0 and k - 1 and
/// vector elements 0 and V - 1) of record layouts of k = 1..max_k elements of elem_bytes are
/// conflict-free under the bank model. (Other elements and first records move every lane by the
/// same amount, or by whole skew words.)
SMEMTILE_HOST_DEVICE constexpr bool record_layout_conflict_free(int elem_bytes, int max_k = 32) {
  const int last = record_skew_group(elem_bytes) > 0 ? record_skew_group(elem_bytes) - 1 : 0;
  for (int k = 1; k <= max_k; ++k)
    for (int i = 0; i < 2; ++i) {
      const int e = i == 0 ? 0 : last;
      if (bank_cost(record_column_access(k, elem_bytes, 0, e)).conflicts != 0) return false;
      if (k > 1 && bank_cost(record_column_access(k, elem_bytes, k - 1, e)).conflicts != 0) return false;
    }
  return true;
}

static_assert(record_layout_conflict_free(1) && record_layout_conflict_free(2) && record_layout_conflict_free(4) &&
                  record_layout_conflict_free(8) && record_layout_conflict_free(16),
              "record layout: the 16-byte paths' column accesses must touch 32 distinct banks for every k in 1..32 "
              "and element size; change record_pitch or record_offset's skew");

/// The slot (16-byte unit) of chunk q of a flat run of records staged in shared memory for the
/// register regroup (block/record_registers.cuh), whose threads each take a segment of k
/// consecutive chunks (16 bytes' worth of records of k elements). Eight lanes (one phase of a
/// 16-byte access) reading chunk i of eight consecutive segments, or writing eight consecutive
/// chunks, must reach eight distinct 16-byte bank groups: for odd k the identity does; otherwise a
/// chunk index takes its segment's low three bits (an XOR; for k = 2 and 4 the bits of q / 8, for
/// even k >= 8 those of q / k, the same rule at k = 8: one segment is a whole group of eight, and
/// for larger k consecutive segments' chunk i land in distinct groups); for k = 6 a segment takes
/// k + 1 slots (record_chunk_conflict_free proves the reads, and the writes but k = 6's padded ones,
/// which meet a 2-way conflict in some phases).
SMEMTILE_HOST_DEVICE constexpr int record_chunk_slot(int q, int k) {
  if (k % 2 != 0) return q;
  if (k <= 8 && (k & (k - 1)) == 0) return q ^ ((q >> 3) & 7);  // k = 8: q >> 3 is q / k, without a signed division
  if (k >= 8) return q ^ ((q / k) & 7);
  return q + q / k;
}

/// Slots a staged run of `chunks` chunks (a multiple of k) takes.
SMEMTILE_HOST_DEVICE constexpr int record_chunk_slots(int chunks, int k) {
  if (k % 2 != 0) return chunks;
  if (k >= 8 || (k & (k - 1)) == 0) return (chunks + 7) / 8 * 8;
  return chunks + chunks / k;
}

/// The narrow register kernels' channel rows that are off 16 bytes. A run of `extent` records moves
/// in blocks of `records` (the last one shorter, element by element); segments are 16 bytes of a
/// channel, `per_chunk` records. Whether the run has a whole segment after block `first` (its first
/// record): a split block then completes its last window of every channel row from it.
SMEMTILE_HOST_DEVICE constexpr bool narrow_block_has_next(int first, int records, int per_chunk, int extent) {
  return first + records + per_chunk <= extent;
}

/// Whether a merge block is interior: it reads each row's aligned windows from 16 bytes before its
/// records to 16 bytes after them, all inside the row unless it is the run's first block or has no
/// next segment.
SMEMTILE_HOST_DEVICE constexpr bool narrow_block_interior(int first, int records, int per_chunk, int extent) {
  return first > 0 && narrow_block_has_next(first, records, per_chunk, extent);
}

/// Whether a split block stores its window j (of `windows`) whole, in a channel row whose next
/// 16-byte boundary lies d bytes into the block's run: window j is block bytes [d + 16 j, d + 16 j +
/// 16); the last one, where the run has no next segment, goes out as the block's own first 16 - d
/// bytes only (the run's first block also stores the row's head, its bytes [0, d)).
SMEMTILE_HOST_DEVICE constexpr bool narrow_split_window_whole(int j, int windows, int d, bool has_next) {
  return d == 0 || has_next || j < windows - 1;
}

/// Whether record_chunk_slot's 16-byte accesses are conflict-free under the bank model for records
/// of k elements: lane l reading chunk i of segment first + l (i < k), and, but for k = 6 (padded),
/// lane l writing chunk first + l.
SMEMTILE_HOST_DEVICE constexpr bool record_chunk_conflict_free(int k) {
  for (int first = 0; first < 32; first += 8) {  // the swizzle repeats after four groups of eight segments
    for (int i = 0; i < k; ++i) {
      WarpAccess read{{}, ~0u, 16, AccessOp::load};
      for (int lane = 0; lane < warp_lanes; ++lane)
        read.byte_address[lane] = static_cast<unsigned>(record_chunk_slot((first + lane) * k + i, k) * 16);
      if (bank_cost(read).conflicts != 0) return false;
    }
  }
  // the writes repeat after lcm(32, 8 k) chunks (slot(q + 8 k) = slot(q) + 8 k for even k)
  for (int q0 = 0; k != 6 && q0 < 32 * (k < 4 ? 4 : k); q0 += 32) {
    WarpAccess write{{}, ~0u, 16, AccessOp::store};
    for (int lane = 0; lane < warp_lanes; ++lane)
      write.byte_address[lane] = static_cast<unsigned>(record_chunk_slot(q0 + lane, k) * 16);
    if (bank_cost(write).conflicts != 0) return false;
  }
  return true;
}

/// Whether record_chunk_slot maps a run of `chunks` chunks (a multiple of k) one to one into
/// record_chunk_slots(chunks, k) slots. The XORs keep a chunk within its aligned group of eight, so
/// each group is checked alone; where a segment boundary falls inside a group (even k >= 8 not a
/// multiple of 8) two XORs share it. The padded rule (k = 6) only grows.
SMEMTILE_HOST_DEVICE constexpr bool record_chunk_slots_one_to_one(int chunks, int k) {
  const int slots = record_chunk_slots(chunks, k);
  if (k % 2 != 0 || k == 6) return record_chunk_slot(chunks - 1, k) < slots;  // increasing rules
  for (int g = 0; g < chunks; g += 8) {
    unsigned seen = 0;
    for (int q = g; q < g + 8 && q < chunks; ++q) {
      const int slot = record_chunk_slot(q, k);
      if (slot >= slots || slot / 8 != g / 8 || (seen & (1u << (slot % 8)))) return false;
      seen |= 1u << (slot % 8);
    }
  }
  return true;
}

// One assertion per k: each gets the compiler's whole budget for constant evaluation.
static_assert(record_chunk_conflict_free(1), "record_chunk_slot: conflicts for k = 1");
static_assert(record_chunk_conflict_free(2), "record_chunk_slot: conflicts for k = 2");
static_assert(record_chunk_conflict_free(3), "record_chunk_slot: conflicts for k = 3");
static_assert(record_chunk_conflict_free(4), "record_chunk_slot: conflicts for k = 4");
static_assert(record_chunk_conflict_free(5), "record_chunk_slot: conflicts for k = 5");
static_assert(record_chunk_conflict_free(6), "record_chunk_slot: conflicts for k = 6");
static_assert(record_chunk_conflict_free(7), "record_chunk_slot: conflicts for k = 7");
static_assert(record_chunk_conflict_free(8), "record_chunk_slot: conflicts for k = 8 (the staged chunks' 16-byte accesses "
                                             "must reach distinct banks; change record_chunk_slot)");

/// Rotated records (records of an odd k elements, staged flat as the records lie in global memory):
/// thread t holds the P = 16 / unit bytes units P t .. P t + P - 1 as one 16-byte chunk per element c
/// (a channel chunk), and its i-th shared access of element c touches unit P t + rotated_record(i,
/// t, P). A unit is a record of 4- or 8-byte elements, or a packed record (packed_record_element) of
/// 4 / elem_bytes records of 1- or 2-byte ones, k words. The rotation by lane / 8 puts a warp's
/// accesses of one (i, c) in distinct banks for every odd k (32 words; 8-byte elements: 16 slots per
/// half warp), where the plain order (unit P t + i) would put lanes 8 apart on one bank.
SMEMTILE_HOST_DEVICE constexpr int rotated_record(int i, int thread, int per_thread = 4) {
  return (i + (thread & 31) / 8) % per_thread;
}

/// The access (i) in which thread `thread` touches record per_thread x thread + m: the inverse of
/// rotated_record.
SMEMTILE_HOST_DEVICE constexpr int rotated_record_access(int m, int thread, int per_thread = 4) {
  return (m + 4 * per_thread - (thread & 31) / 8) % per_thread;
}

/// The stage element thread `thread`'s i-th access of element c touches, records of k elements,
/// per_thread records a thread.
SMEMTILE_HOST_DEVICE constexpr int rotated_record_word(int thread, int i, int c, int k, int per_thread = 4) {
  return (per_thread * thread + rotated_record(i, thread, per_thread)) * k + c;
}

/// Rotated records of a channel row `shift` units off 16 bytes (aligned windows): thread t's window
/// starts `shift` units before its own units, so its i-th access touches unit
/// shifted_window_unit(P t + rotated_record(i, t, P), shift, P threads); thread 0's first `shift`
/// units wrap to the block's last ones (the window past the block's end), so that every unit is one
/// thread's. A uniform shift of a conflict-free access (the wrap adds P threads units, whole
/// 128-byte rows of banks for threads a multiple of 8): still conflict-free
/// (shifted_windows_conflict_free).
SMEMTILE_HOST_DEVICE constexpr int shifted_window_unit(int unit, int shift, int block_units) {
  return unit < shift ? unit - shift + block_units : unit - shift;
}

/// Records of 1- or 2-byte elements a rotated unit packs (4 / elem_bytes, one word per element
/// position); 1 for 4- and 8-byte elements, whose unit is one record.
SMEMTILE_HOST_DEVICE constexpr int rotated_records_per_unit(int elem_bytes) { return elem_bytes < 4 ? 4 / elem_bytes : 1; }

/// Bytes of one element position of a rotated unit: a word for 1- to 4-byte elements, else the element.
SMEMTILE_HOST_DEVICE constexpr int rotated_unit_word_bytes(int elem_bytes) { return elem_bytes < 4 ? 4 : elem_bytes; }

/// A packed record: records 0 .. q_max - 1 of k elements one after another as they lie in global
/// memory, viewed as k words (q_max = 4 / element bytes); element c of record q is its element
/// q k + c, in word (q k + c) / q_max at position (q k + c) % q_max. A channel chunk's word m holds
/// element c of the packed record's q_max records, record q at position q.
SMEMTILE_HOST_DEVICE constexpr int packed_record_element(int q, int c, int k) { return q * k + c; }

/// Whether rotated units of k element positions of `word` bytes, moved by a uniform `shift`
/// (shifted_window_unit over `block_units` units), are conflict-free under the bank model: lane l's
/// i-th access of element position c, every i and c (warps differ by 32 x 16 k bytes, a multiple of
/// the 128 bytes of banks, so one warp stands for all but the one that wraps: warp 0).
SMEMTILE_HOST_DEVICE constexpr bool rotated_units_conflict_free(int k, int word, int shift, int block_units) {
  const int per_thread = 16 / word;
  for (int i = 0; i < per_thread; ++i)
    for (int c = 0; c < k; ++c) {
      WarpAccess access{{}, ~0u, word, AccessOp::store};  // loads (splitting) meet the same banks
      for (int lane = 0; lane < warp_lanes; ++lane) {
        const int unit = shifted_window_unit(per_thread * lane + rotated_record(i, lane, per_thread), shift, block_units);
        access.byte_address[lane] = static_cast<unsigned>((unit * k + c) * word);
      }
      if (bank_cost(access).conflicts != 0) return false;
    }
  return true;
}

/// Whether rotated_record_word's accesses are conflict-free under the bank model for records of k
/// elements of elem_bytes (1, 2, 4 or 8; 1- and 2-byte elements in packed records of k words).
SMEMTILE_HOST_DEVICE constexpr bool rotated_records_conflict_free(int k, int elem_bytes = 4) {
  const int word = rotated_unit_word_bytes(elem_bytes);
  return rotated_units_conflict_free(k, word, 0, 16 / word * warp_lanes);
}

/// Whether the shifted windows' accesses (shifted_window_unit, every shift 0 .. P - 1) are
/// conflict-free under the bank model for units of k elements of elem_bytes (4 or 8), `threads` a
/// block (the others are rotated_records_conflict_free's accesses moved by one uniform offset,
/// which keeps banks distinct; the wrap is checked in warp 0).
SMEMTILE_HOST_DEVICE constexpr bool shifted_windows_conflict_free(int k, int elem_bytes, int threads) {
  const int per_thread = 16 / elem_bytes;
  for (int shift = 0; shift < per_thread; ++shift)
    if (!rotated_units_conflict_free(k, elem_bytes, shift, per_thread * threads)) return false;
  return true;
}

/// n / d and n % d for a run-time divisor d >= 1 fixed for many dividends: q = (mulhi(n, m) + n) >> s,
/// exact for every unsigned 32-bit n (Granlund and Montgomery, 1994).
struct FastDivmod {
  unsigned divisor = 1;     ///< d
  unsigned multiplier = 1;  ///< m = floor(2^32 (2^s - d) / d) + 1
  unsigned shift = 0;       ///< s = ceil(log2 d)

  FastDivmod() = default;
  /// Prepares division by d (d >= 1).
  SMEMTILE_HOST_DEVICE constexpr explicit FastDivmod(unsigned d) : divisor(d) {
    while ((1ull << shift) < d) ++shift;
    multiplier = d == 0 ? 0u : static_cast<unsigned>(((1ull << 32) * ((1ull << shift) - d)) / d + 1);
  }
  /// The high 32 bits of n m (the one multiplication both divisions share).
  SMEMTILE_HOST_DEVICE constexpr unsigned high(unsigned n) const {
#if defined(__CUDA_ARCH__)
    return __umulhi(n, multiplier);
#else
    return static_cast<unsigned>((static_cast<unsigned long long>(n) * multiplier) >> 32);
#endif
  }
  /// n / d.
  SMEMTILE_HOST_DEVICE constexpr unsigned div(unsigned n) const {
    return static_cast<unsigned>((static_cast<unsigned long long>(high(n)) + n) >> shift);
  }
  /// n / d, with n % d in `rem`.
  SMEMTILE_HOST_DEVICE constexpr unsigned divmod(unsigned n, unsigned& rem) const {
    const unsigned q = div(n);
    rem = n - q * divisor;
    return q;
  }
  /// n / d for n < 2^31: the sum of the high product and n fits 32 bits, so no 64-bit shift.
  SMEMTILE_HOST_DEVICE constexpr unsigned div_small(unsigned n) const { return (high(n) + n) >> shift; }
  /// div_small, with n % d in `rem`.
  SMEMTILE_HOST_DEVICE constexpr unsigned divmod_small(unsigned n, unsigned& rem) const {
    const unsigned q = div_small(n);
    rem = n - q * divisor;
    return q;
  }
};

}  // namespace smemtile
