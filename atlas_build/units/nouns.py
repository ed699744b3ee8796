"""Words of a symbol table's unit column that the vocabulary does not read.

After a number in prose, a word is a unit only when the vocabulary reads it (`5 layers` is
no quantity). A unit column is written differently: it names what a quantity is measured
in, and real tables use

- counted nouns: `samples`, `jobs/s`, `cycles/instruction`, `defects/cm²`, `GPU-days`. A
  count is a number (SI gives counting quantities dimension one), so each is a
  dimensionless atom that keeps its noun for messages (`requests/s`) and cancels only
  with itself;
- decibel levels: `dB`, `dBm`, `dBi`, `dB/km`: a logarithm of a ratio, dimensionless;
- descriptive units, the lesson's own names for a unit it leaves open: `value units`,
  `units of f`, `same units as x`, or one singular word (`record`, `function`). They are
  abstract bases (`dimension.Dimension.descriptive`): relations agree through them, but a
  mismatch that involves them is not certain (`certainty`);
- a few units only a table writes (`vocabulary.GLOSSARY_NAMES`: `degrees`, `years`), and
  rates named `<things> per second` (`IOPS`, `QPS`): 1/s.

A word meant as a unit that does not read (`mw`, `Nm`, `psi`, `feet`) is still a problem:
as a counted noun it would hide the mistake.
"""

from __future__ import annotations

import re
from functools import lru_cache

from .dimension import DIMENSIONLESS, Dimension
from .product import UnitAtom, UnitProduct
from .prose import FOREIGN, unit_attempt
from .registry import pint_atom
from .vocabulary import AMBIGUOUS, GLOSSARY_NAMES, PREFIX_NAMES, PREFIX_SYMBOLS

LEVEL = re.compile(r"dB[A-Za-z]{0,3}|decibels?")
"""Logarithmic levels: dB, dBm, dBi, dBc, dBW, dBFS, and the word."""

FUNCTION_WORDS = frozenset(
    "the a an of or and as in to on for at by with from is are if when than not".split()
)
"""English words that are never a unit or a counted thing: a column holding them is a
phrase, read as a whole (`parse.phrase`)."""

OUTSIDE = frozenset(
    """inch inches foot feet mile miles yard yards pound pounds ounce ounces gallon gallons
    acre acres knot knots ton tons tonne tonnes gauss oersted dyne dynes erg ergs poise
    celsius fahrenheit rankine dalton daltons hectare hectares parsec parsecs lightyear
    lightyears becquerel becquerels sievert sieverts lumen lumens candela candelas kelvins
    century centuries fortnight fortnights furlong furlongs fathom fathoms
    league leagues""".split()
)
"""Physical units outside the vocabulary, by name: a problem, never a counted noun."""

OUTSIDE_UNIT = "a unit outside it"


def outside(message: str) -> bool:
    """Whether a unit problem is a real unit of another system the vocabulary does not hold
    (`tons`, `psi`), not a unit written wrong: the lesson is right, the unit is not read."""
    return OUTSIDE_UNIT in message or FOREIGN in message


POWER_WORDS = {"squared": 2, "square": 2, "cubed": 3, "cubic": 3}

PER_SECOND = re.compile(r"[A-Z]{1,5}PS")
"""Rates named as `<things> per second` (IOPS, QPS, TPS, MIPS): a count per second. FLOPS
and bps are units of the vocabulary; `fps` is left alone (feet or frames?)."""


def singular(word: str) -> str:
    """`coordinates` -> `coordinate`, `entries` -> `entry`; short words are left alone."""
    if len(word) > 4 and word.endswith("ies"):
        return word[:-3] + "y"
    if len(word) > 3 and word.endswith("s") and not word.endswith("ss"):
        return word[:-1]
    return word


def is_plural(word: str) -> bool:
    return singular(word) != word


def level(word: str) -> UnitProduct:
    """A decibel level: dimensionless, its own atom (`dBm` cancels only with `dBm`)."""
    return UnitProduct.of(UnitAtom("level:" + word, word, DIMENSIONLESS))


def rate(word: str) -> UnitProduct:
    """`IOPS`: counted things per second, one atom of dimension 1/s that keeps its name."""
    return UnitProduct.of(UnitAtom("rate:" + word, word, Dimension({"[time]": -1})))


SAME_NOUN = {"decade": "dec"}
"""Counted nouns spelled two ways: `mV/decade` is the `mV/dec` of a subthreshold swing (a
decade of current; a unit column means no ten years)."""


def counted(word: str) -> UnitProduct:
    """A counted noun (`jobs`): dimensionless, keyed by its singular so `job` cancels it."""
    key = singular(word.lower())
    return UnitProduct.of(UnitAtom("noun:" + SAME_NOUN.get(key, key), word, DIMENSIONLESS))


def is_counted(units: UnitProduct) -> bool:
    """Whether `units` is one counted noun to the first power (`jobs`, `record`)."""
    atoms = list(units.atoms())
    return len(atoms) == 1 and atoms[0][1] == 1 and atoms[0][0].key.startswith("noun:")


def _forms(written: str) -> frozenset[str]:
    if not written.islower():
        return frozenset({written})  # a symbol: `Bd`
    plural = written if written.endswith("s") or written == "rpm" else written + "s"
    return frozenset({written, plural, written.capitalize(), plural.capitalize()})


@lru_cache(maxsize=1024)
def glossary_name(word: str) -> UnitProduct | None:
    """A unit of `vocabulary.GLOSSARY_NAMES` (`degrees`, `Gbaud`, `megabaud`), or None."""
    for written, (pint_name, family) in GLOSSARY_NAMES.items():
        forms = _forms(written)
        if word in forms:
            return UnitProduct.of(pint_atom(pint_name, word))
        for prefix, full in PREFIX_SYMBOLS[family].items():
            if word.startswith(prefix) and word[len(prefix) :] in forms:
                return UnitProduct.of(pint_atom(full + pint_name, word))
        for full in PREFIX_NAMES[family]:
            if word.lower().startswith(full) and word.lower()[len(full) :] in forms:
                return UnitProduct.of(pint_atom(full + pint_name, word))
    return None


def noun(word: str) -> UnitProduct | str | None:
    """A word of a unit column the vocabulary does not read: a level, a table-only unit or
    a counted noun; a message when it is meant as a unit but does not read; None for an
    English function word (`of`, `or`), which makes the column a phrase."""
    if LEVEL.fullmatch(word):
        return level(word)
    if word in AMBIGUOUS:
        return AMBIGUOUS[word]  # `b`, `Mb`, `KB`, `Cal`: which unit is meant cannot be read
    found = glossary_name(word)
    if found is not None:
        return found
    if PER_SECOND.fullmatch(word):
        return rate(word)
    lower = word.lower()
    if lower in FUNCTION_WORDS or lower in POWER_WORDS or lower in ("unit", "units"):
        return None
    if lower in OUTSIDE:
        return f"not a unit of the vocabulary: {word!r} is {OUTSIDE_UNIT} (docs/units.md)"
    why = unit_attempt(word)
    if why is not None:
        return f"not a unit of the vocabulary: {why}"
    return counted(word)
