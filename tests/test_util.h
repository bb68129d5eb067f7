// Helpers shared by the tests.
#pragma once

#include <cstdint>
#include <cstring>
#include <vector>

namespace accelmath::test {

inline std::uint32_t Bits(float f) {
  std::uint32_t b;
  std::memcpy(&b, &f, 4);
  return b;
}

inline float FromBits(std::uint32_t b) {
  float f;
  std::memcpy(&f, &b, 4);
  return f;
}

// A canary value that no ndtri result can have (a NaN with a payload the kernels never produce).
inline float Canary() { return FromBits(0x7FA5A5A5u); }

}  // namespace accelmath::test
