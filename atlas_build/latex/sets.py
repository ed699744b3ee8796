"""Set nodes and big operators over index sets, ranges and conditions.

``\\{1, 2\\}`` is ``SetOf(1, 2)``, ``A \\cap B`` is ``Cap(A, B)``, ``[a, b)`` is
``IntervalOf(a, b, false, true)``. A big operator holds its body and what it runs
over: ``IndexRange(i, 1, n)`` (``_{i=1}^{n}``), ``IndexIn(i, S)`` (``_{i \\in S}``),
or a condition (``_{i \\neq j}``; ``true`` when nothing is written). Their free
symbols exclude the index, so an index is never taken for a quantity.
"""

from __future__ import annotations

import sympy

from .functions import Node


class SetOf(Node):
    """``\\{a, b, c\\}`` (no arguments: the empty set)."""


class SetBuilder(Node):
    """``\\{x \\in S : P(x)\\}``: ``SetBuilder(element, condition)``."""


class Cap(Node):
    """``A \\cap B``."""


class Cup(Node):
    """``A \\cup B`` (also ``\\sqcup``, ``\\uplus``)."""


class SetMinus(Node):
    """``A \\setminus B``."""


class MaxOf(Node):
    """``\\max\\{x \\in S : ...\\}``: the largest element of a set."""


class MinOf(Node):
    """``\\min\\{V' \\subseteq V : ...\\}``: the smallest element of a set."""


class IntervalOf(Node):
    """``[a, b]``, ``[a, b)``, ``(a, b]``: ends and whether each is open."""


class IndexRange(Node):
    """``_{i=lo}^{hi}``: the integers ``lo..hi``."""


class IndexIn(Node):
    """``_{i \\in S}``: the elements of ``S`` (a bound list or set)."""


def bound_indices(over: sympy.Basic) -> set[sympy.Basic]:
    """The index symbols an ``over`` binds (none for a bare condition)."""
    if isinstance(over, IndexRange | IndexIn):
        index = over.args[0]
        return set(index.args) if isinstance(index, sympy.Tuple) else {index}
    return set()


class BigOperator(Node):
    """``body`` reduced over ``over`` (an ``IndexRange``, ``IndexIn`` or condition)."""

    @property
    def body(self) -> sympy.Basic:
        return self.args[0]

    @property
    def over(self) -> sympy.Basic:
        return self.args[1]

    @property
    def free_symbols(self) -> set[sympy.Basic]:
        indices = bound_indices(self.over)
        if not indices:
            return self.body.free_symbols | self.over.free_symbols
        outside: set[sympy.Basic] = set()
        for part in self.over.args[1:]:
            outside |= part.free_symbols
        return (self.body.free_symbols - indices) | outside


class SetSum(BigOperator):
    """``\\sum_{i \\in S} x_i`` (and sums over a condition)."""


class SetProduct(BigOperator):
    """``\\prod_{i \\in S} x_i``."""


class SetMax(BigOperator):
    """``\\max_{p \\in \\mathcal{P}} f(p)``."""


class SetMin(BigOperator):
    """``\\min_{p \\in \\mathcal{P}} f(p)``."""


class ArgMax(BigOperator):
    """``\\arg\\max_y p(y)``: the index value where the body is largest."""


class ArgMin(BigOperator):
    """``\\arg\\min_\\theta L(\\theta)``."""


class Supremum(BigOperator):
    """``\\sup_x f(x)``."""


class Infimum(BigOperator):
    """``\\inf_x f(x)``."""


class BigCup(BigOperator):
    """``\\bigcup_{i=1}^{n} A_i``."""


class BigCap(BigOperator):
    """``\\bigcap_i A_i``."""


class BigOPlus(BigOperator):
    """``\\bigoplus_i V_i``."""


class BigOTimes(BigOperator):
    """``\\bigotimes_i V_i``."""


class BigODot(BigOperator):
    """``\\bigodot_i x_i``."""


class Coproduct(BigOperator):
    """``\\coprod_i X_i``."""


class BigOr(BigOperator):
    """``\\bigvee_i P_i``."""


class BigAnd(BigOperator):
    """``\\bigwedge_i P_i``."""


class IntegralOver(BigOperator):
    """``\\int_D f\\,dx``: an integral over a region ``D`` (``IndexIn(x, D)``)."""


SET_NODES = (SetOf, SetBuilder, Cap, Cup, SetMinus, BigCup, BigCap, IntervalOf)
"""Nodes whose value is a set (``|S|`` of one is a cardinality)."""
