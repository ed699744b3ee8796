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
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from atlas_build.claims.registry import Outcome
from atlas_build.latex import LatexError, Relation, parse_relations
from atlas_build.latex.dialect import DEFAULT_MAX_DEPTH, DEFAULT_MAX_LENGTH
from atlas_build.latex.normalise import normalise
from atlas_build.lesson.model import Lesson, Math

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
    is a symbol, not the constant) and, failing that, with each claim's declarations."""
    error: LatexError | None = None
    for chosen in [{}, *options]:
        if symbols:
            chosen = {**chosen, "symbols": sorted({*chosen.get("symbols", []), *symbols})}
        try:
            found = parse_relations(math.latex, **chosen)
        except LatexError as failure:
            error = error or failure
            continue
        except (RecursionError, ValueError, TypeError, ArithmeticError) as failure:
            error = error or LatexError("syntax", f"cannot read: {failure}", 0)
            continue
        return [
            Entry(
                math.index,
                index,
                "unverified",
                relation.source.strip(),
                math.offset + relation.start,
                parsed=relation,
            )
            for index, relation in enumerate(found)
        ]
    assert error is not None
    return error


def inventory(
    lesson: Lesson, options: dict[int, list[dict[str, Any]]], symbols: list[str] | None = None
) -> tuple[list[Entry], dict[int, LatexError]]:
    """Every relation, `unverified` or `unreadable`, and the parse error of each unreadable
    equation (one entry per row or relation segment the normaliser finds). `symbols` are
    names the lesson's table declares (`I` a current, not the imaginary unit)."""
    entries: list[Entry] = []
    errors: dict[int, LatexError] = {}
    for math in lesson.display_math:
        read = read_equation(math, options.get(math.index, []), symbols or [])
        if not isinstance(read, LatexError):
            entries.extend(read)
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


def counts(entries: list[Entry]) -> dict[str, int]:
    found = {status: sum(1 for e in entries if e.status == status) for status in STATUSES}
    found["total"] = len(entries)
    return found
