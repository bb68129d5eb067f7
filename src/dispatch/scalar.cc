// The scalar lane instantiation of every kernel: the per-element API (accelmath::scalar) and
// the loops that non-FMA SIMD targets fall back to.
#include "backend/scalar_lane.h"

#define ACCELMATH_KNS lane
#include "kernels/ndtri-inl.h"
#undef ACCELMATH_KNS

#include "accelmath/scalar.h"
#include "dispatch/lane_loops.h"

// On x86, also compile a clone for CPUs with FMA so std::fma is one instruction instead of a
// library call; both clones compute the same correctly rounded fma, hence the same bits.
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
#define ACCELMATH_SCALAR_CLONES __attribute__((target_clones("fma", "default")))
#else
#define ACCELMATH_SCALAR_CLONES
#endif

namespace accelmath {

namespace scalar {

ACCELMATH_SCALAR_CLONES float ndtri(float p) noexcept {
  const lane::D<double> dd;
  const lane::D<float> df;
  return lane::DemoteTo(df, lane::NdtriF64(dd, lane::PromoteTo(dd, lane::Vec<float>{p}))).raw;
}

ACCELMATH_SCALAR_CLONES float ndtri_taskbook(float p) noexcept {
  return lane::NdtriTaskbook(lane::D<float>(), lane::Vec<float>{p}).raw;
}

}  // namespace scalar

namespace detail {

void NdtriLoop(const float* src, float* dst, std::size_t n) noexcept {
  for (std::size_t i = 0; i < n; ++i) dst[i] = scalar::ndtri(src[i]);
}

void NdtriTaskbookLoop(const float* src, float* dst, std::size_t n) noexcept {
  for (std::size_t i = 0; i < n; ++i) dst[i] = scalar::ndtri_taskbook(src[i]);
}

}  // namespace detail
}  // namespace accelmath
