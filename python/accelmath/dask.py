"""accelmath over dask arrays, for data larger than one machine (docs/python.md).

The math functions need nothing from here: they are element-wise, so ``x.map_blocks(accelmath.ndtri)``
runs them chunk by chunk on any scheduler (a distributed cluster included: they pickle by name).
MX quantization returns two arrays per chunk, codes and scales; ``quantize`` computes each chunk
once and assembles both as dask arrays, identical to ``accelmath.mx.quantize`` of the whole array.
"""
import numpy as np

from . import mx


def _chunks_fit(chunks, block, what):
    # Every chunk but the last of the last axis must hold whole pairs of blocks: the scales of a
    # block pair share one [..., 2] row of the scale layout, and codes pack within a row.
    for c in chunks[:-1]:
        if c % (2 * block) != 0:
            raise ValueError(f"x: chunk size {c} along the last axis is not a multiple of 2 * block = {2 * block} "
                             f"(rechunk the last axis, e.g. x.rechunk({{-1: {2 * block * max(1, c // (2 * block))}}}){what})")


def quantize(x, dst="e4m3", block=32, round="rint", scale_alg=0):
    """MX quantization of a dask array along its last axis -> (codes, scales), two dask arrays whose
    computed values equal accelmath.mx.quantize(x.compute(), dst, -1, block, round, scale_alg).
    Chunks along the last axis must be multiples of 2 * block (all but the last)."""
    import dask
    import dask.array as da

    if x.ndim < 1:
        raise ValueError("x: a 0-d array has no axis to block along")
    _chunks_fit(x.chunks[-1], block, "")
    mx._format(dst)  # the ValueError for an unknown dst, before any graph is built
    bits = mx.BITS[dst]

    def one(chunk):
        return mx.quantize(chunk, dst=dst, axis=-1, block=block, round=round, scale_alg=scale_alg, threads=1)

    blocks = x.to_delayed()
    y_blocks = np.empty(blocks.shape, dtype=object)
    s_blocks = np.empty(blocks.shape, dtype=object)
    for index in np.ndindex(blocks.shape):
        shape = tuple(x.chunks[d][i] for d, i in enumerate(index))
        nblocks = -(-shape[-1] // block)
        pair = dask.delayed(one, nout=2)(blocks[index])
        y_shape = shape[:-1] + (shape[-1] * bits // 8,)
        s_shape = shape[:-1] + (-(-nblocks // 2), 2)
        y_blocks[index] = da.from_delayed(pair[0], y_shape, dtype=np.uint8)
        s_blocks[index] = da.from_delayed(pair[1], s_shape, dtype=np.uint8)
    # The scale blocks gain a trailing axis of 2: nest each one once more for da.block.
    s_nested = np.empty(blocks.shape + (1,), dtype=object)
    s_nested[..., 0] = s_blocks
    return da.block(y_blocks.tolist()), da.block(s_nested.tolist())
