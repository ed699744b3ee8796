"""Numerically stable softmax with an "allowed" mask and a defined fully-masked result."""

from __future__ import annotations

from typing import Any

from ._xp import Array, array_namespace, device

__all__ = ["softmax"]


def softmax(x: Any, axis: int = -1, *, mask: Any = None) -> Array:
    """Softmax of ``x`` along ``axis``, over the entries where ``mask`` is True.

    Subtracting the row maximum keeps ``exp`` in range; masked entries get exactly 0 and a row
    with no allowed entry returns all zeros (instead of 0/0 = NaN), the engine's convention for
    fully masked queries.
    """
    xp = array_namespace(x) if mask is None else array_namespace(x, mask)
    if not xp.isdtype(x.dtype, "real floating"):
        raise ValueError(f"softmax needs a real floating array, got dtype {x.dtype}")
    zero = xp.zeros((), dtype=x.dtype, device=device(x))
    if mask is not None:
        if mask.dtype != xp.bool:
            raise ValueError(f"mask must be boolean, got dtype {mask.dtype}")
        x = xp.where(mask, x, xp.asarray(-xp.inf, dtype=x.dtype, device=device(x)))
    top = xp.max(x, axis=axis, keepdims=True)
    top = xp.where(xp.isfinite(top), top, zero)
    e = xp.exp(x - top)
    total = xp.sum(e, axis=axis, keepdims=True)
    has_any = total > 0
    return xp.where(has_any, e / xp.where(has_any, total, zero + 1), zero)
