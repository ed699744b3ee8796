"""Reading `claims.yaml`: safe YAML, validated against schemas/claims.schema.json."""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Any

from atlas_build import safeyaml, schemas
from atlas_build.claims.codes import FILE
from atlas_build.diagnostics import Diagnostic, Location, at
from atlas_build.load import jsonfile
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
    validator = schemas.validator("claims.schema.json")
    diagnostics = []
    violations = sorted(validator.iter_errors(document.data), key=lambda e: list(map(str, e.path)))
    for violation in violations:
        pointer = json_pointer(violation.absolute_path)
        message = violation.message
        message = message if len(message) < 200 else message[:200] + "..."
        diagnostics.append(at(FILE, found.at(pointer), f"{pointer or 'claims.yaml'}: {message}"))
    listed = found.data.get("claims")
    listed = listed if isinstance(listed, list) else []
    ids = [claim.get("id") for claim in listed if isinstance(claim, dict)]
    for index, claim_id in enumerate(ids):
        if claim_id is not None and ids.index(claim_id) != index:
            diagnostics.append(
                at(FILE, found.at(f"/claims/{index}/id"), f"claim id {claim_id!r} is used twice")
            )
    return (None if diagnostics else found), diagnostics


def problem_location(problem: Diagnostic) -> Location:
    return Location(problem.path, problem.line, problem.column)
