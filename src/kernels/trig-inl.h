// The trigonometric family: sin, cos, tan, sinpi, cospi, tanpi, and the pair kernels SinCos and
// SinCosPi. The only place their algorithms live.
//
// sin, cos, tan and SinCos run in float32 lanes (registry eval F32): where every lane of the vector
// has |x| < kTrigF32Limit (2^8), a float32 path (the reduction as hi + lo with exact steps, float32
// polynomials with the large parts kept exact, one rounding that matters); otherwise the whole
// vector takes the binary64 kernels below through ViaF64 (each half of the vector widened exactly,
// rounded to float32 once), its lanes with |x| < 2^8 keeping the float32 path's values, so that a
// lane's result never depends on its neighbours. sinpi, cospi, tanpi (and the binary64 kernels of
// sin, cos, tan) run in binary64 lanes (registry eval F64): `x` holds a float32 value exactly, the
// result is a double that the caller rounds to float32 once (DemoteTo).
//   sin, cos, tan in binary64: x = j pi/2 + r. |x| < 2^32 (kTrigFastLimit, tested once per vector): j from
//   x 2/pi rounded, r = x - j pi/2 by a two-constant Cody-Waite reduction in two fmas (the first
//   exact; r within 2^-48.5 relative). Otherwise every lane runs Payne-Hanek (x = m 2^e, m a 24-bit
//   integer, times a per-exponent 159-bit window of 2/pi mod 4 held in three doubles, exact
//   products by fma, the fraction kept as a double-double; r within 2^-52 relative) and lanes below
//   2^32 keep their Cody-Waite (j, r): a lane gets the same bits whichever path its vector took.
//   The reduced argument of a float32 is never below 2^-29.2 (generator: continued fractions).
//   sin, cos: j even (sin) or odd (cos), |r| <= pi/2: one odd polynomial of degree 11 and a sign.
//   tan: j the nearest integer, |r| <= pi/4: S(r)/C(r) or -C(r)/S(r), the division by a float32
//   reciprocal refined by one order-3 Newton step (two fmas).
//   sinpi, cospi (correctly rounded): a fast path, sin(pi a) for a = |x| (cospi: |x| + 1/2, exact)
//   by k = rint(a), r = (-1)^k (a - k) exactly and one odd polynomial of degree 13 on |r| <= 1/2;
//   a vector with a lane whose binary64 result lies within kSinPiMidWindow ulps of a float32
//   midpoint (about 2^-17 of the lanes), or outside 2^-126 <= |x| < 2^24, takes the correctly
//   rounded path instead: x = n/2 + r exactly (n = rint(2x), |r| <= 1/4; |x| >= 2^24 is an even
//   integer: r = 0), sin(pi r) and cos(pi r) as double-doubles (the two leading terms' products
//   exact by fma; r has at most 24 bits so r^2 is exact), hi + lo rounded to odd in binary64 so
//   that the final rounding to float32 is the correct one. Both paths round correctly: every
//   lane's float32 result is the same either way.
//   tanpi: the correctly rounded path's reduction, plain binary64 polynomials and the reciprocal.
// No per-lane branches: every lane runs the same operations; special values are written last
// with masks (a vector whose lanes are all ordinary skips that step as a whole). Only correctly
// rounded IEEE operations, integer/bit operations, selects and table gathers, in a fixed order:
// the same bits on every Highway target and on the scalar lane.
// Coefficients, tables and thresholds: src/kernels/trig_coeffs.h (tools/coeffs/trig.py).
#if defined(ACCELMATH_KERNELS_TRIG_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef ACCELMATH_KERNELS_TRIG_INL_H_
#undef ACCELMATH_KERNELS_TRIG_INL_H_
#else
#define ACCELMATH_KERNELS_TRIG_INL_H_
#endif

#include <cstdint>
#include <limits>

#include "kernels/common-inl.h"
#include "kernels/trig_coeffs.h"

// Every function here is forced inline on the host (as ACCELMATH_EXP_LOG_INLINE: a kernel left as
// a call per vector is much slower).
#ifndef ACCELMATH_TRIG_INLINE
#if defined(__CUDACC__)
#define ACCELMATH_TRIG_INLINE
#else
#define ACCELMATH_TRIG_INLINE __attribute__((always_inline))
#endif
#endif
// The whole-vector binary64 slow path of the float32 kernels is kept out of line: inlined, its size
// keeps the compiler from inlining the kernel into the array loop (constants then reloaded per call).
#ifndef ACCELMATH_TRIG_NOINLINE
#if defined(__CUDACC__)
#define ACCELMATH_TRIG_NOINLINE
#else
#define ACCELMATH_TRIG_NOINLINE __attribute__((noinline))
#endif
#endif

