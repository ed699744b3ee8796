"""Every unit of a "Symbols and units" block must be readable, or say why not.

The dimensional check of the equations (claims stage) takes each symbol's unit from the
lesson's symbol table; an entry whose unit cannot be read leaves its symbol unchecked, so
it gets a warning at that unit, with what could not be read (docs/units.md lists the
vocabulary). A symbol the tables give two different units (another dimension, or another
size: `V_T` in V and in mV) is computed in the first, so the second gets a warning too.
"""

from __future__ import annotations

from collections.abc import Iterator

from atlas_build import units
from atlas_build.diagnostics import Diagnostic, Severity, at, define
from atlas_build.lesson.context import RULES, LessonSubject

UNREADABLE = define(
    "A421",
    "unit-unreadable",
    Severity.WARNING,
    "A unit in a `Symbols and units` block cannot be read, so equations using that symbol are "
    "not checked for dimensions, and no number of it written in a unit, or computed from "
    "it, is verified (A423) (docs/units.md lists the units and words understood).",
    example="`V_bi` / built-in potential / `volts-ish`",
    fix="Write the unit as lessons do (`V`, `m²/(V·s)`, `cm⁻³`, `bytes per token`), or "
    "`dimensionless` / `count`, with any remark after it in parentheses.",
    stage="lesson",
)


CONFLICT = define(
    "A424",
    "unit-conflict",
    Severity.WARNING,
    "A symbol is listed in the lesson's symbol tables twice with different units (another "
    "dimension, or another size of one: V and mV), and claims compute it in the first, so "
    "numbers read against the second table are off by a factor.",
    example="`V_T` with unit `V` in one table and `mV` in another",
    fix="Give the symbol one unit in every table (the prose may still write any unit of "
    "its dimension: `25.85 mV` converts to V), or name the second quantity differently.",
    stage="lesson",
)


@RULES.rule("units", order=42)
def check(subject: LessonSubject) -> Iterator[Diagnostic]:
    first: dict[str, tuple[str, object]] = {}
    for glossary in subject.lesson.glossaries:
        for entry in glossary.entries:
            if not entry.names or not entry.unit.strip():
                continue
            read = units.parse_unit(entry.unit)
            if isinstance(read, units.UnitProblem):
                column = read.column if isinstance(read.column, int) else 0
                where = subject.at(entry.unit_offset + max(0, column))
                message = f"unit {entry.unit!r} of {entry.symbol!r}: {read.message}"
                yield at(UNREADABLE, where, message)
                continue
            size = (read.dimension, read.scale, read.offset) if read.units is not None else None
            for name in entry.names:
                known = first.setdefault(name, (entry.unit, size))
                if known[1] != size and None not in (known[1], size):
                    message = (
                        f"{entry.symbol!r} is already given unit {known[0]!r}; claims compute "
                        f"it in {known[0]!r}, not {entry.unit!r}"
                    )
                    yield at(CONFLICT, subject.at(entry.unit_offset), message)
                    break
