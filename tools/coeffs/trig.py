#!/usr/bin/env python3
"""Regenerates src/kernels/trig_coeffs.h, every constant the trig kernels use.

    python3 tools/coeffs/trig.py > src/kernels/trig_coeffs.h

Needs mpmath only. Deterministic (a CTest checks that the committed header is what this script
prints). sin, cos, tan (and sincos) run in float32 lanes (registry eval F32) where every lane of a
vector has |x| < kTrigF32Limit (the float32 fast path, kTrigF32*, kSinF32Poly, kCosF32Poly), otherwise
in binary64 lanes (the constants below); sinpi, cospi, tanpi in binary64 lanes (eval F64).

sin, cos (kSinPoly): x = j pi/2 + r with j even for sin, odd for cos (nearest such integer to
  x 2/pi), |r| <= pi/2 (1 + margin); sin(x) = +-sin(r), cos(x) = +-sin(r); one odd polynomial
  sin(r) = r + r z P(z), z = r^2.
tan (kTanSinPoly, kTanCosPoly): x = j pi/2 + r, j the nearest integer, |r| <= pi/4 (1 + margin);
  tan(x) = S(r)/C(r) (j even) or -C(r)/S(r) (j odd), S(r) = r + r z P(z), C(r) = 1 + z Q(z).
Reduction of float32 x with |x| < 2^kTrigFastExp (kTrigFastLimit): Cody-Waite in binary64,
  r = ((x - j C1) - j C2) - j C3 by three fmas, C1 + C2 + C3 = pi/2 (each the rounding of what is
  left, C2 towards zero so that C3 > 0); the first fma is exact (asserted below), the other two
  round a value within 2^-53 relative of r; |j| < 2^(kTrigFastExp + 1).
  Larger |x|: Payne-Hanek. x = m 2^e, m a 24-bit integer; x 2/pi mod 4 = m T_e mod 4 with
  T_e = (2^e 2/pi) mod 4 = c0 + c1 + c2 + (tail < 2^-157): c0 the bits of weight 2^1..2^-51,
  c1 those of 2^-52..2^-104, c2 those of 2^-105..2^-157 (kTrigPH0/1/2, indexed by the biased
  binary64 exponent of x minus kTrigPHBias). m c0 and m c1 are split exactly into hi + lo by
  fma (two-products), m c2 is rounded (below 2^-80), the tail costs < 2^-133: x 2/pi is
  known mod 4 to 2^-132 absolute, while the fraction f (x 2/pi minus the nearest integer) is at
  least kTrigMinFrac for every float32 x (computed below from continued fractions): a relative
  error below 2^-100 in f.
sinpi, cospi (kSinPi*, kCosPi*): correctly rounded. x = n/2 + r exactly (n = rint(2x), |r| <= 1/4,
  r has at most 24 significant bits so z = r^2 is exact). sin(pi r) = r (S1 + S3 z + z^2 P(z)),
  cos(pi r) = 1 + C2 z + z^2 Q(z), S1 = pi, S3 = -pi^3/6, C2 = -pi^2/2 each as hi + lo
  (double-double); the kernels keep the result as hi + lo and round it to odd in binary64 before
  the final rounding to float32 (no double rounding).
tanpi (kTanPiSinPoly, kTanPiCosPoly): the same reduction, plain binary64 polynomials,
  sin(pi r) = r (S1 + z P(z)), cos(pi r) = 1 + z Q(z).
Each polynomial's coefficients: weighted least squares (weight: the reciprocal of the function, so
relative error) on Chebyshev nodes in z, fixed one at a time (each rounded to binary64, the later
ones refitted around it); the max relative error of the whole approximation with these rounded
coefficients, evaluated exactly, is measured on a dense grid, printed in the header and asserted.
"""
import math
import sys
import mpmath as mp

mp.mp.prec = 300
PI = +mp.pi
TWO_OVER_PI = 2 / PI


def d64(x):
    """x rounded to nearest binary64 (a Python float)."""
    with mp.workprec(53):
        return float(+mp.mpf(x))


def hexd(x):
    return float(x).hex()


def lg(x):
    return mp.nstr(mp.log(abs(x), 2), 4) if x != 0 else "-inf"


out = []
emit = out.append


