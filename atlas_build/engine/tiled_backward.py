"""FlashAttention-2-style backward: recompute each tile's probabilities from the saved
row log-sum-exp instead of storing ``P``.

Per key tile ``j`` (one task, for a group of heads), for every query tile ``i`` the schedule
keeps::

    P   = exp(q_i k_j^T * scale - lse_i)        # one GEMM: [q*scale, -lse] @ [k, 1]^T
    dV_j += P^T dO_i
    dS  = P * (dO_i V_j^T - D_i)                # one GEMM: [dO, -D] @ [V, 1]^T, D = rowsum(dO*O)
    dQ_i += dS k_j          (scale applied once at the end)
    dK_j += dS^T (q_i * scale)

Folding ``-lse`` and ``-D`` into an extra GEMM column removes two passes over every tile; the
elementwise work left is one ``exp`` and one multiply. The augmented operands are staged per
task in reused buffers (``_Scratch``): the key tile as contiguous ``[k, 1]^T`` and
``[v, 1]^T`` (thin row blocks multiply faster against a contiguous right operand), the query
tile as ``[q*scale, -lse]`` and ``[dO, -D]``; nothing of full size is built before the pool
starts. ``dK_j``/``dV_j`` belong to the task and are accumulated in place; ``dQ`` is
accumulated in one buffer per task group (a fixed set of tasks run by one worker) and the
buffers are summed in group order, so the result does not depend on timing.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from typing import Any

from array_api_compat import is_numpy_namespace

from ._xp import Array, Namespace, buffer_view, exp_inplace, has_out, matmul_into, neg_inf_where
from .masks import tile_blocked
from .schedule import TileSchedule, causal_pieces, row_pieces

__all__ = ["BackwardPlan", "backward_cost", "backward_tile", "workspace"]

# Per-thread scratch kept between calls (NumPy only), at most this many bytes per thread, and
# spare dQ accumulators (each owned by one call at a time), at most SPARE_BYTES in all.
WORKSPACE_BYTES = 16 * 2**20
SPARE_BYTES = 64 * 2**20
_local = threading.local()
_spares: list[Array] = []
_spare_lock = threading.Lock()


def _take_spare(xp: Namespace, shape: tuple[int, ...], dtype: Any) -> Array | None:
    """A recycled ``shape`` buffer whose pages are already mapped (NumPy), or None."""
    if not is_numpy_namespace(xp):
        return None
    with _spare_lock:
        for idx, buf in enumerate(_spares):
            if buf.shape == shape and buf.dtype == dtype:
                return _spares.pop(idx)
    return None


def workspace(xp: Namespace, name: str, shape: tuple[int, ...], dtype: Any, dev: Any) -> Array:
    """An uninitialised ``shape`` buffer that this thread reuses for ``name`` across tasks and
    calls (NumPy). Fresh large arrays cost page faults (the kernel zeroes every page, and two
    workers contend for the process's memory map): at ``T = 1024`` those took about a quarter
    of the backward's CPU time. Other namespaces allocate (CuPy has its own pool)."""
    size = 1
    for n in shape:
        size *= n
    if not is_numpy_namespace(xp):
        return xp.empty(shape, dtype=dtype, device=dev)
    bufs: dict[tuple[str, Any], Array] | None = getattr(_local, "bufs", None)
    if bufs is None:
        bufs = _local.bufs = {}
    key = (name, xp.dtype(dtype))
    flat = bufs.get(key)
    if flat is None or flat.size < size:
        flat = xp.empty((max(size, 1),), dtype=dtype)
        kept = sum(b.nbytes for k, b in bufs.items() if k != key)
        if kept + flat.nbytes <= WORKSPACE_BYTES:
            bufs[key] = flat
        else:
            bufs.pop(key, None)
    return flat[:size].reshape(shape)


@dataclass
class BackwardPlan:
    """Inputs shared by the key-tile tasks and the arrays they write.

    ``piece_rows`` (NumPy): ``(h_diag, h_full)`` row-block heights (see ``row_pieces``); None
    keeps ``causal_pieces``.
    """

    xp: Namespace
    q: Array
    k: Array
    v: Array
    dout: Array
    out: Array
    lse: Array
    scale: float
    schedule: TileSchedule
    causal: bool
    doc: Array | None
    mask: Array | None
    dq: Array
    dk: Array
    dv: Array
    piece_rows: tuple[int, int | None] | None = None
    dq_parts: dict[int, Array] = field(default_factory=dict)
    triangles: dict[tuple[int, int, int], Array] = field(default_factory=dict)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def dq_buffer(self, group: int, dev: Any) -> Array:
        """The dQ accumulator of task group ``group``: ``dq`` itself for group 0; the others
        (zeroed on first use, summed into ``dq`` in group order) come from the workspace."""
        if group == 0:
            return self.dq
        with self.lock:
            buf = self.dq_parts.get(group)
            if buf is None:
                buf = _take_spare(self.xp, tuple(self.q.shape), self.q.dtype)
                if buf is None:
                    buf = self.xp.zeros(self.q.shape, dtype=self.q.dtype, device=dev)
                else:
                    buf[...] = 0
                self.dq_parts[group] = buf
        return buf

    def release(self) -> None:
        """Hand the summed dQ buffers of groups >= 1 to the next call (NumPy)."""
        with self.lock:
            parts, self.dq_parts = list(self.dq_parts.values()), {}
        if is_numpy_namespace(self.xp):
            with _spare_lock:
                for buf in parts:
                    if sum(b.nbytes for b in _spares) + buf.nbytes <= SPARE_BYTES:
                        _spares.append(buf)

    def work(self, j: int) -> list[tuple[tuple[int, int], list[tuple[int, int, int, int]]]]:
        """Query tiles of key tile ``j``, each with its row blocks ``(r0, r1, j_end, need)``."""
        cols = self.schedule.cols[j]
        out = []
        for i, need in self.schedule.queries_of(j):
            rows = self.schedule.rows[i]
            if self.piece_rows:
                out.append((rows, row_pieces(rows, cols, need, self.causal, *self.piece_rows)))
            else:
                out.append((rows, causal_pieces(rows, cols, need, self.causal)))
        return out


def backward_cost(plan: BackwardPlan, j: int) -> int:
    """Score entries key tile ``j`` computes per head (the task's share of the GEMM work)."""
    j0 = plan.schedule.cols[j][0]
    return sum((r1 - r0) * (e - j0) for _, ps in plan.work(j) for r0, r1, e, _ in ps)


class _Scratch:
    """One task's operands and buffers, reused by all its query tiles and row blocks."""

    def __init__(
        self, plan: BackwardPlan, batch: slice, nb: int, j: int, work: list[Any], dev: Any
    ) -> None:
        xp = self.xp = plan.xp
        self.plan, self.batch, self.inplace = plan, batch, has_out(xp)
        j0, j1 = plan.schedule.cols[j]
        w = j1 - j0
        d, dv, dtype = int(plan.q.shape[-1]), int(plan.v.shape[-1]), plan.q.dtype
        self.d, self.dv = d, dv
        n = max((i1 - i0 for (i0, i1), _ in work), default=0)
        rows = max((r1 - r0 for _, ps in work for r0, r1, _, _ in ps), default=0)
        area = max(((r1 - r0) * (e - j0) for _, ps in work for r0, r1, e, _ in ps), default=0)
        k, v = plan.k[batch, j0:j1, :], plan.v[batch, j0:j1, :]
        if not self.inplace:
            ones = xp.ones((nb, w, 1), dtype=dtype, device=dev)
            self.kat, self.vat = xp.concat([k, ones], axis=-1).mT, xp.concat([v, ones], axis=-1).mT
            self.s = self.ds = self.tq = self.tk = self.tv = self.qa = self.doa = None
            return

        def buf(name: str, shape: tuple[int, ...]) -> Array:
            return workspace(xp, name, shape, dtype, dev)

        self.kat = buf("kat", (nb, d + 1, w))
        xp.copyto(self.kat[:, :d, :], k.mT)
        self.kat[:, d, :] = 1
        self.vat = buf("vat", (nb, dv + 1, w))
        xp.copyto(self.vat[:, :dv, :], v.mT)
        self.vat[:, dv, :] = 1
        self.qa = buf("qa", (nb, n, d + 1))
        self.doa = buf("doa", (nb, n, dv + 1))
        self.s = buf("s", (nb * area,))
        self.ds = buf("ds", (nb * area,))
        self.tq = buf("tq", (nb * rows * d,))
        self.tk = buf("tk", (nb * w * d,))
        self.tv = buf("tv", (nb * w * dv,))

    def queries(self, rows: tuple[int, int]) -> tuple[Array, Array]:
        """``([q*scale, -lse], [dO, -D])`` of query tile ``rows``."""
        xp, plan, b, (i0, i1) = self.xp, self.plan, self.batch, rows
        q, lse = plan.q[b, i0:i1, :], plan.lse[b, i0:i1, :]
        do, o = plan.dout[b, i0:i1, :], plan.out[b, i0:i1, :]
        if self.qa is None or self.doa is None:
            delta = xp.sum(do * o, axis=-1, keepdims=True)
            return xp.concat([q * plan.scale, -lse], axis=-1), xp.concat([do, -delta], axis=-1)
        n = i1 - i0
        qa, doa = self.qa[:, :n, :], self.doa[:, :n, :]
        xp.multiply(q, plan.scale, out=qa[:, :, : self.d])
        xp.negative(lse, out=qa[:, :, self.d :])
        doa[:, :, : self.dv] = do
        xp.negative(xp.vecdot(do, o, axis=-1)[:, :, None], out=doa[:, :, self.dv :])
        return qa, doa


def backward_tile(plan: BackwardPlan, group: int, batch: slice, j: int, dev: Any) -> None:
    """Accumulate the gradient contributions of key tile ``j`` for heads ``batch``."""
    xp = plan.xp
    j0, j1 = plan.schedule.cols[j]
    work = plan.work(j)
    nb = int(plan.k[batch, j0:j1, :].shape[0])
    st = _Scratch(plan, batch, nb, j, work, dev)
    d, dv = st.d, st.dv
    dk_acc, dv_acc = plan.dk[batch, j0:j1, :], plan.dv[batch, j0:j1, :]
    if not st.inplace:
        dk_acc = xp.zeros((nb, j1 - j0, d), dtype=plan.q.dtype, device=dev)
        dv_acc = xp.zeros((nb, j1 - j0, dv), dtype=plan.q.dtype, device=dev)
    k = plan.k[batch, j0:j1, :]
    dq = plan.dq_buffer(group, dev)
    for (i0, i1), pieces in work:
        qa, doa = st.queries((i0, i1))
        for r0, r1, end, piece_need in pieces:
            a, b, n, e = r0 - i0, r1 - i0, r1 - r0, end - j0
            p = matmul_into(xp, qa[:, a:b, :], st.kat[:, :, :e], buffer_view(xp, st.s, (nb, n, e)))
            if piece_need:
                blocked, c0 = tile_blocked(
                    xp, (r0, r1), (j0, end), causal=plan.causal, doc=plan.doc, mask=plan.mask,
                    batch=batch, dev=dev, need=piece_need, cache=plan.triangles,
                )  # fmt: skip
                p = neg_inf_where(xp, p, blocked, c0)
            p = exp_inplace(xp, p)
            dv_acc[:, :e, :] += matmul_into(
                xp, p.mT, plan.dout[batch, r0:r1, :], buffer_view(xp, st.tv, (nb, e, dv))
            )
            ds = matmul_into(
                xp, doa[:, a:b, :], st.vat[:, :, :e], buffer_view(xp, st.ds, (nb, n, e))
            )
            ds *= p
            dq[batch, r0:r1, :] += matmul_into(
                xp, ds, k[:, :e, :], buffer_view(xp, st.tq, (nb, n, d))
            )
            dk_acc[:, :e, :] += matmul_into(
                xp, ds.mT, qa[:, a:b, :d], buffer_view(xp, st.tk, (nb, e, d))
            )
    if not st.inplace:
        plan.dk[batch, j0:j1, :] = dk_acc
        plan.dv[batch, j0:j1, :] = dv_acc
