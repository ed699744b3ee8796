"""claims/running/dependents.py: an error of a claim others `extends` or use is told once, at that
claim; each claim that needs it says so in one line, naming the claim and where its error is."""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest
from support import EXTENDED_BODY, EXTENDED_CLAIMS, Checked, at, check, write_lesson

MORE = """\
  - id: five
    kind: formula
    extends: four
    quote: "At x = 5, y is 10."
    bind: [x, y]
    params: {values: {x: 5}}
"""
LONG = "`valeus` is not a parameter of kind formula"


@pytest.fixture
def run(tmp_path: Path):
    made = itertools.count()

    def make(claims: str) -> Checked:
        body = EXTENDED_BODY + "\nAt x = 5, y is 10.\n"
        return check(write_lesson(tmp_path, f"probe-{next(made)}", body, claims + MORE))

    return make


def test_the_control_passes(run) -> None:
    assert set(run(EXTENDED_CLAIMS).status().values()) == {"pass"}


@pytest.mark.parametrize(
    ("edit", "says"),
    [
        (("values: {x: 3}", "valeus: {x: 3}"), LONG),
        (("relation: 0}", "relation: 7}"), "equation 0 has 1 relations; no index 7"),
    ],
)
def test_the_error_of_a_base_is_told_once(run, edit, says) -> None:
    result = run(EXTENDED_CLAIMS.replace(*edit, 1))
    own, four, quiz, five = result.found("A404")
    assert own.message.startswith(f"claim double: {says}")
    where = f"whose error is at line {own.line}, column {own.column}"
    assert four.message == f"claim four: not evaluated: it extends claim 'double', {where}"
    assert at(four) == result.claims_at("extends: double", shift=len("extends: "))
    assert quiz.message == f"claim quiz: not evaluated: it uses claim 'double', {where}"
    # five extends four, which extends double: it names its own base, and the origin
    assert five.message == f"claim five: not evaluated: it extends claim 'four', {where}"
    assert sum(says in d.message for d in result.record.diagnostics) == 1
    statuses = {"double": "error", "four": "error", "quiz": "error", "five": "error"}
    assert result.status() == {**statuses, "shape": "pass"}
    assert result.claim("four")["message"] == four.message
    assert result.record.status == "error"


def test_a_variant_that_overrides_the_broken_parameter_has_its_own_outcome(run) -> None:
    """`four` replaces the base's broken `use` (lists replace): it runs, and passes or tells
    an error of its own in full."""
    claims = EXTENDED_CLAIMS.replace("relation: 0}", "relation: 7}", 1)
    fixed = "params: {values: {x: 4}, use: [{equation: 0, relation: 0}]}"
    result = run(claims.replace("params: {values: {x: 4}}", fixed))
    assert result.status()["four"] == "pass"
    assert result.status()["five"] == "pass"  # it extends four, whose `use` is right
    broken = fixed.replace("}]}", "}], usee: []}")
    result = run(claims.replace("params: {values: {x: 4}}", broken))
    four = next(d for d in result.found("A404") if d.message.startswith("claim four"))
    assert four.message.startswith("claim four: `usee` is not a parameter of kind formula")


def test_a_variant_that_writes_the_same_mistake_tells_it_too(run) -> None:
    """The same message, at a parameter `four` wrote itself: fixing the base would not fix it."""
    claims = EXTENDED_CLAIMS.replace("values: {x: 3}", "valeus: {x: 3}", 1)
    claims = claims.replace("params: {values: {x: 4}}", "params: {valeus: {x: 4}}")
    result = run(claims)
    four = next(d for d in result.found("A404") if d.message.startswith("claim four"))
    assert four.message.startswith(f"claim four: {LONG}")
    assert at(four) == result.claims_at("valeus: {x: 4}", shift=len("valeus: "))
