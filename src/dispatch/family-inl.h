// The body of every family dispatch file (src/dispatch/<family>.cc), written once. Included once per
// Highway target after the family's kernels, with
//   ACCELMATH_FAMILY       the family's name (exp_log), and
//   ACCELMATH_FAMILY_ROWS  its registry file ("accelmath/ops/exp_log.def").
// Per target it defines, for each row, the functor of its kernel and the array loop of its shape
// (its row's driver; targets without native fma or binary64 lanes loop over the scalar lane
// instead, which gives the same bits), and a table of those loops in row order: one table per
// family, exported with HWY_EXPORT. Once (HWY_ONCE) it defines the public array functions: validate, then call the
// dispatched table's entry.
#include "accelmath/registry.h"
#include "accelmath/scalar.h"

#define ACCELMATH_CAT_(a, b) a##b
#define ACCELMATH_CAT(a, b) ACCELMATH_CAT_(a, b)
#define ACCELMATH_FAMILY_TABLE ACCELMATH_CAT(FamilyTable_, ACCELMATH_FAMILY)

namespace accelmath::HWY_NAMESPACE {

using ::accelmath::detail::ArrayLoop;

#define ACCELMATH_OP(name, shape, driver, kernel, eval, ...) ACCELMATH_DEFINE_KERNEL(name, driver, kernel)
#include ACCELMATH_FAMILY_ROWS
#undef ACCELMATH_OP

#if HWY_NATIVE_FMA && HWY_HAVE_FLOAT64
#define ACCELMATH_LOOP_Unary(name, driver, eval)                           \
  void name##Array(const float* src, float* dst, size_t n) {              \
    driver##Unary<Eval::k##eval>(name##Kernel{}, src, dst, n);             \
  }
#define ACCELMATH_LOOP_UnaryPair(name, driver, eval)                                 \
  void name##Array(const float* src, float* dst1, float* dst2, size_t n) {          \
    driver##UnaryPair<Eval::k##eval>(name##Kernel{}, src, dst1, dst2, n);            \
  }
#define ACCELMATH_LOOP_Binary(name, driver, eval)                                       \
  void name##Array(const float* src1, const float* src2, float* dst, size_t n) {       \
    driver##Binary<Eval::k##eval>(name##Kernel{}, src1, src2, dst, n);                  \
  }
#else
#define ACCELMATH_LOOP_Unary(name, driver, eval)                          \
  void name##Array(const float* src, float* dst, size_t n) {              \
    for (size_t i = 0; i < n; ++i) dst[i] = accelmath::scalar::name(src[i]); \
  }
#define ACCELMATH_LOOP_UnaryPair(name, driver, eval)                                             \
  void name##Array(const float* src, float* dst1, float* dst2, size_t n) {                      \
    for (size_t i = 0; i < n; ++i) {                                                            \
      float a, b;                                                                               \
      accelmath::scalar::name(src[i], &a, &b);                                                  \
      dst1[i] = a, dst2[i] = b;                                                                 \
    }                                                                                           \
  }
#define ACCELMATH_LOOP_Binary(name, driver, eval)                                           \
  void name##Array(const float* src1, const float* src2, float* dst, size_t n) {           \
    for (size_t i = 0; i < n; ++i) dst[i] = accelmath::scalar::name(src1[i], src2[i]);     \
  }
#endif
#define ACCELMATH_OP(name, shape, driver, kernel, eval, ...) ACCELMATH_LOOP_##shape(name, driver, eval)
#include ACCELMATH_FAMILY_ROWS
#undef ACCELMATH_OP
#undef ACCELMATH_LOOP_Unary
#undef ACCELMATH_LOOP_UnaryPair
#undef ACCELMATH_LOOP_Binary

const ArrayLoop* ACCELMATH_FAMILY_TABLE() {
#define ACCELMATH_ENTRY_Unary(name) ArrayLoop{name##Array, nullptr, nullptr},
#define ACCELMATH_ENTRY_UnaryPair(name) ArrayLoop{nullptr, name##Array, nullptr},
#define ACCELMATH_ENTRY_Binary(name) ArrayLoop{nullptr, nullptr, name##Array},
#define ACCELMATH_OP(name, shape, ...) ACCELMATH_ENTRY_##shape(name)
  static constexpr ArrayLoop kTable[] = {
#include ACCELMATH_FAMILY_ROWS
  };
#undef ACCELMATH_OP
#undef ACCELMATH_ENTRY_Unary
#undef ACCELMATH_ENTRY_UnaryPair
#undef ACCELMATH_ENTRY_Binary
  return kTable;
}

}  // namespace accelmath::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();  // opened by dispatch/prologue-inl.h

#if HWY_ONCE

namespace accelmath {

HWY_EXPORT(ACCELMATH_FAMILY_TABLE);

namespace {
enum : int {
#define ACCELMATH_OP(name, ...) kRow_##name,
#include ACCELMATH_FAMILY_ROWS
#undef ACCELMATH_OP
};
}  // namespace

#define ACCELMATH_API_Unary(name)                                                                     \
  Status name(std::span<float> dst, std::span<const float> src, std::size_t count) noexcept {        \
    return detail::RunUnary(HWY_DYNAMIC_DISPATCH(ACCELMATH_FAMILY_TABLE)()[kRow_##name].unary, dst, src, count); \
  }                                                                                                   \
  Status name(std::span<float> dst, std::span<const float> src) noexcept { return name(dst, src, src.size()); }
#define ACCELMATH_API_UnaryPair(name)                                                                             \
  Status name(std::span<float> dst1, std::span<float> dst2, std::span<const float> src, std::size_t count) noexcept { \
    return detail::RunUnaryPair(HWY_DYNAMIC_DISPATCH(ACCELMATH_FAMILY_TABLE)()[kRow_##name].pair, dst1, dst2, src,  \
                                count);                                                                           \
  }                                                                                                               \
  Status name(std::span<float> dst1, std::span<float> dst2, std::span<const float> src) noexcept {               \
    return name(dst1, dst2, src, src.size());                                                                     \
  }
#define ACCELMATH_API_Binary(name)                                                                                  \
  Status name(std::span<float> dst, std::span<const float> src1, std::span<const float> src2, std::size_t count) noexcept { \
    return detail::RunBinary(HWY_DYNAMIC_DISPATCH(ACCELMATH_FAMILY_TABLE)()[kRow_##name].binary, dst, src1, src2,      \
                             count);                                                                                  \
  }                                                                                                                   \
  Status name(std::span<float> dst, std::span<const float> src1, std::span<const float> src2) noexcept {             \
    return name(dst, src1, src2, src1.size());                                                                        \
  }
#define ACCELMATH_OP(name, shape, ...) ACCELMATH_API_##shape(name)
#include ACCELMATH_FAMILY_ROWS
#undef ACCELMATH_OP
#undef ACCELMATH_API_Unary
#undef ACCELMATH_API_UnaryPair
#undef ACCELMATH_API_Binary

}  // namespace accelmath
#endif  // HWY_ONCE
