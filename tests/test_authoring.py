"""Authoring: lesson.md front matter, `import` / `new` / `fix`, and exact record emission.

The seed and every emitted record must round-trip through lesson.md with content,
contentHash, contentLength and sections identical; front matter is parsed safely with
located errors; `fix` is atomic and leaves unchanged files alone; `build` writes records in
the seed's key order and content-addressed lesson data, byte-identical from build to build.
"""

from __future__ import annotations

import copy
import hashlib
import json
import os
import shutil
from pathlib import Path
from typing import Any

import pytest
import yaml

from atlas_build import cli, load
from atlas_build.load import frontmatter
from atlas_build.recordhash import record_hash

REPO = Path(__file__).resolve().parent.parent
CONTENT = REPO / "content"
SEED_PATH = CONTENT / "attention" / "record.json"
SCHEMA = REPO / "schemas" / "lesson-record.schema.json"
COMPUTED = ("content", "contentHash", "contentLength", "sections", "recordHash")
FOUR = ("content", "contentHash", "contentLength", "sections")
INTEGRITY = {"A201", "A204", "A220"}
OLD = 1_000_000_000  # an mtime far in the past (2001)


def read_source(path: Path):
    """Load a lesson file the way `check` does (bytes, no newline translation)."""
    (found,) = load.discover([str(path)])
    return load.read(found)


def load_lesson(path: Path) -> dict[str, Any]:
    source = read_source(path)
    assert source.diagnostics == [], [d.message for d in source.diagnostics]
    assert source.data is not None
    return source.data


def metadata_of(record: dict[str, Any]) -> dict[str, Any]:
    return {key: value for key, value in record.items() if key not in COMPUTED}


def one_line_error(result) -> str:
    assert "Traceback" not in result.err + result.out
    lines = result.err.strip().splitlines()
    assert len(lines) == 1, result.err
    assert lines[0].startswith("atlas-build: error: ")
    return lines[0]


def errors(diagnostics) -> list[str]:
    return [f"{d.code} {d.message}" for d in diagnostics if d.severity == "error"]


def build(*args: str | Path) -> int:
    return cli.main(["build", "--no-site", "-q", *map(str, args)])


def lesson_ids(content: Path) -> dict[str, str]:
    """slug -> id of every lesson folder, read independently of atlas-build."""
    ids = {}
    for folder in sorted(p for p in content.iterdir() if p.is_dir()):
        if (folder / "record.json").is_file():
            ids[folder.name] = json.loads((folder / "record.json").read_text("utf-8"))["id"]
        elif (folder / "lesson.md").is_file():
            front = (folder / "lesson.md").read_text("utf-8").split("---\n", 2)[1]
            ids[folder.name] = yaml.safe_load(front)["id"]
    return ids


def tree_bytes(root: Path) -> dict[str, bytes]:
    return {
        str(path.relative_to(root)): path.read_bytes()
        for sub in ("records", "lesson-data")
        for path in sorted((root / sub).iterdir())
    }


# --- import: round trips ---------------------------------------------------------------------


def test_seed_round_trips_exactly(run_cli, tmp_path, seed, diagnose, monkeypatch):
    monkeypatch.chdir(REPO)
    target = tmp_path / "attention"
    result = run_cli("import", "content/attention/record.json", "--to", f"{target}/")
    assert result.code == 0, result.err
    assert "note" not in result.out
    lesson_md = target / "lesson.md"
    data = load_lesson(lesson_md)
    for key in FOUR:
        assert data[key] == seed[key], key
    assert metadata_of(data) == metadata_of(seed)
    assert list(data) == list(seed)
    text = lesson_md.read_bytes().decode("utf-8")
    parts = frontmatter.split(text)
    assert parts is not None and text[parts[2] :] == seed["content"]
    assert not {"contentHash", "contentLength", "sections", "recordHash"} & set(
        yaml.safe_load(parts[0])
    )
    diagnostics = diagnose(target)
    assert errors(diagnostics) == []
    assert not INTEGRITY & {d.code for d in diagnostics}


