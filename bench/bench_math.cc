// Throughput of every float32 function in the registry (accelmath/ops.def), single thread, side by
// side with the anchors that have it, in one run:
//   accelmath  the array API (accelmath::f through FunctionInfo::run), dispatched by Highway
//   mkl_ha     Intel MKL VM in HA mode; libmkl_rt.so.3 loaded at run time only, from
//              $ACCELMATH_MKL_LIB_DIR, else <this program's dir>/mkl, else <source>/build/mkl
//              (bench/fetch_mkl.sh puts it there); skipped, with one line saying so, when absent.
//              --mkl=direct (the default on x86): the HA kernel of the instruction set timed,
//              _vmls<mkl>_HA(n, a, r) (two inputs: (n, a, b, r); sincos: (n, a, r1, r2)) from
//              libmkl_vml_avx512.so.3 / libmkl_vml_avx2.so.3, called directly. MKL's own dispatch
//              gives CPUs other than Intel's its generic code (libmkl_vml_def: sin 2.5x, log1p
//              18x slower than its AVX-512 kernel on a Zen 4), so the anchor would depend on the
//              CPU's vendor; called directly it is the code MKL runs on an Intel CPU of that
//              instruction set, on any CPU (its speed there is the CPU's: the ratios of an AMD
//              run are not an Intel run's). --mkl=dispatch: vms<mkl>(n, a, r, VML_HA) through
//              MKL's dispatch (what an MKL user on this CPU gets). The direct call and the
//              dispatch agree bit for bit and in time where they reach the same library
//              (build/mkl_check, bench/mkl_check.cc; on libmkl_vml_def: docs/performance.md).
//   sleef_u10  SLEEF's most accurate vector function within 1 ulp: Sleef_<stem>f16_u10avx512f /
//              Sleef_<stem>f8_u10avx2, else _u05 (sqrt, hypot), else the exact one without a suffix
//              (fabs, floor, fma, fmin, copysign, ilogb, ldexp, ...) (libsleef.so.3, dlsym); the
//              context line sleef_<case> names the symbol when it is not a _u10 one
//   libmvec    glibc's vector functions _ZGVeN16v_<libm> / _ZGVdN8v_<libm> (libmvec.so.1, dlsym)
//              (two inputs: _ZGVeN16vv_<libm> / _ZGVdN8vv_<libm>)
//   glibc      the scalar C library function <libm> in a loop (libm.so.6, dlsym), of the row's
//              signature: float(float), float(float, float), fmaf, ilogbf, frexpf, ldexpf, sincosf
//   accelmath_scalar  ours per element: accelmath::scalar::<name> (accelmath/scalar.h) in glibc's
//              loop (the shapes that loop has: not the predicates, Quaternary or Rows); the same on
//              both --target values (its fma clone is picked by the CPU, not by Highway)
//   hwy        Highway contrib/math <hwy> (CallExp, ...) in a plain loop, dispatched like ours
//              (sqrt's column names CallSqrt: Highway's own Sqrt op, defined below)
// The columns mkl, libm and hwy of each row name the anchors; an empty name (or `none`) means the
// anchor lacks the function and nothing is registered for it. No line here names a function but
// the input ranges (kRangeOverrides, kExtraRanges).
//
//   accelmath_ab  with --ab=LIB: the same row of another build of the library, LIB (a copy of an
//              earlier build's libaccelmath.so.*), loaded at run time with RTLD_DEEPBIND so that its
//              kernels and dispatch are its own, called through its FunctionInfo::run: two builds
//              in one process, timed in the same run (bench/ab.py: best of many short interleaved
//              repetitions, the ratio of the two)
//
//   build/bench_math [--target=avx2|avx512] [--mkl=direct|dispatch] [--ab=LIB] [Google Benchmark flags]
//   python3 bench/math_ratios.py     # both targets, 9 interleaved repetitions, the tables of docs/performance.md
//   python3 bench/ab.py --ab LIB     # this build against LIB, function by function
// --target restricts every library to one instruction set: our dispatch and hwy through
// hwy::SetSupportedTargetsForTest, MKL by the kernel library called (--mkl=dispatch: through
// MKL_ENABLE_INSTRUCTIONS, set before it is loaded),
// SLEEF and libmvec by the vector width called. Default: the widest this CPU has. glibc's scalar
// functions are the same on both.
//
// Inputs, per function: a deterministic random pool per input over its useful range, derived from
// the row's special values (see InputRange) unless kRangeOverrides names it; a function of several
// inputs: independent pools (pow: x in (0, 10), y in (-10, 10); the others uniform in (-100, 100) or
// wide log-uniform magnitudes), so that the lanes mix every quadrant; ldexp's n: integers in
// [-40, 40]; a function of rows (norm): rows of 16 elements (norm@row1024: rows of 1024), the size n
// counting elements. Each iteration takes the next window of n elements of a pool of max(n, 64K), as
// bench_ndtri.cc does. Before timing, every anchor is checked against a reference on 4096 inputs (the
// C library's binary64 function where the row names one, else accelmath) and the program stops if
// one is off by more than 64 ulp (an int32 or 0/1 result: if it differs): a mis-declared signature
// would otherwise time garbage.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "bench/bench_math.cc"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>
#include <hwy/contrib/math/math-inl.h>

// ---- the hwy anchor: one plain loop per row and Highway target -------------------------------
HWY_BEFORE_NAMESPACE();
namespace accelmath_bench::HWY_NAMESPACE {
using namespace hwy::HWY_NAMESPACE;  // NOLINT: the hwy column names contrib/math's Call* functions

// The hwy column of a row Highway lacks is `none`: this makes its loop compile; it is never called.
template <class D, class V>
V none(D, V v) {
  return v;
}
template <class D, class V>
V none(D, V v, V) {
  return v;
}
// Highway has no contrib/math sqrt: its own correctly rounded Sqrt op is the anchor of sqrt's column.
template <class D, class V>
HWY_INLINE V CallSqrt(D, V v) {
  return Sqrt(v);
}

#define ACCELMATH_BENCH_HWY_Unary(name, hwyfn)                                                   \
  void HwyMap_##name(const float* HWY_RESTRICT src, float* HWY_RESTRICT dst, size_t n) {         \
    const ScalableTag<float> d;                                                                  \
    const size_t N = Lanes(d);                                                                   \
    size_t i = 0;                                                                                \
    for (; i + N <= n; i += N) StoreU(hwyfn(d, LoadU(d, src + i)), d, dst + i);                   \
    if (i < n) {                                                                                 \
      const auto m = FirstN(d, n - i);                                                           \
      BlendedStore(hwyfn(d, MaskedLoad(m, d, src + i)), m, d, dst + i);                          \
    }                                                                                            \
  }
#define ACCELMATH_BENCH_HWY_Binary(name, hwyfn)                                                                   \
  void HwyMap_##name(const float* HWY_RESTRICT a, const float* HWY_RESTRICT b, float* HWY_RESTRICT dst, size_t n) { \
    const ScalableTag<float> d;                                                                                 \
    const size_t N = Lanes(d);                                                                                  \
    size_t i = 0;                                                                                               \
    for (; i + N <= n; i += N) StoreU(hwyfn(d, LoadU(d, a + i), LoadU(d, b + i)), d, dst + i);                   \
    if (i < n) {                                                                                                \
      const auto m = FirstN(d, n - i);                                                                          \
      BlendedStore(hwyfn(d, MaskedLoad(m, d, a + i), MaskedLoad(m, d, b + i)), m, d, dst + i);                  \
    }                                                                                                           \
  }
// Highway's contrib/math has functions of one and two float vectors only: nothing to time for the
// other shapes (their hwy column is `none`).
#define ACCELMATH_BENCH_HWY_NONE(name, hwyfn) \
  void HwyMap_##name(const float*, float*, size_t) {}
