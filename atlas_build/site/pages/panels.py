"""The generated HTML around lesson content: validation tables, metadata, citations.

Shared by the lesson pages and the site-wide report, so a claim or diagnostic reads
the same everywhere. Every value that comes from a lesson or report is escaped, and
URLs from records become links only when they are http(s): with `--allow-errors` a
record that failed its URL checks may still be published.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any
from urllib.parse import urlsplit

from atlas_build.claimjson import CheckJSON, ClaimJSON, ValueJSON
from atlas_build.diagnostics import Diagnostic, Severity
from atlas_build.model import LessonRecord
from atlas_build.report.coverage import (
    VERIFICATION_WORDS,
    dimensions_text,
    inline_text,
    numbers_text,
    quizzes_text,
    relations_text,
)
from atlas_build.site.pages.html import badge, esc
from atlas_build.text import plural

STATUSES = ("error", "fail", "warning", "info", "pass", "skipped")
OK, NOT_OK, INPUT = "✓", "✗", "○"


_ESCAPED = re.compile(r"\\([!-/:-@\[-`{-~])")


_COMMAND = re.compile(r"\\[A-Za-z]")
_LATEX_WRAPPED = re.compile(r"\\(?:mathrm|text|textrm|operatorname)\{([^{}]*)\}")
_LATEX_SPACE = re.compile(r"\\[,;:! ]|~")
_LATEX_SYMBOLS = {"approx": "≈", "sim": "∼", "times": "×", "cdot": "·", "le": "≤", "ge": "≥",
                  "leq": "≤", "geq": "≥", "pm": "±", "%": "%"}  # fmt: skip
_LATEX_SYMBOL = re.compile(r"\\(%|[a-z]+)(?![A-Za-z])")
_LATEX_DEGREE = re.compile(r"(?:\^\{\\circ\}|\^\\circ|\\degree)(?:\s+(?=[CF](?![A-Za-z])))?")


def unescape(text: object) -> str:
    """Quoted lesson text as a reader sees it: markdown backslash escapes resolved. Text
    holding a LaTeX command is inline math (`0.02585\\,\\mathrm{mV}`): its spacing and unit
    wrappers and common symbols are read as LaTeX (`0.02585 mV`, `≈`), not as markdown's
    escaped `,`."""
    text = str(text)
    if _COMMAND.search(text):
        text = _LATEX_WRAPPED.sub(r"\1", _LATEX_DEGREE.sub("°", text))  # `20^\circ\mathrm{F}`
        text = _LATEX_SPACE.sub(" ", text)
        text = _LATEX_SYMBOL.sub(lambda m: _LATEX_SYMBOLS.get(m[1], m[0]), text)
    return _ESCAPED.sub(r"\1", text)


def safe_url(url: object) -> str | None:
    if not isinstance(url, str):
        return None
    return url if urlsplit(url.strip()).scheme.lower() in ("http", "https") else None


def link(url: object, text: object) -> str:
    target = safe_url(url)
    if target is None:
        return esc(text if text is not None else "")
    return f'<a href="{esc(target)}" rel="noopener noreferrer">{esc(text)}</a>'


def diagnostic_location(diagnostic: Diagnostic) -> str:
    where = diagnostic.path
    if diagnostic.line is not None:
        where += f":{diagnostic.line}"
        if diagnostic.column is not None:
            where += f":{diagnostic.column}"
    if diagnostic.content_line is not None:
        where += f" (content {diagnostic.content_line}:{diagnostic.content_column})"
    return where


def claim_location(claim: ClaimJSON) -> str:
    location = claim.get("location")
    if not isinstance(location, dict):
        return ""
    where = f"{location.get('path')}:{location.get('line')}:{location.get('column')}"
    if location.get("contentLine") is not None:
        where += f" (content {location.get('contentLine')}:{location.get('contentColumn')})"
    return where


def _values(values: list[ValueJSON]) -> str:
    """Each number of the quote: what the lesson writes next to what was computed."""
    if not values:
        return ""
    items = "".join(_value(v) for v in values)
    return f'<ul class="atlas-values">{items}</ul>'


def _value(v: ValueJSON) -> str:
    """An input (a value the claim fixes) agreeing with the prose is not a proof, so it is
    marked as given rather than checked."""
    ok, given = bool(v.get("ok")), bool(v.get("input")) and bool(v.get("ok"))
    mark = INPUT if given else OK if ok else NOT_OK
    said = "given as input" if given else "computed"
    flag = ' data-input="true"' if given else ""
    return (
        f'<li data-ok="{str(ok).lower()}"{flag}>{mark} '
        f"<code>{esc(v.get('name'))}</code> quoted <strong>{esc(unescape(v.get('quoted')))}"
        f"</strong>, {said} <strong>{esc(v.get('computed'))}</strong>"
        f"{_tolerance(v.get('tolerance'))}</li>"
    )


def _tolerance(value: object) -> str:
    return "" if value in (None, "", "0", 0) else f" (tolerance {esc(value)})"


def _checks(checks: list[CheckJSON]) -> str:
    if not checks:
        return ""
    items = "".join(
        f"<li>{OK if c.get('ok') else NOT_OK} <code>{esc(c.get('name'))}</code>: "
        f"{esc(c.get('message'))}</li>"
        for c in checks
    )
    passed = sum(1 for c in checks if c.get("ok"))
    return (
        f"<details><summary>{plural(len(checks), 'check')} ({passed} passed)</summary>"
        f"<ul>{items}</ul></details>"
    )


def claim_rows(
    claims: list[ClaimJSON],
    href: Callable[[ClaimJSON], str | None],
    lesson: Callable[[ClaimJSON], str] | None = None,
) -> str:
    """`<tr>`s of claims; `href` gives the link to the sentence a claim checks."""
    rows: list[str] = []
    for claim in claims:
        status = str(claim.get("status"))
        target = href(claim)
        name = esc(claim.get("id"))
        named = f'<a href="{esc(target)}">{name}</a>' if target else name
        quote = claim.get("quote")
        quoted = f'<p class="atlas-quote">“{esc(unescape(quote))}”</p>' if quote else ""
        first = f"<td>{lesson(claim)}</td>" if lesson else ""
        kind = claim.get("kind")
        if claim.get("source") == "inferred":  # made from the lesson itself, no claims file
            kind = "inferred from the lesson's own equations and values"
        rows.append(
            f'<tr data-status="{esc(status)}" id="atlas-row-claim-{esc(claim.get("id"))}">'
            f"{first}<td>{badge(status)}</td><td>{named}<br><small>{esc(kind)}"
            f"</small></td><td>{esc(claim.get('message'))}{quoted}"
            f"{_values(claim.get('values') or [])}{_checks(claim.get('checks') or [])}</td>"
            f"<td><small>{esc(claim_location(claim))}</small></td></tr>"
        )
    return "\n".join(rows)


def _findings_table(headers: tuple[str, ...], rows: str, with_lesson: bool) -> str:
    head = "".join(f"<th>{name}</th>" for name in ("Lesson",) * with_lesson + headers)
    return (
        f'<div class="atlas-findings"><table><thead><tr>{head}</tr></thead>'
        f"<tbody>\n{rows}\n</tbody></table></div>"
    )


def claims_table(rows: str, *, with_lesson: bool = False) -> str:
    headers = ("Status", "Claim", "Result: quoted vs computed", "Location")
    return _findings_table(headers, rows, with_lesson)


def diagnostic_rows(
    diagnostics: list[Diagnostic],
    code_href: Callable[[str], str],
    href: Callable[[Diagnostic], str | None],
    lesson: Callable[[Diagnostic], str] | None = None,
) -> str:
    rows: list[str] = []
    for diagnostic in diagnostics:
        target = href(diagnostic)
        where = esc(diagnostic_location(diagnostic))
        place = f'<a href="{esc(target)}">{where}</a>' if target else where
        first = f"<td>{lesson(diagnostic)}</td>" if lesson else ""
        rows.append(
            f'<tr data-status="{diagnostic.severity.value}">{first}'
            f"<td>{badge(diagnostic.severity.value)}</td>"
            f'<td><a href="{esc(code_href(diagnostic.code))}"><code>{esc(diagnostic.code)}</code>'
            f"</a><br><small>{esc(diagnostic.name)}</small></td>"
            f"<td>{esc(diagnostic.message)}</td><td><small>{place}</small></td></tr>"
        )
    return "\n".join(rows)


def diagnostics_table(rows: str, *, with_lesson: bool = False) -> str:
    return _findings_table(("Severity", "Code", "Message", "Location"), rows, with_lesson)


VERIFICATION_CSS = {
    "verified": "pass",
    "partial": "warning",
    "unverified": "skipped",
    "failed": "fail",
}
RELATION_CSS = {
    "verified": "pass",
    "defined": "info",
    "unchecked": "skipped",
    "unreadable": "warning",
    "failed": "fail",
    "unverified": "warning",
}

DIMENSION_CSS = {
    "consistent": "pass",
    "inconsistent": "fail",
    "incomplete": "warning",
    "not checked": "skipped",
}


def _dimension_cell(found: object) -> str:
    """The relation's dimension status, with what disagreed or which symbols lack a unit."""
    if not isinstance(found, dict):
        return badge("skipped", "not checked")
    status = str(found.get("status", "not checked"))
    detail = str(found.get("message") or "")
    unknown = [str(name) for name in found.get("unknown") or []]
    if unknown and not detail:
        detail = "no unit for " + ", ".join(unknown)
    small = f" <small>{esc(detail)}</small>" if detail else ""
    return badge(DIMENSION_CSS.get(status, "skipped"), status) + small


