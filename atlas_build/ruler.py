"""One registry that runs a stage's rules in order, times them, and contains their failures.

Modelled on markdown-it-py's `Ruler`: each integrity check and each claim kind is a
small module that registers itself here; the stage only asks the ruler to run.
A rule that raises does not take the build down: it becomes an `A901` diagnostic
naming the rule, and the CLI exits 2 because the result can no longer be trusted.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Generic, TypeVar

from atlas_build.diagnostics import Diagnostic, Location, Severity, at, define

INTERNAL = define(
    "A901",
    "internal-error",
    Severity.ERROR,
    "A rule of atlas-build itself failed; the result is incomplete. Please report it.",
    example="a rule raised KeyError",
    fix="Report the message; other findings still stand.",
    stage="any",
)

#: At most this many findings of one code are listed per lesson; the rest are counted.
MAX_PER_CODE = 100

MORE = define(
    "A902",
    "findings-not-listed",
    Severity.INFO,
    f"A rule found more than {MAX_PER_CODE} problems of one kind in a lesson; the rest are "
    "counted, not listed, so a hostile lesson cannot flood the report.",
    example="150,000 unknown ids in `related`",
    fix="Fix the listed ones; the rest are usually the same mistake.",
    stage="any",
)

Context = TypeVar("Context")
RuleFunction = Callable[[Context], Iterable[Diagnostic]]


@dataclass(frozen=True)
class Rule(Generic[Context]):
    name: str
    order: int
    function: RuleFunction[Context]


@dataclass
class Timings:
    """Seconds spent per `stage:rule`, summed over every lesson the ruler ran on."""

    seconds: dict[str, float] = field(default_factory=dict)

    def add(self, key: str, elapsed: float) -> None:
        self.seconds[key] = self.seconds.get(key, 0.0) + elapsed


class Ruler(Generic[Context]):
    def __init__(self, stage: str) -> None:
        self.stage = stage
        self._rules: dict[str, Rule[Context]] = {}

    def rule(
        self, name: str, *, order: int = 100
    ) -> Callable[[RuleFunction[Context]], RuleFunction[Context]]:
        """Decorator registering `function` under a unique name; lower `order` runs first."""

        def register(function: RuleFunction[Context]) -> RuleFunction[Context]:
            if name in self._rules:
                raise ValueError(f"{self.stage} rule {name!r} registered twice")
            self._rules[name] = Rule(name, order, function)
            return function

        return register

    @property
    def rules(self) -> list[Rule[Context]]:
        return sorted(self._rules.values(), key=lambda rule: (rule.order, rule.name))

    def run(
        self, context: Context, where: Location, timings: Timings | None = None
    ) -> list[Diagnostic]:
        """Every rule's findings, at most `MAX_PER_CODE` of each code (a hostile lesson can
        hold a hundred thousand bad ids), then one note saying how many were left out."""
        found: list[Diagnostic] = []
        for rule in self.rules:
            started = time.perf_counter()
            try:
                found.extend(_capped(rule.function(context), where))
            except Exception as error:  # contain a broken rule; report it, keep going
                message = f"{self.stage} rule {rule.name!r} failed: {type(error).__name__}: {error}"
                found.append(at(INTERNAL, where, message))
            if timings is not None:
                timings.add(f"{self.stage}:{rule.name}", time.perf_counter() - started)
        return found


def _capped(findings: Iterable[Diagnostic], where: Location) -> list[Diagnostic]:
    kept: list[Diagnostic] = []
    seen: dict[str, int] = {}
    for diagnostic in findings:
        seen[diagnostic.code] = seen.get(diagnostic.code, 0) + 1
        if seen[diagnostic.code] <= MAX_PER_CODE:
            kept.append(diagnostic)
    for code, count in seen.items():
        if count > MAX_PER_CODE:
            message = f"{count - MAX_PER_CODE} more {code} findings are not listed"
            kept.append(at(MORE, where, message))
    return kept
