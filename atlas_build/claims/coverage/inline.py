"""Relations stated in inline math (`$g_m = I_D/V_{ov}$`): counted, dimension-checked,
and never taken as proved.

Inline math that states a value (`$f_c \\approx 1600\\,\\mathrm{Hz}$`) is prose: its
numbers are counted with the others (`prose/exempt.py`). Inline math that relates symbols
(`=`, `≈`, `<`, `∝`... with symbols on both sides) is a relation like a display equation's,
but no claim addresses it: its status is `unchecked` when the author lists it under
`unchecked: [{inline: ..., reason: ...}]`, else `unverified` (A413, a warning in a lesson
with a claims file), which keeps the lesson partly verified. Its dimensions are checked
like any relation's (A420 when they disagree).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from functools import lru_cache
from typing import Any

import sympy

from atlas_build.claims import codes
from atlas_build.claims.binding.anchors import scripts
from atlas_build.claims.coverage import dimensions
from atlas_build.claims.prose import numbers
from atlas_build.claims.prose.exempt import RELATION
from atlas_build.diagnostics import Diagnostic, at
from atlas_build.latex import LatexError, Relation, parse_relations
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


@lru_cache(maxsize=512)
def _parsed(latex: str) -> tuple[Relation, ...]:
    """The formula's relations (none when it does not read): `symbolic` and `evaluated`
    both read every inline formula of a lesson."""
    try:
        return tuple(parse_relations(latex))
    except (LatexError, RecursionError, ValueError, TypeError, ArithmeticError):
        return ()


def _relates(latex: str) -> bool:
    return any(_named(r.lhs) and _named(r.rhs) for r in _parsed(latex))


def _named(side: Any) -> bool:
    """Whether a side holds a symbol, a unit after a number aside (`1600 Hz`)."""
    return bool(getattr(_bare(side), "free_symbols", None))


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


# The number a relation ends in, with an optional LaTeX unit: `\approx 33.98\,\mathrm{dB}`.
_WRITTEN = re.compile(
    r"(?<![0-9.])([0-9]+(?:\.([0-9]+))?)\s*(?:(?:\\[,;: ]|~)\s*)*"
    r"(?:\\(?:mathrm|text)\{[^{}]*\}|\\%)?\s*$"
)
_MAX_OPS = 200
_MAX_EXPONENT = 400


def evaluated(
    lesson: Lesson, locator: Locator, diagnostics: list[Diagnostic]
) -> tuple[dict[str, int], list[int], list[int]]:
    """Inline math that computes a number (`$G = 20\\log_{10}(50) \\approx 33.98$`): each
    relation between a closed expression holding a function or constant (log, √, π...)
    and the number it ends in is evaluated, to half a unit in that number's last digit; a
    wrong one is A408, like prose arithmetic; so is plain arithmetic that prose's own
    check cannot read (`2^{30}/10^{9} \\approx 1.074`).
    Returns the tally and the content offsets of the wrong numbers and of the right ones
    (a result that holds is verified, as the result of prose arithmetic is)."""
    tally = {"checked": 0, "wrong": 0}
    wrong: list[int] = []
    held: list[int] = []
    for math in lesson.inline_math:
        if not RELATION.search(math.latex):
            continue
        for relation in _parsed(math.latex):
            written = _WRITTEN.search(relation.source)
            if relation.op not in ("=", "approx") or written is None:
                continue
            expression, stated = _bare(relation.lhs), _bare(relation.rhs)
            if getattr(stated, "free_symbols", True):
                continue
            if not (_computable(expression) or _worked(relation.source, math.latex, expression)):
                continue
            try:
                left, right = sympy.N(expression, 30), sympy.N(stated, 30)
            except (ValueError, TypeError, ArithmeticError, RecursionError):
                continue
            if not (left.is_real and right.is_real):
                continue
            tally["checked"] += 1
            allowed = sympy.Rational(1, 2) * sympy.Integer(10) ** -len(written.group(2) or "")
            if abs(left - right) <= allowed * (1 + sympy.Rational(1, 10**9)):
                held.append(math.offset + relation.start + written.start(1))
                continue
            tally["wrong"] += 1
            wrong.append(math.offset + relation.start + written.start(1))
            where = locator.content(math.offset + relation.start)
            value = sympy.sstr(sympy.N(left, 6))
            message = (  # in a chain (`G = 20\log_{10}(50) \approx 33.98`) the middle computes
                f"`{relation.source.strip()}`: it computes {value}, not {written.group(1)}"
            )
            diagnostics.append(at(codes.ARITHMETIC, where, message))
    return tally, wrong, held


def _bare(side: Any) -> Any:
    try:
        return side.replace(lambda e: type(e).__name__ == "WithUnit", lambda e: e.args[0])
    except (AttributeError, TypeError):
        return side


_SIDES = re.compile(r"=|\\approx|\\simeq|\\sim")
_OPERATION = re.compile(r"[\^/+*×·]|\\(?:frac|cdot|times|div)(?![A-Za-z])|(?<=[0-9}])\s*[-−]")


def _worked(source: str, latex: str, expression: Any) -> bool:
    """Plain arithmetic written in LaTeX (`2^{30}/10^{9} \\approx 1.074`): SymPy has folded
    it to a number, and prose's own arithmetic check cannot read it (when it can, `6/2 = 3`,
    it is checked there, once)."""
    if not getattr(expression, "is_Number", False):
        return False
    if not _OPERATION.search(_SIDES.split(source, maxsplit=1)[0]):
        return False
    return not any(isinstance(item, numbers.Arithmetic) for item in numbers.extract(latex))


def _computable(expression: Any) -> bool:
    """A closed, small expression that holds a function or a constant (`\\log_{10}(50)`,
    `\\sqrt{2}`, `\\pi`); none that could make evaluation expensive."""
    if not isinstance(expression, sympy.Expr) or expression.free_symbols:
        return False
    if sympy.count_ops(expression) > _MAX_OPS:
        return False
    for power in expression.atoms(sympy.Pow):
        if power.exp.is_Number and abs(power.exp) > _MAX_EXPONENT:
            return False
    special = expression.atoms(sympy.Function) or expression.atoms(sympy.NumberSymbol)
    return bool(special) or any(not p.exp.is_Integer for p in expression.atoms(sympy.Pow))
