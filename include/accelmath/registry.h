// Introspection of the math registry (accelmath/ops.def): one FunctionInfo per function, in the
// order of the rows. The CLI (`accelmath list`, `run`, `sweep`, `report`), the parameterised tests,
// the generated accuracy table and bindings read it instead of naming functions.
#pragma once

#include <cstddef>
#include <span>
#include <string_view>

#include "accelmath/status.h"

namespace accelmath {

// Unary: f(x); UnaryPair: two results of one input (sincos: sin and cos), bit-identical to those of
// two Unary rows (its oracle row names them); Binary: one result of two inputs, f(x1, x2) (atan2(y, x)).
enum class Shape { kUnary, kUnaryPair, kBinary };
// How a kernel evaluates: in float32 lanes, or in binary64 lanes rounded to float32 once.
enum class Eval { kF32, kF64 };

// An input and the exact float32 result the function must return for it, bit for bit (out2: the
// second result of a UnaryPair row; in2: the second input of a Binary row).
struct Special {
  float in, out, out2 = 0.0f;
  float in2 = 0.0f;
};

// How a Binary row lists its special values: {first input, second input, result}, in the order of
// the call (atan2: {y, x, atan2(y, x)}). src/registry.cc turns each into a Special.
struct BinarySpecial {
  float in, in2, out;
};

struct FunctionInfo {
  const char* name;    // accelmath::name, accelmath::scalar::name, accelmath_name_f32
  const char* family;  // the .def file and kernel family, e.g. "exp_log"
  Shape shape;
  const char* driver;  // "Map" or "Split" (src/drivers/)
  Eval eval;
  double bound_ulp;    // promised max error in ulp over every input
  const char* domain;  // for people
  const char* mkl;     // Intel MKL VM name stem ("" if none): benchmark anchor
  const char* libm;    // C library float function ("" if none): glibc, libmvec and SLEEF anchors
  const char* hwy;     // Highway contrib/math function ("none" if none)
  std::span<const Special> specials;
  // Unary rows (nullptr otherwise):
  Status (*array)(std::span<float> dst, std::span<const float> src, std::size_t count) noexcept;
  float (*scalar)(float x) noexcept;
  int (*c_abi)(float* dst, const float* src, std::size_t n);
  // UnaryPair rows (nullptr otherwise):
  Status (*array2)(std::span<float> dst1, std::span<float> dst2, std::span<const float> src, std::size_t count) noexcept;
  void (*scalar2)(float x, float* out1, float* out2) noexcept;
  int (*c_abi2)(float* dst1, float* dst2, const float* src, std::size_t n);
  // Binary rows (nullptr otherwise):
  Status (*array_binary)(std::span<float> dst, std::span<const float> src1, std::span<const float> src2,
                         std::size_t count) noexcept;
  float (*scalar_binary)(float x1, float x2) noexcept;
  int (*c_abi_binary)(float* dst, const float* src1, const float* src2, std::size_t n);

  // How many inputs per result: 1, or 2 for Binary.
  int inputs() const noexcept { return shape == Shape::kBinary ? 2 : 1; }
  // How many results per input: 1, or 2 for UnaryPair.
  int outputs() const noexcept { return shape == Shape::kUnaryPair ? 2 : 1; }
  // Any row through one signature, for tools and tests: src2 is read by two-input rows only, dst2
  // (out2) written by two-result rows only. The array function, the per-element function, the C ABI.
  Status run(std::span<float> dst1, std::span<float> dst2, std::span<const float> src1, std::span<const float> src2,
             std::size_t count) const noexcept;
  void run_scalar(float x1, float x2, float* out1, float* out2) const noexcept;
  int run_c_abi(float* dst1, float* dst2, const float* src1, const float* src2, std::size_t n) const noexcept;
};

// Every function, in registry order.
std::span<const FunctionInfo> functions() noexcept;
// The function called `name`, or nullptr.
const FunctionInfo* find_function(std::string_view name) noexcept;

}  // namespace accelmath
