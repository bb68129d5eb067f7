#!/usr/bin/env python3
"""Regenerates src/kernels/exp_log_coeffs.h, every constant the exp/log kernels use.

    python3 tools/coeffs/exp_log.py > src/kernels/exp_log_coeffs.h

Needs mpmath only. Deterministic: the same mpmath gives the same bytes (a CTest checks that the
committed header is what this script prints). Every polynomial's max relative error, with its
coefficients as rounded and evaluated exactly, is measured on a dense grid and printed in the
header (and asserted below).

exp, exp2, exp10 (float32 lanes): x = (k / N) log_b(2) + r, k = round(N x log2(b)),
  |r| <= log_b(2)/(2N), N = 8 (exp) or 16 (exp2, exp10); b^x = 2^floor(k/N) T_j (1 + r Q(r) + tau_j).
  kExpFScale8/16   T_j = 2^(j/N) rounded to float32, with j << (23 - log2 N) subtracted from the bits.
  kExpFTau8/16     tau_j = (2^(j/N) - T_j) / T_j, rounded to float32.
  k<F>FPoly        Q, float32 coefficients fixed one at a time by least squares on Chebyshev nodes
                   (each later one refitted around the rounding of the earlier ones).
expm1 (binary64 lanes): x = k ln 2 + r, k = round(x log2(e)), |r| <= ln(2)/2.
  kExpm1Poly       expm1(r) = r (1 + r Q(r)), Q the Chebyshev interpolant of (expm1(r)/r - 1)/r on
                   |r| <= ln(2)/2 (+ margin); relative error below 2^-36.
log, log2, log10, log1p (float32 lanes): x (or 1 + x) = 2^k z, z in [kLogFOff, 2 kLogFOff) (float32
  bit patterns), 16 subintervals, r = z invc_i - 1 exact (invc_i with 5 significant bits),
  log_b x = (k log_b(2)_hi + Lhi_i) + Llo_i + k log_b(2)_lo + r (C1 + P(r)); see that section.
Thresholds: the largest float32 x whose correctly rounded b^x (or expm1(x)) is finite, and the
smallest float32 x whose correctly rounded b^x is not +0.
"""
import sys
import mpmath as mp

mp.mp.dps = 60


def hexd(x):
    return float(x).hex()


def hexf(x):
    mant, exp = float(x).hex().split("p")
    return mant.rstrip("0").rstrip(".") + "p" + exp + "f"


def f32_next(x, up):
    """The float32 neighbour of the float32 value x (Python float), towards +inf if up."""
    import struct
    b = struct.unpack("<I", struct.pack("<f", x))[0]
    b = b + 1 if (x >= 0) == up else b - 1
    return struct.unpack("<f", struct.pack("<I", b))[0]


def f32(x):
    with mp.workprec(24):
        return float(+mp.mpf(x))


def cheb_interp(f, a, b, n):
    """Coefficients (lowest degree first, mpf) of the degree n-1 polynomial interpolating f at
    the n Chebyshev nodes of [a, b]."""
    a, b = mp.mpf(a), mp.mpf(b)
    nodes = [mp.cos(mp.pi * (j + mp.mpf(1) / 2) / n) for j in range(n)]
    vals = [f((b - a) / 2 * t + (a + b) / 2) for t in nodes]
    # Chebyshev coefficients c_k = 2/n sum_j f_j T_k(t_j)
    cheb = [2 * mp.fsum(vals[j] * mp.cos(k * mp.pi * (j + mp.mpf(1) / 2) / n) for j in range(n)) / n
            for k in range(n)]
    cheb[0] /= 2
    # Convert sum c_k T_k(t) with t = (y - m) / h to monomials in y.
    m, h = (a + b) / 2, (b - a) / 2
    tk_prev, tk = [mp.mpf(1)], [-m / h, 1 / h]  # T_0, T_1 in y
    poly = [mp.mpf(0)] * n
    for k in range(n):
        t = tk_prev if k == 0 else tk
        if k >= 2:
            nxt = [mp.mpf(0)] * (len(tk) + 1)
            for i, c in enumerate(tk):  # 2 t T_k - T_{k-1}, 2t = 2(y - m)/h
                nxt[i + 1] += 2 * c / h
                nxt[i] -= 2 * c * m / h
            for i, c in enumerate(tk_prev):
                nxt[i] -= c
            tk_prev, tk = tk, nxt
            t = tk
        for i, c in enumerate(t):
            poly[i] += cheb[k] * c
    return poly


