"""The one markdown parser configuration every stage shares.

Canonical form, sections, the lesson model and the site must agree on what is a
heading, a list or a math block, so they all parse with this configuration:
CommonMark plus `$...$`/`$$...$$` math (mdit-py-plugins dollarmath), tables and
strikethrough. Raw HTML is parsed as HTML tokens so it is never mistaken for
lists or headings; the site stage sanitises it.
"""

from __future__ import annotations

from functools import lru_cache

from markdown_it import MarkdownIt
from markdown_it.token import Token
from mdit_py_plugins.dollarmath import dollarmath_plugin


def _configured() -> MarkdownIt:
    md = MarkdownIt("commonmark", {"html": True})
    md.enable(["table", "strikethrough"])
    md.use(dollarmath_plugin, allow_space=True, allow_digits=True, double_inline=True)
    return md


@lru_cache(maxsize=1)
def parser() -> MarkdownIt:
    return _configured()


def parse(text: str) -> list[Token]:
    return parser().parse(text)


@lru_cache(maxsize=1)
def block_parser() -> MarkdownIt:
    """The same grammar with inline parsing off: block structure (lists, headings) only.

    Canonical form and sections need no inline parse except for heading text, and the
    inline pass (links above all) is most of the cost on a dense body.
    """
    md = _configured()
    md.disable("inline")
    return md


def parse_blocks(text: str) -> tuple[list[Token], dict[str, object]]:
    """Block tokens and the parse environment (link reference definitions)."""
    env: dict[str, object] = {}
    return block_parser().parse(text, env), env


def inline_text(token: Token, env: dict[str, object]) -> str:
    """`plain_text` of a block-only parse's inline token, parsing just its content."""
    parsed = parser().parseInline(token.content, env)
    return plain_text(parsed[0]) if parsed else ""


@lru_cache(maxsize=1)
def lint_parser() -> MarkdownIt:
    """The same grammar, but keeping links markdown-it would silently drop.

    markdown-it refuses `javascript:`, `data:`, `file:` and `vbscript:` destinations by
    turning the link back into plain text, which is right for rendering but would hide
    them from the checks; the lesson model parses with this parser so `A330` sees them.
    """
    md = _configured()
    md.validateLink = lambda url: True  # type: ignore[method-assign]
    # The checks read destinations as written; percent-encoding every link (about half of
    # the parse of a link-dense body) changes nothing they look at.
    md.normalizeLink = lambda url: url  # type: ignore[method-assign]
    md.normalizeLinkText = lambda link: link  # type: ignore[method-assign]
    return md


def plain_text(inline: Token) -> str:
    """The text a reader sees in an inline token: escapes resolved, markup dropped."""
    parts: list[str] = []
    for child in inline.children or []:
        if child.type in ("text", "code_inline", "math_inline", "html_inline"):
            parts.append(child.content)
        elif child.type in ("softbreak", "hardbreak"):
            parts.append(" ")
        elif child.type == "image":
            parts.append(plain_text(child))
    return "".join(parts).strip()
