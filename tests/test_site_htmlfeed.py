"""htmlfeed: the handler calls it makes are the ones HTMLParser makes, or it makes none."""

from __future__ import annotations

from html.parser import HTMLParser
from typing import Any

import markdown.htmlparser
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from atlas_build.site.mkdocs.speedups import htmlfeed

PARSERS = [HTMLParser, markdown.htmlparser.htmlparser.HTMLParser]  # the search plugin's, MkDocs'


def _recorder(base: type[Any]) -> type[Any]:
    class Recorder(base):  # type: ignore[misc, valid-type]
        def __init__(self) -> None:
            super().__init__()
            self.calls: list[tuple[Any, ...]] = []

        def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
            self.calls.append(("start", tag, tuple(attrs)))

        def handle_endtag(self, tag: str) -> None:
            self.calls.append(("end", tag))

        def handle_data(self, data: str) -> None:
            self.calls.append(("data", data))

    return Recorder


def _calls(base: type[Any], text: str, fast: bool) -> list[tuple[Any, ...]] | None:
    parser = _recorder(base)()
    if fast:
        if not htmlfeed.feed(parser, text):
            return None
    else:
        parser.feed(text)
    parser.close()
    return list(parser.calls)


@pytest.mark.parametrize("base", PARSERS)
def test_every_lesson_page_is_fed_as_the_parser_reads_it(
    base: type[Any], lesson_pages: list[str]
) -> None:
    assert len(lesson_pages) >= 9
    for text in lesson_pages:
        fast = _calls(base, text, fast=True)
        assert fast is not None, "a generated page should be plain HTML"
        assert fast == _calls(base, text, fast=False)


def test_mkdocs_anchor_ids_and_search_sections_are_the_same(lesson_pages: list[str]) -> None:
    """The two parsers the driver feeds, as MkDocs and the theme use them (their empty
    handlers are not called at all)."""
    from material.plugins.search.plugin import Parser
    from mkdocs.structure.pages import _HTMLHandler

    def sections(parser: Any) -> list[tuple[Any, ...]]:
        return [(s.el.tag, s.id, s.title, s.text, s.is_excluded()) for s in parser.data]

    for text in lesson_pages:
        fed, read = _HTMLHandler(), _HTMLHandler()
        assert htmlfeed.feed(fed, text)
        read.feed(text)
        assert fed.present_anchor_ids == read.present_anchor_ids and fed.present_anchor_ids
        fed, read = Parser(), Parser()
        assert htmlfeed.feed(fed, text)
        read.feed(text)
        fed.close()
        read.close()
        assert sections(fed) == sections(read) and sections(fed)[0][3]


@pytest.mark.parametrize(
    "text",
    [
        'a &amp; b<p class="x" data-on id="k" title="">t&lt;u&#x3e;</p>tail &amp',
        '<DIV Class="A&quot;B">x</DIV><br/><br /><img src="a.png" alt="a > b"/>',
        '<math><mi>x</mi><mo>&#x2212;</mo><mn>1</mn></math>\n\n<span\nid="multi\nline">',
        '<a href="#x" data-search-exclude>one</a><h2 id="s">Two</h2>&nbsp;',
        "",
        "no tags at all & some ampersands &",
    ],
)
@pytest.mark.parametrize("base", PARSERS)
def test_plain_html_gives_the_same_calls(base: type[Any], text: str) -> None:
    fast = _calls(base, text, fast=True)
    assert fast is not None and fast == _calls(base, text, fast=False)


@pytest.mark.parametrize(
    "text",
    [
        "a < b",
        "x <!-- comment --> y",
        "<!DOCTYPE html><p>x</p>",
        "<?php x ?>",
        "<![CDATA[x]]>",
        "<script>if (a<b) {}</script>",
        "<style>p{}</style>",
        "<p class='single'>x</p>",
        "<p class=bare>x</p>",
        '<a href="x"title="y">z</a>',
        '<p\u00a0class="x">nbsp is not a separator</p>',
        "</>",
        "<p>unclosed <b",
        '<p class = "spaced">x</p>',
    ],
)
def test_anything_else_is_refused_and_read_as_usual(text: str) -> None:
    assert htmlfeed.split(text) is None
    for base in PARSERS:
        parser = _recorder(base)()
        with htmlfeed.patched(type(parser)):
            parser.feed(text)
            parser.close()
        assert parser.calls == _calls(base, text, fast=False)


def test_patched_feed_is_restored_and_skips_a_parser_with_pending_input() -> None:
    recorder = _recorder(HTMLParser)
    with htmlfeed.patched(recorder):
        parser = recorder()
        parser.feed("<p>one <b")  # an unfinished tag waits in rawdata
        parser.feed(' class="x">two</b></p>')
        parser.close()
    assert "feed" not in recorder.__dict__
    assert parser.calls == _calls(HTMLParser, '<p>one <b class="x">two</b></p>', fast=False)


_PIECES = st.sampled_from(
    [
        "<p>", "</p>", "<div", ">", "/>", " ", "\n", "\t", "\u00a0", "<", "</", "&amp;", "&",
        "&#x3c;", "&lt", ";", 'class="a"', "id=x", "data-x", '="', '"', "'", "=", "text",
        "<br/>", "<script>", "</script>", "<!--", "-->", "B", "h2", "<h2 id=\"s\">", "</h2>",
        "<math>", "<mi>x</mi>", "`", "/", "<!", "<?", "\x00",
    ]
)  # fmt: skip


@settings(max_examples=400, deadline=None)
@given(st.lists(_PIECES, max_size=30).map("".join))
def test_whatever_it_accepts_it_reads_as_the_parsers_do(text: str) -> None:
    for base in PARSERS:
        fast = _calls(base, text, fast=True)
        if fast is not None:
            assert fast == _calls(base, text, fast=False)
