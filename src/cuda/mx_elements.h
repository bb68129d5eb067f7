// The work of one GPU thread of the CUDA MX kernels (src/cuda/mx.cu), as host/device functions on
// the scalar lane of src/kernels/mx-inl.h, the code every CPU target runs. Host code calls them too:
// tests/test_cuda_mx_elements.cc runs every index on the CPU against accelmath::mx, so the indexing
// and packing are checked on every machine, GPU or not.
//   ScaleAt:  scale byte s (block 2j + k of column q of slice p, as docs/mx.md lays mxscale out):
//             the block's max |x| bits, then ScaleCode; a pad byte (odd block count) is 0.
//   CodesAt:  packing unit u (FP8 one element, FP4 two, FP6 four; a unit never spans two blocks:
//             blocks are multiples of 32 long, and a unit lies within one row of the last axis,
//             whose length validation makes a multiple of the unit): each element's block scale,
//             QuantizeLanes, then the unit packed as docs/mx.md lays it out.
//   ValuesAt: unit u back to values: value(code) * 2^(E - 127) in float32; E = 0xFF gives the
//             canonical NaN; a NaN code gives its own NaN, quieted (what the CPU's multiply gives,
//             written out because a GPU multiply returns its own canonical NaN instead); float16
//             and bfloat16 outputs are that value rounded once (accelmath/types.h).
#pragma once

#include <bit>
#include <cstdint>

#include "accelmath/mx.h"
#include "accelmath/types.h"
#include "backend/scalar_lane.h"
#include "mx/format.h"

#define ACCELMATH_KNS lane
#include "kernels/mx-inl.h"
#undef ACCELMATH_KNS

