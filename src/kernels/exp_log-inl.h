// The exp/log family: exp, exp2, exp10, expm1, log, log2, log10, log1p. The only place their
// algorithms live.
//
// Every kernel runs in binary64 lanes: `x` holds a float32 value (exactly), the result is a
// double that the caller rounds to float32 once (DemoteTo). The double result is within about
// 2^-36 relative of the exact value, so the float32 result is within 0.5 + 2^-12 ulp of it,
// over all float32 inputs: every float32, subnormals included, is a normal double, and a
// subnormal float32 result is rounded correctly by the single DemoteTo of an accurate double.
// No per-lane branches: every lane runs the same operations, special values are written last
// with masks (a vector whose lanes are all ordinary skips that step as a whole). Only correctly
// rounded IEEE operations, integer/bit operations, selects and 16-entry table lookups (Lookup16:
// a permute on AVX-512, a gather on AVX2, an array read on the scalar lane; the same entries), in
// a fixed order: the same bits on every Highway target and on the scalar lane.
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

// ---- table lookup ----------------------------------------------------------------------------
// t[idx mod 16] in every lane (idx: unsigned 64-bit lanes; only the low 4 bits count): one
// two-register permute on AVX-512 (vpermt2pd, which reads only the low 4 bits of each index), a
// gather elsewhere (scalar lane: an array read); the same entries, hence the same bits.
#if defined(HWY_TARGET) && defined(HWY_AVX3) && \
    (HWY_TARGET == HWY_AVX3 || HWY_TARGET == HWY_AVX3_DL || (defined(HWY_AVX3_ZEN4) && HWY_TARGET == HWY_AVX3_ZEN4) || \
     (defined(HWY_AVX3_SPR) && HWY_TARGET == HWY_AVX3_SPR))
#define ACCELMATH_EXP_LOG_PERMUTE16 1
#endif
template <class D, class VU>
ACCELMATH_KERNEL ACCELMATH_EXP_LOG_INLINE auto Lookup16(D d, const std::array<double, 16>& t, VU idx) {
#ifdef ACCELMATH_EXP_LOG_PERMUTE16
  if constexpr (std::is_same_v<decltype(Zero(d)), hwy::HWY_NAMESPACE::Vec512<double>>) {
    return decltype(Zero(d)){_mm512_permutex2var_pd(LoadU(d, t.data()).raw, idx.raw, LoadU(d, t.data() + 8).raw)};
  } else  // NOLINT
#endif
  {
    const RebindToUnsigned<D> du;
    const RebindToSigned<D> di;
    const auto i = BitCast(di, And(idx, Set(du, uint64_t{15})));
#if defined(HWY_TARGET) && defined(HWY_AVX2) && HWY_TARGET == HWY_AVX2
    if constexpr (std::is_same_v<decltype(Zero(d)), hwy::HWY_NAMESPACE::Vec256<double>>) {
      // GatherIndex's vgatherqpd merges into its destination register, and GCC, seeing an
      // all-ones mask, leaves whatever was there (once, the previous vector's result: a false
      // dependency that halved log1p's speed). A mask it cannot prove all-ones (i < 16 is always
      // true) makes it write the zero source into the destination first.
      const auto live = BitCast(d, VecFromMask(di, Lt(i, Set(di, int64_t{16}))));
      return decltype(Zero(d)){_mm256_mask_i64gather_pd(Zero(d).raw, t.data(), i.raw, live.raw, 8)};
    } else  // NOLINT
#endif
    {
      return GatherIndex(d, t.data(), i);
    }
  }
}
#undef ACCELMATH_EXP_LOG_PERMUTE16

// ---- exp family ------------------------------------------------------------------------------
// x = k c + r, c = 1/inv_c (c = ln 2 for Expm1; c = log_b(2) for ExpBase, where k is a multiple
// of 1/16): kd = x inv_c + shift (1.5 2^52, or 1.5 2^48 for multiples of 1/16) rounds x inv_c
// to the nearest k (ties to even; exact for |x inv_c| < 2^47), held as an integer in kd's low
// mantissa bits (two's complement); r = x - k c by one fma, |r| <= c/2 (c/32) + 2^-46. Below the
// overflow/underflow thresholds |k c| < 104, so the rounding of the constant c moves r by at
// most 2^-46 (b = 10: 2^-45 in log10 units), a relative error below 2^-44 in b^r.
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

