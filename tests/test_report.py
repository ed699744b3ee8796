"""Output formats: text, json, sarif, junit and github are views of the same findings."""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ElementTree

import pytest
from jsonschema import Draft202012Validator
from rfc3986_validator import validate_rfc3986

from atlas_build import schemas
from atlas_build.diagnostics import Diagnostic, Severity
from atlas_build.recordhash import record_hash
from atlas_build.report import FORMATS, RecordReport, Report, github, render

TEXT_LINE = re.compile(
    r"^(?P<path>[^:]+):(?P<line>\d+):(?P<col>\d+): (?P<severity>error|warning|info) "
    r"(?P<code>A\d{3}) (?P<message>.+)$"
)
COVERAGE_LINE = re.compile(r"^[^:]+: (verified|partly verified|not verified|verification failed): ")
SUMMARY = re.compile(r"^checked (\d+) lessons?: (\d+) errors?, (\d+) warnings?")


@pytest.fixture
def mixed(seed, seed_bytes, write_record, content_dir, tmp_path, monkeypatch):
    """A content directory with the seed and one warning (a related lesson that is not
    there, A240), a record with errors and a broken file."""
    monkeypatch.chdir(tmp_path)
    broken = json.loads(json.dumps(seed))
    seed["related"] = ["atlas-lesson-nowhere"]
    write_record(seed, slug="attention")
    broken["id"] = "atlas-lesson-broken"
    broken["contentLength"] = 1
    broken["citations"][0]["url"] = "javascript:alert(1)"
    write_record(broken, slug="broken")
    write_record('{"id": "x", "id": "y"}', slug="dup")
    return "content/"


def check(run_cli, *args):
    return run_cli("check", *args)


# --- text ------------------------------------------------------------------------------------


def test_text_lines_and_summary(mixed, run_cli):
    result = check(run_cli, mixed)
    assert result.code == 1
    *lines, summary = result.out.rstrip("\n").split("\n")
    said = [line for line in lines if COVERAGE_LINE.match(line)]
    assert {line.split(": ", 1)[0] for line in said} == {
        "content/attention/record.json",
        "content/broken/record.json",  # read, so measured; the duplicate-key file was not
    }
    assert any(line.startswith("content/broken/record.json: verification failed") for line in said)
    lines = [line for line in lines if line not in said]
    assert lines
    parsed = [TEXT_LINE.match(line) for line in lines]
    assert all(parsed), [line for line, match in zip(lines, parsed, strict=True) if not match]
    errors = sum(1 for match in parsed if match["severity"] == "error")
    warnings = sum(1 for match in parsed if match["severity"] == "warning")
    assert "info" not in {match["severity"] for match in parsed}
    counts = SUMMARY.match(summary)
    assert counts, summary
    assert tuple(map(int, counts.groups())) == (3, errors, warnings)
    paths = {match["path"] for match in parsed}
    assert paths == {
        "content/attention/record.json",
        "content/broken/record.json",
        "content/dup/record.json",
    }


def test_text_verbose_shows_info(seed, write_record, run_cli):
    seed["recordHash"] = record_hash(seed)
    path = write_record(seed)
    quiet = check(run_cli, path)
    loud = check(run_cli, "-v", path)
    assert " info A210 " not in quiet.out
    assert "info hidden" in quiet.out.splitlines()[-1]
    assert " info A210 " in loud.out


def test_text_summary_singular_and_clean(seed, write_record, run_cli, rehash):
    seed["content"] = "# Clean\n\nNothing to pad.\n"
    seed["citations"] = []
    rehash(seed, sign=True)
    result = check(run_cli, write_record(seed))
    assert result.code == 0, result.out
    assert result.out.splitlines()[-1].startswith("checked 1 lesson: 0 errors, 0 warnings")


def test_text_line_without_location():
    report = Report(
        [RecordReport("x.json", None, [Diagnostic(Severity.ERROR, "A104", "bad", "x.json")])]
    )
    assert render(report, "text").splitlines()[0] == "x.json: error A104 bad"


