"""A `$$` that opens no formula (lesson/parse.py notes it, lesson/checks/math.py reports it):
dollarmath leaves it as text without a word, so it is A342 where the open formula starts."""

from __future__ import annotations

from pathlib import Path

import pytest
from support import position, write_lesson

from atlas_build import pipeline
from atlas_build.lesson.parse import parse_blocks

HEAD = "## Science\n\n"


def _unclosed(tmp_path: Path, body: str) -> tuple[str, list]:  # type: ignore[type-arg]
    folder = write_lesson(tmp_path, "probe", HEAD + body, "claims: []\n")
    report, _ = pipeline.check([str(folder)], pipeline.Options())
    text = (folder / "lesson.md").read_text("utf-8")
    return text, [d for d in report.records[0].diagnostics if d.code == "A342"]


@pytest.mark.parametrize(
    ("body", "needle"),
    [
        ("$$\ny = 2 x\n\nWith x = 3, y = 6.\n", "$$"),  # closed by nothing before the end
        ("$$ y = 2 x\n\nText.\n", "$$"),  # LaTeX on the opening line
        ("The relation is\n$$\ny = 2 x\n", "$$"),  # after text, in the same paragraph
        ("The output is $$y = 2 x and more.\n", "$$"),  # inline
        ("- an item $$y = 2 x\n- another\n", "$$"),  # in a list item
        ("| a | b |\n|---|---|\n| 1 | $$y |\n", "$$"),  # in a table cell
        ("Closed $$a$$ here, open $$b there.\n", "$$b"),  # the open one of two
    ],
)
def test_an_unclosed_double_dollar_is_a342_where_it_opens(tmp_path, body, needle) -> None:
    text, found = _unclosed(tmp_path, body)
    [problem] = found
    assert (problem.line, problem.column) == position(text, needle, shift=0)
    assert problem.severity.value == "error"
    assert problem.message == "`$$` opens a formula that is never closed; the page shows it as text"


def test_a_display_equation_without_its_closing_runs_to_the_next(tmp_path) -> None:
    """The missing `$$` is after `a = 1`: dollarmath closes that equation at the next one's
    opening `$$`, and that one's closing `$$` is left open. The report is at the first."""
    body = "$$\na = 1\n\nText between.\n\n$$\nb = 2\n$$\n\nMore.\n"
    text, [problem] = _unclosed(tmp_path, body)
    assert (problem.line, problem.column) == position(text, "$$\na = 1")
    line = text[: text.index("b = 2")].count("\n")
    assert f"to the `$$` at line {line}, so the `$$` at line {line + 2} opens one" in (
        problem.message
    )


@pytest.mark.parametrize(
    "body",
    [
        "$$\ny = 2 x\n$$\n\nText.\n",
        "Inline $$y = 2 x$$ and $y$.\n",
        "Dollars \\$\\$ and \\$$ and `$$` in code.\n",
        "```\n$$\n```\n",
        "Prices: $$$ and $$$$.\n",
        "$$\ny = 2 x\n\n$$\n",  # a blank line inside, closed: the grammar allows it
    ],
)
def test_closed_or_escaped_dollars_are_fine(tmp_path, body) -> None:
    assert _unclosed(tmp_path, body)[1] == []


def test_the_parse_notes_each_open_pair_once() -> None:
    content = "Para $$x and y.\n\n$$\nz\n"
    blocks = parse_blocks(content)
    assert [block.unclosed for block in blocks] == [[5], [17]]
    assert [content[o : o + 2] for block in blocks for o in block.unclosed] == ["$$", "$$"]
