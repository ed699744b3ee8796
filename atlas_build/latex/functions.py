"""SymPy node types the dialect produces beyond SymPy's own.

They are ordinary SymPy expressions (substitution, ``doit``, equality all work)
with a dedicated class, so the numeric evaluator can map each one to the right
array operation instead of guessing from a name.
"""

from __future__ import annotations

from typing import Any

import sympy
from sympy.concrete.expr_with_limits import ExprWithLimits


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
