"""Which computed quantities went through a symbol whose table unit does not read.

A claim computes in the symbol table's units, scaling each relation's right side into its
left side's unit (`side_ratio`). A symbol whose unit does not read (`nh` for nH: A421)
has no scale, so that factor is taken as 1: `E = P t` with P in `mw` computes E in Wh as
if P were in W. A number such a quantity matches proves nothing about it, so the binder
does not count it (A423); this module says which quantities those are.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

import sympy
from sympy.core.function import AppliedUndef


def reads(expr: sympy.Basic) -> set[str]:
    """The names an expression reads: its symbols, indexed bases and called functions."""
    names = {str(symbol) for symbol in expr.free_symbols}
    names |= {str(node.base.label) for node in expr.atoms(sympy.Indexed)}
    return names | {type(node).__name__ for node in expr.atoms(AppliedUndef)}


def through(direct: Mapping[str, Iterable[str]], unread: Mapping[str, str]) -> dict[str, list[str]]:
    """Each computed name (`direct`: name -> the names its definition reads) -> the
    symbols with an unread unit it was computed from, directly or through other computed
    names; names that went through none are left out."""
    found: dict[str, set[str]] = {}

    def visit(name: str, seen: frozenset[str]) -> set[str]:
        if name in found:
            return found[name]
        hit = {other for other in direct.get(name, ()) if other in unread}
        for other in direct.get(name, ()):
            if other in direct and other not in seen:
                hit |= visit(other, seen | {name})
        if not seen:
            found[name] = hit  # a value inside a cycle (a recurrence) may be partial
        return hit

    return {name: sorted(hit) for name in direct if (hit := visit(name, frozenset()))}
