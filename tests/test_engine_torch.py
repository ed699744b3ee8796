"""Against PyTorch's scaled_dot_product_attention: forward and autograd (skipped without torch)."""

from __future__ import annotations

import numpy as np
import pytest

from atlas_build.engine import allowed_keys, attention, attention_backward

torch = pytest.importorskip("torch", reason="torch is an optional test extra")
F = torch.nn.functional

DOCS = np.array([0] * 7 + [1] * 10 + [2] * 6 + [-1] * 2)
CASES = [
    dict(causal=False),
    dict(causal=True),
    dict(causal=True, doc_ids=DOCS),
    dict(causal=False, doc_ids=DOCS),
    dict(causal=False, scale=0.3),
]


def torch_reference(q, k, v, dout, causal=False, doc_ids=None, scale=None):
    tq, tk, tv = (torch.tensor(x, requires_grad=True) for x in (q, k, v))
    mask = None
    if doc_ids is not None:
        mask = torch.tensor(allowed_keys(doc_ids, causal=causal))
        causal = False
    out = F.scaled_dot_product_attention(tq, tk, tv, attn_mask=mask, is_causal=causal, scale=scale)
    out.backward(torch.tensor(dout))
    return out.detach().numpy(), [t.grad.numpy() for t in (tq, tk, tv)]


def rows_with_keys(case, t):
    if case.get("doc_ids") is None:
        return np.ones(t, dtype=bool)
    return case["doc_ids"] >= 0  # torch returns NaN for fully masked rows; the engine zeros


@pytest.mark.parametrize("case", CASES)
@pytest.mark.parametrize("method", ["dense", "tiled"])
def test_forward_and_autograd_match_torch_float64(case, method):
    rng = np.random.default_rng(0)
    q, k, v = (rng.standard_normal((2, 3, 25, 8)) for _ in range(3))
    dout = rng.standard_normal((2, 3, 25, 8))
    ref_out, ref_grads = torch_reference(q, k, v, dout, **case)
    out = attention(q, k, v, method=method, **case)
    rows = rows_with_keys(case, 25)
    np.testing.assert_allclose(out[..., rows, :], ref_out[..., rows, :], rtol=1e-10, atol=1e-12)
    assert np.all(out[..., ~rows, :] == 0)
    if not rows.all():
        dout[..., ~rows, :] = 0.0  # torch's NaN rows would poison its gradients
        ref_out, ref_grads = torch_reference(q, k, v, dout, **case)
    grads = attention_backward(q, k, v, dout, method=method, **case)
    for g, r in zip(grads, ref_grads, strict=True):
        keep = np.isfinite(r)
        np.testing.assert_allclose(g[keep], r[keep], rtol=1e-9, atol=1e-11)


@pytest.mark.parametrize("method", ["dense", "tiled"])
def test_float32_matches_torch(method):
    rng = np.random.default_rng(1)
    q, k, v = (rng.standard_normal((1, 4, 300, 32)).astype(np.float32) for _ in range(3))
    dout = rng.standard_normal((1, 4, 300, 32)).astype(np.float32)
    ref_out, ref_grads = torch_reference(q, k, v, dout, causal=True)
    out = attention(q, k, v, causal=True, method=method)
    assert np.abs(out - ref_out).max() <= 2e-5 * np.abs(ref_out).max()
    grads = attention_backward(q, k, v, dout, causal=True, method=method)
    for g, r in zip(grads, ref_grads, strict=True):
        assert np.abs(g - r).max() <= 1e-4 * np.abs(r).max()
