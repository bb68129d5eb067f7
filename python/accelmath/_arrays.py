"""Array plumbing for accelmath.mx and accelmath.verify: NumPy arrays (ml_dtypes' bfloat16 included)
and CPU torch tensors in, C-contiguous NumPy arrays out, without a copy where the layout allows."""
import sys

import numpy as np


def torch_tensor(x):
    """x when it is a torch.Tensor (torch already imported by the caller), else None."""
    torch = sys.modules.get("torch")
    return x if torch is not None and isinstance(x, torch.Tensor) else None


def dtype_name(x):
    """'float32', 'float16', 'bfloat16', 'uint8', ... for a NumPy array or a torch tensor."""
    t = torch_tensor(x)
    if t is not None:
        return str(t.dtype).replace("torch.", "")
    return np.asarray(x).dtype.name


def to_numpy(x, arg):
    """A C-contiguous NumPy view (or copy, for other layouts) of x; bfloat16 as its uint16 bits."""
    t = torch_tensor(x)
    if t is not None:
        torch = sys.modules["torch"]
        if t.device.type != "cpu":
            raise ValueError(f"{arg}: the tensor is on {t.device}, not the CPU")
        t = t.detach().contiguous()
        if t.dtype == torch.bfloat16:
            return t.view(torch.int16).numpy().view(np.uint16)
        return t.numpy()
    if not isinstance(x, np.ndarray):
        raise TypeError(f"{arg}: expected a NumPy array or a CPU torch tensor, got {type(x).__name__}")
    a = np.asarray(x, order="C")  # (np.ascontiguousarray would make a 0-d array 1-d)
    if a.dtype.name == "bfloat16":
        return a.view(np.uint16)
    return a


def like(result, x, dtype_name_=None):
    """result (a NumPy array) as a torch tensor when x is one, else as it is; bfloat16 results are
    uint16 bits, returned as ml_dtypes.bfloat16 or torch.bfloat16."""
    if torch_tensor(x) is not None:
        torch = sys.modules["torch"]
        if dtype_name_ == "bfloat16":
            return torch.from_numpy(result.view(np.int16)).view(torch.bfloat16)
        return torch.from_numpy(result)
    if dtype_name_ == "bfloat16":
        import ml_dtypes
        return result.view(ml_dtypes.bfloat16)
    return result
