// Array API of the gamma family: its kernels (src/kernels/gamma-inl.h) instantiated for every
// Highway target and dispatched at run time; the rows are accelmath/ops/gamma.def.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "dispatch/gamma.cc"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

#include "dispatch/prologue-inl.h"
#include "kernels/gamma-inl.h"
#define ACCELMATH_FAMILY gamma
#define ACCELMATH_FAMILY_ROWS "accelmath/ops/gamma.def"
#include "dispatch/family-inl.h"
