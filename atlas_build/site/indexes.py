"""Home, topic and report pages: how a reader finds lessons and a reviewer finds problems.

Navigation stays small whatever the number of lessons: the MkDocs nav holds only
home, topics, report and codes (the theme renders the whole nav into every page),
and lessons are reached through topic index pages. The home page shows at most
`HOME_PER_TOPIC` lessons per topic and links to the topic page for the rest.

The report's status filter is pure CSS (radio inputs and sibling selectors), so it
needs no script and works from any static file server.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from atlas_build.diagnostics import Diagnostic
from atlas_build.report import RecordReport, Report
from atlas_build.site import panels
from atlas_build.site.html import badge, block, esc, front_matter, heading, href
from atlas_build.site.lesson import LessonPage
from atlas_build.text import slugify

HOME_PER_TOPIC = 25


@dataclass
class Entry:
    """A lesson as the index pages list it (a report without a page has no record)."""

    report: RecordReport
    page: LessonPage | None
    title: str
    topic: str
    category: str

    @property
    def status(self) -> str:
        return self.report.status


def topic_slugs(entries: list[Entry]) -> dict[str, str]:
    found: dict[str, str] = {}
    used: set[str] = set()
    for topic in sorted({entry.topic for entry in entries}):
        base = slugify(topic) or "topic"
        slug, number = base, 1
        while slug in used:
            number += 1
            slug = f"{base}-{number}"
        used.add(slug)
        found[topic] = slug
    return found


def _lesson_link(entry: Entry, here: str) -> str:
    if entry.page is None:
        return f"{esc(entry.title)} <small>(not published: {esc(entry.report.path)})</small>"
    return f'<a href="{esc(href(here, entry.page.directory))}">{esc(entry.title)}</a>'


def _claims_text(report: RecordReport) -> str:
    if not report.claims:
        return "no claims"
    counts = panels.claim_counts(report.claims)
    return f"{counts['pass']}/{len(report.claims)} claims pass"


def _lesson_item(entry: Entry, here: str) -> str:
    return (
        f'<li data-status="{esc(entry.status)}">{_lesson_link(entry, here)} '
        f"{badge(entry.status)} <small>{esc(_claims_text(entry.report))} · "
        f"{esc(entry.category)}</small></li>"
    )


def _plural(count: int, noun: str) -> str:
    return f"{count} {noun}{'' if count == 1 else 's'}"


def _tally(entries: list[Entry]) -> str:
    counts = {status: sum(1 for e in entries if e.status == status) for status in panels.STATUSES}
    return ", ".join(f"{n} {s}" for s, n in counts.items() if n) or "none"


def home(entries: list[Entry], topics: dict[str, str], report: Report) -> str:
    summary = report.summary()
    passed = summary["claims"] - summary["claimsFailed"]
    intro = (
        f"<p>{_plural(len(entries), 'lesson')} in {_plural(len(topics), 'topic')} "
        f"({esc(_tally(entries))}); "
        f"{passed} of {summary['claims']} claims pass. Every equation and number that a "
        "lesson's claims bind was re-derived or recomputed when this site was built: see "
        f'the <a href="report/">validation report</a> and the '
        f'<a href="codes/">diagnostic codes</a>.</p>'
    )
    text = front_matter({"title": "Lessons"}) + "\n# Lessons\n\n" + block(intro)
    for topic, slug in topics.items():
        listed = [e for e in entries if e.topic == topic]
        items = "\n".join(_lesson_item(e, "") for e in listed[:HOME_PER_TOPIC])
        more = f'<a href="topics/{slug}/">All {len(listed)} lessons in {esc(topic)}</a>'
        text += heading(2, esc(topic), f"topic-{slug}")
        text += block(f'<ul class="atlas-lessons">\n{items}\n</ul>\n<p>{more}</p>')
    return text


def topics_index(entries: list[Entry], topics: dict[str, str]) -> str:
    rows = "\n".join(
        f'<tr><td><a href="{slug}/">{esc(topic)}</a></td>'
        f"<td>{sum(1 for e in entries if e.topic == topic)}</td>"
        f"<td>{esc(_tally([e for e in entries if e.topic == topic]))}</td></tr>"
        for topic, slug in topics.items()
    )
    table = (
        "<table><thead><tr><th>Topic</th><th>Lessons</th>"
        f"<th>Validation</th></tr></thead><tbody>\n{rows}\n</tbody></table>"
    )
    return front_matter({"title": "Topics"}) + "\n# Topics\n\n" + block(table)


def topic_page(topic: str, slug: str, entries: list[Entry]) -> str:
    here = f"topics/{slug}"
    listed = [e for e in entries if e.topic == topic]
    rows = "\n".join(
        f'<tr data-status="{esc(e.status)}"><td>{_lesson_link(e, here)}</td>'
        f"<td>{badge(e.status)}</td><td>{esc(_claims_text(e.report))}</td>"
        f"<td>{esc(e.category)}</td><td>{esc(_description(e))}</td></tr>"
        for e in listed
    )
    table = (
        "<table><thead><tr><th>Lesson</th><th>Status</th><th>Claims</th>"
        f"<th>Category</th><th>Summary</th></tr></thead><tbody>\n{rows}\n</tbody></table>"
    )
    intro = f"<p>{len(listed)} lessons ({esc(_tally(listed))}).</p>"
    return front_matter({"title": topic}) + heading(1, esc(topic), "topic") + block(intro + table)


def _description(entry: Entry) -> str:
    return entry.page.record.description if entry.page is not None else ""


def _filters(counts: dict[str, int]) -> str:
    names = ["all", *panels.STATUSES]
    radios = "".join(
        f'<input type="radio" name="atlas-status" id="atlas-status-{name}" '
        f'class="atlas-filter-input"{" checked" if name == "all" else ""}>'
        for name in names
    )
    labels = "".join(
        f'<label for="atlas-status-{name}">{name} ({counts.get(name, 0)})</label>' for name in names
    )
    return radios + f'<div class="atlas-filter" role="group" aria-label="Filter">{labels}</div>'


def report_page(entries: list[Entry], report: Report) -> str:
    here = "report"
    diag_rows: list[str] = []
    claim_rows: list[str] = []
    counts: dict[str, int] = {}
    for entry in entries:
        page, item = entry.page, entry.report
        name = _lesson_link(entry, here)
        for diagnostic in item.diagnostics:
            counts[diagnostic.severity.value] = counts.get(diagnostic.severity.value, 0) + 1
        for claim in item.claims:
            counts[str(claim.get("status"))] = counts.get(str(claim.get("status")), 0) + 1
        diag_rows.append(
            panels.diagnostic_rows(
                item.diagnostics,
                lambda code: href(here, "codes", code),
                _diagnostic_href(page, here),
                _constant(name),
            )
        )
        claim_rows.append(panels.claim_rows(item.claims, _claim_href(page, here), _constant(name)))
    counts["all"] = sum(counts.values())
    lessons = "\n".join(
        f'<tr data-status="{esc(e.status)}"><td>{_lesson_link(e, here)}</td>'
        f"<td>{badge(e.status)}</td><td>{esc(_claims_text(e.report))}</td>"
        f"<td>{esc(_coverage_text(e.report.coverage))}</td></tr>"
        for e in entries
    )
    summary = report.summary()
    body = (
        _filters(counts) + f"<p>{summary['records']} lessons: {summary['errors']} errors, "
        f"{summary['warnings']} warnings, {summary['infos']} notes; "
        f"{summary['claims'] - summary['claimsFailed']} of {summary['claims']} claims pass.</p>"
        + '<h2 id="atlas-report-lessons">Lessons</h2>'
        + '<div class="atlas-findings"><table><thead><tr><th>Lesson</th><th>Status</th>'
        f"<th>Claims</th><th>Coverage</th></tr></thead><tbody>\n{lessons}\n</tbody></table></div>"
        + '<h2 id="atlas-report-claims">Claims</h2>'
        + panels.claims_table("\n".join(r for r in claim_rows if r), with_lesson=True)
        + '<h2 id="atlas-report-diagnostics">Diagnostics</h2>'
        + panels.diagnostics_table("\n".join(r for r in diag_rows if r), with_lesson=True)
    )
    return (
        front_matter({"title": "Validation report", "search": {"exclude": True}})
        + "\n# Validation report\n\n"
        + block(body, "atlas-report")
    )


def _constant(text: str) -> Callable[[object], str]:
    def constant(_item: object) -> str:
        return text

    return constant


def _coverage_text(coverage: dict[str, Any] | None) -> str:
    if not coverage:
        return ""
    equations = coverage.get("equations") or {}
    numbers = coverage.get("numbers") or {}
    return (
        f"equations {equations.get('covered', 0)}/{equations.get('total', 0)}, "
        f"numbers {numbers.get('bound', 0)}/{numbers.get('total', 0)}"
    )


def _claim_href(page: LessonPage | None, here: str) -> Callable[[dict[str, Any]], str | None]:
    def target(claim: dict[str, Any]) -> str | None:
        if page is None:
            return None
        claim_id = str(claim.get("id"))
        anchor = page.claim_anchor.get(claim_id, f"atlas-row-claim-{claim_id}")
        return href(here, page.directory, anchor)

    return target


def _diagnostic_href(page: LessonPage | None, here: str) -> Callable[[Diagnostic], str | None]:
    def target(diagnostic: Diagnostic) -> str | None:
        if page is None:
            return None
        section = page.section_at(diagnostic.content_line) or "atlas-validation"
        return href(here, page.directory, section)

    return target
