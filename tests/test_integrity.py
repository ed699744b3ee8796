"""Integrity rules: computed fields must describe the content, each finding at the right place.

Records are the seed with one change, written pretty-printed (one field per line) so
that every location can be checked exactly against positions computed independently
(`position` substitutes a sentinel at a JSON pointer and finds it in the dump).
"""

from __future__ import annotations

import json

import pytest

from atlas_build.canonical import canonicalize
from atlas_build.diagnostics import Diagnostic, Severity
from atlas_build.recordhash import content_hash, record_hash

ATTENTION = "atlas-lesson-attention"
SPINE = ("A1", "A2")  # load and integrity codes: other stages may add their own findings


def spine(found: list[Diagnostic]) -> list[Diagnostic]:
    return [d for d in found if d.code.startswith(SPINE)]


def errors(found: list[Diagnostic]) -> list[Diagnostic]:
    return [d for d in found if d.severity is Severity.ERROR]


def one(found: list[Diagnostic], code: str) -> Diagnostic:
    matching = [d for d in found if d.code == code]
    assert len(matching) == 1, [(d.code, d.message) for d in found]
    return matching[0]


def at(diagnostic: Diagnostic) -> tuple[int | None, int | None]:
    return diagnostic.line, diagnostic.column


def content_position(record, position, offset: int) -> tuple[int, int]:
    """File line:col of a code-point offset into `content` as written by write_record."""
    line, column = position(record, "/content")
    escaped = json.dumps(record["content"][:offset], ensure_ascii=False)[1:-1]
    assert "\n" not in escaped
    return line, column + 1 + len(escaped)


# --- the seed --------------------------------------------------------------------------------


def test_seed_passes_with_its_hash_recipes_as_information(seed, seed_bytes, write_record, diagnose):
    found = diagnose(write_record(seed_bytes))
    assert errors(found) == []
    warnings = [d for d in found if d.severity is Severity.WARNING]
    assert {d.code for d in warnings} <= {"A320"}
    infos = [d.code for d in found if d.severity is Severity.INFO and d.code.startswith("A2")]
    assert sorted(infos) == ["A202", "A211"]


def test_seed_padded_hash_warning_names_cause_and_first_padded_line(
    seed, write_record, diagnose, position
):
    padded = one(diagnose(write_record(seed)), "A202")
    assert padded.severity is Severity.INFO
    assert "list markers padded" in padded.message
    assert "32 lines" in padded.message
    assert padded.pointer == "/content"
    assert (padded.content_line, padded.content_column) == (19, 4)
    offset = seed["content"].index("1. Project") + 3
    assert at(padded) == content_position(seed, position, offset)


def test_seed_record_hash_unverifiable_information(seed, write_record, diagnose, position):
    found = one(diagnose(write_record(seed)), "A211")
    assert found.severity is Severity.INFO
    assert found.pointer == "/recordHash"
    assert at(found) == position(seed, "/recordHash")
    assert record_hash(seed)[:12] in found.message


def test_content_without_lists_hashes_as_shipped(seed, write_record, diagnose, rehash):
    seed["content"] = "# Plain\n\nNo list here.\n"
    rehash(seed)
    assert seed["contentHash"] == content_hash(seed["content"])
    found = spine(diagnose(write_record(seed)))
    assert "A202" not in {d.code for d in found}
    assert errors(found) == []


# --- contentHash -----------------------------------------------------------------------------


def test_one_character_changed(seed, write_record, diagnose, position):
    seed["content"] = seed["content"].replace("token representations", "token representatione", 1)
    found = diagnose(write_record(seed))
    mismatch = one(found, "A201")
    assert mismatch.severity is Severity.ERROR
    assert mismatch.pointer == "/contentHash"
    assert at(mismatch) == position(seed, "/contentHash")
    assert seed["contentHash"] in mismatch.message
    assert content_hash(canonicalize(seed["content"])) in mismatch.message
    assert "A202" not in {d.code for d in found}


