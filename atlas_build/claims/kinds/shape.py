"""shape: "dense score shape T × T per head", measured on the engine's materialised scores."""

from __future__ import annotations

import re

import numpy as np
from pydantic import Field

from atlas_build import engine
from atlas_build.claims.running.registry import ClaimError, Context, Outcome, Params, kind

_SHAPE = re.compile(r"([A-Za-z](?:_?[A-Za-z0-9])?)\s*[×x]\s*([A-Za-z](?:_?[A-Za-z0-9])?)")
TENSORS = ("scores", "probs", "output")


class ShapeParams(Params):
    tensor: str = Field(
        default="scores",
        pattern="^(scores|probs|output)$",
        description="the engine tensor measured: `scores`, `probs` or `output`",
    )
    sequence: str = Field(default="T", description="the symbol the lesson uses for sequence length")
    width: str = Field(default="d", description="the symbol for head width (output shapes)")


@kind("shape", ShapeParams)
def run(params: ShapeParams, context: Context) -> Outcome:
    """Per-head shape of an attention tensor, in the lesson's symbols."""
    names = {}
    outcome = Outcome()
    rng = np.random.default_rng(0)
    for heads, length, width in ((2, 3, 4), (3, 5, 2)):
        q = rng.standard_normal((heads, length, width))
        internals = engine.attention_internals(q, q, q)
        shape = tuple(getattr(internals, params.tensor).shape)
        per_head = shape[1:]
        names[(length, width)] = per_head
        symbolic = tuple(
            params.sequence if n == length else params.width if n == width else str(n)
            for n in per_head
        )
        outcome.quantities["shape"] = symbolic
    texts = context.occurrence_texts
    if not texts:
        raise ClaimError("shape needs a quote that states the shape, like `T × T per head`")
    expected = outcome.quantities["shape"]
    for text in texts:
        match = _SHAPE.search(text)
        stated = (match.group(1), match.group(2)) if match else None
        outcome.check(
            "stated-shape",
            stated == expected,
            f"the lesson states {' × '.join(stated) if stated else 'no shape'}; "
            f"the engine's {params.tensor} per head are {' × '.join(expected)}",
        )
    return outcome
