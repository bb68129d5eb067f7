// The trigonometric family: sin, cos, tan, sinpi, cospi, tanpi, and the pair kernels SinCos and
// SinCosPi. The only place their algorithms live.
//
// sin, cos, tan and SinCos run in float32 lanes (registry eval F32): x = k pi/2 + r, k the nearest
// integer (above 2^8 possibly the next one: |r| <= pi/4 (1 + 2^-10.52)), r as a float32 pair
// hi + lo; float32 polynomials with the large parts kept exact (one rounding that matters), picked
// and signed by k mod 4; tan: one polynomial for tan r as a float32 pair, -1/tan by one division and
// a correction for odd k.
// The reduction: where every lane of the vector has 2^-12 <= |x| < kTrigF32Limit (2^8), float32
// Cody-Waite with exact steps (ReduceF32); otherwise lanes below 2^-12 (zeros included) reduce 0
// instead and take x (sin, tan) or 1 (cos) at the end (kTrigTiny); where no lane is 2^8 or more, inf
// or NaN, that is all (the middle tier: the fast path's code with those lanes zeroed, inline), else
// (the slow path) where the vector has one, lanes with 2^8 <= |x| < inf
// get their (k mod 4, hi, lo) from Payne-Hanek in binary64 (HugeReduce, off the fast path: each half of
// the vector widened exactly; x = m 2^e, m a 24-bit integer shifted by up to 15 bits, times one of
// eight 104-bit windows of 2/pi mod 4 held in two doubles and picked by a register permute, the
// product's high part exact by fma; r within 2^-33.8 relative, more accurate than ReduceF32's
// 2^-28.46), and the same polynomials follow for every lane: a lane's result never depends on its
// neighbours. The reduced argument of a float32 is never below 2^-29.2 (generator: continued
// fractions). tanpi runs in float32 lanes too (registry eval F32; TanPiF32: x = n/2 + r exactly,
// tan(pi r) as a float32 pair from one polynomial, -1/tan for odd n). sinpi, cospi take float32
// lanes too (registry eval F32) and evaluate in binary64 lanes, each half of the vector widened
// exactly and each result rounded to float32 once (DemoteTo).
//   sinpi, cospi (correctly rounded): a fast path, m = rint(|x|) and r = (-1)^m (|x| - m) exactly
//   in float32 lanes, then in binary64 sin(pi r) (cospi: sin(pi h), h = (-1)^m (1/2 - |r|)) by one
//   odd polynomial of degree 13 on |r| <= 1/2 (lanes with |x| >= 2^23, inf or NaN set to 0 there
//   and given their exact results after, where a vector has such a lane); a vector with a lane
//   whose binary64 result lies within kSinPiMidWindow ulps of a float32 midpoint (about 2^-17 of
//   the lanes), or a subnormal lane, takes the correctly rounded path instead: x = n/2 + r exactly
//   (n = rint(2x), |r| <= 1/4; |x| >= 2^24 is an even integer: r = 0), sin(pi r) and cos(pi r) as
//   double-doubles (the two leading terms' products exact by fma; r has at most 24 bits so r^2 is
//   exact), hi + lo rounded to odd in binary64 so that the final rounding to float32 is the
//   correct one. Every path rounds correctly: every lane's float32 result is the same either way.
// No per-lane branches: every lane runs the same operations; special values are written last
// with masks (a vector whose lanes are all ordinary skips that step as a whole). Only correctly
// rounded IEEE operations, integer/bit operations, selects, table gathers and permutes, in a fixed order:
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
// The huge-argument reduction of the float32 kernels is kept out of the fast path's code: inlined
// there, its size keeps the compiler from inlining the kernel into the array loop (constants then
// reloaded per call). sin/cos/sincos take the whole slow path out of line (SinCosF32Slow, the
// reduction inlined in it); tan calls the reduction out of line (HugeReduceCall): each measured the
// faster of the two on both targets.
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
inline constexpr double kTwoPow24 = 0x1p24;    // float32 at or above it: even integers
inline constexpr double kTwoPow53 = 0x1p53;    // binary64 at or above it: even integers
// Below kTrigTiny (2^-12) sin x rounds to x, cos x to 1 and tan x to x (the next terms, x^2/6, x^2/2
// and x^2/3 relative, are below half an ulp); the float32 kernels return those, and reduce 0 instead
// of such lanes: their polynomials would underflow to subnormals, which cost a microcode assist per
// operation on x86 (sin of |x| < 1e-10 ran 30-50x slower). kTinyBits, kLimitBits, kInfBits: the bits of
// 2^-12, of kTrigF32Limit and of inf shifted left by one (the sign dropped), for the one-test range
// checks (AllAbsIn). The slow paths skip the tiny/inf/NaN fix-ups where every lane is in [2^-12, inf):
// tan@huge +5% / +3%, sincos@huge +4% / +1% (the AVX2 code forced on an AVX-512 Xeon / AVX3).
inline constexpr float kTrigTiny = 0x1p-12f;
inline constexpr uint32_t kTinyBits = 0x39800000u << 1;
inline constexpr uint32_t kLimitBits = 0x43800000u << 1;
inline constexpr uint32_t kInfBits = 0x7F800000u << 1;
inline constexpr uint32_t kTanPiLoBits = 0x35800000u << 1;  // 2^-20 and 2^21: tanpi's fast path
inline constexpr uint32_t kTanPiHiBits = 0x4A000000u << 1;
static_assert(coeffs::kTrigF32Limit == 0x1p8f, "kLimitBits holds the bits of 2^8");
inline constexpr int kWantSin = 1;
inline constexpr int kWantCos = 2;

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

// ---- reduction by pi/2 of huge arguments (binary64 lanes) ---------------------------------------
// Row q (int64 lanes, 0..7) of kTrigPH0/1 in c0, c1: one register permute per table where a vector
// holds 8 doubles (two and a select where it holds 4), a gather otherwise (the same values).
template <class D, class V, class VI>
ACCELMATH_KERNEL ACCELMATH_TRIG_INLINE void PayneHanekRow(D d, VI q, V& c0, V& c1) {
  static constexpr auto kT0 = coeffs::kTrigPH0();
  static constexpr auto kT1 = coeffs::kTrigPH1();
  static_assert(coeffs::kTrigPHRows == 8, "the lookups below hold 8 rows");
  if constexpr (MaxLanes(D()) == 8) {
    const auto idx = IndicesFromVec(d, q);
    c0 = TableLookupLanes(LoadU(d, kT0.data()), idx);
    c1 = TableLookupLanes(LoadU(d, kT1.data()), idx);
  } else if constexpr (MaxLanes(D()) == 4) {
    const RebindToSigned<D> di;
    const auto idx = IndicesFromVec(d, And(q, Set(di, int64_t{3})));
    const auto up = RebindMask(d, Gt(q, Set(di, int64_t{3})));
    c0 = IfThenElse(up, TableLookupLanes(LoadU(d, kT0.data() + 4), idx), TableLookupLanes(LoadU(d, kT0.data()), idx));
    c1 = IfThenElse(up, TableLookupLanes(LoadU(d, kT1.data() + 4), idx), TableLookupLanes(LoadU(d, kT1.data()), idx));
  } else {
    c0 = GatherIndex(d, kT0.data(), q);
    c1 = GatherIndex(d, kT1.data(), q);
  }
}

// Payne-Hanek for lanes holding a float32 value xp in [kTrigF32Limit, 2^128): xp = m 2^(E - 23),
// m = 2^23 + the 23 mantissa bits, E = 8 + 16 q + s (0 <= s < 16, q < 8): xp 2/pi = m' T_q with
// m' = m 2^s < 2^39 and row q of kTrigPH0/1 (c0 + c1 = (2^(16 q - 15) 2/pi) mod 4 up to 2^-104, at
// most 53 bits each). PayneHanekArgs finds both in float32 lanes (16 per AVX-512 vector, against 8
// for the same steps on the widened binary64 values): q = bits 27..30 of bits(xp) - bits(2^8), m'
// = xp with its exponent field lowered by 16 q and raised by 15 (a float32: 2^23 <= m' < 2^39,
// exact), widened exactly by the caller. xp 2/pi = m' c0 + m' c1 (mod 4, up to 2^-65):
//   h0 = m' c0 rounded, K0 = rint(h0) (h0 < 2^41; kd0 = h0 + 1.5 2^52 holds it),
//   m' c0 - K0 by one fma, exact (a multiple of 2^-51, |m' c0 - K0| <= 1/2 + 2^-12),
//   f = m' c1 + (m' c0 - K0) (one fma: one rounding, 2^-53 relative; m' c1 < 2^-11).
// (Before, m' c0 - K0 was summed from h0 - K0 and the fma's l0 = m' c0 - h0: the same value,
// two operations more per vector of doubles. The same bits on all 2^32 inputs for sin, cos, tan
// and sincos with AVX3 and with the AVX2 code forced on an AVX-512 Zen 5, and from the scalar lane
// (accelmath::scalar) on every positive float from 2^8 up; not run on Intel, on an AVX2-only CPU
// or on Arm. `bench/ab.py --repetitions 80`, 64K, on that Zen 5,
// each build once as the linked one: sin@huge and cos@huge 1.04-1.05x, tan@huge 1.03x / 1.03x,
// sincos@huge 1.03x / 1.19x (code placement: docs/performance.md) with AVX3; 1.04x, 1.04x, 1.01-1.02x
// and 1.01-1.02x with the AVX2 code forced there; the rows without huge lanes within 1-3%.)
// So xp 2/pi = K0 + f (mod 4), |f| <= 1/2 + 2^-11.52 (generator: PH_FMAX), with an absolute error below 2^-64 (the
// table's tail) and f's one rounding, against a fraction of at least 2^-29.86 for every float32
// (generator: kTrigMinFrac): relative error below 2^-34. The low bits of bits(kd0) are K0 mod 4.
// f is not rounded a second time into [-1/2, 1/2] (K1 = rint(f), f - K1: four operations per vector
// of doubles): the float32 polynomials are fitted on the slightly wider range instead (generator:
// F_R), and sin@huge, cos@huge, tan@huge, sincos@huge ran +6%, +7%, +6%, +7% faster with the AVX2
// code forced on an AVX-512 Intel Xeon and +9%, +9%, +8%, +12% with AVX3 (bench_math, 64K, 7
// interleaved runs), the fast path unchanged.
template <class D, class V, class VI>
ACCELMATH_KERNEL ACCELMATH_TRIG_INLINE void PayneHanekArgs(D d, V xp, V& m, VI& q) {
  const RebindToUnsigned<D> du;
  const auto bits = BitCast(du, xp);
  const auto qf = And(Sub(bits, Set(du, 0x43800000u)), Set(du, 0xFu << 27));  // 0x43800000: bits(2^8)
  m = BitCast(d, Sub(Add(bits, Set(du, 15u << 23)), qf));
  q = BitCast(RebindToSigned<D>(), ShiftRight<27>(qf));
}
template <class D, class V, class VI>
ACCELMATH_KERNEL ACCELMATH_TRIG_INLINE V PayneHanek(D d, V m, VI q, V& kd0) {
  V c0, c1;
  PayneHanekRow(d, q, c0, c1);
  const V shift = Set(d, coeffs::kTrigShift52);
  kd0 = Add(Mul(m, c0), shift);
  return MulAdd(m, c1, MulSub(m, c0, Sub(kd0, shift)));
}

