"""claims/infer/worked.py: a worked computation that writes a relation out with numbers
verifies it by example; one that only looks like it verifies nothing, and none is an error."""

from __future__ import annotations

from typing import Any

AMAT = r"""
## Science and assumptions

$$
\mathrm{AMAT}=t_1+m_1\,P_1
$$

Symbols and units

AMAT

Average memory access time

ns

t\_1

L1 hit time

ns

m\_1

L1 miss rate

dimensionless

P\_1

L1 miss penalty

ns

## Engineering example

A core hits its L1 in 1.2 ns, misses 4% of accesses and pays a 25 ns penalty per miss.
Then AMAT = 1.2 + 0.04 × 25 = 2.2 ns.
"""


def _forms(record: Any) -> list[dict[str, Any]]:
    return [
        claim
        for claim in record.claims
        if claim.get("source") == "inferred" and "is its form" in claim["message"]
    ]


def _errors(record: Any) -> list[str]:
    return [d.code for d in record.diagnostics if d.severity.value == "error"]


def test_a_working_of_the_relation_verifies_it(authored) -> None:
    record = authored(AMAT)
    assert _errors(record) == []
    [form] = _forms(record)
    assert form["status"] == "pass"
    assert "1.2 → t_1" in form["message"]  # the sum's term is told apart
    assert "0.04, 25 → " in form["message"]  # a product's factors are not: listed together
    assert record.coverage["relations"]["verified"] == 1


def test_the_factors_in_another_order_are_the_same_form(authored) -> None:
    record = authored(AMAT.replace("1.2 + 0.04 × 25", "25 × 0.04 + 1.2"))
    assert len(_forms(record)) == 1


def test_wrong_arithmetic_verifies_nothing_and_is_the_arithmetic_checks_error(authored) -> None:
    record = authored(AMAT.replace("= 2.2 ns", "= 2.3 ns"))
    assert _forms(record) == []
    assert record.coverage["relations"]["verified"] == 0
    assert "A430" not in _errors(record) and _errors(record)  # the arithmetic's own code


def test_a_working_that_names_another_quantity_verifies_nothing(authored) -> None:
    body = AMAT.replace(
        "Then AMAT = 1.2 + 0.04 × 25 = 2.2 ns.", "Ten cores use 1.2 + 0.04 × 25 = 2.2 W."
    )
    record = authored(body)
    assert _forms(record) == [] and _errors(record) == []


def test_a_result_in_a_unit_the_symbol_cannot_have_verifies_nothing(authored) -> None:
    record = authored(AMAT.replace("= 2.2 ns.", "= 2.2 W."))
    assert _forms(record) == []


def test_any_product_of_two_numbers_is_not_a_relation_solved_for_a_factor(authored) -> None:
    """`Z = ΔV/ΔI` solved for ΔV is ΔI·Z, the form of every product of two numbers: with
    no units to tell the factors, a product named ΔV verifies nothing."""
    body = r"""
## Science and assumptions

$$
Z=\frac{\Delta V}{\Delta I}
$$

Symbols and units

Z

Target impedance

Ω

ΔV

Allowed voltage ripple

V

ΔI

Load current step

A

## Engineering example

The rail allows ΔV = 0.75 × 0.02 = 0.015.
"""
    record = authored(body)
    assert _forms(record) == [] and _errors(record) == []
