"""The bad-input corpus: every case gives its expected, located codes and never a traceback.

Each folder of `tests/bad/` (written by `tests/bad/make_corpus.py`) is a lesson folder with
an `expected.json`: the codes its check must report (each with a line and a column), the
exit code, optionally exact locations, and `xfail` for a known bug of atlas-build (the
case then runs as `xfail(strict=True)`, so a fix makes it fail until the mark is removed).

Most cases run in-process through `atlas_build.pipeline.check`; a handful (and the cases
generated here at run time: 10,000 nested braces, a 100 MB file, symlinks out of the
content directory) run through the real console script with a timeout.
"""

from __future__ import annotations

import json
import os
import shutil
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import jsonschema
import pytest

REPO = Path(__file__).resolve().parent.parent
CORPUS = REPO / "tests" / "bad"
SEED = REPO / "content" / "attention" / "record.json"
REPORT_SCHEMA = json.loads((REPO / "schemas" / "report.schema.json").read_text("utf-8"))
TIMEOUT = 60  # seconds a console-script run may take
IN_PROCESS_BOUND = 20.0  # seconds one in-process check may take

CASES = sorted(path.name for path in CORPUS.iterdir() if (path / "expected.json").is_file())
# Through the real console script: one of each family, and inputs that once crashed the CLI
# or its output (NUL in YAML, a lone surrogate printed in a message). Exact locations are
# checked in-process only, so a case whose known bug is a location runs here unmarked.
SCRIPT_CASES = (
    "json-truncated-in-string",
    "bom-record",
    "deep-nesting-arrays",
    "wrong-type-content",
    "sections-overlapping",
    "front-matter-alias-bomb",
    "front-matter-nul-character",
    "claims-engine-t-1e9",
    "latex-unknown-command",
    "content-crlf",
    "body-link-javascript",
    "lone-surrogate-escape-in-key",
    "front-matter-int-hex-digits",
    "claims-timeout-nan",
    "id-markdown-injection",
)
LOCATION_BUG = "BUG: wrong location"


def expected_of(name: str) -> dict[str, Any]:
    return json.loads((CORPUS / name / "expected.json").read_text("utf-8"))


def _params(names: list[str] | tuple[str, ...], *, pinned: bool = True) -> list[Any]:
    params = []
    for name in names:
        reason = expected_of(name).get("xfail")
        if reason and not pinned and reason.startswith(LOCATION_BUG):
            reason = None
        marks = [pytest.mark.xfail(strict=True, reason=reason)] if reason else []
        params.append(pytest.param(name, id=name, marks=marks))
    return params


def verify(
    data: dict[str, Any], exit_code: int, expected: dict[str, Any], *, pinned: bool = True
) -> None:
    """The report validates, exits as expected and holds every expected code, located
    (at the expected `locations` too, when `pinned`)."""
    jsonschema.validate(data, REPORT_SCHEMA)
    diagnostics = [d for record in data["records"] for d in record["diagnostics"]]
    shown = [(d["code"], d["line"], d["column"], d["message"][:120]) for d in diagnostics]
    assert not [d for d in diagnostics if d["code"] == "A901"], shown
    assert exit_code == expected["exit"], shown
    for code in expected["codes"]:
        found = [d for d in diagnostics if d["code"] == code]
        assert found, f"{code} missing; got {shown}"
        for diagnostic in found:
            assert isinstance(diagnostic["line"], int) and diagnostic["line"] >= 1, diagnostic
            assert isinstance(diagnostic["column"], int) and diagnostic["column"] >= 1, diagnostic
    for place in expected.get("locations", []) if pinned else []:
        where = [(d["line"], d["column"]) for d in diagnostics if d["code"] == place["code"]]
        assert (place["line"], place["column"]) in where, f"{place} not among {where}"
    if expected["exit"] == 0:
        assert data["summary"]["errors"] == 0, shown


def check_in_process(*paths: Path) -> tuple[dict[str, Any], int]:
    """Run every stage in this process; render text and JSON as the CLI prints them."""
    from atlas_build import pipeline
    from atlas_build.report import render

    started = time.perf_counter()
    report, _ = pipeline.check(
        [os.path.relpath(path) for path in paths], pipeline.Options(cache_dir=None, jobs=1)
    )
    output = render(report, "json")
    render(report, "text", verbose=True)
    elapsed = time.perf_counter() - started
    assert elapsed < IN_PROCESS_BOUND, f"check took {elapsed:.1f} s"
    # what the CLI prints: stdout is UTF-8 with backslashreplace (lone surrogates escaped)
    printed = output.encode("utf-8", "backslashreplace").decode("utf-8")
    return json.loads(printed), report.exit_code()


