"""Limits on lesson math shared by `check` (lesson/checks/math.py) and the site's renderer.

Macro definitions let a few kilobytes of LaTeX expand to millions of nodes when KaTeX
renders them, and KaTeX takes about 5 s per 100,000 characters (measured with pykatex on
this project's CI machine), so lesson math may define no macros and is bounded in size.
`check` reports what breaks these rules; the renderer refuses it again, so a lesson
published with `--allow-errors` cannot make `build` slow either.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

MAX_FORMULA = 10_000
MAX_TOTAL = 100_000
DEFINING = frozenset(
    """def gdef edef xdef let futurelet global long outer newcommand renewcommand
    providecommand newenvironment renewenvironment DeclareMathOperator DeclareRobustCommand
    expandafter csname""".split()
)
_COMMAND = re.compile(r"\\([A-Za-z]+)")


def macro_definitions(latex: str) -> Iterator[tuple[int, str]]:
    """(offset, command) of every macro-defining control sequence in `latex`."""
    for match in _COMMAND.finditer(latex):
        if match.group(1) in DEFINING:
            yield match.start(), match.group(1)