def coverage(data: dict[str, Any] | None, equation_href: Callable[[int], str] | None = None) -> str:
    """What the checks proved: a status for every relation, a class for every number."""
    if not data or "relations" not in data:
        return "<p>Nothing in this lesson was checked beyond integrity.</p>"
    relations = data["relations"]
    numbers = data["numbers"]
    state = str(data.get("verification", "unverified"))
    text = (
        f"<p>{badge(VERIFICATION_CSS.get(state, 'skipped'), VERIFICATION_WORDS.get(state, state))}"
        f" <strong>Relations:</strong> {esc(relations_text(relations))}. "
        f"<strong>Numbers:</strong> {esc(numbers_text(numbers))}."
    )
    found = data.get("quizzes")
    quizzes: dict[str, Any] = found if isinstance(found, dict) else {}
    if quizzes.get("total"):
        text += f" <strong>Quizzes:</strong> {esc(quizzes_text(quizzes))}."
    stated = data.get("inline")
    formulas: dict[str, Any] = stated if isinstance(stated, dict) else {}
    if formulas.get("total"):
        text += f" <strong>Inline math:</strong> {esc(inline_text(formulas))}."
    if isinstance(data.get("dimensions"), dict):
        text += f" <strong>Dimensions:</strong> {esc(dimensions_text(data['dimensions']))}."
    text += "</p>" + _open_items(quizzes.get("items") or [], "question", "atlas-quizzes")
    text += _open_items(formulas.get("items") or [], "latex", "atlas-inline")
    rows = []
    for item in relations.get("items") or []:
        status = str(item.get("status"))
        where = f"equation {item.get('equation')}, relation {item.get('relation')}"
        if equation_href is not None and isinstance(item.get("equation"), int):
            where = f'<a href="{esc(equation_href(item["equation"]))}">{esc(where)}</a>'
        else:
            where = esc(where)
        claims = ", ".join(str(c) for c in item.get("claims") or [])
        detail = esc(item.get("reason") or "") + (
            f" <small>({esc(claims)})</small>" if claims else ""
        )
        rows.append(
            f'<tr data-status="{esc(RELATION_CSS.get(status, status))}"><td>{where}</td>'
            f"<td>{badge(RELATION_CSS.get(status, 'skipped'), status)}</td>"
            f"<td><code>{esc(item.get('source'))}</code></td><td>{detail}</td>"
            f"<td>{_dimension_cell(item.get('dimensions'))}</td></tr>"
        )
    if rows:
        text += (
            '<div class="atlas-findings"><table class="atlas-relations"><thead><tr><th>Relation'
            "</th><th>Status</th><th>As written</th><th>How</th><th>Dimensions</th></tr></thead>"
            "<tbody>\n" + "\n".join(rows) + "\n</tbody></table></div>"
        )
    exempted = numbers.get("exempted") or {}
    if exempted:
        rules = ", ".join(f"{esc(rule)} {count}" for rule, count in exempted.items())
        text += f"<p>Exempt numbers, by rule: {rules}.</p>"
    listed = numbers.get("listedUnchecked") or []
    if listed:
        summary = f"{plural(len(listed), 'number')} listed unchecked, with the author's reason"
        text += f"<details><summary>{summary}</summary>{_places(listed)}</details>"
    missing = numbers.get("unaccountedAt") or []
    if missing:
        summary = plural(len(missing), "unaccounted number")
        text += f"<details><summary>{summary}</summary>{_places(missing)}</details>"
    return text


