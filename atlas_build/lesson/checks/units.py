"""Every unit of a "Symbols and units" block must be readable, or say why not.

The dimensional check of the equations (claims stage) takes each symbol's unit from the
lesson's symbol table; an entry whose unit cannot be read leaves its symbol unchecked, so
it gets a warning at that unit, with what could not be read (docs/units.md lists the
vocabulary). A symbol the tables give two different units (another dimension, or another
size: `V_T` in V and in mV) is computed in the first, so the second gets a warning too.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, replace

from atlas_build import units
from atlas_build.diagnostics import Diagnostic, Severity, at, define
from atlas_build.lesson.context import RULES, LessonSubject
from atlas_build.lesson.model import GlossaryEntry, Lesson

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


OUTSIDE = define(
    "A426",
    "unit-outside-vocabulary",
    Severity.INFO,
    "A unit in a `Symbols and units` block is a real unit of another system that the "
    "vocabulary does not hold (`tons`, `psi`, `ft`, `gal`): nothing is wrong in the lesson, "
    "but equations using that symbol are not checked for dimensions, and its numbers are "
    "not converted (docs/units.md lists the vocabulary).",
    example="`TR` / cooling capacity / `tons`",
    fix="Nothing to fix; to have the symbol checked, give its unit in one the vocabulary "
    "reads (`kW`, with `tons` in a remark: `kW (1 ton = 3.517 kW)`).",
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


def _size(spec: units.UnitSpec) -> tuple[object, ...] | None:
    return (spec.dimension, spec.scale, spec.offset) if spec.units is not None else None


def _conflict(known: units.UnitSpec, read: units.UnitSpec) -> bool:
    """Two units of one symbol that would put its numbers off by a factor. Not when either
    is descriptive (`time units`: what it stands for is open), nor when the first names
    the second in its remark (`seconds (or hours)` then `h`; `bytes/s (GB/s)` then `GB/s`)."""
    sizes = _size(known), _size(read)
    if sizes[0] == sizes[1] or None in sizes:
        return False
    if any(not spec.units.dimension.descriptive.is_dimensionless for spec in (known, read)
           if spec.units is not None):  # fmt: skip
        return False
    return not any(_names(spec.remark, other) for spec, other in ((known, read), (read, known)))


def _names(remark: str | None, other: units.UnitSpec) -> bool:
    """Whether a remark (`or hours`, `GB/s`, `d_km in km`, `or V/V`) names a unit of
    `other`'s size."""
    if not remark:
        return False
    words = remark.replace(",", " ").split()
    for start in range(len(words)):
        for end in range(len(words), start, -1):
            read = units.parse_unit(" ".join(words[start:end]))
            if isinstance(read, units.UnitSpec) and read.remark is None:
                ratio = read.kind == "dimensionless" and "/" in read.text  # `mV/V (or V/V)`
                if (read.kind == "unit" or ratio) and _size(read) == _size(other):
                    return True
    return False


def conflicting(lesson: Lesson) -> frozenset[str]:
    """Symbols the lesson's tables give units of two sizes: what a relation using one
    computes depends on which table it reads, so the relation's dimensions are not certain.
    Each is an A424 unless a remark names the other unit (`A (often per width, A/µm)` in
    one table, `A/µm` in the next): the remark excuses the numbers, not the dimensions."""
    first: dict[str, tuple[object, ...]] = {}
    found = set()
    for reading in _every(lesson):
        if isinstance(reading.read, units.UnitProblem):
            continue
        size = _size(reading.read)
        if size is not None and first.setdefault(reading.name, size) != size:
            found.add(reading.name)
    return frozenset(found)


@RULES.rule("units", order=42)
def check(subject: LessonSubject) -> Iterator[Diagnostic]:
    for found in _readings(subject.lesson):
        entry, start = found.entry, found.start
        if isinstance(found.read, units.UnitProblem):
            column = found.read.column if isinstance(found.read.column, int) else 0
            message = f"unit {entry.unit!r} of {entry.symbol!r}: {found.read.message}"
            code = OUTSIDE if units.outside(found.read.message) else UNREADABLE
            yield at(code, subject.at(entry.unit_offset + start + max(0, column)), message)
        elif found.conflict is not None:
            message = (
                f"{entry.symbol!r} is already given unit {found.conflict!r}; claims compute "
                f"it in {found.conflict!r}, not {found.text!r}"
            )
            yield at(CONFLICT, subject.at(entry.unit_offset + start), message)


@dataclass(frozen=True)
class _Reading:
    """A symbol's unit as one table entry gives it: unreadable (`read` a problem), or in
    conflict with the unit an earlier table gave it (`conflict`, that unit's text)."""

    name: str
    entry: GlossaryEntry
    text: str
    start: int
    read: units.UnitSpec | units.UnitProblem
    conflict: str | None = None


def _every(lesson: Lesson) -> Iterator[_Reading]:
    """Each symbol's unit as each table entry gives it (`σ_e²` in `V²` read as σ_e in V);
    an entry's names after one whose unit does not read are not read."""
    for glossary in lesson.glossaries:
        for entry in glossary.entries:
            if not entry.names or not entry.unit.strip():
                continue
            parts = units.unit_parts(len(entry.names), entry.unit)
            for name, (text, start) in zip(entry.names, parts, strict=True):
                if not text:
                    break  # a unit list that does not pair with the symbols
                read = units.parse_unit(text)
                if isinstance(read, units.UnitProblem):
                    yield _Reading(name, entry, text, start, read)
                    break
                read = units.rooted(read, units.power_of(entry.symbol))
                yield _Reading(name, entry, text, start, read)


def _readings(lesson: Lesson) -> Iterator[_Reading]:
    """The entries with a finding: unreadable units, and units in conflict (the entry's
    other names are then not read)."""
    first: dict[str, tuple[str, units.UnitSpec]] = {}
    stopped: set[int] = set()
    for reading in _every(lesson):
        if reading.entry.offset in stopped:
            continue
        if isinstance(reading.read, units.UnitProblem):
            yield reading
            continue
        known = first.setdefault(reading.name, (reading.text, reading.read))
        if _conflict(known[1], reading.read):
            yield replace(reading, conflict=known[0])
            stopped.add(reading.entry.offset)
