"""The unit words atlas-build accepts, with the prefixes each may take.

A closed vocabulary on purpose: a word is a unit only when it is listed here
(directly, or as an allowed prefix plus a listed symbol or name). The table is
what `docs/units.md` documents; `lookup` is the only way a word becomes a unit.
"""

from __future__ import annotations

from functools import lru_cache

from .product import UnitAtom, UnitProduct
from .registry import pint_atom

SI = "si"
METRIC = "metric"  # SI plus centi and deci (lengths and volumes)
LARGE = "large"  # k M G T P E only (work counts)
DATA = "data"  # k M G T P E and the binary Ki Mi Gi Ti Pi Ei
SMALL = "small"  # f p n µ m only: `MT` is no megatesla (MT/s is a transfer rate)
NONE = "none"

SI_SYMBOLS = {
    "f": "femto",
    "p": "pico",
    "n": "nano",
    "µ": "micro",
    "μ": "micro",
    "u": "micro",
    "m": "milli",
    "k": "kilo",
    "M": "mega",
    "G": "giga",
    "T": "tera",
    "P": "peta",
    "E": "exa",
}
LARGE_SYMBOLS = {key: SI_SYMBOLS[key] for key in "kMGTPE"}
SMALL_SYMBOLS = {key: SI_SYMBOLS[key] for key in "fpnµμum"}
BINARY_SYMBOLS = {
    "Ki": "kibi",
    "Mi": "mebi",
    "Gi": "gibi",
    "Ti": "tebi",
    "Pi": "pebi",
    "Ei": "exbi",
}
PREFIX_SYMBOLS: dict[str, dict[str, str]] = {
    SI: SI_SYMBOLS,
    METRIC: {**SI_SYMBOLS, "c": "centi", "d": "deci"},
    LARGE: LARGE_SYMBOLS,
    DATA: {**LARGE_SYMBOLS, **BINARY_SYMBOLS},
    SMALL: SMALL_SYMBOLS,
    NONE: {},
}
PREFIX_NAMES = {
    SI: "atto femto pico nano micro milli kilo mega giga tera peta exa".split(),
    METRIC: "atto femto pico nano micro milli centi deci kilo mega giga tera peta exa".split(),
    LARGE: "kilo mega giga tera peta exa".split(),
    DATA: "kilo mega giga tera peta exa kibi mebi gibi tebi pebi exbi".split(),
    SMALL: "femto pico nano micro milli".split(),
    NONE: [],
}

SYMBOLS: dict[str, tuple[str, str]] = {
    "m": ("meter", METRIC),
    "g": ("gram", SI),
    "s": ("second", SI),
    "A": ("ampere", SI),
    "Ah": ("ampere_hour", SI),  # mAh
    "K": ("kelvin", SI),
    "mol": ("mole", SI),
    "cd": ("candela", NONE),
    "V": ("volt", SI),
    "J": ("joule", SI),
    "W": ("watt", SI),
    "Wh": ("watt_hour", SI),  # kWh, mWh: a watt-hour, prefixed as one unit (kWh is kW·h)
    "VA": ("volt_ampere", SI),  # kVA, MVA: apparent power, prefixed as one unit
    "mM": ("millimolar", NONE),  # concentrations; a bare `M` is too often a million
    "µM": ("micromolar", NONE),
    "uM": ("micromolar", NONE),
    "nM": ("nanomolar", NONE),
    "pM": ("picomolar", NONE),
    "\u03a9": ("ohm", SI),  # Ω, GREEK CAPITAL LETTER OMEGA
    "\u2126": ("ohm", SI),  # Ω, OHM SIGN
    "kohm": ("kiloohm", NONE),  # the ASCII spellings of kΩ and MΩ; `mohm` is ambiguous
    "kOhm": ("kiloohm", NONE),
    "Mohm": ("megaohm", NONE),
    "MOhm": ("megaohm", NONE),
    "S": ("siemens", SI),
    "F": ("farad", SI),
    "H": ("henry", SI),
    "C": ("coulomb", SI),
    "T": ("tesla", SMALL),  # mT, µT; `MT`, `GT` are transfers in MT/s (RATES), never teslas
    "Wb": ("weber", SI),
    "Hz": ("hertz", SI),
    "N": ("newton", SI),
    "Pa": ("pascal", SI),
    "hPa": ("hectopascal", NONE),  # meteorology's pressure; no other unit takes hecto- (h: hour)
    "eV": ("electron_volt", SI),
    "L": ("liter", METRIC),
    "B": ("byte", DATA),
    "bit": ("bit", DATA),
    "bits": ("bit", DATA),  # kbits, Mbits/s
    "FLOP": ("flop", LARGE),
    "FLOPs": ("flop", LARGE),
    "min": ("minute", NONE),
    "h": ("hour", NONE),
    "rad": ("radian", SI),
    "sr": ("steradian", NONE),
    "°": ("degree", NONE),
    "deg": ("degree", NONE),
    "°C": ("degree_Celsius", NONE),
    "℃": ("degree_Celsius", NONE),
    "degC": ("degree_Celsius", NONE),
    "°F": ("degree_Fahrenheit", NONE),
    "\u00c5": ("angstrom", NONE),  # Å, LATIN CAPITAL LETTER A WITH RING ABOVE
    "\u212b": ("angstrom", NONE),  # Å, ANGSTROM SIGN
    "bar": ("bar", SI),
    "atm": ("atmosphere", NONE),
    "%": ("percent", NONE),
    "ppm": ("ppm", NONE),
    "lm": ("lumen", NONE),
    "lx": ("lux", NONE),
    "cal": ("calorie", LARGE),  # the thermochemical calorie, 4.184 J; kcal is 4184 J
    "BTU": ("british_thermal_unit", NONE),  # pint's ISO value, 1055.056 J
    "Btu": ("british_thermal_unit", NONE),
}
"""Unit symbols, case-sensitive, each with the prefix family it accepts."""