// ---- float32 lanes: the fast path of sin, cos, tan and the whole-vector slow path --------------------
// The float32 reduction of a = |x| < kTrigF32Limit (a >= 0, also +0): r = a - k pi/2 = hi + lo,
// k = rint(a 2/pi) in the low bits of kd (kd = a c + 1.5 2^23, c = kTrigF32InvPio2; 0 <= k <= 163):
//   r1 = a - k P1 (one fma, exact: for k >= 1, a > 0.78 is a multiple of 2^-24, P1 (float32 pi/2) a
//   multiple of 2^-23 and |r1| < 1; k = 0 gives a), p = k P2 (exact: P2 has 15 bits, k 8),
//   hi = r1 - p, lo = (r1 - hi) - p (hi + lo = r1 - p exactly: Fast2Sum where |r1| >= |p|, else r1 - p
//   itself is exact and lo = 0), lo = lo - k P3 (one fma). |r| <= pi/4 (1 + 2^-16.2); hi + lo within
//   2^-28.46 relative of r, |r| >= 2^-27.83 where k != 0 (generator: continued fractions); |lo| <=
//   2^-24 |hi| + 2^-32.9. a = +0 gives hi = lo = +0. TanF32 and the fast path of SinCosF32 pass x
//   itself (|x| < 2^8): every step is odd under a -> -a (rint ties to even included), so -a gives
//   -k, -hi, -lo (k mod 4 in the low bits of kd, two's complement).
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

// sin(hi + lo) = hi + sl and cos(hi + lo) = ch + cl (|hi + lo| <= pi/4 (1 + 2^-10.52), HugeReduce's
// range; ReduceF32's is pi/4 (1 + 2^-16.2)), the sums left
// unrounded. z = hi^2 rounded, hh = -hi/2 (exact):
//   ch = 1 - hi^2/2 rounded once (fma hh hi + 1), e = (1 - ch) - hi^2/2 (1 - ch exact by Sterbenz,
//   ch in [0.69, 1]; e, ch's rounding error, rounded once by fma);
//   sl = lo ch + (hi z) P(z) (kSinF32Poly; lo cos(hi) to first order);
//   cl = z^2 Q(z) + (e - hi lo) (kCosF32Poly; - hi lo = lo's first-order term).
// SinCosF32Parts2: the same for two vectors, their steps alternating (TanF32Pair says why);
// SinCosF32Parts: one vector, the same code given it twice (a compiler computes each step once).
template <class D, class V>
ACCELMATH_KERNEL ACCELMATH_TRIG_INLINE void SinCosF32Parts2(D d, V hi0, V lo0, V hi1, V lo1, V& sl0, V& ch0, V& cl0,
                                                            V& sl1, V& ch1, V& cl1) {
  const V one = Set(d, 1.0f);
  const V hh0 = Mul(hi0, Set(d, -0.5f));
  const V hh1 = Mul(hi1, Set(d, -0.5f));
  const V z0 = Mul(hi0, hi0);
  const V z1 = Mul(hi1, hi1);
  ch0 = MulAdd(hh0, hi0, one);
  ch1 = MulAdd(hh1, hi1, one);
  V ps0, ps1, pc0, pc1;
  Horner2(d, z0, z1, coeffs::kSinF32Poly(), ps0, ps1);
  Horner2(d, z0, z1, coeffs::kCosF32Poly(), pc0, pc1);
  sl0 = MulAdd(Mul(hi0, z0), ps0, Mul(lo0, ch0));
  sl1 = MulAdd(Mul(hi1, z1), ps1, Mul(lo1, ch1));
  const V e0 = MulAdd(hh0, hi0, Sub(one, ch0));
  const V e1 = MulAdd(hh1, hi1, Sub(one, ch1));
  cl0 = MulAdd(Mul(z0, z0), pc0, NegMulAdd(hi0, lo0, e0));
  cl1 = MulAdd(Mul(z1, z1), pc1, NegMulAdd(hi1, lo1, e1));
}
template <class D, class V>
ACCELMATH_KERNEL ACCELMATH_TRIG_INLINE void SinCosF32Parts(D d, V hi, V lo, V& sl, V& ch, V& cl) {
  V sl1, ch1, cl1;
  SinCosF32Parts2(d, hi, lo, hi, lo, sl, ch, cl, sl1, ch1, cl1);
}

// The huge lanes' reduction in binary64 lanes, from PayneHanekArgs' m' (widened) and q (the lanes
// other than huge ones hold kTrigF32Limit's). PayneHanek gives |x| 2/pi = K + f (mod 4); r = f C1
// (C1 = pi/2 rounded; within 2^-33.9 relative, |r| <= pi/4 (1 + 2^-10.52), |r| >= 2^-29.2),
// returned; kbits = bits(kd0), whose two low bits are K mod 4 (the other bits are not a float's).
template <class D, class V, class VI, class VU>
ACCELMATH_KERNEL ACCELMATH_TRIG_INLINE V HugeReduceF64(D d, V m, VI q, VU& kbits) {
  V kd0;
  const V f = PayneHanek(d, m, q, kd0);
  kbits = BitCast(RebindToUnsigned<D>(), kd0);
  return Mul(f, Set(d, coeffs::kTrigPio2C1));
}

// The huge lanes of the float32 kernels' slow path: lanes with a = |x| in [kTrigF32Limit,
// 2^128) get (hi, lo, kd) from HugeReduceF64 instead of ReduceF32's: PayneHanekArgs on the float32
// vector, each half of m' and q widened to binary64 and int64 lanes (one lane: directly), r split
// into float32 hi = r rounded, lo = (r - hi) rounded (r - hi exact; hi + lo within 2^-33.8 relative
// of x - K pi/2, |lo| <= 2^-24 |hi|). kd: the low 32-bit halves of the two halves' bits(kd0), one
// permute, whose two low bits are K mod 4, as in ReduceF32's kd (1.5 2^23 + k); the callers read
// only those bits of kd (k's parity and, for sin and cos, k mod 4 by shifts). The one lane: kd =
// 1.5 2^23 + (K mod 4) through binary64, exactly. Against the version before (m' and q from the
// widened binary64 bits, K mod 4 masked and put into 1.5 2^23's bits: three operations more per
// half and three per vector), on an AVX-512 Zen 4, C ABI, 64K, |x| log-uniform in [1, 1e30],
// medians of 5 alternating rounds: sin@huge 616 -> 634 Melem/s, sincos@huge 562 -> 585, tan@huge
// 540 -> 544 with AVX3 (that CPU's target); 398 -> 405, 375 -> 378, 309 -> 315 with the AVX2 code
// forced on it; the same bits on all 2^32 inputs (sin, cos, tan, sincos; AVX3, the forced AVX2
// code, SCALAR). Unmeasured on Intel and on a CPU whose best target is AVX2. Every other lane
// (|x| < 2^8, +-inf, NaN) keeps its values: the polynomials that follow see the same inputs in small
// lanes whichever path the vector took. hi, lo and kd are updated in place (not returned as a
// struct: SVE's vectors cannot be members). HugeReduceCall: the same out of line (tan).
template <class D, class V>
ACCELMATH_KERNEL ACCELMATH_TRIG_INLINE void HugeReduce(D d, V a, V& hi, V& lo, V& kd) {
  const V lim = Set(d, coeffs::kTrigF32Limit);
  const auto huge = And(Ge(a, lim), Lt(a, Set(d, std::numeric_limits<float>::infinity())));
  const V ap = IfThenElse(huge, a, lim);
  V m;
  decltype(Zero(RebindToSigned<D>())) q;
  PayneHanekArgs(d, ap, m, q);
  // k: kd of ReduceF32's form where one lane (the bits of 1.5 2^23 + (K mod 4)); elsewhere bits
  // whose two low bits are K mod 4, which is all the callers read of a huge lane's kd.
  V h, l, k;
  if constexpr (MaxLanes(D()) == 1) {
    const Rebind<double, D> dd;
    const RebindToUnsigned<decltype(dd)> du64;
    decltype(Zero(du64)) k64;
    const auto r = HugeReduceF64(dd, PromoteTo(dd, m), PromoteTo(RebindToSigned<decltype(dd)>(), q), k64);
    h = DemoteTo(d, r);
    l = DemoteTo(d, Sub(r, PromoteTo(dd, h)));
    const auto kq = BitCast(dd, Or(BitCast(du64, Set(dd, coeffs::kTrigShift52)), And(k64, Set(du64, uint64_t{3}))));
    k = DemoteTo(d, Sub(kq, Set(dd, coeffs::kTrigShift52 - double{coeffs::kTrigF32Shift})));  // 1.5 2^23 + (K mod 4)
  } else {
    const RebindToUnsigned<D> du;
    const Half<D> dh;
    const Half<RebindToSigned<D>> dih;
    const Rebind<double, decltype(dh)> dd;
    const RebindToSigned<decltype(dd)> di64;
    decltype(Zero(RebindToUnsigned<decltype(dd)>())) kl, ku;
    const auto rl = HugeReduceF64(dd, PromoteTo(dd, LowerHalf(dh, m)), PromoteTo(di64, LowerHalf(dih, q)), kl);
    const auto ru = HugeReduceF64(dd, PromoteTo(dd, UpperHalf(dh, m)), PromoteTo(di64, UpperHalf(dih, q)), ku);
    const auto hl = DemoteTo(dh, rl);
    const auto hu = DemoteTo(dh, ru);
    h = Combine(d, hu, hl);
    l = Combine(d, DemoteTo(dh, Sub(ru, PromoteTo(dd, hu))), DemoteTo(dh, Sub(rl, PromoteTo(dd, hl))));
    k = BitCast(d, ConcatEven(du, BitCast(du, ku), BitCast(du, kl)));  // the low halves of the 64-bit lanes
  }
  hi = IfThenElse(huge, h, hi);
  lo = IfThenElse(huge, l, lo);
  kd = IfThenElse(huge, k, kd);
}
template <class D, class V>
ACCELMATH_KERNEL ACCELMATH_TRIG_NOINLINE void HugeReduceCall(D d, V a, V& hi, V& lo, V& kd) {
  HugeReduce(d, a, hi, lo, kd);
}

