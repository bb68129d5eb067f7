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
    const Rebind<float, DI> df;
    const Rebind<hwy::float16_t, DI> df16;
    return BitCast(di, PromoteTo(df, LoadU(df16, reinterpret_cast<const hwy::float16_t*>(p))));
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
HWY_INLINE void UnpackCodes(const uint8_t* src, size_t n, uint8_t* codes) {
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
    for (size_t i = 0; i < n; i += 4) {
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

#if HWY_TARGET == HWY_AVX2
// ---- quantize: AVX2, last axis, blocksize 32, eight blocks at a time ---------------------------
// The hot case. Per block: the max of its four vectors' |x|; the eight block maxima are then
// transposed into one vector (lane b = block b), so E, the factor and the keep mask are computed
// once for eight blocks; each block's factor is a lane broadcast. The four vectors of codes are
// packed into 32 bytes in order with two packs and one permute. Same kernels (ScaleCode,
// ScaleFactor, QuantizeLanes), so the same bits as the generic path (tested per target).
HWY_INLINE Vec256<int32_t> MaxOf8x8(Full256<int32_t> di, const Vec256<int32_t>* m) {
  const Full256<int64_t> d64;
  Vec256<int32_t> t[4];
  for (int k = 0; k < 4; ++k) {
    t[k] = Max(InterleaveLower(di, m[2 * k], m[2 * k + 1]), InterleaveUpper(di, m[2 * k], m[2 * k + 1]));
  }
  Vec256<int32_t> u[2];
  for (int k = 0; k < 2; ++k) {
    const auto a = BitCast(d64, t[2 * k]), b = BitCast(d64, t[2 * k + 1]);
    u[k] = Max(BitCast(di, InterleaveLower(d64, a, b)), BitCast(di, InterleaveUpper(d64, a, b)));
  }
  // u0 = per 128-bit half [A, B, C, D], u1 = [E, F, G, H]: combine the halves.
  return Max(ConcatLowerLower(di, u[1], u[0]), ConcatUpperUpper(di, u[1], u[0]));
}

// 32 codes (four vectors of int32 < 256) to 32 bytes. The two packs leave 4-byte groups in the
// order c0lo c1lo c2lo c3lo | c0hi c1hi c2hi c3hi (lo/hi: 128-bit halves); kDword puts
// c0 = elements 0-7, c1 = 8-15, ... back in order. kBf16 is for c0 = elements 0-3 and 8-11,
// c1 = 4-7 and 12-15 (bfloat16 widened by interleaving), where whole 8-byte groups are in place.
enum class PackOrder { kDword, kBf16 };
template <PackOrder kOrder>
HWY_INLINE __m256i PackBytes32(Vec256<int32_t> c0, Vec256<int32_t> c1, Vec256<int32_t> c2, Vec256<int32_t> c3) {
  const __m256i bytes = _mm256_packus_epi16(_mm256_packs_epi32(c0.raw, c1.raw), _mm256_packs_epi32(c2.raw, c3.raw));
  if constexpr (kOrder == PackOrder::kDword) {
    return _mm256_permutevar8x32_epi32(bytes, _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7));
  } else {
    return _mm256_permute4x64_epi64(bytes, 0xD8);
  }
}

// Max |x| bits of one block of 32 as int32 lanes (the block's max is the max over lanes). For
// bfloat16 the maximum is taken on the 16-bit patterns (|x| < 0x8000, so signed compares work)
// and widened once: a third of the work of widening every element first.
template <typename T>
HWY_INLINE Vec256<int32_t> BlockAbsMax(Full256<int32_t> di, const T* xb) {
  if constexpr (std::is_same_v<T, hwy::bfloat16_t>) {
    const Full256<int16_t> d16;
    const auto abs = Set(d16, 0x7FFF);
    const int16_t* p16 = reinterpret_cast<const int16_t*>(xb);
    const auto m16 = BitCast(di, Max(And(LoadU(d16, p16), abs), And(LoadU(d16, p16 + 16), abs)));
    return ShiftLeft<16>(Max(And(m16, Set(di, 0xFFFF)), ShiftRight<16>(m16)));
  } else {
    const auto abs = Set(di, 0x7FFFFFFF);
    return Max(Max(And(LoadBits(di, xb), abs), And(LoadBits(di, xb + 8), abs)),
               Max(And(LoadBits(di, xb + 16), abs), And(LoadBits(di, xb + 24), abs)));
  }
}

template <ElemFormat F, RoundMode kMode, bool kAllFinite, typename T>
HWY_INLINE void Encode8Blocks(const T* x, uint8_t* y, Vec256<float> factor, Vec256<int32_t> keep) {
  const Full256<int32_t> di;
  const Full256<float> df;
  for (int b = 0; b < 8; ++b) {
    const auto idx = SetTableIndices(di, std::array<int32_t, 8>{b, b, b, b, b, b, b, b}.data());
    const auto fb = BitCast(df, TableLookupLanes(BitCast(di, factor), idx));
    const auto kb = kAllFinite ? keep : TableLookupLanes(keep, idx);
    const T* xb = x + 32 * b;
    auto code = [&](Vec256<int32_t> bits) { return QuantizeLanes<F, kMode, kAllFinite>(df, di, bits, fb, kb); };
    __m256i bytes;
    if constexpr (std::is_same_v<T, hwy::bfloat16_t> && kAllFinite && kMode == RoundMode::kRint) {
      // bfloat16 |x| bits << 16 by interleaving with zeros (one operation per 8 elements); the
      // 32 sign bits are packed from the 16-bit data once and or-ed into the code bytes.
      const Full256<int16_t> d16;
      const auto zero = Zero(d16);
      const auto abs = Set(d16, 0x7FFF);
      const auto r0 = LoadU(d16, reinterpret_cast<const int16_t*>(xb));
      const auto r1 = LoadU(d16, reinterpret_cast<const int16_t*>(xb) + 16);
      const auto a0 = And(r0, abs), a1 = And(r1, abs);
      auto mag = [&](Vec256<int16_t> h) {
        return EncodeRintAbs<F, true>(df, di, BitCast(di, Mul(BitCast(df, h), fb)));
      };
      bytes = PackBytes32<PackOrder::kBf16>(mag(InterleaveLower(d16, zero, a0)), mag(InterleaveUpper(d16, zero, a0)),
                                            mag(InterleaveLower(d16, zero, a1)), mag(InterleaveUpper(d16, zero, a1)));
      const __m256i signs = _mm256_permute4x64_epi64(
          _mm256_packs_epi16(ShiftRight<15>(r0).raw, ShiftRight<15>(r1).raw), 0xD8);  // 0xFF per negative
      bytes = _mm256_or_si256(bytes, _mm256_and_si256(signs, _mm256_set1_epi8(static_cast<char>(1 << (F.bits - 1)))));
    } else if constexpr (std::is_same_v<T, hwy::bfloat16_t>) {
      const Full256<int16_t> d16;
      const auto zero = Zero(d16);
      const auto r0 = LoadU(d16, reinterpret_cast<const int16_t*>(xb));
      const auto r1 = LoadU(d16, reinterpret_cast<const int16_t*>(xb) + 16);
      bytes = PackBytes32<PackOrder::kBf16>(code(BitCast(di, InterleaveLower(d16, zero, r0))),
                                            code(BitCast(di, InterleaveUpper(d16, zero, r0))),
                                            code(BitCast(di, InterleaveLower(d16, zero, r1))),
                                            code(BitCast(di, InterleaveUpper(d16, zero, r1))));
    } else {
      bytes = PackBytes32<PackOrder::kDword>(code(LoadBits(di, xb)), code(LoadBits(di, xb + 8)),
                                             code(LoadBits(di, xb + 16)), code(LoadBits(di, xb + 24)));
    }
    if constexpr (F.bits == 8) {
      _mm256_storeu_si256(reinterpret_cast<__m256i*>(y + 32 * b), bytes);
    } else if constexpr (F.bits == 4) {
      // u16 lane i = code 2i | code 2i+1 << 8 -> byte code 2i | code 2i+1 << 4
      const __m256i w = _mm256_and_si256(_mm256_or_si256(bytes, _mm256_srli_epi16(bytes, 4)), _mm256_set1_epi16(0xFF));
      const __m128i packed = _mm_packus_epi16(_mm256_castsi256_si128(w), _mm256_extracti128_si256(w, 1));
      _mm_storeu_si128(reinterpret_cast<__m128i*>(y + 16 * b), packed);
    } else {
      // dword i = codes 4i..4i+3 -> e0 + 64 e1 + 4096 (e2 + 64 e3), the 24-bit word of PackCodes<6>
      const __m256i w = _mm256_madd_epi16(_mm256_maddubs_epi16(bytes, _mm256_set1_epi16(0x4001)),
                                          _mm256_set1_epi32(0x10000001));
      const __m256i tight = _mm256_shuffle_epi8(w, _mm256_setr_epi8(0, 1, 2, 4, 5, 6, 8, 9, 10, 12, 13, 14, -1, -1, -1, -1,
                                                                    0, 1, 2, 4, 5, 6, 8, 9, 10, 12, 13, 14, -1, -1, -1, -1));
      uint8_t* out = y + 24 * b;
      const __m128i lo = _mm256_castsi256_si128(tight), hi = _mm256_extracti128_si256(tight, 1);
      _mm_storel_epi64(reinterpret_cast<__m128i*>(out), lo);
      const uint32_t lo_tail = static_cast<uint32_t>(_mm_extract_epi32(lo, 2));
      std::memcpy(out + 8, &lo_tail, 4);
      _mm_storel_epi64(reinterpret_cast<__m128i*>(out + 12), hi);
      const uint32_t hi_tail = static_cast<uint32_t>(_mm_extract_epi32(hi, 2));
      std::memcpy(out + 20, &hi_tail, 4);
    }
  }
}

template <ElemFormat F, RoundMode kMode, typename T>
HWY_INLINE void Quantize8Blocks(const mx::QuantizePlan& p, const T* x, uint8_t* y, uint8_t* scale) {
  const Full256<int32_t> di;
  const Full256<float> df;
  Vec256<int32_t> m[8];
  for (int b = 0; b < 8; ++b) m[b] = BlockAbsMax(di, x + 32 * b);
  const auto amax = MaxOf8x8(di, m);
  const auto e = ScaleCode<F>(df, di, amax, p.alg);
  const auto factor = ScaleFactor(df, di, e);
  StoreBytes(di, e, scale);
  if (AllFalse(di, Eq(e, Set(di, 255)))) {
    Encode8Blocks<F, kMode, true>(x, y, factor, e);  // the keep mask is all ones: skip it
  } else {
    Encode8Blocks<F, kMode, false>(x, y, factor, KeepMask(di, e));
  }
}
#endif

// ---- quantize: blocks along the last axis (post == 1) -------------------------------------------
// A block's elements are contiguous: the max |x| over its vectors, reduced across lanes, gives E
// in every lane; then each vector is scaled and encoded. A short last block (dim % blocksize)
// and targets whose vectors exceed the block are handled on a zero-padded float32 copy.
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
  for (int64_t g = g0; g < g1; ++g) {
    const int64_t r = g / nb, b = g % nb;
    const int64_t first = r * dim + b * bs;
#if HWY_TARGET == HWY_AVX2
    if (bs == 32 && b + 8 <= nb - (dim % 32 != 0) && g + 8 <= g1) {  // eight full blocks of this row
      Quantize8Blocks<F, kMode>(p, x + first, y + first * F.bits / 8, p.scale + r * ((nb + 1) / 2) * 2 + b);
      g += 7;
      if (b + 8 == nb && nb % 2 == 1) p.scale[r * ((nb + 1) / 2) * 2 + nb] = 0;
      continue;
    }
#endif
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
      for (int64_t s = 0; s < lanes; s += N) Store(Zero(di), di, amax + s);
      for (int64_t t = 0; t < len; ++t) {
        for (int64_t s = 0; s < lanes; s += N) Store(Max(Load(di, amax + s), And(load(t, s), abs)), di, amax + s);
      }
      for (int64_t s = 0; s < lanes; s += N) {
        const auto e = ScaleCode<F>(df, di, Load(di, amax + s), p.alg);
        Store(e, di, e_buf + s);
        Store(ScaleFactor(df, di, e), df, factor_buf + s);
        Store(KeepMask(di, e), di, keep_buf + s);
      }
      uint8_t* srow = p.scale + ((pi * nb2 + b / 2) * post + q0) * 2 + (b % 2);
      for (int64_t l = 0; l < lanes; ++l) {
        srow[2 * l] = static_cast<uint8_t>(e_buf[l]);
        if (b == nb - 1 && nb % 2 == 1) srow[2 * l + 1] = 0;
      }
      for (int64_t t = 0; t < len; ++t) {
        const int64_t flat = base + t * post + q0;
        uint8_t* out = F.bits == 8 ? y + flat : codes;
        int64_t s = 0;
        for (; s < full; s += N) {
          StoreBytes(di, QuantizeLanes<F, kMode>(df, di, load(t, s), Load(df, factor_buf + s), Load(di, keep_buf + s)), out + s);
        }
        if (s < lanes) {
          HWY_ALIGN uint8_t last[kMaxLanes];
          StoreBytes(di, QuantizeLanes<F, kMode>(df, di, load(t, s), Load(df, factor_buf + s), Load(di, keep_buf + s)), last);
          std::memcpy(out + s, last, static_cast<size_t>(lanes - s));
        }
        if (F.bits != 8) PackCodes<F.bits>(codes, static_cast<size_t>(lanes), y + flat * F.bits / 8);
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

template <typename TOut, class DI>
HWY_INLINE void StoreOut(DI di, Vec<DI> bits, TOut* out) {
  if constexpr (std::is_same_v<TOut, float>) {
    StoreU(bits, di, reinterpret_cast<int32_t*>(out));
  } else if constexpr (std::is_same_v<TOut, hwy::bfloat16_t>) {
    const Rebind<uint16_t, DI> d16;
    StoreU(DemoteTo(d16, RoundToBf16(di, bits)), d16, reinterpret_cast<uint16_t*>(out));
  } else {
    const Rebind<float, DI> df;
    const Rebind<hwy::float16_t, DI> df16;
    StoreU(DemoteTo(df16, BitCast(df, bits)), df16, out);
  }
}

// Dequantizes the n codes at `codes` with per-lane scale codes (one value for all lanes when
// `scales` is null: `scale_code`) into out[0..n), n a multiple of Lanes.
template <ElemFormat F, typename TOut>
HWY_INLINE void DequantizeRun(const uint8_t* codes, int64_t n, const uint8_t* scales, int32_t scale_code, TOut* out) {
  const ScalableTag<int32_t> di;
  const RebindToFloat<decltype(di)> df;
  const Rebind<uint8_t, decltype(di)> d8;
  const int64_t N = static_cast<int64_t>(Lanes(di));
  const auto fixed = E8M0Value(df, di, Set(di, scale_code));
  for (int64_t i = 0; i < n; i += N) {
    const auto c = PromoteTo(di, LoadU(d8, codes + i));
    const auto factor = scales ? E8M0Value(df, di, PromoteTo(di, LoadU(d8, scales + i))) : fixed;
    const auto v = Mul(BitCast(df, DecodeBits<F>(df, di, c)), factor);
    StoreOut(di, BitCast(di, v), out + i);
  }
}

template <ElemFormat F, typename TOut>
void DequantizeT(const mx::DequantizePlan& p, int64_t g0, int64_t g1) {
  const int64_t N = static_cast<int64_t>(Lanes(ScalableTag<int32_t>()));
  const int64_t bs = p.blocksize, dim = p.dim, post = p.post, nb = (dim + bs - 1) / bs, nb2 = (nb + 1) / 2;
  const uint8_t* y = static_cast<const uint8_t*>(p.y);
  TOut* x = static_cast<TOut*>(p.x);
  constexpr int64_t kChunk = 256;  // elements unpacked at a time, a multiple of every N
  HWY_ALIGN uint8_t codes[kChunk + kMaxLanes];
  HWY_ALIGN uint8_t scales[kChunk + kMaxLanes];
  HWY_ALIGN TOut out[kChunk + kMaxLanes];
  for (int64_t g = g0; g < g1; ++g) {
    const int64_t pi = g / nb, b = g % nb;
    const int64_t t0 = b * bs, len = std::min(bs, dim - t0);
    const int64_t base = (pi * dim + t0) * post;
    const int64_t count = len * post;  // contiguous elements of this (pi, block)
    const uint8_t* srow = p.scale + ((pi * nb2 + b / 2) * post) * 2 + (b % 2);
    for (int64_t i = 0; i < count; i += kChunk) {
      const int64_t n = std::min(kChunk, count - i);  // even for FP4, a multiple of 4 for FP6
      const int64_t padded = (n + N - 1) / N * N;
      // Whole vectors of FP8 codes are read in place and written straight to x; the rest goes
      // through the unpacked, zero-padded copies.
      const bool direct = F.bits == 8 && n == padded;
      const uint8_t* c = y + (base + i) * F.bits / 8;
      if (!direct) {
        UnpackCodes<F.bits>(c, static_cast<size_t>(n), codes);
        for (int64_t k = n; k < padded; ++k) codes[k] = 0;
        c = codes;
      }
      TOut* dst = n == padded ? x + base + i : out;
      if (post == 1) {
        DequantizeRun<F>(c, padded, nullptr, srow[0], dst);
      } else {
        for (int64_t k = 0; k < padded; ++k) scales[k] = k < n ? srow[2 * ((i + k) % post)] : 0;
        DequantizeRun<F>(c, padded, scales, 0, dst);
      }
      if (dst == out) std::memcpy(x + base + i, out, static_cast<size_t>(n) * sizeof(TOut));
    }
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