# --- json ------------------------------------------------------------------------------------


def report_validator() -> Draft202012Validator:
    schema = schemas.load("report.schema.json")
    Draft202012Validator.check_schema(schema)
    return Draft202012Validator(schema, format_checker=Draft202012Validator.FORMAT_CHECKER)


@pytest.mark.parametrize("strict", [False, True])
def test_json_report_validates_and_counts(mixed, run_cli, strict):
    args = ["--format", "json", mixed] + (["--strict"] if strict else [])
    result = check(run_cli, *args)
    assert result.code == 1
    data = result.json()
    errors = sorted(report_validator().iter_errors(data), key=str)
    assert not errors, [error.message for error in errors]
    assert data["strict"] is strict
    summary = data["summary"]
    assert {"records", "errors", "warnings"} <= set(summary)
    assert summary["records"] == len(data["records"]) == 3
    every = [d for record in data["records"] for d in record["diagnostics"]]
    assert summary["errors"] == sum(1 for d in every if d["severity"] == "error")
    assert summary["warnings"] == sum(1 for d in every if d["severity"] == "warning")
    for record in data["records"]:
        assert {"path", "id", "diagnostics", "claims"} <= set(record)
        assert isinstance(record["claims"], list)
        for diagnostic in record["diagnostics"]:
            keys = {"severity", "code", "message", "path", "line", "column", "pointer"}
            assert keys <= set(diagnostic)
    by_path = {record["path"]: record for record in data["records"]}
    assert by_path["content/attention/record.json"]["id"] == "atlas-lesson-attention"
    assert by_path["content/dup/record.json"]["id"] is None
    dup = by_path["content/dup/record.json"]["diagnostics"]
    assert [(d["code"], d["line"], d["column"], d["pointer"]) for d in dup] == [
        ("A105", 1, 13, "/id")
    ]
    broken = {d["code"]: d for d in by_path["content/broken/record.json"]["diagnostics"]}
    assert broken["A230"]["pointer"] == "/citations/0/url"
    assert broken["A204"]["pointer"] == "/contentLength"


def test_json_report_for_the_seed(seed, write_record, run_cli):
    seed["related"] = ["atlas-lesson-nowhere"]  # a warning (A240); the rest is information
    result = check(run_cli, "--format", "json", write_record(seed))
    assert result.code == 0
    data = result.json()
    assert not list(report_validator().iter_errors(data))
    assert data["summary"]["errors"] == 0
    (record,) = data["records"]
    assert record["status"] == "warning"
    codes = [d["code"] for d in record["diagnostics"] if d["severity"] == "warning"]
    assert data["summary"]["warnings"] == len(codes) == 1
    assert codes == ["A240"]
    infos = {d["code"] for d in record["diagnostics"] if d["severity"] == "info"}
    assert {"A202", "A211"} <= infos  # padded list markers, recordHash recipe
    padded = next(d for d in record["diagnostics"] if d["code"] == "A202")
    assert (padded["contentLine"], padded["contentColumn"]) == (19, 4)


def test_json_includes_info_findings(seed, write_record, run_cli):
    seed["recordHash"] = record_hash(seed)
    data = check(run_cli, "--format", "json", write_record(seed)).json()
    codes = {d["code"] for d in data["records"][0]["diagnostics"]}
    assert "A210" in codes


def test_report_schema_rejects_a_malformed_report():
    validator = report_validator()
    good = {
        "version": 2,
        "summary": {"records": 0, "errors": 0, "warnings": 0},
        "records": [],
    }
    assert not list(validator.iter_errors(good))
    bad_records = dict(good, records=[{"path": "x", "id": None, "diagnostics": []}])
    assert list(validator.iter_errors(bad_records))  # claims missing
    bad_code = dict(
        good,
        records=[
            {
                "path": "x",
                "id": None,
                "claims": [],
                "diagnostics": [
                    {
                        "severity": "fatal",
                        "code": "X1",
                        "message": "m",
                        "path": "x",
                        "line": 0,
                        "column": None,
                        "pointer": None,
                    }
                ],
            }
        ],
    )
    assert len(list(validator.iter_errors(bad_code))) >= 3


