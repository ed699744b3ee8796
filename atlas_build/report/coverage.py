"""Coverage in words: the sentences every output format prints for a lesson.

One wording for the text, GitHub, JUnit and SARIF outputs and the site, so a lesson's
status reads the same wherever it is shown; only statuses that occur are named, and
nothing is called verified that the claims stage did not count as verified.
"""

from __future__ import annotations

from typing import Any

from atlas_build.text import plural

VERIFICATION_WORDS = {
    "verified": "verified",
    "partial": "partly verified",
    "unverified": "not verified",
    "failed": "verification failed",
}
DIMENSION_STATUSES = ("consistent", "inconsistent", "incomplete", "not checked")


def relations_text(relations: dict[str, Any]) -> str:
    """`5 of 6 relations verified, 1 definition` (only the statuses that occur)."""
    total = int(relations.get("total", 0))
    if not total:
        return "no display equations"
    parts = [f"{relations.get('verified', 0)} of {plural(total, 'relation')} verified"]
    for status, noun in (
        ("defined", "definition"),
        ("unchecked", "listed unchecked"),
        ("unreadable", "unreadable"),
        ("failed", "failed"),
        ("unverified", "not checked"),
    ):
        count = int(relations.get(status, 0))
        if count:
            parts.append(plural(count, noun, noun if noun.endswith(("d", "e")) else None))
    return ", ".join(parts)


def numbers_text(numbers: dict[str, Any]) -> str:
    """`26 of 29 numbers verified, 2 inputs, 3 exempt (1 listed unchecked)` (only the
    classes that occur; the numbers the author listed unchecked are named apart)."""
    total = int(numbers.get("total", 0))
    if not total:
        return "no numbers in the prose"
    parts = [f"{numbers.get('verified', 0)} of {plural(total, 'number')} verified"]
    for name, noun in (("input", "input"), ("exempt", "exempt"), ("failed", "wrong"),
                       ("unaccounted", "unaccounted")):  # fmt: skip
        count = int(numbers.get(name, 0))
        if count:
            parts.append(plural(count, noun) if name == "input" else f"{count} {noun}")
        listed = len(numbers.get("listedUnchecked") or ()) if name == "exempt" else 0
        if listed:
            parts[-1] += f" ({listed} listed unchecked)"
    return ", ".join(parts)


def quizzes_text(quizzes: dict[str, Any]) -> str:
    """`2 of 3 quiz answers verified, 1 listed unchecked` (only the statuses that occur)."""
    total = int(quizzes.get("total", 0))
    if not total:
        return "no quiz questions"
    parts = [f"{quizzes.get('verified', 0)} of {plural(total, 'quiz answer')} verified"]
    for status, noun in (("unchecked", "listed unchecked"), ("failed", "wrong"),
                         ("unverified", "not checked")):  # fmt: skip
        if int(quizzes.get(status, 0)):
            parts.append(f"{int(quizzes[status])} {noun}")
    return ", ".join(parts)


def inline_text(inline: dict[str, Any]) -> str:
    """`2 inline relations not checked, 1 listed unchecked` (inline math proves nothing)."""
    parts = []
    for status, noun in (("unverified", "not checked"), ("unchecked", "listed unchecked")):
        count = int(inline.get(status, 0))
        if count:
            parts.append(f"{plural(count, 'inline relation')} {noun}")
    return ", ".join(parts) or "no inline relations"


def dimensions_text(counts: dict[str, Any]) -> str:
    """`4 of 5 relations consistent, 1 incomplete` (only the statuses that occur)."""
    total = sum(int(counts.get(status, 0)) for status in DIMENSION_STATUSES)
    if not total:
        return "no relations to check"
    parts = [f"{int(counts.get('consistent', 0))} of {plural(total, 'relation')} consistent"]
    for status in ("inconsistent", "incomplete", "not checked"):
        if int(counts.get(status, 0)):
            parts.append(f"{int(counts[status])} {status}")
    return ", ".join(parts)


def sentence(coverage: dict[str, Any] | None, status: str | None = None) -> str | None:
    """`partly verified: 4 of 5 relations verified, 1 definition; 26 of 29 numbers
    verified, 2 inputs, 1 exempt; 2 of 2 quiz answers verified; dimensions: 4 of 5
    relations consistent, 1 incomplete` (quizzes only when the lesson has some).
    A lesson whose `status` is `error` failed, whatever its claims proved."""
    if not coverage or not isinstance(coverage.get("relations"), dict):
        return None
    state = "failed" if status == "error" else str(coverage.get("verification", "unverified"))
    parts = [relations_text(coverage["relations"])]
    if isinstance(coverage.get("numbers"), dict):
        parts.append(numbers_text(coverage["numbers"]))
    quizzes = coverage.get("quizzes")
    if isinstance(quizzes, dict) and quizzes.get("total"):
        parts.append(quizzes_text(quizzes))
    stated = coverage.get("inline")
    if isinstance(stated, dict) and stated.get("total"):
        parts.append(inline_text(stated))
    if isinstance(coverage.get("dimensions"), dict):
        parts.append("dimensions: " + dimensions_text(coverage["dimensions"]))
    return f"{VERIFICATION_WORDS.get(state, state)}: " + "; ".join(parts)
