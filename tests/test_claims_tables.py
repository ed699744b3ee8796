"""The unit a markdown table's column header gives its bare cells (claims/prose/tables.py)."""

from __future__ import annotations

import pytest

from atlas_build.claims.prose.tables import header_unit

TEXT = """Intro: 5 W and | not a table | 7 |.

| R (K/W) | q (kW) | N (layers) | G (dB) | L [mm] | plain |
|---|:---:|---|---|---|---|
| 0.025 | 1000 | 3 | 6 | 2 | 9 |
| 0.155 | 161.3 | 4 | 7 | 8 | 10 |

| a (s) |
| 11 |
"""


@pytest.mark.parametrize(
    ("cell", "unit"),
    [
        ("| 0.025", "K/W"),
        ("| 1000", "kW"),
        ("| 161.3", "kW"),
        ("| 2 |", "mm"),
        ("| 8 |", "mm"),
        ("| 3 |", "layers"),  # a counted noun: dimensionless, named in messages
        ("| 6 |", "dB"),  # a level: converts only to itself
        ("| 9 |", None),  # no unit in the header
        ("| 11", None),  # no delimiter row: not a table
        ("5 W", None),
        ("| 7", None),
        ("(K/W)", None),  # the header itself
    ],
)
def test_the_header_unit_of_a_cell(cell: str, unit: str | None) -> None:
    offset = TEXT.index(cell) + (2 if cell.startswith("| ") else 0)
    assert header_unit(TEXT, offset) == unit


def test_escaped_pipes_stay_in_their_cell() -> None:
    text = "| x \\| y (m) | t (s) |\n|---|---|\n| 1 | 2 |\n"
    assert header_unit(text, text.index("| 2") + 2) == "s"
    assert header_unit(text, text.index("| 1") + 2) == "m"
