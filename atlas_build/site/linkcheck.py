"""Check every relative link of a built site: target file exists, and so does its anchor.

MkDocs validates only markdown links, and the generated pages are raw HTML, so
the build checks the HTML it is about to publish instead: `<a href>`, `<img src>`,
`<link href>` and `<script src>` that stay inside the site (no scheme, host or
leading `/`) must resolve to a file (a directory means its `index.html`), and a
`#fragment` must be an `id` (or `<a name>`) on the target page.
"""

from __future__ import annotations

import posixpath
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urlsplit

_LINKS = {"a": "href", "img": "src", "link": "href", "script": "src"}


@dataclass
class _Page:
    ids: set[str] = field(default_factory=set)
    links: list[str] = field(default_factory=list)


class _Collector(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.page = _Page()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        if values.get("id"):
            self.page.ids.add(str(values["id"]))
        if tag == "a" and values.get("name"):
            self.page.ids.add(str(values["name"]))
        wanted = _LINKS.get(tag)
        if wanted and values.get(wanted):
            self.page.links.append(str(values[wanted]))


def _parse(path: Path) -> _Page:
    collector = _Collector()
    collector.feed(path.read_text(encoding="utf-8", errors="replace"))
    collector.close()
    return collector.page


def check(site: str | Path, *, skip: tuple[str, ...] = ("404.html",)) -> list[str]:
    """One message per broken internal link, `page: link (why)`; empty when all resolve."""
    root = Path(site)
    pages: dict[str, _Page] = {}
    for path in sorted(root.rglob("*.html")):
        relative = path.relative_to(root).as_posix()
        if relative not in skip:
            pages[relative] = _parse(path)
    problems: list[str] = []
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
                    problems.append(f"{name}: {link} (leaves the site)")
                    continue
                full = root / joined
                if full.is_dir():
                    joined = posixpath.join(joined, "index.html")
                elif not full.is_file():
                    problems.append(f"{name}: {link} (no such file)")
                    continue
                target = joined
            fragment = unquote(parts.fragment)
            if not fragment or not target.endswith(".html"):
                continue
            found = pages.get(target) or _parse(root / target)
            if fragment not in found.ids:
                problems.append(f"{name}: {link} (no element with id {fragment!r})")
    return problems
