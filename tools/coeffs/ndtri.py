#!/usr/bin/env python3
"""Regenerates src/kernels/ndtri_coeffs.h, every constant the ndtri kernels use.

    python3 tools/coeffs/ndtri.py > src/kernels/ndtri_coeffs.h

Needs mpmath only. Deterministic: the same mpmath gives the same bytes (a CTest
checks that the committed header is what this script prints).

Tables
  kNdtriCentre*     ndtri, 9/256 <= p <= 247/256: ndtri(p) = q N(y)/D(y), q = p - 1/2, y = q^2 - shift.
  kErfinvPiece*     erfinv and erfcinv, |u| < 15/16, in float32 lanes: seven pieces of polynomials
                    of degree 7 with float32 coefficients (Chebyshev interpolants, rounded), one
                    for |u| <= 1/2 in u^2 and six in u - x_k (the section below says how a row is
                    chosen); the error of each with its rounded values is printed and asserted.
  kNdtriCentreNum,  N and D, of degree 6 and 7 (D_0 = 1): the rational interpolant of
  kNdtriCentreDen   h(s) = sqrt(2) erfinv(2 sqrt s) / sqrt s at 14 Chebyshev nodes of s = q^2 in
                    [0, (1/2 - 9/256)^2], in monomials of y = s - kNdtriCentreShift. The max relative
                    error with the rounded coefficients, and D's minimum (no pole), are printed in
                    the header and asserted.
  kTailLogC,        the logarithm of the tails, ln t = k ln 2 + ln m (t = 2^k m, m in [1, 2)):
  kTailLogLnC,      j = the top 2 bits of m's fraction, c_j = 1/(1 + (j + 1/2)/4) rounded to
  kTailLog1p        20 bits, z = m c_j - 1 (one fma, exact), |z| <= 0.112; ln m = log1p(z) - ln c_j,
                    log1p(z) = z + z^2 L(z), L the Chebyshev interpolant (8 terms) of
                    (log1p(z) - z)/z^2. kTailLogLnC holds ln c_j (rounded). Entries 4..7 repeat
                    0..3 (8-lane lookups).
  kTailMid,         -ndtri(t) for t in [2^-150, 0.075] as a function of r = sqrt(w), w = -ln t, in
  kTailPoly         four pieces chosen by t's binary exponent k (t = 2^k m): piece q holds the k
                    with 2^(q+3) <= min(6 - k, 64) < 2^(q+4) (-k in [4, 9], [10, 25], [26, 57],
                    [58, 150]); on it, -ndtri = T_q(r - kTailMid[q]), T_q the Chebyshev interpolant
                    of degree 9 on the piece's r interval, in monomials of r - mid.
                    kTailPoly()[i][q] is coefficient i of piece q (entries 4..7 repeat pieces 0..3:
                    the tables are read by 8-lane lookups). The max relative error (with the rounded
                    coefficients, exact arithmetic) is printed and asserted.
  kAs241*F          Wichura, "Algorithm AS 241: The percentage points of the normal
                    distribution", Applied Statistics 37(3) 477-484 (1988), PPND16: the
                    tail rationals in s = r - 1.6 (r <= 5) and s = r - 5 (r > 5), r = sqrt(-ln t),
                    rounded to float32 for the taskbook variant. These are published constants,
                    transcribed here as decimal strings; the script re-verifies each rational
                    (in binary64) against mpmath and prints its error.
  kTaskbookSeries   the proposal's 24-term Maclaurin series of sqrt(2) erfinv(u)/(sqrt 2 u):
                    d_0 = 1, d_k = sum_{m<k} d_m d_{k-1-m} / ((m+1)(2m+1)),
                    c_k = d_k/(2k+1) (sqrt(pi)/2)^(2k+1), rounded to float32.
  kLogAtanhF        log(m) = 2 atanh(s) = 2s + s * z * sum_j (2/(2j+1)) z^(j-1), z = s^2,
                    |s| <= 3 - 2 sqrt 2: the exact Taylor coefficients 2/(2j+1), rounded (taskbook).
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

def round_bits(x, bits):
    """x rounded to `bits` significant bits (a binary64 with a short mantissa)."""
    m, e = mp.frexp(x)
    return mp.ldexp(mp.nint(m * 2 ** bits), e - bits)


# --- default centre: a rational function ----------------------------------------------------
# ndtri(1/2 + q) = q h(q^2), h(s) = sqrt(2) erfinv(2 sqrt s)/sqrt s, analytic in s up to its
# singularity at s = 1/4 (p = 0 and 1). A rational function reaches further towards it than a
# polynomial of the same cost: h ~ N(y)/D(y), y = q^2 - CENTRE_SHIFT, D(0) = 1, the rational
# interpolant of h at the CENTRE_M + CENTRE_N + 1 Chebyshev nodes of [0, CENTRE_LIMIT^2]
# (a near-minimax fit), coefficients rounded to binary64. The error with the rounded coefficients
# is measured on a grid and asserted (below 2e-10, so that the float32 result stays within 0.504
# ulp), and D is checked positive on the whole interval (no pole).
# The trade (docs/erf_gamma_bessel.md): every lane pays the centre, the 1 - 2 CENTRE_LIMIT of
# uniform p outside it pay the tail's logarithm, square root and compaction, about as much per
# percent of p as one multiply-add per vector costs the centre. Errors of the interpolants at
# |q| <= 0.425 / 0.45 / 0.46 / 0.465 / 0.47: (5,5) 4.5e-11 / 1.6e-9; (6,6) 5.3e-13 / 3.6e-11 /
# 2.7e-10; (6,7) 4.8e-11 at 0.46, 1.6e-10 at 0.465; (7,7) 1.2e-10 at 0.47. (6,7) out to
# 0.46484375 (p from 9/256: 7% of uniform p in the tails) timed best of those tried.
CENTRE_LO = 9 / 256           # the centre: CENTRE_LO <= p <= 1 - CENTRE_LO, bounds exact in float32
CENTRE_LIMIT = 0.5 - CENTRE_LO
CENTRE_M, CENTRE_N = 6, 7
S_MAX = mp.mpf(CENTRE_LIMIT) ** 2
CENTRE_SHIFT = float(mp.nint(S_MAX / 2 * 2 ** 10) / 2 ** 10)   # the middle, to 10 fraction bits (exact)


def h(s):
    if s == 0:
        return mp.sqrt(2 * mp.pi)
    r = mp.sqrt(s)
    return mp.sqrt(2) * mp.erfinv(2 * r) / r


def horner_mp(coeffs, x):
    acc = mp.mpf(0)
    for c in reversed(coeffs):
        acc = acc * x + mp.mpf(c)
    return acc


def rational_fit(m, n):
    count = m + n + 1
    nodes = [S_MAX / 2 + S_MAX / 2 * mp.cos(mp.pi * (2 * k + 1) / (2 * count)) for k in range(count)]
    a = mp.matrix(count, count)
    rhs = mp.matrix(count, 1)
    for r, s in enumerate(nodes):
        y, f = s - CENTRE_SHIFT, h(s)
        for j in range(m + 1):
            a[r, j] = y ** j
        for j in range(1, n + 1):
            a[r, m + j] = -f * y ** j
        rhs[r] = f
    x = mp.lu_solve(a, rhs)
    return [float(x[j]) for j in range(m + 1)], [1.0] + [float(x[m + j]) for j in range(1, n + 1)]


centre_num, centre_den = rational_fit(CENTRE_M, CENTRE_N)
centre_err, centre_den_min = mp.mpf(0), mp.inf
for i in range(4001):
    s = S_MAX * i / 4000
    den = horner_mp(centre_den, s - CENTRE_SHIFT)
    centre_den_min = min(centre_den_min, den)
    centre_err = max(centre_err, abs(horner_mp(centre_num, s - CENTRE_SHIFT) / den / h(s) - 1))
assert centre_den_min > 0 and centre_err < 2e-10, (centre_den_min, centre_err)

# --- tails: logarithm ------------------------------------------------------------------------



LOG_C = [round_bits(1 / (1 + (j + mp.mpf(0.5)) / 4), 20) for j in range(4)]
LOG_LNC = [mp.log(c) for c in LOG_C]
Z_LO = min(LOG_C[j] * (1 + mp.mpf(j) / 4) - 1 for j in range(4))
Z_HI = max(LOG_C[j] * (1 + mp.mpf(j + 1) / 4) - 1 for j in range(4))
N_LOG1P = 8


def log1p_rest(z):
    return (mp.log1p(z) - z) / z ** 2 if z != 0 else mp.mpf(-0.5)


log1p_poly = [float(c) for c in reversed(mp.chebyfit(log1p_rest, [Z_LO, Z_HI], N_LOG1P))]
log1p_err = max(abs(z + z * z * horner_mp(log1p_poly, z) - mp.log1p(z))
                for z in mp.linspace(Z_LO, Z_HI, 4001))
assert log1p_err < 2e-12, log1p_err        # absolute, against |ln t| >= 2.59

# --- tails: pieces in r = sqrt(-ln t) ----------------------------------------------------------
# The piece comes from t's binary exponent k alone (t = 2^k m), so the kernel reads the coefficients
# while it computes the logarithm: piece q (0..3) holds the k with 2^(q+3) <= min(6 - k, 64) <
# 2^(q+4), i.e. -k in [4, 9], [10, 25], [26, 57], [58, 150]; t in [2^k, 2^(k+1)) has w in
# (-(k+1) ln 2, -k ln 2], so piece q covers w in ((2^(q+3) - 7) ln 2, (2^(q+4) - 7) ln 2], clipped to
# [-ln 0.075, 150 ln 2]. Four pieces: one register permute per table on 4 and 8 binary64 lanes.
T_MAX = mp.mpf("0.075")
W_MIN = -mp.log(T_MAX)
W_MAX = 150 * mp.log(2)
N_PIECES = 4
TAIL_DEG = 9
TAIL_OFFSET = 6      # q = exponent(min(TAIL_OFFSET - k, 64)) - 3
TAIL_MARGIN = mp.mpf(2) ** -30   # each piece fitted a little wider than its interval (w is rounded)


def tail_exact(r):
    return -ndtri(mp.exp(-r * r))


def piece_w(q):
    lo = max((2 ** (q + 3) - 1 - TAIL_OFFSET) * mp.log(2), W_MIN)
    hi = W_MAX if q == N_PIECES - 1 else (2 ** (q + 4) - 1 - TAIL_OFFSET) * mp.log(2)
    return lo, hi


tail_mid, tail_coef, piece_err = [], [], []
for q in range(N_PIECES):
    w_lo, w_hi = piece_w(q)
    r_lo = mp.sqrt(w_lo) * (1 - TAIL_MARGIN)
    r_hi = mp.sqrt(w_hi) * (1 + TAIL_MARGIN)
    mid = float(round_bits((r_lo + r_hi) / 2, 8))
    poly = [float(c) for c in reversed(mp.chebyfit(lambda s: tail_exact(s + mid), [r_lo - mid, r_hi - mid],
                                                   TAIL_DEG + 1))]
    err = max(abs(horner_mp(poly, r - mid) / tail_exact(r) - 1)
              for r in mp.linspace(r_lo, r_hi, 301))
    tail_mid.append(mid)
    tail_coef.append(poly)
    piece_err.append(err)
assert max(piece_err) < 1e-10, piece_err

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

# --- erfinv / erfcinv centre in float32 lanes ----------------------------------------------------
# Row k of each table is read per lane by k = (bits(v) >> 22) mod 8, v = (1 - 2^-24) - a (exact for
# a > 1/2), a = |u| < 15/16: v's exponent and the top bit of its fraction. Rows 4 and 5 (v in [1/2, 1),
# that is a <= 1/2 - 2^-24) are one piece, erfinv(a) = a + a P(a^2), P(w) ~ erfinv(sqrt w)/sqrt w - 1 on
# [0, 1/4]. Every other row is a piece [lo, hi] of a, erfinv = hi_k + lo_k + t P_k(t), t = a - x_k,
# x_k its midpoint (exact), hi_k + lo_k = erfinv(x_k) to 2^-48, P_k ~ (erfinv(x_k + t) - erfinv(x_k))/t,
# fitted on the piece widened by 2^-20 on each side (erfcinv adds its low part, below 2^-25, to t).
ERFINV_DEGREE = 7
ERFINV_P0_ROWS = (4, 5)
ERFINV_PIECES = {0: (0.8125, 0.875), 1: (0.75, 0.8125), 2: (0.625, 0.75), 3: (0.5, 0.625),
                 6: (0.90625, 0.9375), 7: (0.875, 0.90625)}
ERFINV_WIDEN = mp.mpf(2) ** -20


def erfinv_row(k):
    if k in ERFINV_P0_ROWS:
        def p0(w):
            return mp.sqrt(mp.pi) / 2 - 1 if w == 0 else erfinv(mp.sqrt(w)) / mp.sqrt(w) - 1
        c = [f32(v) for v in reversed(mp.chebyfit(p0, [0, mp.mpf(1) / 4 + ERFINV_WIDEN], ERFINV_DEGREE + 1))]
        return 0.0, 0.0, 0.0, 0.0, c
    lo, hi = ERFINV_PIECES[k]
    xk = mp.mpf(lo + hi) / 2
    assert f32(xk) == xk
    e = erfinv(xk)

    def g(t):
        return mp.sqrt(mp.pi) / 2 * mp.exp(e * e) if t == 0 else (erfinv(xk + t) - e) / t

    c = list(reversed(mp.chebyfit(g, [lo - xk - ERFINV_WIDEN, hi - xk + ERFINV_WIDEN], ERFINV_DEGREE + 1)))
    e_hi = f32(e)
    c0 = f32(c[0])
    return float(xk), e_hi, f32(e - e_hi), f32(c[0] - c0), [c0] + [f32(v) for v in c[1:]]


ERFINV_ROWS = [erfinv_row(k) for k in range(8)]


def erfinv_row_err(k):
    """Max relative error of row k's piece, its float32 values in exact arithmetic."""
    xk, e_hi, e_lo, c0lo, c = [mp.mpf(v) for v in ERFINV_ROWS[k][:4]] + [[mp.mpf(v) for v in ERFINV_ROWS[k][4]]]
    lo, hi = (mp.mpf(0), mp.mpf(1) / 2) if k in ERFINV_P0_ROWS else ERFINV_PIECES[k]
    worst = mp.mpf(0)
    for i in range(1, 801):
        a = mp.mpf(lo) + (mp.mpf(hi) - lo) * i / 800
        if k in ERFINV_P0_ROWS:
            model = a + a * horner_mp(c, a * a)
        else:
            t = a - xk
            model = e_hi + e_lo + t * (horner_mp(c, t) + c0lo)
        worst = max(worst, abs(model / erfinv(a) - 1))
    return worst