def arr(name, vals, per_line=2):
    body = ",\n".join("      " + ", ".join(hexd(v) for v in vals[i:i + per_line])
                      for i in range(0, len(vals), per_line))
    return (f"ACCELMATH_COEFFS std::array<double, {len(vals)}> {name}() {{\n"
            f"  return {{{{\n{body}}}}};\n}}\n")


def f32(x):
    """x rounded to nearest binary32 (a Python float; normal range)."""
    with mp.workprec(24):
        return float(+mp.mpf(x))


def hexf(x):
    """A C++ float literal, exact (x is a float32 value)."""
    assert f32(x) == x
    m, e = float(x).hex().split("p")
    m = m.rstrip("0").rstrip(".")
    return f"{m}p{e}f"


def arrf(name, vals):
    body = ",\n".join("      " + hexf(v) for v in vals)
    return (f"ACCELMATH_COEFFS std::array<float, {len(vals)}> {name}() {{\n"
            f"  return {{{{\n{body}}}}};\n}}\n")


def fit(g, w, zmax, n, npts=120, rnd=d64):
    """Binary64 (rnd=f32: binary32) coefficients c_0..c_{n-1} of sum c_j z^j ~ g(z) on [0, zmax],
    minimising sum ((sum c_j z^j - g(z)) w(z))^2 over Chebyshev nodes, fixed one at a time (c_i
    rounded, the later ones refitted around it)."""
    zmax = mp.mpf(zmax)
    pts = [zmax * (1 + mp.cos(mp.pi * (i + mp.mpf(1) / 2) / npts)) / 2 for i in range(npts)]
    fixed = []
    for i in range(n):
        A = mp.matrix(npts, n - i)
        b = mp.matrix(npts, 1)
        for row, z in enumerate(pts):
            wz = w(z)
            b[row] = (g(z) - mp.fsum(c * z ** j for j, c in enumerate(fixed))) * wz
            for col, j in enumerate(range(i, n)):
                A[row, col] = (z / zmax) ** j * wz
        sol = mp.qr_solve(A, b)[0]
        fixed.append(rnd(sol[0] / zmax ** i))
    return fixed


def poly(c, z):
    acc = mp.mpf(0)
    for v in reversed(c):
        acc = acc * z + mp.mpf(v)
    return acc


def maxrel(approx, exact, R, n=3000):
    return max(abs(approx(r) / exact(r) - 1) for r in (R * i / n for i in range(1, n + 1)))


def sqrt_or(z, f, f0):
    return f(mp.sqrt(z)) if z > 0 else f0


# ---- Cody-Waite constants ---------------------------------------------------------------------------
# pi/2 = C1 + C2 + (< 2^-107): binary64 roundings of what is left. Both positive: the steps
# r - j Ci keep r = -0 for x = -0 (j = +0: -(+0 Ci) = -0), so sin(-0) and tan(-0) are -0.
C1 = d64(PI / 2)
C2 = d64(PI / 2 - C1)
assert C1 > 0 and C2 > 0
CW_TAIL = abs(PI / 2 - C1 - C2)
INV_PIO2 = d64(TWO_OVER_PI)
SHIFT52 = 1.5 * 2.0 ** 52   # t + SHIFT52 rounds |t| < 2^51 to an integer (ties to even)
SHIFT53 = 1.5 * 2.0 ** 53   # t + SHIFT53 rounds |t| < 2^52 to an even integer (its ulp is 2)
FAST_EXP = 32               # the Cody-Waite path serves |x| < 2^FAST_EXP
FAST_LIMIT = 2.0 ** FAST_EXP
# j: the integer (even for sin, odd for cos, any for tan) nearest to x INV_PIO2 (the fma rounds the
# exact product); x INV_PIO2 differs from x 2/pi by at most 2^FAST_EXP |INV_PIO2 - 2/pi|, so
# |x 2/pi - j| <= 1 + that (sin, cos) or 1/2 + that (tan).
J_SLACK = FAST_LIMIT * abs(INV_PIO2 - TWO_OVER_PI)
assert J_SLACK < mp.mpf(2) ** -20
J_MAX = FAST_LIMIT * TWO_OVER_PI + 2  # |j| bound
# x - j C1 is exact: for j != 0 x >= pi/4 is a multiple of 2^-24, j C1 of 2^-52, and
# |x - j C1| <= |x - j pi/2| + |j| |pi/2 - C1| < 2 (so it has at most 53 significant bits).
assert (mp.pi / 2) * (1 + J_SLACK) + J_MAX * abs(PI / 2 - C1) < 2
# the second fma rounds r + j (pi/2 - C1 - C2): |j| CW_TAIL < 2^-74, against |r| >= kTrigMinFrac pi/2
# (below) where j != 0: r within 2^-44 relative (asserted below), 2^-20 float32 ulp.
CW_ABS = J_MAX * CW_TAIL

