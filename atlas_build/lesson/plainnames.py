"""One symbol written in plain text -> the name the LaTeX parser gives it.

The character-level half of the glossary convention (`symbols.py` reads whole cells):
scripts, marks, primes, accents, index expressions in subscripts, and a metric's cut-off
(`NR@k`, as `\\mathrm{NR@}k` writes it).
"""

from __future__ import annotations

import functools
import re
import unicodedata

from atlas_build import notation
from atlas_build.lesson import names as naming

_SUPER_MARKS = {"\u207a": "plus", "\u207b": "minus", "*": "star", "\u2217": "star"}
_SUPER_MARKS |= {"\u22c6": "star", "\u2020": "dagger", "\u2021": "ddagger", "°": "circ"}
_PRIMES = {"'": 1, "\u2032": 1, "\u2033": 2, "\u2034": 3}
_CARET = {"*": "star", "\\ast": "star", "\\star": "star", "\u2217": "star", "\u22c6": "star"}
_CARET |= {"\u2020": "dagger", "\\dagger": "dagger", "+": "plus", "-": "minus", "\u2212": "minus"}
_CARET |= {"\\circ": "circ"}  # `E^\circ`, `ΔG°`: a standard-state value
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


_SUB_OPERATORS = {"+": "+", "-": "-", "\u2212": "-", "/": "/"}
"""Operators an index expression in a subscript may hold: `C_{i+1}`, `Tᵢ₋₁`, `z_1−α/2`."""


def _suffixes(primes: int, marks: list[str]) -> str:
    prime = "" if not primes else "_prime" if primes == 1 else f"_prime{primes}"
    return prime + "".join("_" + mark for mark in marks)


_POINT = "\ue000"  # a decimal point between digits, kept apart from a full stop
_DECIMAL_POINT = re.compile(r"(?<=\d)\.(?=\d)")


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
    text = _DECIMAL_POINT.sub(_POINT, text)  # `S_2.83V`: a decimal in a subscript
    base: list[str] = []
    style = ""
    accents: list[str] = []
    subs: list[str] = []
    marks: list[str] = []
    primes = 0
    mode = "base"
    tag = ""
    braced = operated = False
    normal = unicodedata.normalize("NFD", text)
    for at, char in enumerate(normal):
        script = _script(char) if not char.isascii() else None
        if char in naming.COMBINING:
            if mode == "base" and base:
                accents.append(naming.COMBINING[char])
        elif unicodedata.combining(char):
            continue
        elif char == "_":
            if operated:
                return None  # `x_i−x_j`: an expression, not one name
            mode = "sub"
            subs.append("")
        elif char in "{}":
            braced = braced or (char == "{" and mode == "sub")
            continue
        elif char == "," and braced and mode == "sub" and subs and subs[-1]:
            continue  # `x_{i,j}` is `x_ij`, as LaTeX writes an index pair
        elif char == _POINT:
            if mode != "sub" or not subs:
                return None
            subs[-1] += "."
        elif mode == "sub" and subs and "\u2044" in unicodedata.normalize("NFKC", char):
            subs[-1] += unicodedata.normalize("NFKC", char).replace("\u2044", "/")  # `d_½`
        elif char in naming.SUBSCRIPT_SIGNS and mode == "sub" and subs:
            subs[-1] += naming.SUBSCRIPT_SIGNS[char]  # `R_□` is `R_square`
        elif char in _SUB_OPERATORS and mode in ("sub", "usub") and subs and subs[-1]:
            if not (braced or operated or mode == "usub" or len(subs[-1]) <= 2):
                return None  # `T_max−T_min`: a difference of two names
            subs[-1] += _SUB_OPERATORS[char]
            operated = True
        elif mode == "base" and notation.cut_off(normal, at, bool(base)):
            base.append("@")
        elif char in _PRIMES:
            primes += _PRIMES[char]
        elif char == "\u207b" and normal[at + 1 : at + 2] in _SUPER_DIGITS:
            mode = "power"  # `E_ref⁻¹`: a power, as in `x²`, not the mark of `n⁻`
        elif notation.turn_label(char, subs[-1][-1:] if subs else "", mode == "sub"):
            continue
        elif char in _SUPER_MARKS:
            marks.append(_SUPER_MARKS[char])
        elif script is not None:
            where, spelled = script
            if where == "super":
                if mode != "power" and notation.variant_tag(spelled):
                    tag = f"^{spelled}"  # `T₆₀ᴱ`: Eyring's T₆₀, `T_{60}^{\mathrm{E}}`
                elif spelled not in _TRANSPOSE:
                    mode = "power"
            elif mode == "usub":
                subs[-1] += _SUB_OPERATORS.get(spelled, spelled)
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
            if mode == "base" and accents:
                if len(base) != 1:
                    return None
                subs.append(spelled)  # `ḡr`: letters after an accented letter, flattened
                mode = "sub"
            elif mode == "base":
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
    name += "".join(f"_{accent}" for accent in accents) + tag
    name += "".join(f"_{naming.SIGN_WORDS.get(sub, sub)}" for sub in subs if sub)
    return name + _suffixes(primes, marks)


_SUPER_DIGITS = frozenset("⁰¹²³⁴⁵⁶⁷⁸⁹")

MARK_WORDS = frozenset({*_SUPER_MARKS.values(), *_CARET.values()})
"""The suffixes a mark after a name gives it (`n⁺` -> `n_plus`, `E°` -> `E_circ`)."""
