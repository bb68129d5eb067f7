/* C ABI of the array functions, for bindings (ctypes, cffi) and C callers. Same contract and
 * return codes as the C++ functions (include/accelmath/math.h): 0 = ok, 1 = buffer too small
 * (not applicable here: one length), 2 = partial overlap. */
#ifndef ACCELMATH_C_API_H_
#define ACCELMATH_C_API_H_

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

int accelmath_ndtri_f32(float* dst, const float* src, size_t n);
int accelmath_ndtri_taskbook_f32(float* dst, const float* src, size_t n);

#ifdef __cplusplus
}
#endif

#endif /* ACCELMATH_C_API_H_ */