# ---- smallest reduced argument over all float32 x (continued fractions) ---------------------------------
# f(x) = distance of x 2/pi to the nearest integer; for x = m 2^e (m < 2^24): f = ||m alpha_e||,
# alpha_e = (2^e 2/pi) mod 1. For m below the first convergent denominator q_{k+1} >= 2^24,
# ||m alpha|| >= ||q_k alpha|| (best approximations): a lower bound of f for every float32 x with
# that exponent. Floats below pi/4 have j = 0 and r = x exactly.
def min_frac(alpha):
    a = alpha
    p0, q0, p1, q1 = 0, 1, 1, 0  # convergents p/q
    best = None
    while True:
        ai = int(mp.floor(a))
        p0, q0, p1, q1 = p1, q1, ai * p1 + p0, ai * q1 + q0
        if q1 >= 2 ** 24:
            return best
        if q1 >= 1:
            best = abs(q1 * alpha - p1)
        frac = a - ai
        if frac == 0:
            return mp.mpf(0)
        a = 1 / frac


MIN_FRAC = None
for E in range(-1, 128):  # float32 exponents of x >= 0.5 (x >= pi/4 needs E >= -1)
    e = E - 23
    t = mp.ldexp(TWO_OVER_PI, e)
    alpha = t - mp.floor(t)
    mf = min_frac(alpha)
    MIN_FRAC = mf if MIN_FRAC is None else min(MIN_FRAC, mf)
assert MIN_FRAC > mp.mpf(2) ** -40
CW_REL = CW_ABS / (MIN_FRAC * PI / 2)
assert CW_REL < mp.mpf(2) ** -44, CW_REL

# ---- Payne-Hanek tables ------------------------------------------------------------------------------
# Rows for float32 exponents E = FAST_EXP..127 (x = m 2^(E - 23)), indexed by the biased binary64
# exponent minus PH_BIAS.
PH_BIAS = 1023 + FAST_EXP
PH0, PH1, PH2 = [], [], []
for E in range(FAST_EXP, 128):
    with mp.workprec(600):
        T = mp.ldexp(2 / mp.pi, E - 23)
        T = T - 4 * mp.floor(T / 4)
        c0 = mp.floor(mp.ldexp(T, 51)) / mp.mpf(2) ** 51
        c1 = mp.floor(mp.ldexp(T - c0, 104)) / mp.mpf(2) ** 104
        c2 = mp.floor(mp.ldexp(T - c0 - c1, 157)) / mp.mpf(2) ** 157
        assert 0 <= T - c0 - c1 - c2 < mp.mpf(2) ** -157
        for c in (c0, c1, c2):
            assert float(c) == c  # 53 significant bits at most
        PH0.append(float(c0))
        PH1.append(float(c1))
        PH2.append(float(c2))
# Error of f: truncation (m tail < 2^-133), m c2 rounded (< 2^-133), the low sum (~2^-53 of
# ulp(f)): far below 2^-100 relative for f >= MIN_FRAC.
assert mp.mpf(2) ** -131 / MIN_FRAC < mp.mpf(2) ** -90

# ---- polynomials ---------------------------------------------------------------------------------------
MARGIN = 1 + mp.mpf(2) ** -20
R_SIN = PI / 2 * MARGIN
N_SIN = 5
SinP = [1.0] + fit(lambda z: sqrt_or(z, lambda r: (mp.sin(r) - r) / r ** 3, -mp.mpf(1) / 6),
                   lambda z: sqrt_or(z, lambda r: r ** 3 / mp.sin(r), 1), R_SIN ** 2, N_SIN)
err_sin = maxrel(lambda r: r * poly(SinP, r * r), mp.sin, R_SIN)
assert err_sin < 2 ** -35, err_sin

