"""Dimension-breaking mutants of real relations, and that `check` catches every one."""

from __future__ import annotations

import pytest
import sympy as sp

from atlas_build.units import (
    ADD_TERM,
    DROP_DIVISOR,
    SQUARE_FACTOR,
    Mutant,
    UnitSpec,
    check,
    errors,
    mutants,
    units_from_glossary,
)


def units(*pairs: tuple[str, str]) -> dict[str, UnitSpec]:
    built = units_from_glossary(pairs)
    assert not built.problems
    return built.units


DEVICE = units(
    ("V_T", "V"), ("V_bi", "V"), ("k_B", "J/K"), ("T", "K"), ("q", "C"),
    ("N_A", "cm⁻³"), ("N_D", "cm⁻³"), ("n_i", "cm⁻³"),
)  # fmt: skip
CIRCUIT = units(("P", "W"), ("α", "dimensionless"), ("C", "F"), ("V", "V"), ("f", "GHz"))
ROOFLINE = units(("P", "TFLOP/s"), ("π", "TFLOP/s"), ("I", "FLOPs/byte"), ("β", "TB/s"))
V_T, V_bi, k_B, T, q, N_A, N_D, n_i = sp.symbols("V_T V_bi k_B T q N_A N_D n_i")
P, alpha, C, V, f, pi_, I_, beta = sp.symbols("P alpha C V f pi I beta")

RELATIONS = {
    "thermal voltage": (V_T, k_B * T / q, DEVICE),
    "built-in potential": (V_bi, k_B * T / q * sp.log(N_A * N_D / n_i**2), DEVICE),
    "dynamic power": (P, alpha * C * V**2 * f, CIRCUIT),
    "roofline": (P, sp.Min(pi_, I_ * beta), ROOFLINE),
}


def by_kind(found: list[Mutant], kind: str) -> list[Mutant]:
    return [mutant for mutant in found if mutant.kind == kind]


@pytest.mark.parametrize("name", sorted(RELATIONS))
def test_every_mutant_is_caught(name: str) -> None:
    lhs, rhs, lesson = RELATIONS[name]
    assert check(lhs, rhs, "=", lesson) == []
    found = mutants(lhs, rhs, lesson)
    assert {mutant.kind for mutant in found} >= {SQUARE_FACTOR, ADD_TERM}
    for mutant in found:
        assert (mutant.lhs, mutant.rhs) != (lhs, rhs)
        caught = errors(check(mutant.lhs, mutant.rhs, "=", lesson))
        assert caught, f"{name}: {mutant.description} not caught"


def test_dropping_the_charge_of_the_thermal_voltage() -> None:
    found = by_kind(mutants(V_T, k_B * T / q, DEVICE), DROP_DIVISOR)
    assert [(m.rhs, m.description) for m in found] == [
        (k_B * T, "drop the divisor q from T*k_B/q (right side)")
    ]
    (finding,) = check(found[0].lhs, found[0].rhs, "=", DEVICE)
    assert finding.message == "left side V, right side J"


def test_squaring_the_wrong_factor_names_both_sides() -> None:
    found = by_kind(mutants(V_T, k_B * T / q, DEVICE), SQUARE_FACTOR)
    squared_t = next(m for m in found if m.rhs == k_B * T**2 / q)
    (finding,) = check(squared_t.lhs, squared_t.rhs, "=", DEVICE)
    assert finding.message == "left side V, right side J·K/C"


def test_a_dimensioned_term_added_to_a_side_is_a_terms_finding() -> None:
    found = by_kind(mutants(V_T, k_B * T / q, DEVICE), ADD_TERM)
    assert {m.description for m in found} == {
        "add T to the left side",
        "add T to the right side",
    }
    for mutant in found:
        (finding,) = check(mutant.lhs, mutant.rhs, "=", DEVICE)
        assert finding.message.startswith("terms of a sum differ: T is K,")


def test_an_edit_inside_a_logarithm_is_caught_at_the_argument() -> None:
    lhs, rhs, lesson = RELATIONS["built-in potential"]
    found = by_kind(mutants(lhs, rhs, lesson), DROP_DIVISOR)
    inside = next(m for m in found if m.rhs.has(sp.log(N_A * N_D)))
    (finding,) = check(inside.lhs, inside.rhs, "=", lesson)
    assert finding.kind == "argument"
    assert "it is 1/cm⁶" in finding.message


def test_no_mutants_for_relations_not_fully_checked() -> None:
    x = sp.Symbol("x")
    assert mutants(V_T, k_B * T / q + x, DEVICE) == []  # x has no unit
    assert mutants(V_T, k_B * T, DEVICE) == []  # already wrong
    assert mutants(V_T, k_B * T / q, DEVICE, op="propto") == []


def test_edits_are_not_offered_where_the_unit_is_ignored() -> None:
    lesson = {**DEVICE, **units(("s", "dimensionless"))}
    found = mutants(sp.Symbol("s"), sp.sign(k_B * T / q), lesson)
    assert all(not mutant.rhs.has(sp.sign(k_B * T)) for mutant in found)
    for mutant in found:
        assert errors(check(mutant.lhs, mutant.rhs, "=", lesson))
