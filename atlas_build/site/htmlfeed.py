"""Feed well-formed HTML to an `html.parser.HTMLParser` without its tokenizer.

MkDocs parses every page's HTML with `HTMLParser` subclasses twice over (the theme's
search plugin splits it into sections, MkDocs collects its anchor ids), and at a
thousand lessons that tokenizing, not what the handlers do, was most of the site
stage. Pages atlas-build generates are plain HTML: every `<` opens a tag written in
one form (a lowercase-or-not name, attributes with double-quoted values, single ASCII
spaces between), with no comment, declaration, script or style. For such input one
regular expression finds the same tokens `HTMLParser(convert_charrefs=True)` would, so
`feed` calls the parser's own handlers in the same order with the same arguments: text
between tags whole and unescaped, tag names lowercased, attribute values unescaped.
Anything else (a bare `<`, a comment, a single-quoted or unquoted value, `<script>`)
is refused before a single handler runs, and the caller feeds the parser as usual.
The output is the same either way (tests/test_site_htmlfeed.py compares them).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from html import unescape
from html.parser import HTMLParser
from typing import Any

_SPACE = "[ \t\n\r\f]"  # what HTMLParser ends a tag name at; `\s` would take U+00A0 too
_TAG = re.compile(
    rf"<(?:(?P<name>[a-zA-Z][a-zA-Z0-9]*)(?P<attrs>(?:{_SPACE}+[a-zA-Z_:][-a-zA-Z0-9_:.]*"
    rf'(?:="[^"]*")?)*){_SPACE}*(?P<empty>/?)>|/(?P<end>[a-zA-Z][a-zA-Z0-9]*)>)'
)
_ATTR = re.compile(rf'{_SPACE}+([a-zA-Z_:][-a-zA-Z0-9_:.]*)(?:="([^"]*)")?')
_RAW = frozenset({"script", "style"})  # HTMLParser reads their content as text

Token = tuple[str, Any, Any]


def tokens(data: str) -> list[Token] | None:
    """The handler calls for `data`, or None when `data` is not plain HTML as above."""
    parts = _TAG.split(data)  # text, then name, attrs, empty, end of a tag, then text ...
    found: list[Token] = []
    add = found.append
    for index in range(0, len(parts) - 1, 5):
        text, name, attrs, empty, end = parts[index : index + 5]
        if text:
            if "<" in text:
                return None
            add(("data", unescape(text), None))
        if end is not None:
            add(("end", end.lower(), None))
            continue
        name = name.lower()
        if name in _RAW:
            return None
        add(("empty" if empty else "start", name, _attributes(attrs) if attrs else []))
    text = parts[-1]
    if text:
        if "<" in text:
            return None
        add(("data", unescape(text), None))
    return found


def _attributes(source: str) -> list[tuple[str, str | None]]:
    """As HTMLParser gives them: None for `<x a>`, "" for `<x a="">`, else unescaped."""
    return [
        (found.group(1).lower(), unescape(value) if value else value)
        for found in _ATTR.finditer(source)
        for value in (found.group(2),)
    ]


def feed(parser: HTMLParser, data: str) -> bool:
    """Call `parser`'s handlers as `parser.feed(data)` would; False, with nothing called,
    when `data` is not plain HTML."""
    found = tokens(data)
    if found is None:
        return False
    for kind, value, attrs in found:
        if kind == "data":
            parser.handle_data(value)
        elif kind == "start":
            parser.handle_starttag(value, attrs)
        elif kind == "empty":
            parser.handle_startendtag(value, attrs)
        else:
            parser.handle_endtag(value)
    return True


def _fast(original: Callable[[Any, str], None]) -> Callable[[Any, str], None]:
    def fed(parser: Any, data: str) -> None:
        fresh = not parser.rawdata and getattr(parser, "cdata_elem", None) is None
        if parser.convert_charrefs and fresh and feed(parser, data):
            return
        original(parser, data)

    return fed


@contextmanager
def patched(*classes: type[HTMLParser]) -> Iterator[None]:
    """`feed` of these parser classes goes through `feed` above while the block runs."""
    saved = [(cls, cls.__dict__.get("feed")) for cls in classes]
    for cls in classes:
        cls.feed = _fast(cls.feed)  # type: ignore[method-assign, assignment]
    try:
        yield
    finally:
        for cls, original in saved:
            if original is None:
                del cls.feed
            else:
                cls.feed = original  # type: ignore[method-assign]