// Whether every lane has lo <= |x| < hi (kLo, kHi: the bits of lo and hi shifted left by one, the
// sign dropped): bits(x) << 1 - kLo below kHi - kLo, unsigned, written as a signed compare (u < w
// unsigned iff u + 2^31 < w + 2^31 signed, the 2^31 folded into the subtraction's constant): AVX2
// has no unsigned compare and Highway's flips both sides' sign bits, one more operation per vector.
template <uint32_t kLo, uint32_t kHi, class D, class V>
ACCELMATH_KERNEL ACCELMATH_TRIG_INLINE bool AllAbsIn(D, V x) {
  static_assert(kLo < kHi);
  const RebindToUnsigned<D> du;
  const RebindToSigned<D> di;
  const auto u = Add(ShiftLeft<1>(BitCast(du, x)), Set(du, 0x80000000u - kLo));
  return AllTrue(di, Lt(BitCast(di, u), Set(di, static_cast<int32_t>(0x80000000u + (kHi - kLo)))));
}

// AllAbsIn's u, signed: lanes with lo <= |x| < hi have u in [-2^31, -2^31 + kHi - kLo); lanes with
// |x| < lo (zeros included) have u in [2^31 - kLo, 2^31), and no other lane does (from |x| >= hi up,
// u rises from -2^31 + kHi - kLo and wraps past 2^31 - 1 to values below 2^31 - kLo - 1).
template <uint32_t kLo, class D, class V>
ACCELMATH_KERNEL ACCELMATH_TRIG_INLINE auto AbsInU(D, V x) {
  const RebindToUnsigned<D> du;
  const RebindToSigned<D> di;
  return BitCast(di, Add(ShiftLeft<1>(BitCast(du, x)), Set(du, 0x80000000u - kLo)));
}
// The lanes with |x| < lo (zeros included), as a mask of D.
template <uint32_t kLo, class D, class V>
ACCELMATH_KERNEL ACCELMATH_TRIG_INLINE auto AbsBelow(D d, V x) {
  const RebindToSigned<D> di;
  return RebindMask(d, Gt(AbsInU<kLo>(d, x), Set(di, static_cast<int32_t>(0x80000000u - kLo - 1))));
}
// Whether every lane has lo <= |x| < hi or is in `also` (a mask of D): where AllAbsIn fails, the
// middle tier's test (the compiler shares u and the range compare with AllAbsIn).
template <uint32_t kLo, uint32_t kHi, class D, class V, class M>
ACCELMATH_KERNEL ACCELMATH_TRIG_INLINE bool AllAbsInOr(D d, V x, M also) {
  const RebindToSigned<D> di;
  const auto in = Lt(AbsInU<kLo>(d, x), Set(di, static_cast<int32_t>(0x80000000u + (kHi - kLo))));
  return AllTrue(d, Or(RebindMask(d, in), also));
}
// AllAbsIn of both x0 and x1, one test (the pair kernels' fast-path test).
template <uint32_t kLo, uint32_t kHi, class D, class V>
ACCELMATH_KERNEL ACCELMATH_TRIG_INLINE bool AllAbsIn2(D d, V x0, V x1) {
  static_assert(kLo < kHi);
  const RebindToSigned<D> di;
  const auto lim = Set(di, static_cast<int32_t>(0x80000000u + (kHi - kLo)));
  return AllTrue(di, And(Lt(AbsInU<kLo>(d, x0), lim), Lt(AbsInU<kLo>(d, x1), lim)));
}

// yes where k is odd (bit 0 of kbits, the bits of ReduceF32's kd), else no, in float32 lanes: one
// vptestmd into a mask register on AVX-512; elsewhere the blend reads the sign bit of kbits << 31
// (one shift, where a test for bit 0 takes an And and a compare). The same lanes picked either way.
template <class D, class V, class VU>
ACCELMATH_KERNEL ACCELMATH_TRIG_INLINE V IfOddThenElse(D d, VU kbits, V yes, V no) {
#ifdef ACCELMATH_X86_AVX3
  const RebindToUnsigned<D> du;
  return IfThenElse(RebindMask(d, TestBit(kbits, Set(du, 1u))), yes, no);
#else
  return IfNegativeThenElse(BitCast(d, ShiftLeft<31>(kbits)), yes, no);
#endif
}

// y with its sign bit xored with `sign` (float32 lanes).
template <class D, class V, class VU>
ACCELMATH_KERNEL ACCELMATH_TRIG_INLINE V XorSign(D d, V y, VU sign) {
  const RebindToUnsigned<D> du;
  return BitCast(d, Xor(BitCast(du, y), sign));
}

// The results from the parts: S = hi + sl, C = ch + cl, sin = (S, C, -S, -C)[k mod 4] (with the sign
// of x on the slow path, which reduced |x|), cos = (C, -S, -C, S)[k mod 4], into ys / yc as kWant asks.
template <int kWant, bool kSlow, class D, class V>
ACCELMATH_KERNEL ACCELMATH_TRIG_INLINE void SinCosPick(D d, V x, V hi, V kd, V sl, V ch, V cl, V& ys, V& yc) {
  const RebindToUnsigned<D> du;
  const V s = Add(hi, sl);
  const V c = Add(ch, cl);
  const auto kbits = BitCast(du, kd);
  const auto sign_mask = Set(du, 0x80000000u);
  if constexpr ((kWant & kWantSin) != 0) {
    auto sign = ShiftLeft<30>(kbits);
    if constexpr (kSlow) sign = Xor(sign, BitCast(du, x));
    ys = XorSign(d, IfOddThenElse(d, kbits, c, s), And(sign, sign_mask));
  }
  if constexpr ((kWant & kWantCos) != 0) {
    const auto sign = And(ShiftLeft<30>(Add(kbits, Set(du, 1u))), sign_mask);
    yc = XorSign(d, IfOddThenElse(d, kbits, s, c), sign);
  }
}

