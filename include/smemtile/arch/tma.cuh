// smemtile/arch/tma.cuh: the Tensor Memory Accelerator's 2D and 3D tiled loads (sm_90 and later),
// and the host-side tensor maps they need.
//
// A TMA load copies a box of box_rows x box_cols elements of a 2D array in global memory into
// dense, row-major shared memory, as one instruction issued by one thread; elements of the box
// outside the array arrive as zeros. The copy signals an mbarrier (arch/mbarrier.cuh) with the
// bytes it delivered. The array and the box are described by a tensor map (CUtensorMap, 128 bytes)
// made on the host with the driver's cuTensorMapEncodeTiled and passed to the kernel as a
// `const __grid_constant__ CUtensorMap` parameter.
//
// TMA's rules for such a map (checked by tma_map_error, which is constexpr and host-testable, so
// that an unsuitable array gets a message instead of a driver error code):
//   - the array's address is 16-byte aligned, and its pitch (rows' distance) is a multiple of 16
//     bytes, below 2^40 bytes; its column stride is 1 (rows contiguous);
//   - the box is 1..256 elements in each dimension, and a box row is a multiple of 16 bytes;
//   - the array has 1..2^32 elements in each dimension.
// Elements of 16 bytes are described as pairs of 8-byte elements (the widest TMA type). Narrower
// elements may be described in wider units too (unit_bytes, up to 8), so that a box row of 256 TMA
// elements holds up to 2 KB: the array's rows must then be whole units.
// A 3D map (make_tma_map_3d: planes of rows, boxes of one plane) adds: the plane pitch is a multiple
// of 16 bytes below 2^40, and 1..2^32 planes.
//
// make_tma_map_2d() finds cuTensorMapEncodeTiled through the runtime
// (cudaGetDriverEntryPointByVersion), so programs need no -lcuda.
#pragma once

#include "../config.cuh"  // SMEMTILE_HOST_DEVICE, SMEMTILE_DEVICE
#include "mbarrier.cuh"   // SMEMTILE_HAS_TMA, SMEMTILE_DETAIL_REQUIRE_SM90, shared_window_address

#if defined(__CUDACC__)
#include <cuda.h>              // CUtensorMap, cuTensorMapEncodeTiled's enums
#include <cudaTypedefs.h>      // PFN_cuTensorMapEncodeTiled_v12000
#include <cuda_runtime_api.h>  // cudaGetDriverEntryPointByVersion
#endif

