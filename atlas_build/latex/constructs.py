"""Constructs that take their own arguments: fractions, roots, binomials, elementary
and named functions, and ``\\operatorname``.

Each handler is called by :func:`.dispatch.primary` after its command token.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import sympy

from . import calculus, names, probability
from .errors import TOO_LARGE
from .functions import Det
from .lexer import Token
from .names import MAX_FACTORIAL

if TYPE_CHECKING:
    from .parser import Parser

ELEMENTARY: dict[str, Any] = {
    "exp": sympy.exp,
    "ln": sympy.log,
    "log": sympy.log,
    "lg": lambda x: sympy.log(x, 10),
    "sin": sympy.sin,
    "cos": sympy.cos,
    "tan": sympy.tan,
    "cot": sympy.cot,
    "sec": sympy.sec,
    "csc": sympy.csc,
    "sinh": sympy.sinh,
    "cosh": sympy.cosh,
    "tanh": sympy.tanh,
    "coth": sympy.coth,
    "arcsin": sympy.asin,
    "arccos": sympy.acos,
    "arctan": sympy.atan,
    "arctg": sympy.atan,
    "arcctg": sympy.acot,
    "Re": sympy.re,
    "Im": sympy.im,
}
INVERSES: dict[str, Any] = {
    "sin": sympy.asin,
    "cos": sympy.acos,
    "tan": sympy.atan,
    "cot": sympy.acot,
    "sinh": sympy.asinh,
    "cosh": sympy.acosh,
    "tanh": sympy.atanh,
}
OPERATOR_NAMES: dict[str, Any] = {
    "sgn": sympy.sign,
    "sign": sympy.sign,
    "erf": sympy.erf,
    "erfc": sympy.erfc,
    "arcsinh": sympy.asinh,
    "arccosh": sympy.acosh,
    "arctanh": sympy.atanh,
    "det": Det,
}
"""Operator names with a SymPy meaning (``\\operatorname{sgn}`` is ``sign``); any other
name is an applied undefined function the caller binds."""


def fraction(p: Parser, token: Token) -> sympy.Expr:
    """``\\frac{a}{b}`` as ``a * b**-1``, or a derivative (see :mod:`.calculus`)."""
    num = p.argument("a numerator")
    den = p.argument("a denominator")
    derivative = calculus.fraction_derivative(p, token, num, den)
    if derivative is not None:
        return derivative
    numerator = p.of(num).whole()
    denominator = p.of(den).whole()
    return p.build(
        token, lambda: sympy.Mul(numerator, names.power(p, denominator, sympy.Integer(-1), token))
    )


def root(p: Parser, token: Token) -> sympy.Expr:
    """``\\sqrt{x}`` and ``\\sqrt[n]{x}``."""
    exponent: sympy.Expr = sympy.Rational(1, 2)
    if p.peek_char("["):
        inner, _ = p.delimited(p.next())
        exponent = names.power(p, inner.whole(), sympy.Integer(-1), token)
    arg = p.argument("the radicand")
    return names.power(p, p.of(arg).whole(), exponent, token)


def binomial(p: Parser, token: Token) -> sympy.Expr:
    """``\\binom{n}{k}``; exact values are bounded like factorials."""
    n = p.of(p.argument("the top of a binomial")).whole()
    k = p.of(p.argument("the bottom of a binomial")).whole()
    return choose(p, token, n, k)


def choose(p: Parser, token: Token, n: sympy.Expr, k: sympy.Expr) -> sympy.Expr:
    if n.is_Integer:
        if int(n) > MAX_FACTORIAL:
            raise p.error(f"the binomial of {n} is too large to form exactly", token, TOO_LARGE)
        names.charge(p, int(n), token)
    return p.build(token, lambda: sympy.binomial(n, k))


def elementary(p: Parser, token: Token) -> sympy.Expr:
    """``\\exp``, ``\\ln``, ``\\log`` (``\\log_b`` is base b), ``\\sin``...; ``\\sin^2 x``
    squares, ``\\sin^{-1} x`` is the inverse function."""
    sub, sup = p.scripts()
    if sub is not None and token.text != "log":
        raise p.error(f"\\{token.text} takes no subscript", token)
    base = p.of(sub).whole() if sub is not None else None
    if sup is not None and token.text in INVERSES and _is_minus_one(p, sup):
        arg = p.function_argument()
        inverse = INVERSES[token.text]
        return p.build(token, lambda: inverse(arg))
    arg = p.function_argument()
    function = ELEMENTARY[token.text]
    if base is not None:
        result = p.build(token, lambda: sympy.log(arg, base))
    else:
        result = p.build(token, lambda: function(arg))
    return names.superscript(p, result, sup, token)


def _is_minus_one(p: Parser, sup: Any) -> bool:
    texts = [t.text for t in sup.tokens]
    return texts in (["-", "1"], ["-1"])


def named_function(p: Parser, token: Token) -> sympy.Expr:
    """``\\det A``, ``\\Pr[X \\ge a]``, ``\\gcd(a, b)``, ``\\angle z``, ``\\dim V``."""
    sub, sup = p.scripts()
    over = p.of(sub).item() if sub is not None else None
    following = p.peek()
    if following is not None and (p.peek_char("([") or following.is_cmd("lbrace")):
        inner, _ = p.delimited(p.next())
        args = inner.items()
    else:
        args = [p.function_argument()]
    if over is not None:
        args.append(over)
    if token.text == "det":
        result = p.build(token, lambda: Det(*args))
    elif token.text in ("angle", "measuredangle"):
        result = p.build(token, lambda: sympy.arg(*args))
    else:
        result = probability.applied(p, token, token.text, args)
    return names.superscript(p, result, sup, token)


def operatorname(p: Parser, token: Token) -> sympy.Expr:
    """``\\operatorname{f}_{\\mathrm{s}}(x, y)`` as ``Function('f_s')(x, y)``; a symbol when
    no argument follows (``\\operatorname{WER} = ...``); ``arg\\,max`` is an arg max."""
    word = names.word(p, p.argument("a function name"), "operatorname")
    if word is None:
        raise p.error(f"\\{token.text} needs a plain name", token)
    name = word.text
    if name in ("argmax", "argmin", "arg_max", "arg_min", "max", "min", "sup", "inf"):
        from .bigops import extremum_named

        return extremum_named(p, token, name.replace("_", ""))
    sub, sup = p.scripts()
    if sub is not None:
        suffix = names.word(p, sub)
        if suffix is None:
            raise p.error("an \\operatorname subscript must be a plain name", token)
        name = f"{name}_{suffix.text}"
    following = p.peek()
    if following is None or not p.starts_factor(following):
        return names.superscript(p, names.symbol(p, name), sup, token)
    if p.peek_char("(") or following.is_cmd("lbrace") or p.peek_char("["):
        inner, _ = p.delimited(p.next())
        args = inner.items()
    else:
        args = [p.function_argument()]
    known = OPERATOR_NAMES.get(name)
    if known is not None:
        result = p.build(token, lambda: known(*args))
    else:
        result = probability.applied(p, token, name, args)
    after_sub, after_sup = p.scripts()
    if after_sub is not None:
        from .functions import Component

        index = p.of(after_sub).whole()
        result = p.build(token, lambda: Component(result, index))
    return names.superscript(p, result, sup or after_sup, token)
