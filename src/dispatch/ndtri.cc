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

// float32 in, binary64 lanes inside, float32 out. The last partial vector uses masked loads and
// stores, so nothing past n is touched.
void NdtriArray(const float* src, float* dst, size_t n) {
  const ScalableTag<double> dd;
  const Rebind<float, decltype(dd)> df;
  const size_t N = Lanes(dd);
  size_t i = 0;
  for (; i + N <= n; i += N) {
    const auto p = PromoteTo(dd, LoadU(df, src + i));
    StoreU(DemoteTo(df, NdtriF64(dd, p)), df, dst + i);
  }
  if (i < n) {
    const auto m = FirstN(df, n - i);
    const auto p = PromoteTo(dd, MaskedLoad(m, df, src + i));
    BlendedStore(DemoteTo(df, NdtriF64(dd, p)), m, df, dst + i);
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