# --- sarif -----------------------------------------------------------------------------------


def test_sarif_structure(mixed, run_cli):
    result = check(run_cli, "--format", "sarif", mixed)
    assert result.code == 1
    sarif = result.json()
    assert sarif["version"] == "2.1.0"
    assert "sarif" in sarif["$schema"] and "2.1.0" in sarif["$schema"]
    (run,) = sarif["runs"]
    driver = run["tool"]["driver"]
    assert driver["name"] == "atlas-build"
    rules = driver["rules"]
    ids = [rule["id"] for rule in rules]
    assert len(ids) == len(set(ids))
    for rule in rules:
        assert rule["shortDescription"]["text"]
        assert rule["defaultConfiguration"]["level"] in ("error", "warning", "note")
    results = run["results"]
    assert results
    for item in results:
        assert item["ruleId"] in ids
        assert rules[item["ruleIndex"]]["id"] == item["ruleId"]
        assert item["level"] in ("error", "warning", "note")
        assert item["message"]["text"]
        (location,) = item["locations"]
        physical = location["physicalLocation"]
        assert physical["artifactLocation"]["uri"].startswith("content/")
        assert physical["region"]["startLine"] >= 1
        assert physical["region"]["startColumn"] >= 1
    dup = next(r for r in results if r["ruleId"] == "A105")
    assert dup["level"] == "error"
    assert dup["locations"][0]["physicalLocation"]["region"] == {"startLine": 1, "startColumn": 13}
    text_findings = [
        line for line in check(run_cli, mixed).out.splitlines() if TEXT_LINE.match(line)
    ]
    assert len(results) >= len(text_findings)


