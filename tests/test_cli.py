"""The `atlas-build` command line: exit codes, --strict, explain, and no traceback for any input."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pytest

from atlas_build import __version__
from atlas_build.catalog import codes as registry

REPO = Path(__file__).resolve().parent.parent
SPINE_CODES = {
    *(f"A10{n}" for n in range(1, 8)),
    *(f"A11{n}" for n in range(6)),
    *(f"A12{n}" for n in range(4)),
    *(f"A20{n}" for n in range(1, 6)),
    "A210",
    "A211",
    *(f"A22{n}" for n in range(5)),
    "A230",
    "A240",
    "A241",
    "A901",
}


# --- check -----------------------------------------------------------------------------------


def test_repository_seed_passes_with_no_warning(run_cli, monkeypatch):
    monkeypatch.chdir(REPO)
    result = run_cli("check", "content/attention/")
    assert result.code == 0, result.out
    *lines, coverage, _ = result.out.splitlines()
    assert coverage.startswith("content/attention/record.json: partly verified: ")
    findings = [line.split(" ")[1:3] for line in lines]
    spine = [finding for finding in findings if not finding[1].startswith("A3")]
    assert spine == []  # A202 and A211 are information: the publisher's hashes, not defects
    # T_q, T_k and d_v appear in no equation but in the units of Q, K and V: used, no A320
    assert [f for f in findings if f[1].startswith("A3")] == []


def test_default_path_is_content(seed_bytes, write_record, run_cli, tmp_path, monkeypatch):
    write_record(seed_bytes)
    monkeypatch.chdir(tmp_path)
    result = run_cli("check")
    assert result.code == 0
    assert "content/attention/record.json:" in result.out
    assert result.out == run_cli("check", "content/").out


def test_seed_exits_0_and_strict_exits_1_on_a_warning(seed, write_record, run_cli):
    seed["related"] = ["atlas-lesson-nowhere"]  # A240, a warning
    path = write_record(seed)
    plain = run_cli("check", path)
    assert plain.code == 0
    assert plain.out.splitlines()[-1].startswith("checked 1 lesson: 0 errors, 1 warning")
    strict = run_cli("check", "--strict", path)
    assert strict.code == 1
    assert "--strict" in strict.out.splitlines()[-1]


def test_strict_with_no_warnings_exits_0(seed, write_record, run_cli, rehash):
    seed["content"] = "# Clean\n\nNothing to pad.\n"
    seed["citations"] = []
    rehash(seed, sign=True)
    assert run_cli("check", "--strict", write_record(seed)).code == 0


def test_several_paths(seed, seed_bytes, write_record, run_cli, content_dir):
    first = write_record(seed_bytes)
    seed["id"] = "../x"
    second = write_record(seed, slug="other")
    result = run_cli("check", first, second)
    assert result.code == 1
    assert result.out.splitlines()[-1].startswith("checked 2 lessons: 1 error,")


def test_same_file_twice_checked_once(seed_bytes, write_record, run_cli):
    path = write_record(seed_bytes)
    result = run_cli("check", path, path, path.parent)
    assert result.out.splitlines()[-1].startswith("checked 1 lesson:")


def test_findings_sorted_by_position(seed, write_record, run_cli):
    seed["id"] = "../x"
    seed["title"] = ""
    seed["contentLength"] = "many"
    lines = run_cli("check", write_record(seed)).out.splitlines()[:-1]
    positions = [tuple(map(int, re.match(r".*?:(\d+):(\d+): ", line).groups())) for line in lines]
    assert positions == sorted(positions)
    assert len(lines) == 3


@pytest.mark.parametrize(
    "args",
    [
        [],
        ["frobnicate"],
        ["check", "--format"],
        ["check", "--no-such-option"],
        ["check", "--max-bytes", "lots"],
    ],
)
def test_usage_errors_exit_2(args, run_cli):
    result = run_cli(*args)
    assert result.code == 2
    assert "Traceback" not in result.err
    assert result.err


def test_missing_path_exits_2(run_cli, tmp_path):
    result = run_cli("check", tmp_path / "absent")
    assert result.code == 2
    assert result.err.count("\n") == 1 and "absent" in result.err


def test_version(run_cli):
    result = run_cli("--version")
    assert result.code == 0
    assert __version__ in result.out


# --- explain ---------------------------------------------------------------------------------


def test_explain_a201(run_cli):
    result = run_cli("explain", "A201")
    assert result.code == 0
    assert result.out.startswith("A201 content-hash-mismatch (error, integrity)")
    assert "Example:" in result.out and "Fix:" in result.out


def test_explain_by_name_and_lowercase(run_cli):
    assert run_cli("explain", "a202").out == run_cli("explain", "content-hash-of-padded-form").out
    assert run_cli("explain", "a202").out.startswith("A202 ")


def test_explain_unknown_code_exits_2(run_cli):
    result = run_cli("explain", "NOPE")
    assert result.code == 2
    assert "NOPE" in result.err
    assert result.out == ""


def test_explain_known_and_unknown_exits_2(run_cli):
    result = run_cli("explain", "A201", "NOPE")
    assert result.code == 2
    assert result.out.startswith("A201 ")


def test_explain_lists_every_spine_code(run_cli):
    result = run_cli("explain")
    assert result.code == 0
    listed = {line.split()[0] for line in result.out.splitlines() if not line.startswith(" ")}
    assert SPINE_CODES <= listed


def test_every_code_is_documented():
    codes = registry()
    assert SPINE_CODES <= set(codes)
    names = [entry.name for entry in codes.values()]
    assert len(names) == len(set(names))
    for code, entry in codes.items():
        assert code == entry.code
        assert entry.summary and entry.example and entry.fix and entry.stage


def test_severities_of_spine_codes():
    codes = registry()
    warnings = {"A111", "A121", "A203", "A224", "A240"}
    infos = {"A202", "A205", "A210", "A211"}
    for code in SPINE_CODES:
        expected = "warning" if code in warnings else "info" if code in infos else "error"
        assert codes[code].severity.value == expected, code


# --- no traceback, ever ------------------------------------------------------------------------


def hostile_files(seed: dict) -> dict[str, bytes]:
    rng = random.Random(7)
    deep_markdown = dict(seed, content="> " * 3000 + "x\n" + "- " * 3000 + "y\n")
    every_field_wrong = {key: [[{}], None] for key in seed}
    every_field_wrong["sections"] = [{"id": 1, "title": [], "start": -1, "end": "x", "z": 0}]
    lone_surrogate = json.dumps(dict(seed, content="# \ud800 x\n", title="\udfff"))
    return {
        "empty": b"",
        "random-bytes": bytes(rng.randrange(256) for _ in range(4096)),
        "bom-garbage": b"\xef\xbb\xbf\x00\xff{",
        "nul-bytes": b"\x00" * 100,
        "deep-objects": b'{"a":' * 20_000 + b"1" + b"}" * 20_000,
        "unclosed-string": b'{"content": "' + b"x" * 10_000,
        "deep-markdown": json.dumps(deep_markdown).encode(),
        "every-field-wrong": json.dumps(every_field_wrong).encode(),
        "lone-surrogates": lone_surrogate.encode(),
        "not-an-object": b"[1, 2, 3]",
        "control-chars": b'{"id": "a\x01b"}',
        "huge-float": b'{"contentLength": 1e999999}',
        "null": b"null",
    }


def test_no_traceback_for_hostile_inputs(seed, write_record, content_dir, run_script):
    for name, data in hostile_files(seed).items():
        write_record(data, slug=name)
    result = run_script("check", content_dir, timeout=120)
    assert "Traceback" not in result.err, result.err[-2000:]
    assert result.code == 1, result.err
    assert "internal error" not in result.err
    summary = result.out.splitlines()[-1]
    assert summary.startswith(f"checked {len(hostile_files(seed))} lessons:")


@pytest.mark.parametrize("output_format", ["json", "sarif", "junit", "github"])
def test_hostile_inputs_in_every_format(output_format, seed, write_record, content_dir, run_cli):
    for name, data in hostile_files(seed).items():
        write_record(data, slug=name)
    result = run_cli("check", "--format", output_format, content_dir)
    assert result.code == 1
    assert "Traceback" not in result.err and "internal error" not in result.err
    if output_format in ("json", "sarif"):
        json.loads(result.out)


@pytest.mark.parametrize("name", ["random-bytes", "every-field-wrong", "deep-objects"])
def test_hostile_file_alone_through_console_script(name, seed, write_record, run_script):
    path = write_record(hostile_files(seed)[name])
    result = run_script("check", "--format", "json", path)
    assert "Traceback" not in result.err
    assert result.code in (0, 1)
    assert json.loads(result.out)["summary"]["errors"] >= 1


def test_huge_integer_literal_through_console_script(write_record, run_script):
    path = write_record(b'{"contentLength": ' + b"9" * 5000 + b"}")
    result = run_script("check", path)
    assert "Traceback" not in result.err
    assert result.code in (0, 1), result.err


@pytest.mark.parametrize("size", ["inf", "1e400"])
def test_infinite_max_bytes_is_a_usage_error(size, seed_bytes, write_record, run_script):
    result = run_script("check", "--max-bytes", size, write_record(seed_bytes))
    assert "Traceback" not in result.err
    assert result.code == 2


def test_huge_max_bytes(seed_bytes, write_record, run_cli):
    result = run_cli("check", "--max-bytes", "1e30", write_record(seed_bytes))
    assert "internal error" not in result.err
    assert result.code in (0, 2)
    assert result.code == 0 or "max-bytes" in result.err


# `atlas-build infer`: the inferred checks offered as claims.yaml entries.

_INFER_LESSON = Path(__file__).parent / "blind" / "bandwidth-delay-product"


@pytest.fixture
def infer_copy(tmp_path: Path) -> Path:
    folder = tmp_path / "content" / _INFER_LESSON.name
    folder.mkdir(parents=True)
    (folder / "record.json").write_bytes((_INFER_LESSON / "record.json").read_bytes())
    return folder


def test_infer_prints_entries_that_pass_and_writes_nothing(infer_copy, run_cli):
    result = run_cli("infer", infer_copy)
    assert result.code == 0, result.err
    assert "inferred checks" in result.out and "kind: formula" in result.out
    assert not (infer_copy / "claims.yaml").exists()


def test_infer_write_adds_claims_that_then_pass(infer_copy, run_cli):
    assert run_cli("infer", "--write", infer_copy).code == 0
    written = (infer_copy / "claims.yaml").read_text(encoding="utf-8")
    assert written.startswith("claims:") and "inferred by `atlas-build infer --write`" in written
    report = run_cli("check", "--output-format", "json", infer_copy).json()
    claims = [c for record in report["records"] for c in record["claims"]]
    statuses = [c["status"] for c in claims if c["source"] != "inferred"]
    assert len(statuses) >= 2 and set(statuses) == {"pass"}


def test_infer_pins_worked_and_list_checks_which_then_catch_an_edit(tmp_path, run_cli, rehash):
    """A list relation (softmax over `\\[2.0, 1.0, 0.1, −1.0\\]`) and a working that writes
    out a relation (`12 + 0.2 × 200 = 52`) are offered as formula claims; pinned, they pass,
    and an edited probability then fails the check (inference alone says nothing there)."""
    folders = []
    for slug in ("label-smoothing-loss", "cache-amat"):
        folder = tmp_path / "content" / slug
        folder.mkdir(parents=True)
        source = Path(__file__).parent / "blind" / slug / "record.json"
        (folder / "record.json").write_bytes(source.read_bytes())
        folders.append(folder)
    printed = run_cli("infer", *folders)
    assert "z: [2, 1, '0.1', -1]" in printed.out and "is its form" not in printed.out
    assert run_cli("infer", "--write", *folders).code == 0
    report = run_cli("check", "--output-format", "json", *folders).json()
    pinned = [c for r in report["records"] for c in r["claims"] if c["id"].startswith("inferred-")
              and c["source"] != "inferred"]  # fmt: skip
    assert len(pinned) >= 3 and {c["status"] for c in pinned} == {"pass"}, pinned
    record_path = folders[0] / "record.json"
    record = json.loads(record_path.read_text(encoding="utf-8"))
    assert "0.638, 0.235" in record["content"]
    record["content"] = record["content"].replace("0.638, 0.235", "0.648, 0.235", 1)
    record_path.write_text(json.dumps(rehash(record), ensure_ascii=False), encoding="utf-8")
    assert run_cli("check", "--no-cache", folders[0]).code == 1
    assert run_cli("check", "--no-cache", folders[1]).code == 0


def test_infer_write_keeps_an_authors_file_it_cannot_append_to(infer_copy, run_cli):
    authored = "claims: []\nunchecked: []\n"
    (infer_copy / "claims.yaml").write_text(authored, encoding="utf-8")
    result = run_cli("infer", "--write", infer_copy)
    assert result.code == 1 and "add the printed entries by hand" in result.err
    assert (infer_copy / "claims.yaml").read_text(encoding="utf-8") == authored


def test_infer_write_never_writes_through_a_link(infer_copy, tmp_path, run_cli):
    outside = tmp_path / "outside.yaml"
    outside.write_text("claims:\n", encoding="utf-8")
    (infer_copy / "claims.yaml").symlink_to(outside)
    result = run_cli("infer", "--write", infer_copy)
    assert result.code == 1 and "link" in result.err
    assert outside.read_text(encoding="utf-8") == "claims:\n"
