"""Every unit of a "Symbols and units" block must be readable, or say why not.

The dimensional check of the equations (claims stage) takes each symbol's unit from the
lesson's symbol table; an entry whose unit cannot be read leaves its symbol unchecked, so
it gets a warning at that unit, with what could not be read (docs/units.md lists the
vocabulary).
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
    "not checked for dimensions (docs/units.md lists the units and words understood).",
    example="`V_bi` / built-in potential / `volts-ish`",
    fix="Write the unit as lessons do (`V`, `m²/(V·s)`, `cm⁻³`, `bytes per token`), or "
    "`dimensionless` / `count`, with any remark after it in parentheses.",
    stage="lesson",
)


@RULES.rule("units", order=42)
def check(subject: LessonSubject) -> Iterator[Diagnostic]:
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
