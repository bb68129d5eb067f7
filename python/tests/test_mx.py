"""accelmath.mx: the golden vectors of tests/data/mx (as the C++ golden test reads them), the CLI
bit for bit, round trips, the C++ API's validation messages as ValueError."""
import json

import ml_dtypes
import numpy as np
import pytest

import accelmath.mx as mx
from conftest import ROOT

BITS = {"e5m2": 8, "e4m3": 8, "e3m2": 6, "e2m3": 6, "e2m1": 4, "e1m2": 4}  # the spec's, not the package's table


def unpack(y, dst, n):
    """The n codes of packed bytes y (FP4: low nibble first; FP6: 4 codes per 3 bytes, little-endian)."""
    y = y.reshape(-1).astype(np.uint32)
    if BITS[dst] == 8:
        return y[:n].astype(np.uint8)
    if BITS[dst] == 4:
        return np.stack([y & 0xF, y >> 4], axis=-1).reshape(-1)[:n].astype(np.uint8)
    w = y.reshape(-1, 3)
    w = w[:, 0] | (w[:, 1] << 8) | (w[:, 2] << 16)
    return np.stack([(w >> (6 * k)) & 0x3F for k in range(4)], axis=-1).reshape(-1)[:n].astype(np.uint8)


def golden_quantize_vectors():
    for name in ("golden_survey.jsonl", "golden_torchao.jsonl"):
        for line in (ROOT / "tests" / "data" / "mx" / name).read_text().splitlines():
            v = json.loads(line)
            if v["kind"] == "quantize":
                yield pytest.param(v, id=v["id"])


