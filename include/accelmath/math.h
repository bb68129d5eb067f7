// The float32 math library, array form: SIMD with run-time dispatch (Highway).
//
// One declaration per row of the registry (accelmath/ops.def, one file per family), by the row's
// shape; each function also has a form without count (count = the first source's size; Rows: the
// number of rows dst holds). dst[i] = f(src...[i]):
//   Unary          Status f(span<float> dst, span<const float> src, size_t count)
//   UnaryPair      Status f(span<float> dst1, span<float> dst2, span<const float> src, size_t count)
//                  (sincos, sincospi, fresnel: bit-identical to the two one-output functions)
//   Binary         Status f(span<float> dst, span<const float> src1, span<const float> src2, size_t count)
//                  (atan2: src1 is y, src2 is x, as in C's atan2(y, x); pow: x, y)
//   Ternary        Status f(span<float> dst, span<const float> src1, src2, src3, size_t count)  (fma, norm3d)
//   Quaternary     Status f(span<float> dst, span<const float> src1, src2, src3, src4, size_t count)  (norm4d)
//   ToInt32        Status f(span<int32_t> dst, span<const float> src, size_t count)  (ilogb)
//   Predicate      Status f(span<uint8_t> dst, span<const float> src, size_t count)  (isnan: 1 or 0)
//   SplitExponent  Status f(span<float> dst, span<int32_t> exp, span<const float> src, size_t count)
//                  (frexp: src[i] = dst[i] 2^exp[i])
//   ScaleExponent  Status f(span<float> dst, span<const float> src, span<const int32_t> n, size_t count)
//                  (ldexp: dst[i] = src[i] 2^n[i])
//   Rows           Status f(span<float> dst, span<const float> src, size_t n, size_t count)
//                  (norm: dst[r] = f(src[r n .. r n + n)) for r < count; without count, count = dst.size())
// Each row names the function's promised max error (ulp, over every float32 input), its domain
// and the special values it guarantees; `accelmath list` prints them, docs/accuracy.md gives the
// measured error of each, and src/kernels/<family>-inl.h documents each algorithm.
//
// Contract shared by every array function:
//  - count must fit every span: count <= size of each source and destination (Rows: count <=
//    dst.size() and count * n <= src.size(), computed without overflow), else
//    Status::kBufferTooSmall; the form without count uses count = the first source's size (dst,
//    the other sources and outputs must be at least as long) or, for Rows, dst.size().
//  - count == 0 reads and writes nothing.
//  - An output may be an input of the same element type itself (in place: dst.data() ==
//    src.data()) or disjoint from it; any other overlap of the elements used is
//    Status::kPartialOverlap. So int32 and uint8 outputs (ilogb, isnan, frexp's exp) must be
//    disjoint from the float inputs, and ldexp's dst from its int32 n. Two outputs (sincos, frexp)
//    must be disjoint from each other. Inputs are only read: they may overlap each other in any
//    way. With separate buffers the inputs are never modified.
//  - Rows: dst may be src itself (row r is read before dst[r] is written, and dst[r] lies at or
//    before the start of row r for n >= 1) or disjoint from the first count * n elements of src.
//  - Any length: the last partial vector is handled without reading or writing past `count` (or
//    the last row). No allocation.
//  - Spans of other element types do not convert and fail to compile.
//  - On error nothing is written.
//  - Results are bit-identical to accelmath::scalar::f on every SIMD target.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

#include "accelmath/status.h"

namespace accelmath {

#define ACCELMATH_DECLARE_Unary(name)                                                        \
  Status name(std::span<float> dst, std::span<const float> src, std::size_t count) noexcept; \
  Status name(std::span<float> dst, std::span<const float> src) noexcept;
#define ACCELMATH_DECLARE_UnaryPair(name)                                                                              \
  Status name(std::span<float> dst1, std::span<float> dst2, std::span<const float> src, std::size_t count) noexcept; \
  Status name(std::span<float> dst1, std::span<float> dst2, std::span<const float> src) noexcept;
#define ACCELMATH_DECLARE_Binary(name)                                                                                     \
  Status name(std::span<float> dst, std::span<const float> src1, std::span<const float> src2, std::size_t count) noexcept; \
  Status name(std::span<float> dst, std::span<const float> src1, std::span<const float> src2) noexcept;
#define ACCELMATH_DECLARE_Ternary(name)                                                                               \
  Status name(std::span<float> dst, std::span<const float> src1, std::span<const float> src2,                         \
              std::span<const float> src3, std::size_t count) noexcept;                                               \
  Status name(std::span<float> dst, std::span<const float> src1, std::span<const float> src2,                         \
              std::span<const float> src3) noexcept;
#define ACCELMATH_DECLARE_Quaternary(name)                                                                            \
  Status name(std::span<float> dst, std::span<const float> src1, std::span<const float> src2,                         \
              std::span<const float> src3, std::span<const float> src4, std::size_t count) noexcept;                  \
  Status name(std::span<float> dst, std::span<const float> src1, std::span<const float> src2,                         \
              std::span<const float> src3, std::span<const float> src4) noexcept;
#define ACCELMATH_DECLARE_ToInt32(name)                                                             \
  Status name(std::span<std::int32_t> dst, std::span<const float> src, std::size_t count) noexcept; \
  Status name(std::span<std::int32_t> dst, std::span<const float> src) noexcept;
#define ACCELMATH_DECLARE_Predicate(name)                                                           \
  Status name(std::span<std::uint8_t> dst, std::span<const float> src, std::size_t count) noexcept; \
  Status name(std::span<std::uint8_t> dst, std::span<const float> src) noexcept;
#define ACCELMATH_DECLARE_SplitExponent(name)                                                                       \
  Status name(std::span<float> dst, std::span<std::int32_t> exp, std::span<const float> src, std::size_t count) noexcept; \
  Status name(std::span<float> dst, std::span<std::int32_t> exp, std::span<const float> src) noexcept;
#define ACCELMATH_DECLARE_ScaleExponent(name)                                                                       \
  Status name(std::span<float> dst, std::span<const float> src, std::span<const std::int32_t> n,                    \
              std::size_t count) noexcept;                                                                          \
  Status name(std::span<float> dst, std::span<const float> src, std::span<const std::int32_t> n) noexcept;
#define ACCELMATH_DECLARE_Rows(name)                                                                      \
  Status name(std::span<float> dst, std::span<const float> src, std::size_t n, std::size_t count) noexcept; \
  Status name(std::span<float> dst, std::span<const float> src, std::size_t n) noexcept;
#define ACCELMATH_OP(name, shape, ...) ACCELMATH_DECLARE_##shape(name)
#include "accelmath/ops.def"
#undef ACCELMATH_OP
#undef ACCELMATH_DECLARE_Unary
#undef ACCELMATH_DECLARE_UnaryPair
#undef ACCELMATH_DECLARE_Binary
#undef ACCELMATH_DECLARE_Ternary
#undef ACCELMATH_DECLARE_Quaternary
#undef ACCELMATH_DECLARE_ToInt32
#undef ACCELMATH_DECLARE_Predicate
#undef ACCELMATH_DECLARE_SplitExponent
#undef ACCELMATH_DECLARE_ScaleExponent
#undef ACCELMATH_DECLARE_Rows

}  // namespace accelmath
