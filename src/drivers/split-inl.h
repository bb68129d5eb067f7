// The split driver (Split rows of the registry), per Highway target: a cheap common region that
// most inputs hit, and a rare, expensive one. In blocks of kBlock elements, every lane gets the
// common formula (two vectors at a time, interleaved: backend/pair-inl.h) and is stored; the
// positions of the lanes outside the common region and their inputs are appended to two small
// buffers without a branch (a branch on "any rare lane?" mispredicts when the rare lanes are
// scattered); then the rare lanes are evaluated densely by the rare formula and scattered back over
// the common values (the inputs are kept because the common pass may have overwritten them: dst ==
// src). F64 rows run that rare pass two vectors at a time (the kernel's RarePair where it has one:
// ndtri), scattering each result vector as it comes (ScatterIndex: one instruction on AVX-512 and
// SVE), in blocks of 1024. The same per-lane functions as SplitEval
// (drivers/eval-inl.h), so the same bits as the scalar lane. The partial last vector uses masked
// loads and stores, so nothing past n is touched. F64 rows evaluate both parts in binary64 lanes,
// and test IsCommon on a pair's float32 inputs at once (2N lanes: one test where two binary64
// ones and the joining of their masks were; the kernel's test must then be exact in both
// precisions, as ndtri's bounds are: ndtri 1.09x with the AVX2 code forced on an AVX-512 Zen 5 and
// 1.02x with its AVX3 on uniform p; unmeasured on Intel and on a CPU whose best target is AVX2); F32 rows (erfinv, erfcinv) the common part in float32 lanes, all of a target's
// lanes at a time, and the rare part in binary64 (SplitUnaryF32).
// Per vector of the common pass the bookkeeping is two compresses (index and input vectors: a
// register compress where the target has one, else a table lookup), two stores and one add. F64
// rows append the two binary64 vectors of a pair together (their 2N positions and float32 inputs
// as one int32 and one float32 vector: half the compresses; ndtri 3% faster on uniform p and 7% on
// centre-only p than with one append per vector, measured on an AVX-512 Intel Xeon with its AVX3
// code and with the AVX2 code forced there; unmeasured on a CPU whose best target is AVX2). Two
// vectors with no common lane at all (most of them, for tail-heavy inputs) go to the rare formula
// directly.
#if defined(ACCELMATH_DRIVERS_SPLIT_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef ACCELMATH_DRIVERS_SPLIT_INL_H_
#undef ACCELMATH_DRIVERS_SPLIT_INL_H_
#else
#define ACCELMATH_DRIVERS_SPLIT_INL_H_
#endif

#include <hwy/highway.h>

#include <array>
#include <cstdint>

#include "accelmath/registry.h"
#include "backend/pair-inl.h"
#include "drivers/map-inl.h"  // PrefetchInputs

