"""Units written after numbers: ``25.9\\,\\mathrm{mV}``, ``8\\ \\text{bytes/rank}``,
``3~\\text{ns}``, ``200\\,\\mu\\text{A/V}^2``, ``50\\,\\Omega``, ``90^\\circ``, ``5\\%``.

After a factor that is a number, an upright group (``\\mathrm``, ``\\text``) that is
not a call, ``d`` or ``e``, a ``\\mu`` or ``\\Omega``, ``\\%`` or ``\\degree`` starts a
unit; the unit runs over further unit atoms joined by ``/``, ``\\cdot`` or nothing,
each with its scripts. The result is ``WithUnit(value, Unit(text))``, whose value is
the number (``evaluate`` ignores the unit) and whose text is kept for a units checker.

A unit set off by a wide space (``\\ ``, ``\\;``, ``\\quad``) after a formula, at the end
of its side, is the formula's unit, not a factor of it: it is read past.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import sympy

from .dialect import kind_of
from .functions import Unit, WithUnit
from .lexer import CHAR, CMD, LETTER, NUMBER, WORDS, Token
from .roles import FONT, GREEK, UNIT
from .words import is_unit

if TYPE_CHECKING:
    from .parser import Parser

_UNIT_GREEK = {"mu": "μ", "Omega": "Ω"}
_UNIT_FONTS = frozenset({"mathrm", "mathsf", "mathit", "mathbf"})
_SHOWN = {"mu": "μ", "Omega": "Ω", "circ": "°", "cdot": "·", "%": "%", "degree": "°"}


def _atom_at(p: Parser, k: int) -> bool:
    """Whether a unit atom starts at token ``k``."""
    token = p.tokens[k] if k < len(p.tokens) else None
    if token is None:
        return False
    if token.kind == WORDS:
        return is_unit(token.text) and not _called(p, k + 1)
    if token.kind != CMD:
        return False
    kind = kind_of(token.text)
    if kind == UNIT:
        return True
    if token.text == "Omega":
        return not _scripted(p, k + 1)
    if token.text == "mu":
        following = p.tokens[k + 1] if k + 1 < len(p.tokens) else None
        return following is not None and not following.space_before and _atom_at(p, k + 1)
    if kind == FONT and token.text in _UNIT_FONTS:
        end = _group_end(p, k + 1)
        inside = [t for t in p.tokens[k + 1 : end] if not (t.is_char("{") or t.is_char("}"))]
        if len(inside) == 1 and inside[0].kind == LETTER and inside[0].text in "de":
            return False
        if len(inside) == 1 and token.text == "mathrm" and inside[0].text in ("i", "j"):
            return False  # `4\\mathrm{i}`: the imaginary unit, not a unit
        if _acronym(p, inside):
            return False  # `2\\pi\\,\\mathrm{GBW}`: a symbol the lesson declares
        return bool(inside) and not _called(p, end)
    return False


def _acronym(p: Parser, inside: list[Token]) -> bool:
    """Whether an upright group is a symbol the lesson declares, written as an acronym
    (`2\\pi\\,\\mathrm{GBW}` is 2π times GBW): two or more capitals, named in the
    glossary. A unit in capitals (`GB`) stays a unit unless the glossary names it."""
    text = "".join(t.text for t in inside)
    return (
        all(t.kind in (LETTER, WORDS) for t in inside)
        and len(text) >= 2
        and text.isalpha()
        and text.isupper()
        and text in p.state.options.symbols
    )


def _scripted(p: Parser, k: int) -> bool:
    token = p.tokens[k] if k < len(p.tokens) else None
    return token is not None and token.kind == CHAR and token.text in "_^"


def _called(p: Parser, k: int) -> bool:
    token = p.tokens[k] if k < len(p.tokens) else None
    return token is not None and token.kind == CHAR and token.text in "(["


def _group_end(p: Parser, k: int) -> int:
    if k >= len(p.tokens) or not p.tokens[k].is_char("{"):
        return k + 1
    depth = 0
    for j in range(k, len(p.tokens)):
        depth += p.tokens[j].is_char("{") - p.tokens[j].is_char("}")
        if depth == 0:
            return j + 1
    return len(p.tokens)


def _numeric_run(factors: list[sympy.Expr]) -> int:
    """Index where the trailing run of plain numbers in ``factors`` begins."""
    k = len(factors)
    while k > 0 and factors[k - 1].is_number and not factors[k - 1].has(WithUnit):
        k -= 1
    return k


def plain_numbers(factors: list[sympy.Expr]) -> bool:
    """Whether every one of ``factors`` is a plain number (``10``, ``\\tfrac12``), none with
    a unit yet: what a unit or a quantity set against them counts."""
    return _numeric_run(factors) == 0


def starts_unit(p: Parser, factors: list[sympy.Expr]) -> bool:
    """Whether a unit starts here, right after numbers ending ``factors``."""
    return bool(factors) and _numeric_run(factors) < len(factors) and _atom_at(p, p.pos)


def with_unit(p: Parser, factors: list[sympy.Expr]) -> list[sympy.Expr]:
    """Read the unit at the current position; it applies to the numbers before it."""
    k = _numeric_run(factors)
    value = p.product(factors[k:])
    start = p.peek()
    text = _read(p)
    return [*factors[:k], p.build(start, lambda: WithUnit(value, Unit(text)))]


def annotates(p: Parser, factors: list[sympy.Expr]) -> bool:
    """Whether a unit set off by a wide space ends the side here, after a formula:
    ``0.49\\,H^2\\,T\\ \\ \\mathrm{kW/m}``, ``\\frac{2000}{R}\\ \\mathrm{ns}``. It says
    which unit the formula gives (the coefficient was fitted for it), so it is no
    factor of the formula; :func:`skip` reads past it. A thin space keeps it a factor, as
    does a name the lesson declares or an upright acronym (``\\ \\mathrm{INT}``)."""
    token = p.peek()
    if not factors or token is None or not token.wide:
        return False
    if not _upright(token) or not _atom_at(p, p.pos):
        return False
    start = p.pos
    try:
        text = _read(p)
        after = p.peek()
    finally:
        p.pos = start
    ends = after is None or after.is_char(",") or after.is_char(";")
    return ends and _names_unit(p, text)


def alone(p: Parser) -> bool:
    """Whether the tokens are one unit and nothing else (``\\mathrm{rad}``, ``(\\text{m/s})``):
    what a ``\\quad`` sets after a formula as its unit."""
    tokens = p.tokens
    if len(tokens) > 2 and tokens[0].is_char("(") and tokens[-1].is_char(")"):
        p = p.sub(tokens[1:-1], tokens[-1].start)
    token = p.peek()
    if token is None or not _upright(token) or not _atom_at(p, p.pos):
        return False
    text = _read(p)
    return p.peek() is None and _names_unit(p, text)


def skip(p: Parser) -> None:
    """Read past the unit at the current position (see :func:`annotates`)."""
    _read(p)


def _upright(token: Token) -> bool:
    """Whether a unit set after a formula may start here: a ``\\text`` or ``\\mathrm`` group."""
    return token.kind == WORDS or token.is_cmd(*_UNIT_FONTS)


def _names_unit(p: Parser, text: str) -> bool:
    """Whether the text of an upright group reads as a unit rather than a name: it has a
    small letter (``kW/m``, ``ns``, ``dB``), or it is one capital (``V``), and the lesson
    declares no symbol of that name; an all-capital word (``COP``, ``HDD``) is an acronym."""
    letters = [ch for ch in text if ch.isalpha()]
    like = bool(letters) and (any(ch.islower() for ch in letters) or len(letters) == 1)
    return like and text not in p.state.options.symbols


def _read(p: Parser) -> str:
    """The unit atoms from the current position, joined by ``/``, ``\\cdot`` or spaces."""
    parts: list[str] = []
    while _atom_at(p, p.pos):
        parts.append(_atom(p))
        token = p.peek()
        if token is not None and (token.is_char("/") or token.is_cmd("cdot")):
            if _atom_at(p, p.pos + 1):
                p.pos += 1
                parts.append("/" if token.is_char("/") else "·")
                continue
        if token is not None and token.space_before and _atom_at(p, p.pos):
            parts.append(" ")
    return "".join(parts).strip()


def _atom(p: Parser) -> str:
    token = p.next()
    if token.kind == WORDS:
        text = token.text.strip()
    elif token.kind == CMD and kind_of(token.text) == FONT:
        end = _group_end(p, p.pos)
        text = render(p.tokens[p.pos : end])
        p.pos = end
    else:
        text = _SHOWN.get(token.text, token.text)
    if token.text in _UNIT_GREEK and _atom_at(p, p.pos) and not p.peek().space_before:  # type: ignore[union-attr]
        text += _atom(p)
    while p.peek_char("^_"):
        mark = p.next().text
        end = _group_end(p, p.pos)
        text += mark + render(p.tokens[p.pos : end])
        p.pos = end
    return text


def render(tokens: list[Token]) -> str:
    """The plain text of unit tokens: ``\\mathrm{cm^{-3}}`` is ``cm^-3``."""
    out: list[str] = []
    for token in tokens:
        if token.gap and token.kind == LETTER and out and out[-1][-1:].isalpha():
            out.append("·")  # `\mathrm{m\,K}` is metre-kelvin, not millikelvin
        if token.kind in (LETTER, NUMBER, WORDS) or token.kind == CHAR and token.text not in "{}":
            out.append(token.text)
        elif token.kind == CMD and (token.text in _SHOWN or kind_of(token.text) == GREEK):
            out.append(_SHOWN.get(token.text, token.text))
    return "".join(out)


def degrees(p: Parser, base: sympy.Expr, token: Token) -> sympy.Expr:
    """``90^\\circ`` (and ``25^\\circ\\mathrm{C}``): the value with the unit ``°``."""
    text = "°"
    if _atom_at(p, p.pos) and not p.peek().space_before:  # type: ignore[union-attr]
        text += _atom(p)
    return p.build(token, lambda: WithUnit(base, Unit(text)))
