"""Check every relative link of a built site: target file exists, and so does its anchor.

MkDocs validates only markdown links, and the generated pages are raw HTML, so
the build checks the HTML it is about to publish instead: `<a href>`, `<img src>`,
`<link href>` and `<script src>` that stay inside the site (no scheme, host or
leading `/`) must resolve to a file (a directory means its `index.html`), and a
`#fragment` must be an `id` (or `<a name>`) on the target page.
"""

from __future__ import annotations

import html
import json
import posixpath
import re
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import unquote, urlsplit

from atlas_build.cache import Cache, digest, fingerprint

_LINKS = {"a": "href", "img": "src", "link": "href", "script": "src"}


@dataclass
class _Page:
    ids: set[str] = field(default_factory=set)
    links: list[str] = field(default_factory=list)


_TAG = re.compile(r"<([a-zA-Z][a-zA-Z0-9-]*)(\s[^>]*)?>")
_ATTRIBUTE = re.compile(
    r"""([a-zA-Z_:][-a-zA-Z0-9_:.]*)\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+))"""
)
_RELEVANT = re.compile(r"(?:id|name|href|src)\s*=", re.IGNORECASE)
_SKIP = re.compile(r"<(script|style)\b.*?</\1>|<!--.*?-->", re.DOTALL | re.IGNORECASE)


def _opening_tag(match: re.Match[str]) -> str:
    """Comments vanish; script and style keep their opening tag (a src is a link)."""
    found = match.group(0)
    return "" if found.startswith("<!--") else found[: found.find(">") + 1]


def _parse(path: Path, cache: Cache | None = None) -> _Page:
    """Ids and links of a page, remembered by the page's bytes: a warm build rewrites
    every page, but most come out identical."""
    data = path.read_bytes()
    key = digest(fingerprint(), "links", data) if cache is not None and cache.enabled else None
    if key is not None and cache is not None and (stored := cache.get("links", key)):
        ids, links = json.loads(stored)
        return _Page(set(ids), links)
    page = _scan(data.decode("utf-8", errors="replace"))
    if key is not None and cache is not None:
        cache.put("links", key, json.dumps([sorted(page.ids), page.links]).encode("utf-8"))
    return page


def _scan(text: str) -> _Page:
    """MkDocs writes well-formed HTML, so a tag scanner is enough and is about thirty
    times faster than html.parser on large sites."""
    page = _Page()
    text = _SKIP.sub(_opening_tag, text)
    for tag in _TAG.finditer(text):
        raw = tag.group(2)
        if not raw or not _RELEVANT.search(raw):
            continue  # most tags (MathML above all) carry no id, name, href or src
        name = tag.group(1).lower()
        attributes = {
            match.group(1).lower(): html.unescape(
                next(g for g in match.groups()[1:] if g is not None)
            )
            for match in _ATTRIBUTE.finditer(raw)
        }
        if attributes.get("id"):
            page.ids.add(attributes["id"])
        if name == "a" and attributes.get("name"):
            page.ids.add(attributes["name"])
        wanted = _LINKS.get(name)
        if wanted and attributes.get(wanted):
            page.links.append(attributes[wanted])
    return page


@dataclass(frozen=True)
class Broken:
    page: str  # site-relative path of the page holding the link
    link: str
    reason: str

    def __str__(self) -> str:
        return f"{self.page}: {self.link} ({self.reason})"


def check(
    site: str | Path, *, skip: tuple[str, ...] = ("404.html",), cache: Cache | None = None
) -> list[str]:
    """One message per broken internal link, `page: link (why)`; empty when all resolve."""
    return [str(problem) for problem in broken_links(site, skip=skip, cache=cache)]


def broken_links(
    site: str | Path, *, skip: tuple[str, ...] = ("404.html",), cache: Cache | None = None
) -> list[Broken]:
    """Every broken internal link of the site, in page order."""
    root = Path(site)
    pages: dict[str, _Page] = {}
    for path in sorted(root.rglob("*.html")):
        relative = path.relative_to(root).as_posix()
        if relative not in skip:
            pages[relative] = _parse(path, cache)
    problems: list[Broken] = []
    for name, page in pages.items():
        for link in sorted(set(page.links)):
            parts = urlsplit(link)
            if parts.scheme or parts.netloc or link.startswith("/"):
                continue
            target = name
            if parts.path:
                joined = posixpath.normpath(
                    posixpath.join(posixpath.dirname(name), unquote(parts.path))
                )
                if joined.startswith(".."):
                    problems.append(Broken(name, link, "leaves the site"))
                    continue
                full = root / joined
                if full.is_dir():
                    joined = posixpath.join(joined, "index.html")
                elif not full.is_file():
                    problems.append(Broken(name, link, "no such file"))
                    continue
                target = joined
            fragment = unquote(parts.fragment)
            if not fragment or not target.endswith(".html"):
                continue
            found = pages.get(target) or _parse(root / target, cache)
            if fragment not in found.ids:
                problems.append(Broken(name, link, f"no element with id {fragment!r}"))
    return problems
