"""Binding a claim's computed quantities to the numbers its quote writes.

Each number the quote writes is compared with the quantity `bind` names, in the unit the
number is written in: the unit after it, its table column's header, a letter that is a
unit there, or, for a bare number, the quantity's own unit (and only then as an
unproven bare match). A wrong number is an A401 at the number; which relations computed it
is recorded so coverage can blame the right one.

Long module: binding is one algorithm over one `Binder` (unit readings, table headers, level
hints, temperature points); split apart, each piece would need the binder's whole state.
"""

from __future__ import annotations

import dataclasses
import json
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import sympy

from atlas_build.claimjson import ValueJSON
from atlas_build.claims import codes
from atlas_build.claims.binding import anchors
from atlas_build.claims.binding.compare import Verdict, compare, parse_tolerance
from atlas_build.claims.binding.options import (
    Loose,
    loose,
    loose_message,
    refused_units,
    tolerance_at,
)
from atlas_build.claims.coverage.dimensions import lesson_units, named, unread_units
from atlas_build.claims.prose import numbers, tables
from atlas_build.claims.running.file import ClaimsFile
from atlas_build.claims.running.registry import LEVEL, ClaimError, Outcome, lookup, quantity_unit
from atlas_build.claims.running.result import ClaimResult
from atlas_build.diagnostics import Code, Location, at
from atlas_build.lesson.model import Lesson
from atlas_build.source import Locator
from atlas_build.units import UnitError, convertible, units_of
from atlas_build.units.prose import (
    excluded_unit_after,
    is_level,
    level_after,
    names_level,
    unit_attempt,
    unread_unit_after,
)

Fail = Callable[[Code, Location, str], None]


@dataclass(frozen=True)
class _Entry:
    """One bind entry at one occurrence of its quote: its number, what it is bound to and
    how closely (`allowed`, `rounded`), and where its results go (`result`, `fail`; names
    the claim does not compute, told once, in `unknown`)."""

    item: numbers.Item
    options: dict[str, Any]
    outcome: Outcome
    allowed: Any
    rounded: anchors.Precision
    pointer: str
    result: ClaimResult
    fail: Fail
    unknown: set[str]


@dataclass(frozen=True)
class _Against:
    """A number compared with its quantity's computed value, in a given unit (and, to see
    whether it agrees to its own digits, with another tolerance)."""

    written: numbers.Item
    computed: Any
    allowed: Any
    relation: Any
    rounded: anchors.Precision
    interval: bool

    def __call__(self, unit: str | None, allowed: Any = None) -> Verdict:
        return compare(
            self.written,
            self.computed,
            tolerance=self.allowed if allowed is None else allowed,
            unit=unit,
            relation=self.relation,
            approximate=self.rounded,
            interval=self.interval,
        )


@dataclass
class _Compared:
    """One number compared: the verdict, the unit it was read in, and why an agreeing
    number may prove nothing (`unproven`, `unread`, `through` a loose tolerance)."""

    name: str
    base: str
    written: numbers.Item
    at_number: numbers.Item
    where: Location
    unit: str | None
    verdict: Verdict
    against: _Against
    unproven: bool
    unread: str
    through: bool
    notes: list[Loose]


_STATED = re.compile(
    r"(?:^|(?<=[\s(,;:]))(?<![-+−×·/*=≈]\s)([A-Za-z](?:\\?_\{?[A-Za-z0-9]+\}?)?)\s*(=|≈)?\s*$"
)
_COMPARATOR = re.compile(r"(<=|>=|≤|≥|<|>|=|≈)\s*$")
_DIFFERENCE = re.compile(
    r"\b(?:difference|rise|drop|change|increase|decrease|swing|gradient|excess)\b",
    re.IGNORECASE,
)
_BOUND_WORDS = re.compile(
    r"\b(?:at least|at most|more than|less than|fewer than|greater than|above|below|under|"
    r"over|exceeds?|up to|no more|no less|within|beyond|minimum|maximum|min|max)\b",
    re.IGNORECASE,
)
_EQUAL_WORDS = re.compile(
    r"(?:\b(?:is|are|was|equals?|exactly|comes? to|amounts? to|totals?|gives|makes)\b"
    r"(?:\s+exactly)?|=)\s*$",
    re.IGNORECASE,
)
BOUND_SIGNS = {"<": "<", ">": ">", "≤": "<=", "<=": "<=", "≥": ">=", ">=": ">="}
FRACTIONS = ("%", "ppm")  # units of a pure number: what a quoted one is compared in


