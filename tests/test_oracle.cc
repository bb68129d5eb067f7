// The reference oracles: each row's double tier against its exact tier, the Arb exact tier against
// MPFR, the ndtri oracle's known values, and the ulp measure.
#include <dlfcn.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cfloat>
#include <climits>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <sstream>
#include <string>
#include <vector>

#include "accelmath/registry.h"
#include "accuracy/oracle.h"
#include "accuracy/sweep.h"

namespace {

using namespace accelmath::oracle;

// The inputs of case i of a chunk, for the tiers (rows: the row, copied into `row`).
Args ArgsOf(const accelmath::FunctionInfo& f, const accelmath::sweep::Chunk& ch, std::size_t i, std::vector<float>& row) {
  Args a;
  if (f.shape == accelmath::Shape::kRows) {
    row.resize(ch.row_length);
    std::memcpy(row.data(), ch.in[0].data() + i * ch.row_length, 4 * ch.row_length);
    a.row = row.data(), a.n = ch.row_length;
    return a;
  }
  for (int k = 0; k < f.inputs(); ++k) {
    const std::uint32_t w = ch.in[k][i];
    float x;
    std::memcpy(&x, &w, 4);
    a.x[k] = f.input_type(k) == accelmath::ElementType::kF32 ? double(x) : double(static_cast<std::int32_t>(w));
  }
  return a;
}

std::string Text(const accelmath::FunctionInfo& f, const accelmath::sweep::Chunk& ch, std::size_t i) {
  accelmath::sweep::Case c;
  c.index = ch.first + i;
  if (f.shape == accelmath::Shape::kRows) {
    c.row_length = static_cast<std::uint32_t>(ch.row_length);
    for (std::size_t k = 0; k < 4 && k < ch.row_length; ++k) c.in[k] = ch.in[0][i * ch.row_length + k];
  } else {
    for (int k = 0; k < f.inputs(); ++k) c.in[k] = ch.in[k][i];
  }
  return accelmath::sweep::describe_case(f, c);
}

// Far below 0.01 ulp of float32: every double tier must be within 1e-6 float32 ulp of its exact
// tier (the sweeper's kExactMargin, 1e-5, relies on it), on each row's own case set: random inputs
// and edge cases, or its structured sample at a small size (every part: grid, diagonals, axes,
// cancellation, edge tuples; rows of every length class). ndtri's exact tier is slow: fewer inputs.
TEST(Oracle, DoubleTierAgreesWithExactTier) {
  mpfr_t r;
  mpfr_init2(r, 128);
  int checked = 0;
  for (const auto& o : oracles()) {
    const auto* f = accelmath::find_function(o.name);
    ASSERT_NE(f, nullptr);
    if (!o.has_tiers()) continue;  // a pair's row or a reference: no tiers of its own
    ++checked;
    const bool slow = std::string(o.name).rfind("ndtri", 0) == 0;
    const auto cases = accelmath::sweep::sample_for(*f, slow ? 600 : f->shape == accelmath::Shape::kRows ? 3000 : 20000, 99);
    double worst = 0;
    accelmath::sweep::Chunk ch;
    std::vector<float> row;
    for (std::uint64_t c = 0; c < cases->chunks(); ++c) {
      cases->fill(c, ch);
      for (std::size_t i = 0; i < ch.count; i += slow ? 3 : 1) {
        const Args a = ArgsOf(*f, ch, i, row);
        const double fast = o.fast_at(a);
        if (!(std::fabs(fast) < 0x1p128) || fast == 0) continue;  // beyond float32 the result is inf either way
        o.exact_at(r, a);
        const double exact = mpfr_get_d(r, MPFR_RNDN);
        const double e = std::fabs(fast - exact) / ulp_f32(exact);
        worst = std::max(worst, e);
        ASSERT_LE(e, 1e-6) << o.name << " at " << Text(*f, ch, i) << ": fast " << fast << " exact " << exact;
      }
    }
    std::printf("  %-15s max |fast - exact| = %.3e float32 ulp\n", o.name, worst);
  }
  mpfr_clear(r);
  EXPECT_GT(checked, 30);
}

// Every special value of the registry is what the oracle says: bit for bit for an exact function
// (its reference, or the correctly rounded value of its exact tier), within the row's bound of the
// exact tier otherwise (a NaN for a NaN, an infinity for the same infinity). This checks the rows'
// specials and the oracles against each other, without the kernels.
TEST(Oracle, AgreesWithEverySpecialValue) {
  const auto same = [](float a, float b) {
    return std::isnan(a) ? std::isnan(b) : std::memcmp(&a, &b, 4) == 0;
  };
  int checked = 0;
  for (const auto& f : accelmath::functions()) {
    const Oracle* o = find_oracle(f.name);
    ASSERT_NE(o, nullptr) << f.name;
    if (f.shape == accelmath::Shape::kUnaryPair) continue;  // its parts' rows hold its promise
    for (const auto& s : f.specials) {
      ++checked;
      std::ostringstream args;  // "fma(0x1p+1, 0x1.8p+1, 0x1p+2)"
      args << f.name << "(" << std::hexfloat;
      for (int k = 0; k < (f.shape == accelmath::Shape::kRows ? 4 : f.inputs()); ++k) {
        if (k) args << ", ";
        if (f.shape != accelmath::Shape::kRows && f.input_type(k) != accelmath::ElementType::kF32) {
          args << s.in[k].i;
        } else {
          args << s.in[k].f;
        }
      }
      args << ")";
      const std::string at = args.str();
      if (o->has_reference()) {
        accelmath::Value want[2];
        o->reference_at(s.in, want);
        for (int k = 0; k < f.outputs(); ++k) {
          if (f.output_type(k) == accelmath::ElementType::kF32) {
            EXPECT_TRUE(same(want[k].f, s.out[k].f)) << at << " result " << k << ": reference " << want[k].f
                                                     << ", row " << s.out[k].f;
          } else {
            EXPECT_EQ(want[k].i, s.out[k].i) << at << " result " << k;
          }
        }
        continue;
      }
      Args a;
      const float row[4] = {s.in[0].f, s.in[1].f, s.in[2].f, s.in[3].f};
      if (f.shape == accelmath::Shape::kRows) {
        a.row = row, a.n = 4;
      } else {
        for (int k = 0; k < f.inputs(); ++k) a.x[k] = s.in[k].f;
      }
      const float y = s.out[0].f;
      if (f.bound_ulp == 0) {
        EXPECT_TRUE(same(correctly_rounded_f32(*o, a), y))
            << at << ": the row says " << std::hexfloat << y << ", correctly rounded is " << correctly_rounded_f32(*o, a);
      } else {
        EXPECT_LE(ulp_error_exact(*o, a, y), f.bound_ulp) << at << ": the row says " << std::hexfloat << y;
      }
    }
  }
  EXPECT_GT(checked, 200);
}

// The references of the exact functions against MPFR (an independent computation) on random
// floats, every power of two and its neighbours, half-integers around 2^23, and the specials.
TEST(Oracle, ReferencesAgreeWithMpfr) {
  std::vector<float> xs = accelmath::sweep::sample(1 << 16, 17);
  mpfr_t m, t;
  mpfr_init2(m, 24);
  mpfr_init2(t, 200);
  const auto bits = [](float v) { std::uint32_t b; std::memcpy(&b, &v, 4); return b; };
  const auto same = [&](float a, float b) { return std::isnan(a) ? std::isnan(b) : bits(a) == bits(b); };
  using MpfrRound = int (*)(mpfr_ptr, mpfr_srcptr);
  const std::pair<const char*, MpfrRound> rounding[] = {
      {"floor", mpfr_floor}, {"ceil", mpfr_ceil}, {"trunc", mpfr_trunc}, {"round", mpfr_round}};
  for (const auto& [name, fn] : rounding) {
    const Oracle& o = *find_oracle(name);
    for (float x : xs) {
      accelmath::Value in[4], out[2];
      in[0].f = x;
      o.reference_at(in, out);
      if (std::isnan(x)) {
        EXPECT_TRUE(std::isnan(out[0].f)) << name;
        continue;
      }
      mpfr_set_flt(m, x, MPFR_RNDN);
      fn(m, m);  // exact: an integer of at most 24 bits, or x itself (signed zeros kept)
      ASSERT_TRUE(same(out[0].f, mpfr_get_flt(m, MPFR_RNDN))) << name << "(" << std::hexfloat << x << ")";
    }
  }
  {
    const Oracle& o = *find_oracle("rint");
    for (float x : xs) {
      accelmath::Value in[4], out[2];
      in[0].f = x;
      o.reference_at(in, out);
      if (std::isnan(x)) continue;
      mpfr_set_flt(m, x, MPFR_RNDN);
      mpfr_rint(m, m, MPFR_RNDN);  // ties to even
      ASSERT_TRUE(same(out[0].f, mpfr_get_flt(m, MPFR_RNDN))) << "rint(" << std::hexfloat << x << ")";
    }
  }
  // logb, ilogb, frexp: from the exponent MPFR gives x (x = m 2^e, m in [1/2, 1)).
  for (float x : xs) {
    accelmath::Value in[4], lb[2], il[2], fr[2];
    in[0].f = x;
    find_oracle("logb")->reference_at(in, lb);
    find_oracle("ilogb")->reference_at(in, il);
    find_oracle("frexp")->reference_at(in, fr);
    if (!std::isfinite(x) || x == 0) {
      EXPECT_TRUE(std::isnan(x) ? std::isnan(lb[0].f) : lb[0].f == (x == 0 ? -INFINITY : INFINITY));
      EXPECT_EQ(il[0].i, std::isinf(x) ? INT32_MAX : INT32_MIN) << x;
      EXPECT_TRUE(same(fr[0].f, x) && fr[1].i == 0) << x;
      continue;
    }
    mpfr_set_flt(m, x, MPFR_RNDN);
    const long e = mpfr_get_exp(m);
    ASSERT_EQ(lb[0].f, float(e - 1)) << std::hexfloat << x;
    ASSERT_EQ(il[0].i, e - 1) << std::hexfloat << x;
    ASSERT_EQ(fr[1].i, e) << std::hexfloat << x;
    mpfr_set_exp(m, 0);
    ASSERT_TRUE(same(fr[0].f, mpfr_get_flt(m, MPFR_RNDN))) << std::hexfloat << x;
  }
  // ldexp: x 2^n in MPFR (exact), rounded once to float32, for n over [-330, 330] and the extremes.
  {
    const Oracle& o = *find_oracle("ldexp");
    std::vector<std::int32_t> ns = {INT32_MIN, INT32_MIN + 1, INT32_MAX - 1, INT32_MAX};
    for (int n = -330; n <= 330; n += 7) ns.push_back(n);
    for (int n = -160; n <= -120; ++n) ns.push_back(n);
    for (std::size_t i = 0; i < xs.size(); i += 5) {
      for (std::int32_t n : ns) {
        accelmath::Value in[4], out[2];
        in[0].f = xs[i], in[1].i = n;
        o.reference_at(in, out);
        mpfr_set_flt(t, xs[i], MPFR_RNDN);
        mpfr_mul_2si(t, t, n, MPFR_RNDN);  // exact (MPFR's exponent range is far wider)
        ASSERT_TRUE(same(out[0].f, round_to_f32(t))) << "ldexp(" << std::hexfloat << xs[i] << ", " << n << ")";
      }
    }
  }
  // fmin, fmax: C23 fminimum_num / fmaximum_num against glibc's own (2.35 and later) where it has
  // them, and the rules written out: a NaN operand gives the other, -0 < +0.
  using Fn2 = float (*)(float, float);
  const auto glibc_min = reinterpret_cast<Fn2>(dlsym(RTLD_DEFAULT, "fminimum_numf"));
  const auto glibc_max = reinterpret_cast<Fn2>(dlsym(RTLD_DEFAULT, "fmaximum_numf"));
  const Oracle &omin = *find_oracle("fmin"), &omax = *find_oracle("fmax");
  for (std::size_t i = 0; i < xs.size(); ++i) {
    const float x = xs[i], y = xs[(i * 7919 + 13) % xs.size()];
    accelmath::Value in[4], lo[2], hi[2];
    in[0].f = x, in[1].f = y;
    omin.reference_at(in, lo);
    omax.reference_at(in, hi);
    if (glibc_min && glibc_max) {
      ASSERT_TRUE(same(lo[0].f, glibc_min(x, y))) << x << ", " << y;
      ASSERT_TRUE(same(hi[0].f, glibc_max(x, y))) << x << ", " << y;
    }
    if (std::isnan(x) || std::isnan(y)) {
      ASSERT_TRUE(same(lo[0].f, std::isnan(x) ? y : x) && same(hi[0].f, std::isnan(x) ? y : x));
    } else {
      ASSERT_TRUE(lo[0].f == std::min(x, y) && hi[0].f == std::max(x, y));
    }
  }
  for (const auto& [x, y] : std::vector<std::pair<float, float>>{{0.0f, -0.0f}, {-0.0f, 0.0f}}) {
    accelmath::Value in[4], lo[2], hi[2];
    in[0].f = x, in[1].f = y;
    omin.reference_at(in, lo);
    omax.reference_at(in, hi);
    EXPECT_TRUE(std::signbit(lo[0].f) && !std::signbit(hi[0].f));
  }
  if (!glibc_min) std::printf("  (this C library has no fminimum_numf: fmin/fmax checked by their rules only)\n");
  mpfr_clear(m);
  mpfr_clear(t);
}

// The bit-for-bit verdict of an exact function with tiers (fma) rests on correctly_rounded_f32:
// products that land exactly on a float32 midpoint, nudged by a third term far below the 128 bits
// of the usual exact tier, must round the way the nudge says; exact ties go to even.
TEST(Oracle, CorrectlyRoundedDecidesTiesExactly) {
  const Oracle& fma = *find_oracle("fma");
  const auto cr = [&](double x, double y, double z) { return correctly_rounded_f32(fma, Args{{x, y, z, 0}}); };
  // (1 + 2^-12)^2 = 1 + 2^-11 + 2^-24: a midpoint between 1 + 2^-11 and its successor.
  const double a = 1.0 + 0x1p-12;
  EXPECT_EQ(cr(a, a, 0.0), 1.0f + 0x1p-11f);                     // tie to even
  EXPECT_EQ(cr(a, a, 0x1p-149), 1.0f + 0x1p-11f + 0x1p-23f);     // above the tie: up
  EXPECT_EQ(cr(a, a, -0x1p-149), 1.0f + 0x1p-11f);               // below: down
  EXPECT_EQ(cr(-a, a, 0x1p-149), -(1.0f + 0x1p-11f));
  EXPECT_TRUE(std::signbit(cr(1.0, 1.0, -1.0)) == false);       // exact zero: +0 (round to nearest)
  EXPECT_TRUE(std::signbit(cr(-0.0, 1.0, -0.0)));               // -0 + -0 = -0
  EXPECT_EQ(cr(0x1p-149, 0.5, 0.0), 0.0f);                       // 2^-150: a tie with 0, to even
  EXPECT_EQ(cr(0x1p-149, 1.5, 0.0), 0x1p-148f);                  // 1.5 2^-149: to even, 2^-148
  EXPECT_TRUE(std::isinf(cr(0x1.fffffep127, 2.0, 0.0)));
  // The 128-bit tier alone cannot tell: it rounds a + tiny to the midpoint.
  mpfr_t r;
  mpfr_init2(r, 128);
  fma.exact_at(r, Args{{a, a, 0x1p-149, 0}});
  EXPECT_EQ(round_to_f32(r), 1.0f + 0x1p-11f) << "the example no longer shows why 1100 bits are needed";
  mpfr_clear(r);
}

// The Arb path of the exact tier (for the functions MPFR lacks) agrees with MPFR where both exist.
TEST(Oracle, ArbExactTierAgreesWithMpfr) {
  mpfr_t a, m;
  mpfr_init2(a, 128);
  mpfr_init2(m, 128);
  for (double x : {-100.0, -1e-30, 1e-300, 0.5, 1.0, 3.0, 88.5, 1e6}) {
    Arb<arb_exp>(a, x);
    Mpfr<mpfr_exp>(m, x);
    EXPECT_EQ(mpfr_cmp(a, m), 0) << "exp(" << x << ")";
    if (x > 0) {
      Arb<arb_log>(a, x);
      Mpfr<mpfr_log>(m, x);
      EXPECT_EQ(mpfr_cmp(a, m), 0) << "log(" << x << ")";
    }
  }
  Arb<arb_log>(a, -1.0);  // undefined: not a finite ball
  EXPECT_TRUE(mpfr_nan_p(a));
  mpfr_clear(a);
  mpfr_clear(m);
}

TEST(Oracle, KnownValues) {
  // Published quantiles (e.g. the 97.5% point 1.959963984540054) and special values.
  EXPECT_NEAR(ndtri(0.975), 1.959963984540054, 1e-15);
  EXPECT_NEAR(ndtri_mpfr(0.975), 1.959963984540054, 1e-15);
  EXPECT_NEAR(ndtri(0.001), -3.090232306167813, 1e-14);
  EXPECT_EQ(ndtri(0.5), 0.0);
  EXPECT_EQ(ndtri(0.0), -INFINITY);
  EXPECT_EQ(ndtri(1.0), INFINITY);
  EXPECT_TRUE(std::isnan(ndtri(-0.5)));
  EXPECT_TRUE(std::isnan(ndtri(NAN)));
}

TEST(Oracle, UlpError) {
  EXPECT_EQ(ulp_f32(1.0), 0x1p-23);
  EXPECT_EQ(ulp_f32(0.75), 0x1p-24);
  EXPECT_EQ(ulp_f32(-14.1), 0x1p-20);
  EXPECT_EQ(ulp_f32(0x1p-140), 0x1p-149);
  EXPECT_EQ(ulp_error_f32(1.0f, 1.0 + 0x1p-24), 0.5);
  EXPECT_EQ(ulp_error_f32(-INFINITY, -INFINITY), 0.0);
  EXPECT_EQ(ulp_error_f32(INFINITY, -INFINITY), INFINITY);
  EXPECT_EQ(ulp_error_f32(NAN, NAN), 0.0);
  EXPECT_EQ(ulp_error_f32(0.0f, NAN), INFINITY);
  EXPECT_EQ(ulp_error_f32(NAN, 1.0), INFINITY);
  // Overflow: +inf stands for 2^128, the value the rounding overflowed to.
  EXPECT_EQ(ulp_f32(0x1p130), 0x1p104);
  EXPECT_EQ(ulp_error_f32(INFINITY, 0x1p128), 0.0);
  EXPECT_EQ(ulp_error_f32(INFINITY, 0x1p128 - 0x1p103), 0.5);
  EXPECT_EQ(ulp_error_f32(-INFINITY, 0x1p128), INFINITY);
  EXPECT_EQ(ulp_error_f32(0x1.fffffep127f, 0x1p129), 0x1p129 / 0x1p104 - 0x1.fffffep127 / 0x1p104);
}

TEST(Oracle, ExactUlpErrorMatchesTheDoubleOneAwayFromTies) {
  const Oracle& exp = *find_oracle("exp");
  for (float x : {-103.0f, -20.5f, -1.0f, 0.3f, 1.0f, 10.0f, 88.0f}) {
    const float y = float(std::exp(double(x)));
    EXPECT_NEAR(ulp_error_exact(exp, x, y), ulp_error_f32(y, std::exp(double(x))), 1e-6) << x;
  }
  EXPECT_EQ(ulp_error_exact(exp, 100.0, INFINITY), 0.0);       // e^100 > 2^128
  EXPECT_LT(ulp_error_exact(exp, -1000.0, 0.0f), 1e-200);       // e^-1000 is far below 2^-149
  EXPECT_EQ(ulp_error_exact(exp, NAN, NAN), 0.0);
  EXPECT_EQ(ulp_error_exact(exp, 1.0, NAN), INFINITY);
  EXPECT_NEAR(ulp_error_exact(exp, -104.0, 0x1p-149f), std::fabs(0x1p-149 - std::exp(-104.0)) / 0x1p-149, 1e-9);
}

// The structured sample of two-input rows (tools/accuracy/sweep.h): its parts have the sizes it
// promises, every (exponent, exponent, sign, sign) cell gets the same share of the grid, the
// diagonal and axis pairs are what they say, and the pairs depend on (n, seed) alone.
TEST(PairSample, CoversEveryCellEvenlyAndIsDeterministic) {
  using accelmath::sweep::PairSample;
  constexpr std::uint64_t kCells = 1 << 18;
  const PairSample s(3 * kCells, 4);
  EXPECT_EQ(s.grid(), 3 * kCells);
  EXPECT_EQ(s.diagonal(), 3 * kCells / 16);
  EXPECT_EQ(s.axes(), 3 * kCells / 16);
  EXPECT_GE(s.edges(), 33u * 33u);
  EXPECT_EQ(s.size(), s.grid() + s.diagonal() + s.axes() + s.edges());
  std::vector<float> x1, x2;
  s.materialise(x1, x2);
  ASSERT_EQ(x1.size(), s.size());
  std::vector<int> per_cell(kCells, 0);
  const auto bits = [](float f) { std::uint32_t b; std::memcpy(&b, &f, 4); return b; };
  std::size_t zeros = 0, infs = 0, nans = 0, subnormals = 0;
  for (std::uint64_t i = 0; i < s.grid(); ++i) {
    const std::uint32_t a = bits(x1[i]), b = bits(x2[i]);
    ++per_cell[(a >> 31) << 17 | (b >> 31) << 16 | ((a >> 23) & 255) << 8 | ((b >> 23) & 255)];
    zeros += x1[i] == 0, infs += std::isinf(x1[i]), nans += std::isnan(x1[i]), subnormals += std::fpclassify(x1[i]) == FP_SUBNORMAL;
  }
  EXPECT_EQ(*std::min_element(per_cell.begin(), per_cell.end()), 3);
  EXPECT_EQ(*std::max_element(per_cell.begin(), per_cell.end()), 3);
  // Exponent 0 (1/256 of the grid): one in 8 a zero; exponent 255: half infinities, half NaN.
  EXPECT_NEAR(double(zeros) / double(s.grid() / 256), 1.0 / 8, 0.02);
  EXPECT_NEAR(double(infs) / double(s.grid() / 256), 0.5, 0.02);
  EXPECT_NEAR(double(nans) / double(s.grid() / 256), 0.5, 0.02);
  EXPECT_NEAR(double(subnormals) / double(s.grid() / 256), 7.0 / 8, 0.02);
  for (std::uint64_t i = s.grid(); i < s.grid() + s.diagonal(); ++i) {  // |x1| within 8 ulp of |x2|, both finite
    const std::int64_t d = std::int64_t(bits(x1[i]) & 0x7FFFFFFFu) - std::int64_t(bits(x2[i]) & 0x7FFFFFFFu);
    ASSERT_TRUE(d >= -8 && d <= 8 && std::isfinite(x1[i]) && std::isfinite(x2[i])) << i;
  }
  for (std::uint64_t i = s.grid() + s.diagonal(); i < s.grid() + s.diagonal() + s.axes(); ++i) {  // one input tiny
    const auto tiny = [&](float v) { return (bits(v) & 0x7FFFFFFFu) <= 0x00800008u; };
    ASSERT_TRUE(tiny(x1[i]) || tiny(x2[i])) << i;
  }
  // Pair i alone: the same from any starting point, and for the same (n, seed) only.
  float a = 0, b = 0;
  s.at(12345, &a, &b);
  EXPECT_EQ(bits(a), bits(x1[12345]));
  EXPECT_EQ(bits(b), bits(x2[12345]));
  PairSample(3 * kCells, 5).at(12345, &a, &b);
  EXPECT_NE(bits(a) ^ bits(b), bits(x1[12345]) ^ bits(x2[12345]));
  // The default is at least 2^32 pairs.
  EXPECT_GE(PairSample(accelmath::sweep::kDefaultPairSample, 1).size(), std::uint64_t{1} << 32);
}

// The structured samples of the other shapes (tools/accuracy/sweep.h): each part has the size it
// promises, the grids visit their cells evenly, the parts hold what they say, and everything depends
// on (n, seed) alone.
std::uint32_t WordBits(float f) {
  std::uint32_t b;
  std::memcpy(&b, &f, 4);
  return b;
}

TEST(TripleSample, CoversEveryExponentTripleEvenly) {
  using accelmath::sweep::TripleSample;
  constexpr std::uint64_t kCells = 1 << 24;
  const TripleSample s(2 * kCells, 3);
  EXPECT_EQ(s.grid(), 2 * kCells);
  EXPECT_EQ(s.cancellation(), 2 * kCells / 16);
  EXPECT_GE(s.edges(), 15u * 15u * 15u);
  EXPECT_EQ(s.size(), s.grid() + s.cancellation() + s.edges());
  std::vector<std::uint8_t> per_cell(kCells, 0);
  std::size_t negative = 0;
  float x[3];
  for (std::uint64_t i = 0; i < s.grid(); ++i) {
    s.at(i, x);
    const std::uint32_t a = WordBits(x[0]), b = WordBits(x[1]), c = WordBits(x[2]);
    ++per_cell[((a >> 23) & 255) << 16 | ((b >> 23) & 255) << 8 | ((c >> 23) & 255)];
    negative += a >> 31;
  }
  EXPECT_EQ(*std::min_element(per_cell.begin(), per_cell.end()), 2);
  EXPECT_EQ(*std::max_element(per_cell.begin(), per_cell.end()), 2);
  EXPECT_NEAR(double(negative) / double(s.grid()), 0.5, 0.01);
  // Cancellation: x3 within 8 ulp of -(x1 x2 rounded), x1 and x2 finite.
  std::size_t subnormal_products = 0;
  for (std::uint64_t i = s.grid(); i < s.grid() + s.cancellation(); ++i) {
    s.at(i, x);
    ASSERT_TRUE(std::isfinite(x[0]) && std::isfinite(x[1])) << i;
    float p = float(double(x[0]) * double(x[1]));
    if (std::isinf(p)) p = std::copysign(FLT_MAX, p);
    const std::int64_t d = std::int64_t(WordBits(x[2]) & 0x7FFFFFFFu) - std::int64_t(WordBits(p) & 0x7FFFFFFFu);
    ASSERT_TRUE(d >= -8 && d <= 8 && (std::signbit(x[2]) != std::signbit(p))) << i;
    subnormal_products += std::fabs(p) < FLT_MIN;
  }
  EXPECT_GT(subnormal_products, 0u);
  float y[3];
  s.at(777, x);
  TripleSample(2 * kCells, 3).at(777, y);
  EXPECT_EQ(WordBits(x[0]) ^ WordBits(x[1]) ^ WordBits(x[2]), WordBits(y[0]) ^ WordBits(y[1]) ^ WordBits(y[2]));
  EXPECT_GE(TripleSample(accelmath::sweep::kDefaultTupleSample, 1).size(), std::uint64_t{1} << 32);
}

TEST(QuadSample, VisitsDistinctExponentCells) {
  using accelmath::sweep::QuadSample;
  const QuadSample s(1 << 20, 5);
  EXPECT_EQ(s.grid(), 1u << 20);
  EXPECT_GE(s.edges(), 9u * 9u * 9u * 9u);
  std::vector<std::uint32_t> cells;
  float x[4];
  for (std::uint64_t i = 0; i < s.grid(); ++i) {
    s.at(i, x);
    std::uint32_t cell = 0;
    for (int k = 0; k < 4; ++k) cell = cell << 8 | ((WordBits(x[k]) >> 23) & 255);
    cells.push_back(cell);
  }
  std::sort(cells.begin(), cells.end());
  EXPECT_EQ(std::adjacent_find(cells.begin(), cells.end()), cells.end()) << "two quadruples in one cell";
  // Every exponent of every input comes up (2^20 cells spread over the 256^4).
  for (int k = 0; k < 4; ++k) {
    std::vector<int> seen(256, 0);
    for (std::uint64_t i = 0; i < s.grid(); ++i) {
      s.at(i, x);
      seen[(WordBits(x[k]) >> 23) & 255] = 1;
    }
    EXPECT_EQ(std::count(seen.begin(), seen.end(), 1), 256) << k;
  }
  EXPECT_GE(QuadSample(accelmath::sweep::kDefaultTupleSample, 1).grid(), std::uint64_t{1} << 32);
}

TEST(ScaleSample, EveryExponentMeetsEveryShift) {
  using accelmath::sweep::ScaleSample;
  constexpr std::uint64_t kCells = 512 * 640;
  const ScaleSample s(2 * kCells, 7);
  // (sign, exponent of x, n) for n in -300..300: every combination exactly twice.
  std::vector<std::uint8_t> seen(512 * 601, 0);
  std::size_t extremes = 0, random = 0;
  float x;
  std::int32_t n;
  for (std::uint64_t i = 0; i < s.grid(); ++i) {
    s.at(i, &x, &n);
    const std::uint32_t se = WordBits(x) >> 23;
    if (n >= -300 && n <= 300) {
      ++seen[se * 601 + static_cast<std::uint32_t>(n + 300)];
    } else if (n == INT32_MIN || n == INT32_MAX || n == INT32_MIN + 1 || n == INT32_MAX - 1) {
      ++extremes;
    } else {
      ++random;
    }
  }
  EXPECT_EQ(*std::min_element(seen.begin(), seen.end()), 2);
  EXPECT_EQ(*std::max_element(seen.begin(), seen.end()), 2);
  EXPECT_EQ(extremes, 2u * 512 * 4);
  EXPECT_GE(random, 2u * 512 * 35 - 8);  // a random int32 may fall in [-300, 300] itself
  EXPECT_GE(s.edges(), 33u * 35u);
  EXPECT_GE(ScaleSample(accelmath::sweep::kDefaultTupleSample, 1).size(), std::uint64_t{1} << 32);
}

TEST(RowSample, RowsOfEveryLengthClass) {
  using accelmath::sweep::RowSample;
  const RowSample s(1 << 16, 11);
  EXPECT_EQ(s.random_rows(), 1u << 16);
  accelmath::sweep::Chunk ch;
  std::uint64_t rows = 0, elements = 0, specials = 0, long_rows = 0;
  std::vector<int> lengths(65, 0);
  std::size_t empty = 0;
  for (std::uint64_t c = 0; c < s.chunks(); ++c) {
    s.fill(c, ch);
    ASSERT_EQ(ch.first, rows) << c;
    ASSERT_EQ(ch.in[0].size(), ch.count * ch.row_length) << c;
    rows += ch.count;
    elements += ch.count * ch.row_length;
    if (ch.row_length <= 64) {
      lengths[ch.row_length] += 1;
    } else {
      long_rows += ch.count;
      ASSERT_LE(ch.row_length, 4096u);
    }
    empty += ch.row_length == 0 ? ch.count : 0;
    for (std::uint32_t w : ch.in[0]) {
      float v;
      std::memcpy(&v, &w, 4);
      specials += !std::isfinite(v);
    }
  }
  EXPECT_EQ(rows, s.size());
  EXPECT_EQ(elements, s.elements());
  EXPECT_GE(std::count_if(lengths.begin(), lengths.end(), [](int k) { return k > 0; }), 50);  // 0..64 spread
  EXPECT_GE(empty, 16u);
  EXPECT_GT(specials, 100u);
  // A long chunk in 128 (256 chunks here: about 2 expected; the seed is fixed, the count is not zero).
  EXPECT_GT(long_rows, 0u);
  // Deterministic: the same chunk twice.
  accelmath::sweep::Chunk again;
  s.fill(3, ch);
  RowSample(1 << 16, 11).fill(3, again);
  EXPECT_EQ(ch.in[0], again.in[0]);
  EXPECT_EQ(ch.row_length, again.row_length);
}

}  // namespace
