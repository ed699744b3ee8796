"""The canonical (pandoc-padded) form of lesson markdown, headings and sections."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from atlas_build import markdown
from atlas_build.canonical import canonicalize, headings, normalize_newlines, sections
from atlas_build.recordhash import content_hash

PROPERTY = settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def sha256(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def structure(text: str) -> list[tuple[str, str, int, int | None, str]]:
    """The parsed block structure: what canonicalization must never change."""
    shape = []
    for token in markdown.parse(text):
        content = token.content if token.type in ("inline", "fence", "code_block") else ""
        level = token.level if token.type != "inline" else None
        shape.append((token.type, token.tag, token.nesting, level, content))
    return shape


# --- the seed: measured facts from the issue -------------------------------------------------


def test_seed_raw_content_does_not_hash_to_content_hash(seed):
    assert len(seed["content"]) == 10204
    assert sha256(seed["content"]) != seed["contentHash"]


def test_seed_canonical_form_reproduces_hash_and_length(seed):
    canonical = canonicalize(seed["content"])
    assert seed["contentLength"] == 10251
    assert len(canonical) == 10251
    assert sha256(canonical) == seed["contentHash"]
    assert content_hash(canonical) == seed["contentHash"]


def test_seed_sections_reproduced_exactly(seed):
    computed = [span.to_json() for span in sections(canonicalize(seed["content"]))]
    assert len(computed) == 20
    assert computed == seed["sections"]


def test_seed_canonical_form_is_a_fixed_point(seed):
    canonical = canonicalize(seed["content"])
    assert canonicalize(canonical) == canonical
    assert structure(canonical) == structure(seed["content"])


def test_seed_canonicalization_only_pads_list_markers(seed):
    raw_lines = seed["content"].split("\n")
    canonical_lines = canonicalize(seed["content"]).split("\n")
    assert len(raw_lines) == len(canonical_lines)
    changed = [(a, b) for a, b in zip(raw_lines, canonical_lines, strict=True) if a != b]
    assert len(changed) == 32
    for before, after in changed:
        assert before.replace(" ", "") == after.replace(" ", "")
        marker = before.split(" ", 1)[0]
        assert marker == "-" or marker.rstrip(".").isdigit()
        assert after.startswith(marker + " " * (4 - len(marker)))


# --- canonicalize: worked examples -----------------------------------------------------------


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        pytest.param("- x\n", "-   x\n", id="bullet-dash"),
        pytest.param("* x\n", "*   x\n", id="bullet-star"),
        pytest.param("+ x\n", "+   x\n", id="bullet-plus"),
        pytest.param("1. x\n2. y\n", "1.  x\n2.  y\n", id="ordered"),
        pytest.param("1) x\n", "1)  x\n", id="ordered-paren"),
        pytest.param("9. x\n10. y\n", "9.  x\n10. y\n", id="ordered-past-9"),
        pytest.param("10. x\n", "10. x\n", id="ordered-two-digits-stays"),
        pytest.param("100. x\n", "100. x\n", id="ordered-three-digits-stays"),
        pytest.param("-   x\n", "-   x\n", id="already-padded-bullet"),
        pytest.param("1.  x\n", "1.  x\n", id="already-padded-ordered"),
        pytest.param("- a\n  b\n", "-   a\n    b\n", id="continuation-moves"),
        pytest.param("- a\n\n  b\n", "-   a\n\n    b\n", id="loose-paragraph-moves"),
        pytest.param("- a\nlazy\n", "-   a\nlazy\n", id="lazy-continuation-stays"),
        pytest.param(
            "- a\n  - b\n    c\n", "-   a\n    -   b\n        c\n", id="nested-with-continuation"
        ),
        pytest.param("> - a\n>   b\n", "> -   a\n>     b\n", id="blockquoted-list"),
        pytest.param("- a\r\n- b\r\n", "-   a\n-   b\n", id="crlf"),
        pytest.param("- a\r- b\r", "-   a\n-   b\n", id="bare-cr"),
        pytest.param("```\n# x\n- y\n1. z\n```\n", "```\n# x\n- y\n1. z\n```\n", id="fence"),
        pytest.param("    - code\n", "    - code\n", id="indented-code"),
        pytest.param("-\n", "-\n", id="empty-item"),
        pytest.param("-     code in item\n", "-     code in item\n", id="indented-code-in-item"),
        pytest.param("para\n\n---\n", "para\n\n---\n", id="thematic-break"),
        pytest.param(
            "- a\n\n  ```\n  - y\n  ```\n",
            "-   a\n\n    ```\n    - y\n    ```\n",
            id="fence-in-item-moves-with-item",
        ),
        pytest.param("", "", id="empty"),
    ],
)
def test_canonicalize_examples(raw, expected):
    assert canonicalize(raw) == expected
    assert canonicalize(expected) == expected


@pytest.mark.parametrize(
    "raw",
    [
        pytest.param("1.   three\n    - nn\n", id="lazy-line-becomes-nested-list"),
        pytest.param("1.   three\n\n    more\n", id="code-block-becomes-item-paragraph"),
    ],
)
def test_overpadded_marker_keeps_structure(raw):
    canonical = canonicalize(raw)
    assert canonicalize(canonical) == canonical
    assert structure(canonical) == structure(raw)


def test_tab_indented_nested_item_keeps_structure():
    raw = "  - n\n\t- tab\n"
    assert structure(canonicalize(raw)) == structure(raw)


@pytest.mark.parametrize(
    "raw",
    [
        pytest.param("- a\n\n  > quote\n", id="loose"),
        pytest.param("- a\n  > quote\n", id="tight"),
        pytest.param("1. a\n\n   > q\n   > - b\n", id="list-in-quote-in-item"),
    ],
)
def test_blockquote_inside_list_item_keeps_structure(raw):
    assert structure(canonicalize(raw)) == structure(raw)


# --- canonicalize: properties over generated markdown ----------------------------------------

WORD = st.text(alphabet="abcdefghijklmnopqrstuvwxyz", min_size=1, max_size=6)
WORDS = st.lists(WORD, min_size=1, max_size=4).map(" ".join)


@dataclass
class Doc:
    lines: list[str] = field(default_factory=list)
    titles: list[str] = field(default_factory=list)


@st.composite
def fence(draw, indent: str = "") -> list[str]:
    body = draw(
        st.lists(
            st.one_of(
                WORDS.map(lambda w: "# " + w),
                WORDS.map(lambda w: "## " + w),
                WORDS.map(lambda w: "- " + w),
                WORDS.map(lambda w: "10. " + w),
                WORDS,
            ),
            min_size=1,
            max_size=4,
        )
    )
    ticks = draw(st.sampled_from(["```", "~~~", "````"]))
    return [indent + ticks] + [indent + line for line in body] + [indent + ticks]


@st.composite
def list_block(draw, depth: int = 0) -> list[str]:
    """A bullet or ordered list; continuation lines sit at their item's content column."""
    ordered = draw(st.booleans())
    bullet = draw(st.sampled_from("-*+"))
    delimiter = draw(st.sampled_from(".)"))
    start = draw(st.sampled_from([1, 1, 8, 9, 10, 98, 99, 100]))
    count = draw(st.integers(1, 3 if depth else 6))
    loose = draw(st.booleans())
    lines: list[str] = []
    for number in range(start, start + count):
        marker = f"{number}{delimiter}" if ordered else bullet
        padding = " " * draw(st.integers(1, 4))
        head = marker + padding
        inner = " " * len(head)
        lines.append(head + draw(WORDS))
        for _ in range(draw(st.integers(0, 2))):
            lines.append(inner + draw(WORDS))
        if draw(st.booleans()) and not loose:
            lines.append(draw(WORDS))  # lazy continuation at column 0
        if depth < 2 and draw(st.integers(0, 3)) == 0:
            if draw(st.booleans()):
                lines.append("")
            nested = draw(list_block(depth + 1))
            lines.extend(inner + line if line else "" for line in nested)
        if draw(st.integers(0, 4)) == 0:
            lines.append("")
            lines.extend(draw(fence(inner)))
        if loose:
            lines.append("")
            lines.append(inner + draw(WORDS))
            lines.append("")
    return lines