def _places(numbers: list[dict[str, Any]]) -> str:
    """Numbers of the prose at their line and column, each with its reason if it has one."""
    items = "".join(
        f"<li><code>{esc(n.get('text'))}</code> at line {esc(n.get('line'))}, column "
        f"{esc(n.get('column'))}" + (f": {esc(n['reason'])}" if n.get("reason") else "") + "</li>"
        for n in numbers
    )
    return f"<ul>{items}</ul>"


def _open_items(items: list[dict[str, Any]], label: str, css: str) -> str:
    """The quiz questions (`label` "question") or inline relations ("latex") that are not
    proved, each with its status and reason; proved answers are marked in the text."""
    rows = []
    for item in items:
        if not isinstance(item, dict) or item.get("status") == "verified":
            continue
        status = str(item.get("status"))
        shown = esc(item.get(label))
        shown = f"<code>{shown}</code>" if label == "latex" else shown
        reason = f": {esc(item['reason'])}" if item.get("reason") else ""
        rows.append(
            f"<li>{badge(RELATION_CSS.get(status, 'skipped'), status)} "
            f"{shown} <small>line {esc(item.get('line'))}{reason}</small></li>"
        )
    return f'<ul class="{css}">{"".join(rows)}</ul>' if rows else ""


def _unchecked(item: object) -> str:
    if isinstance(item, dict):
        return ", ".join(f"{key}: {value}" for key, value in item.items())
    return str(item)


