"""Markdown body -> lesson blocks, with offsets, using the shared markdown-it parser.

Inline things (links, formulas, raw HTML) are located from where markdown-it's inline
rules matched them, recorded by wrapping those rules, and mapped back through the lines
of the block: so several links on one line, or a link whose normalised destination is
written differently in the source (`&amp;`, spaces in `<...>`, non-ASCII), each get
their own column. Searching the text for the URL is only the fallback where markdown-it
rewrote a line (a tab in the indentation, a NUL, a lone CR).
"""

from __future__ import annotations

import bisect
import functools
import re
from collections.abc import Callable

from markdown_it import MarkdownIt
from markdown_it.rules_inline import StateInline
from markdown_it.token import Token

from atlas_build import markdown
from atlas_build.canonical import line_starts
from atlas_build.lesson.model import Block, Link, Math, RawHtml

_CONTAINERS = {
    "bullet_list_open": "list",
    "ordered_list_open": "list",
    "blockquote_open": "quote",
    "table_open": "table",
}
_LEAVES = {
    "math_block": "math",
    "math_block_label": "math",
    "fence": "code",
    "code_block": "code",
    "html_block": "html",
    "hr": "rule",
}


_TRACKED = ("link", "autolink", "html_inline", "math_inline")


def _interesting(state: StateInline, token: Token, start: int) -> int:
    """The inline position a finding about `token` should point at: a link's destination
    (after `](`, spaces and `<`; the `[` of a reference link), a formula's first LaTeX
    character, an HTML tag's `<`."""
    src = state.src
    if token.type == "math_inline_double":
        return start + 2
    if token.type == "math_inline":
        return start + 1
    if token.type != "link_open":
        return start
    if token.info == "auto":
        return start + 1
    saved = state.pos
    label_end = state.md.helpers.parseLinkLabel(state, start, True)
    state.pos = saved
    if label_end < 0 or not src.startswith("(", label_end + 1):
        return start
    index = label_end + 2
    while index < state.posMax and src[index] in " \t\n":
        index += 1
    return index + 1 if src.startswith("<", index) else index


def _tracking(rule: Callable[[StateInline, bool], bool]) -> Callable[[StateInline, bool], bool]:
    """The rule, recording in its token's meta where in the inline text it matched
    (markdown-it keeps no positions for inline tokens)."""

    def tracked(state: StateInline, silent: bool) -> bool:
        start, count = state.pos, len(state.tokens)
        matched = rule(state, silent)
        if matched and not silent:
            for index in range(count, len(state.tokens)):
                token = state.tokens[index]
                if token.type != "text":  # pending text pushed before the rule's own token
                    token.meta["inline_pos"] = _interesting(state, token, start)
                    break
        return matched

    tracked.tracks_positions = True  # type: ignore[attr-defined]
    return tracked


UNCLOSED = "atlas_unclosed_math"  # env key: inline text -> positions of `$$` left as text


def _noting_unclosed(
    rule: Callable[[StateInline, bool], bool],
) -> Callable[[StateInline, bool], bool]:
    """The dollar rule, noting where a `$$` opens no formula. dollarmath leaves such a `$$`
    as text without a word (a display block must close before a blank line, an inline one
    within its paragraph), so the page shows the LaTeX as prose and the lesson has one
    equation fewer. Noted in the parse's env, by inline text (a paragraph's inline parse
    sees only its own text)."""

    def noting(state: StateInline, silent: bool) -> bool:
        pos, src = state.pos, state.src
        matched = rule(state, silent)
        pair = src.startswith("$$", pos) and "$" not in (src[pos - 1 : pos], src[pos + 2 : pos + 3])
        if pair and not (matched or silent):  # `$$$` is prose (a price range), not math
            state.env.setdefault(UNCLOSED, {}).setdefault(src, set()).add(pos)
        return matched

    noting.tracks_positions = True  # type: ignore[attr-defined]
    return noting


@functools.cache
def _parser() -> MarkdownIt:
    """The shared lint parser with position tracking on the inline rules that make links,
    formulas and raw HTML (a markdown-it plugin: tokens are unchanged, meta is added), and
    a note of every `$$` the dollar rule leaves as text."""
    md = markdown.lint_parser()
    for rule in list(md.inline.ruler.__rules__):
        if rule.name in _TRACKED and not getattr(rule.fn, "tracks_positions", False):
            wrapped = _tracking(rule.fn)
            md.inline.ruler.at(
                rule.name, _noting_unclosed(wrapped) if rule.name == "math_inline" else wrapped
            )
    return md


