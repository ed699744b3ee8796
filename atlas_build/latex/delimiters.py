"""Delimiters: ``\\left``/``\\right`` forms, bare bars, balance and nesting depth.

Every delimiter is rewritten to one canonical token: ``(``/``)``, ``[``/``]``, braces
``{``/``}``, and the commands ``lbrace``/``rbrace`` (set braces), ``lvert``/``rvert``
(absolute value), ``lVert``/``rVert`` (norm), ``langle``/``rangle``,
``lfloor``/``rfloor``, ``lceil``/``rceil``, and ``lnull``/``rnull`` for ``\\left.``
and ``\\right.``. Mixed brackets pair (``[a, b)`` is a half-open interval), as do
``\\lfloor x \\rceil`` (rounding) and ``\\left.`` with any ``\\right``.

A bare ``|`` (or ``\\vert``) is read by this rule, left to right: it *closes* the
innermost open bare bar when it follows an operand; otherwise, before ``_``/``^``
after an operand, it is an *evaluation bar* (``f(x)|_{x=0}``); otherwise it *opens*
an absolute value. An opened bar still unclosed when its enclosing group closes
(or the input ends) was a *condition bar* (``\\mid``): so ``|R_k \\cap G|`` is a
cardinality and ``P(A|B)`` a conditional probability. ``\\|`` (or ``\\Vert``) works
the same way for norms; an unclosed one is the parallel operator (``R_1 \\| R_2``,
``D(P \\| Q)``). ``||`` opening a group is read as ``\\|``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from .dialect import kind_of
from .errors import SYNTAX, TOO_DEEP, UNBALANCED_BRACE, UNBALANCED_DELIMITER, LatexError
from .lexer import BEGIN, CHAR, CMD, END, LETTER, NUMBER, WORDS, Token
from .roles import CONSTANT, DOTS, GREEK, MARK, SYMBOL, TRANSPOSE

#: Tokens that open a group a factor may start with.
GROUP_OPENERS = frozenset({"(", "[", "{", "lbrace", "lvert", "lVert", "langle", "lfloor"})
GROUP_OPENERS |= {"lceil", "lnull"}

CLOSER = {
    "(": ")",
    "[": "]",
    "{": "}",
    "lbrace": "rbrace",
    "lvert": "rvert",
    "lVert": "rVert",
    "langle": "rangle",
    "lfloor": "rfloor",
    "lceil": "rceil",
    "lnull": "rnull",
}
OPENERS = frozenset(CLOSER) | {"\\begin"}
CLOSERS = frozenset(CLOSER.values()) | {"\\end"}
_ALSO_CLOSES = {
    "(": {"]"},
    "[": {")"},
    "lfloor": {"rceil"},
    "lceil": {"rfloor"},
}
_LEFT = {
    "(": "(",
    "[": "[",
    "lbrack": "[",
    "lgroup": "(",
    "lbrace": "lbrace",
    "|": "lvert",
    "vert": "lvert",
    "lvert": "lvert",
    "Vert": "lVert",
    "lVert": "lVert",
    "langle": "langle",
    "<": "langle",
    "lfloor": "lfloor",
    "lceil": "lceil",
    ".": "lnull",
}
_RIGHT = {
    ")": ")",
    "]": "]",
    "rbrack": "]",
    "rgroup": ")",
    "rbrace": "rbrace",
    "|": "rvert",
    "vert": "rvert",
    "rvert": "rvert",
    "Vert": "rVert",
    "rVert": "rVert",
    "rangle": "rangle",
    ">": "rangle",
    "rfloor": "rfloor",
    "rceil": "rceil",
    ".": "rnull",
}
_MIDDLE = {"|": "mid", "vert": "mid", "mid": "mid", "Vert": "parallel", "/": "/"}
_PLAIN = {"lbrack": "[", "rbrack": "]", "lgroup": "(", "rgroup": ")"}
_BARE = {"|": "lvert", "vert": "lvert", "Vert": "lVert"}
_OPERAND_END = frozenset({")", "]", "}", "rbrace", "rvert", "rVert", "rangle", "rfloor", "rceil"})


def text_of(token: Token) -> str:
    """The delimiter text of ``token``: its character or command name, or ``\\begin``/``\\end``."""
    if token.kind in (CHAR, CMD):
        return token.text
    if token.kind == BEGIN:
        return "\\begin"
    if token.kind == END:
        return "\\end"
    return ""


def sized(tokens: Sequence[Token]) -> list[Token]:
    """Merge ``\\left(`` into one canonical opener (``\\right``, ``\\middle`` alike)."""
    out: list[Token] = []
    i = 0
    while i < len(tokens):
        token = tokens[i]
        if token.is_cmd("left", "right", "middle"):
            table = {"left": _LEFT, "right": _RIGHT, "middle": _MIDDLE}[token.text]
            after = tokens[i + 1] if i + 1 < len(tokens) else None
            text = after.text if after is not None and after.kind in (CHAR, CMD) else ""
            if after is None or text not in table:
                choices = " ".join("\\" + d if d.isalpha() else d for d in sorted(table))
                raise LatexError(
                    UNBALANCED_DELIMITER,
                    f"\\{token.text} must be followed by one of {choices}",
                    token.start,
                )
            canonical = table[text]
            kind = CHAR if canonical in "()[]/" else CMD
            out.append(replace(token, kind=kind, text=canonical, end=after.end))
            i += 2
            continue
        if token.kind == CMD and token.text in _PLAIN:
            token = replace(token, kind=CHAR, text=_PLAIN[token.text])
        out.append(token)
        i += 1
    return out


def _ends_operand(token: Token | None) -> bool:
    if token is None:
        return False
    if token.kind in (LETTER, NUMBER, WORDS) or token.is_char("'") or token.is_char("!"):
        return True
    if token.kind == CMD and kind_of(token.text) in (
        GREEK,
        SYMBOL,
        CONSTANT,
        DOTS,
        MARK,
        TRANSPOSE,
    ):
        return True
    return text_of(token) in _OPERAND_END or token.kind == END


def pair(tokens: Sequence[Token], max_depth: int) -> list[Token]:
    """Resolve bare bars, and check that every delimiter pairs within ``max_depth``."""
    out: list[Token] = []
    stack: list[tuple[int, str, bool]] = []  # (index in out, canonical opener, bare bar)
    i = 0
    while i < len(tokens):
        token = tokens[i]
        text = text_of(token)
        bare = token.kind in (CHAR, CMD) and text in _BARE
        if bare:
            token, i = _bar(tokens, i, out, stack, max_depth)
            out.append(token)
            continue
        if text in OPENERS:
            _push(stack, len(out), text, False, token, max_depth)
        elif text in CLOSERS:
            _unbar(out, stack)
            _close(out, stack, token)
        out.append(token)
        i += 1
    _unbar(out, stack)
    if stack:
        opener = out[stack[-1][0]]
        if opener.kind == BEGIN:
            raise LatexError(SYNTAX, f"\\begin{{{opener.text}}} has no \\end", opener.start)
        code = UNBALANCED_BRACE if opener.text == "{" else UNBALANCED_DELIMITER
        raise LatexError(code, f"{_show(opener)} is never closed", opener.start)
    return out


def _bar(
    tokens: Sequence[Token],
    i: int,
    out: list[Token],
    stack: list[tuple[int, str, bool]],
    max_depth: int,
) -> tuple[Token, int]:
    token = tokens[i]
    opener = _BARE[text_of(token)]
    previous = out[-1] if out else None
    following = tokens[i + 1] if i + 1 < len(tokens) else None
    top = stack[-1] if stack else None
    if top is not None and top[2] and top[1] == opener and _ends_operand(previous):
        stack.pop()
        return Token(CMD, CLOSER[opener], token.start, token.end, token.space_before), i + 1
    double = following is not None and following.start == token.end and text_of(following) == "|"
    if opener == "lvert" and following is not None and double:
        if not _ends_operand(previous):
            merged = Token(CMD, "lVert", token.start, following.end, token.space_before)
            _push(stack, len(out), "lVert", True, merged, max_depth)
            return merged, i + 2
        if top is not None and top[2] and top[1] == "lVert":
            stack.pop()
            return Token(CMD, "rVert", token.start, following.end, token.space_before), i + 2
    if following is not None and following.kind == CHAR and following.text in "_^":
        if _ends_operand(previous):
            return Token(CMD, "evalbar", token.start, token.end, token.space_before), i + 1
    _push(stack, len(out), opener, True, token, max_depth)
    return Token(CMD, opener, token.start, token.end, token.space_before), i + 1


def _push(
    stack: list[tuple[int, str, bool]],
    index: int,
    text: str,
    bare: bool,
    token: Token,
    max_depth: int,
) -> None:
    stack.append((index, text, bare))
    if len(stack) > max_depth:
        raise LatexError(TOO_DEEP, f"nesting deeper than {max_depth} groups", token.start)


def _unbar(out: list[Token], stack: list[tuple[int, str, bool]]) -> None:
    """Bare bars still open when their group closes were condition bars (or ``\\|``)."""
    while stack and stack[-1][2]:
        index, opener, _ = stack.pop()
        old = out[index]
        name = "mid" if opener == "lvert" else "parallel"
        out[index] = Token(CMD, name, old.start, old.end, old.space_before)


def _show(token: Token) -> str:
    names = {
        "lvert": "\\left| or \\lvert",
        "rvert": "\\right| or \\rvert",
        "lVert": "\\left\\| or \\lVert",
        "rVert": "\\right\\| or \\rVert",
        "lnull": "\\left.",
        "rnull": "\\right.",
        "lbrace": "\\{",
        "rbrace": "\\}",
    }
    if token.kind in (BEGIN, END):
        return token.describe()
    return names.get(token.text, repr(token.text))


def _close(out: list[Token], stack: list[tuple[int, str, bool]], closer: Token) -> None:
    text = text_of(closer)
    if not stack:
        if closer.kind == END:
            raise LatexError(SYNTAX, f"{closer.describe()} closes nothing", closer.start)
        code = UNBALANCED_BRACE if text == "}" else UNBALANCED_DELIMITER
        raise LatexError(code, f"{_show(closer)} closes nothing", closer.start)
    index, opener_text, _ = stack.pop()
    opener = out[index]
    if opener.kind == BEGIN or closer.kind == END:
        if opener.kind == BEGIN and closer.kind == END and opener.text == closer.text:
            return
        raise LatexError(
            SYNTAX,
            f"{_show(closer)} does not match {_show(opener)} at offset {opener.start}",
            closer.start,
        )
    if _matches(opener_text, text):
        return
    brace = "{" in (opener_text, text) or text == "}"
    raise LatexError(
        UNBALANCED_BRACE if brace else UNBALANCED_DELIMITER,
        f"{_show(closer)} does not match {_show(opener)} at offset {opener.start}",
        closer.start,
    )


def _matches(opener: str, closer: str) -> bool:
    if CLOSER.get(opener) == closer or closer in _ALSO_CLOSES.get(opener, ()):
        return True
    if "{" in (opener, closer) or "}" == closer:
        return False
    return opener == "lnull" or closer == "rnull"
