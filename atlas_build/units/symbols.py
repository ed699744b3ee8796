"""Glossary symbol text -> the SymPy names the LaTeX parser gives (the shared convention).

`d_k` -> `d_k`, `τ` -> `tau`, `μₙ` -> `mu_n`, `x̂ᵢ` -> `x_hat_i`, `ΔV` -> `DeltaV`,
`k_SiO₂` -> `k_SiO_2`, `n⁺` -> `n_plus`, `f′` -> `f_prime`, `𝒫` -> `P_cal`,
`ℝ` -> `R_bb`; `T\\_q,T\\_k` is two symbols. Text with LaTeX commands is read by
the lesson-LaTeX parser itself, so both sides agree by construction.
"""

from __future__ import annotations

import re
import unicodedata

from atlas_build import notation
from atlas_build.notation import NUMBER_FUNCTION

from .grammar import UnitSyntaxError

MAX_SYMBOL = 64

ACCENTS = notation.COMBINING_SUFFIXES
"""Combining marks (after NFD) -> accent suffixes: `x̂` -> `x_hat` (the parser's table)."""

STYLE_SUFFIXES = (("DOUBLE-STRUCK", "bb"), ("FRAKTUR", "frak"), ("BLACK-LETTER", "frak"))
STYLE_SUFFIXES_SCRIPT = ("SCRIPT", "cal")
MARKS = {
    "'": "prime",
    "′": "prime",
    "″": "prime2",
    "‴": "prime3",
    "*": "star",
    "∗": "star",
    "⋆": "star",
    "†": "dagger",
    "°": "circ",
    "⁺": "plus",
    "⁻": "minus",
}
SCRIPT_MARKS = {
    f"\\{text}" if text.isalpha() else text: suffix
    for text, suffix in notation.SCRIPT_MARKS.items()
}
"""A superscript that names (`x^*`, `x^{\\dagger}`) -> the name's suffix."""
SPECIAL = {char: notation.plain_letter(name) for char, name in notation.LETTERLIKE.items()}
SPECIAL["∂"] = "partial"


class SymbolError(UnitSyntaxError):
    """Glossary symbol text that names no single symbol; `column` is where reading stopped."""


def _greek(char: str) -> str | None:
    """`τ` -> `tau`, `ϑ` -> `theta`, `Α` -> `A`: the parser's letter, variants folded."""
    name = notation.greek_name(char)
    return None if name is None else notation.plain_letter(name)


def _styled(char: str) -> str | None:
    """Mathematical alphanumerics: `𝐱` -> `x`, `𝒫` -> `P_cal`, `ℝ` -> `R_bb`."""
    name = unicodedata.name(char, "")
    if not (name.startswith("MATHEMATICAL ") or "-STRUCK" in name or "SCRIPT" in name):
        if not (name.startswith(("BLACK-LETTER", "PLANCK"))):
            return None
    plain = unicodedata.normalize("NFKC", char)
    if len(plain) != 1 or plain == char:
        return None
    base = _greek(plain) or (plain if plain.isascii() and plain.isalnum() else None)
    if base is None:
        return None
    for style, suffix in STYLE_SUFFIXES:
        if style in name:
            return f"{base}_{suffix}"
    if STYLE_SUFFIXES_SCRIPT[0] in name:
        return f"{base}_{STYLE_SUFFIXES_SCRIPT[1]}"
    return base


def _script(char: str) -> tuple[str, str] | None:
    """Unicode sub/superscript forms: `₂` -> ("sub", "2"), `ⁱ` -> ("super", "i")."""
    decomposition = unicodedata.decomposition(char)
    for tag in ("<sub>", "<super>"):
        if decomposition.startswith(tag):
            plain = chr(int(decomposition.split()[1], 16))
            return tag[1:-1], _greek(plain) or plain
    return None


SUBSCRIPT_SIGNS = notation.SUBSCRIPT_SIGNS
SUB_OPERATORS = {"+": "+", "-": "-", "−": "-", "/": "/"}
"""Operators an index expression in a subscript holds (`C_{i+1}`, `Tᵢ₋₁`): a family
member, named as the lesson model names it (`C_i+1`, `T_i-1`)."""


