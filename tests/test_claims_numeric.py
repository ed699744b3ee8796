"""claims/numeric.py: compiled closures give what SymPy's `N` gives, or defer to SymPy."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest
import sympy

from atlas_build.claims import numeric, solver
from atlas_build.latex import WithUnit
from atlas_build.latex.functions import Unit

x, y, z = sympy.symbols("x y z")

EXPRESSIONS = [
    x * y / (x + y),
    sympy.log(x) / y + sympy.sqrt(x) * sympy.pi - 3 * x**2 / 7,
    sympy.exp(-x / y) * sympy.cos(z) + sympy.tanh(x - z),
    (1 + x / 100) ** 12 - y,
    sympy.Abs(x - 2 * y) + sympy.Min(x, y, z) - sympy.Max(x, z),
    sympy.floor(x * 10) / 10 + sympy.ceiling(y),
    sympy.atan(x) + sympy.asin(1 / (1 + x**2)) - sympy.E**z,
    x ** sympy.Rational(1, 3) * y**-2,
    sympy.diff(sympy.Max(x, 2 * y) + sympy.Abs(z - 30), x),  # Heaviside, as SymPy writes it
    sympy.Piecewise((x**2, x > 2 * y), (y, sympy.And(x <= 2 * y, z > 10)), (z, True)),
]


def _sympy(expression: sympy.Expr, at: dict[sympy.Symbol, sympy.Expr]) -> sympy.Float | None:
    return solver.number(expression.xreplace(at))


@pytest.mark.parametrize("expression", EXPRESSIONS, ids=str)
def test_agrees_with_sympy_to_30_digits(expression: sympy.Expr) -> None:
    rng = random.Random(str(expression))
    for _ in range(25):
        at = {
            s: sympy.Rational(rng.randint(1, 5000), rng.choice([1, 10, 100, 7])) for s in (x, y, z)
        }
        expected = _sympy(expression, at)
        found = numeric.value(expression, at)
        assert expected is not None and found is not None
        # 40 working digits rounded to 30: SymPy's own 30 digits, give or take the last
        assert abs(numeric.to_float(found, 30) - expected) <= abs(expected) * 1e-29, at


def test_exact_where_sympy_is_exact() -> None:
    """A relation that holds exactly evaluates to exactly 0, so `value == 0` means what it
    meant with SymPy's rational arithmetic."""
    at = {x: sympy.Rational(3, 10), y: sympy.Rational(7, 10)}
    assert numeric.value(x + y - 1, at) == 0
    assert isinstance(numeric.value(x * y / (x + y), at), Fraction)
    assert numeric.value(sympy.sqrt(x**2) - x, at) == 0  # 0.09^(1/2), as SymPy simplifies it


def test_no_finite_value_is_none() -> None:
    assert numeric.value(1 / (x - y), {x: 2, y: 2}) is None
    assert solver.value(1 / (x - y), {x: sympy.Integer(2), y: sympy.Integer(2)}) is None


@pytest.mark.parametrize(
    ("expression", "at"),
    [
        (sympy.sqrt(x), {x: sympy.Integer(-4)}),  # complex: SymPy says no real value
        (sympy.log(x), {x: sympy.Integer(-1)}),
        (sympy.Function("f")(x), {x: sympy.Integer(1)}),  # a node the closures do not know
        (x + y, {x: sympy.Integer(1)}),  # a symbol with no value
    ],
)
def test_defers_to_sympy(expression: sympy.Expr, at: dict[sympy.Symbol, sympy.Expr]) -> None:
    with pytest.raises(numeric.Unsupported):
        numeric.value(expression, at)
    assert solver.value(expression, at) == (
        None if (found := _sympy(expression, at)) is None else numeric.of(found)
    )


def test_values_written_with_a_unit_evaluate_as_their_number() -> None:
    n = sympy.Symbol("n")
    written = WithUnit(sympy.Rational("25.9"), Unit("mV")) * n  # `25.9\,\mathrm{mV} \cdot n`
    found = numeric.value(written, {n: sympy.Integer(2)})
    assert numeric.to_float(found, 30) == sympy.Float("51.8", 30)


def test_compiles_without_running_source() -> None:
    """A symbol whose name is Python source stays a name: nothing is exec'd."""
    hostile = sympy.Symbol("__import__('os').system('false')")
    assert numeric.value(hostile * 2, {hostile: sympy.Integer(3)}) == 6
