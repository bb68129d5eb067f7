"""accelmath for Python: the float32 math functions, MX block quantization and the precision checker
of the accelmath C++ library, bit-identical to it (docs/python.md).

Every function of the registry is ``accelmath.<name>(x, out=None)``; a function of two inputs is
``accelmath.<name>(x1, x2, out=None)`` (``accelmath.atan2(y, x)``, ``accelmath.pow(x1, x2)``), of three or
four ``(x, y, z[, w], out=None)`` (``accelmath.fma``, ``accelmath.norm3d``), ``accelmath.ldexp(x, n)``
takes an int32 ``n``, and a function of rows reduces the last axis (``accelmath.norm(a)``: shape
``a.shape[:-1]``). ``isnan``/``isinf``/``isfinite`` return bool arrays, ``ilogb`` int32, ``frexp`` a
(float32, int32) pair. ``accelmath.functions`` lists them with their shapes and error bounds. ``accelmath.mx`` quantizes and dequantizes, ``accelmath.verify``
compares an output with its golden, ``accelmath.dask`` maps MX quantization over dask arrays.
"""
from collections import namedtuple as _namedtuple

from . import _core
from . import mx
from ._verify import VerifyResult, WorstElement, verify

__version__ = "0.1.0"

FunctionInfo = _namedtuple("FunctionInfo", "name family inputs outputs bound_ulp domain shape args")
FunctionInfo.__doc__ = ("A row of the registry: name, family, inputs, results, max error (ulp; 0: exact), domain, "
                        "shape (Unary, Binary, Ternary, Rows, ...), argument names.")

#: Every math function, in registry order.
functions = tuple(FunctionInfo(**row) for row in _core.functions)


def _public(name, args):
    core = getattr(_core, name)
    # A plain Python function of the row's own argument names, so that pickle (and dask's
    # workers) find it by name and help() shows its signature.
    params = ", ".join(args)
    namespace = {"_core_fn": core}
    exec(f"def {name}({params}, out=None):\n    return _core_fn({params}, out)\n", namespace)
    f = namespace[name]
    f.__qualname__ = name
    f.__module__ = __name__
    f.__doc__ = core.__doc__.split("\n\n", 1)[-1]
    return f


for _info in functions:
    globals()[_info.name] = _public(_info.name, _info.args)

__all__ = [f.name for f in functions] + ["functions", "FunctionInfo", "mx", "verify", "VerifyResult", "WorstElement"]
del _info
