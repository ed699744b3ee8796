"""Presentation markup removed from the token stream before parsing.

Spacing and delimiter sizes are dropped (the next token remembers the space);
``1{,}000`` and ``1\\,000`` become the number 1000; ``:=`` is one relation;
``\\not=`` is ``\\ne``. After delimiters pair up, annotations go: ``\\boxed{x}``
keeps ``{x}``, ``\\underbrace{x}_{\\text{...}}`` keeps ``{x}``, ``\\overset{a}{=}``
keeps ``=``, ``\\underset{x}{\\arg\\min}`` becomes ``\\arg\\min_{x}``, and the labels
of ``\\xrightarrow{...}`` are dropped. Every rewrite keeps original offsets.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from .delimiters import CLOSERS, OPENERS, text_of
from .dialect import kind_of
from .errors import SYNTAX, LatexError
from .lexer import CHAR, CMD, LETTER, NUMBER, Token
from .roles import (
    ANNOTATION,
    ARG,
    BIG_OPERATOR,
    EXTREMUM,
    LIMIT,
    OPERATOR_NAME,
    RELATION,
    SIZING,
    SPACING,
)

_NEGATED = {"=": "ne", "in": "notin", "equiv": "nequiv", "sim": "nsim"}
_UNWRAP = frozenset({"mathbin", "mathrel"})
_LABELLED = frozenset({"xrightarrow", "xleftarrow", "xleftrightarrow", "xLeftrightarrow"})
_OPERATOR_BASES = frozenset({EXTREMUM, BIG_OPERATOR, ARG, OPERATOR_NAME, LIMIT})
_GAPS = frozenset({",", ";", ":", " ", ">", "enspace", "thinspace", "medspace", "thickspace"})
"""Spacing commands that separate what they stand between (``\\ln 2\\,RC``), as opposed
to sizing and the negative spaces authors use to tighten a formula."""
_WIDE = frozenset({";", ":", " ", ">", "enspace", "medspace", "thickspace"})
"""Spacing wider than the thin space between a number and its unit: what an author sets
off from a formula with it can be a remark on the formula (``\\frac{2000}{R}\\ \\mathrm{ns}``)."""
_TIGHTENERS = frozenset({"!", "negthinspace"})
"""The negative thin space of ``f\\!\\left(x\\right)``: the idiom that pulls a function's
argument back against its name, which ``\\left`` would otherwise space off."""


def strip_spacing(tokens: Sequence[Token]) -> list[Token]:
    """Drop spacing and sizing commands, merge digit groups, ``:=`` and ``\\not``."""
    out: list[Token] = []
    space = thin = gap = tight = wide = False
    i = 0
    while i < len(tokens):
        token = tokens[i]
        kind = kind_of(token.text) if token.kind == CMD else None
        if kind in (SPACING, SIZING):
            space = True
            thin = token.text in (",", " ")
            gap = gap or token.text in _GAPS
            tight = tight or token.text in _TIGHTENERS
            wide = wide or token.text in _WIDE
            i += 1
            continue
        if space and not (
            token.space_before and (token.gap, token.tight, token.wide) == (gap, tight, wide)
        ):
            token = replace(token, space_before=True, gap=gap, tight=tight, wide=wide)
        if out and _digit_group(out[-1], token, thin):
            out[-1] = Token(NUMBER, out[-1].text + token.text, out[-1].start, token.end, False)
        elif _grouped_digits(out, tokens, i):
            after = tokens[i + 1]
            number = out[-3]
            out[-3:] = [Token(NUMBER, number.text + after.text, number.start, after.end)]
            i += 1
        elif out and out[-1].is_char(":") and token.is_char("=") and out[-1].end == token.start:
            out[-1] = Token(CMD, "coloneqq", out[-1].start, token.end, out[-1].space_before)
        elif out and out[-1].is_char("=") and token.is_char(":") and out[-1].end == token.start:
            out[-1] = Token(CMD, "eqqcolon", out[-1].start, token.end, out[-1].space_before)
        elif token.is_cmd("not"):
            negated = tokens[i + 1] if i + 1 < len(tokens) else None
            name = negated.text if negated is not None and negated.kind in (CHAR, CMD) else ""
            if negated is None or name not in _NEGATED:
                raise LatexError(SYNTAX, "\\not must be followed by = or \\in", token.start)
            out.append(Token(CMD, _NEGATED[name], token.start, negated.end, token.space_before))
            i += 1
        elif token.is_cmd("\\"):
            out.append(token)
            i = _skip_row_spacing(tokens, i + 1) - 1
        else:
            out.append(token)
        space = thin = gap = tight = wide = False
        i += 1
    return out


def _digit_group(previous: Token, token: Token, thin: bool) -> bool:
    """``1\\,000``: a thin space between an integer and exactly three digits; or, after the
    point, between groups of three (``2.897\\,771\\,955``, as SI writes long decimals)."""
    if not (thin and previous.kind == NUMBER and token.kind == NUMBER):
        return False
    whole, point, fraction = previous.text.partition(".")
    if point:
        return len(fraction) % 3 == 0 and token.text.isdigit() and len(token.text) == 3
    return whole.isdigit() and len(token.text.split(".")[0]) == 3


def _grouped_digits(out: list[Token], tokens: Sequence[Token], i: int) -> bool:
    """``1{,}000``: out ends with a number, ``{`` and ``,``; ``}`` then three digits follow."""
    if len(out) < 3 or not tokens[i].is_char("}") or i + 1 >= len(tokens):
        return False
    number, brace, comma = out[-3:]
    after = tokens[i + 1]
    return (
        number.kind == NUMBER
        and brace.is_char("{")
        and comma.is_char(",")
        and after.kind == NUMBER
        and len(after.text.split(".")[0]) == 3
    )


def _skip_row_spacing(tokens: Sequence[Token], i: int) -> int:
    """Index after the optional ``[4pt]`` of a row break starting at ``i``."""
    if i < len(tokens) and tokens[i].is_char("["):
        j = i + 1
        while j < len(tokens) and (tokens[j].kind in (NUMBER, LETTER) or tokens[j].is_char("-")):
            j += 1
        if j < len(tokens) and tokens[j].is_char("]") and j > i + 1:
            return j + 1
    return i


def _argument_end(tokens: Sequence[Token], i: int) -> int:
    """Index after the argument (braced group or one token) starting at ``tokens[i]``."""
    if i >= len(tokens):
        return i
    if not tokens[i].is_char("{"):
        return i + 1
    depth = 0
    for j in range(i, len(tokens)):
        text = text_of(tokens[j])
        depth += (text in OPENERS) - (text in CLOSERS)
        if depth == 0:
            return j + 1
    return len(tokens)


def _inner(tokens: Sequence[Token], begin: int, end: int) -> list[Token]:
    """An argument's tokens without its braces."""
    if end - begin >= 2 and tokens[begin].is_char("{"):
        return list(tokens[begin + 1 : end - 1])
    return list(tokens[begin:end])


