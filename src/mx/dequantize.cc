// MX dequantize and the array codecs (one code per byte) for every Highway target, chosen at run
// time, from the pieces the quantize kernels use too (src/mx/blocks-inl.h). Validation, layout and
// threads are in src/mx/api.cc, which calls the entry points at the end of this file.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "mx/dequantize.cc"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

#include "mx/blocks-inl.h"

HWY_BEFORE_NAMESPACE();
namespace accelmath::HWY_NAMESPACE {
namespace {

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
    // Per 16-byte block of the vector, 12 bytes -> 16 codes: the block's 12 source bytes are moved
    // into it by one 32-bit lane permute (block b takes source words 3b .. 3b + 3; a no-op for one
    // block), each 3-byte word into a 32-bit lane by one byte shuffle, then its four 6-bit fields
    // to the lane's four bytes. The load reads Lanes(d8) bytes: `readable` (the bytes at src that
    // may be read, at least 3n/4) says how far that may go.
    const ScalableTag<uint8_t> d8;
    const Repartition<uint32_t, decltype(d8)> d32;
    const size_t L = Lanes(d8);
    if (L >= 16) {
      alignas(16) static constexpr uint8_t kSpread[16] = {0, 1, 2, 0x80, 3, 4, 5, 0x80, 6, 7, 8, 0x80, 9, 10, 11, 0x80};
      const auto spread = LoadDup128(d8, kSpread);
      const auto lane = Iota(d32, 0);
      const auto words = IndicesFromVec(d32, Sub(lane, ShiftRight<2>(lane)));  // lane j: word 3 (j / 4) + j % 4
      for (; i + L <= n && 3 * i / 4 + L <= readable; i += L) {
        const auto w = BitCast(d32, TableLookupBytesOr0(TableLookupLanes(BitCast(d32, LoadU(d8, src + 3 * i / 4)), words), spread));
        // Two spreading steps: the 12-bit halves to the 16-bit halves, then each 6-bit field to a byte.
        const auto h = Or(And(w, Set(d32, 0xFFFu)), And(ShiftLeft<4>(w), Set(d32, 0xFFF0000u)));
        const auto c = Or(And(h, Set(d32, 0x3F003Fu)), And(ShiftLeft<2>(h), Set(d32, 0x3F003F00u)));
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

#if HWY_TARGET != HWY_SCALAR
// value(code) 2^-(15 - bias) as float16 bits, for Lanes(d16) codes of any format (bias = 1 - emin, the
// format's exponent bias), in int16 lanes: the code's magnitude shifted so that its exponent field
// lands on float16's and its mantissa at the top of float16's (mag << (10 - mbits)), its sign in bit
// 15. Every format's exponent field fits float16's and its subnormals are float16 subnormals, so the
// float16 is exact; E5M2's Inf and NaN codes are float16's own, and E4M3's one NaN code S.1111.111
// becomes the float16 NaN 0x7E00 (float32 0x7FC00000, as DecodeBits). The hardware's exact float16 ->
// float32 conversion (F16C; AVX-512) then gives value(code) 2^-(15 - bias), and one product with
// 2^(E - 127 + 15 - bias) the result: the same real product as DecodeBits' value times 2^(E - 127),
// rounded once (float32 subnormals and overflow alike), so the same bits. E5M2's NaN codes keep
// their payload here where DecodeBits gives 0x7FA00000 for S.11111.01: the product with a number
// quiets both to the same bits. Measured against DecodeBits on one AVX-512 Xeon (the Highway AVX3
// and AVX2 code paths): E5M2 / E4M3 -> float16 2.2-2.6x / 1.26x (64K); FP6/FP4 -> float32 1.08-1.28x
// (AVX3) and 1.31-1.43x (AVX2 code) at 16M.
template <ElemFormat F, class D16>
HWY_INLINE Vec<D16> CodeToHalfBits(D16 d16, const uint8_t* codes) {
  const Rebind<uint8_t, D16> d8;
  const auto c = PromoteTo(d16, LoadU(d8, codes));
  if constexpr (F.bits == 8 && F.mbits == 2) {
    return ShiftLeft<8>(c);  // E5M2 is the top byte of its float16
  } else {
    const auto mag = And(c, Set(d16, static_cast<int16_t>((1 << (F.bits - 1)) - 1)));
    const auto sign = And(ShiftLeft<16 - F.bits>(c), Set(d16, int16_t(-0x8000)));
    auto h = ShiftLeft<10 - F.mbits>(mag);
    if constexpr (F.nan_code >= 0 && F.inf_code < 0) h = IfThenElse(Eq(mag, Set(d16, F.nan_code)), Set(d16, 0x7E00), h);
    return Or(h, sign);
  }
}

// The E8M0 code of the factor that takes CodeToHalfBits' float16 values to value(code) 2^(E - 127).
template <ElemFormat F>
constexpr int32_t HalfFactorOffset() {
  return 15 - (1 - F.emin);
}
#endif

// Dequantizes the n codes at `codes`, all of scale code e, into out[0..n), n a multiple of Lanes,
// in float32 lanes.
template <ElemFormat F, typename TOut>
HWY_INLINE void DequantizeWide(const uint8_t* codes, int64_t n, int32_t e, TOut* out) {
  const ScalableTag<int32_t> di;
  const RebindToFloat<decltype(di)> df;
  const Rebind<uint8_t, decltype(di)> d8;
  const int64_t N = static_cast<int64_t>(Lanes(di));
  if (e == 255) {  // NaN scale: every element the canonical NaN (NaN code times NaN factor: either NaN)
    for (int64_t i = 0; i < n; i += N) StoreOut<true>(di, Set(di, kNaNBits), out + i);
    return;
  }
  auto run = [&](auto exact) {
#if HWY_TARGET != HWY_SCALAR
    // Through float16 bits (CodeToHalfBits) wherever the factor's code stays below 255. A float16
    // output takes 2N codes per step: their float16 bits made once in 16-bit lanes, then each half
    // widened, scaled and rounded to float16.
    if (e + HalfFactorOffset<F>() <= 254) {
      const auto factor = E8M0Value(df, di, Set(di, e + HalfFactorOffset<F>()));
      const Rebind<int16_t, decltype(di)> d16;
      const Rebind<hwy::float16_t, decltype(di)> dh;
      int64_t i = 0;
      if constexpr (std::is_same_v<TOut, hwy::float16_t>) {
        const Twice<decltype(d16)> d16x2;
        for (; i + 2 * N <= n; i += 2 * N) {
          const auto h = CodeToHalfBits<F>(d16x2, codes + i);
          StoreU(DemoteTo(dh, Mul(PromoteTo(df, BitCast(dh, LowerHalf(d16, h))), factor)), dh, out + i);
          StoreU(DemoteTo(dh, Mul(PromoteTo(df, BitCast(dh, UpperHalf(d16, h))), factor)), dh, out + i + N);
        }
      }
      for (; i < n; i += N) {
        const auto v = PromoteTo(df, BitCast(dh, CodeToHalfBits<F>(d16, codes + i)));
        StoreOut<decltype(exact)::value>(di, BitCast(di, Mul(v, factor)), out + i);
      }
      return;
    }
#endif
    const auto factor = E8M0Value(df, di, Set(di, e));
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
    const auto e = PromoteTo(di, LoadU(d8, scales + i));
    const auto v = BitCast(di, Mul(BitCast(df, DecodeBits<F>(df, di, c)), E8M0Value(df, di, e)));
    StoreOut<false>(di, IfThenElse(Eq(e, Set(di, 255)), Set(di, kNaNBits), v), out + i);  // as DequantizeWide
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
    const auto sub_base = LoadDup128(d16, kSub);
    alignas(16) static constexpr int16_t kNotZero[8] = {0, -1, -1, -1, -1, -1, -1, -1};  // man = 0: the zero code
    const auto not_zero = LoadDup128(d16, kNotZero);
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
      // The block's subnormal-code table: kSub plus the block's constant, and 0 for the zero code.
      const auto sub_k = Set(d16, static_cast<int16_t>((F.emin - F.mbits + e - 127 + O::bias) << O::M));
      const auto sub_table = BitCast(db, And(Add(sub_base, sub_k), not_zero));
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
        const auto sub = BitCast(d16, TableLookupBytes(sub_table, BitCast(db, idx)));
        auto v = IfThenElse(Lt(mag, first_normal), sub, normal);
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

HWY_EXPORT(MxDequantize);
HWY_EXPORT(MxEncode);
HWY_EXPORT(MxDecode);

void DequantizeBlocks(const DequantizePlan& p, int64_t g0, int64_t g1) { HWY_DYNAMIC_DISPATCH(MxDequantize)(p, g0, g1); }
void EncodeArray(const float* x, size_t n, uint8_t* codes, DType type, RoundMode mode) {
  HWY_DYNAMIC_DISPATCH(MxEncode)(x, n, codes, type, mode);
}
void DecodeArray(const uint8_t* codes, size_t n, float* x, DType type) { HWY_DYNAMIC_DISPATCH(MxDecode)(codes, n, x, type); }

}  // namespace accelmath::mx::detail
#endif  // HWY_ONCE
