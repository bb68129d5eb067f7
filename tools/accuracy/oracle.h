// Reference values for accuracy measurements, far more accurate than float32, in two tiers.
//
// Every registry function has an oracle row (tools/accuracy/oracles.def): a fast double-precision
// reference, independent of the library's kernels, and an exact one (MPFR, or Arb for functions MPFR
// lacks) that the sweeper consults only where the fast one cannot decide: results near a rounding
// boundary or near the promised bound. `accelmath oracle-check` and a CTest measure how far the
// fast tier is from the exact one.
//
// Functions whose every result is exact (bound 0: fabs, floor, ilogb, isnan, frexp, ldexp, fmin,
// copysign, ...) are checked instead against an independent function of their own signature, most
// often the C library's (Reference below), bit for bit.
//
// ndtri: `oracle::ndtri` is Newton's method on the C library's erf/erfc, started from Abramowitz &
// Stegun 26.2.23; `ndtri_exact` is a 200-bit Newton on mpfr_erf/mpfr_erfc.
#pragma once

#include <arb.h>
#include <mpfr.h>

#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>

#include "accelmath/registry.h"

namespace accelmath::oracle {

// The tiers of a function of one input (registry shape Unary): f(x).
using Fast = double (*)(double x);
using Exact = void (*)(mpfr_ptr out, double x);
// Of two inputs (Binary): f(x1, x2); three (Ternary) and four (Quaternary) likewise. An int32 input
// (ScaleExponent's n) reaches a tier converted exactly to double.
using Fast2 = double (*)(double x1, double x2);
using Exact2 = void (*)(mpfr_ptr out, double x1, double x2);
using Fast3 = double (*)(double x1, double x2, double x3);
using Exact3 = void (*)(mpfr_ptr out, double x1, double x2, double x3);
using Fast4 = double (*)(double x1, double x2, double x3, double x4);
using Exact4 = void (*)(mpfr_ptr out, double x1, double x2, double x3, double x4);
// Of a row of n floats (registry shape Rows: norm, rnorm); n = 0 is an empty row.
using FastRow = double (*)(const float* a, std::size_t n);
using ExactRow = void (*)(mpfr_ptr out, const float* a, std::size_t n);

// The one right answer of a row whose every result is exact (bound 0: fabs, floor, ilogb, isnan,
// frexp, ldexp, fmin, ...), from an independent function with the row's own signature, usually the
// C library's (ACCELMATH_ORACLE_EXACT): the sweeper compares the library's results with it bit for
// bit (NaN matches any NaN; the sign of a zero counts). One member is set, by MakeReference's overload.
struct Reference {
  float (*unary)(float) = nullptr;          // Unary (fabsf, floorf, ...; logb)
  float (*binary)(float, float) = nullptr;  // Binary (copysignf; C23 fminimum_num / fmaximum_num)
  int (*to_int)(float) = nullptr;           // ToInt32 (ilogb) and Predicate (0 or 1: isnan, ...)
  float (*split)(float, int*) = nullptr;    // SplitExponent (frexpf: mantissa, *exponent)
  float (*scale)(float, int) = nullptr;     // ScaleExponent (ldexpf)
  bool set() const noexcept { return unary || binary || to_int || split || scale; }
};
constexpr Reference MakeReference(float (*f)(float)) { return {.unary = f}; }
constexpr Reference MakeReference(float (*f)(float, float)) { return {.binary = f}; }
constexpr Reference MakeReference(int (*f)(float)) { return {.to_int = f}; }
constexpr Reference MakeReference(float (*f)(float, int*)) { return {.split = f}; }
constexpr Reference MakeReference(float (*f)(float, int)) { return {.scale = f}; }

// The inputs of one case of any row, for the tiers: up to four numbers (int32 inputs exactly as
// doubles), or a row of n floats.
struct Args {
  double x[4] = {0, 0, 0, 0};
  const float* row = nullptr;  // Rows
  std::size_t n = 0;
};

struct Oracle {
  const char* name;    // the registry function it serves
  const char* source;  // the two tiers (or the reference), for people
  Fast fast = nullptr;  // one-input rows (ACCELMATH_ORACLE)
  Exact exact = nullptr;
  // A row with two results (registry shape UnaryPair) has no tiers of its own: its results must be
  // bit-identical to those of the one-output functions part1 and part2 (ACCELMATH_ORACLE_PAIR).
  const char* part1 = nullptr;
  const char* part2 = nullptr;
  // Rows of two, three, four inputs (ACCELMATH_ORACLE2, 3, 4) and of rows (ACCELMATH_ORACLE_ROWS).
  Fast2 fast2 = nullptr;
  Exact2 exact2 = nullptr;
  Fast3 fast3 = nullptr;
  Exact3 exact3 = nullptr;
  Fast4 fast4 = nullptr;
  Exact4 exact4 = nullptr;
  FastRow fast_row = nullptr;
  ExactRow exact_row = nullptr;
  // Exact rows checked against an independent function instead of tiers (ACCELMATH_ORACLE_EXACT).
  Reference reference{};

