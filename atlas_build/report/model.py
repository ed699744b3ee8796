"""The check result every output format renders: records, their diagnostics and claims."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from atlas_build.diagnostics import Diagnostic, Severity

REPORT_VERSION = 2


@dataclass
class RecordReport:
    path: str
    id: str | None
    diagnostics: list[Diagnostic] = field(default_factory=list)
    claims: list[dict[str, Any]] = field(default_factory=list)
    coverage: dict[str, Any] | None = None
    slug: str | None = None

    def count(self, severity: Severity) -> int:
        return sum(1 for diagnostic in self.diagnostics if diagnostic.severity is severity)

    @property
    def internal_error(self) -> bool:
        return any(diagnostic.code == "A901" for diagnostic in self.diagnostics)

    @property
    def status(self) -> str:
        if self.count(Severity.ERROR):
            return "error"
        return "warning" if self.count(Severity.WARNING) else "pass"

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
        return {
            "records": len(self.records),
            "errors": self.count(Severity.ERROR),
            "warnings": self.count(Severity.WARNING),
            "infos": self.count(Severity.INFO),
            "claims": sum(len(record.claims) for record in self.records),
            "claimsFailed": sum(
                1
                for record in self.records
                for claim in record.claims
                if claim.get("status") in ("fail", "error")
            ),
            # Only claims that ran a check and held: unchecked and skipped ones did not pass.
            "claimsPassed": sum(
                1
                for record in self.records
                for claim in record.claims
                if claim.get("status") == "pass"
            ),
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
