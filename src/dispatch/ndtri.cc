// Array API of ndtri: one instantiation of src/kernels/ndtri-inl.h per Highway target, chosen at
// run time (HWY_DYNAMIC_DISPATCH), plus argument validation.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "dispatch/ndtri.cc"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

#include <array>

#include "dispatch/lane_loops.h"

#define ACCELMATH_KNS HWY_NAMESPACE
HWY_BEFORE_NAMESPACE();
namespace accelmath::HWY_NAMESPACE {
using namespace hwy::HWY_NAMESPACE;  // NOLINT: the kernels call Highway's ops unqualified
}  // namespace accelmath::HWY_NAMESPACE
#include "backend/pair-inl.h"
#include "kernels/ndtri-inl.h"

namespace accelmath::HWY_NAMESPACE {

// Targets with a fused multiply-add and binary64 lanes run the kernel; the others use the scalar
// lane, which gives the same bits (a non-fused MulAdd would not).
#if HWY_NATIVE_FMA && HWY_HAVE_FLOAT64

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

// float32 in, binary64 lanes inside, float32 out. Blocks of kBlock elements: every lane gets the
// cheap centre formula (two vectors at a time, interleaved: backend/pair-inl.h) and is stored;
// the lanes outside the centre (about 15% of uniform p, but half of all 4-lane vectors) are
// appended to a small buffer without a branch (a branch on "any tail lane?" mispredicts for half
// of all uniform vectors), evaluated densely by the tail formula, and scattered back over the
// centre values. The same per-lane functions as NdtriF64, so the same bits. The partial last
// vector uses masked loads and stores, so nothing past n is touched.
void NdtriArray(const float* src, float* dst, size_t n) {
  const ScalableTag<double> dd;
  const Rebind<float, decltype(dd)> df;
  const size_t N = Lanes(dd);
  constexpr size_t kBlock = 512;
  constexpr size_t kSlack = HWY_MAX_BYTES / sizeof(double);  // appends write whole vectors
  HWY_ALIGN double tail_p[kBlock + kSlack] = {};
  HWY_ALIGN double tail_i[kBlock + kSlack];
  HWY_ALIGN float tail_x[kBlock + kSlack];
  const auto iota = Iota(dd, 0.0);
  for (size_t b = 0; b < n; b += kBlock) {
    const size_t m = HWY_MIN(kBlock, n - b);
    size_t nt = 0;
    size_t i = 0;
    for (; i + 2 * N <= m; i += 2 * N) {
      const auto p0 = PromoteTo(dd, LoadU(df, src + b + i));
      const auto p1 = PromoteTo(dd, LoadU(df, src + b + i + N));
      const auto c0 = InNdtriCentre(dd, p0), c1 = InNdtriCentre(dd, p1);
      const auto x = NdtriCentreF64(Pair<decltype(dd)>{dd}, PairVec<decltype(dd)>{p0, p1});
      StoreU(DemoteTo(df, x.a), df, dst + b + i);
      StoreU(DemoteTo(df, x.b), df, dst + b + i + N);
      nt += Append(dd, Not(c0), p0, Add(iota, Set(dd, double(i))), tail_p + nt, tail_i + nt);
      nt += Append(dd, Not(c1), p1, Add(iota, Set(dd, double(i + N))), tail_p + nt, tail_i + nt);
    }
    for (; i < m; i += N) {  // at most one full and one partial vector
      const size_t k = HWY_MIN(N, m - i);
      const auto live = FirstN(df, k);
      const auto p = PromoteTo(dd, MaskedLoad(live, df, src + b + i));
      BlendedStore(DemoteTo(df, NdtriCentreF64(dd, p)), live, df, dst + b + i);
      const auto take = AndNot(InNdtriCentre(dd, p), FirstN(dd, k));
      nt += Append(dd, take, p, Add(iota, Set(dd, double(i))), tail_p + nt, tail_i + nt);
    }
    for (size_t j = 0; j < nt; j += N) {
      StoreU(DemoteTo(df, NdtriTailF64(dd, LoadU(dd, tail_p + j))), df, tail_x + j);
    }
    for (size_t j = 0; j < nt; ++j) dst[b + static_cast<size_t>(tail_i[j])] = tail_x[j];
  }
}

void NdtriTaskbookArray(const float* src, float* dst, size_t n) {
  const ScalableTag<float> df;
  const size_t N = Lanes(df);
  size_t i = 0;
  for (; i + N <= n; i += N) {
    StoreU(NdtriTaskbook(df, LoadU(df, src + i)), df, dst + i);
  }
  if (i < n) {
    const auto m = FirstN(df, n - i);
    BlendedStore(NdtriTaskbook(df, MaskedLoad(m, df, src + i)), m, df, dst + i);
  }
}

#else

void NdtriArray(const float* src, float* dst, size_t n) { accelmath::detail::NdtriLoop(src, dst, n); }
void NdtriTaskbookArray(const float* src, float* dst, size_t n) { accelmath::detail::NdtriTaskbookLoop(src, dst, n); }

#endif

}  // namespace accelmath::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
#include "accelmath/math.h"
#include "dispatch/contract.h"

namespace accelmath {

HWY_EXPORT(NdtriArray);
HWY_EXPORT(NdtriTaskbookArray);

Status ndtri(std::span<float> dst, std::span<const float> src, std::size_t count) noexcept {
  return detail::RunUnary(HWY_DYNAMIC_DISPATCH(NdtriArray), dst, src, count);
}

Status ndtri(std::span<float> dst, std::span<const float> src) noexcept {
  return ndtri(dst, src, src.size());
}

Status ndtri_taskbook(std::span<float> dst, std::span<const float> src, std::size_t count) noexcept {
  return detail::RunUnary(HWY_DYNAMIC_DISPATCH(NdtriTaskbookArray), dst, src, count);
}

Status ndtri_taskbook(std::span<float> dst, std::span<const float> src) noexcept {
  return ndtri_taskbook(dst, src, src.size());
}

}  // namespace accelmath
#endif  // HWY_ONCE