def horner_mp(coeffs, x):
    acc = mp.mpf(0)
    for c in reversed(coeffs):
        acc = acc * x + mp.mpf(c)
    return acc


def grid(a, b, n=2000):
    a, b = mp.mpf(a), mp.mpf(b)
    return [a + (b - a) * i / n for i in range(n + 1)]


out = []
emit = out.append

LN2 = mp.log(2)
MARGIN = mp.mpf(1) + mp.mpf(2) ** -10

# --- exp family ---------------------------------------------------------------------------------
# exp, exp2, exp10 run in float32 lanes: x = (k / N) log_b(2) + r, k = round(N x log2(b)),
# |r| <= log_b(2)/(2N); b^x = 2^floor(k/N) T_j (1 + e), e = r Q(r) + tau_j, T_j (1 + tau_j) = 2^(j/N).
# Per function: (table bits, number of coefficients of Q). exp: 8 entries (one permute on AVX2
# too), Q of degree 3; exp2, exp10: 16 entries (two permutes and a blend on AVX2), Q of degree 2.
EXPF = {"Exp": (mp.e, 3, 4), "Exp2": (mp.mpf(2), 4, 3), "Exp10": (mp.mpf(10), 4, 3)}
N_EXPM1 = 8     # expm1 (binary64 lanes): r (1 + r Q), Q of degree 6


def f32_ls_poly(func, basis_pow, lo, hi, n, weight, npts=400):
    """Float32 coefficients c_0..c_{n-1} minimising sum ((sum c_j r^(j + basis_pow) - func(r)) weight(r))^2
    over Chebyshev nodes of [lo, hi] (an even number: 0 is not one), fixed one at a time: c_i is rounded to float32 and the
    later ones refitted around it (so they absorb its rounding)."""
    lo, hi = mp.mpf(lo), mp.mpf(hi)
    pts = [(lo + hi) / 2 + (hi - lo) / 2 * mp.cos(mp.pi * (i + mp.mpf(1) / 2) / npts) for i in range(npts)]
    fixed = []
    for i in range(n):
        cols = range(i, n)
        A = mp.matrix(len(pts), n - i)
        b = mp.matrix(len(pts), 1)
        scale = max(abs(mp.mpf(lo)), abs(mp.mpf(hi)))
        for row, r in enumerate(pts):
            w = weight(r)
            b[row] = (func(r) - mp.fsum(c * r ** (j + basis_pow) for j, c in enumerate(fixed))) * w
            for col, j in enumerate(cols):
                A[row, col] = (r / scale) ** (j + basis_pow) * w
        sol = mp.qr_solve(A, b)[0]
        fixed.append(f32(sol[0] / scale ** (i + basis_pow)))
    return fixed


def expf_poly(base, tb, n):
    lb = mp.log(base)
    R = LN2 / lb / 2 ** (tb + 1) * MARGIN
    c = f32_ls_poly(lambda r: mp.expm1(r * lb), 1, -R, R, n, lambda r: 1 / mp.exp(r * lb))
    err = max(abs((1 + r * horner_mp(c, r)) / mp.exp(r * lb) - 1) for r in grid(-R, R))
    return c, err, R


