"""The unit a markdown table's column header gives its cells: `| q (kW) |`, `| L [mm] |`.

Tables state their unit once, in the header, and write bare numbers in the cells, so a
cell `161.3` under `q (kW)` is 161.3 kW. Without the header the claim would compare it
as 161.3 in the symbol table's unit (W) and pass a number a thousand times off. Only a
header whose last parenthesis or bracket reads as a unit (`parse_unit`, not an abstract
word or a shape) gives one; `(dB)`, `(layers)`, `(see text)` give none.
"""

from __future__ import annotations

import re

from atlas_build.units import UnitSpec, parse_unit
from atlas_build.units.spec import ABSTRACT, UNSPECIFIED

_DELIMITER = re.compile(r"\s*\|?\s*:?-+:?\s*(?:\|\s*:?-+:?\s*)*\|?\s*")
_HEADER_UNIT = re.compile(r"[(\[]([^()\[\]]{1,40})[)\]]\s*$")
_PIPE = re.compile(r"(?<!\\)\|")


def _line_at(text: str, offset: int) -> tuple[int, str]:
    """Where the line holding `offset` starts, and the line."""
    start = text.rfind("\n", 0, offset) + 1
    end = text.find("\n", offset)
    return start, text[start : len(text) if end < 0 else end]


def _line_before(text: str, start: int) -> tuple[int, str] | None:
    """The line before the one starting at `start`, or None at the top."""
    return _line_at(text, start - 1) if start > 0 else None


def _is_row(line: str) -> bool:
    return line.lstrip().startswith("|")


def _cells(line: str) -> list[str]:
    """A row's cells, without the pipes at its ends (`\\|` is a pipe in a cell)."""
    inner = line.strip()
    inner = inner[1:] if inner.startswith("|") else inner
    inner = inner[:-1] if inner.endswith("|") and not inner.endswith("\\|") else inner
    return [cell.strip() for cell in _PIPE.split(inner)]


def header_unit(text: str, offset: int) -> str | None:
    """The unit the column header above the table cell at `offset` states, or None when
    `offset` is in no body cell of a table, or its header states no readable unit."""
    start, line = _line_at(text, offset)
    if not _is_row(line) or _DELIMITER.fullmatch(line):
        return None
    column = len(_PIPE.findall(line[: offset - start])) - (1 if line.lstrip()[:1] == "|" else 0)
    while (before := _line_before(text, start)) is not None and _is_row(before[1]):
        start, row = before
        if _DELIMITER.fullmatch(row):
            header = _line_before(text, start)
            if header is None or not _is_row(header[1]):
                return None
            return _unit_of(_cells(header[1]), column)
    return None


def _unit_of(cells: list[str], column: int) -> str | None:
    if column >= len(cells):
        return None
    found = _HEADER_UNIT.search(cells[column])
    if found is None:
        return None
    unit = found.group(1).strip()
    spec = parse_unit(unit)
    if not isinstance(spec, UnitSpec) or spec.units is None or spec.kind in (ABSTRACT, UNSPECIFIED):
        return None
    return unit
