"""Glossary symbols as written -> the names the LaTeX parser gives the same symbols.

A "Symbols and units" block spells its symbols in plain text (`d_k`, `τ`, `x̂_i`, `N₀`,
`ΔV`, `k_SiO₂`, `𝒫`, `T_q,T_k`); equations spell them in LaTeX. `canonical()` turns the
first into the names of the second (the convention is in `names.py`), so the glossary
check and the units checker can look a glossary symbol up in an equation. A cell may
also name a value (`32 × 10⁹ bits/s`), an expression (`kT/q`) or carry a qualifier
(`B_Gen5,one way`); `read()` tells those apart.
"""

from __future__ import annotations

import functools
import re
import unicodedata
from dataclasses import dataclass

from atlas_build.lesson import names as naming

__all__ = ["SymbolCell", "canonical", "mentions", "name_of", "read"]

SYMBOL = "symbol"
VALUE = "value"
EXPRESSION = "expression"
NONE = "none"


@dataclass(frozen=True, slots=True)
class SymbolCell:
    """What a glossary's symbol paragraph says.

    `names` are the symbols it defines; `mentions` are names an expression or value
    entry explains without defining them one by one (`kT/q` explains k, T and q);
    `kind` is `symbol`, `value`, `expression`, or `none` when it cannot be a symbol.
    """

    text: str
    names: tuple[str, ...]
    kind: str
    qualifier: str = ""
    mentions: tuple[str, ...] = ()


_SUPER_MARKS = {"\u207a": "plus", "\u207b": "minus", "*": "star", "\u2217": "star"}
_SUPER_MARKS |= {"\u22c6": "star", "\u2020": "dagger", "\u2021": "ddagger"}
_PRIMES = {"'": 1, "\u2032": 1, "\u2033": 2, "\u2034": 3}
_CARET = {"*": "star", "\\ast": "star", "\\star": "star", "\u2217": "star", "\u22c6": "star"}
_CARET |= {"\u2020": "dagger", "\\dagger": "dagger", "+": "plus", "-": "minus", "\u2212": "minus"}
_TRANSPOSE = frozenset({"T", "\u22a4", "\\top", "\u1d40"})


def _script(char: str) -> tuple[str, str] | None:
    """(`sub`|`super`, text) for a Unicode sub- or superscript character."""
    name = unicodedata.name(char, "")
    if "SUBSCRIPT" in name:
        plain = unicodedata.normalize("NFKD", char)
        spelled = naming.letter(plain)
        return "sub", spelled[0] if spelled else plain
    if "SUPERSCRIPT" in name or name.startswith("MODIFIER LETTER"):
        return "super", unicodedata.normalize("NFKD", char)
    return None


def _suffixes(primes: int, marks: list[str]) -> str:
    prime = "" if not primes else "_prime" if primes == 1 else f"_prime{primes}"
    return prime + "".join("_" + mark for mark in marks)


@functools.lru_cache(maxsize=1 << 16)
def name_of(token: str) -> str | None:
    """One symbol written in plain text -> its name, or None when it is no name.

    Remembered by token: prose repeats its words, and a lesson's prose is read for names
    a dozen times over (181,485 calls for 100 lessons, profiled).

    `d_k` -> `d_k`, `N₀` -> `N_0`, `x̂ᵢ` -> `x_hat_i`, `ΔV_bi` -> `DeltaV_bi`, `n⁺` ->
    `n_plus`, `x²` -> `x` (a power is no part of a name), `f''` -> `f_prime2`.
    """
    text = token.replace("\\_", "_").replace("\\*", "*").strip()
    caret = text.find("^")
    power = text[caret + 1 :].strip("{} ") if caret != -1 else None
    text = text[:caret] if caret != -1 else text
    base: list[str] = []
    style = ""
    accents: list[str] = []
    subs: list[str] = []
    marks: list[str] = []
    primes = 0
    mode = "base"
    for char in unicodedata.normalize("NFD", text):
        script = _script(char) if not char.isascii() else None
        if char in naming.COMBINING:
            if mode == "base" and base:
                accents.append(naming.COMBINING[char])
        elif unicodedata.combining(char):
            continue
        elif char == "_":
            mode = "sub"
            subs.append("")
        elif char in "{}":
            continue
        elif char in _PRIMES:
            primes += _PRIMES[char]
        elif char in _SUPER_MARKS:
            marks.append(_SUPER_MARKS[char])
        elif script is not None:
            where, spelled = script
            if where == "super":
                if spelled not in _TRANSPOSE:
                    mode = "power"
            elif mode == "usub":
                subs[-1] += spelled
            else:
                subs.append(spelled)
                mode = "usub"
        elif char.isdigit() and char.isascii():
            if mode == "base":
                if not base:
                    return None
                base.append(char)
            elif mode == "sub":
                subs[-1] += char
            elif mode != "power":
                return None
        else:
            spelled_letter = naming.letter(char)
            if spelled_letter is None:
                return None
            spelled, letter_style = spelled_letter
            if mode == "base":
                if accents:
                    return None
                base.append(spelled)
                style = style or letter_style
            elif mode == "sub":
                subs[-1] += spelled
            else:
                return None
    if not base:
        return None
    if power is not None:
        if power in _CARET:
            marks.append(_CARET[power])
        elif power in ("\\prime", "\u2032"):
            primes += 1
    name = "".join(base) + (f"_{style}" if style else "")
    name += "".join(f"_{accent}" for accent in accents)
    name += "".join(f"_{sub}" for sub in subs if sub)
    return name + _suffixes(primes, marks)


