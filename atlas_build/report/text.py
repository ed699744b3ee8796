"""`path:line:col: severity code message` lines, each lesson's coverage (what its
relations, numbers and dimensions came to; unaccounted numbers are A410 infos, `-v`),
then one summary line.

Paths and messages carry lesson text, so control, bidi and separator characters in them
are printed as escapes (`report.escape.text`): each finding stays on one line and the
summary line cannot be faked or hidden.
"""

from __future__ import annotations

from atlas_build.diagnostics import Diagnostic, Severity
from atlas_build.report import coverage
from atlas_build.report.escape import text as escaped
from atlas_build.report.model import Report
from atlas_build.text import plural


def location(diagnostic: Diagnostic) -> str:
    parts = [escaped(diagnostic.path)]
    if diagnostic.line is not None:
        parts.append(str(diagnostic.line))
        if diagnostic.column is not None:
            parts.append(str(diagnostic.column))
    return ":".join(parts)


def line(diagnostic: Diagnostic) -> str:
    where = ""
    if diagnostic.content_line is not None and diagnostic.pointer == "/content":
        where = f" [content {diagnostic.content_line}:{diagnostic.content_column}]"
    return (
        f"{location(diagnostic)}: {diagnostic.severity.value} {escaped(diagnostic.code)} "
        f"{escaped(diagnostic.message)}{where}"
    )


def render(report: Report, *, verbose: bool = False) -> str:
    lines: list[str] = []
    for record in report.records:
        for diagnostic in record.diagnostics:
            if verbose or diagnostic.severity is not Severity.INFO:
                lines.append(line(diagnostic))
        said = coverage.sentence(record.coverage, record.status)
        if said is not None:
            lines.append(f"{escaped(record.path)}: {said}")
    summary = report.summary()
    records = summary["records"]
    text = (
        f"checked {plural(records, 'lesson')}: "
        f"{plural(summary['errors'], 'error')}, "
        f"{plural(summary['warnings'], 'warning')}"
    )
    if summary["claims"]:
        passed = summary["claimsPassed"]
        text += f", claims {passed}/{summary['claims']} passed"
    if summary.get("inferred"):
        text += f", inferred checks {summary['inferredPassed']}/{summary['inferred']} held"
    if summary["infos"] and not verbose:
        text += f" ({summary['infos']} info hidden; -v shows them)"
    if report.strict and summary["warnings"]:
        text += " [--strict: warnings fail]"
    lines.append(text)
    return "\n".join(lines) + "\n"
