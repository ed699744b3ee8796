"""Normaliser: from raw lesson LaTeX to relation segments of parser-ready tokens.

It removes presentation-only markup (spacing, sizing, ``\\left``/``\\right``,
alignment ``&``, the enclosing environment), checks that braces and delimiters
balance within ``max_depth`` without recursion, and splits the equation into
segments at row breaks, top-level ``\\quad``/``\\qquad`` and top-level commas.
Tokens keep their original offsets, so every later error is located.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .dialect import ENVIRONMENTS, RELATION, SEPARATOR, SIZING, SPACING, kind_of
from .errors import (
    EMPTY,
    SYNTAX,
    TOO_DEEP,
    UNBALANCED_BRACE,
    UNBALANCED_DELIMITER,
    UNKNOWN_ENVIRONMENT,
    LatexError,
)
from .lexer import CHAR, CMD, Token, tokenize

_CLOSER = {"(": ")", "[": "]", "{": "}", "lvert": "rvert"}
_LEFT = {"(": "(", "[": "[", "|": "lvert", "lvert": "lvert"}
_RIGHT = {")": ")", "]": "]", "|": "rvert", "rvert": "rvert"}
OPENERS = frozenset(_CLOSER)
CLOSERS = frozenset(_CLOSER.values())


@dataclass(frozen=True)
class Segment:
    """One relation chain (or expression): tokens plus its span in the original text."""

    tokens: tuple[Token, ...]
    start: int
    end: int


def normalise(latex: str, *, split: bool, max_length: int, max_depth: int) -> list[Segment]:
    """Tokenise and normalise ``latex``; with ``split`` cut it into relation segments,
    otherwise return it as one segment (row breaks and ``&`` are then errors)."""
    _check_brace_depth(latex, max_depth, max_length)
    tokens = _strip_environment(_pair_delimiters(tokenize(latex, max_length), max_depth))
    segments = _split(tokens) if split else _single(tokens)
    if not segments:
        raise LatexError(EMPTY, "no equation content", 0)
    return segments


def _check_brace_depth(latex: str, max_depth: int, max_length: int) -> None:
    """Reject brace nesting beyond ``max_depth`` before anything else, so that deeply
    nested input is reported as ``too-deep`` even when it is also over-long."""
    depth, i, n = 0, 0, min(len(latex), max_length + 1)
    while i < n:
        ch = latex[i]
        if ch == "\\":
            i += 1
        elif ch == "%":
            newline = latex.find("\n", i, n)
            i = n if newline < 0 else newline
        elif ch == "{":
            depth += 1
            if depth > max_depth:
                raise LatexError(TOO_DEEP, f"braces nest deeper than {max_depth}", i)
        elif ch == "}":
            depth -= 1
        i += 1


def _delimiter_text(token: Token) -> str:
    return token.text if token.kind in (CHAR, CMD) else ""


def _pair_delimiters(tokens: Sequence[Token], max_depth: int) -> list[Token]:
    """Drop spacing/sizing, merge ``\\left(`` into ``(``, and check balance and depth."""
    out: list[Token] = []
    stack: list[Token] = []
    i = 0
    while i < len(tokens):
        token = tokens[i]
        kind = kind_of(token.text) if token.kind == CMD else None
        if kind in (SPACING, SIZING):
            i += 1
            continue
        if token.is_cmd("left", "right"):
            table = _LEFT if token.text == "left" else _RIGHT
            delimiter = tokens[i + 1] if i + 1 < len(tokens) else None
            text = _delimiter_text(delimiter) if delimiter is not None else ""
            if delimiter is None or text not in table:
                raise LatexError(
                    UNBALANCED_DELIMITER,
                    f"\\{token.text} must be followed by one of "
                    + " ".join("\\" + d if d.isalpha() else d for d in sorted(table)),
                    token.start,
                )
            kind_out = CHAR if table[text] in "()[]" else CMD
            token = Token(kind_out, table[text], token.start, delimiter.end, token.space_before)
            i += 1
        elif token.is_char("|"):
            raise LatexError(
                SYNTAX,
                "bare | is ambiguous; write \\left| x \\right| or \\lvert x \\rvert",
                token.start,
            )
        i += 1
        text = token.text if token.kind in (CHAR, CMD) else ""
        if text in OPENERS:
            stack.append(token)
            if len(stack) > max_depth:
                raise LatexError(TOO_DEEP, f"nesting deeper than {max_depth} groups", token.start)
        elif text in CLOSERS:
            _close(stack, token)
        out.append(token)
    if stack:
        opener = stack[-1]
        code = UNBALANCED_BRACE if opener.text == "{" else UNBALANCED_DELIMITER
        raise LatexError(code, f"{_show(opener)} is never closed", opener.start)
    return out


def _show(token: Token) -> str:
    return {"lvert": "\\left| or \\lvert", "rvert": "\\right| or \\rvert"}.get(
        token.text, repr(token.text)
    )


def _close(stack: list[Token], closer: Token) -> None:
    if not stack:
        code = UNBALANCED_BRACE if closer.text == "}" else UNBALANCED_DELIMITER
        raise LatexError(code, f"{_show(closer)} closes nothing", closer.start)
    opener = stack.pop()
    if _CLOSER[opener.text] != closer.text:
        brace = "{" in (opener.text, closer.text) or closer.text == "}"
        raise LatexError(
            UNBALANCED_BRACE if brace else UNBALANCED_DELIMITER,
            f"{_show(closer)} does not match {_show(opener)} at offset {opener.start}",
            closer.start,
        )


def _environment_name(tokens: Sequence[Token], i: int) -> tuple[str, int]:
    """Name of ``\\begin{name}``/``\\end{name}`` at ``tokens[i]`` and the index after it."""
    command = tokens[i]
    if i + 1 >= len(tokens) or not tokens[i + 1].is_char("{"):
        raise LatexError(SYNTAX, f"\\{command.text} needs {{name}}", command.start)
    j = i + 2
    name = ""
    while j < len(tokens) and not tokens[j].is_char("}"):
        name += tokens[j].text
        j += 1
    if name not in ENVIRONMENTS:
        raise LatexError(
            UNKNOWN_ENVIRONMENT,
            f"unknown environment {name!r}; supported: {', '.join(sorted(ENVIRONMENTS))}",
            command.start,
        )
    return name, j + 1


def _strip_environment(tokens: list[Token]) -> list[Token]:
    """Remove one ``\\begin{env}...\\end{env}`` that encloses the whole equation."""
    body = tokens
    if tokens and tokens[0].is_cmd("begin"):
        name, after = _environment_name(tokens, 0)
        k = len(tokens) - 1
        while k >= after and not tokens[k].is_cmd("end"):
            k -= 1
        if k < after:
            raise LatexError(SYNTAX, f"\\begin{{{name}}} has no \\end", tokens[0].start)
        end_name, end_after = _environment_name(tokens, k)
        if end_name != name or end_after != len(tokens):
            raise LatexError(
                SYNTAX,
                f"\\begin{{{name}}} must be closed by a final \\end{{{name}}}",
                tokens[k].start,
            )
        body = tokens[after:k]
    for token in body:
        if token.is_cmd("begin", "end"):
            raise LatexError(SYNTAX, "an environment must enclose the whole equation", token.start)
    return body


def _segment(tokens: list[Token]) -> Segment | None:
    if tokens and tokens[-1].is_char("."):
        tokens = tokens[:-1]
    if not tokens:
        return None
    return Segment(tuple(tokens), tokens[0].start, tokens[-1].end)


def _split(tokens: Sequence[Token]) -> list[Segment]:
    """Cut at top-level row breaks, ``\\quad``s and commas. A row that starts with a
    relation (``\\ &= ...``), or with ``&`` then ``+``/``-``/``\\cdot``/``\\times``,
    continues the previous segment instead of starting one."""
    segments: list[Segment] = []
    current: list[Token] = []
    depth = 0
    row_start = aligned = False

    def flush() -> None:
        segment = _segment(current)
        if segment is not None:
            segments.append(segment)
        current.clear()

    for token in tokens:
        text = token.text if token.kind in (CHAR, CMD) else ""
        depth += (text in OPENERS) - (text in CLOSERS)
        if depth == 0 and token.is_cmd("\\"):
            flush()
            row_start, aligned = True, False
        elif depth == 0 and token.is_char("&"):
            aligned = aligned or row_start
        elif depth == 0 and (token.is_char(",") or _is_quad(token)):
            flush()
        elif token.is_cmd("\\") or token.is_char("&"):
            raise LatexError(SYNTAX, f"{token.describe()} inside a group", token.start)
        elif not _is_quad(token):
            if row_start and segments and not current and _continues(token, aligned):
                current.extend(segments.pop().tokens)
            row_start = False
            current.append(token)
    flush()
    return segments


def _continues(token: Token, aligned: bool) -> bool:
    operator = token.is_char("+") or token.is_char("-") or token.is_cmd("cdot", "times")
    return is_relation(token) or (aligned and operator)


def is_relation(token: Token) -> bool:
    """Whether ``token`` is a relation operator (``=``, ``<``, ``>``, ``\\approx``, ...)."""
    if token.kind == CHAR:
        return token.text in "=<>"
    return token.kind == CMD and kind_of(token.text) == RELATION


def _single(tokens: Sequence[Token]) -> list[Segment]:
    kept: list[Token] = []
    for token in tokens:
        if token.is_cmd("\\") or token.is_char("&"):
            raise LatexError(
                SYNTAX, f"{token.describe()} is not allowed in a single expression", token.start
            )
        if not _is_quad(token):
            kept.append(token)
    segment = _segment(kept)
    return [segment] if segment is not None else []


def _is_quad(token: Token) -> bool:
    return token.kind == CMD and kind_of(token.text) == SEPARATOR
