#!/usr/bin/env python3
"""End-to-end tests of `accelmath quantize` / `dequantize` (file layout, dtypes, errors).
Usage: test_mx_cli.py ACCELMATH. Values are checked with this file's own NumPy reading of the
layout (docs/mx.md): FP4 low nibble = even element, FP6 4 elements in a 24-bit little-endian
word, mxscale[..., j, ..., k] = block 2j+k padded with 0x00."""
import os
import sys
import tempfile

import numpy as np

import cli_util
from cli_util import check, failures

EXE = sys.argv[1]


def run(*args):
    return cli_util.run(EXE, *args)


def values(fmt):
    """Value of every code of an element format, from its definition (bias, mantissa bits)."""
    ebits, mbits, bits = {"e4m3": (4, 3, 8), "e5m2": (5, 2, 8), "e3m2": (3, 2, 6), "e2m3": (2, 3, 6),
                          "e2m1": (2, 1, 4), "e1m2": (1, 2, 4)}[fmt]
    bias = (1 << (ebits - 1)) - 1 if fmt != "e1m2" else 1
    out = []
    for c in range(1 << bits):
        s, mag = c >> (bits - 1), c & ((1 << (bits - 1)) - 1)
        e, m = mag >> mbits, mag & ((1 << mbits) - 1)
        v = m * 2.0 ** (1 - bias - mbits) if e == 0 else (1 + m / 2 ** mbits) * 2.0 ** (e - bias)
        if fmt == "e4m3" and mag == 0x7F or fmt == "e5m2" and e == 31:
            v = np.nan if not (fmt == "e5m2" and m == 0) else np.inf
        out.append(-v if s else v)
    return np.array(out)


def unpack(y, fmt, shape):
    if fmt in ("e4m3", "e5m2"):
        return y.reshape(shape)
    flat = y.reshape(-1).astype(np.uint32)
    if fmt in ("e2m1", "e1m2"):
        codes = np.stack([flat & 0xF, flat >> 4], axis=-1).reshape(-1)
    else:
        w = flat.reshape(-1, 3)
        w = w[:, 0] | (w[:, 1] << 8) | (w[:, 2] << 16)
        codes = np.stack([(w >> (6 * k)) & 0x3F for k in range(4)], axis=-1).reshape(-1)
    return codes.reshape(shape)


