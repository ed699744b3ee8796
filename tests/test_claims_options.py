"""The author's options on a bind (claims/binding/options.py): a `unit` the symbol table
contradicts is refused, and a `tolerance` looser than the written digits is told."""

from __future__ import annotations

from pathlib import Path

import pytest
from support import Checked, at, check, write_lesson, yaml_string

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


# --- a tolerance looser than the written digits ------------------------------------------


def test_a_tolerance_as_large_as_the_number_is_told_and_proves_nothing(tmp_path: Path) -> None:
    """`tolerance: 10` passed any drop from -4 V to 16 V for the computed 6 V, silently:
    `V = 9 V` read verified."""
    result = _ohm(tmp_path, "9 V", extra="\n    tolerance: 10")
    [warning] = result.found("A416")
    assert warning.severity.value == "warning"
    assert at(warning) == result.claims_at("tolerance: 10", shift=len("tolerance: "))
    assert "tolerance 10 is looser than the digits" in warning.message
    assert "9 V (its digits allow ±0.5; 10 is as large as the number itself)" in warning.message
    assert "9 V agrees only within it, so it is not counted as verified" in warning.message
    assert result.errors() == []
    [value] = [v for v in result.claim("ohm")["values"] if v["name"] == "V"]
    assert value["ok"] is False
    [unaccounted] = result.record.coverage["numbers"]["unaccountedAt"]
    assert unaccounted["text"] == "9 V" and unaccounted["column"] == result.lesson_at("9 V")[1]
    assert result.record.coverage["verification"] == "partial"


def test_a_bind_tolerance_looser_than_the_digits_is_told_at_the_bind(tmp_path: Path) -> None:
    result = _ohm(tmp_path, "6.3 V", bound="{value: V, tolerance: 0.5}")
    [warning] = result.found("A416")
    assert at(warning) == result.claims_at("tolerance: 0.5", shift=len("tolerance: "))
    assert "6.3 V (its digits allow ±0.05)" in warning.message
    assert "6.3 V agrees only within it" in warning.message
    assert result.record.coverage["verification"] == "partial"
    [value] = [v for v in result.claim("ohm")["values"] if v["name"] == "V"]
    assert value["ok"] is False


def test_a_default_tolerance_is_told_at_the_defaults(tmp_path: Path) -> None:
    folder = tmp_path / "ohm"
    _ohm(tmp_path, "6 V")
    claims = folder / "claims.yaml"
    claims.write_text("defaults: {tolerance: 2}\n" + claims.read_text("utf-8"), "utf-8")
    result = check(folder)
    [warning] = result.found("A416")
    assert at(warning) == result.claims_at("tolerance: 2", shift=len("tolerance: "))


def test_a_loose_tolerance_on_numbers_right_to_their_digits_is_told_and_verified(
    tmp_path: Path,
) -> None:
    result = _ohm(tmp_path, "6 V", extra="\n    tolerance: 1")
    [warning] = result.found("A416")
    assert "6 V (its digits allow ±0.5)" in warning.message
    assert "2 A" in warning.message and "not counted" not in warning.message
    assert result.record.coverage["verification"] == "verified"


@pytest.mark.parametrize(("drop", "tolerance"), [("6.3 V", "0.05"), ("6 V", "0.5"), ("6 V", "0")])
def test_a_tolerance_within_the_digits_is_not_told(
    tmp_path: Path, drop: str, tolerance: str
) -> None:
    """0.5 on `6` (0.05 on `6.3`) is half a unit in its last digit, the default rule's
    own tolerance; `6.3 V` then fails (0.3 off), as it would without it."""
    result = _ohm(tmp_path, drop, bound=f"{{value: V, tolerance: {tolerance}}}")
    assert result.found("A416") == []
    assert result.status()["ohm"] == ("fail" if drop == "6.3 V" else "pass")


@pytest.mark.parametrize("tolerance", ['"50%"', '"5 %"', '"0.5 V"'])
def test_a_tolerance_with_a_unit_is_refused(tmp_path: Path, tolerance: str) -> None:
    """`tolerance: "50%"` was read as an absolute 50 (the number reader records units and
    does not apply them), so `V = 9 V` passed for 6 V."""
    result = _ohm(tmp_path, "9 V", extra=f"\n    tolerance: {tolerance}")
    assert result.status()["ohm"] == "error"
    [error] = result.found("A404")
    assert "has a unit: a tolerance is absolute" in error.message
