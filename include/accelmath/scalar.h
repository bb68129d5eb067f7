// The float32 math library, per-element form. Same kernels as the array form (include/
// accelmath/math.h), instantiated for a one-lane type: bit-identical results.
#pragma once

namespace accelmath::scalar {

// See accelmath::ndtri.
float ndtri(float p) noexcept;
// See accelmath::ndtri_taskbook.
float ndtri_taskbook(float p) noexcept;

}  // namespace accelmath::scalar
