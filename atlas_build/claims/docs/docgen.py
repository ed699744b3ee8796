"""Claim-kind documentation generated from the kinds' pydantic models, so it cannot drift.

One source, three outputs: the `$defs` of `schemas/claims.schema.json` (each kind's
parameter schema, and `claim-per-kind`, the same keyed on `kind`), the page
`docs/claim-kinds.md`, and `atlas-build explain KIND`. Parameters come from the models
registered in `registry.KINDS`; what a kind checks, computes and an example of it come
from `kinddocs`. `python -m atlas_build.claims.docs.docgen` rewrites both files; `--check`
only says which are stale (exit 1), and a test runs it.

The loader does not apply `claim-per-kind`: each kind validates its own parameters
when the claim runs, so a wrong parameter is one finding at that parameter, in plain
words, and the lesson's other claims still run. The schema is for editors and tools.
"""

from __future__ import annotations

import argparse
import copy
import json
import sys
import textwrap
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic.json_schema import GenerateJsonSchema, models_json_schema

from atlas_build.claims import kinds  # noqa: F401  (registers every kind)
from atlas_build.claims.docs.kinddocs import DOCS
from atlas_build.claims.running.registry import KINDS

ROOT = Path(__file__).resolve().parents[3]
SCHEMA_PATH = ROOT / "schemas" / "claims.schema.json"
PAGE_PATH = ROOT / "docs" / "claim-kinds.md"
COMMAND = "python -m atlas_build.claims.docs.docgen"
PREFIX = "params-"
NUMERAL = {"string", "integer", "number"}
NUMERALS = (
    "A *numeral* is a number, or text holding one number as lessons write it: `0.25`, `−1`, "
    "`1,024`, `ln 3`, `2ln3`, `√2`, `10⁻⁸`, `2×10⁻³`, `1/3`. It is read exactly "
    "(`0.25` is 1/4, `ln 3` stays log 3) and never evaluated as code."
)


class _Schema(GenerateJsonSchema):
    """Pydantic's schema, with the defaults of `default_factory` fields written out (an
    author needs to know that `seeds` defaults to [0, 1, 2] as much as `causal` to false)."""

    def default_schema(self, schema: Any) -> Any:
        factory = schema.get("default_factory")
        if factory is not None and not schema.get("default_factory_takes_data"):
            schema = {k: v for k, v in schema.items() if k != "default_factory"}
            schema["default"] = factory()
        return super().default_schema(schema)


def _untitled(node: Any, names: bool = False) -> Any:
    """Drop pydantic's generated `title`s (`Engine Inputs`), noise next to the names;
    `names` marks a `properties` mapping, whose keys are parameters, not keywords."""
    if isinstance(node, dict):
        return {
            key: _untitled(value, key == "properties" and not names)
            for key, value in node.items()
            if names or key != "title"
        }
    if isinstance(node, list):
        return [_untitled(item) for item in node]
    return node


def definitions() -> dict[str, Any]:
    """`$defs`: `params-<kind>` per kind, the nested models they share, `claim-per-kind`."""
    models = sorted({k.params for k in KINDS.values()}, key=lambda m: m.__name__)
    refs, top = models_json_schema(
        [(model, "validation") for model in models],
        ref_template="#/$defs/{model}",
        schema_generator=_Schema,
    )
    shared = {name: _untitled(body) for name, body in top.get("$defs", {}).items()}
    found: dict[str, Any] = {}
    for name, kind in sorted(KINDS.items()):
        model_name = refs[(kind.params, "validation")]["$ref"].rsplit("/", 1)[-1]
        body = copy.deepcopy(shared[model_name])
        body["description"] = f"Parameters of kind `{name}`: {kind.summary}"
        body["examples"] = [claim["params"] for claim in example_claims(name) if "params" in claim]
        found[PREFIX + name] = body
    models_by_name = {refs[(m, "validation")]["$ref"].rsplit("/", 1)[-1] for m in models}
    for name, body in shared.items():
        if name not in models_by_name:
            found[name] = body
    found["claim-per-kind"] = {"allOf": [_keyed(name, found) for name in sorted(KINDS)]}
    found["claim-per-kind"]["description"] = (
        "A claim whose `params` match its kind's schema (`params` of a claim that `extends` "
        "another need name known parameters only). Not applied when atlas-build reads "
        "claims.yaml: each kind reports its own parameter errors, at the parameter."
    )
    return found


def _keyed(name: str, found: dict[str, Any]) -> dict[str, Any]:
    ref = f"#/$defs/{PREFIX}{name}"
    names = sorted(found[PREFIX + name]["properties"])
    return {
        "if": {"properties": {"kind": {"const": name}}, "required": ["kind"]},
        "then": {
            "if": {"required": ["extends"]},
            "then": {"properties": {"params": {"propertyNames": {"enum": names}}}},
            "else": {"properties": {"params": {"$ref": ref}}},
        },
    }


