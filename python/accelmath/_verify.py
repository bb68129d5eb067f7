"""accelmath.verify: an output checked against its golden under a precision standard, with the
semantics of `accelmath verify` (docs/engine.md, src/verify/precision.cc)."""
import math
from collections import namedtuple
from dataclasses import dataclass, field

import numpy as np

from . import _core
from ._arrays import dtype_name, torch_tensor

_DTYPES = {"float16": 0, "bfloat16": 1, "float32": 2, "float64": 3}

WorstElement = namedtuple("WorstElement", "index position golden actual abs_error rel_error ulp_error class_mismatch")
WorstElement.__doc__ = ("One of the worst elements: flat index (C order), position (index tuple), the two values, "
                        "absolute, relative and ulp error, and whether NaN/Inf classes differ.")


@dataclass
class VerifyResult:
    """The verdict and its numbers; truthy when passed."""
    passed: bool
    standard: str
    count: int
    errors: int
    class_mismatches: int
    error_ratio: float
    mere: float
    mare: float
    max_abs: float
    max_rel: float
    max_ulp: float
    atol: float
    rtol: float
    max_error_ratio: float
    threshold: float
    worst: list = field(default_factory=list)

    def __bool__(self):
        return self.passed


def _as_float64(x, arg):
    t = torch_tensor(x)
    if t is not None:
        torch = __import__("torch")
        if t.device.type != "cpu":
            raise ValueError(f"{arg}: the tensor is on {t.device}, not the CPU")
        return np.ascontiguousarray(t.detach().to(torch.float64).numpy())
    if not isinstance(x, np.ndarray):
        raise TypeError(f"{arg}: expected a NumPy array or a CPU torch tensor, got {type(x).__name__}")
    return np.ascontiguousarray(x, dtype=np.float64)


def _option(name, value, high=math.inf):
    if value is None:
        return -1.0
    v = float(value)
    if not (math.isfinite(v) and 0 <= v <= high):
        raise ValueError(f"{name}: {value!r} is not finite and in [0, {high:g}]")
    return v


def verify(golden, actual, standard="dual", atol=None, rtol=None, max_error_ratio=None, threshold=None, worst=10):
    """Checks actual against golden (same dtype and shape: float16, bfloat16, float32 or float64).

    standard "dual": an element is an error when |actual - golden| > atol and its relative error
    > rtol (NaN/Inf class mismatches always are); passes when errors / count <= max_error_ratio.
    Defaults 1e-4 (1e-3 for float16 and bfloat16), as the CLI's.
    standard "mere-mare": passes when the mean relative error < threshold and the max < 10 *
    threshold (default 2^-13; 2^-10 for float16 and bfloat16).
    worst: how many of the worst elements the result lists.
    """
    if standard not in ("dual", "mere-mare"):
        raise ValueError(f"standard: {standard!r} is not 'dual' or 'mere-mare'")
    gname, aname = dtype_name(golden), dtype_name(actual)
    if gname not in _DTYPES:
        raise TypeError(f"golden: expected float16, bfloat16, float32 or float64, got {gname}")
    if gname != aname:
        raise TypeError(f"actual: dtype {aname} is not golden's {gname}")
    gshape, ashape = tuple(golden.shape), tuple(actual.shape)
    if gshape != ashape:
        raise ValueError(f"actual: shape {ashape} is not golden's shape {gshape}")
    if math.prod(gshape) == 0:
        raise ValueError(f"golden: empty array, shape {gshape}: nothing to compare")
    if not isinstance(worst, int) or worst < 0:
        raise ValueError(f"worst: {worst!r} is not an integer >= 0")
    d = _core._verify(_as_float64(golden, "golden"), _as_float64(actual, "actual"), standard, _DTYPES[gname],
                      _option("atol", atol), _option("rtol", rtol), _option("max_error_ratio", max_error_ratio, 1.0),
                      _option("threshold", threshold), worst)
    d["worst"] = [WorstElement(i, tuple(int(k) for k in np.unravel_index(i, gshape)), *rest) for i, *rest in d["worst"]]
    return VerifyResult(standard=standard, **d)
