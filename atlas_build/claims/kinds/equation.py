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

from collections.abc import Callable
from functools import partial
from typing import Any, Literal, TypeVar

import numpy as np
import sympy
from pydantic import Field

from atlas_build import engine
from atlas_build.claims.kinds import _derive
from atlas_build.claims.kinds._equations import EquationRef, relation, relations
from atlas_build.claims.running.registry import (
    ClaimError,
    ClaimTimeout,
    Context,
    Outcome,
    Params,
    kind,
)
from atlas_build.latex import EvaluationError, evaluate, parse_expression

ENGINE_TENSORS = ("scores", "probs", "output")
MAX_SAMPLE_ELEMENTS = 1_000_000


class RelationCheck(Params):
    """How one relation of the equation is checked."""

    relation: int = Field(ge=0, description="0-based index of the relation within the equation")
    check: Literal["definition", "derive", "sample", "claim"] = Field(
        description="`definition` (used by the others, not itself checked), `derive` "
        "(SymPy simplifies left minus right to 0), `sample` (both sides on random inputs) "
        "or `claim` (another claim checks it)"
    )
    by: str | None = Field(default=None, description="id of the claim that checks it, for `claim`")


class UseRelation(Params):
    """A relation of another display equation, used as a definition."""

    equation: int = Field(ge=0, description="0-based index of the display equation")
    relation: int = Field(ge=0, description="0-based index of the relation within it")


class EquationParams(EquationRef):
    relations: list[RelationCheck] = Field(
        min_length=1, description="what to do with each relation, by its index"
    )
    definitions: dict[str, str] = Field(
        default_factory=dict,
        description="further definitions in lesson LaTeX, keyed by what they define (`a_k`)",
    )
    use: list[UseRelation] = Field(
        default_factory=list, description="definitions taken from other display equations"
    )
    kronecker: list[str] = Field(
        default_factory=list, description="names that mean the Kronecker delta (`delta` for δ_ij)"
    )
    values: dict[str, float] = Field(
        default_factory=dict, description="fixed scalars substituted when sampling"
    )
    simplex: list[str] = Field(
        default_factory=list, description="inputs drawn as probability vectors (each sums to 1)"
    )
    sizes: dict[str, int] = Field(
        default_factory=dict, description="sizes of the dimensions inputs have, when sampling"
    )
    inputs: dict[str, list[str]] = Field(
        default_factory=dict,
        description="random inputs for sampling: name -> its dimensions, named in `sizes`",
    )
    engine_inputs: dict[str, str] = Field(
        default_factory=lambda: {"q": "Q", "k": "K", "v": "V"},
        description="which inputs are the engine's queries, keys and values",
    )
    engine: dict[str, Literal["scores", "probs", "output"]] = Field(
        default_factory=dict,
        description="left-hand symbols bound to the engine's tensors (`A: probs`) when sampling",
    )
    mask: dict[str, Literal["causal", "none"]] = Field(
        default_factory=dict,
        description="symbols bound to the engine's additive mask (0 allowed, −∞ masked)",
    )
    causal: bool = Field(default=False, description="run the engine with a causal mask")
    seeds: list[int] = Field(
        default=[0, 1, 2], min_length=1, max_length=20, description="one random sample per seed"
    )
    tolerance: float = Field(
        default=1e-9,
        description="largest difference of the two sides a sample may show; one looser than "
        "rounding (relative 1e-9 of the sides) proves nothing (A416)",
    )


def _rules(
    params: EquationParams, own: list[tuple[sympy.Expr, sympy.Expr]], context: Context
) -> list[_derive.Rule]:
    """The definitions derivations and samples substitute: the equation's own, those it
    `use`s from elsewhere, and the claim's `definitions` (keys as written: `sigma`,
    `\\sigma`, `a_k`, `\\sigma^2`)."""
    rules = [_derive.rule(left, right, str(left)) for left, right in own]
    for ref in params.use:
        other = EquationRef(
            equation=ref.equation,
            indices=params.indices,
            matrices=params.matrices,
            functions=params.functions,
            symbols=params.symbols,
        )
        _, stated = relation(other, context, ref.relation)
        rules.append(
            _derive.rule(_delta(stated.lhs, params), _delta(stated.rhs, params), stated.source)
        )
    for name, latex in params.definitions.items():
        left = _derive.target(name, params.indices, params.symbols)
        right = parse_expression(
            latex,
            indices=params.indices,
            matrices=params.matrices,
            functions=params.functions,
            symbols=params.symbols,
        )
        rules.append(_derive.rule(left, _delta(right, params), name))
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


derive = _derive.derive


def _sample_bindings(
    params: EquationParams, seed: int, definitions: list[_derive.Rule]
) -> dict[str, Any]:
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
    for item in definitions:
        if item.kind == "symbol" and str(item.target) not in bindings:
            bindings[str(item.target)] = evaluate(item.template, bindings, FUNCTIONS)
        elif item.kind == "indexed" and str(item.target.label) not in bindings:
            bindings[str(item.target.label)] = _entries(item, bindings)
    return bindings


