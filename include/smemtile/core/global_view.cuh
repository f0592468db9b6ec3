// smemtile/core/global_view.cuh: arrays in global memory, described with cuda::std::mdspan.
//
//   auto in  = smemtile::make_global_matrix(d_in, rows, cols);          // pitch = cols
//   auto out = smemtile::make_global_matrix(d_out, rows, cols, pitch);  // rows of `pitch` elements
//   in(r, c) == d_in[r * cols + c]
//   auto a = smemtile::make_aligned_matrix<16>(d_a, rows, cols);        // rows start on 16 bytes
//
// smemtile does not invent a view type for global memory: copies, transposes and stencils take any
// cuda::std::mdspan of rank 1, 2 or 3, whose last index is normally the fastest. The block-level
// copies and transposes accept any strides, and use vector accesses only where the last stride is 1;
// device_stencil requires it (and says so). The aliases below are row-major with a pitch: their
// layout, layout_pitched, has a last stride of 1 known at compile time (an element access costs
// what a raw pointer's does), and AlignedMatrix also states in its type that every row starts on
// an N-byte boundary, so that copies use N-byte vectors with no run-time alignment test. General
// strides: GlobalArray (layout_stride); use your own mdspans freely. The library's own conversions
// (any mdspan to a GlobalArray, a vector to a one-row matrix, a volume's plane) live here too.
#pragma once

#include <cstddef>          // std::size_t
#include <type_traits>      // std::enable_if_t, std::is_same
#include <cuda/std/array>   // cuda::std::array
#include <cuda/std/mdspan>  // cuda::std::mdspan, dextents, layout_stride, aligned_accessor

#include "../config.cuh"  // SMEMTILE_HOST_DEVICE, SMEMTILE_CHECK

namespace smemtile {

/// Row-major with pitches, the last stride 1 at compile time: an mdspan layout policy. Rank 1 is
/// a contiguous vector; rank 2 has rows stride(0) elements apart; rank 3 planes stride(0) and rows
/// stride(1) apart. PitchMultiple: every pitch is a multiple of this many elements (what
/// AlignedMatrix promises; checked in debug builds where a mapping is made).
template <int PitchMultiple = 1>
struct layout_pitched {
  static_assert(PitchMultiple > 0, "smemtile::layout_pitched: the pitch multiple must be positive");
  /// The mapping of an extents type (any rank >= 1).
  template <class Extents>
  class mapping {
   public:
    using extents_type = Extents;                         ///< the shape
    using index_type = typename Extents::index_type;      ///< the index type
    using size_type = typename Extents::size_type;        ///< the size type
    using rank_type = typename Extents::rank_type;        ///< the rank type
    using layout_type = layout_pitched;                   ///< this policy
    static constexpr std::size_t rank_ = Extents::rank();  ///< the rank
    static_assert(rank_ >= 1, "smemtile::layout_pitched: rank 1 or more");
    static constexpr int pitch_multiple = PitchMultiple;  ///< every pitch is a multiple of this

