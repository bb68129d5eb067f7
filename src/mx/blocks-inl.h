// What the MX SIMD kernels share, per Highway target: reading inputs as float32 bits, storing
// and packing codes, the 16-bit-lane encoder, and the switch from a plan to a kernel's
// instantiation. Included by src/mx/quantize.cc, src/mx/quantize_inner.cc and
// src/mx/dequantize.cc after <hwy/foreach_target.h> and <hwy/highway.h>. Three translation units,
// each instantiated for every target, so that a build compiles them side by side.

// A switch over the element formats: CALL(F) with each format's ElemFormat F.
#ifndef ACCELMATH_MX_SWITCH
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
#endif

#if defined(ACCELMATH_MX_BLOCKS_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef ACCELMATH_MX_BLOCKS_INL_H_
#undef ACCELMATH_MX_BLOCKS_INL_H_
#else
#define ACCELMATH_MX_BLOCKS_INL_H_
#endif

#include <algorithm>
#include <array>
#include <cstring>
#include <type_traits>
#include <utility>

#include "backend/prefetch.h"
#include "mx/job.h"

#define ACCELMATH_KNS HWY_NAMESPACE
HWY_BEFORE_NAMESPACE();
namespace accelmath::HWY_NAMESPACE {
using namespace hwy::HWY_NAMESPACE;  // NOLINT: the kernels call Highway's ops unqualified
}  // namespace accelmath::HWY_NAMESPACE
#include "kernels/common-inl.h"  // ACCELMATH_X86_AVX3: AVX3, and AVX3_DL in src/mx/quantize*.cc
#include "kernels/mx-inl.h"