// sin and/or cos in float32 lanes (kWant: kWantSin | kWantCos; the outputs are bit-identical whichever
// are wanted). q = k mod 4 and r = hi + lo from ReduceF32; S = hi + sl, C = ch + cl (SinCosF32Parts,
// each rounded once): sin = (S, C, -S, -C)[q], cos = (C, -S, -C, S)[q]; SinCos shares the reduction and
// the parts. The fast path reduces x itself; the slow path reduces a = |x| (replaced by HugeReduce's in
// lanes with 2^8 <= a < inf where the vector has such a lane) and puts the sign of x back on sin. The
// same bits either way: -x gives -k, -S and C, and (-S, C, S, -C)[-q mod 4] = -(S, C, -S, -C)[q], (C,
// S, -C, -S)[-q mod 4] = (C, -S, -C, S)[q]. The fast path's saving (no |x|, no sign of x; the odd-k
// pick by IfOddThenElse), bench_math, 64K, 7 interleaved runs on an AVX-512 Intel Xeon: sin +11% /
// +13%, cos +8% / +3%, sincos +5% / +9% (the AVX2 code forced there / AVX3). A vector with a lane
// outside 2^-12 <= |x| < 2^8 (one test on bits(x) << 1) takes the middle tier where every lane is
// below 2^8 (AllAbsInOr, the same u: a zero or tiny lane; SinCosF32): the fast body on x with the
// lanes |x| < 2^-12 zeroed (no subnormal steps), x written back into them for sin (its sign of zero
// kept; sin x rounds to x there) and cos left as the body gives it (cos 0 = 1 exactly, cos x's
// correctly rounded value there). Otherwise (a lane from 2^8 up, inf or NaN) the slow path
// (SinCosF32Body<kSlow = true>, out of line): |x| < 2^-12 reduces 0 and gives sin x = x, cos x = 1
// (kTrigTiny); +-inf, NaN -> NaN (x - x). The fast path and the middle tier share one inline copy
// of the body (as TanF32's). The middle tier, against the slow path it replaces for such vectors
// (Zen 4, C ABI, 64K, |x| < 100 with every tenth element 0, AVX3 / the AVX2 code): sin 1.38x /
// 1.26x, cos 1.35x / 1.42x, sincos 1.42x / 1.31x, tan 1.24x / 1.19x; vectors with a huge lane pay
// its test: 0.96-0.97x / 0.99x (docs/performance.md, Trig, "Zeros"). Unmeasured on Intel and on a
// CPU whose best target is AVX2. The slow path out of line as a whole, the reduction inlined in it,
// against the reduction alone out of line (bench_math, 64K, 7 interleaved runs, an AVX-512 Intel
// Xeon: its AVX3 code and the AVX2 code forced there): sin with the AVX2 code +8% (1718 -> 1852
// Melem/s), sin@huge / cos@huge +5% / +3% with AVX3, sincos -3% with AVX3, the rest within 2%; tan
// measured 11% slower with the AVX2 code that way and keeps HugeReduceCall. Unmeasured on a CPU whose
// best target is AVX2.
template <int kWant, bool kSlow, class D, class V>
ACCELMATH_KERNEL ACCELMATH_TRIG_INLINE V SinCosF32Body(D d, V x, V& cos_out) {
  const V a = Abs(x);
  constexpr bool fast = !kSlow;
  const auto tiny = Lt(a, Set(d, kTrigTiny));
  V kd, lo;
  V hi = ReduceF32(d, fast ? x : IfThenElse(tiny, Zero(d), a), kd, lo);
  if (!fast && !AllTrue(d, Lt(a, Set(d, coeffs::kTrigF32Limit)))) {
    HugeReduce(d, a, hi, lo, kd);
  }
  V sl, ch, cl;
  SinCosF32Parts(d, hi, lo, sl, ch, cl);
  V ys = x, yc = x;
  SinCosPick<kWant, kSlow>(d, x, hi, kd, sl, ch, cl, ys, yc);
  if (!fast && !AllAbsIn<kTinyBits, kInfBits>(d, x)) {  // a tiny, infinite or NaN lane
    const auto finite = Lt(a, Set(d, std::numeric_limits<float>::infinity()));
    if constexpr ((kWant & kWantSin) != 0) ys = IfThenElse(finite, IfThenElse(tiny, x, ys), Sub(x, x));
    if constexpr ((kWant & kWantCos) != 0) yc = IfThenElse(finite, IfThenElse(tiny, Set(d, 1.0f), yc), Sub(x, x));
  }
  if constexpr ((kWant & kWantCos) != 0) cos_out = yc;
  return (kWant & kWantSin) != 0 ? ys : yc;
}
template <int kWant, class D, class V>
ACCELMATH_KERNEL ACCELMATH_TRIG_NOINLINE V SinCosF32Slow(D d, V x, V& cos_out) {
  return SinCosF32Body<kWant, true>(d, x, cos_out);
}
template <int kWant, class D, class V>
ACCELMATH_KERNEL ACCELMATH_TRIG_INLINE V SinCosF32(D d, V x, V& cos_out) {
  const bool fast = AllAbsIn<kTinyBits, kLimitBits>(d, x);
  decltype(AbsBelow<kTinyBits>(d, x)) tiny;
  V xr = x;
  if (!fast) {
    tiny = AbsBelow<kTinyBits>(d, x);
    if (!AllAbsInOr<kTinyBits, kLimitBits>(d, x, tiny)) return SinCosF32Slow<kWant>(d, x, cos_out);
    xr = IfThenElse(tiny, Zero(d), x);
  }
  const V y = SinCosF32Body<kWant, false>(d, xr, cos_out);
  return (kWant & kWantSin) != 0 && !fast ? IfThenElse(tiny, x, y) : y;
}

// sin or cos (kWant one of them) of two vectors (the map driver's pair, as TanF32Pair): where both
// take SinCosF32's fast path (one test for the two), both reductions, SinCosF32Parts2, each pick;
// else SinCosF32 on each. The same bits as SinCosF32 on each vector (all 2^32 inputs, as TanF32Pair's).
// Measured as TanF32Pair (the AVX-512 Zen 5; the AVX2 code forced there): sin 1.04x with the AVX2
// code and 1.07-1.09x with AVX3, cos 1.04-1.06x and 1.01-1.02x; unmeasured on Intel, on a CPU whose
// best target is AVX2 and on Arm. sincos, a row of two results, has no pair (the driver's pair is for
// one result); its loop compiled to the same instructions but one (the parts shared through SinCosF32Parts2) and ran
// 0.96-0.99x / 0.99-1.00x, which moved with the build linked: code placement.
template <int kWant, class D, class V>
ACCELMATH_KERNEL ACCELMATH_TRIG_INLINE V SinCosF32Pair(D d, V x0, V x1, V& y1) {
  static_assert(kWant == kWantSin || kWant == kWantCos);
  V r0 = x0, r1 = x1, c0 = x0, c1 = x1;
  if (AllAbsIn2<kTinyBits, kLimitBits>(d, x0, x1)) {
    V kd0, lo0, kd1, lo1;
    const V hi0 = ReduceF32(d, x0, kd0, lo0);
    const V hi1 = ReduceF32(d, x1, kd1, lo1);
    V sl0, ch0, cl0, sl1, ch1, cl1;
    SinCosF32Parts2(d, hi0, lo0, hi1, lo1, sl0, ch0, cl0, sl1, ch1, cl1);
    SinCosPick<kWant, false>(d, x0, hi0, kd0, sl0, ch0, cl0, r0, c0);
    SinCosPick<kWant, false>(d, x1, hi1, kd1, sl1, ch1, cl1, r1, c1);
  } else {
    r0 = SinCosF32<kWant>(d, x0, c0);
    r1 = SinCosF32<kWant>(d, x1, c1);
  }
  y1 = kWant == kWantSin ? r1 : c1;
  return kWant == kWantSin ? r0 : c0;
}

// The last step of tan and tanpi: t = th + tl (|tl| small against th) is tan of the reduced
// argument; the result is t rounded (s = th + tl) where bit 0 of bits(kd) is clear, else -1/t:
// se = (th - s) + tl exactly (Fast2Sum), q = -1/s (IEEE division), eps = (1 + q s) + q se (one fma
// each; 1 + q s nearly exact), y = q + q eps (one fma: the rounding that matters). For two vectors
// at once, their steps alternating (returns the first's result, y1 the second's; TanF32Pair says
// why); TanOrMinusCot: one vector, the same code given it twice (a compiler computes each step once).
template <class D, class V>
ACCELMATH_KERNEL ACCELMATH_TRIG_INLINE V TanOrMinusCot2(D d, V th0, V tl0, V kd0, V th1, V tl1, V kd1, V& y1) {
  const RebindToUnsigned<D> du;
  const V s0 = Add(th0, tl0);
  const V s1 = Add(th1, tl1);
  const V se0 = Add(Sub(th0, s0), tl0);
  const V se1 = Add(Sub(th1, s1), tl1);
  const V q0 = Div(Set(d, -1.0f), s0);
  const V q1 = Div(Set(d, -1.0f), s1);
  const V eps0 = MulAdd(q0, se0, MulAdd(q0, s0, Set(d, 1.0f)));
  const V eps1 = MulAdd(q1, se1, MulAdd(q1, s1, Set(d, 1.0f)));
  y1 = IfOddThenElse(d, BitCast(du, kd1), MulAdd(q1, eps1, q1), s1);
  return IfOddThenElse(d, BitCast(du, kd0), MulAdd(q0, eps0, q0), s0);
}
template <class D, class V>
ACCELMATH_KERNEL ACCELMATH_TRIG_INLINE V TanOrMinusCot(D d, V th, V tl, V kd) {
  V same;
  return TanOrMinusCot2(d, th, tl, kd, th, tl, kd, same);
}

// tan(hi0 + lo0) and tan(hi1 + lo1) from their reductions (TanF32's formula, below), the two
// vectors' steps alternating: the first's result returned, the second's in y1.
template <class D, class V>
ACCELMATH_KERNEL ACCELMATH_TRIG_INLINE V TanReduced2(D d, V hi0, V lo0, V kd0, V hi1, V lo1, V kd1, V& y1) {
  const V c0 = Set(d, coeffs::kTanF32C0);
  const V z0 = Mul(hi0, hi0);
  const V z1 = Mul(hi1, hi1);
  const V rz0 = Mul(hi0, z0);
  const V rz1 = Mul(hi1, z1);
  const V base0 = MulAdd(c0, MulAdd(hi0, MulSub(hi0, hi0, z0), MulSub(hi0, z0, rz0)), lo0);
  const V base1 = MulAdd(c0, MulAdd(hi1, MulSub(hi1, hi1, z1), MulSub(hi1, z1, rz1)), lo1);
  V t0, t1;
  Horner2(d, z0, z1, coeffs::kTanF32Poly(), t0, t1);
  const V tla0 = MulAdd(rz0, c0, MulAdd(Mul(rz0, z0), t0, base0));
  const V tla1 = MulAdd(rz1, c0, MulAdd(Mul(rz1, z1), t1, base1));
  const V s0 = Add(hi0, tla0);
  const V s1 = Add(hi1, tla1);
  const V tl0 = MulAdd(Mul(lo0, s0), s0, tla0);
  const V tl1 = MulAdd(Mul(lo1, s1), s1, tla1);
  return TanOrMinusCot2(d, hi0, tl0, kd0, hi1, tl1, kd1, y1);
}

