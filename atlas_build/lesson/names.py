"""The symbol naming convention both sides of the glossary check share.

The LaTeX parser names `\\tau` `tau`, `\\hat{x}_i` `x_hat_i`, `\\mathcal{P}` `P_cal`; the
glossary reader (`symbols.py`) and the LaTeX name scan (`latexnames.py`) must give the same
names to the same symbols, so the tables they need live here once. `key()` is the looser
form two names are compared in: spellings the convention leaves open (`\\varepsilon` and
`ε`, `\\mathscr` and a Unicode script letter, the order of suffixes) compare equal.
"""

from __future__ import annotations

import unicodedata

GREEK = frozenset(
    (
        "alpha beta gamma delta epsilon varepsilon zeta eta theta vartheta iota kappa varkappa"
        " lambda mu nu xi omicron pi varpi rho varrho sigma varsigma tau upsilon phi varphi chi"
        " psi omega Gamma Delta Theta Lambda Xi Pi Sigma Upsilon Phi Psi Omega"
    ).split()
)
"""Greek letter names as LaTeX commands spell them (and as SymPy symbols are named)."""

_VARIANTS = {
    "varepsilon": "epsilon",
    "vartheta": "theta",
    "varkappa": "kappa",
    "varphi": "phi",
    "varpi": "pi",
    "varrho": "rho",
    "varsigma": "sigma",
}
_STYLE_SYNONYMS = {"scr": "cal"}

ACCENTS = {
    "hat": "hat",
    "widehat": "hat",
    "tilde": "tilde",
    "widetilde": "tilde",
    "bar": "bar",
    "overline": "bar",
    "dot": "dot",
    "ddot": "ddot",
    "vec": "vec",
    "overrightarrow": "vec",
    "check": "check",
    "breve": "breve",
    "acute": "acute",
    "grave": "grave",
    "mathring": "ring",
}
"""LaTeX accent command -> the suffix its symbol carries (`\\hat{x}` -> `x_hat`)."""

COMBINING = {
    "\u0300": "grave",
    "\u0301": "acute",
    "\u0302": "hat",
    "\u0303": "tilde",
    "\u0304": "bar",
    "\u0305": "bar",
    "\u0306": "breve",
    "\u0307": "dot",
    "\u0308": "ddot",
    "\u030a": "ring",
    "\u030c": "check",
    "\u20d1": "vec",
    "\u20d7": "vec",
}
"""Unicode combining marks written over a glossary letter -> the same suffixes."""

# Greek capitals LaTeX has no command for are written with the Latin letter.
_LATIN_LOOKALIKE = {
    "ALPHA": "A",
    "BETA": "B",
    "EPSILON": "E",
    "ZETA": "Z",
    "ETA": "H",
    "IOTA": "I",
    "KAPPA": "K",
    "MU": "M",
    "NU": "N",
    "OMICRON": "O",
    "RHO": "P",
    "TAU": "T",
    "CHI": "X",
}
_GREEK_SPECIAL = {
    "\u00b5": "mu",  # MICRO SIGN
    "\u03c2": "sigma",  # final sigma
    "\u03d0": "beta",
    "\u03d1": "theta",
    "\u03d5": "phi",
    "\u03d6": "pi",
    "\u03f0": "kappa",
    "\u03f1": "rho",
    "\u03f5": "epsilon",
    "\u03f4": "Theta",
    "\u03d2": "Upsilon",
    "\u2113": "ell",  # SCRIPT SMALL L, LaTeX \ell
    "\u210f": "hbar",
    "\u210e": "h",  # PLANCK CONSTANT, the italic h
    "\u0127": "hbar",  # LATIN SMALL LETTER H WITH STROKE, written for the reduced constant
}
_STYLES = (("DOUBLE-STRUCK", "bb"), ("FRAKTUR", "frak"), ("BLACK-LETTER", "frak"))


SUBSCRIPT_SIGNS = {"□": "square", "∞": "infty", "∥": "parallel", "⊥": "perp"}
"""Signs a subscript may hold, named as the LaTeX parser names their commands:
`R_□` is `R_{\\square}`, `R_square`; `x_∞` is `x_infty`."""


def greek_name(char: str) -> str | None:
    """`τ` -> `tau`, `Δ` -> `Delta`, `ϵ`/`ε` -> `epsilon`; None for other characters."""
    if char in _GREEK_SPECIAL:
        return _GREEK_SPECIAL[char]
    name = unicodedata.name(char, "")
    for case in ("SMALL", "CAPITAL"):
        prefix = f"GREEK {case} LETTER "
        if name.startswith(prefix):
            letter = name[len(prefix) :].replace("LAMDA", "LAMBDA")
            if " " in letter:
                return None
            if case == "SMALL":
                return "o" if letter == "OMICRON" else letter.lower()
            return _LATIN_LOOKALIKE.get(letter, letter.capitalize())
    return None


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
    return _VARIANTS.get(base, base) + ("_" + "".join(sorted("".join(folded))) if folded else "")


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
    in them (`i+1`, `k-1`, `1-alpha/2`): `C_i+1` is a member of the family `C`."""
    if bool(set(piece) & _INDEX_OPERATORS) and piece[0] not in _INDEX_OPERATORS:
        return True
    return 0 < len(piece) <= 2 and set(piece) <= INDEX_LETTERS
