"""Hostile input at the size cap ends in seconds, in bounded memory, with exact locations.

Each worst case is written at (or near) the default 5 MiB cap and checked in a child
process with a wall-clock timeout and, for the locator, an address-space limit, so a
regression shows as a timeout or a MemoryError rather than a slow suite. The bounds are
generous (the machine may be shared); what they catch is the quadratic or the
gigabytes, which are orders of magnitude past them.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from atlas_build.load import DEFAULT_MAX_BYTES

REPO = Path(__file__).resolve().parent.parent
SEED = json.loads((REPO / "content" / "attention" / "record.json").read_text("utf-8"))
CAP = DEFAULT_MAX_BYTES
TIMEOUT = 60
ADDRESS_SPACE = 1 << 30  # 1 GiB: json-source-map needed 2 GB (7.7 GB under a long key)

_PARSE = """
import json, sys
from atlas_build.load import jsonfile
text = open(sys.argv[1], encoding="utf-8").read()
data, problems = jsonfile.parse(text, "r.json")
print(json.dumps([[p.code, p.line, p.column] for p in problems]))
"""

_CHECK = """
import json, resource, sys
limit = int(sys.argv[2])
resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
from atlas_build import pipeline
report, _ = pipeline.check([sys.argv[1]], pipeline.Options(cache_dir=None, jobs=1))
found = [[d.code, d.line, d.column, d.pointer] for r in report.records for d in r.diagnostics]
print(json.dumps({"exit": report.exit_code(), "diagnostics": found}))
"""


def _child(script: str, *args: str) -> Any:
    env = dict(os.environ, OPENBLAS_NUM_THREADS="1", OMP_NUM_THREADS="1")
    done = subprocess.run(
        [sys.executable, "-c", script, *args],
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
        cwd=REPO,
        env=env,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    return json.loads(done.stdout)


def _position(text: str, index: int) -> tuple[int, int]:
    return text.count("\n", 0, index) + 1, index - (text.rfind("\n", 0, index) + 1) + 1


def _fill(head: str, unit: str, tail: str = "") -> str:
    """head + unit repeated up to the size cap + tail."""
    return head + unit * ((CAP - len(head) - len(tail)) // len(unit)) + tail


PRESCAN_CASES = {
    # name: (text, expected code or None when it parses)
    "unterminated-escaped-quotes": (_fill('{"a": "', '\\"'), "A104"),
    "many-quotes": (_fill("", '"'), "A104"),
    "backslash-run": (_fill('{"a": "', "\\"), "A104"),
    "backslash-quote-pairs": (_fill('["', '\\\\"'), "A104"),
    "deep-nesting": (_fill("", "["), "A107"),
    "bracket-pairs": (_fill("[", "[],", "[]]"), None),
    "digit-runs-just-under-the-limit": (_fill("[", "9" * 1000 + ",", "1]"), None),
    "long-number-at-the-end": (_fill("[", " ", "9" * 1001 + "]"), "A104"),
    "nan-after-many-strings": (_fill("[", '"[{",', "NaN]"), "A106"),
}


def _expected_index(text: str, code: str) -> int:
    """Where the finding belongs, found without atlas-build: Python's json for syntax
    errors, the limit's bracket for nesting, the literal for numbers."""
    if code == "A107":
        return 64
    if code == "A106":
        return text.index("NaN")
    if "9" * 1001 in text:
        return text.index("9" * 1001)
    try:
        json.loads(text)
    except json.JSONDecodeError as error:
        return error.pos
    raise AssertionError("expected a syntax error")


@pytest.mark.parametrize("name", sorted(PRESCAN_CASES))
def test_json_prescan_is_linear_at_the_size_cap(name: str, tmp_path: Path) -> None:
    """One pass whatever the text: the regex this replaced rescanned to the end of the
    file from every quote after an unterminated string (about 1.4 s for 8,000 escaped
    quotes, growing with the square: days for these)."""
    text, code = PRESCAN_CASES[name]
    assert CAP - 2_000 < len(text) <= CAP
    path = tmp_path / "record.json"
    path.write_text(text, encoding="utf-8")
    found = _child(_PARSE, str(path))
    if code is None:  # parsed (a top-level array is the schema's business, not the parser's)
        assert found == []
        return
    assert [entry[0] for entry in found] == [code], found
    assert tuple(found[0][1:]) == _position(text, _expected_index(text, code))


def _record(extra: str = "", change: tuple[str, str] | None = None) -> str:
    """The seed dumped, with an optional replacement and a member added first."""
    text = json.dumps(SEED, ensure_ascii=False, indent=2)
    if change:
        assert change[0] in text
        text = text.replace(change[0], change[1], 1)
    return text.replace("{\n", "{\n" + extra + ",\n", 1) if extra else text


