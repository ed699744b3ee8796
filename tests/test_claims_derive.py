"""The `equation` kind's derivations and samples (claims/kinds/_derive.py, equation.py).

Sums equal up to the name of their dummy index and by linearity, a `\\sigma^2 = ...`
definition, definitions keyed by the symbol as written (`sigma` or `\\sigma`), samples
through indexed definitions, and library failures reported at the relation.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import sympy
from support import Checked, check, write_lesson

from atlas_build.claims.kinds import _derive


def _check(tmp_path: Path, latex: str, relations: str, extra: str = "") -> Checked:
    body = f"## Science and assumptions\n\n$$\n{latex}\n$$\n\nA relation.\n"
    claims = f"""
claims:
  - id: rel
    kind: equation
    params:
      equation: 0
      indices: [i, j, k, m]
{extra}      relations: {relations}
"""
    return check(write_lesson(tmp_path, "probe", body, claims))


def test_sums_are_equal_up_to_the_name_of_their_index(tmp_path: Path) -> None:
    result = _check(
        tmp_path, "\\sum_{i=1}^{n}x_i=\\sum_{j=1}^{n}x_j", "[{relation: 0, check: derive}]"
    )
    assert result.status() == {"rel": "pass"}, result.record.claims


def test_sums_split_by_linearity(tmp_path: Path) -> None:
    latex = "\\sum_{i=1}^{n}\\left(a x_i+y_i\\right)=a\\sum_{j=1}^{n}x_j+\\sum_{k=1}^{n}y_k"
    result = _check(tmp_path, latex, "[{relation: 0, check: derive}]")
    assert result.status() == {"rel": "pass"}, result.record.claims
    wrong = _check(
        tmp_path / "w", latex.replace("a\\sum", "2a\\sum"), "[{relation: 0, check: derive}]"
    )
    assert wrong.status() == {"rel": "fail"}


@pytest.mark.parametrize("key", ["sigma", "\\\\sigma"])
def test_definitions_keyed_by_the_symbol_as_written(tmp_path: Path, key: str) -> None:
    extra = f'      definitions: {{"{key}": "\\\\sqrt{{v}}"}}\n'
    result = _check(tmp_path, "\\sigma^2=v", "[{relation: 0, check: derive}]", extra)
    assert result.status() == {"rel": "pass"}, result.record.claims


def test_a_power_on_the_left_is_a_definition(tmp_path: Path) -> None:
    latex = "\\sigma^2=\\frac{1}{n}\\sum_{i=1}^{n}x_i^2-\\mu^2,\\qquad \\sigma=\\sqrt{\\sigma^2}"
    relations = "[{relation: 0, check: definition}, {relation: 1, check: derive}]"
    result = _check(tmp_path, latex, relations)
    assert result.status() == {"rel": "pass"}, result.record.claims
    rule = _derive.rule(sympy.Symbol("s") ** 2, sympy.Symbol("v"), "s^2")
    assert rule.kind == "power" and rule.index == 2


def test_samples_go_through_indexed_definitions(tmp_path: Path) -> None:
    latex = "a_k=\\frac{e^{s_k}}{\\sum_{m=1}^{n}e^{s_m}},\\qquad \\sum_{k=1}^{n}a_k=1"
    extra = "      sizes: {n: 5}\n      inputs: {s: [n]}\n"
    relations = "[{relation: 0, check: definition}, {relation: 1, check: sample}]"
    result = _check(tmp_path, latex, relations, extra)
    assert result.status() == {"rel": "pass"}, result.record.claims


def test_a_library_failure_is_located_at_the_relation(tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    def stop(*args: object, **kwargs: object) -> object:
        raise StopIteration

    monkeypatch.setattr(_derive, "derive", stop)
    from atlas_build.claims.kinds import equation

    monkeypatch.setattr(equation, "derive", stop)
    result = _check(tmp_path, "y=2x", "[{relation: 0, check: derive}]")
    [problem] = result.found("A404")
    assert "relation 0 `y=2x`: SymPy could not finish (StopIteration)" in problem.message
    assert (problem.line, problem.column) == result.lesson_at("y=2x")


def _by_claim(tmp_path: Path, other: str) -> Checked:
    body = (
        "## Science and assumptions\n\n$$\nd=v t\n$$\n\n$$\nv=\\frac{d}{t},\\qquad "
        "t=\\frac{d}{2 v}\n$$\n\nWith v = 3 and t = 2 the distance is d = 6.\n"
    )
    claims = f"""
claims:
  - id: worked
    kind: formula
    quote: "With v = 3 and t = 2 the distance is d = 6."
    bind: [v, t, d]
    params:
      values: {{v: 3, t: 2}}
      use: [{{equation: 0, relation: 0}}]
{other}
  - id: rel
    kind: equation
    params:
      equation: 1
      use: [{{equation: 0, relation: 0}}]
      relations:
        - {{relation: 0, check: derive}}
        - {{relation: 1, check: claim, by: worked}}
"""
    return check(write_lesson(tmp_path, "probe", body, claims))


def test_a_relation_left_to_a_claim_that_never_checks_it_is_an_error(tmp_path: Path) -> None:
    result = _by_claim(tmp_path, "")
    [error] = result.found("A404")
    assert "claim 'worked' does not check this relation" in error.message
    statuses = [r["status"] for r in result.record.coverage["relations"]["items"]]
    assert statuses[2] != "verified" and result.record.coverage["verification"] == "failed"


def test_a_relation_left_to_a_claim_that_checks_it_follows_that_claim(tmp_path: Path) -> None:
    result = _by_claim(tmp_path, "      identities: [{equation: 1, relation: 1}]")
    [failed] = result.found("A401") or result.found("A403") or [None]
    assert failed is not None  # t = d/(2v) at v = 3, d = 6 gives 1, not 2: the claim fails
    assert result.found("A404") == []
    statuses = [r["status"] for r in result.record.coverage["relations"]["items"]]
    assert statuses[2] == "failed"
