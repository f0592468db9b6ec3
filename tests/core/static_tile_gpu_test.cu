// GPU tests of StaticTile: random data through tiles of 1-, 2-, 4-, 8- and 16-byte elements, of
// square, rectangular and non-power-of-two shapes, with 0 to 3 elements of padding per row. Every
// accessor path is compared, element by element and bitwise, with a host reference.
#include <smemtile/smemtile.cuh>

#include <cstdint>
#include <vector>

#include "gpu_test.cuh"

namespace {

using namespace smemtile_test;

struct alignas(16) V16 {  // a 16-byte element like int4
  unsigned x, y, z, w;
};

// What the kernel writes out; each array has Rows * Cols elements except storage.
template <class T>
struct Outputs {
  T* transposed;   // tile.transposed()(thread_coord_in_swapped_block()) after a row-major write
  T* row_major;    // tile.row_major(rank)
  T* col_major;    // tile.col_major(rank)
  T* col_written;  // tile(thread_coord()) after writing tile.col_major(rank) = in[rank]
  T* storage;      // the whole storage (Rows * (Cols + Pad)) after the row-major write
};

// One block of dim3(Cols, Rows) threads: thread (tx, ty) owns element (ty, tx) of `in`, which is a
// Rows x Cols matrix stored row-major.
template <class T, int Rows, int Cols, int Pad>
__global__ void through_tile(const T* in, T padding_marker, Outputs<T> out) {
  __shared__ smemtile::StaticTile<T, Rows, Cols, Pad> tile;
  const unsigned rank = smemtile::thread_rank();
  const unsigned threads = blockDim.x * blockDim.y;
  constexpr unsigned storage = smemtile::PaddedLayout<Rows, Cols, Pad>::storage_size();

  // Mark every storage element, so that padding the accessors must not touch stays recognisable.
  for (unsigned i = rank; i < storage; i += threads) tile.data()[i] = padding_marker;
  __syncthreads();
  tile(smemtile::thread_coord()) = in[rank];
  __syncthreads();
  out.transposed[rank] = tile.transposed()(smemtile::thread_coord_in_swapped_block());
  out.row_major[rank] = tile.row_major(rank);
  out.col_major[rank] = tile.col_major(rank);
  for (unsigned i = rank; i < storage; i += threads) out.storage[i] = tile.data()[i];
  __syncthreads();
  tile.col_major(rank) = in[rank];
  __syncthreads();
  out.col_written[rank] = tile(smemtile::thread_coord());
}

// Index of the first element that differs bitwise, or -1.
template <class T>
long first_mismatch(const std::vector<T>& result, const std::vector<T>& expected) {
  if (result.size() != expected.size()) return 0;
  for (std::size_t i = 0; i < result.size(); ++i)
    if (!same_bytes(result[i], expected[i])) return static_cast<long>(i);
  return -1;
}

template <class T, int Rows, int Cols, int Pad>
void require_data_through_tile(unsigned seed) {
  INFO("element of " << sizeof(T) << " bytes, tile " << Rows << "x" << Cols << " pad " << Pad << ", seed " << seed);
  constexpr int n = Rows * Cols;
  constexpr int stride = Cols + Pad;
  const std::vector<T> input = random_values<T>(n, seed);
  const T marker = random_values<T>(1, seed + 1)[0];

  // Host reference: in is Rows x Cols row-major, in(r, c) = input[r * Cols + c].
  std::vector<T> transposed(n), row_major(n), col_major(n), col_written(n), storage(Rows * stride, marker);
  for (int r = 0; r < Rows; ++r)
    for (int c = 0; c < Cols; ++c) {
      transposed[c * Rows + r] = input[r * Cols + c];  // Cols x Rows, row-major
      storage[r * stride + c] = input[r * Cols + c];
    }
  for (int k = 0; k < n; ++k) {
    row_major[k] = input[k];
    col_major[k] = input[(k % Rows) * Cols + k / Rows];  // k-th element walking down columns
    col_written[(k % Rows) * Cols + k / Rows] = input[k];
  }

  DeviceBuffer<T> in(n), d_transposed(n), d_row_major(n), d_col_major(n), d_col_written(n), d_storage(Rows * stride);
  in.upload(input);
  d_transposed.poison();
  d_row_major.poison();
  d_col_major.poison();
  d_col_written.poison();
  d_storage.poison();
  const Outputs<T> out{d_transposed.get(), d_row_major.get(), d_col_major.get(), d_col_written.get(), d_storage.get()};
  through_tile<T, Rows, Cols, Pad><<<1, dim3(Cols, Rows)>>>(in.get(), marker, out);
  REQUIRE_LAUNCH_OK();

  CHECK(first_mismatch(d_transposed.download(), transposed) == -1);
  CHECK(first_mismatch(d_row_major.download(), row_major) == -1);
  CHECK(first_mismatch(d_col_major.download(), col_major) == -1);
  CHECK(first_mismatch(d_col_written.download(), col_written) == -1);
  CHECK(first_mismatch(d_storage.download(), storage) == -1);  // padding untouched, rows in place
}

// Square, the seeds' rectangle, and two non-powers of two (one wider than a warp), each with
// padding 0 to 3.
template <class T, int Pad>
void require_shapes_with_pad(unsigned seed) {
  require_data_through_tile<T, 32, 32, Pad>(seed);
  require_data_through_tile<T, 16, 32, Pad>(seed + 2);
  require_data_through_tile<T, 7, 13, Pad>(seed + 4);
  require_data_through_tile<T, 33, 5, Pad>(seed + 6);
}

}  // namespace

// One test case per element size. (Not TEMPLATE_TEST_CASE: nvcc's front end rejects Catch2 2.x's
// variadic template-test macros with some host compilers, e.g. GCC 13.)
template <class T>
void require_all_pads(const char* type_name) {
  const unsigned seed = fresh_seed();
  INFO(type_name << ", seed " << seed);
  require_shapes_with_pad<T, 0>(seed);
  require_shapes_with_pad<T, 1>(seed);
  require_shapes_with_pad<T, 2>(seed);
  require_shapes_with_pad<T, 3>(seed);
}

TEST_CASE("1-byte data goes through a StaticTile unchanged along every accessor") {
  require_all_pads<std::uint8_t>("uint8_t");
}
TEST_CASE("2-byte data goes through a StaticTile unchanged along every accessor") {
  require_all_pads<std::uint16_t>("uint16_t");
}
TEST_CASE("4-byte data goes through a StaticTile unchanged along every accessor") {
  require_all_pads<std::uint32_t>("uint32_t");
}
TEST_CASE("8-byte data goes through a StaticTile unchanged along every accessor") {
  require_all_pads<double>("double");
}
TEST_CASE("16-byte data goes through a StaticTile unchanged along every accessor") {
  require_all_pads<V16>("V16");
}