_VALUE_START = re.compile(r"^[≈~∼<>≤≥±−+-]?\s*[.\d]")
_LATEX = re.compile(r"\\[A-Za-z]|\$")
_OPERATORS = re.compile(r"[/·×⋅*+−\-()\[\]|√∂∇=<>≤≥≈]")
_RELATION = re.compile(r"\s*(?::=|=|≈|≡|≜)\s*")
_SPLIT_OPERANDS = re.compile(r"[\s/·×⋅*+−\-()\[\]|√∂∇,;=<>≤≥≈]+")
_WORD = re.compile(r"^[a-z]{2,}$")
_SHORT_TOKEN = 3


def _top_level_split(text: str, separators: str) -> list[str]:
    pieces = [""]
    depth = 0
    for char in text:
        depth += (char in "([{") - (char in ")]}")
        if depth <= 0 and char in separators:
            pieces.append("")
        else:
            pieces[-1] += char
    return [piece.strip() for piece in pieces]


def _operands(text: str) -> tuple[str, ...]:
    """Names in an expression; a short run of Latin letters (`kT`) is also read as the
    product of its letters, as LaTeX would read it."""
    found: list[str] = []
    for token in _SPLIT_OPERANDS.split(text):
        name = name_of(token) if token else None
        if name is None:
            continue
        found.append(name)
        if token.isascii() and token.isalpha() and 1 < len(token) <= _SHORT_TOKEN:
            found += list(token)
    return tuple(dict.fromkeys(found))


def _is_qualifier(piece: str) -> bool:
    """`one way`, `(typical)`: words that qualify a symbol, not symbols."""
    if piece.startswith("(") and piece.endswith(")"):
        return True
    words = piece.split()
    return len(words) >= 2 and all(word.isalpha() and word.islower() for word in words)


def _latex_cell(text: str) -> SymbolCell:
    from atlas_build.lesson.latexnames import scan

    found = scan(text.replace("$", " "))
    names = tuple(dict.fromkeys(found.names + found.functions))
    return SymbolCell(text, names, SYMBOL if names else NONE)


def read(text: str) -> SymbolCell:
    """Read one glossary symbol paragraph (see `SymbolCell`)."""
    text = " ".join(text.replace("\\_", "_").split())
    if not text:
        return SymbolCell(text, (), NONE)
    if _LATEX.search(text):
        return _latex_cell(text)
    head = _RELATION.split(text, maxsplit=1)[0] if _RELATION.search(text) else text
    if not head or _VALUE_START.match(head):
        return SymbolCell(text, (), VALUE, mentions=_operands(text))
    found: list[str] = []
    qualifiers: list[str] = []
    mentioned: list[str] = []
    kind = SYMBOL
    for position, piece in enumerate(_top_level_split(head, ",;")):
        if not piece:
            continue
        paren = piece.find(" (")
        if paren > 0 and piece.endswith(")"):
            qualifiers.append(piece[paren + 1 :])
            piece = piece[:paren].strip()
        if position and _is_qualifier(piece):
            qualifiers.append(piece)
            continue
        if position and _WORD.match(piece) and piece not in naming.GREEK and found:
            if "_" in found[-1]:
                found[-1] += "_" + piece  # `V_DS,sat`: the subscript goes on
            else:
                qualifiers.append(piece)
            continue
        single = name_of(piece.replace("Δ ", "Δ"))
        if single is not None:
            found.append(single)
            continue
        operands = _operands(piece)
        tokens = piece.split()
        call = re.match(r"^([^\s(]+)\((.*)\)$", piece)
        if call and name_of(call.group(1)):
            found.append(name_of(call.group(1)) or "")
            mentioned += _operands(call.group(2))
        elif operands and (
            _OPERATORS.search(piece) or all(len(token) <= _SHORT_TOKEN for token in tokens)
        ):
            kind = EXPRESSION
            mentioned += operands
        else:
            return SymbolCell(text, (), NONE)
    if kind == EXPRESSION and not found:
        return SymbolCell(text, (), EXPRESSION, ", ".join(qualifiers), tuple(mentioned))
    if not found:
        return SymbolCell(text, (), NONE)
    return SymbolCell(text, tuple(found), SYMBOL, ", ".join(qualifiers), tuple(mentioned))


def canonical(text: str) -> list[str]:
    """The names of the symbols a glossary symbol cell defines, in the convention of the
    LaTeX parser: `T\\_q,T\\_k` -> [`T_q`, `T_k`], `N₀` -> [`N_0`], `32 × 10⁹ bits/s` -> []."""
    return list(read(text).names)


_PROSE_SPLIT = re.compile(r"[\s,.;:!?()\[\]{}/=+−\-×·⋅√∂∇<>≤≥≈~\"“”‘’'`|…—–%$&#@]+")
_ARTICLES = frozenset({"a", "A", "I"})


def mentions(text: str) -> set[str]:
    """Names a reader sees in prose (`√dₖ` mentions `d_k`, `T²` mentions `T`); the words
    `a`, `A` and `I` are taken for English."""
    found: set[str] = set()
    for token in _PROSE_SPLIT.split(text):
        if not token or token in _ARTICLES:
            continue
        name = name_of(token)
        if name is not None:
            found.add(name)
    return found
