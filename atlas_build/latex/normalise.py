"""Normaliser: from raw lesson LaTeX to relation segments of parser-ready tokens.

It removes presentation-only markup (:mod:`.markup`), pairs delimiters without
recursion (:mod:`.delimiters`), removes the environment enclosing the equation,
and splits the equation into segments at row breaks, top-level ``\\quad``s,
remarks (``\\text{ if }``), quantifiers and logical connectives. Top-level commas
separate relations too, except that a comma piece stating no relation joins its
neighbour as a list (``k = 0, 1, \\ldots, n``). Tokens keep their original offsets.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from .delimiters import CLOSERS, OPENERS, pair, sized, text_of
from .dialect import ALIGNMENT_ENVIRONMENTS, CASES_ENVIRONMENTS, RELATION_OPS, kind_of
from .errors import EMPTY, SYNTAX, TOO_DEEP, LatexError
from .lexer import BEGIN, CHAR, CMD, END, WORDS, Token, tokenize
from .markup import strip_annotations, strip_spacing
from .roles import CONNECTIVE, QUANTIFIER, RELATION, SEPARATOR
from .vocabulary import CONNECTIVES
from .words import is_remark

_ENCLOSING = ALIGNMENT_ENVIRONMENTS | CASES_ENVIRONMENTS


@dataclass(frozen=True)
class Segment:
    """One relation chain (or expression): tokens plus its span in the original text.

    ``droppable``: it follows a quantifier or a remark, so without a relation it is a
    bound-variable list (``\\forall i``) and is dropped. ``link``: the logical
    connective (``implies``, ``iff``, ``and``, ``or``) joining it to the segment before.
    """

    tokens: tuple[Token, ...]
    start: int
    end: int
    droppable: bool = False
    link: str | None = None


def normalise(latex: str, *, split: bool, max_length: int, max_depth: int) -> list[Segment]:
    """Tokenise and normalise ``latex``; with ``split`` cut it into relation segments,
    otherwise return it as one segment (row breaks and ``&`` are then errors)."""
    _check_brace_depth(latex, max_depth, max_length)
    tokens = sized(strip_spacing(tokenize(latex, max_length)))
    tokens = strip_annotations(pair(tokens, max_depth))
    tokens = _remarks_in_groups(_strip_environment(tokens, split))
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


def _matching_end(tokens: Sequence[Token], begin: int) -> int:
    """Index of the ``\\end`` closing the ``\\begin`` at ``tokens[begin]`` (they pair)."""
    depth = 0
    for k in range(begin, len(tokens)):
        depth += (tokens[k].kind == BEGIN) - (tokens[k].kind == END)
        if depth == 0:
            return k
    return len(tokens) - 1


def _strip_environment(tokens: list[Token], split: bool) -> list[Token]:
    """Remove alignment environments (``aligned``, ``equation``, ...) that enclose the
    whole equation, however many are nested; a ``cases`` around everything is a system
    of relations only when its rows state them (else it is a piecewise expression)."""
    while tokens and tokens[0].kind == BEGIN and tokens[0].text in _ENCLOSING:
        if _matching_end(tokens, 0) != len(tokens) - 1:
            break
        if tokens[0].text in CASES_ENVIRONMENTS and not (split and _has_relation(tokens[1:-1])):
            break
        tokens = tokens[1:-1]
    return tokens


def _remarks_in_groups(tokens: Sequence[Token]) -> list[Token]:
    """Inside groups, a remark is dropped (``\\text{ and }``/``or`` become logic), unless
    it is the whole group (``P(\\text{at least one})`` names an event)."""
    out: list[Token] = []
    depth = 0
    for k, token in enumerate(tokens):
        text = text_of(token)
        depth += (text in OPENERS) - (text in CLOSERS)
        if depth == 0 or token.kind != WORDS or not is_remark(token.text):
            out.append(token)
            continue
        before = text_of(tokens[k - 1]) if k else ""
        after = text_of(tokens[k + 1]) if k + 1 < len(tokens) else ""
        word = token.text.strip().lower()
        if before in OPENERS and after in CLOSERS:
            out.append(token)
        elif word in ("and", "or"):
            out.append(Token(CMD, "land" if word == "and" else "lor", token.start, token.end))
    return out


def is_relation(token: Token) -> bool:
    """Whether ``token`` is a relation operator (``=``, ``<``, ``\\approx``, ``\\in``, ...)."""
    if token.kind == CHAR:
        return token.text in "=<>:"
    return token.kind == CMD and kind_of(token.text) == RELATION


class _Splitter:
    """Cuts the top level of an equation into segments (see the module doc)."""

    def __init__(self) -> None:
        self.segments: list[Segment] = []
        self.current: list[Token] = []
        self.droppable = False
        self.link: str | None = None

    def flush(self, droppable_next: bool = False, link_next: str | None = None) -> None:
        emitted = False
        for group in _comma_groups(self.current):
            segment = _segment(group, self.droppable, None if emitted else self.link)
            if segment is not None:
                self.segments.append(segment)
                emitted = True
        if emitted:
            self.link = None
        if link_next is not None and self.segments:
            self.link = link_next
        if emitted or droppable_next:
            self.droppable = droppable_next
        self.current = []

    def resume(self) -> None:
        """Continue the previous segment (a row that starts with a relation)."""
        last = self.segments.pop()
        self.current = list(last.tokens)
        self.droppable, self.link = last.droppable, last.link


def _split(tokens: Sequence[Token]) -> list[Segment]:
    """Cut at top-level row breaks, ``\\quad``s, remarks, quantifiers and connectives.
    A row that starts with a relation (``\\ &= ...``), or with ``&`` then
    ``+``/``-``/``\\cdot``/``\\times``, continues the previous segment."""
    cut = _Splitter()
    stack: list[str] = []
    row_start = aligned = quantified = False
    previous: Token | None = None
    for k, token in enumerate(tokens):
        text = text_of(token)
        if text in OPENERS:
            substack = previous is not None and previous.is_cmd("substack")
            stack.append("substack" if substack else text)
        elif text in CLOSERS and stack:
            stack.pop()
        previous = token
        kind = kind_of(token.text) if token.kind == CMD else None
        if stack and stack[-1] != "\\begin" and stack[-1] != "substack":
            if token.is_cmd("\\") or token.is_char("&"):
                raise LatexError(SYNTAX, f"{token.describe()} inside a group", token.start)
        if stack:
            cut.current.append(token)
        elif token.is_cmd("\\"):
            cut.flush()
            row_start, aligned, quantified = True, False, False
        elif token.is_char("&"):
            aligned = aligned or row_start
        elif kind == SEPARATOR:
            cut.flush()
        elif token.kind == WORDS and is_remark(token.text):
            cut.flush(droppable_next=True)
            quantified = False
        elif kind == QUANTIFIER:
            cut.flush(droppable_next=True)
            quantified = True
        elif quantified and token.is_char(":"):
            cut.flush()
            quantified = False
        elif kind == CONNECTIVE and not _joins_values(token, cut.current, tokens[k + 1 :]):
            cut.flush(link_next=CONNECTIVES[token.text][0] or "")
            quantified = False
        else:
            if row_start and cut.segments and not cut.current and _continues(token, aligned):
                cut.resume()
            row_start = False
            cut.current.append(token)
    cut.flush()
    return cut.segments


_VALUE_LINKS = frozenset({"land", "wedge", "lor", "vee"})
_DEFINING = frozenset({"=", ":=", "approx", "equiv", "<-"})


def _joins_values(token: Token, before: Sequence[Token], after: Sequence[Token]) -> bool:
    """Whether a top-level ``\\land``/``\\lor`` is an operator between values, not a
    connective between statements: one side of it states no relation and the other is
    a definition (``G_i = A_i \\land B_i``) or a bare expression that a relation follows
    (``A \\land B = C``). Between two statements (``x > 0 \\land y > 0``), or two bare
    expressions, it stays a connective."""
    if token.text not in _VALUE_LINKS:
        return False
    left, right = _piece_before(before), _piece_after(after)
    if not left or not right:
        return False
    stated_left, stated_right = _has_relation(left), _has_relation(right)
    if stated_left and not stated_right:
        return _last_relation(left) in _DEFINING
    return stated_right and not stated_left


def _piece_before(tokens: Sequence[Token]) -> list[Token]:
    """The tokens after the last top-level comma or semicolon."""
    depth, start = 0, 0
    for k, token in enumerate(tokens):
        text = text_of(token)
        depth += (text in OPENERS) - (text in CLOSERS)
        if depth == 0 and (token.is_char(",") or token.is_char(";")):
            start = k + 1
    return list(tokens[start:])


def _piece_after(tokens: Sequence[Token]) -> list[Token]:
    """The tokens up to the next top-level comma, row break, separator, remark,
    quantifier or connective."""
    depth = 0
    for k, token in enumerate(tokens):
        text = text_of(token)
        if depth == 0 and _ends_piece(token):
            return list(tokens[:k])
        depth += (text in OPENERS) - (text in CLOSERS)
    return list(tokens)


def _ends_piece(token: Token) -> bool:
    if token.is_char(",") or token.is_char(";") or token.is_char("&"):
        return True
    if token.kind == WORDS:
        return is_remark(token.text)
    return token.kind == CMD and (
        token.is_cmd("\\") or kind_of(token.text) in (SEPARATOR, QUANTIFIER, CONNECTIVE)
    )


def _last_relation(tokens: Sequence[Token]) -> str | None:
    depth, found = 0, None
    for token in tokens:
        text = text_of(token)
        depth += (text in OPENERS) - (text in CLOSERS)
        if depth == 0 and is_relation(token):
            found = RELATION_OPS.get(token.text)
    return found


def _comma_groups(tokens: Sequence[Token]) -> list[list[Token]]:
    """Split at top-level commas; a piece stating no relation joins its neighbour."""
    pieces: list[list[Token]] = [[]]
    separators: list[Token] = []
    depth = 0
    for token in tokens:
        text = text_of(token)
        depth += (text in OPENERS) - (text in CLOSERS)
        if depth == 0 and (token.is_char(",") or token.is_char(";")):
            pieces.append([])
            separators.append(token)
        else:
            pieces[-1].append(token)
    groups: list[list[Token]] = []
    for k, piece in enumerate(pieces):
        if not piece:
            continue
        if groups and (not _has_relation(piece) or not _has_relation(groups[-1])):
            groups[-1] += [separators[k - 1], *piece]
        else:
            groups.append(piece)
    return groups


def _has_relation(tokens: Sequence[Token]) -> bool:
    depth = 0
    for token in tokens:
        text = text_of(token)
        depth += (text in OPENERS) - (text in CLOSERS)
        if depth == 0 and is_relation(token):
            return True
    return False


def _segment(tokens: list[Token], droppable: bool, link: str | None) -> Segment | None:
    while tokens and (tokens[-1].is_char(".") or tokens[-1].is_char(",")):
        tokens = tokens[:-1]
    if not tokens:
        return None
    if _parenthesised(tokens) and _has_relation(tokens[1:-1]):
        tokens = tokens[1:-1]
    first = tokens[0]
    if first.space_before:
        tokens = [replace(first, space_before=False), *tokens[1:]]
    return Segment(tuple(tokens), tokens[0].start, tokens[-1].end, droppable, link or None)


def _parenthesised(tokens: Sequence[Token]) -> bool:
    """``(V_D \\gg V_T)``: the segment is one parenthesised group (a stated condition)."""
    if len(tokens) < 3 or not tokens[0].is_char("(") or not tokens[-1].is_char(")"):
        return False
    depth = 0
    for k, token in enumerate(tokens):
        text = text_of(token)
        depth += (text in OPENERS) - (text in CLOSERS)
        if depth == 0:
            return k == len(tokens) - 1
    return False


def _continues(token: Token, aligned: bool) -> bool:
    operator = token.is_char("+") or token.is_char("-") or token.is_cmd("cdot", "times")
    return is_relation(token) or (aligned and operator)


def _single(tokens: Sequence[Token]) -> list[Segment]:
    kept: list[Token] = []
    depth = 0
    for token in tokens:
        text = text_of(token)
        depth += (text in OPENERS) - (text in CLOSERS)
        inside = depth > 0 or text in CLOSERS
        if not inside and (token.is_cmd("\\") or token.is_char("&")):
            raise LatexError(
                SYNTAX, f"{token.describe()} is not allowed in a single expression", token.start
            )
        if inside and (token.is_cmd("\\") or token.is_char("&")):
            kept.append(token)
            continue
        is_quad = token.kind == CMD and kind_of(token.text) == SEPARATOR
        if not is_quad and not (depth == 0 and token.kind == WORDS and is_remark(token.text)):
            kept.append(token)
    segment = _segment(kept, False, None)
    return [segment] if segment is not None else []
