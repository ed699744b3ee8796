"""Schema validation of a record dictionary, each violation located in its file.

The JSON Schema is the contract; errors are grouped into a few stable codes by
the schema keyword that failed, so pipelines can filter on them.

A hostile record can break the schema a million times over (a 2.5-million-element
`related` of numbers), so findings are capped per record, each is reduced to its code,
pointer and a short message as soon as jsonschema yields it (its messages embed the
whole offending value), and `uniqueItems` is checked by hashing, not jsonschema's
quadratic pairwise comparison of unhashable items.
"""

from __future__ import annotations

import functools
import itertools
import re
from collections.abc import Iterator
from typing import Any

from jsonschema import validators
from jsonschema.exceptions import ValidationError
from pydantic import ValidationError as ModelError
from referencing import Registry, Resource

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
MAX_FINDINGS = 100  # schema violations, and unknown fields, reported per record
MAX_MESSAGE = 200
_SURROGATE = re.compile("[\ud800-\udfff]")
_HINTS = {
    "/id": "an id is a lowercase slug: letters, digits and single hyphens (no dots, slashes)",
    "/version": "versions look like 1.3.0",
}


def _shorten(text: str) -> str:
    return text if len(text) <= MAX_MESSAGE else text[:MAX_MESSAGE] + "..."


def _message(error: ValidationError, pointer: str) -> str:
    where = pointer or "the record"
    if error.validator == "required":
        return f"{where}: {_shorten(error.message)}"
    hint = _HINTS.get(pointer) if error.validator in ("pattern", "maxLength") else None
    return f"{where}: {_shorten(error.message)}" + (f" ({hint})" if hint else "")


def _identity(value: Any) -> Any:
    """A hashable stand-in equal for values JSON Schema calls equal (1 and 1.0, not true)."""
    if isinstance(value, bool) or value is None:
        return ("literal", value)
    if isinstance(value, (int, float)):
        return ("number", value)
    if isinstance(value, str):
        return ("string", value)
    if isinstance(value, list):
        return ("array", tuple(_identity(item) for item in value))
    if isinstance(value, dict):
        return ("object", frozenset((key, _identity(item)) for key, item in value.items()))
    return ("other", repr(value))


def _unique_items(checker: Any, unique: Any, instance: Any, schema: Any) -> Iterator[Any]:
    """`uniqueItems` in linear time; the message names the repeat, not the whole array."""
    if not unique or not checker.is_type(instance, "array"):
        return
    seen: dict[Any, int] = {}
    for index, item in enumerate(instance):
        first = seen.setdefault(_identity(item), index)
        if first != index:
            yield ValidationError(f"item {index} repeats item {first}; items must be unique")
            return


def warm() -> None:
    """Build the validator now (see `pipeline.warm`)."""
    _checker()


@functools.cache
def _checker() -> Any:
    """The record schema's validator with the linear `uniqueItems`."""
    base = schemas.validator("lesson-record.schema.json")
    schema = base.schema
    registry: Registry[Any] = Registry().with_resource(
        schema["$id"], Resource.from_contents(schema)
    )
    kind = validators.extend(type(base), {"uniqueItems": _unique_items})
    return kind(schema, registry=registry, format_checker=base.format_checker)


def lone_surrogates(data: Any, limit: int = MAX_FINDINGS) -> list[tuple[list[Any], bool]]:
    """(path, is_key) of strings holding a lone surrogate (a `\\ud800` escape that is not
    half of a pair): valid JSON, but not Unicode text, so nothing can write it as UTF-8."""
    found: list[tuple[list[Any], bool]] = []
    _walk(data, [], found, limit)
    return found


def _walk(value: Any, path: list[Any], found: list[tuple[list[Any], bool]], limit: int) -> None:
    """Depth-first, one path list reused (depth is bounded by the readers' nesting limits)."""
    if isinstance(value, str):
        if _SURROGATE.search(value) and len(found) < limit:
            found.append((list(path), False))
        return
    if isinstance(value, dict):
        items: Any = value.items()
    elif isinstance(value, list):
        items = enumerate(value)
    else:
        return
    for key, item in items:
        if len(found) >= limit:
            return
        if isinstance(key, str) and _SURROGATE.search(key):
            found.append(([*path, key], True))
        if isinstance(item, (str, dict, list)):
            path.append(key)
            _walk(item, path, found, limit)
            path.pop()


def not_unicode(what: str) -> str:
    return (
        f"{what} holds a lone surrogate escape (half of a UTF-16 pair): "
        "not a Unicode character, so the text cannot be written as UTF-8"
    )


def _surrogate_findings(data: Any, locator: Locator) -> list[Diagnostic]:
    found = []
    for path, is_key in lone_surrogates(data):
        pointer = json_pointer(path)
        what = f"the key {path[-1]!r}" if is_key else f"{pointer or 'the record'}"
        where = locator.key(pointer) if is_key else locator.pointer(pointer)
        found.append(at(SCHEMA, where, not_unicode(what)))
    return found


def _schema_findings(data: Any, locator: Locator) -> list[Diagnostic]:
    """The first MAX_FINDINGS violations, each reduced to a diagnostic at once."""
    found: list[Diagnostic] = []
    errors = _checker().iter_errors(data)
    for error in itertools.islice(errors, MAX_FINDINGS + 1):
        if len(found) == MAX_FINDINGS:
            message = (
                f"more than {MAX_FINDINGS} schema violations; the first {MAX_FINDINGS} are listed"
            )
            found.append(at(SCHEMA, locator.pointer(""), message))
            break
        pointer = json_pointer(error.absolute_path)
        code = _BY_KEYWORD.get(str(error.validator), SCHEMA)
        location = locator.pointer(pointer)
        extras = schemas.unexpected_keys(error) if code is UNEXPECTED else []
        if extras:
            location = locator.key(pointer + json_pointer([min(extras)]))
        found.append(at(code, location, _message(error, pointer)))
    return sorted(found, key=lambda diagnostic: diagnostic.pointer or "")


def _unknown_fields(data: Any, locator: Locator) -> list[Diagnostic]:
    if not isinstance(data, dict):
        return []
    unknown = [key for key in data if key not in FIELDS]
    found = [
        at(
            UNKNOWN_FIELD,
            locator.key(json_pointer([key])),
            f"unknown top-level field {_shorten(repr(key))}",
        )
        for key in unknown[:MAX_FINDINGS]
    ]
    if len(unknown) > MAX_FINDINGS:
        message = f"{len(unknown) - MAX_FINDINGS} more unknown top-level fields are not listed"
        found.append(at(UNKNOWN_FIELD, locator.pointer(""), message))
    return found


def validate(data: Any, locator: Locator) -> tuple[LessonRecord | None, list[Diagnostic]]:
    """Validate against the schema, then build the typed model; None if either rejects."""
    found = _surrogate_findings(data, locator)
    found += _schema_findings(data, locator)
    found += _unknown_fields(data, locator)
    if any(diagnostic.severity is Severity.ERROR for diagnostic in found):
        return None, found
    try:
        return LessonRecord.model_validate(data), found
    except ModelError as error:  # the model must agree with the schema; say so if not
        detail = error.errors()[0]
        pointer = json_pointer(detail["loc"])
        message = f"{pointer}: {_shorten(detail['msg'])}"
        found.append(at(SCHEMA, locator.pointer(pointer), message))
        return None, found
