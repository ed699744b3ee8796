"""Relations a worked computation writes out with numbers: `AMAT = 1.2 + 0.04 × 25 = 2.2 ns`
is `AMAT = t₁ + m₁P₁` at an example.

Lessons show a formula at work by putting numbers in its place. When a working has the
form of a relation's right side, one number standing for each of its symbols (compared as
SymPy trees, so `25 × 0.04 + 1.2` has the same form), and the words just before it name
the relation's left side (its symbol as the prose spells it, or every word of the meaning
the glossary gives it), the working is that relation evaluated at the lesson's own
example. The arithmetic check proves the working gives its stated result; with it, the
relation is verified by example. Nothing here reports an error: a working that fits no
relation, or whose arithmetic is wrong, is the arithmetic check's to report.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator
from dataclasses import replace

import sympy

from atlas_build.claims.coverage.dimensions import lesson_units
from atlas_build.claims.infer import statements
from atlas_build.claims.infer.found import Found, Pin
from atlas_build.claims.infer.model import Relations
from atlas_build.claims.prose import arithmetic, numbers
from atlas_build.latex import Relation
from atlas_build.lesson.model import Lesson
from atlas_build.units import UnitSpec

MAX_OPERANDS = 8  # a working's numbers matched against a relation's symbols
_CLAUSE = re.compile(r"[.;:!?,](?:\s|$)|\n")
_NAMED = re.compile(r"(?:^|[\s(,])((?:[^\s=≈]{1,40}))[ \t\u00a0\u202f]*(?:=|≈)[ \t\u00a0\u202f]*$")
_WORD = re.compile(r"[A-Za-z][A-Za-z0-9-]*")
_SYMBOL = re.compile(r"(?<![\w\\])[A-Za-zΑ-Ωα-ωϑϕϵµΔ∆][\w′'ᵢ-ᵥₐ-ₜ₀-₉]*(?:\\?_\{?[\w,.+\-]+\}?)?")


EQUALS, SYMBOL, MEANING = "equals", "symbol", "meaning"  # how a clause names a symbol


def found(
    lesson: Lesson, relations: Relations, paragraphs: list[statements.Paragraph]
) -> list[Found]:
    """A check for every working that instantiates one of `relations` (see the module
    docstring), in reading order."""
    return [check for check, _ in matched(lesson, relations, paragraphs)]


def matched(
    lesson: Lesson, relations: Relations, paragraphs: list[statements.Paragraph]
) -> list[tuple[Found, Pin | None]]:
    """`found`'s checks, each with the claim that restates it (None where a number does
    not convert to its symbol's unit)."""
    names = statements.Names(lesson)
    entries = [entry for glossary in lesson.glossaries for entry in glossary.entries]
    meanings: dict[str, frozenset[str]] = {}
    for entry in entries:  # one meaning per symbol: its own entry's, the first glossary's
        if len(entry.names) == 1:
            meanings.setdefault(
                entry.names[0], statements.meaning_words(statements.meaning_head(entry.meaning))
            )
    labels = statements.labels(lesson)
    table = lesson_units(lesson)
    checks: list[tuple[Found, Pin | None]] = []
    for paragraph in paragraphs:
        text = lesson.content[paragraph.start : paragraph.end]
        for item in paragraph.worked:
            if item.problem or not 2 <= len(item.operands) <= MAX_OPERANDS:
                continue
            named = _named(_clause_before(text, item.start), names, meanings)
            if named is None or not _fits(item.result, named[0], table):
                continue
            symbol, how = named
            forms: dict[frozenset[int], sympy.Expr | None] = {}  # read once per working
            for equation, index, relation in _candidates(relations, symbol):
                target = _solved(relation.lhs, relation.rhs, symbol)
                match = None if target is None else _instance(item, target, forms)
                if match is None:
                    continue
                groups = _groups(target, match)
                if not _evidence(item, relation, symbol, how, groups, table):
                    continue
                if arithmetic.judge(item).status != "verified":
                    break
                shift = paragraph.start
                solved = (
                    ""
                    if relation.lhs == sympy.Symbol(symbol)
                    else f" for {labels.get(symbol, symbol)}"
                )
                anchor = (item.result.start + shift, item.result.end + shift)
                check = Found(
                    equation,
                    index,
                    True,
                    False,
                    anchor,
                    tuple((o.start + shift, o.end + shift) for o in item.operands),
                    f"equation {equation} `{relation.source.strip()}`: "
                    f"{item.text.strip()} is its form{solved} ({_shown(item, groups, labels)})",
                )
                key = (equation, index, relation)
                checks.append((check, _pin(key, anchor, item, symbol, groups, table)))
                break
    return checks


