// The exp/log family: exp, exp2, exp10, expm1, log, log2, log10, log1p. The only place their
// algorithms live.
//
// exp, exp2, exp10, log, log2, log10 and log1p run in float32 lanes (registry eval F32): each keeps
// its one rounding that matters last, with the large parts of the result exact (hi/lo table
// entries, exact reductions, Fast2Sum) so that every other error stays well below an ulp; the
// measured maxima (all 2^32 inputs) are 0.60 to 0.79 ulp. Subnormal inputs and results are
// handled exactly as the comments say (no flush). expm1 runs in binary64 lanes (eval F64): `x`
// holds a float32 value exactly, the result is a double within about 2^-36 relative of the exact
// value that the caller rounds to float32 once (DemoteTo).
// No per-lane branches: every lane runs the same operations, special values are written last
// with masks (a vector whose lanes are all ordinary skips that step as a whole). Only correctly
// rounded IEEE operations, integer/bit operations, selects and 8/16-entry table lookups (LookupF:
// a permute on AVX-512 and AVX2, an array read on the scalar lane; the same entries), in a fixed
// order: the same bits on every Highway target and on the scalar lane.
// Coefficients, tables and thresholds: src/kernels/exp_log_coeffs.h (tools/coeffs/exp_log.py).
#if defined(ACCELMATH_KERNELS_EXP_LOG_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef ACCELMATH_KERNELS_EXP_LOG_INL_H_
#undef ACCELMATH_KERNELS_EXP_LOG_INL_H_
#else
#define ACCELMATH_KERNELS_EXP_LOG_INL_H_
#endif

#include <array>
#include <cstdint>
#include <limits>
#include <type_traits>

#include "kernels/common-inl.h"
#include "kernels/exp_log_coeffs.h"
#include "kernels/float_bits.h"

// Every function here is forced inline on the host: a kernel left as a call per vector (GCC's
// choice for plain `inline` functions this size) measured up to 40% slower.
#ifndef ACCELMATH_EXP_LOG_INLINE
#if defined(__CUDACC__)
#define ACCELMATH_EXP_LOG_INLINE
#else
#define ACCELMATH_EXP_LOG_INLINE __attribute__((always_inline))
#endif
#endif

