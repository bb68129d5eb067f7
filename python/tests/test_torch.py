"""CPU torch tensors through DLPack: no copy in or out, torch tensors back, the same bits as NumPy."""
import numpy as np
import pytest
import torch

import accelmath
import accelmath.mx
from conftest import bits, sample

X = sample(4096 - 64, seed=3)


def test_tensor_in_tensor_out_same_bits():
    t = torch.from_numpy(X.copy())
    r = accelmath.sin(t)
    assert isinstance(r, torch.Tensor) and r.dtype == torch.float32 and r.shape == t.shape
    np.testing.assert_array_equal(bits(r.numpy()), bits(accelmath.sin(X)))
    s, c = accelmath.sincos(t)
    assert isinstance(s, torch.Tensor) and isinstance(c, torch.Tensor)


def test_out_tensor_written_in_place_without_a_copy():
    t = torch.from_numpy(X.copy())
    ptr = t.data_ptr()
    assert accelmath.exp(t, out=t) is t
    assert t.data_ptr() == ptr
    np.testing.assert_array_equal(bits(t.numpy()), bits(accelmath.exp(X)))
    # an out tensor whose memory is shared with a NumPy array: the array sees the result
    a = np.zeros_like(X)
    accelmath.cos(torch.from_numpy(X), out=torch.from_numpy(a))
    np.testing.assert_array_equal(bits(a), bits(accelmath.cos(X)))


def test_strided_tensors():
    t = torch.from_numpy(X.copy()).reshape(64, 64)
    for v in (t.T, t[::2, 1::3], t[:, 5]):
        np.testing.assert_array_equal(bits(accelmath.log(v).numpy()),
                                      bits(accelmath.log(np.ascontiguousarray(v.numpy()))))


def test_tensor_errors():
    with pytest.raises(TypeError, match=r"^x: expected float32, got torch.Tensor of dtype torch.float64"):
        accelmath.sin(torch.ones(3, dtype=torch.float64))
    with pytest.raises(TypeError, match=r"^x: expected float32, got torch.Tensor of dtype torch.bfloat16"):
        accelmath.sin(torch.ones(3, dtype=torch.bfloat16))
    out = torch.full((3,), 5.0)
    with pytest.raises(ValueError, match=r"^out: shape \(4,\) is not x's shape \(3,\)"):
        accelmath.sin(torch.ones(3), out=torch.ones(4))
    with pytest.raises(TypeError, match=r"^x: expected float32"):
        accelmath.sin(torch.ones(3, dtype=torch.int32), out=out)
    with pytest.raises(ValueError, match=r"^out: the tensor requires grad"):
        accelmath.sin(torch.ones(3), out=torch.ones(3, requires_grad=True))
    assert (out == 5).all()
    r = accelmath.sin(torch.ones(3, requires_grad=True))  # read: fine, and no grad history
    assert not r.requires_grad


def test_mx_takes_bfloat16_tensors():
    rng = np.random.default_rng(5)
    x = torch.from_numpy(rng.standard_normal((8, 128)).astype(np.float32)).to(torch.bfloat16)
    y, s = accelmath.mx.quantize(x, dst="e2m1")
    assert isinstance(y, torch.Tensor) and y.dtype == torch.uint8 and tuple(y.shape) == (8, 64)
    y2, s2 = accelmath.mx.quantize(x.view(torch.int16).numpy().view(np.uint16).view(__import__("ml_dtypes").bfloat16),
                                   dst="e2m1")
    np.testing.assert_array_equal(y.numpy(), y2)
    np.testing.assert_array_equal(s.numpy(), s2)
    back = accelmath.mx.dequantize(y, s, dst="e2m1", dtype=torch.bfloat16)
    assert back.dtype == torch.bfloat16 and back.shape == x.shape
