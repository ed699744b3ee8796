"""Claim-kind documentation: generated from the kinds' models, complete, and its examples
pass the real build; the schema's per-kind parameters agree with the models."""

from __future__ import annotations

import copy
import json
import re
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft202012Validator
from pydantic import ValidationError
from referencing import Registry, Resource
from support import check, write_lesson

from atlas_build import load, safeyaml
from atlas_build.claims.docs import docgen
from atlas_build.claims.docs.kinddocs import DOCS
from atlas_build.claims.running import file
from atlas_build.claims.running.registry import KINDS
from atlas_build.claims.running.run import LessonClaims

REPO = Path(__file__).resolve().parent.parent
SCHEMA = json.loads((REPO / "schemas" / "claims.schema.json").read_text(encoding="utf-8"))


def validator(pointer: str) -> Draft202012Validator:
    """A validator for one `$defs` entry of the committed claims schema."""
    resource = Resource.from_contents(SCHEMA)
    registry: Registry[Any] = Registry().with_resource(SCHEMA["$id"], resource)
    return Draft202012Validator({"$ref": SCHEMA["$id"] + pointer}, registry=registry)


# --- generated files ---------------------------------------------------------------------------


def test_committed_schema_and_page_are_what_the_generator_writes():
    assert docgen.stale() == [], f"run `{docgen.COMMAND}` and commit the result"
    assert docgen.main(["--check"]) == 0


def test_check_mode_names_a_stale_file(tmp_path, monkeypatch, capsys):
    page, schema = tmp_path / "claim-kinds.md", tmp_path / "claims.schema.json"
    page.write_text(docgen.page().replace("softmax", "softmaks", 1), encoding="utf-8")
    schema.write_bytes(docgen.SCHEMA_PATH.read_bytes())
    monkeypatch.setattr(docgen, "PAGE_PATH", page)
    monkeypatch.setattr(docgen, "SCHEMA_PATH", schema)
    monkeypatch.setattr(docgen, "ROOT", tmp_path)
    assert docgen.stale() == [page]
    assert docgen.main(["--check"]) == 1
    assert "claim-kinds.md is out of date" in capsys.readouterr().err
    assert docgen.main([]) == 0  # writing repairs it
    assert docgen.stale() == []


def test_committed_schema_is_a_valid_draft_2020_12_schema():
    Draft202012Validator.check_schema(SCHEMA)
    assert "explain-claims" not in json.dumps(SCHEMA)


# --- completeness ------------------------------------------------------------------------------


def test_every_kind_and_every_parameter_is_documented():
    assert set(DOCS) == set(KINDS)
    defs = docgen.definitions()
    page = docgen.page()
    for name in KINDS:
        body = defs[docgen.PREFIX + name]
        models = [body] + [defs[model] for model in docgen.nested(body, defs)]
        for model in models:
            for parameter, node in model["properties"].items():
                assert node.get("description"), f"{name}: `{parameter}` has no description"
                assert f"| `{parameter}` |" in page
        assert set(body["properties"]) == set(KINDS[name].params.model_fields)
        assert f"## `{name}`" in page and KINDS[name].summary in page


def test_defaults_of_factory_fields_are_written_out():
    equation = docgen.definitions()["params-equation"]["properties"]
    assert equation["engine_inputs"]["default"] == {"q": "Q", "k": "K", "v": "V"}
    assert equation["seeds"]["default"] == [0, 1, 2]
    assert "| `engine_inputs` | mapping of name to text | `{q: Q, k: K, v: V}` |" in docgen.page()


# --- examples ----------------------------------------------------------------------------------


@pytest.mark.parametrize("name", sorted(DOCS))
def test_each_example_passes_the_build_and_computes_what_is_documented(tmp_path, name):
    doc = DOCS[name]
    folder = write_lesson(tmp_path, "example-" + name.replace("_", "-"), doc.lesson, doc.claims)
    result = check(folder)
    assert set(result.status().values()) == {"pass"}, result.record.claims
    assert [d for d in result.record.diagnostics if d.severity.value != "info"] == []
    coverage = result.record.coverage
    assert coverage["numbers"]["unaccounted"] == 0
    relations = coverage["relations"]
    assert relations["verified"] + relations["defined"] == relations["total"]
    computed = _quantities(folder, name)
    documented = set(doc.computes)
    if doc.dynamic:
        assert {q for q in documented if not q.startswith("<")} <= computed
    else:
        assert documented == computed, f"{name} computes {sorted(computed)}"


def _quantities(folder: Path, name: str) -> set[str]:
    """Names the example's claims of kind `name` compute, from the kind's own outcome."""
    from atlas_build import lesson as lessons
    from atlas_build.load import schema

    source = load.read(load.Found(folder / "lesson.md", folder.parent))
    record, _ = schema.validate(source.data, source.locator)
    claims, problems = file.read(str(folder / "claims.yaml"))
    assert claims is not None and record is not None, problems
    runner = LessonClaims(claims, lessons.build(record.content), source.locator)
    found: set[str] = set()
    for claim in docgen.example_claims(name):
        found |= set(runner.outcome(claim["id"]).quantities)
    return found


