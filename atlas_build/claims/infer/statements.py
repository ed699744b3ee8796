"""What a lesson's prose states about its symbols: `μ = 125 requests/s`, `ρ = 100/125 =
0.8`, `θJC = 0.5 K/W`, `c\\_p = 4180 J/(kg·K)`.

A statement names a glossary symbol in any spelling real prose uses (plain, flattened
subscripts, Unicode subscripts, escaped underscores) and gives it a number: the number
after the relation sign, or the result of the working that follows it. The number is
kept as written (its digits set the precision it is compared to) with its value in the
unit the glossary gives the symbol, so relations are evaluated in the lesson's own units.
Only names that stand for exactly one glossary symbol bind: a statement is certain or
it is not read.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field, replace

import sympy

from atlas_build.claims.coverage.dimensions import lesson_units
from atlas_build.claims.infer import instances
from atlas_build.claims.prose import numbers
from atlas_build.lesson import names as naming
from atlas_build.lesson.model import Lesson
from atlas_build.lesson.symbols import name_of
from atlas_build.units import UnitError, UnitSpec, convert, units_of
from atlas_build.units.nouns import glossary_name

_CHANGES = (  # `W rises to 8.96 × 10¹¹ FLOP`: the symbol's new value, a statement of it
    r"(?:rises|falls|grows|drops|increases|decreases|climbs|shrinks|jumps|settles) to",
    r"becomes",
)
_TOKEN = re.compile(
    r"(?<![\w\\/×·*^+\-−.])"
    r"((?:[A-Za-zΑ-Ωα-ωϑϕϵµΔ∆][\w′'ᵢ-ᵥₐ-ₜ₀-₉⁺⁻]*(?:\\?_\{?[\w,.+\-]+\}?)?)|\$[^$]{1,40}\$)"
    r"[ \t\u00a0\u202f]*(=|≈|≃|∼|~|" + "|".join(_CHANGES) + r")[ \t\u00a0\u202f]*"
)
_OF = re.compile(r"[ \t\u00a0\u202f]+of\b")
_NUMBER_BEFORE = re.compile(r"\d[ \t\u00a0\u202f]*$")  # `5 W rises to 7 W`: W is the unit
_FUNCTION_BEFORE = re.compile(r"(?:sin|cos|tan|log|ln|exp|lg|sqrt|√|\\[a-z]+)[ \t\u00a0]*\(?$")
_OPERATOR_BEFORE = re.compile(r"(?:[×·*/^+\-−÷]|[ \t\u00a0]x)[ \t\u00a0]*$")  # ` x `: times
_POWERED = re.compile(r"[⁰¹²³⁴⁵⁶⁷⁸⁹]|\^(?!\{?[*′'])")
_RAISED = re.compile(r"\^|[⁰¹²³⁴⁵⁶⁷⁸⁹⁺⁻ᵃ-ᶻᴬ-ᵂⁱⁿ]")
_SERIES = re.compile(  # `= 3.7, 6.2, 11.2 and 21.2 Ω`: numbers listed up to an `and`
    r"(?:[ \t\u00a0]*,[ \t\u00a0]*[−-]?\d[\d.,]*)+,?[ \t\u00a0]+(?:and|or)[ \t\u00a0]+[−-]?\d"
)
_GLUED = re.compile(r"[^\W\d_]|\\[A-Za-z]")  # a name right after a number: `2v_sat`
_MORE = re.compile(  # `0.35/f_c`, `0.26 x 9.1`: still working
    r"[ \t\u00a0]*[×·*/^+\-−÷]\s*[\w(√π\\]|[ \t\u00a0]+x[ \t\u00a0]+[\d(√π]|x\("
)
_LATEX_WRAPPED = re.compile(r"^\$(.*?)(?:\\approx|=|\\simeq|\\sim)?\s*\$$")


NAME = "name"
DIMENSION = "dimension"
MEANING = "meaning"
VALUE = "value"
CONSTANT = "constant"  # a physical constant the glossary names (`constants`)
_HEAD = re.compile(r"[,;:(]| [—–-] ")


@dataclass(frozen=True)
class Stated:
    """`name` stated to be `quantity` (its content span) in the paragraph starting at
    `paragraph`; `value` is the number in the glossary unit of `name` (None when its unit
    does not convert to that unit). `how` the number was bound to the symbol: by `name`
    (`ρ = 0.8`), as the only `dimension` that fits, by the `meaning` words around it, as
    the one number with the `value` a relation computes for the symbol, or as the
    `constant` the glossary names (`paragraph` -1)."""

    name: str
    quantity: numbers.Quantity
    value: sympy.Expr | None
    paragraph: int
    approx: bool
    how: str = NAME

    @property
    def start(self) -> int:
        return self.quantity.start

    @property
    def end(self) -> int:
        return self.quantity.end


@dataclass(frozen=True)
class Loose:
    """A number written with a unit and no symbol (`dissipates 700 W`): bound to a symbol
    only where its dimension or the words before it single one out."""

    quantity: numbers.Quantity
    dimension: object
    words: frozenset[str]
    approx: bool
    affine: bool = False  # written on a scale with another zero (°C): a temperature
    paragraph: int = 0
    angular: bool = False  # an angle per time (rad/s), not cycles (Hz)
    factor: bool = False  # multiplies or divides in working no relation sign closes
    names: frozenset[str] = frozenset()  # the noun it describes: `a 2 fF wire`


@dataclass
class Paragraph:
    start: int
    end: int
    stated: list[Stated] = field(default_factory=list)
    loose: list[Loose] = field(default_factory=list)
    worked: list[numbers.Arithmetic] = field(default_factory=list)  # offsets from `start`
    lists: list[numbers.NumberList] = field(default_factory=list)  # offsets from `start`


_SENTENCE_END = re.compile(r"(?<=[.!?;])\s+(?=[A-Z(])")


def sentences(paragraph: Paragraph, content: str) -> list[Paragraph]:
    """The sentences of a paragraph of two or more, each with the numbers written without a
    symbol it holds: a paragraph that works several cases one sentence each (`On 8 cores …
    a 5.93× speedup. On 32 cores … 12.5×.`) binds none of them as a whole."""
    text = content[paragraph.start : paragraph.end]
    cuts = [0, *(m.end() for m in _SENTENCE_END.finditer(text)), len(text)]
    if len(cuts) < 3:
        return []
    parts = []
    for low, high in zip(cuts, cuts[1:], strict=False):
        start, end = paragraph.start + low, paragraph.start + high
        loose = [item for item in paragraph.loose if start <= item.quantity.start < end]
        if loose:
            parts.append(Paragraph(start, end, loose=loose))
    return parts


_CONDITIONAL = re.compile(
    r"(?:If|Suppose|Supposing|Had|Were|Should|Imagine|Assume|Assuming|Alternatively|Instead"
    r"|(?:Doubl|Halv|Tripl|Quadrupl|Squeez|Rais|Lower|Increas|Reduc|Decreas|Cutt|Shrink"
    r"|Grow|Widen|Narrow|Shorten|Lengthen|Switch|Replac|Chang|Spread)ing)\b"
)
"""A sentence opening another case: a condition, or a change made to the example
(`Squeezing the same keys into half the slots, 1,048,576, gives α ≈ 0.858`)."""


def conditionals(paragraph: Paragraph, content: str) -> list[int]:
    """Where sentences of the paragraph that open another case start (`If random accesses
    range over 12 GiB, m ≈ 0.75`, `Had the gradient been −0.3`): values on either side of
    one are not one case's."""
    text = content[paragraph.start : paragraph.end]
    starts = [m.end() for m in _SENTENCE_END.finditer(text)]
    return [paragraph.start + k for k in starts if _CONDITIONAL.match(text, k)]


