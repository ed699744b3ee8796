"""Hypothesis properties of the tiled engine against the dense float64 reference.

Random shapes (T from 1 to 300), random document boundaries (with padding), causal on/off,
tile sizes that do and do not divide T, and score magnitudes on both sides of the certified
fixed-reference bound, so both the fast and the online-softmax rows are exercised.
"""

from __future__ import annotations

import numpy as np
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from atlas_build.engine import allowed_keys, attention, dense_attention, tiled_attention

SETTINGS = settings(
    max_examples=150,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)

BIG = dict(t=300, heads=2, d=16, seed=7, causal=True, magnitude=1.0, block_q=7, block_k=100,
           doc=np.repeat(np.arange(6), 50))  # fmt: skip
ONE = dict(t=1, heads=1, d=1, seed=1, causal=False, magnitude=1.0, block_q=1, block_k=4, doc=None)


@st.composite
def problems(draw, max_t=300):
    t = draw(st.integers(1, max_t))
    heads = draw(st.integers(1, 2))
    d = draw(st.integers(1, 16))
    seed = draw(st.integers(0, 2**32 - 1))
    causal = draw(st.booleans())
    magnitude = draw(st.sampled_from([0.1, 1.0, 3.0, 12.0, 40.0]))
    doc = None
    if draw(st.booleans()):
        cuts = sorted(draw(st.lists(st.integers(1, max(1, t - 1)), max_size=8)))
        doc = np.searchsorted(np.array(cuts), np.arange(t), side="right")
        pad = draw(st.integers(0, min(5, t)))
        if pad:
            doc[t - pad :] = -1
    divisors = [b for b in range(max(1, t // 12), t + 1) if t % b == 0]
    lo = max(1, -(-t // 16))

    def block():
        if draw(st.booleans()) and divisors:
            return draw(st.sampled_from(divisors))
        return draw(st.integers(lo, t + 3))

    return dict(t=t, heads=heads, d=d, seed=seed, causal=causal, doc=doc, magnitude=magnitude,
                block_q=block(), block_k=block())  # fmt: skip


def arrays(p, dv=None, dtype=np.float64):
    rng = np.random.default_rng(p["seed"])
    shape = (p["heads"], p["t"])
    q = rng.standard_normal((*shape, p["d"])) * p["magnitude"]
    k = rng.standard_normal((*shape, p["d"]))
    v = rng.standard_normal((*shape, p["d"] if dv is None else dv))
    return tuple(x.astype(dtype) for x in (q, k, v))


def kwargs(p):
    return dict(causal=p["causal"], doc_ids=p["doc"])


def tiles(p):
    return dict(block_q=p["block_q"], block_k=p["block_k"])


def rel_err(got, ref):
    return float(np.abs(got - ref).max() / max(float(np.abs(ref).max()), 1e-300))


@SETTINGS
@given(problems())
@example(BIG)
@example(ONE)
def test_probabilities_sum_to_one_and_masked_keys_get_exactly_zero(p):
    q, k, _ = arrays(p)
    eye = np.broadcast_to(np.eye(p["t"]), (p["heads"], p["t"], p["t"]))
    probs = tiled_attention(q, k, eye, **kwargs(p), **tiles(p))  # v = I, so out = P
    doc = np.zeros(p["t"], dtype=int) if p["doc"] is None else p["doc"]
    allowed = allowed_keys(doc, causal=p["causal"])
    assert np.all(probs[:, ~allowed] == 0.0)
    rows = allowed.any(axis=1)
    np.testing.assert_allclose(probs[:, rows].sum(axis=-1), 1.0, rtol=1e-12)
    assert np.all(probs[:, ~rows] == 0.0)
    assert np.all(probs >= 0)


@SETTINGS
@given(problems())
@example(BIG)
@example(ONE)
def test_tiled_float64_matches_dense_reference(p):
    q, k, v = arrays(p)
    ref = dense_attention(q, k, v, **kwargs(p))
    got = tiled_attention(q, k, v, **kwargs(p), **tiles(p))
    assert rel_err(got, ref) <= 1e-10


@SETTINGS
@given(problems())
@example(BIG)
@example(ONE)
def test_float32_matches_float64_reference(p):
    q, k, v = arrays(p)
    ref = dense_attention(q, k, v, **kwargs(p))
    f32 = [x.astype(np.float32) for x in (q, k, v)]
    ref32 = dense_attention(*[x.astype(np.float64) for x in f32], **kwargs(p))
    got = tiled_attention(*f32, **kwargs(p), **tiles(p))
    assert got.dtype == np.float32
    assert rel_err(got, ref32) <= 2e-5
    assert rel_err(attention(*f32, **kwargs(p), method="dense"), ref32) <= 2e-5
    assert np.isfinite(ref).all()


@SETTINGS
@given(problems(), st.data())
def test_causal_prefix_invariance_is_bitwise(p, data):
    p = dict(p, causal=True)
    q, k, v = arrays(p)
    cut = data.draw(st.integers(0, p["t"] - 1))
    rng = np.random.default_rng(p["seed"] + 1)
    q2, k2, v2 = (x.copy() for x in (q, k, v))
    for x in (q2, k2, v2):
        x[:, cut + 1 :] = rng.standard_normal(x[:, cut + 1 :].shape) * 5
    for method in ("tiled", "dense"):
        a = attention(q, k, v, **kwargs(p), method=method)
        b = attention(q2, k2, v2, **kwargs(p), method=method)
        np.testing.assert_array_equal(a[:, : cut + 1], b[:, : cut + 1])
    a = tiled_attention(q, k, v, **kwargs(p), **tiles(p))
    b = tiled_attention(q2, k2, v2, **kwargs(p), **tiles(p))
    np.testing.assert_array_equal(a[:, : cut + 1], b[:, : cut + 1])
