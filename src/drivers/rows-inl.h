// The SumOfSquares driver (Rows rows of the registry: norm, rnorm), per Highway target: for each row
// of n floats its sum of squares s in binary64, then the row's kernel k(d, s) on a vector of rows'
// sums, rounded once to float32.
//
// The sum has the same bits on every target and on the scalar lane (lane_functions.h, EvalRows), as
// drivers/sum_tree.h defines it: 16 partial sums, element j of the row going into partial j % 16 by
// partial = fma(x, x, partial) (x widened exactly; its square is exact, so each step rounds once),
// combined by one fixed tree (p[i] + p[i + 8], then + 4, + 2, + 1), +inf if any element is
// infinite, +0 for an empty row. Two loops follow it in vector form:
//  - rows of more than 16 elements, one at a time (RowSumOfSquares): the 16 partials are kV vectors
//    of kN binary64 lanes (AVX-512: 2 of 8, AVX2: 4 of 4, NEON: 8 of 2), lane l of vector v being
//    partial v kN + l, so the row is read 16 elements at a time straight into the partials (the last
//    chunk with masked loads: an absent element is 0, and fma(0, 0, p) = p); the tree's first levels
//    add whole vectors (partial i + 8 is vector v + kV / 2), the last ones the lanes of the last.
//    Infinite elements are looked for only when the sum is not finite (an infinite element makes it
//    +inf or NaN; finite elements never overflow binary64: at most 2^256 each);
//  - rows of at most 16 elements, Lanes rows at a time, one per lane (ShortRows).
// Rows are read in order and each batch's results written after its rows are read, so dst may be
// src itself (dst[r] lies at or before the start of row r when n >= 1).
#if defined(ACCELMATH_DRIVERS_ROWS_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef ACCELMATH_DRIVERS_ROWS_INL_H_
#undef ACCELMATH_DRIVERS_ROWS_INL_H_
#else
#define ACCELMATH_DRIVERS_ROWS_INL_H_
#endif

#include <hwy/highway.h>

#include <cstring>
#include <limits>

#include "accelmath/registry.h"

