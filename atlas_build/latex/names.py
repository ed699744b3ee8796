"""Names and scripts: how letters, subscripts and superscripts become SymPy.

``d_k`` is the symbol ``d_k``, ``a_j`` with ``j`` bound is ``a[j]``, ``\\hat{x}_i`` is
``x_hat_i``, ``f'`` is ``f_prime``, ``x^*`` is ``x_star``, ``e^{x}`` is ``exp(x)``,
``K^{\\mathsf T}`` is ``Transposed(K)``; when a name is applied to a group is decided
by :mod:`.application`. See ``docs/latex-dialect.md`` for the naming table.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import partial
from typing import TYPE_CHECKING

import sympy

from atlas_build import notation

from .dialect import kind_of
from .errors import TOO_LARGE
from .functions import Transposed
from .lexer import CHAR, CMD, LETTER, NUMBER, WORDS, Token
from .roles import (
    ACCENT,
    ARG,
    BINARY,
    CONSTANT,
    DOTS,
    ELEMENTARY,
    EXTREMUM,
    FONT,
    GREEK,
    LIMIT,
    MARK,
    NAMED_FUNCTION,
    SYMBOL,
    TRANSPOSE,
    UNIT,
)
from .words import name_of

if TYPE_CHECKING:
    from .parser import Parser
    from .state import Arg

MAX_NUMBER_BITS = 10_000
"""Budget for the exact numbers one input writes or forms by powers; products of
them are bounded by it, so they stay fast to form and printable."""
MAX_RADICAL_BITS = 1024
"""Total size of numbers under non-integer powers (SymPy factors those eagerly)."""
MAX_FACTORIAL = 1000
"""Largest exact integer whose factorial is formed (``1000!`` has 2568 digits)."""

ACCENTS = notation.ACCENTS
"""Accent command -> name suffix, shared with the glossary readers (`atlas_build.notation`)."""
STYLED_FONTS = {"mathcal": "cal", "mathscr": "scr", "mathbb": "bb", "Bbb": "bb"}
STYLED_FONTS |= {"mathfrak": "frak", "frak": "frak"}
UPRIGHT_FONTS = frozenset({"mathrm", "operatorname", "mathop", "operatornamewithlimits"})
_RENAMED = {"imath": "i", "jmath": "j", "hslash": "hbar", "#": "num"}
_MARKS: dict[tuple[str, ...], str] = {(text,): s for text, s in notation.SCRIPT_MARKS.items()}
_MARKS[("prime", "prime")] = "prime2"
_TRANSPOSE_MARKS = (["top"], ["intercal"], ["mathsf", "T"], ["mathrm", "T"])
_FUNCTION_WORDS = frozenset({ELEMENTARY, NAMED_FUNCTION, LIMIT, ARG})
"""Roles of commands a subscript spells as words: ``\\eta_{\\cos}`` (the cosine phase of
a schedule) is ``eta_cos``, as ``x_{\\max}`` is ``x_max`` and as the glossary reader
(``lesson/latexnames.py``) names it: a subscript labels, it computes nothing."""


@dataclass(frozen=True)
class Word:
    """A subscript or font argument readable as a name, e.g. ``kv`` or ``rows``."""

    text: str
    pieces: tuple[str, ...]
    label: bool


def symbol_name(token: Token) -> str:
    """The name a letter, Greek or symbol command stands for (``\\imath`` is ``i``)."""
    return _RENAMED.get(token.text, token.text)


def single_token_argument(token: Token) -> bool:
    """Whether ``token`` may stand as an unbraced argument (``x^2``, ``x^\\top``, ``x^*``)."""
    if token.kind in (NUMBER, LETTER, WORDS):
        return True
    if token.kind == CHAR:
        return token.text in "*+-'"
    kind = kind_of(token.text)
    return kind in (GREEK, SYMBOL, CONSTANT, TRANSPOSE, MARK, DOTS) or (
        kind == BINARY and token.text in ("ast", "star", "circ")
    )


def word(p: Parser, arg: Arg, font: str | None = None) -> Word | None:
    """Read ``arg`` as a name (letters, digits, Greek, font groups), or ``None``.

    In an upright group a comma separates words, as a space does in ``\\text``:
    ``L_{\\mathrm{fs,dB}}`` is ``L_fs_dB``, as ``I_{D,\\mathrm{sat}}`` is ``I_D_sat``.
    """
    pieces: list[str] = []
    upright = font is not None and (font in UPRIGHT_FONTS or font.startswith("text"))
    label = upright
    reader = p.of(arg)
    while (token := reader.peek()) is not None:
        reader.pos += 1
        kind = kind_of(token.text) if token.kind == CMD else None
        if token.kind in (LETTER, NUMBER):
            piece = token.text
        elif token.kind == WORDS:
            piece, label = name_of(token.text), True
        elif kind in (GREEK, SYMBOL, EXTREMUM, MARK, UNIT) or token.is_cmd("infty", "parallel"):
            piece = symbol_name(token)
            label = label or kind == EXTREMUM
        elif kind in _FUNCTION_WORDS and font is None:
            piece = token.text
        elif upright and token.is_char(",") and pieces and reader.peek() is not None:
            if pieces[-1].endswith("_"):
                continue
            piece = "_"
        elif token.kind == CHAR and token.text in "+-" and len(arg.tokens) == 1:
            piece = "plus" if token.text == "+" else "minus"
        elif kind in (FONT, ACCENT):
            inner = word(reader, reader.argument("a name"), token.text if kind == FONT else None)
            if inner is None:
                return None
            piece = inner.text if kind == FONT else f"{inner.text}_{ACCENTS[token.text]}"
            label = label or inner.label
        elif token.is_char("_") and pieces:
            inner = word(reader, reader.argument("a subscript"))
            if inner is None:
                return None
            piece = "_" + inner.text
        elif font is not None and token.kind == CHAR and token.text in "-@'." and pieces:
            piece = token.text
        else:
            return None
        pieces.append(piece)
    if not pieces:
        return None
    text = "".join(pieces)
    if font in STYLED_FONTS:
        text = f"{text}_{STYLED_FONTS[font]}"
    return Word(text, tuple(pieces), label)


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
    if parsed is None and sub.tokens and _relation_first(sub.tokens):
        rest = word(p, _arg(sub.tokens[1:], sub.end))
        if rest is not None:
            return symbol(p, f"{name}_{_RELATION_TEXT.get(sub.tokens[0].text, '')}{rest.text}")
    if parsed is None and (qualified := _qualified(p, sub)) is not None:
        return symbol(p, f"{name}_{qualified}")  # `R_{DS(\\mathrm{on})}`: the glossary's R_DS(on)
    if parsed is None:
        chunks = split_commas(sub.tokens, p)
        labels = [word(p, _arg(chunk, sub.end)) for chunk in chunks]
        joined = "_".join([name] + [w.text for w in labels if w])
        if len(chunks) > 1 and all(labels):
            if any(w.label for w in labels if w) or joined in options.symbols:
                return symbol(p, joined)  # `\Phi_{e,\lambda}` for a glossary's Φ_e,λ
        indices = [p.sub(chunk, sub.end).whole() for chunk in chunks]
        return p.build(token, lambda: sympy.IndexedBase(name)[tuple(indices)])
    if not parsed.label:
        if parsed.text in p.bound:
            return sympy.IndexedBase(name)[sympy.Symbol(parsed.text)]
        if len(parsed.pieces) > 1 and all(c in p.bound and len(c) == 1 for c in parsed.pieces):
            return sympy.IndexedBase(name)[tuple(sympy.Symbol(c) for c in parsed.pieces)]
    return symbol(p, f"{name}_{parsed.text}")


_RELATION_TEXT = {"<": "<", ">": ">", "le": "<=", "leq": "<=", "ge": ">=", "geq": ">=", "ne": "!="}


def _qualified(p: Parser, sub: Arg) -> str | None:
    """A subscript that names a symbol and then qualifies it in parentheses with an upright
    word (`DS(\\mathrm{on})`): the name's part (`DS`), which is how a glossary's `R\\_DS(on)`
    reads (its `(on)` qualifies, as a call's argument would); None for any other subscript."""
    tokens = sub.tokens
    if len(tokens) < 4 or not tokens[-1].is_char(")"):
        return None
    opening = next((k for k in range(len(tokens) - 1, -1, -1) if tokens[k].is_char("(")), None)
    inside = tokens[opening + 1 : -1] if opening else []
    font = inside[0].text if inside and inside[0].kind == CMD else ""
    words = bool(inside) and inside[0].kind == WORDS  # `\\text{on}`, read whole by the lexer
    if not opening or not (words or font in UPRIGHT_FONTS or font.startswith("text")):
        return None
    head = word(p, _arg(tokens[:opening], sub.end))
    return head.text if head is not None else None


def _relation_first(tokens: Sequence[Token]) -> bool:
    """``x_{<t}``: a subscript that opens with a comparison names a range of indices."""
    return tokens[0].kind in (CHAR, CMD) and tokens[0].text in _RELATION_TEXT and len(tokens) > 1


def _arg(tokens: list[Token], end: int) -> Arg:
    from .state import Arg

    return Arg(tokens, tokens[0].start if tokens else end, end)


def symbol(p: Parser, name: str) -> sympy.Symbol:
    """A plain symbol; non-commutative when it (or its stem before ``_``) is a matrix."""
    matrices = p.state.options.matrices
    if name in matrices or name.split("_", 1)[0] in matrices:
        return sympy.Symbol(name, commutative=False)
    return sympy.Symbol(name)


def mark_of(sup: Arg | None) -> str | None:
    """The name suffix a superscript stands for (``^*`` star, ``^+`` plus, ``^\\prime``)."""
    if sup is None:
        return None
    texts = tuple(t.text for t in sup.tokens if not (t.is_char("{") or t.is_char("}")))
    return _MARKS.get(texts)


def label_of(p: Parser, sup: Arg | None) -> str | None:
    """``W^{(l)}`` and ``L^{\\text{CLIP}}``: a parenthesised or upright superscript word is a
    label (``W^(l)``, ``L^CLIP``), not a power."""
    if sup is None or _imaginary_in(sup.tokens):
        return None
    upright = word(p, sup)
    if upright is not None and upright.label:
        if len(upright.text) > 1 or notation.variant_tag(upright.text):
            return upright.text
    if len(sup.tokens) < 3:
        return None
    if not (sup.tokens[0].is_char("(") and sup.tokens[-1].is_char(")")):
        return None
    inner = word(p, _arg(sup.tokens[1:-1], sup.end))
    return inner.text if inner is not None else None


def _imaginary_in(tokens: Sequence[Token]) -> bool:
    """``e^{\\mathrm{j}\\omega t}``: an upright ``i`` or ``j`` is the imaginary unit, so the
    superscript computes (a power), however upright it is written."""
    return any(
        token.is_cmd("mathrm")
        and [t.text for t in tokens[k + 1 : k + 4]] in (["{", "i", "}"], ["{", "j", "}"])
        for k, token in enumerate(tokens)
    )


def rename(p: Parser, expr: sympy.Expr, suffix: str) -> sympy.Expr:
    """``expr`` with ``suffix`` added to its name (on the base of an indexed entry)."""
    if isinstance(expr, sympy.Indexed):
        return sympy.IndexedBase(f"{expr.base.label}_{suffix}")[expr.indices]
    if isinstance(expr, sympy.Symbol):
        return symbol(p, f"{expr.name}_{suffix}")
    return expr


def is_transpose(sup: Arg, base: sympy.Expr) -> bool:
    """``^{\\mathsf T}``, ``^\\top``, ``^\\intercal``; ``^T`` on a declared matrix."""
    texts = [t.text for t in sup.tokens if not (t.is_char("{") or t.is_char("}"))]
    if texts in _TRANSPOSE_MARKS:
        return True
    return texts == ["T"] and sup.tokens[0].kind == LETTER and not base.is_commutative


def labelled_transpose(sup: Arg | None) -> Arg | None:
    """``q^{(h)\\mathsf T}``: the label ``(h)`` of a transposed name, or None."""
    if sup is None:
        return None
    tokens = [t for t in sup.tokens if not (t.is_char("{") or t.is_char("}"))]
    for mark in _TRANSPOSE_MARKS:
        head, tail = tokens[: -len(mark)], tokens[-len(mark) :]
        if [t.text for t in tail] == mark and len(head) >= 3:
            if head[0].is_char("(") and head[-1].is_char(")"):
                return _arg(head, tail[0].start)
    return None


def superscript(p: Parser, base: sympy.Expr, sup: Arg | None, token: Token) -> sympy.Expr:
    """Apply ``^sup``: a transpose marker, a degree sign, or a (size-checked) power."""
    if sup is None:
        return base
    if is_transpose(sup, base):
        return p.build(token, lambda: Transposed(base))
    if [t.text for t in sup.tokens if t.kind == CMD] == ["circ"] and len(sup.tokens) <= 3:
        from .units import degrees

        return degrees(p, base, token)
    exponent = p.of(sup).item()
    return power(p, base, exponent, token)


def scripted_atom(p: Parser, atom: sympy.Expr, token: Token) -> sympy.Expr:
    """Scripts after a non-name factor: ``(x)^2``, ``[x]_+``, ``f(x)_i``."""
    sub, sup = p.scripts()
    if sub is not None:
        atom = p.subscripted(atom, sub, token)
    return superscript(p, atom, sup, token)


def factorials(p: Parser, value: sympy.Expr, token: Token) -> sympy.Expr:
    """Postfix ``!`` (``n!``, ``(2n)!``); exact factorials are bounded in size."""
    while p.peek_char("!"):
        bang = p.next()
        if value.is_Integer:
            if int(value) > MAX_FACTORIAL:
                raise p.error(f"{value}! is too large to form exactly", bang, TOO_LARGE)
            charge(p, int(math.lgamma(int(value) + 1) / math.log(2)) + 1, bang)
        value = p.build(bang, partial(sympy.factorial, value))
    return value


def power(p: Parser, base: sympy.Expr, exponent: sympy.Expr, token: Token | None) -> sympy.Expr:
    """``base ** exponent``, refusing exact numbers SymPy would take ages to form, and a
    relation on either side (``\\ell^{u\\to v}``, a label SymPy would only warn about)."""
    if not isinstance(base, sympy.Expr) or not isinstance(exponent, sympy.Expr):
        raise p.error("a relation is no power and has none", token)
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
    from .state import split_top

    return split_top(tokens, ",", parser)
