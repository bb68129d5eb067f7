// The per-element API (accelmath::scalar): one function per registry row (accelmath/ops.def) on the
// scalar lane. The array functions of targets without native fma loop over these
// (dispatch/family-inl.h), so every path gives the same bits.
#include "accelmath/scalar.h"

#include "backend/lane_functions.h"

// On x86, also compile a clone for CPUs with FMA so std::fma is one instruction instead of a
// library call; both clones compute the same correctly rounded fma, hence the same bits.
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
#define ACCELMATH_SCALAR_CLONES __attribute__((target_clones("fma", "default")))
#else
#define ACCELMATH_SCALAR_CLONES
#endif

namespace accelmath::scalar {

#define ACCELMATH_SCALAR_Unary(name, eval) \
  ACCELMATH_SCALAR_CLONES float name(float x) noexcept { return lane::EvalOne<Eval::k##eval>(lane::name##Kernel{}, x); }
#define ACCELMATH_SCALAR_UnaryPair(name, eval)                                \
  ACCELMATH_SCALAR_CLONES void name(float x, float* out1, float* out2) noexcept { \
    lane::EvalPair<Eval::k##eval>(lane::name##Kernel{}, x, out1, out2);       \
  }
#define ACCELMATH_SCALAR_Binary(name, eval)                                     \
  ACCELMATH_SCALAR_CLONES float name(float x1, float x2) noexcept {             \
    return lane::EvalBinary<Eval::k##eval>(lane::name##Kernel{}, x1, x2);       \
  }
#define ACCELMATH_OP(name, shape, driver, kernel, eval, ...) ACCELMATH_SCALAR_##shape(name, eval)
#include "accelmath/ops.def"
#undef ACCELMATH_OP

}  // namespace accelmath::scalar