namespace smemtile {
namespace arch {

/// The largest number of elements a TMA box may have in one dimension.
inline constexpr int tma_max_box_elements = 256;

/// How many TMA elements one element of `elem_bytes` bytes is described as: 2 for 16-byte
/// elements (two 8-byte ones), else 1.
SMEMTILE_HOST_DEVICE constexpr int tma_elements_per_element(int elem_bytes) { return elem_bytes == 16 ? 2 : 1; }
/// The bytes of one TMA element describing elements of `elem_bytes` bytes: `unit_bytes` when given
/// (non-zero), else the element's own size (8 for 16-byte elements).
SMEMTILE_HOST_DEVICE constexpr int tma_unit_bytes(int elem_bytes, int unit_bytes = 0) {
  return unit_bytes != 0 ? unit_bytes : elem_bytes == 16 ? 8 : elem_bytes;
}

/// Why a 2D TMA load of boxes of box_rows x box_cols elements (of `elem_bytes` bytes) cannot read
/// the array at byte address `address` with `rows` x `cols` elements, rows `pitch` elements apart and
/// columns `col_stride` elements apart, described in TMA elements of `unit_bytes` (tma_unit_bytes);
/// nullptr when it can. Host-testable (constexpr).
SMEMTILE_HOST_DEVICE constexpr const char* tma_map_error(unsigned long long address, long long rows, long long cols,
                                                         long long pitch, long long col_stride, int elem_bytes,
                                                         int box_rows, int box_cols, int unit_bytes = 0) {
  if (elem_bytes != 1 && elem_bytes != 2 && elem_bytes != 4 && elem_bytes != 8 && elem_bytes != 16)
    return "TMA copies elements of 1, 2, 4, 8 or 16 bytes";
  const int unit = tma_unit_bytes(elem_bytes, unit_bytes);
  if ((unit != 1 && unit != 2 && unit != 4 && unit != 8) || (unit < elem_bytes && elem_bytes != 16))
    return "a TMA element is 1, 2, 4 or 8 bytes and no narrower than the array's elements";
  if (box_rows < 1 || box_cols < 1) return "the TMA box (the tile) needs at least one row and one column";
  if (box_rows > tma_max_box_elements) return "a TMA box has at most 256 rows (the tile has more)";
  if (static_cast<long long>(box_cols) * elem_bytes > static_cast<long long>(tma_max_box_elements) * unit)
    return "a TMA box row has at most 256 elements of the map (unit_bytes each; 128 of 16 bytes); the tile's rows are longer";
  if ((static_cast<long long>(box_cols) * elem_bytes) % 16 != 0)
    return "a TMA box row must be a multiple of 16 bytes (tile columns * sizeof(T) % 16 == 0)";
  if (address == 0) return "the global array's pointer is null";
  if (address % 16 != 0) return "the global array's address must be 16-byte aligned for TMA";
  if (rows < 1 || cols < 1) return "the global array must have at least one row and one column for TMA";
  if ((cols * elem_bytes) % unit != 0) return "the array's rows must be whole TMA elements (unit_bytes)";
  if (rows > (1LL << 32) || cols * elem_bytes / unit > (1LL << 32))
    return "a TMA array has at most 2^32 elements per dimension";
  if (col_stride != 1) return "TMA needs the array's columns to be contiguous (stride(1) == 1)";
  if (pitch < cols) return "the array's pitch (stride(0)) is smaller than its number of columns";
  if ((pitch * elem_bytes) % 16 != 0)
    return "the array's pitch in bytes (stride(0) * sizeof(T)) must be a multiple of 16 for TMA";
  if (pitch * elem_bytes >= (1LL << 40)) return "the array's pitch in bytes must be below 2^40 for TMA";
  return nullptr;
}

/// Why a 3D TMA load of boxes of one plane, box_rows x box_cols elements, cannot read the volume at
/// `address` (depth planes of rows x cols, planes `plane_pitch` elements apart, rows `pitch` apart,
/// columns contiguous); nullptr when it can. Host-testable (constexpr).
SMEMTILE_HOST_DEVICE constexpr const char* tma_map_error_3d(unsigned long long address, long long depth, long long rows,
                                                            long long cols, long long plane_pitch, long long pitch,
                                                            long long col_stride, int elem_bytes, int box_rows,
                                                            int box_cols, int unit_bytes = 0) {
  if (const char* why = tma_map_error(address, rows, cols, pitch, col_stride, elem_bytes, box_rows, box_cols, unit_bytes))
    return why;
  if (depth < 1 || depth > (1LL << 32)) return "a TMA volume has 1 to 2^32 planes";
  if (plane_pitch < pitch * (rows - 1) + cols) return "the volume's planes overlap (plane pitch too small)";
  if ((plane_pitch * elem_bytes) % 16 != 0)
    return "the volume's plane pitch in bytes (stride(0) * sizeof(T)) must be a multiple of 16 for TMA";
  if (plane_pitch * elem_bytes >= (1LL << 40)) return "the volume's plane pitch in bytes must be below 2^40 for TMA";
  return nullptr;
}

#if defined(__CUDACC__)

/// A tensor map for TMA loads, or why there is none: `error` is nullptr on success.
struct TmaMapResult {
  CUtensorMap map;              ///< the tensor map (pass it as a __grid_constant__ kernel parameter)
  const char* error;            ///< nullptr on success, else what went wrong
  int driver_status;            ///< cuTensorMapEncodeTiled's CUresult (0 unless the driver refused)
  /// Whether the map was made.
  explicit operator bool() const { return error == nullptr; }
};

namespace detail {
// cuTensorMapEncodeTiled from the driver, looked up once through the runtime; nullptr if absent.
inline PFN_cuTensorMapEncodeTiled_v12000 encode_tiled_entry_point() {
  static const PFN_cuTensorMapEncodeTiled_v12000 entry = [] {
    void* function = nullptr;
    cudaDriverEntryPointQueryResult found = cudaDriverEntryPointSymbolNotFound;
    const cudaError_t status =
        cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &function, 12000, cudaEnableDefault, &found);
    if (status != cudaSuccess || found != cudaDriverEntryPointSuccess) {
      (void)cudaGetLastError();  // leave no sticky runtime error behind
      return static_cast<PFN_cuTensorMapEncodeTiled_v12000>(nullptr);
    }
    return reinterpret_cast<PFN_cuTensorMapEncodeTiled_v12000>(function);
  }();
  return entry;
}

inline CUtensorMapDataType tma_data_type(int unit_bytes) {
  switch (unit_bytes) {
    case 1: return CU_TENSOR_MAP_DATA_TYPE_UINT8;
    case 2: return CU_TENSOR_MAP_DATA_TYPE_UINT16;
    case 4: return CU_TENSOR_MAP_DATA_TYPE_UINT32;
    default: return CU_TENSOR_MAP_DATA_TYPE_UINT64;
  }
}

// cuTensorMapEncodeTiled into result.map for `rank` dimensions (x first, in TMA elements of
// unit_bytes): element strides of 1, no swizzle, zeros outside the array. Sets result.error when the
// driver is missing or refuses.
inline void encode_tiled(TmaMapResult& result, const void* data, int unit_bytes, cuuint32_t rank,
                         const cuuint64_t* global_dim, const cuuint64_t* global_strides, const cuuint32_t* box_dim) {
  const PFN_cuTensorMapEncodeTiled_v12000 encode = encode_tiled_entry_point();
  if (encode == nullptr) {
    result.error = "cuTensorMapEncodeTiled is not available (no CUDA driver, or one older than 12.0)";
    return;
  }
  const cuuint32_t element_strides[3] = {1, 1, 1};
  const CUresult status =
      encode(&result.map, tma_data_type(unit_bytes), rank, const_cast<void*>(data), global_dim, global_strides,
             box_dim, element_strides, CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_NONE,
             CU_TENSOR_MAP_L2_PROMOTION_L2_128B, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  if (status != CUDA_SUCCESS) {
    result.error = "cuTensorMapEncodeTiled refused the arguments (see driver_status)";
    result.driver_status = static_cast<int>(status);
  }
}
}  // namespace detail

/// Makes (on the host) a tensor map for 2D TMA loads of box_rows x box_cols boxes from the array at
/// `data` (rows x cols elements of `elem_bytes` bytes, rows `pitch` elements apart, columns
/// `col_stride` apart), described in TMA elements of unit_bytes (tma_unit_bytes: columns are then
/// counted in those units by tma_load_2d). Elements outside the array load as zeros. The rules are
/// checked first (tma_map_error); then the driver's cuTensorMapEncodeTiled is called. Needs a CUDA
/// driver, not a GPU of any particular kind; the map is used by sm_90 and later.
inline TmaMapResult make_tma_map_2d(const void* data, long long rows, long long cols, long long pitch,
                                    long long col_stride, int elem_bytes, int box_rows, int box_cols,
                                    int unit_bytes = 0) {
  TmaMapResult result{};
  result.error = tma_map_error(reinterpret_cast<unsigned long long>(data), rows, cols, pitch, col_stride, elem_bytes,
                               box_rows, box_cols, unit_bytes);
  if (result.error != nullptr) return result;
  const int unit = tma_unit_bytes(elem_bytes, unit_bytes);
  const cuuint64_t global_dim[2] = {static_cast<cuuint64_t>(cols * elem_bytes / unit), static_cast<cuuint64_t>(rows)};
  const cuuint64_t global_strides[1] = {static_cast<cuuint64_t>(pitch * elem_bytes)};
  const cuuint32_t box_dim[2] = {static_cast<cuuint32_t>(box_cols * elem_bytes / unit), static_cast<cuuint32_t>(box_rows)};
  detail::encode_tiled(result, data, unit, 2, global_dim, global_strides, box_dim);
  return result;
}

/// Makes (on the host) a tensor map for 3D TMA loads of boxes of one plane, box_rows x box_cols
/// elements, from the volume at `data` (depth x rows x cols, strides in elements). As
/// make_tma_map_2d otherwise; the rules are tma_map_error_3d's.
inline TmaMapResult make_tma_map_3d(const void* data, long long depth, long long rows, long long cols,
                                    long long plane_pitch, long long pitch, long long col_stride, int elem_bytes,
                                    int box_rows, int box_cols, int unit_bytes = 0) {
  TmaMapResult result{};
  result.error = tma_map_error_3d(reinterpret_cast<unsigned long long>(data), depth, rows, cols, plane_pitch, pitch,
                                  col_stride, elem_bytes, box_rows, box_cols, unit_bytes);
  if (result.error != nullptr) return result;
  const int unit = tma_unit_bytes(elem_bytes, unit_bytes);
  const cuuint64_t global_dim[3] = {static_cast<cuuint64_t>(cols * elem_bytes / unit), static_cast<cuuint64_t>(rows),
                                    static_cast<cuuint64_t>(depth)};
  const cuuint64_t global_strides[2] = {static_cast<cuuint64_t>(pitch * elem_bytes),
                                        static_cast<cuuint64_t>(plane_pitch * elem_bytes)};
  const cuuint32_t box_dim[3] = {static_cast<cuuint32_t>(box_cols * elem_bytes / unit), static_cast<cuuint32_t>(box_rows),
                                 1};
  detail::encode_tiled(result, data, unit, 3, global_dim, global_strides, box_dim);
  return result;
}

/// Starts a 2D TMA load of the box whose first element is (row, col) of the map's array (in the
/// map's elements: a 16-byte element's col counts twice) into shared memory at `dst` (128-byte
/// aligned, box bytes long); elements outside the array arrive as zeros. When the bytes have landed
/// the copy completes them on the mbarrier `bar` (PTX cp.async.bulk.tensor.2d with
/// .mbarrier::complete_tx::bytes, into shared memory). `map` must live in kernel-parameter,
/// constant or global memory (a `const __grid_constant__ CUtensorMap` parameter). One thread
/// issues it.
template <class Dummy = void>
SMEMTILE_DEVICE void tma_load_2d(void* dst, const CUtensorMap* map, unsigned long long* bar, int row, int col) {
  SMEMTILE_DETAIL_REQUIRE_SM90(Dummy);
#if SMEMTILE_HAS_TMA
  asm volatile(
      "cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1, {%3, %4}], [%2];\n" ::"r"(
          shared_window_address(dst)),
      "l"(reinterpret_cast<unsigned long long>(map)), "r"(shared_window_address(bar)), "r"(col), "r"(row)
      : "memory");
#endif
}

/// Starts a 3D TMA load of the one-plane box whose first element is (plane, row, col) of a
/// make_tma_map_3d map (col in the map's elements, as for tma_load_2d); otherwise as tma_load_2d.
template <class Dummy = void>
SMEMTILE_DEVICE void tma_load_3d(void* dst, const CUtensorMap* map, unsigned long long* bar, int plane, int row,
                                 int col) {
  SMEMTILE_DETAIL_REQUIRE_SM90(Dummy);
#if SMEMTILE_HAS_TMA
  asm volatile(
      "cp.async.bulk.tensor.3d.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1, {%3, %4, %5}], [%2];\n" ::"r"(
          shared_window_address(dst)),
      "l"(reinterpret_cast<unsigned long long>(map)), "r"(shared_window_address(bar)), "r"(col), "r"(row), "r"(plane)
      : "memory");
#endif
}

#endif  // __CUDACC__

}  // namespace arch
}  // namespace smemtile
