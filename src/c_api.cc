// The C ABI (accelmath/c_api.h): one function per registry row, calling the C++ array function.
#include "accelmath/c_api.h"

#include "accelmath/math.h"

#define ACCELMATH_OP(name, ...)                                                                       \
  extern "C" int accelmath_##name##_f32(float* dst, const float* src, size_t n) {                    \
    return static_cast<int>(accelmath::name(std::span<float>(dst, n), std::span<const float>(src, n))); \
  }
#include "accelmath/ops.def"
#undef ACCELMATH_OP
