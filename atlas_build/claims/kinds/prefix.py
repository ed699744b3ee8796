"""causal_prefix: a causal position's output ignores every later score and value."""

from __future__ import annotations

import numpy as np
from pydantic import Field

from atlas_build import engine
from atlas_build.claims.kinds._common import Scalar, exact_list, to_float
from atlas_build.claims.running.registry import ClaimError, Context, Outcome, Params, kind


class PrefixParams(Params):
    values: list[Scalar] = Field(
        min_length=1, max_length=64, description="scalar value of each position"
    )
    position: int = Field(ge=0, description="0-based causal position whose output is stated")
    trials: int = Field(
        default=50, ge=1, le=10_000, description="random changes of the later scores and values"
    )
    seed: int = Field(default=0, description="seed of the random changes")


@kind("causal_prefix", PrefixParams)
def run(params: PrefixParams, context: Context) -> Outcome:
    """Output at a causal position is unchanged by random later scores and values."""
    values = exact_list(params.values, "values")
    n, p = len(values), params.position
    if p >= n:
        raise ClaimError(f"position {p} is outside the {n} values")
    rng = np.random.default_rng(params.seed)
    v = to_float(values).reshape(n, 1)
    q = rng.standard_normal((n, n))
    k = rng.standard_normal((n, n))
    base = engine.attention(q, k, v, causal=True, method="dense")
    allowed = sorted(engine.allowed_key_slots(np.zeros(n, dtype=np.int64), p, causal=True))
    outcome = Outcome(
        inputs={"position"},
        quantities={
            "position": p,
            "allowed": frozenset(allowed),
            "allowed_values": [values[j] for j in allowed],
            "output": float(base[p, 0]),
        },
    )
    unchanged = True
    for _ in range(params.trials):
        q2, k2, v2 = q.copy(), k.copy(), v.copy()
        q2[p + 1 :] = rng.standard_normal(q2[p + 1 :].shape) * 10
        k2[p + 1 :] = rng.standard_normal(k2[p + 1 :].shape) * 10
        v2[p + 1 :] = rng.standard_normal(v2[p + 1 :].shape) * 10
        out = engine.attention(q2, k2, v2, causal=True, method="dense")
        unchanged &= bool(np.array_equal(out[: p + 1], base[: p + 1]))
    outcome.check(
        "prefix-invariance",
        unchanged,
        f"outputs up to position {p} bitwise unchanged under {params.trials} random "
        "changes of later scores and values",
    )
    return outcome