// b^x = 2^(k/16) b^r = 2^(k/16) (1 + r Q(r)), k/16 = round(16 x log2 b)/16, r = x - (k/16) log_b 2,
// |r| <= log_b(2)/32; valid (before ExpSpecials) for x in [lo, hi]. 2^(k/16) = 2^floor(k/16)
// 2^(j/16), j = k mod 16, is built exactly from the table entry T'[j] (2^(j/16) with j << 48
// taken off its bits) by adding k << 48 (kd's bits shifted) to its bits: a normal double, since
// floor(k/16) >= -150 there. One rounding (the product) after the polynomial's.
template <class D, class V, size_t N>
ACCELMATH_KERNEL ACCELMATH_EXP_LOG_INLINE V ExpBase(D d, V x, double log2b, double logb2, const std::array<double, N>& q,
                                                   double hi, double lo) {
  using FB = kernels::FloatBits<double>;
  static constexpr auto kTable = coeffs::kExpTable();
  const RebindToUnsigned<D> du;
  V kd;
  const V r = ExpReduce(d, x, log2b, logb2, coeffs::kExpShiftT, kd);
  const V p = MulAdd(r, Horner(d, r, q), Set(d, 1.0));
  const auto kbits = BitCast(du, kd);
  const auto t = Add(BitCast(du, Lookup16(d, kTable, kbits)),
                     ShiftLeft<FB::kMantissaBits - coeffs::kExpTableBits>(kbits));
  return ExpSpecials(d, x, Mul(BitCast(d, t), p), hi, lo, Zero(d));
}

// ---- log family ------------------------------------------------------------------------------
// Splits a positive finite double x (every float32 > 0 is a normal double) as x = 2^k z with z in
// [kLogOff, 2 kLogOff) as bit patterns (k from the exponent field of bits(x) + bits(1) - kLogOff,
// z from its mantissa field, so no branch). Returns -k in nk (+0 for k = 0: see LogCombine), and
// a vector whose low kLogTableBits bits are the index of z's subinterval (the top bits of that
// mantissa field; the bits above are garbage, Lookup16 ignores them). Other x give garbage.
template <class D, class V>
ACCELMATH_KERNEL ACCELMATH_EXP_LOG_INLINE auto LogSplit(D d, V x, V& nk, V& z) {
  using FB = kernels::FloatBits<double>;
  const RebindToUnsigned<D> du;
  const auto tmp = Add(BitCast(du, x), Set(du, coeffs::kLogOneMinusOff));
  const auto mant_mask = Set(du, (uint64_t{1} << FB::kMantissaBits) - 1);
  nk = Sub(Set(d, FB::kMagic + double(FB::kExponentBias)),
           BitCast(d, Or(ShiftRight<FB::kMantissaBits>(tmp), Set(du, FB::kMagicBits))));
  z = BitCast(d, Add(And(tmp, mant_mask), Set(du, coeffs::kLogOff)));
  return ShiftRight<FB::kMantissaBits - coeffs::kLogTableBits>(tmp);
}

template <class D, class VU>
ACCELMATH_KERNEL ACCELMATH_EXP_LOG_INLINE auto LogInvC(D d, VU idx) {
  static constexpr auto kTable = coeffs::kLogInvC();
  return Lookup16(d, kTable, idx);
}

