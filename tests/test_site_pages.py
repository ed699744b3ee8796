"""Pages that read like lessons (issue 17): symbol tables, folded quiz answers, assumption
notes, specification tables, math in headings, accessible math, contrast of the badges.

The structures come from the lesson model, so lessons on other subjects and in other
wordings (`lesson_subjects/`: `Symbols`, `Notation`, `Quiz`, `Solution`, `Answer: ...`)
render the same way; anything the model does not recognise renders as before.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from support import assert_inert, page_of, write_site_lesson

from atlas_build import lesson
from atlas_build.latex import mathml
from atlas_build.site.pages import markup, mathtext, structures
from atlas_build.site.pages.structures.symbolmath import symbol_latex

SUBJECTS = Path(__file__).resolve().parent / "lesson_subjects"
CSS = Path(__file__).resolve().parent.parent / "atlas_build" / "site" / "assets" / "atlas.css"
VOID = frozenset({"br", "img", "hr", "wbr", "input", "meta", "link", "mspace"})


@dataclass
class Node:
    tag: str
    attrs: dict[str, str]
    children: list[Node | str] = field(default_factory=list)

    def text(self) -> str:
        return "".join(c if isinstance(c, str) else c.text() for c in self.children)

    def find(self, tag: str, css: str | None = None) -> list[Node]:
        found = []
        for child in self.children:
            if isinstance(child, Node):
                if child.tag == tag and (css is None or css in child.attrs.get("class", "")):
                    found.append(child)
                found += child.find(tag, css)
        return found


class _Tree(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.root = Node("root", {})
        self.stack = [self.root]

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        node = Node(tag, {k: v or "" for k, v in attrs})
        self.stack[-1].children.append(node)
        if tag not in VOID:
            self.stack.append(node)

    def handle_endtag(self, tag: str) -> None:
        for depth in range(len(self.stack) - 1, 0, -1):
            if self.stack[depth].tag == tag:
                del self.stack[depth:]
                break

    def handle_data(self, data: str) -> None:
        self.stack[-1].children.append(data)


def tree(html: str) -> Node:
    parser = _Tree()
    parser.feed(html)
    parser.close()
    return parser.root


def body(content: str, marks: list[markup.Mark] | None = None) -> str:
    """The lesson body as the page shows it (headings as plain HTML headings)."""
    rendered = markup.render(content, marks or [])
    parts = structures.arrange(rendered.parts, lesson.build(content))
    return "\n".join(
        part.html
        if part.heading is None
        else f"<h{part.heading.level}>{part.heading.html}</h{part.heading.level}>"
        for part in parts
    )


def subject(name: str) -> str:
    return (SUBJECTS / f"{name}.md").read_text(encoding="utf-8")


@pytest.mark.parametrize("name", ["pn", "rc", "link", "ml"])
def test_every_glossary_becomes_a_table_with_a_row_per_entry(name: str) -> None:
    content = subject(name)
    model = lesson.build(content)
    tables = tree(body(content)).find("div", "atlas-glossary")
    assert model.glossaries and len(tables) == len(model.glossaries)
    for glossary, box in zip(model.glossaries, tables, strict=True):
        rows = box.find("tbody")[0].find("tr")
        assert len(rows) == len(glossary.entries)
        for entry, row in zip(glossary.entries, rows, strict=True):
            symbol, meaning, unit = (cell.text() for cell in row.children if isinstance(cell, Node))
            assert meaning == entry.meaning and unit == entry.unit
            written_as_math = bool(row.find("math"))
            assert written_as_math == (symbol_latex(entry.symbol) is not None), entry.symbol
            if not written_as_math:
                assert symbol == entry.symbol
        headers = [th.text() for th in box.find("thead")[0].find("th")]
        assert headers == ["Symbol", "Meaning", "Unit"]
        assert box.attrs["tabindex"] == "0" and box.attrs["role"] == "region"


def test_heading_mark_stays_a_heading_and_a_short_glossary_keeps_the_rest_plain() -> None:
    text = (
        "# T\n\n## Science\n\n### Notation\n\nx\n\nPosition\n\nm\n\nv\n\nSpeed\n\nm/s\n\n"
        "## Next\n\nSymbols and units\n\nF\n\nForce\n\nN\n\nG\n\n"
        "After G comes prose that is long enough. It has two sentences.\n"
    )
    rendered = markup.render(text, [])
    parts = structures.arrange(rendered.parts, lesson.build(text))
    notation = next(i for i, p in enumerate(parts) if p.heading and p.heading.text == "Notation")
    table = tree(parts[notation + 1].html).find("div", "atlas-glossary")[0]
    assert not table.find("caption") and len(table.find("tbody")[0].find("tr")) == 2
    assert table.attrs["aria-label"] == "Notation: Science"
    short = tree("\n".join(p.html for p in parts)).find("div", "atlas-glossary")[1]
    assert len(short.find("tbody")[0].find("tr")) == 1
    html = [p.html for p in parts]
    assert "<p>G</p>\n" in html and any(h.startswith("<p>After G comes prose") for h in html)


def test_seed_symbol_table_sets_symbols_as_math(seed: dict) -> None:
    html = body(seed["content"])
    first = tree(html).find("div", "atlas-glossary")[0]
    assert first.find("caption")[0].text() == "Symbols and units"
    labels = [m.attrs["aria-label"] for m in first.find("math")]
    assert labels[:3] == ["Q", "K", "V"]
    assert "T_{q},\\ T_{k}" in labels and "\\mathrm{Var}" in labels
    t_q = next(m for m in first.find("math") if m.attrs["aria-label"].startswith("T_{q}"))
    assert len(t_q.find("msub")) == 2  # T with subscript q, T with subscript k
    assert "Symbols and units\n\nQ\n" not in html


@pytest.mark.parametrize(
    ("written", "latex"),
    [
        ("T_q,T_k", "T_{q},\\ T_{k}"),
        ("d_k", "d_{k}"),
        ("N₀", "N_{0}"),
        ("B_tok", "B_{\\mathrm{tok}}"),
        ("Var", "\\mathrm{Var}"),
        ("nᵢ", "n_{i}"),
        ("n⁺", "n^{+}"),
        ("δ_ij", "δ_{ij}"),
        ("p_i^*", "p_{i}^{*}"),
        ("25.9 mV", None),  # a value
        ("kT/q", None),  # an expression
        ("B_Gen5,one way", None),  # a qualified symbol
        ("V_DS,sat", None),  # one name with a comma in it
        ("x\\_{\\href{javascript:1}{k}}", None),  # no LaTeX of the lesson's own gets through
        ("a}{b", None),
    ],
)
def test_symbols_are_written_in_latex_from_a_narrow_grammar(written: str, latex: str | None):
    assert symbol_latex(written) == latex
    if latex is not None:
        assert "<math" in mathml.render(latex, display=False)


def _details(html: str) -> list[Node]:
    return tree(html).find("details", "atlas-answer")


@pytest.mark.parametrize("name", ["pn", "rc", "ml"])
def test_quiz_answers_and_reasoning_fold_into_closed_details(name: str) -> None:
    content = subject(name)
    model = lesson.build(content)
    html = body(content)
    folds = _details(html)
    assert model.quizzes and len(folds) == len(model.quizzes)
    for quiz, fold in zip(model.quizzes, folds, strict=True):
        assert "open" not in fold.attrs
        summary = fold.children[1]
        assert isinstance(summary, Node) and summary.tag == "summary"
        assert summary.text() == "Show answer"
        text = fold.text()
        assert quiz.answer and quiz.answer in text and quiz.reasoning.split("\n")[0] in text
        before = html[: html.index('<details class="question atlas-answer">')]
        assert all(option in before for option, _ in quiz.options)
    outside = re.sub(r"<details.*?</details>", "", html, flags=re.DOTALL)
    for quiz in model.quizzes:
        assert quiz.reasoning.split("\n")[0] not in outside


def test_seed_quiz_folds_and_keeps_its_options_list(seed: dict) -> None:
    html = body(seed["content"])
    folds = _details(html)
    assert len(folds) == 3
    assert folds[0].find("p", "atlas-answer-mark")[0].text() == "Answer and reasoning"
    assert [p.text() for p in folds[0].find("p")][1] == "Value vectors"
    assert "<li>Value vectors</li>" in html.split('<details class="question atlas-answer">')[0]


def test_claim_quoting_a_quiz_answer_is_marked_inside_the_details(seed: dict) -> None:
    content = seed["content"]
    quote = "Each row weights the value vectors available to that query."
    start = content.index(quote)
    mark = markup.Mark("claim-why", start, start + len(quote), "atlas-claim", "claim why")
    folds = _details(body(content, [mark]))
    inside = folds[0].find("mark")
    assert inside and inside[0].attrs["id"] == "claim-why" and inside[0].text() == quote


def test_quiz_heading_anchor_stays_outside_the_fold(tmp_path: Path) -> None:
    text = (
        "# Q\n\n## Quiz\n\n### Which is right?\n\n1. One\n2. Two\n\nSolution\n\nTwo\n\n"
        "Because two.\n\n### And this one?\n\n1. A\n2. B\n\nAnswer: B\n\nB follows A.\n"
    )
    rendered = markup.render(text, [], targets={"section-3": ["claim-quiz"]})
    parts = structures.arrange(rendered.parts, lesson.build(text))
    headings = [p.heading for p in parts if p.heading is not None]
    assert 'id="claim-quiz"' in headings[2].html  # type: ignore[union-attr]
    folds = _details("\n".join(p.html for p in parts))
    assert [f.find("p")[0].text() for f in folds] == ["Solution", "Answer: B"]
    assert "B follows A." in folds[1].text() and "Because two." in folds[0].text()


def test_assumptions_become_note_blocks(seed: dict) -> None:
    html = body(seed["content"] + "\n\nAssumptions\n\nA paragraph of its own.\n")
    notes = tree(html).find("div", "atlas-assumptions")
    assert len(notes) == 3
    assert all(n.find("p", "admonition-title")[0].text() == "Assumptions" for n in notes)
    assert notes[0].find("p")[1].text().startswith("The variance argument assumes")
    assert notes[2].find("p")[1].text() == "A paragraph of its own."
    assert "<p>Assumptions The variance" not in html


def test_specifications_and_interfaces_become_tables(seed: dict) -> None:
    boxes = tree(body(seed["content"])).find("div", "atlas-specs")
    assert len(boxes) == 2
    specs, interfaces = ([[c.text() for c in r.children] for r in b.find("tr")] for b in boxes)
    assert specs[0] == ["Specification", "Value", "Context"]
    assert specs[1] == [
        "Dense score shape",
        "T × T per head",
        "T is sequence length; algorithms need not store the full matrix.",
    ]
    assert specs[2][0] == "Causality" and len(specs) == 3
    assert interfaces == [
        ["Interface", "Role", "Value"],
        ["Representations", "Input", "Queries, keys, values"],
        ["Residual stream", "Output", "Context-dependent value mixtures"],
    ]


def test_specifications_in_another_subject() -> None:
    boxes = tree(body(subject("link"))).find("div", "atlas-specs")
    rows = [[[c.text() for c in r.children] for r in b.find("tr")] for b in boxes]
    assert rows[0][1] == ["Line rate", "32 GT/s per lane", "Gen5 signalling."]
    assert rows[1][1:] == [
        ["Root complex", "Input", "Transaction-layer packets"],
        ["Endpoint", "Output", "Completions"],
    ]


def test_what_the_model_does_not_recognise_renders_as_before() -> None:
    text = (
        "# Plain\n\nSymbols and units\n\nThis glossary is written as prose. It has sentences.\n\n"
        "## Notes\n\nNot a question\n\n1. A list\n\nAnswer and reasoning\n\nNo quiz section.\n"
    )
    rendered = markup.render(text, [])
    before = [part.html for part in rendered.parts]
    after = structures.arrange(rendered.parts, lesson.build(text))
    assert [part.html for part in after] == before


def test_structures_keep_lines_so_figures_still_find_their_block(seed: dict) -> None:
    content = seed["content"]
    rendered = markup.render(content, [])
    parts = structures.arrange(rendered.parts, lesson.build(content))
    assert len(parts) < len(rendered.parts)
    assert parts[0].first_line == rendered.parts[0].first_line
    assert parts[-1].last_line == rendered.parts[-1].last_line
    for before, after in zip(parts, parts[1:], strict=False):
        assert before.last_line <= after.first_line
    quote_line = content[: content.index("Each row weights the value")].count("\n")
    holder = [p for p in parts if p.first_line <= quote_line < p.last_line]
    assert len(holder) == 1 and "<details" in holder[0].html


def test_hostile_glossary_and_quiz_stay_inert(tmp_path: Path) -> None:
    body_text = (
        "# Hostile structures\n\n## Science\n\n$$\nx = y\n$$\n\nSymbols and units\n\n"
        'x<img src=x onerror="alert(1)">\n\nMeaning <script>alert(2)</script>\n\nunit\n\n'
        "y\n\nA [link](javascript:alert(3))\n\n<b onclick=alert(4)>bold</b>\n\n"
        "## Quiz\n\n### Which?\n\n1. <svg onload=alert(5)>\n2. Two\n\nAnswer and reasoning\n\n"
        "Two <iframe src=https://evil.example/></iframe>\n\nBecause.\n\n"
        '<div class="atlas-math-box">not an equation</div>\n'
    )
    write_site_lesson(tmp_path, "hostile-structures", body_text, title="Hostile structures")
    page, _ = page_of(tmp_path, "hostile-structures")
    assert_inert(page)
    assert "<details" in page and "atlas-glossary" in page
    assert page.count('class="atlas-math-box" tabindex="0"') == 1  # the one equation only


def test_every_formula_carries_its_tex_as_an_accessible_label(seed: dict) -> None:
    html = body(seed["content"])
    maths = tree(html).find("math")
    assert len(maths) >= 2 + 11 + 4  # two equations, the symbols of two glossaries
    for node in maths:
        annotation = node.find("annotation")[0].text()
        assert node.attrs["aria-label"] == " ".join(annotation.split())
    box = '<div class="atlas-math" id="equation-0"><div class="atlas-math-box" tabindex="0"'
    assert box in html


def test_heading_with_math_reads_as_text_in_toc_and_title(tmp_path: Path) -> None:
    text = "# The $\\sqrt{d_k}$ factor\n\nWhy $T^2$ grows.\n\n## Cost $O(T^2)$ per head\n\nText.\n"
    write_site_lesson(tmp_path, "mathy", text, title="The $\\sqrt{d_k}$ factor")
    page, _ = page_of(tmp_path, "mathy")
    assert 'data-toc-label="The √dₖ factor"' in page
    assert 'data-toc-label="Cost O(T²) per head"' in page
    assert page.split("\n")[1] == 'title: "The √dₖ factor"'
    assert "\\sqrt" not in page.split("---")[1]


@pytest.mark.parametrize(
    ("latex", "text"),
    [
        ("\\sqrt{d_k}", "√dₖ"),
        ("\\frac{QK^{\\mathsf T}}{\\sqrt{d_k}}", "QKᵀ/√dₖ"),
        ("\\frac{a+b}{2}", "(a+b)/2"),
        ("B_{\\mathrm{tok}}", "Bₜₒₖ"),
        ("x = y_{\\max}", "x = yₘₐₓ"),
        ("w_{\\mathrm{bad}}", "w_(bad)"),  # no subscript b or d in Unicode
        ("\\hat{x}_i", "x̂ᵢ"),
    ],
)
def test_math_reads_back_as_unicode_text(latex: str, text: str) -> None:
    assert mathtext.plain(mathml.render(latex, display=False)) == text


def _luminance(colour: str) -> float:
    channels = [int(colour[i : i + 2], 16) / 255 for i in (1, 3, 5)]
    linear = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def contrast(a: str, b: str) -> float:
    high, low = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def test_badge_colours_meet_wcag_aa_with_white_text() -> None:
    css = CSS.read_text(encoding="utf-8")
    badges = dict(re.findall(r"\.md-typeset \.atlas-(\w+) \{ background: (#[0-9a-f]{6}); \}", css))
    assert set(badges) >= {"pass", "warning", "fail", "info", "skipped"}
    base = re.search(r"\.atlas-badge \{[^}]*color: #fff;[^}]*background: (#[0-9a-f]{6});", css)
    assert base is not None
    for status, colour in {**badges, "default": base[1]}.items():
        assert contrast(colour, "#ffffff") >= 4.5, (status, colour)


def test_dark_palette_colours_are_legible() -> None:
    css = CSS.read_text(encoding="utf-8")
    dark = css[css.index('[data-md-color-scheme="slate"] {') :]
    dark = dark[: dark.index("}")]
    colours = dict(re.findall(r"--atlas-([\w-]+): (#[0-9a-f]{6});", dark))
    slate_bg, slate_fg = "#1e2129", "#e2e4e9"  # the theme's slate background and text
    assert contrast(colours["error-fg"], slate_bg) >= 4.5
    for name in ("mark-pass", "mark-fail", "mark-skipped", "summary-bg"):
        assert contrast(slate_fg, colours[name]) >= 4.5, name
    link = re.search(r"--md-typeset-a-color: (#[0-9a-f]{6})", css)
    assert link is not None and contrast(link[1], "#272a35") >= 4.5  # on code in a panel


FRAGMENTS = [
    "# Title", "## Check your understanding", "## Quiz", "### Which one?", "## Specifications",
    "### Interfaces", "Symbols and units", "Notation", "Answer and reasoning", "Solution",
    "Answer: 4", "Assumptions", "Assumptions The model holds.", "T\\_q,T\\_k", "d\\_k", "x̂ᵢ",
    "Var", "Query width", "coordinates", "1. One\n2. Two", "- a\n- b", "$$\nx = y\n$$",
    "Is it $a_b$?", "A sentence that is prose. It has two sentences.", "Label", "Value x",
    "Context of it.", "Endpoint Output", "<b>raw</b>", "<img src=x onerror=alert(1)>", "`code`",
    "    indented code", "> quote", "| a | b |\n| - | - |\n| 1 | 2 |", "---", "",
    "Symbols and units\n\nd\\_k\n\nQuery width\n\ncoordinates\n\nτ\n\nTemperature\n\nnone",
    "## Quiz\n\n### Which?\n\n1. A\n2. B\n\nAnswer and reasoning\n\nA\n\nBecause A.",
    "## Specifications\n\nLine rate\n\n32 GT/s\n\nPer lane.\n\n### Interfaces\n\nHost Input\n\nTLP",
]  # fmt: skip


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    pieces=st.lists(st.sampled_from(FRAGMENTS), min_size=1, max_size=30),
    spans=st.lists(st.tuples(st.integers(0, 2000), st.integers(1, 120)), max_size=4),
)
def test_structures_never_lose_an_anchor_or_break_the_page(
    pieces: list[str], spans: list[tuple[int, int]]
) -> None:
    content = "\n\n".join(pieces) + "\n"
    marks = [
        markup.Mark(f"claim-m{n}", start, min(len(content), start + size), "atlas-claim", "t")
        for n, (start, size) in enumerate(spans)
        if start < len(content)
    ]
    rendered = markup.render(content, marks, targets={"section-2": ["claim-q"]})
    parts = structures.arrange(rendered.parts, lesson.build(content))

    def ids(items: list[markup.Part]) -> list[str]:
        html = "".join(p.html if p.heading is None else p.heading.html for p in items)
        return sorted(re.findall(r'\sid="([^"]+)"', html))

    assert ids(parts) == ids(rendered.parts)
    for before, after in zip(parts, parts[1:], strict=False):
        assert before.first_line <= before.last_line <= after.first_line
    assert_inert("".join(p.html for p in parts))
