"""The JSON form of one claim's result (`ClaimJSON`): the shape every report carries, every
output format shows and `schemas/report.schema.json` publishes (tests/test_report_model.py
holds the two to each other). A report read back from the cache is that JSON, so these
are the types a claim has from the claims stage to the site.

A leaf: the report reads claims back without importing the claims stage (SymPy and the
engine), which a check with every lesson cached never runs. pydantic validates these
TypedDicts (`report.model.read_claims`); the strict configuration it reads is set below
without importing it.
"""

from __future__ import annotations

from typing import Literal

from typing_extensions import TypedDict  # pydantic validates these on Python 3.11


class LocationJSON(TypedDict):
    path: str
    line: int | None
    column: int | None
    contentLine: int | None  # noqa: N815 (the report's JSON names)
    contentColumn: int | None  # noqa: N815


class AnchorJSON(TypedDict, total=False):
    """A claim without a quote is about a display equation or a quiz question."""

    equation: int
    question: str


class ValueJSON(TypedDict, total=False):
    """One value a claim compared with the number the prose states for it."""

    name: str
    quoted: str | None
    computed: str | None
    tolerance: str | None
    ok: bool
    input: bool
    line: int | None
    column: int | None


class CheckJSON(TypedDict):
    """One check a claim ran besides its values (an identity, a sample, a property)."""

    name: str
    ok: bool
    message: str


class ClaimJSON(TypedDict):
    id: str
    kind: str
    status: str
    message: str
    location: LocationJSON | None
    quote: str | None
    spans: list[list[int]]
    anchor: AnchorJSON | None
    values: list[ValueJSON]
    checks: list[CheckJSON]
    source: Literal["written", "inferred"]


STRICT = {"strict": True}  # pydantic's ConfigDict: read back as written, no coercion
for _shape in (LocationJSON, AnchorJSON, ValueJSON, CheckJSON, ClaimJSON):
    setattr(_shape, "__pydantic_config__", STRICT)  # noqa: B010 (a TypedDict declares no such field)