HWY_BEFORE_NAMESPACE();
namespace accelmath::HWY_NAMESPACE {

// Vectors of at most 16 partial sums (a scalable target: 2, the width every one of them has).
using PartialsTag = CappedTag<double, HWY_HAVE_SCALABLE ? 2 : 16>;

// The sum of squares of row[0 .. n) as described above (da: a PartialsTag).
template <class DA>
HWY_INLINE double RowSumOfSquares(DA da, const float* row, size_t n) {
  const Rebind<float, DA> df;
  constexpr size_t kN = MaxLanes(da);
  static_assert(kN >= 2 && kN <= 8 && 16 % kN == 0, "16 partials in 2 to 8 whole vectors");
  constexpr size_t kV = 16 / kN;
  auto p0 = Zero(da), p1 = Zero(da), p2 = Zero(da), p3 = Zero(da), p4 = Zero(da), p5 = Zero(da), p6 = Zero(da),
       p7 = Zero(da);
  const auto step = [&](auto& acc, const float* x32) HWY_ATTR {
    const auto x = PromoteTo(da, LoadU(df, x32));
    acc = MulAdd(x, x, acc);
  };
  // The last, partial chunk of rem < 16 elements: vector v holds those of [v kN, v kN + kN) that
  // exist (the others are 0, which leaves a partial as it is); vectors past the row are skipped.
  const auto step_first = [&](auto& acc, const float* x32, size_t v, size_t rem) HWY_ATTR {
    if (v * kN >= rem) return;
    const auto x = PromoteTo(da, MaskedLoad(FirstN(df, rem - v * kN), df, x32 + v * kN));
    acc = MulAdd(x, x, acc);
  };
  // Elements x[0 .. 16) into the 16 partials, or the first rem of them.
  const auto chunk = [&](const float* x, size_t rem) HWY_ATTR {
    if (rem == 16) {
      step(p0, x);
      step(p1, x + kN);
      if constexpr (kV > 2) step(p2, x + 2 * kN), step(p3, x + 3 * kN);
      if constexpr (kV > 4) step(p4, x + 4 * kN), step(p5, x + 5 * kN), step(p6, x + 6 * kN), step(p7, x + 7 * kN);
    } else {
      step_first(p0, x, 0, rem);
      step_first(p1, x, 1, rem);
      if constexpr (kV > 2) step_first(p2, x, 2, rem), step_first(p3, x, 3, rem);
      if constexpr (kV > 4) step_first(p4, x, 4, rem), step_first(p5, x, 5, rem), step_first(p6, x, 6, rem), step_first(p7, x, 7, rem);
    }
  };
  size_t j = 0;
  for (; j + 16 <= n; j += 16) chunk(row + j, 16);
  if (j < n) chunk(row + j, n - j);
  // The tree (drivers/sum_tree.h) over whole vectors while the partials span several (partial
  // i + 8 is in vector v + kV / 2, ...), then over the lanes of the last one.
  if constexpr (kV == 8) {
    p0 = Add(p0, p4), p1 = Add(p1, p5), p2 = Add(p2, p6), p3 = Add(p3, p7);
  }
  if constexpr (kV >= 4) {
    p0 = Add(p0, p2), p1 = Add(p1, p3);
  }
  p0 = Add(p0, p1);
  HWY_ALIGN double t[kN];
  Store(p0, da, t);
  for (size_t w = kN / 2; w >= 1; w /= 2) {
    for (size_t i = 0; i < w; ++i) t[i] = t[i] + t[i + w];
  }
  double s = t[0];
  bool any_infinite = false;
  if (!(s < std::numeric_limits<double>::infinity())) {  // +inf or NaN: an infinite element?
    const Rebind<uint32_t, DA> du;
    const auto inf_bits = Set(du, 0x7F800000u);
    for (j = 0; j + kN <= n; j += kN) {
      const auto bits = And(BitCast(du, LoadU(df, row + j)), Set(du, 0x7FFFFFFFu));
      any_infinite = any_infinite || !AllFalse(du, Eq(bits, inf_bits));
    }
    for (; j < n; ++j) {
      uint32_t bits;
      std::memcpy(&bits, row + j, 4);
      any_infinite = any_infinite || (bits & 0x7FFFFFFFu) == 0x7F800000u;
    }
    if (any_infinite) s = std::numeric_limits<double>::infinity();
  }
  return s;
}

// Rows of at most 16 elements, Lanes(dd) rows at a time, one row per lane: element j of each row is
// gathered (a row per lane, j the same for all), its square is its partial (fma(x, x, +0) = x^2,
// exact in binary64), absent elements are +0, and the fixed tree runs on whole vectors. The same
// operations in the same order as RowSumOfSquares, row by row, so the same bits. A per-row loop
// spends most of its time on the 16 partials of a row of 3; this spends it on the row's elements.
template <class K>
HWY_INLINE void ShortRows(const K& k, const float* src, float* dst, size_t count, size_t n) {
  const ScalableTag<double> dd;
  const Rebind<float, decltype(dd)> df;
  const RebindToSigned<decltype(df)> di;
  const size_t N = Lanes(dd);
  const auto inf = Set(dd, std::numeric_limits<double>::infinity());
  for (size_t r = 0; r < count; r += N) {
    const size_t m = HWY_MIN(N, count - r);
    // Lane l reads row r + l; lanes past the last row read the last row again (never past src's end).
    const auto offsets = Mul(Min(Iota(di, 0), Set(di, int32_t(m - 1))), Set(di, int32_t(n)));
    const float* base = src + r * n;
    auto any_infinite = Lt(inf, inf);  // all false
    const auto square = [&](size_t j) HWY_ATTR {
      if (j >= n) return Zero(dd);
      const auto x = PromoteTo(dd, GatherIndex(df, base + j, offsets));
      any_infinite = Or(any_infinite, Eq(Abs(x), inf));
      return Mul(x, x);
    };
    // drivers/sum_tree.h: p[i] + p[i + 8], then + 4, + 2, + 1. A subtree whose first partial is
    // past the row is +0, and adding +0 to a partial (>= +0, or NaN) leaves it as it is: skipped.
    const auto t8 = [&](size_t i) HWY_ATTR { return i + 8 < n ? Add(square(i), square(i + 8)) : square(i); };
    const auto t4 = [&](size_t i) HWY_ATTR { return i + 4 < n ? Add(t8(i), t8(i + 4)) : t8(i); };
    const auto t2 = [&](size_t i) HWY_ATTR { return i + 2 < n ? Add(t4(i), t4(i + 2)) : t4(i); };
    const auto sum = 1 < n ? Add(t2(0), t2(1)) : t2(0);
    const auto y = DemoteTo(df, k(dd, IfThenElse(any_infinite, inf, sum)));
    if (m == N) {
      StoreU(y, df, dst + r);
    } else {
      BlendedStore(y, FirstN(df, m), df, dst + r);
    }
  }
}

// dst[r] = k(the sum of squares of src[r n .. r n + n)) for r < count (the array loop of every
// SumOfSquares row; src/dispatch/family-inl.h).
template <Eval E, Shape S, class K>
HWY_INLINE void SumOfSquaresArray(const K& k, void* const* out, const void* const* in, size_t count, size_t n) {
  static_assert(S == Shape::kRows, "the SumOfSquares driver computes one result per row");
  static_assert(E == Eval::kF64, "the SumOfSquares driver sums in binary64");
  const float* src = static_cast<const float*>(in[0]);
  float* dst = static_cast<float*>(out[0]);
  if (n <= 16) return ShortRows(k, src, dst, count, n);
  const ScalableTag<double> dd;
  const Rebind<float, decltype(dd)> df;
  const size_t N = Lanes(dd);
  HWY_ALIGN double s[HWY_MAX_BYTES / sizeof(double)];
  HWY_ALIGN float y[HWY_MAX_BYTES / sizeof(double)];
  for (size_t r = 0; r < count; r += N) {
    const size_t m = HWY_MIN(N, count - r);
    for (size_t q = 0; q < N; ++q) s[q] = q < m ? RowSumOfSquares(PartialsTag(), src + (r + q) * n, n) : 0.0;
    const auto result = DemoteTo(df, k(dd, Load(dd, s)));
    if (m == N) {
      StoreU(result, df, dst + r);
    } else {
      Store(result, df, y);
      std::memcpy(dst + r, y, m * sizeof(float));
    }
  }
}

}  // namespace accelmath::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#endif  // ACCELMATH_DRIVERS_ROWS_INL_H_ toggle
