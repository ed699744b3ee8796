"""`parse_unit`: a glossary's unit column as lessons write it.

Order of reading: a trailing remark is split off (`V (at 300 K)`, `dimensionless,
between 0 and 1`); then the text is a dimensionless or count word, a shape note
(`real T_q × d_k array`), a lesson-specific abstract unit (`score units`,
`squared score units`, `coordinates`), or a unit expression read by `grammar`.
"""

from __future__ import annotations

import re
from functools import lru_cache

from .dimension import Dimension
from .grammar import UnitSyntaxError, read_unit
from .product import ONE, UnitAtom, UnitProduct
from .prose import unit_attempt
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
ABSTRACT_POWERS = {"squared": 2, "square": 2, "cubed": 3, "cubic": 3}

_SPACES = str.maketrans({"\u00a0": " ", "\u2009": " ", "\u202f": " ", "\u2007": " "})
_SHAPE = re.compile(r"[\w.]+(?:\s*(?:×|\bx\b)\s*[\w.]+)+")
_HYPHEN_SHAPE = re.compile(
    r"\b([\w.]+)-(?:coordinate|element|dimensional|dim|component|entry|entries)\b"
)
_ABSTRACT = re.compile(
    r"(?:(squared|square|cubed|cubic)\s+)?([^\W\d][\w-]*(?:\s+[^\W\d][\w-]*)*?)\s+units?"
)
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
    return "".join(out), columns


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
    return text.strip(), None, len(text)


def _matching(text: str, start: int) -> int | None:
    depth = 0
    for index in range(start, len(text)):
        depth += (text[index] == "(") - (text[index] == ")")
        if depth == 0:
            return index
    return None


def singular(word: str) -> str:
    """`coordinates` -> `coordinate`, `entries` -> `entry`; short words are left alone."""
    if len(word) > 4 and word.endswith("ies"):
        return word[:-3] + "y"
    if len(word) > 3 and word.endswith("s") and not word.endswith("ss"):
        return word[:-1]
    return word


def abstract_unit(name: str, text: str, power: int = 1) -> UnitProduct:
    """A lesson's own base dimension `name`, written as `text` (`score units`)."""
    atom = UnitAtom("abstract:" + name, text, Dimension.base(name))
    return UnitProduct([(atom, power)])


def _kind(units: UnitProduct) -> str:
    if not units.dimension.is_dimensionless:
        return ABSTRACT if units.dimension.abstract else UNIT
    atoms = [atom for atom, _ in units.atoms()]
    if units.factor == 1 and all(a.dimension.is_dimensionless and a.scale == 1 for a in atoms):
        return COUNT if atoms else DIMENSIONLESS  # counts, FLOPs, tokens
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
        return _kind(units), units, None
    except UnitSyntaxError:
        found = lookup(words[0])
        if found is not None:
            return _kind(found), found, rest
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


def _abstract(core: str, text: str, remark: str | None) -> UnitSpec | UnitProblem | None:
    """`score units`, or one plain word (`logits`); a word meant as a unit that the
    vocabulary does not read (`kwh`, `Nm`, `psi`: `unit_attempt`) is a problem, never a
    made-up dimension that would hide it."""
    match = _ABSTRACT.fullmatch(core)
    if match is not None:
        power_word, name = match.groups()
        power = ABSTRACT_POWERS[power_word.lower()] if power_word else 1
        written = core[match.start(2) :]
        units = abstract_unit("_".join(name.lower().split()), written, power)
        return UnitSpec(text, ABSTRACT, units, remark=remark)
    if _WORD.fullmatch(core) and core not in AMBIGUOUS:
        if (why := unit_attempt(core)) is not None:
            return UnitProblem(text, f"not a unit of the vocabulary: {why}", 0)
        units = abstract_unit(singular(core.lower()), core)
        return UnitSpec(text, ABSTRACT, units, remark=remark)
    return None


@lru_cache(maxsize=4096)
def parse_unit(text: str) -> UnitSpec | UnitProblem:
    """Read a unit column; a `UnitProblem` (with column) when it cannot be read."""
    if len(text) > MAX_TEXT:
        return UnitProblem(text, f"unit text longer than {MAX_TEXT} characters", 0)
    clean, columns = _unescape(text)
    core, remark, remark_at = split_remark(clean)
    lead = len(clean[:remark_at]) - len(clean[:remark_at].lstrip())
    if not core:
        return UnitProblem(text, "no unit given", 0)
    lower = core.lower()
    if lower in DIMENSIONLESS_WORDS:
        return UnitSpec(text, DIMENSIONLESS, ONE, remark=remark)
    if lower in COUNT_WORDS:
        return UnitSpec(text, COUNT, read_unit(core), remark=remark)
    shaped = _shape_note(core, text, remark)
    if shaped is not None:
        return shaped
    try:
        units = read_unit(core)
    except UnitSyntaxError as error:
        abstract = _abstract(core, text, remark)
        if isinstance(abstract, UnitProblem):
            return UnitProblem(text, abstract.message, columns[lead] if lead < len(columns) else 0)
        if abstract is not None:
            return abstract
        at = lead + error.column
        column = columns[at] if at < len(columns) else len(text)
        return UnitProblem(text, error.message, column)
    return UnitSpec(text, _kind(units), units, remark=remark)
