"""Untrusted text never crashes or stalls the units library (hypothesis, small fixed budget).

Every reader returns its documented result or its documented error for any text:
`parse_unit` a spec or a problem, `symbol_names` names or `SymbolError`,
`find_quantities` a list, each within BOUND seconds. Inputs mix unit vocabulary,
operators, superscripts, digits and arbitrary Unicode.
"""

from __future__ import annotations

import time

import sympy as sp
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from atlas_build.units import (
    SymbolError,
    UnitProblem,
    UnitSpec,
    check,
    find_quantities,
    parse_unit,
    symbol_names,
    units_from_glossary,
)

BOUND = 2.0
EXAMPLES = 200
PIECES = [
    "m", "s", "V", "KiB", "B", "bytes", "per", "token", "eV", "°C", "Ω", "%", "FLOPs",
    "cm", "score", "units", "squared", "real", "array", "×", "·", "/", "^", "-", "(", ")",
    "²", "⁻", "³", "¹⁰", " ", ",", "(at 300 K)", "1", "0.5", "10", "e", "x", "\\_", "_",
    "τ", "x̂", "ᵢ", "₂", "⁺", "'", "𝒫", "$", "{", "}", "\\tau",
]  # fmt: skip
TEXT = st.one_of(
    st.lists(st.sampled_from(PIECES), max_size=24).map("".join),
    st.text(max_size=80),
)
SETTINGS = settings(
    max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)


@SETTINGS
@given(TEXT)
def test_parse_unit_is_total(text: str) -> None:
    start = time.perf_counter()
    result = parse_unit(text)
    assert isinstance(result, UnitSpec | UnitProblem)
    if isinstance(result, UnitProblem):
        assert 0 <= result.column <= len(text)
    assert time.perf_counter() - start < BOUND


@SETTINGS
@given(TEXT)
def test_symbol_names_is_total(text: str) -> None:
    start = time.perf_counter()
    try:
        names = symbol_names(text)
    except SymbolError as error:
        assert 0 <= error.column <= max(len(text), 1)
    else:
        assert all(name and name.replace("_", "a").isalnum() for name in names)
    assert time.perf_counter() - start < BOUND


@SETTINGS
@given(st.lists(TEXT, max_size=6).map(" 12 ".join))
def test_find_quantities_is_total(text: str) -> None:
    start = time.perf_counter()
    for quantity in find_quantities(text):
        assert 0 <= quantity.start < quantity.unit_start < quantity.end <= len(text)
        assert isinstance(quantity.value, sp.Rational)
    assert time.perf_counter() - start < BOUND


@SETTINGS
@given(st.lists(st.tuples(TEXT, TEXT), max_size=6))
def test_glossaries_of_any_text_give_a_mapping_and_problems(pairs: list[tuple[str, str]]) -> None:
    built = units_from_glossary(pairs)
    assert all(0 <= problem.entry < len(pairs) for problem in built.problems)
    x = sp.Symbol("x")
    for name in built.units:
        check(sp.Symbol(name), x + sp.Symbol(name) ** 2, "=", built.units)
