"""Exact evaluation of a relation's side at stated values (claims/kinds/_exact.py)."""

from __future__ import annotations

import pytest
import sympy

from atlas_build.claims.binding.compare import rounded
from atlas_build.claims.kinds._exact import Env, evaluate
from atlas_build.claims.prose import numbers
from atlas_build.latex import parse_relations


def test_min_and_max_evaluate_exactly() -> None:
    """SymPy's Min and Max are not `sympy.Function`s; the roofline's `min(π, βI)` and
    the time bound's `max(W/π, Q/β)` must still evaluate."""
    (roof,) = parse_relations(r"P=\min\left(\pi,\beta I\right)", symbols=["pi"])
    (bound,) = parse_relations(r"t=\max\left(\frac{W}{\pi},\frac{Q}{\beta}\right)", symbols=["pi"])
    pi, beta, intensity, work, traffic = sympy.symbols("pi beta I W Q")
    env = Env(scalars={pi: sympy.Integer(300), beta: sympy.Integer(2), intensity: sympy.Integer(50),
                       work: sympy.Integer(600), traffic: sympy.Integer(8)})  # fmt: skip
    assert evaluate(roof.rhs, env) == 100
    assert evaluate(bound.rhs, env) == 4
    env.scalars[intensity] = sympy.Integer(500)
    assert evaluate(roof.rhs, env) == 300


def test_a_complex_value_is_shown_not_raised() -> None:
    """An edit can make a computed value complex (√ of a negative); showing it in a
    mismatch message must not raise."""
    from atlas_build.claims.binding.compare import show

    assert show(sympy.sqrt(-4) + 1) == "1 + 2*I ≈ 1.0 + 2.0*I"


def test_a_slot_set_compares_with_a_computed_integer() -> None:
    """`token 2` reads as a slot set; a computed SymPy integer must compare with it, and
    a value that is no slot number says so (not Python's "object is not iterable")."""
    from atlas_build.claims.binding.compare import compare
    from atlas_build.claims.prose import numbers

    (item,) = numbers.extract("the target token 2 here")
    assert compare(item, sympy.Integer(2)).ok
    assert not compare(item, sympy.Integer(3)).ok
    assert "iterable" not in compare(item, 2.5).computed


@pytest.mark.parametrize(
    ("written", "computed", "hint"),
    [
        ("1.41", sympy.Rational(1414, 1000), "to 2 decimals, rounded half to even, it is 1.41"),
        ("1.5", sympy.Rational(14, 10), "to 1 decimal, rounded half to even, it is 1.4"),
        ("1.4", sympy.Rational(14, 10000), ""),  # a factor of 1000: a unit, not a rounding slip
        ("1.4", sympy.Rational(-14, 10), ""),
    ],
)
def test_the_rounding_hint_is_given_only_for_a_rounding_slip(
    written: str, computed: sympy.Expr, hint: str
) -> None:
    assert rounded(computed, numbers.parse_quantity(written)) == hint


@pytest.mark.parametrize(
    ("written", "computed", "hedged", "ok"),
    [
        ("900 kHz", 909, True, True),  # `about 900 kHz`: the zeros are not digits
        ("900 kHz", 909, False, False),  # unhedged, 900 is 900
        ("60 kHz", sympy.Rational(5787, 100), True, True),
        ("≈ 1,000", 1024, False, True),
        ("905", 909, True, False),  # no trailing zero: half a unit in the last digit
        ("900.0", 909, True, False),  # a decimal point makes the zeros digits
    ],
)
def test_a_hedged_round_number_rounds_to_its_last_nonzero_digit(
    written: str, computed: object, hedged: bool, ok: bool
) -> None:
    from atlas_build.claims.binding.compare import compare
    from atlas_build.claims.prose import numbers

    quantity = numbers.parse_quantity(written)
    assert compare(quantity, sympy.Rational(computed), approximate=hedged).ok is ok


@pytest.mark.parametrize(
    ("written", "unit", "computed", "ok"),
    [
        ("3.11×10⁸ rad/s", "rad/s", 311_000_000, True),
        ("311 Mrad/s", "rad/s", 311_000_000, True),
        ("311 MHz", "rad/s", 311_000_000, False),  # ω written as f: SI's 1/s hid the 2π
        ("3.11×10⁸ Hz", "rad/s", 311_000_000, False),
        ("49.5 MHz", "Hz", 49_500_000, True),
        ("311 rad/s", "Hz", 311, False),
        ("50 Hz", "1/s", 50, True),
    ],
)
def test_an_angular_frequency_is_not_a_frequency(
    written: str, unit: str, computed: int, ok: bool
) -> None:
    from atlas_build.claims.binding.compare import compare

    verdict = compare(numbers.parse_quantity(written), sympy.Integer(computed), unit=unit)
    assert verdict.ok is ok, verdict
    assert ok or "2π" in verdict.computed
