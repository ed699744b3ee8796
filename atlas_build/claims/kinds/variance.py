"""variance: Var(q^T k) = d_k for independent zero-mean unit-variance coordinates.

Derived exactly with sympy.stats (the variance of one product, and zero covariance
between products of independent pairs, for two coordinate distributions), then
compared with the relation the lesson writes, and confirmed by a fixed-seed
Monte Carlo run of the engine's scores within a standard-error tolerance.
"""

from __future__ import annotations

from typing import Annotated

import sympy
import sympy.stats as stats
from pydantic import Field

from atlas_build import engine
from atlas_build.claims.kinds._equations import EquationRef, relation
from atlas_build.claims.running.registry import ClaimError, Context, Outcome, kind
from atlas_build.latex import EvaluationError, evaluate


class VarianceParams(EquationRef):
    relation: int = Field(ge=0, description="0-based index of the `Var(...) = ...` relation")
    width: str = Field(default="d_k", description="the symbol naming the vector width")
    widths: list[Annotated[int, Field(ge=1, le=4096)]] = Field(
        default=[4, 16, 64],
        min_length=1,
        max_length=8,
        description="widths the engine samples the variance at",
    )
    samples: int = Field(
        default=100_000, ge=1000, le=2_000_000, description="Monte Carlo samples per width"
    )
    sigmas: float = Field(
        default=4.0, gt=0, description="standard errors the estimate may be off by"
    )
    seed: int = Field(default=0, description="seed of the first width's samples")


def derived_variance(width: sympy.Symbol) -> tuple[sympy.Expr, list[str]]:
    """Var(sum of `width` products) from sympy.stats, for two coordinate laws."""
    notes = []
    results = set()
    laws = {
        "normal": lambda name: stats.Normal(name, 0, 1),
        "rademacher": lambda name: stats.Rademacher(name),
    }
    for law, make in laws.items():
        q1, k1, q2, k2 = (make(f"{n}_{law}") for n in ("q1", "k1", "q2", "k2"))
        if stats.E(q1) != 0 or sympy.simplify(stats.variance(q1) - 1) != 0:
            raise ClaimError(f"{law} coordinates are not zero-mean unit-variance")
        single = sympy.simplify(stats.variance(q1 * k1))
        covariance = sympy.simplify(stats.covariance(q1 * k1, q2 * k2))
        total = sympy.expand(width * single + width * (width - 1) * covariance)
        notes.append(f"{law}: Var(q_i k_i) = {single}, Cov(q_i k_i, q_j k_j) = {covariance}")
        results.add(total)
    if len(results) != 1:
        raise ClaimError(f"the laws disagree: {results}")
    return results.pop(), notes


@kind("variance", VarianceParams)
def run(params: VarianceParams, context: Context) -> Outcome:
    """Var(q^T k) for independent zero-mean unit-variance coordinates, derived and sampled."""
    math, stated = relation(params, context, params.relation)
    where = math.offset + stated.start
    width = sympy.Symbol(params.width)
    if not (isinstance(stated.lhs, sympy.Function) and stated.lhs.func.__name__ == "Var"):
        raise ClaimError(
            f"relation {params.relation} does not state Var(...): {stated.source}", where
        )
    derived, notes = derived_variance(width)
    outcome = Outcome(quantities={"variance": derived})
    outcome.covers.add((params.equation, params.relation))
    outcome.check(
        "derived-equals-stated",
        sympy.simplify(stated.rhs - derived) == 0,
        f"sympy.stats derives {derived}; the lesson writes {stated.rhs} (" + "; ".join(notes) + ")",
        where,
    )
    chunk = min(params.samples, 8192)
    context.reserve(4 * 8 * chunk * max(params.widths), "the Monte Carlo samples")
    for index, size in enumerate(params.widths):
        estimate = engine.qk_variance(size, n_samples=params.samples, seed=params.seed + index)
        try:
            stated_value = float(evaluate(stated.rhs, {params.width: size}))
        except EvaluationError as error:
            raise ClaimError(
                f"cannot evaluate {stated.rhs} at {params.width}={size}: {error}"
            ) from None
        distance = abs(estimate.estimate - stated_value) / max(estimate.stderr, 1e-300)
        outcome.check(
            f"monte-carlo-{size}",
            distance <= params.sigmas,
            f"{params.width}={size}: sampled variance {estimate.estimate:.4g} ± "
            f"{estimate.stderr:.2g} (n={params.samples}), lesson's value {stated_value:g}, "
            f"{distance:.1f} standard errors apart (limit {params.sigmas:g})",
            where,
        )
    ok = all(check.ok for check in outcome.checks)
    outcome.relation(params.equation, params.relation, "verified" if ok else "failed")
    return outcome