R_TAN = PI / 4 * MARGIN
N_TANS, N_TANC = 4, 5
TanS = [1.0] + fit(lambda z: sqrt_or(z, lambda r: (mp.sin(r) - r) / r ** 3, -mp.mpf(1) / 6),
           lambda z: sqrt_or(z, lambda r: r ** 3 / mp.sin(r), 1), R_TAN ** 2, N_TANS)
TanC = fit(lambda z: sqrt_or(z, lambda r: (mp.cos(r) - 1) / r ** 2, -mp.mpf(1) / 2),
           lambda z: z / mp.cos(mp.sqrt(z)), R_TAN ** 2, N_TANC)
err_tans = maxrel(lambda r: r * poly(TanS, r * r), mp.sin, R_TAN)
err_tanc = maxrel(lambda r: 1 + r ** 2 * poly(TanC, r * r), mp.cos, R_TAN)
assert err_tans < 2 ** -37 and err_tanc < 2 ** -43, (err_tans, err_tanc)

# ---- float32 fast path of sin, cos, tan: |x| < kTrigF32Limit, float32 lanes ----------------------------
# On a = |x| (sin and tan are odd, cos even: the sign of x is put back last; every step is symmetric
# under x -> -x except for the signs of zeros). kd = a c + 1.5 2^23 (c = 2/pi rounded to float32, one
# fma) holds k = rint(a c) in its low mantissa bits, 0 <= k <= F_KMAX; |a 2/pi - k| <= 1/2 + F_SLACK.
# r = a - k pi/2 = hi + lo:
#   r1 = a - k P1 (one fma, exact: k >= 1 needs a c > 1/2, so a > 0.78 is a multiple of 2^-24; P1 =
#     pi/2 rounded to float32 is a multiple of 2^-23; |r1| <= |r| + F_KMAX |P1 - pi/2| < 1: a multiple
#     of 2^-24 below 1 has at most 24 bits; k = 0 gives r1 = a);
#   p = k P2 exact (P2: pi/2 - P1 rounded to F_P2_BITS bits, k at most F_KBITS bits);
#   hi = r1 - p, lo = (r1 - hi) - p: hi + lo = r1 - p exactly, by Fast2Sum where |r1| >= |p|; where
#     |r1| < |p|, r1 - p is a multiple of ulp(P2) (so is r1) below 2 |p| < 2^24 ulp(P2): exact, so hi =
#     r1 - p, r1 - hi = p and lo = 0;
#   lo = lo - k P3 (one fma; P3 = pi/2 - P1 - P2 rounded to float32).
# Error of hi + lo: k (pi/2 - P1 - P2 - P3) and the last fma's rounding (2^-24 |lo|, |lo| <= 2^-24 |hi|
# + F_KMAX |P3|), against |r| >= F_RMIN where k != 0 (the continued-fraction bound above, over the float32
# exponents below F_EXP): F_REDREL relative.
F_EXP = 8
F_LIMIT = 2.0 ** F_EXP
F_INV = f32(TWO_OVER_PI)
F_SHIFT = 1.5 * 2.0 ** 23
F_SLACK = F_LIMIT * abs(F_INV - TWO_OVER_PI)
F_KMAX = int(mp.floor(F_LIMIT * F_INV * (1 + mp.mpf(2) ** -23) + mp.mpf(1) / 2))
F_KBITS = F_KMAX.bit_length()
F_P2_BITS = 24 - F_KBITS - 1
F_P1 = f32(PI / 2)
F_P2_EXACT = PI / 2 - F_P1
with mp.workprec(F_P2_BITS):
    F_P2 = float(+F_P2_EXACT)
F_P3 = f32(PI / 2 - F_P1 - F_P2)
F_TAIL = abs(PI / 2 - F_P1 - F_P2 - F_P3)
F_P2_ULP = mp.mpf(2) ** (mp.floor(mp.log(abs(F_P2), 2)) - F_P2_BITS + 1)
assert F_SLACK < mp.mpf(2) ** -16
assert mp.mpf(0.5) / F_INV > 0.5                       # k >= 1 only where a >= 1/2
assert F_P1 * 2 ** 23 == int(F_P1 * 2 ** 23)            # P1 a multiple of 2^-23
assert PI / 4 * (1 + 2 * F_SLACK) + F_KMAX * abs(F_P1 - PI / 2) < 1  # r1 below 1: exact
assert F_KBITS + F_P2_BITS <= 24                       # k P2 exact
assert mp.mpf(2) ** -24 / F_P2_ULP == int(mp.mpf(2) ** -24 / F_P2_ULP)  # r1 a multiple of ulp(P2)
assert 2 * F_KMAX * abs(F_P2) <= 2 ** 24 * F_P2_ULP    # |r1| < |p|: r1 - p exact
MIN_FRAC_F = None
for E in range(-1, F_EXP):
    t = mp.ldexp(TWO_OVER_PI, E - 23)
    mf = min_frac(t - mp.floor(t))
    MIN_FRAC_F = mf if MIN_FRAC_F is None else min(MIN_FRAC_F, mf)
