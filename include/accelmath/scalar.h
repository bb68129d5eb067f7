// The float32 math library, per-element form: `float accelmath::scalar::f(float) noexcept` for
// every unary row of the registry (accelmath/ops.def), `void accelmath::scalar::f(float x, float* out1,
// float* out2) noexcept` for every row with two outputs (sincos, ...), `float accelmath::scalar::f(float
// x1, float x2) noexcept` for every row with two inputs (atan2(y, x)). Same kernels as the array form
// (accelmath/math.h), instantiated for a one-lane type: bit-identical results.
#pragma once

namespace accelmath::scalar {

#define ACCELMATH_DECLARE_Unary(name) float name(float x) noexcept;
#define ACCELMATH_DECLARE_UnaryPair(name) void name(float x, float* out1, float* out2) noexcept;
#define ACCELMATH_DECLARE_Binary(name) float name(float x1, float x2) noexcept;
#define ACCELMATH_OP(name, shape, ...) ACCELMATH_DECLARE_##shape(name)
#include "accelmath/ops.def"
#undef ACCELMATH_OP
#undef ACCELMATH_DECLARE_Unary
#undef ACCELMATH_DECLARE_UnaryPair
#undef ACCELMATH_DECLARE_Binary

}  // namespace accelmath::scalar
