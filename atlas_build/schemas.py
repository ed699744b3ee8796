"""Access to the public JSON Schemas in `schemas/`, compiled once per process."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

from jsonschema import Draft202012Validator
from referencing import Registry, Resource

SCHEMA_DIR = Path(__file__).resolve().parent.parent / "schemas"


@cache
def load(name: str) -> dict[str, Any]:
    with open(SCHEMA_DIR / name, encoding="utf-8") as handle:
        schema: dict[str, Any] = json.load(handle)
    return schema


@cache
def validator(name: str) -> Draft202012Validator:
    """A Draft 2020-12 validator with format checking on (uri, date are enforced)."""
    schema = load(name)
    resource = Resource.from_contents(schema)
    registry: Registry[Any] = Registry().with_resource(schema["$id"], resource)
    return Draft202012Validator(
        schema, registry=registry, format_checker=Draft202012Validator.FORMAT_CHECKER
    )
