// The introspection table (accelmath/registry.h), expanded from the registry rows, one family at a
// time so that each entry knows its family.
#include "accelmath/registry.h"

#include <array>
#include <cmath>
#include <iterator>

#include "accelmath/c_api.h"
#include "accelmath/math.h"
#include "accelmath/scalar.h"

namespace accelmath {
namespace {

// The special values of each row: {input, result[, result 2]} as Special; a Binary row's
// {input 1, input 2, result} (BinarySpecial) turned into Special (in, in2, out).
template <std::size_t N>
constexpr std::array<Special, N> FromBinary(const BinarySpecial (&s)[N]) {
  std::array<Special, N> out{};
  for (std::size_t i = 0; i < N; ++i) out[i] = Special{s[i].in, s[i].out, 0.0f, s[i].in2};
  return out;
}
#define ACCELMATH_SPECIALS_Unary(name, ...) constexpr Special kSpecials_##name[] = {__VA_ARGS__};
#define ACCELMATH_SPECIALS_UnaryPair(name, ...) constexpr Special kSpecials_##name[] = {__VA_ARGS__};
#define ACCELMATH_SPECIALS_Binary(name, ...)                                \
  constexpr BinarySpecial kBinarySpecials_##name[] = {__VA_ARGS__};         \
  constexpr auto kSpecials_##name = FromBinary(kBinarySpecials_##name);
#define ACCELMATH_OP(name, shape, driver, kernel, eval, bound, domain, mkl, libm, hwy, ...) \
  ACCELMATH_SPECIALS_##shape(name, __VA_ARGS__)
#include "accelmath/ops.def"
#undef ACCELMATH_OP
#undef ACCELMATH_SPECIALS_Unary
#undef ACCELMATH_SPECIALS_UnaryPair
#undef ACCELMATH_SPECIALS_Binary

// Each row's entry points: those of its shape, nullptr for the others (the order of FunctionInfo).
using ArrayFn = Status (*)(std::span<float>, std::span<const float>, std::size_t) noexcept;
using PairArrayFn = Status (*)(std::span<float>, std::span<float>, std::span<const float>, std::size_t) noexcept;
using BinaryArrayFn = Status (*)(std::span<float>, std::span<const float>, std::span<const float>, std::size_t) noexcept;
#define ACCELMATH_NO_ENTRY nullptr, nullptr, nullptr
#define ACCELMATH_ENTRY_Unary(name) \
  static_cast<ArrayFn>(name), scalar::name, accelmath_##name##_f32, ACCELMATH_NO_ENTRY, ACCELMATH_NO_ENTRY
#define ACCELMATH_ENTRY_UnaryPair(name) \
  ACCELMATH_NO_ENTRY, static_cast<PairArrayFn>(name), scalar::name, accelmath_##name##_f32, ACCELMATH_NO_ENTRY
#define ACCELMATH_ENTRY_Binary(name) \
  ACCELMATH_NO_ENTRY, ACCELMATH_NO_ENTRY, static_cast<BinaryArrayFn>(name), scalar::name, accelmath_##name##_f32
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
#define kFamily "invtrig_hyp"
#include "accelmath/ops/invtrig_hyp.def"
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

Status FunctionInfo::run(std::span<float> dst1, std::span<float> dst2, std::span<const float> src1,
                         std::span<const float> src2, std::size_t count) const noexcept {
  if (array) return array(dst1, src1, count);
  if (array2) return array2(dst1, dst2, src1, count);
  return array_binary(dst1, src1, src2, count);
}

void FunctionInfo::run_scalar(float x1, float x2, float* out1, float* out2) const noexcept {
  if (scalar) {
    *out1 = scalar(x1);
  } else if (scalar2) {
    scalar2(x1, out1, out2);
  } else {
    *out1 = scalar_binary(x1, x2);
  }
}

int FunctionInfo::run_c_abi(float* dst1, float* dst2, const float* src1, const float* src2, std::size_t n) const noexcept {
  if (c_abi) return c_abi(dst1, src1, n);
  if (c_abi2) return c_abi2(dst1, dst2, src1, n);
  return c_abi_binary(dst1, src1, src2, n);
}

const FunctionInfo* find_function(std::string_view name) noexcept {
  for (const FunctionInfo& f : kFunctions) {
    if (name == f.name) return &f;
  }
  return nullptr;
}

}  // namespace accelmath
