// The Fresnel integrals C(x) = int_0^x cos(pi t^2/2) dt and S(x) = int_0^x sin(pi t^2/2) dt:
// fresnel_c, fresnel_s and the pair (fresnel). The only place their algorithms live.
//
// All three run in binary64 lanes (registry eval F64): `x` holds a float32 value exactly, the result
// is a double within ~1e-12 relative of the exact value, which the caller rounds to float32 once
// (DemoteTo). One core (FresnelCore) computes C, S or both: the C of Fresnel is FresnelC's value
// bit for bit, and the S of Fresnel is FresnelS's (the same operations on the same values; the
// flags only drop the unused ones).
// No per-lane branches: the two regions are selected per lane by masks; a vector whose lanes all
// lie in one region skips the other as a whole (AllTrue / AllFalse, never per lane: each lane's
// value is the same either way). Only correctly rounded IEEE operations, in a fixed order: the
// same bits on every Highway target and on the scalar lane. GCC may rewrite -fma(a, b, c) as
// fma(-a, b, -c) on the scalar lane, which changes the sign of a zero result only; Neg is applied
// to fma results in two places where that cannot matter: cos(pi b) (a zero of either sign is then
// multiplied and added to 1/2 - ..., a nonzero value) and the aux-region C, S (never zero, in
// [0.34, 0.66]).
// Coefficients and thresholds: src/kernels/fresnel_coeffs.h (tools/coeffs/fresnel.py).
#if defined(ACCELMATH_KERNELS_FRESNEL_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef ACCELMATH_KERNELS_FRESNEL_INL_H_
#undef ACCELMATH_KERNELS_FRESNEL_INL_H_
#else
#define ACCELMATH_KERNELS_FRESNEL_INL_H_
#endif

#include "kernels/common-inl.h"
#include "kernels/fresnel_coeffs.h"

// Every function here is forced inline on the host (a kernel left as a call per vector is what
// GCC does with plain `inline` functions this size; see exp_log-inl.h).
#ifndef ACCELMATH_FRESNEL_INLINE
#if defined(__CUDACC__)
#define ACCELMATH_FRESNEL_INLINE
#else
#define ACCELMATH_FRESNEL_INLINE __attribute__((always_inline))
#endif
#endif

