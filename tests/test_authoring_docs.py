"""docs/authoring.md stays true: its tutorial is replayed command by command and every
output compared, and the rules it states are the ones the code applies."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from atlas_build.claims.coverage import relations, verification
from atlas_build.claims.prose import exempt
from atlas_build.lesson import shapes

REPO = Path(__file__).resolve().parent.parent
DOC = (REPO / "docs" / "authoring.md").read_text(encoding="utf-8")
FENCE = re.compile(r'^```(\w+)(?: title="([^"]+)")?\n(.*?)^```$', re.MULTILINE | re.DOTALL)


def tutorial() -> str:
    """The tutorial section (its lesson.md block holds `##` headings of its own)."""
    return DOC[DOC.index("## Tutorial") : DOC.index("\n## The lesson.md format")]


def steps(text: str) -> list[tuple[str, str]]:
    """(command, expected output) of a console block; a heredoc belongs to its command."""
    found: list[tuple[str, str]] = []
    lines = text.splitlines()
    index = 0
    while index < len(lines):
        line = lines[index]
        assert line.startswith("$ "), f"output before any command: {line!r}"
        command = [line[2:]]
        index += 1
        if "<<'EOF'" in line:
            while lines[index] != "EOF":
                command.append(lines[index])
                index += 1
            command.append(lines[index])
            index += 1
        output = []
        while index < len(lines) and not lines[index].startswith("$ "):
            output.append(lines[index])
            index += 1
        found.append(("\n".join(command), "\n".join(output)))
    return found


def test_the_tutorial_replays_exactly(tmp_path):
    """Files are written as shown, commands run in order in an empty folder, and each
    command's output (stdout and stderr) must be the one pasted."""
    blocks = FENCE.findall(tutorial())
    assert sum(1 for language, *_ in blocks if language == "console") >= 5
    env = dict(os.environ, PYTHONPATH=str(REPO))
    env["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '')}"
    has_jq = shutil.which("jq") is not None
    replayed = 0
    for language, title, body in blocks:
        if title:
            (tmp_path / title).write_text(body, encoding="utf-8")
            continue
        if language != "console":
            continue
        for command, expected in steps(body):
            done = subprocess.run(
                command, shell=True, cwd=tmp_path, env=env, capture_output=True, text=True,
                timeout=300,
            )  # fmt: skip
            if "| jq" in command and not has_jq:
                continue
            assert (done.stdout + done.stderr).rstrip("\n") == expected, command
            replayed += 1
    assert replayed >= 12


def test_the_tutorial_shows_the_scaffold_and_the_exit_statuses():
    text = tutorial()
    assert "$ atlas-build new free-fall" in text
    assert '"verification": "verified"' in text and '"verification":"partial"' in text
    assert "error A401" in text and "error A403" in text and "info A410" in text


# --- the rules the reference states ------------------------------------------------------------


def test_every_exemption_rule_is_documented():
    internal = ("heading", "link text")  # a link's text is reported as `link`
    rules = [rule for rule in exempt._ORDER if rule not in internal] + ["numbering", "date"]
    for rule in rules + ["version", "name"]:
        assert f"  - `{rule}`: " in DOC, rule
    words = re.search(r"\(\?:(step\|.*?)\)", exempt._NUMBERING.pattern)
    assert words is not None
    for word in words.group(1).replace("\\.", ".").split("|"):
        assert word in DOC, word


def test_every_status_and_verdict_is_documented():
    for status in relations.STATUSES:
        shown = "not checked** (`unverified`" if status == "unverified" else f"**{status}**"
        assert shown in DOC, status
    for name in verification.CLASSES:
        assert f"**{name}**" in DOC, name
    for verdict in ("failed", "unverified", "partial", "verified"):
        assert f"| `{verdict}` |" in DOC, verdict


WORDINGS = [
    (shapes.is_glossary_mark, ["Symbols and units", "Symbols", "Notation", "Variables"]),
    (shapes.is_glossary_mark, ["Symbols & units"]),
    (shapes.is_quiz_heading, ["Check your understanding", "Quiz", "Test yourself"]),
    (shapes.is_quiz_heading, ["Self-check", "Questions"]),
    (shapes.answer_mark, ["Answer and reasoning", "Answer", "Solution", "Answer: 44.1 m"]),
    (shapes.is_sources_heading, ["Sources", "References", "Bibliography"]),
    (shapes.is_specs_heading, ["Specifications and interfaces", "Specifications", "Interfaces"]),
]


@pytest.mark.parametrize(("recognise", "wordings"), WORDINGS)
def test_the_wordings_the_doc_names_are_recognised(recognise, wordings):
    flowing = " ".join(DOC.split())
    for wording in wordings:
        assert f"`{wording}`" in flowing, wording
        assert recognise(wording), wording


def test_the_assumption_forms_the_doc_names_are_recognised():
    flowing = " ".join(DOC.split())
    for mark in ("Assumptions", "Assumptions:", "Assumption."):
        assert f"`{mark}`" in flowing, mark
        assert shapes.assumption_text(f"{mark} g is constant.") == "g is constant.", mark
