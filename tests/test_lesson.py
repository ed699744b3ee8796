"""The lesson model: blocks with lines and offsets, the structured parts Atlas lessons use
(glossaries, quizzes, assumptions, sources), and the checks on them (A301/A302, A310/A311,
A330/A331/A332), located in lesson.md files at `line:col`."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import yaml
from support import CITATIONS, CONTENT, PROBE_BODY, found, lesson_text

from atlas_build import lesson
from atlas_build.lesson.checks.quiz import normalize


def line_of(content: str, offset: int) -> int:
    return content.count("\n", 0, offset) + 1


# --- blocks ----------------------------------------------------------------------------------

SAMPLE = """Intro with $x^2$ inline and a [link](https://example.org/a).

# Title here

Para with $z$ and [second](https://example.org/b), again [third](https://example.org/b).

- item one
- item two with [l2](https://example.org/c)

1. first
2. second

$$
E = m c^2
$$

```python
# not a heading
x = 1
```

## Section B

Tail paragraph.
"""


@pytest.fixture(scope="module")
def sample() -> lesson.Lesson:
    return lesson.build(SAMPLE)


def test_blocks_kinds_lines_and_offsets(sample):
    expected = [
        ("paragraph", 1, "Intro with $x^2$"),
        ("heading", 3, "# Title here"),
        ("paragraph", 5, "Para with $z$"),
        ("list", 7, "- item one"),
        ("list", 10, "1. first"),
        ("math", 13, "$$\nE = m c^2"),
        ("code", 17, "```python\n# not a heading"),
        ("heading", 22, "## Section B"),
        ("paragraph", 24, "Tail paragraph."),
    ]
    got = [(block.kind, block.line, block.start) for block in sample.blocks]
    assert got == [(kind, line, SAMPLE.index(prefix)) for kind, line, prefix in expected]
    for block in sample.blocks:
        assert line_of(SAMPLE, block.start) == block.line
        assert block.start < block.end <= len(SAMPLE)


def test_block_spans_and_texts(sample):
    _, heading, para, bullets, numbers, math, code, second, tail = sample.blocks
    assert SAMPLE[heading.start : heading.end] == "# Title here\n"
    assert (heading.level, heading.text) == (1, "Title here")
    assert (second.level, second.text) == (2, "Section B")
    assert SAMPLE[math.start : math.end] == "$$\nE = m c^2\n$$\n"
    assert SAMPLE[tail.start : tail.end] == "Tail paragraph.\n"
    assert para.text == "Para with z and second, again third."
    assert not bullets.ordered and numbers.ordered
    assert [text for text, _ in bullets.items] == ["item one", "item two with l2"]
    assert [SAMPLE[offset:].split("\n")[0] for _, offset in bullets.items] == [
        "- item one",
        "- item two with [l2](https://example.org/c)",
    ]
    assert [text for text, _ in numbers.items] == ["first", "second"]
    assert [SAMPLE[offset:].split("\n")[0] for _, offset in numbers.items] == [
        "1. first",
        "2. second",
    ]
    assert "# not a heading" in code.text


def test_a_hash_line_inside_a_code_fence_is_no_heading(sample):
    assert [heading.text for heading in sample.headings] == ["Title here", "Section B"]
    assert sample.section_of(SAMPLE.index("# not a heading")).text == "Title here"
    assert sample.section_of(0) is None


def test_display_math_offset_points_at_the_latex(sample):
    (display,) = sample.display_math
    assert display.display and display.index == 0
    assert display.latex.strip() == "E = m c^2"
    assert SAMPLE[display.offset - 2 : display.offset] == "$$"
    assert SAMPLE[display.offset :].startswith(display.latex)


def test_inline_math_offsets(sample):
    assert [(math.latex, math.index, math.display) for math in sample.inline_math] == [
        ("x^2", 0, False),
        ("z", 1, False),
    ]
    for math, marked in zip(sample.inline_math, ("$x^2$", "$z$"), strict=True):
        assert math.offset == SAMPLE.index(marked) + 1
        assert SAMPLE[math.offset :].startswith(math.latex + "$")


def test_links_text_url_and_offsets(sample):
    got = [(link.text, link.url) for link in sample.links]
    assert got == [
        ("link", "https://example.org/a"),
        ("second", "https://example.org/b"),
        ("third", "https://example.org/b"),
        ("l2", "https://example.org/c"),
    ]
    offsets = [link.offset for link in sample.links]
    assert offsets == [
        SAMPLE.index("](https://example.org/a") + 2,
        SAMPLE.index("](https://example.org/b") + 2,
        SAMPLE.index("](https://example.org/b", SAMPLE.index("[third]")) + 2,
        SAMPLE.index("](https://example.org/c") + 2,
    ]
    for link in sample.links:
        assert SAMPLE[link.offset :].startswith(link.url)


def test_display_math_inside_a_list_and_single_line_math():
    content = "Intro.\n\n$$E=1$$\n\n- item\n\n  $$\n  H=4\n  $$\n"
    model = lesson.build(content)
    assert [math.latex.strip() for math in model.display_math] == ["E=1", "H=4"]
    assert [math.index for math in model.display_math] == [0, 1]
    for math in model.display_math:
        assert content[math.offset :].startswith(math.latex)
        assert content[math.offset - 2 : math.offset] == "$$"


def test_repeated_link_and_math_in_list_items_get_their_own_offsets():
    content = "- one $a$ [s](https://example.org/s)\n- two $a$ [s](https://example.org/s)\n"
    model = lesson.build(content)
    second_item = content.index("- two")
    assert [link.offset > second_item for link in model.links] == [False, True]
    assert [math.offset > second_item for math in model.inline_math] == [False, True]


# --- the structured parts of the seed --------------------------------------------------------


@pytest.fixture(scope="module")
def seed_content() -> str:
    record = json.loads((CONTENT / "attention" / "record.json").read_text(encoding="utf-8"))
    return record["content"]


@pytest.fixture(scope="module")
def seed_lesson(seed_content) -> lesson.Lesson:
    return lesson.build(seed_content)


def test_seed_glossaries(seed_lesson, seed_content):
    first, second = seed_lesson.glossaries
    assert first.section == "Scaled dot-product attention"
    assert [entry.symbol for entry in first.entries] == [
        "Q",
        "K",
        "V",
        "A",
        "Y",
        "M",
        "d_k",
        "d_v",
        "T_q,T_k",
        "q,k",
        "Var",
    ]
    assert second.section == "Trainable attention from Q/K/V through gradients · worked relation"
    assert [entry.symbol for entry in second.entries] == ["o", "a_j", "v_j", "s_j"]
    q = first.entries[0]
    assert (q.meaning, q.unit) == ("Query matrix for one attention head", "real T_q × d_k array")
    s_j = second.entries[-1]
    assert (s_j.meaning, s_j.unit) == ("Pre-softmax score", "dimensionless")
    for glossary in (first, second):
        assert seed_content[glossary.offset :].startswith("Symbols and units")
        for entry in glossary.entries:
            written = entry.symbol.replace("_", "\\_")
            assert seed_content[entry.offset :].startswith(written + "\n\n" + entry.meaning)


def test_seed_quizzes(seed_lesson, seed_content):
    got = [
        (quiz.question, [t for t, _ in quiz.options], quiz.answer) for quiz in seed_lesson.quizzes
    ]
    assert got == [
        (
            "What does the attention weight matrix mix?",
            ["CPU clocks", "Value vectors", "Raw electrical power"],
            "Value vectors",
        ),
        (
            "What is the derivative of output with respect to the first score?",
            ["−0.75.", "+0.75.", "Zero merely because attention probabilities sum to one."],
            "−0.75.",
        ),
        (
            "A packed query at slot7 belongs to a document starting at slot5. Which keys are "
            "allowed by this specimen?",
            ["Every earlier slot0–7", "Only slots5–7", "Only the next token at slot8"],
            "Only slots5–7",
        ),
    ]
    assert seed_lesson.quizzes[0].reasoning == (
        "Each row weights the value vectors available to that query."
    )
    assert seed_lesson.quizzes[2].reasoning.startswith("Both the same-instance constraint")
    for quiz in seed_lesson.quizzes:
        assert seed_content[quiz.offset :].startswith("### " + quiz.question)
        assert seed_content[quiz.answer_offset :].startswith(quiz.answer + "\n\n")
        for number, (text, offset) in enumerate(quiz.options, start=1):
            assert seed_content[offset:].startswith(f"{number}. {text}")


def test_seed_assumptions(seed_lesson, seed_content):
    got = [(item.section, item.text[:40]) for item in seed_lesson.assumptions]
    assert got == [
        ("Scaled dot-product attention", "The variance argument assumes independen"),
        (
            "Trainable attention from Q/K/V through gradients · worked relation",
            "Scalar value example, softmax over the a",
        ),
    ]
    for item in seed_lesson.assumptions:
        assert seed_content[item.offset :].startswith("Assumptions " + item.text[:30])


def test_seed_sources(seed_lesson, seed_content):
    assert [(link.text, link.url) for link in seed_lesson.sources] == [
        ("Vaswani et al. — Attention Is All You Need", "https://arxiv.org/abs/1706.03762"),
        ("Dao et al. — FlashAttention", "https://arxiv.org/abs/2205.14135"),
        ("Attention Is All You Need", "https://arxiv.org/html/1706.03762v7"),
        (
            "Megatron Bridge 0.3.1 · packed sequence boundaries",
            "https://docs.nvidia.com/nemo/megatron-bridge/0.3.1/training/packed-sequences.html",
        ),
    ]
    sources_at = seed_content.index("## Sources")
    for link in seed_lesson.sources:
        assert link.offset > sources_at
        assert seed_content[link.offset :].startswith(link.url + ")")


@pytest.mark.parametrize("slug", ["kv-cache", "softmax-temperature"])
def test_authored_lessons_have_the_seed_structure(slug):
    text = (CONTENT / slug / "lesson.md").read_text(encoding="utf-8")
    _, front, body = text.split("---\n", 2)
    metadata = yaml.safe_load(front)
    model = lesson.build(body)
    assert model.display_math and model.glossaries and all(g.entries for g in model.glossaries)
    assert len(model.quizzes) >= 1
    for quiz in model.quizzes:
        assert len(quiz.options) >= 2 and quiz.answer and quiz.reasoning
        assert normalize(quiz.answer) in {normalize(text) for text, _ in quiz.options}
    cited = {citation["url"] for citation in metadata["citations"]}
    assert {link.url for link in model.sources} <= cited
    assert {link.url for link in model.sources}


# --- checks, on lesson.md files --------------------------------------------------------------


@pytest.fixture
def write_lesson(content_dir: Path):
    def write(body: str, slug: str = "probe", **options: Any) -> tuple[Path, str]:
        folder = content_dir / slug
        folder.mkdir(parents=True, exist_ok=True)
        text = lesson_text(body, slug, **options)
        path = folder / "lesson.md"
        path.write_text(text, encoding="utf-8")
        return path, text

    return write


LESSON_CODES = {"A301", "A302", "A310", "A311", "A330", "A331", "A332", "A333"}


def lesson_findings(diagnostics) -> list[str]:
    return sorted(d.code for d in diagnostics if d.code in LESSON_CODES)


def test_the_probe_lesson_is_clean(write_lesson, diagnose, content_dir):
    write_lesson(PROBE_BODY)
    diagnostics = diagnose(content_dir)
    assert [d for d in diagnostics if d.severity == "error"] == []
    assert lesson_findings(diagnostics) == []
    model = lesson.build(PROBE_BODY)
    assert [entry.symbol for entry in model.glossaries[0].entries] == ["y", "a", "x"]
    assert [(quiz.answer, len(quiz.options)) for quiz in model.quizzes] == [("Doubles it", 2)]


def test_quiz_answer_not_among_options_is_a301_at_the_answer(write_lesson, diagnose, locate):
    body = PROBE_BODY.replace("\nDoubles it\n\ny is", "\nTriples it\n\ny is")
    path, text = write_lesson(body)
    diagnostics = diagnose(path.parent)
    assert found(diagnostics, "A301") == [locate(text, "Triples it")]
    (finding,) = [d for d in diagnostics if d.code == "A301"]
    assert finding.severity == "error" and finding.path.endswith("lesson.md")
    assert "Doubles it" in finding.message and "Triples it" in finding.message


def test_a301_location_in_a_crlf_lesson(content_dir, diagnose, locate):
    text = lesson_text(PROBE_BODY.replace("\nDoubles it\n\ny is", "\nTriples it\n\ny is"))
    text = text.replace("\n", "\r\n")
    path = content_dir / "probe" / "lesson.md"
    path.parent.mkdir()
    path.write_bytes(text.encode("utf-8"))
    assert found(diagnose(path), "A301") == [locate(text, "Triples it")]


def test_quiz_answer_is_compared_ignoring_case_and_spacing(write_lesson, diagnose):
    body = PROBE_BODY.replace("\nDoubles it\n\ny is", "\ndoubles   IT\n\ny is")
    path, _ = write_lesson(body)
    assert lesson_findings(diagnose(path.parent)) == []


def test_quiz_without_options_is_a302_at_the_question(write_lesson, diagnose, locate):
    body = PROBE_BODY.replace("1. Doubles it\n2. Halves it\n\n", "")
    path, text = write_lesson(body)
    diagnostics = diagnose(path.parent)
    assert found(diagnostics, "A302") == [locate(text, "### What does doubling")]
    assert found(diagnostics, "A301") == []


def test_quiz_without_answer_is_a302(write_lesson, diagnose, locate):
    body = PROBE_BODY.replace(
        "Answer and reasoning\n\nDoubles it\n\ny is proportional to x.\n\n", ""
    )
    path, text = write_lesson(body)
    assert found(diagnose(path.parent), "A302") == [locate(text, "### What does doubling")]


def test_sources_link_missing_from_citations_is_a310_at_the_link(write_lesson, diagnose, locate):
    body = PROBE_BODY + "- [Extra paper](https://example.org/extra)\n"
    path, text = write_lesson(body)
    diagnostics = diagnose(path.parent)
    assert found(diagnostics, "A310") == [locate(text, "https://example.org/extra")]
    assert found(diagnostics, "A311") == []


def test_citation_not_linked_is_a311_at_the_citation_url(write_lesson, diagnose, locate):
    citations = [*CITATIONS, {"title": "Unlinked", "url": "https://example.org/unlinked"}]
    path, text = write_lesson(PROBE_BODY, citations=citations)
    diagnostics = diagnose(path.parent)
    assert found(diagnostics, "A311") == [locate(text, "https://example.org/unlinked")]
    assert found(diagnostics, "A310") == []


@pytest.mark.parametrize(
    "url",
    ["javascript:alert(1)", "data:text/html,hello", "JaVaScRiPt:alert(1)", "vbscript:msgbox(1)"],
)
def test_unsafe_link_scheme_in_the_body_is_a330_at_the_link(write_lesson, diagnose, locate, url):
    body = PROBE_BODY.replace("A lesson written for the tests.", f"Click [here]({url}) now.")
    path, text = write_lesson(body)
    diagnostics = diagnose(path.parent)
    assert found(diagnostics, "A330") == [locate(text, url)]
    assert [d.severity for d in diagnostics if d.code == "A330"] == ["error"]


def test_unsafe_link_in_a_list_is_a330(write_lesson, diagnose, locate):
    body = PROBE_BODY + "- [bad](javascript:void(0))\n"
    path, text = write_lesson(body)
    assert found(diagnose(path.parent), "A330") == [locate(text, "javascript:void(0)")]


def test_relative_link_to_a_missing_lesson_is_a331(write_lesson, diagnose, locate):
    body = PROBE_BODY.replace(
        "A lesson written for the tests.", "See [nope](../nope/) and [ok](../other/)."
    )
    path, text = write_lesson(body)
    write_lesson(PROBE_BODY, slug="other")
    diagnostics = diagnose(path.parent.parent)
    mine = [d for d in diagnostics if d.path.endswith("probe/lesson.md")]
    assert found(mine, "A331") == [locate(text, "../nope/")]
    assert [d.severity for d in mine if d.code == "A331"] == ["error"]


@pytest.mark.parametrize(
    ("anchor", "broken"),
    [
        ("#section-99", True),
        ("#section-0", True),
        ("#no-such-heading", True),
        ("#section-2", False),
        ("#section-6", False),
        ("#section-7", True),
        ("#check-your-understanding", False),
        ("#linear-relation", False),
        ("#probe-lesson", False),
    ],
)
def test_anchors_must_match_a_section_or_heading_slug(
    write_lesson, diagnose, locate, anchor, broken
):
    body = PROBE_BODY.replace("A lesson written for the tests.", f"Jump [there]({anchor}).")
    path, text = write_lesson(body)
    expected = [locate(text, anchor)] if broken else []
    assert found(diagnose(path.parent), "A331") == expected


def test_link_to_an_atlas_lesson_not_in_content_is_a332_info(write_lesson, diagnose, locate):
    body = PROBE_BODY.replace(
        "A lesson written for the tests.",
        "See [far](/learn/atlas/far-away/), [up](https://semiaifoundry.com/learn/atlas/embedding/)"
        " and [near](/learn/atlas/other/).",
    )
    path, text = write_lesson(body)
    write_lesson(PROBE_BODY, slug="other")
    diagnostics = [d for d in diagnose(path.parent.parent) if d.path.endswith("probe/lesson.md")]
    assert found(diagnostics, "A332") == [
        locate(text, "/learn/atlas/far-away/"),
        locate(text, "https://semiaifoundry.com/learn/atlas/embedding/"),
    ]
    assert {d.severity for d in diagnostics if d.code == "A332"} == {"info"}
    assert found(diagnostics, "A331") == [] and found(diagnostics, "A330") == []


def test_the_seed_notes_its_lessons_outside_content(diagnose):
    diagnostics = diagnose(CONTENT / "attention")
    messages = [d.message for d in diagnostics if d.code == "A332"]
    assert any("'embedding'" in message for message in messages)
    assert not [d for d in diagnostics if d.code in LESSON_CODES - {"A332"}]


@pytest.mark.parametrize(
    ("html", "needle"),
    [
        ("<script>alert(1)</script>", "<script>"),
        ('<img src="x.png" onerror="alert(1)">', "onerror"),
        ('<a href="javascript:alert(1)">x</a>', 'href="javascript'),
        ('<iframe src="https://example.org/"></iframe>', "<iframe"),
        ("<style>body{display:none}</style>", "<style>"),
    ],
)
def test_active_raw_html_is_a333_at_the_tag(write_lesson, diagnose, locate, html, needle):
    body = PROBE_BODY.replace("A lesson written for the tests.", f"Look: {html} here.")
    path, text = write_lesson(body)
    diagnostics = diagnose(path.parent)
    assert found(diagnostics, "A333") == [locate(text, needle)]
    assert [d.severity for d in diagnostics if d.code == "A333"] == ["error"]


def test_active_raw_html_in_a_list_item_and_an_html_block(write_lesson, diagnose, locate):
    body = PROBE_BODY + '- a <b onclick="x()">bold</b> item\n\n<div>\n<script>1</script>\n</div>\n'
    path, text = write_lesson(body)
    assert found(diagnose(path.parent), "A333") == [
        locate(text, "onclick"),
        locate(text, "<script>"),
    ]


@pytest.mark.parametrize(
    "html",
    [
        '<span title="onion=1">quoted look-alike</span>',
        "<details><summary>More</summary>Text.</details>",
        '<a href="https://example.org/">fine</a>',
        "`<script>` in a code span",
    ],
)
def test_inert_raw_html_and_code_are_not_a333(write_lesson, diagnose, html):
    body = PROBE_BODY.replace("A lesson written for the tests.", f"Look: {html} here.")
    path, _ = write_lesson(body)
    assert found(diagnose(path.parent), "A333") == []


def test_a333_drops_what_the_site_sanitiser_drops() -> None:
    from atlas_build.lesson.checks import html
    from atlas_build.site.pages import sanitize

    assert html.DROPPED == sanitize._DROP_WITH_CONTENT
    for fragment in ('<img src="x" onerror="y()">', '<a href="javascript:y()">a</a>'):
        assert list(html.findings(fragment))
        assert sanitize.clean(fragment) != fragment
