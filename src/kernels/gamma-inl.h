// The gamma family: tgamma, lgamma. The only place their algorithms live.
//
// Both run in binary64 lanes (registry eval F64): `x` holds a float32 value exactly, the kernel
// returns a double within about 1e-13 relative of the exact value (lgamma: within 1e-13 absolute
// where |lgamma| >= 2^-9, and within about 1e-15 relative inside the windows around its zeros), and
// the driver rounds it to float32 once (DemoteTo, subnormal results included). So every result is
// the exact value correctly rounded unless that value lies within ~1e-5 ulp of a rounding boundary.
// Coefficients, tables and thresholds: src/kernels/gamma_coeffs.h (tools/coeffs/gamma.py), where
// each polynomial's error is measured.
//
// Shared pieces (binary64):
//   z = x (x >= 0, -0 included) or 1 - x (x < 0, the reflection), then the shift: for z < 8,
//   w = z + 8 and P = z (z+1) ... (z+7) = q (q+6)(q+10)(q+12), q = z (z+7) (every factor positive:
//   no cancellation, about 10 roundings of 2^-53); for z >= 8, w = z and P = 1. So
//   Gamma(z) = Gamma(w) / P and lgamma(z) = lgamma(w) - ln P with w >= 8, where Stirling's series
//   is short: lgamma(w) = ((w - 1/2) ln w - w) + (ln(2 pi)/2 + t S(t^2)), t = 1/w (kGammaStirlingPoly,
//   2^-54 relative to the correction t S), the first bracket one fma. ln is LogOfNormal
//   (src/kernels/log-inl.h) with the longer table kGammaAtanhPoly (2^-60 relative): about 2^-52
//   relative. sin(pi x) (reflection): x = n + r, n = round(x) from x + 1.5 2^52 (its low mantissa
//   bit is n's parity), r = x - n exact, sin(pi x) = (-1)^n r P(r^2) (kGammaSinPiPoly, 2^-54.5).
// No per-lane branches: every lane runs the same operations, regions are chosen per lane with
// selects; a whole-vector test skips work no lane needs (each lane's value is the same either way).
// Only correctly rounded IEEE operations, table reads and integer/bit operations in a fixed order:
// the same bits on every Highway target and on the scalar lane.
#if defined(ACCELMATH_KERNELS_GAMMA_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef ACCELMATH_KERNELS_GAMMA_INL_H_
#undef ACCELMATH_KERNELS_GAMMA_INL_H_
#else
#define ACCELMATH_KERNELS_GAMMA_INL_H_
#endif

#include <cstdint>
#include <limits>

#include "kernels/common-inl.h"
#include "kernels/exp_log-inl.h"
#include "kernels/float_bits.h"
#include "kernels/gamma_coeffs.h"
#include "kernels/log-inl.h"

// Forced inline on the host (see exp_log-inl.h: GCC leaves kernels this size as calls otherwise).
#ifndef ACCELMATH_GAMMA_INLINE
#if defined(__CUDACC__)
#define ACCELMATH_GAMMA_INLINE
#else
#define ACCELMATH_GAMMA_INLINE __attribute__((always_inline))
#endif
#endif

