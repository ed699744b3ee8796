"""Quantities in prose: a number followed by a unit (`128 KiB`, `3.35 TB/s`, `10¹⁶ cm⁻³`).

Conservative by design: the word after a number is a unit only when the whole
word reads as a unit of the vocabulary (`5 layers`, `3 heads`, `4 is` are not),
is not a count word (`3 elements`), and is not one of the single letters prose
uses as a variable or an English word (`PROSE_EXCLUDED`). Without a space only
multi-character units attach (`2.1ms`, `50%`, but not `7B`). A ratio of one unit
(`11 V/V`) is a pure number.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import sympy

from .grammar import UnitSyntaxError, read_unit
from .numbers import NUMBER, number_value
from .product import UnitProduct

MAX_UNIT = 40
PROSE_EXCLUDED = frozenset({"T", "N", "L", "H", "C", "F", "S", "g", "h", "pm"})
"""Unit symbols that, after a number in prose, are more often a variable or a word."""

_GAP = re.compile(r"[ \u00a0\u2009\u202f]?")
_RUN = re.compile(rf"[^\s]{{1,{MAX_UNIT}}}")
_PER = re.compile(r"\s+per\s+([^\W\d_]+)")
_TRAILING = ".,;:!?\"'”’»"
_CUTS = "/·⋅*("
_OVER = re.compile(r"/|\s+per\s+")


@dataclass(frozen=True)
class Quantity:
    """A number with its unit in prose; spans are offsets into the text searched."""

    value: sympy.Rational
    units: UnitProduct
    start: int
    end: int
    unit_start: int
    number_text: str
    unit_text: str


def _balanced(text: str) -> bool:
    depth = 0
    for char in text:
        depth += (char == "(") - (char == ")")
        if depth < 0:
            return False
    return depth == 0


def _trim(run: str) -> str:
    while run and (run[-1] in _TRAILING or (run[-1] in ")]" and not _balanced(run))):
        run = run[:-1]
    return run


def _acceptable(text: str, units: UnitProduct) -> bool:
    """A unit of prose: not a variable letter, abstract unit or bare count. Units that
    cancel (`V/V`, `W/W`: a gain written in its table's unit) read as dimensionless."""
    if text in PROSE_EXCLUDED:
        return False
    atoms = list(units.atoms())
    if not atoms:
        numerator = _OVER.split(text, maxsplit=1)[0]
        return numerator != text and _read(numerator) is not None
    if any(atom.key.startswith("abstract:") for atom, _ in atoms):
        return False
    return not all(atom.silent for atom, _ in atoms)


def _read(text: str) -> UnitProduct | None:
    try:
        units = read_unit(text, spaces_multiply=False, numbers=False)
    except UnitSyntaxError:
        return None
    return units if _acceptable(text, units) else None


def _unit_at(text: str, position: int) -> tuple[str, UnitProduct] | None:
    """The longest unit starting at `position`: the whole word, else a prefix cut at an operator."""
    run = _RUN.match(text, position)
    if run is None:
        return None
    candidate = _trim(run.group())
    while candidate:
        units = _read(candidate)
        if units is not None:
            if len(candidate) == len(_trim(run.group())):
                per = _PER.match(text, position + len(candidate))
                if per is not None:
                    longer = text[position : per.end()]
                    extended = _read(" ".join(longer.split()))
                    if extended is not None:
                        return longer, extended
            return candidate, units
        cut = max(candidate.rfind(char) for char in _CUTS)
        candidate = _trim(candidate[:cut]) if cut > 0 else ""
    return None


def find_quantities(text: str) -> list[Quantity]:
    """Every number in `text` that a unit follows, in order."""
    found: list[Quantity] = []
    for match in NUMBER.finditer(text):
        gap = _GAP.match(text, match.end())
        unit_start = gap.end() if gap is not None else match.end()
        unit = _unit_at(text, unit_start)
        if unit is None:
            continue
        unit_text, units = unit
        if unit_start == match.end() and len(unit_text) < 2 and unit_text not in "%°":
            continue
        try:
            value = number_value(match)
        except ValueError:
            continue
        end = unit_start + len(unit_text)
        found.append(
            Quantity(value, units, match.start(), end, unit_start, match.group(), unit_text)
        )
    return found


def unit_after(text: str, end: int) -> tuple[str, int] | None:
    """The unit written right after a number ending at `end` (the same rules as
    `find_quantities`): its text and where it ends, or None."""
    gap = _GAP.match(text, end)
    start = gap.end() if gap is not None else end
    unit = _unit_at(text, start)
    if unit is None:
        return None
    unit_text, _ = unit
    if start == end and len(unit_text) < 2 and unit_text not in "%°":
        return None
    return unit_text, start + len(unit_text)


_EXCLUDED = re.compile(r"(" + "|".join(sorted(PROSE_EXCLUDED, key=len, reverse=True)) + r")(?!\w)")


def excluded_unit_after(text: str, end: int, dimension: object) -> tuple[str, int] | None:
    """A unit symbol prose usually means otherwise (`L`, `T`, `N`: `PROSE_EXCLUDED`) right
    after a number ending at `end`, read as a unit only when the number's quantity has its
    dimension: `V = 0.5 L` for a volume, but not `5 L` for a count of layers. Returns the
    symbol and where it ends."""
    gap = _GAP.match(text, end)
    start = gap.end() if gap is not None else end
    if start == end:
        return None  # `7B`, `3T`: glued letters are names, not units
    found = _EXCLUDED.match(text, start)
    if found is None:
        return None
    try:
        units = read_unit(found.group(1), spaces_multiply=False, numbers=False)
    except UnitSyntaxError:
        return None
    return (found.group(1), found.end()) if units.dimension == dimension else None


_LEVEL = re.compile(r"dB[A-Za-z]{0,3}(?!\w)")
_LEVEL_NAMED = re.compile(r"(?<![A-Za-z])dB|decibel", re.IGNORECASE)


def is_level(unit: str | None) -> bool:
    """Whether a unit written after a number is a logarithmic level (`dB`, `dBm`)."""
    return unit is not None and _LEVEL.fullmatch(unit) is not None


def names_level(table_unit: str) -> bool:
    """Whether a symbol table's unit says its quantity is a level (`dimensionless
    (decibels)`, `dimensionless (dB)`), so the dB after its numbers is its own unit."""
    return _LEVEL_NAMED.search(table_unit) is not None


def level_after(text: str, end: int) -> tuple[str, int] | None:
    """A logarithmic level (`dB`, `dBm`) right after a number: the vocabulary refuses it
    as ambiguous, so a caller decides what it means for the number's quantity."""
    gap = _GAP.match(text, end)
    start = gap.end() if gap is not None else end
    found = _LEVEL.match(text, start)
    return (found.group(), found.end()) if found else None
