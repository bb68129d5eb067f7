// MX quantize along the last axis (post == 1) for every Highway target, chosen at run time (no
// fused multiply-add is involved, so every target, the scalar emulation included, computes the
// same bits); blocks along an inner axis are in src/mx/quantize_inner.cc, what both share in
// src/mx/blocks-inl.h. Validation, layout and threads are in src/mx/api.cc, which calls
// QuantizeBlocks (the end of this file) over ranges of blocks.
// Besides the library's targets, this file compiles for Highway's AVX3_DL (AVX-512 with VBMI and
// the rest of Ice Lake's extensions: Intel Ice Lake and later, AMD Zen 4 and later), for the FP6/FP4
// table encoder's byte permutes (EncodeBlocksTable; AVX3 reads the table by word permutes);
// dispatch picks it on those CPUs.
#undef HWY_DISABLED_TARGETS
#define HWY_DISABLED_TARGETS ACCELMATH_UNBUILT_TARGETS
#ifndef HWY_WANT_AVX3_DL
#define HWY_WANT_AVX3_DL
#endif
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "mx/quantize.cc"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

#include "mx/blocks-inl.h"

HWY_BEFORE_NAMESPACE();
namespace accelmath::HWY_NAMESPACE {
namespace {

// ---- quantize: the last axis, N whole blocks at a time --------------------------------------------
// The hot case, written for the width Highway gives each target: N = Lanes(di) int32 lanes (16 on
// AVX-512, 8 on AVX2, 1 on the scalar lane). A group is N consecutive whole blocks. Per block,
// the max of its |x| bits over its vectors (16-bit inputs: on the 16-bit patterns, widened once);
// the N block maxima are then transposed into one vector, lane b = block b, by log2(N) rounds of
// ConcatEven/ConcatOdd, so E, the factor and the keep mask are computed once for N blocks and
// each block's factor is a lane broadcast. The codes of four vectors are packed into bytes in
// order and stored at once. The same kernels (ScaleCode, ScaleFactor, QuantizeLanes) as the
// per-block path below, so the same bits (tested per target).

// Max |x| bits of the bs elements at x, as int32 lanes (float32 bits; the block's max is the max
// over lanes).
template <typename T, class DI>
HWY_INLINE Vec<DI> BlockAbsMax(DI di, const T* x, int64_t bs) {
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

// Lane b = the max |x| bits, as float32 bits, of block b of the N consecutive blocks of bs elements
// at x (count of them; lanes from count on are 0).
// 16-bit inputs (not on the scalar lane) stay in 16-bit lanes until the end: per block the max of
// its |x| patterns (< 0x8000, so signed compares order them as their values), 2N lanes; each pair
// of blocks folded into one vector of int32 lanes (low half: the max of a lane pair of the even
// block, high half: of the odd block: two shifts, two maxima and one blend), TransposeMax's rounds
// on those N/2 vectors with 16-bit maxima, one last round within the vector, and the N patterns
// widened once (the max commutes with the monotonic widening). On Zen 4 (AVX3, and the AVX2 code
// forced on that AVX-512 CPU), 16-bit -> e4m3 / e2m1:
// widening once per N blocks instead of once per block, 1.11-1.39x with AVX3 and 1.08-1.34x with
// the AVX2 code (A/B, 9 interleaved runs, 64K and 16M); then the folding of block pairs (N/2
// vectors through the rounds, not N), 1.04-1.06x with AVX3 and 1.00-1.02x with the AVX2 code
// (64K, best of 7 interleaved runs).
template <typename T, class DI>
HWY_INLINE Vec<DI> GroupAbsMax(DI di, const T* x, int64_t bs, int64_t count) {
  constexpr size_t N = MaxLanes(di);
#if HWY_HAVE_SCALABLE
  // SVE (SVE_256 and SVE2_128, where Lanes is MaxLanes): its vectors cannot be array elements, so
  // no rounds: each block's max by a reduction, the N maxima loaded as one vector.
  HWY_ALIGN int32_t maxima[N];
  for (size_t b = 0; b < N; ++b) {
    const int64_t at = static_cast<int64_t>(b) * bs;
    maxima[b] = static_cast<int64_t>(b) < count ? GetLane(MaxOfLanes(di, BlockAbsMax(di, x + at, bs))) : 0;
  }
  return Load(di, maxima);
#else
#if HWY_TARGET != HWY_SCALAR
  if constexpr (sizeof(T) == 2) {
    const Repartition<int16_t, DI> d16;
    const RebindToUnsigned<DI> du;
    const int64_t M = static_cast<int64_t>(Lanes(d16));
    auto block = [&](size_t b) {
      if (static_cast<int64_t>(b) >= count) return Zero(du);
      const int16_t* p16 = reinterpret_cast<const int16_t*>(x + static_cast<int64_t>(b) * bs);
      auto m16 = And(LoadU(d16, p16), Set(d16, 0x7FFF));
      for (int64_t i = M; i < bs; i += M) m16 = Max(m16, And(LoadU(d16, p16 + i), Set(d16, 0x7FFF)));
      return BitCast(du, m16);
    };
    auto max16 = [&](Vec<decltype(du)> a, Vec<decltype(du)> b) { return BitCast(du, Max(BitCast(d16, a), BitCast(d16, b))); };
    Vec<decltype(du)> m[N / 2];
    for (size_t k = 0; k < N / 2; ++k) {
      const auto r0 = block(2 * k), r1 = block(2 * k + 1);
      m[k] = BitCast(du, OddEven(BitCast(d16, max16(r1, ShiftLeft<16>(r1))), BitCast(d16, max16(r0, ShiftRight<16>(r0)))));
    }
    for (size_t w = N / 2; w > 1; w /= 2) {
      for (size_t k = 0; k < w / 2; ++k) m[k] = max16(ConcatEven(du, m[2 * k + 1], m[2 * k]), ConcatOdd(du, m[2 * k + 1], m[2 * k]));
    }
    // Lanes 2b and 2b + 1 of m[0] hold block 2b's and 2b + 1's partial maxima (low and high halves).
    const auto folded = max16(ConcatEven(du, m[0], m[0]), ConcatOdd(du, m[0], m[0]));
    const Half<Repartition<uint16_t, DI>> dh;  // N uint16 lanes: lane b = block b
    const auto v = PromoteTo(di, LowerHalf(dh, BitCast(Repartition<uint16_t, DI>(), folded)));
    if constexpr (std::is_same_v<T, hwy::bfloat16_t>) {
      return ShiftLeft<16>(v);
    } else {
      const Rebind<uint16_t, DI> du16;
      const Rebind<hwy::float16_t, DI> df16;
      const Rebind<float, DI> df;
      return BitCast(di, PromoteTo(df, BitCast(df16, DemoteTo(du16, v))));
    }
  }
#endif
  Vec<DI> m[N];
  for (size_t b = 0; b < N; ++b) m[b] = static_cast<int64_t>(b) < count ? BlockAbsMax(di, x + static_cast<int64_t>(b) * bs, bs) : Zero(di);
  return TransposeMax(di, m);
#endif
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
// The codes of 4N consecutive elements (c0..c3, int32 lanes < 2^bits, in element order) packed
// at dst as PackCodes lays them out.
template <ElemFormat F, class DI>
HWY_INLINE void StoreCodes4(DI di, Vec<DI> c0, Vec<DI> c1, Vec<DI> c2, Vec<DI> c3, uint8_t* dst) {
  (void)di;  // used by the generic targets' branch only
#if HWY_TARGET == HWY_SCALAR
  const uint8_t codes[4] = {static_cast<uint8_t>(GetLane(c0)), static_cast<uint8_t>(GetLane(c1)),
                            static_cast<uint8_t>(GetLane(c2)), static_cast<uint8_t>(GetLane(c3))};
  PackCodes<F.bits>(codes, 4, dst);
#else
  const Repartition<uint8_t, DI> d8;
  Vec<decltype(d8)> bytes;  // the 4N codes as bytes, in element order
  // x86: two saturating packs leave, in each 128-bit block j, the 4-byte groups c0[4j..] c1[4j..]
  // c2[4j..] c3[4j..]; one 32-bit permute puts them back in element order.
#ifdef ACCELMATH_X86_AVX3
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
// ---- quantize: 16-bit inputs in 16-bit lanes (Encode16, EncodeCounted: src/mx/blocks-inl.h) ---------
// The codes of one vector of 16-bit inputs at x, of a block with scale code ei, the general way:
// Encode16, or the float32 path (EncodeWide) where a subnormal input can reach F's normal range.
template <ElemFormat F, RoundMode kMode, typename T, class D16>
HWY_INLINE Vec<D16> EncodeVector16(D16 d16, const T* x, int32_t ei) {
  const int32_t kd = ei + In16<T>::bias - 127 + F.emin - F.mbits - 1;
  const auto x16 = LoadU(d16, reinterpret_cast<const int16_t*>(x));
  if (kd <= -F.mbits && HWY_UNLIKELY(!AllFalse(d16, Subnormal16<T>(d16, x16)))) {
    const RebindToFloat<Repartition<int32_t, D16>> df;
    const auto f = ScaleFactor(df, RebindToSigned<decltype(df)>(), Set(RebindToSigned<decltype(df)>(), ei));
    return EncodeWide<F, kMode>(d16, x, f, f);
  }
  return Encode16<F, kMode, T>(d16, x16, Set(d16, static_cast<int16_t>(kd)));
}
// Two of them (the second only if `full`, of blocks e0 and e1) as bytes, out of line.
template <ElemFormat F, RoundMode kMode, typename T, class D16>
HWY_NOINLINE Vec<Repartition<uint8_t, D16>> EncodePair16(D16 d16, const T* x, int32_t e0, int32_t e1, bool full) {
  return Bytes2(d16, EncodeVector16<F, kMode>(d16, x, e0), full ? EncodeVector16<F, kMode>(d16, x + Lanes(d16), e1) : Zero(d16));
}

// Stores the codes of `bytes` (the 2 Lanes(d16) codes of a pair of vectors starting at element i
// of n; `full`: all of them real) at y, through a buffer where fewer are real or `room` (the bytes
// at y that may be written) is less than StoreCodeBytes touches.
template <ElemFormat F, class D8>
HWY_INLINE void StorePair(D8 d8, Vec<D8> bytes, bool full, int64_t i, int64_t n, uint8_t* y, int64_t room) {
  constexpr int64_t chunk = MaxLanes(d8), touched = F.bits == 6 ? chunk : chunk * F.bits / 8;
  if (full && room >= touched) {
    StoreCodeBytes<F>(d8, bytes, y);
  } else {
    HWY_ALIGN uint8_t buf[MaxLanes(d8)];
    StoreCodeBytes<F>(d8, bytes, buf);
    std::memcpy(y, buf, static_cast<size_t>(std::min(n - i, static_cast<int64_t>(Lanes(d8))) * F.bits / 8));
  }
}

#ifdef ACCELMATH_MX_TABLE
// FP6 and FP4 from bfloat16 and float16 on AVX3_DL and AVX3 (AVX-512): TableCodes and
// EncodeTablePair (src/mx/blocks-inl.h), the count whole blocks of bs elements at x, with the
// scale codes e[0..count), into y (`room`: the bytes at y that may be written), a pair of vectors
// (64 inputs) at a time. A block below kCountedFrom (float16 blocks of amax below 2^-5 for E3M2,
// 2^-8 to 2^-11 for the others; no bfloat16 block above 2^-120) takes EncodeTablePair's
// kNormalized (float16) or the general way (EncodePair16, bfloat16): without kMixed such a block
// makes it return false at once, with nothing written, and the caller runs
// EncodeBlocksTableMixed, the loop with a check per pair. Two loops, as on Zen 4 the one with the
// check (and the flag it needs) ran 1.1x slower on groups without such blocks, and the mixed loop
// inlined beside the other 1.07x.
// Against the encoders AVX3 had before (EncodeCounted for FP4/E3M2, Encode16 for bfloat16 -> E2M3,
// the float32 path for float16 -> E2M3) on Zen 4: docs/performance.md (MX, the fifth session for
// AVX3_DL's byte table, the eighth for AVX3's word table).
template <ElemFormat F, RoundMode kMode, bool kMixed, typename T>
HWY_INLINE bool EncodeBlocksTable(const T* x, int64_t bs, int64_t count, const uint8_t* e, uint8_t* y, int64_t room) {
  const ScalableTag<int16_t> d16;
  const Repartition<uint8_t, decltype(d16)> d8;
  const RebindToUnsigned<decltype(d16)> du;
  const int64_t L = static_cast<int64_t>(Lanes(d16)), n = count * bs, chunk = 2 * L, code_bytes = chunk * F.bits / 8;
  const int16_t* p = reinterpret_cast<const int16_t*>(x);
  constexpr int K = In16<T>::K;
  int64_t block = -1, left = 0;  // as in EncodeBlocks16
  auto next_block = [&]() {
    if (left == 0) ++block, left = bs;
    left -= L;
    return block;
  };
  // Per block, once (broadcast from memory in the loop): base.
  HWY_ALIGN uint16_t base[kMaxLanes];
  for (int64_t b = 0; b < count; ++b) {
    if (!kMixed && e[b] < kCountedFrom<F, T>) return false;
    base[b] = static_cast<uint16_t>(e[b] * (1 << K) + kTableBase0<F, kMode, T>);
  }
  const auto table = LoadTable<F, kMode, T>(Repartition<int8_t, decltype(d16)>());
  auto pair = [&]<bool kNormalized>(int64_t i, int64_t b0, int64_t b1, bool full) {
    const auto x0 = LoadU(d16, p + i), x1 = full ? LoadU(d16, p + i + L) : Zero(d16);
    return EncodeTablePair<F, kMode, T, kNormalized>(d16, x0, BitCast(d16, Set(du, base[b0])), x1, BitCast(d16, Set(du, base[b1])), table);
  };
  for (int64_t i = 0; i < n; i += chunk, y += code_bytes, room -= code_bytes) {
    const bool full = i + chunk <= n;
    const int64_t b0 = next_block(), b1 = full ? next_block() : b0;
    if (kMixed && (e[b0] < kCountedFrom<F, T> || e[b1] < kCountedFrom<F, T>)) {
      if constexpr (K == 10) {
        StorePair<F>(d8, pair.template operator()<true>(i, b0, b1, full), full, i, n, y, room);
      } else {
        StorePair<F>(d8, EncodePair16<F, kMode>(d16, x + i, e[b0], e[b1], full), full, i, n, y, room);
      }
    } else {
      StorePair<F>(d8, pair.template operator()<false>(i, b0, b1, full), full, i, n, y, room);
    }
  }
  return true;
}
template <ElemFormat F, RoundMode kMode, typename T>
HWY_NOINLINE void EncodeBlocksTableMixed(const T* x, int64_t bs, int64_t count, const uint8_t* e, uint8_t* y, int64_t room) {
  EncodeBlocksTable<F, kMode, true>(x, bs, count, e, y, room);
}
#endif

// Encodes the count whole blocks of bs elements at x, with the scale codes e[0..count) (all
// < 255), into y. `room`: the bytes at y that may be written; `x_left`: the bytes from x to the end
// of the caller's range (what the FP8 loop may prefetch).
template <ElemFormat F, RoundMode kMode, bool kNormalizedFirst, typename T>
HWY_INLINE void EncodeBlocks16(const T* x, int64_t bs, int64_t count, const uint8_t* e, uint8_t* y, int64_t room, int64_t x_left) {
  const ScalableTag<int16_t> d16;
  const Repartition<uint8_t, decltype(d16)> d8;
  const int64_t L = static_cast<int64_t>(Lanes(d16)), n = count * bs;  // bs is a multiple of L
  const int16_t* p = reinterpret_cast<const int16_t*>(x);
  constexpr int K = In16<T>::K;
  // The block of each vector, stepping through the blocks (no division), and its scale code.
  int64_t block = -1, left = 0;
  auto next_block = [&]() {
    if (left == 0) ++block, left = bs;
    left -= L;
    return block;
  };
  auto scale_of_next = [&]() { return static_cast<int32_t>(e[next_block()]); };
  auto encode = [&](int64_t i, int32_t ei) { return EncodeVector16<F, kMode>(d16, x + i, ei); };
  const int64_t chunk = 2 * L, code_bytes = chunk * F.bits / 8;
  auto store = [&](int64_t i, Vec<decltype(d8)> bytes, bool full) { StorePair<F>(d8, bytes, full, i, n, y, room); };
  // FP8 from bfloat16 and float16 (QuantizeGroups sends every FP8 block here): EncodeFp8
  // (src/mx/blocks-inl.h), its three constants per block broadcast, a pair of vectors at a time;
  // a pair with a flagged lane through encode.
  if constexpr (F.bits == 8) {
    // Per block, once, for all blocks in one vector (broadcast from memory in the loop): kdk, lo
    // and width (kFp8*0 in blocks-inl.h). Against a scalar loop per block, on Zen 4 at 64K:
    // float16 -> e4m3 1.04x, bfloat16 1.00x (AVX3_DL).
    const ScalableTag<int32_t> di;
    HWY_ALIGN int32_t kdk[kMaxLanes], lo[kMaxLanes], width[kMaxLanes];
    const auto ev = PromoteTo(di, LoadU(Rebind<uint8_t, decltype(di)>(), e));
    const auto ek = ShiftLeft<K>(ev), lov = Max(Add(ek, Set(di, kFp8Lo0<F, T>)), Set(di, 1));
    Store(Add(ek, Set(di, kFp8Kdk0<F, T>)), di, kdk);
    Store(lov, di, lo);
    Store(Sub(Max(Add(ek, Set(di, kFp8Hi0<F, T>)), Set(di, 1 << K)), lov), di, width);  // unused for bfloat16
    auto bcast = [&](const int32_t* c, int64_t b) { return Set(d16, static_cast<int16_t>(c[b])); };
    // bfloat16: every block has kd >= 1 (lo >= 2^K), i.e. E > -kFp8Lo0 / 2^K; else the general way.
    bool fast_ok = true;
    if constexpr (K == 7) {
      fast_ok = AllTrue(di, Or(Gt(ev, Set(di, -kFp8Lo0<F, T> / (1 << K))), Not(FirstN(di, static_cast<size_t>(count)))));
    }
    if (fast_ok) {
      // The codes of the pair at element i (blocks b0, b1; `full`: both vectors real), at y + i.
      auto pair = [&](int64_t i, int64_t b0, int64_t b1, bool full) __attribute__((always_inline)) {
        auto general = [&]() { return Bytes2(d16, encode(i, e[b0]), full ? encode(i + L, e[b1]) : Zero(d16)); };
        Vec<decltype(d8)> bytes;
        if constexpr (kNormalizedFirst) {
          bytes = EncodeFp8PairNormalized<F>(d16, LoadU(d16, p + i), bcast(kdk, b0), full ? LoadU(d16, p + i + L) : Zero(d16), bcast(kdk, b1),
                                             general);
        } else {
          bytes = EncodeFp8Pair<F, T>(d16, LoadU(d16, p + i), bcast(kdk, b0), bcast(lo, b0), bcast(width, b0), full ? LoadU(d16, p + i + L) : Zero(d16),
                                      bcast(kdk, b1), bcast(lo, b1), bcast(width, b1), general);
        }
        if (HWY_LIKELY(full)) StoreCodeBytes<F>(d8, bytes, y + i);  // a full pair's 2L bytes are its own codes
        else StorePair<F>(d8, bytes, false, i, n, y + i, room - i);
      };
      // Blocks of whole pairs (blocksize a multiple of 2L: 32 with AVX2, 64 with AVX-512) in a loop
      // per block, its constants loaded once; else pairs step through the blocks. The loop per
      // block against the stepping one, on Zen 4 at 64K: float16 / bfloat16 -> e4m3 1.07x / 1.03x
      // (the AVX2 code forced on that CPU); a third loop for a block per vector (AVX-512 at 32)
      // ran 0.98-0.99x (AVX3_DL, AVX3).
      // Blocks of 128 and more also prefetch, pair by pair, the input two groups on (QuantizeGroups'
      // prefetch, one burst per group, 2 KiB past the group's start, lands mostly inside the group
      // its scan then reads at once, where groups take 4 KiB and more): on Zen 4 at 16M, blocksize
      // 256, bench_mx's inputs, bfloat16 -> e4m3 1.20x / 1.19x / 1.04x with AVX3_DL / AVX3 / the AVX2
      // code; plain Gaussian inputs, AVX3_DL: float16 1.09-1.11x, blocksize 512 1.12-1.16x; 1.00-1.01x
      // at blocksize 128 and at 64K. A burst a group further ahead ran 0.97x, and prefetches spread
      // through the scan 0.93x (docs/performance.md).
      const int64_t ahead = 2 * static_cast<int64_t>(Lanes(di)) * bs * int64_t{sizeof(T)};
      if (bs % chunk == 0) {
        for (int64_t b = 0; b < count; ++b) {
          for (int64_t i = b * bs; i < (b + 1) * bs; i += chunk) {
            if (bs >= 128) PrefetchAhead(p + i, chunk * int64_t{sizeof(T)}, x_left - i * int64_t{sizeof(T)}, ahead);
            pair(i, b, b, true);
          }
        }
      } else {
        for (int64_t i = 0; i < n; i += chunk) {
          const bool full = i + chunk <= n;  // else one vector left (an odd number of L-element blocks)
          const int64_t b0 = next_block(), b1 = full ? next_block() : b0;
          pair(i, b0, b1, full);
        }
      }
      return;
    }
  }
  // FP4 and E3M2 (at most 4 subnormal codes): EncodeCounted, the block's two constants broadcast.
  if constexpr (F.bits != 8 && F.mbits <= 2) {
    const auto thr = CountedThresholds<F, kMode, T>(d16);
    auto count = [&](int64_t i, int32_t ei) {
      const auto x16 = LoadU(d16, p + i);
      const auto off = Set(d16, CountedOffset<T>(ei)), base = Set(d16, CountedBase<F, kMode, T>(ei));
      if (HWY_UNLIKELY((ei < kCountedFrom<F, T>))) {
        if constexpr (K == 10) return EncodeCounted<F, kMode, T, true>(d16, x16, off, base, thr);  // float16: kNormalized
        return encode(i, ei);
      }
      return EncodeCounted<F, kMode, T>(d16, x16, off, base, thr);
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
// `room`: bytes at y that may be written (at least the blocks' codes). kNormalizedFirst: float16 ->
// FP8 through EncodeFp8PairNormalized (QuantizeLast's choice, ManySubnormal16). Out of line: with
// both instantiations inlined into QuantizeLast, the usual one ran 2-7% slower at 16M (Zen 4,
// AVX3_DL), though the same in cache.
template <ElemFormat F, RoundMode kMode, bool kNormalizedFirst, typename T>
HWY_NOINLINE void QuantizeGroups(const mx::QuantizePlan& p, const T* x, uint8_t* y, uint8_t* scale, int64_t n_blocks, int64_t room) {
  const ScalableTag<int32_t> di;
  const RebindToFloat<decltype(di)> df;
  constexpr int64_t N = static_cast<int64_t>(MaxLanes(di));
  const int64_t bs = p.blocksize, code_bytes = bs * F.bits / 8;
  // 16-bit inputs: the next group's scale codes are computed before this group's codes: its
  // loads, maxima and scale rule are a chain of dependent operations (a tree of lane shuffles)
  // that the core then overlaps with this group's encoding instead of waiting on it; and the
  // prefetch runs 2 KiB ahead, not 4. Zen 4 (docs/performance.md), with EncodeBlocks16's FP8
  // changes and against computing them in turn, e4m3 / e2m1 at 64K (best of 5 interleaved runs):
  // bfloat16 1.15x / 1.09x, float16 1.18x / 1.10x with AVX3_DL; 1.10x / 1.14x, 1.16x / 1.15x with
  // AVX3; 1.17x / 1.17x, 1.28x / 1.16x with the AVX2 code forced on that AVX-512 CPU; then the
  // shorter prefetch 1.03-1.05x on FP8 at 16M (AVX3_DL). Inlined: as a call
  // (every vector register clobbered) it ran 0.88-0.95x. float32 keeps the order: ahead, it ran
  // 1.03-1.07x at 64K but 0.80-0.86x at 16M (AVX3_DL: its memory waits were no longer hidden).
  constexpr bool kAhead = sizeof(T) == 2;
  auto scales = [&](int64_t g) __attribute__((always_inline)) {
    PrefetchAhead(x + g * bs, N * bs * int64_t{sizeof(T)}, (n_blocks - g) * bs * int64_t{sizeof(T)}, kAhead ? 2048 : backend::kPrefetchAhead);
    return ScaleCode<F>(df, di, GroupAbsMax(di, x + g * bs, bs, std::min(N, n_blocks - g)), p.alg);
  };
  auto e_next = kAhead ? scales(0) : Zero(di);
  for (int64_t g = 0; g < n_blocks; g += N) {
    const int64_t count = std::min(N, n_blocks - g);
    const auto e = kAhead ? e_next : scales(g);
    if constexpr (kAhead) {
      if (g + N < n_blocks) e_next = scales(g + N);
    }
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
#ifdef ACCELMATH_MX_TABLE
      if constexpr (sizeof(T) == 2 && F.bits != 8 && kMode != RoundMode::kFloor) {
        if (!EncodeBlocksTable<F, kMode, false>(xg, bs, count, codes, yg, left)) EncodeBlocksTableMixed<F, kMode>(xg, bs, count, codes, yg, left);
        continue;
      }
#endif
      if constexpr (sizeof(T) == 2 && kMode != RoundMode::kFloor) {
        EncodeBlocks16<F, kMode, kNormalizedFirst>(xg, bs, count, codes, yg, left, (n_blocks - g) * bs * int64_t{sizeof(T)});
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
  const int64_t elem_begin = g0 / nb * dim + g0 % nb * bs;
  const bool normalized_first = ManySubnormal16<F>(x + elem_begin, elem_end - elem_begin);  // float16 -> FP8 only
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
      auto groups = [&]<bool kNormalizedFirst>() {
        QuantizeGroups<F, kMode, kNormalizedFirst>(p, x + first, y + first * F.bits / 8, p.scale + scale_at, end - g,
                                                   (elem_end - first) * F.bits / 8);
      };
      if constexpr (kChooseNormalized<F, T>) {
        if (normalized_first) groups.template operator()<true>();
        else groups.template operator()<false>();
      } else {
        groups.template operator()<false>();
      }
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

}  // namespace

void MxQuantizeLast(const mx::QuantizePlan& p, int64_t g0, int64_t g1) {
  QuantizeAs(p, [&]<ElemFormat F, RoundMode kMode, typename T>() { QuantizeLast<F, kMode, T>(p, g0, g1); });
}
int64_t MxQuantizeTarget() { return HWY_TARGET; }

}  // namespace accelmath::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace accelmath::mx::detail {

HWY_EXPORT(MxQuantizeLast);
HWY_EXPORT(MxQuantizeTarget);

int64_t QuantizeTarget() { return HWY_DYNAMIC_DISPATCH(MxQuantizeTarget)(); }

void QuantizeBlocks(const QuantizePlan& p, int64_t g0, int64_t g1) {
  if (p.post == 1) {
    HWY_DYNAMIC_DISPATCH(MxQuantizeLast)(p, g0, g1);
  } else {
    QuantizeInnerBlocks(p, g0, g1);
  }
}

}  // namespace accelmath::mx::detail
#endif  // HWY_ONCE
