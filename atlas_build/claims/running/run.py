"""Evaluate a lesson's claims and bind every checked number to the sentence that states it.

Long module: `LessonClaims` is the one place that orders kinds, binding and coverage for
a lesson; it is just over the limit and reads top to bottom.
"""

from __future__ import annotations

import dataclasses
import json
import math
import time
from typing import Any

from pydantic import ValidationError

from atlas_build import engine
from atlas_build.budget import Budget
from atlas_build.cache import Cache, digest, fingerprint
from atlas_build.claims import codes
from atlas_build.claims.binding import anchors
from atlas_build.claims.binding.bind import Binder
from atlas_build.claims.coverage.dimensions import units_key
from atlas_build.claims.prose import numbers
from atlas_build.claims.running import codec, dependents, facts, messages
from atlas_build.claims.running.dependents import Ended, Unavailable
from atlas_build.claims.running.file import ClaimsFile
from atlas_build.claims.running.registry import (
    DEFAULT_TIMEOUT,
    KINDS,
    ClaimError,
    ClaimTimeout,
    Context,
    Outcome,
    timed,
)
from atlas_build.claims.running.result import AnchorJSON, ClaimResult
from atlas_build.diagnostics import Code, Location, Severity, at
from atlas_build.latex import EvaluationError, LatexError
from atlas_build.lesson.model import Lesson
from atlas_build.source import Locator
from atlas_build.text import plural

FAILING = {codes.MISMATCH.code, codes.ANCHOR.code, codes.FAILED.code, codes.ARITHMETIC.code}


