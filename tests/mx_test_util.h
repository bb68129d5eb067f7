// Helpers shared by the MX tests: the element types, and this project's test-side reading of the
// packed layout (docs/mx.md), written independently of the kernels (src/mx/).
#pragma once

#include <hwy/targets.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "accelmath/mx.h"
#include "accuracy/mx_reference.h"

namespace accelmath::mx::mxtest {

inline constexpr DType kElems[] = {DType::kFloat8E4M3FN, DType::kFloat8E5M2, DType::kFloat6E3M2,
                                   DType::kFloat6E2M3,   DType::kFloat4E2M1, DType::kFloat4E1M2};

inline int BitsOf(DType t) { return reference::FormatOf(t).bits; }

// Code of element i in a packed y: FP4 element 2i in the low nibble of byte i; FP6 elements
// 4k..4k+3 in the 24-bit little-endian word of bytes 3k..3k+2, 6 bits each, first element lowest.
inline uint8_t CodeAt(const std::vector<uint8_t>& y, DType t, size_t i) {
  if (BitsOf(t) == 8) return y[i];
  if (BitsOf(t) == 4) return (y[i / 2] >> (4 * (i % 2))) & 0xF;
  const size_t k = i / 4;
  const uint32_t w = y[3 * k] | (y[3 * k + 1] << 8) | (uint32_t(y[3 * k + 2]) << 16);
  return (w >> (6 * (i % 4))) & 0x3F;
}

// The dispatch masks the MX kernel tests run, one after another: each compiled SIMD target this
// CPU runs, and, where it runs AVX3_DL (which only the quantize kernels, src/mx/quantize.cc and
// quantize_inner.cc, compile, for their FP6/FP4 table encoder), AVX3_DL | AVX3: quantize then
// takes AVX3_DL and the other MX kernels AVX3. Taken once per test: after a loop of
// SetSupportedTargetsForTest, the targets Highway reports are the last one's.
inline std::vector<int64_t> MxTargets() {
  std::vector<int64_t> targets = hwy::SupportedAndGeneratedTargets();
  if ((hwy::SupportedTargets() & HWY_AVX3_DL) != 0) targets.insert(targets.begin(), HWY_AVX3_DL | HWY_AVX3);
  return targets;
}
inline std::string MxTargetName(int64_t targets) {
  return (targets & HWY_AVX3_DL) != 0 ? "AVX3_DL" : hwy::TargetName(targets);
}

}  // namespace accelmath::mx::mxtest
