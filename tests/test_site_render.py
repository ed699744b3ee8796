"""Lesson markdown -> page HTML: anchors, math, claim marks, sanitising, LaTeX error locations."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from support import assert_inert, page_of, write_site_lesson

from atlas_build.canonical import canonicalize, sections
from atlas_build.latex import mathml
from atlas_build.site.pages import markup, panels, sanitize
from atlas_build.site.pages.html import inline_for_markdown

HOSTILE = """# Hostile

<script>alert("script")</script>

Text with <img src="x.png" onerror="alert('img')"> and <b onclick="alert(1)">bold</b>.

[click me](javascript:alert('link')) and [data](data:text/html,<script>alert(2)</script>)
and <a href="JaVaScRiPt:alert(3)">raw link</a> and <a href="vbscript:msgbox(4)">vb</a>.

<iframe src="https://evil.example/"></iframe>

<style>body { display: none }</style>

<svg onload="alert(5)"><circle r="1"></circle></svg>

<span id="claim-forged" class="md-header">forged id</span> <a href="../other/">relative</a>

<form action="https://evil.example/"><input name="x"></form>

$$
\\href{javascript:alert(6)}{x}
$$

## Sources

- [A source](https://example.org/)
"""


def test_hostile_markdown_renders_inert(tmp_path: Path) -> None:
    write_site_lesson(tmp_path, "hostile", HOSTILE, title="Hostile")
    page, tree = page_of(tmp_path, "hostile")
    assert_inert(page)
    lowered = page.lower()
    for forbidden in ("<script", "<iframe", "<style", "<svg", "onerror=", "onclick=", "onload="):
        assert forbidden not in lowered, forbidden
    assert 'href="javascript' not in lowered and 'href="data:' not in lowered
    assert 'id="claim-forged"' not in page and "md-header" not in page
    assert '<a href="../other/"' in page  # relative links survive
    assert "<b>bold</b>" in page and '<img src="x.png">' in page
    assert any(d.code == "A501" and "\\href" in d.message for d in tree.diagnostics)
    assert '<code class="atlas-math-error">' in page


def test_sanitiser_keeps_mathml_and_trusted_ids_only() -> None:
    html = mathml.render(r"\frac{a}{\sqrt{b}}", display=True)
    assert sanitize.clean(html).replace("></mspace>", "/>") == html.replace("></mspace>", "/>")
    marked = f'<mark id="{sanitize.trusted_id("claim-x")}">a</mark><mark id="claim-y">b</mark>'
    assert sanitize.clean(marked) == '<mark id="claim-x">a</mark><mark>b</mark>'
    assert sanitize.untrusted(sanitize.TRUSTED + "x") == "\ufffdx"


def test_math_is_mathml_and_errors_carry_positions() -> None:
    html = mathml.render(r"o=\sum_j a_j v_j", display=False)
    assert html.startswith('<span class="katex"><math') and "<msub><mo>∑</mo>" in html
    assert "<munder>" in mathml.render(r"\sum_j a_j", display=True)
    with pytest.raises(mathml.MathError) as error:
        mathml.render(r"a + \foo{b}", display=True)
    assert error.value.position == 4 and "Undefined control sequence" in error.value.message
    with pytest.raises(mathml.MathError) as error:
        mathml.render(r"\frac{a", display=True)
    assert error.value.position == len(r"\frac{a")


def test_math_memo_keeps_results_not_errors_and_keys_on_display(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Rendering is kept per process: the same formula gives the same MathML without
    running KaTeX again, inline and display are separate, and an error is raised again
    every time (never remembered as a result)."""
    katex_runs: list[str] = []  # every formula KaTeX is asked to render
    katex = mathml.pykatex.renderToString

    def counted(latex: str, **options: object) -> str:
        katex_runs.append(latex)
        return katex(latex, **options)

    monkeypatch.setattr(mathml.pykatex, "renderToString", counted)
    mathml._kept.cache_clear()  # start from an empty memo: earlier tests rendered d_k too
    first = mathml.render(r"d_k", display=False)
    assert mathml.render(r"d_k", display=False) == first
    assert katex_runs == ["d_k"]  # the second render was served without KaTeX
    assert mathml.render(r"d_k", display=True) != first
    assert katex_runs == ["d_k", "d_k"]
    for _ in range(2):
        with pytest.raises(mathml.MathError):
            mathml.render(r"a + \foo{b}", display=True)
    assert katex_runs[2:] == [r"a + \foo{b}"] * 2  # an error is rendered again every time
    long = "x+" * 200 + "x"
    assert mathml.render(long, display=False) == mathml.render(long, display=False)
    assert katex_runs[4:] == [long, long]  # the long formula is not kept
    assert mathml.render(r"d_k", display=False) == first
    assert mathml.render(r"d_k", display=True) != first
    assert len(katex_runs) == 6  # both d_k are still kept


def test_latex_error_is_located_in_the_lesson_file(tmp_path: Path) -> None:
    body = (
        "# Broken math\n\nSome text.\n\n$$\nx = \\frac{1}{2} + \\nope{y}\n$$\n\nInline $a^$ too.\n"
    )
    path = write_site_lesson(tmp_path, "broken", body)
    _, tree = page_of(tmp_path, "broken")
    found = sorted((d.line, d.column, d.message) for d in tree.diagnostics if d.code == "A501")
    lines = path.read_text(encoding="utf-8").split("\n")
    display = next(i for i, text in enumerate(lines, 1) if "\\nope" in text)
    inline = next(i for i, text in enumerate(lines, 1) if "Inline" in text)
    assert found[0][:2] == (display, lines[display - 1].index("\\nope") + 1)
    assert "Undefined control sequence: \\nope" in found[0][2]
    assert found[1][0] == inline and found[1][1] == lines[inline - 1].index("^") + 1
    assert all(d.path == str(path) or d.path.endswith("broken/lesson.md") for d in tree.diagnostics)


def test_headings_get_record_section_ids_and_slug_anchors(seed: dict) -> None:
    rendered = markup.render(seed["content"], [])
    expected = [span.id for span in sections(canonicalize(seed["content"]))]
    assert [heading.id for heading in rendered.headings] == expected
    assert [h.text for h in rendered.headings] == [s["title"] for s in seed["sections"]]
    section4 = rendered.headings[3]
    assert section4.id == "section-4" and section4.slug == "scaled-dot-product-attention"
    assert {"section-4", "scaled-dot-product-attention"} <= rendered.ids


def test_duplicate_and_reserved_slugs_are_made_unique() -> None:
    text = "# Validation\n\n## Notes\n\n## Notes\n\n## Section 1\n"
    rendered = markup.render(text, [])
    slugs = [heading.slug for heading in rendered.headings]
    assert slugs == ["validation", "notes", "notes_1", "section-1_1"]
    assert "atlas-validation" not in slugs


def test_claim_marks_wrap_each_quoted_occurrence() -> None:
    text = "# T\n\nThe output is 5. Then more.\n\nAgain: the output is 5.\n"
    marks = [
        markup.Mark("claim-out", 5, 21, "atlas-claim atlas-claim-pass", "pass"),
        markup.Mark("claim-out--2", text.rindex("the output"), len(text) - 1, "atlas-claim", "t"),
    ]
    rendered = markup.render(text, marks)
    html = "".join(part.html for part in rendered.parts)
    assert re.search(r'<mark id="claim-out" class="atlas-claim atlas-claim-pass"[^>]*>'
                     r"The output is 5\.</mark>", html)  # fmt: skip
    assert '<mark id="claim-out--2"' in html and {"claim-out", "claim-out--2"} <= rendered.ids


def test_headings_survive_python_markdown_unchanged() -> None:
    inner = 'a *b* _c_ [d](e) `f` #g {h} <code>x_y</code> &amp; <span id="s"></span>'
    escaped = inline_for_markdown(inner)
    assert "*" not in escaped and "_" not in escaped.replace('id="s"', "")
    import markdown as python_markdown

    converted = python_markdown.markdown(f"## {escaped} {{#section-9}}", extensions=["attr_list"])
    assert converted.startswith('<h2 id="section-9">a &#42;b&#42;')
    assert "<code>x&#95;y</code>" in converted and '<span id="s"></span>' in converted


def test_links_to_lessons_in_content_become_local(tmp_path: Path) -> None:
    body = (
        "# Linking\n\nSee [the other](https://semiaifoundry.com/learn/atlas/other/#section-2) "
        "and [absent](https://semiaifoundry.com/learn/atlas/absent/).\n"
    )
    write_site_lesson(tmp_path, "linking", body)
    write_site_lesson(tmp_path, "other", "# Other\n\n## Part\n")
    page, _ = page_of(tmp_path, "linking")
    assert 'href="../other/#section-2"' in page
    assert 'href="https://semiaifoundry.com/learn/atlas/absent/"' in page


@pytest.mark.parametrize(
    ("quoted", "shown"),
    [
        ("0.02585\\,\\mathrm{mV}", "0.02585 mV"),  # inline math: `\,` is a thin space
        ("f\\_c \\approx 1600\\ \\text{Hz}", "f_c ≈ 1600 Hz"),
        ("x \\le 3\\,\\mathrm{V}", "x ≤ 3 V"),
        ("a\\, b", "a, b"),  # prose: markdown's escaped comma
        ("12.5\\%", "12.5%"),
        ("\\[0.25,0.75\\]", "[0.25,0.75]"),
        ("T = 20^\\circ\\mathrm{F}", "T = 20°F"),  # LaTeX degree signs
        ("20\\,^{\\circ}\\mathrm{C}", "20 °C"),
        ("20\\,\\mathrm{^\\circ C}", "20 °C"),
        ("a 90^\\circ turn", "a 90° turn"),
    ],
)
def test_quoted_values_read_as_the_reader_sees_them(quoted: str, shown: str) -> None:
    assert panels.unescape(quoted) == shown


def test_the_panel_lists_numbers_left_unchecked_with_the_reason_escaped() -> None:
    numbers = {
        "total": 3,
        "verified": 2,
        "exempt": 1,
        "exempted": {"listed unchecked": 1},
        "listedUnchecked": [
            {"text": "4", "reason": "a <b>design</b> choice", "line": 7, "column": 18}
        ],
    }
    html = panels.coverage({"numbers": numbers, "relations": {"items": []}})
    assert "<summary>1 number listed unchecked, with the author's reason" in html
    assert "<code>4</code> at line 7, column 18: a &lt;b&gt;design&lt;/b&gt; choice" in html


def test_a_claims_checks_are_counted_in_words() -> None:
    """`1 check (1 passed)`, not `the 1 checks`: the panel's summary of a claim's checks."""
    one = panels._checks([{"name": "identity", "ok": True, "message": "1/20 vs 1/20"}])
    assert "<summary>1 check (1 passed)</summary>" in one
    two = panels._checks([{"name": "a", "ok": True, "message": ""}, {"name": "b", "ok": False}])
    assert "<summary>2 checks (1 passed)</summary>" in two
    assert panels._checks([]) == ""


def test_an_inferred_check_says_so_and_shows_its_bindings() -> None:
    from atlas_build.site.pages import panels

    claim = {
        "id": "inferred-1",
        "kind": "inferred",
        "source": "inferred",
        "status": "pass",
        "message": "equation 0 `W=\\frac{1}{\\mu-\\lambda}`: 40 ms → W, 100 → λ, 125 → μ",
        "values": [],
        "checks": [],
    }
    row = panels.claim_rows([claim], lambda claim: None)
    assert "inferred from the lesson" in row
    assert "40 ms → W" in row
