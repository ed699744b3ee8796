"""Dense reference, softmax, internals, validation and size guards, variance helper."""

from __future__ import annotations

import math
import os

import numpy as np
import pytest

from atlas_build.engine import (
    AttentionTooLarge,
    allowed_keys,
    attention,
    attention_backward,
    attention_internals,
    check_attention_size,
    estimate_attention_cost,
    qk_variance,
    set_size_limits,
    softmax,
)


def reference(q, k, v, allowed, scale=None):
    """Textbook float64 attention, written independently of the engine."""
    scale = 1 / math.sqrt(q.shape[-1]) if scale is None else scale
    s = np.matmul(q, np.swapaxes(k, -1, -2)) * scale
    allowed = np.broadcast_to(allowed, s.shape)
    s = np.where(allowed, s, -np.inf)
    top = s.max(axis=-1, keepdims=True)
    top = np.where(np.isfinite(top), top, 0.0)
    e = np.exp(s - top) * allowed
    z = e.sum(axis=-1, keepdims=True)
    p = np.divide(e, z, out=np.zeros_like(e), where=z > 0)
    return p @ v


def rand(*shape, seed=0):
    return np.random.default_rng(seed).standard_normal(shape)


@pytest.mark.parametrize("causal", [False, True])
def test_dense_matches_reference(causal):
    q, k, v = rand(2, 3, 9, 4, seed=1), rand(2, 3, 9, 4, seed=2), rand(2, 3, 9, 5, seed=3)
    allowed = np.tril(np.ones((9, 9), bool)) if causal else np.ones((9, 9), bool)
    out = attention(q, k, v, causal=causal, method="dense")
    assert out.shape == (2, 3, 9, 5) and out.dtype == np.float64
    np.testing.assert_allclose(out, reference(q, k, v, allowed), rtol=1e-13, atol=1e-13)


def test_mask_doc_ids_and_scale_combine():
    q, k, v = rand(4, 10, 3, seed=4), rand(4, 10, 3, seed=5), rand(4, 10, 2, seed=6)
    doc = np.array([0, 0, 0, 1, 1, 1, 1, -1, 2, 2])
    mask = rand(4, 10, 10, seed=7) > -0.5
    allowed = allowed_keys(doc, causal=True) & mask
    for method in ("dense", "tiled"):
        out = attention(q, k, v, causal=True, doc_ids=doc, mask=mask, scale=0.7, method=method)
        np.testing.assert_allclose(out, reference(q, k, v, allowed, 0.7), atol=1e-13)


def test_fully_masked_rows_are_zero_not_nan():
    q, k, v = rand(1, 6, 3, seed=8), rand(1, 6, 3, seed=9), rand(1, 6, 3, seed=10)
    mask = np.ones((6, 6), bool)
    mask[2] = False
    for method in ("dense", "tiled"):
        out = attention(q, k, v, mask=mask, method=method)
        assert np.isfinite(out).all()
        assert np.all(out[0, 2] == 0)
        grads = attention_backward(q, k, v, np.ones_like(out), mask=mask, method=method)
        assert all(np.isfinite(g).all() for g in grads)
        assert np.all(grads[0][0, 2] == 0), "a fully masked query gets zero gradient"


def test_broadcast_batch_dims_and_grad_shapes():
    q = rand(2, 4, 7, 3, seed=11)
    k, v = rand(1, 4, 7, 3, seed=12), rand(4, 7, 2, seed=13)
    out = attention(q, k, v, causal=True, method="dense")
    expected = reference(q, np.broadcast_to(k, q.shape), v, np.tril(np.ones((7, 7), bool)))
    np.testing.assert_allclose(out, expected, atol=1e-13)
    dq, dk, dv = attention_backward(q, k, v, np.ones_like(out), causal=True)
    assert dq.shape == q.shape and dk.shape == k.shape and dv.shape == v.shape


def test_cross_attention_lengths_and_top_left_causal():
    q, k, v = rand(5, 4, seed=14), rand(8, 4, seed=15), rand(8, 3, seed=16)
    allowed = np.arange(5)[:, None] >= np.arange(8)[None, :]
    for method in ("dense", "tiled"):
        out = attention(q, k, v, causal=True, method=method)
        np.testing.assert_allclose(out, reference(q, k, v, allowed), atol=1e-13)


def test_float32_and_empty_inputs():
    q = rand(3, 6, 4, seed=17).astype(np.float32)
    out = attention(q, q, q, causal=True)
    assert out.dtype == np.float32
    empty = attention(np.zeros((0, 4)), np.zeros((0, 4)), np.zeros((0, 2)))
    assert empty.shape == (0, 2)
    no_keys = attention(np.ones((3, 4)), np.zeros((0, 4)), np.zeros((0, 2)))
    assert np.all(no_keys == 0) and no_keys.shape == (3, 2)


def test_softmax_helper():
    x = np.array([[1.0, 2.0, 3.0], [1000.0, 1000.0, -1000.0], [0.0, 0.0, 0.0]])
    mask = np.array([[True, True, True], [True, True, False], [False, False, False]])
    p = softmax(x, mask=mask)
    np.testing.assert_allclose(p[0], np.exp([1, 2, 3]) / np.exp([1, 2, 3]).sum())
    np.testing.assert_allclose(p[1], [0.5, 0.5, 0.0])
    assert np.all(p[2] == 0)
    np.testing.assert_allclose(softmax(x).sum(axis=-1), 1.0)


