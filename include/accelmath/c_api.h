/* C ABI of the array functions, for bindings (ctypes, cffi) and C callers: one function per row of
 * the registry (accelmath/ops.def), by the row's shape:
 *   Unary          int accelmath_<f>_f32(float* dst, const float* src, size_t n);
 *   UnaryPair      int accelmath_<f>_f32(float* dst1, float* dst2, const float* src, size_t n);
 *   Binary         int accelmath_<f>_f32(float* dst, const float* src1, const float* src2, size_t n);
 *                  (atan2: src1 is y, src2 is x, as in C's atan2(y, x))
 *   Ternary        int accelmath_<f>_f32(float* dst, const float* s1, const float* s2, const float* s3, size_t n);
 *   Quaternary     int accelmath_<f>_f32(float* dst, const float* s1, const float* s2, const float* s3,
 *                                        const float* s4, size_t n);
 *   ToInt32        int accelmath_<f>_f32(int32_t* dst, const float* src, size_t n);
 *   Predicate      int accelmath_<f>_f32(uint8_t* dst, const float* src, size_t n);      (1 or 0)
 *   SplitExponent  int accelmath_<f>_f32(float* dst, int32_t* exp, const float* src, size_t n);
 *   ScaleExponent  int accelmath_<f>_f32(float* dst, const float* src, const int32_t* n, size_t n_elems);
 *   Rows           int accelmath_<f>_f32(float* dst, const float* src, size_t n, size_t count);
 *                  (dst[r] = f(src[r n .. r n + n)) for r < count: src holds count * n floats)
 * Same contract as the C++ functions (accelmath/math.h), n (n_elems, count) elements of each array.
 * Return codes (accelmath/status.h):
 *   0  ok;
 *   2  the arrays overlap without being the same buffer (in place, an output equal to an input of
 *      the same element type, is fine);
 *   8  a pointer is NULL while there is something to read or write through it (n == 0 accepts NULL
 *      pointers; Rows: src may be NULL when count * n == 0, dst when count == 0);
 *   1  (buffer too small) only for Rows, when count * n does not fit in size_t.
 * On a non-zero return nothing is written. n larger than an array it describes cannot be
 * detected (undefined behaviour, as for any C function taking a pointer and a length). */
#ifndef ACCELMATH_C_API_H_
#define ACCELMATH_C_API_H_

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define ACCELMATH_DECLARE_Unary(name) int accelmath_##name##_f32(float* dst, const float* src, size_t n);
#define ACCELMATH_DECLARE_UnaryPair(name) \
  int accelmath_##name##_f32(float* dst1, float* dst2, const float* src, size_t n);
#define ACCELMATH_DECLARE_Binary(name) \
  int accelmath_##name##_f32(float* dst, const float* src1, const float* src2, size_t n);
#define ACCELMATH_DECLARE_Ternary(name) \
  int accelmath_##name##_f32(float* dst, const float* src1, const float* src2, const float* src3, size_t n);
#define ACCELMATH_DECLARE_Quaternary(name)                                                                   \
  int accelmath_##name##_f32(float* dst, const float* src1, const float* src2, const float* src3, const float* src4, \
                             size_t n);
#define ACCELMATH_DECLARE_ToInt32(name) int accelmath_##name##_f32(int32_t* dst, const float* src, size_t n);
#define ACCELMATH_DECLARE_Predicate(name) int accelmath_##name##_f32(uint8_t* dst, const float* src, size_t n);
#define ACCELMATH_DECLARE_SplitExponent(name) \
  int accelmath_##name##_f32(float* dst, int32_t* exp, const float* src, size_t n);
#define ACCELMATH_DECLARE_ScaleExponent(name) \
  int accelmath_##name##_f32(float* dst, const float* src, const int32_t* n, size_t n_elems);
#define ACCELMATH_DECLARE_Rows(name) int accelmath_##name##_f32(float* dst, const float* src, size_t n, size_t count);
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

#ifdef __cplusplus
}
#endif

#endif /* ACCELMATH_C_API_H_ */