def test_one_character_changed_exits_1(seed, write_record, run_cli):
    seed["content"] = seed["content"].replace("Self-attention computes", "Self-attention compute$")
    result = run_cli("check", write_record(seed))
    assert result.code == 1
    assert " error A201 " in result.out


def test_crlf_content_is_a_warning_at_the_first_cr(seed, write_record, diagnose, position):
    seed["content"] = seed["content"].replace("\n", "\r\n")
    found = diagnose(write_record(seed))
    assert errors(spine(found)) == []
    crlf = one(found, "A203")
    assert crlf.severity is Severity.WARNING
    first = seed["content"].index("\r")
    assert (crlf.content_line, crlf.content_column) == (1, first + 1)
    assert at(crlf) == content_position(seed, position, first)
    padded = one(found, "A202")
    assert "line endings" in padded.message and "32 lines" in padded.message


def test_bare_cr_content_padding_count(seed, write_record, diagnose):
    seed["content"] = seed["content"].replace("\n", "\r")
    padded = one(diagnose(write_record(seed)), "A202")
    assert "32 lines" in padded.message


# --- contentLength ---------------------------------------------------------------------------


def test_wrong_content_length(seed, write_record, diagnose, position, run_cli):
    seed["contentLength"] = 10250
    path = write_record(seed)
    found = one(diagnose(path), "A204")
    assert found.severity is Severity.ERROR
    assert found.pointer == "/contentLength"
    assert at(found) == position(seed, "/contentLength")
    assert "10250" in found.message and "expected 10251" in found.message
    assert run_cli("check", path).code == 1


def test_content_length_of_shipped_text_is_named(seed, write_record, diagnose):
    seed["contentLength"] = 10204
    found = one(diagnose(write_record(seed)), "A204")
    assert "as shipped" in found.message


def astral_seed(seed, rehash):
    seed["content"] = seed["content"].replace("# Self-attention", "# Self-attention \U0001d400", 1)
    return rehash(seed)


def test_astral_characters_name_the_convention(seed, write_record, diagnose, rehash, position):
    astral_seed(seed, rehash)
    canonical = canonicalize(seed["content"])
    assert seed["contentLength"] == len(canonical) == 10253
    found = diagnose(write_record(seed))
    assert errors(spine(found)) == []
    info = one(found, "A205")
    assert info.severity is Severity.INFO
    assert info.pointer == "/contentLength"
    assert at(info) == position(seed, "/contentLength")
    assert "code points" in info.message
    assert "UTF-16" in info.message and "10254" in info.message


def test_utf16_content_length_is_an_error_naming_utf16(seed, write_record, diagnose, rehash):
    astral_seed(seed, rehash)
    seed["contentLength"] = len(canonicalize(seed["content"]).encode("utf-16-le")) // 2
    assert seed["contentLength"] == 10254
    found = diagnose(write_record(seed))
    length = one(found, "A204")
    assert length.severity is Severity.ERROR
    assert "UTF-16" in length.message
    assert "expected 10253" in length.message
    assert "A205" not in {d.code for d in found}


def test_bmp_only_content_has_no_convention_note(seed, write_record, diagnose):
    assert "A205" not in {d.code for d in diagnose(write_record(seed))}


# --- sections --------------------------------------------------------------------------------


def test_section_offset_shifted(seed, write_record, diagnose, position, run_cli):
    seed["sections"][3]["start"] += 1
    path = write_record(seed)
    found = diagnose(path)
    mismatch = one(found, "A220")
    assert mismatch.severity is Severity.ERROR
    assert mismatch.pointer == "/sections/3/start"
    assert at(mismatch) == position(seed, "/sections/3/start")
    assert "section-4" in mismatch.message
    assert "expected 2234" in mismatch.message and "2235" in mismatch.message
    assert "content line 30" in mismatch.message
    assert run_cli("check", path).code == 1


def test_section_mismatch_gives_content_line_and_column(seed, write_record, diagnose):
    seed["sections"][3]["start"] += 1
    mismatch = one(diagnose(write_record(seed)), "A220")
    assert (mismatch.content_line, mismatch.content_column) == (30, 1)