def tricky_record(seed: dict[str, Any]) -> dict[str, Any]:
    record = copy.deepcopy(seed)
    record.update(
        title="Attention: \"queries\", 'keys' & values # τ ∂p₁/∂z₁ 日本語 😀 e\u0301",
        description="Line one: with a colon\nline two # not a comment\n\n  indented line three",
        evidenceScope="trailing space \nends with a newline\n",
        status="1.0",
        topic="2026-10-07",
        series="yes",
        author="null",
        license="--- not a document marker",
        format="first\n---\n...\nlast",
        category="~",
        contentCoverage="0x1F",
        publishedDate="2026-02-28",
    )
    record["citations"] = [
        *record["citations"],
        {
            "title": 'A "quoted": title, with [brackets] & *stars*',
            "url": "https://example.org/q?a=1&b=2",
        },
    ]
    record["content"] += "\n- [A quoted title](https://example.org/q?a=1&b=2)\n"
    record["xExtra"] = {
        "numbers": ["1.0", "10", "1e3", ".5", "1:20", "0o17", "-0"],
        "words": ["yes", "no", "on", "off", "null", "~", "=", "<<", "", " padded "],
        "values": [1.5, 2, None, True, False],
        "nested": {"key: with colon": "value\twith tab", "ünï": ["2026-01-01T10:00:00Z"]},
        "keys": {"": 1, "null": 2, "1.0": 3, "yes": 4, "~": 5, "a/b~c": 6, "- dash": 7, "<<": 8},
    }
    return record


def test_tricky_metadata_round_trips(run_cli, tmp_path, seed, rehash, diagnose):
    record = rehash(tricky_record(seed))
    source = tmp_path / "tricky.json"
    source.write_text(json.dumps(record, ensure_ascii=False, indent=2), encoding="utf-8")
    result = run_cli("import", source, "--to", tmp_path / "content" / "tricky")
    assert result.code == 0, result.err
    assert "note" not in result.out
    data = load_lesson(tmp_path / "content" / "tricky" / "lesson.md")
    for key in FOUR:
        assert data[key] == record[key], key
    assert metadata_of(data) == metadata_of(record)
    assert isinstance(data["status"], str) and isinstance(data["topic"], str)
    assert errors(diagnose(tmp_path / "content" / "tricky")) == []


@pytest.mark.parametrize(
    "content",
    [
        "# A\r\n\r\nCRLF text\r\n",
        "# A\r\rlone CR\r",
        "---\n# starts like front matter\n\n---\n",
        "\n\n# leading blank lines\n",
        "# no final newline\n\ntext",
        "",
        "...\n# starts with a document end marker\n",
        "# Unicode\u2028line separator and NEL\x85 and tab\t\n",
    ],
    ids=["crlf", "cr", "dashes", "blank", "no-newline", "empty", "dots", "separators"],
)
def test_odd_content_round_trips(run_cli, tmp_path, seed, rehash, content):
    record = seed
    record["content"] = content
    rehash(record)
    source = tmp_path / "odd.json"
    source.write_text(json.dumps(record, ensure_ascii=True), encoding="utf-8")
    assert run_cli("import", source, "--to", tmp_path / "odd").code == 0
    data = load_lesson(tmp_path / "odd" / "lesson.md")
    if "\r\n" in content:  # a lesson.md reads CRLF as LF, the canonical form's line ending
        record["content"] = content.replace("\r\n", "\n")
        rehash(record)
    for key in FOUR:
        assert data[key] == record[key], key


def test_metadata_with_next_line_character_round_trips(run_cli, tmp_path, seed):
    seed["title"] = "before\x85after"
    source = tmp_path / "nel.json"
    source.write_text(json.dumps(seed), encoding="utf-8")
    assert run_cli("import", source, "--to", tmp_path / "nel").code == 0
    assert load_lesson(tmp_path / "nel" / "lesson.md")["title"] == "before\x85after"


def test_import_of_a_stale_record_notes_it_and_builds_recomputed(run_cli, tmp_path, seed, rehash):
    seed["content"] = seed["content"].replace("# Self-attention", "# Self-attention, revised", 1)
    source = tmp_path / "stale.json"
    source.write_text(json.dumps(seed), encoding="utf-8")
    result = run_cli("import", source, "--to", tmp_path / "stale")
    assert result.code == 0
    assert "note" in result.out and "contentHash" in result.out and "sections" in result.out
    data = load_lesson(tmp_path / "stale" / "lesson.md")
    fresh = rehash(copy.deepcopy(seed))
    for key in FOUR:
        assert data[key] == fresh[key], key


# --- import: refusals ------------------------------------------------------------------------


def test_import_refuses_to_overwrite_without_force(run_cli, tmp_path):
    target = tmp_path / "attention"
    assert run_cli("import", SEED_PATH, "--to", target).code == 0
    lesson_md = target / "lesson.md"
    fresh = lesson_md.read_bytes()
    lesson_md.write_bytes(b"---\nid: edited\n---\nauthor's edits\n")
    result = run_cli("import", SEED_PATH, "--to", target)
    assert result.code == 1  # refused because of what the folder holds: a located error
    assert (
        result.err.strip()
        == f"{lesson_md}:1:1: error A508 {lesson_md} exists; pass --force to overwrite it"
    )
    assert lesson_md.read_bytes() == b"---\nid: edited\n---\nauthor's edits\n"
    assert run_cli("import", SEED_PATH, "--to", target, "--force").code == 0
    assert lesson_md.read_bytes() == fresh
    assert sorted(os.listdir(target)) == ["claims.yaml", "lesson.md"]  # the seed's, copied


