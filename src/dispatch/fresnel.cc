// Array API of the Fresnel integrals: its kernels (src/kernels/fresnel-inl.h) instantiated for every
// Highway target and dispatched at run time; the rows are accelmath/ops/fresnel.def.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "dispatch/fresnel.cc"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

#include "dispatch/prologue-inl.h"
#include "kernels/fresnel-inl.h"
#define ACCELMATH_FAMILY fresnel
#define ACCELMATH_FAMILY_ROWS "accelmath/ops/fresnel.def"
#include "dispatch/family-inl.h"