def run_vector(v):
    """Quantizes v's input as the C++ golden test does: the last dim padded with zeros to the
    packing group of FP4/FP6; returns the codes and the scales in [pre, block, post] order."""
    shape, dst, bs = tuple(v["shape"]), v["dst"], v["blocksize"]
    group = {8: 1, 6: 4, 4: 2}[BITS[dst]]
    x = np.array(v["x_bits"], dtype=np.uint32)
    x = x.view(np.float32) if v["x_dtype"] == "float32" else x.astype(np.uint16).view(
        ml_dtypes.bfloat16 if v["x_dtype"] == "bfloat16" else np.float16)
    x = x.reshape(shape)
    last = shape[-1]
    pshape = shape[:-1] + (-(-last // group) * group,)
    px = np.zeros(pshape, dtype=x.dtype)
    px[..., :last] = x
    y, s = mx.quantize(px, dst=dst, axis=v["axis"], block=bs, round=v["round"], scale_alg=v["scale_alg"])
    codes = unpack(y, dst, px.size).reshape(pshape)[..., :last].reshape(-1)
    rank, a = len(shape), v["axis"] % len(shape)
    pre = int(np.prod(shape[:a]))
    nb = -(-shape[a] // bs)
    s = s.reshape((pre, -(-nb // 2)) + pshape[a + 1:] + (2,))
    s = np.moveaxis(s, -1, 2)  # [pre, nb2, 2, post...]
    if a != rank - 1:
        s = s[..., :last]
    scales = s.reshape(pre, -1, int(np.prod(shape[a + 1:])))[:, :nb, :].reshape(-1)
    return codes, scales


@pytest.mark.parametrize("v", list(golden_quantize_vectors()))
def test_golden_vectors(v):
    codes, scales = run_vector(v)
    same = np.array_equal(codes, v["y"]) and np.array_equal(scales, v["scale"])
    if v["expect"] == "match":
        assert same, f"{v['id']} ({v['source']}) differs from the reference"
    else:  # a recorded disagreement (docs/mx.md): the spec's answer, not the reference's
        assert not same
        if "spec_y" in v:
            assert np.array_equal(codes, v["spec_y"]) and np.array_equal(scales, v["spec_scale"])


@pytest.mark.parametrize("dst", list(BITS))
@pytest.mark.parametrize("dtype", ["float32", "float16", "bfloat16"])
def test_cli_bit_for_bit_and_round_trip(dst, dtype, cli, tmp_path):
    rng = np.random.default_rng(11)
    x32 = (rng.standard_normal((6, 256)) * np.exp2(rng.integers(-20, 20, (6, 1)))).astype(np.float32)
    x = x32.astype(ml_dtypes.bfloat16) if dtype == "bfloat16" else x32.astype(dtype)
    np.save(tmp_path / "x.npy", x.view(np.uint16) if dtype == "bfloat16" else x)
    cli("quantize", "--in", tmp_path / "x.npy", "--dst", dst, "--out-y", tmp_path / "y.npy", "--out-scale",
        tmp_path / "s.npy", *(["--x-dtype", "bfloat16"] if dtype == "bfloat16" else []))
    y, s = mx.quantize(x, dst=dst)
    want_y, want_s = np.load(tmp_path / "y.npy"), np.load(tmp_path / "s.npy")
    assert y.shape == want_y.shape and s.shape == want_s.shape
    np.testing.assert_array_equal(y, want_y)
    np.testing.assert_array_equal(s, want_s)
    for out in ("float32", "float16", "bfloat16"):
        cli("dequantize", "--y", tmp_path / "y.npy", "--scale", tmp_path / "s.npy", "--dst", dst, "--out-dtype", out,
            "--out", tmp_path / "x2.npy")
        back = mx.dequantize(y, s, dst=dst, dtype=ml_dtypes.bfloat16 if out == "bfloat16" else out)
        want = np.load(tmp_path / "x2.npy")
        assert back.dtype.name == out
        np.testing.assert_array_equal(back.view(np.uint16 if out != "float32" else np.uint32),
                                      want.view(np.uint16 if out != "float32" else np.uint32))
    # a second quantization of the dequantized values gives the same codes (the codes are exact)
    back = mx.dequantize(y, s, dst=dst)
    y2, s2 = mx.quantize(back, dst=dst)
    np.testing.assert_array_equal(y2, y)


def test_axis_0_and_other_blocks():
    rng = np.random.default_rng(2)
    x = rng.standard_normal((256, 8)).astype(np.float32)
    y, s = mx.quantize(x, dst="e4m3", axis=0, block=64)
    assert y.shape == (256, 8) and s.shape == (2, 8, 2)
    back = mx.dequantize(y, s, dst="e4m3", axis=0, block=64)
    assert np.max(np.abs(back - x) / np.max(np.abs(x))) < 0.07


@pytest.mark.parametrize("kw, exc, message", [
    (dict(dst="e9m9"), ValueError, "dst: 'e9m9' is not one of e5m2, e4m3, e3m2, e2m3, e2m1, e1m2"),
    (dict(block=48), ValueError, "blocksize: 48 is not a multiple of 32 in [32, 1024]"),
    (dict(axis=2), ValueError, "axis: 2 is not in [-2, 1]"),
    (dict(round="up"), ValueError, 'round_mode: "up" is not "rint", "round" or "floor"'),
    (dict(dst="e4m3", round="floor"), ValueError, 'round_mode: FP8 (e4m3) accepts only "rint", not "floor"'),
    (dict(dst="e2m1", scale_alg=1), ValueError, "scale_alg: 1 (rceil) is for FP8 only, not e2m1"),
    (dict(scale_alg=7), ValueError, "scale_alg: 7 is not 0 (ocp), 1 (rceil), 2 (ceil) or 3 (even)"),
    (dict(threads=-1), ValueError, "threads: -1 is not an integer >= 0"),
])
def test_validation_messages(kw, exc, message):
    x = np.ones((4, 64), np.float32)
    with pytest.raises(exc) as e:
        mx.quantize(x, **kw)
    assert str(e.value).startswith(message)


def test_input_type_errors():
    with pytest.raises(TypeError, match=r"^x: expected float32, float16 or bfloat16, got float64"):
        mx.quantize(np.ones((4, 64)))
    with pytest.raises(ValueError, match=r"^x: FP4 packs 2 elements per byte: the last dim 33 must be even"):
        mx.quantize(np.ones((4, 33), np.float32), dst="e2m1")
    with pytest.raises(ValueError, match=r"^x: rank 0 is not in \[1, 7\]"):
        mx.quantize(np.array(1.0, np.float32))
    y, s = mx.quantize(np.ones((4, 64), np.float32))
    with pytest.raises(TypeError, match=r"^y: expected uint8 codes, got float32"):
        mx.dequantize(y.astype(np.float32), s)
    with pytest.raises(TypeError, match=r"^dtype: expected float32, float16 or bfloat16"):
        mx.dequantize(y, s, dtype=np.float64)
    with pytest.raises(ValueError, match=r"^mxscale: shape"):
        mx.dequantize(y, s[:1])
