"""The JSON Schema and the pydantic model accept and reject the same records.

Each fixture is the seed with one change. Both validators judge it; they must agree
with each other and with the expected verdict. Invalid fixtures also go through the
check pipeline, which must report the expected code at the offending value's
JSON pointer and file line:col.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest
from pydantic import ValidationError

from atlas_build import schemas
from atlas_build.model import FIELDS, LessonRecord

Mutation = Callable[[dict[str, Any]], None]


@dataclass(frozen=True)
class Fixture:
    mutate: Mutation
    valid: bool
    code: str | None = None  # the pipeline's code for an invalid fixture
    pointer: str | None = None  # where it is reported
    key: bool = False  # located at the key (unexpected field), not the value


def put(pointer: str, value: Any) -> Mutation:
    def mutate(record: dict[str, Any]) -> None:
        *parents, last = pointer[1:].split("/")
        target: Any = record
        for part in parents:
            target = target[int(part)] if isinstance(target, list) else target[part]
        target[last] = value

    return mutate


def drop(pointer: str) -> Mutation:
    def mutate(record: dict[str, Any]) -> None:
        *parents, last = pointer[1:].split("/")
        target: Any = record
        for part in parents:
            target = target[int(part)] if isinstance(target, list) else target[part]
        del target[last]

    return mutate


def valid(mutate: Mutation) -> Fixture:
    return Fixture(mutate, True)


def invalid(mutate: Mutation, code: str, pointer: str, *, key: bool = False) -> Fixture:
    return Fixture(mutate, False, code, pointer, key)


def unchanged(record: dict[str, Any]) -> None:
    pass


FIXTURES: dict[str, Fixture] = {
    # accepted
    "seed": valid(unchanged),
    "published-date-set": valid(put("/publishedDate", "2025-01-31")),
    "author-set": valid(put("/author", "A. Writer")),
    "nullable-urls-null": valid(
        lambda r: r.update(rightsUrl=None, artifactUrl=None, interactiveUrl=None, jsonUrl=None)
    ),
    "unknown-top-level-field-kept": valid(put("/x-extension", {"anything": [1, 2]})),
    "related-ids": valid(put("/related", ["atlas-lesson-kv-cache", "softmax-2"])),
    "no-sections-no-citations": valid(lambda r: r.update(sections=[], citations=[])),
    "astral-title": valid(put("/title", "Attention \U0001f600")),
    "zero-length": valid(put("/contentLength", 0)),
    "http-url": valid(put("/canonicalUrl", "http://example.org/a?b=c#d")),
    # rejected: missing fields
    "missing-id": invalid(drop("/id"), "A112", ""),
    "missing-content": invalid(drop("/content"), "A112", ""),
    "missing-nullable-author": invalid(drop("/author"), "A112", ""),
    "section-missing-end": invalid(drop("/sections/0/end"), "A112", "/sections/0"),
    "citation-missing-url": invalid(drop("/citations/1/url"), "A112", "/citations/1"),
    # rejected: wrong types
    "title-number": invalid(put("/title", 12), "A114", "/title"),
    "sections-object": invalid(put("/sections", {}), "A114", "/sections"),
    "citations-string": invalid(put("/citations", "none"), "A114", "/citations"),
    "related-string": invalid(put("/related", "atlas-lesson-x"), "A114", "/related"),
    "author-number": invalid(put("/author", 7), "A114", "/author"),
    "title-null": invalid(put("/title", None), "A114", "/title"),
    "revision-date-null": invalid(put("/revisionDate", None), "A114", "/revisionDate"),
    "content-length-bool": invalid(put("/contentLength", True), "A114", "/contentLength"),
    "section-start-bool": invalid(put("/sections/0/start", False), "A114", "/sections/0/start"),
    "content-length-string": invalid(put("/contentLength", "10251"), "A114", "/contentLength"),
    "section-end-string": invalid(put("/sections/2/end", "2234"), "A114", "/sections/2/end"),
    "content-length-fraction": invalid(put("/contentLength", 10251.5), "A114", "/contentLength"),
    "record-is-array": invalid(unchanged, "A114", ""),  # see build(): the seed inside a list
    # rejected: ids
    "id-dot-dot-slash": invalid(put("/id", "../x"), "A115", "/id"),
    "id-uppercase": invalid(put("/id", "Atlas-Lesson"), "A115", "/id"),
    "id-dot": invalid(put("/id", "atlas.lesson"), "A115", "/id"),
    "id-slash": invalid(put("/id", "atlas/lesson"), "A115", "/id"),
    "id-space": invalid(put("/id", "atlas lesson"), "A115", "/id"),
    "id-empty": invalid(put("/id", ""), "A115", "/id"),
    "id-double-hyphen": invalid(put("/id", "atlas--lesson"), "A115", "/id"),
    "id-leading-hyphen": invalid(put("/id", "-atlas"), "A115", "/id"),
    "related-bad-id": invalid(put("/related", ["ok", "Not OK"]), "A115", "/related/1"),
    # rejected: hashes
    "content-hash-uppercase": invalid(
        lambda r: r.update(contentHash=r["contentHash"].upper()), "A115", "/contentHash"
    ),
    "content-hash-short": invalid(
        lambda r: r.update(contentHash=r["contentHash"][:-1]), "A115", "/contentHash"
    ),
    "record-hash-not-hex": invalid(put("/recordHash", "g" * 64), "A115", "/recordHash"),
    # rejected: sections and citations
    "section-negative-start": invalid(put("/sections/0/start", -1), "A115", "/sections/0/start"),
    "section-id-zero": invalid(put("/sections/0/id", "section-0"), "A115", "/sections/0/id"),
    "section-id-other": invalid(put("/sections/1/id", "intro"), "A115", "/sections/1/id"),
    "section-extra-field": invalid(
        put("/sections/0/level", 1), "A113", "/sections/0/level", key=True
    ),
    "citation-extra-field": invalid(
        put("/citations/0/note", "x"), "A113", "/citations/0/note", key=True
    ),
    "citation-empty-title": invalid(put("/citations/0/title", ""), "A115", "/citations/0/title"),
    # rejected: dates and URIs
    "date-month-13": invalid(put("/revisionDate", "2026-13-01"), "A115", "/revisionDate"),
    "date-feb-30": invalid(put("/publishedDate", "2026-02-30"), "A115", "/publishedDate"),
    "date-us-style": invalid(put("/revisionDate", "10/07/2026"), "A115", "/revisionDate"),
    "uri-not-a-uri": invalid(put("/canonicalUrl", "not a uri"), "A115", "/canonicalUrl"),
    "uri-relative": invalid(put("/jsonUrl", "/agents/x.json"), "A115", "/jsonUrl"),
    "citation-uri-bad": invalid(put("/citations/3/url", "http://a b"), "A115", "/citations/3/url"),
    # rejected: constants, enums, uniqueness, lengths, patterns
    "schema-version-2": invalid(put("/schemaVersion", 2), "A115", "/schemaVersion"),
    "schema-version-string": invalid(put("/schemaVersion", "1"), "A115", "/schemaVersion"),
    "content-format-html": invalid(put("/contentFormat", "text/html"), "A115", "/contentFormat"),
    "related-not-unique": invalid(put("/related", ["a-b", "a-b"]), "A115", "/related"),
    "supersedes-not-unique": invalid(put("/supersedes", ["x", "x"]), "A115", "/supersedes"),
    "title-empty": invalid(put("/title", ""), "A115", "/title"),
    "title-too-long": invalid(put("/title", "t" * 301), "A115", "/title"),
    "version-two-parts": invalid(put("/version", "1.3"), "A115", "/version"),
    "version-leading-zero": invalid(put("/version", "01.3.0"), "A115", "/version"),
}

DISAGREEMENTS = {
    "id-trailing-newline": (
        put("/id", "atlas-lesson\n"),
        "was a bug: schema patterns end in `$`, which Python's re (used by jsonschema) matches "
        "before a trailing newline; the schema accepts id 'atlas-lesson\\n', the model rejects it",
    ),
    "content-hash-trailing-newline": (
        lambda r: r.update(contentHash=r["contentHash"] + "\n"),
        "was a bug: the schema accepted a sha256 value with a trailing newline",
    ),
    "integral-float-where-int": (
        put("/contentLength", 10251.0),
        "was a bug: the schema's `integer` accepts 10251.0 (JSON Schema: integral numbers are "
        "integers); the strict model rejects it",
    ),
    "schema-version-true": (
        put("/schemaVersion", True),
        "was a bug: the model's Literal[1] accepts `true` for schemaVersion; the schema's const 1 "
        "rejects it",
    ),
}


def build(name: str, seed: dict[str, Any]) -> Any:
    if name == "record-is-array":
        return [seed]
    FIXTURES[name].mutate(seed)
    return seed


def schema_accepts(data: Any) -> bool:
    return not list(schemas.validator("lesson-record.schema.json").iter_errors(data))


def model_accepts(data: Any) -> bool:
    try:
        LessonRecord.model_validate(data)
    except ValidationError:
        return False
    return True


def test_enough_fixtures():
    assert sum(1 for fixture in FIXTURES.values() if not fixture.valid) >= 15
    assert FIXTURES["seed"].valid


@pytest.mark.parametrize("name", list(FIXTURES))
def test_schema_and_model_agree(name, seed):
    data = build(name, seed)
    expected = FIXTURES[name].valid
    assert schema_accepts(data) is expected
    assert model_accepts(data) is expected


@pytest.mark.parametrize("name", list(DISAGREEMENTS))
def test_schema_and_model_agree_on_edge_cases(name, seed):
    DISAGREEMENTS[name][0](seed)
    assert schema_accepts(seed) is model_accepts(seed)


@pytest.mark.parametrize("name", [n for n, f in FIXTURES.items() if not f.valid])
def test_invalid_fixture_reported_at_its_pointer(name, seed, write_record, diagnose, position):
    fixture = FIXTURES[name]
    data = build(name, seed)
    path = write_record(data)
    found = diagnose(path)
    errors = [d for d in found if d.severity == "error"]
    assert errors, f"{name} passed the check"
    matching = [d for d in errors if d.code == fixture.code and d.pointer == fixture.pointer]
    assert matching, [(d.code, d.pointer, d.message) for d in errors]
    line, column = position(data, fixture.pointer)
    if fixture.key:
        key = fixture.pointer.rsplit("/", 1)[1]
        column -= len(f'"{key}": ')
    assert (matching[0].line, matching[0].column) == (line, column)
    assert str(path.relative_to(path.parents[2])) in matching[0].path


def test_schema_violations_stop_the_pipeline_before_integrity(seed, write_record, diagnose):
    seed["id"] = "../x"
    seed["contentLength"] = 1  # would be A204 if integrity ran on an invalid record
    codes = {d.code for d in diagnose(write_record(seed))}
    assert "A115" in codes
    assert not codes & {"A201", "A204", "A220"}


def test_unknown_top_level_field_is_a_warning_at_its_key(seed, write_record, diagnose, position):
    seed["tittle"] = "typo"
    found = [d for d in diagnose(write_record(seed)) if d.code == "A111"]
    assert len(found) == 1
    assert found[0].severity == "warning"
    assert found[0].pointer == "/tittle"
    line, column = position(seed, "/tittle")
    assert (found[0].line, found[0].column) == (line, column - len('"tittle": '))


def test_model_exposes_every_schema_property():
    properties = schemas.load("lesson-record.schema.json")["properties"]
    assert set(FIELDS) == set(properties)
    required = set(schemas.load("lesson-record.schema.json")["required"])
    assert required == set(properties)


def test_model_gives_typed_access(seed):
    record = LessonRecord.model_validate(seed)
    assert record.id == "atlas-lesson-attention"
    assert record.contentLength == 10251
    assert record.sections[1].title == "The mechanism"
    assert record.sections[-1].end == 10251
    assert record.citations[1].url == "https://arxiv.org/abs/1706.03762"
    assert record.publishedDate is None


def test_unknown_field_pointer_is_escaped(seed, write_record, diagnose):
    seed["x/y"] = 1
    found = [d for d in diagnose(write_record(seed)) if d.code == "A111"]
    assert [d.pointer for d in found] == ["/x~1y"]
