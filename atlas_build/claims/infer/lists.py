"""Relations over lists of numbers, at the lists a paragraph writes: `p_i = exp(z_i/τ)/
Σ_j exp(z_j/τ)` at `logits [2,1,0] and temperature 1, the probabilities are [0.665,0.245,
0.090]`; `μ = (1/d) Σ x_i` at `x = [1,2,4,9]` and `μ = 4`.

A glossary symbol with an index (`p_i`, `x_hat_i`, `z_k`) is a list, as is what a relation
indexes (`z[j]` in a sum). A relation whose left side is such a symbol is computed element
by element; one whose left side is a plain symbol, through its sums. The lists it reads are
those the section names (`x = [1,2,4,9]`) or, unnamed, any list of the paragraph; its plain
symbols take the values the section states by name, or any bare number of the paragraph; a
sum's bound (`n`, `d`) is the lists' length. The relation is verified by example where one
list (or number) of the paragraph, or the one named for its left side, is what it computes,
every element within half a unit of its last digit. An unnamed result must be written to 5
significant digits in all (`[0.665,0.245,0.090]` has 8), or one number to 0.2% (`0.832`), or
it could agree by chance. This never reports an error: which list is which symbol is seldom
certain.
"""

from __future__ import annotations

import functools
import itertools
import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, replace

import sympy

from atlas_build.claims import solver
from atlas_build.claims.binding.compare import digits_tolerance
from atlas_build.claims.infer import meant, statements, values
from atlas_build.claims.infer.found import Found, Pin
from atlas_build.claims.prose import numbers
from atlas_build.latex import Relation
from atlas_build.lesson.model import Lesson
from atlas_build.lesson.symbols import name_of

MAX_LENGTH = 32  # elements of a list a relation is computed over
MAX_TERMS = 4096  # terms a relation's sums are written out to, for one length of list
MAX_TRIES = 256  # ways of reading a relation's inputs in one paragraph
MAX_LISTS = 12  # lists of one paragraph searched
MAX_SCALARS = 16  # bare numbers of one paragraph tried for a symbol no statement gives
MAX_COMPUTED = 25_000  # operations computed per lesson (elements × the size of the
# relation written out): a count, not a time, so reports stay identical across runs
SCALAR = sympy.Rational(1, 500)  # how precisely a single unnamed result must be written
DIGITS = 5  # significant digits an unnamed result must be written to, in all
_SLACK = sympy.Rational(1, 10**12)  # of a value: how far evaluation may miss it
_INDEXED = re.compile(r"^(.+)_([a-z])$")
_NAMED = re.compile(r"([^\s=≈(,;:]{1,16})[ \t\u00a0]*(?:=|≈)[ \t\u00a0]*$")


@dataclass(frozen=True)
class Shape:
    """A relation over lists: its left side (`output`, a list's base or a plain symbol),
    the lists (`vectors`) and plain symbols (`scalars`) its right side reads, the sums'
    bounds (`ranges`) and, for an elementwise relation, its free index (`letter`)."""

    equation: int
    index: int
    relation: Relation
    output: str
    listed: bool  # the output is a list
    letter: str | None
    vectors: tuple[str, ...]
    scalars: tuple[str, ...]
    ranges: tuple[str, ...]


@dataclass(frozen=True)
class _Value:
    """A list or a number of the prose, as an input or a result (content offsets)."""

    written: tuple[numbers.Quantity, ...]
    text: str

    @property
    def values(self) -> tuple[sympy.Expr, ...]:
        return tuple(q.value for q in self.written)

    @property
    def spans(self) -> tuple[tuple[int, int], ...]:
        return tuple((q.start, q.end) for q in self.written)


def bases(lesson: Lesson, items: list[tuple[int, int, Relation]]) -> set[str]:
    """What the lesson has lists of: the base of every glossary name with an index (`p`
    of `p_i`), and what its relations index (`z` of `z[j]`)."""
    found = set()
    for glossary in lesson.glossaries:
        for entry in glossary.entries:
            for name in entry.names:
                if (match := _INDEXED.match(name)) is not None:
                    found.add(match.group(1))
    for _, _, relation in items:
        for side in (relation.lhs, relation.rhs):
            if isinstance(side, sympy.Basic):
                found |= {item.base.label.name for item in side.atoms(sympy.Indexed)}
    return found


