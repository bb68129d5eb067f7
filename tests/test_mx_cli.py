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

print(f"{len(failures)} failure(s)")
sys.exit(1 if failures else 0)
