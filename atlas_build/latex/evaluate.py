"""A small numeric evaluator for the SymPy trees the parser builds.

It walks the tree itself (no ``lambdify``, no generated code), so what runs is
exactly what is listed here: commutative products are elementwise/scalar,
non-commutative factors (declared matrices, matrix literals, their transposes and
functions of them) are chained with ``@``, ``Transposed`` swaps the last two
axes, and named functions come from the caller. Indexed entries are 1-based by
default, to match ``\\sum_{j=1}^{n}``. Each dialect node maps to one array
operation (:mod:`.evalnodes`); every operation's result size is checked against
``max_elements`` before it is computed (:mod:`.budget`), and every loop (sums,
set reductions, quadrature nodes) spends ``max_iterations``.
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Callable, Iterable, Mapping
from typing import Any

import numpy as np
import sympy
from sympy.core.function import AppliedUndef

from . import budget
from .budget import DEFAULT_MAX_ELEMENTS
from .errors import (
    BAD_INDEX,
    NUMERIC,
    TOO_LARGE,
    UNBOUND_SYMBOL,
    UNKNOWN_FUNCTION,
    UNSUPPORTED,
    EvaluationError,
)
from .functions import MaxOver, MinOver, Transposed

__all__ = ["DEFAULT_MAX_ELEMENTS", "evaluate"]


def evaluate(
    expr: sympy.Basic,
    bindings: Mapping[str, Any],
    functions: Mapping[str, Callable[..., Any]] | None = None,
    *,
    index_base: int = 1,
    max_iterations: int = 1_000_000,
    max_elements: int = DEFAULT_MAX_ELEMENTS,
) -> Any:
    """Evaluate ``expr`` with symbol values from ``bindings`` (names as in the tree,
    e.g. ``"d_k"``; an ``IndexedBase`` name binds an array; a set binds a Python
    set, frozenset, list or range) and applied undefined functions from
    ``functions`` (e.g. ``{"softmax_rows": softmax}``).

    Floating-point results follow IEEE rules silently (``1/0`` is ``inf``, masked
    scores of ``-inf`` stay ``-inf``); the caller compares the values.

    Raises :class:`EvaluationError` naming any unbound symbol or function, an
    unsupported node (``Derivative``, ``Limit``, an ellipsis), a bad index, a
    numeric failure such as a shape mismatch, or ``too-large`` when an
    intermediate would exceed ``max_elements`` or the loops ``max_iterations``.
    """
    evaluator = Evaluator(bindings, functions or {}, index_base, max_iterations, max_elements)
    with np.errstate(divide="ignore", over="ignore", invalid="ignore"):
        return evaluator.walk(expr)


class Evaluator:
    """Walks one tree; ``scope`` holds loop variables (sum indices, quadrature nodes)."""

    def __init__(
        self,
        bindings: Mapping[str, Any],
        functions: Mapping[str, Callable[..., Any]],
        index_base: int,
        max_iterations: int,
        max_elements: int,
    ) -> None:
        self.bindings = bindings
        self.functions = functions
        self.index_base = index_base
        self.budget = max_iterations
        self.max_elements = max_elements
        self.scope: dict[str, Any] = {}

    def walk(self, node: sympy.Basic) -> Any:
        if isinstance(node, AppliedUndef):
            name = type(node).__name__
            function = self.functions.get(name)
            if function is None:
                raise EvaluationError(UNKNOWN_FUNCTION, f"no function bound for {name}", name)
            return function(*[self.walk(arg) for arg in node.args])
        try:
            return self._walk(node)
        except (ValueError, TypeError, IndexError, ArithmeticError, np.linalg.LinAlgError) as exc:
            raise EvaluationError(NUMERIC, f"{type(node).__name__}: {exc}") from None

    def spend(self, count: int, what: str) -> None:
        """Spend ``count`` iterations of the budget (``too-large`` when it runs out)."""
        if count > self.budget:
            raise EvaluationError(TOO_LARGE, f"{count} {what} exceed the evaluation budget")
        self.budget -= count

    def bound(self, name: str, value: Any, body: sympy.Basic) -> Any:
        """``body`` evaluated with the loop variable ``name`` set to ``value``."""
        saved = self.scope.get(name, _MISSING)
        self.scope[name] = value
        try:
            return self.walk(body)
        finally:
            if saved is _MISSING:
                self.scope.pop(name, None)
            else:
                self.scope[name] = saved

    def _walk(self, node: sympy.Basic) -> Any:
        from .evalnodes import HANDLERS

        args = node.args
        if node.is_Number or isinstance(node, sympy.NumberSymbol):
            return self._number(node)
        if node is sympy.I:  # `\\mathrm{j}`: the imaginary unit
            return np.complex128(1j)
        if isinstance(node, sympy.Symbol):
            return self.symbol(node.name)
        if isinstance(node, sympy.Indexed):
            return self._indexed(node)
        if isinstance(node, sympy.Add):
            values = [self.walk(arg) for arg in args]
            budget.broadcast("a sum", self.max_elements, *values)
            return functools.reduce(lambda a, b: a + b, values)
        if isinstance(node, sympy.Mul):
            return self._mul(node)
        if isinstance(node, sympy.Pow):
            return self._pow(node)
        if isinstance(node, Transposed):
            value = self.walk(args[0])
            return np.swapaxes(value, -1, -2) if np.ndim(value) >= 2 else value
        if isinstance(node, sympy.Sum | sympy.Product | MaxOver | MinOver):
            return self._reduce(node)
        for kind in type(node).__mro__:
            handler = HANDLERS.get(kind)
            if handler is not None:
                return handler(self, node)
        raise EvaluationError(UNSUPPORTED, f"cannot evaluate {type(node).__name__} numerically")

    def _number(self, node: sympy.Basic) -> Any:
        if node in (sympy.oo, -sympy.oo):
            return np.float64(np.inf if node == sympy.oo else -np.inf)
        if node is sympy.zoo or node is sympy.nan:
            raise EvaluationError(NUMERIC, f"undefined number {node}")
        return np.float64(float(node))

    def symbol(self, name: str) -> Any:
        if name in self.scope:
            return self.scope[name]
        if name not in self.bindings:
            raise EvaluationError(UNBOUND_SYMBOL, f"no value bound for symbol {name}", name)
        return self.bindings[name]

    def integer(self, node: sympy.Basic) -> int:
        value = self.walk(node)
        if np.ndim(value) != 0 or float(value) != int(value):
            raise EvaluationError(BAD_INDEX, f"{node} is not an integer")
        return int(value)

    def entry(self, value: Any, indices: Iterable[int], name: str | None, node: Any) -> Any:
        """``value`` at the given (index-base) positions."""
        position = tuple(index - self.index_base for index in indices)
        if any(p < 0 for p in position):
            raise EvaluationError(BAD_INDEX, f"{node} is before the first entry", name)
        try:
            return np.asarray(value)[position]
        except IndexError:
            raise EvaluationError(BAD_INDEX, f"{node} is out of range", name) from None

    def _indexed(self, node: sympy.Indexed) -> Any:
        name = str(node.base.label)
        indices = [self.integer(index) for index in node.indices]
        return self.entry(self.symbol(name), indices, name, node)

    def _mul(self, node: sympy.Mul) -> Any:
        commutative, ordered = node.args_cnc()
        values = [self.walk(arg) for arg in commutative]
        if values:
            budget.broadcast("a product", self.max_elements, *values)
        result = functools.reduce(lambda a, b: a * b, values) if values else None
        if ordered:
            product = self.walk(ordered[0])
            for factor in ordered[1:]:
                right = self.walk(factor)
                budget.matmul(self.max_elements, product, right)
                product = product @ right
            if result is not None:
                budget.broadcast("a product", self.max_elements, result, product)
            result = product if result is None else result * product
        return result

    def _pow(self, node: sympy.Pow) -> Any:
        base = self.walk(node.base)
        if not node.base.is_commutative and node.exp.is_Integer:
            matrix = np.asarray(base)
            if node.exp == -1:
                return np.linalg.inv(matrix)
            if abs(int(node.exp)) > 64:
                raise EvaluationError(TOO_LARGE, f"matrix power {node.exp} is too large")
            return np.linalg.matrix_power(matrix, int(node.exp))
        if node.exp == sympy.Rational(1, 2):
            return np.sqrt(base)
        exponent = self.walk(node.exp)
        budget.broadcast("a power", self.max_elements, base, exponent)
        return np.power(base, exponent)

    def _reduce(self, node: sympy.Expr) -> Any:
        names: list[str] = []
        ranges: list[range] = []
        for index, lower, upper in node.limits:
            names.append(getattr(index, "name", str(index)))  # a Dummy prints as _i
            ranges.append(range(self.integer(lower), self.integer(upper) + 1))
        count = 1
        for values in ranges:
            count *= len(values)
        self.spend(count, "terms")
        saved = dict(self.scope)
        terms = []
        try:
            for assignment in itertools.product(*ranges):
                self.scope.update(zip(names, (np.int64(v) for v in assignment), strict=True))
                terms.append(self.walk(node.function))
        finally:
            self.scope = saved
        if isinstance(node, sympy.Sum):
            return functools.reduce(lambda a, b: a + b, terms, np.float64(0.0))
        if isinstance(node, sympy.Product):
            return functools.reduce(lambda a, b: a * b, terms, np.float64(1.0))
        if not terms:
            raise EvaluationError(NUMERIC, f"{type(node).__name__} over an empty range")
        reducer = np.maximum if isinstance(node, MaxOver) else np.minimum
        return functools.reduce(reducer, terms)


_MISSING = object()
