"""Memory bounds for numeric evaluation, checked *before* anything is allocated.

Every array operation the evaluator performs (a broadcast, a matrix product, a
Kronecker product, a convolution) first computes the shape of its result from
the operands' shapes and refuses, as ``too-large``, a result with more elements
than the budget. The default keeps any one intermediate under 256 MiB of float64.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from .errors import TOO_LARGE, EvaluationError

DEFAULT_MAX_ELEMENTS = 256 * 2**20 // 8
"""Largest intermediate result, in elements: 256 MiB of float64."""


def _shape(value: Any) -> tuple[int, ...]:
    return tuple(np.shape(value))


def _size(shape: tuple[int, ...]) -> int:
    return math.prod(shape)


def _refuse(operation: str, shapes: list[tuple[int, ...]], result: int, limit: int) -> None:
    if result > limit:
        operands = " and ".join(str(shape) for shape in shapes)
        raise EvaluationError(
            TOO_LARGE,
            f"{operation} of {operands} would make {result:,} elements "
            f"(limit {limit:,}, about {limit * 8 // 2**20} MiB of float64)",
        )


def broadcast(operation: str, limit: int, *values: Any) -> None:
    """Refuse an elementwise operation whose broadcast result exceeds ``limit``."""
    shapes = [_shape(v) for v in values]
    result = np.broadcast_shapes(*shapes)
    _refuse(operation, shapes, _size(result), limit)


def matmul(limit: int, left: Any, right: Any) -> None:
    """Refuse ``left @ right`` whose result (batch x rows x columns) exceeds ``limit``."""
    a, b = _shape(left), _shape(right)
    if len(a) == 0 or len(b) == 0:
        broadcast("a product", limit, left, right)
        return
    rows = a[-2:-1] if len(a) >= 2 else ()
    columns = b[-1:] if len(b) >= 2 else ()
    batch = np.broadcast_shapes(a[:-2], b[:-2])
    _refuse("a matrix product", [a, b], _size(tuple(batch) + rows + columns), limit)


def outer(operation: str, limit: int, left: Any, right: Any) -> None:
    """Refuse a Kronecker product or convolution, whose result (and work) grows as the
    product of the operand sizes."""
    a, b = _shape(left), _shape(right)
    _refuse(operation, [a, b], _size(a) * _size(b), limit)