def _pin(
    key: tuple[int, int, Relation],
    anchor: tuple[int, int],
    item: numbers.Arithmetic,
    symbol: str,
    groups: list[tuple[list[str], list[int]]],
    table: dict[str, UnitSpec],
) -> Pin | None:
    """The working as a claim: each operand the value of the symbol it stands for. The
    factors of a product are told apart by their units alone (`0.1 × 60` for m₁P₁ is not
    pinned: a claim would have to say which is which)."""
    equation, index, relation = key
    values: list[tuple[str, object]] = []
    for symbols, positions in groups:
        for k in positions:
            operand = item.operands[k]
            fits = [n for n in symbols if operand.unit is not None and _fits(operand, n, table)]
            name = symbols[0] if len(symbols) == 1 else (fits[0] if len(fits) == 1 else None)
            value = None if name is None else statements.in_unit(operand, table.get(name))
            if name is None or value is None or any(name == n for n, _ in values):
                return None
            values.append((name, value))
    result = statements.in_unit(item.result, table.get(symbol))
    if result is None:
        return None
    computes = relation.lhs == sympy.Symbol(symbol) and relation.op in ("=", ":=")
    return Pin(equation, index, anchor, symbol, result, tuple(values), computes)


def _candidates(relations: Relations, symbol: str) -> list[tuple[int, int, Relation]]:
    """The relations a working of `symbol` may instantiate: those that define it (it is
    their left side), or when none does, every relation with it, solved for it."""
    defining = [item for item in relations.items if item[2].lhs == sympy.Symbol(symbol)]
    return defining or list(relations.items)


def _fits(quantity: numbers.Quantity, name: str, table: dict[str, UnitSpec]) -> bool:
    """Whether a number can be a value of symbol `name`: written without a unit, or in one
    that converts to the glossary's (`4.8 K` is no c_p)."""
    if quantity.unit is None:
        return True
    return statements.in_unit(quantity, table.get(name)) is not None


def _evidence(
    item: numbers.Arithmetic,
    relation: Relation,
    symbol: str,
    how: str,
    groups: list[tuple[list[str], list[int]]],
    table: dict[str, UnitSpec],
) -> bool:
    """Whether more than the form says the working is this relation at work: every operand
    written with a unit fits a symbol it stands for; a relation solved for another symbol
    than its left side needs that symbol named as `X =` or the result's unit to say so;
    the product or quotient of two symbols, which any two numbers multiplied have the form
    of, needs the clause to name the symbol by `X =` or by its meaning, or every operand's
    unit to fit its symbol (only the units, when the relation is solved for it)."""
    operands = item.operands
    fitted = True
    for symbols, positions in groups:
        for k in positions:
            if operands[k].unit is None:
                fitted = False
            elif not any(_fits(operands[k], s, table) for s in symbols):
                return False
    if relation.lhs != sympy.Symbol(symbol) and how != EQUALS and item.result.unit is None:
        return False
    rhs = _solved(relation.lhs, relation.rhs, symbol)
    binary = rhs is not None and len(rhs.free_symbols) == 2 and not isinstance(rhs, sympy.Add)
    if binary and relation.lhs != sympy.Symbol(symbol):
        return fitted  # solved for another symbol: only the units can tell its factors
    return not binary or how in (EQUALS, MEANING) or fitted


def _groups(rhs: sympy.Expr, match: list[tuple[str, int]]) -> list[tuple[list[str], list[int]]]:
    """The symbols matched, grouped where the relation treats them alike (the factors of a
    product), with the operands that stand for them: a working cannot say which of those
    numbers is which symbol."""
    groups: list[tuple[list[str], list[int]]] = []
    for name, k in match:
        home = next((g for g in groups if _alike(rhs, g[0][0], name)), None)
        if home is None:
            groups.append(([name], [k]))
        else:
            home[0].append(name)
            home[1].append(k)
    return groups