def strip_annotations(tokens: Sequence[Token]) -> list[Token]:
    """Remove annotation commands, keeping what they annotate (see the module doc)."""
    work = list(tokens)
    out: list[Token] = []
    i = 0
    while i < len(work):
        token = work[i]
        if token.kind == CMD and token.text in _LABELLED:
            out.append(token)
            i += 1
            while i < len(work) and (work[i].is_char("{") or work[i].is_char("[")):
                i = _bracket_end(work, i)
            continue
        if token.kind != CMD or kind_of(token.text) != ANNOTATION:
            out.append(token)
            i += 1
            continue
        name = token.text
        if name in ("overset", "stackrel", "underset"):
            label_end = _argument_end(work, i + 1)
            base_end = _argument_end(work, label_end)
            label = _inner(work, i + 1, label_end)
            base = _inner(work, label_end, base_end)
            if not base:
                raise LatexError(SYNTAX, f"\\{name} needs two arguments", token.start)
            head = kind_of(base[0].text) if base[0].kind == CMD else None
            if name == "underset" and head in _OPERATOR_BASES:
                script = [Token(CHAR, "_", token.start, token.end), Token(CHAR, "{", *_at(token))]
                base += script + label + [Token(CHAR, "}", *_at(token))]
            elif not _is_relation(base):
                base = work[label_end:base_end]
            work[i:base_end] = base
            continue
        if name in ("underbrace", "overbrace"):
            end = _argument_end(work, i + 1)
            out.extend(work[i + 1 : end])
            i = end
            if i < len(work) and work[i].kind == CHAR and work[i].text in "_^":
                i = _argument_end(work, i + 1)
            continue
        if name in _UNWRAP:
            end = _argument_end(work, i + 1)
            work[i:end] = _inner(work, i + 1, end)
            continue
        i += 1
    return out


def _at(token: Token) -> tuple[int, int]:
    return token.start, token.end


def _bracket_end(tokens: Sequence[Token], i: int) -> int:
    if tokens[i].is_char("{"):
        return _argument_end(tokens, i)
    for j in range(i, len(tokens)):
        if tokens[j].is_char("]"):
            return j + 1
    return len(tokens)


def _is_relation(tokens: Sequence[Token]) -> bool:
    if len(tokens) != 1:
        return False
    token = tokens[0]
    if token.kind == CHAR:
        return token.text in "=<>"
    return token.kind == CMD and kind_of(token.text) == RELATION
