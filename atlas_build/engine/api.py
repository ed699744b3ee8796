"""Public entry points: validate, pick a method, run the kernels, restore the caller's shapes."""

from __future__ import annotations

from typing import Any

from array_api_compat import is_numpy_namespace

from ._threads import run_groups, run_tasks, worker_count
from ._xp import Array, Namespace, device, has_out
from .dense import dense_backward, dense_forward
from .masks import dense_allowed
from .problem import Problem, prepare, to_host, unbroadcast
from .schedule import build_schedule
from .tiled import ForwardPlan, certified_rows, forward_tile
from .tiled_backward import BackwardPlan, backward_cost, backward_tile

__all__ = [
    "attention",
    "attention_backward",
    "dense_attention",
    "tiled_attention",
    "tiled_attention_backward",
]

METHODS = ("auto", "dense", "tiled")
DENSE_MAX_ELEMENTS = 128 * 128
# NumPy forward tuning, measured at fp32, d = 64 on the 2-core benchmark machine (docs/engine.md):
# row blocks of 32 rows on the causal diagonal (a 512-square diagonal tile computes 17/32 of its
# scores) and 128 elsewhere; up to 8 heads per task, at least 2 tasks per worker.
NUMPY_PIECE_ROWS = (32, 128)
MAX_HEADS_PER_TASK = 8
TASKS_PER_WORKER = 2
# Backward (same machine, docs/engine.md): 64-row blocks on the diagonal, 256 elsewhere, up to
# 4 heads per task (1-8 heads and 32-128-row diagonal blocks measured within noise).
NUMPY_BACKWARD_PIECE_ROWS = (64, 256)
MAX_HEADS_PER_BACKWARD_TASK = 4


def _method(method: Any, q: Any, k: Any) -> str:
    if method not in METHODS:
        raise ValueError(f"method must be one of {METHODS}, got {method!r}")
    if method != "auto":
        return str(method)
    try:
        small = int(q.shape[-2]) * int(k.shape[-2]) <= DENSE_MAX_ELEMENTS
    except (AttributeError, IndexError, TypeError):
        small = False
    return "dense" if small else "tiled"


def _blocks(xp: Namespace, block_q: int | None, block_k: int | None) -> tuple[int, int]:
    default = 512 if is_numpy_namespace(xp) else 1024
    blocks = (default if block_q is None else block_q, default if block_k is None else block_k)
    for name, b in zip(("block_q", "block_k"), blocks, strict=True):
        if isinstance(b, bool) or not isinstance(b, int) or b < 1:
            raise ValueError(f"{name} must be a positive integer, got {b!r}")
    return blocks


def _empty(p: Problem) -> bool:
    return p.B == 0 or p.t_q == 0 or p.t_k == 0


def _shape_out(p: Problem, out: Array) -> Array:
    xp = p.xp
    out = xp.reshape(out, (*p.batch_shape, p.t_q, p.d_v))
    return xp.astype(out, p.out_dtype, copy=False)