def _shown(
    item: numbers.Arithmetic, groups: list[tuple[list[str], list[int]]], labels: dict[str, str]
) -> str:
    """`1.2 → t₁; 0.04, 25 → m₁, P₁`: which number stands for which symbol, as far as the
    form tells."""
    parts = []
    for symbols, positions in groups:
        written = ", ".join(item.operands[k].text.strip() for k in positions)
        parts.append(f"{written} → {', '.join(labels.get(n, n) for n in symbols)}")
    return "; ".join(parts)


def _alike(expression: sympy.Basic, first: str, second: str) -> bool:
    """Whether swapping two symbols leaves the expression as it is."""
    a, b = sympy.Symbol(first), sympy.Symbol(second)
    return bool(expression.xreplace({a: b, b: a}) == expression)


def _clause_before(text: str, start: int) -> str:
    """The words of the clause a working starts in, up to the working."""
    head = text[max(0, start - 120) : start]
    cuts = list(_CLAUSE.finditer(head))
    return head[cuts[-1].end() :] if cuts else head


def _named(
    before: str, names: statements.Names, meanings: dict[str, frozenset[str]]
) -> tuple[str, str] | None:
    """The symbol the words before a working name, whose value it works out, and how:
    `AMAT =` (the symbol as prose spells it, `EQUALS`), the first symbol the clause names
    (`The EIRP is`, `SYMBOL`), or the one whose glossary meaning the words give in full
    (`the L1 miss penalty is`: every word, at least two, of what the meaning names,
    `statements.meaning_head`; the longest such meaning, `MEANING`)."""
    named = _NAMED.search(before)
    if named is not None and (symbol := names.find(named.group(1))) is not None:
        return symbol, EQUALS
    for token in _SYMBOL.findall(before):
        if len(token) > 1:  # one letter alone is as often a word (`a`, `A`, `I`) as a symbol
            symbol = names.find(token)
            if symbol is not None:
                return symbol, SYMBOL
    words = {w.lower() for w in _WORD.findall(before)}
    given = [(len(m), n) for n, m in meanings.items() if len(m) >= 2 and m <= words]
    if not given:
        return None
    longest = max(size for size, _ in given)
    best = [n for size, n in given if size == longest]
    return (best[0], MEANING) if len(best) == 1 else None


@functools.lru_cache(maxsize=4096)
def _solved(lhs: sympy.Basic, rhs: sympy.Basic, name: str) -> sympy.Expr | None:
    """The relation as `name = expression`: its right side when `name` is its left side,
    else the relation solved for `name` where it occurs once, through sums, products and
    reciprocals (`Z = ΔV/ΔI` for ΔV: `ΔI·Z`; for ΔI: `ΔV/Z`); None otherwise. Solved by
    undoing one operation at a time: `sympy.solve` took most of a lesson's time here."""
    if not (isinstance(lhs, sympy.Expr) and isinstance(rhs, sympy.Expr)):
        return None
    symbol = sympy.Symbol(name)
    if lhs == symbol and symbol not in rhs.free_symbols:
        return rhs
    if rhs == symbol and symbol not in lhs.free_symbols:
        return lhs
    difference = lhs - rhs
    if difference.count(symbol) != 1:
        return None  # absent, or in several places
    return _isolated(difference, symbol, sympy.Integer(0))


_INVERSES = {sympy.Integer(-1): sympy.Integer(-1), sympy.Rational(1, 2): sympy.Integer(2)}


def _isolated(expression: sympy.Expr, symbol: sympy.Symbol, value: sympy.Expr) -> sympy.Expr | None:
    """`symbol` from `expression = value`, where `symbol` occurs once in `expression`."""
    for _ in range(64):  # bounded: a relation is never this deep where it matters
        if expression == symbol:
            return value
        if isinstance(expression, sympy.Add):
            inner, rest = expression.as_independent(symbol, as_Add=True)[::-1]
            expression, value = inner, value - rest
        elif isinstance(expression, sympy.Mul):
            inner, rest = expression.as_independent(symbol, as_Add=False)[::-1]
            if rest == 0:
                return None
            expression, value = inner, value / rest
        elif isinstance(expression, sympy.Pow) and expression.exp in _INVERSES:
            expression, value = expression.base, value ** _INVERSES[expression.exp]
        else:
            return None
    return None


