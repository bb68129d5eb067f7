// the error function family (erf, erfc, erfcx, normcdf). The only place their algorithms live.
// PLACEHOLDER: the kernels below are stubs until the work lands.
#if defined(ACCELMATH_KERNELS_ERF_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef ACCELMATH_KERNELS_ERF_INL_H_
#undef ACCELMATH_KERNELS_ERF_INL_H_
#else
#define ACCELMATH_KERNELS_ERF_INL_H_
#endif

#include "kernels/common-inl.h"

namespace accelmath::ACCELMATH_KNS {

template <class D, class V>
ACCELMATH_KERNEL V Erf(D /*d*/, V x) {
  return x;
}

template <class D, class V>
ACCELMATH_KERNEL V Erfc(D /*d*/, V x) {
  return x;
}

template <class D, class V>
ACCELMATH_KERNEL V Erfcx(D /*d*/, V x) {
  return x;
}

template <class D, class V>
ACCELMATH_KERNEL V Normcdf(D /*d*/, V x) {
  return x;
}

}  // namespace accelmath::ACCELMATH_KNS

#endif  // ACCELMATH_KERNELS_ERF_INL_H_ toggle
