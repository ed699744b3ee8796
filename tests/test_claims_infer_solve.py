"""claims.infer.solve: whether a relation holds at stated values within their digits."""

from __future__ import annotations

import sympy

from atlas_build.claims.infer import solve
from atlas_build.latex import Relation

L, D, TAU = sympy.symbols("L D tau", positive=True)
DIFFUSION = Relation(L, sympy.sqrt(D * TAU), "=", 0, 0, "")


def _holds(length: sympy.Expr) -> bool:
    values = {"L": length, "D": sympy.Rational(259, 10), "tau": sympy.Rational(1, 10**5)}
    tolerances = {"D": sympy.Rational(1, 20)}  # `D = … ≈ 25.9`: 25.85 to 25.95
    found = solve.residual(DIFFUSION, values, tolerances)
    assert found is not None
    return found.holds


def test_a_value_at_the_corner_of_the_rounding_box_holds() -> None:
    """`D_n = 1,000 × 0.02585 ≈ 25.9 cm²/s`, then `L_n = √(25.85 × 10⁻⁵) cm` (a diffusion
    length lesson): the stated L_n is the relation at D = 25.85, the very edge of what ≈ 25.9
    admits, and the corner met it only to working digits, a false A430. Just past the edge
    is still no match."""
    assert _holds(sympy.sqrt(sympy.Rational(2585, 10**7)))
    assert not _holds(sympy.sqrt(sympy.Rational(2584, 10**7)))