def _anchor(spec: dict[str, Any]) -> AnchorJSON | None:
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
        self.specs = {spec["id"]: (index, spec) for index, spec in claims.claims}
        self.invalid = claims.invalid  # id of a claim not run -> its entry
        self.ended: dict[str, Ended] = {}  # claim -> how its evaluation ended in an error
        self.outcomes: dict[str, Outcome | Exception] = {}
        self.told: dict[tuple[str, str, int | None], str] = {}  # failed check -> claim told
        self._running: list[str] = []
        self.facts: dict[str, set[str]] = {}  # claim -> `id.name` of others' quantities it read
        self.unproved: dict[str, str] = {}  # claim -> the fact it rests on that is not proved
        self._lesson_key: tuple[str, str] | None = None
        defaults = claims.defaults
        self.timeout = float(defaults.get("timeout", DEFAULT_TIMEOUT))
        self.tolerance = defaults.get("tolerance")
        self.binder = Binder(claims, lesson, locator, self.tolerance)

    def outcome(self, claim_id: str, *, direct: bool = False) -> Outcome:
        """Evaluate (once) the kind of a claim; used directly and by references. A claim
        that cannot be evaluated raises its own error when run directly, and one naming it
        for every claim that uses it (not the other claim's message as if it were theirs)."""
        if claim_id in self.invalid:
            raise Unavailable(claim_id, "uses")
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
            raise Unavailable(claim_id, "uses")
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
            raise Unavailable(claim_id, "uses") from None
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
        limits = engine.get_size_limits()
        try:  # set inside: a time limit's alarm between set and try would keep 1 GiB for good
            engine.set_size_limits(max_bytes=self.budget.memory_bytes)
            result = kind.run(params, context)
        except Exception as error:
            self.outcomes[claim_id] = error
            if direct or isinstance(error, ClaimTimeout):  # a time limit is the caller's own
                raise
            raise Unavailable(claim_id, "uses") from None
        finally:
            engine.set_size_limits(max_bytes=limits.max_bytes, max_flops=limits.max_flops)
            self._running.pop()
            self.facts[claim_id] = set(context.facts)
        portable = self._portable(result) if kind.cacheable and not resolved else None
        if portable is not None:  # what reads other claims is not content-addressed
            self.cache.put("claim", key, portable)
        self.outcomes[claim_id] = result
        return result

    def _key(self, kind: str, params: Any, texts: list[str]) -> str:
        """Everything a kind reads through its Context: its parameters, the lesson's
        display equations, its symbol table's units (a formula works its quantities out
        in them: R in kHz, not MHz) and the text its quote matched. Kinds that read
        quizzes or other claims go through `resolve`, and their outcomes are never cached."""
        if self._lesson_key is None:  # the same for every claim of the lesson
            self._lesson_key = (
                json.dumps([math.latex for math in self.lesson.display_math]),
                json.dumps(units_key(self.lesson), ensure_ascii=False),
            )
        return digest(
            fingerprint(),
            kind,
            params.model_dump_json(),
            *self._lesson_key,
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
        if base_id in self.invalid:
            raise Unavailable(base_id, "extends")
        if base_id not in self.specs or base_id in seen:
            raise ClaimError(f"`extends: {base_id}` names no claim of this file (or a cycle)")
        try:
            return _merge(self._params(base_id, (*seen, claim_id)), own)
        except Unavailable:  # further up the chain: this claim's base is what it needs
            raise Unavailable(base_id, "extends") from None

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
        for index, written in enumerate(self.file.data["claims"]):
            if index in self.file.broken:
                results += self._not_run(index, written)
            else:
                results.append(self._run_one(written["id"], index, written))
        shortened = dependents.tell_once(results, self.ended, self.file)
        for result in results:
            if result.claim_id in shortened:
                self._finish(result, result.status)  # its message, from the shortened error
        self.unproved, quiet = facts.settle(results, self.facts)
        for result in results:
            told = any(d.code in _NOT_PROOF for d in result.diagnostics)  # says why, and the fix
            if result.status == "unchecked" and result.claim_id not in quiet | set(self.unproved):
                if told:
                    result.message = "proves no number: see the warnings at its numbers"
                    continue
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

    def _not_run(self, index: int, written: Any) -> list[ClaimResult]:
        """A claims.yaml entry that breaks the schema (its A400 is the file's) is not run;
        it is listed as an error under its id, when it has one no other claim takes."""
        claim_id = written.get("id") if isinstance(written, dict) else None
        if not isinstance(claim_id, str) or self.invalid.get(claim_id) != index:
            return []
        kind, quote = written.get("kind"), written.get("quote")
        message = f"not run: {self.file.broken[index].message}"
        kind = kind if isinstance(kind, str) else ""
        quote = quote if isinstance(quote, str) else None
        return [ClaimResult(claim_id, kind, status="error", message=message, quote=quote)]

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
            self.binder.lost(spec, pointer, found, result)
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

        def end(code: Code, location: Location, message: str, pointer: str | None = None) -> None:
            fail(code, location, message)
            self.ended[claim_id] = Ended(result.diagnostics[-1], message, pointer, None)

        try:
            outcome, result.seconds = timed(lambda: self.outcome(claim_id, direct=True), seconds)
        except ClaimTimeout as error:
            end(codes.TIMEOUT, result.location or claim_at, capped or str(error))
            return self._finish(result, "error")
        except LatexError as error:
            end(codes.LATEX, claim_at, f"{error.message} [{error.code}]")
            return self._finish(result, "error")
        except (ClaimError, EvaluationError, ValueError, ArithmeticError, TypeError) as error:
            offset = getattr(error, "offset", None)
            written: str | None = getattr(error, "pointer", None)
            if written is not None and written.startswith("/params"):
                written = f"/claims/{index}{written}"
            where = self._content_at(offset) or self._param_at(written)
            end(codes.ERROR, where or claim_at, str(error), written)
            if isinstance(error, Unavailable):
                self.ended[claim_id].needed = (error.other, error.how)
            return self._finish(result, "error")
        except Exception as error:  # SymPy and NumPy raise many types; report, never crash
            message = f"evaluation failed: {type(error).__name__}: {error}"
            end(codes.ERROR, result.location or claim_at, message)
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
        for message in outcome.loose:
            where = self._param_at(f"{pointer}/params/tolerance") or claim_at
            result.diagnostics.append(at(codes.LOOSE_TOLERANCE, where, message))
        self.binder.bind(spec, pointer, quote_items, found, outcome, result, fail)
        # numbers a kind classed itself: a quiz question's `x is 3` restates an input
        result.spots += list(getattr(outcome, "spots", ()))
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


_NOT_PROOF = {codes.UNIT_UNPROVEN.code, codes.LOOSE_TOLERANCE.code}
"""Warnings that a number agreed without proving anything: an A414 beside them ("it only
compared the inputs it fixes") would be wrong about why, and about the fix."""


def _line(place: Location) -> str:
    """`line 12`, or `content line 12` in a record, whose content is one JSON string."""
    if place.content_line is not None:
        return f"content line {place.content_line}"
    return f"line {place.line}"