def _indexed(name: str, lists: set[str]) -> tuple[str, str] | None:
    """`p_j` -> (`p`, `j`) when p is a list."""
    match = _INDEXED.match(name)
    if match is None or match.group(1) not in lists:
        return None
    return match.group(1), match.group(2)


def shape(equation: int, index: int, relation: Relation, lists: set[str]) -> Shape | None:
    """`relation` as a relation over lists, or None when it is not one this module reads."""
    lhs, rhs = relation.lhs, relation.rhs
    if relation.op not in ("=", ":=") or not isinstance(rhs, sympy.Expr):
        return None
    if not isinstance(lhs, sympy.Symbol) or lhs.name in lists:
        return None
    summed = {item.base.label.name for item in rhs.atoms(sympy.Indexed)}
    ranges: set[str] = set()
    for total in rhs.atoms(sympy.Sum, sympy.Product):
        for _, low, high in total.limits:
            if low != 1 or not isinstance(high, sympy.Symbol):
                return None
            ranges.add(high.name)
    letters, vectors, scalars = set(), set(summed), set()
    for symbol in rhs.free_symbols:
        if not isinstance(symbol, sympy.Symbol) or symbol.name in summed | ranges:
            continue
        found = _indexed(symbol.name, lists)
        if found is not None:
            vectors.add(found[0])
            letters.add(found[1])
        else:
            scalars.add(symbol.name)
    output = _indexed(lhs.name, lists)
    if output is not None:
        letters.add(output[1])
    if len(letters) > 1 or not vectors or (output is None and letters):
        return None  # two free indices (a Jacobian), or a list on a plain left side
    return Shape(
        equation,
        index,
        relation,
        output[0] if output is not None else lhs.name,
        output is not None,
        next(iter(letters), None),
        tuple(sorted(vectors)),
        tuple(sorted(scalars)),
        tuple(sorted(ranges)),
    )


class Budget:
    """Operations a lesson may still compute (`MAX_COMPUTED`): hostile lists stay cheap."""

    def __init__(self, left: int = MAX_COMPUTED) -> None:
        self.left = left

    def spend(self, count: int) -> bool:
        self.left -= count
        return self.left >= 0


def compute(
    form: Shape,
    lists: Mapping[str, Sequence[sympy.Expr]],
    scalars: Mapping[str, sympy.Expr],
    budget: Budget | None = None,
) -> tuple[sympy.Expr, ...] | None:
    """What the relation gives its left side (one value per element for a list), or None
    when it cannot be computed there (lists of different lengths, a value out of range,
    the `budget` spent)."""
    lengths = {len(lists[b]) for b in form.vectors}
    if len(lengths) != 1:
        return None
    size = lengths.pop()
    if not 1 <= size <= MAX_LENGTH:
        return None
    if any(n in scalars and scalars[n] != size for n in form.ranges):
        return None  # `n = 4` stated for a list of three
    expanded = _expanded(form.relation.rhs, form.ranges, size)
    if expanded is None:
        return None
    expression, operations = expanded
    if budget is not None and not budget.spend(operations * (size if form.listed else 1)):
        return None
    at: dict[sympy.Basic, sympy.Expr] = {sympy.Symbol(n): v for n, v in scalars.items()}
    for base in form.vectors:
        for k, value in enumerate(lists[base]):
            at[_element(base, k + 1)] = value
    found = []
    for row in range(size) if form.listed else [None]:
        if row is not None and form.letter is not None:
            for base in form.vectors:
                at[sympy.Symbol(f"{base}_{form.letter}")] = lists[base][row]
        value = solver.evaluate(expression, at)
        if value is None or not value.is_finite:
            return None
        found.append(value)
    return tuple(found)


