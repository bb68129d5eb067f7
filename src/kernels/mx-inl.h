// MX block quantization: the shared scale, the element codecs and the decoder, written once
// (docs/mx.md has the rules and the references they were checked against).
//
// Everything works on the float32 bit pattern in int32 lanes (values < 2^31, so signed lanes and
// arithmetic shifts are safe), with few float operations: the multiply by the block's power of
// two, rint's add (whose IEEE rounding is the grid's) and RCEIL's multiply by fp32(1/max). Only
// exact integer operations and those correctly rounded ones are used (no fma, no flush to zero),
// so every Highway target and the scalar lane (src/backend/scalar_lane.h, also CUDA device code)
// give the same bits. Measured: every float32 pattern, every format and rounding mode, through the
// SIMD codec equals the independent model (tools/accuracy/mx_reference.cc): `accelmath mx-sweep`,
// docs/accuracy.md.
#if defined(ACCELMATH_KERNELS_MX_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef ACCELMATH_KERNELS_MX_INL_H_
#undef ACCELMATH_KERNELS_MX_INL_H_
#else
#define ACCELMATH_KERNELS_MX_INL_H_
#endif

#include <cstdint>

#include "accelmath/mx.h"
#include "kernels/kernel_api.h"
#include "mx/format.h"

namespace accelmath::ACCELMATH_KNS {

using mx::ElemFormat;
using mx::RoundMode;
using mx::ScaleAlg;

// The bits of float32's canonical quiet NaN (std::numeric_limits<float>::quiet_NaN()): every NaN
// that decoding makes (E4M3's NaN code, the NaN scale 0xFF) is this one.
inline constexpr int32_t kNaNBits = 0x7FC00000;

// Shared scale code E (E8M0, value 2^(E - 127)) of blocks whose max |x| has the float32 bits
// `amax` (a NaN anywhere gives bits above 0x7F800000, an Inf exactly that):
//   kOcp   E = max(e - emax, 0), e = amax's biased exponent field: floor(log2 amax) - emax + 127
//          taken from the bits (log2f rounds up just below a power of two), clamped at 2^-127;
//          a zero or subnormal amax gives 0.
//   kRceil S = fp32(amax * fp32(1/max_normal)); E = S's exponent field, plus 1 when S is normal
//          with a non-zero mantissa (exponent < 254) or subnormal with mantissa > 0x400000
//          (S > 2^-127): the cuBLAS/TransformerEngine rule, as the operator multiplies.
//   kCeil  E = clamp(e + (mantissa != 0) - emax, 0, 254): ceil(log2 amax) - emax (torchao CEIL).
//   kEven  amax rounded half-up at the element's mantissa width (add 2^(22 - mbits) to the bits,
//          keep the exponent), then kOcp, clamped at 254 (torchao EVEN).
//   Non-finite amax: E = 0xFF for every rule.
template <ElemFormat F, class DF, class DI, class VI>
ACCELMATH_KERNEL VI ScaleCode(DF df, DI di, VI amax, ScaleAlg alg) {
  const VI e = ShiftRight<23>(amax);
  const VI zero = Zero(di);
  VI code;
  if (alg == ScaleAlg::kRceil) {
    const VI s = BitCast(di, Mul(BitCast(df, amax), Set(df, 1.0f / F.max_normal)));
    const VI se = ShiftRight<23>(s);
    const VI sm = And(s, Set(di, 0x7FFFFF));
    const auto up = Or(And(And(Gt(se, zero), Lt(se, Set(di, 254))), Gt(sm, zero)),
                       And(Eq(se, zero), Gt(sm, Set(di, 0x400000))));
    code = IfThenElse(up, Add(se, Set(di, 1)), se);
  } else {
    VI er = e;
    if (alg == ScaleAlg::kCeil) {
      er = Add(e, Min(And(amax, Set(di, 0x7FFFFF)), Set(di, 1)));
    } else if (alg == ScaleAlg::kEven) {
      er = ShiftRight<23>(Add(amax, Set(di, 1 << (22 - F.mbits))));
    }
    code = Min(Max(Sub(er, Set(di, F.emax)), zero), Set(di, 254));
  }
  return IfThenElse(Lt(amax, Set(di, 0x7F800000)), code, Set(di, 255));
}

// 2^(127 - E), the factor that maps a block onto the element grid: exponent field 254 - E, and
// for E = 254 the float32 subnormal 2^-127 (never built as E << 23). E = 255 gives junk that the
// caller masks away.
template <class DF, class DI, class VI>
ACCELMATH_KERNEL auto ScaleFactor(DF df, DI di, VI code) {
  const VI bits = ShiftLeft<23>(Sub(Set(di, 254), code));
  return BitCast(df, IfThenElse(Eq(code, Set(di, 254)), Set(di, 0x00400000), bits));
}

// The element code of the float32 with bits v: one rounding of |v| onto F's grid in kMode, then
// saturation to max_code and the sign of v in bit F.bits - 1 (so -0 and negatives that round to 0
// give -0). No NaN handling: callers decide. `nonzero` (0 or 1) is 1 when the exact value
// behind v is non-zero; kFloor needs it for a v that underflowed to -0 in float32, whose exact
// value floors to -(smallest subnormal).
//
// |v| = M * 2^(e' - 150), e' = max(e, 1), M the significand with its implicit bit. With
// d = e' - 127 - emin (the target exponent above its smallest normal), the grid step at v is
// 2^(max(d, 0) + emin - mbits), so q = M rounded at bit `shift` = 23 - mbits - min(d, 0) (capped
// at 25: M < 2^24 is then below half a step) counts steps, and the code is
// (max(d, 0) << mbits) + q: a q that rounds up to 2^(mbits+1) carries into the exponent, and a
// subnormal q that reaches 2^mbits becomes the smallest normal, as the bit layout wants.
template <ElemFormat F, RoundMode kMode, class DI, class VI>
ACCELMATH_KERNEL VI EncodeBits(DI di, VI v, VI nonzero) {
  const VI zero = Zero(di);
  const VI one = Set(di, 1);
  const VI a = And(v, Set(di, 0x7FFFFFFF));
  const VI e1 = Max(ShiftRight<23>(a), one);
  VI m = Sub(a, ShiftLeft<23>(Sub(e1, one)));  // mantissa plus the implicit bit when e >= 1
  if (kMode == RoundMode::kFloor) m = Max(m, nonzero);
  const VI d = Sub(e1, Set(di, 127 + F.emin));
  const VI shift = Min(Sub(Set(di, 23 - F.mbits), Min(d, zero)), Set(di, 25));
  const VI step = Shl(one, shift);
  const VI neg = ShiftRight<31>(v);  // all ones for a negative v, else 0
  VI bias;
  if (kMode == RoundMode::kRint) {
    bias = Add(Sub(ShiftRight<1>(step), one), And(Shr(m, shift), one));
  } else if (kMode == RoundMode::kRound) {
    bias = ShiftRight<1>(step);
  } else {  // floor: toward zero for positives, away from zero for negatives
    bias = And(neg, Sub(step, one));
  }
  const VI q = Shr(Add(m, bias), shift);
  const VI code = Min(Add(ShiftLeft<F.mbits>(Max(d, zero)), q), Set(di, F.max_code));
  return Or(code, And(neg, Set(di, 1 << (F.bits - 1))));
}

// kRint through the float adder, for |v| bits a (sign clear): with ec = max(e, 127 + emin) and
// C = 2^(ec - 127 + 23 - mbits), the unit in the last place of C is the grid step at |v|, and
// |v| < 2^(ec - 126) is far below C, so the float32 sum |v| + C rounds |v| to the grid, half to
// even (IEEE default rounding), and its bits minus C's count the steps q; the code is then
// ((ec - 127 - emin) << mbits) + q, as in EncodeBits. a is first clamped to 2^(emax + 2), which
// saturates anyway, so that C stays finite; kBounded skips that for callers whose |v| is known to
// be finite and below it (a finite block scaled by its own E: |v| < 2^(emax + 1)). Fewer
// operations than EncodeBits, same codes (the codec tests compare both with the reference model).
template <ElemFormat F, bool kBounded = false, class DF, class DI, class VI>
ACCELMATH_KERNEL VI EncodeRintAbs(DF df, DI di, VI a) {
  if (!kBounded) a = Min(a, Set(di, (127 + F.emax + 2) << 23));
  // c = 2^(ec - 127 + 23 - mbits) built on the exponent field; c >> (23 - mbits) is then
  // (ec + 23 - mbits) << mbits, which turns q into the code with one constant.
  const VI c = Add(Max(And(a, Set(di, 0x7F800000)), Set(di, (127 + F.emin) << 23)), Set(di, (23 - F.mbits) << 23));
  const VI sum = BitCast(di, Add(BitCast(df, a), BitCast(df, c)));
  const VI code = Sub(Add(Sub(sum, c), ShiftRight<23 - F.mbits>(c)), Set(di, (23 - F.mbits + 127 + F.emin) << F.mbits));
  return Min(code, Set(di, F.max_code));
}

// The sign of float32 bits x in F's sign bit (bit F.bits - 1).
template <ElemFormat F, class DI, class VI>
ACCELMATH_KERNEL VI SignBit(DI di, VI x) {
  return And(ShiftRight<32 - F.bits>(x), Set(di, 1 << (F.bits - 1)));
}

// Element code of float32 bits x: one rounding in kMode plus NaN (F's NaN with x's sign, or +0
// when F has none). The per-value codec of the public API.
template <ElemFormat F, RoundMode kMode, class DF, class DI, class VI>
ACCELMATH_KERNEL VI EncodeFloat(DF df, DI di, VI x) {
  const VI a = And(x, Set(di, 0x7FFFFFFF));
  VI code;
  if constexpr (kMode == RoundMode::kRint) {
    code = Or(EncodeRintAbs<F>(df, di, a), SignBit<F>(di, x));
  } else {
    code = EncodeBits<F, kMode>(di, x, Min(a, Set(di, 1)));
  }
  VI nan = Zero(di);
  if constexpr (F.nan_code >= 0) nan = Or(Set(di, F.nan_code), SignBit<F>(di, x));
  return IfThenElse(Gt(a, Set(di, 0x7F800000)), nan, code);
}

// Codes of the float32 bits x of one block (or of lanes each in its own block) with factor
// 2^(127 - E): one rounding of the exact x * 2^(127 - E). The float32 product is exact unless it
// is below 2^-126, and there every element grid (steps >= 2^-16) rounds it to +-0, except kFloor,
// whose negative results need `nonzero`, taken from x. `keep` is all ones, or 0 for a block with
// E = 0xFF, whose elements are +0. kFinite: the caller knows that E < 0xFF for every lane (keep is
// then ignored).
template <ElemFormat F, RoundMode kMode, bool kFinite = false, class DF, class DI, class VI, class VF>
ACCELMATH_KERNEL VI QuantizeLanes(DF df, DI di, VI x, VF factor, VI keep) {
  if constexpr (kMode == RoundMode::kRint) {
    const VI a = BitCast(di, Mul(BitCast(df, And(x, Set(di, 0x7FFFFFFF))), factor));
    const VI code = Or(EncodeRintAbs<F, kFinite>(df, di, a), SignBit<F>(di, x));
    return kFinite ? code : And(code, keep);
  } else {
    const VI v = BitCast(di, Mul(BitCast(df, x), factor));
    VI nonzero = Zero(di);
    if (kMode == RoundMode::kFloor) nonzero = Min(And(x, Set(di, 0x7FFFFFFF)), Set(di, 1));
    const VI code = EncodeBits<F, kMode>(di, v, nonzero);
    return kFinite ? code : And(code, keep);
  }
}

// All ones for E < 255, 0 for E = 255 (the sign of E - 255, spread).
template <class DI, class VI>
ACCELMATH_KERNEL VI KeepMask(DI di, VI code) {
  return ShiftRight<31>(Sub(code, Set(di, 255)));
}

// Float32 bits of the element code c (F's bits in the low bits of an int32 lane), exactly:
// normal (1 + man/2^mbits) * 2^(ef - 1 + emin), subnormal man * 2^(emin - mbits), E4M3FN's
// S.1111.111 a NaN, E5M2's all-ones exponent Inf or NaN as IEEE.
template <ElemFormat F, class DF, class DI, class VI>
ACCELMATH_KERNEL VI DecodeBits(DF df, DI di, VI c) {
  const VI mag = And(c, Set(di, (1 << (F.bits - 1)) - 1));
  const VI ef = ShiftRight<F.mbits>(mag);
  const VI man = And(mag, Set(di, (1 << F.mbits) - 1));
  const VI normal = Add(ShiftLeft<23>(Add(ef, Set(di, 126 + F.emin))), ShiftLeft<23 - F.mbits>(man));
  const float sub_step = F.emin - F.mbits >= 0 ? float(1 << (F.emin - F.mbits)) : 1.0f / float(1 << (F.mbits - F.emin));
  const VI sub = BitCast(di, Mul(ConvertTo(df, man), Set(df, sub_step)));
  VI bits = IfThenElse(Eq(ef, Zero(di)), sub, normal);
  if constexpr (F.inf_code >= 0) {  // E5M2: exponent all ones
    const VI special = Or(Set(di, 0x7F800000), ShiftLeft<23 - F.mbits>(man));
    bits = IfThenElse(Eq(ef, Set(di, F.inf_code >> F.mbits)), special, bits);
  } else if constexpr (F.nan_code >= 0) {  // E4M3FN: one NaN code
    bits = IfThenElse(Eq(mag, Set(di, F.nan_code)), Set(di, kNaNBits), bits);
  }
  return Or(bits, ShiftLeft<31 - (F.bits - 1)>(And(c, Set(di, 1 << (F.bits - 1)))));
}

// 2^(code - 127) for an E8M0 code: exponent field `code`, 2^-127 (a float32 subnormal) for code
// 0, NaN for 0xFF.
template <class DF, class DI, class VI>
ACCELMATH_KERNEL auto E8M0Value(DF df, DI di, VI code) {
  VI bits = IfThenElse(Eq(code, Zero(di)), Set(di, 0x00400000), ShiftLeft<23>(code));
  bits = IfThenElse(Eq(code, Set(di, 255)), Set(di, kNaNBits), bits);
  return BitCast(df, bits);
}

}  // namespace accelmath::ACCELMATH_KNS

#endif  // include guard
