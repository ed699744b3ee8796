"""One lesson page: the content, its figures, and what the build proved about it.

The page is `lessons/<slug>/index.md`, so relative links between lessons
(`../<slug>/`, the form the lesson checks accept) work as written, and figure files
sit next to it. Each claim's quoted sentence is highlighted with
`<mark id="claim-<id>">` (further occurrences `claim-<id>--2`, ...); claims that
check an equation or a quiz instead get an empty anchor with that id at the
equation or the quiz heading. The validation panel and the report link to these.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from atlas_build import canonical, paths
from atlas_build import outputcodes as codes
from atlas_build.cache import Cache
from atlas_build.claimjson import ClaimJSON
from atlas_build.diagnostics import Diagnostic, Location, at
from atlas_build.lesson import build as build_model
from atlas_build.lesson.model import Lesson
from atlas_build.model import LessonRecord
from atlas_build.report import RecordReport
from atlas_build.report import coverage as coverage_words
from atlas_build.site.pages import figures, markup, mathtext, panels, structures
from atlas_build.site.pages.html import badge, block, esc, front_matter, heading, href
from atlas_build.source import Source
from atlas_build.text import plural


@dataclass
class LessonPage:
    slug: str
    record: LessonRecord
    report: RecordReport
    text: str = ""
    files: dict[str, bytes] = field(default_factory=dict)
    ids: set[str] = field(default_factory=set)
    claim_anchor: dict[str, str] = field(default_factory=dict)
    headings: list[markup.Heading] = field(default_factory=list)
    added: list[Diagnostic] = field(default_factory=list)  # the site stage's own findings

    @property
    def directory(self) -> str:
        return f"lessons/{self.slug}"

    def section_at(self, content_line: int | None) -> str | None:
        """Id of the section holding a 1-based content line."""
        if content_line is None:
            return None
        found = None
        for item in self.headings:
            if item.line + 1 > content_line:
                break
            found = item.id
        return found


def claim_element(claim_id: str, occurrence: int = 0) -> str:
    return f"claim-{claim_id}" + (f"--{occurrence + 1}" if occurrence else "")


def _marks(content: str, claims: list[ClaimJSON]) -> list[markup.Mark]:
    """A mark over each place the claims stage found a claim's quote (its `spans`)."""
    marks: list[markup.Mark] = []
    for claim in claims:
        status = str(claim.get("status"))
        title = f"claim {claim.get('id')} ({claim.get('kind')}): {status}"
        for number, (start, end) in enumerate(_spans(claim, len(content))):
            marks.append(
                markup.Mark(
                    claim_element(str(claim.get("id")), number),
                    start,
                    end,
                    f"atlas-claim atlas-claim-{status}",
                    title,
                )
            )
    return marks


def _spans(claim: ClaimJSON, size: int) -> list[tuple[int, int]]:
    found = claim.get("spans")
    if not isinstance(found, list):
        return []
    return [
        (span[0], span[1])
        for span in found
        if isinstance(span, list)
        and len(span) == 2
        and all(type(n) is int for n in span)
        and 0 <= span[0] <= span[1] <= size
    ]


def _targets(claims: list[ClaimJSON], titles: list[str]) -> dict[str, list[str]]:
    """Equation and quiz claims (no quote) -> where their anchor goes."""
    targets: dict[str, list[str]] = {}
    for claim in claims:
        anchor = claim.get("anchor")  # None for a quoted claim
        if not isinstance(anchor, dict):
            continue
        target = None
        if type(anchor.get("equation")) is int:
            target = f"equation-{anchor['equation']}"
        elif isinstance(anchor.get("question"), str):
            wanted = anchor["question"].casefold()
            number = next((n for n, t in enumerate(titles, 1) if wanted in t.casefold()), None)
            target = f"section-{number}" if number else None
        if target:
            targets.setdefault(target, []).append(claim_element(str(claim.get("id"))))
    return targets


def _summary(page: LessonPage) -> str:
    report = page.report
    status = report.status
    counts = report.claim_tally()
    severities = panels.severity_counts(report.diagnostics)
    coverage = report.coverage or {}
    state = str(coverage.get("verification", "unverified"))
    if status == "error":
        state = "failed"
    facts = [
        badge(
            panels.VERIFICATION_CSS.get(state, "skipped"),
            coverage_words.VERIFICATION_WORDS.get(state, state),
        )
    ]
    if coverage.get("relations") is not None:
        facts.append(esc(coverage_words.relations_text(coverage["relations"])))
        facts.append(esc(coverage_words.numbers_text(coverage["numbers"])))
    if report.claims:
        facts.append(f"{counts['pass']} of {len(report.claims)} claims pass")
    errors, warnings = severities["error"], severities["warning"]
    facts.append(f"{plural(errors, 'error')}, {plural(warnings, 'warning')}")
    facts.append('<a href="#atlas-validation">validation details</a>')
    facts.append(f"v{esc(page.record.version)}, revised {esc(page.record.revisionDate)}")
    facts.append('<a href="#atlas-metadata">metadata</a>')
    return f'<p class="atlas-summary" id="atlas-summary">{" · ".join(facts)}</p>'


