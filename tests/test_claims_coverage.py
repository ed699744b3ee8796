"""What coverage counts as proved (claims/coverage/verification.py, claims/binding/bind.py):
a relation is verified only through a check that passed, and a problem of the claims file
is one finding however many places its quote is found at.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from support import OHM_BODY, Checked, at, check, write_lesson

OHM = OHM_BODY

OHM_CLAIMS = """
claims:
  - id: ohm
    kind: formula
    quote: "With I = 2 A and R = 3 Ω the drop is V = {drop}."
    bind: [I, R, V]
    params:
      values: {{I: 2, R: 3}}
      use: [{{equation: 0, relation: 0}}]
"""


def _ohm(tmp_path: Path, drop: str) -> Checked:
    return check(write_lesson(tmp_path, "ohm", OHM.format(drop=drop), OHM_CLAIMS.format(drop=drop)))


def _relation(result: Checked) -> tuple[str, list[str]]:
    [item] = result.record.coverage["relations"]["items"]
    return item["status"], item["claims"]


def test_a_relation_is_verified_by_a_number_computed_from_it_that_proves_it(
    tmp_path: Path,
) -> None:
    """V has no table entry, so the claim works it out in A·Ω: 6 V converts and is proved."""
    result = _ohm(tmp_path, "6 V")
    assert result.status() == {"ohm": "pass"}
    assert _relation(result) == ("verified", ["ohm"])


@pytest.mark.parametrize("drop", ["6 mV", "7 V"])
def test_a_relation_is_not_verified_by_a_number_that_proves_nothing(
    tmp_path: Path, drop: str
) -> None:
    """`6 mV` agrees with the computed 6 (A·Ω) only as a bare number (A423): the claim
    proves no number and its value is not ok, so the relation it uses as a definition is
    not verified either (it read verified, beside a claim none of whose values passed).
    `7 V` is plainly wrong: the relation fails at it."""
    result = _ohm(tmp_path, drop)
    [value] = [v for v in result.claim("ohm")["values"] if v["name"] == "V"]
    assert value["ok"] is False
    if drop == "6 mV":
        assert result.status() == {"ohm": "unchecked"}
        assert at(result.found("A423")[0]) == result.lesson_at(drop)
        assert _relation(result) == ("defined", ["ohm"])
        assert result.record.coverage["verification"] != "verified"
    else:
        assert result.status() == {"ohm": "fail"}
        assert _relation(result)[0] == "failed"


TWICE = """
## Science and assumptions

$$
y=2\\cdot x
$$

First, with x = 3 the output is y = {first}.

Again, with x = 3 the output is y = {second}.
"""

TWICE_CLAIMS = """
claims:
  - id: double
    kind: formula
    quote: "with x = 3 the output is y = 6."
    occurrences: 2
    bind: [x, {bound}]
    params: {{values: {{x: 3}}, use: [{{equation: 0, relation: 0}}]}}
"""


def _twice(tmp_path: Path, bound: str = "y", first: str = "6", second: str = "6") -> Checked:
    body = TWICE.format(first=first, second=second)
    return check(write_lesson(tmp_path, "twice", body, TWICE_CLAIMS.format(bound=bound)))


def test_a_quote_found_twice_checks_both_places(tmp_path: Path) -> None:
    result = _twice(tmp_path)
    assert result.status() == {"double": "pass"}
    assert result.record.coverage["numbers"]["verified"] == 2


def test_a_number_edited_at_one_of_two_places_fails_there(tmp_path: Path) -> None:
    """The quote fits both sentences as slots; the edited one fails at its number."""
    result = _twice(tmp_path, second="7")
    assert result.status() == {"double": "fail"}
    [mismatch] = result.found("A401")
    assert at(mismatch) == result.lesson_at("y = 7", shift=4)


def test_a_bind_naming_no_quantity_is_one_finding_for_two_occurrences(tmp_path: Path) -> None:
    """`bind: [x, z]` is one mistake of the claims file: one A404 at `bind`, not one per
    place the quote is found at (it was printed twice for `occurrences: 2`)."""
    result = _twice(tmp_path, bound="z")
    assert result.status() == {"double": "error"}
    [problem] = result.found("A404")
    assert "no quantity 'z'" in problem.message
    assert at(problem) == result.claims_at("bind: ", shift=6)
    assert result.claim("double")["message"] == problem.message
