"""SymPy expressions evaluated at many points, fast: compiled once into closures.

Inference evaluates every relation of a lesson at every stated value, at its rounding's
corners and with each partial derivative; `sympy.N` of a rebuilt tree costs a millisecond
or more each time, and was most of a cold check. `compile` walks the tree once and returns
a function of the symbols' values. It never writes the expression out as source and runs
it (`lambdify` does, with `exec`): every node becomes a Python closure.

Exactness is SymPy's: sums, products and whole powers of rationals are computed as
`fractions.Fraction`, so a relation that holds exactly evaluates to exactly 0, as the SymPy
tree does; anything else (a root, a logarithm, a float) at `WORKING` digits with mpmath,
ten more than the 30 the callers compare at. What the closures cannot evaluate the way
SymPy would (a complex intermediate, a node type not listed) makes `compile` or the call
answer `UNSUPPORTED`, and the caller evaluates with SymPy as before.
"""

from __future__ import annotations

import functools
import math
import operator
from collections.abc import Callable, Mapping
from fractions import Fraction
from typing import Any, TypeAlias

import mpmath
import sympy

from atlas_build.latex import WithUnit

WORKING = 40
MAX_EXACT_POWER = 256  # |whole exponent| computed exactly; larger ones in mpmath

_CTX = mpmath.MPContext()
_CTX.dps = WORKING
_MPF = _CTX.mpf

# a Fraction, or an mpf of this module's own context (mpmath is untyped)
Value: TypeAlias = Any
Function = Callable[[Mapping[sympy.Symbol, Value]], Value]


class Unsupported(Exception):
    """SymPy, not these closures, must evaluate this (complex, or a node not listed)."""


def _real(value: object) -> mpmath.mpf:
    if isinstance(value, Fraction):
        return _CTX.mpf(value.numerator) / value.denominator
    if isinstance(value, _MPF):
        return value
    raise Unsupported(type(value).__name__)


def _checked(value: object) -> Value:
    if isinstance(value, Fraction):
        return value
    if isinstance(value, _MPF):
        if not _CTX.isfinite(value):
            raise ArithmeticError("not finite")
        return value
    raise Unsupported(type(value).__name__)  # mpc: a complex intermediate


def _combined(left: Value, right: Value, op: Callable[[Any, Any], Any]) -> Value:
    """`op(left, right)`: exact when both are fractions, else in mpmath."""
    if isinstance(left, Fraction) and isinstance(right, Fraction):
        return op(left, right)
    return op(_real(left), _real(right))


def _fold(parts: list[Function], start: int, op: Callable[[Any, Any], Any]) -> Function:
    """A sum (`operator.add` from 0) or product (`operator.mul` from 1) of `parts`: exact
    while every term is a fraction, in mpmath from the first that is not."""

    def call(env: Mapping[sympy.Symbol, Value]) -> Value:
        total: Value = Fraction(start)
        for part in parts:
            total = _combined(total, part(env), op)
        return _checked(total)

    return call


def _pow(base: Function, exponent: Function) -> Function:
    def power(env: Mapping[sympy.Symbol, Value]) -> Value:
        b, e = base(env), exponent(env)
        if isinstance(e, Fraction) and e.denominator == 1 and abs(e.numerator) <= MAX_EXACT_POWER:
            if isinstance(b, Fraction):
                if b == 0 and e < 0:
                    raise ZeroDivisionError("0 to a negative power")
                return b ** int(e)
            return _checked(b ** int(e))
        if _real(b) < 0:
            raise Unsupported("a negative base to a fractional power")
        if _real(b) == 0 and _real(e) <= 0:
            raise ZeroDivisionError("0 to a non-positive power")
        return _checked(_CTX.power(_real(b), _real(e)))

    return power


def _domain(name: str, low: float | None, high: float | None, strict: bool = False):
    """An mpmath function evaluated only inside its real domain (outside it SymPy decides:
    a complex value, which the callers treat as no number)."""
    function = getattr(_CTX, name)

    def apply(argument: Function) -> Function:
        def call(env: Mapping[sympy.Symbol, Value]) -> Value:
            x = _real(argument(env))
            if low is not None and (x < low or (strict and x == low)):
                raise Unsupported(f"{name} outside its real domain")
            if high is not None and x > high:
                raise Unsupported(f"{name} outside its real domain")
            return _checked(function(x))

        return call

    return apply


def _abs(argument: Function) -> Function:
    def call(env: Mapping[sympy.Symbol, Value]) -> Value:
        return abs(argument(env))

    return call


