// The basic operations and exponent bits: fma, fabs, trunc, floor, ceil, rint, round, fmin, fmax,
// copysign, isnan, isinf, isfinite, logb, ilogb, frexp, ldexp. The only place their algorithms live.
//
// Every function here is exact: its result is the exactly rounded value (fma), or an exactly
// representable one (the rest), bit for bit, on every Highway target and on the scalar lane. So each
// comment gives the formula and the special cases, and the measured error is "0 mismatches" against
// an independent reference over every float32 input (unary) or a structured sample (docs/accuracy.md).
// Measured (`accelmath sweep F --threads 2`, AVX3 on Zen 5): 0 mismatches for every function, bit for
// bit: fabs, trunc, floor, ceil, rint, round, isnan, isinf, isfinite, logb, ilogb, frexp over all 2^32
// inputs; fmin, fmax, copysign on 4.8e9 structured pairs; fma on 4.6e9 triples (2^28 of them near
// cancellation); ldexp on 4.3e9 (x, n) pairs.
// No per-lane branches. A NaN input comes out as that NaN, quieted (x + x), by a select (see
// KeepNaN): which operand a SIMD instruction propagates, or whether a library call quiets a signaling
// NaN, differs between paths. A NaN made from numbers (fma(inf, 0, z), inf - inf) is the canonical
// quiet NaN 0x7fc00000, also by a select.
#if defined(ACCELMATH_KERNELS_BASIC_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef ACCELMATH_KERNELS_BASIC_INL_H_
#undef ACCELMATH_KERNELS_BASIC_INL_H_
#else
#define ACCELMATH_KERNELS_BASIC_INL_H_
#endif

#include <cstdint>
#include <limits>

#include "kernels/common-inl.h"
#include "kernels/float_bits.h"

