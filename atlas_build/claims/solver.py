"""One solver for every claim kind and for inference: the values of one symbol that make
an expression zero.

A relation solved for a symbol other than its left side (`Q = ṁ c_p ΔT` for ΔT) is a
polynomial in it far more often than not: then SymPy solves it exactly (degree at most
`MAX_DEGREE`, so solving stays fast). Otherwise the root nearest a starting value is found
numerically by the secant method, evaluating with SymPy itself: never `lambdify`, which
writes the expression out as Python source and runs it, and never symbolic solving of a
transcendental relation, which can take minutes.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping

import sympy
from sympy.concrete.expr_with_limits import ExprWithLimits

from atlas_build.claims import numeric

DIGITS = 30
MAX_DEGREE = 4
ITERATIONS = 60

# Nodes that bind a variable: inside them only `subs` knows which symbols are free.
_BINDERS = (ExprWithLimits, sympy.Derivative, sympy.Subs, sympy.Lambda)


def substitute(expression: sympy.Expr, values: Mapping[sympy.Basic, sympy.Expr]) -> sympy.Expr:
    """`expression` with its symbols replaced by `values`. A plain tree rebuild
    (`xreplace`) is several times faster than `subs` and gives the same result when
    nothing in the tree binds a variable; inference evaluates every relation at every
    stated value and at its rounding's corners, so this was most of a cold check's time."""
    values = dict(values)
    if _huge_power(expression, values):
        values = {k: _approximate(v) for k, v in values.items()}
    if expression.has(*_BINDERS):
        return expression.subs(values)
    return expression.xreplace(values)


def _huge_power(expression: sympy.Expr, values: dict[sympy.Basic, sympy.Expr]) -> bool:
    """Whether a power's exponent at `values` is past what `numeric` computes exactly: SymPy
    would compute it exactly as the tree is rebuilt (a check took minutes), so the values
    go in at `DIGITS` digits, as `numeric` takes such a power in mpmath."""
    try:
        exponents = _symbolic_exponents(expression)
    except TypeError:  # an expression that cannot be hashed (a mutable matrix)
        exponents = _symbolic_exponents.__wrapped__(expression)
    for symbolic in exponents:
        exponent = symbolic.xreplace(values)
        if exponent is sympy.nan:
            continue  # `x^((n−n)/(n−n))` at its values: nothing to compute exactly
        if exponent.is_Number and abs(exponent) > numeric.MAX_EXACT_POWER:
            return True  # `(1 − 10⁻¹⁴)^(8·4·10¹³)` exactly has more digits than memory holds
        if not exponent.is_Number and exponent.is_number and _past(exponent):
            return True  # `e^(6.4×10¹² ln 2)` is 2^(6.4×10¹²), which SymPy computes exactly
    return False


def _past(exponent: sympy.Expr) -> bool:
    """Whether a numeric exponent that is no plain number (`6.4×10¹² ln 2`) is past
    `numeric.MAX_EXACT_POWER` in size."""
    try:
        size = abs(complex(sympy.N(exponent, 15)))
    except (TypeError, ValueError, OverflowError):
        return True
    return size > numeric.MAX_EXACT_POWER


def _approximate(value: sympy.Expr) -> sympy.Expr:
    """A value at `DIGITS` digits (a rational or a number such as `6.4×10¹² ln 2`), so a
    huge power of it is evaluated approximately; symbols and floats stay as they are."""
    if isinstance(value, sympy.Float) or not getattr(value, "is_number", False):
        return value
    try:
        return sympy.Float(sympy.N(value, DIGITS), DIGITS)
    except (TypeError, ValueError):
        return value


@functools.lru_cache(maxsize=4096)
def _symbolic_exponents(expression: sympy.Expr) -> tuple[sympy.Expr, ...]:
    """The exponents with symbols in them (of powers and of `exp`), once per expression:
    `substitute` is on the hot path, and most relations have none."""
    powers = tuple(power.exp for power in expression.atoms(sympy.Pow) if power.exp.free_symbols)
    return powers + tuple(e.args[0] for e in expression.atoms(sympy.exp) if e.free_symbols)


def value(
    expression: sympy.Expr, values: Mapping[sympy.Basic, sympy.Expr | numeric.Value]
) -> numeric.Value | None:
    """`expression` at `values`, by `numeric`'s compiled closures where they evaluate as
    SymPy does (exact rationals, real intermediates), else by SymPy at `DIGITS` digits."""
    try:
        return numeric.value(expression, values)
    except numeric.Unsupported:
        pass
    plain = {symbol: numeric.to_sympy(v) if numeric.is_value(v) else v
             for symbol, v in values.items()}  # fmt: skip
    found = number(substitute(expression, plain))
    return None if found is None else numeric.of(found)


def evaluate(
    expression: sympy.Expr, values: Mapping[sympy.Basic, sympy.Expr]
) -> sympy.Float | None:
    """`number(substitute(expression, values))`, computed as `value` computes it."""
    found = value(expression, values)
    return None if found is None else numeric.to_float(found, DIGITS)


@functools.lru_cache(maxsize=4096)
def derivative(expression: sympy.Expr, symbol: sympy.Symbol) -> sympy.Expr:
    """∂expression/∂symbol, once per relation and symbol (inference asks for each at every
    stated value)."""
    return sympy.diff(expression, symbol)


def number(value: sympy.Expr) -> sympy.Float | None:
    """`value` as a real, finite 30-digit number (None when it is not one)."""
    try:
        found = sympy.N(value, DIGITS)
    except (TypeError, ValueError, ArithmeticError, RecursionError):
        return None
    if not found.is_Number or not found.is_real or not found.is_finite:
        return None  # also a case split left open (`Piecewise` on an `≲` it cannot decide)
    return sympy.Float(found, DIGITS)


def roots(
    difference: sympy.Expr, symbol: sympy.Symbol, near: sympy.Expr | None = None
) -> list[sympy.Expr]:
    """The real values of `symbol` that make `difference` zero (every other symbol has a
    value in it already): exact for a polynomial of low degree, else the one root nearest
    `near` (none without a start)."""
    polynomial = None
    if _low_degree(difference, symbol):
        try:
            polynomial = sympy.Poly(difference, symbol)
        except (sympy.PolynomialError, sympy.GeneratorsNeeded, ValueError, TypeError):
            polynomial = None
    if polynomial is not None and 0 < polynomial.degree() <= MAX_DEGREE:
        polynomial = _rational_or_real(polynomial, symbol)
        if polynomial is not None and not polynomial.free_symbols - {symbol}:
            if polynomial.degree() == 1:  # a·x + b: `sympy.roots` clears the denominators
                # of an expression domain first, minutes on `exp(−23443267/4123565280000000)`
                a, b = polynomial.all_coeffs()
                return [root] if number(root := -b / a) is not None else []
            try:  # the roots of the polynomial: `sympy.solve` took minutes on `6.4e12 − H/ln 2`
                found = list(sympy.roots(polynomial))
            except (NotImplementedError, TypeError, ValueError, ArithmeticError):
                found = []
            return [value for value in found if number(value) is not None]
    if near is None:
        return []
    root = secant(difference, symbol, near)
    return [] if root is None else [root]


def _rational_or_real(polynomial: sympy.Poly, symbol: sympy.Symbol) -> sympy.Poly | None:
    """The polynomial over the rationals or the reals: one of degree 2 or more over an
    algebraic domain (`10^(1007/2000)` in a coefficient, a pi pad's attenuation) has its
    coefficients evaluated to 30 digits, since `sympy.roots` factors over the extension and
    took minutes on a quadratic. None where a coefficient is no real number."""
    domain = polynomial.domain
    if polynomial.degree() < 2 or domain.is_QQ or domain.is_ZZ or domain.is_RR:
        return polynomial  # a linear root is -b/a, exact over any domain (`roots`)
    coefficients = [number(c) for c in polynomial.all_coeffs()]
    if any(c is None for c in coefficients):
        return None
    return sympy.Poly(coefficients, symbol, domain=sympy.RealField(dps=DIGITS))


def _low_degree(expression: sympy.Expr, symbol: sympy.Symbol) -> bool:
    """Whether every power that holds `symbol` has a small whole exponent, so expanding the
    expression into a polynomial is cheap (`(1 + x)^65536` would take minutes)."""
    for power in expression.atoms(sympy.Pow):
        if symbol not in power.free_symbols:
            continue
        exponent = power.exp
        if not exponent.is_Integer or abs(int(exponent)) > MAX_DEGREE:
            return False
    return True


def secant(difference: sympy.Expr, symbol: sympy.Symbol, near: sympy.Expr) -> sympy.Expr | None:
    """The root of `difference` nearest `near`, by the secant method."""

    def at(x: sympy.Float) -> sympy.Float | None:
        return evaluate(difference, {symbol: x})

    start = number(near)
    if start is None:
        return None
    x0 = start
    x1 = start * (1 + sympy.Float(1e-4, DIGITS)) + sympy.Float(1e-12, DIGITS)
    f0, f1 = at(x0), at(x1)
    for _ in range(ITERATIONS):
        if f0 is None or f1 is None:
            return None
        if f1 == 0:
            return x1
        step = f1 - f0
        if step == 0:
            return None
        x0, x1 = x1, x1 - f1 * (x1 - x0) / step
        f0, f1 = f1, at(x1)
        if f1 is not None and abs(x1 - x0) <= abs(x1) * sympy.Float(1e-25, DIGITS):
            return x1
    return None


def choose(found: list[sympy.Expr], positive: bool) -> tuple[sympy.Expr | None, str]:
    """The one solution to use, and why none could be chosen ("" when one was): a single
    real solution, or the single positive one when the symbol is a magnitude."""
    candidates = found
    if positive and len(candidates) > 1:
        candidates = [v for v in found if (number(v) or 0) > 0] or found
    if len(candidates) == 1:
        return candidates[0], ""
    if not candidates:
        return None, "it has no real solution at the stated values"
    shown = ", ".join(sympy.sstr(sympy.N(v, 6)) for v in candidates)
    return None, f"it has {len(candidates)} solutions ({shown}); state which one in `values`"
