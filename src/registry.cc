// The introspection table (accelmath/registry.h), expanded from the registry rows, one family at a
// time so that each entry knows its family.
#include "accelmath/registry.h"

#include <cmath>
#include <iterator>

#include "accelmath/c_api.h"
#include "accelmath/math.h"
#include "accelmath/scalar.h"

namespace accelmath {
namespace {

#define ACCELMATH_OP(name, shape, driver, kernel, eval, bound, domain, mkl, libm, hwy, ...) \
  constexpr Special kSpecials_##name[] = {__VA_ARGS__};
#include "accelmath/ops.def"
#undef ACCELMATH_OP

using ArrayFn = Status (*)(std::span<float>, std::span<const float>, std::size_t) noexcept;
using PairArrayFn = Status (*)(std::span<float>, std::span<float>, std::span<const float>, std::size_t) noexcept;
#define ACCELMATH_ENTRY_Unary(name) static_cast<ArrayFn>(name), scalar::name, accelmath_##name##_f32, nullptr, nullptr, nullptr
#define ACCELMATH_ENTRY_UnaryPair(name) nullptr, nullptr, nullptr, static_cast<PairArrayFn>(name), scalar::name, accelmath_##name##_f32
#define ACCELMATH_OP(name, shape, driver, kernel, eval, bound, domain, mkl, libm, hwy, ...)                      \
  FunctionInfo{#name, kFamily, Shape::k##shape, #driver, Eval::k##eval, bound, domain, mkl, libm, #hwy,        \
               kSpecials_##name, ACCELMATH_ENTRY_##shape(name)},

// One block per family file (the order of accelmath/ops.def).
const FunctionInfo kFunctions[] = {
#define kFamily "exp_log"
#include "accelmath/ops/exp_log.def"
#undef kFamily
#define kFamily "erf_normal"
#include "accelmath/ops/erf_normal.def"
#undef kFamily
#define kFamily "trig"
#include "accelmath/ops/trig.def"
#undef kFamily
#define kFamily "fresnel"
#include "accelmath/ops/fresnel.def"
#undef kFamily
};
#undef ACCELMATH_OP

#define ACCELMATH_OP(...) +1
static_assert(std::size(kFunctions) == 0
#include "accelmath/ops.def"
              , "every row of accelmath/ops.def has its family block here");
#undef ACCELMATH_OP

}  // namespace

std::span<const FunctionInfo> functions() noexcept { return kFunctions; }

Status FunctionInfo::run(std::span<float> dst1, std::span<float> dst2, std::span<const float> src,
                         std::size_t count) const noexcept {
  return array ? array(dst1, src, count) : array2(dst1, dst2, src, count);
}

void FunctionInfo::run_scalar(float x, float* out1, float* out2) const noexcept {
  if (scalar) {
    *out1 = scalar(x);
  } else {
    scalar2(x, out1, out2);
  }
}

int FunctionInfo::run_c_abi(float* dst1, float* dst2, const float* src, std::size_t n) const noexcept {
  return c_abi ? c_abi(dst1, src, n) : c_abi2(dst1, dst2, src, n);
}

const FunctionInfo* find_function(std::string_view name) noexcept {
  for (const FunctionInfo& f : kFunctions) {
    if (name == f.name) return &f;
  }
  return nullptr;
}

}  // namespace accelmath
