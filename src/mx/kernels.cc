// MX quantize, dequantize and the array codecs: src/kernels/mx-inl.h instantiated for every
// Highway target (no fused multiply-add is involved, so every target, the scalar emulation
// included, computes the same bits), chosen at run time. Validation, layout and threads are in
// src/mx/api.cc, which calls the entry points at the end of this file over ranges of blocks.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "mx/kernels.cc"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

#include <algorithm>
#include <array>
#include <cstring>

#include "mx/job.h"

#define ACCELMATH_KNS HWY_NAMESPACE
HWY_BEFORE_NAMESPACE();
namespace accelmath::HWY_NAMESPACE {
using namespace hwy::HWY_NAMESPACE;  // NOLINT: the kernels call Highway's ops unqualified
}  // namespace accelmath::HWY_NAMESPACE
#include "kernels/mx-inl.h"

namespace accelmath::HWY_NAMESPACE {
namespace {

using mx::ElemFormat;
using mx::RoundMode;
using mx::ScaleAlg;

constexpr int64_t kMaxBlock = 1024;
constexpr size_t kMaxLanes = HWY_MAX_BYTES / 4;  // int32 lanes of the widest vector

// Float32 bits of Lanes(di) inputs of type T at p, in int32 lanes. Exact widening.
template <typename T, class DI>
HWY_INLINE Vec<DI> LoadBits(DI di, const T* p) {
  (void)di;
  if constexpr (std::is_same_v<T, float>) {
    return LoadU(di, reinterpret_cast<const int32_t*>(p));
  } else if constexpr (std::is_same_v<T, hwy::bfloat16_t>) {
    const Rebind<uint16_t, DI> du16;
    return ShiftLeft<16>(PromoteTo(di, LoadU(du16, reinterpret_cast<const uint16_t*>(p))));
  } else {
#if HWY_TARGET == HWY_SCALAR
    // Highway 1.0.3's scalar float16 -> float32 turns Inf and NaN into finite numbers.
    uint16_t h;
    std::memcpy(&h, p, 2);
    return Set(di, static_cast<int32_t>(mx::detail::Float16ToBits(h)));
#else
    const Rebind<float, DI> df;
    const Rebind<hwy::float16_t, DI> df16;
    return BitCast(di, PromoteTo(df, LoadU(df16, reinterpret_cast<const hwy::float16_t*>(p))));
#endif
  }
}

// Stores the low bytes of the int32 lanes (codes are < 256).
template <class DI>
HWY_INLINE void StoreBytes(DI /*di*/, Vec<DI> v, uint8_t* p) {
  const Rebind<uint8_t, DI> d8;
  StoreU(DemoteTo(d8, v), d8, p);
}

// Packs n unpacked codes (n a multiple of 4 for FP6, even for FP4) into dst. FP4: element 2i in
// the low nibble of byte i. FP6: each 4 elements e0..e3 form the 24-bit little-endian word
// e0 | e1 << 6 | e2 << 12 | e3 << 18, stored as 3 bytes.
template <int kBits>
HWY_INLINE void PackCodes(const uint8_t* codes, size_t n, uint8_t* dst) {
  if constexpr (kBits == 8) {
    std::memcpy(dst, codes, n);
  } else if constexpr (kBits == 4) {
    const ScalableTag<int16_t> d16;
    const Rebind<uint8_t, decltype(d16)> d8;
    const size_t N = Lanes(d16);
    size_t i = 0;
    for (; i + 2 * N <= n; i += 2 * N) {
      const auto w = LoadU(d16, reinterpret_cast<const int16_t*>(codes + i));
      StoreU(DemoteTo(d8, And(Or(w, ShiftRight<4>(w)), Set(d16, 0xFF))), d8, dst + i / 2);
    }
    for (; i < n; i += 2) dst[i / 2] = static_cast<uint8_t>(codes[i] | (codes[i + 1] << 4));
  } else {
    for (size_t i = 0; i < n; i += 4) {
      const uint32_t w = codes[i] | (codes[i + 1] << 6) | (codes[i + 2] << 12) | (uint32_t(codes[i + 3]) << 18);
      dst[3 * i / 4] = static_cast<uint8_t>(w);
      dst[3 * i / 4 + 1] = static_cast<uint8_t>(w >> 8);
      dst[3 * i / 4 + 2] = static_cast<uint8_t>(w >> 16);
    }
  }
}

template <int kBits>
HWY_INLINE void UnpackCodes(const uint8_t* src, size_t n, size_t readable, uint8_t* codes) {
  (void)readable;  // used by the FP6 vector loop only
  if constexpr (kBits == 8) {
    std::memcpy(codes, src, n);
  } else if constexpr (kBits == 4) {
    size_t i = 0;
#if HWY_TARGET != HWY_SCALAR
    const CappedTag<uint8_t, 16> d8;
    if (Lanes(d8) == 16) {  // 16 bytes -> 32 codes: low nibbles and high nibbles, interleaved
      for (; i + 32 <= n; i += 32) {
        const auto v = LoadU(d8, src + i / 2);
        const auto lo = And(v, Set(d8, 0xF)), hi = ShiftRight<4>(v);
        StoreU(InterleaveLower(d8, lo, hi), d8, codes + i);
        StoreU(InterleaveUpper(d8, lo, hi), d8, codes + i + 16);
      }
    }
#endif
    for (; i < n; i += 2) codes[i] = src[i / 2] & 0xF, codes[i + 1] = src[i / 2] >> 4;
  } else {
    size_t i = 0;
#if HWY_TARGET != HWY_SCALAR
    // 12 bytes -> 16 codes: each 3-byte word moved into a 32-bit lane by one byte shuffle, then its
    // four 6-bit fields moved to the lane's four bytes. The load reads 16 bytes: `readable` (the
    // bytes at src that may be read, at least 3n/4) says how far that may go.
    const CappedTag<uint8_t, 16> d8;
    const Repartition<uint32_t, decltype(d8)> d32;
    if (Lanes(d8) == 16) {
      alignas(16) static constexpr uint8_t kSpread[16] = {0, 1, 2, 0x80, 3, 4, 5, 0x80, 6, 7, 8, 0x80, 9, 10, 11, 0x80};
      const auto spread = Load(d8, kSpread);
      for (; i + 16 <= n && 3 * i / 4 + 16 <= readable; i += 16) {
        const auto w = BitCast(d32, TableLookupBytesOr0(LoadU(d8, src + 3 * i / 4), spread));
        const auto c = Or(Or(And(w, Set(d32, 0x3Fu)), And(ShiftLeft<2>(w), Set(d32, 0x3F00u))),
                          Or(And(ShiftLeft<4>(w), Set(d32, 0x3F0000u)), And(ShiftLeft<6>(w), Set(d32, 0x3F000000u))));
        StoreU(BitCast(d8, c), d8, codes + i);
      }
    }
#endif
    for (; i < n; i += 4) {
      const uint32_t w = src[3 * i / 4] | (src[3 * i / 4 + 1] << 8) | (uint32_t(src[3 * i / 4 + 2]) << 16);
      for (size_t k = 0; k < 4; ++k) codes[i + k] = (w >> (6 * k)) & 0x3F;
    }
  }
}

// The same widening for one value (for the zero-padded copies).
template <typename T>
HWY_INLINE uint32_t WidenBits(const T& v) {
  uint32_t bits = 0;
  if constexpr (std::is_same_v<T, float>) {
    std::memcpy(&bits, &v, 4);
    return bits;
  } else {
    uint16_t h;
    std::memcpy(&h, &v, 2);
    return std::is_same_v<T, hwy::bfloat16_t> ? mx::detail::BFloat16ToBits(h) : mx::detail::Float16ToBits(h);
  }
}

// ---- quantize: the last axis, N whole blocks at a time --------------------------------------------
// The hot case, written for the width Highway gives each target: N = Lanes(di) int32 lanes (16 on
// AVX-512, 8 on AVX2, 1 on the scalar lane). A group is N consecutive whole blocks. Per block,
// the max of its |x| bits over its vectors (16-bit inputs: on the 16-bit patterns, widened once);
// the N block maxima are then transposed into one vector, lane b = block b, by log2(N) rounds of
// ConcatEven/ConcatOdd, so E, the factor and the keep mask are computed once for N blocks and
// each block's factor is a lane broadcast. The codes of four vectors are packed into bytes in
// order and stored at once. The same kernels (ScaleCode, ScaleFactor, QuantizeLanes) as the
// per-block path below, so the same bits (tested per target).

// Max |x| bits of the bs elements at x, as int32 lanes (the block's max is the max over lanes).
// 16-bit inputs: the max of the 16-bit |x| patterns (< 0x8000, so signed compares order them as
// their values), then widened like the elements: half the lanes' work of widening each first.
template <typename T, class DI>
HWY_INLINE Vec<DI> BlockAbsMax(DI di, const T* x, int64_t bs) {
#if HWY_TARGET != HWY_SCALAR
  if constexpr (sizeof(T) == 2) {
    const Repartition<int16_t, DI> d16;
    const int64_t M = static_cast<int64_t>(Lanes(d16));
    const int16_t* p16 = reinterpret_cast<const int16_t*>(x);
    auto m16 = And(LoadU(d16, p16), Set(d16, 0x7FFF));
    for (int64_t i = M; i < bs; i += M) m16 = Max(m16, And(LoadU(d16, p16 + i), Set(d16, 0x7FFF)));
    const auto w = BitCast(di, m16);
    const auto m = Max(And(w, Set(di, 0xFFFF)), ShiftRight<16>(w));  // one 16-bit pattern per lane
    if constexpr (std::is_same_v<T, hwy::bfloat16_t>) {
      return ShiftLeft<16>(m);
    } else {
      const Rebind<uint16_t, DI> du16;
      const Rebind<hwy::float16_t, DI> df16;
      const Rebind<float, DI> df;
      return BitCast(di, PromoteTo(df, BitCast(df16, DemoteTo(du16, m))));
    }
  }
#endif
  const int64_t N = static_cast<int64_t>(Lanes(di));
  auto m = Zero(di);
  for (int64_t i = 0; i < bs; i += N) m = Max(m, And(LoadBits(di, x + i), Set(di, 0x7FFFFFFF)));
  return m;
}

// Lane b = the max over the lanes of m[b], for the N vectors m[0..N).
template <class DI>
HWY_INLINE Vec<DI> TransposeMax(DI di, Vec<DI>* m) {
  constexpr size_t N = MaxLanes(di);
  if constexpr (N > 1) {
    for (size_t w = N; w > 1; w /= 2) {
      for (size_t k = 0; k < w / 2; ++k) {
        m[k] = Max(ConcatEven(di, m[2 * k + 1], m[2 * k]), ConcatOdd(di, m[2 * k + 1], m[2 * k]));
      }
    }
  }
  (void)di;
  return m[0];
}

// Bytes that StoreCodes4 writes (FP6 also touches, with junk, the 4N - 3N bytes after them).
template <ElemFormat F, class DI>
constexpr size_t CodeBytes4(DI di) {
  return F.bits * MaxLanes(di) / 2;
}
template <ElemFormat F, class DI>
constexpr size_t TouchedBytes4(DI di) {
  return F.bits == 6 ? 4 * MaxLanes(di) : CodeBytes4<F>(di);
}

// Lane j of the FP6 packing's 32-bit permute: the j-th of the 3-byte runs, 3 per 128-bit block.
template <size_t N>
struct TightLanes {
  alignas(64) int32_t v[N];
  constexpr TightLanes() : v() {
    for (size_t j = 0; j < N; ++j) v[j] = static_cast<int32_t>(j < 3 * N / 4 ? j / 3 * 4 + j % 3 : j);
  }
};

// Packs the Lanes(d8) codes of `bytes` (one per byte, < 2^bits, in element order) at dst as
// PackCodes lays them out (FP6 also writes junk into the bytes up to Lanes(d8) after dst).
template <ElemFormat F, class D8>
HWY_INLINE void StoreCodeBytes(D8 d8, Vec<D8> bytes, uint8_t* dst) {
  if constexpr (F.bits == 8) {
    StoreU(bytes, d8, dst);
  } else if constexpr (F.bits == 4) {  // u16 lane i = code 2i | code 2i+1 << 8 -> byte code 2i | code 2i+1 << 4
    const Repartition<int16_t, D8> d16;
    const Rebind<uint8_t, decltype(d16)> dh;
    const auto w = BitCast(d16, bytes);
    StoreU(DemoteTo(dh, And(Or(w, ShiftRight<4>(w)), Set(d16, 0xFF))), dh, dst);
  } else {  // u32 lane i = codes 4i..4i+3 -> the 24-bit word e0 | e1 << 6 | e2 << 12 | e3 << 18
    const Repartition<uint32_t, D8> du32;
    const Repartition<int32_t, D8> di;
    const auto w = BitCast(du32, bytes);
    const auto word = Or(Or(And(w, Set(du32, 0x3F)), And(ShiftRight<2>(w), Set(du32, 0xFC0))),
                         Or(And(ShiftRight<4>(w), Set(du32, 0x3F000)), And(ShiftRight<6>(w), Set(du32, 0xFC0000))));
    // Bytes 0-2 of each 32-bit lane to the front of its 128-bit block, then the blocks' 12-byte
    // runs together: 3N bytes in order, and junk after them.
    alignas(16) static constexpr uint8_t kTight[16] = {0, 1, 2, 4, 5, 6, 8, 9, 10, 12, 13, 14, 15, 15, 15, 15};
    const auto tight = TableLookupBytes(BitCast(d8, word), LoadDup128(d8, kTight));
    if constexpr (MaxLanes(d8) == 32) {  // AVX2: each 128-bit half's 12 bytes stored where they go
      const Half<D8> dh;
      StoreU(LowerHalf(dh, tight), dh, dst);
      StoreU(UpperHalf(dh, tight), dh, dst + 12);
      return;
    }
    static constexpr TightLanes<MaxLanes(di)> kIdx;
    const auto runs = TableLookupLanes(BitCast(di, tight), SetTableIndices(di, kIdx.v));
    StoreU(BitCast(d8, runs), d8, dst);
  }
}

// The codes of 4N consecutive elements (c0..c3, int32 lanes < 2^bits, in element order) packed
// at dst as PackCodes lays them out.
template <ElemFormat F, class DI>
HWY_INLINE void StoreCodes4(DI di, Vec<DI> c0, Vec<DI> c1, Vec<DI> c2, Vec<DI> c3, uint8_t* dst) {
#if HWY_TARGET == HWY_SCALAR
  (void)di;
  const uint8_t codes[4] = {static_cast<uint8_t>(GetLane(c0)), static_cast<uint8_t>(GetLane(c1)),
                            static_cast<uint8_t>(GetLane(c2)), static_cast<uint8_t>(GetLane(c3))};
  PackCodes<F.bits>(codes, 4, dst);
#else
  const Repartition<uint8_t, DI> d8;
  Vec<decltype(d8)> bytes;  // the 4N codes as bytes, in element order
  // x86: two saturating packs leave, in each 128-bit block j, the 4-byte groups c0[4j..] c1[4j..]
  // c2[4j..] c3[4j..]; one 32-bit permute puts them back in element order.
#if HWY_TARGET == HWY_AVX3
  const __m512i packed = _mm512_packus_epi16(_mm512_packs_epi32(c0.raw, c1.raw), _mm512_packs_epi32(c2.raw, c3.raw));
  const __m512i order = _mm512_setr_epi32(0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15);
  bytes.raw = _mm512_permutexvar_epi32(order, packed);
#elif HWY_TARGET == HWY_AVX2
  const __m256i packed = _mm256_packus_epi16(_mm256_packs_epi32(c0.raw, c1.raw), _mm256_packs_epi32(c2.raw, c3.raw));
  bytes.raw = _mm256_permutevar8x32_epi32(packed, _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7));
#else
  const Rebind<uint8_t, DI> dq;  // a quarter of d8
  HWY_ALIGN uint8_t buf[4 * MaxLanes(di)];
  const size_t N = Lanes(di);
  StoreU(DemoteTo(dq, c0), dq, buf);
  StoreU(DemoteTo(dq, c1), dq, buf + N);
  StoreU(DemoteTo(dq, c2), dq, buf + 2 * N);
  StoreU(DemoteTo(dq, c3), dq, buf + 3 * N);
  bytes = Load(d8, buf);
#endif
  StoreCodeBytes<F>(d8, bytes, dst);
#endif
}

// Encodes n_vec vectors of the group at x (blocks of bs elements, factor and keep of block b in
// lane b) into y. `room`: the bytes at y that may be written (the group's codes and what follows
// them in this call's range); the last, short, quad goes through a small buffer. kPerBlock: bs / N
// when known at compile time (blocksize 32), else 0.
template <ElemFormat F, RoundMode kMode, bool kAllFinite, int64_t kPerBlock, typename T, class DI, class DF>
HWY_INLINE void EncodeGroup(DI di, DF df, const T* x, int64_t bs, int64_t n_vec, Vec<DF> factor, Vec<DI> keep,
                            uint8_t* y, int64_t room) {
  constexpr int64_t N = static_cast<int64_t>(MaxLanes(di));
  const int64_t per_block = kPerBlock > 0 ? kPerBlock : bs / N;
  const auto factor_bits = BitCast(di, factor);
  auto lane = [&](Vec<DI> v, int64_t b) { return TableLookupLanes(v, IndicesFromVec(di, Set(di, static_cast<int32_t>(b)))); };
  // Block b's factor and keep in every lane; b advances by one every per_block vectors.
  int64_t b = 0, left = per_block;
  auto fb = BitCast(df, lane(factor_bits, 0));
  auto kb = kAllFinite ? keep : lane(keep, 0);
  auto next = [&](int64_t v) {
    if (v >= n_vec) return Zero(di);
    if constexpr (kPerBlock > 0) {
      const int64_t bv = v / kPerBlock;
      return QuantizeLanes<F, kMode, kAllFinite>(df, di, LoadBits(di, x + v * N), BitCast(df, lane(factor_bits, bv)),
                                                 kAllFinite ? keep : lane(keep, bv));
    } else {
      if (left == 0) {
        ++b, left = per_block;
        fb = BitCast(df, lane(factor_bits, b));
        if (!kAllFinite) kb = lane(keep, b);
      }
      --left;
      return QuantizeLanes<F, kMode, kAllFinite>(df, di, LoadBits(di, x + v * N), fb, kb);
    }
  };
  constexpr int64_t kCode = static_cast<int64_t>(CodeBytes4<F>(di));
  constexpr int64_t kTouch = static_cast<int64_t>(TouchedBytes4<F>(di));
  for (int64_t v = 0; v < n_vec; v += 4, y += kCode, room -= kCode) {
    const auto c0 = next(v), c1 = next(v + 1), c2 = next(v + 2), c3 = next(v + 3);
    if (v + 4 <= n_vec && room >= kTouch) {
      StoreCodes4<F>(di, c0, c1, c2, c3, y);
    } else {
      HWY_ALIGN uint8_t buf[TouchedBytes4<F>(di)];
      StoreCodes4<F>(di, c0, c1, c2, c3, buf);
      std::memcpy(y, buf, static_cast<size_t>(std::min(n_vec - v, int64_t{4}) * N * F.bits / 8));
    }
  }
}

#if HWY_TARGET != HWY_SCALAR
// ---- quantize: 16-bit inputs in 16-bit lanes ------------------------------------------------------
// bfloat16 and float16 inputs, rint and round, blocks with a finite scale code E: each code is
// computed from the input bits in 16-bit lanes (twice the lanes of the float32 path, and no
// widening). With a = |x|'s bits, K the input's mantissa bits and bias its exponent bias,
// e' = max(a >> K, 1) and M = a - ((e' - 1) << K) (the significand, implicit bit included),
//   |x| * 2^(127 - E) = M * 2^(e' - bias - K + 127 - E),
// whose exponent above F's smallest normal is d = e' - bias + 127 - E - emin. F's grid step there is
// 2^(max(d, 0) + emin - mbits), so, as in EncodeBits,
//   code = min((max(d, 0) << mbits) + round(M * 2^(min(d, 0) + mbits - K)), max_code)
// (a q that rounds up carries into the exponent field). The rounding shift is made constant by
// scaling M first: Y = M * 2^j with j = clamp(d + mbits + 1, -1, mbits + 1), 2^j read by a byte
// shuffle (0 for j = -1: there |x| is below half F's smallest step and rounds to 0), and
// q = round(Y / 2^(K + 1)); Y < 2^(K + mbits + 2) <= 2^15. Exact integer arithmetic, like the
// float32 path's single exact rounding, so the same codes: tested on every 16-bit pattern at
// every scale code (MxQuantize.Every16BitPatternAtEveryScale).
template <typename T>
struct In16 {
  static constexpr int K = std::is_same_v<T, hwy::bfloat16_t> ? 7 : 10;
  static constexpr int bias = std::is_same_v<T, hwy::bfloat16_t> ? 127 : 15;
};

// Encode16's `pow`, in every 128-bit block: byte j = 2^j for j = 0..7 (then 0).
alignas(16) constexpr uint8_t kPow2Bytes[16] = {1, 2, 4, 8, 16, 32, 64, 128};

// Codes of the 16-bit inputs x (their bits) of one block, in 16-bit lanes; kd = E + bias - 127 +
// emin - mbits - 1 (so that e' - kd = d + mbits + 1); pow: the bytes 1, 2, 4, ... of 2^j.
template <ElemFormat F, RoundMode kMode, typename T, class D16, class V8>
HWY_INLINE Vec<D16> Encode16(D16 d16, Vec<D16> x, Vec<D16> kd, V8 pow) {
  constexpr int K = In16<T>::K, m = F.mbits;
  const RebindToUnsigned<D16> du;
  const Repartition<uint8_t, D16> d8;
  const auto a = And(x, Set(d16, 0x7FFF));
  const auto e1 = Max(ShiftRight<K>(a), Set(d16, 1));
  const auto sig = Sub(Add(a, Set(d16, 1 << K)), ShiftLeft<K>(e1));
  const auto dp = Sub(e1, kd);  // d + mbits + 1
  const auto j = Max(Min(dp, Set(d16, m + 1)), Set(d16, -1));
  // Byte index j for the low byte, one with bit 7 set (a zero) for the high byte; j = -1: both.
  const auto scale = BitCast(du, TableLookupBytesOr0(pow, BitCast(d8, Or(j, Set(d16, int16_t(-0x8000))))));
  const auto y = Mul(BitCast(du, sig), scale);
  auto half = Set(du, 1 << K);  // round: half away from zero
  if constexpr (kMode == RoundMode::kRint) half = Add(Set(du, (1 << K) - 1), And(ShiftRight<K + 1>(y), Set(du, 1)));
  const auto q = BitCast(d16, ShiftRight<K + 1>(Add(y, half)));
  // max(d, 0) << mbits, and 0 for a zero x: the min with a (>= 2^K > any exponent part of a
  // non-zero x, whose d is at most emax - emin + 1) does that in one operation.
  const auto normal = Min(ShiftLeft<m>(Sub(Max(dp, Set(d16, m + 1)), Set(d16, m + 1))), a);
  const auto code = Min(Add(q, normal), Set(d16, F.max_code));
  return Or(code, And(ShiftRight<16 - F.bits>(x), Set(d16, 1 << (F.bits - 1))));
}

// The same codes through the float32 path (for the vectors Encode16 does not take): the factors
// 2^(127 - E) of the first and the second half of the lanes.
template <ElemFormat F, RoundMode kMode, typename T, class D16, class VF>
HWY_NOINLINE Vec<D16> EncodeWide(D16 d16, const T* x, VF f0, VF f1) {
  const Repartition<int32_t, D16> di;
  const RebindToFloat<decltype(di)> df;
  const Rebind<int16_t, decltype(di)> dh;
  const auto c0 = QuantizeLanes<F, kMode, true>(df, di, LoadBits(di, x), f0, Zero(di));
  const auto c1 = QuantizeLanes<F, kMode, true>(df, di, LoadBits(di, x + Lanes(di)), f1, Zero(di));
  return Combine(d16, DemoteTo(dh, c1), DemoteTo(dh, c0));
}

// Lanes holding a subnormal input (0 < a < 2^K), whose M lacks the implicit bit that Encode16's
// formula needs: they can land on F's normal range where kd <= -mbits (d >= 0 at e' = 1; float16
// blocks with amax below about 2, bfloat16 ones only below 2^-110), and go the float32 way there.
template <typename T, class D16>
HWY_INLINE Mask<D16> Subnormal16(D16 d16, Vec<D16> x16) {
  // 0 < a < 2^K, as one signed compare: (a - 1) ^ 0x8000 < (2^K - 1) ^ 0x8000
  const auto t = Xor(Sub(And(x16, Set(d16, 0x7FFF)), Set(d16, 1)), Set(d16, int16_t(-0x8000)));
  return Lt(t, Set(d16, static_cast<int16_t>(((1 << In16<T>::K) - 1) - 0x8000)));
}

// The int16 lanes c0, c1 (values < 256) as bytes, in order.
template <class D16>
HWY_INLINE Vec<Repartition<uint8_t, D16>> Bytes2(D16 d16, Vec<D16> c0, Vec<D16> c1) {
  const Repartition<uint8_t, D16> d8;
  Vec<decltype(d8)> bytes;
#if HWY_TARGET == HWY_AVX3
  (void)d16;
  bytes.raw = _mm512_permutexvar_epi64(_mm512_setr_epi64(0, 2, 4, 6, 1, 3, 5, 7), _mm512_packus_epi16(c0.raw, c1.raw));
#elif HWY_TARGET == HWY_AVX2
  (void)d16;
  bytes.raw = _mm256_permute4x64_epi64(_mm256_packus_epi16(c0.raw, c1.raw), 0xD8);
#else
  const Rebind<uint8_t, D16> dh;
  bytes = Combine(d8, DemoteTo(dh, c1), DemoteTo(dh, c0));
#endif
  return bytes;
}

// FP4 thresholds: the input-format bits of t_k = (g(k - 1) + g(k)) / 2, g(c) the value of code c,
// minus 1 where a tie at t_k rounds up (rint: to the even code k; round: always), so that |v|
// rounds to a code >= k iff bits(|v|) > ThresholdBits(k). t_k = t * 2^(emin - mbits - 1) with t
// an integer of at most mbits + 2 significant bits, so exact in bfloat16 and float16.
template <ElemFormat F, RoundMode kMode, typename T>
constexpr int ThresholdBits(int k) {
  auto g2 = [](int c) {  // g(c) / 2^(emin - mbits - 1)
    const int ef = c >> F.mbits, man = c & ((1 << F.mbits) - 1);
    return 2 * (ef == 0 ? man : ((1 << F.mbits) + man) << (ef - 1));
  };
  const int t = (g2(k - 1) + g2(k)) / 2;
  int h = 0;
  while ((2 << h) <= t) ++h;
  const int bits = ((h + F.emin - F.mbits - 1 + In16<T>::bias) << In16<T>::K) + ((t - (1 << h)) << (In16<T>::K - h));
  return bits - (kMode == RoundMode::kRound || k % 2 == 0 ? 1 : 0);
}

// Encodes the count whole blocks of bs elements at x, with the scale codes e[0..count) (all
// < 255), into y. `room`: the bytes at y that may be written.
template <ElemFormat F, RoundMode kMode, typename T>
HWY_INLINE void EncodeBlocks16(const T* x, int64_t bs, int64_t count, const uint8_t* e, uint8_t* y, int64_t room) {
  const ScalableTag<int16_t> d16;
  const Repartition<uint8_t, decltype(d16)> d8;
  const int64_t L = static_cast<int64_t>(Lanes(d16)), n = count * bs;  // bs is a multiple of L
  const auto pow = LoadDup128(d8, kPow2Bytes);
  const int16_t* p = reinterpret_cast<const int16_t*>(x);
  constexpr int K = In16<T>::K, m = F.mbits;
  // The block of each vector, stepping through the blocks (no division), and its scale code.
  int64_t block = -1, left = 0;
  auto next_block = [&]() {
    if (left == 0) ++block, left = bs;
    left -= L;
    return block;
  };
  auto scale_of_next = [&]() { return static_cast<int32_t>(e[next_block()]); };
  auto kd_of = [](int32_t ei) { return ei + In16<T>::bias - 127 + F.emin - m - 1; };
  auto encode = [&](int64_t i, int32_t ei) {
    const auto x16 = LoadU(d16, p + i);
    if (kd_of(ei) <= -m && HWY_UNLIKELY(!AllFalse(d16, Subnormal16<T>(d16, x16)))) {
      const RebindToFloat<Repartition<int32_t, decltype(d16)>> df;
      const auto f = ScaleFactor(df, RebindToSigned<decltype(df)>(), Set(RebindToSigned<decltype(df)>(), ei));
      return EncodeWide<F, kMode>(d16, x + i, f, f);
    }
    return Encode16<F, kMode, T>(d16, x16, Set(d16, static_cast<int16_t>(kd_of(ei))), pow);
  };
  const int64_t chunk = 2 * L, code_bytes = chunk * F.bits / 8;
  const int64_t touched = F.bits == 6 ? chunk : code_bytes;
  auto store = [&](int64_t i, Vec<decltype(d8)> bytes, bool full) {
    if (full && room >= touched) {
      StoreCodeBytes<F>(d8, bytes, y);
    } else {
      HWY_ALIGN uint8_t buf[MaxLanes(d8)];
      StoreCodeBytes<F>(d8, bytes, buf);
      std::memcpy(y, buf, static_cast<size_t>(std::min(n - i, chunk) * F.bits / 8));
    }
  };
  // FP8 from bfloat16 and E4M3 from float16 (the FP8 QuantizeGroups sends here), the common case
  // in fewer operations. With A = a - (kd << K) = ((d + mbits + 1) << K) + a's mantissa bits:
  //   A >= (mbits + 1) << K (d >= 0, F's normal range): code = round((A - (mbits << K)) >> s),
  //     s = K - mbits, saturated at max_code (the exponent field and the carry as in Encode16);
  //   A < 0 (d < -mbits - 1: below half F's smallest step): code 0, here from a negative q that
  //     the saturating pack to bytes turns into 0 (the sign is merged after the pack);
  //   a zero x: 0, by the min with a (any non-zero a >= 2^K > max_code);
  //   the rest goes through Encode16, a pair of vectors at a time: a non-zero A in [0, (mbits + 1)
  //     << K) (F's subnormals), and a subnormal input (0 < a < 2^K, its M lacks the implicit bit)
  //     where kd <= -(mbits + 1), the only blocks where one can reach A >= (mbits + 1) << K. Both
  //     are one range of a per block: lo <= a < hi, flagged by hi - lo - (a - lo) in unsigned
  //     saturating arithmetic, non-zero exactly there.
  // A block's elements have d <= emax - emin, so A < (emax - emin + mbits + 2) << K fits int16
  // for these formats (float16 to E5M2 would not), and so does kd << K: kd >= -17 for bfloat16;
  // for float16, kd >= -27 in every block with a non-zero element (E >= 95). In a float16 block
  // of zeros (E = 0) kd << K wraps, harmlessly: the min with a = 0 and the saturating pack make
  // every code 0 whatever A is, and no zero is flagged.
  if constexpr (F.bits == 8 && (K == 7 || m == 3)) {
    constexpr int sh = K - m;
    const RebindToUnsigned<decltype(d16)> du;
    // Per block, once (broadcast from memory in the loop): kd << K, lo and hi - lo.
    HWY_ALIGN int16_t kdk[kMaxLanes], lo[kMaxLanes], width[kMaxLanes];
    for (int64_t b = 0; b < count; ++b) {
      const int32_t kd = kd_of(e[b]), l = std::max(kd * (1 << K), 1), h = std::max(kd + m + 1, 1) * (1 << K);
      kdk[b] = static_cast<int16_t>(kd * (1 << K)), lo[b] = static_cast<int16_t>(l), width[b] = static_cast<int16_t>(h - l);
    }
    auto fast = [&](Vec<decltype(d16)> x16, int64_t b, Vec<decltype(du)>& flag) {
      const auto a = And(x16, Set(d16, 0x7FFF));
      flag = Or(flag, SaturatedSub(BitCast(du, Set(d16, width[b])), BitCast(du, Sub(a, Set(d16, lo[b])))));
      const auto A = Sub(a, Set(d16, kdk[b]));
      const auto half = Add(Set(d16, static_cast<int16_t>((1 << (sh - 1)) - 1 - (m << K))), And(ShiftRight<sh>(A), Set(d16, 1)));
      return Min(Min(ShiftRight<sh>(Add(A, half)), Set(d16, F.max_code)), a);
    };
    for (int64_t i = 0; i < n; i += chunk, y += code_bytes, room -= code_bytes) {
      const bool full = i + chunk <= n;  // else one vector left (AVX3: an odd number of 32-element blocks)
      const int64_t b0 = next_block(), b1 = full ? next_block() : b0;
      const auto x0 = LoadU(d16, p + i), x1 = full ? LoadU(d16, p + i + L) : Zero(d16);
      auto flag = Zero(du);
      const auto c0 = fast(x0, b0, flag), c1 = fast(x1, b1, flag);
      auto bytes = Bytes2(d16, c0, c1);
      if (HWY_UNLIKELY(!AllTrue(du, Eq(flag, Zero(du))))) {
        bytes = Bytes2(d16, encode(i, e[b0]), full ? encode(i + L, e[b1]) : Zero(d16));
      }
      // The signs: bit 7 of x's high bytes.
      const auto high = Bytes2(d16, BitCast(d16, ShiftRight<8>(BitCast(du, x0))), BitCast(d16, ShiftRight<8>(BitCast(du, x1))));
      bytes = Or(bytes, And(high, Set(d8, 0x80)));
      store(i, bytes, full);
    }
    return;
  }
  // FP4, by counting thresholds: with A = a - ((E - 127) << K), a's bits at scale 1 (input bit
  // patterns order their values), the code is the number of k in 1..max_code with
  // A > ThresholdBits(k). Exact while t_1 * 2^(E - 127) is a normal number of the input format (its
  // bits are then t_1's shifted: scale codes from `from`, 2^-10 or more for float16 blocks); zeros
  // and subnormal inputs compare like any other value. Seven compares, no special cases.
  if constexpr (F.bits == 4) {
    const RebindToUnsigned<decltype(d16)> du;
    Vec<decltype(d16)> thr[F.max_code];
    for (int k = 0; k < F.max_code; ++k) thr[k] = Set(d16, static_cast<int16_t>(ThresholdBits<F, kMode, T>(k + 1)));
    constexpr int32_t from = 129 - In16<T>::bias - F.emin + m;
    auto count = [&](int64_t i, int32_t ei) {
      if (HWY_UNLIKELY(ei < from)) return encode(i, ei);
      const auto x16 = LoadU(d16, p + i);
      const auto A = Sub(And(x16, Set(d16, 0x7FFF)), Set(d16, static_cast<int16_t>((ei - 127) * (1 << K))));
      auto code = Zero(d16);
      for (int k = 0; k < F.max_code; ++k) code = Sub(code, VecFromMask(d16, Gt(A, thr[k])));
      return Or(code, And(BitCast(d16, ShiftRight<12>(BitCast(du, x16))), Set(d16, 8)));
    };
    for (int64_t i = 0; i < n; i += chunk, y += code_bytes, room -= code_bytes) {
      const bool full = i + chunk <= n;
      const auto c0 = count(i, scale_of_next());
      const auto c1 = full ? count(i + L, scale_of_next()) : Zero(d16);
      store(i, Bytes2(d16, c0, c1), full);
    }
    return;
  }
  for (int64_t i = 0; i < n; i += chunk, y += code_bytes, room -= code_bytes) {
    const bool full = i + chunk <= n;
    const auto c0 = encode(i, scale_of_next());
    const auto c1 = full ? encode(i + L, scale_of_next()) : Zero(d16);
    store(i, Bytes2(d16, c0, c1), full);
  }
}
#endif

// Quantizes n_blocks whole consecutive blocks at x into y, their scale codes into scale[0..).
// `room`: bytes at y that may be written (at least the blocks' codes).
template <ElemFormat F, RoundMode kMode, typename T>
void QuantizeGroups(const mx::QuantizePlan& p, const T* x, uint8_t* y, uint8_t* scale, int64_t n_blocks, int64_t room) {
  const ScalableTag<int32_t> di;
  const RebindToFloat<decltype(di)> df;
  constexpr int64_t N = static_cast<int64_t>(MaxLanes(di));
  const int64_t bs = p.blocksize, code_bytes = bs * F.bits / 8;
  for (int64_t g = 0; g < n_blocks; g += N) {
    const int64_t count = std::min(N, n_blocks - g);
    Vec<decltype(di)> m[N];
    for (int64_t b = 0; b < N; ++b) m[b] = b < count ? BlockAbsMax(di, x + (g + b) * bs, bs) : Zero(di);
    const auto e = ScaleCode<F>(df, di, TransposeMax(di, m), p.alg);
    const auto factor = ScaleFactor(df, di, e);
    HWY_ALIGN uint8_t codes[N];
    StoreBytes(di, e, codes);
    std::memcpy(scale + g, codes, static_cast<size_t>(count));
    const T* xg = x + g * bs;
    uint8_t* yg = y + g * code_bytes;
    const int64_t n_vec = count * bs / N, left = room - g * code_bytes;
    constexpr int64_t k32 = 32 / N;
    if (AllFalse(di, Eq(e, Set(di, 255)))) {  // the keep mask is all ones: unused
#if HWY_TARGET != HWY_SCALAR
      // float16 to E5M2 and FP6 measured as fast or faster on the float32 path (F16C widening).
      if constexpr (sizeof(T) == 2 && kMode != RoundMode::kFloor && (In16<T>::K == 7 || F.bits == 4 || (F.bits == 8 && F.mbits == 3))) {
        EncodeBlocks16<F, kMode>(xg, bs, count, codes, yg, left);
        continue;
      }
#endif
      if (bs == 32) EncodeGroup<F, kMode, true, k32>(di, df, xg, bs, n_vec, factor, e, yg, left);
      else EncodeGroup<F, kMode, true, 0>(di, df, xg, bs, n_vec, factor, e, yg, left);
    } else {
      EncodeGroup<F, kMode, false, 0>(di, df, xg, bs, n_vec, factor, KeepMask(di, e), yg, left);
    }
  }
}

// ---- quantize: blocks along the last axis (post == 1) -------------------------------------------
// Whole blocks go through QuantizeGroups above. A short last block (dim % blocksize) is handled
// here on a zero-padded float32 copy: the max |x| over its vectors, reduced across lanes, gives E
// in every lane; then each vector is scaled and encoded.
template <ElemFormat F, RoundMode kMode, typename T>
void QuantizeLast(const mx::QuantizePlan& p, int64_t g0, int64_t g1) {
  const ScalableTag<int32_t> di;
  const RebindToFloat<decltype(di)> df;
  const int64_t N = static_cast<int64_t>(Lanes(di));
  const int64_t bs = p.blocksize, dim = p.dim, nb = (dim + bs - 1) / bs;
  const T* x = static_cast<const T*>(p.x);
  uint8_t* y = static_cast<uint8_t*>(p.y);
  HWY_ALIGN uint8_t codes[kMaxBlock] = {};
  HWY_ALIGN int32_t staged[kMaxBlock + kMaxLanes];
  const int64_t elem_end = g1 / nb * dim + std::min(g1 % nb * bs, dim);  // after this range's last element
  for (int64_t g = g0; g < g1; ++g) {
    const int64_t r = g / nb, b = g % nb;
    const int64_t first = r * dim + b * bs;
    // Whole blocks go through QuantizeGroups: up to the end of the range when rows hold whole
    // blocks and their scale rows no padding (then blocks, codes and scales are all consecutive),
    // else up to the last whole block of this row.
    const int64_t whole = nb - (dim % bs != 0);
    if (b < whole) {
      const int64_t end = dim % bs == 0 && nb % 2 == 0 ? g1 : std::min(g1, r * nb + whole);
      const int64_t scale_at = nb % 2 == 0 ? g : r * (nb + 1) + b;
      QuantizeGroups<F, kMode>(p, x + first, y + first * F.bits / 8, p.scale + scale_at, end - g,
                               (elem_end - first) * F.bits / 8);
      if (nb % 2 == 1 && whole == nb && end == (r + 1) * nb) p.scale[r * (nb + 1) + nb] = 0;  // pad byte
      g = end - 1;
      continue;
    }
    const int64_t len = std::min(bs, dim - b * bs);
    const bool direct = len == bs && bs % N == 0;
    if (!direct) {
      const int64_t padded = (len + N - 1) / N * N;
      for (int64_t i = 0; i < padded; ++i) staged[i] = i < len ? static_cast<int32_t>(WidenBits(x[first + i])) : 0;
    }
    const int64_t span = direct ? bs : (len + N - 1) / N * N;
    auto load = [&](int64_t i) {
      return direct ? LoadBits(di, x + first + i) : LoadU(di, staged + i);
    };
    auto amax = Zero(di);
    for (int64_t i = 0; i < span; i += N) amax = Max(amax, And(load(i), Set(di, 0x7FFFFFFF)));
    amax = MaxOfLanes(di, amax);
    const auto e = ScaleCode<F>(df, di, amax, p.alg);
    const auto factor = ScaleFactor(df, di, e);
    const auto keep = KeepMask(di, e);
    uint8_t* scale_row = p.scale + r * ((nb + 1) / 2) * 2;
    scale_row[b] = static_cast<uint8_t>(GetLane(e));
    if (b == nb - 1 && nb % 2 == 1) scale_row[nb] = 0;
    if constexpr (F.bits == 8) {
      if (direct) {
        for (int64_t i = 0; i < bs; i += N) {
          StoreBytes(di, QuantizeLanes<F, kMode>(df, di, load(i), factor, keep), y + first + i);
        }
        continue;
      }
    }
    for (int64_t i = 0; i < span; i += N) {
      StoreBytes(di, QuantizeLanes<F, kMode>(df, di, load(i), factor, keep), codes + i);
    }
    PackCodes<F.bits>(codes, static_cast<size_t>(len), y + first * F.bits / 8);
  }
}

// ---- quantize: blocks along an inner axis (post > 1) --------------------------------------------
// Lanes run along the contiguous post dims, each lane its own block, so E is per lane. Unit g is
// (pre index, block index). The block's rows are taken in tiles of up to kTile columns: a first
// pass streams along the rows keeping the per-column max in a small buffer, E and the factor are
// computed per column, and a second pass (rows now in L2) encodes. A tile's last partial vector
// is read from a zero-padded copy. Tiles start at multiples of kTile, so FP4/FP6 rows pack into
// whole bytes (validation makes post even for FP4 and a multiple of 4 for FP6).
template <ElemFormat F, RoundMode kMode, typename T>
void QuantizeInner(const mx::QuantizePlan& p, int64_t g0, int64_t g1) {
  const ScalableTag<int32_t> di;
  const RebindToFloat<decltype(di)> df;
  const int64_t N = static_cast<int64_t>(Lanes(di));
  constexpr int64_t kTile = 8192 / sizeof(T);  // a multiple of every N; 32 rows x 8 KiB = 256 KiB
  const int64_t bs = p.blocksize, dim = p.dim, post = p.post, nb = (dim + bs - 1) / bs, nb2 = (nb + 1) / 2;
  const T* x = static_cast<const T*>(p.x);
  uint8_t* y = static_cast<uint8_t*>(p.y);
  HWY_ALIGN int32_t amax[kTile], e_buf[kTile], keep_buf[kTile];
  HWY_ALIGN float factor_buf[kTile];
  HWY_ALIGN int32_t staged[kMaxBlock * kMaxLanes];  // with the tile buffers: at most 132 KiB of stack
  HWY_ALIGN uint8_t codes[kTile];
  const auto abs = Set(di, 0x7FFFFFFF);
  for (int64_t g = g0; g < g1; ++g) {
    const int64_t pi = g / nb, b = g % nb;
    const int64_t t0 = b * bs, len = std::min(bs, dim - t0);
    const int64_t base = (pi * dim + t0) * post;  // flat index of (pi, t0, 0)
    for (int64_t q0 = 0; q0 < post; q0 += kTile) {
      const int64_t lanes = std::min(kTile, post - q0);
      const int64_t full = lanes / N * N;  // lanes read directly; the rest from `staged`
      if (full < lanes) {
        for (int64_t t = 0; t < len; ++t) {
          for (int64_t l = 0; l < N; ++l) {
            staged[t * N + l] = full + l < lanes ? static_cast<int32_t>(WidenBits(x[base + t * post + q0 + full + l])) : 0;
          }
        }
      }
      auto load = [&](int64_t t, int64_t s) {
        return s < full ? LoadBits(di, x + base + t * post + q0 + s) : LoadU(di, staged + t * N);
      };
      // Columns [0, s16) of 16-bit inputs: their max in 16-bit lanes (as BlockAbsMax), widened once.
      int64_t s16 = 0;
#if HWY_TARGET != HWY_SCALAR
      const ScalableTag<int16_t> d16;
      const int64_t L = static_cast<int64_t>(Lanes(d16));
      if constexpr (sizeof(T) == 2) {
        const int16_t* x16 = reinterpret_cast<const int16_t*>(x) + base + q0;
        HWY_ALIGN int16_t amax16[kTile];
        s16 = lanes / L * L;
        for (int64_t s = 0; s < s16; s += L) Store(Zero(d16), d16, amax16 + s);
        for (int64_t t = 0; t < len; ++t) {
          for (int64_t s = 0; s < s16; s += L) {
            Store(Max(Load(d16, amax16 + s), And(LoadU(d16, x16 + t * post + s), Set(d16, 0x7FFF))), d16, amax16 + s);
          }
        }
        for (int64_t s = 0; s < s16; s += N) Store(LoadBits(di, reinterpret_cast<const T*>(amax16 + s)), di, amax + s);
      }
#endif
      for (int64_t s = s16; s < lanes; s += N) Store(Zero(di), di, amax + s);
      for (int64_t t = 0; t < len; ++t) {
        for (int64_t s = s16; s < lanes; s += N) Store(Max(Load(di, amax + s), And(load(t, s), abs)), di, amax + s);
      }
      auto finite = Eq(Zero(di), Zero(di));  // every column's E < 255
      for (int64_t s = 0; s < lanes; s += N) {
        const auto e = ScaleCode<F>(df, di, Load(di, amax + s), p.alg);
        Store(e, di, e_buf + s);
        Store(ScaleFactor(df, di, e), df, factor_buf + s);
        Store(KeepMask(di, e), di, keep_buf + s);
        if constexpr (sizeof(T) == 2) finite = And(finite, Lt(e, Set(di, 255)));
      }
      (void)finite;
      uint8_t* srow = p.scale + ((pi * nb2 + b / 2) * post + q0) * 2 + (b % 2);
      for (int64_t l = 0; l < lanes; ++l) {
        srow[2 * l] = static_cast<uint8_t>(e_buf[l]);
        if (b == nb - 1 && nb % 2 == 1) srow[2 * l + 1] = 0;
      }
      // Columns [0, s32) of 16-bit inputs in rint or round, when no column's E is 255: the codes
      // by Encode16 in 16-bit lanes, kd per lane (a subnormal input where kd <= -mbits: that pair
      // of vectors the float32 way), packed 2 * L at a time.
      int64_t s32 = 0;
#if HWY_TARGET != HWY_SCALAR
      const Repartition<uint8_t, decltype(d16)> d8;
      HWY_ALIGN int16_t kd16[sizeof(T) == 2 ? kTile : 1];
      bool risky = false;  // some column has kd <= -mbits
      if constexpr (sizeof(T) == 2 && kMode != RoundMode::kFloor) {
        if (AllTrue(di, finite)) {
          s32 = lanes / (2 * L) * (2 * L);
          const Rebind<int16_t, decltype(di)> dh;
          const auto c = Set(di, In16<T>::bias - 127 + F.emin - F.mbits - 1);
          auto low = Lt(Zero(di), Zero(di));
          for (int64_t s = 0; s < s32; s += N) {
            const auto kd = Add(Load(di, e_buf + s), c);
            Store(DemoteTo(dh, kd), dh, kd16 + s);
            low = Or(low, Lt(kd, Set(di, 1 - F.mbits)));
          }
          risky = !AllFalse(di, low);
        }
      }
      const auto pow = LoadDup128(d8, kPow2Bytes);
#endif
      for (int64_t t = 0; t < len; ++t) {
        const int64_t flat = base + t * post + q0;
        uint8_t* out = F.bits == 8 ? y + flat : codes;
        int64_t s = 0;
#if HWY_TARGET != HWY_SCALAR
        if constexpr (sizeof(T) == 2 && kMode != RoundMode::kFloor) {
          const int16_t* x16 = reinterpret_cast<const int16_t*>(x) + flat;
          auto encode = [&](int64_t c) {  // the L columns from c
            const auto v = LoadU(d16, x16 + c);
            const auto kd = Load(d16, kd16 + c);
            if (risky && HWY_UNLIKELY(!AllFalse(d16, And(Subnormal16<T>(d16, v), Lt(kd, Set(d16, static_cast<int16_t>(1 - F.mbits))))))) {
              return EncodeWide<F, kMode>(d16, x + flat + c, Load(df, factor_buf + c), Load(df, factor_buf + c + N));
            }
            return Encode16<F, kMode, T>(d16, v, kd, pow);
          };
          for (; s < s32; s += 2 * L) {
            const auto bytes = Bytes2(d16, encode(s), encode(s + L));
            uint8_t* dst = y + (flat + s) * F.bits / 8;
            // FP6 writes junk into the 2L / 4 bytes after the codes: straight only where the next pair rewrites them
            if (F.bits != 6 || s + 2 * L < s32) {
              StoreCodeBytes<F>(d8, bytes, dst);
            } else {
              HWY_ALIGN uint8_t buf[MaxLanes(d8)];
              StoreCodeBytes<F>(d8, bytes, buf);
              std::memcpy(dst, buf, static_cast<size_t>(2 * L * F.bits / 8));
            }
          }
        }
#endif
        for (; s < full; s += N) {
          StoreBytes(di, QuantizeLanes<F, kMode>(df, di, load(t, s), Load(df, factor_buf + s), Load(di, keep_buf + s)), out + s);
        }
        if (s < lanes) {
          HWY_ALIGN uint8_t last[kMaxLanes];
          StoreBytes(di, QuantizeLanes<F, kMode>(df, di, load(t, s), Load(df, factor_buf + s), Load(di, keep_buf + s)), last);
          std::memcpy(out + s, last, static_cast<size_t>(lanes - s));
        }
        if (F.bits != 8 && s32 < lanes) PackCodes<F.bits>(codes + s32, static_cast<size_t>(lanes - s32), y + (flat + s32) * F.bits / 8);
      }
    }
  }
}

template <ElemFormat F, RoundMode kMode, typename T>
void QuantizeT(const mx::QuantizePlan& p, int64_t g0, int64_t g1) {
  if (p.post == 1) {
    QuantizeLast<F, kMode, T>(p, g0, g1);
  } else {
    QuantizeInner<F, kMode, T>(p, g0, g1);
  }
}

template <ElemFormat F, RoundMode kMode>
void QuantizeM(const mx::QuantizePlan& p, int64_t g0, int64_t g1) {
  switch (p.x_type) {
    case mx::DType::kFloat32: return QuantizeT<F, kMode, float>(p, g0, g1);
    case mx::DType::kBFloat16: return QuantizeT<F, kMode, hwy::bfloat16_t>(p, g0, g1);
    default: return QuantizeT<F, kMode, hwy::float16_t>(p, g0, g1);
  }
}

template <ElemFormat F>
void QuantizeF(const mx::QuantizePlan& p, int64_t g0, int64_t g1) {
  if constexpr (F.bits == 8) {
    QuantizeM<F, RoundMode::kRint>(p, g0, g1);  // FP8 takes only rint (validated)
  } else {
    switch (p.round) {
      case RoundMode::kRint: return QuantizeM<F, RoundMode::kRint>(p, g0, g1);
      case RoundMode::kRound: return QuantizeM<F, RoundMode::kRound>(p, g0, g1);
      case RoundMode::kFloor: return QuantizeM<F, RoundMode::kFloor>(p, g0, g1);
    }
  }
}

// ---- dequantize -----------------------------------------------------------------------------
// value(code) * 2^(E - 127): exact in float32 (element values have at most 4 significant bits
// and the product stays above 2^-149), or +-Inf where it overflows; then one rounding to
// float16 (F16C/Highway DemoteTo, to nearest even) or bfloat16 (to nearest even, below).
template <class DI>
HWY_INLINE Vec<DI> RoundToBf16(DI di, Vec<DI> bits) {
  const auto lsb = And(ShiftRight<16>(bits), Set(di, 1));
  const auto rounded = ShiftRight<16>(Add(bits, Add(Set(di, 0x7FFF), lsb)));
  const auto quiet = Or(ShiftRight<16>(bits), Set(di, 0x40));  // NaN stays NaN
  const auto is_nan = Gt(And(bits, Set(di, 0x7FFFFFFF)), Set(di, 0x7F800000));
  return And(IfThenElse(is_nan, quiet, rounded), Set(di, 0xFFFF));
}

// kExact: the caller knows every value is a normal float32, an Inf or a NaN (no subnormal: the
// block's scale code is at least ExactFrom<F>): with at most 4 significant bits, each is then a
// bfloat16 as it is, whose bits are the top half of the float32's (NaN: 0x7FC0), so no rounding.
template <bool kExact, typename TOut, class DI>
HWY_INLINE void StoreOut(DI di, Vec<DI> bits, TOut* out) {
  if constexpr (std::is_same_v<TOut, float>) {
    StoreU(bits, di, reinterpret_cast<int32_t*>(out));
  } else if constexpr (std::is_same_v<TOut, hwy::bfloat16_t>) {
    const Rebind<uint16_t, DI> d16;
    const auto b16 = kExact ? And(ShiftRight<16>(bits), Set(di, 0xFFFF)) : RoundToBf16(di, bits);
    StoreU(DemoteTo(d16, b16), d16, reinterpret_cast<uint16_t*>(out));
  } else {
#if HWY_TARGET == HWY_SCALAR
    // Highway 1.0.3's scalar float32 -> float16 truncates and has no Inf or NaN: the compiler's
    // conversion rounds to nearest even, as F16C does.
    float f;
    const int32_t b = GetLane(bits);
    std::memcpy(&f, &b, 4);
    const _Float16 h = static_cast<_Float16>(f);
    std::memcpy(out, &h, 2);
#else
    const Rebind<float, DI> df;
    const Rebind<hwy::float16_t, DI> df16;
    StoreU(DemoteTo(df16, BitCast(df, bits)), df16, out);
#endif
  }
}

// The smallest scale code from which value(code) * 2^(E - 127) is never a float32 subnormal:
// the format's smallest non-zero value 2^(emin - mbits) times 2^(E - 127) reaches 2^-126.
template <ElemFormat F>
constexpr int32_t ExactFrom() {
  return 1 - F.emin + F.mbits;
}

// bfloat16 and float16 outputs of one scale code E straight in 16-bit lanes, where every result
// of the format at that E is a normal number of the output (E in [Out16Lo, Out16Hi]): then
// value(code) * 2^(E - 127) has the output bits
//   normal code (ef >= 1): (mag << (M - mbits)) + ((emin - 1 + E - 127 + bias) << M)
//   subnormal code, man = 2^p (1 + f): Sub16(man) + ((emin - mbits + E - 127 + bias) << M), with
//     Sub16(man) = p << M | f's bits (an 8-entry table read by one byte shuffle)
//   zero: 0; and the sign in bit 15. Exact, so the same bits as the float32 path rounded once.
// M, bias, top: the output's mantissa bits, exponent bias and largest finite exponent field.
template <typename TOut>
struct Out16 {
  static constexpr int M = std::is_same_v<TOut, hwy::bfloat16_t> ? 7 : 10;
  static constexpr int bias = std::is_same_v<TOut, hwy::bfloat16_t> ? 127 : 15;
  static constexpr int top = std::is_same_v<TOut, hwy::bfloat16_t> ? 254 : 30;
};
template <ElemFormat F, typename TOut>
constexpr int32_t Out16Lo() {
  return 127 - Out16<TOut>::bias + 1 - F.emin + F.mbits;
}
template <ElemFormat F, typename TOut>
constexpr int32_t Out16Hi() {
  return 127 - Out16<TOut>::bias + Out16<TOut>::top - F.emax;
}

// Dequantizes the n codes at `codes`, all of scale code e, into out[0..n), n a multiple of Lanes,
// in float32 lanes.
template <ElemFormat F, typename TOut>
HWY_INLINE void DequantizeWide(const uint8_t* codes, int64_t n, int32_t e, TOut* out) {
  const ScalableTag<int32_t> di;
  const RebindToFloat<decltype(di)> df;
  const Rebind<uint8_t, decltype(di)> d8;
  const int64_t N = static_cast<int64_t>(Lanes(di));
  const auto factor = E8M0Value(df, di, Set(di, e));
  auto run = [&](auto exact) {
    for (int64_t i = 0; i < n; i += N) {
      const auto c = PromoteTo(di, LoadU(d8, codes + i));
      StoreOut<decltype(exact)::value>(di, BitCast(di, Mul(BitCast(df, DecodeBits<F>(df, di, c)), factor)), out + i);
    }
  };
  if (e >= ExactFrom<F>()) {
    run(std::true_type());
  } else {
    run(std::false_type());
  }
}

// The same with a scale code per element (blocks along an inner axis).
template <ElemFormat F, typename TOut>
HWY_INLINE void DequantizeLanes(const uint8_t* codes, int64_t n, const uint8_t* scales, TOut* out) {
  const ScalableTag<int32_t> di;
  const RebindToFloat<decltype(di)> df;
  const Rebind<uint8_t, decltype(di)> d8;
  const int64_t N = static_cast<int64_t>(Lanes(di));
  for (int64_t i = 0; i < n; i += N) {
    const auto c = PromoteTo(di, LoadU(d8, codes + i));
    const auto factor = E8M0Value(df, di, PromoteTo(di, LoadU(d8, scales + i)));
    StoreOut<false>(di, BitCast(di, Mul(BitCast(df, DecodeBits<F>(df, di, c)), factor)), out + i);
  }
}

// k whole blocks of bs codes at `codes`, scale codes s[0..k), into out. bfloat16/float16 outputs
// of a block whose scale code is in [Out16Lo, Out16Hi] (every result a normal number of the
// output) are built in 16-bit lanes, the constants hoisted out of the block loop; a vector holding
// a NaN or Inf code (E4M3, E5M2), and every other block, take the float32 path.
template <ElemFormat F, typename TOut>
HWY_INLINE void DequantizeBlocks(const uint8_t* codes, int64_t k, int64_t bs, const uint8_t* s, TOut* out) {
#if HWY_TARGET != HWY_SCALAR
  if constexpr (!std::is_same_v<TOut, float>) {
    using O = Out16<TOut>;
    const ScalableTag<int16_t> d16;  // signed: Highway 1.0.3 compares no unsigned 16-bit lanes; values fit
    const Rebind<uint8_t, decltype(d16)> d8;
    const Repartition<uint8_t, decltype(d16)> db;
    const int64_t N = static_cast<int64_t>(Lanes(d16));  // bs is a multiple of N
    alignas(16) static constexpr int16_t kSub[8] = {
        0, 0, 1 << O::M, (1 << O::M) | (1 << (O::M - 1)), 2 << O::M, (2 << O::M) | (1 << (O::M - 2)),
        (2 << O::M) | (2 << (O::M - 2)), (2 << O::M) | (3 << (O::M - 2))};  // man = 0..7
    const auto sub_table = BitCast(db, LoadDup128(d16, kSub));
    const auto mag_mask = Set(d16, static_cast<int16_t>((1 << (F.bits - 1)) - 1));
    const auto man_mask = Set(d16, static_cast<int16_t>((1 << F.mbits) - 1));
    const auto first_normal = Set(d16, static_cast<int16_t>(1 << F.mbits));
    const auto sign_mask = Set(d16, int16_t(-0x8000));
    const auto byte1 = Set(d16, int16_t{0x100});
    constexpr int special = F.inf_code >= 0 ? F.inf_code : F.nan_code;  // the smallest NaN/Inf magnitude
    for (int64_t j = 0; j < k; ++j, codes += bs, out += bs) {
      const int32_t e = s[j];
      if (e < Out16Lo<F, TOut>() || e > Out16Hi<F, TOut>()) {
        DequantizeWide<F>(codes, bs, e, out);
        continue;
      }
      const auto normal_k = Set(d16, static_cast<int16_t>((F.emin - 1 + e - 127 + O::bias) << O::M));
      const auto sub_k = Set(d16, static_cast<int16_t>((F.emin - F.mbits + e - 127 + O::bias) << O::M));
      for (int64_t i = 0; i < bs; i += N) {
        const auto c = PromoteTo(d16, LoadU(d8, codes + i));
        const auto mag = And(c, mag_mask);
        if constexpr (special >= 0) {
          if (HWY_UNLIKELY(!AllFalse(d16, Gt(mag, Set(d16, static_cast<int16_t>(special - 1)))))) {
            DequantizeWide<F>(codes + i, N, e, out + i);
            continue;
          }
        }
        const auto normal = Add(ShiftLeft<O::M - F.mbits>(mag), normal_k);
        const auto man = And(mag, man_mask);
        const auto idx = Or(Or(ShiftLeft<1>(man), ShiftLeft<9>(man)), byte1);  // bytes 2 man, 2 man + 1
        const auto sub = Add(BitCast(d16, TableLookupBytes(sub_table, BitCast(db, idx))), sub_k);
        auto v = IfThenElse(Lt(mag, first_normal), IfThenZeroElse(Eq(mag, Zero(d16)), sub), normal);
        v = Or(v, And(ShiftLeft<16 - F.bits>(c), sign_mask));
        StoreU(v, d16, reinterpret_cast<int16_t*>(out + i));
      }
    }
    return;
  }
#endif
  for (int64_t j = 0; j < k; ++j) DequantizeWide<F>(codes + j * bs, bs, s[j], out + j * bs);
}

// Blocks [g0, g1) in the flat order (row pi = g / nb of the [pre, nb] blocks, block b = g % nb);
// the row and block are stepped, not divided out per block. Blocks along the last axis: runs of
// consecutive whole blocks of a row (up to kChunk elements, FP4/FP6 codes unpacked first) through
// DequantizeBlocks, a short last block on its own through zero-padded copies. Along an inner axis:
// per block, its contiguous codes (len * post of them) in chunks, a scale code per element.
template <ElemFormat F, typename TOut>
void DequantizeT(const mx::DequantizePlan& p, int64_t g0, int64_t g1) {
  const int64_t N = static_cast<int64_t>(Lanes(ScalableTag<int32_t>()));
  const int64_t bs = p.blocksize, dim = p.dim, post = p.post, nb = (dim + bs - 1) / bs, nb2 = (nb + 1) / 2;
  const uint8_t* y = static_cast<const uint8_t*>(p.y);
  const uint64_t y_bytes = uint64_t(p.pre * dim * post) * F.bits / 8;  // at most 2^60 elements (validated)
  TOut* x = static_cast<TOut*>(p.x);
  constexpr int64_t kChunk = kMaxBlock;  // elements unpacked at a time: a whole block at least
  HWY_ALIGN uint8_t codes[kChunk + kMaxLanes];
  HWY_ALIGN uint8_t scales[kChunk + kMaxLanes];
  HWY_ALIGN TOut out[kChunk + kMaxLanes];
  // Codes [first, first + n) unpacked (FP8: read in place where no padding is needed) and zero-padded
  // to `padded`.
  auto codes_at = [&](int64_t first, int64_t n, int64_t padded) {
    const uint8_t* c = y + first * F.bits / 8;
    if (F.bits == 8 && n == padded) return c;
    UnpackCodes<F.bits>(c, static_cast<size_t>(n), static_cast<size_t>(y_bytes - uint64_t(c - y)), codes);
    for (int64_t k = n; k < padded; ++k) codes[k] = 0;
    return static_cast<const uint8_t*>(codes);
  };
  int64_t pi = g0 / nb, b = g0 % nb;
  if (post == 1) {
    const int64_t whole = dim / bs;  // whole blocks per row
    for (int64_t g = g0; g < g1;) {
      const uint8_t* srow = p.scale + pi * nb2 * 2;  // this row's scale codes, by block
      const int64_t base = pi * dim + b * bs;
      int64_t k = 1;
      if (b < whole) {
        k = std::min({g1 - g, whole - b, kChunk / bs});
        DequantizeBlocks<F>(codes_at(base, k * bs, k * bs), k, bs, srow + b, x + base);
      } else {  // the short last block
        const int64_t len = dim - b * bs, padded = (len + N - 1) / N * N;
        DequantizeWide<F>(codes_at(base, len, padded), padded, srow[b], out);
        std::memcpy(x + base, out, static_cast<size_t>(len) * sizeof(TOut));
      }
      g += k, b += k;
      if (b == nb) b = 0, ++pi;
    }
    return;
  }
  for (int64_t g = g0; g < g1; ++g) {
    const int64_t t0 = b * bs, len = std::min(bs, dim - t0);
    const int64_t base = (pi * dim + t0) * post;
    const int64_t count = len * post;  // contiguous elements of this (pi, block)
    const uint8_t* srow = p.scale + ((pi * nb2 + b / 2) * post) * 2 + (b % 2);
    for (int64_t i = 0; i < count; i += kChunk) {
      const int64_t n = std::min(kChunk, count - i);  // even for FP4, a multiple of 4 for FP6
      const int64_t padded = (n + N - 1) / N * N;
      const uint8_t* c = codes_at(base + i, n, padded);
      for (int64_t k = 0; k < padded; ++k) scales[k] = k < n ? srow[2 * ((i + k) % post)] : 0;
      TOut* dst = n == padded ? x + base + i : out;
      DequantizeLanes<F>(c, padded, scales, dst);
      if (dst == out) std::memcpy(x + base + i, out, static_cast<size_t>(n) * sizeof(TOut));
    }
    if (++b == nb) b = 0, ++pi;
  }
}

template <ElemFormat F>
void DequantizeF(const mx::DequantizePlan& p, int64_t g0, int64_t g1) {
  switch (p.x_type) {
    case mx::DType::kFloat32: return DequantizeT<F, float>(p, g0, g1);
    case mx::DType::kBFloat16: return DequantizeT<F, hwy::bfloat16_t>(p, g0, g1);
    default: return DequantizeT<F, hwy::float16_t>(p, g0, g1);
  }
}

// ---- array codecs ---------------------------------------------------------------------------
template <ElemFormat F, RoundMode kMode>
void EncodeRun(const float* x, size_t n, uint8_t* codes) {
  const ScalableTag<int32_t> di;
  const RebindToFloat<decltype(di)> df;
  const size_t N = Lanes(di);
  HWY_ALIGN int32_t tail[kMaxLanes] = {};
  HWY_ALIGN uint8_t tail_codes[kMaxLanes];
  size_t i = 0;
  for (; i + N <= n; i += N) {
    StoreBytes(di, EncodeFloat<F, kMode>(df, di, LoadU(di, reinterpret_cast<const int32_t*>(x + i))), codes + i);
  }
  if (i < n) {
    std::memcpy(tail, x + i, (n - i) * sizeof(float));
    StoreBytes(di, EncodeFloat<F, kMode>(df, di, Load(di, tail)), tail_codes);
    std::memcpy(codes + i, tail_codes, n - i);
  }
}

template <ElemFormat F>
void EncodeF(const float* x, size_t n, uint8_t* codes, RoundMode mode) {
  switch (mode) {
    case RoundMode::kRint: return EncodeRun<F, RoundMode::kRint>(x, n, codes);
    case RoundMode::kRound: return EncodeRun<F, RoundMode::kRound>(x, n, codes);
    case RoundMode::kFloor: return EncodeRun<F, RoundMode::kFloor>(x, n, codes);
  }
}

template <ElemFormat F>
void DecodeF(const uint8_t* codes, size_t n, float* x) {
  const ScalableTag<int32_t> di;
  const RebindToFloat<decltype(di)> df;
  const Rebind<uint8_t, decltype(di)> d8;
  const size_t N = Lanes(di);
  HWY_ALIGN uint8_t tail[kMaxLanes] = {};
  HWY_ALIGN int32_t out[kMaxLanes];
  for (size_t i = 0; i < n; i += N) {
    const size_t k = std::min(N, n - i);
    const uint8_t* src = codes + i;
    if (k < N) std::memcpy(tail, src, k), src = tail;
    const auto bits = DecodeBits<F>(df, di, PromoteTo(di, LoadU(d8, src)));
    if (k == N) {
      StoreU(bits, di, reinterpret_cast<int32_t*>(x + i));
    } else {
      Store(bits, di, out);
      std::memcpy(x + i, out, k * sizeof(float));
    }
  }
}

void DecodeE8M0(const uint8_t* codes, size_t n, float* x) {
  for (size_t i = 0; i < n; ++i) {
    const ScalableTag<int32_t> di;
    const RebindToFloat<decltype(di)> df;
    x[i] = GetLane(E8M0Value(df, di, Set(di, codes[i])));
  }
}

}  // namespace

