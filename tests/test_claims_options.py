"""The author's options on a bind (claims/options.py): a `unit` the symbol table
contradicts is refused, and a `tolerance` looser than the written digits is told."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_claims_kinds import Checked, at, check, write_lesson, yaml_string

OHM = """
## Science and assumptions

### Ohm

$$
V=I\\cdot R
$$

Symbols and units

V

Voltage across the resistor

{unit}

I

Current through it

A

R

Resistance

Ω

{sentence}

## Check your understanding

### What is the drop across the resistor?

1. 6 mV
2. {option}
3. 5 V

Answer and reasoning

{option}

Ohm's law multiplies them.
"""


def _ohm(
    tmp_path: Path,
    drop: str,
    bound: str = "V",
    table: str = "V",
    quiz: str = "",
    option: str = "6 V",
    extra: str = "",
) -> Checked:
    sentence = f"With I = 2 A and R = 3 Ω the drop is V = {drop}."
    claims = f"""
claims:
  - id: ohm
    kind: formula
    quote: {yaml_string(sentence)}
    bind: [I, R, {bound}]{extra}
    params:
      values: {{I: 2, R: 3}}
      use: [{{equation: 0, relation: 0}}]
  - id: drop
    kind: quiz
    params: {{question: "What is the drop", fact: ohm.V{quiz}}}
"""
    body = OHM.format(unit=table, sentence=sentence, option=option)
    return check(write_lesson(tmp_path, "ohm", body, claims))


# --- a bind's unit against the symbol table ----------------------------------------------


@pytest.mark.parametrize(
    ("unit", "drop", "how"),
    [
        ("mV", "6 mV", "1 mV is 1/1000 = 0.001 V"),
        ("kV", "6 kV", "1 kV is 1000 V"),
        ("A", "6 A", "another dimension"),
    ],
)
def test_a_bind_unit_the_table_contradicts_is_an_error_at_the_unit(
    tmp_path: Path, unit: str, drop: str, how: str
) -> None:
    """V is in V in the table and the claim computes 6 V; `{value: V, unit: mV}` compared
    the lesson's `6 mV` as if the 6 were in mV and verified it, silently."""
    result = _ohm(tmp_path, drop, bound=f"{{value: V, unit: {unit}}}")
    assert result.status()["ohm"] == "error"
    [error] = result.found("A404")
    assert f"the bind gives V the unit {unit}, but the symbol table gives V in V" in error.message
    assert how in error.message
    assert at(error) == result.claims_at(f"unit: {unit}", shift=len("unit: "))
    assert result.found("A401") == []  # the number is not compared in a refused unit
    assert result.record.coverage["numbers"]["failed"] == 1
    assert result.record.coverage["verification"] == "failed"


@pytest.mark.parametrize(("unit", "table"), [("V", "V"), ("volt", "V"), ("B", "bytes")])
def test_a_bind_unit_that_is_the_tables_in_other_words_is_fine(
    tmp_path: Path, unit: str, table: str
) -> None:
    drop = "6 V" if table == "V" else "6 B"
    result = _ohm(tmp_path, drop, bound=f"{{value: V, unit: {unit}}}", table=table)
    assert result.found("A404") == []


def test_a_pure_number_whose_table_unit_names_the_binds_unit_is_fine(tmp_path: Path) -> None:
    """`dimensionless (bits)` for an entropy and `unit: bits` in the bind say one thing (the
    cross-entropy lesson binds its loss in bits so)."""
    result = _ohm(tmp_path, "6 bits", bound="{value: V, unit: bits}", table="dimensionless (bits)")
    assert result.found("A404") == []
    assert result.status()["ohm"] == "pass"


def test_a_quiz_unit_the_table_contradicts_is_an_error(tmp_path: Path) -> None:
    """The quiz's `unit` replaced the table's unit of its fact the same way: `6 mV`
    answered a drop of 6 V."""
    result = _ohm(tmp_path, "6 V", quiz=", unit: mV", option="6 mV")
    assert result.status()["drop"] == "error"
    [error] = result.found("A404")
    assert "the quiz gives V the unit mV, but the symbol table gives V in V" in error.message
    assert at(error) == result.claims_at("unit: mV", shift=len("unit: "))
    assert _ohm(tmp_path / "same", "6 V", quiz=", unit: V").status()["drop"] == "pass"