// tan in float32 lanes. Fast path, where every lane has 2^-12 <= |x| < kTrigF32Limit (2^8; one test per
// vector on bits(x) << 1): ReduceF32 on x itself (not |x|: every step is odd under x -> -x, rint ties
// to even included, so hi, lo and k are those of |x| negated; k's parity is all tan needs), r = hi +
// lo, |r| <= pi/4 (1 + 2^-16.2) (HugeReduce's: 2^-10.52). tan(hi) = hi + hi^3 T(z), z = hi^2 rounded
// (kTanF32C0, kTanF32Poly, degree 6 in z, rel. error 2^-29.5), as the pair hi + tl0: tl0 = c0 rz + rz z
// T1(z) + c0 (hi^3 - rz) + lo (c0 = T(0), T1 the rest; rz = hi z rounded, hi^3 - rz = hi (hi^2 - z) +
// (hi z - rz) with both errors exact by fma, the outer product rounded); lo's second-order part lo
// tan^2(hi) = lo s0^2 (s0 = hi + tl0 rounded) added: tl = tl0 + lo s0^2 (one fma); s = hi + tl rounded
// (the result where k is even), se = (hi - s) + tl exactly (Fast2Sum). k odd: -cot r = -1/(s + se): q =
// -1/s (IEEE division), eps = (1 + q s) + q se, y = q + q eps (one fma: the rounding that matters).
// Middle tier, where a lane is below 2^-12 (zeros included) and none is 2^8 or more, inf or NaN: the
// same code with those lanes zeroed, x written into them after (as SinCosF32's). One copy of the
// body serves all three (the choices are branches around it): with a second inline copy for the
// middle tier, the AVX2 code's array loop ran tan at 0.75x on |x| < 100 (Zen 4, C ABI, 64K).
// Slow path (the whole vector, where a lane is 2^8 or more, inf or NaN): lanes with 2^8 <= |x| < inf take
// HugeReduce's (k mod 4, hi, lo) of |x| (only where the vector has one), the sign of x put on hi and
// lo; |x| < 2^-12 reduces 0 and gives x (tan x = x (1 + x^2/3 + ...), x^2/3 < 2^-25.5: x is the
// correctly rounded result; +-0 and subnormals kept); +-inf, NaN -> NaN (x - x).
template <class D, class V>
ACCELMATH_KERNEL ACCELMATH_TRIG_INLINE V TanF32(D d, V x) {
  const RebindToUnsigned<D> du;
  const auto sx = And(BitCast(du, x), Set(du, 0x80000000u));
  const bool fast = AllAbsIn<kTinyBits, kLimitBits>(d, x);
  decltype(AbsBelow<kTinyBits>(d, x)) tiny;
  bool small = true;
  V xr = x;
  if (!fast) {
    tiny = AbsBelow<kTinyBits>(d, x);
    small = AllAbsInOr<kTinyBits, kLimitBits>(d, x, tiny);
    xr = IfThenElse(tiny, Zero(d), x);
  }
  V kd, lo;
  V hi = ReduceF32(d, xr, kd, lo);
  if (!small) {
    hi = XorSign(d, hi, sx);
    lo = XorSign(d, lo, sx);
    HugeReduceCall(d, Abs(x), hi, lo, kd);
    hi = XorSign(d, hi, sx);
    lo = XorSign(d, lo, sx);
  }
  V same;
  V y = TanReduced2(d, hi, lo, kd, hi, lo, kd, same);
  if (!fast) {
    y = IfThenElse(tiny, x, y);
    if (!small && !AllAbsIn<0, kInfBits>(d, x)) {  // an infinite or NaN lane
      y = IfThenElse(Lt(Abs(x), Set(d, std::numeric_limits<float>::infinity())), y, Sub(x, x));
    }
  }
  return y;
}

// tan of two vectors (the map driver's pair; eval-inl.h): where both take TanF32's fast path (one
// test for the two), both reductions, then TanReduced2, whose steps alternate between the vectors;
// else TanF32 on each. The same bits as TanF32 on each vector (all 2^32 inputs, AVX3 and the AVX2
// code, each forced on a Zen 5, against the library before). Why: each vector's chain
// (reduction, polynomial, division, correction) is about 80 cycles long against about 20 of
// throughput, and written one vector after the other (TanF32 twice: a branch between them) GCC
// emitted them one after the other and the out-of-order core overlapped too few of them.
// Alternating the steps: tan 1.10-1.12x with AVX3 and 1.08-1.09x with the AVX2 code forced on an
// AVX-512 Zen 5 (bench/ab.py, 64K, |x| < 100, best of 40, the two builds each linked once), MKL HA's
// own AVX-512 kernel 0.86-0.88x -> 1.00-1.03x. Not a gain: the two bodies one after the other
// without the branch between them (0.99-1.01x), the two reductions alternated as well (1.00-1.01x).
// GCC's first scheduling pass (-fschedule-insns -fsched-pressure) on that straight-line pair gained
// about as much, but moved sin and cos by -2% to -4% (and other families' kernels by -6% to +7%):
// not taken. Written out rather than run on src/backend/pair-inl.h's Pair<D> (the ndtri centre's
// way): these run on SVE as well. Unmeasured on Intel, on a CPU whose best target is AVX2 and on Arm.
template <class D, class V>
ACCELMATH_KERNEL ACCELMATH_TRIG_INLINE V TanF32Pair(D d, V x0, V x1, V& y1) {
  if (AllAbsIn2<kTinyBits, kLimitBits>(d, x0, x1)) {
    V kd0, lo0, kd1, lo1;
    const V hi0 = ReduceF32(d, x0, kd0, lo0);
    const V hi1 = ReduceF32(d, x1, kd1, lo1);
    return TanReduced2(d, hi0, lo0, kd0, hi1, lo1, kd1, y1);
  }
  y1 = TanF32(d, x1);
  return TanF32(d, x0);
}

// tanpi's reduction (kd, r, returned for TanPiAtZeros) and result for two vectors (xr0, xr1 below
// 2^22 in magnitude), their steps alternating as TanReduced2's: the first's result returned, y1
// the second's. TanPiF32 gives it its one vector twice.
template <class D, class V>
ACCELMATH_KERNEL ACCELMATH_TRIG_INLINE V TanPiReduced2(D d, V xr0, V xr1, V& kd0, V& r0, V& kd1, V& r1, V& y1) {
  const V shift = Set(d, coeffs::kTrigF32Shift);
  const V ph = Set(d, coeffs::kTanPiF32PiHi);
  const V pl = Set(d, coeffs::kTanPiF32PiLo);
  const V c0 = Set(d, coeffs::kTanPiF32C0);
  kd0 = MulAdd(xr0, Set(d, 2.0f), shift);
  kd1 = MulAdd(xr1, Set(d, 2.0f), shift);
  r0 = MulAdd(Sub(kd0, shift), Set(d, -0.5f), xr0);
  r1 = MulAdd(Sub(kd1, shift), Set(d, -0.5f), xr1);
  const V z0 = Mul(r0, r0);
  const V z1 = Mul(r1, r1);
  const V rz0 = Mul(r0, z0);
  const V rz1 = Mul(r1, z1);
  const V th0 = Mul(ph, r0);
  const V th1 = Mul(ph, r1);
  const V base0 = MulAdd(pl, r0, MulSub(ph, r0, th0));
  const V base1 = MulAdd(pl, r1, MulSub(ph, r1, th1));
  V p0, p1;
  Horner2(d, z0, z1, coeffs::kTanPiF32Poly(), p0, p1);
  const V tl0 = MulAdd(rz0, c0, MulAdd(Mul(rz0, z0), p0, base0));
  const V tl1 = MulAdd(rz1, c0, MulAdd(Mul(rz1, z1), p1, base1));
  return TanOrMinusCot2(d, th0, tl0, kd0, th1, tl1, kd1, y1);
}

// tanpi's exact results where r = 0 (integers and half-integers; TanPiF32's "Specials"), in place of
// y's lanes there; one test per vector.
template <class D, class V>
ACCELMATH_KERNEL ACCELMATH_TRIG_INLINE V TanPiAtZeros(D d, V x, V kd, V r, V y) {
  const RebindToUnsigned<D> du;
  const auto rzero = Eq(r, Zero(d));
  if (AllFalse(d, rzero)) return y;
  const auto kbits = BitCast(du, kd);
  const auto odd = RebindMask(d, Eq(And(kbits, Set(du, 1u)), Set(du, 1u)));
  const auto sx = And(BitCast(du, x), Set(du, 0x80000000u));
  const V inf = Set(d, std::numeric_limits<float>::infinity());
  const auto n1 = And(ShiftLeft<30>(kbits), Set(du, 0x80000000u));
  const auto sign = IfThenElse(RebindMask(du, odd), n1, Xor(n1, sx));
  return IfThenElse(rzero, XorSign(d, IfThenElseZero(odd, inf), sign), y);
}

