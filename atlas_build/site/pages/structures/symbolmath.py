"""A glossary symbol as written in plain text (`T_q,T_k`, `N₀`, `x̂_i`, `Var`) -> LaTeX.

The symbol column of a symbol table shows each symbol as the equations do, so `T\\_q`
reads as T with subscript q. The text is untrusted: only a narrow grammar is accepted
(letters, digits, `_` and `^` scripts, Unicode sub/superscripts, primes, combining
accents, commas between symbols), no backslash or other LaTeX syntax can pass, and the
LaTeX is written here from the pieces read. Anything else returns None and the cell
keeps its text.
"""

from __future__ import annotations

import unicodedata

from atlas_build.lesson import symbols

MAX_SYMBOL = 48
UPRIGHT_FROM = 3  # scripts and names of three or more letters are words: upright
_PRIMES = {"'": "'", "\u2032": "'", "\u2033": "''"}
_SCRIPT_MARKS = {"+": "+", "-": "-", "\u2212": "-", "*": "*", "\u2217": "*"}


def _script_char(char: str) -> tuple[str, str] | None:
    """(`_` or `^`, plain character) for a Unicode sub- or superscript character."""
    name = unicodedata.name(char, "")
    plain = unicodedata.normalize("NFKC", char)
    if len(plain) != 1 or plain == char:
        return None
    if "SUBSCRIPT" in name:
        return "_", plain
    if "SUPERSCRIPT" in name or name.startswith("MODIFIER LETTER"):
        return "^", plain
    return None


def _word(text: str) -> str:
    """A run of letters and digits: upright when it is a word (`tok`, `Var`, `Gen5`)."""
    letters = sum(char.isalpha() for char in text)
    return f"\\mathrm{{{text}}}" if letters >= UPRIGHT_FROM else text


def _script_text(text: str) -> str | None:
    if not text or len(text) > 16:
        return None
    if all(char in _SCRIPT_MARKS for char in text):
        return "".join(_SCRIPT_MARKS[char] for char in text)
    if not all(char.isalnum() for char in text):
        return None
    return _word(text)


class _Reader:
    """Reads one symbol: base letters with accents, primes, then `_`/`^` scripts."""

    def __init__(self, text: str) -> None:
        self.text = unicodedata.normalize("NFC", text)
        self.pos = 0

    def peek(self) -> str:
        return self.text[self.pos] if self.pos < len(self.text) else ""

    def base(self) -> str | None:
        start = self.pos
        while self.peek() and (self.peek().isalpha() and _script_char(self.peek()) is None):
            self.pos += 1
            while self.peek() and unicodedata.combining(self.peek()):
                self.pos += 1
        word = self.text[start : self.pos]
        while self.peek().isdigit() and _script_char(self.peek()) is None and word:
            self.pos += 1  # `x1`: a digit after the name is part of it
        word = self.text[start : self.pos]
        if not word:
            return None
        letters = [c for c in word if not unicodedata.combining(c) and not c.isdigit()]
        if len(letters) >= UPRIGHT_FROM and word.isascii():
            return _word(word)
        return word

    def group(self) -> str | None:
        """The raw text of a script after `_` or `^`: `{...}` or a run of letters/digits."""
        if self.peek() == "{":
            end = self.text.find("}", self.pos)
            if end == -1:
                return None
            inner = self.text[self.pos + 1 : end]
            self.pos = end + 1
            return inner
        start = self.pos
        while self.peek() and (self.peek().isalnum() or self.peek() in _SCRIPT_MARKS):
            if _script_char(self.peek()) is not None:
                break
            self.pos += 1
        return self.text[start : self.pos]

    def scripts(self) -> str | None:
        raw: dict[str, str] = {}
        primes = ""
        while self.peek():
            char = self.peek()
            if char in _PRIMES:
                primes += _PRIMES[char]
                self.pos += 1
                continue
            unicode_script = _script_char(char)
            if unicode_script is not None:
                kind, plain = unicode_script
                self.pos += 1
                raw[kind] = raw.get(kind, "") + plain
                continue
            if char not in "_^" or char in raw:
                return None
            self.pos += 1
            found = self.group()
            if found is None:
                return None
            raw[char] = found
        latex = primes
        for kind in "_^":
            if kind not in raw:
                continue
            pieces = [_script_text(piece.strip()) for piece in raw[kind].split(",")]
            if None in pieces:
                return None
            latex += f"{kind}{{{','.join(p for p in pieces if p is not None)}}}"
        return latex


def _one(text: str) -> str | None:
    reader = _Reader(text)
    base = reader.base()
    if base is None:
        return None
    scripts = reader.scripts()
    return None if scripts is None else base + scripts


def symbol_latex(text: str) -> str | None:
    """LaTeX for a glossary symbol cell, or None when the cell is not just symbols.

    `T_q,T_k` -> `T_{q},\\ T_{k}`, `N₀` -> `N_{0}`, `B_tok` -> `B_{\\mathrm{tok}}`,
    `Var` -> `\\mathrm{Var}`; values (`25.9 mV`), expressions (`kT/q`) and qualified
    symbols (`B_Gen5,one way`) are no symbols here.
    """
    text = " ".join(text.replace("\\_", "_").split())
    if not 0 < len(text) <= MAX_SYMBOL or "\\" in text:
        return None
    cell = symbols.read(text)
    pieces = _top_level(text)
    if cell.kind != symbols.SYMBOL or cell.qualifier or len(cell.names) != len(pieces):
        return None
    written = [_one(piece) for piece in pieces]
    if any(piece is None for piece in written):
        return None
    return ",\\ ".join(piece for piece in written if piece is not None)


def _top_level(text: str) -> list[str]:
    """`T_q,T_k` -> [`T_q`, `T_k`]; commas inside `{...}` stay (`x_{i,j}`)."""
    pieces = [""]
    depth = 0
    for char in text:
        depth += (char == "{") - (char == "}")
        if char == "," and depth == 0:
            pieces.append("")
        else:
            pieces[-1] += char
    return [piece.strip() for piece in pieces]
