// Helpers shared by the tests.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>
#include <vector>

#include "accelmath/registry.h"

namespace accelmath::test {

// The loops over every float of a range take every kEveryFloatStride-th bit pattern: 1, except
// in the sanitizer build (tests/CMakeLists.txt), where they check memory and undefined behaviour,
// and the normal build checks every value.
#ifndef ACCELMATH_EVERY_FLOAT_STRIDE
#define ACCELMATH_EVERY_FLOAT_STRIDE 1
#endif
inline constexpr std::uint32_t kEveryFloatStride = ACCELMATH_EVERY_FLOAT_STRIDE;

// The compiler's own IEEE binary16 type, the tests' reference for float16 conversions (independent
// of the library's): _Float16 (x86-64: libgcc's soft-float or F16C); on AArch64, where GCC 12 has no
// _Float16 in C++, __fp16 (the same format; its conversions are FCVT, round to nearest even, double
// to half in one step).
#if defined(__aarch64__)
using NativeHalf = __fp16;
#else
using NativeHalf = _Float16;
#endif

inline std::uint32_t Bits(float f) {
  std::uint32_t b;
  std::memcpy(&b, &f, 4);
  return b;
}

inline float FromBits(std::uint32_t b) {
  float f;
  std::memcpy(&f, &b, 4);
  return f;
}

// A Unary row through the registry's one signature: its array function, its per-element function.
inline Status ArrayOf(const FunctionInfo& f, std::span<float> dst, std::span<const float> src, std::size_t n) {
  void* out[] = {dst.data()};
  const void* in[] = {src.data()};
  return f.run(out, in, n);
}
inline float ScalarOf(const FunctionInfo& f, float x) {
  float y = 0;
  void* out[] = {&y};
  const void* in[] = {&x};
  f.run_scalar(out, in);
  return y;
}

// A canary value that no ndtri result can have (a NaN with a payload the kernels never produce).
inline float Canary() { return FromBits(0x7FA5A5A5u); }

}  // namespace accelmath::test
