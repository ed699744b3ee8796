"""Relations stated in inline math (claims/coverage/inline.py): counted, dimension-checked, listed
or left open, and never read as proved."""

from __future__ import annotations

from pathlib import Path

import pytest
from support import Checked, check, write_lesson

from atlas_build.claims.binding import anchors
from atlas_build.claims.coverage import inline
from atlas_build.lesson import build as build_lesson
from atlas_build.report import coverage as words

BODY = """
## Science and assumptions

### Ohm

$$
V=I\\cdot R
$$

Symbols and units

V

Voltage

V

I

Current

A

R

Resistance

Ω

With I = 2 A and R = 3 Ω the drop is V = 6 V. {aside}
"""
CLAIMS = """
claims:
  - id: ohm
    kind: formula
    quote: "With I = 2 A and R = 3 Ω the drop is V = 6 V."
    bind: [I, R, V]
    params: {values: {I: 2, R: 3}, use: [{equation: 0, relation: 0}]}
"""


def _lesson(tmp_path: Path, aside: str, listed: str = "") -> Checked:
    return check(write_lesson(tmp_path, "ohm", BODY.replace("{aside}", aside), listed + CLAIMS))


@pytest.mark.parametrize(
    ("text", "symbolic"),
    [
        ("$g_m = I_D/V_{ov}$", True),
        ("$I_D \\propto V_{ov}^3$", True),  # the 3 is a superscript, not a stated number
        ("$x_1 \\le y$", True),
        ("$f_c \\approx 1600\\,\\mathrm{Hz}$", False),  # states a number: prose
        ("$a = 2b$", True),  # both sides hold symbols: a relation, with a coefficient
        ("$Q = 2 n \\Delta T$", True),
        ("$P = n R T^2/V \\approx 99.15\\,\\mathrm{kPa}$", True),  # a relation, then a value
        ("$T = 300\\,\\mathrm{K}$", False),
        ("$d_k$", False),  # no relation
    ],
)
def test_which_inline_math_relates_symbols(text: str, symbolic: bool) -> None:
    [math] = build_lesson(f"Here {text} holds.\n").inline_math
    assert inline.symbolic(math) is symbolic


def test_an_inline_relation_is_never_proved(tmp_path: Path) -> None:
    result = _lesson(tmp_path, "Equivalently, $I = V/R$.")
    [finding] = result.found("A413")
    assert finding.severity.value == "warning"
    assert (finding.line, finding.column) == result.lesson_at("I = V/R")
    stated = result.record.coverage["inline"]
    assert (stated["total"], stated["unverified"]) == (1, 1)
    assert stated["items"][0]["dimensions"]["status"] == "consistent"
    assert result.record.coverage["verification"] == "partial"
    assert "1 inline relation not checked" in (words.sentence(result.record.coverage) or "")


def test_a_listed_inline_relation_keeps_its_reason(tmp_path: Path) -> None:
    listed = 'unchecked:\n  - {inline: "I = V/R", reason: "Ohm again, rearranged"}\n'
    result = _lesson(tmp_path, "Equivalently, $I = V/R$.", listed)
    assert not result.found("A413")
    [item] = result.record.coverage["inline"]["items"]
    assert (item["status"], item["reason"]) == ("unchecked", "Ohm again, rearranged")
    assert result.record.coverage["verification"] == "verified"
    missing = _lesson(tmp_path / "missing", "No aside.", listed)
    [finding] = missing.found("A400")
    assert finding.pointer == "/unchecked/0/inline"
    edited = _lesson(tmp_path / "edited", "Equivalently, $I = V/R^2$.", listed)
    assert edited.found("A400") and edited.found("A413")  # the listed one is gone
    assert edited.record.coverage["verification"] != "verified"


def test_an_inline_relation_with_wrong_dimensions_is_an_error(tmp_path: Path) -> None:
    result = _lesson(tmp_path, "Equivalently, $I = V \\cdot R$.")
    [finding] = result.found("A420")
    assert finding.severity.value == "error"
    assert "dimensions disagree: left side A, right side Ω·V" in finding.message


def test_a_relation_that_also_states_a_number_is_checked_as_a_relation(tmp_path: Path) -> None:
    result = _lesson(tmp_path, "Equivalently, $I = V \\cdot R = 18$.")
    assert result.found("A413") and result.found("A420")


def test_numbers_in_inline_scripts_are_not_quote_slots() -> None:
    text = "Here $P = n R T^2/V \\approx 99.15\\,\\mathrm{kPa}$ and $x_{10} = 4$ cost \\$5."
    assert [item.text for item in anchors.skeleton(text).items] == [
        "99.15\\,\\mathrm{kPa}",
        "4",
        "5",
    ]


@pytest.mark.parametrize(
    ("formula", "wrong"),
    [
        ("$G = 20\\log_{10}(50) \\approx 33.98$", False),
        ("$G = \\log_{10}(50) \\approx 33.98$", True),  # 1.69897: the 20 was dropped
        ("$\\sqrt{2} \\approx 1.414$", False),
        ("$\\sqrt{2} \\approx 1.42$", True),  # half a unit in the last digit is 0.005
        ("$2^{30}/10^{9} \\approx 1.074$", False),  # plain arithmetic prose cannot read
        ("$2^{30}/10^{9} \\approx 1.047$", True),
        ("$\\frac{3}{4} \\cdot 2 = 1.5$", False),
    ],
)
def test_inline_math_that_computes_a_number_is_evaluated(
    tmp_path: Path, formula: str, wrong: bool
) -> None:
    result = _lesson(tmp_path, f"Also {formula}.")
    found = result.found("A408")
    assert bool(found) is wrong
    if wrong:
        assert found[0].line == result.lesson_at("Also $")[0]
        assert "it computes" in found[0].message and "left side" not in found[0].message
        assert result.record.coverage["numbers"]["failed"] == 1
        assert result.record.coverage["verification"] == "failed"


def test_inline_math_that_computes_its_number_right_verifies_that_number(tmp_path: Path) -> None:
    result = _lesson(tmp_path, "Also $\\sqrt{2} \\approx 1.414$.")
    unaccounted = [n["text"] for n in result.record.coverage["numbers"]["unaccountedAt"]]
    assert "1.414" not in unaccounted and result.found("A408") == []
    assert "2" in unaccounted  # an operand is not proved by the result, as in prose arithmetic