// tanpi in float32 lanes (registry eval F32). Fast path, where every lane has 2^-20 <= |x| < 2^21
// (one test per vector: bits(x) << 1 against those of the bounds):
//   x = n/2 + r exactly: kd = 2x + 1.5 2^23 (one fma; |2x| < 2^22) holds n = rint(2x) (ties to
//   even) in its low bits, r = x - n/2 (one fma, exact: |r| <= 1/4, a multiple of ulp(x)).
//   tan(pi r) = pi r + r^3 P(z), z = r^2 rounded (kTanPiF32C0, kTanPiF32Poly, degree 6 in z, rel. error
//   2^-29.5), as a float32 pair th + tl: th = PH r, tl = (PH r - th) (exact, fma) + PL r (PH + PL =
//   kTanPiF32PiHi + kTanPiF32PiLo = pi within 2^-49.7) + c0 rz + rz z P1(z) (c0 = P(0), P1 the rest,
//   rz = r z rounded: the tail's roundings, about 0.3 ulp at worst, are what the error bound is
//   made of; taking rz's error by fma too measured 0.852 ulp: 2 operations); s = th + tl rounded (the
//   result where n is even), se = (th - s) + tl exactly (Fast2Sum). n odd: -cot(pi r) = -1/(s + se):
//   q = -1/s (IEEE division), eps = (1 + q s) + q se (one fma each; 1 + q s nearly exact),
//   y = q + q eps (one fma: the rounding that matters). The sign comes from r (x not made positive).
// Slow path (the whole vector, where a lane is outside that range, zero, +-inf or NaN): lanes with
// |x| >= 2^21 are replaced by x mod 2 with the sign of x (|x| - (|x| + 2^24 - 2^24), exact; 0 for
// |x| >= 2^24, even integers), which keeps tanpi; lanes with |x| < 2^-20 take tanpi x = pi x (1 +
// (pi x)^2/3) (next term 2^-76 relative), correctly rounded up to that: as = 2^24 |x| (exact; no
// subnormal steps), hs = PH as, ls = (PH as - hs) + PL as + hs y0^2/3, y0 = 2^-24 hs (the one
// rounding into the subnormal range), y = y0 + 2^-24 ((hs - 2^24 y0) + ls) (one fma; hs - 2^24 y0
// exact), and reduce 1/4 in place of x, whose result they drop: x itself would send subnormal
// numbers through the polynomial (r^3 z below 2^-126 from |x| < 2^-31), one microcode assist per
// operation on x86. Each of the two parts runs only where the vector has such a lane, as does the
// inf/NaN fix-up; a zero alone does not call for the tiny part (its test, on AllAbsIn's u, takes
// lanes with 0 < |x| < 2^-20): zeros then reduce as they are, to r = 0, and the specials' step gives
// them their signed zero. With every tenth element of (-100, 100) 0 (Zen 4, C ABI, 64K), 1.25x with
// AVX3 and 1.14x with the AVX2 code against the tiny part for zeros; on subnormal x 0.99x / 0.95x.
// The same bits as before on all 2^32 inputs (AVX3, the AVX2 code and SCALAR, each forced on a Zen 4).
// The tiny part's own change, Zen 4, C ABI, 64K, best of 50 calls, Melem/s before -> after, AVX3 / the AVX2
// code forced: subnormal x 370 -> 930-980 / 320-330 -> 410-430, |x| in [1e-30, 1e-20] 820 -> 950-1020
// / 250-290 -> 440-460, [1e-12, 1e-8] 1150 -> 1310-1360 / 410 -> 870, |x| in [2^21, 1e30] 1140-1150 ->
// 1390-1450 / 720-740 -> 790-830, one lane in 16 at 1e-10 1150 -> 1310-1360 / 660-800 -> 1100,
// (-100, 100) 2230 / 1690 unchanged (within 1.5%). Unmeasured on Intel, where the assists cost most,
// and on a CPU whose best target is AVX2.
// Specials (where r = 0, tested once per vector; C23 F.10.1.15): integers -> +-0 with sign bit
// bit1(n mod 4) xor sign(x) (tanpi(n) = +0 for positive even n, -0 for positive odd n, the mirror
// for negative n, |x| >= 2^24 -> +-0 with the sign of x; +-0 -> +-0 with the sign of x, by n = 0
// here or, where the vector has a lane with 0 < |x| < 2^-20, by the tiny lanes' formula);
// half-integers (n odd) -> +inf for n mod 4 = 1, -inf for n mod 4 = 3 (tanpi(1/2) = +inf,
// tanpi(3/2) = -inf, tanpi(-1/2) = -inf, tanpi(-3/2) = +inf). +-inf, NaN -> NaN (x - x).
template <class D, class V>
ACCELMATH_KERNEL ACCELMATH_TRIG_INLINE V TanPiF32(D d, V x) {
  const RebindToUnsigned<D> du;
  const auto sx = And(BitCast(du, x), Set(du, 0x80000000u));
  constexpr uint32_t kLo = kTanPiLoBits, kHi = kTanPiHiBits;
  const bool ordinary = AllAbsIn<kLo, kHi>(d, x);
  const V ph = Set(d, coeffs::kTanPiF32PiHi);
  const V pl = Set(d, coeffs::kTanPiF32PiLo);
  V xr = x;
  V yt = x;
  bool any_tiny = false;
  if (!ordinary) {
    const V a = Abs(x);
    const V big = Set(d, 0x1p24f);
    const auto small = Lt(a, Set(d, 0x1p21f));
    if (!AllTrue(d, small)) {
      const V am = IfThenElseZero(Lt(a, big), Sub(a, Sub(Add(a, big), big)));
      xr = IfThenElse(small, x, XorSign(d, am, sx));
    }
    const RebindToSigned<D> di;
    const auto nonzero_tiny = Gt(AbsInU<kLo>(d, x), Set(di, static_cast<int32_t>(0x80000000u - kLo)));
    any_tiny = !AllFalse(d, RebindMask(d, nonzero_tiny));
    if (any_tiny) {
      xr = IfThenElse(Lt(a, Set(d, 0x1p-20f)), Set(d, 0.25f), xr);
      const V as = Mul(a, big);
      const V hs = Mul(ph, as);
      const V y0 = Mul(hs, Set(d, 0x1p-24f));
      const V l1 = MulAdd(pl, as, MulSub(ph, as, hs));
      const V ls = MulAdd(Mul(hs, Mul(y0, y0)), Set(d, 1.0f / 3), l1);
      yt = XorSign(d, MulAdd(Add(NegMulAdd(y0, big, hs), ls), Set(d, 0x1p-24f), y0), sx);
    }
  }
  V kd, r, same;
  V y = TanPiReduced2(d, xr, xr, kd, r, kd, r, same);
  if (any_tiny) y = IfThenElse(Lt(Abs(x), Set(d, 0x1p-20f)), yt, y);
  y = TanPiAtZeros(d, x, kd, r, y);
  if (!ordinary && !AllAbsIn<0, kInfBits>(d, x)) y = IfThenElse(Lt(Abs(x), Set(d, std::numeric_limits<float>::infinity())), y, Sub(x, x));
  return y;
}