def severity_counts(diagnostics: list[Diagnostic]) -> dict[str, int]:
    return {s.value: sum(1 for d in diagnostics if d.severity is s) for s in Severity}


def metadata(record: LessonRecord, source_path: str) -> str:
    """Version, dates, status, contentHash, canonical URL and licence, as a definition list."""
    license_text = record.license or "see rights statement"
    rows = [
        ("Lesson id", f"<code>{esc(record.id)}</code>"),
        ("Version", esc(record.version)),
        (
            "Revision date",
            f'<time datetime="{esc(record.revisionDate)}">{esc(record.revisionDate)}</time>',
        ),
        ("Published", esc(record.publishedDate or "not stated")),
        ("Status", esc(record.status)),
        ("Topic", esc(record.topic)),
        ("Category", esc(record.category)),
        ("Author", esc(record.author or "not stated")),
        ("contentHash", f'<code class="atlas-hash">{esc(record.contentHash)}</code>'),
        ("contentLength", esc(record.contentLength)),
        ("Canonical URL", link(record.canonicalUrl, record.canonicalUrl)),
        (
            "License",
            link(record.rightsUrl, license_text) if record.rightsUrl else esc(license_text),
        ),
        ("Evidence scope", esc(record.evidenceScope).replace("\n\n", "<br><br>")),
        ("Source file", f"<code>{esc(source_path)}</code>"),
    ]
    for label, url in (
        ("Record JSON", record.jsonUrl),
        ("Markdown", record.markdownUrl),
        ("Lesson data", record.artifactUrl),
        ("Interactive", record.interactiveUrl),
    ):
        if url:
            rows.append((label, link(url, url)))
    items = "".join(f"<dt>{label}</dt><dd>{value}</dd>" for label, value in rows)
    return f'<dl class="atlas-meta">{items}</dl>'


def citations(record: LessonRecord) -> str:
    if not record.citations:
        return "<p>No citations.</p>"
    items = "".join(f"<li>{link(c.url, c.title)}</li>" for c in record.citations)
    return f'<ol class="atlas-citations">{items}</ol>'
