// ndtri: the inverse of the standard normal CDF. The only place its algorithms live.
//
// ndtri(p) = x with P(Z <= x) = p, Z ~ N(0, 1); ndtri(p) = sqrt(2) erfinv(2p - 1).
// Special values (both variants): p = +-0 -> -inf; p = 1 -> +inf; p < 0, p > 1, NaN, +-inf -> NaN;
// p = 0.5 -> +0. Symmetry ndtri(1 - p) = -ndtri(p) is exact wherever 1 - p is exact in float32.
// No per-lane branches: masks pick the region and special values are written last. The default
// kernel is a Split row (accelmath/ops/erf_normal.def): NdtriIsCommon picks the centre lanes,
// NdtriCommon / NdtriRare compute the centre / tails; a region no lane of a vector needs is skipped
// as a whole (drivers/eval-inl.h), and the array driver evaluates the tails on compacted lanes
// (drivers/split-inl.h); each lane's value is the same pure function on every path.
#if defined(ACCELMATH_KERNELS_NDTRI_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef ACCELMATH_KERNELS_NDTRI_INL_H_
#undef ACCELMATH_KERNELS_NDTRI_INL_H_
#else
#define ACCELMATH_KERNELS_NDTRI_INL_H_
#endif

#include <array>
#include <cstddef>
#include <cstdint>
#include <limits>

#include "kernels/common-inl.h"
#include "kernels/float_bits.h"
#include "kernels/log-inl.h"
#include "kernels/ndtri_coeffs.h"

