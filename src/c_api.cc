#include "accelmath/c_api.h"

#include "accelmath/math.h"

extern "C" int accelmath_ndtri_f32(float* dst, const float* src, size_t n) {
  return static_cast<int>(accelmath::ndtri(std::span<float>(dst, n), std::span<const float>(src, n)));
}

extern "C" int accelmath_ndtri_taskbook_f32(float* dst, const float* src, size_t n) {
  return static_cast<int>(accelmath::ndtri_taskbook(std::span<float>(dst, n), std::span<const float>(src, n)));
}