# --- the schema agrees with the models ---------------------------------------------------------


def _every_claim() -> list[dict[str, Any]]:
    claims = []
    for path in sorted(REPO.glob("content/*/claims.yaml")):
        claims += safeyaml.load(path.read_text(encoding="utf-8")).data["claims"]
    for doc in DOCS.values():
        claims += safeyaml.load(doc.claims).data["claims"]
    return claims


def test_every_claim_written_today_is_valid_per_kind():
    per_kind = validator("#/$defs/claim-per-kind")
    claims = _every_claim()
    assert {claim["kind"] for claim in claims} == set(KINDS)
    for claim in claims:
        assert list(per_kind.iter_errors(claim)) == [], claim["id"]


@pytest.mark.parametrize("name", sorted(DOCS))
def test_schema_and_model_refuse_the_same_mistakes(name):
    params = docgen.example_claims(name)[0]["params"]
    schema = validator(f"#/$defs/{docgen.PREFIX}{name}")
    model = KINDS[name].params
    model.model_validate(params)
    assert list(schema.iter_errors(params)) == []
    mistakes = [{**params, "colour": "red"}]
    mistakes += [{k: v for k, v in params.items() if k != key} for key in _required(name)]
    for wrong in mistakes:
        assert list(schema.iter_errors(wrong)), wrong
        with pytest.raises(ValidationError):
            model.model_validate(wrong)


def _required(name: str) -> list[str]:
    return [n for n, f in KINDS[name].params.model_fields.items() if f.is_required()]


def test_a_claim_that_extends_may_leave_out_required_parameters_but_not_misname_one():
    per_kind = validator("#/$defs/claim-per-kind")
    claim = {"id": "hotter", "kind": "softmax", "extends": "base", "params": {"temperature": 2}}
    assert list(per_kind.iter_errors(claim)) == []
    misnamed = copy.deepcopy(claim)
    misnamed["params"] = {"temprature": 2}
    assert list(per_kind.iter_errors(misnamed))
    del claim["extends"]
    assert list(per_kind.iter_errors(claim))  # without extends, `logits` is required


def test_the_loader_still_reports_a_wrong_parameter_per_claim(tmp_path):
    """The per-kind schema is not applied on read: a wrong parameter is one A404 at it,
    and the lesson's other claims still run."""
    doc = DOCS["softmax"]
    wrong = doc.claims + (
        "  - id: typo\n    kind: softmax\n    params: {logit: [1, 2], temperature: 1}\n"
    )
    result = check(write_lesson(tmp_path, "typo", doc.lesson, wrong))
    assert result.status() == {"three-logits": "pass", "typo": "error"}
    [problem] = result.found("A404")
    assert problem.message == "claim typo: `logits` is required"


# --- every `explain` the docs mention works ----------------------------------------------------


def _mentioned() -> set[str]:
    from atlas_build.authoring import sources

    texts = [sources.CLAIMS_SKELETON, json.dumps(SCHEMA), (REPO / "README.md").read_text()]
    texts += [path.read_text(encoding="utf-8") for path in sorted((REPO / "docs").glob("*.md"))]
    found = set()
    for text in texts:
        found |= set(re.findall(r"atlas-build explain ([A-Za-z][\w-]*)", text))
    return found - {"CODE", "KIND", "NAME"}


def test_every_explain_the_docs_mention_works(run_cli):
    mentioned = _mentioned()
    assert "formula" in mentioned  # the claims.yaml that `atlas-build new` writes says so
    for name in sorted(mentioned):
        result = run_cli("explain", name)
        assert result.code == 0 and result.out and not result.err, name


def test_explain_kind_prints_its_parameters_quantities_and_example(run_cli):
    result = run_cli("explain", "formula")
    assert result.code == 0
    assert result.out.startswith("formula (claim kind): " + KINDS["formula"].summary)
    for parameter in KINDS["formula"].params.model_fields:
        assert f"\n  {parameter}: " in result.out
    assert "Each RelationRef: One relation of a display equation." in result.out
    assert "    kind: formula" in result.out and "In claims.yaml:" in result.out
    assert result.out == docgen.kind_text("formula")


def test_explain_takes_codes_and_kinds_together(run_cli):
    result = run_cli("explain", "A420", "softmax-mixture", "SHAPE")
    assert result.code == 0
    assert result.out.startswith("A420 dimension-mismatch")
    assert "\nsoftmax_mixture (claim kind): " in result.out
    assert "\nshape (claim kind): " in result.out


def test_explain_an_unknown_name_says_what_names_exist(run_cli):
    result = run_cli("explain", "formulae")
    assert result.code == 2 and result.out == ""
    assert "'formulae' is neither a diagnostic code" in result.err
    assert "formula, loss_mask" in result.err


def test_explain_without_names_ends_with_the_claim_kinds(run_cli):
    result = run_cli("explain")
    assert result.code == 0
    last = result.out.splitlines()[-1]
    assert last == "Claim kinds (atlas-build explain KIND): " + ", ".join(sorted(KINDS))
