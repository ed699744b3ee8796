"""Reading `claims.yaml`: safe YAML, validated against schemas/claims.schema.json.

Everything the safe reader refuses (aliases, tags, numbers over 1,000 characters,
`.inf`/`.nan` anywhere, which JSON Schema's `maximum` cannot catch since comparisons
with NaN are false) and every string that is not Unicode is one located A400; schema
violations are capped per file and shortened as they are found.

A `timeout` longer than all the claims of a lesson may run together (`--lesson-time`) is
a located warning (`over_budget`): the claim never gets it, the lesson's budget is the cap.

A violation costs only the entry it is in: a claim that breaks the schema or repeats an
earlier id is not run (`ClaimsFile.broken`), an `unchecked` entry or a `defaults` value
that does is left out, and the rest of the file is checked, so one mistake does not hide
every other claim's outcome. Only what leaves nothing to run (no `claims` list, a file
that is not a mapping, more violations than the cap) makes the whole file unusable.
"""

from __future__ import annotations

import functools
import itertools
from dataclasses import dataclass, field
from typing import Any

from jsonschema.exceptions import best_match

from atlas_build import safeyaml, schemas
from atlas_build.claims.codes import FILE
from atlas_build.diagnostics import Diagnostic, Location, Severity, at, define
from atlas_build.load import jsonfile
from atlas_build.load.schema import MAX_FINDINGS, lone_surrogates, not_unicode
from atlas_build.source import json_pointer

MAX_BYTES = 512 * 1024
TIMEOUT_OVER_BUDGET = define(
    "A418",
    "timeout-over-budget",
    Severity.WARNING,
    "A `timeout` in the claims file (in `defaults` or on a claim) is longer than all the "
    "claims of a lesson may run together (`--lesson-time`, 30 s unless the command line "
    "says otherwise): limits come from the command line, so the claim gets the lesson's "
    "budget at most.",
    example="defaults: {timeout: 600}",
    fix="Lower the timeout; if the claims really need longer, pass --lesson-time.",
    stage="claims",
)


@dataclass
class ClaimsFile:
    """`data` is the file as written; read its entries through `claims`, `unchecked`,
    `defaults` and `lesson`, which leave out the ones that break the schema."""

    path: str
    data: dict[str, Any]
    document: safeyaml.Document
    broken: dict[int, Diagnostic] = field(default_factory=dict)  # claim index -> its A400
    left_out: set[tuple[str | int, ...]] = field(default_factory=set)  # other entries

    def at(self, pointer: str, *, key: bool = False) -> Location:
        line, column = self.document.position(pointer, key=key)
        return Location(self.path, line, column, pointer)

    @property
    def claims(self) -> list[tuple[int, dict[str, Any]]]:
        """The claims that can run, with their index in the file."""
        return [
            (index, claim)
            for index, claim in enumerate(self.data["claims"])
            if index not in self.broken
        ]

    @property
    def invalid(self) -> dict[str, int]:
        """Id -> entry of each claim not run that no claim that runs takes (the first such
        entry), so claims that extend or use it can say which and where."""
        running = {claim["id"] for _, claim in self.claims}
        found: dict[str, int] = {}
        for index in sorted(self.broken):
            written = self.data["claims"][index]
            claim_id = written.get("id") if isinstance(written, dict) else None
            if isinstance(claim_id, str) and claim_id not in running:
                found.setdefault(claim_id, index)
        return found

    @property
    def unchecked(self) -> list[tuple[int, dict[str, Any]]]:
        listed = [] if ("unchecked",) in self.left_out else self.data.get("unchecked", [])
        return [
            (index, entry)
            for index, entry in enumerate(listed)
            if ("unchecked", index) not in self.left_out
        ]

    @property
    def defaults(self) -> dict[str, Any]:
        if ("defaults",) in self.left_out:
            return {}
        given = self.data.get("defaults", {})
        return {
            key: value for key, value in given.items() if ("defaults", key) not in self.left_out
        }

    @property
    def lesson(self) -> str | None:
        return None if ("lesson",) in self.left_out else self.data.get("lesson")


def read(path: str) -> tuple[ClaimsFile | None, list[Diagnostic]]:
    """The claims file at `path`, or why it cannot be used. Treat the result as read-only:
    the claims stage, the page and its figures each ask for it, and parsing is memoised."""
    try:
        with open(path, "rb") as handle:
            raw = handle.read(MAX_BYTES + 1)
    except OSError as error:
        return None, [at(FILE, Location(path, 1, 1), f"cannot read {path}: {error.strerror}")]
    found, diagnostics = _parse(path, raw)
    return found, list(diagnostics)


