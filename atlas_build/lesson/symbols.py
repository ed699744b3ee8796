"""Glossary symbols as written -> the names the LaTeX parser gives the same symbols.

A "Symbols and units" block spells its symbols in plain text (`d_k`, `τ`, `x̂_i`, `N₀`,
`ΔV`, `k_SiO₂`, `𝒫`, `T_q,T_k`); equations spell them in LaTeX. `canonical()` turns the
first into the names of the second (the convention is in `names.py`), so the glossary
check and the units checker can look a glossary symbol up in an equation. Other
glossaries' spellings read too: index expressions in subscripts (`Cᵢ₊₁`, `z_1−α/2`),
letters after an accent (`ḡr`), accents and subscripts in words (`bar theta`,
`CD_after etch`). A cell may also name a value (`32 × 10⁹ bits/s`), an expression
(`kT/q`, `μ_n C_ox`), an operator (`⊙`, `+, −`) or carry a qualifier (`B_Gen5,one way`);
`read()` tells those apart.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

from atlas_build import notation
from atlas_build.lesson import names as naming
from atlas_build.lesson.plainnames import MARK_WORDS, name_of

__all__ = ["SymbolCell", "canonical", "latex_reading", "mentions", "name_of", "read", "words"]

SYMBOL = "symbol"
VALUE = "value"
EXPRESSION = "expression"
OPERATOR = "operator"
NONE = "none"


@dataclass(frozen=True, slots=True)
class SymbolCell:
    """What a glossary's symbol paragraph says.

    `names` are the symbols it defines; `mentions` are names an expression or value
    entry explains without defining them one by one (`kT/q` explains k, T and q);
    `operators` are operators it explains (`⊙`, `+, −`: an operator is a glossary entry
    too); `kind` is `symbol`, `value`, `expression`, `operator`, or `none` when it cannot
    be a symbol.
    """

    text: str
    names: tuple[str, ...]
    kind: str
    qualifier: str = ""
    mentions: tuple[str, ...] = ()
    operators: tuple[str, ...] = ()


_VALUE_START = re.compile(r"^[≈~∼<>≤≥±−+-]?\s*[.\d]")
_LATEX = re.compile(r"\\[A-Za-z]|\$")
_OPERATORS = re.compile(r"[/·×⋅*+−\-()\[\]|√∂∇=<>≤≥≈]")
_RELATION = re.compile(r"\s*(?::=|=|≈|≡|≜)\s*")
_SPLIT_OPERANDS = re.compile(r"[\s/·×⋅*+−\-()\[\]|√∂∇,;=<>≤≥≈]+")
_WORD = re.compile(r"^[a-z]{2,}$")
_GLUED = re.compile(r"(?<=[⁰¹²³⁴⁵⁶⁷⁸⁹])(?=[A-Za-zΑ-Ωα-ω])")  # `I²t`: I² times t
_DERIVATIVE = re.compile(r"^[d∂]\s*([^\s/]+)\s*/\s*[d∂]\s*([^\s/]+)$")  # `dV_OS/dT`
_GROUPED = re.compile(r"^\((.+)\)_(\S+)$")  # `(I²t)_m`: a quantity named by its expression
_APPLIED = re.compile(
    r"^(?:‖(.+)‖[₀-₉]?|\|(.+)\|[₀-₉]?|∠\s*(.+)|[⌊⌈](.+)[⌋⌉](?:\\?_\{?([^{}\s]+)\}?)?)$"
)
"""An operator applied to the symbols it explains: `‖a‖` and `|z|`, a norm
(`\\lVert\\mathbf a\\rVert`); `∠L`, the phase of L; `⌊x⌋_ε`, x rounded down to a grid ε
(`\\lfloor x\\rfloor_{\\varepsilon}`)."""
_SHORT_TOKEN = 3


_INDEX = re.compile(r"(?:[A-Za-z0-9α-ωΑ-Ω]{1,3}|\d+\.\d+)[⁰¹²³⁴⁵⁶⁷⁸⁹]*")  # `T_c,0.5`: a decimal too


def _split(text: str, separators: str) -> list[tuple[str, bool]]:
    """`text` split at the separators outside brackets, each piece with whether a comma
    with no space came before it (`B²` of `s_c,B²`, which may go on a subscript; `x_i, y`
    names two)."""
    pieces = [("", False)]
    depth = 0
    for k, char in enumerate(text):
        depth += (char in "([{") - (char in ")]}")
        if depth <= 0 and char in separators:
            tight = char == "," and k + 1 < len(text) and not text[k + 1].isspace()
            pieces.append(("", tight))
        else:
            pieces[-1] = (pieces[-1][0] + char, pieces[-1][1])
    return [(piece.strip(), tight) for piece, tight in pieces]


def _top_level_split(text: str, separators: str) -> list[str]:
    return [piece for piece, _ in _split(text, separators)]


def _operands(text: str) -> tuple[str, ...]:
    """Names in an expression; a short run of Latin letters (`kT`) is also read as the
    product of its letters, as LaTeX would read it."""
    found: list[str] = []
    for token in (part for run in _SPLIT_OPERANDS.split(text) for part in _GLUED.split(run)):
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


_NORM_SUBSCRIPT = re.compile(r"(?<=[‖|])_\{?[A-Za-z0-9∞]{1,3}\}?$")  # `‖·‖_F`, `‖·‖_{2}`


def _is_operator(piece: str) -> bool:
    """`+`, `−`, `⊙`, `∘`, `∧`, `‖·‖₂`, `‖·‖_F`, `⌊·⌋`: an operator a glossary explains (no
    letter or digit, but for the subscript of a norm)."""
    if piece.startswith(("‖", "|")):
        piece = _NORM_SUBSCRIPT.sub("", piece).rstrip("₀₁₂₃₄₅₆₇₈₉∞")
    if piece[:1] in "⌊⌈⟨‖|":
        piece = piece.replace(" ", "")  # `⌈ ⌉`: a bracket pair written with its gap
    return 0 < len(piece) <= 3 and all(
        char in "+-*/|·×÷^~<>=!&‖⌊⌋⌈⌉⟨⟩" or unicodedata.category(char) == "Sm" for char in piece
    )


_MARK_SUFFIXES = frozenset({*MARK_WORDS, *naming.ACCENTS.values(), "prime", "prime2"})
_ACCENT_WORDS = frozenset({"hat", "bar", "tilde", "dot", "ddot", "vec", "check", "prime"})
_SUBSCRIPT_WORDS = re.compile(r"^(\S+_\S+?)((?:\s[a-z]+){1,2})$")


def _spelled(piece: str) -> str | None:
    """A symbol written with words: `bar theta` and `theta-bar` are `theta_bar`, `x hat`
    is `x_hat`; `CD_after etch` is `CD_after_etch` (the subscript's words go on)."""
    words = re.split(r"[ -]", piece)
    if len(words) == 2 and (words[0] in _ACCENT_WORDS) != (words[1] in _ACCENT_WORDS):
        accent, letter = sorted(words, key=lambda word: word not in _ACCENT_WORDS)
        name = name_of(letter)
        if name is not None and naming.is_letter(naming.split(name)[0]):
            return f"{name}_{accent}"
    subscripted = _SUBSCRIPT_WORDS.match(piece)
    if subscripted is not None and (name := name_of(subscripted.group(1))) is not None:
        return "_".join([name, *subscripted.group(2).split()])
    return None


def _balanced(text: str) -> bool:
    depth = 0
    for char in text:
        depth += (char == "(") - (char == ")")
        if depth < 0:
            return False
    return depth == 0


def _symbolic(token: str) -> bool:
    """A token an implicit product is made of: short (`kT`) or subscripted (`C_ox`)."""
    name = name_of(token)
    return name is not None and (len(token) <= _SHORT_TOKEN or "_" in name)


def latex_reading(name: str) -> tuple[str, ...]:
    """How LaTeX reads a glossary name with a multi-letter base: `CD_{\\text{after etch}}` is
    `C` times `D_after_etch`, and `NG` (a noise gain written in italics) is N times G; () for
    other names."""
    base, pieces = naming.split(name)
    if pieces and pieces[0] in _MARK_SUFFIXES or base in naming.GREEK or base == "ell":
        return ()
    if not pieces and (greek := naming.greek_run(base)):
        return greek  # `τα`, a transmittance–absorptance product, is `\tau\alpha`
    if not (1 < len(base) <= _SHORT_TOKEN and base.isascii() and base.isalpha()):
        return ()
    if not pieces:
        return tuple(base)
    return (*base[:-1], "_".join((base[-1], *pieces)))


def words(text: str) -> int:
    """Words in the longest symbol of a cell: `η(t), η_max, T_w, T` is a list of one-word
    symbols, `P(D | +)` one symbol of two words (an operator is no word)."""
    return max(
        len([word for word in piece.split() if any(char.isalnum() for char in word)])
        for piece in _top_level_split(text, ",;")
    )


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
    listed = _top_level_split(text, ",;")
    if all(_is_operator(piece) for piece in listed):
        return SymbolCell(text, (), OPERATOR, operators=tuple(listed))
    head = _RELATION.split(text, maxsplit=1)[0] if _RELATION.search(text) else text
    if not head or _VALUE_START.match(head):
        return SymbolCell(text, (), VALUE, mentions=_operands(text))
    found: list[str] = []
    qualifiers: list[str] = []
    mentioned: list[str] = []
    operators: list[str] = []
    kind = SYMBOL
    pieces = _split(head, ",;")
    for position, (piece, tight) in enumerate(pieces):
        if not piece:
            continue
        following = pieces[position + 1] if position + 1 < len(pieces) else ("", False)
        listing = following[1] and bool(_INDEX.fullmatch(following[0]))  # `R_0,A,B,T`
        pair = tight and not listing and found and "_" in found[-1] and _INDEX.fullmatch(piece)
        if pair and piece != found[-1].split("_")[0]:  # `L_0,L` lists L_0 and L
            index = piece.rstrip("⁰¹²³⁴⁵⁶⁷⁸⁹")
            found[-1] += "_" + (name_of(index) or index)  # `s_c,B²`, `Φ_e,λ`: an index pair
            continue
        if _is_operator(piece):
            operators.append(piece)
            continue
        if notation.NUMBER_FUNCTION.fullmatch(piece):
            continue  # `N, H, ln 2`: a constant listed with the symbols names none
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
        if piece[:1] == "⟨" and piece[-1:] == "⟩" and _operands(piece[1:-1]):
            kind = EXPRESSION  # `⟨v_n²⟩`: a mean, which an equation writes `\\langle v_n^2\\rangle`
            mentioned += _operands(piece[1:-1])
            continue
        summed = _summand(piece)
        if summed is not None:  # `ΣK`: the sum of K, which an equation writes `\sum K`
            found.append(summed)
            mentioned += latex_reading(summed)
            continue
        if piece in _ELLIPSES and found:
            continue  # `R_1, …, R_4`: the run is filled in where it ends
        after_ellipsis = position > 0 and pieces[position - 1][0] in _ELLIPSES
        ranged = _range(piece) or (_run(found[-1], piece) if found and after_ellipsis else None)
        if ranged:
            found += [name for name in ranged if name not in found]
            continue
        derivative = _DERIVATIVE.match(piece)
        parts = [name_of(part) for part in derivative.groups()] if derivative else []
        if parts and all(parts) and name_of(piece) is not None:
            kind = EXPRESSION  # `dV_OS/dT`, a drift (`\frac{dV_{OS}}{dT}`), not one name
            mentioned += [part for part in parts if part]
            continue
        single = name_of(piece.replace("Δ ", "Δ")) or _spelled(piece)
        if single is not None:
            found.append(single)
            mentioned += latex_reading(single)
            continue
        operated = _APPLIED.match(piece)
        applied = [part for part in operated.groups() if part] if operated else []
        if applied and all(_operands(part) for part in applied):
            kind = EXPRESSION
            mentioned += [name for part in applied for name in _operands(part)]
            continue
        if (grouped := _GROUPED.match(piece)) and _operands(grouped.group(1)):
            kind = EXPRESSION  # `(I²t)_m`, which an equation writes `(I^2t)_{\mathrm m}`
            mentioned += _operands(grouped.group(1))
            continue
        operands = _operands(piece)
        tokens = [part for token in piece.split() for part in _GLUED.split(token)]
        call = re.match(r"^([^\s(]+)\((.*)\)$", piece)
        if call and name_of(call.group(1)) and _balanced(call.group(2)):
            found.append(name_of(call.group(1)) or "")
            mentioned += _operands(call.group(2))
        elif operands and (_OPERATORS.search(piece) or all(map(_symbolic, tokens))):
            kind = EXPRESSION  # `kT/q`, `π/(1 − π)`, `μ_n C_ox`
            mentioned += operands
        else:
            return SymbolCell(text, (), NONE)
    qualifier = ", ".join(qualifiers)
    if kind == EXPRESSION and not found:
        return SymbolCell(text, (), EXPRESSION, qualifier, tuple(mentioned), tuple(operators))
    if not found:
        kind = OPERATOR if operators else NONE
        return SymbolCell(text, (), kind, qualifier, operators=tuple(operators))
    return SymbolCell(text, tuple(found), SYMBOL, qualifier, tuple(mentioned), tuple(operators))


_ELLIPSES = ("…", "...", "⋯")
_RANGE = re.compile(r"^(\S+?)\s*(?:–|—|-|…|\.\.\.|⋯|\bto\b)\s*(\S+)$")
_NUMBERED = re.compile(r"^(.*?[^\d_])(_?)(\d{1,2})$")  # `R_1`, and `R1` as written
_MAX_RUN = 16


def _range(piece: str) -> list[str] | None:
    """The symbols a numbered run names (`R1–R4`, `R₁…R₄`: R_1 to R_4); None for another
    piece (`V_a − V_b` is a difference)."""
    match = _RANGE.match(piece)
    first = name_of(match.group(1)) if match else None
    last = name_of(match.group(2)) if match else None
    if first is None or last is None:
        return None
    run = _run(first, last)
    hyphen = "-" in piece and not any(mark in piece for mark in "–—…⋯")
    return None if run is None or (hyphen and len(run) < 3) else run  # `V_1-V_2`: a difference


def _run(first: str, last: str) -> list[str] | None:
    start, end = _NUMBERED.match(first), _NUMBERED.match(last)
    if start is None or end is None or start.group(1, 2) != end.group(1, 2):
        return None
    low, high = int(start.group(3)), int(end.group(3))
    if not low < high <= low + _MAX_RUN:
        return None
    return [f"{start.group(1)}{start.group(2)}{index}" for index in range(low, high + 1)]


def _summand(piece: str) -> str | None:
    """`K` of `ΣK` or `∑ K_i`: a glossary cell that names a sum defines its summand."""
    if len(piece) < 2 or piece[0] not in "Σ∑":
        return None
    return name_of(piece[1:].strip())


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