def schema(current: dict[str, Any]) -> dict[str, Any]:
    """`current` (the hand-written schema) with its generated parts replaced."""
    updated = copy.deepcopy(current)
    claim = updated["properties"]["claims"]["items"]["properties"]
    claim["kind"]["description"] = (
        "One of the registered kinds; `atlas-build explain KIND` documents each "
        "(docs/claim-kinds.md)."
    )
    claim["kind"]["examples"] = sorted(KINDS)
    claim["params"]["description"] = (
        "Kind-specific parameters: `$defs/params-<kind>` is each kind's schema, "
        "`$defs/claim-per-kind` applies them by `kind`. atlas-build validates them per "
        "claim, reporting a wrong parameter at the parameter."
    )
    updated["$defs"] = definitions()
    return updated


def example_claims(name: str) -> list[dict[str, Any]]:
    """The claims of `name`'s example, as the safe YAML reader reads them."""
    from atlas_build import safeyaml

    data = safeyaml.load(DOCS[name].claims).data
    return [claim for claim in data["claims"] if claim.get("kind") == name]


@dataclass(frozen=True)
class Row:
    name: str
    type: str
    default: str
    description: str


def _compact(value: Any) -> str:
    """A default as YAML flow would write it: `[0, 1, 2]`, `{q: Q}`, `false`, `1e-12`."""
    if isinstance(value, bool) or value is None:
        return json.dumps(value)
    if isinstance(value, float):
        return repr(value).replace("e-0", "e-")
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k}: {_compact(v)}" for k, v in value.items()) + "}"
    if isinstance(value, list):
        return "[" + ", ".join(_compact(v) for v in value) + "]"
    return str(value)


_WORDS = {"integer": "integer", "number": "number", "string": "text", "boolean": "true/false"}
_WORDS["numeral"] = "numeral"


def describe(node: dict[str, Any]) -> str:
    """A parameter's JSON Schema type in words: `list of integer ≥ 0 (1 to 64)`."""
    if "$ref" in node:
        return node["$ref"].rsplit("/", 1)[-1]
    if "enum" in node:
        return " or ".join(f"`{v}`" for v in node["enum"])
    if "anyOf" in node:
        members = [m for m in node["anyOf"] if m.get("type") != "null"]
        nullable = len(members) < len(node["anyOf"])
        scalar = [m for m in members if m.get("type") in NUMERAL and len(m) == 1]
        if {m["type"] for m in scalar} == NUMERAL:  # `str | int | float`: a numeral
            members = [{"type": "numeral"}] + [m for m in members if m not in scalar]
        either = " or ".join(describe(m) for m in members)
        return either + (" or null" if nullable else "")
    kind = node.get("type")
    if kind == "array":
        bounds = node.get("minItems"), node.get("maxItems")
        sized = f" ({bounds[0] or 0}–{bounds[1]} entries)" if bounds[1] else ""
        sized = sized or (f" (at least {bounds[0]})" if bounds[0] else "")
        return f"list of {describe(node.get('items', {}))}{sized}"
    if kind == "object":
        return f"mapping of name to {describe(node.get('additionalProperties', {}))}"
    text = _WORDS.get(str(kind), "value")
    for key, sign in (("minimum", "≥"), ("exclusiveMinimum", ">")):
        if key in node:
            text += f" {sign} {node[key]}"
    if "maximum" in node:
        text += f", ≤ {node['maximum']}"
    if "pattern" in node:
        text += f" matching `{node['pattern']}`"
    return text


def rows(body: dict[str, Any]) -> list[Row]:
    """One row per property of a model schema, required ones first as the model lists them."""
    required = body.get("required", [])
    found = []
    for name, node in body["properties"].items():
        default = "required" if name in required else _compact(node.get("default"))
        found.append(Row(name, describe(node), default, node.get("description", "")))
    return sorted(found, key=lambda row: row.default != "required")


def nested(body: dict[str, Any], defs: dict[str, Any]) -> list[str]:
    """Names of the shared models a kind's parameters use (`RelationCheck`)."""
    text = json.dumps(body)
    return [name for name in defs if not name.startswith(PREFIX) and f'/{name}"' in text]


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def _table(header: tuple[str, ...], lines: list[tuple[str, ...]]) -> list[str]:
    out = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    return out + ["| " + " | ".join(_cell(cell) for cell in line) + " |" for line in lines]


def _parameter_lines(found: list[Row]) -> list[tuple[str, ...]]:
    return [(f"`{r.name}`", r.type, r.default if r.default == "required" else f"`{r.default}`",
             r.description) for r in found]  # fmt: skip


