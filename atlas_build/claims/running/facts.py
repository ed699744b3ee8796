"""Claims that compare with another claim's quantity (a quiz's `fact`): what such a claim
proves rests on that claim, so statuses follow these references once every claim has run.

- A claim that compared with a quantity of a claim that failed or errored (or that itself
  rests on one) proved nothing: it is `unchecked`, never `pass`, with a message naming the
  fact and the claim, and the numbers it bound are not verified. Otherwise a quiz answer
  that agrees with a wrong value would read verified.
- So did one that compared with a quantity whose own number in the lesson agreed only
  without proof (A423: only as a bare number, or through a unit that does not read), and
  that no other number bound to it proved: a check is never stronger than what it rests
  on, even when the claim computing it passed on other numbers.
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
    from atlas_build.claims.running.result import ClaimResult

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
    unproved, blamed = _discredit(by_id, facts)
    _credit(by_id, readers, unproved)
    quiet = set()
    for source, names in readers.items():
        result = by_id.get(source)
        if result is None or result.status != "unchecked" or source in blamed.union(unproved):
            continue  # (one whose own number proves nothing keeps its A423's message)
        failing = [(name, why) for name in names if (why := _broken(name, by_id, unproved))]
        if failing:
            name, why = failing[0]
            result.message = f"checked only through claim {name!r}, which {why}"
            quiet.add(source)
    return unproved, quiet


def _discredit(
    by_id: Mapping[str, ClaimResult], facts: Mapping[str, set[str]]
) -> tuple[dict[str, str], set[str]]:
    """Passing claims that compared with a fact that is not proved become `unchecked`,
    until none is left (a claim reading one that proved nothing proves nothing either).
    Also returns the claims whose own bound number left a fact unproven (A423)."""
    unproved: dict[str, str] = {}
    blamed: set[str] = set()
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
                said = f"fact {reference} comes from claim {source!r}, which {why}"
                if not why and (unproven := _unproven(reference, by_id)):
                    said = f"fact {reference} is not proved: claim {source!r} binds {unproven}"
                    why = unproven
                    blamed.add(source)
                if why:
                    unproved[reader] = said
                    result.status = "unchecked"
                    result.message = f"proves nothing: {unproved[reader]}"
                    result.spots = [spot for spot in result.spots if spot[2] != "verified"]
                    changed = True
                    break
    return unproved, blamed


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


def _unproven(reference: str, by_id: Mapping[str, ClaimResult]) -> str:
    """Why the quantity `reference` (`claim.name[index]`) is not proved although its claim
    may have passed: the number the claim bound to it agreed only without proof (A423),
    and no number bound to it (or to the whole list it is part of) was verified; ""
    otherwise (a quantity no number is bound to rests on its claim's status alone)."""
    claim_id, _, name = reference.partition(".")
    result = by_id.get(claim_id)
    if result is None:
        return ""
    name = "".join(name.split())
    base = name.split("[", 1)[0]
    if name in result.proved or base in result.proved:
        return ""
    return result.unproven.get(name) or result.unproven.get(base) or ""


def _broken(claim_id: str, by_id: Mapping[str, ClaimResult], unproved: Mapping[str, str]) -> str:
    """Why what `claim_id` computed is not proved: it failed, errored or proved nothing
    because of a fact of its own; "" when it may still be proved (passed, or unchecked and
    perhaps credited by a reader)."""
    if claim_id in unproved:
        return "proves nothing itself"
    result = by_id.get(claim_id)
    return _BROKEN.get(result.status, "") if result is not None else ""
