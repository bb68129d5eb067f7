// The C ABI (accelmath/c_api.h): one function per registry row, calling the C++ array function on
// spans of n elements (Rows: count results and count * n sources).
#include "accelmath/c_api.h"

#include <cstddef>
#include <cstdint>
#include <span>

#include "accelmath/math.h"

namespace {

// A null pointer with something to read or write is reported (accelmath::Status::kNullPointer)
// before any span is formed: std::span(nullptr, n) with n > 0 would itself be undefined behaviour.
constexpr int kNullPointer = static_cast<int>(accelmath::Status::kNullPointer);

template <typename... P>
bool AnyNull(P*... p) {
  return ((p == nullptr) || ...);
}
template <typename T>
std::span<T> Span(T* p, std::size_t n) {
  return {p, n};
}

}  // namespace

#define ACCELMATH_C_CALL(name, ...) static_cast<int>(accelmath::name(__VA_ARGS__))
#define ACCELMATH_C_Unary(name)                                                       \
  extern "C" int accelmath_##name##_f32(float* dst, const float* src, size_t n) {    \
    if (n != 0 && AnyNull(dst, src)) return kNullPointer;                             \
    return ACCELMATH_C_CALL(name, Span(dst, n), Span(src, n));                     \
  }
#define ACCELMATH_C_UnaryPair(name)                                                              \
  extern "C" int accelmath_##name##_f32(float* dst1, float* dst2, const float* src, size_t n) { \
    if (n != 0 && AnyNull(dst1, dst2, src)) return kNullPointer;                                 \
    return ACCELMATH_C_CALL(name, Span(dst1, n), Span(dst2, n), Span(src, n));                \
  }
#define ACCELMATH_C_Binary(name)                                                                       \
  extern "C" int accelmath_##name##_f32(float* dst, const float* src1, const float* src2, size_t n) { \
    if (n != 0 && AnyNull(dst, src1, src2)) return kNullPointer;                                       \
    return ACCELMATH_C_CALL(name, Span(dst, n), Span(src1, n), Span(src2, n));                      \
  }
#define ACCELMATH_C_Ternary(name)                                                                              \
  extern "C" int accelmath_##name##_f32(float* dst, const float* src1, const float* src2, const float* src3,  \
                                        size_t n) {                                                           \
    if (n != 0 && AnyNull(dst, src1, src2, src3)) return kNullPointer;                                         \
    return ACCELMATH_C_CALL(name, Span(dst, n), Span(src1, n), Span(src2, n), Span(src3, n));               \
  }
#define ACCELMATH_C_Quaternary(name)                                                                           \
  extern "C" int accelmath_##name##_f32(float* dst, const float* src1, const float* src2, const float* src3,  \
                                        const float* src4, size_t n) {                                        \
    if (n != 0 && AnyNull(dst, src1, src2, src3, src4)) return kNullPointer;                                   \
    return ACCELMATH_C_CALL(name, Span(dst, n), Span(src1, n), Span(src2, n), Span(src3, n), Span(src4, n)); \
  }
#define ACCELMATH_C_ToInt32(name)                                                       \
  extern "C" int accelmath_##name##_f32(int32_t* dst, const float* src, size_t n) {    \
    if (n != 0 && AnyNull(dst, src)) return kNullPointer;                               \
    return ACCELMATH_C_CALL(name, Span(dst, n), Span(src, n));                       \
  }
#define ACCELMATH_C_Predicate(name)                                                     \
  extern "C" int accelmath_##name##_f32(uint8_t* dst, const float* src, size_t n) {    \
    if (n != 0 && AnyNull(dst, src)) return kNullPointer;                               \
    return ACCELMATH_C_CALL(name, Span(dst, n), Span(src, n));                       \
  }
#define ACCELMATH_C_SplitExponent(name)                                                             \
  extern "C" int accelmath_##name##_f32(float* dst, int32_t* exp, const float* src, size_t n) {    \
    if (n != 0 && AnyNull(dst, exp, src)) return kNullPointer;                                      \
    return ACCELMATH_C_CALL(name, Span(dst, n), Span(exp, n), Span(src, n));                     \
  }
#define ACCELMATH_C_ScaleExponent(name)                                                                      \
  extern "C" int accelmath_##name##_f32(float* dst, const float* src, const int32_t* n, size_t n_elems) {   \
    if (n_elems != 0 && AnyNull(dst, src, n)) return kNullPointer;                                           \
    return ACCELMATH_C_CALL(name, Span(dst, n_elems), Span(src, n_elems), Span(n, n_elems));         \
  }
// src holds count * n floats: it may be null when that is 0 (empty rows), dst when count is 0; a
// product beyond size_t describes no array (kBufferTooSmall).
#define ACCELMATH_C_Rows(name)                                                                         \
  extern "C" int accelmath_##name##_f32(float* dst, const float* src, size_t n, size_t count) {       \
    if (count != 0 && (dst == nullptr || (n != 0 && src == nullptr))) return kNullPointer;             \
    if (n != 0 && count > SIZE_MAX / n) return static_cast<int>(accelmath::Status::kBufferTooSmall);  \
    return ACCELMATH_C_CALL(name, Span(dst, count), Span(src, count * n), n, count);            \
  }
#define ACCELMATH_OP(name, shape, ...) ACCELMATH_C_##shape(name)
#include "accelmath/ops.def"
#undef ACCELMATH_OP
