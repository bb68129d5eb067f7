#!/usr/bin/env python3
"""Regenerates src/kernels/ndtri_coeffs.h, every constant the ndtri kernels use.

    python3 tools/coeffs/ndtri.py > src/kernels/ndtri_coeffs.h

Needs mpmath only. Deterministic: the same mpmath gives the same bytes (a CTest
checks that the committed header is what this script prints).

Tables
  kNdtriCentre      default kernel, |p - 1/2| <= 0.425: ndtri(p) = u * P(u^2 - kNdtriCentreShift),
                    u = 2p - 1. P is the Chebyshev interpolant (degree 19) of
                    g(w) = sqrt(2) erfinv(sqrt w) / sqrt w on w in [0, 0.7225], converted to
                    monomials in y = w - shift (shift near the middle keeps |c_i y^i| small).
                    Its max relative error is printed in the header and asserted below.
  kAs241*           Wichura, "Algorithm AS 241: The percentage points of the normal
                    distribution", Applied Statistics 37(3) 477-484 (1988), PPND16: the
                    tail rationals in s = r - 1.6 (r <= 5) and s = r - 5 (r > 5), r = sqrt(-ln t).
                    These are published constants, transcribed here as decimal strings; the
                    script re-verifies each rational against mpmath and prints its error.
  kTaskbookSeries   the proposal's 24-term Maclaurin series of sqrt(2) erfinv(u)/(sqrt 2 u):
                    d_0 = 1, d_k = sum_{m<k} d_m d_{k-1-m} / ((m+1)(2m+1)),
                    c_k = d_k/(2k+1) (sqrt(pi)/2)^(2k+1), rounded to float32.
  kLogAtanh*        log(m) = 2 atanh(s) = 2s + s * z * sum_j (2/(2j+1)) z^(j-1), z = s^2,
                    |s| <= 3 - 2 sqrt 2: the exact Taylor coefficients 2/(2j+1), rounded.
"""
import sys
import mpmath as mp

mp.mp.dps = 50


def f32(x):
    """Round an mpf to the nearest float32 (ties to even), returned as a Python float."""
    with mp.workprec(24):
        return float(+mp.mpf(x))


def hexd(x):
    return float(x).hex()


def hexf(x):
    mant, exp = f32(x).hex().split("p")
    return mant.rstrip("0").rstrip(".") + "p" + exp + "f"


def erfinv(u):
    return mp.erfinv(u)


def ndtri(t):
    """Exact-enough ndtri: 2t - 1 keeps every digit of t only with enough working precision."""
    t = mp.mpf(t)
    with mp.workdps(mp.mp.dps + max(0, int(-mp.log10(t))) + 10):
        return +(mp.sqrt(2) * mp.erfinv(2 * t - 1))


out = []
emit = out.append

# --- default centre polynomial -------------------------------------------------------
W = mp.mpf("0.7225")          # (2 * 0.425)^2
SHIFT = 0.361328125           # 185/512, exact in binary, close to W / 2
N_CENTRE = 16


def g(w):
    if w == 0:
        return mp.sqrt(mp.pi / 2)
    u = mp.sqrt(w)
    return mp.sqrt(2) * erfinv(u) / u


cheb, _ = mp.chebyfit(lambda y: g(y + SHIFT), [-SHIFT, W - SHIFT], N_CENTRE, error=True)
centre = [float(c) for c in reversed(cheb)]          # lowest degree first, rounded to double


def horner_mp(coeffs, x):
    acc = mp.mpf(0)
    for c in reversed(coeffs):
        acc = acc * x + mp.mpf(c)
    return acc


centre_err = max(abs(horner_mp(centre, mp.mpf(i) / 4000 * W - SHIFT) / g(mp.mpf(i) / 4000 * W) - 1)
                 for i in range(4001))
assert centre_err < 1e-9, centre_err

# --- AS241 tails -------------------------------------------------------------------------
AS241 = {
    "c": ["1.42343711074968357734", "4.63033784615654529590", "5.76949722146069140550",
          "3.64784832476320460504", "1.27045825245236838258", "2.41780725177450611770e-1",
          "2.27238449892691845833e-2", "7.74545014278341407640e-4"],
    "d": ["1.0", "2.05319162663775882187", "1.67638483018380384940", "6.89767334985100004550e-1",
          "1.48103976427480074590e-1", "1.51986665636164571966e-2", "5.47593808499534494600e-4",
          "1.05075007164441684324e-9"],
    "e": ["6.65790464350110377720", "5.46378491116411436990", "1.78482653991729133580",
          "2.96560571828504891230e-1", "2.65321895265761230930e-2", "1.24266094738807843860e-3",
          "2.71155556874348757815e-5", "2.01033439929228813265e-7"],
    "f": ["1.0", "5.99832206555887937690e-1", "1.36929880922735805310e-1",
          "1.48753612908506148525e-2", "7.86869131145613259100e-4", "1.84631831751005468180e-5",
          "1.42151175831644588870e-7", "2.04426310338993978564e-15"],
}


def tail_err(num, den, shift, r_lo, r_hi, n=1500):
    worst = mp.mpf(0)
    for i in range(n + 1):
        r = r_lo + (r_hi - r_lo) * i / n
        t = mp.exp(-r * r)
        exact = -ndtri(t)
        approx = horner_mp([float(c) for c in num], r - shift) / horner_mp([float(c) for c in den], r - shift)
        worst = max(worst, abs(approx / exact - 1))
    return worst


