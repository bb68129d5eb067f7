// Array API of the modified Bessel family: its kernels (src/kernels/bessel-inl.h) instantiated for every
// Highway target and dispatched at run time; the rows are accelmath/ops/bessel.def.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "dispatch/bessel.cc"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

#include "dispatch/prologue-inl.h"
#include "kernels/bessel-inl.h"
#define ACCELMATH_FAMILY bessel
#define ACCELMATH_FAMILY_ROWS "accelmath/ops/bessel.def"
#include "dispatch/family-inl.h"