// log_b x = (k log_b 2 + log_b c_i) + r P_b(r) for x = 2^k z, r = z invc_i - 1, c_i = 1/invc_i
// (for log1p, r comes from 1 + x). hi = -(nk log_b 2) + log_b c_i is -0 for k = 0, invc = 1
// (nk = +0, table entry -0), so r = -0 gives -0; no negated fma result is used, so a compiler
// folding -fma(a, b, c) into fma(-a, b, -c) (GCC does, for the scalar lane) cannot flip a zero.
template <int kBase, class D, class V, class VU>
ACCELMATH_KERNEL ACCELMATH_EXP_LOG_INLINE V LogCombine(D d, V r, V nk, VU idx) {
  if constexpr (kBase == 2) {
    static constexpr auto kTable = coeffs::kLog2LogC();
    const V hi = Sub(Lookup16(d, kTable, idx), nk);
    return MulAdd(r, Horner(d, r, coeffs::kLog2Poly()), hi);
  } else if constexpr (kBase == 10) {
    static constexpr auto kTable = coeffs::kLog10LogC();
    const V hi = NegMulAdd(nk, Set(d, coeffs::kLogLog10Of2), Lookup16(d, kTable, idx));
    return MulAdd(r, Horner(d, r, coeffs::kLog10Poly()), hi);
  } else {
    static constexpr auto kTable = coeffs::kLogLogC();
    const V hi = NegMulAdd(nk, Set(d, coeffs::kLogLn2), Lookup16(d, kTable, idx));
    return MulAdd(r, Horner(d, r, coeffs::kLogPoly()), hi);
  }
}

// The kernel's value y is valid where u (x, or 1 + x for log1p) is positive and finite: tested
// once per vector (u - 1 < +inf - 1 on the bits, unsigned; never per lane: each lane's value is
// the same either way). Otherwise: lanes with x = lo become -inf, x < lo (also -inf) NaN,
// x = +inf stays +inf, NaN stays NaN.
template <class D, class V>
ACCELMATH_KERNEL ACCELMATH_EXP_LOG_INLINE V LogSpecials(D d, V x, V u, V y, double lo) {
  const RebindToUnsigned<D> du;
  const auto ubits = BitCast(du, u);
  constexpr int kMant = kernels::FloatBits<double>::kMantissaBits;
  constexpr uint64_t inf_bits = ((uint64_t{1} << (63 - kMant)) - 1) << kMant;  // all exponent bits
  if (AllTrue(du, Lt(Sub(ubits, Set(du, uint64_t{1})), Set(du, inf_bits - 1)))) return y;
  const V inf = Set(d, std::numeric_limits<double>::infinity());
  const V vlo = Set(d, lo);
  y = IfThenElse(Gt(x, vlo), y, IfThenElse(Eq(x, vlo), Neg(inf), Set(d, std::numeric_limits<double>::quiet_NaN())));
  return IfThenElse(Lt(x, inf), y, Add(x, x));
}

template <int kBase, class D, class V>
ACCELMATH_KERNEL ACCELMATH_EXP_LOG_INLINE V LogBase(D d, V x) {
  V nk, z;
  const auto idx = LogSplit(d, x, nk, z);
  const V r = MulSub(z, LogInvC(d, idx), Set(d, 1.0));
  return LogSpecials(d, x, x, LogCombine<kBase>(d, r, nk, idx), 0.0);
}

}  // namespace exp_log_impl

// Exp(d, x) = e^x.
//   k = round(16 x log2 e), r = x - (k/16) ln2 (one fma, |r| <= ln2/32), e^x = 2^(k/16) (1 + r Q(r)),
//   Q of degree 3 (kExpPoly, rel. error 2^-37.5); 2^(k/16) = 2^floor(k/16) 2^((k mod 16)/16)
//   exactly, from a 16-entry table (kExpTable: one vpermt2pd on AVX-512, a gather on AVX2) and
//   integer addition to its bits (the result, down to 2^-150, is a normal double). Polynomials
//   here are evaluated by Horner's rule: fewest operations, and array loops are throughput-bound.
//   Specials: x > 0x1.62e42ep+6 (kExpOverflow, also +inf) -> +inf; x < -0x1.9fe368p+6
//   (kExpUnderflow, also -inf) -> +0; NaN -> NaN. exp(+-0) = 1.
//   Measured, all 2^32 float32 inputs through the AVX3 loop vs glibc's double exp (scratch
//   exhaustive checker, `check check exp 3`; to be replaced by `accelmath sweep exp`): max
//   0.500073 ulp at x = -0x1.bb810ep-4; 4678 results not correctly rounded; specials exact.
template <class D, class V>
ACCELMATH_KERNEL ACCELMATH_EXP_LOG_INLINE V Exp(D d, V x) {
  return exp_log_impl::ExpBase(d, x, coeffs::kExpLog2E, coeffs::kExpLn2, coeffs::kExpPoly(), coeffs::kExpOverflow,
                         coeffs::kExpUnderflow);
}