def expm1_poly(n):
    R = LN2 / 2 * MARGIN

    def q(r):
        if r == 0:
            return mp.mpf(1) / 2
        with mp.workdps(3 * mp.mp.dps):  # a node may be ~1e-60: keep the cancellation harmless
            return +((mp.expm1(r) / r - 1) / r)
    coeffs = [1.0] + [float(c) for c in cheb_interp(q, -R, R, n - 1)]
    err = max(abs(r * horner_mp(coeffs, r) / mp.expm1(r) - 1) for r in grid(-R, R) if r != 0)
    return coeffs, err, R


expf = {name: expf_poly(*args) for name, args in EXPF.items()}
for c, e, R in expf.values():
    assert e < 2 ** -29, e
expm1_c, err_m1, R_m1 = expm1_poly(N_EXPM1)
assert err_m1 < 2 ** -36, err_m1

# ExpFinite64 (binary64 e^x shared by the erf, gamma and Bessel kernels): e^r = P(r), the Chebyshev
# interpolant (mpmath chebyfit) of degree 9 on |r| <= ln(2)/2 (1 + 2^-10), 2^-45.6: enough for every
# caller (erfcx's rational is 2^-35, tgamma's exponent 1e-13 absolute), two coefficients and one
# reduction step cheaper than a 2^-56 one (which cost erfc and normcdf 8-10% on AVX2).
R_EXP64 = LN2 / 2 * MARGIN
exp64_c = [float(c) for c in reversed(mp.chebyfit(mp.exp, [-R_EXP64, R_EXP64], 10))]
err_exp64 = max(abs(horner_mp(exp64_c, r) / mp.exp(r) - 1) for r in grid(-R_EXP64, R_EXP64))
assert err_exp64 < 2 ** -45, err_exp64
# The erf family's (erfc, normcdf): degree 7 on the same interval, 2^-34.1. Their erfcx rational is
# 2^-35.1, so the result stays within about 2^-33.4 of the exact value (0.5 + 2^-9.4 ulp at most);
# erfc and normcdf ran 1.03-1.11x faster with it than with degree 9 (AVX3 and the AVX2 code forced on
# an AVX-512 Zen 4 and an AVX-512 Intel Xeon; docs/performance.md).
exp64s_c = [float(c) for c in reversed(mp.chebyfit(mp.exp, [-R_EXP64, R_EXP64], 8))]
err_exp64s = max(abs(horner_mp(exp64s_c, r) / mp.exp(r) - 1) for r in grid(-R_EXP64, R_EXP64))
assert err_exp64s < 2 ** -34, err_exp64s

# Thresholds (float32): largest x with a finite correctly rounded result, smallest x with a
# nonzero one. Overflow: exact >= 2^128 - 2^103 rounds to inf; underflow: exact <= 2^-150 to 0.
OVF = mp.mpf(2) ** 128 - mp.mpf(2) ** 103
UNF = mp.mpf(2) ** -150


def last_finite(f, x0):
    x = f32(x0)
    while f(mp.mpf(x)) >= OVF:
        x = f32_next(x, False)
    while f(mp.mpf(f32_next(x, True))) < OVF:
        x = f32_next(x, True)
    return x


def first_nonzero(f, x0):
    x = f32(x0)
    while f(mp.mpf(x)) <= UNF:
        x = f32_next(x, True)
    while f(mp.mpf(f32_next(x, False))) > UNF:
        x = f32_next(x, False)
    return x


thr = {}
for name, base in (("Exp", mp.e), ("Exp2", mp.mpf(2)), ("Exp10", mp.mpf(10))):
    f = (lambda b: (lambda x: mp.power(b, x)))(base)
    thr[name] = (last_finite(f, mp.log(OVF) / mp.log(base)), first_nonzero(f, mp.log(UNF) / mp.log(base)))
# expm1(x) rounds to -1 in float32 once e^x < 2^-25 (half an ulp below 1); any x below that
# works as the cut where the kernel writes -1: take the exp underflow threshold.
EXPM1_LO = thr["Exp"][1]
assert mp.exp(EXPM1_LO) < mp.mpf(2) ** -25

