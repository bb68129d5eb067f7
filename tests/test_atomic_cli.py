#!/usr/bin/env python3
"""End-to-end tests of `accelmath atomic-table` and `atomic-sweep`.
Usage: test_atomic_cli.py ACCELMATH CSV (the published table, tests/data/atomic/atomic-boundary.csv).
Every row the tool prints is recomputed here from the spec's rules with exact rational arithmetic
(one rounding to nearest-even into the type, IEEE maximum/minimum, saturation, integer wrap/clamp),
and every row of the published float16 table must appear among the tool's rows."""
import math
import os
import struct
import sys
import tempfile
from fractions import Fraction

import cli_util
from cli_util import check, failures

EXE, CSV = sys.argv[1], sys.argv[2]
HEADER = "op,dtype,operand_a,operand_b,result_inf_nan_mode,result_saturation_mode"
FLOATS = {"half": (11, -14, 15), "bf16": (8, -126, 127), "float": (24, -126, 127)}  # p, emin, emax
INTS = {"int8": 8, "int16": 16, "int32": 32, "int64": 64}


def run(*args):
    return cli_util.run(EXE, *args)


def as_float32(s):
    """The tool prints the shortest text of the float32 value; read it back as that value."""
    return struct.unpack("f", struct.pack("f", float(s)))[0]


def type_max(dtype):
    p, _, emax = FLOATS[dtype]
    return (2 - Fraction(1, 2 ** (p - 1))) * Fraction(2) ** emax


def round_to(dtype, x):
    """Exact rational x rounded once to the type, nearest-even, overflow -> inf (a Python float)."""
    p, emin, emax = FLOATS[dtype]
    if x == 0:
        return 0.0
    a = abs(x)
    e = a.numerator.bit_length() - a.denominator.bit_length()
    if Fraction(2) ** e > a:
        e -= 1
    e = max(e, emin)
    q = a / Fraction(2) ** (e - p + 1)
    n = math.floor(q)
    if q - n > Fraction(1, 2) or (q - n == Fraction(1, 2) and n % 2 == 1):
        n += 1
    r = n * Fraction(2) ** (e - p + 1)
    if r > type_max(dtype):
        return math.copysign(math.inf, x)
    return float(r) if x > 0 else -float(r)


def model(op, dtype, a, b, saturate):
    if dtype in INTS:
        n = INTS[dtype]
        lo, hi = -(1 << (n - 1)), (1 << (n - 1)) - 1
        if op == "max":
            return max(a, b)
        if op == "min":
            return min(a, b)
        s = a + b
        return min(max(s, lo), hi) if saturate else (s - lo) % (1 << n) + lo
    if math.isnan(a) or math.isnan(b):
        r = math.nan
    elif op == "add":
        if math.isinf(a) or math.isinf(b):
            r = math.nan if (math.isinf(a) and math.isinf(b) and a != b) else (a if math.isinf(a) else b)
        elif a == 0 and b == 0:
            r = -0.0 if math.copysign(1, a) < 0 and math.copysign(1, b) < 0 else 0.0
        else:
            r = round_to(dtype, Fraction(a) + Fraction(b))
    elif a == b:  # equal: only +0 / -0 differ; -0 < +0
        neg = math.copysign(1, a) < 0
        r = (b if neg else a) if op == "max" else (a if neg else b)
    else:
        r = max(a, b) if op == "max" else min(a, b)
    if saturate and dtype != "float":
        m = float(type_max(dtype))
        r = 0.0 if math.isnan(r) else (math.copysign(m, r) if math.isinf(r) else r)
    return r


def same(x, y):
    if isinstance(x, float) and (math.isnan(x) or math.isnan(y)):
        return math.isnan(x) and math.isnan(y)
    return x == y and (not isinstance(x, float) or math.copysign(1, x) == math.copysign(1, y))


def parse(dtype, s):
    return int(s) if dtype in INTS else as_float32(s)


tables = {}
for dtype in list(FLOATS) + list(INTS):
    rc, out, err = run("atomic-table", "--dtype", dtype)
    lines = out.splitlines()
    check(rc == 0 and lines and lines[0] == HEADER, f"atomic-table --dtype {dtype}: header, exit 0")
    nvalues = 7 if dtype in FLOATS else 3
    check(len(lines) - 1 == 3 * nvalues * nvalues, f"{dtype}: {3 * nvalues * nvalues} rows (3 ops x every operand pair)")
    rows = {}
    wrong = []
    for line in lines[1:]:
        op, dt, a, b, ieee, sat = line.split(",")
        va, vb = parse(dtype, a), parse(dtype, b)
        rows[(op, a, b)] = (ieee, sat)
        for text, saturate in ((ieee, False), (sat, True)):
            if dt != dtype or not same(parse(dtype, text), model(op, dtype, va, vb, saturate)):
                wrong.append(line)
    check(not wrong, f"{dtype}: every row equals the exact model" + (f" (first wrong: {wrong[0]})" if wrong else ""))
    tables[dtype] = rows

