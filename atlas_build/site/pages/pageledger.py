"""Which lesson pages the docs folder already holds, so a build need not load them again.

A build with one lesson changed still read every other lesson's page back from the cache
(its markdown, figures and record: 117 KB of JSON and a pydantic validation each, a
second at 1,000 lessons) only to find the docs folder already held those bytes. The
ledger, one authenticated cache entry per docs folder, remembers for each page key the
files the page wrote (path, sha256, and the stamp the file had afterwards: inode, size,
change time) and what the index, topic, report and selftest pages show of it (`PageHead`).
A page whose key is in the ledger and whose files still carry their stamps is not read:
only the kernel sets a change time, so a file edited, replaced or committed since does
not match, and the page is loaded (or rendered) and written again.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from atlas_build import paths
from atlas_build.cache import Cache, digest
from atlas_build.diagnostics import Diagnostic

if TYPE_CHECKING:
    from atlas_build.site.pages.lesson import LessonPage

NAMESPACE = "page-ledger"
_HEAD = ("slug", "title", "topic", "category", "description", "contentHash")


@dataclass
class PageHead:
    """What the pages that list lessons need of a lesson page; `load` gives the page."""

    slug: str
    title: str
    topic: str
    category: str
    description: str
    content_hash: str
    added: list[Diagnostic] = field(default_factory=list)
    load: Callable[[], LessonPage | None] | None = field(default=None, repr=False)

    @property
    def directory(self) -> str:
        return f"lessons/{self.slug}"

    def to_json(self) -> dict[str, Any]:
        values = (self.slug, self.title, self.topic, self.category, self.description)
        data: dict[str, Any] = dict(zip(_HEAD, (*values, self.content_hash), strict=True))
        data["added"] = [diagnostic.to_cache() for diagnostic in self.added]
        return data

    @classmethod
    def from_json(cls, data: Any) -> PageHead:
        if not isinstance(data, dict) or not all(isinstance(data.get(k), str) for k in _HEAD):
            raise ValueError("malformed page head")
        if not paths.is_slug(data["slug"]) or not isinstance(data["added"], list):
            raise ValueError("malformed page head")
        added = [Diagnostic.from_cache(item) for item in data["added"]]
        slug, title, topic, category, description, content_hash = (data[k] for k in _HEAD)
        return cls(slug, title, topic, category, description, content_hash, added)


def head_of(page: LessonPage) -> PageHead:
    record = page.record
    values = (record.title, record.topic, record.category, record.description)
    return PageHead(page.slug, *values, record.contentHash, list(page.added))


class Ledger:
    """Page heads and their files by page key, for one docs folder."""

    def __init__(self, store: Cache, docs_dir: Path) -> None:
        self.store, self.docs = store, docs_dir
        self.key = digest(NAMESPACE, str(docs_dir.resolve()))
        data = store.get_json(NAMESPACE, self.key)
        self.rows: dict[str, Any] = data if isinstance(data, dict) else {}
        self.kept: dict[str, Any] = {}

    def find(self, key: str) -> tuple[PageHead, dict[str, str]] | None:
        """The head of the page with this key and its files (relative path -> sha256),
        when the docs folder still holds every one of them as written."""
        row = self.rows.get(key)
        if not isinstance(row, dict):
            return None
        try:
            head = PageHead.from_json(row["head"])
            files = row["files"]
            if not isinstance(files, dict):
                return None
            shas: dict[str, str] = {}
            for relative, (sha, *stamp) in files.items():
                inside = relative.startswith(head.directory + "/")
                if not (inside and paths.is_relative(relative) and isinstance(sha, str)):
                    return None
                if paths.stamp(self.docs / relative) != stamp:
                    return None
                shas[relative] = sha
        except (TypeError, KeyError, ValueError):
            return None
        self.kept[key] = row
        return head, shas

    def wrote(self, key: str, head: PageHead, shas: dict[str, str]) -> None:
        """Remember a page whose files `write_tree` has just made the docs folder hold."""
        files = {}
        for relative, sha in shas.items():
            stamp = paths.stamp(self.docs / relative)
            if stamp is None:
                return
            files[relative] = [sha, *stamp]
        self.kept[key] = {"head": head.to_json(), "files": files}

    def save(self) -> None:
        if self.kept != self.rows:
            self.store.put_json(NAMESPACE, self.key, self.kept)
