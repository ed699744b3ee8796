"""Reading `claims.yaml`: safe YAML, validated against schemas/claims.schema.json.

Everything the safe reader refuses (aliases, tags, numbers over 1,000 characters,
`.inf`/`.nan` anywhere, which JSON Schema's `maximum` cannot catch since comparisons
with NaN are false) and every string that is not Unicode is one located A400; schema
violations are capped per file and shortened as they are found.
"""

from __future__ import annotations

import functools
import itertools
from dataclasses import dataclass
from typing import Any

from jsonschema.exceptions import best_match

from atlas_build import safeyaml, schemas
from atlas_build.claims.codes import FILE
from atlas_build.diagnostics import Diagnostic, Location, at
from atlas_build.load import jsonfile
from atlas_build.load.schema import MAX_FINDINGS, lone_surrogates, not_unicode
from atlas_build.source import json_pointer

MAX_BYTES = 512 * 1024


@dataclass
class ClaimsFile:
    path: str
    data: dict[str, Any]
    document: safeyaml.Document

    def at(self, pointer: str, *, key: bool = False) -> Location:
        line, column = self.document.position(pointer, key=key)
        return Location(self.path, line, column, pointer)


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
    found = ClaimsFile(path, document.data if isinstance(document.data, dict) else {}, document)
    if not isinstance(document.data, dict):
        return None, [at(FILE, here, "claims.yaml must be a mapping with a `claims` list")]
    diagnostics = [
        at(FILE, found.at(json_pointer(path), key=is_key), not_unicode(_what(path, is_key)))
        for path, is_key in lone_surrogates(document.data)
    ]
    diagnostics += _violations(found)
    listed = found.data.get("claims")
    seen: set[str] = set()
    for index, claim in enumerate(listed if isinstance(listed, list) else []):
        claim_id = claim.get("id") if isinstance(claim, dict) else None
        if isinstance(claim_id, str) and claim_id in seen:
            message = f"claim id {claim_id[:80]!r} is used twice"
            diagnostics.append(at(FILE, found.at(f"/claims/{index}/id"), message))
        elif isinstance(claim_id, str):
            seen.add(claim_id)
    return (None if diagnostics else found), diagnostics


def _what(path: list[Any], is_key: bool) -> str:
    return f"the key {path[-1]!r}" if is_key else json_pointer(path) or "claims.yaml"


def _violations(found: ClaimsFile) -> list[Diagnostic]:
    """The first MAX_FINDINGS schema violations, in file order, each message shortened.

    A `oneOf`/`anyOf` violation says only "not valid under any of the given schemas";
    `best_match` descends to the branch that came closest ("'unti' was unexpected")."""
    validator = schemas.validator("claims.schema.json")
    diagnostics: list[Diagnostic] = []
    for violation in itertools.islice(validator.iter_errors(found.data), MAX_FINDINGS + 1):
        if len(diagnostics) == MAX_FINDINGS:
            message = f"more than {MAX_FINDINGS} schema violations; the first are listed"
            diagnostics.append(at(FILE, found.at(""), message))
            break
        violation = best_match([violation])
        pointer = json_pointer(violation.absolute_path)
        message = violation.message
        message = message if len(message) < 200 else message[:200] + "..."
        where = found.at(pointer)
        extras = schemas.unexpected_keys(violation)  # the first in the file is pointed at
        if extras:
            where = found.at(json_pointer([*violation.absolute_path, extras[0]]), key=True)
        diagnostics.append(at(FILE, where, f"{pointer or 'claims.yaml'}: {message}"))
    return sorted(
        diagnostics, key=lambda diagnostic: (diagnostic.line or 0, diagnostic.column or 0)
    )


def problem_location(problem: Diagnostic) -> Location:
    return Location(problem.path, problem.line, problem.column)