@dataclass
class Binder:
    """Compares a lesson's quoted numbers with its claims' outcomes, and records what the
    comparisons found for coverage: `evaluated`, which claims' numbers verified each
    relation, and `contradicted`, the wrong numbers each relation computed."""

    file: ClaimsFile
    lesson: Lesson
    locator: Locator
    tolerance: Any
    evaluated: dict[tuple[int, int], set[str]] = field(default_factory=dict)
    contradicted: list[tuple[frozenset[tuple[int, int]], str]] = field(default_factory=list)

    def _unit(self, name: str, written: numbers.Item, outcome: Outcome) -> tuple[str | None, bool]:
        """The unit of the bound quantity (registry.quantity_unit), when the quoted number writes
        a unit of its own (`V_T` is in V; the prose says `25.9 mV`)."""
        quoted = written.result if isinstance(written, numbers.Arithmetic) else written
        if not isinstance(quoted, numbers.Quantity) or quoted.unit is None:
            return None, False
        found = quantity_unit(self.lesson, outcome, name)
        base = name.split("[", 1)[0]
        computed = base not in outcome.inputs  # an input proves nothing
        tabled = bool(self.lesson.glossaries)  # without a symbol table no unit is claimed
        if found == (None, False) and computed and quoted.unit in FRACTIONS:
            # `75%` of a pure ratio is 0.75 (a bare 75 would pass `0.75%`); a lesson that
            # computes the percentage itself agrees only bare, which A423 says
            return "dimensionless", True
        if found == (None, False) and computed and tabled:
            if base not in named(self.lesson) and is_level(quoted.unit):
                return "dimensionless", False  # `ratio = 11 dB` for a pure number: no level
            if _dimensioned(quoted.unit):
                return None, True  # `0.0014 mS` for a value nothing gives a unit: bare at best
        return found

    def _misstated(
        self,
        name: str,
        whole: bool,
        number: numbers.Item,
        computed: Any,
        outcome: Outcome,
        options: dict[str, Any],
    ) -> str:
        """Why the sentence does not state what the bind compares (or ""): the number is
        written for another symbol the claim computes, or after a sign other than the
        bind's `relation`. `whole` is False for an operand of worked arithmetic."""
        base = name.split("[", 1)[0]
        stated = self._stated_symbol(number, base, computed, outcome) if whole else None
        if stated is not None:
            return (
                f"the lesson writes {stated} {_as_stated(number.text)}, but the bind compares "
                f"it with {name}; bind {stated}, or quote the sentence that states {name}"
            )
        relation = options.get("relation")
        sign = self._comparator(number) if relation else None
        if sign and BOUND_SIGNS.get(sign) != relation:
            return (
                f"the lesson writes {sign} {number.text.lstrip('≈~∼ ')}, but the bind checks "
                f"{name} {relation} it; the bind's relation must be the one the sentence states"
            )
        if relation and sign is None and (said := self._equal_words(number)):
            return (
                f"the lesson states {name} {said} {number.text}, an equality, but the bind "
                f"checks {name} {relation} it; a bound holds for many values, so it cannot "
                "prove the one the sentence states"
            )
        return ""

    def _equal_words(self, number: numbers.Item) -> str | None:
        """The words before a number that state it as a value, not a bound (`is exactly`,
        `equals`, `comes to`), when no bound word (`at least`, `below`) is among them."""
        before = self.lesson.content[max(0, number.start - 40) : number.start]
        clause = re.split(r"[.;:,]\s", before)[-1]
        if _BOUND_WORDS.search(clause):
            return None
        found = _EQUAL_WORDS.search(clause)
        return found.group(0).strip() if found else None

    def _difference(self, name: str) -> bool:
        """Whether a symbol is a difference of two values (`ΔT`, a name that says so:
        `rise`, `T_drop`, or a glossary meaning that does: `temperature rise`), so a °C
        number of it is an interval: 10 °C of rise is 10 K, not 283.15 K."""
        if name.startswith(("Delta", "delta")) or _DIFFERENCE.search(name.replace("_", " ")):
            return True
        for glossary in self.lesson.glossaries:
            for entry in glossary.entries:
                if name in entry.names and _DIFFERENCE.search(entry.meaning):
                    return True
        return False

    def _comparator(self, number: numbers.Item) -> str | None:
        """The sign the prose writes right before a number (`Q < 0.5`, `≈ 30`), if any."""
        if isinstance(number, numbers.Quantity) and number.approx:
            return "≈"
        found = _COMPARATOR.search(self.lesson.content, max(0, number.start - 8), number.start)
        return found.group(1) if found is not None else None

    def _stated_symbol(
        self, number: numbers.Item, base: str, computed: Any, outcome: Outcome
    ) -> str | None:
        """Another symbol the prose sets this number to (`Q ≈ 68.42` bound to Z_0), one the
        claim computed too, to another value, written plainly before `=` or `≈`. None when
        it is the bound one, a symbol the claim does not compute (`t_50` for t_x at
        x = 1/2), or when what precedes is not a plain statement of one symbol
        (`V_GS − V_th = 0.3 V` states V_ov: an operator before it means a chain)."""
        before = self.lesson.content[max(0, number.start - 60) : number.start]
        approx = isinstance(number, numbers.Quantity) and number.approx
        found = _STATED.search(before)
        if found is None or not (found.group(2) or approx):
            return None
        symbol = found.group(1).replace("\\_", "_").replace("{", "").replace("}", "")
        tabled = named(self.lesson)
        if symbol == base or symbol not in tabled or base not in tabled:
            return None
        other = outcome.quantities.get(symbol)
        if other is None or isinstance(other, (list, tuple)) or not hasattr(other, "equals"):
            return None
        try:
            gap = abs(sympy.N(other - computed, 30))
            same = bool(gap <= sympy.Rational(1, 10**12) * (abs(sympy.N(computed, 30)) + 1))
        except (TypeError, ValueError, ArithmeticError, AttributeError):
            return None
        return None if same else symbol

    def _pure_ratio(self, name: str, written: numbers.Item, outcome: Outcome) -> numbers.Item:
        """A bare `0.1` bound to `f_c/f_GBW` worked out in kHz/MHz is a pure number: the
        computed 100 is converted to it, not compared bare (which would pass a wrong 100)."""
        quoted = written.result if isinstance(written, numbers.Arithmetic) else written
        if not isinstance(quoted, numbers.Quantity) or quoted.unit is not None:
            return written
        unit, presumed = quantity_unit(self.lesson, outcome, name)
        if unit is None or not presumed or _dimensioned(unit):
            return written
        try:
            scaled = units_of(unit).scale != 1
        except UnitError:
            return written
        if not scaled:
            return written
        pure = dataclasses.replace(quoted, unit="dimensionless")
        if isinstance(written, numbers.Arithmetic):
            return dataclasses.replace(written, result=pure)
        return pure

    def _header_unit(
        self, written: numbers.Item, name: str, bound: str | None, outcome: Outcome
    ) -> numbers.Item:
        """A bare number in a table cell under `q (kW)` is in kW (tables.header_unit), and
        is converted like a unit written after it. A header unit of another dimension than
        a count's (`N (bits)` for a number of bits) names what is counted, not a unit."""
        if not isinstance(written, numbers.Quantity) or written.unit is not None:
            return written
        unit = tables.header_unit(self.lesson.content, written.start)
        if unit is None:
            return written
        target = bound or quantity_unit(self.lesson, outcome, name)[0]
        if unit == target:
            return written  # compared in that unit anyway
        if target is not None and not convertible(unit, target):
            try:
                if units_of(target).dimension.is_dimensionless:
                    return written
            except UnitError:
                return written  # a table unit that does not read (A421): compared bare
        return dataclasses.replace(written, unit=unit)

    def _letter_unit(self, written: numbers.Item, base: str, outcome: Outcome) -> numbers.Item:
        """`0.5 L` for a volume in mL: the prose reader leaves single letters that are more
        often variables (`L`, `T`, `N`) out of units; bound to a quantity of that dimension,
        the letter is its unit, so it is converted rather than compared bare. A level in
        dB is kept as written, and fails, after a number of a dimensioned quantity or of a
        plain ratio (`G = 11 dB` for a gain of 11 is 20.83 dB, or 10.41 dB of power): only
        a table unit that names a level (`dimensionless (dB)`) lets dB stand bare. A word
        meant as a unit that the vocabulary does not read (`10.8 mw`, `5 Nm`:
        `unit_attempt`) is kept too, after a number of a quantity with a dimension, so it
        fails rather than passing as a bare number."""
        if not isinstance(written, numbers.Quantity) or written.unit is not None:
            return written
        spec = lesson_units(self.lesson).get(base)
        content = self.lesson.content
        if spec.units is None if spec is not None else base in named(self.lesson):
            return written  # a unit the table cannot read (A421): compared bare, as before
        if spec is None or spec.units is None:  # (spec is None here; the test narrows for mypy)
            # An expression the table does not name (`ratio = 10 dB` for f/f_0 = 10) is a
            # level only when it computes one (`20\log_{10} G`; the claim marks it "dB")
            computed = base not in outcome.inputs and bool(self.lesson.glossaries)
            if not computed or outcome.units.get(base) == LEVEL:
                return written
            found = level_after(content, written.end)
        else:
            found = excluded_unit_after(content, written.end, spec.units.dimension)
            if found is None and not names_level(spec.text):
                found = level_after(content, written.end)  # `0.05 dB` for a voltage: not bare
            if found is None and not spec.units.dimension.is_dimensionless:
                unread = unread_unit_after(content, written.end)  # `10.8 mw`: not bare
                found = unread[:2] if unread is not None else None
        if found is None:
            return written
        letter, end = found  # the span stays the number's: coverage counts numbers
        return dataclasses.replace(
            written, unit=letter, text=written.text + content[written.end : end]
        )

    def bind(
        self,
        spec: dict[str, Any],
        pointer: str,
        quote_items: list[numbers.Item],
        found: list[anchors.Occurrence],
        outcome: Outcome,
        result: ClaimResult,
        fail: Fail,
    ) -> None:
        """Compare every number written at every occurrence with what it is bound to."""
        if not spec.get("quote"):
            return
        expected = spec.get("occurrences")
        if expected is not None and len(found) < expected:
            self.lost(spec, pointer, found, result)
        binding = spec.get("bind")
        if binding is None:
            binding = [None] * len(quote_items)
        if len(binding) != len(quote_items) and len(binding) == len(_flat(quote_items)):
            # a claims file written when this working was not read as arithmetic
            # (`−ln 0.25 ≈ 1.386`) binds its operands and result one by one: still valid
            quote_items = _flat(quote_items)
            found = [dataclasses.replace(o, items=_flat(o.items)) for o in found]
        if len(binding) != len(quote_items):
            listed = ", ".join(item.text for item in quote_items) or "none"
            message = (
                f"the quote has {len(quote_items)} numbers ({listed}) but bind lists {len(binding)}"
            )
            if any(isinstance(item, numbers.Arithmetic) for item in quote_items):
                message += (
                    "; worked arithmetic is one entry, its result, with its operands in "
                    "`{value: name, operands: [...]}`"
                )
            fail(codes.BINDING, self.file.at(pointer + "/bind"), message)
            return
        tolerance = spec.get("tolerance", self.tolerance)
        tolerances = [tolerance] + [b.get("tolerance") for b in binding if isinstance(b, dict)]
        for value in tolerances:
            try:
                parse_tolerance(value)
            except ValueError as error:
                fail(codes.ERROR, self.file.at(pointer), f"bad tolerance: {error}")
                return
        tolerance = None if tolerance in (None, "auto") else tolerance
        refused = refused_units(self.lesson, binding)
        for index, problem in refused.items():  # A404 at the `unit`, once per claim
            fail(codes.ERROR, self.file.at(f"{pointer}/bind/{index}/unit"), problem)
        unknown: set[str] = set()  # names the claim does not compute, told once (A404)
        notes: dict[str, tuple[Any, list[Loose]]] = {}  # tolerance pointer -> what it loosened
        for occurrence in found:
            for index, (item, bound) in enumerate(zip(occurrence.items, binding, strict=True)):
                result.numbers_total += 1
                if bound is not None:
                    result.numbers_bound += 1
                    if index in refused:  # compared in a unit the table contradicts: not at all
                        result.spots += [(*span, "failed") for span in _number_spans(item)]
                        continue
                    options = bound if isinstance(bound, dict) else {"value": bound}
                    rounded = anchors.approximate(self.lesson.content, item, occurrence)
                    entry = _Entry(item, options, outcome, options.get("tolerance", tolerance),
                                   rounded, pointer, result, fail, unknown)  # fmt: skip
                    loosened = self._bind_item(entry)
                    if loosened:
                        where, value = tolerance_at(spec, pointer, bound, index, self.tolerance)
                        notes.setdefault(where, (value, []))[1].extend(loosened)
        for where, (value, loosened) in notes.items():
            fail(codes.LOOSE_TOLERANCE, self.file.at(where), loose_message(value, loosened))

    def _unread(self, name: str, number: numbers.Item, unit: str | None, outcome: Outcome) -> str:
        """Why a number that agrees proves nothing through a table unit that does not read
        (A421), or "": its own symbol's (`L = 10 µH` with L in `nh`: the prefix cannot be
        checked, input or not), or one the claim computed it from (`E = P t` with P in `mw`
        takes the factor between the units as 1)."""
        table = unread_units(self.lesson)
        base = name.split("[", 1)[0]
        written = getattr(number, "unit", None)
        own = table.get(base)
        if own is not None and unit is None and written is not None and written != own.strip():
            return (
                f"is compared only as a bare number: the symbol table gives {base} the unit "
                f"`{own}`, which does not read (A421), so {written} is not converted to it and "
                f"the number is not counted as verified. Correct {base}'s unit in the table"
            )
        went = [] if base in outcome.inputs else outcome.unread.get(base, [])
        if not went:
            return ""
        listed = ", ".join(f"{symbol} (`{table.get(symbol, '?')}`)" for symbol in went)
        return (
            f"agrees, but the claim computes {name} from {listed}, whose unit in the symbol "
            "table does not read (A421), so the factor between the units is not known and the "
            "number is not counted as verified. Correct the unit in the table"
        )

    def _bind_item(self, entry: _Entry) -> list[Loose]:
        """Compare one bind entry's number (and its operands); returns the numbers the
        author's tolerance compared more loosely than their digits (options.loose). A name
        the claim does not compute is one problem of the claims file, however many places
        the quote is found at (`occurrences: 2`): an A404 the first time, kept in
        `entry.unknown`, and skipped after."""
        options, item = entry.options, entry.item
        loosened: list[Loose] = []
        pairs: list[tuple[numbers.Item, str]] = []
        if options.get("value"):
            pairs.append((item, options["value"]))
        if isinstance(item, numbers.Arithmetic):
            names = options.get("operands") or []
            pairs += [(o, n) for o, n in zip(item.operands, names, strict=False) if n]
        for written, name in pairs:
            if name in entry.unknown:
                continue
            try:
                computed = lookup(entry.outcome.quantities, name)
            except ClaimError as error:
                entry.unknown.add(name)
                entry.fail(codes.ERROR, self.file.at(entry.pointer + "/bind"), str(error))
                continue
            compared = self._compare(entry, name, written, computed)
            if compared is not None:
                loosened += compared.notes
                self._record(entry, compared)
        return loosened

    def _compare(
        self, entry: _Entry, name: str, written: numbers.Item, computed: Any
    ) -> _Compared | None:
        """One number against the quantity it is bound to, in the unit it is read in: the
        verdict and what it rests on. A number misstated for its quantity (A401 before any
        comparison: `_misstated`) is reported here, and None returned."""
        options, outcome = entry.options, entry.outcome
        base = name.split("[", 1)[0]
        written = self._header_unit(written, name, options.get("unit"), outcome)
        written = self._letter_unit(written, base, outcome)
        if options.get("unit") is None:
            written = self._pure_ratio(name, written, outcome)
        at_number = written.result if isinstance(written, numbers.Arithmetic) else written
        where = self.locator.content(at_number.start)
        problem = self._misstated(
            name, written is entry.item, at_number, computed, outcome, options
        )
        if problem:
            entry.fail(codes.MISMATCH, where, f"{name}: {problem}")
            row = _row(name, at_number.text, "", "", False, base in outcome.inputs, where)
            entry.result.values.append(row)
            for start, end in _number_spans(written):
                entry.result.spots.append((start, end, "failed"))
            return None
        unit, presumed = options.get("unit"), False
        if unit is None:
            unit, presumed = self._unit(name, written, outcome)
        against = _Against(written, computed, entry.allowed, options.get("relation"),
                           entry.rounded, self._difference(base))  # fmt: skip
        converts = not presumed or convertible(getattr(at_number, "unit", None), unit)
        verdict = against(unit if converts else None)
        unproven = False
        if presumed and not (converts and verdict.ok):
            bare = against(None)
            unproven, verdict = bare.ok, bare if bare.ok or not converts else verdict
        notes = [] if options.get("relation") else loose(written, entry.allowed, entry.rounded)
        if notes and verdict.ok and not unproven:  # does it agree to its own digits?
            digits = min(note.needed for note in notes)
            through = not against(unit if converts else None, allowed=digits).ok
            for note in notes:
                note.through = through
        through = any(note.through for note in notes)
        unread = self._unread(name, at_number, unit, outcome) if verdict.ok else ""
        unproven = unproven or bool(unread)
        return _Compared(name, base, written, at_number, where, unit, verdict, against,
                         unproven, unread, through, notes)  # fmt: skip

    def _record(self, entry: _Entry, compared: _Compared) -> None:
        """What one comparison tells the report: its row, the class of its number, A423 or
        A421 when it agreed without proving, the relations it verified or blames, and the
        A401 of a wrong number."""
        name, base, verdict = compared.name, compared.base, compared.verdict
        outcome, result = entry.outcome, entry.result
        ok = verdict.ok and not compared.unproven and not compared.through
        given = base in outcome.inputs
        row = _row(name, verdict.quoted, verdict.computed, verdict.tolerance, ok, given,
                   compared.where)  # fmt: skip
        result.values.append(row)
        kind = "failed" if not verdict.ok else "input" if given else "verified"
        if compared.unproven:
            kind = self._unproven(entry, compared, kind)
        if ok and not given:
            result.proved.add("".join(name.split()))
        if compared.through:  # it agrees only within a tolerance looser than its digits (A416)
            kind = ""
        for start, end in _number_spans(compared.written) if kind else ():
            result.spots.append((start, end, kind))
        refs = outcome.depends.get(base, set())
        where = compared.where
        if ok:  # a relation is verified by a number that proves it, not one that agrees
            for ref in refs:
                self.evaluated.setdefault(ref, set()).add(result.claim_id)
        elif refs and not verdict.ok and not verdict.unmarked:
            # a wrong number blames its relations (an unmarked rounding does not)
            place = f"{where.path}:{where.line}:{where.column}"
            sign = "" if verdict.computed.startswith("≈") else "= "  # not `r_d = ≈ 0.03`
            said = f"{name} {sign}{verdict.computed} where the lesson says {verdict.quoted}"
            self.contradicted.append((frozenset(refs), f"{said} ({place})"))
        if not verdict.ok:
            entry.fail(codes.MISMATCH, where, self._wrong(entry, compared))

    def _unproven(self, entry: _Entry, compared: _Compared, kind: str) -> str:
        """The A423 (agrees only as a bare number) or A421 (through a unit that does not
        read) of a number that agreed without proving; the class its number keeps."""
        name, base, unit, unread = compared.name, compared.base, compared.unit, compared.unread
        verdict, outcome = compared.verdict, entry.outcome
        written_unit = getattr(compared.at_number, "unit", None)
        why = (
            f"from its symbols' units the claim works {name} out in {unit}"
            if unit is not None
            else f"nothing gives {name} a unit (no symbol-table entry, no unit in the bind)"
        )
        fix = (
            "If the expression's constants carry units, say so in the bind"
            if unit is not None
            else f"Give {name} a unit in the symbol table, or in the bind"
        )
        advised, aside = written_unit, ""
        if self._difference(base) and _temperature_point(written_unit):
            advised = "K"  # `unit: °C` would make the computed value a temperature
            aside = (
                f" ({name} is a difference of temperatures: {verdict.quoted} is an "
                f"interval, which `unit: {written_unit}` would read as a temperature)"
            )
        plain = (
            f"{name}: {verdict.quoted} agrees only as a bare number; {why}, so the "
            f"number is not counted as verified. {fix}: "
            f"{{value: {name}, unit: {advised}}}{aside}"
        )
        said = f"{name}: {verdict.quoted} {unread}" if unread else plain
        entry.fail(codes.UNIT_UNPROVEN, compared.where, said)
        kind = "input" if kind == "input" and not unread else ""
        if base not in outcome.inputs:  # a claim comparing with it proves nothing
            how = "through a unit that does not read" if unread else "as a bare number"
            said = f"{name} = {verdict.quoted}, which agrees only {how} (A423)"
            entry.result.unproven.setdefault("".join(name.split()), said)
        return kind

    def _wrong(self, entry: _Entry, compared: _Compared) -> str:
        """The A401 message of a wrong number, with the hint that fits how it was read."""
        name, base, verdict = compared.name, compared.base, compared.verdict
        options, outcome, at_number = entry.options, entry.outcome, compared.at_number
        said = "the claim fixes" if base in outcome.inputs else "computed"
        message = f"{name}: the lesson says {verdict.quoted}, {said} {verdict.computed}"
        hint = verdict.hint
        written_unit = getattr(at_number, "unit", None)
        if is_level(written_unit):
            hint = _level_hint(name)
        elif written_unit is not None and _from_header(self.lesson.content, at_number):
            hint = f"{at_number.text} is in {written_unit}, as its column's header says"
        elif written_unit is not None and unit_attempt(written_unit) is not None:
            hint = (
                f"a number is compared bare in {name}'s unit only when nothing after "
                "it is meant as a unit; write one that docs/units.md lists"
            )
        worked = outcome.units.get(base)
        if options.get("unit") and worked and convertible(options["unit"], worked):
            if compared.against(worked).ok:  # the bind's unit was read as a conversion
                hint = (
                    f"the bind's unit {options['unit']} replaces the unit the claim "
                    f"works {name} out in, {worked}, and the lesson's number agrees in "
                    "that one: leave `unit` out of the bind"
                )
        return message + (f" ({hint})" if hint else "")

    def lost(
        self,
        spec: dict[str, Any],
        pointer: str,
        found: list[anchors.Occurrence],
        result: ClaimResult,
    ) -> None:
        """A402 at the quote in claims.yaml, naming the closest text left in the lesson."""
        near = anchors.nearest(spec["quote"], self.lesson.content)
        hint = ""
        if near is not None:
            hint = f"; the closest text is {closest(self.lesson.content, self.locator, near)}"
        expected = spec.get("occurrences")
        count = f"found {len(found)} of {expected} occurrences" if found else "quote not found"
        message = f"claim {result.claim_id}: {count} in the lesson{hint}"
        result.diagnostics.append(at(codes.ANCHOR, self.file.at(pointer + "/quote"), message))