def test_import_refuses_a_target_holding_record_json(run_cli, tmp_path, seed_bytes):
    target = tmp_path / "attention"
    target.mkdir()
    (target / "record.json").write_bytes(seed_bytes)
    other = tmp_path / "other.json"
    other.write_bytes(seed_bytes)
    for record, code in ((other, 1), (target / "record.json", 2)):
        result = run_cli("import", record, "--to", target)
        assert result.code == code
        if code == 1:  # the folder holds another source: a located error
            assert f"{target / 'record.json'}:1:1: error A508 " in result.err
        else:  # the argument names the folder's own source: a usage error
            assert "record.json" in one_line_error(result)
        assert sorted(os.listdir(target)) == ["record.json"]
        assert (target / "record.json").read_bytes() == seed_bytes


@pytest.mark.parametrize(
    ("name", "data"),
    [("missing.json", None), ("array.json", b"[]"), ("no-content.json", b'{"id": "x"}')],
)
def test_import_refuses_what_is_not_a_record(run_cli, tmp_path, name, data):
    if data is not None:
        (tmp_path / name).write_bytes(data)
    result = run_cli("import", tmp_path / name, "--to", tmp_path / "out")
    assert result.code == 2
    assert name in one_line_error(result)
    assert not (tmp_path / "out" / "lesson.md").exists()


def test_import_of_invalid_json_is_a_located_error(run_cli, tmp_path):
    (tmp_path / "bad.json").write_text('{"id": "x",\n  "content": }\n', encoding="utf-8")
    result = run_cli("import", tmp_path / "bad.json", "--to", tmp_path / "out")
    assert result.code == 1
    assert "Traceback" not in result.err
    assert f"{tmp_path / 'bad.json'}:2:14: error A104" in result.err
    assert not (tmp_path / "out" / "lesson.md").exists()


def test_import_errors_from_the_console_script(run_script, tmp_path):
    assert run_script("import", SEED_PATH, "--to", tmp_path / "a").code == 0
    again = run_script("import", SEED_PATH, "--to", tmp_path / "a")
    assert again.code == 1 and "error A508" in again.err and "Traceback" not in again.err
    result = run_script("import", tmp_path / "missing.json", "--to", tmp_path / "b")
    assert result.code == 2
    one_line_error(result)


# --- new -------------------------------------------------------------------------------------


def front_matter_of(path: Path) -> dict[str, Any]:
    parts = frontmatter.split(path.read_text(encoding="utf-8"))
    assert parts is not None
    return yaml.safe_load(parts[0])


def test_new_scaffolds_every_required_field_and_passes_strict_check(run_cli, content_dir, diagnose):
    result = run_cli("new", "my-lesson", "--dir", content_dir)
    assert result.code == 0, result.err
    lesson_md = content_dir / "my-lesson" / "lesson.md"
    required = set(json.loads(SCHEMA.read_text(encoding="utf-8"))["required"])
    front = front_matter_of(lesson_md)
    assert required - set(COMPUTED) <= set(front)
    assert not set(COMPUTED) & set(front)
    assert front["id"] == "atlas-lesson-my-lesson"
    check = run_cli("check", "--strict", "--no-cache", content_dir)
    assert check.code == 0, check.out
    diagnostics = diagnose(content_dir)
    assert [d.code for d in diagnostics if d.severity != "info"] == []
    data = load_lesson(lesson_md)
    assert [section["title"] for section in data["sections"]][:2] == ["My lesson", "The mechanism"]
    # the scaffold is a proved lesson from the start: its claim verifies its one relation
    assert (content_dir / "my-lesson" / "claims.yaml").is_file()
    report = json.loads(run_cli("check", "--no-cache", "--format", "json", content_dir).out)
    coverage = report["records"][0]["coverage"]
    assert coverage["verification"] == "verified"
    assert [item["dimensions"]["status"] for item in coverage["relations"]["items"]] == [
        "consistent"
    ]


def test_new_with_a_tricky_title_passes_strict_check(run_cli, content_dir):
    title = 'Odd: "quoted" # title \\ {brace} — τ'
    assert run_cli("new", "odd", "--dir", content_dir, "--title", title).code == 0
    assert front_matter_of(content_dir / "odd" / "lesson.md")["title"] == title
    assert run_cli("check", "--strict", "--no-cache", content_dir).code == 0


