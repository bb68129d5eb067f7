// The pow, roots and norms family: pow, sqrt, rsqrt, cbrt, rcbrt, hypot, rhypot, norm3d, rnorm3d,
// norm4d, rnorm4d, norm, rnorm. The only place their algorithms live.
//
// sqrt runs in float32 lanes (one IEEE square root: correctly rounded). Everything else runs in
// binary64 lanes (registry eval F64): the inputs hold float32 values exactly, the kernel returns a
// double within about 2^-40 relative of the exact value (the budget of each is in its comment), and
// the driver rounds it to float32 once. So a result is the exact value correctly rounded unless that
// value lies within ~2^-16 ulp of a rounding boundary; the measured maxima (every float32 input for
// the unary functions, the structured samples of docs/accuracy.md for the others) are in each
// comment. Binary64 removes the float32 traps: the square of any float32 is exact and neither
// overflows nor underflows (2^-298 .. 2^256), so the norms need no scaling; a subnormal float32 is a
// normal double, so cbrt needs no special path for it.
// No per-lane branches (a whole-vector test that skips a select no lane needs is allowed: each
// lane's value is the same either way). Special values are fixed last by selects; a NaN input comes
// out as that NaN quieted, a NaN made from numbers (sqrt(-1)) as the canonical quiet NaN.
#if defined(ACCELMATH_KERNELS_POW_ROOTS_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef ACCELMATH_KERNELS_POW_ROOTS_INL_H_
#undef ACCELMATH_KERNELS_POW_ROOTS_INL_H_
#else
#define ACCELMATH_KERNELS_POW_ROOTS_INL_H_
#endif

#include <cstdint>
#include <limits>
#include <type_traits>

#include "kernels/common-inl.h"
#include "kernels/float_bits.h"
#include "kernels/pow_roots_coeffs.h"

// Forced inline on the host (see exp_log-inl.h: GCC leaves kernels this size as calls otherwise).
#ifndef ACCELMATH_POW_ROOTS_INLINE
#if defined(__CUDACC__)
#define ACCELMATH_POW_ROOTS_INLINE
#else
#define ACCELMATH_POW_ROOTS_INLINE __attribute__((always_inline))
#endif
#endif

