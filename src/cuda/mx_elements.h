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
// Each is built on the per-element steps ScaleCodeOf, CodeOf and ValueOf. The chunk path, for the
// common layout (blocks along the last axis, its length a multiple of 32, buffers 16-byte aligned:
// UseChunks), works on chunks of 32 elements, each a whole number of 32-bit words of input, codes
// and output, moved with 16- or 8-byte loads and stores on the GPU:
//   QuantizeBlockAt:   block w (of pre x nb, row-major): max |x| over its chunks, the scale byte
//                      (and the pad byte after an odd row's last block), then each chunk's codes;
//   DequantizeQuadAt:  elements 4q .. 4q + 3: their block's scale, the 4 values.
#pragma once

#include <bit>
#include <cstdint>
#include <cstring>
#include <initializer_list>

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
  // The scale byte of block b of column q of slice p (docs/mx.md's mxscale layout).
  ACCELMATH_HD int64_t ScaleByte(int64_t p, int64_t b, int64_t q) const {
    return ((p * nb2 + b / 2) * post + q) * 2 + (b & 1);
  }
  // The scale byte of the block holding flat element i.
  ACCELMATH_HD int64_t ScaleIndex(int64_t i) const {
    const int64_t q = i % post, r = i / post, t = r % dim, p = r / dim;
    return ScaleByte(p, t / bs, q);
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

// The scale code of a block whose max |x| has the float32 bits amax.
template <DType kType>
ACCELMATH_HD uint8_t ScaleCodeOf(int32_t amax, ScaleAlg alg) {
  return static_cast<uint8_t>(
      lane::ScaleCode<FormatOf(kType)>(lane::D<float>(), lane::D<int32_t>(), lane::Vec<int32_t>{amax}, alg).raw);
}

// The code of the element with float32 bits x in a block of scale code e.
template <DType kType, RoundMode kMode>
ACCELMATH_HD uint32_t CodeOf(int32_t x, int32_t e) {
  const lane::D<float> df;
  const lane::D<int32_t> di;
  const lane::Vec<int32_t> ve{e};
  return static_cast<uint32_t>(lane::QuantizeLanes<FormatOf(kType), kMode>(df, di, lane::Vec<int32_t>{x},
                                                                          lane::ScaleFactor(df, di, ve),
                                                                          lane::KeepMask(di, ve)).raw);
}

// The float32 value of `code` in a block of scale code e (the NaN rules above).
template <DType kType>
ACCELMATH_HD float ValueOf(int32_t code, int32_t e) {
  const lane::D<float> df;
  const lane::D<int32_t> di;
  const int32_t v = lane::DecodeBits<FormatOf(kType)>(df, di, lane::Vec<int32_t>{code}).raw;
  if (e == 255) return std::bit_cast<float>(lane::kNaNBits);
  if ((v & 0x7FFFFFFF) > 0x7F800000) return std::bit_cast<float>(v | 0x00400000);
  return std::bit_cast<float>(v) * lane::E8M0Value(df, di, lane::Vec<int32_t>{e}).raw;
}

template <DType kType, typename T>
ACCELMATH_HD uint8_t ScaleAt(const T* x, const Layout& l, ScaleAlg alg, int64_t s) {
  const int64_t pair = s >> 1, q = pair % l.post, j = pair / l.post % l.nb2, p = pair / l.post / l.nb2;
  const int64_t b = 2 * j + (s & 1);
  if (b >= l.nb) return 0;
  const int64_t t1 = b * l.bs + l.bs < l.dim ? b * l.bs + l.bs : l.dim;
  int32_t amax = 0;
  for (int64_t t = b * l.bs; t < t1; ++t) {
    const int32_t a = WidenBits(x[(p * l.dim + t) * l.post + q]) & 0x7FFFFFFF;
    amax = a > amax ? a : amax;
  }
  return ScaleCodeOf<kType>(amax, alg);
}

template <DType kType, RoundMode kMode, typename T>
ACCELMATH_HD void CodesAt(const T* x, const uint8_t* scale, uint8_t* y, const Layout& l, int64_t u) {
  uint32_t word = 0;
  for (int j = 0; j < PerUnit(kType); ++j) {
    const int64_t i = u * PerUnit(kType) + j;
    word |= CodeOf<kType, kMode>(WidenBits(x[i]), scale[l.ScaleIndex(i)]) << (j * FormatOf(kType).bits);
  }
  for (int k = 0; k < UnitBytes(kType); ++k) y[u * UnitBytes(kType) + k] = static_cast<uint8_t>(word >> (8 * k));
}

ACCELMATH_HD void StoreValue(float* x, int64_t i, float v) { x[i] = v; }
ACCELMATH_HD void StoreValue(float16* x, int64_t i, float v) { x[i] = to_float16(v); }
ACCELMATH_HD void StoreValue(bfloat16* x, int64_t i, float v) { x[i] = to_bfloat16(v); }

template <DType kType, typename T>
ACCELMATH_HD void ValuesAt(const uint8_t* y, const uint8_t* scale, T* x, const Layout& l, int64_t u) {
  constexpr int kBits = FormatOf(kType).bits;
  uint32_t word = 0;
  for (int k = 0; k < UnitBytes(kType); ++k) word |= uint32_t(y[u * UnitBytes(kType) + k]) << (8 * k);
  for (int j = 0; j < PerUnit(kType); ++j) {
    const int64_t i = u * PerUnit(kType) + j;
    const int32_t code = static_cast<int32_t>(word >> (j * kBits)) & ((1 << kBits) - 1);
    StoreValue(x, i, ValueOf<kType>(code, scale[l.ScaleIndex(i)]));
  }
}

// ---- The chunk path -------------------------------------------------------------------------------

constexpr int kChunk = 32;

// Whether the kernels take the chunk path: blocks along the last axis (post 1) whose length is a
// multiple of 32 (every block then holds whole chunks, and every chunk starts a whole word of codes),
// and buffers aligned for 16-byte accesses (cudaMalloc gives 256).
inline bool UseChunks(const Layout& l, std::initializer_list<const void*> buffers) {
  if (l.post != 1 || l.dim % kChunk != 0) return false;
  for (const void* p : buffers) {
    if (reinterpret_cast<std::uintptr_t>(p) % 16 != 0) return false;
  }
  return true;
}

// n 32-bit words at p: 16-byte accesses where n is a multiple of 4, else 8-byte (FP6 codes: 6
// words, at 24-byte steps from an aligned base). Plain copies on the host.
template <int N>
ACCELMATH_HD void LoadWords(const void* p, uint32_t (&w)[N]) {
#ifdef __CUDA_ARCH__
  if constexpr (N % 4 == 0) {
    for (int k = 0; k < N / 4; ++k) {
      const uint4 q = static_cast<const uint4*>(p)[k];
      w[4 * k] = q.x, w[4 * k + 1] = q.y, w[4 * k + 2] = q.z, w[4 * k + 3] = q.w;
    }
  } else {
    for (int k = 0; k < N / 2; ++k) {
      const uint2 q = static_cast<const uint2*>(p)[k];
      w[2 * k] = q.x, w[2 * k + 1] = q.y;
    }
  }
#else
  std::memcpy(w, p, sizeof w);
#endif
}
template <int N>
ACCELMATH_HD void StoreWords(void* p, const uint32_t (&w)[N]) {
#ifdef __CUDA_ARCH__
  if constexpr (N % 4 == 0) {
    for (int k = 0; k < N / 4; ++k) {
      static_cast<uint4*>(p)[k] = make_uint4(w[4 * k], w[4 * k + 1], w[4 * k + 2], w[4 * k + 3]);
    }
  } else {
    for (int k = 0; k < N / 2; ++k) static_cast<uint2*>(p)[k] = make_uint2(w[2 * k], w[2 * k + 1]);
  }
#else
  std::memcpy(p, w, sizeof w);
#endif
}

// Words of a chunk of 32 elements of T (float: 32, float16/bfloat16: 16), and element j of words
// holding elements of T: its float32 bits (input) or its stored bits (output), little-endian as in
// memory.
template <typename T>
constexpr int kChunkWords = kChunk * int(sizeof(T)) / 4;
template <typename T, int N>
ACCELMATH_HD int32_t ElementBits(const uint32_t (&w)[N], int j) {
  if constexpr (sizeof(T) == 4) {
    return int32_t(w[j]);
  } else {
    return WidenBits(T{static_cast<uint16_t>(w[j / 2] >> (16 * (j % 2)))});
  }
}
template <typename T, int N>
ACCELMATH_HD void PutValue(uint32_t (&w)[N], int j, float v) {
  T out[1];
  StoreValue(out, 0, v);
  if constexpr (sizeof(T) == 4) {
    w[j] = std::bit_cast<uint32_t>(out[0]);
  } else {
    w[j / 2] |= uint32_t(out[0].bits) << (16 * (j % 2));
  }
}

// Puts code j into a chunk's codes: a little-endian bit stream, code j at bit j * bits (FP4 two to a byte,
// FP6 four to three bytes, FP8 one to a byte: the packing of CodesAt). A chunk is `bits` words.
template <int kBits>
ACCELMATH_HD void PutCode(uint32_t (&w)[kBits], int j, uint32_t code) {
  const int pos = j * kBits;
  w[pos / 32] |= code << (pos % 32);
  if (pos % 32 + kBits > 32) w[pos / 32 + 1] |= code >> (32 - pos % 32);
}

template <DType kType, RoundMode kMode, typename T>
ACCELMATH_HD void QuantizeBlockAt(const T* x, uint8_t* scale, uint8_t* y, const Layout& l, ScaleAlg alg, int64_t w) {
  constexpr int kBits = FormatOf(kType).bits;
  const int64_t r = w / l.nb, b = w - r * l.nb, first = r * l.dim + b * l.bs;
  const int64_t n = l.bs < l.dim - b * l.bs ? l.bs : l.dim - b * l.bs;  // a multiple of 32
  int32_t amax = 0;
  for (int64_t c = 0; c < n; c += kChunk) {
    uint32_t in[kChunkWords<T>];
    LoadWords(x + first + c, in);
    for (int j = 0; j < kChunk; ++j) {
      const int32_t a = ElementBits<T>(in, j) & 0x7FFFFFFF;
      amax = a > amax ? a : amax;
    }
  }
  const uint8_t e = ScaleCodeOf<kType>(amax, alg);
  uint8_t* s = scale + l.ScaleByte(r, b, 0);
  s[0] = e;
  if ((b & 1) == 0 && b + 1 == l.nb) s[1] = 0;  // the pad byte of an odd block count
  for (int64_t c = 0; c < n; c += kChunk) {
    uint32_t in[kChunkWords<T>], out[kBits] = {};
    LoadWords(x + first + c, in);
    for (int j = 0; j < kChunk; ++j) PutCode<kBits>(out, j, CodeOf<kType, kMode>(ElementBits<T>(in, j), e));
    StoreWords(y + (first + c) / kChunk * (kBits * 4), out);
  }
}

// Elements 4q .. 4q + 3 (within one block: blocks start at multiples of 32): their codes are the
// bits / 2 bytes from byte q bits / 2 (one 32-bit, one 16-bit or three 8-bit loads), their values one
// 16- or 8-byte store. Four elements to a thread so that a warp's stores are contiguous.
template <DType kType, typename T>
ACCELMATH_HD void DequantizeQuadAt(const uint8_t* y, const uint8_t* scale, T* x, const Layout& l, int64_t q) {
  constexpr int kBits = FormatOf(kType).bits, kBytes = kBits / 2;
  const int64_t r = 4 * q / l.dim, b = (4 * q - r * l.dim) / l.bs;
  const int32_t e = scale[l.ScaleByte(r, b, 0)];
  const uint8_t* p = y + q * kBytes;
  uint32_t codes = 0;
#ifdef __CUDA_ARCH__
  if constexpr (kBytes == 4) {
    codes = *reinterpret_cast<const uint32_t*>(p);
  } else if constexpr (kBytes == 2) {
    codes = *reinterpret_cast<const uint16_t*>(p);
  } else {
    codes = uint32_t(p[0]) | uint32_t(p[1]) << 8 | uint32_t(p[2]) << 16;
  }
#else
  std::memcpy(&codes, p, kBytes);
#endif
  uint32_t out[sizeof(T)] = {};  // 4 elements of T in words
  for (int j = 0; j < 4; ++j) {
    PutValue<T>(out, j, ValueOf<kType>(int32_t(codes >> (j * kBits)) & ((1 << kBits) - 1), e));
  }
  StoreWords(x + 4 * q, out);
}

}  // namespace accelmath::cuda::mx::detail