@pytest.mark.parametrize(
    "slug", ["Bad_Slug", "UPPER", "-lead", "trail-", "a--b", "../escape", "with space", "a.b", ""]
)
def test_new_refuses_a_bad_slug(run_cli, content_dir, slug):
    result = run_cli("new", "--dir", content_dir, "--", slug)
    assert result.code == 2
    assert "is not a slug" in one_line_error(result)
    assert list(content_dir.rglob("*")) == []
    assert not (content_dir.parent / "escape").exists()


@pytest.mark.parametrize("existing", ["lesson.md", "record.json"])
def test_new_refuses_an_existing_lesson_folder(run_cli, content_dir, existing):
    folder = content_dir / "taken"
    folder.mkdir()
    (folder / existing).write_bytes(b"the author's file")
    result = run_cli("new", "taken", "--dir", content_dir)
    assert result.code == 1
    assert result.err.startswith(f"{folder / existing}:1:1: error A508 ")
    assert (folder / existing).read_bytes() == b"the author's file"
    assert os.listdir(folder) == [existing]


def test_new_never_scaffolds_a_lesson_that_fails_check(run_cli, content_dir):
    slug = "a" * 116
    result = run_cli("new", slug, "--dir", content_dir)
    if result.code == 0:
        assert run_cli("check", "--strict", "--no-cache", content_dir).code == 0
    else:
        assert result.code == 2
        one_line_error(result)


# --- fix -------------------------------------------------------------------------------------


@pytest.fixture
def stale(seed, write_record) -> Path:
    """The seed with a renamed heading: stale contentHash, contentLength and section offsets."""
    seed["content"] = seed["content"].replace("# Self-attention", "# Self-attention, revised", 1)
    return write_record(seed)


def test_fix_repairs_a_stale_record_and_reports_each_change(run_cli, stale, diagnose, seed, rehash):
    before = {d.code for d in diagnose(stale)}
    assert INTEGRITY <= before
    result = run_cli("fix", stale)
    assert result.code == 0, result.err
    out = result.out
    assert f"{stale}: contentHash: 'fc3fc3accb87" in out
    assert "contentLength: 10251 -> 10260" in out
    assert "sections: section-1.title 'Self-attention' -> 'Self-attention, revised'" in out
    assert "section-2.start 307 -> 316" in out
    assert "recordHash:" in out
    fixed = json.loads(stale.read_text(encoding="utf-8"))
    expected = rehash(copy.deepcopy(seed) | {"content": fixed["content"]}, sign=True)
    for key in (*FOUR, "recordHash"):
        assert fixed[key] == expected[key], key
    assert metadata_of(fixed) == metadata_of(seed)
    assert list(fixed) == list(seed)
    assert record_hash(fixed) == fixed["recordHash"]
    diagnostics = diagnose(stale)
    assert errors(diagnostics) == []
    assert not (INTEGRITY | {"A211"}) & {d.code for d in diagnostics}
    assert run_cli("check", "--no-cache", stale).code == 0
    assert sorted(os.listdir(stale.parent)) == ["record.json"]


def test_fix_repairs_a_record_missing_its_computed_fields(run_cli, seed, write_record, diagnose):
    for key in ("contentHash", "contentLength", "sections", "recordHash"):
        del seed[key]
    path = write_record(seed, indent=None)
    assert run_cli("fix", path).code == 0
    assert list(json.loads(path.read_text(encoding="utf-8"))) == list(
        json.loads(SEED_PATH.read_text(encoding="utf-8"))
    )
    assert errors(diagnose(path)) == []


def test_fix_leaves_unchanged_files_untouched(run_cli, stale, seed, write_record):
    assert run_cli("fix", stale).code == 0
    fixed = json.loads(stale.read_text(encoding="utf-8"))
    compact = write_record(fixed, slug="compact", indent=None)  # up to date, other formatting
    other = write_record(seed, slug="other")  # stale recordHash only
    for path in (stale, compact, other):
        os.utime(path, ns=(OLD * 10**9, OLD * 10**9))
    saved = {path: path.read_bytes() for path in (stale, compact)}
    result = run_cli("fix", stale.parent.parent)
    assert result.code == 0
    assert f"{stale}: up to date" in result.out and f"{compact}: up to date" in result.out
    assert f"{other}: recordHash:" in result.out
    for path, data in saved.items():
        assert path.stat().st_mtime_ns == OLD * 10**9, path
        assert path.read_bytes() == data
    assert other.stat().st_mtime_ns != OLD * 10**9


