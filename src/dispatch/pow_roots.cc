// Array API of the pow, roots and norms family: its kernels (src/kernels/pow_roots-inl.h) instantiated for every
// Highway target and dispatched at run time; the rows are accelmath/ops/pow_roots.def.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "dispatch/pow_roots.cc"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

#include "dispatch/prologue-inl.h"
#include "kernels/pow_roots-inl.h"
#define ACCELMATH_FAMILY pow_roots
#define ACCELMATH_FAMILY_ROWS "accelmath/ops/pow_roots.def"
#include "dispatch/family-inl.h"
