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
#include <utility>

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
