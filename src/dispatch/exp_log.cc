// Array API of the exp/log family: its kernels (src/kernels/exp_log-inl.h) instantiated for every
// Highway target and dispatched at run time; the rows are accelmath/ops/exp_log.def.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "dispatch/exp_log.cc"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

#include "dispatch/prologue-inl.h"
#include "kernels/exp_log-inl.h"
#define ACCELMATH_FAMILY exp_log
#define ACCELMATH_FAMILY_ROWS "accelmath/ops/exp_log.def"
#include "dispatch/family-inl.h"
