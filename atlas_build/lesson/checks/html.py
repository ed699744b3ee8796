"""Raw HTML in the body that the published page will not carry: active content.

The site's sanitiser (site/sanitize.py) removes scripts, frames, embedded objects,
event handlers and javascript:/data: URLs, so a lesson that writes them would
publish a page that differs from its source without anyone being told. This rule
tells the author, at the tag, before publishing.

The patterns are possessive, and a quote left open runs to the end of the fragment (as
it does in a browser), so no fragment makes them rescan text: a 5 MB html block of
`<a '<a '...` costs one pass. Findings are capped per lesson (`links.capped`).
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from atlas_build.diagnostics import Diagnostic, Severity, at, define
from atlas_build.lesson.checks.links import capped
from atlas_build.lesson.context import RULES, LessonSubject

STAGE = "lesson"
ACTIVE = define(
    "A333",
    "active-html",
    Severity.ERROR,
    "Raw HTML in the body carries active or hidden content (a script, style, frame, embedded "
    "object, form control, event handler, or a javascript:/data: URL); the site removes it, "
    "so the published page would differ from the source.",
    example='Look: <img src="x" onerror="alert(1)"> here.',
    fix="Remove it, or write the content in markdown (links, images, code blocks).",
    stage=STAGE,
)
# Tags the site drops with their content (site/sanitize.py; a test keeps the lists equal).
DROPPED = frozenset(
    {"script", "style", "iframe", "frame", "frameset", "object", "embed", "noscript",
     "template", "svg", "textarea", "select", "title", "xmp", "noembed", "noframes"}
)  # fmt: skip
_TAG = re.compile(r"""<\s*+([a-zA-Z][a-zA-Z0-9-]*+)((?:"[^"]*+"?|'[^']*+'?|[^'">]++)*+)""")
_ATTRIBUTE = re.compile(r"""([^\s"'>/=]++)(?:\s*+=\s*+("[^"]*+"?|'[^']*+'?|[^\s"'=<>`]++))?""")
_WINDOW = 64 * 1024
_URL_ATTRIBUTES = frozenset({"href", "src", "action", "formaction", "xlink:href", "data"})
_ACTIVE_SCHEMES = ("javascript:", "data:", "vbscript:")


def findings(html: str) -> Iterator[tuple[int, str]]:
    """(offset in `html`, what) for each piece of active content. Attribute values are
    read as units, so text inside a quoted value is never taken for an attribute."""
    for tag in _TAG.finditer(html):
        name = tag.group(1).lower()
        if name in DROPPED:
            yield tag.start(), f"<{name}> is removed from the published page, with its content"
            continue
        base = tag.start(2)
        for attribute in _ATTRIBUTE.finditer(tag.group(2)):
            key = attribute.group(1).lower()
            value = (attribute.group(2) or "").strip("\"'").strip().lower()
            if key.startswith("on"):
                yield (
                    base + attribute.start(),
                    f"event handler attribute {key} is removed from the page",
                )
            elif key in _URL_ATTRIBUTES and value.startswith(_ACTIVE_SCHEMES):
                scheme = value.split(":", 1)[0]
                yield base + attribute.start(), f"a {scheme}: URL is removed from the page"


@RULES.rule("html", order=35)
def check(subject: LessonSubject) -> Iterator[Diagnostic]:
    yield from capped(_check(subject))


def _check(subject: LessonSubject) -> Iterator[Diagnostic]:
    content = subject.lesson.content
    for fragment in subject.lesson.raw_html:
        cursor = fragment.offset
        for offset, message in sorted(findings(fragment.text)):
            snippet = fragment.text[offset : offset + 20]
            where = fragment.offset + offset
            if not content.startswith(snippet, where):  # markers cut from a nested block
                found = content.find(snippet, cursor, cursor + len(fragment.text) + _WINDOW)
                where = found if found != -1 else cursor
            cursor = where + 1
            yield at(ACTIVE, subject.at(where), f"raw HTML: {message}")
