// Array API of the inverse trig and hyperbolic family: its kernels (src/kernels/invtrig_hyp-inl.h) instantiated for every
// Highway target and dispatched at run time; the rows are accelmath/ops/invtrig_hyp.def.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "dispatch/invtrig_hyp.cc"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

#include "dispatch/prologue-inl.h"
#include "kernels/invtrig_hyp-inl.h"
#define ACCELMATH_FAMILY invtrig_hyp
#define ACCELMATH_FAMILY_ROWS "accelmath/ops/invtrig_hyp.def"
#include "dispatch/family-inl.h"
