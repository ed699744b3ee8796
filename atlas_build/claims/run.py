"""Evaluate a lesson's claims and bind every checked number to the sentence that states it."""

from __future__ import annotations

import dataclasses
import json
import math
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from pydantic import ValidationError

from atlas_build import engine
from atlas_build.budget import Budget
from atlas_build.cache import Cache, digest, fingerprint
from atlas_build.claims import anchors, codec, codes, messages, numbers, tables
from atlas_build.claims.compare import Verdict, compare, parse_tolerance
from atlas_build.claims.dimensions import lesson_units, named
from atlas_build.claims.file import ClaimsFile
from atlas_build.claims.registry import (
    DEFAULT_TIMEOUT,
    KINDS,
    LEVEL,
    ClaimError,
    ClaimTimeout,
    Context,
    Outcome,
    lookup,
    quantity_unit,
    timed,
)
from atlas_build.diagnostics import Code, Diagnostic, Location, Severity, at
from atlas_build.latex import EvaluationError, LatexError
from atlas_build.lesson.model import Lesson
from atlas_build.source import Locator
from atlas_build.text import plural
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
FAILING = {codes.MISMATCH.code, codes.ANCHOR.code, codes.FAILED.code, codes.ARITHMETIC.code}


@dataclass
class ClaimResult:
    claim_id: str
    kind: str
    status: str = "pass"
    message: str = ""
    location: Location | None = None
    quote: str | None = None
    values: list[dict[str, Any]] = field(default_factory=list)
    checks: list[dict[str, Any]] = field(default_factory=list)
    seconds: float = 0.0
    diagnostics: list[Diagnostic] = field(default_factory=list)
    numbers_total: int = 0
    numbers_bound: int = 0
    spots: list[tuple[int, int, str]] = field(default_factory=list)  # (start, end, class)
    spans: list[tuple[int, int]] = field(default_factory=list)  # where the quote was found
    anchor: dict[str, int | str] | None = None  # the equation or quiz question, unquoted

    def to_json(self) -> dict[str, Any]:
        where = None
        if self.location is not None:
            where = {
                "path": self.location.path,
                "line": self.location.line,
                "column": self.location.column,
                "contentLine": self.location.content_line,
                "contentColumn": self.location.content_column,
            }
        return {
            "id": self.claim_id,
            "kind": self.kind,
            "status": self.status,
            "message": self.message,
            "location": where,
            "quote": self.quote,
            "spans": [list(span) for span in self.spans],
            "anchor": self.anchor,
            "values": self.values,
            "checks": self.checks,
        }


def _anchor(spec: dict[str, Any]) -> dict[str, int | str] | None:
    """What a claim without a quote is about, as its own params say: a display equation
    (`equation: N`) or a quiz question (`question: text`), so a page can link to it."""
    if spec.get("quote"):
        return None
    params = spec.get("params") or {}
    if not isinstance(params, dict):
        return None
    equation, question = params.get("equation"), params.get("question")
    if isinstance(equation, int) and not isinstance(equation, bool):
        return {"equation": equation}
    if isinstance(question, str):
        return {"question": question}
    return None


def _merge(base: dict[str, Any], own: dict[str, Any]) -> dict[str, Any]:
    merged = dict(base)
    for key, value in own.items():
        if isinstance(value, dict) and isinstance(merged.get(key), dict):
            merged[key] = _merge(merged[key], value)
        else:
            merged[key] = value
    return merged