def test_internals_scores_probs_and_gradients():
    q, k, v = rand(2, 5, 3, seed=18), rand(2, 5, 3, seed=19), rand(2, 5, 4, seed=20)
    dout = rand(2, 5, 4, seed=21)
    it = attention_internals(q, k, v, causal=True)
    np.testing.assert_allclose(it.scores, q @ np.swapaxes(k, -1, -2) / math.sqrt(3))
    assert np.all(it.probs[:, 0, 1:] == 0)
    np.testing.assert_allclose(it.probs.sum(-1), 1.0)
    np.testing.assert_allclose(it.output, attention(q, k, v, causal=True), atol=1e-14)
    jac = it.d_out_d_scores()
    assert jac.shape == (2, 5, 5, 4)
    ds = it.score_grad(dout)
    np.testing.assert_allclose(ds, np.einsum("bijd,bid->bij", jac, dout), atol=1e-13)
    eps = 1e-6
    for b, i, j in [(0, 3, 1), (1, 4, 4), (0, 2, 0)]:
        s = it.scores.copy()
        out = []
        for sign in (1, -1):
            s2 = s.copy()
            s2[b, i, j] += sign * eps
            p = softmax(s2, mask=it.allowed)
            out.append(p[b, i] @ v[b])
        np.testing.assert_allclose((out[0] - out[1]) / (2 * eps), jac[b, i, j], atol=1e-8)


@pytest.mark.parametrize(
    "kwargs, message",
    [
        (dict(q=np.ones(3)), "shape"),
        (dict(k=np.ones((4, 5))), "d_k"),
        (dict(v=np.ones((5, 2))), "T_k"),
        (dict(q=np.ones((4, 3), dtype=np.int64)), "floating"),
        (dict(scale=float("nan")), "finite"),
        (dict(scale=float("inf")), "finite"),
        (dict(scale="0.5"), "real number"),
        (dict(doc_ids=[0, 0, 1]), "length"),
        (dict(doc_ids=[0.0, 0.0, 1.0, 1.0]), "integers"),
        (dict(mask=np.ones((4, 4))), "boolean"),
        (dict(mask=np.ones((3, 4), bool)), "broadcast"),
        (dict(method="fast"), "method"),
        (dict(causal="yes"), "bool"),
    ],
)
def test_validation_messages(kwargs, message):
    args = dict(q=np.ones((4, 3)), k=np.ones((4, 3)), v=np.ones((4, 2)))
    args.update(kwargs)
    q, k, v = args.pop("q"), args.pop("k"), args.pop("v")
    with pytest.raises(ValueError, match=message):
        attention(q, k, v, **args)


def test_backward_validates_dout():
    x = np.ones((4, 3))
    with pytest.raises(ValueError, match="dout"):
        attention_backward(x, x, x, np.ones((4, 2)))


def test_size_guard_refuses_absurd_sizes_without_allocating():
    """Run under the default limits, whatever an earlier test in the process left set: a
    CI run under load once met a 1 GiB limit here, a claim's budget that a timeout cut off
    before it was restored, and the memory guard spoke before the flops guard."""
    memory = int(0.8 * os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES"))
    before = set_size_limits(max_bytes=memory, max_flops=1e14)
    try:
        _size_guard()
    finally:
        set_size_limits(max_bytes=before.max_bytes, max_flops=before.max_flops)


def _size_guard():
    with pytest.raises(AttentionTooLarge, match="memory"):
        check_attention_size(10**9, 10**9, 64, 64)
    with pytest.raises(ValueError, match="floating-point operations"):
        check_attention_size(10**6, 10**6, 64, 64, batch=8, method="tiled")
    huge = np.broadcast_to(np.zeros((1, 1, 64), np.float32), (1, 10**9, 64))  # a view, no memory
    for method in ("auto", "dense", "tiled"):
        with pytest.raises(AttentionTooLarge, match="T_q=1000000000"):
            attention(huge, huge, huge, causal=True, method=method)
    cost = estimate_attention_cost(4096, 4096, 64, 64, batch=8, method="dense")
    assert cost.bytes > 8 * 4096 * 4096 * 4
    previous = set_size_limits(max_bytes=10**6)
    try:
        with pytest.raises(AttentionTooLarge):
            attention(np.ones((1000, 8)), np.ones((1000, 8)), np.ones((1000, 8)), method="dense")
    finally:
        set_size_limits(max_bytes=previous.max_bytes, max_flops=previous.max_flops)


@pytest.mark.parametrize("distribution", ["normal", "rademacher", "uniform"])
def test_qk_variance_is_d_k(distribution):
    est = qk_variance(64, n_samples=40_000, seed=3, distribution=distribution)
    assert est.expected == 64
    assert 0 < est.stderr < 2.0
    assert est.consistent(sigmas=4.0), (est.estimate, est.stderr)
    scaled = qk_variance(64, n_samples=40_000, seed=3, scale=1 / 8)
    assert scaled.consistent() and abs(scaled.estimate - 1.0) < 0.05


def test_qk_variance_stderr_matches_theory():
    est = qk_variance(16, n_samples=50_000, seed=1)
    # Gaussian coordinates: Var(z^2) = 2 d^2 + 6 d, so SE ~ sqrt((2 d^2 + 6 d) / n).
    assert est.stderr == pytest.approx(math.sqrt((2 * 16**2 + 6 * 16) / 50_000), rel=0.1)
    with pytest.raises(ValueError):
        qk_variance(0)
