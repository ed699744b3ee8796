"""The "Symbols and units" glossaries and the display equations must agree.

Every glossary symbol should appear in some display equation, and every
single-letter symbol of an equation should be defined in a glossary. Names are
compared as the lesson-LaTeX parser reads them (`d_k`, `H_{\\mathrm{kv}}` ->
`H_kv`, `\\tau` -> `τ`); an entry like `a_j` stands for the family `a_1, a_2...`.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterator

import sympy

from atlas_build.diagnostics import Diagnostic, Severity, at, define
from atlas_build.lesson.context import RULES, LessonSubject

STAGE = "lesson"
UNUSED = define(
    "A320",
    "glossary-symbol-unused",
    Severity.WARNING,
    "A symbol defined under `Symbols and units` appears in none of the display equations.",
    example="a glossary entry `d_v` when no equation mentions d_v",
    fix="Use the symbol in an equation, or remove the entry (or move it into prose).",
    stage=STAGE,
)
UNDEFINED = define(
    "A321",
    "equation-symbol-undefined",
    Severity.WARNING,
    "A single-letter symbol of a display equation has no `Symbols and units` entry.",
    example="`y=a x` with a glossary that defines y and a but not x",
    fix="Add the symbol, its meaning and unit to the glossary.",
    stage=STAGE,
)


def _letter(name: str) -> str:
    """`tau` -> `τ`, `Delta` -> `Δ`; other names unchanged."""
    case = "CAPITAL" if name[:1].isupper() else "SMALL"
    try:
        return unicodedata.lookup(f"GREEK {case} LETTER {name.upper()}")
    except KeyError:
        return name


def _normal(name: str) -> str:
    base, _, sub = name.partition("_")
    return _letter(base) + ("_" + sub if sub else "")


INDEX_LETTERS = frozenset("ijklmnt")


def _is_family(name: str) -> bool:
    """`a_j`, `p_i`, `δ_ij`: a base with index letters, standing for many symbols."""
    base, _, sub = name.partition("_")
    return bool(sub) and len(sub) <= 2 and set(sub) <= INDEX_LETTERS


def equation_names(expressions: list[sympy.Basic]) -> tuple[set[str], set[str], set[str]]:
    """(names, indexed bases, bound variables) of the expressions. Summation and index
    variables, and symbols that only bound a sum, need no definition, but a glossary
    that explains them is still describing the equation."""
    names: set[str] = set()
    bases: set[str] = set()
    bound: set[str] = set()
    bound_only: set[sympy.Symbol] = set()
    for expression in expressions:
        for derivative in expression.atoms(sympy.Derivative):
            for variable, _ in derivative.variable_count:
                if isinstance(variable, sympy.Indexed):
                    bases.add(_normal(str(variable.base)))
                else:
                    names.add(_normal(str(variable)))
        for term in expression.atoms(sympy.Sum, sympy.Product):
            for limit in term.limits:
                bound.add(_normal(str(limit[0])))
                bound_only.update(s for part in limit[1:] for s in part.free_symbols)
        indices = {i for node in expression.atoms(sympy.Indexed) for i in node.indices}
        for node in expression.atoms(sympy.Indexed):
            bases.add(_normal(str(node.base)))
        elsewhere = expression.xreplace(
            {node: sympy.Integer(0) for node in expression.atoms(sympy.Indexed)}
        )
        for term in elsewhere.atoms(sympy.Sum, sympy.Product):
            elsewhere = elsewhere.xreplace({term: term.function})
        for symbol in expression.free_symbols:
            if isinstance(symbol, sympy.Indexed) or isinstance(symbol, sympy.IndexedBase):
                continue
            if symbol in indices and symbol not in elsewhere.free_symbols:
                continue
            if symbol in bound_only and symbol not in elsewhere.free_symbols:
                continue
            names.add(_normal(str(symbol)))
        for function in expression.atoms(sympy.core.function.AppliedUndef):
            names.add(str(function.func))
    return names, bases, bound


def _glossary_symbols(text: str) -> list[str]:
    return [_normal(part.strip()) for part in text.split(",") if part.strip()]


@RULES.rule("glossary", order=40)
def check(subject: LessonSubject) -> Iterator[Diagnostic]:
    from atlas_build.latex import LatexError, parse_relations

    lesson = subject.lesson
    if not lesson.glossaries:
        return
    expressions: list[sympy.Basic] = []
    for math in lesson.display_math:
        try:
            relations = parse_relations(math.latex)
        except (LatexError, RecursionError, ValueError):
            return  # the claims stage reports unparseable equations; do not guess
        expressions += [side for relation in relations for side in (relation.lhs, relation.rhs)]
    names, bases, bound = equation_names(expressions)
    defined: set[str] = set()
    for glossary in lesson.glossaries:
        for entry in glossary.entries:
            for symbol in _glossary_symbols(entry.symbol):
                defined.add(symbol)
                base = symbol.partition("_")[0]
                used = (
                    symbol in names
                    or symbol in bound
                    or (
                        _is_family(symbol)
                        and (base in bases or any(n.partition("_")[0] == base for n in names))
                    )
                )
                if not used:
                    message = f"glossary symbol {symbol!r} appears in no display equation"
                    yield at(UNUSED, subject.at(entry.offset), message)
    defined_bases = {symbol.partition("_")[0] for symbol in defined if _is_family(symbol)}
    for name in sorted(names | bases):
        single = len(name) == 1 and name.isalpha()
        if single and name not in defined and name not in defined_bases:
            first = lesson.display_math[0]
            where = next((m for m in lesson.display_math if name in m.latex), first)
            message = f"equation symbol {name!r} is not defined under `Symbols and units`"
            yield at(UNDEFINED, subject.at(where.offset), message)  # fmt: skip
