// The split driver (Split rows of the registry), per Highway target: a cheap common region that
// most inputs hit, and a rare, expensive one. In blocks of kBlock elements, every lane gets the
// common formula (two vectors at a time, interleaved: backend/pair-inl.h) and is stored; the lanes
// outside the common region are appended to a small buffer without a branch (a branch on "any rare
// lane?" mispredicts when the rare lanes are scattered), evaluated densely by the rare formula, and
// scattered back over the common values. The same per-lane functions as SplitEval
// (drivers/eval-inl.h), so the same bits as the scalar lane. The partial last vector uses masked
// loads and stores, so nothing past n is touched. binary64 evaluation only (every row so far).
#if defined(ACCELMATH_DRIVERS_SPLIT_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef ACCELMATH_DRIVERS_SPLIT_INL_H_
#undef ACCELMATH_DRIVERS_SPLIT_INL_H_
#else
#define ACCELMATH_DRIVERS_SPLIT_INL_H_
#endif

#include <hwy/highway.h>

#include <array>

#include "accelmath/registry.h"
#include "backend/pair-inl.h"

HWY_BEFORE_NAMESPACE();
namespace accelmath::HWY_NAMESPACE {

#if HWY_TARGET == HWY_AVX2
// AVX2 has no compress instruction and Highway 1.0.3's CompressStore for 64-bit lanes copies its
// lookup table onto the stack on every call, so: our own table, built at compile time. Row m
// (bit l set = lane l is wanted) lists the wanted lanes first, as pairs of 32-bit lane indices
// for TableLookupLanes on the vector viewed as 8 x u32.
constexpr auto kCompress4x64 = [] {
  std::array<uint32_t, 16 * 8> t{};
  for (uint32_t m = 0; m < 16; ++m) {
    uint32_t pos = 0;
    for (uint32_t pass = 0; pass < 2; ++pass) {
      for (uint32_t l = 0; l < 4; ++l) {
        if (((m >> l) & 1) == (pass == 0 ? 1u : 0u)) t[m * 8 + 2 * pos] = 2 * l, t[m * 8 + 2 * pos + 1] = 2 * l + 1, ++pos;
      }
    }
  }
  return t;
}();
#endif

// Appends the lanes of v (and of w) selected by `take` at out_v (out_w); returns how many.
// May write a whole vector there, past the appended lanes.
template <class D, class M, class V>
HWY_INLINE size_t Append(D d, M take, V v, V w, TFromD<D>* out_v, TFromD<D>* out_w) {
#if HWY_TARGET == HWY_AVX2
  uint8_t bits[8] = {};
  StoreMaskBits(d, take, bits);
  const Repartition<uint32_t, D> du32;
  const auto idx = IndicesFromVec(du32, LoadU(du32, kCompress4x64.data() + 8 * bits[0]));
  StoreU(BitCast(d, TableLookupLanes(BitCast(du32, v), idx)), d, out_v);
  StoreU(BitCast(d, TableLookupLanes(BitCast(du32, w), idx)), d, out_w);
  return CountTrue(d, take);
#else
  CompressStore(w, take, d, out_w);
  return CompressStore(v, take, d, out_v);
#endif
}

template <Eval E, class K>
HWY_INLINE void SplitUnary(const K& k, const float* HWY_RESTRICT src, float* HWY_RESTRICT dst, size_t n) {
  static_assert(E == Eval::kF64, "the split driver evaluates in binary64 lanes");
  const ScalableTag<double> dd;
  const Rebind<float, decltype(dd)> df;
  const size_t N = Lanes(dd);
  constexpr size_t kBlock = 512;
  constexpr size_t kSlack = HWY_MAX_BYTES / sizeof(double);  // appends write whole vectors
  HWY_ALIGN double rare_x[kBlock + kSlack] = {};
  HWY_ALIGN double rare_i[kBlock + kSlack];
  HWY_ALIGN float rare_y[kBlock + kSlack];
  const auto iota = Iota(dd, 0.0);
  for (size_t b = 0; b < n; b += kBlock) {
    const size_t m = HWY_MIN(kBlock, n - b);
    size_t nr = 0;
    size_t i = 0;
    for (; i + 2 * N <= m; i += 2 * N) {
      const auto x0 = PromoteTo(dd, LoadU(df, src + b + i));
      const auto x1 = PromoteTo(dd, LoadU(df, src + b + i + N));
      const auto c0 = k.IsCommon(dd, x0), c1 = k.IsCommon(dd, x1);
      const auto y = k.Common(Pair<decltype(dd)>{dd}, PairVec<decltype(dd)>{x0, x1});
      StoreU(DemoteTo(df, y.a), df, dst + b + i);
      StoreU(DemoteTo(df, y.b), df, dst + b + i + N);
      nr += Append(dd, Not(c0), x0, Add(iota, Set(dd, double(i))), rare_x + nr, rare_i + nr);
      nr += Append(dd, Not(c1), x1, Add(iota, Set(dd, double(i + N))), rare_x + nr, rare_i + nr);
    }
    for (; i < m; i += N) {  // at most one full and one partial vector
      const size_t r = HWY_MIN(N, m - i);
      const auto live = FirstN(df, r);
      const auto x = PromoteTo(dd, MaskedLoad(live, df, src + b + i));
      BlendedStore(DemoteTo(df, k.Common(dd, x)), live, df, dst + b + i);
      const auto take = AndNot(k.IsCommon(dd, x), FirstN(dd, r));
      nr += Append(dd, take, x, Add(iota, Set(dd, double(i))), rare_x + nr, rare_i + nr);
    }
    for (size_t j = 0; j < nr; j += N) {
      StoreU(DemoteTo(df, k.Rare(dd, LoadU(dd, rare_x + j))), df, rare_y + j);
    }
    for (size_t j = 0; j < nr; ++j) dst[b + static_cast<size_t>(rare_i[j])] = rare_y[j];
  }
}

// The array loop of a Split row (src/dispatch/family-inl.h's one signature for every driver).
template <Eval E, Shape S, class K>
HWY_INLINE void SplitArray(const K& k, void* const* out, const void* const* in, size_t n, size_t /*row_length*/) {
  static_assert(S == Shape::kUnary, "Split rows have one input and one result");
  SplitUnary<E>(k, static_cast<const float*>(in[0]), static_cast<float*>(out[0]), n);
}

}  // namespace accelmath::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#endif  // ACCELMATH_DRIVERS_SPLIT_INL_H_ toggle