NAMES: dict[str, tuple[str, str]] = {
    "meter": ("meter", METRIC),
    "metre": ("meter", METRIC),
    "gram": ("gram", SI),
    "second": ("second", SI),
    "sec": ("second", NONE),
    "msec": ("millisecond", NONE),  # the abbreviations datasheets write: 13.75 nsec
    "usec": ("microsecond", NONE),
    "µsec": ("microsecond", NONE),
    "μsec": ("microsecond", NONE),
    "nsec": ("nanosecond", NONE),
    "psec": ("picosecond", NONE),
    "ampere": ("ampere", SI),
    "amp": ("ampere", SI),
    "ampere-hour": ("ampere_hour", SI),
    "amp-hour": ("ampere_hour", SI),
    "kelvin": ("kelvin", SI),
    "mole": ("mole", SI),
    "volt": ("volt", SI),
    "joule": ("joule", SI),
    "calorie": ("calorie", LARGE),
    "watt": ("watt", SI),
    "watt-hour": ("watt_hour", SI),
    "volt-ampere": ("volt_ampere", SI),
    "ohm": ("ohm", SI),
    "megohm": ("megaohm", NONE),
    "siemens": ("siemens", SI),
    "farad": ("farad", SI),
    "henry": ("henry", SI),
    "coulomb": ("coulomb", SI),
    "tesla": ("tesla", SI),
    "weber": ("weber", SI),
    "hertz": ("hertz", SI),
    "newton": ("newton", SI),
    "pascal": ("pascal", SI),
    "electronvolt": ("electron_volt", SI),
    "liter": ("liter", METRIC),
    "litre": ("liter", METRIC),
    "byte": ("byte", DATA),
    "bit": ("bit", DATA),
    "flop": ("flop", LARGE),
    "token": ("token", NONE),
    "minute": ("minute", NONE),
    "hour": ("hour", NONE),
    "hr": ("hour", NONE),
    "day": ("day", NONE),
    "percent": ("percent", NONE),
    "radian": ("radian", SI),
}
"""Unit names, lower case; each also in the plural (below) and with its family's prefix names."""

GLOSSARY_NAMES: dict[str, tuple[str, str]] = {
    "degree": ("degree", NONE),  # an angle; prose keeps "4 degrees of freedom" a count
    "year": ("year", NONE),  # failures/year: a count noun here would hide a time
    "yr": ("year", NONE),
    "week": ("week", NONE),
    "month": ("month", NONE),
    "micron": ("micrometer", NONE),
    "angstrom": ("angstrom", NONE),
    "baud": ("symbol_rate", LARGE),  # symbols per second (Gbaud), counted like MT/s
    "Bd": ("symbol_rate", LARGE),
    "rpm": ("revolutions_per_minute", NONE),
    "RPM": ("revolutions_per_minute", NONE),
}
"""Units read only in a symbol table's unit column (`nouns.glossary_word`), never after a
number in prose: there an unknown word is a counted noun (`samples/s`), so a physical unit
it would otherwise swallow must be named. Symbols (`Bd`) are case-sensitive; names take
plurals; `baud` and `Bd` take the large prefixes (`Gbaud`, `GBd`, `megabaud`)."""

INVARIANT_PLURALS = {"siemens", "hertz", "percent"}
PLURALS = {"henry": "henries"}

COUNT_WORDS = frozenset(
    """count counts element elements item items square squares sq coordinate coordinates
    product products nat nats""".split()
)
"""Counted things: dimensionless atoms that cancel from printed units (`Ω/square`). SI gives
counting quantities dimension one; so are FLOPs and tokens (registry.ROOTS), while bits and
bytes keep a dimension of their own, so bytes and FLOPs are never confused."""

PER_SECOND = {"FLOPS": ("flop", LARGE), "bps": ("bit", DATA)}
"""Rates written as one word: `TFLOPS` is TFLOP/s, `Gbps` is Gbit/s (`FLOPs` is a count)."""

RATES: dict[str, tuple[str, str]] = {"b": ("bit", LARGE), "T": ("transfer", LARGE)}
"""Symbols that are units only over a second (`rate_numerator`): `kb/s`, `Mb/s` are bit
rates (a lower-case b is a bit in a rate, as in `Mbps`; alone `b` and `Mb` are ambiguous),
`MT/s`, `GT/s` rates of transfers (DRAM, PCIe), counted things of dimension one like
tokens. `T` needs a prefix: `T/s` stays teslas per second."""