def closest(content: str, locator: Locator, near: int) -> str:
    """`at lesson.md:12:1: "the line there"`: where a lost quote's closest text is."""
    place = locator.content(near)
    found = f"at {place.path}:{place.line}:{place.column}"
    if place.content_line is not None:
        found += f" (content line {place.content_line})"
    line = content[near:].partition("\n")[0].strip()
    shown = line if len(line) <= 160 else line[:159] + "…"
    return found + (f": {json.dumps(shown, ensure_ascii=False)}" if shown else "")


def _row(
    name: str,
    quoted: str,
    computed: str,
    tolerance: str | None,
    ok: bool,
    given: bool,
    where: Location,
) -> ValueJSON:
    """One compared value as the report lists it (`given`: an input the claim fixes)."""
    return {
        "name": name,
        "quoted": quoted,
        "computed": computed,
        "tolerance": tolerance,
        "ok": ok,
        "input": given,
        "line": where.line,
        "column": where.column,
    }


def _as_stated(text: str) -> str:
    """`≈ 68.42` as written, `0.3 V` as `= 0.3 V`: what follows the symbol."""
    return text if text.startswith(("≈", "~", "∼")) else f"= {text}"


def _flat(items: list[numbers.Item]) -> list[numbers.Item]:
    """Worked arithmetic as the single numbers it writes: operands, then the result."""
    flat: list[numbers.Item] = []
    for item in items:
        flat += [*item.operands, item.result] if isinstance(item, numbers.Arithmetic) else [item]
    return flat