HWY_BEFORE_NAMESPACE();
namespace accelmath::HWY_NAMESPACE {

#if HWY_TARGET == HWY_AVX2
// AVX2 has no compress instruction and Highway 1.0.3's CompressBits for 4 x int32 copies its
// lookup table onto the stack on every call, so: our own tables, built at compile time. Row m of
// kCompress<L> (bit l set = lane l is wanted) lists the wanted lanes first, for TableLookupLanes on
// L x 32-bit lanes: L = 4 for the float32 inputs of a binary64 vector (F64 rows), L = 8 for a whole
// float32 vector (F32 rows; 8 KiB).
template <int32_t L>
constexpr std::array<int32_t, (1 << L) * L> CompressTable() {
  std::array<int32_t, (1 << L) * L> t{};
  for (int32_t m = 0; m < (1 << L); ++m) {
    int32_t pos = 0;
    for (int32_t pass = 0; pass < 2; ++pass) {
      for (int32_t l = 0; l < L; ++l) {
        if (((m >> l) & 1) == (pass == 0 ? 1 : 0)) t[m * L + pos++] = l;
      }
    }
  }
  return t;
}
template <int32_t L>
inline constexpr auto kCompress = CompressTable<L>();
#endif

// Appends the lanes of the int32 vector `idx` and of the float32 vector `x` (as many lanes) whose
// bit is set in `bits` (lane l: bit l % 8 of byte l / 8) at `out_i` and `out_x`. May write a whole
// vector there, past the appended lanes. AVX2: a table lookup (kCompress); AVX-512: a register
// compress (CompressBits; never the compress-to-memory form, slow on some CPUs); elsewhere Highway's.
template <class DI, class DF, class VI, class VF>
HWY_INLINE void AppendBits(DI di, DF df, const uint8_t* bits, VI idx, VF x, int32_t* HWY_RESTRICT out_i,
                           float* HWY_RESTRICT out_x) {
#if HWY_TARGET == HWY_AVX2
  constexpr int32_t L = static_cast<int32_t>(MaxLanes(DI()));
  const auto perm = LoadU(di, kCompress<L>.data() + L * bits[0]);
  StoreU(TableLookupLanes(idx, IndicesFromVec(di, perm)), di, out_i);
  StoreU(TableLookupLanes(x, IndicesFromVec(df, perm)), df, out_x);
#else
  StoreU(CompressBits(idx, bits), di, out_i);
  StoreU(CompressBits(x, bits), df, out_x);
#endif
}

// The same for the lanes selected by `take` (a mask of the lanes of `dm`: binary64 lanes for F64
// rows, the float32 lanes of `df` for F32 rows); returns how many.
template <class DM, class DI, class DF, class M, class VI, class VF>
HWY_INLINE size_t Append(DM dm, DI di, DF df, M take, VI idx, VF x, int32_t* HWY_RESTRICT out_i,
                         float* HWY_RESTRICT out_x) {
  uint8_t bits[8] = {};
  StoreMaskBits(dm, take, bits);
  AppendBits(di, df, bits, idx, x, out_i, out_x);
  return CountTrue(dm, take);
}

// F32 Split rows: IsCommon and Common on float32 vectors (all the lanes of the target), the rare
// lanes compacted by Append and evaluated in binary64 (Rare), rounded once.
template <class K>
HWY_INLINE void SplitUnaryF32(const K& k, const float* src, float* dst, size_t n) {
  const ScalableTag<float> df;
  const RebindToSigned<decltype(df)> di;
  const ScalableTag<double> dd;
  const Rebind<float, decltype(dd)> dh;  // the float32 inputs of one binary64 vector
  const size_t N = Lanes(df);
  const size_t NH = Lanes(dd);
  constexpr size_t kBlock = 512;
  constexpr size_t kSlack = HWY_MAX_BYTES / sizeof(float);  // appends write whole vectors
  HWY_ALIGN int32_t rare_i[kBlock + kSlack];
  HWY_ALIGN float rare_x[kBlock + kSlack];
  HWY_ALIGN float rare_y[kBlock + kSlack];
  const auto rare = [&](const float* from, float* to) HWY_ATTR {
    StoreU(DemoteTo(dh, k.Rare(dd, PromoteTo(dd, LoadU(dh, from)))), dh, to);
  };
  const auto iota = Iota(di, 0);
  const auto step = Set(di, static_cast<int32_t>(N));
  const void* const in_any[1] = {src};
  for (size_t b = 0; b < n; b += kBlock) {
    PrefetchInputs<1>(in_any, b, kBlock, n);
    const size_t m = HWY_MIN(kBlock, n - b);
    size_t nr = 0;
    size_t i = 0;
    auto idx = iota;
    for (; i + N <= m; i += N, idx = Add(idx, step)) {
      const auto f = LoadU(df, src + b + i);
      const auto c = k.IsCommon(df, f);
      if (AllFalse(df, c)) {  // every lane rare (tail-heavy inputs): no compaction
        for (size_t h = 0; h < N; h += NH) rare(src + b + i + h, dst + b + i + h);
        continue;
      }
      StoreU(k.Common(df, f), df, dst + b + i);
      nr += Append(df, di, df, Not(c), idx, f, rare_i + nr, rare_x + nr);
    }
    if (i < m) {  // the partial last vector
      const size_t r = m - i;
      const auto live = FirstN(df, r);
      const auto f = MaskedLoad(live, df, src + b + i);
      BlendedStore(k.Common(df, f), live, df, dst + b + i);
      nr += Append(df, di, df, AndNot(k.IsCommon(df, f), live), idx, f, rare_i + nr, rare_x + nr);
    }
    StoreU(Zero(df), df, rare_x + nr);  // the last rare vector's lanes past nr: 0, not stale
    for (size_t j = 0; j < nr; j += NH) rare(rare_x + j, rare_y + j);
    for (size_t j = 0; j < nr; ++j) dst[b + static_cast<size_t>(rare_i[j])] = rare_y[j];
  }
}

// The rare part at x0 (returned) and x1 (y1): the kernel's RarePair where it has one (eval-inl.h),
// else Rare twice.
template <class K, class D, class V>
HWY_INLINE V RarePair(const K& k, D d, V x0, V x1, V& y1) {
  if constexpr (requires { k.RarePair(d, x0, x1, y1); }) {
    return k.RarePair(d, x0, x1, y1);
  } else {
    y1 = k.Rare(d, x1);
    return k.Rare(d, x0);
  }
}

// F64 Split rows: both parts in binary64 lanes.
template <class K>
HWY_INLINE void SplitUnaryF64(const K& k, const float* src, float* dst, size_t n) {
  const ScalableTag<double> dd;
  const Rebind<float, decltype(dd)> df;
  const Rebind<int32_t, decltype(dd)> di;
  const size_t N = Lanes(dd);
  constexpr size_t kBlock = 1024;
  constexpr size_t kSlack = 2 * HWY_MAX_BYTES / sizeof(double);  // appends and the last pair: whole vectors
  HWY_ALIGN int32_t rare_i[kBlock + kSlack];
  HWY_ALIGN float rare_x[kBlock + kSlack];
  HWY_ALIGN float rest[kSlack];  // the last pair's 2N results (not 2 * MaxLanes(df): on SVE that is N)
  const void* const in_any[1] = {src};
  const auto iota = Iota(di, 0);
#if HWY_TARGET != HWY_SCALAR
  // A pair of binary64 vectors' positions and inputs in one int32 and one float32 vector (2N lanes).
  const Repartition<int32_t, decltype(dd)> dpi;
  const Repartition<float, decltype(dd)> dpf;
  static_assert(MaxLanes(dpi) == 2 * MaxLanes(dd) && MaxLanes(dd) <= 8, "a pair's mask bits fit 16 bits");
  const auto iota_p = Iota(dpi, 0);
#endif
  for (size_t b = 0; b < n; b += kBlock) {
    PrefetchInputs<1>(in_any, b, kBlock, n);
    const size_t m = HWY_MIN(kBlock, n - b);
    size_t nr = 0;
    size_t i = 0;
    for (; i + 2 * N <= m; i += 2 * N) {
      const auto f0 = LoadU(df, src + b + i);
      const auto f1 = LoadU(df, src + b + i + N);
      const auto x0 = PromoteTo(dd, f0);
      const auto x1 = PromoteTo(dd, f1);
#if HWY_TARGET == HWY_SCALAR
      const auto c0 = k.IsCommon(dd, x0), c1 = k.IsCommon(dd, x1);
      const bool none = AllFalse(dd, Or(c0, c1));
#else  // the pair's 2N inputs tested at once, as float32 (IsCommon is exact in both precisions)
      const auto fp = Combine(dpf, f1, f0);
      const auto rare_p = Not(k.IsCommon(dpf, fp));
      const bool none = AllTrue(dpf, rare_p);
#endif
      if (none) {  // every lane rare (tail-heavy inputs): no compaction
        decltype(Zero(dd)) y1;
        const auto y0 = RarePair(k, dd, x0, x1, y1);
        StoreU(DemoteTo(df, y0), df, dst + b + i);
        StoreU(DemoteTo(df, y1), df, dst + b + i + N);
        continue;
      }
#if HWY_HAVE_SCALABLE  // SVE's vectors cannot be members of a struct: no Pair, one after the other
      StoreU(DemoteTo(df, k.Common(dd, x0)), df, dst + b + i);
      StoreU(DemoteTo(df, k.Common(dd, x1)), df, dst + b + i + N);
#else
      const auto y = k.Common(Pair<decltype(dd)>{dd}, PairVec<decltype(dd)>{x0, x1});
      StoreU(DemoteTo(df, y.a), df, dst + b + i);
      StoreU(DemoteTo(df, y.b), df, dst + b + i + N);
#endif
#if HWY_TARGET == HWY_SCALAR  // one lane per vector: the two appended one by one
      nr += Append(dd, di, df, Not(c0), Set(di, static_cast<int32_t>(i)), f0, rare_i + nr, rare_x + nr);
      nr += Append(dd, di, df, Not(c1), Set(di, static_cast<int32_t>(i + 1)), f1, rare_i + nr, rare_x + nr);
#else  // the pair's 2N lanes in one append: one compress of positions, one of inputs
      uint8_t bits[8] = {};
      StoreMaskBits(dpf, rare_p, bits);
      AppendBits(dpi, dpf, bits, Add(iota_p, Set(dpi, static_cast<int32_t>(i))), fp, rare_i + nr, rare_x + nr);
      nr += CountTrue(dpf, rare_p);
#endif
    }
    for (; i < m; i += N) {  // at most one full and one partial vector
      const size_t r = HWY_MIN(N, m - i);
      const auto live = FirstN(df, r);
      const auto f = MaskedLoad(live, df, src + b + i);
      const auto x = PromoteTo(dd, f);
      const auto take = AndNot(k.IsCommon(dd, x), FirstN(dd, r));
      const auto idx = Add(iota, Set(di, static_cast<int32_t>(i)));
      BlendedStore(DemoteTo(df, k.Common(dd, x)), live, df, dst + b + i);
      nr += Append(dd, di, df, take, idx, f, rare_i + nr, rare_x + nr);
    }
    // The rare lanes two vectors at a time, their results scattered to their places (one
    // instruction per vector where the target has one: AVX-512, SVE); the last 1..2N, lane by lane.
    const auto rare = [&](size_t j, decltype(Zero(dd))& y1) HWY_ATTR {
      return RarePair(k, dd, PromoteTo(dd, LoadU(df, rare_x + j)), PromoteTo(dd, LoadU(df, rare_x + j + N)), y1);
    };
    size_t j = 0;
    for (; j + 2 * N <= nr; j += 2 * N) {
      decltype(Zero(dd)) y1;
      const auto y0 = rare(j, y1);
      ScatterIndex(DemoteTo(df, y0), df, dst + b, LoadU(di, rare_i + j));
      ScatterIndex(DemoteTo(df, y1), df, dst + b, LoadU(di, rare_i + j + N));
    }
    if (j < nr) {
      StoreU(Zero(df), df, rare_x + nr);  // the last pair's lanes past nr: 0, not stale
      StoreU(Zero(df), df, rare_x + nr + N);
      decltype(Zero(dd)) y1;
      const auto y0 = rare(j, y1);
      StoreU(DemoteTo(df, y0), df, rest);
      StoreU(DemoteTo(df, y1), df, rest + N);
      for (size_t l = 0; l < nr - j; ++l) dst[b + static_cast<size_t>(rare_i[j + l])] = rest[l];
    }
  }
}

template <Eval E, class K>
HWY_INLINE void SplitUnary(const K& k, const float* src, float* dst, size_t n) {
  if constexpr (E == Eval::kF32) {
    SplitUnaryF32(k, src, dst, n);
  } else {
    SplitUnaryF64(k, src, dst, n);
  }
}

// The array loop of a Split row (src/dispatch/family-inl.h's one signature for every driver).
template <Eval E, Shape S, class K>
HWY_INLINE void SplitArray(const K& k, void* const* out, const void* const* in, size_t n, size_t /*row_length*/) {
  static_assert(S == Shape::kUnary, "Split rows have one input and one result");
  SplitUnary<E>(k, static_cast<const float*>(in[0]), static_cast<float*>(out[0]), n);
}

}  // namespace accelmath::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#endif  // ACCELMATH_DRIVERS_SPLIT_INL_H_ toggle