def check_script(run_script: Callable[..., Any], *paths: Path) -> tuple[dict[str, Any], int]:
    """Run the installed console script: no traceback, JSON on stdout, within TIMEOUT."""
    args = [os.path.relpath(path, REPO) for path in paths]
    result = run_script(
        "check", *args, "--format", "json", "--no-cache", "-j", "1", cwd=REPO, timeout=TIMEOUT
    )
    assert "Traceback" not in result.err, result.err
    assert result.code in (0, 1), f"exit {result.code}: {result.err.strip()}"
    return json.loads(result.out), result.code


def test_corpus_is_large_enough_and_small() -> None:
    assert len(CASES) >= 50
    files = [path for path in CORPUS.rglob("*") if path.is_file()]
    size = sum(path.stat().st_size for path in files if "__pycache__" not in path.parts)
    assert size < 3_000_000, f"the committed corpus grew to {size} bytes"
    for name in CASES:
        expected = expected_of(name)
        assert set(expected) <= {"about", "codes", "exit", "locations", "xfail", "gap"}, name
        assert expected["exit"] in (0, 1), name
        assert expected["codes"] or expected.get("gap"), f"{name}: no code and no gap noted"


def test_corpus_matches_its_generator(corpus: Any) -> None:
    """The committed files are what tests/bad/make_corpus.py writes (rerun it after edits)."""
    generated = {item.name: corpus.files_of(item) for item in corpus.CASES}
    assert sorted(generated) == CASES
    for name, files in generated.items():
        folder = CORPUS / name
        committed = {
            path.relative_to(folder).as_posix()
            for path in folder.rglob("*")
            if path.is_file() and "__pycache__" not in path.parts
        }
        assert committed == set(files), name
        for relative, data in files.items():
            assert (folder / relative).read_bytes() == data, (
                f"{name}/{relative} is stale: run .venv/bin/python tests/bad/make_corpus.py"
            )


@pytest.mark.parametrize("name", _params(CASES))
def test_corpus_case(name: str) -> None:
    data, exit_code = check_in_process(CORPUS / name)
    verify(data, exit_code, expected_of(name))


@pytest.mark.parametrize("name", _params(SCRIPT_CASES, pinned=False))
def test_corpus_case_through_console_script(name: str, run_script: Callable[..., Any]) -> None:
    data, exit_code = check_script(run_script, CORPUS / name)
    verify(data, exit_code, expected_of(name), pinned=False)


# --- cases generated at run time -------------------------------------------------------


def _corpus_module() -> Any:
    import importlib.util
    import sys

    name = "tests_bad_make_corpus"
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, CORPUS / "make_corpus.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # dataclasses look their module up while the file runs
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def corpus() -> Any:
    """The corpus generator's helpers (seed record, claims snippets), imported once."""
    return _corpus_module()


def test_claims_cases_start_from_a_clean_lesson(tmp_path: Path, corpus: Any) -> None:
    """The control for the claims cases: the seed (re-hashed) with the claims they all share."""
    folder = tmp_path / "content" / "attention"
    folder.mkdir(parents=True)
    (folder / "record.json").write_text(corpus.BASE_TEXT, encoding="utf-8")
    (folder / "claims.yaml").write_text(corpus.CLAIMS_HEAD + "claims:\n" + corpus.MIXTURE)
    data, exit_code = check_in_process(folder)
    verify(data, exit_code, {"codes": [], "exit": 0})
    (record,) = data["records"]
    assert [claim["status"] for claim in record["claims"]] == ["pass"]


def _lesson_with_equation(folder: Path, corpus: Any, latex: str, claims: str | None = None) -> Path:
    folder.mkdir(parents=True)
    record = corpus.append_end(f"$$\n{latex}\n$$\n")
    (folder / "record.json").write_text(corpus.dumps(record), encoding="utf-8")
    needed = corpus.CLAIMS_HEAD + "claims:\n" + corpus.MIXTURE + corpus.READS_EQUATION_2
    (folder / "claims.yaml").write_text(claims if claims is not None else needed, "utf-8")
    return folder