namespace accelmath::ACCELMATH_KNS {

namespace basic_impl {

using kernels::FloatBits;
template <typename T>
inline constexpr T kInf = std::numeric_limits<T>::infinity();

// The sign bit of a float32 or binary64 lane.
template <typename T>
inline constexpr typename FloatBits<T>::Bits kSign = typename FloatBits<T>::Bits{1} << (sizeof(T) * 8 - 1);
// Every bit but the sign.
template <typename T>
inline constexpr typename FloatBits<T>::Bits kMagnitude = static_cast<typename FloatBits<T>::Bits>(~kSign<T>);

// The bits of a with its sign replaced by that of s.
template <class D, class V>
ACCELMATH_KERNEL V CopySignBits(D d, V a, V s) {
  const RebindToUnsigned<D> du;
  const auto sign = Set(du, kSign<TFromD<D>>);
  return BitCast(d, Or(And(BitCast(du, a), Set(du, kMagnitude<TFromD<D>>)), And(BitCast(du, s), sign)));
}

// The unbiased exponent field of a binary64 value a > 0 (the widened float32: always normal in
// binary64), as a binary64 integer: e = field - 1023, exact. The field (< 2^11) is OR-ed into the
// mantissa of 2^52, and 2^52 subtracted.
template <class D, class V>
ACCELMATH_KERNEL V ExponentOf(D d, V a) {
  const RebindToUnsigned<D> du;
  const auto field = ShiftRight<FloatBits<double>::kMantissaBits>(BitCast(du, a));
  const V magic = Set(d, FloatBits<double>::kMagic);
  return Sub(Sub(BitCast(d, Or(field, BitCast(du, magic))), magic), Set(d, 1023.0));
}

}  // namespace basic_impl

// fma(x, y, z) = x y + z rounded once (float32 lanes: a native fused multiply-add on every target,
// std::fma on the scalar lane). NaN inputs: x, else y, else z, quieted; inf 0 or inf - inf: the
// canonical NaN.
template <class D, class V>
ACCELMATH_KERNEL V FmaFn(D d, V x, V y, V z) {
  using namespace basic_impl;
  const V r = CanonicalNaN(d, MulAdd(x, y, z));
  return KeepNaN(x, KeepNaN(y, KeepNaN(z, r)));
}

// fabs(x): the sign bit cleared (a NaN keeps its payload and is not quieted, as IEEE 754 abs). A bit
// operation, not Abs: CUDA's abs.f32 returns its own NaN for a NaN input (seen on an H200), x86's
// and-mask does not.
template <class D, class V>
ACCELMATH_KERNEL V FabsFn(D d, V x) {
  using namespace basic_impl;
  const RebindToUnsigned<D> du;
  return BitCast(d, And(BitCast(du, x), Set(du, kMagnitude<TFromD<D>>)));
}

// trunc, floor, ceil, rint (ties to even): one rounding instruction each; zeros keep their sign
// (trunc(-0.5) = -0, ceil(-0.5) = -0); values of magnitude >= 2^23 and infinities are returned as
// they are.
template <class D, class V>
ACCELMATH_KERNEL V TruncFn(D /*d*/, V x) {
  return KeepNaN(x, Trunc(x));
}
template <class D, class V>
ACCELMATH_KERNEL V FloorFn(D /*d*/, V x) {
  return KeepNaN(x, Floor(x));
}
template <class D, class V>
ACCELMATH_KERNEL V CeilFn(D /*d*/, V x) {
  return KeepNaN(x, Ceil(x));
}
template <class D, class V>
ACCELMATH_KERNEL V RintFn(D /*d*/, V x) {
  return KeepNaN(x, Round(x));
}

// round(x), ties away from zero: t = trunc(x), and t + copysign(1, x) where |x - t| >= 1/2. x - t is
// exact (t is x with low bits cleared), so 0.49999997 gives 0 (floor(x + 0.5) would give 1) and
// 8388607.5 gives 8388608. Zeros keep their sign: round(-0.4) = -0. Infinities: x - t is NaN, the
// comparison false, t = x.
template <class D, class V>
ACCELMATH_KERNEL V RoundFn(D d, V x) {
  using namespace basic_impl;
  const V t = Trunc(x);
  const V away = Add(t, CopySignBits(d, Set(d, 1.0f), x));
  return KeepNaN(x, IfThenElse(Ge(Abs(Sub(x, t)), Set(d, 0.5f)), away, t));
}

// fmin(x, y) and fmax(x, y) as C23 fminimum_num / fmaximum_num (IEEE 754-2019 minimumNumber /
// maximumNumber): the smaller (larger) value; -0 is below +0 (for equal operands the OR of their
// bits gives -0 for fmin, the AND +0 for fmax, and the value itself otherwise); one NaN operand
// gives the other operand; two give x quieted. C99's fminf/fmaxf and glibc leave the order of
// zeros unspecified; SIMD min/max instructions return the second operand for a NaN.
template <bool kMax, class D, class V>
ACCELMATH_KERNEL V MinMaxNum(D d, V x, V y) {
  const RebindToUnsigned<D> du;
  V r = IfThenElse(kMax ? Gt(x, y) : Lt(x, y), x, y);
  const auto bx = BitCast(du, x), by = BitCast(du, y);
  r = IfThenElse(Eq(x, y), BitCast(d, kMax ? And(bx, by) : Or(bx, by)), r);
  r = IfThenElse(Eq(x, x), r, y);
  r = IfThenElse(Eq(y, y), r, x);
  return KeepNaN(r, r);
}
template <class D, class V>
ACCELMATH_KERNEL V FminFn(D d, V x, V y) {
  return MinMaxNum<false>(d, x, y);
}
template <class D, class V>
ACCELMATH_KERNEL V FmaxFn(D d, V x, V y) {
  return MinMaxNum<true>(d, x, y);
}

// copysign(x, y): x's bits with y's sign bit (also for NaN x or y; nothing is quieted).
template <class D, class V>
ACCELMATH_KERNEL V CopysignFn(D d, V x, V y) {
  return basic_impl::CopySignBits(d, x, y);
}

// Classification (shape Predicate): masks, written as uint8 1/0 by the driver. Ordered comparisons
// are false for NaN: x == x is false exactly for NaN, |x| < inf exactly for finite x.
template <class D, class V>
ACCELMATH_KERNEL auto IsNanFn(D /*d*/, V x) {
  return Not(Eq(x, x));
}
template <class D, class V>
ACCELMATH_KERNEL auto IsInfFn(D d, V x) {
  return Eq(Abs(x), Set(d, basic_impl::kInf<float>));
}
template <class D, class V>
ACCELMATH_KERNEL auto IsFiniteFn(D d, V x) {
  return Lt(Abs(x), Set(d, basic_impl::kInf<float>));
}

// logb(x) = floor(log2 |x|) (float32 lanes): the exponent field of |x| minus 127; a subnormal |x| is
// first scaled by 2^24 (exact) and 24 taken off. logb(+-0) = -inf, logb(+-inf) = +inf, NaN stays
// NaN. Every step is exact.
template <class D, class V>
ACCELMATH_KERNEL V LogbFn(D d, V x) {
  using namespace basic_impl;
  const RebindToUnsigned<D> du;
  const RebindToSigned<D> di;
  const V a = Abs(x);
  const auto sub = Lt(a, Set(d, 0x1p-126f));
  const V scaled = IfThenElse(sub, Mul(a, Set(d, 0x1p24f)), a);
  const auto field = BitCast(di, ShiftRight<FloatBits<float>::kMantissaBits>(BitCast(du, scaled)));
  const V e = Sub(ConvertTo(d, field), IfThenElse(sub, Set(d, 127.0f + 24.0f), Set(d, 127.0f)));
  const V inf = Set(d, basic_impl::kInf<float>);
  V r = IfThenElse(Eq(a, Zero(d)), Neg(inf), e);
  r = IfThenElse(Eq(a, inf), inf, r);
  return KeepNaN(x, r);
}

// ilogb(x) (shape ToInt32, binary64 lanes): the exponent of |x| (normal in binary64 for every
// float32), as a binary64 integer the driver converts to int32. ilogb(+-0) = ilogb(NaN) = INT_MIN,
// ilogb(+-inf) = INT_MAX (glibc's FP_ILOGB0, FP_ILOGBNAN; the CUDA math API's values).
template <class D, class V>
ACCELMATH_KERNEL V IlogbFn(D d, V x) {
  using namespace basic_impl;
  const V a = Abs(x);
  V r = ExponentOf(d, a);
  r = IfThenElse(Eq(a, Set(d, kInf<double>)), Set(d, 2147483647.0), r);
  return IfThenElse(And(Eq(x, x), Not(Eq(a, Zero(d)))), r, Set(d, -2147483648.0));
}

// frexp(x) = m 2^e with 1/2 <= |m| < 1 (shape SplitExponent, binary64 lanes): m is x with its
// binary64 exponent field set to that of 1/2 (sign and mantissa kept, exact in float32), e = field -
// 1022. x = +-0, +-inf: m = x, e = 0; NaN: m = x quieted, e = 0 (C leaves e unspecified there).
template <class D, class V>
ACCELMATH_KERNEL V FrexpFn(D d, V x, V& e) {
  using namespace basic_impl;
  const RebindToUnsigned<D> du;
  const V a = Abs(x);
  const auto keep = Set(du, uint64_t{0x800FFFFFFFFFFFFFull});  // sign and mantissa
  const V m = BitCast(d, Or(And(BitCast(du, x), keep), Set(du, uint64_t{0x3FE0000000000000ull})));
  const auto plain = And(Lt(a, Set(d, kInf<double>)), Not(Eq(a, Zero(d))));
  e = IfThenElse(plain, Add(ExponentOf(d, a), Set(d, 1.0)), Zero(d));
  return KeepNaN(x, IfThenElse(plain, m, x));
}

// ldexp(x, n) = x 2^n rounded once (shape ScaleExponent, binary64 lanes; n is the int32 exactly in
// binary64). n is clamped to [-400, 400]: beyond, every nonzero finite float32 overflows (>= 2^251)
// or rounds to zero (<= 2^-272) either way. x 2^n is then exact in binary64 (its exponent stays in
// [-549, 528]) and the driver's rounding to float32 is the only one, also for subnormal results
// (a two-step scaling could round twice there). 2^n is built from its bits. Zeros, infinities keep
// their value; NaN is quieted.
template <class D, class V>
ACCELMATH_KERNEL V LdexpFn(D d, V x, V n) {
  using namespace basic_impl;
  const RebindToUnsigned<D> du;
  const V lim = Set(d, 400.0);
  const V nc = IfThenElse(Gt(n, lim), lim, IfThenElse(Lt(n, Neg(lim)), Neg(lim), n));
  // nc + 1023 (in [623, 1423]) in the low bits of 2^52 + nc + 1023, then shifted into the exponent.
  const auto biased = BitCast(du, Add(nc, Set(d, FloatBits<double>::kMagic + 1023.0)));
  const V scale = BitCast(d, ShiftLeft<FloatBits<double>::kMantissaBits>(biased));
  return KeepNaN(x, Mul(x, scale));
}

}  // namespace accelmath::ACCELMATH_KNS

#endif  // ACCELMATH_KERNELS_BASIC_INL_H_ toggle
