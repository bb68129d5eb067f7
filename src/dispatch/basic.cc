// Array API of the basic operations and exponent bits: its kernels (src/kernels/basic-inl.h) instantiated for every
// Highway target and dispatched at run time; the rows are accelmath/ops/basic.def.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "dispatch/basic.cc"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

#include "dispatch/prologue-inl.h"
#include "kernels/basic-inl.h"
#define ACCELMATH_FAMILY basic
#define ACCELMATH_FAMILY_ROWS "accelmath/ops/basic.def"
#include "dispatch/family-inl.h"
