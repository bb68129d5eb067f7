// Helpers shared by all kernels: polynomial evaluation, NaN and sign handling, 8/16-entry table
// lookups.
//
// Like every *-inl.h here, this file is included by a translation unit that has defined
// ACCELMATH_KNS: Highway's HWY_NAMESPACE in the per-target SIMD code (src/dispatch/), or `lane`
// for the scalar shim (src/backend/scalar_lane.h). The guard below re-arms for every Highway target.
#if defined(ACCELMATH_KERNELS_COMMON_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef ACCELMATH_KERNELS_COMMON_INL_H_
#undef ACCELMATH_KERNELS_COMMON_INL_H_
#else
#define ACCELMATH_KERNELS_COMMON_INL_H_
#endif

#include <array>
#include <cstddef>
#include <limits>
#include <type_traits>
#include <utility>

#include "kernels/float_bits.h"
#include "kernels/kernel_api.h"

// Every lookup is forced inline on the host (see exp_log-inl.h: a call per vector is slower).
#ifndef ACCELMATH_LOOKUP_INLINE
#if defined(__CUDACC__)
#define ACCELMATH_LOOKUP_INLINE
#else
#define ACCELMATH_LOOKUP_INLINE __attribute__((always_inline))
#endif
#endif

namespace accelmath::ACCELMATH_KNS {

namespace detail {
template <class D, class V, typename T, size_t N, size_t... I>
ACCELMATH_KERNEL V HornerImpl(D d, V x, const std::array<T, N>& c, std::index_sequence<I...>) {
  V acc = Set(d, c[N - 1]);
  ((acc = MulAdd(acc, x, Set(d, c[N - 2 - I]))), ...);
  return acc;
}

template <class D, class V, typename T, size_t N, size_t... I>
ACCELMATH_KERNEL void Horner2Impl(D d, V x0, V x1, const std::array<T, N>& c, V& y0, V& y1,
                                  std::index_sequence<I...>) {
  y0 = Set(d, c[N - 1]);
  y1 = y0;
  ((y0 = MulAdd(y0, x0, Set(d, c[N - 2 - I])), y1 = MulAdd(y1, x1, Set(d, c[N - 2 - I]))), ...);
}

// sum_{i < N} coef(I0 + i) x^i as a balanced tree: the low 2^k terms plus x^(2^k) times the rest,
// 2^k the largest power of two below N; x2, x4, x8, x16 are the powers of x. No arrays of
// vectors (they are sizeless on SVE).
template <size_t I0, size_t N, class V, class Coef>
ACCELMATH_KERNEL V EstrinPart(const Coef& coef, V x, V x2, V x4, V x8, V x16) {
  if constexpr (N == 1) {
    return coef(I0);
  } else if constexpr (N == 2) {
    return MulAdd(coef(I0 + 1), x, coef(I0));
  } else {
    constexpr size_t H = N > 16 ? 16 : N > 8 ? 8 : N > 4 ? 4 : 2;
    const V xh = H == 16 ? x16 : H == 8 ? x8 : H == 4 ? x4 : x2;
    const V lo = EstrinPart<I0, H>(coef, x, x2, x4, x8, x16);
    const V hi = EstrinPart<I0 + H, N - H>(coef, x, x2, x4, x8, x16);
    return MulAdd(hi, xh, lo);
  }
}

// EstrinPart at x (coefficients coef0) and at y (coef1) at once: r0, r1 are EstrinPart's values,
// the two trees' steps written alternately (see Estrin2).
template <size_t I0, size_t N, class V, class Coef0, class Coef1>
ACCELMATH_KERNEL void EstrinPart2(const Coef0& coef0, const Coef1& coef1, V x, V x2, V x4, V x8, V y, V y2, V y4, V y8,
                                  V& r0, V& r1) {
  static_assert(N <= 16);
  if constexpr (N == 1) {
    r0 = coef0(I0);
    r1 = coef1(I0);
  } else if constexpr (N == 2) {
    r0 = MulAdd(coef0(I0 + 1), x, coef0(I0));
    r1 = MulAdd(coef1(I0 + 1), y, coef1(I0));
  } else {
    constexpr size_t H = N > 8 ? 8 : N > 4 ? 4 : 2;
    V lo0, lo1, hi0, hi1;
    EstrinPart2<I0, H>(coef0, coef1, x, x2, x4, x8, y, y2, y4, y8, lo0, lo1);
    EstrinPart2<I0 + H, N - H>(coef0, coef1, x, x2, x4, x8, y, y2, y4, y8, hi0, hi1);
    r0 = MulAdd(hi0, H == 8 ? x8 : H == 4 ? x4 : x2, lo0);
    r1 = MulAdd(hi1, H == 8 ? y8 : H == 4 ? y4 : y2, lo1);
  }
}

// Estrin at x and at y (at most 16 coefficients): r0, r1 hold the same bits as Estrin at each.
template <size_t N, class V, class Coef0, class Coef1>
ACCELMATH_KERNEL void Estrin2(const Coef0& coef0, const Coef1& coef1, V x, V y, V& r0, V& r1) {
  static_assert(N >= 2 && N <= 16);
  const V x2 = Mul(x, x);
  const V y2 = Mul(y, y);
  const V x4 = N > 4 ? Mul(x2, x2) : x2;
  const V y4 = N > 4 ? Mul(y2, y2) : y2;
  const V x8 = N > 8 ? Mul(x4, x4) : x4;
  const V y8 = N > 8 ? Mul(y4, y4) : y4;
  EstrinPart2<0, N>(coef0, coef1, x, x2, x4, x8, y, y2, y4, y8, r0, r1);
}

template <size_t N, class V, class Coef>
ACCELMATH_KERNEL V Estrin(const Coef& coef, V x) {
  static_assert(N >= 2 && N <= 32);
  const V x2 = Mul(x, x);
  const V x4 = N > 4 ? Mul(x2, x2) : x2;
  const V x8 = N > 8 ? Mul(x4, x4) : x4;
  const V x16 = N > 16 ? Mul(x8, x8) : x8;
  return EstrinPart<0, N>(coef, x, x2, x4, x8, x16);
}
}  // namespace detail

// c[0] + x (c[1] + x (c[2] + ...)), one fused multiply-add per coefficient (Horner): the
// evaluation order the proposal's configuration prescribes.
template <class D, class V, typename T, size_t N>
ACCELMATH_KERNEL V Horner(D d, V x, const std::array<T, N>& c) {
  static_assert(N >= 2);
  return detail::HornerImpl(d, x, c, std::make_index_sequence<N - 1>());
}

// Horner's scheme at x0 and at x1 (y0, y1: the same operations as Horner at each), the two chains'
// steps written alternately, so that the code a compiler emits for them interleaves (see TanF32Pair).
template <class D, class V, typename T, size_t N>
ACCELMATH_KERNEL void Horner2(D d, V x0, V x1, const std::array<T, N>& c, V& y0, V& y1) {
  static_assert(N >= 2);
  detail::Horner2Impl(d, x0, x1, c, y0, y1, std::make_index_sequence<N - 1>());
}

// r, or x quieted (x + x keeps its sign and payload) where x is NaN: a NaN input comes out as that
// NaN by a select, not by whichever operand an operation propagates (SIMD instructions, std::fma and
// a compiler's reordering differ there, and a signaling NaN may or may not be quieted on the way).
template <class V>
ACCELMATH_KERNEL V KeepNaN(V x, V r) {
  return IfThenElse(Eq(x, x), r, Add(x, x));
}

// r, or the canonical quiet NaN where r is NaN: for a NaN made from numbers (sqrt(-1), inf - inf),
// whose bits differ between targets (x86's default NaN is negative, Arm's and CUDA's are not).
template <typename T>
inline constexpr T kCanonicalNaN = std::numeric_limits<T>::quiet_NaN();  // 0x7fc00000 / 0x7ff8...
template <class D, class V>
ACCELMATH_KERNEL V CanonicalNaN(D d, V r) {
  return IfThenElse(Eq(r, r), r, Set(d, kCanonicalNaN<TFromD<D>>));
}

// r where `in` (a mask of lanes inside the function's domain, false for NaN x), else KeepNaN's
// NaN where x is NaN and the canonical NaN elsewhere: the results a NaN made from numbers would
// give differ between targets. A vector with every lane in the domain returns r after one test,
// no select.
template <class D, class M, class V>
ACCELMATH_KERNEL V InDomainOrNaN(D d, M in, V x, V r) {
  if (AllTrue(d, in)) return r;
  return KeepNaN(x, IfThenElse(in, r, Set(d, kCanonicalNaN<TFromD<D>>)));
}

// The sign bit of x alone (+0 or -0 as a pattern), in float32 or binary64 lanes.
template <class D, class V>
ACCELMATH_KERNEL V SignOf(D d, V x) {
  const RebindToUnsigned<D> du;
  using Bits = typename kernels::FloatBits<TFromD<D>>::Bits;
  return BitCast(d, And(BitCast(du, x), Set(du, Bits{1} << (sizeof(Bits) * 8 - 1))));
}

// r (>= 0 or NaN) with the sign bit `sign` (SignOf) put on.
template <class D, class V>
ACCELMATH_KERNEL V WithSign(D d, V r, V sign) {
  const RebindToUnsigned<D> du;
  return BitCast(d, Or(BitCast(du, r), BitCast(du, sign)));
}

// The same polynomial by Estrin's scheme (pairs c[2i] + c[2i+1] x, then combined with x^2, x^4,
// ...): the same number of fmas plus log2(N) squarings, but a dependency chain of ~log2(N)
// operations instead of N, which is what limits throughput in kernels this long.
template <class D, class V, typename T, size_t N>
ACCELMATH_KERNEL V Estrin(D d, V x, const std::array<T, N>& c) {
  return detail::Estrin<N>([&](size_t i) { return Set(d, c[i]); }, x);
}

// Estrin's scheme at x0 and at x1 (y0, y1: the same operations as Estrin at each), the two trees'
// steps written alternately, so that the code a compiler emits for them interleaves (see TanF32Pair).
template <class D, class V, typename T, size_t N>
ACCELMATH_KERNEL void Estrin2(D d, V x0, V x1, const std::array<T, N>& c, V& y0, V& y1) {
  const auto coef = [&](size_t i) { return Set(d, c[i]); };
  detail::Estrin2<N>(coef, coef, x0, x1, y0, y1);
}

// Estrin with per-lane coefficients: lanes where pick_a is true use table a, the others table b.
// One evaluation instead of two when lanes fall in different pieces of a piecewise fit.
template <class D, class M, class V, typename T, size_t N>
ACCELMATH_KERNEL V EstrinSelect(D d, M pick_a, V x, const std::array<T, N>& a, const std::array<T, N>& b) {
  return detail::Estrin<N>([&](size_t i) { return IfThenElse(pick_a, Set(d, a[i]), Set(d, b[i])); }, x);
}

// ACCELMATH_X86_AVX3: this pass compiles for one of Highway's AVX-512 targets (512-bit vectors,
// mask registers); set anew for every target this header is compiled for.
#undef ACCELMATH_X86_AVX3
#if defined(HWY_TARGET) && defined(HWY_AVX3) && \
    (HWY_TARGET == HWY_AVX3 || HWY_TARGET == HWY_AVX3_DL || (defined(HWY_AVX3_ZEN4) && HWY_TARGET == HWY_AVX3_ZEN4) || \
     (defined(HWY_AVX3_SPR) && HWY_TARGET == HWY_AVX3_SPR))
#define ACCELMATH_X86_AVX3 1
#endif
// t[idx mod 2^kBits] in every lane of a float32 vector (kBits = 3 or 4; idx: unsigned 32-bit lanes,
// only the low kBits bits count; t: 16 entries, an 8-entry table repeated twice): one vpermps on
// AVX-512 (which reads 4 index bits); on AVX2 one vpermps (3 bits) for 8 entries, two and a blend
// on bit 3 for 16; an array read on the scalar lane. The same entries, hence the same bits.
template <int kBits, class D, class VU>
ACCELMATH_KERNEL ACCELMATH_LOOKUP_INLINE auto LookupF(D d, const std::array<float, 16>& t, VU idx) {
  static_assert(kBits == 3 || kBits == 4);
#ifdef ACCELMATH_X86_AVX3
  if constexpr (std::is_same_v<decltype(Zero(d)), hwy::HWY_NAMESPACE::Vec512<float>>) {
    return decltype(Zero(d)){_mm512_permutexvar_ps(idx.raw, LoadU(d, t.data()).raw)};
  } else  // NOLINT
#endif
#if defined(HWY_TARGET) && defined(HWY_AVX2) && HWY_TARGET == HWY_AVX2
  if constexpr (std::is_same_v<decltype(Zero(d)), hwy::HWY_NAMESPACE::Vec256<float>>) {
    const __m256 lo = _mm256_permutevar8x32_ps(LoadU(d, t.data()).raw, idx.raw);
    if constexpr (kBits == 3) {
      return decltype(Zero(d)){lo};
    } else {
      const __m256 hi = _mm256_permutevar8x32_ps(LoadU(d, t.data() + 8).raw, idx.raw);
      const __m256 bit3 = _mm256_castsi256_ps(_mm256_slli_epi32(idx.raw, 28));  // sign bit = idx bit 3
      return decltype(Zero(d)){_mm256_blendv_ps(lo, hi, bit3)};
    }
  } else  // NOLINT
#endif
  {
    const RebindToUnsigned<D> du;
    const RebindToSigned<D> di;
    return GatherIndex(d, t.data(), BitCast(di, And(idx, Set(du, uint32_t{(1u << kBits) - 1}))));
  }
}

// An 8-entry table repeated twice (the 16-entry form LookupF<3> reads).
constexpr std::array<float, 16> Twice8(const std::array<float, 8>& t) {
  std::array<float, 16> r{};
  for (int i = 0; i < 16; ++i) r[i] = t[i & 7];
  return r;
}

// Piecewise float32 polynomials, eight rows chosen per lane (erf, erfinv and erfcinv's centre): row k
// of each table, 8-entry tables repeated twice for LookupF<3>. A row is either "low" (the piece at
// 0: f(a) = a + a P(a^2)) or f(a) = hi + lo + t P(t), t = a - x_k; P of degree N - 1, its constant
// term as two floats c[0] + c0lo (c0lo = 0 in the low rows).
template <size_t N>
struct PieceTables {
  std::array<float, 16> x, hi, lo, c0lo;
  std::array<std::array<float, 16>, N> c;
};
template <size_t N>
constexpr PieceTables<N> MakePieceTables(const std::array<float, 8>& x, const std::array<float, 8>& hi,
                                         const std::array<float, 8>& lo, const std::array<float, 8>& c0lo,
                                         const std::array<std::array<float, 8>, N>& c) {
  PieceTables<N> t{Twice8(x), Twice8(hi), Twice8(lo), Twice8(c0lo), {}};
  for (size_t i = 0; i < N; ++i) t.c[i] = Twice8(c[i]);
  return t;
}

// f(a) on row k (low: the lanes whose row is a low one), given t (a - x_k, plus whatever the caller
// adds): z = a^2 in low rows, t elsewhere; q = c1 + c2 z + ... (Horner); s = t c0 + z (t q + c0lo) + lo
// (three fmas: the largest part of s, t c0, rounded once); f = s + hi (hi = a in low rows). Where
// |s| < |f|/4, s's rounding costs at most 1/8 ulp of f; the callers' comments give their bounds.
template <size_t N, class D, class V, class VU, class M>
ACCELMATH_KERNEL ACCELMATH_LOOKUP_INLINE V PieceValue(D d, const PieceTables<N>& tab, VU k, M low, V a, V t) {
  static_assert(N >= 3);
  const V z = IfThenElse(low, Mul(a, a), t);
  V q = MulAdd(LookupF<3>(d, tab.c[N - 1], k), z, LookupF<3>(d, tab.c[N - 2], k));
  for (size_t i = N - 2; i-- > 1;) q = MulAdd(q, z, LookupF<3>(d, tab.c[i], k));
  const V u = MulAdd(z, MulAdd(t, q, LookupF<3>(d, tab.c0lo, k)), LookupF<3>(d, tab.lo, k));
  const V s = MulAdd(t, LookupF<3>(d, tab.c[0], k), u);
  return Add(s, IfThenElse(low, a, LookupF<3>(d, tab.hi, k)));
}

}  // namespace accelmath::ACCELMATH_KNS

#endif  // ACCELMATH_KERNELS_COMMON_INL_H_ toggle
