"""Home and topic pages: how a reader finds lessons and their status.

Navigation stays small whatever the number of lessons: the MkDocs nav holds only
home, topics, report and codes (the theme renders the whole nav into every page),
and lessons are reached through topic index pages. The home page shows at most
`HOME_PER_TOPIC` lessons per topic and links to the topic page for the rest.

The validation report is `summary.py`.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

from atlas_build.report import RecordReport, Report
from atlas_build.site.pages import panels
from atlas_build.site.pages.html import badge, block, esc, front_matter, heading, href
from atlas_build.site.pages.pageledger import PageHead
from atlas_build.text import plural, slugify

HOME_PER_TOPIC = 25


@dataclass
class Entry:
    """A lesson as the index pages list it (a report without a page has no record)."""

    report: RecordReport
    page: PageHead | None
    title: str
    topic: str
    category: str

    @functools.cached_property
    def status(self) -> str:
        """Read many times per page over a thousand lessons: each read counts findings."""
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


def lesson_link(entry: Entry, here: str) -> str:
    if entry.page is None:
        return f"{esc(entry.title)} <small>(not published: {esc(entry.report.path)})</small>"
    return f'<a href="{esc(href(here, entry.page.directory))}">{esc(entry.title)}</a>'


def _claims_text(report: RecordReport) -> str:
    total = report.claim_total()
    if not total:
        return "no claims"
    return f"{report.claim_tally()['pass']}/{total} claims pass"


def _lesson_item(entry: Entry, here: str) -> str:
    return (
        f'<li data-status="{esc(entry.status)}">{lesson_link(entry, here)} '
        f"{badge(entry.status)} <small>{esc(_claims_text(entry.report))} · "
        f"{esc(entry.category)}</small></li>"
    )


def _tally(entries: list[Entry]) -> str:
    counts = {status: sum(1 for e in entries if e.status == status) for status in panels.STATUSES}
    return ", ".join(f"{n} {s}" for s, n in counts.items() if n) or "none"


def home(entries: list[Entry], topics: dict[str, str], report: Report) -> str:
    summary = report.summary()
    passed = summary["claimsPassed"]
    intro = (
        f"<p>{plural(len(entries), 'lesson')} in {plural(len(topics), 'topic')} "
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
        f'<tr data-status="{esc(e.status)}"><td>{lesson_link(e, here)}</td>'
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
    return entry.page.description if entry.page is not None else ""
