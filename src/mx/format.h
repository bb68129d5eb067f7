// The element formats as numbers: everything the generic MX kernels (src/kernels/mx-inl.h) need.
// Values from OCP MX v1.0 and the operator's docs (../shared/reference/mx-survey.md, section 1);
// E1M2 (not OCP) from the operator's goldens: bias 1, magnitude = code * 0.25.
#pragma once

#include <cstdint>

namespace accelmath::mx {

struct ElemFormat {
  int bits;          // 8, 6 or 4; the sign is bit (bits - 1)
  int mbits;         // mantissa bits
  int emin;          // unbiased exponent of the smallest normal, 1 - bias
  int emax;          // unbiased exponent of the largest normal, int(log2(max_normal))
  int32_t max_code;  // code of +max_normal (saturation target)
  int32_t nan_code;  // code of +NaN, -1 if the format has none
  float max_normal;
  int32_t inf_code;  // code of +Inf, -1 if none (decoding only: encoding saturates)
};

inline constexpr ElemFormat kE4M3 = {8, 3, -6, 8, 0x7E, 0x7F, 448.0f, -1};
inline constexpr ElemFormat kE5M2 = {8, 2, -14, 15, 0x7B, 0x7E, 57344.0f, 0x7C};
inline constexpr ElemFormat kE3M2 = {6, 2, -2, 4, 0x1F, -1, 28.0f, -1};
inline constexpr ElemFormat kE2M3 = {6, 3, 0, 2, 0x1F, -1, 7.5f, -1};
inline constexpr ElemFormat kE2M1 = {4, 1, 0, 2, 0x7, -1, 6.0f, -1};
inline constexpr ElemFormat kE1M2 = {4, 2, 0, 0, 0x7, -1, 1.75f, -1};

}  // namespace accelmath::mx