def test_sarif_uri_is_a_uri_reference(seed_bytes, write_record, run_cli, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    write_record(seed_bytes, slug="my lesson")
    sarif = check(run_cli, "--format", "sarif", "content/").json()
    for item in sarif["runs"][0]["results"]:
        uri = item["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
        assert validate_rfc3986(uri, rule="URI_reference"), uri


# --- junit -----------------------------------------------------------------------------------


def test_junit_one_testcase_per_record(mixed, run_cli):
    result = check(run_cli, "--format", "junit", mixed)
    assert result.code == 1
    assert result.out.startswith('<?xml version="1.0" encoding="UTF-8"?>')
    root = ElementTree.fromstring(result.out.encode("utf-8"))
    suites = [root] if root.tag == "testsuite" else root.findall("testsuite")
    cases = [case for suite in suites for case in suite.findall("testcase")]
    assert len(cases) == 3
    assert sum(int(suite.get("tests")) for suite in suites) == 3
    by_name = {case.get("name"): case for case in cases}
    assert by_name["atlas-lesson-attention"].find("failure") is None
    failing = [case for case in cases if case.find("failure") is not None]
    assert len(failing) == 2
    assert sum(int(suite.get("failures")) for suite in suites) == 2
    broken = by_name["atlas-lesson-broken"].find("failure")
    assert "A204" in broken.text and "A230" in broken.text


def test_junit_strict_fails_warnings(seed, write_record, run_cli):
    seed["related"] = ["atlas-lesson-nowhere"]  # a warning (A240)
    path = write_record(seed)
    plain = ElementTree.fromstring(check(run_cli, "--format", "junit", path).out.encode())
    strict = ElementTree.fromstring(
        check(run_cli, "--format", "junit", "--strict", path).out.encode()
    )
    assert plain.find(".//failure") is None
    assert "A240" in plain.find(".//system-out").text
    failure = strict.find(".//failure")
    assert failure is not None and "A240" in failure.text


def test_junit_escapes_markup(seed, write_record, run_cli):
    seed["citations"][0]["title"] = '<b>&"</b>'
    seed["citations"][0]["url"] = "javascript:alert(1)"
    out = check(run_cli, "--format", "junit", write_record(seed)).out
    failure = ElementTree.fromstring(out.encode()).find(".//failure")
    assert '<b>&"</b>' in failure.text


# --- github ----------------------------------------------------------------------------------

ANNOTATION = re.compile(r"^::(?P<command>error|warning|notice) (?P<props>[^:]*)::(?P<message>.*)$")


def test_github_annotations_and_summary(mixed, run_cli, monkeypatch):
    monkeypatch.delenv("GITHUB_STEP_SUMMARY", raising=False)
    result = check(run_cli, "--format", "github", mixed)
    assert result.code == 1
    *lines, summary = result.out.rstrip("\n").split("\n")
    assert SUMMARY.match(summary)
    for line in lines:
        match = ANNOTATION.match(line)
        assert match, line
        props = dict(part.split("=", 1) for part in match["props"].split(","))
        assert props["file"].startswith("content/")
        if props["title"] == "coverage":  # a lesson's coverage notice has no one line
            assert match["command"] == "notice" and "relations" in match["message"]
            continue
        assert int(props["line"]) >= 1 and int(props["col"]) >= 1
    assert any(
        line.startswith("::error file=content/dup/record.json,line=1,col=13") for line in lines
    )
    assert any(line.startswith("::warning file=content/attention/record.json,") for line in lines)


def test_github_escaping():
    diagnostic = Diagnostic(
        Severity.ERROR,
        "A201",
        "100% wrong\r\nsecond line: a, b",
        "dir,with:odd%name/record.json",
        line=3,
        column=4,
    )
    out = render(Report([RecordReport(diagnostic.path, "x", [diagnostic])]), "github")
    first = out.splitlines()[0]
    assert first.startswith("::error file=dir%2Cwith%3Aodd%25name/record.json,line=3,col=4,")
    assert first.endswith("::100%25 wrong\\r\\nsecond line: a, b")  # controls shown as escapes
    assert len(out.splitlines()) == 2  # the annotation and the summary


def test_github_warning_and_notice(monkeypatch):
    monkeypatch.delenv("GITHUB_STEP_SUMMARY", raising=False)
    diagnostics = [
        Diagnostic(Severity.WARNING, "A211", "w", "r.json", 1, 2),
        Diagnostic(Severity.INFO, "A210", "i", "r.json", 1, 3),
    ]
    report = Report([RecordReport("r.json", "x", diagnostics)])
    quiet = github.render(report)
    assert quiet.startswith("::warning file=r.json,line=1,col=2,")
    assert "::notice" not in quiet
    assert "::notice file=r.json,line=1,col=3," in github.render(report, verbose=True)


def test_github_step_summary(mixed, run_cli, tmp_path, monkeypatch):
    summary = tmp_path / "step-summary.md"
    monkeypatch.setenv("GITHUB_STEP_SUMMARY", str(summary))
    check(run_cli, "--format", "github", mixed)
    text = summary.read_text(encoding="utf-8")
    assert "| ` atlas-lesson-attention ` | warning |" in text  # ids as code spans
    assert "| ` atlas-lesson-broken ` | error |" in text


# --- every format ----------------------------------------------------------------------------


def test_formats_listed():
    assert set(FORMATS) == {"text", "json", "junit", "sarif", "github"}


@pytest.mark.parametrize("output_format", ["text", "json", "junit", "sarif", "github"])
def test_output_file_option(output_format, mixed, run_cli, tmp_path):
    target = tmp_path / f"report.{output_format}"
    result = check(run_cli, "--format", output_format, "-o", target, mixed)
    assert result.code == 1
    assert result.out == ""
    written = target.read_text(encoding="utf-8")
    assert written == check(run_cli, "--format", output_format, mixed).out


def test_unknown_format_is_a_usage_error(mixed, run_cli):
    result = check(run_cli, "--format", "yaml", mixed)
    assert result.code == 2
    assert "Traceback" not in result.err