# --- log family in float32 lanes (log, log2, log10, log1p) ------------------------------------------------
# x = 2^k z, z in [kLogFOff, 2 kLogFOff) as float32 bit patterns; the top 4 bits of z's offset
# mantissa pick one of 16 subintervals; invc_i ~ 1/(its midpoint) with 5 significant bits, so that
# r = z invc_i - 1 is exact in float32 (|r| < 2^-4, z a multiple of 2^-24 below 1 and 2^-23 above,
# invc a multiple of 2^-4 above 1 and 2^-5 below: z invc - 1 is a multiple of 2^-28 below 2^-4).
# log_b x = (k log_b 2 + Lhi_i) + Llo_i + c1 r + r P(r): k log_b(2)_hi + Lhi_i is exact (both
# multiples of 2^-16, below 2^8), c1 = 1/ln(b) rounded to float32, P absorbs its rounding.
TBF = 4
NTF = 1 << TBF
WF = 1 << (23 - TBF)
SQRT_HALF_F = 0x3F3504F3
OFFF = (SQRT_HALF_F // WF) * WF + WF // 2


def fbits_to_mp(b):
    import struct
    return mp.mpf(struct.unpack("<f", struct.pack("<I", b))[0])


INVCF_BITS = 5
invcf, rf_lo, rf_hi = [], mp.mpf(0), mp.mpf(0)
rf_sub = []
for i in range(NTF):
    lo = fbits_to_mp(OFFF + i * WF)
    hi = fbits_to_mp(OFFF + (i + 1) * WF - 1)   # last float of the subinterval
    if lo <= 1 <= hi:
        c = mp.mpf(1)
    else:
        with mp.workprec(INVCF_BITS):
            c = +(2 / (lo + hi))
    invcf.append(c)
    rf_sub.append((lo * c - 1, hi * c - 1))
    rf_lo = min(rf_lo, lo * c - 1)
    rf_hi = max(rf_hi, hi * c - 1)
    # exactness of r = z invc - 1: a multiple of 2^-28 below 2^-4 in magnitude
    for zz in (lo, hi):
        rr = zz * c - 1
        assert abs(rr) < mp.mpf(2) ** -4 and (rr * 2 ** 28) == mp.floor(rr * 2 ** 28), (i, rr)
one_f = [i for i in range(NTF) if invcf[i] == 1]
assert len(one_f) == 1
RF_LO, RF_HI = rf_lo * MARGIN, rf_hi * MARGIN
LOGF = {"Log2": mp.mpf(2), "Log10": mp.mpf(10)}  # ln and log1p use the 8-entry tables (kLogF8*)
N_LOGF = 5


def q16(v):
    """v rounded to a multiple of 2^-16."""
    return mp.nint(v * 2 ** 16) / 2 ** 16


logf = {}
for name, base in LOGF.items():
    lb = mp.log(base)
    L = [-mp.log(c) / lb for c in invcf]
    Lhi = [q16(v) for v in L]
    Llo = [f32(a - b) for a, b in zip(L, Lhi)]
    l2 = mp.log(2) / lb
    l2hi = q16(l2)
    l2lo = f32(l2 - l2hi)
    c1h = f32(1 / lb)
    P = f32_ls_poly(lambda r: mp.log1p(r) / (r * lb) - mp.mpf(c1h), 0, RF_LO, RF_HI, N_LOGF,
                    lambda r: r * lb / mp.log1p(r))
    err = max(abs(r * (c1h + horner_mp(P, r)) / (mp.log1p(r) / lb) - 1) for r in grid(RF_LO, RF_HI) if r != 0)
    assert err < 2 ** -28, (name, err)
    # Fast2Sum (s = hi + c1 r, t = (hi - s) + c1 r) needs |hi| >= |c1 r| where hi != 0 (k = 0).
    for i in range(NTF):
        if i != one_f[0]:
            assert abs(L[i]) >= max(abs(mp.log1p(v)) / lb for v in rf_sub[i]) * MARGIN, (name, i)
    logf[name] = (Lhi, Llo, l2hi, l2lo, c1h, P, err)


# --- log (ln) alone, float32 lanes: 8 subintervals (one vpermps per lookup on AVX2) ----------------------------
# x = 2^(E - 127) m, m in [1, 2) (E the biased exponent field); q = bits(x) >> 20 = 8 E + i, i the top 3
# bits of the mantissa field: subinterval [1 + i/8, 1 + (i + 1)/8) of m. invc_i ~ 1/(its midpoint),
# 1 for i = 0 and 1/2 for i = 7 (x in [1, 1.125) and [0.9375, 1): hi = lo = 0 there), chosen so that
# r = m invc_i - 1 is exact and, for the x near 1 (E = 127 or 126), |ln(1 + r)| < 2^floor(log2 |ln x|):
# the rounding of r + r P(r) + lo then costs at most 1/4 ulp of ln x.
# ln x = hi + (r + (r P(r) + lo)), hi = q L2Hi + T_i (exact: L2Hi and T_i are multiples of 2^-17, so
# is hi, and |hi| < 2^7: 24 bits at most), lo = q L2Lo + U_i, L2Hi + L2Lo = ln(2)/8, T_i + U_i = ln(1/invc_i) - (1016 + i) ln(2)/8.
TB8 = 3
NT8 = 1 << TB8


def log8_ok(i, c):
    lo, hi = 1 + mp.mpf(i) / NT8, 1 + mp.mpf(i + 1) / NT8 - mp.mpf(2) ** -23
    g = mp.mpf(1)
    while mp.floor(c / g) * g != c:
        g /= 2
    for m in [lo + (hi - lo) * j / 512 for j in range(513)]:
        r = m * c - 1
        if abs(r) >= 2 * g:         # m c a multiple of 2^-23 g: r exact below 2^24 2^-23 g
            return False
        for e in (0, -1):
            if (i, e) in ((0, 0), (NT8 - 1, -1)):
                continue  # around 1: hi = lo = 0, ln x = r + r P(r) rounded once
            y = e * LN2 + mp.log(m)
            if abs(mp.log1p(r)) * (1 + mp.mpf(2) ** -7) >= mp.mpf(2) ** mp.floor(mp.log(abs(y), 2)):
                return False
    return True


invc8, r8_lo, r8_hi = [], mp.mpf(0), mp.mpf(0)
for i in range(NT8):
    lo, hi = 1 + mp.mpf(i) / NT8, 1 + mp.mpf(i + 1) / NT8
    if i == 0:
        c = mp.mpf(1)
    elif i == NT8 - 1:
        c = mp.mpf(1) / 2
    else:
        cands = [mp.mpf(j) / 32 for j in range(16, 33)]
        cands = [c for c in cands if log8_ok(i, c)]
        c = min(cands, key=lambda c: max(abs(lo * c - 1), abs(hi * c - 1)))
    assert log8_ok(i, c), i
    invc8.append(c)
    r8_lo, r8_hi = min(r8_lo, lo * c - 1), max(r8_hi, hi * c - 1)
R8_LO, R8_HI = r8_lo * MARGIN, r8_hi * MARGIN
L2HI8 = mp.nint(LN2 / 8 * 2 ** 17) / 2 ** 17  # a multiple of 2^-17 (14 significant bits)
L2LO8 = LN2 / 8 - L2HI8
with mp.workprec(14):
    L2LO8 = +L2LO8
assert abs(LN2 / 8 - L2HI8 - L2LO8) < mp.mpf(2) ** -37  # 8 (E - 127) (ln(2)/8 - L2Hi - L2Lo): negligible  # 14 bits: (1016 + i) L2Lo is exact for the two subintervals around 1
L8hi = [mp.mpf(0)] + [q16(-mp.log(c)) for c in invc8[1:NT8 - 1]] + [8 * L2HI8]
L8lo = [mp.mpf(0)] + [-mp.log(c) - h for c, h in zip(invc8[1:NT8 - 1], L8hi[1:NT8 - 1])] + [8 * L2LO8]
T8 = [h - (1016 + i) * L2HI8 for i, h in enumerate(L8hi)]
U8 = [f32(l - (1016 + i) * L2LO8) for i, l in enumerate(L8lo)]
for i in (0, NT8 - 1):
    assert U8[i] == L8lo[i] - (1016 + i) * L2LO8 and f32(T8[i]) == T8[i]
for t in T8:
    assert f32(t) == t and t * 2 ** 17 == mp.floor(t * 2 ** 17)
N_LOGF8 = 6
P8 = f32_ls_poly(lambda r: mp.log1p(r) / r - 1, 0, R8_LO, R8_HI, N_LOGF8, lambda r: r / mp.log1p(r))
err8 = max(abs(r * (1 + horner_mp(P8, r)) / mp.log1p(r) - 1) for r in grid(R8_LO, R8_HI) if r != 0)
assert err8 < 2 ** -27, err8

def arr(name, ctype, vals, fmt, per_line=1):
    body = ",\n".join("      " + ", ".join(fmt(v) for v in vals[i:i + per_line])
                      for i in range(0, len(vals), per_line))
    return (f"ACCELMATH_COEFFS std::array<{ctype}, {len(vals)}> {name}() {{\n"
            f"  return {{{{\n{body}}}}};\n}}\n")


def lg(x):
    return mp.nstr(mp.log(x, 2), 4) if x > 0 else "-inf"


emit("// Generated by tools/coeffs/exp_log.py: do not edit; regenerate with\n")
emit("//   python3 tools/coeffs/exp_log.py > src/kernels/exp_log_coeffs.h\n")
emit("// Every table lists the lowest-degree coefficient first. Errors: max relative error of the\n")
emit("// polynomial with these double coefficients, evaluated exactly, on its interval.\n")
emit("#pragma once\n\n#include <array>\n#include <cstdint>\n\n")
emit("#ifndef ACCELMATH_COEFFS\n#if defined(__CUDACC__)\n#define ACCELMATH_COEFFS __host__ __device__ constexpr\n#else\n"
     "#define ACCELMATH_COEFFS constexpr\n#endif\n#endif\n\nnamespace accelmath::coeffs {\n\n")

emit("// ---- exp, exp2, exp10 (float32 lanes): x = (k / N) log_b(2) + r, k = round(N x log2(b)), N = 2^TableBits ----\n")
emit("// 1.5 * 2^23: t + kExpFShift rounds t to an integer k (ties to even) held in the low mantissa bits.\n")
emit(f"inline constexpr float kExpFShift = {hexf(mp.mpf(3) * 2 ** 22)};\n")
emit("inline constexpr uint32_t kExpFShiftBits = 0x4B400000u;  // its bits\n")


def f32_bits(v):
    import struct
    return struct.unpack("<I", struct.pack("<f", v))[0]


def bits_f32(b):
    import struct
    return struct.unpack("<f", struct.pack("<I", b))[0]


for tb in sorted({v[1] for v in EXPF.values()}):
    NF = 1 << tb
    exp_hi = [f32(mp.power(2, mp.mpf(j) / NF)) for j in range(NF)]
    exp_s = [bits_f32(f32_bits(exp_hi[j]) - (j << (23 - tb))) for j in range(NF)]
    exp_tau = [f32((mp.power(2, mp.mpf(j) / NF) - mp.mpf(exp_hi[j])) / mp.mpf(exp_hi[j])) for j in range(NF)]
    emit(f"// kExpFScale{NF}[j]: 2^(j/{NF}) rounded to float32 (T_j), then j << {23 - tb} subtracted from its bits: adding\n"
         f"// the bits k << {23 - tb} (= floor(k/{NF}) << 23 + j << {23 - tb}, j = k mod {NF}) gives 2^floor(k/{NF}) T_j.\n"
         f"// kExpFTau{NF}[j]: (2^(j/{NF}) - T_j) / T_j rounded to float32."
         + (f" Entries {NF}..15 repeat 0..{NF - 1} (a 16-lane permute\n// reads 4 index bits).\n" if NF < 16 else "\n"))
    emit(arr(f"kExpFScale{NF}", "float", exp_s * (16 // NF), hexf, 4))
    emit(arr(f"kExpFTau{NF}", "float", exp_tau * (16 // NF), hexf, 4))
for name, (base, tb, n) in EXPF.items():
    NF = 1 << tb
    c, err, R = expf[name]
    cc = LN2 / mp.log(base) / NF
    chi = f32(cc)
    clo = f32(cc - mp.mpf(chi))
    hi, lo = thr[name]
    emit(f"// {name.lower()}f: N = {NF}; N log2(b) (rounded); log_b(2)/N = CHi + CLo (CHi float32: x - k CHi is exact);\n"
         f"// k in [FastMin, FastMax]: 2^floor(k/N) is a normal float (the exact path's range); the largest float32\n"
         f"// x with a finite result, the smallest with a nonzero one; Q: b^r = 1 + r Q(r) on |r| <= {mp.nstr(R, 8)},\n"
         f"// degree {len(c) - 1}, float32 coefficients, max relative error of 1 + r Q {mp.nstr(err, 3)} (2^{lg(err)}).\n")
    emit(f"inline constexpr int k{name}FTableBits = {tb};\n")
    emit(f"inline constexpr float k{name}FInvC = {hexf(f32(NF * mp.log(base, 2)))};\n")
    emit(f"inline constexpr float k{name}FCHi = {hexf(chi)};\n")
    emit(f"inline constexpr float k{name}FCLo = {hexf(clo) if clo != 0 else '0.0f'};\n")
    emit(f"inline constexpr float k{name}FFastMin = {-126 << tb}.0f;\n")
    emit(f"inline constexpr float k{name}FFastMax = {(128 << tb) - 1}.0f;\n")
    emit(f"inline constexpr float k{name}FOverflow = {hexf(hi)};\n")
    emit(f"inline constexpr float k{name}FUnderflow = {hexf(lo)};\n")
    emit(arr(f"k{name}FPoly", "float", c, hexf))

emit("\n// ---- expm1 (binary64 lanes): x = k ln 2 + r, k = round(x log2(e)) ----\n")
emit("// 1.5 * 2^52: t + kExpShift rounds t to an integer (ties to even) held in the low mantissa bits.\n")
emit(f"inline constexpr double kExpShift = {hexd(mp.mpf(3) * 2 ** 51)};\n")
emit(f"inline constexpr double kExpLog2E = {hexd(1 / LN2)};    // log2(e)\n")
emit(f"inline constexpr double kExpLn2 = {hexd(LN2)};       // ln(2)\n")
emit(f"// expm1f: largest float32 x with a finite result (that of expf).\n")
emit(f"inline constexpr double kExpm1Overflow = {hexd(thr['Exp'][0])};  // {hexf(thr['Exp'][0])}\n")
emit(f"// expm1f: below this x the result is -1 (any x with e^x < 2^-25 would do); expm1 uses no table.\n")
emit(f"inline constexpr double kExpm1MinusOne = {hexd(EXPM1_LO)};\n")
emit(f"// kExpm1Poly: expm1(r) = r P(r) on |r| <= {mp.nstr(R_m1, 8)}, degree {len(expm1_c) - 1}; max relative "
     f"error of r P(r) {mp.nstr(err_m1, 3)} (2^{lg(err_m1)}).\n")
emit(arr("kExpm1Poly", "double", expm1_c, hexd))
emit(f"// kExp64Poly (ExpFinite64, binary64 lanes; erfcx, gamma, Bessel): e^r = P(r) on |r| <= {mp.nstr(R_EXP64, 8)}, "
     f"degree {len(exp64_c) - 1};\n// max relative error {mp.nstr(err_exp64, 3)} (2^{lg(err_exp64)}).\n")
emit(arr("kExp64Poly", "double", exp64_c, hexd))
emit(f"// kExp64PolyShort (ExpFinite64 of erfc and normcdf): the same on |r| <= {mp.nstr(R_EXP64, 8)}, "
     f"degree {len(exp64s_c) - 1};\n// max relative error {mp.nstr(err_exp64s, 3)} (2^{lg(err_exp64s)}).\n")
emit(arr("kExp64PolyShort", "double", exp64s_c, hexd))

emit(f"\n// ---- log2, log10 (float32 lanes): x = 2^k z, z in [kLogFOff, 2 kLogFOff) as bit patterns, {NTF} subintervals ----\n")
emit(f"inline constexpr int kLogFTableBits = {TBF};\n")
emit(f"inline constexpr uint32_t kLogFOff = 0x{OFFF:08X}u;  // {mp.nstr(fbits_to_mp(OFFF), 10)}\n")
emit(f"// invc_i: 1 / (midpoint of subinterval i) rounded to {INVCF_BITS} significant bits (1 for subinterval {one_f[0]}), so\n"
     f"// r = z invc - 1 is exact; r in [{mp.nstr(rf_lo, 6)}, {mp.nstr(rf_hi, 6)}].\n")
emit(arr("kLogFInvC", "float", invcf, hexf, 4))
for name, (Lhi, Llo, l2hi, l2lo, c1h, P, err) in logf.items():
    emit(f"// {name.lower()}f: log_b(1 / invc_i) = Hi + Lo (Hi a multiple of 2^-16), log_b(2) = L2Hi (a multiple of\n"
         f"// 2^-16) + L2Lo, C1 = 1/ln(b) rounded, and P: log_b(1 + r) = r (C1 + P(r)) on r in [{mp.nstr(RF_LO, 6)}, {mp.nstr(RF_HI, 6)}],\n"
         f"// degree {len(P) - 1}, float32 coefficients; max relative error {mp.nstr(err, 3)} (2^{lg(err)}).\n")
    emit(arr(f"k{name}FHi", "float", Lhi, hexf, 4))
    emit(arr(f"k{name}FLo", "float", Llo, hexf, 4))
    if l2lo != 0:  # log2: log_2(2) = 1 exactly, the kernel adds k itself
        emit(f"inline constexpr float k{name}FL2Hi = {hexf(l2hi)};\n")
        emit(f"inline constexpr float k{name}FL2Lo = {hexf(l2lo)};\n")
    emit(f"inline constexpr float k{name}FC1 = {hexf(c1h)};\n")
    emit(arr(f"k{name}FPoly", "float", P, hexf))
emit(f"\n// ---- log and log1p (float32 lanes): x = 2^(E - 127) m, q = bits(x) >> 20 = 8 E + i, {NT8} subintervals of m in [1, 2) ----\n")
emit(f"// invc_i (exact r = m invc - 1 in [{mp.nstr(r8_lo, 6)}, {mp.nstr(r8_hi, 6)}]); L2Hi + L2Lo = ln(2)/8 (L2Hi a multiple of\n"
     f"// 2^-17, 14 significant bits; L2Lo 14 bits); T_i + U_i = ln(1 / invc_i) - (1016 + i) ln(2)/8 (T_i a multiple of 2^-17); P:\n"
     f"// ln(1 + r) = r (1 + P(r)), degree {len(P8) - 1}, float32 coefficients; max relative error {mp.nstr(err8, 3)} (2^{lg(err8)}).\n")
emit(arr("kLogF8InvC", "float", invc8, hexf, 4))
emit(arr("kLogF8T", "float", T8, hexf, 4))
emit(arr("kLogF8U", "float", U8, hexf, 4))
emit(f"inline constexpr float kLogF8L2Hi = {hexf(L2HI8)};\n")
emit(f"inline constexpr float kLogF8L2Lo = {hexf(L2LO8)};\n")
emit(arr("kLogF8Poly", "float", P8, hexf))
emit("\n}  // namespace accelmath::coeffs\n")

sys.stdout.write("".join(out))
