// Helpers shared by the atomic tests (test_atomic.cc, atomic_stress.cc): the reference model's name
// for each element type, and element values to and from bit patterns (integers: the low bytes).
#pragma once

#include <bit>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "accelmath/types.h"
#include "accuracy/atomic_reference.h"

namespace accelmath::atomic::test {

template <typename T> constexpr reference::Type kRefType = reference::Type::kInt64;
template <> constexpr reference::Type kRefType<float16> = reference::Type::kFloat16;
template <> constexpr reference::Type kRefType<bfloat16> = reference::Type::kBFloat16;
template <> constexpr reference::Type kRefType<float> = reference::Type::kFloat32;
template <> constexpr reference::Type kRefType<std::int8_t> = reference::Type::kInt8;
template <> constexpr reference::Type kRefType<std::int16_t> = reference::Type::kInt16;
template <> constexpr reference::Type kRefType<std::int32_t> = reference::Type::kInt32;

template <typename T>
using BitsOf = std::conditional_t<sizeof(T) == 1, std::uint8_t,
               std::conditional_t<sizeof(T) == 2, std::uint16_t,
               std::conditional_t<sizeof(T) == 4, std::uint32_t, std::uint64_t>>>;

template <typename T>
T FromBits(std::uint64_t b) {
  return std::bit_cast<T>(static_cast<BitsOf<T>>(b));
}

template <typename T>
std::uint64_t ToBits(T v) {
  return std::bit_cast<BitsOf<T>>(v);
}

}  // namespace accelmath::atomic::test
