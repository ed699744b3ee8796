"""Math the site can render in bounded time: no macro definitions, bounded size.

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
    if total > MAX_TOTAL:
        message = f"the lesson's formulas have {total:,} characters together (limit {MAX_TOTAL:,})"
        yield at(TOO_LARGE, subject.at(formulas[0].offset), message)
