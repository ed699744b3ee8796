"""Scores, probabilities and score gradients of small problems, for claims that need them.

Everything is materialised (``T_q x T_k`` per head, and ``T_q x T_k x d_v`` for the Jacobian),
so the size guard applies with ``method="internals"``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ._xp import Array, Namespace, device
from .dense import dense_probs, score_grad
from .masks import dense_allowed
from .problem import prepare

__all__ = ["AttentionInternals", "attention_internals"]


@dataclass(frozen=True)
class AttentionInternals:
    """Materialised attention for inputs of shape ``(..., T, d)``.

    ``scores``: ``q k^T * scale`` (raw, also where masked); ``allowed``: boolean mask of the
    same shape; ``probs``: softmax over allowed keys (masked entries exactly 0, fully masked
    rows all 0); ``output``: ``probs @ v``.
    """

    xp: Namespace
    scores: Array
    allowed: Array
    probs: Array
    output: Array
    v: Array

    def score_grad(self, dout: Any) -> Array:
        """``dL/ds_ij`` for ``L = sum(output * dout)``; same shape as ``scores``."""
        xp = self.xp
        dout = xp.asarray(dout, dtype=self.output.dtype, device=device(self.output))
        if tuple(dout.shape) != tuple(self.output.shape):
            raise ValueError(f"dout must have shape {tuple(self.output.shape)}, got {dout.shape}")
        return score_grad(xp, self.probs, self.v, self.output, dout)

    def d_out_d_scores(self) -> Array:
        """Jacobian ``d output_i / d s_ij = p_ij (v_j - output_i)``, shape ``(..., T_q, T_k, d_v)``.

        Output row ``i`` depends only on score row ``i``, so this holds every nonzero entry.
        """
        diff = self.v[..., None, :, :] - self.output[..., :, None, :]
        return self.probs[..., :, :, None] * diff


def attention_internals(
    q: Any,
    k: Any,
    v: Any,
    *,
    causal: bool = False,
    doc_ids: Any = None,
    mask: Any = None,
    scale: float | None = None,
) -> AttentionInternals:
    """Dense attention that keeps its intermediates (same conventions as ``attention``)."""
    p = prepare(q, k, v, causal=causal, doc_ids=doc_ids, mask=mask, scale=scale, method="internals")
    xp = p.xp
    dev = device(p.q)
    allowed = dense_allowed(p)
    if allowed is None:
        allowed = xp.ones((1, p.t_q, p.t_k), dtype=xp.bool, device=dev)
    allowed = xp.broadcast_to(allowed, (p.B, p.t_q, p.t_k))
    scores = xp.matmul(p.q, p.k.mT) * p.scale
    if p.t_k and p.t_q:
        probs, _, _ = dense_probs(xp, p.q, p.k, p.scale, allowed)
    else:
        probs = xp.zeros(scores.shape, dtype=scores.dtype, device=dev)
    output = xp.matmul(probs, p.v)
    lead = p.batch_shape

    def shaped(x: Array, tail: tuple[int, ...]) -> Array:
        return xp.reshape(x, (*lead, *tail))

    return AttentionInternals(
        xp=xp,
        scores=shaped(scores, (p.t_q, p.t_k)),
        allowed=shaped(xp.asarray(allowed, copy=True), (p.t_q, p.t_k)),
        probs=shaped(probs, (p.t_q, p.t_k)),
        output=shaped(output, (p.t_q, p.d_v)),
        v=shaped(p.v, (p.t_k, p.d_v)),
    )
