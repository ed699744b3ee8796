"""The textbook method: materialise the ``T_q x T_k`` scores. The reference for everything else.

Works in the compute dtype of its inputs; pass float64 arrays for a float64-accurate reference.
Fully masked rows give zero output and zero gradients (see ``masks``).
"""

from __future__ import annotations

from ._xp import Array, Namespace, device, exp_inplace, has_out, neg_inf_where

__all__ = ["dense_backward", "dense_forward", "dense_probs", "score_grad"]


def _scores(xp: Namespace, q: Array, k: Array, scale: float) -> Array:
    s = xp.matmul(q, k.mT)
    if has_out(xp):
        return xp.multiply(s, scale, out=s)
    return s * scale


def dense_probs(
    xp: Namespace, q: Array, k: Array, scale: float, allowed: Array | None
) -> tuple[Array, Array, Array]:
    """Return ``(P, lse, has_key)``: probabilities, row log-sum-exp (0 if empty), row flags."""
    s = _scores(xp, q, k, scale)
    if allowed is not None:
        s = neg_inf_where(xp, s, xp.logical_not(allowed))
    zero = xp.zeros((), dtype=s.dtype, device=device(s))
    top = xp.max(s, axis=-1, keepdims=True)
    top = xp.where(xp.isfinite(top), top, zero)
    if has_out(xp):
        s -= top
    else:
        s = s - top
    p = exp_inplace(xp, s)
    total = xp.sum(p, axis=-1, keepdims=True)
    has_key = total > 0
    safe = xp.where(has_key, total, zero + 1)
    if has_out(xp):
        p /= safe
    else:
        p = p / safe
    lse = xp.where(has_key, top + xp.log(safe), zero)
    return p, lse, has_key


def dense_forward(
    xp: Namespace, q: Array, k: Array, v: Array, scale: float, allowed: Array | None
) -> tuple[Array, Array]:
    """Return ``(out, lse)`` for ``(B, T, d)`` inputs and an allowed mask ``(1 | B, T_q, T_k)``."""
    p, lse, _ = dense_probs(xp, q, k, scale, allowed)
    return xp.matmul(p, v), lse


def dense_backward(
    xp: Namespace,
    q: Array,
    k: Array,
    v: Array,
    dout: Array,
    scale: float,
    allowed: Array | None,
) -> tuple[Array, Array, Array]:
    """Gradients ``(dq, dk, dv)`` of ``sum(out * dout)``; P is recomputed, not stored."""
    p, _, _ = dense_probs(xp, q, k, scale, allowed)
    out = xp.matmul(p, v)
    dv = xp.matmul(p.mT, dout)
    ds = score_grad(xp, p, v, out, dout)
    dq = xp.matmul(ds, k) * scale
    dk = xp.matmul(ds.mT, q) * scale
    return dq, dk, dv


def score_grad(xp: Namespace, p: Array, v: Array, out: Array, dout: Array) -> Array:
    """``dL/ds = P * (dout V^T - rowsum(dout * out))``: the softmax backward in one line."""
    dp = xp.matmul(dout, v.mT)
    delta = xp.sum(dout * out, axis=-1, keepdims=True)
    if has_out(xp):
        dp -= delta
        dp *= p
        return dp
    return p * (dp - delta)
