/// \file
/// The shared-memory layout of a run of short records (k elements each, k = 1..32 or so): record r,
/// element c at r * record_pitch(k, E) + c. The pitch is the smallest P >= k for which a warp reading
/// element c of 32 consecutive records (the de-interleave's strided side) touches 32 distinct banks:
/// P odd for elements of 4 bytes or more, P bytes = 4 x odd for 1- and 2-byte elements (each lane in
/// its own word). record_layout_conflict_free() proves it with the bank model (banks.cuh) for every k
/// and element size; the static_assert below runs it at compile time.
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

/// Records of k elements that a shared buffer of `capacity` elements holds, rounded down to a
/// multiple of 16 (so that runs of them start on 16-byte boundaries of a 16-byte aligned array)
/// where there are at least 16.
SMEMTILE_HOST_DEVICE constexpr int record_capacity(int capacity, int k, int elem_bytes) {
  const int records = capacity / record_pitch(k, elem_bytes);
  return records >= 16 ? records / 16 * 16 : records;
}

/// One warp reading element `c` of records first..first+31 of a record layout (k, elem_bytes).
SMEMTILE_HOST_DEVICE constexpr WarpAccess record_column_access(int k, int elem_bytes, int c, int first = 0,
                                                              AccessOp op = AccessOp::load) {
  WarpAccess access{{}, 0u, elem_bytes, op};
  const int pitch = record_pitch(k, elem_bytes);
  for (int lane = 0; lane < warp_lanes; ++lane) {
    access.byte_address[lane] = static_cast<unsigned>(((first + lane) * pitch + c) * elem_bytes);
    access.active_mask |= 1u << lane;
  }
  return access;
}

/// Whether the column accesses (element 0 and element k - 1 of 32 consecutive records) of record
/// layouts of k = 1..max_k elements of elem_bytes are conflict-free under the bank model. (Any other
/// element and any other first record moves every lane's address by the same amount: for 4- to
/// 16-byte elements the same banks rotated; for 1- and 2-byte ones each lane stays in its own word,
/// since the pitch is a whole odd number of words.)
SMEMTILE_HOST_DEVICE constexpr bool record_layout_conflict_free(int elem_bytes, int max_k = 32) {
  for (int k = 1; k <= max_k; ++k) {
    if (bank_cost(record_column_access(k, elem_bytes, 0)).conflicts != 0) return false;
    if (k > 1 && bank_cost(record_column_access(k, elem_bytes, k - 1)).conflicts != 0) return false;
  }
  return true;
}

static_assert(record_layout_conflict_free(1) && record_layout_conflict_free(2) && record_layout_conflict_free(4) &&
                  record_layout_conflict_free(8) && record_layout_conflict_free(16),
              "record_pitch: a warp reading one element of 32 consecutive records must touch 32 distinct banks "
              "for every k in 1..32 and element size; change record_pitch");

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
  /// n / d.
  SMEMTILE_HOST_DEVICE constexpr unsigned div(unsigned n) const {
#if defined(__CUDA_ARCH__)
    const unsigned long long hi = __umulhi(n, multiplier);
#else
    const unsigned long long hi = (static_cast<unsigned long long>(n) * multiplier) >> 32;
#endif
    return static_cast<unsigned>((hi + n) >> shift);
  }
  /// n / d, with n % d in `rem`.
  SMEMTILE_HOST_DEVICE constexpr unsigned divmod(unsigned n, unsigned& rem) const {
    const unsigned q = div(n);
    rem = n - q * divisor;
    return q;
  }
};

}  // namespace smemtile
