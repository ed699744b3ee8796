"""The one table of how math notation spells names: accents, combining marks, Greek letters.

The LaTeX parser (`latex/`), the glossary readers (`lesson/names.py`) and the glossary
symbol reader (`units/symbols.py`) must give `\\dddot{x}`, `x⃛`, `ϑ` or `Α` the same name,
or a glossary entry silently fails to match the equation that uses it. Each kept its own
copy of these tables and the copies drifted (`\\dddot` known to the parser only, `x̊` to the
glossary only), so the tables live here once. A leaf: it imports nothing of the package,
so every layer may read it.
"""

from __future__ import annotations

import re
import unicodedata
from types import MappingProxyType

ACCENTS: MappingProxyType[str, str] = MappingProxyType(
    {
        "hat": "hat",
        "widehat": "hat",
        "tilde": "tilde",
        "widetilde": "tilde",
        "bar": "bar",
        "overline": "bar",
        "dot": "dot",
        "ddot": "ddot",
        "dddot": "dddot",
        "vec": "vec",
        "overrightarrow": "vec",
        "check": "check",
        "breve": "breve",
        "acute": "acute",
        "grave": "grave",
        "mathring": "ring",
    }
)
"""LaTeX accent command -> the suffix its symbol's name carries (`\\hat{x}` is `x_hat`)."""

COMBINING: MappingProxyType[str, str] = MappingProxyType(
    {
        "\u0300": "grave",
        "\u0301": "acute",
        "\u0302": "hat",
        "\u0303": "tilde",
        "\u0304": "bar",
        "\u0305": "bar",
        "\u0306": "breve",
        "\u0307": "dot",
        "\u0308": "ddot",
        "\u030a": "mathring",
        "\u030c": "check",
        "\u20d1": "vec",
        "\u20d7": "vec",
        "\u20db": "dddot",
    }
)
"""Unicode combining mark -> the accent command it writes (`x̂` is `\\hat{x}`)."""

COMBINING_SUFFIXES: MappingProxyType[str, str] = MappingProxyType(
    {mark: ACCENTS[command] for mark, command in COMBINING.items()}
)
"""Unicode combining mark -> the suffix of the accented name (`x̊` is `x_ring`)."""

GREEK_LETTERS: tuple[str, ...] = tuple(
    (
        "alpha beta gamma delta epsilon varepsilon zeta eta theta vartheta iota kappa varkappa"
        " lambda mu nu xi pi varpi rho varrho sigma varsigma tau upsilon phi varphi chi psi"
        " omega digamma Gamma Delta Theta Lambda Xi Pi Sigma Upsilon Phi Psi Omega varGamma"
        " varDelta varTheta varLambda varXi varPi varSigma varUpsilon varPhi varPsi varOmega"
    ).split()
)
"""Greek letter commands of the LaTeX dialect; a symbol is named after its command."""

GREEK_VARIANTS: MappingProxyType[str, str] = MappingProxyType(
    {name: name[3:] for name in GREEK_LETTERS if name.startswith("var")}
)
"""Variant letter -> the letter it is a form of (`varphi` -> `phi`, `varGamma` -> `Gamma`):
the convention leaves the choice open, so names compare with variants folded."""

LATIN_LOOKALIKES: MappingProxyType[str, str] = MappingProxyType(
    dict(
        zip(
            "ALPHA BETA EPSILON ZETA ETA IOTA KAPPA MU NU OMICRON RHO TAU CHI".split(),
            "ABEZHIKMNOPTX",
            strict=True,
        )
    )
)
"""Greek capitals (by Unicode letter name) LaTeX has no command for: written with the Latin
letter they look like, as is small omicron (`o`)."""

LETTERLIKE: MappingProxyType[str, str] = MappingProxyType(
    {
        "\u00b5": "mu",  # MICRO SIGN
        "\u03b5": "epsilon",
        "\u03f5": "epsilon",  # lunate epsilon
        "\u03c6": "phi",
        "\u03d5": "phi",  # phi symbol
        "\u03d1": "vartheta",
        "\u03c2": "varsigma",  # final sigma
        "\u03f1": "varrho",
        "\u03d6": "varpi",
        "\u03d0": "beta",
        "\u03f0": "kappa",
        "\u03f4": "Theta",
        "\u03d2": "Upsilon",
        "\u2113": "ell",  # SCRIPT SMALL L
        "\u210f": "hbar",
        "\u0127": "hbar",  # LATIN SMALL LETTER H WITH STROKE, written for the reduced constant
        "\u210e": "h",  # PLANCK CONSTANT, the italic h
    }
)
"""Characters whose Unicode name does not say the command they are read as."""

