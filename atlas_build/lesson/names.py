"""The symbol naming convention both sides of the glossary check share.

The LaTeX parser names `\\tau` `tau`, `\\hat{x}_i` `x_hat_i`, `\\mathcal{P}` `P_cal`; the
glossary reader (`symbols.py`) and the LaTeX name scan (`latexnames.py`) must give the same
names to the same symbols, so the tables they need live here once. `key()` is the looser
form two names are compared in: spellings the convention leaves open (`\\varepsilon` and
`ε`, `\\mathscr` and a Unicode script letter, the order of suffixes) compare equal.
"""

from __future__ import annotations

import unicodedata

from atlas_build import notation

GREEK = frozenset(notation.GREEK_LETTERS) | {"omicron"}
"""Greek letter names as LaTeX commands spell them (and as SymPy symbols are named), and
`omicron`, which LaTeX writes `o` but a glossary may spell out."""

_VARIANTS = notation.GREEK_VARIANTS
_STYLE_SYNONYMS = {"scr": "cal"}

ACCENTS = notation.ACCENTS
"""LaTeX accent command -> the suffix its symbol carries (`\\hat{x}` -> `x_hat`)."""

COMBINING = notation.COMBINING_SUFFIXES
"""Unicode combining marks written over a glossary letter -> the same suffixes."""

_STYLES = (("DOUBLE-STRUCK", "bb"), ("FRAKTUR", "frak"), ("BLACK-LETTER", "frak"))


SUBSCRIPT_SIGNS = notation.SUBSCRIPT_SIGNS


def greek_name(char: str) -> str | None:
    """`τ` -> `tau`, `Δ` -> `Delta`, `ϵ`/`ε` -> `epsilon`; None for other characters."""
    name = notation.greek_name(char)
    return None if name is None else notation.plain_letter(name)


def letter(char: str) -> tuple[str, str] | None:
    """(name, style suffix) of one letter as a glossary writes it: `x` -> (`x`, ``),
    `𝐱` -> (`x`, ``), `𝒫` -> (`P`, `cal`), `ℝ` -> (`R`, `bb`), `𝛼` -> (`alpha`, ``)."""
    if char.isascii():
        return (char, "") if char.isalpha() else None
    greek = greek_name(char)
    if greek is not None:
        return greek, ""
    name = unicodedata.name(char, "")
    plain = unicodedata.normalize("NFKD", char)
    styled = name.startswith("MATHEMATICAL ") or any(
        word in name for word in ("SCRIPT", "DOUBLE-STRUCK", "BLACK-LETTER")
    )
    if styled and len(plain) == 1 and plain != char:
        base = letter(plain)
        if base is None:
            return None
        style = next((suffix for word, suffix in _STYLES if word in name), "")
        return base[0], style or ("cal" if "SCRIPT" in name else "")
    return (char, "") if char.isalpha() else None


def is_letter(name: str) -> bool:
    """A one-letter symbol: `x`, `T`, or a Greek letter (`tau`, `Delta`)."""
    return (len(name) == 1 and name.isascii() and name.isalpha()) or name in GREEK


def split(name: str) -> tuple[str, tuple[str, ...]]:
    """`x_hat_i` -> (`x`, (`hat`, `i`))."""
    base, *pieces = name.split("_")
    return base, tuple(piece for piece in pieces if piece)


def variants(name: str) -> list[str]:
    """The other spellings of a name whose base letter has a variant form: `phi_0` ->
    [`varphi_0`]; `varphi` -> [`phi`]. (A table's φ may be a lesson's `\\varphi`.)"""
    base, _, rest = name.partition("_")
    tail = "_" + rest if rest else ""
    if base in _VARIANTS:
        return [_VARIANTS[base] + tail]
    return [variant + tail for variant, plain in _VARIANTS.items() if plain == base]


def key(name: str) -> str:
    """The form names are compared in: Greek variants folded (`varepsilon` ~ `epsilon`),
    `scr` ~ `cal`, and the suffix letters taken as a multiset, so `x_i_hat` ~ `x_hat_i` and
    `k_SiO2` ~ `k_SiO_2`."""
    base, pieces = split(name)
    folded = [_STYLE_SYNONYMS.get(_VARIANTS.get(p, p), _VARIANTS.get(p, p)) for p in pieces]
    return _plain(base) + ("_" + "".join(sorted("".join(folded))) if folded else "")


def _plain(base: str) -> str:
    """A base with its variant letter folded, after a Δ or δ too (`Deltavarpi`, the
    `\\Delta\\varpi` of a glossary's Δϖ, is `Deltapi`)."""
    for prefix in ("Delta", "delta"):
        rest = base[len(prefix) :]
        if base.startswith(prefix) and rest in _VARIANTS:
            return prefix + _VARIANTS[rest]
    return _VARIANTS.get(base, base)


def base_key(name: str) -> str:
    return key(split(name)[0])


def flat(name: str) -> str:
    """The name with its subscript marks dropped: `B_kj` and `Bkj`, `V_DD` and `VDD`,
    `mu_train` and `μtrain` (`mutrain`) are one name flat. Real glossaries flatten
    subscripts; comparing flat forms is the fallback when names differ only so."""
    base, pieces = split(name)
    return "".join(_VARIANTS.get(part, part) for part in (base, *pieces))


INDEX_LETTERS = frozenset("ijklmnt")
_INDEX_OPERATORS = frozenset("+-/")


def is_index(piece: str) -> bool:
    """A subscript that runs over a family: index letters (`j`, `ij`) or an expression
    in them (`i+1`, `k-1`, `1-alpha/2`): `C_i+1` is a member of the family `C`, and so is
    `C_ℓ`, a layer's (`ell`)."""
    if bool(set(piece) & _INDEX_OPERATORS) and piece[0] not in _INDEX_OPERATORS:
        return True
    return piece == "ell" or (0 < len(piece) <= 2 and set(piece) <= INDEX_LETTERS)


SIGN_WORDS = {"+": "plus", "-": "minus", "−": "minus"}
"""A subscript that is a sign alone, as LaTeX names it: `V₊` is `V_{+}`, V_plus."""


def greek_run(base: str) -> tuple[str, ...]:
    """`taualpha` -> (`tau`, `alpha`), `rhoc` -> (`rho`, `c`): a name spelled as two or
    three Greek letters, or a Greek letter and one Latin letter (`ρc`, heat capacity)."""
    for first in GREEK:
        if base.startswith(first) and base != first:
            rest = base[len(first) :]
            if rest in GREEK or (len(rest) == 1 and rest.isascii() and rest.isalpha()):
                return (first, rest)
            if (tail := greek_run(rest)) and len(tail) == 2:
                return (first, *tail)
    return ()
