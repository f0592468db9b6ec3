// device_stencil_steps's 2D register stream forced on boxes, radius-2 and -3 stars and other shapes
// of policy (see stencil_steps_gpu_stream_test.cu).
#include "stencil_steps_gpu_stream_common.cuh"

TEST_CASE("device_stencil_steps 2D stream, boxes, wide stars and other shapes of policy") {
  check_stream<Float4, 1, box, kClamp, float>(9, 111);
  check_stream<Float4, 1, box, kReflect, float>(9, 112);
  check_stream<Float4, 1, box, kZero, float>(6, 113);
  check_stream<Float4, 2, star, kReflect, float>(9, 114);
  check_stream<Float4, 2, star, kPeriodic, float>(6, 115);
  check_stream<Float4, 2, box, kConstant, float>(6, 116);
  check_stream<smemtile::StencilStepsStreamPolicy<4, 4, 2, 8>, 3, star, kClamp, float>(6, 117);
  check_stream<Narrow, 1, star, kReflect, float>(9, 118);
  check_stream<Narrow, 1, box, kPeriodic, float>(6, 119);
}