    mapping() = default;
    /// A contiguous mapping (pitches from the extents; only for PitchMultiple 1 or extents that fit).
    SMEMTILE_HOST_DEVICE constexpr explicit mapping(const Extents& e) : extents_(e), pitches_{} {
      index_type p = 1;
      for (std::size_t r = rank_ - 1; r > 0; --r) {
        p *= e.extent(r);
        pitches_[r - 1] = p;
        // AlignedMatrix<float, 16>(ptr, rows, 6) promised 16-byte rows of 24 bytes unchecked.
        SMEMTILE_CHECK(p % PitchMultiple == 0,
                       "layout_pitched: a dense pitch is not a multiple of the layout's pitch multiple (values: "
                       "pitch, multiple)", p, PitchMultiple, 0, 0);
      }
    }
    /// Outer strides given (`pitches[r]` is stride(r), r < rank - 1).
    SMEMTILE_HOST_DEVICE constexpr mapping(const Extents& e, const cuda::std::array<index_type, (rank_ > 1 ? rank_ - 1 : 1)>& pitches)
        : extents_(e), pitches_(pitches) {
      for (std::size_t r = 0; r + 1 < rank_; ++r)
        SMEMTILE_CHECK(pitches_[r] % PitchMultiple == 0,
                       "layout_pitched: a pitch is not a multiple of the layout's pitch multiple (values: pitch, multiple)",
                       pitches_[r], PitchMultiple, 0, 0);
    }
    /// From a mapping whose pitches are multiples of a multiple of this one's (AlignedMatrix to
    /// GlobalMatrix).
    template <class Other, class = std::enable_if_t<std::is_same<typename Other::layout_type,
                                                                 layout_pitched<Other::pitch_multiple>>::value &&
                                                    Other::pitch_multiple % PitchMultiple == 0 &&
                                                    Other::extents_type::rank() == rank_>>
    SMEMTILE_HOST_DEVICE constexpr mapping(const Other& other)
        : extents_(other.extents()), pitches_{} {
      for (std::size_t r = 0; r + 1 < rank_; ++r) pitches_[r] = static_cast<index_type>(other.stride(r));
    }
    /// The shape.
    SMEMTILE_HOST_DEVICE constexpr const extents_type& extents() const noexcept { return extents_; }
    /// Elements spanned (0 for an empty array).
    SMEMTILE_HOST_DEVICE constexpr index_type required_span_size() const noexcept {
      index_type span = 1;
      for (std::size_t r = 0; r < rank_; ++r) {
        if (extents_.extent(r) == 0) return 0;
        span += (extents_.extent(r) - 1) * stride(r);
      }
      return span;
    }
    /// The offset of an element.
    template <class... I>
    SMEMTILE_HOST_DEVICE constexpr index_type operator()(I... i) const noexcept {
      static_assert(sizeof...(I) == rank_, "smemtile::layout_pitched: one index per dimension");
      const index_type idx[] = {static_cast<index_type>(i)...};
      index_type offset = idx[rank_ - 1];
      for (std::size_t r = 0; r + 1 < rank_; ++r) offset += idx[r] * pitches_[r];
      return offset;
    }
    /// Not known to be exhaustive (pitches may leave gaps).
    SMEMTILE_HOST_DEVICE static constexpr bool is_always_unique() noexcept { return true; }
    /// Gaps are possible.
    SMEMTILE_HOST_DEVICE static constexpr bool is_always_exhaustive() noexcept { return false; }
    /// Strided.
    SMEMTILE_HOST_DEVICE static constexpr bool is_always_strided() noexcept { return true; }
    /// Unique.
    SMEMTILE_HOST_DEVICE static constexpr bool is_unique() noexcept { return true; }
    /// Whether there are no gaps.
    SMEMTILE_HOST_DEVICE constexpr bool is_exhaustive() const noexcept {
      index_type size = 1;
      for (std::size_t r = 0; r < rank_; ++r) size *= extents_.extent(r);
      return required_span_size() == size;
    }
    /// Strided.
    SMEMTILE_HOST_DEVICE static constexpr bool is_strided() noexcept { return true; }
    /// Stride of dimension r: 1 for the last, a compile-time constant.
    SMEMTILE_HOST_DEVICE constexpr index_type stride(rank_type r) const noexcept {
      return r + 1 == rank_ ? index_type{1} : pitches_[r];
    }
    /// Same extents and pitches.
    template <class OtherExtents>
    SMEMTILE_HOST_DEVICE friend constexpr bool operator==(const mapping& a, const mapping<OtherExtents>& b) noexcept {
      return a.extents() == b.extents() && a.required_span_size() == b.required_span_size();
    }

