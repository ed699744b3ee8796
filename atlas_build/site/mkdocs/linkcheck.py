"""Check every relative link of a built site: target file exists, and so does its anchor.

MkDocs validates only markdown links, and the generated pages are raw HTML, so
the build checks the HTML it is about to publish instead: `<a href>`, `<img src>`,
`<link href>` and `<script src>` that stay inside the site (no scheme, host or
leading `/`) must resolve to a file (a directory means its `index.html`), and a
`#fragment` must be an `id` (or `<a name>`) on the target page.
"""

from __future__ import annotations

import contextlib
import hashlib
import html
import json
import posixpath
import re
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import unquote, urlsplit

from atlas_build.cache import Cache, digest, fingerprint
from atlas_build.workers import pool

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


LEDGER = "links-ledger"
SHARED = 64  # new pages to scan before the work is shared among processes


class Ledger:
    """Ids and links of every page of the last build of a site folder, by the sha256 of the
    page, in one authenticated cache entry: a build with one page changed read a thousand
    entries back, one per page (half a second at 1,000 lessons)."""

    def __init__(self, cache: Cache, site: Path) -> None:
        self.cache = cache
        self.key = digest(LEDGER, fingerprint(), str(site.resolve()))
        data = cache.get_json(LEDGER, self.key)
        self.known: dict[str, object] = data if isinstance(data, dict) else {}
        self.used: dict[str, object] = {}

    def get(self, sha: str) -> _Page | None:
        page = _page(self.known.get(sha))
        if page is not None:
            self.used[sha] = self.known[sha]
        return page

    def put(self, sha: str, page: _Page) -> None:
        self.used[sha] = [sorted(page.ids), page.links]

    def save(self) -> None:
        if self.used != self.known:
            self.cache.put_json(LEDGER, self.key, self.used)


def _page(data: object) -> _Page | None:
    """Ids and links as stored, or None when they are not."""
    if not (isinstance(data, list) and len(data) == 2):
        return None
    ids, links = data
    if not (isinstance(ids, list) and isinstance(links, list)):
        return None
    if all(isinstance(i, str) for i in ids) and all(isinstance(u, str) for u in links):
        return _Page(set(ids), list(links))
    return None


def _parse(
    root: Path,
    name: str,
    cache: Cache | None = None,
    sha: str | None = None,
    ledger: Ledger | None = None,
) -> _Page:
    """Ids and links of a page, remembered by the sha256 of its bytes (given when the build
    knows it already, so an unchanged page is not even read)."""
    data, path = None, root / name
    if sha is None:
        data = path.read_bytes()
        sha = hashlib.sha256(data).hexdigest()
    if ledger is not None and (known := ledger.get(sha)) is not None:
        return known
    page = _read(root, name, cache, sha, data)
    if ledger is not None:
        ledger.put(sha, page)
    return page


def _read(root: Path, name: str, cache: Cache | None, sha: str, data: bytes | None) -> _Page:
    found = _stored(cache, sha)
    if found is not None:
        return found
    if data is None:
        data = (root / name).read_bytes()
    page = _scan(data.decode("utf-8", errors="replace"))
    _store(cache, sha, page)
    return page


def _key(cache: Cache | None, sha: str) -> str | None:
    return digest(fingerprint(), "links", sha) if cache is not None and cache.enabled else None


def _stored(cache: Cache | None, sha: str) -> _Page | None:
    key = _key(cache, sha)
    if key is not None and cache is not None and (stored := cache.get("links", key)):
        with contextlib.suppress(ValueError):
            return _page(json.loads(stored))
    return None


def _store(cache: Cache | None, sha: str, page: _Page) -> None:
    key = _key(cache, sha)
    if key is not None and cache is not None:
        cache.put("links", key, json.dumps([sorted(page.ids), page.links]).encode("utf-8"))


def note(cache: Cache, sha: str, data: bytes) -> None:
    """Scan a page MkDocs has just laid out, while its bytes (of sha256 `sha`) are at hand,
    and remember its ids and links as `_store` does: the link check then reads them from
    the cache. In a cold build the pages are laid out in `-j` processes, so the scan is
    shared out with them instead of taking 2 s of processes of its own at the end."""
    _store(cache, sha, _scan(data.decode("utf-8", errors="replace")))


def _scan_file(path: str) -> _Page:
    with open(path, "rb") as handle:
        return _scan(handle.read().decode("utf-8", errors="replace"))