SUBSCRIPT_SIGNS: MappingProxyType[str, str] = MappingProxyType(
    {"□": "square", "∞": "infty", "∥": "parallel", "⊥": "perp"}
)
"""Signs a subscript may hold, named as the LaTeX parser names their commands:
`R_□` is `R_{\\square}`, `R_square`; `x_∞` is `x_infty`."""

SCRIPT_MARKS: MappingProxyType[str, str] = MappingProxyType(
    {
        "*": "star",
        "ast": "star",
        "star": "star",
        "dagger": "dagger",
        "dag": "dagger",
        "ddagger": "ddagger",
        "+": "plus",
        "-": "minus",
        "prime": "prime",
        "circ": "circ",  # `E^{\circ}`, `ΔG°`: the standard-state value, not a power
    }
)
"""A superscript that names rather than powers (`x^*`, `x^\\dagger`) -> the name's suffix;
letters spell a LaTeX command."""


def greek_name(char: str) -> str | None:
    """The name the LaTeX parser gives `char` as a letter: `τ` -> `tau`, `ϑ` -> `vartheta`,
    `Α` -> `A`, `ℏ` -> `hbar`; None when it is no Greek letter the dialect knows."""
    if char in LETTERLIKE:
        return LETTERLIKE[char]
    name = unicodedata.name(char, "")
    for case in ("SMALL", "CAPITAL"):
        prefix = f"GREEK {case} LETTER "
        if name.startswith(prefix):
            letter = name[len(prefix) :].replace("LAMDA", "LAMBDA")
            if letter == "OMICRON" and case == "SMALL":
                return "o"
            if case == "CAPITAL" and letter in LATIN_LOOKALIKES:
                return LATIN_LOOKALIKES[letter]
            spelled = letter.lower() if case == "SMALL" else letter.capitalize()
            return spelled if spelled in GREEK_LETTERS else None
    return None


def plain_letter(name: str) -> str:
    """`name` with a variant letter folded to its plain form (`vartheta` -> `theta`)."""
    return GREEK_VARIANTS.get(name, name)


NUMBER_FUNCTION = re.compile(
    r"(?:ln|log|lg|log₂|log₁₀|log_?\{?\d+\}?|√|sqrt)\s*\(?\s*\d+(?:\.\d+)?\s*\)?"
)
"""A function of a number (`ln 2`, `log₂ 10`, `√2`): a constant a glossary explains, alone
or among the symbols of one entry, which names no symbol but is no reason to stop reading
the table (`lesson/glossaries.py`, `lesson/symbols.py`); its unit, in an entry that pairs
units with symbols, belongs to no symbol (`units/glossary.py`)."""


def turn_label(char: str, previous: str, in_subscript: bool) -> bool:
    """`ΔL_90°`: a degree sign after a subscript's digits labels the turn the quantity is
    of (the 90° bend's loss), as `\\Delta L_{90^\\circ}` writes it. It is no part of the
    name, where a degree sign after a letter (`E°`, a standard-state value) is."""
    return char == "°" and in_subscript and previous.isdigit()


def cut_off(text: str, index: int, named: bool) -> bool:
    """`NR@k`, `P@10`: the `@` of a metric taken at a cut-off, part of one name, as
    `\\mathrm{NR@}k` writes it; only between a name's start and a letter or digit."""
    return text[index] == "@" and named and text[index + 1 : index + 2].isalnum()


def variant_tag(letter: str) -> bool:
    """`T_{60}^{\\mathrm{E}}`, `T₆₀ᴱ`: one upright capital superscript names a variant (Eyring's
    reverberation time), not a power; except the transpose and Hermitian marks T and H."""
    return len(letter) == 1 and letter.isascii() and letter.isupper() and letter not in "TH"