def over_budget(path: str, lesson_seconds: float) -> list[Diagnostic]:
    """A418 at each `timeout` of the claims file at `path` over `lesson_seconds` (entries
    that break the schema are reported as such, not here)."""
    found, _ = read(path)
    if found is None:
        return []
    asked = [("/defaults/timeout", found.defaults.get("timeout"))]
    asked += [(f"/claims/{index}/timeout", claim.get("timeout")) for index, claim in found.claims]
    return [
        at(
            TIMEOUT_OVER_BUDGET,
            found.at(pointer),
            f"timeout: {seconds:g} s is more than the claims of this lesson may take together "
            f"({lesson_seconds:g} s, --lesson-time); a claim runs {lesson_seconds:g} s at most",
        )
        for pointer, seconds in asked
        if isinstance(seconds, int | float) and seconds > lesson_seconds
    ]


@functools.lru_cache(maxsize=32)
def _parse(path: str, raw: bytes) -> tuple[ClaimsFile | None, tuple[Diagnostic, ...]]:
    found, diagnostics = _parse_uncached(path, raw)
    return found, tuple(diagnostics)


def _parse_uncached(path: str, raw: bytes) -> tuple[ClaimsFile | None, list[Diagnostic]]:
    here = Location(path, 1, 1)
    text, problems = jsonfile.decode(raw, path, max_bytes=MAX_BYTES)
    if text is None:
        return None, [at(FILE, problem_location(problem), problem.message) for problem in problems]
    try:
        document = safeyaml.load(text)
    except safeyaml.YamlError as error:
        return None, [at(FILE, Location(path, error.line, error.column), error.message)]
    if not isinstance(document.data, dict):
        return None, [at(FILE, here, "claims.yaml must be a mapping with a `claims` list")]
    found = ClaimsFile(path, document.data, document)
    diagnostics: list[tuple[list[Any] | None, Diagnostic]] = [
        (
            where,
            at(FILE, found.at(json_pointer(where), key=is_key), not_unicode(_what(where, is_key))),
        )
        for where, is_key in lone_surrogates(document.data)
    ]
    diagnostics += _violations(found)
    listed = found.data.get("claims")
    seen: set[str] = set()
    for index, claim in enumerate(listed if isinstance(listed, list) else []):
        claim_id = claim.get("id") if isinstance(claim, dict) else None
        if isinstance(claim_id, str) and claim_id in seen:
            message = f"claim id {claim_id[:80]!r} is used twice"
            where = found.at(f"/claims/{index}/id")
            diagnostics.append((["claims", index, "id"], at(FILE, where, message)))
        elif isinstance(claim_id, str):
            seen.add(claim_id)
    usable = True
    for problem_at, diagnostic in diagnostics:
        scope = _scope(problem_at)
        if scope is None:
            usable = False
        elif scope[:1] == ("claims",):
            found.broken.setdefault(int(scope[1]), diagnostic)
        elif scope:
            found.left_out.add(scope)
    return (found if usable else None), [diagnostic for _, diagnostic in diagnostics]


def _scope(path: list[Any] | None) -> tuple[str | int, ...] | None:
    """What a problem at `path` disables: one claim (`("claims", 3)`), one `unchecked`
    entry or `defaults` value (or all of the list or mapping, when it is not one), the
    `lesson` name, nothing (`()`, an unknown top-level key nobody reads), or, None, the
    whole file (no `claims` list to run)."""
    if path is None or not path:
        return None
    head = path[0]
    if head == "claims":
        return (head, path[1]) if len(path) > 1 and isinstance(path[1], int) else None
    if head in ("unchecked", "defaults"):
        return (head, path[1]) if len(path) > 1 else (head,)
    if head == "lesson":
        return ("lesson",)
    return ()


def _what(path: list[Any], is_key: bool) -> str:
    return f"the key {path[-1]!r}" if is_key else json_pointer(path) or "claims.yaml"


def _violations(found: ClaimsFile) -> list[tuple[list[Any] | None, Diagnostic]]:
    """The first MAX_FINDINGS schema violations, in file order, each message shortened and
    paired with the path it is at (None for the note that more were left out).

    A `oneOf`/`anyOf` violation says only "not valid under any of the given schemas";
    `best_match` descends to the branch that came closest ("'unti' was unexpected")."""
    validator = schemas.validator("claims.schema.json")
    found_: list[tuple[list[Any] | None, Diagnostic]] = []
    for violation in itertools.islice(validator.iter_errors(found.data), MAX_FINDINGS + 1):
        if len(found_) == MAX_FINDINGS:
            message = f"more than {MAX_FINDINGS} schema violations; the first are listed"
            found_.append((None, at(FILE, found.at(""), message)))
            break
        violation = best_match([violation])
        path = list(violation.absolute_path)
        pointer = json_pointer(path)
        message = violation.message
        message = message if len(message) < 200 else message[:200] + "..."
        where = found.at(pointer)
        extras = schemas.unexpected_keys(violation)  # the first in the file is pointed at
        if extras:
            path = [*path, extras[0]]
            where = found.at(json_pointer(path), key=True)
        found_.append((path, at(FILE, where, f"{pointer or 'claims.yaml'}: {message}")))
    return sorted(found_, key=lambda item: (item[1].line or 0, item[1].column or 0))


def problem_location(problem: Diagnostic) -> Location:
    return Location(problem.path, problem.line, problem.column)
