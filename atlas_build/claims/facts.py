"""Claims that compare with another claim's quantity (a quiz's `fact`): what such a claim
proves rests on that claim, so statuses follow these references once every claim has run.

- A claim that compared with a quantity of a claim that failed or errored (or that itself
  rests on one) proved nothing: it is `unchecked`, never `pass`, with a message naming the
  fact and the claim, and the numbers it bound are not verified. Otherwise a quiz answer
  that agrees with a wrong value would read verified.
- A claim that checks nothing itself, but whose quantity a passing claim compared (the
  ratio a quiz answer states), passes through that claim.
- One whose quantities only claims that did not pass compared stays `unchecked`, but is
  no A414: "bind a number it computes" is the wrong advice when the claim reading it is
  what failed, and that claim reports where.

Only quantities compared count (`Context.facts`): a claim an equation names in `check:
claim, by:` is consulted for what it covers, not compared, so it is never credited by it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from atlas_build.claims.run import ClaimResult

_BROKEN = {"fail": "failed", "error": "ended in an error"}


def settle(
    results: list[ClaimResult], facts: Mapping[str, set[str]]
) -> tuple[dict[str, str], set[str]]:
    """Apply the rules above to `results`, given per claim the `id.name` references it
    compared with (`facts`). Returns why each claim that rests on a fact proved nothing
    (`fact q.y comes from claim 'q', which failed`), and the claims left unchecked only
    because the claims reading them did not pass (no A414 for them)."""
    by_id = {result.claim_id: result for result in results}
    readers: dict[str, list[str]] = {}  # claim -> the claims that compared its quantities
    for reader, references in sorted(facts.items()):
        for source in sorted({reference.partition(".")[0] for reference in references}):
            readers.setdefault(source, []).append(reader)
    unproved = _discredit(by_id, facts)
    _credit(by_id, readers, unproved)
    quiet = set()
    for source, names in readers.items():
        result = by_id.get(source)
        if result is None or result.status != "unchecked" or source in unproved:
            continue
        failing = [(name, why) for name in names if (why := _broken(name, by_id, unproved))]
        if failing:
            name, why = failing[0]
            result.message = f"checked only through claim {name!r}, which {why}"
            quiet.add(source)
    return unproved, quiet


def _discredit(by_id: Mapping[str, ClaimResult], facts: Mapping[str, set[str]]) -> dict[str, str]:
    """Passing claims that compared with a fact that is not proved become `unchecked`,
    until none is left (a claim reading one that proved nothing proves nothing either)."""
    unproved: dict[str, str] = {}
    changed = True
    while changed:
        changed = False
        for reader, references in sorted(facts.items()):
            result = by_id.get(reader)
            if result is None or result.status != "pass":
                continue
            for reference in sorted(references):
                source = reference.partition(".")[0]
                why = _broken(source, by_id, unproved)
                if why:
                    unproved[reader] = f"fact {reference} comes from claim {source!r}, which {why}"
                    result.status = "unchecked"
                    result.message = f"proves nothing: {unproved[reader]}"
                    result.spots = [spot for spot in result.spots if spot[2] != "verified"]
                    changed = True
                    break
    return unproved


def _credit(
    by_id: Mapping[str, ClaimResult], readers: Mapping[str, list[str]], unproved: Mapping[str, str]
) -> None:
    """A claim that checks nothing itself, whose quantity a passing claim compared, passes
    through that claim (after `_discredit`, so a reader that proves nothing credits none)."""
    changed = True
    while changed:
        changed = False
        for source, names in readers.items():
            result = by_id.get(source)
            if result is None or result.status != "unchecked" or source in unproved:
                continue
            passed = [name for name in names if getattr(by_id.get(name), "status", None) == "pass"]
            if passed:
                result.status, changed = "pass", True
                result.message = f"checked through claim {passed[0]!r}"


def _broken(claim_id: str, by_id: Mapping[str, ClaimResult], unproved: Mapping[str, str]) -> str:
    """Why what `claim_id` computed is not proved: it failed, errored or proved nothing
    because of a fact of its own; "" when it may still be proved (passed, or unchecked and
    perhaps credited by a reader)."""
    if claim_id in unproved:
        return "proves nothing itself"
    result = by_id.get(claim_id)
    return _BROKEN.get(result.status, "") if result is not None else ""
