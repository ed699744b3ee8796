"""Let Python-Markdown's raw-HTML block parser step over a block's inside in one move.

Python-Markdown finds raw HTML blocks with `HTMLExtractor`, an `HTMLParser` that, once a
block-level tag opens a block, copies every tag and text of it into the block as written
and keeps a stack of the tags it saw, until an end tag empties the stack. On a generated
lesson page that is most of the page (glossaries, the validation panel), and at a
thousand lessons it was 29% of MkDocs' time per page (py-spy of a cold build).

For plain HTML (`htmlfeed.TAG`'s form; no comment, declaration or `<` in text, no
element whose content is not markup, and every `&#` a whole character reference)
each token the parser would read adds its own text to the block unchanged, so the block
between its first tag and the end tag that closes it is the source text between them.
`end` finds that end tag with the extractor's own stack rule; the patched
`parse_starttag` adds the text at once and the parser goes on from that end tag, which
it reads itself (line and offset are moved over the text by HTMLParser's `updatepos`).
Anything else, a block opened on the line a block closed on (`intail`) and
subclasses (`md_in_html`'s extractor treats blocks differently) are read as before.
tests/test_site_rawblocks.py compares the blocks and whole conversions with and without.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from atlas_build.site.mkdocs.speedups.htmlfeed import TAG

# Elements whose content HTMLParser (in one Python version or another) reads as text
_OPAQUE = frozenset(
    {"script", "style", "textarea", "title", "xmp", "iframe", "noembed", "noframes", "noscript"}
    | {"plaintext"}
)
# A `&#` the parser would not give back as written (`&#38` gains a `;`, `&#x;` stops it)
_LOOSE_REFERENCE = re.compile(r"&#(?![0-9]+;|[xX][0-9a-fA-F]+;)")


def end(
    data: str, start: int, opener: str, empty: frozenset[str] | set[str]
) -> tuple[int, str] | None:
    """Index of the end tag that closes the raw block `opener` began (its start tag ends
    at `start`), by `HTMLExtractor`'s rule: a start tag is pushed unless it is written
    `<x/>` or is one of `empty`; an end tag whose name is on the stack pops down to it.
    With it, the name of the last start tag before it (HTMLParser's `lasttag`). None when
    the text before it is not plain HTML, or the block does not close."""
    stack, last = [opener], opener
    tags = 0
    for found in TAG.finditer(data, start):
        tags += 1
        if found["end"] is not None:
            tag = found["end"].lower()
            if tag in stack:
                while stack.pop() != tag:
                    pass
                if not stack:
                    closing = found.start()
                    return (closing, last) if _plain(data, start, closing, tags) else None
            continue
        tag = found["name"].lower()
        if tag in _OPAQUE:
            return None
        last = tag
        if not found["empty"] and tag not in empty:
            stack.append(tag)
    return None


def _plain(data: str, start: int, end: int, tags: int) -> bool:
    """Whether the text from `start` to `end` is plain: every `<` opens one of the `tags`
    tags found (a `<` in text, or in a quoted value, makes the counts differ) and every
    `&#` is a whole reference (one in a value refuses as well: refusing is safe)."""
    return data.count("<", start, end) + 1 == tags and not _LOOSE_REFERENCE.search(data, start, end)


def _stepping(original: Any, extractor: type[Any]) -> Any:
    def parse_starttag(parser: Any, i: int) -> int:
        opened = parser.inraw
        k = original(parser, i)
        if type(parser) is not extractor or opened or not parser.inraw or parser.intail:
            return k
        if k <= i or len(parser.stack) != 1 or parser.cdata_elem is not None:
            return k
        found = end(parser.rawdata, k, parser.stack[0], parser.empty_tags)
        if found is None:
            return k
        closing, parser.lasttag = found
        if closing > k:
            parser._cache.append(parser.rawdata[k:closing])
        return closing

    return parse_starttag


@contextmanager
def patched() -> Iterator[None]:
    """Python-Markdown's `HTMLExtractor` steps over plain raw blocks while the block runs."""
    from markdown.htmlparser import HTMLExtractor

    original = HTMLExtractor.__dict__["parse_starttag"]
    HTMLExtractor.parse_starttag = _stepping(original, HTMLExtractor)
    try:
        yield
    finally:
        HTMLExtractor.parse_starttag = original
