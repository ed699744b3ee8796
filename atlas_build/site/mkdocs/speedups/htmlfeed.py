"""Feed well-formed HTML to an `html.parser.HTMLParser` without its tokenizer.

MkDocs runs `HTMLParser` subclasses over every page (the theme's search plugin splits
it into sections, MkDocs collects its anchor ids, Python-Markdown finds raw HTML
blocks), and at a thousand lessons those parses were three quarters of laying a page out
(py-spy of a cold build). Pages atlas-build generates are plain HTML: every `<` opens a
tag written in one form (a name of letters and digits, attributes with double-quoted
values or none, ASCII whitespace between), with no comment, declaration, script or
style. For such input one regular expression finds the tokens
`HTMLParser(convert_charrefs=True)` would, so `feed` calls the parser's own handlers in
the same order with the same arguments: text between tags whole and unescaped, names
lowercased, attribute values unescaped; a handler the parser leaves as HTMLParser's
empty one is not called. Anything else (a bare `<`, a comment, a single-quoted or
unquoted value, `<script>`) is refused before a single handler runs, and the caller
feeds the parser as usual. Python-Markdown's block parser reads line positions, so it
is left alone. tests/test_site_htmlfeed.py compares the calls and the parsers' results.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from html import unescape
from html.parser import HTMLParser
from typing import Any

_SPACE = "[ \t\n\r\f]"  # what HTMLParser ends a tag name at; `\s` would take U+00A0 too
TAG = re.compile(
    rf"<(?:(?P<name>[a-zA-Z][a-zA-Z0-9]*)(?P<attrs>(?:{_SPACE}+[a-zA-Z_:][-a-zA-Z0-9_:.]*"
    rf'(?:="[^"]*")?)*){_SPACE}*(?P<empty>/?)>|/(?P<end>[a-zA-Z][a-zA-Z0-9]*)>)'
)
_ATTR = re.compile(rf'{_SPACE}+([a-zA-Z_:][-a-zA-Z0-9_:.]*)(?:(=)"([^"]*)")?')
_RAW = frozenset({"script", "style"})  # HTMLParser reads their content as text


def split(data: str) -> list[str | None] | None:
    """`data` cut at its tags (`TAG.split`: text, then a tag's name, attributes, empty
    mark and end name, then text...), or None when it is not plain HTML as above."""
    parts = TAG.split(data)
    if any("<" in text for text in parts[0::5]):
        return None
    if any(name is not None and name.lower() in _RAW for name in parts[1::5]):
        return None
    return parts


def _attributes(source: str) -> list[tuple[str, str | None]]:
    """As HTMLParser gives them: None for `<x a>`, "" for `<x a="">`, else unescaped."""
    return [
        (name.lower(), (unescape(value) if "&" in value else value) if equals else None)
        for name, equals, value in _ATTR.findall(source)
    ]


def _acts(parser: HTMLParser, handler: str) -> Any:
    """The parser's bound handler, or None when it is HTMLParser's own, which does nothing
    (compared by code: Python-Markdown's parsers come from a copy of the module)."""
    code = getattr(getattr(type(parser), handler), "__code__", None)
    return None if code == getattr(HTMLParser, handler).__code__ else getattr(parser, handler)


def feed(parser: HTMLParser, data: str) -> bool:
    """Call `parser`'s handlers as `parser.feed(data)` would; False, with nothing called,
    when `data` is not plain HTML. Handlers the parser leaves empty are not called."""
    parts = split(data)
    if parts is None:
        return False
    on_data, on_end = _acts(parser, "handle_data"), _acts(parser, "handle_endtag")
    on_start, on_empty = parser.handle_starttag, parser.handle_startendtag
    for index in range(0, len(parts) - 1, 5):
        text, name, attrs, empty, end = parts[index : index + 5]
        if text and on_data is not None:
            on_data(unescape(text))
        if end is not None:
            if on_end is not None:
                on_end(end.lower())
        elif empty:
            on_empty(name.lower(), _attributes(attrs) if attrs else [])  # type: ignore[union-attr]
        else:
            on_start(name.lower(), _attributes(attrs) if attrs else [])  # type: ignore[union-attr]
    if parts[-1] and on_data is not None:
        on_data(unescape(parts[-1]))
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
