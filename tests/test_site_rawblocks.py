"""rawblocks: Python-Markdown converts a page to the same HTML with it as without it."""

from __future__ import annotations

from typing import Any

import markdown
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from atlas_build.site.mkdocs.speedups import rawblocks

EXTENSIONS = ["attr_list", "toc"]  # mkdocs.yml's


def _converted(text: str, fast: bool, extensions: list[str] = EXTENSIONS) -> tuple[Any, ...]:
    """The HTML and the raw blocks Python-Markdown stashed, as MkDocs would get them."""
    md = markdown.Markdown(extensions=extensions)
    if fast:
        with rawblocks.patched():
            html = md.convert(text)
    else:
        html = md.convert(text)
    return html, list(md.htmlStash.rawHtmlBlocks)


@pytest.fixture
def steps(monkeypatch: pytest.MonkeyPatch) -> list[tuple[int, str] | None]:
    """Every answer `end` gives while a test runs."""
    answers: list[tuple[int, str] | None] = []
    original = rawblocks.end

    def counted(*args: Any) -> tuple[int, str] | None:
        answers.append(original(*args))
        return answers[-1]

    monkeypatch.setattr(rawblocks, "end", counted)
    return answers


def test_every_lesson_page_converts_the_same(lesson_pages: list[str], steps: list[Any]) -> None:
    assert len(lesson_pages) >= 9
    for text in lesson_pages:
        assert _converted(text, fast=True) == _converted(text, fast=False)
    stepped = [answer for answer in steps if answer is not None]
    assert len(stepped) >= 10 * len(lesson_pages), "generated pages' blocks should be plain"


def test_the_patch_is_removed_afterwards() -> None:
    from markdown.htmlparser import HTMLExtractor

    before = HTMLExtractor.parse_starttag
    with rawblocks.patched():
        assert HTMLExtractor.parse_starttag is not before
    assert HTMLExtractor.parse_starttag is before


@pytest.mark.parametrize(
    ("text", "stepped"),
    [
        ('<div class="a">\n<p>one</p>\n\n<p>two &amp; &#38; &#x26;</p>\n</div>\n\n*md*', True),
        ("<div><div>in</div>still <b>raw</b></div>\n\ntext", True),
        ("<DIV><P>upper</P></DIV>\n", True),
        ('<div><br>broken <img src="x"> void</div>\n\nafter', True),
        ("<div><hr>rule<br/><span/>x</div>\n", True),
        ("<table>\n<tr><td>1</td></tr>\n</table>\n<p>no blank line</p>\n\n# Head", True),
        ("<div><p>unclosed p</div>\n\nafter", True),
        ("<div>closing a tag never opened</span></div>\n", True),
        ("<div>a < b</div>\n", False),
        ("<div><!-- note --></div>\n", False),
        ("<div><script>if (a<b) {}</script></div>\n", False),
        ("<div><textarea><b></textarea></div>\n", False),
        ("<div>&#38 no semicolon</div>\n", False),
        ("<div>&#x; bad</div>\n\nrest", False),
        ("<div>never closed\n\n*md*", False),
        ("<div class='single'>the opener is read by the parser</div>\n", True),
        ("<div><p class='single'>x</p></div>\n", False),
        ("<div>one</div><div>same line <p>x</p></div>\n\ntail", True),
        ("text <span>inline</span> only\n", False),
    ],
)
def test_blocks_convert_the_same(text: str, stepped: bool, steps: list[Any]) -> None:
    assert _converted(text, fast=True) == _converted(text, fast=False)
    assert any(answer is not None for answer in steps) == stepped


def test_md_in_html_blocks_are_read_as_before(steps: list[Any]) -> None:
    """`md_in_html`'s extractor parses markdown inside blocks: it is never stepped."""
    text = '<div markdown="1">\n*emphasis* and <b>bold</b>\n</div>\n\n<div><p>x</p></div>\n'
    extensions = [*EXTENSIONS, "md_in_html"]
    assert _converted(text, True, extensions) == _converted(text, False, extensions)
    assert steps == []


_PIECES = st.sampled_from(
    [
        "<div>", "</div>", "<p>", "</p>", "<table>", "</table>", "<td>", "</td>", "<span>",
        "</span>", "<br>", "<hr>", "<img/>", '<div class="a" data-x>', "\n", "\n\n", "   ",
        "text", "*em*", "# head", "&amp;", "&#38;", "&#38", "&", "<", "<!-- c -->", "<script>",
        "</script>", "<DIV>", "</Div>", "`code`", "    indented", "- item", "<pre>", "</pre>",
    ]
)  # fmt: skip


@settings(max_examples=300, deadline=None)
@given(st.lists(_PIECES, max_size=40).map("".join))
def test_any_text_converts_the_same(text: str) -> None:
    assert _converted(text, fast=True) == _converted(text, fast=False)