#define ACCELMATH_BENCH_HWY_UnaryPair ACCELMATH_BENCH_HWY_NONE
#define ACCELMATH_BENCH_HWY_Ternary ACCELMATH_BENCH_HWY_NONE
#define ACCELMATH_BENCH_HWY_Quaternary ACCELMATH_BENCH_HWY_NONE
#define ACCELMATH_BENCH_HWY_ToInt32 ACCELMATH_BENCH_HWY_NONE
#define ACCELMATH_BENCH_HWY_Predicate ACCELMATH_BENCH_HWY_NONE
#define ACCELMATH_BENCH_HWY_SplitExponent ACCELMATH_BENCH_HWY_NONE
#define ACCELMATH_BENCH_HWY_ScaleExponent ACCELMATH_BENCH_HWY_NONE
#define ACCELMATH_BENCH_HWY_Rows ACCELMATH_BENCH_HWY_NONE
#define ACCELMATH_OP(name, shape, driver, kernel, eval, bound, domain, mkl, libm, hwyfn, ...) \
  ACCELMATH_BENCH_HWY_##shape(name, hwyfn)
#include "accelmath/ops.def"
#undef ACCELMATH_OP

}  // namespace accelmath_bench::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
#include <benchmark/benchmark.h>
#include <dlfcn.h>
#include <unistd.h>
#if HWY_ARCH_X86
#include <immintrin.h>
#endif

#include <algorithm>
#include <bit>
#include <cinttypes>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <functional>
#include <memory>
#include <utility>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "accelmath/math.h"
#include "accelmath/registry.h"
#include "accelmath/scalar.h"

