/* C ABI of the array functions, for bindings (ctypes, cffi) and C callers: one function per row of
 * the registry (accelmath/ops.def). A unary function f is
 *   int accelmath_<f>_f32(float* dst, const float* src, size_t n);
 * a function of one input and two outputs (sincos, sincospi, fresnel)
 *   int accelmath_<f>_f32(float* dst1, float* dst2, const float* src, size_t n);
 * and a function of two inputs and one output (atan2: src1 is y, src2 is x, as in C's atan2(y, x))
 *   int accelmath_<f>_f32(float* dst, const float* src1, const float* src2, size_t n);
 * Same contract as the C++ functions (accelmath/math.h), n elements of each array. Return codes
 * (accelmath/status.h):
 *   0  ok;
 *   2  the arrays overlap without being the same buffer (in place, dst == src, is fine; with two
 *      inputs dst may be either of them);
 *   8  a pointer is NULL while n > 0 (n == 0 accepts NULL pointers: nothing is read or written);
 *   1 (buffer too small) cannot happen here: one length.
 * On a non-zero return nothing is written. n larger than an array it describes cannot be
 * detected (undefined behaviour, as for any C function taking a pointer and a length). */
#ifndef ACCELMATH_C_API_H_
#define ACCELMATH_C_API_H_

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

#define ACCELMATH_DECLARE_Unary(name) int accelmath_##name##_f32(float* dst, const float* src, size_t n);
#define ACCELMATH_DECLARE_UnaryPair(name) \
  int accelmath_##name##_f32(float* dst1, float* dst2, const float* src, size_t n);
#define ACCELMATH_DECLARE_Binary(name) \
  int accelmath_##name##_f32(float* dst, const float* src1, const float* src2, size_t n);
#define ACCELMATH_OP(name, shape, ...) ACCELMATH_DECLARE_##shape(name)
#include "accelmath/ops.def"
#undef ACCELMATH_OP
#undef ACCELMATH_DECLARE_Unary
#undef ACCELMATH_DECLARE_UnaryPair
#undef ACCELMATH_DECLARE_Binary

#ifdef __cplusplus
}
#endif

#endif /* ACCELMATH_C_API_H_ */