// Entry points, one per target: a switch over the element format picks the instantiation.
#define ACCELMATH_MX_SWITCH(type, CALL)                     \
  switch (type) {                                           \
    case mx::DType::kFloat8E4M3FN: CALL(mx::kE4M3); break;  \
    case mx::DType::kFloat8E5M2: CALL(mx::kE5M2); break;    \
    case mx::DType::kFloat6E3M2: CALL(mx::kE3M2); break;    \
    case mx::DType::kFloat6E2M3: CALL(mx::kE2M3); break;    \
    case mx::DType::kFloat4E2M1: CALL(mx::kE2M1); break;    \
    case mx::DType::kFloat4E1M2: CALL(mx::kE1M2); break;    \
    default: break;                                         \
  }

void MxQuantize(const mx::QuantizePlan& p, int64_t g0, int64_t g1) {
#define ACCELMATH_CALL(F) QuantizeF<F>(p, g0, g1)
  ACCELMATH_MX_SWITCH(p.dst_type, ACCELMATH_CALL)
#undef ACCELMATH_CALL
}

void MxDequantize(const mx::DequantizePlan& p, int64_t g0, int64_t g1) {
#define ACCELMATH_CALL(F) DequantizeF<F>(p, g0, g1)
  ACCELMATH_MX_SWITCH(p.elem_type, ACCELMATH_CALL)
#undef ACCELMATH_CALL
}