@pytest.mark.parametrize(
    ("field", "value"),
    [("id", "section-9"), ("title", "Wrong title"), ("end", 4000)],
)
def test_each_section_field_compared(field, value, seed, write_record, diagnose, position):
    expected = seed["sections"][3][field]
    seed["sections"][3][field] = value
    mismatches = [d for d in diagnose(write_record(seed)) if d.code == "A220"]
    assert [d.pointer for d in mismatches] == [f"/sections/3/{field}"]
    assert at(mismatches[0]) == position(seed, f"/sections/3/{field}")
    assert repr(expected) in mismatches[0].message and repr(value) in mismatches[0].message


def structure_findings(seed, write_record, diagnose) -> list[Diagnostic]:
    return [d for d in diagnose(write_record(seed)) if d.code == "A223"]


def test_overlapping_sections(seed, write_record, diagnose, position):
    seed["sections"][2]["start"] -= 5
    found = structure_findings(seed, write_record, diagnose)
    assert [d.pointer for d in found] == ["/sections/2/start"]
    assert "overlap" in found[0].message
    assert at(found[0]) == position(seed, "/sections/2/start")


def test_unsorted_sections(seed, write_record, diagnose):
    seed["sections"][1], seed["sections"][2] = seed["sections"][2], seed["sections"][1]
    found = structure_findings(seed, write_record, diagnose)
    assert any("out of order" in d.message for d in found)
    assert all(d.severity is Severity.ERROR for d in found)


def test_gap_between_sections(seed, write_record, diagnose):
    seed["sections"][2]["start"] += 5
    found = structure_findings(seed, write_record, diagnose)
    assert [d.pointer for d in found] == ["/sections/2/start"]
    assert "contiguous" in found[0].message


def test_duplicate_section_ids(seed, write_record, diagnose, position):
    seed["sections"][2]["id"] = "section-2"
    found = structure_findings(seed, write_record, diagnose)
    assert [d.pointer for d in found] == ["/sections/2/id"]
    assert "section-2" in found[0].message
    assert at(found[0]) == position(seed, "/sections/2/id")


def test_section_ending_before_it_starts(seed, write_record, diagnose):
    seed["sections"][0]["end"] = 10
    found = structure_findings(seed, write_record, diagnose)
    assert "/sections/0/end" in [d.pointer for d in found]


def test_section_past_content_length(seed, write_record, diagnose):
    seed["sections"][-1]["end"] = 99_999
    found = structure_findings(seed, write_record, diagnose)
    assert [d.pointer for d in found] == ["/sections/19/end"]
    assert "past contentLength" in found[0].message


def test_extra_section(seed, write_record, diagnose, position):
    seed["sections"].append({"id": "section-21", "title": "Ghost", "start": 10251, "end": 10251})
    found = diagnose(write_record(seed))
    extra = one(found, "A222")
    assert extra.severity is Severity.ERROR
    assert extra.pointer == "/sections/20"
    assert at(extra) == position(seed, "/sections/20")
    assert "Ghost" in extra.message


def test_missing_section(seed, write_record, diagnose, position):
    seed["sections"].pop()
    missing = one(diagnose(write_record(seed)), "A221")
    assert missing.severity is Severity.ERROR
    assert "Related lessons" in missing.message and "section-20" in missing.message
    offset = seed["content"].index("\n### Related lessons") + 1
    assert (missing.content_line, missing.content_column) == (
        seed["content"].count("\n", 0, offset) + 1,
        1,
    )
    assert at(missing) == content_position(seed, position, offset)


def test_heading_added_without_section(seed, write_record, diagnose):
    seed["content"] += "\n## Appendix\n\nMore.\n"
    canonical = canonicalize(seed["content"])
    seed["contentHash"] = content_hash(canonical)
    seed["contentLength"] = len(canonical)
    found = spine(diagnose(write_record(seed)))
    assert "Appendix" in one(found, "A221").message
    assert [d.pointer for d in found if d.code == "A220"] == ["/sections/19/end"]


