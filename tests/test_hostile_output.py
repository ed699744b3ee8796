"""Output cannot be spoofed: lesson text in paths, ids and messages is inert in every format.

Paths, ids and messages all come from lesson repositories. Hypothesis builds them from
control characters, bidi overrides, separators, lone surrogates, the characters XML 1.0
forbids, markdown and workflow-command syntax, and every format must still say exactly
what it says for plain text: one text line per finding and a true summary line,
well-formed XML, valid JSON that round-trips the strings, one annotation per finding,
and a step-summary table whose cells are only text.
"""

from __future__ import annotations

import json
import re
import xml.dom.minidom
import xml.etree.ElementTree as ElementTree
from pathlib import Path
from urllib.parse import unquote_to_bytes

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from markdown_it import MarkdownIt

from atlas_build.diagnostics import Diagnostic, Severity
from atlas_build.report import RecordReport, Report, escape, github, render

HOSTILE = [
    "\n", "\r", "\r\n", "\t", "\x00", "\x07", "\x1b[2K", "\x1b[1A", "\x1b]0;owned\x07", "\x7f",
    "\x85", "\x9b", "\u2028", "\u2029", "\u202e", "\u2066", "\u200f", "\ufeff", "\ufffe",
    "\uffff", "\ud800", "\udfff", "|", "||", "![x](https://evil.example/p.png)",
    "[a](https://evil.example)", "`", "```", "<img src=x onerror=alert(1)>", "<!--", "&amp;",
    "%", "%0A", "::error::x", "::", ",", ":", "@octocat", "https://evil.example", "www.e.com",
    "\\", "\\|", "#", "*", "_", "checked 9 lessons: 0 errors, 0 warnings", "é", "\U0001f600",
]  # fmt: skip
UNSAFE_IN_LINE = re.compile(
    "[\x00-\x1f\x7f-\x9f\u061c\u2028-\u202e\u2066-\u2069\u200e\u200f\ud800-\udfff\ufffe\uffff]"
)
XML_CHAR = re.compile("^[\t\n\r\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]*$")
SUMMARY = re.compile(r"^checked (\d+) lessons?: (\d+) errors?, (\d+) warnings?")
ANNOTATION = re.compile(r"^::(error|warning|notice) (?P<props>[^:]*)::(?P<message>.*)$")

pieces = st.one_of(
    st.sampled_from(HOSTILE),
    st.characters(categories=["Cc", "Cf", "Cs", "Zl", "Zp", "Co", "Cn", "L", "N", "P", "S"]),
)
hostile_text = st.lists(pieces, max_size=12).map("".join)


def _report(paths: list[str], ids: list[str | None], messages: list[str]) -> Report:
    records = []
    for index, (path, identifier) in enumerate(zip(paths, ids, strict=False)):
        diagnostics = [
            Diagnostic(Severity.ERROR, "A110", message, path, 1 + index, 2, "/" + message)
            for message in messages
        ]
        diagnostics.append(Diagnostic(Severity.WARNING, "A111", messages[0], path, 3, 4))
        records.append(RecordReport(path, identifier, diagnostics))
    return Report(records)


reports = st.builds(
    _report,
    st.lists(hostile_text, min_size=1, max_size=3),
    st.lists(st.one_of(st.none(), hostile_text), min_size=3, max_size=3),
    st.lists(hostile_text, min_size=1, max_size=3),
)
SETTINGS = settings(max_examples=150, deadline=None)


def _findings(report: Report) -> int:
    return sum(
        record.count(Severity.ERROR) + record.count(Severity.WARNING) for record in report.records
    )


@SETTINGS
@given(reports)
def test_text_one_line_per_finding_and_a_true_summary(report: Report) -> None:
    out = render(report, "text")
    lines = out.split("\n")
    assert lines[-1] == ""
    lines = lines[:-1]
    assert len(lines) == _findings(report) + 1
    assert not [line for line in lines if UNSAFE_IN_LINE.search(line)]
    summary = SUMMARY.match(lines[-1])
    assert summary and int(summary[1]) == len(report.records)
    assert int(summary[2]) == report.count(Severity.ERROR)
    for line, record in zip(
        lines, (r for r in report.records for _ in r.diagnostics), strict=False
    ):
        assert line.startswith(escape.text(record.path) + ":")
    out.encode("utf-8")


