"""Left sides whose units differ from the result's in a way the text explains.

Worked arithmetic (`arithmetic`) compares a left side with its result in the result's unit;
where the dimensions disagree, the text may still be right: an operand that converts a
unit (`÷ 60 s` for a minute), counts written on one side only (`47 bytes × 8 µs = 376 µs`),
or a unit written after a root that the root takes (`√17.58 Hz` for √(17.58 Hz)).
"""

from __future__ import annotations

from collections.abc import Iterator

import sympy

from atlas_build.claims.prose import numbers, worked
from atlas_build.units.product import UnitProduct


def _residual(
    item: numbers.Arithmetic, measure: worked.Measure
) -> tuple[UnitProduct, UnitProduct] | None:
    """The result's unit, and what the left side's units hold beyond it; None where the
    result's unit cannot be computed with or the left side has no single dimension."""
    target = worked.units(item.result.unit) if item.result.unit else None
    if target is None or measure.problem:
        return None
    return target, measure.units / target


def per_unit_conversion(item: numbers.Arithmetic, measure: worked.Measure) -> sympy.Expr | None:
    """The left side in the result's unit, where the dimensions disagree by one unit that an
    operand converts from (`÷ 60 s` written for `÷ 60 s/min` after a flow in L/min leaves
    the left side per minute too many, and 60 s is one minute); else None."""
    found = _residual(item, measure)
    if found is None:
        return None
    target, residual = found
    atoms = list(residual.atoms())
    if len(atoms) != 1 or abs(atoms[0][1]) != 1 or residual.dimension.is_dimensionless:
        return None
    unit = residual ** atoms[0][1]  # `min` of a left side per minute too many
    for operand in item.operands:
        written = worked.units(operand.unit) if operand.unit else None
        if written is None or written.dimension != unit.dimension:
            continue
        if operand.value * written.scale == unit.scale:  # 60 s is 1 min
            return measure.value * (measure.units / residual).scale / target.scale
    return None


def without_counts(item: numbers.Arithmetic, measure: worked.Measure) -> sympy.Expr | None:
    """The left side in the result's unit, where the two differ only by counted units
    (bytes, tokens, packets: counts are numbers, as in the dimension check); else None."""
    found = _residual(item, measure)
    if found is None:
        return None
    target, residual = found
    counted = [
        (atom, power)
        for atom, power in residual.atoms()
        if atom.dimension.checked.is_dimensionless and not atom.dimension.is_dimensionless
    ]
    if not counted or not residual.dimension.checked.is_dimensionless:
        return None
    scale = measure.units.scale / target.scale
    for atom, power in counted:
        scale /= (sympy.Integer(1) * atom.scale) ** power
    return measure.value * scale


def under_root(item: numbers.Arithmetic, measure: worked.Measure) -> Iterator[sympy.Expr]:
    """The left side in the result's unit, with the unit written after a root of a number
    read under it (`2 µV/√Hz × √17.58 Hz ≈ 8.4 µV`: the parser reads √17.58 times Hz), for
    each reading whose dimensions agree with the result's; as a factor or a divisor, since
    the operand's place in the working is not known here."""
    found = _residual(item, measure)
    if found is None:
        return
    target, _ = found
    for operand in item.operands:
        written = worked.units(operand.unit) if operand.unit else None
        if written is None or not operand.call or operand.call[0] != "√":
            continue
        for power in (sympy.Rational(-1, 2), sympy.Rational(1, 2)):
            units = measure.units * written**power
            if units.dimension == target.dimension:
                yield measure.value * units.scale / target.scale
