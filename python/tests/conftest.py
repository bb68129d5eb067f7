"""Shared fixtures of the Python tests (docs/python.md). They run against the installed package
(scripts/python-test installs the wheel into a fresh virtual environment) and compare it with the
C++ CLI of the same checkout: $ACCELMATH_CLI, else build/accelmath."""
import os
import pathlib
import subprocess

import numpy as np
import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]


@pytest.fixture(scope="session")
def cli_path():
    path = pathlib.Path(os.environ.get("ACCELMATH_CLI", ROOT / "build" / "accelmath"))
    if not path.is_file():
        pytest.fail(f"the accelmath CLI is not at {path}: build it (scripts/build) or set ACCELMATH_CLI")
    return path


@pytest.fixture(scope="session")
def cli(cli_path):
    path = cli_path

    def run(*args, check=True):
        r = subprocess.run([str(path), *map(str, args)], capture_output=True, text=True)
        if check and r.returncode != 0:
            raise AssertionError(f"accelmath {' '.join(map(str, args))} failed ({r.returncode}): {r.stderr}")
        return r
    return run


def bits(a):
    """The bit patterns of a float32 array (so NaN payloads and signed zeros compare too)."""
    return np.ascontiguousarray(a, dtype=np.float32).view(np.uint32)


SPECIALS = np.array([0.0, -0.0, np.inf, -np.inf, np.nan, 1.0, -1.0, 0.5, -0.5, 2.0, 1e-45, -1e-45, 1.1754942e-38,
                     1.17549435e-38, 3.4028235e38, -3.4028235e38, 1e30, -1e30, 100.0, 89.5, -104.0, 3.1415927,
                     1.5707964, 0.975, 0.025, 1e-10, 8388608.0, 8388609.0, 0.75, 1.25, 35.04, 91.9],
                    dtype=np.float32)


def sample(n, seed):
    """n float32 values with random bit patterns (every class: NaN, inf, subnormal, huge), then SPECIALS."""
    rng = np.random.default_rng(seed)
    x = rng.integers(0, 2**32, n, dtype=np.uint64).astype(np.uint32).view(np.float32)
    # Half of them in [-8, 8), where the functions do most of their work.
    x[: n // 2] = rng.uniform(-8, 8, n // 2).astype(np.float32)
    return np.concatenate([x, SPECIALS, -SPECIALS])