def _pages(
    root: Path,
    names: list[str],
    listing: dict[str, str | None],
    cache: Cache | None,
    ledger: Ledger | None,
    jobs: int,
) -> dict[str, _Page]:
    """Ids and links of the pages `names`, in that order. Pages neither the ledger nor the
    cache knows (all of them in a cold build) are scanned in `jobs` processes when there
    are at least `SHARED` of them: the scan was 3 s of a cold 1,000-lesson build, on one
    core while the other idled."""
    found: dict[str, _Page] = {}
    todo: list[str] = []
    for name in names:
        sha = listing[name]
        if sha is None:  # read to learn its sha256
            found[name] = _parse(root, name, cache, sha, ledger)
        elif ledger is not None and (known := ledger.get(sha)) is not None:
            found[name] = known
        elif (stored := _stored(cache, sha)) is not None:
            found[name] = stored
        else:
            todo.append(name)
    if jobs > 1 and len(todo) >= SHARED:
        with pool(min(jobs, len(todo)), start="spawn") as workers:  # fresh, small processes
            paths = [str(root / name) for name in todo]
            scanned = list(
                workers.map(_scan_file, paths, chunksize=max(1, len(todo) // (jobs * 4)))
            )
    else:
        scanned = [_scan_file(str(root / name)) for name in todo]
    for name, page in zip(todo, scanned, strict=True):
        _store(cache, str(listing[name]), page)
        found[name] = page
    if ledger is not None:  # what it did not give (those `_parse` read put themselves)
        for name in names:
            sha = listing[name]
            if sha is not None and sha not in ledger.used:
                ledger.put(sha, found[name])
    return {name: found[name] for name in names}


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


def _listing(root: Path) -> dict[str, str | None]:
    return {p.relative_to(root).as_posix(): None for p in root.rglob("*") if p.is_file()}


def broken_links(
    site: str | Path,
    *,
    skip: tuple[str, ...] = ("404.html",),
    cache: Cache | None = None,
    files: dict[str, str] | None = None,
    ledger: Ledger | None = None,
    jobs: int = 1,
) -> list[Broken]:
    """Every broken internal link of the site, in page order.

    `files` (every file of the site and its sha256, as the build recorded it) spares
    reading the folder and the pages whose bytes the cache has seen; `ledger`, reading
    the cache once per page (the caller saves it); `jobs`, processes to scan new pages in."""
    root = Path(site)
    listing: dict[str, str | None] = dict(files) if files is not None else _listing(root)
    folders = {posixpath.dirname(name) for name in listing}
    folders |= {parent for name in folders for parent in _parents(name)}
    names = [name for name in sorted(listing) if name.endswith(".html") and name not in skip]
    pages = _pages(root, names, listing, cache, ledger, jobs)
    resolved: dict[tuple[str, str], tuple[str | None, str]] = {}
    problems: list[Broken] = []
    for name, page in pages.items():
        here = posixpath.dirname(name)
        for link in sorted(set(page.links)):
            if link.startswith("#"):  # most links: an anchor on the same page
                anchor = unquote(link[1:]) if "%" in link else link[1:]
                if anchor and anchor not in page.ids:
                    problems.append(Broken(name, link, f"no element with id {anchor!r}"))
                continue
            if (here, link) not in resolved:
                resolved[here, link] = _resolve(here, link, listing, folders)
            target, reason = resolved[here, link]
            if target is None:
                if reason:
                    problems.append(Broken(name, link, reason))
                continue
            target = target or name
            fragment = unquote(urlsplit(link).fragment)
            if not fragment or not target.endswith(".html"):
                continue
            found = pages.get(target) or _parse(root, target, cache, listing.get(target), ledger)
            if fragment not in found.ids:
                problems.append(Broken(name, link, f"no element with id {fragment!r}"))
    return problems


def _parents(folder: str) -> list[str]:
    found = []
    while folder:
        folder = posixpath.dirname(folder)
        found.append(folder)
    return found


def _resolve(
    here: str, link: str, listing: dict[str, str | None], folders: set[str]
) -> tuple[str | None, str]:
    """(the file a link names, '' for the page itself; or None and why it is broken, ''
    for a link that leaves the site's files alone: another host, an absolute path)."""
    parts = urlsplit(link)
    if parts.scheme or parts.netloc or link.startswith("/"):
        return None, ""
    if not parts.path:
        return "", ""
    joined = posixpath.normpath(posixpath.join(here, unquote(parts.path)))
    if joined.startswith(".."):
        return None, "leaves the site"
    if joined in folders or joined == ".":
        index = posixpath.join(joined, "index.html") if joined != "." else "index.html"
        return (index, "") if index in listing else (None, "no such file")
    if joined not in listing:
        return None, "no such file"
    return joined, ""
