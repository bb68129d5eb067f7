#!/usr/bin/env python3
"""End-to-end tests of the accelmath CLI's file handling (run, verify). Usage: test_cli.py ACCELMATH."""
import os
import subprocess
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
    inputs = {r[0]: int(r[2]) for r in rows}
    results = {r[0]: int(r[3]) for r in rows}
    names = list(results)
    check(rc == 0 and {"exp", "log1p", "ndtri", "sin", "sincos", "fresnel"} <= set(names), f"list names the functions: {names}")
    check(set(inputs.values()) <= {1, 2} and set(results.values()) <= {1, 2}, f"list gives inputs and results: {rows[:2]}")
    x = np.concatenate([rng.uniform(-20, 20, 500), rng.uniform(0, 5, 500), [0.0, -0.0, np.inf, -np.inf, np.nan]])
    x = x.astype(np.float32)
    np.save(P("x.npy"), x)
    # The second input of the two-input functions: other magnitudes and signs, and the specials against
    # each other (the last five of x against these five).
    x2 = np.concatenate([rng.uniform(-30, 30, 500), rng.uniform(-1e-3, 1e-3, 500), [-0.0, 0.0, np.inf, np.nan, -np.inf]])
    x2 = x2.astype(np.float32)
    np.save(P("x2.npy"), x2)

    def pi_reduced(fn):
        return lambda v: fn(np.pi * (v - np.round(v))) * np.where(np.round(v) % 2 == 0, 1.0, -1.0)

    numpy_ref = {"exp": np.exp, "exp2": np.exp2, "exp10": lambda v: np.power(10.0, v), "expm1": np.expm1,
                 "log": np.log, "log2": np.log2, "log10": np.log10, "log1p": np.log1p, "sin": np.sin, "cos": np.cos,
                 "tan": np.tan, "sinpi": pi_reduced(np.sin), "cospi": pi_reduced(np.cos),
                 "tanpi": lambda v: np.tan(np.pi * (v - np.round(v))),
                 "fresnel_c": lambda v: special.fresnel(v)[1], "fresnel_s": lambda v: special.fresnel(v)[0],
                 "atan2": np.arctan2}
    outputs = {}
    with np.errstate(all="ignore"):
        for name in names:
            outs = [P(f"y_{name}_{k}.npy") for k in range(results[name])]
            ins = [P("x.npy"), P("x2.npy")][:inputs[name]]
            rc, _, err = run("run", "--op", name, *sum((["--in", i] for i in ins), []), *sum((["--out", o] for o in outs), []))
            ys = [np.load(o) for o in outs] if rc == 0 else None
            check(rc == 0 and all(y.shape == x.shape and y.dtype == np.float32 for y in ys), f"run --op {name}: exit {rc} {err}")
            if ys is not None:
                outputs[name] = ys
            if name in numpy_ref and ys is not None:
                y = ys[0]
                ref = numpy_ref[name](*[a.astype(np.float64) for a in (x, x2)[:inputs[name]]])
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

    # Two inputs (every two-input row): same shape required, one --in per input; memory order kept.
    for name in [n for n in names if inputs[n] == 2]:
        rc, _, err = run("run", "--op", name, "--in", good, "--out", P("b.npy"))
        check(rc == 2 and "takes 2 --in" in err and not os.path.exists(P("b.npy")), f"run {name} with one --in is rejected")
        np.save(P("short.npy"), np.zeros(99, np.float32))
        rc, _, err = run("run", "--op", name, "--in", good, "--in", P("short.npy"), "--out", P("b.npy"))
        lines = err.strip().splitlines()
        check(rc == 2 and len(lines) == 1 and "(100,)" in lines[0] and "(99,)" in lines[0] and not os.path.exists(P("b.npy")),
              f"run {name} with inputs of different shapes: exit {rc}, one line naming both shapes: {lines}")
        np.save(P("f64b.npy"), np.zeros(100, np.float64))
        rc, _, err = run("run", "--op", name, "--in", good, "--in", P("f64b.npy"), "--out", P("b.npy"))
        check(rc == 2 and "dtype" in err and "f64b.npy" in err, f"run {name} rejects a float64 second input")
        a2 = np.asfortranarray(rng.uniform(-2, 2, size=(3, 4)).astype(np.float32))
        b2 = np.asfortranarray(rng.uniform(-2, 2, size=(3, 4)).astype(np.float32))
        np.save(P("a2.npy"), a2), np.save(P("b2.npy"), b2)
        rc, _, err = run("run", "--op", name, "--in", P("a2.npy"), "--in", P("b2.npy"), "--out", P("ab.npy"))
        ab = np.load(P("ab.npy")) if rc == 0 else None
        # Element positions: the same as running the flat C-order arrays.
        np.save(P("a2c.npy"), a2.ravel(order="K")), np.save(P("b2c.npy"), b2.ravel(order="K"))
        rc2, _, _ = run("run", "--op", name, "--in", P("a2c.npy"), "--in", P("b2c.npy"), "--out", P("abc.npy"))
        check(rc == 0 and rc2 == 0 and ab.flags.f_contiguous and ab.shape == (3, 4) and
              np.array_equal(ab.ravel(order="K").view(np.uint32), np.load(P("abc.npy")).view(np.uint32)),
              f"run {name} keeps Fortran order and pairs the elements by position")
        np.save(P("a2c.npy"), np.ascontiguousarray(a2))
        rc, _, err = run("run", "--op", name, "--in", P("a2c.npy"), "--in", P("b2.npy"), "--out", P("b.npy"))
        check(rc == 2 and "Fortran" in err and not os.path.exists(P("b.npy")), f"run {name} rejects inputs of different memory orders")

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