namespace accelmath::ACCELMATH_KNS {

namespace exp_log_impl {

// ---- exp family ------------------------------------------------------------------------------
// Expm1's reduction (binary64 lanes): x = k ln2 + r, kd = x log2(e) + 1.5 2^52 rounds x log2(e) to
// the nearest integer k (ties to even), held in kd's low mantissa bits (two's complement);
// r = x - k ln2 by one fma, |r| <= ln(2)/2 + 2^-46. Below the overflow/underflow thresholds
// |k ln2| < 104, so the rounding of the constant ln2 moves r by at most 2^-46.
template <class D, class V>
ACCELMATH_KERNEL ACCELMATH_EXP_LOG_INLINE V ExpReduce(D d, V x, double inv_c, double c, double shift, V& kd) {
  kd = MulAdd(x, Set(d, inv_c), Set(d, shift));
  const V k = Sub(kd, Set(d, shift));
  return NegMulAdd(k, Set(d, c), x);
}

// The bits of k << 52 (k the integer held in kd): added to a double's bits, multiplies it by
// 2^k, exactly, while the result stays normal.
template <class D, class V>
ACCELMATH_KERNEL ACCELMATH_EXP_LOG_INLINE auto ExpScaleBits(D /*d*/, V kd) {
  const RebindToUnsigned<D> du;
  return ShiftLeft<kernels::FloatBits<double>::kMantissaBits>(BitCast(du, kd));
}

// Lanes with x > hi (also +inf) become +inf, NaN lanes stay NaN (x + inf), lanes with x < lo
// (also -inf) become `below`.
// The common case, every lane with |x| < min(hi, -lo), is tested once per vector (never per lane:
// each lane's value is the same either way).
template <class D, class V>
ACCELMATH_KERNEL ACCELMATH_EXP_LOG_INLINE V ExpSpecials(D d, V x, V y, double hi, double lo, V below) {
  if (AllTrue(d, Lt(Abs(x), Set(d, hi < -lo ? hi : -lo)))) return y;
  y = IfThenElse(Lt(x, Set(d, lo)), below, y);
  return IfThenElse(Le(x, Set(d, hi)), y, Add(x, Set(d, std::numeric_limits<double>::infinity())));
}

// b^x in float32 lanes, for x = (k/N) log_b(2) + r, N = 2^kBits (8 or 16): k = round(x inv_c)
// (inv_c = N log2 b, rounded; kd = x inv_c + 1.5 2^23 holds k in its low mantissa bits),
// r = (x - k c_hi) - k c_lo with c_hi + c_lo = log_b(2)/N (the first step exact: c_hi is float32,
// |k| < 2^12 and the difference fits in 24 bits), |r| <= log_b(2)/(2N) (1 + 2^-10). With
// T_j = 2^(j/N) rounded to float32, j = k mod N, tau_j = (2^(j/N) - T_j)/T_j (rounded) and
// e = r Q(r) + tau_j (one fma), b^x = 2^floor(k/N) T_j (1 + e): s = 2^floor(k/N) T_j is built
// exactly by adding k << (23 - kBits) to the bits of the table entry kExpFScale<N>[j] (T_j with
// j << (23 - kBits) taken off), and y = s e + s is the one rounding of the result (subnormal
// results included) where s is a normal float: k in [fast_min, fast_max], tested once per vector
// on kd's bits (never per lane: each lane's value is the same either way). Otherwise (results below 2^-126 or
// above 2^(128 - 1/(2N)), specials) each lane takes (T_j e + T_j) 2^K1 2^K2,
// K1 + K2 = floor(k/N) (the first product exact; a subnormal result is rounded twice, which adds
// at most 1/4 ulp), x > hi (also +inf) -> +inf, x < lo (also -inf) -> +0, NaN -> NaN (x + inf).
// Two table lookups (LookupF).
template <int kBits, class D, class V, size_t N>
ACCELMATH_KERNEL ACCELMATH_EXP_LOG_INLINE V ExpF(D d, V x, float inv_c, float c_hi, float c_lo,
                                                const std::array<float, N>& q, float fast_min, float fast_max,
                                                float hi, float lo) {
  static constexpr auto kScale = kBits == 3 ? coeffs::kExpFScale8() : coeffs::kExpFScale16();
  static constexpr auto kTau = kBits == 3 ? coeffs::kExpFTau8() : coeffs::kExpFTau16();
  constexpr int kShift = kernels::FloatBits<float>::kMantissaBits - kBits;
  const RebindToUnsigned<D> du;
  const RebindToSigned<D> di;
  const V shift = Set(d, coeffs::kExpFShift);
  const V kd = MulAdd(x, Set(d, inv_c), shift);
  const V kf = Sub(kd, shift);
  V r = NegMulAdd(kf, Set(d, c_hi), x);
  if (c_lo != 0.0f) r = NegMulAdd(kf, Set(d, c_lo), r);
  const auto kbits = BitCast(du, kd);
  const V e = MulAdd(r, Horner(d, r, q), LookupF<kBits>(d, kTau, kbits));
  const auto table = BitCast(du, LookupF<kBits>(d, kScale, kbits));
  const V s = BitCast(d, Add(table, ShiftLeft<kShift>(kbits)));
  const V y = MulAdd(s, e, s);
  // k in [fast_min, fast_max] <=> bits(kd) - bits(shift + fast_min) <= fast_max - fast_min, unsigned.
  const auto kmin_bits = Set(du, coeffs::kExpFShiftBits + static_cast<uint32_t>(static_cast<int32_t>(fast_min)));
  const auto krange = Set(du, static_cast<uint32_t>(static_cast<int32_t>(fast_max - fast_min)) + 1);
  if (AllTrue(du, Lt(Sub(kbits, kmin_bits), krange))) return y;
  const auto fast = And(Ge(kf, Set(d, fast_min)), Le(kf, Set(d, fast_max)));
  const auto j = And(kbits, Set(du, uint32_t{(1u << kBits) - 1}));
  const V t = BitCast(d, Add(table, ShiftLeft<kShift>(j)));
  const auto kk = ShiftRight<kBits>(Sub(BitCast(di, kbits), BitCast(di, shift)));
  const auto k1 = ShiftRight<1>(kk);
  constexpr int kBias = kernels::FloatBits<float>::kExponentBias;
  constexpr int kMant = kernels::FloatBits<float>::kMantissaBits;
  const V s1 = BitCast(d, ShiftLeft<kMant>(Add(k1, Set(di, kBias))));
  const V s2 = BitCast(d, ShiftLeft<kMant>(Add(Sub(kk, k1), Set(di, kBias))));
  V ys = IfThenElse(fast, y, Mul(Mul(MulAdd(t, e, t), s1), s2));
  ys = IfThenElse(Lt(x, Set(d, lo)), Zero(d), ys);
  return IfThenElse(Le(x, Set(d, hi)), ys, Add(x, Set(d, std::numeric_limits<float>::infinity())));
}

// ---- log family (log, log2, log10, log1p) in float32 lanes ---------------------------------------
// LogFCore (log2, log10: 16 subintervals) and LogF8Core (ln, log1p: 8 subintervals, below).
// log_b x for a positive normal float32 x (x 2^-23 with kadj = -23 for subnormal x), as
// x = 2^k z, z in [kLogFOff, 2 kLogFOff) (bit fields: k from the exponent field of
// bits(x) - bits(kLogFOff), z from its mantissa field); the top 4 bits of that mantissa field pick
// one of 16 subintervals i, invc_i (5 significant bits, exactly 1 on the subinterval around 1):
// r = z invc_i - 1, exact (one fma; |r| < 0.046). log_b x = hi + c1 r + lo with
// hi = k log_b(2)_hi + Lhi_i (exact: multiples of 2^-16 below 2^8), c1 r + hi = s + (t + bl)
// (bh = c1 r rounded, bl = c1 r - bh; s = hi + bh, t = hi + bh - s by Fast2Sum: |hi| >= |bh|
// wherever hi != 0, asserted by the generator), lo = k log_b(2)_lo + Llo_i + (t + bl) + r P(r);
// the result s + lo is the one rounding that matters: every other error is below 2^-28
// relative.
// kMode 0: x as is (aux unused); 1: k += aux (subnormal x scaled by 2^23, aux = -23).
template <int kBase, int kMode, class D, class V>
ACCELMATH_KERNEL ACCELMATH_EXP_LOG_INLINE V LogFCore(D d, V x, V aux) {
  constexpr int kMant = kernels::FloatBits<float>::kMantissaBits;
  static constexpr auto kInvC = coeffs::kLogFInvC();
  static_assert(kBase == 2 || kBase == 10, "ln and log1p use LogF8Core");
  static constexpr auto kHi = kBase == 2 ? coeffs::kLog2FHi() : coeffs::kLog10FHi();
  static constexpr auto kLo = kBase == 2 ? coeffs::kLog2FLo() : coeffs::kLog10FLo();
  static constexpr auto kPoly = kBase == 2 ? coeffs::kLog2FPoly() : coeffs::kLog10FPoly();
  const RebindToUnsigned<D> du;
  const RebindToSigned<D> di;
  const auto tmp = Sub(BitCast(du, x), Set(du, coeffs::kLogFOff));
  V kf = ConvertTo(d, ShiftRight<kMant>(BitCast(di, tmp)));
  if constexpr (kMode == 1) kf = Add(kf, aux);
  const auto zmant = And(tmp, Set(du, (uint32_t{1} << kMant) - 1));
  const V z = BitCast(d, Add(zmant, Set(du, coeffs::kLogFOff)));
  const auto idx = ShiftRight<kMant - coeffs::kLogFTableBits>(tmp);
  const V invc = LookupF<coeffs::kLogFTableBits>(d, kInvC, idx);
  const V r = MulSub(z, invc, Set(d, 1.0f));
  const V lhi = LookupF<coeffs::kLogFTableBits>(d, kHi, idx);
  V lo = LookupF<coeffs::kLogFTableBits>(d, kLo, idx);
  V hi;
  if constexpr (kBase == 2) {
    hi = Add(kf, lhi);
  } else {
    hi = MulAdd(kf, Set(d, coeffs::kLog10FL2Hi), lhi);
    lo = MulAdd(kf, Set(d, coeffs::kLog10FL2Lo), lo);
  }
  // sum = hi + bh (bh = c1 r rounded), hi - sum exact (Fast2Sum), c1 r + (hi - sum) by one fma:
  // bl + t exactly before its rounding, a value below ulp(sum) (its rounding is negligible).
  const V c1 = Set(d, kBase == 2 ? coeffs::kLog2FC1 : coeffs::kLog10FC1);
  const V sum = Add(hi, Mul(r, c1));
  lo = Add(lo, MulAdd(r, c1, Sub(hi, sum)));
  return Add(sum, MulAdd(r, Horner(d, r, kPoly), lo));
}

// The whole of log_b on float32 lanes: LogFCore where every lane is a positive normal float
// (tested once per vector: bits(x) - bits(2^-126) < bits(+inf) - bits(2^-126), unsigned; never
// per lane: each lane's value is the same either way); otherwise subnormal lanes are scaled by
// 2^23 first, and lanes with x = +-0 become -inf, x < 0 (also -inf) NaN, +inf stays +inf,
// NaN stays NaN (x + x).
template <int kBase, class D, class V>
ACCELMATH_KERNEL ACCELMATH_EXP_LOG_INLINE V LogF(D d, V x) {
  const RebindToUnsigned<D> du;
  constexpr uint32_t kMinNormal = uint32_t{1} << kernels::FloatBits<float>::kMantissaBits;
  constexpr uint32_t kInfBits = 0x7F800000u;
  const auto normal = Lt(Sub(BitCast(du, x), Set(du, kMinNormal)), Set(du, kInfBits - kMinNormal));
  if (AllTrue(du, normal)) return LogFCore<kBase, 0>(d, x, x);
  const V tiny = Set(d, 0x1p-126f);
  const auto sub = Lt(x, tiny);
  const V xs = IfThenElse(sub, Mul(x, Set(d, 0x1p23f)), x);
  V y = LogFCore<kBase, 1>(d, xs, IfThenElseZero(sub, Set(d, -23.0f)));
  const V inf = Set(d, std::numeric_limits<float>::infinity());
  const V nan = Set(d, std::numeric_limits<float>::quiet_NaN());
  y = IfThenElse(Gt(x, Zero(d)), y, IfThenElse(Eq(x, Zero(d)), Neg(inf), nan));
  return IfThenElse(Lt(x, inf), y, Add(x, x));
}

// ln x for a positive normal float32 x (x 2^23 with qadj = -184 for subnormal x, kMode 1), with 8
// subintervals (Log; Log1pF8 repeats the reduction with its correction): x = 2^(E - 127) m,
// m in [1, 2); q = bits(x) >> 20 = 8 E + i (i: the top 3 bits of the mantissa field,
// m in [1 + i/8, 1 + (i + 1)/8)), converted exactly (q < 2^11); m from the mantissa field.
// r = m invc_i - 1 (one fma, exact); hi = q L2Hi + T_i (exact: L2Hi and T_i are multiples of 2^-17,
// so is hi, and |hi| < 2^7: at most 24 bits), lo = q L2Lo + U_i, L2Hi + L2Lo = ln(2)/8,
// T_i + U_i = ln(1/invc_i) - (1016 + i) ln(2)/8; ln x = hi + (r + (r P(r) + lo)). Around 1
// (i = 0 with E = 127, invc = 1; i = 7 with E = 126, invc = 1/2) hi = lo = 0 exactly, so ln x is
// r + r P(r) rounded once; elsewhere invc_i keeps |ln(1 + r)| below 2^floor(log2 |ln x|) (asserted
// by the generator), so the rounding of r + (r P(r) + lo) costs at most 1/4 ulp of the result.
template <int kMode, class D, class V>
ACCELMATH_KERNEL ACCELMATH_EXP_LOG_INLINE V LogF8Core(D d, V x, V qadj) {
  static constexpr std::array<float, 16> kInvC = Twice8(coeffs::kLogF8InvC());
  static constexpr std::array<float, 16> kT = Twice8(coeffs::kLogF8T());
  static constexpr std::array<float, 16> kU = Twice8(coeffs::kLogF8U());
  constexpr int kMant = kernels::FloatBits<float>::kMantissaBits;
  const RebindToUnsigned<D> du;
  const RebindToSigned<D> di;
  const auto bits = BitCast(du, x);
  const auto q = ShiftRight<kMant - 3>(bits);
  V qf = ConvertTo(d, BitCast(di, q));
  if constexpr (kMode == 1) qf = Add(qf, qadj);
  const V m = BitCast(d, Or(And(bits, Set(du, (uint32_t{1} << kMant) - 1)), Set(du, uint32_t{0x3F800000u})));
  const V invc = LookupF<3>(d, kInvC, q);
  const V t = LookupF<3>(d, kT, q);
  const V u = LookupF<3>(d, kU, q);
  const V r = MulSub(m, invc, Set(d, 1.0f));
  const V hi = MulAdd(qf, Set(d, coeffs::kLogF8L2Hi), t);
  const V lo = MulAdd(qf, Set(d, coeffs::kLogF8L2Lo), u);
  return Add(hi, Add(r, MulAdd(r, Horner(d, r, coeffs::kLogF8Poly()), lo)));
}

// ln on float32 lanes with LogF8Core: every lane a positive normal float is tested once per vector
// (bits(x) + 0x7F800000 < 0xFF000000 as signed 32-bit integers <=> bits(x) - bits(2^-126) <
// bits(+inf) - bits(2^-126) unsigned); otherwise as LogF.
template <class D, class V>
ACCELMATH_KERNEL ACCELMATH_EXP_LOG_INLINE V LogF8(D d, V x) {
  const RebindToUnsigned<D> du;
  const RebindToSigned<D> di;
  const auto biased = BitCast(di, Add(BitCast(du, x), Set(du, uint32_t{0x7F800000u})));
  if (AllTrue(di, Lt(biased, Set(di, int32_t{-0x01000000})))) return LogF8Core<0>(d, x, x);
  const V tiny = Set(d, 0x1p-126f);
  const auto sub = Lt(x, tiny);
  const V xs = IfThenElse(sub, Mul(x, Set(d, 0x1p23f)), x);
  V y = LogF8Core<1>(d, xs, IfThenElseZero(sub, Set(d, -184.0f)));
  const V inf = Set(d, std::numeric_limits<float>::infinity());
  const V nan = Set(d, std::numeric_limits<float>::quiet_NaN());
  y = IfThenElse(Gt(x, Zero(d)), y, IfThenElse(Eq(x, Zero(d)), Neg(inf), nan));
  return IfThenElse(Lt(x, inf), y, Add(x, x));
}

// ln(1 + x) on float32 lanes with the LogF8Core reduction (Log1p): u = 1 + x rounded,
// c = x - (u - 1) (exact for |x| <= 1 by Fast2Sum; for 1 < x < 2^24, u - 1 is exact and close to
// x; beyond, c is off by at most ulp(u), a weight below 2^-27 relative in the result; 0 for
// x >= 2^25). u = 2^(E - 127) m, q, invc_i, hi, lo as LogF8Core; r0 = m invc_i - 1 (exact) and
// cs = c 2^(127 - E) (exact; 2^(127 - E) has bits 0x7F000000 - (bits(u) & 0x7F800000), +0 for
// E = 254, where c = 0). Then (1 + x) 2^(127 - E) invc_i = 1 + r0 + cs invc_i exactly, so
// r = r0 + cs invc_i rounded (one fma) and ln(1 + x) = hi + lo + ln(1 + r) + e, e = r0 + cs invc_i
// - r = fma(cs, invc_i, r0 - r) (r0 - r exact wherever e matters) added to lo; the result is
// hi + (r + (r P(r) + lo)) as LogF8Core. Around 1 (E = 127, i = 0: invc = 1, cs = c; E = 126,
// i = 7: invc = 1/2, cs = 2c; there hi = lo = 0) r = (u - 1) + c = x exactly and e = 0, so the
// result is x + x P(x) rounded once: tiny and subnormal x give x. Valid where u is a positive
// normal finite float (-1 < x < +inf; tested once per vector as in LogF8); otherwise x = -1 -> -inf,
// x < -1 (also -inf) -> NaN, +inf -> +inf, NaN -> NaN (x + x). The sign bit of x is or-ed into the
// result (it has that sign anyway; -0 gives -0).
template <class D, class V>
ACCELMATH_KERNEL ACCELMATH_EXP_LOG_INLINE V Log1pF8(D d, V x) {
  static constexpr std::array<float, 16> kInvC = Twice8(coeffs::kLogF8InvC());
  static constexpr std::array<float, 16> kT = Twice8(coeffs::kLogF8T());
  static constexpr std::array<float, 16> kU = Twice8(coeffs::kLogF8U());
  constexpr int kMant = kernels::FloatBits<float>::kMantissaBits;
  const RebindToUnsigned<D> du;
  const RebindToSigned<D> di;
  const V one = Set(d, 1.0f);
  const V u = Add(x, one);
  const V c = Sub(x, Sub(u, one));
  const auto bits = BitCast(du, u);
  const auto q = ShiftRight<kMant - 3>(bits);
  const V qf = ConvertTo(d, BitCast(di, q));
  const V m = BitCast(d, Or(And(bits, Set(du, (uint32_t{1} << kMant) - 1)), Set(du, uint32_t{0x3F800000u})));
  const V scale = BitCast(d, Sub(Set(du, uint32_t{0x7F000000u}), And(bits, Set(du, uint32_t{0x7F800000u}))));
  const V invc = LookupF<3>(d, kInvC, q);
  const V t = LookupF<3>(d, kT, q);
  const V tu = LookupF<3>(d, kU, q);
  const V r0 = MulSub(m, invc, one);
  const V cs = Mul(c, scale);
  const V r = MulAdd(cs, invc, r0);
  const V hi = MulAdd(qf, Set(d, coeffs::kLogF8L2Hi), t);
  V lo = MulAdd(qf, Set(d, coeffs::kLogF8L2Lo), tu);
  lo = Add(lo, MulAdd(cs, invc, Sub(r0, r)));
  V y = Add(hi, Add(r, MulAdd(r, Horner(d, r, coeffs::kLogF8Poly()), lo)));
  y = BitCast(d, OrAnd(BitCast(du, y), BitCast(du, x), Set(du, uint32_t{0x80000000})));
  const auto biased = BitCast(di, Add(bits, Set(du, uint32_t{0x7F800000u})));
  if (AllTrue(di, Lt(biased, Set(di, int32_t{-0x01000000})))) return y;
  const V minus_one = Neg(one);
  const V inf = Set(d, std::numeric_limits<float>::infinity());
  const V nan = Set(d, std::numeric_limits<float>::quiet_NaN());
  y = IfThenElse(Gt(x, minus_one), y, IfThenElse(Eq(x, minus_one), Neg(inf), nan));
  return IfThenElse(Lt(x, inf), y, Add(x, x));
}

}  // namespace exp_log_impl

// Exp(d, x) = e^x, float32 lanes (ExpF).
//   k = round(8 x log2 e), r = (x - k c_hi) - k c_lo, c_hi + c_lo = ln(2)/8, |r| <= ln(2)/16;
//   e^x = 2^floor(k/8) T_j (1 + e), e = r Q(r) + tau_j, Q of degree 3 (kExpFPoly, float32, rel.
//   error 2^-32.4), T_j and tau_j from 8-entry tables (kExpFScale8, kExpFTau8: one vpermps each on
//   AVX2 and AVX-512). Regions: exact path for k/8 in [-126, 128) (x in about [-87.36, 88.67]);
//   outside it results below 2^-126 (two roundings) and up to the overflow threshold.
//   Specials: x > 0x1.62e42ep+6 (kExpFOverflow, also +inf) -> +inf; x < -0x1.9fe368p+6
//   (kExpFUnderflow, also -inf) -> +0; NaN -> NaN. exp(+-0) = 1.
//   Measured: max 0.784753 ulp at x = -87.3887558 (a subnormal result,
//   rounded twice); 99.940% correctly rounded (`accelmath sweep exp --threads 2`, all 2^32 inputs).
template <class D, class V>
ACCELMATH_KERNEL ACCELMATH_EXP_LOG_INLINE V Exp(D d, V x) {
  return exp_log_impl::ExpF<coeffs::kExpFTableBits>(
      d, x, coeffs::kExpFInvC, coeffs::kExpFCHi, coeffs::kExpFCLo, coeffs::kExpFPoly(), coeffs::kExpFFastMin,
      coeffs::kExpFFastMax, coeffs::kExpFOverflow, coeffs::kExpFUnderflow);
}

// Exp2(d, x) = 2^x, float32 lanes (ExpF).
//   k = round(16 x), r = x - k/16 (exact, |r| <= 1/32), 2^x = 2^floor(k/16) T_j (1 + r Q(r) + tau_j),
//   Q of degree 2 (kExp2FPoly, rel. error 2^-29.2), 16-entry tables (kExpFScale16, kExpFTau16: one
//   vpermps on AVX-512, two and a blend on AVX2); integer x give exact powers of two.
//   Regions: exact path for x in [-126, 127.96875); outside it results below 2^-126 (two
//   roundings) and above 2^127.94.
//   Specials: x > 0x1.fffffep+6 -> +inf (exp2(128) = inf); x < -0x1.2bfffep+7 -> +0
//   (exp2(-150) = +0, the tie rounds to even); NaN -> NaN.
//   Measured: max 0.765711 ulp at x = -126.218445 (a subnormal result,
//   rounded twice); 99.934% correctly rounded (`accelmath sweep exp2 --threads 2`, all 2^32 inputs).
template <class D, class V>
ACCELMATH_KERNEL ACCELMATH_EXP_LOG_INLINE V Exp2(D d, V x) {
  return exp_log_impl::ExpF<coeffs::kExp2FTableBits>(
      d, x, coeffs::kExp2FInvC, coeffs::kExp2FCHi, coeffs::kExp2FCLo, coeffs::kExp2FPoly(), coeffs::kExp2FFastMin,
      coeffs::kExp2FFastMax, coeffs::kExp2FOverflow, coeffs::kExp2FUnderflow);
}

// Exp10(d, x) = 10^x, float32 lanes (ExpF).
//   k = round(16 x log2 10), r = (x - k c_hi) - k c_lo, c_hi + c_lo = log10(2)/16,
//   |r| <= log10(2)/32; 10^x = 2^floor(k/16) T_j (1 + r Q(r) + tau_j), Q of degree 2 (kExp10FPoly,
//   rel. error 2^-29.2), tables as Exp2. Regions as Exp (exact path for x in about [-37.93, 38.52]).
//   Specials: x > 0x1.344134p+5 -> +inf; x < -0x1.693c6ap+5 -> +0; NaN -> NaN.
//   Measured: max 0.771696 ulp at x = -38.0550728 (a subnormal result,
//   rounded twice); 99.933% correctly rounded (`accelmath sweep exp10 --threads 2`, all 2^32 inputs).
template <class D, class V>
ACCELMATH_KERNEL ACCELMATH_EXP_LOG_INLINE V Exp10(D d, V x) {
  return exp_log_impl::ExpF<coeffs::kExp10FTableBits>(
      d, x, coeffs::kExp10FInvC, coeffs::kExp10FCHi, coeffs::kExp10FCLo, coeffs::kExp10FPoly(), coeffs::kExp10FFastMin,
      coeffs::kExp10FFastMax, coeffs::kExp10FOverflow, coeffs::kExp10FUnderflow);
}

// Expm1(d, x) = e^x - 1.
//   k = round(x log2 e), r = x - k ln2 (r = x exactly when |x| < ln2/2), expm1(r) = r P(r) with
//   P of degree 7 (kExpm1Poly, rel. error 2^-36.5; r P(r) keeps the sign of r = -0 and gives
//   x for tiny x), then e^x - 1 = s expm1(r) - (1 - s), s = 2^k (one fma; 1 - s exact for
//   k <= 53); for k != 0 the two terms do not cancel by more than a factor ~3.
//   Specials: x > 0x1.62e42ep+6 -> +inf; x < -0x1.9fe368p+6 (also -inf) -> -1; NaN -> NaN;
//   expm1(+-0) = +-0; subnormal x -> x.
//   Measured: max 0.500164 ulp at x = 0x1.639774p-2 (0.347257435); 99.99994% correctly rounded
//   (`accelmath sweep expm1 --threads 2`, all 2^32 inputs).
template <class D, class V>
ACCELMATH_KERNEL ACCELMATH_EXP_LOG_INLINE V Expm1(D d, V x) {
  const RebindToUnsigned<D> du;
  const V one = Set(d, 1.0);
  V kd;
  const V r = exp_log_impl::ExpReduce(d, x, coeffs::kExpLog2E, coeffs::kExpLn2, coeffs::kExpShift, kd);
  const V em = Mul(r, Horner(d, r, coeffs::kExpm1Poly()));
  const V s = BitCast(d, Add(BitCast(du, one), exp_log_impl::ExpScaleBits(d, kd)));
  const V y = MulSub(s, em, Sub(one, s));
  return exp_log_impl::ExpSpecials(d, x, y, coeffs::kExpm1Overflow, coeffs::kExpm1MinusOne, Neg(one));
}

// ExpFinite64(d, x) = e^x in binary64 lanes, the one binary64 exponential of the erf, gamma and
// Bessel kernels: k = round(x log2 e) (held in kd's low bits, kExpShift), r = x - k ln2 by one fma,
// e^r = P(r) (kExp64Poly, degree 9, 2^-45.6, by Estrin), the scale 2^k added to P's exponent field.
// Valid for |x| <= 708 (2^k e^r normal); no special values: callers clamp x and handle overflow,
// underflow and NaN themselves. Relative error: P's 2^-45.6, plus |k| times the rounding of ln 2
// (2.3e-17), plus a few 2^-53: below 2^-44.5 for |x| <= 208, which covers every caller (erf's
// |x| <= 111, tgamma's exponent <= 202, Bessel's <= 100); tgamma's exponent is off by ~1e-13
// absolute already, Bessel's fits are 3.5e-12. ExpFinite64(d, x, kExp64PolyShort()): the same with
// P of degree 7 (2^-34.07, below 2^-34.0 with the rest), for erfc and normcdf, whose erfcx rational
// is 2^-35.1 (1.03-1.11x faster there, AVX3 and the forced AVX2 code on a Zen 4 and an Intel Xeon;
// erf-inl.h).
// ExpFinite64Pair: of x0 and of x1 at once, their steps alternating but for the two Estrin trees,
// one after the other in the same branch-free block (the erfc and normcdf pairs, erf-inl.h);
// ExpFinite64 gives it its one vector twice (a compiler computes each step once).
template <class D, class V, size_t N>
ACCELMATH_KERNEL ACCELMATH_EXP_LOG_INLINE V ExpFinite64Pair(D d, V x0, V x1, const std::array<double, N>& poly, V& y1) {
  const RebindToUnsigned<D> du;
  const V shift = Set(d, coeffs::kExpShift);
  const V kd0 = MulAdd(x0, Set(d, coeffs::kExpLog2E), shift);
  const V kd1 = MulAdd(x1, Set(d, coeffs::kExpLog2E), shift);
  const V r0 = NegMulAdd(Sub(kd0, shift), Set(d, coeffs::kExpLn2), x0);
  const V r1 = NegMulAdd(Sub(kd1, shift), Set(d, coeffs::kExpLn2), x1);
  const V p0 = Estrin(d, r0, poly);
  const V p1 = Estrin(d, r1, poly);
  y1 = BitCast(d, Add(BitCast(du, p1), exp_log_impl::ExpScaleBits(d, kd1)));
  return BitCast(d, Add(BitCast(du, p0), exp_log_impl::ExpScaleBits(d, kd0)));
}
template <class D, class V, size_t N>
ACCELMATH_KERNEL ACCELMATH_EXP_LOG_INLINE V ExpFinite64(D d, V x, const std::array<double, N>& poly) {
  V same;
  return ExpFinite64Pair(d, x, x, poly, same);
}
template <class D, class V>
ACCELMATH_KERNEL ACCELMATH_EXP_LOG_INLINE V ExpFinite64(D d, V x) {
  return ExpFinite64(d, x, coeffs::kExp64Poly());
}

// Log(d, x) = ln x, float32 lanes (LogF8, its own 8-entry tables; Log2/Log10/Log1p use LogF).
//   x = 2^(E - 127) m, m in [1, 2) (mantissa field); q = bits(x) >> 20 = 8 E + i, i = top 3 mantissa
//   bits: m in [1 + i/8, 1 + (i + 1)/8); r = m invc_i - 1 (one fma, exact), r in [-0.0625, 0.125];
//   ln x = hi + (r + (r P(r) + lo)), hi = q L2Hi + T_i (exact), lo = q L2Lo + U_i, L2Hi + L2Lo = ln(2)/8,
//   T_i + U_i = ln(1/invc_i) - (1016 + i) ln(2)/8 (kLogF8InvC, kLogF8T, kLogF8U: one vpermps each on
//   AVX2 and AVX-512), P of degree 5 (kLogF8Poly, rel. error 2^-28.4). Around 1 (x in [0.9375, 1.125):
//   invc = 1/2 resp. 1) hi = lo = 0 exactly: one rounding of r + r P(r); elsewhere invc_i keeps
//   |ln(1 + r)| < 2^floor(log2 |ln x|) (generator), so the inner rounding costs <= 1/4 ulp.
//   Regions: positive normal x (tested once per vector); subnormal x are scaled by 2^23 first
//   (q - 184).
//   Specials: +-0 -> -inf; x < 0 (also -inf) -> NaN; +inf -> +inf; NaN -> NaN; log(1) = +0.
//   Measured: max 0.767938 ulp at x = 0x1.da3628p-1; 99.924% correctly rounded
//   (`accelmath sweep log --threads 2`, all 2^32 inputs).
template <class D, class V>
ACCELMATH_KERNEL ACCELMATH_EXP_LOG_INLINE V Log(D d, V x) {
  return exp_log_impl::LogF8(d, x);
}

// Log2(d, x) = log2 x, float32 lanes (LogF): as Log, with log2(1/invc_i) (kLog2FHi, kLog2FLo),
// k added exactly, and c1 r = bh + bl (c1 = 1/ln 2 rounded, kLog2FC1; P of degree 4, kLog2FPoly,
// rel. error 2^-28.9, absorbs the rounding of c1); powers of two give exact integers.
// Specials as Log. Measured: max 0.641593 ulp at x = 0x1.f7fc9cp-1; 99.998% correctly rounded
// (`accelmath sweep log2 --threads 2`, all 2^32 inputs).
template <class D, class V>
ACCELMATH_KERNEL ACCELMATH_EXP_LOG_INLINE V Log2(D d, V x) {
  return exp_log_impl::LogF<2>(d, x);
}

// Log10(d, x) = log10 x, float32 lanes (LogF): as Log2, with log10(1/invc_i) (kLog10FHi,
// kLog10FLo), k log10(2) = k L2Hi (exact) + k L2Lo, c1 = 1/ln 10 rounded (kLog10FC1), P of degree
// 4 (kLog10FPoly, rel. error 2^-29.0). Specials as Log. Measured: max 0.656062 ulp at
// x = 0x1.f7f332p-1; 99.998% correctly rounded (`accelmath sweep log10 --threads 2`, all 2^32
// inputs).
template <class D, class V>
ACCELMATH_KERNEL ACCELMATH_EXP_LOG_INLINE V Log10(D d, V x) {
  return exp_log_impl::LogF<10>(d, x);
}

// Log1p(d, x) = ln(1 + x), float32 lanes (Log1pF8).
//   u = 1 + x rounded, c = x - (u - 1) (exact where it matters); u = 2^(E - 127) m reduced as Log
//   (LogF8Core: q = bits(u) >> 20, 8 subintervals, kLogF8InvC/T/U, kLogF8Poly), with
//   c 2^(127 - E) invc_i folded into r by one fma (1 + r is then (1 + x) 2^(127 - E) invc_i up to
//   that rounding) and the rounding error of that fma added to the low part. Around 1 (hi = lo = 0)
//   r = x exactly, so tiny and subnormal x give x; the sign bit of x is or-ed into the result (-0
//   gives -0). Regions: -1 < x < +inf (tested once per vector), one path for all of it.
//   Specials: x = -1 -> -inf; x < -1 (also -inf) -> NaN; +inf -> +inf; NaN -> NaN; +-0 -> +-0.
//   Measured: max 0.776856 ulp at x = -0x1.2210acp-4; 99.746% correctly rounded
//   (`accelmath sweep log1p --threads 2`, all 2^32 inputs).
template <class D, class V>
ACCELMATH_KERNEL ACCELMATH_EXP_LOG_INLINE V Log1p(D d, V x) {
  return exp_log_impl::Log1pF8(d, x);
}

}  // namespace accelmath::ACCELMATH_KNS

#endif  // ACCELMATH_KERNELS_EXP_LOG_INL_H_ toggle
