"""equation: check each relation of a display equation, derived or sampled.

- `definition`: the relation defines its left side; other relations may use it.
- `derive`: after substituting the definitions (the equation's own and the claim's,
  written in lesson LaTeX), SymPy must simplify left minus right to zero, for
  symbolic index ranges.
- `sample`: both sides are evaluated on random inputs, with left-hand symbols
  bound to the engine's tensors (e.g. `A` to its attention probabilities).
- `claim`: another claim checks this relation (e.g. a `variance` claim).
"""

from __future__ import annotations

from typing import Any, Literal

import numpy as np
import sympy
from pydantic import Field

from atlas_build import engine
from atlas_build.claims.kinds._equations import EquationRef, relation, relations
from atlas_build.claims.registry import ClaimError, Context, Outcome, Params, kind
from atlas_build.latex import evaluate, parse_expression

ENGINE_TENSORS = ("scores", "probs", "output")
MAX_SAMPLE_ELEMENTS = 1_000_000


class RelationCheck(Params):
    relation: int = Field(ge=0)
    check: Literal["definition", "derive", "sample", "claim"]
    by: str | None = Field(default=None, description="claim id, for check: claim")


class UseRelation(Params):
    equation: int = Field(ge=0)
    relation: int = Field(ge=0)


class EquationParams(EquationRef):
    relations: list[RelationCheck] = Field(min_length=1)
    definitions: dict[str, str] = Field(default_factory=dict)
    use: list[UseRelation] = Field(default_factory=list, description="definitions from elsewhere")
    kronecker: list[str] = Field(default_factory=list, description="names meaning δ_ij")
    values: dict[str, float] = Field(default_factory=dict, description="scalars when sampling")
    simplex: list[str] = Field(default_factory=list, description="inputs drawn as probabilities")
    sizes: dict[str, int] = Field(default_factory=dict)
    inputs: dict[str, list[str]] = Field(default_factory=dict)
    engine_inputs: dict[str, str] = Field(default_factory=lambda: {"q": "Q", "k": "K", "v": "V"})
    engine: dict[str, Literal["scores", "probs", "output"]] = Field(default_factory=dict)
    mask: dict[str, Literal["causal", "none"]] = Field(default_factory=dict)
    causal: bool = False
    seeds: list[int] = Field(default=[0, 1, 2], min_length=1, max_length=20)
    tolerance: float = 1e-9


def _fresh_bounds(expr: sympy.Expr) -> sympy.Expr:
    """Rename every summation index to a fresh dummy so substitution cannot capture it."""

    def rename(term: sympy.Sum) -> sympy.Sum:
        body, limits = term.function, []
        for variable, low, high in term.limits:
            fresh = sympy.Dummy(variable.name, integer=True)
            body = body.subs(variable, fresh)
            limits.append((fresh, low, high))
        return sympy.Sum(body, *limits)

    return expr.replace(lambda e: isinstance(e, sympy.Sum), rename)


def _rule(left: sympy.Expr, right: sympy.Expr, source: str) -> tuple[Any, ...]:
    if isinstance(left, sympy.Indexed) and len(left.indices) == 1:
        return (left.base, left.indices[0], _fresh_bounds(right))
    if isinstance(left, sympy.Symbol):
        return (left, _fresh_bounds(right))
    raise ClaimError(f"definition {source!r} must define a symbol or x_i")


def _rules(
    params: EquationParams, own: list[tuple[sympy.Expr, sympy.Expr]], context: Context
) -> list[Any]:
    """Substitution rules: (symbol, value) or (IndexedBase, index, template)."""
    rules: list[Any] = [_rule(left, right, str(left)) for left, right in own]
    for ref in params.use:
        other = EquationRef(
            equation=ref.equation,
            indices=params.indices,
            matrices=params.matrices,
            functions=params.functions,
            symbols=params.symbols,
        )
        _, stated = relation(other, context, ref.relation)
        rules.append(_rule(_delta(stated.lhs, params), _delta(stated.rhs, params), stated.source))
    for target, latex in params.definitions.items():
        left = parse_expression(target, indices=params.indices, symbols=params.symbols)
        right = parse_expression(
            latex,
            indices=params.indices,
            matrices=params.matrices,
            functions=params.functions,
            symbols=params.symbols,
        )
        rules.append(_rule(left, _delta(right, params), target))
    return rules


