"""Temperatures on a scale with another zero (°C, °F): points and intervals.

A value in °C is a point on its scale: an interval may be added to it or taken from it
(θ − ΔT is °C), and one point taken from another leaves an interval (θ₁ − θ₂, in K);
but two points do not add (θ₁ + θ₂ means nothing), and a point cannot be scaled or
multiplied, because its zero is not absolute zero. This is pint's rule for offset
units, with a weighted sum of points allowed where the weights add up to 1 or 0
((θ₁ + θ₂)/2 is a mean temperature, 2θ₁ − 2θ₂ an interval), which SymPy writes as
plain terms. An interval has no zero to get wrong, so it is kelvin-sized and
unit-like: a °C interval is a kelvin, a unit holding °C (`°C/W`) is a rate of
intervals (`K/W`), and a °F interval is a Δ°F (5/9 K).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import TypeGuard

import sympy

from .product import UnitProduct

CONVERSION_TOLERANCE = sympy.Integer(1)
"""How close (in kelvin) a constant must be to a scale's zero to be read as converting
to it: `θ + 273.15 K` and `θ + 273 K` convert °C; `θ + 5 K` is an interval added."""


def affine(value: UnitProduct) -> bool:
    """Whether a unit holds an atom with its zero elsewhere (°C, °F)."""
    return any(atom.offset != 0 for atom, _ in value.atoms())


def is_point(value: object) -> TypeGuard[UnitProduct]:
    """A temperature on a scale with another zero: °C or °F alone."""
    return isinstance(value, UnitProduct) and value.offset != 0


def interval(value: UnitProduct) -> UnitProduct:
    """The same unit as a difference: no offset, printed as K where it is kelvin-sized, so
    a claim compares a worked-out `θ₁ − θ₂` with a prose `25 K`, never with 25 °C."""
    atoms = []
    for atom, power in value.atoms():
        if atom.offset != 0:
            key, text = ("kelvin", "K") if atom.scale == 1 else (f"{atom.key}:interval",
                                                                 f"Δ{atom.text}")  # fmt: skip
            atom = dataclasses.replace(atom, key=key, text=text, offset=sympy.Rational(0))
        atoms.append((atom, power))
    return UnitProduct(atoms, value.factor)


def settle(value: UnitProduct) -> UnitProduct:
    """A unit that holds °C but is not °C alone (`°C/W`, `°C/s`, dθ/dt) is one of
    intervals; only a lone °C is a point."""
    if affine(value) and not is_point(value):
        return interval(value)
    return value


def split_weight(term: sympy.Basic) -> tuple[sympy.Expr, sympy.Basic]:
    """`c·x` as (c, x) for a finite number c (SymPy writes −θ as −1·θ and (θ₁+θ₂)/2 as
    θ₁/2 + θ₂/2); any other term is (1, term)."""
    if isinstance(term, sympy.Mul) and len(term.args) == 2:
        weight, rest = term.args
        if isinstance(weight, sympy.Rational | sympy.Float):
            return weight, rest
    return sympy.Integer(1), term


def shared_shift(expr: sympy.Mul) -> frozenset[sympy.Basic]:
    """The sums of a ratio that share a term, as in `(θ_f + β)/(θ_i + β)` (a conductor's
    temperature from −β, IEC 60949): both are temperatures from one reference, so their
    ratio is one of intervals, though each sum alone is a point. A sum is paired only with
    a sum it divides or is divided by."""
    sums = [arg.as_base_exp() for arg in expr.args]
    sums = [(b, e) for b, e in sums if isinstance(b, sympy.Add) and isinstance(e, sympy.Integer)]
    above, below = [b for b, e in sums if e > 0], [b for b, e in sums if e < 0]
    paired = {s for a in above for b in below if set(a.args) & set(b.args) for s in (a, b)}
    return frozenset(paired)


def converts(term: sympy.Basic, value: object, zero: sympy.Expr) -> bool:
    """Whether `term` is a constant written with a unit, within a kelvin of `zero` (a
    scale's zero in base units, 273.15 for °C): θ + 273.15 K converts θ to kelvin."""
    if type(term).__name__ != "WithUnit" or not isinstance(value, UnitProduct):
        return False
    number = term.args[0]
    if affine(value) or not getattr(number, "is_number", False):
        return False
    base = sympy.nsimplify(number) * value.scale
    return bool(abs(base - zero) < CONVERSION_TOLERANCE)


def combine(
    values: Sequence[UnitProduct],
    weights: Sequence[sympy.Expr],
    terms: Sequence[sympy.Basic],
    summed: bool,
) -> tuple[UnitProduct | None, str | None]:
    """The unit of terms that share one (the terms of a sum, with their number weights, or
    branches and arguments), and what is wrong with it if they cannot be combined.

    In a sum, points weighing 1 in all are a point (θ − ΔT; a kelvin value where a
    constant at the zero converts it, θ + 273.15 K), weighing 0 an interval (θ₁ − θ₂, in
    K), and anything else means nothing (θ₁ + θ₂). Branches and arguments (max(θ₁, θ₂))
    are all points or none."""
    points = [k for k, value in enumerate(values) if is_point(value)]
    if not points:
        return values[0], None
    point = values[points[0]]
    hint = f"convert to kelvin first ({terms[points[0]]} + 273.15 K for °C)"
    if not summed:
        if len(points) == len(values):
            return point, None
        other = next(value for k, value in enumerate(values) if k not in points)
        return None, (
            f"mix a temperature in {point}, whose zero is not absolute zero, with a value in"
            f" {other}: {hint}"
        )
    total = sum((weights[k] for k in points), sympy.Integer(0))
    if total == 0:
        return interval(point), None
    if total == 1:
        for k, value in enumerate(values):
            if weights[k] == 1 and converts(terms[k], value, point.offset):
                return value, None
        return point, None
    return None, (
        f"adds temperatures in {point}, whose zero is not absolute zero: only a difference"
        f" of two (an interval, in K) or one plus an interval is a temperature; {hint}"
    )


def problem_units(values: Sequence[UnitProduct]) -> dict[str, str]:
    """The point's unit and another one, if any, as a finding's `left` and `right`."""
    points = [value.format() for value in values if is_point(value)]
    others = [value.format() for value in values if not is_point(value)]
    return {"left": points[0], **({"right": others[0]} if others else {})}
