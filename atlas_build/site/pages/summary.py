"""The validation report: one row per lesson, the details on the lesson's own page.

Listing every claim and finding of every lesson made one page that grows with the whole
corpus (7.6 MB at 300 lessons, 25 MB at 1,000; MkDocs spent a third of its time on it
and a browser cannot use it). The report is a summary instead: per lesson its status,
relation and number counts, claims, errors and warnings, and a link to the validation
panel of its page (`#atlas-validation`), which holds every claim and finding. Lessons
that could not be published have no page, so their first findings are listed here.

Coverage is read in both shapes the claims stage has written: `relations` / `numbers`
with a count per status, and the older `equations {total, covered}` / `numbers
{total, bound}`. Counts come from cached reports, so anything not a count reads as 0.

The status filter is pure CSS (radio inputs and sibling selectors), so it needs no
script and works from any static file server.
"""

from __future__ import annotations

from typing import Any

from atlas_build.diagnostics import Severity
from atlas_build.report import Report
from atlas_build.site.pages import panels
from atlas_build.site.pages.html import badge, block, esc, front_matter, href
from atlas_build.site.pages.indexes import Entry, lesson_link
from atlas_build.text import plural

HERE = "report"
FILTERS = ("all", "error", "warning", "pass")  # a lesson's status is one of the last three
UNPUBLISHED_SHOWN = 10  # findings listed per lesson that has no page
RELATION_NOTES = (
    ("defined", "defined"),
    ("unchecked", "unchecked"),
    ("unreadable", "unreadable"),
    ("failed", "failed"),
    ("unverified", "open"),
)
NUMBER_NOTES = (("input", "input"), ("exempt", "exempt"), ("unaccounted", "unaccounted"))


def _count(value: object) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) and value > 0 else 0


def _cell(done: int, total: int, notes: list[str]) -> str:
    if not total:
        return "<td>–</td>"
    small = f"<br><small>{esc(', '.join(notes))}</small>" if notes else ""
    return f"<td>{done}/{total}{small}</td>"


def relations_cell(coverage: Any) -> str:
    """Relations verified / total (new coverage) or equations checked / total (old)."""
    coverage = coverage if isinstance(coverage, dict) else {}
    relations = coverage.get("relations")
    if isinstance(relations, dict):
        notes = [
            f"{n} {label}" for key, label in RELATION_NOTES if (n := _count(relations.get(key)))
        ]
        return _cell(_count(relations.get("verified")), _count(relations.get("total")), notes)
    equations = coverage.get("equations")
    equations = equations if isinstance(equations, dict) else {}
    return _cell(_count(equations.get("covered")), _count(equations.get("total")), [])


def numbers_cell(coverage: Any) -> str:
    """Numbers verified / total (new coverage) or bound / total (old)."""
    coverage = coverage if isinstance(coverage, dict) else {}
    numbers = coverage.get("numbers")
    numbers = numbers if isinstance(numbers, dict) else {}
    if "verified" in numbers:
        notes = [f"{n} {label}" for key, label in NUMBER_NOTES if (n := _count(numbers.get(key)))]
        return _cell(_count(numbers.get("verified")), _count(numbers.get("total")), notes)
    return _cell(_count(numbers.get("bound")), _count(numbers.get("total")), [])


def _row(entry: Entry) -> str:
    report = entry.report
    passed, total = report.claim_tally()["pass"], report.claim_total()
    details = (
        f'<a href="{esc(href(HERE, entry.page.directory, "atlas-validation"))}">details</a>'
        if entry.page is not None
        else '<a href="#atlas-report-unpublished">below</a>'
    )
    return (
        f'<tr data-status="{esc(entry.status)}"><td>{lesson_link(entry, HERE)}</td>'
        f"<td>{badge(entry.status)}</td>{relations_cell(report.coverage)}"
        f"{numbers_cell(report.coverage)}<td>{passed}/{total}</td>"
        f"<td>{report.count(Severity.ERROR)}</td><td>{report.count(Severity.WARNING)}</td>"
        f"<td>{details}</td></tr>"
    )


def _filters(entries: list[Entry]) -> str:
    counts = {name: sum(1 for e in entries if e.status == name) for name in FILTERS[1:]}
    counts["all"] = len(entries)
    radios = "".join(
        f'<input type="radio" name="atlas-status" id="atlas-status-{name}" '
        f'class="atlas-filter-input"{" checked" if name == "all" else ""}>'
        for name in FILTERS
    )
    labels = "".join(
        f'<label for="atlas-status-{name}">{name} ({counts[name]})</label>' for name in FILTERS
    )
    return radios + f'<div class="atlas-filter" role="group" aria-label="Filter">{labels}</div>'


def _unpublished(entries: list[Entry]) -> str:
    missing = [entry for entry in entries if entry.page is None]
    if not missing:
        return ""
    parts = []
    for entry in missing:
        shown = entry.report.diagnostics[:UNPUBLISHED_SHOWN]
        rows = panels.diagnostic_rows(shown, lambda code: href(HERE, "codes", code), lambda d: None)
        more = len(entry.report.diagnostics) - len(shown)
        tail = f"<p>and {plural(more, 'more finding')}: run <code>atlas-build check</code>.</p>"
        parts.append(
            f"<h3>{esc(entry.title)}</h3><p><code>{esc(entry.report.path)}</code></p>"
            + panels.diagnostics_table(rows)
            + (tail if more > 0 else "")
        )
    return '<h2 id="atlas-report-unpublished">Lessons not published</h2>' + "".join(parts)


def report_page(entries: list[Entry], report: Report) -> str:
    summary = report.summary()
    passed = summary["claimsPassed"]
    intro = (
        f"<p>{plural(summary['records'], 'lesson')}: {plural(summary['errors'], 'error')}, "
        f"{plural(summary['warnings'], 'warning')}, {plural(summary['infos'], 'note')}; "
        f"{passed} of {plural(summary['claims'], 'claim')} pass. Every claim and finding of a "
        "lesson is in the validation panel of its page (<em>details</em>).</p>"
    )
    head = "".join(
        f"<th>{name}</th>"
        for name in ("Lesson", "Status", "Relations", "Numbers", "Claims", "Errors", "Warnings", "")
    )
    rows = "\n".join(_row(entry) for entry in entries)
    body = (
        _filters(entries)
        + intro
        + '<h2 id="atlas-report-lessons">Lessons</h2>'
        + f'<div class="atlas-findings"><table class="atlas-summary-table"><thead><tr>{head}'
        + f"</tr></thead><tbody>\n{rows}\n</tbody></table></div>"
        + _unpublished(entries)
    )
    return (
        front_matter({"title": "Validation report", "search": {"exclude": True}})
        + "\n# Validation report\n\n"
        + block(body, "atlas-report")
    )
