"""FlashAttention-2-style backward: recompute each tile's probabilities from the saved
row log-sum-exp instead of storing ``P``.

Per key tile ``j`` (one task), for every query tile ``i`` the schedule keeps::

    P   = exp(q_i k_j^T * scale - lse_i)        # one GEMM: [q*scale, -lse] @ [k, 1]^T
    dV_j += P^T dO_i
    dS  = P * (dO_i V_j^T - D_i)                # one GEMM: [dO, -D] @ [V, 1]^T, D = rowsum(dO*O)
    dQ_i += dS k_j          (scale applied once at the end)
    dK_j += dS^T (q_i * scale)

Folding ``-lse`` and ``-D`` into an extra GEMM column removes two passes over every tile; the
elementwise work left is one ``exp`` and one multiply. ``dK_j``/``dV_j`` belong to the task;
``dQ`` is accumulated in one buffer per task group (a fixed set of key tiles run by one
worker) and the buffers are summed in group order, so the result does not depend on timing.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from typing import Any

from ._xp import (
    Array,
    Namespace,
    buffer_view,
    exp_inplace,
    has_out,
    matmul_into,
    neg_inf_where,
)
from .masks import tile_blocked
from .schedule import TileSchedule, causal_pieces

__all__ = ["BackwardPlan", "backward_tile"]


@dataclass
class BackwardPlan:
    """Inputs shared by the key-tile tasks and the arrays they write."""

    xp: Namespace
    qa: Array
    qs: Array
    ka: Array
    k: Array
    dout: Array
    doa: Array
    va: Array
    schedule: TileSchedule
    causal: bool
    doc: Array | None
    mask: Array | None
    dk: Array
    dv: Array
    dq_parts: dict[int, Array] = field(default_factory=dict)
    triangles: dict[tuple[int, int, int], Array] = field(default_factory=dict)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def dq_buffer(self, group: int, dev: Any) -> Array:
        """The dQ accumulator of task group ``group`` (created zeroed on first use)."""
        with self.lock:
            buf = self.dq_parts.get(group)
            if buf is None:
                buf = self.xp.zeros(self.qs.shape, dtype=self.qs.dtype, device=dev)
                self.dq_parts[group] = buf
        return buf


def backward_tile(plan: BackwardPlan, group: int, batch: slice, j: int, dev: Any) -> None:
    """Accumulate the gradient contributions of key tile ``j`` for heads ``batch``."""
    xp = plan.xp
    sched = plan.schedule
    j0, j1 = sched.cols[j]
    nb, w = int(plan.ka[batch, j0:j1, :].shape[0]), j1 - j0
    dtype = plan.ka.dtype
    d, dv = int(plan.k.shape[-1]), int(plan.dv.shape[-1])
    dk_acc = xp.zeros((nb, w, d), dtype=dtype, device=dev)
    dv_acc = xp.zeros((nb, w, dv), dtype=dtype, device=dev)
    dq = plan.dq_buffer(group, dev)
    inplace = has_out(xp)
    height = max((b - a for a, b in sched.rows), default=0)
    flats = [
        xp.empty((nb * height * w,), dtype=dtype, device=dev) if inplace else None for _ in "ps"
    ]
    tmp_k = xp.empty((nb * w * d,), dtype=dtype, device=dev) if inplace else None
    tmp_v = xp.empty((nb * w * dv,), dtype=dtype, device=dev) if inplace else None
    for i, need in sched.queries_of(j):
        for r0, r1, end, piece_need in causal_pieces(sched.rows[i], (j0, j1), need, plan.causal):
            n, e = r1 - r0, end - j0
            p = matmul_into(
                xp, plan.qa[batch, r0:r1, :], plan.ka[batch, j0:end, :].mT,
                buffer_view(xp, flats[0], (nb, n, e)),
            )  # fmt: skip
            if piece_need:
                blocked, c0 = tile_blocked(
                    xp, (r0, r1), (j0, end), causal=plan.causal, doc=plan.doc, mask=plan.mask,
                    batch=batch, dev=dev, need=piece_need, cache=plan.triangles,
                )  # fmt: skip
                p = neg_inf_where(xp, p, blocked, c0)
            p = exp_inplace(xp, p)
            dv_acc[:, :e, :] += matmul_into(
                xp, p.mT, plan.dout[batch, r0:r1, :], buffer_view(xp, tmp_v, (nb, e, dv))
            )
            ds = matmul_into(
                xp, plan.doa[batch, r0:r1, :], plan.va[batch, j0:end, :].mT,
                buffer_view(xp, flats[1], (nb, n, e)),
            )  # fmt: skip
            ds *= p
            dq[batch, r0:r1, :] += xp.matmul(ds, plan.k[batch, j0:end, :])
            dk_acc[:, :e, :] += matmul_into(
                xp, ds.mT, plan.qs[batch, r0:r1, :], buffer_view(xp, tmp_k, (nb, e, d))
            )
    plan.dk[batch, j0:j1, :] = dk_acc
    plan.dv[batch, j0:j1, :] = dv_acc
