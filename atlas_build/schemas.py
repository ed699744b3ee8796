"""Access to the public JSON Schemas in `schemas/`, compiled once per process."""

from __future__ import annotations

import json
import re
from functools import cache
from pathlib import Path
from typing import Any

from jsonschema import Draft202012Validator, ValidationError, validators
from referencing import Registry, Resource

SCHEMA_DIR = Path(__file__).resolve().parent.parent / "schemas"


@cache
def load(name: str) -> dict[str, Any]:
    with open(SCHEMA_DIR / name, encoding="utf-8") as handle:
        schema: dict[str, Any] = json.load(handle)
    return schema


def _ecma_pattern(checker: Any, pattern: str, instance: Any, schema: Any) -> Any:
    """`pattern` as ECMA-262 reads it: `$` is the end of the string, not before a final
    newline as in Python's `re` (so the id `"x\\n"` does not pass `^[a-z]+$`)."""
    if not isinstance(instance, str):
        return
    translated = re.sub(r"(?<!\\)\$", r"\\Z", pattern)
    if re.search(translated, instance) is None:
        yield ValidationError(f"{instance!r} does not match {pattern!r}")


_Validator = validators.extend(Draft202012Validator, {"pattern": _ecma_pattern})


@cache
def validator(name: str) -> Draft202012Validator:
    """A Draft 2020-12 validator with format checking on (uri, date are enforced)."""
    schema = load(name)
    resource = Resource.from_contents(schema)
    registry: Registry[Any] = Registry().with_resource(schema["$id"], resource)
    checker: Draft202012Validator = _Validator(
        schema, registry=registry, format_checker=Draft202012Validator.FORMAT_CHECKER
    )
    return checker


def unexpected_keys(error: ValidationError) -> list[str]:
    """The keys an `additionalProperties` violation objects to, in the instance's order,
    so a finding can point at the key rather than at its object."""
    if error.validator != "additionalProperties" or not isinstance(error.instance, dict):
        return []
    allowed = error.schema.get("properties", {}) if isinstance(error.schema, dict) else {}
    return [key for key in error.instance if key not in allowed]