def test_fix_dry_run_reports_but_writes_nothing(run_cli, stale):
    before = stale.read_bytes()
    result = run_cli("fix", "--dry-run", stale)
    assert result.code == 0 and "contentLength: 10251 -> 10260" in result.out
    assert stale.read_bytes() == before


def _boom(*args: Any, **kwargs: Any) -> None:
    raise OSError(28, "No space left on device")


def _interrupt(*args: Any, **kwargs: Any) -> None:
    raise KeyboardInterrupt


@pytest.mark.parametrize(
    ("function", "failure", "code"),
    [("replace", _boom, 2), ("fsync", _boom, 2), ("replace", _interrupt, 130)],
    ids=["replace-fails", "write-fails", "interrupted"],
)
def test_fix_failing_mid_write_leaves_the_original_intact(
    run_cli, stale, monkeypatch, function, failure, code
):
    original = stale.read_bytes()
    monkeypatch.setattr(os, function, failure)
    result = run_cli("fix", stale)
    monkeypatch.undo()
    assert result.code == code
    assert "Traceback" not in result.err
    assert len(result.err.strip().splitlines()) == 1
    assert stale.read_bytes() == original
    assert sorted(os.listdir(stale.parent)) == ["record.json"]


def test_fix_goes_on_past_a_record_without_content(run_cli, seed, write_record):
    bad = write_record({"id": "atlas-lesson-a"}, slug="a")
    seed["contentLength"] = 5
    stale = write_record(seed, slug="b")
    result = run_cli("fix", stale.parent.parent)
    assert result.code != 0 and str(bad) in result.err
    assert json.loads(stale.read_text(encoding="utf-8"))["contentLength"] == 10251


def test_fix_on_a_lesson_md_has_nothing_to_do(run_cli, content_dir):
    folder = content_dir / "softmax-temperature"
    folder.mkdir()
    lesson_md = folder / "lesson.md"
    shutil.copyfile(CONTENT / "softmax-temperature" / "lesson.md", lesson_md)
    os.utime(lesson_md, ns=(OLD * 10**9, OLD * 10**9))
    before = lesson_md.read_bytes()
    for target in (lesson_md, folder):
        result = run_cli("fix", target)
        assert result.code == 0
        assert "nothing to fix" in result.out
    assert lesson_md.read_bytes() == before
    assert lesson_md.stat().st_mtime_ns == OLD * 10**9


def test_fix_on_invalid_json_reports_the_located_error_and_leaves_it(run_cli, write_record):
    text = '{\n  "id": "atlas-lesson-attention",\n  "content": "x",\n  "title": ,\n}\n'
    path = write_record(text)
    os.utime(path, ns=(OLD * 10**9, OLD * 10**9))
    result = run_cli("fix", path)
    assert result.code == 1
    assert "Traceback" not in result.err
    assert f"{path}:4:12: error A104" in result.err
    assert path.read_bytes() == text.encode("utf-8")
    assert path.stat().st_mtime_ns == OLD * 10**9


# --- front matter ----------------------------------------------------------------------------

VALID_FRONT = """schemaVersion: 1
id: atlas-lesson-probe
title: Probe
"""


def write_lesson_md(content_dir: Path, text: str, slug: str = "probe") -> Path:
    folder = content_dir / slug
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "lesson.md"
    path.write_text(text, encoding="utf-8")
    return path


def codes_at(diagnostics, code: str) -> list[tuple[int | None, int | None]]:
    return [(d.line, d.column) for d in diagnostics if d.code == code]


@pytest.mark.parametrize(
    "field", ["contentHash", "contentLength", "sections", "recordHash", "content"]
)
def test_computed_field_in_front_matter_is_a134_at_the_key(content_dir, diagnose, locate, field):
    text = f"---\n{VALID_FRONT}{field}: fc3f\ndescription: after\n---\n# Probe\n"
    path = write_lesson_md(content_dir, text)
    diagnostics = diagnose(path)
    assert codes_at(diagnostics, "A134") == [locate(text, f"{field}:")]
    assert [d.severity for d in diagnostics] == ["error"]
    assert field in diagnostics[0].message


def test_computed_field_in_a_flow_mapping_is_located_at_its_key(content_dir, diagnose, locate):
    text = '---\n{id: x, title: "τ😀 日本", recordHash: ab, contentLength: 3}\n---\nbody\n'
    path = write_lesson_md(content_dir, text)
    assert codes_at(diagnose(path), "A134") == [
        locate(text, "recordHash:"),
        locate(text, "contentLength:"),
    ]


