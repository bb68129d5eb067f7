#!/usr/bin/env python3
"""Writes the seed inputs of fuzz_mx_options (corpus/mx_options/) in the harness's input layout."""
import os
import struct
import sys

def seed(shape, axis=-1, bs=32, dst=40, xt=0, rnd=1, alg=0, threads=0, flags=0, extra=b""):
    b = struct.pack("<B", len(shape)) + b"".join(struct.pack("<q", d) for d in shape)
    b += struct.pack("<qqiiBqiB", axis, bs, dst, xt, rnd, alg, threads, flags)
    return b + extra

seeds = {
    "e2m1_2x64": seed([2, 64]),
    "e4m3_rank3_axis0": seed([64, 3, 4], axis=0, dst=36, flags=8),
    "e3m2_bf16_bs64_round": seed([4, 128], bs=64, dst=38, xt=27, rnd=2, alg=3, threads=2, flags=8),
    "e5m2_f16_rceil": seed([96], dst=35, xt=1, alg=1, flags=8),
    "e1m2_floor_ceil": seed([1, 1, 2, 34], axis=-1, dst=41, rnd=3, alg=2, flags=8),
    "huge_dim": seed([0x7FFFFFFFFFFFFFFF], dst=36),
    "huge_block": seed([2, 64], bs=0x7FFFFFFFFFFFFFFF),
    "bad_round_mode": seed([32], rnd=9, flags=16, extra=struct.pack("<i", 7) + struct.pack("<32f", *range(32))),
    "bad_dtype_codecs": seed([32], dst=99, xt=37, flags=16 | 1, extra=struct.pack("<i", 99) + bytes(64)),
    "custom_scale_shape": seed([2, 32], flags=4, extra=struct.pack("<B", 3) + struct.pack("<3q", 2, 1, 2)),
}
out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "corpus", "mx_options")
os.makedirs(out, exist_ok=True)
for name, data in seeds.items():
    with open(os.path.join(out, name), "wb") as f:
        f.write(data)