@SETTINGS
@given(reports)
def test_json_and_sarif_valid_and_round_trip(report: Report) -> None:
    data = json.loads(render(report, "json").encode("utf-8").decode("utf-8"))
    assert [record["path"] for record in data["records"]] == [r.path for r in report.records]
    assert [record["id"] for record in data["records"]] == [r.id for r in report.records]
    messages = [d["message"] for record in data["records"] for d in record["diagnostics"]]
    assert messages == [d.message for r in report.records for d in r.diagnostics]
    sarif_text = render(report, "sarif")
    sarif = json.loads(sarif_text.encode("utf-8").decode("utf-8"))
    results = sarif["runs"][0]["results"]
    assert [r["message"]["text"] for r in results] == messages
    for item in results:
        uri = item["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
        assert re.fullmatch(r"[A-Za-z0-9\-._~/%]*", uri), uri
    for out in (sarif_text, render(report, "json")):
        assert not UNSAFE_IN_LINE.search(out.replace("\n", ""))


@SETTINGS
@given(reports)
def test_junit_is_well_formed_xml(report: Report) -> None:
    out = render(report, "junit")
    assert XML_CHAR.match(out), [c for c in out if not XML_CHAR.match(c)]
    root = ElementTree.fromstring(out.encode("utf-8"))
    xml.dom.minidom.parseString(out.encode("utf-8"))  # a second (namespace-aware) parse
    cases = root.findall(".//testcase")
    assert [case.get("name") for case in cases] == [
        escape.text(record.id or record.path) for record in report.records
    ]
    assert [case.get("file") for case in cases] == [escape.text(r.path) for r in report.records]


def _unescape_data(text: str) -> str:
    return text.replace("%0D", "\r").replace("%0A", "\n").replace("%25", "%")


@SETTINGS
@given(reports)
def test_github_one_annotation_per_finding(report: Report) -> None:
    out = github.render(report)
    lines = out.split("\n")[:-1]
    assert len(lines) == _findings(report) + 1
    assert SUMMARY.match(lines[-1])
    shown = [d for record in report.records for d in record.diagnostics]
    for line, diagnostic in zip(lines, shown, strict=False):
        match = ANNOTATION.match(line)
        assert match, line
        assert not UNSAFE_IN_LINE.search(line)
        props = dict(part.split("=", 1) for part in match["props"].split(","))
        assert set(props) == {"file", "line", "col", "title"}
        assert _unescape_data(match["message"]) == escape.text(diagnostic.message)
        file = props["file"].replace("%3A", ":").replace("%2C", ",")
        assert _unescape_data(file) == escape.text(diagnostic.path)


@SETTINGS
@given(report=reports)
def test_step_summary_cells_are_only_text(
    report: Report, tmp_path_factory: pytest.TempPathFactory
) -> None:
    summary = tmp_path_factory.mktemp("summary") / "step.md"
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("GITHUB_STEP_SUMMARY", str(summary))
        github.render(report)
    tokens = (
        MarkdownIt("commonmark", {"html": True}).enable("table").parse(summary.read_text("utf-8"))
    )
    kinds = {child.type for token in tokens for child in token.children or []}
    assert not kinds & {"link_open", "image", "html_inline"}
    assert not {token.type for token in tokens} & {"html_block"}
    rows = [token for token in tokens if token.type == "tr_open"]
    assert len(rows) == len(report.records) + 1  # the header row and one per lesson
    cells = [
        tokens[index + 1]
        for index, token in enumerate(tokens)
        if token.type == "td_open" and tokens[index - 1].type == "tr_open"
    ]
    for cell, record in zip(cells, report.records, strict=True):
        name = record.id or record.path
        if not name.strip(" "):  # spaces only: written as entities, no code span
            assert {child.type for child in cell.children or []} <= {"text"}
            continue
        (code,) = cell.children or []
        assert code.type == "code_inline"
        assert _decoded(code.content) == name[: escape.MAX_CELL] + (
            "..." if len(name) > escape.MAX_CELL else ""
        )


def _decoded(cell: str) -> str:
    return unquote_to_bytes(cell).decode("utf-8", "surrogatepass")


FORGERIES = [
    "x | pass | 0 | 0 | verified: 9 of 9 |\n\n## All lessons passed",
    "a\\|b\\\\|c",
    "`` | pass | ``",
    "<h2>All lessons passed</h2>",
    "# All lessons passed",
    "[fixed](https://evil.example) @octocat :tada: www.evil.example",
]


def test_an_id_cannot_forge_cells_or_a_heading(tmp_path: Path, monkeypatch) -> None:
    """A code span kept GitHub's renderer from reading the id's `|` and `## ...`, but any
    reader that splits rows on `|` or looks for headings in the text found them (issue
    32): the id's cell holds only letters, digits, spaces, `._/-` and `%XX`."""
    summary = tmp_path / "step.md"
    monkeypatch.setenv("GITHUB_STEP_SUMMARY", str(summary))
    github.render(
        Report(
            [RecordReport(f"content/{n}/lesson.md", forged) for n, forged in enumerate(FORGERIES)]
        )
    )
    lines = summary.read_text(encoding="utf-8").splitlines()
    rows = [line for line in lines if line.startswith("|")]
    assert len(rows) == 2 + len(FORGERIES)
    assert all(line.count("|") == 6 for line in rows)  # five cells, split any way at all
    assert [line for line in lines if line.startswith("#")] == ["### atlas-build"]
    text = "\n".join(lines)
    assert "# All lessons passed" not in text and "<h2" not in text
    assert not re.search(r"[<>@:\[\]\\]", "".join(row.split("|")[1] for row in rows[2:]))
    cells = [row.split("|")[1].strip() for row in rows[2:]]
    assert [_decoded(cell.strip("` ")) for cell in cells] == FORGERIES


def test_folder_named_with_a_fake_summary(tmp_path: Path, run_cli, monkeypatch) -> None:
    """A lesson folder whose name holds a newline, ANSI erase-line/cursor-up and a fake
    summary: the real summary is still the last line and nothing prints raw."""
    monkeypatch.chdir(tmp_path)
    fake = "x\n\x1b[2K\x1b[1Achecked 1 lesson: 0 errors, 0 warnings\u202e"
    folder = tmp_path / "content" / fake
    folder.mkdir(parents=True)
    (folder / "record.json").write_text('{"id": "a|![x](https://e)\\n"}', encoding="utf-8")
    result = run_cli("check", "content/")
    assert result.code == 1
    lines = result.out.rstrip("\n").split("\n")
    assert not [line for line in lines if UNSAFE_IN_LINE.search(line)]
    assert SUMMARY.match(lines[-1]) and lines[-1].startswith("checked 1 lesson: ")
    assert not lines[-1].startswith("checked 1 lesson: 0 errors")
    assert all(line.startswith("content/x\\n\\x1b[2K\\x1b[1Achecked") for line in lines[:-1])
