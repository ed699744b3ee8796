"""Build-time math: LaTeX -> MathML with KaTeX, run in-process (pykatex embeds QuickJS).

Rendering happens after markdown conversion, on the math tokens of the dollarmath
plugin, so emphasis rules never see the MathML. Output is MathML only: browsers lay
it out natively, so the site needs no KaTeX CSS, fonts or script, and nothing is
fetched at view time. Each `<math>` carries its TeX source as `aria-label`, for readers
whose assistive technology does not speak MathML. KaTeX runs with `trust=False`:
commands that could carry links or HTML (`\\href`, `\\htmlId`, ...) come back as
error-coloured text, which is detected here and reported like a parse error.
"""

from __future__ import annotations

import re
from functools import lru_cache
from html import escape

import pykatex

from atlas_build.mathlimits import MAX_FORMULA, macro_definitions

# A colour no author would pick: KaTeX paints unsupported/untrusted commands with it.
ERROR_COLOR = "#c0ffe1"
_POSITION = re.compile(r"^(?P<message>.*?) at position (?P<position>\d+):", re.DOTALL)
_REFUSED = re.compile(
    r'<mstyle mathcolor="' + re.escape(ERROR_COLOR) + r'"><mtext>(?P<command>[^<]*)</mtext>'
)


class MathError(Exception):
    """A formula KaTeX will not render; `position` is a 0-based offset into the LaTeX."""

    def __init__(self, message: str, position: int | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.position = position


def render(latex: str, *, display: bool) -> str:
    """MathML (wrapped in KaTeX's `<span class="katex">`) for one formula, or MathError.

    The limits `check` enforces (lesson/checks/math.py) are enforced here again, so even a
    lesson published with errors cannot make KaTeX expand macros or chew on megabytes.
    Results are kept per process (a lesson writes `$x$` and `$d_k$` many times, and KaTeX
    in QuickJS was the largest single cost of rendering a page); errors are not kept, nor
    formulas longer than `_KEPT` characters, which bounds what the memo holds.
    """
    if len(latex) <= _KEPT:
        return _kept(latex, display)
    return _render(latex, display)


_KEPT = 256


@lru_cache(maxsize=2048)
def _kept(latex: str, display: bool) -> str:
    return _render(latex, display)


def _render(latex: str, display: bool) -> str:
    if len(latex) > MAX_FORMULA:
        raise MathError(f"formula of {len(latex):,} characters (limit {MAX_FORMULA:,})")
    for offset, command in macro_definitions(latex):
        raise MathError(f"\\{command} defines a macro; lessons may not define macros", offset)
    try:
        html: str = pykatex.renderToString(
            latex,
            displayMode=display,
            output="mathml",
            throwOnError=True,
            strict="ignore",
            trust=False,
            errorColor=ERROR_COLOR,
        )
    except pykatex.ParseError as error:
        raise _parse_error(str(error), latex) from None
    except Exception as error:  # KaTeX runs JS: any failure there is a LaTeX problem to report
        raise MathError(f"KaTeX failed: {error}") from None
    refused = _REFUSED.search(html)
    if refused is not None:
        command = refused.group("command")
        found = latex.find(command)
        raise MathError(
            f"{command} is not supported here (KaTeX renders it only for trusted input)",
            found if found >= 0 else None,
        )
    label = escape(" ".join(latex.split()), quote=True)
    return html.replace("<math", f'<math aria-label="{label}"', 1)


def _parse_error(text: str, latex: str) -> MathError:
    """KaTeX writes `<message> at position N: <excerpt>` with N 1-based."""
    text = text.removeprefix("KaTeX parse error: ")
    match = _POSITION.match(text)
    if match is not None:
        return MathError(match.group("message").strip(), int(match.group("position")) - 1)
    head, found, _ = text.partition(" at end of input")
    if found:
        return MathError(head.strip() + found, len(latex))
    return MathError(text.strip())