def _entries(item: _derive.Rule, bindings: dict[str, Any]) -> Any:
    """An indexed definition (`a_k = e^{s_k}/...`) as a vector over the range of the sampled
    vectors it reads at its index (1-based, as lessons write)."""
    lengths = {
        int(np.shape(bindings[str(node.base.label)])[0])
        for node in item.template.atoms(sympy.Indexed)
        if item.index in node.indices and str(node.base.label) in bindings
    }
    if len(lengths) != 1:
        raise ClaimError(f"cannot tell the range of {item.target}_{item.index} from the inputs")
    values = [
        evaluate(item.template.xreplace({item.index: sympy.Integer(k)}), bindings, FUNCTIONS)
        for k in range(1, lengths.pop() + 1)
    ]
    return np.asarray(values, dtype=np.float64)


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


DEFAULT_TOLERANCE = 1e-9  # relative: what float64 evaluation of a relation that holds shows


def _scale(stated: Any, samples: list[dict[str, Any]]) -> float:
    """The largest magnitude either side takes on the samples."""
    largest = 0.0
    for bindings in samples:
        for side in (stated.lhs, stated.rhs):
            value = np.abs(np.asarray(evaluate(side, bindings, FUNCTIONS), dtype=np.float64))
            finite = value[np.isfinite(value)]
            if finite.size:
                largest = max(largest, float(np.max(finite)))
    return largest


def _worst(stated: Any, samples: list[dict[str, Any]], tolerance: float) -> float:
    worst = 0.0
    for bindings in samples:
        left = evaluate(stated.lhs, bindings, FUNCTIONS)
        right = evaluate(stated.rhs, bindings, FUNCTIONS)
        worst = max(worst, _gap(stated.op, left, right, tolerance))
    return worst


T = TypeVar("T")


def _guarded(label: str, where: int, work: Callable[[], T]) -> T:
    """SymPy and NumPy can fail inside (StopIteration out of `simplify`, a RecursionError):
    the finding names the relation and sits at it, instead of an empty message."""
    try:
        return work()
    except (ClaimError, ClaimTimeout, EvaluationError):
        raise
    except (Exception, RecursionError) as error:  # noqa: BLE001  (any library failure)
        detail = f": {error}" if str(error) else ""
        raise ClaimError(
            f"{label}: SymPy could not finish ({type(error).__name__}{detail})", where
        ) from None


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
            left = stated.lhs
            power = isinstance(left, sympy.Pow) and isinstance(left.base, sympy.Symbol)
            if not (isinstance(left, sympy.Symbol | sympy.Indexed) or power):
                raise ClaimError(f"{label} defines no symbol, x_i or power", where)
            outcome.relation(params.equation, check.relation, "defined")
        elif check.check == "claim":
            if not check.by:
                raise ClaimError(f"{label}: check `claim` needs `by`")
            other = context.resolve(check.by)
            key = (params.equation, check.relation)
            if key not in other.covers and key not in other.relations:
                # Naming a claim is a promise that it checks this relation; one that never
                # evaluates it would pass the relation unproved.
                raise ClaimError(
                    f"{label}: claim {check.by!r} does not check this relation (it uses "
                    f"{_refs(other)}); name the claim that has it in `use` or `identities`, "
                    "or derive or sample it here",
                    where,
                )
            outcome.relation(params.equation, check.relation, f"claim:{check.by}")
        elif check.check == "derive":
            if stated.op != "=":
                raise ClaimError(f"{label}: only equalities can be derived; sample {stated.op}")
            left, right = _delta(stated.lhs, params), _delta(stated.rhs, params)
            residue = _guarded(label, where, partial(derive, left, right, rules, indices))
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
                samples = [_sample_bindings(params, seed, rules) for seed in params.seeds]
            worst = _guarded(label, where, partial(_worst, stated, samples, params.tolerance))
            status = "verified" if worst <= params.tolerance else "failed"
            scale = _guarded(label, where, partial(_scale, stated, samples))
            noise = max(DEFAULT_TOLERANCE * max(scale, 1.0), 1e-12)
            if status == "verified" and worst > noise:
                # within the tolerance, but the sides differ by more than rounding: the
                # tolerance, not the relation, made the samples agree
                status = "unverified"
                outcome.loose.append(
                    f"{label}: tolerance {params.tolerance:g} lets the sides differ by "
                    f"{worst:.3g} on random samples whose sides are about {scale:.3g}; a "
                    "relation that holds differs by rounding only, so nothing is proved"
                )
            outcome.relation(params.equation, check.relation, status)
            outcome.check(
                f"sample-{check.relation}",
                worst <= params.tolerance,
                f"{label}: {'violated by' if stated.op in HOLDS else 'sides differ by'} at most "
                f"{worst:.3g} on {len(samples)} random samples (limit {params.tolerance:g})",
                where,
            )
    return outcome


def _refs(outcome: Outcome) -> str:
    refs = sorted(
        {key for key in outcome.covers if key[1] is not None} | set(outcome.relations),
        key=lambda key: (key[0], key[1] or 0),
    )
    return ", ".join(f"equation {e} relation {r}" for e, r in refs) or "no relation"