def _head_groups(p: Problem, n_tiles: int, max_heads: int = MAX_HEADS_PER_TASK) -> list[slice]:
    """Heads per task (at most ``max_heads``). On NumPy every array operation then covers
    several heads, so the interpreter and GIL hand-over between operations (which two workers
    otherwise wait on) is paid once for all of them; groups stay small enough to leave
    ``TASKS_PER_WORKER`` tasks per worker for load balance. Elsewhere all heads form one batch."""
    if not is_numpy_namespace(p.xp):
        return [slice(0, p.B)]
    tasks = TASKS_PER_WORKER * worker_count()
    size = max(1, min(max_heads, p.B * n_tiles // tasks))
    return [slice(b, min(p.B, b + size)) for b in range(0, p.B, size)]


def _tiled_forward(
    p: Problem, block_q: int | None, block_k: int | None, force_online: bool
) -> tuple[Array, Array]:
    xp = p.xp
    dev = device(p.q)
    bq, bk = _blocks(xp, block_q, block_k)
    sched = build_schedule(p.t_q, p.t_k, bq, bk, causal=p.causal, doc_host=p.doc_host, mask=p.mask)
    certified = certified_rows(xp, p.q, p.k, p.v, p.scale, p.causal)
    if force_online:
        certified = xp.zeros_like(certified)
    plan = ForwardPlan(
        xp=xp,
        q=p.q,
        k=p.k,
        v=p.v,
        scale=p.scale,
        certified=certified,
        schedule=sched,
        causal=p.causal,
        doc=p.doc,
        mask=p.mask,
        out=xp.zeros((p.B, p.t_q, p.d_v), dtype=p.q.dtype, device=dev),
        lse=xp.zeros((p.B, p.t_q, 1), dtype=p.q.dtype, device=dev),
        piece_rows=NUMPY_PIECE_ROWS if is_numpy_namespace(xp) else None,
    )
    cert_host = to_host(certified)[:, :, 0]
    costs = [(i, c) for i in range(len(sched.rows)) if (c := len(sched.keys_of(i)))]
    tasks = []
    for bs in _head_groups(p, len(costs)):
        for i, cost in costs:
            i0, i1 = sched.rows[i]
            tasks.append((cost, bs, i, bool(cert_host[bs, i0:i1].all())))
    tasks.sort(key=lambda t: -t[0])
    run_tasks(
        lambda t: forward_tile(plan, t[1], t[2], t[3], dev),
        tasks,
        parallel=is_numpy_namespace(xp),
    )
    return plan.out, plan.lse


def _tiled_backward(
    p: Problem, out: Array, lse: Array, block_q: int | None, block_k: int | None
) -> tuple[Array, Array, Array]:
    xp = p.xp
    dev = device(p.q)
    bq, bk = _blocks(xp, block_q, block_k)
    sched = build_schedule(p.t_q, p.t_k, bq, bk, causal=p.causal, doc_host=p.doc_host, mask=p.mask)
    assert p.dout is not None
    plan = BackwardPlan(
        xp=xp,
        q=p.q,
        k=p.k,
        v=p.v,
        dout=p.dout,
        out=out,
        lse=lse,
        scale=p.scale,
        schedule=sched,
        causal=p.causal,
        doc=p.doc,
        mask=p.mask,
        dq=_zeroed(xp, tuple(p.q.shape), p.q.dtype, dev),
        dk=_zeroed(xp, tuple(p.k.shape), p.q.dtype, dev),
        dv=_zeroed(xp, tuple(p.v.shape), p.q.dtype, dev),
        piece_rows=NUMPY_BACKWARD_PIECE_ROWS if is_numpy_namespace(xp) else None,
    )
    costs = [(j, c) for j in range(len(sched.cols)) if (c := backward_cost(plan, j))]
    groups = _head_groups(p, len(costs), MAX_HEADS_PER_BACKWARD_TASK)
    tasks = [(float(c * (bs.stop - bs.start)), (bs, j)) for bs in groups for j, c in costs]
    run_groups(lambda g, t: backward_tile(plan, g, t[0], t[1], dev), tasks, is_numpy_namespace(xp))
    dq = plan.dq
    for g in sorted(plan.dq_parts):
        if has_out(xp):
            xp.add(dq, plan.dq_parts[g], out=dq)
        else:
            dq = dq + plan.dq_parts[g]
    plan.release()
    if has_out(xp):
        return xp.multiply(dq, p.scale, out=dq), plan.dk, plan.dv
    return dq * p.scale, plan.dk, plan.dv


def _zeroed(xp: Namespace, shape: tuple[int, ...], dtype: Any, dev: Any) -> Array:
    """Zeros written by this thread. A fresh array's pages are mapped on first touch; two
    workers faulting in pages of the same process at once took ~10 ms more per key-tile GEMM
    sweep at T = 1024 (docs/engine.md), so the outputs are touched here, serially, once."""
    if not has_out(xp):
        return xp.zeros(shape, dtype=dtype, device=dev)
    x = xp.empty(shape, dtype=dtype, device=dev)
    x[...] = 0
    return x


def _grads(p: Problem, grads: tuple[Array, Array, Array], q: Any, k: Any, v: Any) -> Any:
    xp = p.xp
    result = []
    for g, shape, x in zip(grads, p.shapes, (q, k, v), strict=True):
        g = unbroadcast(xp, g, p.batch_shape, shape)
        dtype = getattr(x, "dtype", p.out_dtype)
        target = dtype if xp.isdtype(dtype, "real floating") else p.out_dtype
        result.append(xp.astype(g, target, copy=False))
    return tuple(result)


def _zero_grads(p: Problem) -> tuple[Array, Array, Array]:
    xp = p.xp
    return xp.zeros_like(p.q), xp.zeros_like(p.k), xp.zeros_like(p.v)


def _zeros_out(p: Problem) -> Array:
    xp = p.xp
    return xp.zeros((p.B, p.t_q, p.d_v), dtype=p.q.dtype, device=device(p.q))


def attention(
    q: Any,
    k: Any,
    v: Any,
    *,
    causal: bool = False,
    doc_ids: Any = None,
    mask: Any = None,
    scale: float | None = None,
    method: str = "auto",
) -> Array:
    """Scaled dot-product attention ``softmax(q k^T * scale, allowed) v``.

    Shapes ``(..., T_q, d_k)``, ``(..., T_k, d_k)``, ``(..., T_k, d_v)`` with broadcastable
    leading dims; returns ``(..., T_q, d_v)``. ``scale`` defaults to ``1/sqrt(d_k)``. ``mask``
    is a boolean *allowed* array broadcastable to ``(..., T_q, T_k)``; ``doc_ids`` (length T,
    negative = padding) keeps each query inside its document instance; ``causal`` keeps keys
    ``j <= i``. Queries with no allowed key return zeros. ``method``: ``"dense"`` (reference),
    ``"tiled"`` (online softmax with tile skipping) or ``"auto"`` (dense only when tiny).
    """
    resolved = _method(method, q, k)
    return _forward(q, k, v, causal, doc_ids, mask, scale, resolved, None, None, False)[0]


def _forward(
    q: Any,
    k: Any,
    v: Any,
    causal: Any,
    doc_ids: Any,
    mask: Any,
    scale: Any,
    method: str,
    block_q: int | None,
    block_k: int | None,
    force_online: bool,
) -> tuple[Array, Array, Problem]:
    p = prepare(q, k, v, causal=causal, doc_ids=doc_ids, mask=mask, scale=scale, method=method)
    xp = p.xp
    if _empty(p):
        out = _zeros_out(p)
        lse = xp.zeros((p.B, p.t_q, 1), dtype=p.q.dtype, device=device(p.q))
    elif method == "dense":
        out, lse = dense_forward(xp, p.q, p.k, p.v, p.scale, dense_allowed(p))
    else:
        out, lse = _tiled_forward(p, block_q, block_k, force_online)
    return _shape_out(p, out), lse, p


def dense_attention(
    q: Any,
    k: Any,
    v: Any,
    *,
    causal: bool = False,
    doc_ids: Any = None,
    mask: Any = None,
    scale: float | None = None,
) -> Array:
    """``attention(..., method="dense")``: the materialised reference."""
    return _forward(q, k, v, causal, doc_ids, mask, scale, "dense", None, None, False)[0]


def tiled_attention(
    q: Any,
    k: Any,
    v: Any,
    *,
    causal: bool = False,
    doc_ids: Any = None,
    mask: Any = None,
    scale: float | None = None,
    block_q: int | None = None,
    block_k: int | None = None,
    force_online: bool = False,
    return_lse: bool = False,
) -> Any:
    """``attention(..., method="tiled")`` with explicit tile sizes.

    ``force_online`` disables the certified fixed-reference rows (see ``tiled``), for tests and
    honest benchmarking. ``return_lse`` also returns the row log-sum-exp ``(B, T_q, 1)`` over
    the flattened batch, which ``tiled_attention_backward`` can reuse.
    """
    out, lse, _ = _forward(
        q, k, v, causal, doc_ids, mask, scale, "tiled", block_q, block_k, force_online
    )
    return (out, lse) if return_lse else out


def attention_backward(
    q: Any,
    k: Any,
    v: Any,
    dout: Any,
    *,
    causal: bool = False,
    doc_ids: Any = None,
    mask: Any = None,
    scale: float | None = None,
    method: str = "auto",
) -> tuple[Array, Array, Array]:
    """Gradients ``(dq, dk, dv)`` of ``sum(attention(q, k, v, ...) * dout)``.

    Same conventions as ``attention``; gradients have the shapes and dtypes of ``q, k, v``
    (summed over broadcast batch dims). Fully masked queries contribute zero gradient.
    """
    resolved = _method(method, q, k)
    if resolved == "tiled":
        return tiled_attention_backward(
            q, k, v, dout, causal=causal, doc_ids=doc_ids, mask=mask, scale=scale
        )
    p = prepare(
        q, k, v, causal=causal, doc_ids=doc_ids, mask=mask, scale=scale, dout=dout, method="dense"
    )
    xp = p.xp
    assert p.dout is not None
    if _empty(p):
        return _grads(p, _zero_grads(p), q, k, v)
    grads = dense_backward(xp, p.q, p.k, p.v, p.dout, p.scale, dense_allowed(p))
    return _grads(p, grads, q, k, v)


def tiled_attention_backward(
    q: Any,
    k: Any,
    v: Any,
    dout: Any,
    *,
    causal: bool = False,
    doc_ids: Any = None,
    mask: Any = None,
    scale: float | None = None,
    block_q: int | None = None,
    block_k: int | None = None,
    out: Any = None,
    lse: Any = None,
) -> tuple[Array, Array, Array]:
    """Tiled gradients; pass ``out`` and ``lse`` from ``tiled_attention(return_lse=True)`` to
    skip recomputing the forward (as a training step would)."""
    p = prepare(
        q, k, v, causal=causal, doc_ids=doc_ids, mask=mask, scale=scale, dout=dout, method="tiled"
    )
    xp = p.xp
    if _empty(p):
        return _grads(p, _zero_grads(p), q, k, v)
    if (out is None) != (lse is None):
        raise ValueError("pass both out and lse (from tiled_attention(return_lse=True)) or neither")
    if out is None:
        o, lse_arr = _tiled_forward(p, block_q, block_k, False)
    else:
        o = xp.reshape(xp.astype(out, p.q.dtype, copy=False), (p.B, p.t_q, p.d_v))
        lse_arr = xp.astype(lse, p.q.dtype, copy=False)
        if tuple(lse_arr.shape) != (p.B, p.t_q, 1):
            raise ValueError(f"lse must have shape {(p.B, p.t_q, 1)}, got {tuple(lse.shape)}")
    grads = _tiled_backward(p, o, lse_arr, block_q, block_k)
    return _grads(p, grads, q, k, v)
