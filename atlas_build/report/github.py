"""GitHub Actions workflow commands: one annotation per finding and a coverage notice
per lesson, then a summary.

Lesson text reaches three places here, each escaped for its reader: annotations
(controls written as visible escapes, then the workflow-command escapes: `%`, CR and LF
in the message, and `:` and `,` too in properties), the log line after them (text
escapes), and the step summary, a markdown table whose cells are code spans
(`escape.markdown_cell`; a lesson's id or path is also percent-encoded down to letters,
digits, spaces and `._/-`, `escape.markdown_name`), so an id cannot add cells, rows,
headings, links, images or HTML.
"""

from __future__ import annotations

import os

from atlas_build.diagnostics import Severity
from atlas_build.report import coverage
from atlas_build.report.escape import markdown_cell, markdown_name
from atlas_build.report.escape import text as escaped
from atlas_build.report.model import Report
from atlas_build.report.text import render as render_text

COMMAND = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFO: "notice"}


def _data(text: str) -> str:
    return escaped(text).replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _property(text: str) -> str:
    return _data(text).replace(":", "%3A").replace(",", "%2C")


def render(report: Report, *, verbose: bool = False) -> str:
    lines: list[str] = []
    for record in report.records:
        for diagnostic in record.diagnostics:
            if diagnostic.severity is Severity.INFO and not verbose:
                continue
            fields = [f"file={_property(diagnostic.path)}"]
            if diagnostic.line is not None:
                fields.append(f"line={diagnostic.line}")
            if diagnostic.column is not None:
                fields.append(f"col={diagnostic.column}")
            fields.append(f"title={_property(diagnostic.code + ' ' + diagnostic.name)}")
            command = COMMAND[diagnostic.severity]
            lines.append(f"::{command} {','.join(fields)}::{_data(diagnostic.message)}")
        said = coverage.sentence(record.coverage, record.status)
        if said is not None:
            fields = [f"file={_property(record.path)}", f"title={_property('coverage')}"]
            lines.append(f"::notice {','.join(fields)}::{_data(said)}")
    summary = render_text(report, verbose=verbose).splitlines()[-1]
    lines.append(summary)
    step_summary = os.environ.get("GITHUB_STEP_SUMMARY")
    if step_summary:
        with open(step_summary, "a", encoding="utf-8") as handle:
            handle.write("### atlas-build\n\n| lesson | status | errors | warnings | coverage |\n")
            handle.write("|---|---|---|---|---|\n")
            for record in report.records:
                said = (
                    coverage.sentence(record.coverage, record.status)
                    or "not checked beyond integrity"
                )
                handle.write(
                    f"| {markdown_name(record.id or record.path)} | {record.status} | "
                    f"{record.count(Severity.ERROR)} | {record.count(Severity.WARNING)} | "
                    f"{markdown_cell(said)} |\n"
                )
            handle.write(f"\n{summary}\n")
    return "\n".join(lines) + "\n"
