// The error function family: erf, erfc, erfcx, normcdf. The only place their algorithms live.
//
// erf runs in float32 lanes (registry eval F32), eight polynomial pieces (Erf, below). The others
// run in binary64 lanes (eval F64): `x` holds a float32 value exactly, the kernel returns a double
// within about 2^-33.4 relative of the exact value (erfcx: 2^-35), and the caller rounds it to
// float32 once (DemoteTo). One rational approximation carries them (coefficients:
// src/kernels/erf_coeffs.h, tools/coeffs/erf.py; each fit's error is measured and printed there):
//   erfcx(a)  = exp(a^2) erfc(a) = P(a)/Q(a) for every a >= 0 up to +inf (degrees 6/7, 2^-35.1
//               relative; a P/Q tends to 1/sqrt(pi), so the asymptote needs no other formula).
// erfc and normcdf are erfcx times e^(-x^2) (resp. e^(-x^2/2); ExpFinite64 of the exp/log family
// with its degree-7 polynomial, kExp64PolyShort, below 2^-34.0 relative: the rational's error leaves
// room for it, and it made erfc and normcdf 1.08-1.11x faster than the degree-9 one erfcx keeps,
// measured on an AVX-512 Zen 4 with AVX3 (its target) and with the AVX2 code forced there, and
// 1.03-1.11x on an AVX-512 Intel Xeon with AVX3 and with the AVX2 code forced there; unmeasured
// on a CPU whose best target is AVX2), with x^2 (x^2/2) exact in binary64
// (a float32 squared has 48 significant bits): no cancellation, no argument error, however deep into
// the tail; the results reach the float32 subnormals as binary64 normal numbers and are rounded
// once. Negative arguments use the reflections erfc(-a) = 2 - erfc(a) and erfcx(-a) = 2 e^(a^2) -
// erfcx(a): no cancellation either (the results are >= 1). Each kernel does one division.
// The traps of float32 versions disappear rather than need care: x^2 is exact, normcdf's
// -x/sqrt(2) is formed in binary64 (only erfcx, a slowly varying factor, sees its rounding: 2^-53
// relative) while the exponential takes the exact x^2/2, x 2/sqrt(pi) of a subnormal x is a
// normal binary64 number, and erfcx's a^7 stays finite in binary64 for every float32 a.
// No per-lane branches: regions are selected per lane; a vector none of whose lanes needs a step
// skips it as a whole (each lane's value is the same either way). erf is odd bit for bit (it is
// computed from |x| and takes x's sign; erf(-0) = -0). NaN inputs come out as
// themselves (KeepNaN, last), whatever the lanes computed on the way (Min of a NaN differs between
// targets). Only correctly rounded IEEE operations in a fixed order: the same bits on every
// Highway target and on the scalar lane.
#if defined(ACCELMATH_KERNELS_ERF_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef ACCELMATH_KERNELS_ERF_INL_H_
#undef ACCELMATH_KERNELS_ERF_INL_H_
#else
#define ACCELMATH_KERNELS_ERF_INL_H_
#endif

#include <array>
#include <cstddef>
#include <cstdint>
#include <limits>

#include "kernels/common-inl.h"
#include "kernels/erf_coeffs.h"
#include "kernels/exp_log-inl.h"
#include "kernels/float_bits.h"

// Every function here is forced inline on the host (a kernel left as a call per vector is what GCC
// does with plain `inline` functions this size; see exp_log-inl.h).
#ifndef ACCELMATH_ERF_INLINE
#if defined(__CUDACC__)
#define ACCELMATH_ERF_INLINE
#else
#define ACCELMATH_ERF_INLINE __attribute__((always_inline))
#endif
#endif

