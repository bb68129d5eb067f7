// The arithmetic of one atomic update, dst = op(dst, src), written once for every element type and
// mode; the CPU loops (src/atomic/atomic.cc) call it inside their compare-and-swap loops, and so do
// the device functions of accelmath/cuda_atomic.h (a public header, hence this one's place). The
// contract is ../shared/spec/atomics.md; the reasons are in docs/atomics.md.
//
// float16, bfloat16 (add): both operands are widened to float exactly, added in float, and the float
//   sum is rounded to nearest-even into the type. That is the exact sum rounded once: a float holds 24
//   bits, at least 2p+1 for p = 11 (float16) and p = 8 (bfloat16), so rounding first to float and then
//   to the type never differs from rounding once (Figueroa, "When is double rounding innocuous?",
//   1995); a float neither overflows on a float16 sum nor has less range than bfloat16, and subnormal
//   sums of these types are exact in float. Checked against MPFR on every float16 pair and on every
//   bfloat16 pair (`accelmath atomic-sweep`, docs/accuracy.md).
// max, min (floating): IEEE 754-2019 maximum/minimum: a NaN operand gives NaN; -0 < +0; the result is
//   one of the operands, so no rounding.
// NaN results are the canonical quiet NaN of the type (0x7E00, 0x7FC0, 0x7FC00000), whatever the
//   operands' payloads, so results are the same bits on every platform and, for max/min, in every
//   order of concurrent updates.
// Saturation mode (float16, bfloat16 only) maps the result: +inf -> MAX, -inf -> -MAX, NaN -> +0.
//   float32 is always IEEE (the modelled hardware's saturation switch does not cover it).
// Integers: add wraps (two's complement) in IEEE mode and clamps to [MIN, MAX] in saturation mode;
//   max/min are exact.
#pragma once

#include <bit>
#include <cstdint>
#include <limits>
#include <type_traits>

#include "accelmath/types.h"

#if defined(__CUDACC__)
#define ACCELMATH_ATOMIC_HD __host__ __device__ inline
#else
#define ACCELMATH_ATOMIC_HD inline
#endif

namespace accelmath::atomic::detail {

enum class Op { kAdd, kMax, kMin };

// Per floating type: the canonical NaN and MAX, as bit patterns, and the conversions through float.
template <typename T>
struct FloatTraits;
template <>
struct FloatTraits<float16> {
  static constexpr std::uint16_t kNaN = 0x7E00u, kMax = 0x7BFFu, kLowest = 0xFBFFu;
  static constexpr bool kSaturates = true;
  ACCELMATH_ATOMIC_HD static constexpr float Widen(float16 v) { return to_float(v); }
  ACCELMATH_ATOMIC_HD static constexpr float16 Narrow(float f) { return to_float16(f); }
  ACCELMATH_ATOMIC_HD static constexpr float16 FromBits(std::uint16_t b) { return {b}; }
};
template <>
struct FloatTraits<bfloat16> {
  static constexpr std::uint16_t kNaN = 0x7FC0u, kMax = 0x7F7Fu, kLowest = 0xFF7Fu;
  static constexpr bool kSaturates = true;
  ACCELMATH_ATOMIC_HD static constexpr float Widen(bfloat16 v) { return to_float(v); }
  ACCELMATH_ATOMIC_HD static constexpr bfloat16 Narrow(float f) { return to_bfloat16(f); }
  ACCELMATH_ATOMIC_HD static constexpr bfloat16 FromBits(std::uint16_t b) { return {b}; }
};
template <>
struct FloatTraits<float> {
  static constexpr std::uint32_t kNaN = 0x7FC00000u, kMax = 0x7F7FFFFFu, kLowest = 0xFF7FFFFFu;
  static constexpr bool kSaturates = false;
  ACCELMATH_ATOMIC_HD static constexpr float Widen(float v) { return v; }
  ACCELMATH_ATOMIC_HD static constexpr float Narrow(float f) { return f; }
  ACCELMATH_ATOMIC_HD static constexpr float FromBits(std::uint32_t b) { return std::bit_cast<float>(b); }
};

template <typename T>
concept Floating = requires { FloatTraits<T>::kNaN; };

// IEEE 754-2019 maximum (kMax) / minimum (kMin) of two non-NaN floats: -0 < +0.
template <Op op>
ACCELMATH_ATOMIC_HD constexpr float MaxMin(float a, float b) {
  if (a == b) {  // equal values; differ only for +0 / -0
    const bool a_neg = std::bit_cast<std::uint32_t>(a) >> 31;
    return (op == Op::kMax) == a_neg ? b : a;
  }
  return (op == Op::kMax) == (a > b) ? a : b;
}

// op(a, b) for a floating type, in saturation mode when kSaturate (ignored for float32).
template <Op op, bool kSaturate, Floating T>
ACCELMATH_ATOMIC_HD constexpr T Combine(T a, T b) {
  using Tr = FloatTraits<T>;
  const float x = Tr::Widen(a), y = Tr::Widen(b);
  const bool nan = x != x || y != y || (op == Op::kAdd && x + y != x + y);  // inf + -inf is NaN too
  const T r = nan ? Tr::FromBits(Tr::kNaN) : Tr::Narrow(op == Op::kAdd ? x + y : MaxMin<op>(x, y));
  if constexpr (kSaturate && Tr::kSaturates) {
    constexpr float kFloatMax = 0x1.fffffep127f;
    if (nan) return Tr::FromBits(0);
    const float w = Tr::Widen(r);
    if (w > kFloatMax) return Tr::FromBits(Tr::kMax);
    if (w < -kFloatMax) return Tr::FromBits(Tr::kLowest);
  }
  return r;
}

// op(a, b) for an integer type: add wraps, or clamps when kSaturate; max/min exact.
template <Op op, bool kSaturate, typename T>
  requires std::is_integral_v<T>
ACCELMATH_ATOMIC_HD constexpr T Combine(T a, T b) {
  if constexpr (op == Op::kMax) return a < b ? b : a;
  if constexpr (op == Op::kMin) return b < a ? b : a;
  using U = std::make_unsigned_t<T>;
  const T wrapped = T(U(U(a) + U(b)));  // modular conversion (C++20)
  if (kSaturate && ((a ^ wrapped) & (b ^ wrapped)) < 0) {  // overflow: both operands' sign differs from the result's
    return a < 0 ? std::numeric_limits<T>::min() : std::numeric_limits<T>::max();
  }
  return wrapped;
}

}  // namespace accelmath::atomic::detail
