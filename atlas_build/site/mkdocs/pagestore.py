"""Pages MkDocs rendered, as cache entries: plain data in, validated data out, nothing executed.

A page entry holds what the page contributes to the built site: the sha256 of its HTML
file (or none, when MkDocs wrote none), its search-index entries in order, and the ids it
defines (so that another page's markdown link to one of them validates as in a cold
build). The HTML itself is a separate entry named by that digest, read only when the
staging folder does not hold it already. Entries live in the authenticated cache and are
checked field by field on the way back anyway; anything malformed reads as a miss.
"""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass
from typing import Any

from atlas_build.cache import Cache, digest

PAGES = "mkdocs-page"
HTML = "mkdocs-html"
BATCH = "mkdocs-batch"
SHARDS = 16
_SCALARS = (str, int, float, bool)
_SHA256 = re.compile(r"[0-9a-f]{64}")


@dataclass(frozen=True)
class Entry:
    html: str | None  # sha256 of the HTML file
    search: list[dict[str, Any]]
    anchors: list[str]


Pages = dict[str, Entry]
"""Page entries by key that a long-lived process (`serve`) keeps between builds."""


def put(store: Cache, key: str, html: bytes | None, entry_search: list[dict[str, Any]],
        anchors: set[str]) -> Entry:  # fmt: skip
    """Store a rendered page (its HTML under its own digest) and return its entry."""
    name = hashlib.sha256(html).hexdigest() if html is not None else None
    if html is not None and name is not None:
        store.put(HTML, name, html)
    entry = Entry(name, entry_search, sorted(anchors))
    store.put(PAGES, key, json.dumps(_dump(entry), ensure_ascii=True).encode("ascii"))
    return entry


def _dump(entry: Entry) -> dict[str, Any]:
    return {"html": entry.html, "search": entry.search, "anchors": entry.anchors}


def get(store: Cache, key: str) -> Entry | None:
    payload = store.get(PAGES, key)
    if payload is None:
        return None
    try:
        return _load(json.loads(payload))
    except (ValueError, TypeError, KeyError, RecursionError):
        return None


def html(store: Cache, name: str) -> bytes | None:
    """The HTML named by its digest; None unless the bytes still hash to that name."""
    payload = store.get(HTML, name)
    if payload is None or hashlib.sha256(payload).hexdigest() != name:
        return None
    return payload


def _value(value: Any) -> bool:
    if isinstance(value, list):
        return all(isinstance(item, str) for item in value)
    return isinstance(value, _SCALARS)


def _load(data: Any) -> Entry:
    if not isinstance(data, dict):
        raise ValueError("not a page entry")
    name, search, anchors = data["html"], data["search"], data["anchors"]
    if name is not None and not (isinstance(name, str) and _SHA256.fullmatch(name)):
        raise ValueError("malformed html digest")
    if not isinstance(search, list) or not all(
        isinstance(item, dict)
        and all(isinstance(key, str) and _value(value) for key, value in item.items())
        for item in search
    ):
        raise ValueError("malformed search entries")
    if not isinstance(anchors, list) or not all(isinstance(item, str) for item in anchors):
        raise ValueError("malformed anchors")
    return Entry(name, search, anchors)


class Batch:
    """The entries of every page of the last build of a docs folder, in a few authenticated
    cache entries (`SHARDS`, by the first digit of the page key) instead of one per page:
    a build that reads a thousand entries back spends a third of a second opening files.
    A build saves only the shards whose pages changed."""

    def __init__(self, store: Cache, name: str) -> None:
        self.store = store
        self.keys = [digest(BATCH, name, str(shard)) for shard in range(SHARDS)]
        self.loaded: list[dict[str, Any]] = []
        for key in self.keys:
            data = store.get_json(BATCH, key)
            self.loaded.append(data if isinstance(data, dict) else {})
        self.used: list[dict[str, Any]] = [{} for _ in range(SHARDS)]

    @staticmethod
    def _shard(key: str) -> int:
        return int(key[0], 16) % SHARDS if key[:1] in "0123456789abcdef" and key else 0

    def holds(self, key: str) -> bool:
        """An entry for the key was read (not yet validated: `get` does)."""
        return key in self.loaded[self._shard(key)]

    def get(self, key: str) -> Entry | None:
        shard = self._shard(key)
        data = self.loaded[shard].get(key)
        if data is None:
            return None
        try:
            entry = _load(data)
        except (ValueError, TypeError, KeyError):
            return None
        self.used[shard][key] = data
        return entry

    def note(self, key: str, entry: Entry) -> None:
        self.used[self._shard(key)][key] = _dump(entry)

    def save(self) -> None:
        if not self.store.enabled:
            return
        for key, loaded, used in zip(self.keys, self.loaded, self.used, strict=True):
            if used != loaded:
                self.store.put_json(BATCH, key, used)
