"""Report stage: every output format is a view of the same `Report`."""

from __future__ import annotations

from collections.abc import Mapping

from atlas_build.diagnostics import Code
from atlas_build.report import github, jsonreport, junit, sarif, text
from atlas_build.report.model import RecordReport, Report

FORMATS = ("text", "json", "junit", "sarif", "github")

__all__ = ["FORMATS", "RecordReport", "Report", "render"]


def render(
    report: Report,
    output_format: str,
    *,
    verbose: bool = False,
    codes: Mapping[str, Code] | None = None,
) -> str:
    """`report` in `output_format`; SARIF describes each code used from `codes` (the
    catalog, which the caller passes: report/ sits below the stages that define them)."""
    if output_format == "text":
        return text.render(report, verbose=verbose)
    if output_format == "json":
        return jsonreport.render(report)
    if output_format == "junit":
        return junit.render(report)
    if output_format == "sarif":
        return sarif.render(report, codes or {})
    if output_format == "github":
        return github.render(report, verbose=verbose)
    raise ValueError(f"unknown format {output_format!r}; choose from {', '.join(FORMATS)}")
