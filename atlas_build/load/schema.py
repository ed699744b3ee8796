"""Schema validation of a record dictionary, each violation located in its file.

The JSON Schema is the contract; errors are grouped into a few stable codes by
the schema keyword that failed, so pipelines can filter on them.
"""

from __future__ import annotations

from typing import Any

from jsonschema.exceptions import ValidationError
from pydantic import ValidationError as ModelError

from atlas_build import schemas
from atlas_build.diagnostics import Diagnostic, Severity, at, define
from atlas_build.model import FIELDS, LessonRecord
from atlas_build.source import Locator, json_pointer

STAGE = "load"
SCHEMA = define(
    "A110",
    "schema-violation",
    Severity.ERROR,
    "The record breaks a rule of schemas/lesson-record.schema.json.",
    example='"sections": {}',
    fix="Change the value to what the schema describes.",
    stage=STAGE,
)
UNKNOWN_FIELD = define(
    "A111",
    "unknown-field",
    Severity.WARNING,
    "A top-level field the schemaVersion 1 contract does not define; it is kept but unchecked.",
    example='"tittle": "Self-attention"',
    fix="Fix the spelling or remove the field.",
    stage=STAGE,
)
MISSING = define(
    "A112",
    "missing-field",
    Severity.ERROR,
    "A required field is absent.",
    example="a record without `contentHash`",
    fix="Add the field (`atlas-build fix` fills computed ones).",
    stage=STAGE,
)
UNEXPECTED = define(
    "A113",
    "unexpected-field",
    Severity.ERROR,
    "A section or citation object has a field the schema does not allow.",
    example='{"title": "x", "url": "https://a", "note": 1}',
    fix="Remove the field.",
    stage=STAGE,
)
WRONG_TYPE = define(
    "A114",
    "wrong-type",
    Severity.ERROR,
    "A value has the wrong JSON type.",
    example='"contentLength": "10251"',
    fix="Use the type the schema names.",
    stage=STAGE,
)
INVALID = define(
    "A115",
    "invalid-value",
    Severity.ERROR,
    "A value has the right type but breaks a pattern, format, range or uniqueness rule.",
    example='"id": "../x"',
    fix="Use a value that matches the documented pattern or format.",
    stage=STAGE,
)

_BY_KEYWORD = {
    "required": MISSING,
    "additionalProperties": UNEXPECTED,
    "type": WRONG_TYPE,
    "pattern": INVALID,
    "format": INVALID,
    "const": INVALID,
    "enum": INVALID,
    "minimum": INVALID,
    "maximum": INVALID,
    "minLength": INVALID,
    "maxLength": INVALID,
    "uniqueItems": INVALID,
}
_HINTS = {
    "/id": "an id is a lowercase slug: letters, digits and single hyphens (no dots, slashes)",
    "/version": "versions look like 1.3.0",
}


def _message(error: ValidationError, pointer: str) -> str:
    where = pointer or "the record"
    if error.validator == "required":
        return f"{where}: {error.message}"
    hint = _HINTS.get(pointer) if error.validator in ("pattern", "maxLength") else None
    shown = error.message if len(error.message) <= 200 else error.message[:200] + "..."
    return f"{where}: {shown}" + (f" ({hint})" if hint else "")


def validate(data: Any, locator: Locator) -> tuple[LessonRecord | None, list[Diagnostic]]:
    """Validate against the schema, then build the typed model; None if either rejects."""
    found: list[Diagnostic] = []
    checker = schemas.validator("lesson-record.schema.json")
    errors = sorted(checker.iter_errors(data), key=lambda error: list(map(str, error.path)))
    for error in errors:
        pointer = json_pointer(error.absolute_path)
        code = _BY_KEYWORD.get(str(error.validator), SCHEMA)
        location = locator.pointer(pointer)
        if code is UNEXPECTED and isinstance(error.instance, dict):
            allowed = error.schema.get("properties", {})
            extra = sorted(key for key in error.instance if key not in allowed)
            if extra:
                location = locator.key(f"{pointer}/{extra[0]}")
        found.append(at(code, location, _message(error, pointer)))
    if isinstance(data, dict):
        for key in data:
            if key not in FIELDS:
                found.append(
                    at(
                        UNKNOWN_FIELD,
                        locator.key(json_pointer([key])),
                        f"unknown top-level field {key!r}",
                    )
                )
    if any(diagnostic.severity is Severity.ERROR for diagnostic in found):
        return None, found
    try:
        return LessonRecord.model_validate(data), found
    except ModelError as error:  # the model must agree with the schema; say so if not
        detail = error.errors()[0]
        pointer = json_pointer(detail["loc"])
        found.append(at(SCHEMA, locator.pointer(pointer), f"{pointer}: {detail['msg']}"))
        return None, found
