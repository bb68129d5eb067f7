// The float32 math library, per-element form: one function in accelmath::scalar per row of the
// registry (accelmath/ops.def), by the row's shape:
//   Unary          float f(float x)
//   UnaryPair      void f(float x, float* out1, float* out2)   (sincos)
//   Binary         float f(float x1, float x2)                 (atan2(y, x), pow(x, y))
//   Ternary        float f(float x1, float x2, float x3)       (fma, norm3d)
//   Quaternary     float f(float x1, float x2, float x3, float x4)
//   ToInt32        int f(float x)                              (ilogb)
//   Predicate      bool f(float x)                             (isnan)
//   SplitExponent  float f(float x, int* exp)                  (frexp)
//   ScaleExponent  float f(float x, int n)                     (ldexp)
//   Rows           float f(int n, const float* a)              (norm of a[0 .. n); CUDA's normf
//                                                              signature; n < 1 is an empty row)
// all noexcept. Same kernels as the array form (accelmath/math.h), instantiated for a one-lane
// type: bit-identical results.
#pragma once

namespace accelmath::scalar {

#define ACCELMATH_DECLARE_Unary(name) float name(float x) noexcept;
#define ACCELMATH_DECLARE_UnaryPair(name) void name(float x, float* out1, float* out2) noexcept;
#define ACCELMATH_DECLARE_Binary(name) float name(float x1, float x2) noexcept;
#define ACCELMATH_DECLARE_Ternary(name) float name(float x1, float x2, float x3) noexcept;
#define ACCELMATH_DECLARE_Quaternary(name) float name(float x1, float x2, float x3, float x4) noexcept;
#define ACCELMATH_DECLARE_ToInt32(name) int name(float x) noexcept;
#define ACCELMATH_DECLARE_Predicate(name) bool name(float x) noexcept;
#define ACCELMATH_DECLARE_SplitExponent(name) float name(float x, int* exp) noexcept;
#define ACCELMATH_DECLARE_ScaleExponent(name) float name(float x, int n) noexcept;
#define ACCELMATH_DECLARE_Rows(name) float name(int n, const float* a) noexcept;
#define ACCELMATH_OP(name, shape, ...) ACCELMATH_DECLARE_##shape(name)
#include "accelmath/ops.def"
#undef ACCELMATH_OP
#undef ACCELMATH_DECLARE_Unary
#undef ACCELMATH_DECLARE_UnaryPair
#undef ACCELMATH_DECLARE_Binary
#undef ACCELMATH_DECLARE_Ternary
#undef ACCELMATH_DECLARE_Quaternary
#undef ACCELMATH_DECLARE_ToInt32
#undef ACCELMATH_DECLARE_Predicate
#undef ACCELMATH_DECLARE_SplitExponent
#undef ACCELMATH_DECLARE_ScaleExponent
#undef ACCELMATH_DECLARE_Rows

}  // namespace accelmath::scalar
