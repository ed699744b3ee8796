"""Math the site can render in bounded time (no macro definitions, bounded size), and
that is math at all: a `$$` that opens no formula is shown as prose.

The limits and why are in `atlas_build/mathlimits.py`; `build`'s renderer enforces them
again. A 3 KB `\\def` chain passed `check` in 1 s and hung `build` with about 1 GB before.
"""

from __future__ import annotations

from collections.abc import Iterator

from atlas_build.diagnostics import Diagnostic, Severity, at, define
from atlas_build.lesson.context import RULES, LessonSubject
from atlas_build.mathlimits import MAX_FORMULA, MAX_TOTAL, macro_definitions

STAGE = "lesson"
MACRO = define(
    "A340",
    "math-macro-definition",
    Severity.ERROR,
    "A formula defines a macro (`\\def`, `\\newcommand`, `\\let`, ...). Macros can expand "
    "without bound when the site renders the math, so lessons may not define them.",
    example="$$\\def\\a{xx}\\def\\b{\\a\\a}\\b$$",
    fix="Write the formula out; use `\\operatorname{name}` instead of `\\DeclareMathOperator`.",
    stage=STAGE,
)
TOO_LARGE = define(
    "A341",
    "math-too-large",
    Severity.ERROR,
    f"A formula is longer than {MAX_FORMULA:,} characters, or the lesson's formulas together "
    f"are longer than {MAX_TOTAL:,}; rendering them would take too long.",
    example="a 200,000-character display equation",
    fix="Split the formula, or move data into a table or a claims file.",
    stage=STAGE,
)

UNCLOSED = define(
    "A342",
    "math-unclosed",
    Severity.ERROR,
    "A `$$` opens a formula that is never closed: no later line ends in `$$` (a display "
    "equation, `$$` starting a paragraph), or its paragraph holds no closing `$$` (inline). "
    "The page shows the `$$` and the LaTeX as prose, and the lesson has one equation fewer, "
    "so claims that name equations by number name the wrong one. A display equation whose "
    "closing `$$` is missing runs on to the next one; A342 is then at the one that ran on.",
    example="`$$ E = mc^2` with no `$$` after it",
    fix="Close the formula with `$$` (a display equation holds no blank line), or write "
    "`\\$\\$` for dollar signs meant as text.",
    stage=STAGE,
)


@RULES.rule("math", order=45)
def check(subject: LessonSubject) -> Iterator[Diagnostic]:
    formulas = [math for block in subject.lesson.blocks for math in block.math]
    total = 0
    for math in formulas:
        for offset, command in macro_definitions(math.latex):
            message = f"\\{command} defines a macro; lessons may not define macros"
            yield at(MACRO, subject.at(math.offset + offset), message)
        total += len(math.latex)
        if len(math.latex) > MAX_FORMULA:
            message = f"formula of {len(math.latex):,} characters (limit {MAX_FORMULA:,})"
            yield at(TOO_LARGE, subject.at(math.offset), message)
    yield from _unclosed(subject)
    if total > MAX_TOTAL:
        message = f"the lesson's formulas have {total:,} characters together (limit {MAX_TOTAL:,})"
        yield at(TOO_LARGE, subject.at(formulas[0].offset), message)


def _unclosed(subject: LessonSubject) -> Iterator[Diagnostic]:
    """A342 where each formula left open starts. dollarmath pairs `$$` in order, and a
    display equation may run on over blank lines (`allow_blank_lines`), so a missing
    closing `$$` makes its equation end at the next equation's opening `$$` and leaves
    that one's closing `$$` unpaired: the open `$$` the parser sees is then a symptom, and
    the equation before it that holds a blank line (no LaTeX does) is where it starts."""
    content = subject.lesson.content
    runaway = [
        math
        for math in subject.lesson.display_math
        if any(not line.strip() for line in math.latex.strip("\n").split("\n"))
    ]
    for offset in sorted(o for block in subject.lesson.blocks for o in block.unclosed):
        before = [math for math in runaway if math.offset < offset]
        if not before:
            message = "`$$` opens a formula that is never closed; the page shows it as text"
            yield at(UNCLOSED, subject.at(offset), message)
            continue
        math = before[-1]
        runaway.remove(math)
        opening = content.rfind("$$", 0, math.offset)
        closing = content.find("$$", math.offset + len(math.latex.rstrip()))
        message = (
            f"`$$` opens a display equation that runs on past a blank line to the `$$` at "
            f"line {subject.at(closing).line}, so the `$$` at line {subject.at(offset).line} "
            "opens one that is never closed: close this equation where it ends"
        )
        yield at(UNCLOSED, subject.at(max(opening, 0)), message)
