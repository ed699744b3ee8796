"""What one claim reports while the claims stage works (`ClaimResult`), and its JSON
form, `atlas_build.claimjson.ClaimJSON`, which every report carries."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from atlas_build.claimjson import AnchorJSON, CheckJSON, ClaimJSON, LocationJSON, ValueJSON
from atlas_build.diagnostics import Diagnostic, Location

__all__ = [
    "AnchorJSON",
    "CheckJSON",
    "ClaimJSON",
    "ClaimResult",
    "LocationJSON",
    "ValueJSON",
]


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