ERFINV_ERR = [erfinv_row_err(k) for k in range(8)]
assert max(ERFINV_ERR) < mp.mpf(2) ** -27.5, ERFINV_ERR  # under 0.09 ulp


# --- log ------------------------------------------------------------------------------------
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
emit(f"// Centre, kNdtriCentreLo <= p <= 1 - kNdtriCentreLo: ndtri = q N(y)/D(y), q = p - 1/2,\n"
     f"// y = q^2 - kNdtriCentreShift; N, D of degree {CENTRE_M}, {CENTRE_N} (D_0 = 1), the rational interpolant at\n"
     f"// Chebyshev nodes; max relative error (doubles, exact arithmetic) {mp.nstr(centre_err, 3)}; D >= {mp.nstr(centre_den_min, 3)} there.\n")
emit(f"inline constexpr double kNdtriCentreLo = {hexd(CENTRE_LO)};  // |q| <= {CENTRE_LIMIT}\n")
emit(f"inline constexpr double kNdtriCentreShift = {hexd(CENTRE_SHIFT)};\n")
emit(arr("kNdtriCentreNum", "double", centre_num, hexd))
emit(arr("kNdtriCentreDen", "double", centre_den, hexd))
emit(f"\n// erfinv, erfcinv centre in float32 lanes, a = |u| < 15/16: row k = (bits(v) >> 22) mod 8, v = (1 - 2^-24) - a;\n")
emit(f"// rows {ERFINV_P0_ROWS}: a <= 1/2, erfinv = a + a P(a^2); the others: erfinv = hi + lo + t P(t), t = a - x_k.\n")
emit(f"// P of degree {ERFINV_DEGREE}; c0 + c0lo its constant term (c0lo = 0 in the a <= 1/2 rows). Max relative error of\n")
emit("// each row's piece with these float32 values in exact arithmetic: "
     + ", ".join(mp.nstr(e, 3) for e in ERFINV_ERR) + ".\n")
