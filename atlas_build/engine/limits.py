"""Size guards: refuse absurd problems with a diagnostic instead of allocating or hanging.

Callers (the claims layer) can ask before building any array: ``check_attention_size`` works
on shapes alone. ``attention`` and friends run the same check on their inputs.
"""

from __future__ import annotations

import os
from dataclasses import dataclass

__all__ = [
    "AttentionCost",
    "AttentionTooLarge",
    "SizeLimits",
    "check_attention_size",
    "estimate_attention_cost",
    "get_size_limits",
    "set_size_limits",
]

METHODS = ("dense", "tiled", "internals")


class AttentionTooLarge(ValueError):
    """The requested attention would exceed the configured memory or work limit."""


@dataclass(frozen=True)
class SizeLimits:
    """Upper bounds on one call: bytes of working memory and floating-point operations."""

    max_bytes: int
    max_flops: float


@dataclass(frozen=True)
class AttentionCost:
    """Estimated peak working memory (bytes, inputs included) and floating-point operations."""

    bytes: int
    flops: float


def _physical_memory() -> int:
    try:
        return int(os.sysconf("SC_PAGE_SIZE")) * int(os.sysconf("SC_PHYS_PAGES"))
    except (AttributeError, ValueError, OSError):
        return 16 * 2**30


_limits = SizeLimits(max_bytes=int(0.8 * _physical_memory()), max_flops=1e14)


def get_size_limits() -> SizeLimits:
    """The limits in force (default: 80% of physical memory, 1e14 flops, about 15 min here)."""
    return _limits


def set_size_limits(*, max_bytes: int | None = None, max_flops: float | None = None) -> SizeLimits:
    """Change the limits; returns the previous ones so a caller can restore them."""
    global _limits
    previous = _limits
    _limits = SizeLimits(
        max_bytes=previous.max_bytes if max_bytes is None else int(max_bytes),
        max_flops=previous.max_flops if max_flops is None else float(max_flops),
    )
    return previous


def _check_dims(**dims: int) -> None:
    for name, value in dims.items():
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise ValueError(f"{name} must be a non-negative integer, got {value!r}")


def estimate_attention_cost(
    t_q: int,
    t_k: int,
    d_k: int,
    d_v: int,
    *,
    batch: int = 1,
    method: str = "tiled",
    itemsize: int = 4,
    backward: bool = False,
    causal: bool = False,
    block: int = 512,
) -> AttentionCost:
    """Estimate memory and work of one attention call from shapes alone.

    ``dense`` holds a few ``batch x t_q x t_k`` arrays; ``tiled`` holds O(T d) per head plus
    one tile per worker; ``internals`` also keeps probabilities and the per-value Jacobian.
    """
    _check_dims(t_q=t_q, t_k=t_k, d_k=d_k, d_v=d_v, batch=batch, itemsize=itemsize)
    if method not in METHODS:
        raise ValueError(f"method must be one of {METHODS}, got {method!r}")
    io = batch * (t_q + t_k) * (d_k + d_v + 2) * itemsize * (3 if backward else 2)
    square = batch * t_q * t_k
    if method == "dense":
        work = square * ((4 if backward else 2) * itemsize + 1)
    elif method == "internals":
        work = square * (4 * itemsize + 1) + square * d_v * itemsize
    else:
        work = (os.cpu_count() or 1) * block * block * itemsize * 3
    passes = 5 if backward else 2
    flops = float(passes) * square * (d_k + d_v)
    if causal:
        flops /= 2
    return AttentionCost(bytes=int(io + work), flops=flops)


def check_attention_size(
    t_q: int,
    t_k: int,
    d_k: int,
    d_v: int,
    *,
    batch: int = 1,
    method: str = "tiled",
    itemsize: int = 4,
    backward: bool = False,
    causal: bool = False,
) -> AttentionCost:
    """Raise ``AttentionTooLarge`` (a ValueError) if the call would exceed the limits."""
    cost = estimate_attention_cost(
        t_q,
        t_k,
        d_k,
        d_v,
        batch=batch,
        method=method,
        itemsize=itemsize,
        backward=backward,
        causal=causal,
    )
    limits = _limits
    what = f"{method} attention{' backward' if backward else ''}"
    shape = f"batch={batch}, T_q={t_q}, T_k={t_k}, d_k={d_k}, d_v={d_v}"
    if cost.bytes > limits.max_bytes:
        raise AttentionTooLarge(
            f"{what} with {shape} needs about {_gib(cost.bytes)} of memory, over the limit of "
            f"{_gib(limits.max_bytes)}; use method='tiled', smaller inputs, or set_size_limits()"
        )
    if cost.flops > limits.max_flops:
        raise AttentionTooLarge(
            f"{what} with {shape} needs about {cost.flops:.3g} floating-point operations, over "
            f"the limit of {limits.max_flops:.3g}; use smaller inputs or set_size_limits()"
        )
    return cost


def _gib(n: float) -> str:
    if n >= 2**30:
        return f"{n / 2**30:.3g} GiB"
    return f"{n / 2**20:.3g} MiB"
