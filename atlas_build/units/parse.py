"""`parse_unit`: a glossary's unit column as lessons write it.

Order of reading: a trailing remark is split off (`V (at 300 K)`, `dimensionless,
between 0 and 1`); then the text is a dimensionless or count word, a shape note
(`real T_q × d_k array`), or a unit expression read by `grammar` with the words of a
unit column (`nouns`: `jobs/s`, `dBm`, `value units`, `same units as x`); failing that, a
phrase of English words (`positive integer count`, `V peak`), which describes rather than
fails, unless a word in it is meant as a unit and does not read (`mw`, `feet`).
"""

from __future__ import annotations

import re
from functools import lru_cache

from .grammar import UnitSyntaxError, descriptive, read_unit
from .nouns import FUNCTION_WORDS, OUTSIDE_UNIT, counted, is_counted, is_plural, noun
from .product import ONE, UnitProduct
from .spec import ABSTRACT, COUNT, DIMENSIONLESS, UNIT, UNSPECIFIED, UnitProblem, UnitSpec
from .vocabulary import AMBIGUOUS, COUNT_WORDS, lookup

MAX_TEXT = 400

DIMENSIONLESS_WORDS = frozenset(
    "dimensionless unitless none 1 fraction fractions ratio ratios probability".split()
) | {"probabilities", "pure number"}
ELEMENT_WORDS = frozenset("real complex integer integers float boolean binary numeric".split())
CONTAINERS = frozenset(
    "array arrays vector vectors matrix matrices tensor tensors scalar scalars list lists".split()
)
COUNTING_WORDS = frozenset(
    "count counts number numbers integer integers index indices whole natural".split()
)
"""Words that make a descriptive phrase a count (`positive integer count`)."""
BINARY_PHRASES = frozenset({"zero or one", "0 or 1", "true or false", "yes or no", "flag"})

_SPACES = str.maketrans({"\u00a0": " ", "\u2009": " ", "\u202f": " ", "\u2007": " "})
_SHAPE = re.compile(r"[\w.]+(?:\s*(?:×|\bx\b)\s*[\w.]+)+")
_HYPHEN_SHAPE = re.compile(
    r"\b([\w.]+)-(?:coordinate|element|dimensional|dim|component|entry|entries)\b"
)
_UNITS_OF = re.compile(r"(?<![^\W\d_])units?(?![^\W\d_])", re.IGNORECASE)
_WORD = re.compile(r"[^\W\d_][^\W\d_-]*(?:-[^\W\d_]+)*")


def _unescape(text: str) -> tuple[str, list[int]]:
    """Drop markdown escapes (`T\\_q` -> `T_q`), keeping each character's original column."""
    out: list[str] = []
    columns: list[int] = []
    index = 0
    while index < len(text):
        char = text[index]
        if char == "\\" and index + 1 < len(text) and not text[index + 1].isalnum():
            index += 1
            char = text[index]
        out.append(char.translate(_SPACES))
        columns.append(index)
        index += 1
    clean = "".join(out)
    for found in reversed(list(_ELECTRON.finditer(clean))):  # `e⁻/s`, `µV/e⁻`, `e⁻ rms`
        start, end = found.span()
        clean = clean[:start] + "electrons" + clean[end:]
        columns[start:end] = [columns[start]] * len("electrons")
    for found in reversed(list(_WEIGHTED.finditer(clean))):  # `dB(A)` is the level dBA
        start, end = found.span()
        clean = clean[:start] + "dB" + found.group(1) + clean[end:]
        columns[start:end] = columns[start : start + 3]
    return clean, columns


_WEIGHTED = re.compile(r"(?<![^\W\d_])dB\(([ACZ])\)")
"""A frequency-weighted sound level (`dB(A)`, IEC 61672), written dBA as often."""


_ELECTRON = re.compile(r"(?<![^\W\d_])e⁻(?![⁰¹²³⁴⁵⁶⁷⁸⁹])")
"""Electrons as sensors count charge: `e⁻`, not e to a power (a count, like `electrons`)."""


