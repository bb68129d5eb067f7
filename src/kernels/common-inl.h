// Helpers shared by all kernels: polynomial evaluation.
//
// Like every *-inl.h here, this file is included by a translation unit that has defined
// ACCELMATH_KNS: Highway's HWY_NAMESPACE in the per-target SIMD code (src/dispatch/), or `lane`
// for the scalar shim (src/backend/scalar_lane.h). The guard below re-arms for every Highway target.
#if defined(ACCELMATH_KERNELS_COMMON_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef ACCELMATH_KERNELS_COMMON_INL_H_
#undef ACCELMATH_KERNELS_COMMON_INL_H_
#else
#define ACCELMATH_KERNELS_COMMON_INL_H_
#endif

#include <array>
#include <cstddef>
#include <limits>
#include <utility>

#include "kernels/float_bits.h"
#include "kernels/kernel_api.h"

namespace accelmath::ACCELMATH_KNS {

namespace detail {
template <class D, class V, typename T, size_t N, size_t... I>
ACCELMATH_KERNEL V HornerImpl(D d, V x, const std::array<T, N>& c, std::index_sequence<I...>) {
  V acc = Set(d, c[N - 1]);
  ((acc = MulAdd(acc, x, Set(d, c[N - 2 - I]))), ...);
  return acc;
}

// sum_{i < N} coef(I0 + i) x^i as a balanced tree: the low 2^k terms plus x^(2^k) times the rest,
// 2^k the largest power of two below N; x2, x4, x8, x16 are the powers of x. No arrays of
// vectors (they are sizeless on SVE).
template <size_t I0, size_t N, class V, class Coef>
ACCELMATH_KERNEL V EstrinPart(const Coef& coef, V x, V x2, V x4, V x8, V x16) {
  if constexpr (N == 1) {
    return coef(I0);
  } else if constexpr (N == 2) {
    return MulAdd(coef(I0 + 1), x, coef(I0));
  } else {
    constexpr size_t H = N > 16 ? 16 : N > 8 ? 8 : N > 4 ? 4 : 2;
    const V xh = H == 16 ? x16 : H == 8 ? x8 : H == 4 ? x4 : x2;
    const V lo = EstrinPart<I0, H>(coef, x, x2, x4, x8, x16);
    const V hi = EstrinPart<I0 + H, N - H>(coef, x, x2, x4, x8, x16);
    return MulAdd(hi, xh, lo);
  }
}

template <size_t N, class V, class Coef>
ACCELMATH_KERNEL V Estrin(const Coef& coef, V x) {
  static_assert(N >= 2 && N <= 32);
  const V x2 = Mul(x, x);
  const V x4 = N > 4 ? Mul(x2, x2) : x2;
  const V x8 = N > 8 ? Mul(x4, x4) : x4;
  const V x16 = N > 16 ? Mul(x8, x8) : x8;
  return EstrinPart<0, N>(coef, x, x2, x4, x8, x16);
}
}  // namespace detail

// c[0] + x (c[1] + x (c[2] + ...)), one fused multiply-add per coefficient (Horner): the
// evaluation order the proposal's configuration prescribes.
template <class D, class V, typename T, size_t N>
ACCELMATH_KERNEL V Horner(D d, V x, const std::array<T, N>& c) {
  static_assert(N >= 2);
  return detail::HornerImpl(d, x, c, std::make_index_sequence<N - 1>());
}

// r, or x quieted (x + x keeps its sign and payload) where x is NaN: a NaN input comes out as that
// NaN by a select, not by whichever operand an operation propagates (SIMD instructions, std::fma and
// a compiler's reordering differ there, and a signaling NaN may or may not be quieted on the way).
template <class V>
ACCELMATH_KERNEL V KeepNaN(V x, V r) {
  return IfThenElse(Eq(x, x), r, Add(x, x));
}

// r, or the canonical quiet NaN where r is NaN: for a NaN made from numbers (sqrt(-1), inf - inf),
// whose bits differ between targets (x86's default NaN is negative, Arm's and CUDA's are not).
template <typename T>
inline constexpr T kCanonicalNaN = std::numeric_limits<T>::quiet_NaN();  // 0x7fc00000 / 0x7ff8...
template <class D, class V>
ACCELMATH_KERNEL V CanonicalNaN(D d, V r) {
  return IfThenElse(Eq(r, r), r, Set(d, kCanonicalNaN<TFromD<D>>));
}

// The sign bit of x alone (+0 or -0 as a pattern), in float32 or binary64 lanes.
template <class D, class V>
ACCELMATH_KERNEL V SignOf(D d, V x) {
  const RebindToUnsigned<D> du;
  using Bits = typename kernels::FloatBits<TFromD<D>>::Bits;
  return BitCast(d, And(BitCast(du, x), Set(du, Bits{1} << (sizeof(Bits) * 8 - 1))));
}

// r (>= 0 or NaN) with the sign bit `sign` (SignOf) put on.
template <class D, class V>
ACCELMATH_KERNEL V WithSign(D d, V r, V sign) {
  const RebindToUnsigned<D> du;
  return BitCast(d, Or(BitCast(du, r), BitCast(du, sign)));
}

// The same polynomial by Estrin's scheme (pairs c[2i] + c[2i+1] x, then combined with x^2, x^4,
// ...): the same number of fmas plus log2(N) squarings, but a dependency chain of ~log2(N)
// operations instead of N, which is what limits throughput in kernels this long.
template <class D, class V, typename T, size_t N>
ACCELMATH_KERNEL V Estrin(D d, V x, const std::array<T, N>& c) {
  return detail::Estrin<N>([&](size_t i) { return Set(d, c[i]); }, x);
}

// Estrin with per-lane coefficients: lanes where pick_a is true use table a, the others table b.
// One evaluation instead of two when lanes fall in different pieces of a piecewise fit.
template <class D, class M, class V, typename T, size_t N>
ACCELMATH_KERNEL V EstrinSelect(D d, M pick_a, V x, const std::array<T, N>& a, const std::array<T, N>& b) {
  return detail::Estrin<N>([&](size_t i) { return IfThenElse(pick_a, Set(d, a[i]), Set(d, b[i])); }, x);
}

}  // namespace accelmath::ACCELMATH_KNS

#endif  // ACCELMATH_KERNELS_COMMON_INL_H_ toggle
