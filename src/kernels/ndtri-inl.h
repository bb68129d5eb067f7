// ndtri: the inverse of the standard normal CDF. The only place its algorithms live.
//
// ndtri(p) = x with P(Z <= x) = p, Z ~ N(0, 1); ndtri(p) = sqrt(2) erfinv(2p - 1).
// Special values (both variants): p = +-0 -> -inf; p = 1 -> +inf; p < 0, p > 1, NaN, +-inf -> NaN;
// p = 0.5 -> +0. Symmetry ndtri(1 - p) = -ndtri(p) is exact wherever 1 - p is exact in float32.
// No per-lane branches: masks pick the region and special values are written last. The default
// kernel is a Split row (accelmath/ops/erf_normal.def): NdtriIsCommon picks the centre lanes,
// NdtriCommon / NdtriRare compute the centre / tails; a region no lane of a vector needs is skipped
// as a whole (drivers/eval-inl.h), and the array driver evaluates the tails on compacted lanes
// (drivers/split-inl.h); each lane's value is the same pure function on every path.
#if defined(ACCELMATH_KERNELS_NDTRI_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef ACCELMATH_KERNELS_NDTRI_INL_H_
#undef ACCELMATH_KERNELS_NDTRI_INL_H_
#else
#define ACCELMATH_KERNELS_NDTRI_INL_H_
#endif

#include <limits>

#include "kernels/common-inl.h"
#include "kernels/log-inl.h"
#include "kernels/ndtri_coeffs.h"

