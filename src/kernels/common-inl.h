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

#include <cstddef>
#include <utility>

namespace accelmath::ACCELMATH_KNS {

namespace detail {
template <class D, class V, typename T, size_t N, size_t... I>
inline V HornerImpl(D d, V x, const T (&c)[N], std::index_sequence<I...>) {
  V acc = Set(d, c[N - 1]);
  ((acc = MulAdd(acc, x, Set(d, c[N - 2 - I]))), ...);
  return acc;
}
template <class D, class M, class V, typename T, size_t N, size_t... I>
inline V HornerSelectImpl(D d, M pick_a, V x, const T (&a)[N], const T (&b)[N],
                          std::index_sequence<I...>) {
  V acc = IfThenElse(pick_a, Set(d, a[N - 1]), Set(d, b[N - 1]));
  ((acc = MulAdd(acc, x, IfThenElse(pick_a, Set(d, a[N - 2 - I]), Set(d, b[N - 2 - I])))), ...);
  return acc;
}
}  // namespace detail

// c[0] + x (c[1] + x (c[2] + ...)), one fused multiply-add per coefficient (Horner).
template <class D, class V, typename T, size_t N>
inline V Horner(D d, V x, const T (&c)[N]) {
  static_assert(N >= 2);
  return detail::HornerImpl(d, x, c, std::make_index_sequence<N - 1>());
}

// Horner with per-lane coefficients: lanes where pick_a is true use table a, the others table b.
// One evaluation instead of two when lanes fall in different regions of a piecewise fit.
template <class D, class M, class V, typename T, size_t N>
inline V HornerSelect(D d, M pick_a, V x, const T (&a)[N], const T (&b)[N]) {
  static_assert(N >= 2);
  return detail::HornerSelectImpl(d, pick_a, x, a, b, std::make_index_sequence<N - 1>());
}

}  // namespace accelmath::ACCELMATH_KNS

#endif  // ACCELMATH_KERNELS_COMMON_INL_H_ toggle
