// Natural logarithm building block (the exp/log family will grow here).
#if defined(ACCELMATH_KERNELS_LOG_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef ACCELMATH_KERNELS_LOG_INL_H_
#undef ACCELMATH_KERNELS_LOG_INL_H_
#else
#define ACCELMATH_KERNELS_LOG_INL_H_
#endif

#include "kernels/common-inl.h"
#include "kernels/float_bits.h"

namespace accelmath::ACCELMATH_KNS {

// LogOfNormal(d, x, atanh_coeffs, ln2): ln x for a positive *normal* x (float or double lanes).
//   x = 2^k m with m in [sqrt(1/2), sqrt(2)) (k from the exponent field after adding
//   1 - sqrt(1/2) to the mantissa, so no branch); f = m - 1 (exact, Sterbenz);
//   s = f / (2 + f); ln m = 2 atanh(s) = 2s + s z P(z), z = s^2, |s| <= 3 - 2 sqrt 2 = 0.1716;
//   ln x = k ln2 + ln m (one fma).
// P is the truncated Taylor series 2/3, 2/5, ... and ln2 the rounded constant (both from
// tools/coeffs/ndtri.py). With the double table (7 terms) the truncation error is < 4e-14
// relative to ln m and rounding adds a few ulp of double; with the float table (4 terms) the
// error is about 1 ulp of float.
// Zero, subnormal, negative, infinite or NaN x give garbage: callers mask those lanes.
template <class D, class V, typename T, size_t N>
ACCELMATH_KERNEL V LogOfNormal(D d, V x, const std::array<T, N>& atanh_coeffs, T ln2) {
  using FB = kernels::FloatBits<T>;
  using Bits = typename FB::Bits;
  const RebindToUnsigned<D> du;
  const auto bits = BitCast(du, x);
  const auto biased = Add(bits, Set(du, Bits(FB::kOneBits - FB::kSqrtHalfBits)));
  const auto e = ShiftRight<FB::kMantissaBits>(biased);  // k + bias
  const V k = Sub(BitCast(d, Or(e, Set(du, FB::kMagicBits))),
                  Set(d, T(FB::kMagic + T(FB::kExponentBias))));
  const V m = BitCast(d, Sub(bits, ShiftLeft<FB::kMantissaBits>(Sub(e, Set(du, FB::kExponentBias)))));
  const V f = Sub(m, Set(d, T(1)));
  const V s = Div(f, Add(f, Set(d, T(2))));
  const V z = Mul(s, s);
  const V ln_m = MulAdd(Mul(s, z), Estrin(d, z, atanh_coeffs), Add(s, s));
  return MulAdd(k, Set(d, ln2), ln_m);
}

}  // namespace accelmath::ACCELMATH_KNS

#endif  // ACCELMATH_KERNELS_LOG_INL_H_ toggle