def _number_spans(item: numbers.Item) -> list[tuple[int, int]]:
    """Content spans of the single numbers a compared item writes."""
    if isinstance(item, numbers.NumberList):
        return [(q.start, q.end) for q in item.items]
    if isinstance(item, numbers.Arithmetic):
        return [(item.result.start, item.result.end)]
    return [(item.start, item.end)]


def _level_hint(name: str) -> str:
    """What to do about a level in dB written for a quantity that is not one."""
    return (
        f"a level in dB is not {name} itself, and whether it is 20 log10 (amplitude) or "
        f"10 log10 (power) of it cannot be told, so it is not converted: bind a level "
        f"expression such as `20\\log_{{10}} {name}`, or, if {name} is a level, give it the "
        f"unit `dimensionless (dB)` in the symbol table"
    )


def _from_header(content: str, number: object) -> bool:
    """Whether a number's unit is the one its table column's header gives (`q (kW)`)."""
    if not isinstance(number, numbers.Quantity) or number.unit is None:
        return False
    written = number.text.endswith(number.unit)
    return not written and tables.header_unit(content, number.start) == number.unit


def _temperature_point(unit: str | None) -> bool:
    """Whether a unit is a temperature on a scale whose zero is not absolute (°C, °F)."""
    if unit is None:
        return False
    try:
        return units_of(unit).offset != 0
    except UnitError:
        return False


def _dimensioned(unit: str) -> bool:
    """Whether a unit written after a number has a dimension (`mS`; not `%`); a unit
    the vocabulary cannot read counts as one, since the number is not bare either."""
    try:
        return not units_of(unit).dimension.is_dimensionless
    except UnitError:
        return True
