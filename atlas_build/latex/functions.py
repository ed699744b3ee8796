"""SymPy node types the dialect produces beyond SymPy's own.

They are ordinary SymPy expressions (substitution, ``doit``, equality all work)
with a dedicated class, so the numeric evaluator can map each one to the right
array operation instead of guessing from a name. Set-like and big-operator
nodes are in :mod:`.sets`.
"""

from __future__ import annotations

from typing import Any

import sympy
from sympy.concrete.expr_with_limits import ExprWithLimits
from sympy.core.logic import fuzzy_and
from sympy.core.symbol import Str
from sympy.logic.boolalg import Boolean


class Transposed(sympy.Function):
    """Matrix transpose ``X^T``; it is non-commutative exactly when ``X`` is.

    (Named ``Transposed`` because SymPy's printers reserve ``Transpose`` for
    matrix expressions.)
    """

    nargs = 1

    @classmethod
    def eval(cls, arg: sympy.Basic) -> sympy.Basic | None:
        if isinstance(arg, Transposed):
            return arg.args[0]
        if arg.is_number:
            return arg
        return None

    def _sympystr(self, printer: Any) -> str:
        return f"Transposed({printer.doprint(self.args[0])})"


class _Extremum(ExprWithLimits):
    """Max/min of ``function`` over integer index ranges, like ``Sum`` for ``max``."""

    _reducer: Any = sympy.Max

    def doit(self, **hints: Any) -> sympy.Basic:
        """Expand to ``Max``/``Min`` of the terms when every bound is an integer."""
        terms: list[sympy.Basic] = [self.function]
        for index, lower, upper in reversed(self.limits):
            if not (lower.is_Integer and upper.is_Integer):
                return self
            if int(upper) - int(lower) > 10_000:
                return self
            terms = [
                term.subs(index, value)
                for term in terms
                for value in range(int(lower), int(upper) + 1)
            ]
        result = self._reducer(*terms)
        return result.doit(**hints) if hints.get("deep", True) else result

    def _sympystr(self, printer: Any) -> str:
        limits = ", ".join(printer.doprint(limit) for limit in self.limits)
        return f"{type(self).__name__}({printer.doprint(self.function)}, {limits})"


class MaxOver(_Extremum):
    """``\\max_j x_j``: the maximum of the body over the index range."""

    _reducer = sympy.Max


class MinOver(_Extremum):
    """``\\min_j x_j``: the minimum of the body over the index range."""

    _reducer = sympy.Min


def as_basic(value: sympy.Basic | int | bool) -> sympy.Basic:
    """A node argument as SymPy: Python ``bool``/``int`` become ``true``/``Integer``."""
    if isinstance(value, bool):
        return sympy.true if value else sympy.false
    if isinstance(value, int):
        return sympy.Integer(value)
    if isinstance(value, sympy.Basic):
        return value
    raise TypeError(f"a node argument must be a SymPy object, not {type(value).__name__}")


class Node(sympy.Expr):
    """A dialect node: an expression holding its arguments as they are.

    Commutative exactly when its expression arguments are, so a node built
    from declared matrices keeps its place in a product.
    """

    def __new__(cls, *args: sympy.Basic | int | bool) -> Node:
        return sympy.Basic.__new__(cls, *map(as_basic, args))

    def _eval_is_commutative(self) -> bool | None:
        return fuzzy_and(a.is_commutative for a in self.args if isinstance(a, sympy.Expr))


class Unit(sympy.Symbol):
    """The unit text of a :class:`WithUnit` (``mV``, ``GB/s``); never a quantity symbol."""


class WithUnit(Node):
    """``25.9\\,\\mathrm{mV}``: a value with the unit written after it.

    Its free symbols are the value's, and ``evaluate`` returns the value (the unit is
    for the units checker), so a unit letter is never mistaken for a quantity.
    """

    @property
    def value(self) -> sympy.Expr:
        return self.args[0]

    @property
    def unit(self) -> str:
        return str(self.args[1])

    @property
    def free_symbols(self) -> set[sympy.Basic]:
        return self.args[0].free_symbols

    @property
    def is_number(self) -> bool:
        return bool(self.args[0].is_number)

    def _eval_evalf(self, prec: int) -> sympy.Expr | None:
        return self.args[0]._eval_evalf(prec)


class Dots(Node):
    """An ellipsis (``\\cdots``, ``\\ldots``, ``\\vdots``): it parses, it has no value."""

    is_commutative = True


class PlusMinus(Node):
    """``a \\pm b`` (two values)."""


