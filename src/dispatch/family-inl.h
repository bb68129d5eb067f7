// The body of every family dispatch file (src/dispatch/<family>.cc), written once. Included once per
// Highway target after the family's kernels, with
//   ACCELMATH_FAMILY       the family's name (exp_log), and
//   ACCELMATH_FAMILY_ROWS  its registry file ("accelmath/ops/exp_log.def").
// Per target it defines, for each row, the functor of its kernel and its array loop (its row's
// driver: MapArray, SplitArray or SumOfSquaresArray, one signature for every shape), and a table of
// those loops in row order: one table per family, exported with HWY_EXPORT. Targets without native
// fma or binary64 lanes point the table at the row's loop over the scalar lane instead
// (detail::name##_scalar_loop, src/dispatch/scalar.cc), which gives the same bits. Once (HWY_ONCE)
// it defines the public array functions, one form per shape: validate (detail::RunArray, the
// contract of accelmath/math.h), then call the dispatched table's entry.
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
#define ACCELMATH_OP(name, shape, driver, kernel, eval, ...)                                          \
  void name##Array(void* const* out, const void* const* in, size_t count, size_t row_length) {      \
    driver##Array<Eval::k##eval, Shape::k##shape>(name##Kernel{}, out, in, count, row_length);       \
  }
#include ACCELMATH_FAMILY_ROWS
#undef ACCELMATH_OP
#define ACCELMATH_LOOP(name) name##Array
#else
#define ACCELMATH_LOOP(name) ::accelmath::detail::name##_scalar_loop
#endif

const ArrayLoop* ACCELMATH_FAMILY_TABLE() {
#define ACCELMATH_OP(name, ...) ACCELMATH_LOOP(name),
  static constexpr ArrayLoop kTable[] = {
#include ACCELMATH_FAMILY_ROWS
  };
#undef ACCELMATH_OP
  return kTable;
}
#undef ACCELMATH_LOOP

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

// Row `name`'s array loop on the best target of this CPU.
#define ACCELMATH_ROW_LOOP(name) HWY_DYNAMIC_DISPATCH(ACCELMATH_FAMILY_TABLE)()[kRow_##name]
// The public functions of each shape (accelmath/math.h): results, then sources, as declared there.
#define ACCELMATH_API_Unary(name)                                                                    \
  Status name(std::span<float> dst, std::span<const float> src, std::size_t count) noexcept {       \
    return detail::RunArray(ACCELMATH_ROW_LOOP(name), count, count, 0, dst, src);                   \
  }                                                                                                  \
  Status name(std::span<float> dst, std::span<const float> src) noexcept { return name(dst, src, src.size()); }
#define ACCELMATH_API_UnaryPair(name)                                                                              \
  Status name(std::span<float> dst1, std::span<float> dst2, std::span<const float> src, std::size_t count) noexcept { \
    return detail::RunArray(ACCELMATH_ROW_LOOP(name), count, count, 0, dst1, dst2, src);                            \
  }                                                                                                                \
  Status name(std::span<float> dst1, std::span<float> dst2, std::span<const float> src) noexcept {                \
    return name(dst1, dst2, src, src.size());                                                                      \
  }
#define ACCELMATH_API_Binary(name)                                                                                   \
  Status name(std::span<float> dst, std::span<const float> src1, std::span<const float> src2, std::size_t count) noexcept { \
    return detail::RunArray(ACCELMATH_ROW_LOOP(name), count, count, 0, dst, src1, src2);                              \
  }                                                                                                                  \
  Status name(std::span<float> dst, std::span<const float> src1, std::span<const float> src2) noexcept {            \
    return name(dst, src1, src2, src1.size());                                                                       \
  }
#define ACCELMATH_API_Ternary(name)                                                                           \
  Status name(std::span<float> dst, std::span<const float> src1, std::span<const float> src2,                \
              std::span<const float> src3, std::size_t count) noexcept {                                     \
    return detail::RunArray(ACCELMATH_ROW_LOOP(name), count, count, 0, dst, src1, src2, src3);                \
  }                                                                                                           \
  Status name(std::span<float> dst, std::span<const float> src1, std::span<const float> src2,                \
              std::span<const float> src3) noexcept {                                                        \
    return name(dst, src1, src2, src3, src1.size());                                                         \
  }