@pytest.mark.parametrize(
    ("name", "latex"),
    [
        ("braces", "y = " + "{" * 10_000 + "x" + "}" * 10_000),
        ("unclosed-braces", "y = " + "{" * 10_000 + "x"),
        ("fractions", "y = " + "\\frac{1}{" * 10_000 + "x" + "}" * 10_000),
        ("left-right", "y = " + "\\left(" * 10_000 + "x" + "\\right)" * 10_000),
    ],
)
def test_latex_10000_nested(name: str, latex: str, tmp_path: Path, corpus: Any) -> None:
    folder = _lesson_with_equation(tmp_path / "content" / "attention", corpus, latex)
    data, exit_code = check_in_process(folder)
    expected = {"codes": ["A406"], "exit": 1}
    verify(data, exit_code, expected)
    found = [d for r in data["records"] for d in r["diagnostics"] if d["code"] == "A406"]
    # the claim's, at the claim, and the equation's, located in the record's content
    assert sorted(d["pointer"] for d in found) == ["/claims/1", "/content"]


def test_latex_10000_nested_braces_through_console_script(
    tmp_path: Path, corpus: Any, run_script: Callable[..., Any]
) -> None:
    latex = "y = " + "{" * 10_000 + "x" + "}" * 10_000
    folder = _lesson_with_equation(tmp_path / "content" / "attention", corpus, latex)
    data, exit_code = check_script(run_script, folder)
    verify(data, exit_code, {"codes": ["A406"], "exit": 1})


def test_latex_10000_nested_braces_in_claim_definition(tmp_path: Path, corpus: Any) -> None:
    nested = "{" * 10_000 + "s_k" + "}" * 10_000
    claims = corpus.CLAIMS_HEAD + (
        "claims:\n"
        "  - id: deep-definition\n"
        "    kind: equation\n"
        "    params:\n"
        "      equation: 1\n"
        "      indices: [j, k, m]\n"
        f'      definitions: {{a_k: "{nested}"}}\n'
        "      relations:\n"
        "        - {relation: 0, check: definition}\n"
        "        - {relation: 1, check: derive}\n"
    )
    folder = tmp_path / "content" / "attention"
    folder.mkdir(parents=True)
    (folder / "record.json").write_text(corpus.BASE_TEXT, encoding="utf-8")
    (folder / "claims.yaml").write_text(claims, encoding="utf-8")
    data, exit_code = check_in_process(folder)
    verify(data, exit_code, {"codes": ["A406"], "exit": 1})


def _sparse_file(path: Path, size: int, head: bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "wb") as handle:
        handle.write(head)
        handle.truncate(size)  # sparse: no 100 MB written to disk


@pytest.mark.parametrize("file_name", ["record.json", "lesson.md"])
def test_100_mb_file(file_name: str, tmp_path: Path) -> None:
    path = tmp_path / "content" / "huge" / file_name
    _sparse_file(
        path, 100 * 1024 * 1024, b'{"id": "x", "content": "' if ".json" in file_name else b"---\n"
    )
    data, exit_code = check_in_process(path.parent)
    head = b'{"id": "x", "content": "' if ".json" in file_name else b"---\n"
    line, column = (1, 1024 * 1024 + 1) if ".json" in file_name else (2, 1024 * 1024 - 3)
    assert len(head) in (24, 4)  # the file crosses the 1 MiB cap on its last line, in the NULs
    verify(
        data,
        exit_code,
        {
            "codes": ["A101"],
            "exit": 1,
            "locations": [{"code": "A101", "line": line, "column": column}],
        },
    )


def test_100_mb_record_through_console_script(
    tmp_path: Path, run_script: Callable[..., Any]
) -> None:
    path = tmp_path / "content" / "huge" / "record.json"
    _sparse_file(path, 100 * 1024 * 1024, b"{")
    started = time.perf_counter()
    data, exit_code = check_script(run_script, tmp_path / "content")
    assert time.perf_counter() - started < TIMEOUT
    verify(data, exit_code, {"codes": ["A101"], "exit": 1})


