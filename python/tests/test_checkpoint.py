"""`accelmath quantize --in X.safetensors` and `accelmath dequantize --in`: whole checkpoints, built and
read back with the `safetensors` package. Each quantized tensor must equal accelmath.mx on the same
array bit for bit (codes, scales, and the dequantized values), every other tensor and the metadata
must come back unchanged, and each malformed input must give one line naming the problem, exit 2
and no output file (docs/mx.md, "Checkpoints")."""
import json
import struct
import subprocess
import sys
import time

import ml_dtypes
import numpy as np
import pytest
import torch
from safetensors import safe_open
from safetensors.torch import load_file, save_file

import accelmath.mx as mx

FORMATS = ["e4m3", "e5m2", "e3m2", "e2m3", "e2m1", "e1m2"]


def checkpoint(path, **extra):
    """A small model: float32, bfloat16 and float16 weights, a bias, an integer tensor, a scalar."""
    g = torch.Generator().manual_seed(7)
    scale = torch.exp2(torch.randint(-20, 20, (64, 1), generator=g).float())  # blocks of very different size
    t = {
        "layers.0.attn.weight": torch.randn(64, 128, generator=g) * scale,
        "layers.0.mlp.weight": (torch.randn(32, 128, generator=g) * 3).to(torch.bfloat16),
        "layers.0.norm.weight": torch.randn(64, generator=g).to(torch.float16),
        "layers.0.attn.bias": torch.randn(96, generator=g),
        "position_ids": torch.arange(17),
        "temperature": torch.tensor(0.7),
    }
    t["layers.0.attn.weight"][3, 5] = float("nan")
    t["layers.0.attn.weight"][4, 0] = float("inf")
    t.update(extra)
    save_file(t, str(path), metadata={"format": "pt", "note": "test"})
    return t


def as_numpy(t):
    """A torch tensor as the NumPy array accelmath.mx takes (bfloat16 through ml_dtypes, bit for bit)."""
    if t.dtype == torch.bfloat16:
        return t.view(torch.int16).numpy().view(ml_dtypes.bfloat16)
    return t.numpy()


def raw(path):
    """name -> (dtype string, shape, bytes) of every tensor, straight from the file."""
    with open(path, "rb") as f:
        n = struct.unpack("<Q", f.read(8))[0]
        header = json.loads(f.read(n))
        data = f.read()
    header.pop("__metadata__", None)
    return {k: (v["dtype"], v["shape"], data[v["data_offsets"][0]:v["data_offsets"][1]]) for k, v in header.items()}


def metadata(path):
    with safe_open(str(path), "np") as f:
        return f.metadata()


@pytest.mark.parametrize("dst", FORMATS)
def test_round_trip_matches_the_library_bit_for_bit(cli, tmp_path, dst):
    src, q, back = tmp_path / "m.safetensors", tmp_path / "q.safetensors", tmp_path / "back.safetensors"
    t = checkpoint(src)
    cli("quantize", "--in", src, "--out", q, "--dst", dst, "--exclude", "temperature", "--quiet")
    out = raw(q)
    record = json.loads(metadata(q)["accelmath.mx"])
    assert {k: record[k] for k in ("format", "axis", "blocksize", "round", "scale_alg", "layout")} == {
        "format": dst, "axis": -1, "blocksize": 32, "round": "rint", "scale_alg": "ocp", "layout": "codes+scale"}
    quantized = {"layers.0.attn.weight", "layers.0.mlp.weight", "layers.0.norm.weight", "layers.0.attn.bias"}
    assert set(record["tensors"]) == quantized
    assert metadata(q)["format"] == "pt" and metadata(q)["note"] == "test"
    for name in quantized:
        y, s = mx.quantize(as_numpy(t[name]), dst=dst)
        assert record["tensors"][name] == {"dtype": raw(src)[name][0], "shape": list(t[name].shape)}
        assert out[name][:2] == ("U8", list(y.shape)) and out[name][2] == y.tobytes(), name
        assert out[name + ".mx_scale"][:2] == ("U8", list(s.shape)) and out[name + ".mx_scale"][2] == s.tobytes(), name
    for name in ("position_ids", "temperature"):  # not floating point / excluded: copied
        assert out[name] == raw(src)[name]

    cli("dequantize", "--in", q, "--out", back, "--quiet")
    assert metadata(back) == {"format": "pt", "note": "test"}
    restored, original = raw(back), raw(src)
    assert set(restored) == set(original)
    for name in original:
        assert restored[name][:2] == original[name][:2], name
    for name in quantized:
        y, s = mx.quantize(as_numpy(t[name]), dst=dst)
        want = mx.dequantize(y, s, dst=dst, dtype=as_numpy(t[name]).dtype)
        assert restored[name][2] == want.tobytes(), name
    for name in ("position_ids", "temperature"):
        assert restored[name] == original[name]


