// The C ABI (accelmath/c_api.h): one function per registry row, calling the C++ array function.
#include "accelmath/c_api.h"

#include "accelmath/math.h"

// A null pointer with n > 0 is reported (accelmath::Status::kNullPointer) before any span is
// formed: std::span(nullptr, n) with n > 0 would itself be undefined behaviour.
constexpr int kNullPointer = static_cast<int>(accelmath::Status::kNullPointer);

#define ACCELMATH_C_Unary(name)                                                                       \
  extern "C" int accelmath_##name##_f32(float* dst, const float* src, size_t n) {                    \
    if (n != 0 && (dst == nullptr || src == nullptr)) return kNullPointer;                            \
    return static_cast<int>(accelmath::name(std::span<float>(dst, n), std::span<const float>(src, n))); \
  }
#define ACCELMATH_C_UnaryPair(name)                                                                   \
  extern "C" int accelmath_##name##_f32(float* dst1, float* dst2, const float* src, size_t n) {      \
    if (n != 0 && (dst1 == nullptr || dst2 == nullptr || src == nullptr)) return kNullPointer;        \
    return static_cast<int>(                                                                          \
        accelmath::name(std::span<float>(dst1, n), std::span<float>(dst2, n), std::span<const float>(src, n))); \
  }
#define ACCELMATH_C_Binary(name)                                                                       \
  extern "C" int accelmath_##name##_f32(float* dst, const float* src1, const float* src2, size_t n) {   \
    if (n != 0 && (dst == nullptr || src1 == nullptr || src2 == nullptr)) return kNullPointer;          \
    return static_cast<int>(accelmath::name(std::span<float>(dst, n), std::span<const float>(src1, n),   \
                                            std::span<const float>(src2, n)));                          \
  }
#define ACCELMATH_OP(name, shape, ...) ACCELMATH_C_##shape(name)
#include "accelmath/ops.def"
#undef ACCELMATH_OP
