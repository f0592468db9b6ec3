// GPU tests of device_stencil_steps's 2D register stream (StencilStepsStreamPolicy, passed by the
// caller): random extents around the stream's strips and chunks (one strip, a few, a partial last
// one; arrays too small for it, which run the standard regions), random pitches and base offsets
// (rows on and off 16 bytes: vector and element loads), random step counts (passes of fewer steps
// than the depth pass the last ones through), every boundary policy, star and box, radii 1 to 3,
// float, double, int and __half; each result equal bit for bit to as many device_stencil calls,
// nothing outside the arrays written (stencil_steps_gpu_common.cuh); separable ops, whose rings hold
// the rows' partials. The selector's own choice of the stream on arrays that fill the GPU is checked
// too.
// This unit: 5-point floats; doubles, integers and halves (boxes and separable ops: the other two).
#include "stencil_steps_gpu_stream_common.cuh"

TEST_CASE("device_stencil_steps 2D stream, 5-point floats, every boundary policy") {
  check_stream<Float8, 1, star, kZero, float>(12, 101);
  check_stream<Float8, 1, star, kClamp, float>(12, 102);
  check_stream<Float8, 1, star, kPeriodic, float>(12, 103);
  check_stream<Float8, 1, star, kReflect, float>(12, 104);
  check_stream<Float8, 1, star, kConstant, float>(9, 105);
}

TEST_CASE("device_stencil_steps 2D stream, doubles, integers and halves") {
  check_stream<Double4, 1, star, kZero, double>(9, 121);
  check_stream<Double6, 1, star, kClamp, double>(9, 122);
  check_stream<Double4, 1, star, kReflect, double>(6, 123);
  check_stream<Float4, 1, star, kPeriodic, int>(6, 124);
  check_stream<smemtile::StencilStepsStreamPolicy<4, 4, 3, 32>, 1, box, kClamp, __half>(6, 125);
}