@st.composite
def document(draw) -> Doc:
    doc = Doc()
    for _ in range(draw(st.integers(1, 6))):
        kind = draw(
            st.sampled_from(["atx", "setext", "para", "fence", "list", "list", "quote-list"])
        )
        if kind == "atx":
            title = draw(WORDS)
            doc.lines.append("#" * draw(st.integers(1, 6)) + " " + title)
            doc.titles.append(title)
        elif kind == "setext":
            title = draw(WORDS)
            doc.lines.extend([title, draw(st.sampled_from(["===", "---", "=", "-----"]))])
            doc.titles.append(title)
        elif kind == "para":
            doc.lines.extend(draw(st.lists(WORDS, min_size=1, max_size=3)))
        elif kind == "fence":
            doc.lines.extend(draw(fence()))
        elif kind == "list":
            doc.lines.extend(draw(list_block()))
        else:
            doc.lines.extend(("> " + line).rstrip() for line in draw(list_block(1)))
        doc.lines.append("")
    return doc


@st.composite
def markdown_text(draw) -> tuple[str, Doc]:
    doc = draw(document())
    newline = draw(st.sampled_from(["\n", "\n", "\r\n"]))
    return newline.join(doc.lines), doc


@PROPERTY
@given(markdown_text())
@example(("- a\n  b\n\n10. c\n    d\n", Doc(titles=[])))
@example(("-   padded\n1.  padded\n100. x\n", Doc(titles=[])))
@example(("> - a\n>   b\n> - c\n", Doc(titles=[])))
@example(("```\n# no heading\n- no list\n```\n", Doc(titles=[])))
def test_canonicalize_is_idempotent(case):
    text, _ = case
    once = canonicalize(text)
    assert canonicalize(once) == once