namespace accelmath::ACCELMATH_KNS {

namespace fresnel_impl {

// sin(theta), cos(theta), theta = pi a^2/2, for a >= 0 holding a float32 value (or 2^64), with the
// argument reduced exactly. a < 2^24: a^2 is exact in binary64 (48 significant bits), so is
// t = a^2/2; k = round(t/2) (t/2 + 1.5 2^52 rounds to an integer, ties to even: t/2 < 2^46 <<
// 2^51) and r = t - 2k in [-1, 1] are exact (the fma's exact value is a multiple of ulp(t) below 1
// in magnitude: representable). a >= 2^24 (also the clamped 2^64): every such float32 is an even
// integer, a^2/2 = 0 mod 2, so t is replaced by 0. Then b = |r| folded to [0, 1/2]
// (b = 1 - |r| for |r| > 1/2, exact by Sterbenz): sin(pi r) = sign(r) sin(pi b),
// cos(pi r) = -+cos(pi b), with sin(pi b) = b Ps(b^2), cos(pi b) = Pc(b^2) (kFresnelSinPi,
// kFresnelCosPi: absolute errors 7.8e-14 and 2e-15). NaN lanes get t = 0 (FresnelCore rewrites them).
template <class D, class V>
ACCELMATH_KERNEL ACCELMATH_FRESNEL_INLINE void SinCosHalfPiSquare(D d, V a, V& sn, V& cs) {
  const V t = IfThenElseZero(Lt(a, Set(d, coeffs::kFresnelPhaseZeroFrom)), Mul(Mul(a, a), Set(d, 0.5)));
  const V shift = Set(d, coeffs::kFresnelRoundShift);
  const V k = Sub(MulAdd(t, Set(d, 0.5), shift), shift);
  const V r = NegMulAdd(k, Set(d, 2.0), t);
  const V ar = Abs(r);
  const auto far = Gt(ar, Set(d, 0.5));
  const V b = IfThenElse(far, Sub(Set(d, 1.0), ar), ar);
  const V q = Mul(b, b);
  const V sb = Mul(b, Estrin(d, q, coeffs::kFresnelSinPi()));
  const V cb = Estrin(d, q, coeffs::kFresnelCosPi());
  sn = IfThenElse(Lt(r, Zero(d)), Neg(sb), sb);
  cs = IfThenElse(far, Neg(cb), cb);
}

// |x| <= 2.5: C(x) = x P(w), S(x) = x^3 Q(w), w = x^4 (x^2 exact, w rounded once), P, Q of degree
// 14 (kFresnelCSeries, kFresnelSSeries: relative errors 2.5e-13 and 5.5e-14; the evaluation by
// Estrin's scheme adds at most ~2.7e3 rounding errors of 2^-53, the largest sum of |terms| over
// the value). The sign of x carries through (x, x^3 odd): +-0 -> +-0. Tiny x: x^4 may underflow,
// P(w) = 1, C = x exactly (subnormal x included); x^3 never underflows in binary64 (>= 2^-447), so
// S = x^3 pi/6 (1 + ...) is accurate before its one rounding to float32 (S(2^-149) -> +0).
template <bool kC, bool kS, class D, class V>
ACCELMATH_KERNEL ACCELMATH_FRESNEL_INLINE void SeriesPart(D d, V x, V& c, V& s) {
  const V x2 = Mul(x, x);
  const V w = Mul(x2, x2);
  if constexpr (kC) c = Mul(x, Estrin(d, w, coeffs::kFresnelCSeries()));
  if constexpr (kS) s = Mul(Mul(x2, x), Estrin(d, w, coeffs::kFresnelSSeries()));
}

// |x| > 2.5 (also +-inf, NaN), on a = |x| clamped to 2^64 (+inf -> 2^64; NaN stays NaN):
//   C(a) = 1/2 + f sin(theta) - g cos(theta), S(a) = 1/2 - f cos(theta) - g sin(theta),
//   theta = pi a^2/2 (SinCosHalfPiSquare), f = F(v)/a, g = G(v)/a^3, v = 1/a^2 (one division;
//   1/a = a v, 1/a^3 = a v^2), F, G of degree 11 in v in [0, 0.16] (kFresnelF, kFresnelG: absolute
//   errors 1.4e-13 and 1.2e-12, weighted by 1/a <= 0.4 and 1/a^3 <= 0.064). The two products are
//   added to 1/2 by two fmas: C, S are in [0.34, 0.66] here, so every error is ~1e-13 relative.
//   At and beyond a = 2^64, f < 2^-65 and g < 2^-195: C = S = 1/2 exactly. The sign of x is
//   applied by the caller.
template <bool kC, bool kS, class D, class V>
ACCELMATH_KERNEL ACCELMATH_FRESNEL_INLINE void AuxPart(D d, V a, V& c, V& s) {
  const V clamp = Set(d, coeffs::kFresnelClamp);
  const V ac = IfThenElse(Gt(a, clamp), clamp, a);
  const V v = Div(Set(d, 1.0), Mul(ac, ac));
  const V inv_a = Mul(ac, v);
  const V f = Mul(inv_a, Estrin(d, v, coeffs::kFresnelF()));
  const V g = Mul(Mul(inv_a, v), Estrin(d, v, coeffs::kFresnelG()));
  V sn, cs;
  SinCosHalfPiSquare(d, ac, sn, cs);
  const V half = Set(d, 0.5);
  if constexpr (kC) c = MulAdd(f, sn, NegMulAdd(g, cs, half));
  if constexpr (kS) s = NegMulAdd(f, cs, NegMulAdd(g, sn, half));
}

// C (kC) and/or S (kS) of every lane: SeriesPart where |x| <= 2.5, AuxPart with the sign of x
// elsewhere (x < 0: Neg of the plain value; x = -0 is in the series part). +-inf -> +-1/2 (the
// clamp). NaN lanes fail the region test and take the aux branch, where they are written as x + x
// (the input NaN, quieted): the NaN that the arithmetic would propagate depends on operand order
// and on how the scalar lane negates (NegMulAdd flips a NaN's sign there, not in vfnmadd).
template <bool kC, bool kS, class D, class V>
ACCELMATH_KERNEL ACCELMATH_FRESNEL_INLINE void FresnelCore(D d, V x, V& c, V& s) {
  const V a = Abs(x);
  const auto series = Le(a, Set(d, coeffs::kFresnelSeriesMax));
  if (AllTrue(d, series)) {
    SeriesPart<kC, kS>(d, x, c, s);
    return;
  }
  V ca = a, sa = a;
  AuxPart<kC, kS>(d, a, ca, sa);
  const auto neg = Lt(x, Zero(d));
  const auto num = Eq(x, x);
  const V nan = Add(x, x);
  if constexpr (kC) ca = IfThenElse(num, IfThenElse(neg, Neg(ca), ca), nan);
  if constexpr (kS) sa = IfThenElse(num, IfThenElse(neg, Neg(sa), sa), nan);
  if (AllFalse(d, series)) {
    c = ca;
    s = sa;
    return;
  }
  V cp = a, sp = a;
  SeriesPart<kC, kS>(d, x, cp, sp);
  if constexpr (kC) c = IfThenElse(series, cp, ca);
  if constexpr (kS) s = IfThenElse(series, sp, sa);
}

}  // namespace fresnel_impl

// FresnelC(d, x) = C(x), FresnelS(d, x) = S(x), Fresnel(d, x, s) = C(x) with s = S(x): binary64
// lanes holding float32 values; regions and errors in fresnel_impl above. Special values: C and S
// are odd (+-0 -> +-0), +-inf -> +-1/2, NaN -> NaN; subnormal x: C(x) = x, S(x) ~ (pi/6) x^3
// rounded once (0 for |x| <= 2^-50 or so).
// Measured over all 2^32 float32 inputs, no interval excluded (through the array API, AVX-512):
//   `accelmath sweep fresnel_c --threads 2`: max 0.500002 ulp at x = 1.77572703 (0x3fe34b06);
//     99.999999% correctly rounded (60 results in (0.5, 0.5001]); 222 s on 2 threads.
//   `accelmath sweep fresnel_s --threads 2`: max 0.500001 ulp at x = -2.94114733 (0xc03c3bc2; also at +x);
//     99.999999% correctly rounded (26 results in (0.5, 0.5001]); 197 s on 2 threads.
// (The misrounded results lie within 2e-6 ulp of a rounding midpoint, finer than the binary64
// result's ~1e-13 relative error can resolve.)
// Speed: ~475 Melem/s per core on AVX-512 for either function (64K floats, uniform in [-10, 10] or
// log-uniform in 1e-6..1e6, both signs); docs/fresnel.md.
template <class D, class V>
ACCELMATH_KERNEL ACCELMATH_FRESNEL_INLINE V FresnelC(D d, V x) {
  V c = x, s = x;
  fresnel_impl::FresnelCore<true, false>(d, x, c, s);
  return c;
}

template <class D, class V>
ACCELMATH_KERNEL ACCELMATH_FRESNEL_INLINE V FresnelS(D d, V x) {
  V c = x, s = x;
  fresnel_impl::FresnelCore<false, true>(d, x, c, s);
  return s;
}

template <class D, class V>
ACCELMATH_KERNEL ACCELMATH_FRESNEL_INLINE V Fresnel(D d, V x, V& s_out) {
  V c = x;
  fresnel_impl::FresnelCore<true, true>(d, x, c, s_out);
  return c;
}

}  // namespace accelmath::ACCELMATH_KNS

#endif  // ACCELMATH_KERNELS_FRESNEL_INL_H_ toggle
