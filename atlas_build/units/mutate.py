"""Dimension-breaking edits of a relation, for selftest: each one `check` must catch.

Three edits a careless author makes: drop a divisor (`k_B T/q` -> `k_B T`),
square the wrong factor (`k_B T/q` -> `k_B T²/q`), and add a term of another
dimension. An edit is offered only where it changes the dimension of the node
it edits and that node's dimension still matters: not inside a function whose
result ignores its argument's unit (`sign`, an unlisted or glossary-typed
function), nor in sum limits, indices or conditions, which are not checked.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass

import sympy
from sympy.concrete.expr_with_limits import ExprWithLimits
from sympy.core.function import AppliedUndef

from . import functions as roles
from .check import UNCOMPARED, check, dimension_of
from .findings import SCALE, errors
from .spec import UnitSpec

DROP_DIVISOR = "drop-divisor"
SQUARE_FACTOR = "square-factor"
ADD_TERM = "add-term"


@dataclass(frozen=True)
class Mutant:
    kind: str
    description: str
    lhs: sympy.Basic
    rhs: sympy.Basic


def _opaque(node: sympy.Basic, units: Mapping[str, UnitSpec]) -> bool:
    """A function whose result does not depend on its arguments' units."""
    if isinstance(node, AppliedUndef) and type(node).__name__ in units:
        return True
    if isinstance(node, sympy.Function | sympy.Max | sympy.Min):
        role = roles.role_of(type(node).__name__)
        return role is None or role == roles.DIMENSIONLESS_OUT
    return False


def _checked_nodes(expr: sympy.Basic, units: Mapping[str, UnitSpec]) -> Iterator[sympy.Basic]:
    """Nodes whose dimension reaches the check, in pre-order."""
    yield expr
    if _opaque(expr, units) or isinstance(expr, sympy.Indexed | sympy.Symbol):
        return
    if type(expr).__name__ == "WithUnit":
        return
    children = expr.args
    if isinstance(expr, sympy.Product):
        return  # a product over a range of dimensioned terms has no fixed unit
    if isinstance(expr, ExprWithLimits):
        children = (expr.args[0],)
    elif isinstance(expr, sympy.Piecewise):
        children = tuple(branch.expr for branch in expr.args)
    elif isinstance(expr, sympy.Derivative):
        children = (expr.expr,)
    for child in children:
        yield from _checked_nodes(child, units)


def _dimensioned(expr: sympy.Basic, units: Mapping[str, UnitSpec]) -> bool:
    dimension = dimension_of(expr, units)
    return dimension is not None and not dimension.checked.is_dimensionless


def _side_edits(
    side: sympy.Basic, units: Mapping[str, UnitSpec]
) -> Iterator[tuple[str, str, sympy.Basic]]:
    if isinstance(side, sympy.Symbol | sympy.Indexed) and _dimensioned(side, units):
        yield SQUARE_FACTOR, f"square {side}", side**2
    for node in _checked_nodes(side, units):
        if not isinstance(node, sympy.Mul):
            continue
        for position, factor in enumerate(node.args):
            if not _dimensioned(factor, units):
                continue
            rest = [*node.args[:position], *node.args[position + 1 :]]
            if isinstance(factor, sympy.Pow) and factor.exp.is_negative:
                dropped = sympy.Mul(*rest)
                description = f"drop the divisor {factor.base} from {node}"
                yield DROP_DIVISOR, description, side.xreplace({node: dropped})
            squared = sympy.Mul(*rest, factor**2)
            yield SQUARE_FACTOR, f"square {factor} in {node}", side.xreplace({node: squared})


def _foreign(
    side: sympy.Basic, relation: sympy.Basic, units: Mapping[str, UnitSpec]
) -> sympy.Expr | None:
    """A symbol of another dimension than `side`, preferring the relation's own symbols."""
    dimension = dimension_of(side, units)
    if dimension is None:
        return None
    names = sorted(str(s) for s in relation.free_symbols) + sorted(units)
    for name in names:
        other = dimension_of(sympy.Symbol(name), units)
        if other is not None and other.checked != dimension.checked:
            return sympy.Symbol(name)
    return None if dimension.checked.is_dimensionless else sympy.Integer(1)


def mutants(
    lhs: sympy.Basic, rhs: sympy.Basic, units: Mapping[str, UnitSpec], op: str = "="
) -> list[Mutant]:
    """Every dimension-breaking edit of `lhs op rhs` this module knows, without duplicates.

    Only a relation that checks clean and whole (no finding but notes of scale, no
    unknown) is edited: then every edited node's dimension is known and reaches a
    comparison. An edit is kept only when `check` reports it as an error: one the check
    cannot be sure of (through a descriptive unit) proves nothing.
    """
    if op in UNCOMPARED or [f for f in check(lhs, rhs, op, units) if f.kind != SCALE]:
        return []
    found: list[Mutant] = []
    seen = {(lhs, rhs)}
    relation = sympy.Tuple(lhs, rhs)

    def add(kind: str, description: str, new_lhs: sympy.Basic, new_rhs: sympy.Basic) -> None:
        if (new_lhs, new_rhs) not in seen:
            seen.add((new_lhs, new_rhs))
            if errors(check(new_lhs, new_rhs, op, units)):
                found.append(Mutant(kind, description, new_lhs, new_rhs))

    for name, side in (("left", lhs), ("right", rhs)):
        for kind, description, edited in _side_edits(side, units):
            if name == "left":
                add(kind, f"{description} (left side)", edited, rhs)
            else:
                add(kind, f"{description} (right side)", lhs, edited)
        extra = _foreign(side, relation, units)
        if extra is not None:
            edited = sympy.Add(side, extra)
            description = f"add {extra} to the {name} side"
            if name == "left":
                add(ADD_TERM, description, edited, rhs)
            else:
                add(ADD_TERM, description, lhs, edited)
    return found
