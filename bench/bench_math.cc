// Throughput of every float32 function in the registry (accelmath/ops.def), single thread, side by
// side with the anchors that have it, in one run:
//   accelmath  the array API (accelmath::f), dispatched by Highway
//   mkl_ha     Intel MKL VM, vms<mkl>(n, a, r, VML_HA); libmkl_rt.so.3 loaded at run time only, from
//              $ACCELMATH_MKL_LIB_DIR, else <this program's dir>/mkl, else <source>/build/mkl
//              (bench/fetch_mkl.sh puts it there); skipped, with one line saying so, when absent
//   sleef_u10  Sleef_<stem>f16_u10avx512f / Sleef_<stem>f8_u10avx2 (libsleef.so.3, dlsym)
//   libmvec    glibc's vector functions _ZGVeN16v_<libm> / _ZGVdN8v_<libm> (libmvec.so.1, dlsym)
//              (two-input rows: _ZGVeN16vv_<libm> / _ZGVdN8vv_<libm>)
//   glibc      the scalar C library function <libm> in a loop (libm.so.6, dlsym)
//   hwy        Highway contrib/math <hwy> (CallExp, ...) in a plain loop, dispatched like ours
// The columns mkl, libm and hwy of each row name the anchors; an empty name (or `none`) means the
// anchor lacks the function and nothing is registered for it. No line here names a function.
//
//   build/bench_math [--target=avx2|avx512] [Google Benchmark flags]
//   python3 bench/math_ratios.py     # both targets, 9 interleaved repetitions, the tables of docs/performance.md
// --target restricts every library to one instruction set: our dispatch and hwy through
// hwy::SetSupportedTargetsForTest, MKL through MKL_ENABLE_INSTRUCTIONS (set before it is loaded),
// SLEEF and libmvec by the vector width called. Default: the widest this CPU has. glibc's scalar
// functions are the same on both.
//
// Inputs, per function: a deterministic random pool over its useful range, derived from the row's
// special values (see InputRange; a function of two inputs: two independent pools, each uniform in
// (-100, 100), so that the lanes mix every quadrant); each iteration takes the next window of n
// elements of a pool of max(n, 64K), as bench_ndtri.cc does. Before timing, every anchor is checked against a reference on
// 4096 inputs (the C library's binary64 function where the row names one, else accelmath) and the
// program stops if one is off by more than 64 ulp: a mis-declared signature would otherwise time
// garbage.
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
// Highway's contrib/math has no two-result functions: nothing to time for UnaryPair rows.
#define ACCELMATH_BENCH_HWY_UnaryPair(name, hwyfn) \
  void HwyMap_##name(const float*, float*, size_t) {}
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