class _Inline:
    """Maps positions in one inline token's text to content offsets, line by line.

    Each line of a paragraph's inline text is the tail of its source line (markdown-it
    cuts indentation and container markers, and trims the ends of the block), so a line
    is found by `rfind`, or else aligned at the end of its source line (markdown-it's
    rewrites, a partly consumed tab or a NUL made U+FFFD, keep the tail's length). A
    table cell is found left to right along its row.
    """

    def __init__(
        self, content: str, starts: list[int], inline: Token, floors: dict[int, int] | None
    ) -> None:
        self.content = content
        self.src = inline.content
        self.breaks = [0] + [match.end() for match in re.finditer("\n", self.src)]
        self.lines: list[int | None] = []
        first = (inline.map or (0, 0))[0]
        for number, text in enumerate(self.src.split("\n")):
            line = first + number
            if line + 1 >= len(starts):
                self.lines.append(None)
                continue
            begin = starts[line]
            source = content[begin : starts[line + 1]].rstrip("\n")
            if floors is None:
                found = source.rfind(text)
                if found < 0:
                    found = len(source.rstrip()) - len(text)
            else:  # a table cell: the next occurrence along its row
                found = source.find(text, floors.get(line, begin) - begin)
                floors[line] = begin + max(found, 0) + len(text)
            self.lines.append(begin + found if found >= 0 else None)

    def offset(self, position: int) -> int | None:
        line = bisect.bisect_right(self.breaks, position) - 1
        start = self.lines[line] if 0 <= line < len(self.lines) else None
        if start is None:
            return None
        offset = start + position - self.breaks[line]
        return offset if 0 <= offset < len(self.content) else None


class _Cursor:
    """Finds inline things (links, formulas) in the content, moving forward only: the
    fallback where a tracked position cannot be mapped (a lone CR splits lines where the
    content has none). Each search looks at most WINDOW characters ahead, so a block of
    unmappable links costs linear time."""

    WINDOW = 64 * 1024

    def __init__(self, content: str) -> None:
        self.content = content

    def link(self, href: str, start: int, end: int) -> int:
        """Where a link's destination is written: after `](` or `<` when possible, so the
        same URL mentioned earlier in plain text is not mistaken for it."""
        end = min(end, start + self.WINDOW)
        for prefix in ("](", "]( ", "<"):
            found = self.content.find(prefix + href, start, end) if href else -1
            if found != -1:
                return found + len(prefix)
        return self.find(href, start, end)

    def find(self, needle: str, start: int, end: int) -> int:
        end = min(end, start + self.WINDOW)
        found = self.content.find(needle, start, end) if needle else -1
        return found if found != -1 else start


def _inline_parts(
    inline: Token,
    cursor: _Cursor,
    span: tuple[int, int],
    counters: dict[str, int],
    mapped: _Inline,
) -> tuple[list[Link], list[Math], list[RawHtml]]:
    links: list[Link] = []
    formulas: list[Math] = []
    html: list[RawHtml] = []
    position, end = span
    children = inline.children or []
    for index, child in enumerate(children):
        tracked = child.meta.get("inline_pos") if child.meta else None
        if child.type == "link_open":
            href = str(child.attrGet("href") or "")
            text_parts = []
            follower = index + 1
            while follower < len(children) and children[follower].type != "link_close":
                text_parts.append(children[follower].content)
                follower += 1
            at = mapped.offset(tracked) if tracked is not None else None
            if at is None:
                at = cursor.link(href, position, end)
            links.append(Link("".join(text_parts).strip(), href, at))
            position = max(position, at)
        elif child.type == "math_inline" or child.type == "math_inline_double":
            marker = "$$" if child.type == "math_inline_double" else "$"
            at = mapped.offset(tracked) if tracked is not None else None
            if at is None or not cursor.content.startswith(child.content, at):
                at = cursor.find(marker + child.content, position, end) + len(marker)
            formulas.append(Math(child.content, at, False, counters["inline"]))
            counters["inline"] += 1
            position = max(position, at)
        elif child.type == "html_inline":
            at = mapped.offset(tracked) if tracked is not None else None
            if at is None or not cursor.content.startswith(child.content, at):
                at = cursor.find(child.content, position, end)
            html.append(RawHtml(child.content, at))
            position = max(position, at)
    return links, formulas, html


def _display_offset(content: str, token: Token, start: int, end: int) -> int:
    """Offset of a display formula's LaTeX: just after its opening `$$`."""
    opening = content.find("$$", start, end)
    if opening == -1:
        return start
    candidate = opening + 2
    if content.startswith(token.content, candidate):
        return candidate
    stripped = token.content.strip()
    found = content.find(stripped, candidate, end) if stripped else -1
    return found if found != -1 else candidate


