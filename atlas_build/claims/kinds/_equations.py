"""Parsing a lesson's display equation for a claim, with the claim's symbol declarations."""

from __future__ import annotations

from functools import lru_cache

import sympy
from pydantic import Field

from atlas_build.claims.running.registry import ClaimError, Context, Params
from atlas_build.latex import Relation, parse_relations
from atlas_build.lesson.model import Math


class EquationRef(Params):
    equation: int = Field(ge=0, description="0-based index of the lesson's display equation")
    indices: list[str] = Field(
        default_factory=list,
        description="names that are indices wherever they appear (`j` makes `a_j` an entry of a)",
    )
    matrices: list[str] = Field(
        default_factory=list,
        description="names of matrices: products keep their order and `^T` is a transpose",
    )
    functions: list[str] = Field(
        default_factory=list, description="names always applied to what follows in parentheses"
    )
    symbols: list[str] = Field(
        default_factory=list, description="`e` or `pi` read as plain symbols, not the constants"
    )


@lru_cache(maxsize=256)
def _parse(
    latex: str,
    indices: tuple[str, ...],
    matrices: tuple[str, ...],
    functions: tuple[str, ...],
    symbols: tuple[str, ...],
) -> tuple[Relation, ...]:
    """Parsing is pure, and claims of one lesson (or of many similar lessons) reread the
    same equations; SymPy objects are immutable, so sharing them is safe."""
    found = parse_relations(
        latex, indices=indices, matrices=matrices, functions=functions, symbols=symbols
    )
    return tuple(found)


def relations(params: EquationRef, context: Context) -> tuple[Math, list[Relation]]:
    math = context.equation(params.equation)
    found = _parse(
        math.latex,
        tuple(params.indices),
        tuple(params.matrices),
        tuple(params.functions),
        tuple(params.symbols),
    )
    return math, list(found)


def relation(params: EquationRef, context: Context, index: int) -> tuple[Math, Relation]:
    math, found = relations(params, context)
    if not 0 <= index < len(found):
        raise ClaimError(f"equation {params.equation} has {len(found)} relations; no index {index}")
    return math, found[index]


def definitions_from(
    context: Context, refs: list[tuple[int, int]], *, symbols: list[str] | None = None
) -> dict[sympy.Symbol, sympy.Expr]:
    """`symbol = expression` relations of the lesson, by (equation, relation) index."""
    found: dict[sympy.Symbol, sympy.Expr] = {}
    for equation, index in refs:
        _, stated = relation(EquationRef(equation=equation, symbols=symbols or []), context, index)
        if not isinstance(stated.lhs, sympy.Symbol) or stated.op != "=":
            raise ClaimError(
                f"equation {equation} relation {index} `{stated.source}` defines no symbol"
            )
        found[stated.lhs] = stated.rhs
    return found
