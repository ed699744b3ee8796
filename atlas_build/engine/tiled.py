"""FlashAttention-style forward: online softmax over key tiles, never the ``T x T`` matrix.

For one query tile the kernel streams the key tiles the schedule keeps, holding only a
``(n, d_v + 1)`` accumulator whose last column is the softmax denominator (the value matrix
carries a column of ones, so BLAS computes ``sum_j p_ij`` with ``P V`` instead of a separate
pass over the tile). Memory per head is O(T d) plus a few tile-sized buffers per task.

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
    transposed,
)
from .masks import tile_blocked
from .schedule import TileSchedule, causal_pieces, row_pieces

__all__ = ["ForwardPlan", "certified_rows", "forward_tile"]

TAU = {4: 20.0, 8: 100.0}


@dataclass
class ForwardPlan:
    """Read-only inputs shared by the tile tasks, and the arrays they write.

    ``piece_rows`` (NumPy): ``(h_diag, h_full)`` row-block heights (see ``row_pieces``); thin
    blocks make the diagonal cheap and keep the scores of many heads in cache. None keeps
    ``causal_pieces``, which suits devices that prefer few large GEMMs.
    """

    xp: Namespace
    q: Array
    k: Array
    v: Array
    scale: float
    certified: Array
    schedule: TileSchedule
    causal: bool
    doc: Array | None
    mask: Array | None
    out: Array
    lse: Array
    piece_rows: tuple[int, int | None] | None = None
    triangles: dict[tuple[int, int, int], Array] = field(default_factory=dict)

    def work(self, i: int) -> list[tuple[tuple[int, int], list[tuple[int, int, int, int]]]]:
        """Key tiles of query tile ``i``, each with its row blocks ``(r0, r1, j_end, need)``."""
        rows = self.schedule.rows[i]
        out = []
        for j, need in self.schedule.keys_of(i):
            cols = self.schedule.cols[j]
            if self.piece_rows:
                out.append((cols, row_pieces(rows, cols, need, self.causal, *self.piece_rows)))
            else:
                out.append((cols, causal_pieces(rows, cols, need, self.causal)))
        return out


class _Scratch:
    """One task's buffers, reused by all its key tiles and row blocks (NumPy, CuPy).

    A key tile is staged as ``[v, 1]``, whose ones column makes the ``P V`` GEMM also sum each
    row's weights, and with ``piece_rows`` as a contiguous ``k^T`` (see ``transposed``).
    Namespaces without ``out=`` allocate these operands instead.
    """

    def __init__(self, plan: ForwardPlan, batch: slice, nb: int, work: list[Any], dev: Any):
        xp = self.xp = plan.xp
        self.plan, self.batch, self.inplace = plan, batch, has_out(xp)
        d, dv, dtype = int(plan.k.shape[-1]), int(plan.v.shape[-1]), plan.q.dtype
        width = max((j1 - j0 for (j0, j1), _ in work), default=0)
        rows = max((r1 - r0 for _, ps in work for r0, r1, _, _ in ps), default=0)
        area = max(((r1 - r0) * (e - c[0]) for c, ps in work for r0, r1, e, _ in ps), default=0)
        self.ones = xp.ones((nb, width, 1), dtype=dtype, device=dev)
        self.kt = self.va = self.s = self.pv = None
        if self.inplace:
            if plan.piece_rows:
                self.kt = xp.empty((nb * d * width,), dtype=dtype, device=dev)
            self.va = xp.empty((nb, width, dv + 1), dtype=dtype, device=dev)
            self.va[:, :, dv:] = self.ones
            self.s = xp.empty((nb * area,), dtype=dtype, device=dev)
            self.pv = xp.empty((nb * rows * (dv + 1),), dtype=dtype, device=dev)

    def keys(self, cols: tuple[int, int]) -> tuple[Array, Array]:
        """``(k^T, [v, 1])`` of key tile ``cols``."""
        xp, (j0, j1) = self.xp, cols
        k = self.plan.k[self.batch, j0:j1, :]
        v = self.plan.v[self.batch, j0:j1, :]
        ones = self.ones[:, : j1 - j0, :]
        if self.va is None:
            return k.mT, xp.concat([v, ones], axis=-1)
        kt = k.mT
        if self.kt is not None:
            kt = transposed(xp, k, buffer_view(xp, self.kt, tuple(kt.shape)))
        va = self.va[:, : j1 - j0, :]
        va[:, :, :-1] = v
        return kt, va

    def scores(self, shape: tuple[int, int, int]) -> Array | None:
        return buffer_view(self.xp, self.s, shape)

    def products(self, shape: tuple[int, int, int]) -> Array | None:
        return buffer_view(self.xp, self.pv, shape)


def certified_rows(
    xp: Namespace, q: Array, k: Array, v: Array, scale: float, causal: bool
) -> Array:
    """Rows ``(B, T_q, 1)`` for which the fixed reference 0 is safe (see module docstring)."""
    t_q, t_k = int(q.shape[1]), int(k.shape[1])
    dtype = q.dtype
    itemsize = 8 if dtype == xp.float64 else 4
    qn = xp.sqrt(xp.vecdot(q, q, axis=-1))
    kn = xp.sqrt(xp.vecdot(k, k, axis=-1))
    vm = xp.sqrt(xp.vecdot(v, v, axis=-1))
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
    """Compute output rows of query tile ``i`` for heads ``batch``; ``fast``: all certified.

    The first key tile writes its ``P V`` straight into the zeroed accumulator: its rows have
    nothing to rescale or add to yet.
    """
    xp = plan.xp
    sched = plan.schedule
    i0, i1 = sched.rows[i]
    work = plan.work(i)
    q = plan.q[batch, i0:i1, :] * plan.scale
    nb, n, dva = int(q.shape[0]), i1 - i0, int(plan.v.shape[-1]) + 1
    dtype = q.dtype
    acc = xp.zeros((nb, n, dva), dtype=dtype, device=dev)
    zero = xp.zeros((), dtype=dtype, device=dev)
    m = xp.full((nb, n, 1), -xp.inf, dtype=dtype, device=dev)
    certified = plan.certified[batch, i0:i1, :]
    scratch = _Scratch(plan, batch, nb, work, dev)
    for step, ((j0, j1), pieces) in enumerate(work):
        kt, va = scratch.keys((j0, j1))
        for r0, r1, end, piece_need in pieces:
            a, b, e = r0 - i0, r1 - i0, end - j0
            s = matmul_into(xp, q[:, a:b, :], kt[:, :, :e], scratch.scores((nb, b - a, e)))
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
                if step:
                    acc[:, a:b, :] *= xp.exp(m_old - m_use)
                m[:, a:b, :] = m_new
            s = exp_inplace(xp, s)
            if step:
                pv = matmul_into(xp, s, va[:, :e, :], scratch.products((nb, b - a, dva)))
                acc[:, a:b, :] += pv
            elif scratch.inplace:
                matmul_into(xp, s, va[:, :e, :], acc[:, a:b, :])
            else:
                acc[:, a:b, :] = xp.matmul(s, va[:, :e, :])
    _finish(plan, batch, (i0, i1), acc, zero if fast else xp.where(m == -xp.inf, zero, m))


def _finish(plan: ForwardPlan, batch: slice, rows: tuple[int, int], acc: Array, m: Array) -> None:
    """Normalise. A row with no allowed key has ``acc == 0`` and ``m == 0``, so dividing by a
    denominator replaced by 1 already gives the documented zeros (and ``lse == 0``)."""
    xp = plan.xp
    i0, i1 = rows
    dv = int(plan.v.shape[-1])
    total = acc[:, :, dv:]
    safe = xp.where(total > 0, total, xp.ones_like(total))
    if has_out(xp):
        xp.divide(acc[:, :, :dv], safe, out=plan.out[batch, i0:i1, :])
    else:
        plan.out[batch, i0:i1, :] = acc[:, :, :dv] / safe
    plan.lse[batch, i0:i1, :] = m + xp.log(safe)
