"""MX block quantization (accelmath::mx, docs/mx.md) for NumPy arrays and CPU torch tensors.

    y, scale = accelmath.mx.quantize(x, dst="e4m3", axis=-1, block=32, round="rint", scale_alg=0)
    x2 = accelmath.mx.dequantize(y, scale, dst="e4m3", axis=-1, block=32, dtype=np.float32)

x is float32, float16 or bfloat16 (ml_dtypes.bfloat16 arrays, torch.bfloat16 tensors). y holds the
element codes as uint8, packed along the last dimension for the 4- and 6-bit formats (two FP4 codes
per byte, four FP6 codes per three bytes), scale the E8M0 block scales as uint8 in the operator's
layout (the blocked axis becomes [ceil(blocks / 2), 2]): the layout of the C++ API and of
`accelmath quantize`. Torch tensors in, torch tensors out. The C++ API's validation errors are
raised as ValueError with its message ("axis: ...", "blocksize: ...").
"""
import numpy as np

from . import _core
from ._arrays import dtype_name, like, to_numpy

#: The element formats, by name, with the C++ DType values.
FORMATS = {"e5m2": 35, "e4m3": 36, "e3m2": 38, "e2m3": 39, "e2m1": 40, "e1m2": 41}
#: Bits per element code (packed along the last dimension when fewer than 8).
BITS = {"e5m2": 8, "e4m3": 8, "e3m2": 6, "e2m3": 6, "e2m1": 4, "e1m2": 4}
_SOURCES = {"float32": 0, "float16": 1, "bfloat16": 27}
_SCALE_ALGS = {"ocp": 0, "rceil": 1, "ceil": 2, "even": 3}


def _format(dst):
    if dst not in FORMATS:
        raise ValueError(f"dst: {dst!r} is not one of {', '.join(FORMATS)}")
    return FORMATS[dst]


def _dtype_name(dtype):
    """'float32', 'float16', 'bfloat16', ... of a name, a NumPy dtype (ml_dtypes' included) or a torch dtype."""
    if isinstance(dtype, str) or type(dtype).__module__.startswith("torch"):
        return str(dtype).replace("torch.", "")
    try:
        return np.dtype(dtype).name
    except TypeError:
        return repr(dtype)


def _threads(threads):
    if not isinstance(threads, int) or threads < 0:
        raise ValueError(f"threads: {threads!r} is not an integer >= 0 (0: all cores for large tensors)")
    return threads


def quantize(x, dst="e4m3", axis=-1, block=32, round="rint", scale_alg=0, threads=0):
    """Quantizes x in blocks of `block` elements along `axis` -> (codes, scales), both uint8.

    round: "rint" (nearest, ties to even), "round" (ties away) or "floor" (FP4/FP6 only);
    scale_alg: 0 or "ocp", 1 or "rceil" (FP8 only), 2 or "ceil", 3 or "even" (docs/mx.md).
    threads: 0 lets the library use every core on large tensors; n caps it.
    """
    name = dtype_name(x)
    if name not in _SOURCES:
        raise TypeError(f"x: expected float32, float16 or bfloat16, got {name}")
    alg = _SCALE_ALGS.get(scale_alg, scale_alg) if isinstance(scale_alg, str) else scale_alg
    if not isinstance(alg, int):
        raise ValueError(f"scale_alg: {scale_alg!r} is not 0 (ocp), 1 (rceil), 2 (ceil) or 3 (even)")
    if round is None:
        round = "rint"
    if not isinstance(round, str):
        raise ValueError(f"round: {round!r} is not \"rint\", \"round\" or \"floor\"")
    a = to_numpy(x, "x")
    y, scale = _core._mx_quantize(a, _SOURCES[name], _format(dst), int(axis), int(block), round, alg,
                                  _threads(threads))
    return like(y, x), like(scale, x)


def dequantize(y, scale, dst="e4m3", axis=-1, block=32, dtype="float32", threads=0):
    """The elements that codes y and scales scale stand for, as dtype: float32, float16 or bfloat16
    (a NumPy or torch dtype, or its name). y and scale as quantize returns them."""
    out = _dtype_name(dtype)
    if out not in _SOURCES:
        raise TypeError(f"dtype: expected float32, float16 or bfloat16, got {dtype!r}")
    for arg, v in (("y", y), ("scale", scale)):
        if dtype_name(v) != "uint8":
            raise TypeError(f"{arg}: expected uint8 codes, got {dtype_name(v)}")
    result = _core._mx_dequantize(to_numpy(y, "y"), to_numpy(scale, "scale"), _format(dst), int(axis), int(block),
                                  _SOURCES[out], _threads(threads))
    return like(result, y, out)
