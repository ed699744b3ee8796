"""A name with its scripts, and what follows it: a call, an index, or nothing.

Application rule (``f(x)`` versus ``a(b + c)``): a name directly followed by a
parenthesised group is *applied* to it when the group holds a list (``f(s_n, e_n)``)
or a condition (``P(A \\mid B)``, ``P(X = k)``: a probability, see :mod:`.probability`);
when the name is declared in ``functions``, is ``f``, ``g`` or ``h`` (accented or primed
too; not when declared in ``symbols``: a glossary's heat-transfer coefficient ``h``), is
primed, or is an
upright, calligraphic or double-struck name (``\\mathrm{Var}(X)``, ``\\mathcal{L}(\\theta)``);
or when it is a single-letter name not separated from the group by a space and the
group is one term (no top-level ``+``/``-``): ``x(t)``, ``\\sigma(z)``, ``p(x)``, unless the
name is a glossary's plain symbol and the group works a value out (``H_0(n/n_0)^2``).
Otherwise it multiplies: ``a_j(v_j - o)``, ``T(T+1)``, ``g_m (r_o + R)``.

A name written against ``[`` (no space, not ``\\left[``) is indexed: ``x[n-k]`` is
``IndexedBase('x')[n - k]``; upright names are applied instead (``\\mathrm{Var}[X]``).
``\\mathbb{E}[...]`` is an :class:`Expectation`, ``\\mathbb{1}[...]`` an :class:`Indicator`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import sympy

from . import names, probability
from .delimiters import CLOSERS, OPENERS, text_of
from .dialect import kind_of
from .functions import Component, Expectation, Indicator, Related, Transposed
from .lexer import CHAR, CMD, LETTER, NUMBER, WORDS, Token
from .names import ACCENTS, STYLED_FONTS, UPRIGHT_FONTS, symbol_name, word
from .normalise import is_relation
from .roles import ACCENT, FONT, GREEK, SYMBOL
from .words import name_of

if TYPE_CHECKING:
    from .parser import Parser
    from .state import Arg

_FUNCTION_LETTERS = frozenset({"f", "g", "h", "sigma", "phi", "varphi", "Phi", "psi"})
_SUFFIXES = frozenset(ACCENTS.values()) | {"prime"} | {f"prime{n}" for n in range(2, 9)}
_BRACKETS = ("[", "(", "lbrace")


class _Stem:
    """A name before its scripts, and how it was written."""

    def __init__(self, text: str, upright: bool = False, styled: bool = False) -> None:
        self.text = text
        self.upright = upright
        self.styled = styled
        self.sub: Arg | None = None


def named(p: Parser) -> sympy.Expr:
    """A symbol with its scripts: composite name, indexed entry, constant or call."""
    token = p.next()
    stem = _stem(p, token)
    if isinstance(stem, sympy.Basic):
        return names.scripted_atom(p, stem, token)
    sub, sup, primes, mark_first = _scripts(p, stem.sub)
    name = stem.text + ("" if not primes else "_prime" if primes == 1 else f"_prime{primes}")
    transposed = names.labelled_transpose(sup)
    sup = transposed or sup
    mark = names.mark_of(sup)
    label = names.label_of(p, sup) if mark is None else None
    sup_tokens = sup.tokens if sup is not None else []
    if mark is not None or label is not None:
        sup = None
    if mark is not None and mark_first:
        name = f"{name}_{mark}"
    if label is not None:
        upright = not (sup_tokens[0].is_char("(")) if sup_tokens else True
        name = f"{name}^{label}" if upright else f"{name}^({label})"
    special = _special(p, name, stem, sub, token)
    if special is not None:
        return names.scripted_atom(p, names.superscript(p, special, sup, token), token)
    kind = kind_of(token.text) if token.kind == CMD else None
    constant = (token.kind == LETTER or kind == GREEK or stem.upright) and not (primes or mark)
    attached = p.peek()
    if name == "e" and attached is not None and not attached.space_before:
        constant = constant and not (attached.is_char("[") or attached.is_char("("))
    if stem.upright and name in IMAGINARY and sub is None and constant and _free(p, name):
        expr: sympy.Expr = sympy.I  # `\\mathrm{j}\\omega L`, as ISO 80000-2 writes it
    else:
        expr = names.resolve(p, name, sub, token, constant)
    if mark is not None and not mark_first:
        expr = names.rename(p, expr, mark)
    following = p.peek()
    inverse = sup is not None and [t.text for t in sup.tokens] in (["-", "1"], ["-1"])
    if inverse and following is not None and (following.is_char("(") or following.is_cmd("lbrace")):
        if isinstance(expr, sympy.Symbol) and _applies(p, expr, name, stem):
            expr, sup = names.symbol(p, f"{expr.name}_inv"), None
    if following is not None and following.is_char("(") and isinstance(expr, sympy.Indexed):
        flat = _flattened(p, expr)  # `x_i(t)` in a sum over i: the record x_i at time t
        expr = flat if flat is not None and _applies(p, flat, name, stem) else expr
    if following is not None and following.is_char("(") and _applies(p, expr, name, stem):
        expr = _call(p, expr, token)
    elif following is not None and following.is_char("[") and _indexes(following):
        expr = _bracket(p, expr, stem, token)
    elif following is not None and following.is_cmd("lbrace") and (stem.upright or stem.styled):
        expr = _call(p, expr, token)
    expr = names.superscript(p, expr, sup, token)
    return expr if transposed is None else p.build(token, lambda: Transposed(expr))


IMAGINARY = frozenset({"i", "j"})
"""Letters that written upright (``\\mathrm{i}``, ``\\mathrm{j}``) are the imaginary unit."""


def _imaginary_unit(token: Token, text: str) -> bool:
    return token.is_cmd("mathrm") and text in IMAGINARY


def _free(p: Parser, name: str) -> bool:
    """Not declared a plain symbol, an index or a matrix, and not bound by a sum."""
    options = p.state.options
    declared = options.symbols, options.indices, options.matrices, p.bound
    return not any(name in names_ for names_ in declared)


def _stem(p: Parser, token: Token) -> _Stem | sympy.Basic:
    kind = kind_of(token.text) if token.kind == CMD else None
    if token.kind == LETTER:
        return _Stem(token.text)
    if token.kind == WORDS:
        return _Stem(name_of(token.text), upright=True)
    if kind in (GREEK, SYMBOL):
        if token.text == "Delta" and _starts_name(p.peek()):
            rest = _stem(p, p.next())
            if isinstance(rest, _Stem):
                rest.text = "Delta" + rest.text
            return rest
        if token.text == "delta" and _declared_change(p):
            rest = _stem(p, p.next())  # `\\delta q`, a glossary's δq: the error in q
            if isinstance(rest, _Stem):
                rest.text = "delta" + rest.text
            return rest
        return _Stem(symbol_name(token))
    arg = p.argument(f"the argument of \\{token.text}")
    if kind == FONT:
        parsed = word(p, arg, token.text)
        if parsed is None:
            return p.of(arg).whole()
        upright = token.text in UPRIGHT_FONTS and len(parsed.text) > 1
        upright = upright or parsed.text == "e" or _imaginary_unit(token, parsed.text)
        text = parsed.text + _cut_off(p) if parsed.text.endswith("@") else parsed.text
        return _Stem(text, upright, token.text in STYLED_FONTS)
    cut = next((k for k, t in enumerate(arg.tokens) if t.is_char("_")), len(arg.tokens))
    from .state import Arg

    base = Arg(arg.tokens[:cut], arg.start, arg.end)
    parsed = word(p, base) if cut else None
    suffix = ACCENTS[token.text]
    if parsed is None:
        inner = p.of(arg).whole()
        return p.build(token, lambda: sympy.Function(suffix)(inner))
    stem = _Stem(f"{parsed.text}_{suffix}", styled=parsed.text.endswith(("_bb", "_cal")))
    if cut < len(arg.tokens) - 1:
        reader = p.sub(arg.tokens[cut + 1 :], arg.end)
        stem.sub = reader.argument("a subscript")
        if reader.peek() is not None:
            inner = p.of(arg).whole()
            return p.build(token, lambda: sympy.Function(suffix)(inner))
    return stem


def _cut_off(p: Parser) -> str:
    """The `k` of `\\mathrm{NR@}k`: a metric taken at a cut-off is one name, `NR@k`, as a
    glossary writes it; empty when no letter or number is written against the `@`."""
    following = p.peek()
    if following is None or following.space_before or following.kind not in (LETTER, NUMBER):
        return ""
    p.pos += 1
    return following.text


def _declared_change(p: Parser) -> bool:
    """Whether `\\delta` and the letter after it are one symbol the lesson declares (`δq`,
    a small change in q; `δT_hot`, with its subscript); undeclared, `\\delta q` stays δ
    times q."""
    following = p.peek()
    if following is None or following.kind != LETTER:
        return False
    stem = "delta" + following.text
    return any(name == stem or name.startswith(stem + "_") for name in p.state.options.symbols)


def _starts_name(token: Token | None) -> bool:
    if token is None:
        return False
    if token.kind == LETTER:
        return True
    kind = kind_of(token.text) if token.kind == CMD else None
    return kind in (GREEK, FONT, ACCENT) and token.text != "Delta"


def _scripts(p: Parser, sub: Arg | None) -> tuple[Arg | None, Arg | None, int, bool]:
    """Subscript, superscript, prime count, and whether the superscript came first."""
    sup: Arg | None = None
    primes = 0
    sup_first = False
    while (token := p.peek()) is not None and token.kind == CHAR and token.text in "_^'":
        p.pos += 1
        if token.text == "'":
            primes += 1
            continue
        if (sub if token.text == "_" else sup) is not None:
            raise p.error(f"double {'sub' if token.text == '_' else 'super'}script", token)
        if token.text == "_":
            sub = p.argument("a subscript")
        else:
            sup = p.argument("a superscript")
            sup_first = sub is None
    return sub, sup, primes, sup_first


def _group(p: Parser) -> list[Token]:
    """The tokens of the group opening at the next token (not consumed)."""
    depth = 0
    for k in range(p.pos, len(p.tokens)):
        text = text_of(p.tokens[k])
        depth += (text in OPENERS) - (text in CLOSERS)
        if depth == 0:
            return p.tokens[p.pos + 1 : k]
    return p.tokens[p.pos + 1 :]


def _top_level(tokens: list[Token]) -> list[Token]:
    out: list[Token] = []
    depth = 0
    for token in tokens:
        text = text_of(token)
        if depth == 0 and text not in CLOSERS:
            out.append(token)
        depth += (text in OPENERS) - (text in CLOSERS)
    return out


def _applies(p: Parser, expr: sympy.Expr, name: str, stem: _Stem) -> bool:
    if not (isinstance(expr, sympy.Symbol) or expr == sympy.pi):
        return False
    top = _top_level(_group(p))
    if any(t.kind == CHAR and t.text in ",;" or t.is_cmd("mid") or is_relation(t) for t in top):
        return True
    opening = p.peek()
    if opening is not None and opening.tight and not _factor(top):
        return True  # `I_{pv}\!\left(V + V_{sw}\right)`: the current at that voltage
    full = "pi" if expr == sympy.pi else str(expr)
    base, _, rest = full.partition("_")
    decorated = not rest or rest in _SUFFIXES
    letter = base in _FUNCTION_LETTERS and decorated and full not in p.state.options.symbols
    if full in p.state.options.functions or letter:
        return True
    if "_prime" in name or stem.upright or stem.styled:
        return True
    if full in p.state.options.symbols and any(_operation(t) for t in top):
        return False  # `H_0\left(\frac{n}{n_0}\right)^2`: a glossary quantity times a ratio
    following = p.peek()
    if (
        following is None
        or following.space_before
        or not _single_letter(base.removeprefix("Delta"))
    ):
        return False
    signs = [t for k, t in enumerate(top) if k > 0 and t.kind == CHAR and t.text in "+-"]
    return not signs and not any(t.is_cmd("pm", "mp") for t in top)


def _factor(top: list[Token]) -> bool:
    """`(1 + x)` or `(1 - x)`: the correction factor a quantity is scaled by
    (`S_{\\min}\\!\\left(1+\\frac{B}{B_0}\\right)`), which no function is written to take."""
    return len(top) > 1 and top[0].kind == NUMBER and top[0].text == "1" and top[1].text in "+-"


def _operation(token: Token) -> bool:
    """A token that works a value out (`\\frac`, `\\sqrt`, `/`, `^`): a group holding one is an
    expression, which a glossary's plain quantity multiplies rather than takes."""
    return token.is_cmd("frac", "dfrac", "tfrac", "sqrt", "cdot", "times") or (
        token.kind == CHAR and token.text in "*/^"
    )


