"""Strict loading: every way a file can be untrustworthy is one located finding, never a crash.

Each case runs `atlas-build check` in-process from a temporary working directory and
reads the text report, so the exit code, the code and the exact `line:col` are all
checked the way a user sees them.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest

from atlas_build.load import DEFAULT_MAX_BYTES, jsonfile

FINDING = re.compile(
    r"^(?P<path>.+?):(?P<line>\d+):(?P<col>\d+): (?P<severity>\w+) (?P<code>A\d{3}) "
)
RECORD = "content/attention/record.json"


def findings(output: str) -> list[tuple[str, int, int, str, str]]:
    found = []
    for text in output.splitlines():
        match = FINDING.match(text)
        if match:
            found.append(
                (
                    match["path"],
                    int(match["line"]),
                    int(match["col"]),
                    match["severity"],
                    match["code"],
                )
            )
    return found


@pytest.fixture
def check(run_cli, tmp_path, monkeypatch):
    """`atlas-build check ARGS` run from tmp_path (so paths read content/...)."""
    monkeypatch.chdir(tmp_path)

    def run(*args: str):
        return run_cli("check", *args)

    return run


def seed_text(seed) -> str:
    return json.dumps(seed, ensure_ascii=False, indent=2)


def only_error(result, code: str, line: int, column: int, path: str = RECORD) -> None:
    assert result.code == 1, result.out + result.err
    errors = [f for f in findings(result.out) if f[3] == "error"]
    assert errors == [(path, line, column, "error", code)], result.out
    assert "Traceback" not in result.err


# --- duplicate keys, non-finite numbers -------------------------------------------------------


def test_duplicate_top_level_key_located_at_second_key(seed, write_record, check, locate):
    text = seed_text(seed)
    text = text.replace('  "title": ', '  "id": "again",\n  "title": ', 1)
    write_record(text)
    result = check("content/")
    only_error(result, "A105", *locate(text, '"id"', 1))
    assert "'id'" in result.out


def test_duplicate_nested_key_located_at_second_key(seed, write_record, check, locate):
    text = seed_text(seed)
    text = text.replace('"start": 40,', '"start": 40,\n      "end": 1,', 1)
    write_record(text)
    result = check("content/")
    only_error(result, "A105", *locate(text, '"end": 307'))  # the original key comes second
    assert "/sections/0/end" in result.out


def test_same_key_in_different_objects_is_fine(seed, write_record, check):
    write_record(seed_text(seed))  # "id", "title" occur at top level and in every section
    result = check("content/")
    assert result.code == 0, result.out


@pytest.mark.parametrize("token", ["NaN", "Infinity", "-Infinity"])
def test_non_finite_number_located(token, seed, write_record, check, locate):
    text = seed_text(seed).replace('"contentLength": 10251', f'"contentLength": {token}')
    write_record(text)
    result = check("content/")
    only_error(result, "A106", *locate(text, token))
    assert token in result.out


def test_non_finite_in_nested_array(write_record, check):
    write_record('{\n  "sections": [\n    1,\n      NaN\n  ]\n}\n')
    only_error(check("content/"), "A106", 4, 7)


def test_nan_inside_a_string_is_just_text(seed, write_record, check):
    seed["description"] = "NaN and Infinity are words here"
    write_record(seed_text(seed))
    assert check("content/").code == 0


# --- bytes: BOM, encoding, size --------------------------------------------------------------


def test_bom_refused(seed_bytes, write_record, check):
    write_record(b"\xef\xbb\xbf" + seed_bytes)
    result = check("content/")
    only_error(result, "A102", 1, 1)
    assert "byte-order mark" in result.out


def test_non_utf8_byte_located_in_code_points(seed, write_record, check, locate):
    text = seed_text(seed).replace('"Self-attention"', '"Self-\u00e9\u00e9attention"', 1)
    line, column = locate(text, "\u00e9\u00e9attention")
    raw = text.encode("utf-8").replace(b"\xc3\xa9\xc3\xa9", b"\xc3\xa9\xe9", 1)
    write_record(raw)
    result = check("content/")
    only_error(result, "A103", line, column + 1)  # the first é is valid, the second is Latin-1
    assert "0xE9" in result.out


def test_non_utf8_on_later_line(write_record, check):
    write_record(b'{\n  "a": "\xe2\x82\xac\xe2\x82\xac",\n  "b": "x\xff"\n}\n')
    only_error(check("content/"), "A103", 3, 10)


def test_over_default_size_cap(write_record, check):
    write_record(b" " * (DEFAULT_MAX_BYTES - 4) + b"\n   {}")
    result = check("content/")
    only_error(result, "A101", 2, 4)  # where the file passes the cap, the last byte read
    assert f"larger than the cap of {DEFAULT_MAX_BYTES} bytes" in result.out


def test_default_cap_is_1_mib():
    """Lessons are tens of kilobytes; at 5 MiB a dense body took minutes to parse."""
    assert DEFAULT_MAX_BYTES == 1024 * 1024


def test_max_bytes_configurable(seed_bytes, write_record, check):
    write_record(seed_bytes)
    size = len(seed_bytes)
    only_error(
        check("--max-bytes", str(size - 1), "content/"), "A101", *_past(seed_bytes, size - 1)
    )
    assert check("--max-bytes", str(size), "content/").code == 0
    assert check("--max-bytes", "1MiB", "content/").code == 0
    only_error(check("--max-bytes", "10k", "content/"), "A101", *_past(seed_bytes, 10240))


def _past(raw: bytes, cap: int) -> tuple[int, int]:
    """line:col of the first character past `cap` bytes (where an A101 is)."""
    head = raw[:cap].decode("utf-8", "replace")
    return head.count("\n") + 1, len(head) - head.rfind("\n")


@pytest.mark.parametrize("size", ["0", "-5", "abc", "k"])
def test_bad_max_bytes_is_a_usage_error(size, seed_bytes, write_record, check):
    write_record(seed_bytes)
    result = check("--max-bytes", size, "content/")
    assert result.code == 2
    assert "Traceback" not in result.err


# --- syntax ----------------------------------------------------------------------------------


def test_trailing_garbage(seed_bytes, write_record, check):
    write_record(seed_bytes + b"\n  garbage")
    result = check("content/")
    only_error(result, "A104", 2, 3)
    assert "trailing" in result.out


def test_second_json_value_is_trailing_data(write_record, check):
    write_record('{"a": 1} {"b": 2}')
    only_error(check("content/"), "A104", 1, 10)


def test_trailing_whitespace_is_fine(seed_bytes, write_record, check):
    write_record(seed_bytes + b"\n\n  \n")
    assert check("content/").code == 0


def test_truncated_between_values(seed, write_record, check):
    text = seed_text(seed)
    cut = text[: text.index('"sections"')]  # ends right after a comma and indentation
    write_record(cut)
    result = check("content/")
    lines = cut.split("\n")
    only_error(result, "A104", len(lines), len(lines[-1]) + 1)
    assert "truncated" in result.out


def test_truncated_inside_a_string(seed, write_record, check, locate):
    text = seed_text(seed)
    cut = text[: text.index("Self-attention\\n\\nExchange")]  # inside "content"
    write_record(cut)
    only_error(check("content/"), "A104", *locate(cut, '"Transformer computation \u00b7'))


def test_seed_cut_in_half(seed_bytes, write_record, check):
    write_record(seed_bytes[: len(seed_bytes) // 2].decode("utf-8", "ignore"))
    result = check("content/")
    assert result.code == 1
    assert [f[4] for f in findings(result.out)] == ["A104"]


@pytest.mark.parametrize(
    ("text", "line", "column"),
    [
        ("", 1, 1),
        ("{", 1, 2),
        ('{"a": }', 1, 7),
        ('{"a": 1,}', 1, 9),
        ("{'a': 1}", 1, 2),
        ('{\n  "a": tru\n}', 2, 8),
    ],
)
def test_syntax_errors_located(text, line, column, write_record, check):
    write_record(text)
    only_error(check("content/"), "A104", line, column)


# --- nesting ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("opening", "closing"), [("[", "]"), ('{"a":', "}")], ids=["arrays", "objects"]
)
def test_ten_thousand_levels(opening, closing, write_record, check):
    write_record(opening * 10_000 + "1" + closing * 10_000)
    result = check("content/")
    column = len(opening) * jsonfile.MAX_DEPTH + 1
    only_error(result, "A107", 1, column)
    assert "10000" in result.out


def test_nesting_at_the_limit_parses(write_record, check):
    write_record("[" * jsonfile.MAX_DEPTH + "]" * jsonfile.MAX_DEPTH)
    result = check("content/")
    assert [f[4] for f in findings(result.out)] == ["A114"]  # parsed; just not an object


def test_brackets_inside_strings_do_not_count(seed, write_record, check):
    seed["description"] = "[" * 500 + "{" * 500
    write_record(seed_text(seed))
    assert check("content/").code == 0


def test_parse_never_raises_recursion_error():
    data, problems = jsonfile.parse("[" * 100_000, "deep.json")
    assert data is None
    assert [p.code for p in problems] == ["A107"]


# --- discovery: folders, symlinks ------------------------------------------------------------


def test_symlinked_folder_outside_content_refused(tmp_path, content_dir, seed_bytes, check):
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    (outside / "record.json").write_bytes(seed_bytes)
    (content_dir / "linked").symlink_to(outside, target_is_directory=True)
    result = check("content/")
    only_error(result, "A122", 1, 1, path="content/linked")


def test_symlinked_record_outside_content_refused(tmp_path, content_dir, seed_bytes, check):
    secret = tmp_path / "secret.json"
    secret.write_bytes(seed_bytes)
    (content_dir / "lesson").mkdir()
    (content_dir / "lesson" / "record.json").symlink_to(secret)
    result = check("content/")
    only_error(result, "A122", 1, 1, path="content/lesson/record.json")


def test_symlink_inside_content_is_followed(content_dir, seed_bytes, check):
    (content_dir / "real").mkdir()
    (content_dir / "real" / "record.json").write_bytes(seed_bytes)
    (content_dir / "alias").symlink_to(content_dir / "real", target_is_directory=True)
    result = check("content/")
    assert result.code == 0, result.out
    assert not [f for f in findings(result.out) if f[4] == "A122"]


def test_folder_with_record_and_lesson_is_ambiguous(content_dir, seed_bytes, check):
    folder = content_dir / "attention"
    folder.mkdir()
    (folder / "record.json").write_bytes(seed_bytes)
    (folder / "lesson.md").write_text("# Self-attention\n", encoding="utf-8")
    result = check("content/")
    only_error(result, "A120", 1, 1, path="content/attention/lesson.md")


def test_empty_folder_is_reported(content_dir, seed_bytes, check):
    (content_dir / "attention").mkdir()
    (content_dir / "attention" / "record.json").write_bytes(seed_bytes)
    (content_dir / "drafts").mkdir()
    (content_dir / "drafts" / "notes.txt").write_text("later", encoding="utf-8")
    result = check("content/")
    assert ("content/drafts", 1, 1, "warning", "A121") in findings(result.out)
    assert result.code == 0
    assert check("--strict", "content/").code == 1


def test_hidden_and_underscore_folders_skipped(content_dir, seed_bytes, check):
    (content_dir / "attention").mkdir()
    (content_dir / "attention" / "record.json").write_bytes(seed_bytes)
    (content_dir / ".git").mkdir()
    (content_dir / "_drafts").mkdir()
    result = check("content/")
    assert result.code == 0
    assert "checked 1 lesson" in result.out


def test_nonexistent_path_is_a_usage_error(check):
    result = check("no/such/dir")
    assert result.code == 2
    assert result.out == ""
    assert "no/such/dir" in result.err
    assert len(result.err.strip().splitlines()) == 1


def test_record_file_given_directly(seed_bytes, content_dir, check):
    path = Path("elsewhere.json")
    path.write_bytes(seed_bytes)
    result = check(str(path))
    assert result.code == 0
    assert "checked 1 lesson" in result.out


def test_record_json_that_is_a_directory(content_dir, check):
    (content_dir / "odd" / "record.json").mkdir(parents=True)
    result = check("content/")
    only_error(result, "A123", 1, 1, path="content/odd/record.json")


@pytest.mark.skipif(os.geteuid() == 0, reason="root reads any file")
def test_unreadable_file(write_record, seed_bytes, check):
    path = write_record(seed_bytes)
    path.chmod(0)
    only_error(check("content/"), "A123", 1, 1)


# --- top-level values that are not a record -------------------------------------------------


@pytest.mark.parametrize("text", ["[]", '"record"', "42", "true"])
def test_non_object_top_level(text, write_record, check):
    write_record(text)
    only_error(check("content/"), "A114", 1, 1)


def test_null_top_level(write_record, check):
    write_record("null")
    only_error(check("content/"), "A114", 1, 1)


def test_huge_integer_literal(seed, write_record, check, locate):
    text = seed_text(seed).replace('"contentLength": 10251', '"contentLength": ' + "9" * 5000)
    write_record(text)
    result = check("content/")
    assert result.code == 1, result.err
    assert "internal error" not in result.err


def test_symlink_loop_in_content_is_reported_not_fatal(content_dir, seed_bytes, check):
    (content_dir / "attention").mkdir()
    (content_dir / "attention" / "record.json").write_bytes(seed_bytes)
    (content_dir / "loop").symlink_to(content_dir / "loop")
    result = check("content/")
    assert "internal error" not in result.err, result.err
    assert result.code == 1


def test_duplicate_key_location_with_slash_in_keys(write_record, check, locate):
    text = '{"a/b": 1, "a": {"b": 2}, "x": 1, "x": 2}'
    write_record(text)
    only_error(check("content/"), "A105", *locate(text, '"x"', 1))
