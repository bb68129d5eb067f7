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

#define ACCELMATH_OP(name, shape, driver, kernel, eval, bound, domain, mkl, libm, hwy, ...)                      \
  FunctionInfo{#name, kFamily, Shape::k##shape, #driver, Eval::k##eval, bound, domain, mkl, libm, #hwy,        \
               kSpecials_##name, static_cast<Status (*)(std::span<float>, std::span<const float>, std::size_t) noexcept>(name), \
               scalar::name, accelmath_##name##_f32},

// One block per family file (the order of accelmath/ops.def).
const FunctionInfo kFunctions[] = {
#define kFamily "exp_log"
#include "accelmath/ops/exp_log.def"
#undef kFamily
#define kFamily "erf_normal"
#include "accelmath/ops/erf_normal.def"
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

const FunctionInfo* find_function(std::string_view name) noexcept {
  for (const FunctionInfo& f : kFunctions) {
    if (name == f.name) return &f;
  }
  return nullptr;
}

}  // namespace accelmath
