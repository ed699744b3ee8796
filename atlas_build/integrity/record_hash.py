"""recordHash: verified against atlas-build's recipe, else reported as unverifiable."""

from __future__ import annotations

from collections.abc import Iterator

from atlas_build.diagnostics import Diagnostic, Severity, at, define
from atlas_build.integrity.context import RULES, Subject
from atlas_build.recordhash import RECIPE, record_hash

STAGE = "integrity"
VERIFIED = define(
    "A210",
    "record-hash-verified",
    Severity.INFO,
    f"recordHash matches atlas-build's recipe ({RECIPE}: sha256 of the RFC 8785 canonical JSON "
    "of the record without recordHash).",
    example="a record written by `atlas-build fix` or `build`",
    fix="Nothing to fix.",
    stage=STAGE,
)
UNVERIFIABLE = define(
    "A211",
    "record-hash-unverifiable",
    Severity.INFO,
    "recordHash matches no recipe atlas-build knows; it may come from another publisher's "
    "recipe (every record of the collection the seed comes from), or the record changed after "
    "hashing. Information, since the author cannot act on a publisher's recipe; an error with "
    "--require-record-hash.",
    example="a record exported by upstream Atlas",
    fix="Run `atlas-build fix` to rewrite it with atlas-build's recipe.",
    stage=STAGE,
)


@RULES.rule("record-hash", order=40)
def check(subject: Subject) -> Iterator[Diagnostic]:
    where = subject.at("/recordHash")
    stated = subject.record.recordHash
    data = subject.source.data or {}
    severity = Severity.ERROR if subject.options.require_record_hash else None
    try:
        expected = record_hash(data)
    except ValueError as error:
        message = f"recordHash cannot be recomputed: {error}"
        yield at(UNVERIFIABLE, where, message, severity=severity)
        return
    if stated == expected:
        yield at(VERIFIED, where, f"recordHash verified ({RECIPE})")
        return
    yield at(
        UNVERIFIABLE,
        where,
        f"recordHash {stated[:12]}... matches no known recipe (atlas-build's {RECIPE} gives "
        f"{expected[:12]}...); run `atlas-build fix` to adopt it",
        severity=severity,
    )