namespace accelmath::ACCELMATH_KNS {

namespace gamma_impl {

using kernels::FloatBits;
inline constexpr double kInf = std::numeric_limits<double>::infinity();

// ln a for a positive normal binary64 a (about 2^-52 relative; LogOfNormal with kGammaAtanhPoly).
template <class D, class V>
ACCELMATH_KERNEL ACCELMATH_GAMMA_INLINE V Ln(D d, V a) {
  return LogOfNormal(d, a, coeffs::kGammaAtanhPoly(), coeffs::kExpLn2);
}

// The shift: w = z + 8 and P = z (z+1) ... (z+7) where z < 8, else w = z and P = 1 (z >= -0; z = -0
// gives P = -0, z = +0 gives P = +0).
template <class D, class V>
ACCELMATH_KERNEL ACCELMATH_GAMMA_INLINE V Shift(D d, V z, V& p) {
  const V shift = Set(d, coeffs::kGammaShift);
  const auto small = Lt(z, shift);
  const V q = Mul(z, Add(z, Set(d, 7.0)));
  const V p4 = Mul(Mul(q, Add(q, Set(d, 6.0))), Mul(Add(q, Set(d, 10.0)), Add(q, Set(d, 12.0))));
  p = IfThenElse(small, p4, Set(d, 1.0));
  return IfThenElse(small, Add(z, shift), z);
}

// lgamma(w) for w >= 8 (finite), given ln w: ((w - 1/2) ln w - w) (one fma) + (ln(2 pi)/2 + t S(t^2)).
template <class D, class V>
ACCELMATH_KERNEL ACCELMATH_GAMMA_INLINE V Stirling(D d, V w, V lnw) {
  const V t = Div(Set(d, 1.0), w);
  const V corr = MulAdd(t, Estrin(d, Mul(t, t), coeffs::kGammaStirlingPoly()), Set(d, coeffs::kGammaHalfLn2Pi));
  return Add(MulAdd(Sub(w, Set(d, 0.5)), lnw, Neg(w)), corr);
}

// sin(pi x) for |x| < 2^51: x = n + r, n = round(x) (ties to even) held in the low bits of
// kd = x + 1.5 2^52, r = x - n exact (|r| <= 1/2), sin(pi x) = (-1)^n r P(r^2), the sign from n's
// parity (kd's lowest mantissa bit, moved to the sign bit).
template <class D, class V>
ACCELMATH_KERNEL ACCELMATH_GAMMA_INLINE V SinPiOf(D d, V x) {
  const RebindToUnsigned<D> du;
  const V shift = Set(d, coeffs::kExpShift);
  const V kd = Add(x, shift);
  const V r = Sub(x, Sub(kd, shift));
  const V s = Mul(r, Estrin(d, Mul(r, r), coeffs::kGammaSinPiPoly()));
  return BitCast(d, Xor(BitCast(du, s), ShiftLeft<63>(BitCast(du, kd))));
}

// lgamma in the windows around its zeros, for the lanes inside one (the others keep y):
//   |x - 1| <= 2^-6: (x - 1) P1(x - 1); |x - 2| <= 2^-6: (x - 2) P2(x - 2) (kLgammaNear1Poly,
//   kLgammaNear2Poly, 2^-56; x - 1, x - 2 exact, so lgamma(1) = lgamma(2) = +0);
//   the 16 zeros x0 in (-10, -2), two in each (-n-1, -n), n = 2..9: entry i = 2 (n - 2) + side
//   (n = floor(-x), side 1 where x + n <= -1/2, i.e. the half next to -n-1), x0 = hi_i + lo_i,
//   t = (x - hi_i) - lo_i (x - hi_i exact by Sterbenz inside the window), lgamma = t C_i(t), C_i the
//   Taylor polynomial of degree 6 (kLgammaZeroTaylor, 2^-50.5 on the window), used where |t| <= r_i
//   (|psi(x0)| r_i = 2^-8: |lgamma| <= 2^-8 (1 + 2^-6) there). Table reads: GatherIndex (lanes
//   outside (-10, -2) read entry 0 and do not use it).
template <class D, class V>
ACCELMATH_KERNEL ACCELMATH_GAMMA_INLINE V LgammaNearZeros(D d, V x, V y) {
  static constexpr auto kHi = coeffs::kLgammaZeroHi();
  static constexpr auto kLo = coeffs::kLgammaZeroLo();
  static constexpr auto kRadius = coeffs::kLgammaZeroRadius();
  static constexpr auto kTaylor = coeffs::kLgammaZeroTaylor();
  constexpr int kN = static_cast<int>(kHi.size());
  static_assert(kN == 16 && kTaylor.size() == static_cast<size_t>(kN * coeffs::kLgammaZeroTerms));
  const RebindToUnsigned<D> du;
  const RebindToSigned<D> di;
  const V one = Set(d, 1.0), two = Set(d, 2.0);
  const V radius = Set(d, coeffs::kLgammaNearRadius);
  const V t1 = Sub(x, one);
  const V t2 = Sub(x, two);
  // t P(t) + 0: +0 at t = 0 (lgamma(1) = +0, not -0 = 0 * P(0) with P(0) = -0.577)
  y = IfThenElse(Le(Abs(t1), radius), MulAdd(t1, Estrin(d, t1, coeffs::kLgammaNear1Poly()), Zero(d)), y);
  y = IfThenElse(Le(Abs(t2), radius), MulAdd(t2, Estrin(d, t2, coeffs::kLgammaNear2Poly()), Zero(d)), y);
  const auto in_range = And(Gt(x, Set(d, -10.0)), Lt(x, Neg(two)));
  const V n = Floor(Neg(x));
  const V side = IfThenElseZero(Le(Add(x, n), Set(d, -0.5)), one);
  const V entry = IfThenElseZero(in_range, MulAdd(n, two, Sub(side, Set(d, 4.0))));  // 2 (n - 2) + side
  // the integer entry (0..15) from the bits of entry + 2^52
  const auto idx = BitCast(di, And(BitCast(du, Add(entry, Set(d, FloatBits<double>::kMagic))),
                                   Set(du, uint64_t{kN - 1})));
  const V t = Sub(Sub(x, GatherIndex(d, kHi.data(), idx)), GatherIndex(d, kLo.data(), idx));
  const auto inside = And(in_range, Le(Abs(t), GatherIndex(d, kRadius.data(), idx)));
  constexpr int kTerms = coeffs::kLgammaZeroTerms;
  V acc = GatherIndex(d, kTaylor.data() + kN * (kTerms - 1), idx);
  for (int k = kTerms - 2; k >= 0; --k) acc = MulAdd(acc, t, GatherIndex(d, kTaylor.data() + kN * k, idx));
  return IfThenElse(inside, Mul(t, acc), y);
}

}  // namespace gamma_impl

// Tgamma(d, x) = Gamma(x).
//   x >= -0: z = x; x < 0: z = 1 - x (Gamma(x) = pi / (sin(pi x) Gamma(1 - x))). z is clamped to
//   64 (kTgammaClamp: Gamma(64) > 2^128, and for x < -63 both the clamped and the true result are
//   below 2^-150 in magnitude). Shift to w >= 8 (P), Gamma(w) = e^a with a = lgamma(w) by Stirling
//   (a <= 202; its absolute error, about 1e-13, is the result's relative error), e^a by
//   ExpFinite64 (exp_log-inl.h).
//   Result: E/P for x >= -0, pi P / (sin(pi x) E) for x < 0, one division.
//   Overflow: the double result rounds to +inf above the last finite input 0x1.18521ep+5
//   (35.0400963); negative non-integers from -41.00004196 up give nonzero results (subnormal ones
//   rounded once, by the driver), below that +-0 with the sign of sin(pi x).
//   Specials: +-0 -> +-inf (P = +-0: E/P), tiny x -> 1/x (+inf below 2^-128); +inf -> +inf;
//   negative integers and -inf -> NaN (every float below -2^23 is an integer); NaN -> NaN.
//   Measured: max 0.500000 ulp at x = 0.13878043 (0x3e0e1c75); 99.999938% correctly rounded, 2644
//   results in (0.5, 0.5001] ulp (`accelmath sweep tgamma --threads 2`, all 2^32 inputs; with a
//   2^-56 exp it was 99.999999%: ExpFinite64's 2^-45.6 adds to Stirling's 1e-13).
template <class D, class V>
ACCELMATH_KERNEL ACCELMATH_GAMMA_INLINE V Tgamma(D d, V x) {
  const V one = Set(d, 1.0);
  const auto reflect = Lt(x, Zero(d));
  const V z = Min(IfThenElse(reflect, Sub(one, x), x), Set(d, coeffs::kTgammaClamp));
  V p;
  const V w = gamma_impl::Shift(d, z, p);
  const V e = ExpFinite64(d, gamma_impl::Stirling(d, w, gamma_impl::Ln(d, w)));
  V y;
  if (AllFalse(d, reflect)) {
    y = Div(e, p);
  } else {
    const V s = gamma_impl::SinPiOf(d, x);
    const V num = IfThenElse(reflect, Mul(Set(d, coeffs::kGammaPi), p), e);
    const V den = IfThenElse(reflect, Mul(s, e), p);
    y = Div(num, den);
    const auto neg_int = And(reflect, Eq(Round(x), x));
    y = IfThenElse(neg_int, Set(d, kCanonicalNaN<double>), y);
  }
  return KeepNaN(x, y);
}

// Lgamma(d, x) = ln |Gamma(x)|.
//   x >= -0: z = x; x < 0: z = 1 - x (lgamma(x) = ln(pi / |sin(pi x)|) - lgamma(1 - x)). Shift to
//   w >= 8 (P), St = lgamma(w) by Stirling (w up to 3.4e38: no clamp), then one more logarithm,
//   L = ln P (x >= 0) or ln(pi P / |sin(pi x)|) (x < 0), and lgamma = St - L resp. L - St (a vector
//   with every lane at z >= 8 and x >= 0 skips L: there L = ln 1 = 0 exactly).
//   The general formula's absolute error is about 1e-13 where its terms are O(1..100): fine in
//   relative terms except near the zeros of lgamma, at 1, 2 and in every (-n-1, -n), n >= 2, where it
//   cancels. So a vector where some lane's result is below 2^-5 in magnitude (kLgammaTrigger) takes
//   LgammaNearZeros: windows |x - 1|, |x - 2| <= 2^-6 with polynomials in x - 1, x - 2, and windows
//   |x - x0| <= r around each of the 16 zeros x0 in (-10, -2) (x0 as a double-double and the Taylor
//   polynomial of lgamma around it; |lgamma| <= 2^-8 inside). Outside the windows |lgamma| >= 2^-9,
//   so 1e-13 absolute is below 1e-10 relative. The zeros below -10 lie within 0.29 ulp (and then
//   less) of their poles: no float comes near them (the floats next to those poles have
//   |lgamma| >= 1.2; checked by tools/coeffs/gamma.py).
//   Overflow: the double result rounds to +inf above the last finite input 0x1.895f1ap+121
//   (4.085e36).
//   Specials: lgamma(1) = lgamma(2) = +0; x = 0, -0 and the negative integers (every float below
//   -2^23) -> +inf; +-inf -> +inf; NaN -> NaN; tiny x -> -ln|x|.
//   Measured: max 0.500001 ulp at x = 1.8638941 (0x3fee9415); 100.000000% correctly rounded (11
//   results above 0.5 ulp; `accelmath sweep lgamma --threads 2`, all 2^32 inputs).
template <class D, class V>
ACCELMATH_KERNEL ACCELMATH_GAMMA_INLINE V Lgamma(D d, V x) {
  const V zero = Zero(d), one = Set(d, 1.0);
  const auto reflect = Lt(x, zero);
  const V z = IfThenElse(reflect, Sub(one, x), x);
  V p;
  const V w = gamma_impl::Shift(d, z, p);
  const V st = gamma_impl::Stirling(d, w, gamma_impl::Ln(d, w));
  V y;
  if (AllFalse(d, Or(reflect, Lt(z, Set(d, coeffs::kGammaShift))))) {
    y = st;
  } else if (AllFalse(d, reflect)) {
    y = Sub(st, gamma_impl::Ln(d, p));
  } else {
    const V q = IfThenElse(reflect, Div(Mul(Set(d, coeffs::kGammaPi), p), Abs(gamma_impl::SinPiOf(d, x))), p);
    const V l = gamma_impl::Ln(d, q);
    y = IfThenElse(reflect, Sub(l, st), Sub(st, l));
  }
  if (!AllFalse(d, Lt(Abs(y), Set(d, coeffs::kLgammaTrigger)))) y = gamma_impl::LgammaNearZeros(d, x, y);
  const auto pole = Or(And(Le(x, zero), Eq(Round(x), x)), Eq(x, Set(d, gamma_impl::kInf)));  // also +-0, -inf
  y = IfThenElse(pole, Set(d, gamma_impl::kInf), y);
  return KeepNaN(x, y);
}

}  // namespace accelmath::ACCELMATH_KNS

#endif  // ACCELMATH_KERNELS_GAMMA_INL_H_ toggle
