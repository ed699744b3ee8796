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


@dataclass(frozen=True)
class Pin:
    """A held check as a claims.yaml `formula` claim can restate it (`atlas-build infer`):
    the number or list it verified (`anchor`), its `symbol` (a list's base) and `value`,
    the other symbols' values, all in the glossary's units (a list's as a tuple), and
    whether the relation computes the symbol (its left side: `use`) or is checked as an
    identity."""

    equation: int
    index: int
    anchor: tuple[int, int]
    symbol: str
    value: object
    values: tuple[tuple[str, object], ...]
    computes: bool