F_RMIN = MIN_FRAC_F * PI / 2
F_REDREL = (F_KMAX * F_TAIL + mp.mpf(2) ** -24 * (mp.mpf(2) ** -24 * F_RMIN + F_KMAX * abs(F_P3))) / F_RMIN
assert F_REDREL < mp.mpf(2) ** -27, F_REDREL
# sin(r) = hi + (lo (1 - z/2) + hi z P(z)), cos(r) = 1 - z/2 + z^2 Q(z) - hi lo, z = hi^2 (kernels: the
# roundings), |r| <= pi/4 (1 + 2 F_SLACK): P, Q with float32 coefficients.
F_R = PI / 4 * (1 + 2 * F_SLACK)
N_SINF, N_COSF = 4, 3
SinFP = fit(lambda z: sqrt_or(z, lambda r: (mp.sin(r) - r) / r ** 3, -mp.mpf(1) / 6),
            lambda z: sqrt_or(z, lambda r: r ** 3 / mp.sin(r), 1), F_R ** 2, N_SINF, rnd=f32)
CosFQ = fit(lambda z: sqrt_or(z, lambda r: (mp.cos(r) - 1 + r * r / 2) / r ** 4, mp.mpf(1) / 24),
            lambda z: z * z / mp.cos(mp.sqrt(z)), F_R ** 2, N_COSF, rnd=f32)
err_sinf = maxrel(lambda r: r + r ** 3 * poly(SinFP, r * r), mp.sin, F_R)
err_cosf = maxrel(lambda r: 1 - r * r / 2 + r ** 4 * poly(CosFQ, r * r), mp.cos, F_R)
assert err_sinf < 2 ** -30 and err_cosf < 2 ** -30, (err_sinf, err_cosf)

# sinpi, cospi: |r| <= 1/4; S1, S3, C2 as hi + lo.
R_PI = mp.mpf(1) / 4
S1H = d64(PI)
S1L = d64(PI - S1H)
S3 = -PI ** 3 / 6
S3H = d64(S3)
S3L = d64(S3 - S3H)
CP2 = -PI ** 2 / 2
C2H = d64(CP2)
C2L = d64(CP2 - C2H)
N_SINPI, N_COSPI = 6, 7
S1 = mp.mpf(S1H) + S1L
S3d = mp.mpf(S3H) + S3L
C2d = mp.mpf(C2H) + C2L
SinPiP = fit(lambda z: sqrt_or(z, lambda r: (mp.sin(PI * r) / r - S1 - S3d * r * r) / r ** 4, PI ** 5 / 120),
             lambda z: sqrt_or(z, lambda r: r ** 5 / mp.sin(PI * r), 1), R_PI ** 2, N_SINPI)
CosPiP = fit(lambda z: sqrt_or(z, lambda r: (mp.cos(PI * r) - 1 - C2d * r * r) / r ** 4, PI ** 4 / 24),
             lambda z: z * z / mp.cos(PI * mp.sqrt(z)), R_PI ** 2, N_COSPI)
err_sinpi = maxrel(lambda r: r * (S1 + S3d * r * r + r ** 4 * poly(SinPiP, r * r)), lambda r: mp.sin(PI * r), R_PI)
err_cospi = maxrel(lambda r: 1 + C2d * r * r + r ** 4 * poly(CosPiP, r * r), lambda r: mp.cos(PI * r), R_PI)
assert err_sinpi < 2 ** -66 and err_cospi < 2 ** -66, (err_sinpi, err_cospi)