// Exp2(d, x) = 2^x.
//   As Exp with k/16 = round(16 x)/16, r = x - k/16 (exact, |r| <= 1/32), Q of degree 3 (kExp2Poly,
//   rel. error 2^-37.5); integer x give exact powers of two.
//   Specials: x > 0x1.fffffep+6 -> +inf (exp2(128) = inf); x < -0x1.2bfffep+7 -> +0
//   (exp2(-150) = +0, the tie rounds to even); NaN -> NaN.
//   Measured as Exp (`check check exp2 3`): max 0.500071 ulp at x = -0x1.8035fep-4; 5542 not
//   correctly rounded.
template <class D, class V>
ACCELMATH_KERNEL ACCELMATH_EXP_LOG_INLINE V Exp2(D d, V x) {
  return exp_log_impl::ExpBase(d, x, 1.0, 1.0, coeffs::kExp2Poly(), coeffs::kExp2Overflow, coeffs::kExp2Underflow);
}

// Exp10(d, x) = 10^x.
//   As Exp with k = round(16 x log2 10), r = x - (k/16) log10(2) (one fma, |r| <= log10(2)/32),
//   Q of degree 3 (kExp10Poly, rel. error 2^-37.5).
//   Specials: x > 0x1.344134p+5 -> +inf; x < -0x1.693c6ap+5 -> +0; NaN -> NaN.
//   Measured as Exp (`check check exp10 3`, vs glibc exp10): max 0.500073 ulp at
//   x = -0x1.34af5ap-7; 4664 not correctly rounded.
template <class D, class V>
ACCELMATH_KERNEL ACCELMATH_EXP_LOG_INLINE V Exp10(D d, V x) {
  return exp_log_impl::ExpBase(d, x, coeffs::kExp10Log2Of10, coeffs::kExp10Log10Of2, coeffs::kExp10Poly(),
                         coeffs::kExp10Overflow, coeffs::kExp10Underflow);
}

// Expm1(d, x) = e^x - 1.
//   k = round(x log2 e), r = x - k ln2 (r = x exactly when |x| < ln2/2), expm1(r) = r P(r) with
//   P of degree 7 (kExpm1Poly, rel. error 2^-36.5; r P(r) keeps the sign of r = -0 and gives
//   x for tiny x), then e^x - 1 = s expm1(r) - (1 - s), s = 2^k (one fma; 1 - s exact for
//   k <= 53); for k != 0 the two terms do not cancel by more than a factor ~3.
//   Specials: x > 0x1.62e42ep+6 -> +inf; x < -0x1.9fe368p+6 (also -inf) -> -1; NaN -> NaN;
//   expm1(+-0) = +-0; subnormal x -> x.
//   Measured as Exp (`check check expm1 3`): max 0.500164 ulp at x = 0x1.639774p-2; 2761 not
//   correctly rounded.
template <class D, class V>
ACCELMATH_KERNEL ACCELMATH_EXP_LOG_INLINE V Expm1(D d, V x) {
  const RebindToUnsigned<D> du;
  const V one = Set(d, 1.0);
  V kd;
  const V r = exp_log_impl::ExpReduce(d, x, coeffs::kExpLog2E, coeffs::kExpLn2, coeffs::kExpShift, kd);
  const V em = Mul(r, Horner(d, r, coeffs::kExpm1Poly()));
  const V s = BitCast(d, Add(BitCast(du, one), exp_log_impl::ExpScaleBits(d, kd)));
  const V y = MulSub(s, em, Sub(one, s));
  return exp_log_impl::ExpSpecials(d, x, y, coeffs::kExpOverflow, coeffs::kExpm1MinusOne, Neg(one));
}

