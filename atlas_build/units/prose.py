"""Quantities in prose: a number followed by a unit (`128 KiB`, `3.35 TB/s`, `10¹⁶ cm⁻³`).

Conservative by design: the word after a number is a unit only when the whole
word reads as a unit of the vocabulary (`5 layers`, `3 heads`, `4 is` are not),
is not a count word (`3 elements`), and is not one of the single letters prose
uses as a variable or an English word (`PROSE_EXCLUDED`). Without a space only
multi-character units attach (`2.1ms`, `50%`, but not `7B`). A ratio of one unit
(`11 V/V`) is a pure number.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import sympy

from .grammar import UnitSyntaxError, read_unit
from .numbers import NUMBER, number_value
from .product import UnitProduct
from .vocabulary import AMBIGUOUS

MAX_UNIT = 40
PROSE_EXCLUDED = frozenset({"T", "N", "L", "H", "C", "F", "S", "g", "h", "pm"})
"""Unit symbols that, after a number in prose, are more often a variable or a word."""

_GAP = re.compile(r"[ \u00a0\u2009\u202f]?")


def _after_gap(text: str, end: int) -> int:
    """Where a unit written after a number ending at `end` would start (past the space)."""
    gap = _GAP.match(text, end)
    return gap.end() if gap is not None else end


_RUN = re.compile(rf"[^\s]{{1,{MAX_UNIT}}}")
_PER = re.compile(r"\s+per\s+([^\W\d_]+)")
_TRAILING = ".,;:!?\"'”’»"
_CUTS = "/·⋅*(×"  # `1.7 V×0.4 A`: the unit ends at the multiplication sign
_OVER = re.compile(r"/|\s+per\s+")


@dataclass(frozen=True)
class Quantity:
    """A number with its unit in prose; spans are offsets into the text searched."""

    value: sympy.Rational
    units: UnitProduct
    start: int
    end: int
    unit_start: int
    number_text: str
    unit_text: str


def _balanced(text: str, close: str) -> bool:
    """Whether `text` closes every `(` (or `[`, for `close` "]") it opens, and no more."""
    opening = "(" if close == ")" else "["
    depth = 0
    for char in text:
        depth += (char == opening) - (char == close)
        if depth < 0:
            return False
    return depth == 0


def _trim(run: str) -> str:
    """`MHz]` of `[1700 MHz](url)` is `MHz`; `(kg)` keeps its parenthesis."""
    while run and (run[-1] in _TRAILING or (run[-1] in ")]" and not _balanced(run, run[-1]))):
        run = run[:-1]
    return run


def _acceptable(text: str, units: UnitProduct) -> bool:
    """A unit of prose: not a variable letter, abstract unit or bare count. Units that
    cancel (`V/V`, `W/W`: a gain written in its table's unit) read as dimensionless."""
    if text in PROSE_EXCLUDED:
        return False
    atoms = list(units.atoms())
    if not atoms:
        numerator = _OVER.split(text, maxsplit=1)[0]
        return numerator != text and _read(numerator) is not None
    if any(atom.key.startswith("abstract:") for atom, _ in atoms):
        return False
    return not all(atom.silent for atom, _ in atoms)


def _read(text: str) -> UnitProduct | None:
    try:
        units = read_unit(text, spaces_multiply=False, numbers=False)
    except UnitSyntaxError:
        return None
    return units if _acceptable(text, units) else None


def _unit_at(text: str, position: int) -> tuple[str, UnitProduct] | None:
    """The longest unit starting at `position`: the whole word, else a prefix cut at an operator."""
    run = _RUN.match(text, position)
    if run is None:
        return None
    candidate = _trim(run.group())
    while candidate:
        units = _read(candidate)
        if units is not None:
            if len(candidate) == len(_trim(run.group())):
                per = _PER.match(text, position + len(candidate))
                if per is not None:
                    longer = text[position : per.end()]
                    extended = _read(" ".join(longer.split()))
                    if extended is not None:
                        return longer, extended
            return candidate, units
        cut = max(candidate.rfind(char) for char in _CUTS)
        candidate = _trim(candidate[:cut]) if cut > 0 else ""
    return None


def find_quantities(text: str) -> list[Quantity]:
    """Every number in `text` that a unit follows, in order."""
    found: list[Quantity] = []
    for match in NUMBER.finditer(text):
        unit_start = _after_gap(text, match.end())
        unit = _unit_at(text, unit_start)
        if unit is None:
            continue
        unit_text, units = unit
        if unit_start == match.end() and len(unit_text) < 2 and unit_text not in "%°":
            continue
        try:
            value = number_value(match)
        except ValueError:
            continue
        end = unit_start + len(unit_text)
        found.append(
            Quantity(value, units, match.start(), end, unit_start, match.group(), unit_text)
        )
    return found


def unit_after(text: str, end: int) -> tuple[str, int] | None:
    """The unit written right after a number ending at `end` (the same rules as
    `find_quantities`): its text and where it ends, or None."""
    start = _after_gap(text, end)
    unit = _unit_at(text, start)
    if unit is None:
        return None
    unit_text, _ = unit
    if start == end and len(unit_text) < 2 and unit_text not in "%°":
        return None
    return unit_text, start + len(unit_text)


_EXCLUDED = re.compile(r"(" + "|".join(sorted(PROSE_EXCLUDED, key=len, reverse=True)) + r")(?!\w)")


def excluded_unit_after(text: str, end: int, dimension: object) -> tuple[str, int] | None:
    """A unit symbol prose usually means otherwise (`L`, `T`, `N`: `PROSE_EXCLUDED`) right
    after a number ending at `end`, read as a unit only when the number's quantity has its
    dimension: `V = 0.5 L` for a volume, but not `5 L` for a count of layers. Returns the
    symbol and where it ends."""
    start = _after_gap(text, end)
    if start == end:
        return None  # `7B`, `3T`: glued letters are names, not units
    found = _EXCLUDED.match(text, start)
    if found is None:
        return None
    try:
        units = read_unit(found.group(1), spaces_multiply=False, numbers=False)
    except UnitSyntaxError:
        return None
    return (found.group(1), found.end()) if units.dimension == dimension else None


_LEVEL = re.compile(r"dB[A-Za-z]{0,3}(?!\w)")
_LEVEL_NAMED = re.compile(r"(?<![A-Za-z])dB|decibel", re.IGNORECASE)


def is_level(unit: str | None) -> bool:
    """Whether a unit written after a number is a logarithmic level (`dB`, `dBm`)."""
    return unit is not None and _LEVEL.fullmatch(unit) is not None


def names_level(table_unit: str) -> bool:
    """Whether a symbol table's unit says its quantity is a level (`dimensionless
    (decibels)`, `dimensionless (dB)`), so the dB after its numbers is its own unit."""
    return _LEVEL_NAMED.search(table_unit) is not None


def level_after(text: str, end: int) -> tuple[str, int] | None:
    """A logarithmic level (`dB`, `dBm`) right after a number: the vocabulary refuses it
    as ambiguous, so a caller decides what it means for the number's quantity."""
    start = _after_gap(text, end)
    found = _LEVEL.match(text, start)
    return (found.group(), found.end()) if found else None


FOREIGN_UNITS = frozenset(
    "psi ksi mph kph ft lb lbs lbf oz gal yd Torr torr mmHg inHg hp therm therms thm".split()
)
"""Units of other systems the vocabulary does not read: after a number they are units."""
FOREIGN = "a unit of another system, outside the vocabulary"

CAPITALS = frozenset({"PM", "US"})
"""Capitalised words prose writes after numbers (`5 PM`, `20 US states`), though a change
of case would make them units (petametres, microseconds)."""

_LETTER = r"[^\W\d_⁰¹²³⁴⁵⁶⁷⁸⁹]"
_ATTEMPT = re.compile(rf"(?:°{_LETTER}{{1,15}}|{_LETTER}{{2,16}})(?=[\s.,;:!?\"'”’»)\]/]|$)")
_MAX_VARIANTS = 5  # letters up to which every upper/lower-case spelling is tried


def _case_variants(word: str) -> list[str]:
    if len(word) > _MAX_VARIANTS:
        return [word.lower(), word.upper(), word.capitalize()]
    variants = [""]
    for char in word:
        variants = [v + c for v in variants for c in dict.fromkeys((char.lower(), char.upper()))]
    return variants


def _one_unit(text: str) -> bool:
    """Whether `text` alone reads as a unit with a dimension or scale (`h`, `kW`; not a
    count word or an abstract unit)."""
    try:
        units = read_unit(text, spaces_multiply=False, numbers=False)
    except UnitSyntaxError:
        return False
    atoms = list(units.atoms())
    return bool(atoms) and not any(
        atom.silent or atom.key.startswith("abstract:") for atom, _ in atoms
    )


def _mixed(word: str) -> bool:
    """Case as unit symbols mix it (`Nm`, `VA`, `kWs`), not as words or acronyms do
    (`hm`, `Sum`, `GBW`): two letters not both lower case, or a capital after a letter."""
    if len(word) == 2:
        return not word.islower()
    return any(char.isupper() for char in word[1:]) and not word.isupper()


def unit_attempt(word: str) -> str | None:
    """Why a word the vocabulary does not read is a unit all the same, or None for a word
    prose uses. Conservative on purpose: a case slip of a unit (`mw`, `kwh`, `KJ`), two
    units run together (`Nm`, `VA`, `mins`), an ambiguous unit (`KB`), or a unit of another
    system (`psi`, `ft`). English words are none of these (`and`, `or`, `of`, `is`)."""
    if len(word) < 2 or word in PROSE_EXCLUDED or _one_unit(word):
        return None
    if word in AMBIGUOUS:
        return AMBIGUOUS[word]
    if word in FOREIGN_UNITS or word.rstrip("²³⁴") in FOREIGN_UNITS:
        return FOREIGN  # `ft²` too, not a slip of femtotesla squared
    meant = [] if word in CAPITALS else [v for v in _case_variants(word) if _read(v)]
    cuts = range(1, len(word)) if _mixed(word) else [len(word) - 1] if word[-1] == "s" else []
    for cut in cuts:
        head, tail = word[:cut], word[cut:]
        if _one_unit(head) and (tail == "s" or _one_unit(tail)):
            meant += [f"{head}·{tail}", head] if tail == "s" else [f"{head}·{tail}"]
    return "did you mean " + " or ".join(dict.fromkeys(meant)) + "?" if meant else None


def unread_unit_after(text: str, end: int) -> tuple[str, int, str] | None:
    """A word right after a number ending at `end` that is meant as a unit but does not
    read (`unit_attempt`): the word, where it ends and why. A caller whose number has a
    dimension reports it rather than comparing the bare number."""
    start = _after_gap(text, end)
    found = _ATTEMPT.match(text, start)
    if found is None:
        return None
    why = unit_attempt(found.group())
    return (found.group(), found.end(), why) if why is not None else None
