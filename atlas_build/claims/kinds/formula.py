"""formula: evaluate the lesson's own defining equations exactly for stated values.

The quantities are computed from the relations the lesson displays (for example
`B_tok = 2 L H_kv d_h b`), not from a copy in the claim, so changing an equation
changes every number the prose derives from it. Extra expressions, written in
lesson LaTeX, cover numbers the equations do not name (a per-layer share, a ratio).
"""

from __future__ import annotations

import sympy
from pydantic import Field

from atlas_build.claims.kinds._common import Scalar, exact
from atlas_build.claims.kinds._equations import EquationRef, definitions_from, relation
from atlas_build.claims.registry import ClaimError, Context, Outcome, Params, kind
from atlas_build.latex import parse_expression

MAX_PASSES = 16


class RelationRef(Params):
    equation: int = Field(ge=0)
    relation: int = Field(ge=0)


class FormulaParams(Params):
    values: dict[str, Scalar] = Field(default_factory=dict)
    use: list[RelationRef] = Field(default_factory=list, max_length=64)
    identities: list[RelationRef] = Field(default_factory=list, max_length=64)
    expressions: dict[str, str] = Field(default_factory=dict)
    symbols: list[str] = Field(default_factory=list)


def _value(expression: sympy.Expr, known: dict[sympy.Symbol, sympy.Expr]) -> sympy.Expr:
    """Substitute exact values; simplify only what does not fold to a number by itself."""
    value = expression.xreplace(known).doit()
    return value if value.is_number or value.free_symbols else sympy.simplify(value)


@kind("formula", FormulaParams)
def run(params: FormulaParams, context: Context) -> Outcome:
    """Numbers the prose derives from the lesson's defining equations, computed exactly."""
    values = {
        sympy.Symbol(name): exact(value, f"values.{name}") for name, value in params.values.items()
    }
    refs = [(ref.equation, ref.relation) for ref in params.use]
    definitions = definitions_from(context, refs, symbols=params.symbols)
    defined_by = dict(zip(definitions, refs, strict=True))
    known: dict[sympy.Symbol, sympy.Expr] = dict(values)
    pending = dict(definitions)
    for _ in range(MAX_PASSES):
        progressed = False
        for symbol, expression in list(pending.items()):
            value = _value(expression, known)
            if not value.free_symbols:
                known[symbol] = value
                del pending[symbol]
                progressed = True
        if not pending or not progressed:
            break
    if pending:
        missing = sorted({str(s) for e in pending.values() for s in e.subs(known).free_symbols})
        raise ClaimError(
            f"cannot evaluate {', '.join(map(str, pending))}: no value for {', '.join(missing)}"
        )
    outcome = Outcome(quantities={str(symbol): value for symbol, value in known.items()})
    outcome.inputs = {str(symbol) for symbol in values}
    for equation, index in refs:
        outcome.relation(equation, index, "defined")
    depends = _dependencies(definitions, defined_by)
    outcome.depends = {str(symbol): used for symbol, used in depends.items()}
    for ref in params.identities:
        math, stated = relation(
            EquationRef(equation=ref.equation, symbols=params.symbols), context, ref.relation
        )
        left = _value(stated.lhs, known)
        right = _value(stated.rhs, known)
        holds = sympy.simplify(left - right) == 0
        outcome.relation(ref.equation, ref.relation, "verified" if holds else "failed")
        outcome.check(
            f"identity-{ref.equation}-{ref.relation}",
            holds,
            f"`{stated.source.strip().lstrip('&')}` at the stated values: {left} vs {right}",
            math.offset + stated.start,
        )
    for name, latex in params.expressions.items():
        expression = parse_expression(latex, symbols=params.symbols)
        value = _value(expression, known)
        if value.free_symbols:
            raise ClaimError(
                f"expression {name!r} still has {sorted(map(str, value.free_symbols))}"
            )
        outcome.quantities[name] = value
        used = [depends.get(symbol, set()) for symbol in expression.free_symbols]
        outcome.depends[name] = set().union(*used) if used else set()
    return outcome


def _dependencies(
    definitions: dict[sympy.Symbol, sympy.Expr], defined_by: dict[sympy.Symbol, tuple[int, int]]
) -> dict[sympy.Symbol, set[tuple[int, int]]]:
    """Each defined symbol -> every relation its value was computed through."""
    found: dict[sympy.Symbol, set[tuple[int, int]]] = {}

    def visit(symbol: sympy.Symbol, seen: frozenset[sympy.Symbol]) -> set[tuple[int, int]]:
        if symbol in found:
            return found[symbol]
        refs = {defined_by[symbol]}
        for used in sorted(definitions[symbol].free_symbols, key=str):
            if used in definitions and used not in seen:
                refs |= visit(used, seen | {symbol})
        found[symbol] = refs
        return refs

    for symbol in definitions:
        visit(symbol, frozenset())
    return found
