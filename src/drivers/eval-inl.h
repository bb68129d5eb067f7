// How one registry row evaluates one vector, written once: the Highway targets (src/dispatch/) and
// the scalar lane (src/dispatch/scalar.cc, and CUDA device code) both include this file, so the
// per-element API and the SIMD drivers run the very same composition.
//   ACCELMATH_DEFINE_KERNEL(name, driver, kernel): a functor `name##Kernel` for the row.
//     Map rows call `kernel(d, x)`, or `kernel(d, x, second)` for a row with two results (shape
//     UnaryPair, Map only: the kernel returns the first and writes the second), or `kernel(d, x1,
//     x2)` for a row with two inputs (shape Binary, Map only). Split rows have
//     three parts, kernel##IsCommon (a mask), kernel##Common and kernel##Rare; on one vector they
//     give IfThenElse(IsCommon, Common, Rare), skipping a region no lane needs (a whole-vector test, never per lane: each lane's value is
//     the same pure function either way). The array driver of a Split row instead compacts the
//     rare lanes (src/drivers/split-inl.h), with the same bits.
//   EvalF64 / EvalF32: float32 in, the kernel in binary64 (widened exactly, rounded back once with
//     DemoteTo) or float32 lanes, float32 out.
#if defined(ACCELMATH_DRIVERS_EVAL_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef ACCELMATH_DRIVERS_EVAL_INL_H_
#undef ACCELMATH_DRIVERS_EVAL_INL_H_
#else
#define ACCELMATH_DRIVERS_EVAL_INL_H_
#endif

#include "kernels/kernel_api.h"

namespace accelmath::ACCELMATH_KNS {

template <class K, class D, class V>
ACCELMATH_KERNEL V SplitEval(const K& k, D d, V x) {
  const auto c = k.IsCommon(d, x);
  if (AllTrue(d, c)) return k.Common(d, x);
  if (AllFalse(d, c)) return k.Rare(d, x);
  return IfThenElse(c, k.Common(d, x), k.Rare(d, x));
}

}  // namespace accelmath::ACCELMATH_KNS

#endif  // ACCELMATH_DRIVERS_EVAL_INL_H_ toggle

// The functor macros (plain macros: defined once, expanded in each target's namespace).
#ifndef ACCELMATH_DEFINE_KERNEL
#define ACCELMATH_KERNEL_MEMBER(ret, member, fn) \
  template <class D, class V>                    \
  ACCELMATH_KERNEL ret member(D d, V x) const {  \
    return fn(d, x);                             \
  }
// `more`: nothing (Unary), the second result (UnaryPair, by reference) or the second input (Binary).
#define ACCELMATH_DEFINE_KERNEL_Map(name, kernel)                        \
  struct name##Kernel {                                                  \
    template <class D, class V, class... More>                           \
    ACCELMATH_KERNEL V operator()(D d, V x, More&&... more) const {      \
      return kernel(d, x, static_cast<More&&>(more)...);                 \
    }                                                                    \
  };
#define ACCELMATH_DEFINE_KERNEL_Split(name, kernel)       \
  struct name##Kernel {                                   \
    ACCELMATH_KERNEL_MEMBER(auto, IsCommon, kernel##IsCommon) \
    ACCELMATH_KERNEL_MEMBER(V, Common, kernel##Common)    \
    ACCELMATH_KERNEL_MEMBER(V, Rare, kernel##Rare)        \
    template <class D, class V>                           \
    ACCELMATH_KERNEL V operator()(D d, V x) const {       \
      return SplitEval(*this, d, x);                      \
    }                                                     \
  };
#define ACCELMATH_DEFINE_KERNEL(name, driver, kernel) ACCELMATH_DEFINE_KERNEL_##driver(name, kernel)
#endif
