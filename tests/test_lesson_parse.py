"""Parsing the body into blocks, and reading it as a reader sees it: a lesson whose
paragraphs an author wrapped at 80 columns reads as the same lesson on one line each."""

from __future__ import annotations

import json
import re
import textwrap
from pathlib import Path

from atlas_build import lesson, pipeline
from atlas_build.lesson.parse import parse_blocks, unwrapped

BLIND = Path(__file__).resolve().parent / "blind"
_MARKER = re.compile(r"(?:[-*+]|[0-9]+[.)]|#+|>)(?:\s|$)")


def _reading(text: str) -> str:
    return unwrapped(text, parse_blocks(text))


def test_a_soft_break_of_a_paragraph_reads_as_a_space_at_the_same_offsets() -> None:
    text = "# T\n\nA step takes 50 +\n450/8 = 106.25 ms.\r\nThen more.\n\nNext one.\n"
    reading = _reading(text)
    assert len(reading) == len(text)
    assert "50 + 450/8 = 106.25 ms.  Then more.\n\nNext one.\n" in reading
    assert reading.startswith("# T\n\n")


def test_list_items_tables_and_display_equations_keep_their_breaks() -> None:
    text = (
        "Items:\n\n- first 5 W\n  goes on\n- 3 W\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n"
        "Before\n$$\nx = 1\n$$\nafter.\n"
    )
    reading = _reading(text)
    assert "- first 5 W   goes on\n- 3 W\n\n| a | b |\n|---|---|\n| 1 | 2 |" in reading
    assert "$$\nx = 1\n$$\n" in reading
    assert lesson.build(text).content == reading


def _wrapped(content: str, width: int) -> str:
    """Paragraphs of prose wrapped as an editor would, never starting a line with a list
    marker (which would start a list)."""
    blocks = []
    for block in content.split("\n\n"):
        first = block.lstrip()[:1]
        if "\n" in block or not first or first in "$|#->*`" or _MARKER.match(block):
            blocks.append(block)
            continue
        lines = textwrap.wrap(block, width, break_long_words=False, break_on_hyphens=False)
        for i in range(len(lines) - 1, 0, -1):
            if _MARKER.match(lines[i]):
                lines[i - 1] += " " + lines.pop(i)
        blocks.append("\n".join(lines))
    return "\n\n".join(blocks)


def _as_authored(
    tmp_path: Path, slug: str, body: str, newline: str = "\n"
) -> pipeline.RecordReport:
    record = json.loads((BLIND / slug / "record.json").read_text("utf-8"))
    computed = {"contentHash", "contentLength", "sections", "recordHash", "content"}
    meta = {key: value for key, value in record.items() if key not in computed}
    folder = tmp_path / "content" / slug
    folder.mkdir(parents=True)
    front = "".join(f"{key}: {json.dumps(value)}\n" for key, value in meta.items())
    text = f"---\n{front}---\n{body}"
    (folder / "lesson.md").write_bytes(text.replace("\n", newline).encode("utf-8"))
    report, _ = pipeline.check([str(folder)], pipeline.Options(jobs=1))
    return report.records[0]


def test_a_wrapped_lesson_checks_as_the_record_does(tmp_path: Path) -> None:
    """amdahl-law (a blind lesson) wrapped at 80 columns: `50 +⏎450/8 = 106.25 ms` read
    as `450/8 = 106.25 ms` was a false A408, one of 108 false errors on the blind corpus
    wrapped so. Wrapped, it verifies what the record does, and an edited number still
    fails, at its line in the wrapped text."""
    slug = "amdahl-law"
    content = json.loads((BLIND / slug / "record.json").read_text("utf-8"))["content"]
    record, _ = pipeline.check([str(BLIND / slug)], pipeline.Options(jobs=1))
    [expected] = record.records
    body = _wrapped(content, 80)
    assert "50 +\n450/8 = 106.25 ms" in body
    wrapped = _as_authored(tmp_path / "a", slug, body)
    assert [d.code for d in wrapped.diagnostics if d.severity.value == "error"] == []
    for kind in ("numbers", "relations"):
        assert wrapped.coverage[kind]["verified"] == expected.coverage[kind]["verified"] > 0
    edited = _as_authored(tmp_path / "b", slug, body.replace("= 106.25 ms", "= 116.25 ms"))
    errors = [d for d in edited.diagnostics if d.code == "A408"]
    assert errors and "116.25 ms" in errors[0].message


def test_a_wrapped_lesson_with_crlf_line_endings_reads_as_with_lf(tmp_path: Path) -> None:
    """A Windows checkout (`core.autocrlf`) writes every line end as CRLF: a wrapped line
    then read `≈ 26.2\\r` and its unit apart, 15 false A408 on the wrapped blind corpus,
    and every lesson had an A203. A lesson.md reads CRLF as LF."""
    slug = "bandwidth-delay-product"
    content = json.loads((BLIND / slug / "record.json").read_text("utf-8"))["content"]
    body = _wrapped(content, 80)
    plain = _as_authored(tmp_path / "lf", slug, body)
    windows = _as_authored(tmp_path / "crlf", slug, body, newline="\r\n")
    assert [d.code for d in windows.diagnostics if d.severity.value != "info"] == []
    assert windows.coverage["numbers"] == plain.coverage["numbers"]
    assert [d.line for d in windows.diagnostics] == [d.line for d in plain.diagnostics]
