"""Tokeniser for lesson LaTeX; every token keeps its offsets into the original text."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from .dialect import WHITELIST
from .errors import TOO_LONG, UNEXPECTED_CHARACTER, UNKNOWN_COMMAND, LatexError

CMD: Final = "cmd"
LETTER: Final = "letter"
NUMBER: Final = "number"
CHAR: Final = "char"

_CHARS: Final = frozenset("{}^_&+-*/=<>()[],|!'.:;")
_SPACE: Final = frozenset(" \t\r\n~")


@dataclass(frozen=True)
class Token:
    """A lexeme: ``kind`` is cmd/letter/number/char; ``text`` is the command name
    without backslash, the letter, the digits, or the character."""

    kind: str
    text: str
    start: int
    end: int
    space_before: bool = False

    def is_char(self, text: str) -> bool:
        return self.kind == CHAR and self.text == text

    def is_cmd(self, *names: str) -> bool:
        return self.kind == CMD and self.text in names

    def describe(self) -> str:
        return "\\" + self.text if self.kind == CMD else repr(self.text)


def tokenize(latex: str, max_length: int) -> list[Token]:
    """Split ``latex`` into tokens, rejecting over-long input, stray characters and
    any control sequence outside the whitelist (the error names it)."""
    if len(latex) > max_length:
        raise LatexError(
            TOO_LONG, f"equation has {len(latex)} characters; the limit is {max_length}", 0
        )
    tokens: list[Token] = []
    i, n = 0, len(latex)
    space = False
    while i < n:
        ch = latex[i]
        if ch in _SPACE:
            i, space = i + 1, True
            continue
        if ch == "%":
            newline = latex.find("\n", i)
            i, space = (n if newline < 0 else newline + 1), True
            continue
        start = i
        if ch == "\\":
            i += 1
            if i >= n:
                raise LatexError(UNEXPECTED_CHARACTER, "lone backslash at end of input", start)
            if latex[i].isascii() and latex[i].isalpha():
                while i < n and latex[i].isascii() and latex[i].isalpha():
                    i += 1
            else:
                i += 1
            name = latex[start + 1 : i]
            if name == "\n":
                name = " "
            if name not in WHITELIST:
                raise LatexError(
                    UNKNOWN_COMMAND,
                    f"unknown control sequence \\{name} (not in the lesson-LaTeX whitelist)",
                    start,
                )
            tokens.append(Token(CMD, name, start, i, space))
        elif ch.isascii() and ch.isdigit():
            i = _scan_number(latex, i)
            tokens.append(Token(NUMBER, latex[start:i], start, i, space))
        elif ch.isascii() and ch.isalpha():
            i += 1
            tokens.append(Token(LETTER, ch, start, i, space))
        elif ch in _CHARS:
            i += 1
            tokens.append(Token(CHAR, ch, start, i, space))
        else:
            raise LatexError(
                UNEXPECTED_CHARACTER, f"unexpected character {ch!r} (U+{ord(ch):04X})", start
            )
        space = False
    return tokens


def _scan_number(latex: str, i: int) -> int:
    """End of the decimal literal starting at ``i`` (``12`` or ``0.25``)."""
    n = len(latex)
    while i < n and latex[i].isascii() and latex[i].isdigit():
        i += 1
    if i + 1 < n and latex[i] == "." and latex[i + 1].isascii() and latex[i + 1].isdigit():
        i += 1
        while i < n and latex[i].isascii() and latex[i].isdigit():
            i += 1
    return i
