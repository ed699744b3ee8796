"""The author's options on a bind, checked against what the lesson itself states.

A bind's `unit` says which unit the computed value is in, and a `tolerance` how far a
written number may be from it. Both can weaken a comparison without anything failing: a
`unit` that the symbol table contradicts compares every number in the wrong unit (E in
Wh, bound `{value: E, unit: kWh}`, passes `10.8 kWh` for 10.8 Wh), and a tolerance wider
than the number's written digits, or as wide as the number, passes numbers those digits
say are wrong. This module says when, so the binder can refuse or not count them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import sympy

from atlas_build.claims.binding.anchors import Precision
from atlas_build.claims.binding.compare import (
    digits_tolerance,
    frequency_kind,
    parse_tolerance,
    show,
)
from atlas_build.claims.coverage.dimensions import lesson_units
from atlas_build.claims.prose import numbers
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
        ratio = show(sympy.nsimplify(bound.units.scale / table.units.scale))
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


def refused_units(lesson: Lesson, binding: list[Any]) -> dict[int, str]:
    """The bind entries (by index) whose `unit` contradicts the table's unit for the value
    they name, and why: their numbers are not compared at all."""
    refused: dict[int, str] = {}
    for index, entry in enumerate(binding):
        if isinstance(entry, dict) and entry.get("unit") and entry.get("value"):
            problem = unit_conflict(lesson, str(entry["value"]), str(entry["unit"]))
            if problem is not None:
                refused[index] = problem
    return refused


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


@dataclass
class Loose:
    """A number a tolerance applies to whose written digits pin it more tightly: `needed`
    is what the digits allow (in the number's unit, as the tolerance is), `whole` that
    the tolerance is as large as the number, and `through` (the binder's) that the number
    agrees with its value only within the tolerance."""

    text: str
    needed: sympy.Expr
    whole: bool
    through: bool = False


def loose(item: numbers.Item, tolerance: Any, approximate: bool | Precision) -> list[Loose]:
    """The numbers of `item` that the author's `tolerance` compares more loosely than
    their digits (compare.digits_tolerance) do. A list is written at the precision of its
    finest number, as the default rule reads it."""
    allowed = parse_tolerance(tolerance)
    if not allowed:
        return []
    written: list[numbers.Quantity] = []
    if isinstance(item, numbers.Quantity):
        written = [item]
    elif isinstance(item, numbers.Arithmetic):
        written = [item.result]
    elif isinstance(item, numbers.NumberList):
        written = list(item.items)
    finest = max((q.decimals for q in written if q.decimals is not None), default=None)
    found = []
    for quantity in written:
        needed = digits_tolerance(quantity, finest, approximate)
        if bool(allowed > needed):
            found.append(Loose(quantity.text, needed, bool(allowed >= abs(quantity.value))))
    return found


def loose_message(tolerance: Any, found: list[Loose]) -> str:
    """The A416 warning for one tolerance, over every number it loosened."""
    shown: dict[str, Loose] = {}
    for each in found:  # a number written at several places is named once
        first = shown.setdefault(each.text, each)
        first.through = first.through or each.through
    parts = []
    for text, each in list(shown.items())[:4]:
        whole = f"; {tolerance} is as large as the number itself" if each.whole else ""
        parts.append(f"{text} (its digits allow ±{float(each.needed):g}{whole})")
    more = f" and {len(shown) - 4} more" if len(shown) > 4 else ""
    through = [text for text, each in shown.items() if each.through]
    counted = (
        f"; {', '.join(through)} agree{'s' if len(through) == 1 else ''} only within it, so "
        f"{'it is' if len(through) == 1 else 'they are'} not counted as verified"
        if through
        else ""
    )
    return (
        f"tolerance {tolerance} is looser than the digits of the numbers it applies to: "
        f"{', '.join(parts)}{more}{counted}. A tolerance is absolute, in the unit each number "
        "is written in: leave it out (half a unit in the last written digit), or write the "
        "number to the digits it is known to"
    )


def tolerance_at(
    spec: dict[str, Any], pointer: str, bound: Any, index: int, default: Any
) -> tuple[str, Any]:
    """Where the tolerance a bind entry was compared with is set, and its value: the
    entry's own, the claim's (at `pointer`), or the file's `defaults`."""
    if isinstance(bound, dict) and "tolerance" in bound:
        return f"{pointer}/bind/{index}/tolerance", bound["tolerance"]
    if "tolerance" in spec:
        return f"{pointer}/tolerance", spec["tolerance"]
    return "/defaults/tolerance", default