namespace accelmath_bench {

#define ACCELMATH_OP(name, shape, driver, kernel, eval, bound, domain, mkl, libm, hwyfn, ...) HWY_EXPORT(HwyMap_##name);
#include "accelmath/ops.def"
#undef ACCELMATH_OP

using accelmath::ElementType;
using accelmath::FunctionInfo;
using accelmath::Shape;

// ---- the registry, as this program sees it ---------------------------------------------------
// The hwy anchor's loop of a row (Unary: one input; Binary: two), dispatched like ours.
using MapFn = void (*)(const float* src, float* dst, size_t n);
using MapFn2 = void (*)(const float* src1, const float* src2, float* dst, size_t n);
struct HwyLoops {
  const char* name;
  MapFn map = nullptr;
  MapFn2 map2 = nullptr;
};
#define ACCELMATH_BENCH_LOOP_Unary(name) \
  HwyLoops{#name, [](const float* s, float* d, size_t n) { HWY_DYNAMIC_DISPATCH(HwyMap_##name)(s, d, n); }, nullptr},
#define ACCELMATH_BENCH_LOOP_Binary(name)                                                      \
  HwyLoops{#name, nullptr, [](const float* a, const float* b, float* d, size_t n) {            \
             HWY_DYNAMIC_DISPATCH(HwyMap_##name)(a, b, d, n);                                  \
           }},
#define ACCELMATH_BENCH_LOOP_NONE(name) HwyLoops{#name},
#define ACCELMATH_BENCH_LOOP_UnaryPair ACCELMATH_BENCH_LOOP_NONE
#define ACCELMATH_BENCH_LOOP_Ternary ACCELMATH_BENCH_LOOP_NONE
#define ACCELMATH_BENCH_LOOP_Quaternary ACCELMATH_BENCH_LOOP_NONE
#define ACCELMATH_BENCH_LOOP_ToInt32 ACCELMATH_BENCH_LOOP_NONE
#define ACCELMATH_BENCH_LOOP_Predicate ACCELMATH_BENCH_LOOP_NONE
#define ACCELMATH_BENCH_LOOP_SplitExponent ACCELMATH_BENCH_LOOP_NONE
#define ACCELMATH_BENCH_LOOP_ScaleExponent ACCELMATH_BENCH_LOOP_NONE
#define ACCELMATH_BENCH_LOOP_Rows ACCELMATH_BENCH_LOOP_NONE
const HwyLoops kHwyLoops[] = {
#define ACCELMATH_OP(name, shape, driver, kernel, eval, bound, domain, mkl, libm, hwyfn, ...) \
  ACCELMATH_BENCH_LOOP_##shape(name)
#include "accelmath/ops.def"
#undef ACCELMATH_OP
};

const HwyLoops& LoopsOf(const FunctionInfo& f) {
  for (const HwyLoops& l : kHwyLoops) {
    if (std::string_view(l.name) == f.name) return l;
  }
  static const HwyLoops kNone{""};
  return kNone;
}

// ---- inputs -------------------------------------------------------------------------------------
// kUniform: uniform in (lo, hi), both ends excluded (they may be poles);
// kPositiveNormals: uniform bit patterns of the positive normal floats (every binade equally);
// kHalfLine: half uniform in (lo, lo + 2|lo|), half log-uniform in [lo + 2|lo|, 1e6 |lo|], mixed;
// kLogMagnitude: |x| log-uniform in [lo, hi], random sign (every lane of a vector a different scale);
// kLogUniform: x log-uniform in [lo, hi], positive (ndtri@tails: p from 1e-38 to 0.5);
// kIntegers: integers uniform in [lo, hi] (int32 for an int32 input, else as floats).
struct Range {
  enum Kind { kUniform, kPositiveNormals, kHalfLine, kLogMagnitude, kLogUniform, kIntegers } kind;
  float lo, hi;
  std::string Describe() const {
    char buf[160];
    if (kind == kPositiveNormals) return "uniform bit patterns of positive normal floats";
    if (kind == kLogMagnitude) {
      std::snprintf(buf, sizeof buf, "|x| log-uniform in [%g, %g], random sign", lo, hi);
    } else if (kind == kLogUniform) {
      std::snprintf(buf, sizeof buf, "log-uniform in [%g, %g]", lo, hi);
    } else if (kind == kIntegers) {
      std::snprintf(buf, sizeof buf, "integers uniform in [%g, %g]", lo, hi);
    } else if (kind == kHalfLine) {
      std::snprintf(buf, sizeof buf, "half uniform in (%g, %g), half log-uniform in [%g, %g]", lo,
                    lo + 2 * std::fabs(lo), lo + 2 * std::fabs(lo), 1e6 * std::fabs(lo));
    } else {
      std::snprintf(buf, sizeof buf, "uniform in (%g, %g)", lo, hi);
    }
    return buf;
  }
};

// One timed input set of a row: a range per input (a row of one input gives one), and the row length
// of a function of rows.
struct InputSet {
  std::vector<Range> ranges;
  std::size_t row_length = 0;
  std::string Describe() const {
    std::string s;
    const char* names[] = {"x1", "x2", "x3", "x4"};
    for (std::size_t k = 0; k < ranges.size(); ++k) {
      if (ranges.size() > 1) s += std::string(k ? "; " : "") + names[k] + " ";
      s += ranges[k].Describe();
    }
    if (row_length) s = "rows of " + std::to_string(row_length) + " elements, each " + s;
    return s;
  }
};

// Rows whose rule below gives a poor range. Keep this short: a new row should fit the rule.
struct RangeOverride {
  std::string_view name;
  Range range;   // every input
  Range second;  // the second input when second.hi > second.lo (pow's y, ldexp's n)
};
constexpr Range kNoRange{Range::kUniform, 0, 0};
constexpr RangeOverride kRangeOverrides[] = {
    // The rule gives [-87, 88]; below -17.3 expm1 is -1 in float32, half the pool would be trivial.
    {"expm1", {Range::kUniform, -20.0f, 88.0f}, kNoRange},
    // Trig: the range of the speed bar (|x| <= 100); the huge arguments are kExtraRanges.
    {"sin", {Range::kUniform, -100.0f, 100.0f}, kNoRange},
    {"cos", {Range::kUniform, -100.0f, 100.0f}, kNoRange},
    {"tan", {Range::kUniform, -100.0f, 100.0f}, kNoRange},
    {"sincos", {Range::kUniform, -100.0f, 100.0f}, kNoRange},
    {"sinpi", {Range::kUniform, -100.0f, 100.0f}, kNoRange},
    {"cospi", {Range::kUniform, -100.0f, 100.0f}, kNoRange},
    {"sincospi", {Range::kUniform, -100.0f, 100.0f}, kNoRange},
    // tanpi: its poles at the half-integers would make the rule pick (-0.5, 0.5) only.
    {"tanpi", {Range::kUniform, -100.0f, 100.0f}, kNoRange},
    // Fresnel: the oscillating region and its asymptotic tail.
    {"fresnel_c", {Range::kUniform, -10.0f, 10.0f}, kNoRange},
    {"fresnel_s", {Range::kUniform, -10.0f, 10.0f}, kNoRange},
    {"fresnel", {Range::kUniform, -10.0f, 10.0f}, kNoRange},
    // Inverse trig and hyperbolic: the whole domain where it is bounded, else (-10, 10) (all three of
    // atan's regions; tanh saturates at 9) and acosh's half line above 1.
    {"asin", {Range::kUniform, -1.0f, 1.0f}, kNoRange},
    {"acos", {Range::kUniform, -1.0f, 1.0f}, kNoRange},
    {"atan", {Range::kUniform, -10.0f, 10.0f}, kNoRange},
    {"tanh", {Range::kUniform, -10.0f, 10.0f}, kNoRange},
    {"asinh", {Range::kUniform, -10.0f, 10.0f}, kNoRange},
    {"acosh", {Range::kHalfLine, 1.0f, 0.0f}, kNoRange},
    // pow: x in (0, 10), y in (-10, 10) (results from 1e-10 to 1e10; pow@negbase below).
    {"pow", {Range::kUniform, 0.0f, 10.0f}, {Range::kUniform, -10.0f, 10.0f}},
    // Roots and norms: every binade of the positive floats, or wide magnitudes of any sign.
    {"sqrt", {Range::kPositiveNormals, 0, 0}, kNoRange},
    {"rsqrt", {Range::kPositiveNormals, 0, 0}, kNoRange},
    {"cbrt", {Range::kPositiveNormals, 0, 0}, kNoRange},
    {"rcbrt", {Range::kPositiveNormals, 0, 0}, kNoRange},
    {"hypot", {Range::kLogMagnitude, 1e-15f, 1e15f}, kNoRange},
    {"rhypot", {Range::kLogMagnitude, 1e-15f, 1e15f}, kNoRange},
    {"norm3d", {Range::kLogMagnitude, 1e-10f, 1e10f}, kNoRange},
    {"rnorm3d", {Range::kLogMagnitude, 1e-10f, 1e10f}, kNoRange},
    {"norm4d", {Range::kLogMagnitude, 1e-8f, 1e8f}, kNoRange},
    {"rnorm4d", {Range::kLogMagnitude, 1e-8f, 1e8f}, kNoRange},
    {"norm", {Range::kLogMagnitude, 1e-6f, 1e6f}, kNoRange},
    {"rnorm", {Range::kLogMagnitude, 1e-6f, 1e6f}, kNoRange},
    // Rounding: fractions and integers of every size up to 2^30 (beyond 2^23 every float is one).
    {"trunc", {Range::kLogMagnitude, 1e-3f, 1e9f}, kNoRange},
    {"floor", {Range::kLogMagnitude, 1e-3f, 1e9f}, kNoRange},
    {"ceil", {Range::kLogMagnitude, 1e-3f, 1e9f}, kNoRange},
    {"rint", {Range::kLogMagnitude, 1e-3f, 1e9f}, kNoRange},
    {"round", {Range::kLogMagnitude, 1e-3f, 1e9f}, kNoRange},
    {"fabs", {Range::kLogMagnitude, 1e-30f, 1e30f}, kNoRange},
    // Exponent bits and classification: every scale.
    {"logb", {Range::kLogMagnitude, 1e-30f, 1e30f}, kNoRange},
    {"ilogb", {Range::kLogMagnitude, 1e-30f, 1e30f}, kNoRange},
    {"frexp", {Range::kLogMagnitude, 1e-30f, 1e30f}, kNoRange},
    {"isnan", {Range::kLogMagnitude, 1e-30f, 1e30f}, kNoRange},
    {"isinf", {Range::kLogMagnitude, 1e-30f, 1e30f}, kNoRange},
    {"isfinite", {Range::kLogMagnitude, 1e-30f, 1e30f}, kNoRange},
    // Error function family: where the results are neither 0 nor +-1 (or 2), every region of each.
    {"erf", {Range::kUniform, -4.0f, 4.0f}, kNoRange},
    {"erfc", {Range::kUniform, -4.0f, 10.0f}, kNoRange},
    {"erfcx", {Range::kUniform, -9.0f, 30.0f}, kNoRange},
    {"normcdf", {Range::kUniform, -14.0f, 6.0f}, kNoRange},
    // Gamma: both signs (reflection below 0) up to the overflow; Bessel I up to the overflow.
    {"tgamma", {Range::kUniform, -20.0f, 35.0f}, kNoRange},
    {"lgamma", {Range::kUniform, -20.0f, 100.0f}, kNoRange},
    {"cyl_bessel_i0", {Range::kUniform, -90.0f, 90.0f}, kNoRange},
    {"cyl_bessel_i1", {Range::kUniform, -90.0f, 90.0f}, kNoRange},
    // ldexp: x in (-100, 100), n in [-40, 40] (normal results).
    {"ldexp", {Range::kUniform, -100.0f, 100.0f}, {Range::kIntegers, -40.0f, 40.0f}},
};

// More input sets for some rows, timed as "<name>@<label>": the huge arguments of the trig functions
// (every lane a different scale up to 1e30, so that the Payne-Hanek path runs on nearly every vector),
// pow of a negative base (integer exponents: a real result), norm of long rows, ndtri on tail-heavy
// p (log-uniform from 1e-38 to 0.5: 97% of the lanes in its tails, most of them far out) and on
// centre-only p (uniform in [0.1, 0.9]: no lane in its tails; with the uniform set, the cost of a
// centre lane and of the tails, docs/erf_gamma_bessel.md).
struct ExtraRange {
  std::string_view name, label;
  Range range;
  Range second = kNoRange;
  std::size_t row_length = 0;
};
constexpr ExtraRange kExtraRanges[] = {
    {"sin", "huge", {Range::kLogMagnitude, 1.0f, 1e30f}},
    {"cos", "huge", {Range::kLogMagnitude, 1.0f, 1e30f}},
    {"tan", "huge", {Range::kLogMagnitude, 1.0f, 1e30f}},
    {"sincos", "huge", {Range::kLogMagnitude, 1.0f, 1e30f}},
    {"pow", "negbase", {Range::kUniform, -10.0f, 10.0f}, {Range::kIntegers, -10.0f, 10.0f}},
    {"norm", "row1024", {Range::kLogMagnitude, 1e-6f, 1e6f}, kNoRange, 1024},
    {"rnorm", "row1024", {Range::kLogMagnitude, 1e-6f, 1e6f}, kNoRange, 1024},
    {"ndtri", "tails", {Range::kLogUniform, 1e-38f, 0.5f}},
    {"ndtri", "centre", {Range::kUniform, 0.1f, 0.9f}},
};
constexpr std::size_t kRowLength = 16;  // the rows of a function of rows, by default

// The useful range of a one-input row, read from its special values (the poles are exact there):
//  - a finite input giving -inf and one giving +inf (ndtri: 0, 1): uniform between them;
//  - only one giving -inf, at 0 (log...): every binade of the positive normals;
//    at a != 0 (log1p: -1): the half line above it, near a and far away mixed (kHalfLine);
//  - only one giving +inf, b (the overflow threshold of exp...): uniform in [-(h - 1), h] with h the
//    largest integer below b, where the results stay normal for base-e/2/10 exponentials;
//  - none: uniform in [-10, 10], and a warning, since the rule has not seen such a row.
// A row of several inputs: each input uniform in (-100, 100), independently (every quadrant, ratios
// from tiny to huge across the lanes of a vector). An int32 input: integers in [-40, 40].
InputSet InputSetOf(const FunctionInfo& f, bool* fallback) {
  *fallback = false;
  InputSet set;
  set.row_length = f.shape == Shape::kRows ? kRowLength : 0;
  for (const auto& o : kRangeOverrides) {
    if (o.name != f.name) continue;
    for (int k = 0; k < f.inputs(); ++k) set.ranges.push_back(k == 1 && o.second.hi > o.second.lo ? o.second : o.range);
    return set;
  }
  if (f.inputs() > 1) {
    for (int k = 0; k < f.inputs(); ++k) {
      set.ranges.push_back(f.input_type(k) == ElementType::kI32 ? Range{Range::kIntegers, -40.0f, 40.0f}
                                                                 : Range{Range::kUniform, -100.0f, 100.0f});
    }
    return set;
  }
  float neg_pole = NAN, pos_pole = NAN;
  if (f.output_type(0) == ElementType::kF32) {
    for (const accelmath::Special& s : f.specials) {
      const float in = s.in[0].f, out = s.out[0].f;
      if (!std::isfinite(in) || !std::isinf(out)) continue;
      const float x = in == 0.0f ? 0.0f : in;  // -0 and +0 are one pole
      if (out < 0 && !(x <= neg_pole)) neg_pole = x;
      if (out > 0 && !(x >= pos_pole)) pos_pole = x;
    }
  }
  const bool neg = !std::isnan(neg_pole), pos = !std::isnan(pos_pole);
  if (neg && pos) {
    set.ranges = {{Range::kUniform, std::min(neg_pole, pos_pole), std::max(neg_pole, pos_pole)}};
  } else if (neg) {
    set.ranges = {neg_pole == 0.0f ? Range{Range::kPositiveNormals, 0, 0} : Range{Range::kHalfLine, neg_pole, 0}};
  } else if (pos) {
    const float h = std::ceil(pos_pole) - 1.0f;
    set.ranges = {{Range::kUniform, -(h - 1.0f), h}};
  } else {
    *fallback = true;
    set.ranges = {{Range::kUniform, -10.0f, 10.0f}};
  }
  return set;
}

std::uint64_t SplitMix(std::uint64_t& s) {
  std::uint64_t z = (s += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

// The pool of input k of a row: n 4-byte words (float bits, or int32 for an int32 input) from the
// input's range, deterministic for (range, k).
std::vector<std::uint32_t> Pool(const Range& r, ElementType type, std::size_t n, int k) {
  std::vector<std::uint32_t> p(n);
  std::uint64_t s = 42 + static_cast<std::uint64_t>(k);
  auto unit = [&] { return static_cast<double>(SplitMix(s) >> 11) * 0x1p-53; };  // [0, 1)
  for (std::size_t i = 0; i < n; ++i) {
    if (r.kind == Range::kIntegers) {
      const double v = std::floor(r.lo + (static_cast<double>(r.hi) - r.lo + 1) * unit());
      p[i] = type == ElementType::kI32 ? static_cast<std::uint32_t>(static_cast<std::int32_t>(v))
                                       : std::bit_cast<std::uint32_t>(static_cast<float>(v));
      continue;
    }
    float x;
    do {
      switch (r.kind) {
        case Range::kPositiveNormals:
          x = std::bit_cast<float>(static_cast<std::uint32_t>(0x00800000u + SplitMix(s) % (0x7F800000u - 0x00800000u)));
          break;
        case Range::kLogMagnitude: {
          const double m = r.lo * std::pow(double(r.hi) / r.lo, unit());
          x = static_cast<float>(SplitMix(s) & 1 ? m : -m);
          break;
        }
        case Range::kLogUniform:
          x = static_cast<float>(r.lo * std::pow(double(r.hi) / r.lo, unit()));
          break;
        case Range::kHalfLine: {
          const double a = r.lo, w = 2 * std::fabs(a);
          x = static_cast<float>(i % 2 == 0 ? a + w * unit() : (a + w) * std::pow(1e6 * std::fabs(a) / (a + w), unit()));
          break;
        }
        default:
          x = static_cast<float>(r.lo + (static_cast<double>(r.hi) - r.lo) * unit());
      }
    } while (x <= r.lo && r.kind != Range::kPositiveNormals && r.kind != Range::kLogMagnitude &&
             r.kind != Range::kLogUniform);  // open at lo
    if (r.kind == Range::kUniform && x >= r.hi) x = std::nextafter(r.hi, r.lo);  // open at a pole hi too (ndtri: p = 1)
    p[i] = std::bit_cast<std::uint32_t>(x);
  }
  return p;
}

// Every input's pool of an input set, for n results (a function of rows: n elements, n / row_length rows).
std::vector<std::vector<std::uint32_t>> Pools(const FunctionInfo& f, const InputSet& set, std::size_t n) {
  std::vector<std::vector<std::uint32_t>> pools;
  for (int k = 0; k < f.inputs(); ++k) pools.push_back(Pool(set.ranges[k], f.input_type(k), n, k));
  return pools;
}

// ---- the anchors --------------------------------------------------------------------------------
enum class Target { kNative, kAvx2, kAvx512 };
Target g_target = Target::kNative;

// One implementation of a row: fn(in, out, n) computes n results from the input arrays in[k] (a
// function of rows: n rows of row_length elements) into the result arrays out[j] (float32, int32 or
// uint8 by the row's result types).
using Fn = std::function<void(const void* const* in, void* const* out, std::size_t n)>;
struct Impl {
  std::string label;
  Fn fn;
};

void* Open(const char* lib) { return dlopen(lib, RTLD_NOW | RTLD_LOCAL); }
void* Sym(void* lib, const std::string& name) { return lib ? dlsym(lib, name.c_str()) : nullptr; }

#if HWY_ARCH_X86
// Vector functions on whole vectors and a masked tail, 16 lanes (AVX-512) or 8 (AVX2). The vector
// ABI needs the callers compiled for the instruction set, hence the target attributes. Shapes:
// float -> float (v), two floats -> float (vv), three (vvv), float -> int32 (ilogb), (float, int32)
// -> float (ldexp), float -> two floats (sincos: a struct of two vectors).
__attribute__((target("avx512f"))) void Map16(void* f, const void* const* in, void* const* out, std::size_t n, Shape shape) {
  const float *a = static_cast<const float*>(in[0]), *b = static_cast<const float*>(in[1]),
              *c = static_cast<const float*>(in[2]);
  float* d = static_cast<float*>(out[0]);
  struct Vec512x2 {
    __m512 a, b;
  };
  for (std::size_t i = 0; i < n; i += 16) {
    const __mmask16 m = n - i >= 16 ? static_cast<__mmask16>(0xFFFF) : static_cast<__mmask16>((1u << (n - i)) - 1);
    const __m512 x = _mm512_maskz_loadu_ps(m, a + i);
    switch (shape) {
      case Shape::kBinary:
        _mm512_mask_storeu_ps(d + i, m, reinterpret_cast<__m512 (*)(__m512, __m512)>(f)(x, _mm512_maskz_loadu_ps(m, b + i)));
        break;
      case Shape::kTernary:
        _mm512_mask_storeu_ps(d + i, m, reinterpret_cast<__m512 (*)(__m512, __m512, __m512)>(f)(
                                            x, _mm512_maskz_loadu_ps(m, b + i), _mm512_maskz_loadu_ps(m, c + i)));
        break;
      case Shape::kToInt32:
        _mm512_mask_storeu_epi32(static_cast<std::int32_t*>(out[0]) + i, m, reinterpret_cast<__m512i (*)(__m512)>(f)(x));
        break;
      case Shape::kScaleExponent:
        _mm512_mask_storeu_ps(d + i, m, reinterpret_cast<__m512 (*)(__m512, __m512i)>(f)(
                                            x, _mm512_maskz_loadu_epi32(m, static_cast<const std::int32_t*>(in[1]) + i)));
        break;
      case Shape::kUnaryPair: {
        const Vec512x2 r = reinterpret_cast<Vec512x2 (*)(__m512)>(f)(x);
        _mm512_mask_storeu_ps(d + i, m, r.a), _mm512_mask_storeu_ps(static_cast<float*>(out[1]) + i, m, r.b);
        break;
      }
      default:
        _mm512_mask_storeu_ps(d + i, m, reinterpret_cast<__m512 (*)(__m512)>(f)(x));
    }
  }
}
__attribute__((target("avx2,fma"))) void Map8(void* f, const void* const* in, void* const* out, std::size_t n, Shape shape) {
  const float *a = static_cast<const float*>(in[0]), *b = static_cast<const float*>(in[1]),
              *c = static_cast<const float*>(in[2]);
  float* d = static_cast<float*>(out[0]);
  struct Vec256x2 {
    __m256 a, b;
  };
  const __m256i lane = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
  for (std::size_t i = 0; i < n; i += 8) {
    const __m256i m = _mm256_cmpgt_epi32(_mm256_set1_epi32(static_cast<int>(std::min<std::size_t>(n - i, 8))), lane);
    const __m256 x = _mm256_maskload_ps(a + i, m);
    switch (shape) {
      case Shape::kBinary:
        _mm256_maskstore_ps(d + i, m, reinterpret_cast<__m256 (*)(__m256, __m256)>(f)(x, _mm256_maskload_ps(b + i, m)));
        break;
      case Shape::kTernary:
        _mm256_maskstore_ps(d + i, m, reinterpret_cast<__m256 (*)(__m256, __m256, __m256)>(f)(
                                          x, _mm256_maskload_ps(b + i, m), _mm256_maskload_ps(c + i, m)));
        break;
      case Shape::kToInt32:
        _mm256_maskstore_epi32(static_cast<int*>(out[0]) + i, m, reinterpret_cast<__m256i (*)(__m256)>(f)(x));
        break;
      case Shape::kScaleExponent:
        _mm256_maskstore_ps(d + i, m, reinterpret_cast<__m256 (*)(__m256, __m256i)>(f)(
                                          x, _mm256_maskload_epi32(static_cast<const int*>(in[1]) + i, m)));
        break;
      case Shape::kUnaryPair: {
        const Vec256x2 r = reinterpret_cast<Vec256x2 (*)(__m256)>(f)(x);
        _mm256_maskstore_ps(d + i, m, r.a), _mm256_maskstore_ps(static_cast<float*>(out[1]) + i, m, r.b);
        break;
      }
      default:
        _mm256_maskstore_ps(d + i, m, reinterpret_cast<__m256 (*)(__m256)>(f)(x));
    }
  }
}
Fn VectorImpl(void* f, Shape shape) {
  if (g_target == Target::kAvx512) return [f, shape](const void* const* in, void* const* out, std::size_t n) { Map16(f, in, out, n, shape); };
  return [f, shape](const void* const* in, void* const* out, std::size_t n) { Map8(f, in, out, n, shape); };
}
#else  // SLEEF and libmvec are timed on x86 only (g_target stays kNative elsewhere)
Fn VectorImpl(void*, Shape) { return {}; }
#endif

struct Mkl {
  void* lib = nullptr;      // libmkl_rt: vms<mkl>, through MKL's dispatch
  void* kernels = nullptr;  // --mkl=direct: libmkl_vml_<isa>, whose _vmls<mkl>_HA are called directly
  std::string version, note, kernels_name;
};
bool g_mkl_direct = true;  // --mkl=direct|dispatch

// MKL is optional: never linked, loaded here if its files are where bench/fetch_mkl.sh puts them.
Mkl LoadMkl() {
  Mkl mkl;
  std::vector<std::string> dirs;
  if (const char* env = std::getenv("ACCELMATH_MKL_LIB_DIR"); env && *env) {
    dirs.push_back(env);
  } else {
    char exe[4096];
    const ssize_t len = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (len > 0) {
      std::string path(exe, static_cast<std::size_t>(len));
      dirs.push_back(path.substr(0, path.rfind('/')) + "/mkl");
    }
#ifdef ACCELMATH_MKL_DEFAULT_DIR
    dirs.push_back(ACCELMATH_MKL_DEFAULT_DIR);
#endif
  }
  // libmkl_rt loads the others from its own directory and exits the process when one is missing,
  // so look for them first.
  const char* needed[] = {"libmkl_rt.so.3", "libmkl_core.so.3", "libmkl_sequential.so.3", "libmkl_intel_lp64.so.3"};
  std::string tried;
  for (const std::string& dir : dirs) {
    bool all = true;
    for (const char* f : needed) all = all && access((dir + "/" + f).c_str(), R_OK) == 0;
    if (!tried.empty()) tried += ", ";
    tried += dir;
    if (!all) continue;
    setenv("MKL_THREADING_LAYER", "SEQUENTIAL", 1);
    if (g_target == Target::kAvx2) setenv("MKL_ENABLE_INSTRUCTIONS", "AVX2", 1);
    if (g_target == Target::kAvx512) setenv("MKL_ENABLE_INSTRUCTIONS", "AVX512", 1);
    mkl.lib = Open((dir + "/libmkl_rt.so.3").c_str());
    if (!mkl.lib) {
      mkl.note = std::string("MKL found in ") + dir + " but not loaded: " + dlerror();
      return mkl;
    }
    if (auto v = reinterpret_cast<void (*)(char*, int)>(Sym(mkl.lib, "MKL_Get_Version_String"))) {
      char buf[256] = {};
      v(buf, sizeof buf - 1);
      mkl.version = buf;
    }
    if (g_mkl_direct && g_target != Target::kNative) {
      // The kernel library needs libmkl_core, which libmkl_rt loads at its first call. RTLD_DEEPBIND:
      // its own kernel tables, not those of a VM library MKL's dispatch loaded before it.
      if (auto abs = reinterpret_cast<void (*)(int, const float*, float*, long long)>(Sym(mkl.lib, "vmsAbs"))) {
        const float one = 1.0f;
        float r = 0.0f;
        abs(1, &one, &r, 0x2);
      }
      mkl.kernels_name = g_target == Target::kAvx512 ? "libmkl_vml_avx512.so.3" : "libmkl_vml_avx2.so.3";
      mkl.kernels = dlopen((dir + "/" + mkl.kernels_name).c_str(), RTLD_NOW | RTLD_LOCAL | RTLD_DEEPBIND);
      if (!mkl.kernels) {
        mkl.note = "MKL: " + mkl.kernels_name + " not loaded (" + dlerror() + "); mkl_ha goes through MKL's dispatch";
      }
    }
    return mkl;
  }
  mkl.note = "MKL not found (looked in " + tried +
             "): no mkl_ha anchor. Get it with bench/fetch_mkl.sh [DIR], or point ACCELMATH_MKL_LIB_DIR at a "
             "directory holding libmkl_rt.so.3";
  return mkl;
}

// The MKL VM library in use, once a VM function has run (MKL picks it by instruction set).
std::string MklVmLibrary() {
  std::ifstream maps("/proc/self/maps");
  std::string line, found;
  while (std::getline(maps, line)) {
    const auto pos = line.find("libmkl_vml_");
    if (pos != std::string::npos) found = line.substr(pos);
  }
  return found.empty() ? "none loaded" : found;
}

// --ab=LIB: another build of the library, its registry and its FunctionInfo::run (called with its
// own rows as `this`: the Itanium ABI passes `this` first). Rows are matched by name and shape, read
// through this build's FunctionInfo: the other build must share its layout (nearby commits do).
using RowsFn = std::span<const FunctionInfo> (*)();
using RunFn = accelmath::Status (*)(const FunctionInfo*, void* const*, const void* const*, std::size_t, std::size_t);
struct OtherBuild {
  std::string path;
  std::span<const FunctionInfo> rows;
  RunFn run = nullptr;
  const FunctionInfo* Find(const char* name) const {
    for (const FunctionInfo& r : rows) {
      if (std::string_view(r.name) == name) return &r;
    }
    return nullptr;
  }
};
std::string g_ab_path;  // --ab=LIB

// Loads g_ab_path; false, having said why, where it is not a build of this library.
bool LoadOtherBuild(OtherBuild* ab) {
  void* lib = dlopen(g_ab_path.c_str(), RTLD_NOW | RTLD_LOCAL | RTLD_DEEPBIND);
  const auto rows = reinterpret_cast<RowsFn>(Sym(lib, "_ZN9accelmath9functionsEv"));
  ab->run = reinterpret_cast<RunFn>(Sym(lib, "_ZNK9accelmath12FunctionInfo3runEPKPvPKPKvmm"));
  if (!lib || !rows || !ab->run) {
    std::fprintf(stderr, "bench_math: --ab=%s: %s\n", g_ab_path.c_str(), lib ? "not a build of accelmath (no registry)" : dlerror());
    return false;
  }
  ab->path = g_ab_path;
  ab->rows = rows();
  return true;
}

struct Libs {
  Mkl mkl;
  void* sleef = Open("libsleef.so.3");
  void* mvec = Open("libmvec.so.1");
  void* libm = Open("libm.so.6");
  OtherBuild ab;  // rows empty without --ab
};

// The shapes SLEEF and libmvec have vector functions for (through Map16/Map8).
bool VectorShape(Shape s) {
  return s == Shape::kUnary || s == Shape::kUnaryPair || s == Shape::kBinary || s == Shape::kTernary ||
         s == Shape::kToInt32 || s == Shape::kScaleExponent;
}

// SLEEF's function for a row (see the header): _u10, else _u05, else the exact one; its name in *symbol.
void* SleefSymbol(const Libs& libs, const std::string& libm, std::string* symbol) {
  const std::string stem = libm.back() == 'f' ? libm.substr(0, libm.size() - 1) : libm;
  const bool wide = g_target == Target::kAvx512;
  const std::string base = "Sleef_" + stem + (wide ? "f16" : "f8");
  const std::string isa = wide ? "avx512f" : "avx2";
  for (const std::string suffix : {"_u10", "_u05", ""}) {
    for (const std::string& name : {base + suffix + (suffix.empty() ? "_" : "") + isa, base + suffix}) {
      if (void* f = Sym(libs.sleef, name)) {
        *symbol = name;
        return f;
      }
    }
  }
  return nullptr;
}

// MKL VM's function g of a row of this shape (one input, two inputs, or sincos's two results) as an
// Impl: the HA kernel _vmls<mkl>_HA(n, a, r) (no mode), or vms<mkl>(n, a, r, mode) with the mode
// VML_HA as its last argument (`mode...`). Empty where g is null or the shape has no MKL form.
template <class... Mode>
Fn MklImpl(void* g, Shape shape, Mode... mode) {
  if (!g) return {};
  const auto x = [](const void* const* in, int k) { return static_cast<const float*>(in[k]); };
  const auto y = [](void* const* out, int k) { return static_cast<float*>(out[k]); };
  if (shape == Shape::kUnary) {
    return [fn = reinterpret_cast<void (*)(int, const float*, float*, Mode...)>(g), x, y, mode...](
               const void* const* in, void* const* out, std::size_t n) { fn(static_cast<int>(n), x(in, 0), y(out, 0), mode...); };
  }
  if (shape == Shape::kUnaryPair) {
    return [fn = reinterpret_cast<void (*)(int, const float*, float*, float*, Mode...)>(g), x, y, mode...](
               const void* const* in, void* const* out, std::size_t n) {
      fn(static_cast<int>(n), x(in, 0), y(out, 0), y(out, 1), mode...);
    };
  }
  if (shape == Shape::kBinary) {
    return [fn = reinterpret_cast<void (*)(int, const float*, const float*, float*, Mode...)>(g), x, y, mode...](
               const void* const* in, void* const* out, std::size_t n) {
      fn(static_cast<int>(n), x(in, 0), x(in, 1), y(out, 0), mode...);
    };
  }
  return {};
}

// The C library's scalar function <libm> in a loop, through the row's signature (nullptr: none).
Fn GlibcImpl(const FunctionInfo& f, void* g) {
  if (!g) return {};
  switch (f.shape) {
    case Shape::kUnary:
      return [fn = reinterpret_cast<float (*)(float)>(g)](const void* const* in, void* const* out, std::size_t n) {
        const float* x = static_cast<const float*>(in[0]);
        float* y = static_cast<float*>(out[0]);
        for (std::size_t i = 0; i < n; ++i) y[i] = fn(x[i]);
      };
    case Shape::kUnaryPair:
      return [fn = reinterpret_cast<void (*)(float, float*, float*)>(g)](const void* const* in, void* const* out,
                                                                        std::size_t n) {
        const float* x = static_cast<const float*>(in[0]);
        float *y1 = static_cast<float*>(out[0]), *y2 = static_cast<float*>(out[1]);
        for (std::size_t i = 0; i < n; ++i) fn(x[i], y1 + i, y2 + i);
      };
    case Shape::kBinary:
      return [fn = reinterpret_cast<float (*)(float, float)>(g)](const void* const* in, void* const* out, std::size_t n) {
        const float *a = static_cast<const float*>(in[0]), *b = static_cast<const float*>(in[1]);
        float* y = static_cast<float*>(out[0]);
        for (std::size_t i = 0; i < n; ++i) y[i] = fn(a[i], b[i]);
      };
    case Shape::kTernary:
      return [fn = reinterpret_cast<float (*)(float, float, float)>(g)](const void* const* in, void* const* out,
                                                                       std::size_t n) {
        const float *a = static_cast<const float*>(in[0]), *b = static_cast<const float*>(in[1]),
                    *c = static_cast<const float*>(in[2]);
        float* y = static_cast<float*>(out[0]);
        for (std::size_t i = 0; i < n; ++i) y[i] = fn(a[i], b[i], c[i]);
      };
    case Shape::kToInt32:
      return [fn = reinterpret_cast<int (*)(float)>(g)](const void* const* in, void* const* out, std::size_t n) {
        const float* x = static_cast<const float*>(in[0]);
        std::int32_t* y = static_cast<std::int32_t*>(out[0]);
        for (std::size_t i = 0; i < n; ++i) y[i] = fn(x[i]);
      };
    case Shape::kSplitExponent:
      return [fn = reinterpret_cast<float (*)(float, int*)>(g)](const void* const* in, void* const* out, std::size_t n) {
        const float* x = static_cast<const float*>(in[0]);
        float* m = static_cast<float*>(out[0]);
        std::int32_t* e = static_cast<std::int32_t*>(out[1]);
        for (std::size_t i = 0; i < n; ++i) {
          int k = 0;
          m[i] = fn(x[i], &k);
          e[i] = k;
        }
      };
    case Shape::kScaleExponent:
      return [fn = reinterpret_cast<float (*)(float, int)>(g)](const void* const* in, void* const* out, std::size_t n) {
        const float* x = static_cast<const float*>(in[0]);
        const std::int32_t* k = static_cast<const std::int32_t*>(in[1]);
        float* y = static_cast<float*>(out[0]);
        for (std::size_t i = 0; i < n; ++i) y[i] = fn(x[i], k[i]);
      };
    default:
      return {};
  }
}

// The per-element function accelmath::scalar::<name> (accelmath/scalar.h) of the row called `name`.
void* ScalarFunction(std::string_view name) {
  static const std::pair<std::string_view, void*> kScalar[] = {
#define ACCELMATH_OP(name, ...) {#name, reinterpret_cast<void*>(&accelmath::scalar::name)},
#include "accelmath/ops.def"
#undef ACCELMATH_OP
  };
  for (const auto& [n, p] : kScalar) {
    if (n == name) return p;
  }
  return nullptr;
}

// The implementations of a row: ours; MKL VM (vms<stem>: one input (n, a, r, mode), two results
// (n, a, r1, r2, mode), two inputs (n, a, b, r, mode)); SLEEF and libmvec where the shape has a vector
// ABI (libmvec: v and vv only); glibc's scalar <libm>; Highway's contrib/math for one or two inputs.
// *sleef_symbol: the SLEEF function's name.
std::vector<Impl> Impls(const FunctionInfo& f, const Libs& libs, std::size_t row_length, std::string* sleef_symbol) {
  std::vector<Impl> v;
  v.push_back({"accelmath", [&f, row_length](const void* const* in, void* const* out, std::size_t n) {
                 f.run(out, in, n, row_length);
               }});
  if (const FunctionInfo* other = libs.ab.Find(f.name); other != nullptr && other->shape == f.shape) {
    v.push_back({"accelmath_ab", [other, run = libs.ab.run, row_length](const void* const* in, void* const* out, std::size_t n) {
                   run(other, out, in, n, row_length);
                 }});
  }
  if (*f.mkl && libs.mkl.kernels) {
    if (Fn m = MklImpl(Sym(libs.mkl.kernels, std::string("_vmls") + f.mkl + "_HA"), f.shape)) v.push_back({"mkl_ha", m});
  } else if (*f.mkl && libs.mkl.lib) {
    constexpr long long kVmlHa = 0x2;
    if (Fn m = MklImpl(Sym(libs.mkl.lib, std::string("vms") + f.mkl), f.shape, kVmlHa)) v.push_back({"mkl_ha", m});
  }
  const std::string libm = f.libm;
  if (!libm.empty() && g_target != Target::kNative && VectorShape(f.shape)) {
    if (void* g = SleefSymbol(libs, libm, sleef_symbol)) v.push_back({"sleef_u10", VectorImpl(g, f.shape)});
    const bool wide = g_target == Target::kAvx512;
    const char* args = f.shape == Shape::kUnary ? "v_" : f.shape == Shape::kBinary ? "vv_" : nullptr;
    if (args) {
      if (void* g = Sym(libs.mvec, std::string(wide ? "_ZGVeN16" : "_ZGVdN8") + args + libm)) {
        v.push_back({"libmvec", VectorImpl(g, f.shape)});
      }
    }
  }
  if (!libm.empty()) {
    if (Fn g = GlibcImpl(f, Sym(libs.libm, libm))) v.push_back({"glibc", g});
  }
  // Ours per element, in the same loop as glibc's (the shapes that loop has a signature for).
  if (Fn g = GlibcImpl(f, ScalarFunction(f.name))) v.push_back({"accelmath_scalar", g});
  if (std::string_view(f.hwy) != "none") {
    const HwyLoops& loops = LoopsOf(f);
    if (loops.map) {
      v.push_back({"hwy", [map = loops.map](const void* const* in, void* const* out, std::size_t n) {
                     map(static_cast<const float*>(in[0]), static_cast<float*>(out[0]), n);
                   }});
    } else if (loops.map2) {
      v.push_back({"hwy", [map = loops.map2](const void* const* in, void* const* out, std::size_t n) {
                     map(static_cast<const float*>(in[0]), static_cast<const float*>(in[1]), static_cast<float*>(out[0]), n);
                   }});
    }
  }
  return v;
}

// ---- the check before timing -------------------------------------------------------------------
double UlpError(float y, double r) {
  if (std::isnan(r) || std::isinf(r)) return (std::isnan(r) ? std::isnan(y) : y == r) ? 0 : INFINITY;
  if (!std::isfinite(y)) return INFINITY;
  const double ulp = std::max(std::ldexp(1.0, std::ilogb(std::max(std::fabs(r), 0x1p-126)) - 23), 0x1p-149);
  return std::fabs(y - r) / ulp;
}

// The reference results of a row on n results of the pools: the C library's binary64 function of the
// row's libm column (exp for expf, fma, ilogb, frexp, ldexp...) where it has one and the shape is one
// the C library's binary64 functions share, else accelmath's own (which the accuracy tests measure).
// want[j][i]: result j of case i, as a double (ints exactly).
std::string Reference(const FunctionInfo& f, const Libs& libs, const std::vector<std::vector<std::uint32_t>>& pools,
                      std::size_t n, std::size_t row_length, std::vector<double> (&want)[2]) {
  const std::string libm = f.libm;
  void* ref = !libm.empty() && libm.back() == 'f' ? Sym(libs.libm, libm.substr(0, libm.size() - 1)) : nullptr;
  const auto x = [&](int k, std::size_t i) { return static_cast<double>(std::bit_cast<float>(pools[k][i])); };
  for (auto& w : want) w.assign(n, 0.0);
  if (ref) {
    switch (f.shape) {
      case Shape::kUnary:
        for (std::size_t i = 0; i < n; ++i) want[0][i] = reinterpret_cast<double (*)(double)>(ref)(x(0, i));
        return libm.substr(0, libm.size() - 1) + " (binary64)";
      case Shape::kBinary:
        for (std::size_t i = 0; i < n; ++i) want[0][i] = reinterpret_cast<double (*)(double, double)>(ref)(x(0, i), x(1, i));
        return libm.substr(0, libm.size() - 1) + " (binary64)";
      case Shape::kTernary:
        for (std::size_t i = 0; i < n; ++i) {
          want[0][i] = reinterpret_cast<double (*)(double, double, double)>(ref)(x(0, i), x(1, i), x(2, i));
        }
        return libm.substr(0, libm.size() - 1) + " (binary64)";
      case Shape::kToInt32:
        for (std::size_t i = 0; i < n; ++i) want[0][i] = reinterpret_cast<int (*)(double)>(ref)(x(0, i));
        return libm.substr(0, libm.size() - 1) + " (binary64)";
      case Shape::kSplitExponent:
        for (std::size_t i = 0; i < n; ++i) {
          int e = 0;
          want[0][i] = reinterpret_cast<double (*)(double, int*)>(ref)(x(0, i), &e);
          want[1][i] = e;
        }
        return libm.substr(0, libm.size() - 1) + " (binary64)";
      case Shape::kScaleExponent:
        for (std::size_t i = 0; i < n; ++i) {
          want[0][i] = reinterpret_cast<double (*)(double, int)>(ref)(x(0, i), static_cast<std::int32_t>(pools[1][i]));
        }
        return libm.substr(0, libm.size() - 1) + " (binary64)";
      default:
        break;  // two results (sincos): accelmath
    }
  }
  std::vector<std::uint32_t> got[2];
  const void* in[4] = {};
  void* out[2] = {};
  for (int k = 0; k < f.inputs(); ++k) in[k] = pools[k].data();
  for (int j = 0; j < f.outputs(); ++j) got[j].resize(n), out[j] = got[j].data();
  if (f.run(out, in, n, row_length) != accelmath::Status::kOk) return "";
  for (int j = 0; j < f.outputs(); ++j) {
    for (std::size_t i = 0; i < n; ++i) {
      switch (f.output_type(j)) {
        case ElementType::kF32: want[j][i] = std::bit_cast<float>(got[j][i]); break;
        case ElementType::kI32: want[j][i] = static_cast<std::int32_t>(got[j][i]); break;
        case ElementType::kU8: want[j][i] = reinterpret_cast<const std::uint8_t*>(got[j].data())[i]; break;
      }
    }
  }
  return "accelmath";
}

// Every implementation against the reference on the first 4096 results of the pools. An anchor off by
// more than 64 ulp (an int32 or 0/1 result: any difference) on this input set is wrong there
// (Highway's sin beyond |x| 39000) or mis-declared: it is dropped from `impls` for this set, and the
// summary says so. Returns false, having said why, when accelmath itself is off.
bool Check(const FunctionInfo& f, std::vector<Impl>& impls, const InputSet& set, const Libs& libs, std::string* summary) {
  const std::size_t n = 4096, per = set.row_length ? set.row_length : 1;
  const auto pools = Pools(f, set, n * per);
  std::vector<double> want[2];
  const std::string ref = Reference(f, libs, pools, n, set.row_length, want);
  if (ref.empty()) {
    std::fprintf(stderr, "bench_math: accelmath::%s returned an error\n", f.name);
    return false;
  }
  bool ok = true;
  *summary = "max ulp vs " + ref + " on " + std::to_string(n) + " inputs:";
  std::vector<Impl> kept;
  std::vector<std::uint32_t> got[2];
  for (const Impl& impl : impls) {
    const void* in[4] = {};
    void* out[2] = {};
    for (int k = 0; k < f.inputs(); ++k) in[k] = pools[k].data();
    for (int j = 0; j < f.outputs(); ++j) got[j].assign(n, 0x7FC00000u), out[j] = got[j].data();
    impl.fn(in, out, n);
    double worst = 0;
    std::size_t at = 0;
    for (std::size_t i = 0; i < n; ++i) {
      double e = 0;
      for (int j = 0; j < f.outputs(); ++j) {
        switch (f.output_type(j)) {
          case ElementType::kF32: e = std::max(e, UlpError(std::bit_cast<float>(got[j][i]), want[j][i])); break;
          case ElementType::kI32: e = std::max(e, static_cast<std::int32_t>(got[j][i]) == want[j][i] ? 0.0 : INFINITY); break;
          case ElementType::kU8:
            e = std::max(e, reinterpret_cast<const std::uint8_t*>(got[j].data())[i] == want[j][i] ? 0.0 : INFINITY);
            break;
        }
      }
      if (!(e <= worst)) worst = e, at = i;
    }
    char buf[64];
    std::snprintf(buf, sizeof buf, " %s %.2f", impl.label.c_str(), worst);
    *summary += buf;
    if (!(worst <= 64)) {
      std::fprintf(stderr, "bench_math: %s of %s is wrong at case %zu (first input %a): %g ulp against %s%s\n",
                   impl.label.c_str(), f.name, at, std::bit_cast<float>(pools[0][at * per]), worst, ref.c_str(),
                   impl.label == "accelmath" ? "" : "; not timed on these inputs");
      if (impl.label == "accelmath") ok = false;
      *summary += " (wrong: not timed)";
      continue;
    }
    kept.push_back(impl);
  }
  impls = std::move(kept);
  return ok;
}

// ---- timing -------------------------------------------------------------------------------------
// n (the benchmark's argument) counts elements: results, or a function of rows' elements (n / row_length rows).
void Run(benchmark::State& state, const FunctionInfo& f, const Impl& impl, const InputSet& set) {
  const std::size_t n = static_cast<std::size_t>(state.range(0));
  const std::size_t per = set.row_length ? set.row_length : 1, results = n / per;
  const std::size_t pool = std::max<std::size_t>(n, 1 << 16);
  const auto in_pools = Pools(f, set, pool);
  std::vector<std::uint32_t> out_pools[2];
  for (int j = 0; j < f.outputs(); ++j) out_pools[j].resize(pool / per + 1);
  std::size_t off = 0;  // in results
  for (auto _ : state) {
    const void* in[4] = {};
    void* out[2] = {};
    for (int k = 0; k < f.inputs(); ++k) in[k] = in_pools[k].data() + off * per;
    for (int j = 0; j < f.outputs(); ++j) out[j] = out_pools[j].data() + off;
    impl.fn(in, out, results);
    benchmark::DoNotOptimize(out_pools[0].data());
    benchmark::ClobberMemory();
    off = (off + results) % (pool / per);
    if (off + results > pool / per) off = 0;
  }
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations()) * static_cast<int64_t>(results * per));
}

const char* TargetName(Target t) { return t == Target::kAvx512 ? "avx512" : t == Target::kAvx2 ? "avx2" : "native"; }

// Parses and removes --target=..., --mkl=... and --ab=...; restricts Highway's dispatch. Returns
// false on a bad request.
bool SelectTarget(int* argc, char** argv) {
#if HWY_ARCH_X86
  __builtin_cpu_init();
  const bool avx2 = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
  const bool avx512 = avx2 && __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
                      __builtin_cpu_supports("avx512dq") && __builtin_cpu_supports("avx512vl");
#else
  const bool avx2 = false, avx512 = false;
#endif
  g_target = avx512 ? Target::kAvx512 : avx2 ? Target::kAvx2 : Target::kNative;
  int out = 1;
  for (int i = 1; i < *argc; ++i) {
    const std::string_view a = argv[i];
    if (a == "--mkl=direct" || a == "--mkl=dispatch") {
      g_mkl_direct = a == "--mkl=direct";
      continue;
    }
    if (a.rfind("--ab=", 0) == 0) {
      g_ab_path = a.substr(5);
      continue;
    }
    if (a.rfind("--mkl=", 0) == 0) {
      std::fprintf(stderr, "bench_math: %s: expected --mkl=direct or --mkl=dispatch\n", argv[i]);
      return false;
    }
    if (a.rfind("--target=", 0) != 0) {
      argv[out++] = argv[i];
      continue;
    }
    const std::string_view t = a.substr(9);
    if (t == "avx2" && avx2) {
      g_target = Target::kAvx2;
    } else if (t == "avx512" && avx512) {
      g_target = Target::kAvx512;
    } else {
      std::fprintf(stderr, "bench_math: --target=%.*s: %s\n", static_cast<int>(t.size()), t.data(),
                   t == "avx2" || t == "avx512" ? "this CPU lacks it" : "expected avx2 or avx512");
      return false;
    }
  }
  *argc = out;
  argv[out] = nullptr;
  const int64_t supported = hwy::SupportedTargets();
  if (g_target == Target::kAvx2) hwy::SetSupportedTargetsForTest(supported & ~(HWY_AVX2 - 1));
  if (g_target == Target::kAvx512 && !(supported & HWY_AVX3)) {
    std::fprintf(stderr, "bench_math: Highway does not see AVX-512 here\n");
    return false;
  }
  return true;
}

int Main(int argc, char** argv) {
  if (!SelectTarget(&argc, argv)) return 2;
  Libs libs;
  libs.mkl = LoadMkl();  // after SelectTarget: MKL reads MKL_ENABLE_INSTRUCTIONS when loaded
  if (!libs.mkl.note.empty()) std::fprintf(stderr, "%s\n", libs.mkl.note.c_str());
  if (!g_ab_path.empty() && !LoadOtherBuild(&libs.ab)) return 2;
  if (g_target != Target::kNative && !libs.sleef) std::fprintf(stderr, "libsleef.so.3 not found: no sleef_u10 anchor\n");
  if (g_target != Target::kNative && !libs.mvec) std::fprintf(stderr, "libmvec.so.1 not found: no libmvec anchor\n");

  bool ok = true;
  std::string order;  // the timed cases in registry order, for bench/math_ratios.py
  for (const FunctionInfo& f : accelmath::functions()) {
    bool fallback = false;
    const InputSet set = InputSetOf(f, &fallback);
    if (fallback) {
      std::fprintf(stderr, "bench_math: no input rule fits %s; timing it on %s (add it to kRangeOverrides)\n", f.name,
                   set.Describe().c_str());
    }
    // The row's input set, then its extra ones ("sin@huge"), each checked and timed alike.
    std::vector<std::pair<std::string, InputSet>> cases = {{f.name, set}};
    for (const auto& e : kExtraRanges) {
      if (e.name != f.name) continue;
      InputSet extra;
      for (int k = 0; k < f.inputs(); ++k) extra.ranges.push_back(k == 1 && e.second.hi > e.second.lo ? e.second : e.range);
      extra.row_length = e.row_length ? e.row_length : set.row_length;
      cases.emplace_back(std::string(f.name) + "@" + std::string(e.label), extra);
    }
    for (const auto& [name, s] : cases) {
      std::string summary, sleef_symbol;
      std::vector<Impl> impls = Impls(f, libs, s.row_length, &sleef_symbol);
      ok = Check(f, impls, s, libs, &summary) && ok;
      benchmark::AddCustomContext("inputs_" + name, s.Describe());
      benchmark::AddCustomContext("check_" + name, summary);
      if (!sleef_symbol.empty() && sleef_symbol.find("_u10") == std::string::npos) {
        benchmark::AddCustomContext("sleef_" + name, sleef_symbol);
      }
      for (const Impl& impl : impls) {
        benchmark::RegisterBenchmark((name + "/" + impl.label).c_str(),
                                     [&f, impl, s = s](benchmark::State& st) { Run(st, f, impl, s); })
            ->Arg(1 << 10)
            ->Arg(1 << 16)
            ->Arg(1 << 24);
      }
      order += (order.empty() ? "" : ",") + name;
    }
  }
  if (!ok) return 1;

  benchmark::AddCustomContext("functions", order);  // registry order, for bench/math_ratios.py
  const auto hwy_targets = hwy::SupportedAndGeneratedTargets();
  benchmark::AddCustomContext("accelmath_target", TargetName(g_target));
  benchmark::AddCustomContext("hwy_target", hwy_targets.empty() ? "?" : hwy::TargetName(hwy_targets.front()));
  benchmark::AddCustomContext("mkl", libs.mkl.lib ? libs.mkl.version : "not found (bench/fetch_mkl.sh)");
  if (!libs.ab.path.empty()) benchmark::AddCustomContext("accelmath_ab", libs.ab.path);
  if (libs.mkl.kernels) {
    benchmark::AddCustomContext("mkl_vm_library", libs.mkl.kernels_name + " (its _vmls*_HA kernels called directly)");
    benchmark::AddCustomContext("mkl_mode", "VML_HA (_vmls*_HA), MKL_THREADING_LAYER=SEQUENTIAL");
  } else if (libs.mkl.lib) {
    benchmark::AddCustomContext("mkl_vm_library", MklVmLibrary() + " (MKL's dispatch)");
    benchmark::AddCustomContext("mkl_mode", "VML_HA (vms* with mode 0x2), MKL_THREADING_LAYER=SEQUENTIAL");
  }
  benchmark::AddCustomContext("simd_anchor_width", g_target == Target::kAvx512 ? "16 (sleef f16_u10avx512f, libmvec _ZGVeN16v)"
                                                   : g_target == Target::kAvx2 ? "8 (sleef f8_u10avx2, libmvec _ZGVdN8v)"
                                                                               : "none");

  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 2;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}

}  // namespace accelmath_bench

int main(int argc, char** argv) { return accelmath_bench::Main(argc, argv); }
#endif  // HWY_ONCE