N_TANPIS, N_TANPIC = 5, 5
TanPiS = fit(lambda z: sqrt_or(z, lambda r: mp.sin(PI * r) / r, PI),
             lambda z: sqrt_or(z, lambda r: r / mp.sin(PI * r), 1 / PI), R_PI ** 2, N_TANPIS)
TanPiC = fit(lambda z: sqrt_or(z, lambda r: (mp.cos(PI * r) - 1) / r ** 2, -PI ** 2 / 2),
             lambda z: z / mp.cos(PI * mp.sqrt(z)), R_PI ** 2, N_TANPIC)
err_tanpis = maxrel(lambda r: r * poly(TanPiS, r * r), lambda r: mp.sin(PI * r), R_PI)
err_tanpic = maxrel(lambda r: 1 + r * r * poly(TanPiC, r * r), lambda r: mp.cos(PI * r), R_PI)
assert err_tanpis < 2 ** -36 and err_tanpic < 2 ** -36, (err_tanpis, err_tanpic)

# sinpi, cospi, fast path: sin(pi r) = r Q(z) on |r| <= 1/2 (one polynomial: cospi(x) = sinpi(x + 1/2),
# x + 1/2 exact in binary64). Its result y (binary64) is within E |y| of sin(pi r), E = the
# polynomial's error plus the evaluation's roundings (z, 6 fmas, 1 product: below 12 2^-53); y
# rounds to float32 correctly unless it lies within E |y| < E 2^53 ulp(y) of a float32 midpoint:
# kernels test the low 29 bits of bits(y) against the midpoint pattern 2^28 with a window of
# SINPI_WINDOW binary64 ulps, and evaluate the vector by the correctly rounded path if a lane is
# in it (about 2^-17 of the lanes).
N_SINPIF = 7
SinPiF = fit(lambda z: sqrt_or(z, lambda r: mp.sin(PI * r) / r, PI),
             lambda z: sqrt_or(z, lambda r: r / mp.sin(PI * r), 1 / PI), mp.mpf(1) / 4, N_SINPIF)
err_sinpif = maxrel(lambda r: r * poly(SinPiF, r * r), lambda r: mp.sin(PI * r), mp.mpf(1) / 2)
E_SINPIF = err_sinpif + 12 * mp.mpf(2) ** -53
SINPI_WINDOW = 2 ** int(mp.ceil(mp.log(E_SINPIF * 2 ** 53 * 2, 2)))
assert SINPI_WINDOW <= 2 ** 12, SINPI_WINDOW

# ---- header ---------------------------------------------------------------------------------------------
emit("// Generated by tools/coeffs/trig.py: do not edit; regenerate with\n")
emit("//   python3 tools/coeffs/trig.py > src/kernels/trig_coeffs.h\n")
emit("// Every polynomial lists the lowest-degree coefficient first. Errors: max relative error of the\n")
emit("// approximation with these binary64 coefficients, evaluated exactly, on its interval.\n")
emit("#pragma once\n\n#include <array>\n#include <cstdint>\n\n")
emit("#ifndef ACCELMATH_COEFFS\n#if defined(__CUDACC__)\n#define ACCELMATH_COEFFS __host__ __device__ constexpr\n#else\n"
     "#define ACCELMATH_COEFFS constexpr\n#endif\n#endif\n\nnamespace accelmath::coeffs {\n\n")

emit("// ---- reduction of x by pi/2 (sin, cos, tan) ----\n")
emit("// t + kTrigShift52 rounds |t| < 2^51 to an integer (ties to even), held in the low mantissa bits.\n")
emit(f"inline constexpr double kTrigShift52 = {hexd(SHIFT52)};\n")
emit("// t + kTrigShift53 rounds |t| < 2^52 to an even integer 2i (its ulp is 2); bit 0 of its bits is i mod 2.\n")
emit(f"inline constexpr double kTrigShift53 = {hexd(SHIFT53)};\n")
emit(f"inline constexpr double kTrigInvPio2 = {hexd(INV_PIO2)};  // 2/pi rounded\n")
emit("// pi/2 = C1 + C2 + (" + f"{mp.nstr(CW_TAIL, 3)}" + "), both rounded to nearest and positive (so -0 stays -0). For\n"
     f"// |x| < kTrigFastLimit: |j| < 2^{FAST_EXP + 1}, x - j C1 is exact (a multiple of 2^-52 below 2), and the second fma\n"
     f"// rounds r + (< 2^{lg(CW_ABS)}): r within 2^{lg(CW_REL)} relative of x - j pi/2 (|r| >= kTrigMinFrac pi/2 where j != 0).\n")
