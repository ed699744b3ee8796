"""Helpers the kinds share: exact parameters, engine calls, tolerance checks."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import sympy

from atlas_build.claims.prose import numbers
from atlas_build.claims.running.registry import ClaimError

Scalar = str | int | float


def exact(value: Scalar, name: str) -> sympy.Expr:
    """A parameter as an exact SymPy number: `0.25` -> 1/4, `"ln 3"` -> log(3). No eval."""
    if isinstance(value, bool):
        raise ClaimError(f"{name}: {value!r} is not a number")
    if isinstance(value, int):
        return sympy.Integer(value)
    try:
        return numbers.parse_number(str(value))
    except ValueError as error:
        raise ClaimError(f"{name}: {value!r} is not a number lessons write ({error})") from None


def exact_list(values: Sequence[Scalar], name: str) -> list[sympy.Expr]:
    return [exact(value, f"{name}[{index}]") for index, value in enumerate(values)]


def to_float(values: Sequence[sympy.Expr]) -> np.ndarray:
    return np.array([float(sympy.N(value, 30)) for value in values], dtype=np.float64)


def max_error(a: Any, b: Any) -> float:
    a, b = np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float64)
    if a.shape != b.shape:
        return float("inf")
    return float(np.max(np.abs(a - b))) if a.size else 0.0