def test_no_headings(seed, write_record, diagnose, rehash):
    seed["content"] = "Just a paragraph.\n\n```\n# not a heading\n```\n"
    rehash(seed)
    assert seed["sections"] == []
    found = spine(diagnose(write_record(seed)))
    warning = one(found, "A224")
    assert warning.severity is Severity.WARNING
    assert (warning.content_line, warning.content_column) == (1, 1)
    assert errors(found) == []


def test_rehashed_setext_and_fenced_content_passes(seed, write_record, diagnose, rehash):
    seed["content"] = (
        "Preamble.\n\nTitle\n=====\n\n- a\n- b\n\n```\n# no\n- no\n```\n\nPart\n----\n\n10. x\n"
    )
    rehash(seed)
    assert [s["title"] for s in seed["sections"]] == ["Title", "Part"]
    assert errors(spine(diagnose(write_record(seed)))) == []


# --- ids and URLs ----------------------------------------------------------------------------


def test_id_path_traversal(seed, write_record, diagnose, position, run_cli):
    seed["id"] = "../x"
    path = write_record(seed)
    found = one(diagnose(path), "A115")
    assert found.severity is Severity.ERROR
    assert found.pointer == "/id"
    assert at(found) == position(seed, "/id")
    assert run_cli("check", path).code == 1


@pytest.mark.parametrize(
    "url",
    [
        "javascript:alert(1)",
        "JavaScript:alert(document.cookie)",
        "data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==",
        "file:///etc/passwd",
        "ftp://example.org/x",
        "http:no-host",
    ],
)
def test_unsafe_citation_url(url, seed, write_record, diagnose, position, run_cli):
    seed["citations"][2]["url"] = url
    path = write_record(seed)
    found = one(diagnose(path), "A230")
    assert found.severity is Severity.ERROR
    assert found.pointer == "/citations/2/url"
    assert at(found) == position(seed, "/citations/2/url")
    assert run_cli("check", path).code == 1


def test_unparseable_data_url_still_an_error_at_the_citation(seed, write_record, diagnose):
    seed["citations"][0]["url"] = "data:text/html,<script>alert(1)</script>"
    found = [d for d in errors(diagnose(write_record(seed))) if d.pointer == "/citations/0/url"]
    assert found and found[0].code in ("A115", "A230")


@pytest.mark.parametrize(
    "field", ["canonicalUrl", "rightsUrl", "artifactUrl", "interactiveUrl", "jsonUrl"]
)
def test_unsafe_url_fields(field, seed, write_record, diagnose, position):
    seed[field] = "javascript:alert(1)"
    found = one(diagnose(write_record(seed)), "A230")
    assert found.pointer == f"/{field}"
    assert at(found) == position(seed, f"/{field}")


def test_http_and_https_urls_are_fine(seed, write_record, diagnose):
    seed["canonicalUrl"] = "HTTP://example.org/lesson"
    seed["citations"][0]["url"] = "https://example.org/a?b=c#d"
    assert "A230" not in {d.code for d in diagnose(write_record(seed))}


# --- references --------------------------------------------------------------------------------


@pytest.mark.parametrize("field", ["related", "supersedes", "supersededBy"])
def test_unknown_lesson_reference(field, seed, write_record, diagnose, position):
    seed[field] = ["atlas-lesson-other", "atlas-lesson-nope"]
    found = [d for d in diagnose(write_record(seed)) if d.code == "A240"]
    assert [d.pointer for d in found] == [f"/{field}/0", f"/{field}/1"]
    assert all(d.severity is Severity.WARNING for d in found)
    assert at(found[1]) == position(seed, f"/{field}/1")
    assert "atlas-lesson-nope" in found[1].message


