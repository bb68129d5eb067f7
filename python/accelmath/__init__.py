"""accelmath for Python: the float32 math functions, MX block quantization and the precision checker
of the accelmath C++ library, bit-identical to it (docs/python.md).

Every function of the registry is ``accelmath.<name>(x, out=None)`` (a function of two inputs:
``accelmath.<name>(x1, x2, out=None)``, e.g. ``accelmath.atan2(y, x)``, arrays of one shape);
``accelmath.functions`` lists them with their error bounds. ``accelmath.mx`` quantizes and dequantizes, ``accelmath.verify``
compares an output with its golden, ``accelmath.dask`` maps MX quantization over dask arrays.
"""
from collections import namedtuple as _namedtuple

from . import _core
from . import mx
from ._verify import VerifyResult, WorstElement, verify

__version__ = "0.1.0"

FunctionInfo = _namedtuple("FunctionInfo", "name family inputs outputs bound_ulp domain")
FunctionInfo.__doc__ = "A row of the registry: name, family, inputs, results per input, max error (ulp), domain."

#: Every math function, in registry order.
functions = tuple(FunctionInfo(**row) for row in _core.functions)


def _public(name, inputs):
    core = getattr(_core, name)

    # A plain Python function, so that pickle (and dask's workers) find it by name.
    if inputs == 2:
        def f(x1, x2, out=None):
            return core(x1, x2, out)
    else:
        def f(x, out=None):
            return core(x, out)

    f.__name__ = f.__qualname__ = name
    f.__module__ = __name__
    f.__doc__ = core.__doc__.split("\n\n", 1)[-1]
    return f


for _info in functions:
    globals()[_info.name] = _public(_info.name, _info.inputs)

__all__ = [f.name for f in functions] + ["functions", "FunctionInfo", "mx", "verify", "VerifyResult", "WorstElement"]
del _info
