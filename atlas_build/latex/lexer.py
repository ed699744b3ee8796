"""Tokeniser for lesson LaTeX; every token keeps its offsets into the original text.

Besides commands, letters, numbers and characters it reads three things whole,
because their contents are not math: ``\\text{...}`` (one ``text`` token with the
words), ``\\begin{name}``/``\\end{name}`` (one token naming the environment, its
column spec dropped) and the arguments of commands that only place or label
(``\\label{...}``, ``\\tag{...}``, ``\\hspace{...}``, ``\\color{...}``), which are
dropped. Unicode math characters are read as the LaTeX they stand for.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from typing import Final

from .dialect import ENVIRONMENT_ARGUMENTS, ENVIRONMENTS, WHITELIST
from .errors import (
    TOO_LONG,
    UNEXPECTED_CHARACTER,
    UNKNOWN_COMMAND,
    UNKNOWN_ENVIRONMENT,
    LatexError,
)
from .roles import DROPPED, TEXT
from .unicode import COMBINING, SPACES, SUBSCRIPTS, SUPERSCRIPTS, expand

CMD: Final = "cmd"
LETTER: Final = "letter"
NUMBER: Final = "number"
CHAR: Final = "char"
WORDS: Final = "text"
BEGIN: Final = "begin"
END: Final = "end"

_CHARS: Final = frozenset("{}^_&+-*/=<>()[],|!'.:;@?\"")
_SPACE: Final = frozenset(" \t\r\n~")
_CONTROL_SYMBOLS: Final = {"{": "lbrace", "}": "rbrace", "|": "Vert"}
_STARRED: Final = frozenset({"operatorname", "tag", "hspace", "vspace", "mathop"})
_LENGTH: Final = r"\s*[-+]?(\d+(\.\d*)?|\.\d+)\s*(em|ex|mu|pt|px|cm|mm|in|bp|pc|sp|dd)"
_TEXT_ESCAPES: Final = {"_": "_", "%": "%", "&": "&", "$": "$", "#": "#", "{": "{", "}": "}"}


@dataclass(frozen=True)
class Token:
    """A lexeme: ``kind`` is cmd/letter/number/char/text/begin/end; ``text`` is the
    command name without backslash, the letter, the digits, the character, the words
    of a ``\\text`` group, or an environment name."""

    kind: str
    text: str
    start: int
    end: int
    space_before: bool = False
    gap: bool = False  # a spacing command (``\\,``, ``\\;``) was written before it
    tight: bool = False  # ``\\!`` was written before it: pulled against what it follows
    wide: bool = False  # a wide space (``\\ ``, ``\\;``) was written before it

    def is_char(self, text: str) -> bool:
        return self.kind == CHAR and self.text == text

    def is_cmd(self, *names: str) -> bool:
        return self.kind == CMD and self.text in names

    def describe(self) -> str:
        if self.kind == CMD:
            return "\\" + self.text
        if self.kind in (BEGIN, END):
            return f"\\{self.kind}{{{self.text}}}"
        return repr(self.text)


def tokenize(latex: str, max_length: int) -> list[Token]:
    """Split ``latex`` into tokens, rejecting over-long input, stray characters and
    any control sequence outside the whitelist (the error names it)."""
    if len(latex) > max_length:
        raise LatexError(
            TOO_LONG, f"equation has {len(latex)} characters; the limit is {max_length}", 0
        )
    return _Lexer(latex).run()


class _Lexer:
    def __init__(self, latex: str) -> None:
        self.latex = latex
        self.tokens: list[Token] = []
        self.space = False

    def add(self, kind: str, text: str, start: int, end: int) -> None:
        self.tokens.append(Token(kind, text, start, end, self.space))
        self.space = False

    def run(self) -> list[Token]:
        latex, i, n = self.latex, 0, len(self.latex)
        while i < n:
            ch, before = latex[i], i
            if ch in _SPACE or ch in SPACES:
                i, self.space = i + 1, True
            elif ch == "%":
                newline = latex.find("\n", i)
                i, self.space = (n if newline < 0 else newline + 1), True
            elif ch == "\\":
                i = self.command(i)
            elif _ascii_digit(ch) or (ch == "." and _ascii_digit(latex[i + 1 : i + 2])):
                end = _scan_number(latex, i)
                self.add(NUMBER, latex[i:end], i, end)
                i = end
            elif ch.isascii() and ch.isalpha():
                self.add(LETTER, ch, i, i + 1)
                i += 1
            elif ch in _CHARS:
                self.add(CHAR, ch, i, i + 1)
                i += 1
            else:
                i = self.unicode(i)
            if i <= before:  # a rule that reads nothing would loop, appending for ever
                raise LatexError(UNEXPECTED_CHARACTER, f"cannot read {ch!r} here", before)
        return self.tokens

    def command(self, start: int) -> int:
        latex, n = self.latex, len(self.latex)
        i = start + 1
        if i >= n:
            raise LatexError(UNEXPECTED_CHARACTER, "lone backslash at end of input", start)
        if latex[i].isascii() and latex[i].isalpha():
            while i < n and latex[i].isascii() and latex[i].isalpha():
                i += 1
        else:
            i += 1
        name = latex[start + 1 : i]
        if name in ("\n", "\t", "\r"):
            name = " "
        command = WHITELIST.get(name)
        if command is None:
            raise LatexError(
                UNKNOWN_COMMAND,
                f"unknown control sequence \\{name} (not in the lesson-LaTeX whitelist)",
                start,
            )
        if name in _STARRED and latex.startswith("*", i):
            i += 1
        if name in ("begin", "end"):
            return self.environment(name, start, i)
        if command.kind == TEXT:
            return self.text(start, i)
        if command.kind == DROPPED:
            self.space = True
            return self.dropped(name, start, i)
        if name == "textcolor":
            i = self.group(i, start)[1]
        self.add(CMD, _CONTROL_SYMBOLS.get(name, name), start, i)
        return i

    def group(self, i: int, owner: int) -> tuple[str, int]:
        """The raw text of the braced group at ``i`` (after spaces) and the index after it."""
        latex, n = self.latex, len(self.latex)
        while i < n and latex[i] in _SPACE:
            i += 1
        if i >= n or latex[i] != "{":
            raise LatexError(
                UNEXPECTED_CHARACTER, "expected a braced argument", min(i, n - 1) if n else owner
            )
        depth, j = 0, i
        while j < n:
            ch = latex[j]
            if ch == "\\":
                j += 2
                continue
            depth += (ch == "{") - (ch == "}")
            j += 1
            if depth == 0:
                return latex[i + 1 : j - 1], j
        from .errors import UNBALANCED_BRACE

        raise LatexError(UNBALANCED_BRACE, "'{' is never closed", i)

    def environment(self, which: str, start: int, i: int) -> int:
        name, i = self.group(i, start)
        name = name.strip()
        if name not in ENVIRONMENTS:
            raise LatexError(
                UNKNOWN_ENVIRONMENT,
                f"unknown environment {name!r}; supported: {', '.join(sorted(ENVIRONMENTS))}",
                start,
            )
        if which == "begin":
            optional = re.match(r"\s*\[[a-z]*\]", self.latex[i:])
            if optional is not None:
                i += optional.end()
            if name in ENVIRONMENT_ARGUMENTS:
                i = self.group(i, start)[1]
        self.add(BEGIN if which == "begin" else END, name, start, i)
        return i

    def text(self, start: int, i: int) -> int:
        latex = self.latex
        if i < len(latex) and latex[i] not in "{" + "".join(_SPACE):
            self.add(WORDS, latex[i], start, i + 1)
            return i + 1
        raw, end = self.group(i, start)
        self.add(WORDS, _text_content(raw), start, end)
        return end

    def dropped(self, name: str, start: int, i: int) -> int:
        if name in ("kern", "mkern", "hskip", "mskip"):
            length = re.match(_LENGTH, self.latex[i:])
            if length is not None:
                return i + length.end()
        return self.group(i, start)[1]

    def unicode(self, i: int) -> int:
        latex, ch = self.latex, self.latex[i]
        for table, script in ((SUPERSCRIPTS, "^"), (SUBSCRIPTS, "_")):
            if ch in table:
                j = i
                while j < len(latex) and latex[j] in table:
                    j += 1
                self.snippet(script + "{" + "".join(table[c] for c in latex[i:j]) + "}", i, j)
                return j
        if ch in COMBINING and self.tokens and self.tokens[-1].kind == LETTER:
            base = self.tokens.pop()
            self.space = base.space_before
            self.snippet(f"\\{COMBINING[ch]}{{{base.text}}}", base.start, i + 1)
            return i + 1
        latex_form = expand(ch)
        if latex_form is None:
            name = unicodedata.name(ch, "unnamed")
            raise LatexError(
                UNEXPECTED_CHARACTER, f"unexpected character {ch!r} (U+{ord(ch):04X} {name})", i
            )
        self.snippet(latex_form, i, i + 1)
        return i + 1

    def snippet(self, latex: str, start: int, end: int) -> None:
        """Tokens of a character's LaTeX reading, all located at that character."""
        inner = _Lexer(latex).run()
        for k, token in enumerate(inner):
            space = self.space if k == 0 else token.space_before
            self.tokens.append(Token(token.kind, token.text, start, end, space))
        self.space = False