namespace accelmath::HWY_NAMESPACE {
namespace {

using mx::ElemFormat;
using mx::RoundMode;
using mx::ScaleAlg;

constexpr int64_t kMaxBlock = 1024;
constexpr size_t kMaxLanes = HWY_MAX_BYTES / 4;  // int32 lanes of the widest vector

// Software prefetch (backend/prefetch.h): QuantizeGroups requests the lines 4 KiB ahead of each group
// of blocks it reads.
using backend::PrefetchAhead;

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
    Vec<decltype(du32)> word;
#if defined(ACCELMATH_X86_AVX3) || HWY_TARGET == HWY_AVX2
    // Two multiply-adds: byte pairs e0 + 64 e1 (unsigned bytes times signed 1 and 64; at most
    // 4095), then 16-bit pairs w0 + 4096 w1 (at most 2^24 - 1). Against the shifts and masks below,
    // on Zen 4, 64K, best of 5-7 interleaved runs: quantize to FP6 1.06-1.10x with AVX3 (bfloat16,
    // float16, float32 inputs) and 1.05-1.06x with the AVX2 code forced on that CPU.
#ifdef ACCELMATH_X86_AVX3
    word.raw = _mm512_madd_epi16(_mm512_maddubs_epi16(bytes.raw, _mm512_set1_epi16(0x4001)), _mm512_set1_epi32(0x10000001));
#else
    word.raw = _mm256_madd_epi16(_mm256_maddubs_epi16(bytes.raw, _mm256_set1_epi16(0x4001)), _mm256_set1_epi32(0x10000001));
#endif
#else
    const auto w = BitCast(du32, bytes);
    word = Or(Or(And(w, Set(du32, 0x3F)), And(ShiftRight<2>(w), Set(du32, 0xFC0))),
              Or(And(ShiftRight<4>(w), Set(du32, 0x3F000)), And(ShiftRight<6>(w), Set(du32, 0xFC0000))));
#endif
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

// Encode16's byte tables, in every 128-bit block, at i = max(d + mbits + 2, 0) (a zero byte at 0):
// pow = 2^j for j = min(i - 1, mbits + 1) (0 at i = 0, j = -1), and, where every element of a block
// has i <= 15 (emax - emin + mbits + 3 <= 15: FP6 and FP4), normal = max(i - mbits - 2, 0) << mbits.
// There, i > 15 only for a zero of a float16 block with kd <= -14 (e' = 1), whose code is 0
// whatever the bytes read (sig = 0, and the min of normal with a = 0); a subnormal input reaches
// Encode16 only where kd > -mbits (EncodeVector16, QuantizeInner), i = 2 - kd < mbits + 2.
// nb = emax - emin + mbits + 3: the binades from 2^(emin - mbits - 2) (below half F's smallest step)
// to 2^(emax + 1), which Encode16's index and TableCodes' cells span.
template <ElemFormat F>
constexpr int kBinades = F.emax - F.emin + F.mbits + 3;
template <ElemFormat F>
constexpr bool kNormalByTable = kBinades<F> <= 15;
template <ElemFormat F>
struct Encode16Tables {
  alignas(16) uint8_t pow[16] = {}, normal[16] = {};
  constexpr Encode16Tables() {
    for (int i = 1; i < 16; ++i) {
      pow[i] = static_cast<uint8_t>(1 << std::min(i - 1, F.mbits + 1));
      normal[i] = static_cast<uint8_t>(std::max(i - F.mbits - 2, 0) << F.mbits);
    }
  }
};

// Codes of the 16-bit inputs x (their bits) of one block, in 16-bit lanes; kd = E + bias - 127 +
// emin - mbits - 1 (so that e' - kd = d + mbits + 1). The table index i = max(e' - kd + 1, 0), with
// e' - 1 from a saturating subtract (below 256 in every lane of a block: the high byte of each
// 16-bit index is 0 and reads the zero byte); FP8, whose blocks span more binades, clamps it to
// mbits + 2 after taking max(d, 0) << mbits from it. Against the formula before these tables (j
// clamped twice, max(d, 0) << mbits in four operations), the AVX2 code forced on Zen 4 at 64K:
// bfloat16 -> e2m3 1.07-1.08x, FP8's flagged pairs 1.00-1.01x (docs/performance.md, MX, the eighth
// session).
template <ElemFormat F, RoundMode kMode, typename T, class D16>
HWY_INLINE Vec<D16> Encode16(D16 d16, Vec<D16> x, Vec<D16> kd) {
  constexpr int K = In16<T>::K, m = F.mbits;
  static constexpr Encode16Tables<F> kTables;
  const RebindToUnsigned<D16> du;
  const Repartition<uint8_t, D16> d8;
  const auto a = And(x, Set(d16, 0x7FFF));
  const auto em = BitCast(d16, SaturatedSub(ShiftRight<K>(BitCast(du, a)), Set(du, 1)));  // e' - 1
  const auto sig = Sub(a, ShiftLeft<K>(em));
  auto i = Max(Sub(em, Sub(kd, Set(d16, 2))), Zero(d16));
  Vec<D16> normal;
  if constexpr (kNormalByTable<F>) {
    normal = BitCast(d16, TableLookupBytesOr0(LoadDup128(d8, kTables.normal), BitCast(d8, i)));
  } else {
    normal = ShiftLeft<m>(BitCast(d16, SaturatedSub(BitCast(du, i), Set(du, m + 2))));
    i = Min(i, Set(d16, m + 2));
  }
  const auto scale = BitCast(du, TableLookupBytesOr0(LoadDup128(d8, kTables.pow), BitCast(d8, i)));
  const auto y = Mul(BitCast(du, sig), scale);
  auto half = Set(du, 1 << K);  // round: half away from zero
  if constexpr (kMode == RoundMode::kRint) half = Add(Set(du, (1 << K) - 1), And(ShiftRight<K + 1>(y), Set(du, 1)));
  const auto q = BitCast(d16, ShiftRight<K + 1>(Add(y, half)));
  // 0 for a zero x (whose sig is 0): the min with a (>= 2^K > any exponent part of a non-zero x,
  // whose d is at most emax - emin + 1) does that in one operation.
  const auto code = Min(Add(q, Min(normal, a)), Set(d16, F.max_code));
  return Or(code, And(ShiftRight<16 - F.bits>(x), Set(d16, 1 << (F.bits - 1))));
}

// float16 |x| bits a as the coordinate (exponent << 10) + mantissa carried on below the normal
// range: a subnormal a (value a * 2^-24, 0 < a < 2^10, p = floor(log2 a)) becomes ((p - 9) << 10)
// + its bits after the leading one (from -9216 at a = 1 to 1023 at 1023), which is the float32 of
// the integer a, bits ((127 + p) << 23) + (those bits << 13), shifted right by 13 (the low 16
// bits: (127 << 10) = -1024 mod 2^16, so ((p - 1) << 10) + bits) less 8192. A normal a is its own
// coordinate; 0 goes to -8192 (callers mask zeros).
template <class D16>
HWY_INLINE Vec<D16> Normalized16(D16 d16, Vec<D16> a) {
  const Repartition<int32_t, D16> di;
  const RebindToFloat<decltype(di)> df;
  const RebindToUnsigned<decltype(di)> du;
  const auto w = BitCast(du, a);  // the even lanes of a in the low halves, the odd ones in the high
  const auto even = BitCast(di, ConvertTo(df, BitCast(di, And(w, Set(du, 0xFFFF)))));
  const auto odd = BitCast(di, ConvertTo(df, BitCast(di, ShiftRight<16>(w))));
  const auto bits = OddEven(BitCast(d16, ShiftLeft<3>(odd)), BitCast(d16, ShiftRight<13>(even)));
  return IfThenElse(Lt(a, Set(d16, 1 << 10)), Sub(bits, Set(d16, 8192)), a);
}

// FP4 and E3M2 codes (F.mbits <= 2: at most 4 subnormal codes) of 16-bit inputs, in fewer operations
// than Encode16: F's normal range by arithmetic, its subnormal codes by counting thresholds. With
// a = |x|'s bits and A = a - ((E - 127) << K) (CountedOffset), a's bits at scale 1 (input bit
// patterns order their values), |v| rounds to a code >= k iff A > ThresholdBits(k) (for k = 1..2^m,
// CountedThresholds). Exact while t_1 * 2^(E - 127) is a normal number of the input format (its bits
// are then t_1's shifted): t_1 = 2^(emin - mbits - 1), so E - 127 + emin - mbits - 1 >= 1 - bias, that
// is E >= kCountedFrom = 129 - bias - emin + mbits (float16 blocks with E - 127 >= -12 for E2M1);
// zeros and subnormal inputs compare like any other value.
//   code = min(round(B >> s), max_code - 2^m) + #{k in 1..2^m : A > ThresholdBits(k)},
//   B = max(A - ((bias + emin) << K), 0) = a - ((E - 127 + bias + emin) << K) saturated at 0, s = K - m:
// below 2^emin B is 0 and the thresholds count the subnormal codes 0..2^m; from 2^emin up every
// threshold is passed, and B is |v|'s bits above 2^emin's, whose rounding to m mantissa bits (carry
// into the exponent field, saturation at the top code) is the normal code minus 2^m, as in the FP8
// path. E2M1: two compares where counting every threshold took seven; E1M2, E3M2: four. AVX3 adds
// each compare's mask to the code by one masked add. The per-lane constants (off, base) let the
// inner-axis kernel give each column its own scale.
// Against seven counted thresholds, on Zen 4 (A/B, 7 interleaved runs, 64K and 16M, last axis):
// 16-bit -> e2m1 1.23-1.35x with AVX3, 1.14-1.19x with the AVX2 code forced on that AVX-512 CPU; -> e1m2 1.14-1.19x and
// 1.01-1.05x. E3M2 (64K, best of 5-7 interleaved runs): bfloat16 1.03-1.13x (AVX3) and 1.16x (AVX2
// code) against Encode16, float16 1.29x and 1.23x against the float32 path it took before.
//
// ThresholdBits(k): the input-format bits of t_k = (g(k - 1) + g(k)) / 2, g(c) the value of code c,
// minus 1 where a tie at t_k rounds up (rint: to the even code k; round: always). t_k = t * 2^(emin -
// mbits - 1) with t an integer of at most mbits + 2 significant bits, so exact in bfloat16 and float16.
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
template <ElemFormat F, typename T>
constexpr int32_t kCountedFrom = 129 - In16<T>::bias - F.emin + F.mbits;
// The two per-block constants are E << K plus a constant each (the inner-axis kernel adds these to
// its columns' E << K a vector at a time): CountedOffset = (E - 127) << K, and CountedBase =
// ((E - 127 + bias + emin) << K) - h, with the rounding's constant h = 2^(s-1) - 1 (rint, before
// the parity bit) or 2^(s-1) (round) folded in. CountedBase is at
// least ((mbits + 2) << K) - 2^(s-1) > 0 from kCountedFrom up, and below 2^15 (e <= 254 for
// bfloat16, e - 127 <= 16 for float16 blocks).
template <typename T>
constexpr int32_t kCountedOffset0 = -(127 << In16<T>::K);
template <ElemFormat F, RoundMode kMode, typename T>
constexpr int32_t kCountedBase0 = (In16<T>::bias + F.emin - 127) * (1 << In16<T>::K) - ((1 << (In16<T>::K - F.mbits - 1)) - (kMode == RoundMode::kRint ? 1 : 0));
template <typename T>
constexpr int16_t CountedOffset(int32_t e) {
  return static_cast<int16_t>(e * (1 << In16<T>::K) + kCountedOffset0<T>);
}
template <ElemFormat F, RoundMode kMode, typename T>
constexpr int16_t CountedBase(int32_t e) {
  return static_cast<int16_t>(e * (1 << In16<T>::K) + kCountedBase0<F, kMode, T>);
}
// EncodeCounted's kCount threshold vectors, Get(d16, k) the k-th. SVE's vectors cannot be array
// elements: there the struct holds the bits and Get broadcasts them.
template <class D16, int kCount>
struct Thresholds16 {
#if HWY_HAVE_SCALABLE
  int16_t bits[kCount];
  HWY_INLINE Vec<D16> Get(D16 d16, int k) const { return Set(d16, bits[k]); }
#else
  Vec<D16> v[kCount];
  HWY_INLINE Vec<D16> Get(D16, int k) const { return v[k]; }
#endif
};
template <ElemFormat F, RoundMode kMode, typename T, class D16>
HWY_INLINE Thresholds16<D16, 1 << F.mbits> CountedThresholds(D16 d16) {
  static constexpr auto kBits = [] {
    std::array<int16_t, 1 << F.mbits> b{};
    for (int k = 0; k < (1 << F.mbits); ++k) b[k] = static_cast<int16_t>(ThresholdBits<F, kMode, T>(k + 1));
    return b;
  }();
  // Built whole (aggregate initialization), not default-constructed and assigned: the struct's
  // implicit constructor lacks the target attribute, which GCC's NEON target then refuses to inline.
  return [&]<size_t... k>(std::index_sequence<k...>) {
#if HWY_HAVE_SCALABLE
    (void)d16;
    return Thresholds16<D16, 1 << F.mbits>{{kBits[k]...}};
#else
    return Thresholds16<D16, 1 << F.mbits>{{Set(d16, kBits[k])...}};
#endif
  }(std::make_index_sequence<size_t{1} << F.mbits>());
}
// kNormalized: a float16 block below kCountedFrom (E >= 103 - emax there, amax 2^-24 or more, with
// any scale rule, or a block of zeros, whose codes the zero mask makes), on Normalized16's
// coordinate, which compares as the values do with the thresholds wherever these fall (zeros
// masked); base then lies below 2^K and may be negative: a - base in signed saturating arithmetic,
// then at least 0. off and base fit int16 from that E up, and A too (an element is below
// 2^(emax + 1) at scale 1). Against the general way it replaces along the last axis on the targets
// without EncodeTablePair (EncodeVector16: Encode16, or the float32 path for each vector holding a
// subnormal input), the AVX2 code forced on Zen 4 (an AVX-512 CPU; no AVX2-only CPU measured),
// float16 -> e3m2, 16M: Gaussian inputs of sigma 2^-9 1.93x, 2^-6 1.04x, bench_mx's 1.00x; a
// branch per vector keeping a's own bits where it holds no subnormal input ran 1.03-1.06x there at
// 16M (it mispredicts on fresh data; at 64K, the same data over and over, the predictor had learnt
// it: 1.20x).
template <ElemFormat F, RoundMode kMode, typename T, bool kNormalized = false, class D16, class Thr>
HWY_INLINE Vec<D16> EncodeCounted(D16 d16, Vec<D16> x16, Vec<D16> off, Vec<D16> base, const Thr& thr) {
  static_assert(F.mbits <= 2, "at most 4 subnormal codes");
  constexpr int s = In16<T>::K - F.mbits, kSub = 1 << F.mbits;
  const RebindToUnsigned<D16> du;
  auto a = And(x16, Set(d16, 0x7FFF));
  [[maybe_unused]] const auto nonzero = Ne(a, Zero(d16));  // kNormalized's zero mask
  if constexpr (kNormalized) a = Normalized16(d16, a);
  const auto A = Sub(a, off);
  // Bh = B + the rounding constant (folded into base), the parity bit (rint) a's bit s (B differs
  // from a by a multiple of 2^K); where B = 0, Bh + the parity bit stays below 2^s: 0 as before.
  auto Bh = kNormalized ? BitCast(du, Max(SaturatedSub(a, base), Zero(d16))) : SaturatedSub(BitCast(du, a), BitCast(du, base));
  if constexpr (kMode == RoundMode::kRint) Bh = Add(Bh, And(ShiftRight<s>(BitCast(du, a)), Set(du, 1)));
  auto code = BitCast(d16, Min(ShiftRight<s>(Bh), Set(du, F.max_code - kSub)));
  for (int k = 0; k < kSub; ++k) {
#ifdef ACCELMATH_X86_AVX3
    code.raw = _mm512_mask_add_epi16(code.raw, _mm512_cmpgt_epi16_mask(A.raw, thr.Get(d16, k).raw), code.raw, _mm512_set1_epi16(1));
#else
    code = Sub(code, VecFromMask(d16, Gt(A, thr.Get(d16, k))));
#endif
  }
  if constexpr (kNormalized) code = IfThenElseZero(nonzero, code);  // a zero's coordinate is no value's
  return Or(code, And(BitCast(d16, ShiftRight<16 - F.bits>(BitCast(du, x16))), Set(d16, 1 << (F.bits - 1))));
}

// EncodeCounted's code of one pattern A (a's bits at scale 1, sign aside), evaluated at compile
// time for the tables of TableCodes; any mbits.
template <ElemFormat F, RoundMode kMode, typename T>
constexpr int CountedCode(int A) {
  constexpr int K = In16<T>::K, s = K - F.mbits;
  const int B = std::max(A - ((In16<T>::bias + F.emin) << K), 0);
  const int q = kMode == RoundMode::kRint ? (B + (1 << (s - 1)) - 1 + ((B >> s) & 1)) >> s : (B + (1 << (s - 1))) >> s;
  int code = std::min(q, F.max_code - (1 << F.mbits));
  for (int k = 1; k <= (1 << F.mbits); ++k) code += A > ThresholdBits<F, kMode, T>(k);
  return code;
}

// The int16 lanes c0, c1 (values < 256) as bytes, in order.
template <class D16>
HWY_INLINE Vec<Repartition<uint8_t, D16>> Bytes2(D16 d16, Vec<D16> c0, Vec<D16> c1) {
  const Repartition<uint8_t, D16> d8;
  Vec<decltype(d8)> bytes;
#ifdef ACCELMATH_X86_AVX3
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

// FP6 and FP4 codes by table (the AVX-512 targets' permutes, EncodeTablePair below; in
// src/mx/quantize.cc and quantize_inner.cc). With a = |x|'s bits, w = min(a - base, cap) in
// unsigned saturating arithmetic, base the bits of 2^(emin - mbits - 2 + E - 127): w = 0 up to there, then the
// patterns of nb = emax - emin + mbits + 3 binades up to 2^(emax + 1) (cap: the last one). Each
// binade is cut into 2^(mbits + 1) cells of 2^r patterns, r = K - mbits - 1 (mbits mantissa bits and
// the rounding bit), nb << (mbits + 1) <= 128 cells: E2M3 8 * 16 = 128, E3M2 11 * 8 = 88, E1M2
// 5 * 8 = 40, E2M1 6 * 4 = 24. Every step of the code falls on a cell's first pattern or the next
// one: F's normal rounding boundaries have mbits + 2 significant bits, the thresholds t_k between
// its subnormal codes fewer, and a tie there rounds up (code k at the cell's first pattern) or,
// rint to an even code, down (from the second). The bottom binade (all code 0) puts t_1 at a
// cell's start too. So the code is a function of the cell and of z = (w's low r bits are 0): the
// table, 256 bytes, entry cell + 128 z = CountedCode at that cell's second pattern (z = 0) or its
// first (z = 1). Same domain as EncodeCounted: E >= kCountedFrom (then base >= 0; at equality the
// bottom binade is the subnormal inputs, all code 0); float16 below it on Normalized16's
// coordinate (EncodeTablePair's kNormalized).
template <ElemFormat F, RoundMode kMode, typename T>
struct TableCodes {
  static constexpr int K = In16<T>::K, r = K - F.mbits - 1, nb = kBinades<F>;
  static constexpr int kLow = (F.emin - F.mbits - 2 + In16<T>::bias) << K;  // base at E = 127
  static constexpr int kCap = (nb << K) - 1;
  static_assert((nb << (F.mbits + 1)) <= 128, "128 cells");
  alignas(64) uint8_t v[256];
  constexpr TableCodes() : v() {
    for (int z = 0; z < 2; ++z) {
      for (int cell = 0; cell < 128; ++cell) {
        v[z * 128 + cell] = static_cast<uint8_t>(CountedCode<F, kMode, T>(std::min((cell << r) + 1 - z, kCap) + kLow));
      }
    }
  }
};
// base = E << K plus this constant (as CountedOffset and CountedBase).
template <ElemFormat F, RoundMode kMode, typename T>
constexpr int32_t kTableBase0 = TableCodes<F, kMode, T>::kLow + kCountedOffset0<T>;

// ACCELMATH_MX_TABLE: EncodeTablePair exists for this target, the AVX-512 ones with word permutes
// (AVX512BW): AVX3 and AVX3_DL.
#undef ACCELMATH_MX_TABLE
#if HWY_TARGET == HWY_AVX3_DL || HWY_TARGET == HWY_AVX3
#define ACCELMATH_MX_TABLE 1
// The table in four registers, and the codes of a pair of vectors x0, x1 (64 inputs) by it, base0
// and base1 their lanes' bases (a block's or a column's), as bytes in element order. Per vector w =
// min(a - base, cap), its cell w >> r and z (w's low r bits 0). Two layouts:
//   - words (AVX3, and AVX3_DL for up to 64 cells): entry cell = the code at the cell's second
//     pattern (low byte) and at its first (high byte), looked up per vector by word permutes on the
//     cell: vpermw for up to 32 cells (E2M1), vpermt2w for 64 (E1M2), and above 64 a second one
//     (vpermw merged under the mask of cell bit 6 for E3M2's 88, vpermt2w and a blend for E2M3's
//     128); z takes the high byte by a masked shift, and one ternary-logic op keeps the code's
//     magnitude bits and merges the sign (x >> (16 - bits)); the two vectors packed to bytes.
//   - bytes (AVX3_DL, VBMI, above 64 cells): the table's two halves (z = 0, z = 1) as bytes; per
//     vector the byte index cell + 128 z (one masked add), the two vectors' indices packed to bytes
//     (the saturating pack interleaves them by 8-byte groups), looked up in both halves (vpermt2b,
//     128 entries each) and blended on bit 7; the signs (packed the same way) merged by one
//     ternary-logic op, then one 64-bit permute to element order.
// On Zen 4 at 64K (best of 5 interleaved runs), AVX3_DL's words against its bytes: E2M1 and E1M2
// 1.07-1.13x, E3M2 and E2M3 0.93-0.99x; AVX3's words against EncodeCounted (FP4, E3M2) and Encode16
// (bfloat16 -> E2M3) or the float32 path (float16 -> E2M3): 1.26-1.81x on the last axis
// (docs/performance.md, MX, the eighth session). AVX3 without VBMI is Intel Skylake-SP to Cascade
// Lake, not measured there.
template <ElemFormat F>
constexpr int kTableCells = kBinades<F> << (F.mbits + 1);
template <ElemFormat F>
constexpr bool kByteTable = HWY_TARGET == HWY_AVX3_DL && kTableCells<F> > 64;
template <class D8>
struct TableVecs {
  Vec<D8> t[4];  // words: cells 0-31, 32-63, 64-95, 96-127; bytes: z = 0 (two), z = 1 (two)
};
template <ElemFormat F, RoundMode kMode, typename T, class D8>
HWY_INLINE TableVecs<D8> LoadTable(D8 d8) {
  static constexpr auto kEntries = [] {
    constexpr TableCodes<F, kMode, T> kTable;
    struct {
      alignas(64) uint8_t v[256];
    } t{};
    for (int i = 0; i < 256; ++i) t.v[i] = kByteTable<F> ? kTable.v[i] : kTable.v[(i / 2) + (i % 2) * 128];  // words: little-endian
    return t;
  }();
  const auto* v = reinterpret_cast<const TFromD<D8>*>(kEntries.v);
  return {{Load(d8, v), Load(d8, v + 64), Load(d8, v + 128), Load(d8, v + 192)}};
}
// kNormalized (float16 blocks below kCountedFrom, whose subnormal inputs break the cells): w from
// Normalized16's coordinate, in signed saturating arithmetic (an input far below a large block's
// base saturates, then counts as 0), zeros masked. Exact: base >= -19456 (E3M2, amax 2^-24) and
// w <= cap wherever the element is at most the block's amax. Against Encode16/EncodeWide there, on
// Zen 4: float16 -> e3m2 1.13-1.73x (last axis), 1.47x (axis 0; docs/performance.md).
template <ElemFormat F, RoundMode kMode, typename T, bool kNormalized = false, class D16, class D8>
HWY_INLINE Vec<Repartition<uint8_t, D16>> EncodeTablePair(D16 d16, Vec<D16> x0, Vec<D16> base0, Vec<D16> x1, Vec<D16> base1,
                                                          const TableVecs<D8>& t) {
  using Table = TableCodes<F, kMode, T>;
  constexpr int kCells = kTableCells<F>;
  const RebindToUnsigned<D16> du;
  const auto cap = Set(du, Table::kCap);
  auto offset = [&](Vec<D16> x16, Vec<D16> base) {  // w
    const auto a = And(x16, Set(d16, 0x7FFF));
    if constexpr (kNormalized) {
      const auto d = Max(SaturatedSub(Normalized16(d16, a), base), Zero(d16));
      return Min(BitCast(du, IfThenElseZero(Ne(a, Zero(d16)), d)), cap);
    } else {
      return Min(SaturatedSub(BitCast(du, a), BitCast(du, base)), cap);
    }
  };
  const auto low_bits = _mm512_set1_epi16((1 << Table::r) - 1);
  Vec<Repartition<uint8_t, D16>> bytes;
#if HWY_TARGET == HWY_AVX3_DL
  if constexpr (kByteTable<F>) {
    auto index = [&](Vec<D16> x16, Vec<D16> base) {
      const auto w = offset(x16, base);
      return _mm512_mask_add_epi16(ShiftRight<Table::r>(w).raw, _mm512_testn_epi16_mask(w.raw, low_bits), ShiftRight<Table::r>(w).raw,
                                   _mm512_set1_epi16(0x80));
    };
    const __m512i idx = _mm512_packus_epi16(index(x0, base0), index(x1, base1));
    const __m512i c0 = _mm512_permutex2var_epi8(t.t[0].raw, idx, t.t[1].raw);
    const __m512i c1 = _mm512_permutex2var_epi8(t.t[2].raw, idx, t.t[3].raw);
    const __m512i sg = _mm512_packus_epi16(ShiftRight<16 - F.bits>(BitCast(du, x0)).raw, ShiftRight<16 - F.bits>(BitCast(du, x1)).raw);
    const __m512i code = _mm512_ternarylogic_epi32(_mm512_mask_blend_epi8(_mm512_movepi8_mask(idx), c0, c1), sg,
                                                   _mm512_set1_epi8(1 << (F.bits - 1)), 0xF8);  // a | (b & c)
    bytes.raw = _mm512_permutexvar_epi64(_mm512_setr_epi64(0, 2, 4, 6, 1, 3, 5, 7), code);
    return bytes;
  }
#endif
  auto encode = [&](Vec<D16> x16, Vec<D16> base) {
    const auto w = offset(x16, base);
    const __m512i cell = ShiftRight<Table::r>(w).raw;
    __m512i e;
    if constexpr (kCells <= 32) {
      e = _mm512_permutexvar_epi16(cell, t.t[0].raw);
    } else {
      e = _mm512_permutex2var_epi16(t.t[0].raw, cell, t.t[1].raw);
      if constexpr (kCells > 64) {
        const __mmask32 upper = _mm512_test_epi16_mask(cell, _mm512_set1_epi16(64));
        if constexpr (kCells <= 96) {
          e = _mm512_mask_permutexvar_epi16(e, upper, cell, t.t[2].raw);
        } else {
          e = _mm512_mask_blend_epi16(upper, e, _mm512_permutex2var_epi16(t.t[2].raw, cell, t.t[3].raw));
        }
      }
    }
    e = _mm512_mask_srli_epi16(e, _mm512_testn_epi16_mask(w.raw, low_bits), e, 8);
    Vec<D16> code;  // the magnitude bits from e, the rest (the sign; zeros above it) from x >> (16 - bits)
    code.raw = _mm512_ternarylogic_epi32(e, ShiftRight<16 - F.bits>(BitCast(du, x16)).raw, _mm512_set1_epi16((1 << (F.bits - 1)) - 1),
                                         0xE4);  // c ? a : b
    return code;
  };
  return Bytes2(d16, encode(x0, base0), encode(x1, base1));
}
#endif

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

// FP8 codes of 16-bit inputs (bfloat16, float16) in fewer operations than Encode16, for the common
// case; the last-axis kernel (EncodeBlocks16) and the inner-axis one (QuantizeInner) call it with
// per-block or per-column constants kdk, lo and width (kFp8*0 below), a pair of vectors at a time.
// With A = a - (kd << K) = ((d + mbits + 1) << K) + a's mantissa bits:
//   A >= (mbits + 1) << K (d >= 0, F's normal range): code = round(B >> s), B = A - (mbits << K)
//     = a - ((kd + mbits) << K), s = K - mbits, saturated at max_code (the exponent field and
//     the carry as in Encode16). Rounding to nearest even adds 2^(s-1) - 1 and B's parity bit
//     (bit s) before the shift: the constant is folded into the block's kdk = ((kd + mbits) << K)
//     - (2^(s-1) - 1), and the parity bit is a's (B differs from a by a multiple of 2^K);
//   A < 0 (d < -mbits - 1: below half F's smallest step): code 0, here from a negative q that
//     the saturating pack to bytes turns into 0 (the sign is merged after the pack);
//   a zero x: 0. float16: by the min with a (any non-zero a outside the flagged lanes below is
//     >= 2^K > max_code). bfloat16: the min is dropped, as only blocks (columns) with kd >= 1
//     come here (kd <= 0 needs E <= mbits + 1 - emin, 10 for E4M3 and 17 for E5M2, so an amax
//     below 2^-94: a group of blocks or a tile of columns with one goes the general way, Encode16),
//     where a zero has A < 0;
//   the rest goes through Encode16, a pair of vectors at a time: a non-zero A in [0, (mbits + 1)
//     << K) (F's subnormals), and a subnormal input (0 < a < 2^K, its M lacks the implicit bit)
//     where kd <= -(mbits + 1), the only blocks where one can reach A >= (mbits + 1) << K. Both
//     are one range of a per block: lo <= a < hi. float16: flagged by hi - lo - (a - lo) in
//     unsigned saturating arithmetic, non-zero exactly there. bfloat16 (kd >= 1: lo = kd << K,
//     hi - lo = (mbits + 1) << K in every block): the unsigned min of a - lo over the pair, one
//     operation per vector, compared once with (mbits + 1) << K. A flagged float16 pair tries
//     EncodeFp8Normalized first (below), which takes the subnormal inputs.
//   Against the formula before these three changes (B's own parity bit, min with a, the
//   saturating flag for bfloat16 too), on Zen 4 at 64K, best of 7 interleaved runs: bfloat16
//   -> e4m3/e5m2 1.15-1.18x with AVX3 and 1.16-1.19x with the AVX2 code forced on that CPU,
//   float16 1.02-1.03x.
// B is computed (as t = a - kdk = B + 2^(s-1) - 1), not A: a block's elements have d <= emax -
// emin (E is at least the OCP rule's, which puts amax in F's top binade), so B < (emax - emin + 1)
// << K + 2^K, at most 0x7BFF (float16 to E5M2), and t + 1 at most 0x7C7F, where A would not fit
// int16. kdk fits int16 for bfloat16 (kd in [1, 244])
// and, for float16, in every block with a normal element (then E >= 98 for E5M2, 105 for E4M3).
// In the other float16 blocks both kernels keep it modulo 2^16 (EncodeFp8Normalized needs it
// so); here it is harmless: their non-zero elements are all subnormal inputs, flagged (kd <= -18
// there), and a zero's code is 0 whatever B is (the min with a = 0 and the saturating pack).
template <ElemFormat F, typename T>
constexpr int32_t kFp8Lo0 = (In16<T>::bias - 127 + F.emin - F.mbits - 1) * (1 << In16<T>::K);  // kd << K at E = 0
// The constants are E << K plus these: kdk = (E << K) + kFp8Kdk0, lo = max((E << K) + kFp8Lo0, 1)
// and width = hi - lo, hi = max((E << K) + kFp8Hi0, 2^K).
template <ElemFormat F, typename T>
constexpr int32_t kFp8Kdk0 = kFp8Lo0<F, T> + F.mbits * (1 << In16<T>::K) - ((1 << (In16<T>::K - F.mbits - 1)) - 1);
template <ElemFormat F, typename T>
constexpr int32_t kFp8Hi0 = kFp8Lo0<F, T> + (F.mbits + 1) * (1 << In16<T>::K);
// The flag of a pair starts here; after both EncodeFp8 calls, Fp8Flagged says whether a lane needs
// Encode16 (bfloat16: only where every block or column of the pair has kd >= 1).
template <typename T, class DU>
HWY_INLINE Vec<DU> Fp8FlagStart(DU du) {
  return In16<T>::K == 7 ? Set(du, 0xFFFF) : Zero(du);
}
template <ElemFormat F, typename T, class DU>
HWY_INLINE bool Fp8Flagged(DU du, Vec<DU> flag) {
  if constexpr (In16<T>::K == 7) flag = SaturatedSub(Set(du, (F.mbits + 1) << In16<T>::K), flag);
  return !AllTrue(du, Eq(flag, Zero(du)));
}
template <ElemFormat F, typename T, class D16>
HWY_INLINE Vec<D16> EncodeFp8(D16 d16, Vec<D16> x16, Vec<D16> kdk, Vec<D16> lo, Vec<D16> width, Vec<RebindToUnsigned<D16>>& flag) {
  constexpr int K = In16<T>::K, sh = K - F.mbits;
  const RebindToUnsigned<D16> du;
  const auto a = And(x16, Set(d16, 0x7FFF));
  if constexpr (K == 7) {
    (void)width;
    flag = Min(flag, BitCast(du, Sub(a, lo)));
  } else {
    flag = Or(flag, SaturatedSub(BitCast(du, width), BitCast(du, Sub(a, lo))));
  }
  const auto t = Sub(a, kdk);
  const auto code = Min(ShiftRight<sh>(Add(t, And(ShiftRight<sh>(a), Set(d16, 1)))), Set(d16, F.max_code));
  return K == 7 ? code : Min(code, a);
}
// The codes of a pair (bytes, from the pair x0, x1) with the signs merged: bit 7 of x's high bytes.
// AVX3_DL gathers the high bytes by one two-table byte permute (VBMI), not two shifts, a pack and
// a lane permute: bfloat16 / float16 -> e4m3 1.02x / 1.04x on Zen 4 at 64K.
template <class D16, class V8>
HWY_INLINE V8 Fp8Signs(D16 d16, V8 bytes, Vec<D16> x0, Vec<D16> x1) {
#if HWY_TARGET == HWY_AVX3_DL
  static constexpr auto kHigh = [] {  // bytes 1, 3, .., 63 of x0, then of x1
    struct { alignas(64) uint8_t v[64]; } t{};
    for (int i = 0; i < 64; ++i) t.v[i] = static_cast<uint8_t>(2 * i + 1);
    return t;
  }();
  (void)d16;
  bytes.raw = _mm512_ternarylogic_epi32(bytes.raw, _mm512_permutex2var_epi8(x0.raw, _mm512_load_si512(kHigh.v), x1.raw),
                                        _mm512_set1_epi8(static_cast<char>(0x80)), 0xF8);  // a | (b & c)
  return bytes;
#else
  const RebindToUnsigned<D16> du;
  const auto high = Bytes2(d16, BitCast(d16, ShiftRight<8>(BitCast(du, x0))), BitCast(d16, ShiftRight<8>(BitCast(du, x1))));
  return Or(bytes, And(high, Set(Repartition<uint8_t, D16>(), 0x80)));
#endif
}

// float16 -> FP8 codes of a pair EncodeFp8 flagged, for the subnormal inputs it flags (the
// common case there: it flags every subnormal input of a float16 block or column with kd <= 0,
// amax below 16 for E4M3 and every one for E5M2): EncodeFp8's formula on Normalized16's
// coordinate, right wherever A >= (mbits + 1) << K, zeros masked. False (bytes unset) if a
// non-zero lane has A in [0, (mbits + 1) << K) (F's subnormals): the caller takes Encode16 then.
// A and t = B + 2^(s-1) - 1 are exact in int16 arithmetic modulo 2^16: A is in [-21504, 33792)
// (the coordinate from -9216, kd at most 12 in a block with a normal element, d at most emax -
// emin), t lies below 0x7C80 as in EncodeFp8, so the unsigned compare of A with (mbits + 1) << K
// is exact, and a block's kdk and kd << K may wrap. kdk0, kdk1: the two vectors' kdk. Against
// Encode16 for those pairs, Zen 4, 16M: float16 -> e4m3 / e5m2 1.09x / 1.11x (docs/performance.md).
template <ElemFormat F, class D16>
HWY_INLINE bool EncodeFp8Normalized(D16 d16, Vec<D16> x0, Vec<D16> kdk0, Vec<D16> x1, Vec<D16> kdk1, Vec<Repartition<uint8_t, D16>>& bytes) {
  constexpr int K = 10, sh = K - F.mbits;
  using T = hwy::float16_t;
  const RebindToUnsigned<D16> du;
  auto band = Lt(Zero(d16), Zero(d16));
  auto encode = [&](Vec<D16> x16, Vec<D16> kdk) {
    const auto a = And(x16, Set(d16, 0x7FFF));
    const auto an = Normalized16(d16, a);
    const auto nz = Ne(a, Zero(d16));
    const auto lo = Sub(kdk, Set(d16, static_cast<int16_t>(kFp8Kdk0<F, T> - kFp8Lo0<F, T>)));  // kd << K
    band = Or(band, And(nz, RebindMask(d16, Lt(BitCast(du, Sub(an, lo)), Set(du, (F.mbits + 1) << K)))));
    const auto t = Sub(an, kdk);
    const auto code = Min(ShiftRight<sh>(Add(t, And(ShiftRight<sh>(an), Set(d16, 1)))), Set(d16, F.max_code));
    return IfThenElseZero(nz, code);
  };
  const auto c0 = encode(x0, kdk0), c1 = encode(x1, kdk1);
  if (!AllFalse(d16, band)) return false;
  bytes = Bytes2(d16, c0, c1);
  return true;
}

// The FP8 codes (bytes, signs merged) of the pair x0, x1 with each vector's EncodeFp8 constants
// (kdk, lo, width), as the last-axis kernel (EncodeBlocks16) and the inner-axis one (QuantizeInner)
// compute them: a flagged pair through EncodeFp8Normalized (float16), or else general(), the two
// vectors' bytes the general way (Encode16).
template <ElemFormat F, typename T, class D16, class General>
HWY_INLINE Vec<Repartition<uint8_t, D16>> EncodeFp8Pair(D16 d16, Vec<D16> x0, Vec<D16> kdk0, Vec<D16> lo0, Vec<D16> width0, Vec<D16> x1,
                                                        Vec<D16> kdk1, Vec<D16> lo1, Vec<D16> width1, const General& general) {
  const RebindToUnsigned<D16> du;
  auto flag = Fp8FlagStart<T>(du);
  auto bytes = Bytes2(d16, EncodeFp8<F, T>(d16, x0, kdk0, lo0, width0, flag), EncodeFp8<F, T>(d16, x1, kdk1, lo1, width1, flag));
  if (HWY_UNLIKELY((Fp8Flagged<F, T>(du, flag)))) {
    bool done = false;
    if constexpr (In16<T>::K == 10) done = EncodeFp8Normalized<F>(d16, x0, kdk0, x1, kdk1, bytes);
    if (!done) bytes = general();
  }
  return Fp8Signs(d16, bytes, x0, x1);
}

// EncodeFp8Pair for float16 inputs with many subnormal ones (both kernels' kNormalizedFirst, below):
// EncodeFp8Normalized for every pair, general() where it finds a lane in F's subnormal range. No
// EncodeFp8 and no flag first: more operations a vector, but no branch that goes each way.
template <ElemFormat F, class D16, class General>
HWY_INLINE Vec<Repartition<uint8_t, D16>> EncodeFp8PairNormalized(D16 d16, Vec<D16> x0, Vec<D16> kdk0, Vec<D16> x1, Vec<D16> kdk1,
                                                                  const General& general) {
  Vec<Repartition<uint8_t, D16>> bytes;
  if (HWY_UNLIKELY(!EncodeFp8Normalized<F>(d16, x0, kdk0, x1, kdk1, bytes))) bytes = general();
  return Fp8Signs(d16, bytes, x0, x1);
}

#endif  // HWY_TARGET != HWY_SCALAR

// float16 -> FP8, whose pairs EncodeFp8 flags where they hold a subnormal input of a block with
// amax below 1 (E4M3; every block for E5M2), the magnitude of trained weights, activations and
// gradients: a flagged pair costs 80-140 cycles at 16M on Zen 4 (a mispredicted branch on fresh
// data, then EncodeFp8Normalized), so where many are, encoding every pair by EncodeFp8Normalized
// first (kNormalizedFirst: no flag, no branch that goes each way) is faster. The choice is made once
// per call range (of the last-axis and of the inner-axis kernel) from its first kSubnormalSample
// inputs, the same codes either way: at least one subnormal input in kSubnormalShare of them, where
// about 15% (AVX-512) or 27% (AVX2) of the pairs are flagged. Last axis, Zen 4, 16M, Gaussian inputs
// of sigma 2^-6 / 2^-7 / 2^-9 (shares 0.31% / 0.62% / 2.5%), against EncodeFp8 for all: 1.11x /
// 1.40x / 1.52x with AVX3_DL; the AVX2 code (forced there), whose Normalized16 costs more (0.87x at
// 2^-6 when chosen there), 1.01x / 1.62x at 2^-7 / 2^-9. Sigma 2^-5 (0.16%) and bench_mx's inputs
// (about 0.16%) keep EncodeFp8. The shares are those measured crossovers: with 1 in 640 AVX3_DL took
// the normalized encoder at 2^-5 and ran 0.96-0.98x there, and the AVX2 code's crossover lay between
// 2^-6 (0.87x) and 2^-7 (1.06x). 8192 inputs put about 20 subnormal ones in the sample at the
// AVX-512 share, counted in a few hundred cycles, against some 9 million for 16M inputs.
constexpr int64_t kSubnormalSample = 8192, kSubnormalShare = HWY_MAX_BYTES >= 64 ? 400 : 200;
template <ElemFormat F, typename T>
constexpr bool kChooseNormalized = HWY_TARGET != HWY_SCALAR && F.bits == 8 && std::is_same_v<T, hwy::float16_t>;
template <ElemFormat F, typename T>
HWY_INLINE bool ManySubnormal16(const T* x, int64_t n) {
#if HWY_TARGET != HWY_SCALAR
  if constexpr (kChooseNormalized<F, T>) {
    const ScalableTag<int16_t> d16;
    const int64_t L = static_cast<int64_t>(Lanes(d16)), m = std::min(n, kSubnormalSample) / L * L;
    const int16_t* p = reinterpret_cast<const int16_t*>(x);
    int64_t count = 0;
    for (int64_t i = 0; i < m; i += L) count += static_cast<int64_t>(CountTrue(d16, Subnormal16<T>(d16, LoadU(d16, p + i))));
    return m > 0 && count * kSubnormalShare >= m;
  }
#endif
  (void)x, (void)n;
  return false;
}

// Calls kernel.template operator()<F, kMode, T>() for the plan's rounding kMode and input type T
// (FP8 takes only rint: validated).
template <ElemFormat F, class Kernel>
void QuantizeFormat(const mx::QuantizePlan& p, const Kernel& kernel) {
  auto typed = [&]<RoundMode kMode>() {
    switch (p.x_type) {
      case mx::DType::kFloat32: return kernel.template operator()<F, kMode, float>();
      case mx::DType::kBFloat16: return kernel.template operator()<F, kMode, hwy::bfloat16_t>();
      default: return kernel.template operator()<F, kMode, hwy::float16_t>();
    }
  };
  if constexpr (F.bits == 8) {
    typed.template operator()<RoundMode::kRint>();
  } else {
    switch (p.round) {
      case RoundMode::kRint: return typed.template operator()<RoundMode::kRint>();
      case RoundMode::kRound: return typed.template operator()<RoundMode::kRound>();
      case RoundMode::kFloor: return typed.template operator()<RoundMode::kFloor>();
    }
  }
}

// The quantize entry points: kernel.template operator()<F, kMode, T>() for the plan's element
// format F, rounding kMode and input type T.
template <class Kernel>
void QuantizeAs(const mx::QuantizePlan& p, const Kernel& kernel) {
#define ACCELMATH_CALL(F) QuantizeFormat<F>(p, kernel)
  ACCELMATH_MX_SWITCH(p.dst_type, ACCELMATH_CALL)
#undef ACCELMATH_CALL
}

}  // namespace
}  // namespace accelmath::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#endif  // ACCELMATH_MX_BLOCKS_INL_H_