@PROPERTY
@given(markdown_text())
def test_canonicalize_keeps_the_document_structure(case):
    text, _ = case
    canonical = canonicalize(text)
    assert "\r" not in canonical
    assert structure(canonical) == structure(normalize_newlines(text))


@PROPERTY
@given(markdown_text())
def test_canonicalize_only_changes_spaces_within_lines(case):
    text, _ = case
    normalized = normalize_newlines(text)
    canonical = canonicalize(text)
    assert canonical.count("\n") == normalized.count("\n")
    for before, after in zip(normalized.split("\n"), canonical.split("\n"), strict=True):
        assert before.replace(" ", "") == after.replace(" ", "")


@PROPERTY
@given(markdown_text())
def test_headings_found_by_parser_match_generated_ones(case):
    text, doc = case
    assert [heading.title for heading in headings(normalize_newlines(text))] == doc.titles
    assert [heading.title for heading in headings(canonicalize(text))] == doc.titles


@PROPERTY
@given(markdown_text())
def test_sections_partition_the_canonical_content(case):
    text, doc = case
    canonical = canonicalize(text)
    spans = sections(canonical)
    assert [span.id for span in spans] == [f"section-{n}" for n in range(1, len(doc.titles) + 1)]
    assert [span.title for span in spans] == doc.titles
    for span, following in zip(spans, spans[1:], strict=False):
        assert span.end == following.start
    if spans:
        assert spans[-1].end == len(canonical)
        for span in spans:
            assert span.start == 0 or canonical[span.start - 1] == "\n"
            assert span.start <= span.end


# --- headings and sections -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        pytest.param("# One\n## Two\n### Three\n", [("One", 1), ("Two", 2), ("Three", 3)]),
        pytest.param("Title\n=====\n\nSub\n---\n", [("Title", 1), ("Sub", 2)], id="setext"),
        pytest.param("```\n# not a heading\n```\n# real\n", [("real", 1)], id="fence"),
        pytest.param("~~~\n## nope\n~~~\n", [], id="tilde-fence"),
        pytest.param("    # indented code\n", [], id="indented-code"),
        pytest.param("#nospace\n", [], id="no-space"),
        pytest.param("<h1>html</h1>\n", [], id="html"),
        pytest.param("## Closed ##\n", [("Closed", 2)], id="closing-hashes"),
        pytest.param("   # three spaces\n", [("three spaces", 1)], id="indented-3"),
        pytest.param("$$\n# in math\n$$\n", [], id="display-math"),
    ],
)
def test_headings_come_from_the_parser(text, expected):
    assert [(h.title, h.level) for h in headings(text)] == expected


@pytest.mark.parametrize(
    ("text", "title"),
    [
        ("# Hello *world* and **bold**\n", "Hello world and bold"),
        ("# Use `code` here\n", "Use code here"),
        ("# A [link](https://example.com) in it\n", "A link in it"),
        ("# Escaped \\# hash\n", "Escaped # hash"),
        ("# A &amp; B\n", "A & B"),
        ("# Q/K/V · worked relation\n", "Q/K/V · worked relation"),
        ("Setext *emph*\n===\n", "Setext emph"),
    ],
)
def test_heading_titles_are_plain_text(text, title):
    assert [h.title for h in headings(text)] == [title]


def test_sections_start_at_heading_lines_and_skip_the_preamble():
    text = "preamble line\n\n# First\n\nbody\n\n## Second\ntext\n"
    spans = [span.to_json() for span in sections(text)]
    first, second = text.index("# First"), text.index("## Second")
    assert spans == [
        {"id": "section-1", "title": "First", "start": first, "end": second},
        {"id": "section-2", "title": "Second", "start": second, "end": len(text)},
    ]


def test_sections_count_code_points_not_bytes():
    text = "é😀\n# Ünïcode ✓\nbody 😀\n# Next\n"
    spans = sections(text)
    assert spans[0].start == 3
    assert spans[1].start == text.index("# Next")
    assert spans[1].end == len(text)


def test_no_headings_no_sections():
    assert sections("just a paragraph\n\n- and a list\n") == []