def _rounding(how: Callable[[Fraction], int], name: str) -> Callable[[Function], Function]:
    def apply(argument: Function) -> Function:
        def call(env: Mapping[sympy.Symbol, Value]) -> Value:
            value = argument(env)
            if isinstance(value, Fraction):
                return Fraction(how(value))
            return _checked(getattr(_CTX, name)(value))

        return call

    return apply


def _extreme(pick: Callable[..., object]) -> Callable[[list[Function]], Function]:
    def apply(parts: list[Function]) -> Function:
        def call(env: Mapping[sympy.Symbol, Value]) -> Value:
            found = [part(env) for part in parts]
            if all(isinstance(value, Fraction) for value in found):
                return pick(found)
            return pick(_real(value) for value in found)

        return call

    return apply


def _heaviside(argument: Function, at_zero: Function) -> Function:
    """SymPy's Heaviside: 0 below zero, 1 above, its second argument (1/2) at zero."""

    def call(env: Mapping[sympy.Symbol, Value]) -> Value:
        x = argument(env)
        if x == 0:
            return at_zero(env)
        return Fraction(1) if x > 0 else Fraction(0)

    return call


def _compare(left: Value, right: Value) -> int:
    if not (isinstance(left, Fraction) and isinstance(right, Fraction)):
        left, right = _real(left), _real(right)
    return (left > right) - (left < right)


_ORDERS: dict[type, Callable[[int], bool]] = {
    sympy.StrictGreaterThan: lambda order: order > 0,
    sympy.GreaterThan: lambda order: order >= 0,
    sympy.StrictLessThan: lambda order: order < 0,
    sympy.LessThan: lambda order: order <= 0,
    sympy.Equality: lambda order: order == 0,
    sympy.Unequality: lambda order: order != 0,
}

Condition = Callable[[Mapping[sympy.Symbol, Value]], bool]


def _condition(condition: sympy.Basic) -> Condition:
    """A piece's condition: comparisons joined by and, or, not."""
    if condition is sympy.true or condition is sympy.false:
        fixed = bool(condition)
        return lambda env: fixed
    holds = _ORDERS.get(type(condition))
    if holds is not None:
        left, right = _node(condition.args[0]), _node(condition.args[1])
        return lambda env: holds(_compare(left(env), right(env)))
    parts = [_condition(arg) for arg in condition.args]
    if isinstance(condition, sympy.And):
        return lambda env: all(part(env) for part in parts)
    if isinstance(condition, sympy.Or):
        return lambda env: any(part(env) for part in parts)
    if isinstance(condition, sympy.Not):
        return lambda env: not parts[0](env)
    raise Unsupported(type(condition).__name__)


def _piecewise(expression: sympy.Piecewise) -> Function:
    """The first piece whose condition holds; none holds: no value (SymPy's nan)."""
    pieces = [(_node(piece.expr), _condition(piece.cond)) for piece in expression.args]

    def call(env: Mapping[sympy.Symbol, Value]) -> Value:
        for value, condition in pieces:
            if condition(env):
                return value(env)
        raise ArithmeticError("no piece applies")

    return call


_UNARY: dict[type, Callable[[Function], Function]] = {
    sympy.exp: _domain("exp", None, None),
    sympy.log: _domain("ln", 0, None, strict=True),
    sympy.sin: _domain("sin", None, None),
    sympy.cos: _domain("cos", None, None),
    sympy.tan: _domain("tan", None, None),
    sympy.sinh: _domain("sinh", None, None),
    sympy.cosh: _domain("cosh", None, None),
    sympy.tanh: _domain("tanh", None, None),
    sympy.atan: _domain("atan", None, None),
    sympy.asin: _domain("asin", -1, 1),
    sympy.acos: _domain("acos", -1, 1),
    sympy.Abs: _abs,
    sympy.floor: _rounding(math.floor, "floor"),
    sympy.ceiling: _rounding(math.ceil, "ceil"),
}

_VARIADIC = {sympy.Min: _extreme(min), sympy.Max: _extreme(max)}

_CONSTANTS = {sympy.pi: _CTX.pi, sympy.E: _CTX.e, sympy.EulerGamma: _CTX.euler}


