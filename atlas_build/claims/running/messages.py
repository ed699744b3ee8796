"""Parameter errors in words an author understands, instead of pydantic's.

`kind.params.model_validate` reports errors such as `Input should be a valid string` at
locations like `values.x.str`; an author wrote `values: {x: {a: 1}}` and needs to hear what
the kind expects there and where. `explain` turns the first error into one sentence and a
JSON pointer into the claim's `params`, so the finding sits on the parameter in claims.yaml.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ValidationError

_UNION_MEMBERS = {"str", "int", "float", "bool", "list[...]", "dict[...]", "list", "dict"}
_MEMBER = {"str": "text", "int": "a number", "float": "a number", "bool": "true or false",
           "list": "a list", "dict": "a mapping"}  # fmt: skip
_WORDS = {
    "string_type": "must be text",
    "int_type": "must be a whole number",
    "int_parsing": "must be a whole number",
    "int_from_float": "must be a whole number",
    "float_type": "must be a number",
    "float_parsing": "must be a number",
    "bool_type": "must be true or false",
    "list_type": "must be a list",
    "dict_type": "must be a mapping (name: value)",
    "model_type": "must be a mapping of parameters",
    "missing": "is required",
    "none_required": "must be left out",
}


def _where(loc: tuple[Any, ...]) -> list[str]:
    return [str(part) for part in loc if not str(part).startswith(("list[", "dict[")) and str(
        part
    ) not in _UNION_MEMBERS]  # fmt: skip


def explain(error: ValidationError, model: type[BaseModel], kind: str) -> tuple[str, str]:
    """(message, JSON pointer under the claim) for the first error of `error`."""
    errors = error.errors()
    detail = errors[0]
    parts = _where(tuple(detail["loc"]))
    union = [e for e in errors if _where(tuple(e["loc"])) == parts and len(e["loc"]) > len(parts)]
    fitting = [e for e in union if not e["type"].endswith("_type")]
    if len(union) > 1 and fitting:  # a member took its type but not its value (`fact: []`)
        detail, union = fitting[0], []
    if len(union) > 1:  # every member of a union refused the value
        members = sorted({_MEMBER.get(str(e["loc"][len(parts)]).split("[")[0], "a value")
                          for e in union})  # fmt: skip
        name = ".".join(parts) or "params"
        got = detail.get("input")
        return (
            f"`{name}` must be {' or '.join(members)}, not {type(got).__name__} {_short(got)}",
            "/params" + "".join(f"/{part}" for part in parts),
        )
    name = ".".join(parts) or "params"
    pointer = "/params" + "".join(f"/{part}" for part in parts)
    kind_of = detail["type"]
    context = detail.get("ctx") or {}
    if kind_of == "extra_forbidden":
        known = ", ".join(sorted(model.model_fields))
        return f"`{name}` is not a parameter of kind {kind} (it takes: {known})", pointer
    if kind_of == "literal_error":
        return f"`{name}` must be one of {context.get('expected', 'the listed values')}", pointer
    if kind_of in ("greater_than_equal", "greater_than", "less_than_equal", "less_than"):
        bound = next(iter(context.values()), "")
        words = {
            "greater_than_equal": "at least",
            "greater_than": "more than",
            "less_than_equal": "at most",
            "less_than": "less than",
        }
        return f"`{name}` must be {words[kind_of]} {bound}", pointer
    if kind_of in ("too_short", "too_long"):
        limit = context.get("min_length" if kind_of == "too_short" else "max_length")
        least = "at least" if kind_of == "too_short" else "at most"
        return f"`{name}` must have {least} {limit} entries", pointer
    if kind_of in _WORDS:
        got = detail.get("input")
        shown = "" if kind_of == "missing" else f", not {type(got).__name__} {_short(got)}"
        return f"`{name}` {_WORDS[kind_of]}{shown}", pointer
    return f"`{name}`: {detail['msg']}", pointer


def _short(value: object) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."
