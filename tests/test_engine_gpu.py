"""The same kernels on CuPy: forward and backward against the NumPy float64 reference.

Runs only where CuPy imports and a CUDA device is visible; skipped with a reason elsewhere.
"""

from __future__ import annotations

import numpy as np
import pytest

from atlas_build.engine import attention, attention_backward, tiled_attention

pytestmark = pytest.mark.gpu


def _cupy():
    cp = pytest.importorskip("cupy", reason="CuPy is not installed (pip install '.[gpu]')")
    try:
        if cp.cuda.runtime.getDeviceCount() < 1:
            pytest.skip("CuPy found no CUDA device")
    except Exception as exc:  # CUDA driver/runtime missing: any CuPy error means no device
        pytest.skip(f"CuPy cannot reach a CUDA device: {exc}")
    return cp


DOCS = np.array([0] * 100 + [1] * 180 + [2] * 200 + [-1] * 32)


@pytest.mark.parametrize("dtype, tol", [(np.float64, 1e-10), (np.float32, 2e-5)])
@pytest.mark.parametrize("kwargs", [dict(causal=True), dict(causal=True, doc_ids=DOCS), {}])
def test_cupy_forward_and_backward_match_numpy(dtype, tol, kwargs):
    cp = _cupy()
    rng = np.random.default_rng(0)
    q, k, v, dout = (rng.standard_normal((2, 4, 512, 64)) for _ in range(4))
    ref = attention(q, k, v, method="dense", **kwargs)
    ref_grads = attention_backward(q, k, v, dout, method="dense", **kwargs)
    g = [cp.asarray(x.astype(dtype)) for x in (q, k, v, dout)]
    for method in ("dense", "tiled"):
        out = attention(*g[:3], method=method, **kwargs)
        assert isinstance(out, cp.ndarray) and out.dtype == dtype
        got = cp.asnumpy(out)
        assert np.abs(got - ref).max() <= tol * np.abs(ref).max()
        grads = attention_backward(*g, method=method, **kwargs)
        for a, r in zip(grads, ref_grads, strict=True):
            assert isinstance(a, cp.ndarray)
            assert np.abs(cp.asnumpy(a) - r).max() <= 50 * tol * np.abs(r).max()


def test_cupy_online_path_and_odd_tiles():
    cp = _cupy()
    rng = np.random.default_rng(1)
    q, k, v = (rng.standard_normal((3, 301, 16)) for _ in range(3))
    q *= 40.0
    ref = attention(q, k, v, causal=True, doc_ids=DOCS[:301], method="dense")
    out = tiled_attention(*(cp.asarray(x) for x in (q, k, v)), causal=True, doc_ids=DOCS[:301],
                          block_q=37, block_k=64)  # fmt: skip
    np.testing.assert_allclose(cp.asnumpy(out), ref, rtol=1e-10, atol=1e-12)