def _delta(expr: sympy.Expr, params: EquationParams) -> sympy.Expr:
    """`δ_ij` written as an indexed symbol becomes SymPy's KroneckerDelta."""
    for name in params.kronecker:
        expr = expr.replace(
            lambda e, n=name: (
                isinstance(e, sympy.Indexed) and str(e.base) == n and len(e.indices) == 2
            ),
            lambda e: sympy.KroneckerDelta(*e.indices),
        )
    return expr


def _substitute(expr: sympy.Expr, rules: list[Any]) -> sympy.Expr:
    for _ in range(8):
        before = expr
        for rule in rules:
            if len(rule) == 2:
                expr = expr.subs(rule[0], rule[1])
            else:
                base, index, template = rule
                expr = expr.replace(
                    lambda e, b=base: isinstance(e, sympy.Indexed) and e.base == b,
                    lambda e, i=index, t=template: t.subs(i, e.indices[0]),
                )
        if expr == before:
            return expr
    return expr


def _settle_ranges(expr: sympy.Expr, indices: set[sympy.Symbol]) -> sympy.Expr:
    """Free indices lie in their range: write each upper bound as their sum plus p >= 0."""
    uppers = {
        limit[2]
        for term in expr.atoms(sympy.Sum)
        for limit in term.limits
        if isinstance(limit[2], sympy.Symbol)
    }
    free = sorted((symbol for symbol in expr.free_symbols if symbol in indices), key=str)
    if not free:
        return expr
    slack = sympy.Symbol("p_slack", integer=True, nonnegative=True)
    positive = {symbol: sympy.Symbol(symbol.name, integer=True, positive=True) for symbol in free}
    total = sympy.Add(*positive.values()) + slack
    # xreplace, not subs: subs leaves the variables of a Derivative (z[j]) untouched
    return expr.xreplace({**positive, **{upper: total for upper in uppers}})


def derive(
    lhs: sympy.Expr, rhs: sympy.Expr, rules: list[Any], indices: set[sympy.Symbol]
) -> sympy.Expr:
    difference = _substitute(lhs, rules) - _substitute(rhs, rules)
    difference = _settle_ranges(difference, indices).doit().doit()
    return sympy.simplify(difference)


def _sample_bindings(params: EquationParams, seed: int, definitions: list[Any]) -> dict[str, Any]:
    """Random inputs, engine tensors for left-hand symbols, then the lesson's definitions."""
    rng = np.random.default_rng(seed)
    bindings: dict[str, Any] = {**params.sizes, **params.values}
    for name, dims in params.inputs.items():
        try:
            shape = tuple(params.sizes[dim] for dim in dims)
        except KeyError as error:
            raise ClaimError(f"input {name} uses size {error.args[0]!r}, not in sizes") from None
        if int(np.prod(shape)) > MAX_SAMPLE_ELEMENTS:
            raise ClaimError(f"input {name} of shape {shape} is too large to sample")
        if name in params.simplex:
            bindings[name] = rng.dirichlet(np.ones(shape[-1]), size=shape[:-1] or None)
        else:
            bindings[name] = rng.standard_normal(shape)
    if params.engine or params.mask:
        arrays = {role: bindings.get(symbol) for role, symbol in params.engine_inputs.items()}
        if any(value is None for value in arrays.values()):
            needed = ", ".join(params.engine_inputs.values())
            raise ClaimError(f"engine bindings need inputs for {needed}")
        internals = engine.attention_internals(
            arrays["q"], arrays["k"], arrays["v"], causal=params.causal
        )
        for symbol, tensor in params.engine.items():
            bindings[symbol] = np.asarray(getattr(internals, tensor))
        for symbol, mask in params.mask.items():
            allowed = np.asarray(internals.allowed)
            bindings[symbol] = np.where(allowed, 0.0, -np.inf) if mask == "causal" else 0 * allowed
    for left, right in definitions:
        if isinstance(left, sympy.Symbol) and str(left) not in bindings:
            bindings[str(left)] = evaluate(right, bindings, FUNCTIONS)
    return bindings