namespace accelmath::ACCELMATH_KNS {

// Overwrites the lanes whose p is not in (0, 1): 0 -> -inf, 1 -> +inf, the rest (also NaN) -> NaN.
template <class D, class V>
ACCELMATH_KERNEL V NdtriSpecials(D d, V p, V x) {
  using T = TFromD<D>;
  const V zero = Zero(d);
  const V one = Set(d, T(1));
  x = IfThenElse(Eq(p, zero), Set(d, -std::numeric_limits<T>::infinity()), x);
  x = IfThenElse(Eq(p, one), Set(d, std::numeric_limits<T>::infinity()), x);
  return IfThenElse(And(Ge(p, zero), Le(p, one)), x, Set(d, std::numeric_limits<T>::quiet_NaN()));
}

// Default ndtri, evaluated in binary64 lanes: `p` holds float32 values (exactly), the result is
// rounded to float32 by the caller, once. The tails are accurate to ~1e-15 relative and the
// centre to 3.2e-10, so the float32 result is within 0.5 + 0.006 ulp of the exact value.
// Measured over all 1,065,353,217 float32 p in [0, 1] (`accelmath sweep ndtri`, docs/accuracy.md):
// max 0.503735 ulp at p = 0.0770828202; 99.996% correctly rounded.
//   Centre, |p - 1/2| <= 0.425 (|u| <= 0.85, u = 2p - 1 exact):
//     x = u P(u^2 - shift), P the degree-15 Chebyshev interpolant of sqrt(2) erfinv(u)/u in
//     w = u^2 (rel. error 3.2e-10, tools/coeffs/ndtri.py), by Estrin's scheme. Odd in u, so the
//     symmetry is exact.
//   Tails: t = min(p, 1 - p) (exact), r = sqrt(-ln t) (ln: LogOfNormal in binary64, where every
//     float32 t, subnormals included, is normal); x = -R(r) for p < 1/2, +R(r) otherwise, with
//     R the AS241 (Wichura 1988) rationals in r - 1.6 for r <= 5 and in r - 5 beyond
//     (rel. error < 1e-16), selected per lane in one evaluation.
template <class D, class V>
ACCELMATH_KERNEL auto NdtriIsCommon(D d, V p) {
  return Le(Abs(Sub(p, Set(d, 0.5))), Set(d, 0.425));
}

// The centre, valid where NdtriIsCommon (no special values there).
template <class D, class V>
ACCELMATH_KERNEL V NdtriCommon(D d, V p) {
  const V q = Sub(p, Set(d, 0.5));
  const V u = Add(q, q);
  return Mul(u, Estrin(d, MulSub(u, u, Set(d, coeffs::kNdtriCentreShift)), coeffs::kNdtriCentre()));
}

// The tails, valid where !NdtriIsCommon; includes every special value.
template <class D, class V>
ACCELMATH_KERNEL V NdtriRare(D d, V p) {
  const V t = Min(p, Sub(Set(d, 1.0), p));
  const V r = Sqrt(Neg(LogOfNormal(d, t, coeffs::kLogAtanh(), coeffs::kLn2)));
  const auto near = Le(r, Set(d, 5.0));
  const V s = Sub(r, IfThenElse(near, Set(d, 1.6), Set(d, 5.0)));
  const V num = EstrinSelect(d, near, s, coeffs::kAs241NumA(), coeffs::kAs241NumB());
  const V den = EstrinSelect(d, near, s, coeffs::kAs241DenA(), coeffs::kAs241DenB());
  const V tail = Div(num, den);
  return NdtriSpecials(d, p, IfThenElse(Lt(p, Set(d, 0.5)), Neg(tail), tail));
}

// The proposal's configuration ("taskbook"), all in float32 lanes, reproduced as written:
//   Centre |u| <= 0.85, u = 2p - 1 (one fma): x = sqrt(2) u (c0 + u^2 (c1 + ... + u^2 c23)), the
//     24-term Maclaurin series of erfinv (truncation error 1.1e-5 relative at |u| = 0.85).
//   Tails: t = min(p, 1 - p), r = sqrt(-ln t) with ln in float32; for t < 2^-126,
//     ln t = ln(t 2^64) - 64 ln 2 keeps the log in its normal range; AS241 rationals with
//     float32 coefficients in r - 1.6 (r <= 5) and r - 5 (r > 5); sign from p < 1/2.
// It passes the dual-threshold 1e-4 standard but is far from float32 accuracy near |u| = 0.85;
// measured errors are in docs/accuracy.md (`accelmath sweep ndtri_taskbook`).
template <class D, class V>
ACCELMATH_KERNEL V NdtriTaskbook(D d, V p) {
  static_assert(sizeof(TFromD<D>) == 4, "the taskbook variant runs in float32 lanes");
  const V one = Set(d, 1.0f);
  const V half = Set(d, 0.5f);
  const V u = MulSub(p, Set(d, 2.0f), one);
  const V centre = Mul(Mul(Set(d, coeffs::kSqrt2F), u), Horner(d, Mul(u, u), coeffs::kTaskbookSeries()));

  const V t = Min(p, Sub(one, p));
  const auto tiny = Lt(t, Set(d, 0x1p-126f));
  const V t_scaled = IfThenElse(tiny, Mul(t, Set(d, 0x1p64f)), t);
  const V ln_t = Sub(LogOfNormal(d, t_scaled, coeffs::kLogAtanhF(), coeffs::kLn2F),
                     IfThenElseZero(tiny, Set(d, coeffs::k64Ln2F)));
  const V r = Sqrt(Neg(ln_t));
  const auto near = Le(r, Set(d, 5.0f));
  const V s = Sub(r, IfThenElse(near, Set(d, 1.6f), Set(d, 5.0f)));
  const V num = EstrinSelect(d, near, s, coeffs::kAs241NumAF(), coeffs::kAs241NumBF());
  const V den = EstrinSelect(d, near, s, coeffs::kAs241DenAF(), coeffs::kAs241DenBF());
  const V tail = Div(num, den);

  const V x = IfThenElse(Le(Abs(u), Set(d, 0.85f)), centre, IfThenElse(Lt(p, half), Neg(tail), tail));
  return NdtriSpecials(d, p, x);
}

// erfinv, erfcinv: PLACEHOLDER stubs until the work lands.
template <class D, class V>
ACCELMATH_KERNEL V Erfinv(D /*d*/, V x) {
  return x;
}
template <class D, class V>
ACCELMATH_KERNEL V Erfcinv(D /*d*/, V x) {
  return x;
}

}  // namespace accelmath::ACCELMATH_KNS

#endif  // ACCELMATH_KERNELS_NDTRI_INL_H_ toggle
