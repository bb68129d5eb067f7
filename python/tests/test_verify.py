"""accelmath.verify: the verdicts and numbers of `accelmath verify` on the same data."""
import re

import ml_dtypes
import numpy as np
import pytest

import accelmath


def cli_numbers(cli, tmp_path, golden, actual, *args):
    np.save(tmp_path / "g.npy", golden)
    np.save(tmp_path / "a.npy", actual)
    r = cli("verify", "--golden", tmp_path / "g.npy", "--actual", tmp_path / "a.npy", *args, check=False)
    assert r.returncode in (0, 1), r.stderr
    out = r.stdout
    errors = re.search(r"errors: (\d+) \(class mismatches (\d+)\)", out)
    return {"passed": r.returncode == 0, "errors": int(errors[1]) if errors else None,
            "class_mismatches": int(errors[2]) if errors else None,
            "max_ulp": float(re.search(r"max ulp error: (\S+)", out)[1]),
            "worst": [int(m[1]) for m in re.finditer(r"^\s+(\d+)\s", out, re.M)]}


CASES = {
    "identical": lambda g: g.copy(),
    "one_far": lambda g: np.where(np.arange(g.size).reshape(g.shape) == 17, g * 1.5 + 1, g).astype(g.dtype),
    "many_small": lambda g: (g * (1 + 3e-5)).astype(g.dtype),
    "many_far": lambda g: (g * (1 + 3e-3)).astype(g.dtype),
    "nan_class": lambda g: np.where(np.arange(g.size).reshape(g.shape) % 97 == 3, np.nan, g).astype(g.dtype),
}


@pytest.mark.parametrize("dtype", [np.float32, np.float16, np.float64])
@pytest.mark.parametrize("case", list(CASES))
@pytest.mark.parametrize("standard", ["dual", "mere-mare"])
def test_same_verdict_as_cli(case, dtype, standard, cli, tmp_path):
    g = np.random.default_rng(4).uniform(0.5, 2, (40, 50)).astype(dtype)
    a = CASES[case](g)
    want = cli_numbers(cli, tmp_path, g, a, "--standard", standard)
    r = accelmath.verify(g, a, standard=standard)
    assert r.passed == want["passed"] and bool(r) == r.passed
    assert r.count == g.size
    if standard == "dual":
        assert (r.errors, r.class_mismatches) == (want["errors"], want["class_mismatches"])
        assert r.error_ratio == want["errors"] / g.size
    assert f"{r.max_ulp:.4f}" == f"{want['max_ulp']:.4f}"
    assert [w.index for w in r.worst] == want["worst"]
    for w in r.worst:
        assert w.position == np.unravel_index(w.index, g.shape)


def test_thresholds_and_defaults():
    g = np.ones(1000, np.float32)
    a = g.copy()
    a[:2] = 1.01  # 2 errors of 1e-2: ratio 2e-3
    assert not accelmath.verify(g, a)
    r = accelmath.verify(g, a, max_error_ratio=2e-3)
    assert r.passed and r.errors == 2 and r.max_error_ratio == 2e-3
    assert accelmath.verify(g, a, atol=0.02).passed
    assert accelmath.verify(g, a).atol == 1e-4
    assert accelmath.verify(g.astype(np.float16), a.astype(np.float16)).atol == 1e-3
    b = accelmath.verify(g.astype(ml_dtypes.bfloat16), a.astype(ml_dtypes.bfloat16))
    assert b.count == 1000 and b.atol == 1e-3


def test_errors():
    g = np.ones(4, np.float32)
    with pytest.raises(TypeError, match=r"^actual: dtype float64 is not golden's float32"):
        accelmath.verify(g, g.astype(np.float64))
    with pytest.raises(ValueError, match=r"^actual: shape \(2, 2\) is not golden's shape \(4,\)"):
        accelmath.verify(g, g.reshape(2, 2))
    with pytest.raises(ValueError, match=r"^golden: empty array"):
        accelmath.verify(g[:0], g[:0])
    with pytest.raises(ValueError, match=r"^standard: 'mare'"):
        accelmath.verify(g, g, standard="mare")
    with pytest.raises(ValueError, match=r"^atol: -1"):
        accelmath.verify(g, g, atol=-1)
    with pytest.raises(ValueError, match=r"^max_error_ratio: 2"):
        accelmath.verify(g, g, max_error_ratio=2)
    with pytest.raises(TypeError, match=r"^golden: expected float16, bfloat16, float32 or float64, got int32"):
        accelmath.verify(g.astype(np.int32), g.astype(np.int32))