def test_options_reach_the_library(cli, tmp_path):
    src, q = tmp_path / "m.safetensors", tmp_path / "q.safetensors"
    t = checkpoint(src)
    cli("quantize", "--in", src, "--out", q, "--dst", "e2m1", "--block", "64", "--round", "floor", "--scale-alg", "even",
        "--include", r"weight$", "--exclude", "norm", "--quiet")
    record = json.loads(metadata(q)["accelmath.mx"])
    assert set(record["tensors"]) == {"layers.0.attn.weight", "layers.0.mlp.weight"}
    assert (record["blocksize"], record["round"], record["scale_alg"]) == (64, "floor", "even")
    out = raw(q)
    for name in record["tensors"]:
        y, s = mx.quantize(as_numpy(t[name]), dst="e2m1", block=64, round="floor", scale_alg="even")
        assert out[name][2] == y.tobytes() and out[name + ".mx_scale"][2] == s.tobytes()
    assert out["layers.0.norm.weight"] == raw(src)["layers.0.norm.weight"]
    back = tmp_path / "back.safetensors"
    cli("dequantize", "--in", q, "--out", back, "--quiet")
    y, s = mx.quantize(as_numpy(t["layers.0.mlp.weight"]), dst="e2m1", block=64, round="floor", scale_alg="even")
    want = mx.dequantize(y, s, dst="e2m1", block=64, dtype=ml_dtypes.bfloat16)
    assert raw(back)["layers.0.mlp.weight"][2] == want.tobytes()


def ggml_blocks(y, s, shape):
    """ggml block_mxfp4 rows from the library's E2M1 codes and scales (block 32, last axis): per
    block the scale byte, then 16 bytes with element j in the low and element j + 16 in the high nibble."""
    rows, blocks = int(np.prod(shape[:-1])), shape[-1] // 32
    codes = np.stack([y.reshape(-1) & 0xF, y.reshape(-1) >> 4], axis=-1).reshape(rows, blocks, 32)
    scales = s.reshape(rows, -1)[:, :blocks]
    qs = (codes[:, :, :16] | (codes[:, :, 16:] << 4)).astype(np.uint8)
    return np.concatenate([scales[:, :, None], qs], axis=-1).astype(np.uint8).tobytes()


