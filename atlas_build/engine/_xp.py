"""Array-namespace helpers shared by the kernels.

The kernels never import NumPy or CuPy; they receive the namespace ``xp`` taken from the
inputs (array-api-compat). NumPy and CuPy accept ``out=`` on ufuncs and ``matmul``, which lets
the hot loops reuse buffers instead of allocating a tile per operation; every other namespace
(array-api-strict, ...) gets the allocating form of the same operation, so the arithmetic is
identical and only the memory traffic differs.
"""

from __future__ import annotations

from typing import Any

from array_api_compat import array_namespace, device, is_cupy_namespace, is_numpy_namespace

Array = Any
Namespace = Any

__all__ = [
    "Array",
    "Namespace",
    "array_namespace",
    "buffer_view",
    "device",
    "exp_inplace",
    "has_out",
    "matmul_into",
    "cummax",
    "neg_inf_where",
    "transposed",
]


def has_out(xp: Namespace) -> bool:
    """True when the namespace's ufuncs accept ``out=`` (NumPy, CuPy)."""
    return bool(is_numpy_namespace(xp) or is_cupy_namespace(xp))


def exp_inplace(xp: Namespace, x: Array) -> Array:
    """``exp(x)``, overwriting ``x`` where the namespace allows it."""
    if has_out(xp):
        return xp.exp(x, out=x)
    return xp.exp(x)


def matmul_into(xp: Namespace, a: Array, b: Array, out: Array | None) -> Array:
    """``a @ b``, written into ``out`` where the namespace allows it."""
    if out is not None and has_out(xp):
        return xp.matmul(a, b, out=out)
    return xp.matmul(a, b)


def neg_inf_where(xp: Namespace, x: Array, blocked: Array | None, c0: int = 0) -> Array:
    """Set ``x[..., c0:]`` to ``-inf`` where ``blocked``, so that ``exp`` maps it to 0."""
    if blocked is None:
        return x
    if has_out(xp):
        xp.copyto(x[..., c0:], -xp.inf, where=blocked)
        return x
    fill = xp.asarray(-xp.inf, dtype=x.dtype, device=device(x))
    tail = xp.where(blocked, fill, x[..., c0:])
    return xp.concat([x[..., :c0], tail], axis=-1) if c0 else tail


def cummax(xp: Namespace, x: Array) -> Array:
    """Running maximum along axis 1 (the array API has no cumulative max: doubling there)."""
    accumulate = getattr(xp.maximum, "accumulate", None) if has_out(xp) else None
    if accumulate is not None:
        try:
            return accumulate(x, axis=1)
        except (NotImplementedError, TypeError):
            pass
    n, step = int(x.shape[1]), 1
    while step < n:
        x = xp.concat([x[:, :step], xp.maximum(x[:, step:], x[:, :-step])], axis=1)
        step *= 2
    return x


def buffer_view(xp: Namespace, flat: Array | None, shape: tuple[int, int, int]) -> Array | None:
    """A contiguous ``shape`` view of the front of a reusable flat buffer (None: allocate)."""
    if flat is None:
        return None
    return flat[: shape[0] * shape[1] * shape[2]].reshape(shape)


def transposed(xp: Namespace, x: Array, out: Array | None) -> Array:
    """``x.mT``, copied into the contiguous buffer ``out`` where the namespace allows it.

    OpenBLAS multiplies a thin row block by a contiguous right operand faster than by a
    transposed view (fp32 32 x 64 @ 64 x 512: ~1.3x here), which pays for the copy since one
    key tile serves many row blocks.
    """
    if out is None or not has_out(xp):
        return x.mT
    xp.copyto(out, x.mT)
    return out
