"""Derivatives and integrals: ``\\frac{dy}{dx}``, ``\\partial_x f``, ``\\nabla_\\theta L``,
``\\int_a^b f(x)\\,dx``.

A *differential* is ``\\partial``, or ``d`` written before a name: a plain ``d``
(``dx``, ``d\\tau``), ``\\mathrm{d}``, ``\\text{d}`` or ``\\operatorname{d}``. In a
fraction whose numerator and denominator both start with one, the fraction is a
derivative; in an integral, the first differential at the integral's level closes
the integrand (``\\int_0^1 x^2\\,dx``) or, written first, opens it (``\\int dx\\, f``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import sympy

from .delimiters import CLOSERS, OPENERS, text_of
from .dialect import kind_of
from .functions import Curl, Differential, Divergence, Gradient, Laplacian
from .lexer import CMD, LETTER, WORDS, Token
from .normalise import is_relation
from .roles import ACCENT, FONT, GREEK, INTEGRAL, SYMBOL
from .sets import IndexIn, IntegralOver
from .state import Arg

if TYPE_CHECKING:
    from .parser import Parser

MAX_ORDER = 16
_FOLD = {"int": 1, "iint": 2, "iiint": 3, "oint": 1, "intop": 1, "smallint": 1}


def _name_start(token: Token | None) -> bool:
    if token is None:
        return False
    if token.kind == LETTER:
        return True
    kind = kind_of(token.text) if token.kind == CMD else None
    return kind in (GREEK, SYMBOL, FONT, ACCENT)


def differential(tokens: Sequence[Token], i: int) -> tuple[str, int] | None:
    """The differential at ``tokens[i]``: (``partial`` | ``d``, its token count)."""
    if i >= len(tokens):
        return None
    token = tokens[i]
    after = tokens[i + 1] if i + 1 < len(tokens) else None
    if token.is_cmd("partial"):
        return "partial", 1
    if token.kind == LETTER and token.text == "d":
        if after is None or after.is_char("^") or _name_start(after):
            return "d", 1
        return None
    if token.kind == WORDS and token.text.strip() == "d":
        return "d", 1
    if token.is_cmd("mathrm", "operatorname") and after is not None:
        if after.kind == LETTER and after.text == "d":
            return "d", 2
        texts = [t.text for t in tokens[i + 1 : i + 4]]
        if after.is_char("{") and texts == ["{", "d", "}"]:
            return "d", 4
    return None


def fraction_derivative(p: Parser, token: Token, num: Arg, den: Arg) -> sympy.Expr | None:
    """``\\frac{\\partial^k y}{\\partial x ...}`` or ``\\frac{dy}{dx}`` as an unevaluated
    ``Derivative``; ``None`` when the fraction is not a derivative."""
    num_prefix, den_prefix = differential(num.tokens, 0), differential(den.tokens, 0)
    if num_prefix is None or den_prefix is None or num_prefix[0] != den_prefix[0]:
        return None
    numerator = p.sub(num.tokens[num_prefix[1] :], num.end)
    order: int | None = None
    if numerator.peek_char("^"):
        numerator.pos += 1
        arg = numerator.argument("the derivative order")
        order = _order(p, numerator.of(arg).whole(), token)
    operand = numerator.whole() if numerator.peek() is not None else None
    variables: list[tuple[sympy.Expr, int]] = []
    starts = [i for i in range(len(den.tokens)) if differential(den.tokens, i) == den_prefix]
    for k, begin in enumerate(starts):
        stop = starts[k + 1] if k + 1 < len(starts) else len(den.tokens)
        chunk = den.tokens[begin + den_prefix[1] : stop]
        end = den.tokens[stop].start if stop < len(den.tokens) else den.end
        if not chunk:
            raise p.error("a differential needs a variable", den.tokens[begin])
        var = p.sub(chunk, end).whole()
        count = 1
        if isinstance(var, sympy.Pow) and var.exp.is_Integer and 0 < var.exp <= MAX_ORDER:
            var, count = var.base, int(var.exp)
        if not isinstance(var, sympy.Symbol | sympy.Indexed):
            raise p.error(f"cannot differentiate with respect to {var}", den.tokens[begin])
        variables.append((var, count))
    total = sum(count for _, count in variables)
    if total != (order if order is not None else 1):
        raise p.error(f"derivative order {order or 1} does not match the denominator", token)
    body = operand if operand is not None else p.term()
    return p.build(token, lambda: sympy.Derivative(body, *variables, evaluate=False))


def slash_derivative(p: Parser) -> sympy.Expr | None:
    """``dR/dt`` written inline, at the parser's position: the derivative ``\\frac{dR}{dt}``
    is (read as d·R/(d·t), its d's cancelled and left R/t); None for anything else."""
    tokens, i = p.tokens, p.pos
    first = differential(tokens, i)
    if first is None or first[0] != "d":
        return None
    k = _variable_end(tokens, i + first[1])
    if k == i + first[1] or k >= len(tokens) or not tokens[k].is_char("/"):
        return None
    if differential(tokens, k + 1) != first:
        return None
    m = _variable_end(tokens, k + 1 + first[1])
    if m == k + 1 + first[1] or m > len(tokens):
        return None
    num = Arg(tokens[i:k], tokens[i].start, tokens[k - 1].end)
    den = Arg(tokens[k + 1 : m], tokens[k + 1].start, tokens[m - 1].end)
    p.pos = m
    return fraction_derivative(p, tokens[i], num, den)


def _order(p: Parser, value: sympy.Expr, token: Token) -> int:
    if not (value.is_Integer and 0 < value <= MAX_ORDER):
        raise p.error(f"a derivative order must be an integer from 1 to {MAX_ORDER}", token)
    return int(value)


def partial(p: Parser, token: Token) -> sympy.Expr:
    """``\\partial_x f`` (``\\partial_x^2 f``) is a derivative; a bare ``\\partial L`` is a
    :class:`Differential` (so ``\\partial L / \\partial w`` is a derivative too)."""
    sub, sup = p.scripts()
    operand = p.postfix()
    if sub is None:
        if sup is not None:
            raise p.error("write \\partial^2 inside \\frac, or \\partial_x^2 f", token)
        return p.build(token, lambda: Differential(operand))
    variable = p.of(sub).whole()
    count = _order(p, p.of(sup).whole(), token) if sup is not None else 1
    if not isinstance(variable, sympy.Symbol | sympy.Indexed):
        raise p.error(f"cannot differentiate with respect to {variable}", token)
    return p.build(token, lambda: sympy.Derivative(operand, (variable, count), evaluate=False))


def nabla(p: Parser, token: Token) -> sympy.Expr:
    """``\\nabla f``, ``\\nabla_\\theta L``, ``\\nabla^2 f``; divergence ``\\nabla\\cdot F``
    and curl ``\\nabla\\times F``."""
    sub, sup = p.scripts()
    following = p.peek()
    if following is not None and following.is_cmd("cdot", "times"):
        p.pos += 1
        operand = p.function_argument()
        node = Divergence if following.text == "cdot" else Curl
        return p.build(token, lambda: node(operand))
    operand = p.function_argument()
    if sup is not None:
        if [t.text for t in sup.tokens] != ["2"]:
            raise p.error("only \\nabla^2 (the Laplacian) is supported", token)
        return p.build(token, lambda: Laplacian(operand))
    if sub is None:
        return p.build(token, lambda: Gradient(operand))
    variable = p.of(sub).whole()
    return p.build(token, lambda: Gradient(operand, variable))


def _variable_end(tokens: Sequence[Token], i: int) -> int:
    """Index after the name starting at ``tokens[i]`` (its font/accent group, scripts, primes)."""
    n = len(tokens)
    if i >= n:
        return i
    token = tokens[i]
    j = i + 1
    kind = kind_of(token.text) if token.kind == CMD else None
    if kind in (FONT, ACCENT):
        j = _group_end(tokens, j)
    while j < n and (tokens[j].is_char("'") or tokens[j].is_char("_")):
        j = _group_end(tokens, j + 1) if tokens[j].is_char("_") else j + 1
    return j


def _group_end(tokens: Sequence[Token], j: int) -> int:
    if j >= len(tokens) or not tokens[j].is_char("{"):
        return j + 1
    depth = 0
    for k in range(j, len(tokens)):
        text = text_of(tokens[k])
        depth += (text in OPENERS) - (text in CLOSERS)
        if depth == 0:
            return k + 1
    return len(tokens)


def _find_differential(p: Parser) -> int | None:
    """Position of this integral's differential: the first one at its level before a
    relation, after those taken by integrals nested in it (``\\int\\int f\\,dx\\,dy``:
    the inner integral takes ``dx``, the outer ``dy``)."""
    depth = nested = 0
    for k in range(p.pos, len(p.tokens)):
        token = p.tokens[k]
        text = text_of(token)
        if depth == 0:
            if is_relation(token):
                return None
            if token.kind == CMD and kind_of(text) == INTEGRAL:
                nested += _FOLD.get(text, 1)
            found = differential(p.tokens, k)
            if found is not None and found[0] == "d" and _name_start(_after(p.tokens, k, found)):
                if nested == 0:
                    return k
                nested -= 1
        depth += (text in OPENERS) - (text in CLOSERS)
    return None


def _after(tokens: Sequence[Token], k: int, found: tuple[str, int]) -> Token | None:
    j = k + found[1]
    return tokens[j] if j < len(tokens) else None


def _variables(p: Parser, count: int, token: Token) -> list[sympy.Expr]:
    """Parse ``count`` or more differentials ``dx\\,dy`` at the current position."""
    variables: list[sympy.Expr] = []
    while True:
        found = differential(p.tokens, p.pos)
        if found is None or found[0] != "d" or not _name_start(_after(p.tokens, p.pos, found)):
            break
        begin = p.pos + found[1]
        end = _variable_end(p.tokens, begin)
        stop = p.tokens[end].start if end < len(p.tokens) else p.end
        variables.append(p.sub(p.tokens[begin:end], stop).whole())
        p.pos = end
    if len(variables) < count:
        raise p.error(f"\\{token.text} needs {count} differential(s) such as dx", token)
    for variable in variables:
        if not isinstance(variable, sympy.Symbol | sympy.Indexed):
            raise p.error(f"cannot integrate with respect to {variable}", token)
    return variables


def integral(p: Parser, token: Token) -> sympy.Expr:
    """``\\int_a^b f\\,dx`` is ``Integral(f, (x, a, b))``; ``\\int f\\,dx`` is indefinite;
    ``\\int_D f\\,dx`` (a region) is ``IntegralOver(f, IndexIn(x, D))``."""
    sub, sup = p.scripts()
    count = _FOLD.get(token.text, 1)
    at = _find_differential(p)
    if at is None:
        raise p.error(f"\\{token.text} needs its differential (dx or \\mathrm{{d}}x)", token)
    if at == p.pos:
        variables = _variables(p, count, token)
        body = p.term()
    else:
        end = p.tokens[at].start
        last = at - 1 if at - 1 > p.pos and p.tokens[at - 1].is_cmd("cdot") else at
        body = p.sub(p.tokens[p.pos : last], end).whole()  # `\\oint H\\cdot dl`: along l
        p.pos = at
        variables = _variables(p, count, token)
    lower = p.of(sub).whole() if sub is not None else None
    upper = p.of(sup).whole() if sup is not None else None
    if lower is not None and upper is None:
        index = variables[0] if len(variables) == 1 else sympy.Tuple(*variables)
        return p.build(token, lambda: IntegralOver(body, IndexIn(index, lower)))
    if (lower is None) != (upper is None):
        raise p.error("an integral needs both limits or none", token)
    if lower is None:
        return p.build(token, lambda: sympy.Integral(body, *variables))
    limits = [(variables[0], lower, upper), *variables[1:]]
    return p.build(token, lambda: sympy.Integral(body, *limits))