def parse_blocks(content: str) -> list[Block]:
    env: dict[str, dict[str, set[int]]] = {}
    tokens = _parser().parse(content, env)
    unclosed = env.get(UNCLOSED, {})
    starts = line_starts(content) + [len(content)]
    cursor = _Cursor(content)
    counters = {"display": 0, "inline": 0}
    floors: dict[int, int] = {}  # per table row, where the last cell found on it ended
    blocks: list[Block] = []
    index = 0

    def span(token: Token) -> tuple[int, int, int]:
        first, last = token.map or (0, 0)
        first = min(first, len(starts) - 1)
        return starts[first], starts[min(last, len(starts) - 1)], first + 1

    def parts(
        inline: Token, start: int, end: int, cells: bool = False
    ) -> tuple[list[Link], list[Math], list[RawHtml], list[int]]:
        mapped = _Inline(content, starts, inline, floors if cells else None)
        found = _inline_parts(inline, cursor, (start, end), counters, mapped)
        opened = []
        for position in sorted(unclosed.get(inline.content, ())):
            at = mapped.offset(position)
            if at is None or not content.startswith("$$", at):
                at = cursor.find("$$", start, end)
            opened.append(at)
        return (*found, opened)

    while index < len(tokens):
        token = tokens[index]
        if token.level != 0:
            index += 1
            continue
        if token.type == "heading_open":
            start, end, line = span(token)
            inline = tokens[index + 1]
            links, formulas, html, opened = parts(inline, start, end)
            text = markdown.plain_text(inline)
            level = int(token.tag[1])
            heading = Block("heading", text, start, end, line, level, links=links, math=formulas)
            heading.html, heading.unclosed = html, opened
            blocks.append(heading)
            index += 3
        elif token.type == "paragraph_open":
            start, end, line = span(token)
            inline = tokens[index + 1]
            links, formulas, html, opened = parts(inline, start, end)
            text = markdown.plain_text(inline)
            paragraph = Block("paragraph", text, start, end, line, links=links, math=formulas)
            paragraph.html, paragraph.unclosed = html, opened
            blocks.append(paragraph)
            index += 3
        elif token.type in _CONTAINERS:
            start, end, line = span(token)
            close = token.type.replace("_open", "_close")
            block = Block(_CONTAINERS[token.type], "", start, end, line)
            block.ordered = token.type == "ordered_list_open"
            index += 1
            texts: list[str] = []
            while index < len(tokens) and not (
                tokens[index].type == close and tokens[index].level == 0
            ):
                inner = tokens[index]
                if inner.type == "list_item_open" and inner.level == 1:
                    item_start = span(inner)[0]
                    block.items.append(("", item_start))
                if inner.type == "inline":
                    item_start, item_end, _ = span(inner) if inner.map else (start, end, 0)
                    found = parts(inner, item_start, item_end, block.kind == "table")
                    block.links.extend(found[0])
                    block.math.extend(found[1])
                    block.html.extend(found[2])
                    block.unclosed.extend(found[3])
                    text = markdown.plain_text(inner)
                    texts.append(text)
                    if block.items and not block.items[-1][0]:
                        block.items[-1] = (text, block.items[-1][1])
                elif inner.type == "html_block":
                    block.html.append(RawHtml(inner.content, span(inner)[0]))
                elif inner.type == "math_block":
                    offset = _display_offset(content, inner, *span(inner)[:2])
                    block.math.append(Math(inner.content, offset, True, counters["display"]))
                    counters["display"] += 1
                index += 1
            block.text = "\n".join(texts)
            blocks.append(block)
            index += 1
        elif token.type in _LEAVES:
            start, end, line = span(token)
            block = Block(_LEAVES[token.type], token.content, start, end, line)
            if block.kind == "math":
                offset = _display_offset(content, token, start, end)
                block.math.append(Math(token.content, offset, True, counters["display"]))
                counters["display"] += 1
            elif block.kind == "html":
                block.html.append(RawHtml(token.content, start))
            blocks.append(block)
            index += 1
        else:
            index += 1
    return blocks


_LIST_ITEM = re.compile(r"[ \t]*(?:[-*+]|[0-9]{1,9}[.)])(?:[ \t]|$)")


def unwrapped(content: str, blocks: list[Block]) -> str:
    """`content` with each soft line break of a paragraph or list item read as the space
    a reader sees: an author who wraps lines at 80 columns writes `50 +⏎450/8 = 106.25 ms`
    and means one working. Same length, so every offset still points into the source. A
    line that starts a list item, and the lines of a display equation, keep their breaks."""
    chars: list[str] | None = None
    for block in blocks:
        if block.kind not in ("paragraph", "list"):
            continue
        end = content.rfind("\n", block.start, block.end)  # the block's own last break
        breaks = content.find("\n", block.start, end)
        while 0 <= breaks < end:
            following = content.find("\n", breaks + 1)
            line = content[breaks + 1 : following if following >= 0 else len(content)]
            previous = content[content.rfind("\n", 0, breaks) + 1 : breaks]
            listed = block.kind == "list" and _LIST_ITEM.match(line) is not None
            if line.strip() and not listed and "$$" not in line and "$$" not in previous:
                chars = chars if chars is not None else list(content)
                chars[breaks] = " "
                if breaks > 0 and content[breaks - 1] == "\r":
                    chars[breaks - 1] = " "
            breaks = content.find("\n", breaks + 1, end)
    return "".join(chars) if chars is not None else content
