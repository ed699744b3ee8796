"""Material's search `Parser` with the same sections, without its per-tag set work.

The theme's search plugin splits every page into sections with `Parser`, whose handlers
intersect the set of skipped tags with the list of open elements on every tag and text
(`Element` hashes and compares in Python), and build a list of six heading names per
start tag. At a thousand lessons those handlers were a quarter of MkDocs' time (py-spy
of a cold build). `Parser` here keeps the same `context`, `skip`, `section` and `data`
and makes the same changes to them in the same order; it answers the two questions the
handlers ask, "is an open element skipped?" and "is this tag open?", from counts of
open elements by tag, which is what `Element`'s tag-only equality makes of them.
tests/test_site_searchparser.py compares the sections of both on lesson pages and on
random HTML. Installed only while atlas-build drives MkDocs (`patched`).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterator
from contextlib import contextmanager
from html import escape
from typing import Any

from material.plugins.search import plugin as search

_HEADINGS = frozenset(f"h{level}" for level in range(1, 7))
_KEPT_SKIPS = frozenset({"script", "style", "object"})  # never leave `skip` once in it


def _tag(item: Any) -> str:
    return item.tag if isinstance(item, search.Element) else str(item)


class Parser(search.Parser):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.open_tags: defaultdict[str, int] = defaultdict(int)
        self.skipped_tags = {_tag(item) for item in self.skip}
        self.skipping = 0  # open elements whose tag is in `skipped_tags`

    def handle_starttag(self, tag: str, attrs: Any) -> None:
        attrs = dict(attrs)
        el = search.Element(tag, attrs)
        if tag in search.void:
            return
        self.context.append(el)
        self.open_tags[tag] += 1
        if tag in self.skipped_tags:
            self.skipping += 1
        if tag in _HEADINGS and "id" in attrs:
            depth = len(self.context)
            if tag != "h1" and not self.data:
                self.section = search.Section(search.Element("hx"), depth)
                self.data.append(self.section)
            self.section = search.Section(el, depth)
            if self.data:
                self.section.id = attrs["id"]
            self.data.append(self.section)
        if not self.section:
            self.section = search.Section(search.Element("hx"))
            self.data.append(self.section)
        for key, value in attrs.items():
            if key == "data-search-exclude" or (key == "class" and value == "linenodiv"):
                self.skip.add(el)
                if tag not in self.skipped_tags:
                    self.skipped_tags.add(tag)
                    self.skipping += self.open_tags[tag]
                return
        if tag in self.keep and not self.skipping:
            data = self.section.title if self.open_tags[self.section.el.tag] else self.section.text
            data.append(f"<{tag}>")

    def handle_endtag(self, tag: str) -> None:
        if not self.context or self.context[-1].tag != tag:
            return
        depth = len(self.context)
        if self.section.depth > depth:
            for section in reversed(self.data):
                if section.depth <= depth:
                    self.section.depth = float("inf")
                    self.section = section
                    break
        el = self.context.pop()
        self.open_tags[tag] -= 1
        if tag in self.skipped_tags:
            self.skipping -= 1
            if tag not in _KEPT_SKIPS:
                self.skip.remove(el)
                self.skipped_tags.discard(tag)
                self.skipping -= self.open_tags[tag]
            return
        if tag in self.keep and not self.skipping:
            data = self.section.title if self.open_tags[self.section.el.tag] else self.section.text
            index = data.index(f"<{tag}>")
            for i in range(index + 1, len(data)):
                if not data[i].isspace():
                    index = len(data)
                    break
            if len(data) > index:
                del data[index:]
            else:
                data.append(f"</{tag}>")

    def handle_data(self, data: str) -> None:
        if self.skipping:
            return
        if not self.open_tags["pre"]:
            data = data.replace("\n", " ") if not data.isspace() else " "
        if not self.section:
            self.section = search.Section(search.Element("hx"))
            self.data.append(self.section)
        if self.open_tags[self.section.el.tag]:
            permalink = any(
                el.tag == "a" and el.attrs.get("class") == "headerlink" for el in self.context
            )
            if not permalink:
                self.section.title.append(escape(data, quote=False))
        elif data.isspace():
            text = self.section.text
            if not text or not text[-1].isspace() or self.open_tags["pre"]:
                text.append(data)
        else:
            self.section.text.append(escape(data, quote=False))


@contextmanager
def patched() -> Iterator[None]:
    """The search plugin splits pages with `Parser` above while the block runs."""
    original = search.Parser
    search.Parser = Parser
    try:
        yield
    finally:
        search.Parser = original
