"""Every relation of every display equation, and what was proved about it.

Each relation gets exactly one status:

- `verified`: a check ran and held: derived or sampled (`equation`), evaluated at stated
  values (`formula` identities), checked by another claim that passed (`variance`; one
  that proves nothing, `unchecked`, settles nothing), or used as a definition whose
  computed numbers match what the lesson states;
- `defined`: used as a definition a claim relies on, and not itself checked;
- `unchecked`: listed under `unchecked` in claims.yaml, with the author's reason;
- `unreadable`: the lesson-LaTeX dialect cannot read it (it still renders);
- `failed`: a check of it ran and did not hold (the claim reports where);
- `unverified`: it parses, but nothing checks it.

A part of an equation that states no relation (an expression shown on its own) is no
relation at all: it gets no entry, only a note (`findings`). Valid LaTeX the dialect
cannot read is the tool's limit, not the author's defect: a note too, unless a claim
needs the equation; malformed LaTeX (KaTeX refuses it as well) is a warning.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from atlas_build.claims import codes
from atlas_build.claims.running.registry import Outcome
from atlas_build.diagnostics import Diagnostic, Severity, at
from atlas_build.latex import Equation, Expression, LatexError, Relation, parse_equation
from atlas_build.latex.dialect import DEFAULT_MAX_DEPTH, DEFAULT_MAX_LENGTH
from atlas_build.latex.errors import NO_RELATION
from atlas_build.latex.normalise import normalise
from atlas_build.lesson.model import Lesson, Math
from atlas_build.source import Locator

STATUSES = ("verified", "defined", "unchecked", "unreadable", "failed", "unverified")
ACCEPTED = frozenset({"verified", "defined", "unchecked"})  # what a "verified" badge allows
_RANK = {"failed": 0, "verified": 1, "defined": 2}
_OPTIONS = ("indices", "matrices", "functions", "symbols")


@dataclass
class Entry:
    equation: int
    relation: int
    status: str
    source: str
    offset: int  # content offset of the relation (of the error, when unreadable)
    claims: set[str] = field(default_factory=set)
    reason: str = ""
    parsed: Relation | None = field(default=None, compare=False)  # for the dimension check
    dimensions: dict[str, Any] | None = None

    def to_json(self) -> dict[str, Any]:
        found = {
            "equation": self.equation,
            "relation": self.relation,
            "status": self.status,
            "source": self.source,
            "claims": sorted(self.claims),
            "reason": self.reason,
        }
        if self.dimensions is not None:
            found["dimensions"] = self.dimensions
        return found


def claim_options(specs: Iterable[Mapping[str, Any]]) -> dict[int, list[dict[str, Any]]]:
    """Per equation, the parser declarations of the claims that read it."""
    found: dict[int, list[dict[str, Any]]] = {}
    for spec in specs:
        params = spec.get("params") if isinstance(spec, Mapping) else None
        if not isinstance(params, Mapping) or not isinstance(params.get("equation"), int):
            continue
        chosen = {
            name: [str(v) for v in params[name] if isinstance(v, str)]
            for name in _OPTIONS
            if isinstance(params.get(name), list)
        }
        found.setdefault(params["equation"], []).append(chosen)
    return found


def needed(specs: Iterable[Mapping[str, Any]]) -> set[int]:
    """Equations some claim reads (by `equation`, `use` or `identities`)."""
    wanted: set[int] = set()
    for spec in specs:
        params = spec.get("params") if isinstance(spec, Mapping) else None
        if not isinstance(params, Mapping):
            continue
        if isinstance(params.get("equation"), int):
            wanted.add(params["equation"])
        for key in ("use", "identities"):
            for ref in params.get(key) or []:
                if isinstance(ref, Mapping) and isinstance(ref.get("equation"), int):
                    wanted.add(ref["equation"])
    return wanted


def read_equation(
    math: Math, options: list[dict[str, Any]], symbols: list[str]
) -> list[Entry] | LatexError:
    """The equation's relations, read with the lesson's symbol names (so a glossary's `π`
    is a symbol, not the constant) and, failing that, with each claim's declarations.
    A part that states no relation is no relation: it is skipped."""
    read = _read(math, options, symbols)
    return read if isinstance(read, LatexError) else _entries(math, read)


def _entries(math: Math, read: Equation) -> list[Entry]:
    return [
        Entry(
            math.index,
            index,
            "unverified",
            relation.source.strip(),
            math.offset + relation.start,
            parsed=relation,
        )
        for index, relation in enumerate(read.relations)
    ]


def _read(math: Math, options: list[dict[str, Any]], symbols: list[str]) -> Equation | LatexError:
    """`parse_equation` with the first declarations that read it, or the first error."""
    error: LatexError | None = None
    for chosen in [{}, *options]:
        if symbols:
            chosen = {**chosen, "symbols": sorted({*chosen.get("symbols", []), *symbols})}
        try:
            return parse_equation(math.latex, **chosen)
        except LatexError as failure:
            error = error or failure
        except (RecursionError, ValueError, TypeError, ArithmeticError) as failure:
            error = error or LatexError("syntax", f"cannot read: {failure}", 0)
    assert error is not None
    return error


def _no_relation(part: Expression) -> LatexError:
    """The note of a part that states no relation (an expression shown on its own)."""
    shown = " ".join(part.source.split())
    shown = shown if len(shown) <= 60 else shown[:57] + "..."
    return LatexError(NO_RELATION, f"`{shown}` states no relation", part.start)


def inventory(
    lesson: Lesson, options: dict[int, list[dict[str, Any]]], symbols: list[str] | None = None
) -> tuple[list[Entry], dict[int, LatexError]]:
    """Every relation, `unverified` or `unreadable`, and the parse error of each unreadable
    equation (one entry per row or relation segment the normaliser finds), or the
    `no-relation` note of one that reads but shows an expression. `symbols` are names
    the lesson's table declares (`I` a current, not the imaginary unit)."""
    entries: list[Entry] = []
    errors: dict[int, LatexError] = {}
    for math in lesson.display_math:
        read = _read(math, options.get(math.index, []), symbols or [])
        if not isinstance(read, LatexError):
            entries.extend(_entries(math, read))
            if read.expressions:
                errors[math.index] = _no_relation(read.expressions[0])
            continue
        errors[math.index] = read
        try:
            segments = normalise(
                math.latex, split=True, max_length=DEFAULT_MAX_LENGTH, max_depth=DEFAULT_MAX_DEPTH
            )
            spans = [(segment.start, segment.end) for segment in segments]
        except (LatexError, RecursionError, ValueError):
            spans = [(0, len(math.latex))]
        reason = f"{read.message} [{read.code}]"
        for index, (start, end) in enumerate(spans):
            text = math.latex[start:end].strip()
            entries.append(
                Entry(
                    math.index, index, "unreadable", text, math.offset + read.offset, reason=reason
                )
            )
    return entries, errors


