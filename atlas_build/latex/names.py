"""Names and scripts: how letters, subscripts and superscripts become SymPy.

``d_k`` is the symbol ``d_k``, ``a_j`` with ``j`` bound is ``a[j]``, ``e^{x}`` is
``exp(x)``, ``K^{\\mathsf T}`` is ``Transposed(K)``; see ``docs/latex-dialect.md``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import sympy

from .dialect import ACCENT, EXTREMUM, FONT, GREEK, SYMBOL, kind_of
from .errors import TOO_LARGE
from .functions import Transposed
from .lexer import CHAR, CMD, LETTER, NUMBER, Token
from .normalise import CLOSERS, OPENERS

if TYPE_CHECKING:
    from .parser import Arg, Parser

MAX_NUMBER_BITS = 10_000
"""Budget for the exact numbers one input writes or forms by powers; products of
them are bounded by it, so they stay fast to form and printable."""
MAX_RADICAL_BITS = 1024
"""Total size of numbers under non-integer powers (SymPy factors those eagerly)."""


@dataclass(frozen=True)
class Word:
    """A subscript or font argument readable as a name, e.g. ``kv`` or ``rows``."""

    text: str
    pieces: tuple[str, ...]
    label: bool


def word(p: Parser, arg: Arg) -> Word | None:
    """Read ``arg`` as a name (letters, digits, Greek, font groups), or ``None``."""
    pieces: list[str] = []
    text = ""
    label = False
    reader = p.sub(arg.tokens, arg.end)
    while (token := reader.peek()) is not None:
        reader.pos += 1
        kind = kind_of(token.text) if token.kind == CMD else None
        if token.kind in (LETTER, NUMBER) or kind in (GREEK, SYMBOL, EXTREMUM):
            piece = token.text
        elif kind == FONT:
            inner = word(reader, reader.argument("a name"))
            if inner is None:
                return None
            piece, label = inner.text, True
        else:
            return None
        if token.space_before and pieces:
            text += "_"
        pieces.append(piece)
        text += piece
    return Word(text, tuple(pieces), label) if pieces else None


def named(p: Parser) -> sympy.Expr:
    """A symbol with its scripts: composite name, indexed entry, or constant."""
    token = p.next()
    kind = kind_of(token.text) if token.kind == CMD else None
    name = token.text
    if kind in (FONT, ACCENT):
        arg = p.argument(f"the argument of \\{token.text}")
        parsed = word(p, arg)
        if parsed is None or (kind == ACCENT and len(parsed.pieces) != 1):
            raise p.error(f"\\{token.text} needs a plain name", token)
        name = parsed.text if kind == FONT else f"{parsed.text}_{token.text}"
    sub, sup = p.scripts()
    constant = kind == GREEK or token.kind == LETTER or (kind == FONT and name == "e")
    expr = resolve(p, name, sub, token, constant)
    functions = p.state.options.functions
    if not (isinstance(expr, sympy.Symbol) and expr.name in functions and p.peek_char("(")):
        return superscript(p, expr, sup, token)
    args = p.call_args()
    function = sympy.Function(str(expr.name))
    result = superscript(p, p.build(token, lambda: function(*args)), sup, token)
    after_sub, after_sup = p.scripts()
    if after_sub is not None or (after_sup is not None and sup is not None):
        raise p.error("misplaced script after a function call", token)
    return superscript(p, result, after_sup, token)


def resolve(p: Parser, name: str, sub: Arg | None, token: Token, constant: bool) -> sympy.Expr:
    """``name`` with subscript ``sub``: constant, symbol, composite name or indexed entry."""
    options = p.state.options
    declared = name in options.symbols or name in options.indices or name in options.matrices
    if sub is None:
        if constant and not declared and name == "pi":
            return sympy.pi
        if constant and not declared and name == "e":
            return sympy.E
        return symbol(p, name)
    parsed = word(p, sub)
    if parsed is None:
        indices = [p.sub(chunk, sub.end).whole() for chunk in split_commas(sub.tokens, p)]
        return p.build(token, lambda: sympy.IndexedBase(name)[tuple(indices)])
    if not parsed.label:
        if parsed.text in p.bound:
            return sympy.IndexedBase(name)[sympy.Symbol(parsed.text)]
        if len(parsed.pieces) > 1 and all(c in p.bound and len(c) == 1 for c in parsed.pieces):
            return sympy.IndexedBase(name)[tuple(sympy.Symbol(c) for c in parsed.pieces)]
    return symbol(p, f"{name}_{parsed.text}")


def symbol(p: Parser, name: str) -> sympy.Symbol:
    """A plain symbol; non-commutative when it (or its stem before ``_``) is a matrix."""
    matrices = p.state.options.matrices
    if name in matrices or name.split("_", 1)[0] in matrices:
        return sympy.Symbol(name, commutative=False)
    return sympy.Symbol(name)


def superscript(p: Parser, base: sympy.Expr, sup: Arg | None, token: Token) -> sympy.Expr:
    """Apply ``^sup``: a transpose marker, or a (size-checked) power."""
    if sup is None:
        return base
    texts = [t.text for t in sup.tokens if not (t.is_char("{") or t.is_char("}"))]
    marker = texts in (["top"], ["intercal"], ["mathsf", "T"], ["mathrm", "T"])
    if marker or (texts == ["T"] and sup.tokens[0].kind == LETTER and not base.is_commutative):
        return p.build(token, lambda: Transposed(base))
    exponent = p.sub(sup.tokens, sup.end).whole()
    return power(p, base, exponent, token)


def power(p: Parser, base: sympy.Expr, exponent: sympy.Expr, token: Token | None) -> sympy.Expr:
    """``base ** exponent``, refusing exact numbers SymPy would take ages to form."""
    if base.is_number and exponent.is_Rational:
        size = sum(number_bits(r) for r in base.atoms(sympy.Rational))
        charge(p, size * abs(exponent.p) // exponent.q, token)
        if not exponent.is_Integer:
            p.state.radical_bits += size
            if p.state.radical_bits > MAX_RADICAL_BITS:
                raise p.error("too many large numbers under roots", token, TOO_LARGE)
    return p.build(token, lambda: sympy.Pow(base, exponent))


def number_bits(number: sympy.Rational) -> int:
    """Size of an exact rational: bits of numerator plus denominator."""
    return int(number.p).bit_length() + int(number.q).bit_length()


def charge(p: Parser, bits: int, token: Token | None) -> None:
    """Spend ``bits`` of the input's exact-number budget (``too-large`` when spent)."""
    p.state.number_bits += bits
    if p.state.number_bits > MAX_NUMBER_BITS:
        raise p.error("numbers too large to form exactly", token, TOO_LARGE)


def split_commas(tokens: Sequence[Token], parser: Parser) -> list[list[Token]]:
    """Split at top-level commas; an empty piece is an error."""
    chunks: list[list[Token]] = [[]]
    depth = 0
    for token in tokens:
        text = token.text if token.kind in (CHAR, CMD) else ""
        depth += (text in OPENERS) - (text in CLOSERS)
        if depth == 0 and token.is_char(","):
            if not chunks[-1]:
                raise parser.error("empty item before ','", token)
            chunks.append([])
        else:
            chunks[-1].append(token)
    if not chunks[-1]:
        raise parser.error("empty item", tokens[-1] if tokens else None)
    return chunks