emit(f"inline constexpr double kTrigPio2C1 = {hexd(C1)};\n")
emit(f"inline constexpr double kTrigPio2C2 = {hexd(C2)};\n")
emit(f"// The Cody-Waite path serves |x| < 2^{FAST_EXP}; there x 2/pi rounded is off by at most {mp.nstr(J_SLACK, 3)}\n"
     f"// (2^{lg(J_SLACK)}), so |r| <= pi/2 (1 + 2^-20) (sin, cos) and pi/4 (1 + 2^-20) (tan).\n")
emit(f"inline constexpr int kTrigFastExp = {FAST_EXP};\n")
emit(f"inline constexpr double kTrigFastLimit = {hexd(FAST_LIMIT)};\n")
emit(f"// Over every float32 x >= pi/4, x 2/pi is at least {mp.nstr(MIN_FRAC, 4)} (2^{lg(MIN_FRAC)}) away from an integer\n"
     f"// (continued-fraction bound): |r| >= {mp.nstr(MIN_FRAC * PI / 2, 4)} wherever j != 0.\n")
emit(f"inline constexpr double kTrigMinFrac = {hexd(d64(MIN_FRAC))};\n")
emit("\n// ---- Payne-Hanek (|x| >= kTrigFastLimit): x = m 2^(E - 23), m a 24-bit integer ----\n")
emit(f"// Row E - {FAST_EXP} (= biased binary64 exponent of x - kTrigPHBias), E = {FAST_EXP}..127: (2^(E - 23) 2/pi) mod 4 =\n"
     "// kTrigPH0 + kTrigPH1 + kTrigPH2 + (< 2^-157); PH0 holds the bits of weight 2^1..2^-51, PH1 2^-52..2^-104,\n"
     "// PH2 2^-105..2^-157 (each at most 53 bits: m PH0, m PH1 split exactly by fma).\n")
emit(f"inline constexpr int kTrigPHBias = {PH_BIAS};\n")
emit(f"inline constexpr int kTrigPHRows = {len(PH0)};\n")
emit(arr("kTrigPH0", PH0))
emit(arr("kTrigPH1", PH1))
emit(arr("kTrigPH2", PH2))
emit("// pi/2 = kTrigPio2C1 + kTrigPio2C2 (+ 2^" + lg(PI / 2 - C1 - C2) + "): r = f pi/2 for the fraction f = fh + fl.\n")

emit("\n// ---- polynomials of sin, cos, tan ----\n")
emit(f"// sin(r) = r Q(z), z = r^2, |r| <= pi/2 (1 + 2^-20) = {mp.nstr(R_SIN, 10)}; degree {2 * N_SIN + 1}; max relative\n"
     f"// error {mp.nstr(err_sin, 3)} (2^{lg(err_sin)}).\n")
emit(arr("kSinPoly", SinP, 1))
emit(f"// tan: S(r) = r Q(z) (rel. error {mp.nstr(err_tans, 3)}, 2^{lg(err_tans)}) and C(r) = 1 + z Q(z) (rel. error\n"
     f"// {mp.nstr(err_tanc, 3)}, 2^{lg(err_tanc)}) on |r| <= pi/4 (1 + 2^-20) = {mp.nstr(R_TAN, 10)}.\n")
emit(arr("kTanSinPoly", TanS, 1))
emit(arr("kTanCosPoly", TanC, 1))

emit("\n// ---- float32 fast path of sin, cos, tan (float32 lanes, |x| < kTrigF32Limit) ----\n")
emit(f"// On a = |x|: k = rint(a c) (kd = a c + kTrigF32Shift, c = kTrigF32InvPio2 = 2/pi rounded to float32), 0 <= k <= {F_KMAX},\n"
     f"// |a 2/pi - k| <= 1/2 + 2^{lg(F_SLACK)}. r = a - k pi/2 = hi + lo: r1 = a - k P1 (one fma, exact), p = k P2 (exact: P2 has\n"
     f"// {F_P2_BITS} bits, k {F_KBITS}), hi = r1 - p, lo = (r1 - hi) - p (exact: Fast2Sum, or r1 - p exact where |r1| < |p|), lo -= k P3\n"
     f"// (one fma). pi/2 - P1 - P2 - P3 = {mp.nstr(PI / 2 - F_P1 - F_P2 - F_P3, 3)}; |r| >= 2^{lg(F_RMIN)} where k != 0 (continued\n"
     f"// fractions, float32 exponents below {F_EXP}): hi + lo within 2^{lg(F_REDREL)} relative of r.\n")
