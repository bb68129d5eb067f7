#!/usr/bin/env python3
"""Regenerates src/kernels/exp_log_coeffs.h, every constant the exp/log kernels use.

    python3 tools/coeffs/exp_log.py > src/kernels/exp_log_coeffs.h

Needs mpmath only. Deterministic: the same mpmath gives the same bytes (a CTest checks that the
committed header is what this script prints). The kernels evaluate in binary64 and round to
float32 once, so every approximation here has a relative error below 2^-36 (the float32 result
is then within 0.5 + 2^-12 ulp of the exact value).

Exp family (exp, exp2, exp10): x = (k / 16) log_b(2) + r, k = round(16 x log2(b)),
  |r| <= log_b(2)/32; b^x = 2^floor(k/16) 2^((k mod 16)/16) b^r.
  kExpTable                         2^(j/16), j = 0..15, rounded to double, with j << 48 subtracted
                                    from the bits (k << 48 is added back, k = 16 floor(k/16) + j).
  kExpPoly, kExp2Poly, kExp10Poly   Q with b^r = 1 + r Q(r): the Chebyshev interpolant of
                                    (b^r - 1)/r on |r| <= log_b(2)/32 (+ margin).
expm1: x = k ln 2 + r, k = round(x log2(e)), |r| <= ln(2)/2.
  kExpm1Poly                        expm1(r) = r (1 + r Q(r)), Q the Chebyshev interpolant of
                                    (expm1(r)/r - 1)/r on |r| <= ln(2)/2 (+ margin).
Log family (log, log2, log10, log1p): x = 2^k z, z in [kLogOff, 2 kLogOff) (bit patterns), the
  top kLogTableBits bits of z's offset mantissa pick one of N = 2^kLogTableBits subintervals,
  r = z invc_i - 1, log_b x = k log_b(2) + log_b(c_i) + r P_b(r), c_i = 1 / invc_i.
  kLogInvC     invc_i: 1 / (midpoint of subinterval i), rounded to 1 + 20 bits; exactly 1 for the
               subinterval that contains 1 (it straddles 1, so r = x - 1 exactly near 1).
  kLogLogC, kLog2LogC, kLog10LogC   log_b(c_i) = -log_b(invc_i) of the rounded invc_i, rounded;
               -0.0 for invc = 1 (the kernels rely on the sign: log1p(-0) = -0).
  kLogPoly, kLog2Poly, kLog10Poly            P_b, the Chebyshev interpolant of log1p(r)/(r ln b)
               on the range of r over all subintervals (+ margin).
Every polynomial's max relative error, with its coefficients rounded to double and evaluated
exactly, is measured on a dense grid and printed in the header (and asserted below).
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
TB_EXP = 4      # exp, exp2, exp10: 16-entry table of 2^(j/16)
N_EXP = 4       # b^r = 1 + r Q(r), Q of degree 3
N_EXPM1 = 8     # expm1: r (1 + r Q), Q of degree 6


def exp_poly(base, n):
    lb = mp.log(base)
    R = LN2 / lb / 2 ** (TB_EXP + 1) * MARGIN

    def q(r):
        return lb if r == 0 else mp.expm1(r * lb) / r
    coeffs = [float(c) for c in cheb_interp(q, -R, R, n)]
    err = max(abs((1 + r * horner_mp(coeffs, r)) / mp.exp(r * lb) - 1) for r in grid(-R, R))
    return coeffs, err, R


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


exp_e, err_e, R_e = exp_poly(mp.e, N_EXP)
exp_2, err_2, R_2 = exp_poly(2, N_EXP)
exp_10, err_10, R_10 = exp_poly(10, N_EXP)
expm1_c, err_m1, R_m1 = expm1_poly(N_EXPM1)
for e in (err_e, err_2, err_10, err_m1):
    assert e < 2 ** -36, e

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

# --- log family ---------------------------------------------------------------------------------
TB = 4                     # table bits: 16 entries, one two-register permute on AVX-512
NT = 1 << TB
W = 1 << (52 - TB)         # bit patterns per subinterval
ONE = 0x3FF0000000000000
# OFF = (multiple of W) + W/2 near sqrt(1/2): then 1.0 sits in the middle (in bit patterns) of a
# subinterval. Subinterval i covers the bit patterns [OFF + i W, OFF + (i + 1) W).
SQRT_HALF_BITS = 0x3FE6A09E667F3BCD
OFF = (SQRT_HALF_BITS // W) * W + W // 2


def bits_to_mp(b):
    import struct
    return mp.mpf(struct.unpack("<d", struct.pack("<Q", b))[0])


INVC_BITS = 20
invc, r_lo, r_hi = [], mp.mpf(0), mp.mpf(0)
for i in range(NT):
    lo = bits_to_mp(OFF + i * W)
    hi = bits_to_mp(OFF + (i + 1) * W)   # exclusive
    if lo <= 1 < hi:
        c = mp.mpf(1)
    else:
        with mp.workprec(INVC_BITS + 1):
            c = +(2 / (lo + hi))
    invc.append(c)
    r_lo = min(r_lo, lo * c - 1)
    r_hi = max(r_hi, hi * c - 1)
one_index = [i for i in range(NT) if invc[i] == 1]
assert len(one_index) == 1
# log1p uses r = x itself where |x| < kLog1pNearZero: 1 + x is then in the subinterval of invc = 1.
ONE_LO, ONE_HI = bits_to_mp(OFF + one_index[0] * W), bits_to_mp(OFF + (one_index[0] + 1) * W)
NEAR_ZERO = min(1 - ONE_LO, ONE_HI - 1)
# The fit interval is the range of r = z invc - 1 over all subintervals, widened by MARGIN (which
# covers the rounding of r).
R_LO, R_HI = r_lo * MARGIN, r_hi * MARGIN


def log_poly(scale, n):
    def p(r):
        return scale if r == 0 else mp.log1p(r) / r * scale
    coeffs = [float(c) for c in cheb_interp(p, R_LO, R_HI, n)]
    err = max(abs(r * horner_mp(coeffs, r) / (mp.log1p(r) * scale) - 1) for r in grid(R_LO, R_HI) if r != 0)
    return coeffs, err


N_LOG = 6
log_e, err_le = log_poly(mp.mpf(1), N_LOG)
log_2, err_l2 = log_poly(1 / LN2, N_LOG)
log_10, err_l10 = log_poly(1 / mp.log(10), N_LOG)
for e in (err_le, err_l2, err_l10):
    assert e < 2 ** -36, e
logc = [-mp.log(c) for c in invc]


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

emit("// ---- exp family: x = (k / 2^kExpTableBits) log_b(2) + r, k = round(2^kExpTableBits x log2(b)) ----\n")
emit(f"inline constexpr int kExpTableBits = {TB_EXP};\n")
emit(f"// kExpShiftT = 1.5 2^(52 - kExpTableBits): t + kExpShiftT rounds t to a multiple of 2^-kExpTableBits,\n"
     f"// k / {1 << TB_EXP}, held as the integer k in the low mantissa bits.\n")
emit(f"inline constexpr double kExpShiftT = {hexd(mp.mpf(3) * 2 ** (51 - TB_EXP))};\n")
emit(f"// T[j] = 2^(j / {1 << TB_EXP}) rounded to double, then j << {52 - TB_EXP} subtracted from its bits: adding the\n"
     f"// bits k << {52 - TB_EXP} (= floor(k/{1 << TB_EXP}) << 52 + j << {52 - TB_EXP}, j = k mod {1 << TB_EXP}) gives 2^(k / {1 << TB_EXP}).\n")


def exp_table_entry(j):
    import struct
    v = float(mp.power(2, mp.mpf(j) / (1 << TB_EXP)))
    b = struct.unpack("<Q", struct.pack("<d", v))[0] - (j << (52 - TB_EXP))
    return struct.unpack("<d", struct.pack("<Q", b))[0]


emit(arr("kExpTable", "double", [exp_table_entry(j) for j in range(1 << TB_EXP)], hexd, 2))
emit("// 1.5 * 2^52: t + kExpShift rounds t to an integer (ties to even) held in the low mantissa bits.\n")
emit(f"inline constexpr double kExpShift = {hexd(mp.mpf(3) * 2 ** 51)};\n")
emit(f"inline constexpr double kExpLog2E = {hexd(1 / LN2)};    // log2(e)\n")
emit(f"inline constexpr double kExpLn2 = {hexd(LN2)};       // ln(2)\n")
emit(f"inline constexpr double kExp10Log2Of10 = {hexd(mp.log(10, 2))};  // log2(10)\n")
emit(f"inline constexpr double kExp10Log10Of2 = {hexd(mp.log10(2))};  // log10(2)\n")
for name, (hi, lo) in thr.items():
    emit(f"// {name.lower()}f: largest float32 x with a finite result, smallest with a nonzero one.\n")
    emit(f"inline constexpr double k{name}Overflow = {hexd(hi)};  // {hexf(hi)}\n")
    emit(f"inline constexpr double k{name}Underflow = {hexd(lo)};  // {hexf(lo)}\n")
emit(f"// expm1f: below this x the result is -1 (any x with e^x < 2^-25 would do); expm1 uses no table.\n")
emit(f"inline constexpr double kExpm1MinusOne = {hexd(EXPM1_LO)};\n")
for name, c, err, R in (("kExpPoly", exp_e, err_e, R_e), ("kExp2Poly", exp_2, err_2, R_2),
                        ("kExp10Poly", exp_10, err_10, R_10)):
    emit(f"// {name}: b^r = 1 + r Q(r) on |r| <= {mp.nstr(R, 8)}, Q of degree {len(c) - 1}; max relative error of 1 + r Q "
         f"{mp.nstr(err, 3)} (2^{lg(err)}).\n")
    emit(arr(name, "double", c, hexd))
emit(f"// kExpm1Poly: expm1(r) = r P(r) on |r| <= {mp.nstr(R_m1, 8)}, degree {len(expm1_c) - 1}; max relative "
     f"error of r P(r) {mp.nstr(err_m1, 3)} (2^{lg(err_m1)}).\n")
emit(arr("kExpm1Poly", "double", expm1_c, hexd))

emit(f"\n// ---- log family: x = 2^k z, z in [kLogOff, 2 kLogOff) as bit patterns, {NT} subintervals ----\n")
emit(f"inline constexpr int kLogTableBits = {TB};\n")
emit(f"inline constexpr uint64_t kLogOff = 0x{OFF:016X}ull;  // {mp.nstr(bits_to_mp(OFF), 10)}\n")
emit(f"// 1.0 - kLogOff as bit patterns: bits(x) + this = (k + 1023) << 52 | offset mantissa.\n")
emit(f"inline constexpr uint64_t kLogOneMinusOff = 0x{ONE - OFF:016X}ull;\n")
emit(f"inline constexpr double kLogLn2 = {hexd(LN2)};\n")
emit(f"inline constexpr double kLogLog10Of2 = {hexd(mp.log10(2))};\n")
emit(f"// invc_i rounded to {INVC_BITS + 1} significant bits; invc = 1 for subinterval {one_index[0]}. "
     f"r = z invc - 1 in [{mp.nstr(r_lo, 6)}, {mp.nstr(r_hi, 6)}].\n")
emit(arr("kLogInvC", "double", invc, hexd, 2))
emit(f"// That subinterval is [1 - {hexd(1 - ONE_LO)}, 1 + {hexd(ONE_HI - 1)}): log1p takes r = x where |x| < this.\n")
emit(f"inline constexpr double kLog1pNearZero = {hexd(NEAR_ZERO)};\n")


def hexd_logc(v):
    return "-0x0.0p+0" if v == 0 else hexd(v)  # log(1/1) as -0.0


for name, b in (("kLogLogC", mp.e), ("kLog2LogC", mp.mpf(2)), ("kLog10LogC", mp.mpf(10))):
    emit(f"// {name}: log_b(1 / invc_i), b = {mp.nstr(b, 6)}, rounded to double (-0.0 where invc = 1).\n")
    emit(arr(name, "double", [c / mp.log(b) for c in logc], hexd_logc, 2))
for name, c, err in (("kLogPoly", log_e, err_le), ("kLog2Poly", log_2, err_l2), ("kLog10Poly", log_10, err_l10)):
    emit(f"// {name}: log_b(1 + r) = r P(r) on r in [{mp.nstr(R_LO, 6)}, {mp.nstr(R_HI, 6)}], degree {len(c) - 1}; "
         f"max relative error {mp.nstr(err, 3)} (2^{lg(err)}).\n")
    emit(arr(name, "double", c, hexd))
emit("\n}  // namespace accelmath::coeffs\n")

sys.stdout.write("".join(out))
