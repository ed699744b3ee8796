"""FlashAttention-style forward: online softmax over key tiles, never the ``T x T`` matrix.

For one query tile the kernel streams the key tiles the schedule keeps, holding only a
``(n, d_v + 1)`` accumulator whose last column is the softmax denominator (the value matrix
carries a column of ones, so BLAS computes ``sum_j p_ij`` with ``P V`` instead of a separate
pass over the tile). Memory per head is O(T d) plus one tile.

Each row subtracts a *reference* before ``exp``:

* rows whose scores are certified bounded (``|s_ij| <= scale * |q_i| * max_j |k_j| <= tau``,
  Cauchy-Schwarz, with the key maximum over the keys the row can see) use the fixed reference
  0: ``exp`` cannot overflow or underflow to 0 there, so the tile needs no max pass, no
  subtraction and no rescaling, only ``exp`` (the elementwise work is what costs on a CPU);
* other rows use the classic online softmax: running maximum ``m``, rescale by
  ``exp(m_old - m_new)``.

Both forms give identical bits for a certified row, so which form a tile takes (it depends on
the other rows in the tile) never changes a row's result. The certificate uses prefix maxima
under ``causal``, so later tokens cannot change an earlier row's bits either.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

from ._xp import (
    Array,
    Namespace,
    buffer_view,
    cummax,
    device,
    exp_inplace,
    has_out,
    matmul_into,
    neg_inf_where,
)
from .masks import tile_blocked
from .schedule import TileSchedule, causal_pieces

__all__ = ["ForwardPlan", "certified_rows", "forward_tile"]

TAU = {4: 20.0, 8: 100.0}


@dataclass
class ForwardPlan:
    """Read-only inputs shared by the tile tasks, and the arrays they write."""

    xp: Namespace
    qs: Array
    k: Array
    va: Array
    certified: Array
    schedule: TileSchedule
    causal: bool
    doc: Array | None
    mask: Array | None
    out: Array
    lse: Array
    triangles: dict[tuple[int, int, int], Array] = field(default_factory=dict)


def certified_rows(
    xp: Namespace, q: Array, k: Array, v: Array, scale: float, causal: bool
) -> Array:
    """Rows ``(B, T_q, 1)`` for which the fixed reference 0 is safe (see module docstring)."""
    t_q, t_k = int(q.shape[1]), int(k.shape[1])
    dtype = q.dtype
    itemsize = 8 if dtype == xp.float64 else 4
    qn = xp.sqrt(xp.vecdot(q, q, axis=-1))
    kn = xp.sqrt(xp.vecdot(k, k, axis=-1))
    if int(v.shape[-1]):
        vm = xp.maximum(xp.max(v, axis=-1), -xp.min(v, axis=-1))
    else:
        vm = xp.zeros_like(kn)
    if causal:
        kn, vm = cummax(xp, kn), cummax(xp, vm)
        idx = xp.clip(xp.arange(t_q, device=device(q)), max=t_k - 1)
        kmax, vmax = xp.take(kn, idx, axis=1), xp.take(vm, idx, axis=1)
    else:
        kmax = xp.max(kn, axis=1, keepdims=True)
        vmax = xp.max(vm, axis=1, keepdims=True)
    bound = abs(scale) * qn * kmax
    big = math.log(xp.finfo(dtype).max) - 8.0 - math.log(t_k)
    tiny = xp.finfo(dtype).smallest_normal
    ok = (bound <= TAU[itemsize]) & (bound + xp.log(vmax + tiny) <= big)
    return ok[:, :, None]


def forward_tile(plan: ForwardPlan, batch: slice, i: int, fast: bool, dev: Any) -> None:
    """Compute output rows of query tile ``i`` for heads ``batch``; ``fast``: all certified."""
    xp = plan.xp
    sched = plan.schedule
    i0, i1 = sched.rows[i]
    q = plan.qs[batch, i0:i1, :]
    nb, n = int(q.shape[0]), i1 - i0
    dva = int(plan.va.shape[-1])
    dtype = q.dtype
    acc = xp.zeros((nb, n, dva), dtype=dtype, device=dev)
    width = max((b - a for a, b in sched.cols), default=0)
    inplace = has_out(xp)
    flat = xp.empty((nb * n * width,), dtype=dtype, device=dev) if inplace else None
    flat_pv = xp.empty((nb * n * dva,), dtype=dtype, device=dev) if inplace else None
    zero = xp.zeros((), dtype=dtype, device=dev)
    m = xp.full((nb, n, 1), -xp.inf, dtype=dtype, device=dev)
    certified = plan.certified[batch, i0:i1, :]
    for j, need in sched.keys_of(i):
        j0, j1 = sched.cols[j]
        for r0, r1, end, piece_need in causal_pieces((i0, i1), (j0, j1), need, plan.causal):
            a, b = r0 - i0, r1 - i0
            s = matmul_into(
                xp,
                q[:, a:b, :],
                plan.k[batch, j0:end, :].mT,
                buffer_view(xp, flat, (nb, b - a, end - j0)),
            )
            if piece_need:
                blocked, c0 = tile_blocked(
                    xp, (r0, r1), (j0, end), causal=plan.causal, doc=plan.doc, mask=plan.mask,
                    batch=batch, dev=dev, need=piece_need, cache=plan.triangles,
                )  # fmt: skip
                s = neg_inf_where(xp, s, blocked, c0)
            if not fast:
                m_old = m[:, a:b, :]
                m_new = xp.maximum(m_old, xp.max(s, axis=-1, keepdims=True))
                m_new = xp.where(certified[:, a:b, :], zero, m_new)
                m_use = xp.where(m_new == -xp.inf, zero, m_new)
                s -= m_use
                acc[:, a:b, :] *= xp.exp(m_old - m_use)
                m[:, a:b, :] = m_new
            s = exp_inplace(xp, s)
            acc[:, a:b, :] += matmul_into(
                xp, s, plan.va[batch, j0:end, :], buffer_view(xp, flat_pv, (nb, b - a, dva))
            )
    _finish(plan, batch, (i0, i1), acc, zero if fast else xp.where(m == -xp.inf, zero, m))


def _finish(plan: ForwardPlan, batch: slice, rows: tuple[int, int], acc: Array, m: Array) -> None:
    """Normalise. A row with no allowed key has ``acc == 0`` and ``m == 0``, so dividing by a
    denominator replaced by 1 already gives the documented zeros (and ``lse == 0``)."""
    xp = plan.xp
    i0, i1 = rows
    dv = int(plan.va.shape[-1]) - 1
    total = acc[:, :, dv:]
    safe = xp.where(total > 0, total, xp.ones_like(total))
    if has_out(xp):
        xp.divide(acc[:, :, :dv], safe, out=plan.out[batch, i0:i1, :])
    else:
        plan.out[batch, i0:i1, :] = acc[:, :, :dv] / safe
    plan.lse[batch, i0:i1, :] = m + xp.log(safe)
