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

from atlas_build.cache import Cache

PAGES = "mkdocs-page"
HTML = "mkdocs-html"
_SCALARS = (str, int, float, bool)
_SHA256 = re.compile(r"[0-9a-f]{64}")


@dataclass(frozen=True)
class Entry:
    html: str | None  # sha256 of the HTML file
    search: list[dict[str, Any]]
    anchors: list[str]


def put(store: Cache, key: str, html: bytes | None, entry_search: list[dict[str, Any]],
        anchors: set[str]) -> Entry:  # fmt: skip
    """Store a rendered page (its HTML under its own digest) and return its entry."""
    name = hashlib.sha256(html).hexdigest() if html is not None else None
    if html is not None and name is not None:
        store.put(HTML, name, html)
    entry = Entry(name, entry_search, sorted(anchors))
    data = {"html": entry.html, "search": entry.search, "anchors": entry.anchors}
    store.put(PAGES, key, json.dumps(data, ensure_ascii=True).encode("ascii"))
    return entry


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
