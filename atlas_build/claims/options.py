"""The author's options on a bind, checked against what the lesson itself states.

A bind's `unit` says which unit the computed value is in, and a `tolerance` how far a
written number may be from it. Both can weaken a comparison without anything failing: a
`unit` that the symbol table contradicts compares every number in the wrong unit (E in
Wh, bound `{value: E, unit: kWh}`, passes `10.8 kWh` for 10.8 Wh), and a tolerance wider
than the number's written digits, or as wide as the number, passes numbers those digits
say are wrong. This module says when, so the binder can refuse or not count them.
"""

from __future__ import annotations

import sympy

from atlas_build.claims.compare import frequency_kind, show
from atlas_build.claims.dimensions import lesson_units
from atlas_build.lesson.model import Lesson
from atlas_build.units import UnitSpec, parse_unit


def unit_conflict(lesson: Lesson, name: str, unit: str, where: str = "the bind") -> str | None:
    """Why a bind's `unit` for `name` contradicts the symbol table's unit for it (another
    dimension, size or zero, or an angular frequency for a frequency), or None when the
    table gives the quantity no readable unit or the same one in other words (`B` and
    `bytes`). The claim computes a tabled symbol in the table's unit, so a number is only
    compared rightly in that one."""
    base = name.split("[", 1)[0]
    table = lesson_units(lesson).get(base)
    if table is None or table.units is None:
        return None
    bound = parse_unit(unit)
    if not isinstance(bound, UnitSpec) or bound.units is None:
        return None  # a unit that does not read fails the comparison itself, at the number
    if _same(bound, table) or _named(table, bound):
        return None
    if bound.dimension != table.dimension:
        how, fix = "another dimension", f"correct the unit in {where} or in the table"
    else:
        ratio = show(sympy.nsimplify(bound.scale / table.scale))
        how = f"1 {unit} is {ratio} {table.text}" if bound.offset == table.offset else ""
        how = how or "units of one dimension with different zeros or kinds"
        fix = (
            f"leave `unit` out of {where} (a number the lesson writes in {unit} converts "
            f"to {table.text} by itself), or correct the table"
        )
    return (
        f"{where} gives {name} the unit {unit}, but the symbol table gives {base} in "
        f"{table.text}, the unit the claim computes it in, so its numbers would be compared "
        f"as if it were in {unit} ({how}); {fix}"
    )


def _same(one: UnitSpec, other: UnitSpec) -> bool:
    """One unit in other words: `B` and `bytes`, `Wh` and `W·h` (not rad/s and Hz)."""
    sizes = [(spec.dimension, spec.scale, spec.offset) for spec in (one, other)]
    return sizes[0] == sizes[1] and frequency_kind(one.text) == frequency_kind(other.text)


def _named(table: UnitSpec, bound: UnitSpec) -> bool:
    """A pure number whose table unit names what it counts, `dimensionless (bits)` for an
    entropy, bound in that unit (`unit: bits`): the table and the bind say one thing."""
    if table.units is None or not table.units.dimension.is_dimensionless or not table.remark:
        return False
    remark = parse_unit(table.remark)
    return isinstance(remark, UnitSpec) and remark.units is not None and _same(remark, bound)
