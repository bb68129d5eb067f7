// Array API of ndtri: one instantiation of src/kernels/ndtri-inl.h per Highway target, chosen at
// run time (HWY_DYNAMIC_DISPATCH), plus argument validation.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "dispatch/ndtri.cc"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

#include "dispatch/lane_loops.h"

#define ACCELMATH_KNS HWY_NAMESPACE
HWY_BEFORE_NAMESPACE();
namespace accelmath::HWY_NAMESPACE {
using namespace hwy::HWY_NAMESPACE;  // NOLINT: the kernels call Highway's ops unqualified
}  // namespace accelmath::HWY_NAMESPACE
#include "kernels/ndtri-inl.h"

namespace accelmath::HWY_NAMESPACE {

// Targets with a fused multiply-add and binary64 lanes run the kernel; the others use the scalar
// lane, which gives the same bits (a non-fused MulAdd would not).
#if HWY_NATIVE_FMA && HWY_HAVE_FLOAT64

// float32 in, binary64 lanes inside, float32 out. Blocks of kBlock elements: every lane gets the
// cheap centre formula and is stored; the lanes outside the centre (about 15% of uniform p, but
// half of all 4-lane vectors) are compacted and evaluated densely by the tail formula, then
// scattered back. (Compaction by mask bits: Highway 1.0.3's CompressStore for doubles copies a
// table on every call, which cost more than the tail itself.) The same per-lane functions as NdtriF64, so the same bits; the
// partial last vector uses masked loads and stores, so nothing past n is touched.
void NdtriArray(const float* src, float* dst, size_t n) {
  const ScalableTag<double> dd;
  const Rebind<float, decltype(dd)> df;
  const size_t N = Lanes(dd);
  constexpr size_t kBlock = 256;
  constexpr size_t kSlack = HWY_MAX_BYTES / sizeof(double);  // CompressStore writes whole vectors
  HWY_ALIGN double tail_p[kBlock + kSlack] = {};
  HWY_ALIGN float tail_x[kBlock + kSlack];
  uint32_t tail_i[kBlock];
  HWY_ALIGN double lanes[kSlack];
  uint8_t bits[(kSlack + 7) / 8 + 8] = {};
  for (size_t b = 0; b < n; b += kBlock) {
    const size_t m = HWY_MIN(kBlock, n - b);
    size_t nt = 0;
    for (size_t i = 0; i < m; i += N) {
      const size_t k = HWY_MIN(N, m - i);
      const auto live = FirstN(df, k);
      const auto p = PromoteTo(dd, k == N ? LoadU(df, src + b + i) : MaskedLoad(live, df, src + b + i));
      const auto in_centre = InNdtriCentre(dd, p);
      if (AllFalse(dd, in_centre)) {  // a whole vector of tail lanes needs no compaction
        const auto x = DemoteTo(df, NdtriTailF64(dd, p));
        if (k == N) StoreU(x, df, dst + b + i); else BlendedStore(x, live, df, dst + b + i);
        continue;
      }
      const auto x = DemoteTo(df, NdtriCentreF64(dd, p));  // tail lanes are overwritten below
      if (k == N) StoreU(x, df, dst + b + i); else BlendedStore(x, live, df, dst + b + i);
      if (AllTrue(dd, in_centre)) continue;
      StoreMaskBits(dd, in_centre, bits);
      Store(p, dd, lanes);
      for (size_t l = 0; l < k; ++l) {
        if (!((bits[l / 8] >> (l % 8)) & 1)) tail_p[nt] = lanes[l], tail_i[nt++] = uint32_t(i + l);
      }
    }
    for (size_t j = 0; j < nt; j += N) {
      StoreU(DemoteTo(df, NdtriTailF64(dd, LoadU(dd, tail_p + j))), df, tail_x + j);
    }
    for (size_t j = 0; j < nt; ++j) dst[b + tail_i[j]] = tail_x[j];
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
  const Status s = detail::CheckUnary(dst, src, count);
  if (s == Status::kOk && count != 0) HWY_DYNAMIC_DISPATCH(NdtriArray)(src.data(), dst.data(), count);
  return s;
}

Status ndtri(std::span<float> dst, std::span<const float> src) noexcept {
  return ndtri(dst, src, src.size());
}

Status ndtri_taskbook(std::span<float> dst, std::span<const float> src, std::size_t count) noexcept {
  const Status s = detail::CheckUnary(dst, src, count);
  if (s == Status::kOk && count != 0) HWY_DYNAMIC_DISPATCH(NdtriTaskbookArray)(src.data(), dst.data(), count);
  return s;
}

Status ndtri_taskbook(std::span<float> dst, std::span<const float> src) noexcept {
  return ndtri_taskbook(dst, src, src.size());
}

}  // namespace accelmath
#endif  // HWY_ONCE
