"""Exact conversion between units: `32 MB` is not `32 MiB`, `0.0259 V` is `25.9 mV`."""

from __future__ import annotations

from fractions import Fraction
from typing import TypeAlias

import sympy

from .numbers import parse_number
from .parse import parse_unit
from .product import UnitProduct
from .spec import UnitSpec

UnitLike: TypeAlias = "str | UnitSpec | UnitProduct"
ValueLike: TypeAlias = "int | Fraction | float | str | sympy.Expr"


class UnitError(ValueError):
    """A unit that cannot be read or used, or two units of different dimensions."""


def units_of(unit: UnitLike) -> UnitProduct:
    """The unit product of a unit text, spec or product (`UnitError` if it has none)."""
    if isinstance(unit, UnitProduct):
        return unit
    spec = parse_unit(unit) if isinstance(unit, str) else unit
    if not isinstance(spec, UnitSpec):
        raise UnitError(f"cannot read unit {spec.text!r}: {spec.message}")
    if spec.units is None:
        raise UnitError(f"{spec.text!r} gives no unit")
    return spec.units


def exact(value: ValueLike) -> sympy.Expr:
    """An exact SymPy number: ints and fractions as they are, a float by its shortest
    decimal (`0.1` -> 1/10), text by `numbers.parse_number` (never evaluated)."""
    if isinstance(value, sympy.Expr):
        if not value.is_number:
            raise UnitError(f"not a number: {value}")
        return value
    if isinstance(value, bool):
        raise UnitError("not a number: a boolean")
    if isinstance(value, int):
        return sympy.Integer(value)
    if isinstance(value, Fraction):
        return sympy.Rational(value.numerator, value.denominator)
    if isinstance(value, float):
        try:
            ratio = Fraction(repr(value))
        except ValueError as error:
            raise UnitError(f"not a finite number: {value!r}") from error
        return sympy.Rational(ratio.numerator, ratio.denominator)
    parsed = parse_number(value)
    if parsed is None:
        raise UnitError(f"not a number: {value!r}")
    return parsed


def same_dimension(a: UnitLike, b: UnitLike) -> bool:
    """Whether the two units measure the same kind of quantity (MB and MiB do; MB and s not;
    a level in dB is no ratio, and dBm no dB: a level converts only to itself)."""
    first, second = units_of(a), units_of(b)
    return first.dimension == second.dimension and first.levels == second.levels


def convertible(a: UnitLike | None, b: UnitLike | None) -> bool:
    """`same_dimension` for units that may be missing or unreadable (then False)."""
    if a is None or b is None:
        return False
    try:
        return same_dimension(a, b)
    except UnitError:
        return False


def to_base(value: ValueLike, unit: UnitLike) -> sympy.Expr:
    """`value` in `unit`, expressed in the base unit of its dimension (exact)."""
    units = units_of(unit)
    return exact(value) * units.scale + units.offset


def convert(value: ValueLike, from_unit: UnitLike, to_unit: UnitLike) -> sympy.Expr:
    """`value` in `from_unit`, expressed in `to_unit` (exact; °C and °F shift their zero)."""
    source, target = units_of(from_unit), units_of(to_unit)
    if source.dimension != target.dimension:
        raise UnitError(
            f"cannot convert {source} ({source.dimension}) to {target} ({target.dimension})"
        )
    if source.levels != target.levels:
        raise UnitError(
            f"cannot convert {source} to {target}: a level in decibels is the logarithm of a"
            " ratio, not the ratio"
        )
    return (to_base(value, source) - target.offset) / target.scale