namespace accelmath::ACCELMATH_KNS {

namespace trig_impl {

inline constexpr uint64_t kSignBit = 0x8000000000000000ull;
inline constexpr uint64_t kMantissaMask = 0x000FFFFFFFFFFFFFull;
inline constexpr uint64_t kTwoPow23Bits = 0x4160000000000000ull;  // 2^23
inline constexpr double kTwoPow24 = 0x1p24;    // float32 at or above it: even integers
inline constexpr double kTwoPow53 = 0x1p53;    // binary64 at or above it: even integers
inline constexpr double kTwoPow128 = 0x1p128;  // above every finite float32
inline constexpr int kWantSin = 1;
inline constexpr int kWantCos = 2;
// The three reductions by pi/2: j even (sin), odd (cos), any integer (tan).
enum class Form { kSin, kCos, kTan };

template <class D, class V>
ACCELMATH_KERNEL ACCELMATH_TRIG_INLINE V SignBitOf(D d, V x) {
  const RebindToUnsigned<D> du;
  return BitCast(d, And(BitCast(du, x), Set(du, kSignBit)));
}

// Lanes where bit `kBit` of bits(kd) is set (the low bits of kd hold an integer, see the shifts).
template <int kBit, class D, class V>
ACCELMATH_KERNEL ACCELMATH_TRIG_INLINE auto BitSet(D d, V kd) {
  const RebindToUnsigned<D> du;
  const auto bit = Set(du, uint64_t{1} << kBit);
  return RebindMask(d, Eq(And(BitCast(du, kd), bit), bit));
}

// y with its sign flipped where bit kBit of bits(kd) is set.
template <int kBit, class D, class V>
ACCELMATH_KERNEL ACCELMATH_TRIG_INLINE V FlipSign(D d, V y, V kd) {
  const RebindToUnsigned<D> du;
  auto s = ShiftLeft<63 - kBit>(BitCast(du, kd));
  if constexpr (kBit != 0) s = And(s, Set(du, kSignBit));
  return BitCast(d, Xor(BitCast(du, y), s));
}

// ---- reduction by pi/2 -------------------------------------------------------------------------
// r = x - j pi/2 = (x - j C1) - j C2, C1 + C2 = pi/2 - 2^-108.8 (kTrigPio2C1, kTrigPio2C2). For
// |x| < kTrigFastLimit (|j| < 2^33) the first fma is exact (x - j C1 is a multiple of 2^-52 below
// 2; j = 0 gives x itself), the second rounds r + (< 2^-77.7): r within 2^-48.5 relative (|r| >=
// 2^-29.2 where j != 0; generator). Signed zeros: C1, C2 > 0, so x = -0 (j = +0) gives r = -0.
template <class D, class V>
ACCELMATH_KERNEL ACCELMATH_TRIG_INLINE V CodyWaite(D d, V x, V j) {
  const V r = NegMulAdd(j, Set(d, coeffs::kTrigPio2C1), x);
  return NegMulAdd(j, Set(d, coeffs::kTrigPio2C2), r);
}

// The Cody-Waite reduction of x (|x| < kTrigFastLimit), r returned, the integer in kd:
//   kSin: kd = x c + 1.5 2^53 (c = 2/pi rounded) rounds x c to the nearest even integer j (ulp 2):
//     bit 0 of bits(kd) is (j/2) mod 2, sin(x) = (-1)^(j/2) sin(r).
//   kCos: kd = (x c + 1) + 1.5 2^53 holds the even integer j + 1 nearest to x c + 1 (j odd):
//     bit 0 of bits(kd) is ((j + 1)/2) mod 2, cos(x) = -sin(j pi/2) sin(r) = (-1)^((j + 1)/2) sin(r).
//   kTan: kd = x c + 1.5 2^52 holds the nearest integer j, bit 0 its parity.
// |x 2/pi - x c| < 2^-22 (generator): |r| <= pi/2 (1 + 2^-20) (kSin, kCos), pi/4 (1 + 2^-20) (kTan).
template <Form kForm, class D, class V>
ACCELMATH_KERNEL ACCELMATH_TRIG_INLINE V FastReduce(D d, V x, V& kd) {
  const V c = Set(d, coeffs::kTrigInvPio2);
  if constexpr (kForm == Form::kSin) {
    const V shift = Set(d, coeffs::kTrigShift53);
    kd = MulAdd(x, c, shift);
    return CodyWaite(d, x, Sub(kd, shift));
  } else if constexpr (kForm == Form::kCos) {
    const V shift = Set(d, coeffs::kTrigShift53);
    const V one = Set(d, 1.0);
    kd = Add(MulAdd(x, c, one), shift);
    return CodyWaite(d, x, Sub(Sub(kd, shift), one));
  } else {
    const V shift = Set(d, coeffs::kTrigShift52);
    kd = MulAdd(x, c, shift);
    return CodyWaite(d, x, Sub(kd, shift));
  }
}

// Payne-Hanek for lanes holding a float32 value xp in [kTrigFastLimit, 2^128): xp = m 2^(E - 23),
// m = 2^23 + the 23 mantissa bits (built exactly by giving xp's mantissa field the exponent of
// 2^23), row E - kTrigFastExp of kTrigPH0/1/2 (c0 + c1 + c2 = (2^(E - 23) 2/pi) mod 4 up to
// 2^-157, at most 53 bits each). xp 2/pi = m c0 + m c1 + m c2 (mod 4):
//   h0 + l0 = m c0 exactly (fma), K = rint(h0) (h0 < 2^26; kd52 = h0 + 1.5 2^52 holds it),
//   a = (h0 - K) + l0 exact (a multiple of 2^-51 below 1); h1 + l1 = m c1 exactly (h1 < 2^-27),
//   h2 = m c2 rounded (< 2^-80); fh + e = a + h1 exactly (2Sum), fl = e + (l1 + h2).
// So xp 2/pi = K + fh + fl (mod 4), |fh + fl| <= 1/2 + 2^-26, with an absolute error below 2^-131
// (tail and roundings), against a fraction of at least 2^-29.86 for every float32 (generator:
// kTrigMinFrac): relative error below 2^-100.
template <class D, class V>
ACCELMATH_KERNEL ACCELMATH_TRIG_INLINE void PayneHanek(D d, V xp, V& kd52, V& fh, V& fl) {
  static constexpr auto kT0 = coeffs::kTrigPH0();
  static constexpr auto kT1 = coeffs::kTrigPH1();
  static constexpr auto kT2 = coeffs::kTrigPH2();
  const RebindToUnsigned<D> du;
  const RebindToSigned<D> di;
  const auto bits = BitCast(du, xp);
  const auto idx = BitCast(di, Sub(ShiftRight<52>(bits), Set(du, uint64_t{coeffs::kTrigPHBias})));
  const V m = BitCast(d, Or(And(bits, Set(du, kMantissaMask)), Set(du, kTwoPow23Bits)));
  const V c0 = GatherIndex(d, kT0.data(), idx);
  const V c1 = GatherIndex(d, kT1.data(), idx);
  const V c2 = GatherIndex(d, kT2.data(), idx);
  const V shift = Set(d, coeffs::kTrigShift52);
  const V h0 = Mul(m, c0);
  const V l0 = MulSub(m, c0, h0);
  kd52 = Add(h0, shift);
  const V a = Add(Sub(h0, Sub(kd52, shift)), l0);
  const V h1 = Mul(m, c1);
  const V l1 = MulSub(m, c1, h1);
  const V h2 = Mul(m, c2);
  fh = Add(a, h1);
  const V bv = Sub(fh, a);
  const V e = Add(Sub(a, Sub(fh, bv)), Sub(h1, bv));
  fl = Add(e, Add(l1, h2));
}

// (kd, r) of form kForm from Payne-Hanek's (K, fh + fl) of |x|. kSin: K odd -> j = K + s,
// f = f - s (s = +-1 with the sign of fh), so j is even and |f| <= 1; kCos: the same where K is
// even; kTan: j = K. r = f pi/2 = fh C1 + (fh C2 + fl C1) (two fmas; within 2^-52 relative).
// kd as FastReduce's. Sin and tan are odd: r takes the sign of x (j's parities do not change
// under j -> -j); cos is even: |x|'s values stand.
template <Form kForm, class D, class V>
ACCELMATH_KERNEL ACCELMATH_TRIG_INLINE V FromPayneHanek(D d, V x, V kd52, V fh, V fl, V& kd) {
  const RebindToUnsigned<D> du;
  if constexpr (kForm == Form::kTan) {
    kd = kd52;
  } else {
    const auto odd = BitSet<0>(d, kd52);
    const auto adj = kForm == Form::kSin ? odd : Not(odd);
    const V s = BitCast(d, Or(And(BitCast(du, fh), Set(du, kSignBit)), BitCast(du, Set(d, 1.0))));
    fh = IfThenElse(adj, Sub(fh, s), fh);
    V j = Add(Sub(kd52, Set(d, coeffs::kTrigShift52)), IfThenElseZero(adj, s));
    if constexpr (kForm == Form::kCos) j = Add(j, Set(d, 1.0));
    kd = Add(j, Set(d, coeffs::kTrigShift53));
  }
  const V c1 = Set(d, coeffs::kTrigPio2C1);
  V r = MulAdd(fh, c1, MulAdd(fh, Set(d, coeffs::kTrigPio2C2), Mul(fl, c1)));
  if constexpr (kForm != Form::kCos) r = BitCast(d, Xor(BitCast(du, r), BitCast(du, SignBitOf(d, x))));
  return r;
}

// The Payne-Hanek argument: |x| for finite |x| >= kTrigFastLimit, kTrigFastLimit in every other
// lane (small lanes keep their Cody-Waite values; +-inf and NaN are written last).
template <class D, class V>
ACCELMATH_KERNEL ACCELMATH_TRIG_INLINE V PayneHanekArg(D d, V ax) {
  const V lim = Set(d, coeffs::kTrigFastLimit);
  return IfThenElse(Lt(ax, Set(d, kTwoPow128)), Max(ax, lim), lim);
}

// sin(r) = r Q(z) (kSinPoly, degree 11, rel. error 2^-35.2 on |r| <= pi/2 (1 + 2^-20); r = +-0
// gives +-0), the sign flipped where bit 0 of bits(kd) is set.
template <class D, class V>
ACCELMATH_KERNEL ACCELMATH_TRIG_INLINE V SinPoly(D d, V r, V kd) {
  return FlipSign<0>(d, Mul(r, Horner(d, Mul(r, r), coeffs::kSinPoly())), kd);
}

// sin and/or cos (kWant: kWantSin | kWantCos): the outputs are bit-identical whichever are wanted.
template <int kWant, class D, class V>
ACCELMATH_KERNEL ACCELMATH_TRIG_INLINE V SinCosImpl(D d, V x, V& cos_out) {
  const V ax = Abs(x);
  const V lim = Set(d, coeffs::kTrigFastLimit);
  V kds, rs, kdc, rc;
  if constexpr ((kWant & kWantSin) != 0) rs = FastReduce<Form::kSin>(d, x, kds);
  if constexpr ((kWant & kWantCos) != 0) rc = FastReduce<Form::kCos>(d, x, kdc);
  const bool fast = AllTrue(d, Lt(ax, lim));
  if (!fast) {
    const auto small = Lt(ax, lim);
    V kd52, fh, fl, kdp;
    PayneHanek(d, PayneHanekArg(d, ax), kd52, fh, fl);
    if constexpr ((kWant & kWantSin) != 0) {
      const V rp = FromPayneHanek<Form::kSin>(d, x, kd52, fh, fl, kdp);
      rs = IfThenElse(small, rs, rp);
      kds = IfThenElse(small, kds, kdp);
    }
    if constexpr ((kWant & kWantCos) != 0) {
      const V rp = FromPayneHanek<Form::kCos>(d, x, kd52, fh, fl, kdp);
      rc = IfThenElse(small, rc, rp);
      kdc = IfThenElse(small, kdc, kdp);
    }
  }
  const V inf = Set(d, std::numeric_limits<double>::infinity());
  V ys = x;
  if constexpr ((kWant & kWantCos) != 0) {
    V yc = SinPoly(d, rc, kdc);
    if (!fast) yc = IfThenElse(Lt(ax, inf), yc, Sub(x, x));
    cos_out = yc;
  }
  if constexpr ((kWant & kWantSin) != 0) {
    ys = SinPoly(d, rs, kds);
    if (!fast) ys = IfThenElse(Lt(ax, inf), ys, Sub(x, x));
  }
  return ys;
}

// 1/den within about 2^-52 relative: y0 = 1/den in float32 (IEEE division of den rounded to
// float32: |y0 den - 1| < 2^-23), e = 1 - den y0 (one fma), y = y0 + y0 (e + e^2) (error ~e^3).
// den must be a normal float32 value after rounding (tan: |den| in [2^-31, 1.5]).
template <class D, class V>
ACCELMATH_KERNEL ACCELMATH_TRIG_INLINE V Recip(D d, V den) {
  const Rebind<float, D> df;
  const V y0 = PromoteTo(d, Div(Set(df, 1.0f), DemoteTo(df, den)));
  const V e = NegMulAdd(den, y0, Set(d, 1.0));
  return MulAdd(y0, MulAdd(e, e, e), y0);
}

// tan in binary64 lanes (the slow path of Tan): x = j pi/2 + r, j the nearest integer, Cody-Waite or
// Payne-Hanek as SinCosImpl, |r| <= pi/4 (1 + 2^-20); S(r) = r Q(z), C(r) = 1 + z P(z) (kTanSinPoly,
// kTanCosPoly), tan x = S/C (j even) or -C/S (j odd), the quotient as num * Recip(den).
template <class D, class V>
ACCELMATH_KERNEL ACCELMATH_TRIG_INLINE V TanF64(D d, V x) {
  const V ax = Abs(x);
  const V lim = Set(d, coeffs::kTrigFastLimit);
  V kd;
  V r = FastReduce<Form::kTan>(d, x, kd);
  const bool fast = AllTrue(d, Lt(ax, lim));
  if (!fast) {
    const auto small = Lt(ax, lim);
    V kd52, fh, fl, kdp;
    PayneHanek(d, PayneHanekArg(d, ax), kd52, fh, fl);
    const V rp = FromPayneHanek<Form::kTan>(d, x, kd52, fh, fl, kdp);
    r = IfThenElse(small, r, rp);
    kd = IfThenElse(small, kd, kdp);
  }
  const V z = Mul(r, r);
  const V s = Mul(r, Horner(d, z, coeffs::kTanSinPoly()));
  const V c = MulAdd(z, Horner(d, z, coeffs::kTanCosPoly()), Set(d, 1.0));
  const auto odd = BitSet<0>(d, kd);
  const V num = FlipSign<0>(d, IfThenElse(odd, c, s), kd);
  const V den = IfThenElse(odd, s, c);
  V y = Mul(num, Recip(d, den));
  if (!fast) y = IfThenElse(Lt(ax, Set(d, std::numeric_limits<double>::infinity())), y, Sub(x, x));
  return y;
}

// ---- float32 lanes: the fast path of sin, cos, tan and the whole-vector slow path --------------------
// The float32 reduction of a = |x| < kTrigF32Limit (a >= 0, also +0): r = a - k pi/2 = hi + lo,
// k = rint(a 2/pi) in the low bits of kd (kd = a c + 1.5 2^23, c = kTrigF32InvPio2; 0 <= k <= 163):
//   r1 = a - k P1 (one fma, exact: for k >= 1, a > 0.78 is a multiple of 2^-24, P1 (float32 pi/2) a
//   multiple of 2^-23 and |r1| < 1; k = 0 gives a), p = k P2 (exact: P2 has 15 bits, k 8),
//   hi = r1 - p, lo = (r1 - hi) - p (hi + lo = r1 - p exactly: Fast2Sum where |r1| >= |p|, else r1 - p
//   itself is exact and lo = 0), lo = lo - k P3 (one fma). |r| <= pi/4 (1 + 2^-16.2); hi + lo within
//   2^-28.46 relative of r, |r| >= 2^-27.83 where k != 0 (generator: continued fractions); |lo| <=
//   2^-24 |hi| + 2^-32.9. a = +0 gives hi = lo = +0.
template <class D, class V>
ACCELMATH_KERNEL ACCELMATH_TRIG_INLINE V ReduceF32(D d, V a, V& kd, V& lo) {
  const V shift = Set(d, coeffs::kTrigF32Shift);
  kd = MulAdd(a, Set(d, coeffs::kTrigF32InvPio2), shift);
  const V k = Sub(kd, shift);
  const V r1 = NegMulAdd(k, Set(d, coeffs::kTrigF32P1), a);
  const V p = Mul(k, Set(d, coeffs::kTrigF32P2));
  const V hi = Sub(r1, p);
  lo = NegMulAdd(k, Set(d, coeffs::kTrigF32P3), Sub(Sub(r1, hi), p));
  return hi;
}

// sin(hi + lo) = hi + sl and cos(hi + lo) = ch + cl (|hi + lo| <= pi/4 (1 + 2^-16.2)), the sums left
// unrounded (Tan divides them as pairs). z = hi^2 rounded, zh = -z/2 (exact):
//   sl = lo (1 + zh) + (hi z) P(z) (kSinF32Poly; lo cos(hi) to first order);
//   ch = 1 + zh rounded, e = (1 - ch) + zh exactly (Fast2Sum, |zh| < 1/2), zl = hi^2 - z exactly (fma),
//   cl = z^2 Q(z) + ((e - zl/2) - hi lo) (kCosF32Poly; - hi lo = lo's first-order term).
template <class D, class V>
ACCELMATH_KERNEL ACCELMATH_TRIG_INLINE void SinCosF32Parts(D d, V hi, V lo, V& sl, V& ch, V& cl) {
  const V half = Set(d, -0.5f);
  const V z = Mul(hi, hi);
  const V zh = Mul(z, half);
  sl = MulAdd(Mul(hi, z), Horner(d, z, coeffs::kSinF32Poly()), MulAdd(lo, zh, lo));
  const V one = Set(d, 1.0f);
  ch = Add(one, zh);
  const V e = Add(Sub(one, ch), zh);
  const V zl = MulSub(hi, hi, z);
  cl = MulAdd(Mul(z, z), Horner(d, z, coeffs::kCosF32Poly()), NegMulAdd(hi, lo, MulAdd(zl, half, e)));
}

// Op codes of the binary64 slow path: kWantSin | kWantCos (SinCosImpl) or kOpTan (TanF64).
inline constexpr int kOpTan = 4;

// The binary64 kernel kOp on binary64 lanes: sin (kWantSin), cos (kWantCos), sin with cos in `second`
// (both), tan (kOpTan).
template <int kOp, class DD, class VD>
ACCELMATH_KERNEL ACCELMATH_TRIG_INLINE VD F64Kernel(DD dd, VD xd, VD& second) {
  if constexpr (kOp == kOpTan) {
    return TanF64(dd, xd);
  } else if constexpr (kOp == kWantCos) {
    VD c;
    SinCosImpl<kWantCos>(dd, xd, c);
    return c;
  } else {
    return SinCosImpl<kOp>(dd, xd, second);
  }
}

// The float32 vector x through the binary64 kernel kOp: each lane widened exactly, the result
// rounded to float32 once (the F64 evaluation of the registry). One lane (the scalar lane, Highway's
// scalar target): directly; otherwise each half of the vector promoted to a full binary64 vector.
// Returns the first result, the second (kWantSin | kWantCos) in `second`.
template <int kOp, class D, class V>
ACCELMATH_KERNEL ACCELMATH_TRIG_NOINLINE V ViaF64(D d, V x, V& second) {
  if constexpr (MaxLanes(D()) == 1) {
    const Rebind<double, D> dd;
    decltype(PromoteTo(dd, x)) s2;
    const auto y = F64Kernel<kOp>(dd, PromoteTo(dd, x), s2);
    if constexpr (kOp == (kWantSin | kWantCos)) second = DemoteTo(d, s2);
    return DemoteTo(d, y);
  } else {
    const Half<D> dh;
    const Rebind<double, decltype(dh)> dd;
    decltype(PromoteTo(dd, LowerHalf(dh, x))) s2l, s2u;
    const auto yl = F64Kernel<kOp>(dd, PromoteTo(dd, LowerHalf(dh, x)), s2l);
    const auto yu = F64Kernel<kOp>(dd, PromoteTo(dd, UpperHalf(dh, x)), s2u);
    if constexpr (kOp == (kWantSin | kWantCos)) second = Combine(d, DemoteTo(dh, s2u), DemoteTo(dh, s2l));
    return Combine(d, DemoteTo(dh, yu), DemoteTo(dh, yl));
  }
}

// y with its sign bit xored with `sign` (float32 lanes).
template <class D, class V, class VU>
ACCELMATH_KERNEL ACCELMATH_TRIG_INLINE V XorSign(D d, V y, VU sign) {
  const RebindToUnsigned<D> du;
  return BitCast(d, Xor(BitCast(du, y), sign));
}

// sin and/or cos in float32 lanes (kWant: kWantSin | kWantCos; the outputs are bit-identical whichever
// are wanted). Fast path (every lane |x| < kTrigF32Limit, one test per vector): on a = |x|, q = k mod
// 4 (ReduceF32), S = hi + sl, C = ch + cl (SinCosF32Parts, each rounded once):
// sin a = (S, C, -S, -C)[q] with the sign of x put back, cos a = (C, -S, -C, S)[q]. Otherwise the
// vector takes the binary64 kernel (ViaF64: Cody-Waite / Payne-Hanek, specials) and its lanes with
// |x| < kTrigF32Limit keep the fast path's values: a lane's result is the same whichever path its
// vector took.
template <int kWant, class D, class V>
ACCELMATH_KERNEL ACCELMATH_TRIG_INLINE V SinCosF32(D d, V x, V& cos_out) {
  const RebindToUnsigned<D> du;
  const V a = Abs(x);
  V kd, lo;
  const V hi = ReduceF32(d, a, kd, lo);
  V sl, ch, cl;
  SinCosF32Parts(d, hi, lo, sl, ch, cl);
  const V s = Add(hi, sl);
  const V c = Add(ch, cl);
  const auto kbits = BitCast(du, kd);
  const auto odd = RebindMask(d, Eq(And(kbits, Set(du, 1u)), Set(du, 1u)));
  const auto sign_mask = Set(du, 0x80000000u);
  V ys = x, yc = x;
  if constexpr ((kWant & kWantSin) != 0) {
    const auto sign = And(Xor(ShiftLeft<30>(kbits), BitCast(du, x)), sign_mask);
    ys = XorSign(d, IfThenElse(odd, c, s), sign);
  }
  if constexpr ((kWant & kWantCos) != 0) {
    const auto sign = And(ShiftLeft<30>(Add(kbits, Set(du, 1u))), sign_mask);
    yc = XorSign(d, IfThenElse(odd, s, c), sign);
  }
  const auto small = Lt(a, Set(d, coeffs::kTrigF32Limit));
  if (!AllTrue(d, small)) {
    V second;
    const V slow = ViaF64<kWant>(d, x, second);
    if constexpr (kWant == kWantCos) {
      yc = IfThenElse(small, yc, slow);
    } else {
      ys = IfThenElse(small, ys, slow);
      if constexpr (kWant == (kWantSin | kWantCos)) yc = IfThenElse(small, yc, second);
    }
  }
  if constexpr ((kWant & kWantCos) != 0) cos_out = yc;
  return (kWant & kWantSin) != 0 ? ys : yc;
}

// tan in float32 lanes. Fast path (every lane |x| < kTrigF32Limit): on a = |x| as SinCosF32, S = hi +
// sl and C = ch + cl rounded (s, c) with their rounding errors (se, ce; Fast2Sum: |sl| < |hi|,
// |cl| < |ch|); tan a = S/C (k even) or -C/S (k odd): n = nh + nl over d = dh + dl,
// t = 1/dh (IEEE division), q0 = nh t, e = (nh - q0 dh) + (nl - q0 dl) (the first term one fma,
// nearly exact; |e| about 2^-23 |nh|), tan = q0 + e t (one fma, the rounding that matters; e t is
// off by about e dl/dh^2, 2^-46 relative); the sign of x and of k odd put back. Otherwise the vector takes TanF64 (ViaF64), small lanes keeping the fast
// path's values.
template <class D, class V>
ACCELMATH_KERNEL ACCELMATH_TRIG_INLINE V TanF32(D d, V x) {
  const RebindToUnsigned<D> du;
  const V a = Abs(x);
  V kd, lo;
  const V hi = ReduceF32(d, a, kd, lo);
  V sl, ch, cl;
  SinCosF32Parts(d, hi, lo, sl, ch, cl);
  const V s = Add(hi, sl);
  const V se = Add(Sub(hi, s), sl);
  const V c = Add(ch, cl);
  const V ce = Add(Sub(ch, c), cl);
  const auto kbits = BitCast(du, kd);
  const auto odd = RebindMask(d, Eq(And(kbits, Set(du, 1u)), Set(du, 1u)));
  const V nh = IfThenElse(odd, c, s);
  const V nl = IfThenElse(odd, ce, se);
  const V dh = IfThenElse(odd, s, c);
  const V dl = IfThenElse(odd, se, ce);
  const V t = Div(Set(d, 1.0f), dh);
  const V q0 = Mul(nh, t);
  const V e = NegMulAdd(q0, dl, Add(NegMulAdd(q0, dh, nh), nl));
  const auto sign = And(Xor(ShiftLeft<31>(kbits), BitCast(du, x)), Set(du, 0x80000000u));
  V y = XorSign(d, MulAdd(e, t, q0), sign);
  const auto small = Lt(a, Set(d, coeffs::kTrigF32Limit));
  if (!AllTrue(d, small)) {
    V unused;
    y = IfThenElse(small, y, ViaF64<kOpTan>(d, x, unused));
  }
  return y;
}

// ---- sinpi, cospi -------------------------------------------------------------------------------
// sin(pi r) and/or cos(pi r) as double-doubles (sh + sl, ch + cl), |r| <= 1/4 (also for larger |r|
// if the caller wants, with the accuracy of the polynomials' domain ending at 1/4):
//   sin(pi r) = r (S1 + S3 z + z^2 P(z)): r S1hi = t1h + t1l and r (z S3hi) = t2h + t2l + r bl
//   (z S3hi = bh + bl) by exact fma two-products; sh + e = t1h + t2h (Fast2Sum, |t2h| < 0.11
//   |t1h|); sl = e + t1l + t2l + r (bl + S1lo + z (S3lo + z P(z))).
//   cos(pi r) = 1 + C2 z + z^2 Q(z): z C2hi = bh + bl exactly, ch + e = 1 + bh (Fast2Sum),
//   cl = (e + bl) + z (C2lo + z Q(z)).
// z = r^2 is exact when r has at most 26 significant bits (r = x - n/2 of a float32 x); then the
// only roundings that matter are those of the low parts: below 2^-61 relative of the result.
template <int kWant, class D, class V>
ACCELMATH_KERNEL ACCELMATH_TRIG_INLINE void SinCosPiPoly(D d, V r, V& sh, V& sl, V& ch, V& cl) {
  const V z = Mul(r, r);
  if constexpr ((kWant & kWantSin) != 0) {
    const V s1 = Set(d, coeffs::kSinPiS1Hi);
    const V s3 = Set(d, coeffs::kSinPiS3Hi);
    const V t1h = Mul(r, s1);
    const V t1l = MulSub(r, s1, t1h);
    const V bh = Mul(z, s3);
    const V bl = MulSub(z, s3, bh);
    const V t2h = Mul(r, bh);
    const V t2l = MulSub(r, bh, t2h);
    sh = Add(t1h, t2h);
    const V e = Add(Sub(t1h, sh), t2h);
    const V inner = MulAdd(z, MulAdd(z, Horner(d, z, coeffs::kSinPiPoly()), Set(d, coeffs::kSinPiS3Lo)),
                           Set(d, coeffs::kSinPiS1Lo));
    sl = MulAdd(r, Add(bl, inner), Add(e, Add(t1l, t2l)));
  }
  if constexpr ((kWant & kWantCos) != 0) {
    const V one = Set(d, 1.0);
    const V c2 = Set(d, coeffs::kCosPiC2Hi);
    const V bh = Mul(z, c2);
    const V bl = MulSub(z, c2, bh);
    ch = Add(one, bh);
    const V e = Add(Sub(one, ch), bh);
    cl = MulAdd(z, MulAdd(z, Horner(d, z, coeffs::kCosPiPoly()), Set(d, coeffs::kCosPiC2Lo)), Add(e, bl));
  }
}

// hi + lo rounded to odd in binary64 (|lo| <= |hi|): s = hi + lo, t = hi + lo - s exactly
// (Fast2Sum); where t != 0 and s is even, s moves one ulp towards t (bits(s) | 1 if t has s's sign,
// bits(s) - 1 otherwise; bits(s) - 1 | 1 keeps an odd s). An odd binary64 is never halfway between
// two float32 values, so rounding the result to float32 rounds hi + lo correctly.
template <class D, class V>
ACCELMATH_KERNEL ACCELMATH_TRIG_INLINE V RoundToOdd(D d, V hi, V lo) {
  const RebindToUnsigned<D> du;
  const V s = Add(hi, lo);
  const V t = Sub(lo, Sub(s, hi));
  const auto sb = BitCast(du, s);
  const auto opposite = ShiftRight<63>(Xor(BitCast(du, t), sb));
  const V odd = BitCast(d, Or(Sub(sb, opposite), Set(du, uint64_t{1})));
  return IfThenElse(Eq(t, Zero(d)), s, odd);
}

// sinpi and/or cospi of float32 values, correctly rounded (kWant: kWantSin | kWantCos; the outputs
// are bit-identical whichever are wanted). xr = x (|x| < 2^24; else 0: every such float is an
// even integer), kd = 2 xr + 1.5 2^52 holds n = rint(2 xr) (q = n mod 4 in its low bits),
// r = xr - n/2 (exact; |r| <= 1/4, at most 24 significant bits). sinpi = (S, C, -S, -C)[q],
// cospi = (C, -S, -C, S)[q] with S + s, C + c from SinCosPiPoly rounded to odd. Zero results:
// sinpi at integers gets the sign of x, cospi at half-integers +0 (y + 0). +-inf, NaN -> NaN.
template <int kWant, class D, class V>
ACCELMATH_KERNEL ACCELMATH_TRIG_INLINE V SinCosPiImpl(D d, V x, V& cospi_out) {
  const RebindToUnsigned<D> du;
  const V ax = Abs(x);
  const bool ordinary = AllTrue(d, Lt(ax, Set(d, kTwoPow24)));
  const V xr = ordinary ? x : IfThenElseZero(Lt(ax, Set(d, kTwoPow24)), x);
  const V shift = Set(d, coeffs::kTrigShift52);
  const V kd = MulAdd(xr, Set(d, 2.0), shift);
  const V r = MulAdd(Sub(kd, shift), Set(d, -0.5), xr);
  V sh, sl, ch, cl;
  SinCosPiPoly<kWantSin | kWantCos>(d, r, sh, sl, ch, cl);
  const auto odd = BitSet<0>(d, kd);
  const V inf = Set(d, std::numeric_limits<double>::infinity());
  V ys = x;
  if constexpr ((kWant & kWantCos) != 0) {
    V yc = RoundToOdd(d, IfThenElse(odd, sh, ch), IfThenElse(odd, sl, cl));
    const V kd1 = BitCast(d, Add(BitCast(du, kd), Set(du, uint64_t{1})));
    yc = Add(FlipSign<1>(d, yc, kd1), Zero(d));
    if (!ordinary) yc = IfThenElse(Lt(ax, inf), yc, Sub(x, x));
    cospi_out = yc;
  }
  if constexpr ((kWant & kWantSin) != 0) {
    ys = RoundToOdd(d, IfThenElse(odd, ch, sh), IfThenElse(odd, cl, sl));
    ys = FlipSign<1>(d, ys, kd);
    ys = IfThenElse(Eq(ys, Zero(d)), SignBitOf(d, x), ys);
    if (!ordinary) ys = IfThenElse(Lt(ax, inf), ys, Sub(x, x));
  }
  return ys;
}

// The fast path of sinpi and cospi: sin(pi a) for 0 <= a < 2^24 (cospi passes |x| + 1/2, exact).
// kd = a + 1.5 2^52 holds k = rint(a), r = (-1)^k (a - k) exactly (both terms' signs flipped by
// bit 0 of bits(kd), then one exact subtraction: an integer a gives r = +0), |r| <= 1/2;
// sin(pi a) = (-1)^k sin(pi (a - k)) = sin(pi r) = r Q(z) (kSinPiFastPoly, degree 13).
template <class D, class V>
ACCELMATH_KERNEL ACCELMATH_TRIG_INLINE V SinPiFast(D d, V a) {
  const RebindToUnsigned<D> du;
  const V shift = Set(d, coeffs::kTrigShift52);
  const V kd = Add(a, shift);
  const auto ks = ShiftLeft<63>(BitCast(du, kd));
  const V as = BitCast(d, Xor(BitCast(du, a), ks));
  const V k = BitCast(d, Xor(BitCast(du, Sub(kd, shift)), ks));
  const V r = Sub(as, k);
  return Mul(r, Horner(d, Mul(r, r), coeffs::kSinPiFastPoly()));
}

// Lanes whose binary64 y has its low 29 bits within kSinPiMidWindow of 2^28, i.e. y within that many
// ulps of a float32 midpoint (for y in float32's normal range): the fast path's rounding is not
// certain there (generator: its error is below kSinPiMidWindow / 2 ulps).
template <class D, class V>
ACCELMATH_KERNEL ACCELMATH_TRIG_INLINE auto NearMidpoint(D /*d*/, V y) {
  const RebindToUnsigned<D> du;
  constexpr uint64_t kW = coeffs::kSinPiMidWindow;
  const auto low = And(Add(BitCast(du, y), Set(du, kW - (uint64_t{1} << 28))), Set(du, (uint64_t{1} << 29) - 1));
  return Lt(low, Set(du, 2 * kW));
}

// sinpi and/or cospi: the fast path where every lane has 2^-126 <= |x| < 2^24 (one bit test per
// vector: bits(|x|) - bits(2^-126) below bits(2^24) - bits(2^-126)) and no result is near a float32
// midpoint; otherwise the correctly rounded SinCosPiImpl for the whole vector. Both paths round
// correctly, so every lane's float32 result is the same either way.
template <int kWant, class D, class V>
ACCELMATH_KERNEL ACCELMATH_TRIG_INLINE V SinCosPiDispatch(D d, V x, V& cospi_out) {
  const RebindToUnsigned<D> du;
  const V ax = Abs(x);
  constexpr uint64_t kLo = 0x3810000000000000ull;  // bits of 2^-126
  constexpr uint64_t kHi = 0x4170000000000000ull;  // bits of 2^24
  const auto ordinary = Lt(Sub(BitCast(du, ax), Set(du, kLo)), Set(du, kHi - kLo));
  if (AllTrue(du, ordinary)) {
    V ys = x, yc = x;
    auto near = Lt(Zero(du), Zero(du));
    if constexpr ((kWant & kWantSin) != 0) {
      ys = SinPiFast(d, ax);
      near = NearMidpoint(d, ys);
    }
    if constexpr ((kWant & kWantCos) != 0) {
      yc = SinPiFast(d, Add(ax, Set(d, 0.5)));
      near = Or(near, NearMidpoint(d, yc));
    }
    if (AllFalse(du, near)) {
      if constexpr ((kWant & kWantCos) != 0) cospi_out = yc;
      return BitCast(d, Xor(BitCast(du, ys), BitCast(du, SignBitOf(d, x))));
    }
  }
  return SinCosPiImpl<kWant>(d, x, cospi_out);
}

}  // namespace trig_impl

// Sin(d, x) = sin x (float32 lanes; trig_impl::SinCosF32).
//   |x| < kTrigF32Limit (2^8) for every lane of the vector: on a = |x|, k = rint(a 2/pi), r = a - k pi/2
//   = hi + lo in float32 (ReduceF32: P1 exact, P2 exact product and Fast2Sum, P3 by one fma; within
//   2^-28.46 relative), |r| <= pi/4 (1 + 2^-16.2); S = hi + (lo (1 - z/2) + hi z P(z)) (kSinF32Poly),
//   C = (1 - z/2) + (z^2 Q(z) + e - zl/2 - hi lo) (kCosF32Poly, 1 - z/2 and hi^2 split exactly),
//   z = hi^2; sin x = sign(x) (S, C, -S, -C)[k mod 4].
//   Otherwise the vector takes the binary64 kernel (ViaF64, each half in binary64 lanes, rounded
//   once): x = j pi/2 + r, j even, Cody-Waite below 2^32 (two fmas), Payne-Hanek above
//   (kTrigPH0/1/2), sin x = (-1)^(j/2) sin(r), sin(r) = r Q(z) (kSinPoly, degree 11, rel. error
//   2^-35.2); its lanes with |x| < 2^8 keep the fast path's values.
//   Specials: sin(+-0) = +-0, subnormal x -> x, +-inf, NaN -> NaN.
//   Measured: max 0.714803 ulp at x = -0x1.f2806p+1 (-3.89454269); 99.931547% correctly rounded
//   (`accelmath sweep sin --threads 2`, all 2^32 inputs, 129 s).
template <class D, class V>
ACCELMATH_KERNEL ACCELMATH_TRIG_INLINE V Sin(D d, V x) {
  V unused;
  return trig_impl::SinCosF32<trig_impl::kWantSin>(d, x, unused);
}

// Cos(d, x) = cos x: as Sin, cos x = (C, -S, -C, S)[k mod 4] on the fast path; the binary64 path with
// j odd (kd = (x 2/pi + 1) + 1.5 2^53 holds the even j + 1), cos x = (-1)^((j + 1)/2) sin(r), the
// same polynomial. Specials: cos(+-0) = 1, +-inf, NaN -> NaN.
//   Measured: max 0.715502 ulp at x = -0x1.942ebp-1 (-0.789418697); 99.939486% correctly rounded
//   (`accelmath sweep cos --threads 2`, all 2^32 inputs, 128 s).
template <class D, class V>
ACCELMATH_KERNEL ACCELMATH_TRIG_INLINE V Cos(D d, V x) {
  V y;
  trig_impl::SinCosF32<trig_impl::kWantCos>(d, x, y);
  return y;
}

// SinCos(d, x, cos_out) = sin x, with cos x in cos_out: bit-identical to Sin and Cos (the same
// reduction and polynomials on the fast path; one Payne-Hanek shared on the binary64 path).
template <class D, class V>
ACCELMATH_KERNEL ACCELMATH_TRIG_INLINE V SinCos(D d, V x, V& cos_out) {
  return trig_impl::SinCosF32<trig_impl::kWantSin | trig_impl::kWantCos>(d, x, cos_out);
}

// Tan(d, x) = tan x (float32 lanes; trig_impl::TanF32).
//   |x| < 2^8 for every lane: the reduction and S = hi + sl, C = ch + cl of Sin as unrounded pairs;
//   tan x = sign(x) S/C (k even) or -C/S (k odd): t = 1/dh (IEEE division), q0 = nh t,
//   tan = q0 + ((nh - q0 dh) + nl - q0 dl) t (one rounding that matters).
//   Otherwise the vector takes TanF64 (ViaF64): x = j pi/2 + r, j the nearest integer (Cody-Waite
//   / Payne-Hanek as Sin), |r| <= pi/4 (1 + 2^-20); S(r) = r Q(z), C(r) = 1 + z P(z) (kTanSinPoly,
//   kTanCosPoly, rel. errors 2^-37.4, 2^-43.6), S/C or -C/S as num * Recip(den); its lanes with
//   |x| < 2^8 keep the fast path's values.
//   Specials: tan(+-0) = +-0, subnormal x -> x, +-inf, NaN -> NaN.
//   Measured: max 0.837862 ulp at x = 0x1.0aff74p+6 (66.7494659); 99.917645% correctly rounded
//   (`accelmath sweep tan --threads 2`, all 2^32 inputs, 144 s).
template <class D, class V>
ACCELMATH_KERNEL ACCELMATH_TRIG_INLINE V Tan(D d, V x) {
  return trig_impl::TanF32(d, x);
}

// SinPi(d, x) = sin(pi x), correctly rounded (SinCosPiDispatch).
//   Fast path (every lane 2^-126 <= |x| < 2^24): a = |x|, k = rint(a), r = (-1)^k (a - k) exact,
//   |r| <= 1/2, sin(pi a) = r Q(r^2) (kSinPiFastPoly, degree 13, error with roundings 2^-43.8), the
//   sign of x put back. Where a lane's result is within kSinPiMidWindow (2048) binary64 ulps of a
//   float32 midpoint, or outside that range, the vector takes SinCosPiImpl: x = n/2 + r exactly,
//   |r| <= 1/4 (|x| >= 2^24: r = 0, n = 0); sin(pi r), cos(pi r) as double-doubles (SinCosPiPoly:
//   kSinPiS1Hi/Lo, kSinPiS3Hi/Lo and kSinPiPoly, rel. error 2^-68.2; kCosPiC2Hi/Lo and kCosPiPoly,
//   2^-68.3), picked by n mod 4, rounded to odd in binary64.
//   Specials: sinpi(+-n) = +-0 for integers n (also +-0 and |x| >= 2^23), +-inf, NaN -> NaN.
//   Measured: max 0.500000 ulp; 100.000000% correctly rounded (`accelmath sweep sinpi --threads 2`,
//   all 2^32 inputs, 79 s).
template <class D, class V>
ACCELMATH_KERNEL ACCELMATH_TRIG_INLINE V SinPi(D d, V x) {
  V unused;
  return trig_impl::SinCosPiDispatch<trig_impl::kWantSin>(d, x, unused);
}

// CosPi(d, x) = cos(pi x), correctly rounded: as SinPi, the fast path on a = |x| + 1/2 (exact;
// every lane |x| < 2^24). Specials: cospi(n + 1/2) = +0, cospi(+-0) = 1, |x| >= 2^24 -> 1, +-inf,
// NaN -> NaN.
//   Measured: max 0.500000 ulp; 100.000000% correctly rounded (`accelmath sweep cospi --threads 2`,
//   all 2^32 inputs, 88 s).
template <class D, class V>
ACCELMATH_KERNEL ACCELMATH_TRIG_INLINE V CosPi(D d, V x) {
  V y;
  trig_impl::SinCosPiDispatch<trig_impl::kWantCos>(d, x, y);
  return y;
}

// SinCosPi(d, x, cospi_out) = sinpi x, with cospi x in cospi_out: bit-identical to SinPi and CosPi.
template <class D, class V>
ACCELMATH_KERNEL ACCELMATH_TRIG_INLINE V SinCosPi(D d, V x, V& cospi_out) {
  return trig_impl::SinCosPiDispatch<trig_impl::kWantSin | trig_impl::kWantCos>(d, x, cospi_out);
}

// TanPi(d, x) = tan(pi x).
//   x = n/2 + r exactly as SinCosPiImpl; S = r P(z), C = 1 + z Q(z) in plain binary64
//   (kTanPiSinPoly, kTanPiCosPoly, rel. errors 2^-37.7, 2^-43.6); tanpi x = S/C (n even) or -C/S
//   (n odd), the quotient as num * Recip(den).
//   Specials (where r = 0, tested once per vector): integers -> +-0 with the sign of x flipped
//   for odd n/2 (tanpi(n) = +0 for positive even n, -0 for positive odd n, the mirror for negative
//   n; +-0 -> +-0); half-integers n/2 -> +inf where (n - 1)/2 is even, -inf where odd; |x| >= 2^24
//   -> +-0 with the sign of x; +-inf, NaN -> NaN.
//   Measured: max 0.500076 ulp at x = -0x1.44f62cp-21 (-6.05288164e-07); 99.997161% correctly
//   rounded (`accelmath sweep tanpi --threads 2`, all 2^32 inputs, 58 s).
template <class D, class V>
ACCELMATH_KERNEL ACCELMATH_TRIG_INLINE V TanPi(D d, V x) {
  using namespace trig_impl;  // NOLINT
  const RebindToUnsigned<D> du;
  const V ax = Abs(x);
  const bool ordinary = AllTrue(d, Lt(ax, Set(d, kTwoPow24)));
  const V xr = ordinary ? x : IfThenElseZero(Lt(ax, Set(d, kTwoPow24)), x);
  const V shift = Set(d, coeffs::kTrigShift52);
  const V kd = MulAdd(xr, Set(d, 2.0), shift);
  const V r = MulAdd(Sub(kd, shift), Set(d, -0.5), xr);
  const V z = Mul(r, r);
  const V s = Mul(r, Horner(d, z, coeffs::kTanPiSinPoly()));
  const V c = MulAdd(z, Horner(d, z, coeffs::kTanPiCosPoly()), Set(d, 1.0));
  const auto odd = BitSet<0>(d, kd);
  const V num = FlipSign<0>(d, IfThenElse(odd, c, s), kd);
  const V den = IfThenElse(odd, s, c);
  V y = Mul(num, Recip(d, den));
  const auto rzero = Eq(r, Zero(d));
  if (!AllFalse(d, rzero)) {
    const V inf = Set(d, std::numeric_limits<double>::infinity());
    const auto sign_n = And(ShiftLeft<62>(BitCast(du, kd)), Set(du, kSignBit));
    const auto sx = BitCast(du, IfThenElse(odd, Zero(d), SignBitOf(d, x)));
    const V special = BitCast(d, Or(BitCast(du, IfThenElseZero(odd, inf)), Xor(sign_n, sx)));
    y = IfThenElse(rzero, special, y);
  }
  if (!ordinary) y = IfThenElse(Lt(ax, Set(d, std::numeric_limits<double>::infinity())), y, Sub(x, x));
  return y;
}

// SinCosPiCore(d, t, cospi_out) = sin(pi t), with cos(pi t) in cospi_out, for any finite binary64
// t (not only float32 values; e.g. Fresnel's arguments). a = |t| is reduced mod 2 exactly first
// (a - 2 rint(a/2) for a < 2^53, where it is exact; a >= 2^53 is an even integer: 0), the sign of
// t put back (sinpi is odd, cospi even), then as SinCosPiImpl: n = rint(2t'), r = t' - n/2 exact,
// SinCosPiPoly, hi + lo summed (not rounded to odd). Relative error about 2^-52 (2^-50 when r has
// more than 26 bits, as z = r^2 is then rounded). Not handled: the sign of zero results, +-inf and
// NaN (unspecified results); the caller writes those.
template <class D, class V>
ACCELMATH_KERNEL ACCELMATH_TRIG_INLINE V SinCosPiCore(D d, V t, V& cospi_out) {
  using namespace trig_impl;  // NOLINT
  const RebindToUnsigned<D> du;
  const V a = Abs(t);
  const V shift = Set(d, coeffs::kTrigShift52);
  const V k = Sub(MulAdd(a, Set(d, 0.5), shift), shift);
  const V am = IfThenElseZero(Lt(a, Set(d, kTwoPow53)), MulAdd(k, Set(d, -2.0), a));
  const V tr = BitCast(d, Xor(BitCast(du, am), BitCast(du, SignBitOf(d, t))));
  const V kd = MulAdd(tr, Set(d, 2.0), shift);
  const V r = MulAdd(Sub(kd, shift), Set(d, -0.5), tr);
  V sh, sl, ch, cl;
  SinCosPiPoly<kWantSin | kWantCos>(d, r, sh, sl, ch, cl);
  const auto odd = BitSet<0>(d, kd);
  const V yc = Add(IfThenElse(odd, sh, ch), IfThenElse(odd, sl, cl));
  const V kd1 = BitCast(d, Add(BitCast(du, kd), Set(du, uint64_t{1})));
  cospi_out = FlipSign<1>(d, yc, kd1);
  return FlipSign<1>(d, Add(IfThenElse(odd, ch, sh), IfThenElse(odd, cl, sl)), kd);
}

}  // namespace accelmath::ACCELMATH_KNS

#endif  // ACCELMATH_KERNELS_TRIG_INL_H_ toggle