#define ACCELMATH_API_Quaternary(name)                                                                        \
  Status name(std::span<float> dst, std::span<const float> src1, std::span<const float> src2,                \
              std::span<const float> src3, std::span<const float> src4, std::size_t count) noexcept {        \
    return detail::RunArray(ACCELMATH_ROW_LOOP(name), count, count, 0, dst, src1, src2, src3, src4);          \
  }                                                                                                           \
  Status name(std::span<float> dst, std::span<const float> src1, std::span<const float> src2,                \
              std::span<const float> src3, std::span<const float> src4) noexcept {                           \
    return name(dst, src1, src2, src3, src4, src1.size());                                                   \
  }
#define ACCELMATH_API_ToInt32(name)                                                                         \
  Status name(std::span<std::int32_t> dst, std::span<const float> src, std::size_t count) noexcept {       \
    return detail::RunArray(ACCELMATH_ROW_LOOP(name), count, count, 0, dst, src);                          \
  }                                                                                                         \
  Status name(std::span<std::int32_t> dst, std::span<const float> src) noexcept { return name(dst, src, src.size()); }
#define ACCELMATH_API_Predicate(name)                                                                       \
  Status name(std::span<std::uint8_t> dst, std::span<const float> src, std::size_t count) noexcept {       \
    return detail::RunArray(ACCELMATH_ROW_LOOP(name), count, count, 0, dst, src);                          \
  }                                                                                                         \
  Status name(std::span<std::uint8_t> dst, std::span<const float> src) noexcept { return name(dst, src, src.size()); }
#define ACCELMATH_API_SplitExponent(name)                                                                  \
  Status name(std::span<float> dst, std::span<std::int32_t> exp, std::span<const float> src,              \
              std::size_t count) noexcept {                                                               \
    return detail::RunArray(ACCELMATH_ROW_LOOP(name), count, count, 0, dst, exp, src);                    \
  }                                                                                                        \
  Status name(std::span<float> dst, std::span<std::int32_t> exp, std::span<const float> src) noexcept {   \
    return name(dst, exp, src, src.size());                                                               \
  }
#define ACCELMATH_API_ScaleExponent(name)                                                                  \
  Status name(std::span<float> dst, std::span<const float> src, std::span<const std::int32_t> n,          \
              std::size_t count) noexcept {                                                               \
    return detail::RunArray(ACCELMATH_ROW_LOOP(name), count, count, 0, dst, src, n);                      \
  }                                                                                                        \
  Status name(std::span<float> dst, std::span<const float> src, std::span<const std::int32_t> n) noexcept { \
    return name(dst, src, n, src.size());                                                                 \
  }
#define ACCELMATH_API_Rows(name)                                                                            \
  Status name(std::span<float> dst, std::span<const float> src, std::size_t n, std::size_t count) noexcept { \
    return detail::RunArray(ACCELMATH_ROW_LOOP(name), count, detail::RowElements(count, n), n, dst, src);   \
  }                                                                                                          \
  Status name(std::span<float> dst, std::span<const float> src, std::size_t n) noexcept {                   \
    return name(dst, src, n, dst.size());                                                                   \
  }
#define ACCELMATH_OP(name, shape, ...) ACCELMATH_API_##shape(name)
#include ACCELMATH_FAMILY_ROWS
#undef ACCELMATH_OP
#undef ACCELMATH_API_Unary
#undef ACCELMATH_API_UnaryPair
#undef ACCELMATH_API_Binary
#undef ACCELMATH_API_Ternary
#undef ACCELMATH_API_Quaternary
#undef ACCELMATH_API_ToInt32
#undef ACCELMATH_API_Predicate
#undef ACCELMATH_API_SplitExponent
#undef ACCELMATH_API_ScaleExponent
#undef ACCELMATH_API_Rows
#undef ACCELMATH_ROW_LOOP

}  // namespace accelmath
#endif  // HWY_ONCE
