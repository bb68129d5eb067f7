// The map driver: one kernel on every lane of an array (Map rows of the registry), per Highway
// target. Full vectors, then the partial last vector with masked loads and stores, so nothing past
// n is read or written. F64 rows load Lanes(ScalableTag<double>) floats, widen them exactly, run the
// kernel in binary64 lanes and round once (DemoteTo); F32 rows run on float lanes directly.
#if defined(ACCELMATH_DRIVERS_MAP_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef ACCELMATH_DRIVERS_MAP_INL_H_
#undef ACCELMATH_DRIVERS_MAP_INL_H_
#else
#define ACCELMATH_DRIVERS_MAP_INL_H_
#endif

#include <hwy/highway.h>

#include "accelmath/registry.h"

HWY_BEFORE_NAMESPACE();
namespace accelmath::HWY_NAMESPACE {

template <Eval E, class K>
HWY_INLINE void MapUnary(const K& k, const float* HWY_RESTRICT src, float* HWY_RESTRICT dst, size_t n) {
  if constexpr (E == Eval::kF64) {
    const ScalableTag<double> dd;
    const Rebind<float, decltype(dd)> df;
    const size_t N = Lanes(dd);
    size_t i = 0;
    for (; i + N <= n; i += N) {
      StoreU(DemoteTo(df, k(dd, PromoteTo(dd, LoadU(df, src + i)))), df, dst + i);
    }
    if (i < n) {
      const auto live = FirstN(df, n - i);
      BlendedStore(DemoteTo(df, k(dd, PromoteTo(dd, MaskedLoad(live, df, src + i)))), live, df, dst + i);
    }
  } else {
    const ScalableTag<float> df;
    const size_t N = Lanes(df);
    size_t i = 0;
    for (; i + N <= n; i += N) StoreU(k(df, LoadU(df, src + i)), df, dst + i);
    if (i < n) {
      const auto live = FirstN(df, n - i);
      BlendedStore(k(df, MaskedLoad(live, df, src + i)), live, df, dst + i);
    }
  }
}

// The same for a kernel with two results (shape UnaryPair): k(d, x, second) returns the first.
template <Eval E, class K>
HWY_INLINE void MapUnaryPair(const K& k, const float* src, float* dst1, float* dst2, size_t n) {
  if constexpr (E == Eval::kF64) {
    const ScalableTag<double> dd;
    const Rebind<float, decltype(dd)> df;
    const size_t N = Lanes(dd);
    size_t i = 0;
    for (; i + N <= n; i += N) {
      Vec<decltype(dd)> second;
      const auto first = k(dd, PromoteTo(dd, LoadU(df, src + i)), second);
      StoreU(DemoteTo(df, first), df, dst1 + i);
      StoreU(DemoteTo(df, second), df, dst2 + i);
    }
    if (i < n) {
      const auto live = FirstN(df, n - i);
      Vec<decltype(dd)> second;
      const auto first = k(dd, PromoteTo(dd, MaskedLoad(live, df, src + i)), second);
      BlendedStore(DemoteTo(df, first), live, df, dst1 + i);
      BlendedStore(DemoteTo(df, second), live, df, dst2 + i);
    }
  } else {
    const ScalableTag<float> df;
    const size_t N = Lanes(df);
    size_t i = 0;
    for (; i + N <= n; i += N) {
      Vec<decltype(df)> second;
      const auto first = k(df, LoadU(df, src + i), second);
      StoreU(first, df, dst1 + i);
      StoreU(second, df, dst2 + i);
    }
    if (i < n) {
      const auto live = FirstN(df, n - i);
      Vec<decltype(df)> second;
      const auto first = k(df, MaskedLoad(live, df, src + i), second);
      BlendedStore(first, live, df, dst1 + i);
      BlendedStore(second, live, df, dst2 + i);
    }
  }
}

}  // namespace accelmath::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#endif  // ACCELMATH_DRIVERS_MAP_INL_H_ toggle
