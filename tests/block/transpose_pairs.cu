// tests/block/transpose_pairs.cu: the block-level transpose of examples/transpose (the course's
// kernel: copy_global_to_tile into a TransposeTile, then copy_tile_to_global_transposed) twice, with
// smemtile (lib_*) and written by hand with a plain __shared__ array (raw_*), taking the same
// arguments. The zero-overhead test (tests/block/CMakeLists.txt) compiles this file to SASS and
// checks that each lib_* needs no more instructions than its raw_* twin, no more generic LD/ST and
// the same number of shared-memory accesses. Only compiled, never run.
//
// The twins do what the library's copies do, with the same accesses and the same edge handling
// (block/copy.cuh, block/transpose.cuh), the thread group being the whole block of any shape
// (ThreadBlock: rank (z * dim.y + y) * dim.x + x, runtime size), for every rank-2 view the library
// accepts (GlobalArray, layout_stride: any pitch, alignment, column stride; regions partly or wholly
// outside the array). (With GlobalMatrix, whose unit column stride is in its type, the twin folds
// its strided paths and is 3-6% smaller than the library's kernel: docs/guide-own-kernels.md.)
//   load   region inside the array: the widest of 16-, 8-, 4-byte units (then 2 and 1 for bytes)
//          that the column stride (it must be 1), pitch and pointer allow, consecutive threads taking
//          consecutive units of a row, 4 units unrolled per loop trip; for bytes whose rows are not
//          4-byte aligned, 4-byte words read as the two aligned words around them and shifted
//          (where both lie inside the array); a region reaching outside: element by element, 0
//          outside.
//   store  tile (r, c) -> out (origin.col + c, origin.row + r), in register blocks of block_rows x
//          block_cols elements (4 x 4 floats, 16 x 4 bytes) read from the tile by 16-byte chunks
//          (floats) or 4-byte words (bytes), transposed in registers, each block column written as
//          one 16-byte store where the region is inside and 16-byte aligned; inside but not
//          aligned: element by element (bytes: through the transposed tile, a warp writing
//          consecutive bytes of an output row); reaching outside: element by element, bounds-tested.
// The tile: element (r, c) of a TransposeLayout tile sits in 16-byte chunk slot
// (c / chunk) ^ ((r / chunk) % 8) of row r, chunk = 16 / sizeof(T) elements.
#include <smemtile/smemtile.cuh>

#include <cstdint>

// ---- smemtile: examples/transpose/course_transpose.cuh's kernel, and the same for bytes ---------

__global__ void lib_course_transpose_f32(smemtile::GlobalArray<const float, 2> in, smemtile::GlobalArray<float, 2> out) {
  __shared__ smemtile::TransposeTile<float, 32, 32> tile;
  const smemtile::Coord origin = smemtile::block_tile_origin({32, 32});
  smemtile::copy_global_to_tile(in, origin, tile);
  __syncthreads();
  smemtile::copy_tile_to_global_transposed(tile, out, origin.transposed());
}

// Bytes take the byte-permute register blocks (16 x 4 bytes) and, for output rows that are not
// 16-byte aligned, the transposed walk; loads also use 2- and 1-byte units and realigned words.
__global__ void lib_course_transpose_u8(smemtile::GlobalArray<const unsigned char, 2> in,
                                        smemtile::GlobalArray<unsigned char, 2> out) {
  __shared__ smemtile::TransposeTile<unsigned char, 128, 128> tile;
  const smemtile::Coord origin = smemtile::block_tile_origin({128, 128});
  smemtile::copy_global_to_tile(in, origin, tile);
  __syncthreads();
  smemtile::copy_tile_to_global_transposed(tile, out, origin.transposed());
}

// ---- by hand --------------------------------------------------------------------------------------

