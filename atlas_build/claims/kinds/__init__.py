"""Claim kinds, one module each; importing this package registers them all."""

from atlas_build.claims.kinds import (
    equation,
    formula,
    mixture,
    packing,
    prefix,
    quiz,
    shape,
    softmax,
    variance,
)

__all__ = [
    "equation",
    "formula",
    "mixture",
    "packing",
    "prefix",
    "quiz",
    "shape",
    "softmax",
    "variance",
]