def _flattened(p: Parser, expr: sympy.Indexed) -> sympy.Symbol | None:
    """`x[i]` as the symbol `x_i` it is outside a sum, so that `x_i(t)` applies as there
    (`\\sum_i x_i(t)` is a sum of signals, not of x_i times t); None for other indices."""
    if len(expr.indices) != 1 or not isinstance(expr.indices[0], sympy.Symbol):
        return None
    return names.symbol(p, f"{expr.base}_{expr.indices[0]}")


def _single_letter(base: str) -> bool:
    return len(base) == 1 or kind_of(base) in (GREEK, SYMBOL)


def _call(p: Parser, expr: sympy.Expr, token: Token) -> sympy.Expr:
    args = p.call_args()
    result = probability.applied(p, token, "pi" if expr == sympy.pi else str(expr), args)
    after_sub, after_sup = p.scripts()
    if after_sub is not None:
        index = p.of(after_sub).whole()
        result = p.build(token, lambda: Component(result, index))
    return names.superscript(p, result, after_sup, token)


def _indexes(bracket: Token) -> bool:
    """A bracket written against the name: not spaced, not ``\\left[``."""
    return not bracket.space_before and bracket.end - bracket.start == 1


def _bracket(p: Parser, expr: sympy.Expr, stem: _Stem, token: Token) -> sympy.Expr:
    if not isinstance(expr, sympy.Symbol):
        return expr
    if stem.upright or stem.styled or expr.name in p.state.options.functions:
        inner, _ = p.delimited(p.next())
        return probability.applied(p, token, expr.name, inner.items())
    inner, _ = p.delimited(p.next())
    indices = inner.items()
    return p.build(token, lambda: sympy.IndexedBase(expr.name)[tuple(indices)])


