"""Which keys a query may attend to: causal order, document instances, explicit masks.

Conventions (shared by every method): query ``i`` may attend key ``j`` when

* ``causal`` is off, or ``j <= i`` (top-left aligned, as in PyTorch's ``is_causal``);
* ``doc_ids`` is None, or ``doc_ids[i] == doc_ids[j] >= 0``; a negative id marks padding,
  which neither attends nor is attended to;
* ``mask`` is None, or ``mask[..., i, j]`` is True.

A query with no allowed key is *fully masked*; its output and gradients are defined as zeros.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ._xp import Array, Namespace, array_namespace, device
from .problem import Problem, to_host

__all__ = ["allowed_key_slots", "allowed_keys", "dense_allowed", "tile_blocked"]


def _doc_array(doc_ids: Any) -> tuple[Namespace, Array]:
    if hasattr(doc_ids, "__array_namespace__"):
        xp = array_namespace(doc_ids)
        arr = doc_ids
    else:
        arr = np.asarray(doc_ids)
        xp = array_namespace(arr)
    if arr.ndim != 1:
        raise ValueError(f"doc_ids must be 1-D, got shape {tuple(arr.shape)}")
    if arr.dtype == xp.bool or not xp.isdtype(arr.dtype, "integral"):
        raise ValueError(f"doc_ids must be integers (negative = padding), got dtype {arr.dtype}")
    return xp, arr


def allowed_keys(doc_ids: Any, causal: bool = True) -> Array:
    """Boolean ``(T, T)`` matrix: entry ``[i, j]`` says whether query ``i`` may attend key ``j``.

    Returned in the namespace of ``doc_ids`` (NumPy for lists).
    """
    xp, doc = _doc_array(doc_ids)
    allowed = (doc[:, None] == doc[None, :]) & (doc[:, None] >= 0)
    if causal:
        pos = xp.arange(doc.shape[0], device=device(doc))
        allowed = allowed & (pos[:, None] >= pos[None, :])
    return allowed


def allowed_key_slots(doc_ids: Any, query: int, *, causal: bool = True) -> tuple[int, ...]:
    """The key slots query ``query`` may attend to, in increasing order (empty for padding)."""
    _, doc = _doc_array(doc_ids)
    t = int(doc.shape[0])
    if isinstance(query, bool) or not isinstance(query, int | np.integer) or not 0 <= query < t:
        raise ValueError(f"query must be a slot index in [0, {t}), got {query!r}")
    host = [int(x) for x in to_host(doc)]
    own = host[query]
    if own < 0:
        return ()
    end = query + 1 if causal else t
    return tuple(j for j in range(end) if host[j] == own)


def _restrict(allowed: Array | None, extra: Array) -> Array:
    return extra if allowed is None else allowed & extra


def tile_blocked(
    xp: Namespace,
    rows: tuple[int, int],
    cols: tuple[int, int],
    *,
    causal: bool,
    doc: Array | None,
    mask: Array | None,
    batch: slice,
    dev: Any,
    need: int = 7,
    cache: dict[tuple[int, int, int], Array] | None = None,
) -> tuple[Array | None, int]:
    """Mask of the *forbidden* pairs of the tile ``rows x cols`` from column ``c0`` on:
    ``(blocked, c0)`` with ``blocked`` shaped ``(1 | B', n, w - c0)``, or ``(None, 0)``.

    Forbidden, not allowed: the kernels fill these with ``-inf`` and ``copyto(where=...)``
    wants exactly this polarity. When only the causal order cuts the tile, columns before
    ``c0 = i0 + 1 - j0`` cannot be in any row's future, so the mask starts there: a diagonal
    row block then masks only its square corner. ``need`` (bits 1 causal, 2 doc, 4 mask, from
    the schedule) skips restrictions known not to cut through this tile. The causal triangle
    depends only on the offset and shape, so it is memoised in ``cache``.
    """
    (i0, i1), (j0, j1) = rows, cols
    if causal and need & 1 and not need & 6:
        j0 = min(j1, max(j0, i0 + 1))
    c0 = j0 - cols[0]
    blocked: Array | None = None
    if causal and need & 1:
        key = (i0 - j0, i1 - i0, j1 - j0)
        blocked = None if cache is None else cache.get(key)
        if blocked is None:
            qi = xp.arange(i0, i1, device=dev)
            kj = xp.arange(j0, j1, device=dev)
            blocked = (qi[:, None] < kj[None, :])[None, :, :]
            if cache is not None:
                cache[key] = blocked
    if doc is not None and need & 2:
        dq, dk = doc[i0:i1], doc[j0:j1]
        other = ((dq[:, None] != dk[None, :]) | (dq[:, None] < 0))[None, :, :]
        blocked = other if blocked is None else blocked | other
    if mask is not None and need & 4:
        sub = mask[batch, i0:i1, j0:j1] if mask.shape[0] > 1 else mask[:, i0:i1, j0:j1]
        sub = xp.logical_not(sub)
        blocked = sub if blocked is None else blocked | sub
    return blocked, c0


def dense_allowed(p: Problem) -> Array | None:
    """Full allowed-mask ``(1 | B, T_q, T_k)`` of a problem for the dense method; None if
    unrestricted."""
    xp, dev = p.xp, device(p.q)
    allowed: Array | None = None
    if p.causal:
        qi = xp.arange(p.t_q, device=dev)
        kj = xp.arange(p.t_k, device=dev)
        allowed = (qi[:, None] >= kj[None, :])[None, :, :]
    if p.doc is not None:
        doc = p.doc
        same = (doc[:, None] == doc[None, :]) & (doc[:, None] >= 0)
        allowed = _restrict(allowed, same[None, :, :])
    if p.mask is not None:
        allowed = _restrict(allowed, p.mask)
    return allowed
