"""softmax_mixture: scores and values -> probabilities, output, d output / d scores.

Computed exactly with SymPy, then reproduced by the engine (forward and backward)
and by finite differences of the engine's forward pass; all three must agree.
"""

from __future__ import annotations

import numpy as np
import sympy
from pydantic import Field

from atlas_build import engine
from atlas_build.claims.kinds._common import Scalar, exact_list, max_error, to_float
from atlas_build.claims.running.registry import ClaimError, Context, Outcome, Params, kind


class MixtureParams(Params):
    scores: list[Scalar] = Field(
        min_length=1, max_length=64, description="raw scores of the keys (`0`, `ln 3`, `2.5`)"
    )
    values: list[Scalar] = Field(
        min_length=1, max_length=64, description="scalar value of each key, as many as scores"
    )
    engine_tolerance: float = Field(
        default=1e-12, description="largest engine difference from the exact values"
    )
    fd_tolerance: float = Field(
        default=1e-12, description="largest finite-difference difference from the exact derivatives"
    )


def engine_mixture(scores: np.ndarray, values: np.ndarray) -> engine.AttentionInternals:
    """One query over n keys whose raw scores are exactly `scores` (identity keys, scale 1)."""
    n = scores.size
    return engine.attention_internals(
        scores.reshape(1, n), np.eye(n), values.reshape(n, 1), scale=1.0
    )


def finite_difference(scores: np.ndarray, values: np.ndarray, step: float = 1e-2) -> np.ndarray:
    """d output / d s_j of the engine's forward pass, 8th-order central differences."""
    weights = {1: 4 / 5, 2: -1 / 5, 3: 4 / 105, 4: -1 / 280}
    grad = np.zeros_like(scores)
    for j in range(scores.size):
        total = 0.0
        for distance, weight in weights.items():
            for sign in (1, -1):
                shifted = scores.copy()
                shifted[j] += sign * distance * step
                out = engine.attention(
                    shifted.reshape(1, -1),
                    np.eye(scores.size),
                    values.reshape(-1, 1),
                    scale=1.0,
                    method="dense",
                )
                total += sign * weight * float(out[0, 0])
        grad[j] = total / step
    return grad


@kind("softmax_mixture", MixtureParams)
def run(params: MixtureParams, context: Context) -> Outcome:
    """Scores and values of one query: probabilities, output and score derivatives."""
    scores = exact_list(params.scores, "scores")
    values = exact_list(params.values, "values")
    if len(scores) != len(values):
        raise ClaimError(f"{len(scores)} scores but {len(values)} values")
    weights = [sympy.exp(score) for score in scores]
    total = sympy.Add(*weights)
    probabilities = [sympy.simplify(w / total) for w in weights]
    output = sympy.simplify(sympy.Add(*(p * v for p, v in zip(probabilities, values, strict=True))))
    derivatives = [
        sympy.simplify(p * (v - output)) for p, v in zip(probabilities, values, strict=True)
    ]
    symbols = sympy.symbols(f"s0:{len(scores)}")
    symbolic = sympy.Add(
        *(sympy.exp(s) * v for s, v in zip(symbols, values, strict=True))
    ) / sympy.Add(*(sympy.exp(s) for s in symbols))
    at_scores = dict(zip(symbols, scores, strict=True))
    by_calculus = [sympy.simplify(sympy.diff(symbolic, s).subs(at_scores)) for s in symbols]
    outcome = Outcome(
        inputs={"scores", "values"},
        quantities={
            "scores": scores,
            "values": values,
            "probabilities": probabilities,
            "output": output,
            "dout_ds": derivatives,
        },
    )
    outcome.check(
        "derivative-by-calculus",
        all(sympy.simplify(a - b) == 0 for a, b in zip(by_calculus, derivatives, strict=True)),
        "d/ds_j of sum_k softmax(s)_k v_k equals a_j (v_j - o) at these scores",
    )
    s, v = to_float(scores), to_float(values)
    internals = engine_mixture(s, v)
    expected = to_float(probabilities), float(sympy.N(output, 30)), to_float(derivatives)
    errors = {
        "probabilities": max_error(internals.probs[0], expected[0]),
        "output": abs(float(internals.output[0, 0]) - expected[1]),
        "dout_ds": max_error(internals.d_out_d_scores()[0, :, 0], expected[2]),
    }
    for name, error in errors.items():
        outcome.check(
            f"engine-{name}",
            error <= params.engine_tolerance,
            f"engine {name} within {error:.2e} of exact (limit {params.engine_tolerance:g})",
        )
    backward = engine.attention_backward(
        s.reshape(1, -1), np.eye(s.size), v.reshape(-1, 1), np.ones((1, 1)), scale=1.0
    )[0][0]
    error = max_error(backward, expected[2])
    outcome.check(
        "engine-backward",
        error <= params.engine_tolerance,
        f"engine backward dq (= d out/d s for identity keys) within {error:.2e} of exact",
    )
    error = max_error(finite_difference(s, v), expected[2])
    outcome.check(
        "finite-differences",
        error <= params.fd_tolerance,
        f"finite differences of the engine within {error:.2e} of exact",
    )
    return outcome
