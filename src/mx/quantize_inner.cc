// MX quantize along an inner axis (post > 1) for every Highway target, chosen at run time: the
// same codes as the last-axis kernels of src/mx/quantize.cc (which calls QuantizeInnerBlocks, the
// end of this file), from the same pieces (src/mx/blocks-inl.h).
// Besides the library's targets, this file compiles for Highway's AVX3_DL, as src/mx/quantize.cc
// does, for the FP6/FP4 table encoder's byte permutes (EncodeTablePair).
#undef HWY_DISABLED_TARGETS
#define HWY_DISABLED_TARGETS ACCELMATH_UNBUILT_TARGETS
#ifndef HWY_WANT_AVX3_DL
#define HWY_WANT_AVX3_DL
#endif
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "mx/quantize_inner.cc"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

#include "mx/blocks-inl.h"

HWY_BEFORE_NAMESPACE();
namespace accelmath::HWY_NAMESPACE {
namespace {

// ---- quantize: blocks along an inner axis (post > 1) --------------------------------------------
// Lanes run along the contiguous post dims, each lane its own block, so E is per lane. Unit g is
// (pre index, block index). The block's rows are taken in tiles of up to kTile columns: a first
// pass streams along the rows keeping the per-column max in a small buffer, E and the factor are
// computed per column, and a second pass (rows now in L2) encodes while prefetching the next
// tile's rows. A tile's last partial vector is read from a zero-padded copy. Tiles start at
// multiples of kTile, so FP4/FP6 rows pack into whole bytes (validation makes post even for FP4
// and a multiple of 4 for FP6).
template <ElemFormat F, RoundMode kMode, bool kNormalizedFirst, typename T>
HWY_NOINLINE void QuantizeInner(const mx::QuantizePlan& p, int64_t g0, int64_t g1) {
  const ScalableTag<int32_t> di;
  const RebindToFloat<decltype(di)> df;
  const int64_t N = static_cast<int64_t>(Lanes(di));
  constexpr int64_t kTile = 4096;  // columns, a multiple of every N (32 rows: 256 KiB of 16-bit, 512 KiB of float32)
  const int64_t bs = p.blocksize, dim = p.dim, post = p.post, nb = (dim + bs - 1) / bs, nb2 = (nb + 1) / 2;
  const T* x = static_cast<const T*>(p.x);
  uint8_t* y = static_cast<uint8_t*>(p.y);
  // The second pass encodes from cache; meanwhile it asks for the same row of the tile that comes
  // next (kTile columns on, or after the last tile the next block's first, len rows on) into L2,
  // so that the next first pass finds it there instead of waiting on memory. Measured on Zen 4 at
  // 16M (docs/performance.md; AVX3 and the AVX2 code forced on that AVX-512 CPU), against no
  // prefetch: float32 1.35-1.39x, 16-bit 1.0-1.27x (the L1 hint gained less); then against the
  // next block's same tile (4 to 8 tiles later there, 1-2 MiB ahead: out of Zen 4's 1 MiB L2),
  // with AVX3_DL: 1.05-1.17x; tiles of 4096 columns for float32 too (were 2048): float32 -> e4m3
  // 1.05x more.
  int64_t ahead = 0;  // x's flat offset from a tile's element to the next tile's
  const int64_t end = p.pre * dim * post;
  // FP8 codes of 16-bit inputs are stored past the caches (streaming stores, no read of the lines
  // they fill) when the tensor's codes take 4 MiB or more: with a tile's 32 rows read and written
  // at once, those reads competed with the next tile's prefetch. Zen 4, bench_mx [1024, 16384],
  // AVX3_DL: bfloat16 / float16 -> e4m3 1.34x / 1.14x; bfloat16 as fast as plain stores at 512K
  // and 2M (docs/performance.md). On an AVX-512 Intel Xeon whose 480 MiB L3 holds that case,
  // streaming was 1.04-1.14x slower than plain stores there and the same at 1 GiB (AVX3_DL and
  // the forced AVX2 code); kept for tensors that are not in the cache. Unmeasured on a CPU whose
  // best target is AVX2. Where a row is not aligned to 2L bytes, the pairs at 0 and s32 - 2L are
  // encoded twice (2 of a 4096-column tile's 64 pairs with AVX3, of 128 with the AVX2 code).
  const bool stream = F.bits == 8 && sizeof(T) == 2 && end >= (int64_t{4} << 20);
  auto prefetch_next = [&](int64_t at, int64_t bytes) __attribute__((always_inline)) {  // at: a flat index of x; inlined, or GCC drops it (src/backend/prefetch.h)
    if (at + ahead + bytes / int64_t{sizeof(T)} <= end) backend::PrefetchIntoL2(x + at + ahead, bytes);
  };
  HWY_ALIGN int32_t amax[kTile], e_buf[kTile], keep_buf[kTile];
  HWY_ALIGN float factor_buf[kTile];
  HWY_ALIGN int32_t staged[kMaxBlock * kMaxLanes];  // with the tile buffers: at most 180 KiB of stack (16-bit inputs to FP8)
  HWY_ALIGN uint8_t codes[kTile];
  const auto abs = Set(di, 0x7FFFFFFF);
  for (int64_t g = g0; g < g1; ++g) {
    const int64_t pi = g / nb, b = g % nb;
    const int64_t t0 = b * bs, len = std::min(bs, dim - t0);
    const int64_t base = (pi * dim + t0) * post;  // flat index of (pi, t0, 0)
    for (int64_t q0 = 0; q0 < post; q0 += kTile) {
      const int64_t lanes = std::min(kTile, post - q0);
      ahead = q0 + kTile < post ? kTile : len * post - q0;
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
      // The first pass over columns [s0, s1) of the tile: m[s] = max over the rows of |row(t, s)|
      // (And with mag), m zeroed first; four rows per sweep of m (a quarter of its loads and
      // stores: 1.02-1.09x on Zen 4, docs/performance.md).
      auto column_max = [&](auto d, auto mag, auto row, auto* m, int64_t s0, int64_t s1) {
        const int64_t step = static_cast<int64_t>(Lanes(d));
        for (int64_t s = s0; s < s1; s += step) Store(Zero(d), d, m + s);
        int64_t t = 0;
        for (; t + 4 <= len; t += 4) {
          for (int64_t s = s0; s < s1; s += step) {
            const auto m01 = Max(And(row(t, s), mag), And(row(t + 1, s), mag));
            const auto m23 = Max(And(row(t + 2, s), mag), And(row(t + 3, s), mag));
            Store(Max(Load(d, m + s), Max(m01, m23)), d, m + s);
          }
        }
        for (; t < len; ++t) {
          for (int64_t s = s0; s < s1; s += step) Store(Max(Load(d, m + s), And(row(t, s), mag)), d, m + s);
        }
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
        column_max(d16, Set(d16, 0x7FFF), [&](int64_t t, int64_t s) { return LoadU(d16, x16 + t * post + s); }, amax16, 0, s16);
        for (int64_t s = 0; s < s16; s += N) Store(LoadBits(di, reinterpret_cast<const T*>(amax16 + s)), di, amax + s);
      }
#endif
      const int64_t direct = std::max(s16, full);  // columns [s16, direct) read in place, the rest staged
      column_max(di, abs, [&](int64_t t, int64_t s) { return LoadBits(di, x + base + t * post + q0 + s); }, amax, s16, direct);
      column_max(di, abs, [&](int64_t t, int64_t) { return LoadU(di, staged + t * N); }, amax, direct, lanes);
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
      // in 16-bit lanes, packed 2 * L at a time. When every column's E is at least kCountedFrom:
      // FP6 and FP4 on AVX3_DL and AVX3, EncodeTablePair, its base per column (float16: for any E, with
      // kNormalized where some column's is lower); FP4 and E3M2 on the other
      // targets, EncodeCounted, its two constants per column. FP8 (bfloat16: when every
      // column has kd >= 1): EncodeFp8, its three constants per column, a pair with a flagged lane
      // through EncodeFp8Normalized (float16) or Encode16 (against Encode16 for every pair, on Zen 4 at 16M, 7 interleaved runs:
      // bfloat16 / float16 -> e4m3 1.13x / 1.20x with AVX3, 1.25x / 1.25x with the AVX2 code forced
      // on that CPU). Otherwise Encode16, kd per column (a subnormal input where kd <= -mbits: that
      // pair of vectors the float32 way).
      int64_t s32 = 0;
#if HWY_TARGET != HWY_SCALAR
      const Repartition<uint8_t, decltype(d16)> d8;
      constexpr int64_t k16 = sizeof(T) == 2 ? kTile : 1;
      HWY_ALIGN int16_t kd16[k16], base16[k16];  // kd16: kd (Encode16) or the offset (EncodeCounted)
      constexpr int64_t k8 = sizeof(T) == 2 && F.bits == 8 ? kTile : 1;
      HWY_ALIGN int16_t kdk16[k8], lo16[k8], width16[k8];  // EncodeFp8's constants per column
      bool risky = false;    // some column has kd <= -mbits
      bool counted = false;  // EncodeCounted for every column
      bool fp8 = false;      // EncodeFp8 for every column (bfloat16: every kd >= 1)
      bool table = false;    // AVX3_DL and AVX3, FP6 and FP4: EncodeTablePair for every column, its base in base16
      bool normalized = false;  // with table: float16 columns below kCountedFrom, EncodeTablePair's kNormalized
      if constexpr (sizeof(T) == 2 && kMode != RoundMode::kFloor) {
        if (AllTrue(di, finite)) {
          s32 = lanes / (2 * L) * (2 * L);
          const Rebind<int16_t, decltype(di)> dh;
#ifdef ACCELMATH_MX_TABLE
          if constexpr (F.bits != 8) {
            auto low = Lt(Zero(di), Zero(di));
            for (int64_t s = 0; s < s32; s += N) {
              const auto e = Load(di, e_buf + s);
              Store(DemoteTo(dh, Add(ShiftLeft<In16<T>::K>(e), Set(di, kTableBase0<F, kMode, T>))), dh, base16 + s);
              low = Or(low, Lt(e, Set(di, kCountedFrom<F, T>)));
            }
            table = AllFalse(di, low);
            if (In16<T>::K == 10 && !table) table = normalized = true;
          }
#endif
          if constexpr (F.bits != 8 && F.mbits <= 2) {
            if (!table) {
              auto low = Lt(Zero(di), Zero(di));
              for (int64_t s = 0; s < s32; s += N) {
                const auto e = Load(di, e_buf + s), ek = ShiftLeft<In16<T>::K>(e);
                // CountedOffset and CountedBase, a vector at a time (their scalar forms in a plain
                // loop measured 0.83-1.0x on axis 0 with the AVX2 code forced on Zen 4)
                Store(DemoteTo(dh, Add(ek, Set(di, kCountedOffset0<T>))), dh, kd16 + s);
                Store(DemoteTo(dh, Add(ek, Set(di, kCountedBase0<F, kMode, T>))), dh, base16 + s);
                low = Or(low, Lt(e, Set(di, kCountedFrom<F, T>)));
              }
              counted = AllFalse(di, low);
            }
          }
          if (!counted && !table) {
            const auto c = Set(di, In16<T>::bias - 127 + F.emin - F.mbits - 1);
            auto low = Lt(Zero(di), Zero(di));
            for (int64_t s = 0; s < s32; s += N) {
              const auto kd = Add(Load(di, e_buf + s), c);
              Store(DemoteTo(dh, kd), dh, kd16 + s);
              low = Or(low, Lt(kd, Set(di, 1 - F.mbits)));
            }
            risky = !AllFalse(di, low);
          }
          if constexpr (F.bits == 8) {
            auto low = Lt(Zero(di), Zero(di));  // bfloat16: a column with kd < 1
            for (int64_t s = 0; s < s32; s += N) {
              const auto ek = ShiftLeft<In16<T>::K>(Load(di, e_buf + s));
              const auto l = Max(Add(ek, Set(di, kFp8Lo0<F, T>)), Set(di, 1));
              // kdk modulo 2^16 (EncodeFp8Normalized's wrapping arithmetic), not saturated
              Store(DemoteTo(dh, ShiftRight<16>(ShiftLeft<16>(Add(ek, Set(di, kFp8Kdk0<F, T>))))), dh, kdk16 + s);
              Store(DemoteTo(dh, l), dh, lo16 + s);
              Store(DemoteTo(dh, Sub(Max(Add(ek, Set(di, kFp8Hi0<F, T>)), Set(di, 1 << In16<T>::K)), l)), dh, width16 + s);
              if (In16<T>::K == 7) low = Or(low, Lt(l, Set(di, 1 << In16<T>::K)));
            }
            fp8 = AllFalse(di, low);
          }
        }
      }
#endif
      for (int64_t t = 0; t < len; ++t) {
        const int64_t flat = base + t * post + q0;
        uint8_t* out = F.bits == 8 ? y + flat : codes;
        int64_t s = 0;
#if HWY_TARGET != HWY_SCALAR
        if constexpr (sizeof(T) == 2 && kMode != RoundMode::kFloor) {
          const int16_t* x16 = reinterpret_cast<const int16_t*>(x) + flat;
          const auto thr = CountedThresholds<F, kMode, T>(d16);
          auto encode = [&](int64_t c) {  // the L columns from c
            const auto v = LoadU(d16, x16 + c);
            if constexpr (F.bits != 8 && F.mbits <= 2) {
              if (counted) return EncodeCounted<F, kMode, T>(d16, v, Load(d16, kd16 + c), Load(d16, base16 + c), thr);
            }
            const auto kd = LoadU(d16, kd16 + c);  // c: a multiple of L, or any column (the FP8 streamed pairs)
            if (risky && HWY_UNLIKELY(!AllFalse(d16, And(Subnormal16<T>(d16, v), Lt(kd, Set(d16, static_cast<int16_t>(1 - F.mbits))))))) {
              return EncodeWide<F, kMode>(d16, x + flat + c, LoadU(df, factor_buf + c), LoadU(df, factor_buf + c + N));
            }
            return Encode16<F, kMode, T>(d16, v, kd);
          };
          if constexpr (F.bits == 8) {
            auto fp8_pair = [&](int64_t c) __attribute__((always_inline)) {  // the codes of the 2L columns from c
              prefetch_next(flat + c, 2 * L * int64_t{sizeof(T)});
              if constexpr (kNormalizedFirst) {
                return EncodeFp8PairNormalized<F>(d16, LoadU(d16, x16 + c), LoadU(d16, kdk16 + c), LoadU(d16, x16 + c + L), LoadU(d16, kdk16 + c + L),
                                                  [&]() { return Bytes2(d16, encode(c), encode(c + L)); });
              }
              return EncodeFp8Pair<F, T>(d16, LoadU(d16, x16 + c), LoadU(d16, kdk16 + c), LoadU(d16, lo16 + c), LoadU(d16, width16 + c),
                                         LoadU(d16, x16 + c + L), LoadU(d16, kdk16 + c + L), LoadU(d16, lo16 + c + L),
                                         LoadU(d16, width16 + c + L), [&]() { return Bytes2(d16, encode(c), encode(c + L)); });
            };
            if (fp8 && stream && s32 > 0) {
              // Whole cache lines streamed: the columns [h, e) whose codes fill the lines of the
              // row's range (h: the first column whose code starts a line); those before h and from
              // e by plain stores of just their bytes. A line written partly by streaming stores
              // and partly by plain ones (or streamed in two halves at different times) costs a
              // partial-line write: with the streamed range aligned to 2L bytes only (half a line
              // with the AVX2 code), the AVX2 code forced on an AVX-512 Intel Xeon ran axis 0 at
              // 6.1-9.9 GB/s for outputs 48 or 16 bytes past a line and 11.4-11.7 at 0 or 32, where
              // AVX3 (whole-line pairs) ran 11.3-12.0 at every offset (docs/performance.md, MX,
              // 2026-12-06). Unmeasured on a CPU whose best target is AVX2.
              const int64_t line = std::max<int64_t>(64, 2 * L);  // bytes, a multiple of 2L
              auto part = [&](int64_t c, int64_t from, int64_t to) {  // columns [from, to) of the pair at c
                HWY_ALIGN uint8_t buf[MaxLanes(d8)];
                Store(fp8_pair(c), d8, buf);
                std::memcpy(y + flat + from, buf + (from - c), static_cast<size_t>(to - from));
              };
              // The pairs start at h mod 2L, each streamed or stored by where it lies: as many
              // inlined copies of fp8_pair as before (with separate loops for the bytes before h
              // and from e, float16 ran 13% slower with the AVX2 code).
              const int64_t h = std::min(s32, static_cast<int64_t>((0 - reinterpret_cast<uintptr_t>(y + flat)) % static_cast<uintptr_t>(line)));
              const int64_t e = h + (s32 - h) / line * line;
              const int64_t c0 = h % (2 * L);
              if (c0 != 0) part(0, 0, c0);
              for (s = c0; s + 2 * L <= s32; s += 2 * L) {
                const auto codes8 = fp8_pair(s);
                if (s >= h && s < e) {
                  Stream(codes8, d8, y + flat + s);
                } else {
                  StoreU(codes8, d8, y + flat + s);
                }
              }
              if (s < s32) part(s32 - 2 * L, s, s32);
              s = s32;
            }
            for (; fp8 && s < s32; s += 2 * L) StoreU(fp8_pair(s), d8, y + flat + s);
          }
          auto put = [&](int64_t c, Vec<decltype(d8)> bytes) {  // the codes of the 2L columns from c
            uint8_t* dst = y + (flat + c) * F.bits / 8;
            // FP6 writes junk into the 2L / 4 bytes after the codes: straight only where the next pair rewrites them
            if (F.bits != 6 || c + 2 * L < s32) {
              StoreCodeBytes<F>(d8, bytes, dst);
            } else {
              HWY_ALIGN uint8_t buf[MaxLanes(d8)];
              StoreCodeBytes<F>(d8, bytes, buf);
              std::memcpy(dst, buf, static_cast<size_t>(2 * L * F.bits / 8));
            }
          };
#ifdef ACCELMATH_MX_TABLE
          if constexpr (F.bits != 8) {
            const auto tables = LoadTable<F, kMode, T>(Repartition<int8_t, decltype(d16)>());
            for (; table && !normalized && s < s32; s += 2 * L) {
              prefetch_next(flat + s, 2 * L * int64_t{sizeof(T)});
              put(s, EncodeTablePair<F, kMode, T>(d16, LoadU(d16, x16 + s), Load(d16, base16 + s), LoadU(d16, x16 + s + L),
                                                   Load(d16, base16 + s + L), tables));
            }
            if constexpr (In16<T>::K == 10) {
              for (; normalized && s < s32; s += 2 * L) {
                prefetch_next(flat + s, 2 * L * int64_t{sizeof(T)});
                put(s, EncodeTablePair<F, kMode, T, true>(d16, LoadU(d16, x16 + s), Load(d16, base16 + s), LoadU(d16, x16 + s + L),
                                                          Load(d16, base16 + s + L), tables));
              }
            }
          }
#endif
          for (; s < s32; s += 2 * L) {
            prefetch_next(flat + s, 2 * L * int64_t{sizeof(T)});
            put(s, Bytes2(d16, encode(s), encode(s + L)));
          }
        }
#endif
        for (; s < full; s += N) {
          prefetch_next(flat + s, N * int64_t{sizeof(T)});
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
  if (stream) hwy::FlushStream();  // the streamed codes visible before the caller reports done
}

}  // namespace

void MxQuantizeInner(const mx::QuantizePlan& p, int64_t g0, int64_t g1) {
  QuantizeAs(p, [&]<ElemFormat F, RoundMode kMode, typename T>() {
    if constexpr (kChooseNormalized<F, T>) {
      const int64_t nb = (p.dim + p.blocksize - 1) / p.blocksize, begin = (g0 / nb * p.dim + g0 % nb * p.blocksize) * p.post;
      if (ManySubnormal16<F>(static_cast<const T*>(p.x) + begin, p.pre * p.dim * p.post - begin)) return QuantizeInner<F, kMode, true, T>(p, g0, g1);
    }
    QuantizeInner<F, kMode, false, T>(p, g0, g1);
  });
}

}  // namespace accelmath::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace accelmath::mx::detail {

HWY_EXPORT(MxQuantizeInner);

void QuantizeInnerBlocks(const QuantizePlan& p, int64_t g0, int64_t g1) { HWY_DYNAMIC_DISPATCH(MxQuantizeInner)(p, g0, g1); }

}  // namespace accelmath::mx::detail
#endif  // HWY_ONCE
