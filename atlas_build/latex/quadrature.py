"""Definite integrals by fixed Gauss-Legendre quadrature (deterministic, bounded work).

``\\int_a^b f\\,dx`` evaluates ``f`` at ``NODES`` points per variable (infinite ends are
mapped onto a finite interval first: ``x = t/(1-t^2)`` for the whole line,
``x = a + t/(1-t)`` for a half line), so an integral costs ``NODES`` evaluations of
its body per integration variable, charged to the iteration budget.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np
import sympy

from .errors import UNSUPPORTED, EvaluationError

if TYPE_CHECKING:
    from .evaluate import Evaluator

NODES = 96
"""Quadrature points per integration variable."""

_POINTS, _WEIGHTS = np.polynomial.legendre.leggauss(NODES)


def _nodes(lower: float, upper: float) -> tuple[np.ndarray, np.ndarray]:
    """Points and weights for the interval, with infinite ends transformed."""
    if lower > upper:
        points, weights = _nodes(upper, lower)
        return points, -weights
    t, w = _POINTS, _WEIGHTS
    if lower == upper:
        return np.array([lower]), np.array([0.0])
    if np.isinf(lower) and np.isinf(upper):
        return t / (1 - t**2), w * (1 + t**2) / (1 - t**2) ** 2
    s, ds = (t + 1) / 2, w / 2
    if np.isinf(upper):
        return lower + s / (1 - s), ds / (1 - s) ** 2
    if np.isinf(lower):
        return upper - s / (1 - s), ds / (1 - s) ** 2
    half = (upper - lower) / 2
    return lower + half * (t + 1), half * w


def integral(ev: Evaluator, node: sympy.Integral) -> Any:
    """``Integral(f, (x, a, b), ...)``: nested quadrature over each variable."""
    limits = list(node.limits)
    if any(len(limit) != 3 for limit in limits):
        raise EvaluationError(UNSUPPORTED, "an indefinite integral has no value")
    return _integrate(ev, node.function, limits)


def _integrate(ev: Evaluator, body: sympy.Basic, limits: list[Any]) -> Any:
    if not limits:
        return ev.walk(body)
    variable, lower, upper = limits[0]
    a, b = float(ev.walk(lower)), float(ev.walk(upper))
    points, weights = _nodes(a, b)
    ev.spend(len(points), "quadrature points")
    total: Any = np.float64(0.0)
    name = str(variable)
    saved = ev.scope.get(name)
    try:
        for x, w in zip(points, weights, strict=True):
            ev.scope[name] = np.float64(x)
            total = total + w * _integrate(ev, body, limits[1:])
    finally:
        if saved is None:
            ev.scope.pop(name, None)
        else:
            ev.scope[name] = saved
    return total