namespace accelmath::cuda::mx::detail {

using accelmath::mx::DType;
using accelmath::mx::ElemFormat;
using accelmath::mx::RoundMode;
using accelmath::mx::ScaleAlg;

// x viewed as [pre, dim, post] (dim = the blocked axis), blocks of bs along dim, nb of them, and
// nb2 = ceil(nb / 2) scale pairs.
struct Layout {
  int64_t pre, dim, post, bs, nb, nb2;
  static Layout Of(int64_t pre, int64_t dim, int64_t post, int64_t bs) {
    const int64_t nb = (dim + bs - 1) / bs;
    return {pre, dim, post, bs, nb, (nb + 1) / 2};
  }
  ACCELMATH_HD int64_t scale_bytes() const { return pre * nb2 * post * 2; }
  // The scale byte of the block holding flat element i.
  ACCELMATH_HD int64_t ScaleIndex(int64_t i) const {
    const int64_t q = i % post, r = i / post, t = r % dim, p = r / dim, b = t / bs;
    return ((p * nb2 + b / 2) * post + q) * 2 + (b & 1);
  }
};

// The element format of an element DType. Kernels take the DType as their template argument: nvcc's
// host-side launch stubs cannot spell a class-type template argument such as ElemFormat.
constexpr ElemFormat FormatOf(DType t) {
  switch (t) {
    case DType::kFloat8E4M3FN: return accelmath::mx::kE4M3;
    case DType::kFloat8E5M2: return accelmath::mx::kE5M2;
    case DType::kFloat6E3M2: return accelmath::mx::kE3M2;
    case DType::kFloat6E2M3: return accelmath::mx::kE2M3;
    case DType::kFloat4E2M1: return accelmath::mx::kE2M1;
    default: return accelmath::mx::kE1M2;
  }
}

// CALL(T) with the element DType T of `type` (one of the six element types) as a constant.
#define ACCELMATH_CUDA_MX_SWITCH(type, CALL)                                                        \
  switch (type) {                                                                                   \
    case ::accelmath::mx::DType::kFloat8E4M3FN: CALL(::accelmath::mx::DType::kFloat8E4M3FN); break; \
    case ::accelmath::mx::DType::kFloat8E5M2: CALL(::accelmath::mx::DType::kFloat8E5M2); break;     \
    case ::accelmath::mx::DType::kFloat6E3M2: CALL(::accelmath::mx::DType::kFloat6E3M2); break;     \
    case ::accelmath::mx::DType::kFloat6E2M3: CALL(::accelmath::mx::DType::kFloat6E2M3); break;     \
    case ::accelmath::mx::DType::kFloat4E2M1: CALL(::accelmath::mx::DType::kFloat4E2M1); break;     \
    case ::accelmath::mx::DType::kFloat4E1M2: CALL(::accelmath::mx::DType::kFloat4E1M2); break;     \
    default: break;                                                                                 \
  }

// Elements per packing unit, and its bytes.
constexpr int PerUnit(DType t) { return FormatOf(t).bits == 8 ? 1 : FormatOf(t).bits == 4 ? 2 : 4; }
constexpr int UnitBytes(DType t) { return FormatOf(t).bits == 6 ? 3 : 1; }

// Float32 bits of one input element, widened exactly (a NaN's payload does not matter: a NaN makes
// its block's E 0xFF and every code of the block +0).
ACCELMATH_HD int32_t WidenBits(float v) { return std::bit_cast<int32_t>(v); }
ACCELMATH_HD int32_t WidenBits(float16 v) { return std::bit_cast<int32_t>(to_float(v)); }
ACCELMATH_HD int32_t WidenBits(bfloat16 v) { return static_cast<int32_t>(uint32_t(v.bits) << 16); }

template <DType kType, typename T>
ACCELMATH_HD uint8_t ScaleAt(const T* x, const Layout& l, ScaleAlg alg, int64_t s) {
  constexpr ElemFormat F = FormatOf(kType);
  const int64_t pair = s >> 1, q = pair % l.post, j = pair / l.post % l.nb2, p = pair / l.post / l.nb2;
  const int64_t b = 2 * j + (s & 1);
  if (b >= l.nb) return 0;
  const int64_t t1 = b * l.bs + l.bs < l.dim ? b * l.bs + l.bs : l.dim;
  int32_t amax = 0;
  for (int64_t t = b * l.bs; t < t1; ++t) {
    const int32_t a = WidenBits(x[(p * l.dim + t) * l.post + q]) & 0x7FFFFFFF;
    amax = a > amax ? a : amax;
  }
  return static_cast<uint8_t>(lane::ScaleCode<F>(lane::D<float>(), lane::D<int32_t>(), lane::Vec<int32_t>{amax}, alg).raw);
}

template <DType kType, RoundMode kMode, typename T>
ACCELMATH_HD void CodesAt(const T* x, const uint8_t* scale, uint8_t* y, const Layout& l, int64_t u) {
  constexpr ElemFormat F = FormatOf(kType);
  const lane::D<float> df;
  const lane::D<int32_t> di;
  uint32_t word = 0;
  for (int j = 0; j < PerUnit(kType); ++j) {
    const int64_t i = u * PerUnit(kType) + j;
    const lane::Vec<int32_t> e{scale[l.ScaleIndex(i)]};
    const int32_t c = lane::QuantizeLanes<F, kMode>(df, di, lane::Vec<int32_t>{WidenBits(x[i])},
                                                    lane::ScaleFactor(df, di, e), lane::KeepMask(di, e)).raw;
    word |= uint32_t(c) << (j * F.bits);
  }
  for (int k = 0; k < UnitBytes(kType); ++k) y[u * UnitBytes(kType) + k] = static_cast<uint8_t>(word >> (8 * k));
}

ACCELMATH_HD void StoreValue(float* x, int64_t i, float v) { x[i] = v; }
ACCELMATH_HD void StoreValue(float16* x, int64_t i, float v) { x[i] = to_float16(v); }
ACCELMATH_HD void StoreValue(bfloat16* x, int64_t i, float v) { x[i] = to_bfloat16(v); }

template <DType kType, typename T>
ACCELMATH_HD void ValuesAt(const uint8_t* y, const uint8_t* scale, T* x, const Layout& l, int64_t u) {
  constexpr ElemFormat F = FormatOf(kType);
  const lane::D<float> df;
  const lane::D<int32_t> di;
  uint32_t word = 0;
  for (int k = 0; k < UnitBytes(kType); ++k) word |= uint32_t(y[u * UnitBytes(kType) + k]) << (8 * k);
  for (int j = 0; j < PerUnit(kType); ++j) {
    const int64_t i = u * PerUnit(kType) + j;
    const int32_t code = static_cast<int32_t>(word >> (j * F.bits)) & ((1 << F.bits) - 1);
    const int32_t e = scale[l.ScaleIndex(i)];
    const int32_t v = lane::DecodeBits<F>(df, di, lane::Vec<int32_t>{code}).raw;
    int32_t bits;
    if (e == 255) {
      bits = lane::kNaNBits;
    } else if ((v & 0x7FFFFFFF) > 0x7F800000) {
      bits = v | 0x00400000;
    } else {
      bits = std::bit_cast<int32_t>(std::bit_cast<float>(v) * lane::E8M0Value(df, di, lane::Vec<int32_t>{e}).raw);
    }
    StoreValue(x, i, std::bit_cast<float>(bits));
  }
}

}  // namespace accelmath::cuda::mx::detail