namespace raw {

// Offset of element (r, c) in a tile of Cols columns whose 16-byte chunks (2^Shift elements) are
// XOR-swizzled by (r / chunk) % 8.
template <int Cols, int Shift>
__device__ __forceinline__ int swizzled(int r, int c) {
  return r * Cols + ((((c >> Shift) ^ ((r >> Shift) & 7)) << Shift) | (c & ((1 << Shift) - 1)));
}

__device__ __forceinline__ int thread_rank() {
  return static_cast<int>((threadIdx.z * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x);
}
__device__ __forceinline__ int block_threads() { return static_cast<int>(blockDim.x * blockDim.y * blockDim.z); }

// Rows x Cols tile <- src rows r0 ..., columns c0 ... (inside the array), in units of V; `cs` is the
// column stride (1 for units wider than an element, which are only taken then: no multiply).
template <class V, int Rows, int Cols, int Shift, class T>
__device__ __forceinline__ void load_units(T* tile, const T* src, long long ld, long long cs, int r0, int c0) {
  constexpr int per_unit = sizeof(V) / sizeof(T), per_row = Cols / per_unit;
  const int threads = block_threads();
#pragma unroll 4
  for (int u = thread_rank(); u < Rows * per_row; u += threads) {
    const int r = static_cast<unsigned>(u) / per_row, c = static_cast<unsigned>(u) % per_row * per_unit;
    *reinterpret_cast<V*>(&tile[swizzled<Cols, Shift>(r, c)]) =
        *reinterpret_cast<const V*>(&src[(r0 + r) * ld + (per_unit > 1 ? c0 + c : (c0 + c) * cs)]);
  }
}

// The same region reaching outside the rows x cols array: element by element, 0 outside.
template <int Rows, int Cols, int Shift, class T>
__device__ __forceinline__ void load_checked(T* tile, const T* src, int rows, int cols, long long ld, long long cs,
                                             int r0, int c0) {
  const int threads = block_threads();
  for (int k = thread_rank(); k < Rows * Cols; k += threads) {
    const int r = static_cast<unsigned>(k) / Cols, c = static_cast<unsigned>(k) % Cols;
    const int gr = r0 + r, gc = c0 + c;
    tile[swizzled<Cols, Shift>(r, c)] = gr >= 0 && gr < rows && gc >= 0 && gc < cols ? src[gr * ld + gc * cs] : T{};
  }
}

// Whether rows of contiguous elements (cs == 1) from `first`, ld elements apart, take Bytes-wide units.
template <int Bytes, class T>
__device__ __forceinline__ bool units_fit(const T* first, long long ld, long long cs) {
  return cs == 1 && (ld * static_cast<long long>(sizeof(T))) % Bytes == 0 &&
         reinterpret_cast<std::uintptr_t>(first) % Bytes == 0;
}

}  // namespace raw

__global__ void raw_course_transpose_f32(smemtile::GlobalArray<const float, 2> in, smemtile::GlobalArray<float, 2> out) {
  constexpr int tile_dim = 32, shift = 2;  // 4 floats per 16-byte chunk
  __shared__ __align__(128) float tile[tile_dim * tile_dim];
  const int r0 = static_cast<int>(blockIdx.y) * tile_dim, c0 = static_cast<int>(blockIdx.x) * tile_dim;

  // tile (r, c) = in (r0 + r, c0 + c)
  {
    const float* src = in.data_handle();
    const int rows = in.extent(0), cols = in.extent(1);
    const long long ld = in.stride(0), cs = in.stride(1);
    if (r0 >= 0 && c0 >= 0 && r0 + tile_dim <= rows && c0 + tile_dim <= cols) {
      const float* first = src + r0 * ld + c0 * cs;
      if (raw::units_fit<16>(first, ld, cs)) raw::load_units<uint4, tile_dim, tile_dim, shift>(tile, src, ld, 1, r0, c0);
      else if (raw::units_fit<8>(first, ld, cs)) raw::load_units<uint2, tile_dim, tile_dim, shift>(tile, src, ld, 1, r0, c0);
      else raw::load_units<float, tile_dim, tile_dim, shift>(tile, src, ld, cs, r0, c0);
    } else {
      raw::load_checked<tile_dim, tile_dim, shift>(tile, src, rows, cols, ld, cs, r0, c0);
    }
  }
  __syncthreads();
  // out (c0 + c, r0 + r) = tile (r, c), by blocks of 4 x 4: block b covers tile rows 4 k ... and
  // columns 4 m ... (k = b % 8, m = b / 8), i.e. out rows c0 + 4 m ..., columns r0 + 4 k ...
  {
    float* dst = out.data_handle();
    const int rows = out.extent(0), cols = out.extent(1);
    const long long ld = out.stride(0), cs = out.stride(1);
    const bool inside = c0 >= 0 && r0 >= 0 && c0 + tile_dim <= rows && r0 + tile_dim <= cols;
    const bool whole_chunks = inside && raw::units_fit<16>(dst + c0 * ld + r0 * cs, ld, cs);
    const int threads = raw::block_threads();
    for (int b = raw::thread_rank(); b < tile_dim * tile_dim / 16; b += threads) {
      const int k = b & 7, m = b >> 3;
      float4 v[4];  // v[j]: tile row 4 k + j, chunk m (at slot m ^ k)
#pragma unroll
      for (int j = 0; j < 4; ++j) v[j] = *reinterpret_cast<const float4*>(&tile[(4 * k + j) * tile_dim + ((m ^ k) << 2)]);
      const float4 col[4] = {make_float4(v[0].x, v[1].x, v[2].x, v[3].x), make_float4(v[0].y, v[1].y, v[2].y, v[3].y),
                             make_float4(v[0].z, v[1].z, v[2].z, v[3].z), make_float4(v[0].w, v[1].w, v[2].w, v[3].w)};
      const float* values = reinterpret_cast<const float*>(col);  // values[4 i + j]: out (gr + i, gc + j)
      const int gr = c0 + 4 * m, gc = r0 + 4 * k;
      if (whole_chunks) {
#pragma unroll
        for (int i = 0; i < 4; ++i) *reinterpret_cast<float4*>(&dst[(gr + i) * ld + gc]) = col[i];
      } else if (inside) {  // every column stride (the library's row[j] assumes stride(1) == 1 here)
#pragma unroll
        for (int i = 0; i < 4; ++i)
#pragma unroll
          for (int j = 0; j < 4; ++j) dst[(gr + i) * ld + (gc + j) * cs] = values[4 * i + j];
      } else {
#pragma unroll
        for (int i = 0; i < 4; ++i)
#pragma unroll
          for (int j = 0; j < 4; ++j)
            if (gr + i >= 0 && gr + i < rows && gc + j >= 0 && gc + j < cols)
              dst[(gr + i) * ld + (gc + j) * cs] = values[4 * i + j];
      }
    }
  }
}

__global__ void raw_course_transpose_u8(smemtile::GlobalArray<const unsigned char, 2> in,
                                        smemtile::GlobalArray<unsigned char, 2> out) {
  constexpr int tile_dim = 128, shift = 4;  // 16 bytes per chunk
  __shared__ __align__(128) unsigned char tile[tile_dim * tile_dim];
  const int r0 = static_cast<int>(blockIdx.y) * tile_dim, c0 = static_cast<int>(blockIdx.x) * tile_dim;

  // tile (r, c) = in (r0 + r, c0 + c)
  {
    const unsigned char* src = in.data_handle();
    const int rows = in.extent(0), cols = in.extent(1);
    const long long ld = in.stride(0), cs = in.stride(1);
    if (r0 >= 0 && c0 >= 0 && r0 + tile_dim <= rows && c0 + tile_dim <= cols) {
      const unsigned char* first = src + r0 * ld + c0 * cs;
      // The last unit's aligned word and the next one must lie inside the array for realigned words.
      const auto address = [](const unsigned char* p) { return reinterpret_cast<std::uintptr_t>(p); };
      const unsigned char* last_word = src + (r0 + tile_dim - 1) * ld + (c0 + tile_dim - 4);
      const std::uintptr_t end = address(src + (rows - 1) * ld) + static_cast<std::uintptr_t>(cols);
      if (raw::units_fit<16>(first, ld, cs)) {
        raw::load_units<uint4, tile_dim, tile_dim, shift>(tile, src, ld, 1, r0, c0);
      } else if (raw::units_fit<8>(first, ld, cs)) {
        raw::load_units<uint2, tile_dim, tile_dim, shift>(tile, src, ld, 1, r0, c0);
      } else if (raw::units_fit<4>(first, ld, cs)) {
        raw::load_units<unsigned, tile_dim, tile_dim, shift>(tile, src, ld, 1, r0, c0);
      } else if (cs == 1 && (address(first) & ~std::uintptr_t{3}) >= address(src) &&
                 (address(last_word) & ~std::uintptr_t{3}) + 8 <= end) {
        const int threads = raw::block_threads();
#pragma unroll 4
        for (int u = raw::thread_rank(); u < tile_dim * tile_dim / 4; u += threads) {
          const int r = static_cast<unsigned>(u) / 32u, c = static_cast<unsigned>(u) % 32u * 4;
          const unsigned char* p = src + (r0 + r) * ld + (c0 + c);
          const unsigned shift_bytes = static_cast<unsigned>(address(p) & 3u);
          const unsigned* word = reinterpret_cast<const unsigned*>(p - shift_bytes);
          *reinterpret_cast<unsigned*>(&tile[raw::swizzled<tile_dim, shift>(r, c)]) =
              __funnelshift_r(word[0], word[1], 8 * shift_bytes);
        }
      } else if (raw::units_fit<2>(first, ld, cs)) {
        raw::load_units<unsigned short, tile_dim, tile_dim, shift>(tile, src, ld, 1, r0, c0);
      } else {
        raw::load_units<unsigned char, tile_dim, tile_dim, shift>(tile, src, ld, cs, r0, c0);
      }
    } else {
      raw::load_checked<tile_dim, tile_dim, shift>(tile, src, rows, cols, ld, cs, r0, c0);
    }
  }
  __syncthreads();
  // out (c0 + c, r0 + r) = tile (r, c)
  {
    unsigned char* dst = out.data_handle();
    const int rows = out.extent(0), cols = out.extent(1);
    const long long ld = out.stride(0), cs = out.stride(1);
    const int threads = raw::block_threads();
    const bool inside = c0 >= 0 && r0 >= 0 && c0 + tile_dim <= rows && r0 + tile_dim <= cols;
    if (inside && !raw::units_fit<16>(dst + c0 * ld + r0 * cs, ld, cs)) {
      // Output rows not 16-byte aligned: down the tile's columns, consecutive threads writing
      // consecutive bytes of an output row.
#pragma unroll 4
      for (int u = raw::thread_rank(); u < tile_dim * tile_dim; u += threads) {
        const int i = static_cast<unsigned>(u) / tile_dim, j = static_cast<unsigned>(u) % tile_dim;  // out (c0 + i, r0 + j)
        dst[(c0 + i) * ld + (r0 + j) * cs] = tile[raw::swizzled<tile_dim, shift>(j, i)];
      }
      return;
    }
    // By blocks of 16 x 4 bytes: block b covers tile rows 16 k ... and columns 4 m ... (k = b % 8,
    // m = b / 8), i.e. out rows c0 + 4 m ..., columns r0 + 16 k ...; each thread reads the block's
    // 16 words, transposes it as four 4 x 4 squares of bytes and writes 4 x 16 bytes.
    for (int b = raw::thread_rank(); b < tile_dim * tile_dim / 64; b += threads) {
      const int k = b & 7, m = b >> 3;
      unsigned w[16];  // w[j]: tile row 16 k + j, bytes 4 m ... (chunk m / 4 at slot (m / 4) ^ k, word m % 4)
#pragma unroll
      for (int j = 0; j < 16; ++j)
        w[j] = *reinterpret_cast<const unsigned*>(&tile[(16 * k + j) * tile_dim + ((((m >> 2) ^ k) << 4) | ((m & 3) << 2))]);
      unsigned col[4][4];  // col[i][g]: bytes 4 g ... 4 g + 3 of block column i (tile rows 16 k + 4 g ...)
#pragma unroll
      for (int g = 0; g < 4; ++g) {
        const unsigned t0 = __byte_perm(w[4 * g], w[4 * g + 1], 0x5140), t1 = __byte_perm(w[4 * g], w[4 * g + 1], 0x7362);
        const unsigned t2 = __byte_perm(w[4 * g + 2], w[4 * g + 3], 0x5140), t3 = __byte_perm(w[4 * g + 2], w[4 * g + 3], 0x7362);
        col[0][g] = __byte_perm(t0, t2, 0x5410);
        col[1][g] = __byte_perm(t0, t2, 0x7632);
        col[2][g] = __byte_perm(t1, t3, 0x5410);
        col[3][g] = __byte_perm(t1, t3, 0x7632);
      }
      const int gr = c0 + 4 * m, gc = r0 + 16 * k;
      if (inside) {  // and 16-byte aligned
#pragma unroll
        for (int i = 0; i < 4; ++i)
          *reinterpret_cast<uint4*>(&dst[(gr + i) * ld + gc]) = make_uint4(col[i][0], col[i][1], col[i][2], col[i][3]);
      } else {
#pragma unroll
        for (int i = 0; i < 4; ++i)
#pragma unroll
          for (int j = 0; j < 16; ++j)
            if (gr + i >= 0 && gr + i < rows && gc + j >= 0 && gc + j < cols)
              dst[(gr + i) * ld + (gc + j) * cs] = static_cast<unsigned char>(col[i][j / 4] >> (8 * (j % 4)));
      }
    }
  }
}
