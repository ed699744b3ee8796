"""claims/solver.py: substituting values into a relation stays bounded on any input."""

from __future__ import annotations

import sympy

from atlas_build.claims import numeric, solver


def test_a_power_past_the_exact_bound_is_taken_in_digits() -> None:
    """`(1 − p)^(8(n−1)C)` at p = 10⁻¹⁴ is exactly a number of 14·32·C digits (SymPy
    computed it as the tree was rebuilt: minutes at a real lesson's C = 10¹³); with values
    past `numeric.MAX_EXACT_POWER` in the exponent it is taken at 30 digits instead. C is
    small here, so the exact path, were it taken, fails the assertion in a second."""
    p, n, c = sympy.symbols("p n C")
    expression = (1 - p) ** (8 * (n - 1) * c)
    at = {p: sympy.Rational(1, 10**14), n: sympy.Integer(5), c: sympy.Integer(4000)}
    found = solver.substitute(expression, at)
    assert isinstance(found, sympy.Float)
    assert abs(float(found) - (1 - 128_000e-14)) < 1e-15


def test_a_small_power_stays_exact() -> None:
    x = sympy.Symbol("x")
    exponent = numeric.MAX_EXACT_POWER
    found = solver.substitute((1 + x) ** exponent, {x: sympy.Rational(1, 2)})
    assert found == sympy.Rational(3, 2) ** exponent