def _name(piece: str, start: int) -> str:
    """One symbol of plain glossary text, per the naming convention. Letters right after
    an accented letter are its subscript, flattened (`ḡr` is `g_bar_r`)."""
    out = ""
    in_sub = False
    text = unicodedata.normalize("NFD", piece)
    index = 0
    while index < len(text):
        char = text[index]
        column = start + min(index, len(piece) - 1)
        if char in "{}":
            index += 1
            continue
        if notation.turn_label(char, text[index - 1 : index], in_sub):
            index += 1  # `ΔL_90°`: the turn's label is no part of the name
            continue
        if not in_sub and notation.cut_off(text, index, bool(out)):
            out += char  # `NR@k`: a metric at a cut-off
            index += 1
            continue
        if char in SUBSCRIPT_SIGNS and in_sub:
            out += SUBSCRIPT_SIGNS[char]  # `R_□` is `R_square`, as the parser names `\\square`
            index += 1
            continue
        if in_sub and "\u2044" in (fraction := unicodedata.normalize("NFKC", char)):
            out += fraction.replace("\u2044", "/")  # `d_½` is `d_{1/2}`
            index += 1
            continue
        if char in SUB_OPERATORS and in_sub and out and not out.endswith("_"):
            out += SUB_OPERATORS[char]
            index += 1
            continue
        if (
            char.isascii()
            and char.isalpha()
            and not in_sub
            and index
            and text[index - 1] in ACCENTS
        ):
            out += "_"
            in_sub = True
        if char == "^":
            rest = text[index + 1 :].strip("{}")
            mark = SCRIPT_MARKS.get(rest)
            if mark is None:
                raise SymbolError(
                    "a superscript in a glossary symbol is a power, not a name", column
                )
            out += f"_{mark}"
            break
        if char in ACCENTS:
            if not out:
                raise SymbolError("an accent without a letter", column)
            out += f"_{ACCENTS[char]}"
        elif char in MARKS:
            if not out:
                raise SymbolError(f"{char!r} without a symbol", column)
            mark = MARKS[char]
            if char in "'′" and text[index + 1 : index + 2] in ("'", "′"):
                mark, index = "prime2", index + 1
            if char in "⁺⁻" and index + 1 < len(text):
                raise SymbolError(
                    "a superscript in a glossary symbol is a power, not a name", column
                )
            out += f"_{mark}"
        elif char == "_":
            out += "_"
            in_sub = True
        elif (script := _script(char)) is not None:
            kind, plain = script
            if kind == "super" and notation.variant_tag(plain) and out:
                head, mark, rest = out.partition("_")  # `T₆₀ᴱ` is `T^E_60`, as LaTeX names it
                out = f"{head}^{plain}{mark}{rest}"
                index += 1
                continue
            if kind == "super":
                raise SymbolError(
                    "a superscript in a glossary symbol is a power, not a name", column
                )
            if not out.endswith("_") and not (in_sub and out and _script(text[index - 1])):
                out += "_"
            out += SUB_OPERATORS.get(plain, plain)
            in_sub = True
        elif char in SPECIAL:
            out += SPECIAL[char]
        elif char.isascii() and char.isalnum():
            out += char
        elif (styled := _styled(char)) is not None:
            out += styled
        elif (greek := _greek(char)) is not None:
            out += greek
        else:
            raise SymbolError(f"{char!r} cannot be part of a symbol name", column)
        index += 1
    name = re.sub(r"_+", "_", out).strip("_")
    if not name or not name[0].isalpha():
        raise SymbolError("no symbol name", start)
    return name


def _latex_name(piece: str, start: int) -> str:
    from atlas_build.latex import LatexError, parse_expression

    try:
        expr = parse_expression(piece)
    except (LatexError, RecursionError, ValueError) as error:
        raise SymbolError(f"cannot read the symbol as LaTeX: {error}", start) from error
    if getattr(expr, "is_Symbol", False):
        return str(expr.name)
    raise SymbolError(f"{piece!r} is not a single symbol", start)


def listed(text: str, separators: str = ",") -> list[tuple[str, int]]:
    """Split at top-level commas (or other `separators`), with where each piece starts:
    `T_q,T_k` -> two symbols; `x_{i,j}` stays one."""
    pieces: list[tuple[str, int]] = []
    depth, begin = 0, 0
    for index, char in enumerate(text + separators[0]):
        depth += (char in "{(") - (char in "})")
        if char in separators and depth <= 0:
            raw = text[begin:index]
            pieces.append((raw.strip(), begin + len(raw) - len(raw.lstrip())))
            begin = index + 1
    return pieces


def symbol_names(text: str) -> list[str]:
    """The SymPy names a glossary symbol cell defines; `SymbolError` when it names none.

    Markdown escapes are undone first (`T\\_q` -> `T_q`); a function written with
    its argument (`Var(x)`) names the function.
    """
    if len(text) > MAX_SYMBOL:
        raise SymbolError(f"symbol text longer than {MAX_SYMBOL} characters", 0)
    clean = re.sub(r"\\([_*{}^'$])", r"\1", text).replace("$", "")
    names: list[str] = []
    for piece, start in listed(clean):
        if not piece:
            raise SymbolError("empty symbol in a list", start)
        if NUMBER_FUNCTION.fullmatch(piece):
            continue  # `N, H, ln 2`: a constant listed with the symbols names none
        call = re.fullmatch(r"([^()\s]+)\(.*\)", piece)
        if call is not None:
            piece = call.group(1)
        if "\\" in piece:
            try:
                names.append(_latex_name(piece, start))
            except SymbolError:
                names.append(_name(piece, start))  # `x^{\ast}`: marks the parser may lack
        elif any(char.isspace() for char in piece):
            raise SymbolError("a symbol has no spaces", start)
        else:
            names.append(_name(piece, start))
    return names
