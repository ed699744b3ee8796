"""What one claim reports: `ClaimResult` while the claims stage works, and its JSON form
(`ClaimJSON`), the shape every report carries, every output format shows and
`schemas/report.schema.json` publishes (tests/test_report_model.py holds the two to each
other). A report read back from the cache is that JSON, so the types are the JSON's.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from pydantic import ConfigDict, with_config
from typing_extensions import TypedDict  # pydantic validates these on Python 3.11

from atlas_build.diagnostics import Diagnostic, Location

_STRICT = ConfigDict(strict=True)  # read back as written: no coercion


@with_config(_STRICT)
class LocationJSON(TypedDict):
    path: str
    line: int | None
    column: int | None
    contentLine: int | None  # noqa: N815 (the report's JSON names)
    contentColumn: int | None  # noqa: N815


@with_config(_STRICT)
class AnchorJSON(TypedDict, total=False):
    """A claim without a quote is about a display equation or a quiz question."""

    equation: int
    question: str


@with_config(_STRICT)
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


@with_config(_STRICT)
class CheckJSON(TypedDict):
    """One check a claim ran besides its values (an identity, a sample, a property)."""

    name: str
    ok: bool
    message: str


@with_config(_STRICT)
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


@dataclass
class ClaimResult:
    claim_id: str
    kind: str
    status: str = "pass"
    message: str = ""
    location: Location | None = None
    quote: str | None = None
    values: list[ValueJSON] = field(default_factory=list)
    checks: list[CheckJSON] = field(default_factory=list)
    seconds: float = 0.0
    diagnostics: list[Diagnostic] = field(default_factory=list)
    numbers_total: int = 0
    numbers_bound: int = 0
    spots: list[tuple[int, int, str]] = field(default_factory=list)  # (start, end, class)
    spans: list[tuple[int, int]] = field(default_factory=list)  # where the quote was found
    anchor: AnchorJSON | None = None  # the equation or quiz question, unquoted
    source: Literal["written", "inferred"] = "written"  # in claims.yaml, or from the lesson
    # bound quantity -> why its number agreed without proving it (A423), unless another
    # number bound to it was verified (`proved`): a claim comparing with it proves nothing
    unproven: dict[str, str] = field(default_factory=dict)
    proved: set[str] = field(default_factory=set)

    def to_json(self) -> ClaimJSON:
        where: LocationJSON | None = None
        if self.location is not None:
            where = {
                "path": self.location.path,
                "line": self.location.line,
                "column": self.location.column,
                "contentLine": self.location.content_line,
                "contentColumn": self.location.content_column,
            }
        return {
            "id": self.claim_id,
            "kind": self.kind,
            "status": self.status,
            "message": self.message,
            "location": where,
            "quote": self.quote,
            "spans": [list(span) for span in self.spans],
            "anchor": self.anchor,
            "values": self.values,
            "checks": self.checks,
            "source": self.source,
        }
