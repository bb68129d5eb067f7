// Every registry function on the scalar lane (one float at a time), for host code and, marked
// host/device, CUDA device code: `accelmath::lane::EvalOne<eval>(lane::name##Kernel{}, x)` is the
// per-element function of row `name` (EvalPair for a row with two results, EvalBinary for a row with
// two inputs) (src/dispatch/scalar.cc wraps it as accelmath::scalar::name).
// Adding a family adds its kernel header here.
#pragma once

#include "backend/scalar_lane.h"

#define ACCELMATH_KNS lane
#include "drivers/eval-inl.h"
#include "kernels/exp_log-inl.h"
#include "kernels/ndtri-inl.h"
#include "kernels/trig-inl.h"
#include "kernels/fresnel-inl.h"
#include "kernels/invtrig_hyp-inl.h"

#include "accelmath/registry.h"

namespace accelmath::lane {

#define ACCELMATH_OP(name, shape, driver, kernel, eval, ...) ACCELMATH_DEFINE_KERNEL(name, driver, kernel)
#include "accelmath/ops.def"
#undef ACCELMATH_OP

// One element through a row's kernel: binary64 lanes rounded once, or float32 lanes.
template <Eval E, class K>
ACCELMATH_HD float EvalOne(const K& k, float x) {
  if constexpr (E == Eval::kF64) {
    const D<double> dd;
    return DemoteTo(D<float>(), k(dd, PromoteTo(dd, Vec<float>{x}))).raw;
  } else {
    return k(D<float>(), Vec<float>{x}).raw;
  }
}

// One element through a row with two results (shape UnaryPair): binary64 lanes rounded once, or
// float32 lanes.
template <Eval E, class K>
ACCELMATH_HD void EvalPair(const K& k, float x, float* out1, float* out2) {
  if constexpr (E == Eval::kF64) {
    const D<double> dd;
    Vec<double> second;
    const Vec<double> first = k(dd, PromoteTo(dd, Vec<float>{x}), second);
    *out1 = DemoteTo(D<float>(), first).raw;
    *out2 = DemoteTo(D<float>(), second).raw;
  } else {
    Vec<float> second;
    const Vec<float> first = k(D<float>(), Vec<float>{x}, second);
    *out1 = first.raw;
    *out2 = second.raw;
  }
}

// One pair of elements through a row with two inputs (shape Binary): binary64 lanes rounded once,
// or float32 lanes.
template <Eval E, class K>
ACCELMATH_HD float EvalBinary(const K& k, float x1, float x2) {
  if constexpr (E == Eval::kF64) {
    const D<double> dd;
    return DemoteTo(D<float>(), k(dd, PromoteTo(dd, Vec<float>{x1}), PromoteTo(dd, Vec<float>{x2}))).raw;
  } else {
    return k(D<float>(), Vec<float>{x1}, Vec<float>{x2}).raw;
  }
}

}  // namespace accelmath::lane
