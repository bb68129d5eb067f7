// Introspection of the math registry (accelmath/ops.def): one FunctionInfo per function, in the
// order of the rows. The CLI (`accelmath list`, `run`, `sweep`, `report`), the parameterised tests,
// the generated accuracy table and bindings read it instead of naming functions.
#pragma once

#include <cstddef>
#include <span>
#include <string_view>

#include "accelmath/status.h"

namespace accelmath {

enum class Shape { kUnary };
// How a kernel evaluates: in float32 lanes, or in binary64 lanes rounded to float32 once.
enum class Eval { kF32, kF64 };

// An input and the exact float32 result the function must return for it, bit for bit.
struct Special {
  float in, out;
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
  Status (*array)(std::span<float> dst, std::span<const float> src, std::size_t count) noexcept;
  float (*scalar)(float x) noexcept;
  int (*c_abi)(float* dst, const float* src, std::size_t n);
};

// Every function, in registry order.
std::span<const FunctionInfo> functions() noexcept;
// The function called `name`, or nullptr.
const FunctionInfo* find_function(std::string_view name) noexcept;

}  // namespace accelmath
