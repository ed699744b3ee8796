"""Relations stated in inline math (`$g_m = I_D/V_{ov}$`): counted, dimension-checked,
and never taken as proved.

Inline math that states a value (`$f_c \\approx 1600\\,\\mathrm{Hz}$`) is prose: its
numbers are counted with the others (`prose`). Inline math that relates symbols (`=`,
`≈`, `<`, `∝`... with symbols on both sides) is a relation like a display equation's,
but no claim addresses it: its status is `unchecked` when the author lists it under
`unchecked: [{inline: ..., reason: ...}]`, else `unverified` (A413, a warning in a lesson
with a claims file), which keeps the lesson partly verified. Its dimensions are checked
like any relation's (A420 when they disagree).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from atlas_build.claims import codes, dimensions
from atlas_build.claims.anchors import scripts
from atlas_build.claims.prose import RELATION
from atlas_build.diagnostics import Diagnostic, at
from atlas_build.latex import LatexError, parse_relations
from atlas_build.lesson.model import Lesson, Math
from atlas_build.source import Locator
from atlas_build.units import UnitSpec

STATUSES = ("unchecked", "unverified")
_PROPORTIONAL = re.compile(r"\\propto(?![A-Za-z])|∝")
_DIGIT = re.compile(r"[0-9]")


def symbolic(math: Math) -> bool:
    """Whether inline math relates symbols: a relation with no number outside its sub- and
    superscripts (those are indices, `x_1`, `V_{ov}^2`), or one whose two sides both hold
    symbols (`Q = 2 n \\Delta T`, `P = n R T/V \\approx 99.15\\,\\mathrm{kPa}`); not a
    value (`f_c \\approx 1600\\,\\mathrm{Hz}`), which is prose."""
    latex = math.latex
    if math.display or not (RELATION.search(latex) or _PROPORTIONAL.search(latex)):
        return False
    kept = list(latex)
    for start, end in scripts(latex):
        kept[start:end] = " " * (end - start)
    return not _DIGIT.search("".join(kept)) or _relates(latex)


def _relates(latex: str) -> bool:
    try:
        found = parse_relations(latex)
    except (LatexError, RecursionError, ValueError, TypeError, ArithmeticError):
        return False
    return any(_named(r.lhs) and _named(r.rhs) for r in found)


def _named(side: Any) -> bool:
    """Whether a side holds a symbol, a unit after a number aside (`1600 Hz`)."""
    try:
        bare = side.replace(lambda e: type(e).__name__ == "WithUnit", lambda e: e.args[0])
    except (AttributeError, TypeError):
        return False
    return bool(getattr(bare, "free_symbols", None))


def relations(lesson: Lesson) -> list[Math]:
    return [math for math in lesson.inline_math if symbolic(math)]


def measure(
    lesson: Lesson,
    locator: Locator,
    table: Mapping[str, UnitSpec],
    listed: Mapping[int, str],
    *,
    has_claims: bool,
    symbols: list[str],
    diagnostics: list[Diagnostic],
) -> dict[str, Any]:
    """The report's `coverage.inline`: per symbolic inline relation its status and its
    dimension check; `listed` maps an inline formula's index to the author's reason."""
    counts = dict.fromkeys(STATUSES, 0)
    items = []
    for math in relations(lesson):
        where = locator.content(math.offset)
        reason = listed.get(math.index, "")
        status = "unchecked" if math.index in listed else "unverified"
        counts[status] += 1
        checked = _dimensions(math, table, symbols)
        if checked.get("status") == "inconsistent":
            message = f"inline relation `{math.latex}`: dimensions disagree: {checked['message']}"
            diagnostics.append(at(codes.DIMENSION, where, message))
        if status == "unverified" and has_claims:
            message = (
                f"inline relation `{math.latex[:80]}` is not checked: no claim addresses inline "
                "math; write it as a display equation so a claim can prove it, or list it "
                "under `unchecked` with a reason"
            )
            diagnostics.append(at(codes.INLINE_UNCHECKED, where, message))
        items.append(
            {"latex": math.latex[:200], "status": status, "reason": reason,
             "dimensions": checked, "line": where.line, "column": where.column}
        )  # fmt: skip
    return {"total": len(items), **counts, "items": items}


def _dimensions(math: Math, table: Mapping[str, UnitSpec], symbols: list[str]) -> dict[str, Any]:
    """The worst dimension status over the formula's relations."""
    try:
        found = parse_relations(math.latex, symbols=sorted(symbols))
    except (LatexError, RecursionError, ValueError, TypeError, ArithmeticError):
        return {
            "status": "not checked",
            "message": "the LaTeX dialect cannot read it",
            "unknown": [],
        }
    results = [dimensions.check(relation, table) for relation in found]
    for status in ("inconsistent", "incomplete", "not checked", "consistent"):
        for result in results:
            if result["status"] == status:
                return result
    return {"status": "not checked", "message": "", "unknown": []}