emit(arr("kErfinvPieceX", "float", [r[0] for r in ERFINV_ROWS], hexf))
emit(arr("kErfinvPieceHi", "float", [r[1] for r in ERFINV_ROWS], hexf))
emit(arr("kErfinvPieceLo", "float", [r[2] for r in ERFINV_ROWS], hexf))
emit(arr("kErfinvPieceC0Lo", "float", [r[3] for r in ERFINV_ROWS], hexf))
emit(f"ACCELMATH_COEFFS std::array<std::array<float, 8>, {ERFINV_DEGREE + 1}> kErfinvPiecePoly() {{\n  return {{{{\n")
emit(",\n".join("      {{" + ", ".join(hexf(r[4][j]) for r in ERFINV_ROWS) + "}}" for j in range(ERFINV_DEGREE + 1))
     + "}};\n}\n")
ERFINV_LIMIT = max(hi for _, hi in ERFINV_PIECES.values())
emit(f"// The centre's limit: |u| < kErfinvCentreLimit (the top of the last piece); the tails beyond.\n")
emit(f"inline constexpr float kErfinvCentreLimit = {hexf(ERFINV_LIMIT)};\n")
emit(f"\n// Tails, ln t = k ln2 + log1p(z) - ln c_j, z = m c_j - 1 (t = 2^k m, j = top 2 bits of m's fraction;\n// entries 4..7 repeat 0..3).\n")
emit(arr("kTailLogC", "double", LOG_C * 2, hexd))
emit(arr("kTailLogLnC", "double", LOG_LNC * 2, hexd))
emit(f"// log1p(z) = z + z^2 L(z), |z| <= {mp.nstr(max(-Z_LO, Z_HI), 4)}; max absolute error {mp.nstr(log1p_err, 3)}.\n")
emit(arr("kTailLog1p", "double", log1p_poly, hexd))
emit(f"\n// Tails, -ndtri(t) = T_q(r - kTailMid()[q]), r = sqrt(w), w = -ln t, t = 2^k m: piece q has\n")
emit(f"// 2^(q+3) <= min({TAIL_OFFSET} - k, 64) < 2^(q+4) (t in [2^-150, 0.075]); degree {TAIL_DEG}; max relative error "
     f"per piece\n// (doubles, exact arithmetic) " + ", ".join(mp.nstr(e, 3) for e in piece_err)
     + ". Entries 4..7 repeat 0..3.\n")
