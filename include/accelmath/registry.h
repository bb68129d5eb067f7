// Introspection of the math registry (accelmath/ops.def): one FunctionInfo per function, in the
// order of the rows. The CLI (`accelmath list`, `run`, `sweep`, `report`), the parameterised tests,
// the generated accuracy table and bindings read it instead of naming functions or shapes: every
// row, whatever its shape, is called through one signature (FunctionInfo::run, run_scalar,
// run_c_abi) whose operands are described by inputs(), outputs(), input_type() and output_type().
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>
#include <type_traits>

#include "accelmath/status.h"

namespace accelmath {

// What a row takes and gives (docs/engine.md, "The rows"; the kernel's signature in brackets):
//   Unary          f(x)                                   [k(d, x) -> V]
//   UnaryPair      two results of one input (sincos), bit-identical to two Unary rows
//                                                          [k(d, x, V& second) -> first]
//   Binary         f(x1, x2) (atan2(y, x), pow)            [k(d, x1, x2)]
//   Ternary        f(x1, x2, x3) (fma, norm3d)             [k(d, x1, x2, x3)]
//   Quaternary     f(x1, x2, x3, x4) (norm4d)              [k(d, x1, x2, x3, x4)]
//   ToInt32        int32 f(x) (ilogb; binary64 lanes holding an integer, converted exactly)
//   Predicate      uint8 f(x), 1 or 0 (isnan; float32 lanes, the kernel returns a mask)
//   SplitExponent  (float m, int32 e) = f(x) (frexp)       [k(d, x, V& e) -> m; binary64]
//   ScaleExponent  f(x, int32 n) (ldexp)                   [k(d, x, n), n exactly in binary64]
//   Rows           f(row of n floats) (norm); the kernel gets the row's sum of squares (driver
//                  SumOfSquares, binary64)                  [k(d, s)]
enum class Shape { kUnary, kUnaryPair, kBinary, kTernary, kQuaternary, kToInt32, kPredicate,
                   kSplitExponent, kScaleExponent, kRows };
// How a kernel evaluates: in float32 lanes, or in binary64 lanes rounded to float32 once.
enum class Eval { kF32, kF64 };
// The element type of one operand array: float, int32_t, uint8_t.
enum class ElementType { kF32, kI32, kU8 };

// One operand's value in a special: the member of its ElementType (u8 values in i).
struct Value {
  float f = 0.0f;
  std::int32_t i = 0;
};
// Inputs and the exact results a function must give for them, bit for bit (NaN results: any NaN).
// in[k] is input k (k < inputs()); a Rows row's special is one row of four elements in in[0..3].
// out[k] is result k (k < outputs()).
struct Special {
  Value in[4];
  Value out[2];
};

namespace detail {
// The operand arrays of a shape, in the order of the public signatures (outputs first there; here
// by kind): inputs `in[0..inputs)`, results `out[0..outputs)`. Rows: one input array (the rows).
struct ShapeOperands {
  int inputs, outputs;
  ElementType in[4], out[2];
};
constexpr ShapeOperands Operands(Shape s) noexcept {
  using E = ElementType;
  constexpr E f = E::kF32, i = E::kI32, u = E::kU8;
  switch (s) {
    case Shape::kUnary: return {1, 1, {f, f, f, f}, {f, f}};
    case Shape::kUnaryPair: return {1, 2, {f, f, f, f}, {f, f}};
    case Shape::kBinary: return {2, 1, {f, f, f, f}, {f, f}};
    case Shape::kTernary: return {3, 1, {f, f, f, f}, {f, f}};
    case Shape::kQuaternary: return {4, 1, {f, f, f, f}, {f, f}};
    case Shape::kToInt32: return {1, 1, {f, f, f, f}, {i, f}};
    case Shape::kPredicate: return {1, 1, {f, f, f, f}, {u, f}};
    case Shape::kSplitExponent: return {1, 2, {f, f, f, f}, {f, i}};
    case Shape::kScaleExponent: return {2, 1, {f, i, f, f}, {f, f}};
    case Shape::kRows: return {1, 1, {f, f, f, f}, {f, f}};
  }
  return {1, 1, {f, f, f, f}, {f, f}};
}
template <Shape S>
inline constexpr ShapeOperands kOperands = Operands(S);
// The C++ type of an element type.
template <ElementType T>
using Element = std::conditional_t<T == ElementType::kF32, float,
                                   std::conditional_t<T == ElementType::kI32, std::int32_t, std::uint8_t>>;
constexpr std::size_t ElementSize(ElementType t) noexcept {
  return t == ElementType::kU8 ? 1 : 4;
}

// The typed entry points of a row of shape S (accelmath/math.h with count, accelmath/scalar.h,
// accelmath/c_api.h), for code that calls them through the registry (src/registry.cc, the tests).
template <Shape S>
struct ShapeApi;
template <>
struct ShapeApi<Shape::kUnary> {
  using Array = Status (*)(std::span<float>, std::span<const float>, std::size_t) noexcept;
  using Scalar = float (*)(float) noexcept;
  using CAbi = int (*)(float*, const float*, std::size_t);
};
template <>
struct ShapeApi<Shape::kUnaryPair> {
  using Array = Status (*)(std::span<float>, std::span<float>, std::span<const float>, std::size_t) noexcept;
  using Scalar = void (*)(float, float*, float*) noexcept;
  using CAbi = int (*)(float*, float*, const float*, std::size_t);
};
template <>
struct ShapeApi<Shape::kBinary> {
  using Array = Status (*)(std::span<float>, std::span<const float>, std::span<const float>, std::size_t) noexcept;
  using Scalar = float (*)(float, float) noexcept;
  using CAbi = int (*)(float*, const float*, const float*, std::size_t);
};
template <>
struct ShapeApi<Shape::kTernary> {
  using Array = Status (*)(std::span<float>, std::span<const float>, std::span<const float>, std::span<const float>,
                           std::size_t) noexcept;
  using Scalar = float (*)(float, float, float) noexcept;
  using CAbi = int (*)(float*, const float*, const float*, const float*, std::size_t);
};
template <>
struct ShapeApi<Shape::kQuaternary> {
  using Array = Status (*)(std::span<float>, std::span<const float>, std::span<const float>, std::span<const float>,
                           std::span<const float>, std::size_t) noexcept;
  using Scalar = float (*)(float, float, float, float) noexcept;
  using CAbi = int (*)(float*, const float*, const float*, const float*, const float*, std::size_t);
};
template <>
struct ShapeApi<Shape::kToInt32> {
  using Array = Status (*)(std::span<std::int32_t>, std::span<const float>, std::size_t) noexcept;
  using Scalar = int (*)(float) noexcept;
  using CAbi = int (*)(std::int32_t*, const float*, std::size_t);
};
template <>
struct ShapeApi<Shape::kPredicate> {
  using Array = Status (*)(std::span<std::uint8_t>, std::span<const float>, std::size_t) noexcept;
  using Scalar = bool (*)(float) noexcept;
  using CAbi = int (*)(std::uint8_t*, const float*, std::size_t);
};
template <>
struct ShapeApi<Shape::kSplitExponent> {
  using Array = Status (*)(std::span<float>, std::span<std::int32_t>, std::span<const float>, std::size_t) noexcept;
  using Scalar = float (*)(float, int*) noexcept;
  using CAbi = int (*)(float*, std::int32_t*, const float*, std::size_t);
};
template <>
struct ShapeApi<Shape::kScaleExponent> {
  using Array = Status (*)(std::span<float>, std::span<const float>, std::span<const std::int32_t>, std::size_t) noexcept;
  using Scalar = float (*)(float, int) noexcept;
  using CAbi = int (*)(float*, const float*, const std::int32_t*, std::size_t);
};
template <>
struct ShapeApi<Shape::kRows> {  // (dst, src, row length n, count)
  using Array = Status (*)(std::span<float>, std::span<const float>, std::size_t, std::size_t) noexcept;
  using Scalar = float (*)(int, const float*) noexcept;
  using CAbi = int (*)(float*, const float*, std::size_t, std::size_t);
};
}  // namespace detail

struct FunctionInfo {
  const char* name;    // accelmath::name, accelmath::scalar::name, accelmath_name_f32
  const char* family;  // the .def file and kernel family, e.g. "exp_log"
  Shape shape;
  const char* driver;  // "Map", "Split" or "SumOfSquares" (src/drivers/)
  Eval eval;
  double bound_ulp;    // promised max error in ulp over every input (0: exact)
  const char* domain;  // for people
  const char* mkl;     // Intel MKL VM name stem ("" if none): benchmark anchor
  const char* libm;    // C library float function ("" if none): glibc, libmvec and SLEEF anchors
  const char* hwy;     // Highway contrib/math function ("none" if none)
  std::span<const Special> specials;

