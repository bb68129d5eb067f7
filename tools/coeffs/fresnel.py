#!/usr/bin/env python3
"""Regenerates src/kernels/fresnel_coeffs.h, every constant the Fresnel kernels use.

    python3 tools/coeffs/fresnel.py > src/kernels/fresnel_coeffs.h

Needs mpmath only. Deterministic: the same mpmath gives the same bytes (a CTest checks that the
committed header is what this script prints).

C(x) = int_0^x cos(pi t^2/2) dt, S(x) = int_0^x sin(pi t^2/2) dt; a = |x|, both odd.

Tables (lowest degree first; all are Chebyshev interpolants from mpmath.chebyfit, converted to
monomials and rounded to binary64; the script measures each one's error with the rounded
coefficients in exact arithmetic on a dense grid, asserts it, and prints it into the header)
  kFresnelCSeries   a <= kFresnelSeriesMax = 2.5: C(x) = x * P(w), w = x^4 in [0, 39.0625],
                    P ~ C(x)/x = sum_n (-1)^n (pi/2)^(2n) w^n / ((2n)! (4n+1)) (entire in w).
  kFresnelSSeries   S(x) = x^3 * Q(w), Q ~ S(x)/x^3 = sum_n (-1)^n (pi/2)^(2n+1) w^n / ((2n+1)! (4n+3)).
  kFresnelF, kFresnelG
                    a > 2.5: the auxiliary functions (A&S 7.3.5-7.3.10, DLMF 7.2.10)
                      f(a) = (1/2 - S(a)) cos(pi a^2/2) - (1/2 - C(a)) sin(pi a^2/2),
                      g(a) = (1/2 - C(a)) cos(pi a^2/2) + (1/2 - S(a)) sin(pi a^2/2),
                    so that C = 1/2 + f sin(pi a^2/2) - g cos(pi a^2/2),
                            S = 1/2 - f cos(pi a^2/2) - g sin(pi a^2/2);
                    fitted as F(v) = a f(a) and G(v) = a^3 g(a) in v = 1/a^2 in [0, 0.16]
                    (F(0) = 1/pi, G(0) = 1/pi^2: the limits of the asymptotic series
                    f ~ (1/(pi a)) sum_m (-1)^m (4m-1)!! / (pi a^2)^(2m),
                    g ~ (1/(pi^2 a^3)) sum_m (-1)^m (4m+1)!! / (pi a^2)^(2m), DLMF 7.12.2-3).
                    f, g are smooth (not analytic) at v = 0; a polynomial in v converges fast
                    on this interval. Their weights in C, S are 1/a <= 0.4 and 1/a^3 <= 0.064, so
                    the asserted absolute errors are 2.5e-13 (F) and 1.5e-12 (G): <= 1e-13 in C, S.
  kFresnelSinPi, kFresnelCosPi
                    b in [0, 1/2]: sin(pi b) = b * Ps(b^2), cos(pi b) = Pc(b^2) (absolute errors;
                    they multiply f <= 0.128 and g <= 0.0066).
Constants: the region bounds, 1.5 * 2^52 (the round-to-integer shift), 2^24 (from there on every
float32 a is an even integer: a^2/2 = 0 mod 2), 2^64 (a clamp for a: beyond it C and S are 1/2 to
within 2^-66, and +inf becomes finite there).
"""
import sys
import mpmath as mp

mp.mp.dps = 40

SERIES_MAX = mp.mpf("2.5")
W_MAX = SERIES_MAX ** 4          # 39.0625
V_MAX = 1 / SERIES_MAX ** 2      # 0.16
N_SERIES = 15
N_AUX = 12
N_SIN = 7
N_COS = 8


def hexd(x):
    return float(x).hex()


def horner_mp(coeffs, x):
    acc = mp.mpf(0)
    for c in reversed(coeffs):
        acc = acc * x + mp.mpf(c)
    return acc


def fit(fn, lo, hi, n):
    """Chebyshev interpolant of fn on [lo, hi] with n coefficients, monomials, lowest first, as doubles."""
    poly, _ = mp.chebyfit(fn, [lo, hi], n, error=True)
    return [float(c) for c in reversed(poly)]


def grid(lo, hi, n):
    return [lo + (hi - lo) * mp.mpf(i) / n for i in range(n + 1)]


# --- small a: series part ------------------------------------------------------------------
def c_over_x(w):
    if w == 0:
        return mp.mpf(1)
    x = mp.root(w, 4)
    return mp.fresnelc(x) / x