def split_remark(text: str) -> tuple[str, str | None, int]:
    """(unit part, remark, where the remark starts): `V (at 300 K)` -> (`V`, `at 300 K`, 2)."""
    depth = 0
    for index, char in enumerate(text):
        if char == "(":
            if depth == 0 and index > 0 and text[index - 1].isspace():
                closing = _matching(text, index)
                if closing is not None and not text[closing + 1 :].strip():
                    return text[:index].strip(), text[index + 1 : closing].strip(), index
            depth += 1
        elif char == ")":
            depth = max(depth - 1, 0)
        elif depth == 0 and char in ",;":
            return text[:index].strip(), text[index + 1 :].strip(), index
        elif depth == 0 and char in "—–" and index > 0 and text[index - 1].isspace():
            return text[:index].strip(), text[index + 1 :].strip(), index
        elif depth == 0 and index > 0 and text[index - 1].isspace():
            if _REFERENCE.match(text, index) and text[:index].strip():
                return text[:index].strip(), text[index:].strip(), index  # `dB re 1 pW`
    return text.strip(), None, len(text)


_REFERENCE = re.compile(r"(?:re|relative to|referred to|referenced to)\s+\S", re.IGNORECASE)
"""The reference of a level, which follows its unit (`dB re 1 pW`, `dB relative to 1 mW`)."""


def _matching(text: str, start: int) -> int | None:
    depth = 0
    for index in range(start, len(text)):
        depth += (text[index] == "(") - (text[index] == ")")
        if depth == 0:
            return index
    return None


def kind_of(units: UnitProduct) -> str:
    """`unit`, `abstract`, `count` or `dimensionless`, for a unit read from a column."""
    if not units.dimension.is_dimensionless:
        return ABSTRACT if units.dimension.abstract else UNIT
    atoms = [atom for atom, _ in units.atoms()]
    if units.levels:
        return DIMENSIONLESS  # dB, dBm: a logarithm of a ratio
    if units.factor == 1 and all(a.dimension.is_dimensionless and a.scale == 1 for a in atoms):
        return COUNT if atoms else DIMENSIONLESS  # counts, FLOPs, tokens, samples
    return DIMENSIONLESS


def _element(words: list[str]) -> tuple[str, UnitProduct | None, str | None]:
    """(kind, units, remark) of the element words before a shape (`real`, `dimensionless`)."""
    if not words:
        return UNSPECIFIED, None, None
    head, rest = words[0].lower(), " ".join(words[1:]) or None
    if head in ELEMENT_WORDS:
        return UNSPECIFIED, None, rest
    if head in DIMENSIONLESS_WORDS:
        return DIMENSIONLESS, ONE, rest
    try:
        units = read_unit(" ".join(words))
        return kind_of(units), units, None
    except UnitSyntaxError:
        found = lookup(words[0])
        if found is not None:
            return kind_of(found), found, rest
    return UNSPECIFIED, None, " ".join(words)


def _shape_note(core: str, text: str, remark: str | None) -> UnitSpec | None:
    """`real T_q × d_k array`, `dimensionless d_k-coordinate vectors`, `dimensionless score`."""
    words = core.split()
    container = words[-1].lower() in CONTAINERS
    described = len(words) > 1 and words[0].lower() in ELEMENT_WORDS | DIMENSIONLESS_WORDS
    if not (container or described):
        return None
    shape: tuple[str, ...] | None = None
    body = " ".join(words[:-1]) if container else core
    match = _SHAPE.search(body) or _HYPHEN_SHAPE.search(body)
    if match is not None:
        if match.re is _SHAPE:
            shape = tuple(re.split(r"\s*(?:×|\bx\b)\s*", match.group()))
        else:
            shape = (match.group(1),)
        before, after = body[: match.start()].split(), body[match.end() :].split()
    else:
        before, after = body.split(), []
    kind, units, note = _element(before)
    notes = [part for part in (note, " ".join(after) or None, remark) if part]
    return UnitSpec(text, kind, units, shape, "; ".join(notes) or None)


_NAMED = re.compile(r"[A-Z][A-Za-z]*\([0-9A-Za-z^]{1,6}\)")
"""A name with its argument among the words of a phrase: `GF(2) polynomial`, `O(n) bits`."""