// tanpi of two vectors (the map driver's pair, as TanF32Pair): where both take TanPiF32's fast path
// (every lane 2^-20 <= |x| < 2^21; one test for the two), TanPiReduced2 and each vector's exact
// zeros; else TanPiF32 on each. The same bits as TanPiF32 on each vector (all 2^32 inputs, as
// TanF32Pair's). Measured as TanF32Pair (the AVX-512 Zen 5): 1.06x with the AVX2 code forced there,
// 1.05-1.06x with AVX3; unmeasured on Intel, on a CPU whose best target is AVX2 and on Arm.
template <class D, class V>
ACCELMATH_KERNEL ACCELMATH_TRIG_INLINE V TanPiF32Pair(D d, V x0, V x1, V& y1) {
  constexpr uint32_t kLo = kTanPiLoBits, kHi = kTanPiHiBits;
  if (AllAbsIn2<kLo, kHi>(d, x0, x1)) {
    V kd0, r0, kd1, r1;
    const V y0 = TanPiReduced2(d, x0, x1, kd0, r0, kd1, r1, y1);
    y1 = TanPiAtZeros(d, x1, kd1, r1, y1);
    return TanPiAtZeros(d, x0, kd0, r0, y0);
  }
  y1 = TanPiF32(d, x1);
  return TanPiF32(d, x0);
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

// The whole float32 vector through SinCosPiImpl, each half widened exactly (the whole vector on the
// one-lane targets), each binary64 result rounded to float32 once; out of line, as SinCosF32Slow.
template <int kWant, class D, class V>
ACCELMATH_KERNEL ACCELMATH_TRIG_NOINLINE V SinCosPiExact(D d, V x, V& cospi_out) {
  if constexpr (MaxLanes(D()) == 1) {
    const Rebind<double, D> dd;
    auto c = Zero(dd);
    const auto s = SinCosPiImpl<kWant>(dd, PromoteTo(dd, x), c);
    if constexpr ((kWant & kWantCos) != 0) cospi_out = DemoteTo(d, c);
    return DemoteTo(d, s);
  } else {
    const Half<D> dh;
    const Rebind<double, decltype(dh)> dd;
    auto cl = Zero(dd), cu = Zero(dd);
    const auto sl = SinCosPiImpl<kWant>(dd, PromoteTo(dd, LowerHalf(dh, x)), cl);
    const auto su = SinCosPiImpl<kWant>(dd, PromoteTo(dd, UpperHalf(dh, x)), cu);
    if constexpr ((kWant & kWantCos) != 0) cospi_out = Combine(d, DemoteTo(dh, cu), DemoteTo(dh, cl));
    return Combine(d, DemoteTo(dh, su), DemoteTo(dh, sl));
  }
}

// sin(pi r) = r Q(r^2) (kSinPiFastPoly, degree 13, error with roundings 2^-43.8) for |r| <= 1/2, in
// binary64 lanes: the fast path's polynomial.
template <class D, class V>
ACCELMATH_KERNEL ACCELMATH_TRIG_INLINE V SinPiFastPoly(D d, V r) {
  return Mul(r, Horner(d, Mul(r, r), coeffs::kSinPiFastPoly()));
}

// Lanes whose binary64 y has its low 29 bits within kSinPiMidWindow of 2^28, i.e. y within that many
// ulps of a float32 midpoint (for y in float32's normal range): the fast path's rounding is not
// certain there (generator: its error is below kSinPiMidWindow / 2 ulps). `low`: y's bits, or their
// low 32-bit words (the 29 bits are there); (low + W - 2^28) mod 2^29 < 2W, W a power of two, is
// one add and one test for zero of bits 2W .. 2^28.
template <class DU, class VU>
ACCELMATH_KERNEL ACCELMATH_TRIG_INLINE auto NearMidpoint(DU du, VU low) {
  using T = TFromD<DU>;
  constexpr T kW = static_cast<T>(coeffs::kSinPiMidWindow);
  static_assert((kW & (kW - 1)) == 0 && kW < (T{1} << 27), "a power of two");
  const VU t = Add(low, Set(du, static_cast<T>(kW - (T{1} << 28))));
  return Eq(And(t, Set(du, static_cast<T>(((T{1} << 29) - 1) & ~(2 * kW - 1)))), Zero(du));
}

// The fast path's binary64 part, on binary64 lanes r = (-1)^m (a - m) and rc = |a - m| with the
// sign (-1)^m (a = |x|, m = rint(a), both exact): sinpi |x| = sin(pi r) (s); cospi x = (-1)^m
// cos(pi (a - m)) = (-1)^m sin(pi (1/2 - |a - m|)) = sin(pi h) (c), h = (+-1/2) - rc with rc's sign
// (exact for |a - m| >= 2^-30, +0 where |a - m| = 1/2; below 2^-30 rounded, by at most 2^-55,
// which moves cos(pi a) ~ 1 by far less than an ulp of binary64).
template <int kWant, class DD, class VD>
ACCELMATH_KERNEL ACCELMATH_TRIG_INLINE void SinCosPiFastF64(DD dd, VD r, VD rc, VD& s, VD& c) {
  const RebindToUnsigned<DD> du;
  if constexpr ((kWant & kWantSin) != 0) s = SinPiFastPoly(dd, r);
  if constexpr ((kWant & kWantCos) != 0) {
    const VD half = BitCast(dd, OrAnd(BitCast(du, Set(dd, 0.5)), BitCast(du, rc), Set(du, kSignBit)));
    c = SinPiFastPoly(dd, Sub(half, rc));
  }
}

// The fast path of sinpi and/or cospi, for float32 lanes with 2^-126 <= |x| < 2^23 or x = +-0: a =
// |x|, kd = a + 2^23 rounds to m = rint(a) (exact below 2^23: a tie goes to the even m, and 2^23 -
// 1/2 to 2^23), (-1)^m from bit 0 of bits(kd); r = (a xor (-1)^m) - (m xor (-1)^m), exact (|a - m|
// <= 1/2, a multiple of a's ulp), +0 where a = m; rc = |a - m| with the sign (-1)^m. Then each half
// of the vector widened exactly to binary64 (the whole vector on the one-lane targets),
// SinCosPiFastF64, and one NearMidpoint test for the whole vector on the low 32-bit words of its
// binary64 results (gathered by ConcatEven); sinpi gets x's sign after rounding to float32. False
// (ys, yc unset) where a lane is near a float32 midpoint.
template <int kWant, class D, class V>
ACCELMATH_KERNEL ACCELMATH_TRIG_INLINE bool SinCosPiFast(D d, V x, V& ys, V& yc) {
  const RebindToUnsigned<D> du;
  const V a = Abs(x);
  const V shift = Set(d, 0x1p23f);
  const V kd = Add(a, shift);
  const V m = Sub(kd, shift);
  const auto ps = ShiftLeft<31>(BitCast(du, kd));
  V r = x, rc = x;
  if constexpr ((kWant & kWantSin) != 0) r = Sub(XorSign(d, a, ps), XorSign(d, m, ps));
  if constexpr ((kWant & kWantCos) != 0) rc = XorSign(d, Abs(Sub(a, m)), ps);
  if constexpr (MaxLanes(D()) == 1) {
    const Rebind<double, D> dd;
    const RebindToUnsigned<decltype(dd)> du64;
    auto s = Zero(dd), c = Zero(dd);
    SinCosPiFastF64<kWant>(dd, PromoteTo(dd, r), PromoteTo(dd, rc), s, c);
    auto near = Lt(Zero(du64), Zero(du64));
    if constexpr ((kWant & kWantSin) != 0) near = NearMidpoint(du64, BitCast(du64, s));
    if constexpr ((kWant & kWantCos) != 0) near = Or(near, NearMidpoint(du64, BitCast(du64, c)));
    if (!AllFalse(du64, near)) return false;
    if constexpr ((kWant & kWantSin) != 0) ys = DemoteTo(d, s);
    if constexpr ((kWant & kWantCos) != 0) yc = DemoteTo(d, c);
  } else {
    const Half<D> dh;
    const Rebind<double, decltype(dh)> dd;
    auto sl = Zero(dd), su = Zero(dd), cl = Zero(dd), cu = Zero(dd);
    SinCosPiFastF64<kWant>(dd, PromoteTo(dd, LowerHalf(dh, r)), PromoteTo(dd, LowerHalf(dh, rc)), sl, cl);
    SinCosPiFastF64<kWant>(dd, PromoteTo(dd, UpperHalf(dh, r)), PromoteTo(dd, UpperHalf(dh, rc)), su, cu);
    auto low32 = [&](auto lo, auto hi) { return ConcatEven(du, BitCast(du, hi), BitCast(du, lo)); };
    auto near = Lt(Zero(du), Zero(du));
    if constexpr (kWant == kWantSin) near = NearMidpoint(du, low32(sl, su));
    else if constexpr (kWant == kWantCos) near = NearMidpoint(du, low32(cl, cu));
    else near = Or(NearMidpoint(du, low32(sl, su)), NearMidpoint(du, low32(cl, cu)));
    if (!AllFalse(du, near)) return false;
    if constexpr ((kWant & kWantSin) != 0) ys = Combine(d, DemoteTo(dh, su), DemoteTo(dh, sl));
    if constexpr ((kWant & kWantCos) != 0) yc = Combine(d, DemoteTo(dh, cu), DemoteTo(dh, cl));
  }
  if constexpr ((kWant & kWantSin) != 0) ys = XorSign(d, ys, And(BitCast(du, x), Set(du, 0x80000000u)));
  return true;
}

// A vector with a lane outside the fast path's range test (+-0, subnormal, |x| >= 2^23, inf or NaN),
// out of line: where no lane is subnormal, SinCosPiFast on x with the lanes |x| >= 2^23, inf and NaN
// replaced by 0, and their results written after: such a finite x is an integer (even from 2^24),
// sinpi +-0 with x's sign, cospi (-1)^x; inf and NaN give NaN (x - x). Otherwise, or where a lane is
// near a midpoint, SinCosPiExact. Against the binary64-lane fast path before it (which took |x| up
// to 2^24 and sent the rest to SinCosPiImpl per binary64 vector), Zen 4, C ABI, 64K, sinpi with
// AVX3 / the AVX2 code forced there: |x| log-uniform in [1, 1e8] (13% of the lanes from 2^23 up)
// 1.67x / 1.65x, in [1, 1e30] 2.19x / 2.49x, one zero in ten elements of (-100, 100) 1.78x / 1.65x;
// cospi on [1, 1e8] 1.25x / 1.28x. Through SinCosPiExact, as first written, [1, 1e8] ran 0.74x
// (AVX3). Unmeasured on Intel and on a CPU whose best target is AVX2.
template <int kWant, class D, class V>
ACCELMATH_KERNEL ACCELMATH_TRIG_NOINLINE V SinCosPiWide(D d, V x, V& cospi_out) {
  const RebindToUnsigned<D> du;
  const V a = Abs(x);
  const auto small = Lt(a, Set(d, 0x1p23f));  // false for inf and NaN too
  const auto subnormal = And(Lt(a, Set(d, 0x1p-126f)), Gt(a, Zero(d)));
  V ys = x, yc = x;
  if (AllFalse(d, subnormal) && SinCosPiFast<kWant>(d, IfThenElseZero(small, x), ys, yc)) {
    const auto finite = Lt(a, Set(d, std::numeric_limits<float>::infinity()));
    const V nan = Sub(x, x);
    if constexpr ((kWant & kWantSin) != 0) {
      ys = IfThenElse(small, ys, IfThenElse(finite, BitCast(d, And(BitCast(du, x), Set(du, 0x80000000u))), nan));
    }
    if constexpr ((kWant & kWantCos) != 0) {
      const auto odd = And(Lt(a, Set(d, 0x1p24f)), RebindMask(d, Eq(And(BitCast(du, a), Set(du, 1u)), Set(du, 1u))));
      const V one = Set(d, 1.0f);
      cospi_out = IfThenElse(small, yc, IfThenElse(finite, IfThenElse(odd, Neg(one), one), nan));
    }
    return ys;
  }
  return SinCosPiExact<kWant>(d, x, cospi_out);
}

// sinpi and/or cospi of float32 lanes, correctly rounded (kWant: kWantSin | kWantCos; the results
// are bit-identical whichever are wanted; cospi's in cospi_out): SinCosPiFast where every lane has
// 2^-126 <= |x| < 2^23 (one range test per vector), SinCosPiWide where a lane is outside, and
// SinCosPiExact (the correctly rounded SinCosPiImpl) where a lane is near a float32 midpoint. Every
// path rounds correctly, so every lane's float32 result is the same whichever the vector takes.
template <int kWant, class D, class V>
ACCELMATH_KERNEL ACCELMATH_TRIG_INLINE V SinCosPiDispatch(D d, V x, V& cospi_out) {
  if (!AllAbsIn<0x00800000u << 1, 0x4B000000u << 1>(d, x)) return SinCosPiWide<kWant>(d, x, cospi_out);  // 2^-126, 2^23
  V ys = x, yc = x;
  if (!SinCosPiFast<kWant>(d, x, ys, yc)) return SinCosPiExact<kWant>(d, x, cospi_out);
  if constexpr ((kWant & kWantCos) != 0) cospi_out = yc;
  return ys;
}

}  // namespace trig_impl

