// Argument validation shared by the array functions (the contract in include/accelmath/math.h).
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

#include "accelmath/status.h"

namespace accelmath::detail {

// A registry row's array loop on one Highway target (src/dispatch/family-inl.h): `unary` for Unary
// rows, `pair` for UnaryPair rows, `binary` for Binary rows.
struct ArrayLoop {
  void (*unary)(const float* src, float* dst, std::size_t n);
  void (*pair)(const float* src, float* dst1, float* dst2, std::size_t n);
  void (*binary)(const float* src1, const float* src2, float* dst, std::size_t n);
};

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

// Checks a two-output call f(dst1, dst2, src, count): each output as CheckUnary with src, and the
// two outputs' first `count` elements disjoint.
inline Status CheckUnaryPair(std::span<float> dst1, std::span<float> dst2, std::span<const float> src,
                             std::size_t count) noexcept {
  if (const Status s = CheckUnary(dst1, src, count); s != Status::kOk) return s;
  if (const Status s = CheckUnary(dst2, src, count); s != Status::kOk) return s;
  if (count == 0) return Status::kOk;
  const auto a0 = reinterpret_cast<std::uintptr_t>(dst1.data());
  const auto b0 = reinterpret_cast<std::uintptr_t>(dst2.data());
  const std::uintptr_t bytes = count * sizeof(float);
  return a0 + bytes <= b0 || b0 + bytes <= a0 ? Status::kOk : Status::kPartialOverlap;
}

template <class Kernel>
Status RunUnaryPair(Kernel* kernel, std::span<float> dst1, std::span<float> dst2, std::span<const float> src,
                    std::size_t count) noexcept {
  const Status s = CheckUnaryPair(dst1, dst2, src, count);
  if (s == Status::kOk && count != 0) kernel(src.data(), dst1.data(), dst2.data(), count);
  return s;
}

// Checks a two-input call f(dst, src1, src2, count): dst against each source as CheckUnary (in
// place on either source, or disjoint from it). The sources are only read: they may overlap.
inline Status CheckBinary(std::span<float> dst, std::span<const float> src1, std::span<const float> src2,
                          std::size_t count) noexcept {
  if (count > src2.size()) return Status::kBufferTooSmall;  // every size before any overlap
  if (const Status s = CheckUnary(dst, src1, count); s != Status::kOk) return s;
  return CheckUnary(dst, src2, count);
}

template <class Kernel>
Status RunBinary(Kernel* kernel, std::span<float> dst, std::span<const float> src1, std::span<const float> src2,
                 std::size_t count) noexcept {
  const Status s = CheckBinary(dst, src1, src2, count);
  if (s == Status::kOk && count != 0) kernel(src1.data(), src2.data(), dst.data(), count);
  return s;
}

}  // namespace accelmath::detail
