// Array API of the trig family: its kernels (src/kernels/trig-inl.h) instantiated for every
// Highway target and dispatched at run time; the rows are accelmath/ops/trig.def.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "dispatch/trig.cc"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

#include "dispatch/prologue-inl.h"
#include "kernels/trig-inl.h"
#define ACCELMATH_FAMILY trig
#define ACCELMATH_FAMILY_ROWS "accelmath/ops/trig.def"
#include "dispatch/family-inl.h"