def settle(
    entries: list[Entry],
    outcomes: Mapping[str, Outcome | Exception],
    statuses: Mapping[str, str],
    evaluated: Mapping[tuple[int, int], set[str]],
    unchecked: Mapping[tuple[int, int | None], str],
) -> None:
    """Give every entry its final status from what the claims did (see module docstring)."""
    by_key = {(entry.equation, entry.relation): entry for entry in entries}
    done: dict[tuple[int, int], str] = {}
    for claim_id, outcome in outcomes.items():
        if not isinstance(outcome, Outcome):
            continue
        told = dict(outcome.relations)
        for equation, relation in outcome.covers:
            if relation is not None and (equation, relation) not in told:
                passed = statuses.get(claim_id) == "pass"
                told[(equation, relation)] = "verified" if passed else "failed"
        for key, status in told.items():
            if status.startswith("claim:"):
                by = statuses.get(status[len("claim:") :])
                if by == "unchecked":  # it proves nothing, here or anywhere: not a check
                    continue
                status = "verified" if by == "pass" else "failed"
            if key in by_key:
                by_key[key].claims.add(claim_id)
            if key not in done or _RANK.get(status, 9) < _RANK.get(done[key], 9):
                done[key] = status
    for key, claims in evaluated.items():
        if done.get(key) == "defined":
            done[key] = "verified"
            if key in by_key:
                by_key[key].reason = "evaluated: numbers computed from it match the lesson"
                by_key[key].claims |= claims
    for key, entry in by_key.items():
        if key in done and entry.status != "unreadable":
            entry.status = done[key]
        elif entry.status != "verified":
            reason = unchecked.get(key, unchecked.get((key[0], None)))
            if reason is not None and key not in done:
                entry.status, entry.reason = "unchecked", reason


def findings(
    lesson: Lesson,
    locator: Locator,
    errors: Mapping[int, LatexError],
    needed: Collection[int],
    listed: Collection[int],
) -> list[Diagnostic]:
    """One finding per equation `inventory` did not read whole, at its error.

    An error (A406) where a claim needs the equation; else a warning (A406) only where the
    LaTeX is malformed, which KaTeX refuses too: an author acts on that. Valid LaTeX the
    dialect cannot read, or a part that states no relation, is a note (A417): the author
    wrote nothing wrong. An equation `unchecked` lists only has to render."""
    found: list[Diagnostic] = []
    for equation, error in sorted(errors.items()):
        if equation in listed and equation not in needed:
            continue
        math = lesson.display_math[equation]
        where = locator.content(math.offset + error.offset)
        head = f"equation {equation}: "
        if equation in needed:
            message = f"{head}{error.message} [{error.code}]"
            found.append(at(codes.LATEX, where, message, severity=Severity.ERROR))
        elif error.code == NO_RELATION:
            message = f"{head}not checked: {error.message} (an expression, not a relation)"
            found.append(at(codes.NOT_CHECKED, where, message))
        elif (refusal := _katex_refusal(math.latex)) is None:
            message = f"{head}not checked: outside the dialect: {error.message} [{error.code}]"
            found.append(at(codes.NOT_CHECKED, where, message))
        else:
            message = (
                f"{head}{error.message} [{error.code}]; KaTeX cannot render it either "
                f"({refusal}); it is counted as unreadable, not verified"
            )
            found.append(at(codes.LATEX, where, message, severity=Severity.WARNING))
    return found


def _katex_refusal(latex: str) -> str | None:
    """Why KaTeX (the renderer the site uses) will not render `latex`, or None if it does.
    Imported here: only an equation the dialect cannot read pays for it."""
    try:
        from atlas_build.latex.mathml import MathError, render
    except ImportError:  # no renderer to ask: keep the warning
        return "the renderer is not installed"
    try:
        render(latex, display=True)
    except MathError as error:
        return error.message
    return None


def counts(entries: list[Entry]) -> dict[str, int]:
    found = {status: sum(1 for e in entries if e.status == status) for status in STATUSES}
    found["total"] = len(entries)
    return found
