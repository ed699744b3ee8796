"""Numeric meaning of each node class: one array operation per class, nothing from names.

``HANDLERS`` maps a SymPy or dialect class to a function of the evaluator and the
node. Elementwise operations and products check their result size first
(:mod:`.budget`); loops over index sets spend the iteration budget.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import numpy as np
import sympy

from . import budget, sets
from .errors import NUMERIC, UNSUPPORTED, EvaluationError
from .functions import (
    BitAnd,
    BitOr,
    Cardinality,
    Component,
    Convolution,
    CrossCorrelation,
    Det,
    DirectSum,
    Hadamard,
    Indicator,
    InnerProduct,
    Kronecker,
    MatrixLiteral,
    Norm,
    Parallel,
    PositivePart,
    Related,
    Rounded,
    WithUnit,
)
from .probability import Probability
from .quadrature import integral

if TYPE_CHECKING:
    from .evaluate import Evaluator

Handler = Callable[["Evaluator", Any], Any]
MAX_EXACT_FACTORIAL = 170
"""Beyond 170!, float64 overflows: the value is ``inf``."""


def _unary(function: Callable[[Any], Any]) -> Handler:
    return lambda ev, node: function(ev.walk(node.args[0]))


def _elementwise(operation: str, function: Callable[..., Any]) -> Handler:
    def handler(ev: Evaluator, node: Any) -> Any:
        values = [ev.walk(arg) for arg in node.args]
        budget.broadcast(operation, ev.max_elements, *values)
        return functools.reduce(function, values)

    return handler


def _as_set(value: Any) -> frozenset[Any]:
    if isinstance(value, frozenset):
        return value
    if isinstance(value, set | list | tuple | range):
        return frozenset(_hashable(v) for v in value)
    if isinstance(value, np.ndarray) and value.ndim == 1:
        return frozenset(_hashable(v) for v in value.tolist())
    raise EvaluationError(NUMERIC, f"expected a set, found {type(value).__name__}")


def _hashable(value: Any) -> Any:
    if isinstance(value, np.generic):
        return value.item()
    if isinstance(value, np.ndarray):
        raise EvaluationError(NUMERIC, "a set element must be a number, not an array")
    return value


def _abs(ev: Evaluator, node: Any) -> Any:
    value = ev.walk(node.args[0])
    if isinstance(value, set | frozenset):
        return np.float64(len(value))
    return np.abs(value)


def _cardinality(ev: Evaluator, node: Any) -> Any:
    return np.float64(len(_as_set(ev.walk(node.args[0]))))


def _set_of(ev: Evaluator, node: Any) -> Any:
    return frozenset(_hashable(ev.walk(arg)) for arg in node.args)


def _set_operation(function: Callable[[frozenset[Any], frozenset[Any]], frozenset[Any]]) -> Handler:
    def handler(ev: Evaluator, node: Any) -> Any:
        left, right = (_as_set(ev.walk(arg)) for arg in node.args)
        return function(left, right)

    return handler


def _factorial(value: Any) -> Any:
    def one(x: float) -> float:
        if x < 0 and float(x).is_integer():
            return math.nan
        if float(x).is_integer():
            return float(math.factorial(int(x))) if x <= MAX_EXACT_FACTORIAL else math.inf
        return math.gamma(x + 1) if x < MAX_EXACT_FACTORIAL else math.inf

    return np.vectorize(one, otypes=[np.float64])(value)


def _binomial(n: Any, k: Any) -> Any:
    def one(a: float, b: float) -> float:
        if b < 0 or b > a:
            return 0.0
        if float(a).is_integer() and float(b).is_integer() and a <= 1000:
            return float(math.comb(int(a), int(b)))
        return math.exp(math.lgamma(a + 1) - math.lgamma(b + 1) - math.lgamma(a - b + 1))

    return np.vectorize(one, otypes=[np.float64])(n, k)


def _piecewise(ev: Evaluator, node: Any) -> Any:
    values, conditions = [], []
    for expr, condition in node.args:
        values.append(ev.walk(expr))
        conditions.append(np.asarray(ev.walk(condition), dtype=bool))
    budget.broadcast("a piecewise value", ev.max_elements, *values, *conditions)
    return np.select(conditions, values, default=np.nan)[()]


def _related(ev: Evaluator, node: Related) -> Any:
    if node.op not in ("in", "notin"):
        raise EvaluationError(UNSUPPORTED, f"cannot evaluate the relation {node.op!r}")
    element = _hashable(ev.walk(node.lhs))
    inside = element in _as_set(ev.walk(node.rhs))
    return inside if node.op == "in" else not inside


def _matrix(ev: Evaluator, node: MatrixLiteral) -> Any:
    rows = [[ev.walk(cell) for cell in row] for row in node.args]
    if any(np.ndim(cell) != 0 for row in rows for cell in row):
        raise EvaluationError(NUMERIC, "a matrix literal's cells must be numbers")
    return np.array(rows, dtype=np.result_type(*[c for row in rows for c in row]))


def _norm(ev: Evaluator, node: Norm) -> Any:
    value = np.asarray(ev.walk(node.args[0]))
    if len(node.args) == 1:
        return np.linalg.norm(value)
    order_node = node.args[1]
    if isinstance(order_node, sympy.Symbol) and order_node.name == "F":
        return np.linalg.norm(value, "fro")
    order = ev.walk(order_node)
    if value.ndim > 2:
        raise EvaluationError(NUMERIC, "a p-norm needs a vector or a matrix")
    return np.linalg.norm(value, float(order))


def _component(ev: Evaluator, node: Component) -> Any:
    value = ev.walk(node.args[0])
    return ev.entry(value, [ev.integer(node.args[1])], None, node)


def _kronecker(ev: Evaluator, node: Any) -> Any:
    left, right = (ev.walk(arg) for arg in node.args)
    budget.outer("a Kronecker product", ev.max_elements, left, right)
    return np.kron(left, right)


def _convolve(correlate: bool) -> Handler:
    def handler(ev: Evaluator, node: Any) -> Any:
        left, right = (np.asarray(ev.walk(arg)) for arg in node.args)
        if left.ndim != 1 or right.ndim != 1:
            raise EvaluationError(NUMERIC, "convolution needs two 1-D sequences")
        budget.outer("a convolution", ev.max_elements, left, right)
        if correlate:
            return np.correlate(left, right, mode="full")
        return np.convolve(left, right)

    return handler


def _parallel(ev: Evaluator, node: Any) -> Any:
    left, right = (ev.walk(arg) for arg in node.args)
    budget.broadcast("a parallel combination", ev.max_elements, left, right)
    return left * right / (left + right)


def _inner(ev: Evaluator, node: Any) -> Any:
    left, right = (np.asarray(ev.walk(arg)) for arg in node.args)
    return np.vdot(left, right)


def _subs(ev: Evaluator, node: sympy.Subs) -> Any:
    expr, variables, points = node.args
    values = [ev.walk(point) for point in points]
    saved = dict(ev.scope)
    try:
        ev.scope.update({str(v): value for v, value in zip(variables, values, strict=True)})
        return ev.walk(expr)
    finally:
        ev.scope = saved


def _over(ev: Evaluator, over: Any) -> tuple[list[str], list[tuple[Any, ...]]]:
    """The index names and the value tuples a big operator runs over."""
    if isinstance(over, sets.IndexRange):
        index, lower, upper = over.args
        values = [(np.int64(v),) for v in range(ev.integer(lower), ev.integer(upper) + 1)]
        return [str(index)], values
    if isinstance(over, sets.IndexIn):
        index, domain = over.args
        names = [str(i) for i in index.args] if isinstance(index, sympy.Tuple) else [str(index)]
        elements = _as_set(ev.walk(domain))
        try:
            ordered = sorted(elements)
        except TypeError:
            ordered = list(elements)
        rows = [e if isinstance(e, tuple) else (e,) for e in ordered]
        if any(len(row) != len(names) for row in rows):
            raise EvaluationError(NUMERIC, f"elements of {domain} do not match the index {index}")
        return names, rows
    raise EvaluationError(UNSUPPORTED, f"cannot evaluate an operator over the condition {over}")


def _big(ev: Evaluator, node: sets.BigOperator) -> Any:
    names, rows = _over(ev, node.over)
    ev.spend(len(rows), "terms")
    saved = dict(ev.scope)
    terms = []
    try:
        for row in rows:
            ev.scope.update(zip(names, row, strict=True))
            terms.append(ev.walk(node.body))
    finally:
        ev.scope = saved
    kind = type(node)
    if kind is sets.SetSum:
        return functools.reduce(lambda a, b: a + b, terms, np.float64(0.0))
    if kind is sets.SetProduct:
        return functools.reduce(lambda a, b: a * b, terms, np.float64(1.0))
    if not terms:
        raise EvaluationError(NUMERIC, f"{kind.__name__} over an empty set")
    if kind in (sets.SetMax, sets.Supremum):
        return functools.reduce(np.maximum, terms)
    if kind in (sets.SetMin, sets.Infimum):
        return functools.reduce(np.minimum, terms)
    if kind in (sets.ArgMax, sets.ArgMin):
        if any(np.ndim(t) != 0 for t in terms):
            raise EvaluationError(NUMERIC, "arg max/min needs a number for each index value")
        best = int(np.argmax(terms) if kind is sets.ArgMax else np.argmin(terms))
        return rows[best][0] if len(rows[best]) == 1 else rows[best]
    if kind in (sets.BigCup, sets.BigCap):
        parts = [_as_set(t) for t in terms]
        combine = frozenset.union if kind is sets.BigCup else frozenset.intersection
        return functools.reduce(combine, parts)
    raise EvaluationError(UNSUPPORTED, f"cannot evaluate {kind.__name__} numerically")


def _extreme_of(largest: bool) -> Handler:
    def handler(ev: Evaluator, node: Any) -> Any:
        elements = list(_as_set(ev.walk(node.args[0])))
        if not elements:
            raise EvaluationError(NUMERIC, "the extreme of an empty set")
        return np.float64(max(elements) if largest else min(elements))

    return handler


def _relational(function: Callable[[Any, Any], Any]) -> Handler:
    return lambda ev, node: function(ev.walk(node.args[0]), ev.walk(node.args[1]))


def _logical(function: Callable[..., Any]) -> Handler:
    def handler(ev: Evaluator, node: Any) -> Any:
        values = [np.asarray(ev.walk(arg), dtype=bool) for arg in node.args]
        return functools.reduce(function, values)

    return handler


def _bitwise(function: Callable[[Any, Any], Any], what: str) -> Handler:
    """``∧``/``∨``/``⊕`` between values: on 0/1 the logical operator, on whole numbers
    bitwise; anything else is an error, never a silent truncation."""

    def handler(ev: Evaluator, node: Any) -> Any:
        values = []
        for arg in node.args:
            value = np.asarray(ev.walk(arg))
            whole = np.all(np.isfinite(value)) and np.all(value == np.round(value))
            if value.dtype != bool and not (whole and np.all(value >= 0)):
                raise EvaluationError(NUMERIC, f"{what} needs 0/1 or whole numbers ≥ 0")
            values.append(value.astype(np.int64))
        budget.broadcast(what, ev.max_elements, *values)
        return functools.reduce(function, values).astype(np.float64)[()]

    return handler


HANDLERS: dict[type, Handler] = {
    WithUnit: lambda ev, node: ev.walk(node.args[0]),
    Probability: lambda ev, node: ev.symbol(node.key),  # one opaque value, bound by its text
    sympy.exp: _unary(np.exp),
    sympy.log: _unary(np.log),
    sympy.sin: _unary(np.sin),
    sympy.cos: _unary(np.cos),
    sympy.tan: _unary(np.tan),
    sympy.cot: _unary(lambda x: 1 / np.tan(x)),
    sympy.sec: _unary(lambda x: 1 / np.cos(x)),
    sympy.csc: _unary(lambda x: 1 / np.sin(x)),
    sympy.sinh: _unary(np.sinh),
    sympy.cosh: _unary(np.cosh),
    sympy.tanh: _unary(np.tanh),
    sympy.coth: _unary(lambda x: 1 / np.tanh(x)),
    sympy.asin: _unary(np.arcsin),
    sympy.acos: _unary(np.arccos),
    sympy.atan: _unary(np.arctan),
    sympy.acot: _unary(lambda x: np.arctan(1 / x)),
    sympy.asinh: _unary(np.arcsinh),
    sympy.acosh: _unary(np.arccosh),
    sympy.atanh: _unary(np.arctanh),
    sympy.sign: _unary(np.sign),
    sympy.re: _unary(np.real),
    sympy.im: _unary(np.imag),
    sympy.arg: _unary(np.angle),
    sympy.erf: _unary(np.vectorize(math.erf, otypes=[np.float64])),
    sympy.erfc: _unary(np.vectorize(math.erfc, otypes=[np.float64])),
    sympy.floor: _unary(np.floor),
    sympy.ceiling: _unary(np.ceil),
    sympy.factorial: _unary(_factorial),
    sympy.binomial: lambda ev, node: _binomial(*(ev.walk(a) for a in node.args)),
    sympy.Mod: _elementwise("a remainder", np.mod),
    sympy.Abs: _abs,
    sympy.Max: _elementwise("a maximum", np.maximum),
    sympy.Min: _elementwise("a minimum", np.minimum),
    sympy.KroneckerDelta: lambda ev, node: np.float64(
        ev.integer(node.args[0]) == ev.integer(node.args[1])
    ),
    sympy.Piecewise: _piecewise,
    sympy.Integral: integral,
    sympy.Subs: _subs,
    sympy.Eq: _relational(np.equal),
    sympy.Ne: _relational(np.not_equal),
    sympy.Lt: _relational(np.less),
    sympy.Le: _relational(np.less_equal),
    sympy.Gt: _relational(np.greater),
    sympy.Ge: _relational(np.greater_equal),
    sympy.And: _logical(np.logical_and),
    sympy.Or: _logical(np.logical_or),
    sympy.Not: lambda ev, node: np.logical_not(ev.walk(node.args[0])),
    sympy.Xor: _logical(np.logical_xor),
    BitAnd: _bitwise(np.bitwise_and, "∧"),
    BitOr: _bitwise(np.bitwise_or, "∨"),
    DirectSum: _bitwise(np.bitwise_xor, "⊕"),
    type(sympy.true): lambda ev, node: True,
    type(sympy.false): lambda ev, node: False,
    Related: _related,
    Indicator: lambda ev, node: np.asarray(ev.walk(node.args[0]), dtype=np.float64)[()],
    Hadamard: _elementwise("a Hadamard product", lambda a, b: a * b),
    Kronecker: _kronecker,
    Convolution: _convolve(correlate=False),
    CrossCorrelation: _convolve(correlate=True),
    Parallel: _parallel,
    Norm: _norm,
    Cardinality: _cardinality,
    PositivePart: _unary(lambda x: np.maximum(x, 0)),
    Rounded: _unary(np.rint),
    InnerProduct: _inner,
    MatrixLiteral: _matrix,
    Det: _unary(lambda x: np.linalg.det(np.asarray(x))),
    Component: _component,
    sets.SetOf: _set_of,
    sets.Cap: _set_operation(frozenset.intersection),
    sets.Cup: _set_operation(frozenset.union),
    sets.SetMinus: _set_operation(frozenset.difference),
    sets.MaxOf: _extreme_of(largest=True),
    sets.MinOf: _extreme_of(largest=False),
    sets.BigOperator: _big,
}