def test_nested_content_hash_is_no_computed_field(content_dir, diagnose):
    text = f"---\n{VALID_FRONT}xExtra:\n  contentHash: fine\n---\n# Probe\n"
    assert codes_at(diagnose(write_lesson_md(content_dir, text)), "A134") == []


BOMB = """---
id: atlas-lesson-probe
a: &a ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]
b: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]
c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b]
d: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c]
e: &e [*d, *d, *d, *d, *d, *d, *d, *d, *d]
f: &f [*e, *e, *e, *e, *e, *e, *e, *e, *e]
g: &g [*f, *f, *f, *f, *f, *f, *f, *f, *f]
h: &h [*g, *g, *g, *g, *g, *g, *g, *g, *g]
i: [*h, *h, *h, *h, *h, *h, *h, *h, *h]
---
# Boom
"""


def test_yaml_alias_bomb_is_a132(content_dir, diagnose, locate):
    path = write_lesson_md(content_dir, BOMB)
    diagnostics = diagnose(path)
    # at the first alias, or at the anchor of the node it repeats
    assert codes_at(diagnostics, "A132") in ([locate(BOMB, "*a")], [locate(BOMB, "&a")])
    assert len(diagnostics) == 1 and "alias" in diagnostics[0].message


def test_a_single_alias_is_refused_too(content_dir, diagnose, locate):
    text = f"---\n{VALID_FRONT}related: &r []\nsupersedes: *r\n---\n# P\n"
    where = codes_at(diagnose(write_lesson_md(content_dir, text)), "A132")
    assert where in ([locate(text, "*r")], [locate(text, "&r")])


@pytest.mark.parametrize(
    "value",
    [
        '!!python/object/apply:os.system ["touch {marker}"]',
        "!!python/object:os.system {{}}",
        "!!python/name:os.system",
        "!custom value",
        "!!timestamp 2026-01-01",
        "!!binary aGVsbG8=",
    ],
)
def test_custom_tag_is_a132_and_never_constructed(content_dir, diagnose, locate, tmp_path, value):
    marker = tmp_path / "pwned"
    value = value.format(marker=marker)
    text = f"---\n{VALID_FRONT}description: {value}\n---\n# P\n"
    diagnostics = diagnose(write_lesson_md(content_dir, text))
    assert codes_at(diagnostics, "A132") == [locate(text, "!")]
    assert "tag" in diagnostics[0].message
    assert not marker.exists()


@pytest.mark.parametrize(
    ("front", "needle"),
    [
        ("id: x\ntitle: a: b\n", "a: b"),
        ("id: x\n  bad: 1\n", "bad"),
        ("id: [1, 2\nx: 1\n", "[1, 2"),  # where the `[` opens, not where it shows
        ("id: x\n\ttitle: y\n", "\ttitle"),
    ],
)
def test_malformed_yaml_is_a131_at_the_error(content_dir, diagnose, locate, front, needle):
    text = f"---\n{front}---\n# P\n"
    diagnostics = diagnose(write_lesson_md(content_dir, text))
    assert [d.code for d in diagnostics] == ["A131"]
    line, column = locate(text, needle)
    assert diagnostics[0].line == line
    assert column <= diagnostics[0].column <= column + len(needle.strip())


def test_front_matter_that_is_not_a_mapping_is_a131(content_dir, diagnose):
    diagnostics = diagnose(write_lesson_md(content_dir, "---\n- a\n- b\n---\n# P\n"))
    assert codes_at(diagnostics, "A131") == [(2, 1)]


def test_duplicate_front_matter_key_is_a133_at_the_second(content_dir, diagnose, locate):
    text = f"---\n{VALID_FRONT}status: Draft\ntitle: Again\n---\n# P\n"
    diagnostics = diagnose(write_lesson_md(content_dir, text))
    assert codes_at(diagnostics, "A133") == [locate(text, "title: Again")]
    assert "title" in diagnostics[0].message


@pytest.mark.parametrize(
    "text",
    [
        "# No front matter\n\ntext\n",
        f"---\n{VALID_FRONT}# never closed\n",
        "",
        " ---\nid: x\n---\n",
    ],
    ids=["absent", "unclosed", "empty", "indented"],
)
def test_missing_front_matter_is_a130(content_dir, diagnose, text):
    diagnostics = diagnose(write_lesson_md(content_dir, text))
    assert codes_at(diagnostics, "A130") == [(1, 1)]


def test_oversized_front_matter_is_a132(content_dir, diagnose):
    filler = "".join(f"k{n}: {'x' * 60}\n" for n in range(1200))
    diagnostics = diagnose(write_lesson_md(content_dir, f"---\n{VALID_FRONT}{filler}---\n# P\n"))
    assert [d.code for d in diagnostics] == ["A132"]


