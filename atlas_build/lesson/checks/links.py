"""Links in the body: safe schemes, lessons we know, relative targets that exist.

Each link is reported at its own destination (lesson/parse.py locates it from the
parser, not by searching for the URL), and a body of a hundred thousand bad links gives
`MAX_FINDINGS` findings per code and one line saying how many more there were.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import replace
from urllib.parse import unquote, urlsplit

from atlas_build.diagnostics import Diagnostic, Severity, at, define
from atlas_build.lesson.context import RULES, LessonSubject
from atlas_build.text import plural, slugify

STAGE = "lesson"
UNSAFE = define(
    "A330",
    "unsafe-link",
    Severity.ERROR,
    "A link uses a scheme other than http, https or mailto (javascript:, data:, file:...).",
    example="[click](javascript:alert(1))",
    fix="Link to an http(s) address.",
    stage=STAGE,
)
BROKEN = define(
    "A331",
    "broken-relative-link",
    Severity.ERROR,
    "A relative link points at no lesson or anchor of this site.",
    example="[next](../kv-cahce/) or [see](#no-such-heading)",
    fix="Point the link at an existing lesson folder or heading anchor.",
    stage=STAGE,
)
OTHER_LESSON = define(
    "A332",
    "lesson-not-in-content",
    Severity.INFO,
    "A link to an Atlas lesson (`/learn/atlas/<slug>/`) names a lesson not in this content "
    "directory; the upstream atlas has hundreds, so this is only noted.",
    example="[Embedding table](https://semiaifoundry.com/learn/atlas/embedding/)",
    fix="Nothing, unless the lesson should be part of this build.",
    stage=STAGE,
)
LESSON_PATH = re.compile(r"^/learn/atlas/([a-z0-9]+(?:-[a-z0-9]+)*)/?$")
SAFE = frozenset({"http", "https", "mailto"})
MAX_FINDINGS = 100  # per code and lesson


def capped(found: Iterable[Diagnostic]) -> Iterator[Diagnostic]:
    """The first MAX_FINDINGS findings of each code, then one saying how many were left out
    (at the first one left out), so hostile input cannot make the report unbounded."""
    counts: dict[str, int] = {}
    first_left_out: dict[str, Diagnostic] = {}
    for diagnostic in found:
        counts[diagnostic.code] = counts.get(diagnostic.code, 0) + 1
        if counts[diagnostic.code] <= MAX_FINDINGS:
            yield diagnostic
        else:
            first_left_out.setdefault(diagnostic.code, diagnostic)
    for code, diagnostic in first_left_out.items():
        more = counts[code] - MAX_FINDINGS
        message = f"{plural(more, f'more {code} finding')} in this lesson not listed"
        yield replace(diagnostic, message=message)


def anchors(subject: LessonSubject) -> set[str]:
    """Section ids and the slug anchors the site gives each heading."""
    found: set[str] = set()
    for number, heading in enumerate(subject.lesson.headings, start=1):
        found.add(f"section-{number}")
        found.add(slugify(heading.text))
    return found


@RULES.rule("links", order=30)
def check(subject: LessonSubject) -> Iterator[Diagnostic]:
    yield from capped(_check(subject))


def _check(subject: LessonSubject) -> Iterator[Diagnostic]:
    page_anchors: set[str] | None = None
    for link in subject.lesson.links:
        parts = urlsplit(link.url.strip())
        scheme = parts.scheme.lower()
        where = subject.at(link.offset)
        if scheme and scheme not in SAFE:
            yield at(UNSAFE, where, f"link {link.text[:80]!r} uses scheme {scheme[:40]!r}")
            continue
        match = LESSON_PATH.match(parts.path)
        if match and (scheme or parts.path.startswith("/")):
            if match.group(1) not in subject.known_slugs:
                yield at(
                    OTHER_LESSON, where, f"links lesson {match.group(1)[:80]!r}, not in content"
                )
            continue
        if scheme or parts.netloc:
            continue
        if not parts.path:
            if page_anchors is None:
                page_anchors = anchors(subject)
            if parts.fragment and unquote(parts.fragment) not in page_anchors:
                yield at(BROKEN, where, f"anchor #{parts.fragment[:80]} matches no heading here")
            continue
        target = parts.path.strip("/").split("/")
        slug = target[-1] if target[:1] == [".."] and len(target) == 2 else None
        if slug is None or slug not in subject.known_slugs:
            yield at(
                BROKEN,
                where,
                f"relative link {link.url[:200]!r} matches no lesson; use ../<slug>/ or "
                "/learn/atlas/<slug>/",
            )
