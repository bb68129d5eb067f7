#!/usr/bin/env python3
"""Regenerates src/kernels/trig_coeffs.h, every constant the trig kernels use.

    python3 tools/coeffs/trig.py > src/kernels/trig_coeffs.h

Needs mpmath only. Deterministic (a CTest checks that the committed header is what this script
prints). sin, cos, tan (and sincos) run in float32 lanes (registry eval F32): x = k pi/2 + r, k the
nearest integer, |r| <= pi/4 (1 + margin), r as a float32 pair hi + lo; sin, cos from float32
polynomials S(r), C(r) (kSinF32Poly, kCosF32Poly) picked and signed by k mod 4; tan from one
polynomial tan(r) = r + r^3 T(z) (kTanF32Poly), -1/tan for odd k.
The reduction: |x| < kTrigF32Limit (2^F_EXP): float32 Cody-Waite (kTrigF32*); larger |x| (finite):
  Payne-Hanek in binary64. x = m 2^e, m a 24-bit integer, e = 8 - 23 + 16 q + s (0 <= s < 16,
  0 <= q < 8); x 2/pi mod 4 = m' T_q mod 4 with m' = m 2^s (< 2^39) and T_q = (2^(8 - 23 + 16 q)
  2/pi) mod 4 = c0 + c1 + (tail < 2^-104): c0 the bits of weight 2^1..2^-51, c1 those of
  2^-52..2^-104 (kTrigPH0/1: eight rows, one register permute each). m' c0 and m' c1 are split
  exactly into hi + lo by fma (K0 = rint(hi)), m' c1 added to the rest by one fma, the tail costs
  < 2^-65: x 2/pi is known mod 4 to 2^-64 absolute, while the fraction f (x 2/pi minus K0, at most
  1/2 + 2^-11.5: no second rounding) is at least kTrigMinFrac for every float32 x (computed below
  from continued fractions): a relative error below 2^-34 in f. r = f pi/2 (f kTrigPio2C1) in
  binary64, split into float32 hi + lo: more accurate than the float32 Cody-Waite (asserted below), so the same polynomials serve.
sinpi, cospi (kSinPi*, kCosPi*): correctly rounded. x = n/2 + r exactly (n = rint(2x), |r| <= 1/4,
  r has at most 24 significant bits so z = r^2 is exact). sin(pi r) = r (S1 + S3 z + z^2 P(z)),
  cos(pi r) = 1 + C2 z + z^2 Q(z), S1 = pi, S3 = -pi^3/6, C2 = -pi^2/2 each as hi + lo
  (double-double); the kernels keep the result as hi + lo and round it to odd in binary64 before
  the final rounding to float32 (no double rounding).
tanpi (kTanPiF32PiHi/Lo): float32 lanes, x = n/2 + r exactly (|r| <= 1/4), pi r as a float32 pair
  (pi split into two float32 values) plus r^3 P(z) (kTanPiF32Poly): tan(pi r) as a float32 pair.
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


# ---- constants of the reduction ------------------------------------------------------------------------
# pi/2 rounded to binary64 (Payne-Hanek's r = f pi/2).
C1 = d64(PI / 2)
SHIFT52 = 1.5 * 2.0 ** 52   # t + SHIFT52 rounds |t| < 2^51 to an integer (ties to even)

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

# ---- Payne-Hanek tables ------------------------------------------------------------------------------
# Float32 exponents E = PH_EXP..127 (PH_EXP = F_EXP: every lane at or above the float32 fast path's limit
# 2^F_EXP; x = m 2^(E - 23)) in groups of PH_STEP: E = PH_EXP + PH_STEP q + s, 0 <= s < PH_STEP, row q of
# PH_ROWS (few enough for a register permute instead of a gather). x 2/pi = m' T_q with m' = m 2^s (an integer
# below 2^PH_MBITS) and T_q = 2^(PH_EXP + PH_STEP q - 23) 2/pi, taken mod 4 (m' an integer).
PH_EXP = F_EXP
PH_STEP = 16
PH_ROWS = 8
PH_MBITS = 24 + PH_STEP - 1
assert PH_EXP + PH_STEP * PH_ROWS > 127 and PH_STEP == 16  # the kernel: q = bits 56.. of bits(x) - bits(2^8)
PH0, PH1 = [], []
for q in range(PH_ROWS):
    with mp.workprec(600):
        T = mp.ldexp(2 / mp.pi, PH_EXP + PH_STEP * q - 23)
        T = T - 4 * mp.floor(T / 4)
        c0 = mp.floor(mp.ldexp(T, 51)) / mp.mpf(2) ** 51
        c1 = mp.floor(mp.ldexp(T - c0, 104)) / mp.mpf(2) ** 104
        assert 0 <= T - c0 - c1 < mp.mpf(2) ** -104
        for c in (c0, c1):
            assert float(c) == c  # 53 significant bits at most
        # h0 = m' c0 < 2^51 (kd = h0 + 1.5 2^52 rounds it to K0); m' c0 - K0 is a multiple of 2^-51 below 1
        # (exact as a double); m' c1 < 2^-11, l0 < 2^-12 (f = m' c1 + (h0 - K0 + l0), one fma).
        assert 2 ** PH_MBITS * c0 < 2 ** 51 and 2 ** PH_MBITS * c1 < mp.mpf(2) ** -11
        PH0.append(float(c0))
        PH1.append(float(c1))
# Error of f: the table's tail (m' 2^-104) and f's one rounding (f = m' c1 + (g + l0) by one fma, 2^-53 |f|;
# m' c1 < 2^(PH_MBITS - 51): half an ulp of it is counted as well, an over-estimate), the other steps
# exact: PH_FREL relative for f >= MIN_FRAC.
PH_FREL = (mp.mpf(2) ** (PH_MBITS - 104) + mp.mpf(2) ** (PH_MBITS - 51 - 53)) / MIN_FRAC + mp.mpf(2) ** -53
assert PH_FREL < mp.mpf(2) ** -34, PH_FREL

# The float32 kernels' slow path: x 2/pi = K0 + f (mod 4) with K0 = rint(h0) alone (no second rounding
# of f: 4 binary64 operations per vector of doubles fewer, +6-12% on huge arguments), so f = m' c1 +
# (g + l0) with |g| <= 1/2, |l0| <= ulp(h0)/2 and m' c1 < m' max(c1): |f| <= PH_FMAX (1/2 + 2^-11.52);
# f is still at least MIN_FRAC (K0 is an integer, the nearest one or not). r = f C1 (C1 = pi/2 rounded, one
# product: within PH_RREL relative, |r| >= MIN_FRAC pi/2 (1 - PH_RREL)), then split into
# float32 hi = r rounded, lo = (r - hi) rounded (r - hi exact in binary64; |lo| <= 2^-24 |hi|): hi + lo within
# PH_REDREL of x - K pi/2, on |r| <= PH_R. The float32 polynomials below are fitted on |r| <= F_R, which
# covers both this and the fast path's reduction (within F_REDREL, which bounds PH_REDREL too): the huge
# lanes then run the fast path's float32 sin/cos/tan parts.
PH_H0MAX = mp.mpf(2) ** PH_MBITS * max(mp.mpf(c) for c in PH0)
PH_L0MAX = mp.mpf(2) ** (mp.floor(mp.log(PH_H0MAX, 2)) - 53)
PH_H1MAX = mp.mpf(2) ** PH_MBITS * max(mp.mpf(c) for c in PH1) * (1 + mp.mpf(2) ** -53)
PH_FMAX = (mp.mpf(1) / 2 + PH_L0MAX + PH_H1MAX) * (1 + mp.mpf(2) ** -53)
PH_RREL = PH_FREL + 2 * mp.mpf(2) ** -53
PH_REDREL = PH_RREL + mp.mpf(2) ** -48 * (1 + PH_RREL)
PH_R = PH_FMAX * C1 * (1 + mp.mpf(2) ** -53)
assert PH_FMAX < mp.mpf(1) / 2 + mp.mpf(2) ** -11, PH_FMAX
assert PH_REDREL <= F_REDREL, (PH_REDREL, F_REDREL)

# sin(r) = hi + (lo (1 - z/2) + hi z P(z)), cos(r) = 1 - z/2 + z^2 Q(z) - hi lo, z = hi^2 (kernels: the
# roundings), |r| <= F_R: the fast path's pi/4 (1 + 2 F_SLACK) or the slow path's PH_R, the larger; P, Q
# with float32 coefficients.
F_R = max(PI / 4 * (1 + 2 * F_SLACK), PH_R)
N_SINF, N_COSF = 4, 3
SinFP = fit(lambda z: sqrt_or(z, lambda r: (mp.sin(r) - r) / r ** 3, -mp.mpf(1) / 6),
            lambda z: sqrt_or(z, lambda r: r ** 3 / mp.sin(r), 1), F_R ** 2, N_SINF, rnd=f32)
CosFQ = fit(lambda z: sqrt_or(z, lambda r: (mp.cos(r) - 1 + r * r / 2) / r ** 4, mp.mpf(1) / 24),
            lambda z: z * z / mp.cos(mp.sqrt(z)), F_R ** 2, N_COSF, rnd=f32)
err_sinf = maxrel(lambda r: r + r ** 3 * poly(SinFP, r * r), mp.sin, F_R)
err_cosf = maxrel(lambda r: 1 - r * r / 2 + r ** 4 * poly(CosFQ, r * r), mp.cos, F_R)
assert err_sinf < 2 ** -30 and err_cosf < 2 ** -30, (err_sinf, err_cosf)
# tan(r) = r + r^3 T(z), z = r^2, |r| <= F_R: T with float32 coefficients (relative error of the whole; tan's
# kernel adds the reduction's lo as lo (1 + tan^2)).
N_TANF = 7
TanFP = fit(lambda z: sqrt_or(z, lambda r: (mp.tan(r) - r) / r ** 3, mp.mpf(1) / 3),
            lambda z: sqrt_or(z, lambda r: r ** 3 / mp.tan(r), 3), F_R ** 2, N_TANF, rnd=f32)
err_tanf = maxrel(lambda r: r + r ** 3 * poly(TanFP, r * r), mp.tan, F_R)
assert err_tanf < mp.mpf(2) ** -29, err_tanf
assert MIN_FRAC * PI / 2 * (1 - PH_RREL) > mp.mpf(2) ** -126 * 2 ** 48  # hi, lo normal float32 values

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

# tanpi (float32 lanes): pi = PH + PL (float32 each), pi r = hi + lo with hi = PH r, lo = (PH r - hi) + PL r.
TANPI_PH = f32(PI)
TANPI_PL = f32(PI - TANPI_PH)
TANPI_REL = abs(TANPI_PH + mp.mpf(TANPI_PL) - PI) / PI
assert TANPI_REL < mp.mpf(2) ** -48, TANPI_REL
# tan(pi r) = pi r + r^3 P(z), z = r^2, |r| <= 1/4: P with float32 coefficients (relative error of the whole).
N_TANPIF = 7
TanPiFP = fit(lambda z: sqrt_or(z, lambda r: (mp.tan(PI * r) - PI * r) / r ** 3, PI ** 3 / 3),
              lambda z: sqrt_or(z, lambda r: r ** 3 / mp.tan(PI * r), 3 / PI ** 3), R_PI ** 2, N_TANPIF, rnd=f32)
err_tanpif = maxrel(lambda r: PI * r + r ** 3 * poly(TanPiFP, r * r), lambda r: mp.tan(PI * r), R_PI)
assert err_tanpif < mp.mpf(2) ** -29, err_tanpif

# sinpi, cospi, fast path: sin(pi r) = r Q(z) on |r| <= 1/2 (one polynomial: with m = rint(|x|), r =
# (-1)^m (|x| - m) for sinpi; for cospi r = (-1)^m (1/2 - ||x| - m|), exact in binary64 where ||x| - m|
# >= 2^-30, else rounded by at most 2^-55, which moves cos(pi x) ~ 1 by below pi^2 2^-85, far under
# E). Its result y (binary64) is within E |y| of sin(pi r), E = the
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
emit("// pi/2 rounded to binary64 (Payne-Hanek's r = f pi/2); pi/2 - C1 = " + f"{mp.nstr(PI / 2 - C1, 3)}" + ".\n")
emit(f"inline constexpr double kTrigPio2C1 = {hexd(C1)};\n")
emit(f"// Over every float32 x >= pi/4, x 2/pi is at least {mp.nstr(MIN_FRAC, 4)} (2^{lg(MIN_FRAC)}) away from an integer\n"
     f"// (continued-fraction bound): |r| >= {mp.nstr(MIN_FRAC * PI / 2, 4)} wherever j != 0.\n")
emit(f"inline constexpr double kTrigMinFrac = {hexd(d64(MIN_FRAC))};\n")
emit("\n// ---- Payne-Hanek (|x| >= kTrigF32Limit): x = m 2^(E - 23), m a 24-bit integer ----\n")
emit(f"// Row q (float32 exponents E = {PH_EXP} + {PH_STEP} q + s, 0 <= s < {PH_STEP}): (2^({PH_EXP} + {PH_STEP} q - 23) 2/pi) mod 4 =\n"
     "// kTrigPH0 + kTrigPH1 + (< 2^-104); PH0 holds the bits of weight 2^1..2^-51, PH1 2^-52..2^-104 (each at most\n"
     f"// 53 bits: m' PH0 split exactly by fma, m' PH1 rounded, m' = m 2^s < 2^{PH_MBITS}). x 2/pi mod 4 within 2^{PH_MBITS - 103}, against\n"
     f"// a fraction of at least kTrigMinFrac: 2^{lg(PH_FREL)} relative.\n")
emit(f"inline constexpr int kTrigPHRows = {PH_ROWS};\n")
emit(arr("kTrigPH0", PH0))
emit(arr("kTrigPH1", PH1))
emit("// r = f kTrigPio2C1 (pi/2 rounded) for the fraction f,\n"
     f"// |r| <= {mp.nstr(PH_R, 10)}, split into float32 hi + lo within 2^{lg(PH_REDREL)} relative (the fast path's polynomials\n"
     f"// cover |r| <= {mp.nstr(F_R, 10)}, its reduction is within 2^{lg(F_REDREL)}).\n")

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
emit(f"// sin(r) = r + r^3 P(z), z = r^2, |r| <= pi/4 (1 + 2^{lg(F_R / (PI / 4) - 1)}) = {mp.nstr(F_R, 10)}: max relative error\n"
     f"// {mp.nstr(err_sinf, 3)} (2^{lg(err_sinf)}).\n")
emit(arrf("kSinF32Poly", SinFP))
emit(f"// cos(r) = 1 - z/2 + z^2 Q(z): max relative error {mp.nstr(err_cosf, 3)} (2^{lg(err_cosf)}).\n")
emit(arrf("kCosF32Poly", CosFQ))
emit(f"// tan(r) = r + r^3 T(z), degree {N_TANF - 1} in z: max relative error {mp.nstr(err_tanf, 3)} (2^{lg(err_tanf)}).\n")
emit(f"inline constexpr float kTanF32C0 = {hexf(TanFP[0])};  // T(0), the rest: kTanF32Poly\n")
emit(arrf("kTanF32Poly", TanFP[1:]))
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
emit("\n// ---- tanpi (float32 lanes), |r| <= 1/4 ----\n")
emit(f"// pi = PiHi + PiLo (float32 each) within {mp.nstr(TANPI_REL, 3)} (2^{lg(TANPI_REL)}) relative: pi r = hi + lo,\n"
     "// hi = PiHi r, lo = (PiHi r - hi) + PiLo r (the first term exact by fma).\n")
emit(f"inline constexpr float kTanPiF32PiHi = {hexf(TANPI_PH)};\n")
emit(f"inline constexpr float kTanPiF32PiLo = {hexf(TANPI_PL)};\n")
emit(f"// tan(pi r) = pi r + r^3 P(z), z = r^2, degree {N_TANPIF - 1} in z: max relative error {mp.nstr(err_tanpif, 3)} (2^{lg(err_tanpif)}).\n")
emit(f"inline constexpr float kTanPiF32C0 = {hexf(TanPiFP[0])};  // P(0), the rest: kTanPiF32Poly\n")
emit(arrf("kTanPiF32Poly", TanPiFP[1:]))
emit("\n}  // namespace accelmath::coeffs\n")

sys.stdout.write("".join(out))
