"""Input validation and normalisation: the dispatch edge between callers and the kernels.

Everything the kernels may assume is established here: one array namespace, a floating compute
dtype, inputs flattened to ``(B, T, d)``, a finite scale, document ids as both a device array
(for tile masks) and a host array (for the tile schedule), and a boolean mask shaped
``(1 | B, T_q, T_k)``. NumPy is imported only here and in the host-side scheduler.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np
from array_api_compat import is_cupy_array

from ._xp import Array, Namespace, array_namespace, device
from .limits import check_attention_size

__all__ = ["Problem", "prepare", "to_host", "unbroadcast"]


@dataclass(frozen=True)
class Problem:
    """A validated attention problem in kernel form (see module docstring)."""

    xp: Namespace
    q: Array
    k: Array
    v: Array
    dout: Array | None
    batch_shape: tuple[int, ...]
    shapes: tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]
    out_dtype: Any
    scale: float
    causal: bool
    doc: Array | None
    doc_host: np.ndarray | None
    mask: Array | None

    @property
    def B(self) -> int:  # noqa: N802 - conventional name for the flattened batch size
        return int(self.q.shape[0])

    @property
    def t_q(self) -> int:
        return int(self.q.shape[1])

    @property
    def t_k(self) -> int:
        return int(self.k.shape[1])

    @property
    def d_k(self) -> int:
        return int(self.q.shape[2])

    @property
    def d_v(self) -> int:
        return int(self.v.shape[2])

    @property
    def restricted(self) -> bool:
        return self.causal or self.doc is not None or self.mask is not None


def to_host(x: Any) -> np.ndarray:
    """Copy a (small) array of any supported namespace to a NumPy array."""
    if is_cupy_array(x):
        return np.asarray(x.get())
    try:
        return np.asarray(x)
    except (TypeError, ValueError, RuntimeError):
        return np.from_dlpack(x)


def _broadcast_shapes(*shapes: tuple[int, ...]) -> tuple[int, ...]:
    ndim = max((len(s) for s in shapes), default=0)
    out = []
    for axis in range(ndim):
        sizes = {s[axis - ndim + len(s)] for s in shapes if axis - ndim + len(s) >= 0}
        sizes.discard(1)
        if len(sizes) > 1:
            raise ValueError(f"leading (batch/head) dimensions do not broadcast: {shapes}")
        out.append(sizes.pop() if sizes else 1)
    return tuple(out)


def _as_arrays(q: Any, k: Any, v: Any) -> tuple[Namespace, Array, Array, Array]:
    try:
        xp = array_namespace(q, k, v)
    except TypeError as exc:
        if any(hasattr(x, "__array_namespace__") for x in (q, k, v)):
            raise ValueError(f"q, k and v must come from one array library: {exc}") from exc
        q, k, v = (np.asarray(x) for x in (q, k, v))
        xp = array_namespace(q, k, v)
    return xp, q, k, v


def _in_namespace(xp: Namespace, x: Any) -> Array:
    """``x`` as an array of ``xp`` (lists and other libraries' arrays are copied)."""
    if hasattr(x, "__array_namespace__"):
        try:
            if array_namespace(x) is xp:
                return x
        except TypeError:
            pass
        return xp.asarray(to_host(x))
    return xp.asarray(np.asarray(x))


def _check_float(xp: Namespace, name: str, x: Array) -> None:
    if not xp.isdtype(x.dtype, "real floating"):
        raise ValueError(f"{name} must be a real floating-point array, got dtype {x.dtype}")


def _scale(scale: Any, d_k: int) -> float:
    if scale is None:
        if d_k == 0:
            raise ValueError("d_k is 0, so the default scale 1/sqrt(d_k) is undefined")
        return 1.0 / math.sqrt(d_k)
    if isinstance(scale, bool | str | bytes):
        raise ValueError(f"scale must be a finite real number, got {scale!r}")
    try:
        value = float(scale)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"scale must be a finite real number, got {scale!r}") from exc
    if not math.isfinite(value):
        raise ValueError(f"scale must be finite, got {value!r}")
    return value


def _doc_ids(xp: Namespace, doc_ids: Any, t_q: int, t_k: int, dev: Any) -> tuple[Array, Any]:
    if t_q != t_k:
        raise ValueError(f"doc_ids needs T_q == T_k (one token sequence), got {t_q} and {t_k}")
    host = to_host(doc_ids) if hasattr(doc_ids, "__array_namespace__") else np.asarray(doc_ids)
    if host.ndim != 1 or host.shape[0] != t_q:
        raise ValueError(f"doc_ids must be a 1-D array of length T={t_q}, got shape {host.shape}")
    if host.dtype == np.bool_ or not np.issubdtype(host.dtype, np.integer):
        raise ValueError(f"doc_ids must be integers (negative = padding), got dtype {host.dtype}")
    host = host.astype(np.int64, copy=False)
    return xp.asarray(host, device=dev), host


