"""The safe YAML reader: its libyaml fast path must give exactly what the Python parser gives."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from atlas_build import safeyaml

REPO = Path(__file__).resolve().parent.parent
PIECES = list(":-[]{}&*!|>'\"#%@`, \n\t?~\\0é\u2028\x85\r\x00\ufeff.=<\u0301\U0001f600\u00a0")
PIECES += ["\n  ", "\n- ", ": ", "- ", "!!str ", "&a ", "*a", "...", "---", "'"]


def _seeds() -> list[str]:
    texts = [path.read_text(encoding="utf-8") for path in REPO.glob("content/*/claims.yaml")]
    for path in REPO.glob("content/*/lesson.md"):
        texts.append(path.read_text(encoding="utf-8").split("\n---", 1)[0][4:])
    return texts


def _outcome(read: Any, text: str) -> tuple[Any, ...]:
    try:
        document = read(text)
    except safeyaml.YamlError as error:
        return ("refused", error.kind, error.message, error.line, error.column)
    return ("read", document.data, document.values, document.keys)


def _python_only(text: str) -> safeyaml.Document:
    return safeyaml._read(safeyaml._Loader, text, 0)


def _mutants(count: int, seed: int) -> list[str]:
    rng = random.Random(seed)
    seeds = _seeds()
    found = []
    for _ in range(count):
        text = rng.choice(seeds)
        for _ in range(rng.randint(1, 4)):
            at, roll = rng.randrange(len(text) + 1), rng.random()
            if roll < 0.5:
                text = text[:at] + rng.choice(PIECES) * rng.randint(1, 3) + text[at:]
            elif roll < 0.8:
                text = text[:at] + text[at + rng.randint(1, 5) :]
            else:
                start = rng.randrange(len(text) + 1)
                text = text[:at] + text[start : start + 20] + text[at:]
        found.append(text)
    return found


@pytest.mark.skipif(safeyaml.CParser is None, reason="PyYAML built without libyaml")
def test_fast_path_agrees_with_the_python_parser_on_mutated_files() -> None:
    texts = _seeds() + _mutants(1500, seed=20261129)
    fast = [text for text in texts if safeyaml._fast(text)]
    assert len(fast) > len(texts) // 2  # the fast path is the common one
    for text in texts:
        assert _outcome(safeyaml.load, text) == _outcome(_python_only, text), text


@pytest.mark.parametrize(
    "text",
    ["a:\tb\n", "a: 1\r\nb: 2\r\n", "\ufeffa: 1\n", "? a\n: 1\n", "{a: , b: 1}\n", "[a, b]\u2028"],
)
def test_known_disagreements_take_the_python_path(text: str) -> None:
    assert not safeyaml._fast(text)


def test_lone_surrogates_take_the_python_path() -> None:
    assert not safeyaml._fast("a: '\ud800'\n")


def test_reader_works_without_libyaml(monkeypatch: pytest.MonkeyPatch) -> None:
    text = (REPO / "content" / "attention" / "claims.yaml").read_text(encoding="utf-8")
    expected = _outcome(safeyaml.load, text)
    monkeypatch.setattr(safeyaml, "CParser", None)
    assert not safeyaml._fast(text)
    assert _outcome(safeyaml.load, text) == expected
    assert _outcome(safeyaml.load, "a: &x 1\nb: *x\n")[:2] == ("refused", "unsafe")


# --- numbers: built only when short and finite ----------------------------------------------


@pytest.mark.parametrize(
    "literal",
    [
        "0x" + "f" * 5000,
        "0" + "7" * 5000,
        "0b" + "1" * 5000,
        "1" + ":59" * 400,
        "9" * 5000,
        "!!int " + "9" * 1001,
        "!!float 1." + "0" * 1001,
    ],
    ids=["hex", "octal", "binary", "sexagesimal", "decimal", "tagged-int", "tagged-float"],
)
def test_long_number_refused_at_the_value(literal: str) -> None:
    outcome = _outcome(safeyaml.load, f"a: 1\nb: [2, {literal}]\n")
    assert outcome[:2] == ("refused", "unsafe"), outcome
    assert "characters; the limit is 1000" in outcome[2]
    assert outcome[3:] == (2, 8)


@pytest.mark.parametrize(
    "literal", [".inf", "-.Inf", "+.INF", ".nan", ".NaN", "1.0e+999", "-2.5e+400"]
)
def test_non_finite_float_refused_at_the_value(literal: str) -> None:
    outcome = _outcome(safeyaml.load, f"timeout: {literal}\n")
    assert outcome[:2] == ("refused", "non-finite"), outcome
    assert outcome[3:] == (1, 10)


@pytest.mark.parametrize(
    ("literal", "value"),
    [
        ("0x" + "f" * 998, int("f" * 998, 16)),
        ("1" + ":30" * 333, None),
        ("1.5e+300", 1.5e300),
        ("1e999", "1e999"),  # YAML 1.1: no dot, so a string
        ("'.inf'", ".inf"),
    ],
)
def test_numbers_within_the_limit_are_read(literal: str, value: object) -> None:
    data = safeyaml.load(f"a: {literal}\n").data["a"]
    assert data == value if value is not None else isinstance(data, int)


def test_sexagesimal_at_the_limit_is_fast() -> None:
    """PyYAML builds `1:2:3...` by repeated multiplication (quadratic); at the limit it
    stays a few hundred digits and is printable."""
    data = safeyaml.load("a: 1" + ":59" * 333 + "\n").data["a"]
    assert 590 < len(str(data)) < 600


def test_lone_surrogates_are_reported_by_path() -> None:
    from atlas_build.load.schema import lone_surrogates

    document = safeyaml.load('a: "ok"\nb: ["x", "\\ud800"]\n"\\udc00k": 1\n')
    assert lone_surrogates(document.data) == [(["b", 1], False), (["\udc00k"], True)]


# --- where a syntax error is: the line to fix, not where PyYAML gave up ----------------------


def _at(text: str, needle: str, occurrence: int = 0) -> tuple[int, int]:
    index = -1
    for _ in range(occurrence + 1):
        index = text.index(needle, index + 1)
    return text.count("\n", 0, index) + 1, index - (text.rfind("\n", 0, index) + 1) + 1


def _refused(text: str, line_offset: int = 0) -> safeyaml.YamlError:
    with pytest.raises(safeyaml.YamlError) as raised:
        safeyaml.load(text, line_offset=line_offset)
    return raised.value


@pytest.mark.parametrize(
    ("text", "needle", "says", "stopped"),
    [
        # PyYAML's problem mark is the end of the text, a line after the quote
        ('claims:\n  - id: "x\n    kind: quiz\n', '"x', "quoted string", (4, 1)),
        ("title: 'abc\n", "'abc", "quoted string", (2, 1)),
        # ... the start of the next line, after the key that has no `:`
        ("a:\n- 1\nb\n", "b\n", "no `:`", (4, 1)),
        ("claims:\n  - id: x\n    kind quiz\n    params: {}\n", "kind quiz", "no `:`", (4, 5)),
        # ... the next line's `:`, after a `[` or `{` that is not closed
        ("a:\n  bind: [a, b\n  params: {}\n", "[a", "`[` is not closed", (3, 9)),
        ("a: {b: 1\nc: 2\n", "{b", "`{` is not closed", (2, 2)),
        # ... the scalar after the next quote, which the missing one ran on to
        (
            'date: "2026-11-29\nauthor: null\nversion: "1.0"\n',
            '"2026',
            "runs on to line 3",
            (3, 11),
        ),
    ],
)
def test_an_error_left_open_is_where_it_opens(text, needle, says, stopped) -> None:
    error = _refused(text)
    assert (error.line, error.column) == _at(text, needle)
    assert says in error.message
    assert f"at line {stopped[0]}, column {stopped[1]}" in error.message
    shifted = _refused(text, line_offset=5)  # front matter: lines after the opening `---`
    assert (shifted.line, shifted.column) == (error.line + 5, error.column)
    assert f"at line {stopped[0] + 5}, column {stopped[1]}" in shifted.message


@pytest.mark.parametrize(
    ("text", "needle"),
    [
        ("claims:\n  - id: x\n    kind: quiz\n   bind: [a]\n", "bind"),  # a bad indent
        ("a: 1\n  b: 2\n", ": 2"),
        ("claims:\n  - id: x\n\tkind: quiz\n", "\t"),  # a tab
        ("a: b: c\n", ": c"),
        ("a: [b: c: d]\n", ": d"),  # a flow error on its bracket's own line
        ('a: "x\\q"\n', 'q"'),  # an unknown escape (PyYAML points after its backslash)
    ],
)
def test_an_error_on_its_own_line_is_where_pyyaml_says(text, needle) -> None:
    error = _refused(text)
    assert (error.line, error.column) == _at(text, needle)
    assert "at line" not in error.message


def test_front_matter_errors_are_located_in_the_lesson_file() -> None:
    from atlas_build.load.frontmatter import read_lesson

    text = '---\nid: x\ntitle: "Free fall\nversion: "1.0"\n---\n# Free fall\n'
    [problem] = read_lesson(text, "lesson.md").diagnostics
    assert (problem.line, problem.column) == _at(text, '"Free')
    assert "runs on to line 4" in problem.message
    text = "---\nid: x\nrelated: [a, b\nversion: 1\n---\n# Free fall\n"
    [problem] = read_lesson(text, "lesson.md").diagnostics
    assert (problem.line, problem.column) == _at(text, "[a")
    assert "at line 4, column 8" in problem.message