namespace accelmath::ACCELMATH_KNS {

namespace erf_impl {

// erfcx(a) = P(a)/Q(a) for finite a >= 0 (kErfcxNum/kErfcxDen, 2^-35.1 relative; P, Q with
// positive coefficients, so each is evaluated to a few 2^-53 relative). NaN stays NaN.
// ErfcxRational2: at a0 and at a1 (y1: a1's), the four Estrin trees one after the other in one
// branch-free block, which the compiler schedules together; ErfcxRational: one vector.
template <class D, class V>
ACCELMATH_KERNEL ACCELMATH_ERF_INLINE V ErfcxRational2(D d, V a0, V a1, V& y1) {
  const V n0 = Estrin(d, a0, coeffs::kErfcxNum());
  const V n1 = Estrin(d, a1, coeffs::kErfcxNum());
  const V q0 = Estrin(d, a0, coeffs::kErfcxDen());
  const V q1 = Estrin(d, a1, coeffs::kErfcxDen());
  y1 = Div(n1, q1);
  return Div(n0, q0);
}
template <class D, class V>
ACCELMATH_KERNEL ACCELMATH_ERF_INLINE V ErfcxRational(D d, V a) {
  V same;
  return ErfcxRational2(d, a, a, same);
}

// erfcx(a) for every a >= 0 up to +inf: ErfcxRational, whose fit holds up to 2^128 (P ~ a^6 and
// Q ~ a^7 stay below 2^900 for every float32 a: no overflow), and +0 for +inf (where P/Q is
// inf/inf). NaN gives +0 here (the callers restore it with KeepNaN).
template <class D, class V>
ACCELMATH_KERNEL ACCELMATH_ERF_INLINE V ErfcxPositive(D d, V a) {
  return IfThenElseZero(Lt(a, Set(d, std::numeric_limits<double>::infinity())), ErfcxRational(d, a));
}

}  // namespace erf_impl

// erf(x) in float32 lanes (the only member that is not in binary64): a = |x| in eight pieces of
// [0, 4), the row k of each table read by one register permute (LookupF, common-inl.h; tables and
// their errors: kErfPiece* of erf_coeffs.h, tools/coeffs/erf.py):
//   k = round(2 max(min(a, 3.9995), 1/4) - 1/2), from the low bits of 2 m + (2^23 - 1/2) (ties to
//     even put a = 1/2 in piece 0); a NaN lane still gets a row (the bits are masked to 0..7);
//   t = a - x_k (exact: Sterbenz), then PieceValue (common-inl.h): z = a^2 in piece 0, t elsewhere,
//   s = t c0 + z (t q + c0lo) + lo = erf(a) - hi, |s| <= 0.22, erf = s + hi (hi = a in piece 0:
//   erf = a + a P_0(a^2), which keeps tiny and subnormal a exact to the rounding of a 2/sqrt(pi) - a).
// The product t c0, the largest part of s, is rounded once, with c0 + c0lo the exact slope to 2^-48:
// the error is the final rounding (0.5 ulp) plus s's (|s| < 1/4: at most 1/8 ulp of the result)
// plus the polynomial's (under 0.03 ulp). From |x| = 3.9995 on the result is 1 (erf there is
// 1 - 1.6e-8, the polynomial is exact to far below the distance to the tie); erf(x) rounds to 1
// from 3.9192059 on, and in between a few floats may give 1 - 2^-24 (within the bound). Odd bit
// for bit (the sign of x is put on the result of |x|): erf(+-0) = +-0, erf(+-inf) = +-1. NaN inputs
// come out as themselves (KeepNaN). Only correctly rounded IEEE float32 operations and permutes:
// the same bits on every target and on the scalar lane.
// Measured: see docs/accuracy.md (`accelmath sweep erf --threads 2`, all 2^32 inputs).
template <class D, class V>
ACCELMATH_KERNEL ACCELMATH_ERF_INLINE V Erf(D d, V x) {
  static constexpr auto kTab = MakePieceTables(coeffs::kErfPieceX(), coeffs::kErfPieceHi(), coeffs::kErfPieceLo(),
                                                coeffs::kErfPieceC0Lo(), coeffs::kErfPiecePoly());
  const RebindToUnsigned<D> du;
  const V a = Abs(x);
  const V ac = Min(a, Set(d, coeffs::kErfPieceClamp));
  const V m = Max(ac, Set(d, 0.25f));
  const auto k = And(BitCast(du, MulAdd(m, Set(d, 2.0f), Set(d, coeffs::kErfPieceMagic))), Set(du, 7u));
  const auto piece0 = RebindMask(d, Eq(k, Zero(du)));
  const V r = PieceValue(d, kTab, k, piece0, ac, Sub(ac, LookupF<3>(d, kTab.x, k)));
  return KeepNaN(x, WithSign(d, r, SignOf(d, x)));
}

// erfc(x) = w = e^(-a^2) erfcx(a) for x >= 0 and 2 - w for x < 0, a = min(|x|, 10.5) (erfc(10.5)
// < 2^-160: +inf and every x beyond give +0 after the rounding; the last non-zero result is at
// x = 10.0541945). a^2 exact, e^(-a^2) by ExpFinite64 (exp_log-inl.h), erfcx by its rational
// (ErfcxRational): the binary64 result is within 2^-33.4 relative down to the last subnormal, rounded once.
// erfc(+-0) = 1, erfc(-inf) = 2 (rounds to 2 from x = -3.8325069 down).
// Measured: max 0.501226 ulp at x = 0x404aa94c (3.16658306); 99.994370% correctly rounded
// (`accelmath sweep erfc --threads 2`, all 2^32 inputs).
// ErfcPair(d, x0, x1, y1): erfc of two vectors, the steps of their chains alternating (the map
// driver's pair, eval-inl.h; TanF32Pair in trig-inl.h says why); Erfc gives it its one vector twice.
// The same bits either way (all 2^32 inputs, AVX3 and the AVX2 code forced on an AVX-512 Zen 5).
// There, as a pair (bench/ab.py, 64K, each build linked once): 1.03-1.05x with the AVX2 code,
// 1.06-1.07x with AVX3 (near that guest's noise: erfcx, unchanged, read 1.00x / 1.04-1.05x);
// NormcdfPair 1.05-1.06x / 1.03-1.04x. Unmeasured on Intel, on a CPU whose best target is AVX2, on
// Arm.
template <class D, class V>
ACCELMATH_KERNEL ACCELMATH_ERF_INLINE V ErfcPair(D d, V x0, V x1, V& y1) {
  using namespace erf_impl;
  const V a0 = Min(Abs(x0), Set(d, coeffs::kErfcClamp));  // a NaN lane's value is overwritten by KeepNaN
  const V a1 = Min(Abs(x1), Set(d, coeffs::kErfcClamp));
  V e1, f1;
  const V e0 = ExpFinite64Pair(d, Mul(Neg(a0), a0), Mul(Neg(a1), a1), coeffs::kExp64PolyShort(), e1);
  const V f0 = ErfcxRational2(d, a0, a1, f1);
  const V w0 = Mul(e0, f0);
  const V w1 = Mul(e1, f1);
  y1 = KeepNaN(x1, IfThenElse(Lt(x1, Zero(d)), Sub(Set(d, 2.0), w1), w1));
  return KeepNaN(x0, IfThenElse(Lt(x0, Zero(d)), Sub(Set(d, 2.0), w0), w0));
}
template <class D, class V>
ACCELMATH_KERNEL ACCELMATH_ERF_INLINE V Erfc(D d, V x) {
  V same;
  return ErfcPair(d, x, x, same);
}

// erfcx(x) = exp(x^2) erfc(x): x >= 0: P(x)/Q(x) (ErfcxPositive: up to 3.4e38 and +inf -> +0, no
// overflow; ~1/(x sqrt(pi)) far out, subnormal from x = 4.8e37 on); x < 0: 2 e^(x^2) - erfcx(|x|)
// (no cancellation: >= 1), x^2 clamped to 100 (every float32 x < -10 overflows anyway: the last
// finite result is at x = -9.38241386; the binary64 2 e^100 rounds to +inf exactly where the
// exact value does, up to the 2^-35 error). e^(x^2) is skipped for a vector with no negative lane.
// erfcx(+-0) = 1, erfcx(-inf) = +inf.
// Measured: max 0.500453 ulp at x = 0x4810d136 (148292.844); 99.991533% correctly rounded
// (`accelmath sweep erfcx --threads 2`, all 2^32 inputs).
template <class D, class V>
ACCELMATH_KERNEL ACCELMATH_ERF_INLINE V Erfcx(D d, V x) {
  using namespace erf_impl;
  const V pos = ErfcxPositive(d, Abs(x));
  const auto neg = Lt(x, Zero(d));
  if (AllFalse(d, neg)) return KeepNaN(x, pos);
  const V lim = Set(d, coeffs::kErfcxExpClamp);
  V s = Mul(x, x);
  s = IfThenElse(Gt(s, lim), lim, s);
  const V e = ExpFinite64(d, s);
  return KeepNaN(x, IfThenElse(neg, Sub(Add(e, e), pos), pos));
}

// normcdf(x) = erfc(-x/sqrt(2))/2: w = e^(-x^2/2) erfcx(a/sqrt(2))/2, a = min(|x|, 14.875),
// normcdf = w for x < 0, 1 - w for x >= 0 (w <= 1/2). x^2/2 is exact (the exponential sees no
// rounding of -x/sqrt(2)); a/sqrt(2) is rounded in binary64 (2^-53 relative, which moves erfcx by
// at most about as much). Below -14.875 the result is < 2^-160 (+0 after the rounding; the last
// non-zero is at x = -14.1701851), -inf -> +0, +inf -> 1 (rounds to 1 from 5.41998339 on),
// normcdf(+-0) = 1/2.
// Measured: max 0.501198 ulp at x = 0xc00c2ea0 (-2.19034576); 99.994534% correctly rounded
// (`accelmath sweep normcdf --threads 2`, all 2^32 inputs).
// NormcdfPair: two vectors at once, as ErfcPair; Normcdf gives it its one vector twice.
template <class D, class V>
ACCELMATH_KERNEL ACCELMATH_ERF_INLINE V NormcdfPair(D d, V x0, V x1, V& y1) {
  using namespace erf_impl;
  const V a0 = Min(Abs(x0), Set(d, coeffs::kNormcdfClamp));  // a NaN lane's value is overwritten by KeepNaN
  const V a1 = Min(Abs(x1), Set(d, coeffs::kNormcdfClamp));
  const V half = Set(d, 0.5);
  V e1, f1;
  const V e0 = ExpFinite64Pair(d, Mul(Mul(a0, a0), Set(d, -0.5)), Mul(Mul(a1, a1), Set(d, -0.5)),
                               coeffs::kExp64PolyShort(), e1);
  const V f0 = ErfcxRational2(d, Mul(a0, Set(d, coeffs::kErfRsqrt2)), Mul(a1, Set(d, coeffs::kErfRsqrt2)), f1);
  const V w0 = Mul(Mul(e0, half), f0);
  const V w1 = Mul(Mul(e1, half), f1);
  y1 = KeepNaN(x1, IfThenElse(Lt(x1, Zero(d)), w1, Sub(Set(d, 1.0), w1)));
  return KeepNaN(x0, IfThenElse(Lt(x0, Zero(d)), w0, Sub(Set(d, 1.0), w0)));
}
template <class D, class V>
ACCELMATH_KERNEL ACCELMATH_ERF_INLINE V Normcdf(D d, V x) {
  V same;
  return NormcdfPair(d, x, x, same);
}

}  // namespace accelmath::ACCELMATH_KNS

#endif  // ACCELMATH_KERNELS_ERF_INL_H_ toggle