class Names:
    """Prose spellings -> the lesson's glossary names, when exactly one matches; a name no
    glossary symbol has may be a recurrence's value at a step (`m₁`, `instances.Steps`)."""

    def __init__(self, lesson: Lesson, steps: instances.Steps | None = None) -> None:
        self.steps = steps
        self.keys: dict[str, set[str]] = {}
        self.flats: dict[str, set[str]] = {}
        self.glossary: set[str] = set()
        for glossary in lesson.glossaries:
            for entry in glossary.entries:
                for name in entry.names:
                    self.keys.setdefault(naming.key(name), set()).add(name)
                    self.flats.setdefault(naming.flat(name), set()).add(name)
                    self.glossary.add(name)

    def find(self, token: str) -> str | None:
        if token.startswith("$"):
            token = _LATEX_WRAPPED.sub(r"\1", token).strip()
            token = re.sub(r"\\(?:mathrm|text|operatorname)\{([^{}]*)\}", r"\1", token)
            token = token.replace("{", "").replace("}", "").replace("\\", "")
        name = name_of(token)
        if name is None:
            return None
        for table, probe in ((self.keys, naming.key(name)), (self.flats, naming.flat(name))):
            found = table.get(probe, set())
            if len(found) == 1:
                return next(iter(found))
            if found:
                return None  # several symbols spelled alike: not certain
        return self.steps.find(name) if self.steps is not None else None

    def symbol(self, name: str) -> str:
        """The glossary symbol a name's unit is that of (a step's value: the stepped symbol)."""
        if self.steps is None or name in self.glossary:
            return name
        return self.steps.symbol(name) or name