def _figure(figure: figures.Figure, page: LessonPage) -> str:
    links = ", ".join(
        f'<a href="#{esc(page.claim_anchor[c])}">{esc(c)}</a>' if c in page.claim_anchor else esc(c)
        for c in figure.claim_ids
    )
    ident = figure.name.removesuffix(".svg")
    return (
        f'<figure class="atlas-figure" id="{esc(ident)}"><img src="{esc(figure.name)}" '
        f'alt="{esc(figure.alt)}"><figcaption>{esc(figure.caption)} '
        f"<small>Computed by the engine at build time for claims {links}.</small>"
        "</figcaption></figure>"
    )


def _validation(page: LessonPage) -> str:
    report = page.report
    parts = [panels.coverage(report.coverage, lambda index: f"#equation-{index}")]

    def claim_href(claim: ClaimJSON) -> str | None:
        anchor = page.claim_anchor.get(str(claim.get("id")))
        return f"#{anchor}" if anchor else None

    def diagnostic_href(diagnostic: Diagnostic) -> str | None:
        section = page.section_at(diagnostic.content_line)
        return f"#{section}" if section else None

    def code_href(code: str) -> str:
        return href(page.directory, "codes", code)

    if report.claims:
        rows = panels.claim_rows(report.claims, claim_href)
        parts.append(panels.claims_table(rows))
    else:
        parts.append("<p>No claims.</p>")
    if report.diagnostics:
        rows = panels.diagnostic_rows(report.diagnostics, code_href, diagnostic_href)
        parts.append(panels.diagnostics_table(rows))
    else:
        parts.append("<p>No diagnostics: every integrity and lesson check passed.</p>")
    return "\n".join(parts)


def _body(rendered: markup.Rendered, placed: dict[int, list[str]], tail: list[str]) -> str:
    out: list[str] = []
    pending: list[str] = []

    def flush() -> None:
        if pending:
            out.append(block("\n".join(pending), "atlas-lesson"))
            pending.clear()

    for index, part in enumerate(rendered.parts):
        if part.heading is not None:
            flush()
            item = part.heading
            label = mathtext.plain(item.html) if "<math" in item.html else None
            out.append(heading(item.level, item.html, item.id, label=label))
        else:
            pending.append(part.html)
        pending.extend(placed.get(index, []))
    pending.extend(tail)
    flush()
    return "".join(out)


def _title(title: str, headings: list[markup.Heading]) -> str:
    """The page title; a title that is a heading with math reads as its rendered text
    (the heading's text is its source without the `$` delimiters)."""
    for item in headings:
        if "<math" in item.html and item.text == title.replace("$", "").strip():
            return mathtext.plain(item.html)
    return title


def build(
    source: Source,
    record: LessonRecord,
    report: RecordReport,
    known_slugs: frozenset[str],
    cache: Cache | None = None,
    model: Lesson | None = None,
) -> LessonPage:
    """Render the page; LaTeX errors and skipped figures are added to `report.diagnostics`.
    `model` is the lesson model of `record.content` when the caller has it at hand."""
    page = LessonPage(paths.publish_slug(source.slug, record.id), record, report)
    content = record.content
    marks = _marks(content, report.claims)
    titles = [item.title for item in canonical.headings(content)]
    targets = _targets(report.claims, titles)
    reserved = {m.element_id for m in marks} | {i for ids in targets.values() for i in ids}
    reserved |= {f"atlas-row-claim-{c.get('id')}" for c in report.claims}
    rendered = markup.render(content, marks, known_slugs, targets, reserved)
    if model is None or model.content != content:
        model = build_model(content)
    rendered.parts = structures.arrange(rendered.parts, model)
    page.headings = rendered.headings
    page.ids = rendered.ids | set(markup.RESERVED_IDS)
    for claim in report.claims:
        element = claim_element(str(claim.get("id")))
        if element in page.ids:
            page.claim_anchor[str(claim.get("id"))] = element
    added: list[Diagnostic] = []
    for problem in rendered.problems:
        added.append(at(codes.LATEX, source.locator.content(problem.offset), problem.message))
    found: list[figures.Figure] = []
    if source.claims_path:
        found, messages = figures.lesson_figures(source.claims_path, report.claims, "figure", cache)
        added += [at(codes.FIGURE, Location(source.claims_path), m) for m in messages]
    placed: dict[int, list[str]] = {}
    tail: list[str] = []
    for figure in found:
        page.files[figure.name] = figure.svg
        page.ids.add(figure.name.removesuffix(".svg"))
        line = (figure.content_line or 0) - 1
        index = next(
            (i for i, p in enumerate(rendered.parts) if p.first_line <= line < p.last_line), None
        )
        (placed.setdefault(index, []) if index is not None else tail).append(_figure(figure, page))
    page.added = added
    if added:
        report.diagnostics = sorted(report.diagnostics + added, key=Diagnostic.sort_key)
    page.ids |= {f"atlas-row-claim-{c.get('id')}" for c in report.claims}
    page.text = (
        front_matter(
            {"title": _title(record.title, page.headings), "description": record.description}
        )
        + block(_summary(page), searchable=False)
        + _body(rendered, placed, tail)
        + heading(2, "Validation", "atlas-validation", searchable=False)
        + block(_validation(page), searchable=False)
        + heading(2, "About this lesson", "atlas-metadata", searchable=False)
        + block(panels.metadata(record, source.path), searchable=False)
        + heading(2, "Citations", "atlas-citations")
        + block(panels.citations(record))
    )
    return page
