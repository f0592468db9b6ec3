/// \file
/// VectorOf<Bytes>: the one "N-byte register type" (a trivially copyable block of 1 to 16 bytes
/// loaded and stored as one access), used by the copies, the fragments and the cp.async fallback.
#pragma once

#if defined(__CUDACC__)
#include <vector_types.h>  // uint2, uint4

namespace smemtile {
namespace detail {

// A trivially copyable block of Bytes bytes, loaded and stored as one access.
template <int Bytes> struct VectorOf;
template <> struct VectorOf<16> { using type = uint4; };
template <> struct VectorOf<8> { using type = uint2; };
template <> struct VectorOf<4> { using type = unsigned; };
template <> struct VectorOf<2> { using type = unsigned short; };
template <> struct VectorOf<1> { using type = unsigned char; };

}  // namespace detail
}  // namespace smemtile
#endif  // __CUDACC__
