"""The check result every output format renders: records, their diagnostics and claims."""

from __future__ import annotations

import functools
import json
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from atlas_build.claimjson import ClaimJSON
from atlas_build.diagnostics import Diagnostic, Severity
from atlas_build.ruler import INTERNAL

REPORT_VERSION = 2

INFERRED = "inferred"  # a claim's `source` when inference made it from the lesson itself


ClaimsLoader = Callable[[], list[ClaimJSON]]


@functools.cache
def _claims_shape() -> Any:
    """pydantic's validator of a list of `ClaimJSON`, made on first use: a check whose
    lessons are all in the ledger never reads claims back, nor imports pydantic."""
    from pydantic import TypeAdapter

    return TypeAdapter(list[ClaimJSON])


def read_claims(data: object) -> list[ClaimJSON]:
    """Claims read back from the cache, taken only in the shape a report carries them
    (`ClaimJSON`, no coercion); raises ValueError otherwise."""
    from pydantic import ValidationError

    try:
        found: list[ClaimJSON] = _claims_shape().validate_python(data)
    except ValidationError as error:
        raise ValueError(f"cached claims: {error}") from None
    return found


@dataclass(eq=False)
class RecordReport:
    """One lesson's findings, claim results and coverage.

    A report read back from the check ledger (`pipeline`) carries its claim counts by
    status (`tally`) and a `loader` instead of its claims: the claims are most of a
    report's bytes, and a build with one lesson changed needs only the counts of the
    others. They are loaded the first time `claims` is read."""

    path: str
    id: str | None
    diagnostics: list[Diagnostic] = field(default_factory=list)
    loaded_claims: list[ClaimJSON] | None = field(default_factory=list, repr=False)
    coverage: dict[str, Any] | None = None
    slug: str | None = None
    tally: dict[str, int] | None = field(default=None, repr=False)
    loader: ClaimsLoader | None = field(default=None, repr=False)

    @property
    def claims(self) -> list[ClaimJSON]:
        if self.loaded_claims is None:
            if self.loader is None:
                raise ValueError(f"{self.path}: a report without its claims or their loader")
            self.loaded_claims, self.loader = self.loader(), None
        return self.loaded_claims

    @claims.setter
    def claims(self, value: list[ClaimJSON]) -> None:
        self.loaded_claims, self.loader, self.tally = value, None, None

    def claim_tally(self) -> dict[str, int]:
        """How many claims have each status (pass, fail, error, skipped, ...); the checks
        inferred from the lesson itself are counted apart, as `inferred-pass` and
        `inferred-fail`."""
        if self.loaded_claims is None and self.tally is not None:
            return dict(self.tally)
        counts = dict.fromkeys(("pass", "fail", "error", "skipped"), 0)
        for claim in self.claims:
            status = str(claim.get("status"))
            if claim.get("source") == INFERRED:
                status = f"{INFERRED}-{status}"
            counts[status] = counts.get(status, 0) + 1
        return counts

    def claim_total(self) -> int:
        return sum(n for key, n in self.claim_tally().items() if not key.startswith(INFERRED))

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, RecordReport):
            return NotImplemented
        mine = (self.path, self.id, self.diagnostics, self.coverage, self.slug)
        theirs = (other.path, other.id, other.diagnostics, other.coverage, other.slug)
        return mine == theirs and self.claims == other.claims

    def count(self, severity: Severity) -> int:
        return sum(1 for diagnostic in self.diagnostics if diagnostic.severity is severity)

    @property
    def internal_error(self) -> bool:
        return any(diagnostic.code == INTERNAL.code for diagnostic in self.diagnostics)

    @property
    def status(self) -> str:
        if self.count(Severity.ERROR):
            return "error"
        return "warning" if self.count(Severity.WARNING) else "pass"

    def to_cache(self, seconds: float) -> bytes:
        """The report as its cache entry: its JSON, with what the cache needs besides
        (diagnostics in full, the slug, the seconds it took)."""
        data = self.to_json()
        data["diagnostics"] = [diagnostic.to_cache() for diagnostic in self.diagnostics]
        data["slug"] = self.slug
        data["seconds"] = seconds
        return json.dumps(data).encode("ascii")  # ASCII escapes keep lone surrogates intact

    @classmethod
    def from_cache(cls, payload: bytes) -> tuple[RecordReport, float]:
        """A report and its seconds from `to_cache`'s bytes; raises ValueError (KeyError,
        TypeError) for anything else."""
        data = json.loads(payload)
        report = cls(
            data["path"],
            data["id"],
            [Diagnostic.from_cache(item) for item in data["diagnostics"]],
            read_claims(data["claims"]),
            data.get("coverage"),
            data.get("slug"),
        )
        return report, float(data.get("seconds", 0.0))

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "path": self.path,
            "id": self.id,
            "status": self.status,
            "diagnostics": [diagnostic.to_json() for diagnostic in self.diagnostics],
            "claims": self.claims,
        }
        if self.coverage is not None:
            data["coverage"] = self.coverage
        return data


@dataclass
class Report:
    records: list[RecordReport]
    strict: bool = False
    timings: dict[str, float] = field(default_factory=dict)

    def count(self, severity: Severity) -> int:
        return sum(record.count(severity) for record in self.records)

    @property
    def internal_error(self) -> bool:
        return any(record.internal_error for record in self.records)

    def exit_code(self) -> int:
        """0 clean, 1 findings (warnings too under --strict), 2 when atlas-build itself failed."""
        if self.internal_error:
            return 2
        if self.count(Severity.ERROR) or self.strict and self.count(Severity.WARNING):
            return 1
        return 0

    def summary(self) -> dict[str, int]:
        tallies = [record.claim_tally() for record in self.records]
        written = [{k: n for k, n in t.items() if not k.startswith(INFERRED)} for t in tallies]
        return {
            "records": len(self.records),
            "errors": self.count(Severity.ERROR),
            "warnings": self.count(Severity.WARNING),
            "infos": self.count(Severity.INFO),
            "claims": sum(sum(tally.values()) for tally in written),
            "claimsFailed": sum(tally["fail"] + tally["error"] for tally in written),
            # Only claims that ran a check and held: unchecked and skipped ones did not pass.
            "claimsPassed": sum(tally["pass"] for tally in written),
            "inferred": sum(
                n for tally in tallies for k, n in tally.items() if k.startswith(INFERRED)
            ),
            "inferredPassed": sum(tally.get(f"{INFERRED}-pass", 0) for tally in tallies),
        }

    def to_json(self) -> dict[str, Any]:
        return {
            "version": REPORT_VERSION,
            "tool": {"name": "atlas-build", "version": _version()},
            "strict": self.strict,
            "summary": self.summary(),
            "records": [record.to_json() for record in self.records],
        }


def _version() -> str:
    from atlas_build import __version__

    return __version__
