// Reference values for accuracy measurements, far more accurate than float32, in two tiers.
//
// Every registry function has an oracle row (tools/accuracy/oracles.def): a fast double-precision
// reference, independent of the library's kernels, and an exact one (MPFR, or Arb for functions MPFR
// lacks) that the sweeper consults only where the fast one cannot decide: results near a rounding
// boundary or near the promised bound. `accelmath oracle-check` and a CTest measure how far the
// fast tier is from the exact one.
//
// ndtri: `oracle::ndtri` is Newton's method on the C library's erf/erfc, started from Abramowitz &
// Stegun 26.2.23; `ndtri_exact` is a 200-bit Newton on mpfr_erf/mpfr_erfc.
#pragma once

#include <arb.h>
#include <mpfr.h>

#include <cstdint>
#include <span>
#include <string_view>

namespace accelmath::oracle {

using Fast = double (*)(double x);
using Exact = void (*)(mpfr_ptr out, double x);
// The tiers of a function of two inputs (registry shape Binary): f(x1, x2).
using Fast2 = double (*)(double x1, double x2);
using Exact2 = void (*)(mpfr_ptr out, double x1, double x2);

struct Oracle {
  const char* name;    // the registry function it serves
  const char* source;  // the two tiers, for people
  Fast fast;           // one-input rows (nullptr otherwise)
  Exact exact;
  // A row with two results (registry shape UnaryPair) has no tiers of its own: its results must be
  // bit-identical to those of the one-output functions part1 and part2 (ACCELMATH_ORACLE_PAIR).
  const char* part1 = nullptr;
  const char* part2 = nullptr;
  // A row with two inputs (registry shape Binary, ACCELMATH_ORACLE2): its tiers take both.
  Fast2 fast2 = nullptr;
  Exact2 exact2 = nullptr;

  // Whether the row has tiers of its own (every row but a UnaryPair's).
  bool has_tiers() const noexcept { return fast != nullptr || fast2 != nullptr; }
  // Any row's tiers through one signature, for the sweeper and the checks: x2 is read by two-input
  // rows only.
  double fast_at(double x1, double x2) const { return fast ? fast(x1) : fast2(x1, x2); }
  void exact_at(mpfr_ptr out, double x1, double x2) const {
    if (exact) {
      exact(out, x1);
    } else {
      exact2(out, x1, x2);
    }
  }
};

// Every oracle row, and the one for a function (nullptr if none).
std::span<const Oracle> oracles() noexcept;
const Oracle* find_oracle(std::string_view name) noexcept;

// The exact tier from an MPFR function: f(x) correctly rounded to out's precision.
template <int (*F)(mpfr_ptr, mpfr_srcptr, mpfr_rnd_t)>
void Mpfr(mpfr_ptr out, double x) {
  mpfr_t t;
  mpfr_init2(t, 53);
  mpfr_set_d(t, x, MPFR_RNDN);
  F(out, t, MPFR_RNDN);
  mpfr_clear(t);
}

// The exact tier from an MPFR function of two arguments: f(x1, x2) correctly rounded to out's
// precision (mpfr_atan2 takes y, then x, like atan2).
template <int (*F)(mpfr_ptr, mpfr_srcptr, mpfr_srcptr, mpfr_rnd_t)>
void Mpfr2(mpfr_ptr out, double x1, double x2) {
  mpfr_t a, b;
  mpfr_init2(a, 53);
  mpfr_init2(b, 53);
  mpfr_set_d(a, x1, MPFR_RNDN);
  mpfr_set_d(b, x2, MPFR_RNDN);
  F(out, a, b, MPFR_RNDN);
  mpfr_clear(a);
  mpfr_clear(b);
}

// The exact tier from an Arb function (a rigorous ball): the working precision grows until the
// ball is narrower than out's precision plus 8 bits, then its midpoint is rounded into out.
// Infinite or undefined results (Arb returns a non-finite ball) become NaN; the caller's oracle
// row must handle the special values itself where they are not NaN.
template <void (*F)(arb_t, const arb_t, slong)>
void Arb(mpfr_ptr out, double x) {
  const slong want = static_cast<slong>(mpfr_get_prec(out)) + 8;
  arb_t a, y;
  arb_init(a);
  arb_init(y);
  arb_set_d(a, x);
  bool done = false;
  for (slong prec = want + 32; prec <= 16 * want + 4096 && !done; prec *= 2) {
    F(y, a, prec);
    done = arb_is_finite(y) && (arb_is_exact(y) || arb_rel_accuracy_bits(y) >= want);
  }
  if (done) {
    arf_get_mpfr(out, arb_midref(y), MPFR_RNDN);
  } else {
    mpfr_set_nan(out);
  }
  arb_clear(a);
  arb_clear(y);
}

// ndtri(p) for any double p (special values as in the library's spec), relative error ~1e-16.
double ndtri(double p);
// ndtri(p) by a 200-bit MPFR Newton iteration, rounded into out (at most 200 bits of it are right).
void ndtri_exact(mpfr_ptr out, double p);
// The same, rounded to the nearest double.
double ndtri_mpfr(double p);

// sinpi, cospi, tanpi (tools/accuracy/trig_oracle.cc): exact reduction, then glibc sin/cos/tan of
// pi r in binary64, or MPFR at out's precision.
double sinpi(double x);
double cospi(double x);
double tanpi(double x);
void sinpi_exact(mpfr_ptr out, double x);
void cospi_exact(mpfr_ptr out, double x);
void tanpi_exact(mpfr_ptr out, double x);

// The Fresnel integrals C and S (tools/accuracy/fresnel_oracle.cc).
double fresnel_c(double x);
double fresnel_s(double x);
void fresnel_c_exact(mpfr_ptr out, double x);
void fresnel_s_exact(mpfr_ptr out, double x);

// Float32 ulp at the magnitude of the exact value r: 2^(floor(log2 |r|) - 23), at least 2^-149
// (2^104 at and above 2^128, the binade an overflow rounds into).
double ulp_f32(double r);

// |y - r| / ulp_f32(r); 0 when y equals a non-finite r (same infinity, or both NaN); +inf when
// the classes differ. A float32 infinity against a finite r counts as 2^128 with its sign (the
// value the rounding overflowed to), so an overflow exactly where the rounding overflows is
// <= 0.5 ulp.
double ulp_error_f32(float y, double r);
// The same against the exact value of o.exact(x) (128 bits), computed in MPFR; and of any row at
// (x1, x2) (x2 read by two-input rows only).
double ulp_error_exact(const Oracle& o, double x, float y);
double ulp_error_exact(const Oracle& o, double x1, double x2, float y);

}  // namespace accelmath::oracle
