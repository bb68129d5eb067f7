// The float32 math library, per-element form: `float accelmath::scalar::f(float) noexcept` for
// every unary row of the registry (accelmath/ops.def). Same kernels as the array form
// (accelmath/math.h), instantiated for a one-lane type: bit-identical results.
#pragma once

namespace accelmath::scalar {

#define ACCELMATH_DECLARE_Unary(name) float name(float x) noexcept;
#define ACCELMATH_OP(name, shape, ...) ACCELMATH_DECLARE_##shape(name)
#include "accelmath/ops.def"
#undef ACCELMATH_OP
#undef ACCELMATH_DECLARE_Unary

}  // namespace accelmath::scalar