def _phrase(core: str, text: str, remark: str | None) -> UnitSpec | UnitProblem | None:
    """A column of English words that is no unit expression (`positive integer count`,
    `zero or one`, `sum of samples units`): what it describes, never a problem, unless a
    word in it is meant as a unit that does not read (`noun`: `mw`, `psi`, `feet`)."""
    words = core.split()
    if not all(_WORD.fullmatch(word) or _NAMED.fullmatch(word) for word in words):
        if (qualified := _qualified(words, text, remark)) is not None:
            return qualified
        if not _UNITS_OF.search(core):
            return None
        # `loss units per parameter unit² (Adam+L2)`: units described in words, with marks
        return _described(text, core, re.findall(r"[^\W\d_]+", core.lower()), remark)
    for word in words:
        read = noun(word) if lookup(word) is None or word in AMBIGUOUS else None
        if isinstance(read, str):
            found = re.search(rf"(?<!\w){re.escape(word)}", core)
            return UnitProblem(text, read, found.start() if found else 0)
    for cut in range(len(words) - 1, 0, -1):  # `V peak`, `mV pp`: a unit, then words
        try:
            head = read_unit(" ".join(words[:cut]))
        except UnitSyntaxError:
            continue
        note = "; ".join(part for part in (" ".join(words[cut:]), remark) if part)
        return UnitSpec(text, kind_of(head), head, remark=note)
    lower = [word.lower() for word in words]
    note = "; ".join(part for part in (core, remark) if part)
    if " ".join(lower) in BINARY_PHRASES:
        return UnitSpec(text, DIMENSIONLESS, ONE, remark=note)
    if COUNTING_WORDS & set(lower):
        return UnitSpec(text, COUNT, ONE, remark=note)
    return _described(text, core, lower, remark)


def _qualified(words: list[str], text: str, remark: str | None) -> UnitSpec | None:
    """`m³/s rms`, `V/√Hz peak`: a unit expression, then one or two plain words that say
    which value of it (as `V peak` is read among plain words)."""
    for cut in (len(words) - 1, len(words) - 2):
        tail = words[cut:]
        plain = (_WORD.fullmatch(w) and w.lower() not in FUNCTION_WORDS for w in tail)
        if cut < 1 or not all(plain) or any(lookup(w) is not None for w in tail):
            continue
        if any(isinstance(noun(w), str) for w in tail):
            return None  # a unit misspelt among the words (`psi`): the error says so
        try:
            head = read_unit(" ".join(words[:cut]))
        except UnitSyntaxError:
            continue
        note = "; ".join(part for part in (" ".join(tail), remark) if part)
        return UnitSpec(text, kind_of(head), head, remark=note)
    return None


def _described(text: str, core: str, lower: list[str], remark: str | None) -> UnitSpec:
    """A unit described in words, named by its words other than function words and
    `unit(s)`: `value units` and `value` describe one thing."""
    named = [word for word in lower if word not in FUNCTION_WORDS | {"unit", "units"}]
    return UnitSpec(text, ABSTRACT, descriptive("_".join(named or lower), core), remark=remark)


_OVER = re.compile(r"\s*/\s*|\s+per\s+")


def _compound(core: str) -> UnitProduct | None:
    """A rate of things named in several words: `drive writes/day`, `page faults per
    second`. Each side of `/` (or `per`) reads as a unit, or is plain nouns (no unit, no
    `unit`, no English function word), one counted thing; else None (`events per unit
    time` stays a phrase)."""
    parts = _OVER.split(core)
    if len(parts) < 2:
        return None
    result: UnitProduct | None = None
    for part in parts:
        try:
            read = read_unit(part, nouns=noun)
        except UnitSyntaxError:
            words = part.split()
            if not words or not all(_WORD.fullmatch(w) and _plain_noun(w) for w in words):
                return None
            read = counted(part)
        result = read if result is None else result / read
    return result


def _plain_noun(word: str) -> bool:
    lower = word.lower()
    return (
        lookup(word) is None
        and lower not in FUNCTION_WORDS | {"unit", "units"}
        and isinstance(noun(word), UnitProduct)
    )


def _read(core: str) -> UnitProduct:
    """The column as a unit expression; a lone singular noun (`record`, `function`) is a
    descriptive unit, a plural one (`samples`) or one in a compound (`/instruction`) a
    counted thing."""
    units = read_unit(core, nouns=noun)
    if is_counted(units) and not is_plural(core):
        name = core.lower()
        return descriptive(name, core)
    return units


_OR = re.compile(r"\s+or\s+")
"""Alternatives (`W/m² or detector counts`): a unit the lesson leaves open, descriptive."""