@functools.lru_cache(maxsize=256)
def _expanded(rhs: sympy.Expr, ranges: tuple[str, ...], size: int) -> tuple[sympy.Expr, int] | None:
    """`rhs` with its sums written out for lists of `size` elements, each element a symbol
    of its own (`z[2]` -> `z__2`), and its size in operations: worked out once per
    relation and length. None when writing them out would make more than `MAX_TERMS`
    terms (sums inside sums over long lists)."""
    if size ** sum(len(t.limits) for t in rhs.atoms(sympy.Sum, sympy.Product)) > MAX_TERMS:
        return None
    try:
        expression = rhs.xreplace({sympy.Symbol(n): sympy.Integer(size) for n in ranges}).doit()
        expression = expression.replace(
            lambda e: isinstance(e, sympy.Indexed),
            lambda e: _element(e.base.label.name, int(e.indices[0])),
        )
    except (TypeError, ValueError, ArithmeticError, RecursionError):
        return None
    return expression, 1 + sympy.count_ops(expression)


def _element(base: str, position: int) -> sympy.Symbol:
    return sympy.Symbol(f"{base}__{position}")


def agrees(
    computed: Sequence[sympy.Expr],
    written: Sequence[numbers.Quantity],
    spread: Sequence[sympy.Expr] | None = None,
) -> bool:
    """Every element within half a unit of its last written digit (and the `spread` its
    rounded inputs allow it)."""
    if len(computed) != len(written):
        return False
    extra = spread or [sympy.Integer(0)] * len(computed)
    for value, quantity, more in zip(computed, written, extra, strict=True):
        allowed = digits_tolerance(quantity) + abs(quantity.value) * _SLACK + more
        if abs(sympy.Float(value, 30) - quantity.value) > allowed:
            return False
    return True


def _near(computed: Sequence[sympy.Expr], written: Sequence[numbers.Quantity]) -> bool:
    """Within 20 of its last digits everywhere: worth working out what rounded inputs allow."""
    return agrees(computed, written, [19 * digits_tolerance(q) for q in written])


def _spread(
    form: Shape, reading: dict[str, _Value], computed: Sequence[sympy.Expr], budget: Budget
) -> list[sympy.Expr]:
    """How far each computed element may move with the inputs that may be rounded results
    (`values.rounded`; first order: each moved by half a unit in its last digit, the
    changes summed)."""
    total = [sympy.Integer(0)] * len(computed)
    for name, value in reading.items():
        for k, quantity in enumerate(value.written):
            step = digits_tolerance(quantity) if values.rounded(quantity) else 0
            if not step:
                continue  # taken as written: `[2,1,1,0.5]`; `−0.9733` may be rounded
            moved = {n: list(v.values) for n, v in reading.items()}
            moved[name][k] = quantity.value + step
            lists = {b: moved[b] for b in form.vectors}
            scalars = {n: moved[n][0] for n in form.scalars}
            shifted = compute(form, lists, scalars, budget)
            if shifted is None:
                return total
            total = [t + abs(sympy.Float(a, 30) - sympy.Float(b, 30))
                     for t, a, b in zip(total, shifted, computed, strict=True)]  # fmt: skip
    return total


def precise(written: Sequence[numbers.Quantity]) -> bool:
    """Whether a result is written precisely enough not to agree by chance: a list to
    `DIGITS` significant digits in all, one number to 0.2% (`0.832`, `1.020`; not `0.8`)."""
    if len(written) == 1 and written[0].decimals is not None and written[0].value:
        single = written[0]
        return bool(digits_tolerance(single) / abs(single.value) <= SCALAR)
    digits = 0
    for quantity in written:
        if quantity.decimals is None:
            return True  # an exact form (`ln 3`, `1/4`)
        found = "".join(c for c in quantity.text if c.isdigit())
        digits += len(found.lstrip("0"))
    return digits >= DIGITS


def forms(lesson: Lesson, items: list[tuple[int, int, Relation]]) -> list[Shape]:
    """The relations of `items` that are relations over lists (`shape`)."""
    lists = bases(lesson, items)
    if not lists:
        return []
    return [found for e, i, r in items if (found := shape(e, i, r, lists)) is not None]