// Sin(d, x) = sin x (float32 lanes; trig_impl::SinCosF32).
//   On a = |x|: k = rint(a 2/pi), r = a - k pi/2 = hi + lo in float32. Below 2^8: ReduceF32 (P1
//   exact, P2 exact product and Fast2Sum, P3 by one fma; within 2^-28.46 relative); lanes with
//   2^8 <= |x| < inf take HugeReduce (Payne-Hanek in binary64, kTrigPH0/1, r = f pi/2 within 2^-33.8
//   relative, split into float32 hi + lo), where the vector has one; |x| < 2^-12 -> x.
//   |r| <= pi/4 (1 + 2^-10.52); ch = 1 - hi^2/2 rounded once (fma), e its rounding error (fma),
//   S = hi + (lo ch + hi z P(z)) (kSinF32Poly), C = ch + (z^2 Q(z) + e - hi lo) (kCosF32Poly),
//   z = hi^2; sin x = sign(x) (S, C, -S, -C)[k mod 4].
//   Specials: sin(+-0) = +-0, subnormal x -> x, +-inf, NaN -> NaN.
//   Measured: max 0.721968 ulp at x = 0x1.bb12fap+83 (1.67388673e+25; below 2^8: 0.714803 at
//   +-0x1.f2806p+1, against glibc's binary64 sin); 99.312952% correctly rounded (`accelmath sweep sin
//   --threads 2`, all 2^32 inputs, 86 s).
template <class D, class V>
ACCELMATH_KERNEL ACCELMATH_TRIG_INLINE V Sin(D d, V x) {
  V unused;
  return trig_impl::SinCosF32<trig_impl::kWantSin>(d, x, unused);
}

// Cos(d, x) = cos x: as Sin (the same reduction and parts), cos x = (C, -S, -C, S)[k mod 4].
// Specials: cos(+-0) = 1, +-inf, NaN -> NaN.
//   Measured: max 0.720689 ulp at x = -0x1.08bd02p+127 (-1.75948788e+38; below 2^8: 0.715502 at
//   +-0x1.942ebp-1, against glibc's binary64 cos); 99.321158% correctly rounded (`accelmath sweep cos
//   --threads 2`, all 2^32 inputs, 86 s). `accelmath sweep sincos`: both
//   results bit-identical to sin and cos.
template <class D, class V>
ACCELMATH_KERNEL ACCELMATH_TRIG_INLINE V Cos(D d, V x) {
  V y;
  trig_impl::SinCosF32<trig_impl::kWantCos>(d, x, y);
  return y;
}
// SinPair, CosPair: two vectors at once, the same bits (trig_impl::SinCosF32Pair; eval-inl.h).
template <class D, class V>
ACCELMATH_KERNEL ACCELMATH_TRIG_INLINE V SinPair(D d, V x0, V x1, V& y1) {
  return trig_impl::SinCosF32Pair<trig_impl::kWantSin>(d, x0, x1, y1);
}
template <class D, class V>
ACCELMATH_KERNEL ACCELMATH_TRIG_INLINE V CosPair(D d, V x0, V x1, V& y1) {
  return trig_impl::SinCosF32Pair<trig_impl::kWantCos>(d, x0, x1, y1);
}

// SinCos(d, x, cos_out) = sin x, with cos x in cos_out: bit-identical to Sin and Cos (one reduction,
// ReduceF32 and, for huge lanes, one HugeReduce, and one evaluation of S and C shared by both).
template <class D, class V>
ACCELMATH_KERNEL ACCELMATH_TRIG_INLINE V SinCos(D d, V x, V& cos_out) {
  return trig_impl::SinCosF32<trig_impl::kWantSin | trig_impl::kWantCos>(d, x, cos_out);
}

// Tan(d, x) = tan x (float32 lanes; trig_impl::TanF32).
//   The reduction of Sin (ReduceF32, here on x itself / HugeReduce of |x| with the sign put back):
//   x = k pi/2 + hi + lo. tan(hi) = hi + hi^3 T(z) (kTanF32Poly, one polynomial on |r| <= pi/4) as
//   a float32 pair with the product errors of hi^3 taken by fma, plus lo (1 + tan^2): s + se;
//   tan x = s (k even) or -1/(s + se) (k odd: q = -1/s, one correction q + q ((1 + q s) + q se)).
//   |x| < 2^-12 -> x (correctly rounded).
//   Specials: tan(+-0) = +-0, subnormal x -> x, +-inf, NaN -> NaN.
//   Measured: max 0.946423 ulp at x = 0x1.8b6610p+104 (3.1326711e+31; below 2^8: 0.938591 at
//   +-0x1.e3cc22p+5, against glibc's binary64 tan); 98.223482% correctly rounded (`accelmath sweep tan
//   --threads 2`, all 2^32 inputs, 94 s).
template <class D, class V>
ACCELMATH_KERNEL ACCELMATH_TRIG_INLINE V Tan(D d, V x) {
  return trig_impl::TanF32(d, x);
}
// TanPair(d, x0, x1, y1): tan of two vectors, the same bits (trig_impl::TanF32Pair; the map driver's
// two vectors per iteration take it, eval-inl.h).
template <class D, class V>
ACCELMATH_KERNEL ACCELMATH_TRIG_INLINE V TanPair(D d, V x0, V x1, V& y1) {
  return trig_impl::TanF32Pair(d, x0, x1, y1);
}

// SinPi(d, x) = sin(pi x), correctly rounded (float32 lanes; SinCosPiDispatch).
//   Fast path (lanes with 2^-126 <= |x| < 2^23 or +-0; |x| >= 2^23, inf, NaN written after): a = |x|,
//   m = rint(a), r = (-1)^m (a - m) exact in float32, |r| <= 1/2; widened to binary64, sin(pi a) =
//   r Q(r^2) (kSinPiFastPoly, degree 13, error with roundings 2^-43.8), rounded to float32, the sign
//   of x put back. Where a lane's result is within kSinPiMidWindow (2048) binary64 ulps of a float32
//   midpoint, or a lane is subnormal, the vector takes SinCosPiImpl in binary64 lanes: x = n/2 + r
//   exactly, |r| <= 1/4 (|x| >= 2^24: r = 0, n = 0); sin(pi r), cos(pi r) as double-doubles
//   (SinCosPiPoly: kSinPiS1Hi/Lo, kSinPiS3Hi/Lo and kSinPiPoly, rel. error 2^-68.2; kCosPiC2Hi/Lo
//   and kCosPiPoly, 2^-68.3), picked by n mod 4, rounded to odd in binary64.
//   Specials: sinpi(+-n) = +-0 for integers n (also +-0 and |x| >= 2^23), +-inf, NaN -> NaN.
//   Measured: max 0.500000 ulp; 100.000000% correctly rounded (`accelmath sweep sinpi --threads 2`,
//   all 2^32 inputs, 79 s, with the binary64-lane fast path this one replaced; its results are the
//   same on all 2^32 inputs with AVX3, the AVX2 code and SCALAR).
//   Speed of the float32-lane fast path against that binary64-lane one (reduction, range test and
//   sign in binary64 lanes, 8 per AVX-512 vector, and a midpoint test per binary64 vector), on
//   Zen 4, bench_math at 64K, |x| < 100: AVX3 1.17x, the AVX2 code forced there 1.37x (cospi
//   0.98x / 1.09x, sincospi 1.17x / 1.48x; docs/performance.md, Trig and Fresnel); inputs with
//   zeros or lanes from 2^23 up: SinCosPiWide. Unmeasured on Intel and on a CPU whose best target
//   is AVX2.
template <class D, class V>
ACCELMATH_KERNEL ACCELMATH_TRIG_INLINE V SinPi(D d, V x) {
  V unused;
  return trig_impl::SinCosPiDispatch<trig_impl::kWantSin>(d, x, unused);
}

// CosPi(d, x) = cos(pi x), correctly rounded: as SinPi, the fast path's binary64 part on
// h = (-1)^m (1/2 - |a - m|), cos(pi x) = sin(pi h). Specials: cospi(n + 1/2) = +0, cospi(+-0) = 1,
// |x| >= 2^24 -> 1, +-inf, NaN -> NaN.
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

// TanPi(d, x) = tan(pi x) (float32 lanes; trig_impl::TanPiF32).
//   x = n/2 + r exactly (n = rint(2x), |r| <= 1/4; |x| >= 2^21 first reduced mod 2 exactly);
//   tan(pi r) = pi r + r^3 P(z) (kTanPiF32Poly) as a float32 pair s + se (pi as kTanPiF32PiHi/Lo,
//   PH r's error by fma); tanpi x = s (n even) or -1/(s + se) (n odd: q = -1/s, one
//   correction q + q ((1 + q s) + q se)). |x| < 2^-20: pi x (1 + (pi x)^2/3), scaled by 2^24 so that
//   the only rounding into the subnormal range is the last one.
//   Specials (where r = 0, tested once per vector): integers -> +-0 with the sign of x flipped
//   for odd n/2 (tanpi(n) = +0 for positive even n, -0 for positive odd n, the mirror for negative
//   n; +-0 -> +-0); half-integers n/2 -> +inf where (n - 1)/2 is even, -inf where odd, the sign of
//   x xored in; |x| >= 2^24 -> +-0 with the sign of x; +-inf, NaN -> NaN.
//   Measured: max 0.924389 ulp at x = 0x1.f77898p-3 (0.245835483); 99.652535% correctly rounded
//   (`accelmath sweep tanpi --threads 2`, all 2^32 inputs, 37 s).
template <class D, class V>
ACCELMATH_KERNEL ACCELMATH_TRIG_INLINE V TanPi(D d, V x) {
  return trig_impl::TanPiF32(d, x);
}
// TanPiPair: two vectors at once, the same bits (trig_impl::TanPiF32Pair; eval-inl.h).
template <class D, class V>
ACCELMATH_KERNEL ACCELMATH_TRIG_INLINE V TanPiPair(D d, V x0, V x1, V& y1) {
  return trig_impl::TanPiF32Pair(d, x0, x1, y1);
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
