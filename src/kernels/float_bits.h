// Bit-layout facts of IEEE binary32/binary64 that the generic kernels need.
#pragma once

#include <cstdint>

namespace accelmath::kernels {

template <typename T>
struct FloatBits;

template <>
struct FloatBits<float> {
  using Bits = uint32_t;
  static constexpr int kMantissaBits = 23;
  static constexpr Bits kExponentBias = 127;
  static constexpr Bits kOneBits = 0x3F800000u;       // 1.0f
  static constexpr Bits kSqrtHalfBits = 0x3F3504F3u;  // sqrt(1/2) rounded to nearest
  // 2^23: OR-ing a small integer e into its mantissa and subtracting 2^23 gives (float)e exactly.
  static constexpr Bits kMagicBits = 0x4B000000u;
  static constexpr float kMagic = 0x1p23f;
};

template <>
struct FloatBits<double> {
  using Bits = uint64_t;
  static constexpr int kMantissaBits = 52;
  static constexpr Bits kExponentBias = 1023;
  static constexpr Bits kOneBits = 0x3FF0000000000000ull;
  static constexpr Bits kSqrtHalfBits = 0x3FE6A09E667F3BCDull;
  static constexpr Bits kMagicBits = 0x4330000000000000ull;  // 2^52
  static constexpr double kMagic = 0x1p52;
};

}  // namespace accelmath::kernels
