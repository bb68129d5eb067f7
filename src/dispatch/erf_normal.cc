// Array API of the error function / normal distribution family: its kernels
// (src/kernels/erf-inl.h, src/kernels/ndtri-inl.h) instantiated for every Highway target and dispatched at run time; the
// rows are accelmath/ops/erf_normal.def.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "dispatch/erf_normal.cc"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

#include "dispatch/prologue-inl.h"
#include "kernels/erf-inl.h"
#include "kernels/ndtri-inl.h"
#define ACCELMATH_FAMILY erf_normal
#define ACCELMATH_FAMILY_ROWS "accelmath/ops/erf_normal.def"
#include "dispatch/family-inl.h"
