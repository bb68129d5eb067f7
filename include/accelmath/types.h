// 16-bit floating-point element types of the public API, as bit patterns, with exact widening and
// round-to-nearest-even narrowing. Any other half/bfloat16 type of the same layout (_Float16, __bf16,
// torch's, CUDA's __half/__nv_bfloat16) can be passed by reinterpreting its storage.
#pragma once

#include <bit>
#include <cstdint>

namespace accelmath {

// IEEE 754 binary16: 1 sign, 5 exponent, 10 fraction bits. MAX = 65504.
struct float16 {
  std::uint16_t bits;
  friend constexpr bool operator==(float16, float16) = default;  // bitwise
};

// bfloat16: the upper half of a binary32. MAX = 3.3895314e38.
struct bfloat16 {
  std::uint16_t bits;
  friend constexpr bool operator==(bfloat16, bfloat16) = default;  // bitwise
};

// Exact widening: every float16/bfloat16 value is a float. NaN payloads are kept; a signaling
// float16 NaN comes back quiet (IEEE convertFormat, as x86 F16C and libgcc do); bfloat16 widening
// is the 16-bit shift every library uses, so its NaNs keep their exact bits.
constexpr float to_float(float16 h) {
  const std::uint32_t sign = std::uint32_t(h.bits & 0x8000u) << 16;
  const std::uint32_t exp = (h.bits >> 10) & 0x1Fu;
  const std::uint32_t frac = h.bits & 0x3FFu;
  if (exp == 0) {  // zero or subnormal: frac * 2^-24, exact in float
    const float v = float(frac) * 0x1p-24f;
    return sign ? -v : v;
  }
  if (exp == 0x1F) return std::bit_cast<float>(sign | 0x7F800000u | (frac << 13) | (frac ? 0x400000u : 0u));
  return std::bit_cast<float>(sign | ((exp + (127 - 15)) << 23) | (frac << 13));
}

constexpr float to_float(bfloat16 b) { return std::bit_cast<float>(std::uint32_t(b.bits) << 16); }

// Rounding to nearest, ties to even; |f| >= 65520 gives inf. A NaN stays a NaN of the same sign,
// quiet, with the top 9 payload bits kept (as x86 F16C and Arm FCVT do).
constexpr float16 to_float16(float f) {
  const std::uint32_t x = std::bit_cast<std::uint32_t>(f);
  const std::uint16_t sign = std::uint16_t((x >> 16) & 0x8000u);
  const std::uint32_t a = x & 0x7FFFFFFFu;
  if (a > 0x7F800000u) return {std::uint16_t(sign | 0x7E00u | ((a >> 13) & 0x1FFu))};
  if (a >= 0x477FF000u) return {std::uint16_t(sign | 0x7C00u)};  // >= 65520 (MAX + half an ulp): inf
  if (a >= 0x38800000u) {  // >= 2^-14: a normal float16. Re-bias, then round away 13 bits.
    const std::uint32_t r = a - ((127u - 15u) << 23);
    return {std::uint16_t(sign | ((r + 0xFFFu + ((r >> 13) & 1u)) >> 13))};
  }
  // Subnormal float16 or zero: |f| / 2^-24 rounded to an integer (1024 carries into the exponent).
  const std::uint32_t e = a >> 23;
  if (e < 102) return {sign};  // |f| < 2^-25 (half the smallest subnormal): +-0
  const std::uint32_t m = (a & 0x7FFFFFu) | 0x800000u;
  const std::uint32_t shift = 126 - e;  // value = m * 2^(e-150) = (m >> shift) units of 2^-24
  std::uint32_t q = m >> shift;
  const std::uint32_t rem = m & ((1u << shift) - 1u), half = 1u << (shift - 1);
  if (rem > half || (rem == half && (q & 1u))) ++q;
  return {std::uint16_t(sign | q)};
}

// Rounding to nearest, ties to even; overflow gives inf. A NaN stays a NaN of the same sign,
// quiet, with the top 6 payload bits kept.
constexpr bfloat16 to_bfloat16(float f) {
  const std::uint32_t x = std::bit_cast<std::uint32_t>(f);
  if ((x & 0x7FFFFFFFu) > 0x7F800000u) return {std::uint16_t((x >> 16) | 0x40u)};
  return {std::uint16_t((x + 0x7FFFu + ((x >> 16) & 1u)) >> 16)};
}

}  // namespace accelmath
