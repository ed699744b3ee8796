"""Dimension mutants: edits of a display equation's text that break its dimensions.

The three slips of issue 16, made in the LaTeX an author edits: square a factor
(`k_B T/q` -> `k_B T^{2}/q`), drop a divisor (`\\frac{k_B T}{q}` -> `{k_B T}`, `a/b` -> `a`)
and add a term of another dimension (`A = l^2` -> `A = l^2 + l`). Only relations the
lesson's symbol table shows consistent are edited, and an edit is kept only when the
relation it produces reads and is inconsistent, so a survivor is a real gap: the build
went green on an equation whose dimensions are wrong. At most one edit of each kind per
relation keeps selftest's cost linear in the number of relations.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Iterator, Mapping
from typing import Any

from atlas_build import units
from atlas_build.claims.coverage import dimensions, relations
from atlas_build.latex import LatexError
from atlas_build.latex.dialect import DEFAULT_MAX_LENGTH, WHITELIST
from atlas_build.latex.lexer import CHAR, CMD, LETTER, Token, tokenize
from atlas_build.lesson.model import Lesson, Math
from atlas_build.selftest.mutants import Mutant

KIND = "dimension"
_NAMED = frozenset({"greek", "font", "accent"})  # commands that spell one symbol
_SCRIPTS = frozenset({"_", "^"})


def _group_end(tokens: list[Token], index: int) -> int:
    """Index after the `{...}` group opening at `index`, or after the single token there."""
    if index >= len(tokens):
        return index
    if not tokens[index].is_char("{"):
        return index + 1
    depth = 0
    for position in range(index, len(tokens)):
        if tokens[position].is_char("{"):
            depth += 1
        elif tokens[position].is_char("}"):
            depth -= 1
            if depth == 0:
                return position + 1
    return len(tokens)


def _symbols(tokens: list[Token]) -> Iterator[tuple[int, int]]:
    """(first, after) token ranges of each symbol written outside scripts: a letter, a
    Greek letter or a `\\mathrm{..}`-style name, with its subscript; not one applied as a
    function (`f(x)`) or already raised to a power."""
    index = 0
    while index < len(tokens):
        token = tokens[index]
        previous = tokens[index - 1] if index else None
        if previous is not None and previous.kind == CHAR and previous.text in _SCRIPTS:
            index = _group_end(tokens, index)  # a script's contents are not factors
            continue
        command = WHITELIST.get(token.text) if token.kind == CMD else None
        if token.kind != LETTER and (command is None or command.kind not in _NAMED):
            index += 1
            continue
        after = index + 1
        if command is not None and command.kind in ("font", "accent"):
            after = _group_end(tokens, after)
        if after < len(tokens) and tokens[after].is_char("_"):
            after = _group_end(tokens, after + 1)
        following = tokens[after] if after < len(tokens) else None
        if following is None or not (following.is_char("(") or following.is_char("^")):
            yield index, after
        index = after


def _edits(
    latex: str, tokens: list[Token], start: int, end: int
) -> Iterator[tuple[str, int, int, str]]:
    """(description, start, end, replacement) candidates inside latex[start:end]."""
    inside = [i for i, token in enumerate(tokens) if start <= token.start and token.end <= end]
    if not inside:
        return
    low, high = inside[0], inside[-1] + 1
    local = tokens[low:high]
    spans = [(local[a].start, local[b - 1].end) for a, b in _symbols(local)]
    for a, b in reversed(spans):  # the right side's factors first: `d = v t` -> `v t^{2}`
        yield f"square {latex[a:b]!r}", a, b, latex[a:b] + "^{2}"
    for index, token in enumerate(local):
        command = WHITELIST.get(token.text) if token.kind == CMD else None
        if command is not None and command.kind == "fraction":
            numerator_end = _group_end(local, index + 1)
            denominator_end = _group_end(local, numerator_end)
            if denominator_end > numerator_end:
                a, b = token.start, local[denominator_end - 1].end
                numerator = latex[local[index + 1].start : local[numerator_end - 1].end]
                yield f"drop the divisor of {latex[a:b]!r}", a, b, numerator
        elif token.is_char("/") and index + 1 < len(local):
            divisor = list(_symbols(local[index + 1 :]))[:1]
            if divisor and divisor[0][0] == 0:
                b = local[index + divisor[0][1]].end
                yield f"drop the divisor {latex[token.start : b]!r}", token.start, b, ""
    last = latex[start:end].rstrip()
    tail = start + len(last)
    seen: set[str] = set()
    for a, b in spans:
        name = latex[a:b]
        if name not in seen:
            seen.add(name)
            at = tail - 1
            yield f"add {name!r} to the right side", at, tail, latex[at:tail] + " + " + name


def _inconsistent(
    math: Math,
    latex: str,
    options: list[dict[str, Any]],
    declared: list[str],
    table: Mapping[str, units.UnitSpec],
) -> bool:
    read = relations.read_equation(dataclasses.replace(math, latex=latex), options, declared)
    if isinstance(read, LatexError):
        return False
    return any(
        entry.parsed is not None
        and dimensions.check(entry.parsed, table)["status"] == "inconsistent"
        for entry in read
    )


def dimension_mutants(lesson: Lesson, specs: Iterable[Mapping[str, Any]]) -> Iterator[Mutant]:
    """At most one breaking edit of each kind for every dimension-consistent relation."""
    table = dimensions.lesson_units(lesson)
    if not table:
        return
    declared = dimensions.declared(table)
    options = relations.claim_options(list(specs))
    entries, _ = relations.inventory(lesson, options, declared)
    for entry in entries:
        if entry.parsed is None:
            continue
        if dimensions.check(entry.parsed, table)["status"] != "consistent":
            continue
        math = lesson.display_math[entry.equation]
        try:
            tokens = tokenize(math.latex, DEFAULT_MAX_LENGTH)
        except LatexError:
            continue
        done: set[str] = set()
        for description, a, b, replacement in _edits(
            math.latex, tokens, entry.parsed.start, entry.parsed.end
        ):
            edit = description.split(" ", 1)[0]
            if edit in done:
                continue
            edited = math.latex[:a] + replacement + math.latex[b:]
            if _inconsistent(math, edited, options.get(math.index, []), declared, table):
                done.add(edit)
                where = f"equation {math.index}, relation {entry.relation}: {description}"
                yield Mutant(KIND, where, math.offset + a, math.latex[a:b], replacement)