  // Input arrays: 1..4 (Rows: 1, the rows). Output arrays: 1 or 2 (UnaryPair, SplitExponent).
  constexpr int inputs() const noexcept { return detail::Operands(shape).inputs; }
  constexpr int outputs() const noexcept { return detail::Operands(shape).outputs; }
  // The element type of input k < inputs() and of output k < outputs().
  constexpr ElementType input_type(int k) const noexcept { return detail::Operands(shape).in[k]; }
  constexpr ElementType output_type(int k) const noexcept { return detail::Operands(shape).out[k]; }

  // Any row through one signature: in[k] / out[k] point at arrays of the operand's element type;
  // count results (Rows: count rows of row_length floats in in[0]; row_length ignored otherwise).
  //  - run: the array function (accelmath/math.h), on arrays of exactly count elements (Rows: in[0]
  //    of count * row_length) under its contract; a null pointer with count > 0 (Rows: in[0] only
  //    when count * row_length > 0) is Status::kNullPointer, count * row_length beyond size_t
  //    kBufferTooSmall, and nothing is written then.
  //  - run_scalar: the per-element function (accelmath/scalar.h) once: element 0 of every output
  //    from element 0 of every input (Rows: the row in[0][0 .. row_length)).
  //  - run_c_abi: the C ABI function (accelmath/c_api.h), pointers passed as they are (nulls too).
  Status run(void* const* out, const void* const* in, std::size_t count, std::size_t row_length = 0) const noexcept;
  void run_scalar(void* const* out, const void* const* in, std::size_t row_length = 0) const noexcept;
  int run_c_abi(void* const* out, const void* const* in, std::size_t count, std::size_t row_length = 0) const noexcept;

  // The implementation of the three above (src/registry.cc): the row's typed entry points behind
  // one signature each, and the C function's address (tests check it is the exported symbol). Not
  // part of the interface: call run, run_scalar and run_c_abi.
  struct Entries {
    Status (*array)(void* const* out, const void* const* in, std::size_t count, std::size_t row_length) noexcept;
    void (*scalar)(void* const* out, const void* const* in, std::size_t row_length) noexcept;
    int (*c_abi)(void* const* out, const void* const* in, std::size_t count, std::size_t row_length) noexcept;
    void* (*c_symbol)() noexcept;
  } entries_;
};

// Every function, in registry order.
std::span<const FunctionInfo> functions() noexcept;
// The function called `name`, or nullptr.
const FunctionInfo* find_function(std::string_view name) noexcept;

}  // namespace accelmath
