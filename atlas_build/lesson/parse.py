"""Markdown body -> lesson blocks, with offsets, using the shared markdown-it parser."""

from __future__ import annotations

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


class _Cursor:
    """Finds inline things (links, formulas) in the content, moving forward only."""

    def __init__(self, content: str) -> None:
        self.content = content

    def link(self, href: str, start: int, end: int) -> int:
        """Where a link's destination is written: after `](` or `<` when possible, so the
        same URL mentioned earlier in plain text is not mistaken for it."""
        for prefix in ("](", "]( ", "<"):
            found = self.content.find(prefix + href, start, end) if href else -1
            if found != -1:
                return found + len(prefix)
        return self.find(href, start, end)

    def find(self, needle: str, start: int, end: int) -> int:
        found = self.content.find(needle, start, end) if needle else -1
        return found if found != -1 else start


def _inline_parts(
    inline: Token, cursor: _Cursor, start: int, end: int, counters: dict[str, int]
) -> tuple[list[Link], list[Math], list[RawHtml]]:
    links: list[Link] = []
    formulas: list[Math] = []
    html: list[RawHtml] = []
    position = start
    children = inline.children or []
    for index, child in enumerate(children):
        if child.type == "link_open":
            href = str(child.attrGet("href") or "")
            text_parts = []
            for follower in children[index + 1 :]:
                if follower.type == "link_close":
                    break
                text_parts.append(follower.content)
            at = cursor.link(href, position, end)
            links.append(Link("".join(text_parts).strip(), href, at))
            position = max(position, at)
        elif child.type == "math_inline" or child.type == "math_inline_double":
            marker = "$$" if child.type == "math_inline_double" else "$"
            at = cursor.find(marker + child.content, position, end) + len(marker)
            formulas.append(Math(child.content, at, False, counters["inline"]))
            counters["inline"] += 1
            position = max(position, at)
        elif child.type == "html_inline":
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
    tokens = markdown.lint_parser().parse(content)
    starts = line_starts(content) + [len(content)]
    cursor = _Cursor(content)
    counters = {"display": 0, "inline": 0}
    blocks: list[Block] = []
    index = 0

    def span(token: Token) -> tuple[int, int, int]:
        first, last = token.map or (0, 0)
        first = min(first, len(starts) - 1)
        return starts[first], starts[min(last, len(starts) - 1)], first + 1

    while index < len(tokens):
        token = tokens[index]
        if token.level != 0:
            index += 1
            continue
        if token.type == "heading_open":
            start, end, line = span(token)
            inline = tokens[index + 1]
            links, formulas, html = _inline_parts(inline, cursor, start, end, counters)
            text = markdown.plain_text(inline)
            level = int(token.tag[1])
            heading = Block("heading", text, start, end, line, level, links=links, math=formulas)
            heading.html = html
            blocks.append(heading)
            index += 3
        elif token.type == "paragraph_open":
            start, end, line = span(token)
            inline = tokens[index + 1]
            links, formulas, html = _inline_parts(inline, cursor, start, end, counters)
            text = markdown.plain_text(inline)
            paragraph = Block("paragraph", text, start, end, line, links=links, math=formulas)
            paragraph.html = html
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
                    parts = _inline_parts(inner, cursor, item_start, item_end, counters)
                    block.links.extend(parts[0])
                    block.math.extend(parts[1])
                    block.html.extend(parts[2])
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
