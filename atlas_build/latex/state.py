"""Parser state shared by every sub-parser, and small token-window helpers."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import sympy

from .delimiters import CLOSERS, OPENERS, text_of
from .dialect import DEFAULT_MAX_DEPTH
from .lexer import CHAR, Token

if TYPE_CHECKING:
    from .parser import Parser


@dataclass(frozen=True)
class Options:
    """Caller declarations that change how names are read."""

    indices: frozenset[str] = frozenset()
    matrices: frozenset[str] = frozenset()
    functions: frozenset[str] = frozenset()
    symbols: frozenset[str] = frozenset()
    bounds: Mapping[str, tuple[sympy.Expr, sympy.Expr]] = field(default_factory=dict)
    max_depth: int = DEFAULT_MAX_DEPTH


@dataclass
class State:
    """Per-input mutable budget shared by the parser and all its sub-parsers."""

    options: Options
    depth: int = 0
    radical_bits: int = 0
    number_bits: int = 0
    cells: int = 0
    probabilities: set[str] = field(default_factory=set)  # names read as a probability

    @property
    def depth_limit(self) -> int:
        """Grammar recursion allowed: a group costs about three levels."""
        return 4 * self.options.max_depth + 16


@dataclass(frozen=True)
class Arg:
    """A TeX argument: the tokens inside ``{...}`` or the single-token argument."""

    tokens: list[Token]
    start: int
    end: int


Item = tuple[sympy.Basic, int, int]


def arithmetic(p: Parser, operands: list[sympy.Basic], verb: str) -> None:
    """Refuse arithmetic on a condition, list or set (``(a, b) c``, ``(x > 0) + 1``)."""
    for operand in operands:
        if not isinstance(operand, sympy.Expr):
            raise p.error(f"a {type(operand).__name__} cannot be {verb} here", p.peek())


def split_parallel(tokens: Sequence[Token]) -> list[list[Token]]:
    """``D(P \\| Q)``: a divergence's two arguments, separated by a top-level ``\\|``."""
    pieces: list[list[Token]] = [[]]
    depth = 0
    for token in tokens:
        text = text_of(token)
        depth += (text in OPENERS) - (text in CLOSERS)
        if depth == 0 and token.is_cmd("parallel"):
            pieces.append([])
        else:
            pieces[-1].append(token)
    return pieces if all(pieces) else [list(tokens)]


def split_top(tokens: Sequence[Token], separators: str, parser: Parser) -> list[list[Token]]:
    """Split at top-level separator characters; an empty piece is an error."""
    chunks: list[list[Token]] = [[]]
    depth = 0
    for token in tokens:
        text = text_of(token)
        depth += (text in OPENERS) - (text in CLOSERS)
        if depth == 0 and token.kind == CHAR and token.text in separators:
            if not chunks[-1]:
                raise parser.error(f"empty item before {token.text!r}", token)
            chunks.append([])
        else:
            chunks[-1].append(token)
    if not chunks[-1]:
        raise parser.error("empty item", tokens[-1] if tokens else None)
    return chunks
