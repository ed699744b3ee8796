"""Exact evaluation of a lesson's equations on stated values: scalars, vectors, recurrences.

The `formula` kind computes the numbers a worked example states from the lesson's own
relations. Values are exact SymPy numbers (`0.9` is 9/10, `√9.5` stays a root); vectors and
matrices are `Series`, keyed by the 1-based index the lesson writes (`x_1 ... x_4`, `m_0`
as a base case). The evaluator walks the SymPy tree the lesson-LaTeX parser built, so
sums and products over data expand term by term, `\\hat{x}_i` is computed element by
element, and `m_t = \\beta m_{t-1} + ...` step by step. Nothing is evaluated from text.

Size is bounded: at most `MAX_TERMS` terms per sum or product, and a value whose exact
form grows past `MAX_OPS` operations or `MAX_BITS` bits continues as a 60-digit float, so
a long recurrence cannot build an expression that takes minutes to simplify.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

import sympy
from sympy.core.function import AppliedUndef

from atlas_build.claims.registry import ClaimError
from atlas_build.latex.functions import Component, MaxOver, MinOver, WithUnit

MAX_TERMS = 100_000
MAX_OPS = 400
MAX_BITS = 4096
DIGITS = 60

Key = tuple[int, ...]


class Series(dict[Key, Any]):
    """A vector or matrix of values by index (1-based as the lesson writes it). Reads as
    the list of its values in index order, and `series[k]` is the entry at index k."""

    def __missing__(self, key: object) -> Any:
        if isinstance(key, int) and (key,) in self:
            return dict.__getitem__(self, (key,))
        raise KeyError(key)

    def ordered(self) -> list[Any]:
        return [dict.__getitem__(self, key) for key in sorted(self)]

    def tolist(self) -> list[Any]:
        return self.ordered()


def series(values: Iterable[Any], start: int = 1) -> Series:
    """A Series from a list (nested lists become a matrix keyed (row, column))."""
    found = Series()
    for index, value in enumerate(values, start):
        if isinstance(value, list):
            for inner, entry in enumerate(value, start):
                found[(index, inner)] = entry
        else:
            found[(index,)] = value
    return found


class Unknown(Exception):
    """A name the evaluation has no value for (yet)."""

    def __init__(self, name: str) -> None:
        super().__init__(name)
        self.name = name


@dataclass
class Env:
    """What is known: scalars by symbol, arrays by base name, powers (`σ²`) by (base, exp)."""

    scalars: dict[sympy.Symbol, sympy.Expr] = field(default_factory=dict)
    arrays: dict[str, Series] = field(default_factory=dict)
    powers: dict[tuple[sympy.Symbol, sympy.Expr], sympy.Expr] = field(default_factory=dict)
    functions: dict[str, tuple[tuple[sympy.Symbol, ...], sympy.Basic]] = field(
        default_factory=dict
    )  # `v(t) = ...`: name -> (parameters, body)
    terms: int = 0

    def scalar(self, name: str) -> sympy.Expr | None:
        return self.scalars.get(sympy.Symbol(name))


def settle(value: sympy.Expr) -> sympy.Expr:
    """Keep a value exact while it stays small; continue as a 60-digit float beyond."""
    if value.is_Rational:
        if int(value.p).bit_length() + int(value.q).bit_length() <= MAX_BITS:
            return value
        return sympy.Float(value, DIGITS)
    if isinstance(value, sympy.Float):
        return value
    if sympy.count_ops(value) > MAX_OPS:
        return sympy.Float(sympy.N(value, DIGITS), DIGITS)
    return value


def evaluate(expr: sympy.Basic, env: Env, bound: Mapping[sympy.Symbol, int] | None = None) -> Any:
    """The exact value of `expr`, raising Unknown for a name without a value."""
    return _Walker(env, dict(bound or {})).walk(expr)


MAX_CALLS = 32  # nested calls of defined functions (`f(x) = f(x - 1)` stops here)


class _Walker:
    def __init__(self, env: Env, bound: dict[sympy.Symbol, int], calls: int = 0) -> None:
        self.env = env
        self.bound = bound
        self.calls = calls

    def walk(self, node: sympy.Basic) -> Any:
        if isinstance(node, sympy.Number | sympy.NumberSymbol) or node in (sympy.I,):
            return node
        if isinstance(node, sympy.Symbol):
            return self._symbol(node)
        if isinstance(node, sympy.Indexed):
            return self._indexed(node)
        if isinstance(node, WithUnit):
            return self.walk(node.args[0])
        if isinstance(node, sympy.Pow):
            return self._pow(node)
        if isinstance(node, sympy.Add | sympy.Mul):
            values = [self.walk(arg) for arg in node.args]
            return settle(sympy.Add(*values) if isinstance(node, sympy.Add) else sympy.Mul(*values))
        if isinstance(node, sympy.Sum | sympy.Product | MaxOver | MinOver):
            return self._reduce(node)
        if isinstance(node, Component):
            return self._component(node)
        if isinstance(node, AppliedUndef):
            return self._applied(node)
        if isinstance(node, sympy.Max | sympy.Min):  # not sympy.Function subclasses
            return settle(node.func(*[self.walk(arg) for arg in node.args]))
        if isinstance(node, sympy.Function) and node.func in _FUNCTIONS:
            return settle(node.func(*[self.walk(arg) for arg in node.args]))
        if isinstance(node, sympy.Piecewise):
            return self._piecewise(node)
        raise ClaimError(f"cannot evaluate {type(node).__name__} ({node}) at stated values")

    def _symbol(self, node: sympy.Symbol) -> Any:
        if node in self.bound:
            return sympy.Integer(self.bound[node])
        value = self.env.scalars.get(node)
        if value is None:
            found = self.env.arrays.get(node.name)
            if found is not None:
                return found
            raise Unknown(node.name)
        return value

    def _indices(self, node: sympy.Indexed) -> Key:
        key = []
        for index in node.indices:
            value = self.walk(index)
            if not (isinstance(value, sympy.Integer) or (value.is_number and value.is_integer)):
                raise ClaimError(f"{node}: index {index} is not an integer here ({value})")
            key.append(int(value))
        return tuple(key)

    def _indexed(self, node: sympy.Indexed) -> Any:
        name = str(node.base.label)
        key = self._indices(node)
        array = self.env.arrays.get(name)
        if array is not None and key in array:
            return array[key]
        written = sympy.Symbol(f"{name}_{'_'.join(map(str, key))}")  # m_0 as a base case
        if written in self.env.scalars:
            return self.env.scalars[written]
        raise Unknown(f"{name}[{', '.join(map(str, key))}]")

    def _pow(self, node: sympy.Pow) -> Any:
        base, exponent = node.args
        if isinstance(base, sympy.Symbol) and (base, exponent) in self.env.powers:
            return self.env.powers[(base, exponent)]
        value, power = self.walk(base), self.walk(exponent)
        if isinstance(value, sympy.Rational | sympy.Float) and power.is_Integer:
            size = abs(int(power)) * max(1, int(abs(sympy.Float(value))).bit_length())
            if size > MAX_BITS * 4:
                raise ClaimError(f"{node} at the stated values is too large to compute exactly")
        return settle(sympy.Pow(value, power))

    def _range(self, lower: Any, upper: Any, node: sympy.Basic) -> range:
        low, high = self.walk(lower), self.walk(upper)
        if not (low.is_Integer and high.is_Integer):
            raise ClaimError(f"{node}: the bounds {low}..{high} are not integers")
        count = int(high) - int(low) + 1
        self.env.terms += max(count, 0)
        if count > MAX_TERMS or self.env.terms > 10 * MAX_TERMS:
            raise ClaimError(f"{node}: {count} terms is more than a worked example needs")
        return range(int(low), int(high) + 1)

    def _closed_form(self, node: sympy.Expr) -> Any:
        r"""`\sum_{t=1}^{T} t` at T = 32768 in closed form, when the body reads no data."""
        body = node.function
        if body.atoms(sympy.Indexed, Component, AppliedUndef) or not isinstance(
            node, sympy.Sum | sympy.Product
        ):
            return None
        variables = {limit[0] for limit in node.limits}
        known = {
            s: self._symbol(s)
            for s in node.free_symbols
            if isinstance(s, sympy.Symbol) and s not in variables
        }
        if any(isinstance(v, Series) for v in known.values()):
            return None
        value = node.xreplace(known).doit()
        return settle(value) if value.is_number else None

    def _reduce(self, node: sympy.Expr) -> Any:
        if (closed := self._closed_form(node)) is not None:
            return closed
        (variable, lower, upper), *rest = node.limits
        if rest:
            inner = type(node)(node.function, *rest)
            node = type(node)(inner, (variable, lower, upper))
        terms = []
        saved = self.bound.get(variable)
        try:
            for value in self._range(lower, upper, node):
                self.bound[variable] = value
                terms.append(self.walk(node.function))
        finally:
            if saved is None:
                self.bound.pop(variable, None)
            else:
                self.bound[variable] = saved
        if isinstance(node, sympy.Sum):
            return settle(sympy.Add(*terms))
        if isinstance(node, sympy.Product):
            return settle(sympy.Mul(*terms))
        if not terms:
            raise ClaimError(f"{node}: an extremum over an empty range")
        return (sympy.Max if isinstance(node, MaxOver) else sympy.Min)(*terms)

    def _component(self, node: Component) -> Any:
        value, *indices = node.args
        computed = self.walk(value)
        key = tuple(int(self.walk(index)) for index in indices)
        if isinstance(computed, Series) and key in computed:
            return computed[key]
        raise ClaimError(f"{node}: no entry {key}")

    def _applied(self, node: AppliedUndef) -> Any:
        name = type(node).__name__
        if name in self.env.functions:
            return self._call(node, *self.env.functions[name])
        if name in ("softmax", "softmax_rows") and len(node.args) == 1:
            values = self.walk(node.args[0])
            if not isinstance(values, Series):
                raise ClaimError(f"{node}: softmax needs a vector")
            weights = {key: sympy.exp(v) for key, v in values.items()}
            total = sympy.Add(*weights.values())
            return Series({key: settle(w / total) for key, w in weights.items()})
        raise ClaimError(f"no value for the function {name} (define it in a relation)")

    def _call(
        self, node: AppliedUndef, parameters: tuple[sympy.Symbol, ...], body: sympy.Basic
    ) -> Any:
        """`v(2 tau)` with `v(t) = ...` defined: the body at t = the argument's value (the
        parameters shadow scalars and index letters of the same name)."""
        if len(node.args) != len(parameters):
            raise ClaimError(
                f"{node}: {type(node).__name__} is defined with {len(parameters)} argument(s)"
            )
        if self.calls >= MAX_CALLS:
            raise ClaimError(f"{node}: more than {MAX_CALLS} nested function calls")
        values = dict(zip(parameters, (self.walk(arg) for arg in node.args), strict=True))
        scope = replace(self.env, scalars={**self.env.scalars, **values})
        bound = {k: v for k, v in self.bound.items() if k not in values}
        try:
            return _Walker(scope, bound, self.calls + 1).walk(body)
        finally:
            self.env.terms = scope.terms

    def _piecewise(self, node: sympy.Piecewise) -> Any:
        for value, condition in node.args:
            if condition is sympy.true or bool(self.walk_condition(condition)):
                return self.walk(value)
        raise ClaimError(f"{node}: no case holds at the stated values")

    def walk_condition(self, condition: sympy.Basic) -> bool:
        if isinstance(condition, sympy.core.relational.Relational):
            left, right = self.walk(condition.lhs), self.walk(condition.rhs)
            return bool(type(condition)(left, right))
        raise ClaimError(f"cannot decide the case condition {condition}")


_FUNCTIONS = {
    sympy.exp, sympy.log, sympy.sin, sympy.cos, sympy.tan, sympy.tanh, sympy.sinh, sympy.cosh,
    sympy.asin, sympy.acos, sympy.atan, sympy.Abs, sympy.sign, sympy.floor, sympy.ceiling,
    sympy.factorial, sympy.binomial, sympy.erf, sympy.sqrt,
}  # fmt: skip