   private:
    Extents extents_{};
    cuda::std::array<index_type, (rank_ > 1 ? rank_ - 1 : 1)> pitches_{};
  };
};

/// A strided array of `Rank` dimensions in global memory (x, the last index, fastest).
template <class T, std::size_t Rank>
using GlobalArray = cuda::std::mdspan<T, cuda::std::dextents<int, Rank>, cuda::std::layout_stride>;

/// A row-major array of `Rank` dimensions with pitches, the last stride 1 at compile time.
template <class T, std::size_t Rank>
using PitchedArray = cuda::std::mdspan<T, cuda::std::dextents<int, Rank>, layout_pitched<1>>;

/// A 1D contiguous array in global memory: v(i).
template <class T>
using GlobalVector = PitchedArray<T, 1>;
/// A row-major matrix with a pitch in global memory: m(row, col) at data[row * pitch + col].
template <class T>
using GlobalMatrix = PitchedArray<T, 2>;
/// A row-major volume with pitches in global memory: v(z, row, col) at data[z * slice_pitch + row * pitch + col].
template <class T>
using GlobalVolume = PitchedArray<T, 3>;

/// A GlobalMatrix whose data pointer and every row start are multiples of `Bytes` (a power of two,
/// at least the element's alignment; at most 16 is used by copies): its type says so, and copies
/// move `Bytes`-wide vectors with no run-time alignment test. make_aligned_matrix checks the promise
/// in debug builds.
template <class T, std::size_t Bytes>
using AlignedMatrix =
    cuda::std::mdspan<T, cuda::std::dextents<int, 2>,
                      layout_pitched<(Bytes > sizeof(T) ? static_cast<int>(Bytes / sizeof(T)) : 1)>,
                      cuda::std::aligned_accessor<T, Bytes>>;
/// A contiguous GlobalVector whose data pointer is a multiple of `Bytes`.
template <class T, std::size_t Bytes>
using AlignedVector =
    cuda::std::mdspan<T, cuda::std::dextents<int, 1>, layout_pitched<1>, cuda::std::aligned_accessor<T, Bytes>>;

namespace detail {
template <class Layout>
struct PitchMultipleOf {
  static constexpr int value = 0;  // unknown: the pitch has no alignment in the type
};
template <int M>
struct PitchMultipleOf<layout_pitched<M>> {
  static constexpr int value = M;
};
template <class Accessor>
struct AccessorAlignment {
  static constexpr std::size_t value = alignof(typename Accessor::element_type);
};
template <class T, std::size_t Bytes>
struct AccessorAlignment<cuda::std::aligned_accessor<T, Bytes>> {
  static constexpr std::size_t value = Bytes;
};
SMEMTILE_HOST_DEVICE constexpr std::size_t lowest_power_of_two_factor(std::size_t n) { return n & (~n + 1); }
}  // namespace detail

/// The byte alignment that a view's type guarantees for the start of every row (rank 2) or of the
/// data (rank 1), and that its last stride is 1: what copies may rely on without testing. 0 where
/// the type guarantees neither (a layout_stride view: decided at run time).
template <class Mdspan>
SMEMTILE_HOST_DEVICE constexpr std::size_t guaranteed_row_alignment() {
  using Layout = typename Mdspan::layout_type;
  constexpr int multiple = detail::PitchMultipleOf<Layout>::value;
  constexpr std::size_t base = detail::AccessorAlignment<typename Mdspan::accessor_type>::value;
  if constexpr (multiple == 0) {
    return 0;
  } else if constexpr (Mdspan::rank() == 1) {
    return base;
  } else {
    constexpr std::size_t pitch_bytes =
        detail::lowest_power_of_two_factor(static_cast<std::size_t>(multiple) * sizeof(typename Mdspan::element_type));
    return base < pitch_bytes ? base : pitch_bytes;
  }
}

/// `size` elements at `data`.
template <class T>
SMEMTILE_HOST_DEVICE GlobalVector<T> make_global_vector(T* data, int size) {
  return GlobalVector<T>(data, size);
}

/// A rows x cols row-major matrix at `data` whose rows start `pitch` elements apart (pitch >= cols).
template <class T>
SMEMTILE_HOST_DEVICE GlobalMatrix<T> make_global_matrix(T* data, int rows, int cols, int pitch) {
  SMEMTILE_CHECK(pitch >= cols, "make_global_matrix: the pitch must be at least the row (values: pitch, cols)",
                 pitch, cols, 0, 0);
  using Mapping = typename GlobalMatrix<T>::mapping_type;
  return GlobalMatrix<T>(data, Mapping(cuda::std::dextents<int, 2>(rows, cols), cuda::std::array<int, 1>{pitch}));
}
/// A dense rows x cols row-major matrix at `data`.
template <class T>
SMEMTILE_HOST_DEVICE GlobalMatrix<T> make_global_matrix(T* data, int rows, int cols) {
  return make_global_matrix(data, rows, cols, cols);
}

/// A rows x cols row-major matrix at `data` whose address and pitch (in bytes) are multiples of
/// `Bytes`: make_aligned_matrix<16>(d_a, m, k). Debug builds check both.
template <std::size_t Bytes, class T>
SMEMTILE_HOST_DEVICE AlignedMatrix<T, Bytes> make_aligned_matrix(T* data, int rows, int cols, int pitch) {
  SMEMTILE_CHECK(pitch >= cols, "make_aligned_matrix: the pitch must be at least the row (values: pitch, cols)",
                 pitch, cols, 0, 0);
  SMEMTILE_CHECK(reinterpret_cast<unsigned long long>(data) % Bytes == 0 &&
                     (static_cast<unsigned long long>(pitch) * sizeof(T)) % Bytes == 0,
                 "make_aligned_matrix: the address or the pitch in bytes is not a multiple of the promised alignment "
                 "(values: address % Bytes, pitch, sizeof(T), Bytes)",
                 reinterpret_cast<unsigned long long>(data) % Bytes, pitch, sizeof(T), Bytes);
  using Mapping = typename AlignedMatrix<T, Bytes>::mapping_type;
  return AlignedMatrix<T, Bytes>(data, Mapping(cuda::std::dextents<int, 2>(rows, cols), cuda::std::array<int, 1>{pitch}));
}
/// A dense rows x cols matrix at `data` whose address and rows are multiples of `Bytes`.
template <std::size_t Bytes, class T>
SMEMTILE_HOST_DEVICE AlignedMatrix<T, Bytes> make_aligned_matrix(T* data, int rows, int cols) {
  return make_aligned_matrix<Bytes>(data, rows, cols, cols);
}
/// `size` elements at `data`, whose address is a multiple of `Bytes` (checked in debug builds).
template <std::size_t Bytes, class T>
SMEMTILE_HOST_DEVICE AlignedVector<T, Bytes> make_aligned_vector(T* data, int size) {
  SMEMTILE_CHECK(reinterpret_cast<unsigned long long>(data) % Bytes == 0,
                 "make_aligned_vector: the address is not a multiple of the promised alignment (values: address % Bytes, Bytes)",
                 reinterpret_cast<unsigned long long>(data) % Bytes, Bytes, 0, 0);
  return AlignedVector<T, Bytes>(data, size);
}

/// A depth x rows x cols row-major volume at `data`: rows `pitch` elements apart, planes
/// `slice_pitch` elements apart (pitch >= cols, slice_pitch >= rows * pitch).
template <class T>
SMEMTILE_HOST_DEVICE GlobalVolume<T> make_global_volume(T* data, int depth, int rows, int cols, int pitch,
                                                        int slice_pitch) {
  SMEMTILE_CHECK(pitch >= cols && static_cast<long long>(slice_pitch) >= static_cast<long long>(rows) * pitch,
                 "make_global_volume: pitches too small (values: pitch, cols, slice_pitch, rows)", pitch, cols,
                 slice_pitch, rows);
  using Mapping = typename GlobalVolume<T>::mapping_type;
  return GlobalVolume<T>(data, Mapping(cuda::std::dextents<int, 3>(depth, rows, cols),
                                       cuda::std::array<int, 2>{slice_pitch, pitch}));
}
/// A dense depth x rows x cols row-major volume at `data`.
template <class T>
SMEMTILE_HOST_DEVICE GlobalVolume<T> make_global_volume(T* data, int depth, int rows, int cols) {
  return make_global_volume(data, depth, rows, cols, cols, rows * cols);
}

/// Plane `z` of a volume, as a matrix (for copying 2D tiles out of 3D arrays): a GlobalMatrix of a
/// layout_pitched volume, a layout_stride matrix of any other.
template <class T, class Extents, class Layout, class Accessor>
SMEMTILE_HOST_DEVICE auto plane(const cuda::std::mdspan<T, Extents, Layout, Accessor>& volume, int z) {
  static_assert(Extents::rank() == 3, "smemtile::plane takes a rank-3 mdspan (depth, rows, cols)");
  SMEMTILE_CHECK(z >= 0 && z < static_cast<int>(volume.extent(0)), "plane: z outside the volume (values: z, depth)",
                 z, volume.extent(0), 0, 0);
  using Element = typename Accessor::element_type;
  Element* const data = volume.data_handle() + static_cast<long long>(z) * volume.stride(0);
  const cuda::std::dextents<int, 2> extents(static_cast<int>(volume.extent(1)), static_cast<int>(volume.extent(2)));
  if constexpr (detail::PitchMultipleOf<Layout>::value > 0) {
    using Mapping = typename GlobalMatrix<Element>::mapping_type;
    return GlobalMatrix<Element>(data, Mapping(extents, cuda::std::array<int, 1>{static_cast<int>(volume.stride(1))}));
  } else {
    using Mapping = typename cuda::std::layout_stride::template mapping<cuda::std::dextents<int, 2>>;
    return GlobalArray<Element, 2>(data, Mapping(extents, cuda::std::array<int, 2>{static_cast<int>(volume.stride(1)),
                                                                                    static_cast<int>(volume.stride(2))}));
  }
}

/// The address of element (row, col) of a rank-2 mdspan of any strides, its offset computed in 64
/// bits (int coordinates times int strides pass 2^31 in large arrays). The extents are not checked.
template <class Global>
SMEMTILE_HOST_DEVICE auto global_pointer(const Global& global, int row, int col) {
  return global.data_handle() + static_cast<long long>(row) * global.stride(0) +
         static_cast<long long>(col) * global.stride(1);
}

namespace detail {

// Any mdspan of rank 1 to 3 as a GlobalArray (layout_stride, int extents and strides).
template <class T, class Extents, class Layout, class Accessor>
SMEMTILE_HOST_DEVICE GlobalArray<T, Extents::rank()> as_global_array(const cuda::std::mdspan<T, Extents, Layout, Accessor>& m) {
  constexpr std::size_t rank = Extents::rank();
  using Mapping = typename cuda::std::layout_stride::template mapping<cuda::std::dextents<int, rank>>;
  cuda::std::array<int, rank> extents{}, strides{};
  for (std::size_t d = 0; d < rank; ++d) {
    extents[d] = static_cast<int>(m.extent(d));
    strides[d] = static_cast<int>(m.stride(d));
  }
  return GlobalArray<T, rank>(m.data_handle(), Mapping(cuda::std::dextents<int, rank>(extents), strides));
}

// A rank-1 mdspan seen as a 1 x n matrix, so that 1D copies share the 2D code: a contiguous one
// (layout_pitched, layout_right) keeps its unit stride and its accessor's alignment in the type,
// any other becomes layout_stride.
template <class T, class Extents, class Layout, class Accessor>
SMEMTILE_DEVICE auto as_matrix(const cuda::std::mdspan<T, Extents, Layout, Accessor>& vector) {
  const int n = static_cast<int>(vector.extent(0));
  if constexpr (std::is_same<Layout, layout_pitched<1>>::value || std::is_same<Layout, cuda::std::layout_right>::value) {
    constexpr int multiple = AccessorAlignment<Accessor>::value > sizeof(T)
                                 ? static_cast<int>(AccessorAlignment<Accessor>::value / sizeof(T)) : 1;
    using Matrix = cuda::std::mdspan<T, cuda::std::dextents<int, 2>, layout_pitched<multiple>, Accessor>;
    const int pitch = (n + multiple - 1) / multiple * multiple;  // one row: any multiple of it will do
    return Matrix(vector.data_handle(), typename Matrix::mapping_type(cuda::std::dextents<int, 2>(1, n),
                                                                      cuda::std::array<int, 1>{pitch}),
                  vector.accessor());
  } else {
    using Mapping = typename cuda::std::layout_stride::template mapping<cuda::std::dextents<int, 2>>;
    const int stride = static_cast<int>(vector.stride(0));
    return cuda::std::mdspan<T, cuda::std::dextents<int, 2>, cuda::std::layout_stride, Accessor>(
        vector.data_handle(), Mapping(cuda::std::dextents<int, 2>(1, n), cuda::std::array<int, 2>{n * stride, stride}),
        vector.accessor());
  }
}

}  // namespace detail

}  // namespace smemtile
