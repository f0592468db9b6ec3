// smemtile/core/vector_type.cuh: the register type that moves N bytes as one access.
#pragma once

#if defined(__CUDACC__)
#include <vector_types.h>  // uint4, uint2

namespace smemtile {
namespace detail {

/// A trivially copyable block of Bytes bytes, loaded and stored as one access (LDG.E.128 / LDS.128
/// for 16 bytes).
template <int Bytes> struct VectorOf;
template <> struct VectorOf<16> { using type = uint4; };
template <> struct VectorOf<8> { using type = uint2; };
template <> struct VectorOf<4> { using type = unsigned; };
template <> struct VectorOf<2> { using type = unsigned short; };
template <> struct VectorOf<1> { using type = unsigned char; };

}  // namespace detail
}  // namespace smemtile

#endif  // __CUDACC__