namespace accelmath::ACCELMATH_KNS {

// Overwrites the lanes whose p is not in (0, 1): 0 -> -inf, 1 -> +inf, the rest (also NaN) -> NaN.
template <class D, class V>
ACCELMATH_KERNEL V NdtriSpecials(D d, V p, V x) {
  using T = TFromD<D>;
  const V zero = Zero(d);
  const V one = Set(d, T(1));
  x = IfThenElse(Eq(p, zero), Set(d, -std::numeric_limits<T>::infinity()), x);
  x = IfThenElse(Eq(p, one), Set(d, std::numeric_limits<T>::infinity()), x);
  return IfThenElse(And(Ge(p, zero), Le(p, one)), x, Set(d, std::numeric_limits<T>::quiet_NaN()));
}

// Row q (int64 lanes, 0..3) of tables of 8 entries (4..7 repeat 0..3), per lane: one register
// permute per table where a vector holds 4 or 8 doubles, a gather otherwise (the scalar lane).
// NdtriRows(d, q) prepares q once (the permute's indices); NdtriRow(d, rows, t) reads table t. Two
// functions, not a lambda holding the indices: SVE's vectors cannot be members of a closure.
template <class D>
inline constexpr bool kNdtriPermute = MaxLanes(D()) == 4 || MaxLanes(D()) == 8;
template <class D, class VI>
ACCELMATH_KERNEL auto NdtriRows(D d, VI q) {
  if constexpr (kNdtriPermute<D>) {
    return IndicesFromVec(d, q);
  } else {
    (void)d;
    return q;
  }
}
template <class D, class R>
ACCELMATH_KERNEL auto NdtriRow(D d, R rows, const std::array<double, 8>& t) {
  if constexpr (kNdtriPermute<D>) {
    return TableLookupLanes(LoadU(d, t.data()), rows);
  } else {
    return GatherIndex(d, t.data(), rows);
  }
}

// -ndtri(t) for t in [2^-150, 0.075] (binary64 lanes holding t exactly, 24 significant bits at
// most), without a division (tools/coeffs/ndtri.py has the tables):
//   w = -ln t: t = 2^k m, m in [1, 2); j = the top 2 bits of m's fraction, z = m c_j - 1 (one fma,
//     exact: c_j has 20 significant bits), |z| <= 0.112; w = -k ln2 + ln c_j - log1p(z),
//     log1p(z) = z + z^2 L(z) (degree 9, absolute error 2.6e-13, against w >= 2.59);
//   r = sqrt(w); piece q from k alone, 2^(q+3) <= min(6 - k, 64) < 2^(q+4) (q = 0..3: -k in [4, 9],
//     [10, 25], [26, 57], [58, 150]), so its coefficients are read while the logarithm is computed;
//     -ndtri(t) = T_q(r - mid_q), T_q of degree 9 (relative error <= 6.7e-11).
// Lanes with other t (0, negative, NaN, ...) give garbage: callers overwrite them.
// NdtriTailPair: the same at t0 and at t1 (returned, and y1), the two chains' steps alternating, so
// that their code interleaves (TanF32Pair, trig-inl.h, says why the source order matters): one
// vector's chain is 72-79 cycles long. Measured with AVX3 on an AVX-512 Zen 5, 8K values of t in
// (0, 0.075) in cache, the library's flags: 24 cycles per vector one at a time, 20 in pairs (ns
// counted as cycles at 3.7 GHz, the rate of a chain of dependent multiply-adds there). The
// split driver's rare pass and its all-rare pairs call it (NdtriRarePair); NdtriTail: one vector,
// the same code given it twice (at -O3 a compiler computes each step once: erfinv's and erfcinv's
// array loops, which call it, compiled to the same size).
namespace ndtri_impl {
using FB = kernels::FloatBits<double>;
// k = the unbiased exponent of t (a normal binary64), as a double.
template <class D, class VU>
ACCELMATH_KERNEL auto TailExponent(D d, VU bits) {
  const RebindToUnsigned<D> du;
  return Sub(BitCast(d, Or(ShiftRight<FB::kMantissaBits>(bits), Set(du, FB::kMagicBits))),
             Set(d, FB::kMagic + double(FB::kExponentBias)));
}
// The rows of piece q (from k). The And keeps q in 0..3 for the garbage lanes too (t <= 0, inf,
// NaN: e is then negative or NaN), whose lookups must stay inside the tables (the scalar lane reads
// base[q]).
template <class D, class V>
ACCELMATH_KERNEL auto TailPieceRows(D d, V k) {
  const RebindToUnsigned<D> du;
  const RebindToSigned<D> di;
  const V e = Min(Sub(Set(d, coeffs::kTailOffset), k), Set(d, 64.0));
  return NdtriRows(d, BitCast(di, And(Sub(ShiftRight<FB::kMantissaBits>(BitCast(du, e)),
                                          Set(du, uint64_t{FB::kExponentBias + 3})),
                                      Set(du, uint64_t{3}))));
}
// m (t's significand, in [1, 2)) and the rows of j (its top 2 fraction bits).
template <class D, class VU>
ACCELMATH_KERNEL auto TailMantissa(D d, VU bits) {
  const RebindToUnsigned<D> du;
  return BitCast(d, Or(And(bits, Set(du, (uint64_t{1} << FB::kMantissaBits) - 1)), Set(du, FB::kOneBits)));
}
template <class D, class VU>
ACCELMATH_KERNEL auto TailLogRows(D d, VU bits) {
  const RebindToUnsigned<D> du;
  const RebindToSigned<D> di;
  return NdtriRows(d, BitCast(di, And(ShiftRight<FB::kMantissaBits - 2>(bits), Set(du, uint64_t{3}))));
}
}  // namespace ndtri_impl

template <class D, class V>
ACCELMATH_KERNEL V NdtriTailPair(D d, V t0, V t1, V& y1) {
  using namespace ndtri_impl;
  static constexpr auto kLogC = coeffs::kTailLogC();
  static constexpr auto kLogLnC = coeffs::kTailLogLnC();
  static constexpr auto kMid = coeffs::kTailMid();
  static constexpr auto kPoly = coeffs::kTailPoly();
  const RebindToUnsigned<D> du;
  const auto bits0 = BitCast(du, t0);
  const auto bits1 = BitCast(du, t1);
  const V k0 = TailExponent(d, bits0);
  const V k1 = TailExponent(d, bits1);
  const auto piece_rows0 = TailPieceRows(d, k0);
  const auto piece_rows1 = TailPieceRows(d, k1);
  const auto log_rows0 = TailLogRows(d, bits0);
  const auto log_rows1 = TailLogRows(d, bits1);
  const V z0 = MulSub(TailMantissa(d, bits0), NdtriRow(d, log_rows0, kLogC), Set(d, 1.0));
  const V z1 = MulSub(TailMantissa(d, bits1), NdtriRow(d, log_rows1, kLogC), Set(d, 1.0));
  V l0, l1;
  Estrin2(d, z0, z1, coeffs::kTailLog1p(), l0, l1);
  const V log1p0 = MulAdd(Mul(z0, z0), l0, z0);
  const V log1p1 = MulAdd(Mul(z1, z1), l1, z1);
  const V w0 = Sub(NegMulAdd(k0, Set(d, coeffs::kLn2), NdtriRow(d, log_rows0, kLogLnC)), log1p0);
  const V w1 = Sub(NegMulAdd(k1, Set(d, coeffs::kLn2), NdtriRow(d, log_rows1, kLogLnC)), log1p1);
  const V s0 = Sub(Sqrt(w0), NdtriRow(d, piece_rows0, kMid));
  const V s1 = Sub(Sqrt(w1), NdtriRow(d, piece_rows1, kMid));
  V y0;
  detail::Estrin2<kPoly.size()>([&](size_t i) { return NdtriRow(d, piece_rows0, kPoly[i]); },
                                [&](size_t i) { return NdtriRow(d, piece_rows1, kPoly[i]); }, s0, s1, y0, y1);
  return y0;
}
template <class D, class V>
ACCELMATH_KERNEL V NdtriTail(D d, V t) {
  V y1;
  return NdtriTailPair(d, t, t, y1);
}

// Default ndtri, evaluated in binary64 lanes: `p` holds float32 values (exactly), the result is
// rounded to float32 by the caller, once. The centre is accurate to 1.5e-10 relative and the
// tails to 6.7e-11, so the float32 result is within 0.5 + 0.003 ulp of the exact value.
// Measured over every float32 input (`accelmath sweep ndtri --threads 2`, docs/accuracy.md):
// max 0.502245 ulp at p = 0.0351590514 (the centre, by its edge); 99.997985% correctly rounded.
//   Centre, 9/256 <= p <= 247/256 (kNdtriCentreLo; |q| <= 0.46484375, q = p - 1/2 exact): x = q
//     N(y)/D(y), y = q^2 - shift (one fma), N and D of degree 6 and 7, a rational interpolant of
//     ndtri(1/2 + q)/q in q^2 (relative error 1.5e-10, tools/coeffs/ndtri.py). Its reach towards
//     the singularity at p = 0 and 1 is what it is for: the degree-15 polynomial it replaced
//     stopped at |q| <= 0.425, leaving 15% of uniform p to the tails, where this leaves 7%, for
//     two Horner chains (13 multiply-adds) and a division where that took 16 multiply-adds and
//     multiplies (docs/erf_gamma_bessel.md, "A rational centre").
//     The bounds are exact in float32, so the split driver tests the float32 inputs (16 lanes at
//     once with AVX-512) and every path agrees. Odd in q, so the symmetry is exact; p = 1/2 gives +0.
//   Tails: t = min(p, 1 - p) (exact); x = -NdtriTail(t) for p < 1/2, +NdtriTail(t) otherwise.
template <class D, class V>
ACCELMATH_KERNEL auto NdtriIsCommon(D d, V p) {
  using T = TFromD<D>;
  return And(Ge(p, Set(d, T(coeffs::kNdtriCentreLo))), Le(p, Set(d, T(1.0 - coeffs::kNdtriCentreLo))));
}

// The centre, valid where NdtriIsCommon (no special values there). N and D by Horner's scheme,
// written out here: through `Horner` GCC kept the per-element path's (the scalar lane's) two
// chains out of line, compiled without FMA, so each step called libm's fma: scalar::ndtri ran at
// half the speed (27 against 51 Melem/s, bench_ndtri on an AVX-512 Zen 5, the per-element code's
// FMA clone; unmeasured elsewhere).
template <class D, class V>
ACCELMATH_KERNEL V NdtriCommon(D d, V p) {
  static constexpr auto kNum = coeffs::kNdtriCentreNum();
  static constexpr auto kDen = coeffs::kNdtriCentreDen();
  const V q = Sub(p, Set(d, 0.5));
  const V y = MulSub(q, q, Set(d, coeffs::kNdtriCentreShift));
  V num = Set(d, kNum[kNum.size() - 1]);
  for (size_t k = kNum.size() - 1; k-- > 0;) num = MulAdd(num, y, Set(d, kNum[k]));
  V den = Set(d, kDen[kDen.size() - 1]);
  for (size_t k = kDen.size() - 1; k-- > 0;) den = MulAdd(den, y, Set(d, kDen[k]));
  return Mul(q, Div(num, den));
}

// The tails, valid where !NdtriIsCommon; includes every special value (looked at only when a lane
// of the vector is outside (0, 1)). NdtriRarePair: at p0 (returned) and p1 (y1) at once, for the
// split driver's compacted tails (NdtriTailPair); NdtriRare: one vector, through the pair.
template <class D, class V>
ACCELMATH_KERNEL V NdtriRarePair(D d, V p0, V p1, V& y1) {
  const V one = Set(d, 1.0);
  const V half = Set(d, 0.5);
  V tail1;
  const V tail0 = NdtriTailPair(d, Min(p0, Sub(one, p0)), Min(p1, Sub(one, p1)), tail1);
  const V x0 = IfThenElse(Lt(p0, half), Neg(tail0), tail0);
  y1 = IfThenElse(Lt(p1, half), Neg(tail1), tail1);
  if (AllTrue(d, And(And(Gt(p0, Zero(d)), Lt(p0, one)), And(Gt(p1, Zero(d)), Lt(p1, one))))) return x0;
  y1 = NdtriSpecials(d, p1, y1);
  return NdtriSpecials(d, p0, x0);
}
template <class D, class V>
ACCELMATH_KERNEL V NdtriRare(D d, V p) {
  V y1;
  return NdtriRarePair(d, p, p, y1);
}

// The proposal's configuration ("taskbook"), all in float32 lanes, reproduced as written:
//   Centre |u| <= 0.85, u = 2p - 1 (one fma): x = sqrt(2) u (c0 + u^2 (c1 + ... + u^2 c23)), the
//     24-term Maclaurin series of erfinv (truncation error 1.1e-5 relative at |u| = 0.85).
//   Tails: t = min(p, 1 - p), r = sqrt(-ln t) with ln in float32; for t < 2^-126,
//     ln t = ln(t 2^64) - 64 ln 2 keeps the log in its normal range; AS241 rationals with
//     float32 coefficients in r - 1.6 (r <= 5) and r - 5 (r > 5); sign from p < 1/2.
// It passes the dual-threshold 1e-4 standard but is far from float32 accuracy near |u| = 0.85;
// measured errors are in docs/accuracy.md (`accelmath sweep ndtri_taskbook`).
template <class D, class V>
ACCELMATH_KERNEL V NdtriTaskbook(D d, V p) {
  static_assert(sizeof(TFromD<D>) == 4, "the taskbook variant runs in float32 lanes");
  const V one = Set(d, 1.0f);
  const V half = Set(d, 0.5f);
  const V u = MulSub(p, Set(d, 2.0f), one);
  const V centre = Mul(Mul(Set(d, coeffs::kSqrt2F), u), Horner(d, Mul(u, u), coeffs::kTaskbookSeries()));

  const V t = Min(p, Sub(one, p));
  const auto tiny = Lt(t, Set(d, 0x1p-126f));
  const V t_scaled = IfThenElse(tiny, Mul(t, Set(d, 0x1p64f)), t);
  const V ln_t = Sub(LogOfNormal(d, t_scaled, coeffs::kLogAtanhF(), coeffs::kLn2F),
                     IfThenElseZero(tiny, Set(d, coeffs::k64Ln2F)));
  const V r = Sqrt(Neg(ln_t));
  const auto near = Le(r, Set(d, 5.0f));
  const V s = Sub(r, IfThenElse(near, Set(d, 1.6f), Set(d, 5.0f)));
  const V num = EstrinSelect(d, near, s, coeffs::kAs241NumAF(), coeffs::kAs241NumBF());
  const V den = EstrinSelect(d, near, s, coeffs::kAs241DenAF(), coeffs::kAs241DenBF());
  const V tail = Div(num, den);

  const V x = IfThenElse(Le(Abs(u), Set(d, 0.85f)), centre, IfThenElse(Lt(p, half), Neg(tail), tail));
  return NdtriSpecials(d, p, x);
}

// erfinv and erfcinv (Split rows, eval F32): the centre, |u| < 15/16 (erfinv: u = x; erfcinv:
// u = 1 - y), in float32 lanes (ErfinvCentreF); the tails and every special value in binary64
// lanes (ErfinvRare, ErfcinvRare: the driver widens those lanes, and rounds their results once).
//   Tails: t = (1 - |x|)/2 (erfinv) or min(y, 2 - y)/2 (erfcinv), both exact in binary64 (t is
//     2^-25 at least for erfinv, 2^-150 for erfcinv at y = 2^-149: normal in binary64); the value
//     is NdtriTail(t)/sqrt 2 (t < 1/32 <= 0.075: its domain), with the sign of x (erfinv), negative
//     for y > 1 (erfcinv).
//   Special values: erfinv(+-1) = +-inf, erfcinv(+-0) = +inf, erfcinv(2) = -inf; NaN outside the
//     domain (canonical NaN) and for a NaN input (that NaN, quieted).
// Measured over every float32 input: docs/accuracy.md (`accelmath sweep erfinv`, `... erfcinv`).
//
// ErfinvCentreF<kDelta>(a, delta) = erfinv(a + delta) for a in [0, 15/16) (float32 lanes); delta is
// erfcinv's low part (|delta| <= 2^-25; kDelta = false: erfinv, delta unused). Row k of the tables
// (kErfinvPiece*, tools/coeffs/ndtri.py) is (bits(v) >> 22) mod 8, v = (1 - 2^-24) - a: v's exponent
// and top fraction bit. v is exact for a > 1/2 (Sterbenz); a <= 1/2 - 2^-24 gives v in [1/2, 1)
// however rounded, rows 4 and 5: one piece ("low"; a <= 1/2 - 2^-24 exactly when v >= 1/2, so the
// formula and the row always agree); a = 1/2 and 1/2 - 2^-25 go to the next piece, and every a < 15/16 has a row
// of its own piece or of the next (each fit covers its piece widened by 2^-20). LookupF reads only the
// low bits of the key, so no mask is needed.
//   low rows: erfinv = a + a P(a^2) (t = a, z = a^2, hi = a; delta is 0 there);
//   otherwise: erfinv = hi + lo + t P(t), t = (a - x_k) + delta (a - x_k exact: Sterbenz; the sum
//     rounds by at most 2^-30, 0.04 ulp of the result through the slope), z = t;
//   then PieceValue (common-inl.h): s = t c0 + z (t q + c0lo) + lo, the slope c0 + c0lo as two floats,
//   and erfinv = s + hi: |s| < |erfinv|/6, so s's rounding is at most 1/8 ulp of the result, the
//   tables' error at most 0.06 ulp (printed in ndtri_coeffs.h), then one final rounding.
template <bool kDelta, class D, class V>
ACCELMATH_KERNEL V ErfinvCentreF(D d, V a, V delta) {
  static constexpr auto kTab = MakePieceTables(coeffs::kErfinvPieceX(), coeffs::kErfinvPieceHi(),
                                                coeffs::kErfinvPieceLo(), coeffs::kErfinvPieceC0Lo(),
                                                coeffs::kErfinvPiecePoly());
  const RebindToUnsigned<D> du;
  const auto k = ShiftRight<22>(BitCast(du, Sub(Set(d, 0x1.fffffep-1f), a)));
  const auto low = Le(a, Set(d, 0x1.fffffcp-2f));  // rows 4 and 5: v >= 1/2, that is a <= 1/2 - 2^-24
  V t = Sub(a, LookupF<3>(d, kTab.x, k));
  if constexpr (kDelta) t = Add(t, delta);
  return PieceValue(d, kTab, k, low, a, t);
}

// erfinv: odd, the centre for |x| < 15/16 (NaN fails the test and goes to the rare lanes).
template <class D, class V>
ACCELMATH_KERNEL auto ErfinvIsCommon(D d, V x) {
  return Lt(Abs(x), Set(d, coeffs::kErfinvCentreLimit));
}
template <class D, class V>
ACCELMATH_KERNEL V ErfinvCommon(D d, V x) {
  return WithSign(d, ErfinvCentreF<false>(d, Abs(x), x), SignOf(d, x));
}
template <class D, class V>
ACCELMATH_KERNEL V ErfinvRare(D d, V x) {
  const V one = Set(d, 1.0);
  const V ax = Abs(x);
  const V sign = SignOf(d, x);
  const V tail = Mul(NdtriTail(d, Mul(Sub(one, ax), Set(d, 0.5))), Set(d, coeffs::kInvSqrt2));
  const RebindToUnsigned<D> du;
  const V r = BitCast(d, Or(BitCast(du, tail), BitCast(du, sign)));
  if (AllTrue(d, Lt(ax, one))) return r;
  const V inf = BitCast(d, Or(BitCast(du, Set(d, std::numeric_limits<double>::infinity())), BitCast(du, sign)));
  const V special = IfThenElse(Eq(ax, one), inf, Set(d, kCanonicalNaN<double>));
  return KeepNaN(x, IfThenElse(Lt(ax, one), r, special));
}

// erfcinv(y) = erfinv(u), u = 1 - y = uh + ul exactly (Fast2Sum: uh = 1 - y rounded, ul = (1 - uh) -
// y, both steps exact; ul = 0 for y >= 1/2, and for every y whose |uh| takes a low row: y = 1/2 -
// 2^-25 gives uh = 1/2, which goes to the next piece, where t carries ul), centre for |uh| < 15/16,
// with the sign of uh (erfcinv(1) = +0).
template <class D, class V>
ACCELMATH_KERNEL auto ErfcinvIsCommon(D d, V y) {
  return Lt(Abs(Sub(Set(d, 1.0f), y)), Set(d, coeffs::kErfinvCentreLimit));
}
template <class D, class V>
ACCELMATH_KERNEL V ErfcinvCommon(D d, V y) {
  const V one = Set(d, 1.0f);
  const V uh = Sub(one, y);
  const V ul = Sub(Sub(one, uh), y);
  return WithSign(d, ErfinvCentreF<true>(d, Abs(uh), ul), SignOf(d, uh));
}
template <class D, class V>
ACCELMATH_KERNEL V ErfcinvRare(D d, V y) {
  const V one = Set(d, 1.0);
  const V two = Set(d, 2.0);
  const V tail = Mul(NdtriTail(d, Mul(Min(y, Sub(two, y)), Set(d, 0.5))), Set(d, coeffs::kInvSqrt2));
  const V r = IfThenElse(Gt(y, one), Neg(tail), tail);
  const auto inside = And(Gt(y, Zero(d)), Lt(y, two));
  if (AllTrue(d, inside)) return r;
  const V inf = Set(d, std::numeric_limits<double>::infinity());
  V special = IfThenElse(Eq(y, Zero(d)), inf, Set(d, kCanonicalNaN<double>));
  special = IfThenElse(Eq(y, two), Neg(inf), special);
  return KeepNaN(y, IfThenElse(inside, r, special));
}

}  // namespace accelmath::ACCELMATH_KNS

#endif  // ACCELMATH_KERNELS_NDTRI_INL_H_ toggle
