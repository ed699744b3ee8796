"""Bare working whose units the text does not write (`0.75/10 = 75 ms`): the scales an
unwritten unit may take, so that digits that agree at one of them are not called wrong."""

from __future__ import annotations

import math
from collections.abc import Iterator

import sympy

from atlas_build.claims.binding.compare import digits_tolerance
from atlas_build.claims.prose import numbers, worked

TIME = (60, 3600, 86400)  # minutes, hours, days
INFORMATION = (8, 1024, 1024**2, 1024**3)  # bits per byte, binary prefixes
"""Scales a bare number's unwritten unit may differ from the result's by, besides powers of
ten, when the result is a time or an amount of information."""


def _factors(unit: str | None) -> tuple[int, ...]:
    """`TIME` and `INFORMATION` factors where the result's unit is of that kind."""
    read = worked.units(unit) if unit else None
    if read is None:
        return (1,)
    factors: tuple[int, ...] = (1,)
    if read.dimension.exponent("[information]"):
        factors += INFORMATION
    if read.dimension.exponent("[time]"):
        factors += TIME
    return factors


def _scales(lhs: float, stated: float, unit: str | None) -> Iterator[float]:
    """Powers of ten times `_factors` that bring `lhs` nearest `stated`."""
    for factor in _factors(unit):
        for scale in (factor, 1 / factor):
            if lhs == 0 or stated == 0:
                continue
            power = round(math.log10(abs(stated) / abs(lhs * scale)))
            yield scale * 10.0**power


def nearest(value: sympy.Expr, result: numbers.Quantity) -> list[float]:
    """The scales (`_scales`) that bring `value` nearest the result; none where it is no
    finite number."""
    try:
        lhs, stated = float(sympy.N(value, 20)), float(result.value)
    except (TypeError, ValueError, OverflowError):
        return []
    if not (math.isfinite(lhs) and math.isfinite(stated)):
        return []
    return list(_scales(lhs, stated, result.unit))


def digits_agree(
    result: numbers.Quantity, approx: bool, value: sympy.Expr, spread: sympy.Expr
) -> bool:
    """Whether some unwritten unit (`TIME`, `INFORMATION`, any power of ten) reconciles
    the digits."""
    try:
        lhs, stated = float(sympy.N(value, 20)), float(result.value)
    except (TypeError, ValueError, OverflowError):
        return True  # cannot be told: say nothing
    if not (math.isfinite(lhs) and math.isfinite(stated)) or (lhs < 0) != (stated < 0):
        return lhs == stated
    allowed = float(digits_tolerance(result, None, approx)) * 1.000001  # spread: relative
    relative = float(spread) / abs(lhs) if lhs else 0.0
    for scale in _scales(lhs, stated, result.unit):
        if abs(lhs * scale - stated) <= allowed + relative * abs(lhs * scale):
            return True
    return False


def base(item: numbers.Arithmetic, measure: worked.Measure) -> sympy.Expr | None:
    """The left side in the base units of the result's dimension, converted to the result's
    unit: bare operands taken as base units (`0.75/10 = 75 ms`)."""
    target = worked.units(item.result.unit) if item.result.unit else None
    if target is None:
        return None
    return measure.value * measure.units.scale / target.scale
