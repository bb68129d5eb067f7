// The map driver: one kernel on every lane of an array (Map rows of the registry), per Highway
// target. Full vectors (two per iteration), then the partial last vector with masked loads and
// stores, so nothing past n is read or written. F64 rows load Lanes(ScalableTag<double>) floats,
// widen them exactly, run the kernel in binary64 lanes and round once (DemoteTo); F32 rows run on
// float lanes directly.
#if defined(ACCELMATH_DRIVERS_MAP_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef ACCELMATH_DRIVERS_MAP_INL_H_
#undef ACCELMATH_DRIVERS_MAP_INL_H_
#else
#define ACCELMATH_DRIVERS_MAP_INL_H_
#endif

#include <hwy/highway.h>

#include <type_traits>

#include "accelmath/registry.h"

HWY_BEFORE_NAMESPACE();
namespace accelmath::HWY_NAMESPACE {

// One loop for both shapes: kResults = 1 (Unary: k(d, x)) or 2 (UnaryPair: k(d, x, second)
// returns the first result). F64 rows load Lanes(ScalableTag<double>) floats, widen them exactly,
// run the kernel in binary64 lanes and round each result once (DemoteTo); F32 rows run on float
// lanes directly. dst2 is unused for one result.
template <Eval E, int kResults, class K>
HWY_INLINE void MapLoop(const K& k, const float* src, float* dst1, float* dst2, size_t n) {
  using DE = std::conditional_t<E == Eval::kF64, ScalableTag<double>, ScalableTag<float>>;
  const DE de;
  const Rebind<float, DE> df;
  const auto widen = [&](auto v) HWY_ATTR {
    if constexpr (E == Eval::kF64) return PromoteTo(de, v); else return v;
  };
  const auto narrow = [&](auto v) HWY_ATTR {
    if constexpr (E == Eval::kF64) return DemoteTo(df, v); else return v;
  };
  // The kernel on one vector of inputs; store(result, dst) writes a result.
  const auto one = [&](auto x, auto store) HWY_ATTR {
    if constexpr (kResults == 1) {
      store(narrow(k(de, widen(x))), dst1);
    } else {
      Vec<DE> second;
      const auto first = k(de, widen(x), second);
      store(narrow(first), dst1);
      store(narrow(second), dst2);
    }
  };
  const size_t N = Lanes(de);
  size_t i = 0;
  // Two vectors per iteration: their independent chains interleave (measured on AVX-512: exp +23%,
  // tan +5 to 14%, sincos +16%; AVX2 neutral to +5%; bench_math, 64K).
  for (; i + 2 * N <= n; i += 2 * N) {
    const auto x0 = LoadU(df, src + i);
    const auto x1 = LoadU(df, src + i + N);
    one(x0, [&](auto v, float* dst) HWY_ATTR { StoreU(v, df, dst + i); });
    one(x1, [&](auto v, float* dst) HWY_ATTR { StoreU(v, df, dst + i + N); });
  }
  for (; i + N <= n; i += N) {
    one(LoadU(df, src + i), [&](auto v, float* dst) HWY_ATTR { StoreU(v, df, dst + i); });
  }
  if (i < n) {
    const auto live = FirstN(df, n - i);
    one(MaskedLoad(live, df, src + i), [&](auto v, float* dst) HWY_ATTR { BlendedStore(v, live, df, dst + i); });
  }
}

template <Eval E, class K>
HWY_INLINE void MapUnary(const K& k, const float* src, float* dst, size_t n) {
  MapLoop<E, 1>(k, src, dst, nullptr, n);
}

template <Eval E, class K>
HWY_INLINE void MapUnaryPair(const K& k, const float* src, float* dst1, float* dst2, size_t n) {
  MapLoop<E, 2>(k, src, dst1, dst2, n);
}

}  // namespace accelmath::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#endif  // ACCELMATH_DRIVERS_MAP_INL_H_ toggle
