"""searchparser: the same search sections as the theme's own `Parser`, on any HTML."""

from __future__ import annotations

from typing import Any

import markdown
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from material.plugins.search import plugin as search

from atlas_build.site.mkdocs.speedups import htmlfeed, searchparser


def _sections(cls: type[Any], html: str, fed: bool = False) -> list[tuple[Any, ...]]:
    parser = cls()
    if not (fed and htmlfeed.feed(parser, html)):
        parser.feed(html)
    parser.close()
    return [
        (s.el.tag, s.el.attrs, s.depth, s.id, s.title, s.text, s.is_excluded()) for s in parser.data
    ]


def test_every_lesson_page_has_the_same_sections(lesson_pages: list[str]) -> None:
    md = markdown.Markdown(extensions=["attr_list", "toc"])
    for page in lesson_pages:
        html = md.reset().convert(page)
        theirs = _sections(search.Parser, html)
        assert len(theirs) > 5 and any(excluded for *_, excluded in theirs)
        assert _sections(searchparser.Parser, html) == theirs
        assert _sections(searchparser.Parser, html, fed=True) == theirs


@pytest.mark.parametrize(
    "html",
    [
        '<p>pre</p><h2 id="a">A <a class="headerlink" href="#a">¶</a></h2><p>x <code>y</code></p>',
        "<div data-search-exclude><p>hidden</p><div>inner</div><p>seen again</p></div><p>z</p>",
        "<h3 id='deep'>first is h3</h3><ul><li> </li><li>kept</li></ul>",
        "<div><h2 id='n'>nested</h2></div><p>after the nest closes</p>",
        "<pre>  keep\n  spaces </pre><p>a\nb</p>  \n  <p>   </p>",
        "<script>var x = '<p>'</script><p>after</p><style>p{}</style><object>o</object>t",
        '<table class="linenodiv"><tr><td>1</td></tr></table><p>code</p>',
        "<p>unbalanced <b>bold</p> tail</b><br><img src=x><h1 id=t>T</h1>",
        "<hx>odd</hx><h2>no id</h2><sub>2</sub><sup></sup>",
    ],
)
def test_edge_cases_have_the_same_sections(html: str) -> None:
    assert _sections(searchparser.Parser, html) == _sections(search.Parser, html)


def test_the_theme_uses_it_only_inside_the_block() -> None:
    original = search.Parser
    with searchparser.patched():
        assert search.Parser is searchparser.Parser
    assert search.Parser is original


_PIECES = st.sampled_from(
    [
        "<p>", "</p>", "<div>", "</div>", "<div data-search-exclude>", '<h2 id="s">', "</h2>",
        "<h1 id=t>", "</h1>", "<h4>", "</h4>", "<pre>", "</pre>", "<code>", "</code>", "<li>",
        "</li>", "<ul>", "</ul>", '<a class="headerlink">', "</a>", "<br>", "<hr/>", "<script>",
        "</script>", "<object>", "</object>", '<span class="linenodiv">', "</span>", "text",
        " ", "\n", "  \n ", "&amp;", "<", "<sub>", "</sub>",
    ]
)  # fmt: skip


@settings(max_examples=400, deadline=None)
@given(st.lists(_PIECES, max_size=40).map("".join))
def test_any_html_has_the_same_sections(html: str) -> None:
    theirs = _sections(search.Parser, html)
    assert _sections(searchparser.Parser, html) == theirs
    assert _sections(searchparser.Parser, html, fed=True) == _sections(search.Parser, html, True)