class LessonClaims:
    """Runs one lesson's claims file; claims may reference each other's quantities."""

    def __init__(
        self,
        claims: ClaimsFile,
        lesson: Lesson,
        locator: Locator,
        cache: Cache | None = None,
        budget: Budget | None = None,
    ) -> None:
        self.cache = cache or Cache(None)
        self.budget = (budget or Budget()).started()
        self.lesson_deadline = time.monotonic() + self.budget.lesson_seconds
        self.file = claims
        self.lesson = lesson
        self.locator = locator
        self.skeleton = anchors.skeleton(lesson.content)
        self.specs = {spec["id"]: (index, spec) for index, spec in enumerate(claims.data["claims"])}
        self.outcomes: dict[str, Outcome | Exception] = {}
        self.evaluated: dict[tuple[int, int], set[str]] = {}  # relation -> claims binding it
        self.contradicted: list[tuple[frozenset[tuple[int, int]], str]] = []  # wrong numbers
        self.told: dict[tuple[str, str, int | None], str] = {}  # failed check -> claim told
        self._running: list[str] = []
        self.uses: dict[str, set[str]] = {}  # claim -> the claims whose quantities it read
        defaults = claims.data.get("defaults", {})
        self.timeout = float(defaults.get("timeout", DEFAULT_TIMEOUT))
        self.tolerance = defaults.get("tolerance")

    def outcome(self, claim_id: str, *, direct: bool = False) -> Outcome:
        """Evaluate (once) the kind of a claim; used directly and by references. A claim
        that cannot be evaluated raises its own error when run directly, and one naming it
        for every claim that uses it (not the other claim's message as if it were theirs)."""
        if claim_id not in self.specs:
            raise ClaimError(f"no claim with id {claim_id!r} in {self.file.path}")
        if claim_id in self._running:
            raise ClaimError(
                "claims reference each other in a cycle: " + " -> ".join(self._running)
            )
        cached = self.outcomes.get(claim_id)
        if isinstance(cached, Exception):
            if direct:
                raise cached
            raise ClaimError(f"claim {claim_id!r} failed to evaluate: {cached}")
        if cached is not None:
            return cached
        index, spec = self.specs[claim_id]
        kind = KINDS.get(spec["kind"])
        try:
            if kind is None:
                known = ", ".join(sorted(KINDS))
                raise ClaimError(f"unknown claim kind {spec['kind']!r} (known: {known})")
            try:
                params = kind.params.model_validate(self._params(claim_id))
            except ValidationError as error:
                message, pointer = messages.explain(error, kind.params, kind.name)
                raise ClaimError(message, pointer=f"/claims/{index}{pointer}") from None
        except ClaimError as error:
            self.outcomes[claim_id] = error
            if direct:
                raise
            raise ClaimError(f"claim {claim_id!r} failed to evaluate: {error}") from None
        texts = [self.lesson.content[o.start : o.end] for o in self._occurrences(spec)[1]]
        resolved: list[str] = []

        def resolve(other: str) -> Outcome:
            resolved.append(other)
            return self.outcome(other)

        context = Context(self.lesson, claim_id, texts, resolve, self.budget.memory_bytes)
        key = self._key(spec["kind"], params, texts)
        payload = self.cache.get("claim", key) if kind.cacheable else None
        placed = self._placed(payload) if payload is not None else None
        if placed is not None:
            self.outcomes[claim_id] = placed
            return placed
        self._running.append(claim_id)
        limits = engine.set_size_limits(max_bytes=self.budget.memory_bytes)
        try:
            result = kind.run(params, context)
            self.uses[claim_id] = set(resolved)
        except Exception as error:
            self.outcomes[claim_id] = error
            raise
        finally:
            engine.set_size_limits(max_bytes=limits.max_bytes, max_flops=limits.max_flops)
            self._running.pop()
        portable = self._portable(result) if kind.cacheable and not resolved else None
        if portable is not None:  # what reads other claims is not content-addressed
            self.cache.put("claim", key, portable)
        self.outcomes[claim_id] = result
        return result

    def _key(self, kind: str, params: Any, texts: list[str]) -> str:
        """Everything a kind reads through its Context: its parameters, the lesson's
        display equations and the text its quote matched. Kinds that read quizzes or
        other claims go through `resolve`, and their outcomes are never cached."""
        return digest(
            fingerprint(),
            kind,
            params.model_dump_json(),
            json.dumps([math.latex for math in self.lesson.display_math]),
            json.dumps(texts, ensure_ascii=False),
        )

    def _portable(self, outcome: Outcome) -> bytes | None:
        """`outcome` as cache JSON, with each check's offset as (display equation, offset
        within it): the key holds the equations' text, not where they sit, so a lesson that
        moves an equation, or another lesson sharing it, gets its own positions back.
        None (not cached) when a check lies outside every display equation, or a quantity
        has no safe JSON form."""
        places: list[tuple[int, int] | None] = []
        for check in outcome.checks:
            if check.offset is None:
                places.append(None)
                continue
            math = next(
                (m for m in self.lesson.display_math
                 if m.offset <= check.offset <= m.offset + len(m.latex)),
                None,
            )  # fmt: skip
            if math is None:
                return None
            places.append((math.index, check.offset - math.offset))
        try:
            encoded = codec.encode_outcome(outcome, places)
        except codec.Unsupported:
            return None
        return json.dumps(encoded, ensure_ascii=True).encode("ascii")

    def _placed(self, payload: bytes) -> Outcome | None:
        """The cached outcome with its checks located in this lesson's content."""
        try:
            outcome, places = codec.decode_outcome(json.loads(payload))
        except (ValueError, TypeError, ArithmeticError, RecursionError):
            return None
        equations = self.lesson.display_math
        checks = []
        for check, place in zip(outcome.checks, places, strict=True):
            if place is not None:
                index, within = place
                if index >= len(equations):
                    return None
                check = dataclasses.replace(check, offset=equations[index].offset + within)
            checks.append(check)
        return dataclasses.replace(outcome, checks=checks)

    def quiz_questions(self) -> dict[str, str]:
        """Claim id -> the question text of each `quiz` claim (with what it `extends`)."""
        found = {}
        for claim_id, (_, spec) in self.specs.items():
            if spec.get("kind") != "quiz":
                continue
            try:
                question = self._params(claim_id).get("question")
            except ClaimError:
                continue
            if isinstance(question, str):
                found[claim_id] = question
        return found

    def _params(self, claim_id: str, seen: tuple[str, ...] = ()) -> dict[str, Any]:
        """A claim's params on top of those of the claim it `extends`."""
        spec = self.specs[claim_id][1]
        own = spec.get("params", {})
        base_id = spec.get("extends")
        if base_id is None:
            return dict(own)
        if base_id not in self.specs or base_id in seen:
            raise ClaimError(f"`extends: {base_id}` names no claim of this file (or a cycle)")
        return _merge(self._params(base_id, (*seen, claim_id)), own)

    def _occurrences(
        self, spec: dict[str, Any]
    ) -> tuple[list[numbers.Item], list[anchors.Occurrence]]:
        """The quote's numbers and the places it checks (anchors.choose)."""
        quote = spec.get("quote")
        if not quote:
            return [], []
        items, found = anchors.occurrences(quote, self.skeleton)
        row = anchors.table_row(quote)
        return items, anchors.choose(items, found, spec.get("occurrences"), row=row)

    def run(self) -> list[ClaimResult]:
        results = []
        for claim_id, (index, spec) in self.specs.items():
            results.append(self._run_one(claim_id, index, spec))
        self._credit(results)
        for result in results:
            if result.status == "unchecked":
                index = self.specs[result.claim_id][0]
                where = result.location or self.file.at(f"/claims/{index}")
                result.diagnostics.append(
                    at(
                        codes.CHECKS_NOTHING,
                        where,
                        f"claim {result.claim_id}: {result.message}, so it proves nothing and "
                        "the lesson stays partly verified; bind a number it computes, add "
                        "`identities`, or merge it into the claim that states a result",
                    )
                )
        return results

    def _credit(self, results: list[ClaimResult]) -> None:
        """A claim that checks nothing itself, but whose quantities a passing claim checked
        (the ratio a quiz answer states), is proved through that claim: `pass`, naming it."""
        by_id = {result.claim_id: result for result in results}
        changed = True
        while changed:
            changed = False
            for user, used in sorted(self.uses.items()):
                if getattr(by_id.get(user), "status", None) != "pass":
                    continue
                for other in sorted(used):
                    result = by_id.get(other)
                    if result is not None and result.status == "unchecked":
                        result.status, changed = "pass", True
                        result.message = f"checked through claim {user!r}"

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
        if found == (None, False) and computed and tabled:
            if base not in named(self.lesson) and is_level(quoted.unit):
                return "dimensionless", False  # `ratio = 11 dB` for a pure number: no level
            if _dimensioned(quoted.unit):
                return None, True  # `0.0014 mS` for a value nothing gives a unit: bare at best
        return found

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

    def _param_at(self, pointer: str | None) -> Location | None:
        """The parameter in claims.yaml (or its nearest written parent: an inherited or
        missing parameter is reported where the claim or its `params` are)."""
        return self.file.at(pointer) if pointer else None

    def _content_at(self, offset: int | None) -> Location | None:
        return None if offset is None else self.locator.content(offset)

    def _run_one(self, claim_id: str, index: int, spec: dict[str, Any]) -> ClaimResult:
        result = ClaimResult(claim_id, spec["kind"], quote=spec.get("quote"))
        pointer = f"/claims/{index}"
        claim_at = self.file.at(pointer)
        quote_items, found = self._occurrences(spec)
        if found:
            result.location = self.locator.content(found[0].start)
        result.spans = [(occurrence.start, occurrence.end) for occurrence in found]
        result.anchor = _anchor(spec)
        seconds, spent, capped = self._allowance(float(spec.get("timeout", self.timeout)))
        if spent:
            result.diagnostics.append(at(codes.TIMEOUT, result.location or claim_at, spent))
            return self._finish(result, "error")
        if spec.get("quote") and not found:
            self._lost(spec, pointer, found, result)
            return self._finish(result, "fail")
        row = anchors.table_row(spec.get("quote") or "")
        if anchors.ambiguous(found, spec.get("occurrences"), row=row):
            places = ", ".join(_line(self.locator.content(place.start)) for place in found)
            message = (
                f"claim {claim_id}: the quote fits {len(found)} places that write different "
                f"numbers ({places}) and none better than the others, so each is checked; "
                "quote more of the statement (the whole row, a word beside it) to fit one"
            )
            quote_at = self.file.at(pointer + "/quote")
            result.diagnostics.append(at(codes.AMBIGUOUS, quote_at, message))

        def fail(code: Code, location: Location, message: str) -> None:
            result.diagnostics.append(at(code, location, f"claim {claim_id}: {message}"))

        try:
            outcome, result.seconds = timed(lambda: self.outcome(claim_id, direct=True), seconds)
        except ClaimTimeout as error:
            fail(codes.TIMEOUT, result.location or claim_at, capped or str(error))
            return self._finish(result, "error")
        except LatexError as error:
            fail(codes.LATEX, claim_at, f"{error.message} [{error.code}]")
            return self._finish(result, "error")
        except (ClaimError, EvaluationError, ValueError, ArithmeticError, TypeError) as error:
            offset = getattr(error, "offset", None)
            written: str | None = getattr(error, "pointer", None)
            if written is not None and written.startswith("/params"):
                written = f"/claims/{index}{written}"
            where = self._content_at(offset) or self._param_at(written)
            fail(codes.ERROR, where or claim_at, str(error))
            return self._finish(result, "error")
        except Exception as error:  # SymPy and NumPy raise many types; report, never crash
            fail(
                codes.ERROR,
                result.location or claim_at,
                f"evaluation failed: {type(error).__name__}: {error}",
            )
            return self._finish(result, "error")
        repeated = []
        for check in outcome.checks:
            result.checks.append({"name": check.name, "ok": check.ok, "message": check.message})
            if not check.ok:
                # claims that `extends` one inherit its identities: the same failed check at
                # the same place is told once, at the first claim, not once per variant
                told = self.told.setdefault((check.name, check.message, check.offset), claim_id)
                if told != claim_id:
                    repeated.append(told)
                    continue
                where = self._content_at(check.offset) or result.location or claim_at
                fail(codes.FAILED, where, f"{check.name}: {check.message}")
        self._bind(spec, pointer, quote_items, found, outcome, result, fail)
        failing = bool(repeated) or any(d.code in FAILING for d in result.diagnostics)
        erroring = any(d.severity is Severity.ERROR for d in result.diagnostics)
        finished = self._finish(result, "fail" if failing else "error" if erroring else "pass")
        if repeated and not result.diagnostics:
            finished.message = f"the check that fails claim {repeated[0]!r} fails here too"
        return finished

    def _allowance(self, own: float) -> tuple[float, str, str]:
        """Seconds this claim may run (its own timeout, capped by what is left of the
        lesson's and the run's budgets), why it may not run at all, and what to say if it
        is stopped by a budget rather than by its own timeout."""
        now = time.monotonic()
        lesson = (self.lesson_deadline - now, "lesson", self.budget.lesson_seconds, "lesson")
        run = ((self.budget.run_deadline or math.inf) - now, "run", self.budget.run_seconds, "run")
        for left, scope, total, flag in (lesson, run):
            if left <= 0:
                return (
                    0.0,
                    (
                        f"not run: the claims of this {scope} used their time budget of "
                        f"{total:g} s (--{flag}-time)"
                    ),
                    "",
                )
        left, scope, total, flag = min(lesson, run)
        if left >= own:
            return own, "", ""
        return (
            left,
            "",
            (
                f"stopped after {left:.3g} s, when the claims of this {scope} had used their time "
                f"budget of {total:g} s (--{flag}-time)"
            ),
        )

    def _bind(
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
            self._lost(spec, pointer, found, result)
        binding = spec.get("bind")
        if binding is None:
            binding = [None] * len(quote_items)
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
        for occurrence in found:
            for item, bound in zip(occurrence.items, binding, strict=True):
                result.numbers_total += 1
                if bound is not None:
                    result.numbers_bound += 1
                    rounded = anchors.approximate(self.lesson.content, item, occurrence)
                    self._bind_item(item, bound, outcome, tolerance, rounded, pointer, result, fail)

    def _bind_item(
        self,
        item: numbers.Item,
        bound: str | dict[str, Any],
        outcome: Outcome,
        tolerance: Any,
        rounded: anchors.Precision,
        pointer: str,
        result: ClaimResult,
        fail: Fail,
    ) -> None:
        options = bound if isinstance(bound, dict) else {"value": bound}
        pairs: list[tuple[numbers.Item, str]] = []
        if options.get("value"):
            pairs.append((item, options["value"]))
        if isinstance(item, numbers.Arithmetic):
            names = options.get("operands") or []
            pairs += [(o, n) for o, n in zip(item.operands, names, strict=False) if n]
        for written, name in pairs:
            try:
                computed = lookup(outcome.quantities, name)
            except ClaimError as error:
                fail(codes.ERROR, self.file.at(pointer + "/bind"), str(error))
                continue
            base = name.split("[", 1)[0]
            written = self._header_unit(written, name, options.get("unit"), outcome)
            written = self._letter_unit(written, base, outcome)
            if options.get("unit") is None:
                written = self._pure_ratio(name, written, outcome)
            at_number = written.result if isinstance(written, numbers.Arithmetic) else written
            where = self.locator.content(at_number.start)
            unit, presumed = options.get("unit"), False
            if unit is None:
                unit, presumed = self._unit(name, written, outcome)

            def against(
                unit: str | None, written: numbers.Item = written, computed: Any = computed
            ) -> Verdict:
                return compare(
                    written,
                    computed,
                    tolerance=options.get("tolerance", tolerance),
                    unit=unit,
                    relation=options.get("relation"),
                    approximate=rounded,
                )

            converts = not presumed or convertible(getattr(at_number, "unit", None), unit)
            verdict = against(unit if converts else None)
            unproven = False
            if presumed and not (converts and verdict.ok):
                bare = against(None)
                unproven, verdict = bare.ok, bare if bare.ok or not converts else verdict
            result.values.append(
                {
                    "name": name,
                    "quoted": verdict.quoted,
                    "computed": verdict.computed,
                    "tolerance": verdict.tolerance,
                    "ok": verdict.ok and not unproven,
                    "input": base in outcome.inputs,
                    "line": where.line,
                    "column": where.column,
                }
            )
            kind = "failed" if not verdict.ok else "input" if base in outcome.inputs else "verified"
            if unproven:
                written_unit = getattr(at_number, "unit", None)
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
                fail(
                    codes.UNIT_UNPROVEN,
                    where,
                    f"{name}: {verdict.quoted} agrees only as a bare number; {why}, so the "
                    f"number is not counted as verified. {fix}: "
                    f"{{value: {name}, unit: {written_unit}}}",
                )
                kind = "input" if kind == "input" else ""
            for start, end in _number_spans(written) if kind else ():
                result.spots.append((start, end, kind))
            refs = outcome.depends.get(base, set())
            if verdict.ok:
                for ref in refs:
                    self.evaluated.setdefault(ref, set()).add(result.claim_id)
            elif refs and not verdict.unmarked:  # a rounding left unmarked is no wrong relation
                place = f"{where.path}:{where.line}:{where.column}"
                sign = "" if verdict.computed.startswith("≈") else "= "  # not `r_d = ≈ 0.03`
                said = f"{name} {sign}{verdict.computed} where the lesson says {verdict.quoted}"
                self.contradicted.append((frozenset(refs), f"{said} ({place})"))
            if not verdict.ok:
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
                    if against(worked).ok:  # the bind's unit was read as a conversion
                        hint = (
                            f"the bind's unit {options['unit']} replaces the unit the claim "
                            f"works {name} out in, {worked}, and the lesson's number agrees in "
                            "that one: leave `unit` out of the bind"
                        )
                fail(codes.MISMATCH, where, message + (f" ({hint})" if hint else ""))

    def _lost(
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
            place = self.locator.content(near)
            hint = f"; the closest text is at {place.path}:{place.line}:{place.column}"
            if place.content_line is not None:
                hint += f" (content line {place.content_line})"
            line = self.lesson.content[near:].partition("\n")[0].strip()
            shown = line if len(line) <= 160 else line[:159] + "…"
            hint += f": {json.dumps(shown, ensure_ascii=False)}" if shown else ""
        expected = spec.get("occurrences")
        count = f"found {len(found)} of {expected} occurrences" if found else "quote not found"
        message = f"claim {result.claim_id}: {count} in the lesson{hint}"
        result.diagnostics.append(at(codes.ANCHOR, self.file.at(pointer + "/quote"), message))

    def _finish(self, result: ClaimResult, status: str) -> ClaimResult:
        """A claim passes only when something was checked: a claim whose only comparisons
        are the inputs it fixes itself, or that checked nothing at all (a definition-only
        equation claim), is `unchecked`, never `pass`."""
        result.status = status
        problems = [d.message for d in result.diagnostics if d.severity is Severity.ERROR]
        if problems:
            result.message = problems[0] + (
                f" (+{len(problems) - 1} more)" if len(problems) > 1 else ""
            )
            return result
        proofs = [kind for _, _, kind in result.spots if kind == "verified"]
        checked = len(result.values) + len(result.checks)
        if status == "pass" and not proofs and not result.checks:
            result.status = "unchecked"
            result.message = (
                "ran no check: it only compared the inputs it fixes itself"
                if result.values
                else "ran no check (its relations are definitions, and no number is bound)"
            )
            return result
        result.message = f"{plural(checked, 'check')} passed"
        return result


def _line(place: Location) -> str:
    """`line 12`, or `content line 12` in a record, whose content is one JSON string."""
    if place.content_line is not None:
        return f"content line {place.content_line}"
    return f"line {place.line}"


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


def _dimensioned(unit: str) -> bool:
    """Whether a unit written after a number has a dimension (`mS`; not `%`); a unit
    the vocabulary cannot read counts as one, since the number is not bare either."""
    try:
        return not units_of(unit).dimension.is_dimensionless
    except UnitError:
        return True