def test_front_matter_dates_stay_strings(content_dir, diagnose):
    path = CONTENT / "kv-cache" / "lesson.md"
    text = path.read_text(encoding="utf-8").replace(
        'revisionDate: "2026-11-29"', "revisionDate: 2026-11-29"
    )
    assert "revisionDate: 2026-11-29\n" in text
    data = load_lesson(write_lesson_md(content_dir, text, "kv-cache"))
    assert data["revisionDate"] == "2026-11-29"


def test_front_matter_closed_by_dots_and_crlf_lines(content_dir):
    body = "# Probe\r\n\r\ntext\r\n"
    text = "---\r\nschemaVersion: 1\r\nid: atlas-lesson-probe\r\n...\r\n" + body
    path = content_dir / "probe" / "lesson.md"
    path.parent.mkdir()
    path.write_bytes(text.encode("utf-8"))
    data = load_lesson(path)
    assert (data["id"], data["content"]) == ("atlas-lesson-probe", body.replace("\r\n", "\n"))
    assert data["sections"][0]["title"] == "Probe"


def test_front_matter_errors_never_show_a_traceback(run_script, content_dir):
    cases = {
        "hash": f"---\n{VALID_FRONT}contentHash: abc\n---\n# A\n",
        "bomb": BOMB,
        "tag": f"---\n{VALID_FRONT}id2: !!python/object/apply:os.system [ls]\n---\n# A\n",
        "syntax": "---\nid: x\ntitle: a: b\n---\n# A\n",
        "duplicate": f"---\n{VALID_FRONT}id: y\n---\n# A\n",
        "none": "# A\n",
        "binary": "---\nid: \x00\n---\n",
    }
    for slug, text in cases.items():
        write_lesson_md(content_dir, text, slug)
    result = run_script("check", "--no-cache", "-j", "1", content_dir)
    assert result.code == 1
    assert "Traceback" not in result.out + result.err
    assert "internal error" not in result.out + result.err
    codes = {
        line.split(":")[0].split("/")[-2]: line.split(" ")[2]
        for line in result.out.splitlines()
        if " error A" in line
    }
    assert codes == {
        "hash": "A134",
        "bomb": "A132",
        "tag": "A132",
        "syntax": "A131",
        "duplicate": "A133",
        "none": "A130",
        "binary": "A131",
    }
    assert "/syntax/lesson.md:3:9: error A131" in result.out


# --- emission --------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> Path:
    """content/ copied to a temporary folder and built once (no site, no cache)."""
    root = tmp_path_factory.mktemp("built")
    shutil.copytree(CONTENT, root / "content")
    assert build("--no-cache", "-j", "1", root / "content", "--out", root / "out") == 0
    return root


def test_build_writes_a_record_for_every_lesson(built):
    ids = lesson_ids(built / "content")
    assert len(ids) >= 3
    assert sorted(os.listdir(built / "out" / "records")) == sorted(
        f"{i}.json" for i in ids.values()
    )


def test_emitted_records_follow_the_seed_key_order_and_verify(built, seed, rehash):
    for path in (built / "out" / "records").iterdir():
        record = json.loads(path.read_bytes())
        assert list(record) == list(seed), path.name
        assert record_hash(record) == record["recordHash"], path.name
        again = rehash(copy.deepcopy(record))
        for key in FOUR:
            assert again[key] == record[key], (path.name, key)


def test_emitted_seed_is_the_seed_with_our_record_hash(built, seed):
    emitted = json.loads((built / "out" / "records" / f"{seed['id']}.json").read_bytes())
    assert {k: v for k, v in emitted.items() if k != "recordHash"} == {
        k: v for k, v in seed.items() if k != "recordHash"
    }


def test_lesson_data_is_content_addressed(built):
    ids = lesson_ids(built / "content")
    files = sorted((built / "out" / "lesson-data").iterdir())
    by_slug = {}
    for path in files:
        raw = path.read_bytes()
        digest = hashlib.sha256(raw).hexdigest()[:16]
        slug = path.name[: -len(f"-{digest}.json")]
        assert path.name == f"{slug}-{digest}.json"
        by_slug[slug] = json.loads(raw)
    assert sorted(by_slug) == sorted(ids) and len(files) == len(ids)
    for slug, data in by_slug.items():
        record = json.loads((built / "out" / "records" / f"{ids[slug]}.json").read_bytes())
        assert (data["id"], data["slug"]) == (ids[slug], slug)
        assert data["contentHash"] == record["contentHash"]
        assert data["sections"] == record["sections"]
        assert data["quizzes"] and data["glossaries"] and data["equations"]