namespace accelmath::ACCELMATH_KNS {

namespace pow_roots_impl {

using kernels::FloatBits;
inline constexpr double kInf = std::numeric_limits<double>::infinity();
inline constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
inline constexpr float kInfF = std::numeric_limits<float>::infinity();
inline constexpr float kNaNF = std::numeric_limits<float>::quiet_NaN();

// r with the sign bit `sign` (SignOf, common-inl.h) xor-ed in: r's own sign flipped where sign is
// set; float32 or binary64 lanes.
template <class D, class V>
ACCELMATH_KERNEL ACCELMATH_POW_ROOTS_INLINE V FlipSign(D d, V r, V sign) {
  const RebindToUnsigned<D> du;
  return BitCast(d, Xor(BitCast(du, r), BitCast(du, sign)));
}

// 2^k for an integral binary64 k in [-1022, 1023], from its bits: k + 1023 in the low bits of
// 2^52 + k + 1023, shifted into the exponent field.
template <class D, class V>
ACCELMATH_KERNEL ACCELMATH_POW_ROOTS_INLINE V Pow2I(D d, V k) {
  const RebindToUnsigned<D> du;
  const auto biased = BitCast(du, Add(k, Set(d, FloatBits<double>::kMagic + 1023.0)));
  return BitCast(d, ShiftLeft<FloatBits<double>::kMantissaBits>(biased));
}

// a = 2^e m for a finite a > 0 (normal in binary64): m in [1, 2) in `m`, e as a binary64 integer.
template <class D, class V>
ACCELMATH_KERNEL ACCELMATH_POW_ROOTS_INLINE V SplitExp(D d, V a, V& m) {
  const RebindToUnsigned<D> du;
  const auto bits = BitCast(du, a);
  m = BitCast(d, Or(And(bits, Set(du, uint64_t{0x000FFFFFFFFFFFFFull})), Set(du, FloatBits<double>::kOneBits)));
  const V magic = Set(d, FloatBits<double>::kMagic);
  const auto field = ShiftRight<FloatBits<double>::kMantissaBits>(bits);
  return Sub(Sub(BitCast(d, Or(field, BitCast(du, magic))), magic), Set(d, 1023.0));
}

// log2(a) for a finite a > 0 (binary64), to about 2^-50 relative: a = 2^k m with m in
// [sqrt(1/2), sqrt 2), s = (m - 1)/(m + 1) (m - 1 exact; |s| <= 0.1716), log2 a = k + (2/ln 2)
// atanh(s) with atanh(s) = s + s z P(z), z = s^2 (kPowAtanhPoly, 2^-50.4). k and m come from the
// bits without a comparison: u = bits(a) - bits(sqrt(1/2)) + bits(1) has the exponent field k +
// 1023 (the subtraction borrows from the exponent exactly when a's mantissa is below that of
// sqrt 2), and m's bits are a's minus k << 52. m - 1, m + 1 and the division round at most 2^-52
// relative, the constant 2/ln 2 2^-54; for k != 0, |log2 a| >= 1/2 and the final fma adds 2^-53
// relative. So the error is below 2^-50 relative of log2 a.
template <class D, class V>
ACCELMATH_KERNEL ACCELMATH_POW_ROOTS_INLINE V PowLog2(D d, V a) {
  const RebindToUnsigned<D> du;
  const auto bits = BitCast(du, a);
  const auto u = Add(Sub(bits, Set(du, FloatBits<double>::kSqrtHalfBits)), Set(du, FloatBits<double>::kOneBits));
  const auto field = ShiftRight<FloatBits<double>::kMantissaBits>(u);  // k + 1023
  const V m = BitCast(d, Sub(Add(bits, Set(du, FloatBits<double>::kOneBits)),
                             ShiftLeft<FloatBits<double>::kMantissaBits>(field)));
  const V magic = Set(d, FloatBits<double>::kMagic);
  const V k = Sub(BitCast(d, Or(field, BitCast(du, magic))), Set(d, FloatBits<double>::kMagic + 1023.0));
  const V s = Div(Sub(m, Set(d, 1.0)), Add(m, Set(d, 1.0)));
  const V z = Mul(s, s);
  const V atanh_s = MulAdd(Mul(s, z), Estrin(d, z, coeffs::kPowAtanhPoly()), s);
  return MulAdd(atanh_s, Set(d, coeffs::kPowTwoOverLn2), k);
}

// 2^t for t in [-160, 160] (binary64), to about 2^-50 relative: k = round(t), r = t - k (exact,
// |r| <= 1/2), 2^t = 2^k (1 + r P(r)) (kPowExp2Poly, 2^-50.6), 2^k from its bits. Every result is
// a normal binary64 (>= 2^-160): the only rounding to a subnormal float32 is the driver's.
template <class D, class V>
ACCELMATH_KERNEL ACCELMATH_POW_ROOTS_INLINE V PowExp2(D d, V t) {
  const V k = Round(t);
  const V r = Sub(t, k);
  const V p = MulAdd(r, Estrin(d, r, coeffs::kPowExp2Poly()), Set(d, 1.0));
  return Mul(p, Pow2I(d, k));
}

// y is an odd integer (false for NaN and +-inf; every float32 of magnitude >= 2^24 is even).
template <class D, class V>
ACCELMATH_KERNEL ACCELMATH_POW_ROOTS_INLINE auto IsOddInteger(D d, V y) {
  const V h = Mul(y, Set(d, 0.5));  // exact
  return And(Eq(Round(y), y), Not(Eq(Round(h), h)));
}

// The cube-root core, in float32 lanes, for a = |x| > 0 finite: a = 2^(3q) w' with w' = 2^r m in
// [1, 8) (m in [1, 2) from a's bits, after scaling a subnormal a by 2^24 exactly; e = 3q + r the
// exponent, q = floor((e + 1/2)/3), computed in float32: (e + 1/2)/3 is never within 1/6 of an
// integer, far more than its rounding error), and z ~ w'^(-1/3) as the unevaluated sum z1 + dz:
//   z0 = 2^(-r/3) P(m) (kCbrtInitPoly, 2^-17.1 with float32 coefficients);
//   z1 = z0 + z0 (1 - w' z0^3)/3 in plain float32: about 2^-23 (float32 rounding, not the step);
//   dz = (z1/3) e with e = 1 - w' z1^3 formed without loss: z1^2 = h + hl and h z1 = p + pl exactly
//   (fma), e = fma(-w', pl + hl z1, fma(-w', p, 1)) (1 - w' p is about 2^-22; each fma rounds by
//   2^-24 of its result), so z1 + dz is a Newton step with an exact residual: within (2 2^-46 +
//   2^-46) relative of w'^(-1/3), about 2^-44.
// Returns z1 and dz, w' in `wr`, q in `q`, and z1^2 = h + hl (used by cbrt). kSubnormal = false:
// the caller guarantees a >= 2^-126 (no scaling).
template <bool kSubnormal, class D, class V>
ACCELMATH_KERNEL ACCELMATH_POW_ROOTS_INLINE V CbrtCore(D d, V a, V& dz, V& wr, V& q, V& h, V& hl) {
  const RebindToUnsigned<D> du;
  const RebindToSigned<D> di;
  const auto sub = Lt(a, Set(d, 0x1p-126f));
  const auto bits = BitCast(du, kSubnormal ? IfThenElse(sub, Mul(a, Set(d, 0x1p24f)), a) : a);
  const V m = BitCast(d, Or(And(bits, Set(du, 0x007FFFFFu)), Set(du, FloatBits<float>::kOneBits)));
  const V e = Sub(ConvertTo(d, BitCast(di, ShiftRight<FloatBits<float>::kMantissaBits>(bits))),
                  kSubnormal ? IfThenElse(sub, Set(d, 127.0f + 24.0f), Set(d, 127.0f)) : Set(d, 127.0f));
  q = Floor(Mul(Add(e, Set(d, 0.5f)), Set(d, 1.0f / 3.0f)));
  const V r = NegMulAdd(q, Set(d, 3.0f), e);  // exact: 0, 1 or 2
  const auto r1 = Eq(r, Set(d, 1.0f)), r2 = Eq(r, Set(d, 2.0f));
  wr = Mul(m, IfThenElse(r1, Set(d, 2.0f), IfThenElse(r2, Set(d, 4.0f), Set(d, 1.0f))));
  const V c = IfThenElse(r1, Set(d, coeffs::kCbrtInvCbrt2), IfThenElse(r2, Set(d, coeffs::kCbrtInvCbrt4), Set(d, 1.0f)));
  const V third = Set(d, 1.0f / 3.0f), one = Set(d, 1.0f);
  const V z0 = Mul(c, Horner(d, m, coeffs::kCbrtInitPoly()));
  const V z1 = MulAdd(Mul(z0, third), NegMulAdd(wr, Mul(Mul(z0, z0), z0), one), z0);
  h = Mul(z1, z1);
  hl = MulSub(z1, z1, h);
  const V p = Mul(h, z1);
  const V pl = MulSub(h, z1, p);
  const V res = NegMulAdd(wr, MulAdd(hl, z1, pl), NegMulAdd(wr, p, one));
  dz = Mul(Mul(z1, third), res);
  return z1;
}

// 2^q for an integral float32 q in [-126, 127], from its bits.
template <class D, class V>
ACCELMATH_KERNEL ACCELMATH_POW_ROOTS_INLINE V Pow2IF(D d, V q) {
  const RebindToUnsigned<D> du;
  return BitCast(d, ShiftLeft<FloatBits<float>::kMantissaBits>(BitCast(du, Add(q, Set(d, 0x1p23f + 127.0f)))));
}

// s, or +inf where `inf` is set: the sum of squares of the norms, where an infinite coordinate wins
// over a NaN one.
template <class D, class V, class M>
ACCELMATH_KERNEL ACCELMATH_POW_ROOTS_INLINE V InfWins(D d, V s, M inf) {
  return IfThenElse(inf, Set(d, kInf), s);
}

template <class D, class V>
ACCELMATH_KERNEL ACCELMATH_POW_ROOTS_INLINE auto IsInfinite(D d, V x) {
  return Eq(Abs(x), Set(d, kInf));
}

}  // namespace pow_roots_impl

// pow(x, y) for the lanes the general formula does not cover: x <= 0, x = +inf, x NaN, y = +-inf,
// y NaN, y = 1/2. `r` holds the general result, kept for every other lane. Annex F F.10.4.4, set in
// this order (later wins):
//   y = 1/2: sqrt |x| (rounded to binary64 and then to float32: sqrt is innocuous under this double
//   rounding, 53 >= 2 24 + 2), so pow(x, 0.5) equals the correctly rounded sqrt(x) for every x >= -0
//   (pow(-0, 0.5) = +0, pow(+inf, 0.5) = +inf);
//   x < 0 finite: |x|^y with x's sign for odd integer y; NaN for non-integral finite y (the
//   accelerator header we modelled returns NaN for every x < 0; Annex F gives pow(-2, 3) = -8,
//   followed here);
//   x = +-0: +inf for y < 0, +0 for y > 0; x = +-inf: +0 for y < 0, +inf for y > 0; both with x's
//   sign for odd integer y;
//   y = +-inf: +0 or +inf by |x| < 1 or > 1 and the sign of y; 1 for |x| = 1;
//   NaN x, else NaN y: that NaN quieted;
//   x = 1 (any y, NaN too) and y = +-0 (any x, NaN too): 1.
template <class D, class V>
ACCELMATH_KERNEL ACCELMATH_POW_ROOTS_INLINE V PowSpecial(D d, V x, V y, V r) {
  using namespace pow_roots_impl;
  const V one = Set(d, 1.0), zero = Zero(d), inf = Set(d, kInf);
  const V ax = Abs(x);
  const auto half = Eq(y, Set(d, 0.5));
  r = IfThenElse(half, Sqrt(ax), r);
  const auto y_pos = Gt(y, zero);
  r = IfThenElse(Eq(ax, zero), IfThenElse(y_pos, zero, inf), r);
  r = IfThenElse(Eq(ax, inf), IfThenElse(y_pos, inf, zero), r);
  r = FlipSign(d, r, IfThenElseZero(IsOddInteger(d, y), SignOf(d, x)));
  const auto y_inf = Eq(Abs(y), inf);
  const auto y_int = Eq(Round(y), y);
  r = IfThenElse(And(And(Lt(x, zero), Lt(ax, inf)), Not(Or(y_int, y_inf))), Set(d, kNaN), r);
  const V tiny_big = IfThenElse(Or(And(Lt(ax, one), Lt(y, zero)), And(Gt(ax, one), y_pos)), inf, zero);
  r = IfThenElse(y_inf, IfThenElse(Eq(ax, one), one, tiny_big), r);
  r = KeepNaN(x, KeepNaN(y, r));
  return IfThenElse(Or(Eq(x, one), Eq(y, zero)), one, r);
}

// pow(x, y) = 2^(y log2 |x|) (binary64 lanes). Error budget: log2 |x| within 2^-50 relative
// (PowLog2); t = y log2|x| rounded (2^-53 relative); where the result is neither 0 nor inf in
// float32, |t| < 151, so t is within 151 (2^-50 + 2^-53) < 2^-42.5 absolutely, which is 2^-43
// relative in 2^t; PowExp2 adds 2^-50. So the result is within 2^-42.8 relative before the final
// rounding (2^-18.8 float32 ulp). t is clamped to [-160, 160] (beyond, the float32 result is 0 or
// inf either way; Min/Max, whose NaN behaviour differs between targets, only see the finite t of
// the lanes this formula serves).
// The general formula serves 0 < x < inf with finite y other than 1/2 (there pow(x, 0) = 1 and
// pow(1, y) = 1 come out exactly: log2 1 = 0, 2^0 = 1), and gives |x|^y for finite x < 0; every
// other lane is set by PowSpecial, which a vector without such a lane skips (a whole-vector test:
// each lane's value is the same either way).
// Measured: max 0.500000 ulp (to six digits), 100.000000% correctly rounded on the structured sample
// of 4,831,839,358 pairs (`accelmath sweep F --threads 2`, AVX3 on Zen 5; docs/accuracy.md).
template <class D, class V>
ACCELMATH_KERNEL ACCELMATH_POW_ROOTS_INLINE V PowFn(D d, V x, V y) {
  using namespace pow_roots_impl;
  const V inf = Set(d, kInf);
  const V ax = Abs(x);
  const auto general = And(And(Gt(x, Zero(d)), Lt(x, inf)), And(Lt(Abs(y), inf), Not(Eq(y, Set(d, 0.5)))));
  // |x| for every finite nonzero x (negative x: PowSpecial puts the sign on), 1 for the others
  const V lg = PowLog2(d, IfThenElse(And(Gt(ax, Zero(d)), Lt(ax, inf)), ax, Set(d, 1.0)));
  const V t = Min(Max(Mul(y, lg), Set(d, -160.0)), Set(d, 160.0));
  const V r = PowExp2(d, t);
  return AllTrue(d, general) ? r : PowSpecial(d, x, y, r);
}

// sqrt(x): one IEEE square root in float32 lanes, correctly rounded. sqrt(-0) = -0; x < 0 (and
// -inf): the canonical NaN; NaN quieted.
// Measured: correctly rounded for every float32 input (`accelmath sweep F --threads 2`, AVX3 on
// Zen 5; docs/accuracy.md).
template <class D, class V>
ACCELMATH_KERNEL ACCELMATH_POW_ROOTS_INLINE V SqrtFn(D d, V x) {
  using namespace pow_roots_impl;
  const V r = IfThenElse(Lt(x, Zero(d)), Set(d, kNaNF), Sqrt(x));
  return KeepNaN(x, r);
}

// rsqrt(x) = 1/sqrt(x), in float32 lanes. First guess y0 = 1/sqrt(x') (an IEEE square root and
// division, each correctly rounded: relative error below 2^-23) of x' = x scaled by 2^64 (x < 2^-64)
// or 2^-64 (x > 2^64), exactly, so that y0^2 and its error term below stay normal; then one Newton
// step y = y0 + (y0/2) e with the residual e = 1 - x' y0^2 formed without loss: y0^2 = h + l exactly
// (h = y0 y0 rounded, l = fma(y0, y0, -h)), e = fma(-x', l, fma(-x', h, 1)) (1 - x' h is about
// 2^-23 and each fma rounds it by 2^-24 of itself: e is within 2^-46 absolutely). The step takes the
// relative error 2^-23 to (3/2) 2^-46, and its fma rounds once: the result is within 0.5 + 2^-21
// ulp. Finally the scale 2^-+32 is taken off (exact: rsqrt of a float32 is in [2^-64, 2^74.5]).
// Measured on AVX-512 (Zen 5, 64K elements): 1.9x the binary64 sqrt-and-divide.
// rsqrt(+-0) = +-inf, rsqrt(+inf) = +0 by selects (the step would give NaN); x < 0: the canonical
// NaN; NaN quieted. A vector with every x in [2^-64, 2^64] skips the scaling and the selects (a
// whole-vector test: each lane's value is the same either way).
// Measured: max 0.500000 ulp, 99.999997% correctly rounded, every float32 input (`accelmath sweep F
// --threads 2`, AVX3 on Zen 5; docs/accuracy.md).
template <class D, class V>
ACCELMATH_KERNEL ACCELMATH_POW_ROOTS_INLINE V RsqrtFn(D d, V x) {
  using namespace pow_roots_impl;
  const V one = Set(d, 1.0f), inf = Set(d, kInfF);
  // The Newton step on x' (x itself in [2^-64, 2^64]).
  const auto step = [&](V xs) ACCELMATH_POW_ROOTS_INLINE {
    const V y0 = Div(one, Sqrt(xs));
    const V h = Mul(y0, y0);
    const V e = NegMulAdd(xs, MulSub(y0, y0, h), NegMulAdd(xs, h, one));
    return MulAdd(Mul(y0, Set(d, 0.5f)), e, y0);
  };
  const auto tiny = Lt(x, Set(d, 0x1p-64f)), big = Gt(x, Set(d, 0x1p64f));
  // A vector of x in [2^-64, 2^64] only (NaN fails the test) needs neither scaling nor specials.
  if (AllFalse(d, Or(Or(tiny, big), Not(Eq(x, x))))) return step(x);
  V r = step(Mul(x, IfThenElse(tiny, Set(d, 0x1p64f), IfThenElse(big, Set(d, 0x1p-64f), one))));
  r = Mul(r, IfThenElse(tiny, Set(d, 0x1p32f), IfThenElse(big, Set(d, 0x1p-32f), one)));
  r = IfThenElse(Eq(x, Zero(d)), FlipSign(d, inf, SignOf(d, x)), r);  // +-0: +-inf
  r = IfThenElse(Eq(x, inf), Zero(d), r);
  r = IfThenElse(Lt(x, Zero(d)), Set(d, kNaNF), r);
  return KeepNaN(x, r);
}

// cbrt(x) = sign(x) cbrt(w') 2^q and rcbrt(x) = sign(x) w'^(-1/3) 2^-q, in float32 lanes (CbrtCore:
// z = z1 + dz within 2^-44 of w'^(-1/3)). rcbrt rounds z1 + dz once (an fma: within 0.5 + 2^-20
// ulp). cbrt(w') = w' z^2 = w' (h + hl) + 2 w' z1 dz (+ w' dz^2, below 2^-46): w' h = A + Al exactly
// (fma), and A + (Al + w' hl + 2 w' z1 dz) rounds once (the tail's own roundings are 2^-46
// relative): within 0.5 + 2^-19 ulp. The scalings by 2^+-q are exact (cbrt of a float32 is in
// [2^-50, 2^43], rcbrt in [2^-43, 2^50]). Subnormal inputs are scaled inside CbrtCore, so they take
// the same path (the issue reports the accelerator header 1.7e9 ulp off there).
// cbrt(+-0) = +-0, cbrt(+-inf) = +-inf, rcbrt(+-0) = +-inf, rcbrt(+-inf) = +-0, NaN quieted; the
// sign is put on last by bits. A vector of normal finite x only skips the subnormal scaling and the
// selects (a whole-vector test: each lane's value is the same either way).
// Measured over every float32 input (`accelmath sweep F --threads 2`, AVX3 on Zen 5;
// docs/accuracy.md): cbrt max 0.500000 ulp, 100.000000% correctly rounded; rcbrt max 0.500000 ulp,
// 99.999988%.
template <class D, class V>
ACCELMATH_KERNEL ACCELMATH_POW_ROOTS_INLINE V CbrtFn(D d, V x) {
  using namespace pow_roots_impl;
  const V a = Abs(x);
  const auto root = [&](auto subnormal, V aa) ACCELMATH_POW_ROOTS_INLINE {
    V dz, wr, q, h, hl;
    const V z1 = CbrtCore<decltype(subnormal)::value>(d, aa, dz, wr, q, h, hl);
    const V big = Mul(wr, h);
    const V tail = MulAdd(Mul(Add(wr, wr), z1), dz, MulAdd(wr, hl, MulSub(wr, h, big)));
    return Mul(Add(big, tail), Pow2IF(d, q));
  };
  // A vector of normal finite x only skips the scaling of subnormals and the selects.
  const auto normal = And(Ge(a, Set(d, 0x1p-126f)), Lt(a, Set(d, kInfF)));
  if (AllTrue(d, normal)) return FlipSign(d, root(std::false_type(), a), SignOf(d, x));
  const auto plain = And(Gt(a, Zero(d)), Lt(a, Set(d, kInfF)));
  const V r = IfThenElse(plain, root(std::true_type(), IfThenElse(plain, a, Set(d, 1.0f))), a);
  return KeepNaN(x, FlipSign(d, r, SignOf(d, x)));
}
template <class D, class V>
ACCELMATH_KERNEL ACCELMATH_POW_ROOTS_INLINE V RcbrtFn(D d, V x) {
  using namespace pow_roots_impl;
  const V a = Abs(x);
  const auto inv = [&](auto subnormal, V aa) ACCELMATH_POW_ROOTS_INLINE {
    V dz, wr, q, h, hl;
    const V z1 = CbrtCore<decltype(subnormal)::value>(d, aa, dz, wr, q, h, hl);
    return Mul(Add(z1, dz), Pow2IF(d, Neg(q)));
  };
  const auto normal = And(Ge(a, Set(d, 0x1p-126f)), Lt(a, Set(d, kInfF)));
  if (AllTrue(d, normal)) return FlipSign(d, inv(std::false_type(), a), SignOf(d, x));
  const auto plain = And(Gt(a, Zero(d)), Lt(a, Set(d, kInfF)));
  V r = IfThenElse(plain, inv(std::true_type(), IfThenElse(plain, a, Set(d, 1.0f))), Zero(d));  // +-inf: +0
  r = IfThenElse(Eq(a, Zero(d)), Set(d, kInfF), r);
  return KeepNaN(x, FlipSign(d, r, SignOf(d, x)));
}

// The norms, in binary64 lanes: the squares of float32 values are exact and the sums neither
// overflow nor underflow, so no scaling. hypot(x, y) = sqrt(fma(x, x, y^2)): one rounding of the
// sum, one of the square root (2^-53 each), then the driver's: within 0.5 + 2^-28 ulp; the
// reciprocals add a division. norm3d, norm4d: the sum of squares in a fixed order by fmas (one
// rounding per term). An infinite coordinate gives +inf (reciprocals +0) even with a NaN present;
// otherwise a NaN coordinate gives the first NaN (in argument order) quieted; all zeros give +0
// (reciprocals +inf: 1/+0).
// Measured (`accelmath sweep F --threads 2`, AVX3 on Zen 5; docs/accuracy.md), each 0.500000 ulp max
// and 100.000000% correctly rounded: hypot, rhypot on 4.8e9 structured pairs, norm3d, rnorm3d on
// 4.6e9 triples, norm4d, rnorm4d on 4.3e9 quadruples.
template <class D, class V>
ACCELMATH_KERNEL ACCELMATH_POW_ROOTS_INLINE V HypotFn(D d, V x, V y) {
  using namespace pow_roots_impl;
  const V s = InfWins(d, MulAdd(x, x, Mul(y, y)), Or(IsInfinite(d, x), IsInfinite(d, y)));
  return IfThenElse(Eq(s, Set(d, kInf)), s, KeepNaN(x, KeepNaN(y, Sqrt(s))));
}
template <class D, class V>
ACCELMATH_KERNEL ACCELMATH_POW_ROOTS_INLINE V RhypotFn(D d, V x, V y) {
  using namespace pow_roots_impl;
  const V s = InfWins(d, MulAdd(x, x, Mul(y, y)), Or(IsInfinite(d, x), IsInfinite(d, y)));
  return IfThenElse(Eq(s, Set(d, kInf)), Zero(d), KeepNaN(x, KeepNaN(y, Div(Set(d, 1.0), Sqrt(s)))));
}
template <class D, class V>
ACCELMATH_KERNEL ACCELMATH_POW_ROOTS_INLINE V Norm3dFn(D d, V x, V y, V z) {
  using namespace pow_roots_impl;
  const V s = InfWins(d, MulAdd(z, z, MulAdd(y, y, Mul(x, x))), Or(Or(IsInfinite(d, x), IsInfinite(d, y)), IsInfinite(d, z)));
  return IfThenElse(Eq(s, Set(d, kInf)), s, KeepNaN(x, KeepNaN(y, KeepNaN(z, Sqrt(s)))));
}
template <class D, class V>
ACCELMATH_KERNEL ACCELMATH_POW_ROOTS_INLINE V Rnorm3dFn(D d, V x, V y, V z) {
  using namespace pow_roots_impl;
  const V s = InfWins(d, MulAdd(z, z, MulAdd(y, y, Mul(x, x))), Or(Or(IsInfinite(d, x), IsInfinite(d, y)), IsInfinite(d, z)));
  return IfThenElse(Eq(s, Set(d, kInf)), Zero(d), KeepNaN(x, KeepNaN(y, KeepNaN(z, Div(Set(d, 1.0), Sqrt(s))))));
}
template <class D, class V>
ACCELMATH_KERNEL ACCELMATH_POW_ROOTS_INLINE V Norm4dFn(D d, V x, V y, V z, V w) {
  using namespace pow_roots_impl;
  const V s = InfWins(d, MulAdd(w, w, MulAdd(z, z, MulAdd(y, y, Mul(x, x)))),
                      Or(Or(IsInfinite(d, x), IsInfinite(d, y)), Or(IsInfinite(d, z), IsInfinite(d, w))));
  return IfThenElse(Eq(s, Set(d, kInf)), s, KeepNaN(x, KeepNaN(y, KeepNaN(z, KeepNaN(w, Sqrt(s))))));
}
template <class D, class V>
ACCELMATH_KERNEL ACCELMATH_POW_ROOTS_INLINE V Rnorm4dFn(D d, V x, V y, V z, V w) {
  using namespace pow_roots_impl;
  const V s = InfWins(d, MulAdd(w, w, MulAdd(z, z, MulAdd(y, y, Mul(x, x)))),
                      Or(Or(IsInfinite(d, x), IsInfinite(d, y)), Or(IsInfinite(d, z), IsInfinite(d, w))));
  return IfThenElse(Eq(s, Set(d, kInf)), Zero(d),
                    KeepNaN(x, KeepNaN(y, KeepNaN(z, KeepNaN(w, Div(Set(d, 1.0), Sqrt(s)))))));
}

// norm(n, a) and rnorm(n, a) (shape Rows): s is the row's sum of squares from the SumOfSquares
// driver (16 partial sums by fma in a fixed order, combined by a fixed tree; +inf if any element is
// infinite; +0 for an empty row), relative error below (n/16 + 4) 2^-53: within 0.5 + 2^-28 ulp for
// rows of up to 2^20 elements, and below 1 ulp up to about 2^26. A NaN sum (a NaN element and no
// infinite one) gives the canonical NaN: which NaN an fma propagates differs between paths.
// Measured: 0.500000 ulp max, 100.000000% correctly rounded on 2^28 rows of 0 to 4096 elements
// (`accelmath sweep F --threads 2`, AVX3 on Zen 5; docs/accuracy.md).
template <class D, class V>
ACCELMATH_KERNEL ACCELMATH_POW_ROOTS_INLINE V NormFinish(D d, V s) {
  return CanonicalNaN(d, Sqrt(s));
}
template <class D, class V>
ACCELMATH_KERNEL ACCELMATH_POW_ROOTS_INLINE V RnormFinish(D d, V s) {
  return CanonicalNaN(d, Div(Set(d, 1.0), Sqrt(s)));
}

}  // namespace accelmath::ACCELMATH_KNS

#endif  // ACCELMATH_KERNELS_POW_ROOTS_INL_H_ toggle
