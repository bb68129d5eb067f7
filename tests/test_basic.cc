// The basic operations and exponent bits beyond the registry-wide tests: every function here is
// exact, so each is compared bit for bit with an independent reference (glibc's float functions,
// which are exact for these, or the C23 rule written out below) on the float32 classes that
// matter (zeros of both signs, subnormals, the 2^23 boundary of the rounding functions, halfway
// cases, the largest finite, infinities, NaN) and on 2^20 random bit patterns, through the array API
// (SIMD, dispatched) with the per-element function beside it. The exhaustive comparisons over all
// 2^32 inputs are `accelmath sweep` (docs/accuracy.md).
#include <gtest/gtest.h>
#include <mpfr.h>

#include <climits>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <span>
#include <vector>

#include "accelmath/math.h"
#include "accelmath/scalar.h"
#include "test_util.h"

namespace {

using accelmath::Status;
using accelmath::test::Bits;
using accelmath::test::FromBits;

constexpr float kInf = std::numeric_limits<float>::infinity();
constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();

// The class edges plus 2^20 random bit patterns (NaNs with payloads and signaling NaNs included).
std::vector<float> Inputs() {
  std::vector<float> v = {0.0f, -0.0f, 0x1p-149f, -0x1p-149f, 0x1.fffffcp-127f, 0x1p-126f, 0.25f, 0.5f, -0.5f,
                          0x1.fffffep-2f, -0x1.fffffep-2f, 1.5f, -1.5f, 2.5f, -2.5f, 0x1.fffffep+22f,
                          -0x1.fffffep+22f, 0x1p+23f, 0x1.000002p+23f, 0x1.fffffep+23f, 0x1p+24f,
                          std::numeric_limits<float>::max(), -std::numeric_limits<float>::max(), kInf, -kInf,
                          kNaN, -kNaN, FromBits(0x7fa00001u), FromBits(0xffc12345u)};
  for (float h = 0.5f; h < 0x1p+23f; h *= 2.0f) v.push_back(h + 0.5f), v.push_back(-h - 0.5f);
  std::mt19937 rng(7);
  for (int i = 0; i < (1 << 20); ++i) v.push_back(FromBits(rng()));
  return v;
}

// NaN results compare as "both NaN"; everything else bit for bit.
bool Same(float a, float b) { return Bits(a) == Bits(b) || (std::isnan(a) && std::isnan(b)); }

// A unary float function through the array API: equal to `ref` (and to the per-element function,
// bit for bit) on every input.
template <class Ref>
void CheckUnary(const char* name, Status (*array)(std::span<float>, std::span<const float>) noexcept,
                float (*scalar)(float) noexcept, Ref ref) {
  const std::vector<float> xs = Inputs();
  std::vector<float> out(xs.size());
  ASSERT_EQ(array(out, xs), Status::kOk);
  std::size_t bad = 0;
  for (std::size_t i = 0; i < xs.size(); ++i) {
    const float want = ref(xs[i]);
    if (!Same(out[i], want) && bad++ < 10) ADD_FAILURE() << name << "(" << std::hexfloat << xs[i] << ") = " << out[i] << ", want " << want;
    if (Bits(out[i]) != Bits(scalar(xs[i])) && bad++ < 10) ADD_FAILURE() << name << " per element differs at " << std::hexfloat << xs[i];
  }
  EXPECT_EQ(bad, 0u) << name;
}

TEST(Basic, RoundingFunctionsMatchGlibc) {
  CheckUnary("trunc", accelmath::trunc, accelmath::scalar::trunc, [](float x) { return ::truncf(x); });
  CheckUnary("floor", accelmath::floor, accelmath::scalar::floor, [](float x) { return ::floorf(x); });
  CheckUnary("ceil", accelmath::ceil, accelmath::scalar::ceil, [](float x) { return ::ceilf(x); });
  CheckUnary("rint", accelmath::rint, accelmath::scalar::rint, [](float x) { return ::nearbyintf(x); });
  CheckUnary("round", accelmath::round, accelmath::scalar::round, [](float x) { return ::roundf(x); });
  CheckUnary("fabs", accelmath::fabs, accelmath::scalar::fabs, [](float x) { return ::fabsf(x); });
  CheckUnary("logb", accelmath::logb, accelmath::scalar::logb, [](float x) { return ::logbf(x); });
}

// fabs is IEEE 754 abs, a bit operation: the sign bit cleared, a NaN's payload kept and a signaling
// NaN not quieted (CheckUnary compares NaNs by class only). Arithmetic would not give this on every
// machine: CUDA's abs.f32 returns its own NaN.
TEST(Basic, FabsClearsTheSignBitAlone) {
  const std::vector<float> xs = Inputs();
  std::vector<float> out(xs.size());
  ASSERT_EQ(accelmath::fabs(out, xs), Status::kOk);
  std::size_t bad = 0;
  for (std::size_t i = 0; i < xs.size(); ++i) {
    const std::uint32_t want = Bits(xs[i]) & 0x7fffffffu;
    if ((Bits(out[i]) != want || Bits(accelmath::scalar::fabs(xs[i])) != want) && bad++ < 10)
      ADD_FAILURE() << std::hex << "fabs(0x" << Bits(xs[i]) << ") = 0x" << Bits(out[i]) << ", want 0x" << want;
  }
  EXPECT_EQ(bad, 0u);
}

// round is the trap: floor(x + 0.5) gives 1 for 0.49999997 and 2^23 + 2 for 2^23 + 1.
TEST(Basic, RoundHalfwayTraps) {
  EXPECT_EQ(accelmath::scalar::round(0x1.fffffep-2f), 0.0f);
  EXPECT_EQ(accelmath::scalar::round(0x1.000002p+23f), 0x1.000002p+23f);
  EXPECT_EQ(Bits(accelmath::scalar::round(-0.25f)), Bits(-0.0f));
  EXPECT_EQ(accelmath::scalar::round(-2.5f), -3.0f);
  EXPECT_EQ(accelmath::scalar::rint(-2.5f), -2.0f);
}

// C23 fminimum_num / fmaximum_num, written out: one NaN operand gives the other operand, two give a
// NaN; otherwise the smaller (larger) value, with -0 below +0. (glibc's fminf/fmaxf leave the order of
// zeros unspecified, which is why this reference is not theirs.)
float MinNum(float x, float y) {
  if (std::isnan(x)) return y;
  if (std::isnan(y)) return x;
  if (x == y) return std::signbit(x) ? x : y;
  return x < y ? x : y;
}
float MaxNum(float x, float y) {
  if (std::isnan(x)) return y;
  if (std::isnan(y)) return x;
  if (x == y) return std::signbit(x) ? y : x;
  return x > y ? x : y;
}

TEST(Basic, FminFmaxCopysignOnEveryPairOfClasses) {
  const std::vector<float> all = Inputs();
  const std::vector<float> edge(all.begin(), all.begin() + 29);
  std::vector<float> xs, ys;
  for (float x : edge) {
    for (float y : edge) xs.push_back(x), ys.push_back(y);
  }
  std::mt19937 rng(9);
  for (int i = 0; i < (1 << 18); ++i) xs.push_back(FromBits(rng())), ys.push_back(FromBits(rng()));
  std::vector<float> mn(xs.size()), mx(xs.size()), cs(xs.size());
  ASSERT_EQ(accelmath::fmin(mn, xs, ys), Status::kOk);
  ASSERT_EQ(accelmath::fmax(mx, xs, ys), Status::kOk);
  ASSERT_EQ(accelmath::copysign(cs, xs, ys), Status::kOk);
  std::size_t bad = 0;
  for (std::size_t i = 0; i < xs.size(); ++i) {
    const float x = xs[i], y = ys[i];
    bad += !Same(mn[i], MinNum(x, y)) || Bits(mn[i]) != Bits(accelmath::scalar::fmin(x, y));
    bad += !Same(mx[i], MaxNum(x, y)) || Bits(mx[i]) != Bits(accelmath::scalar::fmax(x, y));
    bad += Bits(cs[i]) != Bits(::copysignf(x, y)) || Bits(cs[i]) != Bits(accelmath::scalar::copysign(x, y));
    if (bad != 0 && bad < 4) ADD_FAILURE() << std::hexfloat << x << " " << y << ": " << mn[i] << " " << mx[i] << " " << cs[i];
  }
  EXPECT_EQ(bad, 0u);
  EXPECT_EQ(Bits(accelmath::scalar::fmin(0.0f, -0.0f)), Bits(-0.0f));
  EXPECT_EQ(Bits(accelmath::scalar::fmax(-0.0f, 0.0f)), Bits(0.0f));
  EXPECT_EQ(accelmath::scalar::fmin(kNaN, -1.0f), -1.0f);
}

// fma rounds once: against MPFR at 24 bits (float32 range) on products that cancel against z, on
// random triples and on the class edges; a double-precision x*y + z would round twice.
TEST(Basic, FmaRoundsOnce) {
  std::mt19937 rng(11);
  std::vector<float> xs, ys, zs;
  for (int i = 0; i < (1 << 16); ++i) {
    const float x = FromBits(rng()), y = FromBits(rng());
    xs.push_back(x), ys.push_back(y), zs.push_back(-x * y);  // catastrophic cancellation
    xs.push_back(x), ys.push_back(y), zs.push_back(FromBits(rng()));
    const float a = 1.0f + float(rng() % 4096) * 0x1p-23f, b = 1.0f - float(rng() % 4096) * 0x1p-23f;
    xs.push_back(a), ys.push_back(b), zs.push_back(-1.0f);
  }
  std::vector<float> out(xs.size());
  ASSERT_EQ(accelmath::fma(out, xs, ys, zs), Status::kOk);
  mpfr_exp_t emin = mpfr_get_emin(), emax = mpfr_get_emax();
  mpfr_set_emin(-148);
  mpfr_set_emax(128);
  mpfr_t r, a, b, c;
  mpfr_inits2(24, r, a, b, c, (mpfr_ptr)nullptr);
  std::size_t bad = 0;
  for (std::size_t i = 0; i < xs.size(); ++i) {
    mpfr_set_flt(a, xs[i], MPFR_RNDN);
    mpfr_set_flt(b, ys[i], MPFR_RNDN);
    mpfr_set_flt(c, zs[i], MPFR_RNDN);
    const int t = mpfr_fma(r, a, b, c, MPFR_RNDN);
    mpfr_subnormalize(r, mpfr_check_range(r, t, MPFR_RNDN), MPFR_RNDN);
    const float want = mpfr_get_flt(r, MPFR_RNDN);
    const bool ok = Same(out[i], want) && Bits(out[i]) == Bits(accelmath::scalar::fma(xs[i], ys[i], zs[i]));
    if (!ok && bad++ < 10) ADD_FAILURE() << std::hexfloat << xs[i] << " " << ys[i] << " " << zs[i] << ": " << out[i] << " want " << want;
  }
  mpfr_clears(r, a, b, c, (mpfr_ptr)nullptr);
  mpfr_set_emin(emin);
  mpfr_set_emax(emax);
  EXPECT_EQ(bad, 0u);
}

// Classification, ilogb and frexp against glibc on every input of Inputs(); ilogb's values at 0,
// NaN and inf are the spec's INT_MIN, INT_MIN and INT_MAX (as CUDA's), which are x86-64 glibc's
// FP_ILOGB0 and FP_ILOGBNAN; AArch64 glibc's are -INT_MAX and INT_MAX, so glibc's value is taken
// from the spec at 0 and NaN (the disagreement: docs/pow_roots_basic.md).
TEST(ExponentBits, ClassificationIlogbFrexpMatchGlibc) {
  const std::vector<float> xs = Inputs();
  const std::size_t n = xs.size();
  std::vector<std::uint8_t> isn(n), isi(n), isf(n);
  std::vector<std::int32_t> il(n), fe(n);
  std::vector<float> fm(n);
  ASSERT_EQ(accelmath::isnan(isn, xs), Status::kOk);
  ASSERT_EQ(accelmath::isinf(isi, xs), Status::kOk);
  ASSERT_EQ(accelmath::isfinite(isf, xs), Status::kOk);
  ASSERT_EQ(accelmath::ilogb(il, xs), Status::kOk);
  ASSERT_EQ(accelmath::frexp(fm, fe, xs), Status::kOk);
  std::size_t bad = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const float x = xs[i];
    const std::size_t bad_before = bad;
    bad += isn[i] != (std::isnan(x) ? 1 : 0) || isi[i] != (std::isinf(x) ? 1 : 0) || isf[i] != (std::isfinite(x) ? 1 : 0);
    const int glibc_ilogb = x == 0 || std::isnan(x) ? INT_MIN : ::ilogbf(x);  // FP_ILOGB0, FP_ILOGBNAN: the spec's
    bad += il[i] != glibc_ilogb || il[i] != accelmath::scalar::ilogb(x);
    int e = 0;
    const float m = ::frexpf(x, &e);
    int se = -7;
    const float sm = accelmath::scalar::frexp(x, &se);
    // C leaves the exponent unspecified for inf and NaN; accelmath gives 0 there.
    const int want_e = std::isfinite(x) ? e : 0;
    bad += !Same(fm[i], m) || fe[i] != want_e || Bits(sm) != Bits(fm[i]) || se != fe[i];
    if (bad > bad_before && bad < 4) ADD_FAILURE() << std::hexfloat << x << ": ilogb " << il[i] << " frexp " << fm[i] << " " << fe[i];
  }
  EXPECT_EQ(bad, 0u);
  EXPECT_EQ(accelmath::scalar::ilogb(0.0f), INT_MIN);
  EXPECT_EQ(accelmath::scalar::ilogb(kNaN), INT_MIN);
  EXPECT_EQ(accelmath::scalar::ilogb(-kInf), INT_MAX);
  EXPECT_EQ(accelmath::scalar::logb(-0.0f), -kInf);
  EXPECT_TRUE(accelmath::scalar::isnan(FromBits(0x7fa00001u)));  // signaling NaN
}