# Every row of the published table, each '/' alternative, both operand orders, is one of the rows.
published = open(CSV).read().splitlines()
missing = []
pairs = 0
for line in published[1:]:
    op, dt, a, bs, ieee, sat = line.split(",")
    for b in bs.split("/"):
        for x, y in ((a, b), (b, a)):
            pairs += 1
            got = tables["half"].get((op, x, y))
            if got is None or not all(same(parse("half", g), parse("half", w)) for g, w in zip(got, (ieee, sat))):
                missing.append(f"{op}({x}, {y}) -> {ieee}, {sat}: tool {got}")
check(pairs == 168 and not missing,
      f"the published table's 58 rows ({pairs} ordered pairs) appear in `atomic-table --dtype half`"
      + (f"; first missing: {missing[0]}" if missing else ""))

# --check: the published table passes; a changed result, another dtype, bad files are reported.
rc, out, _ = run("atomic-table", "--dtype", "half", "--check", CSV)
check(rc == 0 and "336 checks" in out and "0 different -> PASS" in out, "--check on the published table: PASS")
with tempfile.TemporaryDirectory() as tmp:
    bad = os.path.join(tmp, "bad.csv")
    with open(bad, "w") as f:
        f.write("\n".join(published).replace("max,half,0.0,0.0/-0.0/-inf,0.0,0.0", "max,half,0.0,0.0/-0.0/-inf,-0.0,0.0") + "\n")
    rc, out, _ = run("atomic-table", "--dtype", "half", "--check", bad)
    check(rc == 1 and "DIFFERENT  max(0.0, -0.0) in inf/nan mode: table -0.0, library 0.0" in out,
          "--check reports a changed row (max(+0, -0)) and exits 1")
    with open(bad, "w") as f:
        f.write(HEADER + "\nadd,half,1e9,0.0,0.0,0.0\n")
    rc, _, err = run("atomic-table", "--dtype", "half", "--check", bad)
    check(rc == 2 and "not a half" in err, "--check: a value the type cannot hold is an error (exit 2)")
    with open(bad, "w") as f:
        f.write(HEADER + "\n")
    rc, _, err = run("atomic-table", "--dtype", "half", "--check", bad)
    check(rc == 2 and "no rows" in err, "--check: a table without rows is an error (exit 2)")
rc, _, err = run("atomic-table", "--dtype", "bf16", "--check", CSV)
check(rc == 2 and "expected 'bf16'" in err, "--check: a table of another dtype is an error (exit 2)")
rc, _, err = run("atomic-table", "--dtype", "fp8")
check(rc == 2 and "unknown dtype" in err, "unknown --dtype: exit 2")
rc, _, err = run("atomic-table", "--check", "/nonexistent.csv")
check(rc == 2 and "cannot read" in err, "unreadable --check file: exit 2")

# The sweep against the reference model (sampled here; `atomic-sweep` alone runs every pair).
rc, out, _ = run("atomic-sweep", "--sample", "200000", "--threads", "2")
check(rc == 0 and out.count("-> PASS") == 7, "atomic-sweep --sample: every type matches the model")
rc, _, err = run("atomic-sweep", "--dtype", "float")
check(rc == 2 and "--sample" in err, "atomic-sweep of float without --sample: exit 2")

# Hostile input to atomic-table --check and atomic-sweep: exit 2 and one line naming the file or
# option, or (CRLF line ends, a refused thread) the same result as without.
with tempfile.TemporaryDirectory() as tmp:
    usage = lambda args, words, what, **kw: cli_util.check_usage_error(EXE, args, words, what, **kw)
    crlf = os.path.join(tmp, "crlf.csv")
    with open(crlf, "w", newline="") as f:
        f.write("\r\n".join(published) + "\r\n")
    rc, out, err = run("atomic-table", "--dtype", "half", "--check", crlf)
    check(rc == 0 and "336 checks" in out and "0 different -> PASS" in out,
          f"--check reads CRLF line ends as the published table (was 'the first line is not the header'): {err.strip()}")
    usage(["atomic-table", "--check", tmp], [tmp, "directory"], "--check a directory says so")
    usage(["atomic-table", "--check", "/dev/zero"], ["/dev/zero", "regular file"],
          "--check /dev/zero is refused at once (it read forever)", timeout=20, mem=1 << 30)
    usage(["atomic-sweep", "--sample", "-1", "--quiet"], ["--sample", "'-1'", "4294967296"],
          "atomic-sweep --sample -1 is refused (it printed PASS after 65,536 pairs)")
    usage(["atomic-sweep", "--sample", "18446744073709551615", "--quiet"], ["--sample", "4294967296"],
          "atomic-sweep --sample 2^64 - 1 is refused with its bound")
    args = ["atomic-sweep", "--dtype", "int16", "--sample", "300000", "--seed", "3", "--quiet"]
    rc0, want, _ = run(*args, "--threads", "2")
    rc, got, err = cli_util.run_limited(EXE, *args, "--threads", "100", nproc=12)
    lines = err.strip().splitlines()
    strip_time = lambda s: [l.split(" (")[0] for l in s.splitlines()]
    if rc == "skip":
        print("skip  atomic-sweep under a process limit: the tool cannot run as user nobody here")
    else:
        check(rc == rc0 == 0 and strip_time(got) == strip_time(want) and len(lines) == 1 and "--threads 100" in lines[0],
              f"atomic-sweep --threads 100 under a process limit: exit {rc} (was an abort), same result, one note: {lines[:3]}")

print(f"{len(failures)} failure(s)")
sys.exit(1 if failures else 0)