def s_over_x3(w):
    if w == 0:
        return mp.pi / 6
    x = mp.root(w, 4)
    return mp.fresnels(x) / x ** 3


c_series = fit(c_over_x, 0, W_MAX, N_SERIES)
s_series = fit(s_over_x3, 0, W_MAX, N_SERIES)


def rel_err(coeffs, fn, pts):
    return max(abs(horner_mp(coeffs, p) / fn(p) - 1) for p in pts)


def cond(coeffs, fn, pts):
    """max over the grid of sum |c_i w^i| / |P(w)|: how much the rounding errors of Horner/Estrin can grow."""
    return max(sum(abs(mp.mpf(c)) * p ** i for i, c in enumerate(coeffs)) / abs(fn(p)) for p in pts)


pts = grid(mp.mpf(0), W_MAX, 800)
err_c_series = rel_err(c_series, c_over_x, pts)
err_s_series = rel_err(s_series, s_over_x3, pts)
cond_c = cond(c_series, c_over_x, pts)
cond_s = cond(s_series, s_over_x3, pts)
assert err_c_series < 5e-13 and err_s_series < 5e-13, (err_c_series, err_s_series)


# --- large a: auxiliary functions ----------------------------------------------------------
def fg_asymptotic(a):
    """f(a), g(a) by the asymptotic series, optimally truncated (remainder ~ e^(-pi a^2/2))."""
    u = 1 / (mp.pi * a * a) ** 2
    fs, gs, tf, tg = mp.mpf(1), mp.mpf(1), mp.mpf(1), mp.mpf(1)
    for m in range(1, 400):
        nf = -tf * (4 * m - 3) * (4 * m - 1) * u
        ng = -tg * (4 * m - 1) * (4 * m + 1) * u
        if abs(nf) >= abs(tf) or abs(ng) >= abs(tg):
            break
        tf, tg = nf, ng
        fs += tf
        gs += tg
    return fs / (mp.pi * a), gs / (mp.pi ** 2 * a ** 3)


def fg(a):
    a = mp.mpf(a)
    if a > 12:  # remainder below e^-226: the series is exact to working precision
        return fg_asymptotic(a)
    c, s = mp.fresnelc(a), mp.fresnels(a)
    th = mp.pi * a * a / 2
    sn, cs = mp.sin(th), mp.cos(th)
    half = mp.mpf(1) / 2
    return (half - s) * cs - (half - c) * sn, (half - c) * cs + (half - s) * sn


def aux_f(v):
    if v == 0:
        return 1 / mp.pi
    a = 1 / mp.sqrt(v)
    return a * fg(a)[0]


def aux_g(v):
    if v == 0:
        return 1 / mp.pi ** 2
    a = 1 / mp.sqrt(v)
    return a ** 3 * fg(a)[1]


# Sanity: the two ways of computing f, g agree where both are valid.
for a in (mp.mpf(9), mp.mpf(12)):
    with mp.workdps(60):
        f1, g1 = fg_asymptotic(a)
        c, s = mp.fresnelc(a), mp.fresnels(a)
        th = mp.pi * a * a / 2
        f2 = (mp.mpf(1) / 2 - s) * mp.cos(th) - (mp.mpf(1) / 2 - c) * mp.sin(th)
        g2 = (mp.mpf(1) / 2 - c) * mp.cos(th) + (mp.mpf(1) / 2 - s) * mp.sin(th)
    assert abs(f1 / f2 - 1) < 1e-30 and abs(g1 / g2 - 1) < 1e-30, a

f_aux = fit(aux_f, 0, V_MAX, N_AUX)
g_aux = fit(aux_g, 0, V_MAX, N_AUX)
vpts = grid(mp.mpf(0), V_MAX, 600)
err_f = max(abs(horner_mp(f_aux, v) - aux_f(v)) for v in vpts)
err_g = max(abs(horner_mp(g_aux, v) - aux_g(v)) for v in vpts)
assert err_f < 2.5e-13 and err_g < 1.5e-12, (err_f, err_g)


# --- sin(pi b), cos(pi b) on [0, 1/2] --------------------------------------------------------
def sinpi_over_b(q):
    if q == 0:
        return mp.pi
    b = mp.sqrt(q)
    return mp.sin(mp.pi * b) / b


def cospi_q(q):
    return mp.cos(mp.pi * mp.sqrt(q))