class MinusPlus(Node):
    """``a \\mp b`` (two values)."""


class Hadamard(Node):
    """``A \\odot B``: the elementwise product."""


class Kronecker(Node):
    """``A \\otimes B``: the Kronecker (tensor) product."""


class DirectSum(Node):
    """``A \\oplus B``: the direct sum, or exclusive or: evaluated on whole numbers, the
    bitwise exclusive or (``1 \\oplus 1`` is 0)."""


class BitAnd(Node):
    """``A_i \\land B_i`` between values (not statements): on 0/1 the logical and, on
    whole numbers bitwise. ``a \\land b`` between names or statements stays ``And``."""


class BitOr(Node):
    """``G_i \\lor (P_i \\land C_i)`` between values: on 0/1 the logical or, on whole
    numbers bitwise."""


class DirectDifference(Node):
    """``A \\ominus B``."""


class Compose(Node):
    """``f \\circ g``: composition."""


class Convolution(Node):
    """``x \\ast h``: convolution."""


class CrossCorrelation(Node):
    """``x \\star h``: cross-correlation."""


class Parallel(Node):
    """``R_1 \\parallel R_2``: the parallel combination ``ab/(a+b)``; also ``D(P \\| Q)``."""


class Norm(Node):
    """``\\|x\\|`` (``Norm(x)``) or ``\\|x\\|_p`` (``Norm(x, p)``; ``p`` may be ``oo`` or ``F``)."""


class Cardinality(Node):
    """``|A \\cap B|``: the number of elements of a set."""


class PositivePart(Node):
    """``[x]_+``: ``max(x, 0)``."""


class Rounded(Node):
    """``\\lfloor x \\rceil``: ``x`` rounded to the nearest integer."""


class InnerProduct(Node):
    """``\\langle x, y \\rangle``."""


class AngleBracket(Node):
    """``\\langle x \\rangle``: an average or expectation written with angle brackets."""


class Det(Node):
    """``\\det A`` or a ``vmatrix``: the determinant."""


class MatrixLiteral(Node):
    """A ``bmatrix``/``pmatrix``/... literal: rows of cells, as ``Tuple`` rows.

    Non-commutative, so ``AB = \\begin{bmatrix}...\\end{bmatrix}`` keeps products ordered.
    """

    is_commutative = False

    @property
    def rows(self) -> list[tuple[sympy.Basic, ...]]:
        return [tuple(row) for row in self.args]


class Component(Node):
    """``\\mathrm{softmax}(z)_i``: entry ``i`` of a vector-valued expression."""


class Expectation(Node):
    """``\\mathbb{E}[X]`` (``over`` is ``true``) or ``\\mathbb{E}_{x\\sim p}[f(x)]``."""


class Given(Node):
    """``A \\mid B`` inside a probability or expectation: ``A`` given ``B``."""


class Indicator(Node):
    """``\\mathbb{1}[y = k]``: 1 where the condition holds, else 0."""


class Gradient(Node):
    """``\\nabla_\\theta L`` (``Gradient(L, theta)``) or ``\\nabla f`` (``Gradient(f)``)."""


class Laplacian(Node):
    """``\\nabla^2 f``."""


class Divergence(Node):
    """``\\nabla \\cdot F``."""


class Curl(Node):
    """``\\nabla \\times F``."""


class Differential(Node):
    """``\\partial L`` outside a fraction (``\\partial L / \\partial w`` is a derivative)."""


class EvaluatedBetween(Node):
    """``\\left. F \\right|_a^b``: ``F`` evaluated between two points."""


class Related(Boolean):
    """A relation without a SymPy class (``x \\in S``, ``a \\sim b``), as a boolean.

    It appears inside conditions (``P(X \\in A)``, a ``cases`` row), so it can be
    an argument of ``And``/``Piecewise``; ``op`` is the ``Relation.op`` name.
    """

    def __new__(cls, lhs: sympy.Basic, rhs: sympy.Basic, op: str | Str) -> Related:
        # SymPy rebuilds a node from its args (`xreplace`, `subs`), passing `op` as the Str
        return sympy.Basic.__new__(cls, lhs, rhs, op if isinstance(op, Str) else Str(op))

    @property
    def lhs(self) -> sympy.Basic:
        return self.args[0]

    @property
    def rhs(self) -> sympy.Basic:
        return self.args[1]

    @property
    def op(self) -> str:
        return str(self.args[2])

    @property
    def free_symbols(self) -> set[sympy.Basic]:
        return self.args[0].free_symbols | self.args[1].free_symbols