def _either(text: str, core: str, alternatives: list[str], remark: str | None) -> UnitSpec:
    """`kW or MW`: units of one dimension, read as the first (a number converts from the unit
    it is written in); `W/m² or detector counts`: a unit the lesson leaves open."""
    read: list[UnitProduct] = []
    for alternative in alternatives:
        try:
            read.append(read_unit(alternative))
        except UnitSyntaxError:
            break
    if len(read) == len(alternatives) and len({unit.dimension for unit in read}) == 1:
        note = "; ".join(part for part in (core, remark) if part)
        return UnitSpec(text, kind_of(read[0]), read[0], remark=note)
    name = "_".join(re.findall(r"[^\W\d_]+", core.lower())) or "unit"
    return UnitSpec(text, ABSTRACT, descriptive(name, core), remark=remark)


_CONTEXT = re.compile(r"^(\S+)\s+((?:in|for|at|when|inside|within)\s+\S.*)$")


def _in_context(core: str) -> tuple[UnitProduct, str] | None:
    """`mm in A_t`: a unit, then where it applies (a preposition and words after it, which
    are no unit: this `in` is no inch). None when the head is no unit."""
    found = _CONTEXT.match(core)
    if found is None:
        return None
    try:
        return read_unit(found.group(1)), found.group(2)
    except UnitSyntaxError:
        return None


_INCH = re.compile(r"(?:[/·*]\s*in\b(?![ \t]+\w)|^in\s*[/·*²³^])")
"""`in` as a unit in a compound (`ps/in`, `in/ns`, `in²`): the inch, never the preposition."""

_COUNT_OF = re.compile(r"([A-Za-z]+)[ \t]+of[ \t]+\S")

_OF_WORDS = re.compile(r"(%|[A-Za-zµμΩ°]{1,3}|\S*[^\w\s]\S*)[ \t]+(?:of|by)[ \t]+(?=[^\W\d])")
"""A unit symbol, then what it is of (`% of initial capacity`, `kg of CO₂`, `% by volume`);
a word unit before `of` stays a phrase (`degrees of freedom` is a count)."""

_LABELLED_RATE = re.compile(
    r"(\S+)\s+(?:of\s+)?([^\W\d][\w₀-₉]*)\s+per\s+(\S+)(?:\s+(?:of\s+)?([^\W\d][\w₀-₉]*))?"
)
"""`kg air per kg fuel`, `kg fuel per kWh`: a unit and the thing it counts, per another unit
and what that counts. The words say what is counted; the units are the unit (kg fuel per
kWh had read as kg, the rest a remark)."""


def _labelled(rate: re.Match[str]) -> UnitProduct | None:
    top, label, bottom, under = rate.groups()
    for word in (label, under):
        if word is not None and _reads(word):
            return None  # `m per s`-like words are units, not labels: the grammar reads them
    try:
        return read_unit(f"{top}/({bottom})")
    except UnitSyntaxError:
        return None


def _reads(word: str) -> bool:
    try:
        read_unit(word)
    except UnitSyntaxError:
        return False
    return True


_WIDTH = re.compile(r"(\d+-(?:bit|byte))[ \t]+(?=[^\W\d])")
"""A width before a counted noun (`32-bit words`, `64-byte lines`): it says what is counted."""

_SUBSTANCE = re.compile(
    r"(?<=\S)\s+(?:of\s+)?(?:dry\s+air|moist\s+air|humid\s+air|water\s+vapou?r|water|vapou?r|steam"
    r"|air|H2O|H₂O|CO2|CO₂)(?=\s*(?:/|$|\))|\s+per\s)"
)
"""A substance after a unit of HVAC and chemistry (`kg water/kg dry air`, `kJ/kg dry air`):
it says what is counted, and the unit is the unit."""


_SYMBOLIC_POWER = re.compile(r"\^\s*[({]?\s*[A-Za-zα-ωΑ-Ω]|[ⁿⁱˣʸᵏᵐ]")


def parse_unit(text: str) -> UnitSpec | UnitProblem:
    """Read a unit column; a `UnitProblem` (with column) when it cannot be read."""
    return _parse(text, True)


def reads_as_unit(text: str) -> bool:
    """Whether `text` is a unit as written, without the reading of English phrases (`V`,
    `jobs/s`, `same units as x`; not `typically small`): one of the units of an entry
    that lists several symbols (`C, RTT` with `bits/s, seconds`)."""
    read = _parse(text, False)
    if not isinstance(read, UnitSpec) or read.remark is not None:
        return False
    return not (read.kind == ABSTRACT and len(text.split()) == 1)  # `s, approximate`


