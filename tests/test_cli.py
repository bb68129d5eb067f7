#!/usr/bin/env python3
"""End-to-end tests of the accelmath CLI's file handling (run, verify). Usage: test_cli.py ACCELMATH."""
import os
import sys
import tempfile

import numpy as np

import cli_util
from cli_util import check, failures
from scipy import special

EXE = sys.argv[1]


def run(*args):
    return cli_util.run(EXE, *args)


def max_ulp(y32, p):
    exact = special.ndtri(p.astype(np.float64))
    fin = np.isfinite(exact)
    spacing = np.spacing(np.abs(exact[fin]).astype(np.float32)).astype(np.float64)
    return float(np.max(np.abs(y32[fin].astype(np.float64) - exact[fin]) / spacing)) if fin.any() else 0.0


with tempfile.TemporaryDirectory() as d:
    P = lambda name: os.path.join(d, name)
    rng = np.random.default_rng(5)

    # Shapes are kept, values are right (vs SciPy in double), memory order is kept.
    for shape in [(), (1,), (7,), (2, 3, 5), (4, 1, 3, 2)]:
        p = rng.uniform(0, 1, size=shape).astype(np.float32)
        np.save(P("p.npy"), p)
        for op in ["ndtri", "ndtri_taskbook"]:
            rc, _, err = run("run", "--op", op, "--in", P("p.npy"), "--out", P("x.npy"))
            x = np.load(P("x.npy"))
            check(rc == 0 and x.shape == p.shape and x.dtype == np.float32, f"run {op} shape {shape}")
            if op == "ndtri":
                check(max_ulp(x.ravel(), p.ravel()) <= 1.0, f"run ndtri values within 1 ulp, shape {shape}")
    pf = np.asfortranarray(rng.uniform(0, 1, size=(3, 4)).astype(np.float32))
    np.save(P("pf.npy"), pf)
    rc, _, _ = run("run", "--op", "ndtri", "--in", P("pf.npy"), "--out", P("xf.npy"))
    xf = np.load(P("xf.npy"))
    check(rc == 0 and xf.flags.f_contiguous and max_ulp(xf, pf) <= 1.0, "run keeps Fortran order and element positions")
    np.save(P("empty.npy"), np.zeros((0, 3), np.float32))
    rc, _, _ = run("run", "--op", "ndtri", "--in", P("empty.npy"), "--out", P("xe.npy"))
    check(rc == 0 and np.load(P("xe.npy")).shape == (0, 3), "run on an empty array")

    # Bad inputs: exit 2, one line naming the problem, no output file left behind.
    good = P("good.npy")
    np.save(good, rng.uniform(0, 1, size=100).astype(np.float32))
    raw = open(good, "rb").read()
    open(P("trunc.npy"), "wb").write(raw[:-10])
    open(P("hdr.npy"), "wb").write(raw[:8] + b"\xff\x7f" + raw[10:40])
    open(P("text.npy"), "w").write("hello\n")
    open(P("garbled.npy"), "wb").write(raw[:10] + b"{'descr': '<f4', 'fortran_order': Maybe, 'shape': (100,), }" + raw[70:])
    np.save(P("f64.npy"), np.zeros(5, np.float64))
    np.save(P("i32.npy"), np.zeros(5, np.int32))
    cases = {
        "f64.npy": "dtype",
        "i32.npy": "dtype",
        "trunc.npy": "truncated",
        "hdr.npy": "truncated",
        "text.npy": "not a .npy",
        "garbled.npy": "fortran_order",
        "missing.npy": "cannot open",
    }
    for name, word in cases.items():
        out = P("out_" + name)
        rc, so, err = run("run", "--op", "ndtri", "--in", P(name), "--out", out)
        lines = err.strip().splitlines()
        check(rc == 2 and len(lines) == 1 and word in lines[0] and not os.path.exists(out),
              f"run rejects {name}: exit {rc}, message {lines}")
    rc, _, err = run("run", "--op", "ndtri", "--in", good, "--out", os.path.join(d, "no_such_dir", "x.npy"))
    check(rc == 2 and "cannot write" in err, "run reports an unwritable output")
    check(not any(f.startswith("out_") or ".tmp." in f for f in os.listdir(d)), "no partial output files remain")
    rc, _, err = run("run", "--op", "no_such_fn", "--in", good, "--out", P("z.npy"))
    check(rc == 2 and "unknown function" in err and "exp" in err, "run rejects an unknown function, listing the known ones")
    rc, _, err = run("run", "--op", "exp", "--in", good, "--in", good, "--out", P("z.npy"))
    check(rc == 2 and "takes 1 --in" in err and not os.path.exists(P("z.npy")), "run rejects a wrong number of inputs")
    rc, _, err = run("run", "--op", "exp", "--in", good, "--out", P("z.npy"), "--out", P("z2.npy"))
    check(rc == 2 and "writes 1 --out" in err, "run rejects a wrong number of outputs")
    rc, _, _ = run("run", "--in", good, "--out", P("z.npy"))
    check(rc == 2, "run without --op is a usage error")

    # Every function of the registry through `run`, against the library's own scalar values computed
    # independently here (NumPy in double precision) for the exp/log family.
    # (SciPy's fresnel for the Fresnel integrals; for sinpi/cospi/tanpi the argument is reduced
    # exactly first, x - round(x), as NumPy's sin(pi x) would not be.)
    rc, so, _ = run("list")
    rows = [l.split() for l in so.splitlines()[1:]]
    results = {r[0]: int(r[2]) for r in rows}
    names = list(results)
    check(rc == 0 and {"exp", "log1p", "ndtri", "sin", "sincos", "fresnel"} <= set(names), f"list names the functions: {names}")
    x = np.concatenate([rng.uniform(-20, 20, 500), rng.uniform(0, 5, 500), [0.0, -0.0, np.inf, -np.inf, np.nan]])
    x = x.astype(np.float32)
    np.save(P("x.npy"), x)

    def pi_reduced(fn):
        return lambda v: fn(np.pi * (v - np.round(v))) * np.where(np.round(v) % 2 == 0, 1.0, -1.0)

    numpy_ref = {"exp": np.exp, "exp2": np.exp2, "exp10": lambda v: np.power(10.0, v), "expm1": np.expm1,
                 "log": np.log, "log2": np.log2, "log10": np.log10, "log1p": np.log1p, "sin": np.sin, "cos": np.cos,
                 "tan": np.tan, "sinpi": pi_reduced(np.sin), "cospi": pi_reduced(np.cos),
                 "tanpi": lambda v: np.tan(np.pi * (v - np.round(v))),
                 "fresnel_c": lambda v: special.fresnel(v)[1], "fresnel_s": lambda v: special.fresnel(v)[0]}
    outputs = {}
    with np.errstate(all="ignore"):
        for name in names:
            outs = [P(f"y_{name}_{k}.npy") for k in range(results[name])]
            rc, _, err = run("run", "--op", name, "--in", P("x.npy"), *sum((["--out", o] for o in outs), []))
            ys = [np.load(o) for o in outs] if rc == 0 else None
            check(rc == 0 and all(y.shape == x.shape and y.dtype == np.float32 for y in ys), f"run --op {name}: exit {rc} {err}")
            if ys is not None:
                outputs[name] = ys
            if name in numpy_ref and ys is not None:
                y = ys[0]
                ref = numpy_ref[name](x.astype(np.float64))
                fin = np.isfinite(ref) & (np.abs(ref) < 3e38) & (np.abs(ref) > 1e-37)
                spacing = np.spacing(np.abs(ref[fin]).astype(np.float32)).astype(np.float64)
                err_ulp = float(np.max(np.abs(y[fin] - ref[fin]) / spacing))
                same_class = np.array_equal(np.isnan(y), np.isnan(ref)) and np.array_equal(y[np.isinf(ref)], ref[np.isinf(ref)])
                check(err_ulp <= 1.0 and same_class, f"run --op {name} within 1 ulp of NumPy/SciPy ({err_ulp:.3f}), specials agree")
    # The two-result functions write the bits of their one-result parts.
    for pair, parts in {"sincos": ("sin", "cos"), "sincospi": ("sinpi", "cospi"), "fresnel": ("fresnel_c", "fresnel_s")}.items():
        if pair in outputs:
            same = all(np.array_equal(outputs[pair][k].view(np.uint32), outputs[parts[k]][0].view(np.uint32)) for k in (0, 1))
            check(same, f"run --op {pair} writes the bits of {parts[0]} and {parts[1]}")
    rc, _, err = run("run", "--op", "sincos", "--in", good, "--out", P("s1.npy"))
    check(rc == 2 and "writes 2 --out" in err and not os.path.exists(P("s1.npy")), "run sincos with one --out is rejected")
    rc, _, err = run("run", "--op", "sincos", "--in", good, "--out", P("s1.npy"), "--out", os.path.join(d, "no_dir", "c.npy"))
    check(rc == 2 and "cannot write" in err and not os.path.exists(P("s1.npy")),
          "run sincos with an unwritable second --out leaves no first output behind")
    rc, _, err = run("run", "--op", "sincos", "--in", good, "--out", P("s1.npy"), "--out", P("s1.npy"))
    check(rc == 2 and "must differ" in err and not os.path.exists(P("s1.npy")), "run sincos with the same --out twice is rejected")

    # verify: pass, fail, bad input.
    p = rng.uniform(0, 1, size=4096).astype(np.float32)
    np.save(P("vp.npy"), p)
    np.save(P("golden.npy"), special.ndtri(p.astype(np.float64)).astype(np.float32))
    run("run", "--op", "ndtri", "--in", P("vp.npy"), "--out", P("actual.npy"))
    rc, so, _ = run("verify", "--golden", P("golden.npy"), "--actual", P("actual.npy"))
    check(rc == 0 and "verdict: PASS" in so and "error ratio" in so, "verify passes SciPy vs ours")
    rc, so, _ = run("verify", "--golden", P("golden.npy"), "--actual", P("actual.npy"), "--standard", "mere-mare")
    check(rc == 0 and "MERE" in so, "verify mere-mare passes")
    bad = np.load(P("actual.npy"))
    bad[:5] += 0.01
    np.save(P("bad.npy"), bad)
    rc, so, _ = run("verify", "--golden", P("golden.npy"), "--actual", P("bad.npy"))
    check(rc == 1 and "verdict: FAIL" in so and "errors: 5" in so, "verify fails 5 bad elements of 4096")
    rc, so, _ = run("verify", "--golden", P("golden.npy"), "--actual", P("bad.npy"), "--max-error-ratio", "0.01")
    check(rc == 0, "verify --max-error-ratio loosens the ratio")
    np.save(P("short.npy"), bad[:100])
    rc, _, err = run("verify", "--golden", P("golden.npy"), "--actual", P("short.npy"))
    check(rc == 2 and "shape mismatch" in err, "verify rejects a shape mismatch")
    np.save(P("g64.npy"), special.ndtri(p.astype(np.float64)))
    rc, _, err = run("verify", "--golden", P("g64.npy"), "--actual", P("actual.npy"))
    check(rc == 2 and "dtype mismatch" in err, "verify rejects a dtype mismatch")
    rc, _, err = run("verify", "--golden", P("missing.npy"), "--actual", P("actual.npy"))
    check(rc == 2, "verify rejects a missing file")
    rc, _, _ = run("verify", "--golden", P("golden.npy"))
    check(rc == 2, "verify without --actual is a usage error")

print(f"{len(failures)} failed")
sys.exit(1 if failures else 0)