emit(f"inline constexpr float kTrigF32Limit = {hexf(F_LIMIT)};\n")
emit(f"inline constexpr float kTrigF32Shift = {hexf(F_SHIFT)};\n")
emit(f"inline constexpr float kTrigF32InvPio2 = {hexf(F_INV)};\n")
emit(f"inline constexpr float kTrigF32P1 = {hexf(F_P1)};\n")
emit(f"inline constexpr float kTrigF32P2 = {hexf(F_P2)};\n")
emit(f"inline constexpr float kTrigF32P3 = {hexf(F_P3)};\n")
emit(f"// sin(r) = r + r^3 P(z), z = r^2, |r| <= pi/4 (1 + 2^{lg(2 * F_SLACK)}) = {mp.nstr(F_R, 10)}: max relative error\n"
     f"// {mp.nstr(err_sinf, 3)} (2^{lg(err_sinf)}).\n")
emit(arrf("kSinF32Poly", SinFP))
emit(f"// cos(r) = 1 - z/2 + z^2 Q(z): max relative error {mp.nstr(err_cosf, 3)} (2^{lg(err_cosf)}).\n")
emit(arrf("kCosF32Poly", CosFQ))
emit("\n// ---- sinpi, cospi (correctly rounded), |r| <= 1/4 ----\n")
emit("// sin(pi r) = r (S1 + S3 z + z^2 P(z)), cos(pi r) = 1 + C2 z + z^2 Q(z), z = r^2; S1 = pi, S3 = -pi^3/6,\n"
     "// C2 = -pi^2/2, each as Hi + Lo (the binary64 rounding and that of the rest).\n")
for nm, v in (("kSinPiS1Hi", S1H), ("kSinPiS1Lo", S1L), ("kSinPiS3Hi", S3H), ("kSinPiS3Lo", S3L),
              ("kCosPiC2Hi", C2H), ("kCosPiC2Lo", C2L)):
    emit(f"inline constexpr double {nm} = {hexd(v)};\n")
emit(f"// P: degree {N_SINPI - 1} in z, max relative error of the whole sin(pi r) {mp.nstr(err_sinpi, 3)} (2^{lg(err_sinpi)}).\n")
emit(arr("kSinPiPoly", SinPiP, 1))
emit(f"// Q: degree {N_COSPI - 1} in z, max relative error of the whole cos(pi r) {mp.nstr(err_cospi, 3)} (2^{lg(err_cospi)}).\n")
emit(arr("kCosPiPoly", CosPiP, 1))
emit(f"// Fast path (sinpi and cospi): sin(pi r) = r Q(z) on |r| <= 1/2, degree {2 * N_SINPIF - 1}; max relative error\n"
     f"// {mp.nstr(err_sinpif, 3)} (2^{lg(err_sinpif)}); with the evaluation's roundings below {mp.nstr(E_SINPIF, 3)} (2^{lg(E_SINPIF)}).\n")
emit(arr("kSinPiFastPoly", SinPiF, 1))
emit("// A result y of the fast path is within this many binary64 ulps of the exact value only if its low 29 bits are\n"
     "// within it of 2^28 (a float32 midpoint): such vectors take the correctly rounded path.\n")
emit(f"inline constexpr uint64_t kSinPiMidWindow = {SINPI_WINDOW};\n")
emit("\n// ---- tanpi, |r| <= 1/4 ----\n")
emit(f"// sin(pi r) = r P(z) (rel. error {mp.nstr(err_tanpis, 3)}, 2^{lg(err_tanpis)}), cos(pi r) = 1 + z Q(z) (rel. error\n"
     f"// {mp.nstr(err_tanpic, 3)}, 2^{lg(err_tanpic)}).\n")
emit(arr("kTanPiSinPoly", TanPiS, 1))
emit(arr("kTanPiCosPoly", TanPiC, 1))
emit("\n}  // namespace accelmath::coeffs\n")

sys.stdout.write("".join(out))
