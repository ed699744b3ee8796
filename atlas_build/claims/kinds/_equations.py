"""Parsing a lesson's display equation for a claim, with the claim's symbol declarations."""

from __future__ import annotations

import sympy
from pydantic import Field

from atlas_build.claims.registry import ClaimError, Context, Params
from atlas_build.latex import Relation, parse_relations
from atlas_build.lesson.model import Math


class EquationRef(Params):
    equation: int = Field(ge=0, description="0-based index of the lesson's display equation")
    indices: list[str] = Field(default_factory=list)
    matrices: list[str] = Field(default_factory=list)
    functions: list[str] = Field(default_factory=list)
    symbols: list[str] = Field(default_factory=list)


def relations(params: EquationRef, context: Context) -> tuple[Math, list[Relation]]:
    math = context.equation(params.equation)
    found = parse_relations(
        math.latex,
        indices=params.indices,
        matrices=params.matrices,
        functions=params.functions,
        symbols=params.symbols,
    )
    return math, found


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