def _prose_blocks(lesson: Lesson) -> Iterator[tuple[int, int]]:
    """(start, end) of every paragraph and list item of the prose, outside glossaries: a
    list item is a paragraph of its own (lists often hold one scenario per item)."""
    tables = [(g.offset, g.end) for g in lesson.glossaries]
    for block in lesson.blocks:
        if block.kind not in ("paragraph", "list"):
            continue
        if any(low <= block.start < high for low, high in tables):
            continue
        if block.kind == "paragraph" or not block.items:
            yield block.start, block.end
            continue
        starts = [offset for _, offset in block.items]
        yield from zip(starts, [*starts[1:], block.end], strict=True)


def _number_at(items: list[numbers.Item], position: int) -> tuple[numbers.Quantity, bool] | None:
    """The number a statement gives, and whether it is hedged: the item right at
    `position` (a chain's result, hedged where the chain ends in `≈`: `Bi = 40 × 0.00556/167
    ≈ 0.0013` is a rounded Bi), or the number whose hedge the relation sign was (`ρ ≈
    1.72×10⁻⁸ Ω·m` reads `≈ 1.72…`)."""
    for item in items:
        start = item.figures if isinstance(item, numbers.Quantity) else item.start
        if start == position:
            if isinstance(item, numbers.Arithmetic):
                return item.result, item.relation == "≈"
            if isinstance(item, numbers.Quantity):
                return item, False
            return None
        if item.start > position:
            return None
    return None


_NEXT_WORD = re.compile(r"[ \t\u00a0\u202f]+([A-Za-z]+)\b")
_UNREAD_RATE = re.compile(r"[ \t\u00a0\u202f]+[A-Za-z]+/[A-Za-z]+\b")


def _table_unit(text: str, quantity: numbers.Quantity) -> numbers.Quantity:
    """A stated number followed by a unit prose does not read but a symbol table does
    (`Rs = 28/1.25 = 22.4 Mbaud`, `τ = 5 years`) is in that unit, not in the glossary's
    (22.4 baud made R_b = kR_s fail by 10⁶ at a right `134.4 Mbit/s`)."""
    if quantity.unit is not None:
        return quantity
    word = _NEXT_WORD.match(text, quantity.end)
    if word is None or glossary_name(word.group(1)) is None:
        return quantity
    return replace(quantity, unit=word.group(1))


def _other_rate(text: str, quantity: numbers.Quantity, spec: UnitSpec | None) -> bool:
    """Whether a bare number is followed by a rate of prefixed counts that prose does not
    read and the table does not write (`16 Msymbol/s` for a table's `symbols/s`): its
    value is in millions, not in the table's unit. An unprefixed count (`100 requests/s`
    for `jobs/s`) is the table's unit, as the author means it."""
    found = _UNREAD_RATE.match(text, quantity.end)
    if found is None or not _PREFIXED_COUNT.match(found.group().strip()):
        return False
    return spec is None or not _PREFIXED_COUNT.match(spec.text.strip())


_PREFIXED_COUNT = re.compile(r"[kMGT][a-z]{2,}/")  # `Msymbol/s`, `kreq/s`


def meaning_head(meaning: str) -> str:
    """What a glossary meaning names before it explains: `L1 miss penalty` of `L1 miss
    penalty, the average extra time an L1 miss costs`."""
    return _HEAD.split(meaning, maxsplit=1)[0]


def in_unit(quantity: numbers.Quantity, spec: UnitSpec | None) -> sympy.Expr | None:
    """The number in the glossary's unit: converted when both units read, as written when
    the prose writes none (or a percent for a percent symbol)."""
    if quantity.unit is None:
        return quantity.value
    if spec is None or spec.units is None:
        return None
    try:
        return convert(quantity.value, quantity.unit, spec)
    except (UnitError, ValueError, TypeError):
        return quantity.value if quantity.unit == "%" and "%" in spec.text else None


