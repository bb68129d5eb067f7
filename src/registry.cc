// The introspection table (accelmath/registry.h), expanded from the registry rows, one family at a
// time so that each entry knows its family. Each entry calls its row's typed entry points
// (accelmath/math.h, scalar.h, c_api.h) through FunctionInfo's one signature; the thunks doing so
// are written once per shape, below.
#include "accelmath/registry.h"

#include <array>
#include <climits>
#include <cmath>
#include <cstdint>
#include <iterator>

#include "accelmath/c_api.h"
#include "accelmath/math.h"
#include "accelmath/scalar.h"
#include "dispatch/contract.h"

namespace accelmath {
namespace {

// ---- special values: each shape's row format ({inputs..., results...}) as the generic Special ----
struct UnarySpecial { float x, r; };
struct UnaryPairSpecial { float x, r1, r2; };
struct BinarySpecial { float x1, x2, r; };
struct TernarySpecial { float x1, x2, x3, r; };
struct QuaternarySpecial { float x1, x2, x3, x4, r; };
struct ToInt32Special { float x; std::int32_t r; };
struct PredicateSpecial { float x; std::int32_t r; };  // 0 or 1
struct SplitExponentSpecial { float x, m; std::int32_t e; };
struct ScaleExponentSpecial { float x; std::int32_t n; float r; };
struct RowsSpecial { float a0, a1, a2, a3, r; };  // a row of four

constexpr Value F(float v) { return Value{v, 0}; }
constexpr Value I(std::int32_t v) { return Value{0.0f, v}; }
constexpr Special ToSpecial(UnarySpecial s) { return {{F(s.x)}, {F(s.r)}}; }
constexpr Special ToSpecial(UnaryPairSpecial s) { return {{F(s.x)}, {F(s.r1), F(s.r2)}}; }
constexpr Special ToSpecial(BinarySpecial s) { return {{F(s.x1), F(s.x2)}, {F(s.r)}}; }
constexpr Special ToSpecial(TernarySpecial s) { return {{F(s.x1), F(s.x2), F(s.x3)}, {F(s.r)}}; }
constexpr Special ToSpecial(QuaternarySpecial s) { return {{F(s.x1), F(s.x2), F(s.x3), F(s.x4)}, {F(s.r)}}; }
constexpr Special ToSpecial(ToInt32Special s) { return {{F(s.x)}, {I(s.r)}}; }
constexpr Special ToSpecial(PredicateSpecial s) { return {{F(s.x)}, {I(s.r)}}; }
constexpr Special ToSpecial(SplitExponentSpecial s) { return {{F(s.x)}, {F(s.m), I(s.e)}}; }
constexpr Special ToSpecial(ScaleExponentSpecial s) { return {{F(s.x), I(s.n)}, {F(s.r)}}; }
constexpr Special ToSpecial(RowsSpecial s) { return {{F(s.a0), F(s.a1), F(s.a2), F(s.a3)}, {F(s.r)}}; }
template <class Raw, std::size_t N>
constexpr std::array<Special, N> ToSpecials(const Raw (&raw)[N]) {
  std::array<Special, N> out{};
  for (std::size_t i = 0; i < N; ++i) out[i] = ToSpecial(raw[i]);
  return out;
}
#define ACCELMATH_OP(name, shape, driver, kernel, eval, bound, domain, mkl, libm, hwy, ...) \
  constexpr shape##Special kRawSpecials_##name[] = {__VA_ARGS__};                       \
  constexpr auto kSpecials_##name = ToSpecials(kRawSpecials_##name);
#include "accelmath/ops.def"
#undef ACCELMATH_OP

// ---- the entry points of each shape behind FunctionInfo's one signature ------------------------------
template <typename T>
std::span<T> Out(void* const* out, int k, std::size_t n) {
  return {static_cast<T*>(out[k]), n};
}
template <typename T>
std::span<const T> In(const void* const* in, int k, std::size_t n) {
  return {static_cast<const T*>(in[k]), n};
}
template <typename T>
T& OutAt(void* const* out, int k) {
  return *static_cast<T*>(out[k]);
}
template <typename T>
const T& InAt(const void* const* in, int k) {
  return *static_cast<const T*>(in[k]);
}

// The array function on arrays of exactly count elements (spans cannot be formed from null
// pointers with count > 0: refused first).
template <Shape S, typename detail::ShapeApi<S>::Array F>
Status ArrayThunk(void* const* out, const void* const* in, std::size_t count, std::size_t row_length) noexcept {
  constexpr auto ops = detail::kOperands<S>;
  constexpr bool kRows = S == Shape::kRows;
  // Null pointers first (as the C ABI), then a row count whose elements do not fit in size_t.
  for (int k = 0; k < ops.outputs; ++k) {
    if (count != 0 && out[k] == nullptr) return Status::kNullPointer;
  }
  for (int k = 0; k < ops.inputs; ++k) {
    if (count != 0 && (!kRows || row_length != 0) && in[k] == nullptr) return Status::kNullPointer;
  }
  if (kRows && row_length != 0 && count > SIZE_MAX / row_length) return Status::kBufferTooSmall;
  const std::size_t in_count = kRows ? count * row_length : count;
  using std::int32_t, std::uint8_t;
  if constexpr (S == Shape::kUnary) {
    return F(Out<float>(out, 0, count), In<float>(in, 0, count), count);
  } else if constexpr (S == Shape::kUnaryPair) {
    return F(Out<float>(out, 0, count), Out<float>(out, 1, count), In<float>(in, 0, count), count);
  } else if constexpr (S == Shape::kBinary) {
    return F(Out<float>(out, 0, count), In<float>(in, 0, count), In<float>(in, 1, count), count);
  } else if constexpr (S == Shape::kTernary) {
    return F(Out<float>(out, 0, count), In<float>(in, 0, count), In<float>(in, 1, count), In<float>(in, 2, count), count);
  } else if constexpr (S == Shape::kQuaternary) {
    return F(Out<float>(out, 0, count), In<float>(in, 0, count), In<float>(in, 1, count), In<float>(in, 2, count),
             In<float>(in, 3, count), count);
  } else if constexpr (S == Shape::kToInt32) {
    return F(Out<int32_t>(out, 0, count), In<float>(in, 0, count), count);
  } else if constexpr (S == Shape::kPredicate) {
    return F(Out<uint8_t>(out, 0, count), In<float>(in, 0, count), count);
  } else if constexpr (S == Shape::kSplitExponent) {
    return F(Out<float>(out, 0, count), Out<int32_t>(out, 1, count), In<float>(in, 0, count), count);
  } else if constexpr (S == Shape::kScaleExponent) {
    return F(Out<float>(out, 0, count), In<float>(in, 0, count), In<int32_t>(in, 1, count), count);
  } else {
    static_assert(S == Shape::kRows);
    return F(Out<float>(out, 0, count), In<float>(in, 0, in_count), row_length, count);
  }
}

// The per-element function once: element 0 of each operand (Rows: the row in[0][0 .. row_length)).
template <Shape S, typename detail::ShapeApi<S>::Scalar F, detail::ArrayLoop kRowsLoop>
void ScalarThunk(void* const* out, const void* const* in, std::size_t row_length) noexcept {
  using std::int32_t, std::uint8_t;
  if constexpr (S == Shape::kUnary) {
    OutAt<float>(out, 0) = F(InAt<float>(in, 0));
  } else if constexpr (S == Shape::kUnaryPair) {
    F(InAt<float>(in, 0), &OutAt<float>(out, 0), &OutAt<float>(out, 1));
  } else if constexpr (S == Shape::kBinary) {
    OutAt<float>(out, 0) = F(InAt<float>(in, 0), InAt<float>(in, 1));
  } else if constexpr (S == Shape::kTernary) {
    OutAt<float>(out, 0) = F(InAt<float>(in, 0), InAt<float>(in, 1), InAt<float>(in, 2));
  } else if constexpr (S == Shape::kQuaternary) {
    OutAt<float>(out, 0) = F(InAt<float>(in, 0), InAt<float>(in, 1), InAt<float>(in, 2), InAt<float>(in, 3));
  } else if constexpr (S == Shape::kToInt32) {
    OutAt<int32_t>(out, 0) = F(InAt<float>(in, 0));
  } else if constexpr (S == Shape::kPredicate) {
    OutAt<uint8_t>(out, 0) = F(InAt<float>(in, 0)) ? 1 : 0;
  } else if constexpr (S == Shape::kSplitExponent) {
    int e = 0;
    const float m = F(InAt<float>(in, 0), &e);
    OutAt<float>(out, 0) = m;
    OutAt<int32_t>(out, 1) = e;
  } else if constexpr (S == Shape::kScaleExponent) {
    OutAt<float>(out, 0) = F(InAt<float>(in, 0), InAt<int32_t>(in, 1));
  } else {
    static_assert(S == Shape::kRows);
    // The per-element function takes an int (CUDA's normf signature); a longer row goes through the
    // same scalar-lane code with a size_t length.
    if (row_length <= static_cast<std::size_t>(INT_MAX)) {
      OutAt<float>(out, 0) = F(static_cast<int>(row_length), static_cast<const float*>(in[0]));
    } else {
      kRowsLoop(out, in, 1, row_length);
    }
  }
}

// The C function, pointers as they are.
template <Shape S, typename detail::ShapeApi<S>::CAbi F>
int CAbiThunk(void* const* out, const void* const* in, std::size_t count, std::size_t row_length) noexcept {
  using std::int32_t, std::uint8_t;
  const auto f = [&](int k) { return static_cast<float*>(out[k]); };
  const auto cf = [&](int k) { return static_cast<const float*>(in[k]); };
  if constexpr (S == Shape::kUnary) {
    return F(f(0), cf(0), count);
  } else if constexpr (S == Shape::kUnaryPair) {
    return F(f(0), f(1), cf(0), count);
  } else if constexpr (S == Shape::kBinary) {
    return F(f(0), cf(0), cf(1), count);
  } else if constexpr (S == Shape::kTernary) {
    return F(f(0), cf(0), cf(1), cf(2), count);
  } else if constexpr (S == Shape::kQuaternary) {
    return F(f(0), cf(0), cf(1), cf(2), cf(3), count);
  } else if constexpr (S == Shape::kToInt32) {
    return F(static_cast<int32_t*>(out[0]), cf(0), count);
  } else if constexpr (S == Shape::kPredicate) {
    return F(static_cast<uint8_t*>(out[0]), cf(0), count);
  } else if constexpr (S == Shape::kSplitExponent) {
    return F(f(0), static_cast<int32_t*>(out[1]), cf(0), count);
  } else if constexpr (S == Shape::kScaleExponent) {
    return F(f(0), cf(0), static_cast<const int32_t*>(in[1]), count);
  } else {
    static_assert(S == Shape::kRows);
    return F(f(0), cf(0), row_length, count);
  }
}

template <auto F>
void* Address() noexcept {
  return reinterpret_cast<void*>(F);
}

#define ACCELMATH_OP(name, shape, driver, kernel, eval, bound, domain, mkl, libm, hwy, ...)                          \
  FunctionInfo{#name, kFamily, Shape::k##shape, #driver, Eval::k##eval, bound, domain, mkl, libm, #hwy,            \
               kSpecials_##name,                                                                                   \
               FunctionInfo::Entries{                                                                              \
                   &ArrayThunk<Shape::k##shape, static_cast<detail::ShapeApi<Shape::k##shape>::Array>(name)>,      \
                   &ScalarThunk<Shape::k##shape, &scalar::name, &detail::name##_scalar_loop>,                      \
                   &CAbiThunk<Shape::k##shape, &accelmath_##name##_f32>, &Address<&accelmath_##name##_f32>}},

// One block per family file (the order of accelmath/ops.def).
constexpr FunctionInfo kFunctions[] = {
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
#define kFamily "pow_roots"
#include "accelmath/ops/pow_roots.def"
#undef kFamily
#define kFamily "basic"
#include "accelmath/ops/basic.def"
#undef kFamily
#define kFamily "gamma"
#include "accelmath/ops/gamma.def"
#undef kFamily
#define kFamily "bessel"
#include "accelmath/ops/bessel.def"
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

Status FunctionInfo::run(void* const* out, const void* const* in, std::size_t count, std::size_t row_length) const noexcept {
  return entries_.array(out, in, count, row_length);
}

void FunctionInfo::run_scalar(void* const* out, const void* const* in, std::size_t row_length) const noexcept {
  entries_.scalar(out, in, row_length);
}

int FunctionInfo::run_c_abi(void* const* out, const void* const* in, std::size_t count, std::size_t row_length) const noexcept {
  return entries_.c_abi(out, in, count, row_length);
}

const FunctionInfo* find_function(std::string_view name) noexcept {
  for (const FunctionInfo& f : kFunctions) {
    if (name == f.name) return &f;
  }
  return nullptr;
}

}  // namespace accelmath
