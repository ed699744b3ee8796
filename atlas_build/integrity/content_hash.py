"""contentHash must be the sha256 of the canonical content (see atlas_build.canonical)."""

from __future__ import annotations

from collections.abc import Iterator

from atlas_build.canonical import normalize_newlines
from atlas_build.diagnostics import Diagnostic, Severity, at, define
from atlas_build.integrity.context import RULES, Subject
from atlas_build.recordhash import content_hash

STAGE = "integrity"
MISMATCH = define(
    "A201",
    "content-hash-mismatch",
    Severity.ERROR,
    "contentHash matches neither the content as shipped nor its canonical form: the content "
    "was changed after hashing, or the hash is stale.",
    example="one character of `content` edited by hand",
    fix="Run `atlas-build fix` if the edit is intended; otherwise restore the content.",
    stage=STAGE,
)
PADDED = define(
    "A202",
    "content-hash-of-padded-form",
    Severity.INFO,
    "contentHash matches the canonical form (list markers padded pandoc-style), not the "
    "content as shipped; consumers hashing the shipped text will not reproduce it. "
    "Information: published records hash the canonical form, and nothing in the lesson is "
    "wrong.",
    example="`- x` in content, hash computed over `-   x`",
    fix="Nothing is wrong with the lesson; publish the canonical form to silence this.",
    stage=STAGE,
)
LINE_ENDINGS = define(
    "A203",
    "crlf-line-endings",
    Severity.WARNING,
    "The content uses CR or CRLF line endings; the canonical form (hashed, measured) uses LF.",
    example='"content": "# Title\\r\\n"',
    fix="Convert the content to LF line endings.",
    stage=STAGE,
)


def _first_difference(raw: str, canonical: str) -> int:
    for index, (left, right) in enumerate(zip(raw, canonical, strict=False)):
        if left != right:
            return index
    return min(len(raw), len(canonical))


@RULES.rule("content-hash", order=10)
def check(subject: Subject) -> Iterator[Diagnostic]:
    record = subject.record
    raw_hash = content_hash(record.content)
    canonical_hash = content_hash(subject.canonical)
    if "\r" in record.content:
        where = subject.source.locator.content(record.content.index("\r"))
        yield at(LINE_ENDINGS, where, "content has CR line endings; canonical form uses LF")
    if record.contentHash == raw_hash or subject.source.kind == "lesson":
        return  # an authored lesson's hash is computed by atlas-build from its canonical form
    if record.contentHash == canonical_hash:
        raw_lines = normalize_newlines(record.content).split("\n")
        padded = [
            number
            for number, (before, after) in enumerate(
                zip(raw_lines, subject.canonical.split("\n"), strict=False), start=1
            )
            if before != after
        ]
        causes = []
        if padded:
            causes.append(f"list markers padded pandoc-style on {len(padded)} lines")
        if "\r" in record.content:
            causes.append("line endings converted to LF")
        where = subject.content_at(_first_difference(record.content, subject.canonical))
        yield at(
            PADDED,
            where,
            "contentHash is the sha256 of the canonical form, not of the content as shipped ("
            + ", ".join(causes)
            + (f"; first at content line {padded[0]}" if padded else "")
            + ")",
        )
        return
    yield at(
        MISMATCH,
        subject.at("/contentHash"),
        f"contentHash {record.contentHash} does not match the content: canonical form hashes "
        f"to {canonical_hash} (content as shipped: {raw_hash})",
    )
