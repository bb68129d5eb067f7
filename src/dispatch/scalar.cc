// The per-element API (accelmath::scalar): one function per registry row (accelmath/ops.def) on the
// scalar lane, and each row's array loop on the scalar lane (detail::name##_scalar_loop), which the
// array functions of targets without native fma use (dispatch/family-inl.h), so every path gives
// the same bits.
#include <climits>
#include <cstddef>

// Every kernel function of the scalar lane is forced inline here (ACCELMATH_KERNEL, read by
// src/kernels/kernel_api.h; also the trig slow paths, out of line in the SIMD code), so that each
// function below is compiled whole in each of its clones. A function left out of line is compiled
// once, for the default target, and in the fma clone each of its fmas was a call to libm's: 30 of
// the 71 per-element functions (and 52 of the 71 loops) reached such calls, among them erfc, tan,
// sincos, asin, atan, pow, cbrt, tgamma and lgamma, which ran 2.5-6.5x slower (their FMA clones on
// an AVX-512 Zen 5; unmeasured on Intel and on a CPU whose best target is AVX2; docs/performance.md, "The per-element API"). No other host
// file includes the scalar lane (CUDA's math.cu does, under nvcc: kernel_api.h's definition there).
#define ACCELMATH_KERNEL inline __attribute__((always_inline))
#define ACCELMATH_TRIG_NOINLINE
#include "accelmath/scalar.h"
#include "backend/lane_functions.h"
#include "dispatch/contract.h"

// On x86, also compile a clone for CPUs with FMA so std::fma is one instruction instead of a
// library call; both clones compute the same correctly rounded fma, hence the same bits.
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
#define ACCELMATH_SCALAR_CLONES __attribute__((target_clones("fma", "default")))
#else
#define ACCELMATH_SCALAR_CLONES
#endif

namespace accelmath::scalar {

#define ACCELMATH_KERNEL_OF(name) lane::name##Kernel{}
#define ACCELMATH_ELEMENT(name, shape, eval, ...) \
  lane::EvalElement<Eval::k##eval, Shape::k##shape>(ACCELMATH_KERNEL_OF(name), __VA_ARGS__)
#define ACCELMATH_SCALAR_Unary(name, eval) \
  ACCELMATH_SCALAR_CLONES float name(float x) noexcept { return ACCELMATH_ELEMENT(name, Unary, eval, x).first; }
#define ACCELMATH_SCALAR_UnaryPair(name, eval)                                        \
  ACCELMATH_SCALAR_CLONES void name(float x, float* out1, float* out2) noexcept {     \
    const auto r = ACCELMATH_ELEMENT(name, UnaryPair, eval, x);                       \
    *out1 = r.first;                                                                  \
    *out2 = r.second;                                                                 \
  }
#define ACCELMATH_SCALAR_Binary(name, eval)                                        \
  ACCELMATH_SCALAR_CLONES float name(float x1, float x2) noexcept {                \
    return ACCELMATH_ELEMENT(name, Binary, eval, x1, x2).first;                    \
  }
#define ACCELMATH_SCALAR_Ternary(name, eval)                                       \
  ACCELMATH_SCALAR_CLONES float name(float x1, float x2, float x3) noexcept {      \
    return ACCELMATH_ELEMENT(name, Ternary, eval, x1, x2, x3).first;               \
  }
#define ACCELMATH_SCALAR_Quaternary(name, eval)                                          \
  ACCELMATH_SCALAR_CLONES float name(float x1, float x2, float x3, float x4) noexcept { \
    return ACCELMATH_ELEMENT(name, Quaternary, eval, x1, x2, x3, x4).first;              \
  }
#define ACCELMATH_SCALAR_ToInt32(name, eval) \
  ACCELMATH_SCALAR_CLONES int name(float x) noexcept { return ACCELMATH_ELEMENT(name, ToInt32, eval, x).first; }
#define ACCELMATH_SCALAR_Predicate(name, eval) \
  ACCELMATH_SCALAR_CLONES bool name(float x) noexcept { return ACCELMATH_ELEMENT(name, Predicate, eval, x).first != 0; }
#define ACCELMATH_SCALAR_SplitExponent(name, eval)                     \
  ACCELMATH_SCALAR_CLONES float name(float x, int* exp) noexcept {     \
    const auto r = ACCELMATH_ELEMENT(name, SplitExponent, eval, x);    \
    *exp = r.second;                                                   \
    return r.first;                                                    \
  }
#define ACCELMATH_SCALAR_ScaleExponent(name, eval)                                            \
  ACCELMATH_SCALAR_CLONES float name(float x, int n) noexcept {                               \
    return ACCELMATH_ELEMENT(name, ScaleExponent, eval, x, static_cast<std::int32_t>(n)).first; \
  }
// n < 1: an empty row (CUDA's normf takes an int and treats it so).
#define ACCELMATH_SCALAR_Rows(name, eval)                                                          \
  ACCELMATH_SCALAR_CLONES float name(int n, const float* a) noexcept {                             \
    return lane::EvalRows<Eval::k##eval>(ACCELMATH_KERNEL_OF(name), n < 1 ? 0 : static_cast<std::size_t>(n), a); \
  }
#define ACCELMATH_OP(name, shape, driver, kernel, eval, ...) ACCELMATH_SCALAR_##shape(name, eval)
#include "accelmath/ops.def"
#undef ACCELMATH_OP

}  // namespace accelmath::scalar

namespace accelmath::detail {

#define ACCELMATH_OP(name, shape, driver, kernel, eval, ...)                                                       \
  ACCELMATH_SCALAR_CLONES void name##_scalar_loop(void* const* out, const void* const* in, std::size_t count,      \
                                                  std::size_t row_length) noexcept {                                 \
    lane::Loop<Eval::k##eval, Shape::k##shape>(ACCELMATH_KERNEL_OF(name), out, in, count, row_length);             \
  }
#include "accelmath/ops.def"
#undef ACCELMATH_OP

}  // namespace accelmath::detail