namespace accelmath_bench {

#define ACCELMATH_OP(name, shape, driver, kernel, eval, bound, domain, mkl, libm, hwyfn, ...) HWY_EXPORT(HwyMap_##name);
#include "accelmath/ops.def"
#undef ACCELMATH_OP

// ---- the registry, as this program sees it ---------------------------------------------------
struct Special {
  float in, out, out2 = 0.0f;
};
using ArrayFn = accelmath::Status (*)(std::span<float>, std::span<const float>) noexcept;
using PairArrayFn = accelmath::Status (*)(std::span<float>, std::span<float>, std::span<const float>) noexcept;
using BinaryArrayFn = accelmath::Status (*)(std::span<float>, std::span<const float>, std::span<const float>) noexcept;
using MapFn = void (*)(const float* src, float* dst, size_t n);
using MapFn2 = void (*)(const float* src1, const float* src2, float* dst, size_t n);

struct Row {
  const char* name;
  const char* mkl;   // MKL VM stem or ""
  const char* libm;  // C library float function or ""
  const char* hwy;   // Highway contrib/math function or "none"
  std::span<const Special> specials;
  ArrayFn array;         // Unary rows
  PairArrayFn pair;      // UnaryPair rows: two results (sincos: sin, cos)
  BinaryArrayFn binary;  // Binary rows: two inputs (atan2: y, x)
  MapFn hwy_map;         // the hwy anchor of a Unary row
  MapFn2 hwy_map2;       // of a Binary row
};

// A NaN input closes each list (never read as a pole), so that a row without specials compiles. A
// Binary row's specials are pairs, {x1, x2, result}: its inputs are not derived from them.
#define ACCELMATH_BENCH_SPECIALS_Unary(name, ...) \
  constexpr Special kSpecials_##name[] = {__VA_ARGS__ __VA_OPT__(, ) Special{NAN, NAN}};
#define ACCELMATH_BENCH_SPECIALS_UnaryPair(name, ...) ACCELMATH_BENCH_SPECIALS_Unary(name, __VA_ARGS__)
#define ACCELMATH_BENCH_SPECIALS_Binary(name, ...) constexpr Special kSpecials_##name[] = {Special{NAN, NAN}};
#define ACCELMATH_OP(name, shape, driver, kernel, eval, bound, domain, mkl, libm, hwyfn, ...) \
  ACCELMATH_BENCH_SPECIALS_##shape(name, __VA_ARGS__)
#include "accelmath/ops.def"
#undef ACCELMATH_OP

#define ACCELMATH_BENCH_ROW_Unary(name, mkl, libm, hwyfn)                                               \
  Row{#name, mkl, libm, #hwyfn, kSpecials_##name, static_cast<ArrayFn>(&accelmath::name), nullptr, nullptr, \
      [](const float* s, float* d, size_t n) { HWY_DYNAMIC_DISPATCH(HwyMap_##name)(s, d, n); }, nullptr},
#define ACCELMATH_BENCH_ROW_UnaryPair(name, mkl, libm, hwyfn)                                                          \
  Row{#name, mkl, libm, "none", kSpecials_##name, nullptr, static_cast<PairArrayFn>(&accelmath::name), nullptr, nullptr, \
      nullptr},
#define ACCELMATH_BENCH_ROW_Binary(name, mkl, libm, hwyfn)                                                        \
  Row{#name, mkl, libm, #hwyfn, kSpecials_##name, nullptr, nullptr, static_cast<BinaryArrayFn>(&accelmath::name), \
      nullptr, [](const float* a, const float* b, float* d, size_t n) { HWY_DYNAMIC_DISPATCH(HwyMap_##name)(a, b, d, n); }},
const Row kRows[] = {
#define ACCELMATH_OP(name, shape, driver, kernel, eval, bound, domain, mkl, libm, hwyfn, ...) \
  ACCELMATH_BENCH_ROW_##shape(name, mkl, libm, hwyfn)
#include "accelmath/ops.def"
#undef ACCELMATH_OP
};

// ---- inputs -------------------------------------------------------------------------------------
// kUniform: uniform in (lo, hi), both ends excluded (they may be poles);
// kPositiveNormals: uniform bit patterns of the positive normal floats (every binade equally);
// kHalfLine: half uniform in (lo, lo + 2|lo|), half log-uniform in [lo + 2|lo|, 1e6 |lo|], mixed;
// kLogMagnitude: |x| log-uniform in [lo, hi], random sign (every lane of a vector a different scale).
struct Range {
  enum Kind { kUniform, kPositiveNormals, kHalfLine, kLogMagnitude } kind;
  float lo, hi;
  std::string Describe() const {
    char buf[160];
    if (kind == kPositiveNormals) return "uniform bit patterns of positive normal floats";
    if (kind == kLogMagnitude) {
      std::snprintf(buf, sizeof buf, "|x| log-uniform in [%g, %g], random sign", lo, hi);
      return buf;
    }
    if (kind == kHalfLine) {
      std::snprintf(buf, sizeof buf, "half uniform in (%g, %g), half log-uniform in [%g, %g]", lo,
                    lo + 2 * std::fabs(lo), lo + 2 * std::fabs(lo), 1e6 * std::fabs(lo));
    } else {
      std::snprintf(buf, sizeof buf, "uniform in (%g, %g)", lo, hi);
    }
    return buf;
  }
};

// Rows whose rule below gives a poor range. Keep this short: a new row should fit the rule.
struct RangeOverride {
  std::string_view name;
  Range range;
};
constexpr RangeOverride kRangeOverrides[] = {
    // The rule gives [-87, 88]; below -17.3 expm1 is -1 in float32, half the pool would be trivial.
    {"expm1", {Range::kUniform, -20.0f, 88.0f}},
    // Trig: the range of the speed bar (|x| <= 100); the huge arguments are kExtraRanges.
    {"sin", {Range::kUniform, -100.0f, 100.0f}},
    {"cos", {Range::kUniform, -100.0f, 100.0f}},
    {"tan", {Range::kUniform, -100.0f, 100.0f}},
    {"sincos", {Range::kUniform, -100.0f, 100.0f}},
    {"sinpi", {Range::kUniform, -100.0f, 100.0f}},
    {"cospi", {Range::kUniform, -100.0f, 100.0f}},
    {"sincospi", {Range::kUniform, -100.0f, 100.0f}},
    // tanpi: its poles at the half-integers would make the rule pick (-0.5, 0.5) only.
    {"tanpi", {Range::kUniform, -100.0f, 100.0f}},
    // Fresnel: the oscillating region and its asymptotic tail.
    {"fresnel_c", {Range::kUniform, -10.0f, 10.0f}},
    {"fresnel_s", {Range::kUniform, -10.0f, 10.0f}},
    {"fresnel", {Range::kUniform, -10.0f, 10.0f}},
    // Inverse trig and hyperbolic: the whole domain where it is bounded, else (-10, 10) (all three of
    // atan's regions; tanh saturates at 9) and acosh's half line above 1.
    {"asin", {Range::kUniform, -1.0f, 1.0f}},
    {"acos", {Range::kUniform, -1.0f, 1.0f}},
    {"atan", {Range::kUniform, -10.0f, 10.0f}},
    {"tanh", {Range::kUniform, -10.0f, 10.0f}},
    {"asinh", {Range::kUniform, -10.0f, 10.0f}},
    {"acosh", {Range::kHalfLine, 1.0f, 0.0f}},
};

// More input sets for some rows, timed as "<name>@<label>": the huge arguments of the trig functions
// (every lane a different scale up to 1e30, so that the Payne-Hanek path runs on nearly every vector).
struct ExtraRange {
  std::string_view name, label;
  Range range;
};
constexpr ExtraRange kExtraRanges[] = {
    {"sin", "huge", {Range::kLogMagnitude, 1.0f, 1e30f}},
    {"cos", "huge", {Range::kLogMagnitude, 1.0f, 1e30f}},
    {"tan", "huge", {Range::kLogMagnitude, 1.0f, 1e30f}},
    {"sincos", "huge", {Range::kLogMagnitude, 1.0f, 1e30f}},
};

// The useful range, read from the row's special values (the poles are exact there):
//  - a finite input giving -inf and one giving +inf (ndtri: 0, 1): uniform between them;
//  - only one giving -inf, at 0 (log...): every binade of the positive normals;
//    at a != 0 (log1p: -1): the half line above it, near a and far away mixed (kHalfLine);
//  - only one giving +inf, b (the overflow threshold of exp...): uniform in [-(h - 1), h] with h the
//    largest integer below b, where the results stay normal for base-e/2/10 exponentials;
//  - none: uniform in [-10, 10], and a warning, since the rule has not seen such a row.
// A row with two inputs: each input uniform in (-100, 100), independently (every quadrant, ratios
// from tiny to huge across the lanes of a vector).
Range InputRange(const Row& row, bool* fallback) {
  *fallback = false;
  for (const auto& o : kRangeOverrides) {
    if (o.name == row.name) return o.range;
  }
  if (row.binary) return {Range::kUniform, -100.0f, 100.0f};
  float neg_pole = NAN, pos_pole = NAN;
  for (const Special& s : row.specials) {
    if (!std::isfinite(s.in) || !std::isinf(s.out)) continue;
    const float in = s.in == 0.0f ? 0.0f : s.in;  // -0 and +0 are one pole
    if (s.out < 0 && !(in <= neg_pole)) neg_pole = in;
    if (s.out > 0 && !(in >= pos_pole)) pos_pole = in;
  }
  const bool neg = !std::isnan(neg_pole), pos = !std::isnan(pos_pole);
  if (neg && pos) return {Range::kUniform, std::min(neg_pole, pos_pole), std::max(neg_pole, pos_pole)};
  if (neg) return neg_pole == 0.0f ? Range{Range::kPositiveNormals, 0, 0} : Range{Range::kHalfLine, neg_pole, 0};
  if (pos) {
    const float h = std::ceil(pos_pole) - 1.0f;
    return {Range::kUniform, -(h - 1.0f), h};
  }
  *fallback = true;
  return {Range::kUniform, -10.0f, 10.0f};
}

std::uint64_t SplitMix(std::uint64_t& s) {
  std::uint64_t z = (s += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

// The pool of a row's (first) input; a two-input row's second input is another pool of its range,
// kSecondSeed.
constexpr std::uint64_t kSecondSeed = 43;
std::vector<float> Pool(const Range& r, std::size_t n, std::uint64_t seed = 42) {
  std::vector<float> p(n);
  std::uint64_t s = seed;
  auto unit = [&] { return static_cast<double>(SplitMix(s) >> 11) * 0x1p-53; };  // [0, 1)
  for (std::size_t i = 0; i < n; ++i) {
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
        case Range::kHalfLine: {
          const double a = r.lo, w = 2 * std::fabs(a);
          x = static_cast<float>(i % 2 == 0 ? a + w * unit() : (a + w) * std::pow(1e6 * std::fabs(a) / (a + w), unit()));
          break;
        }
        default:
          x = static_cast<float>(r.lo + (static_cast<double>(r.hi) - r.lo) * unit());
      }
    } while (x <= r.lo && r.kind != Range::kPositiveNormals && r.kind != Range::kLogMagnitude);  // open at lo
    p[i] = x;
  }
  if (r.kind == Range::kUniform) {  // open at a pole hi too (ndtri: p = 1)
    for (float& x : p) {
      if (x >= r.hi) x = std::nextafter(r.hi, r.lo);
    }
  }
  return p;
}

// ---- the anchors --------------------------------------------------------------------------------
enum class Target { kNative, kAvx2, kAvx512 };
Target g_target = Target::kNative;

// fn writes the (first) result to dst; a row with two results writes its second to *second. A row
// with two inputs has fn2(x1, x2, dst, n) instead.
struct Impl {
  std::string label;
  std::function<void(const float*, float*, std::size_t)> fn;
  std::shared_ptr<std::vector<float>> second = nullptr;
  std::function<void(const float*, const float*, float*, std::size_t)> fn2 = nullptr;
};

// The second result's buffer of a UnaryPair row's implementations (room for the largest n).
std::shared_ptr<std::vector<float>> SecondBuffer() { return std::make_shared<std::vector<float>>(std::size_t{1} << 24); }

void* Open(const char* lib) { return dlopen(lib, RTLD_NOW | RTLD_LOCAL); }
void* Sym(void* lib, const std::string& name) { return lib ? dlsym(lib, name.c_str()) : nullptr; }

#if HWY_ARCH_X86
// Vector functions float(16 or 8 lanes) -> same, on whole vectors and a masked tail. The vector
// ABI needs the callers compiled for the instruction set, hence the target attributes.
__attribute__((target("avx512f"))) void Map16(void* f, const float* s, float* d, std::size_t n) {
  const auto fn = reinterpret_cast<__m512 (*)(__m512)>(f);
  std::size_t i = 0;
  for (; i + 16 <= n; i += 16) _mm512_storeu_ps(d + i, fn(_mm512_loadu_ps(s + i)));
  if (i < n) {
    const __mmask16 m = static_cast<__mmask16>((1u << (n - i)) - 1);
    _mm512_mask_storeu_ps(d + i, m, fn(_mm512_maskz_loadu_ps(m, s + i)));
  }
}
__attribute__((target("avx2,fma"))) void Map8(void* f, const float* s, float* d, std::size_t n) {
  const auto fn = reinterpret_cast<__m256 (*)(__m256)>(f);
  std::size_t i = 0;
  for (; i + 8 <= n; i += 8) _mm256_storeu_ps(d + i, fn(_mm256_loadu_ps(s + i)));
  if (i < n) {
    const __m256i lane = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
    const __m256i m = _mm256_cmpgt_epi32(_mm256_set1_epi32(static_cast<int>(n - i)), lane);
    _mm256_maskstore_ps(d + i, m, fn(_mm256_maskload_ps(s + i, m)));
  }
}
std::function<void(const float*, float*, std::size_t)> VectorImpl(void* f) {
  if (g_target == Target::kAvx512) return [f](const float* s, float* d, std::size_t n) { Map16(f, s, d, n); };
  return [f](const float* s, float* d, std::size_t n) { Map8(f, s, d, n); };
}
// SLEEF's two-result functions (Sleef_sincosf16_u10...) return a struct of two vectors.
struct Vec512x2 {
  __m512 a, b;
};
struct Vec256x2 {
  __m256 a, b;
};
__attribute__((target("avx512f"))) void Map16x2(void* f, const float* s, float* d, float* d2, std::size_t n) {
  const auto fn = reinterpret_cast<Vec512x2 (*)(__m512)>(f);
  std::size_t i = 0;
  for (; i + 16 <= n; i += 16) {
    const Vec512x2 r = fn(_mm512_loadu_ps(s + i));
    _mm512_storeu_ps(d + i, r.a), _mm512_storeu_ps(d2 + i, r.b);
  }
  if (i < n) {
    const __mmask16 m = static_cast<__mmask16>((1u << (n - i)) - 1);
    const Vec512x2 r = fn(_mm512_maskz_loadu_ps(m, s + i));
    _mm512_mask_storeu_ps(d + i, m, r.a), _mm512_mask_storeu_ps(d2 + i, m, r.b);
  }
}
__attribute__((target("avx2,fma"))) void Map8x2(void* f, const float* s, float* d, float* d2, std::size_t n) {
  const auto fn = reinterpret_cast<Vec256x2 (*)(__m256)>(f);
  std::size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    const Vec256x2 r = fn(_mm256_loadu_ps(s + i));
    _mm256_storeu_ps(d + i, r.a), _mm256_storeu_ps(d2 + i, r.b);
  }
  if (i < n) {
    const __m256i lane = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
    const __m256i m = _mm256_cmpgt_epi32(_mm256_set1_epi32(static_cast<int>(n - i)), lane);
    const Vec256x2 r = fn(_mm256_maskload_ps(s + i, m));
    _mm256_maskstore_ps(d + i, m, r.a), _mm256_maskstore_ps(d2 + i, m, r.b);
  }
}
Impl VectorPairImpl(const std::string& label, void* f) {
  auto second = SecondBuffer();
  if (g_target == Target::kAvx512) {
    return {label, [f, second](const float* s, float* d, std::size_t n) { Map16x2(f, s, d, second->data(), n); }, second};
  }
  return {label, [f, second](const float* s, float* d, std::size_t n) { Map8x2(f, s, d, second->data(), n); }, second};
}
// Vector functions of two inputs (atan2f: y, x) -> one result.
__attribute__((target("avx512f"))) void Map16vv(void* f, const float* a, const float* b, float* d, std::size_t n) {
  const auto fn = reinterpret_cast<__m512 (*)(__m512, __m512)>(f);
  std::size_t i = 0;
  for (; i + 16 <= n; i += 16) _mm512_storeu_ps(d + i, fn(_mm512_loadu_ps(a + i), _mm512_loadu_ps(b + i)));
  if (i < n) {
    const __mmask16 m = static_cast<__mmask16>((1u << (n - i)) - 1);
    _mm512_mask_storeu_ps(d + i, m, fn(_mm512_maskz_loadu_ps(m, a + i), _mm512_maskz_loadu_ps(m, b + i)));
  }
}
__attribute__((target("avx2,fma"))) void Map8vv(void* f, const float* a, const float* b, float* d, std::size_t n) {
  const auto fn = reinterpret_cast<__m256 (*)(__m256, __m256)>(f);
  std::size_t i = 0;
  for (; i + 8 <= n; i += 8) _mm256_storeu_ps(d + i, fn(_mm256_loadu_ps(a + i), _mm256_loadu_ps(b + i)));
  if (i < n) {
    const __m256i lane = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
    const __m256i m = _mm256_cmpgt_epi32(_mm256_set1_epi32(static_cast<int>(n - i)), lane);
    _mm256_maskstore_ps(d + i, m, fn(_mm256_maskload_ps(a + i, m), _mm256_maskload_ps(b + i, m)));
  }
}
Impl VectorBinaryImpl(const std::string& label, void* f) {
  if (g_target == Target::kAvx512) {
    return {label, {}, nullptr, [f](const float* a, const float* b, float* d, std::size_t n) { Map16vv(f, a, b, d, n); }};
  }
  return {label, {}, nullptr, [f](const float* a, const float* b, float* d, std::size_t n) { Map8vv(f, a, b, d, n); }};
}
#else  // SLEEF and libmvec are timed on x86 only (g_target stays kNative elsewhere)
std::function<void(const float*, float*, std::size_t)> VectorImpl(void*) { return {}; }
Impl VectorPairImpl(const std::string& label, void*) { return {label, {}, nullptr}; }
Impl VectorBinaryImpl(const std::string& label, void*) { return {label, {}, nullptr, nullptr}; }
#endif

struct Mkl {
  void* lib = nullptr;
  std::string version, note;
};

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

struct Libs {
  Mkl mkl;
  void* sleef = Open("libsleef.so.3");
  void* mvec = Open("libmvec.so.1");
  void* libm = Open("libm.so.6");
};

// The implementations of a row with two results: ours, MKL VM (vms<stem>(n, a, r1, r2, mode)),
// SLEEF u10 (a struct of two vectors) and glibc's scalar <libm>(x, &r1, &r2). libmvec's
// two-result ABI (vectors of pointers) and Highway (none) are not timed.
std::vector<Impl> PairImpls(const Row& row, const Libs& libs) {
  std::vector<Impl> v;
  auto second = SecondBuffer();
  v.push_back({"accelmath", [pair = row.pair, second](const float* s, float* d, std::size_t n) {
                 pair(std::span<float>(d, n), std::span<float>(second->data(), n), std::span<const float>(s, n));
               }, second});
  if (*row.mkl && libs.mkl.lib) {
    using VmFn = void (*)(int, const float*, float*, float*, long long);
    if (auto f = reinterpret_cast<VmFn>(Sym(libs.mkl.lib, std::string("vms") + row.mkl))) {
      constexpr long long kVmlHa = 0x2;
      auto b = SecondBuffer();
      v.push_back({"mkl_ha", [f, b](const float* s, float* d, std::size_t n) { f(static_cast<int>(n), s, d, b->data(), kVmlHa); }, b});
    }
  }
  const std::string libm = row.libm;
  if (!libm.empty() && g_target != Target::kNative) {
    const std::string stem = libm.back() == 'f' ? libm.substr(0, libm.size() - 1) : libm;
    const bool wide = g_target == Target::kAvx512;
    const std::string sleef = "Sleef_" + stem + (wide ? "f16_u10" : "f8_u10");
    void* f = Sym(libs.sleef, sleef + (wide ? "avx512f" : "avx2"));
    if (!f) f = Sym(libs.sleef, sleef);
    if (f) v.push_back(VectorPairImpl("sleef_u10", f));
  }
  if (!libm.empty()) {
    if (auto f = reinterpret_cast<void (*)(float, float*, float*)>(Sym(libs.libm, libm))) {
      auto b = SecondBuffer();
      v.push_back({"glibc", [f, b](const float* s, float* d, std::size_t n) {
                     float* d2 = b->data();
                     for (std::size_t i = 0; i < n; ++i) f(s[i], d + i, d2 + i);
                   }, b});
    }
  }
  return v;
}

// The implementations of a row with two inputs: ours, MKL VM (vms<stem>(n, a, b, r, mode)), SLEEF
// u10 and libmvec (vector functions of two vectors, `vv`), glibc's scalar <libm>(x1, x2) and Highway.
std::vector<Impl> BinaryImpls(const Row& row, const Libs& libs) {
  std::vector<Impl> v;
  v.push_back({"accelmath", {}, nullptr, [binary = row.binary](const float* a, const float* b, float* d, std::size_t n) {
                 binary(std::span<float>(d, n), std::span<const float>(a, n), std::span<const float>(b, n));
               }});
  if (*row.mkl && libs.mkl.lib) {
    using VmFn = void (*)(int, const float*, const float*, float*, long long);
    if (auto f = reinterpret_cast<VmFn>(Sym(libs.mkl.lib, std::string("vms") + row.mkl))) {
      constexpr long long kVmlHa = 0x2;
      v.push_back({"mkl_ha", {}, nullptr, [f](const float* a, const float* b, float* d, std::size_t n) {
                     f(static_cast<int>(n), a, b, d, kVmlHa);
                   }});
    }
  }
  const std::string libm = row.libm;
  if (!libm.empty() && g_target != Target::kNative) {
    const std::string stem = libm.back() == 'f' ? libm.substr(0, libm.size() - 1) : libm;
    const bool wide = g_target == Target::kAvx512;
    const std::string sleef = "Sleef_" + stem + (wide ? "f16_u10" : "f8_u10");
    void* f = Sym(libs.sleef, sleef + (wide ? "avx512f" : "avx2"));
    if (!f) f = Sym(libs.sleef, sleef);
    if (f) v.push_back(VectorBinaryImpl("sleef_u10", f));
    if (void* g = Sym(libs.mvec, (wide ? "_ZGVeN16vv_" : "_ZGVdN8vv_") + libm)) v.push_back(VectorBinaryImpl("libmvec", g));
  }
  if (!libm.empty()) {
    if (auto f = reinterpret_cast<float (*)(float, float)>(Sym(libs.libm, libm))) {
      v.push_back({"glibc", {}, nullptr, [f](const float* a, const float* b, float* d, std::size_t n) {
                     for (std::size_t i = 0; i < n; ++i) d[i] = f(a[i], b[i]);
                   }});
    }
  }
  if (std::string_view(row.hwy) != "none") v.push_back({"hwy", {}, nullptr, row.hwy_map2});
  return v;
}

std::vector<Impl> Impls(const Row& row, const Libs& libs) {
  if (row.pair) return PairImpls(row, libs);
  if (row.binary) return BinaryImpls(row, libs);
  std::vector<Impl> v;
  v.push_back({"accelmath", [array = row.array](const float* s, float* d, std::size_t n) {
                 array(std::span<float>(d, n), std::span<const float>(s, n));
               }});
  if (*row.mkl && libs.mkl.lib) {
    using VmFn = void (*)(int, const float*, float*, long long);
    if (auto f = reinterpret_cast<VmFn>(Sym(libs.mkl.lib, std::string("vms") + row.mkl))) {
      constexpr long long kVmlHa = 0x2;
      v.push_back({"mkl_ha", [f](const float* s, float* d, std::size_t n) { f(static_cast<int>(n), s, d, kVmlHa); }});
    }
  }
  const std::string libm = row.libm;
  if (!libm.empty() && g_target != Target::kNative) {
    const std::string stem = libm.back() == 'f' ? libm.substr(0, libm.size() - 1) : libm;
    const bool wide = g_target == Target::kAvx512;
    const std::string sleef = "Sleef_" + stem + (wide ? "f16_u10" : "f8_u10");
    void* f = Sym(libs.sleef, sleef + (wide ? "avx512f" : "avx2"));
    if (!f) f = Sym(libs.sleef, sleef);
    if (f) v.push_back({"sleef_u10", VectorImpl(f)});
    if (void* g = Sym(libs.mvec, (wide ? "_ZGVeN16v_" : "_ZGVdN8v_") + libm)) v.push_back({"libmvec", VectorImpl(g)});
  }
  if (!libm.empty()) {
    if (auto f = reinterpret_cast<float (*)(float)>(Sym(libs.libm, libm))) {
      v.push_back({"glibc", [f](const float* s, float* d, std::size_t n) {
                     for (std::size_t i = 0; i < n; ++i) d[i] = f(s[i]);
                   }});
    }
  }
  if (std::string_view(row.hwy) != "none") v.push_back({"hwy", row.hwy_map});
  return v;
}

// ---- the check before timing -------------------------------------------------------------------
double UlpError(float y, double r) {
  if (std::isnan(r) || std::isinf(r)) return (std::isnan(r) ? std::isnan(y) : y == r) ? 0 : INFINITY;
  if (!std::isfinite(y)) return INFINITY;
  const double ulp = std::max(std::ldexp(1.0, std::ilogb(std::max(std::fabs(r), 0x1p-126)) - 23), 0x1p-149);
  return std::fabs(y - r) / ulp;
}

// Every implementation against the reference on the first 4096 inputs of the pool (in2: the second
// inputs of a two-input row): the C library's binary64 function (exp for expf...) where the row
// names one, else accelmath (which the accuracy tests measure). An anchor off by more than 64 ulp on this input set is wrong there (Highway's sin
// beyond |x| 39000) or mis-declared: it is dropped from `impls` for this set, and the summary says
// so. Returns false, having said why, when accelmath itself is off by more than 64 ulp.
bool Check(const Row& row, std::vector<Impl>& impls, const std::vector<float>& in, const std::vector<float>& in2,
           const Libs& libs, std::string* summary) {
  const std::string libm = row.libm;
  void* ref = nullptr;  // double (*)(double), or double (*)(double, double) for two inputs
  if (!libm.empty() && libm.back() == 'f' && !row.pair) ref = Sym(libs.libm, libm.substr(0, libm.size() - 1));
  std::vector<double> want(in.size()), want2(in.size());
  std::vector<float> got(in.size()), got2(in.size());
  if (ref) {
    for (std::size_t i = 0; i < in.size(); ++i) {
      want[i] = row.binary ? reinterpret_cast<double (*)(double, double)>(ref)(in[i], in2[i])
                           : reinterpret_cast<double (*)(double)>(ref)(in[i]);
    }
  } else {
    const accelmath::Status s = row.pair ? row.pair(got, got2, in) : row.binary ? row.binary(got, in, in2) : row.array(got, in);
    if (s != accelmath::Status::kOk) {
      std::fprintf(stderr, "bench_math: accelmath::%s returned an error\n", row.name);
      return false;
    }
    std::copy(got.begin(), got.end(), want.begin());
    std::copy(got2.begin(), got2.end(), want2.begin());
  }
  bool ok = true;
  *summary = "max ulp vs " + (ref ? libm.substr(0, libm.size() - 1) + " (binary64)" : std::string("accelmath")) + " on " +
             std::to_string(in.size()) + " inputs:";
  std::vector<Impl> kept;
  for (const Impl& impl : impls) {
    std::fill(got.begin(), got.end(), NAN);
    if (impl.fn2) {
      impl.fn2(in.data(), in2.data(), got.data(), in.size());
    } else {
      impl.fn(in.data(), got.data(), in.size());
    }
    double worst = 0;
    std::size_t at = 0;
    for (std::size_t i = 0; i < in.size(); ++i) {
      double e = UlpError(got[i], want[i]);
      if (impl.second) e = std::max(e, UlpError((*impl.second)[i], want2[i]));  // a pair's second result too
      if (!(e <= worst)) worst = e, at = i;
    }
    char buf[64];
    std::snprintf(buf, sizeof buf, " %s %.2f", impl.label.c_str(), worst);
    *summary += buf;
    if (!(worst <= 64)) {
      std::fprintf(stderr, "bench_math: %s of %s is wrong: f(%a) = %a, reference (%s) %a (%g ulp)%s\n",
                   impl.label.c_str(), row.name, in[at], got[at], ref ? (libm.substr(0, libm.size() - 1) + ", binary64").c_str() : "accelmath",
                   want[at], worst, impl.label == "accelmath" ? "" : "; not timed on these inputs");
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
void Run(benchmark::State& state, const Impl& impl, const Range& range) {
  const std::size_t n = static_cast<std::size_t>(state.range(0));
  const std::size_t pool = std::max<std::size_t>(n, 1 << 16);
  const std::vector<float> in = Pool(range, pool);
  const std::vector<float> in2 = impl.fn2 ? Pool(range, pool, kSecondSeed) : std::vector<float>();
  std::vector<float> out(pool);
  std::size_t off = 0;
  for (auto _ : state) {
    if (impl.fn2) {
      impl.fn2(in.data() + off, in2.data() + off, out.data() + off, n);
    } else {
      impl.fn(in.data() + off, out.data() + off, n);
    }
    benchmark::DoNotOptimize(out.data());
    benchmark::ClobberMemory();
    off = (off + n) % pool;
  }
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations()) * static_cast<int64_t>(n));
}

const char* TargetName(Target t) { return t == Target::kAvx512 ? "avx512" : t == Target::kAvx2 ? "avx2" : "native"; }

// Parses and removes --target=...; restricts Highway's dispatch. Returns false on a bad request.
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
  if (g_target != Target::kNative && !libs.sleef) std::fprintf(stderr, "libsleef.so.3 not found: no sleef_u10 anchor\n");
  if (g_target != Target::kNative && !libs.mvec) std::fprintf(stderr, "libmvec.so.1 not found: no libmvec anchor\n");

  bool ok = true;
  std::string order;  // the timed cases in registry order, for bench/math_ratios.py
  for (const Row& row : kRows) {
    bool fallback = false;
    const Range range = InputRange(row, &fallback);
    if (fallback) {
      std::fprintf(stderr, "bench_math: no input rule fits %s; timing it on %s (add it to kRangeOverrides)\n",
                   row.name, range.Describe().c_str());
    }
    const std::vector<Impl> all_impls = Impls(row, libs);
    // The row's input set, then its extra ones ("sin@huge"), each checked and timed alike.
    std::vector<std::pair<std::string, Range>> cases = {{row.name, range}};
    for (const auto& e : kExtraRanges) {
      if (e.name == row.name) cases.emplace_back(std::string(row.name) + "@" + std::string(e.label), e.range);
    }
    for (const auto& [name, r] : cases) {
      std::string summary;
      std::vector<Impl> impls = all_impls;
      ok = Check(row, impls, Pool(r, 4096), Pool(r, 4096, kSecondSeed), libs, &summary) && ok;
      benchmark::AddCustomContext("inputs_" + name, (row.binary ? "each input, independently: " : "") + r.Describe());
      benchmark::AddCustomContext("check_" + name, summary);
      for (const Impl& impl : impls) {
        benchmark::RegisterBenchmark((name + "/" + impl.label).c_str(), [impl, r = r](benchmark::State& s) { Run(s, impl, r); })
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
  if (libs.mkl.lib) benchmark::AddCustomContext("mkl_vm_library", MklVmLibrary());
  benchmark::AddCustomContext("mkl_mode", "VML_HA (vms* with mode 0x2), MKL_THREADING_LAYER=SEQUENTIAL");
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