def test_gguf_layout(cli, tmp_path):
    src, q, back = tmp_path / "m.safetensors", tmp_path / "q.safetensors", tmp_path / "back.safetensors"
    t = checkpoint(src)
    cli("quantize", "--in", src, "--out", q, "--dst", "e2m1", "--gguf", "--include", "weight", "--quiet")
    out = raw(q)
    assert json.loads(metadata(q)["accelmath.mx"])["layout"] == "ggml_mxfp4"
    for name in ("layers.0.attn.weight", "layers.0.mlp.weight", "layers.0.norm.weight"):
        shape = list(t[name].shape)
        y, s = mx.quantize(as_numpy(t[name]), dst="e2m1")
        assert out[name][:2] == ("U8", shape[:-1] + [shape[-1] // 32 * 17])
        assert out[name][2] == ggml_blocks(y, s, shape), name
        assert name + ".mx_scale" not in out
    cli("dequantize", "--in", q, "--out", back, "--quiet")
    y, s = mx.quantize(as_numpy(t["layers.0.mlp.weight"]), dst="e2m1")
    want = mx.dequantize(y, s, dst="e2m1", dtype=ml_dtypes.bfloat16)
    assert raw(back)["layers.0.mlp.weight"] == ("BF16", [32, 128], want.tobytes())
    r = cli("quantize", "--in", src, "--out", q, "--dst", "e4m3", "--gguf", check=False)
    assert r.returncode == 2 and "--gguf" in r.stderr


def fails(cli, tmp_path, args, *needles):
    """The command exits 2 with one stderr line (under 1000 bytes) holding every needle and writes no
    output file."""
    out = tmp_path / "out.safetensors"
    if out.exists():
        out.unlink()
    r = cli(*args, "--out", out, "--quiet", check=False)
    assert r.returncode == 2, r.stderr
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("accelmath: error:") and len(lines[0]) < 1000, r.stderr[:2000]
    for n in needles:
        assert n in lines[0], (n, lines[0])
    assert not out.exists() and not list(tmp_path.glob("out.safetensors.tmp*"))


def write_raw(path, header, data=b"", pad=True):
    h = json.dumps(header).encode() if isinstance(header, dict) else header
    if pad:
        h += b" " * (-len(h) % 8)
    path.write_bytes(struct.pack("<Q", len(h)) + h + data)


def test_rules_the_tensors_must_meet(cli, tmp_path):
    src = tmp_path / "m.safetensors"
    checkpoint(src, odd=torch.randn(4, 33))
    fails(cli, tmp_path, ["quantize", "--in", src, "--dst", "e4m3", "--exclude", "temp"], "'odd'", "not a multiple of --block 32",
          "--exclude")
    checkpoint(src, double=torch.randn(4, 32, dtype=torch.float64))
    fails(cli, tmp_path, ["quantize", "--in", src, "--dst", "e4m3", "--exclude", "temp"], "'double'", "F64", "unsupported dtype")
    # FP8 tensors were copied as they were (exit 0), though a selected floating-point tensor must be
    # quantized or refused.
    # (Written by hand: Debian's torch has no float8 types.)
    for name in ("F8_E4M3", "F8_E5M2", "F8_E8M0"):
        write_raw(tmp_path / "f8.safetensors", {"fp8": {"dtype": name, "shape": [4, 32], "data_offsets": [0, 128]}}, b"\x38" * 128)
        fails(cli, tmp_path, ["quantize", "--in", tmp_path / "f8.safetensors", "--dst", "e4m3"], "'fp8'", name, "unsupported dtype")
    # A scale name past the 4096 bytes the reader takes: quantize wrote a file dequantize refused.
    long = "n" * 4088
    checkpoint(src, **{long: torch.randn(1, 32)})
    fails(cli, tmp_path, ["quantize", "--in", src, "--dst", "e4m3", "--exclude", "temp"], "'nnnn", "4096 bytes", "--exclude")
    checkpoint(src, **{long[:4087]: torch.randn(1, 32)})
    cli("quantize", "--in", src, "--out", tmp_path / "long.safetensors", "--dst", "e4m3", "--exclude", "temp", "--quiet")
    cli("dequantize", "--in", tmp_path / "long.safetensors", "--out", tmp_path / "long2.safetensors", "--quiet")
    # Block sizes the API does not take: --block 0 divided by zero (SIGFPE), 48 blamed the tensor.
    checkpoint(src)
    for block in ("0", "-32", "48", "2048"):
        fails(cli, tmp_path, ["quantize", "--in", src, "--dst", "e4m3", "--exclude", "temp", "--block", block],
              f"--block {block}: expected a multiple of 32 in [32, 1024]")
    fails(cli, tmp_path, ["quantize", "--in", src, "--dst", "e4m3"], "'temperature'", "rank 0")
    checkpoint(src, **{"layers.0.attn.weight.mx_scale": torch.zeros(2, 32)})
    fails(cli, tmp_path, ["quantize", "--in", src, "--dst", "e4m3", "--exclude", "temperature|mx_scale"],
          "'layers.0.attn.weight'", "already has")
    fails(cli, tmp_path, ["quantize", "--in", src, "--dst", "e4m3", "--include", "("], "regular expression")
    q = tmp_path / "q.safetensors"
    checkpoint(src)
    cli("quantize", "--in", src, "--out", q, "--dst", "e4m3", "--exclude", "temperature", "--quiet")
    fails(cli, tmp_path, ["quantize", "--in", q, "--dst", "e4m3"], "already MX-quantized")
    fails(cli, tmp_path, ["dequantize", "--in", src], "not an MX checkpoint")
    # A scale tensor removed: dequantize names it.
    with safe_open(str(q), "pt") as f:
        kept = {k: f.get_tensor(k) for k in f.keys() if k != "layers.0.mlp.weight.mx_scale"}
        meta = f.metadata()
    save_file(kept, str(tmp_path / "q2.safetensors"), metadata=meta)
    fails(cli, tmp_path, ["dequantize", "--in", tmp_path / "q2.safetensors"], "'layers.0.mlp.weight.mx_scale'", "missing")
    # A record whose blocksize the API does not take: 0 divided by zero (SIGFPE).
    with safe_open(str(q), "pt") as f:
        kept = {k: f.get_tensor(k) for k in f.keys()}
        meta = f.metadata()
    for block in (0, -32, 48):
        record = json.loads(meta["accelmath.mx"])
        record["blocksize"] = block
        save_file(kept, str(tmp_path / "q3.safetensors"), metadata={**meta, "accelmath.mx": json.dumps(record)})
        fails(cli, tmp_path, ["dequantize", "--in", tmp_path / "q3.safetensors"], "corrupt",
              f"blocksize {block} is not a multiple of 32 in [32, 1024]")


def test_malformed_files(cli, tmp_path):
    bad = tmp_path / "bad.safetensors"
    ok = {"w": {"dtype": "F32", "shape": [2, 32], "data_offsets": [0, 256]}}
    cases = [
        (b"\x01\x02", "shorter than the 8-byte header length"),
        (None, "not valid JSON"),
        ("huge", "the header length says"),
        ({"w": {"dtype": "F32", "shape": [2, 32], "data_offsets": [0, 256]}}, "truncated: tensor 'w'"),
        ({"w": {"dtype": "C64", "shape": [2, 32], "data_offsets": [0, 512]}}, "tensor 'w': unsupported dtype 'C64'"),
        ({"w": {"dtype": "F32", "shape": [2, 31], "data_offsets": [0, 256]}}, "tensor 'w'"),
        ({"w": {"dtype": "F32", "shape": [2, -32], "data_offsets": [0, 256]}}, "tensor 'w'"),
        ({"w": {"dtype": "F32", "shape": [2, 32]}}, "tensor 'w'"),
        ({"w": ok["w"], "v": {"dtype": "F32", "shape": [32], "data_offsets": [128, 256]}}, "overlap"),
        ({"w": {"dtype": "F32", "shape": [32], "data_offsets": [128, 256]}}, "gap"),
        ({"__metadata__": {"a": 1}, **ok}, "__metadata__"),
    ]
    for header, needle in cases:
        if isinstance(header, bytes):
            bad.write_bytes(header)
        elif header is None:
            write_raw(bad, b'{"w": {"dtype": "F32",')
        elif header == "huge":
            bad.write_bytes(struct.pack("<Q", 1 << 40) + b"{}")
        else:
            data = b"\0" * 100 if "truncated" in needle else b"\0" * 256
            write_raw(bad, header, data)
        fails(cli, tmp_path, ["quantize", "--in", bad, "--dst", "e4m3"], needle)
    # What nlohmann's reader took and the reference refuses: a byte order mark, NUL bytes after the JSON.
    write_raw(bad, b"\xef\xbb\xbf" + json.dumps(ok).encode(), b"\0" * 256)
    fails(cli, tmp_path, ["quantize", "--in", bad, "--dst", "e4m3"], "byte order mark")
    write_raw(bad, json.dumps(ok).encode() + b"\0" * 8, b"\0" * 256)
    fails(cli, tmp_path, ["quantize", "--in", bad, "--dst", "e4m3"], "a NUL byte at byte")
    write_raw(bad, ok, b"\0" * 260)
    fails(cli, tmp_path, ["quantize", "--in", bad, "--dst", "e4m3"], "4 bytes after the last tensor")
    write_raw(bad, b'{"w": {"dtype": "F32", "shape": [2, 32], "data_offsets": [0, 256]}, "w": {}}')
    fails(cli, tmp_path, ["quantize", "--in", bad, "--dst", "e4m3"], "'w' appears twice")
    # Hostile headers that crashed the reader or the selection, or made a message of megabytes:
    # JSON nested a million deep (the JSON library's callback parser recursed per level), a name of 50,000 bytes
    # (std::regex's matcher recurses per character), a name holding a newline, a value whose text
    # is a megabyte.
    write_raw(bad, b'{"w": {"dtype": "F32", "shape": ' + b"[" * 10**6 + b"]" * 10**6 + b', "data_offsets": [0, 0]}}')
    fails(cli, tmp_path, ["quantize", "--in", bad, "--dst", "e4m3"], "nested deeper than 128 levels")
    write_raw(bad, {"a" * 50000: ok["w"]}, b"\0" * 256)
    fails(cli, tmp_path, ["quantize", "--in", bad, "--dst", "e4m3", "--include", "a+$"], "a name of 50000 bytes (4096 at most)")
    write_raw(bad, {"a\nb": {"dtype": "C64", "shape": [1], "data_offsets": [0, 8]}}, b"\0" * 8)
    fails(cli, tmp_path, ["quantize", "--in", bad, "--dst", "e4m3"], "tensor 'a\\nb': unsupported dtype 'C64'")
    record = {"format": "e2m1", "axis": -1, "blocksize": 32, "layout": "codes+scale",
              "tensors": {"k" * 10**5: {"dtype": "F32", "shape": [1, 32]}}}
    write_raw(bad, {"__metadata__": {"accelmath.mx": json.dumps(record)}, "w": {"dtype": "U8", "shape": [1], "data_offsets": [0, 1]}},
              b"\0")
    fails(cli, tmp_path, ["dequantize", "--in", bad], "tensor 'kkk", "...' is in the \"accelmath.mx\" record but not in the file")
    write_raw(bad, b'{"w": "' + b"x" * 10**5)  # the JSON library's message quotes the unterminated string
    fails(cli, tmp_path, ["quantize", "--in", bad, "--dst", "e4m3"], "not valid JSON", "xxx...")
    write_raw(bad, {"w": {"dtype": "F32", "shape": [list(range(10**5))], "data_offsets": [0, 4]}}, b"\0" * 4)
    fails(cli, tmp_path, ["quantize", "--in", bad, "--dst", "e4m3"], 'tensor \'w\': "shape" holds [0,1,2,3', "...")


def test_many_tensors_take_linear_time(cli, tmp_path):
    """100,000 tensors (empty: the header is the work) round trip in seconds. The JSON library's
    parse callback and ordered objects made a header of n tensors cost n^2: 40,000 took 7 s to
    quantize and 22 s to dequantize, so 100,000 some minutes each."""
    src, q, back = tmp_path / "m.safetensors", tmp_path / "q.safetensors", tmp_path / "b.safetensors"
    n = 100_000
    write_raw(src, b"{" + b",".join(b'"t%d":{"dtype":"F32","shape":[2,0],"data_offsets":[0,0]}' % i for i in range(n)) + b"}")
    for args, out in ((["quantize", "--in", src, "--dst", "e2m1"], q), (["dequantize", "--in", q], back)):
        t0 = time.monotonic()
        cli(*args, "--out", out, "--quiet")
        assert time.monotonic() - t0 < 30, (args[0], time.monotonic() - t0)
    h = raw(back)
    assert len(h) == n and h["t99999"] == ("F32", [2, 0], b"")


def test_reading_a_header_takes_memory_near_its_size(cli_path, tmp_path):
    """300,000 tensors, an 18 MB header: reading it (dequantize stops right after, the file having no
    record) peaks under 8 times the header's size. The header as one JSON DOM took 293 MB there
    (16 times); one entry's DOM at a time takes 104 MB (Zen 5, Debian 12's glibc)."""
    src = tmp_path / "m.safetensors"
    n = 300_000
    header = b"{" + b",".join(b'"t%d":{"dtype":"F32","shape":[2,0],"data_offsets":[0,0]}' % i for i in range(n)) + b"}"
    write_raw(src, header)
    # A Python process of its own, whose only child is the CLI: RUSAGE_CHILDREN's peak is the CLI's.
    code = ("import resource, subprocess, sys; r = subprocess.run(sys.argv[1:], capture_output=True, text=True); "
            "print(r.returncode, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, r.stderr.strip())")
    out = subprocess.run([sys.executable, "-c", code, str(cli_path), "dequantize", "--in", str(src), "--out",
                          str(tmp_path / "out.safetensors"), "--quiet"], capture_output=True, text=True, check=True).stdout
    rc, kib, err = out.split(" ", 2)
    assert rc == "2" and "not an MX checkpoint" in err, out
    assert int(kib) * 1024 < 8 * len(header), (int(kib) // 1024, "MiB", len(header) // 2**20, "MiB header")


def test_an_output_header_no_reader_accepts_is_an_error(cli, tmp_path):
    """10,000 tensors of 4000-byte names (a 40 MB header) quantize to a header of some 120 MB, over
    the 100 MB that readers (this one, the reference implementation) accept: an error, no file."""
    src = tmp_path / "m.safetensors"
    write_raw(src, b"{" + b",".join(b'"%s%05d":{"dtype":"F32","shape":[1,0],"data_offsets":[0,0]}' % (b"w" * 3995, i)
                                     for i in range(10_000)) + b"}")
    fails(cli, tmp_path, ["quantize", "--in", src, "--dst", "e2m1"], "out.safetensors: its header would be", "over the 100 MB")


def test_an_error_leaves_an_existing_output_as_it_was(cli, tmp_path):
    src, out = tmp_path / "m.safetensors", tmp_path / "out.safetensors"
    checkpoint(src, odd=torch.randn(4, 33))
    out.write_bytes(b"previous")
    r = cli("quantize", "--in", src, "--out", out, "--dst", "e2m1", "--quiet", check=False)
    assert r.returncode == 2 and out.read_bytes() == b"previous"
    assert not list(tmp_path.glob("out.safetensors.tmp*"))


def test_forms_refuse_each_others_options(cli, tmp_path):
    src = tmp_path / "m.safetensors"
    checkpoint(src)
    r = cli("quantize", "--in", src, "--dst", "e4m3", "--out-y", tmp_path / "y.npy", check=False)
    assert r.returncode == 2 and "needs --out" in r.stderr
    r = cli("quantize", "--in", src, "--dst", "e4m3", "--out", tmp_path / "o.safetensors", "--x-dtype", "bfloat16", check=False)
    assert r.returncode == 2 and "does not take --x-dtype" in r.stderr  # was ignored
    r = cli("quantize", "--in", tmp_path / "x.npy", "--dst", "e4m3", "--out", tmp_path / "o.safetensors", check=False)
    assert r.returncode == 2 and "needs --out-y" in r.stderr and "not named *.safetensors" in r.stderr
    r = cli("dequantize", "--in", src, "--out", tmp_path / "o.safetensors", "--dst", "e4m3", check=False)
    assert r.returncode == 2 and "does not take --dst" in r.stderr