def _text_content(raw: str) -> str:
    """The words of a ``\\text`` group: escapes resolved, spacing commands as spaces."""
    out: list[str] = []
    i = 0
    while i < len(raw):
        ch = raw[i]
        if ch == "\\" and i + 1 < len(raw):
            nxt = raw[i + 1]
            if nxt in _TEXT_ESCAPES:
                out.append(_TEXT_ESCAPES[nxt])
                i += 2
                continue
            if not nxt.isalpha():
                out.append(" ")
                i += 2
                continue
            j = i + 1
            while j < len(raw) and raw[j].isalpha():
                j += 1
            out.append(" ")
            i = j
            continue
        out.append(" " if ch in "~\n\t" else ch)
        i += 1
    return "".join(ch for ch in "".join(out) if ch not in "{}")


def _ascii_digit(text: str) -> bool:
    """``0``-``9`` only: ``"²".isdigit()`` is true, and a ``.²`` read as a number that
    scans no digits would never advance."""
    return len(text) == 1 and "0" <= text <= "9"


def _scan_number(latex: str, i: int) -> int:
    """End of the decimal literal starting at ``i`` (``12``, ``0.25`` or ``.5``)."""
    n = len(latex)
    while i < n and latex[i].isascii() and latex[i].isdigit():
        i += 1
    if i + 1 < n and latex[i] == "." and latex[i + 1].isascii() and latex[i + 1].isdigit():
        i += 1
        while i < n and latex[i].isascii() and latex[i].isdigit():
            i += 1
    return i