def test_two_builds_are_byte_identical(built, tmp_path):
    first = tree_bytes(built / "out")
    cache = tmp_path / "cache"
    for out, jobs in (("cold", "2"), ("warm", "1")):
        code = build("--cache-dir", cache, "-j", jobs, built / "content", "--out", tmp_path / out)
        assert code == 0
        assert tree_bytes(tmp_path / out) == first, out


def test_emitted_records_round_trip_through_import(built, tmp_path, run_cli):
    content = tmp_path / "content"
    records = sorted((built / "out" / "records").iterdir())
    for path in records:
        record = json.loads(path.read_bytes())
        slug = record["id"].removeprefix("atlas-lesson-")
        result = run_cli("import", path, "--to", content / slug)
        assert result.code == 0 and "note" not in result.out, result.out
        data = load_lesson(content / slug / "lesson.md")
        assert data == record and list(data) == list(record), path.name
    assert build("--no-cache", "-j", "1", content, "--out", tmp_path / "out") == 0
    for path in records:
        assert (tmp_path / "out" / "records" / path.name).read_bytes() == path.read_bytes()


@pytest.fixture
def small_content(tmp_path) -> Path:
    """Two authored lessons without claims files (fast to build)."""
    content = tmp_path / "content"
    for slug in ("kv-cache", "softmax-temperature"):
        (content / slug).mkdir(parents=True)
        shutil.copyfile(CONTENT / slug / "lesson.md", content / slug / "lesson.md")
    return content


def test_stale_lesson_data_of_a_slug_is_removed_after_an_edit(small_content, tmp_path):
    out = tmp_path / "out"
    assert build("--no-cache", small_content, "--out", out) == 0
    before = {path.name: path.read_bytes() for path in (out / "lesson-data").iterdir()}
    (old,) = [name for name in before if name.startswith("softmax-temperature-")]
    unchanged = [out / "records" / "atlas-lesson-kv-cache.json"]
    unchanged += [out / "lesson-data" / name for name in before if name.startswith("kv-cache-")]
    for path in unchanged:
        os.utime(path, ns=(OLD * 10**9, OLD * 10**9))
    lesson_md = small_content / "softmax-temperature" / "lesson.md"
    lesson_md.write_text(lesson_md.read_text("utf-8") + "\nOne more paragraph.\n", "utf-8")
    assert build("--no-cache", small_content, "--out", out) == 0
    after = {path.name: path.read_bytes() for path in (out / "lesson-data").iterdir()}
    (new,) = [name for name in after if name.startswith("softmax-temperature-")]
    assert new != old and old not in after
    assert new == f"softmax-temperature-{hashlib.sha256(after[new]).hexdigest()[:16]}.json"
    kv = {name: data for name, data in before.items() if name.startswith("kv-cache-")}
    assert len(kv) == 1 and kv.items() <= after.items()
    assert [path.stat().st_mtime_ns for path in unchanged] == [OLD * 10**9] * 2
    record = json.loads((out / "records" / "atlas-lesson-softmax-temperature.json").read_bytes())
    assert record["content"].endswith("\nOne more paragraph.\n")
    assert json.loads(after[new])["contentHash"] == record["contentHash"]


def test_front_matter_order_does_not_change_the_emitted_order(small_content, tmp_path, seed):
    lesson_md = small_content / "kv-cache" / "lesson.md"
    text = lesson_md.read_text(encoding="utf-8")
    parts = frontmatter.split(text)
    assert parts is not None
    front = yaml.safe_load(parts[0])
    scrambled = dict(reversed(list(front.items()))) | {"xNote": "kept"}
    dumped = yaml.safe_dump(scrambled, sort_keys=False, allow_unicode=True)
    lesson_md.write_text(f"---\n{dumped}---\n{text[parts[2] :]}", encoding="utf-8")
    assert build("--no-cache", small_content, "--out", tmp_path / "out") == 0
    record = json.loads((tmp_path / "out" / "records" / "atlas-lesson-kv-cache.json").read_bytes())
    assert [key for key in record if key in seed] == list(seed)
    assert record["xNote"] == "kept"
    assert record_hash(record) == record["recordHash"]


def test_build_with_errors_writes_no_records(small_content, tmp_path):
    write_lesson_md(small_content, f"---\n{VALID_FRONT}contentHash: abc\n---\n# A\n", "broken")
    out = tmp_path / "out"
    assert build("--no-cache", small_content, "--out", out) == 1
    assert not (out / "records").exists() or list((out / "records").iterdir()) == []
