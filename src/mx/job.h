// What src/mx/api.cc (validation, layout, threads) and the per-target SIMD kernels
// (src/mx/quantize.cc, quantize_inner.cc, dequantize.cc) share.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "accelmath/mx.h"

namespace accelmath::mx::detail {

// Blocks g0..g1-1 of a validated plan; block g is (g / nblocks, g % nblocks) in [pre, nblocks].
// Different blocks write disjoint bytes, so ranges may run on different threads.
void QuantizeBlocks(const QuantizePlan& p, int64_t g0, int64_t g1);
void QuantizeInnerBlocks(const QuantizePlan& p, int64_t g0, int64_t g1);  // post > 1 only
void DequantizeBlocks(const DequantizePlan& p, int64_t g0, int64_t g1);
// The Highway target that the quantize kernels dispatch to now: src/mx/quantize.cc and
// quantize_inner.cc also compile AVX3_DL, which the library's other kernels do not (the benchmark
// names both).
int64_t QuantizeTarget();
// One code per byte; sizes already checked.
void EncodeArray(const float* x, size_t n, uint8_t* codes, DType type, RoundMode mode);
void DecodeArray(const uint8_t* codes, size_t n, float* x, DType type);

// Exact float32 bits of a float16 / bfloat16 bit pattern.
inline uint32_t Float16ToBits(uint16_t h) {
  const uint32_t sign = uint32_t(h >> 15) << 31, e = (h >> 10) & 0x1F, m = h & 0x3FF;
  if (e == 0) {
    const float v = static_cast<float>(m) * 0x1p-24f;  // exact: m < 2^10
    uint32_t bits;
    std::memcpy(&bits, &v, 4);
    return sign | bits;
  }
  if (e == 31) return sign | 0x7F800000u | (m << 13);
  return sign | ((e + 112) << 23) | (m << 13);
}
inline uint32_t BFloat16ToBits(uint16_t h) { return uint32_t(h) << 16; }

}  // namespace accelmath::mx::detail