def _mask(xp: Namespace, mask: Any, batch: tuple[int, ...], t_q: int, t_k: int) -> Array:
    mask = _in_namespace(xp, mask)
    if mask.dtype != xp.bool:
        raise ValueError(f"mask must be a boolean 'allowed' array, got dtype {mask.dtype}")
    target = (*batch, t_q, t_k)
    shape = tuple(int(s) for s in mask.shape)
    if len(shape) > len(target) or _broadcast_shapes(shape, target) != target:
        raise ValueError(f"mask of shape {shape} does not broadcast to {target}")
    lead = shape[: max(0, len(shape) - 2)]
    tail = shape[-2:] if len(shape) >= 2 else (1,) * (2 - len(shape)) + shape
    if all(s == 1 for s in lead):
        return xp.broadcast_to(xp.reshape(mask, (1, *tail)), (1, t_q, t_k))
    full = xp.broadcast_to(mask, target)
    return xp.reshape(full, (math.prod(batch), t_q, t_k))


def _flatten(xp: Namespace, x: Array, batch: tuple[int, ...], dtype: Any) -> Array:
    x = xp.broadcast_to(x, (*batch, *x.shape[-2:]))
    x = xp.reshape(xp.astype(x, dtype, copy=False), (math.prod(batch), *x.shape[-2:]))
    contiguous = getattr(xp, "ascontiguousarray", None)
    return contiguous(x) if contiguous is not None else x


def prepare(
    q: Any,
    k: Any,
    v: Any,
    *,
    causal: Any = False,
    doc_ids: Any = None,
    mask: Any = None,
    scale: Any = None,
    dout: Any = None,
    method: str = "tiled",
) -> Problem:
    """Validate and normalise the inputs of ``attention`` / ``attention_backward``."""
    xp, q, k, v = _as_arrays(q, k, v)
    for name, x in (("q", q), ("k", k), ("v", v)):
        if x.ndim < 2:
            raise ValueError(f"{name} must have shape (..., T, d), got {tuple(x.shape)}")
        _check_float(xp, name, x)
    t_q, d_k = int(q.shape[-2]), int(q.shape[-1])
    t_k, d_v = int(k.shape[-2]), int(v.shape[-1])
    if int(k.shape[-1]) != d_k:
        raise ValueError(f"q and k must share d_k, got q {tuple(q.shape)} and k {tuple(k.shape)}")
    if int(v.shape[-2]) != t_k:
        raise ValueError(f"k and v must share T_k, got k {tuple(k.shape)} and v {tuple(v.shape)}")
    if causal not in (True, False) or isinstance(causal, str):
        raise ValueError(f"causal must be a bool, got {causal!r}")
    batch = _broadcast_shapes(*(tuple(int(s) for s in x.shape[:-2]) for x in (q, k, v)))
    dtype = xp.result_type(q.dtype, k.dtype, v.dtype)
    out_dtype = dtype
    if dout is not None:
        dout = _in_namespace(xp, dout)
        _check_float(xp, "dout", dout)
        expected = (*batch, t_q, d_v)
        if tuple(int(s) for s in dout.shape) != expected:
            raise ValueError(f"dout must have the output's shape {expected}, got {dout.shape}")
        dtype = xp.result_type(dtype, dout.dtype)
        out_dtype = dtype
    if dtype not in (xp.float32, xp.float64):
        dtype = xp.float32
    scale_value = _scale(scale, d_k)
    n_batch = math.prod(batch)
    itemsize = 8 if dtype == xp.float64 else 4
    check_attention_size(
        t_q,
        t_k,
        d_k,
        d_v,
        batch=n_batch,
        method=method,
        itemsize=itemsize,
        backward=dout is not None,
        causal=bool(causal),
    )
    dev = device(q)
    doc, doc_host = (None, None)
    if doc_ids is not None:
        doc, doc_host = _doc_ids(xp, doc_ids, t_q, t_k, dev)
    mask_arr = None if mask is None else _mask(xp, mask, batch, t_q, t_k)
    return Problem(
        xp=xp,
        q=_flatten(xp, q, batch, dtype),
        k=_flatten(xp, k, batch, dtype),
        v=_flatten(xp, v, batch, dtype),
        dout=None if dout is None else _flatten(xp, dout, batch, dtype),
        batch_shape=batch,
        shapes=(tuple(q.shape), tuple(k.shape), tuple(v.shape)),
        out_dtype=out_dtype,
        scale=scale_value,
        causal=bool(causal),
        doc=doc,
        doc_host=doc_host,
        mask=mask_arr,
    )


def unbroadcast(xp: Namespace, g: Array, batch: tuple[int, ...], shape: tuple[int, ...]) -> Array:
    """Sum a ``(B, T, d)`` gradient over broadcast batch dims back to an input's ``shape``."""
    g = xp.reshape(g, (*batch, *g.shape[-2:]))
    lead = len(batch) - (len(shape) - 2)
    if lead > 0:
        g = xp.sum(g, axis=tuple(range(lead)))
    axes = tuple(i for i, s in enumerate(shape[:-2]) if s == 1 and g.shape[i] != 1)
    if axes:
        g = xp.sum(g, axis=axes, keepdims=True)
    return xp.reshape(g, shape)
