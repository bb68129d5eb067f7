"""Dask: accelmath over chunked arrays on a distributed.LocalCluster of worker processes (loopback
only), results identical to the in-memory calls."""
import os
import sys

import dask.array as da
import distributed
import numpy as np
import pytest

import accelmath
import accelmath.dask
import accelmath.mx


@pytest.fixture(scope="module")
def client():
    cluster = distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1",
                                       dashboard_address=None)
    c = distributed.Client(cluster)
    yield c
    c.close()
    cluster.close()


def test_map_blocks_on_worker_processes(client):
    rng = np.random.default_rng(9)
    p = rng.uniform(0, 1, (1000, 300)).astype(np.float32)
    x = da.from_array(p, chunks=(128, 100))
    got = x.map_blocks(accelmath.ndtri).compute()
    np.testing.assert_array_equal(got.view(np.uint32), accelmath.ndtri(p).view(np.uint32))
    # the work ran in the two worker processes: each unpickled accelmath.ndtri by name, so each
    # imported accelmath, and neither is this process
    seen = client.run(lambda: (os.getpid(), "accelmath" in sys.modules))
    assert len(seen) == 2
    assert all(imported and pid != os.getpid() for pid, imported in seen.values())


@pytest.mark.parametrize("dst", ["e4m3", "e2m1", "e3m2"])
def test_mx_quantize_of_a_chunked_tensor(client, dst):
    rng = np.random.default_rng(10)
    w = (rng.standard_normal((300, 512)) * np.exp2(rng.integers(-8, 8, (300, 1)))).astype(np.float32)
    x = da.from_array(w, chunks=(64, 128))
    y, s = accelmath.dask.quantize(x, dst=dst, block=32)
    y_mem, s_mem = accelmath.mx.quantize(w, dst=dst, block=32)
    assert y.shape == y_mem.shape and s.shape == s_mem.shape
    y_got, s_got = client.compute([y, s], sync=True)
    np.testing.assert_array_equal(y_got, y_mem)
    np.testing.assert_array_equal(s_got, s_mem)


def test_mx_chunks_must_hold_whole_block_pairs():
    x = da.zeros((4, 256), chunks=(4, 96), dtype=np.float32)
    with pytest.raises(ValueError, match=r"^x: chunk size 96 along the last axis is not a multiple of 2 \* block = 64"):
        accelmath.dask.quantize(x, dst="e4m3", block=32)