def read(lesson: Lesson, names: Names | None = None) -> list[Stated]:
    """Every statement of a glossary symbol's value in the prose, in text order."""
    return [item for paragraph in paragraphs(lesson, names) for item in paragraph.stated]


def paragraphs(lesson: Lesson, names: Names | None = None) -> list[Paragraph]:
    """Every paragraph of the prose with its statements and its loose numbers."""
    names = names or Names(lesson)
    table = lesson_units(lesson)
    content = lesson.content
    found: list[Paragraph] = []
    for start, end in _prose_blocks(lesson):
        text = content[start:end]
        paragraph = Paragraph(start, end)
        found.append(paragraph)
        items = numbers.extract(text)
        paragraph.worked = [item for item in items if isinstance(item, numbers.Arithmetic)]
        paragraph.lists = [item for item in items if isinstance(item, numbers.NumberList)]
        for match in _TOKEN.finditer(text):
            if _FUNCTION_BEFORE.search(text, max(0, match.start() - 8), match.start()):
                continue  # `sin θ = 0.93` states sin θ, not θ
            if _OPERATOR_BEFORE.search(text, max(0, match.start() - 4), match.start()):
                continue  # `125 − λ = ln(100)/0.25` states no value of λ
            if _POWERED.search(match.group(1)):
                continue  # `σ² = 9.5` states the square of σ, not σ
            if match.group(2)[0].isalpha() and _NUMBER_BEFORE.search(text, 0, match.start()):
                continue
            name = names.find(match.group(1))
            if name is None:
                continue
            given = _number_at(items, match.end())
            if given is None or _MORE.match(text, given[0].end):
                continue  # `λ = ln(100)/0.25`: the value is still being worked out
            quantity, hedged = given
            if _RAISED.match(text, quantity.end):
                continue  # `u = 2⁻ᵖ`: a power of a symbol, not the number 2
            if quantity.unit is None and _GLUED.match(text, quantity.end):
                continue  # `E_sat = 2v_sat/μ_eff`: a coefficient of a symbol
            if _SERIES.match(text, quantity.end):
                continue  # `R_T = 3.7, 6.2, 11.2 and 21.2 Ω`: one value per case
            if quantity.unit is None and _OF.match(text, quantity.end):
                continue  # `V_out = 15/16 of that ≈ 125.8 MB`: a fraction of another value
            quantity = _table_unit(text, quantity)
            spec = table.get(names.symbol(name))
            if quantity.unit is None and _other_rate(text, quantity, spec):
                continue  # `R_s = 16 Msymbol/s`: a unit prose does not read, so no value
            shifted = _shift(quantity, start)
            value = in_unit(quantity, spec)
            approx = match.group(2) in "≈≃∼~" or quantity.approx or hedged
            paragraph.stated.append(Stated(name, shifted, value, start, approx))
        named = {item.start for item in paragraph.stated}
        previous = 0  # a number's words start after the number before it: `8 cores … 5.93×`
        for item in items:
            low = max(previous, item.start - 80)
            after = _AFTER.match(text[item.end : item.end + 40])
            previous = item.end + (after.end() if after else 0)  # its noun is its own (`8 cores`)
            written = item.result if isinstance(item, numbers.Arithmetic) else item
            if not isinstance(written, numbers.Quantity) or written.start + start in named:
                continue
            quantity = written
            dimension: object
            if written.unit is None or written.unit == "%":
                dimension, affine = BARE, False  # bound by the words around it alone
            elif (read := _dimension(written.unit)) is not None:
                dimension, affine = read
            else:
                continue
            approx = (
                quantity.approx
                or (isinstance(item, numbers.Arithmetic) and item.relation == "≈")
                or bool(_HEDGED.search(text, max(0, quantity.start - 12), quantity.start))
            )
            described = _after(after)
            words = _words(text[low : item.start]) | described
            angle = angular(written.unit or "")
            factor = isinstance(item, numbers.Quantity) and _factor(text, item)
            article = _ARTICLE.search(text, max(0, item.start - 6), item.start)
            noun = described if article and written.unit else frozenset()
            loose = Loose(
                _shift(quantity, start),
                dimension,
                words,
                approx,
                affine,
                start,
                angle,
                factor,
                noun,
            )
            paragraph.loose.append(loose)
    return found


