"""Unicode math characters written directly in lesson LaTeX, as the LaTeX they stand for.

KaTeX renders ``α``, ``×``, ``≤``, ``ℝ`` or ``x²`` typed straight into an equation,
so authors paste them. Each is read as the LaTeX it means (``α`` is ``\\alpha``,
``²`` is ``^{2}``, ``ℝ`` is ``\\mathbb{R}``); the lexer gives the expansion's tokens
the offsets of the original character, so errors still point at it.
"""

from __future__ import annotations

import unicodedata
from types import MappingProxyType

from atlas_build import notation

_SYMBOLS = {
    "×": "\\times",
    "·": "\\cdot",
    "⋅": "\\cdot",
    "∙": "\\cdot",
    "−": "-",
    "–": "-",
    "÷": "\\div",
    "±": "\\pm",
    "∓": "\\mp",
    "≤": "\\le",
    "≦": "\\le",
    "⩽": "\\le",
    "≥": "\\ge",
    "≧": "\\ge",
    "⩾": "\\ge",
    "≠": "\\ne",
    "≈": "\\approx",
    "≃": "\\simeq",
    "≅": "\\cong",
    "≡": "\\equiv",
    "∼": "\\sim",
    "∝": "\\propto",
    "≪": "\\ll",
    "≫": "\\gg",
    "≜": "\\triangleq",
    "≔": "\\coloneqq",
    "∈": "\\in",
    "∉": "\\notin",
    "∋": "\\ni",
    "⊂": "\\subset",
    "⊆": "\\subseteq",
    "⊃": "\\supset",
    "⊇": "\\supseteq",
    "⊊": "\\subsetneq",
    "∩": "\\cap",
    "∪": "\\cup",
    "∖": "\\setminus",
    "∘": "\\circ",
    "⊙": "\\odot",
    "⊗": "\\otimes",
    "⊕": "\\oplus",
    "∗": "\\ast",
    "⋆": "\\star",
    "∥": "\\parallel",
    "⊥": "\\perp",
    "∞": "\\infty",
    "∅": "\\emptyset",
    "∑": "\\sum",
    "∏": "\\prod",
    "∫": "\\int",
    "∬": "\\iint",
    "∭": "\\iiint",
    "∮": "\\oint",
    "√": "\\sqrt",
    "∂": "\\partial",
    "∇": "\\nabla",
    "∠": "\\angle",
    "→": "\\to",
    "⟶": "\\to",
    "←": "\\leftarrow",
    "⟵": "\\leftarrow",
    "↔": "\\leftrightarrow",
    "⟷": "\\leftrightarrow",
    "↦": "\\mapsto",
    "⇒": "\\Rightarrow",
    "⟹": "\\Rightarrow",
    "⇐": "\\Leftarrow",
    "⟸": "\\Leftarrow",
    "⇔": "\\Leftrightarrow",
    "⟺": "\\Leftrightarrow",
    "∀": "\\forall",
    "∃": "\\exists",
    "¬": "\\lnot",
    "∧": "\\land",
    "∨": "\\lor",
    "∴": "\\therefore",
    "⟨": "\\langle",
    "⟩": "\\rangle",
    "⌊": "\\lfloor",
    "⌋": "\\rfloor",
    "⌈": "\\lceil",
    "⌉": "\\rceil",
    "‖": "\\|",
    "∣": "\\mid",
    "…": "\\ldots",
    "⋯": "\\cdots",
    "⋮": "\\vdots",
    "⋱": "\\ddots",
    "′": "'",
    "″": "''",
    "‴": "'''",
    "°": "^{\\circ}",
    "ᵀ": "^{\\top}",
}


def _latex(name: str) -> str:
    """A letter's name as LaTeX: `alpha` is `\\alpha`, `h` stays `h`."""
    return name if len(name) == 1 else f"\\{name}"


_SYMBOLS |= {char: _latex(name) for char, name in notation.LETTERLIKE.items()}

SUPERSCRIPTS: MappingProxyType[str, str] = MappingProxyType(
    dict(zip("⁰¹²³⁴⁵⁶⁷⁸⁹⁺⁻⁼⁽⁾ⁿⁱ", "0123456789+-=()ni", strict=True))
)
SUBSCRIPTS: MappingProxyType[str, str] = MappingProxyType(
    dict(zip("₀₁₂₃₄₅₆₇₈₉₊₋₌₍₎ₐₑₒₓₕₖₗₘₙₚₛₜᵢⱼᵣᵤᵥ", "0123456789+-=()aeoxhklmnpstijruv", strict=True))
)

COMBINING = notation.COMBINING
"""Combining accents after a letter: ``x̂`` is ``\\hat{x}`` (the table the glossary reads too)."""

SPACES = frozenset("\u00a0\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a")
SPACES |= frozenset("\u202f\u205f\u3000\u200b\u200c\u200d\u2060\ufeff")

_STYLES = (("DOUBLE-STRUCK", "mathbb"), ("FRAKTUR", "mathfrak"), ("SCRIPT", "mathcal"))


def expand(ch: str) -> str | None:
    """The LaTeX that the character ``ch`` stands for, or ``None`` if it has none."""
    if ch in _SYMBOLS:
        return _SYMBOLS[ch]
    greek = notation.greek_name(ch)
    if greek is not None:
        return _latex(greek)
    name = unicodedata.name(ch, "")
    plain = unicodedata.normalize("NFKC", ch)
    if len(plain) == 1 and plain != ch and plain.isascii() and plain.isalnum():
        for marker, font in _STYLES:
            if marker in name:
                return f"\\{font}{{{plain}}}"
        return plain
    if len(plain) == 1 and plain != ch and (greek := notation.greek_name(plain)) is not None:
        return _latex(greek)
    decomposed = unicodedata.normalize("NFD", ch)
    base, marks = decomposed[:1], decomposed[1:]
    if base.isascii() and base.isalpha() and marks and all(m in COMBINING for m in marks):
        latex = base
        for mark in marks:
            latex = f"\\{COMBINING[mark]}{{{latex}}}"
        return latex
    return None
