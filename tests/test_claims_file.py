"""claims/running/file.py: a schema violation or a repeated id costs only its entry. The entry is an
A400 at its place, and every other claim is still run and reported, the lesson failing."""

from __future__ import annotations

from pathlib import Path

import pytest
from support import EXTENDED_BODY, EXTENDED_CLAIMS, Checked, at, check, write_lesson

from atlas_build.claims.running import file

ALL_PASS = {"double": "pass", "four": "pass", "quiz": "pass", "shape": "pass"}


@pytest.fixture
def run(tmp_path: Path):
    def make(claims: str, body: str = EXTENDED_BODY) -> Checked:
        return check(write_lesson(tmp_path, "probe", body, claims))

    return make


def test_the_control_passes(run) -> None:
    result = run(EXTENDED_CLAIMS)
    assert result.status() == ALL_PASS and result.errors() == []


@pytest.mark.parametrize(
    ("edit", "needle", "says"),
    [
        (("  - id: shape\n", "  - id: four\n"), "four\n    kind: shape", "used twice"),
        (("    kind: shape\n", ""), "- id: shape", "'kind' is a required property"),
        (("    kind: shape\n", "    kind: shape\n    colour: red\n"), "colour", "'colour'"),
        (("tensor: scores}", "tensor: scores}\n    occurrences: 0"), "0\n", "minimum"),
    ],
)
def test_a_bad_entry_costs_only_itself(run, edit, needle, says) -> None:
    result = run(EXTENDED_CLAIMS.replace(*edit))
    [problem] = result.found("A400")
    assert says in problem.message
    line, column = result.claims_at(needle)
    assert at(problem) == (line, column + (2 if needle.startswith("- ") else 0))
    others = {"double": "pass", "four": "pass", "quiz": "pass"}
    assert {k: v for k, v in result.status().items() if k in others} == others
    assert result.record.status == "error"  # an error is an error: the lesson fails
    if "twice" not in says:  # the entry is listed, not run; a repeated id is the other's
        assert result.claim("shape")["status"] == "error"
        assert result.claim("shape")["message"] == f"not run: {problem.message}"
        assert result.record.coverage["verification"] == "failed"


def test_a_wrong_number_beside_a_bad_entry_is_still_found(run) -> None:
    broken = EXTENDED_CLAIMS.replace("    kind: shape\n", "").replace("y = 8.", "y = 9.")
    result = run(broken, EXTENDED_BODY.replace("y = 8.", "y = 9."))
    assert [d.code for d in result.errors()] == ["A400", "A401"]
    [wrong] = result.found("A401")
    assert at(wrong) == result.lesson_at("y = 9", shift=4)


def test_a_claim_that_extends_or_uses_a_bad_entry_says_so_in_a_line(run) -> None:
    result = run(
        EXTENDED_CLAIMS.replace("  - id: double\n    kind: formula\n", "  - id: double\n", 1)
    )
    [problem] = result.found("A400")
    assert at(problem) == result.claims_at("- id: double", shift=2)
    four, quiz = result.found("A404")
    where = f"line {problem.line}, column {problem.column}"
    assert (
        four.message
        == f"claim four: not evaluated: it extends claim 'double', whose error is at {where}"
    )
    assert at(four) == result.claims_at("extends: double", shift=len("extends: "))
    assert (
        quiz.message
        == f"claim quiz: not evaluated: it uses claim 'double', whose error is at {where}"
    )
    assert result.status() == {"double": "error", "four": "error", "quiz": "error", "shape": "pass"}


@pytest.mark.parametrize(
    ("head", "says"),
    [
        ("unchecked:\n  - {equation: 0, reason: ab}\n", "short"),
        ("defaults: {timeout: -1}\n", "minimum"),
        ("unchecked: {equation: 0}\n", "not of type 'array'"),
        ("defaults: 20\n", "not of type 'object'"),
        ("defaults: {timout: 20}\n", "'timout'"),
        ("colour: red\n", "'colour'"),
        ("lesson: 7\n", "not of type"),
    ],
)
def test_a_bad_entry_outside_the_claims_is_left_out(run, head, says) -> None:
    result = run(head + EXTENDED_CLAIMS)
    [problem] = result.found("A400")
    assert says in problem.message
    assert result.status() == ALL_PASS


@pytest.mark.parametrize(
    "claims",
    [
        "claim:\n  - id: x\n",  # no `claims` list
        "claims: {id: x}\n",
        "claims:\n" + "  - {id: a, kind: quiz, colour: 1}\n" * 101,  # over the cap
    ],
)
def test_a_file_with_nothing_to_run_runs_nothing(run, claims) -> None:
    result = run(claims)
    assert result.found("A400") and result.record.claims == []


def test_read_says_which_entries_are_left_out(tmp_path: Path) -> None:
    path = tmp_path / "claims.yaml"
    path.write_text(
        "defaults: {timeout: -1, tolerance: 0.1}\n"
        "unchecked:\n  - {equation: 0, reason: fine}\n  - {equation: 1}\n"
        "claims:\n  - {id: a, kind: quiz}\n  - {id: b}\n  - {id: a, kind: shape}\n"
        "  - {kind: quiz}\n",
        encoding="utf-8",
    )
    found, problems = file.read(str(path))
    assert found is not None and len(problems) == 5
    assert sorted(found.broken) == [1, 2, 3]
    assert [index for index, _ in found.claims] == [0]
    assert [index for index, _ in found.unchecked] == [0]
    assert found.defaults == {"tolerance": 0.1}
    assert found.invalid == {"b": 1}  # `a` runs (the first); the entry without id has none
