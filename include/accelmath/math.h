// The float32 math library, array form: SIMD with run-time dispatch (Highway).
//
// One declaration per row of the registry (accelmath/ops.def, one file per family): for a unary
// function f there are
//   Status f(std::span<float> dst, std::span<const float> src, std::size_t count) noexcept;
//   Status f(std::span<float> dst, std::span<const float> src) noexcept;  // count = src.size()
// and for a function of one input and two outputs (shape UnaryPair: sincos, sincospi, fresnel)
//   Status f(std::span<float> dst1, std::span<float> dst2, std::span<const float> src, std::size_t count) noexcept;
//   Status f(std::span<float> dst1, std::span<float> dst2, std::span<const float> src) noexcept;
// whose outputs are bit-identical to those of its two one-output functions (sincos = sin, cos;
// fresnel = fresnel_c, fresnel_s), and for a function of two inputs and one result (shape Binary:
// atan2, whose src1 is y and src2 is x, as in C's atan2(y, x))
//   Status f(std::span<float> dst, std::span<const float> src1, std::span<const float> src2, std::size_t count) noexcept;
//   Status f(std::span<float> dst, std::span<const float> src1, std::span<const float> src2) noexcept;
// with dst[i] = f(src1[i], src2[i]).
// Each row names the function's promised max error (ulp, over every float32 input), its domain
// and the special values it guarantees; `accelmath list` prints them, docs/accuracy.md gives the
// measured error of each, and src/kernels/<family>-inl.h documents each algorithm.
//
// Contract shared by every array function:
//  - count in [0, min(src.size(), dst.size())] (every source and destination), else
//    Status::kBufferTooSmall; the form without count uses count = src.size() (src1.size() for two
//    inputs: dst and src2 must be at least as long as src1).
//  - count == 0 reads and writes nothing.
//  - In place (dst.data() == src.data()) is supported; any other overlap of the first `count`
//    elements is Status::kPartialOverlap. With separate buffers src is never modified. Two
//    outputs: each may be src itself or disjoint from it, and they must not overlap each other.
//    Two inputs: dst may be either source itself (or both, when they are the same array) or
//    disjoint from it; the two sources may overlap each other in any way (they are only read).
//  - Any length: the last partial vector is handled with masked loads/stores; nothing past
//    `count` is read or written. No temporary buffer is allocated.
//  - float32 only: spans of other element types do not convert and fail to compile.
//  - On error nothing is written.
//  - Results are bit-identical to accelmath::scalar::f on every SIMD target.
#pragma once

#include <cstddef>
#include <span>

#include "accelmath/status.h"

namespace accelmath {

#define ACCELMATH_DECLARE_Unary(name)                                                              \
  Status name(std::span<float> dst, std::span<const float> src, std::size_t count) noexcept; \
  Status name(std::span<float> dst, std::span<const float> src) noexcept;
#define ACCELMATH_DECLARE_UnaryPair(name)                                                                  \
  Status name(std::span<float> dst1, std::span<float> dst2, std::span<const float> src, std::size_t count) noexcept; \
  Status name(std::span<float> dst1, std::span<float> dst2, std::span<const float> src) noexcept;
#define ACCELMATH_DECLARE_Binary(name)                                                                                 \
  Status name(std::span<float> dst, std::span<const float> src1, std::span<const float> src2, std::size_t count) noexcept; \
  Status name(std::span<float> dst, std::span<const float> src1, std::span<const float> src2) noexcept;
#define ACCELMATH_OP(name, shape, ...) ACCELMATH_DECLARE_##shape(name)
#include "accelmath/ops.def"
#undef ACCELMATH_OP
#undef ACCELMATH_DECLARE_Unary
#undef ACCELMATH_DECLARE_UnaryPair
#undef ACCELMATH_DECLARE_Binary

}  // namespace accelmath
