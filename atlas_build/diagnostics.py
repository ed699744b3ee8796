"""The one finding type every stage emits, and the registry of stable codes.

Every stage (load, integrity, lesson model, claims, site) reports problems as
`Diagnostic` values; every output format is a view of a list of them. Codes are
declared once with `define()` next to the rule that emits them; `catalog.py`, above
the stages, collects them for the reference page, SARIF and `atlas-build explain CODE`.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, replace
from typing import Any


class Severity(enum.StrEnum):
    ERROR = "error"
    WARNING = "warning"
    INFO = "info"

    @property
    def rank(self) -> int:
        return {"error": 0, "warning": 1, "info": 2}[self.value]


@dataclass(frozen=True, slots=True)
class Code:
    """A stable diagnostic code with the documentation a linter's rule page needs."""

    code: str
    name: str
    severity: Severity
    summary: str
    example: str
    fix: str
    stage: str


_REGISTRY: dict[str, Code] = {}


def define(
    code: str,
    name: str,
    severity: Severity | str,
    summary: str,
    *,
    example: str,
    fix: str,
    stage: str,
) -> Code:
    """Register a code once; redefining one with different text is a programming error."""
    entry = Code(code, name, Severity(severity), summary, example, fix, stage)
    existing = _REGISTRY.get(code)
    if existing is not None and existing != entry:
        raise ValueError(f"diagnostic code {code} defined twice with different content")
    _REGISTRY[code] = entry
    return entry


def defined() -> dict[str, Code]:
    """The codes registered so far, sorted: only the stages imported yet have registered
    theirs (`catalog.codes()` imports them all)."""
    return dict(sorted(_REGISTRY.items()))


@dataclass(frozen=True, slots=True)
class Diagnostic:
    """One finding, located as precisely as the stage can: file line:col and JSON pointer.

    `line` and `column` are 1-based and count code points. `content_line` and
    `content_column` locate the finding inside the lesson's markdown body when the
    file position alone does not make that obvious (a record's `content` is one
    JSON string).
    """

    severity: Severity
    code: str
    message: str
    path: str
    line: int | None = None
    column: int | None = None
    pointer: str | None = None
    content_line: int | None = None
    content_column: int | None = None
    label: str = ""  # the code's readable name, carried so cached results need no registry

    @property
    def name(self) -> str:
        if self.label:
            return self.label
        entry = _REGISTRY.get(self.code)
        return entry.name if entry else self.code

    def sort_key(self) -> tuple[str, int, int, int, str, str]:
        return (
            self.path,
            self.line or 0,
            self.column or 0,
            self.severity.rank,
            self.code,
            self.message,
        )

    def with_severity(self, severity: Severity) -> Diagnostic:
        return replace(self, severity=severity)

    def to_cache(self) -> dict[str, object]:
        return {
            "severity": self.severity.value,
            "code": self.code,
            "message": self.message,
            "path": self.path,
            "line": self.line,
            "column": self.column,
            "pointer": self.pointer,
            "contentLine": self.content_line,
            "contentColumn": self.content_column,
            "name": self.name,
        }

    @classmethod
    def from_cache(cls, data: dict[str, Any]) -> Diagnostic:
        return cls(
            Severity(data["severity"]),
            data["code"],
            data["message"],
            data["path"],
            data["line"],
            data["column"],
            data["pointer"],
            data["contentLine"],
            data["contentColumn"],
            data.get("name", ""),
        )

    def to_json(self) -> dict[str, object]:
        """The report's form: content positions only when they add information."""
        data = self.to_cache()
        content_line, content_column = data.pop("contentLine"), data.pop("contentColumn")
        if content_line is not None:
            data["contentLine"], data["contentColumn"] = content_line, content_column
        return data


@dataclass(frozen=True, slots=True)
class Location:
    """Where a finding sits: file, 1-based line and column, JSON pointer, content line:col."""

    path: str
    line: int | None = None
    column: int | None = None
    pointer: str | None = None
    content_line: int | None = None
    content_column: int | None = None


def at(
    code: Code, location: Location, message: str, *, severity: Severity | None = None
) -> Diagnostic:
    """Build a diagnostic for a registered code, at its default severity unless overridden."""
    return Diagnostic(
        severity=severity or code.severity,
        code=code.code,
        message=message,
        path=location.path,
        line=location.line,
        column=location.column,
        pointer=location.pointer,
        content_line=location.content_line,
        content_column=location.content_column,
        label=code.name,
    )