def found(lesson: Lesson, over: list[Shape], paragraphs: list[statements.Paragraph]) -> list[Found]:
    """A check for every relation over lists (`forms`) a paragraph's lists complete (see
    the module docstring), in reading order."""
    return [check for check, _ in matched(lesson, over, paragraphs)]


def matched(
    lesson: Lesson, over: list[Shape], paragraphs: list[statements.Paragraph]
) -> list[tuple[Found, Pin]]:
    """`found`'s checks, each with the claim that restates it."""
    if not over:
        return []
    lists = bases(lesson, []) | {base for form in over for base in form.vectors}
    lists |= {form.output for form in over if form.listed}
    labels = statements.labels(lesson)
    tables = meant.Tables(lesson)
    listed = {
        n: m.group(1) for n in tables.every if (m := _INDEXED.match(n)) and m.group(1) in lists
    }
    plain = frozenset(name for name in tables.every if name not in listed)
    checks: list[tuple[Found, Pin]] = []
    budget = Budget()
    named_lists: dict[str, _Value] = {}
    named_scalars: dict[str, _Value] = {}
    section: object = None
    for paragraph in paragraphs:
        heading = lesson.section_of(paragraph.start)
        if heading is not section:
            section, named_lists, named_scalars = heading, {}, {}
        written = _lists(lesson.content, paragraph)
        here = {base: value for value, token in written if (base := _base(token, lists))}
        named_lists.update(here)
        for stated in paragraph.stated:
            if stated.value is not None:
                named_scalars[stated.name] = _Value((stated.quantity,), stated.quantity.text)
        bare = [
            _Value((loose.quantity,), loose.quantity.text)
            for loose in paragraph.loose
            if loose.dimension == statements.BARE and loose.quantity.unit is None
        ][:MAX_SCALARS]
        unnamed = [value for value, token in written if _base(token, lists) is None]
        nouns = {  # `attention probabilities are [0.25,0.75]`: one list of the paragraph
            listed[name]: found[0]
            for name, found in tables.named(unnamed, _offset, paragraph.start, listed).items()
            if len(found) == 1 and listed[name] not in here
        }
        results = tables.named(bare, _offset, paragraph.start, plain)  # `output is 5`
        scene = _Scene(here, named_lists, named_scalars, unnamed, bare, paragraph, nouns, results)
        for form in over:
            checks += _checks(form, scene, labels, budget)
    return checks


@dataclass(frozen=True)
class _Scene:
    """What one paragraph offers a relation: the lists it names (`here`), those its section
    named so far, the values its section stated by name, its unnamed lists and its bare
    numbers."""

    here: dict[str, _Value]
    named_lists: dict[str, _Value]
    named_scalars: dict[str, _Value]
    unnamed: list[_Value]
    bare: list[_Value]
    paragraph: statements.Paragraph
    nouns: dict[str, _Value]  # the one list of the paragraph its noun names (`meant`)
    results: dict[str, list[_Value]]  # numbers of the paragraph their noun names

    def spoken(self, name: str, listed: bool) -> list[_Value]:
        """The results of the paragraph its nouns name for `name` (`meant`)."""
        if listed:
            return [self.nouns[name]] if name in self.nouns else []
        return self.results.get(name, [])

    def stated_here(self, name: str) -> _Value | None:
        value = self.named_scalars.get(name)
        if value is None:
            return None
        return value if self.paragraph.start <= value.spans[0][0] < self.paragraph.end else None


