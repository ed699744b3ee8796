"""The messages between a build and its MkDocs child (atlas_build/site/mkdocs/protocol.py).

Proven here: every message reads back as written; anything else on a line (not JSON, an
unknown type, a missing, extra or ill-typed field, malformed stats or files) is a
`ProtocolError`, never another exception; a child that sends such a line, or ends without
saying what it built, fails the build with a clear problem; a malformed request gets a
problem back from the child; the child's standard output carries messages only.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from atlas_build.site.mkdocs import build, protocol
from atlas_build.site.mkdocs.stats import Stats

REPO = Path(__file__).resolve().parent.parent
CONFIG = REPO / "mkdocs.yml"
SHA = "0" * 64
FILES = {"index.html": [1, 2, 3, SHA]}
STATS = Stats(True, ["index.md"], 3, 0.5, FILES, 2, 2)


@pytest.mark.parametrize(
    "message",
    [
        protocol.Request("/tmp/site", FILES, {"index.md": SHA}),
        protocol.Request("/tmp/site"),
        protocol.Problem("WARNING", "Doc file 'a.md' contains a link"),
        protocol.Problem("ERROR", "Aborted with 1 warnings in strict mode!\nsecond line"),
        protocol.Done(STATS),
        protocol.Done(Stats()),
    ],
)
def test_messages_read_back_as_written(message: protocol.Message) -> None:
    line = protocol.dump(message)
    assert line.endswith("\n") and line.count("\n") == 1
    assert protocol.parse(line) == message


def test_a_problem_reads_as_mkdocs_prints_it() -> None:
    assert protocol.Problem("WARNING", "x").text == "WARNING -  x"
    assert protocol.Problem("ERROR", "y").text == "ERROR   -  y"


def _done(**changed: object) -> str:
    return json.dumps({"type": "done", "stats": {**STATS.to_json(), **changed}})


MALFORMED = [
    "",
    "not json",
    "[]",
    "3",
    '{"type": ["done"]}',
    '{"type": "shout", "text": "x"}',
    '{"level": "ERROR", "message": "no type"}',
    '{"type": "problem", "level": "ERROR"}',
    '{"type": "problem", "level": "ERROR", "message": "x", "extra": 1}',
    '{"type": "problem", "level": "INFO", "message": "x"}',
    '{"type": "problem", "level": "ERROR", "message": 3}',
    '{"type": "request", "site_dir": 3, "files": {}, "sources": {}}',
    '{"type": "request", "site_dir": "", "files": {}, "sources": {}}',
    '{"type": "request", "site_dir": "s", "files": {"a": [1, 2]}, "sources": {}}',
    '{"type": "request", "site_dir": "s", "files": {}, "sources": {"a": 1}}',
    '{"type": "request", "site_dir": "s", "files": [], "sources": {}}',
    '{"type": "done", "stats": null}',
    '{"type": "done", "stats": {}}',
    _done(reused="3"),
    _done(reused=-1),
    _done(jobs=True),
    _done(rendered="index.md"),
    _done(rendered=[1]),
    _done(incremental=1),
    _done(seconds="0.5"),
    _done(files={"index.html": [1, 2, 3, "not a digest"]}),
    json.dumps({"type": "done", "stats": {**STATS.to_json(), "more": 1}}),
    "[" * 100_000,
]


@pytest.mark.parametrize("line", MALFORMED)
def test_anything_else_is_a_protocol_error(line: str) -> None:
    with pytest.raises(protocol.ProtocolError):
        protocol.parse(line)


@settings(max_examples=300, deadline=None)
@given(
    st.recursive(
        st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=8),
        lambda inner: (
            st.lists(inner, max_size=4)
            | st.dictionaries(
                st.sampled_from(["type", "level", "message", "stats", "site_dir", "files", "x"]),
                inner,
                max_size=5,
            )
        ),
        max_leaves=20,
    ),
    st.sampled_from(["request", "problem", "done", "other"]),
)
def test_random_lines_parse_or_raise_a_protocol_error(data: object, kind: str) -> None:
    for value in (data, {**data, "type": kind} if isinstance(data, dict) else data):
        try:
            protocol.parse(json.dumps(value))
        except protocol.ProtocolError:
            pass


def _child_saying(tmp_path: Path, script: str) -> build.MkDocs:
    """A `build.MkDocs` whose process is a stand-in that reads the request and runs `script`."""
    child = build.MkDocs(CONFIG, tmp_path / "docs", tmp_path / "site", None)
    assert child.process is not None
    child.process.stdin.close()  # type: ignore[union-attr]
    child.process.wait()
    command = [sys.executable, "-c", "import sys; sys.stdin.readline()\n" + script]
    child.process = subprocess.Popen(
        command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    return child


@pytest.mark.parametrize(
    ("script", "expected"),
    [
        ("print('hello')", "malformed message from the child (not JSON): hello"),
        ("print('{\"type\": \"done\", \"stats\": 3}')", "malformed message from the child"),
        ("print('{\"type\": \"request\", \"site_dir\": \"x\", \"files\": {}, \"sources\": {}}')",
         "the child sent a request"),
        ("pass", "the child ended without saying what it built"),
        ("print('x' * 500)", "..."),
    ],
)  # fmt: skip
def test_a_child_that_breaks_the_protocol_fails_the_build_clearly(
    tmp_path: Path, script: str, expected: str
) -> None:
    child = _child_saying(tmp_path, script)
    try:
        problems = child.run(tmp_path / "site")
    finally:
        child.close()
    assert len(problems) == 1 and problems[0].startswith("ERROR   -  "), problems
    assert expected in problems[0] and len(problems[0]) < 200


def test_a_failing_child_is_reported_with_its_last_words(tmp_path: Path) -> None:
    child = _child_saying(tmp_path, "raise SystemExit('the end of the child')")
    try:
        assert child.run(tmp_path / "site") == ["the end of the child"]
    finally:
        child.close()


def test_the_child_answers_a_malformed_request_with_a_problem(tmp_path: Path) -> None:
    command = [sys.executable, "-m", "atlas_build.site.mkdocs.child", "--config-file", str(CONFIG)]
    result = subprocess.run(
        command, input='{"type": "request"}\n', capture_output=True, text=True, timeout=120
    )
    assert result.returncode == 1, result.stderr
    [line] = result.stdout.splitlines()
    message = protocol.parse(line)
    assert isinstance(message, protocol.Problem) and message.level == "ERROR"
    assert message.message.startswith("malformed request: a request message has the fields")


def test_the_childs_standard_output_carries_messages_only() -> None:
    script = (
        "import sys\n"
        "from atlas_build.site.mkdocs import child, protocol\n"
        "channel = child._messages_only()\n"
        "print('a stray print')\n"
        "sys.stdout.flush()\n"
        "protocol.send(channel, protocol.Problem('WARNING', 'w'))\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True, timeout=120
    )
    assert result.stdout == protocol.dump(protocol.Problem("WARNING", "w"))
    assert "a stray print" in result.stderr