def test_related_id_known_in_the_checked_set(seed, write_record, diagnose, content_dir):
    other = json.loads(json.dumps(seed))
    other["id"] = "atlas-lesson-other"
    seed["related"] = ["atlas-lesson-other"]
    other["supersededBy"] = [ATTENTION]
    write_record(seed)
    write_record(other, slug="other")
    assert "A240" not in {d.code for d in diagnose(content_dir)}


@pytest.mark.parametrize("field", ["related", "supersedes", "supersededBy"])
def test_self_reference(field, seed, write_record, diagnose, position, run_cli):
    seed[field] = [ATTENTION]
    path = write_record(seed)
    found = one(diagnose(path), "A241")
    assert found.severity is Severity.ERROR
    assert found.pointer == f"/{field}/0"
    assert at(found) == position(seed, f"/{field}/0")
    assert run_cli("check", path).code == 1


# --- recordHash --------------------------------------------------------------------------------


def test_record_hash_recipe_is_jcs_without_record_hash(seed):
    body = {key: value for key, value in seed.items() if key != "recordHash"}
    changed = dict(seed, recordHash="0" * 64)
    assert record_hash(seed) == record_hash(changed) == record_hash(body)
    assert record_hash(dict(seed, title="Other")) != record_hash(seed)


def test_rewritten_record_hash_is_verified(seed, write_record, diagnose, position, run_cli):
    seed["recordHash"] = record_hash(seed)
    path = write_record(seed)
    found = diagnose(path)
    verified = one(found, "A210")
    assert verified.severity is Severity.INFO
    assert at(verified) == position(seed, "/recordHash")
    assert "A211" not in {d.code for d in found}
    assert run_cli("check", "--require-record-hash", path).code == 0


def test_record_hash_verified_regardless_of_formatting(seed, write_record, diagnose):
    seed["recordHash"] = record_hash(seed)
    path = write_record(seed, indent=None)
    assert "A210" in {d.code for d in diagnose(path)}


def test_record_hash_of_modified_record_is_unverifiable(seed, write_record, diagnose):
    seed["recordHash"] = record_hash(seed)
    seed["description"] = "Changed after hashing."
    assert one(diagnose(write_record(seed)), "A211").severity is Severity.INFO


def test_require_record_hash_makes_seed_fail(seed_bytes, write_record, diagnose, run_cli):
    path = write_record(seed_bytes)
    found = one(diagnose(path, require_record_hash=True), "A211")
    assert found.severity is Severity.ERROR
    result = run_cli("check", "--require-record-hash", path)
    assert result.code == 1
    assert " error A211 " in result.out


def test_require_record_hash_when_hash_cannot_be_recomputed(seed, write_record, run_cli):
    seed["x-extension"] = 2**60
    result = run_cli("check", "--require-record-hash", write_record(seed))
    assert result.code == 1
    assert " error A211 " in result.out


# --- the acceptance list through the CLI ---------------------------------------------------


@pytest.mark.parametrize(
    ("name", "code"),
    [
        ("truncated", "A104"),
        ("nan", "A106"),
        ("duplicate-key", "A105"),
    ],
)
def test_broken_files_exit_1(name, code, seed, write_record, run_cli):
    text = json.dumps(seed, ensure_ascii=False, indent=2)
    if name == "truncated":
        text = text[: len(text) // 2]
    elif name == "nan":
        text = text.replace('"contentLength": 10251', '"contentLength": NaN')
    else:
        text = text.replace('  "title": ', '  "category": "x",\n  "title": ', 1)
    result = run_cli("check", write_record(text))
    assert result.code == 1
    assert f" error {code} " in result.out


def test_findings_of_one_code_are_capped_per_lesson(seed, write_record, diagnose, rehash):
    """150 unknown related ids: 100 A240s listed, the other 50 counted in one A902 note."""
    seed["related"] = [f"atlas-lesson-missing-{n}" for n in range(150)]
    found = diagnose(write_record(rehash(seed, sign=True)))
    assert len([d for d in found if d.code == "A240"]) == 100
    [note] = [d for d in found if d.code == "A902"]
    assert note.message == "50 more A240 findings are not listed"