# Hostile input never crashes the tool, corrupts a result or loses a file: each crafted file or
# output path below is refused with exit 2 and one line naming the problem, and every output path
# keeps what it held (check_refused prepares the outputs with known content and compares).
with tempfile.TemporaryDirectory() as d:
    P = lambda name: os.path.join(d, name)
    refused = lambda args, word, what, watch=(), timeout=60: cli_util.check_refused(EXE, args, word, what, watch, timeout)

    def keep(*names):
        for n in names:
            open(P(n), "wb").write(b"old content of " + n.encode())
        return [P(n) for n in names]

    def craft(name, header, data=b"", major=1):
        open(P(name), "wb").write(cli_util.npy_bytes(header, data, major))
        return P(name)

    x = np.linspace(0.05, 0.95, 12, dtype=np.float32)
    good = P("good.npy")
    np.save(good, x)
    rc, _, _ = run("run", "--op", "ndtri", "--in", good, "--out", P("ref.npy"))
    ref = np.load(P("ref.npy"))
    hdr = lambda shape, descr="<f4": "{'descr': '%s', 'fortran_order': False, 'shape': %s, }" % (descr, shape)

    # 1. Sizes: every computation on the header is overflow-checked, and the data must fill the
    # rest of the file exactly, before anything is allocated.
    out = keep("o1.npy")
    craft("wrap64.npy", hdr("(4294967296, 4294967296)"))
    refused(["run", "--op", "ndtri", "--in", P("wrap64.npy"), "--out", out[0]], "too large",
            "run refuses shape (2^32, 2^32) with no data (the element count wraps to 0)", out)
    refused(["verify", "--golden", P("wrap64.npy"), "--actual", P("wrap64.npy")], "too large",
            "verify refuses two files of shape (2^32, 2^32), not 'PASS, elements: 0'")
    craft("digits.npy", hdr("(18446744073709551619,)"), x[:3].tobytes())
    refused(["run", "--op", "ndtri", "--in", P("digits.npy"), "--out", out[0]], "too large",
            "run refuses shape (2^64 + 3,) (its digits wrap to (3,))", out)
    craft("e62.npy", hdr("(%d,)" % 2**62))
    refused(["run", "--op", "ndtri", "--in", P("e62.npy"), "--out", out[0]], "too large",
            "run refuses shape (2^62,) of float32 (2^64 bytes wrap to 0), no std::length_error abort", out)
    craft("e60.npy", hdr("(%d,)" % 2**60))
    refused(["run", "--op", "ndtri", "--in", P("e60.npy"), "--out", out[0]], "truncated",
            "run refuses shape (2^60,) with no data as truncated, before allocating 2^62 bytes", out)
    open(P("tail.npy"), "wb").write(open(good, "rb").read() + b"\0\0\0\0")
    refused(["run", "--op", "ndtri", "--in", P("tail.npy"), "--out", out[0]], "after the data",
            "run refuses bytes after the data", out)

    # 2. Only regular files are read: a directory, /dev/zero (endless) and a FIFO (no writer) are refused at once.
    os.mkdir(P("adir.npy"))
    refused(["run", "--op", "ndtri", "--in", P("adir.npy"), "--out", out[0]], "directory",
            "run --in a directory is refused (not an uncaught ios_base::failure)", out)
    refused(["verify", "--golden", P("adir.npy"), "--actual", good], "directory", "verify --golden a directory is refused")
    refused(["verify", "--golden", good, "--actual", P("adir.npy")], "directory", "verify --actual a directory is refused")
    refused(["run", "--op", "ndtri", "--in", "/dev/zero", "--out", out[0]], "regular file",
            "run --in /dev/zero is refused, not read forever", out, timeout=5)
    os.mkfifo(P("fifo.npy"))
    refused(["run", "--op", "ndtri", "--in", P("fifo.npy"), "--out", out[0]], "regular file",
            "run --in a FIFO without a writer is refused, not waited on", out, timeout=5)

    # 3. The header is parsed as strictly as NumPy does; big-endian data is named as such.
    data3 = x[:12].tobytes()
    for name, header, word in [
            ("sp.npy", hdr("(3 4)"), "shape (3 4)"),
            ("key.npy", "{'descr': '<f4', 'fortran_order': False, 'shape': (12,), 'extra': 1, }", "unknown key 'extra'"),
            ("int.npy", hdr("(12)"), "not a tuple"),
            ("neg.npy", hdr("(-12,)"), "negative"),
            ("twice.npy", "{'descr': '<f4', 'fortran_order': False, 'shape': (12,), 'shape': (12,), }", "twice"),
            ("noshape.npy", "{'descr': '<f4', 'fortran_order': False, }", "no 'shape'"),
            ("comma.npy", "{'descr': '<f4' 'fortran_order': False, 'shape': (12,), }", "expected ','"),
            ("after.npy", hdr("(12,)") + " x", "after the closing"),
            ("nodict.npy", "('<f4', False, (12,))", "not a dict"),
            ("f3.npy", hdr("(12,)", "<f3"), "unsupported dtype"),
    ]:
        craft(name, header, data3)
        refused(["run", "--op", "ndtri", "--in", P(name), "--out", out[0]], word, f"run refuses the header {header!r}", out)
    craft("be.npy", hdr("(12,)", ">f4"), x.astype(">f4").tobytes())
    refused(["run", "--op", "ndtri", "--in", P("be.npy"), "--out", out[0]], "big-endian", "run names big-endian '>f4' as such", out)
    refused(["verify", "--golden", P("be.npy"), "--actual", P("be.npy")], "big-endian",
            "verify names big-endian '>f4' as such (not 'not a floating-point type')")
    # ... and what NumPy accepts stays accepted: any key order, no trailing comma or spaces,
    # "(12, )", format versions 2.0 and 3.0.
    for name, header, major in [
            ("tight.npy", "{'descr':'<f4','fortran_order':False,'shape':(12,)}", 1),
            ("order.npy", "{'shape': (12, ), 'fortran_order': False, 'descr': '<f4'}", 1),
            ("v2.npy", hdr("(12,)"), 2),
            ("v3.npy", hdr("(3,4,)"), 3),
    ]:
        craft(name, header, data3, major)
        rc, _, err = run("run", "--op", "ndtri", "--in", P(name), "--out", P("acc.npy"))
        check(rc == 0 and np.array_equal(np.load(P("acc.npy")).ravel(), ref), f"run accepts the header {header!r} (v{major}): {err.strip()}")

    # 4. Outputs: the temporary has an unpredictable name and is created exclusively, so a link
    # planted under the old name (OUT.tmp.<pid>) is not followed ...
    open(P("victim.txt"), "wb").write(b"precious")
    rc = subprocess.run(["sh", "-c", 'ln -s "$1" "$2.tmp.$$" && exec "$3" run --op ndtri --in "$4" --out "$2"', "sh",
                         P("victim.txt"), P("linked.npy"), EXE, good]).returncode
    check(rc == 0 and open(P("victim.txt"), "rb").read() == b"precious" and not os.path.islink(P("linked.npy"))
          and np.array_equal(np.load(P("linked.npy")), ref),
          f"run: a symlink planted at OUT.tmp.<pid> is not followed (exit {rc}), the output is right")
    for f in os.listdir(d):
        if ".tmp." in f:
            os.remove(P(f))
    # ... and a set of outputs is checked up front and written all or nothing.
    outs = keep("s1.npy")
    refused(["run", "--op", "sincos", "--in", good, "--out", outs[0], "--out", P("no_dir/c.npy")], "does not exist",
            "run sincos: second --out in a missing folder, the first --out keeps its old content", outs)
    outs = keep("s1.npy")  # (afresh: an old build may have removed it)
    refused(["run", "--op", "fresnel", "--in", good, "--out", outs[0], "--out", P("adir.npy")], "directory",
            "run fresnel: second --out a directory, the first --out keeps its old content", outs + [P("adir.npy")])
    outs = keep("s1.npy")  # (afresh: an old build may have removed it)
    refused(["run", "--op", "sincos", "--in", good, "--out", outs[0], "--out", os.path.join(d, ".", "s1.npy")], "same file",
            "run sincos: the two --out spelled differently but the same file", outs)
    outs = keep("s1.npy")  # (afresh: an old build may have removed it)
    os.link(outs[0], P("s1_hard.npy"))
    refused(["run", "--op", "sincos", "--in", good, "--out", outs[0], "--out", P("s1_hard.npy")], "same file",
            "run sincos: the second --out a hard link of the first", outs)
    os.mkfifo(P("fifo_out.npy"))
    refused(["run", "--op", "ndtri", "--in", good, "--out", P("fifo_out.npy")], "regular file",
            "run --out a FIFO is refused, the FIFO stays", [P("fifo_out.npy")])
    outs = keep("s1.npy")  # (afresh: an old build may have removed it)
    refused(["run", "--op", "sincos", "--in", P("e62.npy"), "--out", outs[0], "--out", P("no_dir/c.npy")], "does not exist",
            "run: the outputs are checked before the input is read", outs)

    # 5. Empty arrays: run gives empty outputs of the same shape; verify has nothing to compare.
    np.save(P("empty.npy"), np.zeros((0,), np.float32))
    rc, _, err = run("run", "--op", "sincos", "--in", P("empty.npy"), "--out", P("e1.npy"), "--out", P("e2.npy"))
    check(rc == 0 and all(np.load(P(n)).shape == (0,) and np.load(P(n)).dtype == np.float32 for n in ("e1.npy", "e2.npy")),
          f"run sincos on shape (0,): two empty outputs {err.strip()}")
    refused(["verify", "--golden", P("empty.npy"), "--actual", P("empty.npy")], "empty",
            "verify on two empty arrays: an error (nothing to compare), not a PASS")

