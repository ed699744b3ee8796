"""Claims that need another claim: an error is told once, where it is.

A claim that `extends` another starts from its params, and one that uses another's
quantities (a quiz's `fact`, an equation's `check: claim, by:`) evaluates it first. When
that claim is invalid (an A400 entry of claims.yaml) or its evaluation ends in an error,
every claim that needs it ends in the same error. Repeating the message at each of them
buries the one place to fix, so the error is told at the claim it belongs to, and each
claim that needs it says in one line which claim it needs and where that error is.

A claim that `extends` one that ended in an error is told so only when its own error is
the same message and does not point into what the claim wrote itself: a variant that
overrides the broken parameter and breaks another reports its own error in full.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import PurePath
from typing import TYPE_CHECKING

from atlas_build.claims.running.registry import ClaimError
from atlas_build.diagnostics import Diagnostic

if TYPE_CHECKING:
    from atlas_build.claims.running.file import ClaimsFile
    from atlas_build.claims.running.result import ClaimResult


class Unavailable(ClaimError):
    """A claim this one `extends` or uses is invalid or ended in an error."""

    def __init__(self, other: str, how: str) -> None:
        super().__init__(f"it {how} claim {other!r}, which has an error")
        self.other, self.how = other, how


@dataclass
class Ended:
    """How a claim's evaluation ended in an error: its diagnostic, the message without the
    claim's name, the claims.yaml pointer it blames, and the claim it needed, if that was it."""

    diagnostic: Diagnostic
    message: str
    pointer: str | None
    needed: tuple[str, str] | None


def tell_once(
    results: list[ClaimResult], ended: Mapping[str, Ended], claims: ClaimsFile
) -> set[str]:
    """Shorten the error of every claim of `results` that ended (`ended`) because a claim
    it needs did; returns those claims."""
    bases = {claim["id"]: claim.get("extends") for _, claim in claims.claims}
    index = {claim["id"]: number for number, claim in claims.claims}
    invalid = {claim_id: claims.broken[number] for claim_id, number in claims.invalid.items()}
    needs: dict[str, tuple[str, str]] = {}
    for claim_id, end in ended.items():
        base = bases.get(claim_id)
        if end.needed is not None:
            needs[claim_id] = end.needed
        elif base is not None and base in ended and ended[base].message == end.message:
            if end.pointer is None or end.pointer not in claims.document.values:  # not its own
                needs[claim_id] = (base, "extends")
    for result in results:
        need = needs.get(result.claim_id)
        if need is None:
            continue
        other, how = need
        told = ended[result.claim_id].diagnostic
        replaced = told
        if how == "extends":  # where the claim names it
            shown = claims.at(f"/claims/{index[result.claim_id]}/extends")
            replaced = dataclasses.replace(told, **dataclasses.asdict(shown))  # a Location
        origin = _origin(other, needs, ended, invalid)
        where = (
            f", whose error is at {_place(origin, replaced)}" if origin else ", which has an error"
        )
        message = f"claim {result.claim_id}: not evaluated: it {how} claim {other!r}{where}"
        replaced = dataclasses.replace(replaced, message=message)
        result.diagnostics = [replaced if d is told else d for d in result.diagnostics]
    return set(needs)


def _origin(
    claim_id: str,
    needs: Mapping[str, tuple[str, str]],
    ended: Mapping[str, Ended],
    invalid: Mapping[str, Diagnostic],
) -> Diagnostic | None:
    """The error a chain of needed claims ends in, if one is found."""
    seen = set()
    while claim_id in needs and claim_id not in seen:
        seen.add(claim_id)
        claim_id = needs[claim_id][0]
    if claim_id in seen:
        return None
    return invalid.get(claim_id) or (ended[claim_id].diagnostic if claim_id in ended else None)


def _place(origin: Diagnostic, here: Diagnostic) -> str:
    """`line 7, column 15` in the same file, else `lesson.md:39:1` (the same folder)."""
    if origin.path == here.path:
        return f"line {origin.line}, column {origin.column}"
    return f"{PurePath(origin.path).name}:{origin.line}:{origin.column}"