def _checks(
    form: Shape, scene: _Scene, labels: dict[str, str], budget: Budget
) -> list[tuple[Found, Pin]]:
    """A check for each result of the paragraph the relation computes from a reading of
    its inputs (`_readings`): the result named for its left side, or else any precise
    unnamed one (`precise`), while the lesson's `budget` lasts."""
    named = scene.here.get(form.output) if form.listed else scene.stated_here(form.output)
    targets = [named] if named is not None else (scene.unnamed if form.listed else scene.bare)
    if named is None:
        # named by their noun (`output is 5`) a result may be written coarsely; any other
        # must be precise, or it could agree by chance
        spoken = scene.spoken(form.output, form.listed)
        targets = spoken + [t for t in targets if t not in spoken and precise(t.written)]
    matches: dict[int, tuple[_Value, dict[str, _Value]]] = {}
    for reading in _readings(form, scene):
        if len(matches) == len(targets) or budget.left <= 0:
            break
        lists = {b: reading[b].values for b in form.vectors}
        scalars = {n: reading[n].values[0] for n in form.scalars}
        computed = compute(form, lists, scalars, budget)
        if computed is None:
            continue
        used = {span for value in reading.values() for span in value.spans}
        widened: list[sympy.Expr] | None = None
        for k, target in enumerate(targets):
            if k in matches or set(target.spans) & used:
                continue
            if not agrees(computed, target.written):
                if not _near(computed, target.written):
                    continue
                widened = widened or _spread(form, reading, computed, budget)
                if not agrees(computed, target.written, widened):
                    continue
            matches[k] = (target, reading)

    def label(name: str, listed: bool) -> str:
        full = f"{name}_{form.letter}" if listed and form.letter else name
        return labels.get(full, full)

    found = []
    for target, reading in (matches[k] for k in sorted(matches)):
        shown = ", ".join(f"{v.text} → {label(n, n in form.vectors)}" for n, v in reading.items())
        anchor = (target.spans[0][0], target.spans[-1][1])
        check = Found(
            form.equation,
            form.index,
            True,
            False,
            anchor,
            tuple(span for value in reading.values() for span in value.spans),
            f"equation {form.equation} `{form.relation.source.strip()}`: {shown}; "
            f"{target.text} → {label(form.output, form.listed)} (computed)",
        )
        values = tuple((n, _plain(v, n in form.vectors)) for n, v in reading.items())
        result = _plain(target, form.listed)
        pin = Pin(form.equation, form.index, anchor, form.output, result, values, True)
        found.append((check, pin))
    return found


def _offset(value: _Value) -> int:
    return value.spans[0][0]


def _plain(value: _Value, listed: bool) -> object:
    """A list as a tuple of its values, a number as its value."""
    return value.values if listed else value.values[0]


def _readings(form: Shape, scene: _Scene) -> Iterator[dict[str, _Value]]:
    """Ways of reading the relation's inputs: a named list or value where the section has
    one, else any unnamed list or bare number of the paragraph; at most `MAX_TRIES`."""
    choices: list[tuple[str, list[_Value]]] = []
    for base in form.vectors:
        named = scene.named_lists.get(base)
        noun = scene.nouns.get(base)  # tried first, not alone: a noun names one case
        if named is not None:
            choices.append((base, [named]))
        elif noun is not None:
            choices.append((base, [noun, *(u for u in scene.unnamed if u is not noun)]))
        else:
            choices.append((base, scene.unnamed))
    for name in form.scalars:
        value = scene.named_scalars.get(name)
        choices.append((name, [value] if value is not None else scene.bare))
    total = 1
    for _, options in choices:
        total *= len(options)
    if not total or total > MAX_TRIES:
        return
    for picked in itertools.product(*(options for _, options in choices)):
        spans = [span for value in picked for span in value.spans]
        if len(spans) != len(set(spans)):
            continue  # one number read as two symbols
        yield {name: value for (name, _), value in zip(choices, picked, strict=True)}


def _lists(content: str, paragraph: statements.Paragraph) -> list[tuple[_Value, str]]:
    """The paragraph's lists (content offsets), each with the name written just before it
    (`x =`), or ''."""
    found = []
    shift = paragraph.start
    for item in paragraph.lists:
        if len(item.items) > MAX_LENGTH:
            continue
        start = item.start + shift
        named = _NAMED.search(content, max(shift, start - 20), start)
        written = tuple(replace(q, start=q.start + shift, end=q.end + shift) for q in item.items)
        found.append((_Value(written, item.text), named.group(1) if named else ""))
        if len(found) >= MAX_LISTS:
            break
    return found


def _base(token: str, lists: set[str]) -> str | None:
    """The list a name written before a list stands for (`x̂` -> x_hat), if it is one."""
    name = name_of(token) if token else None
    return name if name in lists else None