def test_oversized_claims_file(tmp_path: Path, corpus: Any) -> None:
    folder = tmp_path / "content" / "attention"
    folder.mkdir(parents=True)
    (folder / "record.json").write_text(corpus.BASE_TEXT, encoding="utf-8")
    _sparse_file(folder / "claims.yaml", 100 * 1024 * 1024, b"claims: []\n#")
    data, exit_code = check_in_process(folder)
    verify(data, exit_code, {"codes": ["A400"], "exit": 1})


def test_lesson_md_not_utf8(tmp_path: Path, corpus: Any) -> None:
    """Generated, not committed: `ruff format` reads every .md under tests/ as UTF-8."""
    folder = tmp_path / "content" / "attention"
    folder.mkdir(parents=True)
    text = corpus.LESSON.replace("Self-attention", "Self-attenti\udce9n", 1)
    (folder / "lesson.md").write_bytes(text.encode("utf-8", "surrogateescape"))
    line, column = corpus.position(corpus.LESSON, "Self-attention")
    place = {"code": "A103", "line": line, "column": column + len("Self-attenti")}
    data, exit_code = check_in_process(folder)
    verify(data, exit_code, {"codes": ["A103"], "exit": 1, "locations": [place]})


def test_oversized_front_matter(tmp_path: Path, corpus: Any) -> None:
    folder = tmp_path / "content" / "attention"
    folder.mkdir(parents=True)
    padding = "padding: " + "x" * (70 * 1024) + "\n"
    text = corpus.front(lambda front: front.replace("---\n", "---\n" + padding, 1))
    (folder / "lesson.md").write_text(text, encoding="utf-8")
    data, exit_code = check_in_process(folder)
    verify(data, exit_code, {"codes": ["A132"], "exit": 1})


# --- symlinks out of the content directory (made here: git symlinks are fragile) -----------


@pytest.fixture
def outside(tmp_path: Path) -> Path:
    """A directory next to the content directory holding a valid lesson and a secret."""
    folder = tmp_path / "outside"
    folder.mkdir()
    shutil.copyfile(SEED, folder / "record.json")
    (folder / "secret.txt").write_text("do not read me\n")
    return folder


def _symlink(link: Path, target: Path) -> None:
    link.parent.mkdir(parents=True, exist_ok=True)
    try:
        link.symlink_to(target)
    except OSError as error:  # pragma: no cover - platforms without symlinks
        pytest.skip(f"cannot create symlinks here: {error}")


@pytest.mark.parametrize(
    "layout",
    ["lesson-folder", "record-file", "record-to-etc-passwd", "claims-file", "relative-dotdot"],
)
def test_symlink_outside_content_refused(layout: str, tmp_path: Path, outside: Path) -> None:
    content = tmp_path / "content"
    lesson = content / "attention"
    if layout == "lesson-folder":
        _symlink(lesson, outside)
    elif layout == "record-file":
        _symlink(lesson / "record.json", outside / "record.json")
    elif layout == "record-to-etc-passwd":
        _symlink(lesson / "record.json", Path("/etc/passwd"))
    elif layout == "claims-file":
        lesson.mkdir(parents=True)
        shutil.copyfile(SEED, lesson / "record.json")
        _symlink(lesson / "claims.yaml", outside / "secret.txt")
    else:
        _symlink(lesson / "record.json", Path("../../outside/record.json"))
    data, exit_code = check_in_process(content)
    verify(data, exit_code, {"codes": ["A122"], "exit": 1})
    messages = " ".join(d["message"] for r in data["records"] for d in r["diagnostics"])
    assert "do not read me" not in messages and "root:" not in messages


def test_symlink_outside_through_console_script(
    tmp_path: Path, outside: Path, run_script: Callable[..., Any]
) -> None:
    content = tmp_path / "content"
    _symlink(content / "attention", outside)
    data, exit_code = check_script(run_script, content)
    verify(data, exit_code, {"codes": ["A122"], "exit": 1})


def test_symlink_inside_content_is_fine(tmp_path: Path) -> None:
    content = tmp_path / "content"
    (content / "real").mkdir(parents=True)
    shutil.copyfile(SEED, content / "real" / "record.json")
    _symlink(content / "alias", Path("real"))
    data, exit_code = check_in_process(content)
    codes = {d["code"] for r in data["records"] for d in r["diagnostics"]}
    assert "A122" not in codes and exit_code == 0