@lru_cache(maxsize=4096)
def _parse(text: str, phrases: bool) -> UnitSpec | UnitProblem:
    if len(text) > MAX_TEXT:
        return UnitProblem(text, f"unit text longer than {MAX_TEXT} characters", 0)
    clean, columns = _unescape(text)
    core, remark, remark_at = split_remark(clean)
    if (rate := _LABELLED_RATE.fullmatch(core)) is not None and (read := _labelled(rate)):
        return UnitSpec(text, kind_of(read), read, remark="; ".join(p for p in (core, remark) if p))
    if (plain := _SUBSTANCE.sub("", core)) != core and plain.strip():
        try:  # `kg water/kg dry air`: the substances name what each unit counts
            read = read_unit(plain.strip())
        except UnitSyntaxError:
            pass
        else:
            return UnitSpec(
                text, kind_of(read), read, remark="; ".join(p for p in (core, remark) if p)
            )
    if (of := _OF_WORDS.match(core)) is not None:  # `% of initial capacity`
        try:
            read = read_unit(of.group(1))
        except UnitSyntaxError:
            pass
        else:
            note = "; ".join(p for p in (core[of.end(1) :].strip(), remark) if p)
            return UnitSpec(text, kind_of(read), read, remark=note)
    if (count := _COUNT_OF.match(core)) and count.group(1).lower() in COUNT_WORDS:
        # `counts of 2⁻ⁿ`: a count, and what one of it is worth, in any notation
        note = "; ".join(p for p in (core[count.end(1) :].strip(), remark) if p)
        return UnitSpec(text, COUNT, read_unit(count.group(1)), remark=note)
    if (width := _WIDTH.match(core)) is not None:  # `32-bit words`: a count of words
        counted = _parse(core[width.end() :], phrases)
        if isinstance(counted, UnitSpec) and counted.units is not None:
            note = "; ".join(p for p in (width.group(1), counted.remark, remark) if p)
            return UnitSpec(text, counted.kind, counted.units, counted.shape, note)
    lead = len(clean[:remark_at]) - len(clean[:remark_at].lstrip())
    if not core:
        return UnitProblem(text, "no unit given", 0)
    lower = core.lower()
    if lower in DIMENSIONLESS_WORDS or lower in BINARY_PHRASES:
        return UnitSpec(text, DIMENSIONLESS, ONE, remark=remark)
    if lower in COUNT_WORDS:
        return UnitSpec(text, COUNT, read_unit(core), remark=remark)
    if len(alternatives := _OR.split(core)) > 1:
        return _either(text, core, alternatives, remark)
    shaped = _shape_note(core, text, remark)
    if shaped is not None:
        return shaped
    try:
        units = _read(core)
    except UnitSyntaxError as error:
        if _SYMBOLIC_POWER.search(core):  # `h·(MA/cm²)^n`: a unit that depends on n
            name = "_".join(re.findall(r"\w+", core.lower())) or "unit"
            return UnitSpec(text, ABSTRACT, descriptive(name, core), remark=remark)
        compound = _compound(core)
        if compound is not None:
            return UnitSpec(text, kind_of(compound), compound, remark=remark)
        placed = _in_context(core)
        if placed is not None:  # `mm in A_t; m in the torque relation`: the first
            units, context = placed
            note = "; ".join(part for part in (context, remark) if part)
            return UnitSpec(text, kind_of(units), units, remark=note)
        phrase = _phrase(core, text, remark) if phrases else None
        if isinstance(phrase, UnitProblem):
            at = lead + phrase.column
            return UnitProblem(text, phrase.message, columns[at] if at < len(columns) else 0)
        if phrase is not None:
            return phrase
        if remark is not None and remark.strip().lower() in DIMENSIONLESS_WORDS:
            # `misses per L2 access (dimensionless)`: the remark says what the phrase is
            return UnitSpec(text, DIMENSIONLESS, ONE, remark=core)
        at = lead + error.column
        column = columns[at] if at < len(columns) else len(text)
        if _INCH.search(core):  # `ps/in`: the inch, outside the vocabulary (an A426)
            return UnitProblem(
                text, f"not a unit of the vocabulary: 'in' is {OUTSIDE_UNIT}", column
            )
        return UnitProblem(text, error.message, column)
    return UnitSpec(text, kind_of(units), units, remark=remark)