  // Whether the row has tiers of its own (not a UnaryPair's, not a reference's).
  bool has_tiers() const noexcept { return fast || fast2 || fast3 || fast4 || fast_row; }
  bool has_reference() const noexcept { return reference.set(); }
  // Any row's tiers through one signature, for the sweeper and the checks.
  double fast_at(const Args& a) const {
    if (fast) return fast(a.x[0]);
    if (fast2) return fast2(a.x[0], a.x[1]);
    if (fast3) return fast3(a.x[0], a.x[1], a.x[2]);
    if (fast4) return fast4(a.x[0], a.x[1], a.x[2], a.x[3]);
    return fast_row(a.row, a.n);
  }
  void exact_at(mpfr_ptr out, const Args& a) const {
    if (exact) {
      exact(out, a.x[0]);
    } else if (exact2) {
      exact2(out, a.x[0], a.x[1]);
    } else if (exact3) {
      exact3(out, a.x[0], a.x[1], a.x[2]);
    } else if (exact4) {
      exact4(out, a.x[0], a.x[1], a.x[2], a.x[3]);
    } else {
      exact_row(out, a.row, a.n);
    }
  }
  // The same for one or two inputs (x2 read by two-input rows only).
  double fast_at(double x1, double x2) const { return fast_at(Args{{x1, x2, 0, 0}}); }
  void exact_at(mpfr_ptr out, double x1, double x2) const { exact_at(out, Args{{x1, x2, 0, 0}}); }
  // The reference's results for inputs in[] (the registry's Value: float member f, int32 member i
  // for int32 inputs) into out[] (float outputs in f, int32 and 0/1 in i).
  void reference_at(const Value* in, Value* out) const;
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

// Three arguments (mpfr_fma: x1 * x2 + x3).
template <int (*F)(mpfr_ptr, mpfr_srcptr, mpfr_srcptr, mpfr_srcptr, mpfr_rnd_t)>
void Mpfr3(mpfr_ptr out, double x1, double x2, double x3) {
  mpfr_t a, b, c;
  mpfr_inits2(53, a, b, c, static_cast<mpfr_ptr>(nullptr));
  mpfr_set_d(a, x1, MPFR_RNDN);
  mpfr_set_d(b, x2, MPFR_RNDN);
  mpfr_set_d(c, x3, MPFR_RNDN);
  F(out, a, b, c, MPFR_RNDN);
  mpfr_clears(a, b, c, static_cast<mpfr_ptr>(nullptr));
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

// The error function, gamma and Bessel I families (tools/accuracy/erf_gamma_oracle.cc).
double erfcx(double x);
double normcdf(double x);
double erfinv(double x);
double erfcinv(double y);
double bessel_i0(double x);
double bessel_i1(double x);
void erfcx_exact(mpfr_ptr out, double x);
void normcdf_exact(mpfr_ptr out, double x);
void erfinv_exact(mpfr_ptr out, double x);
void erfcinv_exact(mpfr_ptr out, double y);
void lgamma_exact(mpfr_ptr out, double x);
void bessel_i0_exact(mpfr_ptr out, double x);
void bessel_i1_exact(mpfr_ptr out, double x);

// The pow, roots and norms family (tools/accuracy/oracle.cc). Reciprocals: 1/x in binary64 of the
// binary64 function (two roundings, < 2^-51 relative), and in MPFR the function at out's precision
// + 64 bits, then one correctly rounded division. Norms: the sum of squares in long double (every
// square exact, 64-bit sums), then sqrtl; in MPFR the exact sum (every square and sum exact at 1100
// bits), then one correctly rounded mpfr_sqrt / mpfr_rec_sqrt. Any infinite element gives +inf
// (reciprocals +0), even beside a NaN; else a NaN gives NaN; an empty row gives +0 (+inf).
double rsqrt(double x);
void rsqrt_exact(mpfr_ptr out, double x);  // mpfr_rec_sqrt, but -inf at -0 (MPFR gives +inf)
double rcbrt(double x);
void rcbrt_exact(mpfr_ptr out, double x);
double rhypot(double x, double y);
void rhypot_exact(mpfr_ptr out, double x, double y);
double norm3d(double x, double y, double z);
double rnorm3d(double x, double y, double z);
void norm3d_exact(mpfr_ptr out, double x, double y, double z);
void rnorm3d_exact(mpfr_ptr out, double x, double y, double z);
double norm4d(double x, double y, double z, double w);
double rnorm4d(double x, double y, double z, double w);
void norm4d_exact(mpfr_ptr out, double x, double y, double z, double w);
void rnorm4d_exact(mpfr_ptr out, double x, double y, double z, double w);
double norm_row(const float* a, std::size_t n);
double rnorm_row(const float* a, std::size_t n);
void norm_row_exact(mpfr_ptr out, const float* a, std::size_t n);
void rnorm_row_exact(mpfr_ptr out, const float* a, std::size_t n);

// The references of the exact functions (tools/accuracy/oracle.cc), where the C library's function
// does not already say what the specification says:
// C23 fminimum_num / fmaximum_num: one NaN operand gives the other operand, two give NaN, -0 < +0
// (glibc's fminf/fmaxf may return either zero).
float fmin_ref(float x, float y);
float fmax_ref(float x, float y);
int isnan_ref(float x);     // 1 or 0
int isinf_ref(float x);
int isfinite_ref(float x);
float logb_ref(float x);    // glibc logb in binary64 (exact for every float; subnormals included)
int ilogb_ref(float x);     // glibc ilogbf, with INT_MIN at 0 and NaN, INT_MAX at +-inf as specified
float frexp_ref(float x, int* e);  // glibc frexpf, with e = 0 and m = x at +-0, +-inf and NaN

// The float32 result f(x) must be, bit for bit, from the exact value held in r (any precision):
// r correctly rounded to float32 (ties to even, subnormals rounded once, overflow to +-inf).
float round_to_f32(mpfr_srcptr r);

// Float32 ulp at the magnitude of the exact value r: 2^(floor(log2 |r|) - 23), at least 2^-149
// (2^104 at and above 2^128, the binade an overflow rounds into).
double ulp_f32(double r);

// |y - r| / ulp_f32(r); 0 when y equals a non-finite r (same infinity, or both NaN); +inf when
// the classes differ. A float32 infinity against a finite r counts as 2^128 with its sign (the
// value the rounding overflowed to), so an overflow exactly where the rounding overflows is
// <= 0.5 ulp.
double ulp_error_f32(float y, double r);
// The same against the exact value of o.exact(x) (128 bits), computed in MPFR; and of any row at
// (x1, x2) (x2 read by two-input rows only), or at any case (Args).
double ulp_error_exact(const Oracle& o, double x, float y);
double ulp_error_exact(const Oracle& o, double x1, double x2, float y);
double ulp_error_exact(const Oracle& o, const Args& a, float y);
// The same against an exact value already computed.
double ulp_error_mpfr(mpfr_srcptr r, float y);
// The correctly rounded float32 result of a row with tiers at a case, from its exact tier at
// `bits` of precision (1100 by default: exact for fma, whose result must be bit for bit right).
float correctly_rounded_f32(const Oracle& o, const Args& a, mpfr_prec_t bits = 1100);

}  // namespace accelmath::oracle