def _node(expression: sympy.Basic) -> Function:
    if isinstance(expression, sympy.Symbol):
        symbol = expression
        return lambda env: env[symbol]
    if isinstance(expression, sympy.Rational):  # Integer included
        constant: Value = Fraction(int(expression.p), int(expression.q))
        return lambda env: constant
    if isinstance(expression, sympy.Float):
        real = _CTX.mpf(expression._mpf_)
        return lambda env: real
    if expression in _CONSTANTS:
        fixed = +_CONSTANTS[expression]
        return lambda env: fixed
    if isinstance(expression, WithUnit):  # `25.9\,\mathrm{mV}` evaluates as its number
        return _node(expression.value)
    if isinstance(expression, sympy.Add):
        return _fold([_node(arg) for arg in expression.args], 0, operator.add)
    if isinstance(expression, sympy.Mul):
        return _fold([_node(arg) for arg in expression.args], 1, operator.mul)
    if isinstance(expression, sympy.Pow):
        return _pow(_node(expression.base), _node(expression.exp))
    if isinstance(expression, sympy.Heaviside):
        at_zero = expression.args[1] if len(expression.args) > 1 else sympy.Rational(1, 2)
        return _heaviside(_node(expression.args[0]), _node(at_zero))
    if isinstance(expression, sympy.Piecewise):
        return _piecewise(expression)
    variadic = _VARIADIC.get(type(expression))
    if variadic is not None:
        return variadic([_node(arg) for arg in expression.args])
    unary = _UNARY.get(type(expression))
    if unary is not None and len(expression.args) == 1:
        return unary(_node(expression.args[0]))
    raise Unsupported(type(expression).__name__)


@functools.lru_cache(maxsize=4096)
def compile(expression: sympy.Expr) -> Function | None:  # noqa: A001 (what it does)
    """`expression` as a function of its symbols' values; None when a node is not one the
    closures evaluate as SymPy does."""
    try:
        return _node(expression)
    except Unsupported:
        return None


def value(expression: sympy.Expr, values: Mapping[sympy.Basic, sympy.Expr | Value]) -> Value | None:
    """`expression` at `values` (every free symbol must have one; SymPy numbers or this
    module's values), or None when it has no finite value there. Raises `Unsupported` when
    SymPy must evaluate it instead."""
    function = compile(expression)
    if function is None:
        raise Unsupported("not compiled")
    env = {symbol: of(given) for symbol, given in values.items()}
    try:
        return function(env)
    except (ZeroDivisionError, ArithmeticError, OverflowError):
        return None
    except KeyError as missing:
        raise Unsupported(f"no value for {missing}") from None


def is_value(given: object) -> bool:
    """Whether `given` is one of this module's values (not a SymPy number)."""
    return isinstance(given, (Fraction, _MPF))


def of(given: object) -> Value:
    """A number as this module's value (exact where it is rational). Raises `Unsupported`
    for what is not a real finite number."""
    if is_value(given):
        return given
    if isinstance(given, int):
        return Fraction(given)
    if isinstance(given, float):
        return _checked(_CTX.mpf(given))
    if not isinstance(given, sympy.Expr):
        raise Unsupported(type(given).__name__)
    return _input(given)


@functools.lru_cache(maxsize=8192)
def _input(given: sympy.Expr) -> Value:
    if isinstance(given, sympy.Rational):
        return Fraction(int(given.p), int(given.q))
    if isinstance(given, sympy.Float):
        return _CTX.mpf(given._mpf_)
    if given.free_symbols:
        raise Unsupported("not a number")
    function = compile(given)
    if function is not None:
        try:
            return function({})
        except (ZeroDivisionError, ArithmeticError, OverflowError, Unsupported):
            pass
    try:
        found = sympy.N(given, WORKING)
    except (TypeError, ValueError, ArithmeticError, RecursionError):
        raise Unsupported("no value") from None
    if not isinstance(found, sympy.Float) or not found.is_finite:
        raise Unsupported("not a real finite number")
    return _CTX.mpf(found._mpf_)


def real(found: object) -> mpmath.mpf:
    """`found` (a value, or any number `of` takes) as an mpmath number at `WORKING`
    digits, for arithmetic on results."""
    return _real(of(found))


def shifted(found: Value, by: Value, sign: int) -> Value:
    """`found + sign·by`, exact where both are."""
    return _combined(found, sign * by, operator.add)


def to_sympy(found: Value) -> sympy.Expr:
    """`found` as a SymPy number: a Rational, or a Float at `WORKING` digits."""
    if isinstance(found, Fraction):
        return sympy.Rational(found.numerator, found.denominator)
    return sympy.Float._new(found._mpf_, _CTX.prec)


def to_float(found: Value, digits: int) -> sympy.Float:
    """`found` as SymPy's `digits`-digit Float, as `sympy.N(..., digits)` gives it."""
    return sympy.Float(to_sympy(found), digits)
