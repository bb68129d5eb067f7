// The modified Bessel functions of the first kind, cyl_bessel_i0 (I0) and cyl_bessel_i1 (I1). The
// only place their algorithms live.
//
// Both run in binary64 lanes (registry eval F64): `x` holds a float32 value exactly, the result is a
// double within about 2^-36 relative of the exact value, rounded to float32 once by the caller.
// No per-lane branches: every lane of a vector runs the same operations and a mask picks its
// region; a vector whose lanes all lie in the power-series region (a <= 8) skips the exponential
// one as a whole (never per lane: each lane's value is the same either way). Only correctly rounded
// IEEE operations, selects and bit operations: the same bits on every target and the scalar lane.
// Coefficients: src/kernels/bessel_coeffs.h (tools/coeffs/bessel.py), each fit's error stated there.
//
// With a = |x|:
//   a <= 8: y = a^2/4 (exact), I0 = 1 + y P0(y), I1 = h + h (y P1(y)), h = a/2 (exact): the power
//     series' Chebyshev interpolants (kI0Small, kI1Small; relative error 1.3e-14, 1.6e-15), no
//     cancellation (every term is positive).
//   a > 8: I = e^a G(1/a)/sqrt(a) (kI0Large, kI1Large; 3.5e-12, 3.9e-12), e^a by ExpFinite64,
//     s = 1/sqrt(a) by a square root and a division, 1/a = s^2; a is clamped to 100 first (both
//     functions overflow float32 above 91.9: e^100 G/10 is a finite double that rounds to +inf).
// Special values: I0(+-inf) = +inf, I1(+-inf) = +-inf, I1 odd (I1(-0) = -0), NaN -> NaN (KeepNaN).
// I1 of a subnormal x: a/2 may lie exactly halfway between two float32 values; the exact I1 lies
// above it by the relative y P1(y) ~ a^2/8 > 0, which is kept at least 2^-50 (a relative change
// that binary64 holds) so that the one rounding goes the way the exact value's does. It changes
// nothing else: it acts only where a < 2^-23.5, where a/2 is a float32 value or such a midpoint.
#if defined(ACCELMATH_KERNELS_BESSEL_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef ACCELMATH_KERNELS_BESSEL_INL_H_
#undef ACCELMATH_KERNELS_BESSEL_INL_H_
#else
#define ACCELMATH_KERNELS_BESSEL_INL_H_
#endif

#include "kernels/bessel_coeffs.h"
#include "kernels/common-inl.h"
#include "kernels/exp_log-inl.h"

namespace accelmath::ACCELMATH_KNS {

namespace bessel_impl {

// e^a G(1/a)/sqrt(a) for a > 8 (a clamped to kBesselClamp; other lanes give values nobody reads).
template <class D, class V, size_t N>
ACCELMATH_KERNEL V ExpRegion(D d, V a, const std::array<double, N>& g) {
  const V ac = Min(a, Set(d, coeffs::kBesselClamp));
  const V s = Div(Set(d, 1.0), Sqrt(ac));
  return Mul(ExpFinite64(d, ac), Mul(Estrin(d, Mul(s, s), g), s));
}

}  // namespace bessel_impl

// I0(x). Measured: see docs (`accelmath sweep cyl_bessel_i0 --threads 2`, all 2^32 inputs).
template <class D, class V>
ACCELMATH_KERNEL V BesselI0(D d, V x) {
  const V a = Abs(x);
  const V y = Mul(Mul(a, a), Set(d, 0.25));
  const auto small = Le(a, Set(d, coeffs::kBesselSmallMax));
  const V series = MulAdd(y, Estrin(d, y, coeffs::kI0Small()), Set(d, 1.0));
  if (AllTrue(d, small)) return series;
  const V r = IfThenElse(small, series, bessel_impl::ExpRegion(d, a, coeffs::kI0Large()));
  return KeepNaN(x, r);
}

// I1(x), odd. Measured: see docs (`accelmath sweep cyl_bessel_i1 --threads 2`, all 2^32 inputs).
template <class D, class V>
ACCELMATH_KERNEL V BesselI1(D d, V x) {
  const V a = Abs(x);
  const V h = Mul(a, Set(d, 0.5));
  const V y = Mul(h, h);
  const auto small = Le(a, Set(d, coeffs::kBesselSmallMax));
  const V excess = Max(Mul(y, Estrin(d, y, coeffs::kI1Small())), Set(d, 0x1p-50));
  V r = MulAdd(h, excess, h);
  if (!AllTrue(d, small)) r = IfThenElse(small, r, bessel_impl::ExpRegion(d, a, coeffs::kI1Large()));
  return KeepNaN(x, WithSign(d, r, SignOf(d, x)));
}

}  // namespace accelmath::ACCELMATH_KNS

#endif  // ACCELMATH_KERNELS_BESSEL_INL_H_ toggle