void MxEncode(const float* x, size_t n, uint8_t* codes, mx::DType type, mx::RoundMode mode) {
#define ACCELMATH_CALL(F) EncodeF<F>(x, n, codes, mode)
  ACCELMATH_MX_SWITCH(type, ACCELMATH_CALL)
#undef ACCELMATH_CALL
}

void MxDecode(const uint8_t* codes, size_t n, float* x, mx::DType type) {
  if (type == mx::DType::kFloat8E8M0) return DecodeE8M0(codes, n, x);
#define ACCELMATH_CALL(F) DecodeF<F>(codes, n, x)
  ACCELMATH_MX_SWITCH(type, ACCELMATH_CALL)
#undef ACCELMATH_CALL
}

}  // namespace accelmath::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace accelmath::mx::detail {

HWY_EXPORT(MxQuantize);
HWY_EXPORT(MxDequantize);
HWY_EXPORT(MxEncode);
HWY_EXPORT(MxDecode);

void QuantizeBlocks(const QuantizePlan& p, int64_t g0, int64_t g1) { HWY_DYNAMIC_DISPATCH(MxQuantize)(p, g0, g1); }
void DequantizeBlocks(const DequantizePlan& p, int64_t g0, int64_t g1) { HWY_DYNAMIC_DISPATCH(MxDequantize)(p, g0, g1); }
void EncodeArray(const float* x, size_t n, uint8_t* codes, DType type, RoundMode mode) {
  HWY_DYNAMIC_DISPATCH(MxEncode)(x, n, codes, type, mode);
}
void DecodeArray(const uint8_t* codes, size_t n, float* x, DType type) { HWY_DYNAMIC_DISPATCH(MxDecode)(codes, n, x, type); }

}  // namespace accelmath::mx::detail
#endif  // HWY_ONCE