def _array(room: int, item: str = "1") -> str:
    return "[" + ",".join([item] * (room // (len(item) + 1))) + "]"


ROOM = CAP - len(json.dumps(SEED, ensure_ascii=False, indent=2).encode()) - 2_000
KEY = "k" * 1_000_000
LOCATOR_CASES: dict[str, tuple[str, str, str]] = {
    # name: (record text, expected code, the needle whose first occurrence it is at)
    "array-of-2.5-million-numbers-in-related": (
        _record(change=('"related": []', '"related": ' + _array(ROOM))),
        "A114",
        '"related": [1',
    ),
    "array-under-a-1-mb-key": (
        _record(f'  "{KEY}": {_array(ROOM - len(KEY))}'),
        "A111",
        f'"{KEY}"',
    ),
    "wrong-type-after-a-big-array": (
        _record(f'  "padding": {_array(ROOM)}', change=('"title": "Self-attention"', '"title": 5')),
        "A114",
        '"title": 5',
    ),
    "two-thousand-unknown-keys-then-a-wrong-type": (
        _record(
            ",\n".join(f'  "u{index:07d}": {_array(ROOM // 2000 - 16)}' for index in range(2000)),
            change=('"version": "1.3.0"', '"version": 13'),
        ),
        "A114",
        '"version": 13',
    ),
}


@pytest.mark.parametrize("name", sorted(LOCATOR_CASES))
def test_locator_is_memory_bounded_and_exact(name: str, tmp_path: Path) -> None:
    """Every stage runs on the 5 MB record under a 1 GiB address-space limit, and the
    finding sits exactly where it is written (not at 1:1 as when MemoryError was eaten)."""
    text, code, needle = LOCATOR_CASES[name]
    assert CAP // 2 < len(text.encode()) <= CAP, len(text.encode())
    folder = tmp_path / "content" / "big"
    folder.mkdir(parents=True)
    (folder / "record.json").write_text(text, encoding="utf-8")
    result = _child(_CHECK, str(folder), str(ADDRESS_SPACE))
    assert result["exit"] == (0 if code == "A111" else 1)  # an unknown field only warns
    where = [(line, column) for found, line, column, _ in result["diagnostics"] if found == code]
    index = text.index(needle)
    if code == "A114" and needle.startswith('"related"'):
        index += len('"related": [')  # the first wrong item
    elif code == "A114":
        index += needle.index(":") + 2  # the value
    assert _position(text, index) in where, (where[:5], _position(text, index))
    assert len(result["diagnostics"]) <= 250  # capped: not one finding per element


def test_one_hostile_lesson_does_not_stop_the_others(tmp_path: Path) -> None:
    """A 6,000-digit hex integer in one lesson's front matter: located there, exit 1, and
    the other lessons still get their full report (this was exit 2 with no report)."""
    from atlas_build import pipeline
    from atlas_build.authoring.sources import front_matter
    from atlas_build.model import COMPUTED_FIELDS

    content = tmp_path / "content"
    (content / "good").mkdir(parents=True)
    (content / "good" / "record.json").write_text(json.dumps(SEED), encoding="utf-8")
    metadata = {key: value for key, value in SEED.items() if key not in COMPUTED_FIELDS}
    lesson = front_matter(metadata) + SEED["content"]
    lesson = lesson.replace("series: null", "series: 0x" + "f" * 6000, 1)
    (content / "hex").mkdir()
    (content / "hex" / "lesson.md").write_text(lesson, encoding="utf-8")
    report, _ = pipeline.check([str(content)], pipeline.Options(cache_dir=None, jobs=1))
    assert report.exit_code() == 1
    by_slug = {record.slug: record for record in report.records}
    assert set(by_slug) == {"good", "hex"}
    (bad,) = [d for d in by_slug["hex"].diagnostics if d.code == "A132"]
    assert (bad.line, bad.column) == _position(lesson, lesson.index("0x" + "f" * 10))
    assert by_slug["good"].status == "pass" and by_slug["good"].diagnostics  # A202 notes


_CHECK_CAP = _CHECK.replace(
    "pipeline.Options(cache_dir=None, jobs=1)",
    "pipeline.Options(cache_dir=None, jobs=1, max_bytes=int(sys.argv[3]))",
)


@pytest.mark.parametrize("cap", [CAP, 3 * CAP])
def test_a_2000_character_key_before_a_2_mb_array(tmp_path: Path, cap: int) -> None:
    """Issue 32: every finding of this record read 1:1. Under the default cap its one
    finding is A101 where the file crosses the cap; with a cap it fits under, each
    finding is at its own place, within the 1 GiB address space."""
    key = "k" * 2_000
    text = _record(
        f'  "{key}": {_array(2_000_000)}', change=('"title": "Self-attention"', '"title": 5')
    )
    folder = tmp_path / "content" / "big"
    folder.mkdir(parents=True)
    (folder / "record.json").write_text(text, encoding="utf-8")
    result = _child(_CHECK_CAP, str(folder), str(ADDRESS_SPACE), str(cap))
    found = {(code, line, column) for code, line, column, _ in result["diagnostics"]}
    assert result["exit"] == 1
    if cap == CAP:
        assert found == {("A101", *_position(text, cap))}
        return
    title = text.index('"title": 5') + len('"title": ')
    assert {
        ("A111", *_position(text, text.index(f'"{key}"'))),
        ("A114", *_position(text, title)),
    } <= found
    assert (1, 1) not in {(line, column) for _, line, column in found}
