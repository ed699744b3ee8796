"""One inferred check in plain data: what the report needs and the cache keeps."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Found:
    """One inferred check as the report needs it, in plain data (`store` caches it): the
    relation, its verdict, where its number and inputs are, what it read as what, and
    for a check atlas-build is certain failed, the A430's message."""

    equation: int
    index: int
    holds: bool
    certain: bool
    anchor: tuple[int, int]
    inputs: tuple[tuple[int, int], ...]
    summary: str
    error: str | None = None
