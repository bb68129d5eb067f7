// The body of every family dispatch file (src/dispatch/<family>.cc), written once. Included once per
// Highway target after the family's kernels, with
//   ACCELMATH_FAMILY       the family's name (exp_log), and
//   ACCELMATH_FAMILY_ROWS  its registry file ("accelmath/ops/exp_log.def").
// Per target it defines, for each row, the functor of its kernel and the array loop (its row's
// driver; targets without native fma or binary64 lanes loop over the scalar lane instead, which
// gives the same bits), and a table of those loops in row order: one table per family, exported
// with HWY_EXPORT. Once (HWY_ONCE) it defines the public array functions: validate, then call the
// dispatched table's entry.
#include "accelmath/registry.h"
#include "accelmath/scalar.h"

#define ACCELMATH_CAT_(a, b) a##b
#define ACCELMATH_CAT(a, b) ACCELMATH_CAT_(a, b)
#define ACCELMATH_FAMILY_TABLE ACCELMATH_CAT(FamilyTable_, ACCELMATH_FAMILY)

namespace accelmath::HWY_NAMESPACE {

using UnaryArrayFn = void (*)(const float*, float*, size_t);

#define ACCELMATH_OP(name, shape, driver, kernel, eval, ...) ACCELMATH_DEFINE_KERNEL(name, driver, kernel)
#include ACCELMATH_FAMILY_ROWS
#undef ACCELMATH_OP

#if HWY_NATIVE_FMA && HWY_HAVE_FLOAT64
#define ACCELMATH_OP(name, shape, driver, kernel, eval, ...)              \
  void name##Array(const float* src, float* dst, size_t n) {              \
    driver##Unary<Eval::k##eval>(name##Kernel{}, src, dst, n);             \
  }
#else
#define ACCELMATH_OP(name, ...)                                           \
  void name##Array(const float* src, float* dst, size_t n) {              \
    for (size_t i = 0; i < n; ++i) dst[i] = accelmath::scalar::name(src[i]); \
  }
#endif
#include ACCELMATH_FAMILY_ROWS
#undef ACCELMATH_OP

const UnaryArrayFn* ACCELMATH_FAMILY_TABLE() {
#define ACCELMATH_OP(name, ...) name##Array,
  static constexpr UnaryArrayFn kTable[] = {
#include ACCELMATH_FAMILY_ROWS
  };
#undef ACCELMATH_OP
  return kTable;
}

}  // namespace accelmath::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();  // opened by dispatch/prologue-inl.h

#if HWY_ONCE
#include "dispatch/contract.h"

namespace accelmath {

HWY_EXPORT(ACCELMATH_FAMILY_TABLE);

namespace {
enum : int {
#define ACCELMATH_OP(name, ...) kRow_##name,
#include ACCELMATH_FAMILY_ROWS
#undef ACCELMATH_OP
};
}  // namespace

#define ACCELMATH_OP(name, ...)                                                                       \
  Status name(std::span<float> dst, std::span<const float> src, std::size_t count) noexcept {        \
    return detail::RunUnary(HWY_DYNAMIC_DISPATCH(ACCELMATH_FAMILY_TABLE)()[kRow_##name], dst, src, count); \
  }                                                                                                   \
  Status name(std::span<float> dst, std::span<const float> src) noexcept { return name(dst, src, src.size()); }
#include ACCELMATH_FAMILY_ROWS
#undef ACCELMATH_OP

}  // namespace accelmath
#endif  // HWY_ONCE