def _instance(
    item: numbers.Arithmetic, rhs: sympy.Expr, forms: dict[frozenset[int], sympy.Expr | None]
) -> list[tuple[str, int]] | None:
    """(symbol, operand index) pairs when the working is `rhs` with one operand for each of
    its symbols; None otherwise. `forms` keeps the working's forms (`_form`) already read,
    by the operands kept as numbers, for the next candidate relation."""
    symbols = sorted((s for s in rhs.free_symbols if isinstance(s, sympy.Symbol)), key=str)
    if not symbols or len(symbols) > len(item.operands):
        return None
    written = [atom for atom in rhs.atoms(sympy.Number) if atom != 0]
    constants = {c for atom in written for c in (atom, -atom, 1 / atom)}  # `/4` is `·1/4`
    for kept in _keeps(item, constants, len(symbols)):
        if kept not in forms:
            forms[kept] = _form(item, kept)
        form = forms[kept]
        if form is None:
            continue
        operands = {sympy.Symbol(f"_o{k}"): k for k in range(len(item.operands)) if k not in kept}
        wilds = {s: sympy.Wild(f"_w{n}") for n, s in enumerate(symbols)}
        pattern = rhs.xreplace(wilds)
        try:
            matched = form.match(pattern)
        except (TypeError, ValueError, RecursionError, AttributeError):
            continue
        if not matched or set(matched) != set(wilds.values()):
            continue
        chosen = [matched[wilds[s]] for s in symbols]
        if not all(c in operands for c in chosen) or len(set(chosen)) != len(chosen):
            continue
        if len(chosen) != len(operands) or pattern.xreplace(matched) != form:
            continue
        return [(s.name, operands[c]) for s, c in zip(symbols, chosen, strict=True)]
    return None


def _keeps(
    item: numbers.Arithmetic, constants: set[sympy.Basic], wanted: int
) -> Iterator[frozenset[int]]:
    """Which operands to keep as numbers: none, then those equal to a constant the relation
    writes (`(1 − 0.8)` for `1 − ρ`), when that leaves one operand per symbol."""
    yield frozenset()
    same = frozenset(k for k, o in enumerate(item.operands) if o.value in constants)
    if same and len(item.operands) - len(same) == wanted:
        yield same


def _form(item: numbers.Arithmetic, kept: frozenset[int]) -> sympy.Expr | None:
    """The working with its operands as symbols `_o0`, `_o1`, … (those in `kept` stay the
    numbers they are), read by the arithmetic parser itself. Operands written with units
    (`5 ns + 0.25 × 80 ns`) are read without them: the form is the same, and the units
    would scale it (`5 × 10⁻⁹`)."""
    shift = {
        k: sympy.Symbol(f"_o{k}") - operand.value
        for k, operand in enumerate(item.operands)
        if k not in kept
    }
    bare = replace(item, working=_unitless(item))
    try:
        measure = numbers.evaluate(bare, shift=shift)
    except (TypeError, ValueError, AttributeError, ArithmeticError, RecursionError):
        return None
    if measure is None or not isinstance(measure.value, sympy.Expr):
        return None
    return measure.value


def _unitless(item: numbers.Arithmetic) -> str:
    """The working with each operand written with a unit replaced by its number alone."""
    if all(operand.unit is None for operand in item.operands):
        return item.working
    parts, at = [], 0
    for operand in item.operands:
        start, end = operand.start - item.start, operand.end - item.start
        parts.append(item.working[at:start])
        parts.append(operand.text if operand.unit is None else _number_text(operand))
        at = end
    parts.append(item.working[at:])
    return "".join(parts)


def _number_text(operand: numbers.Quantity) -> str:
    """`1.5 µH` -> `1.5`: the operand as written, up to its unit."""
    assert operand.unit is not None
    cut = operand.text.rfind(operand.unit)
    return operand.text[:cut].rstrip() if cut > 0 else operand.text