// Log(d, x) = ln x.
//   x = 2^k z, z in [0.7031, 1.4063) (bit fields: kLogOff); the top 4 bits of z's offset
//   mantissa pick one of 16 subintervals i, invc_i ~ 1/(its midpoint) with 21 significant bits,
//   exactly 1 on the subinterval [1 - 2^-6, 1 + 2^-5) around 1; r = z invc_i - 1 (one fma, exact
//   there), |r| <= 2^-5; ln x = (k ln2 + ln c_i) + r P(r), c_i = 1/invc_i, P of degree 5
//   (kLogPoly, rel. error 2^-38.0). Two 16-entry lookups (Lookup16): invc_i and ln c_i. Away
//   from the subinterval around 1, |ln x| >= 2^-7, so the absolute errors of k ln2 + ln c_i
//   (< 2^-46) stay below 2^-39 relative.
//   Specials: +-0 -> -inf; x < 0 (also -inf) -> NaN; +inf -> +inf; NaN -> NaN; log(1) = +0.
//   Measured as Exp (`check check log 3`): max 0.500050 ulp at x = 0x1.04079ep+0; 69 not
//   correctly rounded.
template <class D, class V>
ACCELMATH_KERNEL ACCELMATH_EXP_LOG_INLINE V Log(D d, V x) {
  return exp_log_impl::LogBase<0>(d, x);
}

// Log2(d, x) = log2 x: as Log, with log2 c_i (kLog2LogC), P/ln2 (kLog2Poly) and k added
// exactly; powers of two give exact integers. Specials as Log.
// Measured as Exp (`check check log2 3`): max 0.500040 ulp at x = 0x1.f819bp-1; 84 not correctly
// rounded.
template <class D, class V>
ACCELMATH_KERNEL ACCELMATH_EXP_LOG_INLINE V Log2(D d, V x) {
  return exp_log_impl::LogBase<2>(d, x);
}

// Log10(d, x) = log10 x: as Log, with log10 c_i (kLog10LogC), P/ln10 (kLog10Poly) and
// k log10(2). Specials as Log.
// Measured as Exp (`check check log10 3`): max 0.500034 ulp at x = 0x1.f77f08p-1; 72 not
// correctly rounded.
template <class D, class V>
ACCELMATH_KERNEL ACCELMATH_EXP_LOG_INLINE V Log10(D d, V x) {
  return exp_log_impl::LogBase<10>(d, x);
}

// Log1p(d, x) = ln(1 + x).
//   u = 1 + x (rounded; exact unless |x| < 2^-29 or x >= 2^53), split as in Log: u = 2^k z,
//   r = z invc_i - 1; where |x| < 2^-6 (kLog1pNearZero: u is in the subinterval around 1,
//   invc = 1, k = 0) r = x instead, exactly, so tiny and subnormal x give x and -0 gives -0; for
//   x >= 2^53 the rounding of u changes ln u by < 2^-53, relative 2^-58.
//   ln(1 + x) = (k ln2 + ln c_i) + r P(r) as in Log.
//   Specials: x = -1 -> -inf; x < -1 (also -inf) -> NaN; +inf -> +inf; NaN -> NaN; +-0 -> +-0.
//   Measured as Exp (`check check log1p 3`): max 0.500058 ulp at x = 0x1.fe2d5ap-11; 13810 not
//   correctly rounded.
template <class D, class V>
ACCELMATH_KERNEL ACCELMATH_EXP_LOG_INLINE V Log1p(D d, V x) {
  const V one = Set(d, 1.0);
  const V u = Add(x, one);
  V nk, z;
  const auto idx = exp_log_impl::LogSplit(d, u, nk, z);
  const V r_table = MulSub(z, exp_log_impl::LogInvC(d, idx), one);
  const V r = IfThenElse(Lt(Abs(x), Set(d, coeffs::kLog1pNearZero)), x, r_table);
  return exp_log_impl::LogSpecials(d, x, u, exp_log_impl::LogCombine<0>(d, r, nk, idx), -1.0);
}

}  // namespace accelmath::ACCELMATH_KNS

#endif  // ACCELMATH_KERNELS_EXP_LOG_INL_H_ toggle