emit(f"inline constexpr double kTailOffset = {TAIL_OFFSET};\n")
emit(arr("kTailMid", "double", tail_mid * 2, hexd))
emit(f"ACCELMATH_COEFFS std::array<std::array<double, 8>, {TAIL_DEG + 1}> kTailPoly() {{\n  return {{{{\n")
rows = []
for k in range(TAIL_DEG + 1):
    vals = [tail_coef[q][k] for q in range(N_PIECES)] * 2
    rows.append("      {{" + ", ".join(hexd(v) for v in vals) + "}}")
emit(",\n".join(rows) + "}};\n}\n")
emit(f"\n// AS241 (Wichura 1988) tail rationals in binary64, as checked: max relative error {mp.nstr(err_tail1, 3)}\n")
emit(f"// in s = r - 1.6, r in [{mp.nstr(R_MIN, 6)}, 5], and {mp.nstr(err_tail2, 3)} in s = r - 5, r in [5, {mp.nstr(R_MAX, 6)}].\n")
emit("// The same four tables rounded to float32, for the taskbook variant.\n")
for nm, key in (("NumA", "c"), ("DenA", "d"), ("NumB", "e"), ("DenB", "f")):
    emit(arr(f"kAs241{nm}F", "float", [mp.mpf(c) for c in AS241[key]], hexf))
emit(f"\n// Taskbook centre: 24 Maclaurin terms of erfinv, scaled (see the script); the exact series has\n")
emit(f"// relative error {mp.nstr(series_err, 3)} at |u| = 0.85. Rounded to float32.\n")
emit(arr("kTaskbookSeries", "float", series, hexf))
emit("\n// log(m) = 2s + s z P(z), z = s^2, P_j = 2/(2j+3), j = 0, 1, ...: 4 terms (taskbook, float32).\n")
emit(arr("kLogAtanhF", "float", log_f, hexf))
emit("\n// Constants (correctly rounded).\n")
emit(f"inline constexpr double kLn2 = {hexd(mp.log(2))};\n")
emit(f"inline constexpr double kInvSqrt2 = {hexd(1 / mp.sqrt(2))};\n")
emit(f"inline constexpr float kLn2F = {hexf(mp.log(2))};\n")
emit(f"inline constexpr float k64Ln2F = {hexf(64 * mp.log(2))};  // ln(2^64), taskbook subnormal rescue\n")
emit(f"inline constexpr float kSqrt2F = {hexf(mp.sqrt(2))};\n")
emit("\n}  // namespace accelmath::coeffs\n")

sys.stdout.write("".join(out))
