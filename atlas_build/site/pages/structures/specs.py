"""Specifications and interfaces: runs of label / value / context paragraphs as tables.

Rows the lesson model read are grouped while their parts follow one another in the same
subsection; interface rows (a label ending in its role, `Representations Input`) get a
role column instead of a context column.
"""

from __future__ import annotations

import re

from atlas_build.lesson.model import Specification
from atlas_build.site.pages.structures.parts import Parts, Replacement, consecutive, scroll_box

_ROLE = re.compile(r"(?P<name>.*\S)\s+(?P<role>[A-Za-z]+)", re.DOTALL)
_ROLES = frozenset({"input", "inputs", "output", "outputs"})


def _cells(row: Specification, parts: Parts) -> tuple[list[int], list[str]] | None:
    offsets = [row.offset, row.value_offset]
    if row.context_offset is not None:
        offsets.append(row.context_offset)
    found = consecutive([parts.at(offset) for offset in offsets])
    if found is None:
        return None
    cells = [parts.inner(index) for index in found]
    if any(cell is None for cell in cells):
        return None
    return found, [cell or "" for cell in cells]


def _interface(label: str, role: str) -> tuple[str, str]:
    match = _ROLE.fullmatch(label)
    if match and match["role"].casefold() in _ROLES:
        return match["name"], match["role"]
    return label, role.capitalize()


def _table(rows: list[tuple[Specification, list[str]]]) -> str:
    if all(row.role for row, _ in rows):
        headers = ["Interface", "Role", "Value"]
        body = []
        for row, cells in rows:
            name, role = _interface(cells[0], row.role)
            body.append([name, role, cells[1]])
    else:
        with_context = any(len(cells) > 2 for _, cells in rows)
        headers = ["Specification", "Value"] + (["Context"] if with_context else [])
        body = [cells + [""] * (len(headers) - len(cells)) for _, cells in rows]
    head = "".join(f'<th scope="col">{name}</th>' for name in headers)
    lines = [
        f'<tr><th scope="row">{cells[0]}</th>' + "".join(f"<td>{c}</td>" for c in cells[1:])
        + "</tr>"
        for cells in body
    ]  # fmt: skip
    return f"<table><thead><tr>{head}</tr></thead><tbody>{''.join(lines)}</tbody></table>"


def tables(rows: list[Specification], parts: Parts) -> list[Replacement]:
    """One table per run of rows that follow one another in the same subsection."""
    runs: list[tuple[int, int, list[tuple[Specification, list[str]]]]] = []
    for row in rows:
        found = _cells(row, parts)
        if found is None:
            continue
        indices, cells = found
        run = runs[-1] if runs else None
        if run is not None and run[1] + 1 == indices[0] and run[2][-1][0].group == row.group:
            runs[-1] = (run[0], indices[-1], run[2] + [(row, cells)])
        else:
            runs.append((indices[0], indices[-1], [(row, cells)]))
    out = []
    for first, last, members in runs:
        label = members[0][0].group or members[0][0].section
        out.append(Replacement(first, last, scroll_box(_table(members), "atlas-specs", label)))
    return out