# Option values and usage (hostile input): each refused with exit 2 and one line on stderr that
# names the option (or word) and the rule, before any work; and no crash when the system refuses a
# thread or stdout cannot be written.
with tempfile.TemporaryDirectory() as d:
    P = lambda name: os.path.join(d, name)
    usage = lambda args, words, what, **kw: cli_util.check_usage_error(EXE, args, words, what, **kw)
    np.save(P("g.npy"), np.linspace(0.1, 0.9, 64, dtype=np.float32))
    # Counts: CLI11 alone reads "-1" as 2^64 - 1 (a sweep that grows memory without end); each count
    # has an upper bound, named in the message.
    usage(["sweep", "ndtri", "--sample", "-1", "--quiet"], ["--sample", "'-1'"],
          "sweep --sample -1 is refused (it grew memory without bound)")
    usage(["sweep", "ndtri", "--sample", "1000000000000", "--quiet"], ["--sample", "100000000"],
          "sweep --sample 1e12 is refused with its bound (it aborted with std::bad_alloc)")
    # A function of two inputs generates its sample as it goes: a larger bound, 2^40.
    usage(["sweep", "--all", "--sample", "1000000000000", "--quiet"], ["--sample", "100000000"],
          "sweep --all --sample 1e12 is refused for the one-input functions")
    usage(["sweep", "ndtri", "--sample", "2000000000000", "--quiet"], ["--sample", str(1 << 40)],
          "sweep --sample 2e12 is refused with the two-input bound")
    usage(["oracle-check", "ndtri", "--samples", "-5", "--quiet"], ["--samples", "'-5'", "100000000"],
          "oracle-check --samples -5 is refused (it grew memory without bound)")
    usage(["verify", "--golden", P("g.npy"), "--actual", P("g.npy"), "--show", "-1"], ["--show", "'-1'"],
          "verify --show -1 is refused")
    rc, so, _ = run("sweep", "--help")
    check(rc == 0 and "100000000" in so, "sweep --help states the --sample bound")
    # Tolerances: out of range or NaN is refused, not replaced by the default or a switched-off check.
    for opt, value in [("--atol", "-5"), ("--atol", "nan"), ("--rtol", "-1"), ("--rtol", "inf"),
                       ("--max-error-ratio", "2"), ("--max-error-ratio", "nan"), ("--threshold", "nan")]:
        usage(["verify", "--golden", P("g.npy"), "--actual", P("g.npy"), opt, value], [opt, value],
              f"verify {opt} {value} is refused (it was replaced by the default or accepted)")
    for cmd in (["sweep", "ndtri", "--sample", "100"], ["oracle-check", "ndtri", "--samples", "100"]):
        for value in ("nan", "-1"):
            usage([*cmd, "--quiet", "--max-ulp", value], ["--max-ulp", value], f"{cmd[0]} --max-ulp {value} is refused")
    # Subcommands: an unknown word is named, and the subcommands listed.
    usage(["frobnicate", "--x"], ["'frobnicate'", "quantize", "atomic-sweep"],
          "an unknown subcommand is named and the subcommands listed (was 'A subcommand is required')")
    usage([], ["subcommand", "quantize"], "no subcommand: one line listing them")
    # stdout that cannot be written: not a silent exit 0.
    rc, _, err = cli_util.run_limited(EXE, "list", stdout="/dev/full")
    lines = err.strip().splitlines()
    check(rc == 2 and len(lines) == 1 and "stdout" in lines[0], f"list > /dev/full: exit {rc} (exit 0 before the fix), {lines}")
    rc, _, err = cli_util.run_limited(EXE, "sweep", "--help", stdout="/dev/full")
    check(rc == 2 and len(err.strip().splitlines()) == 1, f"sweep --help > /dev/full: exit {rc}, one line")
    # A thread the system refuses (a process limit): the sweep continues on fewer threads with the
    # same result and says so in one line, not an abort on std::system_error.
    args = ["sweep", "exp", "--sample", "200000", "--seed", "4", "--quiet"]
    rc0, want, _ = run(*args, "--threads", "2")
    rc, got, err = cli_util.run_limited(EXE, *args, "--threads", "200", nproc=12, timeout=120)
    lines = err.strip().splitlines()
    strip_time = lambda s: [l.split(" (")[0] if " inputs (" in l else l for l in s.splitlines()]
    if rc == "skip":
        print("skip  sweep under a process limit: the tool cannot run as user nobody here")
    else:
        check(rc == rc0 == 0 and strip_time(got) == strip_time(want) and len(lines) == 1 and "--threads 200" in lines[0],
              f"sweep --threads 200 under a process limit: exit {rc}, same result, one note: {lines[:3]}")

print(f"{len(failures)} failed")
sys.exit(1 if failures else 0)
