"""Only http(s) URLs in citations and URL fields: other schemes can run code or read files."""

from __future__ import annotations

from collections.abc import Iterator
from urllib.parse import urlsplit

from atlas_build.diagnostics import Diagnostic, Severity, at, define
from atlas_build.integrity.context import RULES, Subject

STAGE = "integrity"
SCHEME = define(
    "A230",
    "url-scheme",
    Severity.ERROR,
    "A URL field or citation uses a scheme other than http or https (javascript:, data:, "
    "file:...), which can run script or read local files when rendered.",
    example='{"title": "x", "url": "javascript:alert(1)"}',
    fix="Link to an http(s) address.",
    stage=STAGE,
)
URL_FIELDS = (
    "canonicalUrl",
    "rightsUrl",
    "artifactUrl",
    "interactiveUrl",
    "jsonUrl",
    "markdownUrl",
)
SAFE_SCHEMES = frozenset({"http", "https"})


def unsafe(url: str) -> str | None:
    """The offending scheme, or None when the URL is http(s) with a host."""
    parts = urlsplit(url.strip())
    scheme = parts.scheme.lower()
    if scheme not in SAFE_SCHEMES:
        return scheme or "(none)"
    if not parts.netloc:
        return f"{scheme} without a host"
    return None


@RULES.rule("url-schemes", order=50)
def check(subject: Subject) -> Iterator[Diagnostic]:
    record = subject.record
    for field in URL_FIELDS:
        value = getattr(record, field)
        if value is not None and (scheme := unsafe(value)):
            yield at(SCHEME, subject.at(f"/{field}"), f"{field} uses scheme {scheme!r}: {value}")
    for index, citation in enumerate(record.citations):
        if scheme := unsafe(citation.url):
            yield at(
                SCHEME,
                subject.at(f"/citations/{index}/url"),
                f"citation {citation.title!r} uses scheme {scheme!r}",
            )