_TIMES_BEFORE = re.compile(r"(?:[×·⋅*/÷]|[ \t\u00a0\u202f]x)[ \t\u00a0\u202f]*$")
_TIMES_AFTER = re.compile(
    r"[ \t\u00a0\u202f]*[×·⋅*/÷^][ \t\u00a0\u202f]*[\w(√π]"
    r"|[ \t\u00a0\u202f]+x[ \t\u00a0\u202f]+[\d(√π]|x\("  # `0.26 x 9.109x10⁻³¹ kg`: times as x
)


def _factor(text: str, quantity: numbers.Quantity) -> bool:
    """Whether a number multiplies or divides another in working that no relation sign
    closes (`m* = 0.26 × 9.109×10⁻³¹ kg`): it may be a factor of a value rather than a
    value, so its dimension alone does not make its binding certain."""
    return bool(
        _TIMES_BEFORE.search(text, max(0, quantity.start - 4), quantity.start)
        or _TIMES_AFTER.match(text, quantity.end)
    )


BARE = "bare"
"""The kind of a number written without a unit, or of a dimensionless symbol: bound only
where the words around the number single the symbol out by its meaning."""
_AFTER = re.compile(r"^[×x%]?\s*((?:[A-Za-z][\w-]*\s*){1,2})")


def _after(found: re.Match[str] | None) -> frozenset[str]:
    """The noun a number qualifies (`8 cores`, `5.93× speedup`): up to two words after
    (`_AFTER` matched on the text after it)."""
    if found is None:
        return frozenset()
    return frozenset(w.lower() for w in _WORD.findall(found.group(1)) if w.lower() not in STOP)


_ARTICLE = re.compile(r"(?<![\w-])(?:a|an)\s+$", re.IGNORECASE)  # `a 2 fF wire`
_HEDGED = re.compile(r"(?:about|approximately|roughly|nearly|around|≈|~)\s*$")
_WORD = re.compile(r"[A-Za-z]{3,}")
_CLAUSE = re.compile(r"[.;:]\s|,\s(?:and|so|then|which|while)\b")
STOP = frozenset(
    """the and with for from that this into onto over under each per are was were its
    than then which while when where what how has have had not but all any one two
    about approximately roughly nearly around gives give giving at a an of to in on by
    is be as so""".split()
)


def _words(before: str) -> frozenset[str]:
    """Content words of the clause a number ends (lowercase, stop words dropped)."""
    clause = _CLAUSE.split(before)[-1]
    return frozenset(w.lower() for w in _WORD.findall(clause) if w.lower() not in STOP)


_ANGLE = re.compile(r"rad|°|deg", re.IGNORECASE)


def angular(unit: str) -> bool:
    """Whether a unit measures an angle (`rad/s`, `°/s`), which SI counts as 1: `212 kHz`
    is no angular frequency."""
    return bool(_ANGLE.search(unit))


def labels(lesson: Lesson) -> dict[str, str]:
    """Glossary name -> the symbol as the glossary writes it, for messages."""
    entries = [entry for glossary in lesson.glossaries for entry in glossary.entries]
    return {
        name: entry.symbol.replace("\\_", "_") if len(entry.names) == 1 else name
        for entry in entries
        for name in entry.names
    }


def meaning_words(meaning: str) -> frozenset[str]:
    return frozenset(w.lower() for w in _WORD.findall(meaning) if w.lower() not in STOP)


def _dimension(unit: str) -> tuple[object, bool] | None:
    """The dimension of a unit written after a number, and whether it is on a scale with
    another zero (°C); None when it is unreadable or dimensionless (a pure number cannot
    single out a symbol)."""
    try:
        units = units_of(unit)
    except (UnitError, ValueError, TypeError):
        return None
    if units.dimension.is_dimensionless:
        return None
    return units.dimension, bool(units.offset)


def _shift(quantity: numbers.Quantity, by: int) -> numbers.Quantity:
    return replace(quantity, start=quantity.start + by, end=quantity.end + by)


def by_paragraph(stated: Iterable[Stated]) -> dict[int, list[Stated]]:
    grouped: dict[int, list[Stated]] = {}
    for item in stated:
        grouped.setdefault(item.paragraph, []).append(item)
    return grouped