// ldexp against glibc ldexpf (exact) for every exponent n in [-330, 330], INT_MIN, INT_MAX and
// random int32, on the class edges and random x: results that round into the subnormals are rounded
// once (a two-step scaling would round twice: 0x1.000002p0 * 2^-150 must give 2^-149).
TEST(ExponentBits, LdexpMatchesGlibc) {
  const std::vector<float> all = Inputs();
  std::vector<float> xs(all.begin(), all.begin() + 29);
  std::mt19937 rng(13);
  for (int i = 0; i < 200; ++i) xs.push_back(FromBits(rng()));
  std::vector<std::int32_t> ns = {INT_MIN, INT_MAX, INT_MIN + 1, INT_MAX - 1, 100000, -100000};
  for (int n = -330; n <= 330; ++n) ns.push_back(n);
  for (int i = 0; i < 50; ++i) ns.push_back(std::int32_t(rng()));
  std::vector<float> x2;
  std::vector<std::int32_t> n2;
  for (float x : xs) {
    for (std::int32_t n : ns) x2.push_back(x), n2.push_back(n);
  }
  std::vector<float> out(x2.size());
  ASSERT_EQ(accelmath::ldexp(out, x2, n2), Status::kOk);
  std::size_t bad = 0;
  for (std::size_t i = 0; i < x2.size(); ++i) {
    const float want = ::ldexpf(x2[i], n2[i]);
    const bool ok = Same(out[i], want) && Bits(out[i]) == Bits(accelmath::scalar::ldexp(x2[i], n2[i]));
    if (!ok && bad++ < 10) ADD_FAILURE() << std::hexfloat << x2[i] << " * 2^" << std::dec << n2[i] << " = " << std::hexfloat << out[i] << ", want " << want;
  }
  EXPECT_EQ(bad, 0u);
  EXPECT_EQ(accelmath::scalar::ldexp(0x1.000002p+0f, -150), 0x1p-149f);
}

}  // namespace