AMBIGUOUS = {
    "KB": "ambiguous: write kB (1000 B) or KiB (1024 B)",
    "Kb": "ambiguous: write kbit (1000 bit) or Kibit (1024 bit)",
    "dB": "logarithmic units (dB) are not supported",
    "dBm": "logarithmic units (dBm) are not supported",
    "b": "ambiguous: write bit or B (byte)",
    "mohm": "ambiguous: write mΩ (milliohm) or MΩ (megaohm)",
    "mOhm": "ambiguous: write mΩ (milliohm) or MΩ (megaohm)",
    "Cal": "ambiguous: a food Calorie is a kcal (4184 J); write kcal or cal (4.184 J)",
    "Calorie": "ambiguous: a food Calorie is a kcal (4184 J); write kcal or cal (4.184 J)",
    "Calories": "ambiguous: a food Calorie is a kcal (4184 J); write kcal or cal (4.184 J)",
}
AMBIGUOUS |= {
    prefix + "b": f"ambiguous: write {prefix}bit ({name}bit) or {prefix}B ({name}byte); "
    f"{prefix}b/s reads as {prefix}bit/s"
    for prefix, name in LARGE_SYMBOLS.items()
}
AMBIGUOUS |= {
    prefix + "T": f"ambiguous: {prefix}T/s is a rate of {name}transfers, {prefix}T alone "
    f"is not read (transfers, tonnes or {name}teslas?): write {prefix}T/s, or a name"
    for prefix, name in LARGE_SYMBOLS.items()
}


def _plurals(name: str) -> list[str]:
    if name in INVARIANT_PLURALS:
        return [name]
    return [name, PLURALS.get(name, name + "s")]


_NAME_FORMS: dict[str, tuple[str, str]] = {
    form: entry for name, entry in NAMES.items() for form in _plurals(name)
}


def _prefixed_symbol(word: str) -> tuple[str, str, str] | None:
    """`KiB` -> (`kibi`, `byte`, `B`) when `Ki` is a prefix that `B` accepts."""
    for size in (2, 1):
        prefix, rest = word[:size], word[size:]
        if rest in SYMBOLS:
            pint_name, family = SYMBOLS[rest]
            full = PREFIX_SYMBOLS[family].get(prefix)
            if full is not None:
                return full, pint_name, rest
        if rest in PER_SECOND:
            pint_name, family = PER_SECOND[rest]
            full = PREFIX_SYMBOLS[family].get(prefix)
            if full is not None:
                return full, pint_name, rest
    return None


def rate_numerator(word: str) -> UnitProduct | None:
    """The unit of `word` as the numerator of a rate per second (`RATES`: the `kb` of
    `kb/s`, the `MT` of `MT/s`, a bare `b`), or None. The grammar asks only before `/s`."""
    if word == "b":
        return UnitProduct.of(pint_atom("bit", word))
    prefix, rest = word[:1], word[1:]
    if rest not in RATES:
        return None
    pint_name, family = RATES[rest]
    full = PREFIX_SYMBOLS[family].get(prefix)
    return UnitProduct.of(pint_atom(full + pint_name, word)) if full is not None else None


def _prefixed_name(word: str) -> tuple[str, str] | None:
    lower = word.lower()
    if lower != word and word[1:].lower() != word[1:]:
        return None
    for form, (pint_name, family) in _NAME_FORMS.items():
        if lower.endswith(form) and lower != form:
            prefix = lower[: -len(form)]
            if prefix in PREFIX_NAMES[family]:
                return prefix, pint_name
    return None


def _per_second(unit: UnitAtom) -> UnitProduct:
    return UnitProduct([(unit, 1), (pint_atom("second", "s"), -1)])


@lru_cache(maxsize=2048)
def lookup(word: str) -> UnitProduct | None:
    """The unit `word` names, or None when it is not in the vocabulary."""
    if word in PER_SECOND:
        pint_name, _ = PER_SECOND[word]
        return _per_second(pint_atom(pint_name, "FLOP" if pint_name == "flop" else "bit"))
    if word in SYMBOLS:
        return UnitProduct.of(pint_atom(SYMBOLS[word][0], word))
    lower = word.lower()
    if lower in COUNT_WORDS:
        return UnitProduct.of(pint_atom("count", word))
    if lower in _NAME_FORMS and (lower == word or word[1:] == lower[1:]):
        return UnitProduct.of(pint_atom(_NAME_FORMS[lower][0], word))
    symbol = _prefixed_symbol(word)
    if symbol is not None:
        prefix, pint_name, rest = symbol
        if rest in PER_SECOND:
            base = "FLOP" if pint_name == "flop" else "bit"
            return _per_second(pint_atom(prefix + pint_name, word[: -len(rest)] + base))
        return UnitProduct.of(pint_atom(prefix + pint_name, word))
    name = _prefixed_name(word)
    if name is not None:
        return UnitProduct.of(pint_atom(name[0] + name[1], word))
    return None
