// the gamma family (tgamma, lgamma). The only place their algorithms live.
// PLACEHOLDER: the kernels below are stubs until the work lands.
#if defined(ACCELMATH_KERNELS_GAMMA_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef ACCELMATH_KERNELS_GAMMA_INL_H_
#undef ACCELMATH_KERNELS_GAMMA_INL_H_
#else
#define ACCELMATH_KERNELS_GAMMA_INL_H_
#endif

#include "kernels/common-inl.h"

namespace accelmath::ACCELMATH_KNS {

template <class D, class V>
ACCELMATH_KERNEL V Tgamma(D /*d*/, V x) {
  return x;
}

template <class D, class V>
ACCELMATH_KERNEL V Lgamma(D /*d*/, V x) {
  return x;
}

}  // namespace accelmath::ACCELMATH_KNS

#endif  // ACCELMATH_KERNELS_GAMMA_INL_H_ toggle
