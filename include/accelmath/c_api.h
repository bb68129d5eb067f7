/* C ABI of the array functions, for bindings (ctypes, cffi) and C callers: one function per row of
 * the registry (accelmath/ops.def). A unary function f is
 *   int accelmath_<f>_f32(float* dst, const float* src, size_t n);
 * and a function of one input and two outputs (sincos, sincospi, fresnel)
 *   int accelmath_<f>_f32(float* dst1, float* dst2, const float* src, size_t n); Same contract and return codes as the C++ functions
 * (accelmath/math.h, accelmath/status.h): 0 = ok, 2 = partial overlap (1, buffer too small,
 * cannot happen here: one length). */
#ifndef ACCELMATH_C_API_H_
#define ACCELMATH_C_API_H_

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

#define ACCELMATH_DECLARE_Unary(name) int accelmath_##name##_f32(float* dst, const float* src, size_t n);
#define ACCELMATH_DECLARE_UnaryPair(name) \
  int accelmath_##name##_f32(float* dst1, float* dst2, const float* src, size_t n);
#define ACCELMATH_OP(name, shape, ...) ACCELMATH_DECLARE_##shape(name)
#include "accelmath/ops.def"
#undef ACCELMATH_OP
#undef ACCELMATH_DECLARE_Unary
#undef ACCELMATH_DECLARE_UnaryPair

#ifdef __cplusplus
}
#endif

#endif /* ACCELMATH_C_API_H_ */