def kind_markdown(name: str, defs: dict[str, Any] | None = None) -> str:
    """The section of docs/claim-kinds.md that documents kind `name`."""
    defs = defs if defs is not None else definitions()
    body, doc = defs[PREFIX + name], DOCS[name]
    lines = [f"## `{name}`", "", f"{KINDS[name].summary}", "", doc.checks, ""]
    lines += ["**Parameters** (`params:`)", ""]
    lines += _table(("name", "type", "default", "description"), _parameter_lines(rows(body)))
    for model in nested(body, defs):
        lines += ["", f"Each `{model}`: {defs[model].get('description', '')}", ""]
        lines += _table(
            ("name", "type", "default", "description"), _parameter_lines(rows(defs[model]))
        )
    lines += [""]
    if doc.computes:
        lines += ["**Computes** (names `bind` and other claims can use)", ""]
        lines += _table(("quantity", "meaning"), [(f"`{q}`", m) for q, m in doc.computes.items()])
        lines += [""]
    if doc.dynamic:
        lines += [doc.dynamic, ""]
    lines += [note for note in doc.notes] + ([""] if doc.notes else [])
    lines += ["**Example.** In `lesson.md`:", "", "```markdown", doc.lesson.rstrip("\n"), "```", ""]
    lines += ["In `claims.yaml`:", "", "```yaml", doc.claims.rstrip("\n"), "```", ""]
    return "\n".join(lines)


def page() -> str:
    """docs/claim-kinds.md."""
    defs = definitions()
    lines = [
        "# Claim kinds",
        "",
        f"<!-- Generated by `{COMMAND}` from the kinds' parameter models; do not edit. -->",
        "",
        "Every claim in `claims.yaml` has a `kind`. This page lists, for each kind, what it "
        "checks, its parameters (type, default, meaning), the quantities it computes (the "
        "names `bind` and other claims refer to) and an example that the test suite runs. "
        "`atlas-build explain KIND` prints the same; `schemas/claims.schema.json` holds the "
        "parameters as JSON Schema (`$defs/params-KIND`). How quotes, `bind`, tolerances and "
        "coverage work is in [claims.md](claims.md); writing a lesson, in "
        "[authoring.md](authoring.md).",
        "",
        NUMERALS,
        "",
        "A long `quote` may continue on the next line, indented: YAML joins the lines of a "
        "double-quoted string with one space. Inside double quotes a backslash is written "
        "twice, so the lesson's `\\[0,ln3\\]` is quoted as `\\\\[0,ln3\\\\]`.",
        "",
    ]
    lines += _table(("kind", "what it checks"), [(f"[`{n}`](#{n})", KINDS[n].summary)
                                                 for n in sorted(KINDS)])  # fmt: skip
    lines.append("")
    for name in sorted(KINDS):
        lines += ["", kind_markdown(name, defs).rstrip("\n"), ""]
    return "\n".join(lines).rstrip("\n") + "\n"


def _wrapped(text: str, indent: str = "  ") -> list[str]:
    return textwrap.wrap(text, 92, initial_indent=indent, subsequent_indent=indent) or [indent]


def kind_text(name: str) -> str:
    """`atlas-build explain KIND`: the kind's documentation as plain text."""
    defs = definitions()
    body, doc = defs[PREFIX + name], DOCS[name]
    lines = [f"{name} (claim kind): {KINDS[name].summary}", *_wrapped(doc.checks), ""]
    sections = [("Parameters (params:)", body)]
    sections += [
        (f"Each {model}: {defs[model].get('description', '')}", defs[model])
        for model in nested(body, defs)
    ]
    for title, model in sections:
        lines.append(title)
        for row in rows(model):
            default = "required" if row.default == "required" else f"default {row.default}"
            lines.append(f"  {row.name}: {row.type}; {default}")
            lines += _wrapped(row.description, "      ") if row.description else []
        lines.append("")
    if doc.computes:
        lines.append("Computes (names for bind):")
        lines += [f"  {quantity}: {meaning}" for quantity, meaning in doc.computes.items()]
        lines.append("")
    if doc.dynamic:
        lines += _wrapped(doc.dynamic, "") + [""]
    for note in doc.notes:
        lines += _wrapped(note, "") + [""]
    lines.append("Example, in lesson.md:")
    lines += [f"    {line}".rstrip() for line in doc.lesson.rstrip("\n").splitlines()]
    lines.append("In claims.yaml:")
    lines += [f"    {line}".rstrip() for line in doc.claims.rstrip("\n").splitlines()]
    lines.append(f"\nMore: docs/claim-kinds.md#{name}; quotes and bind: docs/claims.md")
    return "\n".join(lines) + "\n"


def outputs() -> dict[Path, str]:
    """Each generated file and the text it must hold."""
    current = json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))
    return {SCHEMA_PATH: json.dumps(schema(current), indent=2) + "\n", PAGE_PATH: page()}


def stale() -> list[Path]:
    """Generated files whose committed text differs from what the generator produces."""
    found = []
    for path, text in outputs().items():
        try:
            if path.read_text(encoding="utf-8") != text:
                found.append(path)
        except FileNotFoundError:
            found.append(path)
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog=COMMAND, description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="exit 1 if a file is out of date")
    args = parser.parse_args(argv)
    if args.check:
        old = stale()
        for path in old:
            print(f"{path.relative_to(ROOT)} is out of date: run `{COMMAND}`", file=sys.stderr)
        return 1 if old else 0
    from atlas_build.atomic import write_text

    for path, text in outputs().items():
        if write_text(path, text):
            print(f"wrote {path.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
