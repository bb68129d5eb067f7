// The SumOfSquares driver (Rows rows of the registry: norm, rnorm), per Highway target: for each row
// of n floats its sum of squares s in binary64, then the row's kernel k(d, s) on a vector of rows'
// sums, rounded once to float32.
//
// The sum has the same bits on every target and on the scalar lane (lane_functions.h, EvalRows):
// 16 partial sums, element j of the row going into partial j % 16 by partial = fma(x, x, partial)
// (x widened exactly; its square is exact, so each step rounds once), the 16 combined by one fixed
// tree (drivers/sum_tree.h), +inf if any element is infinite, +0 for an empty row. Here the 16
// partials are kV vectors of kN binary64 lanes (AVX-512: 2 of 8, AVX2: 4 of 4, NEON: 8 of 2): lane
// l of vector v is partial v kN + l, so a row is read 16 elements at a time, straight into the
// partials; the last partial chunk is read from a zero-filled copy (0 = fma(0, 0, 0) leaves a
// partial as it is). Infinite elements are looked for only when a row's sum is not finite (an
// infinite element makes it +inf or NaN; finite elements never overflow binary64: 2^256 per square).
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
#include "drivers/sum_tree.h"

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
  // Elements x[0 .. 16) into the 16 partials.
  const auto chunk = [&](const float* x) HWY_ATTR {
    step(p0, x);
    step(p1, x + kN);
    if constexpr (kV > 2) {
      step(p2, x + 2 * kN);
      step(p3, x + 3 * kN);
    }
    if constexpr (kV > 4) {
      step(p4, x + 4 * kN);
      step(p5, x + 5 * kN);
      step(p6, x + 6 * kN);
      step(p7, x + 7 * kN);
    }
  };
  size_t j = 0;
  for (; j + 16 <= n; j += 16) chunk(row + j);
  if (j < n) {
    HWY_ALIGN float tail[16] = {};
    std::memcpy(tail, row + j, (n - j) * sizeof(float));
    chunk(tail);
  }
  HWY_ALIGN double p[16];
  Store(p0, da, p);
  Store(p1, da, p + kN);
  if constexpr (kV > 2) {
    Store(p2, da, p + 2 * kN);
    Store(p3, da, p + 3 * kN);
  }
  if constexpr (kV > 4) {
    Store(p4, da, p + 4 * kN);
    Store(p5, da, p + 5 * kN);
    Store(p6, da, p + 6 * kN);
    Store(p7, da, p + 7 * kN);
  }
  bool any_infinite = false;
  double s = ::accelmath::detail::SumOfSquaresTree(p, false);
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

// dst[r] = k(the sum of squares of src[r n .. r n + n)) for r < count (the array loop of every
// SumOfSquares row; src/dispatch/family-inl.h).
template <Eval E, Shape S, class K>
HWY_INLINE void SumOfSquaresArray(const K& k, void* const* out, const void* const* in, size_t count, size_t n) {
  static_assert(S == Shape::kRows, "the SumOfSquares driver computes one result per row");
  static_assert(E == Eval::kF64, "the SumOfSquares driver sums in binary64");
  const float* src = static_cast<const float*>(in[0]);
  float* dst = static_cast<float*>(out[0]);
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
