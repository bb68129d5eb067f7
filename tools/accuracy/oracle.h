// Reference values for accuracy measurements, far more accurate than float32.
//
// ndtri: `oracle::ndtri` is a double-precision implementation independent of the library's kernels
// (Newton's method on the C library's erf/erfc, started from Abramowitz & Stegun 26.2.23). Its error
// against MPFR (`oracle::ndtri_mpfr`, 200-bit Newton on mpfr_erf/mpfr_erfc) is measured by
// `accelmath oracle-check ndtri` and by a CTest; see docs/accuracy.md.
#pragma once

#include <cstdint>

namespace accelmath::oracle {

// ndtri(p) for any double p (special values as in the library's spec), relative error ~1e-16.
double ndtri(double p);

// ndtri(p) computed with MPFR at `bits` of precision, rounded to nearest double. Slow (~1 ms).
double ndtri_mpfr(double p, int bits = 200);

// Float32 ulp at the magnitude of the exact value r: 2^(floor(log2 |r|) - 23), at least 2^-149.
double ulp_f32(double r);

// |y - r| / ulp_f32(r); 0 when y equals a non-finite r (same infinity, or both NaN); +inf when
// the classes differ.
double ulp_error_f32(float y, double r);

}  // namespace accelmath::oracle