def _special(p: Parser, name: str, stem: _Stem, sub: Arg | None, token: Token) -> sympy.Expr | None:
    """``\\mathbb{E}_{x\\sim p}[f(x)]`` and ``\\mathbb{1}[y = k]`` / ``\\mathbb{1}_{A}(x)``."""
    following = p.peek()
    opens = following is not None and text_of(following) in _BRACKETS
    if (name.startswith("E_bb") or name == "E" and stem.upright) and opens:
        over = p.of(sub).items() if sub is not None else []
        inner, _ = p.delimited(p.next())
        body = inner.item()
        where = sympy.true if not over else over[0] if len(over) == 1 else sympy.Tuple(*over)
        return p.build(token, lambda: Expectation(body, where))
    if name not in ("1_bb", "I_bb", "1") or not (stem.styled or name == "1"):
        return None
    if sub is not None and not opens:
        first = sub.tokens[0] if sub.tokens else None
        if first is not None and text_of(first) in _BRACKETS:
            reader = p.of(sub)
            inner, _ = reader.delimited(reader.next())
            condition = inner.item()
        else:
            condition = p.of(sub).item()
        return p.build(token, lambda: Indicator(condition))
    if opens:
        inner, _ = p.delimited(p.next())
        condition = inner.item()
        if sub is not None:
            where = p.of(sub).whole()
            element = condition
            condition = p.build(token, lambda: Related(element, where, "in"))
        return p.build(token, lambda: Indicator(condition))
    return None