R_MIN = mp.sqrt(-mp.log(mp.mpf("0.075")))
R_MAX = mp.sqrt(-mp.log(mp.mpf(2) ** -149))
err_tail1 = tail_err(AS241["c"], AS241["d"], mp.mpf("1.6"), R_MIN, mp.mpf(5))
err_tail2 = tail_err(AS241["e"], AS241["f"], mp.mpf(5), mp.mpf(5), R_MAX)
assert err_tail1 < 1e-15 and err_tail2 < 1e-15, (err_tail1, err_tail2)

# --- taskbook series ---------------------------------------------------------------------
d = [mp.mpf(1)]
for k in range(1, 24):
    d.append(sum(d[m] * d[k - 1 - m] / ((m + 1) * (2 * m + 1)) for m in range(k)))
series = [d[k] / (2 * k + 1) * (mp.sqrt(mp.pi) / 2) ** (2 * k + 1) for k in range(24)]
# Error of the exact 24-term series (before float rounding) at the region edge, as the spec says.
u_edge = mp.mpf("0.85")
series_err = abs(mp.sqrt(2) * u_edge * horner_mp(series, u_edge ** 2) / (mp.sqrt(2) * erfinv(u_edge)) - 1)

# --- log ------------------------------------------------------------------------------------
log_d = [mp.mpf(2) / (2 * j + 1) for j in range(1, 8)]    # 2/3 .. 2/15 (double kernel)
log_f = [mp.mpf(2) / (2 * j + 1) for j in range(1, 5)]    # 2/3 .. 2/9  (float kernel)


def arr(name, ctype, vals, fmt):
    # A function, not a variable: nvcc lets device code call a __host__ __device__ constexpr
    # function, but not read a host array.
    body = ",\n".join("      " + fmt(v) for v in vals)
    return (f"ACCELMATH_COEFFS std::array<{ctype}, {len(vals)}> {name}() {{\n"
            f"  return {{{{\n{body}}}}};\n}}\n")


emit("// Generated by tools/coeffs/ndtri.py: do not edit; regenerate with\n")
emit("//   python3 tools/coeffs/ndtri.py > src/kernels/ndtri_coeffs.h\n")
emit("// Every table lists the lowest-degree coefficient first.\n")
emit("#pragma once\n\n#include <array>\n\n")
emit("#if defined(__CUDACC__)\n#define ACCELMATH_COEFFS __host__ __device__ constexpr\n#else\n"
     "#define ACCELMATH_COEFFS constexpr\n#endif\n\nnamespace accelmath::coeffs {\n\n")
emit(f"// Default centre: g(w) = sqrt(2) erfinv(sqrt w)/sqrt w ~ P(w - kNdtriCentreShift), w = u^2 in [0, 0.7225];\n")
emit(f"// Chebyshev interpolant of degree {N_CENTRE - 1}; max relative error (doubles, exact arithmetic) "
     f"{mp.nstr(centre_err, 3)}.\n")
emit(f"inline constexpr double kNdtriCentreShift = {hexd(SHIFT)};\n")
emit(arr("kNdtriCentre", "double", centre, hexd))
emit(f"\n// AS241 (Wichura 1988) tail rationals in s = r - 1.6, r = sqrt(-ln t) in [{mp.nstr(R_MIN, 6)}, 5];\n")
emit(f"// max relative error (doubles, exact arithmetic) {mp.nstr(err_tail1, 3)}.\n")
emit(arr("kAs241NumA", "double", [mp.mpf(c) for c in AS241["c"]], hexd))
emit(arr("kAs241DenA", "double", [mp.mpf(c) for c in AS241["d"]], hexd))
emit(f"// ... and in s = r - 5, r in [5, {mp.nstr(R_MAX, 6)}] (t down to 2^-149); max relative error "
     f"{mp.nstr(err_tail2, 3)}.\n")
emit(arr("kAs241NumB", "double", [mp.mpf(c) for c in AS241["e"]], hexd))
emit(arr("kAs241DenB", "double", [mp.mpf(c) for c in AS241["f"]], hexd))
emit("// The same four tables rounded to float32, for the taskbook variant.\n")
for nm, key in (("NumA", "c"), ("DenA", "d"), ("NumB", "e"), ("DenB", "f")):
    emit(arr(f"kAs241{nm}F", "float", [mp.mpf(c) for c in AS241[key]], hexf))
emit(f"\n// Taskbook centre: 24 Maclaurin terms of erfinv, scaled (see the script); the exact series has\n")
emit(f"// relative error {mp.nstr(series_err, 3)} at |u| = 0.85. Rounded to float32.\n")
emit(arr("kTaskbookSeries", "float", series, hexf))
emit("\n// log(m) = 2s + s z P(z), z = s^2, P_j = 2/(2j+3), j = 0, 1, ...: double kernel (7 terms), float kernel (4 terms).\n")
emit(arr("kLogAtanh", "double", log_d, hexd))
emit(arr("kLogAtanhF", "float", log_f, hexf))
emit("\n// Constants (correctly rounded).\n")
emit(f"inline constexpr double kLn2 = {hexd(mp.log(2))};\n")
emit(f"inline constexpr float kLn2F = {hexf(mp.log(2))};\n")
emit(f"inline constexpr float k64Ln2F = {hexf(64 * mp.log(2))};  // ln(2^64), taskbook subnormal rescue\n")
emit(f"inline constexpr float kSqrt2F = {hexf(mp.sqrt(2))};\n")
emit("\n}  // namespace accelmath::coeffs\n")

sys.stdout.write("".join(out))
