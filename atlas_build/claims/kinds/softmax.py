"""softmax: logits at a temperature -> probabilities, entropy and Jacobian."""

from __future__ import annotations

import numpy as np
import sympy
from pydantic import Field

from atlas_build import engine
from atlas_build.claims.kinds._common import Scalar, exact, exact_list, max_error, to_float
from atlas_build.claims.running.registry import ClaimError, Context, Outcome, Params, kind


class SoftmaxParams(Params):
    logits: list[Scalar] = Field(
        min_length=1, max_length=256, description="the logits z (`2`, `ln 3`, `2ln3`, `−1`)"
    )
    temperature: Scalar = Field(default=1, description="the temperature τ, positive")
    shift: Scalar = Field(default=0, description="constant added to every logit")
    engine_tolerance: float = Field(
        default=1e-12, description="largest engine difference from the exact probabilities"
    )


@kind("softmax", SoftmaxParams)
def run(params: SoftmaxParams, context: Context) -> Outcome:
    """Probabilities, entropy (nats) and Jacobian of softmax(z / tau), exact and on the engine."""
    shift = exact(params.shift, "shift")
    logits = [z + shift for z in exact_list(params.logits, "logits")]
    tau = exact(params.temperature, "temperature")
    if not tau.is_positive:
        raise ClaimError(f"temperature must be positive, got {tau}")
    n = len(logits)
    # No simplify(): SymPy already folds exp(log 3) to 3, so exact inputs give exact
    # probabilities, and everything else is compared numerically at 50 digits.
    scaled = [sympy.expand(z / tau) for z in logits]
    top = max(logits, key=lambda z: float(sympy.N(z, 50)))
    weights = [sympy.exp(sympy.expand((z - top) / tau)) for z in logits]
    total = sympy.Add(*weights)
    probabilities = [w / total for w in weights]
    entropy = -sympy.Add(*(p * sympy.log(p) for p in probabilities))
    jacobian = [
        [probabilities[i] * (int(i == j) - probabilities[j]) / tau for j in range(n)]
        for i in range(n)
    ]
    numeric = [float(sympy.N(p, 50)) for p in probabilities]
    outcome = Outcome(
        inputs={"logits", "temperature", "shift"},
        quantities={
            "logits": logits,
            "temperature": tau,
            "scaled": scaled,
            "shifted": [sympy.expand(z - top) for z in logits],
            "probabilities": probabilities,
            "entropy": sympy.N(entropy, 50),
            "jacobian": jacobian,
            "undivided": [[entry * tau for entry in row] for row in jacobian],
            "top": probabilities[int(np.argmax(numeric))],
            "smallest": probabilities[int(np.argmin(numeric))],
            "largest": probabilities[int(np.argmax(numeric))],
            "max_entropy": sympy.log(n),
            "count": n,
            "shift": shift,
            "exp_top": sympy.exp(top),
            "float64_max": float(np.finfo(np.float64).max),
        },
    )
    z = to_float(logits)
    z = z - z.max()  # softmax ignores shifts; differences near 0 keep full precision
    computed = np.asarray(engine.softmax(z / float(tau)))
    error = max_error(computed, numeric)
    outcome.check(
        "engine-probabilities",
        error <= params.engine_tolerance,
        f"engine softmax within {error:.2e} of exact",
    )
    step = 1e-6
    numeric_jacobian = np.zeros((n, n))
    for j in range(n):
        up, down = z.copy(), z.copy()
        up[j] += step
        down[j] -= step
        numeric_jacobian[:, j] = (
            np.asarray(engine.softmax(up / float(tau)))
            - np.asarray(engine.softmax(down / float(tau)))
        ) / (2 * step)
    exact_jacobian = np.array([[float(sympy.N(x, 30)) for x in row] for row in jacobian])
    error = max_error(numeric_jacobian, exact_jacobian)
    outcome.check(
        "jacobian-finite-differences",
        error <= 1e-8,
        f"central differences of the engine's softmax within {error:.2e} of p_i(δ_ij−p_j)/τ",
    )
    sums = float(
        np.abs(exact_jacobian.sum(axis=0)).max() + np.abs(exact_jacobian.sum(axis=1)).max()
    )
    outcome.check(
        "jacobian-rows-columns-sum-to-zero",
        sums <= 1e-12,
        f"every Jacobian row and column sums to zero (worst {sums:.1e})",
    )
    return outcome