def _softmax_rows(x: Any) -> Any:
    return np.asarray(engine.softmax(np.asarray(x, dtype=np.float64), axis=-1))


FUNCTIONS = {"softmax_rows": _softmax_rows, "softmax": _softmax_rows}
HOLDS = {
    "<": np.less,
    "<=": np.less_equal,
    ">": np.greater,
    ">=": np.greater_equal,
}


def _gap(op: str, left: Any, right: Any, tolerance: float) -> float:
    """How far a sampled relation is from holding (0 when it holds)."""
    left = np.asarray(left, dtype=np.float64)
    right = np.asarray(right, dtype=np.float64)
    if left.shape != right.shape and left.size != 1 and right.size != 1:
        return float("inf")
    if op in HOLDS:
        violated = ~HOLDS[op](left, right + (tolerance if op[0] == "<" else -tolerance))
        return float(np.max(np.abs(left - right) * violated)) if violated.any() else 0.0
    both_infinite = ~np.isfinite(left) & (left == right)
    gap = np.abs(np.where(both_infinite, 0.0, left - right))
    return float(np.nanmax(np.where(np.isnan(gap), np.inf, gap))) if gap.size else 0.0


@kind("equation", EquationParams)
def run(params: EquationParams, context: Context) -> Outcome:
    """Each relation of a display equation: a definition, derived, sampled, or by a claim."""
    math, found = relations(params, context)
    outcome = Outcome()
    own = [
        (_delta(found[c.relation].lhs, params), _delta(found[c.relation].rhs, params))
        for c in params.relations
        if c.check == "definition" and c.relation < len(found)
    ]
    rules = _rules(params, own, context)
    indices = {sympy.Symbol(name) for name in params.indices}
    samples: list[dict[str, Any]] | None = None
    for check in params.relations:
        if check.relation >= len(found):
            raise ClaimError(
                f"equation {params.equation} has {len(found)} relations; no index {check.relation}"
            )
        stated = found[check.relation]
        where = math.offset + stated.start
        outcome.covers.add((params.equation, check.relation))
        label = f"relation {check.relation} `{stated.source.strip().lstrip('&')}`"
        if check.check == "definition":
            if not isinstance(stated.lhs, sympy.Symbol | sympy.Indexed):
                raise ClaimError(f"{label} defines no symbol", where)
            outcome.relation(params.equation, check.relation, "defined")
        elif check.check == "claim":
            if not check.by:
                raise ClaimError(f"{label}: check `claim` needs `by`")
            context.resolve(check.by)
            outcome.relation(params.equation, check.relation, f"claim:{check.by}")
        elif check.check == "derive":
            if stated.op != "=":
                raise ClaimError(f"{label}: only equalities can be derived; sample {stated.op}")
            left, right = _delta(stated.lhs, params), _delta(stated.rhs, params)
            residue = derive(left, right, rules, indices)
            outcome.check(
                f"derive-{check.relation}",
                residue == 0,
                f"{label}: left minus right simplifies to {residue}",
                where,
            )
            status = "verified" if residue == 0 else "failed"
            outcome.relation(params.equation, check.relation, status)
        else:
            if samples is None:
                pairs = own + [(rule[0], rule[1]) for rule in rules if len(rule) == 2]
                samples = [_sample_bindings(params, seed, pairs) for seed in params.seeds]
            worst = 0.0
            for bindings in samples:
                left = evaluate(stated.lhs, bindings, FUNCTIONS)
                right = evaluate(stated.rhs, bindings, FUNCTIONS)
                worst = max(worst, _gap(stated.op, left, right, params.tolerance))
            status = "verified" if worst <= params.tolerance else "failed"
            outcome.relation(params.equation, check.relation, status)
            outcome.check(
                f"sample-{check.relation}",
                worst <= params.tolerance,
                f"{label}: {'violated by' if stated.op in HOLDS else 'sides differ by'} at most "
                f"{worst:.3g} on {len(samples)} random samples (limit {params.tolerance:g})",
                where,
            )
    return outcome