with tempfile.TemporaryDirectory() as d:
    P = lambda name: os.path.join(d, name)
    rng = np.random.default_rng(3)
    for fmt in ["e4m3", "e5m2", "e3m2", "e2m3", "e2m1", "e1m2"]:
        for shape, axis, block in [((4, 64), -1, 32), ((100, 8), 0, 32), ((3, 40, 12), 1, 32), ((2, 2048), -1, 1024)]:
            x = (rng.standard_normal(shape) * 2.0 ** rng.integers(-20, 20, shape)).astype(np.float32)
            np.save(P("x.npy"), x)
            rc, _, err = run("quantize", "--in", P("x.npy"), "--dst", fmt, "--axis", axis, "--block", block,
                             "--out-y", P("y.npy"), "--out-scale", P("s.npy"))
            check(rc == 0, f"quantize {fmt} {shape} axis {axis}: exit 0 {err.strip()}")
            if rc:
                continue
            y, s = np.load(P("y.npy")), np.load(P("s.npy"))
            bits = {"e4m3": 8, "e5m2": 8, "e3m2": 6, "e2m3": 6, "e2m1": 4, "e1m2": 4}[fmt]
            check(y.dtype == np.uint8 and y.shape == shape[:-1] + (shape[-1] * bits // 8,), f"{fmt} y shape {y.shape}")
            a = axis % len(shape)
            nb = -(-shape[a] // block)
            sshape = shape[:a] + (-(-nb // 2),) + shape[a + 1:] + (2,)
            check(s.dtype == np.uint8 and s.shape == sshape, f"{fmt} mxscale shape {s.shape} == {sshape}")
            # per-element scale: mxscale[..., j, ..., k] holds block 2j+k
            blk = np.arange(shape[a]) // block
            sc = np.take(np.moveaxis(s, a, -2).reshape(s.shape[:a] + s.shape[a + 1:-1] + (-1,)), blk, axis=-1)
            sc = np.moveaxis(sc, -1, a)
            if nb % 2:
                pad = np.moveaxis(s, a, -2)[..., -1, 1]
                check(bool(np.all(pad == 0)), f"{fmt} odd block count padded with 0x00")
            codes = unpack(y, fmt, shape)
            want = values(fmt)[codes] * np.exp2(sc.astype(np.float64) - 127)
            rc, _, err = run("dequantize", "--y", P("y.npy"), "--scale", P("s.npy"), "--dst", fmt, "--axis", axis,
                             "--block", block, "--out", P("xb.npy"))
            xb = np.load(P("xb.npy")) if rc == 0 else None
            check(rc == 0 and xb.dtype == np.float32 and xb.shape == shape and np.array_equal(xb, want.astype(np.float32)),
                  f"dequantize {fmt} {shape}: equals value(code) * 2^(scale - 127) {err.strip()}")
            # the round trip stays within the format's relative step for the block maximum
            amax = np.max(np.abs(x))
            check(bool(np.all(np.abs(xb - x) <= amax)), f"{fmt} round trip bounded")

    # bfloat16 input as uint16 bits; float16 input; float16 / bfloat16 output
    x = rng.standard_normal((2, 64)).astype(np.float32)
    bits = (x.view(np.uint32) >> 16).astype(np.uint16)
    np.save(P("xb16.npy"), bits)
    rc, _, _ = run("quantize", "--in", P("xb16.npy"), "--x-dtype", "bfloat16", "--dst", "e4m3",
                   "--out-y", P("y1.npy"), "--out-scale", P("s1.npy"))
    np.save(P("x32.npy"), (bits.astype(np.uint32) << 16).view(np.float32))
    rc2, _, _ = run("quantize", "--in", P("x32.npy"), "--dst", "e4m3", "--out-y", P("y2.npy"), "--out-scale", P("s2.npy"))
    check(rc == 0 and rc2 == 0 and np.array_equal(np.load(P("y1.npy")), np.load(P("y2.npy")))
          and np.array_equal(np.load(P("s1.npy")), np.load(P("s2.npy"))), "bfloat16 bits give the float32 result")
    np.save(P("x16.npy"), x.astype(np.float16))
    rc, _, _ = run("quantize", "--in", P("x16.npy"), "--dst", "e2m1", "--out-y", P("y3.npy"), "--out-scale", P("s3.npy"))
    check(rc == 0, "float16 input accepted")
    rc, _, _ = run("dequantize", "--y", P("y3.npy"), "--scale", P("s3.npy"), "--dst", "e2m1", "--out-dtype", "float16", "--out", P("o16.npy"))
    check(rc == 0 and np.load(P("o16.npy")).dtype == np.float16, "float16 output")
    rc, _, _ = run("dequantize", "--y", P("y3.npy"), "--scale", P("s3.npy"), "--dst", "e2m1", "--out-dtype", "bfloat16", "--out", P("ob.npy"))
    check(rc == 0 and np.load(P("ob.npy")).dtype == np.uint16, "bfloat16 output as uint16 bits")

    # errors: exit 2, one line naming the parameter, no output file
    np.save(P("x.npy"), np.ones((4, 64), np.float32))
    for args, word in [(["--dst", "e4m3", "--axis", "2"], "axis"), (["--dst", "e4m3", "--block", "48"], "blocksize"),
                       (["--dst", "e4m3", "--round", "floor"], "round_mode"), (["--dst", "e2m1", "--scale-alg", "1"], "scale_alg"),
                       (["--dst", "e8m0"], "--dst")]:
        out = P("never.npy")
        rc, _, err = run("quantize", "--in", P("x.npy"), *args, "--out-y", out, "--out-scale", P("never_s.npy"))
        check(rc == 2 and word in err and not os.path.exists(out), f"quantize {' '.join(args)}: exit 2 naming {word}: {err.strip()}")
    np.save(P("odd.npy"), np.ones((4, 3), np.float32))
    rc, _, err = run("quantize", "--in", P("odd.npy"), "--dst", "e2m1", "--axis", "0", "--out-y", P("n.npy"), "--out-scale", P("n2.npy"))
    check(rc == 2 and "even" in err, f"FP4 odd last dim refused: {err.strip()}")
    np.save(P("i.npy"), np.ones((4, 64), np.int32))
    rc, _, err = run("quantize", "--in", P("i.npy"), "--dst", "e4m3", "--out-y", P("n.npy"), "--out-scale", P("n2.npy"))
    check(rc == 2 and "dtype" in err, f"int32 input refused: {err.strip()}")

# Hostile input never crashes the tool, corrupts a result or loses a file: exit 2, one line naming
# the problem, and both outputs keep what they held (prepared here with known content).
with tempfile.TemporaryDirectory() as d:
    P = lambda name: os.path.join(d, name)
    refused = lambda args, word, what, watch=(): cli_util.check_refused(EXE, args, word, what, watch)

    def keep(*names):
        for n in names:
            open(P(n), "wb").write(b"old content of " + n.encode())
        return [P(n) for n in names]

    np.save(P("x.npy"), np.random.default_rng(4).standard_normal((4, 64)).astype(np.float32))
    rc, _, _ = run("quantize", "--in", P("x.npy"), "--dst", "e4m3", "--out-y", P("y.npy"), "--out-scale", P("s.npy"))
    check(rc == 0, "quantize a good input")
    q = lambda *extra, y=P("qy.npy"), s=P("qs.npy"): ["quantize", "--in", P("x.npy"), "--dst", "e4m3", *extra, "--out-y", y, "--out-scale", s]

    # sizes: 2^62 float32 elements are 2^64 bytes (wrapping to 0), refused before any allocation
    open(P("e62.npy"), "wb").write(cli_util.npy_bytes("{'descr': '<f4', 'fortran_order': False, 'shape': (%d,), }" % 2**62))
    outs = keep("qy.npy", "qs.npy")
    refused(["quantize", "--in", P("e62.npy"), "--dst", "e4m3", "--out-y", outs[0], "--out-scale", outs[1]], "too large",
            "quantize refuses shape (2^62,) of float32 (no std::bad_alloc abort)", outs)
    # directories as inputs
    os.mkdir(P("adir"))
    refused(["quantize", "--in", P("adir"), "--dst", "e4m3", "--out-y", outs[0], "--out-scale", outs[1]], "directory",
            "quantize --in a directory", outs)
    outs = keep("dq.npy")
    refused(["dequantize", "--y", P("adir"), "--scale", P("s.npy"), "--dst", "e4m3", "--out", outs[0]], "directory",
            "dequantize --y a directory", outs)
    refused(["dequantize", "--y", P("y.npy"), "--scale", P("adir"), "--dst", "e4m3", "--out", outs[0]], "directory",
            "dequantize --scale a directory", outs)
    # the two outputs: checked up front, written together or not at all
    outs = keep("qy.npy", "qs.npy")
    refused(q(s=P("no_dir/s.npy")), "does not exist", "quantize --out-scale in a missing folder: --out-y keeps its old content", outs)
    outs = keep("qy.npy", "qs.npy")
    refused(q(s=P("adir")), "directory", "quantize --out-scale a directory: --out-y keeps its old content", outs + [P("adir")])
    outs = keep("qy.npy", "qs.npy")
    refused(q(y=P("qy.npy"), s=P("qy.npy")), "same file", "quantize with --out-y and --out-scale the same file", outs)
    outs = keep("qy.npy", "qs.npy")
    refused(q(y=P("qy.npy"), s=os.path.join(d, "adir", "..", "qy.npy")), "same file",
            "quantize with --out-y and --out-scale the same file, spelled differently", outs)
    refused(["dequantize", "--y", P("y.npy"), "--scale", P("s.npy"), "--dst", "e4m3", "--out", P("adir")], "directory",
            "dequantize --out a directory", [P("adir")])
    # empty arrays: nothing to quantize or dequantize
    np.save(P("empty.npy"), np.zeros((0, 64), np.float32))
    refused(["quantize", "--in", P("empty.npy"), "--dst", "e4m3", "--out-y", outs[0], "--out-scale", outs[1]], "empty",
            "quantize on shape (0, 64): a clear error", outs)
    np.save(P("ey.npy"), np.zeros((0, 64), np.uint8))
    outs = keep("dq.npy")
    refused(["dequantize", "--y", P("ey.npy"), "--scale", P("s.npy"), "--dst", "e4m3", "--out", outs[0]], "empty",
            "dequantize on shape (0, 64): a clear error", outs)

# Hostile input to quantize / dequantize / mx-sweep: exit 2, one line naming the file or option
# and the rule, no output file.
with tempfile.TemporaryDirectory() as d:
    P = lambda name: os.path.join(d, name)
    usage = lambda args, words, what, **kw: cli_util.check_usage_error(EXE, args, words, what, **kw)
    outs = [P("ny.npy"), P("ns.npy")]
    np.save(P("empty.npy"), np.zeros((0, 64), np.float32))
    usage(["quantize", "--in", P("empty.npy"), "--dst", "e4m3", "--out-y", outs[0], "--out-scale", outs[1]],
          ["empty.npy", "empty"], "quantize of an empty array says so (was 'x: data is null')", outputs=outs)
    np.save(P("x.npy"), np.ones((2, 64), np.float32))
    usage(["quantize", "--in", P("x.npy"), "--dst", "e4m3", "--scale-alg", "max", "--out-y", outs[0], "--out-scale", outs[1]],
          ["--scale-alg", "'max'", "ocp", "rceil", "ceil", "even"],
          "quantize --scale-alg max names the value and the allowed ones (was 'scale_alg: -1')", outputs=outs)
    # dequantize with another --block than quantize: 100.0 in block 0 and 0.001 in block 1 of each row.
    x = np.ones((2, 64), np.float32)
    x[:, :32], x[:, 32:] = 100.0, 0.001
    np.save(P("xb.npy"), x)
    rc, _, _ = run("quantize", "--in", P("xb.npy"), "--dst", "e4m3", "--out-y", P("y.npy"), "--out-scale", P("s.npy"))
    rc2, _, _ = run("dequantize", "--y", P("y.npy"), "--scale", P("s.npy"), "--dst", "e4m3", "--out", P("back.npy"))
    check(rc == rc2 == 0 and np.allclose(np.load(P("back.npy")), x, rtol=0.07), "block-32 round trip")
    # --block 64: one block per row, the same scale shape (2, 1, 2), so scale [., 0, 1] is padding,
    # which must be 0x00; it holds block 1's scale.
    usage(["dequantize", "--y", P("y.npy"), "--scale", P("s.npy"), "--dst", "e4m3", "--block", "64", "--out", P("o.npy")],
          ["s.npy", "--block 64", "padding", "0x00"],
          "dequantize --block 64 of block-32 data (scale shapes agree) is refused (was exit 0, wrong values)",
          outputs=[P("o.npy")])
    # 96 elements: block 32 gives 3 blocks, scale shape (2, 2, 2); block 64 needs (2, 1, 2).
    np.save(P("x96.npy"), np.ones((2, 96), np.float32))
    run("quantize", "--in", P("x96.npy"), "--dst", "e2m1", "--out-y", P("y96.npy"), "--out-scale", P("s96.npy"))
    usage(["dequantize", "--y", P("y96.npy"), "--scale", P("s96.npy"), "--dst", "e2m1", "--block", "64", "--out", P("o.npy")],
          ["s96.npy", "--block 64", "(2, 1, 2)"], "dequantize with a scale shape that --block 64 does not give names --block",
          outputs=[P("o.npy")])
    # Sizes from the header: an empty FP4 array whose packed last dim * 8 overflows int64 (UBSan).
    open(P("yhuge.npy"), "wb").write(cli_util.npy_bytes(
        "{'descr': '|u1', 'fortran_order': False, 'shape': (0, %d), }" % 2 ** 62))
    np.save(P("s1.npy"), np.zeros((1, 1, 2), np.uint8))
    usage(["dequantize", "--y", P("yhuge.npy"), "--scale", P("s1.npy"), "--dst", "e2m1", "--out", P("o.npy")],
          ["yhuge.npy", "empty"], "dequantize of an empty (0, 2^62) FP4 array: 'empty', no overflow", outputs=[P("o.npy")])
    # Counts and threads.
    usage(["mx-sweep", "--dst", "e4m3", "--round", "rint", "--sample", "-1", "--quiet"], ["--sample", "'-1'", "4294967296"],
          "mx-sweep --sample -1 is refused (it ran 2^64 samples)", timeout=20)
    usage(["quantize", "--in", P("x.npy"), "--dst", "e4m3", "--threads", "-2", "--out-y", outs[0], "--out-scale", outs[1]],
          ["--threads"], "quantize --threads -2 is refused by the option parser", outputs=outs)
    args = ["mx-sweep", "--dst", "e2m1", "--round", "rint", "--sample", "300000", "--seed", "5", "--quiet"]
    rc0, want, _ = run(*args, "--threads", "100")
    rc, got, err = cli_util.run_limited(EXE, *args, "--threads", "100", nproc=12)
    lines = err.strip().splitlines()
    strip_time = lambda s: [l.split(" (")[0] for l in s.splitlines()]
    if rc == "skip":
        print("skip  mx-sweep under a process limit: the tool cannot run as user nobody here")
    else:
        check(rc == rc0 == 0 and strip_time(got) == strip_time(want) and len(lines) == 1 and "--threads 100" in lines[0],
              f"mx-sweep --threads 100 under a process limit: exit {rc} (was an abort), same result, one note: {lines[:3]}")

print(f"{len(failures)} failure(s)")
sys.exit(1 if failures else 0)