Q_MAX = mp.mpf(1) / 4
sin_poly = fit(sinpi_over_b, 0, Q_MAX, N_SIN)
cos_poly = fit(cospi_q, 0, Q_MAX, N_COS)
qpts = grid(mp.mpf(0), Q_MAX, 600)
err_sin = max(abs(mp.sqrt(q) * (horner_mp(sin_poly, q) - sinpi_over_b(q))) for q in qpts)
err_cos = max(abs(horner_mp(cos_poly, q) - cospi_q(q)) for q in qpts)
assert err_sin < 1e-13 and err_cos < 1e-13, (err_sin, err_cos)


# --- the header -------------------------------------------------------------------------------
out = []
emit = out.append


def arr(name, ctype, vals, fmt):
    # A function, not a variable: nvcc lets device code call a __host__ __device__ constexpr
    # function, but not read a host array.
    body = ",\n".join("      " + fmt(v) for v in vals)
    return (f"ACCELMATH_COEFFS std::array<{ctype}, {len(vals)}> {name}() {{\n"
            f"  return {{{{\n{body}}}}};\n}}\n")


def e3(x):
    return mp.nstr(x, 3)


emit("// Generated by tools/coeffs/fresnel.py: do not edit; regenerate with\n")
emit("//   python3 tools/coeffs/fresnel.py > src/kernels/fresnel_coeffs.h\n")
emit("// Every table lists the lowest-degree coefficient first. Errors: the rounded (binary64)\n")
emit("// coefficients in exact arithmetic, on a dense grid.\n")
emit("#pragma once\n\n#include <array>\n\n")
emit("#if defined(__CUDACC__)\n#define ACCELMATH_COEFFS __host__ __device__ constexpr\n#else\n"
     "#define ACCELMATH_COEFFS constexpr\n#endif\n\nnamespace accelmath::coeffs {\n\n")
emit(f"// |x| <= kFresnelSeriesMax: C(x) = x P(x^4), S(x) = x^3 Q(x^4), w = x^4 in [0, {e3(W_MAX)}]; degree {N_SERIES - 1}.\n")
emit(f"// Max relative error: P {e3(err_c_series)}, Q {e3(err_s_series)}; sum |c_i w^i| / |P(w)| <= {e3(cond_c)},\n")
emit(f"// for Q <= {e3(cond_s)} (the growth of the evaluation's rounding errors).\n")
emit(f"inline constexpr double kFresnelSeriesMax = {hexd(SERIES_MAX)};\n")
emit(arr("kFresnelCSeries", "double", c_series, hexd))
emit(arr("kFresnelSSeries", "double", s_series, hexd))
emit(f"\n// |x| > kFresnelSeriesMax: f(a) = F(v) / a, g(a) = G(v) / a^3, v = 1/a^2 in [0, {e3(V_MAX)}]; degree {N_AUX - 1}.\n")
emit(f"// Max absolute error: F {e3(err_f)} (F(0) = 1/pi), G {e3(err_g)} (G(0) = 1/pi^2).\n")
emit(arr("kFresnelF", "double", f_aux, hexd))
emit(arr("kFresnelG", "double", g_aux, hexd))
emit(f"\n// b in [0, 1/2], q = b^2: sin(pi b) = b Ps(q), cos(pi b) = Pc(q); degrees {N_SIN - 1}, {N_COS - 1}.\n")
emit(f"// Max absolute error: sin {e3(err_sin)}, cos {e3(err_cos)}.\n")
emit(arr("kFresnelSinPi", "double", sin_poly, hexd))
emit(arr("kFresnelCosPi", "double", cos_poly, hexd))
emit("\n// Round-to-integer shift: t + 1.5 2^52 rounds t (|t| < 2^51) to an integer, ties to even.\n")
emit(f"inline constexpr double kFresnelRoundShift = {hexd(mp.mpf(3) * 2 ** 51)};\n")
emit("// From a = 2^24 on every float32 a is an even integer: a^2/2 = 0 mod 2 (the phase is 0).\n")
emit(f"inline constexpr double kFresnelPhaseZeroFrom = {hexd(mp.mpf(2) ** 24)};\n")
emit("// a is clamped to 2^64 (also +inf): C and S are within 2^-66 of 1/2 there, rounded to 1/2.\n")
emit(f"inline constexpr double kFresnelClamp = {hexd(mp.mpf(2) ** 64)};\n")
emit("\n}  // namespace accelmath::coeffs\n")

sys.stdout.write("".join(out))
