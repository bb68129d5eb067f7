// Argument validation shared by the array functions (the contract in include/accelmath/math.h).
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

#include "accelmath/status.h"

namespace accelmath::detail {

// Checks a unary call f(dst, src, count). kOk means: count fits both spans and the first `count`
// elements of dst and src are either disjoint or the very same elements (in place).
template <typename TD, typename TS>
Status CheckUnary(std::span<TD> dst, std::span<const TS> src, std::size_t count) noexcept {
  if (count > src.size() || count > dst.size()) return Status::kBufferTooSmall;
  if (count == 0) return Status::kOk;
  const auto s0 = reinterpret_cast<std::uintptr_t>(src.data());
  const auto d0 = reinterpret_cast<std::uintptr_t>(dst.data());
  const std::uintptr_t s1 = s0 + count * sizeof(TS);
  const std::uintptr_t d1 = d0 + count * sizeof(TD);
  const bool disjoint = s1 <= d0 || d1 <= s0;
  const bool in_place = s0 == d0 && sizeof(TS) == sizeof(TD);
  return disjoint || in_place ? Status::kOk : Status::kPartialOverlap;
}

// Validates, then calls kernel(src, dst, count) when there is work: the body of every unary
// float32 array function.
template <class Kernel>
Status RunUnary(Kernel* kernel, std::span<float> dst, std::span<const float> src, std::size_t count) noexcept {
  const Status s = CheckUnary(dst, src, count);
  if (s == Status::kOk && count != 0) kernel(src.data(), dst.data(), count);
  return s;
}

}  // namespace accelmath::detail
