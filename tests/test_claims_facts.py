"""Statuses that follow a claim's facts (claims/running/facts.py): a claim compared with another
claim's quantity proves nothing when that claim did not pass, a claim whose quantity a
passing claim compared passes through it, and only compared quantities count (a claim an
equation names in `check: claim, by:` is not credited by it)."""

from __future__ import annotations

from pathlib import Path

from support import QUIZ_BODY, QUIZ_CLAIMS, check, write_lesson

from atlas_build.claims.running import facts
from atlas_build.claims.running.run import ClaimResult


def _results(**statuses: str) -> dict[str, ClaimResult]:
    return {name: ClaimResult(name, "quiz", status=status) for name, status in statuses.items()}


def test_a_claim_comparing_with_a_failed_claims_quantity_proves_nothing() -> None:
    found = _results(source="fail", reader="pass", other="pass")
    found["reader"].spots = [(3, 4, "verified"), (5, 6, "input")]
    unproved, quiet = facts.settle(list(found.values()), {"reader": {"source.y"}})
    assert unproved == {"reader": "fact source.y comes from claim 'source', which failed"}
    assert found["reader"].status == "unchecked"
    assert found["reader"].message == f"proves nothing: {unproved['reader']}"
    assert found["reader"].spots == [(5, 6, "input")]  # what it bound is not verified
    assert found["other"].status == "pass" and quiet == set()


def test_proving_nothing_follows_a_chain_of_facts() -> None:
    found = _results(source="error", middle="pass", last="pass")
    unproved, _ = facts.settle(
        list(found.values()), {"last": {"middle.fact"}, "middle": {"source.y"}}
    )
    assert unproved["middle"] == "fact source.y comes from claim 'source', which ended in an error"
    assert (
        unproved["last"]
        == "fact middle.fact comes from claim 'middle', which proves nothing itself"
    )
    assert found["middle"].status == found["last"].status == "unchecked"


def test_a_reader_that_proves_nothing_credits_nothing() -> None:
    """`reader` compared with a ratio (`ratio`, checking nothing itself) and with a
    quantity of a failed claim: it proves nothing, so neither does the ratio."""
    found = _results(ratio="unchecked", broken="fail", reader="pass")
    references = {"reader": {"ratio.r", "broken.y"}}
    unproved, quiet = facts.settle(list(found.values()), references)
    assert set(unproved) == {"reader"}
    assert found["ratio"].status == "unchecked"
    assert (
        found["ratio"].message == "checked only through claim 'reader', which proves nothing itself"
    )
    assert quiet == {"ratio"}


def test_a_claim_compared_by_a_passing_claim_passes_through_it() -> None:
    found = _results(ratio="unchecked", reader="pass")
    unproved, quiet = facts.settle(list(found.values()), {"reader": {"ratio.r"}})
    assert (unproved, quiet) == ({}, set())
    assert found["ratio"].status == "pass"
    assert found["ratio"].message == "checked through claim 'reader'"


def test_a_quiz_reading_a_quiz_whose_fact_failed_names_the_chain(tmp_path: Path) -> None:
    body = QUIZ_BODY.replace("the output is y = 6.", "the output is y = 7.")
    again = (
        "  - id: quiz-again\n    kind: quiz\n    params: {question: What is y, fact: quiz.fact}\n"
    )
    result = check(write_lesson(tmp_path, "probe", body, QUIZ_CLAIMS + again))
    statuses = {claim["id"]: claim["status"] for claim in result.record.claims}
    assert statuses == {"double": "fail", "quiz": "unchecked", "quiz-again": "unchecked"}
    [item] = result.record.coverage["quizzes"]["items"]
    assert item["status"] == "unverified"
    assert item["reason"] == (
        "fact double.y comes from claim 'double', which failed; "
        "fact quiz.fact comes from claim 'quiz', which proves nothing itself"
    )


BY_CLAIM = (
    "## Science and assumptions\n\n$$\nd=v t\n$$\n\n$$\nv=\\frac{d}{t},\\qquad "
    "t=\\frac{d}{2 v}\n$$\n\nWith v = 3 and t = 2 the distance is d = 6.\n"
)
INPUTS_ONLY = """
claims:
  - id: worked
    kind: formula
    quote: "With v = 3 and t = 2 the distance is d = 6."
    bind: [v, t, d]
    params:
      values: {v: 3, t: 2}
      use: [{equation: 0, relation: 0}]
  - id: inputs-only
    kind: formula
    params:
      values: {v: 3, d: 6}
      use: [{equation: 1, relation: 1}]
  - id: rel
    kind: equation
    params:
      equation: 1
      use: [{equation: 0, relation: 0}]
      relations:
        - {relation: 0, check: derive}
        - {relation: 1, check: claim, by: inputs-only}
"""


def test_a_claim_named_by_an_equation_is_not_credited_by_it(tmp_path: Path) -> None:
    """`t = d/(2v)` is wrong (d/(2v) is 1, t is 2) and nothing compares it: the equation
    claim only names `inputs-only`, which binds nothing. It used to pass "through" `rel`
    and the wrong relation read verified, in a lesson that read verified."""
    result = check(write_lesson(tmp_path, "probe", BY_CLAIM, INPUTS_ONLY))
    statuses = {claim["id"]: claim["status"] for claim in result.record.claims}
    assert statuses == {"worked": "pass", "inputs-only": "unchecked", "rel": "pass"}
    [finding] = [d for d in result.record.diagnostics if d.code == "A414"]
    assert finding.message.startswith("claim inputs-only: ran no check")
    items = result.record.coverage["relations"]["items"]
    assert [(item["source"], item["status"]) for item in items] == [
        ("d=v t", "verified"),
        ("v=\\frac{d}{t}", "verified"),
        ("t=\\frac{d}{2 v}", "defined"),
    ]
    assert result.record.coverage["verification"] == "partial"
